"""The last hostile inputs of issue #36, each ending with a message: a byte that is not UTF-8 early in
a page, blank space or free text before the records, file names with control characters or bytes
that are not UTF-8, side files that are FIFOs, devices or too big, queries nested past what the
engine parses, an export aimed at the build's own graph.ttl, and thousands of empty files."""

from __future__ import annotations

import asyncio
import gzip
import hashlib
import json
import os
import re
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from typer.testing import CliRunner

import kg.readers.thesaurus
from kg import store as stores
from kg.build_folder import build_into
from kg.cache import Manifest
from kg.cli import app
from kg.errors import IssueLog
from kg.pipeline import BuildOptions, build
from kg.sparql import MAX_NESTING, MAX_PARTS, MAX_QUERY_CHARS
from tests.conftest import ROOT
from tests.test_delta import P1, P2, paper
from tests.test_server import free_port, stop, wait_until_up

runner = CliRunner()
ISSUE = re.compile(r"^(?P<path>.+?):(?P<line>\d+): (?P<severity>warning|error): .* \[(?P<code>[a-z0-9-]+)\]$")

ABSTRACT = "We study a model of things and report careful results on several benchmarks in detail. " * 12


def daily(n: int) -> list[str]:
    return ["Daily Papers", ""] + [f"Abstract {i}: {ABSTRACT}" for i in range(n)]


def built(paths: list[Path]) -> tuple[int, IssueLog]:
    log = IssueLog()
    result = build(paths, BuildOptions(workers=1, extractors=("authors", "subjects"), taxonomies=False), log)
    return result.summary()["records"], log


