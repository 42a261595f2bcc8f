"""Surface forms: masking markup, folding case, slugs and name keys, abbreviations defined on the page,
and the spelling variants of a label.

>>> slugify("Gated-SwinRMT")
'gated-swinrmt'
>>> [(a.short, a.long) for a in find_abbreviations("We use Low-Rank Adaptation (LoRA) here.")]
[('LoRA', 'Low-Rank Adaptation')]
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache

_FOLD = str.maketrans({"\u0130": "i", "\u0131": "i", "\u017f": "s", "\u212a": "k"})


def folded(text: str) -> str:
    """``text`` lower-cased for case-sensitive searches of lower-case patterns, offsets unchanged.

    Checked over every code point: each character becomes one character, which is an ASCII letter
    exactly when ``re.IGNORECASE`` matches the character to that letter, and which is whitespace, a
    word character, a digit, a hyphen, a parenthesis or one of ``STRIP`` exactly when the character
    is.  So a case-insensitive search of a pattern made of those (all of ``_RULE_TRIGGER``,
    ``_SEQUENCE_CONTEXT``, ``_CUE_SEARCH``) finds the same places as a case-sensitive search of the
    lower-case pattern in the folded text.

    >>> folded("ſtate-Space İ")
    'state-space i'
    """
    if text.isascii() or not any(c in text for c in "\u0130\u0131\u017f\u212a"):
        return text.lower()
    return text.translate(_FOLD).lower()  # slow: a dictionary look-up per character


@dataclass(frozen=True, slots=True)
class Abbreviation:
    """A short form defined on the page with its long form; ``start`` is the short form's offset."""

    short: str
    long: str
    start: int
    long_start: int


def slugify(name: str) -> str:
    """Lower-case ASCII words joined by ``-``: the key of an introduced method."""
    name = name.replace("+", " plus ")
    ascii_name = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode("ascii")
    return "-".join(_SLUG_WORD.findall(ascii_name.lower()))


_SLUG_WORD = re.compile(r"[a-z0-9]+")


def name_key(name: str) -> str:
    """The key of a method's name: its slug, a plural of a coined name made singular.

    Papers write one name as "DeepONet" and "DeepONets": both are one concept.  Only names whose
    shape says the ``s`` is a plural are changed (inner capitals before it), so "Atlas" stays.

    >>> name_key("DeepONets"), name_key("DeepONet"), name_key("Atlas"), name_key("LLMs")
    ('deeponet', 'deeponet', 'atlas', 'llm')
    """
    name = name.strip()
    if (
        len(name) >= 4
        and name.endswith("s")
        and not name.endswith(("ss", "us", "is"))
        and name[-2].isalnum()
        and any(c.isupper() for c in name[1:-1])
    ):
        name = name[:-1]
    return slugify(name)


# LaTeX wrappers and control characters become spaces of the same length, so every
# offset into the masked text is an offset into the original text.
_LATEX_WRAP = re.compile(r"\\[A-Za-z]{1,12}\{([^{}\n]{0,80})\}")
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")


_LONG_CHUNK = re.compile(r"\S{100,}")


def _break_chunk(chunk: str) -> str:
    """A very long run without spaces, with a space every 50 characters."""
    return "".join(" " if i % 50 == 49 else c for i, c in enumerate(chunk))


def mask(text: str) -> str:
    """The text with markup blanked out, same length."""

    def unwrap(m: re.Match[str]) -> str:
        inner = m.group(1)
        head = m.start(1) - m.start()
        return " " * head + inner + " "

    text = _CONTROL.sub(" ", text)
    # spaCy strips prefixes one by one from a whitespace-free chunk, quadratic in its length
    # (``str.split`` and ``\S`` agree on what whitespace is; splitting is faster than the search)
    if len(text) >= 100 and max(map(len, text.split()), default=0) >= 100:
        text = _LONG_CHUNK.sub(lambda m: _break_chunk(m.group()), text)
    if "\\" in text:
        text = _LATEX_WRAP.sub(unwrap, text)
    return _blank_quotes(text)


