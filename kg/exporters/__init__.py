"""Exporters: the only place that writes files; every file is written atomically.

``EXPORTERS`` is the table; adding a format is one module with ``NAME``,
``SUFFIX``, a one-line docstring, ``write(build, target)`` and
``export(source, target, options)`` (a :class:`~kg.exporters.source.Source`
is a built graph, in memory or persisted) plus one line here.

>>> default_target(Path("outputs"), "graphml", "topics").as_posix()
'outputs/export/topics.graphml'
>>> default_target(Path("outputs"), "ntriples", "coauthors").as_posix()
'outputs/export/graph.nt'
"""

from __future__ import annotations

import ctypes
import errno
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any, BinaryIO, cast

from kg import viz
from kg.errors import KgError, os_message, unknown
from kg.exporters import csvfolder, gexf, graphml, jsonld, nquads, ntriples, turtle, vosviewer
from kg.exporters.source import ExportOptions, Source
from kg.records import Location

if TYPE_CHECKING:
    import pyoxigraph as ox

    from kg.pipeline import Build

EXPORTERS: dict[str, ModuleType] = {
    turtle.NAME: turtle,
    ntriples.NAME: ntriples,
    nquads.NAME: nquads,
    jsonld.NAME: jsonld,
    graphml.NAME: graphml,
    gexf.NAME: gexf,
    csvfolder.NAME: csvfolder,
    vosviewer.NAME: vosviewer,
}

VIEW_EXPORTERS = frozenset({graphml.NAME, gexf.NAME, csvfolder.NAME, vosviewer.NAME})
"""Exporters that write a networkx view (``--view``) rather than the RDF graph."""

EXPORT_DIR = "export"


def _page(name: str) -> Callable[[Build, BinaryIO], None]:
    """The serializer of ``kg build``'s page of one view (default options), as ``kg viz`` draws it."""

    def serialize(build: Build, out: BinaryIO) -> None:
        _draw(build.store, name, out)

    return serialize


def _draw(store: ox.Store, name: str, out: BinaryIO) -> None:
    from kg.node_papers import node_papers
    from kg.project import view

    graph = view(store, name)
    out.write(viz.render(graph, title=f"kg · {name}", papers=node_papers(store, graph)).encode("utf-8"))


PAGES_APART = 1_000_000
"""Triples from which a build draws its pages side by side, each in a process of its own that opens the
on-disk store read-only (:class:`PagesApart`): one after the other they took a large share of a big
build, where starting a process costs little."""


class PagesApart:
    """Pages of ``BUILD_OUTPUTS`` staged by processes of their own, at once, while the caller goes on
    (each reads the store at ``store``, a folder no one writes to until they are done).

    Each is a new interpreter running ``python -m kg.exporters.apart``: a fork would copy the
    caller's open store and its threads, and multiprocessing's ``spawn`` would run the caller's
    main script again (a script that calls ``write_outputs`` without a ``__main__`` guard).
    :meth:`staged` waits for them; leaving the ``with`` block waits for those still running (ends
    them if the block failed) and discards what they staged but nobody took, so a failed build
    leaves no temporary file.
    """

    def __init__(self, store: Path, out: Path, names: Iterable[str]) -> None:
        self.names = tuple(names)
        # the children import kg from wherever this process did
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in sys.path if p)}
        self._processes = [
            subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "kg.exporters.apart",
                    str(store),
                    str(out / name),
                    name.removesuffix(".html"),
                ],
                stdin=subprocess.DEVNULL,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                env=env,
            )
            for name in self.names
        ]
        self._results: list[tuple[Staged, float] | BaseException] | None = None
        self._taken = False

    def __enter__(self) -> PagesApart:
        return self

    def __exit__(self, kind: type[BaseException] | None, *rest: object) -> None:
        if kind is not None:
            for process in self._processes:
                process.terminate()  # a page killed half-written leaves a temporary file the next sweep removes
        results = self._collect()
        if not self._taken:
            for result in results:
                if isinstance(result, tuple):
                    discard(result[0])

    def staged(self) -> list[tuple[Staged, float]]:
        """Each page staged, with the seconds its process took, in ``names`` order; the first error of
        a process is raised here (its pages and the others' are then discarded on leaving)."""
        results = self._collect()
        for result in results:
            if isinstance(result, BaseException):
                raise result
        self._taken = True
        return [result for result in results if isinstance(result, tuple)]

    def _collect(self) -> list[tuple[Staged, float] | BaseException]:
        if self._results is None:
            self._results = [
                _page_result(name, p) for name, p in zip(self.names, self._processes, strict=True)
            ]
        return self._results


