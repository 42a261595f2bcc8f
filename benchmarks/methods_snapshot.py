"""Snapshot every mention of the methods extractor, compare snapshots, and time it in CPU seconds.

    PYTHONPATH=. python benchmarks/methods_snapshot.py corpus CORPUS.json [--synth DIR]
    PYTHONPATH=. python benchmarks/methods_snapshot.py dump CORPUS.json OUT.jsonl
    PYTHONPATH=. python benchmarks/methods_snapshot.py compare A.jsonl B.jsonl
    PYTHONPATH=. python benchmarks/methods_snapshot.py time CORPUS.json [--repeat 3]

``corpus`` freezes the input texts once (so that readers changed by others cannot move the
inputs): the seed records (``seeds/``, read by kg's readers), the unique abstracts of
``arxiv_daily_listings`` (with their titles) and the records of a synthetic corpus written by
``benchmarks/synth.py``.  ``dump`` writes one JSON line per mention (set, record index, field, kind,
key, text, offset, extractor, detail); ``compare`` reports counts per set and every difference;
``time`` reports CPU milliseconds per abstract (``time.process_time``, the machine is shared) for the
extractor and for a bare ``spacy.blank("en")`` tokenizer pass over the same texts.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from pathlib import Path

from kg.errors import IssueLog
from kg.extractors import methods
from kg.records import Location, Record, SourceFile, Span

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT.parent / "shared" / "data"
Corpus = dict[str, list[tuple[str, str]]]


def build_corpus(synth: Path | None) -> Corpus:
    """Title and abstract of every input, by set."""
    from kg.readers import read_file

    log = IssueLog()
    corpus: Corpus = {"seeds": [], "real": [], "synth": [], "extra": []}
    for path in sorted((ROOT / "seeds").iterdir()):
        for r in read_file(path, log):
            corpus["seeds"].append((r.title.text if r.title else "", r.abstract.text if r.abstract else ""))
    seen: dict[str, tuple[str, str]] = {}
    for path in sorted((DATA / "arxiv_daily_listings").glob("*.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                row = json.loads(line)
                seen.setdefault(str(row["id"]), (str(row.get("title") or ""), str(row.get("summary") or "")))
    corpus["real"] = [seen[k] for k in sorted(seen)]
    if synth is not None:
        for path in sorted(synth.iterdir()):
            for r in read_file(path, log):
                corpus["synth"].append(
                    (r.title.text if r.title else "", r.abstract.text if r.abstract else "")
                )
    # other styles of text, for the comparison only: SciERC (PTB tokens) and old arXiv abstracts
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from eval_methods import scierc_documents

    for split in ("train", "dev", "test"):
        path = DATA / "scierc" / f"{split}.json"
        if path.exists():
            corpus["extra"] += [("", text) for text, _spans, _gold in scierc_documents(path)]
    for path in sorted((DATA / "arxiv_kaggle_head200").glob("*.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                row = json.loads(line)
                corpus["extra"].append((str(row.get("title") or ""), str(row.get("abstract") or "")))
    return corpus


def records(pairs: list[tuple[str, str]], name: str) -> list[Record]:
    source = SourceFile(f"{name}.txt", "0" * 64, "snapshot")
    out = []
    for i, (title, abstract) in enumerate(pairs):
        at = Location(f"{name}.txt", i + 1)
        out.append(
            Record(
                "snapshot",
                source,
                at,
                title=Span(title, at) if title else None,
                abstract=Span(abstract, at) if abstract else None,
            )
        )
    return out


def dump(corpus: Corpus, out: Path) -> None:
    log = IssueLog()
    with out.open("w", encoding="utf-8") as f:
        for name, pairs in corpus.items():
            for i, rec in enumerate(records(pairs, name)):
                for m in methods.extract(rec, log):
                    row = [name, i, m.at.line, m.kind, m.key, m.text, m.position, m.extractor, m.detail]
                    f.write(json.dumps(row, ensure_ascii=False) + "\n")


def compare(a: Path, b: Path) -> int:
    rows_a = a.read_text(encoding="utf-8").splitlines()
    rows_b = b.read_text(encoding="utf-8").splitlines()
    count_a = Counter(json.loads(r)[0] for r in rows_a)
    count_b = Counter(json.loads(r)[0] for r in rows_b)
    kinds_a = Counter((json.loads(r)[0], json.loads(r)[3]) for r in rows_a)
    kinds_b = Counter((json.loads(r)[0], json.loads(r)[3]) for r in rows_b)
    for key in sorted(set(kinds_a) | set(kinds_b)):
        print(f"{key[0]:6} {key[1]:20} {kinds_a[key]:7d} {kinds_b[key]:7d}")
    for name in sorted(set(count_a) | set(count_b)):
        print(f"{name:6} {'total':20} {count_a[name]:7d} {count_b[name]:7d}")
    only_a = Counter(rows_a) - Counter(rows_b)
    only_b = Counter(rows_b) - Counter(rows_a)
    same_order = rows_a == rows_b
    for r in sorted(only_a)[:40]:
        print("-", r)
    for r in sorted(only_b)[:40]:
        print("+", r)
    print(f"identical: {same_order} (only in A: {sum(only_a.values())}, only in B: {sum(only_b.values())})")
    return 0 if same_order else 1


def timing(corpus: Corpus, repeat: int) -> None:
    """CPU ms per abstract of the extractor and of a bare tokenizer, measured in alternating chunks of
    50 abstracts (so that both see the same load on a shared machine), best of ``repeat`` passes."""
    import spacy

    nlp = spacy.blank("en")
    log = IssueLog()
    methods.warm()
    print(
        f"{'set':6} {'abstracts':>9} {'tokenizer ms':>12} {'extract ms':>10} {'abstracts/s':>11} {'ratio':>6}"
    )
    for name, pairs in corpus.items():
        # abstracts only: the figure of the issue is per abstract
        recs = [
            Record(r.reader, r.source, r.at, abstract=r.abstract) for r in records(pairs, name) if r.abstract
        ]
        if not recs:
            continue
        texts = [r.abstract.text for r in recs if r.abstract is not None]
        # a first pass, untimed: both tokenizers (and spaCy's vocabulary) have seen every word once
        for t, r in zip(texts, recs, strict=True):
            nlp.make_doc(t)
            list(methods.extract(r, log))
        tok = ext = float("inf")
        for _ in range(repeat):
            tok_pass = ext_pass = 0.0
            for lo in range(0, len(recs), 50):
                t0 = time.process_time()
                for t in texts[lo : lo + 50]:
                    nlp.make_doc(t)
                t1 = time.process_time()
                for r in recs[lo : lo + 50]:
                    for _m in methods.extract(r, log):
                        pass
                t2 = time.process_time()
                tok_pass += t1 - t0
                ext_pass += t2 - t1
            tok, ext = min(tok, tok_pass), min(ext, ext_pass)
        n = len(recs)
        print(
            f"{name:6} {n:9d} {1000 * tok / n:12.3f} {1000 * ext / n:10.3f} {n / ext:11.0f} {ext / tok:6.1f}"
        )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("corpus")
    p.add_argument("out", type=Path)
    p.add_argument("--synth", type=Path, default=None, help="folder written by benchmarks/synth.py")
    p = sub.add_parser("dump")
    p.add_argument("corpus", type=Path)
    p.add_argument("out", type=Path)
    p = sub.add_parser("compare")
    p.add_argument("a", type=Path)
    p.add_argument("b", type=Path)
    p = sub.add_parser("time")
    p.add_argument("corpus", type=Path)
    p.add_argument("--repeat", type=int, default=3)
    p.add_argument("--only", default="", help="comma-separated sets to time")
    args = parser.parse_args()
    if args.cmd == "corpus":
        corpus = build_corpus(args.synth)
        args.out.write_text(json.dumps(corpus, ensure_ascii=False), encoding="utf-8")
        print({k: len(v) for k, v in corpus.items()})
        return 0
    if args.cmd == "compare":
        return compare(args.a, args.b)
    corpus = json.loads(args.corpus.read_text(encoding="utf-8"))
    if args.cmd == "dump":
        dump(corpus, args.out)
        return 0
    if args.only:
        corpus = {k: v for k, v in corpus.items() if k in args.only.split(",")}
    timing(corpus, args.repeat)
    return 0


if __name__ == "__main__":
    sys.exit(main())
