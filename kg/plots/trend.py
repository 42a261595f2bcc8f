"""Papers per month, quarter or year for chosen methods, subjects or areas (or the most used ones), as
counts or shares; the grain and the axis are the data's (``kg.plots.periods``) unless asked for."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

import pyoxigraph as ox

from kg.errors import KgError
from kg.plots import counts, periods
from kg.plots.options import PlotOptions

if TYPE_CHECKING:
    from matplotlib.figure import Figure

NAME = "trend"

COLORS = (
    "#1f77b4",
    "#d62728",
    "#2ca02c",
    "#ff7f0e",
    "#9467bd",
    "#8c564b",
    "#e377c2",
    "#17becf",
    "#7f7f7f",
    "#bcbd22",
)
MARKERS = ("o", "s", "^", "D", "v", "P", "X", "*", "h", "<")


@dataclass(frozen=True, slots=True)
class Series:
    """One concept's line: a value for every period of the figure (NaN where there is none to draw)."""

    concept: counts.Concept
    values: tuple[float, ...]
    total: int = 0
    """Its papers on the axis."""


@dataclass(frozen=True, slots=True)
class Trend:
    """What the trend figure draws: the periods, each period's papers, and one series per concept."""

    periods: tuple[str, ...]
    totals: tuple[int, ...]
    series: tuple[Series, ...]
    share: bool
    grain: str = "year"
    note: str = ""
    """What the figure leaves out (papers with only a year, papers outside the axis)."""


def named(options: PlotOptions) -> dict[str, tuple[str, ...]]:
    """The concepts named, by kind, in the order the options give the kinds."""
    return {
        "method": options.methods,
        "subject": options.subjects,
        "area": options.areas,
        "task": options.tasks,
        "dataset": options.datasets,
    }


def choose(found: dict[str, list[counts.Concept]], options: PlotOptions) -> list[counts.Concept]:
    """The named concepts (in the order named), or the ``top`` of ``options.kind``.

    >>> lora = counts.Concept("https://w3id.org/kg/method/lora", "LoRA", "method", ((2024, 1),))
    >>> [c.label for c in choose({"method": [lora]}, PlotOptions(methods=("lora",)))]
    ['LoRA']
    """
    if not options.named:
        return found.get(options.kind, [])[: options.top]
    chosen: list[counts.Concept] = []
    for kind, names in named(options).items():
        for name in names:
            hits = [c for c in found.get(kind, []) if c.named(name)]
            if not hits:
                hint = "" if kind not in counts.GENERIC_KINDS or options.generic else f" (generic {kind}s need --generic)"
                raise KgError(f"no dated papers with a {kind} named {name!r}{hint}", code="unknown-term")
            chosen.extend(c for c in hits if c not in chosen)
    return chosen


def timeline(store: ox.Store, options: PlotOptions) -> tuple[dict[str, periods.PaperDate], periods.Axis]:
    """The papers' dates and the axis of the figure: the grain asked for (or the data's), the periods
    from ``--from`` to ``--to`` (or where the data means something)."""
    if options.grain not in periods.CHOICES:
        raise KgError(
            f"unknown grain {options.grain!r}; choose from: {', '.join(periods.CHOICES)}", code="bad-option"
        )
    dates = counts.paper_dates(store)
    grain = periods.auto_grain(dates.values(), options.min_period) if options.grain == "auto" else options.grain
    line = periods.axis(
        dates.values(), grain, start=options.start, stop=options.stop, minimum=options.min_period
    )
    return dates, line


def per_period(papers: set[str], dates: dict[str, periods.PaperDate], line: periods.Axis) -> list[int]:
    """How many of ``papers`` fall in each period of the axis."""
    at = {key: i for i, key in enumerate(line.keys)}
    found = [0] * len(line.keys)
    for paper in papers:
        date = dates.get(paper)
        key = periods.key_of(date, line.grain) if date is not None else None
        if key in at:
            found[at[key]] += 1
    return found


