"""``kg load`` into a real ``oxigraph serve`` (started here), resumable after failures."""

from __future__ import annotations

import json
import shutil
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import httpx
import pyoxigraph as ox
import pytest
import rdflib
from typer.testing import CliRunner

from kg import push as loading
from kg.build_folder import write_outputs
from kg.cli import app
from kg.errors import KgError
from kg.pipeline import Build
from kg.push import STATE_FILE
from tests.conftest import ROOT, assert_isomorphic

runner = CliRunner()

COUNTS = "SELECT ?p (COUNT(*) AS ?n) WHERE { ?s ?p ?o } GROUP BY ?p ORDER BY ?p"
COAUTHORS = """
SELECT ?name WHERE {
  ?me <http://xmlns.com/foaf/0.1/name> "Thomas Hofmann" ; <https://w3id.org/kg/ns#coauthor> ?c .
  ?c <http://xmlns.com/foaf/0.1/name> ?name .
} ORDER BY ?name
"""


def oxigraph_cli() -> str | None:
    found = shutil.which("oxigraph") or str(Path(sys.executable).with_name("oxigraph"))
    return found if Path(found).exists() else None


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class Oxigraph:
    """An ``oxigraph serve`` process on a free local port, with a throwaway store."""

    def __init__(self, folder: Path) -> None:
        cli = oxigraph_cli()
        if cli is None:
            pytest.skip("the oxigraph CLI (PyPI 'oxigraph') is not installed")
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log = (folder / "oxigraph.log").open("wb")
        self.process = subprocess.Popen(
            [cli, "serve", "--location", str(folder / "db"), "--bind", f"127.0.0.1:{self.port}"],
            stdout=self.log,
            stderr=subprocess.STDOUT,
        )
        deadline = time.monotonic() + 30
        while True:
            if self.process.poll() is not None:
                raise RuntimeError(f"oxigraph serve exited: {(folder / 'oxigraph.log').read_text()}")
            try:
                if httpx.get(f"{self.url}/query?query=ASK%7B%7D", timeout=1).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError("oxigraph serve did not answer within 30 s")
            time.sleep(0.1)

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self.log.close()

    def select(self, query: str) -> list[tuple[str, ...]]:
        response = httpx.get(
            f"{self.url}/query",
            params={"query": query},
            headers={"Accept": "application/sparql-results+json"},
            timeout=30,
        )
        response.raise_for_status()
        data = response.json()
        names = data["head"]["vars"]
        return [tuple(row[n]["value"] for n in names) for row in data["results"]["bindings"]]

    def clear(self) -> None:
        httpx.post(f"{self.url}/update", data={"update": "DROP ALL"}, timeout=30).raise_for_status()

    def default_graph(self) -> rdflib.Graph:
        response = httpx.get(
            f"{self.url}/store?default", headers={"Accept": "application/n-triples"}, timeout=30
        )
        response.raise_for_status()
        return rdflib.Graph().parse(data=response.text, format="nt")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Oxigraph]:
    running = Oxigraph(tmp_path_factory.mktemp("oxigraph"))
    try:
        yield running
    finally:
        running.stop()


@pytest.fixture
def fresh(server: Oxigraph) -> Oxigraph:
    server.clear()
    return server


