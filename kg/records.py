"""The typed records that flow between the stages of the pipeline.

Every record is a frozen, slotted dataclass; no bare dict crosses a module
boundary.  Text taken from a page is kept as a :class:`Span`, which remembers
the file and line it came from.

>>> at = Location("seeds/a.txt", 3)
>>> Span("Thomas Hofmann", at).at.line
3
"""

from __future__ import annotations

import operator
from dataclasses import dataclass, field, fields
from typing import Any, TypeVar

_T = TypeVar("_T")


def pickled_by_fields(cls: type[_T]) -> type[_T]:
    """Pickle a frozen, slotted dataclass as its class and its field values in order.

    What ``dataclass(slots=True)`` gives instead looks its fields up anew for every object
    pickled and sets them one by one when unpickled.  Records go to the extraction workers and
    their mentions come back pickled: this way they are pickled and unpickled in about half the time.
    """
    names = [f.name for f in fields(cls)]  # type: ignore[arg-type]
    values = operator.attrgetter(*names)
    if len(names) == 1:

        def reduce(self: Any) -> tuple[type[_T], tuple[Any, ...]]:
            return cls, (values(self),)

    else:

        def reduce(self: Any) -> tuple[type[_T], tuple[Any, ...]]:
            return cls, values(self)

    cls.__reduce__ = reduce  # type: ignore[method-assign]
    return cls


@pickled_by_fields
@dataclass(frozen=True, slots=True, order=True)
class Location:
    """A place in an input file: its path (as given) and 1-based line."""

    path: str
    line: int

    def __str__(self) -> str:
        return f"{self.path}:{self.line}"


@pickled_by_fields
@dataclass(frozen=True, slots=True)
class Span:
    """A piece of text as written on the page, with where it was written."""

    text: str
    at: Location


@pickled_by_fields
@dataclass(frozen=True, slots=True)
class SourceFile:
    """An input file that a reader accepted: its path and content digest.

    The digest (sha256 of the bytes) names the file's records in the graph,
    so record IRIs do not depend on where the file lies or on input order.
    """

    path: str
    digest: str
    reader: str


@pickled_by_fields
@dataclass(frozen=True, slots=True)
class Record:
    """One paper as one source states it (one per paper on a page).

    ``authors_complete`` is False when the source names only some authors
    (a profile page attributes each record to its person but does not list
    the coauthors); resolution then prefers a complete list from another
    source.
    """

    reader: str
    source: SourceFile
    at: Location
    title: Span | None = None
    abstract: Span | None = None
    year: Span | None = None
    authors: tuple[Span, ...] = ()
    authors_complete: bool = True
    subjects: tuple[Span, ...] = ()
    primary_subject: Span | None = None
    areas: tuple[Span, ...] = ()
    identifiers: tuple[Span, ...] = ()
    """Typed identifiers as ``scheme:value`` text: ``arxiv:2401.00001v2`` (version kept), ``doi:10.1/x``."""
    affiliations: tuple[tuple[int, Span], ...] = ()
    """``(author index, affiliation)`` pairs; the index is 0-based into ``authors``."""
    published: Span | None = None
    """First publication date, ISO ``YYYY-MM-DD``."""
    updated: Span | None = None
    """Last update date, ISO ``YYYY-MM-DD``."""
    journal_ref: Span | None = None
    comment: Span | None = None
    links: tuple[Span, ...] = ()
    """Web pages the source gives for the paper (abstract page, PDF, DOI resolver)."""
    venue: Span | None = None
    """Journal or proceedings title (BibTeX ``journal``/``booktitle``)."""

    @property
    def key(self) -> str:
        """Stable name of this record: file digest and line."""
        return f"{self.source.digest[:16]}-{self.at.line}"


@pickled_by_fields
@dataclass(frozen=True, slots=True)
class Mention:
    """Something an extractor found in a record, before identity is resolved.

    ``kind`` says what it is (``author``, ``subject``, ``area``,
    ``repository``, ``link``, ``method`` (a known concept: key = its slug),
    ``named-method`` (a method named in the text that no vocabulary knows: key =
    ``kg.extractors.methods.name_key`` of its name, detail ``label`` and
    ``related``), ``introduced-method``, ``introduced-resource``); ``key`` is
    the normalized key resolution uses; ``text`` is as written.  ``position``
    is the author order for authors and the character offset in the field
    for text matches.  ``detail`` holds extractor-specific scalar facts as
    sorted ``(name, value)`` pairs (for example a link's kind or a repo's owner).
    """

    kind: str
    key: str
    text: str
    at: Location
    extractor: str
    position: int = 0
    detail: tuple[tuple[str, str], ...] = field(default=())

    def get(self, name: str, default: str = "") -> str:
        """The value of one ``detail`` entry."""
        for k, v in self.detail:
            if k == name:
                return v
        return default
