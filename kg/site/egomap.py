"""A person's coauthor map as inline SVG: no script, nothing fetched, text escaped.

The person sits at the centre; their :data:`MAX_COAUTHORS` coauthors with most joint papers sit on an
ellipse around them, strongest first, clockwise from the top.  A line from the person to a coauthor is
as wide as their joint papers (widest for the most); a thin grey line joins two shown coauthors who
wrote a paper together (with or without the person), as wide as their papers together.  Names are
placed outward, right of the nodes on the right half and left of them on the left half; names on one
side are kept at least a line apart (a name moved off its node gets a thin leader line), so no two
names overlap.  Each coauthor with a page links to it; every node has a ``<title>`` (the name and the
joint papers).  The same graph gives the same bytes: everything is ordered by count, then IRI.

>>> from kg.site.entities import file
>>> from kg.site.queries import Corpus, Paper
>>> a, b = "https://w3id.org/kg/id/person/a", "https://w3id.org/kg/id/person/b"
>>> corpus = Corpus(papers={"x": Paper("x", "X", 2025)}, names={a: "Ada", b: "<Bob>"}, authors={"x": [a, b]})
>>> svg, text = egomap(file(corpus), a, [(b, 1)], "../")
>>> "&lt;Bob&gt;" in svg, "<Bob>" in svg, 'href="../person/b.html"' in svg
(True, False, True)
>>> egomap(file(corpus), "https://w3id.org/kg/id/person/nobody", [], "../")
('', '')
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from html import escape

from kg.site.entities import Site

MAX_COAUTHORS = 16
"""Coauthors drawn at most (those with most joint papers)."""
WIDTH, HEIGHT, LOW = 680, 300, 90
"""The picture's size; with one or two coauthors (on either side of the person) it is LOW high."""
CX = WIDTH / 2
RX, RY = 175.0, 125.0
"""The ellipse the coauthors sit on."""
GAP = 9.0
"""From a node to its name."""
LINE = 15.0
"""Names on one side are at least this far apart vertically (the font is 12px)."""
LABEL_CHARS = 22
"""Longer names are cut (with "…"); the full name is in the node's tooltip."""
CHAR_WIDTH = 7.0
"""A generous estimate of one character's width at 12px, to keep names inside the picture."""
TOP, MARGIN = 14.0, 8.0
"""Names' baselines stay between TOP and the height less MARGIN."""


@dataclass(frozen=True, slots=True)
class Spot:
    """A coauthor on the map: the node and where its name goes."""

    iri: str
    joint: int
    x: float
    y: float
    label_x: float
    label_y: float
    anchor: str
    """``start`` (name to the right of the node) or ``end`` (to the left)."""


def short(name: str) -> str:
    """A name cut to LABEL_CHARS characters.

    >>> short("Ada Lovelace"), len(short("x" * 40))
    ('Ada Lovelace', 22)
    """
    return name if len(name) <= LABEL_CHARS else name[: LABEL_CHARS - 1].rstrip() + "…"


def height(n: int) -> int:
    """The picture's height for ``n`` coauthors.

    >>> height(2), height(3)
    (90, 300)
    """
    return LOW if n <= 2 else HEIGHT


def _spread(wanted: list[float], bottom: float) -> list[float]:
    """Baselines as near ``wanted`` (sorted) as they can be, at least LINE apart, inside TOP..bottom.

    >>> _spread([100.0, 105.0, 300.0], 292.0)
    [100.0, 115.0, 292.0]
    >>> _spread([280.0, 290.0], 292.0)
    [277.0, 292.0]
    """
    out: list[float] = []
    for y in wanted:
        out.append(max(y, TOP, out[-1] + LINE if out else TOP))
    for i in range(len(out) - 1, -1, -1):
        out[i] = min(out[i], bottom, out[i + 1] - LINE if i + 1 < len(out) else bottom)
    return out


def layout(joint: list[tuple[str, int]]) -> list[Spot]:
    """Places for coauthors (IRI and joint papers, strongest first): the ellipse, clockwise from the top
    (one or two: right and left of the person)."""
    n = len(joint)
    cy = height(n) / 2
    nodes = []
    for k, (iri, count) in enumerate(joint):
        angle = math.radians(180 * k if n <= 2 else -90 + 360 * (k + 0.5) / n)
        # cos of exactly +-90 degrees is a rounding error away from 0: round so the side is fixed
        cos, sin = round(math.cos(angle), 9), round(math.sin(angle), 9)
        nodes.append((iri, count, CX + RX * cos, cy + RY * sin, cos >= 0))
    spots: list[Spot] = []
    for right in (True, False):
        side = sorted((node for node in nodes if node[4] is right), key=lambda node: (node[3], node[0]))
        # a name's baseline is 4px below its node's centre, unless that is too near the last name
        ys = _spread([node[3] + 4 for node in side], height(n) - MARGIN)
        for (iri, count, x, y, _), label_y in zip(side, ys, strict=True):
            label_x = x + GAP if right else x - GAP
            spots.append(Spot(iri, count, x, y, label_x, label_y, "start" if right else "end"))
    order = {iri: k for k, (iri, _) in enumerate(joint)}
    return sorted(spots, key=lambda s: order[s.iri])


def _width(count: int, most: int, thin: float, wide: float) -> float:
    return thin + (wide - thin) * count / most


