"""Introduced names: the methods, datasets and benchmarks a paper says it proposes."""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections.abc import Iterator
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import TYPE_CHECKING

from .forms import (
    PAREN,
    TITLE_NAME,
    WORD,
    Abbreviation,
    find_abbreviations,
    folded,
    mask,
    name_key,
    norm_label,
)
from .linking import broader_of, related_to
from .resources import resource_after, resource_before, resource_named, title_resource

if TYPE_CHECKING:
    from .matching import MethodMatch, MethodMatcher


@dataclass(frozen=True, slots=True)
class IntroducedMethod:
    """A method (or resource) the text introduces; ``key`` is the slug of its name."""

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


def find_introduced(matcher: MethodMatcher, text: str) -> list[IntroducedMethod]:
    """Methods (and benchmarks, datasets, libraries) that ``text`` introduces, in text order."""
    masked = mask(text)
    doc = matcher.nlp.make_doc(masked)
    abbreviations = find_abbreviations(masked)
    matches = matcher.search(text, doc, masked, abbreviations)
    return introduced_in(matcher, text, masked, abbreviations, matches)


def introduced_in(
    matcher: MethodMatcher,
    text: str,
    masked: str,
    abbreviations: list[Abbreviation],
    matches: list[MethodMatch],
    title_named: bool = False,
    is_title: bool = False,
) -> list[IntroducedMethod]:
    """Methods (and resources) ``text`` introduces; ``title_named``: the paper's title gives a name
    ("Name: ..."), ``is_title``: ``text`` is that title."""
    found: dict[str, IntroducedMethod] = {}
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
    ):
        return []
    sentences = list(_sentences(masked))
    cut = any(end - start >= MAX_SENTENCE for start, end in sentences)
    if not cut:  # only the sentences with a cue word
        sentence_starts = [start for start, _end in sentences]
        sentences = [sentences[k] for k in sorted({bisect_right(sentence_starts, p) - 1 for p in cues})]
    starts = [m.start for m in matches]
    for sent_start, sent_end in sentences:
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
            method = _describe(matcher, text, masked, name, (sent_start, sent_end), in_sentence)
            if method is not None and method.key not in found:
                found[method.key] = method
    extra = [named_by_title] if named_by_title else []
    extra += our_method_names(masked)
    extra += named_parts(masked, abbreviations, matcher.label_to_slug, bool(found or extra or title_named))
    all_sentences = list(_sentences(masked)) if extra else []
    for name in extra:
        bounds = next(((s, e) for s, e in all_sentences if s <= name.start < e), (0, len(masked)))
        in_bounds = [m for m in matches if bounds[0] <= m.start < bounds[1]]
        method = _describe(matcher, text, masked, name, bounds, in_bounds)
        if method is not None and name is named_by_title:
            method = replace(method, resource_type=title_resource(masked) or method.resource_type)
        if method is not None and method.key not in found:
            found[method.key] = method
    return sorted(found.values(), key=lambda m: (m.start, m.key))


_GENERIC_NEXT = re.compile(
    r"^[\s-]*(?:approach|approaches|method|methods|framework|frameworks|model|models|system|systems|pipeline"
    r"|technique|strategy|algorithm|scheme|paradigm|task|tasks)\b"
)
# "3D-RoPE-based", "LLM-driven": a modifier made from a name, not a name
_FRAGMENT = re.compile(
    r"-(?:based|like|style|driven|guided|aware|free|enhanced|augmented|powered|assisted|specific|level|wise)$",
    re.IGNORECASE,
)


def _could_be_new(known: dict[str, str], short: str, full: str) -> bool:
    """Whether a candidate name may be new: not a known method ("LLM-as-judge", "Monte Carlo
    Dropout"), not a fragment ("3D-RoPE-based") and not two names glued ("X and Y").

    >>> known = {"monte carlo dropout": "monte-carlo-dropout"}
    >>> [_could_be_new(known, s, f) for s, f in [("", "Monte Carlo Dropout"), ("3D-RoPE-based", ""),
    ...     ("", "FooNet and BarNet"), ("FooNet", "")]]
    [False, False, False, True]
    """
    for form in (short, full):
        if form and any(k in known for k in (norm_label(form), norm_label(form).rstrip("s"))):
            return False
    shown = short or full
    if _FRAGMENT.search(shown) or "/" in shown or "://" in shown:
        return False  # a fragment, or a link ("https://github.com/...") rather than a name
    return short != "" or " and " not in full


