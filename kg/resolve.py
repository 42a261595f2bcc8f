"""Identity: records and their mentions become papers, persons and areas with stable keys.

A paper's identity is, in this order, its arXiv identifier, its DOI, then
the fingerprints of its normalized abstract and title.  Records that share
any identity key are one paper (connected components, so the result does not
depend on input order); each merge records why.  Two records with different
arXiv ids or DOIs are never merged, whatever else they share.

Where merged records disagree, each field comes from the most authoritative
record that has it (``kg.readers.Reader.RANK``), and an author list that names all
authors beats one that names only some (a profile page names only its person).
"""

from __future__ import annotations

import hashlib
import re
import sys
import unicodedata
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from itertools import islice
from typing import TYPE_CHECKING, NamedTuple

from kg.curation import Curation
from kg.errors import IssueLog, KgError
from kg.readers import rank as reader_rank
from kg.records import Location, Mention, Record, Span

if TYPE_CHECKING:
    pass

_MIN_ABSTRACT_WORDS = 12
_MIN_TITLE_WORDS = 4
_WORD = re.compile(r"\w+")


def fingerprint(text: str) -> str:
    """A short hash of text's words, case- and punctuation-insensitive.

    >>> fingerprint("Deep  Learning, revisited!") == fingerprint("deep learning revisited")
    True
    """
    words = _WORD.findall(unicodedata.normalize("NFKC", text).casefold())
    return hashlib.sha256(" ".join(words).encode("utf-8")).hexdigest()[:20]


def has_words(text: str, n: int) -> bool:
    """Whether ``text`` has at least ``n`` words (looking no further than the ``n``-th).

    >>> has_words("one two three", 3), has_words("one two", 3)
    (True, False)
    """
    return sum(1 for _ in islice(_WORD.finditer(text), n)) >= n


@dataclass(frozen=True, slots=True)
class SourceRef:
    """Where one record of a paper came from (its provenance)."""

    key: str
    path: str
    line: int
    reader: str
    digest: str


@dataclass(frozen=True, slots=True)
class Author:
    """One author of one paper: the person, the name as written, and the position (1-based)."""

    person: str
    written: str
    position: int
    at: Location
    affiliations: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Paper:
    """One resolved paper, ready to assemble."""

    key: str
    title: Span | None
    abstract: Span | None
    year: Span | None
    authors: tuple[Author, ...]
    subjects: tuple[str, ...]
    primary_subject: str | None
    areas: tuple[str, ...]
    mentions: tuple[Mention, ...]
    """Mentions other than authors, subjects and areas (repositories, links, methods ...)."""
    sources: tuple[SourceRef, ...]
    merge_reasons: tuple[str, ...]
    identifiers: tuple[str, ...]
    published: str | None = None
    updated: str | None = None
    journal_ref: str | None = None
    comment: str | None = None
    venue: str | None = None
    links: tuple[str, ...] = ()
    spellings: tuple[tuple[str, str], ...] = ()
    """Every author mention of its records as (person key, name as written): what persons are named
    from (the most frequent spelling over all papers), kept so that a delta build can name them again."""


@dataclass(frozen=True, slots=True)
class Person:
    key: str
    name: str


@dataclass(frozen=True, slots=True)
class Area:
    """A conference area ``parent/child`` with both labels."""

    key: str
    label: str
    parent_key: str
    parent_label: str


