"""The living vocabulary: a method one paper introduces and another names is one concept.

Paper A "we propose FooNet", paper B "we compare with FooNet" (in another file): B
``schema:mentions`` the concept A ``kg:introduces``, described once from all its mentions, counted
per year like known methods, and seen by the method queries.  The extractor's ``named-method``
mentions are made here by a stand-in extractor (``NAMES``), so that resolve and assemble are tested
whatever the methods extractor emits; the last test uses the real one.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace

import pyoxigraph as ox
import pyshacl
import pytest
import rdflib
from rdflib import RDF, Literal, Namespace, URIRef

from kg import extractors
from kg.build_folder import write_outputs
from kg.errors import IssueLog
from kg.extractors.methods import name_key
from kg.pipeline import BuildOptions, build
from kg.records import Location, Mention, Record
from kg.vocab import DATA_BASE, METHOD_BASE, ontology_path
from tests.conftest import to_rdflib
from tests.test_queries import run

KG = Namespace("https://w3id.org/kg/ns#")
SCHEMA = Namespace("https://schema.org/")
SKOS = Namespace("http://www.w3.org/2004/02/skos/core#")
# a mixed-case name keeps its case in its key (compared case-sensitively): method/FooNet
FOONET = URIRef(DATA_BASE + "method/FooNet")
DEEPONET = URIRef(DATA_BASE + "method/DeepONet")

_PROPOSE = re.compile(r"we propose (\w+)")
_NAMED = re.compile(r"(?:compare with|build on) (\w+)(?: and (\w+))?")


def _names(record: Record, log: IssueLog) -> Iterator[Mention]:
    """A stand-in for the methods extractor's open-vocabulary and introduced names."""
    span = record.abstract
    if span is None:
        return
    for m in _PROPOSE.finditer(span.text):
        detail = (("full", ""), ("related", "lora"), ("short", m[1]))
        yield Mention("introduced-method", name_key(m[1]), m[1], span.at, "names", m.start(1), detail)
    for m in _NAMED.finditer(span.text):
        for i in (1, 2):
            if m[i]:
                detail = (("label", m[i]), ("related", "transformer" if "Net" in m[i] else ""))
                yield Mention("named-method", name_key(m[i]), m[i], span.at, "names", m.start(i), detail)


NAMES = SimpleNamespace(NAME="names", KINDS=("named-method",), extract=_names)


def bib(key: str, title: str, abstract: str, year: int, author: str) -> str:
    return f"@article{{{key},\n  title = {{{title}}},\n  author = {{{author}}},\n  year = {{{year}}},\n  abstract = {{{abstract}}},\n}}\n"


A = bib(
    "a2023",
    "FooNet for everything",
    "In this paper we propose FooNet, a network that adapts models with low-rank updates and is fast.",
    2023,
    "Lovelace, Ada",
)
B = bib(
    "b2024",
    "A study of adapters",
    "We compare with FooNet and DeepONets on twelve benchmarks of physical simulation and report gains.",
    2024,
    "Turing, Alan",
)
C = bib(
    "c2024",
    "Operators again",
    "Here we build on FooNets and DeepONet for irregular meshes with graph layers and more data.",
    2024,
    "Hopper, Grace",
)


