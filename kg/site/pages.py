"""What each page of the site says, as plain records the templates lay out (``kg.site.render``).

Builders return :class:`Page` records: sections of links, paper rows, facts or a chart.  Text from
the graph stays text here; the templates escape it (and ``chart.bars`` escapes its own).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from urllib.parse import quote

from kg.kinds.table import listings
from kg.plots.periods import label
from kg.site.chart import bars
from kg.site.egomap import egomap
from kg.site.entities import (
    MIN_PERIOD,
    Entity,
    Site,
    papers_per_period,
    period_counts,
    plurals,
    rising,
    rolled_up,
    share_text,
    tally,
    window_label,
    windows,
)

PAGE_SIZE = 50
"""Papers listed on one page; longer lists go on to ``SLUG~2.html``, ``SLUG~3.html``, ..."""
TOP = 25
"""Coauthors, methods, subjects, authors and repositories listed on an entity's page at most."""


@dataclass(frozen=True, slots=True)
class Link:
    """A name that links to its page (``href``) or is plain text (``href`` None), with a note."""

    text: str
    href: str | None = None
    note: str = ""
    external: bool = False
    """An outside address (arXiv, GitHub): shown, never fetched."""
    own: bool = False
    """The page's own entity (a person in their papers' author lists): shown strong, not linked."""


@dataclass(frozen=True, slots=True)
class PaperRow:
    title: Link
    year: int
    venue: str
    authors: tuple[Link, ...]
    subjects: tuple[Link, ...]
    code: tuple[Link, ...]
    matched: str = ""


@dataclass(frozen=True, slots=True)
class Section:
    """A part of a page: ``kind`` is ``links``, ``papers``, ``facts``, ``table``, ``chart`` (an SVG
    beside a table) or ``map`` (an SVG alone)."""

    title: str
    kind: str
    links: tuple[Link, ...] = ()
    header: tuple[str, ...] = ()
    rows: tuple[tuple[Link, tuple[str, ...]], ...] = ()
    """Table rows: a first cell that may link, then plain cells."""
    papers: tuple[PaperRow, ...] = ()
    facts: tuple[tuple[str, str], ...] = ()
    svg: str = ""
    text: str = ""
    more: str = ""
    anchor: str = ""


@dataclass(frozen=True, slots=True)
class Page:
    path: str
    title: str
    kind: str
    sections: tuple[Section, ...]
    subtitle: str = ""
    external: tuple[Link, ...] = ()
    pager: tuple[Link, ...] = ()
    search: list[list[str]] = field(default_factory=list)
    """Only the index: [label, kind, href] of every entity."""

    @property
    def root(self) -> str:
        """The way from this page up to the site folder."""
        return "../" * self.path.count("/")


def plural(n: int, word: str) -> str:
    return f"{n:,} {word}" if n == 1 else f"{n:,} {plurals().get(word, word + 's')}"


def link(site: Site, iri: str, root: str, note: str = "") -> Link:
    entity = site.entities.get(iri)
    label = entity.label if entity is not None else site.corpus.label(iri)
    return Link(label, site.href(iri, root), note)


def _external(url: str, text: str) -> Link:
    return Link(text, url if url.startswith(("https://", "http://")) else None, external=True)


def paper_row(site: Site, paper: str, root: str, focus: str = "") -> PaperRow:
    """A paper in a list: title, year, venue, authors, subjects and code (``focus``: the page's person,
    shown strong, or method, whose matched text is shown)."""
    corpus = site.corpus
    key = f"row {root} {paper}"
    row: PaperRow | None = site.memo.get(key)
    if row is None:
        p = corpus.papers[paper]
        code = tuple(
            _external(corpus.repository_urls.get(r, r), corpus.repository_names.get(r, r))
            for r in corpus.repositories.get(paper, [])
        )
        row = PaperRow(
            Link(p.title, site.href(paper, root)),
            p.year,
            p.venue,
            tuple(link(site, a, root) for a in corpus.authors.get(paper, [])),
            tuple(link(site, s, root) for s in corpus.subjects.get(paper, []) + corpus.areas.get(paper, [])),
            code,
        )
        site.memo[key] = row
    if not focus:
        return row
    if focus in site.entities and site.entities[focus].kind == "person":
        authors = tuple(
            Link(a.text, own=True) if iri == focus else a
            for iri, a in zip(corpus.authors.get(paper, []), row.authors, strict=True)
        )
        return replace(row, authors=authors)
    matched = ", ".join(f"“{t}”" for t in corpus.evidence.get((paper, focus), []))
    return replace(row, matched=matched)


RISING_ON_A_TASK = 10
"""Rows of a task page's table of rising methods."""


