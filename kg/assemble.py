"""The only place that creates triples: resolved entities -> RDF (pyoxigraph terms).

The vocabulary is the one of docs/architecture.md, "The graph" (see ``ontology/kg.ttl``).
IRIs of data come from normalized keys under one base IRI, never from
random ids, and no entity is a blank node.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from functools import lru_cache
from urllib.parse import quote

import pyoxigraph as ox

from kg.errors import KgError
from kg.records import Mention
from kg.resolve import Area, Paper, Resolution, Streaming
from kg.vocab import (
    ARXIV_BASE,
    DATA_BASE,
    DCTERMS,
    FABIO,
    FOAF,
    KG,
    METHOD_BASE,
    PROV,
    RDF,
    RDFS,
    SCHEMA,
    SKOS,
    XSD,
    ontology_path,
)

ONTOLOGY_FILES = ("arxiv-subjects.ttl", "methods.ttl")
"""Taxonomies that are part of every built graph (the whole scheme, not only what papers use)."""

Triple = ox.Quad
"""Statements of the default graph: pyoxigraph Quads (``Quad(s, p, o)``), which the bulk loader takes as they are."""

KINDS = frozenset(
    {"author", "subject", "area", "repository", "link", "method", "named-method", "introduced-method", "introduced-resource"}
)
"""The kinds of mention assembly turns into triples (resolution makes authors, subjects and areas
part of the paper; :func:`_mentions` the others).  An extractor that declares another kind is refused
before a build reads anything (:func:`check_kinds`): its mentions would otherwise vanish silently."""


def check_kinds(declared: Mapping[str, Iterable[str]]) -> None:
    """Refuse extractors (name -> the kinds it declares) that make a kind no triple is made of.

    >>> check_kinds({"links": ("repository", "link")})
    >>> check_kinds({"toy": ("colour",)})
    Traceback (most recent call last):
    ...
    kg.errors.KgError: error: the extractor 'toy' makes mentions of kind 'colour', which kg/assemble.py does not turn into triples (it knows: area, author, introduced-method, introduced-resource, link, method, named-method, repository, subject) [unassembled-kind]
    """
    for name, kinds in declared.items():
        for kind in kinds:
            if kind not in KINDS:
                raise KgError(
                    f"the extractor {name!r} makes mentions of kind {kind!r}, which kg/assemble.py does not "
                    f"turn into triples (it knows: {', '.join(sorted(KINDS))})",
                    code="unassembled-kind",
                )


@dataclass(frozen=True, slots=True)
class Namer:
    """Mints the IRIs of built data under one base IRI.

    >>> Namer("https://example.org/").person("Zoë  Smith").value
    'https://example.org/person/zo%C3%AB_smith'
    >>> Namer("https://example.org/").person("Antonio Laverghetta Jr.").value
    'https://example.org/person/antonio_laverghetta_jr'
    """

    base: str = DATA_BASE

    def _iri(self, path: str) -> ox.NamedNode:
        # a Turtle prefixed name cannot end in "." ("person:x_jr\." is legal but rdflib, among
        # others, cannot read it): a last "." is written percent-encoded
        if path.endswith("."):
            path = path[:-1] + "%2E"
        return ox.NamedNode(self.base + path)

    def paper(self, key: str) -> ox.NamedNode:
        return self._iri("paper/" + quote(key, safe="-._~"))

    def person(self, key: str) -> ox.NamedNode:
        # the dots that end a name ("Jr.", "A. B.") are no part of its slug
        slug = "_".join(key.casefold().split()).rstrip(".")
        return self._iri("person/" + quote(slug or key, safe="-._~"))

    def authorship(self, paper_key: str, position: int) -> ox.NamedNode:
        return self._iri(f"authorship/{quote(paper_key, safe='-._~')}-{position}")

    def evidence(self, paper_key: str, key: str) -> ox.NamedNode:
        return self._iri(f"evidence/{quote(paper_key, safe='-._~')}-{quote(key, safe='-._~')}")

    def record(self, key: str) -> ox.NamedNode:
        return self._iri("record/" + quote(key, safe="-._~"))

    def area(self, key: str) -> ox.NamedNode:
        return self._iri("area/" + quote(key.replace("/", "--"), safe="-._~"))

    def area_scheme(self) -> ox.NamedNode:
        return self._iri("areas")

    def introduced(self, key: str) -> ox.NamedNode:
        return self._iri("method/" + quote(key, safe="-._~"))

    def introduced_scheme(self) -> ox.NamedNode:
        return self._iri("methods")

    def resource(self, key: str) -> ox.NamedNode:
        return self._iri("resource/" + quote(key, safe="-._~"))

    def year_count(self, scheme: str, concept: ox.NamedNode, year: str) -> ox.NamedNode:
        """The count of a concept's papers in a year, named by the scheme (``arxiv``, ``area`` or
        ``method``) and the last segment of the concept's IRI (quoted already).

        >>> Namer().year_count("area", Namer().area("applications/chemistry"), "2024").value
        'https://w3id.org/kg/id/counts/area/applications--chemistry/2024'
        """
        return self._iri(f"counts/{scheme}/{concept.value.rsplit('/', 1)[1]}/{quote(year, safe='-._~')}")


# The terms every paper repeats (its subjects, the methods it mentions, positions and lines) are made
# once each: minting one quotes and checks an IRI, and a big build mints them tens of millions of times.


@lru_cache(maxsize=4096)
def subject_iri(code: str) -> ox.NamedNode:
    """The concept of an arXiv category code (also of unknown codes, kept as written)."""
    return ox.NamedNode(ARXIV_BASE + quote(code, safe="-._~"))


@lru_cache(maxsize=4096)
def method_iri(slug: str) -> ox.NamedNode:
    """The concept of a known method of ``ontology/methods.ttl``."""
    return ox.NamedNode(METHOD_BASE + quote(slug, safe="-._~"))


def string(text: str) -> ox.Literal:
    return ox.Literal(text)


@lru_cache(maxsize=1 << 16)
def integer(value: int) -> ox.Literal:
    return ox.Literal(str(value), datatype=XSD.integer)


@lru_cache(maxsize=1024)
def _of_file(text: str) -> ox.Literal:
    """A string every record of a file repeats (its path, reader and SHA-256)."""
    return ox.Literal(text)


def assemble(
    resolution: Resolution | Streaming, namer: Namer, known_subjects: Iterable[str] = ()
) -> Iterator[Triple]:
    """Every triple of the built data (the taxonomies come from :func:`ontology_triples`).

    Papers first, as the resolution hands them out (see :meth:`Resolution.consume`; a build's
    :class:`Streaming` resolution makes them while the inputs are read), each freed once its
    triples are out; then the persons (with their paper counts), their coauthor links, the areas
    and the concepts' papers per year, complete by then."""
    known = set(known_subjects)
    # one IRI per person, minted once: quoting names is the costly part of minting
    people = _Minted(namer.person)
    unknown: set[str] = set()
    # repositories, links and introduced names are described from all their mentions, in whatever
    # order the papers come: each keeps a running summary (a minimum, a union), not its mentions
    # (a mention is about a dozen Python objects, and most papers have one of these)
    repos: dict[str, _Repository] = {}
    links: dict[str, str] = {}
    # by kind and key: a name one paper introduces as a method and another as a dataset or library is
    # two nodes, each described from its own mentions; a method a paper names (``named-method``) is
    # the concept a paper that introduces the name gets (the living vocabulary: one key, one node)
    introduced: dict[tuple[str, str], _Introduced] = {}
    # the statistics the common questions rank and page by, counted as the papers pass (see
    # _statistics): each person's papers, and each concept's papers per year
    papers_of: Counter[str] = Counter()
    per_year: Counter[tuple[str, str, str]] = Counter()
    for paper in resolution.consume():
        yield from _paper(paper, namer, people)
        papers_of.update({author.person for author in paper.authors})
        for code in paper.subjects:
            if known and code not in known:
                unknown.add(code)
        if paper.year:
            per_year.update(
                year_counts(paper.year.text, paper.subjects, paper.areas, ((m.kind, m.key) for m in paper.mentions))
            )
        for m in paper.mentions:
            if m.kind == "repository":
                _Repository.add(repos, m)
            elif m.kind == "link":
                kind = m.get("kind", "other")
                links[m.key] = min(links.get(m.key, kind), kind)
            elif m.kind in ("introduced-method", "introduced-resource", "named-method"):
                _Introduced.add(introduced, m)
    for person in resolution.persons.values():
        yield from person_triples(people[person.key], person.name, papers_of[person.key])
    del papers_of
    coauthors = sorted(resolution.coauthor_pairs())
    for a, b in coauthors:
        yield from coauthor_triples(people[a], people[b])
    del coauthors
    if resolution.areas:
        yield from _areas(resolution.areas, namer)
    for code in sorted(unknown):
        yield from unknown_subject_triples(code)
    for key in sorted(repos):
        yield from _repository(key, repos[key])
    for key in sorted(links):
        yield from link_triples(key, links[key])
    if any(kind == "introduced-method" for kind, _ in introduced):
        yield from introduced_scheme_triples(namer)
    for kind, key in sorted(introduced, key=lambda kk: (kk[1], kk[0])):
        yield from _introduced(kind == "introduced-resource", key, introduced[kind, key], namer)
    yield from _statistics(per_year, namer)


