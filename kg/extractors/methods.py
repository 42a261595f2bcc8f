"""Machine-learning method mentions and the methods a paper introduces.

Known methods come from the SKOS method taxonomy (``ontology/methods.ttl``):
every ``skos:prefLabel``/``skos:altLabel`` (plus hyphen/space and plural
variants) goes into a spaCy ``PhraseMatcher`` over lower-cased tokens;
abbreviation-like labels (``LoRA``, ``SSM``, ``S4``) match case-sensitively,
and a few ``Matcher`` rules cover what a phrase list cannot (``masked
diffusion``, ``diffusion-based``, ``state-space layers``).  Only the tokenizer
runs (``nlp.make_doc``); the longest match wins on overlaps.

Ambiguity rules (each has a test):

* ``diffusion`` alone is a physical or social process; it counts as a
  diffusion model only next to a generative cue (``diffusion model``,
  ``-based``, ``policy``, ``language model``; ``denoising``, ``masked``,
  ``discrete``, ``latent``, ``video`` ... ``diffusion``), and never after
  a process word (``information``, ``heat``, ``anomalous`` ...) or before
  ``equation``, ``MRI``, ``coefficient`` ...
* a short all-capitals label (``SSM``, ``S4``, ``WD``) counts only where the
  text defines it as that concept ("state-space models (SSMs)"), or names the
  concept's family in words elsewhere, or -- for state-space models -- talks
  about sequence modelling (sequence, recurrent, Mamba, selective ...).  A
  definition as anything else ("structural similarity measure (SSM)") vetoes it.

Abbreviations defined on the page (Schwartz & Hearst: a long form followed by
its short form in parentheses, the short form's letters found in order in the
long form, the first at a word start) are used: when the long form is a known
label, later uses of the short form are mentions of that concept.

>>> slugify("Gated-SwinRMT")
'gated-swinrmt'
>>> [(a.short, a.long) for a in find_abbreviations("We use Low-Rank Adaptation (LoRA) here.")]
[('LoRA', 'Low-Rank Adaptation')]
"""

from __future__ import annotations

import re
import unicodedata
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy
import spacy
from spacy.attrs import LOWER
from spacy.matcher import Matcher, PhraseMatcher
from spacy.tokenizer import Tokenizer
from spacy.tokens import Doc

from kg.errors import IssueLog, KgError
from kg.records import Location, Mention, Record
from kg.vocab import ontology_path

NAME = "methods"

MAX_CHARS = 200_000
"""Longer fields are cut to this many characters (with a warning): bounded work per abstract."""

SCHEME = "https://w3id.org/kg/method/scheme"
METHOD_BASE = "https://w3id.org/kg/method/"


# Each token rule of ``MethodMatcher._add_rules`` contains one of these; the Matcher is the costly
# part of a search, so it runs only on texts that could match.
_RULE_TRIGGER = re.compile(r"diffusion|low[\s\-–]*rank|state[\s\-–]*space", re.IGNORECASE)
# Case-insensitive searches cost 5x to 15x more than case-sensitive ones in ``re``: the patterns
# searched often are searched, case-sensitively and in lower case, in the folded text (``_folded``).
_RULE_TRIGGER_FOLDED = re.compile(_RULE_TRIGGER.pattern)
_RULE_WORDS = frozenset({"diffusion", "diffusions", "low", "low-rank", "state", "state-space"})
"""The words one of which each token rule contains: the Matcher runs only around them."""
_RULE_REACH = 4
"""Tokens a rule reaches on either side of its trigger word (the longest rule has five tokens)."""
TOKENIZER_CACHE = 200_000
"""Chunks the tokenizer keeps (spaCy's default, 10,000, fills within a few thousand abstracts)."""


def _rule_triggered(low: str) -> bool:
    """Whether a token rule could match (``_RULE_TRIGGER``), given the folded text."""
    return "diffusion" in low or (
        ("rank" in low or "space" in low) and _RULE_TRIGGER_FOLDED.search(low) is not None
    )


# the characters that ``re.IGNORECASE`` equates with an ASCII letter and ``str.lower`` does not
# lower to it (U+0130 would even become two characters)
_FOLD = str.maketrans({"\u0130": "i", "\u0131": "i", "\u017f": "s", "\u212a": "k"})


def _folded(text: str) -> str:
    """``text`` lower-cased for case-sensitive searches of lower-case patterns, offsets unchanged.

    Checked over every code point: each character becomes one character, which is an ASCII letter
    exactly when ``re.IGNORECASE`` matches the character to that letter, and which is whitespace, a
    word character, a digit, a hyphen, a parenthesis or one of ``_STRIP`` exactly when the character
    is.  So a case-insensitive search of a pattern made of those (all of ``_RULE_TRIGGER``,
    ``_SEQUENCE_CONTEXT``, ``_CUE_SEARCH``) finds the same places as a case-sensitive search of the
    lower-case pattern in the folded text.

    >>> _folded("ſtate-Space İ")
    'state-space i'
    """
    if text.isascii() or not any(c in text for c in "\u0130\u0131\u017f\u212a"):
        return text.lower()
    return text.translate(_FOLD).lower()  # slow: a dictionary look-up per character


def taxonomy_path() -> Path:
    """Where the shipped method taxonomy lives (``ontology/methods.ttl``)."""
    return ontology_path("methods.ttl")


# --------------------------------------------------------------------------- records


@dataclass(frozen=True, slots=True)
class Concept:
    """One method of the taxonomy: its slug, labels and broader slugs."""

    slug: str
    pref_label: str
    labels: tuple[str, ...]
    broader: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class MethodMatch:
    """A known method found in text: concept slug, text as written, character span."""

    slug: str
    text: str
    start: int
    end: int


@dataclass(frozen=True, slots=True)
class Abbreviation:
    """A short form defined on the page with its long form; ``start`` is the short form's offset."""

    short: str
    long: str
    start: int
    long_start: int


@dataclass(frozen=True, slots=True)
class IntroducedMethod:
    """A method (or resource) the text introduces; ``key`` is the slug of its name."""

    key: str
    text: str
    start: int
    full: str = ""
    short: str = ""
    related: tuple[str, ...] = ()
    broader: str = ""
    resource_type: str = ""
    """``benchmark``, ``dataset`` or ``library`` when the text introduces a resource, else empty."""

    def detail(self) -> tuple[tuple[str, str], ...]:
        """The mention ``detail`` pairs, sorted."""
        pairs = [("full", self.full), ("short", self.short), ("related", ";".join(self.related))]
        if self.broader:
            pairs.append(("broader", self.broader))
        if self.resource_type:
            pairs.append(("type", self.resource_type))
        return tuple(sorted(pairs))