@dataclass(slots=True)
class Resolution:
    """Everything the assembler needs, in deterministic (sorted) order.

    The assembler reads it through :meth:`consume` first, then ``persons``, ``areas`` and
    :meth:`coauthor_pairs` (as it does a :class:`Streaming` resolution, whose papers come as
    their records are read)."""

    papers: list[Paper] = field(default_factory=list)
    persons: dict[str, Person] = field(default_factory=dict)
    areas: dict[str, Area] = field(default_factory=dict)
    records: int = 0
    _pairs: Counter[tuple[str, str]] | None = field(default=None, repr=False, compare=False)
    _handed: int = field(default=0, repr=False, compare=False)

    def coauthor_pairs(self) -> Counter[tuple[str, str]]:
        """Joint papers per unordered pair of person keys (``a < b``); papers with more than
        :data:`MAX_COAUTHORS` authors add none.  Counted once: the assembler and the build's
        summary both ask, and a resolution's papers do not change."""
        if self._pairs is None:
            self._pairs = Counter()
            for paper in self.papers:
                add_pairs(self._pairs, paper)
        return self._pairs

    def counts(self) -> dict[str, int]:
        """What a build reports of its resolution: records, papers, persons, coauthor pairs."""
        return {
            "records": self.records,
            "papers": self._handed + len(self.papers),
            "persons": len(self.persons),
            "coauthor_pairs": len(self.coauthor_pairs()),
        }

    def consume(self) -> Iterator[Paper]:
        """The papers in order, each let go once the caller has moved on to the next; the resolution
        keeps none of them afterwards (its counts and coauthor pairs stay).  The assembler's one
        pass: a big build's papers are freed while their triples are loaded."""
        self.coauthor_pairs()
        papers, self.papers = self.papers, []
        papers.reverse()
        while papers:
            self._handed += 1
            yield papers.pop()


def persons_of(paper: Paper) -> set[str]:
    """The keys of a paper's authors (a person listed twice counts once)."""
    return {a.person for a in paper.authors}


def pairs_among(persons: Iterable[str]) -> list[tuple[str, str]]:
    """The coauthor pairs (``a < b``) of one paper's authors: none when it has more than
    :data:`MAX_COAUTHORS` (a person listed twice counts once).

    >>> pairs_among(["b", "a", "c", "a"])
    [('a', 'b'), ('a', 'c'), ('b', 'c')]
    """
    people = sorted(set(persons))
    if len(people) > MAX_COAUTHORS:
        return []
    return [(a, b) for i, a in enumerate(people) for b in people[i + 1 :]]


def add_pairs(pairs: Counter[tuple[str, str]], paper: Paper) -> None:
    """Count a paper's coauthor pairs (see :func:`pairs_among`)."""
    pairs.update(pairs_among(persons_of(paper)))


MAX_COAUTHORS = 100
"""Papers with more authors add no ``kg:coauthor`` links, only authorships: a 3,000-author physics
paper would add 4.5 million pairs and say little about who works with whom (bibliometric tools cut
such hyperauthorship papers from coauthor networks for the same reason)."""


@dataclass(slots=True)
class _Draft:
    record: Record
    mentions: list[Mention]
    keys: list[str]


@dataclass(frozen=True, slots=True)
class Identity:
    """What resolution needs of a record before its mentions are extracted: where it is, and the
    keys that identify its paper (:func:`identity_keys`)."""

    at: Location
    key: str
    keys: tuple[str, ...]

    @classmethod
    def of(cls, record: Record) -> Identity:
        return cls(record.at, record.key, tuple(identity_keys(record)))


Place = tuple[str, int]
"""A record's place in the input: its file's SHA-256 and its index among the file's records."""


class Planned(NamedTuple):
    """A record as the first pass saw it."""

    group: int
    line: int
    keys: tuple[str, ...]


