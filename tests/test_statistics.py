"""The counts the build writes (kg:paperCount, kg:countsByYear) are what the graph's links say: a
concept's papers per year are the papers that mention it, are about it (tasks) or use it (datasets)."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
import rdflib
from rdflib import Literal, URIRef
from rdflib.namespace import FOAF, RDF, XSD

from kg.errors import IssueLog
from kg.pipeline import build
from kg.vocab import FABIO, KG, SCHEMA
from tests.conftest import CASES, build_case, to_rdflib

DCT = rdflib.Namespace("http://purl.org/dc/terms/")
K = rdflib.Namespace(KG.base)
CASE_DIRS = sorted(p for p in CASES.iterdir() if p.is_dir())


def _u(term: object) -> URIRef:
    return URIRef(term.value)  # type: ignore[attr-defined]


def counted(g: rdflib.Graph) -> tuple[dict[URIRef, int], dict[tuple[URIRef, str], int]]:
    """The persons' paper counts and the concepts' papers per year, as the graph states them."""
    persons = {URIRef(p): int(n) for p, n in g.subject_objects(K.paperCount)}  # type: ignore[arg-type]
    per_year: dict[tuple[URIRef, str], int] = {}
    for concept, node in g.subject_objects(K.countsByYear):
        assert (node, RDF.type, K.YearCount) in g
        (year,) = g.objects(node, K.year)
        (papers,) = g.objects(node, K.papers)
        assert isinstance(year, Literal) and year.datatype == XSD.gYear
        key = (URIRef(concept), str(year))
        assert key not in per_year, f"two counts of {key}"
        per_year[key] = int(papers)  # type: ignore[arg-type]
    return persons, per_year


def recounted(g: rdflib.Graph) -> tuple[dict[URIRef, int], dict[tuple[URIRef, str], int]]:
    """The same, counted from the papers' links."""
    persons = Counter(URIRef(p) for _, p in set(g.subject_objects(DCT.creator)))
    persons_by_key = {URIRef(p): persons[URIRef(p)] for p in g.subjects(RDF.type, FOAF.Person)}
    per_year: Counter[tuple[URIRef, str]] = Counter()
    for paper, year in g.subject_objects(_u(FABIO.hasPublicationYear)):
        concepts = (
            set(g.objects(paper, DCT.subject))
            | set(g.objects(paper, K.area))
            | set(g.objects(paper, _u(SCHEMA.mentions)))
            | set(g.objects(paper, _u(SCHEMA.about)))  # tasks
            | set(g.objects(paper, K.usesDataset))
        )
        for concept in concepts:
            per_year[URIRef(concept), str(year)] += 1
    return persons_by_key, dict(per_year)


@pytest.mark.parametrize("case", CASE_DIRS, ids=[p.name for p in CASE_DIRS])
def test_counts_are_the_links(case: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    result, _ = build_case(case, monkeypatch)
    g = to_rdflib(result)
    persons, per_year = counted(g)
    assert (persons, per_year) == recounted(g)
    assert persons or case.name == "daily", "every case but the daily feed (abstracts only) has authors"
    assert all(n >= 1 for n in persons.values())


def test_seed_counts(seed_graph: rdflib.Graph) -> None:
    persons, per_year = counted(seed_graph)
    assert (persons, per_year) == recounted(seed_graph)
    hofmann = next(p for p, n in seed_graph.subject_objects(FOAF.name) if str(n) == "Thomas Hofmann")
    assert persons[URIRef(hofmann)] == 18
    lg = URIRef("https://w3id.org/kg/arxiv/cs.LG")
    assert {year: n for (c, year), n in per_year.items() if c == lg} == {"2025": 4, "2026": 8}
    # methods are counted by their mentions, subjects by dcterms:subject
    assert any(str(c).startswith("https://w3id.org/kg/method/") for c, _ in per_year)


def test_a_person_listed_twice_on_a_paper_counts_it_once(tmp_path: Path) -> None:
    (tmp_path / "refs.bib").write_text(
        "@article{a, title = {One}, author = {Lovelace, Ada and Turing, Alan and Lovelace, Ada},"
        " year = {2024}, primaryClass = {cs.LG}}\n"
        "@article{b, title = {Two}, author = {Lovelace, Ada}, year = {2023}}\n",
        encoding="utf-8",
    )
    g = to_rdflib(build([tmp_path], log=IssueLog()))
    persons, per_year = counted(g)
    named = {str(g.value(p, FOAF.name)): n for p, n in persons.items()}
    assert named == {"Ada Lovelace": 2, "Alan Turing": 1}
    assert len(list(g.objects(None, K.position))) == 4  # three places on one paper, one on the other
    assert (persons, per_year) == recounted(g)