# --------------------------------------------------------------------------- text helpers


def slugify(name: str) -> str:
    """Lower-case ASCII words joined by ``-``: the key of an introduced method."""
    name = name.replace("+", " plus ")
    ascii_name = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode("ascii")
    return "-".join(_SLUG_WORD.findall(ascii_name.lower()))


_SLUG_WORD = re.compile(r"[a-z0-9]+")


def name_key(name: str) -> str:
    """The key of a method's name: its slug, a plural of a coined name made singular.

    Papers write one name as "DeepONet" and "DeepONets": both are one concept.  Only names whose
    shape says the ``s`` is a plural are changed (inner capitals before it), so "Atlas" stays.

    >>> name_key("DeepONets"), name_key("DeepONet"), name_key("Atlas"), name_key("LLMs")
    ('deeponet', 'deeponet', 'atlas', 'llm')
    """
    name = name.strip()
    if (
        len(name) >= 4
        and name.endswith("s")
        and not name.endswith(("ss", "us", "is"))
        and name[-2].isalnum()
        and any(c.isupper() for c in name[1:-1])
    ):
        name = name[:-1]
    return slugify(name)


# LaTeX wrappers and control characters become spaces of the same length, so every
# offset into the masked text is an offset into the original text.
_LATEX_WRAP = re.compile(r"\\[A-Za-z]{1,12}\{([^{}\n]{0,80})\}")
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")


_LONG_CHUNK = re.compile(r"\S{100,}")


def _break_chunk(chunk: str) -> str:
    """A very long run without spaces, with a space every 50 characters."""
    return "".join(" " if i % 50 == 49 else c for i, c in enumerate(chunk))


def _mask(text: str) -> str:
    """The text with markup blanked out, same length."""

    def unwrap(m: re.Match[str]) -> str:
        inner = m.group(1)
        head = m.start(1) - m.start()
        return " " * head + inner + " "

    text = _CONTROL.sub(" ", text)
    # spaCy strips prefixes one by one from a whitespace-free chunk, quadratic in its length
    # (``str.split`` and ``\S`` agree on what whitespace is; splitting is 2x faster than the search)
    if len(text) >= 100 and max(map(len, text.split()), default=0) >= 100:
        text = _LONG_CHUNK.sub(lambda m: _break_chunk(m.group()), text)
    if "\\" in text:
        text = _LATEX_WRAP.sub(unwrap, text)
    return _blank_quotes(text)


def _blank_quotes(text: str) -> str:
    """Quotes (``\u0060\u0060``, ``''``, ``"“”‘’``) replaced by spaces, same length.

    The same as ``re.sub`` of the alternation, 50x faster: the alternatives start with distinct
    characters, and ``str.replace`` too replaces left to right without overlaps.
    """
    if "`" in text:
        text = text.replace("``", "  ")
    if "'" in text:
        text = text.replace("''", "  ")
    for quote in '"“”‘’':
        if quote in text:
            text = text.replace(quote, " ")
    return text


_PAREN = re.compile(r"\(([^()\n]{1,60})\)")
_WORD = re.compile(r"[^\s()]+")
_SF_SHAPE = re.compile(r"^[^\W_][\w\-./+Φ]{0,14}$")


def _sh_match(short: str, long: str) -> int:
    """Schwartz & Hearst: start of the shortest tail of ``long`` that spells ``short``, or -1."""
    s = len(short) - 1
    i = len(long) - 1
    while s >= 0:
        c = short[s].lower()
        if not c.isalnum():
            s -= 1
            continue
        while i >= 0 and (long[i].lower() != c or (s == 0 and i > 0 and long[i - 1].isalnum())):
            i -= 1
        if i < 0:
            return -1
        i -= 1
        s -= 1
    return i + 1


def find_abbreviations(text: str) -> list[Abbreviation]:
    """Short forms defined as ``long form (SF)`` (Schwartz & Hearst), in text order."""
    found: list[Abbreviation] = []
    for m in _PAREN.finditer(text):
        inner = m.group(1).strip()
        if not (2 <= len(inner) <= 12) or not _SF_SHAPE.match(inner) or not any(c.isalpha() for c in inner):
            continue
        if not inner[0].isupper() and not any(c.isupper() for c in inner[1:]):
            continue  # "(e.g.", "(ours)": a short form has capitals
        before = text[max(0, m.start() - 200) : m.start()]
        words = list(_WORD.finditer(before))
        limit = min(len(inner) + 5, len(inner) * 2)
        window = words[-limit:]
        if not window:
            continue
        # the long form stops at clause punctuation
        cut = 0
        for k, w in enumerate(window):
            if w.group().endswith((",", ";", ":", ".")) and k < len(window) - 1:
                cut = k + 1
        window = window[cut:]
        if not window:
            continue
        start_in_before = window[0].start()
        long_region = before[start_in_before:].rstrip()
        pos = _sh_match(inner, long_region)
        if pos < 0:
            continue
        long_form = long_region[pos:].strip()
        n_words = len(long_form.split())
        if n_words < 1 or long_form.lower() == inner.lower() or len(long_form) <= len(inner):
            continue
        if n_words == 1 and not re.search(r"[-A-Z]", long_form[1:]):
            continue  # one plain word is not a long form
        offset = m.start() - len(before) + start_in_before + pos
        found.append(
            Abbreviation(inner, long_form, m.start(1) + (len(m.group(1)) - len(m.group(1).lstrip())), offset)
        )
    return found


def _norm_label(label: str) -> str:
    """Label comparison key: lower case, hyphens as spaces, single spaces."""
    return " ".join(re.sub(r"[-–‐]", " ", label.lower()).split())


def _is_acronym(label: str) -> bool:
    """Labels written with inner capitals or digits are matched case-sensitively."""
    return (" " not in label and any(c.isupper() for c in label[1:])) or bool(
        re.fullmatch(r"[A-Z][A-Z0-9]+", label)
    )


