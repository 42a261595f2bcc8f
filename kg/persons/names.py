"""Names read for identity: folded, split into given names and surname, blocked, compared, and how
many people a name is likely to have.

>>> a, b = Name.parse("Hinrich Schütze"), Name.parse("Hinrich Schuetze")
>>> relation(a, b), block_key(a) == block_key(b)
('same', True)
>>> relation(Name.parse("J. Smith"), Name.parse("John A. Smith"))
'variant'
>>> relation(Name.parse("Jane Smith"), Name.parse("John Smith"))
''
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache

from kg.vocab import ontology_path

SAME = "same"
"""Two spellings of one name: case, diacritics, transliterated umlauts, hyphens, spaces and dots."""
VARIANT = "variant"
"""Names that can be one person's: an initial for a given name, a middle name left out."""
LOOSE = "loose"
"""Names that can be one person's only with evidence beyond the name: a short form of a given name
("Tim" and "Timothy", but also "Jan" and "Janet")."""

_SUFFIXES = frozenset({"jr", "sr", "ii", "iii", "iv"})
_PARTICLES = frozenset(
    {"van", "von", "der", "den", "de", "del", "della", "di", "da", "du", "des", "dos", "la", "le", "ter"}
)
_LETTERS = str.maketrans(
    {"ø": "o", "ł": "l", "đ": "d", "ð": "d", "þ": "th", "æ": "ae", "œ": "oe", "ß": "ss", "ı": "i"}
)
_UMLAUTS = str.maketrans({"ä": "ae", "ö": "oe", "ü": "ue"})
_NOT_ALNUM = re.compile(r"[^a-z0-9]+")
_QUALIFIER = re.compile(r"\([^()]*\)|\[[^\[\]]*\]")
_SEPARATORS = re.compile(r"[-.‐‑–]+")
# blocking folds German transliteration away (Schütze, Schuetze and Schutze share a block)
_DIGRAPHS = re.compile(r"(?<=[a-z])([aou])e")


def unqualified(text: str) -> str:
    """A name without the qualifiers in brackets a thesaurus gives one of several people of it.

    >>> unqualified("Yang Liu (Tsinghua)")
    'Yang Liu'
    """
    return " ".join(_QUALIFIER.sub(" ", text).split()) or text


def fold(text: str) -> str:
    """Lower case, no diacritics, letters and digits only (``ø`` is ``o``, ``ß`` is ``ss``).

    >>> fold("Zoë Müller-Łukasz"), fold("Ra’ed")
    ('zoemullerlukasz', 'raed')
    """
    if text.isascii():
        return _NOT_ALNUM.sub("", text.lower())
    flat = unicodedata.normalize("NFKD", text.casefold().translate(_LETTERS))
    return "".join(c for c in flat if c.isalnum() and not unicodedata.combining(c))


def _german(text: str) -> str:
    return fold(unicodedata.normalize("NFC", text.casefold()).translate(_UMLAUTS))


@dataclass(frozen=True, slots=True, eq=False)
class Name:
    """A person's name split for comparison: folded given-name parts (an initial is one letter) and
    surname parts, and the forms under which two spellings are the same name.  Names are compared by
    :func:`relation`, not ``==`` (equal and hashed by identity: :meth:`parse` gives one object per text,
    so the caches keyed by names hash a pointer, not four tuples).

    >>> n = Name.parse("Jean-Pierre  de la Fontaine Jr.")
    >>> n.given, n.surname
    (('jean-pierre',), ('de', 'la', 'fontaine'))
    >>> Name.parse("J.-P. Van Damme").given
    ('j', 'p', 'van')
    >>> Name.parse("Smith, John A.").given, Name.parse("Yang Liu (THU)").surname
    (('john', 'a'), ('liu',))
    """

    given: tuple[str, ...]
    surname: tuple[str, ...]
    forms: tuple[str, ...]
    """The name's letters in order under each transliteration (plain, German umlauts spelt out)."""
    first: str
    """The first given name as one word (``zhihua`` for Zhi-Hua), for the frequency table."""

    @classmethod
    def parse(cls, text: str) -> Name:
        """The name a text writes (read once per distinct text: a build names the same people often)."""
        return _parse(text)

    @classmethod
    def _read(cls, text: str) -> Name:
        # a qualifier in brackets ("Yang Liu (Tsinghua)", a thesaurus's name for one of several) is no part
        flat = " ".join(_QUALIFIER.sub(" ", unicodedata.normalize("NFC", text)).split())
        if flat.count(",") == 1:
            last, _, rest = flat.partition(",")
            if rest.strip() and fold(rest) not in _SUFFIXES:
                flat = f"{rest.strip()} {last.strip()}"
        words = [w for w in flat.replace(",", " ").split() if fold(w)]
        while len(words) > 1 and fold(words[-1]) in _SUFFIXES:
            words.pop()
        if not words:
            return cls((), (), ("",), "")
        start = len(words) - 1
        # a particle is written in lower case ("Maarten de Rijke"); "Kiet Van Nguyen" has a middle name
        while start > 1 and words[start - 1] in _PARTICLES:
            start -= 1
        given_words, surname_words = words[:start], words[start:]

        given, surname = _given(given_words), _parts(surname_words, fold)
        forms = {"".join(_parts(given_words, fold) + surname)}
        if not flat.isascii():  # an umlaut may be spelt out elsewhere
            forms.add("".join(_parts(given_words, _german) + _parts(surname_words, _german)))
        first = fold(given_words[0]) if given_words else ""
        return cls(given, surname, tuple(sorted(forms)), first)

    @property
    def middle(self) -> tuple[str, ...]:
        return self.given[1:]


