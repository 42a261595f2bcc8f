"""Score the methods extractor on the hand-annotated dev set, fast and in-process, on two halves.

    PYTHONPATH=. python benchmarks/methods_dev.py [--data DIR] [--show N]

Runs :func:`kg.extractors.methods.extract` on every paper of ``DIR/methods_gold_dev/sample.json``,
writes a graph in the shape ``kg build`` assembles (mentions with evidence, introduced methods,
datasets; ``graph.ttl`` in the output folder) and scores it with the dev set's own scorer
(``methodscore.py``) on a fixed split: the *tune* half (the papers whose misses a developer may
read) and the *hold* half (kept aside to check that a change generalizes; never read its misses).
The split is by a hash of the paper key, so it is the same on every machine.  The figure a release
reports is the full set through ``kg build`` (``docs/methods.md`` gives both commands).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import rdflib
from rdflib.namespace import DCTERMS, RDF, SKOS

from kg.errors import IssueLog
from kg.extractors import methods
from kg.records import Location, Record, SourceFile, Span
from kg.vocab import KG_BASE

ROOT = Path(__file__).resolve().parents[1]
SDO = rdflib.Namespace("https://schema.org/")
KG = rdflib.Namespace(KG_BASE)
KNOWN = rdflib.Namespace(methods.METHOD_BASE)
NEW = rdflib.Namespace("https://w3id.org/kg/id/method/")
RESOURCE = rdflib.Namespace("https://w3id.org/kg/id/resource/")


def _bucket(key: str) -> int:
    return int(hashlib.sha1(key.encode()).hexdigest(), 16) % 10


def held_out(key: str) -> bool:
    """Whether a paper is in the hold half (buckets 0-4 of ten, by a hash of its key: 51 papers).

    Buckets 0-2 (31 papers) were the hold third of the first round and have never been read; buckets
    3-4 were read then.  The tune half is buckets 5-9 (49 papers)."""
    return _bucket(key) < 5


def never_read(key: str) -> bool:
    """Whether a paper is in the first round's hold third (buckets 0-2), which nobody has read."""
    return _bucket(key) < 3


def graph_of(sample: list[dict[str, object]]) -> tuple[rdflib.Graph, float]:
    """The extractor's graph of the sample and the CPU seconds extraction took."""
    g = rdflib.Graph()
    g.bind("kg", KG)
    g.parse(methods.taxonomy_path())
    source, at = SourceFile("dev", "dev", "dev"), Location("dev", 1)
    t0 = time.process_time()
    for i, paper in enumerate(sample):
        node = rdflib.URIRef(f"https://w3id.org/kg/id/paper/{i}")
        g.add((node, RDF.type, SDO.ScholarlyArticle))
        g.add((node, DCTERMS.title, rdflib.Literal(paper["title"])))
        record = Record(
            "dev", source, at, title=Span(str(paper["title"]), at), abstract=Span(str(paper["abstract"]), at)
        )
        seen: set[tuple[str, str]] = set()
        for m in methods.extract(record, IssueLog()):
            if (m.kind, m.key) in seen:
                continue
            seen.add((m.kind, m.key))
            detail = dict(m.detail)
            if m.kind in ("introduced-method", "introduced-resource"):
                resource = m.kind == "introduced-resource"
                concept = (RESOURCE if resource else NEW)[m.key]
                g.add((node, KG.introduces, concept))
                g.add((concept, SDO.name if resource else SKOS.prefLabel, rdflib.Literal(m.text)))
                if resource and detail.get("type") != "library":
                    g.add((concept, RDF.type, SDO.Dataset))
                for key, prop in (("full", SKOS.altLabel), ("short", KG.shortForm)):
                    if detail.get(key) and not resource:
                        g.add((concept, prop, rdflib.Literal(detail[key])))
                continue
            concept = KNOWN[m.key] if m.kind == "method" else NEW[m.key]
            if m.kind == "named-method":
                g.add((concept, SKOS.prefLabel, rdflib.Literal(detail.get("label", m.text))))
            g.add((node, SDO.mentions, concept))
            evidence = rdflib.URIRef(f"https://w3id.org/kg/id/evidence/{i}-{m.key}")
            g.add((node, KG.evidence, evidence))
            g.add((evidence, KG.evidenceOf, concept))
            g.add((evidence, KG.matchedText, rdflib.Literal(m.text)))
    return g, time.process_time() - t0


