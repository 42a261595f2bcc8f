"""Files that appear complete or not at all: the write primitives every module that writes uses.

A file is written to a temporary file beside its target (``.NAME.PID-TAG.tmp``), synced, and renamed
over the target (:func:`atomic`, :func:`write_atomically`); a folder is staged beside its target and
exchanged with it in one step where the kernel can (:func:`replace_folder`, :func:`staged_folder`).
What a killed writer left behind is swept by the next (:func:`sweep`).  This module imports nothing
of kg but its errors, so the store, the build folder, the exporters and the views can all use it.
"""

from __future__ import annotations

import ctypes
import errno
import hashlib
import os
import re
import shutil
import sys
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, BinaryIO, cast

from kg.errors import KgError, os_message


@contextmanager
def atomic(target: Path) -> Iterator[BinaryIO]:
    """A binary file that appears at ``target`` complete or not at all (temp file + ``os.replace``)."""
    make_parent(target)
    fd, tmp = tempfile.mkstemp(prefix=temp_prefix(target.name), suffix=TEMP_SUFFIX, dir=target.parent)
    try:
        os.chmod(tmp, 0o666 & ~umask())
        with os.fdopen(fd, "wb") as f:
            yield f
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def write_bytes(target: Path, data: bytes) -> Path:
    """Write ``data`` to ``target`` atomically."""
    return write_atomically(target, lambda f: f.write(data))


def write_atomically(target: Path, write: Callable[[BinaryIO], object]) -> Path:
    """Write ``target`` with ``write(f)``; an OSError becomes a KgError naming the file."""
    try:
        with atomic(target) as f:
            write(f)
    except OSError as e:
        raise KgError(f"cannot write {target}: {os_message(e)}", code="write-failed") from e
    return target


# --- several files put in place together (kg build's outputs) and leftovers of killed writers ----------

TEMP_SUFFIX = ".tmp"
_LEFTOVER = re.compile(r"\.(?P<name>.+)\.(?P<pid>[0-9]+)-(?P<tag>[a-z0-9_]*)\.tmp")
"""A temporary file or folder of kg's: ``.NAME.PID-RANDOM.tmp`` beside ``NAME``, made by process ``PID``."""


def temp_prefix(name: str) -> str:
    """How the temporary files of ``name`` written by this process start (hidden, and naming the writer).

    A process killed while writing leaves such files behind; :func:`sweep` removes them later.
    """
    return f".{name}.{os.getpid()}-"


def make_parent(target: Path) -> None:
    """Create the folders ``target`` goes in; a file in the way is "Not a directory", not "File exists"."""
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
    except FileExistsError as e:
        raise NotADirectoryError(errno.ENOTDIR, os.strerror(errno.ENOTDIR), e.filename) from e


@dataclass(frozen=True, slots=True)
class Staged:
    """A complete, synced temporary file waiting to be renamed over ``target`` (see :func:`stage`)."""

    temp: Path
    target: Path
    sha256: str
    """SHA-256 of the content (for graph.ttl: the build's generation)."""


class Hashing:
    """A writer that hashes what passes through it (``digest``, a ``hashlib.sha256``)."""

    def __init__(self, out: BinaryIO) -> None:
        self._out = out
        self.digest = hashlib.sha256()

    def write(self, data: bytes) -> int:
        self.digest.update(data)
        return self._out.write(data)

    def flush(self) -> None:
        self._out.flush()


def stage(target: Path, write: Callable[[BinaryIO], object]) -> Staged:
    """Write what ``write(f)`` writes to a temporary file beside ``target``, synced, but not in place yet.

    :func:`commit` renames it over ``target``, :func:`discard` removes it.  An OSError becomes a
    KgError naming ``target``, and no temporary file is left.
    """
    tmp: str | None = None
    try:
        make_parent(target)
        fd, tmp = tempfile.mkstemp(prefix=temp_prefix(target.name), suffix=TEMP_SUFFIX, dir=target.parent)
        os.chmod(tmp, 0o666 & ~umask())
        with os.fdopen(fd, "wb") as f:
            hashing = Hashing(f)
            write(cast(BinaryIO, hashing))
            f.flush()
            os.fsync(f.fileno())
        return Staged(Path(tmp), target, hashing.digest.hexdigest())
    except BaseException as e:
        if tmp is not None:
            Path(tmp).unlink(missing_ok=True)
        if isinstance(e, OSError):
            raise KgError(f"cannot write {target}: {os_message(e)}", code="write-failed") from e
        raise


