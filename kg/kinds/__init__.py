"""Kinds of fact: what each kind of fact a paper states becomes, declared once (the table ``KINDS``).

A paper states facts of several kinds: its authors, subjects, areas, repositories, links, the methods
it mentions, names and introduces.  Each kind is one :class:`Kind`, which says, as spaCy's components
declare what they set:

- the paper's own triples of that kind (:meth:`Kind.paper_triples`, with evidence where the text was
  matched);
- what the ledger keeps of it for each paper (:meth:`Kind.keep`, JSON), so that a delta build can take
  a paper's share of the shared nodes out again without reading its records;
- what it adds to the nodes papers share: sums (:meth:`Kind.sums`: counts per year, a person's papers,
  a name's spellings, coauthor links) and descriptions made from every mention of a node
  (:meth:`Kind.describe`: a repository's name, an introduced method's label), and the triples of
  those nodes (:meth:`Kind.shared_triples`);
- how the store finds again the papers that hold one of its nodes (:meth:`Kind.holders`);
- how the site and the views list its entities (:attr:`Kind.listing`).

``kg.assemble`` (a paper's triples), ``kg.ledger`` (entries), ``kg.shared`` (the shared nodes, for a
full build and a delta alike), ``kg.site`` and ``kg.node_papers`` iterate the table; a new kind is its
extractor, its :class:`Kind` and a line here (docs/architecture.md has a worked example).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

import pyoxigraph as ox

from kg.records import Mention
from kg.terms import Minted, Namer, integer, string
from kg.vocab import KG, RDF, XSD

Triple = ox.Quad
"""Statements of the default graph: pyoxigraph Quads (``Quad(s, p, o)``), which the bulk loader takes as they are."""

SumKey = tuple[str, str, str]
"""A sum of the shared nodes: (channel, key, sub), e.g. ``("count", "method\\tlora", "2024")``."""


@dataclass(frozen=True, slots=True)
class Listing:
    """How the site and the views list the entities of a kind."""

    page: str
    """The kind of page (and the site's folder, the views' node type): ``person``, ``method`` ...;
    kinds may share one."""
    plural: str
    links: tuple[str, ...]
    """The properties (prefixed names) from a paper to the entities."""
    thresholded: bool = True
    """Whether an entity gets a page only with at least ``--min-papers`` papers."""
    topics: tuple[str, ...] = ()
    """The properties by which its entities are topics of the topic view (``kg viz topics``)."""
    precedence: int = 5
    """Which kind an entity linked as two kinds is filed as: the lower (a concept that is an arXiv
    subject and a method is filed as a subject)."""


@dataclass(slots=True)
class Shared:
    """The state of the shared nodes of some keys (every key in a full build), which the kinds fill
    (:meth:`Kind.sums`, :meth:`Kind.describe`) and read back (:meth:`Kind.shared_triples`)."""

    sums: dict[str, dict[tuple[str, str], int]] = field(default_factory=dict)
    """channel -> (key, sub) -> papers (see :data:`SumKey`)."""
    details: dict[SumKey, str] = field(default_factory=dict)
    """The first detail given with a sum (an area's labels), kept while the sum is not 0."""
    described: dict[tuple[str, str], Any] = field(default_factory=dict)
    """(kind, key) -> the kind's description of that node (see :meth:`Kind.describe`)."""
    names: Mapping[str, str] = field(default_factory=dict)
    """Person key -> the name the user's thesaurus gives (``kg.curation.Curation.names``)."""

    def add(self, key: SumKey, n: int, detail: str = "") -> None:
        """Add ``n`` (negative: take away) to a sum; its detail is the first one given."""
        channel, k, sub = key
        sums = self.sums.get(channel)
        if sums is None:
            sums = self.sums[channel] = {}
        total = sums.get((k, sub), 0) + n
        if total:
            sums[k, sub] = total
            if detail and key not in self.details:
                self.details[key] = detail
        else:
            sums.pop((k, sub), None)
            self.details.pop(key, None)

    def of(self, channel: str) -> Iterator[tuple[str, str, int, str]]:
        """(key, sub, n, detail) of the sums of one channel that are not 0, in sorted order."""
        details = self.details
        for (key, sub), n in sorted(self.sums.get(channel, {}).items()):
            if n:
                yield key, sub, n, details.get((channel, key, sub), "") if details else ""


class Kind:
    """A kind of fact (see the module docstring); the defaults make nothing."""

    name: str = ""
    """The mention kind (``Mention.kind``) or field it declares."""
    listing: Listing | None = None
    node_kind: str = ""
    """The kind whose node this kind's facts name (a named method names an introduced method's node);
    default: its own name."""
    whole: tuple[str, ...] = ()
    """Channels of sums a delta reads and makes whole, not only the keys its papers touch (the areas:
    their scheme's top concepts hang on every area)."""

    def paper_triples(self, paper: Any, at: PaperNode) -> Iterator[Triple]:
        """The triples of a paper's facts of this kind (``paper``: a ``kg.resolve.Paper``)."""
        return iter(())

    def keep(self, paper: Any) -> Any:
        """What the ledger keeps of a paper's facts of this kind (JSON; None or empty: nothing)."""
        return None

    def sums(self, kept: Any, year: str, dropped: bool) -> Iterator[tuple[SumKey, str]]:
        """The sums a paper's ``kept`` facts add 1 to, each with its detail (``dropped``: a paper
        that lost its key to another, which is not in the graph but whose records name persons)."""
        return iter(())

    def describe(self, kept: Any, shared: Shared, only: set[tuple[str, str]] | None) -> None:
        """Add a paper's ``kept`` facts to the descriptions of their nodes (``only``: those keys)."""

    def described(self, kept: Any) -> Iterator[tuple[str, str]]:
        """The (kind, key) of the nodes :meth:`describe` adds ``kept`` to."""
        return iter(())

    def holders(self, namer: Namer, key: str) -> Iterator[tuple[ox.NamedNode, ox.NamedNode]]:
        """(predicate, node) patterns by which the store finds the papers holding a described node."""
        return iter(())

    def shared_triples(self, shared: Shared, namer: Namer) -> Iterator[Triple]:
        """The triples of this kind's shared nodes in ``shared`` (sums and descriptions)."""
        return iter(())


@dataclass(slots=True)
class PaperNode:
    """A paper as its kinds' triples need it: its node and key, the namer, its source records by
    (path, line) (what evidence points at), and the persons' IRIs minted so far."""

    node: ox.NamedNode
    key: str
    namer: Namer
    records: dict[tuple[str, int], str]
    people: Minted


def mentions_of(paper: Any, kind: str) -> Iterator[Mention]:
    """A paper's mentions of one kind, in order."""
    return (m for m in paper.mentions if m.kind == kind)


def first_each(mentions: Iterable[Mention]) -> Iterator[Mention]:
    """The first mention of each key (a paper states a fact once, whatever its text repeats)."""
    seen: set[str] = set()
    for m in mentions:
        if m.key not in seen:
            seen.add(m.key)
            yield m


def evidence_triples(
    at: PaperNode, concept: ox.NamedNode, evidence: ox.NamedNode, m: Mention
) -> Iterator[Triple]:
    """The evidence of a paper's first mention of a concept: the text as matched, and where."""
    yield Triple(at.node, KG.evidence, evidence)
    yield Triple(evidence, RDF.type, KG.Evidence)
    yield Triple(evidence, KG.evidenceOf, concept)
    yield Triple(evidence, KG.matchedText, string(m.text))
    yield Triple(evidence, KG.offset, integer(m.position))
    record = record_of(m, at.records)
    if record is not None:
        yield Triple(evidence, KG.inRecord, at.namer.record(record))


def record_of(m: Mention, records: dict[tuple[str, int], str]) -> str | None:
    """The source record a mention was found in (the last record of its file at or before its line)."""
    if (m.at.path, m.at.line) in records:
        return records[m.at.path, m.at.line]
    candidates = [
        (line, key) for (path, line), key in records.items() if path == m.at.path and line <= m.at.line
    ]
    return max(candidates)[1] if candidates else None


def mention_rows(mentions: Iterable[Mention]) -> list[list[Any]]:
    """Mentions as the ledger keeps them when their nodes are described: ``[key, text, detail]``."""
    return [[m.key, m.text, [list(pair) for pair in m.detail]] for m in mentions]


def detail_of(row: list[Any], name: str, default: str = "") -> str:
    """A value of a kept mention's detail (``[[name, value], ...]``)."""
    for k, v in row[2]:
        if k == name:
            return str(v)
    return default


def count_sums(scheme: str, keys: Iterable[str], year: str) -> Iterator[tuple[SumKey, str]]:
    """The counts of a dated paper's concepts (``keys``) in its year, one each."""
    if year:
        for key in sorted(set(keys)):
            yield (f"count/{scheme}", key, year), ""


def count_triples(
    shared: Shared, scheme: str, node_of: Callable[[str], ox.NamedNode], namer: Namer
) -> Iterator[Triple]:
    """Each concept's papers per publication year, as ``kg:countsByYear`` nodes.

    They are what the graph says, counted once at build time, so that the questions every user asks
    (a method's trend, the newest papers of a subject) read a few thousand counts instead of
    joining every mention or subject link with every paper's year.  Written as OpenAlex writes
    ``counts_by_year`` on its concepts (and ``works_count`` on authors: ``kg:paperCount``)."""
    for key, year, papers, _ in shared.of(f"count/{scheme}"):
        concept = node_of(key)
        node = namer.year_count(scheme, concept, year)
        yield Triple(concept, KG.countsByYear, node)
        yield Triple(node, RDF.type, KG.YearCount)
        yield Triple(node, KG.year, ox.Literal(year, datatype=XSD.gYear))
        yield Triple(node, KG.papers, integer(papers))