def _page_result(name: str, process: subprocess.Popen[bytes]) -> tuple[Staged, float] | BaseException:
    """What the process drawing page ``name`` said: the page it staged, or its error."""
    out, err = process.communicate()
    lines = out.decode("utf-8", errors="replace").strip().splitlines()
    try:
        said = json.loads(lines[-1]) if lines else None
    except ValueError:
        said = None
    if isinstance(said, dict) and "error" in said:
        at = said.get("at")
        return KgError(
            str(said["error"]), Location(at[0], at[1]) if at else None, str(said.get("code", "error"))
        )
    if process.returncode == 0 and isinstance(said, dict) and "temp" in said:
        staged = Staged(Path(said["temp"]), Path(said["target"]), str(said["sha256"]))
        return staged, float(said["seconds"])
    # a bug, not bad input: its traceback is kept
    trace = err.decode("utf-8", errors="replace")[-4000:]
    return RuntimeError(f"drawing {name} failed (exit status {process.returncode}):\n{trace}")


def stage_page(store: Path, target: Path, view: str) -> tuple[Staged, float]:
    """Stage the page of ``view`` of the store at ``store`` as ``target``, with the seconds it took
    (in a process of :class:`PagesApart`, which opens the store read-only)."""
    import time

    import pyoxigraph as ox

    started = time.perf_counter()
    try:
        graph = ox.Store.read_only(str(store))
    except OSError as e:
        raise KgError(f"cannot open the store {store}: {os_message(e)}", code="bad-store") from e
    staged = stage(target, lambda f: _draw(graph, view, f))
    return staged, time.perf_counter() - started


BUILD_OUTPUTS: dict[str, Callable[[Build, BinaryIO], None]] = {
    "graph.ttl": turtle.serialize_build,
    "coauthors.html": _page("coauthors"),
    "topics.html": _page("topics"),
}
"""What ``kg build`` writes into its output folder besides the store: file name -> serializer
(the SHA-256 of ``graph.ttl`` is the build's generation, see ``kg.pipeline.write_outputs``)."""


def exporter(name: str) -> ModuleType:
    """The exporter called ``name``; an unknown name lists the choices."""
    try:
        return EXPORTERS[name]
    except KeyError:
        raise KgError(
            unknown("exporter", name, sorted(EXPORTERS)), code="unknown-exporter"
        ) from None


def default_target(out: Path, name: str, view: str) -> Path:
    """Where ``kg export NAME`` writes by default: ``OUT/export/graph.<ext>`` for RDF,
    ``OUT/export/<view>.<ext>`` for views, ``OUT/export/csv/`` for CSV."""
    module = exporter(name)
    if name == csvfolder.NAME:
        return out / EXPORT_DIR / "csv"
    stem = view if name in VIEW_EXPORTERS else "graph"
    return out / EXPORT_DIR / f"{stem}{module.SUFFIX}"


def export(name: str, source: Source, target: Path, options: ExportOptions | None = None) -> Path:
    """Export ``source`` in the format ``name`` to ``target`` (atomically); returns ``target``."""
    module = exporter(name)
    sweep(target.parent, target.name)  # what an export killed before left here
    if name == turtle.NAME:  # turtle.py writes from a Build; its serializer takes the store and base
        return write_atomically(
            target, lambda f: turtle.serialize(source.store, f, source.base, source.on_disk)
        )
    written: Path = module.export(source, target, options or ExportOptions())
    return written


@contextmanager
def atomic(target: Path) -> Iterator[BinaryIO]:
    """A binary file that appears at ``target`` complete or not at all (temp file + ``os.replace``)."""
    make_parent(target)
    fd, tmp = tempfile.mkstemp(prefix=temp_prefix(target.name), suffix=TEMP_SUFFIX, dir=target.parent)
    try:
        os.chmod(tmp, 0o666 & ~_umask())
        with os.fdopen(fd, "wb") as f:
            yield f
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _umask() -> int:
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
        os.chmod(tmp, 0o666 & ~_umask())
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
