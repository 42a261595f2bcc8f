"""The seed pages build into the graph the foundation issue asks for."""

from __future__ import annotations

import re
from pathlib import Path

import rdflib
from rdflib import Literal, URIRef
from rdflib.namespace import DCTERMS, FOAF, RDF, SKOS, XSD

from kg.pipeline import Build
from tests.conftest import SEEDS

KG = rdflib.Namespace("https://w3id.org/kg/ns#")
SCHEMA = rdflib.Namespace("https://schema.org/")
PROV = rdflib.Namespace("http://www.w3.org/ns/prov#")
FABIO = rdflib.Namespace("http://purl.org/spar/fabio/")
ARXIV = "https://w3id.org/kg/arxiv/"
PROFILE = SEEDS / "000_c075b9e3b81b6c13.txt"
LISTING = SEEDS / "002_850f322a07e45cb7.txt"
PARADOX = "A persistent paradox in continual learning"


def papers(g: rdflib.Graph) -> set[URIRef]:
    return {s for s in g.subjects(RDF.type, SCHEMA.ScholarlyArticle) if isinstance(s, URIRef)}


def paper_with_abstract(g: rdflib.Graph, start: str) -> URIRef:
    found = [p for p in papers(g) if str(g.value(p, DCTERMS.abstract)).startswith(start)]
    assert len(found) == 1, (start, found)
    return found[0]


def authors_in_order(g: rdflib.Graph, paper: URIRef) -> list[str]:
    roles = [(int(g.value(r, KG.position)), r) for r in g.objects(paper, KG.authorship)]
    return [str(g.value(g.value(r, KG.author), FOAF.name)) for _, r in sorted(roles)]


def profile_records() -> list[tuple[int, str, str, str]]:
    """(year, title, abstract, subject) of every profile record, read straight from the page."""
    lines = [ln.strip() for ln in PROFILE.read_text(encoding="utf-8").splitlines() if ln.strip()]
    out = []
    for i, line in enumerate(lines):
        m = re.fullmatch(r"arXiv(\d{4})", line)
        if m:
            out.append((int(m.group(1)), lines[i + 1], lines[i + 2], lines[i + 3].rstrip("↗")))
    return out


def listing_records() -> list[tuple[str, list[str], str]]:
    """(area, authors, abstract) of every listing record, read straight from the page."""
    lines = [ln.strip() for ln in LISTING.read_text(encoding="utf-8").splitlines() if ln.strip()][1:]
    return [
        (lines[i], [a.strip() for a in lines[i + 1].split(",")], lines[i + 2])
        for i in range(0, len(lines), 3)
    ]


def test_counts(seed_build: Build) -> None:
    summary = seed_build.summary()
    assert summary["files"] == 3
    assert summary["records"] == 158
    assert summary["papers"] == 157
    assert summary["persons"] == 70
    assert summary["coauthor_pairs"] == 119
    assert not seed_build.log.has_errors


def test_graph_counts(seed_graph: rdflib.Graph) -> None:
    assert len(papers(seed_graph)) == 157
    assert len(set(seed_graph.subjects(RDF.type, FOAF.Person))) == 70
    pairs = {frozenset((a, b)) for a, b in seed_graph.subject_objects(KG.coauthor)}
    assert len(pairs) == 119
    for a, b in seed_graph.subject_objects(KG.coauthor):
        assert (b, KG.coauthor, a) in seed_graph


def test_every_profile_record(seed_graph: rdflib.Graph) -> None:
    records = profile_records()
    assert len(records) == 18
    for year, title, abstract, subject in records:
        paper = paper_with_abstract(seed_graph, abstract[:80])
        assert seed_graph.value(paper, DCTERMS.title) == Literal(title)
        assert seed_graph.value(paper, FABIO.hasPublicationYear) == Literal(str(year), datatype=XSD.gYear)
        assert (paper, DCTERMS.subject, URIRef(ARXIV + subject)) in seed_graph
        assert (URIRef(ARXIV + subject), SKOS.notation, Literal(subject)) in seed_graph
        assert "Thomas Hofmann" in authors_in_order(seed_graph, paper)


