"""Introduced names: the methods, datasets and benchmarks a paper says it proposes.

A name is introduced when it is new and a name: never a method the vocabulary knows (nor its plural
or another form of it: "LoRAs" is LoRA), never an existing method the paper only defines ("Test-Time
Adaptation (TTA)"), a dimension ("3D") or a fragment ("3D-RoPE-based"), and its label is as written
without markup ("M$^2$D-LIF" is "M2D-LIF").  Its key (:func:`.forms.concept_key`) carries the long
form the paper gives it, or the paper's tag for a name that does not say alone which method it is.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections.abc import Iterator
from dataclasses import dataclass, replace

from .forms import (
    PAREN,
    WORD,
    Abbreviation,
    bare_key,
    concept_key,
    find_abbreviations,
    folded,
    mask,
    norm_label,
    written_name,
)
from .found import Matcher, MethodMatch
from .linking import broader_of, related_to
from .parts import PART_HEADS as _PART_HEADS
from .parts import components, named_parts, our_method_names, passive_names, title_name
from .resources import resource_after, resource_before, resource_named, title_resource
from .shapes import (
    FRAGMENT,
    MAX_SENTENCE,
    NOT_NAMES,
    STRIP,
    Name,
    clean,
    dimension,
    looks_like_name,
    names_a_task,
    sentences,
    title_case,
    title_word,
)


@dataclass(frozen=True, slots=True)
class IntroducedMethod:
    """A method (or resource) the text introduces; ``key`` is its concept key (:func:`.forms.concept_key`)."""

    key: str
    text: str
    start: int
    full: str = ""
    short: str = ""
    related: tuple[str, ...] = ()
    broader: str = ""
    resource_type: str = ""
    """``benchmark``, ``dataset`` or ``library`` when the text introduces a resource, else empty."""

    def detail(self) -> tuple[tuple[str, str], ...]:
        """The mention ``detail`` pairs, sorted."""
        pairs = [("full", self.full), ("short", self.short), ("related", ";".join(self.related))]
        if self.broader:
            pairs.append(("broader", self.broader))
        if self.resource_type:
            pairs.append(("type", self.resource_type))
        return tuple(sorted(pairs))


def find_introduced(matcher: Matcher, text: str, paper: str = "") -> list[IntroducedMethod]:
    """Methods (and benchmarks, datasets, libraries) that ``text`` introduces, in text order."""
    masked = mask(text)
    doc = matcher.nlp.make_doc(masked)
    abbreviations = find_abbreviations(masked)
    matches = matcher.search(text, doc, masked, abbreviations)
    return introduced_in(matcher, text, masked, abbreviations, matches, paper=paper)


def introduced_in(
    matcher: Matcher,
    text: str,
    masked: str,
    abbreviations: list[Abbreviation],
    matches: list[MethodMatch],
    title_named: bool = False,
    is_title: bool = False,
    paper: str = "",
) -> list[IntroducedMethod]:
    """Methods (and resources) ``text`` introduces; ``title_named``: the paper's title gives a name
    ("Name: ..."), ``is_title``: ``text`` is that title; ``paper``: the paper's tag
    (:func:`.forms.paper_tag`) in the keys of names that do not say alone which method they are."""
    found: dict[str, IntroducedMethod] = {}  # by the name's key: one concept per name in a paper
    low = folded(masked)
    # Only a cue word (``_CUE``, give or take punctuation) can start a name, and they are found in
    # the whole text at once: words end at spaces and parentheses, and sentences before a space or
    # after a line break, so each lies within one sentence.  Sentences cut at MAX_SENTENCE may cut
    # a word in two: then each piece is searched for ``_CUE_SEARCH`` and all its words are tried.
    cues = _cue_words(low)
    named_by_title = title_name(masked) if is_title else None
    if (
        not cues
        and len(masked) < MAX_SENTENCE
        and not abbreviations
        and "our " not in low
        and not named_by_title
        and not _MAY_NAME.search(masked)
    ):
        return []
    spans = list(sentences(masked))
    cut = any(end - start >= MAX_SENTENCE for start, end in spans)
    if not cut:  # only the sentences with a cue word
        sentence_starts = [start for start, _end in spans]
        spans = [spans[k] for k in sorted({bisect_right(sentence_starts, p) - 1 for p in cues})]
    starts = [m.start for m in matches]
    for sent_start, sent_end in spans:
        sentence = masked[sent_start:sent_end]
        here = cues[bisect_left(cues, sent_start) : bisect_left(cues, sent_end)]
        if not (here or (cut and _CUE_SEARCH_FOLDED.search(low, sent_start, sent_end))):
            continue
        words = [(m.start() + sent_start, m.end() + sent_start) for m in WORD.finditer(sentence)]
        candidates = None
        if not cut:
            word_starts = [w[0] for w in words]
            candidates = sorted({bisect_right(word_starts, p) - 1 for p in here})
        local = {a.long_start: a for a in abbreviations if sent_start <= a.long_start < sent_end}
        in_sentence = matches[bisect_left(starts, sent_start) : bisect_left(starts, sent_end)]
        for name in _names_in_sentence(masked, words, local, candidates):
            _keep(found, _describe(matcher, text, masked, name, (sent_start, sent_end), in_sentence, paper))
    extra = [named_by_title] if named_by_title else []
    extra += our_method_names(masked)
    extra += passive_names(masked)
    introduces = bool(found or extra or title_named)
    extra += named_parts(masked, abbreviations, matcher.label_to_slug, introduces)
    if introduces:
        extra += components(masked)
    all_sentences = list(sentences(masked)) if extra else []
    for name in extra:
        bounds = next(((s, e) for s, e in all_sentences if s <= name.start < e), (0, len(masked)))
        in_bounds = [m for m in matches if bounds[0] <= m.start < bounds[1]]
        method = _describe(matcher, text, masked, name, bounds, in_bounds, paper)
        if method is not None and name is named_by_title:
            method = replace(method, resource_type=title_resource(masked) or method.resource_type)
        _keep(found, method)
    return sorted(found.values(), key=lambda m: (m.start, m.key))


# a name said in the passive ("FooNet is proposed") needs no cue word before it
_MAY_NAME = re.compile(r"\b(?:is|are) (?:\w+ )?(?:proposed|introduced|designed|developed|presented)\b")


def _keep(found: dict[str, IntroducedMethod], method: IntroducedMethod | None) -> None:
    """Keep a paper's first description of a name, or a later one that gives its long form."""
    if method is None:
        return
    name = bare_key(method.key)
    seen = found.get(name)
    if seen is None or ("--" not in seen.key and method.full and method.short and not seen.full):
        found[name] = method if seen is None else replace(method, start=min(seen.start, method.start))


