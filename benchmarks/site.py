"""Time, peak memory and size of ``kg site`` on a built graph (a ``kg build --out`` folder).

The site is written in a fresh child process (so the peak resident memory is the site's alone,
interpreter and imports included), which times each stage: reading the store (SPARQL), filing the
entities, rendering and writing the pages (into a staging folder, synced and put in place).
Prints a Markdown table.

Usage::

    python benchmarks/site.py BUILD_DIR [--min-papers 1] [--jobs 0] [--runs 1] [--keep DIR]
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


def one(build: Path, target: Path, min_papers: int, jobs: int) -> dict[str, float]:
    """Run in the child: the stages of one site, timed."""
    from kg.site import entities, paper_count, processes, queries, write_site
    from kg.store import located, open_store

    start = time.perf_counter()
    store = open_store(build)
    corpus = queries.read(store, processes(jobs, paper_count(store)), located(build))
    read = time.perf_counter()
    site = entities.file(corpus, min_papers)
    filed = time.perf_counter()
    done = write_site(site, target, jobs)
    written = time.perf_counter()
    children = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    return {
        "read_s": read - start,
        "file_s": filed - read,
        "write_s": written - filed,
        "total_s": written - start,
        "pages": done.pages,
        "mb": done.bytes / 1e6,
        "papers": len(corpus.papers),
        "peak_mb": max(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, children),
    }


def run(build: Path, target: Path, min_papers: int, jobs: int) -> dict[str, float]:
    """One site in a child process; its report."""
    command = [sys.executable, __file__, str(build), "--child", "--keep", str(target)]
    done = subprocess.run(
        [*command, "--min-papers", str(min_papers), "--jobs", str(jobs)], capture_output=True, text=True, check=False
    )
    if done.returncode != 0:
        raise SystemExit(f"kg site failed:\n{done.stderr}")
    report: dict[str, float] = json.loads(done.stdout.strip().splitlines()[-1])
    return report


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("build", type=Path, help="a kg build --out folder")
    parser.add_argument("--min-papers", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=0, help="processes rendering the pages (0: kg site's default)")
    parser.add_argument("--runs", type=int, default=1, help="runs (the fastest is shown)")
    parser.add_argument("--keep", type=Path, help="write the site here (default: a temporary folder)")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(one(args.build, args.keep, args.min_papers, args.jobs)))
        return
    target = args.keep or Path(tempfile.mkdtemp(prefix="kg-site-bench-")) / "site"
    print(f"build: {args.build}  site written to: {target}\n")
    print(
        "| papers | --min-papers | --jobs | read s | file s | render+write s | total s | pages | site MB | peak RSS MB |"
    )
    print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    reports = [run(args.build, target, args.min_papers, args.jobs) for _ in range(max(1, args.runs))]
    r = min(reports, key=lambda x: x["total_s"])
    print(
        f"| {r['papers']:,.0f} | {args.min_papers} | {args.jobs} | {r['read_s']:.2f} | {r['file_s']:.2f} | {r['write_s']:.2f} | "
        f"{r['total_s']:.2f} | {r['pages']:,.0f} | {r['mb']:,.1f} | {max(x['peak_mb'] for x in reports):,.0f} |"
    )


if __name__ == "__main__":
    main()
