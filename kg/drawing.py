"""How a view is drawn: cut to what a page can show (:func:`limit`: the strongest nodes, kept linked,
and the strongest links), grouped into Louvain communities, laid out by a seeded force-directed layout,
coloured and sized (:func:`decorate`).  The same graph and seed give the same picture.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Container, Hashable, Iterable, Mapping
from typing import Any, Literal, TypeVar

import networkx as nx
import numpy as np

from kg.errors import KgError

SizeBy = Literal["papers", "degree"]


PALETTE = (
    "#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#edc948", "#b07aa1", "#ff9da7",
    "#9c755f", "#bab0ac", "#003f5c", "#ffa600", "#7a5195", "#00a884", "#a05d56", "#8cd17d",
    "#d4a6c8", "#2f4b7c", "#f1ce63", "#499894",
)  # fmt: skip
"""Community colours, in community order (community 0 is the largest); they repeat after 20."""


DEFAULT_MAX_NODES = 2000


DEFAULT_MAX_EDGES = 20_000
"""The links a drawn view keeps (see :func:`limit`): the strongest persons of a big network share far
more than a page draws in a few seconds (the figures: docs/build-speed.md)."""


SIZE_MIN = 8.0


SIZE_MAX = 40.0


SAMPLE = 200
"""Repulsion is exact up to this many nodes and estimated from a sample of this size beyond."""


def limit(graph: nx.Graph, max_nodes: int = DEFAULT_MAX_NODES, max_edges: int | None = None) -> nx.Graph:
    """The strongest ``max_nodes`` nodes (most papers, then highest weighted degree, keeping links: see
    :func:`strongest`) and, if more links than ``max_edges`` join them, the strongest links (see
    :func:`backbone`), with what was left out.

    The result's ``graph.graph`` records ``nodes_total``, ``edges_total``,
    ``omitted_nodes``, ``omitted_edges`` and ``edges_cut`` (the links left out by ``max_edges``).

    >>> g = nx.path_graph(4); nx.set_node_attributes(g, 1, "papers")
    >>> small = limit(g, 2); sorted(small), small.graph["omitted_nodes"]
    ([1, 2], 2)
    """
    # a view that kept only the strongest nodes itself (see coauthors()) says how many there were
    total_nodes = graph.graph.get("nodes_total", graph.number_of_nodes())
    total_edges = graph.graph.get("edges_total", graph.number_of_edges())
    if graph.number_of_nodes() <= max_nodes:
        kept = graph
    else:
        papers = {n: graph.nodes[n].get("papers", 0) for n in graph}
        adjacency = graph.adj
        chosen = strongest(
            graph, papers, dict(graph.degree(weight="weight")), max_nodes, lambda n: adjacency[n]
        )
        kept = _induced(graph, chosen)
    cut = 0
    if max_edges is not None and kept.number_of_edges() > max_edges:
        links = kept.number_of_edges()
        kept = backbone(kept, max_edges)
        cut = links - kept.number_of_edges()
    kept.graph.update(
        nodes_total=total_nodes,
        edges_total=total_edges,
        omitted_nodes=total_nodes - kept.number_of_nodes(),
        omitted_edges=total_edges - kept.number_of_edges(),
        edges_cut=cut,
    )
    return kept


def backbone(graph: nx.Graph, max_edges: int) -> nx.Graph:
    """A copy of ``graph`` with only its ``max_edges`` strongest links: first each node's
    strongest link, so no node that had a link is left alone, then the heaviest of the rest (ties by
    the nodes' names), as VOSviewer draws a map's strongest lines.  Nodes all stay.

    >>> g = nx.Graph([("a", "b", {"weight": 3}), ("b", "c", {"weight": 1}), ("c", "d", {"weight": 2}),
    ...               ("a", "c", {"weight": 2})])
    >>> sorted(backbone(g, 3).edges(data="weight"))
    [('a', 'b', 3), ('a', 'c', 2), ('c', 'd', 2)]
    """

    def rank(edge: tuple[Hashable, Hashable, float]) -> tuple[float, str, str]:
        u, v, w = edge
        a, b = sorted((str(u), str(v)))
        return (-w, a, b)

    ranked = sorted(graph.edges(data="weight", default=1.0), key=rank)
    keep: dict[frozenset[Hashable], None] = {}
    covered: set[Hashable] = set()
    for u, v, _ in ranked:  # the strongest link of every node, strongest first
        if u not in covered or v not in covered:
            keep[frozenset((u, v))] = None
            covered.update((u, v))
    for u, v, _ in ranked:
        if len(keep) >= max(max_edges, 0):
            break
        keep.setdefault(frozenset((u, v)), None)
    return _induced(graph, set(graph), keep)


_Node = TypeVar("_Node", bound=Hashable)


def strongest(
    nodes: Iterable[_Node],
    papers: Mapping[_Node, float],
    strength: Mapping[_Node, float],
    max_nodes: int,
    neighbours: Callable[[_Node], Iterable[_Node]] | None = None,
) -> set[_Node]:
    """The ``max_nodes`` nodes that :func:`limit` keeps, in order of importance: most papers, then
    highest weighted degree (``strength``), then by name.

    With ``neighbours``, the nodes kept keep links: a node joins when it is linked to one already
    kept, or together with its most important neighbour; nodes without any link fill what room is
    left (so a view of papers cut to 100 nodes is not 100 papers without a link between them).

    >>> sorted(strongest("abc", {"a": 1, "b": 2, "c": 1}, {"a": 0.5, "b": 0, "c": 3}, 2))
    ['b', 'c']
    >>> links = {"a": "b", "b": "a", "c": "", "d": ""}
    >>> sorted(strongest("abcd", dict.fromkeys("abcd", 1), {"c": 2, "d": 2}, 2, lambda n: links[n]))
    ['a', 'b']
    """
    ranked = sorted(nodes, key=lambda n: (-papers[n], -strength.get(n, 0.0), str(n)))
    room = max(0, max_nodes)
    if neighbours is None or len(ranked) <= room:
        return set(ranked[:room])
    rank = {n: i for i, n in enumerate(ranked)}
    chosen: set[_Node] = set()
    for node in ranked:
        if len(chosen) >= room:
            break
        if node in chosen:
            continue
        linked = [m for m in neighbours(node) if m != node and m in rank]
        if any(m in chosen for m in linked):
            chosen.add(node)
        elif linked and len(chosen) + 2 <= room:
            chosen.update((node, min(linked, key=rank.__getitem__)))
    for node in ranked:  # room left: the most important of the rest
        if len(chosen) >= room:
            break
        chosen.add(node)
    return chosen


def _induced(
    graph: nx.Graph, chosen: set[Any], links: Container[frozenset[Hashable]] | None = None
) -> nx.Graph:
    """The subgraph of ``chosen`` (with only ``links``, if given) as a new graph, in the order
    ``graph.subgraph(...).copy()`` gives, but reading only the chosen nodes' adjacency (a subgraph
    view filters every lookup)."""
    kept = nx.Graph()
    kept.graph.update(graph.graph)
    kept.add_nodes_from((n, dict(data)) for n, data in graph.nodes(data=True) if n in chosen)
    adjacency = graph.adj
    kept.add_edges_from(
        (n, neighbour, dict(data))
        for n in kept
        for neighbour, data in adjacency[n].items()
        if neighbour in chosen and (links is None or frozenset((n, neighbour)) in links)
    )
    return kept


def communities(graph: nx.Graph, *, resolution: float = 1.0, seed: int = 0) -> dict[Hashable, int]:
    """Louvain communities numbered by size (largest first), then by smallest node id.

    >>> communities(nx.Graph([(1, 2), (3, 4), (4, 5)]))
    {3: 0, 4: 0, 5: 0, 1: 1, 2: 1}
    """
    if graph.number_of_nodes() == 0:
        return {}
    found = nx.community.louvain_communities(graph, weight="weight", resolution=resolution, seed=seed)
    ordered = sorted((sorted(c, key=_key) for c in found), key=lambda c: (-len(c), _key(c[0])))
    return {n: i for i, members in enumerate(ordered) for n in members}


def _key(node: Hashable) -> tuple[str, str]:
    return (type(node).__name__, str(node))


def layout(
    graph: nx.Graph, *, seed: int = 0, groups: dict[Hashable, int] | None = None, iterations: int = 0
) -> dict[Hashable, tuple[float, float]]:
    """Seeded positions that keep communities apart, deterministic for a graph and seed.

    As VOSviewer's maps keep their clusters apart, the layout has two levels: each community is laid
    out on its own (:func:`_force`, force-directed) in a disc whose area grows with its members, and
    the discs are placed by a force-directed layout of the communities themselves (pulled together by
    the links between them, never overlapping: :func:`_place_discs`), so that a community's colour is
    one region of the map, not dots strewn over a hairball.  Without communities (or with one) the graph
    is laid out as one.  Coordinates are rounded to 0.01 drawing units.

    >>> pos = layout(nx.path_graph(3), seed=1)
    >>> pos == layout(nx.path_graph(3), seed=1), len(pos)
    (True, 3)
    >>> two = nx.Graph([(1, 2), (2, 3), (1, 3), (4, 5), (5, 6), (4, 6), (3, 4)])
    >>> at = layout(two, groups={1: 0, 2: 0, 3: 0, 4: 1, 5: 1, 6: 1})
    >>> max(at[n][0] for n in (1, 2, 3)) < min(at[n][0] for n in (4, 5, 6)) or max(at[n][0] for n in (4, 5, 6)) < min(at[n][0] for n in (1, 2, 3))
    True
    """
    nodes = list(graph)
    n = len(nodes)
    if n == 0:
        return {}
    rng = np.random.default_rng(seed)
    groups = groups or {}
    group = np.array([groups.get(v, 0) for v in nodes])
    count = int(group.max()) + 1
    index = {v: i for i, v in enumerate(nodes)}
    if count == 1:
        pos = _force(n, _edges(graph, index), rng, iterations)
    else:
        pos = np.zeros((n, 2))
        members = [np.flatnonzero(group == c) for c in range(count)]
        radius = np.array([math.sqrt(len(m)) for m in members])
        for c, inside in enumerate(members):
            local = {int(i): j for j, i in enumerate(inside)}
            edges = [(local[a], local[b], w) for a, b, w in _edges(graph, index) if a in local and b in local]
            disc = _force(len(inside), edges, rng, iterations) if len(inside) > 1 else np.zeros((1, 2))
            reach = float(np.sqrt((disc * disc).sum(axis=1)).max()) or 1.0
            pos[inside] = disc / reach * radius[c]
        between: dict[tuple[int, int], float] = {}
        for a, b, w in _edges(graph, index):
            ca, cb = int(group[a]), int(group[b])
            if ca != cb:
                key = (min(ca, cb), max(ca, cb))
                between[key] = between.get(key, 0.0) + w
        centres = _place_discs(radius, between, rng)
        pos += centres[group]
    pos -= pos.mean(axis=0)
    extent = float(np.abs(pos).max()) or 1.0
    scale = 150.0 + 45.0 * math.sqrt(n)
    pos = pos / extent * scale
    return {v: (round(float(pos[i, 0]), 2), round(float(pos[i, 1]), 2)) for i, v in enumerate(nodes)}


def _edges(graph: nx.Graph, index: Mapping[Hashable, int]) -> list[tuple[int, int, float]]:
    return [(index[u], index[v], float(w)) for u, v, w in graph.edges(data="weight", default=1.0)]


def _force(
    n: int, edges: list[tuple[int, int, float]], rng: np.random.Generator, iterations: int = 0
) -> np.ndarray:
    """Force-directed positions (Fruchterman-Reingold) of ``n`` nodes and weighted ``edges``.

    Repulsion is exact up to ``SAMPLE`` nodes and estimated from a seeded sample of ``SAMPLE`` nodes
    beyond that, so a 5,000-node graph is laid out in seconds (networkx's own layouts need scipy or are
    quadratic); a weak pull to the middle keeps separate components in view.  ``iterations`` defaults to
    100 (60 above 1,000 nodes).
    """
    iterations = iterations or (100 if n <= 1000 else 60)
    pos = rng.normal(size=(n, 2)) * 0.5
    src = np.array([e[0] for e in edges], dtype=np.int64)
    dst = np.array([e[1] for e in edges], dtype=np.int64)
    weight = np.array([e[2] for e in edges], dtype=np.float32)
    if len(weight):
        weight = np.clip(weight / weight.mean(), 0.2, 5.0)
    k = 1.0 / math.sqrt(n)
    sample = min(n, SAMPLE)
    # hubs push harder, as ForceAtlas2's mass (degree + 1) does, so the well-linked nodes at the centre
    # of a topic map spread apart instead of piling up (the square root keeps a star from exploding)
    degrees = np.bincount(np.concatenate([src, dst]), minlength=n) if len(src) else np.zeros(n)
    mass = np.sqrt(degrees + 1.0).astype(np.float32)
    mass /= float(mass.mean())
    x, y = pos[:, 0].astype(np.float32), pos[:, 1].astype(np.float32)
    for step in range(iterations):
        others = np.arange(n) if sample == n else rng.choice(n, sample, replace=False)
        dx = x[:, None] - x[others][None, :]
        dy = y[:, None] - y[others][None, :]
        push = (k * k * n / sample) * mass[others][None, :] / np.maximum(dx * dx + dy * dy, 1e-6)
        fx = (dx * push).sum(axis=1) * mass
        fy = (dy * push).sum(axis=1) * mass
        if len(src):
            ex, ey = x[src] - x[dst], y[src] - y[dst]
            pull = np.sqrt(ex * ex + ey * ey) * weight / k
            fx -= np.bincount(src, ex * pull, minlength=n) - np.bincount(dst, ex * pull, minlength=n)
            fy -= np.bincount(src, ey * pull, minlength=n) - np.bincount(dst, ey * pull, minlength=n)
        gravity = 2.0 * k * math.sqrt(n)  # keeps components and lone nodes in view
        fx -= x * gravity
        fy -= y * gravity
        length = np.maximum(np.sqrt(fx * fx + fy * fy), 1e-9)
        step_length = np.minimum(length, 0.1 * (1 - step / iterations)) / length
        x += fx * step_length
        y += fy * step_length
    pos = np.column_stack([x, y]).astype(np.float64)
    centred: np.ndarray = pos - pos.mean(axis=0)
    return centred


GAP = 2.0
"""Space kept between two communities' discs, in units of a one-member disc's radius."""


def _place_discs(
    radius: np.ndarray, between: Mapping[tuple[int, int], float], rng: np.random.Generator, steps: int = 300
) -> np.ndarray:
    """Centres for discs of the given radii: linked discs pulled together by the weight of the links
    between them, all pulled gently to the middle, and pushed apart until none overlaps.  Discs start on
    a sunflower spiral, the largest in the middle."""
    count = len(radius)
    order = np.argsort(-radius, kind="stable")
    golden = math.pi * (3 - math.sqrt(5))
    total = math.sqrt(float((radius * radius).sum()))
    centres = np.zeros((count, 2))
    for rank, c in enumerate(order):
        r = 1.6 * total * math.sqrt((rank + 0.5) / count)
        centres[c] = (r * math.cos(rank * golden), r * math.sin(rank * golden))
    centres += rng.normal(size=(count, 2)) * 0.01
    linked = sorted(between)
    pairs = np.array(linked, dtype=np.int64).reshape(-1, 2)
    strength = np.array([between[pair] for pair in linked], dtype=np.float64)
    if len(strength):
        strength = np.clip(strength / strength.mean(), 0.2, 5.0)
    weight_of = np.zeros(count)
    if len(pairs):
        np.add.at(weight_of, pairs[:, 0], strength)
        np.add.at(weight_of, pairs[:, 1], strength)
    reach = radius[:, None] + radius[None, :] + GAP
    for step in range(steps):
        cool = 1.0 - step / steps
        move = np.zeros_like(centres)
        if len(pairs):
            # each disc moves a step towards the weighted mean of the discs it is linked to (never past it)
            d = centres[pairs[:, 0]] - centres[pairs[:, 1]]
            pull = strength[:, None] * d
            np.add.at(move, pairs[:, 0], -pull)
            np.add.at(move, pairs[:, 1], pull)
            move *= (0.3 * cool / (weight_of + 1.0))[:, None]
        move -= 0.01 * cool * centres  # the middle pulls gently: unlinked communities stay near
        centres += move
        for _ in range(3):  # overlaps resolved, larger discs moving less
            d = centres[:, None, :] - centres[None, :, :]
            dist = np.sqrt((d * d).sum(axis=2))
            np.fill_diagonal(dist, np.inf)
            overlap = np.clip(reach - dist, 0.0, None)
            if not overlap.any():
                break
            share = radius[None, :] / (radius[:, None] + radius[None, :])
            push = (overlap * share / np.maximum(dist, 1e-9))[:, :, None] * d
            push[~np.isfinite(push)] = 0.0
            centres += 0.5 * push.sum(axis=1)
    return centres


def decorate(
    graph: nx.Graph, *, resolution: float = 1.0, seed: int = 0, size_by: SizeBy = "papers"
) -> nx.Graph:
    """Add ``community``, ``color``, ``size``, ``x`` and ``y`` to every node (in place; returns the graph).

    The same graph and seed give the same communities, colours and positions.

    >>> g = decorate(nx.Graph([(1, 2)]), seed=3)
    >>> sorted(g.nodes[1]) == ["color", "community", "papers", "size", "x", "y"]
    True
    """
    if size_by not in ("papers", "degree"):
        raise KgError(f"unknown size {size_by!r}; choose from: papers, degree", code="bad-option")
    groups = communities(graph, resolution=resolution, seed=seed)
    positions = layout(graph, seed=seed, groups=groups)
    values = {
        n: float(graph.degree(n) if size_by == "degree" else graph.nodes[n].setdefault("papers", 0))
        for n in graph
    }
    top = max(values.values(), default=0.0) or 1.0
    for n, data in graph.nodes(data=True):
        data.setdefault("papers", 0)
        data["community"] = groups[n]
        data["color"] = PALETTE[groups[n] % len(PALETTE)]
        data["size"] = round(SIZE_MIN + (SIZE_MAX - SIZE_MIN) * math.sqrt(values[n] / top), 2)
        data["x"], data["y"] = positions[n]
    graph.graph.update(
        resolution=resolution, seed=seed, size_by=size_by, communities=len(set(groups.values()))
    )
    return graph
