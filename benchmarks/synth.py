"""Seeded synthetic corpus generator for benchmarking ``kg``.

Writes ``N`` distinct papers into a folder, in four formats that kg reads:

* arXiv metadata JSON lines (the Kaggle ``arxiv-metadata-oai-snapshot`` layout),
  ``arxiv-metadata-NNNN.jsonl``, 100k records per file;
* profile pages (``profile-NNNN.txt``), one per profiled person (the most
  productive persons of the pool), holding that person's papers, newest first;
* conference listings (``listing-NNNN.txt``, header ``论文检索``), ~5k records each;
* daily feeds (``daily-NNNN.txt``, header ``Daily Papers``), ~5k abstracts each.

The page layouts reproduce the seed pages in ``seeds/`` byte for byte: fields
separated by one blank line, no trailing newline.  About 2% of the papers are
written twice, in two different formats (and so two files), so that kg has to
merge them (with a single format wanted, twice in that format); a second copy
on a profile page gets the profiled person added to its authors.  About 15% of
the abstracts carry a GitHub link, spelt in the messy ways seen in the wild.
``N`` counts distinct papers; the folder holds ``N`` plus ~2% records.  Output is a pure function of ``(papers, seed, formats)``:
the same arguments give byte-identical files.  Papers are generated and
written one at a time; only the person pool and one profile page at a time
are held in memory.

Usage::

    python benchmarks/synth.py --papers 100000 --out /tmp/corpus [--seed 0]
        [--formats jsonl,profile,listing,daily]
"""

from __future__ import annotations

import argparse
import bisect
import itertools
import json
import math
import random
import re
import sys
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import date, timedelta
from pathlib import Path
from typing import IO, Final, TypeVar

sys.path.insert(0, str(Path(__file__).resolve().parent))

import sentences as S

T = TypeVar("T")

FORMATS: Final[tuple[str, ...]] = ("jsonl", "profile", "listing", "daily")
"""All formats, in the order their files are named in the summary."""

SHARES: Final[dict[str, float]] = {"jsonl": 0.70, "profile": 0.10, "listing": 0.12, "daily": 0.08}
"""Share of the distinct papers whose first (or only) record is in each format."""

DUPLICATE_RATE: Final = 0.02
LINK_RATE: Final = 0.15
JSONL_CHUNK: Final = 100_000
PAGE_CHUNK: Final = 5_000
YEARS: Final = range(2015, 2027)

LISTING_HEADER: Final = "论文检索"
DAILY_HEADER: Final = "Daily Papers"
ARROW: Final = "↗"

# (code, weight): real, active arXiv categories, weighted towards ML.
CATEGORIES: Final[tuple[tuple[str, float], ...]] = (
    ("cs.LG", 30.0), ("cs.CV", 16.0), ("cs.CL", 14.0), ("cs.AI", 10.0), ("stat.ML", 8.0),
    ("cs.RO", 2.5), ("cs.NE", 1.5), ("cs.IR", 1.5), ("cs.CR", 1.2), ("cs.DS", 0.8), ("cs.IT", 0.6),
    ("cs.SD", 0.8), ("eess.AS", 0.8), ("eess.IV", 1.5), ("eess.SP", 1.0), ("eess.SY", 0.8),
    ("cs.SY", 0.6), ("cs.MA", 0.6), ("cs.GT", 0.4), ("cs.HC", 0.8), ("cs.SE", 0.8), ("cs.DC", 0.8),
    ("cs.CY", 0.6), ("cs.GR", 0.5), ("cs.MM", 0.4), ("cs.SI", 0.5), ("cs.DB", 0.3), ("cs.PL", 0.2),
    ("cs.LO", 0.2), ("cs.CG", 0.1), ("math.OC", 1.5), ("math.ST", 0.8), ("stat.ME", 0.8),
    ("stat.CO", 0.3), ("stat.AP", 0.4), ("math.NA", 0.5), ("math.PR", 0.3), ("q-bio.QM", 0.4),
    ("q-bio.BM", 0.3), ("physics.comp-ph", 0.4), ("physics.chem-ph", 0.2), ("astro-ph.IM", 0.2),
    ("astro-ph.GA", 0.1), ("quant-ph", 0.4), ("cond-mat.dis-nn", 0.3), ("q-fin.ST", 0.1),
    ("econ.EM", 0.1),
)