def run_kg(*argv: str, cwd: Path = ROOT, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    """The kg command in a process of its own (a hang fails at ``timeout``; a crash shows in the code)."""
    return subprocess.run(
        [sys.executable, "-m", "kg", *argv], cwd=cwd, capture_output=True, text=True, timeout=timeout, check=False
    )


# --- bytes that are not UTF-8, and what comes before the first record ----------------------------------


@pytest.mark.parametrize("where", [3, 300], ids=["in-the-first-64k", "300k-in"])
def test_a_bad_byte_costs_a_warning_wherever_it_is(tmp_path: Path, where: int) -> None:
    lines = daily(330)
    page = tmp_path / "page.txt"
    data = "\n".join(lines).encode()
    line_start = data.index(f"Abstract {where - 3}:".encode())
    page.write_bytes(data[:line_start] + b"Caf\xe9 " + data[line_start:])
    assert (line_start < 64 * 1024) == (where == 3)
    records, log = built([page])
    assert records == 330
    assert [(i.at.line, i.severity, i.code) for i in log.issues] == [(where, "warning", "bad-utf8")]


@pytest.mark.parametrize("compressed", [False, True], ids=["plain", "gzip"])
def test_blank_space_before_json_lines_is_read_past(tmp_path: Path, compressed: bool) -> None:
    blank = "\n" * 60_000 + " \t\r\n" * 5_000  # 80 KB: more than the 64 KB format detection looks at
    first = {**paper(1, ["Ann Lee"], "A first paper about things"), "title": 7}  # a bad field: warned at its line
    rows = [first] + [paper(i, ["Ann Lee"], f"Paper number {i} about things") for i in range(2, 101)]
    text = blank + "".join(json.dumps(r) + "\n" for r in rows)
    path = tmp_path / ("papers.jsonl.gz" if compressed else "papers.jsonl")
    path.write_bytes(gzip.compress(text.encode()) if compressed else text.encode())
    records, log = built([path])
    assert records == 100
    assert [(i.code, i.at.line) for i in log.issues] == [("bad-field", 65_001), ("missing-title", 65_001)]


def test_only_blank_space_is_still_empty(tmp_path: Path) -> None:
    path = tmp_path / "blank.txt"
    path.write_bytes(b"\n \t" * 100_000)
    records, log = built([path])
    assert records == 0
    assert [(i.code, i.severity) for i in log.issues] == [("empty-file", "error")]


def _entry(key: str, title: str, author: str = "Lovelace, Ada") -> str:
    return f"@article{{{key},\n  title = {{{title}}},\n  author = {{{author}}},\n  year = {{2024}}\n}}\n\n"


def test_bibtex_after_free_text_and_comments(tmp_path: Path) -> None:
    preamble = (
        "Exported from the lab's reading list on 2024-05-01 (50 entries).\n"
        "Questions: ask Ada at the front desk.\n\n"
        "% Zotero export, edited by hand\n\n"
    )
    entries = [_entry("first", "The first entry", author="")] + [_entry(f"e{i}", f"Entry {i}") for i in range(49)]
    path = tmp_path / "refs.txt"
    path.write_text(preamble + "".join(entries), encoding="utf-8")
    records, log = built([path])
    assert records == 50
    assert [(i.code, i.at.line) for i in log.issues] == [("empty-authors", 6)]


def test_a_page_quoting_bibtex_is_still_a_page(tmp_path: Path) -> None:
    path = tmp_path / "daily.txt"
    path.write_text("Daily Papers\n\n@article{x2020,\n  title = {quoted in an abstract}\n\nAn abstract.\n")
    records, log = built([path])
    assert records == 3 and not log.issues  # the daily feed's three lines, each an abstract


# --- file names ---------------------------------------------------------------------------------------


def test_file_names_are_escaped_in_every_message(tmp_path: Path) -> None:
    page = (ROOT / "seeds" / "000_c075b9e3b81b6c13.txt").read_bytes()
    inputs = tmp_path / "in"
    inputs.mkdir()
    forged = "evil\nx.txt:1: error: forged [fake]\n.txt"
    named = {
        os.fsencode(inputs / forged): page + b"\n\n",
        os.fsencode(inputs) + b"/bad\xff\x1b[31mname.txt": page + b"\n",
        os.fsencode(inputs / "empty\tname.txt"): b"",
    }
    for name, data in named.items():
        with open(name, "wb") as f:
            f.write(data)
    out = tmp_path / "out"
    for attempt in ("first", "cached"):
        done = run_kg("build", "in", "--out", "out", "-j", "1", cwd=tmp_path)
        assert done.returncode == 1, done.stderr  # the empty file is an error
        assert "Traceback" not in done.stderr
        lines = done.stderr.splitlines()
        assert not any(line.startswith((".txt", "x.txt:1: error: forged")) for line in lines), attempt
        assert not any("\x1b" in line for line in lines)
        issues = [m for line in lines if (m := ISSUE.match(line))]
        paths = {m["path"] for m in issues}
        assert paths == {EVIL, r"in/bad\xff\x1b[31mname.txt", r"in/empty\tname.txt"}, paths
    assert set(Manifest.load(out).files) == {EVIL, r"in/bad\xff\x1b[31mname.txt", r"in/empty\tname.txt"}
    assert EVIL.replace("\\", "\\\\") in (out / "graph.ttl").read_text()  # the provenance, as a Turtle literal


EVIL = r"in/evil\nx.txt:1:\x20error:\x20forged [fake]\n.txt"
"""The name ``evil<LF>x.txt:1: error: forged [fake]<LF>.txt`` as kg shows it: one line, whose first
``: `` ends the location."""


def test_backslashes_in_names_keep_names_apart(tmp_path: Path) -> None:
    """A name holding a backslash is shown with it doubled, so no name can pass for an escaped one."""
    page = (ROOT / "seeds" / "000_c075b9e3b81b6c13.txt").read_bytes()
    for name, extra in ((b"a\\x41.txt", b"\n"), (b"a\xff.txt", b"\n\n")):
        with open(os.fsencode(tmp_path) + b"/" + name, "wb") as f:
            f.write(page + extra)
    records, log = built([tmp_path])
    assert records == 36
    assert {i.at.path.rsplit("/", 1)[1] for i in log.issues} == {r"a\\x41.txt", r"a\xff.txt"}


# --- side files ---------------------------------------------------------------------------------------


@pytest.fixture
def fifo(tmp_path: Path) -> Iterator[Path]:
    path = tmp_path / "side.rq"
    os.mkfifo(path)
    yield path


def test_a_thesaurus_that_is_no_regular_file_is_refused(tmp_path: Path, fifo: Path) -> None:
    for side in (fifo, Path("/dev/zero")):
        done = run_kg("build", "seeds", "--out", str(tmp_path / "out"), "-q", "--thesaurus", str(side), timeout=180)
        assert done.returncode == 1
        assert f"{side}:0: error: the thesaurus is a FIFO, device or socket, not a regular file" in done.stderr
        assert done.stderr.rstrip().endswith("[not-a-file]"), done.stderr


def test_a_thesaurus_over_the_limit_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(kg.readers.thesaurus, "MAX_BYTES", 100)
    big = tmp_path / "thesaurus.txt"
    big.write_text("label\treplace by\n" + "DNN\tdeep neural network\n" * 10, encoding="utf-8")
    log = IssueLog()
    thesaurus = kg.readers.thesaurus.read(big, log, "thesaurus.txt")
    assert thesaurus.entries == ()
    assert [str(i) for i in log.issues] == [
        "thesaurus.txt:0: error: the thesaurus has 257 bytes (expected at most 100) [file-too-large]"
    ]


def test_a_query_file_that_is_no_regular_file_is_refused(seed_outputs: Path, fifo: Path) -> None:
    done = run_kg("query", str(fifo), "--out", str(seed_outputs), timeout=120)
    assert done.returncode == 1
    assert "query file is a FIFO, device or socket, not a regular file" in done.stderr
    assert "[not-a-file]" in done.stderr


# --- queries nested past what the engine parses --------------------------------------------------------

NESTED = "SELECT * WHERE { ?s ?p ?o " + "OPTIONAL { ?s ?p ?o " * 4_700 + "}" * 4_700 + "}"
"""The issue's query: 4,700 nested OPTIONALs, under the length cap, crashed Oxigraph's parser."""
CHAINED = "SELECT * WHERE { ?s ?p ?o " + "MINUS { ?s ?p 1 } " * 3_000 + "}"
"""A flat chain the engine turns into a tree as deep: 3,000 MINUS crashed it too."""


def test_deep_queries_are_refused_before_the_engine(seed_outputs: Path) -> None:
    assert len(NESTED) < MAX_QUERY_CHARS and len(CHAINED) < MAX_QUERY_CHARS
    for text, what in ((NESTED, f"65 deep (expected at most {MAX_NESTING})"), (CHAINED, f"at most {MAX_PARTS}")):
        done = run_kg("query", text, "--out", str(seed_outputs))
        assert done.returncode == 1, (done.returncode, done.stderr[-500:])  # not -11: no crash
        assert "[query-too-complex]" in done.stderr and what in done.stderr


def test_deep_queries_are_refused_by_the_endpoint(seed_outputs: Path) -> None:
    port = free_port()
    command = [sys.executable, "-m", "kg", "serve", "--out", str(seed_outputs), "--port", str(port)]
    process = subprocess.Popen([*command, "--workers", "1"], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        wait_until_up(f"http://127.0.0.1:{port}/", process)
        url = f"http://127.0.0.1:{port}/sparql"
        for text in (NESTED, CHAINED):
            response = httpx.post(
                url, content=text, headers={"Content-Type": "application/sparql-query"}, timeout=60, trust_env=False
            )
            assert response.status_code == 400, response.text
            assert "[query-too-complex]" in response.text
        response = httpx.get(url, params={"query": "ASK { ?s ?p ?o }"}, timeout=60, trust_env=False)
        assert response.status_code == 200  # and the worker still answers
    finally:
        stop(process)


def test_a_crashed_query_worker_says_why(seed_outputs: Path) -> None:
    from kg.query_workers import QueryError, QueryPool

    slow = "SELECT (COUNT(*) AS ?n) WHERE { ?a ?b ?c . ?d ?e ?f . ?g ?h ?i . ?j ?k ?l }"

    async def crash() -> str:
        pool = QueryPool(seed_outputs / stores.STORE_DIR, 1, 60.0)
        await pool.start()
        try:
            [worker] = pool._all
            asyncio.get_running_loop().call_later(1.0, os.kill, worker.process.pid or 0, signal.SIGSEGV)
            with pytest.raises(QueryError) as failed:
                await pool.run(slow, "json", "turtle", 10)
            return failed.value.message
        finally:
            await pool.close()

    message = asyncio.run(crash())
    assert message == "query worker failed: the query engine crashed on this query (SIGSEGV); other queries are not affected"


# --- an export aimed at the build's own files, and empty files ----------------------------------------


def test_an_export_over_the_build_graph_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    inputs, out = tmp_path / "in", tmp_path / "out"
    inputs.mkdir()
    (inputs / "a.jsonl").write_text(json.dumps(P1) + "\n" + json.dumps(P2) + "\n", encoding="utf-8")
    build_into([inputs], out, BuildOptions(workers=1), IssueLog())
    before = (out / "graph.ttl").read_bytes()
    monkeypatch.chdir(tmp_path)
    for target in ("out/graph.ttl", "out/manifest.json", "out/store"):
        result = runner.invoke(app, ["export", "turtle", "--out", "out", "--output", target])
        assert result.exit_code == 2, result.output
        assert "[build-owned]" in result.output and "out/export/" in result.output
    assert (out / "graph.ttl").read_bytes() == before
    generation = Manifest.load(out).generation
    assert hashlib.sha256(before).hexdigest() == generation == stores.generation(out)
    result = runner.invoke(app, ["export", "turtle", "--out", "out"])  # beside it
    assert result.exit_code == 0 and (out / "export" / "graph.ttl").exists()


def test_empty_files_are_each_reported_as_empty(tmp_path: Path) -> None:
    for i in range(2_000):
        (tmp_path / f"e{i:04d}.txt").write_bytes(b"")
    (tmp_path / "good.jsonl").write_text(json.dumps(P1) + "\n", encoding="utf-8")
    records, log = built([tmp_path])
    assert records == 1
    assert log.counts() == {"empty-file": 2_000}
