"""Crash safety: ``kg build`` killed at any point, a full disk, a read-only output folder (issue #9).

After a kill, every output of a build folder is complete and from the previous build or the new
one, in the commit order (store, graph.ttl, pages, manifest), the store is stamped with the
generation of the graph.ttl it goes with, so a reader can tell a half-committed folder, and the
next build cleans up and gives the new outputs byte for byte.  A write that fails (full disk,
read-only folder) is one line on stderr, exit code 1, and leaves the previous outputs as they were.

More kill points by hand, e.g. ``KG_FAULT_KILLS=100 pytest tests/test_faults.py -k random -s``:
``KG_FAULT_KILLS`` (default 10) random SIGKILLs of a ``kg build`` subprocess, ``KG_FAULT_PAPERS``
(default 40) synthetic papers in the corpus it builds, ``KG_FAULT_SEED`` (default 9) the seed of
the kill points.
"""

from __future__ import annotations

import builtins
import errno
import hashlib
import multiprocessing
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pyoxigraph as ox
import pytest
from typer.testing import CliRunner

import kg.files
from kg import store as stores
from kg.build_folder import write_outputs
from kg.cache import CACHE_DIR, MANIFEST, Manifest, cache_name, keys_name, loads_extract, loads_identities
from kg.cli import app
from kg.errors import IssueLog, KgError
from kg.exporters import EXPORTERS, default_target
from kg.pipeline import BuildOptions, build
from tests.conftest import ROOT, SEEDS

sys.path.insert(0, str(ROOT / "benchmarks"))

import synth

KILLS = int(os.environ.get("KG_FAULT_KILLS", "10"))
PAPERS = int(os.environ.get("KG_FAULT_PAPERS", "40"))
SEED = int(os.environ.get("KG_FAULT_SEED", "9"))

PAGES = ("coauthors.html", "topics.html")
LEFTOVER = re.compile(r"\.(.+)\.([0-9]+)-[a-z0-9_]*\.tmp")
"""What a killed kg process may leave behind (``kg.exporters.temp_prefix``); nothing else may appear."""
CHEAP = ("authors", "subjects", "areas", "links")
"""Extractors without spaCy's warm-up, for the many small in-process builds."""
ENOSPC = os.strerror(errno.ENOSPC)
EROFS = os.strerror(errno.EROFS)
ENOTDIR = os.strerror(errno.ENOTDIR)

runner = CliRunner()


# --- what a build folder holds ----------------------------------------------------------------------


@dataclass(frozen=True)
class Outputs:
    """The outputs of a build folder, as bytes, and its store's statements."""

    ttl: bytes
    pages: tuple[bytes, ...]
    manifest: bytes
    quads: bytes
    """Every statement of the store, as sorted N-Quads lines."""
    stamp: str | None

    @property
    def generation(self) -> str:
        return hashlib.sha256(self.ttl).hexdigest()


def store_quads(out: Path) -> bytes:
    store = stores.open_store(out)
    dump = store.dump(format=ox.RdfFormat.N_QUADS)
    del store
    assert dump is not None
    lines = dump.splitlines()
    return b"\n".join(sorted(lines))


def snapshot(out: Path) -> Outputs:
    return Outputs(
        ttl=(out / "graph.ttl").read_bytes(),
        pages=tuple((out / name).read_bytes() for name in PAGES),
        manifest=(out / MANIFEST).read_bytes(),
        quads=store_quads(out),
        stamp=stores.generation(out),
    )


def hidden(out: Path) -> list[str]:
    names = [p.name for p in out.iterdir() if p.name.startswith(".")]
    if (out / CACHE_DIR).is_dir():
        names += [f"cache/{p.name}" for p in (out / CACHE_DIR).iterdir() if p.name.startswith(".")]
    return sorted(names)


def check_cache(out: Path, exact: bool = False) -> None:
    """Every entry the manifest names is there and readable (with ``exact``: and nothing else)."""
    manifest = Manifest.load(out)
    assert manifest.files, "manifest unreadable"
    names = set()
    for shown, entry in manifest.files.items():
        name = cache_name(shown, entry.digest, manifest.extraction)
        names.add(name)
        _, extract = loads_extract((out / CACHE_DIR / name).read_bytes())
        assert len(extract.items) == entry.records, shown
        keys = keys_name(shown, entry.digest, manifest.extraction)
        names.add(keys)
        assert len(loads_identities((out / CACHE_DIR / keys).read_bytes(), shown, entry.digest)) == entry.records
    if exact:
        assert {p.name for p in (out / CACHE_DIR).iterdir()} == names


