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
    """Lower-case ASCII words joined by ``-``."""
    return _slug(name, lower=True)


_SLUG_WORD = re.compile(r"[a-z0-9]+")


@lru_cache(maxsize=1 << 16)
def name_key(name: str) -> str:
    """The key of a method's name: its slug, a plural of a coined name made singular, and the
    capitals of a name in mixed case kept, so that such names compare case-sensitively.

    Papers write one name as "DeepONet" and "DeepONets": both are one concept.  Only names whose
    shape says the ``s`` is a plural are changed (inner capitals before it), so "Atlas" stays.
    "CoM" (chain of mesh) and "COM" (centre of mass) are two names; "TRACE" and "Trace" are one.

    >>> name_key("DeepONets"), name_key("DeepONet"), name_key("Atlas"), name_key("LLMs")
    ('DeepONet', 'DeepONet', 'atlas', 'llm')
    >>> name_key("CoM"), name_key("COM"), name_key("TRACE"), name_key("Qwen 2.5-VL"), name_key("ResNet-50")
    ('CoM', 'com', 'trace', 'qwen2-5-vl', 'ResNet50')
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
    return _LETTER_DIGIT.sub("", _slug(name, lower=not mixed_case(name)))


def version_key(label: str) -> str:
    """The key of a versioned name of a known model family: case-insensitive, and "Qwen 2.5",
    "Qwen-2.5" and "Qwen2.5" are one.

    >>> version_key("Qwen 2.5"), version_key("QWEN-2.5-VL"), version_key("GPT-4o-mini")
    ('qwen2-5', 'qwen2-5-vl', 'gpt4o-mini')
    """
    return _LETTER_DIGIT.sub("", slugify(label))


# "Qwen 2.5", "Qwen-2.5", "Qwen2.5": a separator between a name and its version number says nothing
_LETTER_DIGIT = re.compile(r"(?<=[A-Za-z])-(?=\d)")


def _slug(name: str, lower: bool) -> str:
    name = name.replace("+", " plus ")
    ascii_name = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode("ascii")
    if lower:
        return "-".join(_SLUG_WORD.findall(ascii_name.lower()))
    return "-".join(_CASED_WORD.findall(ascii_name))


_CASED_WORD = re.compile(r"[A-Za-z0-9]+")


def mixed_case(name: str) -> bool:
    """Whether a word of the name has a capital after its first letter and a small letter ("CoM",
    "ZetaFormer", "kNN"), not only capitals ("TRACE") or an initial one ("Qwen2").

    >>> [mixed_case(n) for n in ("CoM", "ZetaFormer", "TRACE", "Qwen2.5-VL", "GPT-4o", "Trace")]
    [True, True, False, False, False, False]
    """
    for word in _CASED_WORD.findall(name):
        letters = [c for c in word if c.isalpha()]
        if any(c.islower() for c in letters) and any(c.isupper() for c in letters[1:]):
            return True
    return False


def distinctive(name: str) -> bool:
    """Whether a name alone says which method it is: five letters or more, in mixed case, with two
    capitals ("DiffuseLoco", "STEPQuant", "LLaVA"); not an acronym ("SAP", "CoM"), nor a word
    ("Crab", "TRACE"), which different papers give to different things.

    >>> [distinctive(n) for n in ("DiffuseLoco", "STEPQuant", "SAP", "CoM", "CoDA", "Crab", "TRACE")]
    [True, True, False, False, False, False, False]
    """
    letters = [c for c in name if c.isalpha()]
    return len(letters) >= 5 and any(c.islower() for c in letters) and sum(c.isupper() for c in letters) >= 2


def long_key(long: str) -> str:
    """The key of a long form: its slug, each word's plural made singular.

    >>> long_key("Membership Inference Attacks"), long_key("Spatial-Attention Prompting")
    ('membership-inference-attack', 'spatial-attention-prompting')
    """
    words = slugify(long).split("-")
    return "-".join(
        w[:-1] if len(w) > 3 and w.endswith("s") and not w.endswith(("ss", "us", "is")) else w for w in words
    )


def concept_key(name: str, long: str = "", paper: str = "") -> str:
    """The key of the concept a paper means by a name: the name's key, with the long form the paper
    gives it ("SAP--spatial-attention-prompting" is not "SAP--surgical-action-planning"), or else, for
    a name that does not say alone which method it is, the paper's own tag (:func:`paper_tag`), so
    that papers share a concept only when their meaning agrees.  ``--`` never occurs in a slug.

    >>> concept_key("SAP", "Spatial Attention Prompting"), concept_key("DiffuseLoco")
    ('sap--spatial-attention-prompting', 'DiffuseLoco')
    >>> concept_key("TRACE", paper="temporal-grounding-video-llm")
    'trace--temporal-grounding-video-llm'
    """
    key = name_key(name)
    if long and long_key(long) != slugify(name):
        return f"{key}--{long_key(long)}"
    if paper and not distinctive(name):
        return f"{key}--{paper}"
    return key


def bare_key(key: str) -> str:
    """The name part of a concept key (:func:`concept_key`).

    >>> bare_key("sap--spatial-attention-prompting"), bare_key("DiffuseLoco")
    ('sap', 'DiffuseLoco')
    """
    return key.split("--", 1)[0]


def paper_tag(title: str) -> str:
    """A paper's tag in the keys of the names it introduces: the slug of the first four words of its
    title after the name it may begin with.

    >>> paper_tag("TRACE: Temporal Grounding Video LLM via Causal Event Modeling")
    'temporal-grounding-video-llm'
    """
    m = TITLE_NAME.match(title)
    rest = m.group("rest") if m else title
    return slugify(" ".join(rest.split()[:4]))


# LaTeX wrappers and control characters become spaces of the same length, so every
# offset into the masked text is an offset into the original text.
_LATEX_WRAP = re.compile(r"\\[A-Za-z]{1,20}\{([^{}\n]{0,80})\}")
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
# inline mathematics: a name written in it (``$ALLaM-34B$``) is kept, a formula (``$\mathrm{SE}(3)$``,
# ``$^2$``) is blanked whole, so that no piece of it ("SE") is taken for a name
_MATH = re.compile(r"\$([^$\n]{1,200})\$")
_MATH_WORDS = r"[A-Za-z][A-Za-z0-9.+-]*(?:\s+[A-Za-z][A-Za-z0-9.+-]*)*"
# "$\textbf{Semantic-Geometric Representation} (\textbf{SGR})$": words, perhaps a definition after them
_MATH_TEXT = re.compile(rf"{_MATH_WORDS}(?:\s*\(\s*{_MATH_WORDS}\s*\))?")
# a command left after unwrapping (``\dotsc``, ``\'``), and the braces, carets and underscores of markup
_COMMAND = re.compile(r"\\(?:[A-Za-z]+|.)")
_MARKUP = re.compile(r"[{}^]")
# prose between two dollar signs ("costs $5 and we propose X for $3") is no formula
_MONEY = re.compile(r"\d[\d.,]*[A-Za-z]*\s")


_LONG_CHUNK = re.compile(r"\S{100,}")


def _break_chunk(chunk: str) -> str:
    """A very long run without spaces, with a space every 50 characters."""
    return "".join(" " if i % 50 == 49 else c for i, c in enumerate(chunk))


def _glued_after(m: re.Match[str]) -> bool:
    """Whether a word goes on right after the match ("\\textbf{A}daptive", "\\textbf{Sub}-Nyquist")."""
    after = m.string[m.end() : m.end() + 1]
    return bool(after) and not after.isspace() and after not in ",.;:)]}'\"!?$\\"


def _glued_both(m: re.Match[str]) -> bool:
    """Whether markup sits inside a word ("M$^2$D-LIF", "M\\textsuperscript{4}Fuse", "B\\'ezier")."""
    return m.start() > 0 and m.string[m.start() - 1].isalnum() and _glued_after(m)


def _inside_word(m: re.Match[str], inner: str) -> str:
    """Markup inside a word as hyphens around what it shows, so that the word stays one word; its
    label is taken from the text as written (:func:`written_name`)."""
    return "-" * (len(m.group()) - len(inner)) + inner


def _unwrap(m: re.Match[str]) -> str:
    """``\\cmd{inner}`` as ``inner`` in place, glued to a word that follows ("\\textbf{A}daptive" is
    "Adaptive"), else to what comes before."""
    inner = m.group(1)
    head = m.start(1) - m.start()
    if _glued_both(m):
        return _inside_word(m, inner)
    if _glued_after(m):
        return " " * (head + 1) + inner
    return " " * head + inner + " "


def _math(m: re.Match[str]) -> str:
    """An inline formula blanked, or the name or words written in it kept ("$ALLaM-34B$",
    "$\\textbf{D}$ynamic"), glued to the word it touches."""
    if _MONEY.match(m.group(1)):
        return m.group()  # "costs $5 and we propose X for $3": no formula
    inner = _LATEX_WRAP.sub(_unwrap, m.group(1)).strip()
    if _glued_both(m):
        return _inside_word(m, "".join(c for c in inner if c.isalnum())[: len(m.group()) - 1])
    if not _MATH_TEXT.fullmatch(inner):
        return " " * len(m.group())
    room = len(m.group()) - len(inner)
    if _glued_after(m):
        return " " * room + inner
    if m.start() > 0 and m.string[m.start() - 1].isalnum():
        return inner + " " * room
    return " " + inner + " " * (room - 1)


def mask(text: str) -> str:
    r"""The text with markup blanked out, same length.

    >>> mask(r"We use $ALLaM-34B$ and $\mathrm{SE}(3)$-equivariant \textbf{LIME}.")
    'We use  ALLaM-34B  and                 -equivariant         LIME .'
    >>> mask("It costs $5 and we propose FooNet for $3.")
    'It costs $5 and we propose FooNet for $3.'
    """
    text = _CONTROL.sub(" ", text)
    # spaCy strips prefixes one by one from a whitespace-free chunk, quadratic in its length
    # (``str.split`` and ``\S`` agree on what whitespace is; splitting is faster than the search)
    if len(text) >= 100 and max(map(len, text.split()), default=0) >= 100:
        text = _LONG_CHUNK.sub(lambda m: _break_chunk(m.group()), text)
    if "$" in text:
        text = _MATH.sub(_math, text)
    if "\\" in text:
        text = _LATEX_WRAP.sub(_unwrap, text)
        text = _COMMAND.sub(lambda m: "-" * len(m.group()) if _glued_both(m) else " " * len(m.group()), text)
        text = _MARKUP.sub(" ", text)
    elif "^" in text:
        text = text.replace("^", "-")  # "M^2C-EvDet": a superscript written without math, in its word
    return _blank_quotes(text)


# LaTeX accents in names ("B\'ezierGS"): the command's combining mark
_ACCENTS = {
    "'": "\u0301",
    "`": "\u0300",
    "^": "\u0302",
    '"': "\u0308",
    "~": "\u0303",
    "=": "\u0304",
    ".": "\u0307",
}
_ACCENTED = re.compile(r"\\([\'`^\"~=.])\{?([A-Za-z])\}?")
_SUPERSCRIPT = re.compile(r"\(\^([\w.]{1,4})\)")
_LABEL_SHAPE = re.compile(r"[^\W_][\w\-.+/'’&:·]*(?: [\w\-.+/'’&:·]+){0,9}")


def clean_label(written: str) -> str:
    r"""A name as written with its LaTeX taken out: commands, math, braces; "" when what is left is no
    name (a formula).

    >>> [clean_label(s) for s in (r"M$^2$D-LIF", r"\textbf{UI-KOBE}", r"B\'ezierGS", r"r_1,m_1;\dotsc", "Face-D(^2)CL")]
    ['M2D-LIF', 'UI-KOBE', 'BézierGS', '', 'Face-D2CL']
    """
    text = _ACCENTED.sub(lambda m: m.group(2) + _ACCENTS[m.group(1)], written)
    text = _SUPERSCRIPT.sub(r"\1", text)  # "Face-D(^2)CL" is "Face-D2CL"
    text = _LATEX_WRAP.sub(lambda m: m.group(1), text)
    text = _COMMAND.sub("", text)
    text = unicodedata.normalize("NFC", re.sub(r"[{}^_$]", "", text))
    text = " ".join(text.split()).strip(",.;:!?\"'`“”‘’[]*~()")
    return text if _LABEL_SHAPE.fullmatch(text) else ""


def written_name(text: str, masked: str, start: int, end: int) -> tuple[int, int, str]:
    r"""A name found at ``masked[start:end]``, widened to the whole word it is part of in ``text``
    when markup is glued to it ("M$^2$D-LIF" found as "D-LIF"), and its label without markup.

    >>> t = r"we propose M$^2$D-LIF, a model"
    >>> written_name(t, mask(t), 16, 21)
    (11, 21, 'M2D-LIF')
    """
    label = masked[start:end]
    if text[start:end] == label and not _glued(text, start, end):
        return start, end, label
    s, e = start, end
    while s > 0 and not text[s - 1].isspace() and text[s - 1] not in "(":
        s -= 1
    while e < len(text) and not text[e].isspace() and text[e] not in ",;)":
        e += 1
    cleaned = clean_label(text[s:e])
    if not cleaned:
        return start, end, ""
    lead = text[s:e].find(cleaned[:1]) if cleaned else 0
    return s + max(lead, 0), e, cleaned


def _glued(text: str, start: int, end: int) -> bool:
    r"""Whether markup touches a name in the original text ("M$^2$D", "\'ezier")."""
    return (start > 0 and text[start - 1] in "$^_{}\\") or (end < len(text) and text[end] in "$^_{}\\")


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


PAREN = re.compile(r"\(([^()\n]{1,120})\)")
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


_SMALL = frozenset({"of", "and", "for", "the", "a", "an", "in", "on", "with", "to", "via", "by", "from"})
_TOKEN = re.compile(r"[A-Za-z0-9]+")


def initials_start(short: str, long: str) -> int:
    """Where a long form starts whose words' initials spell the short form's capitals ("Correlation-
    Aware Covariance Weighting (CACW)", where Schwartz & Hearst take "Covariance Weighting"), or -1.

    >>> text = "we propose Correlation-Aware Covariance Weighting"
    >>> text[initials_start("CACW", text):]
    'Correlation-Aware Covariance Weighting'
    """
    target = [c.lower() for c in short if c.isupper()]
    if len(target) < 2 or any(c.isdigit() for c in short):
        return -1
    tokens = [m for m in _TOKEN.finditer(long) if m.group().lower() not in _SMALL]
    if len(tokens) < len(target):
        return -1
    tail = tokens[len(tokens) - len(target) :]
    if [m.group()[0].lower() for m in tail] != target:
        return -1
    return tail[0].start()


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
        pos = initials_start(inner, long_region)
        if pos < 0:
            pos = _sh_match(inner, long_region)
        if pos < 0:
            continue
        # "Test-Time Adaptation (TTA)": a long form starts at the start of a hyphenated word, not inside
        while pos > 0 and long_region[pos - 1] in "-‐–" and pos >= 2 and long_region[pos - 2].isalnum():
            pos -= 1
            while pos > 0 and not long_region[pos - 1].isspace():
                pos -= 1
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
