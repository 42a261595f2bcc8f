"""Delta builds (``kg.delta``): after every kind of change, the store, graph.ttl and the issues equal a
full build of the same inputs."""

from __future__ import annotations

import gzip
import json
import random
import shutil
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

import kg.delta
from kg import store as stores
from kg.assemble import Namer
from kg.build_folder import build_into
from kg.cache import MANIFEST, Manifest
from kg.cli import app
from kg.errors import IssueLog
from kg.layout import LEDGER
from kg.ledger import Ledger
from kg.pipeline import Build, BuildOptions
from kg.vocab import DATA_BASE, FOAF, KG, METHOD_BASE, SCHEMA

ABSTRACT = (
    "We study adapters for large models and report results on several benchmarks with careful ablations. "
)


def paper(number: int, authors: list[str], title: str, extra: str = "", **fields: Any) -> dict[str, Any]:
    return {
        "id": f"2501.{number:05d}",
        "authors": authors,
        "title": title,
        "categories": fields.pop("categories", ["cs.LG"]),
        "comment": None,
        "summary": ABSTRACT + extra + f" Paper {number}.",
        **fields,
    }


def write(path: Path, papers: list[dict[str, Any]]) -> None:
    path.write_text("".join(json.dumps(p) + "\n" for p in papers), encoding="utf-8")


P1 = paper(
    1, ["Ann Lee", "Bo Chen"], "Low rank adapters revisited for language models", "We fine-tune with LoRA."
)
P2 = paper(
    2,
    ["Ann Lee", "Cy Dee"],
    "Diffusion models for molecules at scale",
    "Code: https://github.com/cydee/molgen.",
)
P3 = paper(
    3, ["Dan Eve", "Bo Chen"], "State space models for long documents", "We use a state space model (S4)."
)
P4 = paper(
    4, ["Fay Gill"], "A lonely paper about graph neural networks in physics", "We use graph neural networks."
)
P5 = paper(
    5,
    ["Ann Lee", "Hal Ivy"],
    "FooNet: a network for everything under the sun",
    "In this paper, we propose FooNet, a transformer for images. FooNet beats baselines.",
    categories=["cs.CV", "cs.LG"],
)
P2_AGAIN = {**P2, "comment": "10 pages", "summary": P2["summary"]}


def options(**kw: Any) -> BuildOptions:
    return BuildOptions(workers=1, **kw)


def run(inputs: Path, out: Path, **kw: Any) -> tuple[Build, list[Path]]:
    return build_into([inputs], out, options(**kw), IssueLog())


def triples(out: Path) -> set[str]:
    store = stores.open_store(out)
    return {str(q) for q in store.quads_for_pattern(None, None, None, None)}


def check_same_as_full(inputs: Path, out: Path, tmp: Path, result: Build) -> None:
    """The delta's folder holds what a full build of the same inputs holds."""
    full_out = tmp / "full"
    shutil.rmtree(full_out, ignore_errors=True)
    full, _ = run(inputs, full_out, full=True)
    assert full.delta is None
    ours, theirs = triples(out), triples(full_out)
    assert ours - theirs == set() and theirs - ours == set()
    assert (out / "graph.ttl").read_bytes() == (full_out / "graph.ttl").read_bytes()
    for page in ("coauthors.html", "topics.html"):
        assert (out / page).read_bytes() == (full_out / page).read_bytes()
    assert result.log.counts() == full.log.counts()
    assert result.summary() == {
        **full.summary(),
        "files_read": result.files_read,
        "files_reused": result.files_reused,
    }
    assert Manifest.load(out).papers == Manifest.load(full_out).papers
    assert Ledger.load(out) is not None
    assert (
        json.loads(Manifest.load(out).dumps())["files"]
        == json.loads(Manifest.load(full_out).dumps())["files"]
    )


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, Path]:
    """Inputs ``in/`` (a.jsonl: P1-P3, b.jsonl: P4) built into ``out/``; deltas are taken however
    much changes (the corpus is tiny)."""
    monkeypatch.setattr(kg.delta, "MOST", 1.0)
    inputs = tmp_path / "in"
    inputs.mkdir()
    write(inputs / "a.jsonl", [P1, P2, P3])
    write(inputs / "b.jsonl", [P4])
    out = tmp_path / "out"
    first, _ = run(inputs, out)
    assert first.delta is None
    return inputs, out


