"""Datasets a text uses: the known ones by name, and names no list holds where the text evaluates or
trains on them.

A known dataset whose name is a name ("GSM8K", "ImageNet", "nuScenes") counts wherever it is written;
one whose name is also a word or a short acronym ("MATH", "Cora", "DAVIS") counts only in an
evaluation context, as a name no list holds does:

* a dataset word after it: "the FooQA dataset", "on PUMA and BarSet benchmarks", "the GuoFeng
  discourse-level translation benchmark";
* "on", "across", "using" before it, in a sentence about experiments ("results on NOCS show ...");
* a list of examples ("benchmarks such as FOLIO and LogicAsker"), or a list of names one of which is a
  known dataset ("on GSM8K, MATH and AIME24");
* a benchmark's shape: "...Bench", "...QA", "...Eval", "...Arena" ("MMBench", "LongVideoBench").

Names that are not datasets there are left out: models ("on Llama-3-8B", "SANA-1.6B as a base model"),
hardware, robots, simulators, platforms, venues, metrics, tasks ("VQA"), methods, modifiers ("FHIR-based
benchmarks", "diverse CAD datasets"), and the paper's own names ("we introduce FooData"): those are
introduced, not used.  A name written after a known dataset's ("ActivityNet-RTL") is a variant of it.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from dataclasses import dataclass
from functools import lru_cache

from kg.extractors.methods.forms import name_key

from .known import DatasetNames, Hit
from .lexicon import words_of
from .phrases import is_verb
from .words import Words, compact, sentences

# a word right after a name that makes it a dataset
_DATA_WORDS = words_of(
    """dataset datasets benchmark benchmarks corpus corpora suite leaderboard challenge collection testbed
    split splits subset test val validation"""
)
_FUNCTION_WORDS = words_of(
    """a an the this that these those its their our on in of for to with and or as by at from is are was were
    be"""
)
# words before a name in an evaluation ("on X", "results on the X test set"); not "over" (a baseline) or
# "from" (a source)
_BEFORE = frozenset({"on", "across", "using"})
# the patterns below are searched in the folded (lower-case) text: a case-insensitive search costs several
# times more
_EVALUATION = re.compile(
    r"evaluat|experiment|result|benchmark|outperform|achiev|state-of-the-art|sota|accuracy|performance|\btest"
    r"|train|fine-tun|finetun|dataset|improv|surpass|gain|score|validat|demonstrat|show"
)
_SHAPE = re.compile(r"[A-Za-z0-9](?:Bench|bench|QA|Eval|Arena)(?:[-_ ]?v?\d+(?:\.\d+)?)?$")
# what is written like a dataset name but never is one
_NOT_DATASETS = words_of(
    """GPU GPUs CPU CPUs TPU TPUs NPU A100 H100 V100 H800 A800 RTX Jetson FPGA ARM GitHub HuggingFace OpenAI
    Google DeepMind Meta Microsoft NVIDIA Apple Amazon Anthropic MuJoCo Isaac IsaacGym IsaacLab CARLA
    Habitat PyBullet Gazebo SAPIEN Genesis ROS ROS2 Unity Unreal Franka Panda UR5 UR5e UR10 Unitree Go1 Go2
    G1 H1 Spot ANYmal xArm Kinova WidowX ALOHA Stretch Fetch TIAGo Baxter Sawyer Android iOS Linux Windows
    Python PyTorch TensorFlow JAX CUDA English Chinese AI ML NLP CV RL LLM LLMs VLM VLMs MLLM MLLMs LMM LMMs
    VLA VLAs SOTA SoTA API APIs RGB RGB-D LiDAR IMU GPS mAP mIoU AP IoU PSNR SSIM LPIPS FID IS KID FVD BLEU
    ROUGE METEOR CIDEr SPICE F1 AUC AUROC AUPRC EER WER CER MAE MSE RMSE NDCG MRR FPS FLOPs TFLOPs GFLOPs
    MACs USD EU US UK COVID COVID-19 SAR MRI CT PET EEG ECG DNA RNA TCP HTTP JSON SQL HTML PDF URL LaTeX I
    II III IV iPhone iPad DARPA NSF NIH NASA IEEE ACM CVPR ICCV ECCV NeurIPS ICML ICLR AAAI ACL EMNLP NAACL
    IJCAI KDD WWW SIGIR AURC FPR TPR ECE NLL UAV UAVs GUI GUIs RAW UHD HDR SDR EHR EHRs IoT AR VR XR MR CAD
    H200 H20 B200 GB200 L40 L40S A6000 A40 A10 Orin Xavier FHIR NeRF 3DGS OCR ASR TTS QA VQA
    CSV TSV XML YAML PNG JPEG JPG TIFF DICOM NIfTI HDF5 ONNX"""
)
_NAME = re.compile(r"^(?:[A-Z0-9][A-Za-z0-9]*|[a-z]+[A-Z][A-Za-z0-9]*)$")
# sizes, resolutions and dimensions: "7B", "100K", "4K", "3D", "L2"
_QUANTITY = re.compile(
    r"^(?:\d+(?:\.\d+)?(?:[KMBTkmbt]|[kMG]?Hz|[kMGT]B|fps|FPS|ms|GHz|px|mm|cm|km)|[1-9]D|L[0-9]|\d+[Kk]?[Pp]?)$"
)
_CAMEL = re.compile(r"[a-z][A-Z]")
# words a benchmark's name ends in after a hyphen
_NAME_TAILS = frozenset({"Bench", "Benchmark", "Eval", "Arena", "QA", "VQA", "Gym", "World"})
# a name followed by these is a model, a robot or a version of software ("Llama-3-8B", "X-7B model")
_MODEL_AFTER = re.compile(
    r"[-\s]*(?:[a-z0-9][\w.]*\s+){0,2}(?:models?|backbones?|architectures?|robots?|arms?|gpus?|series|family"
    r"|checkpoints?|weights|variants?)\b"
)
# a name that leads such a word is no name of data: "FHIR-based benchmarks", "UAV-oriented datasets"
_MODIFIER_AFTER = re.compile(
    r"-(?:based|like|style|driven|guided|oriented|specific|aware|conditioned|powered|enabled|level|scale|wise"
    r"|free|only|centric|related|generated|pretrained|pre-trained)\b"
)
_SIZE = re.compile(r"\d(?:\.\d+)?[BM]\b")
_MODEL_WORDS = ("model", "backbone", "architecture", "robot", "arm", "gpu", "series", "famil", "checkpoint", "weight",
                "variant")  # fmt: skip
# a list of examples of datasets, the name among them: "benchmarks such as X, Y", "datasets (e.g., X)"
_EXAMPLES = re.compile(
    r"\b(?:data ?sets?|benchmarks?|corpora|suites?)[\s,(]*(?:such as|including|like|e\.g\.,?|namely|:)"
    r"(?:\s*(?:the\s+)?[\w\-.+]+(?:\s+[\w\-.+]+)?\s*(?:,|and|or)\s*){0,6}\s*(?:the\s+)?$"
)
_EXAMPLE_CUES = ("such as", "including", "like", "e.g.", "namely", ":")
_LIST_GAP = re.compile(r"\s*(?:,|,?\s*and|,?\s*or|/|;)\s*(?:the\s+)?")
# the paper itself introduces the name that follows ("we introduce a new benchmark, FooBench", "we
# release FooData"): a few words after the verb, with no preposition between ("we introduce FooData by
# extending the BarNet dataset" introduces FooData, not BarNet)
# the stems of _INTRODUCING's verbs: a lead without one is passed over without the search
_INTRO_STEMS = [
    "introduc",
    "propos",
    "present",
    "releas",
    "construct",
    "buil",
    "collect",
    "curat",
    "creat",
    "develop",
    "contribut",
    "design",
    "establish",
]
_INTRO_STEM = re.compile("|".join(_INTRO_STEMS))  # one search, not a test per stem
_INTRODUCING = re.compile(
    r"\b(?:we|our|this (?:paper|work|study))\b[^.;]{0,40}?\b(?:introduc|propos|present|releas|construct|build|built"
    r"|collect|curat|creat|develop|contribut|design|establish)\w*(?:[\s,:]+(?!(?:by|from|on|using|of|with|extending"
    r"|based|in|to|at|for|into|over|than|via|under|and)\b)[\w\-]+){0,6}[\s,:(\-\u2014]+$"
)


@dataclass(frozen=True, slots=True)
class DatasetMention:
    """A dataset a text uses: the known dataset's slug (or "" for a name no list holds), the key of its
    name, its label, the text as written and its offset."""

    slug: str
    key: str
    label: str
    text: str
    start: int
    introduced: bool = False
    """The text introduces the name ("we introduce FooData"): a mention of no dataset it uses."""
    variant_of: str = ""
    """The known dataset a name no list holds is a variant of ("ActivityNet-RTL": ActivityNet)."""

    def detail(self) -> tuple[tuple[str, str], ...]:
        """The mention ``detail`` pairs, sorted."""
        pairs = [("label", self.label)]
        if not self.slug:
            pairs.append(("open", "true"))
        if self.variant_of:
            pairs.append(("variant-of", self.variant_of))
        return tuple(sorted(pairs))


@lru_cache(maxsize=1 << 16)
def _distinctive_word(word: str) -> bool:
    """A word written as a name: capitals inside ("DAiSEE"), capitals and digits ("VHR-10"), two capitals."""
    if not _NAME.match(word) or word in _NOT_DATASETS or _QUANTITY.match(word):
        return False
    caps = sum(c.isupper() for c in word)
    return caps >= 2 or (caps >= 1 and any(c.isdigit() for c in word)) or _CAMEL.search(word) is not None


Span = tuple[int, int, Hit | None]
"""Words ``start:end`` of a name, with the known dataset's hit (None for a name no list holds)."""


