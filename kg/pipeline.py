"""The one place the stages are wired: read -> extract -> resolve -> assemble -> store.

One build, whatever came before it.  A build starts from a base: nothing (a full build), or a build
folder's previous build (``kg.delta.Base``).  Either way it reads its files (``kg.reading``), groups
records into papers (``kg.grouping``), makes the papers of the groups and their ledger entries
(:class:`Making`: ``kg.resolve.Streaming``, ``kg.assemble``, ``kg.ledger.Entry``) and the nodes
papers share from the entries (``kg.shared``).  From nothing, every record is grouped, every paper
made, and the triples are bulk-loaded into a new store as they come; from a previous build, only the
records a change touches are grouped and their papers made again, and the difference is applied to
a copy of its store (``kg.delta``).

>>> from kg.errors import IssueLog, KgError
>>> b = build([Path("seeds")], BuildOptions(), IssueLog())  # doctest: +SKIP
"""

from __future__ import annotations

import itertools
import os
import shutil
import time
import traceback
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import BinaryIO, cast

import pyoxigraph as ox

from kg import shared as shared_nodes
from kg import store as stores
from kg.assemble import ontology_triples, paper_triples, relabel
from kg.build_result import Build, StoreHandle
from kg.cache import Entries, Manifest, changes, extraction_key, paper_hash, resolution_key
from kg.curation import Curation
from kg.errors import Issue, IssueLog, KgError, os_message
from kg.executors import Extraction, Progress, Step, collector_paused, steady_malloc
from kg.exporters import turtle
from kg.extractors import EXTRACTORS
from kg.extractors import check as check_extractors
from kg.files import Hashing
from kg.grouping import Plan
from kg.kinds import Shared, Triple
from kg.kinds.table import check as check_kinds
from kg.ledger import PAPER_CODES, Draft, Entry
from kg.persons import stage as persons_stage
from kg.readers import thesaurus as thesauri
from kg.readers.discover import InputFile, discover, shown_path
from kg.reading import Accepted, Reading, accept, identities
from kg.records import Location
from kg.resolve import Paper, Streaming
from kg.terms import Minted, Namer
from kg.vocab import DATA_BASE

__all__ = ["DEFAULT_INPUT", "DEFAULT_OUT", "Build", "BuildOptions", "Making", "build", "settings"]

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
    cache: Path | None = None
    """A previous build folder whose manifest and cache let unchanged files skip reading (incremental)."""
    full: bool = False
    """Ignore the cache: read and extract every file again."""
    workers: int = 1
    """Processes that run the extractors (``kg build --workers``; 1 runs them in this process)."""
    store: Path | None = None
    """Assemble the graph in an on-disk store here (see ``kg.store.staging``); default: in memory."""
    scheduler: str | None = None
    """Address of a Dask distributed scheduler (``tcp://host:port``) to run the extractors on."""
    thesaurus: Path | None = None
    """A VOSviewer-style thesaurus (``label<TAB>replace by``) that merges, renames or drops methods
    and persons (``kg build --thesaurus``; see ``kg.curation.Curation`` and docs/thesaurus.md)."""


def settings(options: BuildOptions, extraction: str) -> dict[str, object]:
    """What a build's graph depends on besides its inputs: a delta needs the same (``kg.ledger``)."""
    return {"base": options.base, "taxonomies": options.taxonomies, "extraction": extraction}


@dataclass(slots=True)
class Inputs:
    """A build's input files, found and hashed, with what they were the last time: what every build
    of them shares, whether it starts from nothing or from the previous build."""

    files: list[InputFile]
    accepted: list[Accepted]
    previous: Manifest
    manifest: Manifest
    """The new manifest, filled as the files are read and the papers made."""
    reuse: bool
    """Whether the previous build's cache serves (same extraction, not ``--full``)."""
    curation: Curation | None
    extraction: Extraction
    fresh: Entries
    fresh_keys: Entries
    started: float = field(default_factory=time.perf_counter)


