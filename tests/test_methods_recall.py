"""Recall on real abstracts: forms, known acronyms, the families the vocabulary grew by, ambiguous
labels in and out of context, open-vocabulary names and clean introduced names (the methods issue).

Each case is a sentence of the kind real abstracts hold, run through the repository's vocabulary.
"""

from __future__ import annotations

import pytest

from kg.errors import IssueLog
from kg.extractors import methods
from kg.extractors.methods import MethodMatcher, bare_key, load_taxonomy, slugify, taxonomy_path
from kg.extractors.methods.forms import version_key
from kg.records import Location, Mention, Record, SourceFile, Span


@pytest.fixture(scope="module")
def matcher() -> MethodMatcher:
    return methods.default_matcher()


def found(matcher: MethodMatcher, text: str) -> dict[str, str]:
    """Known concepts found in ``text``: slug -> text as written."""
    return {m.slug: m.text for m in matcher.find(text) if not m.name}


def mentions(title: str, abstract: str = "") -> list[Mention]:
    at = Location("t.bib", 1)
    record = Record(
        "bibtex", SourceFile("t.bib", "t.bib", "0"), at, title=Span(title, at), abstract=Span(abstract, at)
    )
    return list(methods.extract(record, IssueLog()))


def of_kind(ms: list[Mention], kind: str) -> dict[str, Mention]:
    """Mentions of a kind by the slug of their name (keys keep the case of mixed-case names and carry a
    long form or the paper's tag: see ``test_methods_concepts.py``)."""
    return {slugify(bare_key(m.key)): m for m in ms if m.kind == kind}


# ------------------------------------------------------------------ forms


@pytest.mark.parametrize(
    ("text", "slug", "written"),
    [
        ("We evaluate several LLMs on the task.", "large-language-model", "LLMs"),
        ("Plain ViTs overfit small data.", "vision-transformer", "ViTs"),
        ("The model is fine-tuned on 1k examples.", "fine-tuning", "fine-tuned"),
        ("We start from pre-trained weights.", "pretraining", "pre-trained"),
        ("We start from pretrained weights.", "pretraining", "pretrained"),
        ("Prompt-based tuning is brittle.", "prompting", "Prompt-based"),
        ("We study retrieval-augmented LLMs.", "retrieval-augmented-generation", "retrieval-augmented LLMs"),
        (
            "We study retrieval augmented generation.",
            "retrieval-augmented-generation",
            "retrieval augmented generation",
        ),
        ("We train a state space model.", "state-space-model", "state space model"),
        ("We train a state-space model.", "state-space-model", "state-space model"),
        ("In the few-shot setting the gap closes.", "few-shot-learning", "few-shot setting"),
        ("Zero-shot transfer to new classes.", "zero-shot-learning", "Zero-shot transfer"),
        ("Self-supervised features help.", "self-supervised-learning", "Self-supervised"),
        ("We use a decoder-only model.", "decoder-only-transformer", "decoder-only model"),
    ],
)
def test_inflections_and_variants(matcher: MethodMatcher, text: str, slug: str, written: str) -> None:
    assert found(matcher, text).get(slug) == written


@pytest.mark.parametrize(
    ("acronym", "slug"),
    [
        ("CLIP", "clip"),
        ("LSTM", "lstm"),
        ("RAG", "retrieval-augmented-generation"),
        ("DPO", "dpo"),
        ("GAN", "generative-adversarial-network"),
        ("BERT", "bert"),
        ("LLM", "large-language-model"),
        ("SAM", "segment-anything-model"),
        ("YOLO", "yolo"),
        ("SLAM", "slam"),
        ("MPC", "model-predictive-control"),
    ],
)
def test_known_acronyms_count_alone(matcher: MethodMatcher, acronym: str, slug: str) -> None:
    assert found(matcher, f"Our pipeline relies on {acronym} throughout.").get(slug) == acronym


def test_an_unknown_acronym_stays_unmatched(matcher: MethodMatcher) -> None:
    assert found(matcher, "Our pipeline relies on XQZ throughout.") == {}


def test_a_known_acronym_defined_as_something_else_is_not_that_concept(matcher: MethodMatcher) -> None:
    text = "A Spatial Attention Module (SAM) weights the features; SAM is light."
    assert "segment-anything-model" not in found(matcher, text)


