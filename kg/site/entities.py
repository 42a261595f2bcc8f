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
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, cast
from urllib.parse import quote, unquote

from kg.kinds.table import listings
from kg.plots import periods
from kg.site.chart import MIN_SHARE
from kg.site.chart import share_text as written_share
from kg.site.queries import Corpus
from kg.vocab import ARXIV_BASE, METHOD_BASE


def kinds() -> tuple[str, ...]:
    """The kinds of page, each in a folder of its name: those the kinds of fact list their entities
    on (``kg.kinds.Listing``), and a paper's own.

    >>> kinds()
    ('person', 'method', 'task', 'dataset', 'subject', 'area', 'repository', 'paper')
    """
    return (*listings(), "paper")


def plurals() -> dict[str, str]:
    """The plural of each kind of page (what its listing page is called)."""
    return {**{page: listing.plural for page, listing in listings().items()}, "paper": "papers"}


VOCABULARIES = (METHOD_BASE, ARXIV_BASE)
"""Where the concepts of the shipped vocabularies live (a build mints its own under its base)."""

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
    """The kinds of entity the site has, in the order of :func:`kinds`."""
    memo: dict[str, Any] = field(default_factory=dict)
    """What pages compute more than once (a paper's row in every list it is in), by key."""
    grain: str = "year"
    """The grain of the site's charts and rising table, chosen by the span of the data."""
    totals: dict[int, int] = field(default_factory=dict)
    """Papers per period at that grain (``kg.plots.periods.period_key``)."""
    first: int = 0
    last: int = -1
    """The periods the charts span: where the data means something (``kg.plots.periods.axis``)."""

    def href(self, iri: str, root: str) -> str | None:
        """The link to an entity's page from a page ``root`` below the site folder; None without a page."""
        entity = self.entities.get(iri)
        return root + entity.url if entity is not None and entity.page else None

    def of_kind(self, kind: str) -> list[Entity]:
        """Entities of one kind, most papers first, then by label."""
        found = [e for e in self.entities.values() if e.kind == kind]
        return sorted(found, key=lambda e: (-len(e.papers), name_order(e.label), e.iri))


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
    pages = listings()
    members: dict[str, dict[str, set[str]]] = {"paper": {p: {p} for p in corpus.papers}}
    for shown, listing in pages.items():
        found = members.setdefault(shown, {})
        for predicate in listing.links:
            for iri, papers in _inverted(corpus.linked(predicate)).items():
                found.setdefault(iri, set()).update(papers)
    filed: dict[str, str] = {}
    filing = sorted(pages, key=lambda shown: pages[shown].precedence)
    for kind in ("paper", *filing):
        for iri in members[kind]:
            filed.setdefault(iri, kind)  # a concept that is a subject and a method is filed as a subject
    taken: dict[str, set[str]] = {kind: set() for kind in kinds()}
    # the concepts of the shipped vocabularies name their pages first: a name a paper coins that
    # collides with one ("LoRAs" beside LoRA) gets the suffix, never the vocabulary's concept
    for iri in sorted(filed, key=lambda iri: (not iri.startswith(VOCABULARIES), iri)):
        kind = filed[iri]
        name = slug(iri, kind)
        if name.casefold() in taken[kind]:
            name = f"{name}-{hashlib.sha256(iri.encode('utf-8')).hexdigest()[:10]}"
        taken[kind].add(name.casefold())
        ordered = paper_order(corpus, members[kind][iri])
        label = corpus.label(iri)
        page = kind == "paper" or not pages[kind].thresholded or len(ordered) >= min_papers
        url = quote(f"{kind}/{name}.html")
        site.entities[iri] = Entity(iri, kind, label, name, ordered, page and bool(ordered), url)
    site.kinds = tuple(k for k in kinds() if k in set(filed.values()))
    site.grain = periods.auto_grain(corpus.dates.values(), MIN_PERIOD)
    line = periods.axis(corpus.dates.values(), site.grain, minimum=MIN_PERIOD)
    site.totals = {k: n for k, n in zip(line.keys, line.totals, strict=True) if n}
    if line.keys:
        site.first, site.last = line.keys[0], line.keys[-1]
    return site


