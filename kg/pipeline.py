"""The one place the stages are wired: read -> extract -> resolve -> assemble -> store.

>>> from kg.errors import IssueLog, KgError
>>> b = build([Path("seeds")], BuildOptions(), IssueLog())  # doctest: +SKIP
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pyoxigraph as ox

from kg import store as stores
from kg.assemble import Namer, assemble, ontology_triples
from kg.errors import IssueLog, KgError
from kg.extractors import extract_all
from kg.extractors.subjects import codes
from kg.readers import digest, read_file
from kg.records import Location
from kg.resolve import Resolution, Resolver
from kg.vocab import DATA_BASE

DEFAULT_INPUT = Path("seeds")
DEFAULT_OUT = Path("outputs")


@dataclass(frozen=True, slots=True)
class BuildOptions:
    """What a build reads and how it names things."""

    base: str = DATA_BASE
    extractors: tuple[str, ...] | None = None
    """Names of the extractors to run (default: all of ``EXTRACTORS``)."""
    taxonomies: bool = True
    """Include the shipped taxonomies (arXiv subjects, methods) whole, not only the concepts papers use."""


@dataclass(frozen=True, slots=True)
class InputFile:
    path: Path
    shown: str


@dataclass(slots=True)
class Build:
    """The result of a build: the graph in its store, what was read, and what went wrong."""

    store: ox.Store
    resolution: Resolution
    log: IssueLog
    base: str
    files: list[InputFile] = field(default_factory=list)
    files_read: int = 0
    triples: int = 0
    seconds: float = 0.0

    def summary(self) -> dict[str, int]:
        """The figures a build reports."""
        return {
            "files": len(self.files),
            "files_failed": len(self.log.failed_files),
            "records": self.resolution.records,
            "papers": len(self.resolution.papers),
            "persons": len(self.resolution.persons),
            "coauthor_pairs": len(self.resolution.coauthor_pairs()),
            "triples": self.triples,
        }


def shown_path(path: Path) -> str:
    """A path as messages and provenance name it: relative to the working folder when inside it."""
    try:
        return path.resolve().relative_to(Path.cwd().resolve()).as_posix()
    except ValueError:
        return path.resolve().as_posix()


def discover(paths: Iterable[Path], log: IssueLog) -> list[InputFile]:
    """Input files of the given files and folders (recursive, hidden files skipped), sorted, once each."""
    found: dict[str, InputFile] = {}
    for path in paths:
        shown = shown_path(path) if path.exists() else str(path)
        if not path.exists():
            log.error(Location(shown, 0), "missing-input", "no such file or folder")
        elif path.is_dir():
            for file in _walk(path, log):
                s = shown_path(file)
                found.setdefault(s, InputFile(file, s))
        elif path.is_file():
            found.setdefault(shown, InputFile(path, shown))
        else:
            log.error(Location(shown, 0), "not-a-file", "not a regular file or folder; skipped")
    return [found[k] for k in sorted(found)]


def _walk(folder: Path, log: IssueLog) -> Iterator[Path]:
    seen: set[tuple[int, int]] = set()

    def onerror(e: OSError) -> None:
        where = shown_path(Path(e.filename)) if e.filename else shown_path(folder)
        log.error(Location(where, 0), "unreadable-folder", f"cannot list folder: {e.strerror or e}")

    for root, dirs, files in os.walk(folder, onerror=onerror, followlinks=True):
        here = Path(root)
        try:
            st = here.stat()
        except OSError:
            continue
        if (st.st_dev, st.st_ino) in seen:  # a symlink loop: this folder was walked already
            log.warn(
                Location(shown_path(here), 0), "symlink-loop", "folder reached again through a link; skipped"
            )
            dirs.clear()
            continue
        seen.add((st.st_dev, st.st_ino))
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        for name in sorted(files):
            if not name.startswith("."):
                yield here / name


def build(
    paths: Iterable[Path],
    options: BuildOptions | None = None,
    log: IssueLog | None = None,
    progress: Callable[[InputFile], None] | None = None,
) -> Build:
    """Read every input, extract, resolve and assemble the graph into an in-memory store."""
    options = options or BuildOptions()
    log = log if log is not None else IssueLog()
    started = time.perf_counter()
    files = discover(paths, log)
    resolver = Resolver(log)
    digests: dict[str, str] = {}
    read = 0
    for item in files:
        if progress is not None:
            progress(item)
        try:
            key = digest(item.path)
        except OSError as e:
            log.error(Location(item.shown, 0), "unreadable-file", f"cannot read file: {e.strerror or e}")
            continue
        if key in digests:
            log.warn(Location(item.shown, 1), "duplicate-file", f"same content as {digests[key]}; skipped")
            continue
        digests[key] = item.shown
        read += 1
        for record in read_file(item.path, log, item.shown):
            resolver.add(record, extract_all(record, log, options.extractors))
    resolution = resolver.resolve()
    graph = stores.memory()
    namer = Namer(options.base)
    if options.taxonomies:
        stores.load(graph, ontology_triples())
    stores.load(graph, assemble(resolution, namer, codes().values()))
    return Build(
        store=graph,
        resolution=resolution,
        log=log,
        base=options.base,
        files=files,
        files_read=read,
        triples=len(graph),
        seconds=time.perf_counter() - started,
    )


def write_outputs(result: Build, out: Path) -> list[Path]:
    """Write the outputs of a build into ``out``: each of ``BUILD_OUTPUTS`` and the persisted ``store/``."""
    from kg.exporters import BUILD_OUTPUTS

    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise KgError(f"cannot create output folder {out}: {e.strerror or e}", code="write-failed") from e
    written = [write(result, out / name) for name, write in BUILD_OUTPUTS.items()]
    written.append(stores.persist(result.store, out))
    return written