def build(
    paths: Iterable[Path],
    options: BuildOptions | None = None,
    log: IssueLog | None = None,
    progress: Progress | None = None,
) -> Build:
    """Build the graph of ``paths`` from nothing into a store (in memory, or on disk at
    ``options.store``): every record read (or taken from the cache of ``options.cache``), grouped,
    made into papers and loaded.

    ``progress`` hears of every file as the first pass has identified it and as the second pass
    starts reading it, and of the store's compaction (:class:`Step`)."""
    return run(paths, options or BuildOptions(), log if log is not None else IssueLog(), progress)


def run(
    paths: Iterable[Path],
    options: BuildOptions,
    log: IssueLog,
    progress: Progress | None = None,
    over: Callable[[Inputs], Build | str] | None = None,
) -> Build:
    """The build of ``paths``: by ``over`` (a delta over the previous build, see ``kg.delta``) when it
    can be one, else from nothing; the result's ``full_because`` says why it was not a delta."""
    steady_malloc()
    spill = options.store.parent if options.store is not None else None  # beside the store
    with collector_paused():
        inputs = _inputs(paths, options, log, spill)
        try:
            with inputs.extraction:
                why = over(inputs) if over is not None else "no previous build"
                if isinstance(why, Build):
                    return why
                result = _from_nothing(inputs, options, log, progress)
                return _replace_full_because(result, why)
        except BaseException:
            inputs.fresh.close()
            inputs.fresh_keys.close()
            raise


def _replace_full_because(result: Build, why: str) -> Build:
    from dataclasses import replace

    return replace(result, full_because=why)


def _inputs(paths: Iterable[Path], options: BuildOptions, log: IssueLog, spill: Path | None) -> Inputs:
    """Find and hash the inputs (refusing an unknown extractor first) and read the thesaurus."""
    extractors = check_extractors(options.extractors or None)  # an unknown name is an error, not ignored
    check_kinds({name: EXTRACTORS[name].KINDS for name in extractors})
    if options.store is not None:
        _make_room(options.store, create=False)
    files = discover(paths, log, options.cache)
    previous = Manifest.load(options.cache) if options.cache is not None else Manifest()
    # the thesaurus is read once, before the inputs, and applied where identity is decided
    thesaurus = (
        thesauri.read(options.thesaurus, log, shown_path(options.thesaurus))
        if options.thesaurus is not None
        else None
    )
    manifest = Manifest(
        extraction=extraction_key(extractors),
        resolution=resolution_key(thesaurus.digest if thesaurus is not None else ""),
    )
    reuse = previous.extraction == manifest.extraction and options.cache is not None and not options.full
    accepted = accept(files, previous, reuse, log)
    return Inputs(
        files,
        accepted,
        previous,
        manifest,
        reuse,
        Curation.of(thesaurus) if thesaurus is not None else None,
        Extraction(options.extractors, options.workers, options.scheduler),
        Entries(spill),
        Entries(spill),
    )


class Making:
    """The one making of papers, for a build from nothing and a delta alike: each paper of a plan
    made from its records (``kg.resolve.Streaming``), with its triples and its ledger entry, which
    ``on_entry`` is given (the shared nodes and the ledger are filled from it)."""

    def __init__(
        self,
        plan: Plan,
        reading: Reading,
        inputs: Inputs,
        log: IssueLog,
        namer: Namer,
        on_entry: Callable[[Entry], None],
    ) -> None:
        self.namer = namer
        self.people = Minted(namer.person)
        self.on_entry = on_entry
        self.log = log
        self.manifest = inputs.manifest
        self._mark = len(log.issues)
        self.streaming = Streaming(
            plan,
            log,
            reading.records(inputs.extraction),
            self._made,
            inputs.curation,
            lambda paper, conflicts: self._entered(paper, conflicts, dropped=True),
        )

    def triples(self) -> Iterator[Triple]:
        """Every paper's own triples, as the papers are made."""
        for paper in self.streaming.consume():
            yield from paper_triples(paper, self.namer, self.people)

    def papers(self) -> Iterator[Paper]:
        """The papers made, in the order they are completed."""
        return self.streaming.consume()

    def _made(self, paper: Paper, conflicts: list[Issue]) -> None:
        self._entered(paper, conflicts, dropped=False)

    def _entered(self, paper: Paper, conflicts: list[Issue], dropped: bool) -> None:
        issues = self.log.issues
        own = [i for i in issues[self._mark :] if i.code in PAPER_CODES]
        self._mark = len(issues)
        hashed = paper_hash(paper)
        if not dropped:
            self.manifest.papers[paper.key] = hashed
        self.on_entry(Entry.of(paper, [*own, *conflicts], dropped, hashed))


