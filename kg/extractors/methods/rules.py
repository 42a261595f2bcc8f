"""Context rules: when an ambiguous word ("diffusion", a short all-capitals label) means a method."""

from __future__ import annotations

import re

from spacy.tokens import Doc

# Each token rule of ``MethodMatcher._add_rules`` contains one of these; the Matcher is the costly
# part of a search, so it runs only on texts that could match.
_RULE_TRIGGER = re.compile(r"diffusion|low[\s\-–]*rank|state[\s\-–]*space|augment", re.IGNORECASE)
# Case-insensitive searches cost several times more than case-sensitive ones in ``re``: the patterns
# searched often are searched, case-sensitively and in lower case, in the folded text (``folded``).
_RULE_TRIGGER_FOLDED = re.compile(_RULE_TRIGGER.pattern)
RULE_WORDS = frozenset(
    {"diffusion", "diffusions", "low", "low-rank", "state", "state-space", "augment", "augments", "augmented",
     "augmenting"}
)  # fmt: skip
"""The words one of which each token rule contains: the Matcher runs only around them."""
RULE_REACH = 4
"""Tokens a rule reaches on either side of its trigger word (the longest rule has five tokens)."""


def rule_triggered(low: str) -> bool:
    """Whether a token rule could match (``_RULE_TRIGGER``), given the folded text."""
    return (
        "diffusion" in low
        or "augment" in low
        or (("rank" in low or "space" in low) and _RULE_TRIGGER_FOLDED.search(low) is not None)
    )


DIFFUSION = "diffusion-model"
AUGMENTATION = "data-augmentation"
# "we augment the training data with ...", "augmented images": data augmentation in a verb or participle
AUGMENT_VERBS = ("augment", "augments", "augmented", "augmenting")
AUGMENTED_THINGS = (
    "data", "dataset", "datasets", "training", "images", "image", "samples", "sample", "examples", "views", "view",
    "inputs", "input", "sequences", "trajectories", "demonstrations", "point", "clouds", "audio", "text", "corpus",
)  # fmt: skip
LORA = "lora"
STATE_SPACE = "state-space-model"

DIFFUSION_BEFORE = {
    "denoising", "masked", "discrete", "latent", "uniform", "video", "image", "stable", "score-based",
    "guided", "conditional", "unconditional", "text-to-image", "text-to-video", "pretrained", "pre-trained",
    "generative", "cascaded", "consistency", "absorbing", "categorical", "multinomial", "ddpm",
}  # fmt: skip
DIFFUSION_AFTER = {
    "model", "models", "based", "policy", "policies", "language", "lm", "lms", "llm", "llms", "transformer",
    "transformers", "sampler", "samplers", "sampling", "prior", "priors", "generative", "generator",
    "generators", "denoiser", "denoisers", "backbone", "backbones", "u-net", "unet", "forcing", "planner",
    "planners", "distillation", "training", "decoder", "decoders", "pipeline", "pipelines",
}  # fmt: skip
_PROCESS_BEFORE = {
    "information", "heat", "anomalous", "thermal", "fickian", "brownian", "molecular", "particle", "reaction",
    "advection", "opinion", "innovation", "knowledge", "rumor", "rumour", "influence", "spin", "ion", "gas",
    "water", "chemical", "fractional", "nonlocal", "social", "epidemic", "cultural", "technology", "news",
    "lateral", "carrier", "charge", "spatial", "numerical", "isotropic", "anisotropic", "turbulent",
}  # fmt: skip
_PROCESS_AFTER = {
    "equation", "equations", "coefficient", "coefficients", "process", "processes", "mri", "tensor",
    "weighted", "imaging", "term", "terms", "kernel", "kernels", "map", "maps", "limit", "approximation",
    "constant", "constants", "rate", "rates", "length", "pde", "pdes", "barrier", "matrix", "operator",
    "advection", "tractography", "wavelets", "geometry", "distance", "like", "dynamics", "-like",
}  # fmt: skip
COORDINATED_HEADS = {"models", "model", "baselines", "baseline", "generators", "approaches", "methods"}
_SEQUENCE_CONTEXT = re.compile(
    r"state[\s\-–]*space|\bmamba|\bS[4-7]D?\b|\bH3\b|sequence|recurren|linear attention|long[\s-]range"
    r"|selective scan|time[\s-]series|language model|\bRNNs?\b|\bhippo\b",
    re.IGNORECASE,
)
_SEQUENCE_CONTEXT_FOLDED = re.compile(_SEQUENCE_CONTEXT.pattern.lower())


