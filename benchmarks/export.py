"""Time and peak memory of every exporter on a synthetic corpus (default: 100k papers).

Generates the corpus with ``benchmarks/synth.py`` (page formats), builds it
with kg (``kg.pipeline.build`` + ``write_outputs``, persisted store), then runs
each export in its own process (``kg.exporters.export`` from the persisted
store, as ``kg export`` does) and reads that process's peak resident memory
from ``os.wait4``.  Graph formats use the views of ``kg.project``.  Prints a table.

Usage::

    python benchmarks/export.py [--papers 100000] [--work /tmp/kg-export-bench] [--formats turtle,csv]
        [--build BUILD_DIR]

Each row runs beside ``dump``, Oxigraph's own dump of the whole store (``Store.dump`` to N-Quads),
timed in the same run as the reference: the ratio column is the export's wall time over the dump's.
``FORMAT+layout`` rows export a graph format with ``--layout`` (Louvain and positions).
``--build`` reuses a built folder (``kg build --out``) instead of generating and building a corpus.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(HERE))

FORMATS = ("dump", "turtle", "ntriples", "nquads", "jsonld", "graphml", "gexf", "csv", "vosviewer")


def measured(command: list[str]) -> tuple[float, float, float, int]:
    """Run ``command``; its wall seconds, CPU seconds (user + system), peak resident memory in MB, exit code.

    CPU seconds do not grow when other work shares the machine; wall seconds do.
    """
    started = time.perf_counter()
    process = subprocess.Popen(command, cwd=ROOT)
    _, status, usage = os.wait4(process.pid, 0)
    process.returncode = os.waitstatus_to_exitcode(status)
    cpu = usage.ru_utime + usage.ru_stime
    return time.perf_counter() - started, cpu, usage.ru_maxrss / 1024, process.returncode


def child(name: str, build: Path, target: Path) -> int:
    """Run one export (in the measured child process): a format, ``FORMAT+layout``, or ``dump``
    (Oxigraph's own ``Store.dump`` of the whole store as N-Quads, the reference)."""
    from kg.exporters import export
    from kg.exporters.built import BuiltGraph, ExportOptions

    source = BuiltGraph.open(build)
    started = time.perf_counter()
    if name == "dump":
        import pyoxigraph as ox

        with target.open("wb") as f:
            source.store.dump(f, ox.RdfFormat.N_QUADS)
    else:
        format, _, layout = name.partition("+")
        export(format, source, target, ExportOptions(layout=layout == "layout"))
    print(f"  {name}: export itself {time.perf_counter() - started:.1f} s", file=sys.stderr)
    return 0


def size_of(path: Path) -> int:
    if path.is_dir():
        return sum(p.stat().st_size for p in path.iterdir())
    return path.stat().st_size if path.exists() else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--papers", type=int, default=100_000)
    parser.add_argument("--work", type=Path, default=Path("/tmp/kg-export-bench"))
    parser.add_argument("--formats", default=",".join(FORMATS))
    parser.add_argument("--build", type=Path, help="a built folder to export from (no corpus is made)")
    parser.add_argument("--child", nargs=3, metavar=("FORMAT", "BUILD", "TARGET"), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        return child(args.child[0], Path(args.child[1]), Path(args.child[2]))

    from kg.exporters import EXPORTERS

    work: Path = args.work
    corpus, build = work / f"corpus-{args.papers}", args.build or work / f"build-{args.papers}"
    if args.build is None and not (corpus / ".done").exists():
        from synth import generate

        started = time.perf_counter()
        generate(args.papers, corpus, seed=0, formats=("profile", "listing", "daily"))
        (corpus / ".done").write_text("")
        print(f"generated {args.papers} papers in {time.perf_counter() - started:.0f} s", file=sys.stderr)
    if not (build / "store").is_dir():
        code = (
            "import sys; from pathlib import Path; from kg.errors import IssueLog; "
            "from kg.pipeline import build, write_outputs; "
            f"r = build([Path({str(corpus)!r})], log=IssueLog()); write_outputs(r, Path({str(build)!r})); "
            "print(r.summary(), file=sys.stderr)"
        )
        seconds, cpu, peak, status = measured([sys.executable, "-c", code])
        print(
            f"built in {seconds:.0f} s ({cpu:.0f} s CPU), peak {peak:.0f} MB (exit {status})", file=sys.stderr
        )
        if status:
            return status
    rows = []
    names = args.formats.split(",")
    if "dump" not in names:
        names.insert(0, "dump")
    for name in names:
        format = name.partition("+")[0]
        suffix = ".nq" if format == "dump" else EXPORTERS[format].SUFFIX
        target = work / "export" / (name if format == "csv" else f"{name}{suffix}")
        target.parent.mkdir(parents=True, exist_ok=True)
        if target.is_dir():
            shutil.rmtree(target)
        seconds, cpu, peak, status = measured(
            [sys.executable, str(Path(__file__).resolve()), "--child", name, str(build), str(target)]
        )
        rows.append(
            (name, seconds, cpu, peak, size_of(target) / 1e6, "ok" if status == 0 else f"exit {status}")
        )
    dump = next(seconds for name, seconds, *_ in rows if name == "dump")
    print(f"\nexports of {build} (each in its own process, from its store; dump = Store.dump)\n")
    print(
        f"| {'format':<16} | {'wall s':>7} | {'/ dump':>6} | {'CPU s':>7} | {'peak MB':>8} | {'output MB':>9} | status |"
    )
    print(f"|{'-' * 18}|{'-' * 9}|{'-' * 8}|{'-' * 9}|{'-' * 10}|{'-' * 11}|--------|")
    for name, seconds, cpu, peak, mb, status in rows:
        print(
            f"| {name:<16} | {seconds:>7.1f} | {seconds / dump:>6.2f} | {cpu:>7.1f} | {peak:>8.0f} | {mb:>9.1f} "
            f"| {status} |"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
