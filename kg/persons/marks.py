"""The user's word on persons: thesaurus rows that mark one person by a paper or a coauthor.

A row whose label is a name followed by a marker in brackets speaks of the authorships of that name
the marker picks, and says who they are (its replacement):

- ``Yang Liu [paper arxiv:2401.00001]``: the Yang Liu of that paper (``arxiv:ID``, ``doi:DOI`` or
  the paper's key, as in its IRI);
- ``Yang Liu [with Maosong Sun]``: every Yang Liu whose paper also names Maosong Sun.

The authorships a row picks are one person, the person its replacement names; rows with the same
replacement are one person (a merge), rows with different replacements are different people (a
split), whatever kg's evidence says.  Authorships no row picks are decided by kg as usual, but
never join two marked people.  A replacement that is another name keys the person by that name
(``Yang Liu (Tsinghua)`` is ``person/yang_liu_(tsinghua)``); one that is the name itself leaves the
key to kg.  See docs/persons.md.

>>> [m] = marks_of([("Yang Liu [with Maosong  Sun]", "Yang Liu (THU)", 4)])
>>> m.name, m.coauthor, m.person, m.row
('yang liu', 'maosong sun', 'Yang Liu (THU)', 4)
>>> marks_of([("Yang Liu", "Y. Liu", 2)])
[]
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable
from dataclasses import dataclass

from kg.persons.evidence import Authorship
from kg.persons.names import Name

_MARKED = re.compile(
    r"^(?P<name>[^\[\]]+?)\s*\[\s*(?P<kind>paper|with)\s*:?\s+(?P<value>[^\[\]]+?)\s*\]$", re.I
)


def _key(text: str) -> str:
    """A name key as kg.extractors.authors makes it (NFC, single spaces, case-folded)."""
    from kg.extractors.authors import name_key

    return name_key(text)


@dataclass(frozen=True, slots=True)
class Mark:
    """One thesaurus row about one person."""

    name: str
    """The name key of the authorships it speaks of."""
    paper: str
    """The paper key it picks (``""`` when it picks by coauthor)."""
    coauthor: str
    """The coauthor's name key it picks by (``""`` when it picks by paper)."""
    person: str
    """The replacement as written: the person the picked authorships are."""
    row: int
    """The row's line in the thesaurus (for reasons and warnings)."""

    def picks(self, a: Authorship) -> bool:
        if a.name != self.name:
            return False
        return a.paper == self.paper if self.paper else self.coauthor in a.coauthors

    def key(self) -> str:
        """The person key the row gives (``""``: kg keys the person as usual)."""
        key = _key(self.person)
        return "" if key == self.name else key


def paper_key_of(text: str) -> str:
    """The paper key a marker names: ``arxiv:2401.00001v2``, ``doi:10.1/X`` or a key as written.

    >>> paper_key_of("arXiv:2401.00001v2"), paper_key_of("arxiv-2401.00001")
    ('arxiv-2401.00001', 'arxiv-2401.00001')
    """
    scheme, _, value = text.strip().partition(":")
    if value and scheme.casefold() == "arxiv":
        return "arxiv-" + re.sub(r"v\d+$", "", value.strip()).replace("/", "_")
    if value and scheme.casefold() == "doi":  # as kg.resolve.paper_key keys a DOI
        return "doi-" + hashlib.sha256(value.strip().lower().encode()).hexdigest()[:20]
    return text.strip()


def marks_of(rows: Iterable[tuple[str, str, int]]) -> list[Mark]:
    """The person marks among thesaurus rows ``(label, replacement, line)``; other rows are not marks."""
    marks = []
    for label, replacement, row in rows:
        m = _MARKED.match(" ".join(label.split()))
        if m is None or not replacement:
            continue
        name, kind, value = _key(m["name"]), m["kind"].casefold(), m["value"]
        if kind == "paper":
            marks.append(Mark(name, paper_key_of(value), "", replacement, row))
        else:
            marks.append(Mark(name, "", _key(value), replacement, row))
    return marks


def unused(marks: Iterable[Mark], authorships: Iterable[Authorship]) -> list[Mark]:
    """The marks that pick no authorship (to report as ``thesaurus-unused``), in row order.

    >>> a = Authorship("p1", 1, "Yang Liu", "yang liu", coauthors=("maosong sun",))
    >>> [m.row for m in unused(marks_of([("Yang Liu [with Maosong Sun]", "Y", 2), ("Yang Liu [paper p9]", "Z", 3)]), [a])]
    [3]
    """
    listed = list(authorships)
    return sorted((m for m in marks if not any(m.picks(a) for a in listed)), key=lambda m: m.row)


def marked_block(a: Authorship, marks: Iterable[Mark]) -> Name | None:
    """The name whose block an authorship goes to when a mark picks it (its person's name), else None."""
    for mark in marks:
        if mark.picks(a):
            return Name.parse(mark.person)
    return None