def _names_a_task(name: str) -> bool:
    """Whether a name (or its long form) names a task or field ("Entity Recognition", "NER" for
    "named entity recognition") rather than a method.

    >>> _names_a_task("Entity Recognition"), _names_a_task("Perspective Fusion Module"), _names_a_task("Crab")
    (True, False, False)
    """
    words = norm_label(name).split()
    if len(words) < 2:
        return False
    last = words[-1].rsplit("-", 1)[-1]
    return last in _TASK_HEADS or last.rstrip("s") in _TASK_HEADS


def _describe(
    matcher: MethodMatcher,
    text: str,
    masked: str,
    name: _Name,
    sentence: tuple[int, int],
    matches: list[MethodMatch],
) -> IntroducedMethod | None:
    short = name.short.strip()
    full = name.full.strip()
    shown = short or full
    key = name_key(shown)
    if not key or len(shown) > 80:
        return None
    # a known method is introduced only as the object of "we propose" (its own paper), never as a
    # part, an appositive or a later definition ("... with LLM-as-judge", "Monte Carlo Dropout (MCD)")
    if not _could_be_new({} if name.direct else matcher.label_to_slug, short, full):
        return None
    sent_start, sent_end = sentence
    related = related_to(matcher, (short, full), sentence, matches)
    broader = broader_of(matcher, masked, full, name.end, sentence, matches)
    if broader:
        related.add(broader)
    tail = masked[name.end : min(sent_end, name.end + 120)].lower()
    lead = masked[max(sent_start, name.start - 80) : name.start].lower()
    resource = resource_named(full) or resource_after(shown, tail) or resource_before(lead)
    if not resource and _names_a_task(full or shown):
        return None
    if " " not in shown and shown.isupper() and _GENERIC_NEXT.match(tail):
        return None  # "a new NER approach": the kind of approach, not its name
    if not short and " " not in full:
        short, full = full, ""  # one word (STEPQuant) is a short name
    return IntroducedMethod(
        key=key,
        text=text[name.start : name.start + len(shown)] if masked[name.start :].startswith(shown) else shown,
        start=name.start,
        full=full,
        short=short,
        related=tuple(sorted(related)),
        broader=broader,
        resource_type=resource,
    )


@dataclass(frozen=True, slots=True)
class _Name:
    """A candidate new name: where it starts and ends in the text, short and full forms;
    ``direct`` when it is the object of a proposing verb ("we propose X") or a title's name."""

    start: int
    end: int
    short: str
    full: str
    direct: bool = False


# a sentence ends after a full stop before a capital, or at a blank line
_SENTENCE_STOP = re.compile(r"[.!?](?=\s+[A-Z\\(\[`\"'])")
_PARAGRAPH = re.compile(r"\n\s*\n")
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
_OTHERS = {"existing", "prior", "previous", "recent", "earlier", "other", "related", "they", "authors"}
_LF_STOP = {"to", "that", "which", "for", "by", "with", "using", "where", "whose", "on", "in", "from", "as"}
_SKIP = {
    "a", "an", "the", "our", "novel", "new", "simple", "here", "herein", "what", "we", "it",
    "this", "that", "as", "method", "approach", "framework", "model", "algorithm", "technique",
}  # fmt: skip
_NOT_NAMES = {
    "a", "an", "the", "this", "that", "these", "novel", "new", "we", "our", "it", "its", "in", "on", "and",
    "or", "to", "of", "for", "with", "by", "from", "here", "such", "both", "two", "three", "each", "first",
    "i", "ii", "iii", "iv", "ai", "llm", "llms", "gpu", "gpus", "api", "sota",
}  # fmt: skip
STRIP = ",.;:!?\"'`“”‘’{}[]*$~"


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


MAX_SENTENCE = 1500
"""Longer "sentences" (no full stop in sight) are looked at in pieces: bounded work per name."""


def _sentences(text: str) -> Iterator[tuple[int, int]]:
    start = 0
    # searched apart, each with a fast first character, rather than as one alternation (the
    # two cannot overlap: punctuation versus line breaks)
    ends = [m.end() for m in _SENTENCE_STOP.finditer(text)]
    if "\n" in text:
        ends = sorted([*ends, *(m.end() for m in _PARAGRAPH.finditer(text))])
    for end in [*ends, len(text)]:
        while end - start > MAX_SENTENCE:
            yield start, start + MAX_SENTENCE
            start += MAX_SENTENCE
        if end > start:
            yield start, end
        start = end