def _from_nothing(inputs: Inputs, options: BuildOptions, log: IssueLog, progress: Progress | None) -> Build:
    """Every record grouped, every paper made, and the graph loaded into a new store."""
    if options.store is not None:
        _make_room(options.store)
    manifest = inputs.manifest
    found = identities(
        inputs.extraction, inputs.accepted, options.cache, manifest.extraction, inputs.reuse,
        inputs.fresh_keys, progress,
    )
    plan = Plan.of(found)
    del found
    identified = time.perf_counter()
    reading = Reading(
        inputs.accepted,
        {item.shown for item, _, _ in inputs.accepted},
        {},
        manifest,
        inputs.previous,
        options.cache,
        inputs.reuse,
        inputs.fresh,
        log,
        progress,
    )
    curation = inputs.curation
    folder = options.store.parent if options.store is not None else None
    # a build with a thesaurus cannot be a delta's base: it has no ledger (the next build is full)
    ledger = Draft.new(settings(options, manifest.extraction), folder) if curation is None else None
    try:
        return _made(inputs, options, log, progress, plan, reading, ledger, identified)
    except BaseException:
        if ledger is not None:
            ledger.close()
        raise


def _made(
    inputs: Inputs,
    options: BuildOptions,
    log: IssueLog,
    progress: Progress | None,
    plan: Plan,
    reading: Reading,
    ledger: Draft | None,
    identified: float,
) -> Build:
    """The papers of ``plan`` made and loaded into a new store, the shared nodes last."""
    started, manifest, curation = inputs.started, inputs.manifest, inputs.curation
    names = curation.names if curation is not None else {}
    shared = Shared(names=names)
    stage = persons_stage.Stage(curation.marks if curation is not None else ())

    def on_entry(entry: Entry) -> None:
        shared_nodes.add(shared, entry)
        shared_nodes.describe(shared, entry)
        stage.add(entry)
        if ledger is not None:
            ledger.add(entry)

    namer = Namer(options.base)
    making = Making(plan, reading, inputs, log, namer, on_entry)
    del plan
    decided: list[persons_stage.Persons] = []

    def last() -> Iterator[Triple]:
        """Once every paper is made: the persons, block by block, then every shared node."""
        persons = stage.decide()
        decided.append(persons)
        stage.pairs(persons, shared)
        if curation is not None:
            _unused_marks(curation, stage, log)
        yield from persons_stage.triples(persons, namer, names)
        yield from shared_nodes.triples(shared, namer)

    renamed = curation.labels if curation is not None else {}
    quads = itertools.chain(
        relabel(ontology_triples(), renamed) if options.taxonomies else (),
        making.triples(),
        _later(last),
    )
    graph = stores.on_disk(options.store) if options.store is not None else stores.memory()
    # an on-disk store is a big graph's: its graph.ttl is written as the triples are loaded
    stream = options.store / turtle.STREAM if options.store is not None else None
    streamed_sha256 = ""
    try:
        if stream is None:
            stores.load(graph, quads)
        else:
            streamed_sha256 = _load_writing_turtle(graph, quads, stream, options.base)
        # counted once: an on-disk store counts by reading its index, which takes seconds on a big graph
        triples = len(graph)
        if stream is not None and triples <= turtle.SORT_LIMIT:  # small: graph.ttl is written sorted
            stream.unlink()
            stream = None
        loaded = time.perf_counter()
        if options.store is not None:
            if progress is not None:
                progress(Step("optimizing", None, len(inputs.accepted), len(inputs.accepted)))
            # the bulk loader leaves many small sorted files; compacted, an index lookup costs a fraction
            # of what it did (the compaction is repaid by the pages and every query)
            graph.optimize()
    except OSError as e:  # the on-disk store's disk is full or went read-only
        traceback.clear_frames(e.__traceback__)  # the frames' locals hold the store (and its files) open
        del graph
        if options.store is not None:
            shutil.rmtree(options.store, ignore_errors=True)
        where = options.store and stores.shown(options.store)
        raise KgError(f"cannot write the store {where}: {os_message(e)}", code="write-failed") from e
    optimized = time.perf_counter()
    manifest.papers = dict(sorted(manifest.papers.items()))
    (persons,) = decided
    counts = {
        "records": making.streaming.records,
        "papers": making.streaming.papers,
        "persons": persons.count(),
        "coauthor_pairs": shared_nodes.pairs(shared),
    }
    if ledger is not None:
        ledger.changes.counts = {**counts, "triples": triples}
        ledger.changes.sums = shared_nodes.Rows(shared)
        ledger.changes.files = reading.issues
        ledger.changes.person_blocks = set(persons.clusters)
        ledger.changes.authorships = list(persons_stage.rows(persons))
        ledger.changes.persons = list(persons_stage.person_rows(persons))
    return Build(
        ledger=ledger,
        timings={
            "identify": identified - started,
            "read+extract+assemble": loaded - identified,
            "optimize": optimized - loaded,
        },
        handle=StoreHandle(graph),
        counts=counts,
        log=log,
        base=options.base,
        files=tuple(inputs.files),
        files_read=reading.read,
        files_reused=reading.reused,
        triples=triples,
        seconds=time.perf_counter() - started,
        manifest=manifest,
        fresh=inputs.fresh,
        fresh_keys=inputs.fresh_keys,
        changes=changes(inputs.previous.papers, manifest.papers),
        store_path=options.store,
        turtle=stream,
        turtle_sha256=streamed_sha256,
    )


