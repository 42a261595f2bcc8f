"""What the figures count, read by SPARQL from a build's store: papers per year, concepts per year, pairs.

Concepts are methods (``schema:mentions``), arXiv subjects (``dcterms:subject``) and conference
areas (``kg:area``); their papers per year are the ``kg:countsByYear`` counts the build writes
(each paper once, directly, as ``kg query method-trend`` reads them).  Umbrella methods marked
``kg:generic true`` in the method taxonomy are left out unless ``generic`` is asked for.

>>> from kg.store import memory
>>> paper_totals(memory())
{}
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

import pyoxigraph as ox

from kg.errors import KgError
from kg.plots.periods import PaperDate, paper_date
from kg.sparql import Solutions, execute
from kg.vocab import PREFIXES

KINDS: dict[str, str] = {
    "method": "schema:mentions",
    "subject": "dcterms:subject",
    "area": "kg:area",
    "task": "schema:about",
    "dataset": "kg:usesDataset",
}
"""The kinds of concept a figure counts, and the property from a paper to each."""

GENERIC_KINDS = ("method", "task")
"""The kinds whose umbrella concepts (``kg:generic true``) are left out unless asked for."""

NOT_GENERIC = "FILTER NOT EXISTS { ?concept kg:generic ?generic . FILTER(?generic) }"
"""Leaves out umbrella methods: ``kg:generic true`` (any true boolean) on the concept."""


@dataclass(frozen=True, slots=True)
class Concept:
    """A method, subject or area with its papers per publication year.

    >>> c = Concept("https://w3id.org/kg/method/lora", "LoRA", "method", ((2024, 2), (2025, 5)))
    >>> c.total, c.count(2025), c.count(2023), c.slug
    (7, 5, 0, 'lora')
    """

    iri: str
    label: str
    kind: str
    counts: tuple[tuple[int, int], ...]
    """(year, papers), in year order."""
    names: tuple[str, ...] = ()
    """Other names it is known by (alternative labels, notation), for choosing it by name."""

    @property
    def total(self) -> int:
        return sum(n for _, n in self.counts)

    @property
    def slug(self) -> str:
        return self.iri.rstrip("/").rsplit("/", 1)[-1]

    def count(self, year: int) -> int:
        return dict(self.counts).get(year, 0)

    def named(self, name: str) -> bool:
        """Whether ``name`` (any case) is its slug, label or one of its other names.

        >>> Concept("https://w3id.org/kg/method/lora", "LoRA", "method", (), ("low-rank adaptation",)).named("Low-Rank Adaptation")
        True
        """
        wanted = " ".join(name.split()).casefold()
        return wanted in {n.casefold() for n in (self.slug, self.label, *self.names)}


def select(store: ox.Store, text: str, source: str) -> list[dict[str, str]]:
    """Rows of a SELECT query run with kg's prefixes: variable -> lexical value (unbound ones left out)."""
    result = execute(store, _prefixes() + text, source=source)
    if not isinstance(result, Solutions):
        raise KgError(f"{source}: expected rows from a SELECT query", code="query-failed")
    return [
        {
            name: term.value
            for name, term in zip(result.variables, row, strict=True)
            if term is not None and not isinstance(term, ox.Triple)
        }
        for row in result.rows
    ]


def _prefixes() -> str:
    return "".join(f"PREFIX {name}: <{iri}>\n" for name, iri in sorted(PREFIXES.items()))


def year_of(text: str) -> int | None:
    """The year of a gYear (or date) lexical value; None when it is not one.

    >>> year_of("2025"), year_of("2025-03-01"), year_of("-0044"), year_of("soon")
    (2025, 2025, None, None)
    """
    head = text[:4]
    return int(head) if len(head) == 4 and head.isdigit() else None


def paper_totals(store: ox.Store) -> dict[int, int]:
    """Papers per publication year (a paper with two years counts in each)."""
    rows = select(
        store,
        "SELECT ?year (COUNT(DISTINCT ?paper) AS ?papers) WHERE {\n"
        "  ?paper a schema:ScholarlyArticle ; fabio:hasPublicationYear ?year .\n"
        "} GROUP BY ?year",
        "paper-totals",
    )
    totals: dict[int, int] = defaultdict(int)
    for row in rows:
        year = year_of(row.get("year", ""))
        if year is not None:
            totals[year] += int(row["papers"])
    return dict(sorted(totals.items()))


