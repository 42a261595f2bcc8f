"""arXiv metadata as JSON lines: the bulk ``arxiv-metadata-oai-snapshot`` format, streamed.

One JSON object per line (the real file is about 4 GB, so it is read a line
at a time): ``id``, ``title``, ``abstract``, ``authors`` and ``authors_parsed``
(``[last, first, suffix]``), ``categories`` (space-separated), ``versions``
(``{"version": "v2", "created": "<RFC 2822 date>"}``), ``doi``,
``journal-ref``, ``comments``, ``update_date``.

- The identifier is ``arxiv:<id><last version>``; ``published`` and the year
  are the first version's date, ``updated`` the last version's date.  A record
  without versions (scraped daily listings have none) takes its year from its
  arXiv id, which holds the month it was submitted (``2503.12345`` is 2025,
  ``cs/0112017`` 2001), so trends and bursts see every paper.
- Authors come from ``authors_parsed`` ("First Last Suffix"); only when it is
  missing or malformed is the ``authors`` string split, with its LaTeX accents
  decoded (``G\\"unnemann`` is ``Günnemann``).
- ``categories`` lists arXiv's primary category first, so the first code is the
  primary subject.  Exports that give ``categories`` (and ``authors``) as JSON
  lists, as scraped daily listings do, are read too, but a list's order is
  the listing's, so no primary subject is taken from it.
- A line that is not JSON is reported (``bad-json``, with its column) and
  reading goes on; a field of the wrong type is reported (``bad-field``) and the
  record is kept when it still has an id or a title.
"""

from __future__ import annotations

import datetime
import email.utils
import json
import re
from collections.abc import Iterator
from typing import Any

from kg.errors import IssueLog
from kg.readers.atom import ARXIV_SUBJECT, abs_link, arxiv_id, capped, doi_value, person
from kg.readers.latex import to_unicode
from kg.readers.pages import MAX_ABSTRACT, MAX_TITLE, bounded, split_authors
from kg.readers.text import TextFile, clean
from kg.records import Location, Record, SourceFile, Span

NAME = "arxiv-jsonl"
RANK = 2
"""Authority when merged records disagree (lower wins; see ``kg.readers.Reader``)."""

_FIELDS = ("title", "abstract", "authors", "authors_parsed", "categories", "summary")


def sniff(head: str) -> bool:
    """JSON lines of papers: the first non-blank line is an object with an ``id`` and a paper field.

    >>> sniff('{"id": "0704.0001", "title": "Diphoton production", "authors": "C. Bal\\\\\\'azs"}\\n')
    True
    >>> sniff('{"name": "x"}')
    False
    """
    for line in head.lstrip("\ufeff").splitlines():
        if not line.strip():
            continue
        line = line.strip()
        if not line.startswith("{"):
            return False
        try:
            value = json.loads(line)
        except (ValueError, RecursionError):
            # a first line longer than the sniff window is cut: look at its keys as text
            return line.startswith('{"id"') or (
                re.search(r'"id"\s*:', line) is not None and any(f'"{key}"' in line for key in _FIELDS)
            )
        return isinstance(value, dict) and "id" in value and any(key in value for key in _FIELDS)
    return False


def read(text: TextFile, source: SourceFile, log: IssueLog) -> Iterator[Record]:
    """One record per line, streamed."""
    count = 0
    for number, line in text.lines():
        if not line.strip():
            continue
        at = Location(text.name, number)
        try:
            value = json.loads(line)
        except json.JSONDecodeError as e:
            log.warn(at, "bad-json", f"line is not JSON: {e.msg} at column {e.colno} (expected one object)")
            continue
        except (ValueError, RecursionError) as e:
            log.warn(at, "bad-json", f"line is not usable JSON: {type(e).__name__} (expected one object)")
            continue
        if not isinstance(value, dict):
            log.warn(at, "bad-record", f"line is a JSON {_kind(value)} (expected an object)")
            continue
        record = _record(value, at, source, log)
        if record is not None:
            count += 1
            yield record
    if count == 0:
        log.warn(Location(text.name, 1), "no-records", "JSON lines file has no readable records")