MIN_PERIOD = MIN_SHARE
"""A period with fewer papers gets no share (its share of a handful of papers says little) and does not
stretch a chart's axis; as ``kg plot --min-period``."""


def rolled_up(site: Site, entity: Entity) -> tuple[str, ...]:
    """The papers of a concept and of every concept narrower than it (newest first): what its page
    counts first, "with its narrower concepts"."""
    key = f"rolled:{entity.iri}"
    if key not in site.memo:
        seen, todo, papers = {entity.iri}, [entity.iri], set(entity.papers)
        while todo:
            for narrower in site.corpus.narrower.get(todo.pop(), ()):
                if narrower not in seen:
                    seen.add(narrower)
                    todo.append(narrower)
                    found = site.entities.get(narrower)
                    if found is not None:
                        papers.update(found.papers)
        site.memo[key] = paper_order(site.corpus, papers)
    return cast(tuple[str, ...], site.memo[key])


def apart(site: Site, entity: Entity) -> bool:
    """Whether a method is ranked apart: a broad paradigm (``kg:paradigm``) or an umbrella concept
    (``kg:generic``), which top lists and the rising table leave to their own list."""
    return entity.iri in site.corpus.generic or entity.iri in site.corpus.paradigms


def period_of(site: Site, paper: str) -> int | None:
    """A paper's period at the site's grain (its year, or its month or quarter); None when unknown."""
    if site.grain == "year":
        return site.corpus.papers[paper].year or None
    return periods.key_of(site.corpus.dates.get(paper, periods.PaperDate(None)), site.grain)


def papers_per_period(site: Site, papers: Iterable[str]) -> dict[int, int]:
    """Papers per period of the site's grain (by their year, or their months)."""
    found: Counter[int] = Counter(k for k in (period_of(site, p) for p in papers) if k is not None)
    return dict(sorted(found.items()))


def period_counts(site: Site, entity: Entity) -> dict[int, int]:
    """Papers of a concept per period of the site's grain: the build's yearly counts by year, else its
    papers counted by their months."""
    if site.grain == "year":
        return method_counts(site, entity)
    found: Counter[int] = Counter()
    for paper in entity.papers:
        key = periods.key_of(site.corpus.dates.get(paper, periods.PaperDate(None)), site.grain)
        if key is not None:
            found[key] += 1
    return dict(sorted(found.items()))


def share_text(n: int, total: int) -> str:
    """A share as a person reads it: ``<0.1%`` rather than ``0.0%`` for a few papers of many, ``–`` when
    the period has too few papers for a share to mean something.

    >>> share_text(1, 2759), share_text(30, 200), share_text(0, 200), share_text(1, 4)
    ('<0.1%', '15%', '0%', '–')
    """
    if total < MIN_PERIOD:
        return "–"
    return written_share(n, total)


def name_order(text: str) -> tuple[str, str]:
    """A sort key that puts names where a reader looks for them: letters with accents beside their base
    letter ("Çağatay" among the C, not after Z nor, by its IRI, before A), ignoring case, as the Unicode
    collation's first level does; the text as written breaks ties.

    >>> sorted(["Zoe", "Çağatay", "Carl", "émile", "Ada"], key=name_order)
    ['Ada', 'Çağatay', 'Carl', 'émile', 'Zoe']
    """
    folded = unicodedata.normalize("NFKD", text.casefold())
    return "".join(c for c in folded if not unicodedata.combining(c)), text


