"""arXiv API results: Atom ``<feed>`` documents, or files of bare ``<entry>`` elements.

One record per ``<entry>``: the arXiv id with its version (from ``<id>``), title,
abstract (``<summary>``), authors in order with their ``<arxiv:affiliation>``,
``<arxiv:primary_category>`` and every ``<category>``, published and updated
dates, ``<arxiv:doi>``, ``<arxiv:journal_ref>``, ``<arxiv:comment>`` and links.

The arXiv API also lists ACM and MSC classes (``F.2.2``, ``68W32``) as
``<category>`` terms; they are not arXiv subjects and are not read as subjects.

This module also holds the streaming XML machinery the OAI-PMH reader shares
(:func:`xml_records`): a defused expat SAX parser (entity declarations and
external references are refused, so neither a billion-laughs file nor an
external entity is ever expanded or fetched) fed line by line, so memory
stays flat and every element keeps its line.  Files are wrapped in a
synthetic root element, which makes a file of bare ``<entry>`` elements a
document; namespaces are matched by local name, since in real exports only
the first entry may declare them.  After a syntax error, reading resumes at
the next record element.
"""

from __future__ import annotations

import datetime as dt
import re
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from xml.sax import SAXParseException
from xml.sax.expatreader import ExpatLocator
from xml.sax.handler import ContentHandler
from xml.sax.xmlreader import AttributesImpl, Locator

from defusedxml import DefusedXmlException  # type: ignore[import-untyped]
from defusedxml.expatreader import DefusedExpatParser  # type: ignore[import-untyped]

from kg.errors import IssueLog
from kg.readers.pages import MAX_ABSTRACT, MAX_AUTHORS, MAX_NAME, MAX_TITLE, author_name, bounded
from kg.readers.text import TextFile, clean
from kg.records import Location, Record, SourceFile, Span

NAME = "arxiv-atom"
RANK = 0
"""Authority when merged records disagree (lower wins; see ``kg.readers.Reader``)."""

ATOM_NS = "http://www.w3.org/2005/Atom"

MAX_ELEMENT_TEXT = 1_000_000
"""Characters kept of one element's text (fields are capped lower, with a warning)."""

RESUME_WINDOW = 2_000
"""Lines kept to look back in for the next record after a syntax error."""

MAX_PROLOG = 1 << 20
"""Characters of prolog (declaration, comments, doctype) read at most before the first element is
looked for; past it, expat reads (and reports) whatever the prolog holds."""

_ROOT = "kg-root"
_XML_DECL = re.compile(r"<\?xml\s.*?\?>", re.S)
# the internal subset runs to the first "]": a lazy ".*?" there backtracks exponentially on "[][][]..."
_PROLOG_ITEM = re.compile(r"\s+|<\?.*?\?>|<!--.*?-->|<!DOCTYPE(?:[^\[>]|\[[^\]]*\])*>", re.S)
_XML_UNSAFE = dict.fromkeys([*(c for c in range(32) if c not in (9, 10, 13)), 0xFFFE, 0xFFFF], None)
_ARXIV_ABS = re.compile(r"arxiv\.org/abs/(\S+?)/?\s*$", re.I)
ARXIV_ID = re.compile(r"^(?:\d{4}\.\d{4,5}|[a-z][a-z-]*(?:\.[A-Za-z-]+)?/\d{7})(?:v\d+)?$")
"""New-style (``2401.00001``) and old-style (``hep-th/9901001``) arXiv ids, version optional."""
ARXIV_SUBJECT = re.compile(r"^[a-z][a-z-]*(?:\.[A-Za-z-]+)?$")
"""An arXiv category code (``cs.LG``, ``hep-th``); ACM and MSC classes do not match."""
_DATE = re.compile(r"^\s*(\d{4})-(\d{2})-(\d{2})")


# ---------------------------------------------------------------- streaming XML


@dataclass(slots=True)
class XmlElement:
    """One element of a record: local name, attributes, direct text, children, start line."""

    name: str
    attrs: dict[str, str]
    line: int
    parts: list[str] = field(default_factory=list)
    children: list[XmlElement] = field(default_factory=list)
    size: int = 0

    @property
    def text(self) -> str:
        return "".join(self.parts)

    def find(self, name: str) -> XmlElement | None:
        """The first child named ``name`` (local name)."""
        return next((c for c in self.children if c.name == name), None)

    def findall(self, name: str) -> list[XmlElement]:
        """Every child named ``name``, in document order."""
        return [c for c in self.children if c.name == name]


