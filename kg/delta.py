"""Delta builds: a build over the previous build in a folder, which makes again only the papers its
change touches and applies the difference to a copy of the store.

``kg build --out OUT`` over a folder that holds a build (its store, manifest and ledger of one
generation, built with the same settings and no thesaurus: :func:`base_of`) runs :func:`over`, which
``kg.pipeline.run`` calls with the inputs found and hashed.  It:

1. reads the files that are new or changed (by SHA-256) and groups their records with every record of
   the previous build's papers that share an identity key with them or lost a record
   (``kg.grouping.touched``, by the ledger's index of records and identity keys);
2. makes the papers of those groups, as a full build makes them (``kg.pipeline.Making``: the records
   of unchanged files come from the cache);
3. makes the shared nodes those papers touch as they were and as they are (``kg.shared``: the ledger's
   sums of their keys, less the old papers' and plus the new ones'; descriptions from every paper the
   store says holds them);
4. deletes the old papers' triples and the shared triples that changed, and inserts the new ones, in a
   copy of the store (a RocksDB checkpoint: hard links, no copying), which ``write_outputs`` swaps in
   as it does a full build's store, and the ledger's rows change in one transaction at the commit.

The result is the graph a full build of the same inputs makes (``tests/test_delta.py`` compares them
after every kind of change).  A delta gives way to a full build when it cannot be sure: no ledger, a
generation that differs between store, manifest and ledger, other settings, a thesaurus, sums that do
not add up, or more than :data:`MOST` of the papers to make again (the result says why); the full
build reuses what the delta read.

graph.ttl and the pages: a graph of at most ``kg.exporters.turtle.SORT_LIMIT`` triples has them
written again from the store (they cost little there, and graph.ttl is byte-identical to a full
build's); a bigger one has them removed rather than left describing the old graph (``Build.lazy``):
``kg export`` and ``kg viz`` make them from the store, ``kg build --full`` writes them all.
"""

from __future__ import annotations

import hashlib
import shutil
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from pathlib import Path

import pyoxigraph as ox

from kg import shared as shared_nodes
from kg import store as stores
from kg.build_result import Build, StoreHandle
from kg.cache import Manifest, changes, extraction_key
from kg.errors import IssueLog, KgError, os_message
from kg.executors import Progress
from kg.exporters.turtle import SORT_LIMIT
from kg.extractors import check as check_extractors
from kg.grouping import touched
from kg.kinds import Triple
from kg.layout import LAZY, STORE
from kg.ledger import Changes, Draft, Entry, Ledger, issue
from kg.persons import stage as persons_stage
from kg.pipeline import BuildOptions, Inputs, Making, run, settings
from kg.reading import Reading, identities
from kg.terms import Namer
from kg.vocab import KG, PROV

_Sums = tuple[set[tuple[str, str, str]], list[tuple[str, str, str, int, str]]]
"""The sums a delta makes again, and their rows."""

MOST = 0.3
"""The share of papers above which a delta re-makes so much that a full build costs about as much."""


@dataclass(slots=True)
class Base:
    """The build a delta starts from."""

    out: Path
    manifest: Manifest
    ledger: Ledger
    extraction: str


class _Full(Exception):
    """The delta cannot be sure of its result: build in full (the message says why)."""


def base_of(out: Path, options: BuildOptions) -> Base | str:
    """The build in ``out`` a delta starts from, or why there is none."""
    if options.full:
        return "--full"
    if options.thesaurus is not None:
        return "a thesaurus applies to every paper"
    manifest = Manifest.load(out)
    if not manifest.generation:
        return "no previous build"
    if manifest.resolution:
        return "the previous build applied a thesaurus"
    ledger = Ledger.load(out)
    if ledger is None:
        return "no ledger of the previous build"
    base = Base(out, manifest, ledger, extraction_key(check_extractors(options.extractors or None)))
    why = ""
    if ledger.generation != manifest.generation:
        why = "no ledger of the previous build"
    elif not (out / STORE).is_dir() or stores.generation(out) != manifest.generation:
        why = "the store is not the one the manifest names"
    elif manifest.extraction != base.extraction or ledger.settings != settings(options, base.extraction):
        why = "other settings, extractors or taxonomies than the previous build"
    if why:
        ledger.close()
        return why
    return base


