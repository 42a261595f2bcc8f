"""What the site shows, read from the store by SPARQL: one scan per property, joined in Python.

As the views do (``kg.project._pairs``), the site asks the store for each property's statements once
(a SELECT of two or three terms) rather than running a query per page: at a few thousand pages, one
query each would cost more than the scans.  Nothing here reads records or input files.

>>> from kg.store import memory
>>> corpus = read(memory())
>>> corpus.papers, corpus.last_year
({}, 0)
"""

from __future__ import annotations

import contextlib
import multiprocessing
import re
from collections import defaultdict
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from multiprocessing.sharedctypes import Synchronized
from pathlib import Path
from typing import cast

import pyoxigraph as ox

from kg.kinds.table import listings
from kg.plots.periods import PaperDate, paper_date
from kg.vocab import PREFIXES

_YEAR = re.compile(r"\d{4}")


@dataclass(frozen=True, slots=True)
class Paper:
    """A paper's own fields (its links are in :class:`Corpus`)."""

    iri: str
    title: str
    year: int
    """0 when unknown."""
    venue: str = ""
    abstract: str = ""
    url: str = ""
    """The paper's arXiv abstract page (or its own page), when known."""


@dataclass(frozen=True, slots=True)
class Source:
    """Where a paper was read: a ``kg:SourceRecord``."""

    file: str
    line: int
    reader: str


@dataclass(slots=True)
class Corpus:
    """Every fact a page shows, keyed by IRI; lists are sorted (see :func:`read`)."""

    papers: dict[str, Paper] = field(default_factory=dict)
    names: dict[str, str] = field(default_factory=dict)
    """Person IRI -> name."""
    authors: dict[str, list[str]] = field(default_factory=dict)
    """Paper -> persons in author order."""
    subjects: dict[str, list[str]] = field(default_factory=dict)
    """Paper -> arXiv subjects (``dcterms:subject``)."""
    areas: dict[str, list[str]] = field(default_factory=dict)
    """Paper -> conference areas (``kg:area``)."""
    mentions: dict[str, list[str]] = field(default_factory=dict)
    """Paper -> methods it mentions (``schema:mentions``)."""
    introduces: dict[str, list[str]] = field(default_factory=dict)
    """Paper -> what it introduces (``kg:introduces``)."""
    links: dict[str, dict[str, list[str]]] = field(default_factory=dict)
    """Property -> paper -> what it links the paper to, for the other properties by which a kind of
    fact lists its entities (``kg.kinds.Listing.links``; see :meth:`linked`)."""
    evidence: dict[tuple[str, str], list[str]] = field(default_factory=dict)
    """(paper, method) -> the text that matched (``kg:matchedText``)."""
    repositories: dict[str, list[str]] = field(default_factory=dict)
    """Paper -> repositories (``schema:codeRepository``)."""
    repository_names: dict[str, str] = field(default_factory=dict)
    repository_urls: dict[str, str] = field(default_factory=dict)
    sources: dict[str, list[Source]] = field(default_factory=dict)
    labels: dict[str, str] = field(default_factory=dict)
    """Concept -> ``skos:prefLabel``."""
    notations: dict[str, str] = field(default_factory=dict)
    definitions: dict[str, str] = field(default_factory=dict)
    broader: dict[str, list[str]] = field(default_factory=dict)
    narrower: dict[str, list[str]] = field(default_factory=dict)
    generic: set[str] = field(default_factory=set)
    """Concepts with ``kg:generic true``."""
    paradigms: set[str] = field(default_factory=set)
    """Concepts with ``kg:paradigm true``: broad paradigms (LLM, fine-tuning) ranked apart."""
    counts: dict[str, dict[int, int]] = field(default_factory=dict)
    """Concept -> year -> papers (``kg:countsByYear``, as the build counted them)."""
    paper_counts: dict[str, int] = field(default_factory=dict)
    """Person -> ``kg:paperCount``."""
    record_count: int = 0
    years: dict[int, int] = field(default_factory=dict)
    """Year -> papers published that year."""
    dates: dict[str, PaperDate] = field(default_factory=dict)
    """Paper -> its year and, when its dates or arXiv id say, month (``kg.plots.periods.paper_date``)."""

    def linked(self, predicate: str) -> dict[str, list[str]]:
        """Paper -> what ``predicate`` links it to (``authors`` for ``dcterms:creator``, ...)."""
        name = _FIELDS.get(predicate)
        return cast(dict[str, list[str]], getattr(self, name)) if name else self.links.get(predicate, {})

    @property
    def last_year(self) -> int:
        """The latest year with papers; 0 when no paper has a year."""
        return max(self.years, default=0)

    def label(self, iri: str) -> str:
        """What an entity is called: a person's name, a concept's label, a repository's name, a title."""
        if iri in self.names:
            return self.names[iri]
        if iri in self.labels:
            notation = self.notations.get(iri, "")
            # arXiv's archive "cs" and group "Computer Science" share a label: the code tells them apart
            return (
                f"{notation} · {self.labels[iri]}"
                if notation and notation != self.labels[iri]
                else self.labels[iri]
            )
        if iri in self.notations:
            return self.notations[iri]
        if iri in self.repository_names:
            return self.repository_names[iri]
        if iri in self.papers:
            return self.papers[iri].title
        return iri.rsplit("/", 1)[-1]


