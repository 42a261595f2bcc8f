"""Extractors: format-agnostic meaning, ``Record -> Mention``s.

``EXTRACTORS`` is the table, run in order on every record; adding one is a
module with ``NAME`` and ``extract(record, log)`` plus one line here.
"""

from __future__ import annotations

from collections.abc import Iterator
from types import ModuleType

from kg.errors import IssueLog, UsageError, unknown
from kg.extractors import areas, authors, links, methods, subjects
from kg.records import Mention, Record

EXTRACTORS: dict[str, ModuleType] = {
    authors.NAME: authors,
    subjects.NAME: subjects,
    areas.NAME: areas,
    links.NAME: links,
    methods.NAME: methods,
}


def check(names: tuple[str, ...] | None) -> tuple[str, ...]:
    """The extractors to run: ``names`` (default: all), each known; an unknown name is an error.

    >>> check(("authors", "links"))
    ('authors', 'links')
    >>> check(("link",))
    Traceback (most recent call last):
    ...
    kg.errors.UsageError: error: unknown extractor 'link'; did you mean links? choose from: authors, subjects, areas, links, methods [unknown-extractor]
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
        if (names is None or name in names) and hasattr(module, "warm"):
            module.warm()
