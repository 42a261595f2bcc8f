"""Decoding input files into lines safely: empty, binary, non-UTF-8 and huge inputs.

Readers never open files themselves; they get a :class:`TextFile` whose
:meth:`~TextFile.lines` yields ``(line_number, text)`` with line ends, a
UTF-8 byte order mark and control characters removed.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from kg.errors import IssueLog
from kg.records import Location

SNIFF_BYTES = 64 * 1024
"""How much of a file format detection looks at."""

MAX_LINE_BYTES = 8 * 1024 * 1024
"""Longer lines are cut here (with a warning): a page line is a title or an abstract."""


def _any_of(codes: Iterable[int]) -> re.Pattern[str]:
    """A pattern that finds any one of the characters ``codes``."""
    return re.compile("[" + "".join(re.escape(chr(c)) for c in sorted(codes)) + "]")


_CONTROL = {c for c in range(32) if c not in (9,)} | {0x7F}
_CONTROL_TABLE = dict.fromkeys(_CONTROL, None)
_HAS_CONTROL = _any_of(_CONTROL)
# bidirectional overrides and isolates can make a name display as something else
_BIDI = dict.fromkeys([0x202A, 0x202B, 0x202C, 0x202D, 0x202E, 0x2066, 0x2067, 0x2068, 0x2069], None)
_UNSAFE = _any_of(_CONTROL | set(_BIDI))
"""Any character of ``_CONTROL_TABLE`` or ``_BIDI``: ``clean`` translates only text it finds one in."""


def clean(text: str) -> str:
    """Text as written, made safe to store: NFC, no control or bidi-override characters, trimmed.

    >>> clean("  Zo\\u0065\\u0308 \\u202eevil\\x00 ")
    'Zoë evil'
    """
    if _UNSAFE.search(text) is not None:  # rare: a table lookup for every character costs 20 µs an abstract
        text = text.translate(_CONTROL_TABLE).translate(_BIDI)
    return unicodedata.normalize("NFC", text).strip()


@dataclass(frozen=True, slots=True)
class TextFile:
    """An input file that decoded: its shown path, its first characters, and its lines."""

    path: Path
    name: str
    head: str
    log: IssueLog

    def lines(self) -> Iterator[tuple[int, str]]:
        """``(line_number, line)`` pairs, streamed; undecodable or huge lines are reported."""
        with self.path.open("rb") as f:
            number = 0
            while True:
                raw = f.readline(MAX_LINE_BYTES + 1)
                if not raw:
                    return
                number += 1
                if len(raw) > MAX_LINE_BYTES and not raw.endswith(b"\n"):
                    self.log.warn(
                        Location(self.name, number),
                        "line-too-long",
                        f"line longer than {MAX_LINE_BYTES} bytes was cut there (expected a page line)",
                    )
                    while raw and not raw.endswith(b"\n"):  # skip the rest of the line
                        rest = f.readline(MAX_LINE_BYTES)
                        if not rest:
                            break
                        raw = rest
                    raw = b""
                if number == 1 and raw.startswith(b"\xef\xbb\xbf"):
                    raw = raw[3:]
                try:
                    line = raw.decode("utf-8")
                except UnicodeDecodeError as e:
                    line = raw.decode("utf-8", errors="replace")
                    self.log.warn(
                        Location(self.name, number),
                        "bad-utf8",
                        f"byte {raw[e.start]:#04x} at column {e.start + 1} is not UTF-8; replaced with U+FFFD",
                    )
                line = line.rstrip("\r\n")
                if _HAS_CONTROL.search(line):
                    self.log.warn(
                        Location(self.name, number),
                        "control-characters",
                        "control characters removed from line (expected printable text)",
                    )
                yield number, line


def open_text(path: Path, name: str, log: IssueLog) -> TextFile | None:
    """Check that a file can be read as UTF-8 text; report why not otherwise.

    Returns None exactly when an error was reported for the file.
    """
    at = Location(name, 1)
    try:
        with path.open("rb") as f:
            head = f.read(SNIFF_BYTES)
    except OSError as e:
        log.error(at, "unreadable-file", f"cannot read file: {e.strerror or e}")
        return None
    if not head.strip():
        what = "empty" if not head else "whitespace only"
        log.error(at, "empty-file", f"file is {what} (expected a paper listing)")
        return None
    if head.startswith((b"\xff\xfe", b"\xfe\xff")):
        log.error(at, "not-utf8", "file is UTF-16 (expected UTF-8); re-save it as UTF-8")
        return None
    if b"\x00" in head:
        log.error(at, "binary-file", "file is binary, has NUL bytes (expected UTF-8 text)")
        return None
    text = head.decode("utf-8", errors="ignore") if _is_utf8(head) else None
    if text is None:
        bad = _first_bad_byte(head)
        line = head.count(b"\n", 0, bad) + 1
        log.error(
            Location(name, line),
            "not-utf8",
            f"byte {head[bad]:#04x} is not UTF-8 (expected UTF-8 text; Latin-1 or Windows-1252?)",
        )
        return None
    return TextFile(path, name, text.lstrip("\ufeff"), log)


def _is_utf8(head: bytes) -> bool:
    try:
        head.decode("utf-8")
    except UnicodeDecodeError as e:
        # a sniff window may end inside a multi-byte character
        return e.start >= len(head) - 3 and e.reason == "unexpected end of data"
    return True


def _first_bad_byte(head: bytes) -> int:
    try:
        head.decode("utf-8")
    except UnicodeDecodeError as e:
        return e.start
    return 0