AREAS: Final[tuple[tuple[str, float], ...]] = (
    ("Deep Learning · Everything Else", 10.0),
    ("Deep Learning · Generative Models and Autoencoders", 8.0),
    ("Deep Learning · Attention Mechanisms", 4.0),
    ("Deep Learning · Graph Neural Networks", 3.5),
    ("Deep Learning · Large Language Models", 6.0),
    ("Deep Learning · Robustness", 2.5),
    ("Deep Learning · Theory", 2.0),
    ("Deep Learning · Self-Supervised Learning", 2.5),
    ("Deep Learning · Algorithms", 2.5),
    ("Optimization · Everything Else", 2.0),
    ("Optimization · Large Scale, Parallel and Distributed", 1.5),
    ("Optimization · Convex", 1.0),
    ("Optimization · Non-Convex", 1.5),
    ("Reinforcement Learning · Deep RL", 4.0),
    ("Reinforcement Learning · Everything Else", 2.0),
    ("Reinforcement Learning · Multi-agent", 1.0),
    ("Reinforcement Learning · Batch/Offline", 1.0),
    ("Theory · Learning Theory", 2.5),
    ("Theory · Everything Else", 1.0),
    ("Theory · Online Learning and Bandits", 1.0),
    ("General Machine Learning · Probabilistic Methods", 2.0),
    ("General Machine Learning · Representation Learning", 2.0),
    ("General Machine Learning · Transfer, Multitask and Meta-learning", 1.5),
    ("General Machine Learning · Everything Else", 2.0),
    ("Probabilistic Methods · Bayesian Models and Methods", 1.0),
    ("Probabilistic Methods · Gaussian Processes", 0.5),
    ("Probabilistic Methods · Variational Inference", 0.7),
    ("Social Aspects · Fairness", 1.0),
    ("Social Aspects · Privacy", 1.0),
    ("Social Aspects · Trustworthy Machine Learning", 1.0),
    ("Applications · Computer Vision", 3.0),
    ("Applications · Language, Speech and Dialog", 2.5),
    ("Applications · Health", 1.0),
    ("Applications · Physics", 0.7),
    ("Applications · Chemistry, Drug Discovery", 0.7),
    ("Applications · Time Series", 1.0),
    ("Applications · Robotics", 0.8),
)

# Preferred areas for some primary categories (used 70% of the time).
_AREA_HINTS: Final[dict[str, tuple[str, ...]]] = {
    "cs.CV": ("Applications · Computer Vision", "Deep Learning · Generative Models and Autoencoders",
              "Deep Learning · Self-Supervised Learning"),
    "cs.CL": ("Applications · Language, Speech and Dialog", "Deep Learning · Large Language Models",
              "Deep Learning · Attention Mechanisms"),
    "stat.ML": ("General Machine Learning · Probabilistic Methods", "Theory · Learning Theory",
                "Probabilistic Methods · Bayesian Models and Methods"),
    "math.OC": ("Optimization · Everything Else", "Optimization · Non-Convex", "Optimization · Convex"),
    "cs.RO": ("Reinforcement Learning · Deep RL", "Applications · Robotics"),
    "cs.MA": ("Reinforcement Learning · Multi-agent",),
    "cs.CR": ("Social Aspects · Privacy", "Deep Learning · Robustness"),
    "math.ST": ("Theory · Learning Theory", "Theory · Everything Else"),
}

_YEAR_WEIGHTS: Final[tuple[float, ...]] = (3, 4, 5, 7, 9, 11, 12, 13, 15, 17, 19, 10)
_AUTHOR_COUNT_WEIGHTS: Final[tuple[float, ...]] = (5, 12, 18, 18, 14, 10, 7, 5, 4, 3, 2, 2)
_CATEGORY_COUNT_WEIGHTS: Final[tuple[float, ...]] = (40, 40, 20)
_VERSION_WEIGHTS: Final[tuple[float, ...]] = (55, 28, 11, 4, 2)
_MODEL_SIZES: Final[tuple[str, ...]] = ("1B", "1.3B", "3B", "7B", "8B", "13B", "34B", "70B")
_SMALL_WORDS: Final[frozenset[str]] = frozenset(
    ("a", "an", "and", "as", "at", "by", "for", "from", "in", "into", "of", "on", "or", "the", "to", "via",
     "vs", "with", "under", "through")
)
_LICENSES: Final[tuple[tuple[str | None, float], ...]] = (
    ("http://arxiv.org/licenses/nonexclusive-distrib/1.0/", 55.0),
    ("http://creativecommons.org/licenses/by/4.0/", 30.0),
    ("http://creativecommons.org/licenses/by-nc-sa/4.0/", 5.0),
    ("http://creativecommons.org/licenses/by-nc-nd/4.0/", 3.0),
    ("http://creativecommons.org/licenses/by-sa/4.0/", 2.0),
    ("http://creativecommons.org/publicdomain/zero/1.0/", 1.0),
    (None, 4.0),
)
_VENUES: Final[tuple[str, ...]] = (
    "NeurIPS", "ICML", "ICLR", "AAAI", "CVPR", "ICCV", "ECCV", "ACL", "EMNLP", "NAACL", "AISTATS", "UAI",
    "COLT", "KDD", "CoRL", "TMLR",
)
_WEEKDAYS: Final = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")
_MONTHS: Final = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")
_LAST_DAY: Final = date(2026, 12, 31)