@dataclass(slots=True)
class Plan:
    """Which records make each paper, found from every record's :class:`Identity` alone (a first,
    light pass over the inputs), so that a paper is resolved as soon as its last record is read."""

    records: dict[Place, Planned]
    """Every record to come, by its place: its paper's group, its line and its identity keys (taken
    out as the record comes)."""
    sizes: list[int]
    """Records per group."""
    reasons: list[list[str]]
    conflicts: list[tuple[Location, str]]
    """Records kept apart although they share a key: reported once the records have been read."""

    @classmethod
    def of(cls, identities: Iterable[tuple[Place, Identity]]) -> Plan:
        """Connected components of records sharing an identity key (in the order of their places),
        each with why they merged; two with different arXiv ids or DOIs are never merged."""
        ordered = sorted(identities, key=lambda pi: pi[0])
        parent = list(range(len(ordered)))
        strong: list[dict[str, str]] = [_strong(list(i.keys)) for _, i in ordered]
        reason: dict[int, list[str]] = defaultdict(list)
        conflicts: list[tuple[Location, str]] = []

        def find(i: int) -> int:
            while parent[i] != i:
                parent[i] = parent[parent[i]]
                i = parent[i]
            return i

        owner: dict[str, int] = {}
        for i, (_, identity) in enumerate(ordered):
            for key in identity.keys:
                j = owner.setdefault(key, i)
                if j == i:
                    continue
                a, b = find(i), find(j)
                if a == b:
                    continue
                if _conflict(strong[a], strong[b]):
                    conflicts.append(
                        (
                            identity.at,
                            f"record shares {key.split(':')[0]} with {ordered[j][1].at} "
                            "but has a different arXiv id or DOI; kept apart",
                        )
                    )
                    continue
                lo, hi = min(a, b), max(a, b)
                parent[hi] = lo
                strong[lo] = {**strong[hi], **strong[lo]}
                reason[lo] += reason.pop(hi, [])
                reason[lo].append(
                    f"{identity.key} and {ordered[j][1].key} share {key.split(':')[0]} {key.split(':', 1)[1]}"
                )
        index: dict[int, int] = {}
        records: dict[Place, Planned] = {}
        sizes: list[int] = []
        reasons: list[list[str]] = []
        for i, (place, identity) in enumerate(ordered):
            root = find(i)
            if root not in index:
                index[root] = len(sizes)
                sizes.append(0)
                reasons.append(sorted(reason.get(root, [])))
            records[place] = Planned(index[root], identity.at.line, identity.keys)
            sizes[index[root]] += 1
        return cls(records, sizes, reasons, conflicts)