def _n(value: float) -> str:
    """A coordinate, to a tenth of a pixel, without a trailing ``.0``.

    >>> _n(12.0), _n(3.14159), _n(-0.04)
    ('12', '3.1', '0')
    """
    text = f"{value:.1f}".removesuffix(".0")
    return "0" if text == "-0" else text


def caption(coauthors: int, shown: int, among: bool) -> str:
    """What the map shows, in words.

    >>> caption(43, 16, True)
    "The 16 coauthors with most joint papers, of 43. A line's width is their joint papers; grey lines join coauthors who wrote together."
    >>> caption(2, 2, False)
    "Both coauthors. A line's width is their joint papers."
    """
    if coauthors > shown:
        which = f"The {shown} coauthors with most joint papers, of {coauthors:,}."
    else:
        which = {1: "The one coauthor.", 2: "Both coauthors."}.get(shown, f"All {shown} coauthors.")
    grey = "; grey lines join coauthors who wrote together" if among else ""
    return f"{which} A line's width is their joint papers{grey}."


def egomap(site: Site, person: str, counted: list[tuple[str, int]], root: str) -> tuple[str, str]:
    """The coauthor map of ``person`` (``counted``: their coauthors with joint papers, most first, as
    ``kg.site.entities.tally`` orders them) for a page ``root`` below the site folder, as SVG, and its
    :func:`caption`; two empty strings without coauthors."""
    corpus = site.corpus
    shown = counted[:MAX_COAUTHORS]
    if not shown:
        return "", ""
    spots = layout(shown)
    tall = height(len(shown))
    cy = tall / 2
    at = {s.iri: s for s in spots}
    # papers two shown coauthors wrote together: set intersections of their papers (a coauthor of
    # hundreds of papers is on many maps, so their set is made once and kept in the site's memo)
    papers_of: dict[str, frozenset[str]] = site.memo.setdefault("egomap papers", {})
    for iri in at:
        if iri not in papers_of:
            coauthor = site.entities.get(iri)
            papers_of[iri] = frozenset(coauthor.papers if coauthor is not None else ())
    together: dict[tuple[str, str], int] = {}
    ordered = sorted(at)
    for i, a in enumerate(ordered):
        for b in ordered[i + 1 :]:
            n = len(papers_of[a] & papers_of[b])
            if n:
                together[(a, b)] = n
    name = corpus.label(person)
    title = (
        f"Coauthor map of {name}: the {len(shown)} coauthors with most joint papers"
        if len(counted) > len(shown)
        else f"Coauthor map of {name}: {len(shown)} coauthor{'' if len(shown) == 1 else 's'}"
    )
    out = [
        f'<svg class="egomap" viewBox="0 0 {WIDTH} {tall}" width="{WIDTH}" height="{tall}" '
        f'role="group" aria-label="{escape(title)}" xmlns="http://www.w3.org/2000/svg">',
        f"<title>{escape(title)}</title>",
    ]
    # coauthors who wrote together: one path per line width (a clique of 16 is 120 lines)
    point = {s.iri: f"{_n(s.x)} {_n(s.y)}" for s in spots}
    most_together = max(together.values(), default=1)
    by_width: dict[str, list[str]] = {}
    for (a, b), n in sorted(together.items()):
        width = f"{_width(n, most_together, 0.6, 3.0):.2f}"
        by_width.setdefault(width, []).append(f"M{point[a]}L{point[b]}")
    for width, segments in sorted(by_width.items(), key=lambda item: float(item[0])):
        out.append(f'<path class="among" stroke-width="{width}" d="{"".join(segments)}"/>')
    most = shown[0][1]
    for s in spots:
        out.append(
            f'<line class="joint" x1="{_n(CX)}" y1="{_n(cy)}" x2="{_n(s.x)}" y2="{_n(s.y)}" '
            f'stroke-width="{_width(s.joint, most, 1.0, 7.0):.2f}" data-joint="{s.joint}"/>'
        )
    leaders = [
        f"M{_n(s.x)} {_n(s.y)}L{_n(s.label_x - 2 if s.anchor == 'start' else s.label_x + 2)} {_n(s.label_y - 4)}"
        for s in spots
        if abs(s.label_y - 4 - s.y) > 2
    ]
    if leaders:
        out.append(f'<path class="leader" d="{"".join(leaders)}"/>')
    for s in spots:
        label = corpus.label(s.iri)
        tip = f"{label}: {s.joint} joint paper{'' if s.joint == 1 else 's'}"
        anchor = ' text-anchor="end"' if s.anchor == "end" else ""
        node = (
            f'<circle cx="{_n(s.x)}" cy="{_n(s.y)}" r="5"/><title>{escape(tip)}</title>'
            f'<text x="{_n(s.label_x)}" y="{_n(s.label_y)}"{anchor}>{escape(short(label))}</text>'
        )
        href = site.href(s.iri, root)
        out.append(f'<a href="{escape(href)}">{node}</a>' if href is not None else f"<g>{node}</g>")
    out.append(
        f'<g class="person"><circle cx="{_n(CX)}" cy="{_n(cy)}" r="9"/><title>{escape(name)}</title>'
        f'<text x="{_n(CX)}" y="{_n(cy + 24)}" text-anchor="middle">{escape(short(name))}</text></g>'
    )
    out.append("</svg>")
    return "".join(out), caption(len(counted), len(shown), bool(together))
