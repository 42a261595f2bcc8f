"""Tests of the method extractor: ambiguity rules, abbreviations, introduced methods, hostile text, seeds."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kg.errors import IssueLog
from kg.extractors import methods
from kg.extractors.methods import MethodMatcher, bare_key, find_abbreviations, slugify
from kg.records import Location, Record, SourceFile, Span

ROOT = Path(__file__).resolve().parents[1]
GOLD = ROOT / "tests" / "gold" / "seed_annotations.json"
FAMILIES = ("lora", "diffusion-model", "state-space-model", "weight-decay")

# A small taxonomy in the shape of ontology/methods.ttl, so the rules are tested independently of it.
# Ambiguous labels are hidden labels (they count only in context), as make_methods.py writes them.
FIXTURE_TTL = """\
@prefix skos: <http://www.w3.org/2004/02/skos/core#> .
@prefix m: <https://w3id.org/kg/method/> .

m:scheme a skos:ConceptScheme .
m:fine-tuning a skos:Concept ; skos:inScheme m:scheme ; skos:prefLabel "fine-tuning"@en .
m:lora a skos:Concept ; skos:inScheme m:scheme ; skos:prefLabel "low-rank adaptation"@en ;
    skos:altLabel "LoRA"@en, "low-rank adapter"@en ; skos:broader m:fine-tuning .
m:qlora a skos:Concept ; skos:inScheme m:scheme ; skos:prefLabel "QLoRA"@en ; skos:broader m:lora .
m:diffusion-model a skos:Concept ; skos:inScheme m:scheme ; skos:prefLabel "diffusion model"@en ;
    skos:altLabel "diffusion"@en, "DDPM"@en, "denoising diffusion probabilistic model"@en, "score-based generative model"@en ;
    skos:hiddenLabel "DM"@en .
m:latent-diffusion-model a skos:Concept ; skos:inScheme m:scheme ; skos:prefLabel "latent diffusion model"@en ;
    skos:altLabel "Stable Diffusion"@en ; skos:broader m:diffusion-model .
m:state-space-model a skos:Concept ; skos:inScheme m:scheme ; skos:prefLabel "state space model"@en ;
    skos:hiddenLabel "SSM"@en, "S4"@en, "S5"@en .
m:mamba a skos:Concept ; skos:inScheme m:scheme ; skos:prefLabel "Mamba"@en ; skos:broader m:state-space-model .
m:weight-decay a skos:Concept ; skos:inScheme m:scheme ; skos:prefLabel "weight decay"@en ; skos:hiddenLabel "WD"@en .
m:adamw a skos:Concept ; skos:inScheme m:scheme ; skos:prefLabel "AdamW"@en ; skos:related m:weight-decay .
m:transformer a skos:Concept ; skos:inScheme m:scheme ; skos:prefLabel "Transformer"@en .
m:quantization a skos:Concept ; skos:inScheme m:scheme ; skos:prefLabel "quantization"@en .
m:pinn a skos:Concept ; skos:inScheme m:scheme ; skos:prefLabel "physics-informed neural network"@en ;
    skos:altLabel "PINN"@en .
"""


@pytest.fixture(scope="module")
def matcher(tmp_path_factory: pytest.TempPathFactory) -> MethodMatcher:
    path = tmp_path_factory.mktemp("taxonomy") / "methods.ttl"
    path.write_text(FIXTURE_TTL, encoding="utf-8")
    return MethodMatcher(path)


@pytest.fixture(params=["fixture", "repository"])
def any_matcher(request: pytest.FixtureRequest, matcher: MethodMatcher) -> MethodMatcher:
    """The ambiguity rules must hold with the fixture taxonomy and with the repository's."""
    return matcher if request.param == "fixture" else _repo_matcher()


def slugs(m: MethodMatcher, text: str) -> list[str]:
    return [x.slug for x in m.find(text)]


# The gold guidelines (tests/gold/README.md) do not count linear attention or linear RNNs as
# state-space models unless SSMs are named; the taxonomy files them under state-space-model too
# (polyhierarchy), so the family of a match is found without passing through them.
def family_of(m: MethodMatcher, slug: str) -> set[str]:
    """The families a concept counts for: itself or an ancestor (``skos:broader``, transitively)."""
    seen: set[str] = set()
    todo = [slug]
    while todo:
        s = todo.pop()
        if s in seen or s not in m.concepts:
            continue
        seen.add(s)
        todo.extend(m.concepts[s].broader)
    return seen & set(FAMILIES)


