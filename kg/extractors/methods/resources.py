"""Resources: whether a name the paper introduces is a dataset, a benchmark, a metric or a library.

Decided by the name's own role in its sentence, not by a word that happens to stand near: the head
of the noun phrase that defines it ("X, a benchmark of ...", "X, a framework for learning from
offline datasets" is a method), the noun right before it ("a synthetic dataset X"), its long form
("... dataset (WWQA)"), its own shape ("FooBench") or the head of its title ("MANGO: A Benchmark for
...", "VoxAging: ... with a Longitudinal Dataset"; not "DiffuseLoco: ... from Offline Datasets").
"""

from __future__ import annotations

import re

from .forms import TITLE_NAME

_KIND = {
    "benchmark": "benchmark", "suite": "benchmark", "leaderboard": "benchmark", "testbed": "benchmark",
    "arena": "benchmark", "environment": "benchmark", "gym": "benchmark", "dataset": "dataset", "corpus": "dataset", "corpora": "dataset",
    "collection": "dataset", "database": "dataset", "treebank": "dataset", "library": "library",
    "toolkit": "library", "toolbox": "library", "package": "library", "metric": "metric", "measure": "metric",
}  # fmt: skip
# a noun phrase ends before these: "a framework | for ...", "a dataset | of ...", "a model | that ..."
_NP_STOP = frozenset(
    {
        "for", "of", "that", "which", "to", "with", "from", "on", "in", "by", "using", "where", "whose", "via",
        "designed", "built", "based", "comprising", "containing", "consisting", "featuring", "covering",
        "spanning", "including", "enabling", "capable", "trained", "tailored", "aimed", "dedicated", "across",
        "at", "as", "is", "are", "we", "it", "over", "under", "leveraging", "integrating", "combining",
        "through", "against", "beyond", "toward", "towards", "into", "about", "between", "among", "within",
        "without", "after", "before", "like", "vs", "versus", "than", "while",
    }
)  # fmt: skip
_ARTICLE = re.compile(
    r"^[\s,:()]*(?:\w[\w-]*\)\s*,?\s*)?(?:(?:is|are)\s+)?(?:a|an|the|our)\s+", re.IGNORECASE
)
_WORDS = re.compile(r"[A-Za-z][\w-]*|[,.;:()]")


def _head(phrase: str) -> str:
    """The head noun of the noun phrase a phrase begins with (its last word before a preposition, a
    verb or punctuation), lower case; "data set" is one word.

    >>> _head("framework for training policies from offline datasets")
    'framework'
    >>> _head("fully autonomous, self-supervised data collection paradigm")
    'paradigm'
    >>> _head("large-scale multimodal dataset with 300K+ pairs")
    'dataset'
    >>> _head("automated environment synthesis for agentic reinforcement learning")
    'synthesis'
    """
    words: list[str] = []
    heads: list[str] = []  # the words of the phrase that can head it: "dataset", "framework"
    tokens = _WORDS.findall(phrase.replace("data set", "dataset").replace("Data Set", "Dataset"))
    depth = 0
    for i, w in enumerate(tokens):
        low = w.lower()
        if low in "()":  # "a visual Chain-of-Thought (CoT) dataset": a definition inside the phrase
            depth = max(0, depth + (1 if low == "(" else -1))
            continue
        if depth:
            continue
        if low == ",":
            # "a fully autonomous, self-supervised ... paradigm", "A Unified, Modular, and ... Toolkit": a
            # comma between modifiers goes on, one after the head ends the phrase
            if heads or i + 1 >= len(tokens) or tokens[i + 1].lower() in _NP_STOP:
                break
            continue
        if low == "of" and words and words[-1] in _PART_OF:
            continue  # "a new set of metrics", "an expanded version of the ... dataset": the head follows
        verb = low.endswith(("ing", "ed")) and "-" not in low
        if low in _NP_STOP or low in ".;:" or (heads and (verb or low in ("and", "or"))):
            break  # "a dataset | encompassing ...", "a speech dataset | created ...", "an agent | and data"
        if low.endswith("ly") and len(low) > 4:
            continue  # "the first benchmark explicitly designed": an adverb is no head
        words.append(low)
        if _kind(low) or low in _METHOD_NOUNS or low.rstrip("s") in _METHOD_NOUNS:
            heads.append(low)
        if len(words) >= 8:
            break
    while words and words[-1] in ("and", "or"):
        words.pop()
    if not words:
        return ""
    head = words[-1]
    # "an evaluation protocol", "a benchmark environment": what evaluates is a benchmark (not "a
    # training and evaluation framework")
    before = words[-2] if len(words) >= 2 else ""
    joined = len(words) >= 3 and words[-3] in ("and", "or")
    if before in ("evaluation", "benchmark", "benchmarking") and head in _METHOD_NOUNS and not joined:
        return "benchmark"
    return head


