"""A concept means one thing, and introduced means new and named (issue 34).

Each case is a sentence of the kind the at-scale reading of the arXiv days found wrong: collisions of
one short form with two long forms, existing methods a paper defines, plurals of known methods,
LaTeX, dimensions, named components, sentence shapes, typing by the name's own role, bare words that
count only in context, and versioned model names.
"""

from __future__ import annotations

import pytest

from kg.errors import IssueLog
from kg.extractors import methods
from kg.extractors.methods import concept_key, load_taxonomy, name_key, paper_tag, taxonomy_path
from kg.records import Location, Mention, Record, SourceFile, Span

AT = Location("t.bib", 1)


def mentions(title: str, abstract: str = "") -> list[Mention]:
    record = Record(
        "bibtex", SourceFile("t.bib", "t.bib", "0"), AT, title=Span(title, AT), abstract=Span(abstract, AT)
    )
    return list(methods.extract(record, IssueLog()))


def keys(ms: list[Mention], kind: str) -> set[str]:
    return {m.key for m in ms if m.kind == kind}


def texts(ms: list[Mention], kind: str) -> set[str]:
    return {m.text for m in ms if m.kind == kind}


INTRO = "introduced-method"


# ------------------------------------------------------------------ one concept, one meaning


def test_a_short_form_defined_with_two_long_forms_is_two_concepts() -> None:
    a = keys(mentions("t", "We propose Spatial Attention Prompting (SAP), a prompting method."), INTRO)
    b = keys(mentions("u", "We propose Surgical Action Planning (SAP), a planner for robots."), INTRO)
    assert a == {"sap--spatial-attention-prompting"} and b == {"sap--surgical-action-planning"}
    # the same long form (plural or not, hyphen or not) is the same concept
    c = keys(mentions("v", "We introduce Spatial-Attention Promptings (SAP) for detection."), INTRO)
    assert c == a


def test_mixed_case_names_compare_case_sensitively() -> None:
    assert name_key("CoM") != name_key("COM")
    assert name_key("TRACE") == name_key("Trace") == "trace"
    assert name_key("DeepONets") == name_key("DeepONet") == "DeepONet"
    assert keys(mentions("t", "We propose ZetaFormer, a transformer."), INTRO) == {"ZetaFormer"}


def test_a_name_that_does_not_say_which_method_carries_the_papers_tag() -> None:
    """Seven papers introduced seven different TRACEs: without a long form, each is its paper's."""
    a = mentions("TRACE: Temporal Grounding Video LLM via Causal Event Modeling", "")
    b = mentions("TRACE: Tracing Data Provenance in Large Models", "")
    assert keys(a, INTRO) == {"trace--temporal-grounding-video-llm"}
    assert keys(b, INTRO) == {"trace--tracing-data-provenance-in"}
    assert paper_tag("Crab: A Unified Model") == "a-unified-model"
    # a distinctive name is its own key, whichever paper gives it
    assert concept_key("DiffuseLoco", paper="some-paper") == "DiffuseLoco"


def test_the_title_gives_the_long_form_its_initials_spell() -> None:
    ms = mentions(
        "DSCA: Dynamic Subspace Concept Alignment for Lifelong VLM Editing", "We propose DSCA, a method."
    )
    assert keys(ms, INTRO) == {"dsca--dynamic-subspace-concept-alignment"}


# ------------------------------------------------------------------ known methods are never introduced


@pytest.mark.parametrize(
    ("abstract", "slug"),
    [
        ("Test-time adaptation (TTA) adapts models. We propose FooNet for it.", "test-time-adaptation"),
        ("We use Membership Inference Attacks (MIA) to audit the model.", "membership-inference-attack"),
        ("Source-Free Domain Adaptation (SFDA) is hard; we propose FooNet.", "source-free-domain-adaptation"),
        ("We build on Vision-Language Pretraining (VLP) and propose FooNet.", "vision-language-pretraining"),
        ("Agents use Reasoning + Acting (ReACT) prompting; we propose FooNet.", "react"),
        ("We introduce a Chain-of-Thought (CoT)-based scheduling framework.", "chain-of-thought"),
    ],
)
def test_a_defined_existing_method_is_mentioned_not_introduced(abstract: str, slug: str) -> None:
    ms = mentions("t", abstract)
    assert slug in keys(ms, "method")
    assert not {k for k in keys(ms, INTRO) if not k.startswith("FooNet")}


