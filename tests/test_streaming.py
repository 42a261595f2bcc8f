"""Papers are resolved as their records come: a first pass plans which records make each paper from
their identity keys, so a build holds only records waiting for the others of their paper."""

from __future__ import annotations

import gc
import os
import shutil
from pathlib import Path
from typing import Any

import pytest

from kg import executors, pipeline
from kg.errors import IssueLog, KgError
from kg.pipeline import BuildOptions, build
from kg.readers import digest, read_file
from kg.readers.discover import discover
from kg.records import Record
from kg.resolve import Identity, Place, Plan, Resolver, Streaming
from tests.conftest import SEEDS, assert_isomorphic, to_rdflib

FILES = sorted(SEEDS.glob("*.txt"))


def seed_records() -> list[tuple[Place, Record]]:
    out = []
    for item in discover([SEEDS], IssueLog()):
        key = digest(item.path)
        out += [((key, i), r) for i, r in enumerate(read_file(item.path, IssueLog(), item.shown, key))]
    return out


def test_a_paper_is_made_when_its_last_record_comes() -> None:
    records = seed_records()
    plan = Plan.of((place, Identity.of(r)) for place, r in records)
    last: dict[int, int] = {}
    for i, (place, _) in enumerate(records):
        last[plan.records[place].group] = i
    assert len(plan.sizes) == 157 and sorted(plan.sizes)[-1] == 2
    merged = next(g for g, size in enumerate(plan.sizes) if size == 2)
    assert plan.reasons[merged] and "share" in plan.reasons[merged][0]
    streaming = Streaming(plan, IssueLog(), [])
    made: dict[str, int] = {}
    for i, (place, record) in enumerate(records):
        paper = streaming.add(place, record, [])
        if paper is not None:
            made[paper.key] = i
    streaming.finish()
    # each paper at its last record: one record per paper but one, whose two records are in two files
    assert sorted(made.values()) == sorted(last.values()) and len(made) == 157
    assert plan.records == {}  # taken out as the records came
    # the same papers as resolving all records at once
    resolver = Resolver(IssueLog())
    for _, record in records:
        resolver.add(record, [])
    assert sorted(made) == [p.key for p in resolver.resolve().papers]


def test_records_that_are_not_those_planned_stop_the_build() -> None:
    records = seed_records()

    def plan() -> Plan:
        return Plan.of((place, Identity.of(r)) for place, r in records)

    (place, first), (_, second) = records[0], records[1]
    with pytest.raises(KgError) as changed:
        Streaming(plan(), IssueLog(), []).add(place, second, [])  # another record where the first was
    assert changed.value.code == "input-changed"
    with pytest.raises(KgError) as unknown:
        Streaming(plan(), IssueLog(), []).add(("0" * 64, 0), first, [])
    assert unknown.value.code == "input-changed"
    missing = Streaming(plan(), IssueLog(), [(p, r, []) for p, r in records[:-1]])
    with pytest.raises(KgError, match="not read again") as short:
        list(missing.consume())
    assert short.value.code == "input-changed"


def test_a_build_holds_only_the_records_being_extracted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Records are let go once their paper is made: with batches of 5, a build of the seeds (158
    records) never has more than a few batches of them alive; the old resolver held them all."""
    for p in FILES:
        shutil.copy(p, tmp_path / p.name)
    monkeypatch.setattr(executors, "BATCH", 5)
    alive: list[int] = []
    real = pipeline.Streaming.add

    def records() -> int:
        gc.collect()
        return sum(isinstance(o, Record) for o in gc.get_objects())

    def watched(self: Streaming, *args: Any) -> Any:
        if self.records % 10 == 0:
            alive.append(records() - before)
        return real(self, *args)

    before = records()  # what other tests left

    monkeypatch.setattr(pipeline.Streaming, "add", watched)
    result = build([tmp_path], BuildOptions(workers=1), IssueLog())
    assert result.summary()["records"] == 158 and len(alive) == 16
    assert max(alive) <= 12, alive


def test_streamed_build_is_the_resolved_one(monkeypatch: pytest.MonkeyPatch) -> None:
    """Small batches and workers change nothing: the graph is the same as with one batch per file."""
    whole = build([SEEDS], BuildOptions(workers=1), IssueLog())
    monkeypatch.setattr(executors, "BATCH", 3)
    streamed = build([SEEDS], BuildOptions(workers=2), IssueLog())
    assert streamed.summary() == whole.summary()
    assert streamed.manifest.papers == whole.manifest.papers
    assert_isomorphic(to_rdflib(streamed), to_rdflib(whole))


def test_a_file_changed_between_the_passes_stops_the_build(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for p in FILES:
        shutil.copy(p, tmp_path / p.name)
    victim = tmp_path / FILES[0].name
    real = pipeline.Plan.of

    def planned_then_edited(*args: Any) -> Plan:
        plan = real(*args)
        st = victim.stat()
        os.utime(victim, ns=(st.st_atime_ns, st.st_mtime_ns + 1_000_000_000))
        return plan

    monkeypatch.setattr(pipeline.Plan, "of", planned_then_edited)
    with pytest.raises(KgError, match="changed during the build") as changed:
        build([tmp_path], BuildOptions(workers=1), IssueLog())
    assert changed.value.code == "input-changed" and victim.name in str(changed.value)


@pytest.mark.parametrize("workers", [1, 2])
def test_progress_hears_both_passes(tmp_path: Path, workers: int) -> None:
    """The progress callback hears every file as the first pass identifies it and as the second
    starts reading it, then the store's compaction: a big build is never silent."""
    from kg.executors import Step

    steps: list[Step] = []
    build([SEEDS], BuildOptions(workers=workers, store=tmp_path / "store"), IssueLog(), steps.append)
    shown = [pipeline.shown_path(f) for f in FILES]
    assert [(s.stage, s.file and s.file.shown, s.done, s.total) for s in steps] == [
        *[("identifying", name, i + 1, 3) for i, name in enumerate(shown)],
        *[("reading", name, i, 3) for i, name in enumerate(shown)],
        ("optimizing", None, 3, 3),
    ]