def clean(word: str) -> str:
    return word.strip(STRIP)


@lru_cache(maxsize=65536)
def _looks_like_name(word: str) -> bool:
    """CamelCase, capitals, digits or hyphenated capitals: STEPQuant, FK-PINNs, S7, TIDES, Li_2."""
    w = clean(word)
    if len(w) < 2 or len(w) > 40 or w.lower() in _NOT_NAMES or (not w[0].isalnum() and w[0] not in "Φ"):
        return False
    if not any(c.isalpha() for c in w):
        return False
    inner_caps = any(c.isupper() for c in w[1:])
    digit = any(c.isdigit() for c in w) and w[0].isalpha()
    return inner_caps or digit or ("_" in w and w[0].isupper())


def _past_generic_phrase(texts: list[str], j: int) -> int:
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
        appositive = k > j and texts[k - 1].endswith(",") and _title_word(texts[k])
        coined = (
            _looks_like_name(texts[k]) and not clean(texts[k]).isupper()
        )  # not "a ... GLM", "a VR sketch"
        if appositive or (k > j and coined and _name_ends(texts, k)):
            return k
        noun_like = word.replace("-", "").isalpha() and word.islower() and word not in _LF_STOP
        if not noun_like or word in _NOT_NAMES or texts[k].endswith((";", ":", ".")):
            return j
    return j


def _name_ends(texts: list[str], k: int) -> bool:
    """Whether a name at word ``k`` ends there ("FreeGraspData by", "FavaBench, that"), rather than
    modifying a noun after it ("VR sketch encoder", "LF video")."""
    if texts[k].endswith((",", ";", ":", ".", ")")) or k + 1 >= len(texts):
        return True
    after = texts[k + 1]
    return after.startswith("(") or clean(after).lower() in _LF_STOP | {"is", "are", "and", "which", "that"}


@lru_cache(maxsize=65536)
def _title_word(word: str) -> bool:
    w = clean(word)
    return len(w) >= 2 and w[0].isupper() and w.lower() not in _NOT_NAMES and any(c.isalpha() for c in w)


def _names_in_sentence(
    masked: str,
    words: list[tuple[int, int]],
    by_long_start: dict[int, Abbreviation],
    candidates: list[int] | None = None,
) -> Iterator[_Name]:
    """Names introduced in a sentence; ``candidates``: the only words that may be cue words."""
    texts = [masked[s:e] for s, e in words]
    n = len(words)
    for i in range(n) if candidates is None else candidates:
        w = texts[i]
        bare = clean(w)
        word = folded(bare)
        if not _CUE_FOLDED.match(word):
            continue
        naming = bool(_NAMING_FOLDED.match(word)) and bare.lower() != "namely"
        near = {clean(t).lower() for t in texts[max(0, i - 6) : i]} | {clean(t).lower() for t in texts[:3]}
        subject = {clean(t).lower() for t in texts[:i]}
        if not naming and (not subject & _OWN or near & _OTHERS):
            continue
        j = i + 1
        while j < n and clean(texts[j]).lower() in _SKIP and not texts[j - 1].endswith((",", ";", ":", ".")):
            j += 1
        if j >= n or w.endswith((".", ";")):
            continue
        j = _past_generic_phrase(texts, j)
        # (1) "Long Form (SF)" starting within a few words: SF is the name
        ab = None
        for k in range(j, min(n, j + 10)):
            if k > j and (
                texts[k - 1].endswith((",", ";", ":", ".")) or clean(texts[k - 1]).lower() in _LF_STOP
            ):
                break
            ab = by_long_start.get(words[k][0])
            if ab is None:
                # the long form may start inside this word ("Physics-informed ROM (Φ-ROM)")
                hits = [a for a in by_long_start.values() if words[k][0] <= a.long_start < words[k][1]]
                ab = hits[0] if hits else None
            if ab is not None and (k <= j + 2 or _looks_like_name(ab.short)):
                yield _Name(ab.start, ab.start + len(ab.short), ab.short, ab.long, k <= j + 2)
                # "approaches, Single-stage ... CLIP (SLAC) and Two-stage ... CLIP (TLAC)": every later
                # definition of a name in the proposing sentence is introduced too
                for later in sorted(by_long_start.values(), key=lambda a: a.start):
                    if later.start > ab.start and _title_case(later.long):
                        yield _Name(later.start, later.start + len(later.short), later.short, later.long)
                break
            ab = None
            # "Retain-Resample-Release sampling (R3)": a name-like word in parentheses
            close = masked.find(")", words[k][1], words[k][1] + 3)
            if (
                k > j
                and masked[words[k][0] - 1 : words[k][0]] == "("
                and close >= 0
                and _looks_like_name(texts[k])
            ):
                full = masked[words[j][0] : words[k][0] - 1].strip().strip(STRIP)
                if full and "," not in full:
                    yield _Name(words[k][0], words[k][1], clean(texts[k]), full)
                    ab = Abbreviation(clean(texts[k]), full, words[k][0], words[j][0])
                    break
        if ab is not None:
            continue
        # (2) "SF (Long Form)" or a run of name-like words after the verb
        run: list[int] = []
        for k in range(j, min(n, j + 7)):
            t = texts[k]
            if run and masked[words[k][0] - 1 : words[k][0]] == "(":
                break  # "HyperP (Hypersphere Parameterization)": the name ends at the parenthesis
            if _looks_like_name(t) or _title_word(t) or (run and clean(t).lower() in {"of", "and", "for"}):
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
        any_namey = any(_looks_like_name(texts[k]) for k in run)
        after = texts[last + 1] if last + 1 < n else ""
        appositive = raw.endswith((",", ":")) or texts[last].endswith(("\u201d", '"'))
        paren = masked[words[last][1] : words[last][1] + 2].lstrip().startswith("(") or after.startswith("(")
        if not (any_namey or naming or appositive or paren):
            continue
        if not any_namey and len(run) == 1 and not (naming or appositive):
            continue
        if not any_namey and not naming and not appositive and clean(after).lower() not in {"which", "that"}:
            continue
        full = ""
        if paren and len(run) == 1:
            m = PAREN.match(masked, masked.index("(", words[last][1] - 1))
            if m and len(m.group(1).split()) >= 2 and m.group(1)[0].isupper():
                full = m.group(1).strip()
        yield _Name(start, start + len(name), name if full else "", full or name, first == j)