def paper_dates(store: ox.Store) -> dict[str, PaperDate]:
    """Every paper's year and, when its dates or arXiv id say, month (``kg.plots.periods.paper_date``)."""
    rows = select(
        store,
        "SELECT ?paper ?year ?issued ?modified ?id WHERE {\n"
        "  ?paper a schema:ScholarlyArticle .\n"
        "  OPTIONAL { ?paper fabio:hasPublicationYear ?year }\n"
        "  OPTIONAL { ?paper dcterms:issued ?issued }\n"
        "  OPTIONAL { ?paper dcterms:modified ?modified }\n"
        '  OPTIONAL { ?paper dcterms:identifier ?id FILTER(STRSTARTS(STR(?id), "arxiv:")) }\n'
        "}",
        "paper-dates",
    )
    found: dict[str, dict[str, set[str]]] = defaultdict(lambda: defaultdict(set))
    for row in rows:
        facts = found[row["paper"]]
        for name in ("year", "issued", "modified", "id"):
            if name in row:
                facts[name].add(row[name])
    return {
        paper: paper_date(
            max(facts["year"], default=None),
            min(facts["issued"], default=None),
            facts["id"],
            max(facts["modified"], default=None),
        )
        for paper, facts in sorted(found.items())
    }


def members(store: ox.Store, kind: str, *, generic: bool = False) -> dict[str, set[str]]:
    """The papers of each concept of ``kind`` (each directly linked, as the build's counts count them)."""
    if kind == "method":
        return mentions(store, generic=generic)
    if kind not in KINDS:
        raise KgError(f"unknown kind {kind!r}; choose from: {', '.join(KINDS)}", code="bad-option")
    found: dict[str, set[str]] = defaultdict(set)
    left_out = generic_methods(store) if kind in GENERIC_KINDS and not generic else set()
    for row in select(store, f"SELECT ?paper ?concept WHERE {{ ?paper {KINDS[kind]} ?concept }}", f"{kind}-papers"):
        if row["concept"] not in left_out:
            found[row["concept"]].add(row["paper"])
    return dict(found)


def concepts(store: ox.Store, kind: str, *, generic: bool = False) -> list[Concept]:
    """Every concept of ``kind`` that has dated papers, with its counts per year, most papers first."""
    try:
        predicate = KINDS[kind]
    except KeyError:
        raise KgError(f"unknown kind {kind!r}; choose from: {', '.join(KINDS)}", code="bad-option") from None
    leave_out = NOT_GENERIC if kind in GENERIC_KINDS and not generic else ""
    # the counts the build wrote, for the concepts papers name with this kind's property (an EXISTS
    # per count: a few thousand counts at 100k papers, where the mentions are 338,000)
    rows = select(
        store,
        "SELECT ?concept ?year ?papers WHERE {\n"
        "  ?concept kg:countsByYear ?count .\n"
        "  ?count kg:year ?year ; kg:papers ?papers .\n"
        f"  FILTER EXISTS {{ ?paper {predicate} ?concept }}\n"
        f"  {leave_out}\n"
        "}",
        f"{kind}-counts",
    )
    counts: dict[str, dict[int, int]] = defaultdict(lambda: defaultdict(int))
    for row in rows:
        year = year_of(row["year"])
        if year is not None:
            counts[row["concept"]][year] += int(row["papers"])
    names = labels(store, kind, set(counts))
    found = [
        Concept(
            iri,
            names.get(iri, ("", ()))[0] or iri.rstrip("/").rsplit("/", 1)[-1],
            kind,
            tuple(sorted(years.items())),
            names.get(iri, ("", ()))[1],
        )
        for iri, years in counts.items()
    ]
    return sorted(found, key=lambda c: (-c.total, c.label.casefold(), c.iri))


MAX_VALUES = 1000
"""Concepts whose labels are looked up by name at most (a query's text is capped at 100,000
characters); more are read with every concept of the kind."""