def families(m: MethodMatcher, text: str) -> set[str]:
    found: set[str] = set()
    for x in m.find(text):
        found |= family_of(m, x.slug)
    return found


# ---------------------------------------------------------------- known methods and variants


@pytest.mark.parametrize(
    ("text", "slug"),
    [
        ("We fine-tune with LoRA adapters.", "lora"),
        ("LoRA-based methods are cheap.", "lora"),
        ("LoRA's rank matters.", "lora"),
        ("We compare several LoRAs.", "lora"),
        ("Low-Rank Adaptation is popular.", "lora"),
        ("low rank adapters are popular.", "lora"),
        ("State-space models run in linear time.", "state-space-model"),
        ("state space models run in linear time.", "state-space-model"),
        ("Mamba is fast.", "mamba"),
        ("We tune the weight-decay coefficient.", "weight-decay"),
        ("QLoRA quantizes the base model.", "qlora"),
    ],
)
def test_known_method_variants(matcher: MethodMatcher, text: str, slug: str) -> None:
    assert slug in slugs(matcher, text)


def test_offsets_and_text_as_written(matcher: MethodMatcher) -> None:
    text = "Unlike Weight Decay, LoRA-based tuning"
    found = matcher.find(text)
    assert [(m.slug, m.text) for m in found] == [("weight-decay", "Weight Decay"), ("lora", "LoRA")]
    for m in found:
        assert text[m.start : m.end] == m.text


def test_longest_match_wins(matcher: MethodMatcher) -> None:
    assert slugs(matcher, "a latent diffusion model for images") == ["latent-diffusion-model"]
    assert slugs(matcher, "fine-tune Stable Diffusion 3") == ["latent-diffusion-model"]


# ---------------------------------------------------------------- diffusion ambiguity


@pytest.mark.parametrize(
    "text",
    [
        "We model information diffusion on social networks.",
        "Heat diffusion on manifolds defines a kernel.",
        "The diffusion equation governs the density.",
        "We analyse diffusion MRI scans of the brain.",
        "Particles show anomalous diffusion in crowded media.",
        "Graph diffusion spreads labels over the nodes.",
        "A reaction-diffusion system with advection.",
        "The SDE has a drift term and diffusion coefficient.",
        "The pre-activations converge to a zero-drift diffusion process.",
        "An information diffusion model for cascades.",
        "exhibit diffusion-like properties",
    ],
)
def test_diffusion_as_a_process_is_not_a_diffusion_model(any_matcher: MethodMatcher, text: str) -> None:
    assert "diffusion-model" not in families(any_matcher, text)


@pytest.mark.parametrize(
    "text",
    [
        "Diffusion models generate images.",
        "a diffusion-based generative approach",
        "denoising diffusion probabilistic models",
        "masked diffusion for text",
        "discrete diffusion language models (DLMs)",
        "a diffusion language model",
        "latent diffusion for video",
        "a diffusion policy for robot control",
        "a discrete diffusion–based approach",
        "most diffusion and flow models are continuous",
        "over diffusion and autoregressive transformer baselines",
        "generative models such as flows and diffusions",
        "graph diffusion models generate molecules",
    ],
)
def test_generative_diffusion_is_a_diffusion_model(any_matcher: MethodMatcher, text: str) -> None:
    assert "diffusion-model" in families(any_matcher, text)


# ---------------------------------------------------------------- SSM ambiguity


@pytest.mark.parametrize(
    "text",
    [
        "We compare SSMs and Transformers on long sequences.",
        "Selective SSMs are the core of Mamba.",
        "Building on structured sparse SSMs, we propose Flash PD-SSM for sequence modeling.",
        "state-space models (SSMs) compress context; SSMs run fast.",
    ],
)
def test_ssm_in_sequence_context_is_a_state_space_model(any_matcher: MethodMatcher, text: str) -> None:
    assert "state-space-model" in families(any_matcher, text)


@pytest.mark.parametrize(
    "text",
    [
        "We use the structural similarity measure (SSM) to compare images.",
        "Sparse subspace matching (SSM) clusters the points.",
        "Our self-supervised method (SSM) learns features from unlabeled images.",
        "The SSM score of the images improves.",
    ],
)
def test_ssm_defined_otherwise_or_without_context_is_not(any_matcher: MethodMatcher, text: str) -> None:
    assert "state-space-model" not in families(any_matcher, text)