def dataset_mentions(
    names: DatasetNames,
    text: str,
    low: str,
    ws: Words,
    not_datasets: frozenset[str],
    is_title: bool,
) -> tuple[list[DatasetMention], dict[int, str]]:
    """The datasets ``text`` uses, and the indices of the words of every name found (known or not,
    dataset or not: a task phrase does not run through them), with the known dataset's slug or "".
    ``not_datasets`` holds the compact forms of names that are something else (methods, task acronyms);
    ``low`` is the text folded to lower case (:func:`~kg.extractors.methods.forms.folded`)."""
    named: dict[int, str] = {}
    variants: dict[int, str] = {}  # the first word of an open name that is a variant of a known dataset
    spans = _known_spans(names.find(text, ws), text, ws, named, variants)
    spans += _open_spans(text, low, ws, named, not_datasets)
    spans.sort(key=lambda s: s[0])
    confident = {s[0] for s in spans if s[2] is not None and not s[2].hidden}
    found: list[DatasetMention] = []
    bounds: list[tuple[int, int]] = []  # the text's sentences, when first asked
    defined: set[str] = set()  # short forms the text defines as something else
    for k, (start, end, hit) in enumerate(spans):
        first = ws.start[start]
        last = hit.last if hit is not None else ws.end[end - 1]
        while hit is None and text[last : last + 1] == "+":
            last += 1  # "FF++"
        written = text[first:last]
        if written in _NOT_DATASETS:
            continue
        lead = low[max(0, first - 120) : first]
        introduced_before = found[-1].start + len(found[-1].text) if found and found[-1].introduced else -1
        if (_INTRO_STEM.search(lead) is not None and _INTRODUCING.search(lead) is not None) or (
            introduced_before >= 0 and _LIST_GAP.fullmatch(text[introduced_before:first]) is not None
        ):
            # "we introduce a synthetic dataset FooData" (and the names listed with it: "our proposed
            # WeatherKITTI and WeatherNCLT datasets"): the paper's own, not one it uses
            found.append(DatasetMention("", "", written, written, first, introduced=True))
            continue
        if text[first - 1 : first] == "(" and text[last : last + 1] == ")" and start > 0:
            # "long-form visual question answers (LFVQA)": a short form the text defines, a dataset's only
            # when its long form is one ("Massive Text Embedding Benchmark (MTEB)")
            if ws.low[start - 1] not in _DATA_WORDS:
                defined.add(compact(written))
                continue
            found.append(_mention(names, hit.slug if hit is not None else "", written, first))
            continue
        key = compact(written)
        other = key in not_datasets  # a method's name too ("CoLA"): a dataset only in context
        alone = hit is not None and not hit.hidden and not other  # a known name that counts wherever written
        if (
            not alone
            and start not in variants
            and not (
                (hit is None and _SHAPE.search(written) is not None)
                or _in_list(spans, k, confident, text, ws)
                or _context(text, low, ws, start, end, bounds, is_title)
            )
        ):
            continue
        if (other and hit is None) or _model_like(text, low, first, last):
            continue
        if start in variants:
            found.append(
                DatasetMention("", name_key(written), written, written, first, variant_of=variants[start])
            )
        else:
            found.append(_mention(names, hit.slug if hit is not None else "", written, first))
    if defined:
        found = [d for d in found if d.introduced or compact(d.text) not in defined]
    return found, named


