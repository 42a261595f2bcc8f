"""Every IRI the tool writes is spelled here, and only here.

Namespaces are *closed*: ``KG.coauthr`` raises AttributeError instead of
minting a new term.  ``KG`` mirrors ``ontology/kg.ttl`` (a test keeps the two
equal).  Terms are pyoxigraph ``NamedNode`` objects, which the assembler and
the store use directly; :func:`rdflib_namespaces` gives the same namespaces
for rdflib users.

>>> KG.coauthor.value
'https://w3id.org/kg/ns#coauthor'
>>> KG.coauthr
Traceback (most recent call last):
...
AttributeError: 'coauthr' is not a term of https://w3id.org/kg/ns# (closed namespace)
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

import pyoxigraph as ox


class ClosedNamespace:
    """A namespace with a fixed list of terms, each a pyoxigraph ``NamedNode``."""

    def __init__(self, base: str, names: Iterable[str]) -> None:
        self._terms = {name: ox.NamedNode(base + name) for name in names}
        # as plain attributes: a build reads tens of millions of them, and an attribute the object
        # has is found without calling __getattr__ (which is left for the names it does not have)
        vars(self).update(self._terms)
        self.base = base

    def __getattr__(self, name: str) -> ox.NamedNode:
        try:
            return self._terms[name]
        except KeyError:
            raise AttributeError(f"{name!r} is not a term of {self.base} (closed namespace)") from None

    def __getitem__(self, name: str) -> ox.NamedNode:
        return self.__getattr__(name)

    def __contains__(self, name: object) -> bool:
        return name in self._terms

    @property
    def names(self) -> list[str]:
        return sorted(self._terms)


KG_BASE = "https://w3id.org/kg/ns#"
"""Our own vocabulary, for what no standard vocabulary covers."""

DATA_BASE = "https://w3id.org/kg/id/"
"""Default base IRI of built data (papers, persons, records); ``kg build --base`` changes it."""

ARXIV_BASE = "https://w3id.org/kg/arxiv/"
"""The arXiv subject scheme; categories are ``ARXIV_BASE + code``."""

METHOD_BASE = "https://w3id.org/kg/method/"
"""The machine-learning method scheme."""

TASK_BASE = "https://w3id.org/kg/task/"
"""The task scheme (``ontology/tasks.ttl``); its concepts are ``TASK_BASE + slug``."""

DATASET_BASE = "https://w3id.org/kg/dataset/"
"""The dataset scheme (``ontology/datasets.ttl``); its concepts are ``DATASET_BASE + slug``."""

KG = ClosedNamespace(
    KG_BASE,
    [
        # classes
        "Authorship",
        "SourceRecord",
        "Method",
        "Task",
        "Link",
        "Evidence",
        "YearCount",
        "SharedName",
        # properties
        "coauthor",
        "authorship",
        "author",
        "position",
        "nameAsWritten",
        "area",
        "introduces",
        "primarySubject",
        "sourceFile",
        "sourceLine",
        "fileDigest",
        "reader",
        "mergeReason",
        "identityReason",
        "sharesName",
        "linkKind",
        "evidence",
        "evidenceOf",
        "matchedText",
        "offset",
        "inRecord",
        "shortForm",
        "owner",
        "affiliation",
        "venue",
        "paperCount",
        "countsByYear",
        "year",
        "papers",
        "generic",
        "modelFamily",
        "paradigm",
        "mainTask",
        "usesDataset",
        "benchmarkFor",
        "ambiguousName",
    ],
)

RDF = ClosedNamespace("http://www.w3.org/1999/02/22-rdf-syntax-ns#", ["type"])
RDFS = ClosedNamespace("http://www.w3.org/2000/01/rdf-schema#", ["label", "comment", "seeAlso"])
XSD = ClosedNamespace(
    "http://www.w3.org/2001/XMLSchema#",
    ["string", "integer", "gYear", "date", "dateTime", "anyURI", "double", "boolean"],
)
DCTERMS = ClosedNamespace(
    "http://purl.org/dc/terms/",
    ["title", "abstract", "creator", "subject", "identifier", "source", "issued", "modified", "bibliographicCitation"],
)
FOAF = ClosedNamespace("http://xmlns.com/foaf/0.1/", ["Person", "name"])
SCHEMA = ClosedNamespace(
    "https://schema.org/",
    [
        "ScholarlyArticle",
        "SoftwareSourceCode",
        "codeRepository",
        "mentions",
        "url",
        "name",
        "author",
        "identifier",
        "Dataset",
        "SoftwareApplication",
        "about",
    ],
)
SKOS = ClosedNamespace(
    "http://www.w3.org/2004/02/skos/core#",
    [
        "Concept",
        "ConceptScheme",
        "prefLabel",
        "altLabel",
        "hiddenLabel",
        "notation",
        "broader",
        "narrower",
        "related",
        "inScheme",
        "topConceptOf",
        "hasTopConcept",
        "definition",
        "scopeNote",
    ],
)
PROV = ClosedNamespace("http://www.w3.org/ns/prov#", ["Entity", "wasDerivedFrom"])
FABIO = ClosedNamespace("http://purl.org/spar/fabio/", ["hasPublicationYear"])
ARXIV = ClosedNamespace(ARXIV_BASE, ["scheme"])
METHOD = ClosedNamespace(METHOD_BASE, ["scheme"])

PREFIXES: dict[str, str] = {
    "arxiv": ARXIV_BASE,
    "dcterms": DCTERMS.base,
    "fabio": FABIO.base,
    "foaf": FOAF.base,
    "kg": KG_BASE,
    "method": METHOD_BASE,
    "task": TASK_BASE,
    "dataset": DATASET_BASE,
    "owl": "http://www.w3.org/2002/07/owl#",
    "prov": PROV.base,
    "rdf": RDF.base,
    "rdfs": RDFS.base,
    "schema": SCHEMA.base,
    "skos": SKOS.base,
    "xsd": XSD.base,
}
"""Stable prefixes used in every serialization (data prefixes are added per build)."""


def rdflib_namespaces() -> dict[str, object]:
    """The same namespaces as rdflib ``Namespace`` objects, for scripts and tests."""
    from rdflib import Namespace

    return {prefix: Namespace(iri) for prefix, iri in PREFIXES.items()}


def ontology_path(name: str) -> Path:
    """Path of a file of ``ontology/`` (shipped inside the package as ``kg/ontology``).

    >>> ontology_path("kg.ttl").name
    'kg.ttl'
    """
    return Path(__file__).resolve().parent / "ontology" / name