def miss_causes(sample: list[dict[str, object]], gold: list[dict[str, object]]) -> dict[str, list[str]]:
    """The gold methods the extractor misses, by cause: a hidden label vetoed for want of context,
    a known method written in a form no label matches, a name no list holds (open vocabulary), or a
    method the vocabulary lacks."""
    from kg.extractors.methods.forms import norm_label

    matcher = methods.default_matcher()
    hidden = {norm_label(label) for c in matcher.concepts.values() for label in c.hidden}
    known = matcher.label_to_slug
    texts = {str(p["key"]): f"{p['title']}\n{p['abstract']}" for p in sample}
    causes: dict[str, list[str]] = {"ambiguity veto": [], "form not matched": [], "open-vocabulary miss": [],
                                    "not in vocabulary": []}  # fmt: skip
    source, at = SourceFile("dev", "dev", "dev"), Location("dev", 1)
    for item in gold:
        key = str(item["key"])
        title, abstract = texts[key].split("\n", 1)
        record = Record("dev", source, at, title=Span(title, at), abstract=Span(abstract, at))
        found = {norm_label(m.text) for m in methods.extract(record, IssueLog())} | {
            norm_label(label)
            for m in methods.extract(record, IssueLog())
            if m.kind == "method"
            for label in (matcher.concepts[m.key].labels if m.key in matcher.concepts else ())
        }
        for method in item.get("methods", []):  # type: ignore[attr-defined]
            if method.get("generic"):
                continue
            forms = {norm_label(method["name"])} | {norm_label(s) for s in method.get("surface", [])}
            if any(f in found or any(f in x or x in f for x in found if len(x) > 3) for f in forms):
                continue
            surfaces = {norm_label(s) for s in method.get("surface", [])}
            if surfaces & hidden:
                cause = "ambiguity veto"
            elif norm_label(method["name"]) in known or forms & set(known):
                cause = "form not matched"
            elif any(
                any(c.isupper() for c in s[1:]) or any(c.isdigit() for c in s)
                for s in method.get("surface", [])
            ):
                cause = "open-vocabulary miss"
            else:
                cause = "not in vocabulary"
            causes[cause].append(f"{method['name']} ({'; '.join(method.get('surface', []))})")
    return causes


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=ROOT.parent / "shared" / "data")
    parser.add_argument("--show", type=int, default=0, help="misses and false hits to list (tune half only)")
    parser.add_argument("--causes", action="store_true", help="count the misses of the tune half by cause")
    args = parser.parse_args()
    folder = args.data / "methods_gold_dev"
    sample = json.loads((folder / "sample.json").read_text(encoding="utf-8"))
    gold = json.loads((folder / "gold.json").read_text(encoding="utf-8"))
    graph, seconds = graph_of(sample)
    print(f"extraction: {len(sample)} papers in {seconds:.2f} CPU s (with building the matcher)")
    with tempfile.TemporaryDirectory() as tmp:
        ttl = Path(tmp) / "graph.ttl"
        graph.serialize(ttl, format="turtle")
        halves = {
            "tune": [g for g in gold if not held_out(g["key"])],
            "hold": [g for g in gold if held_out(g["key"])],
            "hold, never read": [g for g in gold if never_read(g["key"])],
            "all": gold,
        }
        for name, part in halves.items():
            path = Path(tmp) / f"gold-{name.replace(' ', '_').replace(',', '')}.json"
            path.write_text(json.dumps(part), encoding="utf-8")
            show = ["--show", str(args.show)] if args.show and name == "tune" else []
            out = subprocess.run(
                [sys.executable, str(folder / "methodscore.py"), "score", str(folder / "sample.json"), str(path),
                 str(ttl), *show],
                capture_output=True, text=True, check=False,
            ).stdout.strip().splitlines()  # fmt: skip
            for line in out[:-1]:
                print(line)
            print(f"{name}: {out[-1].split('; want')[0] if out else '(scorer printed nothing)'}")
    if args.causes:
        # the tune half only: the hold half's misses are not to be read (its figure would stop being unseen)
        for cause, items in miss_causes(sample, [g for g in gold if not held_out(g["key"])]).items():
            print(f"{cause}: {len(items)}")
            for item in items:
                print(f"    {item}")


if __name__ == "__main__":
    main()
