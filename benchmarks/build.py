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


class Timeline:
    """Samples this process's memory every ``every`` seconds on a thread of its own, with the stage
    the build is in: resident set (``/proc/self/statm``), Python's allocated blocks (objects and
    buffers of pymalloc) and, from glibc's ``mallinfo2``, the main arena's bytes in use and its free
    bytes (kept by malloc, not returned: fragmentation).  Written as JSON lines by ``--timeline``."""

    def __init__(self, path: Path, every: float = 1.0) -> None:
        import ctypes
        import threading

        class Mallinfo2(ctypes.Structure):
            _fields_ = [
                (name, ctypes.c_size_t)
                for name in [
                    "arena",
                    "ordblks",
                    "smblks",
                    "hblks",
                    "hblkhd",
                    "usmblks",
                    "fsmblks",
                    "uordblks",
                    "fordblks",
                    "keepcost",
                ]
            ]

        libc = ctypes.CDLL("libc.so.6")
        libc.mallinfo2.restype = Mallinfo2
        self._mallinfo = libc.mallinfo2
        self.stage = "start"
        self._file = open(path, "w")  # noqa: SIM115 - closed by stop()
        self._every = every
        self._started = time.perf_counter()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def sample(self) -> None:
        page = os.sysconf("SC_PAGE_SIZE")
        with open("/proc/self/statm") as f:
            rss = int(f.read().split()[1]) * page
        info = self._mallinfo()
        row = {
            "s": round(time.perf_counter() - self._started, 1),
            "stage": self.stage,
            "rss_mb": rss >> 20,
            "blocks": sys.getallocatedblocks(),
            "heap_used_mb": info.uordblks >> 20,
            "heap_free_mb": info.fordblks >> 20,
            "mmapped_mb": info.hblkhd >> 20,
        }
        self._file.write(json.dumps(row) + "\n")
        self._file.flush()

    def _run(self) -> None:
        while not self._stop.wait(self._every):
            self.sample()

    def mark(self, stage: str) -> None:
        if stage != self.stage:
            self.stage = stage
            self.sample()

    def stop(self) -> None:
        self._stop.set()
        self._thread.join()
        self.sample()
        self._file.close()


class ThreadCpu:
    """CPU seconds of each thread of this process, read from ``/proc/self/task`` every ``every``
    seconds on a thread of its own (a thread that ends between two readings loses at most that
    interval).  Threads are named by their Python name where Python started them (the store's
    loader threads: ``kg-loader``, ``kg-bulk-load``), else by the system's name (RocksDB's
    ``rocksdb:low``; Oxigraph's bulk-load threads keep the name of the process)."""

    def __init__(self, every: float = 0.5) -> None:
        import threading

        self._seen: dict[int, tuple[str, float]] = {}
        self._tick = os.sysconf("SC_CLK_TCK")
        self._stop = threading.Event()
        self._every = every
        self._thread = threading.Thread(target=self._run, name="bench-cpu", daemon=True)
        self._thread.start()

    def sample(self) -> None:
        import threading

        named = {t.native_id: t.name for t in threading.enumerate()}
        main = threading.main_thread().native_id
        for task in Path("/proc/self/task").iterdir():
            try:
                stat = (task / "stat").read_text()
            except OSError:  # ended since it was listed
                continue
            tid = int(task.name)
            comm = stat[stat.index("(") + 1 : stat.rindex(")")]
            fields = stat[stat.rindex(")") + 2 :].split()
            seconds = (int(fields[11]) + int(fields[12])) / self._tick  # utime, stime
            name = "main" if tid == main else named.get(tid, comm)
            self._seen[tid] = (self._seen.get(tid, (name, 0.0))[0], seconds)

    def _run(self) -> None:
        while not self._stop.wait(self._every):
            self.sample()

    def stop(self) -> dict[str, float]:
        """CPU seconds by thread name (threads of one name summed)."""
        self._stop.set()
        self._thread.join()
        self.sample()
        totals: dict[str, float] = {}
        for name, seconds in self._seen.values():
            totals[name] = totals.get(name, 0.0) + seconds
        return dict(sorted(totals.items(), key=lambda kv: -kv[1]))