_SIZE_TAIL = re.compile(r"(?:[-_](?:\d+x)?\d+(?:\.\d+)?[BM](?:-A\d+(?:\.\d+)?[BM])?)+$")
_DEFINED_AFTER = re.compile(r"^[\s)]*,\s*(?:a|an|the|which)\b")
_GENERIC_NEXT = re.compile(
    r"^[\s-]*(?:approach|approaches|method|methods|framework|frameworks|model|models|system|systems|pipeline"
    r"|technique|strategy|algorithm|scheme|paradigm|task|tasks)\b"
)


def known_form(matcher: Matcher, form: str, versions: bool = False) -> str:
    """The known method a whole name is (a label, hidden or not, a plural or other form the matcher
    finds: "LoRAs", "ViTs", "Gaussian Splatting"), or ""; with ``versions``, also the family of a
    versioned name ("ResNet-34")."""
    key = norm_label(form)
    slug = matcher.label_to_slug.get(key) or matcher.label_to_slug.get(key.rstrip("s"))
    if slug:
        return slug
    for m in matcher.find_cached(form):
        if (versions or not m.name) and m.start == 0 and m.end == len(form):
            return m.slug
    return ""


def may_be_new(
    matcher: Matcher, short: str, full: str, method: bool = True, direct: bool = True
) -> bool:
    """Whether a candidate name may be new: not a known method ("LoRAs", "Monte Carlo Dropout", a
    defined "Test-Time Adaptation (TTA)"), not a dimension ("3D"), not a fragment ("3D-RoPE-based")
    and not two names glued ("X and Y").  A short form the vocabulary knows that the paper defines
    as something else is new ("Spatial Attention Module (SAM)").  A version of a known model family
    ("Qwen2.5-Omni") is new only as what the paper says it proposes (``direct``), not as a part ("a
    lightweight ResNet-34 network")."""
    shown = short or full
    if dimension(shown) or FRAGMENT.search(shown) or "/" in shown or "://" in shown:
        return False  # a dimension, a fragment, or a link ("https://github.com/...") rather than a name
    if not short and " and " in full:
        return False
    if not method:
        return True
    if short and full and norm_label(full) != norm_label(short):
        if known_form(matcher, full):
            return False
        # "Generalized Reinforcement Policy Optimization (GRPO)": a known acronym spelt out loosely
        slug = known_form(matcher, short)
        return not (slug and not matcher.is_hidden(short, slug) and matcher.names_kin(full, slug))
    return not known_form(matcher, shown, versions=not direct)