@pytest.mark.parametrize(
    "abstract",
    [
        "We propose LoRAs for image editing.",
        "We introduce ViTs for segmentation.",
        "We propose Gaussian Splatting for scenes.",
        "We propose deep operator networks (DeepONets) for PDEs.",
        "Building on Generalized Reinforcement Policy Optimization (GRPO), TACO introduces consistency.",
    ],
)
def test_a_method_the_vocabulary_knows_is_never_introduced(abstract: str) -> None:
    assert keys(mentions("t", abstract), INTRO) <= {"TACO"}


def test_a_known_acronym_defined_as_something_else_is_new() -> None:
    ms = mentions("t", "We propose FooNet with a novel Semantic Alignment Head (SAM) for fusion.")
    assert "sam--semantic-alignment-head" in keys(ms, INTRO)
    assert "segment-anything-model" not in keys(ms, "method")


# ------------------------------------------------------------------ names, not markup or fragments


@pytest.mark.parametrize(
    ("abstract", "label"),
    [
        (r"We propose $ALLaM-34B$, a bilingual model.", "ALLaM"),
        (r"We propose \textbf{LUMEN}, a light model.", "LUMEN"),
        (r"We propose M$^2$D-LIF, a spiking model.", "M2D-LIF"),
        (r"We propose M\textsuperscript{4}Fuse, a fusion network.", "M4Fuse"),
        (r"We propose B\'ezierGS, a splatting method.", "BézierGS"),
        (r"We propose Knowledge-Oriented Behavior Exploration (\textbf{UI-KOBE}), a framework.", "UI-KOBE"),
        (
            r"We propose an $\textbf{A}$daptive $\textbf{D}$ata $\textbf{R}$efinement Framework ($\textbf{ADR}$).",
            "ADR",
        ),
    ],
)
def test_latex_is_removed_before_matching(abstract: str, label: str) -> None:
    labels = texts(mentions("t", abstract), INTRO)
    assert label in labels, labels
    assert not any(c in "".join(labels) for c in "$\\{}^")


def test_a_formula_gives_no_name() -> None:
    ms = mentions("t", r"We propose FooNet, an $\mathrm{SE}(3)$-equivariant network with $O(n)$ cost.")
    assert texts(ms, INTRO) == {"FooNet"}


@pytest.mark.parametrize(
    "abstract",
    [
        "We propose 3D, a new view of the scene.",
        "We introduce 2.5D representations for mapping.",
        "We release 334K, a set of images.",
        "We propose 3D-RoPE-based attention.",
        "We propose an LLM-native progressive-disclosure scheme.",
    ],
)
def test_no_bare_dimensions_or_fragments(abstract: str) -> None:
    assert keys(mentions("t", abstract), INTRO) == set()


# ------------------------------------------------------------------ components and sentence shapes


def test_named_components_of_the_papers_method() -> None:
    ms = mentions(
        "t",
        "We propose ManimStudio, a multi-agent system. It consists of three agents: PlannerAgent, "
        "CoderAgent and ManimAgent. We further design the novel AuralFuser module to fuse audio.",
    )
    assert {"ManimStudio", "PlannerAgent", "CoderAgent", "ManimAgent", "AuralFuser"} <= texts(ms, INTRO)


def test_components_are_not_parts_of_a_comparison() -> None:
    ms = mentions(
        "t", "We propose FooNet. Using a lightweight ResNet-34 network, it outperforms BarAgent modules."
    )
    assert texts(ms, INTRO) == {"FooNet"}


@pytest.mark.parametrize(
    ("abstract", "names"),
    [
        ("Stage III introduces the Stepwise Refiner (SR) to polish outputs.", {"SR"}),
        ("We introduce FooNet and BarBench for retrieval.", {"FooNet", "BarBench"}),
        ("We present ZooNet, a model for X, and ZooBench, a benchmark for Y.", {"ZooNet", "ZooBench"}),
        ("To this end, a novel framework, QuuxNet, is proposed.", {"QuuxNet"}),
        ("QuuxNet is introduced to solve routing.", {"QuuxNet"}),
        (
            "We develop a reinforcement learning (RL) primitive, the Dataset Policy Gradient (DPG), here.",
            {"DPG"},
        ),
        ("Building on recent work on sparse SSMs, we propose Flash PD-SSM, a novel SSM.", {"Flash PD-SSM"}),
    ],
)
def test_sentence_shapes(abstract: str, names: set[str]) -> None:
    ms = mentions("t", abstract)
    assert names <= texts(ms, INTRO) | texts(ms, "introduced-resource")


