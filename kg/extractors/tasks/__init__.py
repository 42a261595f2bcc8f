"""What a paper works on: the tasks its title and abstract name (and which are its main ones), and the
datasets and benchmarks it uses.

The package's modules are its stages (``docs/tasks.md`` tells the whole story):

* :mod:`.vocabulary` -- the SKOS schemes of ``ontology/tasks.ttl`` and ``ontology/datasets.ttl``;
* :mod:`.words` -- words with offsets, the keys labels are compared by, sentences;
* :mod:`.known` -- known tasks and datasets found by their labels (dictionary look-ups, no patterns);
* :mod:`.phrases` -- task phrases no list holds, where the text names them as tasks, and main tasks;
* :mod:`.datasets` -- datasets in an evaluation context, and what is not a dataset there.

Mentions: kind ``task`` (key: the task's slug, or the slug of a phrase no list holds; detail ``label``,
``main``, ``open`` and, for an open phrase, the known task it is a kind of as ``broader``) and kind
``dataset`` (key: the dataset's slug, or :func:`~kg.extractors.methods.name_key` of a name no list holds,
the key a paper introducing it gives it; detail ``label`` and ``open``).

>>> from kg.records import Location, Record, SourceFile, Span
>>> at = Location("x", 1)
>>> record = Record("x", SourceFile("x", "0", "x"), at, title=Span("Robust VQA for Remote Sensing Object Detection", at),
...     abstract=Span("We evaluate on MS-COCO test-dev and the NWPU VHR-10 dataset.", at))
>>> [(m.kind, m.key, m.get("main")) for m in extract(record, IssueLog())]
[('task', 'visual-question-answering', 'true'), ('task', 'remote-sensing-object-detection', 'true'), ('dataset', 'coco', ''), ('dataset', 'nwpu-vhr10', '')]
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import replace
from functools import lru_cache

from kg.errors import IssueLog
from kg.extractors.methods import load_taxonomy, slugify, taxonomy_path
from kg.extractors.methods.forms import folded, mask
from kg.records import Mention, Record
from kg.vocab import DATASET_BASE, TASK_BASE

from .datasets import DatasetMention, dataset_mentions
from .known import DatasetNames, TaskNames
from .phrases import OPEN_HEADS, TaskPhrase, mark_main, task_phrases, title_task
from .vocabulary import (
    Concept,
    datasets_path,
    load_concepts,
    tasks_path,
)
from .words import compact, label_key, words

__all__ = [
    "DATASET_BASE",
    "KINDS",
    "MAX_CHARS",
    "NAME",
    "OPEN_HEADS",
    "TASK_BASE",
    "Concept",
    "DatasetMention",
    "Finder",
    "TaskPhrase",
    "datasets_path",
    "default_finder",
    "extract",
    "label_key",
    "tasks_path",
    "warm",
]

NAME = "tasks"
KINDS: tuple[str, ...] = ("task", "dataset")
"""The kinds of mention it makes (``Mention.kind``)."""

MAX_CHARS = 200_000
"""Longer fields are cut to this many characters (the methods extractor warns about them)."""


class Finder:
    """The task and dataset vocabularies, ready to be looked up; build once (:func:`default_finder`)."""

    def __init__(self) -> None:
        self.tasks = TaskNames(load_concepts(tasks_path(), TASK_BASE))
        self.datasets = DatasetNames(load_concepts(datasets_path(), DATASET_BASE))
        methods = load_taxonomy(taxonomy_path())
        method_labels = [label for c in methods.values() for label in (*c.labels, *c.hidden)]
        self.method_keys = frozenset(label_key(label) for label in method_labels)
        # names that are something else wherever they are written: methods and models, and task acronyms
        self.not_datasets = (
            frozenset(compact(label) for label in method_labels)
            | frozenset(k.replace(" ", "") for k in self.tasks.capitals)
            | frozenset(  # a task's one-word name shaped like a dataset's ("VideoQA", "ReID")
                compact(label)
                for c in self.tasks.concepts.values()
                for label in c.labels
                if " " not in label and any(ch.isupper() for ch in label[1:])
            )
        )
        self.generic = frozenset(c.slug for c in self.tasks.concepts.values() if c.generic)
        self.benchmarks = {c.slug: c.tasks for c in self.datasets.concepts.values() if c.tasks}
        self.families = frozenset(
            compact(label) for c in methods.values() if c.family for label in c.labels if len(label) >= 3
        )


@lru_cache(maxsize=1)
def default_finder() -> Finder:
    """The finder of the shipped vocabularies, built once."""
    return Finder()


def warm() -> None:
    """Build the finder now (before worker processes fork, so they share it)."""
    default_finder()


def extract(record: Record, log: IssueLog) -> Iterator[Mention]:
    """Task and dataset mentions in the record's title and abstract."""
    finder = default_finder()
    title: list[TaskPhrase] = []
    abstract: list[TaskPhrase] = []
    used: dict[str, list[DatasetMention]] = {}
    abstract_low = ""
    for field_name, span in (("title", record.title), ("abstract", record.abstract)):
        if span is None or not span.text:
            continue
        phrases, used[field_name], low = _field(finder, span.text[:MAX_CHARS], field_name == "title")
        if field_name == "title":
            title = phrases
        else:
            abstract, abstract_low = phrases, low
    # the paper's own names ("PEBench: A Fictitious Dataset ...", "we introduce FooData") are no datasets it
    # uses, wherever they are written
    own = {compact(d.text) for found in used.values() for d in found if d.introduced}
    if record.title is not None:
        own |= _title_names(record.title.text)
    marked = one_phrasing(mark_main(title, abstract, abstract_low, finder.generic))
    for field_name, phrases in (("title", marked[: len(title)]), ("abstract", marked[len(title) :])):
        span = record.title if field_name == "title" else record.abstract
        if span is None:
            continue
        # the text as written: the phrases were found in the masked text (quotes and markup blanked)
        for p in phrases:
            written = span.text[p.start : p.start + len(p.text)]
            yield Mention(
                "task",
                p.slug or slugify(p.label),
                written,
                span.at,
                NAME,
                position=p.start,
                detail=p.detail(),
            )
        for d in used.get(field_name, ()):
            if not d.introduced and compact(d.text) not in own:
                written = span.text[d.start : d.start + len(d.text)]
                yield Mention("dataset", d.key, written, span.at, NAME, position=d.start, detail=d.detail())


