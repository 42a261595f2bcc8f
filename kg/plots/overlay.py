"""A coauthor or topic map coloured by the mean publication year of each node, as VOSviewer's overlay view.

The map is the view of :mod:`kg.project` (``coauthors`` or ``topics``: the same nodes, links,
seeded Louvain communities and layout as ``kg viz`` and the GraphML export), kept to its
``max_nodes`` strongest nodes; each node is coloured by the mean year of its papers (persons: the
papers they wrote; methods and subjects: the papers that use them), on a colour bar of years.
Nodes without a dated paper are grey.  The most important nodes (most papers, then most links)
are labelled where their labels do not overlap.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

import networkx as nx
import pyoxigraph as ox

from kg import drawing, project
from kg.errors import KgError
from kg.plots import counts
from kg.plots.options import PlotOptions
from kg.plots.trend import shorten

if TYPE_CHECKING:
    from matplotlib.figure import Figure

NAME = "overlay"

VIEWS = ("coauthors", "topics")
MAX_LINES = 1000
"""Links drawn at most, the strongest (each node's strongest first), as VOSviewer draws 1,000 lines by default:
a topic map of 300 nodes has 10,000 and is a grey cloud."""
UNKNOWN = "#c8c8c8"


@dataclass(frozen=True, slots=True)
class Overlay:
    """What the overlay draws: the decorated view (nodes with ``x``, ``y``, ``size``, ``papers``, ``label``
    and ``mean_year``, 0.0 when unknown), nodes in order of importance."""

    graph: nx.Graph
    view: str
    ranked: tuple[str, ...]


def compute(store: ox.Store, options: PlotOptions) -> Overlay:
    """The view, cut to ``max_nodes``, laid out, with each node's mean publication year."""
    if options.view not in VIEWS:
        raise KgError(f"unknown view {options.view!r}; choose from: {', '.join(VIEWS)}", code="bad-option")
    if options.view == "coauthors":
        graph = project.coauthors(store, max_nodes=options.max_nodes)
    else:
        # the topic view leaves generic methods out unless asked (kg:generic, see project.topics)
        graph = project.topics(store, generic=options.generic)
    graph = drawing.limit(graph, options.max_nodes, max_edges=MAX_LINES)
    drawing.decorate(graph, resolution=options.resolution, seed=options.seed)
    means = counts.mean_years(store, options.view)
    for node, data in graph.nodes(data=True):
        data["mean_year"] = round(means.get(node, 0.0), 3)
    degree = dict(graph.degree(weight="weight"))
    ranked = sorted(graph, key=lambda n: (-graph.nodes[n]["papers"], -degree.get(n, 0.0), str(n)))
    return Overlay(graph, options.view, tuple(str(n) for n in ranked))


def draw(data: Overlay, options: PlotOptions) -> Figure:
    """Links in light grey, nodes sized by papers and coloured by mean year (viridis), a colour bar of years,
    the most important nodes labelled without overlap."""
    from matplotlib.collections import LineCollection
    from matplotlib.colors import Normalize
    from matplotlib.ticker import FormatStrFormatter

    from kg.plots.canvas import new_figure
    from kg.plots.labels import place

    graph = data.graph
    figure = new_figure(7.5, 6.2)
    ax = figure.add_subplot()
    ax.set_aspect("equal", adjustable="box")
    ax.set_axis_off()
    what = "Coauthors" if data.view == "coauthors" else "Methods and subjects"
    ax.set_title(options.title or f"{what}, coloured by mean publication year", loc="left")
    nodes = list(data.ranked)[::-1]  # the most important drawn last, on top
    years = [graph.nodes[n]["mean_year"] for n in graph if graph.nodes[n]["mean_year"]]
    low, high = (min(years), max(years)) if years else (0.0, 1.0)
    if high - low < 1.0:
        low, high = low - 0.5, high + 0.5
    norm = Normalize(vmin=low, vmax=high)
    if graph.number_of_edges():
        segments = [
            ((graph.nodes[a]["x"], graph.nodes[a]["y"]), (graph.nodes[b]["x"], graph.nodes[b]["y"]))
            for a, b in sorted(graph.edges(), key=lambda e: (str(e[0]), str(e[1])))
        ]
        ax.add_collection(LineCollection(segments, colors="#9a9a9a", linewidths=0.4, alpha=0.35, zorder=1))
    sizes = {n: 3.0 + 1.1 * float(graph.nodes[n]["size"]) ** 1.6 for n in graph}
    dated = [n for n in nodes if graph.nodes[n]["mean_year"]]
    undated = [n for n in nodes if not graph.nodes[n]["mean_year"]]
    if undated:
        ax.scatter(
            [graph.nodes[n]["x"] for n in undated],
            [graph.nodes[n]["y"] for n in undated],
            s=[sizes[n] for n in undated],
            color=UNKNOWN,
            edgecolors="white",
            linewidths=0.3,
            zorder=2,
            gid="nodes-undated",
            label="no dated paper",
        )
    points = ax.scatter(
        [graph.nodes[n]["x"] for n in dated],
        [graph.nodes[n]["y"] for n in dated],
        s=[sizes[n] for n in dated],
        c=[graph.nodes[n]["mean_year"] for n in dated],
        cmap="viridis",
        norm=norm,
        edgecolors="white",
        linewidths=0.3,
        zorder=3,
        gid="nodes-dated",
    )
    bar = figure.colorbar(points, ax=ax, shrink=0.6, pad=0.01)
    bar.set_label("mean publication year")
    bar.set_ticks(year_ticks(low, high))
    bar.ax.yaxis.set_major_formatter(FormatStrFormatter("%d"))
    if undated:
        ax.legend(loc="lower left", frameon=False, fontsize=8, markerscale=0.8)
    if graph.number_of_nodes():
        xs = [graph.nodes[n]["x"] for n in graph]
        ys = [graph.nodes[n]["y"] for n in graph]
        pad = 0.06 * max(max(xs) - min(xs), max(ys) - min(ys), 1.0)
        ax.set_xlim(min(xs) - pad, max(xs) + pad)
        ax.set_ylim(min(ys) - pad, max(ys) + pad)
    else:
        ax.text(0.5, 0.5, "nothing to draw", transform=ax.transAxes, ha="center", color="#777777")
    order = list(data.ranked)
    place(
        ax,
        [(graph.nodes[n]["x"], graph.nodes[n]["y"]) for n in order],
        [shorten(str(graph.nodes[n]["label"]), 32) for n in order],
        sizes=[sizes[n] for n in order],
        fontsize=7.0,
        limit=max(options.labels, 0),
    )
    return figure


def year_ticks(low: float, high: float, most: int = 8) -> list[int]:
    """Whole years between ``low`` and ``high`` for the colour bar, at most ``most`` of them.

    >>> year_ticks(2024.5, 2025.5), year_ticks(2000, 2020)
    ([2025], [2000, 2003, 2006, 2009, 2012, 2015, 2018])
    """
    first, last = math.ceil(low), math.floor(high)
    step = max(1, math.ceil((last - first + 1) / most))
    return list(range(first, last + 1, step))
