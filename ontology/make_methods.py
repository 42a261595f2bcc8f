"""Generate ``ontology/methods.ttl``, the SKOS taxonomy of machine-learning methods.

Run from the repository root (it reads nothing outside the repository)::

    python ontology/make_methods.py            # --check: fail unless methods.ttl is what the tables give

Inputs, all tables in ``ontology/`` (their columns are documented in ``docs/methods.md``):

* ``methods-curated.tsv`` -- hand-written families, modern methods and named models, with labels,
  ``skos:broader`` links, flags (``top``, ``generic``), short forms that count alone or only in
  context, and one-sentence definitions written for this project;
* ``methods-pwc.tsv`` -- the Papers with Code methods snapshot (CC BY-SA 4.0): names, full names,
  collections and paper counts only (``ontology/import_pwc.py`` writes it from the snapshot);
* ``methods-rules.tsv`` -- the rules that pick and place Papers with Code methods and keep labels
  clean (minimum paper count, collection -> broader, skips, merges, short labels allowed, labels
  dropped with the reason).

The output is deterministic: concepts are sorted by slug, labels alphabetically, and the same
inputs always give byte-identical output.  The script fails if a label would belong to two
concepts, a ``skos:broader`` target is missing, or the hierarchy has a cycle.
"""

from __future__ import annotations

import itertools
import re
import sys
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path
from typing import NamedTuple

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
CURATED_PATHS = (HERE / "methods-curated.tsv", HERE / "methods-models.tsv")
PWC_PATH = HERE / "methods-pwc.tsv"
RULES_PATH = HERE / "methods-rules.tsv"
OUT_PATH = HERE / "methods.ttl"
BASE = "https://w3id.org/kg/method/"
PWC_METHOD_URL = "https://paperswithcode.com/method/"


def read_table(path: Path) -> list[dict[str, str]]:
    """The rows of a tab-separated table whose first non-comment line names the columns."""
    rows: list[dict[str, str]] = []
    header: list[str] | None = None
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        cells = line.split("\t")
        if header is None:
            header = cells
            continue
        if len(cells) > len(header):
            raise SystemExit(f"{path.name}:{n}: {len(cells)} cells, expected at most {len(header)}")
        rows.append(dict(zip(header, cells + [""] * (len(header) - len(cells)), strict=True)))
    return rows


def labels_of(cell: str) -> tuple[str, ...]:
    return tuple(x.strip() for x in cell.split(" | ") if x.strip())


class Concept(NamedTuple):
    slug: str
    pref: str
    alts: tuple[str, ...]
    broader: tuple[str, ...]
    flags: frozenset[str]
    related: tuple[str, ...]
    definition: str
    scope_note: str
    context_labels: tuple[str, ...]


class Rules(NamedTuple):
    min_papers: int
    collection_broader: dict[str, str]
    broader_override: dict[str, tuple[str, ...]]
    skip: frozenset[str]
    merge: dict[str, str]
    short_label_allow: frozenset[str]
    dropped_labels: dict[str, str]
    known_acronyms: frozenset[str]
    model_families: frozenset[str]
    alt_labels: dict[str, tuple[str, ...]]


def read_curated(paths: tuple[Path, ...] = CURATED_PATHS) -> list[Concept]:
    return [
        Concept(
            r["slug"],
            r["pref_label"],
            labels_of(r["alt_labels"]),
            tuple(r["broader"].split()),
            frozenset(r["flags"].replace(",", " ").split()),
            tuple(r["related"].split()),
            r["definition"],
            r["scope_note"],
            labels_of(r.get("context_labels", "")),
        )
        for path in paths
        for r in read_table(path)
    ]


