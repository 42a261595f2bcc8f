"""``kg viz --endpoint``: views computed from a SPARQL endpoint equal the views of the embedded store."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import httpx
import networkx as nx
import pytest
from typer.testing import CliRunner

from kg import project
from kg.cli import app
from kg.pipeline import Build
from kg.store import open_store
from tests.test_load import Oxigraph
from tests.test_viz import page_json

runner = CliRunner()


@pytest.fixture(scope="module")
def endpoint(seed_outputs: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """An ``oxigraph serve`` holding the seed graph (loaded from graph.ttl); its query URL."""
    running = Oxigraph(tmp_path_factory.mktemp("oxigraph-viz"))
    try:
        response = httpx.post(
            f"{running.url}/store?default",
            content=(seed_outputs / "graph.ttl").read_bytes(),
            headers={"Content-Type": "text/turtle"},
            timeout=60,
        )
        response.raise_for_status()
        yield f"{running.url}/query"
    finally:
        running.stop()


def same(a: nx.Graph, b: nx.Graph) -> None:
    assert sorted(a.nodes(data=True)) == sorted(b.nodes(data=True))
    edges = sorted((min(u, v), max(u, v), sorted(d.items())) for u, v, d in a.edges(data=True))
    assert edges == sorted((min(u, v), max(u, v), sorted(d.items())) for u, v, d in b.edges(data=True))
    assert a.graph == b.graph


@pytest.mark.parametrize("name", ["coauthors", "topics", "papers"])
def test_views_from_an_endpoint_equal_the_local_ones(
    name: str, endpoint: str, seed_outputs: Path, seed_build: Build
) -> None:
    local = project.view(open_store(seed_outputs), name)
    remote = project.view(project.Endpoint(endpoint), name)
    assert local.number_of_nodes() > 20
    same(remote, local)


def test_ego_view_from_an_endpoint(endpoint: str, seed_outputs: Path) -> None:
    options = project.ViewOptions(focus="Thomas Hofmann", depth=1)
    local = project.view(open_store(seed_outputs), "ego", options)
    remote = project.view(project.Endpoint(endpoint), "ego", options)
    assert local.number_of_nodes() > 10
    same(remote, local)


def test_cli_draws_the_same_page_from_an_endpoint(endpoint: str, seed_outputs: Path, tmp_path: Path) -> None:
    local, remote = tmp_path / "local.html", tmp_path / "remote.html"
    for args in (
        ["--out", str(seed_outputs), "--output", str(local)],
        ["--endpoint", endpoint, "--output", str(remote)],
    ):
        result = runner.invoke(app, ["viz", "coauthors", *args])
        assert result.exit_code == 0, result.output
        assert "Traceback" not in result.output
    assert page_json(remote.read_text()) == page_json(local.read_text())
    assert remote.read_bytes() == local.read_bytes()


def test_unreachable_endpoint_is_a_clear_error(tmp_path: Path) -> None:
    from tests.test_load import free_port

    url = f"http://127.0.0.1:{free_port()}/query"
    result = runner.invoke(app, ["viz", "--endpoint", url, "--output", str(tmp_path / "x.html")])
    assert result.exit_code == 1
    assert "cannot reach endpoint" in result.output and "[endpoint-unreachable]" in result.output
    assert "Traceback" not in result.output
    assert not (tmp_path / "x.html").exists()


def test_a_capped_answer_from_kg_serve_is_refused(seed_outputs: Path, tmp_path: Path) -> None:
    """``kg serve --max-rows 50`` cuts the view's queries: the view is refused, not drawn in part."""
    import subprocess
    import sys

    from tests.test_server import free_port, stop, wait_until_up

    port = free_port()
    command = [sys.executable, "-m", "kg", "serve", "--out", str(seed_outputs), "--port", str(port)]
    process = subprocess.Popen(
        [*command, "--max-rows", "50", "--workers", "1"], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
    )
    try:
        wait_until_up(f"http://127.0.0.1:{port}/", process)
        target = tmp_path / "cut.html"
        url = f"http://127.0.0.1:{port}/sparql"
        result = runner.invoke(app, ["viz", "coauthors", "--endpoint", url, "--output", str(target)])
        assert result.exit_code == 1, result.output
        assert "[endpoint-truncated]" in result.output and "Traceback" not in result.output
        assert not target.exists()
        # without the cap, the page from kg serve is the page from the store
        stop(process)
        port = free_port()
        command = [sys.executable, "-m", "kg", "serve", "--out", str(seed_outputs), "--port", str(port)]
        process = subprocess.Popen(
            [*command, "--workers", "1"], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
        )
        wait_until_up(f"http://127.0.0.1:{port}/", process)
        url = f"http://127.0.0.1:{port}/sparql"
        result = runner.invoke(app, ["viz", "coauthors", "--endpoint", url, "--output", str(target)])
        assert result.exit_code == 0, result.output
        local = tmp_path / "local.html"
        assert (
            runner.invoke(
                app, ["viz", "coauthors", "--out", str(seed_outputs), "--output", str(local)]
            ).exit_code
            == 0
        )
        assert target.read_bytes() == local.read_bytes()
    finally:
        stop(process)
