"""Problems found while building, and the one log every stage reports to.

Two severities: a *warning* skips one record or field and the build goes on;
an *error* makes a whole file unusable, the build goes on with the next file
and exits 1 at the end.  Every issue prints like a compiler message::

    seeds/x.txt:12: warning: record has no abstract (expected a paragraph after the title) [missing-abstract]

>>> log = IssueLog()
>>> log.warn(Location("a.txt", 3), "empty-authors", "author list is empty")
>>> print(log.issues[0])
a.txt:3: warning: author list is empty [empty-authors]
>>> log.counts()
{'empty-authors': 1}
"""

from __future__ import annotations

import difflib
import errno
import os
import re
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Literal

from kg.records import Location, pickled_by_fields

Severity = Literal["warning", "error"]
_CODE = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")


class KgError(Exception):
    """An error that stops the work it happened in; carries a location when it has one."""

    def __init__(self, message: str, at: Location | None = None, code: str = "error") -> None:
        super().__init__(message)
        self.message = message
        self.at = at
        self.code = code

    def __str__(self) -> str:
        where = f"{shown_at(self.at)}: " if self.at else ""
        return f"{where}error: {escaped(self.message)} [{self.code}]"

    def __reduce__(self) -> tuple[type[KgError], tuple[str, Location | None, str]]:
        # whole from a worker process (the default would pickle the message alone)
        return type(self), (self.message, self.at, self.code)


class UsageError(KgError):
    """The command was asked for something it cannot do (exit code 2)."""


_SYSTEM_ERRORS = tuple(
    os.strerror(code)
    for code in (errno.ENOSPC, errno.EDQUOT, errno.EROFS, errno.EACCES, errno.EPERM, errno.ENOTDIR, errno.EIO)
)
"""Messages of the system errors writing can meet (the store's I/O errors quote them in longer text)."""


def os_message(e: OSError) -> str:
    """What went wrong in an ``OSError``, in a few words: its ``strerror``, or (for the store's
    I/O errors, which carry none) the system error its message names, else its first line.

    >>> os_message(OSError(28, "No space left on device"))
    'No space left on device'
    >>> os_message(OSError("IO error: No space left on device: While appending to file: /o/1.sst: No space left on device"))
    'No space left on device'
    """
    if e.strerror:
        return e.strerror
    text = str(e)
    for known in _SYSTEM_ERRORS:
        if known in text:
            return known
    return _one_line(text, 200)


@pickled_by_fields
@dataclass(frozen=True, slots=True)
class Issue:
    """One problem, printed as ``path:line: severity: message [code]``."""

    at: Location
    severity: Severity
    code: str
    message: str

    def __str__(self) -> str:
        return f"{shown_at(self.at)}: {self.severity}: {self.message} [{self.code}]"


class IssueLog:
    """Collects issues from every stage; optionally echoes each as it arrives."""

    def __init__(self, echo: Callable[[Issue], None] | None = None) -> None:
        self.issues: list[Issue] = []
        self._echo = echo

    def report(self, at: Location, severity: Severity, code: str, message: str) -> None:
        """Record one issue; ``code`` is a stable kebab-case word."""
        if not _CODE.match(code):
            raise ValueError(f"issue code must be kebab-case: {code!r}")
        issue = Issue(at, severity, code, _one_line(message))
        self.issues.append(issue)
        if self._echo is not None:
            self._echo(issue)

    def warn(self, at: Location, code: str, message: str) -> None:
        """A record or field was skipped; the build goes on."""
        self.report(at, "warning", code, message)

    def error(self, at: Location, code: str, message: str) -> None:
        """A whole file was unusable; the build goes on and exits 1."""
        self.report(at, "error", code, message)

    @property
    def has_errors(self) -> bool:
        return any(i.severity == "error" for i in self.issues)

    @property
    def failed_files(self) -> list[str]:
        """Paths of files with at least one error, sorted."""
        return sorted({i.at.path for i in self.issues if i.severity == "error"})

    def counts(self) -> dict[str, int]:
        """Number of issues per code, sorted by code."""
        return dict(sorted(Counter(i.code for i in self.issues).items()))


_UNSAFE = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069\ud800-\udfff]")
"""What a path must not carry into a message: control characters (a newline would start a forged
issue line, an escape sequence would drive the terminal), line and paragraph separators, bidi
overrides, and the lone surrogates that stand for bytes that are not UTF-8 in a file name."""
_ESCAPES = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}


def escaped(text: str) -> str:
    """``text`` with what :data:`_UNSAFE` matches written as Python escapes (a byte that is not UTF-8,
    which Python keeps in a file name as a lone surrogate, as ``\\xff``); the rest as it was.

    >>> print(escaped("evil\\nx.txt:1: error: forged [x]"), escaped(b"caf\\xe9.txt".decode(errors="surrogateescape")))
    evil\\nx.txt:1: error: forged [x] caf\\xe9.txt
    """
    if _UNSAFE.search(text) is None:
        return text
    return _UNSAFE.sub(lambda m: _escape(m.group()), text)


def _escape(char: str) -> str:
    code = ord(char)
    if char in _ESCAPES:
        return _ESCAPES[char]
    if 0xDC80 <= code <= 0xDCFF:  # surrogateescape: the byte itself
        return f"\\x{code - 0xDC00:02x}"
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def escaped_path(path: str) -> str:
    """A path as an issue line may hold it: :func:`escaped`, and a colon and space in it written
    ``:\\x20``, so that the first ``: `` of the line ends its location (a file named
    ``x.txt:1: error: forged`` cannot pass for another issue's).

    >>> print(escaped_path("in/x.txt:1: error: forged [fake]"))
    in/x.txt:1:\\x20error:\\x20forged [fake]
    """
    return escaped(path).replace(": ", ":\\x20")


def shown_at(at: Location) -> str:
    """A location as messages print it, its path :func:`escaped_path` (a path from anywhere: the
    command line, a folder listing)."""
    return f"{escaped_path(at.path)}:{at.line}"


def unknown(kind: str, name: str, choices: Iterable[str]) -> str:
    """The message for a name that is none of ``choices``: the nearest one first, then them all.

    >>> unknown("query", "top-author", ["coauthors", "summary", "top-authors"])
    "unknown query 'top-author'; did you mean top-authors? choose from: coauthors, summary, top-authors"
    >>> unknown("format", "xlsx", ["csv", "json"])
    "unknown format 'xlsx'; choose from: csv, json"
    """
    options = list(choices)
    near = difflib.get_close_matches(name, options, n=1, cutoff=0.6)
    if not near:  # "TOP-AUTHORS", "Top_Authors": the same name in another case or spelling of '-'
        folded = {o.casefold().replace("_", "-"): o for o in options}
        near = [folded[k] for k in (name.casefold().replace("_", "-"),) if k in folded]
    hint = f"; did you mean {near[0]}?" if near else ";"
    return f"unknown {kind} {name!r}{hint} choose from: {', '.join(options)}"


def _one_line(message: str, limit: int = 300) -> str:
    """Messages quote page text: keep them on one line and bounded."""
    flat = " ".join(message.split())
    if not flat.isprintable():  # checked whole first: a character at a time is far slower
        flat = "".join(ch if ch.isprintable() else "\ufffd" for ch in flat)
    return flat if len(flat) <= limit else flat[: limit - 1] + "\u2026"
