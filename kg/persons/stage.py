"""The persons stage of a build: the authorships of the papers made, decided block by block into
persons (``kg.persons.cluster``), and what the persons make: each authorship's person, the persons'
nodes and names, and the coauthor links between them.

A full build gives every paper's ledger entry to one :class:`Stage` as the paper is made and decides
every block once the papers are all made; a delta (``kg.delta``) decides again only the blocks its old
and new papers' authorships lie in (:class:`Redecided`), from the entries of every paper with an
authorship there, and changes what those blocks and the papers of those authorships make.  Either
way a block is decided from its own authorships alone, in an order fixed by their content, so a
delta's persons are a full build's.
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from kg.kinds import Shared, Triple
from kg.kinds.people import MAX_COAUTHORS, pairs_among, person_triples
from kg.ledger import Entry
from kg.persons.cluster import Cluster, block_of, cluster_block
from kg.persons.evidence import Authorship
from kg.persons.marks import Mark
from kg.persons.names import by_surname, unqualified
from kg.persons.parts import parts
from kg.terms import Namer, string
from kg.vocab import DCTERMS, KG, RDF, RDFS

Place = tuple[str, int]
"""An authorship: (entry key, position)."""


def authorships(entry: Entry) -> list[Authorship]:
    """The authorships of a paper's ledger entry, each with the evidence the entry keeps: its name,
    affiliations, coauthors, year, venue, subjects and areas, concepts and title words."""
    kept = entry.facts.get("author")
    if not kept:
        return []
    rows, venue, words = kept
    names = [row[0] for row in rows]
    many = len(set(names)) > MAX_COAUTHORS
    subjects = tuple(sorted({*entry.facts.get("subject", ()), *(a[0] for a in entry.facts.get("area", ()))}))
    concepts = tuple(
        sorted(
            {
                *entry.facts.get("method", ()),
                *(
                    row[0]
                    for kind in ("named-method", "introduced-method")
                    for row in entry.facts.get(kind, ())
                ),
            }
        )
    )
    year = int(entry.year[:4]) if entry.year[:4].isdigit() else None
    paper_words = tuple(words)
    senior = len(rows) if len(rows) >= 3 and not by_surname([row[1] for row in rows]) else 0
    out = []
    for position, (name, spelling, affiliations) in enumerate(rows, 1):
        coauthors = () if many else tuple(sorted({n for n in names if n != name}))
        out.append(
            Authorship(
                entry.key,
                position,
                spelling,
                name,
                coauthors=coauthors,
                year=year,
                venue=venue,
                subjects=subjects,
                concepts=concepts,
                affiliations=tuple(affiliations),
                words=paper_words,
                senior=position == senior,
            )
        )
    return out


@dataclass(slots=True)
class Persons:
    """Decided blocks: each block's persons, and each authorship's person."""

    clusters: dict[str, tuple[Cluster, ...]] = field(default_factory=dict)
    """Block -> its persons."""
    person: dict[Place, str] = field(default_factory=dict)
    """Authorship -> its person's key."""
    names: dict[Place, tuple[str, str]] = field(default_factory=dict)
    """Authorship -> its name as written and its name key (what :func:`parts` needs of it)."""

    def add(self, block: str, clusters: tuple[Cluster, ...]) -> None:
        self.clusters[block] = clusters
        for c in clusters:
            for place in c.members:
                self.person[place] = c.key

    def count(self) -> int:
        """How many persons."""
        return sum(len(c) for c in self.clusters.values())


def decide(blocks: Mapping[str, Sequence[Authorship]], marks: Sequence[Mark]) -> Persons:
    """Every block of ``blocks`` decided, in block order."""
    persons = Persons()
    for block in sorted(blocks):
        persons.add(block, decide_block(blocks[block], marks))
        persons.names.update((a.at, (a.written, a.name)) for a in blocks[block])
    return persons


def decide_block(items: Sequence[Authorship], marks: Sequence[Mark] = ()) -> tuple[Cluster, ...]:
    """The persons of one block, decided part by part (:mod:`kg.persons.parts`; a block the thesaurus
    marks an authorship of, whole)."""
    if len(items) == 1 or any(m.picks(a) for m in marks for a in items):
        return cluster_block(items, marks)
    found: list[Cluster] = []
    for part in parts([(a.written, a.name) for a in items]):
        found.extend(cluster_block([items[i] for i in part], marks))
    return tuple(sorted(found, key=lambda c: c.key))


