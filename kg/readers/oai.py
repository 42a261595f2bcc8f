"""arXiv OAI-PMH harvests: ``ListRecords`` responses in the ``arXiv`` metadata format.

One record per ``<record>``: the arXiv id (the format carries no version, so
the identifier is the bare id), title, abstract, authors in order as
"Forenames Keyname Suffix" with their ``<affiliation>``, ``<categories>``,
``<created>`` and ``<updated>`` dates, DOI, journal reference and comments.

``<categories>`` is space-separated and arXiv writes the primary category
first (cross-lists follow), so the first code is the primary subject.
Records whose header says ``status="deleted"`` carry no metadata and are
reported (``deleted-record``).  Parsing is the streaming, defused XML of
:func:`kg.readers.atom.xml_records`.
"""

from __future__ import annotations

from collections.abc import Iterator

from kg.errors import IssueLog
from kg.readers.atom import (
    XmlElement,
    abs_link,
    arxiv_id,
    capped,
    doi_value,
    iso_date,
    person,
    records_of,
    text_span,
    year_of,
)
from kg.readers.pages import MAX_ABSTRACT, MAX_TITLE, bounded
from kg.readers.text import TextFile
from kg.records import Location, Record, SourceFile, Span

NAME = "arxiv-oai"
RANK = 1
"""Authority when merged records disagree (lower wins; see ``kg.readers.Reader``)."""


def sniff(head: str) -> bool:
    """An OAI-PMH response: XML with an ``<OAI-PMH>`` root or a ``<ListRecords>`` element.

    >>> sniff('<?xml version="1.0"?>\\n<OAI-PMH xmlns="http://www.openarchives.org/OAI/2.0/">')
    True
    >>> sniff("<feed>")
    False
    """
    return head.lstrip("\ufeff \t\r\n").startswith("<") and ("<OAI-PMH" in head or "<ListRecords" in head)


def read(text: TextFile, source: SourceFile, log: IssueLog) -> Iterator[Record]:
    """One record per ``<record>``, streamed."""
    yield from records_of(text, "record", _record, source, log, "OAI-PMH file")


def _record(element: XmlElement, source: SourceFile, name: str, log: IssueLog) -> Record | None:
    at = Location(name, element.line)
    header = element.find("header")
    oai_id = text_span(header.find("identifier") if header else None, name)
    label = f"record {oai_id.text!r}" if oai_id else "<record>"
    if header is not None and header.attrs.get("status") == "deleted":
        log.warn(at, "deleted-record", f"{label} is marked deleted; it has no metadata")
        return None
    metadata = element.find("metadata")
    meta = metadata.children[0] if metadata is not None and metadata.children else None
    if meta is None or meta.name != "arXiv":
        found = f"<{meta.name}>" if meta is not None else "no metadata"
        log.warn(at, "bad-record", f"{label} skipped: {found} (expected the arXiv metadata format)")
        return None
    identifiers: list[Span] = []
    links: list[Span] = []
    id_span = text_span(meta.find("id"), name)
    if id_span is not None:
        value = arxiv_id(id_span.text)
        if value is None:
            log.warn(id_span.at, "bad-field", f"<id> {id_span.text[:80]!r} is not an arXiv id")
        else:
            identifiers.append(Span(f"arxiv:{value}", id_span.at))
            links.append(abs_link(value, id_span.at))
    title = text_span(meta.find("title"), name)
    if not identifiers and title is None:
        log.warn(at, "bad-record", f"{label} skipped: it has neither an arXiv id nor a title")
        return None
    if title is None:
        log.warn(at, "missing-title", f"{label} has no <title>")
    doi = text_span(meta.find("doi"), name)
    if doi is not None:
        value = doi_value(doi.text)
        if value is None:
            log.warn(doi.at, "bad-field", f"DOI {doi.text[:80]!r} is not a DOI (expected 10.NNNN/...)")
        else:
            identifiers.append(Span(f"doi:{value}", doi.at))
    authors: list[Span] = []
    affiliations: list[tuple[int, Span]] = []
    group = meta.find("authors")
    for author in group.findall("author") if group is not None else []:
        parts = [text_span(author.find(part), name) for part in ("forenames", "keyname", "suffix")]
        words = [p.text for p in parts if p is not None]
        if not words:
            log.warn(Location(name, author.line), "empty-authors", "<author> without a name skipped")
            continue
        kept = person(Span(" ".join(words), Location(name, author.line)), log)
        if kept is None:
            continue
        for affiliation in author.findall("affiliation"):
            span = text_span(affiliation, name)
            if span is not None:
                affiliations.append((len(authors), bounded(span, MAX_TITLE, "affiliation", log)))
        authors.append(kept)
    if not authors:
        log.warn(at, "empty-authors", f"{label} has no authors")
    categories = text_span(meta.find("categories"), name)
    subjects = tuple(Span(code, categories.at) for code in categories.text.split()) if categories else ()
    created = iso_date(text_span(meta.find("created"), name), "created", log)
    abstract = text_span(meta.find("abstract"), name)
    return Record(
        reader=NAME,
        source=source,
        at=at,
        title=bounded(title, MAX_TITLE, "title", log) if title else None,
        abstract=bounded(abstract, MAX_ABSTRACT, "abstract", log) if abstract else None,
        year=year_of(created),
        authors=capped(authors, at, log),
        authors_complete=True,
        subjects=subjects,
        # arXiv lists the primary category first, cross-lists after it
        primary_subject=subjects[0] if subjects else None,
        identifiers=tuple(identifiers),
        affiliations=tuple(affiliations),
        published=created,
        updated=iso_date(text_span(meta.find("updated"), name), "updated", log),
        journal_ref=text_span(meta.find("journal-ref"), name),
        comment=text_span(meta.find("comments"), name),
        links=tuple(links),
    )
