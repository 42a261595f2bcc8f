"""The index, the listing pages, and every page laid out as HTML with the ``kg/templates/site.*`` files.

The template escapes every string (Jinja autoescape); the search index goes into the index page as
JSON with ``<``, ``>``, ``&``, U+2028 and U+2029 escaped (``kg.html.json_for_html``), read by the
page's script, which puts text into the DOM with ``textContent`` only.  A Content-Security-Policy
forbids fetching anything.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from functools import lru_cache
from html import escape
from importlib import resources
from typing import Any

from markupsafe import Markup

from kg import __version__
from kg.html import inline_script, json_for_html
from kg.site.entities import (
    MIN_PERIOD,
    Site,
    apart,
    kinds,
    name_order,
    plurals,
    rising,
    share_text,
    window_label,
    windows,
)
from kg.site.names import name_pages, on_person_page
from kg.site.pages import Link, Page, PaperRow, Section, entity_pages, link, paper_page, plural

LIST_SIZE = 500
"""Entries on one page of a listing (``persons.html``, ``persons~2.html``, ...)."""
TOP_AUTHORS = 20
RISING = 15


@lru_cache(maxsize=8)
def _asset(name: str) -> str:
    return (resources.files("kg") / "templates" / name).read_text(encoding="utf-8")


@lru_cache(maxsize=1)
def _template() -> Any:
    from jinja2 import Environment, FunctionLoader, select_autoescape

    env = Environment(
        loader=FunctionLoader(_asset),
        autoescape=select_autoescape(default=True, default_for_string=True),
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters["show"] = shown
    env.filters["paper"] = paper
    env.filters["items"] = items
    return env.get_template("site.html")


def show(link: Link) -> Any:
    """A link as HTML (its text escaped): an anchor, an outside anchor, or plain text.

    >>> str(show(Link('<b>"x"</b>', "person/x.html")))
    '<a href="person/x.html">&lt;b&gt;&quot;x&quot;&lt;/b&gt;</a>'
    >>> str(show(Link("x", "javascript:alert(1)", external=True)))
    '<span class="plain">x</span>'
    """
    text = escape(link.text)
    if link.own:
        return Markup(f"<strong>{text}</strong>")
    if link.href and link.external:
        if not link.href.startswith(("https://", "http://")):
            return Markup(f'<span class="plain">{text}</span>')
        return Markup(
            f'<a href="{escape(link.href)}" rel="noopener noreferrer nofollow" class="external">{text}</a>'
        )
    if link.href:
        return Markup(f'<a href="{escape(link.href)}">{text}</a>')
    return Markup(f'<span class="plain">{text}</span>')


shown = lru_cache(maxsize=1 << 17)(show)
""":func:`show`, remembered: a paper's authors, subjects and code are on the page of each of them,
and the same links are rendered again on every one (a large site renders millions of links)."""


def items(links: tuple[Link, ...]) -> Any:
    """A list's items: each link with its note (rendered here, not by the template: a page can hold
    thousands, and a template loop costs several times more)."""
    out = []
    for one in links:
        note = f' <span class="note">{escape(one.note)}</span>' if one.note else ""
        out.append(f"<li>{shown(one)}{note}</li>\n")
    return Markup("".join(out))


def paper(row: PaperRow) -> Any:
    """A paper in a list: year, title, venue, then a line each of authors, subjects, code, matched text."""
    out = [f'<li><span class="year">{row.year or "n.d."}</span> {shown(row.title)}']
    if row.venue:
        out.append(f' <span class="venue">{escape(row.venue)}</span>')
    for css, links, between, lead in (
        ("authors", row.authors, ", ", ""),
        ("tags", row.subjects, " · ", ""),
        ("code", row.code, ", ", "code: "),
    ):
        if links:
            out.append(
                f'<br><span class="{css}">{lead}{between.join([shown(one) for one in links])}</span>'
            )
    if row.matched:
        out.append(f'<br><span class="matched">matched {escape(row.matched)}</span>')
    out.append("</li>")
    return Markup("".join(out))


def html(page: Page, site: Site) -> str:
    """A page as HTML text."""
    named = plurals()
    nav = [Link("Index", page.root + "index.html")] + [
        Link(named[k].capitalize(), page.root + f"{named[k]}.html") for k in site.kinds
    ]
    return str(
        _template().render(
            page=page,
            nav=nav,
            version=__version__,
            script=inline_script(_asset("site.js")) if page.search else "",
            search=json_for_html(page.search) if page.search else "",
        )
    )


def stylesheet() -> str:
    """The site's style sheet (``site.css`` in the site folder, shared by every page)."""
    return _asset("site.css")