# How arXiv's ``authors`` field spells accented letters (``authors_parsed`` keeps Unicode).
_LATEX_ACCENTS: Final[dict[str, str]] = {
    "á": "\\'a", "é": "\\'e", "í": "\\'i", "ó": "\\'o", "ú": "\\'u", "ć": "\\'c",
    "ä": '\\"a', "ë": '\\"e', "ö": '\\"o', "ü": '\\"u', "Ö": '\\"O', "è": "\\`e", "ñ": "\\~n",
    "ç": "\\c{c}", "Ç": "\\c{C}", "ş": "\\c{s}", "ğ": "\\u{g}", "č": "\\v{c}", "ř": "\\v{r}",
    "Š": "\\v{S}", "Ż": "\\.Z", "ł": "{\\l}", "Ł": "{\\L}", "ø": "{\\o}", "Ø": "{\\O}",
    "å": "{\\aa}", "Å": "{\\AA}", "ß": "{\\ss}",
}
_LATEX_TABLE: Final = str.maketrans(_LATEX_ACCENTS)

_ROLE_SENTENCES: Final[dict[str, tuple[str, ...]]] = {
    role: getattr(S, role)
    for role in ("CONTEXT", "PROBLEM", "PROPOSAL", "METHOD", "THEORY", "EXPERIMENT", "RESULT", "CONCLUSION")
}
# Mean words per sentence of each role once the slots are filled (slot values average ~1.7 words).
_ROLE_WORDS: Final[dict[str, float]] = {
    role: sum(len(t.split()) + 0.7 * t.count("{") for t in ts) / len(ts)
    for role, ts in _ROLE_SENTENCES.items()
}


def _cumulative(weights: Iterable[float]) -> list[float]:
    return list(itertools.accumulate(weights))


_CAT_CODES: Final = tuple(c for c, _ in CATEGORIES)
_CAT_CUM: Final = _cumulative(w for _, w in CATEGORIES)
_AREA_NAMES: Final = tuple(a for a, _ in AREAS)
_AREA_CUM: Final = _cumulative(w for _, w in AREAS)
_LICENSE_VALUES: Final = tuple(v for v, _ in _LICENSES)
_LICENSE_CUM: Final = _cumulative(w for _, w in _LICENSES)
_YEAR_CUM: Final = _cumulative(_YEAR_WEIGHTS)
_AUTHOR_COUNTS: Final = tuple(range(1, 13))
_AUTHOR_COUNT_CUM: Final = _cumulative(_AUTHOR_COUNT_WEIGHTS)
_CATEGORY_COUNT_CUM: Final = _cumulative(_CATEGORY_COUNT_WEIGHTS)
_VERSION_CUM: Final = _cumulative(_VERSION_WEIGHTS)


# -- Summary --------------------------------------------------------------------------------------------


@dataclass
class Summary:
    """What :func:`generate` wrote."""

    out: Path
    seed: int
    papers: int
    """Distinct papers."""
    persons: int
    """Size of the person pool (not every person need have a paper)."""
    duplicates: int = 0
    """Papers written twice (in two formats, hence two files)."""
    with_link: int = 0
    """Distinct papers whose abstract carries a GitHub link."""
    records: dict[str, int] = field(default_factory=lambda: dict.fromkeys(FORMATS, 0))
    files: dict[str, int] = field(default_factory=lambda: dict.fromkeys(FORMATS, 0))
    bytes: dict[str, int] = field(default_factory=lambda: dict.fromkeys(FORMATS, 0))
    seconds: float = 0.0

    @property
    def total_records(self) -> int:
        return sum(self.records.values())

    @property
    def total_files(self) -> int:
        return sum(self.files.values())

    @property
    def total_bytes(self) -> int:
        return sum(self.bytes.values())

    @property
    def link_share(self) -> float:
        return self.with_link / self.papers if self.papers else 0.0

    def table(self) -> str:
        """A plain-text table of the figures."""
        rows = [f"{'format':<10}{'files':>8}{'records':>12}{'bytes':>16}"]
        for fmt in FORMATS:
            rows.append(f"{fmt:<10}{self.files[fmt]:>8,}{self.records[fmt]:>12,}{self.bytes[fmt]:>16,}")
        rows.append(f"{'total':<10}{self.total_files:>8,}{self.total_records:>12,}{self.total_bytes:>16,}")
        rows += [
            "",
            f"distinct papers   {self.papers:,}",
            f"duplicates        {self.duplicates:,} ({self.duplicates / max(self.papers, 1):.1%} of papers)",
            f"repo-link share   {self.link_share:.1%} ({self.with_link:,} papers)",
            f"person pool       {self.persons:,}",
            f"seed              {self.seed}",
            f"time              {self.seconds:.1f} s",
            f"output            {self.out}",
        ]
        return "\n".join(rows)


