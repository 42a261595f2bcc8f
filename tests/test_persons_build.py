"""The persons stage through whole builds (``kg.build_folder.build_into`` and ``kg build``): a delta
that splits a person or joins two gives a full build's persons, whole builds do not depend on the
order of their inputs, the thesaurus's marks split and merge persons, and a person keeps its IRI as
unrelated papers are added."""

from __future__ import annotations

import random
from collections import defaultdict
from pathlib import Path

import pytest
from typer.testing import CliRunner

import kg.delta
import kg.ledger
from kg import store as stores
from kg.assemble import Namer
from kg.cli import app
from kg.persons.names import Name, expected_people
from kg.vocab import DATA_BASE, DCTERMS, FOAF, KG
from tests.test_delta import check_same_as_full, paper, run, write

# a common name (split unless evidence joins) and rare coauthors (one shared one joins)
assert expected_people(Name.parse("Wei Wang")) > 1
ROBOTS = paper(1, ["Wei Wang", "Zed Quorra"], "Tactile sensing for dexterous grasping of cloth")
LANGUAGE = paper(2, ["Wei Wang", "Mia Vantorp"], "Machine translation of low resource languages")
BRIDGE = paper(3, ["Wei Wang", "Zed Quorra", "Mia Vantorp"], "Tactile feedback for translation of gestures")
# an initial and the one fuller name it can be (joined), until another fuller name shares its initial
JOHN = paper(4, ["John Quixbrook", "Ann Lee"], "Graph neural networks for particle physics")
INITIAL = paper(5, ["J. Quixbrook", "Bo Chen"], "Sparse attention for long documents")
JANE = paper(6, ["Jane Quixbrook", "Cy Dee"], "Protein folding with diffusion models")
# a rare name: one person whatever its papers share
ZORA = [
    paper(7, ["Zora Klimt", "Dan Eve"], "Bayesian optimization of chemical reactions"),
    paper(8, ["Zora Klimt", "Fay Gill"], "Reward models for robot locomotion"),
]
UNRELATED = [
    paper(9, ["Hal Ivy", "Ida Jun"], "Kernel methods for time series"),
    paper(10, ["Wei Wang", "Kai Lomb"], "Federated learning on mobile phones"),
]
PAPERS = [ROBOTS, LANGUAGE, JOHN, INITIAL, *ZORA]


def persons(out: Path) -> dict[str, frozenset[str]]:
    """Person IRI -> the arXiv ids of its papers, from a build folder's store."""
    store = stores.open_store(out)
    found: dict[str, set[str]] = defaultdict(set)
    for q in store.quads_for_pattern(None, DCTERMS.creator, None, None):
        found[q.object.value].add(q.subject.value.rsplit("arxiv-", 1)[1])
    for q in store.quads_for_pattern(None, None, FOAF.Person, None):
        found.setdefault(q.subject.value, set())
    return {p: frozenset(papers) for p, papers in sorted(found.items())}


def people(out: Path) -> list[list[str]]:
    """Each person's papers (as 2501.NNNNN ids), sorted: what a test compares."""
    return sorted(sorted(p) for p in persons(out).values())


def person(key: str) -> str:
    """A person's IRI, from its key (``wei wang~arxiv-2501.00010``)."""
    return Namer(DATA_BASE).person(key).value


def ids(*numbers: int) -> list[str]:
    return [f"2501.{n:05d}" for n in numbers]


@pytest.fixture
def built(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, Path]:
    """``in/a.jsonl`` (PAPERS) built into ``out/``; deltas are taken however much changes."""
    monkeypatch.setattr(kg.delta, "MOST", 1.0)
    inputs = tmp_path / "in"
    inputs.mkdir()
    write(inputs / "a.jsonl", PAPERS)
    out = tmp_path / "out"
    first, _ = run(inputs, out)
    assert first.delta is None
    return inputs, out