def _known_spans(
    hits: list[Hit], text: str, ws: Words, named: dict[int, str], variants: dict[int, str]
) -> list[Span]:
    """The spans of known names; a name written on after one ("ActivityNet-RTL", "COCO-20i") is a
    dataset of its own, a variant of the known one."""
    spans: list[Span] = []
    for h in hits:
        named.update(dict.fromkeys(range(h.start, h.end), h.slug))
    for h in hits:
        end = h.end
        while (
            not h.hidden
            and end < len(ws)
            and end not in named
            and text[ws.end[end - 1] : ws.start[end]] == "-"
            and _name_part(ws.text[end])
            and ws.low[end] not in _DATA_WORDS
        ):
            end += 1
        if end > h.end:
            named.update(dict.fromkeys(range(h.end, end), ""))
            variants[h.start] = h.slug
            spans.append((h.start, end, None))
        else:
            spans.append((h.start, h.end, h))
    return spans


def _name_part(word: str) -> bool:
    """Whether a word after a hyphen continues a name: digits, capitals ("RTL", "20i", "1.3"), not a
    word in title case ("Knowledge-Grounded", "X-Ray")."""
    return word[:1].isdigit() or word.isupper() or (word[:1].isupper() and not word[1:].islower())


def _open_spans(
    text: str, low: str, ws: Words, named: dict[int, str], not_datasets: frozenset[str]
) -> list[Span]:
    """Runs of words written as names that no list holds ("NWPU VHR-10", "MetaGraspNetV2", "KIT-ML"), and
    capitalized words in a list of examples of datasets ("datasets, including Kespeech"); a word that is
    a method's name alone ("LLMs", "GPT") starts none."""
    spans: list[Span] = []
    texts, n = ws.text, len(ws)
    taken = -1
    examples = any(cue in low for cue in _EXAMPLE_CUES)
    for i in ws.named():
        if i <= taken or i in named:
            continue
        if not _distinctive_word(texts[i]) and not (
            examples and i > 0 and not ws.broken[i] and _listed_example(low, ws, i)
        ):
            continue
        if ws.low[i] in not_datasets and (i + 1 == n or ws.broken[i + 1] or texts[i + 1].islower()):
            continue  # a method's name ("CLIP", "LoRA"), not the start of a longer one
        j = i + 1
        while j < n and j - i < 3 and not ws.broken[j] and j not in named and _NAME.match(texts[j]):
            gap = text[ws.end[j - 1] : ws.start[j]]
            word = texts[j]
            joins = (
                _distinctive_word(word)
                or word[0].isdigit()
                or word in _NOT_DATASETS
                or (len(word) <= 2 and word.isupper() and gap == "-")
                or (gap == "-" and word in _NAME_TAILS)  # "XLRS-Bench", "MMT-Bench": the name is whole
            )
            if not joins or gap not in ("-", " ", ""):
                break
            j += 1
        spans.append((i, j, None))
        named.update(dict.fromkeys(range(i, j), ""))
        taken = j - 1
    return spans


