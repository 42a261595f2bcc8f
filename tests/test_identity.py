"""One arXiv paper from four bibliographic formats and a scraped page is one paper."""

from __future__ import annotations

from pathlib import Path

import pytest
import rdflib
from rdflib import Literal, URIRef

from tests.conftest import CASES, build_case, to_rdflib

KG = rdflib.Namespace("https://w3id.org/kg/ns#")
PROV = rdflib.Namespace("http://www.w3.org/ns/prov#")
SCHEMA = rdflib.Namespace("https://schema.org/")
FOAF = rdflib.Namespace("http://xmlns.com/foaf/0.1/")
DCTERMS = rdflib.namespace.DCTERMS


def test_five_sources_one_paper(monkeypatch: pytest.MonkeyPatch) -> None:
    result, log = build_case(CASES / "five-sources", monkeypatch)
    assert not log.issues
    g = to_rdflib(result)
    papers = list(g.subjects(rdflib.RDF.type, SCHEMA.ScholarlyArticle))
    assert papers == [URIRef("https://w3id.org/kg/id/paper/arxiv-2401.01234")]
    [paper] = papers
    readers = {str(g.value(r, KG.reader)) for r in g.objects(paper, PROV.wasDerivedFrom)}
    assert readers == {"arxiv-atom", "arxiv-oai", "arxiv-jsonl", "bibtex", "profile"}
    roles = sorted((int(g.value(r, KG.position)), r) for r in g.objects(paper, KG.authorship))
    names = [str(g.value(g.value(r, KG.author), FOAF.name)) for _, r in roles]
    assert names == ["Ada Lovelace", "Alan Turing", "Zoë Müller"]
    assert len(set(g.subjects(rdflib.RDF.type, FOAF.Person))) == 3
    assert g.value(paper, DCTERMS.title) == Literal(
        "Low-Rank Adapters Everywhere: A Study of LoRA in Continual Learning"
    )
    assert g.value(paper, KG.primarySubject) == URIRef("https://w3id.org/kg/arxiv/cs.LG")
    assert set(g.objects(paper, DCTERMS.subject)) == {
        URIRef("https://w3id.org/kg/arxiv/cs.LG"),
        URIRef("https://w3id.org/kg/arxiv/stat.ML"),
    }
    assert g.value(roles[0][1], KG.affiliation) == Literal("Analytical Engine Society")
    assert str(g.value(paper, DCTERMS.issued)) == "2024-01-03"
    assert str(g.value(paper, DCTERMS.modified)) == "2024-03-05"
    # versions v1/v2 are one paper; every identifier stays
    assert {str(o) for o in g.objects(paper, DCTERMS.identifier)} >= {"arxiv:2401.01234v2", "doi:10.1234/lora.2024.1"}


def test_different_arxiv_ids_are_never_merged(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Same abstract, different arXiv ids: two papers, and a warning says why."""
    abstract = "A shared abstract that two distinct arXiv entries happen to carry, word for word, in this test."
    lines = [
        f'{{"id": "2401.0000{i}", "title": "Paper {i} of two", "authors": "A B", "categories": "cs.LG", '
        f'"abstract": "{abstract}", "versions": [{{"version": "v1", "created": "Mon, 1 Jan 2024 00:00:00 GMT"}}], '
        f'"authors_parsed": [["B", "A", ""]]}}'
        for i in (1, 2)
    ]
    (tmp_path / "two.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    (tmp_path / "INPUT").write_text("")
    monkeypatch.chdir(tmp_path)
    from kg.errors import IssueLog
    from kg.pipeline import build

    log = IssueLog()
    result = build([Path("two.jsonl")], log=log)
    assert result.summary()["papers"] == len(result.manifest.papers) == 2
    assert "identity-conflict" in log.counts()