class _Collector(ContentHandler):
    """SAX events to one :class:`XmlElement` tree per record element."""

    def __init__(self, tag: str, offset: int) -> None:
        super().__init__()
        self.tag = tag
        self.offset = offset
        self.outer: list[str] = []
        self.building: list[XmlElement] = []
        self.done: list[XmlElement] = []
        self.locator: Locator | None = None

    def setDocumentLocator(self, locator: Locator) -> None:
        self.locator = locator

    def line(self) -> int:
        return (self.locator.getLineNumber() or 1) + self.offset if self.locator else self.offset + 1

    def startElement(self, name: str, attrs: AttributesImpl) -> None:
        local = name.rpartition(":")[2]
        if self.building or local == self.tag:
            values = {k.rpartition(":")[2]: v for k, v in attrs.items()}
            element = XmlElement(local, values, self.line())
            if self.building:
                self.building[-1].children.append(element)
            self.building.append(element)
        else:
            self.outer.append(name)

    def endElement(self, name: str) -> None:
        if self.building:
            element = self.building.pop()
            if not self.building:
                self.done.append(element)
        elif self.outer:
            self.outer.pop()

    def characters(self, content: str) -> None:
        if self.building:
            top = self.building[-1]
            if top.size < MAX_ELEMENT_TEXT:
                top.parts.append(content[: MAX_ELEMENT_TEXT - top.size])
                top.size += len(content)


def _element_start(buffer: str, final: bool) -> int | None:
    """Where the first element starts, after the prolog; None if more text is needed."""
    pos = 0
    while pos < len(buffer):
        match = _PROLOG_ITEM.match(buffer, pos)
        if match:
            pos = match.end()
            continue
        rest = buffer[pos : pos + 2]
        if rest[:1] == "<" and len(rest) == 2 and (rest[1].isalpha() or rest[1] in "_:"):
            return pos
        if not final and (rest in ("<", "<?", "<!") or buffer.startswith(("<?", "<!"), pos)):
            return None  # an unfinished declaration, comment or doctype
        return pos  # not XML here: expat reports it with its line
    return None if not final else pos


class _Lines:
    """The file's lines made XML-safe, with lines pushed back after an error."""

    def __init__(self, text: TextFile) -> None:
        self._it = text.lines()
        self.replay: deque[tuple[int, str]] = deque()
        self.recent: deque[tuple[int, str]] = deque(maxlen=RESUME_WINDOW)
        self.last = 0

    def __iter__(self) -> Iterator[tuple[int, str]]:
        return self

    def __next__(self) -> tuple[int, str]:
        if self.replay:
            number, line = self.replay.popleft()
        else:
            number, raw = next(self._it)
            line = raw.translate(_XML_UNSAFE) + "\n"
            self.last = number
        self.recent.append((number, line))
        return number, line