# The shared nodes, one function each: the full build above and a delta build (kg.shared) make them so.


def person_triples(node: ox.NamedNode, name: str, papers: int) -> Iterator[Triple]:
    yield Triple(node, RDF.type, FOAF.Person)
    yield Triple(node, FOAF.name, string(name))
    yield Triple(node, KG.paperCount, integer(papers))


def coauthor_triples(a: ox.NamedNode, b: ox.NamedNode) -> Iterator[Triple]:
    yield Triple(a, KG.coauthor, b)
    yield Triple(b, KG.coauthor, a)


def unknown_subject_triples(code: str) -> Iterator[Triple]:
    """An arXiv code the taxonomy does not have, kept as written."""
    node = subject_iri(code)
    yield Triple(node, RDF.type, SKOS.Concept)
    yield Triple(node, SKOS.notation, string(code))
    yield Triple(node, SKOS.prefLabel, string(code))
    yield Triple(node, SKOS.inScheme, ox.NamedNode(ARXIV_BASE + "scheme"))


def link_triples(key: str, kind: str) -> Iterator[Triple]:
    node = ox.NamedNode(key)
    yield Triple(node, RDF.type, KG.Link)
    yield Triple(node, KG.linkKind, string(kind))


def introduced_scheme_triples(namer: Namer) -> Iterator[Triple]:
    scheme = namer.introduced_scheme()
    yield Triple(scheme, RDF.type, SKOS.ConceptScheme)
    yield Triple(scheme, SKOS.prefLabel, ox.Literal("Methods introduced by papers", language="en"))


