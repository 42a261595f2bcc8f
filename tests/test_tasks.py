"""Tests of the tasks extractor: task forms and abbreviations, broader tasks, open task phrases, umbrella
tasks, main tasks, dataset variants and splits, evaluation contexts that are not datasets, and the key a
dataset shares with the paper that introduces it."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kg.errors import IssueLog
from kg.extractors import methods, tasks
from kg.extractors.tasks.words import compact, label_key, words
from kg.records import Location, Mention, Record, SourceFile, Span

AT = Location("t.txt", 1)


def extract(title: str = "", abstract: str = "") -> list[Mention]:
    record = Record(
        "t", SourceFile("t.txt", "0" * 64, "t"), AT, title=Span(title, AT) if title else None,
        abstract=Span(abstract, AT) if abstract else None,
    )  # fmt: skip
    return list(tasks.extract(record, IssueLog()))


def task_keys(title: str = "", abstract: str = "") -> set[str]:
    return {m.key for m in extract(title, abstract) if m.kind == "task"}


def dataset_keys(title: str = "", abstract: str = "") -> set[str]:
    return {m.key for m in extract(title, abstract) if m.kind == "dataset"}


# ---------------------------------------------------------------- tasks: forms and abbreviations


@pytest.mark.parametrize(
    ("text", "slug"),
    [
        ("We evaluate on VQA and report gains.", "visual-question-answering"),
        ("Experiments on NER show gains.", "named-entity-recognition"),
        ("We study ASR for low-resource languages.", "speech-recognition"),
        ("a question-answering system", "question-answering"),
        ("We tackle visual question answering.", "visual-question-answering"),
        ("We tackle Visual-Question-Answering.", "visual-question-answering"),
        ("We address object localisation in clutter.", "object-localization"),
        ("methods for text-to-image generation", "text-to-image-generation"),
        ("we study text to image generation", "text-to-image-generation"),
        ("we improve language modelling", "language-modeling"),
        ("we address 3D object detections", "3d-object-detection"),
    ],
)
def test_known_tasks_in_every_form(text: str, slug: str) -> None:
    assert slug in task_keys(abstract=text)


def test_an_acronym_counts_only_in_capitals() -> None:
    assert "named-entity-recognition" not in task_keys(abstract="The ner of the river was high.")
    assert "visual-question-answering" not in task_keys(abstract="We use vqa as a word here.")


def test_the_task_record_says_what_matched_and_where() -> None:
    text = "We address 3D object detection in driving scenes."
    [m] = [m for m in extract(abstract=text) if m.key == "3d-object-detection"]
    assert m.text == "3D object detection"
    assert text[m.position : m.position + len(m.text)] == m.text
    assert m.get("label") == "3D object detection" and m.get("open") == "" and m.extractor == "tasks"


# ---------------------------------------------------------------- tasks: broader, open phrases, umbrellas


def test_known_tasks_have_broader_tasks_in_the_scheme() -> None:
    concepts = tasks.default_finder().tasks.concepts
    assert "object-detection" in concepts["3d-object-detection"].broader
    assert "image-classification" in concepts["few-shot-image-classification"].broader
    assert concepts["computer-vision"].area and not concepts["object-detection"].area


def test_an_open_phrase_is_a_task_of_its_own_under_the_known_task_it_ends_in() -> None:
    [m] = [
        m
        for m in extract(title="Enhancing Remote Sensing Object Detection via Class Integration")
        if m.kind == "task"
    ]
    assert m.key == "remote-sensing-object-detection"
    assert m.get("open") == "true" and m.get("broader") == "object-detection"
    assert m.get("label") == "remote sensing object detection"  # the verb is no part of it


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ("We address crowd forecasting in dense scenes.", "crowd-forecasting"),
        ("We tackle valence-arousal estimation, emotion recognition and more.", "valence-arousal-estimation"),
        ("Category-level object pose estimation aims to predict the pose of unseen objects.",
         "category-level-object-pose-estimation"),
        ("We evaluate on three manipulation planning tasks.", "manipulation-planning"),
    ],
)  # fmt: skip
def test_open_task_phrases_named_as_tasks(text: str, key: str) -> None:
    assert key in task_keys(abstract=text)


@pytest.mark.parametrize(
    "text",
    [
        "The accurate crowd forecasting improves safety.",  # no context that names it as a task
        "We report detection heads and manipulation skills.",  # the task word leads a noun
        "We use feature extraction and Monte Carlo estimation.",  # a method's step, a method's doing
    ],
)
def test_task_shaped_phrases_that_are_no_tasks(text: str) -> None:
    assert not {k for k in task_keys(abstract=text) if k not in tasks.default_finder().tasks.concepts}


def test_umbrella_tasks_are_generic_and_count_only_as_a_title_task() -> None:
    concepts = tasks.default_finder().tasks.concepts
    assert concepts["classification"].generic and concepts["reasoning"].generic
    assert "classification" not in task_keys(abstract="We test on several classification tasks.")
    assert "reasoning" in task_keys(title="Improving Reasoning Tasks with Plans")


def test_an_umbrella_task_counts_where_a_paper_is_evaluated_on_it() -> None:
    """ "Experiments on eight reasoning tasks" says what the paper is evaluated on; a task of its own
    joined by a hyphen ("state-tracking tasks") is not the umbrella, and an umbrella is never the main
    task a paper is given when it names no other."""
    found = extract(abstract="We propose X. Experiments on eight reasoning benchmarks show it outperforms Y.")
    assert [(m.key, m.get("main")) for m in found if m.kind == "task"] == [("reasoning", "false")]
    assert "tracking" not in task_keys(abstract="Experiments on state-tracking tasks show gains.")
    assert "reasoning" not in task_keys(abstract="Reasoning tasks are hard for small models.")


def test_a_way_of_looking_is_no_task() -> None:
    assert not task_keys(abstract="We study attention from the perspective of visual navigation.")
    assert "visual-navigation" in task_keys(abstract="We study visual navigation in homes.")


def test_a_title_verb_and_its_object_name_the_main_task() -> None:
    """ "Tracking Speaker Aging" is speaker aging tracking; the object of the verb is a task's leading
    words, not a means a method builds ("Synthesizing Navigation Abstractions")."""
    found = extract(title="VoxAging: Continuously Tracking Speaker Aging with a Longitudinal Dataset")
    assert [(m.get("label"), m.get("main")) for m in found if m.kind == "task"] == [
        ("speaker aging tracking", "true")
    ]
    assert "object-detection" in task_keys(title="Detecting Objects in Fog")
    assert "object-detection" in task_keys(title="Can Cameras See? Detecting Objects in Fog")
    assert not task_keys(title="Synthesizing Navigation Abstractions for Portable Skills")
    assert not task_keys(title="Generating a Realistic Iris Database")


def test_outputs_in_the_plural_and_measures_are_no_tasks() -> None:
    """ "teacher predictions" are what a model outputs; "semantic similarity" is a measure far more often
    than the task (semantic textual similarity); "binary classification" a formulation."""
    text = "The student matches the teacher predictions; we score the semantic similarity of answers."
    assert not task_keys(abstract=text)
    assert not task_keys(abstract="We address binary classification of tumours.") - {"classification"}
    assert task_keys(title="Group Recommendations with LLMs") == {"group-recommendations"}


def test_visual_multimodal_and_vision_language_understanding_are_three_tasks() -> None:
    finder = tasks.default_finder()
    assert "multimodal-understanding" in finder.tasks.concepts["vision-language-understanding"].broader
    assert "visual-understanding" in task_keys(title="Visual Understanding in Small Models")
    assert "multimodal-understanding" in task_keys(title="Multimodal Understanding in Small Models")


def test_one_phrasing_per_open_task_of_a_paper() -> None:
    found = extract(
        title="Underwater 3D Scene Reconstruction from Sonar",
        abstract="We study underwater scene reconstruction in murky water.",
    )
    assert {m.get("label") for m in found if m.kind == "task"} == {"underwater 3D scene reconstruction"}


def test_a_papers_with_code_task_named_by_one_word_counts_only_in_context() -> None:
    """ "Denoising" alone is ambiguous (denoising diffusion): the task needs "denoising tasks"."""
    finder = tasks.default_finder()
    [denoising] = [c for c in finder.tasks.concepts.values() if c.pref.lower() == "denoising"]
    assert denoising.ambiguous
    assert denoising.slug not in task_keys(abstract="We train a denoising diffusion model.")


# ---------------------------------------------------------------- main tasks


def test_main_tasks_are_the_titles_and_those_the_paper_says_it_addresses() -> None:
    found = extract(
        title="SFMNet: Sparse Focal Modulation for 3D Object Detection",
        abstract="Autonomous driving needs perception. In this paper we address semantic segmentation of "
        "point clouds. We also report results for image captioning as a side experiment.",
    )
    main = {m.key: m.get("main") for m in found if m.kind == "task"}
    assert main["3d-object-detection"] == "true"
    assert main["semantic-segmentation"] == "true"
    assert main["image-captioning"] == "false"


def test_without_a_title_task_the_first_task_of_the_abstract_is_main() -> None:
    found = [
        m
        for m in extract(
            title="Tales of Two Cities", abstract="Speech recognition is hard. Also image captioning."
        )
    ]
    assert [m.key for m in found if m.get("main") == "true"] == ["speech-recognition"]


# ---------------------------------------------------------------- datasets: variants and splits


@pytest.mark.parametrize(
    ("text", "slug"),
    [
        ("We report results on COCO test-dev.", "coco"),
        ("We report results on MS COCO.", "coco"),
        ("We report results on MS-COCO val2017.", "coco"),
        ("We pretrain on ImageNet-1k.", "imagenet"),
        ("We pretrain on ImageNet-1K.", "imagenet"),
        ("Experiments on THUMOS-14 show gains.", "thumos14"),
        ("Experiments on CIFAR10 show gains.", "cifar-10"),
        ("We evaluate on PASCAL VOC 2012.", "pascal-voc"),
        ("We test on ScanNet++ scenes and on GSM8K.", "scannet-plus-plus"),
    ],
)
def test_variants_and_splits_resolve_to_the_dataset(text: str, slug: str) -> None:
    assert slug in dataset_keys(abstract=text)


def test_distinct_datasets_stay_distinct() -> None:
    keys = dataset_keys(abstract="We evaluate on ImageNet-C, ImageNet-R and CIFAR-100, and CIFAR-10.")
    assert {"imagenet-c", "imagenet-r", "cifar-100", "cifar-10"} <= keys
    assert "imagenet" not in keys


def test_a_name_after_a_known_datasets_name_is_its_variant() -> None:
    [m] = [m for m in extract(abstract="Experiments on ActivityNet-RTL show gains.") if m.kind == "dataset"]
    assert m.key == "ActivityNet-RTL" and m.get("variant-of") == "activitynet"


def test_an_ambiguous_name_counts_only_in_an_evaluation_context() -> None:
    assert "math" not in dataset_keys(abstract="MATH is a subject students dread.")
    assert "math" in dataset_keys(abstract="We evaluate on GSM8K and MATH, improving accuracy.")
    assert "math" in dataset_keys(abstract="Results on the MATH benchmark improve.")


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ("Experiments on the NWPU VHR-10 dataset show gains.", "nwpu-vhr10"),
        (
            "Our results on logical reasoning benchmarks such as FOLIO and LogicAsker show gains.",
            "LogicAsker",
        ),
        ("Our method achieved SOTA results on multiple dialect datasets, including Kespeech.", "kespeech"),
        ("We evaluate against baselines on BigMathDigits, improving calibration.", "BigMathDigit"),
        (
            "Extensive experiments on the GuoFeng discourse-level translation benchmark validate it.",
            "GuoFeng",
        ),
        ("We also score models on FooBench.", "FooBench"),
    ],
)
def test_open_dataset_names_in_evaluation_contexts(text: str, key: str) -> None:
    assert key in dataset_keys(abstract=text)


@pytest.mark.parametrize(
    "text",
    [
        "Training takes two days on A100 GPUs and on TPUs.",  # hardware
        "We fine-tune on Llama-3-8B and on Qwen2.5-7B, improving accuracy.",  # models
        "We evaluate on SANA-1.0-1.6B as a base model and report results.",  # a model by its size
        "Results on GUI agents and on UAV imagery show gains.",  # a name that leads a noun
        "We evaluate two FHIR-based clinical benchmarks.",  # a modifier
        "Experiments on diverse CAD datasets show gains.",  # a kind of data, not a name
        "Robots run on MuJoCo and in Isaac Gym in our experiments.",  # simulators
        "We report accuracy on 3D and 2D inputs with 7B models.",  # dimensions and sizes
        "long-form visual question answers (LFVQA) and LFVQA examples",  # a short form of a task
        "We evaluate GPT-4 and LLaMA on the test set.",  # methods of the method scheme
    ],
)
def test_evaluation_contexts_that_are_not_datasets(text: str) -> None:
    assert dataset_keys(abstract=text) == set()


# ---------------------------------------------------------------- introduced and used: one concept


def test_the_papers_own_dataset_is_no_dataset_it_uses() -> None:
    text = "We introduce a synthetic dataset FreeGraspData by extending the MetaGraspNetV2 dataset. We test on FreeGraspData."
    assert dataset_keys(abstract=text) == {"MetaGraspNetV2"}
    assert (
        dataset_keys(title="PEBench: A Fictitious Dataset", abstract="Results on PEBench show gaps.") == set()
    )


def test_a_dataset_introduced_by_one_paper_and_used_by_another_has_one_key() -> None:
    """The key of a used dataset no list holds is the key the paper introducing it gives it, so the two
    papers' links meet in one concept (``kg.extractors.methods.name_key`` of the name)."""
    at = AT
    source = SourceFile("t.txt", "0" * 64, "t")
    introducing = Record("t", source, at, title=Span("ZorbQA: A Benchmark for Zorb Questions", at),
                         abstract=Span("We introduce ZorbQA, a benchmark of questions about zorbs.", at))  # fmt: skip
    introduced = {m.key for m in methods.extract(introducing, IssueLog()) if m.kind == "introduced-resource"}
    using = dataset_keys(abstract="We evaluate our method on ZorbQA and on MMLU, improving accuracy.")
    assert "ZorbQA" in introduced and "ZorbQA" in using


