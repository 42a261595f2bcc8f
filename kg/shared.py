"""The nodes papers share (persons, coauthor links, concepts' papers per year, repositories, links,
introduced names, areas, unknown subjects), made from the papers' ledger entries by the kinds of
fact (``kg.kinds``): the same code for a full build and a delta.

A full build adds every paper's entry to one :class:`~kg.kinds.Shared` as the paper is made, and its
triples come out at the end.  A delta (``kg.pipeline``) makes the shared nodes its papers touch
(:class:`Touched`) twice: as they were (the ledger's sums of those keys, the descriptions of the
nodes from the entries of the papers the store says hold them, and the papers it takes out) and as
they are (the same sums less the old papers' and plus the new ones'; the descriptions from the
holders and the new papers); the difference is what it changes in the store.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

import pyoxigraph as ox

from kg.kinds import Shared, SumKey, Triple
from kg.kinds.table import KINDS
from kg.ledger import Entry, Ledger, SumRow
from kg.terms import Namer


def add(shared: Shared, entry: Entry, sign: int = 1) -> None:
    """Count ``entry`` into the sums of ``shared`` (``sign`` 1) or out of them (-1)."""
    for name, kept in entry.facts.items():
        for key, detail in KINDS[name].sums(kept, entry.year, entry.dropped):
            shared.add(key, sign, detail)


def describe(shared: Shared, entry: Entry, only: set[tuple[str, str]] | None = None) -> None:
    """Add ``entry``'s mentions to the descriptions of their nodes (``only``: of those nodes)."""
    if entry.dropped:
        return
    for name, kept in entry.facts.items():
        KINDS[name].describe(kept, shared, only)


def triples(shared: Shared, namer: Namer) -> Iterator[Triple]:
    """The triples of the shared nodes in ``shared``, kind by kind."""
    for kind in KINDS.values():
        yield from kind.shared_triples(shared, namer)


def rows(shared: Shared) -> Iterator[SumRow]:
    """The sums of ``shared`` as the ledger keeps them."""
    details = shared.details
    for channel, sums in shared.sums.items():
        for (key, sub), n in sums.items():
            yield channel, key, sub, n, details.get((channel, key, sub), "")


class Rows:
    """The sums of ``shared`` as the ledger keeps them, as often as they are iterated (:func:`rows`)."""

    def __init__(self, shared: Shared) -> None:
        self.shared = shared

    def __iter__(self) -> Iterator[SumRow]:
        return rows(self.shared)


def pairs(shared: Shared) -> int:
    """The coauthor pairs of ``shared``."""
    return sum(1 for n in shared.sums.get("pair", {}).values() if n)


@dataclass(slots=True)
class Touched:
    """The shared nodes some papers' entries touch: sums (channel, key, sub), channels made whole
    (``kg.kinds.Kind.whole``), and described nodes (kind, key)."""

    sums: set[SumKey] = field(default_factory=set)
    whole: set[str] = field(default_factory=set)
    described: set[tuple[str, str]] = field(default_factory=set)

    @classmethod
    def of(cls, entries: Iterable[Entry]) -> Touched:
        touched = cls()
        for entry in entries:
            for name, kept in entry.facts.items():
                kind = KINDS[name]
                touched.whole.update(kind.whole)
                for key, _ in kind.sums(kept, entry.year, entry.dropped):
                    touched.sums.add(key)
                if not entry.dropped:
                    touched.described.update(kind.described(kept))
        touched.sums = {k for k in touched.sums if k[0] not in touched.whole}
        return touched


def stored(ledger: Ledger, touched: Touched) -> Shared:
    """The ``touched`` sums as the ledger has them."""
    shared = Shared()
    for channel, key, sub, n, detail in ledger.sums(touched.sums, touched.whole):
        shared.sums.setdefault(channel, {})[key, sub] = n
        if detail:
            shared.details[channel, key, sub] = detail
    return shared


def copied(shared: Shared) -> Shared:
    """A copy of the sums of ``shared`` (its descriptions are made anew)."""
    return Shared({c: dict(s) for c, s in shared.sums.items()}, dict(shared.details), {}, shared.names)


def holding(store: ox.Store, namer: Namer, described: set[tuple[str, str]], prefix: str) -> set[str]:
    """The keys of the papers the store has holding one of the ``described`` nodes (kind, key), by the
    patterns each kind gives (``kg.kinds.Kind.holders``); ``prefix``: the IRI of papers before their key."""
    from urllib.parse import unquote

    found: set[str] = set()
    for kind, key in sorted(described):
        for predicate, node in KINDS[kind].holders(namer, key):
            for quad in store.quads_for_pattern(None, predicate, node, ox.DefaultGraph()):
                subject = quad.subject
                if isinstance(subject, ox.NamedNode) and subject.value.startswith(prefix):
                    found.add(unquote(subject.value.removeprefix(prefix)))
    return found
