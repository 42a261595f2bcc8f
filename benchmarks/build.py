"""End-to-end ``kg build`` benchmark on a synthetic corpus, against a bare tokenizer pass.

    python benchmarks/build.py --papers 10000 [--papers 100000 ...] [--workers N] [--formats ...]

For each N: generates (or reuses) a seeded corpus under ``--corpora`` with
``benchmarks/synth.py``, runs ``kg build`` on it in a child process (wall time,
papers per second, peak RSS of the largest process, triples, store size), and,
in the same run on the same abstracts, times a bare ``spacy.blank("en")``
tokenizer pass.  The ratio build / tokenizer is the figure we track: how close
the build is to the cost of just reading the text.  Prints a table.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))


def corpus(papers: int, root: Path, formats: tuple[str, ...], seed: int) -> Path:
    """The synthetic corpus of ``papers`` papers, generated once and reused."""
    from synth import generate

    folder = root / f"synth-{papers}-{seed}-{'-'.join(formats)}"
    done = folder / ".complete"
    if not done.exists():
        folder.mkdir(parents=True, exist_ok=True)
        generate(papers, folder, seed=seed, formats=formats)
        done.write_text("ok\n")
    return folder


def child(folder: Path, out: Path, workers: int) -> None:
    """Run one build in this process and print its figures as JSON (called in a subprocess)."""
    from kg.errors import IssueLog
    from kg.pipeline import BuildOptions, build, write_outputs
    from kg.store import staging

    # the options kg build gives: the store is assembled on disk and swapped in, the cache is written
    out.mkdir(parents=True, exist_ok=True)
    options = BuildOptions(workers=workers, store=staging(out), cache=out, full=True)
    started = time.perf_counter()
    result = build([folder], options, IssueLog())
    built = time.perf_counter()
    peak_build = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    write_outputs(result, out)
    ended = time.perf_counter()
    summary = result.summary()
    figures = {
        **summary,
        "build_s": built - started,
        "write_s": ended - built,
        "total_s": ended - started,
        "peak_build_bytes": peak_build,  # peak RSS of this process up to the end of build()
    }
    print(json.dumps({**figures, "stages": result.timings}))


def tokenizer_pass(folder: Path) -> tuple[int, float]:
    """Seconds a bare spaCy tokenizer takes over every abstract of the corpus."""
    import spacy

    from kg.errors import IssueLog
    from kg.pipeline import discover
    from kg.readers import read_file

    log = IssueLog()
    abstracts = [
        r.abstract.text
        for item in discover([folder], log)
        for r in read_file(item.path, log, item.shown)
        if r.abstract is not None
    ]
    nlp = spacy.blank("en")
    for text in abstracts[:200]:  # warm-up
        nlp.make_doc(text)
    started = time.perf_counter()
    for text in abstracts:
        nlp.make_doc(text)
    return len(abstracts), time.perf_counter() - started


def size_of(path: Path) -> int:
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file())


def measure(papers: int, args: argparse.Namespace) -> dict[str, Any]:
    folder = corpus(papers, args.corpora, tuple(args.formats.split(",")), args.seed)
    out = args.corpora / f"out-{papers}"
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    started = time.perf_counter()
    proc = subprocess.run(
        [
            sys.executable,
            __file__,
            "--child",
            str(folder),
            "--out-dir",
            str(out),
            "--workers",
            str(args.workers),
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    wall = time.perf_counter() - started
    peak_kb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    figures = json.loads(proc.stdout.strip().splitlines()[-1])
    abstracts, tok = tokenizer_pass(folder)
    return {
        "papers": figures["papers"],
        "records": figures["records"],
        "wall_s": wall,
        "build_s": figures["total_s"],
        "papers_per_s": figures["papers"] / figures["total_s"],
        "peak_rss_mb": max(peak_kb, before) / 1024,
        "peak_build_mb": figures["peak_build_bytes"] / 2**20,
        "triples": figures["triples"],
        "store_mb": size_of(out / "store") / 1e6,
        "abstracts": abstracts,
        "tokenizer_s": tok,
        "ratio": figures["total_s"] / tok,
        "stages": figures["stages"],
    }


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--papers", type=int, action="append", help="corpus size (repeatable)")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--formats", default="jsonl,profile,listing,daily")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--corpora", type=Path, default=Path("/tmp/kg-bench"))
    parser.add_argument("--child", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--out-dir", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.child, args.out_dir, args.workers)
        return
    rows: list[dict[str, Any]] = [measure(n, args) for n in args.papers or [10_000]]
    head = (
        "papers",
        "build s",
        "papers/s",
        "peak RSS MB",
        "of it, until assembled",
        "triples",
        "store MB",
        "tokenizer s",
        "ratio",
    )
    print(" | ".join(head))
    print(" | ".join("---" for _ in head))
    for r in rows:
        print(
            f"{r['papers']:,.0f} | {r['build_s']:.1f} | {r['papers_per_s']:,.0f} | {r['peak_rss_mb']:,.0f} | "
            f"{r['peak_build_mb']:,.0f} | "
            f"{r['triples']:,.0f} | {r['store_mb']:,.0f} | {r['tokenizer_s']:.1f} | {r['ratio']:.1f}"
        )
    print()
    print(
        "stage seconds: "
        + "; ".join(
            f"{r['papers']:,.0f} papers: " + ", ".join(f"{k} {v:.1f}" for k, v in r["stages"].items())
            for r in rows
        )
    )


if __name__ == "__main__":
    main()