def _is_short_caps(label: str) -> bool:
    """Short all-capitals labels (SSM, S4, WD) are ambiguous without context."""
    return bool(re.fullmatch(r"[A-Z][A-Z0-9]{1,3}s?", label))


def _plural(label: str) -> str:
    if label.endswith(("s", "x")) or label[-1:].isdigit():
        return label
    if label.endswith("y") and not label.endswith(("ay", "ey", "oy")):
        return label[:-1] + "ies"
    return label + "s"


def _variants(label: str) -> set[str]:
    """A label as written, with hyphens as spaces and vice versa, and plural."""
    forms = {label, label.replace("-", " ")}
    if " " in label:
        forms.add(label.replace(" ", "-"))
    return forms | {_plural(f) for f in forms}


# --------------------------------------------------------------------------- taxonomy


def load_taxonomy(path: Path) -> dict[str, Concept]:
    """The concepts of a SKOS method taxonomy, by slug."""
    from rdflib import Graph, URIRef
    from rdflib.namespace import RDF, SKOS

    graph = Graph()
    try:
        graph.parse(path, format="turtle")
    except (OSError, ValueError, SyntaxError) as exc:
        raise KgError(f"cannot read method taxonomy {path}: {exc}", code="bad-taxonomy") from exc
    subjects = set(graph.subjects(RDF.type, SKOS.Concept)) | set(
        graph.subjects(SKOS.inScheme, URIRef(SCHEME))
    )
    concepts: dict[str, Concept] = {}
    for subject in sorted(subjects, key=str):
        iri = str(subject)
        if not iri.startswith(METHOD_BASE) or iri == SCHEME:
            continue
        slug = iri[len(METHOD_BASE) :]
        prefs = sorted(str(o) for o in graph.objects(subject, SKOS.prefLabel))
        alts = sorted(str(o) for p in (SKOS.altLabel, SKOS.hiddenLabel) for o in graph.objects(subject, p))
        broader = sorted(
            str(o)[len(METHOD_BASE) :]
            for o in graph.objects(subject, SKOS.broader)
            if str(o).startswith(METHOD_BASE)
        )
        pref = prefs[0] if prefs else slug.replace("-", " ")
        labels = tuple(dict.fromkeys([pref, *prefs[1:], *alts]))
        concepts[slug] = Concept(slug, pref, labels, tuple(broader))
    return concepts


# --------------------------------------------------------------------------- context rules

DIFFUSION = "diffusion-model"
LORA = "lora"
STATE_SPACE = "state-space-model"

_DIFFUSION_BEFORE = {
    "denoising", "masked", "discrete", "latent", "uniform", "video", "image", "stable", "score-based",
    "guided", "conditional", "unconditional", "text-to-image", "text-to-video", "pretrained", "pre-trained",
    "generative", "cascaded", "consistency", "absorbing", "categorical", "multinomial", "ddpm",
}  # fmt: skip
_DIFFUSION_AFTER = {
    "model", "models", "based", "policy", "policies", "language", "lm", "lms", "llm", "llms", "transformer",
    "transformers", "sampler", "samplers", "sampling", "prior", "priors", "generative", "generator",
    "generators", "denoiser", "denoisers", "backbone", "backbones", "u-net", "unet", "forcing", "planner",
    "planners", "distillation", "training", "decoder", "decoders", "pipeline", "pipelines",
}  # fmt: skip
_PROCESS_BEFORE = {
    "information", "heat", "anomalous", "thermal", "fickian", "brownian", "molecular", "particle", "reaction",
    "advection", "opinion", "innovation", "knowledge", "rumor", "rumour", "influence", "spin", "ion", "gas",
    "water", "chemical", "fractional", "nonlocal", "social", "epidemic", "cultural", "technology", "news",
    "lateral", "carrier", "charge", "spatial", "numerical", "isotropic", "anisotropic", "turbulent",
}  # fmt: skip
_PROCESS_AFTER = {
    "equation", "equations", "coefficient", "coefficients", "process", "processes", "mri", "tensor",
    "weighted", "imaging", "term", "terms", "kernel", "kernels", "map", "maps", "limit", "approximation",
    "constant", "constants", "rate", "rates", "length", "pde", "pdes", "barrier", "matrix", "operator",
    "advection", "tractography", "wavelets", "geometry", "distance", "like", "dynamics", "-like",
}  # fmt: skip
_COORDINATED_HEADS = {"models", "model", "baselines", "baseline", "generators", "approaches", "methods"}
_SEQUENCE_CONTEXT = re.compile(
    r"state[\s\-–]*space|\bmamba|\bS[4-7]D?\b|\bH3\b|sequence|recurren|linear attention|long[\s-]range"
    r"|selective scan|time[\s-]series|language model|\bRNNs?\b|\bhippo\b",
    re.IGNORECASE,
)
_SEQUENCE_CONTEXT_FOLDED = re.compile(_SEQUENCE_CONTEXT.pattern.lower())


def _sequence_context(low: str) -> bool:
    """Whether the text talks about sequence modelling (``_SEQUENCE_CONTEXT``), given the folded text."""
    return _SEQUENCE_CONTEXT_FOLDED.search(low) is not None


def _token_lower(doc: Doc, i: int) -> str:
    return doc[i].lower_ if 0 <= i < len(doc) else ""


def _prev_word(doc: Doc, i: int) -> str:
    """The word before token ``i``, looking through a hyphen (``reaction-diffusion``)."""
    j = i - 1
    if _token_lower(doc, j) in {"-", "–"}:
        j -= 1
    return _token_lower(doc, j)


def _next_word(doc: Doc, i: int) -> str:
    j = i
    if _token_lower(doc, j) in {"-", "–"}:
        j += 1
    return _token_lower(doc, j)


def _diffusion_is_model(doc: Doc, start: int, end: int) -> bool:
    """Whether a diffusion-family match (tokens ``start:end``) means a generative diffusion model."""
    idx = [i for i in range(start, end) if doc[i].lower_ in {"diffusion", "diffusions"}]
    if not idx:
        return True
    first, last = idx[0], idx[-1]
    before = _prev_word(doc, start) if first == start else doc[first - 1].lower_
    if before in _PROCESS_BEFORE:
        return False
    if before == "graph" and _next_word(doc, last + 1) not in {"model", "models", "generative"}:
        return False
    return not (last == end - 1 and _next_word(doc, end) in _PROCESS_AFTER)


