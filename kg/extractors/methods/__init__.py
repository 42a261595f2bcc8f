"""Machine-learning methods in a paper's title and abstract: the known methods it mentions, the
methods it names that no list holds, and the methods, datasets and benchmarks it introduces.

The package's modules are its stages (``docs/methods.md`` tells the whole story):

* :mod:`.vocabulary` -- the SKOS concepts of ``ontology/methods.ttl``: labels that count alone,
  hidden labels that count only in context, generic concepts and model families;
* :mod:`.forms` -- surface forms: masking markup, label keys, slugs and name keys, the
  abbreviations a page defines (Schwartz & Hearst), plural and hyphen variants;
* :mod:`.rules` -- context rules for ambiguous words ("diffusion", "attention", "SSM");
* :mod:`.matching` -- the spaCy ``PhraseMatcher`` over every label form, the token rules and the
  vetoes, versioned names of model families;
* :mod:`.names` -- open-vocabulary names (versioned models, defined method acronyms, coined names);
* :mod:`.introduced`, :mod:`.parts`, :mod:`.shapes` and :mod:`.resources` -- the names a paper
  introduces (in a proposing sentence, its title, its named parts, the passive) and whether each is
  a method or a dataset, benchmark or library;
* :mod:`.linking` -- the known methods a new name is related to or a kind of;

>>> slugify("Gated-SwinRMT")
'gated-swinrmt'
>>> [(a.short, a.long) for a in find_abbreviations("We use Low-Rank Adaptation (LoRA) here.")]
[('LoRA', 'Low-Rank Adaptation')]
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import lru_cache
from pathlib import Path

from kg.errors import IssueLog
from kg.records import Location, Mention, Record

from .forms import Abbreviation, bare_key, concept_key, find_abbreviations, mask, name_key, paper_tag, slugify
from .found import MethodMatch
from .introduced import IntroducedMethod, introduced_in
from .matching import MethodMatcher
from .names import NamedMethod, coined_names, defined_names
from .parts import title_name
from .vocabulary import METHOD_BASE, SCHEME, Concept, load_taxonomy, taxonomy_path

__all__ = [
    "KINDS",
    "MAX_CHARS",
    "METHOD_BASE",
    "NAME",
    "SCHEME",
    "Abbreviation",
    "Concept",
    "IntroducedMethod",
    "MethodMatch",
    "MethodMatcher",
    "bare_key",
    "concept_key",
    "default_matcher",
    "extract",
    "find_abbreviations",
    "load_taxonomy",
    "name_key",
    "own_names",
    "paper_tag",
    "slugify",
    "taxonomy_path",
    "warm",
]

NAME = "methods"
KINDS: tuple[str, ...] = ("method", "named-method", "introduced-method", "introduced-resource")
"""The kinds of mention it makes (``Mention.kind``)."""

MAX_CHARS = 200_000
"""Longer fields are cut to this many characters (with a warning): bounded work per abstract."""

# --------------------------------------------------------------------------- extractor


@lru_cache(maxsize=4)
def default_matcher(taxonomy: Path | None = None) -> MethodMatcher:
    """The matcher built from ``taxonomy`` (default: the repository's), built once per path."""
    return MethodMatcher(taxonomy)


def warm() -> None:
    """Build the default matcher now (before worker processes fork, so they share it)."""
    default_matcher()


def extract(record: Record, log: IssueLog) -> Iterator[Mention]:
    """Method mentions and introduced methods in the record's title and abstract."""
    matcher = default_matcher()
    title = mask(record.title.text[:MAX_CHARS]) if record.title is not None else ""
    titled = title_name(title) is not None
    # the paper's tag in the keys of names that do not say alone what they are: from its title, or
    # from the start of its abstract when a source gives no title
    opening = mask(record.abstract.text[:200]) if not title and record.abstract is not None else ""
    paper = paper_tag(title or opening)
    found: list[Mention] = []
    for field_name, span in (("title", record.title), ("abstract", record.abstract)):
        if span is None or not span.text:
            continue
        found.extend(_extract_field(matcher, field_name, span.text, span.at, log, titled, paper))
    yield from own_names(found)


def own_names(found: list[Mention]) -> list[Mention]:
    """A paper's mentions with its own names settled: one concept per name it introduces (the title's
    "DSCA" is the abstract's "Dynamic Subspace Concept Alignment (DSCA)"), a name it introduces not
    also mentioned, a name the title gives and the abstract calls a dataset that dataset."""
    introduced = [m for m in found if m.kind in ("introduced-method", "introduced-resource")]
    # per name, the key of the description that gives a long form (else the first)
    keys: dict[str, tuple[bool, str]] = {}
    for m in introduced:
        name, long = bare_key(m.key), bool(m.get("full")) and m.get("full") != m.get("short")
        if name not in keys or (long and not keys[name][0]):
            keys[name] = (bool(long), m.key)
    resources = {bare_key(m.key) for m in introduced if m.kind == "introduced-resource"}
    forms = set(keys)
    for m in introduced:
        forms.update(name_key(f) for f in (m.get("full"), m.get("short"), m.text) if f)
    out: list[Mention] = []
    for m in found:
        if m.kind in ("introduced-method", "introduced-resource"):
            name = bare_key(m.key)
            if m.kind == "introduced-method" and name in resources:
                continue
            if keys[name][1] != m.key:
                m = Mention(m.kind, keys[name][1], m.text, m.at, m.extractor, m.position, m.detail)
        elif m.kind == "named-method" and (m.key in forms or bare_key(m.key) in forms):
            continue  # the paper's own name, introduced rather than mentioned
        out.append(m)
    return out


def _extract_field(
    matcher: MethodMatcher,
    field_name: str,
    text: str,
    at: Location,
    log: IssueLog,
    titled: bool = False,
    paper: str = "",
) -> Iterator[Mention]:
    if len(text) > MAX_CHARS:
        log.warn(
            at,
            "abstract-too-long",
            f"{field_name} has {len(text)} characters; methods are looked for in the first {MAX_CHARS} "
            f"(expected at most {MAX_CHARS})",
        )
        text = text[:MAX_CHARS]
    masked = mask(text)
    doc = matcher.nlp.make_doc(masked)
    abbreviations = find_abbreviations(masked)
    matches = matcher.search(text, doc, masked, abbreviations)
    introduced = introduced_in(
        matcher, text, masked, abbreviations, matches, titled, field_name == "title", paper
    )
    for m in matches:
        if not m.name:
            yield Mention("method", m.slug, m.text, at, NAME, position=m.start)
    for named in named_methods(matcher, text, masked, abbreviations, matches):
        yield Mention(
            "named-method", named.key, named.text, at, NAME, position=named.start, detail=named.detail()
        )
    for new in introduced:
        kind = "introduced-resource" if new.resource_type else "introduced-method"
        yield Mention(kind, new.key, new.text, at, NAME, position=new.start, detail=new.detail())


def named_methods(
    matcher: MethodMatcher,
    text: str,
    masked: str,
    abbreviations: list[Abbreviation],
    matches: list[MethodMatch],
) -> list[NamedMethod]:
    """The open-vocabulary method names of a text (see :mod:`.names`), one per key, in text order."""
    found: dict[str, NamedMethod] = {}
    for m in matches:
        if m.name:
            named = NamedMethod(name_key(m.name), m.name, m.text, m.start, m.end, (m.slug,))
            found.setdefault(named.key, named)
    known_spans = [(m.start, m.end) for m in matches]
    slugs_in = lambda part: (k.slug for k in matcher.find_cached(part) if not k.name)  # noqa: E731
    for named in defined_names(abbreviations, matcher.label_to_slug, slugs_in):
        found.setdefault(named.key, named)
    for named in coined_names(masked, known_spans):
        if named.key not in found:
            inside = tuple(sorted({m.slug for m in matches if named.start <= m.start and m.end <= named.end}))
            found[named.key] = NamedMethod(
                named.key, named.label, text[named.start : named.end], named.start, named.end, inside
            )
    return sorted(found.values(), key=lambda n: (n.start, n.key))
