"""The shapes of names and sentences: what may be a name ("STEPQuant", "FK-PINNs"), what is a task
or a fragment rather than a name ("Entity Recognition", "3D-RoPE-based", "3D"), where sentences end.

Shared by the finders of introduced names (:mod:`.introduced`) and of the named parts of a paper's
method (:mod:`.parts`).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache

from .forms import norm_label


@dataclass(frozen=True, slots=True)
class Name:
    """A candidate new name: where it starts and ends in the text, short and full forms;
    ``direct`` when it is the object of a proposing verb ("we propose X") or a title's name."""

    start: int
    end: int
    short: str
    full: str
    direct: bool = False


# a sentence ends after a full stop before a capital, or at a blank line
_SENTENCE_STOP = re.compile(r"[.!?](?=\s+[A-Z\\(\[`\"'])")
_PARAGRAPH = re.compile(r"\n\s*\n")

NOT_NAMES = {
    "a", "an", "the", "this", "that", "these", "novel", "new", "we", "our", "it", "its", "in", "on", "and",
    "or", "to", "of", "for", "with", "by", "from", "here", "such", "both", "two", "three", "each", "first",
    "i", "ii", "iii", "iv", "ai", "llm", "llms", "gpu", "gpus", "api", "sota",
}  # fmt: skip
STRIP = ",.;:!?\"'`“”‘’{}[]*$~"

MAX_SENTENCE = 1500
"""Longer "sentences" (no full stop in sight) are looked at in pieces: bounded work per name."""


def sentences(text: str) -> Iterator[tuple[int, int]]:
    """The sentences of a text, as (start, end) offsets."""
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


def clean(word: str) -> str:
    return word.strip(STRIP)


@lru_cache(maxsize=65536)
def looks_like_name(word: str) -> bool:
    """CamelCase, capitals, digits or hyphenated capitals: STEPQuant, FK-PINNs, S7, TIDES, Li_2; not a
    dimension or a size ("3D", "2.5D", "334K", "6-DoF").

    >>> [looks_like_name(w) for w in ("STEPQuant", "FK-PINNs", "S7", "Li_2", "3D", "4D-", "334K", "6-DoF")]
    [True, True, True, True, False, False, False, False]
    """
    w = clean(word)
    if len(w) < 2 or len(w) > 40 or w.lower() in NOT_NAMES or (not w[0].isalnum() and w[0] not in "Φ"):
        return False
    if not any(c.isalpha() for c in w) or dimension(w) or _PLURAL_ACRONYM.fullmatch(w):
        return False  # a dimension or size ("3D", "7B"), a plural of an acronym ("QAs", "LLMs")
    inner_caps = any(c.isupper() for c in w[1:])
    digit = any(c.isdigit() for c in w) and w[0].isalpha()
    return inner_caps or digit or ("_" in w and w[0].isupper())


_PLURAL_ACRONYM = re.compile(r"[A-Z]{2,4}s")
_DIMENSION = re.compile(
    r"[\d.]+(?:[-x×][\d.]+)*[-\s]?(?:d|k|m|b|dof|x)?(?:-?(?:based|aware|level|scale|wise))?-?",
    re.IGNORECASE,
)


def dimension(name: str) -> bool:
    """Whether a "name" is a dimension, a size or a count ("3D", "2.5D", "4D-", "334K", "6-DoF", "7B").

    >>> [dimension(n) for n in ("3D", "2.5D", "6-DoF", "334K", "7B", "S7", "R3")]
    [True, True, True, True, True, False, False]
    """
    return _DIMENSION.fullmatch(name.strip(STRIP)) is not None


@lru_cache(maxsize=65536)
def title_word(word: str) -> bool:
    w = clean(word)
    return len(w) >= 2 and w[0].isupper() and w.lower() not in NOT_NAMES and any(c.isalpha() for c in w)


SMALL_WORDS = frozenset({"of", "and", "for", "with", "the", "a", "an", "to", "in", "via", "on", "by", "from"})


def title_case(phrase: str) -> bool:
    """Whether every word of a phrase (small words aside) starts with a capital or a digit.

    >>> title_case("Entity-level Mask Refinement"), title_case("multi-scale spiking fusion network")
    (True, False)
    """
    words = [w for w in re.split(r"\s+", phrase.strip()) if w]
    if len(words) < 2:
        return False
    return all(w[0].isupper() or w[0].isdigit() or w.lower() in SMALL_WORDS for w in words)


# the long form of a named part of a method ends in a word like these, not in a task or a measure
TASK_HEADS = frozenset(
    {
        "detection", "segmentation", "classification", "recognition", "localization", "localisation",
        "answering", "estimation", "tracking", "retrieval", "understanding", "prediction", "forecasting",
        "translation", "summarization", "captioning", "grounding", "reconstruction", "completion",
        "registration", "inpainting", "generation", "synthesis", "navigation", "manipulation", "reasoning",
        "task", "tasks", "problem", "benchmark", "dataset", "score", "metric", "rate", "ratio", "error",
        "accuracy", "index", "coefficient", "distance", "divergence", "precision", "recall", "imaging",
        "dynamics", "system", "systems", "process", "processing", "language", "intelligence", "vehicle",
        "vehicles", "data", "challenge", "analysis", "modeling", "modelling", "learning", "model", "models",
        "diagnosis", "prognosis", "screening", "monitoring", "assessment", "extraction",
    }
)  # fmt: skip

# "3D-RoPE-based", "LLM-driven": a modifier made from a name, not a name
FRAGMENT = re.compile(
    r"-(?:based|like|style|driven|guided|aware|free|enhanced|augmented|powered|assisted|specific|level|wise"
    r"|grounded|centric|conditioned|informed|oriented|inspired|agnostic|only|native|compatible|ready|friendly)$",
    re.IGNORECASE,
)


def names_a_task(name: str) -> bool:
    """Whether a name (or its long form) names a task or field ("Entity Recognition", "NER" for
    "named entity recognition") rather than a method.

    >>> names_a_task("Entity Recognition"), names_a_task("Perspective Fusion Module"), names_a_task("Crab")
    (True, False, False)
    """
    words = norm_label(name).split()
    if len(words) < 2:
        return False
    last = words[-1].rsplit("-", 1)[-1]
    return last in TASK_HEADS or last.rstrip("s") in TASK_HEADS