_TokenSpan = tuple[int, int, str]
"""A match as token offsets and concept slug: ``(start, end, slug)``."""


def _longest(spans: list[_TokenSpan]) -> list[_TokenSpan]:
    """``spacy.util.filter_spans`` on ``(start, end, slug)``: the first longest span wins overlaps."""
    ordered = sorted(spans, key=lambda s: (s[1] - s[0], -s[0]), reverse=True)
    result = []
    seen: set[int] = set()
    for span in ordered:
        if span[0] not in seen and span[1] - 1 not in seen:
            result.append(span)
            seen.update(range(span[0], span[1]))
    return sorted(result, key=lambda s: s[0])


# --------------------------------------------------------------------------- matcher


class MethodMatcher:
    """Finds known methods and introduced methods; build once, reuse (see :func:`default_matcher`)."""

    def __init__(self, taxonomy: Path | None = None) -> None:
        path = taxonomy if taxonomy is not None else taxonomy_path()
        if not path.exists():
            raise KgError(f"method taxonomy not found: {path}", code="missing-taxonomy")
        self.concepts = load_taxonomy(path)
        self.nlp = spacy.blank("en")
        vocab = self.nlp.vocab
        self._lower = PhraseMatcher(vocab, attr="LOWER")
        self._exact = PhraseMatcher(vocab, attr="ORTH")
        self._rules = Matcher(vocab)
        self._rule_names: dict[int, tuple[str, str]] = {}  # match id -> (slug, how)
        self._rule_words = [numpy.uint64(vocab.strings.add(w)) for w in sorted(_RULE_WORDS)]
        tokenizer = self.nlp.tokenizer
        if isinstance(tokenizer, Tokenizer):
            # spaCy caches the tokens of each chunk (text between spaces), but once a chunk of a text is
            # a special case it stops adding the text's later chunks to the cache.  Line breaks and
            # double spaces are special cases, and abstracts wrapped into lines have one in their first
            # line: nearly every chunk went through the affix rules again, abstract after abstract (8x
            # the cost of a cached pass).  Without those special cases the tokens are the same (no
            # affix rule splits whitespace: one token, same text, offsets and lexeme; only the norm of
            # a no-break space differs, which no rule here reads); the cache never changes tokens.
            tokenizer.rules = {k: v for k, v in (tokenizer.rules or {}).items() if not k.isspace()}
            tokenizer.max_cache_size = TOKENIZER_CACHE
        self._found: dict[str, tuple[MethodMatch, ...]] = {}  # find() of introduced names
        self._label_to_slug: dict[str, str] = {}
        self._short_caps: dict[str, str] = {}  # ambiguous short label -> slug
        lower_forms: dict[str, set[str]] = {}
        exact_forms: dict[str, set[str]] = {}
        for concept in self.concepts.values():
            for label in concept.labels:
                label = label.strip()
                if not label:
                    continue
                self._label_to_slug.setdefault(_norm_label(label), concept.slug)
                if _is_acronym(label):
                    forms = {label, _plural(label) if not label[-1].isupper() else label + "s", label.upper()}
                    exact_forms.setdefault(concept.slug, set()).update(forms)
                    if _is_short_caps(label):
                        self._short_caps[label] = concept.slug
                        self._short_caps[label + "s"] = concept.slug
                else:
                    lower_forms.setdefault(concept.slug, set()).update(_variants(label))
        for slug in sorted(lower_forms):
            self._lower.add(slug, [self.nlp.make_doc(f) for f in sorted(lower_forms[slug])])
        for slug in sorted(exact_forms):
            self._exact.add(slug, [self.nlp.make_doc(f) for f in sorted(exact_forms[slug])])
        self._add_rules()
        self._ancestors: dict[str, frozenset[str]] = {s: self._climb(s) for s in self.concepts}
        # case-sensitive labels that may sit inside a new name (SeqLoRA, PD-SSM, MambaMixer)
        self._inner_forms = tuple(
            sorted(
                (label, c.slug)
                for c in self.concepts.values()
                for label in c.labels
                if " " not in label and len(label) >= 3 and label[0].isupper() and "-" not in label
            )
        )
        # ... by their first three characters: a name is looked up at each position, not each form searched
        self._inner_by_head: dict[str, list[tuple[str, str]]] = {}
        for form, slug in self._inner_forms:
            self._inner_by_head.setdefault(form[:3], []).append((form, slug))

    def _climb(self, slug: str) -> frozenset[str]:
        seen: set[str] = set()
        todo = [slug]
        while todo:
            s = todo.pop()
            if s in seen or s not in self.concepts:
                continue
            seen.add(s)
            todo.extend(self.concepts[s].broader)
        return frozenset(seen)

    def ancestors(self, slug: str) -> frozenset[str]:
        """The concept and every concept above it."""
        return self._ancestors.get(slug, frozenset({slug}))

    def _add_rule(self, name: str, patterns: list[list[dict[str, Any]]]) -> None:
        self._rules.add(name, patterns)
        slug, how = name.split("|")
        self._rule_names[self.nlp.vocab.strings[name]] = (slug, how)

    def _add_rules(self) -> None:
        hyphen: dict[str, Any] = {"ORTH": {"IN": ["-", "–"]}, "OP": "?"}
        if DIFFUSION in self.concepts:
            word = {"LOWER": {"IN": ["diffusion", "diffusions"]}}
            self._add_rule(
                f"{DIFFUSION}|rule",
                [
                    [{"LOWER": {"IN": sorted(_DIFFUSION_BEFORE)}}, hyphen, word],
                    [word, hyphen, {"LOWER": {"IN": sorted(_DIFFUSION_AFTER)}}],
                ],
            )
            # "flows and diffusions" (generative transport): keep the last token
            self._add_rule(
                f"{DIFFUSION}|last",
                [[{"LOWER": {"IN": ["flows", "flow"]}}, {"LOWER": {"IN": ["and", "or", "/"]}}, word]],
            )
            # "diffusion and flow models", "diffusion or autoregressive baselines": keep the first token
            self._add_rule(
                f"{DIFFUSION}|first",
                [
                    [
                        word,
                        {"LOWER": {"IN": ["and", "or", "/", ","]}},
                        {"IS_ALPHA": True},
                        {"IS_ALPHA": True, "OP": "?"},
                        {"LOWER": {"IN": sorted(_COORDINATED_HEADS)}},
                    ]
                ],
            )
        if LORA in self.concepts:
            # "low-rank adapters", "Low-Rank Adaptive Residual Connections": low-rank adaptation in words
            self._add_rule(
                f"{LORA}|rule",
                [
                    [
                        {"LOWER": "low"},
                        hyphen,
                        {"LOWER": "rank"},
                        {"LOWER": {"IN": ["adaptation", "adaptations", "adapter", "adapters", "adaptive"]}},
                    ],
                    [
                        {"LOWER": "low-rank"},
                        {"LOWER": {"IN": ["adaptation", "adaptations", "adapter", "adapters", "adaptive"]}},
                    ],
                ],
            )
        if STATE_SPACE in self.concepts:
            heads: dict[str, Any] = {
                "LOWER": {
                    "IN": [
                        "model", "models", "layer", "layers", "architecture", "architectures", "recurrence",
                        "recurrences", "backbone", "backbones", "block", "blocks", "mixer", "mixers",
                        "sequence", "ssm", "ssms",
                    ]
                }
            }  # fmt: skip
            self._add_rule(
                f"{STATE_SPACE}|rule",
                [
                    [{"LOWER": "state"}, hyphen, {"LOWER": {"IN": ["space", "spaces"]}}, hyphen, heads],
                    [{"LOWER": "state-space"}, hyphen, heads],
                ],
            )

    # ------------------------------------------------------------------ find

    def find(self, text: str) -> list[MethodMatch]:
        """Known-method mentions in ``text``, in text order."""
        return list(self._find_text(text))

    def _find_text(self, text: str) -> tuple[MethodMatch, ...]:
        """:meth:`find`, remembered: the names of introduced methods are looked up more than once."""
        found = self._found.get(text)
        if found is None:
            masked = _mask(text)
            found = tuple(self._find(text, self.nlp.make_doc(masked), masked, find_abbreviations(masked)))
            if len(self._found) >= 4096:
                self._found.clear()
            self._found[text] = found
        return found

    def _rule_matches(self, doc: Doc) -> Iterator[tuple[int, int, int]]:
        """The token rules' matches, found around their trigger words only.

        Every rule contains one of ``_RULE_WORDS`` and is at most ``_RULE_REACH + 1`` tokens long, so
        each match lies within that reach of a trigger word; the Matcher's cost (a Python object per
        token and per set-membership test) is paid for a few windows instead of the whole text.
        """
        lowers = doc.to_array(LOWER)
        hit = lowers == self._rule_words[0]
        for word in self._rule_words[1:]:
            hit |= lowers == word
        hits = numpy.flatnonzero(hit)
        n = len(doc)
        windows: list[list[int]] = []
        for i in hits.tolist():
            lo, hi = max(0, i - _RULE_REACH), min(n, i + _RULE_REACH + 1)
            if windows and lo <= windows[-1][1]:
                windows[-1][1] = hi
            else:
                windows.append([lo, hi])
        for lo, hi in windows:
            for match_id, start, end in self._rules(doc[lo:hi]):
                yield match_id, start + lo, end + lo

    def _find(self, text: str, doc: Doc, masked: str, abbreviations: list[Abbreviation]) -> list[MethodMatch]:
        strings = self.nlp.vocab.strings
        low = _folded(masked)
        spans: list[_TokenSpan] = []
        ruled: set[tuple[int, int]] = set()  # spans a context rule vouches for
        for matcher in (self._lower, self._exact):
            for match_id, start, end in matcher(doc):
                spans.append((start, end, strings[match_id]))
        if _rule_triggered(low):  # every rule needs one of these words
            for match_id, start, end in self._rule_matches(doc):
                slug, how = self._rule_names[match_id]
                if how == "first":
                    end = start + 1
                elif how == "last":
                    start = end - 1
                ruled.add((start, end))
                spans.append((start, end, slug))

        defined: dict[str, str] = {}  # short form -> slug ("" when defined as something unknown)
        for ab in abbreviations:
            slug = self._label_to_slug.get(_norm_label(ab.long), "")
            if not slug:
                # "state-space models (SSMs)": the long form names the short form's concept
                singular = _norm_label(ab.long)
                slug = self._label_to_slug.get(singular[:-1], "") if singular.endswith("s") else ""
            meaning = slug
            if not meaning and any(f in self._short_caps for f in (ab.short, ab.short + "s")):
                # "Cautious Weight Decay (CWD)": a new thing named after a known one; the short
                # form is not that concept, but it is compatible with it (not "structural similarity")
                inner = self._find(ab.long, self.nlp.make_doc(ab.long), ab.long, [])
                meaning = inner[-1].slug if inner else ""
            for form in (ab.short, ab.short + "s", ab.short.rstrip("s")):
                defined.setdefault(form, meaning)
            if slug:
                for m in re.finditer(rf"(?<![\w\-]){re.escape(ab.short)}s?(?![\w\-])", masked[ab.start :]):
                    short_span = doc.char_span(
                        ab.start + m.start(), ab.start + m.end(), label=slug, alignment_mode="contract"
                    )
                    if short_span is not None and len(short_span):
                        spans.append((short_span.start, short_span.end, slug))

        # character offsets and text of each span (``Span.text``: the doc's text is ``masked``)
        chars: dict[tuple[int, int], tuple[int, int]] = {}
        texts = []
        for start, end, _slug in spans:
            bounds = chars.get((start, end))
            if bounds is None:
                first = doc[start]
                last = doc[end - 1] if end - 1 != start else first
                bounds = chars[start, end] = (first.idx, last.idx + len(last))
            texts.append(masked[bounds[0] : bounds[1]])
        mentioned_families = self._families_in_words(spans, texts)
        sequence: list[bool] = []  # whether the text talks about sequence modelling, once asked

        def sequence_context() -> bool:
            if not sequence:
                sequence.append(_sequence_context(low))
            return sequence[0]

        kept: list[_TokenSpan] = []
        for (start, end, slug), span_text in zip(spans, texts, strict=True):
            if DIFFUSION in self.ancestors(slug) and not _diffusion_is_model(doc, start, end):
                continue
            one = end - start == 1
            bare = one and span_text.lower() in {"diffusion", "diffusions"}
            if bare and (start, end) not in ruled and not self._bare_diffusion_ok(doc, start, end):
                continue
            short = one and span_text in self._short_caps
            if short and not self._short_caps_ok(
                span_text, slug, defined, mentioned_families, sequence_context
            ):
                continue
            kept.append((start, end, slug))
        matches = []
        for start, end, slug in _longest(kept):
            start_char, end_char = chars[start, end]
            matches.append(MethodMatch(slug, text[start_char:end_char], start_char, end_char))
        return sorted(matches, key=lambda m: (m.start, m.end, m.slug))

    def _bare_diffusion_ok(self, doc: Doc, start: int, end: int) -> bool:
        """A lone "diffusion" from a taxonomy label needs a generative cue on either side."""
        return _prev_word(doc, start) in _DIFFUSION_BEFORE or _next_word(doc, end) in _DIFFUSION_AFTER

    def _families_in_words(self, spans: list[_TokenSpan], texts: list[str]) -> set[str]:
        """Concepts (and their ancestors) named by a match that is not a short all-caps label."""
        named: set[str] = set()
        for (start, end, slug), span_text in zip(spans, texts, strict=True):
            if end - start == 1 and span_text in self._short_caps:
                continue
            if span_text.lower() in {"diffusion", "diffusions"}:
                continue
            named |= self.ancestors(slug)
        return named

    def _short_caps_ok(
        self,
        form: str,
        slug: str,
        defined: dict[str, str],
        mentioned: set[str],
        sequence_context: Callable[[], bool],
    ) -> bool:
        if form in defined:
            return defined[form] != "" and self.ancestors(defined[form]) & self.ancestors(slug) != set()
        if self.ancestors(slug) & mentioned - {slug} or slug in mentioned:
            return True
        return STATE_SPACE in self.ancestors(slug) and sequence_context()

    # ------------------------------------------------------------------ introduced

    def introduced(self, text: str) -> list[IntroducedMethod]:
        """Methods (and benchmarks, datasets, libraries) that ``text`` introduces, in text order."""
        masked = _mask(text)
        doc = self.nlp.make_doc(masked)
        abbreviations = find_abbreviations(masked)
        matches = self._find(text, doc, masked, abbreviations)
        return self._introduced(text, masked, abbreviations, matches)

    def _introduced(
        self, text: str, masked: str, abbreviations: list[Abbreviation], matches: list[MethodMatch]
    ) -> list[IntroducedMethod]:
        found: dict[str, IntroducedMethod] = {}
        low = _folded(masked)
        # Only a cue word (``_CUE``, give or take punctuation) can start a name, and they are found in
        # the whole text at once: words end at spaces and parentheses, and sentences before a space or
        # after a line break, so each lies within one sentence.  Sentences cut at MAX_SENTENCE may cut
        # a word in two: then each piece is searched for ``_CUE_SEARCH`` and all its words are tried.
        cues = _cue_words(low)
        if not cues and len(masked) < MAX_SENTENCE:
            return []
        sentences = list(_sentences(masked))
        cut = any(end - start >= MAX_SENTENCE for start, end in sentences)
        if not cut:  # only the sentences with a cue word
            sentence_starts = [start for start, _end in sentences]
            sentences = [sentences[k] for k in sorted({bisect_right(sentence_starts, p) - 1 for p in cues})]
        starts = [m.start for m in matches]
        for sent_start, sent_end in sentences:
            sentence = masked[sent_start:sent_end]
            here = cues[bisect_left(cues, sent_start) : bisect_left(cues, sent_end)]
            if not (here or (cut and _CUE_SEARCH_FOLDED.search(low, sent_start, sent_end))):
                continue
            words = [(m.start() + sent_start, m.end() + sent_start) for m in _WORD.finditer(sentence)]
            candidates = None
            if not cut:
                word_starts = [w[0] for w in words]
                candidates = sorted({bisect_right(word_starts, p) - 1 for p in here})
            local = {a.long_start: a for a in abbreviations if sent_start <= a.long_start < sent_end}
            in_sentence = matches[bisect_left(starts, sent_start) : bisect_left(starts, sent_end)]
            for name in _names_in_sentence(masked, words, local, candidates):
                method = self._describe(text, masked, name, (sent_start, sent_end), in_sentence)
                if method is not None and method.key not in found:
                    found[method.key] = method
        return sorted(found.values(), key=lambda m: (m.start, m.key))

    def _describe(
        self,
        text: str,
        masked: str,
        name: _Name,
        sentence: tuple[int, int],
        matches: list[MethodMatch],
    ) -> IntroducedMethod | None:
        short = name.short.strip()
        full = name.full.strip()
        shown = short or full
        key = slugify(shown)
        if not key or len(shown) > 80:
            return None
        sent_start, sent_end = sentence
        related: set[str] = set()
        for part in (short, full):
            for m in self._find_text(part) if part else ():
                related.add(m.slug)
            for i in range(len(part) - 2):  # the _inner_forms that occur in part
                for form, slug in self._inner_by_head.get(part[i : i + 3], ()):
                    if part.startswith(form, i):
                        related.add(slug)
        for m in matches:
            if sent_start <= m.start and m.end <= sent_end:
                related.add(m.slug)
        broader = self._broader(masked, full, name, sentence, matches)
        if broader:
            related.add(broader)
        tail = masked[name.end : min(sent_end, name.end + 120)].lower()
        resource = _resource_type(shown, tail)
        if not short and " " not in full:
            short, full = full, ""  # one word (STEPQuant) is a short name
        return IntroducedMethod(
            key=key,
            text=text[name.start : name.start + len(shown)]
            if masked[name.start :].startswith(shown)
            else shown,
            start=name.start,
            full=full,
            short=short,
            related=tuple(sorted(related)),
            broader=broader,
            resource_type=resource,
        )

    def _broader(
        self, masked: str, full: str, name: _Name, sentence: tuple[int, int], matches: list[MethodMatch]
    ) -> str:
        """The concept the text says the new method is a kind of, or ""."""
        sent_start, sent_end = sentence
        # "Cautious Weight Decay", "Sequential regularized LoRA": the long form's head is a known method
        if full:
            head = [m for m in self._find_text(full) if m.end == len(full.rstrip())]
            if head:
                return head[-1].slug
        window_end = min(sent_end, name.end + 160)
        for m in matches:
            if not (sent_start <= m.start and m.end <= sent_end):
                continue
            before = masked[max(sent_start, m.start - 40) : m.start].lower()
            after = masked[m.end : m.end + 12].lower()
            if m.start >= name.end and m.start < window_end and _KIND_OF.search(before):
                return m.slug
            if _BASED.match(after) and name.end <= m.start < window_end:
                return m.slug
            if _VARIANT.match(after) and name.end <= m.start < window_end:
                return m.slug
        return ""


