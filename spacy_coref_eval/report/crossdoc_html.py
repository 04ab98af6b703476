"""The HTML report's cross-document section (docs/crossdoc.md §3),
rendered from its view (:class:`~.views.CrossDocumentView`): mention
detection apart from linking, a chart of every link metric's F1 over all
links, within one document and across documents, the scores with their
counts, and the topics."""

from collections.abc import Sequence
from typing import Optional

from .labels import METRIC_NAMES, fraction, pct
from .markup import escape, svg, y_axis
from .views import CROSS_PARTS, CrossDocumentView, LinkRow

PART_COLOURS = {"": "#8a8a8a", "all": "#4e79a7", "within": "#59a14f", "across": "#f28e2b"}
PART_TITLES = {"all": "all links", "within": "within one document", "across": "across documents", "": "mention detection"}


def cross_document_section(view: Optional[CrossDocumentView]) -> str:
    """The section, or nothing without the view."""
    if view is None:
        return ""
    head = (
        "<thead><tr><th>Score</th><th>Over</th><th>Recall</th><th>Precision</th><th>F1</th>"
        "<th>Recall num / den</th><th>Precision num / den</th></tr></thead>"
    )
    rows = "\n".join(_row(row) for row in view.rows)
    table = f'<table class="crossdoc" data-scope="corpus">{head}\n<tbody>\n' + rows + "\n</tbody></table>"
    return (
        '<section id="cross-document">\n<h2>Within and across documents</h2>\n'
        '<p class="meta">Every topic scored as one document, as the reference scorer scores their concatenation. '
        "Mention detection first, apart from linking (Cattan et al. 2021); then each metric whose counts are links "
        "over all links, the links within one document and the links across documents (Upadhyay et al. 2016; "
        "docs/crossdoc.md §3: BLANC's and LEA's within and across add up to all links, MUC's do not).</p>\n"
        f"{link_chart(view.rows)}\n{table}\n{_topics(view)}</section>"
    )


def _row(row: LinkRow) -> str:
    label = "Mentions" if row.metric == "mentions" else METRIC_NAMES[row.metric]
    counts = ["", ""]
    if row.counts is not None:
        counts = [fraction(row.counts[0], row.counts[1]), fraction(row.counts[2], row.counts[3])]
    cells = "".join(
        f'<td data-rate="{rate}">{pct(value)}</td>'
        for rate, value in (("recall", row.recall), ("precision", row.precision), ("f1", row.f1))
    )
    return (
        f'<tr data-metric="{row.metric}" data-part="{row.part or "mentions"}"><th>{label}</th>'
        f'<td class="over">{PART_TITLES[row.part]}</td>{cells}<td>{counts[0]}</td><td>{counts[1]}</td></tr>'
    )


def link_chart(rows: Sequence[LinkRow]) -> str:
    """Grouped bars: F1 of every link metric over all links, within and
    across documents, and mention detection's F1 on its own."""
    groups: list[tuple[str, list[LinkRow]]] = []
    for row in rows:
        if not groups or groups[-1][0] != row.metric:
            groups.append((row.metric, []))
        groups[-1][1].append(row)
    width, height, left, top, bottom = 640, 300, 36, 34, 28
    plot_w, plot_h = width - left - 8, height - top - bottom
    group = plot_w / max(len(groups), 1)
    bar = min(group / 4, 24)
    parts = y_axis(left, top, plot_w=plot_w, plot_h=plot_h, ticks=[(v, str(v)) for v in range(0, 101, 20)], top_value=100)
    for index, part in enumerate(("",) + CROSS_PARTS):
        at = left + index * 150
        parts.append(
            f'<rect x="{at}" y="{top - 25}" width="10" height="10" fill="{PART_COLOURS[part]}"/>'
            f'<text x="{at + 14}" y="{top - 16}" class="tick">{PART_TITLES[part]}</text>'
        )
    for index, (metric, members) in enumerate(groups):
        centre = left + group * (index + 0.5)
        for slot, row in enumerate(members):
            x = centre + (slot - len(members) / 2) * bar
            y = top + plot_h * (1 - row.f1)
            label = "Mentions" if metric == "mentions" else METRIC_NAMES[metric]
            colour = PART_COLOURS[row.part]
            parts.append(
                f'<rect x="{x:.1f}" y="{y:.1f}" width="{bar - 2:.1f}" height="{top + plot_h - y:.1f}" fill="{colour}" '
                f'data-metric="{metric}" data-part="{row.part or "mentions"}">'
                f"<title>{escape(f'{label} F1 {PART_TITLES[row.part]}: {pct(row.f1)}')}</title></rect>"
            )
        name = "Mentions" if metric == "mentions" else METRIC_NAMES[metric]
        parts.append(f'<text x="{centre:.1f}" y="{top + plot_h + 18}" class="tick" text-anchor="middle">{name}</text>')
    return svg("chart-crossdoc", width, height, label="F1 over all links, within one document and across documents", parts=parts)


def _topics(view: CrossDocumentView) -> str:
    """F1 of every topic: mention detection, then each link metric within and across."""
    if len(view.topics) + view.more < 2:
        return ""
    first = view.topics[0][1]
    columns = [(row.metric, row.part) for row in first if row.part in ("", "within", "across")]
    head = "".join(
        f"<th>{'Mentions' if metric == 'mentions' else METRIC_NAMES[metric]}{' ' + part if part else ''}</th>" for metric, part in columns
    )
    body = []
    for name, rows in view.topics:
        by = {(row.metric, row.part): row for row in rows}
        cells = "".join(
            f'<td data-metric="{metric}" data-part="{part or "mentions"}">{pct(by[metric, part].f1)}</td>' for metric, part in columns
        )
        body.append(f'<tr data-topic="{escape(name)}"><th>{escape(name)}</th>{cells}</tr>')
    more = f'<p class="meta">{view.more} more topics in the JSON output (score --per-doc).</p>\n' if view.more else ""
    return (
        '<h3>By topic</h3>\n<p class="meta">F1 (percent) of every topic.</p>\n'
        f'<table class="crossdoc-topics"><thead><tr><th>Topic</th>{head}</tr></thead>\n<tbody>\n'
        + "\n".join(body)
        + "\n</tbody></table>\n"
        + more
    )


STYLE = ".crossdoc td,.crossdoc-topics td{white-space:nowrap}.crossdoc td.over,.crossdoc th:nth-child(2){text-align:left}"
"""Rules the section adds to the page's style."""