# ---------------------------------------------------------------- the extractor as a whole


def test_the_extractor_declares_its_kinds() -> None:
    found = extract(title="Object Detection on COCO", abstract="We evaluate on COCO and nuScenes.")
    assert {m.kind for m in found} <= set(tasks.KINDS) and tasks.NAME == "tasks"


def test_words_and_keys() -> None:
    ws = words("Visual-Inertial Odometry, (VIO) for self-driving.")
    assert ws.text == ["Visual", "Inertial", "Odometry", "VIO", "for", "self", "driving"]
    assert ws.broken == [True, False, False, True, True, False, False]
    assert ws.hyphened == [False, True, False, False, False, False, True]
    assert (
        label_key("Visual-Inertial  Odometry")
        == "visual inertial odometry"
        == label_key("visual inertial odometry")
    )
    assert compact("MS-COCO") == compact("MS COCO") == "mscoco"


@settings(max_examples=60, deadline=None)
@given(st.text(max_size=400))
def test_any_text_gives_mentions_whose_text_is_where_it_says(text: str) -> None:
    for m in extract(abstract=text):
        assert text[m.position : m.position + len(m.text)] == m.text
        assert m.key and m.kind in tasks.KINDS


def test_the_text_is_as_written_where_markup_was_blanked() -> None:
    text = 'We address \\textit{crowd forecasting} and report results on the "GSM8K" benchmark.'
    found = extract(abstract=text)
    for m in found:
        assert text[m.position : m.position + len(m.text)] == m.text
    assert {"crowd-forecasting", "gsm8k"} <= {m.key for m in found}


