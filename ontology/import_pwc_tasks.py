"""Write ``ontology/tasks-pwc.tsv`` and ``ontology/datasets-pwc.tsv`` from the Papers with Code task tables.

The archive of Papers with Code made when the site closed (``../shared/data/pwc_tasks/``, CC BY-SA 4.0;
its SOURCES.md, section 7) lists 4,411 tasks with their areas, subtasks and the datasets their
leaderboards use.  Only facts are kept: task names, the table each came from, categories, dataset
counts, subtasks and parents, and dataset names with the tasks that use them; descriptions are never
copied.  What is not a name at all is left out here (spam rows, injection strings, bare numbers,
settings of one leaderboard such as "(K = 15)" or "-- 10% anomaly", language pairs); which names
become concepts is decided by ``ontology/make_tasks.py`` and its rules.  Run from the repository root
when the archive changes::

    python ontology/import_pwc_tasks.py ../shared/data/pwc_tasks
"""

from __future__ import annotations

import csv
import re
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
TASKS_OUT = HERE / "tasks-pwc.tsv"
DATASETS_OUT = HERE / "datasets-pwc.tsv"
TABLES = ("cv", "nlp", "other", "audio")

# spam and injection rows of the dataset columns, and what no task or dataset name contains
_JUNK = re.compile(
    r"(?i)expedia|refund|quickbooks|phonepe|allegiant|customer service|phone number|contact:|how (?:do|to|can)"
    r"|replication data|deleted task|https?:|www\.|[\^*$~\[\]{}<>=|@]|->|\bAND\b.*=|[^\x00-\u024f\u2010-\u2019\u03b1-\u03c9]"
)
_SETTING = re.compile(
    r"\(\s*[^()]*(?:%|=|labels|shot|subtask|bonus|trained|evaluated)[^()]*\)|\s--\s|-Trained on|\bsubtask\b"
)
_LANGUAGE_PAIR = re.compile(r"^(?:Translation\s+)?[a-z]{2,3}(?:_[A-Za-z]+)?-[a-z]{2,3}(?:_[A-Za-z]+)?$")
_MAX_WORDS = 9
MAX_TASKS_PER_DATASET = 3


def is_name(text: str, *, task: bool) -> bool:
    """Whether a cell of the archive is a name (of a task or dataset) at all.

    >>> [is_name(t, task=True) for t in ("Object Detection", "16k", "Translation deu-eng", "de-en",
    ...     "Clean-label Backdoor Attack (0.05%)")]
    [True, False, False, False, False]
    >>> [is_name(t, task=False) for t in ("COCO test-dev", "[[Easy~refund]]How can i get a refund", "13.8")]
    [True, False, False]
    """
    text = text.strip()
    if not text or text in ("N/A", ".", "..") or not re.search(r"[A-Za-z]{2}", text):
        return False
    if _JUNK.search(text) or len(text.split()) > _MAX_WORDS or len(text) > 90:
        return False
    if task and (_SETTING.search(text) or _LANGUAGE_PAIR.match(text) or not re.search(r"[A-Za-z]{3}", text)):
        return False
    return not re.fullmatch(r"[\d\s.,:/%-]+[kKmM]?", text)


def cell(text: str) -> str:
    return " ".join(text.split())


def split_list(text: str) -> list[str]:
    return [cell(x) for x in text.replace("...", "").split(";") if cell(x)]


def main(folder: str) -> None:
    source = Path(folder)
    tasks: dict[str, dict[str, object]] = {}
    datasets: dict[str, set[str]] = {}
    for table in TABLES:
        with (source / f"{table}_tasks_detailed.csv").open(encoding="utf-8", newline="") as f:
            for row in csv.DictReader(f):
                name = cell(row["Task Name"])
                if not is_name(name, task=True):
                    continue
                entry = tasks.setdefault(
                    name,
                    {"tables": set(), "categories": set(), "count": 0, "subtasks": set(), "parents": set()},
                )
                entry["tables"].add(table)  # type: ignore[attr-defined]
                entry["categories"].update(  # type: ignore[attr-defined]
                    c for c in split_list(row["Categories"]) if c != "N/A"
                )
                entry["count"] = max(int(entry["count"]), int(row["Dataset Count"] or 0))  # type: ignore[call-overload]
                entry["subtasks"].update(  # type: ignore[attr-defined]
                    s for s in split_list(row["Subtasks"]) if is_name(s, task=True)
                )
                for column in ("Benchmarks", "Common Datasets (Top 10)"):
                    for d in split_list(row[column]):
                        if is_name(d, task=False):
                            datasets.setdefault(d, set()).add(name)
    with (source / "task_hierarchy.csv").open(encoding="utf-8", newline="") as f:
        for row in csv.DictReader(f):
            parent = cell(row["Parent Task"])
            if not is_name(parent, task=True):
                continue
            for child in split_list(row["Child Tasks"]):
                if child in tasks and child != parent:
                    tasks[child]["parents"].add(parent)  # type: ignore[attr-defined]

    def joined(values: object) -> str:
        return " | ".join(sorted(values))  # type: ignore[call-overload]

    task_rows = [
        "\t".join([name, joined(e["tables"]), joined(e["categories"]), str(e["count"]), joined(e["subtasks"]),
                   joined(e["parents"])]) + "\n"
        for name, e in sorted(tasks.items())
    ]  # fmt: skip

    def popular(used: set[str]) -> str:  # the tasks with most datasets first: a few say what it is for
        ranked = sorted(used, key=lambda t: (-int(tasks[t]["count"]), t))  # type: ignore[call-overload]
        return " | ".join(ranked[:MAX_TASKS_PER_DATASET])

    dataset_rows = [f"{name}\t{len(used)}\t{popular(used)}\n" for name, used in sorted(datasets.items())]
    header = (
        "# Papers with Code tasks archive (CC BY-SA 4.0), July 2025: facts only.\n"
        "# Written by ontology/import_pwc_tasks.py from ../shared/data/pwc_tasks; read by ontology/make_tasks.py.\n"
    )
    write(TASKS_OUT, header + "name\ttables\tcategories\tdataset_count\tsubtasks\tparents\n", task_rows)
    write(DATASETS_OUT, header + "name\ttask_count\ttasks\n", dataset_rows)
    print(
        f"wrote {TASKS_OUT.name}: {len(task_rows)} tasks; {DATASETS_OUT.name}: {len(dataset_rows)} datasets"
    )


def write(path: Path, header: str, rows: list[str]) -> None:
    tmp = path.with_suffix(".tmp")
    tmp.write_text(header + "".join(rows), encoding="utf-8")
    tmp.replace(path)


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "../shared/data/pwc_tasks")