# -- Helpers ----------------------------------------------------------------------------------------------


class _Rng(random.Random):
    """:class:`random.Random` with fast, simple draws (the stdlib ones are slow Python code).

    ``pick``/``between``/``below`` use one ``random()`` call each; their negligible bias for
    small ranges does not matter here.
    """

    def pick(self, seq: Sequence[T]) -> T:
        return seq[int(self.random() * len(seq))]

    def between(self, a: int, b: int) -> int:
        """An integer in ``[a, b]``."""
        return a + int(self.random() * (b - a + 1))

    def below(self, n: int) -> int:
        """An integer in ``[0, n)``."""
        return int(self.random() * n)

    def some(self, seq: Sequence[T], k: int) -> list[T]:
        """``k`` distinct elements (``k`` much smaller than ``len(seq)``)."""
        n = len(seq)
        got: list[int] = []
        while len(got) < k:
            i = int(self.random() * n)
            if i not in got:
                got.append(i)
        return [seq[i] for i in got]

    def weighted(self, seq: Sequence[T], cum: Sequence[float]) -> T:
        """An element drawn with the cumulative weights ``cum``."""
        return seq[bisect.bisect(cum, self.random() * cum[-1], 0, len(cum) - 1)]


class _Quota:
    """Stratified Bernoulli draws: exactly ``round(rate * block)`` hits per block, at random places.

    Keeps small corpora close to the target rate while staying random.
    """

    def __init__(self, rng: _Rng, rate: float, block: int) -> None:
        self._rng = rng
        self._hits = round(rate * block)
        self._block = block
        self._pending: set[int] = set()
        self._i = block

    def __call__(self) -> bool:
        if self._i == self._block:
            self._pending = set(self._rng.sample(range(self._block), self._hits))
            self._i = 0
        hit = self._i in self._pending
        self._i += 1
        return hit


def _wrap(text: str, width: int) -> list[str]:
    """Greedy word wrap at spaces (words longer than ``width`` stay whole); faster than :mod:`textwrap`."""
    pattern = _WRAPS.get(width)
    if pattern is None:
        pattern = _WRAPS[width] = re.compile(rf"(.{{1,{width}}}|\S+)(?: |$)")
    return pattern.findall(text)


_WRAPS: dict[int, re.Pattern[str]] = {}


def _titlecase(text: str) -> str:
    words = text.split(" ")
    out = []
    for i, w in enumerate(words):
        if w and w[0].islower() and (i == 0 or w not in _SMALL_WORDS):
            w = w[0].upper() + w[1:]
        out.append(w)
    return " ".join(out)


def _capitalize(text: str) -> str:
    return text[0].upper() + text[1:] if text and text[0].islower() else text


def _arxiv_date(d: date, rng: _Rng) -> str:
    return (
        f"{_WEEKDAYS[d.weekday()]}, {d.day} {_MONTHS[d.month - 1]} {d.year} "
        f"{rng.below(24):02d}:{rng.below(60):02d}:{rng.below(60):02d} GMT"
    )


# -- Person pool -------------------------------------------------------------------------------------------


class _People:
    """The person pool: unique names, ranked by productivity (rank 0 publishes most)."""

    def __init__(self, rng: _Rng, size: int) -> None:
        seen: set[str] = set()
        self.names: list[str] = []
        self.parsed: list[tuple[str, str]] = []
        first, last = S.FIRST_NAMES, S.LAST_NAMES
        initials = "ABCDEFGHIJKLMNOPRSTVWXYZ"
        while len(self.names) < size:
            given = rng.pick(first)
            family = rng.pick(last)
            u = rng.random()
            attempts = 0
            while True:
                if u < 0.06:
                    sep = "-" if rng.random() < 0.5 else " "
                    given = f"{given}{sep}{rng.pick(first)}"
                elif u < 0.25 or attempts > 0:
                    dot = "." if rng.random() < 0.6 else ""
                    given = f"{given} {rng.pick(initials)}{dot}"
                if u > 0.96 or attempts > 3:
                    family = f"{family}-{rng.pick(last)}"
                name = f"{given} {family}"
                if name not in seen:
                    break
                attempts += 1
                given, family = rng.pick(first), rng.pick(last)
            seen.add(name)
            self.names.append(name)
            self.parsed.append((family, given))
        self.size = size
        # Shifted Zipf: weight of rank r is (r + shift)^-exponent.
        shift = max(3.0, min(300.0, size / 20))
        self.cum = _cumulative((r + shift) ** -1.1 for r in range(size))
        self._total = self.cum[-1]
        self._latex: dict[int, str] = {}

    def weight(self, rank: int) -> float:
        return (self.cum[rank] - (self.cum[rank - 1] if rank else 0.0)) / self._total

    def draw(self, rng: _Rng, k: int) -> list[int]:
        """``k`` distinct persons, Zipf-weighted."""
        got: list[int] = []
        cum, total, size = self.cum, self._total, self.size
        while len(got) < k:
            p = bisect.bisect(cum, rng.random() * total, 0, size - 1)
            if p not in got:
                got.append(p)
        return got

    def latex(self, person: int) -> str:
        """The name as arXiv's ``authors`` field often spells it (TeX accents)."""
        name = self.names[person]
        if name.isascii():
            return name
        got = self._latex.get(person)
        if got is None:
            got = self._latex[person] = name.translate(_LATEX_TABLE)
        return got


