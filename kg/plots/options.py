"""The options of ``kg plot``: one record for every figure (each figure reads the ones it needs)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class PlotOptions:
    """Every option of every figure.

    >>> PlotOptions().top, PlotOptions(methods=("lora",)).named
    (8, True)
    """

    methods: tuple[str, ...] = ()
    """trend: methods to draw (slug or label)."""
    subjects: tuple[str, ...] = ()
    """trend: arXiv subjects to draw (code or name)."""
    areas: tuple[str, ...] = ()
    """trend: conference areas to draw (label)."""
    tasks: tuple[str, ...] = ()
    """trend: tasks to draw (label, abbreviation or slug)."""
    datasets: tuple[str, ...] = ()
    """trend: datasets to draw (name or slug)."""
    kind: str = "method"
    """trend, bursts: which concepts to rank when none is named (method, subject or area)."""
    top: int = 8
    """trend: the N concepts with most papers; bursts: the N strongest bursts."""
    share: bool = False
    """trend: each period's share of papers instead of counts."""
    grain: str = "auto"
    """trend, bursts: count by month, quarter or year; auto chooses by the span of the data."""
    start: str = ""
    """trend, bursts: the first period drawn (YYYY, YYYY-MM or YYYY-Qn); default: where the data starts to mean something."""
    stop: str = ""
    """trend, bursts: the last period drawn."""
    min_period: int = 10
    """trend, bursts: a period with fewer papers gets no share and no burst, and the axis starts and ends
    at periods with at least this many."""
    generic: bool = False
    """Keep umbrella methods (``kg:generic true``), left out by default."""
    ratio: float = 2.0
    """bursts: how much more often a term is used in its burst state (Kleinberg's s)."""
    gamma: float = 1.0
    """bursts: the cost of entering the burst state, in units of ln(years) (Kleinberg's gamma)."""
    min_duration: int = 1
    """bursts: shortest burst shown, in periods."""
    min_papers: int = 2
    """thematic-map: methods used by fewer papers are left out."""
    terms: int = 250
    """thematic-map: at most this many methods (the most used)."""
    theme_terms: int = 3
    """thematic-map: terms named on each theme."""
    labels: int = 30
    """overlay: nodes labelled, at most (the most important that fit)."""
    resolution: float = 1.0
    """thematic-map, overlay: Louvain resolution."""
    seed: int = 0
    """thematic-map, overlay: seed of clustering and layout."""
    view: str = "coauthors"
    """overlay: the map (coauthors or topics)."""
    max_nodes: int = 300
    """overlay: keep the strongest nodes."""
    title: str = ""
    """A title instead of the figure's own."""

    @property
    def named(self) -> bool:
        """Whether concepts were named (rather than the top ones chosen)."""
        return bool(self.methods or self.subjects or self.areas or self.tasks or self.datasets)