# --------------------------------------------------------------------------- introduced-name patterns


@dataclass(frozen=True, slots=True)
class _Name:
    """A candidate new name: where it starts and ends in the text, short and full forms."""

    start: int
    end: int
    short: str
    full: str


# a sentence ends after a full stop before a capital, or at a blank line
_SENTENCE_STOP = re.compile(r"[.!?](?=\s+[A-Z\\(\[`\"'])")
_PARAGRAPH = re.compile(r"\n\s*\n")
_CUE = re.compile(
    r"^(?:propos(?:e|es|ing)|introduc(?:e|es|ing)|present(?:s|ing)?|develop(?:s|ing)?|design(?:s|ing)?"
    r"|release|releases|call|calls|called|named|dubbed|termed|coined|name|term|dub|namely)$",
    re.IGNORECASE,
)
_CUE_SEARCH = re.compile(
    r"propos|introduc|present|develop|design|release|call|name|dub|term|coin", re.IGNORECASE
)
_NAMING = re.compile(r"^(?:call|calls|called|named|dubbed|termed|coined|name|dub|namely)$", re.IGNORECASE)
# the same, case-sensitive, for folded text (see ``_folded``)
_CUE_SEARCH_FOLDED = re.compile(_CUE_SEARCH.pattern)
_CUE_FOLDED = re.compile(_CUE.pattern)
_NAMING_FOLDED = re.compile(_NAMING.pattern)
_KIND_OF = re.compile(
    r"\b(variant|extension|generali[sz]ation|instance|form|kind|type|version|modification)s? of"
    r"( the| a| an| standard| classical| vanilla)?\s*$"
)
_BASED = re.compile(r"\s*[-–]?\s*based\b")
_VARIANT = re.compile(r"\s*variant\b")
# the proposer must be the paper itself ("we", "this paper"), not earlier work
_OWN = {"we", "paper", "work", "report", "article", "study", "here", "our", "herein", "letter", "thesis"}
_OTHERS = {"existing", "prior", "previous", "recent", "earlier", "other", "related", "they", "authors"}
_LF_STOP = {"to", "that", "which", "for", "by", "with", "using", "where", "whose", "on", "in", "from", "as"}
_SKIP = {
    "a", "an", "the", "our", "novel", "new", "simple", "here", "herein", "what", "we", "it",
    "this", "that", "as", "method", "approach", "framework", "model", "algorithm", "technique",
}  # fmt: skip
_NOT_NAMES = {
    "a", "an", "the", "this", "that", "these", "novel", "new", "we", "our", "it", "its", "in", "on", "and",
    "or", "to", "of", "for", "with", "by", "from", "here", "such", "both", "two", "three", "each", "first",
    "i", "ii", "iii", "iv", "ai", "llm", "llms", "gpu", "gpus", "api", "sota",
}  # fmt: skip
_STRIP = ",.;:!?\"'`“”‘’{}[]*$~"


