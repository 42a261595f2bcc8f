"""Identity: records and their mentions become papers, persons and areas with stable keys.

Which records make one paper is decided by :mod:`kg.grouping` (identity keys, connected components);
here the records of each group become one :class:`Paper`.  Where merged records disagree, each field comes from the most authoritative
record that has it (``kg.readers.Reader.RANK``), and an author list that names all
authors beats one that names only some (a profile page names only its person).
"""

from __future__ import annotations

import sys
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field

from kg.curation import Curation
from kg.errors import Issue, IssueLog, KgError
from kg.grouping import Identity, Place, Plan, Planned, identity_keys, paper_key
from kg.kinds.people import MAX_COAUTHORS, pairs_among
from kg.readers import rank as reader_rank
from kg.records import Location, Mention, Record, Span

__all__ = [
    "MAX_COAUTHORS",
    "Area",
    "Author",
    "Identity",
    "Paper",
    "Person",
    "Place",
    "Plan",
    "Planned",
    "Resolution",
    "Resolver",
    "SourceRef",
    "Streaming",
    "identity_keys",
    "pairs_among",
    "paper_key",
]


@dataclass(frozen=True, slots=True)
class SourceRef:
    """Where one record of a paper came from (its provenance)."""

    key: str
    path: str
    line: int
    reader: str
    digest: str
    ordinal: int = 0
    """The record's index among its file's records (its place, with ``digest``)."""
    keys: tuple[str, ...] = ()
    """The identity keys it was grouped by (``kg.grouping.identity_keys``)."""


@dataclass(frozen=True, slots=True)
class Author:
    """One author of one paper: the person, the name as written, and the position (1-based)."""

    person: str
    written: str
    position: int
    at: Location
    affiliations: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Area:
    """A conference area ``parent/child`` with both labels."""

    key: str
    label: str
    parent_key: str
    parent_label: str


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
    areas: tuple[Area, ...]
    """Its conference areas, by key, each with the labels its records give."""
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


def add_pairs(pairs: Counter[tuple[str, str]], paper: Paper) -> None:
    """Count a paper's coauthor pairs (see :func:`pairs_among`)."""
    pairs.update(pairs_among(persons_of(paper)))


@dataclass(slots=True)
class _Draft:
    record: Record
    mentions: list[Mention]
    place: Place
    keys: tuple[str, ...]


class Streaming:
    """Papers resolved as their records come, following a :class:`~kg.grouping.Plan`: a paper is
    made when its last record arrives, and only records still waiting for the others of their paper
    are held (memory grows with the papers, not with the records read).

    ``records`` yields each record with its place and mentions (each is taken out of the plan as it
    comes, so the plan shrinks as the build goes on); :meth:`consume` hands out the papers.  Each
    paper made is given to ``observe`` with the issues only it concerns (a merge kept apart, see
    ``Plan.conflicts``), and a paper dropped because an earlier one took its key to ``dropped``."""

    def __init__(
        self,
        plan: Plan,
        log: IssueLog,
        records: Iterable[tuple[Place, Record, list[Mention]]],
        observe: Callable[[Paper, list[Issue]], None] | None = None,
        curation: Curation | None = None,
        dropped: Callable[[Paper, list[Issue]], None] | None = None,
    ) -> None:
        self.plan = plan
        self.curation = curation
        self.log = log
        self.records = 0
        self.papers = 0
        self._source = records
        self._observe = observe
        self._dropped = dropped
        self._pending: dict[int, list[_Draft]] = {}
        self._made: set[str] = set()
        self._conflicts: dict[int, list[Issue]] = defaultdict(list)
        for (at, message), group in zip(plan.conflicts, plan.conflict_groups, strict=False):
            self._conflicts[group].append(Issue(at, "warning", "identity-conflict", message))

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
        self.records += 1
        if self.curation is not None:
            mentions = self.curation.apply(mentions)
        group = planned.group
        waiting = self._pending.setdefault(group, [])
        waiting.append(_Draft(record, mentions, place, planned.keys))
        if len(waiting) < self.plan.sizes[group]:
            return None
        del self._pending[group]
        waiting.sort(key=lambda d: d.place)
        paper = _paper(waiting, self.plan.reasons[group], self.log)
        conflicts = self._conflicts.pop(group, [])
        if paper.key in self._made:  # distinct groups can only collide on a hash; keep the first
            self.log.warn(waiting[0].record.at, "paper-key-collision", f"paper key {paper.key} reused")
            if self._dropped is not None:  # its persons were named from it all the same
                self._dropped(paper, conflicts)
            return None
        self._made.add(paper.key)
        if len({a.person for a in paper.authors}) > MAX_COAUTHORS:
            self.log.warn(
                waiting[0].record.at,
                "many-authors",
                f"{len(paper.authors)} authors, more than {MAX_COAUTHORS}: their authorships are kept "
                "but they are not linked as coauthors",
            )
        self.papers += 1
        if self._observe is not None:
            self._observe(paper, conflicts)
        return paper

    def finish(self) -> None:
        """After the last record: check every paper was made, report the records kept apart, and
        the thesaurus rows that changed nothing."""
        missing = len(self.plan.records)
        if self._pending or missing:
            at = self._pending[min(self._pending)][0].record.at if self._pending else None
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
        names: dict[str, Counter[str]] = defaultdict(Counter)
        for paper in papers:
            for person, spelling in paper.spellings:
                names[person][spelling] += 1
        chosen = self.curation.names if self.curation is not None else {}
        areas = {a.key: a for paper in papers for a in paper.areas}
        return Resolution(papers, _persons(names, chosen), dict(sorted(areas.items())), records=streaming.records)


