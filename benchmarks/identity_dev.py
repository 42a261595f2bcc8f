"""Measure the persons stage (kg.persons) on the identity dev set and on the arXiv days.

    python benchmarks/identity_dev.py dev [--data ../shared/data] [--work /tmp/identity-dev] [--errors [A|B|all]]
    python benchmarks/identity_dev.py pairs [--data ../shared/data] [--work /tmp/identity-dev] [--l2 1.0]
    python benchmarks/identity_dev.py days BUILD [--top 20]

``dev``: writes the dev papers as BibTeX (``identityscore.py bib dev``), builds them with kg, collects
every authorship and its evidence from the built graph, decides the persons with
``kg.persons.cluster.persons``, writes a copy of the graph whose authorships point at those persons
and scores both graphs with ``identityscore.py`` (B3 P/R/F1 over all authorships and over the
authorships of names several people share): on all papers and on two fixed halves (by a hash of
the paper's OpenReview key) and on two fixed halves of the names (by a hash of the name, so each
name's authorships are scored whole, which a split of papers cannot do); the rules were set looking
at the A halves only, the B halves are held out.  Each half also gets its ceiling: the gold with the
duplicate profiles (:data:`DUPLICATE_PROFILES`) joined, what a method that errs nowhere else scores.
``--errors`` lists the authorships of the shared names of the names-A half and the persons they went
to, for reading by hand (``--errors B`` or ``all`` for the others: B is held out).

``pairs``: a logistic model of "one person" fitted on the pairs of one name of the names-A half, its
log-odds deciding in place of the rules' evidence and threshold, both scored (docs/persons.md).

``days``: on a build of the arXiv days, the top authors before (one person per name) and after, each
with its papers and its coauthor-connected groups (papers linked when they share a coauthor other
than the person).
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import importlib.util
import io
import itertools
import math
import subprocess
import sys
import time
from collections import defaultdict
from pathlib import Path
from types import ModuleType
from urllib.parse import unquote

import pyoxigraph as ox

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from kg.assemble import Namer  # noqa: E402
from kg.ledger import Ledger  # noqa: E402
from kg.persons import cluster  # noqa: E402
from kg.persons.cluster import Cluster, blocks, persons  # noqa: E402
from kg.persons.evidence import AFFILIATION, Authorship, Evidence, Profile, shared_coauthors, weigh  # noqa: E402
from kg.persons.names import expected_people  # noqa: E402
from kg.persons.stage import authorships as stage_authorships  # noqa: E402

KG = "https://w3id.org/kg/ns#"
FOAF = "http://xmlns.com/foaf/0.1/"
RDF_TYPE = "http://www.w3.org/1999/02/22-rdf-syntax-ns#type"
DCT = "http://purl.org/dc/terms/"
PREFIXES = f"""PREFIX kg: <{KG}> PREFIX dcterms: <{DCT}> PREFIX schema: <https://schema.org/>
PREFIX fabio: <http://purl.org/spar/fabio/> PREFIX foaf: <{FOAF}>"""


