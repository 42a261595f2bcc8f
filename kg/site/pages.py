"""What each page of the site says, as plain records the templates lay out (``kg.site.render``).

Builders return :class:`Page` records: sections of links, paper rows, facts or a chart.  Text from
the graph stays text here; the templates escape it (and ``chart.bars`` escapes its own).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from urllib.parse import quote

from kg.site.chart import bars
from kg.site.egomap import egomap
from kg.site.entities import PLURALS, Entity, Site, method_counts, shares, tally

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


def _plural(n: int, word: str) -> str:
    return f"{n:,} {word}" if n == 1 else f"{n:,} {PLURALS.get(word, word + 's')}"


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


def _counted(site: Site, items: list[str], root: str, title: str, word: str = "paper") -> Section:
    return _listed(site, tally(items), root, title, word)


def _listed(site: Site, counted: list[tuple[str, int]], root: str, title: str, word: str) -> Section:
    links = tuple(link(site, iri, root, _plural(n, word)) for iri, n in counted[:TOP])
    more = f"and {len(counted) - TOP:,} more" if len(counted) > TOP else ""
    return Section(title, "links", links=links, more=more)


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
        subtitle = f"{_kind_name(entity.kind)} · {_plural(len(entity.papers), 'paper')}"
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
    coauthors = tally([a for p in person.papers for a in corpus.authors.get(p, []) if a != person.iri])
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
        _counted(site, subjects, root, "Subjects and areas"),
    ]


def concept_sections(site: Site, concept: Entity, root: str) -> list[Section]:
    """A method's, subject's or area's page (the same shape)."""
    corpus = site.corpus
    iri = concept.iri
    facts: list[tuple[str, str]] = [("papers", f"{len(concept.papers):,}")]
    if iri in corpus.notations:
        facts.append(("code", corpus.notations[iri]))
    if iri in corpus.generic:
        facts.append(("generic", "yes: an umbrella concept, left out of the rising methods"))
    facts.append(("IRI", iri))
    sections = [Section("About", "facts", facts=tuple(facts), text=corpus.definitions.get(iri, ""))]
    counts = method_counts(site, concept)
    totals = corpus.years
    if counts:
        title = (
            f"Papers per year mentioning {concept.label}"
            if concept.kind == "method"
            else (f"Papers per year in {concept.label}")
        )
        share = shares(counts, totals)
        rows = tuple(
            (Link(str(year)), (f"{n:,}", f"{100 * share[year]:.1f}%", f"{totals.get(year, 0):,}"))
            for year, n in counts.items()
        )
        undated = sum(1 for p in concept.papers if not corpus.papers[p].year)
        note = f"{_plural(undated, 'paper')} without a year not counted." if undated else ""
        svg = bars(counts, totals, title=title)
        sections.append(
            Section(
                "Papers per year",
                "chart",
                header=("year", "papers", "share", "of all"),
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
        Section("Repositories", "links", links=repositories),
        Section("Sources (file and line)", "links", links=sources, anchor="sources"),
    )
    outside = (_external(paper.url, paper.url),) if paper.url else ()
    subtitle = "paper" + (f" · {paper.year}" if paper.year else "")
    return Page(
        entity.path, paper.title, "paper", tuple(s for s in sections if s.links or s.facts), subtitle, outside
    )