class _GiveUp(Exception):
    """A delta that must be a full build, where a caller wants no full build (:func:`rebuild`)."""


def rebuild(
    paths: list[Path], out: Path, options: BuildOptions, log: IssueLog, progress: Progress | None = None
) -> Build | str:
    """The build of ``paths`` as a delta over the build in ``out`` (its store changed in a copy, not yet
    swapped in: see ``kg.build_folder.commit``), or why it must be a full build (nothing is reported
    to ``log`` then).  ``kg.build_folder.build_into`` builds in full in that case instead."""
    scratch = IssueLog()
    attempt = over(out, options, scratch, progress)
    why: list[str] = []

    def only_delta(inputs: Inputs) -> Build:
        made = attempt(inputs)
        if isinstance(made, str):
            why.append(made)
            raise _GiveUp(made)
        return made

    try:
        result = run(paths, options, scratch, progress, only_delta)
    except _GiveUp:
        return why[0]
    for i in scratch.issues:
        log.report(i.at, i.severity, i.code, i.message)
    return replace(result, log=log)


def over(
    out: Path, options: BuildOptions, log: IssueLog, progress: Progress | None = None
) -> Callable[[Inputs], Build | str]:
    """The delta over the build in ``out``, for ``kg.pipeline.run``: given the inputs, the build (its
    store changed in a copy, not yet swapped in: see ``kg.build_folder.write_outputs``), or why it
    must be a full build (nothing is reported to ``log`` then)."""

    def attempt(inputs: Inputs) -> Build | str:
        base = base_of(out, options)
        if isinstance(base, str):
            return base
        scratch = IssueLog()  # reported to ``log`` only once the delta is sure to be taken
        try:
            result = _Delta(base, options, inputs, scratch, progress).run()
        except _Full as e:
            return str(e)
        finally:
            base.ledger.close()
        for i in scratch.issues:
            log.report(i.at, i.severity, i.code, i.message)
        return replace(result, log=log)

    return attempt


