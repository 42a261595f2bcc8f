"""Names several persons share, on the site: a page per shared name, and what a person's page says of
its name and of why its papers are one person.

The persons stage (``kg.persons``) tells apart people who write one name (two Yang Lius who share no
coauthor, topic or place) and records why it joined each person's papers.  The graph says so with a
``kg:SharedName`` node (``rdfs:label`` the name) that each of those persons ``kg:sharesName``, and
``kg:identityReason`` on each person.  A shared name's page (``name/SLUG.html``) lists its persons,
most papers first, each with its years, main coauthors and topics and a few of its papers; a person's
page says "N people share this name" with links to the others and to the name's page, and lists
the reasons.  Text from the graph stays text (the templates escape it).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from urllib.parse import quote, unquote

import pyoxigraph as ox

from kg.site.entities import Entity, Site, slug, tally
from kg.site.pages import Link, Page, Section, link, paper_row, plural
from kg.vocab import KG, RDFS

SHOWN = 3
"""Papers, coauthors and topics shown for each person of a shared name on its page."""
_KEY = "shared names"
"""Where a site keeps its :class:`SharedNames` (``Site.memo``)."""


@dataclass(frozen=True, slots=True)
class SharedNames:
    """The graph's shared names: each one's label and persons, and each person's reasons."""

    labels: dict[str, str] = field(default_factory=dict)
    """Shared name IRI -> the name."""
    persons: dict[str, tuple[str, ...]] = field(default_factory=dict)
    """Shared name IRI -> its persons (IRIs, sorted)."""
    name_of: dict[str, str] = field(default_factory=dict)
    """Person IRI -> the shared name it has."""
    reasons: dict[str, tuple[str, ...]] = field(default_factory=dict)
    """Person IRI -> why its papers are one person (``kg:identityReason``), sorted."""


def _values(store: ox.Store, predicate: ox.NamedNode) -> Iterator[tuple[str, str]]:
    """(subject, object) of every statement of ``predicate`` whose subject is an IRI."""
    for q in store.quads_for_pattern(None, predicate, None, ox.DefaultGraph()):
        if isinstance(q.subject, ox.NamedNode) and isinstance(q.object, ox.NamedNode | ox.Literal):
            yield q.subject.value, q.object.value


def read(store: ox.Store) -> SharedNames:
    """The shared names, their persons and every person's reasons, from the store."""
    members: dict[str, set[str]] = defaultdict(set)
    name_of: dict[str, str] = {}
    for person, name in _values(store, KG.sharesName):
        members[name].add(person)
        name_of[person] = min(name, name_of.get(person, name))
    labels: dict[str, str] = {}
    for name, label in _values(store, RDFS.label):
        if name in members:
            labels[name] = min(label, labels.get(name, label))
    reasons: dict[str, set[str]] = defaultdict(set)
    for person, reason in _values(store, KG.identityReason):
        reasons[person].add(reason)
    return SharedNames(
        {n: labels.get(n, _last(n)) for n in sorted(members)},
        {n: tuple(sorted(p)) for n, p in sorted(members.items())},
        dict(sorted(name_of.items())),
        {p: tuple(sorted(r)) for p, r in sorted(reasons.items())},
    )


def attach(site: Site, store: ox.Store) -> None:
    """Keep the store's shared names with the site, for its person and name pages."""
    site.memo[_KEY] = read(store)


def of(site: Site) -> SharedNames:
    """The site's shared names (none when :func:`attach` was not called)."""
    found = site.memo.get(_KEY)
    return found if isinstance(found, SharedNames) else SharedNames()


def _last(iri: str) -> str:
    return unquote(iri.rstrip("/").rsplit("/", 1)[-1])


def path(name: str) -> str:
    """The file of a shared name's page, from its IRI (``name/yang_liu.html``).

    >>> path("https://w3id.org/kg/id/name/yang%20liu")
    'name/yang_liu.html'
    """
    key = "_".join(_last(name).split())
    return f"name/{slug(name.rsplit('/', 1)[0] + '/' + quote(key, safe='-._~'), 'name')}.html"


def _ranked(site: Site, persons: tuple[str, ...]) -> list[str]:
    """Persons most papers first, then by IRI (the same order on every page)."""
    papers = {p: len(e.papers) if (e := site.entities.get(p)) is not None else 0 for p in persons}
    return sorted(persons, key=lambda p: (-papers[p], p))


