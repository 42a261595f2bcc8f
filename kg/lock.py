"""One writer at a time per build folder: the lock ``kg build`` holds on ``OUT`` while it reads and
replaces what is there, and that ``kg export``, ``kg site``, ``kg viz`` and ``kg plot`` take (shared)
while they write into it.

Two builds into one folder would each check the folder, then commit their own store, manifest and
ledger over the other's (a delta copies ``store/`` long after it checked it): the folder could end
up holding one build's store under the other's manifest.  So a build holds the folder's lock
exclusively for its whole run, and a second command that would write into ``OUT`` meanwhile is
refused at once with ``folder-busy`` (exit 1), naming the process that holds it; it writes nothing.
Commands that only write their own file inside ``OUT`` (an export, the site, a view page, a figure)
hold the lock shared: they run side by side, but not beside a build.

The lock is the kernel's ``flock`` on the folder itself: nothing is written to take it, a refused
command leaves the folder byte for byte as it was, and a process that dies, even killed with
SIGKILL, releases it, so a killed build never leaves the folder locked and no stale lock needs
breaking.  Processes forked while the lock is held (extraction workers) close their copy at once:
one that outlived a killed build would otherwise keep the folder locked.  Where a folder cannot be
locked (a file system without ``flock``, a system without ``fcntl``) the command runs unlocked, as
it did before.  See docs/builds.md.
"""

from __future__ import annotations

import contextlib
import errno
import os
import threading
from collections.abc import Iterator
from pathlib import Path

from kg.errors import KgError, escaped
from kg.records import Location

_held: set[int] = set()
"""The descriptors of the locks this process holds (closed in forked children)."""
_guard = threading.Lock()


def _close_in_child() -> None:
    # close, never unlock: the lock belongs to the parent's open file, which this copy shares
    for fd in list(_held):
        with contextlib.suppress(OSError):
            os.close(fd)
    _held.clear()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_close_in_child)


@contextlib.contextmanager
def held(folder: Path, what: str, *, shared: bool = False) -> Iterator[None]:
    """Hold the lock of build folder ``folder`` (which exists) while the block runs; ``what`` names
    the command (``kg build``).

    Raises :class:`~kg.errors.KgError` (``folder-busy``) when another process, or another holder in
    this one, holds it in a mode that conflicts (exclusive against anything, shared against an
    exclusive holder).
    """
    try:
        import fcntl
    except ImportError:  # no flock here (Windows): nothing to lock with
        yield
        return
    try:
        fd = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | getattr(os, "O_CLOEXEC", 0))
    except OSError:
        yield  # not a folder we can open: the command's own reading or writing says why
        return
    try:
        fcntl.flock(fd, (fcntl.LOCK_SH if shared else fcntl.LOCK_EX) | fcntl.LOCK_NB)
    except OSError as e:
        holder = _holder(fd)
        os.close(fd)
        if e.errno in (errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES):
            shown = _shown(folder)
            raise KgError(
                f"{shown} is in use by {holder}; {what} wrote nothing (expected one command at a time "
                "writing a build folder: run it again when that one ends, or choose another folder)",
                Location(shown, 0),
                code="folder-busy",
            ) from None
        yield  # a file system without flock (ENOLCK, EOPNOTSUPP)
        return
    with _guard:
        _held.add(fd)
    try:
        yield
    finally:
        with _guard:
            _held.discard(fd)
        with contextlib.suppress(OSError):
            fcntl.flock(fd, fcntl.LOCK_UN)
        os.close(fd)


@contextlib.contextmanager
def writing_into(folder: Path, target: Path, what: str) -> Iterator[None]:
    """Hold ``folder``'s lock shared while the block writes ``target``, when ``target`` lies inside
    ``folder`` (an export to elsewhere locks nothing: it changes nothing a build reads or writes)."""
    if _inside(target, folder):
        with held(folder, what, shared=True):
            yield
    else:
        yield


def _inside(target: Path, folder: Path) -> bool:
    try:
        target.resolve().relative_to(folder.resolve())
    except (ValueError, OSError, RuntimeError):
        return False
    return True


def _holder(fd: int) -> str:
    """Who holds the lock on the folder open as ``fd``: the processes ``/proc/locks`` names (Linux),
    each with its command line; else "another kg command"."""
    try:
        st = os.fstat(fd)
        node = f"{os.major(st.st_dev):02x}:{os.minor(st.st_dev):02x}:{st.st_ino}"
        with open("/proc/locks", encoding="ascii", errors="replace") as f:
            pids = sorted({int(p[4]) for line in f if len(p := line.split()) > 5 and p[1] == "FLOCK" and p[5] == node})
    except (OSError, ValueError):
        pids = []
    named = [f"{_command(pid)} (process {pid})" for pid in pids if pid != os.getpid()]
    if any(pid == os.getpid() for pid in pids):
        named.append(f"this process (process {os.getpid()})")
    return ", ".join(named) or "another kg command"


def _command(pid: int) -> str:
    """What process ``pid`` runs: ``kg build`` for a kg command, else its program's name.

    >>> _command(os.getpid()) != ""
    True
    """
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            argv = [a.decode(errors="replace") for a in f.read(4096).split(b"\0") if a]
    except OSError:
        return "a process"
    if not argv:
        return "a process"
    names = [os.path.basename(a) for a in argv]
    if names[1:3] == ["-m", "kg"]:  # python -m kg build ...
        rest = argv[3:]
    elif names[1:2] == ["kg"]:  # python .../bin/kg build ... (the installed script)
        rest = argv[2:]
    elif names[0] == "kg":
        rest = argv[1:]
    else:
        return escaped(names[0])
    return escaped(" ".join(["kg", *rest[:1]]))


def _shown(folder: Path) -> str:
    from kg.readers.discover import shown_path

    return shown_path(folder)