def _cue_words(low: str) -> list[int]:
    """Where the words that ``_CUE`` matches (punctuation aside) start, given the folded text.

    Each starts with a ``_CUE_SEARCH`` stem, and the search finds it: stems are letters and do not
    reach across words.
    """
    found = []
    for m in _CUE_SEARCH_FOLDED.finditer(low):
        i = m.start()
        if i and low[i - 1].isalnum():
            continue  # inside a word ("typically"): the common case, decided at once
        if _word_starts_at(low, i):
            end = _WORD.match(low, i)
            if end is not None and _CUE_FOLDED.match(low[i : end.end()].rstrip(_STRIP)):
                found.append(i)
    return found


def _word_starts_at(text: str, i: int) -> bool:
    """Whether only ``_STRIP`` characters come before ``i`` in its word (``_WORD``)."""
    while i > 0 and text[i - 1] in _STRIP:
        i -= 1
    return i == 0 or text[i - 1].isspace() or text[i - 1] in "()"


MAX_SENTENCE = 1500
"""Longer "sentences" (no full stop in sight) are looked at in pieces: bounded work per name."""


def _sentences(text: str) -> Iterator[tuple[int, int]]:
    start = 0
    # searched apart, each with a fast first character, rather than as one alternation (the
    # two cannot overlap: punctuation versus line breaks)
    ends = [m.end() for m in _SENTENCE_STOP.finditer(text)]
    if "\n" in text:
        ends = sorted([*ends, *(m.end() for m in _PARAGRAPH.finditer(text))])
    for end in [*ends, len(text)]:
        while end - start > MAX_SENTENCE:
            yield start, start + MAX_SENTENCE
            start += MAX_SENTENCE
        if end > start:
            yield start, end
        start = end


