"""Names a paper gives outside a proposing sentence: its title's name ("Crab: ..."), "Our method,
Odin, ...", the named parts of its method ("Perspective Fusion Module (PFM)", "the AuralFuser
module", "three agents: PlannerAgent, CoderAgent and ManimAgent") and names said in the passive
("FooNet is proposed")."""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Iterator

from .forms import TITLE_NAME, Abbreviation, initials_start, norm_label
from .shapes import NOT_NAMES, STRIP, TASK_HEADS, Name, looks_like_name, sentences, title_case

# ... and a title-case long form names a part of the paper's method only when it ends in one of these
PART_HEADS = frozenset(
    {
        "module", "block", "layer", "network", "net", "mechanism", "loss", "strategy", "gate", "head", "encoder",
        "decoder", "branch", "refinement", "fusion", "attention", "adapter", "generator", "discriminator",
        "aggregation", "aggregator", "alignment", "distillation", "sampling", "sampler", "regularization",
        "regularizer", "weighting", "embedding", "encoding", "tokenizer", "planner", "controller", "policy",
        "optimizer", "optimization", "scheduler", "router", "memory", "prompt", "prompting", "tuning",
        "transformer", "estimator", "predictor", "search", "filter", "pooling", "normalization", "augmentation",
        "masking", "selection", "correction", "matching", "attack", "defense", "algorithm", "method",
        "framework", "pipeline", "consistency", "constraint", "objective", "reward", "guidance", "decoding",
        "injection", "enhancement", "extractor", "projection", "integration", "propagation",
        "editing", "unlearning", "compression", "quantization", "pruning", "merging", "routing", "caching",
        "training", "learning", "model", "agent", "solver", "scheme", "operator", "representation",
        "fuser", "critic", "verifier", "retriever", "reasoner",
    }
)  # fmt: skip
# "X is proposed", "a ... network (MSF) is designed": the paper's own part, said in the passive
_PASSIVE = re.compile(
    r"^[^.;]{0,40}?\b(?:is|are)\s+(?:then\s+|further\s+|also\s+|first\s+|thus\s+|therefore\s+|hence\s+)?"
    r"(?:proposed|introduced|designed|developed|presented)\b"
)
_PASSIVE_VERB = re.compile(
    r"\b(?:is|are)\s+(?:then\s+|further\s+|also\s+|first\s+|thus\s+|therefore\s+|hence\s+|newly\s+)?"
    r"(?:proposed|introduced|designed|developed|presented|constructed)\b"
)
_OTHERS_NEAR = re.compile(
    r"\b(?:existing|prior|previous|previously|earlier|conventional|traditional|popular|standard|recent|recently"
    r"|widely|commonly|classical|classic|original)\b"
)


# what a paper uses rather than makes: "derived from X (SF)", "using X (SF)", "such as X (SF)"
_USING_BEFORE = re.compile(
    r"\b(?:from|using|uses|use|upon|based on|leverag\w*|employ\w*|adopt\w*|utili[sz]\w*|such as|including|like"
    r"|e\.g\.,?|follow\w*|apply\w*|applied to)\s+(?:the\s+|a\s+|an\s+|popular\s+|existing\s+)?$"
)


def named_parts(
    masked: str, abbreviations: list[Abbreviation], known: dict[str, str], title_named: bool
) -> Iterator[Name]:
    """The named parts of the paper's own method: defined short forms whose long form is a
    title-case name ("Perspective Fusion Module (PFM)") or that the text says were designed here
    ("a multi-scale spiking fusion network (MSF) is designed").  ``title_named``: whether the paper
    introduces something at all (a proposing sentence or a title name); otherwise only the passive
    form counts."""
    for ab in abbreviations:
        long = ab.long.strip()
        words = norm_label(long).split()
        if not words or words[-1] in TASK_HEADS or words[-1].rstrip("s") in TASK_HEADS:
            continue
        if norm_label(long) in known or norm_label(long).rstrip("s") in known:
            continue
        before = masked[max(0, ab.long_start - 60) : ab.long_start].lower()
        if _OTHERS_NEAR.search(before) or _USING_BEFORE.search(before):
            continue  # "features derived from Spatio-Temporal Graph Convolutional Networks (ST-GCNs)"
        after = masked[ab.start + len(ab.short) : ab.start + len(ab.short) + 60]
        passive = _PASSIVE.match(after.lstrip(") ")) is not None
        part = words[-1] in PART_HEADS or words[-1].rstrip("s") in PART_HEADS
        if (passive or (title_named and title_case(long) and part)) and words[-1] not in (
            "learning",
            "model",
        ):
            yield Name(ab.start, ab.start + len(ab.short), ab.short, long)