def xml_records(text: TextFile, tag: str, log: IssueLog) -> Iterator[XmlElement]:
    """Every ``<tag>`` element of an XML file, as a small tree, streamed.

    Syntax errors are warned about (``bad-xml``, with line and column), naming
    the record they cut short, and reading resumes at the next ``<tag>``;
    entity declarations make the whole file an error (``unsafe-xml``).
    """
    lines = _Lines(text)
    prolog: list[str] = []
    start: int | None = None
    size = scanned = 0
    for _number, line in lines:
        prolog.append(line)
        size += len(line)
        # look again only once the prolog has doubled: a long prolog of short lines stays linear
        if size >= 2 * scanned or size > MAX_PROLOG:
            scanned = size
            start = _element_start("".join(prolog), final=size > MAX_PROLOG)
            if start is not None:
                break
    buffer = "".join(prolog)
    if not buffer.strip():
        return
    if start is None:
        start = _element_start(buffer, final=True) or 0
    # the declaration may name another encoding, but the text fed is UTF-8 (already checked)
    head = _XML_DECL.sub(lambda m: "\n" * m.group(0).count("\n"), buffer[:start], count=1)
    first = head + f"<{_ROOT}>" + buffer[start:]
    insert_line = head.count("\n") + 1
    insert_column = len(head) - (head.rfind("\n") + 1)
    # (parser line, fed columns before the file's text on it, file column where that text starts)
    shift = (insert_line, insert_column + len(_ROOT) + 2, insert_column)
    offset = 0
    resumed_at: tuple[int, int] | None = None
    while True:
        handler = _Collector(tag, offset)
        parser = DefusedExpatParser()
        parser.setContentHandler(handler)
        # feed() never gives the handler a locator (only parse() does)
        handler.setDocumentLocator(ExpatLocator(parser))
        try:
            parser.feed(first.encode("utf-8"))
            yield from _drain(handler)
            for _number, line in lines:
                parser.feed(line.encode("utf-8"))
                yield from _drain(handler)
            if handler.building or handler.outer != [_ROOT]:
                _report_truncation(text.name, lines.last, handler, tag, log)
                return
            parser.feed(f"</{_ROOT}>".encode(), True)
            yield from _drain(handler)
            return
        except DefusedXmlException as e:
            log.error(
                Location(text.name, handler.line()),
                "unsafe-xml",
                f"file declares XML entities ({type(e).__name__}); refused, nothing expanded or fetched",
            )
            return
        except SAXParseException as e:
            line_number, column = e.getLineNumber() or 1, max(e.getColumnNumber() or 0, 0)
            if line_number == shift[0]:
                column = shift[2] + max(column - shift[1], 0)
            where = (line_number + offset, column)
            _report_error(text.name, where, e.getMessage(), handler, tag, log)
        # resume at the next <tag> after the error, inside the elements that were open outside records
        search = where if resumed_at is None or where > resumed_at else (resumed_at[0], resumed_at[1] + 1)
        found = _find_next(lines, tag, search)
        if found is None:
            if len(handler.outer) > 1:
                log.warn(
                    Location(text.name, lines.last),
                    "bad-xml",
                    f"no <{tag}> after the XML error at line {where[0]}; the rest of the file was skipped",
                )
            return
        (number, column), line = found
        resumed_at = (number, column)
        outer = list(handler.outer)
        if outer[:1] != [_ROOT]:
            outer.insert(0, _ROOT)
        prefix = "".join(f"<{name}>" for name in outer)
        first = prefix + line[column:]
        shift = (1, len(prefix), column)
        offset = number - 1


def _find_next(lines: _Lines, tag: str, start: tuple[int, int]) -> tuple[tuple[int, int], str] | None:
    """The next ``<tag`` after ``start`` (line, column) and its line; lines before it are skipped."""
    pattern = re.compile(r"<(?:[\w.-]+:)?" + re.escape(tag) + r"(?=[\s/>])")
    backlog = sorted({n: line for n, line in lines.recent if n >= start[0]}.items())
    pending = deque(backlog)
    while True:
        if pending:
            number, line = pending.popleft()
        else:
            try:
                number, line = next(lines)
            except StopIteration:
                return None
        column = start[1] + 1 if number == start[0] else 0
        match = pattern.search(line, column)
        if match:
            lines.replay.extendleft(reversed(pending))
            return (number, match.start()), line


def _drain(handler: _Collector) -> Iterator[XmlElement]:
    while handler.done:
        yield handler.done.pop(0)


def _report_error(
    name: str, where: tuple[int, int], message: str, handler: _Collector, tag: str, log: IssueLog
) -> None:
    line, column = where
    if handler.building:
        first = handler.building[0].line
        log.warn(
            Location(name, line),
            "bad-xml",
            f"<{tag}> starting at line {first} skipped: XML error at column {column + 1}: {message} "
            f"(expected well-formed XML)",
        )
    else:
        log.warn(
            Location(name, line),
            "bad-xml",
            f"XML error at column {column + 1}: {message} (expected well-formed XML); "
            f"reading resumes at the next <{tag}>",
        )


def _report_truncation(name: str, last: int, handler: _Collector, tag: str, log: IssueLog) -> None:
    if handler.building:
        first = handler.building[0].line
        log.warn(
            Location(name, last),
            "truncated-record",
            f"<{tag}> starting at line {first} skipped: file ends before </{tag}> (truncated?)",
        )
    else:
        inner = [n for n in handler.outer if n != _ROOT]
        log.warn(
            Location(name, last),
            "bad-xml",
            f"file ends inside <{inner[-1] if inner else _ROOT}> (truncated? expected its closing tag)",
        )


