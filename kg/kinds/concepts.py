"""arXiv subjects and conference areas: the schemes papers are filed under, with papers per year.

A subject code the shipped taxonomy lacks is kept as a concept of its own (and warned about by its
extractor); an area "Parent · Child" is a concept under its parent, in the scheme ``<base>areas``.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from functools import lru_cache
from typing import Any

import pyoxigraph as ox

from kg.kinds import Kind, Listing, PaperNode, Shared, SumKey, Triple, count_sums, count_triples
from kg.terms import Namer, string, subject_iri
from kg.vocab import ARXIV_BASE, DCTERMS, KG, RDF, SKOS


@lru_cache(maxsize=1)
def known_codes() -> frozenset[str]:
    """The codes of the shipped arXiv taxonomy."""
    from kg.extractors.subjects import codes  # the extractors' package loads spaCy: only when building

    return frozenset(codes().values())


def unknown_subject_triples(code: str) -> Iterator[Triple]:
    """An arXiv code the taxonomy does not have, kept as written."""
    node = subject_iri(code)
    yield Triple(node, RDF.type, SKOS.Concept)
    yield Triple(node, SKOS.notation, string(code))
    yield Triple(node, SKOS.prefLabel, string(code))
    yield Triple(node, SKOS.inScheme, ox.NamedNode(ARXIV_BASE + "scheme"))


class Subjects(Kind):
    """``paper dcterms:subject arxiv:CODE`` (and ``kg:primarySubject``)."""

    name = "subject"
    listing = Listing("subject", "subjects", ("dcterms:subject",), topics=("dcterms:subject",), precedence=2)

    def paper_triples(self, paper: Any, at: PaperNode) -> Iterator[Triple]:
        for code in paper.subjects:
            yield Triple(at.node, DCTERMS.subject, subject_iri(code))
        if paper.primary_subject:
            yield Triple(at.node, KG.primarySubject, subject_iri(paper.primary_subject))

    def keep(self, paper: Any) -> Any:
        return list(paper.subjects)

    def sums(self, kept: Any, year: str, dropped: bool) -> Iterator[tuple[SumKey, str]]:
        if dropped:
            return
        yield from count_sums("arxiv", kept, year)
        known = known_codes()
        for code in kept:
            if known and code not in known:
                yield ("unknown-subject", code, ""), ""

    def shared_triples(self, shared: Shared, namer: Namer) -> Iterator[Triple]:
        for code, _, _, _ in shared.of("unknown-subject"):
            yield from unknown_subject_triples(code)
        yield from count_triples(shared, "arxiv", subject_iri, namer)


class Areas(Kind):
    """``paper kg:area concept``; each area a concept under its parent in the areas scheme."""

    name = "area"
    listing = Listing("area", "areas", ("kg:area",), precedence=3)
    whole = ("area",)

    def paper_triples(self, paper: Any, at: PaperNode) -> Iterator[Triple]:
        for area in paper.areas:
            yield Triple(at.node, KG.area, at.namer.area(area.key))

    def keep(self, paper: Any) -> Any:
        return [[a.key, a.label, a.parent_key, a.parent_label] for a in paper.areas]

    def sums(self, kept: Any, year: str, dropped: bool) -> Iterator[tuple[SumKey, str]]:
        for key, label, parent_key, parent_label in kept:  # a dropped paper's areas too, as resolved
            yield ("area", key, ""), json.dumps([label, parent_key, parent_label], ensure_ascii=False)
        if not dropped:
            yield from count_sums("area", (row[0] for row in kept), year)

    def shared_triples(self, shared: Shared, namer: Namer) -> Iterator[Triple]:
        areas = [(key, *json.loads(detail)) for key, _, _, detail in shared.of("area")]
        if areas:
            yield from _areas(areas, namer)
        yield from count_triples(shared, "area", namer.area, namer)


def _areas(areas: list[tuple[str, str, str, str]], namer: Namer) -> Iterator[Triple]:
    scheme = namer.area_scheme()
    yield Triple(scheme, RDF.type, SKOS.ConceptScheme)
    yield Triple(scheme, SKOS.prefLabel, ox.Literal("Conference areas", language="en"))
    parents: dict[str, str] = {}
    for key, label, parent_key, parent_label in areas:
        parents.setdefault(parent_key, parent_label)
        node = namer.area(key)
        yield Triple(node, RDF.type, SKOS.Concept)
        # two areas share a leaf ("Everything Else" under many parents): the label every view and
        # query shows is the whole "Parent · Child" (SKOS wants prefLabels unique in a scheme);
        # the leaf alone is an altLabel
        yield Triple(node, SKOS.prefLabel, string(f"{parent_label} · {label}"))
        yield Triple(node, SKOS.altLabel, string(label))
        yield Triple(node, SKOS.inScheme, scheme)
        yield Triple(node, SKOS.broader, namer.area(parent_key))
        yield Triple(namer.area(parent_key), SKOS.narrower, node)
    for key in sorted(parents):
        node = namer.area(key)
        yield Triple(node, RDF.type, SKOS.Concept)
        yield Triple(node, SKOS.prefLabel, string(parents[key]))
        yield Triple(node, SKOS.inScheme, scheme)
        yield Triple(node, SKOS.topConceptOf, scheme)
        yield Triple(scheme, SKOS.hasTopConcept, node)
