"""The site's entities: which get a page, under which file name, and the papers of each.

A page's file name comes from the entity's IRI (its last segment, a repository's owner and name),
never from a title or name: ``person/thomas_hofmann.html``, ``method/lora.html``,
``subject/cs.LG.html``, ``repository/microsoft--lora.html``.  A segment with characters outside
letters, digits, ``_``, ``.`` and ``-`` (once percent-decoded: ``schönlieb``) is cleaned and given a
hash of the IRI, so two IRIs never share a file (also on case-insensitive file systems); links
percent-encode the name.

>>> slug("https://w3id.org/kg/id/person/thomas_hofmann", "person")
'thomas_hofmann'
>>> slug("https://github.com/microsoft/lora", "repository")
'microsoft--lora'
>>> slug("https://w3id.org/kg/id/person/carola_sch%C3%B6nlieb", "person")
'carola_schönlieb'
>>> slug("https://w3id.org/kg/id/person/jr%2E", "person")
'jr-3fb792550f'
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from collections import Counter
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import quote, unquote

from kg.site.queries import Corpus

KINDS = ("person", "method", "subject", "area", "repository", "paper")
"""Kinds of pages, each in a folder of its name."""

PLURALS = {
    "person": "persons",
    "method": "methods",
    "subject": "subjects",
    "area": "areas",
    "repository": "repositories",
    "paper": "papers",
}
THRESHOLDED = ("person", "method", "subject", "area")
"""Kinds whose entities get a page only with at least ``min_papers`` papers."""

_UNSAFE = re.compile(r"[^\w.-]+")
SLUG_LIMIT = 80


def slug(iri: str, kind: str) -> str:
    """The file name (without ``.html``) of an entity's page, from its IRI."""
    parts = iri.rstrip("/").split("/")
    segment = "--".join(parts[-2:]) if kind == "repository" else parts[-1]
    decoded = unicodedata.normalize("NFC", unquote(segment))
    clean = _UNSAFE.sub("-", decoded).strip("-.")[:SLUG_LIMIT]
    if clean != decoded or not clean:
        clean = f"{clean or kind}-{hashlib.sha256(iri.encode('utf-8')).hexdigest()[:10]}"
    return clean


@dataclass(frozen=True, slots=True)
class Entity:
    """Something with (perhaps) a page: a person, concept, repository or paper."""

    iri: str
    kind: str
    label: str
    slug: str
    papers: tuple[str, ...]
    """Its papers, newest first (see :func:`paper_order`)."""
    page: bool
    """Whether it gets a page (``--min-papers``); without one it is shown as text."""
    url: str = ""
    """Its page's address relative to the site folder (:attr:`path`, percent-encoded)."""

    @property
    def path(self) -> str:
        """Its page's path in the site folder."""
        return f"{self.kind}/{self.slug}.html"


@dataclass(slots=True)
class Site:
    """The corpus with every entity named, filed and counted."""

    corpus: Corpus
    min_papers: int = 1
    entities: dict[str, Entity] = field(default_factory=dict)
    kinds: tuple[str, ...] = ()
    """The kinds of entity the site has, in KINDS order."""
    memo: dict[str, Any] = field(default_factory=dict)
    """What pages compute more than once (a paper's row in every list it is in), by key."""

    def href(self, iri: str, root: str) -> str | None:
        """The link to an entity's page from a page ``root`` below the site folder; None without a page."""
        entity = self.entities.get(iri)
        return root + entity.url if entity is not None and entity.page else None

    def of_kind(self, kind: str) -> list[Entity]:
        """Entities of one kind, most papers first, then by label."""
        found = [e for e in self.entities.values() if e.kind == kind]
        return sorted(found, key=lambda e: (-len(e.papers), e.label.casefold(), e.iri))


def paper_order(corpus: Corpus, papers: set[str] | list[str]) -> tuple[str, ...]:
    """Papers newest first; those without a year last; then by title."""
    found = [corpus.papers[p] for p in papers if p in corpus.papers]
    found.sort(key=lambda p: (-p.year if p.year else 1, p.title.casefold(), p.iri))
    return tuple(p.iri for p in found)