def _text(obj: dict[str, Any], key: str, at: Location, log: IssueLog) -> Span | None:
    """A string field, whitespace collapsed; a wrong type is warned about and skipped."""
    value = obj.get(key)
    if value is None:
        return None
    if not isinstance(value, str):
        log.warn(at, "bad-field", f"field {key!r} is a {_kind(value)} (expected a string); skipped")
        return None
    text = clean(" ".join(value.split()))
    return Span(text, at) if text else None


def _kind(value: object) -> str:
    """The JSON name of a value's type, as messages say it.

    >>> _kind([]), _kind(None), _kind("x")
    ('list', 'null', 'string')
    """
    names = {dict: "object", list: "list", bool: "boolean", int: "number", float: "number", str: "string"}
    return "null" if value is None else names.get(type(value), type(value).__name__)


_MONTHS = {
    month: number
    for number, month in enumerate(
        ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"), 1
    )
}
_GMT = re.compile(
    r"(?:[A-Z][a-z]{2}, )?(\d{1,2}) (" + "|".join(_MONTHS) + r") ([1-9]\d{3}) (\d\d):(\d\d):(\d\d) GMT"
)
"""An RFC 2822 date in GMT as arXiv writes it: the date is the one written (the day of the week is
ignored, as ``email.utils`` ignores it)."""


def _date(value: object) -> str | None:
    """ISO date of an RFC 2822 timestamp (``Mon, 2 Apr 2007 19:18:42 GMT``), if it is one.

    >>> _date("Mon, 2 Apr 2007 19:18:42 GMT"), _date("soon")
    ('2007-04-02', None)
    """
    if not isinstance(value, str):
        return None
    quick = _GMT.fullmatch(value)
    if quick is not None:  # arXiv's own form, read without the general parser (a third of the time)
        day, month, year, hour, minute, second = quick.groups()
        try:  # an impossible day or time is no date, as for email.utils
            when = datetime.datetime(int(year), _MONTHS[month], int(day), int(hour), int(minute), int(second))
        except ValueError:
            return None
        return when.date().isoformat()
    try:
        return email.utils.parsedate_to_datetime(value).date().isoformat()
    except (TypeError, ValueError, IndexError, OverflowError):
        return None


def _versions(obj: dict[str, Any], at: Location, log: IssueLog) -> tuple[str, str | None, str | None]:
    """The last version (``v2``) and the first and last versions' dates."""
    versions = obj.get("versions")
    if versions is None:
        return "", None, None
    if not isinstance(versions, list) or not all(isinstance(v, dict) for v in versions):
        log.warn(at, "bad-field", f"field 'versions' is a {_kind(versions)} (expected a list of objects)")
        return "", None, None
    if not versions:
        return "", None, None
    last = versions[-1].get("version")
    if not (isinstance(last, str) and re.fullmatch(r"v\d+", last)):
        log.warn(at, "bad-field", f"last version {str(last)[:20]!r} is not a version (expected v1, v2, ...)")
        last = ""
    first_date, last_date = _date(versions[0].get("created")), _date(versions[-1].get("created"))
    if first_date is None:
        log.warn(at, "bad-field", "first version has no readable 'created' date (expected an RFC 2822 date)")
    return last, first_date, last_date


def _authors(obj: dict[str, Any], at: Location, log: IssueLog) -> tuple[Span, ...]:
    parsed = obj.get("authors_parsed")
    if parsed is not None:
        if isinstance(parsed, list) and all(
            isinstance(a, list) and all(isinstance(p, str) for p in a) for a in parsed
        ):
            names = [" ".join(" ".join([*a[1:2], *a[:1], *a[2:3]]).split()) for a in parsed]
            spans = [person(Span(to_unicode(clean(n)), at), log) for n in names if n]
            return capped([s for s in spans if s is not None], at, log)
        log.warn(at, "bad-field", "field 'authors_parsed' is malformed (expected lists of strings)")
    authors = obj.get("authors")
    if authors is None:
        return ()
    if isinstance(authors, list) and all(isinstance(a, str) for a in authors):
        spans = [person(Span(to_unicode(clean(a)), at), log) for a in authors if clean(a)]
        return capped([s for s in spans if s is not None], at, log)
    if not isinstance(authors, str):
        log.warn(at, "bad-field", f"field 'authors' is a {_kind(authors)} (expected a string)")
        return ()
    return split_authors(Span(to_unicode(clean(" ".join(authors.split()))), at), log)