def _listed_example(low: str, ws: Words, i: int) -> bool:
    """Whether word ``i`` (written with a capital, not after punctuation) is in a list of examples of
    datasets ("dialect datasets, including Kespeech")."""
    begin = ws.start[i]
    lead = low[max(0, begin - 60) : begin]
    return _EXAMPLES.search(lead) is not None


def _mention(names: DatasetNames, slug: str, written: str, first: int) -> DatasetMention:
    if slug:
        return DatasetMention(slug, slug, names.concepts[slug].pref, written, first)
    return DatasetMention("", name_key(written), written, written, first)


def _model_like(text: str, low: str, first: int, end: int) -> bool:
    """Whether a name is a model's or a modifier ("Llama-3-8B", "SANA-1.0-1.6B as", "SMPL-X 3D human
    model", "FHIR-based")."""
    tail = low[end : end + 40]
    if any(word in tail for word in _MODEL_WORDS) and _MODEL_AFTER.match(low, end) is not None:
        return True
    if tail[:1] == "-" and _MODIFIER_AFTER.match(low, end) is not None:
        return True
    # a size within the name's run of hyphenated parts: "SANA-1.0-1.6B", "Qwen2.5-VL-7B"
    return _SIZE.search(text, first, min(len(text), end + 16)) is not None