def _inverted(links: dict[str, list[str]]) -> dict[str, set[str]]:
    out: dict[str, set[str]] = {}
    for paper, targets in links.items():
        for target in targets:
            out.setdefault(target, set()).add(paper)
    return out


def file(corpus: Corpus, min_papers: int = 1) -> Site:
    """Name and file every entity; persons and concepts with fewer than ``min_papers`` papers get no page."""
    site = Site(corpus, min_papers)
    members: dict[str, dict[str, set[str]]] = {
        "person": _inverted(corpus.authors),
        "subject": _inverted(corpus.subjects),
        "area": _inverted(corpus.areas),
        "method": _inverted(corpus.mentions),
        "repository": _inverted(corpus.repositories),
        "paper": {p: {p} for p in corpus.papers},
    }
    for iri, introducing in _inverted(corpus.introduces).items():
        members["method"].setdefault(iri, set()).update(introducing)
    kinds: dict[str, str] = {}
    for kind in ("paper", "person", "subject", "area", "repository", "method"):
        for iri in members[kind]:
            kinds.setdefault(iri, kind)  # a concept that is a subject and a method is filed as a subject
    taken: dict[str, set[str]] = {kind: set() for kind in KINDS}
    for iri in sorted(kinds):
        kind = kinds[iri]
        name = slug(iri, kind)
        if name.casefold() in taken[kind]:
            name = f"{name}-{hashlib.sha256(iri.encode('utf-8')).hexdigest()[:10]}"
        taken[kind].add(name.casefold())
        ordered = paper_order(corpus, members[kind][iri])
        label = corpus.label(iri)
        page = kind not in THRESHOLDED or len(ordered) >= min_papers
        url = quote(f"{kind}/{name}.html")
        site.entities[iri] = Entity(iri, kind, label, name, ordered, page and bool(ordered), url)
    site.kinds = tuple(k for k in KINDS if k in set(kinds.values()))
    return site


def tally(items: list[str] | tuple[str, ...]) -> list[tuple[str, int]]:
    """Items with their counts, most frequent first, then in IRI order.

    >>> tally(["b", "a", "b"])
    [('b', 2), ('a', 1)]
    """
    return sorted(Counter(items).items(), key=lambda item: (-item[1], item[0]))


def shares(counts: dict[int, int], totals: dict[int, int]) -> dict[int, float]:
    """Each year's count as a share of that year's papers.

    >>> shares({2024: 1, 2025: 3}, {2024: 4, 2025: 6})
    {2024: 0.25, 2025: 0.5}
    """
    return {year: (n / totals[year] if totals.get(year) else 0.0) for year, n in counts.items()}


@dataclass(frozen=True, slots=True)
class Rise:
    """A method's change in share of papers between the last two years."""

    iri: str
    last: int
    before: int
    share_last: float
    share_before: float
    count_last: int = 0
    count_before: int = 0

    @property
    def points(self) -> float:
        """The change, in percentage points."""
        return 100 * (self.share_last - self.share_before)


def rising(site: Site, limit: int = 10) -> list[Rise]:
    """Non-generic methods whose share of papers grew most from the year before the last to the last."""
    corpus = site.corpus
    totals = corpus.years
    last = corpus.last_year
    before = last - 1
    if not totals.get(last) or not totals.get(before):
        return []
    found = []
    for entity in site.of_kind("method"):
        if entity.iri in corpus.generic:
            continue
        counts = method_counts(site, entity)
        share = shares(counts, totals)
        rise = Rise(
            entity.iri,
            last,
            before,
            share.get(last, 0.0),
            share.get(before, 0.0),
            counts.get(last, 0),
            counts.get(before, 0),
        )
        if rise.share_last > rise.share_before:
            found.append(rise)
    found.sort(key=lambda r: (-(r.share_last - r.share_before), -r.share_last, r.iri))
    return found[:limit]


def method_counts(site: Site, entity: Entity) -> dict[int, int]:
    """Papers per year of a concept: the build's counts (``kg:countsByYear``), else counted here."""
    counted = site.corpus.counts.get(entity.iri)
    if counted is not None:
        return counted
    out: Counter[int] = Counter()
    for paper in entity.papers:
        year = site.corpus.papers[paper].year
        if year:
            out[year] += 1
    return dict(sorted(out.items()))