def _describe(
    matcher: Matcher,
    text: str,
    masked: str,
    name: Name,
    sentence: tuple[int, int],
    matches: list[MethodMatch],
    paper: str = "",
) -> IntroducedMethod | None:
    short = " ".join(name.short.split())
    full = " ".join(name.full.split())
    shown = short or full
    if not shown or len(shown) > 80:
        return None
    start, _end, label = written_name(text, masked, name.start, name.start + len(shown))
    if not label:
        return None  # a formula, not a name
    sized = _SIZE_TAIL.sub("", label)  # "Qwen-AgentWorld-35B-A3B": the model, not one of its sizes
    if sized and sized != label and " " not in label and not resource_after(label, ""):
        label = sized
    if label != shown:  # markup glued to the name ("M$^2$D-LIF"): its label as written, without it
        short, full = (label, label if full == short else full) if short else ("", label)
        shown = label
    sent_start, sent_end = sentence
    tail = masked[name.end : min(sent_end, name.end + 120)].lower()
    lead = masked[max(sent_start, name.start - 80) : name.start].lower()
    resource = resource_named(full) or resource_after(shown, tail) or resource_before(lead)
    # a benchmark named like a known method ("NICE") is still new; a method is not
    if not may_be_new(matcher, short, full, method=not resource, direct=name.direct):
        return None
    # "Entity Recognition" is a task; "we propose Self-Audited Verified Reasoning (SAVeR), a novel
    # framework" names a method all the same
    defined = name.direct and short and (_DEFINED_AFTER.match(tail) or title_case(full))
    if not resource and not defined and names_a_task(full or shown):
        return None
    if resource and short and full and names_a_task(full) and not resource_named(full):
        return None  # "two question-answering (QA) datasets": QA is the task, not the datasets' name
    related = related_to(matcher, (short, full), sentence, matches)
    broader = broader_of(matcher, masked, full, name.end, sentence, matches)
    if broader:
        related.add(broader)
    if " " not in shown and shown.isupper() and _GENERIC_NEXT.match(tail):
        return None  # "a new NER approach": the kind of approach, not its name
    if not short and " " not in full:
        short, full = full, ""  # one word (STEPQuant) is a short name
    long = full if short and full != short else ""
    return IntroducedMethod(
        key=concept_key(short or full, long, paper),
        text=shown,
        start=start,
        full=full,
        short=short,
        related=tuple(sorted(related)),
        broader=broader,
        resource_type=resource,
    )