def year_counts(
    year: str, subjects: Iterable[str], areas: Iterable[str], mentions: Iterable[tuple[str, str]]
) -> set[tuple[str, str, str]]:
    """The (scheme, key, year) counts one paper of ``year`` adds to (``mentions``: (kind, key)).

    >>> sorted(year_counts("2024", ["cs.LG"], [], [("method", "lora"), ("link", "x")]))
    [('arxiv', 'cs.LG', '2024'), ('method', 'lora', '2024')]
    """
    counts = {("arxiv", code, year) for code in subjects} | {("area", area, year) for area in areas}
    for kind, key in mentions:
        if kind == "method":
            counts.add(("method", key, year))
        elif kind == "named-method":
            counts.add(("introduced", key, year))
    return counts


def count_node(namer: Namer, scheme: str, key: str, year: str) -> tuple[ox.NamedNode, ox.NamedNode]:
    """The concept of a (scheme, key) and its ``kg:YearCount`` node of ``year``."""
    concepts: dict[str, Callable[[str], ox.NamedNode]] = {
        "arxiv": subject_iri,
        "area": namer.area,
        "method": method_iri,
        "introduced": namer.introduced,
    }
    concept = concepts[scheme](key)
    return concept, namer.year_count(scheme, concept, year)


def _statistics(per_year: Counter[tuple[str, str, str]], namer: Namer) -> Iterator[Triple]:
    """Each concept's papers per publication year, as ``kg:countsByYear`` nodes.

    They are what the graph says, counted once at build time, so that the questions every user asks
    (a method's trend, the newest papers of a subject) read a few thousand counts instead of
    joining every mention or subject link with every paper's year.  Written as OpenAlex writes
    ``counts_by_year`` on its concepts (and ``works_count`` on authors: ``kg:paperCount``)."""
    for (scheme, key, year), papers in sorted(per_year.items()):
        concept, node = count_node(namer, scheme, key, year)
        yield Triple(concept, KG.countsByYear, node)
        yield Triple(node, RDF.type, KG.YearCount)
        yield Triple(node, KG.year, ox.Literal(year, datatype=XSD.gYear))
        yield Triple(node, KG.papers, integer(papers))