def _record(obj: dict[str, Any], at: Location, source: SourceFile, log: IssueLog) -> Record | None:
    identifiers: list[Span] = []
    links: list[Span] = []
    id_span = _text(obj, "id", at, log)
    if id_span is not None:
        value = arxiv_id(id_span.text)
        if value is None:
            log.warn(at, "bad-field", f"id {id_span.text[:60]!r} is not an arXiv id")
    else:
        value = None
    version, first_date, last_date = _versions(obj, at, log)
    if value is not None:
        if re.search(r"v\d+$", value) is None:
            value += version
        identifiers.append(Span(f"arxiv:{value}", at))
        links.append(abs_link(value, at))
    title = _text(obj, "title", at, log)
    if not identifiers and title is None:
        log.warn(at, "bad-record", "record skipped: it has neither an arXiv id nor a title")
        return None
    if title is None:
        log.warn(at, "missing-title", "record has no title")
    doi = _text(obj, "doi", at, log)
    if doi is not None:
        doi_text = doi_value(doi.text)
        if doi_text is None:
            log.warn(at, "bad-field", f"DOI {doi.text[:80]!r} is not a DOI (expected 10.NNNN/...)")
        else:
            identifiers.append(Span(f"doi:{doi_text}", at))
    subjects: tuple[Span, ...] = ()
    primary = None
    categories = obj.get("categories")
    # ACM and MSC classes ("I.2.7; I.4.m", "68T45 (Primary)") ride along in some exports: not subjects
    if isinstance(categories, str):
        subjects = tuple(Span(code, at) for code in clean(categories).split() if ARXIV_SUBJECT.match(code))
        # arXiv's metadata lists the primary category first, cross-lists after it
        primary = subjects[0] if subjects else None
    elif isinstance(categories, list) and all(isinstance(c, str) for c in categories):
        subjects = tuple(
            Span(code, at) for c in categories for code in clean(c).split() if ARXIV_SUBJECT.match(code)
        )
    elif categories is not None:
        log.warn(at, "bad-field", f"field 'categories' is a {_kind(categories)} (expected a string)")
    abstract = _text(obj, "abstract", at, log) or _text(obj, "summary", at, log)
    authors = _authors(obj, at, log)
    if not authors:
        log.warn(at, "empty-authors", "record has no authors")
    for key in ("abs", "pdf"):
        link = _text(obj, key, at, log)
        if link is not None and link.text.startswith(("http://", "https://")):
            links.append(link)
    return Record(
        reader=NAME,
        source=source,
        at=at,
        title=bounded(title, MAX_TITLE, "title", log) if title else None,
        abstract=bounded(abstract, MAX_ABSTRACT, "abstract", log) if abstract else None,
        year=Span(first_date[:4], at) if first_date else _year_of_id(value, at),
        authors=authors,
        authors_complete=True,
        subjects=subjects,
        primary_subject=primary,
        identifiers=tuple(identifiers),
        published=Span(first_date, at) if first_date else None,
        updated=Span(last_date, at) if last_date else None,
        journal_ref=_text(obj, "journal-ref", at, log),
        comment=_text(obj, "comments", at, log) or _text(obj, "comment", at, log),
        links=tuple(dict.fromkeys(links)),
    )


_NEW_ID = re.compile(r"^(\d{2})(0[1-9]|1[0-2])\.\d{4,5}")
_OLD_ID = re.compile(r"^[a-z][a-z\-]*(?:\.[A-Z]{2})?/(\d{2})(0[1-9]|1[0-2])\d{3}")


def _year_of_id(arxiv_id: str | None, at: Location) -> Span | None:
    """The year an arXiv id was submitted in: ``YYMM.NNNNN`` since April 2007, ``archive/YYMMNNN`` before.

    >>> at = Location("x", 1)
    >>> [s.text if s else None for s in (_year_of_id("2503.12345v2", at), _year_of_id("cs/0112017", at),
    ...                                  _year_of_id("hep-th/9901001", at), _year_of_id("1913.00001", at))]
    ['2025', '2001', '1999', None]
    """
    if not arxiv_id:
        return None
    m = _NEW_ID.match(arxiv_id) or _OLD_ID.match(arxiv_id)
    if m is None:
        return None
    yy = int(m.group(1))
    if m.re is _NEW_ID and yy < 7:
        return None  # new-style ids began in April 2007
    return Span(str(1900 + yy if yy >= 91 else 2000 + yy), at)
