"""``kg serve`` follows the builds written into its folder (issue #36): within seconds of a build
swapping its store in, every query worker answers from the new graph, and once one request has the
new answer no later one has the old (not even after a worker is replaced at the time limit)."""

from __future__ import annotations

import concurrent.futures
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

from kg.build_folder import build_into
from kg.errors import IssueLog
from kg.pipeline import BuildOptions
from tests.test_delta import P1, P2, P3, P4, P5, write
from tests.test_server import free_port, stop, wait_until_up

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")

PAPERS = "SELECT (COUNT(?p) AS ?n) WHERE { ?p a <https://schema.org/ScholarlyArticle> }"
SLOW = "SELECT (COUNT(*) AS ?n) WHERE { ?a ?b ?c . ?d ?e ?f . ?g ?h ?i . ?j ?k ?l }"
SWITCH_SECONDS = 30.0
"""What the test allows for the switch on a loaded machine (it takes 1 to 3 s: docs/reliability.md)."""


def papers(url: str) -> int:
    response = httpx.get(url, params={"query": PAPERS, "format": "csv"}, timeout=30, trust_env=False)
    assert response.status_code == 200, response.text
    return int(response.text.splitlines()[1])


def burst(url: str, n: int) -> list[int]:
    """``n`` requests at once, so that every worker answers some."""
    with concurrent.futures.ThreadPoolExecutor(n) as pool:
        return list(pool.map(lambda _: papers(url), range(n)))


def test_serve_answers_from_the_new_build_on_every_worker(tmp_path: Path) -> None:
    inputs, out = tmp_path / "in", tmp_path / "out"
    inputs.mkdir()
    write(inputs / "a.jsonl", [P1, P2, P3])
    build_into([inputs], out, BuildOptions(workers=1), IssueLog())
    port = free_port()
    command = [sys.executable, "-m", "kg", "serve", "--out", str(out), "--port", str(port)]
    command += ["--workers", "2", "--timeout", "1"]
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    url = f"http://127.0.0.1:{port}/sparql"
    try:
        wait_until_up(f"http://127.0.0.1:{port}/", process)
        assert burst(url, 6) == [3] * 6
        write(inputs / "b.jsonl", [P4, P5])
        build_into([inputs], out, BuildOptions(workers=1), IssueLog())
        swapped = time.monotonic()
        # a query cut at the time limit: its worker is replaced by one that opens the new store
        slow = httpx.get(url, params={"query": SLOW}, timeout=30, trust_env=False)
        assert slow.status_code == 503, slow.text
        seen: list[int] = []
        while time.monotonic() - swapped < SWITCH_SECONDS and seen[-1:] != [5]:
            seen.append(papers(url))
            time.sleep(0.05)
        switched = time.monotonic() - swapped
        assert seen[-1] == 5, f"still the old graph {SWITCH_SECONDS} s after the swap: {seen}"
        first_new = seen.index(5)
        assert set(seen[:first_new]) <= {3}, seen
        after = [n for _ in range(4) for n in burst(url, 6)]
        assert after == [5] * len(after), f"old answers after the switch ({switched:.1f} s): {after}"
    finally:
        stop(process)
