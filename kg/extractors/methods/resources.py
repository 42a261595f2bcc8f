"""Resources: whether a name the paper introduces is a dataset, a benchmark, a metric or a library,
from the words around it ("X, a benchmark ...", "a synthetic dataset X"), its long form ("... dataset
(WWQA)"), its own shape ("FooBench") or the title ("MANGO: A Benchmark for ...")."""

from __future__ import annotations

import re

from .forms import TITLE_NAME


def title_resource(title: str) -> str:
    """``benchmark``/``dataset`` when a title "Name: ..." says the name is one."""
    m = TITLE_NAME.match(title)
    return resource_before(m.group("rest").lower() + " ") or title_rest_resource(m.group("rest")) if m else ""


def title_rest_resource(rest: str) -> str:
    low = rest.lower()
    for word, kind in (("benchmark", "benchmark"), ("evaluation suite", "benchmark"), ("dataset", "dataset"),
                       ("corpus", "dataset"), ("testbed", "benchmark"), ("data set", "dataset")):  # fmt: skip
        if re.search(rf"\b{word}", low):
            return kind
    return ""


_RESOURCE_WORDS = (
    ("benchmark", "benchmark"),
    ("suite", "benchmark"),
    ("leaderboard", "benchmark"),
    ("dataset", "dataset"),
    ("data set", "dataset"),
    ("corpus", "dataset"),
    ("collection", "dataset"),
    ("testbed", "benchmark"),
    ("library", "library"),
    ("toolkit", "library"),
    ("toolbox", "library"),
    ("package", "library"),
    ("metric", "metric"),
    ("measure", "metric"),
)


_BENCH = re.compile(r"(?:bench|eval|arena|QA)$", re.IGNORECASE)
_DEFINITION = re.compile(r"^[\s,:()]*(?:\w+\)\s*,?\s*)?(?:is\s+)?(?:a|an|the)\b")
_RESOURCE_PATTERNS = tuple((re.compile(rf"\b{word}"), kind) for word, kind in _RESOURCE_WORDS)


# "the first DVS video anomaly detection benchmark, namely X", "a synthetic dataset X"
_RESOURCE_BEFORE = re.compile(
    r"\b(benchmark|suite|leaderboard|testbed|dataset|data set|corpus|collection)s?\s*[,:]?\s*(?:namely|called|named"
    r"|dubbed|termed)?\s*[(\"“]?$"
)
_RESOURCE_KIND = {"suite": "benchmark", "leaderboard": "benchmark", "testbed": "benchmark", "data set": "dataset",
                  "corpus": "dataset", "collection": "dataset"}  # fmt: skip


def resource_before(lead: str) -> str:
    """``benchmark``/``dataset`` when the words right before the name say so."""
    m = _RESOURCE_BEFORE.search(lead)
    return _RESOURCE_KIND.get(m.group(1), m.group(1)) if m else ""


def resource_named(full: str) -> str:
    """``benchmark``/``dataset`` when the long form itself is one ("Werewolf question-answering dataset")."""
    words = full.lower().split()
    if not words:
        return ""
    last = words[-1].rstrip("s")
    if last in ("benchmark", "dataset", "suite", "corpu", "testbed", "leaderboard"):
        return _RESOURCE_KIND.get(last, "dataset" if last == "corpu" else last)
    if "dataset" in words or "benchmark" in words:
        return "benchmark" if "benchmark" in words else "dataset"
    return ""


def resource_after(name: str, tail: str) -> str:
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
