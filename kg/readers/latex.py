"""LaTeX accents, escapes and grouping braces in names and titles, decoded into Unicode.

BibTeX files and arXiv's own author strings write ``G\\"unnemann`` and
``{\\'E}cole``; the graph stores ``Günnemann`` and ``École``.  Math between
``$`` signs is left as written (``$\\alpha$`` stays), so a title keeps its
formulas; outside math, grouping braces are removed (``{LoRA}`` is ``LoRA``).

>>> to_unicode(r'M{\\"u}ller and G\\"unnemann, {\\v{S}}koda, Bj{\\o}rn, {LoRA}: $\\alpha$-nets')
'Müller and Günnemann, Škoda, Bjørn, LoRA: $\\\\alpha$-nets'
"""

from __future__ import annotations

import re
import unicodedata

_ACCENTS = {
    '"': "\u0308",
    "'": "\u0301",
    "`": "\u0300",
    "^": "\u0302",
    "~": "\u0303",
    "=": "\u0304",
    ".": "\u0307",
    "u": "\u0306",
    "v": "\u030c",
    "H": "\u030b",
    "c": "\u0327",
    "k": "\u0328",
    "r": "\u030a",
    "d": "\u0323",
    "b": "\u0331",
}
_SYMBOLS = {
    "ss": "ß",
    "o": "ø",
    "O": "Ø",
    "aa": "å",
    "AA": "Å",
    "ae": "æ",
    "AE": "Æ",
    "oe": "œ",
    "OE": "Œ",
    "l": "ł",
    "L": "Ł",
    "i": "ı",
    "j": "ȷ",
    "dh": "ð",
    "DH": "Ð",
    "th": "þ",
    "TH": "Þ",
    "ng": "ŋ",
    "NG": "Ŋ",
    "textendash": "–",
    "textemdash": "—",
    "textquoteright": "’",
    "textquoteleft": "‘",
    "LaTeX": "LaTeX",
    "TeX": "TeX",
}
# commands that only format their argument: the argument is the text
_FORMATTING = re.compile(
    r"\\(?:emph|textit|textbf|textsc|texttt|textrm|textsf|textup|textnormal|mbox|url|href|mathrm|text)\s*(?=\{)"
)
# \href{URL}{text}, and the same with the URL's braces lost in an export (\hrefhttps://...{text}):
# the URL, then a space, then the text (else "https://github.com/a/b{link 1}" reads as ".../blink 1")
_HREF = re.compile(r"\\href\s*(?:\{([^{}\s]*)\}|(https?://[^\s{}]+))\s*(?=\{)")
# \"u, \"{u}, \'{\i}, \v{S}, \c c: a base letter (or dotless \i, \j) taking an accent
_BASE = r"(?:\\[ij](?![A-Za-z])|[A-Za-z])"
_SYMBOL_ACCENT = re.compile(r"""\\(["'`^~=.])\s*(?:\{\s*(""" + _BASE + r""")\s*\}|(""" + _BASE + r"""))""")
_LETTER_ACCENT = re.compile(r"\\([uvHckrdb])(?:\s*\{\s*(" + _BASE + r")\s*\}|\s+(" + _BASE + r"))")
_CONTROL_WORD = re.compile(r"\\([A-Za-z]+)(?![A-Za-z])\s*(?:\{\})?")
_ESCAPE = re.compile(r"\\([&%$_#{}])")
_MATH = re.compile(r"(?<!\\)\$[^$]*(?<!\\)\$")
_OPEN, _CLOSE = "\ue000", "\ue001"  # escaped braces, kept while grouping braces go


def _base(letter: str) -> str:
    return {"\\i": "i", "\\j": "j"}.get(letter, letter)


def _accent(match: re.Match[str]) -> str:
    return _base(match.group(2) or match.group(3)) + _ACCENTS[match.group(1)]


def _word(match: re.Match[str]) -> str:
    name = match.group(1)
    return _SYMBOLS.get(name, match.group(0))


def _text_part(text: str) -> str:
    text = _ESCAPE.sub(lambda m: {"{": _OPEN, "}": _CLOSE}.get(m.group(1), m.group(1)), text)
    text = _HREF.sub(lambda m: (m.group(1) or m.group(2)) + " ", text)
    text = _FORMATTING.sub("", text)
    text = _SYMBOL_ACCENT.sub(_accent, text)
    text = _LETTER_ACCENT.sub(_accent, text)
    text = _CONTROL_WORD.sub(_word, text)
    text = text.replace("\\\\", " ").replace("~", "\u00a0").replace("{", "").replace("}", "")
    return text.replace(_OPEN, "{").replace(_CLOSE, "}")


def to_unicode(text: str) -> str:
    """``text`` with LaTeX accents, escapes and grouping braces decoded (math left alone), NFC.

    >>> to_unicode(r"Fran\\c{c}ois Lef{\\`e}vre \\& P. Erd\\H{o}s")
    'François Lefèvre & P. Erdős'
    >>> to_unicode(r"Ji\\v r\\'{\\i} Matou\\v sek")
    'Jiří Matoušek'
    >>> to_unicode(r"code: \\href{https://github.com/a/b}{link 1}, \\hrefhttps://github.com/c/d{here}")
    'code: https://github.com/a/b link 1, https://github.com/c/d here'
    >>> to_unicode("plain text stays")
    'plain text stays'
    """
    if "\\" not in text and "{" not in text and "~" not in text:
        return unicodedata.normalize("NFC", text)
    parts: list[str] = []
    pos = 0
    for math in _MATH.finditer(text):
        parts.append(_text_part(text[pos : math.start()]))
        parts.append(math.group(0))
        pos = math.end()
    parts.append(_text_part(text[pos:]))
    return unicodedata.normalize("NFC", "".join(parts)).replace("\u00a0", " ")
