"""The methods (or subjects) with the strongest bursts of attention, by Kleinberg's burst detection.

Drawn as CiteSpace draws it: one row per term, the years as a bar, red where the term bursts.

A term's burst is a run of years in which a larger share of the year's papers use it than usual
(Kleinberg, "Bursty and hierarchical structure in streams", KDD 2002, section 4: batched
arrivals; the detection CiteSpace runs on keywords and references).  Year *t* has ``d_t`` papers,
``r_t`` of which use the term; a two-state automaton emits them, its base state with the term's
overall share ``p0 = sum(r) / sum(d)``, its burst state with ``p1 = s * p0``.  Emitting a year in
state *i* costs ``-ln(p_i^r_t (1 - p_i)^(d_t - r_t))`` (the binomial coefficient is the same in
both states, so it changes neither the states chosen nor the strengths), entering the burst state
costs ``gamma * ln(n)`` for *n* years, leaving it nothing; the cheapest state sequence (Viterbi)
gives the bursts, and a burst's strength is what its years cost less in the burst state.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import pyoxigraph as ox

from kg.plots import counts
from kg.plots.options import PlotOptions
from kg.plots.trend import per_period, shorten, timeline

if TYPE_CHECKING:
    from matplotlib.figure import Figure
    from matplotlib.patches import Rectangle

NAME = "bursts"

RED = "#d7191c"
BLUE = "#2c4f9e"
PALE = "#c9d6ec"


@dataclass(frozen=True, slots=True)
class Burst:
    """A run of periods in the burst state: first and last (inclusive, indices into the figure's
    periods) and strength."""

    begin: int
    end: int
    strength: float


@dataclass(frozen=True, slots=True)
class Row:
    """A term of the figure: its first period with papers (an index) and its bursts, strongest first."""

    concept: counts.Concept
    first: int
    bursts: tuple[Burst, ...]

    @property
    def strongest(self) -> Burst:
        return self.bursts[0]


@dataclass(frozen=True, slots=True)
class Bursts:
    """What the bursts figure draws: the periods and one row per term (in order of their strongest burst)."""

    periods: tuple[str, ...]
    rows: tuple[Row, ...]
    kind: str
    grain: str = "year"
    note: str = ""
    totals: tuple[int, ...] = ()
    """Papers in each period."""


def _cost(p: float, r: int, d: int) -> float:
    """``-ln(p^r (1-p)^(d-r))``, with ``0 * ln 0`` taken as 0."""
    cost = 0.0
    if r:
        cost -= r * math.log(p)
    if d - r:
        cost -= (d - r) * math.log1p(-p)
    return cost


def kleinberg(
    hits: Sequence[int], totals: Sequence[int], *, s: float = 2.0, gamma: float = 1.0
) -> list[tuple[int, int, float]]:
    """Bursts of a term found in ``hits[t]`` of ``totals[t]`` papers: (first index, last index, strength).

    >>> kleinberg([1, 1, 6, 1], [10, 10, 10, 10])
    [(2, 2, 2.787...)]
    >>> kleinberg([2, 2, 2], [10, 10, 10])
    []
    """
    n = len(totals)
    if n != len(hits):
        raise ValueError("hits and totals differ in length")
    if any(r < 0 or r > d for r, d in zip(hits, totals, strict=True)):
        raise ValueError("each year's hits must be between 0 and its total")
    relevant, papers = sum(hits), sum(totals)
    if n == 0 or relevant == 0 or relevant == papers:
        return []  # never used, or used by every paper: no year can stand out
    p0 = relevant / papers
    p1 = min(s * p0, 1.0 - 1e-9)
    enter = gamma * math.log(n) if n > 1 else gamma * math.log(2)
    base = [_cost(p0, r, d) for r, d in zip(hits, totals, strict=True)]
    burst = [_cost(p1, r, d) for r, d in zip(hits, totals, strict=True)]
    # Viterbi over two states, starting in the base state; ties keep the base state
    cost = [base[0], enter + burst[0]]
    back: list[tuple[int, int]] = [(0, 0)]
    for t in range(1, n):
        to_base = 0 if cost[0] <= cost[1] else 1
        to_burst = 1 if cost[1] < cost[0] + enter else 0
        back.append((to_base, to_burst))
        cost = [cost[to_base] + base[t], (cost[1] if to_burst else cost[0] + enter) + burst[t]]
    state = 0 if cost[0] <= cost[1] else 1
    states = [0] * n
    for t in range(n - 1, -1, -1):
        states[t] = state
        state = back[t][state]
    found: list[tuple[int, int, float]] = []
    t = 0
    while t < n:
        if states[t]:
            start = t
            while t + 1 < n and states[t + 1]:
                t += 1
            found.append((start, t, sum(base[i] - burst[i] for i in range(start, t + 1))))
        t += 1
    return found


def compute(store: ox.Store, options: PlotOptions) -> Bursts:
    """Each term's bursts over the periods of the axis; the ``top`` terms by their strongest burst.

    Only periods with at least ``min_period`` papers take part: in a sparse period one paper is a
    large share, and a term would burst on it.
    """
    dates, line = timeline(store, options)
    papers_of = counts.members(store, options.kind, generic=options.generic)
    used = [i for i, n in enumerate(line.totals) if n >= options.min_period]
    totals = [line.totals[i] for i in used]
    rows: list[Row] = []
    for concept in counts.concepts(store, options.kind, generic=options.generic):
        all_hits = per_period(papers_of.get(concept.iri, set()), dates, line)
        hits = [min(all_hits[i], d) for i, d in zip(used, totals, strict=True)]
        found = [
            Burst(used[a], used[b], strength)
            for a, b, strength in kleinberg(hits, totals, s=options.ratio, gamma=options.gamma)
            if b - a + 1 >= options.min_duration
        ]
        if found:
            found.sort(key=lambda b: (-b.strength, b.begin))
            first = next(i for i, n in enumerate(all_hits) if n)
            rows.append(Row(concept, first, tuple(found)))
    rows.sort(key=lambda r: (-r.strongest.strength, r.concept.label.casefold(), r.concept.iri))
    top = rows[: options.top]
    # drawn as CiteSpace lists them: by the period the burst begins
    top.sort(key=lambda r: (r.strongest.begin, -r.strongest.strength, r.concept.label.casefold()))
    return Bursts(line.labels, tuple(top), options.kind, line.grain, line.note(), line.totals)


def draw(data: Bursts, options: PlotOptions) -> Figure:
    """CiteSpace's table: term, first year, strength, begin, end, and a bar of the years, red where it bursts."""
    from kg.plots.canvas import new_figure

    rows = data.rows
    height = 1.3 + 0.28 * max(len(rows), 1)
    wide = data.grain != "year"  # "2025-03" is wider than "2025": the columns need the room
    figure = new_figure(11.0 if wide else 9.0, height)
    ax = figure.add_subplot()
    ax.set_axis_off()
    what = {kind: f"{kind}s" for kind in counts.KINDS}.get(data.kind, "terms")
    if not rows:
        title = options.title or f"No bursts of {what}"
    elif len(rows) == 1:
        title = options.title or f"The {what.removesuffix('s')} with a burst"
    else:
        title = options.title or f"Top {len(rows)} {what} with the strongest bursts"
    ax.set_title(title, loc="left")
    # columns in axes units: the text columns, then the periods' bar
    col_term, col_year, col_strength, col_begin, col_end = (
        (0.0, 0.40, 0.47, 0.545, 0.62) if wide else (0.0, 0.43, 0.52, 0.58, 0.64)
    )
    bar_left, bar_right = (0.64, 1.0) if wide else (0.67, 1.0)
    n = max(len(rows), 1)
    ax.set_xlim(0, 1)
    ax.set_ylim(n + 0.2, -1.2)
    header = {
        col_term: ("Terms", "left"),
        col_year: ("First" if wide else "Year", "right"),
        col_strength: ("Strength", "right"),
        col_begin: ("Begin", "right"),
        col_end: ("End", "right"),
    }
    for x, (text, align) in header.items():
        ax.text(x, -0.6, text, ha=align, va="center", fontweight="bold")
    if data.periods:
        span = f"{data.periods[0]} - {data.periods[-1]}"
        ax.text((bar_left + bar_right) / 2, -0.6, span, ha="center", va="center", fontweight="bold")
    ax.plot([0, 1], [-0.15, -0.15], color="#444444", linewidth=0.8)
    width = (bar_right - bar_left) / max(len(data.periods), 1)
    for i, row in enumerate(rows):
        burst = row.strongest
        ax.text(col_term, i + 0.5, shorten(row.concept.label, 48), ha="left", va="center")
        ax.text(col_year, i + 0.5, data.periods[row.first], ha="right", va="center")
        ax.text(col_strength, i + 0.5, f"{burst.strength:.2f}", ha="right", va="center")
        ax.text(col_begin, i + 0.5, data.periods[burst.begin], ha="right", va="center")
        ax.text(col_end, i + 0.5, data.periods[burst.end], ha="right", va="center")
        hot = {j for b in row.bursts for j in range(b.begin, b.end + 1)}
        for j, period in enumerate(data.periods):
            if data.totals and data.totals[j] < options.min_period:
                continue  # no papers enough to tell: a gap in the bar
            color, thick = (RED, 0.5) if j in hot else (BLUE, 0.22) if j >= row.first else (PALE, 0.22)
            ax.add_patch(
                _cell(bar_left + j * width, i + 0.5 - thick / 2, width, thick, color, f"cell-{i}-{period}")
            )
    if not rows:
        ax.text(0.5, 0.5, "no bursts found", ha="center", va="center", color="#777777")
    if data.note:
        ax.text(0.0, n + 0.1, data.note, ha="left", va="top", color="#555555", fontsize=8)
    return figure


def _cell(x: float, y: float, width: float, height: float, color: str, gid: str) -> Rectangle:
    from matplotlib.patches import Rectangle

    return Rectangle((x, y), width, height, facecolor=color, edgecolor="white", linewidth=0.3, gid=gid)