_FIELDS = {
    "dcterms:creator": "authors",
    "dcterms:subject": "subjects",
    "kg:area": "areas",
    "schema:mentions": "mentions",
    "kg:introduces": "introduces",
    "schema:codeRepository": "repositories",
}
"""The properties :class:`Corpus` keeps in a field of their own (the pages read them by name)."""


ARTICLES = "SELECT ?s WHERE { ?s a schema:ScholarlyArticle }"
AUTHORSHIPS = "SELECT ?paper ?person ?position WHERE { ?paper kg:authorship ?a . ?a kg:author ?person ; kg:position ?position }"
EVIDENCE = "SELECT ?paper ?method ?text WHERE { ?paper kg:evidence ?e . ?e kg:evidenceOf ?method ; kg:matchedText ?text }"
SOURCES = (
    "SELECT ?paper ?file ?line ?reader WHERE { ?paper prov:wasDerivedFrom ?r . ?r kg:sourceFile ?file ; "
    'kg:sourceLine ?line . OPTIONAL { ?r kg:reader ?read } BIND(COALESCE(?read, "") AS ?reader) }'
)
COUNTS = "SELECT ?concept ?year ?papers WHERE { ?concept kg:countsByYear ?c . ?c kg:year ?year ; kg:papers ?papers }"
PAIRED = (
    "dcterms:abstract",
    "dcterms:title",
    "dcterms:identifier",
    "foaf:name",
    "dcterms:creator",
    "fabio:hasPublicationYear",
    "dcterms:issued",
    "dcterms:modified",
    "schema:url",
    "kg:venue",
    "kg:paperCount",
    "schema:name",
    "skos:prefLabel",
    "skos:notation",
    "skos:definition",
    "skos:broader",
    "skos:narrower",
    "kg:generic",
    "kg:paradigm",
)
"""The properties :func:`read` scans as (subject, object) pairs, besides the kinds' links."""


def every_scan() -> list[str]:
    """Every query :func:`read` runs, the joins (the costliest) first: the order in which processes
    that share the reading take them."""
    linked = [p for listing in listings().values() for p in listing.links if p not in PAIRED]
    pairs = [_pair_query(p) for p in dict.fromkeys([*PAIRED[:5], *linked, *PAIRED[5:]])]
    return [EVIDENCE, AUTHORSHIPS, SOURCES, *pairs, COUNTS, ARTICLES]


@dataclass(frozen=True, slots=True)
class Scans:
    """The rows of :func:`read`'s queries: those read beforehand (``done``), else read from the store
    as they are asked for."""

    store: ox.Store
    done: dict[str, list[tuple[str, ...]]]

    def rows(self, text: str) -> Iterable[tuple[str, ...]]:
        found = self.done.get(text)
        return found if found is not None else _solutions(self.store, text)


_SHARED: list[tuple[Path, list[str], Synchronized[int]]] = []
"""What forked readers inherit (not pickled): the store's folder, the queries, the next one's index."""


def scanned(store: ox.Store, path: Path, jobs: int) -> dict[str, list[tuple[str, ...]]]:
    """The rows of every query of :func:`every_scan`, read by this process and ``jobs - 1`` forked
    ones, each taking the next query not yet taken (each child opens the store at ``path`` read-only).
    Their rows come back pickled: the scans, Python-bound, are what is shared out.  A query a
    forked reader took and did not hand back is missing from the result (:class:`Scans` reads it)."""
    context = multiprocessing.get_context("fork")
    queries = every_scan()
    taken: Synchronized[int] = context.Value("i", 0)
    _SHARED[:] = [(path, queries, taken)]
    try:
        with context.Pool(jobs - 1) as pool:
            pending = [pool.apply_async(_scan_in_child) for _ in range(jobs - 1)]
            done = _scan_next(store, queries, taken)
            for result in pending:
                # a reader that failed leaves its scans undone: read() reads them here
                with contextlib.suppress(Exception):
                    done.update(result.get())
    finally:
        _SHARED.clear()
    return done


