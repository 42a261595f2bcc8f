"""Rules, rules + a trained NER, and the NER alone on the methods dev set (tune and hold halves).

    PYTHONPATH=. python benchmarks/compare_open_vocab.py --model [LABEL=]DIR [--model ...] [--data DIR]

Each ``DIR`` is a spaCy pipeline written by ``benchmarks/train_methods_ner.py`` (its ``model-best``,
or the folder holding it).  Three set-ups, each scored with the dev set's own scorer
(``methodscore.py``) on the *tune* and the *hold* half of ``benchmarks/methods_dev.py`` (same
``graph_of`` and ``never_read``, imported, nothing changed there):

(a) ``rules``: ``kg.extractors.methods.extract`` as it is (what ``methods_dev.py`` prints);
(b) ``rules+LABEL``: the rules, plus every ``METHOD`` span the model finds in the title or the
    abstract that overlaps no span the rules reported (known method, open-vocabulary name or
    introduced name) and whose key is not already one of the paper's keys, added as an
    open-vocabulary name (kind ``named-method``, key ``name_key(span)``);
(b') ``rules+LABEL[names]``: as (b), but only spans written as names (a capital letter or a digit
    after the first character: "FooNet", "GPT-4", "Dice Loss"), the open-vocabulary target, since
    SciERC also marks generic phrases ("recognition models", "two-stage process") as methods;
(c) ``LABEL``: the model's spans alone, as ``named-method`` mentions (it finds no introduced
    names, so only its mention figures mean anything).

The model reads the masked text (``kg.extractors.methods.forms.mask``, LaTeX blanked) as the rules do.
Then SciERC test Method spans, exact and partial match, for the rules (``eval_methods.py``'s
scorer) and for each model, side by side.
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path

import spacy
from spacy.language import Language

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(ROOT))

import eval_methods  # noqa: E402
import methods_dev  # noqa: E402
from train_methods_ner import LABEL, scierc_scores  # noqa: E402

from kg.errors import IssueLog  # noqa: E402
from kg.extractors import methods  # noqa: E402
from kg.extractors.methods.forms import mask  # noqa: E402
from kg.records import Mention, Record  # noqa: E402

Extract = Callable[[Record, IssueLog], Iterator[Mention]]
RULES: Extract = methods.extract
_LINE = re.compile(
    r"mentions P \S+ R \S+ \(tp (\d+) fp (\d+) fn (\d+) of (\d+)\); "
    r"introduces P \S+ R \S+ \(tp (\d+) fp (\d+) fn (\d+) of (\d+)\)"
)


def model_spans(nlp: Language, text: str) -> list[tuple[int, int, str]]:
    """The model's METHOD spans of a field: start, end, text (stripped of edge punctuation)."""
    out = []
    for ent in nlp(mask(text)).ents:
        if ent.label_ != LABEL:
            continue
        raw = text[ent.start_char : ent.end_char]
        stripped = raw.strip(" \t\n.,;:()[]{}\"'")
        if len(stripped) < 2:
            continue
        start = ent.start_char + raw.index(stripped)
        out.append((start, start + len(stripped), stripped))
    return out


def fields(record: Record) -> list[str]:
    return [s.text for s in (record.title, record.abstract) if s is not None and s.text]


def is_name(span: str) -> bool:
    """A span written as a name: a capital letter or a digit after its first character ("FooNet", "GPT-4")."""
    return any(c.isupper() or c.isdigit() for c in span[1:])


def with_model(nlp: Language, names_only: bool = False) -> Extract:
    """(b): the rules' mentions, then the model's spans that no rule found, as named methods."""

    def extract(record: Record, log: IssueLog) -> Iterator[Mention]:
        found = list(RULES(record, log))
        keys = {m.key for m in found}
        at = record.abstract.at if record.abstract is not None else record.at
        extra = []
        for text in fields(record):
            # the rules' spans in this field (a mention's offset is into its own field)
            taken = [
                (m.position, m.position + len(m.text))
                for m in found
                if text[m.position : m.position + len(m.text)] == m.text
            ]
            for start, end, span in model_spans(nlp, text):
                key = methods.name_key(span)
                if not key or key in keys or any(start < e and s < end for s, e in taken):
                    continue
                if names_only and not is_name(span):
                    continue
                keys.add(key)
                extra.append(Mention("named-method", key, span, at, methods.NAME, position=start))
        yield from found
        yield from extra

    return extract


def alone(nlp: Language) -> Extract:
    """(c): the model's spans only, as named methods."""

    def extract(record: Record, log: IssueLog) -> Iterator[Mention]:
        at = record.abstract.at if record.abstract is not None else record.at
        for text in fields(record):
            for start, _end, span in model_spans(nlp, text):
                key = methods.name_key(span)
                if key:
                    yield Mention("named-method", key, span, at, methods.NAME, position=start)

    return extract