_PART_OF = frozenset(
    {"set", "suite", "collection", "family", "series", "version", "variant", "extension", "subset"}
)
_METHOD_NOUNS = frozenset(
    {
        "framework", "method", "model", "approach", "system", "pipeline", "paradigm", "algorithm",
        "architecture", "agent", "policy", "network", "technique", "strategy", "scheme", "mechanism", "module",
        "tool", "engine", "platform", "simulator", "recipe", "protocol", "loss", "objective",
        "optimizer", "planner", "controller", "encoder", "decoder", "transformer", "solver", "family",
    }
)  # fmt: skip


def _kind(head: str) -> str:
    """The resource kind a head noun names, or ""."""
    return _KIND.get(head) or _KIND.get(head[:-1] if head.endswith("s") else head, "")


def title_resource(title: str) -> str:
    """``benchmark``/``dataset`` when a title "Name: ..." says the name is one."""
    m = TITLE_NAME.match(title)
    return title_rest_resource(m.group("rest")) if m else ""


def title_rest_resource(rest: str) -> str:
    """The resource a title's rest says the name is: the head of its first noun phrase ("A Benchmark
    for ...", "Benchmarking ...") or a resource it brings ("... with a Longitudinal Dataset"), not one
    it uses ("... from Offline Datasets").

    >>> [title_rest_resource(r) for r in ("A Benchmark for Mapping", "Tracking Aging with a Longitudinal "
    ...     "Dataset", "Real-Time Locomotion Control with Diffusion from Offline Datasets")]
    ['benchmark', 'dataset', '']
    """
    stripped = re.sub(r"^(?:a|an|the)\s+", "", rest.strip(), flags=re.IGNORECASE)
    if re.match(r"benchmarking\b", stripped, re.IGNORECASE):
        return "benchmark"
    # "Synthesizing Diverse 3D Pose Data ...": what the name does (a method), unless it brings data
    if not re.match(r"[A-Za-z]+ing\b", stripped):
        head = _head(stripped.lower())
        kind = "benchmark" if head in ("evaluation", "evaluations") else _kind(head)
        if kind in ("benchmark", "dataset"):
            return kind
    brings = re.search(
        r"\b(?:a|an|new|and)\s+(?:[\w-]+\s+){0,4}?(benchmark|dataset|data set|corpus|testbed|evaluation suite)\b(?!s)",
        rest,
        re.IGNORECASE,
    )
    return (
        _kind(brings.group(1).lower().replace("data set", "dataset").replace("evaluation ", ""))
        if brings
        else ""
    )


# "the first DVS video anomaly detection benchmark, namely X", "a synthetic dataset X"
_RESOURCE_BEFORE = re.compile(
    r"\b(benchmark|suite|leaderboard|testbed|dataset|data set|corpus|collection)s?\s*[,:]?\s*(?:namely|called|named"
    r"|dubbed|termed)?\s*[(\"“]?$"
)


def resource_before(lead: str) -> str:
    """``benchmark``/``dataset`` when the words right before the name say so."""
    m = _RESOURCE_BEFORE.search(lead)
    return _kind(m.group(1).replace("data set", "dataset")) if m else ""


def resource_named(full: str) -> str:
    """``benchmark``/``dataset`` when the long form itself is one, by its head ("Werewolf
    question-answering dataset", "Audio-Visual Instruction-tuning dataset with Explicit reasoning";
    not "Dataset Policy Gradient", a policy gradient)."""
    head = _head(full.lower())
    kind = _kind(head)
    return kind if kind in ("benchmark", "dataset") and head not in ("collection", "measure") else ""


_RIGHT_AFTER = re.compile(r"^\s*(benchmark|dataset|data set|corpus|testbed|suite)s?\b", re.IGNORECASE)
# "MT-Bench", "HumanEval", "SimpleQA"; not "FlowRetrieval"
_BENCH = re.compile(r"(?:[Bb]ench|BENCH|Eval|EVAL|Arena|QA)$")


def resource_after(name: str, tail: str) -> str:
    """``benchmark``/``dataset``/``library``/``metric`` when the definition right after the name
    says so: the head of its noun phrase ("X, a benchmark of ...", not "X, a framework for learning
    from offline datasets").

    >>> resource_after("DiffuseLoco", ", a framework for training policies from offline datasets")
    ''
    >>> resource_after("MILES", ", a fully autonomous, self-supervised data collection paradigm")
    ''
    >>> resource_after("RSITCD", ", a large-scale multimodal dataset with 300K+ pairs")
    'dataset'
    """
    if _BENCH.search(name):
        return "benchmark"
    right = _RIGHT_AFTER.match(tail)  # "the PARADEHATE dataset"
    if right:
        return _kind(right.group(1).replace("data set", "dataset"))
    m = _ARTICLE.match(tail)
    if m is None:
        return ""
    return _kind(_head(tail[m.end() :]))