def adopt(path: Path, target: Path, sha256: str) -> Staged:
    """Stage ``path``, a complete and synced file whose SHA-256 is ``sha256``, to be renamed over
    ``target`` as :func:`stage` does: moved beside ``target`` under a temporary name when both are
    on one file system (a big build's graph.ttl, written while its store was loaded, is not copied:
    it runs to gigabytes), else copied there and removed."""
    tmp: str | None = None
    try:
        make_parent(target)
        if _one_file_system(path, target.parent):
            fd, tmp = tempfile.mkstemp(prefix=temp_prefix(target.name), suffix=TEMP_SUFFIX, dir=target.parent)
            os.close(fd)
            os.replace(path, tmp)
            return Staged(Path(tmp), target, sha256)
    except OSError as e:
        if tmp is not None:
            Path(tmp).unlink(missing_ok=True)
        raise KgError(f"cannot write {target}: {os_message(e)}", code="write-failed") from e

    def copy(out: BinaryIO) -> None:
        with open(path, "rb") as f:
            shutil.copyfileobj(f, out, 1 << 20)

    staged = stage(target, copy)
    path.unlink(missing_ok=True)
    return staged


def _one_file_system(a: Path, b: Path) -> bool:
    """Whether ``a`` can be renamed into folder ``b``."""
    return a.stat().st_dev == b.stat().st_dev


def commit(staged: Staged) -> Path:
    """Rename a staged file over its target (one atomic step); returns the target."""
    try:
        os.replace(staged.temp, staged.target)
    except OSError as e:
        discard(staged)
        raise KgError(f"cannot write {staged.target}: {os_message(e)}", code="write-failed") from e
    return staged.target


def discard(staged: Staged) -> None:
    """Remove a staged file that will not be committed."""
    with suppress(OSError):  # else its writer's pid is in its name: the next sweep removes it
        staged.temp.unlink(missing_ok=True)


def sync_folder(folder: Path) -> None:
    """Make the renames in ``folder`` durable (where folders can be synced)."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def exchange(a: Path, b: Path) -> bool:
    """Swap the folders ``a`` and ``b`` in one atomic step (Linux ``renameat2(RENAME_EXCHANGE)``).

    Returns False, having changed nothing, where the system or file system cannot.
    """
    rename = _renameat2()
    if rename is None:
        return False
    if rename(_AT_FDCWD, os.fsencode(a), _AT_FDCWD, os.fsencode(b), _RENAME_EXCHANGE) == 0:
        return True
    code = ctypes.get_errno()
    if code in (errno.ENOSYS, errno.EINVAL, errno.ENOTSUP, errno.EOPNOTSUPP):
        return False
    raise OSError(code, os.strerror(code), str(b))


_AT_FDCWD = -100
_RENAME_EXCHANGE = 2


@lru_cache(maxsize=1)
def _renameat2() -> Any:
    if sys.platform != "linux":
        return None
    try:
        function = ctypes.CDLL(None, use_errno=True).renameat2
    except (OSError, AttributeError):
        return None  # a C library without it (glibc before 2.28)
    function.argtypes = (ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p, ctypes.c_uint)
    function.restype = ctypes.c_int
    return function


def replace_folder(fresh: Path, target: Path) -> Path | None:
    """Put the complete folder ``fresh`` at ``target``; returns where the folder it replaced now lies.

    Where folders can be exchanged atomically (Linux), a reader sees the old folder or the new
    one, never neither; elsewhere the old one is first renamed aside to ``.NAME.PID-old.tmp``,
    and :func:`sweep` puts it back if the process dies before the new one is in place.
    The caller removes the returned folder once it no longer needs it.
    """
    if not target.exists() and not target.is_symlink():
        fresh.rename(target)
        return None
    if exchange(fresh, target):
        return fresh
    old = target.with_name(f"{temp_prefix(target.name)}old{TEMP_SUFFIX}")
    target.rename(old)
    try:
        fresh.rename(target)
    except OSError:
        old.rename(target)
        raise
    return old


class StagedFolder:
    """A folder being written beside its target (see :func:`staged_folder`)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.files = 0
        self.bytes = 0

    def write(self, name: str, data: bytes) -> Path:
        """Write ``data`` as ``name`` (a relative path, ``/``-separated) inside the folder."""
        parts = name.split("/")
        if not name or name.startswith("/") or any(p in ("", ".", "..") for p in parts):
            raise KgError(f"not a file name inside a folder: {name!r}", code="bad-file-name")
        path = self.path.joinpath(*parts)
        path.parent.mkdir(parents=True, exist_ok=True)
        with open(path, "xb") as f:
            f.write(data)
        self.files += 1
        self.bytes += len(data)
        return path


