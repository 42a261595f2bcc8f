"""Identity: records and their mentions become papers, persons and areas with stable keys.

A paper's identity is, in this order, its arXiv identifier, its DOI, then
the fingerprints of its normalized abstract and title.  Records that share
any identity key are one paper (connected components, so the result does not
depend on input order); each merge records why.  Two records with different
arXiv ids or DOIs are never merged, whatever else they share.

Where merged records disagree, each field comes from the most authoritative
record that has it (:data:`READER_RANK`), and an author list that names all
authors beats one that names only some (a profile page names only its person).
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from collections import Counter, defaultdict
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

from kg.errors import IssueLog
from kg.records import Location, Mention, Record, Span

READER_RANK: dict[str, int] = {
    "arxiv-atom": 0,
    "arxiv-oai": 1,
    "arxiv-jsonl": 2,
    "bibtex": 3,
    "profile": 4,
    "listing": 5,
    "daily": 6,
}
"""Which source wins a field when merged records disagree (lower wins)."""

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


def word_count(text: str) -> int:
    return len(_WORD.findall(text))


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
    """Everything the assembler needs, in deterministic (sorted) order."""

    papers: list[Paper] = field(default_factory=list)
    persons: dict[str, Person] = field(default_factory=dict)
    areas: dict[str, Area] = field(default_factory=dict)
    records: int = 0
    _pairs: Counter[tuple[str, str]] | None = field(default=None, repr=False, compare=False)

    def coauthor_pairs(self) -> Counter[tuple[str, str]]:
        """Joint papers per unordered pair of person keys (``a < b``); papers with more than
        :data:`MAX_COAUTHORS` authors add none.  Counted once: the assembler and the build's
        summary both ask, and a resolution's papers do not change."""
        if self._pairs is None:
            pairs: Counter[tuple[str, str]] = Counter()
            for paper in self.papers:
                people = sorted(persons_of(paper))
                if len(people) > MAX_COAUTHORS:
                    continue
                for i, a in enumerate(people):
                    for b in people[i + 1 :]:
                        pairs[(a, b)] += 1
            self._pairs = pairs
        return self._pairs

    def counts(self) -> dict[str, int]:
        """What a build reports of its resolution: records, papers, persons, coauthor pairs."""
        return {
            "records": self.records,
            "papers": len(self.papers),
            "persons": len(self.persons),
            "coauthor_pairs": len(self.coauthor_pairs()),
        }

    def consume(self) -> Iterator[Paper]:
        """The papers in order, each let go once the caller has moved on to the next; the resolution
        keeps none of them (nor its coauthor pairs) afterwards.  The assembler's one pass: a big
        build's papers are freed while their triples are loaded instead of being held to the end."""
        papers, self.papers, self._pairs = self.papers, [], None
        papers.reverse()
        while papers:
            yield papers.pop()


def persons_of(paper: Paper) -> set[str]:
    """The keys of a paper's authors (a person listed twice counts once)."""
    return {a.person for a in paper.authors}


MAX_COAUTHORS = 100
"""Papers with more authors add no ``kg:coauthor`` links, only authorships: a 3,000-author physics
paper would add 4.5 million pairs and say little about who works with whom (bibliometric tools cut
such hyperauthorship papers from coauthor networks for the same reason)."""


@dataclass(slots=True)
class _Draft:
    record: Record
    mentions: list[Mention]
    keys: list[str]