_CUE = re.compile(
    r"^(?:propos(?:e|es|ing)|introduc(?:e|es|ing)|present(?:s|ing)?|develop(?:s|ing)?|design(?:s|ing)?"
    r"|release|releases|call|calls|called|named|dubbed|termed|coined|name|term|dub|namely"
    r"|construct(?:s|ing)?|collect(?:s|ing)?|curate(?:s)?|build(?:s)?|establish(?:es)?|contribute(?:s)?"
    r"|create(?:s)?|instantiate(?:s)?)$",
    re.IGNORECASE,
)
_CUE_SEARCH = re.compile(
    r"propos|introduc|present|develop|design|release|call|name|dub|term|coin|construct|collect|curate|build"
    r"|establish|contribut|create|instantiat",
    re.IGNORECASE,
)
_NAMING = re.compile(r"^(?:call|calls|called|named|dubbed|termed|coined|name|dub|namely)$", re.IGNORECASE)
# the same, case-sensitive, for folded text (see ``folded``)
_CUE_SEARCH_FOLDED = re.compile(_CUE_SEARCH.pattern)
_CUE_FOLDED = re.compile(_CUE.pattern)
_NAMING_FOLDED = re.compile(_NAMING.pattern)
# the proposer must be the paper itself ("we", "this paper"), not earlier work
_OWN = {"we", "paper", "work", "report", "article", "study", "here", "our", "herein", "letter", "thesis"}
_OWN_WORDS = {"we", "here", "our", "herein"}
"""... of which these are the paper's own by themselves; the nouns only after ``_THIS``."""
_THIS = {"this", "our", "present"}
_OTHERS = {
    "existing",
    "prior",
    "previous",
    "recent",
    "recently",
    "earlier",
    "other",
    "related",
    "they",
    "authors",
}
_PRESENT_FOLDED = re.compile(r"^(?:proposes|introduces|presents)$")
# "a reinforcement learning (RL) primitive, the Dataset Policy Gradient (DPG)": the name in apposition
_APPOSITIVE = re.compile(
    r"[\s)]*(?:[a-z][\w-]*\s+){0,6}[a-z][\w-]*\s*[,:]\s*(?:the|a|an|our|namely|called|named)?\s*"
)
# what may stand between two coordinated definitions: "... (SLAC) and Two-stage ..."
_COORDINATED = re.compile(
    r"[\s),]*(?:,|\band|\bor|\bas well as|\balong with|\btogether with|\bplus)\s*(?:the\s+|a\s+|an\s+)?"
)
_USE_OF = {
    "application", "use", "usage", "adaptation", "extension", "implementation", "combination", "analysis",
    "study", "evaluation", "comparison", "investigation", "integration", "variant", "version", "generalization",
}  # fmt: skip
# words that may follow a name the sentence gives ("FooNet is ...", "FooNet achieves ...")
_AFTER_NAME = {
    "is", "are", "and", "or", "based", "which", "that", "achieves", "outperforms", "consists", "leverages",
    "enables", "uses", "combines", "learns", "can", "improves", "extends", "integrates", "employs", "builds",
    "allows", "reduces", "yields", "provides", "introduces", "incorporates", "addresses", "comprises",
    # "the Test-Time-Resolution-Scaling scheme", "the FooNet framework": the name, then what it is
    "scheme", "framework", "method", "model", "module", "approach", "algorithm", "strategy", "mechanism",
    "system", "architecture", "pipeline", "network", "loss", "technique", "paradigm", "benchmark", "dataset",
    "agent", "policy", "protocol", "toolkit", "library", "suite", "corpus", "family", "series", "engine",
}  # fmt: skip
# what a sentence proposes is a task or a problem, not a method: its name is not introduced
_TASK_NOUN = re.compile(
    r"\b(?:new|novel)\s+(?:[\w-]+\s+)?(?:task|problem|phenomenon|challenge|setting|scenario)s?\b"
)
_GERUND_AFTER = {"by", "via", "through", "while", "and", "thereby", "then", "first", "further", "also"}
_CLAUSE_VERBS = {
    "combining", "using", "leveraging", "integrating", "incorporating", "utilizing", "via", "based", "built",
    "including", "involving", "adopting", "employing", "extending", "unifying", "coupling", "powered",
}  # fmt: skip
_LF_STOP = {"to", "that", "which", "for", "by", "with", "using", "where", "whose", "on", "in", "from", "as"}
_SKIP = {
    "a", "an", "the", "our", "novel", "new", "simple", "here", "herein", "what", "we", "it",
    "this", "that", "as", "method", "approach", "framework", "model", "algorithm", "technique",
}  # fmt: skip


def _own_word(words: list[str], k: int) -> bool:
    """Whether word ``k`` names the paper itself: "we", "our", or a noun after "this"/"our"/"present"."""
    return words[k] in _OWN_WORDS or (words[k] in _OWN and k > 0 and words[k - 1] in _THIS)


def _cue_words(low: str) -> list[int]:
    """Where the words that ``_CUE`` matches (punctuation aside) start, given the folded text.

    Each starts with a ``_CUE_SEARCH`` stem, and the search finds it: stems are letters and do not
    reach across words.
    """
    found = []
    for m in _CUE_SEARCH_FOLDED.finditer(low):
        i = m.start()
        if i and low[i - 1].isalnum():
            continue  # inside a word ("typically"): the common case, decided at once
        if _word_starts_at(low, i):
            end = WORD.match(low, i)
            if end is not None and _CUE_FOLDED.match(low[i : end.end()].rstrip(STRIP)):
                found.append(i)
    return found