def _given(words: list[str]) -> tuple[str, ...]:
    """Given names, folded: a hyphenated one is one name ("Hui-Liang" is ``hui-liang``, not Hui with a
    middle name Liang), initials are one letter each ("J.-P." is ``j``, ``p``)."""
    out: list[str] = []
    for w in words:
        parts = [p for p in (fold(s) for s in _SEPARATORS.split(w)) if p]
        if all(len(p) == 1 for p in parts):
            out.extend(parts)
        else:
            out.append("-".join(parts))
    return tuple(out)


def _parts(words: list[str], folded: Callable[[str], str]) -> tuple[str, ...]:
    """Words split at hyphens and dots, folded, empty parts left out."""
    return tuple(p for w in words for p in (folded(s) for s in _SEPARATORS.split(w)) if p)


@lru_cache(maxsize=1 << 16)
def _parse(text: str) -> Name:
    return Name._read(text)


@lru_cache(maxsize=1 << 16)
def block_key(name: Name) -> str:
    """The block of names that can be one person's: the surname's last part (umlauts and their
    transliterations folded alike) and the first given name's initial.

    >>> block_key(Name.parse("Dylan Hadfield-Menell")) == block_key(Name.parse("D. Hadfield Menell"))
    True
    """
    last = _DIGRAPHS.sub(r"\1", name.surname[-1]) if name.surname else ""
    return f"{last} {name.given[0][:1] if name.given else ''}"


@lru_cache(maxsize=1 << 16)
def relation(a: Name, b: Name) -> str:
    """How two names of one block relate: :data:`SAME`, :data:`VARIANT`, :data:`LOOSE` or ``""``
    (two people).

    >>> relation(Name.parse("Zhi-Hua Zhou"), Name.parse("Zhihua Zhou"))
    'same'
    >>> relation(Name.parse("Tim Baldwin"), Name.parse("Timothy Baldwin"))
    'loose'
    >>> relation(Name.parse("J. A. Smith"), Name.parse("J. B. Smith"))
    ''
    """
    if set(a.forms) & set(b.forms):
        return SAME
    if not _surnames(a.surname, b.surname) or not a.given or not b.given:
        return ""
    x, y = a.given[0], b.given[0]
    if x == y or (len(x) == 1 and y.startswith(x)) or (len(y) == 1 and x.startswith(y)):
        how = VARIANT
    elif min(len(x), len(y)) >= 3 and (x.startswith(y) or y.startswith(x)) and not _first_part(x, y):
        how = LOOSE
    else:
        return ""
    for u, v in zip(a.middle, b.middle, strict=False):
        if not (u == v or (len(u) == 1 and v.startswith(u)) or (len(v) == 1 and u.startswith(v))):
            return ""
    return how


def _first_part(x: str, y: str) -> bool:
    """Whether one given name is the first part of the other, hyphenated ("Jean" and "Jean-Pierre",
    "Hui" and "Hui-Liang": two names, not a name and its short form)."""
    short, long = sorted((x, y), key=len)
    return long.split("-")[0] == short


