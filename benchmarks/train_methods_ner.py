"""Train a small spaCy NER for Method spans (SciERC, optionally the dev set's tune half) and measure it.

    PYTHONPATH=. python benchmarks/train_methods_ner.py [OUT] [--data DIR] [--with-tune] [--max-steps N]

The measurement behind the open-vocabulary choice (``docs/open-vocabulary.md``): a blank English
pipeline (``tok2vec`` + ``ner``, spaCy's CPU "efficiency" architecture: hash embeddings of NORM,
PREFIX, SUFFIX and SHAPE, width 96, depth 4; no vectors, nothing downloaded) learns one label,
``METHOD``, from

* ``DIR/scierc/train.json``: every ``Method`` span (PTB tokens unescaped, as ``eval_methods.py`` does),
  with ``DIR/scierc/dev.json`` as the early-stopping set (best ``ents_f`` kept, ``model-best``);
* with ``--with-tune``, also the *tune* half of ``DIR/methods_gold_dev`` (the papers that
  ``benchmarks/methods_dev.py::never_read`` leaves in; the hold half is never read): title and abstract
  as two documents, every occurrence of a gold method or introduced-method surface marked ``METHOD``
  (whole words, longest first), repeated ``--tune-repeat`` times.

The model is written to ``OUT`` (default ``/tmp/kg-methods-ner``; never commit it) and scored:
SciERC test Method spans, exact and partial (overlap) match, with the same scorer and text as
``benchmarks/eval_methods.py`` scores the rules; the model's size on disk; and its throughput on
the unique abstracts of ``DIR/arxiv_daily_listings/*.jsonl`` (one core, CPU time, after warm-up,
``nlp(text)`` per abstract, timed in alternating chunks of 50 against the rule extractor; and
``nlp.pipe`` in batches of 64).
``benchmarks/compare_open_vocab.py`` scores it on the dev set.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import spacy
from spacy.cli.init_config import init_config
from spacy.cli.train import train
from spacy.language import Language
from spacy.tokens import Doc, DocBin
from spacy.tokens import Span as SpacySpan
from spacy.util import filter_spans

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(ROOT))

import eval_methods  # noqa: E402
from methods_dev import never_read  # noqa: E402

from kg.errors import IssueLog  # noqa: E402
from kg.extractors import methods  # noqa: E402
from kg.extractors.methods.forms import mask  # noqa: E402
from kg.records import Location, Record, SourceFile, Span  # noqa: E402

LABEL = "METHOD"


def scierc_docs(nlp: Language, path: Path) -> list[Doc]:
    """SciERC documents (whole abstracts) with their Method spans as entities."""
    docs = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip():
            continue
        row = json.loads(line)
        words = [eval_methods._PTB.get(t, t) for sentence in row["sentences"] for t in sentence]
        doc = Doc(nlp.vocab, words=words, spaces=[True] * len(words))
        spans = [
            SpacySpan(doc, s, e + 1, label=LABEL)
            for sentence in row["ner"]
            for s, e, label in sentence
            if label == "Method"
        ]
        doc.ents = filter_spans(spans)
        docs.append(doc)
    return docs


def dev_docs(nlp: Language, sample: list[dict[str, str]], gold: list[dict[str, Any]]) -> list[Doc]:
    """Title and abstract of each given dev paper, every gold method surface marked (whole words)."""
    by_key = {str(g["key"]): g for g in gold}
    docs = []
    for paper in sample:
        annotation = by_key.get(paper["key"])
        if annotation is None:
            continue
        surfaces: set[str] = set()
        for field in ("methods", "introduced"):
            for item in annotation.get(field) or []:
                surfaces |= {s for s in item.get("surface", []) if s.strip()}
        for text in (paper["title"], paper["abstract"]):
            masked = mask(text)
            doc = nlp.make_doc(masked)
            spans = []
            for surface in sorted(surfaces, key=len, reverse=True):
                for m in re.finditer(rf"(?<!\w){re.escape(surface)}(?!\w)", masked):
                    span = doc.char_span(m.start(), m.end(), label=LABEL, alignment_mode="expand")
                    if span is not None:
                        spans.append(span)
            doc.ents = filter_spans(spans)
            docs.append(doc)
    return docs


def config(max_steps: int) -> str:
    """spaCy's CPU efficiency NER config, trained for at most ``max_steps`` with early stopping."""
    cfg = init_config(lang="en", pipeline=["ner"], optimize="efficiency", gpu=False)
    cfg["training"]["max_steps"] = max_steps
    cfg["training"]["max_epochs"] = 0
    cfg["training"]["patience"] = 600
    cfg["training"]["eval_frequency"] = 100
    return str(cfg.to_str())


def scierc_scores(nlp: Language, path: Path) -> list[tuple[str, float, float, float, int, int]]:
    """Exact and partial Method-span P/R/F1 on a SciERC split, as ``eval_methods.py`` scores the rules."""
    docs = eval_methods.scierc_documents(path)
    predicted = [
        {(e.start_char, e.end_char) for e in nlp(text).ents if e.label_ == LABEL} for text, _s, _g in docs
    ]
    rows = []
    for mode in ("exact", "partial"):
        tp_found = tp_gold = n_found = n_gold = 0
        for (_text, _spans, gold), found in zip(docs, predicted, strict=True):
            a, b, _ = eval_methods.score(gold, found, mode == "partial")
            tp_found, tp_gold = tp_found + a, tp_gold + b
            n_found, n_gold = n_found + len(found), n_gold + len(gold)
        p = tp_found / n_found if n_found else 0.0
        r = tp_gold / n_gold if n_gold else 0.0
        rows.append((mode, p, r, 2 * p * r / (p + r) if p + r else 0.0, n_found, n_gold))
    return rows