def check_interrupted(out: Path, old: Outputs, new: Outputs) -> str:
    """The folder of a build of ``new`` over ``old`` that was killed or failed; returns what was new."""
    now = snapshot(out)  # every file readable, the store opens
    assert now.ttl in (old.ttl, new.ttl), "graph.ttl is neither the previous nor the new one"
    assert now.quads in (old.quads, new.quads), "the store holds neither the previous nor the new graph"
    for name, page, before, after in zip(PAGES, now.pages, old.pages, new.pages, strict=True):
        assert page in (before, after), f"{name} is neither the previous nor the new one"
    assert now.manifest in (old.manifest, new.manifest), (
        "manifest.json is neither the previous nor the new one"
    )
    is_new = [
        now.quads == new.quads,
        now.ttl == new.ttl,
        *(page == after for page, after in zip(now.pages, new.pages, strict=True)),
        now.manifest == new.manifest,
    ]
    # committed in this order: once an output is still the previous one, so is every later one
    assert is_new == sorted(is_new, reverse=True), f"outputs committed out of order: {is_new}"
    # the store's stamp names the graph.ttl it goes with, the manifest the build it completed
    assert now.stamp == (new.generation if is_new[0] else old.generation)
    assert Manifest.load(out).generation == (new.generation if is_new[-1] else old.generation)
    # and so a reader can tell a folder whose outputs are not all of one build
    consistent = now.stamp == Manifest.load(out).generation == now.generation
    assert consistent == (all(is_new) or not any(is_new))
    check_cache(out)
    strays = [name for name in hidden(out) if not LEFTOVER.fullmatch(name.removeprefix("cache/"))]
    assert not strays, f"unexpected files: {strays}"
    return "new" if all(is_new) else "old" if not any(is_new) else f"{sum(is_new)}/{len(is_new)} new"


def check_complete(out: Path, new: Outputs) -> None:
    """A folder a build completed: the new outputs byte for byte, nothing left over."""
    now = snapshot(out)
    assert now.ttl == new.ttl and now.pages == new.pages and now.manifest == new.manifest
    assert now.quads == new.quads
    assert now.stamp == new.generation == Manifest.load(out).generation
    assert hidden(out) == [], "leftovers of the interrupted build remain"
    check_cache(out, exact=True)


def build_in_process(inputs: list[Path], out: Path, cheap: bool = True) -> None:
    """One build as ``kg build -j 1`` makes it (with ``cheap``: fewer extractors, no taxonomies)."""
    extra: dict[str, Any] = {"extractors": CHEAP, "taxonomies": False} if cheap else {}
    options = BuildOptions(cache=out, store=stores.staging(out), workers=1, **extra)
    write_outputs(build(inputs, options, IssueLog()), out)


def reset(out: Path, previous: Path) -> None:
    """``out`` becomes a copy of the build folder ``previous``."""
    if out.exists():
        shutil.rmtree(out)
    shutil.copytree(previous, out, symlinks=True)


# --- 1. SIGKILL at random points of ``kg build`` ------------------------------------------------------


def child(target: Callable[..., None], *args: Any) -> multiprocessing.process.BaseProcess:
    """Start ``target(*args)`` in a new process, forked from a server that imported kg once (so a
    kill lands in the build, not in Python's start-up) and never opened a store; the server is
    started by this process, not forked from it, so no store of this one is shared."""
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload(["kg.pipeline", "kg.cli", "kg.project", "pytest"])
    process = context.Process(target=target, args=args)
    process.start()
    return process