def test_the_first_build_splits_joins_and_keeps_apart(built: tuple[Path, Path]) -> None:
    _, out = built
    assert len(people(out)) == 10  # two Wei Wangs, John (and J.) Quixbrook, Zora Klimt, six coauthors
    found = persons(out)
    wei = {p: papers for p, papers in found.items() if p.startswith(person("wei wang"))}
    assert sorted(wei.values(), key=sorted) == [frozenset(ids(1)), frozenset(ids(2))]
    assert found[person("john quixbrook")] == frozenset(ids(4, 5))
    assert found[person("zora klimt")] == frozenset(ids(7, 8))


def test_a_delta_that_joins_two_persons_is_a_full_build(built: tuple[Path, Path], tmp_path: Path) -> None:
    inputs, out = built
    before = persons(out)
    assert person("wei wang") in before and len([p for p in before if "wei_wang" in p]) == 2
    write(inputs / "b.jsonl", [BRIDGE])  # shares a rare coauthor with each
    result, _ = run(inputs, out)
    assert result.delta is not None and result.delta["papers_made"] == 1
    check_same_as_full(inputs, out, tmp_path, result)
    after = persons(out)
    assert after[person("wei wang")] == frozenset(ids(1, 2, 3)), "joined under the earlier person's IRI"
    assert [p for p in after if "wei_wang" in p] == [person("wei wang")]
    store = stores.open_store(out)
    reasons = [q.object.value for q in store.quads_for_pattern(None, KG.identityReason, None, None)]
    assert any("share coauthor zed quorra" in r for r in reasons)
    assert any("share coauthor mia vantorp" in r for r in reasons)
    # and back: the bridge goes, the person splits again as the full build splits it
    (inputs / "b.jsonl").unlink()
    result, _ = run(inputs, out)
    assert result.delta is not None and result.delta["papers_removed"] == 1
    check_same_as_full(inputs, out, tmp_path, result)
    assert persons(out) == before


def test_a_delta_that_splits_a_person_is_a_full_build(built: tuple[Path, Path], tmp_path: Path) -> None:
    inputs, out = built
    assert persons(out)[person("john quixbrook")] == frozenset(ids(4, 5))
    write(inputs / "b.jsonl", [JANE])  # J. Quixbrook can now be John or Jane: no longer John's
    result, _ = run(inputs, out)
    assert result.delta is not None and result.delta["papers_made"] == 1
    check_same_as_full(inputs, out, tmp_path, result)
    after = persons(out)
    assert after[person("john quixbrook")] == frozenset(ids(4)), "the IRI stays with John's own paper"
    assert after[person("j. quixbrook")] == frozenset(ids(5))
    assert after[person("jane quixbrook")] == frozenset(ids(6))


def test_whole_builds_do_not_depend_on_the_order_of_their_inputs(tmp_path: Path) -> None:
    """The persons, their names, counts, reasons, shared names and coauthor links of the same papers
    however they are spread over files and ordered in them (the records' files and lines differ)."""
    papers = [*PAPERS, BRIDGE, JANE, *UNRELATED]
    kept = (
        DCTERMS.creator,
        KG.author,
        FOAF.name,
        KG.paperCount,
        KG.identityReason,
        KG.sharesName,
        KG.coauthor,
    )

    def facts(seed: int) -> set[str]:
        shuffled = random.Random(seed).sample(papers, len(papers))
        inputs, out = tmp_path / f"in{seed}", tmp_path / f"out{seed}"
        inputs.mkdir()
        cut = 1 + seed % (len(papers) - 1)
        write(inputs / "z.jsonl", shuffled[:cut])
        write(inputs / "a.jsonl", shuffled[cut:])
        run(inputs, out)
        store = stores.open_store(out)
        return {str(q) for p in kept for q in store.quads_for_pattern(None, p, None, None)}

    first = facts(0)
    assert any("sharesName" in t for t in first)  # the papers hold a shared name
    for seed in (1, 2, 3):
        assert facts(seed) == first


def test_a_person_keeps_its_iri_when_unrelated_papers_are_added(
    built: tuple[Path, Path], tmp_path: Path
) -> None:
    inputs, out = built
    before = persons(out)
    write(inputs / "b.jsonl", UNRELATED)  # new people, and a Wei Wang who shares nothing
    result, _ = run(inputs, out)
    assert result.delta is not None
    check_same_as_full(inputs, out, tmp_path, result)
    after = persons(out)
    assert {p: after[p] for p in before} == before
    new = set(after) - set(before)
    assert person("wei wang~arxiv-2501.00010") in new, "a new Wei Wang is anchored in its own paper"