@dataclass
class _Delta:
    base: Base
    options: BuildOptions
    inputs: Inputs
    log: IssueLog
    progress: Progress | None

    def run(self) -> Build:
        inputs, base, log = self.inputs, self.base, self.log
        previous, ledger, manifest = base.manifest, base.ledger, inputs.manifest
        now = {item.shown: key for item, key, _ in inputs.accepted}
        gone = {(shown, e.digest) for shown, e in previous.files.items() if now.get(shown) != e.digest}
        fresh = [a for a in inputs.accepted if _was(previous, a[0].shown) != (a[0].shown, a[1])]
        found = identities(
            inputs.extraction, fresh, None, manifest.extraction, False, inputs.fresh_keys, self.progress
        )
        papers = ledger.counts.get("papers", 0)
        limit = int(MOST * max(1, papers))
        change = touched(ledger, found, gone, limit)
        if change is None:
            raise _Full(f"more than {limit} of {papers} papers to make again")
        identified = time.perf_counter()
        fresh_names = {item.shown for item, _, _ in fresh}
        fresh_digests = {key for _, key, _ in fresh}
        wanted: dict[str, set[int]] = {}
        for digest, ordinal in change.plan.records:
            if digest not in fresh_digests:
                wanted.setdefault(digest, set()).add(ordinal)
        reading = Reading(
            inputs.accepted, fresh_names, wanted, manifest, previous, base.out, False, inputs.fresh, log,
            self.progress,
        )
        namer = Namer(self.options.base)
        made: list[Entry] = []
        making = Making(change.plan, reading, inputs, log, namer, made.append)
        new_triples = set(making.triples())
        built = time.perf_counter()
        kept = {key: h for key, h in previous.papers.items() if key not in change.papers}
        if not kept.keys().isdisjoint(e.wanted for e in made):  # dropped ones included: which came first?
            raise _Full("a paper made again has the key of one left as it was")
        manifest.papers = dict(sorted({**kept, **manifest.papers}.items()))
        old = list(ledger.entries(change.papers))
        self._report_again(ledger, fresh_names, change.papers)
        delete, insert, counts, sums, redo = self._difference(namer, old, made, new_triples)
        summed = time.perf_counter()
        # nothing changed: the store stays as it is (kg.build_folder.build_into writes nothing)
        staging, graph = (
            _apply(base.out, delete, insert) if change.papers or made else (None, stores.open_store(base.out))
        )
        applied = time.perf_counter()
        triples = ledger.counts["triples"] - len(delete) + len(insert)
        counts["records"] = sum(entry.records for entry in manifest.files.values())
        counts["triples"] = triples
        draft = Draft(
            Changes(
                dict(ledger.settings),
                counts,
                removed=change.papers,
                added=made,
                sum_keys=sums[0],
                sums=sums[1],
                files=reading.issues,
                files_gone={shown for shown in previous.files if shown not in manifest.files},
                person_blocks=redo.blocks,
                authorships=list(persons_stage.rows(redo.after)),
                persons=list(persons_stage.person_rows(redo.after)),
            )
        )
        lazy = LAZY if triples > SORT_LIMIT else ()
        fingerprint = hashlib.sha256(previous.generation.encode())
        for mark, quads in ((b"-", delete), (b"+", insert)):
            for text in sorted(str(q) for q in quads):
                fingerprint.update(mark + text.encode("utf-8") + b"\n")
        return Build(
            handle=StoreHandle(graph),
            counts={k: counts[k] for k in ("records", "papers", "persons", "coauthor_pairs")},
            log=log,
            base=self.options.base,
            files=tuple(inputs.files),
            files_read=reading.read,
            files_reused=len(inputs.accepted) - reading.read,
            triples=triples,
            seconds=time.perf_counter() - inputs.started,
            manifest=manifest,
            fresh=inputs.fresh,
            fresh_keys=inputs.fresh_keys,
            changes=changes(previous.papers, manifest.papers),
            store_path=staging,
            timings={
                "identify": identified - inputs.started,
                "read+extract+resolve": built - identified,
                "shared": summed - built,
                "apply": applied - summed,
            },
            ledger=draft,
            lazy=lazy,
            generation=fingerprint.hexdigest() if lazy else "",
            delta={
                "papers_removed": len(old),
                "papers_made": len(made),
                "triples_deleted": len(delete),
                "triples_inserted": len(insert),
            },
        )

    def _report_again(self, ledger: Ledger, read: set[str], remade: set[str]) -> None:
        """The issues of the files not read again and of the papers not made again, from the ledger."""
        for shown, rows in sorted(ledger.file_issues().items()):
            if shown not in read and shown in self.inputs.manifest.files:
                for values in rows:
                    i = issue(values)
                    self.log.report(i.at, i.severity, i.code, i.message)
        for entry in ledger.with_issues():
            if entry.key not in remade:
                for values in entry.issues:
                    i = issue(values)
                    self.log.report(i.at, i.severity, i.code, i.message)

    def _difference(
        self, namer: Namer, old: list[Entry], made: list[Entry], new_triples: set[Triple]
    ) -> tuple[set[Triple], set[Triple], dict[str, int], _Sums, persons_stage.Redecided]:
        """The triples to delete and insert, the build's new counts, the sums the ledger keeps, and the
        blocks of persons decided again.

        The shared nodes of the keys the old and new papers hold are made as they were and as they
        are: the sums of those keys from the ledger, less the old papers' and plus the new papers';
        the descriptions (repositories, links, introduced names) from the ledger entries of every
        paper the store says holds them."""
        ledger = self.base.ledger
        touched = shared_nodes.Touched.of([*old, *made])
        # the persons of the blocks the old and new papers' authorships lie in, decided again, and the
        # coauthor pairs of the papers whose persons may change
        redo = persons_stage.redecide(ledger, old, made)
        pair_changes = list(redo.pair_changes())
        touched.sums.update(("pair", a, b) for (a, b), _ in pair_changes)
        before = shared_nodes.stored(ledger, touched)
        after = shared_nodes.copied(before)
        for entry in old:
            shared_nodes.add(after, entry, -1)
        for entry in made:
            shared_nodes.add(after, entry)
        for (a, b), sign in pair_changes:
            after.add(("pair", a, b), sign)
        if any(n < 0 for sums in after.sums.values() for n in sums.values()):
            raise _Full("the ledger's sums do not add up")
        graph = stores.open_store(self.base.out)
        remade = {e.key for e in old}
        holders = shared_nodes.holding(graph, namer, touched.described, namer.paper("").value) - remade
        for entry in ledger.entries(holders):
            shared_nodes.describe(before, entry, touched.described)
            shared_nodes.describe(after, entry, touched.described)
        for entry in old:
            shared_nodes.describe(before, entry, touched.described)
        for entry in made:
            shared_nodes.describe(after, entry, touched.described)
        was = set(shared_nodes.triples(before, namer))
        was.update(persons_stage.triples(redo.before, namer))
        was.update(_stored(graph, namer, {e.key for e in old if not e.dropped}))
        will = set(shared_nodes.triples(after, namer)) | new_triples
        will.update(persons_stage.triples(redo.after, namer))
        counts = dict(ledger.counts)
        counts["papers"] += sum(1 for e in made if not e.dropped) - sum(1 for e in old if not e.dropped)
        counts["persons"] += redo.after.count() - redo.before.count()
        counts["coauthor_pairs"] += shared_nodes.pairs(after) - shared_nodes.pairs(before)
        keys = set(touched.sums)
        for channel in touched.whole:
            keys.update((channel, key, sub) for key, sub in before.sums.get(channel, {}))
            keys.update((channel, key, sub) for key, sub in after.sums.get(channel, {}))
        return was - will, will - was, counts, (keys, list(shared_nodes.rows(after))), redo


