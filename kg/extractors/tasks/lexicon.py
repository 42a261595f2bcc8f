"""The words task phrases are made of: task words, and the words that never lead or end one.

A task phrase is found without a part-of-speech tagger (none is shipped, nothing is downloaded): these
lists stand in for one.  They are data that :mod:`.phrases` reads; a word added here changes what a
phrase may be, everywhere.
"""

from __future__ import annotations

from .words import label_key


def words_of(text: str) -> frozenset[str]:
    """The words of a list written as one string, separated by spaces and line breaks."""
    return frozenset(text.split())


OPEN_HEADS = words_of(
    """detection segmentation classification recognition generation prediction estimation retrieval extraction
    identification tracking reconstruction summarization answering localization super-resolution forecasting
    translation synthesis captioning reasoning parsing assessment understanding completion denoising editing
    recommendation grounding verification counting comprehension generalization separation inpainting
    restoration diagnosis enhancement deblurring registration anticipation spotting manipulation
    disambiguation animation synchronization transcription dehazing deraining desnowing imputation
    colorization matting odometry navigation grasping unlearning erasure stylization diarization entailment
    relighting fact-checking simplification pansharpening locomotion teleoperation rearrangement scooping
    tagging discovery planning qa driving writing attack"""
)
"""Words an open task phrase (one no list holds) may end in ("super-resolution": the two words);
``ontology/make_tasks.py`` checks that each is a head of its rules too."""
SPELLED_OUT = {"qa": "question answering"}
"""Task words written as an abbreviation, looked up spelt out among the known tasks' labels ("open-ended
QA" is open-ended question answering)."""
HEAD_WORDS = frozenset(h for h in OPEN_HEADS if "-" not in h)
HEAD_PAIRS = frozenset(tuple(label_key(h).split()) for h in OPEN_HEADS if "-" in h)
WEAK_HEADS = frozenset(
    {"control", "modeling", "labeling", "analysis", "evaluation", "binarization", "learning"}
)
"""Words that end an open task phrase only right before "task(s)" ("visuo-motor control tasks")."""
HEAD_TRIGGERS = frozenset(
    {*HEAD_WORDS, *(h + "s" for h in HEAD_WORDS), *WEAK_HEADS, *(pair[-1] for pair in HEAD_PAIRS)}
)
"""Every word that may end an open phrase, as written: the rest are passed over at once."""

TASK_AFTER = frozenset({"task", "tasks", "problem", "problems", "benchmark", "benchmarks"})
"""What after a phrase says it is a task ("reasoning tasks", "the parity task")."""
NOT_TASK_AFTER = words_of(
    """perspective perspectives skill skills capability capabilities ability abilities head heads module
    modules loss losses backbone backbones token tokens feature features layer layers"""
)
"""A known task right before these is a modifier, not the task ("a Visual Navigation Perspective",
"manipulation skills", "reasoning capabilities", "a detection head")."""
NOT_TASKS = frozenset(
    {
        "feature extraction",
        "token prediction",
        "next token prediction",
        "data generation",
        "binary classification",
    }
)
"""Phrases of a task's shape that name a step of a method, or a formulation of any task (two classes)."""

STOP = words_of(
    """a an the this that these those our their its his her we they it i you of for in on at by with from to
    into onto via and or but nor as than is are was were be been being has have had do does did can could
    may might must shall should will would not no such both each every all any some many most more less few
    several various different other another new novel existing previous prior current recent conventional
    traditional standard typical general common popular classical key main important challenging difficult
    hard complex simple efficient effective accurate robust reliable scalable fast faster better improved
    superior strong stronger good great state art sota downstream diverse extensive comprehensive practical
    unified generalizable versatile flexible powerful precise consistent safe successful critical crucial
    fundamental essential significant substantial remarkable impressive promising emerging growing
    increasing widely also then thus however while which where when who how what why whether if so only just
    even still further well here there e g ie eg etc across under over between among without within through
    toward towards about against after before during including using related specific task tasks problem
    problems method methods approach approaches model models framework frameworks system systems performance
    results accuracy quality capability capabilities ability abilities vs versus per first second holistic
    joint overall trivial seamless plausible realistic controllable intelligent automated automatic proposed
    called named termed dubbed s based high low higher lower chain thoughtful deliberate explicit implicit
    latent slow advanced step thought large next multiple poor limited weak manual pre trained pretrained
    tuned non massive lightweight end yet rigorous principled systematic careful thorough extensive precise
    faithful reliable meaningful effortless numerous one two three four five six seven eight nine ten eleven
    twelve dozen hundreds"""
)
"""Function words, numbers and words of praise or manner: a task phrase never starts with or runs
through them ("accurate crowd forecasting" names crowd forecasting)."""

