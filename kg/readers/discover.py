"""Finding the input files of a build: the files and folders named, walked (hidden files, kg's own
outputs and unreadable or special files skipped, each said), and the paths shown in messages."""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from kg.errors import IssueLog, UsageError, escaped_path
from kg.layout import NAMES
from kg.records import Location


@dataclass(frozen=True, slots=True)
class InputFile:
    path: Path
    shown: str


def shown_path(path: Path) -> str:
    """A path as messages and provenance name it: relative to the working folder when inside it, and
    printable: control characters and bytes that are not UTF-8 escaped (``bad\\xff.txt``, ``a\\nb``),
    backslashes doubled so that no two names are shown alike (:func:`kg.errors.escaped_path`)."""
    try:
        text = path.resolve().relative_to(Path.cwd().resolve()).as_posix()
    except ValueError:
        text = path.resolve().as_posix()
    return escaped_path(text.replace("\\", "\\\\"))




def discover(paths: Iterable[Path], log: IssueLog, out: Path | None = None) -> list[InputFile]:
    """Input files of the given files and folders (recursive, hidden files skipped), sorted, once each.

    A folder that holds no input file is a ``no-input`` error; kg's own outputs in the build folder
    ``out`` (when it lies among the inputs) are skipped with an ``output-folder`` warning.
    """
    found: dict[str, InputFile] = {}
    skip = _identity(out) if out is not None else None
    for path in paths:
        shown = shown_path(path) if path.exists() else str(path)
        if not path.exists():
            what = (
                "link leads nowhere (dangling or a loop)" if path.is_symlink() else "no such file or folder"
            )
            log.error(Location(shown, 0), "missing-input", what)
        elif path.is_dir():
            listed = False
            reported = len(log.issues)
            for file in _walk(path, log, skip):
                listed = True
                s = shown_path(file)
                found.setdefault(s, InputFile(file, s))
            if not listed and len(log.issues) == reported:  # nothing in it, and nothing said why
                log.error(
                    Location(shown, 0),
                    "no-input",
                    "folder holds no input file (expected paper listings; hidden files are skipped)",
                )
        elif path.is_file():
            found.setdefault(shown, InputFile(path, shown))
        else:
            log.error(Location(shown, 0), "not-a-file", "not a regular file or folder; skipped")
    return [found[k] for k in sorted(found)]


def _identity(folder: Path) -> tuple[int, int] | None:
    try:
        st = folder.stat()
    except OSError:
        return None
    return (st.st_dev, st.st_ino)


def _walk(folder: Path, log: IssueLog, out: tuple[int, int] | None = None) -> Iterator[Path]:
    import errno

    seen: set[tuple[int, int]] = set()

    def onerror(e: OSError) -> None:
        where = shown_path(Path(e.filename)) if e.filename else shown_path(folder)
        log.error(Location(where, 0), "unreadable-folder", f"cannot list folder: {e.strerror or e}")

    for root, dirs, files in os.walk(folder, onerror=onerror, followlinks=True):
        here = Path(root)
        try:
            st = here.stat()
        except OSError as e:  # gone or unreadable since it was listed
            log.error(
                Location(shown_path(here), 0), "unreadable-folder", f"cannot read folder: {e.strerror or e}"
            )
            dirs.clear()
            continue
        if (st.st_dev, st.st_ino) in seen:  # a symlink loop: this folder was walked already
            log.warn(
                Location(shown_path(here), 0), "symlink-loop", "folder reached again through a link; skipped"
            )
            dirs.clear()
            continue
        seen.add((st.st_dev, st.st_ino))
        if out is not None and (st.st_dev, st.st_ino) == out:
            # the build folder lies among the inputs: what kg wrote there is no listing
            ours = sorted(n for n in (*dirs, *files) if n in NAMES)
            if ours:
                log.warn(
                    Location(shown_path(here), 0),
                    "output-folder",
                    f"kg's own outputs in the output folder not read as input: {', '.join(ours)}",
                )
            dirs[:] = [d for d in dirs if d not in NAMES]
            files = [f for f in files if f not in NAMES]
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        for name in sorted(files):
            if name.startswith("."):
                continue
            file = here / name
            # the link as listed, not where it leads
            at = Location(f"{shown_path(here)}/{escaped_path(name.replace(chr(92), chr(92) * 2))}", 0)
            try:
                file.stat()
            except OSError as e:
                if e.errno == errno.ELOOP:
                    log.warn(at, "symlink-loop", "link leads back to itself; skipped")
                else:
                    log.error(at, "unreadable-file", f"cannot read file: {e.strerror or e}")
                continue
            if file.is_file():
                yield file
            else:
                # reading a FIFO would block the build forever; a socket or device is no listing either
                log.error(at, "not-a-file", "not a regular file or folder; skipped")


def check_inputs(paths: Iterable[Path]) -> None:
    """Refuse paths that do not exist, as ``cp`` does, before anything is read or written.

    Raises :class:`~kg.errors.UsageError` (``missing-input``) naming the first.
    (:func:`build` itself reports a missing path as an error and goes on with the others.)
    """
    for path in paths:
        if not path.exists():
            what = "link leads nowhere (dangling or a loop)" if path.is_symlink() else "no such file or folder"
            raise UsageError(
                f"{what} (expected an input file or folder)", Location(str(path), 0), code="missing-input"
            )