def _rising_on(site: Site, task: Entity, root: str) -> Section:
    """The methods whose share of a task's papers grew most, the windows of the site's rising table."""
    rises = rising(site, RISING_ON_A_TASK, rolled_up(site, task))
    last, before = windows(site)
    if not rises:
        text = (
            "No method's share of its papers grew between the last two windows, or it has fewer than "
            f"{MIN_PERIOD} papers in one of them."
        )
        return Section(
            "Methods rising on it", "table", header=("method",), rows=(), text=text, anchor="rising"
        )
    then, now = window_label(before, site.grain), window_label(last, site.grain)
    rows = tuple(
        (
            link(site, r.iri, root),
            (
                f"{r.count_before:,} ({share_text(r.count_before, r.total_before)})",
                f"{r.count_last:,} ({share_text(r.count_last, r.total_last)})",
                f"+{r.points:.1f}",
            ),
        )
        for r in rises
    )
    text = (
        f"Its papers (and its narrower tasks') that mention each method, and their share of its papers "
        f"({then}: {rises[0].total_before:,}, {now}: {rises[0].total_last:,}); change in percentage points. "
        "Broad paradigms and generic methods are left out."
    )
    return Section(
        "Methods rising on it",
        "table",
        header=("method", then, now, "points"),
        rows=rows,
        text=text,
        anchor="rising",
    )


def _counted(site: Site, items: list[str], root: str, title: str, word: str = "paper") -> Section:
    return _listed(site, tally(items, site), root, title, word)


def _listed(site: Site, counted: list[tuple[str, int]], root: str, title: str, word: str) -> Section:
    links = tuple(link(site, iri, root, plural(n, word)) for iri, n in counted[:TOP])
    more = f"and {len(counted) - TOP:,} more" if len(counted) > TOP else ""
    return Section(title, "links", links=links, more=more)


def linked_kinds(site: Site, papers: Sequence[str], own: str) -> list[tuple[str, list[str]]]:
    """The entities of the kinds of fact listed by properties of their own (tasks, datasets:
    ``kg.kinds.Listing.links`` kept in ``Corpus.links``) that some papers link to, once per paper, with
    the plural of each kind other than ``own``.  Umbrella concepts ("reasoning", ``kg:generic``) are
    left out: on every page they would lead the list and say nothing of it."""
    corpus = site.corpus
    kinds = []
    for kind, listing in listings().items():
        if kind == own or not any(prop in corpus.links for prop in listing.links):
            continue
        items = [
            e
            for p in papers
            for e in sorted({e for prop in listing.links for e in corpus.links.get(prop, {}).get(p, [])})
            if e not in corpus.generic
        ]
        kinds.append((listing.plural.capitalize(), items))
    return kinds