VERBS = words_of(
    """achieve address adopt aim allow analyze analyse apply assess augment boost bridge build capture combine
    compare compute conduct consider construct contain create demonstrate derive describe develop devise
    employ enable enhance ensure establish estimate evaluate exceed exhibit explore exploit extend
    facilitate formulate generate guide handle identify imitate implement improve incorporate increase
    integrate introduce investigate involve learn leverage make measure mitigate obtain offer operate
    optimize optimise outperform perform predict present preserve produce propose provide reach recognize
    reduce refine rely remain represent require reveal show simulate solve study support surpass synthesize
    tackle target utilize use validate yield coordinate generalize perceive manipulate focus benefit
    struggle fail suffer lack face pose serve seek play refer attempt tend promote encourage accelerate
    advance adapt align annotate collect curate release assist help attain outline highlight discuss explain
    examine inspect motivate suggest indicate confirm verify empower remove replace retain maintain keep
    treat view regard cast frame unify simplify decouple disentangle is are was were be been has have had do
    does did"""
)
"""Verbs of abstracts, in every form (:data:`VERB_FORMS`): never part of a task phrase ("we tackle
valence-arousal estimation", "support mobile manipulation planning").  Verbs that are also nouns leading
task words ("grasp detection", "plan", "match", "segment", "control", "transfer") are not listed."""


def _forms(verb: str) -> set[str]:
    stem = verb[:-1] if verb.endswith("e") else verb
    forms = {verb, verb + "s", verb + "es", verb + "d", verb + "ed", stem + "ed", stem + "ing", verb + "ing"}
    if verb.endswith("y"):
        forms |= {verb[:-1] + "ies", verb[:-1] + "ied"}
    return forms


VERB_FORMS = frozenset(form for verb in VERBS for form in _forms(verb))
NOT_MODIFIERS = STOP | VERB_FORMS
"""Words that never lead a task word (and a word ending in "ly" or a number never does either)."""

PREFIXES = words_of("few zero one two multi single cross self semi open real long high low fine coarse")
"""Words that lead a task word when a hyphen joins them to the next ("few-shot", "multi-agent",
"low-light"), though alone they do not."""
JOINED = frozenset({"to", "and", "of", "in"})
"""Words inside a hyphenated compound that leads a task word ("text-to-image", "pick-and-place")."""
ENDS = words_of(
    """a an the this that these those of for in on at by with from to into via and or but as than is are was
    were be been has have had can could may might will would should which where when while whereas whose who
    using based through across under over between among without within towards toward against after before
    during such e g i ie eg etc"""
)
"""What may follow a phrase that ends there (a verb and a task word may too)."""
START_OK = words_of(
    """supervised unsupervised semi-supervised self-supervised weakly-supervised weakly fine-grained grained
    moving talking driving self-driving building clothing walking missing remaining landing cooking
    long-tailed zero-shot few-shot one-shot multi-agent learned shared mixed"""
)
"""Words in -ing and -ed that may start a task phrase ("weakly supervised ...", "moving object ...")."""
SUBJECT_VERBS = frozenset(
    {"aims", "remains", "plays", "seeks", "refers", "poses", "serves", "has", "is", "are"}
)
"""Verbs after a sentence's subject that say what a task is ("Category-level pose estimation aims to")."""
SETTINGS = frozenset(
    " ".join(pair.split("-"))
    for pair in words_of(
        """few-shot zero-shot one-shot self-supervised semi-supervised weakly-supervised unsupervised supervised
        multi-agent multi-task cross-domain open-vocabulary open-set continual incremental online offline
        long-tailed"""
    )
)
"""Learning settings the method scheme holds that name a kind of task ("few-shot object detection")."""