def index_page(site: Site) -> Page:
    corpus = site.corpus
    years = corpus.years
    counts = Counter(e.kind for e in site.entities.values())
    named = plurals()
    undated = sum(1 for p in corpus.papers.values() if not p.year)
    holds = [
        Link(plural(counts.get(kind, 0), kind), f"{named[kind]}.html" if counts.get(kind) else None)
        for kind in ("paper", *(k for k in kinds() if k != "paper"))
    ]
    if years:
        span = f"{min(years)}–{max(years)}" if len(years) > 1 else str(min(years))
        per_year = ", ".join(f"{y}: {n:,}" for y, n in years.items())
        holds.append(
            Link(f"years {span}", None, per_year + (f"; {undated:,} without a year" if undated else ""))
        )
    else:
        holds.append(Link("no paper has a year", None))
    files = Counter(s.file for sources in corpus.sources.values() for s in sources)
    holds.append(
        Link(plural(len(files), "source file"), None, plural(corpus.record_count, "source record"))
    )
    sources = tuple(Link(name, None, plural(n, "record")) for name, n in sorted(files.items())[:50])
    people = sorted(
        (e for e in site.entities.values() if e.kind == "person"),
        key=lambda e: (-corpus.paper_counts.get(e.iri, len(e.papers)), name_order(e.label), e.iri),
    )
    authors = tuple(
        link(site, e.iri, "", plural(corpus.paper_counts.get(e.iri, len(e.papers)), "paper"))
        for e in people[:TOP_AUTHORS]
    )
    rises = rising(site, RISING)
    rise_rows = tuple(
        (
            link(site, r.iri, ""),
            (
                f"{r.count_before:,} ({share_text(r.count_before, r.total_before)})",
                f"{r.count_last:,} ({share_text(r.count_last, r.total_last)})",
                f"+{r.points:.1f}",
            ),
        )
        for r in rises
    )
    last, before = windows(site)
    grain = "year" if site.grain == "year" else f"{site.grain}s"
    if last:
        now, then = window_label(last, site.grain), window_label(before, site.grain)
        papers_now = sum(site.totals.get(k, 0) for k in last)
        papers_then = sum(site.totals.get(k, 0) for k in before)
        heading = f"Methods rising most in {now}"
        header = ("method", then, now, "points")
    else:
        heading, header = "Methods rising", ("method", "before", "last", "points")
    if rises:
        why = (
            f"Papers that mention each method, and their share of the papers of the {grain} ({then}: "
            f"{papers_then:,}, {now}: {papers_now:,}); change in percentage points. Generic methods "
            "are left out."
        )
        if site.grain != "year":
            why += f" The graph spans less than {'two' if site.grain == 'month' else 'six'} years: the last {grain} against those before."
    elif last:
        why = f"No method's share of papers grew from {then} to {now}."
    else:
        why = f"Needs papers in two periods in a row (at least {MIN_PERIOD} in each); this graph has none to compare."
    sections = (
        Section("What the graph holds", "links", links=tuple(holds)),
        Section(
            heading,
            "table",
            header=header,
            rows=rise_rows,
            text=why,
            anchor="rising",
        ),
        Section("Most active authors", "links", links=authors, anchor="authors"),
        Section(
            "Sources", "links", links=sources, more=f"and {len(files) - 50:,} more" if len(files) > 50 else ""
        ),
    )
    search = [
        [e.label, e.kind, e.url if e.page else ""]
        for e in sorted(site.entities.values(), key=lambda e: (name_order(e.label), e.kind, e.iri))
    ]
    subtitle = f"{plural(len(corpus.papers), 'paper')} and {plural(counts.get('person', 0), 'person')}"
    if years:
        subtitle += f", {min(years)}–{max(years)}" if len(years) > 1 else f", {min(years)}"
    return Page("index.html", "Knowledge graph", "index", sections, subtitle, search=search)


