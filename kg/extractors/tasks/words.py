"""Words of a text with their offsets, the key every task label and phrase is compared by, and sentences.

A task is compared by its *key*: its words, lower case, with hyphens, dashes and spaces alike and
British spellings folded ("Visual-Inertial Odometry" and "visual inertial odometry" are one key,
"localisation" and "localization" too).  The vocabulary generator (``ontology/make_tasks.py``) keys
labels with the same function, so a label is found in every spelling it is written in.

>>> label_key("Text-to-Image Generation"), label_key("object localisation")
('text to image generation', 'object localization')
>>> words("3D-VQA: we tackle text-to-SQL.").text
['3D', 'VQA', 'we', 'tackle', 'text', 'to', 'SQL']
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator
from functools import lru_cache
from itertools import accumulate, compress
from operator import add, itemgetter, methodcaller, ne, sub

_WORD = re.compile(r"[A-Za-z0-9]+(?:\.[0-9]+)*")
_BRITISH = {
    "modelling": "modeling",
    "labelling": "labeling",
    "defence": "defense",
    "colour": "color",
    "colourization": "colorization",
    "behaviour": "behavior",
    "analyse": "analyze",
    "centre": "center",
    "travelling": "traveling",
    "signalling": "signaling",
}


class Words:
    """The words of a text as parallel lists (a build reads millions: lists of strings cost far less than
    an object per word): each word as written (``text``), its fold (:func:`fold`, ``low``), its character
    span (``start``, ``end``), and whether the text between it and the word before breaks a phrase
    (``broken``: punctuation other than a hyphen or a space; the first word is broken) or joins it to
    that word (``hyphened``: "few-shot")."""

    __slots__ = ("_named", "broken", "end", "hyphened", "low", "start", "text")

    def __init__(self, text: str, low: str = "") -> None:
        """The words of ``text``; ``low``, when given, is ``text`` folded to lower case with its offsets
        (:func:`~kg.extractors.methods.forms.folded`), which saves lower-casing word by word."""
        # the lists are made by C-level maps, not Python loops: these few lines are half the extractor's cost
        pairs = _GAP_WORD.findall(text)
        gaps = list(map(_FIRST, pairs))
        self.text: list[str] = list(map(_SECOND, pairs))
        lows = _LOW_WORD.findall(low) if low else []
        if len(lows) != len(pairs):  # no folded text, or one whose letters differ ("\u212a" is "k" there)
            lows = list(map(str.lower, self.text))
        if any(mark in (low or text.lower()) for mark in _BRITISH_MARKS):
            lows = list(map(_fold_lower, lows))
        self.low: list[str] = lows
        lengths = list(map(len, self.text))
        self.end: list[int] = list(accumulate(map(add, map(len, gaps), lengths)))
        self.start: list[int] = list(map(sub, self.end, lengths))
        self.broken: list[bool] = list(map(bool, map(_STRIP_JOINING, gaps)))
        self.hyphened: list[bool] = list(map(_HYPHENS.__contains__, gaps))
        if self.broken:
            self.broken[0] = True
        self._named: list[int] | None = None

    def __len__(self) -> int:
        return len(self.text)

    def named(self) -> list[int]:
        """The indices of the words not written in lower case (the words a name may start with)."""
        if self._named is None:  # a word with a capital differs from its fold
            self._named = list(compress(range(len(self.text)), map(ne, self.text, self.low)))
        return self._named


_GAP_WORD = re.compile(r"([^A-Za-z0-9]*)([A-Za-z0-9]+(?:\.[0-9]+)*)")
_FIRST = itemgetter(0)
_SECOND = itemgetter(1)
_LOW_WORD = re.compile(r"[a-z0-9]+(?:\.[0-9]+)*")
_JOINING = " \t\n\r-\u2010\u2011\u2013"
_STRIP_JOINING = methodcaller("strip", _JOINING)
_HYPHENS = frozenset({"-", "\u2010", "\u2011", "\u2013"})


# a text with none of these has no British spelling to fold
_BRITISH_MARKS = ("isation", *_BRITISH)


def _fold_lower(low: str) -> str:
    if "isation" in low:
        low = low.replace("isation", "ization")
    return _BRITISH.get(low, low)


@lru_cache(maxsize=1 << 16)
def fold(word: str) -> str:
    """A word in lower case with British spellings made American.

    >>> fold("Summarisation"), fold("Modelling"), fold("Denoising")
    ('summarization', 'modeling', 'denoising')
    """
    return _fold_lower(word.lower())


def words(text: str, low: str = "") -> Words:
    """The words of ``text`` in order (``low``: see :class:`Words`)."""
    return Words(text, low)


@lru_cache(maxsize=1 << 16)
def label_key(label: str) -> str:
    """The key a label or phrase is compared by: its folded words joined by single spaces."""
    return " ".join(fold(m.group()) for m in _WORD.finditer(label))


def compact(name: str) -> str:
    """The key a dataset name is compared by: its letters and digits in lower case, "+" spelt out
    ("MS-COCO", "MS COCO" and "MSCOCO" are one name; "ScanNet++" is not "ScanNet").

    >>> compact("MS-COCO"), compact("CIFAR 10"), compact("ScanNet++")
    ('mscoco', 'cifar10', 'scannetplusplus')
    """
    if not name.isascii():
        name = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode("ascii")
    return _NOT_ALNUM.sub("", name.replace("+", "plus").lower())


_NOT_ALNUM = re.compile(r"[^a-z0-9]+")


def singular(low: str) -> str:
    """The singular of a folded last word, when it has a plural ending ("tasks" -> "task").

    >>> singular("attacks"), singular("analysis"), singular("games"), singular("process")
    ('attack', 'analysis', 'game', 'process')
    """
    if len(low) > 3 and low.endswith("s") and not low.endswith(("ss", "is", "us", "ics")):
        return low[:-1]
    return low


# a sentence ends after a full stop, question or exclamation mark before a capital (or a digit), or at a
# blank line
_SENTENCE_END = re.compile(r"[.!?](?=\s+[A-Z0-9(\[])|\n\s*\n")


def sentences(text: str) -> Iterator[tuple[int, int]]:
    """The ``(start, end)`` offsets of the sentences of ``text``."""
    start = 0
    for m in _SENTENCE_END.finditer(text):
        yield start, m.end()
        start = m.end()
    if start < len(text):
        yield start, len(text)