def read_rules(path: Path = RULES_PATH) -> Rules:
    rows = read_table(path)
    by: dict[str, list[dict[str, str]]] = {}
    for r in rows:
        by.setdefault(r["rule"], []).append(r)
    known = {"min-papers", "collection-broader", "broader-override", "skip", "merge", "short-label",
             "dropped-label", "known-acronym", "model-family", "alt-label"}  # fmt: skip
    if set(by) - known:
        raise SystemExit(f"{path.name}: unknown rules {sorted(set(by) - known)}")
    return Rules(
        int(by["min-papers"][0]["value"]),
        {r["key"]: r["value"] for r in by.get("collection-broader", [])},
        {r["key"]: tuple(r["value"].split()) for r in by.get("broader-override", [])},
        frozenset(r["key"] for r in by.get("skip", [])),
        {r["key"]: r["value"] for r in by.get("merge", [])},
        frozenset(r["key"] for r in by.get("short-label", [])),
        {r["key"]: r["note"] for r in by.get("dropped-label", [])},
        frozenset(r["key"] for r in by.get("known-acronym", [])),
        frozenset(r["key"] for r in by.get("model-family", [])),
        {r["key"]: labels_of(r["value"]) for r in by.get("alt-label", [])},
    )


def read_pwc(path: Path = PWC_PATH) -> list[dict[str, object]]:
    return [
        {
            "url": r["url"],
            "name": r["name"],
            "full_name": r["full_name"],
            "collections": [{"collection": c} for c in labels_of(r["collections"])],
            "num_papers": int(r["num_papers"] or 0),
        }
        for r in read_table(path)
    ]


CURATED = read_curated()
RULES = read_rules()

HEAD_NOUNS = frozenset(
    {
        "simulator",
        "solver",
        "emulator",
        "surrogate",
        "generator",
        "detector",
        "bandit",
        "iteration",
        "reasoner",
        "model",
        "network",
        "machine",
        "autoencoder",
        "auto-encoder",
        "transformer",
        "layer",
        "unit",
        "block",
        "adapter",
        "embedding",
        "encoding",
        "connection",
        "kernel",
        "tree",
        "forest",
        "head",
        "module",
        "operator",
        "field",
        "estimator",
        "classifier",
        "method",
        "algorithm",
        "schedule",
        "scheduler",
        "optimizer",
        "optimiser",
        "mechanism",
        "bridge",
        "interpolant",
        "equation",
        "flow",
        "process",
        "representation",
        "vector",
        "prompt",
        "ticket",
        "agent",
        "law",
        "probe",
        "sampler",
        "filter",
        "function",
        "penalty",
        "strategy",
        "policy",
        "example",
        "attack",
        "perceptron",
        "convolution",
        "net",
        "regularizer",
        "rule",
        "cell",
        "gate",
        "decoder",
        "encoder",
        "learner",
        "judge",
        "map",
        "network-",
        "technique",
        "circuit",
        "feature",
        "distribution",
        "game",
        "bound",
        "architecture",
        "expert",
    }
)
PLURAL_ACRONYMS = frozenset(
    {
        "ANN",
        "DNN",
        "MLP",
        "CNN",
        "RNN",
        "LLM",
        "LM",
        "LRM",
        "SLM",
        "VLM",
        "MLLM",
        "SSM",
        "GNN",
        "GCN",
        "GAT",
        "MPNN",
        "KAN",
        "DEQ",
        "INR",
        "DLM",
        "DDLM",
        "VAE",
        "GAN",
        "EBM",
        "SAE",
        "PINN",
        "FNO",
        "ESN",
        "HMM",
        "GMM",
        "NTK",
        "ODE",
        "SDE",
        "CDE",
        "HNN",
        "RBM",
        "DQN",
        "BFM",
        "PRM",
        "MDM",
        "LDM",
        "DiT",
        "ConvNet",
        "TGNN",
        "TGN",
        "LTC",
        "CNF",
        "SVM",
        "CRF",
        "MoE",
        "MDP",
        "PGM",
    }
)
JOINABLE_PREFIXES = frozenset({"pre", "fine", "re", "co", "multi", "non", "semi"})
IZE_RE = re.compile(r"\b([a-z]{3,})iz(ation|ations|ing|er|ers)\b")


# --------------------------------------------------------------------------------------------
# label helpers
# --------------------------------------------------------------------------------------------
def norm(label: str) -> str:
    """Canonical form of a label: NFC, en-dashes in words as hyphens, single spaces."""
    label = unicodedata.normalize("NFC", label).strip().rstrip(".")
    label = re.sub(r"(?<=\w)[‐‑–](?=\w)", "-", label)
    return re.sub(r"\s+", " ", label)


def key(label: str) -> str:
    return norm(label).casefold()


