"""The ledger: what each paper of a build gave to the parts of the graph papers share.

A paper's own triples (its title, authorships, sources, evidence) are about it alone; the persons'
names and paper counts, the coauthor links, the concepts' papers per year, the repositories, links,
introduced names, areas and unknown subjects are summed over every paper.  A delta build
(``kg.delta``) re-makes only the papers whose records changed, so for the shared parts it needs what
every other paper gave: one :class:`Entry` per paper, kept in ``OUT/ledger.json.gz`` beside the
manifest (one JSON line per paper, gzip'd), with each input file's issues, which a delta reports
again without reading the file.

The ledger names the generation of the build it describes: a delta starts only from a folder whose
store, manifest and ledger have the same one.
"""

from __future__ import annotations

__all__ = ["LEDGER", "Entry", "Ledger"]

import gzip
import json
from collections import Counter, defaultdict
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, cast

from kg.cache import LEDGER
from kg.errors import Issue, Severity
from kg.extractors.subjects import codes
from kg.records import Location, Mention
from kg.resolve import Paper

FORMAT = 2

PAPER_CODES = frozenset({"author-not-listed", "many-authors", "paper-key-collision"})
"""Issues reported while a paper is made (not while its files are read): kept with its entry."""

SHARED_KINDS = ("method", "named-method", "repository", "link", "introduced-method", "introduced-resource")
"""The mentions that count towards shared nodes (see ``kg.assemble.assemble``)."""

IssueRow = tuple[str, int, str, str, str]

DROPPED = "~"
"""The key prefix of a dropped paper's entry (no paper key starts so)."""


@dataclass(frozen=True, slots=True)
class Entry:
    """What one paper gave to the shared parts of the graph, and where its records lie."""

    key: str
    records: tuple[tuple[str, str, int], ...]
    """(shown path, file SHA-256, line) of each of its records."""
    persons: tuple[str, ...]
    """Its authors' person keys, in author order."""
    spellings: tuple[tuple[str, str], ...]
    year: str
    subjects: tuple[str, ...]
    areas: tuple[tuple[str, str, str, str], ...]
    """(key, label, parent key, parent label) of each of its areas."""
    mentions: tuple[tuple[str, str, str, tuple[tuple[str, str], ...]], ...]
    """(kind, key, text, detail) of its mentions of the kinds in :data:`SHARED_KINDS`."""
    issues: tuple[IssueRow, ...] = ()

    @property
    def dropped(self) -> bool:
        """A paper dropped because an earlier one took its key (``paper-key-collision``): it is not in
        the graph, but its records still named its persons (``kg.resolve.Streaming``)."""
        return self.key.startswith(DROPPED)

    @property
    def wanted(self) -> str:
        """The paper key a dropped paper wanted (its own key, for a paper in the graph)."""
        return wanted(self.key)

    @classmethod
    def of(
        cls, paper: Paper, areas: dict[str, Any], issues: Iterable[Issue] = (), dropped: bool = False
    ) -> Entry:
        """The entry of a paper just made (``areas``: the resolution's areas by key, as
        ``kg.resolve.Area``); ``dropped``: of one that lost its key to an earlier paper."""
        return cls(
            key=f"{DROPPED}{paper.key}{DROPPED}{paper.sources[0].key}" if dropped else paper.key,
            records=tuple((s.path, s.digest, s.line) for s in paper.sources),
            persons=tuple(a.person for a in paper.authors),
            spellings=paper.spellings,
            year=paper.year.text if paper.year else "",
            subjects=paper.subjects,
            areas=tuple(
                (a.key, a.label, a.parent_key, a.parent_label) for a in (areas[k] for k in paper.areas)
            ),
            mentions=tuple(
                (m.kind, m.key, m.text if m.kind != "method" else "", m.detail if m.kind != "method" else ())
                for m in paper.mentions
                if m.kind in SHARED_KINDS
            ),
            issues=tuple(row(i) for i in issues),
        )

    def mention(self, index: int) -> Mention:
        """Its ``index``-th shared mention as a :class:`Mention` (what ``kg.assemble`` summarizes)."""
        kind, key, text, detail = self.mentions[index]
        return Mention(kind, key, text, _NOWHERE, "", 0, tuple((str(a), str(b)) for a, b in detail))

    def dumps(self) -> str:
        """``key TAB [records, issues] TAB the rest``: a delta reads every paper's records and issues,
        and the rest of few papers."""
        rest = [self.persons, self.spellings, self.year, self.subjects, self.areas, self.mentions]
        return f"{self.key}\t{_json([self.records, self.issues])}\t{_json(rest)}"

    @classmethod
    def loads(cls, line: str) -> Entry:
        key, head, rest = line.split("\t")
        records, issues = json.loads(head)
        persons, spellings, year, subjects, areas, mentions = json.loads(rest)
        return cls(key, records, persons, spellings, year, subjects, areas, mentions, issues)


@lru_cache(maxsize=1)
def _known() -> frozenset[str]:
    """The arXiv codes of the taxonomy (as ``kg.assemble.assemble`` is given them)."""
    return frozenset(codes().values())


def _json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def records_of(lines: dict[str, str]) -> dict[str, tuple[list[list[Any]], list[list[Any]]]]:
    """Every entry's records (``[path, SHA-256, line]``) and issues, by key: the part of the ledger
    a delta reads whole, in one JSON parse."""
    parts = [line.split("\t", 2)[1] for line in lines.values()]
    return {
        key: (records, issues)
        for key, (records, issues) in zip(lines, json.loads("[" + ",".join(parts) + "]"), strict=True)
    }


def decoded(lines: Iterable[str]) -> list[Entry]:
    """Entries from their lines (their lists kept as lists: they are only iterated)."""
    return [Entry.loads(line) for line in lines]


