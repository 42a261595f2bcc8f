"""Shards: sorted gzip N-Quads that reload into the same graph, byte-identical for the same graph."""

from __future__ import annotations

import gzip
import hashlib
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pyoxigraph as ox
import pytest
import rdflib

from kg import shards
from kg.errors import KgError
from kg.pipeline import Build
from kg.shards import MANIFEST, check_shards, sorted_lines, write_shards
from tests.conftest import assert_isomorphic

EX = "http://example.org/"
TRICKY = 'quote " backslash \\ newline \n return \r tab \t é ü 中文 😀 bell \x07 nul \x00 end'


def tricky_store() -> ox.Store:
    store = ox.Store()
    s, p = ox.NamedNode(EX + "s"), ox.NamedNode(EX + "p")
    store.add(ox.Quad(s, p, ox.Literal(TRICKY)))
    store.add(ox.Quad(s, p, ox.Literal(TRICKY, language="en-GB")))
    store.add(
        ox.Quad(s, p, ox.Literal("7", datatype=ox.NamedNode("http://www.w3.org/2001/XMLSchema#integer")))
    )
    store.add(ox.Quad(s, p, ox.NamedNode(EX + "o/é?x=1")))
    store.add(ox.Quad(s, p, ox.Literal("in a named graph"), ox.NamedNode(EX + "g")))
    return store


def shard_lines(folder: Path) -> list[bytes]:
    manifest = json.loads((folder / MANIFEST).read_text())
    lines: list[bytes] = []
    for entry in manifest["shards"]:
        lines += gzip.decompress((folder / entry["name"]).read_bytes()).splitlines(keepends=True)
    return lines


def reload(folder: Path) -> ox.Store:
    store = ox.Store()
    for part in sorted(folder.glob("part-*.nq.gz")):
        store.load(gzip.decompress(part.read_bytes()), format=ox.RdfFormat.N_QUADS)
    return store


def quad_set(store: ox.Store) -> set[str]:
    return {str(q) for q in store.quads_for_pattern(None, None, None, None)}


def test_escaping_round_trips(tmp_path: Path) -> None:
    store = tricky_store()
    write_shards(store, tmp_path / "s")
    lines = shard_lines(tmp_path / "s")
    assert len(lines) == len(store)
    assert all(line.endswith(b" .\n") and line.count(b"\n") == 1 for line in lines)
    text = b"".join(lines).decode("utf-8")
    assert '\\"' in text and "\\\\" in text and "\\n" in text and "\\r" in text and "😀" in text
    assert "\\u0000" in text  # control characters are escaped, never raw
    assert quad_set(reload(tmp_path / "s")) == quad_set(store)
    dataset = rdflib.Dataset()
    dataset.parse(data=b"".join(lines), format="nquads")
    assert rdflib.Literal(TRICKY) in set(dataset.objects())