def _context(
    text: str, low: str, ws: Words, start: int, end: int, bounds: list[tuple[int, int]], is_title: bool
) -> bool:
    """Whether words ``start:end`` are in an evaluation context: a dataset word after them, a list of
    examples of datasets, or "on" before them in a sentence about experiments; ``bounds`` caches the
    text's sentences."""
    written = " ".join(ws.text[start:end])
    # "the GuoFeng discourse-level translation benchmark": words between, for a name with inner capitals
    reach = 5 if any(c.isdigit() for c in written) or _CAMEL.search(written) else 1
    for k in range(end, min(len(ws), end + reach)):
        word = ws.low[k]
        if word in _DATA_WORDS and not ws.broken[k]:
            # "diverse CAD datasets", "public EHR benchmarks": a kind of data, not a name
            kind = k == end and word.endswith("s") and start > 0 and ws.text[start - 1].islower()
            return not (
                kind and ws.low[start - 1] not in _FUNCTION_WORDS and ws.low[start - 1] not in _BEFORE
            )
        if ws.broken[k] or not ws.text[k].islower() or word in _FUNCTION_WORDS or is_verb(word):
            break
    if (
        end < len(ws)
        and not ws.broken[end]
        and ws.low[end] in ("and", "or")
        and any(word in _DATA_WORDS for word in ws.low[end + 1 : end + 4])
    ):
        return True  # "the X and Y datasets"
    begin = ws.start[start]
    lead = low[max(0, begin - 60) : begin]
    if any(cue in lead for cue in _EXAMPLE_CUES) and _EXAMPLES.search(lead):
        return True  # "benchmarks such as FOLIO and LogicAsker"
    before = ws.low[start - 1] if start > 0 and not ws.broken[start] else ""
    if before == "the" and start > 1:
        before = ws.low[start - 2]
    if before in _BEFORE and not is_title and _name_ends(ws, end):
        if not bounds:
            bounds.extend(sentences(text))
        s, e = bounds[max(0, bisect_right([b[0] for b in bounds], begin) - 1)]
        return _EVALUATION.search(low, s, e) is not None
    return False


def _name_ends(ws: Words, end: int) -> bool:
    """Whether a name before word ``end`` ends a noun phrase ("on X, ...", "on X and Y", "on X show"),
    rather than leading a noun ("on GUI agents", "on UAV imagery")."""
    if end >= len(ws) or ws.broken[end]:
        return True
    low = ws.low[end]
    return low in _FUNCTION_WORDS or low in _DATA_WORDS or is_verb(low) or not ws.text[end].islower()


def _in_list(spans: list[Span], k: int, confident: set[int], text: str, ws: Words) -> bool:
    """Whether span ``k`` is in a list ("A, B and C") with a dataset known by a name that counts alone."""
    for step in (-1, 1):
        j = k
        while 0 <= j + step < len(spans):
            a, b = (spans[j], spans[j + step]) if step == 1 else (spans[j + step], spans[j])
            if _LIST_GAP.fullmatch(text, ws.end[a[1] - 1], ws.start[b[0]]) is None:
                break
            j += step
            if spans[j][0] in confident:
                return True
    return False