def tally(items: list[str] | tuple[str, ...], site: Site | None = None) -> list[tuple[str, int]]:
    """Items with their counts, most frequent first, then by name (:func:`name_order`; by IRI without
    a ``site`` to name them).

    >>> tally(["b", "a", "b"])
    [('b', 2), ('a', 1)]
    """
    counted = Counter(items).items()
    if site is None:
        return sorted(counted, key=lambda item: (-item[1], item[0]))
    label = site.corpus.label
    return sorted(counted, key=lambda item: (-item[1], name_order(label(item[0])), item[0]))


@dataclass(frozen=True, slots=True)
class Rise:
    """A method's change in share of papers between two windows of time (the last and the one before)."""

    iri: str
    last: str
    before: str
    """The windows, as written: ``2025``, or ``2026-01–2026-06``."""
    share_last: float
    share_before: float
    count_last: int = 0
    count_before: int = 0
    total_last: int = 0
    total_before: int = 0
    """All papers of each window."""

    @property
    def points(self) -> float:
        """The change, in percentage points."""
        return 100 * (self.share_last - self.share_before)


MAX_WINDOW = 6
"""At most this many periods to a window of the rising table (six months, six quarters)."""


def windows(site: Site) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The periods of the last window and of the one before it, for the rising table: by year, the last
    two years with papers; by month or quarter (a graph of less than two years, or six), the periods
    with enough papers split in two halves of up to MAX_WINDOW each.  Empty when there is too little."""
    held = [k for k in sorted(site.totals) if site.first <= k <= site.last and site.totals[k] >= MIN_PERIOD]
    if site.grain == "year":
        if len(held) < 2 or held[-1] - held[-2] != 1:
            return (), ()
        return (held[-1],), (held[-2],)
    width = min(MAX_WINDOW, len(held) // 2)
    if width == 0:
        return (), ()
    return tuple(held[-width:]), tuple(held[-2 * width : -width])


def window_label(keys: tuple[int, ...], grain: str) -> str:
    """How a window is written: one period, or its first and last."""
    first, last = periods.label(keys[0], grain), periods.label(keys[-1], grain)
    return first if first == last else f"{first}–{last}"


def rising(site: Site, limit: int = 10, within: Sequence[str] | None = None) -> list[Rise]:
    """Methods (not broad paradigms nor umbrella concepts) whose share of papers grew most from the window
    before the last to the last; ``within``: of those papers only (a task's), each method counted by the
    papers among them that mention it, and none when either window holds fewer than ``MIN_PERIOD`` of them."""
    last, before = windows(site)
    if not last:
        return []
    totals: Mapping[int, int] = site.totals
    counted: dict[str, Counter[int]] = {}
    if within is None:
        candidates = site.of_kind("method")
    else:  # the methods its papers mention only: a page per task must not go through every entity
        keyed = [(p, k) for p in within if (k := period_of(site, p)) is not None]
        totals = Counter(k for _, k in keyed)
        for paper, key in keyed:
            for method in set(site.corpus.mentions.get(paper, ())):
                counted.setdefault(method, Counter())[key] += 1
        entities = site.entities
        candidates = [entities[m] for m in counted if m in entities and entities[m].kind == "method"]
    total_last = sum(totals.get(k, 0) for k in last)
    total_before = sum(totals.get(k, 0) for k in before)
    if within is not None and min(total_last, total_before) < MIN_PERIOD:
        return []
    found = []
    for entity in candidates:
        if apart(site, entity):
            continue
        counts = counted[entity.iri] if within is not None else period_counts(site, entity)
        n_last = sum(counts.get(k, 0) for k in last)
        n_before = sum(counts.get(k, 0) for k in before)
        rise = Rise(
            entity.iri,
            window_label(last, site.grain),
            window_label(before, site.grain),
            n_last / total_last,
            n_before / total_before,
            n_last,
            n_before,
            total_last,
            total_before,
        )
        # within a task's papers, a method one paper of the last window names is no trend
        if rise.share_last > rise.share_before and (within is None or n_last >= 2):
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
