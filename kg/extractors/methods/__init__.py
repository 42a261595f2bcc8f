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
* :mod:`.introduced` and :mod:`.resources` -- the names a paper introduces and whether each is a
  method or a dataset, benchmark or library;
* :mod:`.linking` -- the known methods a new name is related to or a kind of.

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

from .forms import Abbreviation, find_abbreviations, mask, name_key, slugify
from .introduced import IntroducedMethod, introduced_in, title_name
from .matching import MethodMatch, MethodMatcher
from .names import NamedMethod, coined_names, defined_names
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
    "default_matcher",
    "extract",
    "find_abbreviations",
    "load_taxonomy",
    "name_key",
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
    titled = record.title is not None and title_name(mask(record.title.text[:MAX_CHARS])) is not None
    found: list[Mention] = []
    for field_name, span in (("title", record.title), ("abstract", record.abstract)):
        if span is None or not span.text:
            continue
        found.extend(_extract_field(matcher, field_name, span.text, span.at, log, titled))
    # a name the title gives and the abstract calls a dataset or benchmark is that resource
    resources = {m.key for m in found if m.kind == "introduced-resource"}
    introduced = {m.key for m in found if m.kind in ("introduced-method", "introduced-resource")}
    for m in found:
        if m.kind == "introduced-method" and m.key in resources:
            continue
        if m.kind == "named-method" and m.key in introduced:
            continue  # the paper's own name, introduced (the title's) rather than mentioned
        yield m


def _extract_field(
    matcher: MethodMatcher, field_name: str, text: str, at: Location, log: IssueLog, titled: bool = False
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
    introduced = introduced_in(matcher, text, masked, abbreviations, matches, titled, field_name == "title")
    own = {new.key for new in introduced}  # the paper's own names are introduced, not mentioned
    for m in matches:
        if not m.name:
            yield Mention("method", m.slug, m.text, at, NAME, position=m.start)
    for named in named_methods(matcher, text, masked, abbreviations, matches):
        if named.key not in own:
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
            found[named.key] = NamedMethod(
                named.key, named.label, text[named.start : named.end], named.start, named.end
            )
    return sorted(found.values(), key=lambda n: (n.start, n.key))