def test_hostile_and_long_text_is_handled() -> None:
    text = ("<script>alert(1)</script> \\textbf{ImageNet} " + "x" * 5000 + " on COCO " * 2000)[
        : tasks.MAX_CHARS + 10
    ]
    found = extract(title="Object Detection", abstract=text)
    assert "coco" in {m.key for m in found if m.kind == "dataset"}


def test_a_joining_word_never_leads_a_task_and_file_formats_are_no_datasets() -> None:
    """Seen on the eighteen arXiv days: "Pointing-to-Object Detection" gave "to object detection",
    "export formats (YOLO, COCO, CSV)" the dataset CSV."""
    title = "VistaRef: Boosting Spatial Orientation Awareness for Pointing-to-Object Detection"
    assert task_keys(title=title) == {"object-detection"}
    assert "CSV" not in dataset_keys(abstract="It exports several formats (YOLO, COCO, Pascal VOC, CSV).")


def test_an_understanding_of_something_is_no_task_in_an_abstract() -> None:
    assert not task_keys(abstract="It gives a deeper, interpretable understanding of model behavior.")
    assert task_keys(title="Abstractive Visual Understanding of Structured Charts")


def test_a_tasks_one_word_name_is_no_dataset_and_an_image_size_is_a_setting() -> None:
    """Seen on the eighteen arXiv days: "VideoQA" was a dataset of its own, "ImageNet 256x256" a dataset
    apart from ImageNet."""
    text = "We evaluate on tasks including VideoQA and TableQA, and on ImageNet 256x256 and FFHQ 1024 x 1024."
    assert dataset_keys(abstract=text) == {"imagenet", "ffhq"}
    assert "video-question-answering" in task_keys(abstract=text)