def compute(store: ox.Store, options: PlotOptions) -> Trend:
    """Each chosen concept's papers (or share of papers) in every period of the axis; a period without
    papers (or, for a share, with fewer than ``min_period``) is a gap."""
    kinds = sorted({kind for kind, names in named(options).items() if names} or {options.kind})
    found = {kind: counts.concepts(store, kind, generic=options.generic) for kind in kinds}
    dates, line = timeline(store, options)
    papers = {kind: counts.members(store, kind, generic=options.generic) for kind in kinds}
    drawn = {
        c.iri: per_period(papers[kind].get(c.iri, set()), dates, line) for kind in kinds for c in found[kind]
    }
    if not options.named:  # the top ones on the axis drawn, not in all years
        found = {
            kind: sorted(cs, key=lambda c: (-sum(drawn[c.iri]), c.label.casefold(), c.iri))
            for kind, cs in found.items()
        }
    series = []
    for concept in choose(found, options):
        hits = drawn[concept.iri]
        values = []
        for n, total in zip(hits, line.totals, strict=True):
            if not total or (options.share and total < options.min_period):
                values.append(math.nan)
            else:
                values.append(n / total if options.share else float(n))
        series.append(Series(concept, tuple(values), sum(hits)))
    return Trend(line.labels, line.totals, tuple(series), options.share, line.grain, line.note())


GRAIN_WORDS = {"month": "month", "quarter": "quarter", "year": "year"}


def draw(trend: Trend, options: PlotOptions) -> Figure:
    """A line per concept over the periods (broken where a period has nothing to draw), legend outside."""
    from matplotlib.ticker import MaxNLocator, PercentFormatter

    from kg.plots.canvas import new_figure

    figure = new_figure(7.5, 4.2)
    ax = figure.add_subplot()
    x = list(range(len(trend.periods)))
    for i, line in enumerate(trend.series):
        ax.plot(
            x,
            line.values,
            color=COLORS[i % len(COLORS)],
            marker=MARKERS[(i // len(COLORS)) % len(MARKERS)] if len(x) > 1 else "o",
            markersize=4 if len(x) <= 40 else 2,
            linewidth=1.6,
            label=f"{shorten(line.concept.label, 32)} ({line.total:,})",
            gid=f"series-{i}",
        )
    what = {kind: f"{kind}s" for kind in counts.KINDS}
    kinds = sorted({what[s.concept.kind] for s in trend.series}) or [what.get(options.kind, "methods")]
    grain = GRAIN_WORDS.get(trend.grain, "year")
    title = options.title or (
        f"Share of each {grain}'s papers, by {' and '.join(kinds)}"
        if trend.share
        else f"Papers per {grain}, by {' and '.join(kinds)}"
    )
    ax.set_title(title, loc="left")
    if 0 < len(trend.periods) <= 8:
        shown = ", ".join(f"{p}: {n:,}" for p, n in zip(trend.periods, trend.totals, strict=True))
        xlabel = f"publication {grain} (papers: {shown})"
    else:
        xlabel = f"publication {grain}"
    ax.set_xlabel(xlabel + (f"\n{trend.note}" if trend.note else ""))
    ax.set_ylabel(f"share of the {grain}'s papers" if trend.share else "papers")
    step = max(1, -(-len(x) // 12))
    ax.set_xticks(x[::step], [trend.periods[i] for i in x[::step]], rotation=45 if grain != "year" else 0,
                  ha="right" if grain != "year" else "center")
    if trend.share:
        ax.yaxis.set_major_formatter(PercentFormatter(1.0, decimals=None))
    else:
        ax.yaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_ylim(bottom=0)
    if len(x) == 1:
        ax.set_xlim(-1, 1)
    ax.grid(axis="y", color="#dddddd", linewidth=0.6)
    if trend.series:
        ax.legend(
            loc="upper left",
            bbox_to_anchor=(1.01, 1.0),
            frameon=False,
            fontsize=8,
            title=f"papers, {trend.periods[0]}–{trend.periods[-1]}" if trend.periods else "papers",
            title_fontsize=8,
        )
    else:
        ax.text(0.5, 0.5, "no dated papers", transform=ax.transAxes, ha="center", color="#777777")
    return figure


def shorten(text: str, limit: int = 40) -> str:
    """Text cut to ``limit`` characters with an ellipsis.

    >>> shorten("a very long method name indeed", 10)
    'a very lo…'
    """
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"