def _word_starts_at(text: str, i: int) -> bool:
    """Whether only ``STRIP`` characters come before ``i`` in its word (``WORD``)."""
    while i > 0 and text[i - 1] in STRIP:
        i -= 1
    return i == 0 or text[i - 1].isspace() or text[i - 1] in "()"


def _past_generic_phrase(texts: list[str], j: int, opens: frozenset[int] = frozenset()) -> int:
    """Where a name starts after a generic noun phrase: "a new evaluation benchmark, FavaBench,",
    "simple approaches, Single-stage ... (SLAC)", "a synthetic dataset FreeGraspData"; else ``j``.

    >>> _past_generic_phrase("a new evaluation benchmark, FavaBench, that".split(), 2)
    4
    >>> _past_generic_phrase("a synthetic dataset FreeGraspData by".split(), 1)
    3
    >>> _past_generic_phrase("Retain-Resample-Release sampling (R3)".split(), 0)
    0
    >>> _past_generic_phrase("a generalizable VR sketch encoder".split(), 1)
    1
    """
    for k in range(j, min(len(texts), j + 5)):
        word = clean(texts[k])
        appositive = k > j and texts[k - 1].endswith(",") and title_word(texts[k])
        coined = looks_like_name(texts[k]) and not clean(texts[k]).isupper()  # not "a ... GLM", "a VR sketch"
        if appositive or (k > j and coined and _name_ends(texts, k, opens)):
            return k
        noun_like = word.replace("-", "").isalpha() and word.islower() and word not in _LF_STOP
        if not noun_like or word in NOT_NAMES or word in _CLAUSE_VERBS or texts[k].endswith((";", ":", ".")):
            return j  # "a two-stage pipeline combining YOLOv11 and ...": what it combines is no name
    return j


def _name_ends(texts: list[str], k: int, opens: frozenset[int] = frozenset()) -> bool:
    """Whether a name at word ``k`` ends there ("FreeGraspData by", "FavaBench, that", "XpandA
    (Expand-Agent)"), rather than modifying a noun after it ("VR sketch encoder", "LF video");
    ``opens``: the words a parenthesis opens before."""
    if texts[k].endswith((",", ";", ":", ".", ")")) or k + 1 >= len(texts) or k + 1 in opens:
        return True
    after = texts[k + 1]
    return after.startswith("(") or clean(after).lower() in _LF_STOP | {"is", "are", "and", "which", "that"}


