"""The thesaurus applied to a build (``--thesaurus``): persons and methods merged, renamed or dropped
before papers are resolved, as VOSviewer's thesaurus files do (see docs/thesaurus.md)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from kg.persons.marks import marks_of
from kg.readers.thesaurus import Entry, Thesaurus
from kg.readers.thesaurus import key as term_key
from kg.records import Mention

if TYPE_CHECKING:
    from kg.extractors.methods import Concept


@dataclass(frozen=True, slots=True)
class Rule:
    """What one thesaurus row does to a method term it matches.

    ``drop``: the mention goes; ``known``: it becomes a mention of the known concept ``key`` (a slug
    of the method scheme); ``name``: it becomes a mention of the named concept ``key`` (a
    ``name_key``), shown as ``label``; ``rename``: a known concept keeps its mentions and is shown
    under ``label`` (:attr:`Curation.labels`).
    """

    action: str
    key: str
    label: str
    row: int


class Curation:
    """The user's thesaurus applied where identity is decided: to each record's mentions, before they
    make papers, so that every paper, person, count and link follows.

    A row's label is compared (NFC, single spaces, ignoring case) with person names, with the labels
    of the known methods (``skos:prefLabel``/``altLabel`` of ``ontology/methods.ttl``), and with the
    names of named and introduced methods (as written, their label, long and short forms, or their
    key).  What a row does depends on its replacement:

    - empty: the term is dropped (no mention of the method; the person is no author of any paper);
    - the label of a known method: the mentions move to that concept (a merge);
    - for a person, any name: the person's key becomes the replacement's (merged with a person of
      that name if there is one) and the person is named as the replacement says;
    - for a named or introduced method, a new name: its mentions move to the concept of that name
      (merged with any other of that name), shown under the replacement;
    - for a known method, a new label: the concept keeps its IRI and mentions and is shown under the
      replacement (:attr:`labels`: its ``skos:prefLabel`` in the graph; the old one becomes an
      ``skos:altLabel``).

    A replacement is not looked up in the thesaurus again (one step, as in VOSviewer).
    """

    def __init__(self, thesaurus: Thesaurus, concepts: Mapping[str, Concept]) -> None:
        from kg.extractors.authors import name_key as person_key
        from kg.extractors.authors import normalize_name
        from kg.extractors.methods import name_key

        self.thesaurus = thesaurus
        self.persons: dict[str, tuple[int, tuple[str, str] | None]] = {}
        """Person key -> its row and (new key, name), or None to drop."""
        self.names: dict[str, str] = {}
        """The name the thesaurus gives a person, by (new) person key."""
        self.known: dict[str, Rule] = {}
        """Known method slug -> rule."""
        self.terms: dict[str, Rule] = {}
        """Named or introduced method, by term key (``key:`` + name key, or the compared text) -> rule."""
        self.labels: dict[str, str] = {}
        """Known method slug -> the label the thesaurus shows it under."""
        self.marks = marks_of((e.label, e.replacement, e.at.line) for e in thesaurus.entries)
        """Rows that mark one person by a paper or a coauthor (``Yang Liu [with Maosong Sun]``): the
        persons stage's (kg.persons.marks), not applied to mentions here."""
        marked = {m.row for m in self.marks}
        self._used: set[int] = set()
        index: dict[str, str] = {}
        for slug in sorted(concepts):
            for label in concepts[slug].labels:
                index.setdefault(term_key(label), slug)
        for slug in sorted(concepts):
            index.setdefault(term_key(slug), slug)
        for row, entry in enumerate(thesaurus.entries):
            if entry.at.line in marked:
                continue
            label, replacement = entry.label, entry.replacement
            person = person_key(label)
            if person and (not replacement or person_key(replacement)):
                change = (person_key(replacement), normalize_name(replacement)) if replacement else None
                self.persons.setdefault(person, (row, change))
                if change is not None:
                    self.names.setdefault(*change)
            source = index.get(term_key(label))
            target = index.get(term_key(replacement)) if replacement else None
            if not replacement:
                rule = Rule("drop", "", "", row)
            elif target is not None:
                rule = Rule("known", target, concepts[target].pref_label, row)
            else:
                rule = Rule("name", name_key(replacement), replacement, row)
            self.terms.setdefault(term_key(label), rule)
            self.terms.setdefault("key:" + name_key(label), rule)
            if source is None:
                continue
            if replacement and (target is None or target == source):
                if source in self.labels:
                    continue  # renamed by an earlier row already
                if replacement != concepts[source].pref_label:
                    self.labels[source] = replacement
                self._used.add(row)  # the concept is shown under it, mentioned or not
                continue
            self.known.setdefault(source, rule)

    @classmethod
    def of(cls, thesaurus: Thesaurus) -> Curation:
        """The curation of a thesaurus, against the shipped method taxonomy."""
        from kg.extractors.methods import load_taxonomy, taxonomy_path

        return cls(thesaurus, load_taxonomy(taxonomy_path()) if thesaurus.entries else {})

    def apply(self, mentions: list[Mention]) -> list[Mention]:
        """A record's mentions as the thesaurus has them: renamed, moved or dropped."""
        out: list[Mention] = []
        authors: dict[str, bool] = {}  # person key -> whether the thesaurus made it
        for m in mentions:
            if m.kind == "author":
                merged = m.key in self.persons
                if merged:
                    row, change = self.persons[m.key]
                    self._used.add(row)
                    if change is None:
                        continue
                    key, name = change
                    m = Mention(
                        m.kind, key, m.text, m.at, m.extractor, m.position, _with(m.detail, "name", name)
                    )
                if m.key in authors and (merged or authors[m.key]):
                    continue  # two spellings of one person in one list, merged: one authorship
                authors[m.key] = authors.get(m.key, False) or merged
                out.append(m)
                continue
            if m.kind == "method":
                rule = self.known.get(m.key)
            elif m.kind in ("named-method", "introduced-method"):
                rule = self._term_rule(m)
            else:
                rule = None
            if rule is None:
                out.append(m)
                continue
            self._used.add(rule.row)
            if rule.action == "drop":
                continue
            if rule.action == "known":
                out.append(Mention("method", rule.key, m.text, m.at, m.extractor, m.position))
            elif m.kind == "named-method":
                detail = _with(m.detail, "label", rule.label)
                out.append(Mention(m.kind, rule.key, m.text, m.at, m.extractor, m.position, detail))
            else:
                out.append(Mention(m.kind, rule.key, rule.label, m.at, m.extractor, m.position, m.detail))
        return out

    def _term_rule(self, m: Mention) -> Rule | None:
        rule = self.terms.get("key:" + m.key)
        if rule is not None:
            return rule
        for text in (m.text, m.get("label"), m.get("full"), m.get("short")):
            if text:
                rule = self.terms.get(term_key(text))
                if rule is not None:
                    return rule
        return None

    def unused(self) -> list[Entry]:
        """The rows that matched nothing in the build, in file order (person marks are the persons
        stage's to report)."""
        marked = {m.row for m in self.marks}
        return [e for i, e in enumerate(self.thesaurus.entries) if i not in self._used and e.at.line not in marked]


def _with(detail: tuple[tuple[str, str], ...], name: str, value: str) -> tuple[tuple[str, str], ...]:
    """Mention detail pairs with one set (kept sorted)."""
    return tuple(sorted({**dict(detail), name: value}.items()))