THESAURUS = """label\treplace by
Wei Wang [paper arxiv:2501.00001]\tWei Wang (Tsinghua)
Wei Wang [with Mia Vantorp]\tWei Wang (Tsinghua)
Zora Klimt [paper arxiv:2501.00007]\tZora Klimt (Prague)
Zora Klimt [paper arxiv:2501.00008]\tZora Klimt (Oslo)
Nobody Here [with Someone Else]\tNobody (Nowhere)
"""


def test_the_thesaurus_splits_and_merges_persons(tmp_path: Path) -> None:
    inputs, out = tmp_path / "in", tmp_path / "out"
    inputs.mkdir()
    write(inputs / "a.jsonl", PAPERS)
    thesaurus = tmp_path / "thesaurus.txt"
    thesaurus.write_text(THESAURUS, encoding="utf-8")
    res = CliRunner().invoke(
        app, ["build", str(inputs), "--out", str(out), "-j", "1", "--thesaurus", str(thesaurus)]
    )
    assert res.exit_code == 0, res.output
    found = persons(out)
    # merged: the two Wei Wangs kg keeps apart are one person, keyed and named as the rows say
    assert found[person("wei wang (tsinghua)")] == frozenset(ids(1, 2))
    assert not any("wei_wang" in p and "tsinghua" not in p for p in found)
    # split: the rare name kg makes one person is two
    assert found[person("zora klimt (prague)")] == frozenset(ids(7))
    assert found[person("zora klimt (oslo)")] == frozenset(ids(8))
    store = stores.open_store(out)
    names = {q.object.value for q in store.quads_for_pattern(None, FOAF.name, None, None)}
    assert {"Wei Wang (Tsinghua)", "Zora Klimt (Prague)", "Zora Klimt (Oslo)"} <= names
    reasons = [q.object.value for q in store.quads_for_pattern(None, KG.identityReason, None, None)]
    assert any(r.startswith("thesaurus line 3 says") for r in reasons)
    # the row that picks nothing says so, at its line
    assert f"{thesaurus}:6: warning:" in res.output and "[thesaurus-unused]" in res.output
    assert res.output.count("[thesaurus-unused]") == 1


def test_a_delta_decides_again_only_the_part_of_a_block_its_names_meet(
    built: tuple[Path, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Wen Wang is in Wei Wang's block (a surname and an initial) but no name of his can be Wei
    Wang's: adding his paper reads none of the Wei Wang papers' entries, and the persons are a full
    build's.  A W. Wang, who could be either, brings both back into the decision."""
    inputs, out = built
    read: list[str] = []
    entries = kg.ledger.Ledger.entries

    def reading(self: kg.ledger.Ledger, keys: object = None) -> object:
        wanted = None if keys is None else sorted(keys)  # type: ignore[call-overload]
        read.extend(wanted or [])
        return entries(self, wanted)

    monkeypatch.setattr(kg.ledger.Ledger, "entries", reading)
    write(inputs / "b.jsonl", [paper(11, ["Wen Wang", "Lu Orr"], "Speech recognition for children")])
    result, _ = run(inputs, out)
    assert result.delta is not None and result.delta["papers_made"] == 1
    assert not {"arxiv-2501.00001", "arxiv-2501.00002"} & {k.rsplit("/", 1)[-1] for k in read}, read
    check_same_as_full(inputs, out, tmp_path, result)
    read.clear()
    write(inputs / "c.jsonl", [paper(12, ["W. Wang", "Lu Orr"], "Speech synthesis for children")])
    result, _ = run(inputs, out)
    assert result.delta is not None
    assert {"arxiv-2501.00001", "arxiv-2501.00002"} <= {k.rsplit("/", 1)[-1] for k in read}, read
    check_same_as_full(inputs, out, tmp_path, result)
