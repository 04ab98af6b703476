"""What the sections of the HTML report share: escaped text, intervals,
an SVG chart and its horizontal grid."""

import html
from collections.abc import Sequence

from .labels import pct, printable


def escape(text: str) -> str:
    """``text`` for HTML: escaped, with control characters (terminal escape
    codes, bells) written as escapes (:func:`~.labels.printable`)."""
    return html.escape(printable(text))


def interval_text(bounds: tuple[float, float]) -> str:
    """An interval as shown under a score."""
    return f"{pct(bounds[0])}–{pct(bounds[1])}"


def svg(ident: str, width: int, height: int, *, label: str, parts: Sequence[str]) -> str:
    """An inline SVG chart of ``parts``, ``label`` read out for it."""
    return (
        f'<svg id="{ident}" class="chart" viewBox="0 0 {width} {height}" width="{width}" height="{height}" '
        f'role="img" aria-label="{escape(label)}">' + "".join(parts) + "</svg>"
    )


def y_axis(left: int, top: int, *, plot_w: float, plot_h: int, ticks: Sequence[tuple[float, str]], top_value: float) -> list[str]:
    """Horizontal grid lines with their labels."""
    parts = []
    for value, label in ticks:
        y = top + plot_h * (1 - value / top_value)
        parts.append(
            f'<line x1="{left}" x2="{left + plot_w:.1f}" y1="{y:.1f}" y2="{y:.1f}" class="grid"/>'
            f'<text x="{left - 6}" y="{y + 4:.1f}" class="tick" text-anchor="end">{label}</text>'
        )
    return parts