def _clean(word: str) -> str:
    return word.strip(_STRIP)


@lru_cache(maxsize=65536)
def _looks_like_name(word: str) -> bool:
    """CamelCase, capitals, digits or hyphenated capitals: STEPQuant, FK-PINNs, S7, TIDES, Li_2."""
    w = _clean(word)
    if len(w) < 2 or len(w) > 40 or w.lower() in _NOT_NAMES or (not w[0].isalnum() and w[0] not in "Φ"):
        return False
    if not any(c.isalpha() for c in w):
        return False
    inner_caps = any(c.isupper() for c in w[1:])
    digit = any(c.isdigit() for c in w) and w[0].isalpha()
    return inner_caps or digit or ("_" in w and w[0].isupper())


@lru_cache(maxsize=65536)
def _title_word(word: str) -> bool:
    w = _clean(word)
    return len(w) >= 2 and w[0].isupper() and w.lower() not in _NOT_NAMES and any(c.isalpha() for c in w)


def _names_in_sentence(
    masked: str,
    words: list[tuple[int, int]],
    by_long_start: dict[int, Abbreviation],
    candidates: list[int] | None = None,
) -> Iterator[_Name]:
    """Names introduced in a sentence; ``candidates``: the only words that may be cue words."""
    texts = [masked[s:e] for s, e in words]
    n = len(words)
    for i in range(n) if candidates is None else candidates:
        w = texts[i]
        bare = _clean(w)
        folded = _folded(bare)
        if not _CUE_FOLDED.match(folded):
            continue
        naming = bool(_NAMING_FOLDED.match(folded)) and bare.lower() != "namely"
        before = {_clean(t).lower() for t in texts[max(0, i - 6) : i]}
        if not naming and (not before & _OWN or before & _OTHERS):
            continue
        j = i + 1
        while j < n and _clean(texts[j]).lower() in _SKIP and not texts[j - 1].endswith((",", ";", ":", ".")):
            j += 1
        if j >= n or w.endswith((".", ";")):
            continue
        # (1) "Long Form (SF)" starting within a few words: SF is the name
        ab = None
        for k in range(j, min(n, j + 10)):
            if k > j and (
                texts[k - 1].endswith((",", ";", ":", ".")) or _clean(texts[k - 1]).lower() in _LF_STOP
            ):
                break
            ab = by_long_start.get(words[k][0])
            if ab is None:
                # the long form may start inside this word ("Physics-informed ROM (Φ-ROM)")
                hits = [a for a in by_long_start.values() if words[k][0] <= a.long_start < words[k][1]]
                ab = hits[0] if hits else None
            if ab is not None and (k <= j + 2 or _looks_like_name(ab.short)):
                yield _Name(ab.start, ab.start + len(ab.short), ab.short, ab.long)
                break
            ab = None
            # "Retain-Resample-Release sampling (R3)": a name-like word in parentheses
            close = masked.find(")", words[k][1], words[k][1] + 3)
            if (
                k > j
                and masked[words[k][0] - 1 : words[k][0]] == "("
                and close >= 0
                and _looks_like_name(texts[k])
            ):
                full = masked[words[j][0] : words[k][0] - 1].strip().strip(_STRIP)
                if full and "," not in full:
                    yield _Name(words[k][0], words[k][1], _clean(texts[k]), full)
                    ab = Abbreviation(_clean(texts[k]), full, words[k][0], words[j][0])
                    break
        if ab is not None:
            continue
        # (2) "SF (Long Form)" or a run of name-like words after the verb
        run: list[int] = []
        for k in range(j, min(n, j + 7)):
            t = texts[k]
            if run and masked[words[k][0] - 1 : words[k][0]] == "(":
                break  # "HyperP (Hypersphere Parameterization)": the name ends at the parenthesis
            if _looks_like_name(t) or _title_word(t) or (run and _clean(t).lower() in {"of", "and", "for"}):
                run.append(k)
                if t.endswith((",", ";", ":", ".")) or _clean(t) != t.rstrip(_STRIP):
                    break
            else:
                break
        while run and _clean(texts[run[-1]]).lower() in {"of", "and", "for"}:
            run.pop()
        if not run:
            continue
        first, last = run[0], run[-1]
        start = words[first][0] + (len(texts[first]) - len(texts[first].lstrip(_STRIP)))
        raw = masked[start : words[last][1]]
        name = raw.rstrip(_STRIP)
        any_namey = any(_looks_like_name(texts[k]) for k in run)
        after = texts[last + 1] if last + 1 < n else ""
        appositive = raw.endswith((",", ":")) or texts[last].endswith(("\u201d", '"'))
        paren = masked[words[last][1] : words[last][1] + 2].lstrip().startswith("(") or after.startswith("(")
        if not (any_namey or naming or appositive or paren):
            continue
        if not any_namey and len(run) == 1 and not (naming or appositive):
            continue
        if not any_namey and not naming and not appositive and _clean(after).lower() not in {"which", "that"}:
            continue
        full = ""
        if paren and len(run) == 1:
            m = _PAREN.match(masked, masked.index("(", words[last][1] - 1))
            if m and len(m.group(1).split()) >= 2 and m.group(1)[0].isupper():
                full = m.group(1).strip()
        yield _Name(start, start + len(name), name if full else "", full or name)