def _unused_marks(curation: Curation, stage: persons_stage.Stage, log: IssueLog) -> None:
    """Warn of the thesaurus's person marks that picked no authorship of the build."""
    from kg.persons.marks import unused

    for mark in unused(curation.marks, (a for found in stage.papers.values() for a in found)):
        log.warn(
            Location(curation.thesaurus.path, mark.row),
            "thesaurus-unused",
            f"{mark.person!r}: the row picks no authorship of this build; it changed nothing",
        )


def _later(make: Callable[[], Iterable[Triple]]) -> Iterator[Triple]:
    """The triples ``make`` gives, made only when asked for (after every paper before them)."""
    yield from make()


def _load_writing_turtle(graph: ox.Store, quads: Iterable[ox.Quad], stream: Path, base: str) -> str:
    """Load ``quads`` into the on-disk store ``graph`` while writing them as Turtle to ``stream``
    (the build's graph.ttl, renamed into place later and never read again); its SHA-256."""
    with open(stream, "wb") as f:
        # hashed as it is written: graph.ttl's SHA-256 is the build's generation
        hashing = Hashing(f)
        sink = cast(BinaryIO, hashing)
        if stores.STREAMED:
            # the loader reads graph.ttl's own text as it is written: the quads are serialized once,
            # not also as N-Quads for the loader
            with stores.Loader(graph, ox.RdfFormat.TURTLE) as loader:
                turtle.write_stream(quads, loader.tee(sink), base)
        else:
            with stores.Loader(graph) as loader:
                turtle.write_stream(loader.loading(quads), sink, base)
        f.flush()
        os.fsync(f.fileno())
        return hashing.digest.hexdigest()


def _make_room(store: Path, create: bool = True) -> None:
    """Before reading anything: remove what killed builds left beside the store (it may be large),
    and (``create``) fail now, not after extraction, when the store's folder cannot be written."""
    try:
        store.parent.mkdir(parents=True, exist_ok=True)
        stores.clean(store.parent)
        if create:
            store.mkdir(exist_ok=True)
    except OSError as e:
        where = stores.shown(store)
        raise KgError(f"cannot write the store {where}: {os_message(e)}", code="write-failed") from e