def labels(store: ox.Store, kind: str, iris: set[str]) -> dict[str, tuple[str, tuple[str, ...]]]:
    """How each concept is shown and its other names: a method's label and alternative labels, a
    subject's ``label (notation)``, an area's ``broader · label`` (areas repeat names such as
    "Everything Else" under different parents)."""
    if not iris:
        return {}
    values = " ".join(f"<{iri}>" for iri in sorted(iris))
    extra = {
        "method": "OPTIONAL { ?concept skos:altLabel ?other }",
        "task": "OPTIONAL { ?concept skos:altLabel ?other }",
        "dataset": "OPTIONAL { ?concept skos:altLabel ?other }",
        "subject": "OPTIONAL { ?concept skos:notation ?other }",
        "area": "OPTIONAL { ?concept skos:broader ?parent . ?parent skos:prefLabel ?other }",
    }[kind]
    if len(iris) > MAX_VALUES:  # thousands of open tasks: every concept's labels, kept in Python
        values, wanted = "", "?paper " + KINDS[kind] + " ?concept"
        rows = [
            row
            for row in select(
                store,
                f"SELECT DISTINCT ?concept ?label ?other WHERE {{\n  {{ SELECT DISTINCT ?concept WHERE {{ {wanted} }} }}\n"
                f"  OPTIONAL {{ ?concept skos:prefLabel ?label }}\n  {extra}\n}}",
                f"{kind}-labels",
            )
            if row["concept"] in iris
        ]
    else:
        rows = select(
            store,
            f"SELECT ?concept ?label ?other WHERE {{\n  VALUES ?concept {{ {values} }}\n"
            f"  OPTIONAL {{ ?concept skos:prefLabel ?label }}\n  {extra}\n}}",
            f"{kind}-labels",
        )
    label: dict[str, str] = {}
    others: dict[str, set[str]] = defaultdict(set)
    for row in rows:
        iri, text = row["concept"], " ".join(row.get("label", "").split())
        if text and (iri not in label or text < label[iri]):
            label[iri] = text
        if row.get("other"):
            others[iri].add(" ".join(row["other"].split()))
    shown: dict[str, tuple[str, tuple[str, ...]]] = {}
    for iri in iris:
        text, other = label.get(iri, ""), sorted(others.get(iri, ()))
        if kind == "subject" and other:
            # chosen by its code or its name ("Machine Learning"); shown as both
            other, text = (
                [*other, text] if text else other,
                (f"{text} ({other[0]})" if text and text != other[0] else other[0]),
            )
        elif kind == "area" and other:
            # chosen by its own label too ("Attention Mechanisms"), or by its parent's (all of them)
            other, text = [*other, text] if text else other, f"{other[0]} · {text}" if text else other[0]
        shown[iri] = (text, tuple(other))
    return shown


def mentions(store: ox.Store, *, generic: bool = False) -> dict[str, set[str]]:
    """The papers that mention each method (generic methods left out unless asked for)."""
    left_out = set() if generic else generic_methods(store)
    papers = {
        row["paper"]
        for row in select(store, "SELECT ?paper WHERE { ?paper a schema:ScholarlyArticle }", "papers")
    }
    # every mention, read straight off the store's answer (42,000 at 10k papers: 0.4 s, where a
    # FILTER NOT EXISTS per row and rows made into dicts took 2.2 s); joined with the papers in Python
    solutions = store.query(
        f"SELECT ?paper ?concept WHERE {{ ?paper <{PREFIXES['schema']}mentions> ?concept }}"
    )
    assert isinstance(solutions, ox.QuerySolutions)
    found: dict[str, set[str]] = defaultdict(set)
    for paper, concept in solutions:
        if paper.value in papers and concept.value not in left_out:
            found[concept.value].add(paper.value)
    return dict(found)


def mean_years(store: ox.Store, view: str) -> dict[str, float]:
    """Mean publication year of each node of a view: a person's papers (``coauthors``), or the papers
    that mention a method or have a subject (``topics``); nodes without a dated paper are left out."""
    links = {
        "coauthors": "?paper dcterms:creator ?node .",
        "topics": "{ ?paper schema:mentions ?node } UNION { ?paper dcterms:subject ?node }",
    }
    if view not in links:
        raise KgError(f"unknown view {view!r}; choose from: {', '.join(links)}", code="bad-option")
    rows = select(
        store,
        "SELECT ?node (AVG(?y) AS ?mean) WHERE {\n"
        f"  {links[view]}\n"
        "  ?paper fabio:hasPublicationYear ?year .\n"
        "  BIND(xsd:integer(SUBSTR(STR(?year), 1, 4)) AS ?y)\n"
        "} GROUP BY ?node",
        f"{view}-mean-years",
    )
    return {row["node"]: float(row["mean"]) for row in rows if "mean" in row}


def generic_methods(store: ox.Store) -> set[str]:
    """The methods marked ``kg:generic true``."""
    rows = select(
        store,
        "SELECT DISTINCT ?concept WHERE { ?concept kg:generic ?generic . FILTER(?generic) }",
        "generic-methods",
    )
    return {row["concept"] for row in rows}
