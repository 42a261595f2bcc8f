"""Decoding input files into lines safely: empty, binary, non-UTF-8 and huge inputs.

Readers never open files themselves; they get a :class:`TextFile` whose
:meth:`~TextFile.lines` yields ``(line_number, text)`` with line ends, a
UTF-8 byte order mark and control characters removed.
"""

from __future__ import annotations

import gzip
import os
import re
import stat
import unicodedata
import zlib
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO, cast

from kg.errors import IssueLog, KgError
from kg.records import Location

SNIFF_BYTES = 64 * 1024
"""How much of a file format detection looks at."""

MAX_LINE_BYTES = 8 * 1024 * 1024
"""Longer lines are cut here (with a warning): a page line is a title or an abstract."""

GZIP_MAGIC = b"\x1f\x8b"
"""Gzip-compressed inputs (``.jsonl.gz``, ``.xml.gz``, ``.bib.gz``) are known by these first bytes, not by name."""

MAX_NUL_SHARE = 0.01
"""A text with NUL bytes is binary when more than 4 and this share of its first bytes are NULs
(UTF-16 text without a byte order mark is half NULs; a scraped page has one or two stray ones)."""

_MAGIC = (
    (b"%PDF-", "a PDF document"),
    (b"PK\x03\x04", "a ZIP archive (or a Word, Excel or EPUB file)"),
    (b"\x89PNG\r\n", "a PNG image"),
    (b"\xff\xd8\xff", "a JPEG image"),
    (b"GIF8", "a GIF image"),
    (b"BZh", "bzip2-compressed (only gzip is read)"),
    (b"\xfd7zXZ\x00", "xz-compressed (only gzip is read)"),
    (b"\x28\xb5\x2f\xfd", "zstd-compressed (only gzip is read)"),
    (b"SQLite format 3\x00", "an SQLite database"),
)
"""What a binary file is, by its first bytes: named in the message instead of a decoding error."""

MAX_BAD_SHARE = 0.2
"""A file is not UTF-8 text at all when more than this share of its first bytes do not decode (text in
another encoding that is mostly not ASCII, or binary without NULs); fewer are damage, each costing a
``bad-utf8`` warning and the bytes (Latin-1 text in a Western language has a few per cent)."""

_DAMAGED_GZIP = (OSError, EOFError, zlib.error)


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
    if _UNSAFE.search(text) is not None:  # rare: a table lookup for every character costs far more than the search
        text = text.translate(_CONTROL_TABLE).translate(_BIDI)
    return unicodedata.normalize("NFC", text).strip()


@dataclass(frozen=True, slots=True)
class TextFile:
    """An input file that decoded: its shown path, its first characters, and its lines."""

    path: Path
    name: str
    head: str
    log: IssueLog
    gzipped: bool = False
    """The file is gzip-compressed: its lines are those of the decompressed text."""

    def open(self) -> BinaryIO:
        """The file's bytes (decompressed when it is gzip-compressed)."""
        return cast(BinaryIO, gzip.open(self.path, "rb")) if self.gzipped else self.path.open("rb")

    def lines(self) -> Iterator[tuple[int, str]]:
        """``(line_number, line)`` pairs, streamed; undecodable or huge lines are reported."""
        with self.open() as f:
            number = 0
            while True:
                try:
                    raw = f.readline(MAX_LINE_BYTES + 1)
                except _DAMAGED_GZIP as e:
                    self.log.error(
                        Location(self.name, number + 1),
                        "bad-gzip",
                        f"compressed data is damaged after line {number} ({_gzip_reason(e)}); the rest was "
                        "not read (expected a complete gzip file)",
                    )
                    return
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
                    nuls = line.count("\x00")
                    self.log.warn(
                        Location(self.name, number),
                        "control-characters",
                        f"{nuls} NUL byte(s) removed from line (expected printable text)"
                        if nuls and not _HAS_CONTROL.search(line.replace("\x00", ""))
                        else "control characters removed from line (expected printable text)",
                    )
                    # scraped pages carry stray NULs: removed here, so a JSON line with one still parses
                    line = line.replace("\x00", "")
                yield number, line


