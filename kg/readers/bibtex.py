"""BibTeX, as Zotero, Google Scholar, DBLP or arXiv export it (parsed with ``bibtexparser`` 2).

One record per entry that has a title (``@article``, ``@inproceedings``,
``@misc`` and the rest): title, authors in order, year, abstract, venue
(``journal`` or ``booktitle``), ``url``, the DOI and the arXiv id.

- arXiv: ``eprint`` with ``archivePrefix = {arXiv}`` (or ``eprinttype``), else
  an ``arXiv:2401.00001`` or ``arxiv.org/abs/...`` in ``journal``, ``url``,
  ``howpublished``, ``note`` or DBLP's ``volume = {abs/2401.00001}``;
  ``primaryClass`` is the primary subject.
- Authors are split on ``and`` (not inside braces); "Last, First" and "First
  Last" become "First Last"; a trailing ``and others`` marks the list incomplete.
- LaTeX accents and braces are decoded into Unicode (``{\\"u}`` is ü,
  ``{LoRA}`` is LoRA) by :func:`kg.readers.latex.to_unicode`.
- An entry that does not parse is reported with its key and line
  (``bad-bibtex-entry``); the other entries still load.  bibtexparser parses
  a whole string, so files over :data:`MAX_BYTES` are refused (``file-too-large``).
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterator

from bibtexparser.entrypoint import parse_string
from bibtexparser.exceptions import BlockAbortedException
from bibtexparser.middlewares.names import parse_single_name_into_parts, split_multiple_persons_names
from bibtexparser.model import Entry, ImplicitComment, ParsingFailedBlock

from kg.errors import IssueLog
from kg.readers.atom import abs_link, arxiv_id, capped, doi_value, person
from kg.readers.latex import to_unicode
from kg.readers.pages import MAX_ABSTRACT, MAX_TITLE, bounded
from kg.readers.text import TextFile, clean
from kg.records import Location, Record, SourceFile, Span

NAME = "bibtex"
RANK = 3
"""Authority when merged records disagree (lower wins; see ``kg.readers.Reader``)."""

MAX_BYTES = 100 * 1024 * 1024
"""Largest BibTeX file read (it is parsed as one string)."""

# bibtexparser logs each failed block; the library never prints, the IssueLog reports them
logging.getLogger("bibtexparser").addHandler(logging.NullHandler())
logging.getLogger("bibtexparser").propagate = False

_START = re.compile(r"@\s*[A-Za-z]+\s*[{(]")
_STRAY_FIELD = re.compile(r"^\s*[A-Za-z][\w-]*\s*=\s*[{\"0-9]")
_OPENS_ENTRY = re.compile(r"\s*@\s*[A-Za-z]+\s*[{(]\s*[^,\s{}()=\"]+\s*,(.*)$")
"""A line that opens an entry with its key (``@article{smith2020,``), and what follows on it."""
_FIELD = re.compile(r"\s*[A-Za-z][\w-]*\s*=\s*[{\"0-9A-Za-z]")
_KEY = re.compile(r"@\s*([A-Za-z]+)\s*[{(]\s*([^,\s{}()=]*)")
_ARXIV_IN_TEXT = re.compile(
    r"(?:arxiv(?:\s+preprint)?\s*:?\s*|arxiv\.org/(?:abs|pdf)/|^abs/)"
    r"((?:\d{4}\.\d{4,5}|[a-z][a-z-]*(?:\.[A-Za-z-]+)?/\d{7})(?:v\d+)?)",
    re.I,
)


def sniff(head: str) -> bool:
    """BibTeX: the first content after ``%`` comment lines is an ``@type{`` entry, or, after free text
    (BibTeX reads anything outside entries as a comment, and some exports start with a note), a line
    that opens an entry with its key, followed by a field.

    >>> sniff("% exported by Zotero\\n\\n@article{smith2020,\\n  title = {X},")
    True
    >>> sniff("Exported from My Library on 2024-05-01.\\nAll rights reserved.\\n\\n@misc{x2020,\\n  title = {X},")
    True
    >>> sniff("Daily Papers\\n@article{x,")
    False
    """
    lines = head.lstrip("\ufeff").splitlines()
    for line in lines:
        stripped = line.strip()
        if not stripped or stripped.startswith("%"):
            continue
        if _START.match(stripped) is not None:
            return True
        break
    for number, line in enumerate(lines):
        entry = _OPENS_ENTRY.match(line)
        if entry is None:
            continue
        following = [entry.group(1), *(ln for ln in lines[number + 1 : number + 4] if ln.strip())]
        if any(_FIELD.match(text) for text in following[:2]):
            return True
    return False


def read(text: TextFile, source: SourceFile, log: IssueLog) -> Iterator[Record]:
    """One record per entry with a title, in file order."""
    at = Location(text.name, 1)
    try:
        size = text.path.stat().st_size
    except OSError as e:
        log.error(at, "unreadable-file", f"cannot read file: {e.strerror or e}")
        return
    if size > MAX_BYTES:
        log.error(at, "file-too-large", f"BibTeX file of {size} bytes (expected at most {MAX_BYTES})")
        return
    parts: list[str] = []
    total = 0
    for _, part in text.lines():
        total += len(part) + 1
        if total > MAX_BYTES:  # only a compressed file gets here: its size on disk was smaller
            log.error(at, "file-too-large", f"BibTeX text over {MAX_BYTES} characters once decompressed")
            return
        parts.append(part)
    library = parse_string("\n".join(parts))
    count = 0
    for block in library.blocks:
        line = (block.start_line or 0) + 1
        entry: Entry | None = block if isinstance(block, Entry) else None
        if isinstance(block, ParsingFailedBlock):
            entry = _report_failed(block, text.name, line, log)
        elif isinstance(block, ImplicitComment):
            _report_stray(block.comment, text.name, line, log)
        if entry is None:
            continue
        record = _record(entry, source, text.name, log)
        if record is not None:
            count += 1
            yield record
    if count == 0:
        log.warn(at, "no-records", "BibTeX file has no entries with a title")


def _report_failed(block: ParsingFailedBlock, name: str, line: int, log: IssueLog) -> Entry | None:
    """Warn about a block bibtexparser could not take; the entry if it can still be read."""
    inner = block.ignore_error_block
    kept = inner if isinstance(inner, Entry) else None
    match = _KEY.match(block.raw or "")
    key = kept.key if kept is not None else (match.group(2) if match else "")
    error = block.error
    reason = error.abort_reason if isinstance(error, BlockAbortedException) else str(error)
    reason = reason.strip().splitlines()[0].split(". Note:")[0] if reason.strip() else type(error).__name__
    what = f"entry {key!r}" if key else "entry"
    action = "read anyway" if kept is not None else "skipped"
    log.warn(Location(name, line), "bad-bibtex-entry", f"{what} at line {line}: {reason}; {action}")
    return kept


def _report_stray(comment: str, name: str, line: int, log: IssueLog) -> None:
    """Text between entries is a comment to BibTeX; one that starts like an entry or a field was meant as one.

    A field outside any entry is what an extra closing brace leaves: the entry ended early.
    """
    for offset, text in enumerate(comment.splitlines()):
        if text.lstrip().startswith("@"):
            log.warn(
                Location(name, line + offset),
                "bad-bibtex-entry",
                f"{text.strip()[:40]!r} is not an entry (expected @type{{key, ...}}); skipped",
            )
        elif _STRAY_FIELD.match(text):
            log.warn(
                Location(name, line + offset),
                "bad-bibtex-entry",
                f"field {text.strip()[:40]!r} is outside any entry (an extra closing brace before it?); skipped",
            )


def _fields(entry: Entry, name: str) -> dict[str, Span]:
    """Field values by lower-case key (the first of repeated keys), decoded, with their lines."""
    fields: dict[str, Span] = {}
    for field in entry.fields:
        key = field.key.lower()
        if key in fields or not isinstance(field.value, str):
            continue
        line = (field.start_line if field.start_line is not None else entry.start_line or 0) + 1
        fields[key] = Span(field.value, Location(name, line))
    return fields


def _decoded(span: Span | None) -> Span | None:
    if span is None:
        return None
    value = clean(" ".join(to_unicode(span.text).split()))
    return Span(value, span.at) if value else None


def split_names(span: Span, log: IssueLog) -> tuple[tuple[Span, ...], bool]:
    """Authors of a BibTeX ``author`` field, as "First Last", and whether the list is complete.

    >>> names, complete = split_names(Span(r'M{\\"u}ller, Hans and Ada Lovelace and others', Location("a", 2)), IssueLog())
    >>> [n.text for n in names], complete
    (['Hans Müller', 'Ada Lovelace'], False)
    """
    authors: list[Span] = []
    complete = True
    for written in split_multiple_persons_names(span.text):
        if written.strip().lower() == "others":
            complete = False
            continue
        try:
            merged = parse_single_name_into_parts(written, strict=False).merge_first_name_first
        except ValueError:
            merged = written
        text = clean(" ".join(to_unicode(merged).split()))
        kept = person(Span(text, span.at), log) if text else None
        if kept is not None:
            authors.append(kept)
    return capped(authors, span.at, log), complete


def _arxiv(fields: dict[str, Span]) -> Span | None:
    """The arXiv id an entry gives, from ``eprint`` or from an arXiv reference in other fields."""
    eprint = fields.get("eprint")
    archive = fields.get("archiveprefix") or fields.get("eprinttype")
    if eprint is not None and (archive is None or archive.text.strip().lower() == "arxiv"):
        value = arxiv_id(eprint.text)
        if value is not None:
            return Span(value, eprint.at)
    for key in ("journal", "url", "howpublished", "note", "volume"):
        span = fields.get(key)
        match = _ARXIV_IN_TEXT.search(span.text) if span else None
        if span is not None and match:
            return Span(match.group(1), span.at)
    return None


_ADDRESS = re.compile(r"https?://[^\s{}<>\"'\\]+")


def _address(span: Span | None) -> Span | None:
    """The web address a field gives (``url``, ``howpublished = {\\url{...}}``), if it gives one.

    >>> _address(Span(r"\\url{https://github.com/a/b}", Location("x.bib", 4))).text
    'https://github.com/a/b'
    """
    given = _decoded(span)
    found = _ADDRESS.search(given.text) if given is not None else None
    return Span(found.group().rstrip(".,;"), given.at) if given is not None and found is not None else None


def _record(entry: Entry, source: SourceFile, name: str, log: IssueLog) -> Record | None:
    at = Location(name, (entry.start_line or 0) + 1)
    fields = _fields(entry, name)
    title = _decoded(fields.get("title"))
    if title is None:
        log.warn(at, "missing-title", f"@{entry.entry_type} entry {entry.key!r} has no title; skipped")
        return None
    identifiers: list[Span] = []
    links: list[Span] = []
    arxiv = _arxiv(fields)
    if arxiv is not None:
        identifiers.append(Span(f"arxiv:{arxiv.text}", arxiv.at))
        links.append(abs_link(arxiv.text, arxiv.at))
    doi = fields.get("doi")
    if doi is not None:
        value = doi_value(doi.text)
        if value is None:
            log.warn(doi.at, "bad-field", f"DOI {doi.text[:80]!r} of {entry.key!r} is not a DOI")
        else:
            identifiers.append(Span(f"doi:{value}", doi.at))
    # the entry's own addresses: url, and a URL howpublished gives (\url{...} on @misc entries)
    own = [_address(fields.get(key)) for key in ("url", "howpublished")]
    links[:0] = [span for span in own if span is not None]
    authors: tuple[Span, ...] = ()
    complete = True
    if "author" in fields:
        authors, complete = split_names(fields["author"], log)
    if not authors:
        log.warn(at, "empty-authors", f"entry {entry.key!r} has no authors")
    year = None
    if "year" in fields:
        match = re.search(r"\b(\d{4})\b", fields["year"].text)
        if match:
            year = Span(match.group(1), fields["year"].at)
        else:
            log.warn(fields["year"].at, "bad-field", f"year {fields['year'].text[:20]!r} is not a year")
    venue = _decoded(fields.get("journal") or fields.get("booktitle"))
    if venue is not None and re.match(r"arxiv\b", venue.text, re.I):
        venue = None  # "arXiv preprint arXiv:2401.00001" names the arXiv id, not a venue
    primary = _decoded(fields.get("primaryclass"))
    abstract = _decoded(fields.get("abstract"))
    note = _decoded(fields.get("note"))
    return Record(
        reader=NAME,
        source=source,
        at=at,
        title=bounded(title, MAX_TITLE, "title", log),
        abstract=bounded(abstract, MAX_ABSTRACT, "abstract", log) if abstract else None,
        year=year,
        authors=authors,
        authors_complete=complete,
        subjects=(primary,) if primary else (),
        primary_subject=primary,
        identifiers=tuple(identifiers),
        links=tuple(links),
        venue=bounded(venue, MAX_TITLE, "venue", log) if venue else None,
        # BibTeX's free remark, where entries name their code ("Code at https://github.com/..."), as an
        # arXiv comment does
        comment=bounded(note, MAX_ABSTRACT, "note", log) if note else None,
    )
