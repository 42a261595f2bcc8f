"""What a build made: the result of ``kg.pipeline`` before (and after) ``kg.build_folder`` commits it.

A frozen record: committing a build does not change it, it gives a new one (``dataclasses.replace``)
with the committed store.  Exporters, pages and the command line read it; nothing here builds.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

import pyoxigraph as ox

from kg.cache import Changes, Entries, Manifest
from kg.errors import IssueLog

if TYPE_CHECKING:
    from kg.ledger import Draft
    from kg.readers.discover import InputFile


class StoreHandle:
    """A build's store, which committing or discarding the build lets go of: the RocksDB files of an
    on-disk store stay open while anything holds it, and a store moved or removed must not be."""

    def __init__(self, store: ox.Store) -> None:
        self.store = store

    def release(self) -> None:
        """Let go of the store (the handle holds an empty one from now on)."""
        self.store = ox.Store()


@dataclass(frozen=True, slots=True)
class Build:
    """The result of a build: the graph in its store, what was read, and what went wrong."""

    handle: StoreHandle
    counts: Mapping[str, int]
    """What was built: records, papers, persons, coauthor pairs."""
    log: IssueLog
    base: str
    files: tuple[InputFile, ...] = ()
    files_read: int = 0
    files_reused: int = 0
    triples: int = 0
    seconds: float = 0.0
    manifest: Manifest = field(default_factory=Manifest)
    fresh: Entries = field(default_factory=Entries)
    """Cache entries of the files read in this build (see ``kg.cache.dumps_extract``; written to the
    cache with the outputs), spilled to disk by a build with an on-disk store."""
    fresh_keys: Entries = field(default_factory=Entries)
    """The record identities of the files whose first pass read them in this build (see
    ``kg.cache.dumps_identities``), for the cache: a rebuild's first pass takes them instead."""
    changes: Changes | None = None
    store_path: Path | None = None
    """Where the store lies on disk, when it was assembled there."""
    turtle: Path | None = None
    """The build's graph.ttl, when it was written while the store was loaded (see
    ``kg.exporters.turtle.STREAM``; ``write_outputs`` renames it into place)."""
    turtle_sha256: str = ""
    """The SHA-256 of ``turtle``, hashed as it was written."""
    timings: Mapping[str, float] = field(default_factory=dict)
    """Seconds spent per stage (and, once committed, per output written)."""
    ledger: Draft | None = None
    """What the build writes into the ledger (``kg.ledger``), so that the next build can be a delta;
    None when the build cannot be one's base (a thesaurus)."""
    lazy: tuple[str, ...] = ()
    """Outputs of ``kg.layout.LAZY`` a delta build of a big graph does not rewrite (removed from the
    build folder: ``kg export`` and ``kg viz`` make them from the store)."""
    generation: str = ""
    """The generation of a build whose graph.ttl is not written (``lazy``); else graph.ttl's SHA-256."""
    delta: Mapping[str, int] | None = None
    """What a delta build did (papers re-made, triples deleted and inserted); None for a full build."""
    full_because: str = ""
    """Why the build was a full one rather than a delta (``"no previous build"`` ...)."""

    @property
    def store(self) -> ox.Store:
        """The graph: the store the build assembled (or, once committed, the build folder's)."""
        return self.handle.store

    def summary(self) -> dict[str, int]:
        """The figures a build reports."""
        return {
            "files": len(self.files),
            "files_failed": len(self.log.failed_files),
            "files_read": self.files_read,
            "files_reused": self.files_reused,
            "records": self.counts["records"],
            "papers": self.counts["papers"],
            "persons": self.counts["persons"],
            "coauthor_pairs": self.counts["coauthor_pairs"],
            "triples": self.triples,
        }