def open_text(path: Path, name: str, log: IssueLog) -> TextFile | None:
    """Check that a file can be read as UTF-8 text (gzip-compressed or not); report why not otherwise.

    Returns None exactly when an error was reported for the file.
    """
    at = Location(name, 1)
    gzipped = False
    try:
        with path.open("rb") as f:
            head = f.read(SNIFF_BYTES)
            if not head.startswith(GZIP_MAGIC):
                head = _past_blank(f, head)
        if head.startswith(GZIP_MAGIC):
            gzipped = True
            with gzip.open(path, "rb") as z:
                head = _past_blank(cast(BinaryIO, z), z.read(SNIFF_BYTES))
    except _DAMAGED_GZIP as e:
        if not gzipped or isinstance(e, PermissionError):
            log.error(at, "unreadable-file", f"cannot read file: {getattr(e, 'strerror', None) or e}")
        else:
            log.error(at, "bad-gzip", f"gzip file is damaged ({_gzip_reason(e)}; expected a complete gzip file)")
        return None
    packed = "gzip-compressed file" if gzipped else "file"
    if not head.strip():
        what = "empty" if not head else "whitespace only"
        log.error(at, "empty-file", f"{packed} is {what} (expected a paper listing)")
        return None
    if head.startswith((b"\xff\xfe", b"\xfe\xff")):
        log.error(at, "not-utf8", f"{packed} is UTF-16 (expected UTF-8); re-save it as UTF-8")
        return None
    for magic, what in _MAGIC:
        if head.startswith(magic):
            log.error(
                at,
                "unknown-format",
                f"{packed} is {what}, not text (expected a listing saved as text, or a format of 'kg list readers')",
            )
            return None
    nuls = head.count(b"\x00")
    if nuls:
        rest = head.replace(b"\x00", b"")
        if nuls > 4 + MAX_NUL_SHARE * len(head) or not _is_utf8(rest):
            log.error(at, "binary-file", f"{packed} is binary, has {nuls} NUL bytes (expected UTF-8 text)")
            return None
        head = rest  # a few stray NULs in text: each line's are removed, with a warning, as it is read
    text = head.decode("utf-8", errors="replace")
    bad = text.count("\ufffd") - head.count("\ufffd".encode())
    if bad > MAX_BAD_SHARE * len(head):
        first = _first_bad_byte(head)
        log.error(
            Location(name, head.count(b"\n", 0, first) + 1),
            "not-utf8",
            f"{packed} is not UTF-8 text: byte {head[first]:#04x} and {bad - 1} more of its first {len(head)} bytes "
            "are not UTF-8 (expected UTF-8 text; another encoding, or binary?)",
        )
        return None
    # a few bytes that are not UTF-8 cost a warning on their line as it is read (TextFile.lines), not the file
    return TextFile(path, name, text.lstrip("\ufeff"), log, gzipped)


_BLANK = b" \t\r\n\x0b\x0c"
_BOM = b"\xef\xbb\xbf"


def _past_blank(f: BinaryIO, head: bytes) -> bytes:
    """The sniff window of a file: its first :data:`SNIFF_BYTES`, or, when those are all blank, the
    :data:`SNIFF_BYTES` from its first other byte on (format detection looks at content; the lines
    keep their numbers, being read from the start).  Blank space is read past in chunks, so a file
    of gigabytes of it costs time in proportion, never memory."""
    if head.startswith(_BOM):
        head = head[len(_BOM) :]
    if head.strip(_BLANK) or len(head) < SNIFF_BYTES - len(_BOM):
        return head
    while True:
        chunk = f.read(SNIFF_BYTES)
        if not chunk:
            return head  # blank to the end: "whitespace only"
        rest = chunk.lstrip(_BLANK)
        if rest:
            return rest + f.read(SNIFF_BYTES - len(rest)) if len(rest) < SNIFF_BYTES else rest


def read_side_file(path: Path, limit: int, what: str, shown: str | None = None) -> bytes:
    """The bytes of a file given beside the inputs (a thesaurus, a query file): a regular file of at
    most ``limit`` bytes, read in bounded time and memory.

    A FIFO would block the read for ever and ``/dev/zero`` never ends, so anything but a regular
    file is refused without reading from it (opened non-blocking, then looked at); a file over
    ``limit``, or one that grows past it while read, is refused too.  Raises
    :class:`~kg.errors.KgError`: ``not-a-file``, ``file-too-large`` or ``unreadable-file``.
    """
    at = Location(shown if shown is not None else str(path), 0)
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    except OSError as e:
        raise KgError(f"cannot read {what}: {e.strerror or e}", at, "unreadable-file") from e
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            kind = "a folder" if stat.S_ISDIR(st.st_mode) else "a FIFO, device or socket"
            raise KgError(f"{what} is {kind}, not a regular file (expected a text file)", at, "not-a-file")
        if st.st_size > limit:
            raise KgError(f"{what} has {st.st_size:,} bytes (expected at most {limit:,})", at, "file-too-large")
        with os.fdopen(os.dup(fd), "rb") as f:
            data = f.read(limit + 1)
    except OSError as e:
        raise KgError(f"cannot read {what}: {e.strerror or e}", at, "unreadable-file") from e
    finally:
        os.close(fd)
    if len(data) > limit:
        raise KgError(f"{what} grew past {limit:,} bytes while read (expected at most {limit:,})", at, "file-too-large")
    return data


def _gzip_reason(e: BaseException) -> str:
    return str(e) or type(e).__name__


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