_NOWHERE = Location("", 0)


def row(issue: Issue) -> IssueRow:
    return (issue.at.path, issue.at.line, issue.severity, issue.code, issue.message)


def _row(values: list[Any]) -> IssueRow:
    path, line, severity, code, message = values
    return (str(path), int(line), str(severity), str(code), str(message))


def wanted(key: str) -> str:
    """The paper key the entry of ``key`` holds, or wanted (a dropped paper's: ``~KEY~RECORD``)."""
    return key.split(DROPPED)[1] if key.startswith(DROPPED) else key


def issue(values: IssueRow) -> Issue:
    path, line, severity, code, message = values
    return Issue(Location(path, line), cast(Severity, severity), code, message)


@dataclass(slots=True)
class Sums:
    """What every paper adds up to in the nodes a delta makes again without reading every entry:
    the spellings of each person's name (dropped papers' too, as ``kg.resolve`` names persons), each
    area's papers with its labels (the first seen), the papers of each subject missing from the
    taxonomy, and the papers introducing or naming a method (the scheme of introduced methods)."""

    spellings: dict[str, Counter[str]] = field(default_factory=lambda: defaultdict(Counter))
    areas: dict[str, list[Any]] = field(default_factory=dict)
    unknown: Counter[str] = field(default_factory=Counter)
    introducing: int = 0

    def add(self, entry: Entry, sign: int = 1) -> None:
        """Count ``entry`` in (``sign`` 1) or out (-1)."""
        for person, spelling in entry.spellings:
            self.spellings[person][spelling] += sign
            if not self.spellings[person][spelling]:
                del self.spellings[person][spelling]
                if not self.spellings[person]:
                    del self.spellings[person]
        for key, label, parent_key, parent_label in entry.areas:  # a dropped paper's too, as resolved
            seen = self.areas.setdefault(key, [0, label, parent_key, parent_label])
            seen[0] += sign
            if not seen[0]:
                del self.areas[key]
        if entry.dropped:
            return
        known = _known()
        for code in entry.subjects:
            if known and code not in known:
                self.unknown[code] += sign
                if not self.unknown[code]:
                    del self.unknown[code]
        if any(kind in ("introduced-method", "named-method") for kind, _, _, _ in entry.mentions):
            self.introducing += sign

    def dumps(self) -> dict[str, Any]:
        return {
            "spellings": {p: dict(sorted(c.items())) for p, c in sorted(self.spellings.items())},
            "areas": dict(sorted(self.areas.items())),
            "unknown": dict(sorted(self.unknown.items())),
            "introducing": self.introducing,
        }

    @classmethod
    def loads(cls, data: dict[str, Any]) -> Sums:
        spellings: dict[str, Counter[str]] = defaultdict(Counter)
        for person, counts in data["spellings"].items():
            spellings[str(person)] = Counter({str(k): int(v) for k, v in counts.items()})
        return cls(
            spellings,
            {str(k): list(v) for k, v in data["areas"].items()},
            Counter({str(k): int(v) for k, v in data["unknown"].items()}),
            int(data["introducing"]),
        )


@dataclass(slots=True)
class Ledger:
    """A build's entries and file issues, with what it was built with (a delta needs the same)."""

    settings: dict[str, Any] = field(default_factory=dict)
    """``base``, ``taxonomies``, ``extraction``: a delta with other settings is a full build."""
    counts: dict[str, int] = field(default_factory=dict)
    """The build's papers, persons, coauthor pairs, triples and records."""
    files: dict[str, list[IssueRow]] = field(default_factory=dict)
    """Each input file's issues (reading and extraction), by shown path."""
    lines: dict[str, str] = field(default_factory=dict)
    """Each paper's entry, encoded (:meth:`Entry.dumps`), by paper key."""
    generation: str = ""
    sums: Sums = field(default_factory=Sums)

    def add(self, entry: Entry) -> None:
        self.lines[entry.key] = entry.dumps()
        self.sums.add(entry)

    def take(self, key: str, entry: Entry) -> None:
        """Take the entry of ``key`` out (a delta re-makes or removes its paper)."""
        del self.lines[key]
        self.sums.add(entry, -1)

    def entries(self) -> Iterator[Entry]:
        yield from decoded(self.lines.values())

    def dumps(self) -> bytes:
        head = {
            "format": FORMAT,
            "generation": self.generation,
            "settings": self.settings,
            "counts": dict(sorted(self.counts.items())),
            "files": dict(sorted(self.files.items())),
            "sums": self.sums.dumps(),
        }
        text = json.dumps(head, ensure_ascii=False, sort_keys=True) + "\n"
        body = "".join(self.lines[key] + "\n" for key in sorted(self.lines))
        return gzip.compress((text + body).encode("utf-8"), compresslevel=1, mtime=0)

    @classmethod
    def load(cls, out: Path) -> Ledger | None:
        """The ledger of build folder ``out``; None when there is none or it is damaged."""
        try:
            text = gzip.decompress((out / LEDGER).read_bytes()).decode("utf-8")
            head_line, _, body = text.partition("\n")
            head = json.loads(head_line)
            if head.get("format") != FORMAT:
                return None
            lines = {}
            for line in body.splitlines():
                key, tab, _ = line.partition("\t")
                if not tab:
                    raise ValueError("not a ledger line")
                lines[key] = line
            return cls(
                dict(head["settings"]),
                {str(k): int(v) for k, v in head["counts"].items()},
                {str(k): [_row(r) for r in v] for k, v in head["files"].items()},
                lines,
                str(head["generation"]),
                Sums.loads(head["sums"]),
            )
        except (OSError, ValueError, KeyError, TypeError, EOFError):
            return None