class Stage:
    """The persons stage of a build from nothing: authorships collected as the papers are made (each
    paper's once), then every block decided."""

    def __init__(self, marks: Sequence[Mark] = ()) -> None:
        self.marks = marks
        self.blocks: dict[str, list[Authorship]] = defaultdict(list)
        self.papers: dict[str, list[Authorship]] = {}
        """Entry key -> its authorships (to count each paper's coauthor pairs once decided)."""

    def add(self, entry: Entry) -> None:
        found = authorships(entry)
        if found:
            self.papers[entry.key] = found
        for a in found:
            self.blocks[block_of(a, self.marks)].append(a)

    def decide(self) -> Persons:
        persons = decide(self.blocks, self.marks)
        self.blocks.clear()
        return persons

    def pairs(self, persons: Persons, shared: Shared) -> None:
        """Count every paper's coauthor pairs of persons into ``shared`` (papers in the graph only)."""
        for key, found in self.papers.items():
            if not key.startswith("~"):
                for a, b in pairs_among(persons.person[x.at] for x in found):
                    shared.add(("pair", a, b), 1)


def triples(
    persons: Persons, namer: Namer, names: Mapping[str, str] = {}, blocks: Iterable[str] | None = None
) -> Iterator[Triple]:
    """What the persons of ``blocks`` (default: all) make: each authorship's link to its person (a
    paper in the graph's: ``paper dcterms:creator person``, ``authorship kg:author person``), each
    person's node (name, papers, why), and the names several persons share (``names``: the user's
    thesaurus's names, by person or name key)."""
    for block in sorted(persons.clusters if blocks is None else blocks):
        clusters = persons.clusters.get(block, ())
        sharing: dict[str, list[Cluster]] = defaultdict(list)
        for c in clusters:
            sharing[c.name_key].append(c)
        for c in clusters:
            node = namer.person(c.key)
            papers = {paper for paper, _ in c.members if not paper.startswith("~")}
            for paper, position in c.members:
                if paper in papers:
                    yield Triple(namer.paper(paper), DCTERMS.creator, node)
                    yield Triple(namer.authorship(paper, position), KG.author, node)
            name = names.get(c.key) or names.get(c.name_key) or c.name
            yield from person_triples(node, name, len(papers))
            for reason in c.reasons:
                yield Triple(node, KG.identityReason, string(reason))
            if len(sharing[c.name_key]) > 1:
                yield Triple(node, KG.sharesName, namer.entity("name", c.name_key))
        for name_key, same in sorted(sharing.items()):
            if len(same) > 1:
                shared_name = namer.entity("name", name_key)
                yield Triple(shared_name, RDF.type, KG.SharedName)
                yield Triple(shared_name, RDFS.label, string(min(unqualified(c.name) for c in same)))


AuthorshipRow = tuple[str, str, int, str, str, str]
"""An authorship as the ledger keeps it: (block, entry key, position, person, name as written, name key)."""


def rows(persons: Persons) -> Iterator[AuthorshipRow]:
    """Each authorship's row as the ledger keeps it (:data:`AuthorshipRow`)."""
    names = persons.names
    for block, clusters in persons.clusters.items():
        for c in clusters:
            for paper, position in c.members:
                written, name = names[paper, position]
                yield block, paper, position, c.key, written, name


def person_rows(persons: Persons) -> Iterator[tuple[str, str, str]]:
    """Each person as the ledger keeps it: (block, key, the cluster as JSON)."""
    for block, clusters in persons.clusters.items():
        for c in clusters:
            yield block, c.key, json.dumps([c.name, c.name_key, c.members, c.reasons], ensure_ascii=False)


def cluster_of(key: str, text: str) -> Cluster:
    """A person as the ledger keeps it (see :func:`person_rows`)."""
    name, name_key, members, reasons = json.loads(text)
    return Cluster(key, name, name_key, tuple((str(p), int(n)) for p, n in members), tuple(reasons))


@dataclass(slots=True)
class Redecided:
    """The blocks a delta decides again: their persons as they were (the ledger's) and as they are,
    and the persons of each paper whose coauthor pairs may change, before and after."""

    blocks: set[str]
    before: Persons
    after: Persons
    papers_before: dict[str, list[str]]
    """Entry key -> the persons of its authorships, in the graph as it was."""
    papers_after: dict[str, list[str]]
    """Entry key -> the persons of its authorships, in the graph as it is."""

    def pair_changes(self) -> Iterator[tuple[tuple[str, str], int]]:
        """Each coauthor pair a paper takes away (-1) or adds (+1): of the papers whose persons
        changed (a paper kept with the same persons changes no pair)."""
        before, after = self.papers_before, self.papers_after
        for persons, sign, other in ((before, -1, after), (after, 1, before)):
            for key, found in persons.items():
                # a dropped paper is not in the graph: no coauthors
                if not key.startswith("~") and other.get(key) != found:
                    for pair in pairs_among(found):
                        yield pair, sign