# -- Papers -----------------------------------------------------------------------------------------------


@dataclass(slots=True)
class _Paper:
    title: str
    abstract: str
    authors: list[int]
    categories: list[str]
    year: int
    month: int
    link: bool
    method: str


class _Maker:
    """Draws papers from one random stream."""

    def __init__(self, rng: _Rng, people: _People, link_quota: _Quota) -> None:
        self.rng = rng
        self.people = people
        self.link_quota = link_quota

    def _name(self) -> str:
        rng = self.rng
        u = rng.random()
        if u < 0.55:
            return rng.pick(S.NAME_HEADS) + rng.pick(S.NAME_TAILS)
        if u < 0.8:
            return "".join(rng.pick("ABCDEFGHIKLMNOPRSTUVWXYZ") for _ in range(rng.between(3, 5)))
        if u < 0.9:
            acro = "".join(rng.pick("ABCDEFGHIKLMNPRSTVX") for _ in range(2))
            return f"{acro}-{rng.pick(S.NAME_TAILS)}"
        return rng.pick(S.NAME_HEADS) + rng.pick(S.NAME_TAILS) + rng.pick(("++", "-v2", "2", "-XL", "-R1"))

    def _url(self, name: str, authors: list[int]) -> str:
        rng = self.rng
        if rng.random() < 0.4:
            family, given = self.people.parsed[authors[0]]
            user = (given[0] + family).lower().replace(" ", "").replace("-", "")
            user = user.encode("ascii", "ignore").decode() or "anon"
        else:
            user = rng.pick(S.GITHUB_USERS)
        repo = rng.pick((name, name.lower(), f"{name}-official", f"{name.lower()}_code", f"{name}.github.io"))
        u = rng.random()
        if u < 0.40:
            return f"https://github.com/{user}/{repo}."
        if u < 0.50:
            return f"https://github.com/{user}/{repo}"
        if u < 0.65:
            return f"(https://github.com/{user}/{repo})."
        if u < 0.75:
            return f"https://github. com/{user}/{repo}."
        if u < 0.88:
            return f"\\url{{https://github.com/{user}/{repo}}}."
        if u < 0.94:
            return f"github.com/{user}/{repo}."
        return f"https://github.com/{user}/{repo}/."

    def paper(self, force_author: int | None = None) -> _Paper:
        rng = self.rng
        choice, rand = rng.pick, rng.random
        people = self.people
        n_auth = rng.weighted(_AUTHOR_COUNTS, _AUTHOR_COUNT_CUM)
        authors = people.draw(rng, n_auth)
        if force_author is not None and force_author not in authors:
            if len(authors) == 12:
                authors.pop()
            authors.insert(rng.below(len(authors) + 1), force_author)
        n_cat = rng.weighted((1, 2, 3), _CATEGORY_COUNT_CUM)
        cats: list[str] = []
        while len(cats) < n_cat:
            c = rng.weighted(_CAT_CODES, _CAT_CUM)
            if c not in cats:
                cats.append(c)
        year = YEARS[rng.weighted(range(len(YEARS)), _YEAR_CUM)]
        month = rng.between(1, 12)

        methods = rng.some(S.METHODS, 2)
        tasks = rng.some(S.TASKS, 2)
        datasets = rng.some(S.DATASETS, 2)
        name = self._name()
        slots = {
            "N": name, "M": methods[0], "M2": methods[1], "T": tasks[0], "T2": tasks[1],
            "D": datasets[0], "D2": datasets[1], "MET": choice(S.METRICS), "Y": choice(S.PROPERTIES),
            "F": choice(S.FIELDS), "P": f"{rand() * 30 + 0.5:.1f}%", "P2": f"{rand() * 60 + 20:.1f}%",
            "X": f"{rand() * 9 + 1.2:.1f}", "K": str(rng.between(3, 12)), "K2": str(rng.between(2, 8)),
            "B": choice(_MODEL_SIZES), "V": choice(S.TITLE_VERBS),
        }

        target = min(320.0, max(90.0, rng.gauss(180.0, 45.0)))
        plan = {
            "CONTEXT": rng.between(1, 3), "PROBLEM": rng.between(0, 2), "PROPOSAL": 1,
            "METHOD": rng.between(1, 3), "THEORY": rng.between(1, 2) if rand() < 0.3 else 0,
            "EXPERIMENT": rng.between(1, 2), "RESULT": rng.between(1, 2),
            "CONCLUSION": 1 if rand() < 0.6 else 0,
        }
        words = sum(_ROLE_WORDS[r] * k for r, k in plan.items())
        growable = ("METHOD", "RESULT", "CONTEXT", "PROBLEM", "EXPERIMENT", "METHOD")
        while words < target:
            role = choice(growable)
            if plan[role] < 6:
                plan[role] += 1
                words += _ROLE_WORDS[role]
        while words > target + 20 and plan["METHOD"] > 1:
            plan["METHOD"] -= 1
            words -= _ROLE_WORDS["METHOD"]
        parts: list[str] = []
        for role, k in plan.items():
            if k == 1:
                parts.append(_capitalize(choice(_ROLE_SENTENCES[role]).format_map(slots)))
            elif k:
                for t in rng.some(_ROLE_SENTENCES[role], k):
                    parts.append(_capitalize(t.format_map(slots)))
        link = self.link_quota()
        if link:
            sentence = choice(S.CODE).format(URL=self._url(name, authors))
            if rand() < 0.8:
                parts.append(sentence)
            else:
                parts.insert(rng.between(1, len(parts)), sentence)
        abstract = " ".join(parts)
        title = choice(S.TITLES).format_map(slots)
        title = _titlecase(title) if rand() < 0.8 else _capitalize(title)
        return _Paper(title, abstract, authors, cats, year, month, link, methods[0])