_SMALL_WORDS = frozenset(
    {"of", "and", "for", "with", "the", "a", "an", "to", "in", "via", "on", "by", "from"}
)


def _title_case(phrase: str) -> bool:
    """Whether every word of a phrase (small words aside) starts with a capital or a digit.

    >>> _title_case("Entity-level Mask Refinement"), _title_case("multi-scale spiking fusion network")
    (True, False)
    """
    words = [w for w in re.split(r"\s+", phrase.strip()) if w]
    if len(words) < 2:
        return False
    return all(w[0].isupper() or w[0].isdigit() or w.lower() in _SMALL_WORDS for w in words)


# the long form of a named part of a method ends in a word like these, not in a task or a measure
_TASK_HEADS = frozenset(
    {
        "detection", "segmentation", "classification", "recognition", "localization", "localisation",
        "answering", "estimation", "tracking", "retrieval", "understanding", "prediction", "forecasting",
        "translation", "summarization", "captioning", "grounding", "reconstruction", "completion",
        "registration", "inpainting", "generation", "synthesis", "navigation", "manipulation", "reasoning",
        "task", "tasks", "problem", "benchmark", "dataset", "score", "metric", "rate", "ratio", "error",
        "accuracy", "index", "coefficient", "distance", "divergence", "precision", "recall", "imaging",
        "dynamics", "system", "systems", "process", "processing", "language", "intelligence", "vehicle",
        "vehicles", "data", "challenge", "analysis", "modeling", "modelling", "learning", "model", "models",
    }
)  # fmt: skip
# ... and a title-case long form names a part of the paper's method only when it ends in one of these
_PART_HEADS = frozenset(
    {
        "module", "block", "layer", "network", "net", "mechanism", "loss", "strategy", "gate", "head", "encoder",
        "decoder", "branch", "refinement", "fusion", "attention", "adapter", "generator", "discriminator",
        "aggregation", "aggregator", "alignment", "distillation", "sampling", "sampler", "regularization",
        "regularizer", "weighting", "embedding", "encoding", "tokenizer", "planner", "controller", "policy",
        "optimizer", "optimization", "scheduler", "router", "memory", "prompt", "prompting", "tuning",
        "transformer", "estimator", "predictor", "search", "filter", "pooling", "normalization", "augmentation",
        "masking", "selection", "correction", "matching", "attack", "defense", "algorithm", "method",
        "framework", "pipeline", "consistency", "constraint", "objective", "reward", "guidance", "decoding",
        "injection", "enhancement", "extractor", "projection", "interaction", "integration", "propagation",
        "editing", "unlearning", "compression", "quantization", "pruning", "merging", "routing", "caching",
        "training", "learning", "model", "agent", "solver", "scheme", "operator", "representation",
    }
)  # fmt: skip
# "X is proposed", "a ... network (MSF) is designed": the paper's own part, said in the passive
_PASSIVE = re.compile(
    r"^[^.;]{0,40}?\b(?:is|are)\s+(?:then\s+)?(?:proposed|introduced|designed|developed|presented)\b"
)
_OTHERS_NEAR = re.compile(
    r"\b(?:existing|prior|previous|previously|earlier|conventional|traditional|popular|standard)\b"
)