def scorer(data: Path) -> ModuleType:
    spec = importlib.util.spec_from_file_location("identityscore", data / "identity_dev" / "identityscore.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def load(graph: Path) -> ox.Store:
    store = ox.Store()
    store.bulk_load(path=str(graph), format=ox.RdfFormat.TURTLE)
    return store


def _key(iri: str) -> str:
    return unquote(iri.rsplit("/paper/", 1)[1])


def authorships(build: Path) -> list[Authorship]:
    """Every authorship of a build with the evidence the build keeps about it: read from the build's
    ledger as the persons stage reads it (``kg.persons.stage.authorships``), so that deciding them
    again here gives the build's own persons (with other constants when ``--set`` asks)."""
    ledger = Ledger.load(build)
    if ledger is None:
        raise SystemExit(f"{build}: no ledger (a build with a thesaurus keeps none)")
    try:
        return [a for entry in ledger.entries() for a in stage_authorships(entry)]
    finally:
        ledger.close()


def rewrite(
    store: ox.Store, clusters: list[Cluster], out: Path, base: str = "https://w3id.org/kg/id/"
) -> None:
    """A copy of the graph whose authorships (and ``dcterms:creator``) point at the clusters' persons."""
    namer = Namer(base)
    person_of = {ref: c for c in clusters for ref in c.members}
    author, creator = ox.NamedNode(KG + "author"), ox.NamedNode(DCT + "creator")
    where: dict[ox.NamedNode, tuple[str, int]] = {}
    for r in store.query(PREFIXES + "SELECT ?p ?a ?pos WHERE { ?p kg:authorship ?a . ?a kg:position ?pos }"):
        where[r["a"]] = (_key(r["p"].value), int(r["pos"].value))
    copy = ox.Store()
    quads = []
    for q in store.quads_for_pattern(None, None, None, None):
        if q.predicate in (author, creator):
            continue
        quads.append(q)
    for node, ref in where.items():
        c = person_of[ref]
        iri = namer.person(c.key)
        quads.append(ox.Quad(node, author, iri))
        quads.append(ox.Quad(namer.paper(ref[0]), creator, iri))
    for c in clusters:
        iri = namer.person(c.key)
        quads.append(ox.Quad(iri, ox.NamedNode(RDF_TYPE), ox.NamedNode(FOAF + "Person")))
        quads.append(ox.Quad(iri, ox.NamedNode(FOAF + "name"), ox.Literal(c.name)))
    copy.bulk_extend(quads)
    copy.dump(str(out), ox.RdfFormat.TURTLE, from_graph=ox.DefaultGraph())


def timed(found: list[Authorship]) -> list[Cluster]:
    """The persons of the authorships, with the stage's CPU time printed."""
    start = time.process_time()
    clusters = persons(found)
    spent = time.process_time() - start
    print(
        f"persons stage: {len(found)} authorships, {len(blocks(found))} blocks, {len(clusters)} persons, {spent:.1f} s CPU"
    )
    return clusters


def half(key: str) -> str:
    """The fixed half a dev paper is in: A (tuned on) or B (held out)."""
    return "A" if hashlib.sha256(key.encode()).digest()[0] % 2 == 0 else "B"


def score(module: ModuleType, papers: list[dict[str, object]], graph: Path) -> str:
    """identityscore.py's own line for a graph."""
    text = io.StringIO()
    with contextlib.redirect_stdout(text):
        module.score(papers, str(graph), {})
    return text.getvalue().strip()


Gold = list[tuple[str, int, str, str, str]]
"""A dev authorship: (graph paper key, position, profile id, normalized name, halves of its paper and
of its name)."""


def gold(module: ModuleType, papers: list[dict[str, object]], store: ox.Store) -> tuple[Gold, set[str]]:
    """The dev authorships that have a profile id, found in the graph as identityscore.py finds them
    (by title and position), and the names several profiles share (over the whole dev set)."""
    by_title = {}
    for r in store.query(PREFIXES + "SELECT ?p ?t WHERE { ?p dcterms:title ?t }"):
        by_title[module.norm(r["t"].value)] = _key(r["p"].value)
    out: Gold = []
    ids: dict[str, set[str]] = defaultdict(set)
    for p in papers:
        named = [a for a in p["authors"] if a]  # type: ignore[attr-defined]
        for a, i in zip(p["authors"], p["ids"], strict=True):  # type: ignore[call-overload]
            if i and a:
                ids[module.norm(a)].add(i)
                at = (by_title[module.norm(p["title"])], named.index(a) + 1)
                out.append((*at, i, module.norm(a), half(str(p["key"])) + half(module.norm(a))))
    return out, {n for n, s in ids.items() if len(s) > 1}


def b3(module: ModuleType, rows: Gold, pred: dict[tuple[str, int], str], names: set[str]) -> str:
    """B3 P/R/F1 over the rows and over the rows of shared names."""
    cells = []
    for subset in (rows, [r for r in rows if r[3] in names]):
        p, r, f = module.b3([pred[row[0], row[1]] for row in subset], [row[2] for row in subset])
        cells.append(f"{p:.4f} {r:.4f} {f:.4f} ({len(subset)})")
    return " | ".join(cells)


DUPLICATE_PROFILES = frozenset(
    {
        "alejandro escontrela",
        "andy zeng",
        "fuchun sun",
        "gabriel b margolis",
        "igor mordatch",
        "masayoshi tomizuka",
    }
)
"""Names of the dev set whose researcher has two OpenReview profiles (read by hand, docs/persons.md): the
gold says two people, the papers (shared coauthors, a rare name) say one."""


Dev = tuple[ox.Store, list[Authorship], ModuleType, list[dict[str, object]], Gold, set[str]]


def prepare(args: argparse.Namespace) -> Dev:
    """The dev set built (once; ``--rebuild`` again), its authorships, the scorer, the gold authorships
    and the shared names."""
    data, work = Path(args.data), Path(args.work)
    work.mkdir(parents=True, exist_ok=True)
    bib, built = work / "dev.bib", work / "build"
    if not (built / "graph.ttl").exists() or args.rebuild:
        subprocess.run(
            [sys.executable, str(data / "identity_dev" / "identityscore.py"), "bib", "dev", str(bib)],
            check=True,
        )
        import kg

        kg.build([str(bib)], str(built))
    store = load(built / "graph.ttl")
    module = scorer(data)
    papers = module.papers("dev")
    rows, names = gold(module, papers, store)
    return store, authorships(built), module, papers, rows, names


def table(
    module: ModuleType, rows: Gold, names: set[str], found: list[Authorship], clusters: list[Cluster]
) -> None:
    """B3 on all authorships and on the halves, one person per name against kg's persons, and the ceiling
    of a method that joins the duplicate profiles' papers (as their evidence says) and errs nowhere else."""
    before = {a.at: a.name for a in found}
    after = {ref: c.key for c in clusters for ref in c.members}
    ceiling = {(r[0], r[1]): r[3] if r[3] in DUPLICATE_PROFILES else r[2] for r in rows}
    print("B3 P R F1 (authorships) over all | over the names several people share (shared in the whole set)")
    for label in ("all", "papers A", "papers B", "names A", "names B"):
        column = 0 if label.startswith("papers") else 1
        subset = rows if label == "all" else [r for r in rows if r[4][column] == label[-1]]
        print(f"{label:8} one person per name {b3(module, subset, before, names)}")
        print(f"{label:8} kg.persons          {b3(module, subset, after, names)}")
        print(f"{label:8} ceiling             {b3(module, subset, ceiling, names)}")


def dev(args: argparse.Namespace) -> None:
    store, found, module, papers, rows, names = prepare(args)
    clusters = timed(found)
    work = Path(args.work)
    # the build's own persons, scored as the graders score them
    print(f"identityscore.py, the build: {score(module, papers, work / 'build' / 'graph.ttl')}")
    if args.set:
        rewrite(store, clusters, work / "persons.ttl")
        print(f"identityscore.py, with {' '.join(args.set)}: {score(module, papers, work / 'persons.ttl')}")
    table(module, rows, names, found, clusters)
    if args.errors:
        # read the errors of one half of the names only (A, tuned on): B stays held out
        rows = [r for r in rows if args.errors == "all" or r[4][1] == args.errors]
        errors(rows, names & {r[3] for r in rows}, found, clusters)
        splits(rows, found, clusters)


FEATURES = ("intercept", "ln people", "coauthors", "topic", "senior at one venue", "years <= 2 apart")


def features(a: Profile, b: Profile) -> list[float]:
    """What a pair of authorships of one name shares, as the logistic check reads it: the evidence
    of kg.persons.evidence.weigh taken apart (the coauthors' weight capped at 9)."""
    x, y = a.authorship, b.authorship
    coauthors = sum(w for _, w in shared_coauthors(a, b))
    topic = weigh(a, b).topic
    senior = float(bool(x.venue) and x.venue == y.venue and x.senior and y.senior)
    near = float(x.year is not None and y.year is not None and abs(x.year - y.year) <= 2)
    return [1.0, math.log(expected_people(a.name)), min(coauthors, 9.0), topic, senior, near]


def fit(xs: list[list[float]], ys: list[float], l2: float) -> list[float]:
    """Logistic regression by Newton's method, an L2 penalty on all but the intercept."""
    k = len(xs[0])
    w = [0.0] * k
    for _ in range(50):
        grad = [l2 * w[i] * (i > 0) for i in range(k)]
        hess = [[l2 * (i == j and i > 0) for j in range(k)] for i in range(k)]
        for x, y in zip(xs, ys, strict=True):
            p = 1 / (1 + math.exp(-sum(wi * xi for wi, xi in zip(w, x, strict=True))))
            for i in range(k):
                grad[i] += (p - y) * x[i]
                for j in range(k):
                    hess[i][j] += p * (1 - p) * x[i] * x[j]
        step = _solve(hess, grad)
        w = [wi - si for wi, si in zip(w, step, strict=True)]
    return w


def _solve(a: list[list[float]], b: list[float]) -> list[float]:
    """``a x = b`` by Gaussian elimination with partial pivoting (a is small and positive definite)."""
    n = len(b)
    m = [[*row, b[i]] for i, row in enumerate(a)]
    for c in range(n):
        p = max(range(c, n), key=lambda r: abs(m[r][c]))
        m[c], m[p] = m[p], m[c]
        for r in range(c + 1, n):
            f = m[r][c] / m[c][c]
            m[r] = [u - f * v for u, v in zip(m[r], m[c], strict=True)]
    x = [0.0] * n
    for r in reversed(range(n)):
        x[r] = (m[r][n] - sum(m[r][c] * x[c] for c in range(r + 1, n))) / m[r][r]
    return x


def pairs(args: argparse.Namespace) -> None:
    """Fit a logistic model of "one person" on the pairs of authorships of one name in the names-A
    half (the duplicate profiles left out: their label contradicts their evidence), decide the persons
    with its log-odds in place of the rules' evidence and threshold, and print both tables."""
    _, found, module, _, rows, names = prepare(args)
    by_ref = {a.at: a for a in found}
    profile = {(r[0], r[1]): r[2] for r in rows if r[4][1] == "A" and r[3] not in DUPLICATE_PROFILES}
    of_name: dict[str, list[Authorship]] = defaultdict(list)
    for ref in profile:
        of_name[by_ref[ref].name].append(by_ref[ref])
    xs, ys = [], []
    for _, group in sorted(of_name.items()):
        found_profiles = [Profile.of(a) for a in group]
        for i, j in itertools.combinations(range(len(group)), 2):
            xs.append(features(found_profiles[i], found_profiles[j]))
            ys.append(float(profile[group[i].at] == profile[group[j].at]))
    w = fit(xs, ys, args.l2)
    print(f"{len(ys)} pairs of one name in names A, {len(ys) - int(sum(ys))} of two people")
    print("coefficients: " + ", ".join(f"{n} {c:.2f}" for n, c in zip(FEATURES, w, strict=True)))
    print("\nthe rules:")
    table(module, rows, names, found, persons(found))

    def model(a: Profile, b: Profile) -> Evidence:
        e = weigh(a, b)
        x = features(a, b)
        e.weight = sum(c * v for c, v in zip(w[2:], x[2:], strict=True)) + AFFILIATION * min(len(e.places), 2)
        return e

    cluster.weigh, cluster.MERGE_BASE, cluster.MERGE_SCALE = model, -w[0], -w[1]
    print(f"\nthe logistic model (L2 {args.l2}):")
    table(module, rows, names, found, persons(found))


def splits(rows: Gold, found: list[Authorship], clusters: list[Cluster]) -> None:
    """The profiles kg split into several persons (recall errors), with their persons' papers."""
    of = {ref: c for c in clusters for ref in c.members}
    by_ref = {a.at: a for a in found}
    by_id: dict[str, list[tuple[str, int]]] = defaultdict(list)
    for r in rows:
        by_id[r[2]].append((r[0], r[1]))
    for i, refs in sorted(by_id.items()):
        keys = sorted({of[ref].key for ref in refs})
        if len(keys) > 1:
            print(f"== split {i} ({len(refs)} papers) into {len(keys)}: {', '.join(keys)}")
            for ref in sorted(refs, key=lambda r: of[r].key):
                a = by_ref[ref]
                print(
                    f"   {of[ref].key:34} {a.year} {a.paper[:22]} {len(a.words)}w with {', '.join(a.coauthors[:5])}"
                )


def errors(rows: Gold, names: set[str], found: list[Authorship], clusters: list[Cluster]) -> None:
    """The authorships of the names several people share, by name: the profile id, the person kg gave,
    the paper's year and coauthors, and the reasons of the person."""
    of = {ref: c for c in clusters for ref in c.members}
    by_ref = {a.at: a for a in found}
    for name in sorted(names):
        print(f"== {name}")
        for key, pos, i, _, _ in sorted((r for r in rows if r[3] == name), key=lambda r: (r[2], r[0])):
            a, c = by_ref[key, pos], of[key, pos]
            print(f"   {i:24} -> {c.key:36} {a.year} {a.paper[:24]} with {', '.join(a.coauthors[:4])}")
        shown = {of[r[0], r[1]].key: of[r[0], r[1]] for r in rows if r[3] == name}
        for c in shown.values():
            for reason in c.reasons[:6]:
                print(f"      {c.key}: {reason}")


def groups(refs: list[Authorship]) -> int:
    """How many coauthor-connected groups a person's papers make (papers joined when they share a
    coauthor other than the person)."""
    parent = list(range(len(refs)))

    def find(i: int) -> int:
        while parent[i] != i:
            i = parent[i]
        return i

    owner: dict[str, int] = {}
    for i, a in enumerate(refs):
        for c in a.coauthors:
            j = owner.setdefault(c, i)
            parent[find(i)] = find(j)
    return len({find(i) for i in range(len(refs))})


def days(args: argparse.Namespace) -> None:
    found = authorships(Path(args.build))
    clusters = timed(found)
    by_ref = {a.at: a for a in found}
    before: dict[str, list[Authorship]] = defaultdict(list)
    for a in found:
        before[a.name].append(a)
    after = {c.key: [by_ref[ref] for ref in c.members] for c in clusters}
    names = {c.key: c.name for c in clusters}
    for label, table in (("before (one person per name)", before), ("after (kg.persons)", after)):
        print(f"\n{label}: {len(table)} persons")
        print("| person | papers | coauthor-connected groups |\n|---|---:|---:|")
        top = sorted(table, key=lambda k: (-len({a.paper for a in table[k]}), k))[: args.top]
        for k in top:
            shown = names.get(k, k) if table is after else by_ref[table[k][0].at].written
            suffix = f" (`{k}`)" if "~" in k else ""
            print(f"| {shown}{suffix} | {len({a.paper for a in table[k]})} | {groups(table[k])} |")
    shared_names = defaultdict(list)
    for c in clusters:
        shared_names[c.name_key].append(c)
    several = {n: cs for n, cs in shared_names.items() if len(cs) > 1}
    print(
        f"\n{len(several)} names are shared by several persons, {sum(len(cs) for cs in several.values())} persons in all"
    )


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    d = sub.add_parser("dev")
    d.add_argument("--data", default=str(ROOT.parent / "shared" / "data"))
    d.add_argument("--work", default="/tmp/identity-dev")
    d.add_argument("--rebuild", action="store_true")
    d.add_argument(
        "--errors",
        nargs="?",
        const="A",
        choices=("A", "B", "all"),
        help="list the authorships of shared names and the split profiles of one half of the names (A)",
    )
    d.add_argument(
        "--set",
        action="append",
        default=[],
        metavar="MODULE.NAME=VALUE",
        help="try another value of a constant of kg.persons (e.g. cluster.MERGE_BASE=2.5)",
    )
    p = sub.add_parser(
        "pairs", help="fit a logistic model on the names-A pairs and compare it with the rules"
    )
    p.add_argument("--data", default=str(ROOT.parent / "shared" / "data"))
    p.add_argument("--work", default="/tmp/identity-dev")
    p.add_argument("--rebuild", action="store_true")
    p.add_argument("--l2", type=float, default=1.0)
    y = sub.add_parser("days")
    y.add_argument("build")
    y.add_argument("--top", type=int, default=20)
    args = parser.parse_args(argv)
    if args.command == "days":
        days(args)
    if args.command == "pairs":
        pairs(args)
    if args.command == "dev":
        for setting in args.set:
            name, _, value = setting.partition("=")
            module, _, constant = name.rpartition(".")
            setattr(importlib.import_module("kg.persons." + module), constant, float(value))
        dev(args)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
