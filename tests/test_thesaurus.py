"""``kg build --thesaurus FILE``: a VOSviewer thesaurus merges, renames and drops methods and persons,
and the whole graph follows (mentions, counts, coauthor links, labels)."""

from __future__ import annotations

import json
from pathlib import Path

import pyshacl
import pytest
import rdflib
from rdflib import Literal, Namespace, URIRef
from typer.testing import CliRunner

from kg.assemble import Namer
from kg.build_folder import write_outputs
from kg.cli import app
from kg.curation import Curation
from kg.errors import IssueLog
from kg.extractors.methods import Concept
from kg.pipeline import BuildOptions, build
from kg.readers import thesaurus as thesauri
from kg.records import Location, Mention
from kg.vocab import DATA_BASE, METHOD_BASE, ontology_path
from tests.conftest import assert_isomorphic, to_rdflib

KG = Namespace("https://w3id.org/kg/ns#")
SCHEMA = Namespace("https://schema.org/")
SKOS = Namespace("http://www.w3.org/2004/02/skos/core#")
FOAF = Namespace("http://xmlns.com/foaf/0.1/")
DCT = Namespace("http://purl.org/dc/terms/")
M = Namespace(METHOD_BASE)
PERSON = Namespace(DATA_BASE + "person/")

A = """@article{a2023,
  title = {Fast adaptation for everyone},
  author = {Schuetze, Hinrich and Lovelace, Ada},
  year = {2023},
  abstract = {We fine-tune with LoRA and apply dropout and batch normalization in every block. We propose FooNet, a model for fast adaptation of large models.},
}
"""
B = """@article{b2024,
  title = {Stable training of long document models},
  author = {Sch{\\"u}tze, Hinrich and Turing, Alan and Anonymous},
  year = {2024},
  abstract = {Layer normalization and weight decay stabilise the training of our large models on long documents, and LoRA helps too.},
}
"""
THESAURUS = (
    "label\treplace by\n"
    "Hinrich Schuetze\tHinrich Schütze\n"  # merge two persons
    "Ada Lovelace\tAugusta Ada King\n"  # rename a person
    "Anonymous\t\n"  # drop a person
    "batch normalization\tlayer normalization\n"  # merge a known method into another
    "LoRA\tLow-Rank Adaptation (LoRA)\n"  # rename a known method
    "dropout\t\n"  # drop a known method
    "FooNet\tBarNet\n"  # rename an introduced method
)