def named_parts(
    masked: str, abbreviations: list[Abbreviation], known: dict[str, str], title_named: bool
) -> Iterator[_Name]:
    """The named parts of the paper's own method: defined short forms whose long form is a
    title-case name ("Perspective Fusion Module (PFM)") or that the text says were designed here
    ("a multi-scale spiking fusion network (MSF) is designed").  ``title_named``: whether the paper
    introduces something at all (a proposing sentence or a title name); otherwise only the passive
    form counts."""
    for ab in abbreviations:
        long = ab.long.strip()
        words = norm_label(long).split()
        if not words or words[-1] in _TASK_HEADS or words[-1].rstrip("s") in _TASK_HEADS:
            continue
        if (
            norm_label(long) in known
            or norm_label(ab.short) in known
            or norm_label(ab.short).rstrip("s") in known
        ):
            continue
        before = masked[max(0, ab.long_start - 60) : ab.long_start].lower()
        if _OTHERS_NEAR.search(before):
            continue
        after = masked[ab.start + len(ab.short) : ab.start + len(ab.short) + 60]
        passive = _PASSIVE.match(after.lstrip(") ")) is not None
        part = words[-1] in _PART_HEADS or words[-1].rstrip("s") in _PART_HEADS
        if (passive or (title_named and _title_case(long) and part)) and words[-1] not in (
            "learning",
            "model",
        ):
            yield _Name(ab.start, ab.start + len(ab.short), ab.short, long)


_OUR_METHOD = re.compile(
    r"\b[Oo]ur\s+(?:proposed\s+|new\s+|final\s+)?(?:method|model|framework|approach|system|algorithm|pipeline"
    r"|architecture|agent|policy|technique|solution),\s+(?P<name>[^\s,(]+(?:\s[A-Z][^\s,(]*){0,3})\s*[,(]"
)


def our_method_names(masked: str) -> Iterator[_Name]:
    """Names given as "Our method, Odin, ..." or "Our framework, X (Long Form), ..."."""
    for m in _OUR_METHOD.finditer(masked):
        name = m.group("name").strip(STRIP)
        if name and (_looks_like_name(name) or name[0].isupper()) and name.lower() not in _NOT_NAMES:
            yield _Name(m.start("name"), m.start("name") + len(name), name, name)


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


def title_name(title: str) -> _Name | None:
    """The name a title "Name: ..." gives, when it looks like a name.

    >>> [n.short if n else None for n in map(title_name, ["Crab: A Unified Model", "Position: LLMs Lie",
    ...     "Stabilize to Act: Learning to Coordinate", "YOLO-SPCI: Enhancing Detection", "Why X: Y"])]
    ['Crab', None, None, 'YOLO-SPCI', None]
    """
    m = TITLE_NAME.match(title)
    if m is None:
        return None
    name = m.group("name").strip().strip(STRIP)
    words = name.split()
    if not words or len(words) > 4 or name.lower() in _NOT_TITLE_NAMES or _QUESTION_START.match(name):
        return None
    if len(words) > 1 and not any(_looks_like_name(w) for w in words):
        return None  # "Stabilize to Act", "Object Discovery": a phrase, not a name
    last = words[-1].lower().rsplit("-", 1)[-1]
    if len(words) > 1 and (last in _TASK_HEADS or last.rstrip("s") in _TASK_HEADS):
        return None  # "One-Shot Imitation Learning", "3D Human Interaction Generation": a field
    if not (name[0].isupper() or name[0].isdigit() or _looks_like_name(words[0])):
        return None
    start = m.start("name") + (len(m.group("name")) - len(m.group("name").lstrip()))
    return _Name(start, start + len(name), name, name, True)