# -- Writers ------------------------------------------------------------------------------------------------


class _Chunked:
    """Writes records into numbered files of at most ``chunk`` records each."""

    def __init__(self, out: Path, fmt: str, chunk: int, summary: Summary) -> None:
        self.out = out
        self.fmt = fmt
        self.chunk = chunk
        self.summary = summary
        self.fh: IO[str] | None = None
        self.path: Path | None = None
        self.count = 0

    def _open(self) -> IO[str]:
        index = self.summary.files[self.fmt]
        suffix = "jsonl" if self.fmt == "jsonl" else "txt"
        stem = "arxiv-metadata" if self.fmt == "jsonl" else self.fmt
        self.path = self.out / f"{stem}-{index:04d}.{suffix}"
        self.summary.files[self.fmt] += 1
        fh = open(self.path, "w", encoding="utf-8", newline="\n", buffering=1 << 20)  # noqa: SIM115
        if self.fmt == "listing":
            fh.write(LISTING_HEADER)
        elif self.fmt == "daily":
            fh.write(DAILY_HEADER)
        self.count = 0
        return fh

    def write(self, text: str) -> None:
        if self.fh is None or self.count >= self.chunk:
            self.close()
            self.fh = self._open()
        self.fh.write(text)
        self.count += 1
        self.summary.records[self.fmt] += 1

    def close(self) -> None:
        if self.fh is not None:
            self.fh.close()
            assert self.path is not None
            self.summary.bytes[self.fmt] += self.path.stat().st_size
            self.fh = None