@pytest.mark.parametrize(
    ("text", "slug"),
    [
        ("Scenes are rendered with 3D Gaussian Splatting (3DGS).", "gaussian-splatting"),
        ("We compare with Mip-NeRF 360 and Instant-NGP.", "instant-ngp"),
        ("Features come from DINOv2.", "dino"),
        ("Masks come from the Segment Anything Model.", "segment-anything-model"),
        ("Detection uses YOLOv8.", "yolo"),
        ("We cast slide classification as multiple instance learning.", "multiple-instance-learning"),
        ("Unlabeled images get pseudo-labels.", "pseudo-labeling"),
        ("Policies are trained with domain randomization.", "domain-randomization"),
        ("Answers improve through multi-agent debate.", "multi-agent-debate"),
        ("We train with a Dice loss.", "dice-loss"),
        ("A cycle-consistency loss ties the two mappings.", "cycle-consistency-loss"),
        ("Safety is enforced by control barrier functions.", "control-barrier-function"),
        ("We learn a diffusion policy from demonstrations.", "diffusion-policy"),
        ("The policy is deployed zero-shot via sim-to-real transfer.", "sim-to-real-transfer"),
        ("We compare behavior cloning with DAgger.", "behavior-cloning"),
        ("We compare behavior cloning with DAgger.", "dagger"),
        ("A visual-inertial odometry front end.", "visual-odometry"),
    ],
)
def test_families_the_vocabulary_grew_by(matcher: MethodMatcher, text: str, slug: str) -> None:
    assert slug in found(matcher, text)


# ------------------------------------------------------------------ ambiguity


@pytest.mark.parametrize(
    ("text", "slug", "counts"),
    [
        ("The SFT data were cleaned.", "instruction-tuning", False),
        ("After SFT and RLHF fine-tuning, the model improves.", "instruction-tuning", True),
        ("An early exit from the market lowers costs.", "early-exit", False),
        ("We use early exit in transformers with knowledge distillation and pruning.", "early-exit", True),
        ("A reasoning model of the economy.", "large-reasoning-model", False),
        (
            "We train a reasoning model with GRPO and chain-of-thought prompting.",
            "large-reasoning-model",
            True,
        ),
        ("We train a neural operator.", "neural-operator", False),
        ("Fourier neural operators and DeepONet are neural operators.", "neural-operator", True),
        ("DoRA is a popular name.", "dora", False),
        ("Unlike LoRA, DoRA decomposes the weights.", "dora", True),
        ("The method has attracted significant attention from the community.", "attention-mechanism", False),
        (
            "We replace attention with state space layers in a transformer with LoRA.",
            "attention-mechanism",
            True,
        ),
    ],
)
def test_ambiguous_labels_need_context(matcher: MethodMatcher, text: str, slug: str, counts: bool) -> None:
    assert (slug in found(matcher, text)) is counts


def test_vllm_in_capitals_is_not_the_serving_library(matcher: MethodMatcher) -> None:
    assert "paged-attention" not in found(matcher, "A VLLM answers questions about images.")
    assert "paged-attention" in found(matcher, "We serve the model with vLLM.")


# ------------------------------------------------------------------ open vocabulary


def test_versioned_model_names_are_concepts_of_their_own_related_to_the_family() -> None:
    text = "We fine-tune Qwen2.5-Omni-7B and Llama-3.2-11B-Vision-Instruct against GPT-4o-mini."
    named = of_kind(mentions("t", text), "named-method")
    assert {m.get("label") for m in named.values()} == {"Qwen2.5-Omni", "Llama-3.2", "GPT-4o-mini"}
    assert named[version_key("Qwen2.5-Omni")].get("related") == "qwen"
    assert named[version_key("GPT-4o-mini")].get("related") == "gpt-4"
    assert named[version_key("Llama-3.2")].text == "Llama-3.2-11B-Vision-Instruct"


def test_a_version_the_vocabulary_holds_is_the_known_concept() -> None:
    ms = mentions("t", "Detection uses YOLOv8 and DINOv2 features.")
    assert {"yolo", "dino"} <= set(of_kind(ms, "method"))
    assert of_kind(ms, "named-method") == {}


def test_coined_names_used_as_methods_count_and_datasets_do_not() -> None:
    ms = mentions("t", "We compare with FastV and SparseVLM baselines on ImageNet-1K and on MMStar.")
    named = of_kind(ms, "named-method")
    assert {"fastv", "sparsevlm"} <= set(named)
    assert not {"imagenet-1k", "mmstar"} & set(named)


def test_a_defined_method_acronym_counts_and_a_defined_task_does_not() -> None:
    ms = mentions(
        "t",
        "The Dual-Direction Attention Mixed Feature Network (DDAMFN) is a strong baseline for "
        "visual question answering (VQA).",
    )
    named = of_kind(ms, "named-method")
    assert "ddamfn" in named and "vqa" not in named


