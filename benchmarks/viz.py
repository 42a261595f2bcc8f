"""Benchmark of ``kg viz`` pages: a synthetic coauthor graph, written and drawn in headless Chromium.

Generates a seeded 5,000-person / 20,000-link coauthor graph directly in
networkx (with the attributes ``kg.project`` gives), decorates it (Louvain
communities and the seeded layout), writes the page and opens it in Debian's
Chromium through Playwright until vis-network has drawn it.  Prints a table.

With ``--screenshot FILE`` it also builds the seeds and saves a picture of
their coauthor view (``docs/coauthors.png``).

Usage::

    python benchmarks/viz.py [--nodes 5000] [--edges 20000] [--seed 0] [--runs 3]
        [--out /tmp/kg-viz-bench] [--screenshot docs/coauthors.png]
"""

from __future__ import annotations

import argparse
import random
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import networkx as nx

from kg import drawing, project, viz

CHROMIUM = "/usr/bin/chromium"
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
SYLLABLES = [
    "ka",
    "lo",
    "mi",
    "ra",
    "shi",
    "tan",
    "vel",
    "or",
    "an",
    "el",
    "is",
    "um",
    "zo",
    "pe",
    "qui",
    "ber",
    "nor",
    "lin",
]


def synthetic_coauthors(nodes: int, edges: int, seed: int = 0) -> nx.Graph:
    """A clustered, heavy-tailed coauthor graph with exactly ``nodes`` persons and ``edges`` links."""
    rng = random.Random(seed)
    base = nx.powerlaw_cluster_graph(nodes, max(1, edges // nodes), 0.3, seed=seed)
    graph = nx.Graph(view="coauthors", counting="full", max_authors=25)
    for n in range(nodes):
        name = " ".join(
            "".join(rng.choice(SYLLABLES) for _ in range(rng.randint(2, 3))).capitalize() for _ in range(2)
        )
        papers = max(1, int(rng.paretovariate(1.6)))
        first = rng.randint(2005, 2024)
        graph.add_node(
            f"https://w3id.org/kg/id/person/p{n}",
            label=name,
            type="person",
            iri=f"https://w3id.org/kg/id/person/p{n}",
            url="",
            papers=papers,
            year_min=first,
            year_max=min(2026, first + rng.randint(0, 10)),
        )
    ids = list(graph)
    pairs = {tuple(sorted((ids[u], ids[v]))) for u, v in base.edges}
    while len(pairs) < edges:
        u, v = rng.sample(ids, 2)
        pairs.add(tuple(sorted((u, v))))
    for u, v in sorted(pairs)[:edges]:
        graph.add_edge(u, v, weight=float(min(20, int(rng.expovariate(0.8)) + 1)))
    return graph


@contextmanager
def chromium() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    user = tempfile.mkdtemp(prefix="kg-bench-chromium-")
    try:
        with sync_playwright() as p:
            context = p.chromium.launch_persistent_context(
                user,
                executable_path=CHROMIUM,
                args=ARGS,
                headless=True,
                viewport={"width": 1400, "height": 900},
            )
            try:
                yield context
            finally:
                context.close()
    finally:
        shutil.rmtree(user, ignore_errors=True)


def draw(context: Any, path: Path) -> tuple[float, float, int, int]:
    """Open a page; wall seconds until drawn, the page's own ms since navigation, nodes and edges drawn."""
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    started = time.perf_counter()
    page.goto(path.resolve().as_uri())
    page.wait_for_function("window.kgDrawn === true", timeout=120_000, polling=20)
    wall = time.perf_counter() - started
    own = float(page.evaluate("window.kgDrawnMs"))
    nodes, edges = page.evaluate("[network.body.nodeIndices.length, network.body.edgeIndices.length]")
    page.close()
    if errors:
        raise SystemExit(f"page errors: {errors[:3]}")
    return wall, own / 1000, nodes, edges


def screenshot(target: Path) -> None:
    """Build the seeds and save a picture of their coauthor view with one person selected."""
    from kg.errors import IssueLog
    from kg.pipeline import BuildOptions, build

    result = build([Path("seeds")], BuildOptions(), IssueLog())
    graph = project.view(result.store, "coauthors")
    with tempfile.TemporaryDirectory() as folder, chromium() as context:
        page_path = viz.write(
            graph, Path(folder) / "coauthors.html", title="kg · coauthors of the seed pages"
        )
        page = context.new_page()
        page.goto(page_path.resolve().as_uri())
        page.wait_for_function("window.kgDrawn === true", timeout=60_000)
        page.fill("#search", "Thomas Hofmann")
        page.press("#search", "Enter")
        page.evaluate("network.fit({animation: false})")
        page.wait_for_timeout(300)
        target.parent.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(target))
        page.close()
    print(f"wrote {target}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--nodes", type=int, default=5000)
    parser.add_argument("--edges", type=int, default=20000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--runs", type=int, default=3, help="page loads to time (the median is shown)")
    parser.add_argument("--out", type=Path, default=Path(tempfile.gettempdir()) / "kg-viz-bench")
    parser.add_argument("--screenshot", type=Path, help="also save a picture of the seeds' coauthor view")
    args = parser.parse_args(argv)

    rows: list[tuple[str, str]] = []
    started = time.perf_counter()
    graph = synthetic_coauthors(args.nodes, args.edges, args.seed)
    rows.append(("generate graph", f"{time.perf_counter() - started:.2f} s"))
    rows.append(("nodes / edges", f"{graph.number_of_nodes():,} / {graph.number_of_edges():,}"))

    started = time.perf_counter()
    groups = drawing.communities(graph, seed=args.seed)
    rows.append(
        ("Louvain communities", f"{time.perf_counter() - started:.2f} s ({len(set(groups.values()))})")
    )
    started = time.perf_counter()
    drawing.layout(graph, seed=args.seed, groups=groups)
    rows.append(("layout (seeded)", f"{time.perf_counter() - started:.2f} s"))
    started = time.perf_counter()
    drawing.decorate(graph, seed=args.seed)
    rows.append(("decorate (both)", f"{time.perf_counter() - started:.2f} s"))

    target = args.out / "coauthors-5k.html"
    times = []
    for _ in range(3):
        started = time.perf_counter()
        viz.write(graph, target)
        times.append(time.perf_counter() - started)
    rows.append(("write HTML", f"{statistics.median(times):.2f} s (median of 3)"))
    size = target.stat().st_size
    rows.append(("file size", f"{size / 1e6:.2f} MB ({size:,} bytes)"))

    walls, owns = [], []
    with chromium() as context:
        for _ in range(args.runs):
            wall, own, nodes, edges = draw(context, target)
            walls.append(wall)
            owns.append(own)
    rows.append(("drawn in Chromium (wall)", f"{statistics.median(walls):.2f} s (median of {args.runs})"))
    rows.append(("drawn (page clock)", f"{statistics.median(owns):.2f} s (navigation start to first draw)"))
    rows.append(("drawn nodes / edges", f"{nodes:,} / {edges:,}"))

    width = max(len(name) for name, _ in rows)
    print(f"{'measure':<{width}}  value")
    for name, value in rows:
        print(f"{name:<{width}}  {value}")
    if args.screenshot:
        screenshot(args.screenshot)
    return 0


if __name__ == "__main__":
    sys.exit(main())