class _Emitter:
    """Turns papers into records of each format and writes them."""

    def __init__(self, out: Path, people: _People, rng: _Rng, summary: Summary,
                 jsonl_chunk: int, page_chunk: int) -> None:
        self.people = people
        self.rng = rng
        self.summary = summary
        self.writers = {
            "jsonl": _Chunked(out, "jsonl", jsonl_chunk, summary),
            "listing": _Chunked(out, "listing", page_chunk, summary),
            "daily": _Chunked(out, "daily", page_chunk, summary),
        }
        self.serial: dict[tuple[int, int], int] = {}

    def emit(self, fmt: str, paper: _Paper) -> None:
        if fmt == "jsonl":
            self.writers[fmt].write(self.jsonl(paper))
        elif fmt == "listing":
            self.writers[fmt].write(self.listing(paper))
        elif fmt == "daily":
            self.writers[fmt].write(f"\n\n{paper.abstract}")
        else:
            raise ValueError(fmt)

    def listing(self, paper: _Paper) -> str:
        rng = self.rng
        hints = _AREA_HINTS.get(paper.categories[0])
        area = rng.pick(hints) if hints and rng.random() < 0.7 else rng.weighted(_AREA_NAMES, _AREA_CUM)
        names = ", ".join(self.people.names[p] for p in paper.authors)
        return f"\n\n{area}\n\n{names}\n\n{paper.abstract}"

    @staticmethod
    def profile_record(paper: _Paper) -> str:
        return f"\n\narXiv{paper.year}\n\n{paper.title}\n\n{paper.abstract}\n\n{paper.categories[0]}{ARROW}"

    def jsonl(self, paper: _Paper) -> str:
        rng = self.rng
        people = self.people
        key = (paper.year, paper.month)
        serial = self.serial.get(key, 0) + rng.between(1, 3)
        self.serial[key] = serial
        arxiv_id = f"{paper.year % 100:02d}{paper.month:02d}.{serial:05d}"

        latex = rng.random() < 0.5
        names = [people.latex(p) if latex else people.names[p] for p in paper.authors]
        if len(names) > 1 and rng.random() < 0.2:
            authors = ", ".join(names[:-1]) + " and " + names[-1]
        else:
            authors = ", ".join(names)
        submitter = people.names[paper.authors[0] if rng.random() < 0.7 else rng.pick(paper.authors)]

        title = paper.title if len(paper.title) <= 72 else "\n  ".join(_wrap(paper.title, 72))
        abstract = "  " + "\n".join(_wrap(paper.abstract, 80)) + "\n"

        day = date(paper.year, paper.month, rng.between(1, 28))
        if paper.year == 2026 and paper.month == 12:
            n_versions = 1
        else:
            n_versions = rng.weighted((1, 2, 3, 4, 5), _VERSION_CUM)
        versions = []
        for v in range(1, n_versions + 1):
            versions.append({"version": f"v{v}", "created": _arxiv_date(day, rng)})
            if v < n_versions:
                day = min(_LAST_DAY, day + timedelta(days=rng.between(2, 240)))

        u = rng.random()
        if u < 0.35:
            comments = None
        elif u < 0.7:
            comments = f"{rng.between(6, 40)} pages, {rng.between(1, 15)} figures"
        elif u < 0.9:
            venue = rng.pick(_VENUES)
            comments = f"Accepted at {venue} {min(2026, paper.year + rng.between(0, 1))}"
        else:
            comments = f"{rng.between(8, 60)} pages; code available"
        journal_ref = None
        doi = None
        if rng.random() < 0.07:
            journal_ref = f"Transactions on Machine Learning Research ({min(2026, paper.year + 1)})"
        if rng.random() < 0.08:
            doi = f"10.{rng.between(1000, 1200)}/{rng.pick(('TPAMI', 'TNNLS', 'JMLR', 'ACCESS'))}" \
                  f".{paper.year}.{rng.between(1000000, 9999999)}"
        license_ = rng.weighted(_LICENSE_VALUES, _LICENSE_CUM)
        parsed = [[family, given, ""] for family, given in (people.parsed[p] for p in paper.authors)]
        record = {
            "id": arxiv_id,
            "submitter": submitter,
            "authors": authors,
            "title": title,
            "comments": comments,
            "journal-ref": journal_ref,
            "doi": doi,
            "report-no": None,
            "categories": " ".join(paper.categories),
            "license": license_,
            "abstract": abstract,
            "versions": versions,
            "update_date": day.isoformat(),
            "authors_parsed": parsed,
        }
        return json.dumps(record, ensure_ascii=False, separators=(",", ":")) + "\n"

    def close(self) -> None:
        for w in self.writers.values():
            w.close()


# -- Driver -------------------------------------------------------------------------------------------------


_OUR_FILES: Final = re.compile(r"(arxiv-metadata|profile|listing|daily)-\d{4,}\.(jsonl|txt)")


def _split(total: int, weights: Sequence[float]) -> list[int]:
    """Largest-remainder split of ``total`` into parts proportional to ``weights``, each >= 1."""
    s = sum(weights)
    raw = [total * w / s for w in weights]
    parts = [max(1, int(r)) for r in raw]
    rest = total - sum(parts)
    order = sorted(range(len(raw)), key=lambda i: (int(raw[i]) - raw[i], i))
    i = 0
    while rest > 0:
        parts[order[i % len(order)]] += 1
        rest -= 1
        i += 1
    return parts