_RESOURCE_WORDS = (
    ("benchmark", "benchmark"),
    ("suite", "benchmark"),
    ("leaderboard", "benchmark"),
    ("dataset", "dataset"),
    ("data set", "dataset"),
    ("corpus", "dataset"),
    ("library", "library"),
    ("toolkit", "library"),
    ("toolbox", "library"),
    ("package", "library"),
    ("metric", "metric"),
    ("measure", "metric"),
)


_BENCH = re.compile(r"bench$", re.IGNORECASE)
_DEFINITION = re.compile(r"^[\s,:()]*(?:\w+\)\s*,?\s*)?(?:is\s+)?(?:a|an|the)\b")
_RESOURCE_PATTERNS = tuple((re.compile(rf"\b{word}"), kind) for word, kind in _RESOURCE_WORDS)


def _resource_type(name: str, tail: str) -> str:
    """``benchmark``/``dataset``/``library`` when the definition right after the name says so."""
    if _BENCH.search(name):
        return "benchmark"
    head = " ".join(tail.split()[:9])
    if not _DEFINITION.match(head):
        return ""
    for pattern, kind in _RESOURCE_PATTERNS:
        if pattern.search(head):
            return kind
    return ""


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
    for field_name, span in (("title", record.title), ("abstract", record.abstract)):
        if span is None or not span.text:
            continue
        yield from _extract_field(matcher, field_name, span.text, span.at, log)


def _extract_field(
    matcher: MethodMatcher, field_name: str, text: str, at: Location, log: IssueLog
) -> Iterator[Mention]:
    if len(text) > MAX_CHARS:
        log.warn(
            at,
            "abstract-too-long",
            f"{field_name} has {len(text)} characters; methods are looked for in the first {MAX_CHARS} "
            f"(expected at most {MAX_CHARS})",
        )
        text = text[:MAX_CHARS]
    masked = _mask(text)
    doc = matcher.nlp.make_doc(masked)
    abbreviations = find_abbreviations(masked)
    matches = matcher._find(text, doc, masked, abbreviations)
    for m in matches:
        yield Mention("method", m.slug, m.text, at, NAME, position=m.start)
    for new in matcher._introduced(text, masked, abbreviations, matches):
        kind = "introduced-resource" if new.resource_type else "introduced-method"
        yield Mention(kind, new.key, new.text, at, NAME, position=new.start, detail=new.detail())
