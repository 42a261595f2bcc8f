"""Same input, same bytes: twice, and in another order, and from another folder."""

from __future__ import annotations

import hashlib
import shutil
from dataclasses import replace
from pathlib import Path

import pyoxigraph as ox
import pytest

from kg.build_folder import commit, write_outputs
from kg.cache import Manifest
from kg.errors import IssueLog
from kg.pipeline import build
from tests.conftest import ROOT, SEEDS

FILES = sorted(SEEDS.iterdir())


def graph_bytes(paths: list[Path], out: Path) -> bytes:
    result = build(paths, log=IssueLog())
    write_outputs(result, out)
    return (out / "graph.ttl").read_bytes()


def test_two_builds_are_byte_identical(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    first = graph_bytes([Path("seeds")], tmp_path / "a")
    second = graph_bytes([Path("seeds")], tmp_path / "b")
    assert first == second


def test_input_order_does_not_matter(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    names = [Path("seeds") / p.name for p in FILES]
    forward = graph_bytes(names, tmp_path / "a")
    backward = graph_bytes(list(reversed(names)), tmp_path / "b")
    assert forward == backward


def test_paper_keys_do_not_depend_on_file_names(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Renaming files (so they sort in another order) changes provenance paths only."""
    for i, p in enumerate(reversed(FILES)):
        shutil.copy(p, tmp_path / f"{i}_{p.name}")
    monkeypatch.chdir(tmp_path)
    renamed = build([Path(".")], log=IssueLog())
    monkeypatch.chdir(ROOT)
    original = build([Path("seeds")], log=IssueLog())
    assert list(renamed.manifest.papers) == list(original.manifest.papers)


def test_rebuild_replaces_outputs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    graph_bytes([Path("seeds/003_8ee604de145902d1.txt")], tmp_path)
    small = (tmp_path / "graph.ttl").stat().st_size
    graph_bytes([Path("seeds")], tmp_path)
    assert (tmp_path / "graph.ttl").stat().st_size > small
    names = {p.name for p in tmp_path.iterdir()}
    assert {"cache", "graph.ttl", "manifest.json", "store"} <= names
    assert not [n for n in names if n.startswith(".")], "temporary files left behind"


def test_large_graph_order_is_deterministic(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Above SORT_LIMIT, a build's graph.ttl is written while its store is loaded, in the order the
    assembler made the triples: still byte-identical, the same graph as the sorted one, no duplicate
    statement, and no stray file left in the store."""
    import rdflib

    from kg.pipeline import BuildOptions
    from kg.store import staging

    monkeypatch.chdir(ROOT)
    monkeypatch.setattr("kg.exporters.turtle.SORT_LIMIT", 10)
    outputs = []
    for name, paths in (("a", [Path("seeds")]), ("b", [Path("seeds") / p.name for p in reversed(FILES)])):
        out = tmp_path / name
        out.mkdir()
        result = build(paths, BuildOptions(store=staging(out)), IssueLog())
        assert result.turtle is not None
        written = result.turtle.stat().st_ino
        write_outputs(result, out)
        outputs.append(out / "graph.ttl")
        # the file written while the store was loaded is renamed into place, not copied, and the
        # generation is its SHA-256, hashed as it was written
        assert outputs[-1].stat().st_ino == written
        assert Manifest.load(out).generation == hashlib.sha256(outputs[-1].read_bytes()).hexdigest()
    assert outputs[0].read_bytes() == outputs[1].read_bytes()
    small = graph_bytes([Path("seeds")], tmp_path / "sorted")
    assert rdflib.Graph().parse(outputs[0]).isomorphic(rdflib.Graph().parse(data=small, format="turtle"))
    streamed = list(ox.parse(path=outputs[0], format=ox.RdfFormat.TURTLE))
    store = ox.Store.read_only(str(tmp_path / "a" / "store"))
    assert len(streamed) == len(set(streamed)) == len(store)
    assert {q.triple for q in store} == {q.triple for q in streamed}  # the store loaded graph.ttl's own text
    # the taxonomies come first, as they were loaded, not in subject order
    assert streamed[0].subject.value.startswith("https://w3id.org/kg/arxiv/")
    assert not (tmp_path / "a" / "store" / "graph.ttl.part").exists()


def test_pages_drawn_apart_are_the_pages_drawn_in_process(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A big build draws its pages side by side in processes of their own (each opening the store
    read-only): the pages, graph.ttl and manifest are byte for byte those of one process, and the
    timings name each page."""
    from kg.pipeline import BuildOptions
    from kg.store import staging

    monkeypatch.chdir(ROOT)
    folders = {}
    for name, limit in (("here", 10**12), ("apart", 1)):
        monkeypatch.setattr("kg.build_pages.PAGES_APART", limit)
        out = tmp_path / name
        out.mkdir()
        result = build([Path("seeds")], BuildOptions(store=staging(out), cache=out), IssueLog())
        _, timings = commit(result, out)  # the committed build's timings: the build's and the outputs'
        result = replace(result, timings={**result.timings, **timings})
        assert {"coauthors.html", "topics.html"} <= set(result.timings)
        folders[name] = out
    for file in ("graph.ttl", "coauthors.html", "topics.html", "manifest.json"):
        assert (folders["here"] / file).read_bytes() == (folders["apart"] / file).read_bytes(), file
    assert sorted(p.name for p in folders["apart"].iterdir()) == sorted(
        p.name for p in folders["here"].iterdir()
    )


def test_pages_apart_report_their_errors_and_leave_nothing(tmp_path: Path) -> None:
    """An error in a page's process reaches the caller whole (message and code); pages staged but not
    taken are discarded on leaving, so no temporary file is left."""
    from kg.build_pages import PagesApart
    from kg.errors import KgError
    from kg.store import on_disk

    out = tmp_path / "out"
    out.mkdir()
    with (
        pytest.raises(KgError) as caught,
        PagesApart(tmp_path / "no-store", out, ["coauthors.html"]) as pages,
    ):
        pages.staged()
    assert caught.value.code == "bad-store" and "no-store" in caught.value.message
    store = on_disk(tmp_path / "store")
    del store  # closed: an empty store, drawn as empty pages
    with PagesApart(tmp_path / "store", out, ["coauthors.html", "topics.html"]):
        pass  # never taken
    assert list(out.iterdir()) == []
    with PagesApart(tmp_path / "store", out, ["topics.html"]) as pages:
        [(page, seconds)] = pages.staged()
    assert page.target == out / "topics.html" and page.temp.exists() and seconds > 0
    with pytest.raises(ValueError), PagesApart(tmp_path / "store", out, ["coauthors.html"]):
        raise ValueError("the build failed meanwhile")  # the page's process is ended, its file removed
    assert [p.name for p in out.iterdir()] == [page.temp.name]


def test_a_page_process_that_crashes_is_a_bug_with_its_traceback() -> None:
    import subprocess
    import sys

    from kg.build_pages import _page_result

    process = subprocess.Popen(
        [sys.executable, "-c", "raise ZeroDivisionError('in the page')"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    error = _page_result("topics.html", process)
    assert isinstance(error, RuntimeError)
    assert "drawing topics.html failed (exit status 1)" in str(error) and "ZeroDivisionError" in str(error)


def test_kg_errors_pickle_whole() -> None:
    import pickle

    from kg.errors import KgError, UsageError
    from kg.records import Location

    for error in (KgError("bad", Location("a.txt", 3), "bad-thing"), UsageError("no", code="bad-option")):
        back = pickle.loads(pickle.dumps(error))
        assert type(back) is type(error) and str(back) == str(error)
        assert (back.message, back.at, back.code) == (error.message, error.at, error.code)


def test_pages_apart_do_not_run_the_callers_script_again(tmp_path: Path) -> None:
    """A script that builds without a ``__main__`` guard (as the README's example does) and draws its
    pages apart runs once: the pages' processes are new interpreters, not multiprocessing's."""
    import subprocess
    import sys

    runs = tmp_path / "runs.txt"
    script = tmp_path / "script.py"
    script.write_text(
        f"""
from pathlib import Path
import kg.build_pages
from kg.pipeline import BuildOptions, build
from kg.build_folder import commit, write_outputs
from kg.store import staging

with open({str(runs)!r}, "a") as f:
    f.write("ran\\n")
kg.build_pages.PAGES_APART = 1
out = Path({str(tmp_path / "out")!r})
out.mkdir()
write_outputs(build([Path({str(SEEDS)!r})], BuildOptions(store=staging(out))), out)
"""
    )
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert runs.read_text() == "ran\n"
    assert (tmp_path / "out" / "coauthors.html").stat().st_size > 1000
    assert (tmp_path / "out" / "topics.html").stat().st_size > 1000