def _marked(timeline: Timeline) -> None:
    """Mark the assembly's stages on ``timeline``: the papers, then (once the last is out) the
    persons, their coauthor links and the rest, told apart by the predicates that start them."""
    import kg.pipeline
    from kg.vocab import KG

    assemble = kg.pipeline.assemble

    def marked(resolution: Any, *args: Any) -> Any:
        finish = resolution.finish

        def finished() -> None:  # called once the last record is in, before persons are named
            timeline.mark("papers done")
            finish()
            timeline.mark("persons")

        resolution.finish = finished
        timeline.mark("papers")
        for triple in assemble(resolution, *args):
            if timeline.stage == "persons" and triple.predicate == KG.coauthor:
                timeline.mark("coauthors")
            elif timeline.stage == "coauthors" and triple.predicate != KG.coauthor:
                timeline.mark("areas, repositories, introduced")
            yield triple
        timeline.mark("loading the last batches")

    kg.pipeline.assemble = marked  # type: ignore[assignment]


def child(folder: Path, out: Path, workers: int, timeline_path: Path | None = None) -> None:
    """Run one build in this process and print its figures as JSON (called in a subprocess)."""
    from kg.build_folder import write_outputs
    from kg.errors import IssueLog
    from kg.executors import Step
    from kg.pipeline import BuildOptions, build
    from kg.store import staging

    timeline = Timeline(timeline_path) if timeline_path is not None else None
    progress = None
    if timeline is not None:
        _marked(timeline)

        def progress(step: Step) -> None:
            if step.stage != "reading":  # the reading stage is marked by the assembly's
                timeline.mark(step.stage)

    # the options kg build gives: the store is assembled on disk and swapped in, the cache is written
    out.mkdir(parents=True, exist_ok=True)
    options = BuildOptions(workers=workers, store=staging(out), cache=out, full=True)
    cpu = ThreadCpu()
    started = time.perf_counter()
    result = build([folder], options, IssueLog(), progress)
    built = time.perf_counter()
    peak_build = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    if timeline is not None:
        timeline.mark("writing outputs")
    write_outputs(result, out)
    ended = time.perf_counter()
    if timeline is not None:
        timeline.stop()
    threads = cpu.stop()
    workers_cpu = resource.getrusage(resource.RUSAGE_CHILDREN)  # the pool's, joined by now
    summary = result.summary()
    figures = {
        "cpu": {
            **{name: round(s, 1) for name, s in threads.items()},
            "workers": round(workers_cpu.ru_utime + workers_cpu.ru_stime, 1),
        },
        **summary,
        "build_s": built - started,
        "write_s": ended - built,
        "total_s": ended - started,
        "peak_build_bytes": peak_build,  # peak RSS of this process up to the end of build()
    }
    print(json.dumps({**figures, "stages": result.timings}))


def tokenizer_pass(folder: Path) -> tuple[int, float]:
    """Seconds a bare spaCy tokenizer takes over every abstract of the corpus."""
    from kg.errors import IssueLog
    from kg.readers import read_file
    from kg.readers.discover import discover

    log = IssueLog()
    abstracts = [
        r.abstract.text
        for item in discover([folder], log)
        for r in read_file(item.path, log, item.shown)
        if r.abstract is not None
    ]
    return len(abstracts), tokenizer_seconds(abstracts)


def tokenizer_seconds(abstracts: list[str]) -> float:
    """Seconds a bare ``spacy.blank("en")`` tokenizer takes over ``abstracts``, after a warm-up."""
    import spacy

    nlp = spacy.blank("en")
    for text in abstracts[:200]:
        nlp.make_doc(text)
    started = time.perf_counter()
    for text in abstracts:
        nlp.make_doc(text)
    return time.perf_counter() - started


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
            *(["--timeline", str(args.timeline)] if args.timeline else []),
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    wall = time.perf_counter() - started
    peak_kb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    figures = json.loads(proc.stdout.strip().splitlines()[-1])
    abstracts, tok = tokenizer_pass(folder)
    row = {
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
        "cpu": figures["cpu"],
    }
    (out / "build.json").write_text(json.dumps(row, indent=1) + "\n")  # read by benchmarks/floor.py
    return row


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
    parser.add_argument(
        "--timeline",
        type=Path,
        help="write the build process's memory every second, with its stage, to this JSON-lines file",
    )
    args = parser.parse_args()
    if args.child:
        child(args.child, args.out_dir, args.workers, args.timeline)
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
    print(
        "CPU seconds by thread (workers: the extraction processes): "
        + "; ".join(
            f"{r['papers']:,.0f} papers: {sum(r['cpu'].values()):.1f} in all, "
            f"{sum(r['cpu'].values()) / r['build_s']:.2f} cores busy: "
            + ", ".join(f"{k} {v:.1f}" for k, v in r["cpu"].items() if v >= 0.1)
            for r in rows
        )
    )


if __name__ == "__main__":
    main()