def node(kind: str, key: str) -> str:
    return f"<{DATA_BASE}{kind}/{key}>"


def test_new_file_with_a_paper_of_another_file(folder: tuple[Path, Path], tmp_path: Path) -> None:
    inputs, out = folder
    write(inputs / "c.jsonl", [P5, P2_AGAIN])
    result, written = run(inputs, out)
    assert result.delta is not None and result.files_read == 1 and result.files_reused == 2
    assert result.delta["papers_made"] == 2 and result.delta["papers_removed"] == 1  # P2 merged anew
    assert out / "graph.ttl" in written
    check_same_as_full(inputs, out, tmp_path, result)
    assert any(t.startswith(node("paper", "arxiv-2501.00002")) and '"10 pages"' in t for t in triples(out))


def test_changed_file(folder: tuple[Path, Path], tmp_path: Path) -> None:
    inputs, out = folder
    write(
        inputs / "b.jsonl",
        [{**P4, "title": "A retitled paper on graph neural networks", "authors": ["Fay Gill", "Ann Lee"]}],
    )
    result, _ = run(inputs, out)
    assert result.delta is not None and result.files_read == 1
    check_same_as_full(inputs, out, tmp_path, result)
    assert any("A retitled paper" in t for t in triples(out))


def test_removed_file_takes_its_persons_out(folder: tuple[Path, Path], tmp_path: Path) -> None:
    inputs, out = folder
    fay = node("person", "fay_gill")
    assert any(t.startswith(fay) for t in triples(out))
    (inputs / "b.jsonl").unlink()
    result, _ = run(inputs, out)
    assert (
        result.delta is not None and result.delta["papers_removed"] == 1 and result.delta["papers_made"] == 0
    )
    check_same_as_full(inputs, out, tmp_path, result)
    assert not any(fay in t for t in triples(out)), "a person's last paper went: so did the person"


def test_a_paper_moving_between_files(folder: tuple[Path, Path], tmp_path: Path) -> None:
    inputs, out = folder
    write(inputs / "a.jsonl", [P1, P2])
    write(inputs / "b.jsonl", [P4, P3])
    result, _ = run(inputs, out)
    assert result.delta is not None
    check_same_as_full(inputs, out, tmp_path, result)
    assert any("b.jsonl" in t and "sourceFile" in t for t in triples(out))


def test_a_coauthor_pair_loses_its_last_joint_paper(folder: tuple[Path, Path], tmp_path: Path) -> None:
    inputs, out = folder
    ann, bo = node("person", "ann_lee"), node("person", "bo_chen")
    link = f"{ann} <{KG.coauthor.value}> {bo}"
    assert any(t.startswith(link) for t in triples(out))
    write(inputs / "a.jsonl", [P2, P3])  # P1 was Ann and Bo's only paper together
    result, _ = run(inputs, out)
    assert result.delta is not None
    check_same_as_full(inputs, out, tmp_path, result)
    assert not any(t.startswith(link) for t in triples(out))
    counts = [t for t in triples(out) if t.startswith(f"{ann} <{KG.paperCount.value}>")]
    assert len(counts) == 1 and '"1"' in counts[0]


def test_a_concept_no_longer_used(folder: tuple[Path, Path], tmp_path: Path) -> None:
    inputs, out = folder
    write(inputs / "c.jsonl", [P5])
    run(inputs, out)
    introduced = [t for t in triples(out) if "FooNet" in t and "prefLabel" in t]
    assert introduced, "FooNet is introduced by P5"
    ssm = f"<{METHOD_BASE}"
    counted_before = {t for t in triples(out) if t.startswith(ssm) and KG.countsByYear.value in t}
    (inputs / "c.jsonl").unlink()
    write(inputs / "a.jsonl", [P1, P2])  # P3, the only state-space-model paper, goes too
    result, _ = run(inputs, out)
    assert result.delta is not None
    check_same_as_full(inputs, out, tmp_path, result)
    after = triples(out)
    assert not any("FooNet" in t for t in after)
    counted_after = {t for t in after if t.startswith(ssm) and KG.countsByYear.value in t}
    assert counted_after < counted_before