def listing_pages(site: Site, kind: str) -> Iterator[Page]:
    """Every entity of a kind, most papers first, LIST_SIZE to a page."""
    entities = site.of_kind(kind)
    if not entities:
        return
    name = plurals()[kind]
    total = -(-len(entities) // LIST_SIZE)
    paths = [f"{name}.html" if n == 1 else f"{name}~{n}.html" for n in range(1, total + 1)]
    pager = [Link(str(n), p) for n, p in enumerate(paths, 1)] if total > 1 else []
    # broad paradigms and umbrella concepts (LLM, fine-tuning, neural network) are listed apart, after
    # the methods a researcher would name
    ranked_apart = [e for e in entities if kind == "method" and apart(site, e)]
    if ranked_apart:
        entities = [e for e in entities if not apart(site, e)]
        total = max(1, -(-len(entities) // LIST_SIZE))
        paths = [f"{name}.html" if n == 1 else f"{name}~{n}.html" for n in range(1, total + 1)]
        pager = [Link(str(n), p) for n, p in enumerate(paths, 1)] if total > 1 else []
    for n, path in enumerate(paths, 1):
        shown = entities[(n - 1) * LIST_SIZE : n * LIST_SIZE]
        links = tuple(
            Link(e.label, e.url if e.page else None, plural(len(e.papers), "paper")) for e in shown
        )
        note = (
            ""
            if kind not in ("person", "method", "subject", "area") or site.min_papers == 1
            else (f"those with fewer than {site.min_papers} papers have no page")
        )
        subtitle = f"{len(entities):,} {name}" + (f" · page {n} of {total}" if total > 1 else "")
        section = Section(name.capitalize(), "links", links=links, text=note)
        apart_section = (
            (
                Section(
                    "Broad paradigms and umbrella concepts",
                    "links",
                    links=tuple(
                        Link(e.label, e.url if e.page else None, plural(len(e.papers), "paper"))
                        for e in ranked_apart
                    ),
                ),
            )
            if ranked_apart and n == 1
            else ()
        )
        yield Page(
            path,
            name.capitalize(),
            "listing",
            (section, *apart_section),
            subtitle,
            pager=tuple(Link(p.text, None if p.href == path else p.href) for p in pager),
        )


def pages(site: Site, part: int = 0, parts: int = 1) -> Iterator[Page]:
    """Every page of the site, in a fixed order; with ``parts``, the pages of one ``part`` of them
    (the index and listings, and every ``parts``-th entity from the ``part``-th, for one process of
    many: the parts together are the whole site, whatever their number)."""
    order = kinds()
    if part == 0:
        yield index_page(site)
        for kind in order:
            yield from listing_pages(site, kind)
        yield from name_pages(site)
    ordered = sorted(site.entities.values(), key=lambda e: (order.index(e.kind), e.slug))
    for entity in ordered[part::parts]:
        if not entity.page:
            continue
        if entity.kind == "paper":
            yield paper_page(site, entity)
        elif entity.kind == "person":
            yield from (on_person_page(site, page, entity) for page in entity_pages(site, entity))
        else:
            yield from entity_pages(site, entity)