class Resolver:
    """Collects records with their mentions, then resolves them all at once."""

    def __init__(self, log: IssueLog) -> None:
        self.log = log
        self._drafts: list[_Draft] = []

    def add(self, record: Record, mentions: Iterable[Mention]) -> None:
        self._drafts.append(_Draft(record, list(mentions), identity_keys(record)))

    def resolve(self) -> Resolution:
        drafts = sorted(self._drafts, key=lambda d: (d.record.source.digest, d.record.at.line))
        groups = self._group(drafts)
        resolution = Resolution(records=len(drafts))
        names: dict[str, Counter[str]] = defaultdict(Counter)
        papers: dict[str, Paper] = {}
        for members, reasons in groups:
            paper = self._paper(members, reasons, names, resolution)
            if paper.key in papers:  # distinct groups can only collide on a hash; keep both
                self.log.warn(members[0].record.at, "paper-key-collision", f"paper key {paper.key} reused")
                continue
            papers[paper.key] = paper
            if len(persons_of(paper)) > MAX_COAUTHORS:
                self.log.warn(
                    members[0].record.at,
                    "many-authors",
                    f"{len(paper.authors)} authors, more than {MAX_COAUTHORS}: their authorships are kept "
                    "but they are not linked as coauthors",
                )
        resolution.papers = [papers[k] for k in sorted(papers)]
        for key, counter in names.items():
            # the most frequent spelling names the person; ties go to the first in sort order
            best = min(counter.items(), key=lambda kv: (-kv[1], kv[0]))[0]
            resolution.persons[key] = Person(key, best)
        resolution.persons = dict(sorted(resolution.persons.items()))
        resolution.areas = dict(sorted(resolution.areas.items()))
        return resolution

    def _group(self, drafts: list[_Draft]) -> list[tuple[list[_Draft], list[str]]]:
        """Connected components of records sharing an identity key, each with why they merged."""
        parent = list(range(len(drafts)))
        strong: list[dict[str, str]] = [_strong(d.keys) for d in drafts]
        reason: dict[int, list[str]] = defaultdict(list)

        def find(i: int) -> int:
            while parent[i] != i:
                parent[i] = parent[parent[i]]
                i = parent[i]
            return i

        owner: dict[str, int] = {}
        for i, draft in enumerate(drafts):
            for key in draft.keys:
                j = owner.setdefault(key, i)
                if j == i:
                    continue
                a, b = find(i), find(j)
                if a == b:
                    continue
                if _conflict(strong[a], strong[b]):
                    self.log.warn(
                        draft.record.at,
                        "identity-conflict",
                        f"record shares {key.split(':')[0]} with {drafts[j].record.at} "
                        "but has a different arXiv id or DOI; kept apart",
                    )
                    continue
                lo, hi = min(a, b), max(a, b)
                parent[hi] = lo
                strong[lo] = {**strong[hi], **strong[lo]}
                reason[lo] += reason.pop(hi, [])
                reason[lo].append(
                    f"{drafts[i].record.key} and {drafts[j].record.key} share {key.split(':')[0]} {key.split(':', 1)[1]}"
                )
        members: dict[int, list[_Draft]] = defaultdict(list)
        for i, draft in enumerate(drafts):
            members[find(i)].append(draft)
        return [(members[root], sorted(reason.get(root, []))) for root in sorted(members)]

    def _paper(
        self,
        members: list[_Draft],
        reasons: list[str],
        names: dict[str, Counter[str]],
        resolution: Resolution,
    ) -> Paper:
        ranked = sorted(
            members,
            key=lambda d: (READER_RANK.get(d.record.reader, 99), d.record.source.digest, d.record.at.line),
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
        authors = self._authors(ranked, names)
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
                resolution.areas.setdefault(m.key, Area(m.key, m.get("child"), parent, m.get("parent")))
        by_kind.pop("author", None)
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
        )

    def _authors(self, ranked: list[_Draft], names: dict[str, Counter[str]]) -> tuple[Author, ...]:
        lists = [[m for m in d.mentions if m.kind == "author"] for d in ranked]
        complete = [(d, ms) for d, ms in zip(ranked, lists, strict=True) if ms and d.record.authors_complete]
        chosen = complete[0][1] if complete else []
        affiliations: dict[int, list[str]] = defaultdict(list)
        if complete:
            for index, span in complete[0][0].record.affiliations:
                affiliations[index].append(span.text)
        authors = [
            Author(m.key, m.text, i + 1, m.at, tuple(affiliations.get(int(m.get("index", "-1")), ())))
            for i, m in enumerate(chosen)
        ]
        present = {a.person for a in authors}
        for d, ms in zip(ranked, lists, strict=True):
            for m in ms:
                if m.key in present:
                    continue
                if complete:
                    self.log.warn(
                        m.at,
                        "author-not-listed",
                        f"{m.text!r} is named by this {d.record.reader} record but not in the merged "
                        "paper's author list; added at the end",
                    )
                present.add(m.key)
                authors.append(Author(m.key, m.text, len(authors) + 1, m.at))
        for d, ms in zip(ranked, lists, strict=True):
            for m in ms:
                names[m.key][m.get("name", m.text)] += 1
            del d
        return tuple(authors)


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
    if record.abstract and word_count(record.abstract.text) >= _MIN_ABSTRACT_WORDS:
        keys.append("abstract:" + fingerprint(record.abstract.text))
    if record.title and word_count(record.title.text) >= _MIN_TITLE_WORDS:
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