class _Minted(dict[str, ox.NamedNode]):
    """Person keys to IRIs, each minted on first use."""

    def __init__(self, mint: Callable[[str], ox.NamedNode]) -> None:
        super().__init__()
        self.mint = mint

    def __missing__(self, key: str) -> ox.NamedNode:
        node = self[key] = self.mint(key)
        return node


def _paper(paper: Paper, namer: Namer, people: dict[str, ox.NamedNode]) -> Iterator[Triple]:
    node = namer.paper(paper.key)
    yield Triple(node, RDF.type, SCHEMA.ScholarlyArticle)
    if paper.title:
        yield Triple(node, DCTERMS.title, string(paper.title.text))
    if paper.abstract:
        yield Triple(node, DCTERMS.abstract, string(paper.abstract.text))
    if paper.year:
        yield Triple(node, FABIO.hasPublicationYear, ox.Literal(paper.year.text, datatype=XSD.gYear))
    for identifier in paper.identifiers:
        yield Triple(node, DCTERMS.identifier, string(identifier))
    if paper.published:
        yield Triple(node, DCTERMS.issued, ox.Literal(paper.published, datatype=XSD.date))
    if paper.updated:
        yield Triple(node, DCTERMS.modified, ox.Literal(paper.updated, datatype=XSD.date))
    if paper.journal_ref:
        yield Triple(node, DCTERMS.bibliographicCitation, string(paper.journal_ref))
    if paper.comment:
        yield Triple(node, RDFS.comment, string(paper.comment))
    if paper.venue:
        yield Triple(node, KG.venue, string(paper.venue))
    for url in paper.links:
        yield Triple(node, SCHEMA.url, ox.Literal(url, datatype=XSD.anyURI))
    for author in paper.authors:
        person = people[author.person]
        role = namer.authorship(paper.key, author.position)
        yield Triple(node, DCTERMS.creator, person)
        yield Triple(node, KG.authorship, role)
        yield Triple(role, RDF.type, KG.Authorship)
        yield Triple(role, KG.author, person)
        yield Triple(role, KG.position, integer(author.position))
        yield Triple(role, KG.nameAsWritten, string(author.written))
        for affiliation in author.affiliations:
            yield Triple(role, KG.affiliation, string(affiliation))
    for code in paper.subjects:
        yield Triple(node, DCTERMS.subject, subject_iri(code))
    if paper.primary_subject:
        yield Triple(node, KG.primarySubject, subject_iri(paper.primary_subject))
    for area in paper.areas:
        yield Triple(node, KG.area, namer.area(area))
    for source in paper.sources:
        record = namer.record(source.key)
        yield Triple(node, PROV.wasDerivedFrom, record)
        yield Triple(record, RDF.type, KG.SourceRecord)
        yield Triple(record, RDF.type, PROV.Entity)
        yield Triple(record, KG.sourceFile, _of_file(source.path))
        yield Triple(record, KG.sourceLine, integer(source.line))
        yield Triple(record, KG.reader, _of_file(source.reader))
        yield Triple(record, KG.fileDigest, _of_file(source.digest))
    for reason in paper.merge_reasons:
        yield Triple(node, KG.mergeReason, string(reason))
    yield from _mentions(paper, node, namer)


def _mentions(paper: Paper, node: ox.NamedNode, namer: Namer) -> Iterator[Triple]:
    records = {(s.path, s.line): s.key for s in paper.sources}
    seen: set[tuple[str, str]] = set()
    for m in paper.mentions:
        if (m.kind, m.key) in seen:
            continue
        seen.add((m.kind, m.key))
        if m.kind == "repository":
            yield Triple(node, SCHEMA.codeRepository, ox.NamedNode(m.key))
        elif m.kind == "link":
            yield Triple(node, RDFS.seeAlso, ox.NamedNode(m.key))
        elif m.kind == "method":
            concept = method_iri(m.key)
            yield Triple(node, SCHEMA.mentions, concept)
            yield from _evidence(node, concept, namer.evidence(paper.key, m.key), m, records, namer)
        elif m.kind == "named-method":
            # a method the text names that no vocabulary knows: the concept of its name, the one a
            # paper introducing the name gets; the evidence key is set apart from known slugs'
            concept = namer.introduced(m.key)
            yield Triple(node, SCHEMA.mentions, concept)
            evidence = namer.evidence(paper.key, "named-" + m.key)
            yield from _evidence(node, concept, evidence, m, records, namer)
        elif m.kind == "introduced-method":
            yield Triple(node, KG.introduces, namer.introduced(m.key))
        elif m.kind == "introduced-resource":
            yield Triple(node, KG.introduces, namer.resource(m.key))