def test_a_merged_paper_when_one_side_changes(folder: tuple[Path, Path], tmp_path: Path) -> None:
    inputs, out = folder
    write(inputs / "c.jsonl", [P2_AGAIN])
    run(inputs, out)
    write(
        inputs / "c.jsonl", [{**P2_AGAIN, "comment": "12 pages", "authors": ["Ann Lee", "Cy Dee", "Ed Fox"]}]
    )
    result, _ = run(inputs, out)
    assert result.delta is not None and result.delta["papers_made"] == 1
    check_same_as_full(inputs, out, tmp_path, result)
    assert any("12 pages" in t for t in triples(out)) and not any("10 pages" in t for t in triples(out))


def test_a_random_sequence_of_changes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Seeded adds, changes, moves and removals over six files of a shared pool of papers and persons:
    after each step the delta equals a full build."""
    monkeypatch.setattr(kg.delta, "MOST", 1.0)
    rng = random.Random(5)
    people = [f"Person {chr(65 + i)} Name{i}" for i in range(12)]
    pool = [
        paper(
            n,
            rng.sample(people, rng.randint(1, 4)),
            f"Study number {n} of adapters and diffusion",
            rng.choice(
                ["We use LoRA.", "We use diffusion models.", f"We propose BarNet{n}, a new model.", ""]
            ),
            categories=rng.sample(["cs.LG", "cs.CV", "cs.CL", "stat.ML"], 2),
        )
        for n in range(1, 25)
    ]
    inputs, out = tmp_path / "in", tmp_path / "out"
    inputs.mkdir()
    files: dict[str, list[dict[str, Any]]] = {f"f{i}.jsonl": pool[i * 3 : i * 3 + 3] for i in range(6)}
    for name, papers in files.items():
        write(inputs / name, papers)
    run(inputs, out)
    deltas = 0
    for _ in range(8):
        action = rng.choice(["add", "change", "remove", "move"])
        names = sorted(files)
        if action == "add" or len(names) < 2:
            name = f"f{len(names) + rng.randint(10, 99)}.jsonl"
            files[name] = rng.sample(pool, 2)
        elif action == "change":
            name = rng.choice(names)
            files[name] = [{**p, "authors": rng.sample(people, 2)} for p in files[name]] + [rng.choice(pool)]
        elif action == "remove":
            files.pop(rng.choice(names))
            for p in inputs.iterdir():
                if p.name not in files:
                    p.unlink()
        else:
            a, b = rng.sample(names, 2)
            if files[a]:
                files[b] = [*files[b], files[a].pop()]
        for name, papers in files.items():
            write(inputs / name, papers)
        result, _ = run(inputs, out)
        deltas += result.delta is not None
        check_same_as_full(inputs, out, tmp_path, result)
    assert deltas >= 6


def test_nothing_changed_writes_nothing(folder: tuple[Path, Path]) -> None:
    inputs, out = folder
    before = {p.name: p.stat().st_mtime_ns for p in out.iterdir()}
    result, written = run(inputs, out)
    assert result.delta is not None and result.delta["papers_made"] == 0 and written == []
    assert {p.name: p.stat().st_mtime_ns for p in out.iterdir()} == before
    assert result.summary()["papers"] == 4


@pytest.mark.parametrize(
    "how", ["full", "thesaurus", "no ledger", "damaged ledger", "other base", "other generation"]
)
def test_a_full_build_when_a_delta_cannot_be_sure(
    folder: tuple[Path, Path], tmp_path: Path, how: str
) -> None:
    inputs, out = folder
    write(inputs / "c.jsonl", [P5])
    kw: dict[str, Any] = {}
    if how == "full":
        kw["full"] = True
    elif how == "thesaurus":
        thesaurus = tmp_path / "thesaurus.txt"
        thesaurus.write_text("label\treplace by\nAnn Lee\tAnn B. Lee\n", encoding="utf-8")
        kw["thesaurus"] = thesaurus
    elif how == "no ledger":
        (out / LEDGER).unlink()
    elif how == "damaged ledger":
        (out / LEDGER).write_bytes(b"\x1f\x8b garbage")
    elif how == "other base":
        kw["base"] = "https://example.org/"
    else:
        (out / MANIFEST).write_text(
            (out / MANIFEST).read_text().replace('"generation": "', '"generation": "0')
        )
    result, _ = run(inputs, out, **kw)
    assert result.delta is None
    if how != "thesaurus":
        assert Ledger.load(out) is not None  # and the next build can be a delta again
    else:
        assert not (out / LEDGER).exists()


def test_a_big_graph_leaves_graph_ttl_and_pages_to_be_made(
    folder: tuple[Path, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    inputs, out = folder
    monkeypatch.setattr(kg.delta, "SORT_LIMIT", 10)  # every graph is "big"
    write(inputs / "c.jsonl", [P5])
    result, written = run(inputs, out)
    assert result.delta is not None and set(result.lazy) == {"graph.ttl", "coauthors.html", "topics.html"}
    assert not (out / "graph.ttl").exists() and not (out / "coauthors.html").exists()
    assert written == [out / "store"]
    generation = Manifest.load(out).generation
    assert stores.generation(out) == generation == Ledger.load(out).generation  # type: ignore[union-attr]
    full_out = tmp_path / "full"
    run(inputs, full_out, full=True)
    assert triples(out) == triples(full_out)
    write(inputs / "d.jsonl", [P2_AGAIN])
    again, _ = run(inputs, out)
    assert again.delta is not None  # a delta over a delta
    run(inputs, tmp_path / "full2", full=True)
    assert triples(out) == triples(tmp_path / "full2")
    exported = CliRunner().invoke(app, ["export", "turtle", "--out", str(out)])
    assert exported.exit_code == 0, exported.output


def test_the_cli_says_what_a_delta_did(folder: tuple[Path, Path]) -> None:
    inputs, out = folder
    write(inputs / "c.jsonl", [P5])
    res = CliRunner().invoke(app, ["build", str(inputs), "--out", str(out), "-j", "1"])
    assert res.exit_code == 0, res.output
    assert "delta build: 0 papers taken out, 1 made" in res.output
    res = CliRunner().invoke(app, ["build", str(inputs), "--out", str(out), "-j", "1"])
    assert "wrote nothing (nothing changed)" in res.output


def test_shared_nodes_are_read_back(folder: tuple[Path, Path]) -> None:
    """The ledger names every paper of the store, and its persons are the store's (the persons stage's:
    two Bo Chens who share nothing are two persons, issue 32)."""
    _, out = folder
    ledger = Ledger.load(out)
    assert ledger is not None
    store = stores.open_store(out)
    papers = {
        q.subject.value.rsplit("/", 1)[1]
        for q in store.quads_for_pattern(None, None, SCHEMA.ScholarlyArticle, None)
    }
    assert papers == set(ledger.lines)
    persons = {q.subject.value for q in store.quads_for_pattern(None, None, FOAF.Person, None)}
    namer = Namer(DATA_BASE)
    assert persons == {namer.person(p).value for p in ledger.person_keys()}
    assert {p.split("~")[0] for p in ledger.person_keys()} == {p for e in ledger.entries() for p in e.persons}


def test_papers_that_want_one_key(folder: tuple[Path, Path], tmp_path: Path) -> None:
    """Two records with one arXiv id but different DOIs are kept apart, and the second paper loses the
    key to the first (``paper-key-collision``); its persons are named all the same.  Deltas beside
    them, and over them, equal a full build."""
    inputs, out = folder
    first = paper(6, ["Ian Jay"], "The first of two papers with one identifier", doi="10.1000/one")
    second = paper(
        6, ["Kim Lo", "Ian Jay"], "The second of two papers with one identifier", doi="10.1000/two"
    )
    write(inputs / "c.jsonl", [first])
    write(inputs / "d.jsonl", [second])
    result, _ = run(inputs, out)
    assert result.log.counts().get("paper-key-collision") == 1
    check_same_as_full(inputs, out, tmp_path, result)
    kim = node("person", "kim_lo")
    assert any(t.startswith(kim) and '"0"' in t for t in triples(out)), "named by the dropped paper only"
    write(inputs / "e.jsonl", [P5])  # beside them
    result, _ = run(inputs, out)
    assert result.delta is not None and result.log.counts().get("paper-key-collision") == 1
    check_same_as_full(inputs, out, tmp_path, result)
    write(inputs / "d.jsonl", [{**second, "authors": ["Kim Lo", "Lee Mo"]}])  # over the dropped one
    result, _ = run(inputs, out)
    check_same_as_full(inputs, out, tmp_path, result)
    (inputs / "c.jsonl").unlink()  # the first goes: the second has the key now
    result, _ = run(inputs, out)
    check_same_as_full(inputs, out, tmp_path, result)
    assert any("The second of two papers" in t for t in triples(out))


def test_a_cache_entry_gives_any_of_its_records_alone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A delta decodes only the pieces of a cache entry that hold the records it wants: the same
    records as decoding the whole entry."""
    import kg.executors
    from kg.cache import CACHE_DIR, cache_name, loads_extract, loads_items

    monkeypatch.setattr(kg.executors, "BATCH", 3)
    inputs = tmp_path / "in"
    inputs.mkdir()
    write(
        inputs / "many.jsonl",
        [paper(n, ["Ann Lee"], f"Paper number {n} on adapters for models") for n in range(1, 12)],
    )
    out = tmp_path / "out"
    run(inputs, out)
    manifest = Manifest.load(out)
    ((shown, entry),) = manifest.files.items()
    blob = (out / CACHE_DIR / cache_name(shown, entry.digest, manifest.extraction)).read_bytes()
    _, whole = loads_extract(blob)
    assert len(whole.items) == 11
    assert len(json.loads(gzip.decompress(blob))["pieces"]) == 4  # batches of 3
    for wanted in ({0}, {4, 5}, {10}, {0, 3, 6, 9, 10}, set(range(11)), {11, 40}):
        got = loads_items(blob, wanted)
        assert got is not None
        assert [(i, r, m) for i, r, m in got] == [(i, *whole.items[i]) for i in sorted(wanted) if i < 11]


