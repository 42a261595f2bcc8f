"""The pages in a real headless Chromium (Debian's ``chromium``, driven by Playwright's Python package).

``.ci/run`` installs Chromium; elsewhere these tests are skipped when it is missing
(under ``CI`` they fail instead, so a missing browser cannot pass unnoticed).
Playwright never downloads a browser here: it runs ``/usr/bin/chromium``.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import networkx as nx
import pytest

from kg import drawing, project, viz
from kg.pipeline import Build
from tests.test_project import TEAM, P, small_store

CHROMIUM = os.environ.get("KG_CHROMIUM", "/usr/bin/chromium")
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
HOSTILE = '<script>window.pwned=1</script><img src=x onerror="window.pwned=2">'


@dataclass
class Loaded:
    page: Any
    console: list[str] = field(default_factory=list)
    requests: list[str] = field(default_factory=list)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    if not Path(CHROMIUM).exists():
        if os.environ.get("CI"):
            pytest.fail(f"{CHROMIUM} is missing (.ci/run installs Debian's chromium)")
        pytest.skip(f"{CHROMIUM} is missing (apt-get install chromium)")
    sync_api = pytest.importorskip("playwright.sync_api")
    user = tempfile.mkdtemp(prefix="kg-chromium-")
    with sync_api.sync_playwright() as p:
        context = p.chromium.launch_persistent_context(
            user, executable_path=CHROMIUM, args=ARGS, headless=True, viewport={"width": 1280, "height": 800}
        )
        try:
            yield context
        finally:
            context.close()
    shutil.rmtree(user, ignore_errors=True)


def load(browser: Any, path: Path) -> Loaded:
    """Open a page and wait until vis-network has drawn it."""
    loaded = Loaded(browser.new_page())
    page = loaded.page
    page.on("console", lambda m: loaded.console.append(f"{m.type}: {m.text}"))
    page.on("pageerror", lambda e: loaded.console.append(f"pageerror: {e}"))
    page.on("request", lambda r: loaded.requests.append(r.url))
    page.goto(path.resolve().as_uri())
    page.wait_for_function("window.kgDrawn === true", timeout=30_000)
    return loaded


def drawn(page: Any) -> tuple[int, int]:
    """Nodes and edges vis-network draws (its visible indices, after hiding)."""
    counts = page.evaluate("[network.body.nodeIndices.length, network.body.edgeIndices.length]")
    return counts[0], counts[1]


@pytest.fixture(scope="module")
def seed_page(seed_build: Build, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, nx.Graph]:
    graph = project.view(seed_build.store, "coauthors")
    target = tmp_path_factory.mktemp("pages") / "coauthors.html"
    viz.write(graph, target)
    return target, graph


def test_page_loads_offline_without_errors(browser: Any, seed_page: tuple[Path, nx.Graph]) -> None:
    path, _ = seed_page
    loaded = load(browser, path)
    try:
        assert loaded.console == []
        assert loaded.requests == [path.resolve().as_uri()]  # the page itself, nothing else
    finally:
        loaded.page.close()


def test_drawn_counts_equal_the_view(browser: Any, seed_page: tuple[Path, nx.Graph]) -> None:
    path, graph = seed_page
    loaded = load(browser, path)
    try:
        page = loaded.page
        assert drawn(page) == (graph.number_of_nodes(), graph.number_of_edges())
        assert page.evaluate("nodes.length") == graph.number_of_nodes()  # pyvis's global DataSet
        legend = page.inner_text("#legend")
        assert "communities" in legend and "area grows with papers" in legend
    finally:
        loaded.page.close()


def test_search_focuses_a_node_and_shows_details(browser: Any, seed_page: tuple[Path, nx.Graph]) -> None:
    path, graph = seed_page
    loaded = load(browser, path)
    try:
        page = loaded.page
        target = next(i for i, n in enumerate(graph) if graph.nodes[n]["label"] == "Thomas Hofmann")
        page.fill("#search", "thomas hof")
        page.press("#search", "Enter")
        assert page.evaluate("network.getSelectedNodes()") == [target]
        centre = page.evaluate("network.getViewPosition()")
        where = page.evaluate(f"network.getPosition({target})")
        assert abs(centre["x"] - where["x"]) < 1 and abs(centre["y"] - where["y"]) < 1
        assert page.inner_text("#details h2") == "Thomas Hofmann"
        neighbours = page.locator("#details button.neighbour")
        assert neighbours.count() == graph.degree(list(graph)[target])
        # clicking a neighbour focuses it
        first = neighbours.first.inner_text()
        neighbours.first.click()
        assert page.inner_text("#details h2") == first
        assert loaded.console == []
    finally:
        loaded.page.close()


def test_filters_hide_nodes_and_edges(browser: Any, seed_page: tuple[Path, nx.Graph]) -> None:
    path, graph = seed_page
    loaded = load(browser, path)
    try:
        page = loaded.page
        page.fill("#min-weight", "2")
        page.dispatch_event("#min-weight", "change")
        heavy = [(u, v) for u, v, w in graph.edges(data="weight") if w >= 2]
        # the nodes the filter leaves without links are hidden with them
        assert drawn(page) == (len({n for pair in heavy for n in pair}), len(heavy))
        page.fill("#min-weight", "0")
        page.dispatch_event("#min-weight", "change")
        assert drawn(page) == (graph.number_of_nodes(), graph.number_of_edges())
        page.uncheck("#year-unknown")
        dated = sum(1 for n in graph if graph.nodes[n]["year_min"])
        assert drawn(page)[0] == dated
        page.uncheck("#type-filter input[value=person]")
        assert drawn(page) == (0, 0)
    finally:
        loaded.page.close()


def test_hostile_title_runs_no_script(browser: Any, tmp_path: Path) -> None:
    store = small_store([P("x", HOSTILE, 2024, ["Ann", "Bob"], ["cs.LG"]), *TEAM])
    graph = project.view(store, "papers")
    path = viz.write(graph, tmp_path / "papers.html", title=HOSTILE)
    loaded = load(browser, path)
    try:
        page = loaded.page
        assert page.title() == HOSTILE  # shown as text
        hostile = next(i for i, n in enumerate(graph) if graph.nodes[n]["label"] == HOSTILE)
        page.evaluate(f"kgFocus({hostile})")
        assert page.inner_text("#details h2") == HOSTILE
        assert page.evaluate("window.pwned") is None
        assert page.locator("img").count() == 0
        assert page.locator("script").count() == 3  # the data, vis-network, the page's own
        assert loaded.console == []
        assert len(loaded.requests) == 1
    finally:
        loaded.page.close()


def test_large_graph_is_drawn_without_physics(browser: Any, tmp_path: Path) -> None:
    g = nx.relabel_nodes(nx.gnm_random_graph(800, 2400, seed=1), str)
    for n in g:
        g.nodes[n].update(label=f"node {n}", type="person", papers=1)
    for _, _, d in g.edges(data=True):
        d["weight"] = 1.0
    graph = drawing.decorate(g)
    loaded = load(browser, viz.write(graph, tmp_path / "large.html"))
    try:
        page = loaded.page
        assert page.evaluate("network.physics.options.enabled") is False
        assert drawn(page) == (800, 2400)
        assert loaded.console == []
    finally:
        loaded.page.close()


# --- readable maps (issue 23): labels, the year overlay, the details panel's papers and site links ---


def label_boxes(page: Any) -> list[dict[str, Any]]:
    boxes: list[dict[str, Any]] = page.evaluate("window.kgLabels")
    return boxes


def overlapping(boxes: list[dict[str, Any]]) -> list[tuple[int, int]]:
    found = []
    for i, a in enumerate(boxes):
        ax, ay, aw, ah = a["box"]
        for b in boxes[i + 1 :]:
            bx, by, bw, bh = b["box"]
            if ax < bx + bw and bx < ax + aw and ay < by + bh and by < ay + ah:
                found.append((a["id"], b["id"]))
    return found


def test_a_large_map_shows_names_at_first_sight_without_overlap(browser: Any, tmp_path: Path) -> None:
    # 757 persons, as the coauthor map that showed no name at all until one zoomed
    g = nx.relabel_nodes(nx.gnm_random_graph(757, 1500, seed=2), str)
    for n in g:
        g.nodes[n].update(label=f"Person {n}", type="person", papers=1 + int(n) % 9)
    for _, _, d in g.edges(data=True):
        d["weight"] = 1.0
    graph = drawing.decorate(g)
    loaded = load(browser, viz.write(graph, tmp_path / "people.html"))
    try:
        page = loaded.page
        page.wait_for_timeout(200)
        first = label_boxes(page)
        assert len(first) >= 30
        assert overlapping(first) == []
        # the most important node (most papers, then most links) is always labelled
        order = sorted(range(757), key=lambda i: (-graph.nodes[str(i)]["papers"], -graph.degree(str(i)), i))
        assert first[0]["id"] == order[0]
        labelled = {b["id"] for b in first}
        assert {i for i in order[:5]} <= labelled
        # zooming in spreads the nodes apart: more labels fit in the same area (still none overlapping)
        centre = page.evaluate("network.getViewPosition()")
        scale = page.evaluate("network.getScale()")
        page.evaluate(f"network.moveTo({{position: {centre}, scale: {scale * 4}, animation: false}})")
        page.wait_for_timeout(200)
        zoomed = label_boxes(page)
        assert overlapping(zoomed) == []
        width = page.evaluate("document.getElementById('mynetwork').clientWidth")
        height = page.evaluate("document.getElementById('mynetwork').clientHeight")
        # the middle quarter of the screen at 4x shows what a sixteenth of the map showed before
        def inside(boxes: list[dict[str, Any]], fraction: float) -> int:
            x0, y0 = width * (0.5 - fraction / 2), height * (0.5 - fraction / 2)
            x1, y1 = width * (0.5 + fraction / 2), height * (0.5 + fraction / 2)
            return sum(1 for b in boxes if x0 <= b["box"][0] and b["box"][0] + b["box"][2] <= x1
                       and y0 <= b["box"][1] and b["box"][1] + b["box"][3] <= y1)
        assert len(zoomed) > inside(first, 0.25)
        assert loaded.console == []
    finally:
        loaded.page.close()


def test_year_overlay_colours_nodes_by_mean_year(
    browser: Any, seed_build: Build, tmp_path: Path
) -> None:
    from kg.node_papers import node_papers

    graph = project.view(seed_build.store, "coauthors")
    found = node_papers(seed_build.store, graph)
    loaded = load(browser, viz.write(graph, tmp_path / "coauthors.html", papers=found))
    try:
        page = loaded.page
        ids = {n: i for i, n in enumerate(graph)}
        oldest = min(found.mean_year, key=lambda n: (found.mean_year[n], str(n)))
        newest = max(found.mean_year, key=lambda n: (found.mean_year[n], str(n)))
        assert page.evaluate(f"nodes.get({ids[oldest]}).color") == graph.nodes[oldest]["color"]
        page.check("input[name=colour-by][value=year]")
        assert page.evaluate(f"nodes.get({ids[oldest]}).color") == "#440154"  # viridis' first colour
        assert page.evaluate(f"nodes.get({ids[newest]}).color") == "#fde725"  # and its last
        undated = [n for n in graph if n not in found.mean_year]
        for n in undated[:3]:
            assert page.evaluate(f"nodes.get({ids[n]}).color") == "#c8c8c8"
        assert "mean publication year" in page.inner_text("#legend")
        page.check("input[name=colour-by][value=community]")
        assert page.evaluate(f"nodes.get({ids[newest]}).color") == graph.nodes[newest]["color"]
        assert loaded.console == []
    finally:
        loaded.page.close()


def test_details_list_papers_and_open_the_site_page(
    browser: Any, seed_build: Build, tmp_path: Path
) -> None:
    from kg.node_papers import node_papers
    from kg.site import write as write_site

    graph = project.view(seed_build.store, "coauthors")
    write_site(seed_build.store, tmp_path / "site")
    path = viz.write(graph, tmp_path / "coauthors.html", papers=node_papers(seed_build.store, graph))
    loaded = load(browser, path)
    try:
        page = loaded.page
        target = next(i for i, n in enumerate(graph) if graph.nodes[n]["label"] == "Thomas Hofmann")
        node = list(graph)[target]
        page.evaluate(f"kgFocus({target})")
        items = page.locator("#details ol.papers li")
        assert items.count() == min(graph.nodes[node]["papers"], 50)
        years = [int(t.rsplit(" ", 1)[-1]) for t in items.all_inner_texts() if t.rsplit(" ", 1)[-1].isdigit()]
        assert years == sorted(years, reverse=True)  # newest first
        link = page.locator("#details a.site")
        assert link.count() == 1
        link.click()
        page.wait_for_load_state()
        assert page.url.endswith("/site/person/thomas_hofmann.html")
        assert "Thomas Hofmann" in page.inner_text("h1")
        assert loaded.console == []
        assert all(r.startswith("file://") for r in loaded.requests)
    finally:
        loaded.page.close()