def _names_in_sentence(
    masked: str,
    words: list[tuple[int, int]],
    by_long_start: dict[int, Abbreviation],
    candidates: list[int] | None = None,
) -> Iterator[Name]:
    """Names introduced in a sentence; ``candidates``: the only words that may be cue words."""
    texts = [masked[s:e] for s, e in words]
    n = len(words)
    opens = frozenset(k for k in range(1, n) if "(" in masked[words[k - 1][1] : words[k][0]])
    for i in range(n) if candidates is None else candidates:
        w = texts[i]
        bare = clean(w)
        word = folded(bare)
        if not _CUE_FOLDED.match(word):
            continue
        naming = bool(_NAMING_FOLDED.match(word)) and bare.lower() != "namely"
        if word.endswith("ing") and i > 0 and clean(texts[i - 1]).lower() not in _GERUND_AFTER:
            continue  # "a novel approach for constructing MMKGs": what it builds, not its name
        before = [clean(t).lower() for t in texts[:i]]
        # "we", "this work", "in this paper"; not "existing work"
        last_own = max((k for k in range(len(before)) if _own_word(before, k)), default=-1)
        last_others = max((k for k, t in enumerate(before) if t in _OTHERS), default=-1)
        # "we propose", "this paper presents" (also "Building on recent work, we propose"); and "Stage
        # III introduces", "the module proposes": a part of the paper's method, in the present tense;
        # not when earlier work is the subject ("Existing work ... proposes")
        own = last_own > last_others
        part = last_own < 0 and last_others < 0 and i > 0 and bool(_PRESENT_FOLDED.match(word))
        if not naming and not (own or part):
            continue
        # what is proposed (after the verb) or named (before "termed") is a task: "we propose a novel task
        # of predicting ... (OOD)", "a new learning task for MLLMs, termed GCoT"
        if _TASK_NOUN.search(" ".join(texts[max(0, i - 8) : i] if naming else texts[i + 1 : i + 5])):
            continue
        j = i + 1
        while j < n and clean(texts[j]).lower() in _SKIP and not texts[j - 1].endswith((",", ";", ":", ".")):
            j += 1
        if j + 1 < n and clean(texts[j]).lower() in _USE_OF and clean(texts[j + 1]).lower() == "of":
            continue  # "a novel application of the Neural Gas Network (NGN)": what it applies exists
        if j >= n or w.endswith((".", ";")):
            continue
        j = _past_generic_phrase(texts, j, opens)
        # (1) "Long Form (SF)" starting within a few words: SF is the name
        ab = None
        # ... also from a word skipped as generic ("a model partition and sharing (MoPS) framework")
        first_word = min(j, max(i + 1, next((k for k in range(i + 1, j) if words[k][0] in by_long_start), j)))
        for k in range(first_word, min(n, j + 10)):
            stop = clean(texts[k - 1]) in _LF_STOP  # "AirSim For Surface Vehicles (ASVSim)" goes on
            if k > first_word and (texts[k - 1].endswith((",", ";", ":", ".")) or stop):
                break
            ab = by_long_start.get(words[k][0])
            if ab is None:
                # the long form may start inside this word ("Physics-informed ROM (Φ-ROM)")
                hits = [a for a in by_long_start.values() if words[k][0] <= a.long_start < words[k][1]]
                ab = hits[0] if hits else None
            if ab is not None and part and not title_case(ab.long):
                ab = None  # "Logic-RAG introduces a dynamic knowledge base (KB)": a part, not a name
                break
            if ab is not None and (k <= j + 2 or looks_like_name(ab.short)):
                yield Name(ab.start, ab.start + len(ab.short), ab.short, ab.long, k <= j + 2)
                # "approaches, Single-stage ... CLIP (SLAC) and Two-stage ... CLIP (TLAC)": a later
                # definition joined to the last by "and" (not "for Source-Free Domain Adaptation (SFDA)")
                prev = ab
                for later in sorted(by_long_start.values(), key=lambda a: a.start):
                    gap = masked[prev.start + len(prev.short) : later.long_start]
                    joined = _COORDINATED.fullmatch(gap) or _APPOSITIVE.fullmatch(gap)
                    if later.start > prev.start and title_case(later.long) and joined:
                        yield Name(later.start, later.start + len(later.short), later.short, later.long)
                        prev = later
                break
            ab = None
            # "Retain-Resample-Release sampling (R3)": a name-like word in parentheses
            close = masked.find(")", words[k][1], words[k][1] + 3)
            opening = masked[: words[k][0]].rstrip()  # "(\textbf{UI-KOBE})": markup blanked in between
            if k > j and opening.endswith("(") and close >= 0 and looks_like_name(texts[k]):
                full = masked[words[j][0] : len(opening) - 1].strip().strip(STRIP)
                # "a model-free motion imitation framework (KINESIS)"; not "decodes box ([BOX])"
                named = title_case(full) or full.lower().rsplit(None, 1)[-1].rstrip("s") in _PART_HEADS
                if full and "," not in full and named:
                    lead = len(texts[k]) - len(texts[k].lstrip(STRIP))
                    short = clean(texts[k])
                    yield Name(words[k][0] + lead, words[k][0] + lead + len(short), short, full)
                    ab = Abbreviation(short, full, words[k][0] + lead, words[j][0])
                    break
        if ab is not None:
            continue
        # (2) "SF (Long Form)" or a run of name-like words after the verb
        run: list[int] = []
        for k in range(j, min(n, j + 7)):
            t = texts[k]
            if run and "(" in masked[words[k - 1][1] : words[k][0]]:
                break  # "HyperP (Hypersphere Parameterization)": the name ends at the parenthesis
            # "Mixture of Experts Routing", "FooNet and BarBench"; not "SFNet for Source-Free Adaptation"
            joins = clean(t).lower() == "and" or (
                clean(t).lower() in {"of", "for"} and not any(looks_like_name(texts[r]) for r in run)
            )
            if looks_like_name(t) or title_word(t) or (run and joins):
                run.append(k)
                if t.endswith((",", ";", ":", ".")) or clean(t) != t.rstrip(STRIP):
                    break
            else:
                break
        while run and clean(texts[run[-1]]).lower() in {"of", "and", "for"}:
            run.pop()
        if not run:
            continue
        first, last = run[0], run[-1]
        start = words[first][0] + (len(texts[first]) - len(texts[first].lstrip(STRIP)))
        raw = masked[start : words[last][1]]
        name = raw.rstrip(STRIP)
        any_namey = any(looks_like_name(texts[k]) for k in run)
        after = texts[last + 1] if last + 1 < n else ""
        appositive = raw.endswith((",", ":")) or texts[last].endswith(("\u201d", '"'))
        paren = masked[words[last][1] : words[last][1] + 2].lstrip().startswith("(") or after.startswith("(")
        if not (any_namey or naming or appositive or paren):
            continue
        if not any_namey and len(run) == 1 and not (naming or appositive):
            continue
        if not any_namey and not naming and not appositive and clean(after).lower() not in {"which", "that"}:
            continue
        bare_after = clean(after)
        modifier = bare_after.isalpha() and bare_after.islower() and bare_after not in _LF_STOP | _AFTER_NAME
        if modifier and not (naming or appositive or paren):
            continue  # "a Theory-of-Mind uncertainty estimation mechanism": a modifier, not a name
        full = ""
        if paren and len(run) == 1:
            m = PAREN.match(masked, masked.index("(", words[last][1] - 1))
            if m and len(m.group(1).split()) >= 2 and m.group(1).strip()[0].isupper():
                full = " ".join(m.group(1).split())
        glued = [k for k in run if clean(texts[k]).lower() == "and"]
        if not full and len(glued) == 1 and _name_ends(texts, last, opens):
            # "we introduce FooNet and BarBench": two names
            yield from _two_names(masked, words, texts, run, glued[0], first == j)
            continue
        yield Name(start, start + len(name), name if full else "", full or name, first == j)
        # "we introduce FooNet, a model for X, and BarBench, a benchmark for Y": the second name
        yield from _second_names(masked, words, texts, last + 1)


