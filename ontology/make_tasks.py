"""Generate ``ontology/tasks.ttl`` and ``ontology/datasets.ttl``: the SKOS schemes of tasks and of datasets.

Run from the repository root (it reads nothing outside the repository)::

    python ontology/make_tasks.py            # --check: fail unless the two files are what the tables give
                                             # -v: list every Papers with Code name left out, with the reason

Inputs, all tables in ``ontology/`` (their columns are documented in ``docs/tasks.md``):

* ``tasks-curated.tsv`` -- research areas (the top concepts), umbrella tasks and the tasks papers study
  now, with labels, abbreviations, broader tasks, areas and one-sentence definitions written for this
  project;
* ``tasks-pwc.tsv`` and ``datasets-pwc.tsv`` -- the Papers with Code tasks archive (CC BY-SA 4.0): task
  names, areas, subtasks and parents, and the dataset names their leaderboards use (written by
  ``ontology/import_pwc_tasks.py``);
* ``tasks-rules.tsv`` -- which Papers with Code tasks are kept (their names end in a task word, a head),
  their areas, skips, merges and broader overrides;
* ``datasets-curated.tsv`` and ``datasets-rules.tsv`` -- current benchmarks with their variants and
  splits, and the rules that clean Papers with Code dataset names (splits and settings stripped,
  descriptions and non-names left out, ambiguous names counted only in context);
* ``methods.ttl`` -- a Papers with Code task that is a method of the method scheme ("Few-Shot Learning",
  "Knowledge Distillation") is left out: the method extractor counts it.

A Papers with Code task named by one word ("Denoising", "Dialogue", "Animation") is
``kg:ambiguousName``: its name counts only where the text names it as a task ("denoising tasks").

The output is deterministic (concepts sorted by slug, labels alphabetically).  The script fails if a
curated label would belong to two concepts, a broader concept is missing, or the hierarchy has a cycle.
"""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))

from datasets_vocab import build_datasets, render_datasets  # noqa: E402
from make_methods import labels_of, lit, read_table, slugify  # noqa: E402

from kg.extractors.tasks.phrases import OPEN_HEADS  # noqa: E402
from kg.extractors.tasks.words import label_key  # noqa: E402

TASK_BASE = "https://w3id.org/kg/task/"
PWC_TASK_URL = "https://paperswithcode.com/task/"
TASKS_OUT = HERE / "tasks.ttl"
DATASETS_OUT = HERE / "datasets.ttl"
MAX_WORDS = 6
"""Longer Papers with Code task names are descriptions of one leaderboard, not names papers write."""


@dataclass
class Task:
    slug: str
    pref: str
    alts: list[str] = field(default_factory=list)
    hidden: list[str] = field(default_factory=list)
    broader: set[str] = field(default_factory=set)
    area: str = ""
    is_area: bool = False
    generic: bool = False
    definition: str = ""
    sources: set[str] = field(default_factory=set)
    curated: bool = True
    parents: set[str] = field(default_factory=set)  # Papers with Code parents, by name
    ambiguous: bool = False  # its name alone is too general to count ("Denoising", "Dialogue", "Animation")


@dataclass
class Rules:
    heads: set[str]
    area_of_category: list[tuple[str, str]]
    area_of_table: dict[str, str]
    area_of_other_category: list[tuple[str, str]]
    skip: set[str]
    keep: set[str]
    merge: dict[str, str]
    broader_override: dict[str, tuple[str, ...]]
    dropped: dict[str, str]


