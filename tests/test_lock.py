"""One build at a time per build folder (``kg.lock``, issue #36): two builds that meet in one folder
never leave one build's store under the other's manifest; the second is refused (``folder-busy``,
exit 1, nothing written) and the next build of any inputs equals a full build of them.  A killed
build leaves no lock behind, forked workers do not keep it, and exports into the folder wait for no
one but are refused beside a build."""

from __future__ import annotations

import hashlib
import multiprocessing
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

import kg.delta
from kg import store as stores
from kg.build_folder import build_into
from kg.cache import Manifest
from kg.cli import app
from kg.errors import IssueLog, KgError
from kg.ledger import Ledger
from kg.lock import held
from kg.pipeline import BuildOptions
from tests.conftest import ROOT
from tests.test_delta import P1, P2, P3, P4, P5, check_same_as_full, run, triples, write

sys.path.insert(0, str(ROOT / "benchmarks"))

import synth

runner = CliRunner()


def check_one_build(out: Path) -> str:
    """The folder's store, manifest, ledger and graph.ttl name one generation; returns it."""
    generation = Manifest.load(out).generation
    assert generation
    assert stores.generation(out) == generation
    ledger = Ledger.load(out)
    assert ledger is not None and ledger.generation == generation
    assert hashlib.sha256((out / "graph.ttl").read_bytes()).hexdigest() == generation
    return generation


def test_a_build_meeting_a_delta_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The race of issue #36, made to happen every time: a full build of other inputs runs into the
    folder after a delta checked it and before the delta copies its store.  Without a lock it
    commits, and the delta then applies its change to that build's store under its own manifest."""
    monkeypatch.setattr(kg.delta, "MOST", 1.0)
    a, b, out = tmp_path / "a", tmp_path / "b", tmp_path / "out"
    a.mkdir()
    b.mkdir()
    write(a / "a.jsonl", [P1, P2, P3])
    write(b / "b.jsonl", [P4, P5])
    run(a, out)
    write(a / "c.jsonl", [P5])  # a change: the next build of a/ is a delta
    met: list[KgError | None] = []
    entered: list[bool] = []
    apply = kg.delta._apply

    def meeting(folder: Path, delete: set[object], insert: set[object]) -> object:
        if entered:  # the second build's own delta, when it runs
            return apply(folder, delete, insert)  # type: ignore[arg-type]
        entered.append(True)
        try:
            run(b, out)
        except KgError as e:
            met.append(e)
        else:
            met.append(None)
        return apply(folder, delete, insert)  # type: ignore[arg-type]

    monkeypatch.setattr(kg.delta, "_apply", meeting)
    result, _ = run(a, out)
    monkeypatch.setattr(kg.delta, "_apply", apply)
    assert result.delta is not None
    [refused] = met
    assert refused is not None and refused.code == "folder-busy", "the second build ran into the folder"
    assert "kg build wrote nothing" in str(refused) and str(os.getpid()) in str(refused)
    check_one_build(out)
    check_same_as_full(a, out, tmp_path, result)


def _kg_build(inputs: Path, out: Path) -> subprocess.Popen[bytes]:
    command = [sys.executable, "-m", "kg", "build", str(inputs), "--out", str(out), "-j", "1", "-q"]
    return subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, cwd=out.parent)


@pytest.fixture(scope="module")
def two_inputs(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, Path, dict[str, set[str]]]:
    """Inputs ``a`` (a changed file since the build in ``base``) and ``b`` (a bigger synthetic corpus, so
    the two builds overlap), the build folder ``base`` of ``a`` before its change, and the triples of a
    full build of each."""
    work = tmp_path_factory.mktemp("lock")
    a, b, base = work / "a", work / "b", work / "base"
    a.mkdir()
    write(a / "a.jsonl", [P1, P2, P3])
    synth.generate(60, b, seed=5)
    build_into([a], base, BuildOptions(workers=1), IssueLog())
    write(a / "b.jsonl", [P4])
    full: dict[str, set[str]] = {}
    for name, inputs in (("a", a), ("b", b)):
        build_into([inputs], work / f"full-{name}", BuildOptions(workers=1, full=True), IssueLog())
        full[name] = triples(work / f"full-{name}")
    return a, b, base, full