def talks_about_sequences(low: str) -> bool:
    """Whether the text talks about sequence modelling (``_SEQUENCE_CONTEXT``), given the folded text."""
    return _SEQUENCE_CONTEXT_FOLDED.search(low) is not None


def token_lower(doc: Doc, i: int) -> str:
    return doc[i].lower_ if 0 <= i < len(doc) else ""


def prev_word(doc: Doc, i: int) -> str:
    """The word before token ``i``, looking through a hyphen (``reaction-diffusion``)."""
    j = i - 1
    if token_lower(doc, j) in {"-", "–"}:
        j -= 1
    return token_lower(doc, j)


def next_word(doc: Doc, i: int) -> str:
    j = i
    if token_lower(doc, j) in {"-", "–"}:
        j += 1
    return token_lower(doc, j)


def diffusion_is_model(doc: Doc, start: int, end: int) -> bool:
    """Whether a diffusion-family match (tokens ``start:end``) means a generative diffusion model."""
    idx = [i for i in range(start, end) if doc[i].lower_ in {"diffusion", "diffusions"}]
    if not idx:
        return True
    first, last = idx[0], idx[-1]
    before = prev_word(doc, start) if first == start else doc[first - 1].lower_
    if before in _PROCESS_BEFORE:
        return False
    if before == "graph" and next_word(doc, last + 1) not in {"model", "models", "generative"}:
        return False
    return not (last == end - 1 and next_word(doc, end) in _PROCESS_AFTER)


TokenSpan = tuple[int, int, str]
"""A match as token offsets and concept slug: ``(start, end, slug)``."""


def longest(spans: list[TokenSpan]) -> list[TokenSpan]:
    """``spacy.util.filter_spans`` on ``(start, end, slug)``: the first longest span wins overlaps."""
    ordered = sorted(spans, key=lambda s: (s[1] - s[0], -s[0]), reverse=True)
    result = []
    seen: set[int] = set()
    for span in ordered:
        if span[0] not in seen and span[1] - 1 not in seen:
            result.append(span)
            seen.update(range(span[0], span[1]))
    return sorted(result, key=lambda s: s[0])


ATTENTION = "attention-mechanism"
# "has attracted significant attention", "pay attention to": the everyday sense of the word
ATTENTION_NOT_BEFORE = frozenset(
    {
        "attract", "attracted", "attracts", "attracting", "receive", "received", "receives", "receiving", "gain",
        "gained", "gains", "gaining", "draw", "draws", "drawn", "drew", "drawing", "pay", "pays", "paid",
        "paying", "deserve", "deserves", "significant", "increasing", "increased", "growing", "considerable",
        "much", "little", "more", "less", "special", "particular", "close", "careful", "widespread",
        "substantial", "renewed", "great", "greater", "wide", "broad", "scant", "limited", "insufficient",
        "public", "media", "research", "community", "human", "visual", "selective", "joint", "focused", "user",
    }
)  # fmt: skip
ATTENTION_NOT_AFTER = frozenset({"to", "from", "span", "spans", "deficit", "economy"})


def attention_is_mechanism(doc: Doc, start: int, end: int) -> bool:
    """Whether a bare "attention" (tokens ``start:end``) is the network mechanism, not the everyday word."""
    before = {token_lower(doc, start - 1), token_lower(doc, start - 2)}
    return not before & ATTENTION_NOT_BEFORE and next_word(doc, end) not in ATTENTION_NOT_AFTER


# words that put a bare hidden word in context: "distillation" beside a teacher or a student is
# knowledge distillation; "zero-shot" beside "few-shot" is the paradigm; "gates" beside gating or
# experts are learned gates (given the folded text)
CONTEXT_CUES: dict[str, re.Pattern[str]] = {
    "knowledge-distillation": re.compile(
        r"\bteachers?\b|\bstudents?\b|\bdistill(?:s|ed|ing)? (?:knowledge|the knowledge)"
    ),
    "zero-shot-learning": re.compile(r"\b(?:few|one|n|k|multi)[\s-]shot\b"),
    "gating-mechanism": re.compile(
        r"\bgat(?:ed|ing)\b|mixture[\s-]of[\s-]experts|\bexperts\b|\bglu\b|\blstm|\bgru"
    ),
}
"""Per concept: a pattern whose presence in the folded text lets its hidden labels count."""