def _two_names(
    masked: str, words: list[tuple[int, int]], texts: list[str], run: list[int], glue: int, direct: bool
) -> Iterator[Name]:
    """The two names of a run "FooNet and BarBench", each with a name-like word."""
    for part in (run[: run.index(glue)], run[run.index(glue) + 1 :]):
        if not part or not any(looks_like_name(texts[k]) for k in part):
            continue
        start = words[part[0]][0] + (len(texts[part[0]]) - len(texts[part[0]].lstrip(STRIP)))
        name = masked[start : words[part[-1]][1]].rstrip(STRIP)
        yield Name(start, start + len(name), name, name, direct)


_AND_NEXT = re.compile(r"^(?:and|as well as|along with|together with|plus)$")


def _second_names(masked: str, words: list[tuple[int, int]], texts: list[str], k: int) -> Iterator[Name]:
    """A second name in the proposing sentence after ", and" ("..., and BarBench, a benchmark"): a
    name-like word right after the conjunction (or after a generic noun phrase) that the text goes on
    to define (", a ...", "(...)", "which ..."), not the last item of a list ("based on BERT,
    ClinicalBERT, and ModernBERT, fine-tuned ...")."""
    n = len(texts)
    while k < n:
        if _AND_NEXT.match(clean(texts[k]).lower()) and texts[k - 1].endswith(","):
            j = k + 1
            while j < n and clean(texts[j]).lower() in _SKIP:
                j += 1
            j = _past_generic_phrase(texts, j) if j < n else j
            defined = j + 1 < n and (
                (texts[j].endswith(",") and clean(texts[j + 1]).lower() in ("a", "an", "the"))
                or texts[j + 1].startswith("(")
                or clean(texts[j + 1]).lower() in ("which", "that", "to")
            )
            if j < n and looks_like_name(texts[j]) and defined:
                start = words[j][0] + (len(texts[j]) - len(texts[j].lstrip(STRIP)))
                name = clean(texts[j])
                yield Name(start, start + len(name), name, name)
                return
        k += 1
