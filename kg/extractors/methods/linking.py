"""Linking: the known methods a new name is related to or a kind of (``skos:related``, ``skos:broader``)."""

from __future__ import annotations

import re

from .found import Matcher, MethodMatch

_KIND_OF = re.compile(
    r"\b(variant|extension|generali[sz]ation|instance|form|kind|type|version|modification)s? of"
    r"( the| a| an| standard| classical| vanilla)?\s*$"
)
_BASED = re.compile(r"\s*[-–]?\s*based\b")
_VARIANT = re.compile(r"\s*variant\b")


def related_to(
    matcher: Matcher, forms: tuple[str, ...], sentence: tuple[int, int], matches: list[MethodMatch]
) -> set[str]:
    """The known methods a new name's forms name (LoRA in "SeqLoRA") and its sentence mentions."""
    related: set[str] = set()
    for part in forms:
        for m in matcher.find_cached(part) if part else ():
            related.add(m.slug)
        for i in range(len(part) - 2):  # the labels with inner capitals that occur in the name
            for form, slug in matcher.inner_by_head.get(part[i : i + 3], ()):
                if part.startswith(form, i):
                    related.add(slug)
    sent_start, sent_end = sentence
    related.update(m.slug for m in matches if sent_start <= m.start and m.end <= sent_end)
    return related


def broader_of(
    matcher: Matcher,
    masked: str,
    full: str,
    name_end: int,
    sentence: tuple[int, int],
    matches: list[MethodMatch],
) -> str:
    """The known concept the text says a new method (its name ending at ``name_end``) is a kind of,
    or "": the head of its long form ("Cautious Weight Decay"), "a variant of X", "X-based"."""
    sent_start, sent_end = sentence
    # "Cautious Weight Decay", "Sequential regularized LoRA": the long form's head is a known method
    if full:
        head = [m for m in matcher.find_cached(full) if m.end == len(full.rstrip())]
        if head:
            return head[-1].slug
    window_end = min(sent_end, name_end + 160)
    for m in matches:
        if not (sent_start <= m.start and m.end <= sent_end):
            continue
        before = masked[max(sent_start, m.start - 40) : m.start].lower()
        after = masked[m.end : m.end + 12].lower()
        if m.start >= name_end and m.start < window_end and _KIND_OF.search(before):
            return m.slug
        if _BASED.match(after) and name_end <= m.start < window_end:
            return m.slug
        if _VARIANT.match(after) and name_end <= m.start < window_end:
            return m.slug
    return ""