def throughput(nlp: Language, texts: list[str]) -> tuple[float, float, int]:
    """CPU seconds of the model and of the rule extractor over ``texts``, and the model's span count."""
    source = SourceFile("bench.jsonl", "0" * 64, "bench")
    at = Location("bench.jsonl", 1)
    records = [Record("bench", source, at, abstract=Span(t, at)) for t in texts]
    log = IssueLog()
    for r, t in zip(records, texts, strict=True):  # warm-up for both
        list(methods.extract(r, log))
        nlp(mask(t))
    model = rules = 0.0
    spans = 0
    for lo in range(0, len(texts), 50):
        t0 = time.process_time()
        for t in texts[lo : lo + 50]:
            spans += len(nlp(mask(t)).ents)
        t1 = time.process_time()
        for r in records[lo : lo + 50]:
            list(methods.extract(r, log))
        t2 = time.process_time()
        model += t1 - t0
        rules += t2 - t1
    return model, rules, spans


def batched(nlp: Language, texts: list[str]) -> float:
    """CPU seconds of ``nlp.pipe`` over ``texts`` in batches of 64 (how a build could call it)."""
    t0 = time.process_time()
    for _doc in nlp.pipe((mask(t) for t in texts), batch_size=64):
        pass
    return time.process_time() - t0


def size_of(folder: Path) -> int:
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", nargs="?", type=Path, default=Path("/tmp/kg-methods-ner"))
    parser.add_argument("--data", type=Path, default=ROOT.parent / "shared" / "data")
    parser.add_argument("--with-tune", action="store_true", help="also train on the dev set's tune half")
    parser.add_argument("--tune-repeat", type=int, default=2, help="copies of each tune document")
    parser.add_argument("--max-steps", type=int, default=2000)
    args = parser.parse_args()

    nlp = spacy.blank("en")
    train_docs = scierc_docs(nlp, args.data / "scierc" / "train.json")
    dev = scierc_docs(nlp, args.data / "scierc" / "dev.json")
    extra: list[Doc] = []
    if args.with_tune:
        folder = args.data / "methods_gold_dev"
        sample = json.loads((folder / "sample.json").read_text(encoding="utf-8"))
        gold = json.loads((folder / "gold.json").read_text(encoding="utf-8"))
        tune = [p for p in sample if not never_read(p["key"])]
        extra = dev_docs(nlp, tune, gold)
        print(f"tune half: {len(tune)} papers, {sum(len(d.ents) for d in extra)} marked spans")
    print(
        f"training: {len(train_docs)} SciERC train docs ({sum(len(d.ents) for d in train_docs)} Method spans)"
        f" + {len(extra)} x {args.tune_repeat if extra else 0} dev-set docs; early stopping on "
        f"{len(dev)} SciERC dev docs"
    )
    t0, c0 = time.perf_counter(), time.process_time()
    with tempfile.TemporaryDirectory() as tmp:
        DocBin(docs=train_docs + extra * args.tune_repeat).to_disk(Path(tmp) / "train.spacy")
        DocBin(docs=dev).to_disk(Path(tmp) / "dev.spacy")
        (Path(tmp) / "config.cfg").write_text(config(args.max_steps), encoding="utf-8")
        train(
            Path(tmp) / "config.cfg",
            args.out,
            use_gpu=-1,
            overrides={
                "paths.train": str(Path(tmp) / "train.spacy"),
                "paths.dev": str(Path(tmp) / "dev.spacy"),
            },
        )
    print(f"trained in {time.perf_counter() - t0:.0f} s wall, {time.process_time() - c0:.0f} CPU s")

    best = args.out / "model-best"
    model = spacy.load(best)
    print()
    print(f"model: {best} ({size_of(best) / 1e6:.1f} MB on disk)")
    print()
    print("SciERC test: Method spans (model)")
    print(f"{'match':8} {'precision':>9} {'recall':>7} {'F1':>6} {'found':>6} {'gold':>6}")
    for mode, p, r, f1, n_found, n_gold in scierc_scores(model, args.data / "scierc" / "test.json"):
        print(f"{mode:8} {p:9.3f} {r:7.3f} {f1:6.3f} {n_found:6d} {n_gold:6d}")
    print()
    texts = eval_methods.abstracts(args.data / "arxiv_daily_listings")
    seconds, rules, spans = throughput(model, texts)
    n = len(texts)
    print(
        "throughput (one core, after warm-up; CPU time; model: nlp(text) per abstract, pipe: batches of 64)"
    )
    print(f"{'':6} {'abstracts':>9} {'spans':>6} {'seconds':>8} {'ms/abstract':>11} {'abstracts/s':>11}")
    print(f"{'model':6} {n:9d} {spans:6d} {seconds:8.2f} {1000 * seconds / n:11.3f} {n / seconds:11.0f}")
    piped = batched(model, texts)
    print(f"{'pipe':6} {n:9d} {'':6} {piped:8.2f} {1000 * piped / n:11.3f} {n / piped:11.0f}")
    print(f"{'rules':6} {n:9d} {'':6} {rules:8.2f} {1000 * rules / n:11.3f} {n / rules:11.0f}")
    print(f"rules + model: {(rules + seconds) / rules:.1f}x the rules' cost per abstract")


if __name__ == "__main__":
    main()