def test_seed_shards_reload_into_the_same_graph(
    seed_build: Build, seed_graph: rdflib.Graph, tmp_path: Path
) -> None:
    folder = tmp_path / "shards"
    paths = write_shards(seed_build.store, folder, shard_size=5_000)
    total = len(seed_build.store)
    assert [p.name for p in paths] == [shards.shard_name(i) for i in range((total + 4_999) // 5_000)] + [
        MANIFEST
    ]
    manifest = json.loads((folder / MANIFEST).read_text())
    assert manifest["total"] == total == sum(e["lines"] for e in manifest["shards"])
    assert all(e["lines"] <= 5_000 for e in manifest["shards"])
    for entry in manifest["shards"]:
        assert hashlib.sha256((folder / entry["name"]).read_bytes()).hexdigest() == entry["sha256"]
    assert check_shards(folder) == total
    lines = shard_lines(folder)
    assert lines == sorted(lines) and len(set(lines)) == total  # sorted across shards, no duplicates
    # into pyoxigraph: the same statements
    assert quad_set(reload(folder)) == quad_set(seed_build.store)
    # into rdflib: a dataset whose default graph is isomorphic with the built graph
    dataset = rdflib.Dataset()  # one parse: rdflib's N-Quads parser starts a new default graph each time
    dataset.parse(data=b"".join(lines), format="nquads")
    got = rdflib.Graph()
    for triple in dataset.default_graph:
        got.add(triple)
    assert_isomorphic(got, seed_graph)


def test_same_graph_gives_byte_identical_shards(seed_build: Build, tmp_path: Path) -> None:
    write_shards(seed_build.store, tmp_path / "a", shard_size=4_000)
    # another store with the same statements, added in another order, sorted through runs on disk
    other = ox.Store()
    other.bulk_extend(
        sorted(seed_build.store.quads_for_pattern(None, None, None, None), key=str, reverse=True)
    )
    write_shards(other, tmp_path / "b", shard_size=4_000, run_size=1_000)
    names = sorted(p.name for p in (tmp_path / "a").iterdir())
    assert names == sorted(p.name for p in (tmp_path / "b").iterdir())
    for name in names:
        assert (tmp_path / "a" / name).read_bytes() == (tmp_path / "b" / name).read_bytes(), name


def test_external_sort_matches_in_memory_sort() -> None:
    lines = [f"{(i * 7919) % 1000:04d}\n".encode() for i in range(1000)]
    assert list(sorted_lines(lines, run_size=37)) == sorted(lines)
    assert list(sorted_lines([], run_size=3)) == []


def test_empty_graph_gives_a_manifest_and_no_shards(tmp_path: Path) -> None:
    paths = write_shards(ox.Store(), tmp_path / "s")
    assert [p.name for p in paths] == [MANIFEST]
    assert json.loads(paths[0].read_text())["total"] == 0


def test_shard_size_must_be_positive(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="shard_size"):
        write_shards(tricky_store(), tmp_path / "s", shard_size=0)


def test_failed_write_leaves_no_partial_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = tmp_path / "shards"
    write_shards(tricky_store(), folder, shard_size=2)
    before = {p.name: p.read_bytes() for p in folder.iterdir()}
    calls = 0
    real = shards._sha256

    def fail_on_second_shard(path: Path) -> str:
        nonlocal calls
        calls += 1
        if calls == 2:
            raise OSError(28, "No space left on device")
        return real(path)

    monkeypatch.setattr(shards, "_sha256", fail_on_second_shard)
    store = tricky_store()
    store.add(ox.Quad(ox.NamedNode(EX + "new"), ox.NamedNode(EX + "p"), ox.Literal("x")))
    with pytest.raises(KgError, match="No space left") as info:
        write_shards(store, folder, shard_size=2)
    assert info.value.code == "write-failed"
    assert {p.name: p.read_bytes() for p in folder.iterdir()} == before  # the old shards, untouched
    assert sorted(p.name for p in tmp_path.iterdir()) == ["shards"]  # no temporary folder left
    # and a first write that fails leaves no folder at all
    calls = 0
    with pytest.raises(KgError):
        write_shards(store, tmp_path / "fresh", shard_size=2)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["shards"]


def test_rewrite_replaces_the_folder(tmp_path: Path) -> None:
    folder = tmp_path / "s"
    write_shards(tricky_store(), folder, shard_size=1)
    assert len(list(folder.glob("part-*"))) == 5
    write_shards(tricky_store(), folder, shard_size=10)
    assert sorted(p.name for p in folder.iterdir()) == ["MANIFEST.json", "part-00000.nq.gz"]


def test_check_shards_finds_a_damaged_shard(tmp_path: Path) -> None:
    write_shards(tricky_store(), tmp_path / "s", shard_size=2)
    (tmp_path / "s" / "part-00001.nq.gz").write_bytes(b"damaged")
    with pytest.raises(KgError, match="part-00001") as info:
        check_shards(tmp_path / "s")
    assert info.value.code == "bad-shards"


def oxigraph_cli() -> str | None:
    found = shutil.which("oxigraph") or str(Path(sys.executable).with_name("oxigraph"))
    return found if Path(found).exists() else None


@pytest.mark.skipif(oxigraph_cli() is None, reason="the oxigraph CLI (PyPI 'oxigraph') is not installed")
def test_oxigraph_bulk_loads_the_shards_as_the_readme_says(seed_build: Build, tmp_path: Path) -> None:
    folder = tmp_path / "shards"
    write_shards(seed_build.store, folder, shard_size=5_000)
    cli = oxigraph_cli()
    assert cli is not None
    parts = [str(p) for p in sorted(folder.glob("part-*.nq.gz"))]
    db = tmp_path / "db"
    subprocess.run([cli, "load", "--location", str(db), "--file", *parts], check=True, capture_output=True)
    result = subprocess.run(
        [cli, "dump", "--location", str(db), "--format", "nq"], check=True, capture_output=True
    )
    assert set(result.stdout.splitlines(keepends=True)) == set(shard_lines(folder))