def _pages(entity: Entity) -> int:
    return max(1, -(-len(entity.papers) // PAGE_SIZE))


def page_path(entity: Entity, number: int) -> str:
    """The file of page ``number`` (from 1) of an entity's papers."""
    return entity.path if number == 1 else f"{entity.kind}/{entity.slug}~{number}.html"


def _pager(entity: Entity, number: int) -> tuple[Link, ...]:
    total = _pages(entity)
    if total == 1:
        return ()
    return tuple(
        Link(str(n), None if n == number else "../" + quote(page_path(entity, n)))
        for n in range(1, total + 1)
    )


def _papers_section(site: Site, entity: Entity, number: int, root: str, title: str) -> Section:
    start = (number - 1) * PAGE_SIZE
    shown = entity.papers[start : start + PAGE_SIZE]
    focus = entity.iri if entity.kind in ("method", "person") else ""
    rows = tuple(paper_row(site, p, root, focus) for p in shown)
    more = ""
    if len(entity.papers) > PAGE_SIZE:
        more = f"papers {start + 1:,} to {start + len(shown):,} of {len(entity.papers):,}"
    return Section(title, "papers", papers=rows, more=more, anchor="papers")


def entity_pages(site: Site, entity: Entity) -> list[Page]:
    """The page of an entity, and the further pages of its papers when it has more than PAGE_SIZE."""
    pages = []
    for number in range(1, _pages(entity) + 1):
        path = page_path(entity, number)
        root = "../"
        if entity.kind == "person":
            sections = person_sections(site, entity, root) if number == 1 else []
        elif entity.kind == "repository":
            sections = repository_sections(site, entity, root) if number == 1 else []
        else:
            sections = concept_sections(site, entity, root) if number == 1 else []
        heading = "Papers that mention or introduce it" if entity.kind == "method" else "Papers"
        papers = _papers_section(site, entity, number, root, heading)
        # a person's or repository's papers are what its page is for (after its facts and a person's
        # coauthor map); a concept's come after its trend and summaries (a method can have thousands)
        if entity.kind in ("person", "repository"):
            at = next((i for i, s in enumerate(sections) if s.kind not in ("facts", "map")), len(sections))
            sections.insert(at, papers)
        else:
            sections.append(papers)
        subtitle = f"{_kind_name(entity.kind)} · {plural(len(entity.papers), 'paper')}"
        if number > 1:
            subtitle += f" · page {number}"
        pages.append(
            Page(
                path,
                entity.label,
                entity.kind,
                tuple(sections),
                subtitle,
                _outside(site, entity),
                _pager(entity, number),
            )
        )
    return pages


def _kind_name(kind: str) -> str:
    return {"subject": "arXiv subject", "area": "conference area"}.get(kind, kind)


def _outside(site: Site, entity: Entity) -> tuple[Link, ...]:
    if entity.kind == "repository":
        url = site.corpus.repository_urls.get(entity.iri, entity.iri)
        return (_external(url, url),)
    return ()


def person_sections(site: Site, person: Entity, root: str) -> list[Section]:
    corpus = site.corpus
    coauthors = tally([a for p in person.papers for a in corpus.authors.get(p, []) if a != person.iri], site)
    methods = [m for p in person.papers for m in corpus.mentions.get(p, [])]
    subjects = [s for p in person.papers for s in corpus.subjects.get(p, []) + corpus.areas.get(p, [])]
    years = sorted({corpus.papers[p].year for p in person.papers if corpus.papers[p].year})
    facts = [("papers", f"{len(person.papers):,}")]
    if years:
        facts.append(("years", f"{years[0]}–{years[-1]}" if len(years) > 1 else str(years[0])))
    facts.append(("coauthors", f"{len(coauthors):,}"))
    drawn, note = egomap(site, person.iri, coauthors, root)
    coauthor_map = [Section("Coauthor map", "map", svg=drawn, text=note, anchor="map")] if drawn else []
    return [
        Section("In the graph", "facts", facts=tuple(facts)),
        *coauthor_map,
        _listed(site, coauthors, root, "Coauthors (joint papers)", "joint paper"),
        _counted(site, methods, root, "Methods used"),
        *(
            _counted(site, items, root, f"{plural_name} of their papers")
            for plural_name, items in linked_kinds(site, person.papers, person.kind)
        ),
        _counted(site, subjects, root, "Subjects and areas"),
    ]


def concept_sections(site: Site, concept: Entity, root: str) -> list[Section]:
    """A method's, subject's or area's page (the same shape)."""
    corpus = site.corpus
    iri = concept.iri
    # a method's counts rolled up first: its papers and its narrower concepts' (diffusion model with
    # latent diffusion, DDPM ...), then those naming it directly
    papers = rolled_up(site, concept) if concept.kind == "method" else concept.papers
    rolled = len(papers) != len(concept.papers)
    shown = f"{len(papers):,} with its narrower concepts; {len(concept.papers):,} name it" if rolled else ""
    facts: list[tuple[str, str]] = [("papers", shown or f"{len(concept.papers):,}")]
    if iri in corpus.notations:
        facts.append(("code", corpus.notations[iri]))
    if iri in corpus.generic:
        facts.append(("generic", "yes: an umbrella concept, listed apart and left out of the rising methods"))
    if iri in corpus.paradigms:
        facts.append(("paradigm", "yes: a broad paradigm, listed apart and left out of the rising methods"))
    facts.append(("IRI", iri))
    sections = [Section("About", "facts", facts=tuple(facts), text=corpus.definitions.get(iri, ""))]
    direct = {k: n for k, n in period_counts(site, concept).items() if site.first <= k <= site.last}
    counts = (
        {k: n for k, n in papers_per_period(site, papers).items() if site.first <= k <= site.last}
        if rolled
        else direct
    )
    totals = site.totals
    grain = site.grain
    if counts:
        title = (
            f"Papers per {grain} mentioning {concept.label}" + (" or a narrower concept" if rolled else "")
            if concept.kind == "method"
            else (f"Papers per {grain} in {concept.label}")
        )
        rows = tuple(
            (
                Link(label(key, grain)),
                (
                    f"{n:,}",
                    *((f"{direct.get(key, 0):,}",) if rolled else ()),
                    share_text(n, totals.get(key, 0)),
                    f"{totals.get(key, 0):,}",
                ),
            )
            for key, n in counts.items()
        )
        dated = sum(counts.values())
        left = len(papers) - dated
        note = (
            f"{plural(left, 'paper')} without a {grain} in {label(site.first, grain)}–{label(site.last, grain)} "
            f"not counted (no date, only a year, or outside the span)."
            if left
            else ""
        )
        svg = bars(counts, totals, title=title, grain=grain, first=site.first, last=site.last)
        sections.append(
            Section(
                f"Papers per {grain}",
                "chart",
                header=(grain, "papers", *(("naming it",) if rolled else ()), "share", "of all"),
                rows=rows,
                svg=svg,
                text=note,
                anchor="trend",
            )
        )
    if concept.kind == "method":
        introducing = [p for p in concept.papers if iri in corpus.introduces.get(p, [])]
        if introducing:
            first = tuple(paper_row(site, p, root) for p in introducing[:TOP])
            more = f"and {len(introducing) - TOP:,} more" if len(introducing) > TOP else ""
            sections.append(Section("Papers that introduce it", "papers", papers=first, more=more))
    broader = corpus.broader.get(iri, [])
    narrower = corpus.narrower.get(iri, [])
    if broader or narrower:
        related = [link(site, b, root, "broader") for b in broader]
        related += [link(site, n, root, "narrower") for n in narrower]
        sections.append(Section("Broader and narrower", "links", links=tuple(related)))
    authors = [a for p in concept.papers for a in corpus.authors.get(p, [])]
    sections.append(_counted(site, authors, root, "Top authors"))
    methods = [m for p in concept.papers for m in corpus.mentions.get(p, []) if m != iri]
    title = "Methods used with it" if concept.kind == "method" else "Methods used"
    sections.append(_counted(site, methods, root, title))
    if concept.kind == "task":
        sections.append(_rising_on(site, concept, root))
    for plural_name, items in linked_kinds(site, concept.papers, concept.kind):
        sections.append(_counted(site, items, root, f"{plural_name} of the same papers"))
    if concept.kind != "method":
        others = [s for p in concept.papers for s in corpus.subjects.get(p, []) if s != iri]
        sections.append(_counted(site, others, root, "Subjects of the same papers"))
    repositories = [r for p in concept.papers for r in corpus.repositories.get(p, [])]
    sections.append(_counted(site, repositories, root, "Repositories"))
    return [s for s in sections if s.links or s.papers or s.facts or s.svg or s.text]


def repository_sections(site: Site, repository: Entity, root: str) -> list[Section]:
    corpus = site.corpus
    authors = [a for p in repository.papers for a in corpus.authors.get(p, [])]
    methods = [m for p in repository.papers for m in corpus.mentions.get(p, [])]
    facts = (
        ("papers", f"{len(repository.papers):,}"),
        ("address", corpus.repository_urls.get(repository.iri, repository.iri)),
    )
    return [
        Section("About", "facts", facts=facts),
        _counted(site, authors, root, "Authors"),
        _counted(site, methods, root, "Methods of its papers"),
    ]


def paper_page(site: Site, entity: Entity) -> Page:
    corpus = site.corpus
    paper = corpus.papers[entity.iri]
    root = "../"
    iri = entity.iri
    facts = [("year", str(paper.year) if paper.year else "unknown")]
    if paper.venue:
        facts.append(("venue", paper.venue))
    facts.append(("IRI", iri))
    authors = tuple(link(site, a, root, f"author {i}") for i, a in enumerate(corpus.authors.get(iri, []), 1))
    subjects = tuple(link(site, s, root) for s in corpus.subjects.get(iri, []) + corpus.areas.get(iri, []))
    methods = tuple(
        link(site, m, root, "matched " + ", ".join(f"“{t}”" for t in corpus.evidence.get((iri, m), [])))
        if corpus.evidence.get((iri, m))
        else link(site, m, root)
        for m in corpus.mentions.get(iri, [])
    )
    introduced = tuple(link(site, m, root) for m in corpus.introduces.get(iri, []))
    repositories = tuple(
        Link(corpus.repository_names.get(r, r), site.href(r, root), corpus.repository_urls.get(r, r))
        for r in corpus.repositories.get(iri, [])
    )
    sources = tuple(
        Link(f"{s.file}:{s.line}", None, f"read by {s.reader}" if s.reader else "")
        for s in corpus.sources.get(iri, [])
    )
    sections = (
        Section("About", "facts", facts=tuple(facts), text=paper.abstract),
        Section("Authors", "links", links=authors),
        Section("Subjects and areas", "links", links=subjects),
        Section("Methods mentioned, with the text that matched", "links", links=methods, anchor="methods"),
        Section("Introduced", "links", links=introduced),
        *(
            Section(plural_name, "links", links=tuple(link(site, e, root) for e in items))
            for plural_name, items in linked_kinds(site, [iri], "paper")
        ),
        Section("Repositories", "links", links=repositories),
        Section("Sources (file and line)", "links", links=sources, anchor="sources"),
    )
    outside = (_external(paper.url, paper.url),) if paper.url else ()
    subtitle = "paper" + (f" · {paper.year}" if paper.year else "")
    return Page(
        entity.path, paper.title, "paper", tuple(s for s in sections if s.links or s.facts), subtitle, outside
    )