@pytest.mark.parametrize(
    "abstract",
    [
        "Existing work attributes this decay to mismatch and proposes test-time training (TTT) as a remedy.",
        "This research introduces a novel application of the Neural Gas Network (NGN) algorithm.",
        "We propose a novel approach for constructing MMKGs from images.",
        "We propose a Theory-of-Mind uncertainty estimation mechanism.",
        "We use skeletal features derived from Spatio-Tempo Graph Conv Networks (STGCNs) in our FooNet.",
        "Benchmarks such as MMLU, ARC-C, or HellaSwag, where questions are presented in order.",
        "We propose a new learning task for MLLMs, termed Grounded Chain-of-Thought (GCoT).",
        "We propose a novel task of predicting whether a corpus is out-of-distribution (OOD) before indexing.",
        "We design a pipeline that constructs realistic spatial reasoning QAs at scale.",
    ],
)
def test_sentence_shapes_that_introduce_nothing(abstract: str) -> None:
    assert keys(mentions("t", abstract), INTRO) <= {"FooNet"}


def test_a_title_phrase_is_no_name() -> None:
    ms = mentions(
        "Reliability-Oriented Multilingual Orthopedic Diagnosis: A Domain-Adaptive Modeling Framework"
    )
    assert keys(ms, INTRO) == set()
    assert texts(mentions("YOLO-IOD: Towards Real Time Incremental Object Detection"), INTRO) == {"YOLO-IOD"}


# ------------------------------------------------------------------ dataset or method: the name's own role


@pytest.mark.parametrize(
    ("title", "abstract", "name", "kind"),
    [
        (
            "DiffuseLoco: Real-Time Legged Locomotion Control with Diffusion from Offline Datasets",
            "",
            "DiffuseLoco",
            "",
        ),
        ("t", "We present MILES, a fully autonomous, self-supervised data collection paradigm.", "MILES", ""),
        ("t", "We propose FlowRetrieval, which retrieves prior data with optical flow.", "FlowRetrieval", ""),
        ("t", "We present SynthOCR-Gen, an open-source synthetic OCR dataset generator.", "SynthOCR-Gen", ""),
        (
            "t",
            "We introduce VeBrain-600k, a high-quality instruction dataset encompassing skills.",
            "VeBrain-600k",
            "dataset",
        ),
        (
            "t",
            "We introduce BiomedSQL, the first benchmark explicitly designed for SQL.",
            "BiomedSQL",
            "benchmark",
        ),
        (
            "t",
            "We introduce Terra Nova, a new comprehensive challenge environment (CCE) for agents.",
            "Terra Nova",
            "benchmark",
        ),
        (
            "t",
            "We introduce COCO-Open, an expanded version of the existing COCO-Mixed dataset.",
            "COCO-Open",
            "dataset",
        ),
    ],
)
def test_dataset_or_method_by_the_names_own_role(title: str, abstract: str, name: str, kind: str) -> None:
    ms = mentions(title, abstract)
    by_text = {m.text: m for m in ms if m.kind in (INTRO, "introduced-resource")}
    assert name in by_text, by_text
    found = by_text[name]
    assert (found.kind == "introduced-resource") is bool(kind)
    if kind:
        assert found.get("type") == kind


# ------------------------------------------------------------------ bare words count only in context


@pytest.mark.parametrize(
    ("text", "slug", "counts"),
    [
        ("The model reaches 40% zero-shot accuracy.", "zero-shot-learning", False),
        ("We evaluate in zero-shot and few-shot settings.", "zero-shot-learning", True),
        ("Zero-shot learning is hard; our zero-shot model works.", "zero-shot-learning", True),
        ("We apply distillation to LoRA and quantization.", "knowledge-distillation", False),
        ("A teacher guides the student via distillation.", "knowledge-distillation", True),
        ("Quantum gates and logic gates are compiled with attention.", "gating-mechanism", False),
        ("Gated units use gates to route tokens to experts.", "gating-mechanism", True),
    ],
)
def test_bare_words_count_only_in_context(text: str, slug: str, counts: bool) -> None:
    assert (slug in keys(mentions("t", text), "method")) is counts


