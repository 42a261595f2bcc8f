"""The table of kinds of fact, in the order a paper's triples are made (see :mod:`kg.kinds`).

Adding a kind is a module of ``kg/kinds/`` and one line here (and its extractor in
``kg.extractors.EXTRACTORS``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from functools import lru_cache

from kg.errors import KgError
from kg.kinds import Kind, Listing
from kg.kinds.code import Links, Repositories
from kg.kinds.concepts import Areas, Subjects
from kg.kinds.methods import IntroducedMethods, IntroducedResources, Methods, NamedMethods
from kg.kinds.people import Authors
from kg.kinds.tasks import Datasets, Tasks

KINDS: dict[str, Kind] = {
    kind.name: kind
    for kind in (
        Authors(),
        Methods(),
        NamedMethods(),
        IntroducedMethods(),
        IntroducedResources(),
        Tasks(),
        Datasets(),
        Subjects(),
        Areas(),
        Repositories(),
        Links(),
    )
}
"""Every kind of fact, by name: what assembly, the ledger, the shared nodes, the site and the views
iterate (in this order: the site lists its kinds of page so)."""


def listings() -> dict[str, Listing]:
    """Each kind of page the kinds make (``Listing.page``), with the properties of every kind that
    lists its entities there, in table order.

    >>> list(listings())
    ['person', 'method', 'task', 'dataset', 'subject', 'area', 'repository']
    >>> listings()["method"].links
    ('schema:mentions', 'kg:introduces')
    """
    return _listings(tuple(KINDS.values()))


@lru_cache(maxsize=8)
def _listings(kinds: tuple[Kind, ...]) -> dict[str, Listing]:
    """:func:`listings` of a table's kinds (made once per table: every page of a site asks)."""
    found: dict[str, Listing] = {}
    for kind in kinds:
        listing = kind.listing
        if listing is None:
            continue
        seen = found.get(listing.page)
        if seen is None:
            found[listing.page] = listing
        else:
            links = seen.links + tuple(p for p in listing.links if p not in seen.links)
            topics = seen.topics + tuple(p for p in listing.topics if p not in seen.topics)
            found[listing.page] = Listing(
                seen.page, seen.plural, links, seen.thresholded, topics, min(seen.precedence, listing.precedence)
            )
    return found


def check(declared: Mapping[str, Iterable[str]]) -> None:
    """Refuse extractors (name -> the kinds it declares) that make a kind no :class:`Kind` declares.

    >>> check({"links": ("repository", "link")})
    >>> check({"toy": ("colour",)})
    Traceback (most recent call last):
    ...
    kg.errors.KgError: error: the extractor 'toy' makes mentions of kind 'colour', which no kind of fact declares (kg/kinds knows: area, author, dataset, introduced-method, introduced-resource, link, method, named-method, repository, subject, task) [unassembled-kind]
    """
    for name, kinds in declared.items():
        for kind in kinds:
            if kind not in KINDS:
                raise KgError(
                    f"the extractor {name!r} makes mentions of kind {kind!r}, which no kind of fact "
                    f"declares (kg/kinds knows: {', '.join(sorted(KINDS))})",
                    code="unassembled-kind",
                )