@pytest.mark.parametrize(
    ("first", "offset"), [("b", 0.0), ("b", 1.0), ("a", 0.3), ("b", None)], ids=str
)
def test_two_builds_into_one_folder(
    two_inputs: tuple[Path, Path, Path, dict[str, set[str]]], tmp_path: Path, first: str, offset: float | None
) -> None:
    """A build of one input folder and, ``offset`` seconds later (None: once it ended), a build of the
    other into the same folder (``a``'s a delta over what is there): each runs or is refused whole,
    the folder holds one complete build, the last that ran, and the next build of ``a`` is a full
    build's graph."""
    a, b, base, full = two_inputs
    out = tmp_path / "out"
    shutil.copytree(base, out, symlinks=True)
    second = "a" if first == "b" else "b"
    inputs = {"a": a, "b": b}
    processes = {first: _kg_build(inputs[first], out)}
    if offset is None:
        processes[first].wait(300)
    else:
        time.sleep(offset)
    processes[second] = _kg_build(inputs[second], out)
    codes, errors = {}, {}
    try:
        for name, process in processes.items():
            _, err = process.communicate(timeout=300)
            codes[name], errors[name] = process.returncode, err.decode(errors="replace")
    finally:
        for process in processes.values():
            if process.poll() is None:
                process.kill()
                process.wait()
    for name in processes:
        assert codes[name] == 0 or (codes[name] == 1 and "[folder-busy]" in errors[name]), (name, errors[name])
    assert codes[first] == 0 or codes[second] == 0
    check_one_build(out)
    last = second if codes[second] == 0 and (codes[first] != 0 or offset is None) else first
    if codes[first] == codes[second] == 0 and offset is not None:
        last = "either"  # both ran, one after the other (the second started after the first ended)
    assert triples(out) == full[last] if last != "either" else triples(out) in (full["a"], full["b"])
    build_into([a], out, BuildOptions(workers=1), IssueLog())
    check_one_build(out)
    assert triples(out) == full["a"]


_HOLD = """
import sys, time
from pathlib import Path
from kg.lock import held
with held(Path(sys.argv[1]), "kg build"):
    print("held", flush=True)
    time.sleep(120)
"""


def test_a_killed_holder_leaves_no_lock(tmp_path: Path) -> None:
    out = tmp_path / "out"
    out.mkdir()
    holder = subprocess.Popen([sys.executable, "-c", _HOLD, str(out)], stdout=subprocess.PIPE, cwd=ROOT)
    try:
        assert holder.stdout is not None and holder.stdout.readline() == b"held\n"
        with pytest.raises(KgError) as refused, held(out, "kg export", shared=True):
            pass
        assert refused.value.code == "folder-busy"
        assert f"(process {holder.pid})" in str(refused.value)
        holder.send_signal(signal.SIGKILL)
        holder.wait(30)
        with held(out, "kg build"):  # at once: the kernel released it with the process
            pass
    finally:
        holder.kill()
        holder.wait()
    assert sorted(os.listdir(out)) == [], "taking the lock writes nothing into the folder"


def _sleep(seconds: float) -> None:
    time.sleep(seconds)


def test_forked_workers_do_not_keep_the_lock(tmp_path: Path) -> None:
    out = tmp_path / "out"
    out.mkdir()
    context = multiprocessing.get_context("fork")
    with held(out, "kg build"):
        worker = context.Process(target=_sleep, args=(60,))
        worker.start()
    try:
        assert worker.is_alive()
        with held(out, "kg build"):  # the worker, still running, holds no copy of it
            pass
    finally:
        worker.kill()
        worker.join()


def test_exports_beside_a_build_are_refused_and_beside_each_other_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    inputs, out = tmp_path / "in", tmp_path / "out"
    inputs.mkdir()
    write(inputs / "a.jsonl", [P1, P2])
    run(inputs, out)
    monkeypatch.chdir(tmp_path)
    with held(out, "kg build"):
        result = runner.invoke(app, ["export", "ntriples", "--out", str(out)])
        assert result.exit_code == 1 and "[folder-busy]" in result.output, result.output
        assert "kg export wrote nothing" in result.output
        assert not (out / "export").exists()
        # an export elsewhere changes nothing a build reads: it runs
        result = runner.invoke(app, ["export", "ntriples", "--out", str(out), "--output", "graph.nt"])
        assert result.exit_code == 0, result.output
        with pytest.raises(KgError, match="folder-busy"):
            build_into([inputs], out, BuildOptions(workers=1), IssueLog())
    with held(out, "kg export", shared=True):
        for command in (["export", "ntriples"], ["viz", "coauthors"], ["site"]):
            result = runner.invoke(app, [*command, "--out", str(out)])
            assert result.exit_code == 0, (command, result.output)
        with pytest.raises(KgError, match="folder-busy"):
            build_into([inputs], out, BuildOptions(workers=1), IssueLog())
    build_into([inputs], out, BuildOptions(workers=1), IssueLog())