def passive_names(masked: str) -> Iterator[Name]:
    """Names the text says were made here, in the passive: "FooNet is proposed", "To this end, a
    novel framework, FooNet, is introduced" -- the last name-like word of the sentence's subject."""
    for m in _PASSIVE_VERB.finditer(masked):
        dot = masked.rfind(". ", 0, m.start())
        start = max(dot + 2 if dot >= 0 else 0, masked.rfind("\n", 0, m.start()) + 1)
        subject = masked[start : m.start()]
        if _OTHERS_NEAR.search(subject.lower()) or len(subject) > 200 or subject.rstrip().endswith(")"):
            continue  # "Evidence-Grounded F1 (EG-F1) is introduced": a definition, a named part's
        subject = re.sub(r"\([^()]*\)", lambda p: " " * len(p.group()), subject)  # "X (Long Form) is ..."
        words = list(re.finditer(r"[^\s,;:()]+", subject))
        # the subject's last word is the name ("a novel framework, FooNet, is"), not a word before a
        # clause ("such as MMLU or HellaSwag, where questions are presented")
        if words and looks_like_name(words[-1].group()):
            w = words[-1]
            name = w.group().strip(STRIP)
            yield Name(start + w.start(), start + w.start() + len(name), name, name)


# a coined name of a part: "USAgent", "AuralFuser", "SalientFormer" (inner capital after small letters)
_COINED_PART = re.compile(r"(?<![\w\-./])([A-Z][A-Za-z]*[a-z][A-Z][\w\-]*[A-Za-z0-9])(?![\w\-])")
_PART_WORD = re.compile(
    r"\s+(?:module|modules|block|blocks|agent|agents|component|components|network|subnetwork|branch|encoder"
    r"|decoder|head|layer|mechanism|strategy|loss|planner|controller|generator|unit|stage|adapter|router"
    r"|extractor|fuser|critic|verifier|retriever|reasoner|tokenizer|estimator|predictor)\b"
)
# ... or itself ends in a part word ("ManimAgent", "AuralFuser", "SalientFormer", "PartGCN")
_PART_SUFFIX = re.compile(
    r"(?:Agent|Module|Net|Former|Fuser|Encoder|Decoder|Planner|Block|Head|Router|Adapter|Extractor|Mamba"
    r"|Critic|Verifier|Retriever|Reasoner|Tokenizer|GCN|GNN|Transformer|Attention|Fusion|Policy|Controller)s?$"
)
_PART_LIST = re.compile(
    r"(?:\b(?:components?|modules?|agents?|stages?|parts?|sub-?networks?|branches|blocks?)\s*:"
    r"|\bconsists?\s+of|\bconsisting\s+of|\bcompris(?:es|ing|e)|\bcomposed\s+of|\bmade\s+up\s+of)"
)
_COMPARISON = re.compile(
    r"outperform|compar|baseline|\bthan\b|such as|e\.g\.|existing|prior|previous|state-of-the-art|\bsota\b"
    r"|surpass|\bvs\b|versus|benchmark|dataset",
    re.IGNORECASE,
)


# a sentence about the paper's own method
_OWN_PARTS = re.compile(
    r"\b(?:we|our|novel|proposed|propose|introduce|design|consist|compris|compose|first|then|finally)",
    re.IGNORECASE,
)


def components(masked: str) -> Iterator[Name]:
    """Coined names of the parts of the paper's method: right before a part word ("the novel
    AuralFuser module") or listed as its parts ("three agents: PlannerAgent, CoderAgent and
    ManimAgent"), in sentences that compare with nothing."""
    candidates = list(_COINED_PART.finditer(masked))  # few: sentences are looked at only around them
    if not candidates:
        return
    bounds = list(sentences(masked))
    starts = [start for start, _end in bounds]
    verdicts: dict[int, tuple[bool, int]] = {}  # sentence -> (whether it may name parts, where a list starts)
    for m in candidates:
        k = bisect_right(starts, m.start(1)) - 1
        start, end = bounds[k]
        if k not in verdicts:
            sentence = masked[start:end]
            listed = _PART_LIST.search(sentence)
            ours = not _COMPARISON.search(sentence) and _OWN_PARTS.search(sentence) is not None
            verdicts[k] = (ours, start + listed.start() if listed else -1)
        ours, list_start = verdicts[k]
        word = m.group(1)
        if not ours:
            continue
        in_list = 0 <= list_start < m.start(1) and _PART_SUFFIX.search(word) is not None
        if in_list or _PART_WORD.match(masked, m.end(1), end):
            yield Name(m.start(1), m.start(1) + len(word), word, word)


_OUR_METHOD = re.compile(
    r"\b[Oo]ur\s+(?:proposed\s+|new\s+|final\s+)?(?:method|model|framework|approach|system|algorithm|pipeline"
    r"|architecture|agent|policy|technique|solution),\s+(?P<name>[^\s,(]+(?:\s[A-Z][^\s,(]*){0,3})\s*[,(]"
)