def test_short_caps_label_needs_context(matcher: MethodMatcher) -> None:
    assert "weight-decay" not in families(matcher, "The WD region of the galaxy.")
    assert "weight-decay" in families(matcher, "We study weight decay (WD); WD shrinks weights.")
    assert "diffusion-model" not in families(matcher, "DM halos in the simulation.")


# ---------------------------------------------------------------- abbreviations


def test_schwartz_hearst_abbreviations() -> None:
    found = {(a.short, a.long) for a in find_abbreviations(
        "We use Low-Rank Adaptation (LoRA), Cautious Weight Decay (CWD) and state-space models (SSMs) "
        "but not (e.g. this) or (ours) or (see Fig. 3)."
    )}  # fmt: skip
    assert found == {
        ("LoRA", "Low-Rank Adaptation"),
        ("CWD", "Cautious Weight Decay"),
        ("SSMs", "state-space models"),
    }


def test_short_form_of_known_label_is_matched_later(matcher: MethodMatcher) -> None:
    text = "Denoising diffusion probabilistic models (DDPMs) are slow. We speed up DDPMs by caching."
    found = matcher.find(text)
    assert [m.text for m in found if m.slug == "diffusion-model"][-1] == "DDPMs"
    text = "We study low-rank adaptation (LRA). The LRA layer is fast."
    assert [(m.slug, m.text) for m in matcher.find(text)] == [
        ("lora", "low-rank adaptation"),
        ("lora", "LRA"),
        ("lora", "LRA"),
    ]
    # a short-caps label defined by a long form that contains its concept is still that concept
    text = "Denoising diffusion models (DDPM) are slow; DDPM sampling is costly."
    assert [m.text for m in matcher.find(text)][-1] == "DDPM"


def test_short_form_of_a_new_method_is_an_introduced_method(matcher: MethodMatcher) -> None:
    text = (
        "We introduce Cautious Weight Decay (CWD), a one-line modification that applies weight decay only to "
        "some coordinates. CWD preserves the original loss."
    )
    (cwd,) = matcher.introduced(text)
    assert (cwd.key, cwd.short, cwd.full, cwd.broader) == (
        "cwd--cautious-weight-decay",
        "CWD",
        "Cautious Weight Decay",
        "weight-decay",
    )
    assert "weight-decay" in cwd.related


# ---------------------------------------------------------------- introduced methods


@pytest.mark.parametrize(
    ("text", "key", "related"),
    [
        (
            "Motivated by these observations, we propose STEPQuant, a spatial-temporal post-training "
            "quantization framework for recurrent states.",
            "stepquant",
            "quantization",
        ),
        (
            "We introduce Gated-SwinRMT, a family of hybrid vision transformers. Two variants are proposed.",
            "gated-swinrmt",
            "",
        ),
        (
            'For PDEs admitting a Feynman-Kac (FK) representation we obtain what we call ``FK-PINNs", and '
            "derive bounds.",
            "fk-pinn",
            "",
        ),
        (
            "To address this trade-off, we propose Sequential regularized LoRA (SeqLoRA), a constrained "
            "continual learning framework.",
            "seqlora",
            "lora",
        ),
        (
            "Building on this observation, we propose LiteLoRA, a plug-and-play gating mechanism.",
            "litelora",
            "lora",
        ),
        (
            "We propose TIDES, a selective SSM variant that reconciles selective and continuous architectures "
            "for sequence modeling.",
            "tides",
            "state-space-model",
        ),
        ("We address this gap by introducing S7, a simplified yet powerful SSM for sequences.", "s7", ""),
        ("We present HyperP (Hypersphere Parameterization), the first framework.", "hyperp", ""),
        ("we propose a novel Retain-Resample-Release sampling (R3) algorithm", "r3", ""),
        ("we develop a variant of Muon, namely Muon++, that satisfies", "muon-plus-plus", ""),
        ("The resulting method, dubbed FastNet, is simple.", "fastnet", ""),
    ],
)
def test_introduced_methods(matcher: MethodMatcher, text: str, key: str, related: str) -> None:
    found = {slugify(bare_key(m.key)): m for m in matcher.introduced(text)}
    assert key in found, found
    if related:
        assert related in found[key].related