def read_rules(path: Path = HERE / "tasks-rules.tsv") -> Rules:
    by: dict[str, list[dict[str, str]]] = {}
    for r in read_table(path):
        by.setdefault(r["rule"], []).append(r)
    known = {"head", "area-of-category", "area-of-table", "area-of-other-category", "skip", "keep", "merge", "broader-override",
             "dropped-label"}  # fmt: skip
    if set(by) - known:
        raise SystemExit(f"{path.name}: unknown rules {sorted(set(by) - known)}")
    return Rules(
        {label_key(r["key"]) for r in by["head"]},
        [(r["key"], r["value"]) for r in by.get("area-of-category", [])],
        {r["key"]: r["value"] for r in by.get("area-of-table", [])},
        [(r["key"], r["value"]) for r in by.get("area-of-other-category", [])],
        {label_key(r["key"]) for r in by.get("skip", [])},
        {label_key(r["key"]) for r in by.get("keep", [])},
        {label_key(r["key"]): r["value"] for r in by.get("merge", [])},
        {label_key(r["key"]): tuple(r["value"].split()) for r in by.get("broader-override", [])},
        {label_key(r["key"]): r["note"] for r in by.get("dropped-label", [])},
    )


def method_keys(path: Path = HERE / "methods.ttl") -> set[str]:
    """The keys of every label of the method scheme (a task list must not hold a method)."""
    found = set()
    for m in re.finditer(
        r'skos:(?:prefLabel|altLabel|hiddenLabel) ((?:"[^"\n]*"@en(?:,\s*)?)+)', path.read_text("utf-8")
    ):
        found.update(label_key(x) for x in re.findall(r'"([^"\n]*)"@en', m.group(1)))
    return found


_ABBREVIATION = re.compile(r"\s*\(([A-Za-z0-9\-]{2,10})\)\s*")
_TITLE_WORD = re.compile(r"^[A-Z][a-z]+(?:-[A-Z]?[a-z]+)*$")


def abbreviates(short: str, name: str) -> bool:
    """Whether ``short`` is an abbreviation of ``name``: its first letter starts the name and its letters
    come in order in it ("NER" of "Named Entity Recognition"; not "RoI" of "3D Object Detection").

    >>> abbreviates("NER", "Named Entity Recognition"), abbreviates("RoI", "3D Object Detection")
    (True, False)
    """
    letters = [c for c in short.lower() if c.isalnum()]
    low = name.lower()
    if len(letters) < 2 or not any(c.isupper() for c in short) or not low.startswith(letters[0]):
        return False
    at = 0
    for c in letters:
        at = low.find(c, at)
        if at < 0:
            return False
        at += 1
    return True


def lower_title(name: str) -> str:
    """A Papers with Code name as a label is written: title-case words in lower case, acronyms kept.

    >>> lower_title("Text-To-SQL"), lower_title("3D Object Detection"), lower_title("RGB-D Salient Object Detection")
    ('text-to-SQL', '3D object detection', 'RGB-D salient object detection')
    """
    parts = re.split(r"([\s\-]+)", name)
    return "".join(
        p.lower() if _TITLE_WORD.match(p) or p in ("To", "Of", "And", "For", "In", "On", "With") else p
        for p in parts
    )


class Tasks:
    """The task scheme being built: concepts by slug and the owner of every label key."""

    def __init__(self) -> None:
        self.nodes: dict[str, Task] = {}
        self.owner: dict[str, str] = {}
        self.left_out: list[tuple[str, str]] = []  # (Papers with Code name, reason)
        self.conflicts: list[str] = []

    def claim(self, node: Task, label: str, *, strict: bool, hidden: bool = False) -> None:
        k = label_key(label)
        holder = self.owner.get(k)
        if holder is not None and holder != node.slug:
            if strict:
                self.conflicts.append(f"label {label!r} of {node.slug} already belongs to {holder}")
            return
        if holder == node.slug:
            return
        self.owner[k] = node.slug
        if k != label_key(node.pref):
            (node.hidden if hidden else node.alts).append(label)

    def add(self, node: Task, labels: list[str], *, strict: bool) -> None:
        if node.slug in self.nodes:
            raise SystemExit(f"duplicate task slug {node.slug}")
        self.nodes[node.slug] = node
        for label in [node.pref, *labels]:
            self.claim(node, label, strict=strict)


