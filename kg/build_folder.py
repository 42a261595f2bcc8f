"""The build folder: what ``kg build --out OUT`` checks, writes and commits.

A build folder holds what ``kg.layout`` names: ``graph.ttl`` and the pages (``kg.build_pages``), the
store, the cache of read files, the ledger and the manifest.  :func:`build_into` is the one
entry point, for ``kg build`` and for ``kg.build(paths, out)`` alike: it refuses a typo before
anything is read or written (:func:`kg.readers.discover.check_inputs`, :func:`check_out`), builds
into a staging store beside the folder, refuses a build that lost its inputs (:func:`check_replace`)
and commits everything so that a failure or a kill at any point leaves a usable folder
(:func:`write_outputs`).  See docs/builds.md.
"""

from __future__ import annotations

import contextlib
import functools
import os
import shutil
import time
import traceback
from collections.abc import Iterable
from dataclasses import replace
from pathlib import Path

from kg import delta
from kg import store as stores
from kg.build_result import Build
from kg.cache import Manifest, cache_name, keys_name
from kg.errors import IssueLog, KgError, UsageError, os_message
from kg.executors import Progress, collector_paused
from kg.layout import CACHE, LEDGER, LEGACY, MANIFEST, NAMES, SITE, STORE
from kg.lock import held
from kg.pipeline import BuildOptions, run
from kg.readers.discover import check_inputs, shown_path
from kg.records import Location


def build_into(
    paths: Iterable[Path],
    out: Path,
    options: BuildOptions | None = None,
    log: IssueLog | None = None,
    progress: Progress | None = None,
    shards: Path | None = None,
) -> tuple[Build, list[Path]]:
    """Build ``paths`` into the build folder ``out`` (reusing its cache unless ``options.full``), and
    with ``shards`` also write the graph as sorted N-Quads shards there; the build and the files written.

    Raises :class:`~kg.errors.UsageError` for a missing input or a folder kg did not build (nothing
    read or written), :class:`~kg.errors.KgError` when the folder cannot be written or the build is
    refused (the previous build stays).
    """
    paths = list(paths)
    check_inputs(paths)
    check_out(out)
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise KgError(
            f"cannot create the output folder: {e.strerror or e}", Location(str(out), 0), code="write-failed"
        ) from e
    with held(out, "kg build"):  # one build at a time in a folder (kg.lock)
        return _build_held(paths, out, options, log, progress, shards)


def _build_held(
    paths: list[Path],
    out: Path,
    options: BuildOptions | None,
    log: IssueLog | None,
    progress: Progress | None,
    shards: Path | None,
) -> tuple[Build, list[Path]]:
    options = replace(options or BuildOptions(), cache=out, store=stores.staging(out))
    log = log if log is not None else IssueLog()
    if shards is None:
        result = run(paths, options, log, progress, delta.over(out, options, log, progress))
    else:
        result = replace(run(paths, options, log, progress), full_because="--shards")
    if result.delta is not None and not result.delta["papers_made"] + result.delta["papers_removed"]:
        discard_build(result, out)  # nothing changed: the folder holds this build already
        result.handle.store = stores.open_store(out)
        return result, []
    check_replace(result, out)  # before the shards too: a build that lost its inputs writes nothing
    from kg.shards import write_shards

    # before the commit, which moves the staging store into OUT/store
    shard_files = write_shards(result.store, shards) if shards is not None else []
    written, timings = commit(result, out)
    if (out / SITE).is_dir():  # the views the build drew open the site's pages (kg site did it before)
        from kg.viz import link_views

        link_views(out / SITE)
    result = replace(result, timings={**result.timings, **timings}, store_path=out / STORE)
    return result, written + shard_files


def check_out(out: Path) -> None:
    """Refuse a build folder that holds what a build replaces (a ``graph.ttl``, a ``store/``, a
    ``cache/`` ...) but that kg did not build: a wrong ``--out`` never overwrites someone's files.

    A folder is kg's when its manifest reads or its store carries a build's generation stamp;
    a new, empty or unrelated folder is fine (a build only writes ``kg.layout.NAMES`` there).
    Raises :class:`~kg.errors.UsageError` (``not-a-build-folder``).
    """
    try:
        present = sorted(n for n in NAMES if n != "export" and os.path.lexists(out / n))
    except OSError:
        return  # not listable: writing there fails with its own message
    if not present or Manifest.load(out).extraction or stores.generation(out) is not None:
        return
    raise UsageError(
        f"folder holds {', '.join(present)} but kg did not build it; a build would replace them "
        "(expected a new or empty folder, or one kg built: choose another --out)",
        Location(shown_path(out), 0),
        code="not-a-build-folder",
    )


