"""The "arXiv subjects" author profile page.

Layout: a header (``arXiv subjects``, the person's name, ``Publications and
source records attributed to NAME.``, ``At least N records...``), then one
record per paper: ``arXiv2026``, title, abstract, subject line ``cs.LG↗``.
Every record is authored by the profile's person; the page names no coauthors.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from kg.errors import IssueLog
from kg.readers.pages import MAX_ABSTRACT, MAX_NAME, MAX_TITLE, author_name, bounded, text_lines
from kg.readers.text import TextFile
from kg.records import Location, Record, SourceFile, Span

NAME = "profile"
RANK = 4
"""Authority when merged records disagree (lower wins; see ``kg.readers.Reader``)."""

_YEAR = re.compile(r"^arXiv\s?(\d{4})$")
_SUBJECTS = re.compile(r"^(?:[a-z][a-z-]*(?:\.[A-Za-z][A-Za-z-]*)?\s*↗\s*)+$")
_SUBJECT = re.compile(r"([a-z][a-z-]*(?:\.[A-Za-z][A-Za-z-]*)?)\s*↗")
_ATTRIBUTED = re.compile(r"^Publications and source records attributed to (.+?)\.?$")
_AT_LEAST = re.compile(r"^At least (\d+) records?")
_ABSTRACT_MIN = 200  # a lone text line this long is an abstract, not a title


def sniff(head: str) -> bool:
    """A profile page: its first non-blank line is the ``arXiv subjects`` header (a page is known by
    its own header only: a JSON or CSV file that quotes a page's lines is not one).

    >>> sniff("arXiv subjects\\n\\nAda Lovelace\\n")
    True
    >>> sniff('{"year": "arXiv2026", "subjects": "cs.LG↗"}')
    False
    """
    for line in head.lstrip("\ufeff").splitlines():
        if line.strip():
            return line.strip() == "arXiv subjects"
    return False


def read(text: TextFile, source: SourceFile, log: IssueLog) -> Iterator[Record]:
    """Records of a profile page, each authored by the profile's person."""
    person: Span | None = None
    announced: tuple[int, Location] | None = None
    header: list[Span] = []
    block: list[Span] = []
    count = 0
    for span in text_lines(text):
        if _YEAR.match(span.text):
            if block:
                record = _record(block, person, source, log)
                if record is not None:
                    count += 1
                    yield record
            elif person is None:
                person = _person(header, text.name, log)
            block = [span]
        elif block:
            block.append(span)
        else:
            header.append(span)
            m = _AT_LEAST.match(span.text)
            if m:
                announced = (int(m.group(1)), span.at)
    if block:
        record = _record(block, person, source, log)
        if record is not None:
            count += 1
            yield record
    else:
        log.warn(
            Location(text.name, 1), "no-records", "profile page has no records (expected arXiv<year> lines)"
        )
    if announced is not None and count < announced[0]:
        log.warn(
            announced[1],
            "record-count",
            f"page announces at least {announced[0]} records, found {count}",
        )


def _person(header: list[Span], path: str, log: IssueLog) -> Span | None:
    for span in header:
        m = _ATTRIBUTED.match(span.text)
        if m and len(m.group(1)) <= MAX_NAME:
            return author_name(Span(m.group(1).strip(), span.at), log)
    if len(header) >= 2 and header[0].text == "arXiv subjects" and len(header[1].text) <= MAX_NAME:
        return header[1]
    log.warn(
        Location(path, 1),
        "missing-profile-person",
        "profile page names no person (expected 'Publications and source records attributed to NAME.')",
    )
    return None


def _record(block: list[Span], person: Span | None, source: SourceFile, log: IssueLog) -> Record | None:
    head, rest = block[0], block[1:]
    year_match = _YEAR.match(head.text)
    year = Span(year_match.group(1), head.at) if year_match else None
    subjects: list[Span] = []
    texts: list[Span] = []
    for span in rest:
        if _SUBJECTS.match(span.text):
            subjects.extend(Span(code, span.at) for code in _SUBJECT.findall(span.text))
        else:
            texts.append(span)
    title: Span | None = None
    abstract: Span | None = None
    if len(texts) == 1 and len(texts[0].text) >= _ABSTRACT_MIN:
        abstract = texts[0]
        log.warn(head.at, "missing-title", "record has no title line (expected a title after arXiv<year>)")
    elif texts:
        title = texts[0]
        if len(texts) > 1:
            lines = texts[1:]
            abstract = Span(" ".join(s.text for s in lines), lines[0].at)
        else:
            log.warn(
                head.at, "missing-abstract", "record has no abstract (expected a paragraph after the title)"
            )
    if title is None and abstract is None:
        log.warn(head.at, "truncated-record", "record has no title or abstract; skipped")
        return None
    if not subjects:
        log.warn(head.at, "missing-subject", "record has no subject line (expected a line like 'cs.LG↗')")
    return Record(
        reader=NAME,
        source=source,
        at=head.at,
        title=bounded(title, MAX_TITLE, "title", log) if title else None,
        abstract=bounded(abstract, MAX_ABSTRACT, "abstract", log) if abstract else None,
        year=year,
        authors=(person,) if person else (),
        authors_complete=False,
        subjects=tuple(subjects),
        primary_subject=subjects[0] if subjects else None,
    )