def test_recommendations_given_as_advice_are_no_recommendation_task() -> None:
    assert "recommendation" not in task_keys(
        abstract="We provide actionable recommendations to practitioners."
    )
    assert "recommendation" in task_keys(abstract="We study recommendation for e-commerce users.")
    assert "recommendation" in task_keys(title="What LLMs Miss in Recommendations")


def test_an_acronym_the_text_defines_as_something_else_is_not_the_task() -> None:
    """Seen on the eighteen arXiv days: "Attack Success Rate (ASR)" gave speech recognition."""
    assert "speech-recognition" not in task_keys(
        abstract="It lowers the Attack Success Rate (ASR). ASR drops."
    )
    assert "speech-recognition" in task_keys(
        abstract="We study automatic speech recognition (ASR). ASR errs."
    )
    text = "We study out-of-distribution (OOD) detection. OOD scores improve."
    assert "out-of-distribution-detection" in task_keys(abstract=text)


def test_a_task_word_that_starts_a_hyphenated_compound_ends_no_task() -> None:
    """ "Dynamic Subgraph Retrieval-Augmented LLMs", "segmentation-driven": a compound's first part."""
    assert not task_keys(title="DrKGC: Dynamic Subgraph Retrieval-Augmented LLMs for Graphs")
    assert "semantic-segmentation" not in task_keys(
        title="A Semantic Segmentation-Driven Approach to Navigation"
    )
    assert "semantic-segmentation" in task_keys(title="A Driven Approach to Semantic Segmentation")