# ---------------------------------------------------------------- shared field helpers


def text_span(element: XmlElement | None, name: str) -> Span | None:
    """The element's text, cleaned and with whitespace collapsed (arXiv wraps lines), or None."""
    if element is None:
        return None
    value = clean(" ".join(element.text.split()))  # clean() drops line ends: split first
    return Span(value, Location(name, element.line)) if value else None


def iso_date(span: Span | None, field_name: str, log: IssueLog) -> Span | None:
    """``YYYY-MM-DD`` from a date or timestamp; a malformed one is warned about.

    >>> iso_date(Span("2019-10-14T14:25:25Z", Location("a", 1)), "published", IssueLog()).text
    '2019-10-14'
    """
    if span is None:
        return None
    match = _DATE.match(span.text)
    if match:
        try:
            day = dt.date(int(match.group(1)), int(match.group(2)), int(match.group(3)))
        except ValueError:
            pass
        else:
            return Span(day.isoformat(), span.at)
    log.warn(
        span.at, "bad-field", f"{field_name} date {span.text[:40]!r} is not a date (expected YYYY-MM-DD)"
    )
    return None


def arxiv_id(value: str) -> str | None:
    """The arXiv id in an id, an ``arXiv:`` reference or an abstract URL, if it is one.

    >>> arxiv_id("http://arxiv.org/abs/hep-th/9901001v2"), arxiv_id("arXiv:2401.00001"), arxiv_id("x")
    ('hep-th/9901001v2', '2401.00001', None)
    """
    value = value.strip()
    match = _ARXIV_ABS.search(value)
    if match:
        value = match.group(1)
    if value[:6].lower() == "arxiv:":
        value = value[6:].strip()
    return value if ARXIV_ID.match(value) else None


def abs_link(identifier: str, at: Location) -> Span:
    """The arXiv abstract page of an id, without its version."""
    return Span(f"https://arxiv.org/abs/{re.sub(r'v[0-9]+$', '', identifier)}", at)


def doi_value(text: str) -> str | None:
    """A DOI without resolver prefix, or None.

    >>> doi_value("https://doi.org/10.1093/bio/btx313"), doi_value("n/a")
    ('10.1093/bio/btx313', None)
    """
    value = text.strip().split()[0] if text.strip() else ""
    value = re.sub(r"^(?:https?://(?:dx\.)?doi\.org/|doi:\s*)", "", value, flags=re.I)
    return value if re.match(r"^10\.\d+(?:\.\d+)*/\S+$", value) else None


def year_of(date: Span | None) -> Span | None:
    return Span(date.text[:4], date.at) if date is not None else None


def person(name: Span, log: IssueLog) -> Span | None:
    """An author name, or None (with a warning) when it is too long to be a name or is none
    (``kg.readers.pages.author_name``)."""
    if len(name.text) > MAX_NAME:
        log.warn(name.at, "name-too-long", f"author name of {len(name.text)} characters skipped")
        return None
    return author_name(name, log)


def capped(spans: list[Span], at: Location, log: IssueLog) -> tuple[Span, ...]:
    if len(spans) > MAX_AUTHORS:
        log.warn(at, "too-many-authors", f"{len(spans)} authors, kept the first {MAX_AUTHORS}")
        spans = spans[:MAX_AUTHORS]
    return tuple(spans)


def dedupe(spans: list[Span]) -> tuple[Span, ...]:
    seen: set[str] = set()
    out: list[Span] = []
    for span in spans:
        if span.text not in seen:
            seen.add(span.text)
            out.append(span)
    return tuple(out)


# ---------------------------------------------------------------- the Atom reader


def sniff(head: str) -> bool:
    """An Atom feed or entries: XML with the Atom namespace, or entries whose ``<id>`` is an arXiv URL.

    >>> sniff('<?xml version="1.0"?><feed xmlns="http://www.w3.org/2005/Atom">')
    True
    >>> sniff("<entry>\\n<id>http://arxiv.org/abs/2401.00001v1</id>")
    True
    >>> sniff("<html><body>")
    False
    """
    start = head.lstrip("\ufeff \t\r\n")
    if not start.startswith("<") or "<OAI-PMH" in head:
        return False
    if ATOM_NS in head and ("<feed" in head or "<entry" in head):
        return True
    return "<entry" in head and re.search(r"<id>\s*https?://arxiv\.org/abs/", head) is not None