def _surnames(a: tuple[str, ...], b: tuple[str, ...]) -> bool:
    """Whether two surnames can be one: equal, or one the other's last parts with particles before
    ("van der Berg" and "Berg")."""
    if a == b or "".join(a) == "".join(b):
        return True
    short, long = (a, b) if len(a) < len(b) else (b, a)
    return bool(short) and long[-len(short) :] == short and all(p in _PARTICLES for p in long[: -len(short)])


def generalizes(a: Name, b: Name) -> bool:
    """Whether ``a`` is a less specific form of ``b``: each of its given names is ``b``'s, or its
    initial, in order, and ``b`` says more (a full name for an initial, or a middle name).

    >>> generalizes(Name.parse("J. Smith"), Name.parse("John A. Smith"))
    True
    >>> generalizes(Name.parse("H. Jin Kim"), Name.parse("Hanbin Kim"))
    False
    >>> generalizes(Name.parse("Hanbin Kim"), Name.parse("H. Jin Kim"))
    False
    """
    if not a.given or len(a.given) > len(b.given) or relation(a, b) != VARIANT:
        return False
    if not all(x == y or (len(x) == 1 and y.startswith(x)) for x, y in zip(a.given, b.given, strict=False)):
        return False
    return a.given != b.given[: len(a.given)] or len(a.given) < len(b.given)


def by_surname(written: list[str]) -> bool:
    """Whether an author list is in surname order (as mathematics and much of physics list authors:
    its last author is no group's leader).

    >>> by_surname(["Ann Abel", "Bo Berg", "Cy Cole"]), by_surname(["Bo Berg", "Ann Abel", "Cy Cole"])
    (True, False)
    """
    surnames = [(Name.parse(w).surname or ("",))[-1] for w in written]
    return surnames == sorted(surnames)


def specificity(name: Name) -> tuple[int, int]:
    """How much a name says: its full given names, then all its given parts (a fuller name names
    its person)."""
    return sum(1 for g in name.given if len(g) > 1), len(name.given)


@dataclass(frozen=True, slots=True)
class Frequencies:
    """How common given names and surnames are among authors (``ontology/name-frequencies.tsv``,
    counted over distinct names of arXiv listings by ``ontology/make_name_frequencies.py``)."""

    names: int
    given: dict[str, int]
    surnames: dict[str, int]
    initials: dict[str, int]

    def people(self, name: Name) -> float:
        """How many people of this name a population of :attr:`names` names is expected to hold: the
        product of the given name's and the surname's frequencies (an initial counts every given
        name it stands for), less for a middle name.

        >>> f = Frequencies(1000, {"yang": 40}, {"liu": 50}, {"y": 90})
        >>> round(f.people(Name.parse("Yang Liu")), 2), round(f.people(Name.parse("Yang Q. Liu")), 2)
        (2.05, 0.41)
        """
        if not name.given:
            return 1.0
        first = name.first
        g = self.initials.get(first[:1], 0) if len(name.given[0]) == 1 else self.given.get(first, 0)
        s = self.surnames.get(name.surname[-1] if name.surname else "", 0)
        people = (g + 0.5) * (s + 0.5) / self.names
        for middle in name.middle:
            people *= 0.2 if len(middle) == 1 else 0.05
        return people


@lru_cache(maxsize=1 << 16)
def expected_people(name: Name) -> float:
    """How many people of a name the shipped table expects (:meth:`Frequencies.people`), once per name."""
    return frequencies().people(name)


@lru_cache(maxsize=1)
def frequencies() -> Frequencies:
    """The shipped table (read once)."""
    return read_frequencies(ontology_path("name-frequencies.tsv").read_text(encoding="utf-8"))


def read_frequencies(text: str) -> Frequencies:
    """A frequency table from its text: ``names<TAB>N``, then ``given|surname<TAB>name<TAB>count``.

    >>> read_frequencies("names\\t10\\ngiven\\tyang\\t3\\nsurname\\tliu\\t2\\n").initials
    {'y': 3}
    """
    names, given, surnames = 1, {}, {}
    for line in text.splitlines():
        cells = line.split("\t")
        if cells[0] == "names":
            names = int(cells[1])
        elif cells[0] == "given":
            given[cells[1]] = int(cells[2])
        elif cells[0] == "surname":
            surnames[cells[1]] = int(cells[2])
    initials: dict[str, int] = {}
    for g, n in given.items():
        initials[g[:1]] = initials.get(g[:1], 0) + n
    return Frequencies(names, given, surnames, initials)