def scored(
    extract: Extract, sample: list[dict[str, object]], gold: list[dict[str, object]], folder: Path
) -> tuple[dict[str, tuple[int, ...]], float]:
    """Scorer counts per half (mention tp fp fn n, introduced tp fp fn n) and extraction CPU s."""
    methods.extract = extract  # graph_of calls methods.extract; put the rules back after
    try:
        graph, seconds = methods_dev.graph_of(sample)  # type: ignore[arg-type]
    finally:
        methods.extract = RULES
    out: dict[str, tuple[int, ...]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        ttl = Path(tmp) / "graph.ttl"
        graph.serialize(ttl, format="turtle")
        for name, hold in (("tune", False), ("hold", True)):
            path = Path(tmp) / f"gold-{name}.json"
            path.write_text(
                json.dumps([g for g in gold if methods_dev.never_read(str(g["key"])) == hold]), encoding="utf-8"
            )
            run = subprocess.run(
                [sys.executable, str(folder / "methodscore.py"), "score", str(folder / "sample.json"), str(path),
                 str(ttl)],
                capture_output=True, text=True, check=False,
            )  # fmt: skip
            m = _LINE.search(run.stdout)
            if m is None:
                raise SystemExit(f"scorer output not understood: {run.stdout!r} {run.stderr!r}")
            out[name] = tuple(int(x) for x in m.groups())
    return out, seconds


def prf(tp: int, fp: int, fn: int, n: int) -> tuple[float, float, float]:
    """The scorer's precision (found concepts that hit) and recall (gold items found), and F1."""
    p = tp / (tp + fp) if tp + fp else 0.0
    r = 1 - fn / n if n else 0.0
    return p, r, 2 * p * r / (p + r) if p + r else 0.0


def load(spec: str) -> tuple[str, Language]:
    label, _, path = spec.rpartition("=")
    folder = Path(path)
    if (folder / "model-best").is_dir():
        folder = folder / "model-best"
    return label or folder.parent.name, spacy.load(folder)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", action="append", default=[], help="[LABEL=]DIR, repeatable")
    parser.add_argument("--data", type=Path, default=ROOT.parent / "shared" / "data")
    args = parser.parse_args()
    folder = args.data / "methods_gold_dev"
    sample = json.loads((folder / "sample.json").read_text(encoding="utf-8"))
    gold = json.loads((folder / "gold.json").read_text(encoding="utf-8"))
    models = [load(spec) for spec in args.model]
    methods.warm()  # the matcher is built before any timing

    setups: list[tuple[str, Extract]] = [("rules", RULES)]
    for label, nlp in models:
        setups += [
            (f"rules+{label}", with_model(nlp)),
            (f"rules+{label}[names]", with_model(nlp, names_only=True)),
            (label, alone(nlp)),
        ]
    n_hold = sum(methods_dev.never_read(str(g["key"])) for g in gold)
    print(f"methods dev set: {len(gold) - n_hold} tune papers, {n_hold} hold papers (mentions scored)")
    header = f"{'set-up':24} {'half':4} {'P':>5} {'R':>5} {'F1':>5} {'tp':>4} {'fp':>4} {'fn':>4} {'of':>4}"
    print(f"{header}   {'intro P':>7} {'intro R':>7}   {'CPU s':>5}")
    for name, extract in setups:
        halves, seconds = scored(extract, sample, gold, folder)
        for half, counts in halves.items():
            p, r, f1 = prf(*counts[:4])
            ip, ir, _ = prf(*counts[4:])
            tp, fp, fn, n = counts[:4]
            cpu = f"{seconds:5.2f}" if half == "tune" else ""
            print(
                f"{name:24} {half:4} {p:5.2f} {r:5.2f} {f1:5.2f} {tp:4d} {fp:4d} {fn:4d} {n:4d}   "
                f"{ip:7.2f} {ir:7.2f}   {cpu:>5}"
            )
    print("(CPU s: extraction of all 100 papers, title and abstract; the matcher is built beforehand)")
    print()
    test = args.data / "scierc" / "test.json"
    print("SciERC test: Method spans")
    print(f"{'system':24} {'match':8} {'precision':>9} {'recall':>7} {'F1':>6} {'found':>6} {'gold':>6}")
    rows = [("rules", eval_methods.eval_scierc(methods.default_matcher(), test))]
    rows += [(label, scierc_scores(nlp, test)) for label, nlp in models]
    for name, scores in rows:
        for mode, p, r, f1, n_found, n_gold in scores:
            print(f"{name:24} {mode:8} {p:9.3f} {r:7.3f} {f1:6.3f} {n_found:6d} {n_gold:6d}")


if __name__ == "__main__":
    main()