@pytest.fixture(scope="module")
def built(seed_build: Build, tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("built")
    write_outputs(seed_build, out)
    return out


@pytest.fixture
def out(built: Path, tmp_path: Path) -> Path:
    """A copy of the built folder of its own (each test keeps its own load-state.json)."""
    copy = tmp_path / "out"
    shutil.copytree(built / "store", copy / "store")
    return copy


@pytest.fixture(autouse=True)
def quick_retries(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(loading, "BACKOFF", 0.01)


def embedded(out: Path, query: str) -> list[tuple[str, ...]]:
    store = ox.Store.read_only(str(out / "store"))
    rows = store.query(query)
    assert isinstance(rows, ox.QuerySolutions)
    return [tuple(t.value if t is not None else "" for t in row) for row in rows]


def batches(out: Path, size: int) -> int:
    """How many batches of ``size`` triples the built store makes (the seeds' graph grows with the
    vocabulary, so the counts are computed, not written down)."""
    store = ox.Store.read_only(str(out / "store"))
    return -(-len(store) // size)


def kg_load(out: Path, endpoint: str, *args: str) -> tuple[int, str]:
    result = runner.invoke(app, ["load", "--out", str(out), "--endpoint", endpoint, *args])
    assert "Traceback" not in result.output
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.exit_code, result.output


def test_load_then_query_gives_the_same_rows(fresh: Oxigraph, out: Path, seed_graph: rdflib.Graph) -> None:
    code, output = kg_load(out, f"{fresh.url}/store", "--batch", "3000")
    assert code == 0, output
    n = batches(out, 3000)
    assert f"in {n} batches to the default graph" in output
    assert fresh.select(COUNTS) == embedded(out, COUNTS)
    coauthors = fresh.select(COAUTHORS)
    assert len(coauthors) >= 2 and coauthors == embedded(out, COAUTHORS)
    assert_isomorphic(fresh.default_graph(), seed_graph)
    state = json.loads((out / STATE_FILE).read_text())
    assert (state["done"], state["batches"], state["batch_size"]) == (n, n, 3000)
    assert state["triples"] == len(seed_graph)


def test_load_into_a_named_graph(fresh: Oxigraph, out: Path, seed_graph: rdflib.Graph) -> None:
    graph = "https://example.org/graphs/kg"
    code, output = kg_load(out, f"{fresh.url}/store", "--graph", graph)
    assert code == 0, output
    rows = fresh.select(f"SELECT (COUNT(*) AS ?n) WHERE {{ GRAPH <{graph}> {{ ?s ?p ?o }} }}")
    assert rows == [(str(len(seed_graph)),)]
    assert fresh.select("SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }") == [("0",)]


class QuietServer(ThreadingHTTPServer):
    """Joins its handler threads on close and keeps a client's hang-up off stderr."""

    daemon_threads = False
    block_on_close = True

    def handle_error(self, request: object, client_address: object) -> None:
        pass


class Flaky:
    """A Graph Store endpoint in a thread: forwards POSTs to ``upstream``, or fails as told.

    ``fail_after``: requests beyond this many answer 503 (``None``: never fail).
    ``status``/``delay``: how a failing request fails.
    """

    def __init__(self, upstream: str | None) -> None:
        self.upstream = upstream
        self.fail_after: int | None = None
        self.status = 503
        self.delay = 0.0
        self.accepted: list[bytes] = []
        self.requests = 0
        self.paths: list[str] = []
        flaky = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers["Content-Length"]))
                flaky.requests += 1
                flaky.paths.append(self.path)
                if flaky.fail_after is not None and len(flaky.accepted) >= flaky.fail_after:
                    time.sleep(flaky.delay)
                    self.send_response(flaky.status)
                    self.end_headers()
                    self.wfile.write(b"store unavailable")
                    return
                if flaky.upstream is not None:
                    query = self.path.partition("?")[2]
                    httpx.post(
                        f"{flaky.upstream}?{query}",
                        content=body,
                        headers={"Content-Type": self.headers["Content-Type"]},
                        timeout=30,
                    ).raise_for_status()
                flaky.accepted.append(body)
                self.send_response(204)
                self.end_headers()

            def log_message(self, *args: object) -> None:
                pass

        self.server = QuietServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/store"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def flaky(fresh: Oxigraph) -> Iterator[Flaky]:
    proxy = Flaky(f"{fresh.url}/store")
    try:
        yield proxy
    finally:
        proxy.close()


def test_a_failed_load_resumes_from_the_next_batch(
    fresh: Oxigraph, flaky: Flaky, out: Path, seed_graph: rdflib.Graph
) -> None:
    flaky.fail_after = 2
    code, output = kg_load(out, flaky.url, "--batch", "1000", "--retries", "3")
    assert code == 1
    assert "kg load: error:" in output and "[load-failed]" in output
    n = batches(out, 1000)
    assert f"batch 3 of {n}" in output and "HTTP 503" in output and "resume from batch 3" in output
    assert flaky.requests == 2 + 3  # two accepted, then three attempts at batch 3
    assert json.loads((out / STATE_FILE).read_text())["done"] == 2
    first_run = list(flaky.accepted)

    flaky.fail_after = None
    flaky.requests = 0
    code, output = kg_load(out, flaky.url, "--batch", "1000", "--retries", "3")
    assert code == 0, output
    assert f"{n - 2} batches" in output and "resumed at batch 3" in output
    assert flaky.requests == n - 2  # batches 1 and 2 were not sent again
    assert set(flaky.accepted[2:]).isdisjoint(first_run)
    assert json.loads((out / STATE_FILE).read_text())["done"] == n
    assert_isomorphic(fresh.default_graph(), seed_graph)
    assert fresh.select(COUNTS) == embedded(out, COUNTS)


def test_a_finished_load_is_not_sent_again_unless_asked(fresh: Oxigraph, flaky: Flaky, out: Path) -> None:
    n = batches(out, 5000)
    assert kg_load(out, flaky.url, "--batch", "5000")[0] == 0
    assert flaky.requests == n
    code, output = kg_load(out, flaky.url, "--batch", "5000")
    assert code == 0 and "already loaded" in output
    assert flaky.requests == n
    code, output = kg_load(out, flaky.url, "--batch", "5000", "--no-resume")
    assert code == 0, output
    assert flaky.requests == 2 * n
    assert all("?default" in path for path in flaky.paths)


def test_another_batch_size_starts_over(fresh: Oxigraph, flaky: Flaky, out: Path) -> None:
    flaky.fail_after = 1
    assert kg_load(out, flaky.url, "--batch", "5000", "--retries", "1")[0] == 1
    flaky.fail_after = None
    flaky.requests = 0
    code, output = kg_load(out, flaky.url, "--batch", "4000")
    assert code == 0, output
    assert "starting over" in output and flaky.requests == batches(out, 4000)


def test_a_client_error_is_not_retried(out: Path) -> None:
    proxy = Flaky(None)
    try:
        proxy.fail_after, proxy.status = 0, 415
        code, output = kg_load(out, proxy.url, "--retries", "5")
    finally:
        proxy.close()
    assert code == 1 and proxy.requests == 1
    assert f"refused batch 1 of {batches(out, 10_000)} (HTTP 415: store unavailable)" in output
    assert "[load-failed]" in output


def test_a_timeout_is_retried_then_reported(out: Path) -> None:
    proxy = Flaky(None)
    try:
        proxy.fail_after, proxy.delay = 0, 1.0
        code, output = kg_load(out, proxy.url, "--retries", "2", "--timeout", "0.2")
    finally:
        proxy.close()
    assert code == 1 and proxy.requests == 2
    assert "(timed out)" in output and "[load-failed]" in output


def test_endpoint_down_exits_1_with_a_message(out: Path) -> None:
    endpoint = f"http://127.0.0.1:{free_port()}/store"
    code, output = kg_load(out, endpoint, "--retries", "2")
    assert code == 1
    assert output.startswith("kg load: error: ")
    assert "connection refused" in output and output.rstrip().endswith("[load-failed]")
    assert json.loads((out / STATE_FILE).read_text())["done"] == 0


def test_no_built_graph(tmp_path: Path) -> None:
    code, output = kg_load(tmp_path, "http://127.0.0.1:9/store")
    assert code == 1 and "[no-store]" in output


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--endpoint", "ftp://x/store"], "not an http"),
        (["--endpoint", "http://x/store", "--graph", "not an iri"], "not an absolute IRI"),
        (["--endpoint", "http://x/store", "--batch", "0"], "--batch"),
    ],
)
def test_bad_options_are_usage_errors(args: list[str], message: str) -> None:
    result = runner.invoke(app, ["load", *args])
    assert result.exit_code == 2
    assert message in result.output


def test_help_has_an_example() -> None:
    result = runner.invoke(app, ["load", "--help"])
    assert result.exit_code == 0
    assert "Example: kg load" in result.output


def test_blank_nodes_are_refused(tmp_path: Path) -> None:
    store = ox.Store()
    store.add(ox.Quad(ox.BlankNode(), ox.NamedNode("http://x/p"), ox.Literal("o")))
    with pytest.raises(KgError) as info:
        loading.push(store, "http://127.0.0.1:9/store", tmp_path / STATE_FILE)
    assert info.value.code == "blank-nodes"


def test_readme_documents_scaling_out() -> None:
    readme = (ROOT / "docs" / "guide.md").read_text(encoding="utf-8")  # the README's user guide moved there
    section = readme[readme.index("## Scaling out") :]
    for needle in (
        "kg build --shards",
        "kg load",
        "oxigraph load",
        "tdb2.tdbloader",
        "ld_dir",
        "qlever index",
    ):
        assert needle in section
