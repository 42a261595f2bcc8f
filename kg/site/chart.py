"""A papers-per-year bar chart as inline SVG: no script, no font or file fetched, text escaped.

Every year from the first to the last gets a bar (a year without papers gets an empty slot, so
gaps show), labelled with its count; each bar's tooltip (``<title>``) gives the count and the
share of that year's papers.

>>> svg = bars({2024: 2, 2026: 5}, {2024: 10, 2026: 10}, title="<LoRA>")
>>> svg.count("<rect class=\\"bar\\""), "&lt;LoRA&gt;" in svg, "<LoRA>" in svg
(2, True, False)
"""

from __future__ import annotations

from html import escape

WIDTH = 640
HEIGHT = 220
MARGIN_LEFT, MARGIN_RIGHT, MARGIN_TOP, MARGIN_BOTTOM = 44, 12, 16, 36
MAX_YEARS = 60
"""At most this many years are drawn (the last ones), so a bar never gets thinner than a few pixels."""


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


def _number(value: float) -> str:
    return f"{value:.1f}".rstrip("0").rstrip(".")


def bars(counts: dict[int, int], totals: dict[int, int], *, title: str) -> str:
    """The chart of ``counts`` (year -> papers) with shares of ``totals`` (year -> all papers)."""
    known = sorted(y for y in counts if y)
    if not known:
        return ""
    first, last = known[0], known[-1]
    first = max(first, last - MAX_YEARS + 1)
    years = list(range(first, last + 1))
    ticks = _ticks(max(counts.get(y, 0) for y in years))
    top = ticks[-1]
    plot_w = WIDTH - MARGIN_LEFT - MARGIN_RIGHT
    plot_h = HEIGHT - MARGIN_TOP - MARGIN_BOTTOM
    slot = plot_w / len(years)
    bar = max(2.0, min(48.0, slot * 0.7))
    label_every = max(1, round(len(years) / 12))
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
        share = n / totals[year] if totals.get(year) else 0.0
        tip = f"{year}: {n} paper{'' if n == 1 else 's'}"
        if totals.get(year):
            tip += f", {_number(100 * share)}% of the year's {totals[year]}"
        if n:
            out.append(
                f'<rect class="bar" data-year="{year}" data-papers="{n}" x="{x:.1f}" y="{y:.1f}" '
                f'width="{bar:.1f}" height="{h:.1f}"><title>{escape(tip)}</title></rect>'
            )
            if bar >= 14:
                out.append(
                    f'<text class="count" x="{x + bar / 2:.1f}" y="{y - 3:.1f}" text-anchor="middle">{n}</text>'
                )
        if i % label_every == 0 or year == last:
            out.append(
                f'<text class="year" x="{x + bar / 2:.1f}" y="{HEIGHT - MARGIN_BOTTOM + 16}" '
                f'text-anchor="middle">{year}</text>'
            )
    out.append(
        f'<line class="axis" x1="{MARGIN_LEFT}" x2="{WIDTH - MARGIN_RIGHT}" '
        f'y1="{MARGIN_TOP + plot_h}" y2="{MARGIN_TOP + plot_h}"/>'
    )
    out.append("</svg>")
    return "".join(out)