def generate(
    papers: int,
    out: Path,
    seed: int = 0,
    formats: Iterable[str] = FORMATS,
    *,
    jsonl_chunk: int = JSONL_CHUNK,
    page_chunk: int = PAGE_CHUNK,
) -> Summary:
    """Write ``papers`` distinct papers (plus ~2% second copies) into ``out``.

    Files from an earlier run in ``out`` (same naming scheme) are removed first.
    """
    started = time.perf_counter()
    wanted = tuple(f for f in FORMATS if f in set(formats))
    unknown = set(formats) - set(FORMATS)
    if unknown or not wanted:
        raise ValueError(f"formats must be a non-empty subset of {FORMATS}, got {sorted(set(formats))}")
    if papers < 1:
        raise ValueError("papers must be positive")
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    for old in out.iterdir():
        if _OUR_FILES.fullmatch(old.name):
            old.unlink()

    rng = _Rng(seed)
    people = _People(rng, max(20, papers // 3))
    summary = Summary(out=out, seed=seed, papers=papers, persons=people.size)
    dup_quota = _Quota(rng, DUPLICATE_RATE, 50)
    maker = _Maker(rng, people, _Quota(rng, LINK_RATE, 20))
    emitter = _Emitter(out, people, rng, summary, jsonl_chunk, page_chunk)

    share_total = sum(SHARES[f] for f in wanted)
    main = [f for f in wanted if f != "profile"]
    main_cum = _cumulative(SHARES[f] for f in main)
    n_profile_papers = 0
    if "profile" in wanted:
        n_profile_papers = papers if not main else max(1, round(papers * SHARES["profile"] / share_total))
    n_pages = min(people.size, max(1, round(math.sqrt(n_profile_papers)))) if n_profile_papers else 0
    page_sizes = _split(n_profile_papers, [people.weight(r) for r in range(n_pages)]) if n_pages else []
    page_cum = _cumulative(people.weight(r) for r in range(n_pages))
    stash: dict[int, list[tuple[int, str]]] = {}

    def second_format(first: str) -> str | None:
        """Format of a paper's second copy: another format if there is one, else (not for profiles) the same."""
        others = [f for f in wanted if f != first]
        if not others:
            return None if first == "profile" else first
        return rng.choices(others, weights=[SHARES[f] for f in others])[0]

    def note(paper: _Paper) -> None:
        if paper.link:
            summary.with_link += 1

    # Main stream: JSON lines, listings, daily feeds.
    for _ in range(papers - n_profile_papers):
        fmt = rng.weighted(main, main_cum)
        dup = dup_quota()
        target = second_format(fmt) if dup else None
        person = None
        if target == "profile":
            person = rng.weighted(range(n_pages), page_cum)
        paper = maker.paper(force_author=person)
        note(paper)
        emitter.emit(fmt, paper)
        if target is not None:
            summary.duplicates += 1
            if person is not None:
                stash.setdefault(person, []).append((paper.year, emitter.profile_record(paper)))
            else:
                emitter.emit(target, paper)

    # Profile pages, one per profiled person, most productive first.
    for rank, size in enumerate(page_sizes):
        records: list[tuple[int, str]] = stash.pop(rank, [])
        for _ in range(size):
            paper = maker.paper(force_author=rank)
            note(paper)
            records.append((paper.year, emitter.profile_record(paper)))
            if dup_quota():
                target = second_format("profile")
                if target is not None:
                    summary.duplicates += 1
                    emitter.emit(target, paper)
                elif rank + 1 < n_pages:
                    later = rng.between(rank + 1, n_pages - 1)
                    twin = _Paper(paper.title, paper.abstract, [*paper.authors, later], paper.categories,
                                  paper.year, paper.month, paper.link, paper.method)
                    summary.duplicates += 1
                    stash.setdefault(later, []).append((twin.year, emitter.profile_record(twin)))
        records.sort(key=lambda r: -r[0])  # newest first; stable within a year
        name = people.names[rank]
        claimed = len(records) + rng.between(0, 2)
        path = out / f"profile-{rank:04d}.txt"
        with open(path, "w", encoding="utf-8", newline="\n", buffering=1 << 20) as fh:
            fh.write(
                f"arXiv subjects\n\n{name}\n\nPublications and source records attributed to {name}.\n\n"
                f"At least {claimed} recordsLinked to original sources"
            )
            for _, text in records:
                fh.write(text)
        summary.files["profile"] += 1
        summary.records["profile"] += len(records)
        summary.bytes["profile"] += path.stat().st_size

    emitter.close()
    summary.seconds = time.perf_counter() - started
    return summary


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--papers", type=int, required=True, help="number of distinct papers")
    parser.add_argument("--out", type=Path, required=True, help="output folder")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--formats", default=",".join(FORMATS),
                        help=f"comma-separated subset of {','.join(FORMATS)}")
    args = parser.parse_args(argv)
    formats = [f.strip() for f in args.formats.split(",") if f.strip()]
    try:
        summary = generate(args.papers, args.out, seed=args.seed, formats=formats)
    except ValueError as exc:
        parser.error(str(exc))
    print(summary.table())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
