"""Time and peak memory of every exporter on a synthetic corpus (default: 100k papers).

Generates the corpus with ``benchmarks/synth.py`` (page formats), builds it
with kg (``kg.pipeline.build`` + ``write_outputs``, persisted store), then runs
each export in its own process (``kg.exporters.export`` from the persisted
store, as ``kg export`` does) and reads that process's peak resident memory
from ``os.wait4``.  Graph formats use the views of ``kg.project``; when that
module is missing, a stand-in coauthor view computed from the store is used
(its construction is not timed).  Prints a table.

Usage::

    python benchmarks/export.py [--papers 100000] [--work /tmp/kg-export-bench] [--formats turtle,csv]
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

FORMATS = ("turtle", "ntriples", "nquads", "jsonld", "graphml", "gexf", "csv", "vosviewer")


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


def stand_in_view(store: object) -> object:
    """A coauthor view from the store (used only while ``kg.project`` does not exist)."""
    import networkx as nx
    import pyoxigraph as ox

    assert isinstance(store, ox.Store)
    g = nx.Graph()
    rows = store.query(
        "SELECT ?x ?n (COUNT(?p) AS ?c) (MIN(STR(?y)) AS ?lo) (MAX(STR(?y)) AS ?hi) WHERE { "
        "?p <http://purl.org/dc/terms/creator> ?x . ?x <http://xmlns.com/foaf/0.1/name> ?n "
        "OPTIONAL { ?p <http://purl.org/spar/fabio/hasPublicationYear> ?y } } GROUP BY ?x ?n"
    )
    assert isinstance(rows, ox.QuerySolutions)
    for i, r in enumerate(rows):
        x, n, c, lo, hi = (r[v] for v in ("x", "n", "c", "lo", "hi"))
        assert x is not None and n is not None and c is not None
        attrs = {
            "label": n.value,
            "type": "person",
            "papers": int(c.value),
            "community": i % 20,
            "x": float(i % 1000),
            "y": float(i // 1000),
            "size": 1.0 + int(c.value),
            "color": "#3366cc",
        }
        if lo is not None and hi is not None:
            attrs["year_min"], attrs["year_max"] = int(lo.value), int(hi.value)
        g.add_node(x.value, **attrs)
    pairs = store.query(
        "SELECT ?a ?b (COUNT(?p) AS ?w) WHERE { ?p <http://purl.org/dc/terms/creator> ?a , ?b "
        "FILTER(STR(?a) < STR(?b)) } GROUP BY ?a ?b"
    )
    assert isinstance(pairs, ox.QuerySolutions)
    for r in pairs:
        a, b, w = r["a"], r["b"], r["w"]
        assert a is not None and b is not None and w is not None
        g.add_edge(a.value, b.value, weight=int(w.value))
    return g


def child(name: str, build: Path, target: Path) -> int:
    """Run one export (in the measured child process)."""
    from kg.exporters import VIEW_EXPORTERS, export
    from kg.exporters.source import Source

    source = Source.open(build)
    if name in VIEW_EXPORTERS:
        try:
            import kg.project  # type: ignore[import-not-found,unused-ignore]  # noqa: F401
        except ImportError:
            source.views["coauthors"] = stand_in_view(source.store)  # type: ignore[assignment]
    started = time.perf_counter()
    export(name, source, target)
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
    parser.add_argument("--child", nargs=3, metavar=("FORMAT", "BUILD", "TARGET"), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        return child(args.child[0], Path(args.child[1]), Path(args.child[2]))

    from kg.exporters import EXPORTERS

    work: Path = args.work
    corpus, build = work / f"corpus-{args.papers}", work / f"build-{args.papers}"
    if not (corpus / ".done").exists():
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
    for name in args.formats.split(","):
        target = work / "export" / (name if name == "csv" else f"graph{EXPORTERS[name].SUFFIX}")
        if target.is_dir():
            shutil.rmtree(target)
        seconds, cpu, peak, status = measured(
            [sys.executable, str(Path(__file__).resolve()), "--child", name, str(build), str(target)]
        )
        rows.append(
            (name, seconds, cpu, peak, size_of(target) / 1e6, "ok" if status == 0 else f"exit {status}")
        )
    print(f"\nexports of a {args.papers:,}-paper build (each in its own process, from {build}/store)\n")
    print(f"| {'format':<10} | {'wall s':>7} | {'CPU s':>7} | {'peak MB':>8} | {'output MB':>9} | status |")
    print(f"|{'-' * 12}|{'-' * 9}|{'-' * 9}|{'-' * 10}|{'-' * 11}|--------|")
    for name, seconds, cpu, peak, mb, status in rows:
        print(f"| {name:<10} | {seconds:>7.1f} | {cpu:>7.1f} | {peak:>8.0f} | {mb:>9.1f} | {status} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