def _scan_in_child() -> dict[str, list[tuple[str, ...]]]:
    path, queries, taken = _SHARED[0]
    return _scan_next(ox.Store.read_only(str(path)), queries, taken)


def _scan_next(
    store: ox.Store, queries: list[str], taken: Synchronized[int]
) -> dict[str, list[tuple[str, ...]]]:
    """The rows of each query this process takes, until none is left."""
    done: dict[str, list[tuple[str, ...]]] = {}
    while True:
        with taken.get_lock():
            index = taken.value
            taken.value += 1
        if index >= len(queries):
            return done
        done[queries[index]] = list(_solutions(store, queries[index]))


def _solutions(store: ox.Store, text: str) -> Iterator[tuple[str, ...]]:
    """Rows of a SELECT query as lexical values (rows with an unbound or quoted-triple term left out)."""
    prefixes = "".join(f"PREFIX {name}: <{iri}>\n" for name, iri in sorted(PREFIXES.items()))
    result = store.query(prefixes + text)
    assert isinstance(result, ox.QuerySolutions)
    width = len(result.variables)
    for solution in result:
        values = [solution[i] for i in range(width)]
        if all(v is not None and not isinstance(v, ox.Triple) for v in values):
            yield tuple(v.value for v in values if v is not None and not isinstance(v, ox.Triple))


def _pairs(scans: Scans, predicate: str) -> Iterator[tuple[str, str]]:
    for row in scans.rows(_pair_query(predicate)):
        yield row[0], row[1]


def _pair_query(predicate: str) -> str:
    return f"SELECT ?s ?o WHERE {{ ?s {predicate} ?o }}"


def _first(pairs: Iterable[tuple[str, str]]) -> dict[str, str]:
    """Subject -> its smallest value (one value per subject, the same whatever the store's order)."""
    out: dict[str, str] = {}
    for s, o in pairs:
        if s not in out or o < out[s]:
            out[s] = o
    return out


def _grouped(pairs: Iterable[tuple[str, str]], keep: set[str] | None = None) -> dict[str, list[str]]:
    out: dict[str, set[str]] = defaultdict(set)
    for s, o in pairs:
        if keep is None or s in keep:
            out[s].add(o)
    return {s: sorted(values) for s, values in sorted(out.items())}


def _year(text: str) -> int:
    """A gYear's year; 0 when unknown.

    >>> _year("2025"), _year("-0044"), _year("")
    (2025, 0, 0)
    """
    return int(text[:4]) if _YEAR.fullmatch(text[:4]) else 0


