"""Score the method extractor against SciERC Method spans and time it on arXiv abstracts.

    PYTHONPATH=. python benchmarks/eval_methods.py [--data DIR] [--taxonomy PATH] [--split test]

(1) SciERC (``DIR/scierc/<split>.json``): every ``Method`` span of the split against the spans
    ``MethodMatcher.find`` reports (known methods) and the names ``introduced`` reports, precision /
    recall / F1 for exact span match and for partial (overlapping) match.  SciERC's methods are mostly
    generic ("statistical model", "parser"), so recall measures coverage of the taxonomy, not errors.
(2) Throughput: the whole extractor (``extract`` over a record) on every unique abstract (``summary``)
    of ``DIR/arxiv_daily_listings/*.jsonl``, one core, after a warm-up pass over all of them; CPU
    milliseconds per abstract (``time.process_time``: wall time is noisy on a shared machine), abstracts
    per CPU second, and the ratio to a bare ``spacy.blank("en")`` tokenizer pass over the same abstracts
    (the build's tracked figure).  ``benchmarks/methods_snapshot.py`` times other corpora the same way.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from kg.errors import IssueLog
from kg.extractors import methods
from kg.records import Location, Record, SourceFile, Span

ROOT = Path(__file__).resolve().parents[1]
_PTB = {
    "-LRB-": "(",
    "-RRB-": ")",
    "-LSB-": "[",
    "-RSB-": "]",
    "-LCB-": "{",
    "-RCB-": "}",
    "``": '"',
    "''": '"',
}


def scierc_documents(path: Path) -> list[tuple[str, list[tuple[int, int]], set[tuple[int, int]]]]:
    """Each document as text, token character spans, and gold Method spans (character offsets)."""
    docs = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip():
            continue
        doc = json.loads(line)
        tokens = [_PTB.get(t, t) for sentence in doc["sentences"] for t in sentence]
        spans: list[tuple[int, int]] = []
        pos = 0
        for t in tokens:
            spans.append((pos, pos + len(t)))
            pos += len(t) + 1
        text = " ".join(tokens)
        gold = {
            (spans[s][0], spans[e][1])
            for sentence in doc["ner"]
            for s, e, label in sentence
            if label == "Method"
        }
        docs.append((text, spans, gold))
    return docs


def score(gold: set[tuple[int, int]], found: set[tuple[int, int]], partial: bool) -> tuple[int, int, int]:
    """True positives among found, true positives among gold (partial match may differ), and totals."""

    def hit(a: tuple[int, int], pool: set[tuple[int, int]]) -> bool:
        if not partial:
            return a in pool
        return any(a[0] < b[1] and b[0] < a[1] for b in pool)

    return sum(hit(f, gold) for f in found), sum(hit(g, found) for g in gold), 0


def eval_scierc(
    matcher: methods.MethodMatcher, path: Path
) -> list[tuple[str, float, float, float, int, int]]:
    rows = []
    docs = scierc_documents(path)
    predicted = []
    for text, _spans, _gold in docs:
        found = {(m.start, m.end) for m in matcher.find(text)}
        found |= {(n.start, n.start + len(n.text)) for n in matcher.introduced(text)}
        predicted.append(found)
    for mode in ("exact", "partial"):
        tp_found = tp_gold = n_found = n_gold = 0
        for (_text, _spans, gold), found in zip(docs, predicted, strict=True):
            a, b, _ = score(gold, found, mode == "partial")
            tp_found += a
            tp_gold += b
            n_found += len(found)
            n_gold += len(gold)
        p = tp_found / n_found if n_found else 0.0
        r = tp_gold / n_gold if n_gold else 0.0
        f1 = 2 * p * r / (p + r) if p + r else 0.0
        rows.append((mode, p, r, f1, n_found, n_gold))
    return rows


def abstracts(directory: Path) -> list[str]:
    seen: dict[str, str] = {}
    for path in sorted(directory.glob("*.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                row = json.loads(line)
                seen.setdefault(str(row["id"]), str(row.get("summary") or ""))
    return [seen[k] for k in sorted(seen)]


def throughput(texts: list[str]) -> tuple[float, int, float, float]:
    """Abstracts per CPU second, mentions, CPU seconds of the extractor and of a bare tokenizer.

    The two are timed in alternating chunks of 50 abstracts, so that both see the same load.
    """
    import spacy

    source = SourceFile("bench.jsonl", "0" * 64, "bench")
    records = [
        Record(
            "bench", source, Location("bench.jsonl", i + 1), abstract=Span(t, Location("bench.jsonl", i + 1))
        )
        for i, t in enumerate(texts)
    ]
    log = IssueLog()
    nlp = spacy.blank("en")
    for r, t in zip(records, texts, strict=True):  # warm-up: builds the matcher, both have seen each word
        list(methods.extract(r, log))
        nlp.make_doc(t)
    elapsed = tokenizer = 0.0
    n_mentions = 0
    for lo in range(0, len(records), 50):
        t0 = time.process_time()
        for t in texts[lo : lo + 50]:
            nlp.make_doc(t)
        t1 = time.process_time()
        for r in records[lo : lo + 50]:
            n_mentions += sum(1 for _ in methods.extract(r, log))
        t2 = time.process_time()
        tokenizer += t1 - t0
        elapsed += t2 - t1
    return len(records) / elapsed, n_mentions, elapsed, tokenizer


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--data", type=Path, default=ROOT.parent / "shared" / "data", help="shared data directory"
    )
    parser.add_argument("--taxonomy", type=Path, default=None, help="method taxonomy (default: the repo's)")
    parser.add_argument("--split", default="test", help="SciERC split: train, dev or test")
    args = parser.parse_args()

    t0 = time.perf_counter()
    matcher = methods.default_matcher(args.taxonomy)
    if args.taxonomy is not None:
        methods.default_matcher.cache_clear()
        original = methods.default_matcher

        def fixed(taxonomy: Path | None = None) -> methods.MethodMatcher:
            return original(args.taxonomy)

        methods.default_matcher = fixed  # type: ignore[assignment]
    build = time.perf_counter() - t0
    print(f"matcher: {len(matcher.concepts)} concepts, built in {build:.2f} s")
    print()
    print(f"SciERC {args.split}: Method spans")
    print(f"{'match':8} {'precision':>9} {'recall':>7} {'F1':>6} {'found':>6} {'gold':>6}")
    for mode, p, r, f1, n_found, n_gold in eval_scierc(matcher, args.data / "scierc" / f"{args.split}.json"):
        print(f"{mode:8} {p:9.3f} {r:7.3f} {f1:6.3f} {n_found:6d} {n_gold:6d}")
    print()
    texts = abstracts(args.data / "arxiv_daily_listings")
    rate, n_mentions, elapsed, tokenizer = throughput(texts)
    n = len(texts)
    print("throughput (one core, extract() over title-less records, after warm-up; CPU time)")
    print(
        f"{'abstracts':>9} {'mentions':>8} {'seconds':>8} {'ms/abstract':>11} {'abstracts/s':>11} {'x tokenizer':>11}"
    )
    print(
        f"{n:9d} {n_mentions:8d} {elapsed:8.2f} {1000 * elapsed / n:11.3f} {rate:11.0f} {elapsed / tokenizer:11.1f}"
    )


if __name__ == "__main__":
    main()