def held_papers(out: Path) -> int | None:
    """How many papers the build in ``out`` holds: 0 when none, None when it cannot tell (a
    damaged manifest beside a graph) and so must assume some."""
    previous = Manifest.load(out)
    if previous.papers or previous.extraction:
        return len(previous.papers)
    return None if any(os.path.lexists(out / n) for n in ("graph.ttl", STORE)) else 0


_UNREADABLE = ("unreadable-file", "unreadable-folder")


def check_replace(result: Build, out: Path) -> None:
    """Refuse to replace the build in ``out`` with one that lost its inputs rather than read them.

    A build that read no record at all, or could not read a file the previous build read
    (``unreadable-file``, ``unreadable-folder``: a permission or a disk going wrong, not a file
    removed), leaves ``out`` as it was; the refused build is discarded and ``KgError``
    (``outputs-kept``) says why.  A file removed, or one that now fails to decode, is a change
    the build takes (and reports).
    """
    unreadable = sorted({i.at.path for i in result.log.issues if i.code in _UNREADABLE})
    if result.counts.get("records", 0) > 0 and not unreadable:
        return  # the common case: no manifest to read
    held = held_papers(out)
    reason = ""
    if result.counts.get("records", 0) == 0 and held != 0:
        kept = "the previous build" if held is None else f"its {held} papers"
        reason = f"build read no records; {shown_path(out)} keeps {kept} (expected at least one record)"
    elif unreadable:
        previous = Manifest.load(out).files
        lost = [
            f for f in sorted(previous) if any(f == u or f.startswith(u.rstrip("/") + "/") for u in unreadable)
        ]
        if lost:
            reason = (
                f"{len(lost)} file(s) the previous build read cannot be read now (first: {lost[0]}); "
                f"{shown_path(out)} keeps the previous build (expected them readable, or removed)"
            )
    if not reason:
        return
    discard_build(result, out)
    raise KgError(reason, Location(shown_path(out), 0), code="outputs-kept")


def discard_build(result: Build, out: Path) -> None:
    """Drop a build that will not be written into ``out``: its staging store there (see
    :func:`kg.store.staging`; a store elsewhere is the caller's) and its spilled cache entries."""
    at = result.store_path
    result.handle.release()  # the last handle on the staging store
    if at is not None and at.parent == out and at.name != STORE:
        shutil.rmtree(at, ignore_errors=True)
    if result.ledger is not None:
        result.ledger.close()
    result.fresh.close()
    result.fresh_keys.close()


def write_outputs(result: Build, out: Path) -> list[Path]:
    """Write the outputs of a build into ``out`` (see :func:`commit`); the files and folders written."""
    return commit(result, out)[0]


def commit(result: Build, out: Path) -> tuple[list[Path], dict[str, float]]:
    """Write the outputs of a build into ``out``: each of ``kg.layout.OUTPUTS``, the persisted
    ``store/``, the cache, the ledger and the manifest, so that a failure or a kill at any point
    leaves a usable folder; the files and folders written, and the seconds each took.

    Everything is first written beside its final name (synced temporary files, cache entries,
    the staging store, stamped with the build's generation: the SHA-256 of the new graph.ttl, and a
    new ledger, or a delta's changes to it in a transaction left open); nothing the previous build
    wrote has changed yet, so a full disk or a read-only folder leaves it whole.  Then come the
    renames, each atomic: the store is swapped in, then graph.ttl, the pages, the ledger (renamed, or
    its transaction committed) and last the manifest (which records the generation too) are put over
    theirs.  Last, the old store and stale cache entries are removed.  A build killed in between
    leaves every file complete, from one build or the other; which ones are new shows in the
    generations (:func:`kg.store.generation`, ``Manifest.generation``, the ledger's), and the next
    build removes the leftovers (:func:`kg.store.clean`) and writes everything again.
    """
    with collector_paused():
        return _commit(result, out)


