"""The dataset scheme of ``ontology/datasets.ttl``, built from the curated and the Papers with Code tables
(the half of ``ontology/make_tasks.py`` that is about datasets; run that script, not this module).

A Papers with Code name becomes a dataset when it is a name: splits and settings are stripped ("COCO
test-dev" is COCO, "CIFAR-10-LT (rho=50)" is CIFAR-10-LT), year versions of a known dataset are that
dataset ("PASCAL VOC 2007"), a name that starts with a known dataset's name is its variant
(``skos:broader``: "ImageNet-LT" is a kind of ImageNet), and descriptions ("Lusitano Fabric Defect
Detection Dataset"), task names, method names and everyday words are left out.  Whether a name counts
wherever it is written (``skos:altLabel``) or only in an evaluation context (``skos:hiddenLabel``, and
``kg:ambiguousName`` for the preferred name) follows from its shape: "GSM8K", "ImageNet" and "KITTI"
are names; "Cora", "GRID" and "Places" are words too.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from make_methods import labels_of, lit, read_table

from kg.extractors.methods.forms import slugify
from kg.extractors.tasks.words import compact, label_key

HERE = Path(__file__).resolve().parent
DATASET_BASE = "https://w3id.org/kg/dataset/"
MAX_WORDS = 4
"""Longer Papers with Code dataset names are descriptions ("A Dataset of Multispectral Potato Plants Images")."""

_PAREN = re.compile(r"\s*\(([^()]*)\)\s*")
# an image size ends a setting of a dataset, not another dataset ("ImageNet 256x256" is ImageNet at 256 pixels)
_RESOLUTION = re.compile(r"[\s\-]+\d{2,4}\s*[x\u00d7]\s*\d{2,4}$")
_DASH_TAIL = re.compile(r"\s+[-–]\s+.*$")
_YEAR = re.compile(r"^(?P<base>.+?)[\s\-]*(?:19|20)\d\d$")
_KIND_WORD = re.compile(r"\s+(?:dataset|data set|database|corpus|benchmark|challenge|collection)s?$", re.I)


@dataclass
class Dataset:
    slug: str
    pref: str
    alts: list[str] = field(default_factory=list)
    hidden: list[str] = field(default_factory=list)
    broader: set[str] = field(default_factory=set)
    tasks: list[str] = field(default_factory=list)
    definition: str = ""
    curated: bool = True
    pref_hidden: bool = False


@dataclass
class Datasets:
    nodes: dict[str, Dataset] = field(default_factory=dict)
    owner: dict[str, str] = field(default_factory=dict)  # compact name -> slug
    left_out: list[tuple[str, str]] = field(default_factory=list)

    def claim(self, node: Dataset, label: str, hidden: bool) -> bool:
        k = compact(label)
        if not k or self.owner.get(k, node.slug) != node.slug:
            return False
        if k in self.owner:
            # another spelling of a label it has ("VideoMME", "Video-MME"; "ImageNet-1k", "ImageNet-1K"):
            # kept, since names are found word by word and as their capitals are written
            if label not in (node.pref, *node.alts, *node.hidden):
                (node.hidden if hidden else node.alts).append(label)
            return True
        self.owner[k] = node.slug
        if label != node.pref:
            (node.hidden if hidden else node.alts).append(label)
        return True

    def summary(self) -> str:
        n_pwc = sum(1 for n in self.nodes.values() if not n.curated)
        n_labels = sum(1 + len(n.alts) + len(n.hidden) for n in self.nodes.values())
        return (
            f"{len(self.nodes)} datasets ({len(self.nodes) - n_pwc} curated, {n_pwc} from Papers with Code), "
            f"{n_labels} labels; {len(self.left_out)} Papers with Code names left out"
        )


def distinctive(name: str) -> bool:
    """Whether a name is a name wherever it is written: a digit ("GSM8K", "CIFAR-10"), an inner capital
    ("ImageNet", "nuScenes") or five capitals ("KITTI"), in one of its words.

    >>> [distinctive(n) for n in ("GSM8K", "ImageNet", "KITTI", "COCO", "Cora", "Places", "M4", "Open Images")]
    [True, True, True, False, False, False, False, False]
    """
    for word in re.split(r"[\s\-_/]+", name):
        letters = sum(c.isalpha() for c in word)
        if letters and any(c.isdigit() for c in word) and len(compact(word)) >= 4:
            return True
        if any(c.isupper() for c in word[1:]) and any(c.islower() for c in word):
            return True
        if word.isupper() and letters >= 5:
            return True
    return False


def pwc_base(raw: str, splits: set[str]) -> tuple[str, str]:
    """A Papers with Code dataset name without its splits and settings, and a long form it gives in
    parentheses ("COCO (Common Objects in Context)")."""
    long_form = ""
    m = _PAREN.search(raw)
    if m and m.end() == len(raw) and len(m.group(1).split()) >= 2 and m.group(1)[0].isupper():
        long_form = m.group(1).strip()
    name = " ".join(_PAREN.sub(" ", raw).split())
    name = _DASH_TAIL.sub("", name).strip(" -,")
    name = _RESOLUTION.sub("", name).strip(" -,")
    changed = True
    while changed and name:
        changed = False
        for split in splits:
            if name.lower().endswith(" " + split.lower()) or name.lower().endswith("-" + split.lower()):
                name = name[: -len(split) - 1].strip(" -,")
                changed = True
    return name, long_form


def build_datasets(task_keys: set[str], method_keys: set[str], task_slugs: set[str]) -> Datasets:
    """The dataset scheme; ``task_keys`` are the label keys of the task scheme (a name that is a task's is
    no dataset), ``task_slugs`` its tasks (what a dataset may be a benchmark for)."""
    rules: dict[str, dict[str, str]] = {}
    for r in read_table(HERE / "datasets-rules.tsv"):
        rules.setdefault(r["rule"], {})[r["key"]] = r["note"]
    if set(rules) - {"split", "skip", "hidden", "visible"}:
        raise SystemExit(
            f"datasets-rules.tsv: unknown rules {sorted(set(rules) - {'split', 'skip', 'hidden', 'visible'})}"
        )
    splits = set(rules.get("split", {}))
    skip = {compact(k): v for k, v in rules.get("skip", {}).items()}
    hidden_names = {compact(k) for k in rules.get("hidden", {})}
    visible_names = {compact(k) for k in rules.get("visible", {})}
    data = Datasets()
    for r in read_table(HERE / "datasets-curated.tsv"):
        flags = set(r["flags"].split())
        node = Dataset(r["slug"], r["pref_label"], broader=set(r["broader"].split()), tasks=r["tasks"].split(),
                       definition=r["definition"], pref_hidden="hidden" in flags)  # fmt: skip
        if node.slug != slugify(node.pref):
            raise SystemExit(
                f"datasets-curated.tsv: slug {node.slug} is not the slug of {node.pref!r} ({slugify(node.pref)})"
            )
        if node.slug in data.nodes or not data.claim(node, node.pref, False):
            raise SystemExit(f"datasets-curated.tsv: {node.pref!r} of {node.slug} is taken")
        data.nodes[node.slug] = node
        for label in labels_of(r["alt_labels"]):
            if not data.claim(node, label, False):
                raise SystemExit(f"datasets-curated.tsv: label {label!r} of {node.slug} is taken")
        for label in labels_of(r["context_labels"]):
            if not data.claim(node, label, True):
                raise SystemExit(f"datasets-curated.tsv: label {label!r} of {node.slug} is taken")
    rows = read_table(HERE / "datasets-pwc.tsv")
    rows.sort(key=lambda r: (-int(r["task_count"] or 0), r["name"]))
    for r in rows:
        raw = r["name"]
        name, long_form = pwc_base(raw, splits)
        name = _KIND_WORD.sub("", name).strip() or name
        k = compact(name)
        reason = ""
        if not k or len(k) < 2:
            reason = "no name left"
        elif k in skip:
            reason = skip[k] or "skip rule"
        elif len(name.split()) > MAX_WORDS:
            reason = "a description, not a name"
        elif label_key(name) in task_keys:
            reason = "a task name"
        elif label_key(name) in method_keys and k not in data.owner:
            reason = "a method name"
        elif name.islower() and " " not in name and not any(c.isdigit() for c in name):
            reason = "a word, not a name"
        if reason:
            data.left_out.append((raw, reason))
            continue
        owner = data.owner.get(k)
        year = _YEAR.match(name)
        if (
            owner is None
            and year
            and compact(year.group("base")) in data.owner
            and year.group("base") != name
        ):
            owner = data.owner[compact(year.group("base"))]
            data.claim(data.nodes[owner], name, not distinctive(name))
        if owner is not None:
            if long_form:
                data.claim(data.nodes[owner], long_form, False)
            continue
        node = Dataset(slugify(name), name, tasks=[t for t in labels_of(r["tasks"])], curated=False)
        if not node.slug or node.slug in data.nodes:
            data.left_out.append((raw, f"key {node.slug or '(none)'} taken"))
            continue
        node.pref_hidden = (k in hidden_names or not distinctive(name)) and k not in visible_names
        data.nodes[node.slug] = node
        data.claim(node, name, node.pref_hidden)
        if long_form:
            data.claim(node, long_form, False)
    for node in data.nodes.values():
        if not node.curated:
            node.broader = variant_of(data, node)
            node.tasks = []  # Papers with Code task names are not task slugs: kept only for the curated
        missing = node.broader - set(data.nodes)
        if missing:
            raise SystemExit(f"{node.slug}: broader {sorted(missing)} does not exist")
        unknown = set(node.tasks) - task_slugs
        if unknown:
            raise SystemExit(
                f"datasets-curated.tsv: {node.slug} is a benchmark for {sorted(unknown)}, no task"
            )
    return data


def variant_of(data: Datasets, node: Dataset) -> set[str]:
    """The known dataset a name starts with, before a separator ("ImageNet-LT", "COCO-20i")."""
    words = re.split(r"([\s\-_]+)", node.pref)
    for i in range(len(words) - 2, 0, -2):
        owner = data.owner.get(compact("".join(words[:i])))
        if owner is not None and owner != node.slug:
            return {owner}
    return set()


def render_datasets(data: Datasets) -> str:
    out = [
        "# Datasets and benchmarks that papers use (SKOS).",
        "# GENERATED by ontology/make_tasks.py from ontology/datasets-curated.tsv, datasets-rules.tsv and",
        "# datasets-pwc.tsv; do not edit by hand.  Names not in the curated table come from the Papers with",
        "# Code tasks archive (CC BY-SA 4.0); curated names, variants and all definitions are this project's.",
        "",
        "@prefix dataset: <https://w3id.org/kg/dataset/> .",
        "@prefix dcterms: <http://purl.org/dc/terms/> .",
        "@prefix kg: <https://w3id.org/kg/ns#> .",
        "@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .",
        "@prefix schema: <https://schema.org/> .",
        "@prefix skos: <http://www.w3.org/2004/02/skos/core#> .",
        "@prefix task: <https://w3id.org/kg/task/> .",
        "",
        "dataset:scheme a skos:ConceptScheme ;",
        '    skos:prefLabel "Datasets and benchmarks"@en ;',
        "    dcterms:source <https://paperswithcode.com/datasets> ;",
        "    dcterms:license <https://creativecommons.org/licenses/by-sa/4.0/> ;",
        "    rdfs:comment "
        + lit(
            "Datasets and benchmarks that papers train and evaluate on, one concept per dataset: spellings, "
            "versions and splits are its labels. A label in skos:hiddenLabel is an everyday word too and "
            "counts only in an evaluation context ('on X', 'the X benchmark'). Many names are taken from the "
            "Papers with Code tasks archive (CC BY-SA 4.0); current benchmarks, variants and definitions are curated by the kg project. "
            "A dataset with kg:ambiguousName true counts only in an evaluation context by any of its names."
        )
        + " .",
        "",
    ]
    for slug in sorted(data.nodes):
        n = data.nodes[slug]
        props = [
            "a schema:Dataset, skos:Concept",
            "skos:inScheme dataset:scheme",
            f"skos:prefLabel {lit(n.pref)}",
        ]
        for prop, labels in (("skos:altLabel", n.alts), ("skos:hiddenLabel", n.hidden)):
            if labels:
                ordered = sorted(set(labels), key=lambda s: (s.casefold(), s))
                props.append(f"{prop} " + ",\n        ".join(lit(a) for a in ordered))
        if n.broader:
            props.append("skos:broader " + ", ".join(f"dataset:{b}" for b in sorted(n.broader)))
        if n.tasks:
            props.append("kg:benchmarkFor " + ", ".join(f"task:{t}" for t in sorted(n.tasks)))
        if n.definition:
            props.append(f"skos:definition {lit(n.definition)}")
        if n.pref_hidden:
            props.append("kg:ambiguousName true")
        out.append(f"dataset:{slug} " + " ;\n    ".join(props) + " .")
        out.append("")
    return "\n".join(out)
