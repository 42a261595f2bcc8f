"""The table of ``kg plot`` figures, and drawing and writing one of them.

>>> list(FIGURES)
['trend', 'bursts', 'thematic-map', 'overlay']
>>> figure_module("trends")
Traceback (most recent call last):
...
kg.errors.UsageError: error: unknown figure 'trends'; choose from: trend, bursts, thematic-map, overlay [unknown-figure]
"""

from __future__ import annotations

from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING

import pyoxigraph as ox

from kg.errors import UsageError
from kg.plots import bursts, overlay, thematic, trend
from kg.plots.options import PlotOptions

if TYPE_CHECKING:
    from matplotlib.figure import Figure

__all__ = ["FIGURES", "PlotOptions", "draw", "figure_module", "plot"]

FIGURES: dict[str, ModuleType] = {
    trend.NAME: trend,
    bursts.NAME: bursts,
    thematic.NAME: thematic,
    overlay.NAME: overlay,
}


def figure_module(name: str) -> ModuleType:
    """The module of figure ``name``; an unknown name lists the choices."""
    try:
        return FIGURES[name]
    except KeyError:
        raise UsageError(
            f"unknown figure {name!r}; choose from: {', '.join(FIGURES)}", code="unknown-figure"
        ) from None


def draw(store: ox.Store, name: str, options: PlotOptions | None = None) -> Figure:
    """Figure ``name`` of the graph in ``store``, computed and drawn (not yet written)."""
    from kg.plots.canvas import style

    module = figure_module(name)
    options = options or PlotOptions()
    with style():
        data = module.compute(store, options)
        figure: Figure = module.draw(data, options)
    return figure


def plot(store: ox.Store, name: str, target: Path, options: PlotOptions | None = None) -> Path:
    """Compute, draw and write figure ``name`` to ``target`` (``.svg``, or ``.png`` at 300 dpi)."""
    from kg.plots.canvas import output_format, save

    output_format(target)  # a bad suffix fails before the work
    return save(draw(store, name, options), target)
