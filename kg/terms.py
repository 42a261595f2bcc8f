"""The RDF terms of built data: IRIs minted from normalized keys under one base IRI, and literals.

IRIs of data come from normalized keys, never from random ids, and no entity is a blank node
(docs/architecture.md, "The graph").  The terms every paper repeats (its subjects, the methods it
mentions, positions and lines) are made once each: minting one quotes and checks an IRI, and a big
build mints them tens of millions of times.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from urllib.parse import quote as _quote

import pyoxigraph as ox

from kg.vocab import ARXIV_BASE, DATA_BASE, DATASET_BASE, METHOD_BASE, TASK_BASE, XSD

_SAFE = re.compile(r"[A-Za-z0-9._~-]*")


def quote(text: str, safe: str = "-._~") -> str:
    """``text`` percent-encoded for an IRI path segment (``urllib.parse.quote`` with ``safe``), at
    once when it has nothing to encode (most keys: paper keys, record keys, slugs).

    >>> quote("arxiv-2401.00001"), quote("zoë smith")
    ('arxiv-2401.00001', 'zo%C3%AB%20smith')
    """
    if safe == "-._~" and _SAFE.fullmatch(text):
        return text
    return _quote(text, safe=safe)


@dataclass(frozen=True, slots=True)
class Namer:
    """Mints the IRIs of built data under one base IRI.

    >>> Namer("https://example.org/").person("Zoë  Smith").value
    'https://example.org/person/zo%C3%AB_smith'
    >>> Namer("https://example.org/").person("Antonio Laverghetta Jr.").value
    'https://example.org/person/antonio_laverghetta_jr'
    """

    base: str = DATA_BASE

    def _iri(self, path: str) -> ox.NamedNode:
        # a Turtle prefixed name cannot end in "." ("person:x_jr\." is legal but rdflib, among
        # others, cannot read it): a last "." is written percent-encoded
        if path.endswith("."):
            path = path[:-1] + "%2E"
        return ox.NamedNode(self.base + path)

    def paper(self, key: str) -> ox.NamedNode:
        return self._iri("paper/" + quote(key, safe="-._~"))

    def person(self, key: str) -> ox.NamedNode:
        # the dots that end a name ("Jr.", "A. B.") are no part of its slug
        slug = "_".join(key.casefold().split()).rstrip(".")
        return self._iri("person/" + quote(slug or key, safe="-._~"))

    def authorship(self, paper_key: str, position: int) -> ox.NamedNode:
        return self._iri(f"authorship/{quote(paper_key, safe='-._~')}-{position}")

    def evidence(self, paper_key: str, key: str) -> ox.NamedNode:
        return self._iri(f"evidence/{quote(paper_key, safe='-._~')}-{quote(key, safe='-._~')}")

    def record(self, key: str) -> ox.NamedNode:
        return self._iri("record/" + quote(key, safe="-._~"))

    def area(self, key: str) -> ox.NamedNode:
        return self._iri("area/" + quote(key.replace("/", "--"), safe="-._~"))

    def area_scheme(self) -> ox.NamedNode:
        return self._iri("areas")

    def introduced(self, key: str) -> ox.NamedNode:
        return self._iri("method/" + quote(key, safe="-._~"))

    def introduced_scheme(self) -> ox.NamedNode:
        return self._iri("methods")

    def resource(self, key: str) -> ox.NamedNode:
        return self._iri("resource/" + quote(key, safe="-._~"))

    def resource_scheme(self) -> ox.NamedNode:
        """The scheme of the datasets papers introduce or use that no list holds."""
        return self._iri("datasets")

    def entity(self, kind: str, key: str) -> ox.NamedNode:
        """The node of an entity of another kind of fact (``<base>KIND/KEY``): what a kind that kg
        does not ship names its nodes by.

        >>> Namer("https://example.org/").entity("colour", "sky blue").value
        'https://example.org/colour/sky%20blue'
        """
        return self._iri(f"{quote(kind, safe='-._~')}/{quote(key, safe='-._~')}")

    def year_count(self, scheme: str, concept: ox.NamedNode, year: str) -> ox.NamedNode:
        """The count of a concept's papers in a year, named by the scheme (``arxiv``, ``area`` or
        ``method``) and the last segment of the concept's IRI (quoted already).

        >>> Namer().year_count("area", Namer().area("applications/chemistry"), "2024").value
        'https://w3id.org/kg/id/counts/area/applications--chemistry/2024'
        """
        return self._iri(f"counts/{scheme}/{concept.value.rsplit('/', 1)[1]}/{quote(year, safe='-._~')}")


@lru_cache(maxsize=4096)
def subject_iri(code: str) -> ox.NamedNode:
    """The concept of an arXiv category code (also of unknown codes, kept as written)."""
    return ox.NamedNode(ARXIV_BASE + quote(code, safe="-._~"))


@lru_cache(maxsize=4096)
def method_iri(slug: str) -> ox.NamedNode:
    """The concept of a known method of ``ontology/methods.ttl``."""
    return ox.NamedNode(METHOD_BASE + quote(slug, safe="-._~"))


@lru_cache(maxsize=8192)
def task_iri(slug: str) -> ox.NamedNode:
    """The concept of a known task of ``ontology/tasks.ttl``."""
    return ox.NamedNode(TASK_BASE + quote(slug, safe="-._~"))


@lru_cache(maxsize=8192)
def dataset_iri(slug: str) -> ox.NamedNode:
    """The concept of a known dataset of ``ontology/datasets.ttl``."""
    return ox.NamedNode(DATASET_BASE + quote(slug, safe="-._~"))


def string(text: str) -> ox.Literal:
    return ox.Literal(text)


@lru_cache(maxsize=1 << 16)
def integer(value: int) -> ox.Literal:
    return ox.Literal(str(value), datatype=XSD.integer)


@lru_cache(maxsize=1024)
def of_file(text: str) -> ox.Literal:
    """A string every record of a file repeats (its path, reader and SHA-256)."""
    return ox.Literal(text)


class Minted(dict[str, ox.NamedNode]):
    """Keys to IRIs, each minted on first use (quoting names is the costly part of minting)."""

    def __init__(self, mint: Callable[[str], ox.NamedNode]) -> None:
        super().__init__()
        self.mint = mint

    def __missing__(self, key: str) -> ox.NamedNode:
        node = self[key] = self.mint(key)
        return node