@pytest.mark.parametrize("name", ["0-first.jsonl", "z-last.jsonl"])
def test_a_new_paper_wanting_the_key_of_one_left_as_it_was(
    folder: tuple[Path, Path], tmp_path: Path, name: str
) -> None:
    """A new file brings a paper with the arXiv id of an old one but another DOI: the two are kept
    apart and the one a full build makes first keeps the key (a file read before the old one's takes
    it from the old paper); the delta makes both again and agrees."""
    inputs, out = folder
    write(inputs / "a.jsonl", [{**P1, "doi": "10.1000/old"}, P2, P3])
    run(inputs, out)
    write(
        inputs / name,
        [paper(1, ["New Person"], "Another paper that claims the first identifier", doi="10.1000/new")],
    )
    result, _ = run(inputs, out)
    assert result.delta is not None, result.full_because
    assert result.log.counts().get("paper-key-collision") == 1
    check_same_as_full(inputs, out, tmp_path, result)
    title = "Another paper" if name.startswith("0") else "Low rank adapters"
    assert any(t.startswith(node("paper", "arxiv-2501.00001")) and title in t for t in triples(out))


def test_a_delta_that_gives_way_reuses_what_it_read(
    folder: tuple[Path, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A delta that finds it would make too many papers again gives way to a full build, which takes
    the identities of the files the delta read from what it read: no file is read twice (issue 31)."""
    import kg.executors

    inputs, out = folder
    monkeypatch.setattr(kg.delta, "MOST", 0.01)  # any paper made again is too many
    write(inputs / "a.jsonl", [P1, P2_AGAIN, P3])
    read: list[str] = []
    real = kg.executors.read_file

    def counted(path: Path, *args: Any, **kwargs: Any) -> Any:
        read.append(Path(path).name)
        return real(path, *args, **kwargs)

    monkeypatch.setattr(kg.executors, "read_file", counted)
    result, _ = run(inputs, out)
    assert result.delta is None and "papers to make again" in result.full_because
    # a.jsonl: identified once by the delta, read once for its records; b.jsonl not read at all
    assert sorted(read) == ["a.jsonl", "a.jsonl"]
    check_same_as_full(inputs, out, tmp_path, result)