def build_tasks(rules: Rules) -> Tasks:
    tasks = Tasks()
    for r in read_table(HERE / "tasks-curated.tsv"):
        flags = set(r["flags"].split())
        if flags - {"area", "generic"}:
            raise SystemExit(f"{r['slug']}: unknown flags {sorted(flags - {'area', 'generic'})}")
        node = Task(r["slug"], r["pref_label"], broader=set(r["broader"].split()), area=r["area"],
                    is_area="area" in flags, generic=bool(flags), definition=r["definition"])  # fmt: skip
        tasks.add(node, list(labels_of(r["alt_labels"])), strict=True)
        for label in labels_of(r["context_labels"]):
            tasks.claim(node, label, strict=True, hidden=True)
    methods = method_keys()
    rows = read_table(HERE / "tasks-pwc.tsv")
    rows.sort(key=lambda r: (-int(r["dataset_count"] or 0), r["name"]))
    for r in rows:
        name, labels, reason = pwc_names(r["name"], rules)
        keys = [label_key(x) for x in labels] or [label_key(r["name"])]
        target = rules.merge.get(keys[0]) or next((tasks.owner[k] for k in keys if k in tasks.owner), None)
        if reason and target is not None and reason == "ends in no task word":
            reason, labels = "", [lower_title(r["name"])]  # a curated task's name: its source
        if target is None and not reason and keys[0] in methods and keys[0] not in rules.keep:
            reason = "a method of the method scheme"
        if reason:
            tasks.left_out.append((r["name"], reason))
            continue
        if target is not None:
            owner = tasks.nodes[target]
            owner.sources.add(PWC_TASK_URL + slugify(r["name"]))
            for label in labels:
                if label_key(label) not in tasks.owner:
                    tasks.claim(owner, label, strict=False)
            continue
        node = Task(slugify(name), name, sources={PWC_TASK_URL + slugify(r["name"])}, curated=False,
                    parents={label_key(p) for p in labels_of(r["parents"])})  # fmt: skip
        node.area = area_of(labels_of(r["categories"]), labels_of(r["tables"]), rules)
        node.ambiguous = len(label_key(name).split()) == 1
        if node.slug in tasks.nodes:
            tasks.left_out.append((r["name"], f"slug {node.slug} taken"))
            continue
        tasks.add(node, labels[1:], strict=False)
    place(tasks, rules)
    return tasks


def pwc_names(raw: str, rules: Rules) -> tuple[str, list[str], str]:
    """The label and other labels of a Papers with Code task name, or the reason it is left out."""
    bare = " ".join(_ABBREVIATION.sub(" ", raw).split())
    abbreviations = [m.group(1) for m in _ABBREVIATION.finditer(raw) if abbreviates(m.group(1), bare)]
    if "(" in bare or ")" in bare or ":" in bare or "," in bare:
        return "", [], "a setting or description, not a name"
    name = lower_title(bare)
    k = label_key(name)
    words = k.split()
    if k in rules.skip:
        return "", [], "skip rule"
    if k in rules.dropped:
        return "", [], rules.dropped[k]
    if not words or len(words) > MAX_WORDS:
        return "", [], f"more than {MAX_WORDS} words"
    headless = words[-1] not in rules.heads and (len(words) < 2 or " ".join(words[-2:]) not in rules.heads)
    if headless and k not in rules.keep and k not in rules.merge:
        return "", [], "ends in no task word"
    return name, [name, *abbreviations], ""


def area_of(categories: tuple[str, ...], tables: tuple[str, ...], rules: Rules) -> str:
    for category, area in rules.area_of_category:
        if category in categories:
            return area
    for table in ("cv", "nlp", "audio"):
        if table in tables:
            return rules.area_of_table[table]
    for category, area in rules.area_of_other_category:
        if category in categories:
            return area
    return "other-tasks"