def _int(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        return 0


def read(store: ox.Store, jobs: int = 1, path: Path | None = None) -> Corpus:
    """Everything the site shows, from one store; with ``jobs`` above 1 and the store's folder
    (``path``), its scans shared out between this process and ``jobs - 1`` forked ones that open the
    store read-only (:func:`scanned`): the same corpus."""
    scans = Scans(store, scanned(store, path, jobs) if jobs > 1 and path is not None else {})
    corpus = Corpus()
    articles = {s for (s,) in scans.rows(ARTICLES)}
    titles = _first((s, o) for s, o in _pairs(scans, "dcterms:title") if s in articles)
    abstracts = _first((s, o) for s, o in _pairs(scans, "dcterms:abstract") if s in articles)
    years: dict[str, int] = {}
    for s, o in _pairs(scans, "fabio:hasPublicationYear"):
        if s in articles:
            years[s] = max(years.get(s, 0), _year(o))
    venues = _first((s, o) for s, o in _pairs(scans, "kg:venue") if s in articles)
    urls = _first(
        (s, o)
        for s, o in _pairs(scans, "schema:url")
        if s in articles and o.startswith(("https://", "http://"))
    )
    arxiv_ids = _grouped(
        ((s, o) for s, o in _pairs(scans, "dcterms:identifier") if o.startswith("arxiv:")), articles
    )
    arxiv = {s: "https://arxiv.org/abs/" + ids[0][len("arxiv:") :] for s, ids in arxiv_ids.items()}
    issued = _first((s, o) for s, o in _pairs(scans, "dcterms:issued") if s in articles)
    modified = {s: max(o) for s, o in _grouped(_pairs(scans, "dcterms:modified"), articles).items()}
    for iri in sorted(articles):
        year = years.get(iri, 0)
        corpus.dates[iri] = paper_date(
            str(year) if year else None, issued.get(iri), arxiv_ids.get(iri, ()), modified.get(iri)
        )
        title = titles.get(iri) or _shortened(abstracts.get(iri, "")) or iri.rsplit("/", 1)[-1]
        corpus.papers[iri] = Paper(
            iri,
            title,
            years.get(iri, 0),
            venues.get(iri, ""),
            abstracts.get(iri, ""),
            arxiv.get(iri) or urls.get(iri, ""),
        )

    corpus.names = _first(_pairs(scans, "foaf:name"))
    ordered: dict[str, list[tuple[int, str]]] = defaultdict(list)
    for paper, person, position in scans.rows(AUTHORSHIPS):
        if paper in articles:
            ordered[paper].append((_int(position), person))
    creators = _grouped(_pairs(scans, "dcterms:creator"), articles)
    for paper in sorted(set(ordered) | set(creators)):
        persons = [person for _, person in sorted(ordered.get(paper, []))]
        # a creator without a place in the author list still counts, after those with one
        persons += [p for p in creators.get(paper, []) if p not in set(persons)]
        corpus.authors[paper] = list(dict.fromkeys(persons))
    corpus.paper_counts = {s: _int(o) for s, o in _pairs(scans, "kg:paperCount")}

    for listing in listings().values():
        for predicate in listing.links:
            name = _FIELDS.get(predicate)
            if name == "authors":
                continue  # in author order, above
            grouped = _grouped(_pairs(scans, predicate), articles)
            if name is not None:
                setattr(corpus, name, grouped)
            else:
                corpus.links[predicate] = grouped
    matched: dict[tuple[str, str], set[str]] = defaultdict(set)
    for paper, method, text in scans.rows(EVIDENCE):
        matched[(paper, method)].add(text)
    corpus.evidence = {key: sorted(texts) for key, texts in sorted(matched.items())}

    repositories = {r for values in corpus.repositories.values() for r in values}
    corpus.repository_names = _first((s, o) for s, o in _pairs(scans, "schema:name") if s in repositories)
    corpus.repository_urls = _first(
        (s, o) for s, o in _pairs(scans, "schema:url") if s in repositories and o.startswith("https://")
    )

    sources: dict[str, set[Source]] = defaultdict(set)
    for paper, file, line, reader in scans.rows(SOURCES):
        if paper in articles:
            sources[paper].add(Source(file, _int(line), reader))
    corpus.sources = {
        p: sorted(s, key=lambda r: (r.file, r.line, r.reader)) for p, s in sorted(sources.items())
    }
    corpus.record_count = sum(len(s) for s in corpus.sources.values())

    corpus.labels = _first(_pairs(scans, "skos:prefLabel"))
    corpus.notations = _first(_pairs(scans, "skos:notation"))
    corpus.definitions = _first(_pairs(scans, "skos:definition"))
    broader = set(_pairs(scans, "skos:broader")) | {(o, s) for s, o in _pairs(scans, "skos:narrower")}
    corpus.broader = _grouped(broader)
    corpus.narrower = _grouped((o, s) for s, o in broader)
    corpus.generic = {s for s, o in _pairs(scans, "kg:generic") if o == "true"}
    corpus.paradigms = {s for s, o in _pairs(scans, "kg:paradigm") if o == "true"}
    counts: dict[str, dict[int, int]] = defaultdict(dict)
    for concept, counted, papers in scans.rows(COUNTS):
        if _year(counted):
            counts[concept][_year(counted)] = _int(papers)
    corpus.counts = {c: dict(sorted(by_year.items())) for c, by_year in sorted(counts.items())}
    per_year: dict[int, int] = defaultdict(int)
    for dated in corpus.papers.values():
        if dated.year:
            per_year[dated.year] += 1
    corpus.years = dict(sorted(per_year.items()))
    return corpus


def _shortened(text: str, limit: int = 120) -> str:
    """A title for a paper that has none: the start of its abstract.

    >>> _shortened("a b c", 3)
    'a b…'
    """
    text = " ".join(text.split())
    return text if len(text) <= limit else text[:limit].rstrip() + "…"
