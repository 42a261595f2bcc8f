"""Extractors: format-agnostic meaning, ``Record -> Mention``s.

``EXTRACTORS`` is the table, run in order on every record; adding one is a module that is an
:class:`Extractor` (``NAME``, ``KINDS``, ``extract(record, log)``, and ``warm()`` if it builds
something lazily) plus one line here.  Each declares the kinds of mention it makes, as spaCy's
components declare what they set; ``MENTION_KINDS`` is all of them.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Protocol

from kg.errors import IssueLog, UsageError, unknown
from kg.extractors import areas, authors, links, methods, subjects, tasks
from kg.records import Mention, Record


class Extractor(Protocol):
    """What an extractor module has (modules are checked against it where the table is typed)."""

    NAME: str
    KINDS: tuple[str, ...]
    """The kinds of mention it makes."""

    def extract(self, record: Record, log: IssueLog) -> Iterator[Mention]:
        """The mentions of one record; problems go to ``log``."""
        ...


EXTRACTORS: dict[str, Extractor] = {
    authors.NAME: authors,
    subjects.NAME: subjects,
    areas.NAME: areas,
    links.NAME: links,
    methods.NAME: methods,
    tasks.NAME: tasks,
}

MENTION_KINDS = frozenset(kind for module in EXTRACTORS.values() for kind in module.KINDS)
"""Every kind of mention the extractors make."""


def check(names: tuple[str, ...] | None) -> tuple[str, ...]:
    """The extractors to run: ``names`` (default: all), each known; an unknown name is an error.

    >>> check(("authors", "links"))
    ('authors', 'links')
    >>> check(("link",))
    Traceback (most recent call last):
    ...
    kg.errors.UsageError: error: unknown extractor 'link'; did you mean links? choose from: authors, subjects, areas, links, methods, tasks [unknown-extractor]
    """
    if names is None:
        return tuple(EXTRACTORS)
    for name in names:
        if name not in EXTRACTORS:
            raise UsageError(unknown("extractor", name, EXTRACTORS), code="unknown-extractor")
    return tuple(names)


def extract_all(record: Record, log: IssueLog, names: tuple[str, ...] | None = None) -> Iterator[Mention]:
    """Mentions of one record from every extractor (or the ``names`` given), in table order."""
    for name, module in EXTRACTORS.items():
        if names is None or name in names:
            yield from module.extract(record, log)


def warm(names: tuple[str, ...] | None = None) -> None:
    """Build what extractors build lazily (matchers, tables), e.g. before forking workers."""
    for name, module in EXTRACTORS.items():
        warm_up = getattr(module, "warm", None)
        if (names is None or name in names) and warm_up is not None:
            warm_up()
