"""Labels that never overlap: each placed beside its point in the first free spot, most important first.

The figure's layout is fixed first (constrained layout would move the axes after the labels are
measured), then every label is measured on the Agg renderer and tried right, left, above, below
and on the diagonals of its point; one that fits nowhere (it would cover a label already placed,
a point's marker, or leave the plot) is left out.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.backend_bases import RendererBase
    from matplotlib.transforms import Bbox

SPOTS = (
    (1, 0, "left", "center"),
    (-1, 0, "right", "center"),
    (0, 1, "center", "bottom"),
    (0, -1, "center", "top"),
    (1, 1, "left", "bottom"),
    (-1, 1, "right", "bottom"),
    (1, -1, "left", "top"),
    (-1, -1, "right", "top"),
)
"""Where a label may go, as (x, y) directions from its point and the text's alignment there."""


def overlaps(a: Bbox, b: Bbox, pad: float = 4.0) -> bool:
    """Whether two display boxes come closer than ``pad`` pixels.

    >>> from matplotlib.transforms import Bbox
    >>> overlaps(Bbox([[0, 0], [10, 10]]), Bbox([[13.5, 0], [20, 10]])), overlaps(Bbox([[0, 0], [10, 10]]), Bbox([[15, 0], [20, 10]]))
    (True, False)
    """
    return not (a.x1 + pad < b.x0 or b.x1 + pad < a.x0 or a.y1 + pad < b.y0 or b.y1 + pad < a.y0)


def place(
    ax: Axes,
    points: Sequence[tuple[float, float]],
    texts: Sequence[str],
    *,
    sizes: Sequence[float] = (),
    avoid: Sequence[Bbox] = (),
    shorter: Sequence[str] = (),
    fontsize: float = 7.0,
    limit: int = 30,
) -> list[int]:
    """Label ``points`` (data coordinates, most important first) with ``texts`` where they fit; at most
    ``limit`` labels.  ``sizes`` are the points' marker areas (points squared, as ``scatter`` takes
    them); labels keep off those markers and off the display boxes ``avoid``.  A label that fits
    nowhere is tried again as its ``shorter`` text, if given.  Returns the indices of the points
    labelled."""
    from matplotlib.figure import Figure
    from matplotlib.transforms import Bbox

    figure = ax.get_figure(root=True)
    assert isinstance(figure, Figure)
    engine = figure.get_layout_engine()
    if engine is not None:
        engine.execute(figure)
        figure.set_layout_engine("none")
    # an axes with a fixed aspect (the overlay's) is resized when drawn: resize it now, so that the
    # positions measured here are those drawn
    ax.apply_aspect()
    renderer = figure.canvas.get_renderer()  # type: ignore[attr-defined]
    frame = ax.get_window_extent(renderer)
    scale = figure.dpi / 72.0
    radii = [math.sqrt(s / math.pi) * scale if s > 0 else 2.0 for s in sizes] or [2.0] * len(points)
    centres = [ax.transData.transform(p) for p in points]
    taken: list[Bbox] = [
        Bbox([[cx - r, cy - r], [cx + r, cy + r]]) for (cx, cy), r in zip(centres, radii, strict=False)
    ]
    markers = len(taken)
    taken.extend(avoid)
    shown: list[int] = []
    # a pale box behind the text keeps it legible over links; a stroked outline (path effects) would do it
    # too, but writes every glyph's outline twice into the SVG instead of reusing one definition per glyph
    # (a thematic map's SVG: 950 KB against 120 KB)
    halo: dict[str, object] = {
        "boxstyle": "square,pad=0.05",
        "facecolor": "white",
        "edgecolor": "none",
        "alpha": 0.75,
    }
    for i, text in enumerate(texts):
        if len(shown) >= limit or not text:
            continue
        # first beside the point clear of every marker; failing that, over other points' markers (never
        # over a label): the most important nodes sit in the densest places and must still be named
        tries = [(text, True, (1.0, 2.0)), (text, False, (1.0,))]
        if i < len(shorter) and shorter[i] and shorter[i] != text:
            tries += [(shorter[i], True, (1.0, 2.0)), (shorter[i], False, (1.0,))]
        for shown_text, strict, rings in tries:
            near = taken if strict else taken[markers:]
            own = taken[i] if i < markers else None
            radius = radii[i] if i < len(radii) else 2.0
            box = _fit(
                ax,
                renderer,
                frame,
                (i, points[i], shown_text),
                radius,
                scale,
                fontsize,
                halo,
                near,
                own,
                rings,
            )
            if box is not None:
                taken.append(box)
                shown.append(i)
                break
    return shown


def _fit(
    ax: Axes,
    renderer: RendererBase,
    frame: Bbox,
    what: tuple[int, tuple[float, float], str],
    radius: float,
    scale: float,
    fontsize: float,
    halo: dict[str, object],
    taken: Sequence[Bbox],
    own: Bbox | None,
    rings: Sequence[float] = (1.0,),
) -> Bbox | None:
    """Put label ``what`` (index, point, text) in the first spot around its point where it stays in the
    frame and clear of ``taken`` (its own marker ``own`` aside), trying each ring of spots (distances
    from the marker's edge, in gaps) in turn; its box, or None (and no label) when no spot is free.  A
    label set further off than the first ring gets a thin line to its point."""
    i, point, text = what
    for ring, (dx, dy, ha, va) in ((r, spot) for r in rings for spot in SPOTS):
        gap = radius + 2.0 + (ring - 1.0) * (radius + 6.0)
        step = gap / math.sqrt(2) if dx and dy else gap
        label = ax.annotate(
            text,
            point,
            xytext=(dx * step / scale, dy * step / scale),
            textcoords="offset points",
            ha=ha,
            va=va,
            fontsize=fontsize,
            color="#222222",
            bbox=halo,
            annotation_clip=False,
            zorder=5,
            gid=f"label-{i}",
        )
        box = label.get_window_extent(renderer)
        inside = frame.x0 <= box.x0 and box.x1 <= frame.x1 and frame.y0 <= box.y0 and box.y1 <= frame.y1
        if inside and not any(overlaps(box, other) for other in taken if other is not own):
            if ring > 1.0:
                cx, cy = ax.transData.transform(point)
                end = ax.transData.inverted().transform((cx + dx * step, cy + dy * step))
                ax.plot([point[0], end[0]], [point[1], end[1]], color="#888888", linewidth=0.5, zorder=4)
            return box
        label.remove()
    return None