def slugify(text: str) -> str:
    text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii").lower()
    text = text.replace("+", " plus ")
    return re.sub(r"[^a-z0-9]+", "-", text).strip("-")


def plural(word: str) -> str:
    if word.endswith("y") and len(word) > 2 and word[-2] not in "aeiou":
        return word[:-1] + "ies"
    if word.endswith(("s", "x", "ch", "sh")):
        return word + "es"
    return word + "s"


def singular(word: str) -> str | None:
    for noun in HEAD_NOUNS:
        if plural(noun) == word:
            return noun
    return None


def number_variants(label: str) -> set[str]:
    out: set[str] = set()
    if " of " in label:  # "mixture of experts", "low-rank adaptation of LLMs": leave as written
        return out
    if label in PLURAL_ACRONYMS:
        out.add(label + "s")
        return out
    if label.endswith("s") and label[:-1] in PLURAL_ACRONYMS:
        out.add(label[:-1])
        return out
    head, sep, last = label.rpartition(" ")
    if not sep:
        head, last = "", label
    low = last.lower()
    if low in HEAD_NOUNS or any(low.endswith("-" + n) for n in HEAD_NOUNS):
        out.add((head + sep if head else "") + plural(last))
    elif (sing := singular(low)) is not None or ("-" in low and singular(low.rsplit("-", 1)[1]) is not None):
        if sing is None:
            stem, tail = last.rsplit("-", 1)
            tail_sing = singular(tail.lower())
            assert tail_sing is not None
            new_last = stem + "-" + tail_sing
        else:
            new_last = last[: len(sing)] if last.lower().startswith(sing) else sing
        out.add((head + sep if head else "") + new_last)
    return out


def hyphen_variants(label: str) -> set[str]:
    parts = re.split(r"(?<=\w)-(?=\w)", label)
    if len(parts) == 1:
        return set()
    out: set[str] = set()
    # every hyphen/space combination for up to two hyphens, otherwise only all-spaces
    choices = (
        itertools.product(("-", " "), repeat=len(parts) - 1)
        if len(parts) <= 3
        else [(" ",) * (len(parts) - 1)]
    )
    for seps in choices:
        out.add(parts[0] + "".join(s + p for s, p in zip(seps, parts[1:], strict=True)))
    # "fine-tuning" -> "finetuning", "pre-training" -> "pretraining"
    joined = parts[0]
    for sep_part in parts[1:]:
        prev_word = re.split(r"\W", joined)[-1].lower()
        joined += ("" if prev_word in JOINABLE_PREFIXES else "-") + sep_part
    out.add(joined)
    out.discard(label)
    return out


def british_variants(label: str) -> set[str]:
    new = IZE_RE.sub(lambda m: m.group(1) + "is" + m.group(2), label)
    return {new} if new != label else set()


def expand(label: str) -> list[str]:
    """A label and its generated spelling, hyphenation and number variants (label first)."""
    seen = {label}
    frontier = [label]
    for fn in (british_variants, hyphen_variants, number_variants):
        new: list[str] = []
        for lab in frontier:
            for v in sorted(fn(lab)):
                if v not in seen:
                    seen.add(v)
                    new.append(v)
        frontier += new
    return frontier


def short(label: str) -> bool:
    return len(re.sub(r"[\W_]", "", label)) <= 3


def allowed(label: str) -> bool:
    k = key(label)
    if not k or k in RULES.dropped_labels:
        return False
    return not (
        short(label) and k not in RULES.short_label_allow and k.rstrip("s") not in RULES.short_label_allow
    )


# --------------------------------------------------------------------------------------------
# model
# --------------------------------------------------------------------------------------------
@dataclass
class Node:
    slug: str
    pref: str
    alts: list[str] = field(default_factory=list)
    broader: set[str] = field(default_factory=set)
    related: set[str] = field(default_factory=set)
    definition: str | None = None
    scope_note: str | None = None
    sources: set[str] = field(default_factory=set)
    top: bool = False
    curated: bool = True
    hidden: list[str] = field(default_factory=list)
    generic: bool = False
    family: bool = False
    paradigm: bool = False


