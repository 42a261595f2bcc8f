"""Extractors: format-agnostic meaning, ``Record -> Mention``s.

``EXTRACTORS`` is the table, run in order on every record; adding one is a
module with ``NAME`` and ``extract(record, log)`` plus one line here.
"""

from __future__ import annotations

from collections.abc import Iterator
from types import ModuleType

from kg.errors import IssueLog
from kg.extractors import areas, authors, links, methods, subjects
from kg.records import Mention, Record

EXTRACTORS: dict[str, ModuleType] = {
    authors.NAME: authors,
    subjects.NAME: subjects,
    areas.NAME: areas,
    links.NAME: links,
    methods.NAME: methods,
}


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