def _years(site: Site, person: Entity) -> str:
    years = sorted({site.corpus.papers[p].year for p in person.papers if site.corpus.papers[p].year})
    if not years:
        return "no year"
    return f"{years[0]}–{years[-1]}" if len(years) > 1 else str(years[0])


def _summary(site: Site, person: Entity) -> str:
    """A person in a line: papers, years, first coauthors."""
    corpus = site.corpus
    coauthors = tally([a for p in person.papers for a in corpus.authors.get(p, []) if a != person.iri])
    shown = ", ".join(corpus.label(a) for a, _ in coauthors[:SHOWN])
    return f"{plural(len(person.papers), 'paper')}, {_years(site, person)}" + (
        f", with {shown}" if shown else ""
    )


def on_person_page(site: Site, page: Page, person: Entity) -> Page:
    """A person's (first) page with what it says of its name, after its facts, and of why it is one
    person, at its end."""
    if page.path != person.path:
        return page
    name, why = person_sections(site, person, page.root)
    at = 1 if page.sections and page.sections[0].kind == "facts" else 0
    return replace(page, sections=(*page.sections[:at], *name, *page.sections[at:], *why))


def person_sections(site: Site, person: Entity, root: str) -> tuple[list[Section], list[Section]]:
    """What a person's page says of its name (when others share it), and of why it is one person."""
    shared = of(site)
    sections: list[Section] = []
    name = shared.name_of.get(person.iri)
    if name is not None:
        others = [p for p in _ranked(site, shared.persons[name]) if p != person.iri and p in site.entities]
        links = [link(site, p, root, _summary(site, site.entities[p])) for p in others]
        label = shared.labels[name]
        everyone = len(shared.persons[name])
        links.append(Link(f"All {everyone} people named {label}", root + quote(path(name))))
        text = (
            f"{everyone} people of this graph are named {label}, told apart by their coauthors, places, "
            "topics and years (or by a thesaurus row); these are the others."
        )
        sections.append(Section(f"{everyone} people share this name", "links", links=tuple(links), text=text))
    reasons = shared.reasons.get(person.iri, ())
    why = [Section("Why these papers are one person", "links", links=tuple(Link(r) for r in reasons))]
    return sections, why if reasons else []


def name_pages(site: Site) -> Iterator[Page]:
    """The page of every shared name, in IRI order."""
    shared = of(site)
    corpus = site.corpus
    for name, persons in shared.persons.items():
        label = shared.labels[name]
        here = path(name)
        root = "../" * here.count("/")
        ranked = [p for p in _ranked(site, persons) if p in site.entities]
        rows = []
        sections = []
        for n, iri in enumerate(ranked, 1):
            person = site.entities[iri]
            coauthors = tally([a for p in person.papers for a in corpus.authors.get(p, []) if a != iri])
            topics = tally(
                [
                    t
                    for p in person.papers
                    for t in corpus.mentions.get(p, []) + corpus.subjects.get(p, []) + corpus.areas.get(p, [])
                ]
            )
            rows.append(
                (
                    Link(f"{label} ({n} of {len(ranked)})", site.href(iri, root)),
                    (
                        f"{len(person.papers):,}",
                        _years(site, person),
                        ", ".join(corpus.label(a) for a, _ in coauthors[:SHOWN]) or "none",
                        ", ".join(corpus.label(t) for t, _ in topics[:SHOWN]) or "none",
                    ),
                )
            )
            shown = tuple(paper_row(site, p, root, iri) for p in person.papers[:SHOWN])
            more = (
                f"{SHOWN} of {len(person.papers):,} papers; the others are on the person's page"
                if len(person.papers) > SHOWN
                else ""
            )
            sections.append(Section(f"{label} ({n} of {len(ranked)})", "papers", papers=shown, more=more))
        about = Section(
            f"{len(ranked)} people share this name",
            "table",
            header=("person", "papers", "years", "main coauthors", "main topics"),
            rows=tuple(rows),
            text=(
                f"The papers of {label} in this graph are {len(ranked)} people's: kg tells them apart by what "
                "their papers share and do not share (coauthors, places, topics, years), or a thesaurus row "
                "does. Each person's page says why its own papers are one person; a thesaurus can split or "
                "join them (docs/thesaurus.md)."
            ),
        )
        yield Page(here, label, "name", (about, *sections), f"name · {plural(len(ranked), 'person')}")