def _kg(work: str, stderr: str, *argv: str) -> None:
    """(In a child process) the ``kg`` command with ``argv``, its stderr to the file ``stderr``."""
    os.chdir(work)
    fd = os.open(stderr, os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
    os.dup2(fd, 2)
    sys.argv = ["kg", *argv]
    from kg.cli import main

    main()


def _writing(out: Path) -> bool:
    """Whether a build is writing its outputs in ``out`` (its graph.ttl is on the way)."""
    try:
        return any(p.name.startswith(".graph.ttl.") for p in out.iterdir())
    except FileNotFoundError:
        return False


@dataclass
class Timeline:
    """When, in seconds from its start, a build reached each stage (as seen from outside)."""

    outputs: float = 0.0
    committed: float = 0.0
    end: float = 0.0


def run_build(
    work: Path,
    out: Path,
    previous: str | None = None,
    kill: Callable[[float, Path], bool] | None = None,
    quiet: bool = True,
) -> tuple[int | None, Timeline, str]:
    """Run ``kg build in --out OUT -j 1 -q`` in ``work``, noting when it writes its outputs and swaps
    in the store (whose generation was ``previous``); ``kill(seconds, out)`` says when to SIGKILL it."""
    timeline = Timeline()
    stderr = work / "stderr.txt"
    started = time.monotonic()
    argv = ["build", "in", "--out", str(out), "-j", "1"] + (["-q"] if quiet else [])
    process = child(_kg, str(work), str(stderr), *argv)
    while process.is_alive():
        now = time.monotonic() - started
        if not timeline.outputs and _writing(out):
            timeline.outputs = now
        if not timeline.committed and previous and stores.generation(out) not in (None, previous):
            timeline.committed = now
        if kill is not None and kill(now, out):
            process.kill()
            break
        time.sleep(0.002)
    process.join(300)
    timeline.end = time.monotonic() - started
    return process.exitcode, timeline, stderr.read_text(errors="replace")


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, Outputs, Outputs, Timeline]:
    """A folder ``work/in`` (seeds and a synthetic corpus), the build folder of it with one more
    folder of papers (the previous build), the outputs of it and of a build without that folder
    (the new build), and when that build reached each stage."""
    work = tmp_path_factory.mktemp("faults")
    shutil.copytree(SEEDS, work / "in" / "seeds")
    synth.generate(PAPERS, work / "in" / "synth", seed=3)
    synth.generate(max(20, PAPERS // 5), work / "in" / "extra", seed=4)
    previous = work / "previous"
    code, _, err = run_build(work, previous)
    assert code == 0, err
    old = snapshot(previous)
    shutil.rmtree(work / "in" / "extra")  # the new build: fewer papers, stale cache entries
    reset(work / "reference", previous)
    code, timeline, err = run_build(work, work / "reference", previous=old.generation, quiet=False)
    assert code == 0, err
    assert "delta build:" in err, "the new build is a delta over the previous one (kg.delta)"
    new = snapshot(work / "reference")
    assert old.ttl != new.ttl and old.quads != new.quads and old.pages != new.pages
    return work, previous, old, new, timeline


CHAIN = 2
"""Kills in a row over the same folder (the next killed build starts from what the last one left)
before a build runs to the end; with 1, every kill is followed by a complete build."""


def test_build_killed_at_random_points(
    corpus: tuple[Path, Path, Outputs, Outputs, Timeline], monkeypatch: pytest.MonkeyPatch
) -> None:
    """SIGKILL ``kg build`` at seeded random points over a folder with a previous good build: the
    folder stays readable and consistent, and the next build gives the new outputs byte for byte."""
    work, previous, old, new, timeline = corpus
    monkeypatch.chdir(work)
    rng = random.Random(SEED)
    out = work / "out"
    phases: Counter[str] = Counter()
    for i in range(KILLS):
        if i % CHAIN == 0:
            reset(out, previous)
        # a third of the kills anywhere in the build, the others once it writes its outputs,
        # half of those once it has swapped the store in (the renames and the clean-up)
        aim = ("anywhere", "outputs", "committed")[i % 3]
        if aim == "anywhere":
            delay = rng.uniform(0, 0.9 * timeline.end)
        elif aim == "outputs":
            delay = rng.uniform(0, max(0.01, timeline.end - timeline.outputs))
        else:  # what follows the swap takes a few milliseconds, then the process exits
            delay = rng.uniform(0, min(0.3, max(0.01, (timeline.end - timeline.committed) / 2)))
        fired: list[float] = []

        def kill(
            now: float, folder: Path, aim: str = aim, delay: float = delay, fired: list[float] = fired
        ) -> bool:
            if not fired and (
                aim == "anywhere"
                or (aim == "outputs" and _writing(folder))
                or (aim == "committed" and stores.generation(folder) == new.generation)
            ):
                fired.append(now)
            return bool(fired) and now - fired[0] >= delay

        code, _, err = run_build(work, out, kill=kill)
        assert "Traceback" not in err, err
        phase = check_interrupted(out, old, new) if code == -signal.SIGKILL else "finished"
        phases[f"{aim}: {phase}"] += 1
        if i % CHAIN == CHAIN - 1 or i == KILLS - 1:
            build_in_process([Path("in")], out, cheap=False)  # the next build, to the end
            check_complete(out, new)
    print(f"\n{KILLS} kills of kg build ({PAPERS} synthetic papers), the state each left:")
    for phase, n in sorted(phases.items()):
        print(f"  {n:4d}  {phase}")


# --- 2. SIGKILL at every step of writing the outputs ---------------------------------------------------


def _killed_write(
    work: str, inputs: list[str], out: str, kill_at: int, exchange: bool, steps: str, delta: bool = False
) -> None:
    """(In a child process) build (with ``delta``: as a delta over the build in ``out``), then write the
    outputs, killed by SIGKILL before the ``kill_at``-th file-system step (rename, sync, removal);
    records the steps it took."""
    os.chdir(work)
    options = BuildOptions(
        cache=Path(out), store=stores.staging(Path(out)), extractors=CHEAP, taxonomies=False, workers=1
    )
    if delta:
        from kg import delta as deltas

        deltas.MOST = 1.0  # the seed pages are few: a delta however much changes
        made = deltas.rebuild([Path(p) for p in inputs], Path(out), options, IssueLog())
        assert not isinstance(made, str), made
        result = made
    else:
        result = build([Path(p) for p in inputs], options, IssueLog())
    taken: list[str] = []

    def hooked(name: str, function: Callable[..., Any]) -> Callable[..., Any]:
        def step(*args: Any, **kwargs: Any) -> Any:
            taken.append(name)
            if len(taken) == kill_at:
                os.kill(os.getpid(), signal.SIGKILL)
            return function(*args, **kwargs)

        return step

    os.replace = hooked("replace", os.replace)
    os.rename = hooked("rename", os.rename)
    os.fsync = hooked("fsync", os.fsync)
    shutil.rmtree = hooked("rmtree", shutil.rmtree)  # type: ignore[assignment]
    Path.unlink = hooked("unlink", Path.unlink)  # type: ignore[method-assign]
    if exchange:
        kg.files.exchange = hooked("exchange", kg.files.exchange)
    else:  # as where folders cannot be exchanged
        kg.files.exchange = lambda a, b: False
    write_outputs(result, Path(out))
    with builtins.open(steps, "w") as f:
        f.write("\n".join(taken))


def run_killed_write(
    work: Path, inputs: list[str], out: Path, kill_at: int, exchange: bool = True, delta: bool = False
) -> list[str]:
    """Run :func:`_killed_write` in a child process; returns the steps it took when not killed."""
    steps = work / "steps.txt"
    steps.unlink(missing_ok=True)
    process = child(_killed_write, str(work), inputs, str(out), kill_at, exchange, str(steps), delta)
    process.join(300)
    assert process.exitcode == (-signal.SIGKILL if kill_at else 0), process.exitcode
    return steps.read_text().split("\n") if not kill_at else []


@pytest.fixture(scope="module")
def small(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, Outputs, Outputs]:
    """Two small builds: the previous one (two seed pages), the new one (one removed, another added)."""
    work = tmp_path_factory.mktemp("steps")
    for seed in sorted(SEEDS.iterdir()):
        shutil.copy(seed, work / seed.name)
    names = sorted(p.name for p in SEEDS.iterdir())
    old_inputs, new_inputs = [Path(names[2]), Path(names[1])], [Path(names[2]), Path(names[0])]
    old_dir, new_dir = work / "previous", work / "new"
    here = Path.cwd()
    os.chdir(work)
    try:
        build_in_process(old_inputs, old_dir)
        reset(new_dir, old_dir)
        build_in_process(new_inputs, new_dir)
    finally:
        os.chdir(here)
    old, new = snapshot(old_dir), snapshot(new_dir)
    assert old.ttl != new.ttl and old.quads != new.quads
    return work, old_dir, old, new


def kill_each(
    small: tuple[Path, Path, Outputs, Outputs],
    inputs: list[str],
    steps: list[str],
    tried: list[int],
    exchange: bool = True,
    delta: bool = False,
) -> list[str]:
    """Kill the writing before each step of ``tried`` in turn, from the previous build each time;
    check the folder each kill left, then that a full build after it completes it.  What each left."""
    work, previous, old, new = small
    out = work / "out"
    phases = []
    for k in tried:
        reset(out, previous)
        run_killed_write(work, inputs, out, k, exchange, delta)
        phases.append(f"{steps[k - 1]}: {check_interrupted(out, old, new)}")
        build_in_process([Path(n) for n in inputs], out)
        check_complete(out, new)
    return phases


@pytest.mark.parametrize("exchange", [True, False], ids=["exchange", "two-renames"])
def test_build_killed_at_every_step_of_writing(
    small: tuple[Path, Path, Outputs, Outputs], exchange: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Kill the writing of a build's outputs before each of its renames, syncs and removals in turn.

    ``two-renames`` is the fallback where folders cannot be exchanged atomically (not Linux): killed
    between its two renames, the folder has no ``store/`` for a moment, and readers find the previous
    store where it was set aside; only the steps around the swap are tried there."""
    work, previous, _, new = small
    monkeypatch.chdir(work)
    names = sorted(p.name for p in SEEDS.iterdir())
    inputs = [names[2], names[0]]
    out = work / "out"
    reset(out, previous)
    steps = run_killed_write(work, inputs, out, 0, exchange)
    check_complete(out, new)
    assert {"replace", "fsync", "rmtree", "unlink"} <= set(steps)
    assert ("exchange" in steps) == exchange
    if exchange:
        tried = list(range(1, len(steps) + 1))
    else:  # around the two renames of the swap
        swap = steps.index("rename")
        tried = [k for k in range(1, len(steps) + 1) if 0 <= k - 1 - swap <= 2]
    phases = kill_each(small, inputs, steps, tried, exchange=exchange)
    states = {p.split(": ")[1] for p in phases}
    assert "old" in states and states - {"old", "new"}, "no kill between the first and the last rename"
    print(f"\n{len(phases)} kills at steps {phases}")


def test_delta_killed_at_every_step_of_writing(
    small: tuple[Path, Path, Outputs, Outputs], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The same for a delta build (``kg.delta``: a seed page removed, another added, applied to a copy
    of the previous store): killed before each step of writing, the folder holds the previous build
    or the new one, and a full build after it gives what the delta gives, byte for byte."""
    work, previous, _, new = small
    monkeypatch.chdir(work)
    names = sorted(p.name for p in SEEDS.iterdir())
    inputs = [names[2], names[0]]
    out = work / "out"
    reset(out, previous)
    steps = run_killed_write(work, inputs, out, 0, delta=True)
    check_complete(out, new)  # the delta's outputs are the full build's, byte for byte
    phases = kill_each(small, inputs, steps, list(range(1, len(steps) + 1)), delta=True)
    states = {p.split(": ")[1] for p in phases}
    assert "old" in states and "new" in states and states - {"old", "new"}
    print(f"\n{len(phases)} kills of a delta at steps {phases}")


def test_reader_finds_a_store_set_aside(small: tuple[Path, Path, Outputs, Outputs], tmp_path: Path) -> None:
    """Killed between the two renames of the fallback swap: ``kg query`` reads the store set aside."""
    _, previous, old, _ = small
    out = tmp_path / "out"
    reset(out, previous)
    (out / "store").rename(out / ".store.99999999-old.tmp")  # no such process
    assert store_quads(out) == old.quads
    assert stores.generation(out) == old.generation
    result = runner.invoke(app, ["query", "SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }", "--out", str(out)])
    assert result.exit_code == 0, result.output
    stores.clean(out)  # as the next build does first
    assert (out / "store").is_dir() and hidden(out) == []


# --- 3. a full disk and a read-only output folder ------------------------------------------------------


def full_disk(monkeypatch: pytest.MonkeyPatch, name: str) -> None:
    """Temporary files whose name holds ``name`` ("" for any) are written to /dev/full (ENOSPC)."""
    if not os.path.exists("/dev/full"):
        pytest.skip("no /dev/full here")
    create = tempfile.mkstemp

    def mkstemp(*args: Any, **kwargs: Any) -> tuple[int, str]:
        fd, path = create(*args, **kwargs)
        if name in str(kwargs.get("prefix", "")):
            full = os.open("/dev/full", os.O_WRONLY)
            os.dup2(full, fd)
            os.close(full)
        return fd, path

    monkeypatch.setattr(tempfile, "mkstemp", mkstemp)


def store_full(monkeypatch: pytest.MonkeyPatch) -> None:
    """The store's disk fills up while the graph is loaded (the error Oxigraph raises then)."""

    def load(store: ox.Store, quads: Any) -> int:
        raise OSError(
            "IO error: No space left on device: While appending to file: /x/000012.sst: No space left on device"
        )

    def loader(self: stores.Loader, item: Any) -> None:  # an on-disk build's loader thread
        load(ox.Store(), item)

    monkeypatch.setattr(stores, "load", load)
    monkeypatch.setattr(stores.Loader, "_load", loader)


def stamp_full(monkeypatch: pytest.MonkeyPatch) -> None:
    def open_full(path: Any, *args: Any, **kwargs: Any) -> Any:
        if str(path).endswith(stores.GENERATION):
            return builtins.open("/dev/full", *args, **kwargs)
        return builtins.open(path, *args, **kwargs)

    monkeypatch.setattr(stores, "open", open_full, raising=False)


def read_only(monkeypatch: pytest.MonkeyPatch, what: str) -> None:
    """Renames (``replace``) or the store swap (``exchange``) fail as on a read-only file system."""

    def refuse(*args: Any, **kwargs: Any) -> Any:
        raise OSError(errno.EROFS, EROFS, str(args[-1]))

    if what == "exchange":
        monkeypatch.setattr(kg.files, "exchange", refuse)
    else:
        replace = os.replace
        monkeypatch.setattr(
            os, "replace", lambda a, b, **k: refuse(a, b) if Path(b).name == what else replace(a, b, **k)
        )


FAULTS: dict[str, tuple[Callable[[pytest.MonkeyPatch], None], str]] = {
    "graph.ttl": (lambda m: full_disk(m, ".graph.ttl."), f"graph.ttl: {ENOSPC}"),
    "page": (lambda m: full_disk(m, ".topics.html."), f"topics.html: {ENOSPC}"),
    "cache entry": (lambda m: full_disk(m, ".json.gz."), f".json.gz: {ENOSPC}"),
    "manifest": (lambda m: full_disk(m, ".manifest.json."), f"manifest.json: {ENOSPC}"),
    "store": (store_full, f"store: {ENOSPC}"),
    "store stamp": (stamp_full, f"store: {ENOSPC}"),
    "store swap": (lambda m: read_only(m, "exchange"), f"store: {EROFS}"),
}
"""Where a build's writing fails: what is injected, and what the message says."""


@pytest.mark.parametrize("fault", list(FAULTS))
def test_write_failure_leaves_previous_build(
    small: tuple[Path, Path, Outputs, Outputs], fault: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A build whose writing fails (disk full, read-only) before its outputs are committed reports
    the file, leaves the previous outputs byte for byte and no temporary file; the next build works."""
    work, previous, old, new = small
    monkeypatch.chdir(work)
    names = sorted(p.name for p in SEEDS.iterdir())
    inputs = [Path(names[2]), Path(names[0])]
    out = tmp_path / "out"
    reset(out, previous)
    before = {p.name: p.read_bytes() for p in (out / CACHE_DIR).iterdir()}
    inject, message = FAULTS[fault]
    with monkeypatch.context() as m:
        inject(m)
        with pytest.raises(KgError) as info:
            build_in_process(inputs, out)
    assert info.value.code == "write-failed"
    assert message in str(info.value) and "\n" not in str(info.value)
    now = snapshot(out)
    assert now == old, "the previous outputs changed"
    assert hidden(out) == [], "temporary files left behind"
    for name, data in before.items():  # new cache entries may stay (the old manifest does not name them)
        assert (out / CACHE_DIR / name).read_bytes() == data
    check_cache(out)
    build_in_process(inputs, out)
    check_complete(out, new)


@pytest.mark.parametrize("target", ["graph.ttl", "coauthors.html", "manifest.json"])
def test_rename_refused_midway(
    small: tuple[Path, Path, Outputs, Outputs], target: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The folder turns read-only after the store was swapped in: the build fails with one line,
    the folder is as consistent as after a kill, and the next build completes it."""
    work, previous, old, new = small
    monkeypatch.chdir(work)
    names = sorted(p.name for p in SEEDS.iterdir())
    inputs = [Path(names[2]), Path(names[0])]
    out = tmp_path / "out"
    reset(out, previous)
    with monkeypatch.context() as m:
        read_only(m, target)
        with pytest.raises(KgError) as info:
            build_in_process(inputs, out)
    assert info.value.code == "write-failed" and f"{target}: {EROFS}" in str(info.value)
    check_interrupted(out, old, new)
    assert hidden(out) == []
    build_in_process(inputs, out)
    check_complete(out, new)


def one_error_line(output: str) -> str:
    assert "Traceback" not in output, output
    lines = [line for line in output.splitlines() if line.strip()]
    assert len(lines) == 1, output
    assert re.fullmatch(r"(\S+: )?error: .+ \[write-failed\]", lines[0]), lines[0]
    return lines[0]


OTHER_BASE = "https://example.org/other/"
"""A rebuild with another base IRI changes every output and reads nothing again (the cache holds)."""


@pytest.mark.parametrize("fault", ["graph.ttl", "store"])
def test_cli_build_on_a_full_disk(
    seed_outputs: Path, fault: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(ROOT)
    out = tmp_path / "out"
    reset(out, seed_outputs)
    old = snapshot(out)
    inject, message = FAULTS[fault]
    with monkeypatch.context() as m:
        inject(m)
        result = runner.invoke(app, ["build", "--out", str(out), "-j", "1", "-q", "--base", OTHER_BASE])
    assert result.exit_code == 1
    line = one_error_line(result.output)
    assert message in line
    if fault == "graph.ttl":
        assert line == f"error: cannot write {out}/graph.ttl: {ENOSPC} [write-failed]"
    assert snapshot(out) == old and hidden(out) == []
    result = runner.invoke(app, ["build", "--out", str(out), "-j", "1", "-q", "--base", OTHER_BASE])
    assert result.exit_code == 0, result.output
    assert snapshot(out).ttl != old.ttl and hidden(out) == []


def test_cli_build_into_an_unwritable_folder(
    seed_outputs: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An output folder that cannot be created (a file in the way) fails at once, in one line."""
    monkeypatch.chdir(ROOT)
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    result = runner.invoke(app, ["build", "--out", str(blocker / "out"), "-j", "1", "-q"])
    assert result.exit_code == 1
    assert ENOTDIR in one_error_line(result.output)
    # an existing folder the build cannot write in (read-only): refused before anything is read
    out = tmp_path / "out"
    reset(out, seed_outputs)
    old = snapshot(out)
    mkdir = Path.mkdir

    def refuse(self: Path, *args: Any, **kwargs: Any) -> None:
        if self.parent == out:
            raise OSError(errno.EROFS, EROFS, str(self))
        mkdir(self, *args, **kwargs)

    with monkeypatch.context() as m:
        m.setattr(Path, "mkdir", refuse)
        started = time.perf_counter()
        result = runner.invoke(app, ["build", "--out", str(out), "-j", "1", "-q", "--base", OTHER_BASE])
    assert result.exit_code == 1
    assert (
        one_error_line(result.output) == f"error: cannot write the store {out}/store: {EROFS} [write-failed]"
    )
    assert snapshot(out) == old and hidden(out) == []
    assert time.perf_counter() - started < 30


EXPORT_FORMATS = sorted(EXPORTERS)


@pytest.mark.parametrize("format", EXPORT_FORMATS)
def test_cli_export_on_a_full_disk(
    seed_outputs: Path, format: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``kg export`` on a full disk: one line, exit 1, the previous export intact, no temporary file."""
    target = tmp_path / "export" / default_target(Path("."), format, "coauthors").name
    args = ["export", format, "--out", str(seed_outputs), "--output", str(target), "-q"]
    assert runner.invoke(app, args).exit_code == 0
    previous = _tree(target)
    with monkeypatch.context() as m:
        full_disk(m, "")
        result = runner.invoke(app, args)
    assert result.exit_code == 1
    assert ENOSPC in one_error_line(result.output)
    assert _tree(target) == previous
    assert hidden(target.parent) == []
    # the same into a folder under a file: Not a directory, and nothing written
    blocker = tmp_path / "file"
    blocker.write_text("")
    result = runner.invoke(
        app, ["export", format, "--out", str(seed_outputs), "--output", str(blocker / target.name)]
    )
    assert result.exit_code == 1
    assert ENOTDIR in one_error_line(result.output)
    assert blocker.read_text() == ""


def _tree(path: Path) -> dict[str, bytes]:
    if path.is_dir():
        return {p.name: p.read_bytes() for p in sorted(path.iterdir())}
    return {path.name: path.read_bytes()}


def test_cli_viz_on_a_full_disk(seed_outputs: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "page.html"
    # --generic: the page is drawn whole, so the error is the one line on stderr
    args = ["viz", "topics", "--generic", "--out", str(seed_outputs), "--output", str(target)]
    assert runner.invoke(app, args).exit_code == 0
    previous = target.read_bytes()
    with monkeypatch.context() as m:
        full_disk(m, ".page.html.")
        result = runner.invoke(app, args)
    assert result.exit_code == 1
    assert one_error_line(result.output) == f"error: cannot write {target}: {ENOSPC} [write-failed]"
    assert target.read_bytes() == previous and hidden(tmp_path) == []
    (tmp_path / "file").write_text("")
    result = runner.invoke(
        app, ["viz", "--out", str(seed_outputs), "--output", str(tmp_path / "file" / "x.html")]
    )
    assert result.exit_code == 1
    assert ENOTDIR in one_error_line(result.output)


# --- 4. a real small file system: full, then read-only (root only) -----------------------------------


@pytest.fixture
def tmpfs(tmp_path: Path) -> Iterator[Path]:
    """A 16 MB tmpfs (skipped where it cannot be mounted: not root, or no CAP_SYS_ADMIN)."""
    if os.geteuid() != 0 or not shutil.which("mount"):
        pytest.skip("mounting a tmpfs needs root")
    disk = tmp_path / "disk"
    disk.mkdir()
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=16m", "tmpfs", str(disk)], capture_output=True)
    if done.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {done.stderr.decode().strip()}")
    try:
        yield disk
    finally:
        subprocess.run(["umount", "--lazy", str(disk)], check=False)


def test_real_full_then_read_only_disk(
    seed_outputs: Path, tmpfs: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """On a real file system: a build that runs out of space at several points, then a read-only one."""
    monkeypatch.chdir(ROOT)
    out = tmpfs / "out"
    reset(out, seed_outputs)
    old = snapshot(out)
    args = ["build", "--out", str(out), "-j", "1", "-q", "--base", OTHER_BASE]
    free = shutil.disk_usage(tmpfs).free
    failures = []
    for room in (64 << 10, 1 << 20, 2 << 20, 3 << 20, 4 << 20):  # the store, graph.ttl, the pages...
        filler = tmpfs / "filler"
        with open(filler, "wb") as f:
            f.write(b"\0" * max(0, free - room))
        result = runner.invoke(app, args)
        filler.unlink()
        if result.exit_code == 0:
            break
        assert result.exit_code == 1
        line = one_error_line(result.output)
        assert ENOSPC in line
        failures.append(line)
        assert snapshot(out) == old and hidden(out) == []
    assert failures, "the disk was never full"
    print("\n" + "\n".join(failures))
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    new = snapshot(out)
    assert subprocess.run(["mount", "-o", "remount,ro", str(tmpfs)]).returncode == 0
    result = runner.invoke(app, ["build", "--out", str(out), "-j", "1", "-q"])
    assert result.exit_code == 1 and EROFS in one_error_line(result.output)
    result = runner.invoke(app, ["export", "turtle", "--out", str(out)])
    assert result.exit_code == 1 and EROFS in one_error_line(result.output)
    result = runner.invoke(app, ["viz", "--out", str(out)])
    assert result.exit_code == 1 and EROFS in one_error_line(result.output)
    assert snapshot(out) == new
    result = runner.invoke(app, ["query", "SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }", "--out", str(out)])
    assert result.exit_code == 0, result.output  # a read-only folder still answers