def _evidence(
    node: ox.NamedNode,
    concept: ox.NamedNode,
    evidence: ox.NamedNode,
    m: Mention,
    records: dict[tuple[str, int], str],
    namer: Namer,
) -> Iterator[Triple]:
    """The evidence of a paper's first mention of a method: the text as matched, and where."""
    yield Triple(node, KG.evidence, evidence)
    yield Triple(evidence, RDF.type, KG.Evidence)
    yield Triple(evidence, KG.evidenceOf, concept)
    yield Triple(evidence, KG.matchedText, string(m.text))
    yield Triple(evidence, KG.offset, integer(m.position))
    record = _record_of(m, records)
    if record is not None:
        yield Triple(evidence, KG.inRecord, namer.record(record))


def _record_of(m: Mention, records: dict[tuple[str, int], str]) -> str | None:
    """The source record a mention was found in (records start at or before its line)."""
    candidates = [
        (line, key) for (path, line), key in records.items() if path == m.at.path and line <= m.at.line
    ]
    return max(candidates)[1] if candidates else None


def _areas(areas: dict[str, Area], namer: Namer) -> Iterator[Triple]:
    scheme = namer.area_scheme()
    yield Triple(scheme, RDF.type, SKOS.ConceptScheme)
    yield Triple(scheme, SKOS.prefLabel, ox.Literal("Conference areas", language="en"))
    parents: dict[str, str] = {}
    for area in areas.values():
        parents.setdefault(area.parent_key, area.parent_label)
        node = namer.area(area.key)
        yield Triple(node, RDF.type, SKOS.Concept)
        # two areas share a leaf ("Everything Else" under many parents): the label every view and
        # query shows is the whole "Parent · Child" (SKOS wants prefLabels unique in a scheme);
        # the leaf alone is an altLabel
        yield Triple(node, SKOS.prefLabel, string(f"{area.parent_label} · {area.label}"))
        yield Triple(node, SKOS.altLabel, string(area.label))
        yield Triple(node, SKOS.inScheme, scheme)
        yield Triple(node, SKOS.broader, namer.area(area.parent_key))
        yield Triple(namer.area(area.parent_key), SKOS.narrower, node)
    for key in sorted(parents):
        node = namer.area(key)
        yield Triple(node, RDF.type, SKOS.Concept)
        yield Triple(node, SKOS.prefLabel, string(parents[key]))
        yield Triple(node, SKOS.inScheme, scheme)
        yield Triple(node, SKOS.topConceptOf, scheme)
        yield Triple(scheme, SKOS.hasTopConcept, node)


@dataclass(slots=True)
class _Repository:
    """What a repository's mentions say of it: the least owner and name, the least URL."""

    owner_name: tuple[str, str]
    url: str

    @staticmethod
    def add(summaries: dict[str, _Repository], m: Mention) -> None:
        owner_name, url = (m.get("owner"), m.get("name")), m.get("url")
        seen = summaries.get(m.key)
        if seen is None:
            summaries[m.key] = _Repository(owner_name, url)
        else:
            seen.owner_name = min(seen.owner_name, owner_name)
            seen.url = min(seen.url, url)


def _repository(key: str, summary: _Repository) -> Iterator[Triple]:
    node = ox.NamedNode(key)
    owner, name = summary.owner_name
    yield Triple(node, RDF.type, SCHEMA.SoftwareSourceCode)
    yield Triple(node, SCHEMA.name, string(f"{owner}/{name}"))
    yield Triple(node, KG.owner, string(owner))
    # every repository has its URL (as written when given, else its IRI): a query joining on it finds all
    yield Triple(node, SCHEMA.url, ox.Literal(summary.url or key, datatype=XSD.anyURI))