def place(tasks: Tasks, rules: Rules) -> None:
    """Broader concepts: overrides, then the longest shorter task the name ends in ("few-shot image
    classification" -> "image classification"), then a Papers with Code parent with the same head, then
    the umbrella task of the head ("pedestrian detection" -> "detection"); and the area, where the
    broader task is of another area or there is none."""
    for node in tasks.nodes.values():
        if node.is_area:
            continue
        k = label_key(node.pref)
        override = rules.broader_override.get(k)
        if override:
            node.broader = set(override)
        elif not node.broader:
            node.broader = set(suffix_task(tasks, k, specific=True) or parent_task(tasks, node, k)
                               or suffix_task(tasks, k, specific=False))  # fmt: skip
    for node in tasks.nodes.values():
        if node.is_area:
            continue
        missing = node.broader - set(tasks.nodes)
        if missing:
            raise SystemExit(f"{node.slug}: broader {sorted(missing)} does not exist")
        inherited = {area_chain(tasks, b) for b in node.broader}
        if node.area and node.area not in inherited and node.area not in node.broader:
            node.broader.add(node.area)
        if not node.broader:
            node.broader.add("other-tasks")


def suffix_task(tasks: Tasks, k: str, *, specific: bool) -> list[str]:
    """The longest shorter task a task's key ends in; ``specific``: not an umbrella task."""
    words = k.split()
    for i in range(1, len(words)):
        owner = tasks.owner.get(" ".join(words[i:]))
        if (
            owner is not None
            and not tasks.nodes[owner].is_area
            and not (specific and tasks.nodes[owner].generic)
        ):
            return [owner]
    return []


def parent_task(tasks: Tasks, node: Task, k: str) -> list[str]:
    """A Papers with Code parent with the same head word that is not below the task (the archive's
    hierarchy has cycles and odd roots: "10-shot image generation" is a parent of semantic segmentation)."""
    head = k.split()[-1]
    parents = sorted(tasks.owner[p] for p in node.parents if p in tasks.owner and p.split()[-1] == head)
    return [p for p in parents if p != node.slug and not reaches(tasks, p, node.slug)][:1]


def reaches(tasks: Tasks, start: str, goal: str) -> bool:
    """Whether ``goal`` is ``start`` or above it (a link from ``goal`` to ``start`` would close a cycle)."""
    seen, todo = set(), [start]
    while todo:
        slug = todo.pop()
        if slug == goal:
            return True
        if slug not in seen and slug in tasks.nodes:
            seen.add(slug)
            todo.extend(tasks.nodes[slug].broader)
    return False


def area_chain(tasks: Tasks, slug: str, seen: frozenset[str] = frozenset()) -> str:
    """The area a concept belongs to: its own, or its first broader concept's."""
    node = tasks.nodes[slug]
    if node.is_area:
        return slug
    if node.area:
        return node.area
    for b in sorted(node.broader - seen):
        return area_chain(tasks, b, seen | {slug})
    return ""


def check(tasks: Tasks) -> None:
    if tasks.conflicts:
        raise SystemExit("\n".join(tasks.conflicts))
    state: dict[str, int] = {}

    def visit(slug: str, path: list[str]) -> None:
        if state.get(slug) == 2:
            return
        if state.get(slug) == 1:
            raise SystemExit("broader cycle: " + " -> ".join([*path, slug]))
        state[slug] = 1
        for b in sorted(tasks.nodes[slug].broader):
            visit(b, [*path, slug])
        state[slug] = 2

    for slug in sorted(tasks.nodes):
        if not re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", slug):
            raise SystemExit(f"bad slug {slug!r}")
        visit(slug, [])