class Taxonomy:
    def __init__(self) -> None:
        self.nodes: dict[str, Node] = {}
        self.owner: dict[str, str] = {}  # label key -> slug
        self.dropped: list[tuple[str, str, str]] = []  # (slug, label, reason)
        self.conflicts: list[str] = []  # a curated label claimed twice

    def claim(self, node: Node, label: str, *, strict: bool, hidden: bool = False) -> bool:
        label = norm(label)
        if not allowed(label):
            self.dropped.append((node.slug, label, "label policy"))
            return False
        k = key(label)
        holder = self.owner.get(k)
        if holder == node.slug:
            return False
        if holder is not None:
            if strict:
                self.conflicts.append(f"label {label!r} of {node.slug} already belongs to {holder}")
            self.dropped.append((node.slug, label, f"held by {holder}"))
            return False
        self.owner[k] = node.slug
        if key(node.pref) != k:
            # a short all-capitals label is ambiguous (SSM, WD, DM) unless it is a known acronym
            if hidden or (ambiguous_caps(label) and label.rstrip("s") not in RULES.known_acronyms):
                node.hidden.append(label)
            else:
                node.alts.append(label)
        return True

    def add_labels(self, node: Node, labels: list[str], *, strict_base: bool, hidden: bool = False) -> None:
        for base in labels:
            for i, variant in enumerate(expand(norm(base))):
                self.claim(node, variant, strict=strict_base and i == 0, hidden=hidden)

    def add(self, node: Node, labels: list[str], *, strict: bool) -> None:
        if node.slug in self.nodes:
            raise SystemExit(f"duplicate slug {node.slug}")
        if not allowed(node.pref):
            raise SystemExit(f"prefLabel {node.pref!r} of {node.slug} violates the label policy")
        self.nodes[node.slug] = node
        self.add_labels(node, [node.pref, *labels], strict_base=strict)


def ambiguous_caps(label: str) -> bool:
    """Short all-capitals labels (SSM, S4, WD) are ambiguous unless listed as known acronyms."""
    return bool(re.fullmatch(r"[A-Z][A-Z0-9]{1,3}s?", label))


def is_acronym(name: str) -> bool:
    return bool(re.fullmatch(r"[A-Z0-9][A-Z0-9\-+.]*", name))


def pwc_rule(table: dict[str, object], url_slug: str, name_slug: str) -> object | None:
    if url_slug in table:
        return table[url_slug]
    return table.get(name_slug)


