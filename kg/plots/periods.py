"""Time at the grain the data has: papers by month, quarter or year, the axis a time figure draws.

A paper's month is read from its dates: ``dcterms:issued`` (its first version), else the month its
arXiv identifier was given in (``2503.12345`` was submitted in March 2025: what daily listings,
which carry no dates, still say), else ``dcterms:modified`` when it falls in the paper's publication
year.  A paper with only a year has no month: month and quarter figures leave it out and say how
many they left out.

The grain is chosen by the span of the data when it is not asked for (:func:`auto_grain`): months for
a graph that spans up to two years, quarters up to six, years beyond.  Every period from the first to
the last is on the axis, so a period without papers is a gap, never a zero; the axis starts and ends
at the periods that hold at least a minimum of papers (three cross-listed papers from earlier years
do not stretch a two-year axis), unless ``--from``/``--to`` say where.

>>> period_key(2025, 3, "month"), period_key(2025, 3, "quarter"), period_key(2025, 3, "year")
(24302, 8100, 2025)
>>> [label(k, "month") for k in span(period_key(2025, 11, "month"), period_key(2026, 2, "month"))]
['2025-11', '2025-12', '2026-01', '2026-02']
>>> label(period_key(2025, 5, "quarter"), "quarter")
'2025-Q2'
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from kg.errors import KgError

GRAINS = ("month", "quarter", "year")
CHOICES = ("auto", *GRAINS)

MONTHS_FOR_MONTHS = 24
"""A graph whose dated papers span at most this many months is drawn by month."""
MONTHS_FOR_QUARTERS = 72
"""... at most this many by quarter; longer spans by year."""

_ARXIV_NEW = re.compile(r"^arxiv:(\d{2})(0[1-9]|1[0-2])\.\d{4,5}")
_ISO_MONTH = re.compile(r"^(\d{4})-(0[1-9]|1[0-2])")
_BOUND = re.compile(r"^(\d{4})(?:-(0[1-9]|1[0-2])|-[Qq]([1-4]))?$")


@dataclass(frozen=True, slots=True)
class PaperDate:
    """What is known of when a paper appeared: its year, and its month when a date or arXiv id says."""

    year: int | None
    month: int | None = None


def paper_date(
    year: str | None, issued: str | None = None, identifiers: Iterable[str] = (), modified: str | None = None
) -> PaperDate:
    """A paper's year and month from the lexical values of its year, dates and identifiers.

    >>> paper_date("2025", None, ["arxiv:2503.14603v1"])
    PaperDate(year=2025, month=3)
    >>> paper_date("2024", "2024-11-30"), paper_date("2025"), paper_date("2025", modified="2024-02-01")
    (PaperDate(year=2024, month=11), PaperDate(year=2025, month=None), PaperDate(year=2025, month=None))
    """
    known = int(year[:4]) if year and year[:4].isdigit() else None
    found = _ISO_MONTH.match(issued or "")
    if found is not None:
        return PaperDate(known or int(found.group(1)), int(found.group(2)))
    for identifier in sorted(identifiers):
        arxiv = _ARXIV_NEW.match(identifier)
        if arxiv is not None and int(arxiv.group(1)) >= 7:  # new-style ids began in April 2007
            given = 2000 + int(arxiv.group(1))
            if known is None or known == given:
                return PaperDate(given, int(arxiv.group(2)))
    found = _ISO_MONTH.match(modified or "")
    if found is not None and known is not None and int(found.group(1)) == known:
        return PaperDate(known, int(found.group(2)))
    return PaperDate(known)


def period_key(year: int, month: int, grain: str) -> int:
    """A period as a number that orders and counts: months and quarters since year 0, or the year."""
    if grain == "month":
        return year * 12 + month - 1
    if grain == "quarter":
        return year * 4 + (month - 1) // 3
    return year


def label(key: int, grain: str) -> str:
    """How a period is written: ``2025-03``, ``2025-Q1``, ``2025``."""
    if grain == "month":
        return f"{key // 12}-{key % 12 + 1:02d}"
    if grain == "quarter":
        return f"{key // 4}-Q{key % 4 + 1}"
    return str(key)


def span(first: int, last: int) -> range:
    """Every period from ``first`` to ``last``, gaps included."""
    return range(first, last + 1)


def key_of(date: PaperDate, grain: str) -> int | None:
    """The period a paper falls in at ``grain``; None when it is not dated finely enough."""
    if date.year is None:
        return None
    if grain == "year":
        return date.year
    return None if date.month is None else period_key(date.year, date.month, grain)


def bound(text: str, grain: str, *, end: bool) -> int:
    """``--from``/``--to`` as a period key: ``2025``, ``2025-03`` or ``2025-Q2``; a year or quarter
    ends at its last month when it is an end.

    >>> label(bound("2025", "month", end=True), "month"), label(bound("2025-Q2", "month", end=False), "month")
    ('2025-12', '2025-04')
    >>> bound("March", "year", end=False)
    Traceback (most recent call last):
    ...
    kg.errors.KgError: error: 'March' is not a period (expected YYYY, YYYY-MM or YYYY-Qn) [bad-option]
    """
    found = _BOUND.match(text.strip())
    if found is None:
        raise KgError(f"{text!r} is not a period (expected YYYY, YYYY-MM or YYYY-Qn)", code="bad-option")
    year = int(found.group(1))
    if found.group(2):
        first = last = int(found.group(2))
    elif found.group(3):
        first = 3 * int(found.group(3)) - 2
        last = first + 2
    else:
        first, last = 1, 12
    return period_key(year, last if end else first, grain)


def auto_grain(dates: Iterable[PaperDate], minimum: int = 10) -> str:
    """The grain the data has: months or quarters when most dated papers have a month and the months
    they span (where they hold ``minimum`` papers a month, see :func:`axis`) are few enough to read,
    else years.

    >>> auto_grain([PaperDate(2025, 3), PaperDate(2026, 6)]), auto_grain([PaperDate(2019, 1), PaperDate(2025, 1)])
    ('month', 'year')
    >>> auto_grain([PaperDate(2025), PaperDate(2025), PaperDate(2026, 1)])
    'year'
    """
    months = Counter(period_key(d.year, d.month, "month") for d in dates if d.year and d.month)
    years = Counter(d.year for d in dates if d.year)
    if not months or 2 * sum(months.values()) < sum(years.values()):
        return "year"
    first, last = _meaningful(months, minimum)
    width = last - first + 1
    return "month" if width <= MONTHS_FOR_MONTHS else "quarter" if width <= MONTHS_FOR_QUARTERS else "year"


def _meaningful(totals: Mapping[int, int], minimum: int) -> tuple[int, int]:
    """The first and last period holding at least ``minimum`` papers (a quarter of the fullest period's
    when that is less: a small graph keeps its small years) and a fiftieth of the fullest period's.

    >>> _meaningful({2021: 1, 2022: 1, 2024: 40, 2025: 1300, 2026: 3000}, 10), _meaningful({2025: 6, 2026: 12}, 10)
    ((2025, 2026), (2025, 2026))
    """
    fullest = max(totals.values())
    floor = max(min(minimum, fullest / 4), fullest / 50)
    held = sorted(k for k, n in totals.items() if n >= floor) or sorted(totals)
    return held[0], held[-1]


@dataclass(frozen=True, slots=True)
class Axis:
    """The periods a time figure draws and what it left out."""

    grain: str
    keys: tuple[int, ...]
    totals: tuple[int, ...]
    """Papers in each period (0 in a gap)."""
    undated: int = 0
    """Papers left out for want of a date at this grain (only a year, for a month or quarter figure)."""
    outside: int = 0
    """Papers dated outside the axis (before or after it)."""

    @property
    def labels(self) -> tuple[str, ...]:
        return tuple(label(k, self.grain) for k in self.keys)

    def note(self) -> str:
        """What the figure says of the papers it does not place, or ``""``."""
        said = []
        if self.undated:
            said.append(f"{self.undated:,} paper{'s' if self.undated != 1 else ''} with only a year left out")
        if self.outside and self.keys:
            papers = "paper" if self.outside == 1 else "papers"
            said.append(f"{self.outside:,} {papers} dated outside {self.labels[0]}–{self.labels[-1]} left out")
        return "; ".join(s for s in said if s)


def axis(
    dates: Iterable[PaperDate], grain: str, *, start: str = "", stop: str = "", minimum: int = 10
) -> Axis:
    """The axis of papers at ``grain``: from ``start`` to ``stop`` when given, else from the first to
    the last period with enough papers (:func:`_meaningful`)."""
    keys: Counter[int] = Counter()
    undated = 0
    for date in dates:
        key = key_of(date, grain)
        if key is None:
            undated += date.year is not None
        else:
            keys[key] += 1
    if not keys:
        return Axis(grain, (), (), undated)
    first, last = _meaningful(keys, minimum)
    if start:
        first = bound(start, grain, end=False)
    if stop:
        last = bound(stop, grain, end=True)
    if first > last:
        raise KgError(f"--from {start or label(first, grain)} is after --to {stop or label(last, grain)}", code="bad-option")
    inside = span(first, last)
    outside = sum(n for k, n in keys.items() if k not in inside)
    return Axis(grain, tuple(inside), tuple(keys.get(k, 0) for k in inside), undated, outside)