def test_the_papers_own_name_is_introduced_not_mentioned() -> None:
    ms = mentions("FooNet: Fast Nets", "We propose FooNet, a network. FooNet beats ResNet baselines.")
    assert "foonet" in of_kind(ms, "introduced-method")
    assert "foonet" not in of_kind(ms, "named-method")


# ------------------------------------------------------------------ introduced


@pytest.mark.parametrize(
    ("title", "abstract", "introduced", "not_introduced"),
    [
        ("Crab: A Unified Audio-Visual Scene Understanding Model", "", {"crab"}, set()),
        ("Position: Agents Need Memory", "", set(), {"position"}),
        ("Stabilize to Act: Learning to Coordinate", "", set(), {"stabilize-to-act"}),
        ("One-Shot Imitation Learning: A Study", "", set(), {"one-shot-imitation-learning"}),
        ("t", "We propose a new NER approach for clinical notes.", set(), {"ner"}),
        ("t", "We propose FooNet and BarNet for retrieval.", set(), {"foonet-and-barnet"}),
        ("t", "We propose 3D-RoPE-based attention for video.", set(), {"3d-rope-based"}),
        ("t", "We introduce a protocol scored with LLM-as-a-judge.", set(), {"llm-as-a-judge"}),
        (
            "t",
            "We propose FooNet. Uncertainty comes from Monte Carlo Dropout (MCD) at test time.",
            {"foonet"},
            {"mcd", "monte-carlo-dropout"},
        ),
        (
            "t",
            "We introduce simple approaches, Single-stage LMM Augmented CLIP (SLAC) and Two-stage LMM "
            "Augmented CLIP (TLAC).",
            {"slac", "tlac"},
            set(),
        ),
        (
            "t",
            "We propose FooNet for detection. The Perspective Fusion Module (PFM) fuses views and the "
            "Class Discrimination Module (CDM) separates classes.",
            {"foonet", "pfm", "cdm"},
            set(),
        ),
        ("t", "Our method, Odin, couples object discovery and representation networks.", {"odin"}, set()),
        (
            "t",
            "We use the covariance matrix to model redundancy and propose Correlation-Aware Covariance "
            "Weighting (CACW) to adjust it.",
            {"cacw"},
            set(),
        ),
    ],
)
def test_introduced_names(title: str, abstract: str, introduced: set[str], not_introduced: set[str]) -> None:
    got = set(of_kind(mentions(title, abstract), "introduced-method"))
    assert introduced <= got
    assert not (not_introduced & got)


@pytest.mark.parametrize(
    ("title", "abstract", "key", "kind"),
    [
        ("MANGO: A Benchmark for Evaluating Mapping and Navigation", "", "mango", "benchmark"),
        ("VoxAging: Tracking Speaker Aging with a Longitudinal Dataset", "", "voxaging", "dataset"),
        (
            "t",
            "We construct a new evaluation benchmark, FavaBench, that includes human judgments.",
            "favabench",
            "benchmark",
        ),
        (
            "t",
            "We introduce a synthetic dataset FreeGraspData by extending an existing one.",
            "freegraspdata",
            "dataset",
        ),
        ("t", "We collect a Werewolf question-answering dataset (WWQA) to assess LLMs.", "wwqa", "dataset"),
        (
            "t",
            "We created the first DVS video anomaly detection benchmark, namely UCF-Crime-DVS.",
            "ucf-crime-dvs",
            "benchmark",
        ),
    ],
)
def test_new_datasets_and_benchmarks_are_resources(title: str, abstract: str, key: str, kind: str) -> None:
    ms = mentions(title, abstract)
    resources = of_kind(ms, "introduced-resource")
    assert key in resources and resources[key].get("type") == kind
    assert key not in of_kind(ms, "introduced-method")


# ------------------------------------------------------------------ generic concepts


def test_umbrella_concepts_are_marked_generic() -> None:
    concepts = load_taxonomy(taxonomy_path())
    assert {"artificial-neural-network", "language-model", "learning-paradigm", "training-technique",
            "generative-model", "deep-learning", "machine-learning"} <= {s for s, c in concepts.items() if c.generic}  # fmt: skip
    assert not concepts["lora"].generic and not concepts["fine-tuning"].generic


@pytest.mark.parametrize(
    "phrase", ["a new learning paradigm", "training techniques such as these", "a learning setting"]
)
def test_a_generic_family_is_never_matched_from_a_generic_phrase(matcher: MethodMatcher, phrase: str) -> None:
    assert not {"learning-paradigm", "training-technique"} & set(found(matcher, phrase))