class Streaming:
    """Papers resolved as their records come, following a :class:`Plan`: a paper is made when
    its last record arrives, and only records still waiting for the others of their paper are
    held (memory grows with the papers' persons and links, not with the records read).

    ``records`` yields each record with its place and mentions (each is taken out of the plan as it
    comes, so the plan shrinks as the build goes on); :meth:`consume` hands out the
    papers, then ``persons``, ``areas`` and :meth:`coauthor_pairs` are complete (what the
    assembler needs, as of a :class:`Resolution`)."""

    def __init__(
        self,
        plan: Plan,
        log: IssueLog,
        records: Iterable[tuple[Place, Record, list[Mention]]],
        observe: Callable[[Paper], None] | None = None,
        curation: Curation | None = None,
        dropped: Callable[[Paper], None] | None = None,
    ) -> None:
        self.plan = plan
        self.curation = curation
        self.log = log
        self.records = 0
        self.papers = 0
        self.persons: dict[str, Person] = {}
        self.areas: dict[str, Area] = {}
        self._source = records
        self._observe = observe
        self._dropped = dropped
        self._pending: dict[int, list[tuple[Place, _Draft]]] = {}
        self._names: dict[str, Counter[str]] = defaultdict(Counter)
        self._pairs: Counter[tuple[str, str]] = Counter()
        self._made: set[str] = set()

    def coauthor_pairs(self) -> Counter[tuple[str, str]]:
        return self._pairs

    def counts(self) -> dict[str, int]:
        return {
            "records": self.records,
            "papers": self.papers,
            "persons": len(self.persons),
            "coauthor_pairs": len(self._pairs),
        }

    def consume(self) -> Iterator[Paper]:
        for place, record, mentions in self._source:
            paper = self.add(place, record, mentions)
            if paper is not None:
                yield paper
        self.finish()

    def add(self, place: Place, record: Record, mentions: list[Mention]) -> Paper | None:
        """Take one record; the paper it completes, if it is the last of its paper's records."""
        # the keys found in the first pass; the record must be the one seen there
        planned = self.plan.records.pop(place, None)
        if planned is None or planned.line != record.at.line:
            raise KgError(
                "the file changed while it was being read (its records are not those of the first "
                "pass); build again",
                record.at,
                code="input-changed",
            )
        keys = list(planned.keys)
        self.records += 1
        if self.curation is not None:
            mentions = self.curation.apply(mentions)
        group = planned.group
        waiting = self._pending.setdefault(group, [])
        waiting.append((place, _Draft(record, mentions, keys)))
        if len(waiting) < self.plan.sizes[group]:
            return None
        del self._pending[group]
        waiting.sort(key=lambda pd: pd[0])
        members = [d for _, d in waiting]
        paper = _paper(members, self.plan.reasons[group], self._names, self.areas, self.log)
        if paper.key in self._made:  # distinct groups can only collide on a hash; keep the first
            self.log.warn(members[0].record.at, "paper-key-collision", f"paper key {paper.key} reused")
            if self._dropped is not None:  # its persons were named from it all the same
                self._dropped(paper)
            return None
        self._made.add(paper.key)
        if len(persons_of(paper)) > MAX_COAUTHORS:
            self.log.warn(
                members[0].record.at,
                "many-authors",
                f"{len(paper.authors)} authors, more than {MAX_COAUTHORS}: their authorships are kept "
                "but they are not linked as coauthors",
            )
        self.papers += 1
        add_pairs(self._pairs, paper)
        if self._observe is not None:
            self._observe(paper)
        return paper

    def finish(self) -> None:
        """After the last record: check every paper was made, report the records kept apart, and
        name the persons."""
        missing = len(self.plan.records)
        if self._pending or missing:
            at = self._pending[min(self._pending)][0][1].record.at if self._pending else None
            raise KgError(
                f"{missing} records planned in the first pass were not read again (an input changed "
                "during the build); build again",
                at,
                code="input-changed",
            )
        for at, message in self.plan.conflicts:
            self.log.warn(at, "identity-conflict", message)
        if self.curation is not None:
            for entry in self.curation.unused():
                self.log.warn(
                    entry.at,
                    "thesaurus-unused",
                    f"{entry.label!r} is the name of no person and the label of no method of this build; "
                    "the row changed nothing",
                )
        self.persons = _persons(self._names, self.curation.names if self.curation is not None else {})
        self.areas = dict(sorted(self.areas.items()))


class Resolver:
    """Collects records with their mentions, then resolves them all at once (a build streams them
    through :class:`Streaming` instead)."""

    def __init__(self, log: IssueLog, curation: Curation | None = None) -> None:
        self.log = log
        self.curation = curation
        self._items: list[tuple[Place, Record, list[Mention]]] = []
        self._ordinal: Counter[str] = Counter()

    def add(self, record: Record, mentions: Iterable[Mention]) -> None:
        digest = record.source.digest
        self._items.append(((digest, self._ordinal[digest]), record, list(mentions)))
        self._ordinal[digest] += 1

    def resolve(self) -> Resolution:
        items = sorted(self._items, key=lambda item: item[0])
        plan = Plan.of((place, Identity.of(record)) for place, record, _ in items)
        streaming = Streaming(plan, self.log, items, curation=self.curation)
        papers = sorted(streaming.consume(), key=lambda p: p.key)
        return Resolution(papers, streaming.persons, streaming.areas, records=streaming.records)


def _persons(names: dict[str, Counter[str]], chosen: Mapping[str, str]) -> dict[str, Person]:
    """Each person named by the most frequent spelling of their name (ties: the first in sort order),
    or by the name the user's thesaurus gives (``chosen``, by person key)."""
    persons = {}
    for key in sorted(names):
        best = chosen.get(key) or min(names[key].items(), key=lambda kv: (-kv[1], kv[0]))[0]
        persons[key] = Person(key, best)
    return persons