def test_a_web_address_names_no_task() -> None:
    assert not task_keys(
        abstract="Code: https://github.com/x/deepfake-detection and www.a.org/image-retrieval."
    )


def test_a_titles_means_and_a_compound_fragment_are_no_tasks() -> None:
    """ "via Reinforcement Planning" is how; "in-the-wild Video Amodal Completion" is not "wild ..."."""
    assert not task_keys(title="Latent World Models for Prompt Optimization via Reinforcement Planning")
    found = extract(title="TACO: Taming Diffusion for in-the-wild Video Amodal Completion")
    assert [m.get("label") for m in found if m.kind == "task"] == ["video amodal completion"]


def test_a_benchmark_name_ending_in_bench_is_whole_and_gpus_are_no_datasets() -> None:
    text = "Results on MMT-Bench show gains. We evaluate on XLRS-Bench, 2.7x faster on H200 and Orin."
    assert dataset_keys(abstract=text) == {"xlrs-bench", "mmt-bench"}


def test_names_listed_with_a_name_the_paper_introduces_are_its_own_too() -> None:
    text = "Experiments on our proposed WeatherKITTI and WeatherNCLT datasets and on nuScenes show gains."
    assert dataset_keys(abstract=text) == {"nuscenes"}


def test_an_abbreviated_task_word_is_the_known_task_spelt_out() -> None:
    # one task, not an open "open-ended QA" beside the known open-ended question answering
    text = "We study open-ended QA on long documents. Our method improves open-ended question answering."
    assert task_keys("", text) == {"open-ended-question-answering"}