class Stored(Protocol):
    """What :func:`redecide` reads of the previous build's ledger (``kg.ledger.Ledger``)."""

    def authorships(self, blocks: Iterable[str]) -> list[AuthorshipRow]: ...

    def authorships_of(self, papers: Iterable[str]) -> list[AuthorshipRow]: ...

    def persons(self, blocks: Iterable[str]) -> list[tuple[str, str, str]]: ...

    def entries(self, keys: Iterable[str] | None = None) -> Iterator[Entry]: ...


def redecide(
    ledger: Stored, old: Sequence[Entry], made: Sequence[Entry], marks: Sequence[Mark] = ()
) -> Redecided:
    """Decide again the parts of blocks (:mod:`kg.persons.parts`) that the authorships of the papers a
    delta takes out (``old``) and makes (``made``) fall in: from the authorships there of every paper
    the delta keeps (read from their ledger entries) and of the papers it makes.  A part no such
    authorship falls in keeps its persons (the ledger's): the same authorships, decided alike."""
    removed = {e.key for e in old}
    new = [a for e in made for a in authorships(e)]
    gone = [a for e in old for a in authorships(e)]
    blocks = {block_of(a, marks) for a in new} | {block_of(a, marks) for a in gone}
    stored = ledger.authorships(blocks)
    before = Persons()
    found: dict[str, list[Cluster]] = defaultdict(list)
    for block, key, text in ledger.persons(blocks):
        found[block].append(cluster_of(key, text))
    for block in blocks:
        before.add(block, tuple(sorted(found.get(block, ()), key=lambda c: c.key)))
    before.names.update(
        ((paper, position), (written, name)) for _, paper, position, _, written, name in stored
    )
    # the parts the delta touches: of the block's names before and after, those holding a paper it
    # takes out or makes (a name that joined two parts, or left, changes both)
    touched: set[Place] = set()
    new_by_block: dict[str, list[Authorship]] = defaultdict(list)
    for a in new:
        new_by_block[block_of(a, marks)].append(a)
    stored_by_block: dict[str, list[AuthorshipRow]] = defaultdict(list)
    for row in stored:
        stored_by_block[row[0]].append(row)
    for block in blocks:
        rows_ = stored_by_block[block]
        names = [(row[4], row[5]) for row in rows_] + [(a.written, a.name) for a in new_by_block[block]]
        places = [(row[1], row[2]) for row in rows_] + [a.at for a in new_by_block[block]]
        changed = [row[1] in removed for row in rows_] + [True] * len(new_by_block[block])
        # with thesaurus marks a block is one part (a mark may rename across its names)
        groups = [list(range(len(names)))] if marks else parts(names)
        for part in groups:
            if any(changed[i] for i in part):
                touched.update(places[i] for i in part)
    kept = {
        paper
        for _, paper, position, _, _, _ in stored
        if paper not in removed and (paper, position) in touched
    }
    now: dict[str, list[Authorship]] = {block: list(new_by_block[block]) for block in blocks}
    for entry in ledger.entries(kept):
        for a in authorships(entry):
            block = block_of(a, marks)
            if block in now and a.at in touched:
                now[block].append(a)
    after = decide({b: a for b, a in now.items() if a}, marks)
    for block in blocks:
        untouched = tuple(c for c in before.clusters.get(block, ()) if c.members[0] not in touched)
        decided = after.clusters.get(block, ())
        after.add(block, tuple(sorted((*untouched, *decided), key=lambda c: c.key)))
        for c in untouched:
            after.names.update((place, before.names[place]) for place in c.members)
    # every authorship of the papers whose persons may change: those of the touched parts, and the
    # papers' others, as they were
    papers = kept | removed | {e.key for e in made}
    rows = ledger.authorships_of(kept | removed)
    was: dict[str, dict[int, str]] = defaultdict(dict)
    for _, paper, position, person, _, _ in rows:
        was[paper][position] = person
    papers_before = {p: [was[p][n] for n in sorted(was[p])] for p in sorted((kept | removed) & set(was))}
    decided_at: dict[str, dict[int, str]] = defaultdict(dict)
    for (paper, position), key in after.person.items():
        if paper in papers:
            decided_at[paper][position] = key
    papers_after: dict[str, list[str]] = {}
    for paper in sorted((papers - removed) | {e.key for e in made}):
        positions = dict(was.get(paper, {})) if paper not in removed else {}
        positions.update(decided_at.get(paper, {}))
        papers_after[paper] = [positions[n] for n in sorted(positions)]
    return Redecided(blocks, before, after, papers_before, papers_after)