def _paper(
    members: list[_Draft],
    reasons: list[str],
    names: dict[str, Counter[str]],
    all_areas: dict[str, Area],
    log: IssueLog,
) -> Paper:
    ranked = sorted(
        members,
        key=lambda d: (reader_rank(d.record.reader), d.record.source.digest, d.record.at.line),
    )
    records = [d.record for d in ranked]
    key = paper_key(sorted({k for d in members for k in d.keys}))
    title = next((r.title for r in records if r.title), None)
    abstract = next((r.abstract for r in records if r.abstract), None)
    year = next((r.year for r in records if r.year), None)
    by_kind: dict[str, list[Mention]] = defaultdict(list)
    for d in ranked:
        for m in d.mentions:
            by_kind[m.kind].append(m)
    authors, spellings = _authors(ranked, names, log)
    subjects: list[str] = []
    primary: str | None = None
    for m in by_kind.pop("subject", []):
        if m.key not in subjects:
            subjects.append(m.key)
        if primary is None and m.get("primary") == "1":
            primary = m.key
    areas: list[str] = []
    for m in by_kind.pop("area", []):
        if m.key not in areas:
            areas.append(m.key)
            parent = m.key.split("/")[0]
            all_areas.setdefault(m.key, Area(m.key, m.get("child"), parent, m.get("parent")))
    by_kind.pop("author", None)
    if "named-method" in by_kind and "introduced-method" in by_kind:
        by_kind["named-method"] = _own_names(by_kind["named-method"], by_kind["introduced-method"])
    others = [m for kind in sorted(by_kind) for m in by_kind[kind]]
    sources = tuple(
        SourceRef(r.key, r.source.path, r.at.line, r.reader, r.source.digest)
        for r in sorted(records, key=lambda r: r.key)
    )
    identifiers = tuple(sorted({s.text for r in records for s in r.identifiers}))
    published = min((r.published.text for r in records if r.published), default=None)
    updated = max((r.updated.text for r in records if r.updated), default=None)
    return Paper(
        key=key,
        title=title,
        abstract=abstract,
        year=year,
        authors=authors,
        subjects=tuple(sorted(subjects)),
        primary_subject=primary,
        areas=tuple(sorted(areas)),
        mentions=tuple(others),
        sources=sources,
        merge_reasons=tuple(reasons),
        identifiers=identifiers,
        published=published,
        updated=updated,
        journal_ref=_first(r.journal_ref for r in records),
        comment=_first(r.comment for r in records),
        venue=_first(r.venue for r in records),
        links=tuple(sorted({s.text for r in records for s in r.links})),
        spellings=spellings,
    )


def _authors(
    ranked: list[_Draft], names: dict[str, Counter[str]], log: IssueLog
) -> tuple[tuple[Author, ...], tuple[tuple[str, str], ...]]:
    lists = [[m for m in d.mentions if m.kind == "author"] for d in ranked]
    complete = [(d, ms) for d, ms in zip(ranked, lists, strict=True) if ms and d.record.authors_complete]
    chosen = complete[0][1] if complete else []
    affiliations: dict[int, list[str]] = defaultdict(list)
    if complete:
        for index, span in complete[0][0].record.affiliations:
            affiliations[index].append(span.text)
    # person keys interned: each paper's come from its own worker results, and the coauthor pairs
    # (millions at 1M papers) would otherwise keep every paper's copies alive
    authors = [
        Author(sys.intern(m.key), m.text, i + 1, m.at, tuple(affiliations.get(int(m.get("index", "-1")), ())))
        for i, m in enumerate(chosen)
    ]
    present = {a.person for a in authors}
    for d, ms in zip(ranked, lists, strict=True):
        for m in ms:
            if m.key in present:
                continue
            if complete:
                log.warn(
                    m.at,
                    "author-not-listed",
                    f"{m.text!r} is named by this {d.record.reader} record but not in the merged "
                    "paper's author list; added at the end",
                )
            present.add(m.key)
            authors.append(Author(sys.intern(m.key), m.text, len(authors) + 1, m.at))
    spellings: list[tuple[str, str]] = []
    for d, ms in zip(ranked, lists, strict=True):
        for m in ms:
            spelling = m.get("name", m.text)
            names[m.key][spelling] += 1
            spellings.append((m.key, spelling))
        del d
    return tuple(authors), tuple(spellings)