def build() -> Taxonomy:
    tax = Taxonomy()
    for cpt in CURATED:
        node = Node(
            cpt.slug,
            norm(cpt.pref),
            broader=set(cpt.broader),
            definition=cpt.definition or None,
            scope_note=cpt.scope_note or None,
            top="top" in cpt.flags,
            generic="generic" in cpt.flags,
            family="family" in cpt.flags,
            paradigm="paradigm" in cpt.flags,
        )
        unknown = cpt.flags - {"top", "generic", "family", "paradigm"}
        if unknown:
            raise SystemExit(f"{cpt.slug}: unknown flags {sorted(unknown)}")
        tax.add(node, list(cpt.alts), strict=True)
        tax.add_labels(node, list(cpt.context_labels), strict_base=True, hidden=True)

    methods = read_pwc()
    methods.sort(key=lambda m: (-int(m.get("num_papers") or 0), m["name"]))
    pending: list[tuple[Node, list[str], list[str]]] = []
    for m in methods:
        name = norm(m["name"])
        full = norm(m.get("full_name") or "")
        if full in ("", "None"):
            full = name
        url = m.get("url") or ""
        url_slug = url.rstrip("/").rsplit("/", 1)[-1]
        name_slug = slugify(name)
        names = [name] if key(full) == key(name) else [full, name]

        target = pwc_rule(RULES.merge, url_slug, name_slug)
        if target is None and name_slug in tax.nodes and tax.nodes[name_slug].curated:
            target = name_slug
        if target is None:
            holders = {tax.owner[key(n)] for n in names if key(n) in tax.owner}
            if len(holders) == 1:
                target = holders.pop()
        if target is not None:
            node = tax.nodes[str(target)]
            node.sources.add(url)
            tax.add_labels(node, names, strict_base=False)
            continue
        if url_slug in RULES.skip or name_slug in RULES.skip:
            continue
        if int(m.get("num_papers") or 0) < RULES.min_papers:
            continue
        override = pwc_rule(RULES.broader_override, url_slug, name_slug)
        collection_broader = [
            RULES.collection_broader[col["collection"]]
            for col in m.get("collections") or []
            if col.get("collection") in RULES.collection_broader
        ]
        if not override and not collection_broader:
            continue
        if name_slug in tax.nodes or any(p.slug == name_slug for p, _, _ in pending):
            continue
        pref = full if is_acronym(name) and key(full) != key(name) else name
        node = Node(name_slug, pref, sources={url}, curated=False)
        pending.append((node, names, list(override) if override else collection_broader[:1]))

    # add PwC concepts; their broader may point at other PwC concepts, resolved afterwards
    for node, names, _ in pending:
        if not allowed(node.pref) or key(node.pref) in tax.owner:
            survivors = [n for n in names if allowed(n) and key(n) not in tax.owner]
            if not survivors:
                tax.dropped.append((node.slug, node.pref, "no usable label"))
                continue
            node.pref = survivors[0]
        tax.add(node, [n for n in names if n != node.pref], strict=False)
    for node, _, broader in pending:
        if node.slug not in tax.nodes:
            continue
        chosen = [b for b in broader if b in tax.nodes and b != node.slug]
        if not chosen:
            # fall back to the collection mapping, then to the generic family
            chosen = [b for b in broader if b in tax.nodes] or ["neural-network-component"]
        node.broader = set(chosen)

    for slug, labels in sorted(RULES.alt_labels.items()):
        if slug not in tax.nodes:
            raise SystemExit(f"alt-label rule for unknown concept {slug}")
        tax.add_labels(tax.nodes[slug], list(labels), strict_base=True)
    for slug in sorted(RULES.model_families):
        if slug not in tax.nodes:
            raise SystemExit(f"model-family rule for unknown concept {slug}")
        tax.nodes[slug].family = True
    for cpt in CURATED:
        for b in cpt.related:
            if b not in tax.nodes:
                raise SystemExit(f"skos:related between unknown concepts {cpt.slug} / {b}")
            tax.nodes[cpt.slug].related.add(b)
            tax.nodes[b].related.add(cpt.slug)
    return tax


# --------------------------------------------------------------------------------------------
# checks
# --------------------------------------------------------------------------------------------
def check(tax: Taxonomy) -> None:
    seen: dict[str, str] = {}
    for node in tax.nodes.values():
        labels = [node.pref, *node.alts, *node.hidden]
        if len({key(x) for x in labels}) != len(labels):
            raise SystemExit(f"duplicate label inside {node.slug}: {labels}")
        for lab in labels:
            k = key(lab)
            if k in seen and seen[k] != node.slug:
                raise SystemExit(f"label {lab!r} shared by {seen[k]} and {node.slug}")
            seen[k] = node.slug
        for b in node.broader:
            if b not in tax.nodes:
                raise SystemExit(f"{node.slug}: broader target {b} does not exist")
        if not node.top and not node.broader:
            raise SystemExit(f"{node.slug} has no broader concept")
        if not re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", node.slug):
            raise SystemExit(f"bad slug {node.slug!r}")
    # cycle check (DFS over broader)
    state: dict[str, int] = {}

    def visit(slug: str, path: list[str]) -> None:
        if state.get(slug) == 2:
            return
        if state.get(slug) == 1:
            raise SystemExit("broader cycle: " + " -> ".join([*path, slug]))
        state[slug] = 1
        for b in sorted(tax.nodes[slug].broader):
            visit(b, [*path, slug])
        state[slug] = 2

    for slug in sorted(tax.nodes):
        visit(slug, [])


# --------------------------------------------------------------------------------------------
# Turtle output
# --------------------------------------------------------------------------------------------
def lit(text: str) -> str:
    esc = text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n").replace("\r", "\\r")
    return f'"{esc}"@en'


