"""A papers-per-period bar chart (by year, quarter or month) as inline SVG: no script, no font or file
fetched, text escaped.

Every period from the first to the last gets a slot (a period without papers an empty one, so gaps
show), labelled with its count; each bar's tooltip (``<title>``) gives the count and the share of
that period's papers (none when the period has too few papers for a share to mean something).

>>> svg = bars({2024: 2, 2026: 5}, {2024: 10, 2026: 10}, title="<LoRA>")
>>> svg.count("<rect class=\\"bar\\""), "&lt;LoRA&gt;" in svg, "<LoRA>" in svg
(2, True, False)
"""

from __future__ import annotations

import math
from html import escape

from kg.plots.periods import label

WIDTH = 640
HEIGHT = 220
MARGIN_LEFT, MARGIN_RIGHT, MARGIN_TOP, MARGIN_BOTTOM = 44, 12, 16, 36
MAX_YEARS = 60
"""At most this many periods are drawn (the last ones), so a bar never gets thinner than a few pixels."""


def _ticks(top: int) -> list[int]:
    """Round values for the vertical axis, from 0 to at least ``top``.

    >>> _ticks(7), _ticks(1), _ticks(230)
    ([0, 2, 4, 6, 8], [0, 1], [0, 50, 100, 150, 200, 250])
    """
    top = max(top, 1)
    for step in (1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000, 2500, 5000, 10_000):
        if top / step <= 5:
            break
    else:
        step = 10 ** len(str(top // 5))
    last = -(-top // step) * step
    return list(range(0, last + 1, step))


MIN_SHARE = 10
"""A period with fewer papers gets no share (as ``kg.site.entities.MIN_PERIOD``)."""


def share_text(n: int, total: int) -> str:
    """A share with one decimal at most, and ``<0.1%`` for a few papers of many, never ``0.0%``.

    >>> share_text(3, 6), share_text(1, 2759), share_text(1, 3)
    ('50%', '<0.1%', '33.3%')
    """
    share = 100 * n / total
    if 0 < share < 0.05:
        return "<0.1%"
    return f"{share:.1f}".rstrip("0").rstrip(".") + "%"


def bars(
    counts: dict[int, int],
    totals: dict[int, int],
    *,
    title: str,
    grain: str = "year",
    first: int | None = None,
    last: int | None = None,
) -> str:
    """The chart of ``counts`` (period key -> papers) with shares of ``totals`` (period key -> all
    papers), from ``first`` to ``last`` (default: the counts' own span); keys as
    ``kg.plots.periods.period_key`` makes them."""
    known = sorted(k for k in counts if k and counts[k] and (first is None or first <= k) and (last is None or k <= last))
    if not known:
        return ""
    begin = known[0] if first is None else first
    end = known[-1] if last is None else last
    begin = max(begin, end - MAX_YEARS + 1)
    years = list(range(begin, end + 1))
    ticks = _ticks(max(counts.get(y, 0) for y in years))
    top = ticks[-1]
    plot_w = WIDTH - MARGIN_LEFT - MARGIN_RIGHT
    plot_h = HEIGHT - MARGIN_TOP - MARGIN_BOTTOM
    slot = plot_w / len(years)
    bar = max(2.0, min(48.0, slot * 0.7))
    # a label is about 7 units a character at the chart's 12-pixel text: "2025-03" needs a wider slot than
    # "2025", so a month chart labels fewer of its bars than a year chart of as many
    widest = max(len(label(y, grain)) for y in years) * 7 + 8
    label_every = max(1, math.ceil(widest / slot), round(len(years) / 12))
    out = [
        f'<svg class="chart" viewBox="0 0 {WIDTH} {HEIGHT}" width="{WIDTH}" height="{HEIGHT}" '
        f'role="img" aria-label="{escape(title)}" xmlns="http://www.w3.org/2000/svg">',
        f"<title>{escape(title)}</title>",
    ]
    for tick in ticks:
        y = MARGIN_TOP + plot_h - plot_h * tick / top
        out.append(
            f'<line class="grid" x1="{MARGIN_LEFT}" x2="{WIDTH - MARGIN_RIGHT}" y1="{y:.1f}" y2="{y:.1f}"/>'
            f'<text class="tick" x="{MARGIN_LEFT - 6}" y="{y + 4:.1f}" text-anchor="end">{tick}</text>'
        )
    for i, year in enumerate(years):
        n = counts.get(year, 0)
        x = MARGIN_LEFT + slot * i + (slot - bar) / 2
        h = plot_h * n / top
        y = MARGIN_TOP + plot_h - h
        name = label(year, grain)
        tip = f"{name}: {n} paper{'' if n == 1 else 's'}"
        if totals.get(year, 0) >= MIN_SHARE:
            tip += f", {share_text(n, totals[year])} of the {grain}'s {totals[year]}"
        if n:
            out.append(
                f'<rect class="bar" data-period="{name}" data-papers="{n}" x="{x:.1f}" y="{y:.1f}" '
                f'width="{bar:.1f}" height="{h:.1f}"><title>{escape(tip)}</title></rect>'
            )
            if bar >= 14:
                out.append(
                    f'<text class="count" x="{x + bar / 2:.1f}" y="{y - 3:.1f}" text-anchor="middle">{n}</text>'
                )
        if (len(years) - 1 - i) % label_every == 0:  # counted from the last period, which is always labelled
            out.append(
                f'<text class="year" x="{x + bar / 2:.1f}" y="{HEIGHT - MARGIN_BOTTOM + 16}" '
                f'text-anchor="middle">{name}</text>'
            )
    out.append(
        f'<line class="axis" x1="{MARGIN_LEFT}" x2="{WIDTH - MARGIN_RIGHT}" '
        f'y1="{MARGIN_TOP + plot_h}" y2="{MARGIN_TOP + plot_h}"/>'
    )
    out.append("</svg>")
    return "".join(out)
