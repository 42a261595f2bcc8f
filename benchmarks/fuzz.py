"""Run the fuzz targets of ``tests/test_fuzz.py`` longer than the tests do, and print what they found.

Every reader (mutated and truncated valid samples), every extractor (arbitrary
records) and arbitrary bytes, with hypothesis.  A target stops at its first
failure, which hypothesis shrinks; the table shows iterations run, seconds and
findings per target, and each finding follows the table.

Usage::

    python benchmarks/fuzz.py --iterations 20000 [--seed 1] [--only reader:bibtex,bytes]
"""

from __future__ import annotations

import argparse
import sys
import time
import traceback
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests import test_fuzz  # noqa: E402


def counting(check: Callable[[object], None], counter: list[int]) -> Callable[[object], None]:
    """``check``, counting its calls in ``counter[0]``."""

    def counted(value: object) -> None:
        counter[0] += 1
        check(value)

    return counted


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--iterations", type=int, default=2_000, help="examples per target")
    parser.add_argument("--seed", type=int, default=None, help="random seed (default: derandomized)")
    parser.add_argument("--only", default="", help="comma-separated target names (default: all)")
    args = parser.parse_args()
    names = [n for n in args.only.split(",") if n] or sorted(test_fuzz.TARGETS)
    findings: list[tuple[str, str]] = []
    print(f"{'target':<28} {'iterations':>10} {'seconds':>8} {'findings':>8}", flush=True)
    for name in names:
        strategy, check = test_fuzz.TARGETS[name]
        counter = [0]
        test_fuzz.TARGETS[name] = (strategy, counting(check, counter))
        started = time.perf_counter()
        found = 0
        try:
            test_fuzz.run_target(name, args.iterations, args.seed)
        except Exception:  # noqa: BLE001 (any exception the target raises is a finding: report it, go on)
            found = 1
            findings.append((name, traceback.format_exc(limit=-4)))
        finally:
            test_fuzz.TARGETS[name] = (strategy, check)
        print(f"{name:<28} {counter[0]:>10} {time.perf_counter() - started:>8.1f} {found:>8}", flush=True)
    for name, text in findings:
        print(f"\n--- {name}\n{text}")


if __name__ == "__main__":
    main()
