"""What two authorships of one block share: the evidence that they are one person's.

Each kind of evidence is a weight in log-odds units (how much more likely the pair is one person
than two), summed by :func:`weigh`; kg.persons.cluster compares the sum with what the name needs.
The weights were set on half of the identity dev set (docs/persons.md).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from functools import lru_cache

from kg.persons.names import LOOSE, SAME, VARIANT, Name, block_key, expected_people, relation
from kg.vocab import ontology_path

COAUTHOR = 3.0
"""A shared coauthor whose name few people have: strong evidence (S2AND's first feature)."""
COMMON_COAUTHOR = 1.5
"""A shared coauthor whose name many people have (two Wei Wangs are not one collaborator)."""
AFFILIATION = 3.0
"""A shared affiliation or e-mail domain."""
TOPIC = 8.0
"""Weight of the topic similarity (0 to 1): the words, methods and subjects two papers share."""
VENUE = 0.2
"""The same venue."""
NEAR_YEARS = 0.2
"""Papers at most two years apart."""
FAR_YEARS = -0.7
"""Papers more than ten years apart (a career can be long, but most are not)."""
SENIOR = 1.0
"""Both authorships are their papers' last author (:attr:`Authorship.senior`) at the same venue: a
venue's group leaders are far fewer than its authors, so two of one name there are likelier one
person (on the dev set it joins Xiaolong Wang's and Yue Zhang's papers and nothing wrongly from 1.0 to
3.0, docs/persons.md).  Only at one venue: across the arXiv days two last authors of a common name
were often two group leaders."""
_COMMON_PEOPLE = 0.3
"""A coauthor's name held by more people than this is common (see Frequencies.people)."""

_WORD = re.compile(r"[^\W\d_]{4,}")


@dataclass(frozen=True, slots=True)
class Authorship:
    """One author of one paper with the evidence the build has about them (the input of the
    persons stage).  Papers' fields are repeated on each of their authorships: a block sees only
    its own authorships."""

    paper: str
    """The paper's key."""
    position: int
    written: str
    """The name as written on the paper (normalized: NFC, single spaces)."""
    name: str
    """The name key (``kg.extractors.authors.name_key``)."""
    coauthors: tuple[str, ...] = ()
    """The name keys of the paper's other authors (none for a paper of more than ``MAX_COAUTHORS``)."""
    year: int | None = None
    venue: str = ""
    subjects: tuple[str, ...] = ()
    """arXiv subjects and conference areas of the paper."""
    concepts: tuple[str, ...] = ()
    """Keys of the methods (and tasks) the paper mentions or introduces."""
    affiliations: tuple[str, ...] = ()
    """This author's affiliations as the source writes them."""
    domains: tuple[str, ...] = ()
    """This author's e-mail domains."""
    words: tuple[str, ...] = ()
    """Content words of the title and keywords (:func:`content_words`; the abstract's words add
    nothing measurable, docs/persons.md)."""
    senior: bool = False
    """The last of three or more authors listed in an order other than by surname (where the last
    author is the group's leader; a list in surname order, as in mathematics, says nothing)."""

    @property
    def at(self) -> tuple[str, int]:
        return self.paper, self.position


def content_words(*texts: str | None) -> tuple[str, ...]:
    """The distinct words of texts of four letters or more, folded and sorted, a plural ``s`` taken
    off (function words stay: they weigh next to nothing, being in most abstracts).

    >>> content_words("Grasping objects with tactile sensors", "A new grasping method.")
    ('grasping', 'method', 'object', 'sensor', 'tactile', 'with')
    """
    words = set()
    for text in texts:
        for w in _WORD.findall((text or "").casefold()):
            if w.endswith("s") and not w.endswith("ss") and len(w) > 4:
                w = w[:-1]
            words.add(w)
    return tuple(sorted(words))


@dataclass(slots=True)
class Profile:
    """An authorship read for comparison: its name parsed, its coauthors by block, and its topics and
    places as sets (not frozen: a build makes one per authorship of a shared block, and a frozen
    dataclass costs several times as much to make)."""

    authorship: Authorship
    name: Name
    coauthors: dict[str, tuple[tuple[Name, str], ...]]
    """Coauthors by block key: their names parsed and as written (to match "Heni Amor" with
    "Heni Ben Amor")."""
    topics: dict[str, float]
    """Words, concepts and subjects with their weights (rare words weigh more)."""
    norm: float
    affiliations: frozenset[str]

    @classmethod
    def of(cls, a: Authorship, name: Name | None = None) -> Profile:
        """The profile of an authorship, under its own name or the one given."""
        name = name or Name.parse(a.written or a.name)
        coauthors: dict[str, list[tuple[Name, str]]] = {}
        for c in a.coauthors:
            block, other = _coauthor(c)
            if other.forms != name.forms:
                coauthors.setdefault(block, []).append((other, c))
        topics, norm = _topics(a.words, a.concepts, a.subjects)
        places = frozenset(f"a:{p}" for p in map(_place, a.affiliations) if p) | frozenset(
            f"d:{d.casefold()}" for d in a.domains if d.casefold() not in _PUBLIC_MAIL
        )
        return cls(a, name, {k: tuple(v) for k, v in coauthors.items()}, topics, norm, places)


@lru_cache(maxsize=1 << 16)
def _coauthor(key: str) -> tuple[str, Name]:
    """A coauthor's name key read once: its block and its name (a build names the same coauthors on
    many papers)."""
    other = Name.parse(key)
    return block_key(other), other


@lru_cache(maxsize=1 << 14)
def _topics(
    words_: tuple[str, ...], concepts: tuple[str, ...], subjects: tuple[str, ...]
) -> tuple[dict[str, float], float]:
    """A paper's weighted topics, made once for all its authors (the tuples are the paper's own)."""
    idf = words()
    topics = {f"w:{w}": idf.weight(w) for w in words_}
    topics.update({f"c:{c}": CONCEPT_WEIGHT for c in concepts})
    topics.update({f"s:{s}": SUBJECT_WEIGHT for s in subjects})
    return topics, math.sqrt(sum(w * w for w in topics.values()))


CONCEPT_WEIGHT = 2.5
"""A method or task a paper names weighs like a word of about one abstract in twelve."""
SUBJECT_WEIGHT = 1.0
"""Subjects are broad: two papers of cs.CV say little."""
_PUBLIC_MAIL = frozenset(
    {"gmail.com", "outlook.com", "hotmail.com", "yahoo.com", "163.com", "qq.com", "126.com"}
)


def _place(text: str) -> str:
    return " ".join(_WORD.findall(text.casefold()))


@dataclass(frozen=True, slots=True)
class Words:
    """How many abstracts of the arXiv listings hold each word (``ontology/word-frequencies.tsv``)."""

    documents: int
    counts: dict[str, int]

    def weight(self, word: str) -> float:
        """The word's inverse document frequency (a word the table lacks counts as in one abstract).

        >>> w = Words(1000, {"robot": 99})
        >>> round(w.weight("robot"), 2), round(w.weight("tactile"), 2)
        (2.3, 6.21)
        """
        return math.log(self.documents / (self.counts.get(word, 1) + 1))


@lru_cache(maxsize=1)
def words() -> Words:
    """The shipped table (read once)."""
    documents, counts = 1, {}
    for line in ontology_path("word-frequencies.tsv").read_text(encoding="utf-8").splitlines():
        cells = line.split("\t")
        if cells[0] == "documents":
            documents = int(cells[1])
        elif cells[0] == "word":
            counts[cells[1]] = int(cells[2])
    return Words(documents, counts)


@dataclass(slots=True)
class Evidence:
    """What a pair shares and its weight (not frozen, as :class:`Profile`)."""

    weight: float
    coauthors: tuple[str, ...]
    places: tuple[str, ...]
    topic: float

    def says(self) -> str:
        """The evidence in words, for the person's record of why its papers were joined."""
        parts = []
        if self.coauthors:
            parts.append("coauthor " + ", ".join(self.coauthors))
        if self.places:
            parts.append("affiliation " + ", ".join(p[2:] for p in self.places))
        if self.topic >= 0.1:
            parts.append(f"topics (similarity {self.topic:.2f})")
        return "; ".join(parts) or "nothing but the name"


def shared_coauthors(a: Profile, b: Profile) -> list[tuple[str, float]]:
    """The coauthors two authorships share, as written on the first, each with its weight: a name
    few people have written alike weighs most, a variant ("H. Amor") or a common name less."""
    out = []
    for block in sorted(a.coauthors.keys() & b.coauthors.keys()):
        for x, written in a.coauthors[block]:
            how = max((relation(x, y) for y, _ in b.coauthors[block]), key=_RANK.get)  # type: ignore[arg-type]
            if how not in (SAME, VARIANT):
                continue
            common = expected_people(x) > _COMMON_PEOPLE
            weight = COAUTHOR if how == SAME and not common else COMMON_COAUTHOR
            out.append((written, weight if how == SAME or not common else COMMON_COAUTHOR / 3))
    return out


_RANK = {SAME: 3, VARIANT: 2, LOOSE: 1, "": 0}


def weigh(a: Profile, b: Profile) -> Evidence:
    """The evidence that two authorships are one person's."""
    shared = shared_coauthors(a, b)
    weight = sum(w for _, w in shared)
    places = sorted(a.affiliations & b.affiliations)
    weight += AFFILIATION * min(len(places), 2)
    topic = _similarity(a.topics, b.topics, a.norm * b.norm)
    weight += TOPIC * topic
    x, y = a.authorship, b.authorship
    if x.venue and x.venue == y.venue:
        weight += VENUE + (SENIOR if x.senior and y.senior else 0.0)
    if x.year is not None and y.year is not None:
        gap = abs(x.year - y.year)
        weight += NEAR_YEARS if gap <= 2 else FAR_YEARS if gap > 10 else 0.0
    return Evidence(weight, tuple(c for c, _ in shared), tuple(places), topic)


def _similarity(a: dict[str, float], b: dict[str, float], norms: float) -> float:
    """Cosine of two weighted sets given the product of their norms (0 when either is empty).

    >>> round(_similarity({"x": 1.0, "y": 1.0}, {"x": 1.0}, math.sqrt(2)), 3)
    0.707
    """
    if not norms:
        return 0.0
    if len(b) < len(a):
        a, b = b, a
    return sum(w * b[k] for k, w in a.items() if k in b) / norms
