"""Task phrases: the tasks a text names, known or not, where it names them as tasks, and which are its main ones.

A task phrase ends in a task word (:data:`~.lexicon.OPEN_HEADS`: "detection", "forecasting",
"grasping") and is led by the words that say which one ("remote sensing object detection", "crowd
forecasting"), never by a verb, a determiner or a word of praise ("Enhancing Remote Sensing Object
Detection" names "remote sensing object detection"; "accurate crowd forecasting" names "crowd
forecasting").  A known task is found by its labels (:class:`~.known.TaskNames`); a phrase no list holds
counts where the text names it as a task: in the title, as the object of "we address", "we study",
"for", "on", before "task", as the subject that "aims to", defined with a short form ("weakly supervised
object localization (WSOL)"), or in a list with a task that counts.  An umbrella task ("classification",
"reasoning") counts only in a title and as a task of its own ("reasoning tasks").
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from itertools import pairwise

from .known import Hit, TaskNames
from .lexicon import (
    ENDS,
    HEAD_PAIRS,
    HEAD_TRIGGERS,
    HEAD_WORDS,
    JOINED,
    NOT_MODIFIERS,
    NOT_TASK_AFTER,
    NOT_TASKS,
    OPEN_HEADS,
    PREFIXES,
    SETTINGS,
    SPELLED_OUT,
    START_OK,
    SUBJECT_VERBS,
    TASK_AFTER,
    VERB_FORMS,
    WEAK_HEADS,
)
from .words import Words, label_key, singular

__all__ = ["OPEN_HEADS", "TaskPhrase", "is_verb", "mark_main", "task_phrases", "title_task"]

MAX_MODIFIERS = 4
"""Words (a hyphenated compound counting once) that may lead a task word."""

# a cue in the few words before a phrase that names it as the text's work or evaluation: these words, or
# a word these start ("addresses", "evaluated", "improving"), or two words ("such as", "the problem of")
_CUE_WORDS = frozenset({"for", "on", "including", "like", "towards", "toward"})
_CUE_STEMS = (
    "address", "tackl", "stud", "investigat", "explor", "consider", "solv", "target", "improv", "enhanc",
    "advanc", "boost", "evaluat", "benchmark",
)  # fmt: skip
_CUE_PAIRS = frozenset(
    {("such", "as"), ("focus", "on"), ("focuses", "on"), ("problem", "of"), ("task", "of"), ("applied", "to"),
     ("applications", "in"), ("application", "in"), ("applications", "to"), ("application", "to"), ("e", "g")}
)  # fmt: skip
# "from the perspective of X", "through the lens of X": X is a way of looking, not the work
_LENS = frozenset({("perspective", "of"), ("perspectives", "of"), ("lens", "of"), ("viewpoint", "of")})
# a title's words before the means of its work ("Enhancing Reasoning via Principle Discovery")
_MEANS = frozenset({"via", "through", "using", "by"})
# an umbrella task counts in an abstract before these, in a sentence about experiments
_EVALUATED_AFTER = frozenset({"tasks", "benchmarks"})
_EVALUATION = re.compile(
    r"experiment|evaluat|benchmark|result|outperform|surpass|achiev|accuracy|performance"
)


def _sentence(low: str, at: int) -> str:
    """The sentence of the folded text ``low`` that holds offset ``at``."""
    start = low.rfind(". ", 0, at) + 1
    end = low.find(". ", at)
    return low[start : end if end >= 0 else len(low)]


# a sentence that says what the paper itself does: its subject, then one of these verbs within 80 characters
_OWN_SUBJECT = re.compile(
    r"\b(?:we|this (?:paper|work|study|article|letter)|our (?:work|paper|goal|aim)|here)\b"
)
_OWN_VERBS = [
    "address",
    "tackl",
    "stud",
    "focus",
    "investigat",
    "explor",
    "consider",
    "solv",
    "target",
    "propos",
    "introduc",
    "present",
    "develop",
    "aim",
    "formulat",
    "improv",
    "enhanc",
]
_OWN_VERB = re.compile("|".join(_OWN_VERBS))  # one search, not a test per verb
_VERBISH = re.compile(r"ing$")
_DEFINED = re.compile(r"\s*\([a-z][a-z0-9\-]{1,10}\)")
_LIST_GAP = re.compile(
    r"\s*(?:,|,?\s*and|,?\s*or|/)\s*(?:(?:\w+ly|high-quality|accurate|robust|efficient)\s+){0,2}"
)


@dataclass(frozen=True, slots=True)
class TaskPhrase:
    """A task a text names: the known task's slug (or "" for a phrase no list holds), its label, the
    text as written and its offset, the known task it is a kind of, and whether it is a main task."""

    slug: str
    label: str
    text: str
    start: int
    broader: str = ""
    main: bool = False

    def detail(self) -> tuple[tuple[str, str], ...]:
        """The mention ``detail`` pairs, sorted."""
        pairs = [("label", self.label), ("main", "true" if self.main else "false")]
        if not self.slug:
            pairs.append(("open", "true"))
        if self.broader:
            pairs.append(("broader", self.broader))
        return tuple(sorted(pairs))


def is_verb(low: str) -> bool:
    """Whether a folded word is a verb of abstracts in one of its forms (:data:`~.lexicon.VERBS`).

    >>> [is_verb(w) for w in ("tackles", "derived", "achieving", "detection", "address", "addresses")]
    [True, True, True, False, True, True]
    """
    return low in VERB_FORMS


def _is_head(ws: Words, i: int) -> bool:
    """Whether word ``i`` ends a task word ("detection", "detections", "super-resolution"), or a weaker one
    right before "task(s)" ("visuo-motor control tasks")."""
    low = ws.low[i]
    if low in HEAD_WORDS or singular(low) in HEAD_WORDS:
        return True
    if low in WEAK_HEADS and i + 1 < len(ws) and ws.low[i + 1] in ("task", "tasks"):
        return True
    return i > 0 and not ws.broken[i] and (ws.low[i - 1], low) in HEAD_PAIRS


def _modifier(low: str) -> bool:
    """Whether a word may lead a task word: not a function word, a verb or praise, a number or an adverb."""
    return low not in NOT_MODIFIERS and not low.isdigit() and not low.endswith("ly")


def _starts_ok(low: str) -> bool:
    return low in START_OK or len(low) <= 4 or not _VERBISH.search(low)


def task_phrases(
    names: TaskNames,
    text: str,
    low: str,
    ws: Words,
    is_title: bool,
    not_modifiers: dict[int, str],
    method_keys: frozenset[str],
    benchmarks: dict[str, tuple[str, ...]],
) -> list[TaskPhrase]:
    """The tasks ``text`` (a title when ``is_title``; ``low``: folded to lower case) names.  ``not_modifiers``: the words of names
    that are no part of a task phrase (datasets), with the known dataset's slug; ``benchmarks``: the
    tasks of each known dataset ("ImageNet classification" is image classification)."""
    known = {h.end - 1: h for h in names.find(ws)}
    for i, slug in not_modifiers.items():
        if slug in benchmarks:
            on = _benchmark_task(names, ws, i, slug, benchmarks, not_modifiers)
            here = known.get(on.end - 1) if on is not None else None
            if on is not None and (here is None or here.end - here.start < on.end - on.start):
                known[on.end - 1] = on  # "ImageNet classification" over the umbrella "classification"
    found: list[tuple[TaskPhrase, int, int]] = []  # with the phrase's first and last word
    pending: list[tuple[TaskPhrase, int, int]] = []  # open phrases that need a neighbour in a list
    taken: set[int] = set()
    n = len(ws)
    lows = ws.low
    ends = sorted({*known, *(i for i, low in enumerate(lows) if low in HEAD_TRIGGERS)}, reverse=True)
    for i in ends:
        if i in taken:
            continue
        hit = known.get(i)
        after = lows[i + 1] if i + 1 < n and not ws.broken[i + 1] else ""
        if hit is None and (
            not _is_head(ws, i)
            or (after and after not in ENDS and after not in TASK_AFTER and not is_verb(after))
        ):
            continue  # no task word, or one that leads a noun ("generation quality")
        start = hit.start if hit is not None else i
        first, skipped = _lead(ws, start, not_modifiers)
        candidates = [first] if hit is None or first == hit.start else [first, hit.start]
        for lead in candidates:
            phrase = _phrase(names, ws, lead, i, hit, skipped)
            if phrase is None:
                continue
            slug, label, broader = phrase
            p = TaskPhrase(slug, label, text[ws.start[lead] : ws.end[i]], ws.start[lead], broader)
            verdict = _verdict(names, low, ws, lead, i, p, hit, after, is_title, method_keys)
            if verdict == "yes":
                found.append((p, lead, i))
                taken.update(range(lead, i + 1))
                break
            if verdict == "listed" and lead == candidates[-1]:
                pending.append((p, lead, i))
    for p, lead, last in pending:  # "novel view synthesis and physically accurate scene restoration"
        if any(_coordinated(text, ws, lead, last, f, la) for _q, f, la in found):
            found.append((p, lead, last))
    return sorted((p for p, _f, _l in found), key=lambda p: p.start)


_NOMINAL = {
    "evaluating": "evaluation", "tracking": "tracking", "detecting": "detection", "predicting": "prediction",
    "forecasting": "forecasting", "generating": "generation", "segmenting": "segmentation",
    "estimating": "estimation", "recognizing": "recognition", "recognising": "recognition",
    "classifying": "classification", "localizing": "localization", "localising": "localization",
    "reconstructing": "reconstruction", "retrieving": "retrieval", "translating": "translation",
    "summarizing": "summarization", "summarising": "summarization", "captioning": "captioning",
    "quantifying": "quantification", "diagnosing": "diagnosis", "identifying": "identification",
    "verifying": "verification", "synthesizing": "synthesis", "counting": "counting", "parsing": "parsing",
}  # fmt: skip
"""Verbs a title may begin with whose noun is a task word ("Tracking Speaker Aging" is speaker aging
tracking, "Detecting Objects in Fog" object detection)."""
MAX_OBJECT = 3
"""Words of the object of such a verb at most."""


def title_task(names: TaskNames, text: str, ws: Words) -> TaskPhrase | None:
    """The task a title names by a verb and its object, at its start or after a colon ("Tracking Speaker
    Aging With ...", "X: Evaluating Large Language Models on ..."): the object's words then the verb's
    noun, a known task when that is a label ("Detecting Objects" is object detection).  The object is one
    to three words that may lead a task word, up to a break, a preposition or the end."""
    lows, n = ws.low, len(ws)
    for i in range(n - 1):
        if lows[i] not in _NOMINAL:
            continue
        start = (
            i - 1 if i > 0 and lows[i - 1].endswith("ly") and not ws.broken[i] else i
        )  # "Continuously Tracking"
        if not (start == 0 or text[ws.end[start - 1] : ws.start[start]].strip() in (":", "?", "!")):
            continue
        last = i
        while (
            last + 1 < n and last - i < MAX_OBJECT and not ws.broken[last + 1] and _modifier(lows[last + 1])
        ):
            last += 1
        after = lows[last + 1] if last + 1 < n and not ws.broken[last + 1] else ""
        possessive = text[ws.end[last] : ws.end[last] + 1] in ("'", "\u2019")  # "Predicting Poets' Origins"
        if (
            last == i
            or possessive
            or ws.hyphened[last + 1 : last + 2] == [True]
            or (after and (after not in ENDS or after in _AND))
        ):
            continue  # no object, a longer or compound one ("Generating a Realistic Iris Database"), or two
        if lows[last] in HEAD_TRIGGERS:
            continue  # the object is a task ("Evaluating Sarcasm Detection"): the phrases find it
        if _singular_word(lows[last]) in _MEANS_OBJECTS:
            continue  # "Synthesizing Navigation Abstractions for Planning": a means built, not a task
        words = [_label_word(ws, j) for j in range(i + 1, last + 1)]
        words[-1] = _singular_word(words[-1])
        label = " ".join([*words, _NOMINAL[lows[i]]])
        slug = names.by_key.get(label_key(label), "")
        concept = names.concepts.get(slug)
        if concept is not None and concept.generic:
            continue
        return TaskPhrase(
            slug, concept.pref if concept else label, text[ws.start[i] : ws.end[last]], ws.start[i], main=True
        )
    return None


_AND = frozenset({"and", "or"})
# what a method builds on its way to a task: the object of a title's verb that names no task
_MEANS_OBJECTS = frozenset(
    {"abstraction", "representation", "policy", "skill", "feature", "embedding", "heuristic", "rule", "prior"}
)


def _singular_word(word: str) -> str:
    """A plural noun made singular ("Scenes", "strategies", "LLMs"; not "bias", "analysis").

    >>> [_singular_word(w) for w in ("Scenes", "strategies", "LLMs", "bias", "analysis", "glass")]
    ['Scene', 'strategy', 'LLM', 'bias', 'analysis', 'glass']
    """
    if len(word) > 3 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "is", "us", "as", "ics")):
        return word[:-1]
    return word


def _benchmark_task(
    names: TaskNames,
    ws: Words,
    i: int,
    slug: str,
    benchmarks: dict[str, tuple[str, ...]],
    named: dict[int, str],
) -> Hit | None:
    """The task a dataset's name and a task word name together ("ImageNet classification", "PASCAL VOC
    detection"): a task the dataset is a benchmark for that ends in that word."""
    head = i + 1
    if not slug or head >= len(ws) or ws.broken[head] or head in named:
        return None
    word = ws.low[head]
    for task in benchmarks.get(slug, ()):
        concept = names.concepts.get(task)
        if concept is not None and label_key(concept.pref).split()[-1] == word:
            first = i
            while first - 1 in named and named[first - 1] == slug:
                first -= 1
            return Hit(task, first, head + 1, ws.start[first], ws.end[head])
    return None


def _lead(ws: Words, start: int, not_modifiers: dict[int, str]) -> tuple[int, frozenset[int]]:
    """The first word of the phrase that ends in words ``start:``, and the words in it that are no part
    of the task: the words before that may lead a task word (at most :data:`MAX_MODIFIERS`, a hyphenated
    compound counting once), a verb-like first word ("Enhancing", "proposed") left out; "chain-of-thought"
    is how, not what ("multimodal chain-of-thought reasoning" is multimodal reasoning)."""
    lows, broken = ws.low, ws.broken
    first, units = start, 0
    skipped: set[int] = set()
    while first > 0 and not broken[first] and first - 1 not in not_modifiers:
        if first >= 3 and lows[first - 3 : first] == ["chain", "of", "thought"]:
            if broken[first - 2] or broken[first - 1]:
                break
            skipped.update(range(first - 3, first))
            first -= 3
            continue
        hyphened = ws.hyphened[first]
        word = lows[first - 1]
        # "text-to-image", "pick-and-place", "out-of-distribution": a joining word inside a compound
        inside = word in JOINED and hyphened and ws.hyphened[first - 1]
        if not (_modifier(word) or (word in PREFIXES and hyphened) or inside):
            break
        if not hyphened:
            units += 1
            if units > MAX_MODIFIERS:
                break
        first -= 1
    # a joining word never leads, nor a word inside a compound the phrase does not hold whole
    # ("Pointing-to-Object Detection" is not "to object detection", "in-the-wild video amodal completion"
    # not "wild video amodal completion")
    while first < start and (
        not _starts_ok(lows[first]) or first in skipped or lows[first] in JOINED or ws.hyphened[first]
    ):
        first += 1
    return first, frozenset(j for j in skipped if j >= first)


def _verdict(
    names: TaskNames,
    low: str,
    ws: Words,
    first: int,
    last: int,
    p: TaskPhrase,
    hit: Hit | None,
    after: str,
    is_title: bool,
    method_keys: frozenset[str],
) -> str:
    """Whether a phrase counts ("yes"), counts if it is in a list with a task that does ("listed"), or not."""
    if after in NOT_TASK_AFTER or (first >= 2 and (ws.low[first - 2], ws.low[first - 1]) in _LENS):
        return "no"  # "a Visual Navigation Perspective", "from the perspective of visual navigation"
    if after and ws.hyphened[last + 1]:
        return "no"  # "Dynamic Subgraph Retrieval-Augmented LLMs", "detection-based": a compound's first part
    concept = names.concepts.get(p.slug)
    if p.slug and concept is not None:
        hidden = hit is not None and hit.hidden and first == hit.start
        if concept.generic and not is_title:
            # "classification tasks" says little of a paper's work, but "experiments across eight
            # reasoning tasks" says what it is evaluated on
            # ("state-tracking tasks" is a task of its own, not the umbrella)
            evaluated = (
                after in _EVALUATED_AFTER
                and not ws.hyphened[first]
                and _EVALUATION.search(_sentence(low, ws.start[first]))
            )
            return "yes" if evaluated else "no"
        if concept.generic or hidden:
            return "yes" if after in TASK_AFTER or _task_list_after(ws, last) else "no"
        if first == last and not is_title and ws.low[last].endswith("ions") and after not in TASK_AFTER:
            return "no"  # "we give recommendations", "translations": advice or outputs, not the task
        return "yes"
    key = label_key(p.label)
    if key in method_keys or key in NOT_TASKS:
        return "no"  # "feature extraction" named as a method
    if _led_by_method(ws, first, last, method_keys):
        return "no"  # "Monte Carlo estimation", "LLM reasoning": a method's doing, not a task
    if is_title and first > 0 and ws.low[first - 1] in _MEANS:
        return "no"  # "... Optimization via Reinforcement Planning": how the work is done, not what
    if _plural_outputs(ws.low[last]):
        return "no"  # "teacher predictions", "final reconstructions": things a model outputs, not a task
    if not _is_head(ws, last) and (
        hit is None or hit.end - hit.start < 2 or names.concepts[hit.slug].generic
    ):
        return "no"  # "comparative analysis": an umbrella task's word, led, is no task
    if after and after not in ENDS and after not in TASK_AFTER and not is_verb(after):
        return "no"  # "manipulation skills", "reasoning models": the phrase leads a noun
    if after == "of" and ws.low[last] == "understanding" and not is_title:
        return "no"  # "a deeper, interpretable understanding of model behavior"
    if is_title or after in TASK_AFTER or _in_task_context(low, ws, first, last):
        return "yes"
    return "listed"


def _plural_outputs(word: str) -> bool:
    """Whether a folded task word is written in the plural, which names outputs ("teacher predictions",
    "3D reconstructions"); the plural of a task that is named so ("group recommendations") is not.

    >>> [_plural_outputs(w) for w in ("predictions", "prediction", "recommendations", "analysis")]
    [True, False, False, False]
    """
    return word.endswith("ions") and word != "recommendations"


def _led_by_method(ws: Words, first: int, last: int, method_keys: frozenset[str]) -> bool:
    """Whether the words that lead an open phrase's task word name a method (one or two of them)."""
    lows = ws.low[first:last]
    pairs = [f"{a} {b}" for a, b in pairwise(lows)]
    return any(k in method_keys and k not in SETTINGS for k in (*lows, *pairs))


def _task_list_after(ws: Words, last: int) -> bool:
    """Whether a task word follows a short list the phrase is in ("REC and VQA tasks")."""
    for j in range(last + 1, min(len(ws), last + 6)):
        if ws.low[j] in TASK_AFTER:
            return True
        if ws.broken[j] and ws.low[j] not in ("and", "or"):
            return False
    return False


def _coordinated(text: str, ws: Words, first: int, last: int, other_first: int, other_last: int) -> bool:
    """Whether two phrases stand in one list ("X, Y and Z"), a word of manner or praise between aside."""
    if other_last < first:
        gap = text[ws.end[other_last] : ws.start[first]]
    elif last < other_first:
        gap = text[ws.end[last] : ws.start[other_first]]
    else:
        return False
    return _LIST_GAP.fullmatch(gap) is not None


def _phrase(
    names: TaskNames, ws: Words, first: int, last: int, hit: Hit | None, skipped: frozenset[int] = frozenset()
) -> tuple[str, str, str] | None:
    """``(slug, label, broader)`` of the phrase ``ws[first:last + 1]`` (but the ``skipped`` words): a known
    task when its words are a label (the longest known task in it otherwise becomes its ``broader``),
    else an open phrase."""
    kept = [j for j in range(first, last + 1) if j not in skipped]
    lows = [ws.low[j] for j in kept]
    if lows[-1] not in HEAD_WORDS and hit is None:
        lows[-1] = singular(lows[-1])
    hit_at = kept.index(hit.start) if hit is not None and hit.start in kept else -1
    at, slug = -1, ""  # the longest label the phrase ends in, grown from its last word
    key = SPELLED_OUT.get(lows[-1], lows[-1])  # "open-ended QA" is open-ended question answering
    for s in range(len(kept) - 1, -1, -1):
        if s < len(kept) - 1:
            key = f"{lows[s]} {key}"
        found = names.by_key.get(key) or (hit.slug if s == hit_at and hit is not None else None)
        if found is not None:
            at, slug = s, found
        if key not in names.suffixes and s <= hit_at:
            break
    if at == 0:
        return slug, names.concepts[slug].pref, ""
    if at > 0:
        return "", " ".join(_label_word(ws, j) for j in kept), slug
    if len(kept) < 2:
        return None  # a task word alone ("detection") is the umbrella task, known
    return "", " ".join(_label_word(ws, j) for j in kept), ""


def _label_word(ws: Words, j: int) -> str:
    """A word of an open phrase's label: lower case, but an acronym or a name with capitals as written."""
    text = ws.text[j]
    return ws.low[j] if text[1:].islower() or len(text) == 1 else text


def _in_task_context(low: str, ws: Words, first: int, last: int) -> bool:
    """Whether the text names ``ws[first:last + 1]`` as a task: after a cue ("we address", "for", "on"; a
    few words may stand between), as the subject that "aims to", or defined with a short form ("... (WSOL)")."""
    lows, broken = ws.low, ws.broken
    j = first
    for _ in range(4):  # the cue and at most three words after it
        if j == 0 or (broken[j] and j != first):
            break
        j -= 1
        word = lows[j]
        if word in _CUE_WORDS or word.startswith(_CUE_STEMS) or (j > 0 and (lows[j - 1], word) in _CUE_PAIRS):
            return True
        if broken[j]:
            break
    opening = first == 0 or broken[first] or (first == 1 and lows[0] == "the")
    following = lows[last + 1] if last + 1 < len(ws) else ""
    if opening and (is_verb(following) or following in SUBJECT_VERBS):
        return True
    return _DEFINED.match(low, ws.end[last]) is not None


def mark_main(
    title: list[TaskPhrase],
    abstract: list[TaskPhrase],
    abstract_low: str,
    generic: frozenset[str] = frozenset(),
) -> list[TaskPhrase]:
    """The tasks of a paper, its main ones marked: the title's, and those of a sentence that says what
    the paper does ("we address X"); when neither names one, the first task of the abstract that is no
    umbrella (a slug in ``generic``: "evaluated on reasoning benchmarks" is no main task).
    ``abstract_low``: the abstract folded to lower case."""
    # replace() is dear: only when it changes
    marked = [p if p.main else replace(p, main=True) for p in title]
    own = []
    for m in _OWN_SUBJECT.finditer(abstract_low) if abstract else ():
        clause = abstract_low[m.end() : m.end() + 80].split(".", 1)[0].split(";", 1)[0]
        if _OWN_VERB.search(clause) is not None:
            # the rest of the sentence: the verb's object ("we address X", "this paper studies X for Y")
            sentence = abstract_low[m.end() : m.end() + 300].split(". ", 1)[0].split(";", 1)[0]
            own.append((m.start(), m.end() + len(sentence)))
    for p in abstract:
        in_own = any(s <= p.start < e for s, e in own)
        marked.append(p if p.main == in_own else replace(p, main=in_own))
    first = next((i for i, p in enumerate(abstract) if p.slug not in generic), None)
    if not any(p.main for p in marked) and first is not None:
        marked[len(title) + first] = replace(marked[len(title) + first], main=True)
    return marked