def one_phrasing(phrases: list[TaskPhrase]) -> list[TaskPhrase]:
    """A paper's open task phrases with one phrasing per task: a phrase whose words are some of another's,
    with the same task word, is that one ("Underwater 3D Scene Reconstruction" in the title and
    "underwater scene reconstruction" in the abstract; "Remote Sensing Segmentation" and "remote sensing
    image segmentation"), the longer (the more specific) named for both.

    >>> short = TaskPhrase("", "remote sensing segmentation", "x", 0)
    >>> found = [short, TaskPhrase("", "remote sensing image segmentation", "y", 9)]
    >>> [p.label for p in one_phrasing(found)]
    ['remote sensing image segmentation', 'remote sensing image segmentation']
    """
    words = {p.label: label_key(p.label).split() for p in phrases if not p.slug}
    longer: dict[str, TaskPhrase] = {}
    for p in phrases:
        if p.slug:
            continue
        mine = words[p.label]
        for q in phrases:
            theirs = words.get(q.label) if not q.slug else None
            if theirs and len(theirs) > len(mine) and theirs[-1] == mine[-1] and set(mine) < set(theirs):
                best = longer.get(p.label)
                if best is None or (len(words[best.label]), best.label) < (len(theirs), q.label):
                    longer[p.label] = q
    return [
        replace(p, label=longer[p.label].label, broader=longer[p.label].broader) if p.label in longer else p
        for p in phrases
    ]


def _field(finder: Finder, text: str, is_title: bool) -> tuple[list[TaskPhrase], list[DatasetMention], str]:
    masked = mask(text)
    if (
        "://" in masked or "www." in masked
    ):  # an address names no task or dataset ("github.com/x/face-swapping")
        masked = _URL.sub(lambda m: " " * len(m.group()), masked)
    low = folded(masked)
    ws = words(masked, low)
    used, named = dataset_mentions(finder.datasets, masked, low, ws, finder.not_datasets, is_title)
    used = [d for d in used if not _versioned_model(compact(d.text), finder.families)]
    phrases = task_phrases(
        finder.tasks, masked, low, ws, is_title, named, finder.method_keys, finder.benchmarks
    )
    phrases = [p for p in phrases if not _defined_otherwise(finder.tasks, p, masked)]
    verb_task = title_task(finder.tasks, masked, ws) if is_title else None
    if verb_task is not None and not any(
        p.start < verb_task.start + len(verb_task.text) and verb_task.start < p.start + len(p.text)
        for p in phrases
    ):
        phrases = sorted([*phrases, verb_task], key=lambda p: p.start)
    return phrases, used, low


_URL = re.compile(r"(?:https?://|www\.)\S+")


def _defined_otherwise(names: TaskNames, p: TaskPhrase, text: str) -> bool:
    """Whether a task found by its acronym is one the text defines as something else: "Attack Success
    Rate (ASR)" makes every "ASR" of the text no speech recognition; "Automatic Speech Recognition (ASR)"
    or no definition leaves it.

    >>> names = default_finder().tasks
    >>> asr = TaskPhrase("speech-recognition", "speech recognition", "ASR", 40)
    >>> _defined_otherwise(names, asr, "We score attacks by Attack Success Rate (ASR). The ASR drops.")
    True
    >>> _defined_otherwise(names, asr, "Automatic Speech Recognition (ASR) errs. The ASR drops.")
    False
    """
    if not p.slug or not p.text.isupper() or " " in p.text:
        return False
    at = text.find(f"({p.text})")
    if at < 0:
        return False
    before = text[max(0, at - 80) : at].split()
    keys = [label_key(" ".join(before[-n:])) for n in range(1, min(len(before), 6) + 1)]
    concept = names.concepts.get(p.slug)
    labels = [label_key(label) + " " for label in concept.labels] if concept is not None else []
    # the long form is the task's label, or its first words ("out-of-distribution (OOD) detection")
    return not any(k and (label.startswith(k + " ")) for k in keys for label in labels)


def _title_names(title: str) -> set[str]:
    """The compact names a title "Name: what it is" gives ("Khayyam Challenge (PersianMMLU): ..." gives
    two), or none."""
    head, colon, _rest = title.partition(":")
    if not colon or not 0 < len(head.split()) <= 4:
        return set()
    return {compact(part) for part in re.split(r"[()]", head) if part.strip()}


def _versioned_model(name: str, families: frozenset[str]) -> bool:
    """Whether a compact name is a model family's name and a version ("llama38b", "resnet50"; not "viton")."""
    return any(
        name[:k] in families and (k == len(name) or name[k].isdigit()) for k in range(3, len(name) + 1)
    )