@contextmanager
def staged_folder(target: Path) -> Iterator[StagedFolder]:
    """A folder that appears at ``target`` complete or not at all, replacing what was there.

    Files are written into ``.NAME.PID-new.tmp`` beside ``target``, made durable at once (one
    ``syncfs`` where Linux has it: a site of thousands of pages synced file by file spent long in
    ``fsync``), and the folder is put in place with :func:`replace_folder`.  On an error the
    staging folder is removed and ``target`` is left as it was.
    """
    staging = target.with_name(f"{temp_prefix(target.name)}new{TEMP_SUFFIX}")
    try:
        make_parent(target)
        sweep(target.parent, target.name)
        remove(staging)
        staging.mkdir()
    except OSError as e:
        raise KgError(f"cannot write {target}: {os_message(e)}", code="write-failed") from e
    try:
        yield StagedFolder(staging)
        _sync_tree(staging)
        old = replace_folder(staging, target)
    except BaseException as e:
        remove(staging)
        if isinstance(e, OSError):
            raise KgError(f"cannot write {target}: {os_message(e)}", code="write-failed") from e
        raise
    if old is not None:
        remove(old)
    sync_folder(target.parent)


def _sync_tree(folder: Path) -> None:
    """Make every file under ``folder`` durable: its file system at once where possible, else one by one."""
    syncfs = _syncfs()
    if syncfs is not None:
        fd = os.open(folder, os.O_RDONLY)
        try:
            if syncfs(fd) == 0:
                return
        finally:
            os.close(fd)
    for path in sorted(folder.rglob("*")):
        if path.is_file():
            with open(path, "rb+") as f:
                os.fsync(f.fileno())
    for path in sorted(p for p in folder.rglob("*") if p.is_dir()):
        sync_folder(path)
    sync_folder(folder)


@lru_cache(maxsize=1)
def _syncfs() -> Any:
    if sys.platform != "linux":
        return None
    try:
        function = ctypes.CDLL(None, use_errno=True).syncfs
    except (OSError, AttributeError):
        return None
    function.argtypes = (ctypes.c_int,)
    function.restype = ctypes.c_int
    return function


def remove(path: Path) -> None:
    """Remove a file or folder, ignoring errors (what cannot be removed now is swept later)."""
    if path.is_dir() and not path.is_symlink():
        shutil.rmtree(path, ignore_errors=True)
    else:
        with suppress(OSError):
            path.unlink(missing_ok=True)


def sweep(folder: Path, name: str | None = None) -> None:
    """Remove what killed kg processes left in ``folder`` (for ``name`` only, when given).

    Only ``.NAME.PID-*.tmp`` entries of processes that are no longer running are touched; a
    folder renamed aside (``.NAME.PID-old.tmp``) whose ``NAME`` is missing is put back instead.
    """
    try:
        entries = sorted(folder.iterdir())
    except OSError:
        return
    for entry in entries:
        match = _LEFTOVER.fullmatch(entry.name)
        if match is None or (name is not None and match["name"] != name) or process_alive(int(match["pid"])):
            continue
        original = folder / match["name"]
        if match["tag"] == "old" and not original.exists() and not original.is_symlink():
            try:
                entry.rename(original)
                continue
            except OSError:
                pass
        remove(entry)


def process_alive(pid: int) -> bool:
    """Whether process ``pid`` is running (this process counts as running)."""
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except (ProcessLookupError, OverflowError):
        return False
    except PermissionError:
        return True  # someone else's
    return True