# ------------------------------------------------------------------ vocabulary grown where the misses point


@pytest.mark.parametrize(
    ("text", "slug"),
    [
        ("We study post-training of LLMs.", "post-training"),
        ("A truncated SVD compresses the weights.", "singular-value-decomposition"),
        ("Flow is estimated with optical flow.", "optical-flow"),
        ("We minimise the loss by empirical risk minimization.", "empirical-risk-minimization"),
        ("Camera and LiDAR are combined by sensor fusion.", "sensor-fusion"),
        ("The signal goes through a short-time Fourier transform.", "short-time-fourier-transform"),
        ("A whole-body controller stabilises the humanoid.", "whole-body-control"),
        ("We cluster with k-means.", "k-means"),
        ("We augment the training data with flips.", "data-augmentation"),
        ("An auto-regressive decoder writes tokens.", "autoregressive-model"),
        ("We pretrain with mask modeling.", "masked-modeling"),
        ("Deep generative models learn densities.", "generative-model"),
        ("We fine-tune Wan2.1 and LTXV-13B for video.", "wan"),
        ("We fine-tune Wan2.1 and LTXV-13B for video.", "ltx-video"),
        ("Seed-OSS-36B answers.", "seed-oss"),
        ("EquiFormerV2 predicts energies.", "equiformer"),
        ("LayoutLMv3 reads documents.", "layoutlm"),
        ("RT-2 and Octo act; π0 and GR00T too.", "robotics-transformer"),
        ("RT-2 and Octo act; π0 and GR00T too.", "octo"),
    ],
)
def test_vocabulary_where_the_misses_point(text: str, slug: str) -> None:
    assert slug in keys(mentions("t", text), "method")


def test_lumped_models_are_concepts_of_their_own() -> None:
    ms = keys(mentions("t", "We compare Sora, CogVideoX, HunyuanVideo and Stable Video Diffusion."), "method")
    assert {"sora", "cogvideox", "hunyuanvideo", "stable-video-diffusion"} <= ms


def test_paradigms_are_marked() -> None:
    concepts = load_taxonomy(taxonomy_path())
    paradigms = {slug for slug, c in concepts.items() if c.paradigm}
    assert {"large-language-model", "fine-tuning", "pretraining", "zero-shot-learning"} <= paradigms
    assert not {"grpo", "dpo", "mixture-of-experts", "flow-matching", "lora"} & paradigms
    assert concepts["generative-model"].generic and "generative-model" not in {
        s for s, c in concepts.items() if not c.broader
    }


def test_versioned_names_are_one_concept_however_spaced() -> None:
    named = {
        m.key
        for m in mentions("t", "We compare Qwen 2.5, Qwen-2.5 and Qwen2.5 against GPT-4.1 3.412.")
        if m.kind == "named-method"
    }
    assert named == {"qwen2-5"}


def test_the_papers_own_name_is_one_concept_in_title_and_abstract() -> None:
    ms = mentions(
        "UI-KOBE: Behavior Exploration", r"We propose Knowledge-Oriented Behavior Exploration (UI-KOBE)."
    )
    assert keys(ms, INTRO) == {"ui-kobe--knowledge-oriented-behavior-exploration"}
    ms = mentions("FooNet: Fast Nets", "We propose FooNet, a network. FooNet beats ResNet baselines.")
    assert keys(ms, INTRO) == {"FooNet"} and not keys(ms, "named-method")


def test_a_new_name_built_on_a_known_one_is_named_and_joins_its_introducer() -> None:
    """Paper A's title introduces Flow-GRPO; paper B "applies Flow-GRPO": one concept, related to GRPO."""
    a = mentions("Flow-GRPO: Training Flow Matching Models via Online RL", "")
    b = mentions("t", "Starting from a VLM, we apply Flow-GRPO with LoRA adaptation.")
    (named,) = [m for m in b if m.kind == "named-method"]
    assert keys(a, INTRO) == {named.key} and named.get("related") == "grpo"
    assert "grpo" in keys(b, "method")


def test_meet_in_a_title_is_no_part_of_the_name() -> None:
    ms = mentions("Meet UD_Czech-PDTC: A Large and Genre-Rich Treebank in Universal Dependencies")
    assert [(m.text, m.get("type")) for m in ms if m.kind == "introduced-resource"] == [
        ("UD_Czech-PDTC", "dataset")
    ]
