"""Authors: a paper's authorships, the persons they name, and the coauthor links between persons.

A person is named by the most frequent spelling of its name over every record (or by the user's
thesaurus), counts its papers (``kg:paperCount``) and is linked to each person it wrote a paper with
(``kg:coauthor``, both ways; a paper of more than ``kg.resolve.MAX_COAUTHORS`` authors adds none).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from kg.kinds import Kind, Listing, PaperNode, Shared, Triple
from kg.terms import Namer, integer, string
from kg.vocab import FOAF, KG, RDF

MAX_COAUTHORS = 100
"""Papers with more authors add no ``kg:coauthor`` links, only authorships: a 3,000-author physics
paper would add 4.5 million pairs and say little about who works with whom (bibliometric tools cut
such hyperauthorship papers from coauthor networks for the same reason)."""


def pairs_among(persons: Iterable[str]) -> list[tuple[str, str]]:
    """The coauthor pairs (``a < b``) of one paper's authors: none when it has more than
    :data:`MAX_COAUTHORS` (a person listed twice counts once).

    >>> pairs_among(["b", "a", "c", "a"])
    [('a', 'b'), ('a', 'c'), ('b', 'c')]
    """
    people = sorted(set(persons))
    if len(people) > MAX_COAUTHORS:
        return []
    return [(a, b) for i, a in enumerate(people) for b in people[i + 1 :]]


def person_triples(node: Any, name: str, papers: int) -> Iterator[Triple]:
    yield Triple(node, RDF.type, FOAF.Person)
    yield Triple(node, FOAF.name, string(name))
    yield Triple(node, KG.paperCount, integer(papers))


def coauthor_triples(a: Any, b: Any) -> Iterator[Triple]:
    yield Triple(a, KG.coauthor, b)
    yield Triple(b, KG.coauthor, a)


class Authors(Kind):
    """An authorship node per position of a paper; the persons are decided afterwards, block by block,
    by the persons stage (``kg.persons.stage``), which links each authorship to its person."""

    name = "author"
    listing = Listing("person", "persons", ("dcterms:creator",), precedence=1)

    def paper_triples(self, paper: Any, at: PaperNode) -> Iterator[Triple]:
        for author in paper.authors:
            role = at.namer.authorship(at.key, author.position)
            yield Triple(at.node, KG.authorship, role)
            yield Triple(role, RDF.type, KG.Authorship)
            yield Triple(role, KG.position, integer(author.position))
            yield Triple(role, KG.nameAsWritten, string(author.written))
            for affiliation in author.affiliations:
                yield Triple(role, KG.affiliation, string(affiliation))

    def keep(self, paper: Any) -> Any:
        """Each authorship's name key, name as normalized and affiliations, and the paper's venue and
        title words: the evidence the persons stage decides by (``kg.persons.stage.authorships``)."""
        from kg.extractors.authors import normalize_name
        from kg.persons.evidence import content_words

        if not paper.authors:
            return None
        rows = [[a.person, normalize_name(a.written) or a.written, list(a.affiliations)] for a in paper.authors]
        title = paper.title.text if paper.title else ""
        return [rows, paper.venue or "", list(content_words(title))]

    def shared_triples(self, shared: Shared, namer: Namer) -> Iterator[Triple]:
        # the coauthor pairs are counted from the persons the persons stage decided
        for a, b, _, _ in shared.of("pair"):
            yield from coauthor_triples(namer.person(a), namer.person(b))