def test_introduced_broader_from_wording(matcher: MethodMatcher) -> None:
    (m,) = matcher.introduced("We propose FooNet, a variant of LoRA for vision.")
    assert m.broader == "lora"
    (m,) = matcher.introduced("We propose FPRM, a Transformer-based reasoning model.")
    assert m.broader == "transformer"
    (m,) = matcher.introduced("We propose BarNet, a fast model for sequences.")
    assert m.broader == ""


@pytest.mark.parametrize(
    "text",
    [
        "We present a theoretical framework to explain induction.",
        "We propose a new Lorentz linear layer.",
        "Existing work attributes this decay to mismatch and proposes test-time training (TTT) as a remedy.",
        "We propose a new method to ensure neural ordinary differential equations (ODEs) are safe.",
        "FPRM is effective on reasoning benchmarks, namely Sudoku, Maze and ARC.",
        "We introduce two core concepts: the gap and the drift.",
    ],
)
def test_not_introduced(matcher: MethodMatcher, text: str) -> None:
    assert matcher.introduced(text) == []


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("We introduce ResiliBench, a benchmark that measures resilience.", "benchmark"),
        ("we present CausalDynamics, a large-scale benchmark for causal discovery.", "benchmark"),
        ("We release WikiQA2, a dataset of questions.", "dataset"),
        ("We present FastSB, an open-source Python library that solves bridges.", "library"),
    ],
)
def test_introduced_resources(matcher: MethodMatcher, text: str, kind: str) -> None:
    (m,) = matcher.introduced(text)
    assert m.resource_type == kind


def test_slugify() -> None:
    assert slugify("Gated-SwinRMT") == "gated-swinrmt"
    assert slugify("FK-PINNs") == "fk-pinns"
    assert slugify("Φ-ROM") == "rom"
    assert slugify("Li_2") == "li-2"


# ---------------------------------------------------------------- extractor and hostile text


def record(abstract: str, title: str = "") -> Record:
    source = SourceFile("seeds/x.txt", "0" * 64, "test")
    at = Location("seeds/x.txt", 3)
    return Record(
        "test", source, at, title=Span(title, Location("seeds/x.txt", 2)) if title else None,
        abstract=Span(abstract, at),
    )  # fmt: skip