def _persons(names: dict[str, Counter[str]], chosen: Mapping[str, str]) -> dict[str, Person]:
    """Each person named by the most frequent spelling of their name (ties: the first in sort order),
    or by the name the user's thesaurus gives (``chosen``, by person key)."""
    persons = {}
    for key in sorted(names):
        best = chosen.get(key) or min(names[key].items(), key=lambda kv: (-kv[1], kv[0]))[0]
        persons[key] = Person(key, best)
    return persons


def _paper(members: list[_Draft], reasons: list[str], log: IssueLog) -> Paper:
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
    authors, spellings = _authors(ranked, log)
    subjects: list[str] = []
    primary: str | None = None
    for m in by_kind.pop("subject", []):
        if m.key not in subjects:
            subjects.append(m.key)
        if primary is None and m.get("primary") == "1":
            primary = m.key
    areas: dict[str, Area] = {}
    for m in by_kind.pop("area", []):
        if m.key not in areas:
            areas[m.key] = Area(m.key, m.get("child"), m.key.split("/")[0], m.get("parent"))
    by_kind.pop("author", None)
    if "introduced-method" in by_kind or "introduced-resource" in by_kind:
        # the records of a merged paper may name one method differently: the paper's own names settled
        # over all of them (each record's were, by the extractor)
        by_kind = _own_names(by_kind)
    others = [m for kind in sorted(by_kind) for m in by_kind[kind]]
    sources = tuple(
        SourceRef(d.record.key, d.record.source.path, d.record.at.line, d.record.reader, *d.place, d.keys)
        for d in sorted(members, key=lambda d: d.record.key)
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
        areas=tuple(areas[k] for k in sorted(areas)),
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


def _authors(ranked: list[_Draft], log: IssueLog) -> tuple[tuple[Author, ...], tuple[tuple[str, str], ...]]:
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
    for ms in lists:
        for m in ms:
            spellings.append((m.key, m.get("name", m.text)))
    return tuple(authors), tuple(spellings)


def _own_names(by_kind: dict[str, list[Mention]]) -> dict[str, list[Mention]]:
    """A merged paper's mentions by kind, its own names settled (``kg.extractors.methods.own_names``:
    one concept per name it introduces, its own names introduced rather than mentioned)."""
    from kg.extractors.methods import own_names

    kinds = ("method", "named-method", "introduced-method", "introduced-resource")
    found = [m for kind in kinds for m in by_kind.get(kind, ())]
    settled: dict[str, list[Mention]] = {kind: v for kind, v in by_kind.items() if kind not in kinds}
    for m in own_names(found):
        settled.setdefault(m.kind, []).append(m)
    return settled


def _first(spans: Iterable[Span | None]) -> str | None:
    return next((s.text for s in spans if s is not None), None)


# --- the user's thesaurus --------------------------------------------------------------------------