@dataclass(slots=True)
class _Introduced:
    """What the mentions of an introduced or named name say of it: the least label (of the papers
    that introduce it when there are any: the introducer names it), resource type, long form and
    short form (of those given), and every related and broader method slug."""

    label: str
    type: str
    full: str
    short: str
    related: frozenset[str]
    broader: frozenset[str]
    introduced: bool
    """Whether a paper introduces it (else papers only name it)."""

    @staticmethod
    def add(summaries: dict[tuple[str, str], _Introduced], m: Mention) -> None:
        related = frozenset(slug for slug in m.get("related").split(";") if slug)
        broader = frozenset((m.get("broader"),)) if m.get("broader") else frozenset()
        named = m.kind == "named-method"
        label = (m.get("label") or m.text) if named else m.text
        kind = "introduced-method" if named else m.kind
        seen = summaries.get((kind, m.key))
        if seen is None:
            summaries[kind, m.key] = _Introduced(
                label, m.get("type", "dataset"), m.get("full"), m.get("short"), related, broader, not named
            )
            return
        if named != seen.introduced:  # a label of the same standing: the least
            seen.label = min(seen.label, label)
        elif not named:  # the first introducing paper: its label wins over the names others wrote
            seen.label = label
            seen.introduced = True
        seen.type = min(seen.type, m.get("type", "dataset"))
        seen.full = _least(seen.full, m.get("full"))
        seen.short = _least(seen.short, m.get("short"))
        if not related <= seen.related:
            seen.related |= related
        if not broader <= seen.broader:
            seen.broader |= broader


def _least(a: str, b: str) -> str:
    """The lesser of two strings that are given (non-empty); empty when neither is."""
    return min(a, b) if a and b else a or b


def _introduced(resource: bool, key: str, summary: _Introduced, namer: Namer) -> Iterator[Triple]:
    node = namer.resource(key) if resource else namer.introduced(key)
    label = summary.label
    if resource:
        yield Triple(
            node, RDF.type, SCHEMA.SoftwareApplication if summary.type == "library" else SCHEMA.Dataset
        )
        yield Triple(node, SCHEMA.name, string(label))
        return
    yield Triple(node, RDF.type, KG.Method)
    yield Triple(node, RDF.type, SKOS.Concept)
    yield Triple(node, SKOS.inScheme, namer.introduced_scheme())
    yield Triple(node, SKOS.prefLabel, string(label))
    if summary.full and summary.full != label:
        yield Triple(node, SKOS.altLabel, string(summary.full))
    if summary.short:
        yield Triple(node, KG.shortForm, string(summary.short))
    broader = sorted(summary.broader)
    for slug in broader:
        yield Triple(node, SKOS.broader, method_iri(slug))
    for slug in sorted(summary.related):
        if slug not in summary.broader:
            yield Triple(node, SKOS.related, method_iri(slug))


@lru_cache(maxsize=1)
def ontology_triples() -> tuple[Triple, ...]:
    """The taxonomies shipped in ``ontology/`` that every graph includes."""
    triples: list[Triple] = []
    for name in ONTOLOGY_FILES:
        path = ontology_path(name)
        if not path.exists():
            continue
        with path.open("rb") as f:
            for t in ox.parse(f, format=ox.RdfFormat.TURTLE):
                triples.append(Triple(t.subject, t.predicate, t.object))  # default graph
    return tuple(triples)


def relabel(triples: Iterable[Triple], labels: Mapping[str, str]) -> Iterator[Triple]:
    """The taxonomy's triples with the known methods the user's thesaurus renames (``labels``: slug ->
    label, ``kg.curation.Curation.labels``) shown under their new label: it becomes the concept's
    ``skos:prefLabel`` (in the old one's language), and the old one an ``skos:altLabel`` (so the old
    name still finds the concept); an altLabel equal to the new label goes (SKOS keeps them apart)."""
    if not labels:
        yield from triples
        return
    renamed = {method_iri(slug).value: label for slug, label in labels.items()}
    for t in triples:
        label = renamed.get(t.subject.value) if isinstance(t.subject, ox.NamedNode) else None
        old = t.object
        if (
            label is None
            or not isinstance(old, ox.Literal)
            or t.predicate not in (SKOS.prefLabel, SKOS.altLabel)
        ):
            yield t
            continue
        if t.predicate == SKOS.prefLabel:
            language = old.language
            yield Triple(
                t.subject, SKOS.prefLabel, ox.Literal(label, language=language) if language else string(label)
            )
            if old.value != label:
                yield Triple(t.subject, SKOS.altLabel, old)
        elif old.value != label:
            yield t