@pytest.fixture
def papers(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "in"
    folder.mkdir()
    (folder / "a.bib").write_text(A, encoding="utf-8")
    (folder / "b.bib").write_text(B + C, encoding="utf-8")
    monkeypatch.setitem(extractors.EXTRACTORS, "names", NAMES)  # type: ignore[arg-type]
    monkeypatch.chdir(tmp_path)
    return Path("in")


def paper_titled(g: rdflib.Graph, title: str) -> URIRef:
    found = [s for s in g.subjects(URIRef("http://purl.org/dc/terms/title"), Literal(title))]
    assert len(found) == 1, title
    return URIRef(found[0])


def test_a_named_method_is_the_concept_another_paper_introduces(papers: Path) -> None:
    result = build([papers], BuildOptions(), IssueLog())
    g = to_rdflib(result)
    a, b, c = (
        paper_titled(g, t) for t in ("FooNet for everything", "A study of adapters", "Operators again")
    )
    assert (a, KG.introduces, FOONET) in g
    assert (b, SCHEMA.mentions, FOONET) in g
    assert (c, SCHEMA.mentions, FOONET) in g  # "FooNets": one name, one key
    assert (a, SCHEMA.mentions, FOONET) not in g  # A introduces it and names it nowhere else
    # "DeepONets" and "DeepONet" are one concept, that no paper introduces
    assert (b, SCHEMA.mentions, DEEPONET) in g and (c, SCHEMA.mentions, DEEPONET) in g
    # described once, from all its mentions: the introducer's label wins over the names others wrote
    assert set(g.objects(FOONET, RDF.type)) == {KG.Method, SKOS.Concept}
    assert list(g.objects(FOONET, SKOS.prefLabel)) == [Literal("FooNet")]
    assert set(g.objects(FOONET, SKOS.inScheme)) == {URIRef(DATA_BASE + "methods")}
    assert set(g.objects(FOONET, SKOS.related)) == {
        URIRef(METHOD_BASE + "lora"),
        URIRef(METHOD_BASE + "transformer"),
    }
    assert list(g.objects(DEEPONET, SKOS.prefLabel)) == [Literal("DeepONet")]  # the least of the names
    assert set(g.objects(DEEPONET, RDF.type)) == {KG.Method, SKOS.Concept}
    # evidence, as for known methods
    evidence = [e for e in g.objects(b, KG.evidence) if (e, KG.evidenceOf, FOONET) in g]
    assert len(evidence) == 1
    assert g.value(evidence[0], KG.matchedText) == Literal("FooNet")
    assert int(g.value(evidence[0], KG.offset)) == B.split("abstract = {")[1].index("FooNet")
    # counted per year like known methods: B and C in 2024
    counts = {
        (str(g.value(n, KG.year)), int(g.value(n, KG.papers))) for n in g.objects(FOONET, KG.countsByYear)
    }
    assert counts == {("2024", 2)}
    conforms, _, text = pyshacl.validate(
        g, shacl_graph=rdflib.Graph().parse(ontology_path("shapes.ttl")), advanced=True
    )
    assert conforms, text


def _labels(result: object, column: str) -> list[str]:
    rows = result.rows  # type: ignore[attr-defined]
    index = result.variables.index(column)  # type: ignore[attr-defined]
    return [row[index].value for row in rows]


def test_method_queries_see_named_and_introduced_methods(papers: Path, tmp_path: Path) -> None:
    result = build([papers], BuildOptions(), IssueLog())
    store: ox.Store = result.store
    introduced = run(store, "introduced-methods")
    by_label = dict(zip(_labels(introduced, "label"), _labels(introduced, "mentions"), strict=True))
    assert by_label == {"FooNet": "2"}  # B and C mention it, A introduces it
    trend = run(store, "method-trend", method="FooNet")
    assert list(zip(_labels(trend, "period"), _labels(trend, "papers"), strict=True)) == [("2024", "2")]
    assert "DeepONet" in _labels(run(store, "method-trend"), "label")
    people = _labels(run(store, "method-people", method="DeepONet"), "name")
    assert sorted(people) == ["Alan Turing", "Grace Hopper"]
    assert "DeepONet" in _labels(run(store, "method-cooccurrence", method="FooNet"), "label")


def test_an_incremental_rebuild_keeps_the_named_methods(papers: Path, tmp_path: Path) -> None:
    """Mentions are cached per file: a rebuild that reads nothing gives the same concepts."""
    out = tmp_path / "out"
    first = build([papers], BuildOptions(cache=out), IssueLog())
    write_outputs(first, out)
    second = build([papers], BuildOptions(cache=out), IssueLog())
    assert (second.files_read, second.files_reused) == (0, 2)
    g = to_rdflib(second)
    assert (paper_titled(g, "A study of adapters"), SCHEMA.mentions, FOONET) in g
    assert len(g) == len(to_rdflib(first))


def test_end_to_end_with_the_methods_extractor(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Whatever the shipped extractor emits: a name it finds introduced in one paper and named in
    another is one concept."""
    folder = tmp_path / "in"
    folder.mkdir()
    (folder / "a.bib").write_text(
        bib(
            "a",
            "ZetaFormer: Sparse Attention for Long Documents",
            "We propose ZetaFormer, a transformer with sparse attention for long documents.",
            2023,
            "Lovelace, Ada",
        ),
        encoding="utf-8",
    )
    (folder / "b.bib").write_text(
        bib(
            "b",
            "Long documents revisited",
            "Our approach outperforms ZetaFormer and Longformer on long document classification benchmarks.",
            2024,
            "Turing, Alan",
        ),
        encoding="utf-8",
    )
    monkeypatch.chdir(tmp_path)
    g = to_rdflib(build([Path("in")], BuildOptions(), IssueLog()))
    a = paper_titled(g, "ZetaFormer: Sparse Attention for Long Documents")
    b = paper_titled(g, "Long documents revisited")
    introduced = set(g.objects(a, KG.introduces))
    assert URIRef(DATA_BASE + "method/ZetaFormer") in introduced
    named = {m for m in g.objects(b, SCHEMA.mentions) if str(m).startswith(DATA_BASE)}
    if not named:
        pytest.skip("the methods extractor of this tree emits no named-method mentions yet")
    zetaformer = URIRef(DATA_BASE + "method/ZetaFormer")
    assert zetaformer in named
    assert list(g.objects(zetaformer, SKOS.prefLabel)) == [Literal("ZetaFormer")]
    assert URIRef(METHOD_BASE + "transformer") in set(g.objects(zetaformer, SKOS.related))


def test_a_paper_names_its_own_method_under_its_other_form() -> None:
    """Within one paper, "Foo Bar Network (FBN)" introduced and "Foo Bar Network" named are one concept,
    which the paper introduces (its own name is not also a mention of it)."""
    from kg.assemble import Namer, assemble
    from kg.records import Location, SourceFile, Span
    from kg.resolve import Resolver

    at = Location("a.bib", 1)
    record = Record(
        "bibtex", SourceFile("a.bib", "1" * 64, "bibtex"), at, title=Span("A title of four words", at)
    )
    introduced = Mention(
        "introduced-method",
        "fbn",
        "FBN",
        at,
        "methods",
        0,
        (("full", "Foo Bar Network"), ("related", ""), ("short", "FBN")),
    )
    named = Mention(
        "named-method",
        "foo-bar-network",
        "Foo Bar Network",
        at,
        "methods",
        40,
        (("label", "Foo Bar Network"), ("related", "")),
    )
    other = Mention(
        "named-method", "bazformer", "BazFormer", at, "methods", 60, (("label", "BazFormer"), ("related", ""))
    )
    resolver = Resolver(IssueLog())
    resolver.add(record, [introduced, named, other])
    resolution = resolver.resolve()
    (paper,) = resolution.papers
    assert sorted((m.kind, m.key) for m in paper.mentions) == [
        ("introduced-method", "fbn"),
        ("named-method", "bazformer"),
    ]
    triples = list(assemble(resolution, Namer()))
    fbn = ox.NamedNode(DATA_BASE + "method/fbn")
    mentioned = {t.object for t in triples if t.predicate.value == str(SCHEMA.mentions)}
    introduced = {t.object for t in triples if t.predicate.value == str(KG.introduces)}
    assert fbn in introduced and fbn not in mentioned
    assert ox.NamedNode(DATA_BASE + "method/foo-bar-network") not in mentioned
    labels = [
        t.object.value for t in triples if t.subject == fbn and t.predicate.value == str(SKOS.prefLabel)
    ]
    assert labels == ["FBN"]  # the introducing mention names it


@pytest.mark.parametrize("order", [(0, 1, 2), (2, 1, 0), (1, 0, 2)])
def test_the_introducer_names_the_concept_whatever_the_order(order: tuple[int, int, int]) -> None:
    from kg.kinds import mention_rows
    from kg.kinds.methods import Introduced

    at = Location("a.bib", 1)
    mentions = [
        Mention("named-method", "foonet", "FOONET", at, "m", 0, (("label", "FOONET"), ("related", "lora"))),
        Mention(
            "introduced-method",
            "foonet",
            "FooNet",
            at,
            "m",
            0,
            (("full", ""), ("related", ""), ("short", "FooNet")),
        ),
        Mention(
            "named-method", "foonet", "Foonets", at, "m", 0, (("label", "Foonet"), ("related", "transformer"))
        ),
    ]
    summaries: dict[tuple[str, str], Introduced] = {}
    for i in order:
        Introduced.add(summaries, mentions[i].kind, mention_rows([mentions[i]])[0])
    (summary,) = summaries.values()
    assert (summary.label, summary.introduced, summary.related) == ("FooNet", True, {"lora", "transformer"})


def test_method_lookup_by_key_under_another_base(papers: Path) -> None:
    """A named or introduced method is found by its key whatever the build's base IRI (the lookup
    derives it from the scheme of introduced methods), and by its label."""
    result = build([papers], BuildOptions(base="https://example.org/kg/"), IssueLog())
    # by its label as written (a mixed-case name's key keeps its case: method/FooNet)
    trend = run(result.store, "method-trend", method="FooNet")
    assert _labels(trend, "concept") == ["https://example.org/kg/method/FooNet"]
    assert _labels(run(result.store, "method-trend", method="Foo Net"), "concept") == []
