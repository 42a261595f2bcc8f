"""Matching known methods: a spaCy PhraseMatcher over every label form, token rules, and the
ambiguity vetoes of :mod:`.rules`."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import numpy
import spacy
from spacy.attrs import LOWER
from spacy.matcher import Matcher, PhraseMatcher
from spacy.tokenizer import Tokenizer
from spacy.tokens import Doc

from kg.errors import KgError

from .forms import (
    Abbreviation,
    find_abbreviations,
    folded,
    is_acronym,
    mask,
    norm_label,
    plural,
    variants,
)
from .found import MethodMatch
from .introduced import IntroducedMethod, find_introduced
from .names import Families
from .rules import (
    ATTENTION,
    AUGMENT_VERBS,
    AUGMENTATION,
    AUGMENTED_THINGS,
    CONTEXT_CUES,
    COORDINATED_HEADS,
    DIFFUSION,
    DIFFUSION_AFTER,
    DIFFUSION_BEFORE,
    LORA,
    RULE_REACH,
    RULE_WORDS,
    STATE_SPACE,
    TokenSpan,
    attention_is_mechanism,
    diffusion_is_model,
    longest,
    next_word,
    prev_word,
    rule_triggered,
    talks_about_sequences,
)
from .vocabulary import load_taxonomy, taxonomy_path

TOKENIZER_CACHE = 200_000
"""Chunks the tokenizer keeps (spaCy's default, 10,000, fills within a few thousand abstracts)."""


class MethodMatcher:
    """Finds known methods and introduced methods; build once, reuse (see :func:`default_matcher`)."""

    def __init__(self, taxonomy: Path | None = None) -> None:
        path = taxonomy if taxonomy is not None else taxonomy_path()
        if not path.exists():
            raise KgError(f"method taxonomy not found: {path}", code="missing-taxonomy")
        self.concepts = load_taxonomy(path)
        self._tops = frozenset(c.slug for c in self.concepts.values() if not c.broader)
        self._generic_tops = frozenset(s for s in self._tops if self.concepts[s].generic)
        self.nlp = spacy.blank("en")
        vocab = self.nlp.vocab
        self._lower = PhraseMatcher(vocab, attr="LOWER")
        self._exact = PhraseMatcher(vocab, attr="ORTH")
        self._rules = Matcher(vocab)
        self._rule_names: dict[int, tuple[str, str]] = {}  # match id -> (slug, how)
        self._rule_words = [numpy.uint64(vocab.strings.add(w)) for w in sorted(RULE_WORDS)]
        tokenizer = self.nlp.tokenizer
        if isinstance(tokenizer, Tokenizer):
            # spaCy caches the tokens of each chunk (text between spaces), but once a chunk of a text is
            # a special case it stops adding the text's later chunks to the cache.  Line breaks and
            # double spaces are special cases, and abstracts wrapped into lines have one in their first
            # line: nearly every chunk went through the affix rules again, abstract after abstract (several
            # times the cost of a cached pass).  Without those special cases the tokens are the same (no
            # affix rule splits whitespace: one token, same text, offsets and lexeme; only the norm of
            # a no-break space differs, which no rule here reads); the cache never changes tokens.
            tokenizer.rules = {k: v for k, v in (tokenizer.rules or {}).items() if not k.isspace()}
            tokenizer.max_cache_size = TOKENIZER_CACHE
        self._found: dict[str, tuple[MethodMatch, ...]] = {}  # find() of introduced names
        self.label_to_slug: dict[str, str] = {}
        # the forms of hidden (ambiguous) labels, which count only in context: written forms of
        # acronyms ("SSM"), lower-case forms of words ("early exit")
        self._hidden_exact: dict[str, str] = {}
        self._hidden_lower: dict[str, str] = {}
        lower_forms: dict[str, set[str]] = {}
        exact_forms: dict[str, set[str]] = {}
        for concept in self.concepts.values():
            if concept.generic and concept.slug in self._tops:
                continue  # a generic family ("learning paradigm") is structure, never matched from text
            labelled = [(label, False) for label in concept.labels] + [
                (label, True) for label in concept.hidden
            ]
            for label, hidden in labelled:
                label = label.strip()
                if not label:
                    continue
                self.label_to_slug.setdefault(norm_label(label), concept.slug)
                if is_acronym(label):
                    forms = {label, plural(label) if not label[-1].isupper() else label + "s"}
                    if label[0].isupper():  # not "vLLM" -> "VLLM" (a vision LLM)
                        forms.add(label.upper())
                    exact_forms.setdefault(concept.slug, set()).update(forms)
                    if hidden:
                        self._hidden_exact.update(dict.fromkeys(forms, concept.slug))
                else:
                    forms = variants(label)
                    lower_forms.setdefault(concept.slug, set()).update(forms)
                    if hidden:
                        self._hidden_lower.update((norm_label(f), concept.slug) for f in forms)
        self._visible_exact = {
            slug: frozenset(f for f in forms if self._hidden_exact.get(f) != slug)
            for slug, forms in exact_forms.items()
        }
        for slug in sorted(lower_forms):
            self._lower.add(slug, [self.nlp.make_doc(f) for f in sorted(lower_forms[slug])])
        for slug in sorted(exact_forms):
            self._exact.add(slug, [self.nlp.make_doc(f) for f in sorted(exact_forms[slug])])
        self._add_rules()
        # names of model families (kg:modelFamily) that versions follow: "Qwen" -> Qwen2.5-VL
        self._families = Families(
            {
                label: c.slug
                for c in self.concepts.values()
                if c.family
                for label in c.labels
                if " " not in label and len(label) >= 2 and label[0].isalpha()
            }
        )
        self._ancestors: dict[str, frozenset[str]] = {s: self._climb(s) for s in self.concepts}
        # case-sensitive labels that may sit inside a new name (SeqLoRA, PD-SSM, MambaMixer)
        self._inner_forms = tuple(
            sorted(
                (label, c.slug)
                for c in self.concepts.values()
                for label in c.labels
                if " " not in label and len(label) >= 3 and label[0].isupper() and "-" not in label
            )
        )
        # ... by their first three characters: a name is looked up at each position, not each form searched
        self.inner_by_head: dict[str, list[tuple[str, str]]] = {}
        for form, slug in self._inner_forms:
            self.inner_by_head.setdefault(form[:3], []).append((form, slug))

    def _climb(self, slug: str) -> frozenset[str]:
        seen: set[str] = set()
        todo = [slug]
        while todo:
            s = todo.pop()
            if s in seen or s not in self.concepts:
                continue
            seen.add(s)
            todo.extend(self.concepts[s].broader)
        return frozenset(seen)

    def ancestors(self, slug: str) -> frozenset[str]:
        """The concept and every concept above it."""
        return self._ancestors.get(slug, frozenset({slug}))

    def _add_rule(self, name: str, patterns: list[list[dict[str, Any]]]) -> None:
        self._rules.add(name, patterns)
        slug, how = name.split("|")
        self._rule_names[self.nlp.vocab.strings[name]] = (slug, how)

    def _add_rules(self) -> None:
        hyphen: dict[str, Any] = {"ORTH": {"IN": ["-", "–"]}, "OP": "?"}
        if DIFFUSION in self.concepts:
            word = {"LOWER": {"IN": ["diffusion", "diffusions"]}}
            self._add_rule(
                f"{DIFFUSION}|rule",
                [
                    [{"LOWER": {"IN": sorted(DIFFUSION_BEFORE)}}, hyphen, word],
                    [word, hyphen, {"LOWER": {"IN": sorted(DIFFUSION_AFTER)}}],
                ],
            )
            # "flows and diffusions" (generative transport): keep the last token
            self._add_rule(
                f"{DIFFUSION}|last",
                [[{"LOWER": {"IN": ["flows", "flow"]}}, {"LOWER": {"IN": ["and", "or", "/"]}}, word]],
            )
            # "diffusion and flow models", "diffusion or autoregressive baselines": keep the first token
            self._add_rule(
                f"{DIFFUSION}|first",
                [
                    [
                        word,
                        {"LOWER": {"IN": ["and", "or", "/", ","]}},
                        {"IS_ALPHA": True},
                        {"IS_ALPHA": True, "OP": "?"},
                        {"LOWER": {"IN": sorted(COORDINATED_HEADS)}},
                    ]
                ],
            )
        if AUGMENTATION in self.concepts:
            things: dict[str, Any] = {"LOWER": {"IN": list(AUGMENTED_THINGS)}}
            self._add_rule(
                f"{AUGMENTATION}|rule",
                [
                    [
                        {"LOWER": {"IN": list(AUGMENT_VERBS)}},
                        {
                            "LOWER": {"IN": ["the", "our", "their", "its", "existing", "training", "real"]},
                            "OP": "?",
                        },
                        {
                            "LOWER": {"IN": ["training", "real", "original", "limited", "synthetic"]},
                            "OP": "?",
                        },
                        things,
                    ]
                ],
            )
        if LORA in self.concepts:
            # "low-rank adapters", "Low-Rank Adaptive Residual Connections": low-rank adaptation in words
            self._add_rule(
                f"{LORA}|rule",
                [
                    [
                        {"LOWER": "low"},
                        hyphen,
                        {"LOWER": "rank"},
                        {"LOWER": {"IN": ["adaptation", "adaptations", "adapter", "adapters", "adaptive"]}},
                    ],
                    [
                        {"LOWER": "low-rank"},
                        {"LOWER": {"IN": ["adaptation", "adaptations", "adapter", "adapters", "adaptive"]}},
                    ],
                ],
            )
        if STATE_SPACE in self.concepts:
            heads: dict[str, Any] = {
                "LOWER": {
                    "IN": [
                        "model", "models", "layer", "layers", "architecture", "architectures", "recurrence",
                        "recurrences", "backbone", "backbones", "block", "blocks", "mixer", "mixers",
                        "sequence", "ssm", "ssms",
                    ]
                }
            }  # fmt: skip
            self._add_rule(
                f"{STATE_SPACE}|rule",
                [
                    [{"LOWER": "state"}, hyphen, {"LOWER": {"IN": ["space", "spaces"]}}, hyphen, heads],
                    [{"LOWER": "state-space"}, hyphen, heads],
                ],
            )

    # ------------------------------------------------------------------ find

    def find(self, text: str) -> list[MethodMatch]:
        """Known-method mentions in ``text``, in text order."""
        return list(self.find_cached(text))

    def find_cached(self, text: str) -> tuple[MethodMatch, ...]:
        """:meth:`find`, remembered: the names of introduced methods are looked up more than once."""
        found = self._found.get(text)
        if found is None:
            masked = mask(text)
            found = tuple(self.search(text, self.nlp.make_doc(masked), masked, find_abbreviations(masked)))
            if len(self._found) >= 4096:
                self._found.clear()
            self._found[text] = found
        return found

    def _rule_matches(self, doc: Doc) -> Iterator[tuple[int, int, int]]:
        """The token rules' matches, found around their trigger words only.

        Every rule contains one of ``RULE_WORDS`` and is at most ``RULE_REACH + 1`` tokens long, so
        each match lies within that reach of a trigger word; the Matcher's cost (a Python object per
        token and per set-membership test) is paid for a few windows instead of the whole text.
        """
        lowers = doc.to_array(LOWER)
        hit = lowers == self._rule_words[0]
        for word in self._rule_words[1:]:
            hit |= lowers == word
        hits = numpy.flatnonzero(hit)
        n = len(doc)
        windows: list[list[int]] = []
        for i in hits.tolist():
            lo, hi = max(0, i - RULE_REACH), min(n, i + RULE_REACH + 1)
            if windows and lo <= windows[-1][1]:
                windows[-1][1] = hi
            else:
                windows.append([lo, hi])
        for lo, hi in windows:
            for match_id, start, end in self._rules(doc[lo:hi]):
                yield match_id, start + lo, end + lo

    def search(
        self, text: str, doc: Doc, masked: str, abbreviations: list[Abbreviation]
    ) -> list[MethodMatch]:
        """Known-method mentions in ``text``, given its masked form, tokens and abbreviations."""
        strings = self.nlp.vocab.strings
        low = folded(masked)
        spans: list[TokenSpan] = []
        ruled: set[tuple[int, int]] = set()  # spans a context rule vouches for
        for matcher in (self._lower, self._exact):
            for match_id, start, end in matcher(doc):
                spans.append((start, end, strings[match_id]))
        if rule_triggered(low):  # every rule needs one of these words
            for match_id, start, end in self._rule_matches(doc):
                slug, how = self._rule_names[match_id]
                if how == "first":
                    end = start + 1
                elif how == "last":
                    start = end - 1
                ruled.add((start, end))
                spans.append((start, end, slug))

        defined: dict[str, str] = {}  # short form -> slug ("" when defined as something unknown)
        for ab in abbreviations:
            slug = self.label_to_slug.get(norm_label(ab.long), "")
            if not slug:
                # "state-space models (SSMs)": the long form names the short form's concept
                singular = norm_label(ab.long)
                slug = self.label_to_slug.get(singular[:-1], "") if singular.endswith("s") else ""
            meaning = slug
            if not meaning and any(f in self._hidden_exact for f in (ab.short, ab.short + "s")):
                # "Cautious Weight Decay (CWD)": a new thing named after a known one; the short
                # form is not that concept, but it is compatible with it (not "structural similarity")
                inner = self.search(ab.long, self.nlp.make_doc(ab.long), ab.long, [])
                meaning = inner[-1].slug if inner else ""
            for form in (ab.short, ab.short + "s", ab.short.rstrip("s")):
                defined.setdefault(form, meaning)
            if slug:
                for m in re.finditer(rf"(?<![\w\-]){re.escape(ab.short)}s?(?![\w\-])", masked[ab.start :]):
                    short_span = doc.char_span(
                        ab.start + m.start(), ab.start + m.end(), label=slug, alignment_mode="contract"
                    )
                    if short_span is not None and len(short_span):
                        spans.append((short_span.start, short_span.end, slug))

        # character offsets and text of each span (``Span.text``: the doc's text is ``masked``)
        chars: dict[tuple[int, int], tuple[int, int]] = {}
        texts = []
        for start, end, _slug in spans:
            bounds = chars.get((start, end))
            if bounds is None:
                first = doc[start]
                last = doc[end - 1] if end - 1 != start else first
                bounds = chars[start, end] = (first.idx, last.idx + len(last))
            texts.append(masked[bounds[0] : bounds[1]])
        mentioned_families = self._families_in_words(spans, texts)
        # distinct specific concepts named in words: a text about machine learning names a few
        specific = {
            slug
            for (_s, _e, slug), span_text in zip(spans, texts, strict=True)
            if not self._is_hidden(span_text, slug) and not self.concepts[slug].generic
        }
        sequence: list[bool] = []  # whether the text talks about sequence modelling, once asked

        def sequence_context() -> bool:
            if not sequence:
                sequence.append(talks_about_sequences(low))
            return sequence[0]

        kept: list[TokenSpan] = []
        for (start, end, slug), span_text in zip(spans, texts, strict=True):
            if DIFFUSION in self.ancestors(slug) and not diffusion_is_model(doc, start, end):
                continue
            one = end - start == 1
            bare = one and span_text.lower() in {"diffusion", "diffusions"}
            if bare and (start, end) not in ruled and not self._bare_diffusion_ok(doc, start, end):
                continue
            if self._is_hidden(span_text, slug):
                in_context = self._in_context(span_text, slug, defined, mentioned_families, sequence_context)
                cue = CONTEXT_CUES.get(slug)
                in_context = in_context or (cue is not None and cue.search(low) is not None)
                # a hidden phrase ("reasoning model", "early exit") or "attention" also counts among two
                # other methods; a bare word ("zero-shot", "distillation", "gates") needs its context
                phrase = " " in span_text.strip() or slug == ATTENTION
                among_methods = phrase and not is_acronym(span_text) and len(specific - {slug}) >= 2
                if not (in_context or among_methods):
                    continue
                if slug == ATTENTION and one and not attention_is_mechanism(doc, start, end):
                    continue
            elif span_text in defined and not self._compatible(defined[span_text], slug):
                continue  # "Spatial Attention Module (SAM)": defined on the page as something else
            kept.append((start, end, slug))
        matches = []
        for start, end, slug in longest(kept):
            start_char, end_char = chars[start, end]
            matches.append(MethodMatch(slug, text[start_char:end_char], start_char, end_char))
        if self._families:
            matches = self._with_versions(text, masked, matches)
        return sorted(matches, key=lambda m: (m.start, m.end, m.slug))

    def _with_versions(self, text: str, masked: str, matches: list[MethodMatch]) -> list[MethodMatch]:
        """``matches`` with the versioned names of model families in place of what they cover."""
        found = []
        for v in self._families.versions(masked):
            slug = self.label_to_slug.get(norm_label(v.label), "")
            written = text[v.start : v.end]
            found.append(
                MethodMatch(slug, written, v.start, v.end)
                if slug
                else MethodMatch(v.related[0], written, v.start, v.end, name=v.label)
            )
        if not found:
            return matches
        kept = [m for m in matches if not any(f.start <= m.start and m.end <= f.end for f in found)]
        return kept + [f for f in found if not any(m.start <= f.start and f.end <= m.end for m in kept)]

    def _bare_diffusion_ok(self, doc: Doc, start: int, end: int) -> bool:
        """A lone "diffusion" from a taxonomy label needs a generative cue on either side."""
        return prev_word(doc, start) in DIFFUSION_BEFORE or next_word(doc, end) in DIFFUSION_AFTER

    def _is_hidden(self, span_text: str, slug: str) -> bool:
        """Whether a match is a hidden (ambiguous) form of its concept's labels."""
        if self._hidden_exact.get(span_text) == slug:
            return True
        return self._hidden_lower.get(norm_label(span_text)) == slug and span_text not in self._exact_of(slug)

    def is_hidden(self, span_text: str, slug: str) -> bool:
        """Whether ``span_text`` names ``slug`` only by one of its hidden (ambiguous) labels."""
        return self._is_hidden(span_text, slug)

    def names_kin(self, text: str, slug: str) -> bool:
        """Whether ``text`` names ``slug`` or a concept of its family below the top of the scheme
        ("Generalized Reinforcement Policy Optimization" for GRPO: a policy-gradient method)."""
        family = self.ancestors(slug) - self._tops
        return any(self.ancestors(m.slug) & family for m in self.find_cached(text) if not m.name)

    def _exact_of(self, slug: str) -> frozenset[str]:
        """The written (acronym) forms of a concept's visible labels."""
        return self._visible_exact.get(slug, frozenset())

    def _compatible(self, meaning: str, slug: str) -> bool:
        """Whether a short form defined as ``meaning`` may be the concept ``slug``."""
        return meaning != "" and self.ancestors(meaning) & self.ancestors(slug) != set()

    def _families_in_words(self, spans: list[TokenSpan], texts: list[str]) -> set[str]:
        """Concepts (and their ancestors) named by a match that is not a hidden label."""
        named: set[str] = set()
        for (_start, _end, slug), span_text in zip(spans, texts, strict=True):
            if self._is_hidden(span_text, slug):
                continue
            if span_text.lower() in {"diffusion", "diffusions"}:
                continue
            named |= self.ancestors(slug)
        return named

    def _in_context(
        self,
        form: str,
        slug: str,
        defined: dict[str, str],
        mentioned: set[str],
        sequence_context: Callable[[], bool],
    ) -> bool:
        """Whether a hidden label counts here: the page defines it as this concept (or one of its
        family), names its family in words, or -- for state-space models -- talks about sequences."""
        if form in defined:
            return self._compatible(defined[form], slug)
        # its family below the generic top ("LoRA" for "DoRA"), not a whole field ("quantization",
        # a model-compression method, does not make "distillation" knowledge distillation)
        if (self.ancestors(slug) - self._generic_tops) & mentioned - {slug} or slug in mentioned:
            return True
        return STATE_SPACE in self.ancestors(slug) and sequence_context()

    # ------------------------------------------------------------------ introduced

    def introduced(self, text: str) -> list[IntroducedMethod]:
        """Methods (and benchmarks, datasets, libraries) that ``text`` introduces, in text order."""
        return find_introduced(self, text)
