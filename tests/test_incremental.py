"""Incremental builds: only new or changed files are read, and the graph equals a full rebuild's."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from kg.errors import IssueLog
from kg.pipeline import Build, BuildOptions, build, write_outputs
from tests.conftest import SEEDS, assert_isomorphic, to_rdflib

PROFILE, LISTING, DAILY = sorted(SEEDS.iterdir())


def run(inputs: Path, out: Path, full: bool = False) -> Build:
    result = build([inputs], BuildOptions(cache=out, full=full), IssueLog())
    write_outputs(result, out)
    return result


def full_rebuild(inputs: Path, tmp_path: Path) -> Build:
    return build([inputs], BuildOptions(), IssueLog())


@pytest.fixture
def corpus(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "in"
    folder.mkdir()
    shutil.copy(PROFILE, folder / PROFILE.name)
    shutil.copy(DAILY, folder / DAILY.name)
    monkeypatch.chdir(tmp_path)
    return Path("in")


def test_unchanged_rebuild_reads_nothing(corpus: Path, tmp_path: Path) -> None:
    first = run(corpus, tmp_path / "out")
    assert (first.files_read, first.files_reused) == (2, 0)
    assert first.changes is not None and first.changes.added == 138
    second = run(corpus, tmp_path / "out")
    assert (second.files_read, second.files_reused) == (0, 2)
    assert second.changes is not None and (second.changes.added, second.changes.unchanged) == (0, 138)
    assert [str(i) for i in second.log.issues] == [str(i) for i in first.log.issues]
    assert_isomorphic(to_rdflib(second), to_rdflib(first))


def test_added_file(corpus: Path, tmp_path: Path) -> None:
    run(corpus, tmp_path / "out")
    shutil.copy(LISTING, corpus / LISTING.name)
    again = run(corpus, tmp_path / "out")
    assert (again.files_read, again.files_reused) == (1, 2)
    assert again.changes is not None
    # 20 listing records: 19 new papers, and one merges with a profile paper (now with authors and area)
    assert (again.changes.added, again.changes.updated, again.changes.removed) == (19, 1, 0)
    assert_isomorphic(to_rdflib(again), to_rdflib(full_rebuild(corpus, tmp_path)))


def test_changed_file(corpus: Path, tmp_path: Path) -> None:
    run(corpus, tmp_path / "out")
    daily = corpus / DAILY.name
    lines = daily.read_text(encoding="utf-8").split("\n")
    lines[2] = (
        "A brand new abstract replaces the first one, so one paper goes and another comes in its place."
    )
    daily.write_text("\n".join(lines), encoding="utf-8")
    again = run(corpus, tmp_path / "out")
    assert (again.files_read, again.files_reused) == (1, 1)
    assert again.changes is not None
    assert (again.changes.added, again.changes.removed, again.changes.updated) == (1, 1, 0)
    assert_isomorphic(to_rdflib(again), to_rdflib(full_rebuild(corpus, tmp_path)))


def test_removed_file(corpus: Path, tmp_path: Path) -> None:
    run(corpus, tmp_path / "out")
    (corpus / DAILY.name).unlink()
    again = run(corpus, tmp_path / "out")
    assert (again.files_read, again.files_reused) == (0, 1)
    assert again.changes is not None and (again.changes.removed, again.changes.added) == (120, 0)
    assert_isomorphic(to_rdflib(again), to_rdflib(full_rebuild(corpus, tmp_path)))
    assert len(list((tmp_path / "out" / "cache").iterdir())) == 1


def test_full_ignores_the_cache(corpus: Path, tmp_path: Path) -> None:
    run(corpus, tmp_path / "out")
    again = run(corpus, tmp_path / "out", full=True)
    assert (again.files_read, again.files_reused) == (2, 0)
    assert again.changes is not None and again.changes.unchanged == 138


def test_damaged_cache_entry_is_read_again(corpus: Path, tmp_path: Path) -> None:
    run(corpus, tmp_path / "out")
    for entry in (tmp_path / "out" / "cache").iterdir():
        entry.write_bytes(b"not gzip")
    again = run(corpus, tmp_path / "out")
    assert (again.files_read, again.files_reused) == (2, 0)


@pytest.mark.parametrize("workers", [1, 2])
def test_cache_entries_joined_from_worker_batches_are_the_one_document(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, workers: int
) -> None:
    """Workers encode their batches for the cache (gzip members joined by the build); an entry
    decompresses to exactly the JSON one encoding of the whole extract gives, and reads back whole."""
    import gzip

    from kg import pipeline
    from kg.cache import Extract, dumps_extract, loads_extract
    from kg.readers import digest
    from kg.records import SourceFile

    monkeypatch.setattr(pipeline, "BATCH", 3)  # many batches even for a seed page
    log = IssueLog()
    with pipeline.Extraction(None, workers) as extraction:
        for path in sorted(SEEDS.iterdir()):
            item = pipeline.InputFile(path, path.name)
            extract = extraction.read(item, digest(path), log)
            assert extract.encoded is not None and len(extract.encoded) > 1
            source = extract.items[0][0].source
            joined = dumps_extract(extract, source)
            whole = dumps_extract(Extract(extract.items, extract.issues), source)
            assert gzip.decompress(joined) == gzip.decompress(whole)
            again_source, again = loads_extract(joined)
            assert again_source == SourceFile(source.path, source.digest, source.reader)
            assert again.items == extract.items
            assert again.issues == extract.issues
