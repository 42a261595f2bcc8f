"""Finding the names of known tasks and datasets in a text: dictionary look-ups at the words where a name
can end (a task) or start (a dataset), not a pattern per label.

Tasks are compared by key (:func:`~.words.label_key`: "Visual-Inertial Odometry" is "visual inertial
odometry"), looked up only at a word that ends some label, longest first; a label that is one acronym
("VQA", "NER") must be written in capitals.  Datasets are compared by their letters and digits
(:func:`~.words.compact`: "MS-COCO", "MS COCO" and "MSCOCO" are one name; "THUMOS-14" is "THUMOS14"),
looked up from a word that is not in lower case and starts some label; a label with capitals past its
first letter must be written so ("GLUE" is not "glue", "IntrA" is not "Intra-class"), and one with a
capital first must start with one ("Cityscapes").
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from itertools import pairwise

from .vocabulary import Concept
from .words import Words, compact, label_key, words

MAX_NAME_WORDS = 6
"""Dataset names of more words are not looked for (none of the vocabulary's is longer)."""


@dataclass(frozen=True, slots=True)
class Hit:
    """A known name in a text: the concept's slug, words ``start:end`` and characters ``first:last``;
    ``hidden`` when the label that matched counts only in context."""

    slug: str
    start: int
    end: int
    first: int
    last: int
    hidden: bool = False


def _is_acronym(label: str) -> bool:
    letters = [c for c in label if c.isalpha()]
    return " " not in label and len(letters) >= 2 and all(c.isupper() for c in letters)


def plurals(word: str) -> tuple[str, ...]:
    """The plural forms a folded last word may be written in ("attack" -> "attacks").

    >>> plurals("attack"), plurals("query"), plurals("analysis")
    (('attacks',), ('queries', 'querys'), ())
    """
    if word.endswith(("s", "x", "ing")) or not word.isalpha():
        return ()
    if word.endswith("y"):
        return (word[:-1] + "ies", word + "s")
    if word.endswith(("ch", "sh")):
        return (word + "es",)
    return (word + "s",)


class TaskNames:
    """The labels of the task scheme, found in a text's words (areas are structure: never found)."""

    def __init__(self, concepts: dict[str, Concept]) -> None:
        self.concepts = concepts
        self.by_key: dict[str, str] = {}
        self.hidden: set[str] = set()  # keys of labels that count only in context
        self.capitals: dict[str, str] = {}  # key -> the acronym as it must be written
        self.longest: dict[str, int] = {}  # last word -> words of the longest label ending in it
        for c in concepts.values():
            if c.area:
                continue
            labelled = [(label, c.ambiguous) for label in c.labels] + [(label, True) for label in c.hidden]
            for label, hidden in labelled:
                k = label_key(label)
                if not k or k in self.by_key:
                    continue
                self.by_key[k] = c.slug
                if hidden:
                    self.hidden.add(k)
                if _is_acronym(label):
                    self.capitals[k] = label
                parts = k.split()
                self.longest[parts[-1]] = max(self.longest.get(parts[-1], 0), len(parts))
        # every run of last words of a label ("detection", "object detection", ...): a match grows from its
        # last word while it is one, and stops at the first that is not
        self.suffixes = frozenset(
            " ".join(parts[i:]) for parts in (k.split() for k in self.by_key) for i in range(len(parts))
        )
        # a word as written -> the last word of labels it is (itself, or its singular): one look-up a word
        self.last_of: dict[str, str] = {}
        for last in self.longest:
            for form in plurals(last):
                self.last_of.setdefault(form, last)
        self.last_of.update((last, last) for last in self.longest)

    def find(self, ws: Words) -> list[Hit]:
        """Known tasks in ``ws``, longest match first at each end, without overlaps, in text order."""
        found: list[Hit] = []
        lows, broken = ws.low, ws.broken
        last_of, by_key = self.last_of, self.by_key
        suffixes = self.suffixes
        for i in [i for i, low in enumerate(lows) if low in last_of]:
            k = last_of[lows[i]]
            best = -1
            best_key = ""
            j = i
            while True:
                if k in by_key and not (
                    k in self.capitals and ws.text[i].rstrip("s") != self.capitals[k].rstrip("s")
                ):
                    best, best_key = j, k
                if j == 0 or broken[j]:
                    break
                j -= 1
                k = f"{lows[j]} {k}"
                if k not in suffixes:
                    break
            if best >= 0:
                found.append(
                    Hit(by_key[best_key], best, i + 1, ws.start[best], ws.end[i], best_key in self.hidden)
                )
        return without_overlaps(found)


def without_overlaps(hits: list[Hit]) -> list[Hit]:
    """The longest hits first; a hit that overlaps a kept one is dropped; in text order."""
    if all(a.end <= b.start for a, b in pairwise(hits)):
        return hits  # in text order and apart: the common case
    kept: list[Hit] = []
    taken: set[int] = set()
    for h in sorted(hits, key=lambda h: (-(h.end - h.start), h.start)):
        if not any(j in taken for j in range(h.start, h.end)):
            kept.append(h)
            taken.update(range(h.start, h.end))
    return sorted(kept, key=lambda h: h.start)


# what may stand between the words of one dataset name ("CNN/DailyMail", "Tanks & Temples", "AIME'24")
_NAME_GAP = re.compile(r"[ \-_/.:&'’]{0,3}")


@dataclass(frozen=True, slots=True)
class _Entry:
    slug: str
    case: str  # "upper": written in capitals ("GLUE"); "inner": with a capital inside ("ImageNet"); "first"
    hidden: bool
    spaced: bool  # the label has a space: the text may have one ("MS COCO"; "ChestX" is not "Chest X")


def _case(name: str) -> str:
    """How a name is written: "upper" (no lower-case letter: "GLUE", "CIFAR-10"), "inner" (a capital
    past the first letter: "ImageNet", "nuScenes"), "first" ("Cityscapes") or "" (lower case)."""
    letters = [c for c in name if c.isalpha()]
    if not letters:
        return ""
    if not any(c.islower() for c in letters):
        return "upper"
    if any(c.isupper() for c in letters[1:]):
        return "inner"
    return "first" if letters[0].isupper() else ""


# how a name may be written, given how its label is: "GLUE" not as "Glue" or "glue", "ImageNet" not as
# "Imagenet", "Intra-class" not as "IntrA" ("SeedBench" may be "SEEDBench": a capital inside is enough)
_CASES_OF = {"upper": ("upper",), "inner": ("inner", "upper"), "first": ("first", "inner", "upper")}


class DatasetNames:
    """The labels of the dataset scheme, found in a text's words.

    A name is looked up by the letters and digits of a run of words, whatever the words are ("THUMOS-14"
    is the label "THUMOS14", "MS COCO" the label "MSCOCO"); a run grows while it is the start of a key.
    """

    def __init__(self, concepts: dict[str, Concept]) -> None:
        self.concepts = concepts
        self.by_key: dict[str, list[_Entry]] = {}
        firsts: set[str] = set()
        for c in concepts.values():
            labelled = [(label, c.ambiguous) for label in c.labels] + [(label, True) for label in c.hidden]
            for label, hidden in labelled:
                parts = words(label)
                key = compact(label)
                if not parts or not key or len(parts) > MAX_NAME_WORDS or parts.low[0] in ("the", "a"):
                    continue
                entry = _Entry(c.slug, _case(label), hidden, " " in label)
                self.by_key.setdefault(key, []).append(entry)
                firsts.add(parts.low[0].replace(".", ""))
        self.prefixes = frozenset(k[:m] for k in self.by_key for m in range(1, len(k) + 1))
        # where a name may start: a label's first word, or four letters or more that start a label
        # ("THUMOS" of "THUMOS14": "THUMOS-14" is written so); not "We", "The", "In" at a sentence's start
        self.starts = frozenset(firsts) | frozenset(p for p in self.prefixes if len(p) >= 4)

    def find(self, text: str, ws: Words) -> list[Hit]:
        """Known datasets in ``text`` (whose words are ``ws``), the longest at each start, without overlaps."""
        found: list[Hit] = []
        n, size = len(ws), len(text)
        texts, starts, ends, prefixes, by_key = ws.text, ws.start, ws.end, self.prefixes, self.by_key
        starts_at = self.starts
        for i in ws.named():  # a name is not written in lower case ("nuScenes" is not)
            key = ws.low[i].replace(".", "")
            if key not in starts_at:
                continue
            best: Hit | None = None
            j = i
            while True:
                end = ends[j]
                plus = 0
                while end + plus < size and text[end + plus] == "+":
                    plus += 1  # "ScanNet++", "HumanEval+"
                for whole, stop in ((key + "plus" * plus, end + plus), (key, end)) if plus else ((key, end),):
                    if whole in by_key:
                        hit = self._hit(whole, text[starts[i] : stop], i, j, starts[i])
                        if hit is not None:
                            best = hit
                            break
                j += 1
                if j >= n or j - i >= MAX_NAME_WORDS:
                    break
                if ws.broken[j] and _NAME_GAP.fullmatch(text, ends[j - 1], starts[j]) is None:
                    break  # (a gap of spaces or a hyphen does not break a phrase: it may be in a name)
                key += texts[j].lower().replace(".", "")
                if key not in prefixes:
                    break
            if best is not None:
                found.append(best)
        return without_overlaps(found)

    def _hit(self, key: str, written: str, i: int, j: int, first: int) -> Hit | None:
        spaced = " " in written
        for e in self.by_key.get(key, ()):
            if (not e.case or _case(written) in _CASES_OF[e.case]) and (e.spaced or not spaced):
                return Hit(e.slug, i, j + 1, first, first + len(written), e.hidden)
        return None
