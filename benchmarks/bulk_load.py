"""Oxigraph's on-disk bulk load on its own: a built graph.ttl parsed and loaded through
``kg.store.Loader``, in calls of each batch size and streamed in one call.

    python benchmarks/bulk_load.py /tmp/kg-bench/out-100000/graph.ttl --batch 100000 --stream

Each row runs in a child process (peak RSS is that child's) into a fresh store in a temporary
folder: seconds to load, seconds to compact (``Store.optimize``), CPU seconds (the loader uses
every core) and peak RSS.  ``--batch N`` hands the loader batches of N quads, each loaded by a
call of its own (``Store.bulk_load`` of N-Quads text, what a build did before streaming and
still does where there is no ``/dev/fd``); ``--stream`` hands it batches of
``kg.store.BATCH`` that one call reads through a pipe (what a build does).  The Turtle parse is
part of every row (about 24 s at 100k papers).  This is the floor under ``kg build``'s
read+extract+assemble stage: the same triples, no Python assembling them.  Prints a Markdown
table.
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def child(source: Path, batch: int) -> dict[str, float | int | str]:
    """``batch`` 0: streamed, in batches of ``kg.store.BATCH``."""
    import pyoxigraph as ox

    from kg import store as stores

    stores.STREAMED = stores.STREAMED and batch == 0
    if batch:
        stores.BATCH = batch
    with tempfile.TemporaryDirectory(prefix="kg-bulk-") as folder:
        store = ox.Store(folder)
        started, cpu = time.perf_counter(), time.process_time()
        count = 0
        with stores.Loader(store) as loader:
            for _ in loader.loading(ox.parse(path=str(source), format=ox.RdfFormat.TURTLE)):
                count += 1
        loaded = time.perf_counter()
        store.optimize()
        done = time.perf_counter()
        del store
    return {
        "way": "streamed" if stores.STREAMED else f"calls of {stores.BATCH:,}",
        "quads": count,
        "load_s": loaded - started,
        "optimize_s": done - loaded,
        "cpu_s": time.process_time() - cpu,
        "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
    }


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("source", type=Path, help="a Turtle file (a build's graph.ttl)")
    parser.add_argument(
        "--batch", type=int, action="append", default=[], help="quads per bulk load call (repeatable)"
    )
    parser.add_argument("--stream", action="store_true", help="also load in one streamed call")
    parser.add_argument("--child", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child is not None:
        print(json.dumps(child(args.source, args.child)))
        return
    rows = []
    for batch in [*args.batch, *([0] if args.stream or not args.batch else [])]:
        out = subprocess.run(
            [sys.executable, __file__, str(args.source), "--child", str(batch)],
            check=True,
            capture_output=True,
            text=True,
        )
        rows.append(json.loads(out.stdout))
    print("| load | quads | load s | optimize s | CPU s | peak RSS MB |")
    print("|---|---:|---:|---:|---:|---:|")
    for r in rows:
        print(
            f"| {r['way']} | {r['quads']:,} | {r['load_s']:.1f} | {r['optimize_s']:.1f} | "
            f"{r['cpu_s']:.1f} | {r['peak_mb']:,.0f} |"
        )


if __name__ == "__main__":
    main()
