"""A build on several worker processes is the same as a sequential one."""

from __future__ import annotations

import gc
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from kg import pipeline
from kg.errors import IssueLog
from kg.pipeline import BuildOptions, build
from kg.records import Location
from kg.resolve import Author, Paper, Resolution
from tests.conftest import ROOT, SEEDS, assert_isomorphic, to_rdflib


def test_workers_give_the_same_graph_and_issues(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    bad = tmp_path / "bad.txt"
    bad.write_text("论文检索\n\nDeep Learning · Everything Else\n\nAda Lovelace\n", encoding="utf-8")
    inputs = [Path("seeds"), bad]
    sequential_log, parallel_log = IssueLog(), IssueLog()
    sequential = build(inputs, BuildOptions(workers=1), sequential_log)
    parallel = build(inputs, BuildOptions(workers=2), parallel_log)
    assert [str(i) for i in parallel_log.issues] == [str(i) for i in sequential_log.issues]
    assert parallel.summary() == sequential.summary()
    assert_isomorphic(to_rdflib(parallel), to_rdflib(sequential))


@pytest.mark.skipif((os.cpu_count() or 1) < 2, reason="needs two cores")
def test_small_batches_keep_record_order(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    monkeypatch.setattr("kg.executors.BATCH", 7)
    sequential = build([Path("seeds")], BuildOptions(workers=1), IssueLog())
    parallel = build([Path("seeds")], BuildOptions(workers=2), IssueLog())
    assert list(parallel.manifest.papers.items()) == list(sequential.manifest.papers.items())
    assert_isomorphic(to_rdflib(parallel), to_rdflib(sequential))


def test_dask_cluster_gives_the_same_graph(monkeypatch: pytest.MonkeyPatch) -> None:
    """Extraction on a Dask LocalCluster with two workers: isomorphic with the sequential build."""
    distributed = pytest.importorskip("distributed")
    monkeypatch.chdir(ROOT)
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None, host="127.0.0.1"
    ) as cluster:
        dask_log = IssueLog()
        on_dask = build([Path("seeds")], BuildOptions(scheduler=cluster.scheduler_address), dask_log)
    sequential_log = IssueLog()
    sequential = build([Path("seeds")], BuildOptions(workers=1), sequential_log)
    assert [str(i) for i in dask_log.issues] == [str(i) for i in sequential_log.issues]
    assert list(on_dask.manifest.papers.items()) == list(sequential.manifest.papers.items())
    assert_isomorphic(to_rdflib(on_dask), to_rdflib(sequential))


def test_unreachable_scheduler_is_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("distributed")
    from kg.errors import KgError

    monkeypatch.setattr("kg.executors.DASK_CONNECT_TIMEOUT", 2)
    with pytest.raises(KgError, match="Dask scheduler"):
        build([ROOT / "seeds"], BuildOptions(scheduler="tcp://127.0.0.1:9"), IssueLog())


def test_the_collector_is_paused_during_a_build_and_resumed_after(tmp_path: Path) -> None:
    """A build pauses Python's cyclic garbage collector (it only adds long-lived objects) and
    turns it back on afterwards, also when the build fails."""
    import gc

    from kg.errors import KgError

    seen: list[bool] = []
    assert gc.isenabled()
    build([SEEDS], BuildOptions(workers=2), IssueLog(), progress=lambda step: seen.append(gc.isenabled()))
    assert seen and not any(seen)
    assert gc.isenabled()

    def fail(step: object) -> None:
        raise KgError("stop", code="test")

    with pytest.raises(KgError):
        build([SEEDS], BuildOptions(), IssueLog(), progress=fail)
    assert gc.isenabled()


def test_a_build_keeps_no_papers(monkeypatch: pytest.MonkeyPatch) -> None:
    """Assembly uses the resolution up: each paper is freed once its triples are out, so a big build
    holds no per-paper objects while its store is loaded and its pages are drawn."""
    monkeypatch.chdir(ROOT)

    def alive() -> int:
        gc.collect()
        return sum(isinstance(o, Paper) for o in gc.get_objects())

    before = alive()
    after_assembly: list[int] = []
    real = pipeline.Making.triples

    def watched(*args: Any, **kwargs: Any) -> Iterator[Any]:
        yield from real(*args, **kwargs)
        after_assembly.append(alive())  # the build is still running: its resolution is in scope

    monkeypatch.setattr(pipeline.Making, "triples", watched)
    result = build([Path("seeds")], BuildOptions(workers=1), IssueLog())
    assert after_assembly == [before]
    assert alive() == before
    assert result.summary()["papers"] == len(result.manifest.papers) == 157
    assert len(result.store) == result.triples > 0


def test_consume_hands_out_papers_in_order_and_keeps_none_of_them() -> None:
    def paper(key: str, *people: str) -> Paper:
        authors = tuple(Author(p, p, i + 1, Location("x", 1)) for i, p in enumerate(people))
        return Paper(key, None, None, None, authors, (), None, (), (), (), (), ())

    resolution = Resolution(papers=[paper("b", "x", "y"), paper("a", "y", "z"), paper("c")], records=3)
    assert resolution.counts() == {"records": 3, "papers": 3, "persons": 0, "coauthor_pairs": 2}
    handed = resolution.consume()
    assert next(handed).key == "b"
    assert resolution.papers == []  # taken at the first paper
    assert [p.key for p in handed] == ["a", "c"]
    # what describes the graph stays: the counts, and the coauthor pairs the assembler writes last
    assert resolution.counts() == {"records": 3, "papers": 3, "persons": 0, "coauthor_pairs": 2}
    assert resolution.coauthor_pairs() == {("x", "y"): 1, ("y", "z"): 1}


def _seed_items() -> list[tuple[Any, list[Any]]]:
    from kg.extractors import extract_all
    from kg.readers import read_file
    from kg.readers.discover import discover

    log = IssueLog()
    return [
        (record, list(extract_all(record, log)))
        for item in discover([SEEDS], log)
        for record in read_file(item.path, log, item.shown)
    ]


def test_records_and_mentions_pickle_as_their_field_values() -> None:
    """What goes to a worker and comes back is pickled as the class and its field values in order
    (``kg.records.pickled_by_fields``), and unpickles equal, whatever the fields hold."""
    import dataclasses
    import pickle

    from kg.errors import Issue

    items = _seed_items()
    assert items
    objects: list[Any] = [Issue(Location("a.txt", 3), "warning", "code", "message")]
    for record, mentions in items:
        objects += [record, record.at, record.source, *mentions, *(m.at for m in mentions)]
        objects += [s for f in dataclasses.fields(record) for s in _spans_of(getattr(record, f.name))]
    kinds = set()
    for obj in objects:
        kinds.add(type(obj).__name__)
        cls, values = obj.__reduce__()
        assert cls is type(obj)
        assert values == tuple(getattr(obj, f.name) for f in dataclasses.fields(obj))
        assert pickle.loads(pickle.dumps(obj)) == obj
    assert kinds == {"Issue", "Record", "Location", "SourceFile", "Mention", "Span"}


def _spans_of(value: object) -> list[object]:
    from kg.records import Span

    if isinstance(value, Span):
        return [value]
    if isinstance(value, tuple):
        return [s for v in value for s in _spans_of(v)]
    return []


def test_records_are_encoded_for_the_cache_field_by_field() -> None:
    """``encode_record`` (its fields looked up once) writes what the generic walk over every field
    wrote, in the same order: a record with every field given, and every record of the seeds."""
    import dataclasses
    import json

    from kg.cache import encode_record
    from kg.records import Record, SourceFile, Span

    def generic(r: Record) -> dict[str, Any]:
        span = lambda s: None if s is None else [s.text, s.at.line]  # noqa: E731
        out: dict[str, Any] = {"reader": r.reader, "line": r.at.line, "authors_complete": r.authors_complete}
        for f in dataclasses.fields(r):
            value = getattr(r, f.name)
            if isinstance(value, Span) or (value is None and f.name != "source"):
                out[f.name] = span(value)
            elif f.name == "affiliations":
                out[f.name] = [[i, span(s)] for i, s in value]
            elif isinstance(value, tuple):
                out[f.name] = [span(s) for s in value]
        return out

    at = Location("f.jsonl", 4)
    s = Span("x", at)
    full = Record(
        "jsonl", SourceFile("f.jsonl", "0" * 64, "jsonl"), at,
        **{
            f.name: ((0, s),) if f.name == "affiliations" else (s, s) if f.default == () else s
            for f in dataclasses.fields(Record)
            if f.name not in ("reader", "source", "at", "authors_complete")
        },
    )  # fmt: skip
    records = [full] + [record for record, _ in _seed_items()]
    for record in records:
        assert json.dumps(encode_record(record)) == json.dumps(generic(record))