def read(text: TextFile, source: SourceFile, log: IssueLog) -> Iterator[Record]:
    """One record per ``<entry>``, streamed."""
    yield from records_of(text, "entry", _record, source, log, "Atom file")


def records_of(
    text: TextFile,
    tag: str,
    make: Callable[[XmlElement, SourceFile, str, IssueLog], Record | None],
    source: SourceFile,
    log: IssueLog,
    what: str,
) -> Iterator[Record]:
    """The records ``make`` builds from each ``<tag>`` element, streamed; a file with none is warned about."""
    count = 0
    for element in xml_records(text, tag, log):
        record = make(element, source, text.name, log)
        if record is not None:
            count += 1
            yield record
    if count == 0 and text.name not in log.failed_files:
        log.warn(Location(text.name, 1), "no-records", f"{what} has no readable <{tag}> elements")


def _record(entry: XmlElement, source: SourceFile, name: str, log: IssueLog) -> Record | None:
    at = Location(name, entry.line)
    identifiers: list[Span] = []
    links: list[Span] = []
    id_span = text_span(entry.find("id"), name)
    if id_span is not None:
        value = arxiv_id(id_span.text)
        if value is None:
            log.warn(id_span.at, "bad-field", f"<id> {id_span.text[:80]!r} is not an arXiv abstract URL")
        else:
            identifiers.append(Span(f"arxiv:{value}", id_span.at))
    title = text_span(entry.find("title"), name)
    if not identifiers and title is None:
        log.warn(at, "bad-record", "<entry> skipped: it has neither an arXiv id nor a title")
        return None
    if title is None:
        log.warn(at, "missing-title", "<entry> has no <title>")
    doi = text_span(entry.find("doi"), name)
    if doi is not None:
        value = doi_value(doi.text)
        if value is None:
            log.warn(doi.at, "bad-field", f"DOI {doi.text[:80]!r} is not a DOI (expected 10.NNNN/...)")
        else:
            identifiers.append(Span(f"doi:{value}", doi.at))
    authors: list[Span] = []
    affiliations: list[tuple[int, Span]] = []
    for author in entry.findall("author"):
        written = text_span(author.find("name"), name)
        if written is None:
            log.warn(Location(name, author.line), "empty-authors", "<author> without a <name> skipped")
            continue
        kept = person(written, log)
        if kept is None:
            continue
        for affiliation in author.findall("affiliation"):
            span = text_span(affiliation, name)
            if span is not None:
                affiliations.append((len(authors), bounded(span, MAX_TITLE, "affiliation", log)))
        authors.append(kept)
    if not authors:
        log.warn(at, "empty-authors", "<entry> has no authors")
    primary_element = entry.find("primary_category")
    primary = None
    if primary_element is not None and primary_element.attrs.get("term", "").strip():
        primary = Span(clean(primary_element.attrs["term"]), Location(name, primary_element.line))
    subjects = [
        Span(clean(c.attrs.get("term", "")), Location(name, c.line))
        for c in entry.findall("category")
        if ARXIV_SUBJECT.match(clean(c.attrs.get("term", "")))
    ]
    for link in entry.findall("link"):
        href = clean(link.attrs.get("href", ""))
        if href:
            links.append(Span(href, Location(name, link.line)))
    arxiv = [s.text[6:] for s in identifiers if s.text.startswith("arxiv:")]
    if arxiv:
        links.append(abs_link(arxiv[0], identifiers[0].at))
    published = iso_date(text_span(entry.find("published"), name), "published", log)
    abstract = text_span(entry.find("summary"), name)
    return Record(
        reader=NAME,
        source=source,
        at=at,
        title=bounded(title, MAX_TITLE, "title", log) if title else None,
        abstract=bounded(abstract, MAX_ABSTRACT, "abstract", log) if abstract else None,
        year=year_of(published),
        authors=capped(authors, at, log),
        authors_complete=True,
        subjects=tuple(subjects),
        primary_subject=primary,
        identifiers=tuple(identifiers),
        affiliations=tuple(affiliations),
        published=published,
        updated=iso_date(text_span(entry.find("updated"), name), "updated", log),
        journal_ref=text_span(entry.find("journal_ref"), name),
        comment=text_span(entry.find("comment"), name),
        links=dedupe(links),
    )