def _blank_quotes(text: str) -> str:
    """Quotes (``\u0060\u0060``, ``''``, ``"“”‘’``) replaced by spaces, same length.

    The same as ``re.sub`` of the alternation, much faster: the alternatives start with distinct
    characters, and ``str.replace`` too replaces left to right without overlaps.
    """
    if "`" in text:
        text = text.replace("``", "  ")
    if "'" in text:
        text = text.replace("''", "  ")
    for quote in '"“”‘’':
        if quote in text:
            text = text.replace(quote, " ")
    return text


PAREN = re.compile(r"\(([^()\n]{1,60})\)")
# a title "Name: what it does"
TITLE_NAME = re.compile(r"^\s*(?P<name>[^:?]{2,60}?)\s*:\s+(?P<rest>\S.*)$", re.DOTALL)
WORD = re.compile(r"[^\s()]+")
_SF_SHAPE = re.compile(r"^[^\W_][\w\-./+Φ]{0,14}$")


def _sh_match(short: str, long: str) -> int:
    """Schwartz & Hearst: start of the shortest tail of ``long`` that spells ``short``, or -1."""
    s = len(short) - 1
    i = len(long) - 1
    while s >= 0:
        c = short[s].lower()
        if not c.isalnum():
            s -= 1
            continue
        while i >= 0 and (long[i].lower() != c or (s == 0 and i > 0 and long[i - 1].isalnum())):
            i -= 1
        if i < 0:
            return -1
        i -= 1
        s -= 1
    return i + 1


def find_abbreviations(text: str) -> list[Abbreviation]:
    """Short forms defined as ``long form (SF)`` (Schwartz & Hearst), in text order."""
    found: list[Abbreviation] = []
    for m in PAREN.finditer(text):
        inner = m.group(1).strip()
        if not (2 <= len(inner) <= 12) or not _SF_SHAPE.match(inner) or not any(c.isalpha() for c in inner):
            continue
        if not inner[0].isupper() and not any(c.isupper() for c in inner[1:]):
            continue  # "(e.g.", "(ours)": a short form has capitals
        before = text[max(0, m.start() - 200) : m.start()]
        words = list(WORD.finditer(before))
        limit = min(len(inner) + 5, len(inner) * 2)
        window = words[-limit:]
        if not window:
            continue
        # the long form stops at clause punctuation
        cut = 0
        for k, w in enumerate(window):
            if w.group().endswith((",", ";", ":", ".")) and k < len(window) - 1:
                cut = k + 1
        window = window[cut:]
        if not window:
            continue
        start_in_before = window[0].start()
        long_region = before[start_in_before:].rstrip()
        pos = _sh_match(inner, long_region)
        if pos < 0:
            continue
        long_form = long_region[pos:].strip()
        n_words = len(long_form.split())
        if n_words < 1 or long_form.lower() == inner.lower() or len(long_form) <= len(inner):
            continue
        if n_words == 1 and not re.search(r"[-A-Z]", long_form[1:]):
            continue  # one plain word is not a long form
        offset = m.start() - len(before) + start_in_before + pos
        found.append(
            Abbreviation(inner, long_form, m.start(1) + (len(m.group(1)) - len(m.group(1).lstrip())), offset)
        )
    return found


@lru_cache(maxsize=1 << 16)
def norm_label(label: str) -> str:
    """Label comparison key: lower case, hyphens as spaces, single spaces."""
    return " ".join(label.lower().translate(_HYPHENS).split())


_HYPHENS = str.maketrans({"-": " ", "–": " ", "‐": " "})


def is_acronym(label: str) -> bool:
    """Labels written with inner capitals or digits are matched case-sensitively."""
    return (" " not in label and any(c.isupper() for c in label[1:])) or bool(
        re.fullmatch(r"[A-Z][A-Z0-9]+", label)
    )


def is_short_caps(label: str) -> bool:
    """Short all-capitals labels (SSM, S4, WD) are ambiguous without context."""
    return bool(re.fullmatch(r"[A-Z][A-Z0-9]{1,3}s?", label))


def plural(label: str) -> str:
    if label.endswith(("s", "x")) or label[-1:].isdigit():
        return label
    if label.endswith("y") and not label.endswith(("ay", "ey", "oy")):
        return label[:-1] + "ies"
    return label + "s"


def variants(label: str) -> set[str]:
    """A label as written, with hyphens as spaces and vice versa, and plural."""
    forms = {label, label.replace("-", " ")}
    if " " in label:
        forms.add(label.replace(" ", "-"))
    return forms | {plural(f) for f in forms}