def _own_names(named: list[Mention], introduced: list[Mention]) -> list[Mention]:
    """A paper's named methods, those that are a method it introduces under its other form keyed as
    that method: "we propose Foo Bar Network (FBN) ... Foo Bar Network is faster" names FBN, the
    concept the paper introduces (and that other papers naming FBN mention)."""
    from kg.extractors.methods import name_key

    own: dict[str, str] = {}
    for m in introduced:
        for form in (m.get("full"), m.get("short"), m.text):
            if form:
                own.setdefault(name_key(form), m.key)
    return [
        Mention(m.kind, own[m.key], m.text, m.at, m.extractor, m.position, m.detail)
        if own.get(m.key, m.key) != m.key
        else m
        for m in named
    ]


def _first(spans: Iterable[Span | None]) -> str | None:
    return next((s.text for s in spans if s is not None), None)


def identity_keys(record: Record) -> list[str]:
    """The keys that identify a record's paper, strongest first.

    >>> from kg.records import SourceFile
    >>> r = Record("t", SourceFile("t", "0" * 64, "t"), Location("t", 1),
    ...            identifiers=(Span("arxiv:2401.00001v2", Location("t", 1)),))
    >>> identity_keys(r)
    ['arxiv:2401.00001']
    """
    keys: list[str] = []
    for span in record.identifiers:
        scheme, _, value = span.text.partition(":")
        value = value.strip()
        if scheme == "arxiv" and value:
            keys.append("arxiv:" + re.sub(r"v\d+$", "", value))
        elif scheme == "doi" and value:
            keys.append("doi:" + value.lower())
    if record.abstract and has_words(record.abstract.text, _MIN_ABSTRACT_WORDS):
        keys.append("abstract:" + fingerprint(record.abstract.text))
    if record.title and has_words(record.title.text, _MIN_TITLE_WORDS):
        keys.append("title:" + fingerprint(record.title.text))
    if not keys:
        # too little text to recognise the paper elsewhere: it is its own paper
        keys.append("record:" + record.key)
    return keys


def paper_key(keys: list[str]) -> str:
    """The IRI key of a paper from its identity keys: arXiv id, else DOI, else a fingerprint.

    >>> paper_key(["abstract:ab12", "arxiv:2401.00001"])
    'arxiv-2401.00001'
    >>> paper_key(["arxiv:hep-th/9901001"])
    'arxiv-hep-th_9901001'
    >>> paper_key(["title:ff", "abstract:ab12"])
    'a-ab12'
    """
    by_scheme: dict[str, list[str]] = defaultdict(list)
    for key in keys:
        scheme, _, value = key.partition(":")
        by_scheme[scheme].append(value)
    if by_scheme["arxiv"]:
        return "arxiv-" + min(by_scheme["arxiv"]).replace("/", "_")
    if by_scheme["doi"]:
        return "doi-" + hashlib.sha256(min(by_scheme["doi"]).encode()).hexdigest()[:20]
    if by_scheme["abstract"]:
        return "a-" + min(by_scheme["abstract"])
    if by_scheme["title"]:
        return "t-" + min(by_scheme["title"])
    return "r-" + min(by_scheme["record"]).replace("/", "-")


def _strong(keys: list[str]) -> dict[str, str]:
    return {k.partition(":")[0]: k for k in keys if k.startswith(("arxiv:", "doi:"))}


def _conflict(a: dict[str, str], b: dict[str, str]) -> bool:
    return any(scheme in b and b[scheme] != key for scheme, key in a.items())


# --- the user's thesaurus --------------------------------------------------------------------------


