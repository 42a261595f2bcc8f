"""What the matcher finds, and what the stages after it (introduced names, linking) ask of it.

Kept apart from :mod:`.matching`, which runs those stages: they name the matcher by this protocol,
so no module of the package imports another that imports it back, even for type checking.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

from .forms import Abbreviation


@dataclass(frozen=True, slots=True)
class MethodMatch:
    """A known method found in text: concept slug, text as written, character span.

    ``name`` is set when the text names a version of a model family that no label holds
    ("Qwen2.5-VL"): the match is that new name, related to the family ``slug``."""

    slug: str
    text: str
    start: int
    end: int
    name: str = ""


class Matcher(Protocol):
    """The matcher (``matching.MethodMatcher``) as introduced names and linking use it."""

    nlp: Any
    label_to_slug: dict[str, str]
    inner_by_head: dict[str, list[tuple[str, str]]]

    def search(
        self, text: str, doc: Any, masked: str, abbreviations: list[Abbreviation]
    ) -> list[MethodMatch]: ...

    def find_cached(self, text: str) -> tuple[MethodMatch, ...]: ...

    def is_hidden(self, span_text: str, slug: str) -> bool: ...

    def names_kin(self, text: str, slug: str) -> bool: ...
