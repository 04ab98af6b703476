"""The HTML page of a ranking of systems (``compare --html``): every
system's F1 of the ranking metric with its bootstrap interval as a plot,
and the table of ``compare`` (docs/analyses.md §5). It only renders what
:func:`~spacy_coref_eval.analysis.ranking.rank_systems` computed."""

from collections.abc import Mapping, Sequence
from math import ceil
from typing import Any, Optional

from .html import STYLE, footer, nice_step
from .labels import METRIC_NAMES, pct
from .markup import escape, svg

ROW = 28
LEFT = 260
PLOT = 560
RANKING_STYLE = ".ranking td:nth-child(2),.ranking th:nth-child(2){text-align:left}"


def ranking_page(
    ranking: Any, labels: Sequence[str], key: str, *, n_documents: int, level: float, settings: Optional[Mapping[str, Any]] = None
) -> str:
    """The page: a title naming the ``key``, the interval plot and the
    table, best first; the scoring ``settings`` and the version in the footer."""
    name = METRIC_NAMES[ranking.metric]
    body = "\n".join(
        [
            f"<h1>{len(labels)} systems ranked by {escape(name)} F1</h1>",
            f'<p class="meta">Key <code>{escape(key)}</code>, {n_documents} documents; {level:.0%} bootstrap intervals.</p>',
            "<h2>F1 with its interval</h2>",
            ranking_plot(ranking, labels, level),
            "<h2>Ranking</h2>",
            ranking_table_html(ranking, labels),
            *([footer(settings)] if settings is not None else []),
        ]
    )
    return (
        f'<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        f"<title>Ranking by {escape(name)} F1</title>\n<style>{STYLE}{RANKING_STYLE}</style>\n</head>\n"
        f"<body>\n<main>\n{body}\n</main>\n</body>\n</html>\n"
    )


def ranking_plot(ranking: Any, labels: Sequence[str], level: float) -> str:
    """One row a system, best on top: a line over its interval and a dot
    at its F1, on a percent axis from just below the lowest bound to 100,
    ticked every 1, 2, 5, 10, … points (about ten ticks)."""
    lowest = min(low for low, _ in ranking.intervals)
    start = max(0.0, (int(lowest * 20) / 20))
    span = max(1.0 - start, 1e-9)

    def x(value: float) -> float:
        return LEFT + PLOT * (value - start) / span

    parts: list[str] = []
    top = 24
    step = nice_step(100 * span / 10)
    for percent in range(ceil(100 * start / step - 1e-9) * step, 101, step):
        value = percent / 100
        parts.append(
            f'<line x1="{x(value):.1f}" x2="{x(value):.1f}" y1="{top - 8}" y2="{top + ROW * len(labels)}" class="grid"/>'
            f'<text x="{x(value):.1f}" y="{top - 12}" class="tick" text-anchor="middle">{100 * value:.0f}</text>'
        )
    for rank, index in enumerate(ranking.order):
        y = top + ROW * rank + ROW / 2
        low, high = ranking.intervals[index]
        f1 = ranking.f1[index][ranking.metric]
        title = f"{labels[index]}: {pct(f1)} ({pct(low)}–{pct(high)})"
        parts.append(
            f'<g data-system="{rank + 1}"><title>{escape(title)}</title>'
            f'<text x="{LEFT - 8}" y="{y + 4:.1f}" class="tick" text-anchor="end">{rank + 1}. {escape(_short(labels[index]))}</text>'
            f'<line x1="{x(low):.1f}" x2="{x(high):.1f}" y1="{y:.1f}" y2="{y:.1f}" stroke="#4e79a7" stroke-width="3"/>'
            f'<circle cx="{x(f1):.1f}" cy="{y:.1f}" r="5" fill="#4e79a7"/></g>'
        )
    height = top + ROW * len(labels) + 8
    label = f"F1 and {level:.0%} interval of every system"
    return svg("ranking", LEFT + PLOT + 24, height, label=label, parts=parts)


def ranking_table_html(ranking: Any, labels: Sequence[str]) -> str:
    """The ranking as ``compare`` prints it, best first."""
    head = "".join(
        f"<th>{text}</th>"
        for text in (
            "Rank",
            "System",
            f"{escape(METRIC_NAMES[ranking.metric])} F1",
            "Interval",
            "p randomization vs next",
            "p bootstrap vs next",
        )
    )
    rows = []
    for rank, index in enumerate(ranking.order):
        low, high = ranking.intervals[index]
        against = ranking.against_next(rank) if rank + 1 < len(ranking.order) else None
        cells = [
            str(rank + 1),
            f"<code>{escape(labels[index])}</code>",
            pct(ranking.f1[index][ranking.metric]),
            f"{pct(low)}–{pct(high)}",
            f"{against['p_value_randomization']:.4f}" if against else "",
            f"{against['p_value_bootstrap']:.4f}" if against else "",
        ]
        rows.append("<tr>" + "".join(f"<td>{cell}</td>" for cell in cells) + "</tr>")
    return f'<table class="ranking"><thead><tr>{head}</tr></thead><tbody>{"".join(rows)}</tbody></table>'


def _short(label: str, width: int = 36) -> str:
    """A system's label cut from the left to ``width`` characters."""
    return label if len(label) <= width else "…" + label[-(width - 1) :]
