"""Code repositories and other links a paper names.

A repository has one lower-case IRI (GitHub names are case-insensitive) and is described from every
mention of it, in whatever order the papers come: the least owner and name, the least URL as
written.  Other links are typed by their least kind.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pyoxigraph as ox

from kg.kinds import (
    Kind,
    Listing,
    PaperNode,
    Shared,
    Triple,
    detail_of,
    first_each,
    mention_rows,
    mentions_of,
)
from kg.terms import Namer, string
from kg.vocab import KG, RDF, RDFS, SCHEMA, XSD


@dataclass(slots=True)
class Repository:
    """What a repository's mentions say of it: the least owner and name, the least URL."""

    owner_name: tuple[str, str]
    url: str

    @staticmethod
    def add(summaries: dict[tuple[str, str], Any], key: str, owner: str, name: str, url: str) -> None:
        seen = summaries.get(("repository", key))
        if seen is None:
            summaries["repository", key] = Repository((owner, name), url)
        else:
            seen.owner_name = min(seen.owner_name, (owner, name))
            seen.url = min(seen.url, url)

    def triples(self, key: str) -> Iterator[Triple]:
        node = ox.NamedNode(key)
        owner, name = self.owner_name
        yield Triple(node, RDF.type, SCHEMA.SoftwareSourceCode)
        yield Triple(node, SCHEMA.name, string(f"{owner}/{name}"))
        yield Triple(node, KG.owner, string(owner))
        # every repository has its URL (as written when given, else its IRI): a query joining on it finds all
        yield Triple(node, SCHEMA.url, ox.Literal(self.url or key, datatype=XSD.anyURI))


class Repositories(Kind):
    """``paper schema:codeRepository <https://github.com/owner/repo>``; the repository described."""

    name = "repository"
    listing = Listing(
        "repository", "repositories", ("schema:codeRepository",), thresholded=False, precedence=4
    )

    def paper_triples(self, paper: Any, at: PaperNode) -> Iterator[Triple]:
        for m in first_each(mentions_of(paper, self.name)):
            yield Triple(at.node, SCHEMA.codeRepository, ox.NamedNode(m.key))

    def keep(self, paper: Any) -> Any:
        return mention_rows(mentions_of(paper, self.name))

    def described(self, kept: Any) -> Iterator[tuple[str, str]]:
        return ((self.name, row[0]) for row in kept)

    def describe(self, kept: Any, shared: Shared, only: set[tuple[str, str]] | None) -> None:
        for row in kept:
            if only is None or (self.name, row[0]) in only:
                owner, name, url = (detail_of(row, k) for k in ("owner", "name", "url"))
                Repository.add(shared.described, row[0], owner, name, url)

    def holders(self, namer: Namer, key: str) -> Iterator[tuple[ox.NamedNode, ox.NamedNode]]:
        yield SCHEMA.codeRepository, ox.NamedNode(key)

    def shared_triples(self, shared: Shared, namer: Namer) -> Iterator[Triple]:
        for (kind, key), summary in sorted(shared.described.items()):
            if kind == self.name:
                yield from summary.triples(key)


def link_triples(key: str, kind: str) -> Iterator[Triple]:
    node = ox.NamedNode(key)
    yield Triple(node, RDF.type, KG.Link)
    yield Triple(node, KG.linkKind, string(kind))


class Links(Kind):
    """``paper rdfs:seeAlso <url>``; the link typed (project page, Hugging Face model ...)."""

    name = "link"

    def paper_triples(self, paper: Any, at: PaperNode) -> Iterator[Triple]:
        for m in first_each(mentions_of(paper, self.name)):
            yield Triple(at.node, RDFS.seeAlso, ox.NamedNode(m.key))

    def keep(self, paper: Any) -> Any:
        return [[m.key, m.get("kind", "other")] for m in mentions_of(paper, self.name)]

    def described(self, kept: Any) -> Iterator[tuple[str, str]]:
        return ((self.name, key) for key, _ in kept)

    def describe(self, kept: Any, shared: Shared, only: set[tuple[str, str]] | None) -> None:
        for key, kind in kept:
            if only is None or (self.name, key) in only:
                seen = shared.described.get((self.name, key))
                shared.described[self.name, key] = min(seen, kind) if seen is not None else kind

    def holders(self, namer: Namer, key: str) -> Iterator[tuple[ox.NamedNode, ox.NamedNode]]:
        yield RDFS.seeAlso, ox.NamedNode(key)

    def shared_triples(self, shared: Shared, namer: Namer) -> Iterator[Triple]:
        for (kind, key), link_kind in sorted(shared.described.items()):
            if kind == self.name:
                yield from link_triples(key, link_kind)