@pytest.fixture
def inputs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "in"
    folder.mkdir()
    (folder / "a.bib").write_text(A, encoding="utf-8")
    (folder / "b.bib").write_text(B, encoding="utf-8")
    (tmp_path / "thesaurus.txt").write_text(THESAURUS, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    return Path("in")


def graph_of(out: Path) -> rdflib.Graph:
    return rdflib.Graph().parse(out / "graph.ttl")


def paper(g: rdflib.Graph, title: str) -> URIRef:
    (found,) = list(g.subjects(DCT.title, Literal(title)))
    return URIRef(found)


def names(g: rdflib.Graph) -> set[str]:
    return {str(n) for n in g.objects(None, FOAF.name)}


def test_cli_build_with_a_thesaurus(inputs: Path) -> None:
    result = CliRunner().invoke(
        app, ["build", "in", "--out", "out", "-j", "1", "--thesaurus", "thesaurus.txt"]
    )
    assert result.exit_code == 0, result.output
    assert "issues: none" in result.output
    g = graph_of(Path("out"))
    a = paper(g, "Fast adaptation for everyone")
    b = paper(g, "Stable training of long document models")
    # persons: merged, renamed, dropped; coauthor links and paper counts follow
    assert names(g) == {"Hinrich Schütze", "Augusta Ada King", "Alan Turing"}
    hinrich = URIRef(Namer().person("hinrich schütze").value)
    assert int(g.value(hinrich, KG.paperCount)) == 2
    assert set(g.objects(hinrich, KG.coauthor)) == {PERSON.augusta_ada_king, PERSON.alan_turing}
    assert set(g.objects(b, DCT.creator)) == {hinrich, PERSON.alan_turing}
    written = {str(w) for r in g.objects(a, KG.authorship) for w in g.objects(r, KG.nameAsWritten)}
    assert "Hinrich Schuetze" in written  # the name as written stays on the authorship
    # methods: merged, renamed, dropped
    assert (a, SCHEMA.mentions, M["layer-normalization"]) in g
    assert (a, SCHEMA.mentions, M["batch-normalization"]) not in g
    assert not list(g.subjects(SCHEMA.mentions, M.dropout))
    assert not list(g.objects(M.dropout, KG.countsByYear))
    assert (a, SCHEMA.mentions, M.lora) in g and (b, SCHEMA.mentions, M.lora) in g
    assert list(g.objects(M.lora, SKOS.prefLabel)) == [Literal("Low-Rank Adaptation (LoRA)", lang="en")]
    assert Literal("LoRA", lang="en") in set(g.objects(M.lora, SKOS.altLabel))
    layer_counts = {
        (str(g.value(n, KG.year)), int(g.value(n, KG.papers)))
        for n in g.objects(M["layer-normalization"], KG.countsByYear)
    }
    assert layer_counts == {("2023", 1), ("2024", 1)}
    # an introduced method renamed: the concept of the new name
    barnet = URIRef(DATA_BASE + "method/BarNet")  # a mixed-case name keeps its case in its key
    assert set(g.objects(a, KG.introduces)) == {barnet}
    assert list(g.objects(barnet, SKOS.prefLabel)) == [Literal("BarNet")]
    conforms, _, text = pyshacl.validate(
        g, shacl_graph=rdflib.Graph().parse(ontology_path("shapes.ttl")), advanced=True
    )
    assert conforms, text


def test_without_the_thesaurus_nothing_changes(inputs: Path) -> None:
    g = to_rdflib(build([inputs], BuildOptions(), IssueLog()))
    assert {"Ada Lovelace", "Anonymous"} <= names(g)
    # kg's own persons stage joins a rare name's transliterations (issue 32): one Hinrich, two papers
    (hinrich,) = [n for n in names(g) if n.startswith("Hinrich")]
    (person,) = g.subjects(FOAF.name, Literal(hinrich))
    assert int(g.value(person, KG.paperCount)) == 2
    assert list(g.subjects(SCHEMA.mentions, M.dropout))
    assert list(g.objects(M.lora, SKOS.prefLabel)) == [Literal("LoRA", lang="en")]


def test_bad_rows_are_warnings_and_the_build_goes_on(inputs: Path) -> None:
    Path("thesaurus.txt").write_text(
        "label\treplace by\n"
        "dropout\t\n"
        "no tab here\n"
        "a\tb\tc\n"
        "\tempty label\n"
        "DROPOUT\tsomething else\n"
        "Nobody At All\tSomeone\n",
        encoding="utf-8",
    )
    result = CliRunner().invoke(
        app, ["build", "in", "--out", "out", "-j", "1", "--thesaurus", "thesaurus.txt"]
    )
    assert result.exit_code == 0, result.output
    out = result.output
    assert (
        "thesaurus.txt:3: warning: row has no tab; skipped (expected 'label<TAB>replace by') [thesaurus-row]"
        in out
    )
    assert "thesaurus.txt:4: warning: row has 3 cells" in out
    assert "thesaurus.txt:5: warning: row has an empty label" in out
    assert (
        "thesaurus.txt:6: warning: 'DROPOUT' has a row already (line 2); this one is skipped [thesaurus-duplicate]"
        in out
    )
    assert "thesaurus.txt:7: warning: 'Nobody At All' is the name of no person" in out
    assert "[thesaurus-unused]" in out
    assert not list(graph_of(Path("out")).subjects(SCHEMA.mentions, M.dropout))  # the good row applies
    strict = CliRunner().invoke(
        app, ["build", "in", "--out", "out", "-j", "1", "--thesaurus", "thesaurus.txt", "--strict"]
    )
    assert strict.exit_code == 1


def test_a_missing_thesaurus_is_a_usage_error(inputs: Path) -> None:
    result = CliRunner().invoke(app, ["build", "in", "--out", "out", "--thesaurus", "nope.txt"])
    assert result.exit_code == 2


def test_reader_takes_vosviewer_files() -> None:
    log = IssueLog()
    rows = thesauri.parse("Label\tReplace by\r\n\nBERT\tbert\nX\t\n", "t.txt", log)
    assert [(e.label, e.replacement, e.at.line) for e in rows] == [("BERT", "bert", 3), ("X", "", 4)]
    assert not log.issues
    headless = thesauri.parse("BERT\tbert\n", "t.txt", log)
    assert [e.label for e in headless] == ["BERT"]
    assert [i.code for i in log.issues] == ["thesaurus-header"]


def test_undecodable_thesaurus_is_an_error(tmp_path: Path) -> None:
    path = tmp_path / "t.txt"
    path.write_bytes(b"label\treplace by\nM\xfcller\tMueller\n")
    log = IssueLog()
    read = thesauri.read(path, log, "t.txt")
    assert read.entries == () and log.has_errors
    assert [str(i) for i in log.issues] == [
        "t.txt:2: error: byte 0xfc is not UTF-8 (expected a UTF-8 thesaurus; re-save it as UTF-8) [not-utf8]"
    ]


def test_library_api_takes_a_thesaurus(inputs: Path) -> None:
    import kg

    result = kg.build(["in"], "out", thesaurus="thesaurus.txt")
    assert result.summary()["persons"] == 3
    assert "Augusta Ada King" in names(graph_of(Path("out")))


def test_the_thesaurus_is_part_of_the_cache_key(inputs: Path) -> None:
    """A changed thesaurus re-resolves every paper, with every file taken from the cache."""
    out = Path("out")
    first = build([inputs], BuildOptions(cache=out, thesaurus=Path("thesaurus.txt")), IssueLog())
    write_outputs(first, out)
    recorded = json.loads((out / "manifest.json").read_text(encoding="utf-8"))["resolution"]
    assert recorded
    assert "Augusta Ada King" in names(to_rdflib(first))
    Path("thesaurus.txt").write_text("label\treplace by\nAda Lovelace\tAda King\n", encoding="utf-8")
    second = build([inputs], BuildOptions(cache=out, thesaurus=Path("thesaurus.txt")), IssueLog())
    write_outputs(second, out)
    assert (second.files_read, second.files_reused) == (0, 2)
    assert json.loads((out / "manifest.json").read_text(encoding="utf-8"))["resolution"] not in ("", recorded)
    g = to_rdflib(second)
    assert "Ada King" in names(g) and "Augusta Ada King" not in names(g)
    assert list(g.subjects(SCHEMA.mentions, M.dropout))  # no longer dropped
    assert second.changes is not None and second.changes.updated == 2  # authors and mentions changed
    third = build([inputs], BuildOptions(cache=out), IssueLog())
    assert third.files_reused == 2
    assert_isomorphic(to_rdflib(third), to_rdflib(build([inputs], BuildOptions(), IssueLog())))


# --- resolution with hand-made mentions (named methods, whatever the extractor emits) -------------

CONCEPTS = {
    "lora": Concept("lora", "LoRA", ("LoRA", "low-rank adaptation"), ()),
    "transformer": Concept("transformer", "Transformer", ("Transformer", "Transformers"), ()),
}
AT = Location("x.bib", 2)


def named(text: str, key: str) -> Mention:
    return Mention("named-method", key, text, AT, "methods", 5, (("label", text), ("related", "")))


def curation(rows: str) -> Curation:
    log = IssueLog()
    entries = thesauri.parse("label\treplace by\n" + rows, "t.txt", log)
    assert not log.issues
    return Curation(thesauri.Thesaurus("t.txt", "0" * 64, tuple(entries)), CONCEPTS)


def test_named_methods_merge_rename_and_drop() -> None:
    c = curation("FooNet\tLoRA\nBarNet\tBar Network\nBazNet\t\nQuxNet\tTransformers\n")
    got = c.apply(
        [
            # keys as the methods extractor gives them (kg.extractors.methods.name_key: a mixed-case
            # name keeps its case)
            named("FooNets", "FooNet"),
            named("BarNet", "BarNet"),
            named("BazNet", "BazNet"),
            named("QUXNET", "quxnet"),
        ]
    )
    assert [(m.kind, m.key, m.text, m.get("label")) for m in got] == [
        ("method", "lora", "FooNets", ""),  # merged into a known method (matched on its key)
        ("named-method", "bar-network", "BarNet", "Bar Network"),  # renamed: the concept of the new name
        ("method", "transformer", "QUXNET", ""),  # a known method's other label (matched ignoring case)
    ]
    assert c.unused() == []


def test_introduced_methods_follow_the_thesaurus() -> None:
    c = curation("FooNet\tFoo Network\n")
    introduced = Mention(
        "introduced-method",
        "foonet",
        "FooNet",
        AT,
        "methods",
        3,
        (("full", ""), ("related", ""), ("short", "FooNet")),
    )
    (got,) = c.apply([introduced])
    assert (got.kind, got.key, got.text) == ("introduced-method", "foo-network", "Foo Network")


def test_known_rename_is_a_label_not_a_new_concept() -> None:
    c = curation("low-rank adaptation\tLow-Rank Adapters\n")
    mention = Mention("method", "lora", "LoRA", AT, "methods", 0)
    assert c.apply([mention]) == [mention]
    assert c.labels == {"lora": "Low-Rank Adapters"}


def test_two_spellings_merged_in_one_author_list_are_one_authorship() -> None:
    c = curation("Hinrich Schuetze\tHinrich Schütze\n")

    def author(name: str, index: int) -> Mention:
        return Mention(
            "author", name.casefold(), name, AT, "authors", index + 1, (("index", str(index)), ("name", name))
        )

    got = c.apply([author("Hinrich Schütze", 0), author("Ada Lovelace", 1), author("Hinrich Schuetze", 2)])
    assert [(m.key, m.get("name"), m.text) for m in got] == [
        ("hinrich schütze", "Hinrich Schütze", "Hinrich Schütze"),
        ("ada lovelace", "Ada Lovelace", "Ada Lovelace"),
    ]
    # a name a list repeats that the thesaurus does not touch is left as the list has it
    twice = c.apply([author("Ada Lovelace", 0), author("Ada Lovelace", 1)])
    assert len(twice) == 2