def test_every_listing_record(seed_graph: rdflib.Graph) -> None:
    records = listing_records()
    assert len(records) == 20
    for area, authors, abstract in records:
        paper = paper_with_abstract(seed_graph, abstract[:80])
        assert authors_in_order(seed_graph, paper) == authors
        parent_label, child_label = area.split(" · ")
        [concept] = list(seed_graph.objects(paper, KG.area))
        # the label users see tells "Everything Else" under two parents apart; the leaf is an altLabel
        assert seed_graph.value(concept, SKOS.prefLabel) == Literal(area)
        assert seed_graph.value(concept, SKOS.altLabel) == Literal(child_label)
        parent = seed_graph.value(concept, SKOS.broader)
        assert seed_graph.value(parent, SKOS.prefLabel) == Literal(parent_label)


def test_merged_paper(seed_graph: rdflib.Graph) -> None:
    paper = paper_with_abstract(seed_graph, PARADOX)
    assert seed_graph.value(paper, DCTERMS.title) == Literal(
        "Heads collapse, features stay: Why Replay needs big buffers"
    )
    assert seed_graph.value(paper, FABIO.hasPublicationYear) == Literal("2025", datatype=XSD.gYear)
    assert set(seed_graph.objects(paper, DCTERMS.subject)) == {URIRef(ARXIV + "cs.LG")}
    assert authors_in_order(seed_graph, paper) == ["Giulia Lanzillotta", "Damiano Meier", "Thomas Hofmann"]
    [area] = list(seed_graph.objects(paper, KG.area))
    assert seed_graph.value(area, SKOS.prefLabel) == Literal("Deep Learning · Everything Else")
    sources = {
        (
            str(seed_graph.value(r, KG.sourceFile)),
            int(seed_graph.value(r, KG.sourceLine)),
            str(seed_graph.value(r, KG.reader)),
        )
        for r in seed_graph.objects(paper, PROV.wasDerivedFrom)
    }
    assert sources == {
        ("seeds/000_c075b9e3b81b6c13.txt", 113, "profile"),
        ("seeds/002_850f322a07e45cb7.txt", 3, "listing"),
    }
    assert len(list(seed_graph.objects(paper, KG.mergeReason))) == 1


def test_whole_taxonomy_present(seed_graph: rdflib.Graph) -> None:
    codes = {
        str(o)
        for s, o in seed_graph.subject_objects(SKOS.notation)
        if str(s).startswith(ARXIV) and "/" not in str(s)[len(ARXIV) :]
    }
    assert {"cs.LG", "astro-ph.GA", "math.OC", "q-bio.NC", "econ.EM", "eess.SP"} <= codes
    assert len(codes) >= 155
    lg = URIRef(ARXIV + "cs.LG")
    assert seed_graph.value(lg, SKOS.prefLabel) == Literal("Machine Learning", lang="en")
    broader = set(seed_graph.objects(lg, SKOS.broader))
    assert {URIRef(ARXIV + "archive/cs"), URIRef(ARXIV + "group/cs")} <= broader


def test_every_record_has_provenance(seed_graph: rdflib.Graph) -> None:
    records = {r for p in papers(seed_graph) for r in seed_graph.objects(p, PROV.wasDerivedFrom)}
    assert len(records) == 158
    for r in records:
        assert Path(str(seed_graph.value(r, KG.sourceFile))).name.startswith(("000_", "002_", "003_"))
        assert int(seed_graph.value(r, KG.sourceLine)) >= 1


def test_seventeen_repositories_on_the_right_papers(seed_graph: rdflib.Graph) -> None:
    repos = set(seed_graph.subjects(RDF.type, SCHEMA.SoftwareSourceCode))
    assert len(repos) == 17
    for paper, repo in seed_graph.subject_objects(SCHEMA.codeRepository):
        assert repo in repos
        abstract = str(seed_graph.value(paper, DCTERMS.abstract)).lower().replace("github. com", "github.com")
        owner_repo = str(repo).removeprefix("https://github.com/")
        assert owner_repo in abstract, (paper, repo)
    assert len(set(seed_graph.objects(None, SCHEMA.codeRepository))) == 17