def render_tasks(tasks: Tasks) -> str:
    tops = sorted(n.slug for n in tasks.nodes.values() if n.is_area)
    out = [
        "# Tasks that papers work on (SKOS).",
        "# GENERATED by ontology/make_tasks.py from ontology/tasks-curated.tsv, tasks-rules.tsv and tasks-pwc.tsv;",
        "# do not edit by hand.  Names of concepts with a paperswithcode dcterms:source come from Papers with",
        "# Code (CC BY-SA 4.0); areas, curated tasks, the hierarchy's rules and all definitions are this project's.",
        "",
        "@prefix dcterms: <http://purl.org/dc/terms/> .",
        "@prefix kg: <https://w3id.org/kg/ns#> .",
        "@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .",
        "@prefix skos: <http://www.w3.org/2004/02/skos/core#> .",
        f"@prefix task: <{TASK_BASE}> .",
        "",
        "task:scheme a skos:ConceptScheme ;",
        '    skos:prefLabel "Tasks"@en ;',
        "    dcterms:source <https://paperswithcode.com/sota> ;",
        "    dcterms:license <https://creativecommons.org/licenses/by-sa/4.0/> ;",
        "    rdfs:comment "
        + lit(
            "The tasks papers work on, for linking papers to what they do. Names, parents and areas of many "
            "tasks are taken from the Papers with Code tasks archive (CC BY-SA 4.0); areas, current tasks, "
            "abbreviations, the hierarchy's rules and definitions are curated by the kg project. The top "
            "concepts are research areas, not tasks; umbrella tasks are kg:generic."
        )
        + " ;",
        "    skos:hasTopConcept " + ",\n        ".join(f"task:{t}" for t in tops) + " .",
        "",
    ]
    for slug in sorted(tasks.nodes):
        n = tasks.nodes[slug]
        props = ["a skos:Concept" if n.is_area else "a skos:Concept, kg:Task", "skos:inScheme task:scheme",
                 f"skos:prefLabel {lit(n.pref)}"]  # fmt: skip
        for prop, labels in (("skos:altLabel", n.alts), ("skos:hiddenLabel", n.hidden)):
            if labels:
                ordered = sorted(set(labels), key=lambda s: (s.casefold(), s))
                props.append(f"{prop} " + ",\n        ".join(lit(a) for a in ordered))
        if n.broader:
            props.append("skos:broader " + ", ".join(f"task:{b}" for b in sorted(n.broader)))
        if n.definition:
            props.append(f"skos:definition {lit(n.definition)}")
        if n.is_area:
            props.append("skos:topConceptOf task:scheme")
        if n.generic:
            props.append("kg:generic true")
        if n.ambiguous:
            props.append("kg:ambiguousName true")
        if n.sources:
            props.append("dcterms:source " + ", ".join(f"<{s}>" for s in sorted(n.sources)))
        out.append(f"task:{slug} " + " ;\n    ".join(props) + " .")
        out.append("")
    return "\n".join(out)


def main() -> None:
    rules = read_rules()
    unruled = {label_key(h) for h in OPEN_HEADS} - rules.heads
    if unruled:
        raise SystemExit(f"open task heads that are no head of tasks-rules.tsv: {sorted(unruled)}")
    tasks = build_tasks(rules)
    check(tasks)
    datasets = build_datasets(
        set(tasks.owner), method_keys(), {n.slug for n in tasks.nodes.values() if not n.is_area}
    )
    outputs = {TASKS_OUT: render_tasks(tasks), DATASETS_OUT: render_datasets(datasets)}
    if "--check" in sys.argv:
        for path, text in outputs.items():
            if not path.exists() or path.read_text(encoding="utf-8") != text:
                raise SystemExit(
                    f"{path.name} is not what the tables give: run python ontology/make_tasks.py"
                )
        print("tasks.ttl and datasets.ttl are what the tables give")
        return
    for path, text in outputs.items():
        tmp = path.with_suffix(".tmp")
        tmp.write_text(text, encoding="utf-8")
        tmp.replace(path)
    n_pwc = sum(1 for n in tasks.nodes.values() if not n.curated)
    n_areas = sum(1 for n in tasks.nodes.values() if n.is_area)
    print(
        f"wrote {TASKS_OUT.relative_to(ROOT)}: {len(tasks.nodes) - n_areas} tasks ({len(tasks.nodes) - n_pwc - n_areas}"
        f" curated, {n_pwc} from Papers with Code), {n_areas} areas, {len(tasks.owner)} labels; "
        f"{len(tasks.left_out)} Papers with Code tasks left out"
    )
    print(f"wrote {DATASETS_OUT.relative_to(ROOT)}: {datasets.summary()}")
    if "-v" in sys.argv:
        for name, reason in sorted(tasks.left_out + datasets.left_out):
            print(f"  left out {name!r}: {reason}")


if __name__ == "__main__":
    main()