def our_method_names(masked: str) -> Iterator[Name]:
    """Names given as "Our method, Odin, ..." or "Our framework, X (Long Form), ..."."""
    for m in _OUR_METHOD.finditer(masked):
        name = m.group("name").strip(STRIP)
        if name and (looks_like_name(name) or name[0].isupper()) and name.lower() not in NOT_NAMES:
            yield Name(m.start("name"), m.start("name") + len(name), name, name)


# a title "Name: what it does" introduces Name (unless it is a kind of paper or a question)
_NOT_TITLE_NAMES = frozenset(
    {
        "position", "survey", "review", "tutorial", "preface", "editorial", "commentary", "erratum",
        "introduction", "overview", "perspective", "perspectives", "report", "technical report", "keynote",
        "case study", "a survey", "short paper", "extended abstract", "abstract", "appendix", "note",
        "opinion", "poster", "demo", "invited talk", "challenges", "lessons learned",
    }
)  # fmt: skip
_QUESTION_START = re.compile(
    r"^(?:why|how|what|when|where|which|who|can|do|does|is|are|should|could|will)\b", re.I
)


_VERBS = frozenset(
    {"can", "could", "may", "might", "will", "would", "should", "must", "is", "are", "was", "were", "do", "does",
     "did", "has", "have", "need", "needs", "meets", "matters", "makes", "make", "helps", "works", "beats"}
)  # fmt: skip


def _coined(word: str) -> bool:
    """Whether a word is coined: a capital or digit inside it other than after a hyphen ("PartGCN",
    "YOLO-SPCI", "Wan2"), not a title-case compound ("Reliability-Oriented").

    >>> [_coined(w) for w in ("PartGCN", "YOLO-SPCI", "Reliability-Oriented", "GPT-4")]
    [True, True, False, True]
    """
    w = word.strip(STRIP)
    return any((c.isupper() or c.isdigit()) and w[i - 1] != "-" for i, c in enumerate(w) if i > 0)


def title_name(title: str) -> Name | None:
    """The name a title "Name: ..." gives, when it looks like a name.

    >>> [n.short if n else None for n in map(title_name, ["Crab: A Unified Model", "Position: LLMs Lie",
    ...     "Stabilize to Act: Learning to Coordinate", "YOLO-SPCI: Enhancing Detection", "Why X: Y",
    ...     "Breaking the Sub-Millimeter Barrier: Eyeframes"])]
    ['Crab', None, None, 'YOLO-SPCI', None, None]
    """
    m = TITLE_NAME.match(title)
    if m is None:
        return None
    name = m.group("name").strip().strip(STRIP)
    if name.startswith("Meet ") and len(name) > 5:
        name = name[5:]  # "Meet UD_Czech-PDTC: A Large ... Treebank"
    words = name.split()
    if not words or len(words) > 4 or name.lower() in _NOT_TITLE_NAMES or _QUESTION_START.match(name):
        return None
    if len(words) > 1 and not any(looks_like_name(w) and _coined(w) for w in words):
        return None  # "Stabilize to Act", "Reliability-Oriented Diagnosis": a phrase, not a name
    if len(words) > 2 and any(w[0].islower() for w in words[1:]):
        return None  # "Breaking the Sub-Millimeter Barrier": a sentence, not a name
    if len(words) > 1 and any(w.lower() in _VERBS for w in words[1:]):
        return None  # "SAEs Can Improve Unlearning", "Attention Is All": a claim, not a name
    last = words[-1].lower().rsplit("-", 1)[-1]
    if len(words) > 1 and (last in TASK_HEADS or last.rstrip("s") in TASK_HEADS):
        return None  # "One-Shot Imitation Learning", "3D Human Interaction Generation": a field
    if not (name[0].isupper() or name[0].isdigit() or looks_like_name(words[0])):
        return None
    start = m.start("name") + m.group("name").index(name)
    return Name(start, start + len(name), name, title_long_form(name, m.group("rest")) or name, True)


_TITLE_CUT = re.compile(r"\s+(?:for|via|with|in|on|to|from|through|using|towards?|by|under|at|as)\s|[:,;.?!]")


def title_long_form(name: str, rest: str) -> str:
    """The long form a title gives its name at the start of the rest, when its words' initials spell
    the name ("DSCA: Dynamic Subspace Concept Alignment for ...", "CoM: Chain of Mesh ..."), else "".

    >>> title_long_form("DSCA", "Dynamic Subspace Concept Alignment for Lifelong VLM Editing")
    'Dynamic Subspace Concept Alignment'
    >>> title_long_form("Crab", "A Unified Audio-Visual Scene Understanding Model")
    ''
    """
    if sum(c.islower() for c in name) > sum(c.isupper() for c in name):
        return ""  # a coined name ("FooNet: Fast Nets"), not an acronym of what follows
    cut = _TITLE_CUT.search(rest)
    head = rest[: cut.start()] if cut else rest
    return head.strip() if initials_start(name, head) == 0 else ""
