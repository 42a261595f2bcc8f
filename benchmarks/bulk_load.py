"""Oxigraph's on-disk bulk load on its own: a built graph.ttl parsed and loaded in batches of each size.

    python benchmarks/bulk_load.py /tmp/kg-bench/out-100000/graph.ttl --batch 100000 --batch 1000000

Each batch size runs in a child process (peak RSS is that child's) into a fresh store in a
temporary folder: seconds to load (``Store.bulk_extend`` per batch, as ``kg.store.load`` does),
seconds to compact (``Store.optimize``), CPU seconds (the loader uses every core) and peak RSS.
This is the floor under ``kg build``'s assemble-and-load stage: the same triples, no Python
assembling them.  Prints a Markdown table.
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import tempfile
import time
from itertools import islice
from pathlib import Path


def child(source: Path, batch: int) -> dict[str, float]:
    import pyoxigraph as ox

    with tempfile.TemporaryDirectory(prefix="kg-bulk-") as folder:
        store = ox.Store(folder)
        started, cpu = time.perf_counter(), time.process_time()
        quads = ox.parse(path=str(source), format=ox.RdfFormat.TURTLE)
        count = calls = 0
        while chunk := list(islice(quads, batch)):
            store.bulk_extend(chunk)
            count, calls = count + len(chunk), calls + 1
        loaded = time.perf_counter()
        store.optimize()
        done = time.perf_counter()
        del store
    return {
        "batch": batch,
        "calls": calls,
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
    parser.add_argument("--batch", type=int, action="append", help="quads per bulk_extend call (repeatable)")
    parser.add_argument("--child", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(child(args.source, args.child)))
        return
    rows = []
    for batch in args.batch or [100_000]:
        out = subprocess.run(
            [sys.executable, __file__, str(args.source), "--child", str(batch)],
            check=True,
            capture_output=True,
            text=True,
        )
        rows.append(json.loads(out.stdout))
    print("| batch | calls | quads | load s | optimize s | CPU s | peak RSS MB |")
    print("|---:|---:|---:|---:|---:|---:|---:|")
    for r in rows:
        print(
            f"| {r['batch']:,} | {r['calls']} | {r['quads']:,} | {r['load_s']:.1f} | {r['optimize_s']:.1f} | "
            f"{r['cpu_s']:.1f} | {r['peak_mb']:,.0f} |"
        )


if __name__ == "__main__":
    main()
