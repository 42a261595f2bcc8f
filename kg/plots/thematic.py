"""Co-word clusters of methods placed by Callon centrality and density in four quadrants (thematic map).

Drawn as bibliometrix draws its thematic map.

Methods are linked by the papers that mention both; a link's strength is Callon's equivalence
index ``e_ij = c_ij^2 / (c_i c_j)`` (``c_ij`` papers with both, ``c_i`` papers with one; Callon,
Courtial and Laville 1991, as in Cobo et al. 2011).  Louvain clusters (seeded) are the themes.  A
theme's *centrality* is the sum of ``e_ij`` over its links to other themes (how much it matters to
the field), its *density* 100 times the sum of ``e_ij`` over its internal links divided by its
number of terms (how developed it is).  As in bibliometrix, themes are placed by the ranks of the
two, split at the mean rank: motor themes (upper right), niche themes (upper left), emerging or
declining themes (lower left) and basic themes (lower right); a bubble's area grows with the
theme's frequency (the papers of its terms).
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass
from itertools import combinations
from typing import TYPE_CHECKING

import networkx as nx
import pyoxigraph as ox

from kg.plots import counts
from kg.plots.options import PlotOptions
from kg.plots.trend import COLORS, shorten

if TYPE_CHECKING:
    from matplotlib.figure import Figure

NAME = "thematic-map"

QUADRANTS = ("motor", "niche", "emerging or declining", "basic")


@dataclass(frozen=True, slots=True)
class Theme:
    """A cluster of methods: its terms (most used first), frequency, Callon centrality and density, the
    ranks of the two (1 = lowest, ties averaged) and its quadrant."""

    terms: tuple[str, ...]
    frequency: int
    centrality: float
    density: float
    rank_centrality: float = 0.0
    rank_density: float = 0.0
    quadrant: str = ""


@dataclass(frozen=True, slots=True)
class ThematicMap:
    """What the thematic map draws: the themes and the mean ranks the quadrants are split at."""

    themes: tuple[Theme, ...]
    mean_centrality: float
    mean_density: float
    terms: int
    """Methods that went into the co-word network (linked to another)."""


def network(
    papers_of: dict[str, set[str]], labels: dict[str, str], *, min_papers: int, terms: int
) -> nx.Graph:
    """The co-word network: the ``terms`` most used methods with at least ``min_papers`` papers, linked
    with the equivalence index of their co-occurrence; nodes without a link are left out.

    >>> g = network({"a": {"1", "2"}, "b": {"1", "2", "3"}, "c": {"9", "8"}}, {}, min_papers=2, terms=10)
    >>> sorted(g.nodes), round(g["a"]["b"]["weight"], 3)
    (['a', 'b'], 0.667)
    """
    ranked = sorted(
        (m for m, p in papers_of.items() if len(p) >= min_papers),
        key=lambda m: (-len(papers_of[m]), (labels.get(m) or m).casefold(), m),
    )[:terms]
    methods_of: dict[str, list[str]] = {}
    for method in sorted(ranked):
        for paper in papers_of[method]:
            methods_of.setdefault(paper, []).append(method)
    together: Counter[tuple[str, str]] = Counter()
    for paper in sorted(methods_of):
        together.update(combinations(methods_of[paper], 2))
    graph = nx.Graph()
    for (a, b), c in sorted(together.items()):
        graph.add_edge(a, b, weight=c * c / (len(papers_of[a]) * len(papers_of[b])), papers=c)
    for node in graph:
        graph.nodes[node]["papers"] = len(papers_of[node])
        graph.nodes[node]["label"] = labels.get(node) or node.rsplit("/", 1)[-1]
    return graph


def ranks(values: list[float]) -> list[float]:
    """Ranks from 1 (lowest), ties given their mean rank (R's ``rank``).

    >>> ranks([0.5, 0.1, 0.5, 2.0])
    [2.5, 1.0, 2.5, 4.0]
    """
    order = sorted(range(len(values)), key=lambda i: values[i])
    out = [0.0] * len(values)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
            j += 1
        for k in range(i, j + 1):
            out[order[k]] = (i + j) / 2 + 1
        i = j + 1
    return out


def quadrant(x: float, y: float, mean_x: float, mean_y: float) -> str:
    """The quadrant of a theme at ranks ``(x, y)``.

    >>> quadrant(3, 3, 2, 2), quadrant(1, 3, 2, 2), quadrant(1, 1, 2, 2), quadrant(3, 1, 2, 2)
    ('motor', 'niche', 'emerging or declining', 'basic')
    """
    if y > mean_y:
        return "motor" if x > mean_x else "niche"
    return "basic" if x > mean_x else "emerging or declining"


def themes(graph: nx.Graph, *, resolution: float = 1.0, seed: int = 0) -> ThematicMap:
    """Louvain clusters of the co-word network with their Callon centrality and density, ranked."""
    if graph.number_of_nodes() == 0:
        return ThematicMap((), 0.0, 0.0, 0)
    found = nx.community.louvain_communities(graph, weight="weight", resolution=resolution, seed=seed)
    cluster = {node: i for i, members in enumerate(sorted(sorted(c) for c in found)) for node in members}
    inside: Counter[int] = Counter()
    outside: Counter[int] = Counter()
    for a, b, e in graph.edges(data="weight"):
        if cluster[a] == cluster[b]:
            inside[cluster[a]] += e
        else:
            outside[cluster[a]] += e
            outside[cluster[b]] += e
    raw: list[Theme] = []
    for members in sorted(sorted(c) for c in found):
        i = cluster[members[0]]
        ordered = sorted(
            members, key=lambda m: (-graph.nodes[m]["papers"], graph.nodes[m]["label"].casefold(), m)
        )
        raw.append(
            Theme(
                terms=tuple(graph.nodes[m]["label"] for m in ordered),
                frequency=sum(graph.nodes[m]["papers"] for m in members),
                centrality=outside[i],
                density=100.0 * inside[i] / len(members),
            )
        )
    rx, ry = ranks([t.centrality for t in raw]), ranks([t.density for t in raw])
    mx, my = sum(rx) / len(rx), sum(ry) / len(ry)
    placed = [
        Theme(t.terms, t.frequency, t.centrality, t.density, x, y, quadrant(x, y, mx, my))
        for t, x, y in zip(raw, rx, ry, strict=True)
    ]
    placed.sort(key=lambda t: (-t.frequency, t.terms))
    return ThematicMap(tuple(placed), mx, my, graph.number_of_nodes())


def compute(store: ox.Store, options: PlotOptions) -> ThematicMap:
    """The thematic map of the methods of the graph in ``store``."""
    papers_of = counts.mentions(store, generic=options.generic)
    labels = {iri: text for iri, (text, _) in counts.labels(store, "method", set(papers_of)).items()}
    graph = network(papers_of, labels, min_papers=options.min_papers, terms=options.terms)
    return themes(graph, resolution=options.resolution, seed=options.seed)


def draw(data: ThematicMap, options: PlotOptions) -> Figure:
    """bibliometrix's strategic diagram: bubbles by rank of centrality and density, dashed mean lines,
    the quadrants named in their corners, each theme labelled with its top terms."""
    from kg.plots.canvas import new_figure
    from kg.plots.labels import place

    figure = new_figure(7.0, 5.8)
    ax = figure.add_subplot()
    ax.set_title(options.title or "Thematic map of methods", loc="left")
    ax.set_xlabel("Relevance degree (centrality rank)")
    ax.set_ylabel("Development degree (density rank)")
    themes = data.themes
    n = len(themes)
    ax.set_xlim(-0.5, n + 1.5)
    ax.set_ylim(-0.5, n + 1.5)
    ax.axvline(data.mean_centrality, color="#555555", linestyle="--", linewidth=0.8)
    ax.axhline(data.mean_density, color="#555555", linestyle="--", linewidth=0.8)
    corner = {
        "motor": (0.99, 0.99, "right", "top"),
        "niche": (0.01, 0.99, "left", "top"),
        "emerging or declining": (0.01, 0.01, "left", "bottom"),
        "basic": (0.99, 0.01, "right", "bottom"),
    }
    names = {
        "motor": "Motor themes",
        "niche": "Niche themes",
        "emerging or declining": "Emerging or\ndeclining themes",
        "basic": "Basic themes",
    }
    quadrant_names = [  # bold and grey, behind the bubbles
        ax.text(
            x,
            y,
            names[key],
            transform=ax.transAxes,
            ha=ha,
            va=va,
            color="#999999",
            fontsize=10,
            fontweight="bold",
            zorder=1,
        )
        for key, (x, y, ha, va) in corner.items()
    ]
    top = max((t.frequency for t in themes), default=1)
    sizes = [60 + 1100 * math.log1p(t.frequency) / math.log1p(top) for t in themes]
    for i, theme in enumerate(themes):
        ax.scatter(
            [theme.rank_centrality],
            [theme.rank_density],
            s=sizes[i],
            color=COLORS[i % len(COLORS)],
            alpha=0.6,
            edgecolors="white",
            linewidths=0.8,
            gid=f"theme-{i}",
            zorder=2,
        )
    if not themes:
        ax.text(0.5, 0.5, "no methods used together", transform=ax.transAxes, ha="center", color="#777777")
    labels = [
        "\n".join(shorten(term, 32) for term in theme.terms[: max(options.theme_terms, 1)])
        for theme in themes
    ]
    engine = figure.get_layout_engine()
    if engine is not None:
        engine.execute(figure)
    renderer = figure.canvas.get_renderer()  # type: ignore[attr-defined]
    place(
        ax,
        [(t.rank_centrality, t.rank_density) for t in themes],
        labels,
        sizes=sizes,
        avoid=[text.get_window_extent(renderer) for text in quadrant_names],
        shorter=[shorten(theme.terms[0], 40) for theme in themes],
        fontsize=7.5,
        limit=len(labels),
    )
    return figure