def _was(previous: Manifest, shown: str) -> tuple[str, str] | None:
    """The (shown path, SHA-256) the previous build read ``shown`` with, if it read it."""
    entry = previous.files.get(shown)
    return (shown, entry.digest) if entry is not None else None


def _apply(out: Path, delete: set[Triple], insert: set[Triple]) -> tuple[Path, ox.Store]:
    """A copy of the store with ``delete`` removed and ``insert`` added (not yet swapped in)."""
    staging = stores.staging(out)
    try:
        stores.open_store(out).backup(str(staging))
        graph = ox.Store(str(staging))
        for quad in delete:
            graph.remove(quad)
        graph.extend(insert)
        graph.flush()
    except OSError as e:
        shutil.rmtree(staging, ignore_errors=True)
        raise KgError(f"cannot write the store {out / STORE}: {os_message(e)}", code="write-failed") from e
    return staging, graph


def _stored(graph: ox.Store, namer: Namer, papers: set[str]) -> Iterator[Triple]:
    """The triples of ``papers`` as the store holds them: each paper's, and those of its authorships,
    source records and evidence (nodes no other paper shares)."""
    parts = (KG.authorship, PROV.wasDerivedFrom, KG.evidence)
    for key in sorted(papers):
        node = namer.paper(key)
        for quad in graph.quads_for_pattern(node, None, None, ox.DefaultGraph()):
            yield quad
            if quad.predicate in parts and isinstance(quad.object, ox.NamedNode):
                yield from graph.quads_for_pattern(quad.object, None, None, ox.DefaultGraph())
