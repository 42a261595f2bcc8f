"""The papers behind each node of a view: what a view page lists in its details panel and colours by year.

A person's papers are those they wrote (``dcterms:creator``), a method's those that mention or
introduce it (in the topic view, those that mention it), a subject's, area's and repository's those filed under it; a paper is its own.  Each
node lists its newest papers (at most ``listed``, newest first, then by title) and carries the mean
publication year of all its dated papers, as VOSviewer's overlay view colours a map.

Read by scans of one property at a time (``kg.project.pairs_of``), from a store or an endpoint.

>>> from kg.store import memory
>>> import networkx as nx
>>> found = node_papers(memory(), nx.Graph())
>>> found.papers, found.listed, found.mean_year
([], {}, {})
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Hashable
from dataclasses import dataclass, field

import networkx as nx

from kg.kinds.table import listings
from kg.project import Queryable, arxiv_url, pairs_of, paper_iris, year_of

LISTED = 50
"""Papers a node lists at most (its newest); the count of all of them is the node's ``papers``."""

def relations(view: str) -> dict[str, tuple[str, ...]]:
    """The properties from a paper to a node of each type (a paper node is its own paper), as the kinds
    of fact list them (``kg.kinds.Listing``); in the topic view, those that make a node a topic (a
    method counts the papers that mention it, as the view's ``papers`` say).

    >>> relations("coauthors")["method"], relations("topics")["method"]
    (('schema:mentions', 'kg:introduces'), ('schema:mentions',))
    """
    pages = listings()
    found = {page: listing.links for page, listing in pages.items()}
    if view == "topics":
        found.update({page: listing.topics for page, listing in pages.items() if listing.topics})
    return found


@dataclass(frozen=True, slots=True)
class Paper:
    """A paper as a view page lists it."""

    iri: str
    title: str
    year: int
    """0 when unknown."""
    url: str
    """Its arXiv page, ``""`` when it has none."""


@dataclass(slots=True)
class NodePapers:
    """The papers listed by the nodes of one view."""

    papers: list[Paper] = field(default_factory=list)
    """Every paper some node lists, each once, newest first."""
    listed: dict[Hashable, list[int]] = field(default_factory=dict)
    """Per node, the positions in :attr:`papers` of its newest papers (at most ``LISTED``)."""
    mean_year: dict[Hashable, float] = field(default_factory=dict)
    """Per node, the mean publication year of its dated papers (nodes with none are left out)."""


def node_papers(store: Queryable, graph: nx.Graph, listed: int = LISTED) -> NodePapers:
    """The papers of each node of ``graph`` (a view of ``kg.project``: node keys are IRIs)."""
    wanted: dict[str, set[str]] = defaultdict(set)  # type -> IRIs of that type's nodes
    for node, kind in graph.nodes(data="type", default="person"):
        wanted[str(kind)].add(str(node))
    if not graph:
        return NodePapers()
    articles = paper_iris(store)
    of: dict[str, set[str]] = defaultdict(set)
    for paper in wanted.get("paper", ()):
        if paper in articles:
            of[paper].add(paper)
    for kind, predicates in relations(str(graph.graph.get("view", ""))).items():
        nodes = wanted.get(kind)
        if not nodes:
            continue
        for predicate in predicates:
            for paper, other in pairs_of(store, predicate):
                if other in nodes and paper in articles:
                    of[other].add(paper)
    involved = set().union(*of.values()) if of else set()
    years: dict[str, int] = {}
    for paper, year in pairs_of(store, "fabio:hasPublicationYear"):
        if paper in involved:
            years[paper] = max(years.get(paper, 0), year_of(year))
    titles: dict[str, str] = {}
    for paper, title in pairs_of(store, "dcterms:title"):
        if paper in involved and (paper not in titles or title < titles[paper]):
            titles[paper] = " ".join(title.split())
    identifiers: dict[str, list[str]] = defaultdict(list)
    for paper, identifier in pairs_of(store, "dcterms:identifier"):
        if paper in involved:
            identifiers[paper].append(identifier)

    def newest(paper: str) -> tuple[int, str, str]:
        return (-years.get(paper, 0), titles.get(paper, ""), paper)

    found = NodePapers()
    position: dict[str, int] = {}
    chosen = {node: sorted(of.get(str(node), ()), key=newest)[: max(0, listed)] for node in graph}
    for paper in sorted({p for papers in chosen.values() for p in papers}, key=newest):
        position[paper] = len(found.papers)
        title = titles.get(paper) or paper.rsplit("/", 1)[-1]
        found.papers.append(Paper(paper, title, years.get(paper, 0), arxiv_url(paper, identifiers[paper])))
    for node in graph:
        found.listed[node] = [position[p] for p in chosen[node]]
        dated = [years[p] for p in of.get(str(node), ()) if years.get(p)]
        if dated:
            found.mean_year[node] = round(sum(dated) / len(dated), 2)
    return found
