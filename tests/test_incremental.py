"""Incremental builds: only new or changed files are read, and the graph equals a full rebuild's."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from kg.build_folder import write_outputs
from kg.errors import IssueLog
from kg.pipeline import Build, BuildOptions, build
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


def test_unchanged_rebuild_reads_nothing(
    corpus: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from kg import executors

    first_pass: list[str] = []
    identities = executors._identities

    def spy(task: tuple[Path, str, str]) -> bytes:
        first_pass.append(task[1])
        return identities(task)

    monkeypatch.setattr(executors, "_identities", spy)
    first = run(corpus, tmp_path / "out")
    assert sorted(first_pass) == sorted(["in/" + DAILY.name, "in/" + PROFILE.name])
    first_pass.clear()
    assert (first.files_read, first.files_reused) == (2, 0)
    assert first.changes is not None and first.changes.added == 138
    second = run(corpus, tmp_path / "out")
    assert (second.files_read, second.files_reused) == (0, 2)
    assert first_pass == []  # the first pass took the identities from the cache too
    assert len(second.fresh_keys) == 0
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
    # the removed file's entries are gone: the other's records and mentions, and its identities
    names = sorted(e.name for e in (tmp_path / "out" / "cache").iterdir())
    assert len(names) == 2 and names[0].removesuffix(".json.gz") + ".keys.json.gz" == names[1]


def test_full_ignores_the_cache(corpus: Path, tmp_path: Path) -> None:
    run(corpus, tmp_path / "out")
    again = run(corpus, tmp_path / "out", full=True)
    assert (again.files_read, again.files_reused) == (2, 0)
    assert again.changes is not None and again.changes.unchanged == 138


def test_damaged_cache_entry_is_read_again(corpus: Path, tmp_path: Path) -> None:
    first = run(corpus, tmp_path / "out")
    entries = sorted((tmp_path / "out" / "cache").iterdir())
    assert len(entries) == 4  # per file: its records and mentions, and its records' identities
    for entry in entries:
        entry.write_bytes(b"not gzip")
    again = run(corpus, tmp_path / "out")
    assert (again.files_read, again.files_reused) == (2, 0)
    assert sorted(again.fresh_keys) == sorted(["in/" + DAILY.name, "in/" + PROFILE.name])
    assert_isomorphic(to_rdflib(again), to_rdflib(first))


@pytest.mark.parametrize(
    "damage",
    [
        b"not gzip",
        __import__("gzip").compress(b'{"not": "a list"}'),
        __import__("gzip").compress(b'[[1, ["k"]], ["two", ["k"]]]'),
        __import__("gzip").compress(b"[[1, [2]]]"),
        __import__("gzip").compress(b"[[1]]"),
    ],
)
def test_damaged_identities_are_read_again(corpus: Path, tmp_path: Path, damage: bytes) -> None:
    """A damaged identities entry only means the first pass reads that file again; the records
    and mentions still come from the cache, and the graph is the same."""
    first = run(corpus, tmp_path / "out")
    for entry in (tmp_path / "out" / "cache").glob("*.keys.json.gz"):
        entry.write_bytes(damage)
    again = run(corpus, tmp_path / "out")
    assert (again.files_read, again.files_reused) == (0, 2)
    assert sorted(again.fresh_keys) == sorted(["in/" + DAILY.name, "in/" + PROFILE.name])
    assert_isomorphic(to_rdflib(again), to_rdflib(first))
    third = run(corpus, tmp_path / "out")  # the entries were written again
    assert len(third.fresh_keys) == 0


def test_identities_round_trip() -> None:
    """What the first pass keeps of a record survives the cache exactly (the same identity as
    reading the file gives, keys in order)."""
    from kg.cache import dumps_identities, loads_identities
    from kg.readers import digest, read_file
    from kg.resolve import Identity

    widest = 0
    for path in sorted(SEEDS.iterdir()):
        key = digest(path)
        identities = [Identity.of(r) for r in read_file(path, IssueLog(), path.name, key)]
        assert identities
        assert loads_identities(dumps_identities(identities), path.name, key) == identities
        widest = max(widest, *(len(i.keys) for i in identities))
    assert widest > 1  # records with an abstract and a title fingerprint


@pytest.mark.parametrize("workers", [1, 2])
def test_cache_entries_joined_from_worker_batches_are_the_one_document(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, workers: int
) -> None:
    """Workers encode their batches for the cache (gzip members joined by the build); an entry
    decompresses to exactly the JSON one encoding of the whole extract gives, and reads back whole."""
    import gzip

    from kg import executors, pipeline
    from kg.cache import Extract, dumps_extract, loads_extract
    from kg.readers import digest
    from kg.records import SourceFile

    monkeypatch.setattr(executors, "BATCH", 3)  # many batches even for a seed page
    log = IssueLog()
    with executors.Extraction(None, workers) as extraction:
        for path in sorted(SEEDS.iterdir()):
            item = pipeline.InputFile(path, path.name)
            extract = extraction.read(item, digest(path), log)
            assert extract.encoded is not None and len(extract.encoded) > 1
            source = extract.items[0][0].source
            joined = dumps_extract(extract, source)
            whole = dumps_extract(Extract(extract.items, extract.issues), source)
            # one document, but for the index of the pieces it was joined from (what loads_items reads)
            document, one = json.loads(gzip.decompress(joined)), json.loads(gzip.decompress(whole))
            n = len(extract.items)
            assert [k for k, _, _ in document.pop("pieces")] == [min(3, n - i) for i in range(0, n, 3)]
            assert [k for k, _, _ in one.pop("pieces")] == [n]
            assert document == one
            again_source, again = loads_extract(joined)
            assert again_source == SourceFile(source.path, source.digest, source.reader)
            assert again.items == extract.items
            assert again.issues == extract.issues


def test_entries_spilled_to_disk_read_back_whole(tmp_path: Path) -> None:
    from kg.cache import Entries

    for folder in (None, tmp_path):
        entries = Entries(folder)
        blobs = {"a.txt": b"\x00\x01" * 1000, "b/c.jsonl": b"", "d.xml": bytes(range(256))}
        for shown, blob in blobs.items():
            entries[shown] = blob
        assert list(entries) == list(blobs) and len(entries) == 3
        assert dict(entries) == blobs and entries["d.xml"] == blobs["d.xml"]
    assert list(tmp_path.iterdir()) == []  # an unnamed file: nothing to leave behind


def test_a_big_build_spills_its_cache_entries(corpus: Path, tmp_path: Path) -> None:
    """A build with an on-disk store holds no cache entry in memory; the cache it writes is the one an
    in-memory build writes, byte for byte."""
    from kg.store import staging

    memory = run(corpus, tmp_path / "memory")
    out = tmp_path / "disk"
    out.mkdir()
    spilled = build([corpus], BuildOptions(cache=out, store=staging(out)), IssueLog())
    assert spilled.fresh._memory == {} and len(spilled.fresh) == 2 and len(spilled.fresh_keys) == 2
    write_outputs(spilled, out)
    assert dict(spilled.fresh) == dict(memory.fresh)

    def cache(folder: Path) -> dict[str, bytes]:
        return {p.name: p.read_bytes() for p in (folder / "cache").iterdir()}

    assert cache(out) == cache(tmp_path / "memory") and len(cache(out)) == 4


def test_changed_thesaurus_is_resolved_again_from_the_cache(corpus: Path, tmp_path: Path) -> None:
    """The thesaurus applies where identity is decided: a rebuild with another thesaurus reads no file
    again and gives the graph a full build with that thesaurus gives."""
    out = tmp_path / "out"
    write_outputs(build([corpus], BuildOptions(cache=out), IssueLog()), out)
    thesaurus = tmp_path / "thesaurus.txt"
    thesaurus.write_text("label\treplace by\nThomas Hofmann\tT. Hofmann\n", encoding="utf-8")
    options = BuildOptions(cache=out, thesaurus=thesaurus)
    again = build([corpus], options, IssueLog())
    assert (again.files_read, again.files_reused) == (0, 2)
    assert again.changes is not None and again.changes.updated > 0
    fresh = build([corpus], BuildOptions(thesaurus=thesaurus), IssueLog())
    assert_isomorphic(to_rdflib(again), to_rdflib(fresh))
    assert '"T. Hofmann"' in to_rdflib(fresh).serialize(format="nt")