def test_extract_yields_mentions(matcher: MethodMatcher, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(methods, "default_matcher", lambda taxonomy=None: matcher)
    log = IssueLog()
    text = "We propose SeqLoRA, a LoRA variant. SeqLoRA beats LoRA."
    mentions = list(methods.extract(record(text, title="LoRA again"), log))
    assert log.issues == []
    kinds = [(m.kind, m.key, m.at.line, m.position) for m in mentions]
    assert ("method", "lora", 2, 0) in kinds
    assert ("method", "lora", 3, text.index("LoRA ")) in kinds
    (new,) = [m for m in mentions if m.kind == "introduced-method"]
    assert (new.key, new.text, new.extractor) == ("SeqLoRA", "SeqLoRA", "methods")
    assert new.detail == (("broader", "lora"), ("full", ""), ("related", "lora"), ("short", "SeqLoRA"))
    assert all(m.extractor == "methods" for m in mentions)


def test_hostile_long_abstract_is_cut_with_a_warning(
    matcher: MethodMatcher, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(methods, "default_matcher", lambda taxonomy=None: matcher)
    unit = 'LoRA (( state space ) "http://x.y/?q=\'a"(b) \x00\x07 we propose X-Net, ( diffusion models ((( '
    text = unit * (1_000_000 // len(unit) + 1)
    log = IssueLog()
    mentions = list(methods.extract(record(text), log))
    assert [i.code for i in log.issues] == ["abstract-too-long"]
    assert mentions and all(m.position < methods.MAX_CHARS for m in mentions)


def test_hostile_text_direct(matcher: MethodMatcher) -> None:
    for text in [
        "(" * 100_000,
        ")" * 50_000 + "LoRA",
        "\x00" * 1000,
        "we propose " * 20_000,
        "A (B) " * 30_000,
    ]:
        for m in matcher.find(text):
            assert text[m.start : m.end] == m.text
        matcher.introduced(text)


@settings(max_examples=150, deadline=None)
@given(st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=300))
def test_never_raises_offsets_in_bounds(text: str) -> None:
    m = _shared_matcher()
    for x in m.find(text):
        assert 0 <= x.start < x.end <= len(text)
        assert text[x.start : x.end] == x.text
    for y in m.introduced(text):
        assert 0 <= y.start <= len(text)


@settings(max_examples=100, deadline=None)
@given(
    st.lists(
        st.sampled_from(
            ["we", "propose", "LoRA", "(", ")", "SSM", "state-space", "models", "diffusion", "X-Net", ",", "a",
             "novel", "Weight", "Decay", "(WD)", "called", '"', ".", "FooBar", "based", "-", "information"]
        ),
        max_size=40,
    ).map(" ".join)
)  # fmt: skip
def test_never_raises_on_method_like_text(text: str) -> None:
    test_never_raises_offsets_in_bounds.hypothesis.inner_test(text)  # type: ignore[attr-defined]


_CACHE: dict[str, MethodMatcher] = {}


def _shared_matcher() -> MethodMatcher:
    if "m" not in _CACHE:
        import tempfile

        path = Path(tempfile.mkdtemp()) / "methods.ttl"
        path.write_text(FIXTURE_TTL, encoding="utf-8")
        _CACHE["m"] = MethodMatcher(path)
    return _CACHE["m"]


# ---------------------------------------------------------------- the seeds against the gold annotations


def _gold() -> list[dict[str, object]]:
    if not GOLD.exists():
        pytest.skip(f"gold annotations not written yet: {GOLD}")
    records: list[dict[str, object]] = json.loads(GOLD.read_text(encoding="utf-8"))["records"]
    return records


def _seed_line(rec: dict[str, object]) -> str:
    lines = (ROOT / "seeds" / str(rec["file"])).read_text(encoding="utf-8").splitlines()
    return lines[int(str(rec["line"])) - 1]


def _repo_matcher() -> MethodMatcher:
    if not methods.taxonomy_path().exists():
        pytest.skip(f"method taxonomy not written yet: {methods.taxonomy_path()}")
    return methods.default_matcher()


def _family_scores(m: MethodMatcher) -> dict[str, tuple[int, int, int]]:
    scores = {f: [0, 0, 0] for f in FAMILIES}  # tp, fp, fn
    for rec in _gold():
        got = families(m, _seed_line(rec))
        want = set(rec["families"])  # type: ignore[call-overload]
        for f in FAMILIES:
            if f in got and f in want:
                scores[f][0] += 1
            elif f in got:
                scores[f][1] += 1
            elif f in want:
                scores[f][2] += 1
    return {f: (s[0], s[1], s[2]) for f, s in scores.items()}


@pytest.mark.parametrize("which", ["fixture", "repository"])
@pytest.mark.parametrize("family", FAMILIES)
def test_seed_family_precision_recall(matcher: MethodMatcher, which: str, family: str) -> None:
    m = matcher if which == "fixture" else _repo_matcher()
    tp, fp, fn = _family_scores(m)[family]
    precision = tp / (tp + fp) if tp + fp else 1.0
    recall = tp / (tp + fn) if tp + fn else 1.0
    assert precision >= 0.95 and recall >= 0.95, (family, tp, fp, fn)


@pytest.mark.parametrize("which", ["fixture", "repository"])
def test_seed_introduced_recall(matcher: MethodMatcher, which: str) -> None:
    m = matcher if which == "fixture" else _repo_matcher()
    hit = total = 0
    for rec in _gold():
        found: set[str] = set()
        for new in m.introduced(_seed_line(rec)):
            found |= {slugify(bare_key(new.key)), slugify(new.full), slugify(new.short)}
        for gold in rec["introduced"]:  # type: ignore[attr-defined]
            total += 1
            names = {slugify(gold["name"]), *(slugify(a) for a in gold.get("aliases", []))}
            hit += bool(names & found)
    assert total and hit / total >= 0.80, (hit, total)


def test_seed_named_examples(matcher: MethodMatcher) -> None:
    records = {(str(r["file"])[:3], r["line"]): r for r in _gold()}
    expect = {
        ("003", 229): ("stepquant", ""),
        ("003", 7): ("gated-swinrmt", ""),
        ("003", 239): ("fk-pinn", ""),
        ("000", 61): ("seqlora", "lora"),
        ("003", 41): ("tides", "state-space-model"),
    }
    for where, (key, related) in expect.items():
        found = {slugify(bare_key(x.key)): x for x in matcher.introduced(_seed_line(records[where]))}
        assert key in found, (where, sorted(found))
        if related:
            assert related in found[key].related
