"""Which records make one paper: the identity keys of a record, and records grouped by them.

A paper's identity is, in this order, its arXiv identifier, its DOI, then the fingerprints of its
normalized abstract and title.  Records that share any identity key are one paper (connected
components, so the result does not depend on input order); each merge records why.  Two records with
different arXiv ids or DOIs are never merged, whatever else they share.

A full build groups every record (:meth:`Plan.of`); a delta groups only the records its change
touches (:func:`touched`): the records of the files it reads, and every record of the papers that
share an identity key with them or lost a record, found in the ledger, until no more join.
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from itertools import islice
from typing import NamedTuple, Protocol

from kg.records import Location, Record

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
    conflict_groups: list[int] = field(default_factory=list)
    """The group of the record of each of :attr:`conflicts` (its paper's entry keeps the issue)."""

    @classmethod
    def of(cls, identities: Iterable[tuple[Place, Identity]]) -> Plan:
        """Connected components of records sharing an identity key (in the order of their places),
        each with why they merged; two with different arXiv ids or DOIs are never merged."""
        ordered = sorted(identities, key=lambda pi: pi[0])
        parent = list(range(len(ordered)))
        strong: list[dict[str, str]] = [_strong(list(i.keys)) for _, i in ordered]
        reason: dict[int, list[str]] = defaultdict(list)
        conflicts: list[tuple[Location, str]] = []
        conflicted: list[int] = []

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
                    conflicted.append(i)
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
        return cls(records, sizes, reasons, conflicts, [index[find(i)] for i in conflicted])



def identity_keys(record: Record) -> list[str]:
    """The keys that identify a record's paper, strongest first.

    >>> from kg.records import SourceFile, Span
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


class Index(Protocol):
    """What :func:`touched` asks of the previous build's ledger (``kg.ledger.Ledger``)."""

    def papers_of_files(self, digests: Iterable[str]) -> set[str]: ...

    def papers_of_keys(self, keys: Iterable[str]) -> set[str]: ...

    def holding(self, paper_keys: Iterable[str]) -> set[str]: ...

    def records_of(
        self, papers: Iterable[str]
    ) -> dict[str, list[tuple[str, str, int, int, tuple[str, ...]]]]: ...


@dataclass(slots=True)
class Touched:
    """What a change touches: the plan of the records to group again and the previous build's papers
    they replace."""

    plan: Plan
    papers: set[str]
    """Keys of the previous build's entries (papers, and papers dropped for a key) made again or gone."""


def touched(
    index: Index,
    fresh: Iterable[tuple[Place, Identity]],
    gone: set[tuple[str, str]],
    limit: int | None = None,
) -> Touched | None:
    """Group the records a change touches as a full build would group them.

    ``fresh``: the records of the files read anew (new or changed); ``gone``: the (shown path,
    SHA-256) of the previous build's files that changed or went.  The previous build's papers that
    lost a record, or share an identity key with a record in the plan, are taken out and their
    remaining records grouped again, until no other paper joins: each group is then a whole
    connected component of the records a full build groups, so it groups them alike.  Papers that
    want one paper key (``paper-key-collision``: the first made keeps it) are made again together:
    the holder of a key a group wants, and every paper holding or wanting the key of a paper taken
    out.  None when more than ``limit`` papers would be made again.
    """
    records: dict[Place, Identity] = dict(fresh)
    papers: set[str] = set()
    asked_keys: set[str] = set()
    asked_wanted: set[str] = set()
    queue = index.papers_of_files({digest for _, digest in gone})
    while True:
        keys = {k for identity in records.values() for k in identity.keys} - asked_keys
        asked_keys |= keys
        queue |= index.papers_of_keys(keys)
        want = {wanted(p) for p in queue} - asked_wanted
        asked_wanted |= want
        queue |= index.holding(want)
        queue -= papers
        if not queue:
            # nothing more shares a key: the holders of the keys the groups want join last
            plan = Plan.of(sorted(records.items()))
            want = set(group_keys(plan)) - asked_wanted
            asked_wanted |= want
            queue = index.holding(want) - papers
            if not queue:
                return Touched(plan, papers)
        if limit is not None and len(papers | queue) > limit:
            return None
        for rows in index.records_of(queue).values():
            for path, digest, ordinal, line, keys_of in rows:
                if (path, digest) not in gone:
                    at = Location(path, line)
                    records.setdefault((digest, ordinal), Identity(at, f"{digest[:16]}-{line}", keys_of))
        papers |= queue
        queue = set()


def group_keys(plan: Plan) -> list[str]:
    """The paper key each group of ``plan`` wants (:func:`paper_key` of its records' keys)."""
    keys: list[set[str]] = [set() for _ in plan.sizes]
    for planned in plan.records.values():
        keys[planned.group].update(planned.keys)
    return [paper_key(sorted(k)) for k in keys]


DROPPED = "~"
"""The key prefix of a dropped paper's ledger entry, ``~KEY~RECORD`` (no paper key starts so)."""


def wanted(key: str) -> str:
    """The paper key an entry holds, or wanted (a dropped paper's: ``~KEY~RECORD``).

    >>> wanted("~arxiv-2401.00001~0123-4"), wanted("arxiv-2401.00001")
    ('arxiv-2401.00001', 'arxiv-2401.00001')
    """
    return key.split(DROPPED)[1] if key.startswith(DROPPED) else key
