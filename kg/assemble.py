"""Assembly: a resolved paper's triples, the kinds of fact it states included (``kg.kinds``).

The vocabulary is the one of docs/architecture.md, "The graph" (see ``ontology/kg.ttl``).  This module
and the kinds' declarations are the only places that make triples; IRIs of data come from normalized
keys under one base IRI (``kg.terms``), never from random ids, and no entity is a blank node.  The
nodes papers share (persons, counts, repositories ...) come from ``kg.shared``.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from functools import lru_cache

import pyoxigraph as ox

from kg import shared as shared_nodes
from kg.kinds import PaperNode, Shared, Triple
from kg.kinds.table import KINDS
from kg.ledger import Entry
from kg.persons import stage as persons_stage
from kg.resolve import Paper, Resolution
from kg.terms import Minted, Namer, integer, method_iri, of_file, string
from kg.vocab import DCTERMS, FABIO, KG, PROV, RDF, RDFS, SCHEMA, SKOS, XSD, ontology_path

__all__ = ["ONTOLOGY_FILES", "Namer", "Triple", "assemble", "ontology_triples", "paper_triples", "relabel"]

ONTOLOGY_FILES = ("arxiv-subjects.ttl", "methods.ttl")
"""Taxonomies that are part of every built graph (the whole scheme, not only what papers use)."""


def paper_triples(paper: Paper, namer: Namer, people: Minted) -> Iterator[Triple]:
    """A paper's own triples: its bibliographic fields and provenance, then each kind's facts
    (``people``: the persons' IRIs, minted once each)."""
    node = namer.paper(paper.key)
    yield Triple(node, RDF.type, SCHEMA.ScholarlyArticle)
    if paper.title:
        yield Triple(node, DCTERMS.title, string(paper.title.text))
    if paper.abstract:
        yield Triple(node, DCTERMS.abstract, string(paper.abstract.text))
    if paper.year:
        yield Triple(node, FABIO.hasPublicationYear, ox.Literal(paper.year.text, datatype=XSD.gYear))
    for identifier in paper.identifiers:
        yield Triple(node, DCTERMS.identifier, string(identifier))
    if paper.published:
        yield Triple(node, DCTERMS.issued, ox.Literal(paper.published, datatype=XSD.date))
    if paper.updated:
        yield Triple(node, DCTERMS.modified, ox.Literal(paper.updated, datatype=XSD.date))
    if paper.journal_ref:
        yield Triple(node, DCTERMS.bibliographicCitation, string(paper.journal_ref))
    if paper.comment:
        yield Triple(node, RDFS.comment, string(paper.comment))
    if paper.venue:
        yield Triple(node, KG.venue, string(paper.venue))
    for url in paper.links:
        yield Triple(node, SCHEMA.url, ox.Literal(url, datatype=XSD.anyURI))
    records: dict[tuple[str, int], str] = {}
    for source in paper.sources:
        record = namer.record(source.key)
        records[source.path, source.line] = source.key
        yield Triple(node, PROV.wasDerivedFrom, record)
        yield Triple(record, RDF.type, KG.SourceRecord)
        yield Triple(record, RDF.type, PROV.Entity)
        yield Triple(record, KG.sourceFile, of_file(source.path))
        yield Triple(record, KG.sourceLine, integer(source.line))
        yield Triple(record, KG.reader, of_file(source.reader))
        yield Triple(record, KG.fileDigest, of_file(source.digest))
    for reason in paper.merge_reasons:
        yield Triple(node, KG.mergeReason, string(reason))
    at = PaperNode(node, paper.key, namer, records, people)
    for kind in KINDS.values():
        yield from kind.paper_triples(paper, at)


def assemble(resolution: Resolution, namer: Namer) -> Iterator[Triple]:
    """Every triple of a resolution's papers and of the nodes they share (the taxonomies come from
    :func:`ontology_triples`), as a full build makes them: each paper's triples, then the shared
    nodes made from their ledger entries."""
    people = Minted(namer.person)
    names = {key: person.name for key, person in resolution.persons.items()}
    shared = Shared(names=names)
    stage = persons_stage.Stage()
    for paper in resolution.consume():
        yield from paper_triples(paper, namer, people)
        entry = Entry.of(paper)
        shared_nodes.add(shared, entry)
        shared_nodes.describe(shared, entry)
        stage.add(entry)
    persons = stage.decide()
    stage.pairs(persons, shared)
    yield from persons_stage.triples(persons, namer, names)
    yield from shared_nodes.triples(shared, namer)


@lru_cache(maxsize=1)
def ontology_triples() -> tuple[Triple, ...]:
    """The taxonomies shipped in ``ontology/`` that every graph includes."""
    triples: list[Triple] = []
    for name in ONTOLOGY_FILES:
        path = ontology_path(name)
        if not path.exists():
            continue
        with path.open("rb") as f:
            for t in ox.parse(f, format=ox.RdfFormat.TURTLE):
                triples.append(Triple(t.subject, t.predicate, t.object))  # default graph
    return tuple(triples)


def relabel(triples: Iterable[Triple], labels: Mapping[str, str]) -> Iterator[Triple]:
    """The taxonomy's triples with the known methods the user's thesaurus renames (``labels``: slug ->
    label, ``kg.curation.Curation.labels``) shown under their new label: it becomes the concept's
    ``skos:prefLabel`` (in the old one's language), and the old one an ``skos:altLabel`` (so the old
    name still finds the concept); an altLabel equal to the new label goes (SKOS keeps them apart)."""
    if not labels:
        yield from triples
        return
    renamed = {method_iri(slug).value: label for slug, label in labels.items()}
    for t in triples:
        label = renamed.get(t.subject.value) if isinstance(t.subject, ox.NamedNode) else None
        old = t.object
        if (
            label is None
            or not isinstance(old, ox.Literal)
            or t.predicate not in (SKOS.prefLabel, SKOS.altLabel)
        ):
            yield t
            continue
        if t.predicate == SKOS.prefLabel:
            language = old.language
            yield Triple(
                t.subject, SKOS.prefLabel, ox.Literal(label, language=language) if language else string(label)
            )
            if old.value != label:
                yield Triple(t.subject, SKOS.altLabel, old)
        elif old.value != label:
            yield t
