"""Open-vocabulary names: methods the text clearly names that no list holds.

Three shapes count, each linked to the known concepts it names:

* a versioned name of a model family (``kg:modelFamily``): "Qwen2.5-VL-7B", "YOLOv8", "GPT-4o-mini",
  "SAM 2" -- the family's name followed by version, size and variant parts (the size is dropped:
  "Llama-3.1-8B-Instruct" is "Llama-3.1");
* a short form the page defines with a method-like long form: "Dual-Direction Attention Mixed
  Feature Network (DDAMFN)";
* a coined name (inner capitals or digits: "SageAttention2", "FastV") where the text uses it as a
  method: before a method head word ("X model", "X backbone") or in a list of methods after "such as",
  "e.g.", "including", "compared with", "outperforms".

What is a dataset, benchmark or metric by its context ("on X", "X dataset") is left out, and so is
every name the paper itself introduces (see :mod:`.introduced`).

"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass

from .forms import Abbreviation, concept_key, name_key, norm_label, version_key

# parts that may follow a family's name: versions ("2.5", "v8", "-4o"), sizes ("-7B", "8x7B") and
# variant words ("-VL", "-Instruct", "-mini"); a space only before a version number ("SAM 2")
_VARIANT_WORDS = (
    "VL|Chat|chat|Instruct|instruct|it|Base|base|mini|Mini|Pro|pro|Max|Turbo|turbo|Coder|Math|Vision|Large|large"
    "|Small|small|Tiny|tiny|XL|XXL|Nano|nano|Flash|Plus|Ultra|Lite|Preview|preview|Video|Audio|Omni|Distill"
    "|Med|HQ|World|Sonnet|Opus|Haiku|Reasoner|Thinking|Scout|Maverick|Air|Next|NeXT|OneVision|T2V|I2V|R1|V2|V3"
)
_PART = (
    rf"(?:[ ]?v?\d+(?:\.\d+)*[a-z]?(?![\w])|[vV]?\d+(?:\.\d+)*[a-z]?|[-_]v?\d+(?:\.\d+)*[a-zA-Z]?"
    rf"|[-_ ](?:{_VARIANT_WORDS})(?![\w])|-?\d+(?:\.\d+)?[BMK](?![a-z]))"
)
_SIZE = re.compile(r"^[-_ ]?(?:\d+x)?\d+(?:\.\d+)?[BMK]$")
_END = r"(?![\w+])"


@dataclass(frozen=True, slots=True)
class NamedMethod:
    """A method name that no list holds: its key, display label, text as written and where, and the
    known concepts it names."""

    key: str
    label: str
    text: str
    start: int
    end: int
    related: tuple[str, ...] = ()

    def detail(self) -> tuple[tuple[str, str], ...]:
        """The mention ``detail`` pairs, sorted."""
        return (("label", self.label), ("related", ";".join(self.related)))


class Families:
    """The names of model families, looked up at each word of a text (a dictionary look-up per
    possible cut, not a regular expression of a thousand alternatives).

    >>> [n.label for n in Families({"Qwen": "qwen", "YOLO": "yolo"}).versions("We fine-tune Qwen2.5-VL-7B and YOLOv8.")]
    ['Qwen2.5-VL', 'YOLOv8']
    """

    def __init__(self, families: dict[str, str]) -> None:
        self.exact = dict(families)
        # a name of four characters or more is matched in any case ("Llama-3", "gpt-4o"); "SAM" is not "Sam"
        self.folded = {name.casefold(): slug for name, slug in families.items() if len(name) >= 4}
        self.longest = max(map(len, families), default=0)

    def __bool__(self) -> bool:
        return bool(self.exact)

    def slug(self, base: str) -> str:
        """The family a name is, or ""."""
        return self.exact.get(base) or (self.folded.get(base.casefold(), "") if len(base) >= 4 else "")

    def versions(self, text: str) -> Iterator[NamedMethod]:
        """Versioned names of the families in ``text``."""
        for word in _VERSIONED_WORD.finditer(text):
            start, chunk = word.start(), word.group()
            # cut where a version may start: before a digit, "-", "_", "v<digit>" or the word's end
            cuts = [
                i
                for i in range(min(len(chunk), self.longest), 1, -1)
                if i == len(chunk) or _CUT.match(chunk, i)
            ]
            for cut in cuts:
                slug = self.slug(chunk[:cut])
                if not slug:
                    continue
                named = _version_at(text, start, start + cut, slug)
                if named is not None:
                    yield named
                    break


# a word that holds a digit ("Qwen2.5-VL", "GPT-4o") or is followed by a number ("SAM 2"): only these
# may be versioned names, and they are few
_VERSIONED_WORD = re.compile(r"(?<![\w\-])[A-Za-z][A-Za-z\-_.]*(?:\d[\w.\-+]*|(?= \d))")
_CUT = re.compile(r"[\d\-_.]|[vV]\d")
_SUFFIX = re.compile(rf"(?:{_PART})+{_END}")


def _version_at(text: str, start: int, base_end: int, slug: str) -> NamedMethod | None:
    """The versioned name whose family name spans ``text[start:base_end]``, if versions follow."""
    m = _SUFFIX.match(text, base_end)
    if m is None:
        return None
    kept: list[str] = []
    parts = _parts(m.group())
    end = m.end()
    for part in parts:
        if _SIZE.match(part):
            break  # "Llama-3.1-8B-Instruct" is Llama-3.1 (written with its size)
        numbered = any(c.isdigit() for c in "".join(kept) + text[start:base_end])
        if part.startswith(" ") and part.strip()[:1].isdigit() and numbered:
            end = base_end + len("".join(kept))  # "GPT-4.1 3.412": a number after a version is a score
            break
        kept.append(part)
    if not kept and not (parts and _SIZE.match(parts[0]) and not parts[0].startswith(" ")):
        return None  # (a size alone, "LTXV-13B", is the family's model itself)
    if kept and not any(c.isdigit() for c in "".join(kept)) and len(kept) == 1 and kept[0][0] == " ":
        return None
    label = (text[start:base_end] + "".join(kept)).strip()
    return NamedMethod(version_key(label), label, text[start:end], start, end, (slug,))


def _parts(suffix: str) -> list[str]:
    return [m.group() for m in re.finditer(_PART, suffix)]


# the long form of a defined short form names a method when it ends in one of these words
_METHOD_HEADS = frozenset(
    [
        "network",
        "networks",
        "net",
        "nets",
        "model",
        "models",
        "architecture",
        "transformer",
        "transformers",
        "encoder",
        "decoder",
        "autoencoder",
        "attention",
        "mechanism",
        "module",
        "modules",
        "block",
        "layer",
        "layers",
        "loss",
        "regularization",
        "regularisation",
        "optimizer",
        "optimiser",
        "optimization",
        "algorithm",
        "learning",
        "distillation",
        "sampling",
        "sampler",
        "decoding",
        "prompting",
        "tuning",
        "adaptation",
        "attack",
        "defense",
        "defence",
        "policy",
        "planner",
        "planning",
        "controller",
        "control",
        "estimator",
        "embedding",
        "embeddings",
        "pooling",
        "convolution",
        "normalization",
        "augmentation",
        "pretraining",
        "training",
        "search",
        "filter",
        "kernel",
        "machine",
        "forest",
        "regression",
        "classifier",
        "detector",
        "segmenter",
        "tokenizer",
        "quantization",
        "pruning",
        "fusion",
        "alignment",
    ]
)
# a coined name used as a method comes right before one of these words ...
_NAME_HEADS = frozenset(
    [
        "model",
        "models",
        "backbone",
        "backbones",
        "architecture",
        "architectures",
        "network",
        "networks",
        "encoder",
        "encoders",
        "decoder",
        "decoders",
        "detector",
        "detectors",
        "policy",
        "policies",
        "agent",
        "agents",
        "baseline",
        "baselines",
        "variant",
        "variants",
        "family",
        "llm",
        "llms",
        "vlm",
        "vlms",
        "planner",
        "optimizer",
        "optimizers",
        "loss",
        "attention",
        "layer",
        "layers",
        "module",
        "modules",
        "tokenizer",
    ]
)
# ... or in a list after one of these (the name is among the next few words)
_LIST_CUES = re.compile(
    r"\b(?:such as|e\.g\.,?|including|like|compar(?:e|es|ed|ing) (?:with|to|against)|comparison (?:with|to)"
    r"|outperform(?:s|ing)?"
    r"|baselines?|versus|vs\.?|surpass(?:es|ing)?|built (?:on|upon)|based on|backbones?"
    r"|appl(?:y|ies|ied|ying)|adopt(?:s|ed|ing)?|employ(?:s|ed|ing)?|plugged into|families|variants|models)"
    r"\s*[:(]?\s*(?:the\s+)?$",
    re.IGNORECASE,
)
# ... but never when it is data, a benchmark or a measure
_DATA_AFTER = re.compile(
    r"^[\s-]*(?:data ?sets?|benchmarks?|corpus|corpora|datasets?|suite|leaderboard|split|test set|score|scores"
    r"|metric|metrics|accuracy|challenge|tasks?|environments?|simulator|robot|robots|arm|platform|library|toolkit"
    r"|api|format)\b",
    re.IGNORECASE,
)
_DATA_BEFORE = re.compile(r"\b(?:on|in|from|of|using the|across|at)\s+(?:the\s+)?$", re.IGNORECASE)
# coined: inner capitals or digits ("SageAttention2", "FastV"), or a word joined to an acronym
# ("Flow-GRPO": a known method inside a new name)
_COINED = re.compile(
    r"(?<![\w\-./])([A-Z][a-z]*[A-Z0-9][\w\-+.]*[\w+]|[A-Z][a-z]+V\d?|[A-Z][a-z]{2,}-[A-Z]{2,}[A-Za-z0-9]*)(?![\w\-])"
)
_NOT_METHOD_NAMES = frozenset(
    [
        "GitHub",
        "HuggingFace",
        "PyTorch",
        "TensorFlow",
        "JAX",
        "OpenAI",
        "DeepMind",
        "NVIDIA",
        "GPU",
        "GPUs",
        "CPU",
        "CPUs",
        "API",
        "APIs",
        "ImageNet",
        "ImageNet-1K",
        "ImageNet-21K",
        "MS-COCO",
        "COCO",
        "CIFAR-10",
        "CIFAR-100",
        "MNIST",
        "ScanNet",
        "ScanNet++",
        "KITTI",
        "nuScenes",
        "GSM8K",
        "MATH",
        "MMLU",
        "HumanEval",
        "MBPP",
        "BigBench",
        "BIG-Bench",
        "SQuAD",
        "GLUE",
        "SuperGLUE",
        "WikiText",
        "ShareGPT",
        "LibriSpeech",
        "AudioSet",
        "ADE20K",
        "Cityscapes",
        "ObjectNet",
        "LAION",
        "LAION-5B",
        "OpenWebText",
        "RedPajama",
        "SlimPajama",
        "MuJoCo",
        "IsaacGym",
        "Isaac",
        "ROS",
        "LLMs",
        "LLM",
        "VLMs",
        "VLM",
        "MLLMs",
        "MLLM",
        "AI",
        "SOTA",
        "SoTA",
        "LiDAR",
        "RGB",
        "RGB-D",
        "IoU",
        "mIoU",
        "mAP",
        "BLEU",
        "ROUGE",
        "FID",
        "PSNR",
        "SSIM",
        "LPIPS",
        "AUC",
        "AUROC",
        "F1",
        "TeX",
        "LaTeX",
        "JSON",
        "SQL",
        "Python",
        "GPT",
        "AdamW",
    ]
)


def defined_names(
    abbreviations: Iterable[Abbreviation], known: dict[str, str], slugs_in: Callable[[str], Iterable[str]]
) -> Iterator[NamedMethod]:
    """Short forms defined with a method-like long form that no label names; ``known`` maps the
    normalized labels of the vocabulary to slugs, ``slugs_in`` finds the known methods in a text."""
    for ab in abbreviations:
        long_words = norm_label(ab.long).split()
        if not long_words or (
            long_words[-1].rstrip("s") not in _METHOD_HEADS and long_words[-1] not in _METHOD_HEADS
        ):
            continue
        if any(form in known for form in _singulars(norm_label(ab.long)) | _singulars(norm_label(ab.short))):
            continue
        related = tuple(sorted(set(slugs_in(ab.long))))
        # the concept of that meaning: "SAP--spatial-attention-prompting", not any SAP
        key = concept_key(ab.short, " ".join(ab.long.split()))
        yield NamedMethod(key, ab.short, ab.short, ab.start, ab.start + len(ab.short), related)


def coined_names(masked: str, known_spans: list[tuple[int, int]]) -> Iterator[NamedMethod]:
    """Coined names (inner capitals or digits) that the text uses as methods; an acronym ("SOLV")
    counts only right before a model word ("the SOLV model")."""
    for m in _COINED.finditer(masked):
        word = m.group(1).rstrip(".")
        start, end = m.start(1), m.start(1) + len(word)
        if word in _NOT_METHOD_NAMES or len(word) < 3 or len(word) > 40:
            continue
        acronym = not _coined_head(word)
        if acronym and not (
            word.isupper()
            and word.isalpha()
            and _ONE_MODEL.match(masked, end)
            and masked[max(0, start - 4) : start].lower() == "the "
        ):
            continue  # "the SOLV model", not "WSOL models" (a task's models)
        if any(
            s < end and start < e and not (start <= s and e <= end and (s, e) != (start, end))
            for s, e in known_spans
        ):
            continue  # a known method's own name; one inside a longer coined name ("Flow-GRPO") is not
        after = masked[end : end + 40]
        if _DATA_AFTER.match(after) or _DATASET_SHAPE.search(word):
            continue
        head = _HEAD.match(after)
        lead = _list_lead(masked[max(0, start - 60) : start])
        if not ((head and head.group(1).lower() in _NAME_HEADS) or _LIST_CUES.search(lead)):
            continue
        model_word = _MODEL_WORD.match(masked, end) is not None
        if not model_word and (
            _DATA_BEFORE.search(masked, max(0, start - 60), start) or _DATA_BEFORE.search(lead)
        ):
            continue
        label = _SIZE_TAIL.sub("", word) or word  # "WanX2.1-T2V-1.3B" is WanX2.1-T2V
        yield NamedMethod(name_key(label), label, word, start, end)


_MODEL_WORD = re.compile(
    r"[\s-]+(?:model|models|architecture|backbone|network|detector|encoder|policy|llm|vlm)\b"
)
_ONE_MODEL = re.compile(r"\s+(?:model|architecture|backbone|network)\b(?!s)")
_SIZE_TAIL = re.compile(r"[-_](?:\d+x)?\d+(?:\.\d+)?[BMK]$")


def _list_lead(before: str) -> str:
    """The text before a name with the earlier items of its list removed ("such as A, B, and ")."""
    return _EARLIER_ITEMS.sub("", before) if before.rstrip().endswith((",", "and", "or", "/")) else before


# the earlier items of a list of names ("CLIP, LongCLIP, "), each starting with a capital or digit
_EARLIER_ITEMS = re.compile(r"(?:[A-Z0-9][\w\-+.]*(?:\s[\w\-+.]+){0,2}\s*(?:,|\band\b|\bor\b|/)\s*)+$")
_HEAD = re.compile(r"^[\s-]+([A-Za-z]+)")


def _singulars(label: str) -> set[str]:
    """A normalized label and, when it ends in a plural ``s``, the label without it."""
    return {label, label[:-1]} if label.endswith("s") else {label}


_DATASET_SHAPE = re.compile(r"(?:Bench|bench|QA|Set|Eval|Arena|MME|\d+K|\d+k|-\d{3,4}|Data)$")


_JOINED_ACRONYM = re.compile(r"[A-Z][a-z]{2,}-[A-Z]{2,}")


def _coined_head(word: str) -> bool:
    """Whether the first part of a word (up to a hyphen) is coined: lower-case letters with an inner
    capital or digit ("SageAttention2", "FastV", "CellViT++"), not an acronym ("VQA", "API-Protected").

    >>> [_coined_head(w) for w in ("SageAttention2", "FastV", "VQA", "B-Rep", "API-Protected", "Hiera", "Flow-GRPO")]
    [True, True, False, False, False, False, True]
    """
    if _JOINED_ACRONYM.match(word):
        return True  # "Flow-GRPO": a word joined to an acronym
    head = word.split("-", 1)[0]
    if head.endswith("s") and head[:-1].isupper():
        return False  # a plural acronym ("UAVs")
    return any(c.islower() for c in head) and any(c.isupper() or c.isdigit() for c in head[1:])