def render(tax: Taxonomy) -> str:
    tops = sorted(n.slug for n in tax.nodes.values() if n.top)
    out = [
        "# Machine-learning method taxonomy (SKOS).",
        "# GENERATED by ontology/make_methods.py from ontology/methods-curated.tsv, methods-rules.tsv and",
        "# methods-pwc.tsv; do not edit by hand.  Names of concepts with a paperswithcode dcterms:source",
        "# come from Papers with Code (CC BY-SA 4.0); all definitions were written for this project.",
        "",
        "@prefix dcterms: <http://purl.org/dc/terms/> .",
        "@prefix kg: <https://w3id.org/kg/ns#> .",
        f"@prefix method: <{BASE}> .",
        "@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .",
        "@prefix skos: <http://www.w3.org/2004/02/skos/core#> .",
        "",
        "method:scheme a skos:ConceptScheme ;",
        '    skos:prefLabel "Machine-learning methods"@en ;',
        "    dcterms:source <https://paperswithcode.com/methods> ;",
        "    dcterms:license <https://creativecommons.org/licenses/by-sa/4.0/> ;",
        "    rdfs:comment "
        + lit(
            "Taxonomy of machine-learning methods for matching method mentions in paper abstracts. "
            "Names, abbreviations and collection groupings of many methods are taken from Papers with Code "
            "(paperswithcode.com/methods, CC BY-SA 4.0); modern methods, families, hierarchy and definitions "
            "are curated by the kg project."
        )
        + " ;",
        "    skos:hasTopConcept " + ",\n        ".join(f"method:{t}" for t in tops) + " .",
        "",
    ]
    for slug in sorted(tax.nodes):
        n = tax.nodes[slug]
        props = ["a skos:Concept", "skos:inScheme method:scheme", f"skos:prefLabel {lit(n.pref)}"]
        if n.alts:
            alts = sorted(set(n.alts), key=lambda s: (s.casefold(), s))
            props.append("skos:altLabel " + ",\n        ".join(lit(a) for a in alts))
        if n.hidden:
            hidden = sorted(set(n.hidden), key=lambda s: (s.casefold(), s))
            props.append("skos:hiddenLabel " + ",\n        ".join(lit(a) for a in hidden))
        if n.broader:
            props.append("skos:broader " + ", ".join(f"method:{b}" for b in sorted(n.broader)))
        if n.related:
            props.append("skos:related " + ", ".join(f"method:{r}" for r in sorted(n.related)))
        if n.definition:
            props.append(f"skos:definition {lit(n.definition)}")
        if n.scope_note:
            props.append(f"skos:scopeNote {lit(n.scope_note)}")
        if n.top:
            props.append("skos:topConceptOf method:scheme")
        if n.generic:
            props.append("kg:generic true")
        if n.family:
            props.append("kg:modelFamily true")
        if n.paradigm:
            props.append("kg:paradigm true")
        if n.sources:
            props.append("dcterms:source " + ", ".join(f"<{s}>" for s in sorted(n.sources)))
        out.append(f"method:{slug} " + " ;\n    ".join(props) + " .")
        out.append("")
    return "\n".join(out)


def main() -> None:
    tax = build()
    if tax.conflicts:
        raise SystemExit("\n".join(tax.conflicts))
    check(tax)
    text = render(tax)
    if "--check" in sys.argv:
        current = OUT_PATH.read_text(encoding="utf-8") if OUT_PATH.exists() else ""
        if current != text:
            raise SystemExit(f"{OUT_PATH.name} is not what the tables give: run python ontology/make_methods.py")
        print(f"{OUT_PATH.name} is what the tables give")
        return
    tmp = OUT_PATH.with_suffix(".tmp")
    tmp.write_text(text, encoding="utf-8")
    tmp.replace(OUT_PATH)
    n_labels = sum(1 + len(n.alts) for n in tax.nodes.values())
    n_pwc = sum(1 for n in tax.nodes.values() if not n.curated)
    print(
        f"wrote {OUT_PATH.relative_to(ROOT)}: {len(tax.nodes)} concepts "
        f"({len(tax.nodes) - n_pwc} curated, {n_pwc} from Papers with Code), {n_labels} labels, "
        f"{sum(n.top for n in tax.nodes.values())} top concepts; {len(tax.dropped)} labels dropped"
    )
    if "-v" in sys.argv:
        for slug, label, reason in sorted(tax.dropped):
            print(f"  dropped {label!r} ({slug}): {reason}")


if __name__ == "__main__":
    main()