def _commit(result: Build, out: Path) -> tuple[list[Path], dict[str, float]]:
    try:
        check_out(out)
    except UsageError:
        discard_build(result, out)
        raise
    check_replace(result, out)
    from kg.build_pages import BUILD_OUTPUTS, PAGES_APART, PagesApart
    from kg.files import Staged, adopt, discard, stage, sync_folder
    from kg.files import commit as put

    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise KgError(f"cannot create output folder {out}: {os_message(e)}", code="write-failed") from e
    # a build's own staging store is moved in place; any other store is copied
    at = result.store_path
    built_at = at if at is not None and at.parent == out and at.name != STORE else None
    stores.clean(out)
    timings: dict[str, float] = {}
    staged: list[Staged] = []
    ledger = result.ledger.stage(out) if result.ledger is not None else None
    old: Path | None = None
    swapped = False
    apart = (
        [name for name in BUILD_OUTPUTS if name.endswith(".html") and name not in result.lazy]
        if at is not None and result.triples >= PAGES_APART
        else []
    )
    try:
        with PagesApart(at, out, apart) if at is not None and apart else contextlib.nullcontext() as pages:
            for name, serialize in BUILD_OUTPUTS.items():
                if name in apart or name in result.lazy:
                    continue
                started = time.perf_counter()
                if name == "graph.ttl" and result.turtle is not None:
                    # moved out of the staging store before the store is swapped in
                    staged.append(adopt(result.turtle, out / name, result.turtle_sha256))
                else:
                    staged.append(stage(out / name, functools.partial(serialize, result)))
                timings[name] = time.perf_counter() - started
            generation = result.generation or next(
                item.sha256 for item in staged if item.target.name == "graph.ttl"
            )
            started = time.perf_counter()
            write_cache(result, out)  # while the pages are drawn apart
            timings["cache"] = time.perf_counter() - started
            if pages is not None:
                for name, (page, seconds) in zip(apart, pages.staged(), strict=True):
                    staged.append(page)
                    timings[name] = seconds
        manifest = replace(result.manifest, generation=generation)
        started = time.perf_counter()
        if ledger is not None:
            ledger.prepare(generation)
        timings["ledger"] = time.perf_counter() - started
        last = stage(out / MANIFEST, lambda f: f.write(manifest.dumps()))  # renamed last
        staged.append(last)
        started = time.perf_counter()
        fresh = stores.prepare(result.store, out, built_at, generation)
        if built_at is not None:
            result.handle.release()  # the last handle on the staging store: closed before it moves
        old = stores.swap(fresh, out)
        swapped = True
        for item in staged:
            if item is last and ledger is not None:
                ledger.commit()
            put(item)
        for name in result.lazy:  # not rewritten: no page of an older graph is left to mislead
            (out / name).unlink(missing_ok=True)
        if ledger is None:
            (out / LEDGER).unlink(missing_ok=True)  # the next build is a full one
        for name in LEGACY:
            (out / name).unlink(missing_ok=True)
        sync_folder(out)
    except BaseException as e:
        for item in staged:
            discard(item)
        if ledger is not None:
            ledger.discard()
        if not swapped and built_at is not None:
            # a failed build's store is deleted: hold none of its files open (the frames' locals would)
            traceback.clear_frames(e.__traceback__)
            result.handle.release()
            shutil.rmtree(built_at, ignore_errors=True)
        if old is not None:
            shutil.rmtree(old, ignore_errors=True)
        raise
    if built_at is not None or at == out / STORE:  # the store the build holds was moved or replaced
        result.handle.store = stores.open_store(out)
    if old is not None:
        shutil.rmtree(old, ignore_errors=True)
    prune_cache(result, out)
    timings["store"] = time.perf_counter() - started
    return [out / name for name in BUILD_OUTPUTS if name not in result.lazy] + [out / STORE], timings


def write_cache(result: Build, out: Path) -> None:
    """Write the cache entries of freshly read files (before the new manifest names them).

    Entries are named by file path, content and extraction key, so an entry the previous
    manifest names is never changed, only written again with the same content.
    """
    from kg.files import sweep, write_bytes

    folder = out / CACHE
    sweep(folder)
    extraction = result.manifest.extraction
    for entries, name in ((result.fresh, cache_name), (result.fresh_keys, keys_name)):
        for shown, blob in entries.items():
            entry = result.manifest.files.get(shown)
            if entry is not None:
                write_bytes(folder / name(shown, entry.digest, extraction), blob)


def prune_cache(result: Build, out: Path) -> None:
    """Remove the cache entries the manifest no longer names (after it was written; best effort)."""
    folder = out / CACHE
    extraction = result.manifest.extraction
    keep = {
        name(shown, entry.digest, extraction)
        for shown, entry in result.manifest.files.items()
        for name in (cache_name, keys_name)
    }
    try:
        stale = [e for e in folder.iterdir() if e.name not in keep and not e.name.startswith(".")]
    except OSError:
        return
    for entry in stale:
        with contextlib.suppress(OSError):  # a stale entry only takes space: the next build tries again
            entry.unlink(missing_ok=True)
