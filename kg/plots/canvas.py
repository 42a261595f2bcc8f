"""The matplotlib side of ``kg plot``: the house style, a new figure, and deterministic, atomic saving.

matplotlib is an optional extra (``plot``; :func:`kg.extras.install_command` says how to install it), imported
here when a figure is drawn.
Figures are made without pyplot (no global state, nothing kept alive after a figure is saved) on the
Agg canvas.  Text from pages is data: mathtext and TeX are off, so a title with ``$x$`` is drawn
as written, never parsed.  SVG output is byte-identical for the same figure (a fixed hash salt for
element ids, no date); PNG is written at 300 dpi (the resolution is stored in its ``pHYs`` chunk).
"""

from __future__ import annotations

import io
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from kg.errors import KgError, UsageError
from kg.files import write_bytes

if TYPE_CHECKING:
    from matplotlib.figure import Figure

FORMATS = ("svg", "png")
"""What ``kg plot --output`` writes, by the file's suffix."""

DPI = 300

STYLE: dict[str, Any] = {
    "text.parse_math": False,  # page text is data: "$" stays a dollar sign
    "text.usetex": False,
    "svg.hashsalt": "kg-plot",  # element ids from a fixed salt: the same figure, the same bytes
    "svg.fonttype": "path",  # glyphs as paths: the SVG shows the same everywhere, no font needed
    "font.family": "DejaVu Sans",  # shipped with matplotlib: no system font lookup, same glyphs everywhere
    "font.size": 9.0,
    "axes.titlesize": 11.0,
    "axes.titleweight": "bold",
    "axes.spines.top": False,
    "axes.spines.right": False,
    "axes.grid": False,
    "figure.dpi": 100.0,
    "savefig.dpi": DPI,
    "path.simplify": True,
}


def require() -> None:
    """Fail with how to install the extra when matplotlib is missing."""
    try:
        import matplotlib  # noqa: F401
    except ImportError as e:
        from kg.extras import install_command

        raise KgError(
            f"kg plot draws with matplotlib, which is not installed: {install_command('plot')}",
            code="missing-extra",
        ) from e


@contextmanager
def style() -> Iterator[None]:
    """The house style, for drawing and saving (matplotlib reads some settings at save time)."""
    require()
    import matplotlib

    with matplotlib.rc_context(cast(Any, STYLE)):
        yield


def new_figure(width: float, height: float) -> Figure:
    """An empty figure of ``width`` x ``height`` inches on the Agg canvas (call inside :func:`style`)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    figure = Figure(figsize=(width, height), layout="constrained")
    FigureCanvasAgg(figure)
    return figure


def output_format(target: Path) -> str:
    """``svg`` or ``png`` from the file's suffix.

    >>> output_format(Path("trend.SVG")), output_format(Path("a/b.png"))
    ('svg', 'png')
    >>> output_format(Path("trend.pdf"))
    Traceback (most recent call last):
    ...
    kg.errors.UsageError: error: cannot write trend.pdf: give a file ending in .svg or .png [bad-output]
    """
    fmt = target.suffix.lower().lstrip(".")
    if fmt not in FORMATS:
        raise UsageError(f"cannot write {target}: give a file ending in .svg or .png", code="bad-output")
    return fmt


def render(figure: Figure, fmt: str) -> bytes:
    """The figure as SVG or PNG bytes (call inside :func:`style`)."""
    buffer = io.BytesIO()
    if fmt == "svg":
        figure.savefig(buffer, format="svg", metadata={"Date": None})
    elif fmt == "png":
        figure.savefig(buffer, format="png", dpi=DPI, metadata={"Software": None})
        buffer = opaque(buffer)
    else:
        raise UsageError(
            f"unknown figure format {fmt!r}; choose from: {', '.join(FORMATS)}", code="bad-output"
        )
    return buffer.getvalue()


def opaque(png: io.BytesIO) -> io.BytesIO:
    """The PNG without its alpha channel (figures are drawn on white): a quarter less to store, and
    no figure that turns black on a viewer that ignores transparency."""
    from PIL import Image  # matplotlib's own dependency

    with Image.open(png) as image:
        out = io.BytesIO()
        image.convert("RGB").save(out, format="png", dpi=(DPI, DPI), optimize=True)
    return out


def save(figure: Figure, target: Path) -> Path:
    """Write the figure to ``target`` (``.svg`` or ``.png``) atomically: complete or not at all."""
    fmt = output_format(target)
    with style():
        data = render(figure, fmt)
    return write_bytes(target, data)
