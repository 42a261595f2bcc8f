"""The nodes papers share: persons (name, paper count), coauthor links, concepts' papers per year,
repositories, links, introduced names, areas and unknown subjects.

``kg.assemble.assemble`` makes them while a full build streams its papers; a delta build
(``kg.delta``) fills a :class:`Shared` for the keys its changed papers hold (:class:`Keys`), once as
they were and once as they are, and applies the difference.  The triples are made by the
assembler's own functions, so both ways give the same graph.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field

from kg.assemble import (
    Namer,
    Triple,
    _areas,
    _Introduced,
    _introduced,
    _Repository,
    _repository,
    _statistics,
    coauthor_triples,
    introduced_scheme_triples,
    link_triples,
    person_triples,
    unknown_subject_triples,
    year_counts,
)
from kg.ledger import Entry
from kg.resolve import Area, pairs_among


@dataclass(slots=True)
class Keys:
    """The keys whose shared nodes a delta makes again."""

    persons: set[str] = field(default_factory=set)
    pairs: set[tuple[str, str]] = field(default_factory=set)
    counts: set[tuple[str, str, str]] = field(default_factory=set)
    repositories: set[str] = field(default_factory=set)
    links: set[str] = field(default_factory=set)
    introduced: set[tuple[str, str]] = field(default_factory=set)

    def add(self, entry: Entry) -> None:
        """The keys ``entry`` holds."""
        self.persons.update(entry.persons)
        self.pairs.update(pairs_of(entry))
        self.counts.update(counts_of(entry))
        for kind, key, _, _ in entry.mentions:
            if kind == "repository":
                self.repositories.add(key)
            elif kind == "link":
                self.links.add(key)
            elif kind in ("introduced-method", "introduced-resource"):
                self.introduced.add((kind, key))
            elif kind == "named-method":
                self.introduced.add(("introduced-method", key))


def pairs_of(entry: Entry) -> list[tuple[str, str]]:
    """The coauthor pairs a paper adds (as ``kg.resolve.add_pairs`` counts them)."""
    return pairs_among(entry.persons)


def counts_of(entry: Entry) -> set[tuple[str, str, str]]:
    """The (scheme, key, year) counts a paper adds to (as ``kg.assemble.assemble`` counts them)."""
    if not entry.year:
        return set()
    areas = (area[0] for area in entry.areas)
    return year_counts(entry.year, entry.subjects, areas, ((kind, key) for kind, key, _, _ in entry.mentions))


class Shared:
    """The shared nodes of the keys in ``keys``: filled by a delta (``kg.delta``) as they were and
    as they are, then made into triples by the assembler's own functions."""

    def __init__(self, keys: Keys) -> None:
        self.keys = keys
        self.papers_of: Counter[str] = Counter()
        self.spellings: dict[str, Counter[str]] = {}
        self.pairs: Counter[tuple[str, str]] = Counter()
        self.per_year: Counter[tuple[str, str, str]] = Counter()
        self.repositories: dict[str, _Repository] = {}
        self.links: dict[str, str] = {}
        self.introduced: dict[tuple[str, str], _Introduced] = {}
        # the few that concern the whole graph (from the ledger's sums, ``kg.ledger.Sums``)
        self.areas: dict[str, Area] = {}
        self.unknown: set[str] = set()
        self.introduces_methods = False

    def add_mentions(self, entry: Entry) -> None:
        """What ``entry``'s mentions add to the repositories, links and introduced names of ``keys``."""
        keys = self.keys
        if entry.dropped:
            return
        for i, (kind, key, _, _) in enumerate(entry.mentions):
            if kind == "repository" and key in keys.repositories:
                _Repository.add(self.repositories, entry.mention(i))
            elif kind == "link" and key in keys.links:
                link_kind = entry.mention(i).get("kind", "other")
                self.links[key] = min(self.links.get(key, link_kind), link_kind)
            elif kind in ("introduced-method", "introduced-resource", "named-method"):
                summary_kind = "introduced-method" if kind == "named-method" else kind
                if (summary_kind, key) in keys.introduced:
                    _Introduced.add(self.introduced, entry.mention(i))

    def triples(self, namer: Namer) -> set[Triple]:
        """The triples of the shared nodes."""
        return set(self._triples(namer))

    def _triples(self, namer: Namer) -> Iterator[Triple]:
        # every person a record named, as kg.resolve has them (one named only by a dropped paper has
        # no paper), each by the most frequent spelling, ties by sort order
        for key, spellings in self.spellings.items():
            name = min(spellings.items(), key=lambda kv: (-kv[1], kv[0]))[0]
            yield from person_triples(namer.person(key), name, self.papers_of[key])
        for (a, b), joint in self.pairs.items():
            if joint:
                yield from coauthor_triples(namer.person(a), namer.person(b))
        if self.areas:
            yield from _areas(dict(sorted(self.areas.items())), namer)
        for code in self.unknown:
            yield from unknown_subject_triples(code)
        for key, repository in self.repositories.items():
            yield from _repository(key, repository)
        for key, kind in self.links.items():
            yield from link_triples(key, kind)
        if self.introduces_methods:
            yield from introduced_scheme_triples(namer)
        for (kind, key), summary in self.introduced.items():
            yield from _introduced(kind == "introduced-resource", key, summary, namer)
        yield from _statistics(self.per_year, namer)
