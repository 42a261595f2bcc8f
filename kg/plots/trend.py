"""Papers per year for chosen methods, subjects or areas (or the most used ones), as counts or shares."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import pyoxigraph as ox

from kg.errors import KgError
from kg.plots import counts
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
    """One concept's line: a value for every year of the figure."""

    concept: counts.Concept
    values: tuple[float, ...]


@dataclass(frozen=True, slots=True)
class Trend:
    """What the trend figure draws: the years, each year's papers, and one series per concept."""

    years: tuple[int, ...]
    totals: tuple[int, ...]
    series: tuple[Series, ...]
    share: bool


def choose(found: dict[str, list[counts.Concept]], options: PlotOptions) -> list[counts.Concept]:
    """The named concepts (in the order named), or the ``top`` of ``options.kind``.

    >>> lora = counts.Concept("https://w3id.org/kg/method/lora", "LoRA", "method", ((2024, 1),))
    >>> [c.label for c in choose({"method": [lora]}, PlotOptions(methods=("lora",)))]
    ['LoRA']
    """
    if not options.named:
        return found.get(options.kind, [])[: options.top]
    chosen: list[counts.Concept] = []
    for kind, names in (("method", options.methods), ("subject", options.subjects), ("area", options.areas)):
        for name in names:
            hits = [c for c in found.get(kind, []) if c.named(name)]
            if not hits:
                hint = "" if kind != "method" or options.generic else " (generic methods need --generic)"
                raise KgError(f"no dated papers with a {kind} named {name!r}{hint}", code="unknown-term")
            chosen.extend(c for c in hits if c not in chosen)
    return chosen


def compute(store: ox.Store, options: PlotOptions) -> Trend:
    """Each chosen concept's papers (or share of papers) in every year the graph has papers."""
    totals = counts.paper_totals(store)
    named = {"method": options.methods, "subject": options.subjects, "area": options.areas}
    kinds = {kind for kind, names in named.items() if names} or {options.kind}
    found = {kind: counts.concepts(store, kind, generic=options.generic) for kind in sorted(kinds)}
    chosen = choose(found, options)
    years = tuple(range(min(totals), max(totals) + 1)) if totals else ()
    series = []
    for concept in chosen:
        values = []
        for year in years:
            n = concept.count(year)
            values.append(n / totals[year] if options.share and totals.get(year) else float(n))
        series.append(Series(concept, tuple(values)))
    return Trend(years, tuple(totals.get(y, 0) for y in years), tuple(series), options.share)


def draw(trend: Trend, options: PlotOptions) -> Figure:
    """A line per concept over the years, markers on every year, legend outside the plot."""
    from matplotlib.ticker import MaxNLocator, PercentFormatter

    from kg.plots.canvas import new_figure

    figure = new_figure(7.5, 4.2)
    ax = figure.add_subplot()
    for i, line in enumerate(trend.series):
        ax.plot(
            trend.years,
            line.values,
            color=COLORS[i % len(COLORS)],
            marker=MARKERS[(i // len(COLORS)) % len(MARKERS)] if len(trend.years) > 1 else "o",
            markersize=4,
            linewidth=1.6,
            label=f"{shorten(line.concept.label, 32)} ({line.concept.total:,})",
            gid=f"series-{i}",
        )
    what = {"method": "methods", "subject": "subjects", "area": "areas"}
    kinds = sorted({what[s.concept.kind] for s in trend.series}) or [what.get(options.kind, "methods")]
    title = options.title or (
        f"Share of each year's papers, by {' and '.join(kinds)}"
        if trend.share
        else f"Papers per year, by {' and '.join(kinds)}"
    )
    ax.set_title(title, loc="left")
    papers = ", ".join(f"{y}: {n:,}" for y, n in zip(trend.years, trend.totals, strict=True))
    ax.set_xlabel(f"publication year (papers: {papers})" if 0 < len(trend.years) <= 8 else "publication year")
    ax.set_ylabel("share of the year's papers" if trend.share else "papers")
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    if trend.share:
        ax.yaxis.set_major_formatter(PercentFormatter(1.0, decimals=None))
    else:
        ax.yaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_ylim(bottom=0)
    if len(trend.years) == 1:
        ax.set_xlim(trend.years[0] - 1, trend.years[0] + 1)
    ax.grid(axis="y", color="#dddddd", linewidth=0.6)
    if trend.series:
        ax.legend(
            loc="upper left",
            bbox_to_anchor=(1.01, 1.0),
            frameon=False,
            fontsize=8,
            title="papers in all years",
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
