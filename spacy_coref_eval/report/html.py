"""The HTML report: one self-contained page (inline CSS and SVG, no script,
no external resource) built from plain data by pure functions.

The page shows the metrics with bootstrap intervals, a bar chart of recall,
precision and F1 per metric, the distribution of per-document F1, the error
types, a table of documents, and the worst documents' gold and predicted
mentions side by side (see :mod:`.views`). The same data gives the same
bytes.
"""

from collections.abc import Mapping, Sequence
from math import ceil
from typing import Optional

from ..analysis.error_types import ERROR_KIND_INFO, ERROR_KINDS
from ..analysis.registry import registered_analyses, resolve
from .alignment_html import alignment_section, closure_section
from .breakdowns import STYLE as BREAKDOWN_STYLE
from .crossdoc_html import STYLE as CROSSDOC_STYLE
from .labels import METRIC_NAMES, METRIC_ORDER, RATE_NAMES, fraction, pct, settings_line
from .markup import escape, interval_text, svg, y_axis
from .views import DocumentView, Intervals, Mention, Rates, ReportData, headline, worst_documents

RATE_COLOURS: dict[str, str] = {"recall": "#4e79a7", "precision": "#f28e2b", "f1": "#59a14f"}
PALETTE: tuple[str, ...] = (
    "#4e79a7",
    "#f28e2b",
    "#e15759",
    "#59a14f",
    "#b07aa1",
    "#76b7b2",
    "#edc948",
    "#ff9da7",
    "#9c755f",
    "#17becf",
    "#bcbd22",
    "#d37295",
)
UNALIGNED = "#8a8a8a"
MAX_NESTING_STYLE = 3
BINS = 40


def render_report(data: ReportData) -> str:
    """The whole page: the section of every registered analysis, in
    registry order, between the scores and the documents."""
    sections = [resolve(analysis.html)(data.sections.get(analysis.name), data) for analysis in registered_analyses() if analysis.html]
    body = "\n".join(
        [
            header_section(data),
            *filter(None, [alignment_section(data.alignment), closure_section(data.closure)]),
            metrics_section(data),
            *(part for part in sections if part),
            documents_section(data),
            worst_section(data.views),
            footer(data.settings),
        ]
    )
    return (
        f'<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        f'<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{escape(data.title)}</title>\n<style>{STYLE}{BREAKDOWN_STYLE}{CROSSDOC_STYLE}</style>\n</head>\n"
        f"<body>\n<main>\n{body}\n</main>\n</body>\n</html>\n"
    )


def footer(settings: Mapping[str, object]) -> str:
    """The scorer's version and settings, as a paper cites them."""
    return f'<footer class="meta">{escape(settings_line(settings).strip())}</footer>'


def header_section(data: ReportData) -> str:
    """Title, inputs, settings, headline scores and warnings."""
    settings = " · ".join(f"{escape(str(k))} <b>{escape(str(v))}</b>" for k, v in data.settings.items() if k != "metrics")
    parts = [
        f"<header>\n<h1>{escape(data.title)}</h1>",
        f'<p class="meta">key <code>{escape(data.key)}</code> · response <code>{escape(data.response)}</code></p>',
        f'<p class="meta">{len(data.documents)} documents · {settings} · '
        f"{_level(data.level)} bootstrap intervals over documents ({data.n_resamples} resamples, seed {data.seed})</p>",
        summary_cards(data.metrics, data.intervals),
    ]
    if data.warnings:
        items = "".join(f"<li>{escape(w)}</li>" for w in data.warnings)
        summary = f"<summary>{len(data.warnings)} warning(s)</summary>"
        parts.append(f'<details class="warnings">{summary}<ul>{items}</ul></details>')
    parts.append("</header>")
    return "\n".join(parts)


def _level(level: float) -> str:
    return f"{100 * level:g}%"


def summary_cards(metrics: Rates, intervals: Intervals) -> str:
    """The headline F1, LEA F1 and mention F1 in large type."""
    names = list(dict.fromkeys(name for name in (headline(metrics), "lea", "mentions") if name in metrics))
    cards = []
    for name in names:
        bounds = intervals.get(name, {}).get("f1")
        ci = f'<span class="ci">{interval_text(bounds)}</span>' if bounds else ""
        cards.append(
            f'<div class="card"><span class="label">{METRIC_NAMES[name]} F1</span>'
            f'<span class="big">{pct(metrics[name]["f1"])}</span>{ci}</div>'
        )
    return f'<div class="cards">{"".join(cards)}</div>'


def metrics_section(data: ReportData) -> str:
    """The metrics table beside the bar chart."""
    return (
        f'<section id="metrics">\n<h2>Scores</h2>\n<div class="pair">\n'
        f"{metrics_table(data.metrics, data.intervals, data.macro, level=data.level)}\n"
        f"{prf_chart(data.metrics, data.intervals)}\n</div>\n</section>"
    )


def metrics_table(metrics: Rates, intervals: Intervals, macro: Rates, *, level: float) -> str:
    """One row per metric: recall, precision and F1 (percent) with their
    intervals (and counts as tooltips), and the macro-averaged F1 when given."""
    head = "".join(f"<th>{label}</th>" for _, label in RATE_NAMES)
    macro_head = "<th>Macro F1</th>" if macro else ""
    header = f"<thead><tr><th>Metric</th>{head}{macro_head}</tr></thead>"
    rows = [_metric_row(name, metrics[name], intervals.get(name, {}), macro=macro) for name in METRIC_ORDER if name in metrics]
    caption = (
        f"Percent, micro-averaged; under each score its {_level(level)} bootstrap interval over documents. "
        "Hover a recall or precision for its numerator / denominator."
    )
    body = "\n".join(rows)
    return f'<table class="metrics"><caption>{caption}</caption>\n{header}\n<tbody>\n{body}\n</tbody></table>'


def _metric_row(name: str, scores: Mapping[str, float], bounds: Mapping[str, tuple[float, float]], *, macro: Rates) -> str:
    """Scores of one metric: a cell per rate, then its macro-averaged F1."""
    cells = [f"<th>{METRIC_NAMES[name]}</th>"]
    for rate, _ in RATE_NAMES:
        cells.append(_score_cell(name, rate, scores.get(rate), bounds=bounds.get(rate), tip=_counts(scores, rate)))
    if macro:
        averaged = macro.get(name, {})
        n = averaged.get("n_documents")
        note = None if n is None else f"mean over the {int(n)} documents where {METRIC_NAMES[name]} is defined"
        cells.append(_score_cell(name, "macro_f1", averaged.get("f1"), bounds=None, tip=note))
    return "<tr>" + "".join(cells) + "</tr>"


def _counts(scores: Mapping[str, float], rate: str) -> Optional[str]:
    num, den = scores.get(f"{rate}_num"), scores.get(f"{rate}_den")
    return None if num is None or den is None else fraction(num, den)


def _score_cell(metric: str, rate: str, value: Optional[float], *, bounds: Optional[tuple[float, float]], tip: Optional[str]) -> str:
    if value is None:
        return "<td></td>"
    ci = f'<span class="ci">{interval_text(bounds)}</span>' if bounds else ""
    title = f' title="{escape(tip)}"' if tip else ""
    return f'<td data-metric="{metric}" data-rate="{rate}"{title}>{pct(value)}{ci}</td>'


def prf_chart(metrics: Rates, intervals: Intervals) -> str:
    """Grouped bars of recall, precision and F1 per metric, with interval whiskers."""
    names = [name for name in METRIC_ORDER if name in metrics]
    width, height, left, top, bottom = 640, 330, 36, 30, 28
    plot_w, plot_h = width - left - 8, height - top - bottom
    group = plot_w / max(len(names), 1)
    bar = min(group / 4, 22)
    parts = y_axis(left, top, plot_w=plot_w, plot_h=plot_h, ticks=[(v, str(v)) for v in range(0, 101, 20)], top_value=100)
    parts.append(_legend(left, 14))
    for index, name in enumerate(names):
        centre = left + group * (index + 0.5)
        rates = [rate for rate, _ in RATE_NAMES if rate in metrics[name]]
        for slot, rate in enumerate(rates):
            x = centre + (slot - len(rates) / 2) * bar
            bounds = intervals.get(name, {}).get(rate)
            parts.append(_bar(x, bar - 2, metrics[name][rate], bounds=bounds, top=top, plot_h=plot_h, metric=name, rate=rate))
        parts.append(f'<text x="{centre:.1f}" y="{top + plot_h + 18}" class="tick" text-anchor="middle">{METRIC_NAMES[name]}</text>')
    return svg("chart-prf", width, height, label="Recall, precision and F1 per metric", parts=parts)


def _bar(x: float, w: float, value: float, *, bounds: Optional[tuple[float, float]], top: int, plot_h: int, metric: str, rate: str) -> str:
    """One bar with its tooltip and interval whisker."""
    y = top + plot_h * (1 - value)
    tip = f"{METRIC_NAMES[metric]} {dict(RATE_NAMES)[rate]} {pct(value)}" + (f" ({interval_text(bounds)})" if bounds else "")
    out = (
        f'<rect x="{x:.1f}" y="{y:.1f}" width="{w:.1f}" height="{top + plot_h - y:.1f}" '
        f'fill="{RATE_COLOURS[rate]}"><title>{escape(tip)}</title></rect>'
    )
    if bounds:
        mid, lo, hi = x + w / 2, top + plot_h * (1 - bounds[0]), top + plot_h * (1 - bounds[1])
        out += f'<path d="M{mid:.1f} {lo:.1f}V{hi:.1f}M{mid - 3:.1f} {lo:.1f}h6M{mid - 3:.1f} {hi:.1f}h6" class="whisker"/>'
    return out


def _legend(x: float, y: float) -> str:
    items = []
    for index, (rate, label) in enumerate(RATE_NAMES):
        at = x + index * 90
        items.append(
            f'<rect x="{at:.1f}" y="{y - 9}" width="10" height="10" fill="{RATE_COLOURS[rate]}"/>'
            f'<text x="{at + 14:.1f}" y="{y}" class="tick">{label}</text>'
        )
    return "".join(items)


def f1_histogram(values: Sequence[float], micro: float, macro: Optional[float], *, metric: str) -> str:
    """Documents per bin of F1 (:data:`BINS` bins over 0–100), with the
    corpus (micro) and the macro-averaged F1 as vertical lines."""
    width, height, left, top, bottom = 640, 220, 36, 30, 34
    plot_w, plot_h = width - left - 12, height - top - bottom
    counts = histogram_counts(values)
    step = nice_step(max(counts) / 4)
    top_count = step * max(1, ceil(max(counts) / step))
    parts = y_axis(left, top, plot_w=plot_w, plot_h=plot_h, ticks=[(v, str(v)) for v in range(0, top_count + 1, step)], top_value=top_count)
    bin_w = plot_w / BINS
    for index, count in enumerate(counts):
        if count:
            x, y = left + index * bin_w, top + plot_h * (1 - count / top_count)
            tip = f"{metric} F1 {100 * index / BINS:g}–{100 * (index + 1) / BINS:g}: {count} document(s)"
            parts.append(
                f'<rect x="{x + 1:.1f}" y="{y:.1f}" width="{bin_w - 2:.1f}" height="{top + plot_h - y:.1f}" '
                f'fill="{RATE_COLOURS["recall"]}"><title>{escape(tip)}</title></rect>'
            )
    for value in range(0, 101, 10):
        x = left + plot_w * value / 100
        parts.append(f'<text x="{x:.1f}" y="{top + plot_h + 16}" class="tick" text-anchor="middle">{value}</text>')
    parts.append(
        f'<text x="{left + plot_w / 2:.1f}" y="{height - 2}" class="tick" text-anchor="middle">{metric} F1 of each document (%)</text>'
    )
    averages = [("micro", f"corpus (micro) {pct(micro)}", micro)]
    if macro is not None:
        averages.append(("macro", f"macro average {pct(macro)}", macro))
    parts += [
        _average_line(left, top, plot_w=plot_w, plot_h=plot_h, slot=slot, kind=kind, label=label, value=value)
        for slot, (kind, label, value) in enumerate(averages)
    ]
    return svg("chart-f1", width, height, label=f"Distribution of per-document {metric} F1", parts=parts)


def histogram_counts(values: Sequence[float]) -> list[int]:
    """How many of ``values`` (fractions) fall in each of the :data:`BINS`
    bins; 1.0 counts in the last."""
    counts = [0] * BINS
    for value in values:
        counts[min(int(value * BINS), BINS - 1)] += 1
    return counts


def _average_line(left: int, top: int, *, plot_w: float, plot_h: int, slot: int, kind: str, label: str, value: float) -> str:
    """A vertical line at ``value`` and its key above the plot."""
    x, key_x = left + plot_w * value, left + slot * 170
    return (
        f'<line x1="{x:.1f}" x2="{x:.1f}" y1="{top}" y2="{top + plot_h}" class="{kind}"/>'
        f'<line x1="{key_x}" x2="{key_x + 18}" y1="10" y2="10" class="{kind}"/>'
        f'<text x="{key_x + 24}" y="14" class="tick">{escape(label)}</text>'
    )


def nice_step(least: float) -> int:
    """The smallest of 1, 2, 5, 10, 20, 50, ... not below ``least``."""
    scale = 1
    while True:
        for base in (1, 2, 5):
            if base * scale >= least:
                return base * scale
        scale *= 10


def errors_section(totals: Mapping[str, int]) -> str:
    """The error-type counts of the corpus, with bars."""
    largest = max((totals.get(key, 0) for key in ERROR_KINDS), default=0) or 1
    rows = []
    for kind in ERROR_KIND_INFO:
        count = totals.get(kind.name, 0)
        rows.append(
            f'<tr><th>{kind.title}</th><td data-error="{kind.name}">{count}</td>'
            f'<td class="barcell"><span class="hbar" style="width:{100 * count / largest:.1f}%"></span></td>'
            f'<td class="meaning">{kind.description}</td></tr>'
        )
    return (
        '<section id="errors">\n<h2>Error types</h2>\n'
        '<p class="meta">Counts over the corpus, after Kummerfeld &amp; Klein (2013).</p>\n'
        '<table class="errors"><tbody>\n' + "\n".join(rows) + "\n</tbody></table>\n</section>"
    )


BAR_SHARE = 75
"""Percent of a class-chart cell a full bar takes, leaving room for its number."""


def classes_section(classes: Optional[Mapping[str, object]]) -> str:
    """The resolution classes of Stoyanov et al. (2009): per class its
    share of the anaphoric mentions and its MUC-RC F1, as bars."""
    if not classes:
        return ""
    rows = []
    for name, block in classes.items():
        if not isinstance(block, Mapping) or "muc_rc" not in block:
            continue
        share, f1 = float(block["share"]), float(block["muc_rc"]["f1"])  # type: ignore[index]
        rows.append(
            f'<tr><th>{escape(name)}</th><td data-class-count="{escape(name)}">{block["count"]}</td>'
            f'<td class="barcell"><span class="hbar share" style="width:{BAR_SHARE * share:.1f}%"></span> {pct(share)}%</td>'
            f'<td class="barcell"><span class="hbar f1" style="width:{BAR_SHARE * f1:.1f}%"></span> {pct(f1)}</td></tr>'
        )
    head = "<thead><tr><th>Class</th><th>Count</th><th>Share of anaphoric mentions</th><th>MUC-RC F1</th></tr></thead>"
    cpp = float(classes.get("cpp", 0.0))  # type: ignore[arg-type]
    return (
        '<section id="classes">\n<h2>Resolution classes</h2>\n'
        '<p class="meta">Anaphoric gold mentions by class and MUC-RC per class, after Stoyanov et al. (2009, §4); '
        f"CPP prediction of MUC F1 from this mix: {pct(cpp)}.</p>\n"
        f'<table class="classes">{head}<tbody>\n' + "\n".join(rows) + "\n</tbody></table>\n</section>"
    )


def documents_section(data: ReportData) -> str:
    """Per-document F1 distribution and the table of documents, worst first."""
    if not data.documents:
        return '<section id="documents">\n<h2>Documents</h2>\n<p class="meta">No documents.</p>\n</section>'
    metric = headline(data.metrics)
    values = [doc[metric]["f1"] for doc in data.documents.values()]
    macro = data.macro.get(metric, {}).get("f1") if data.macro else None
    chart = f1_histogram(values, data.metrics[metric]["f1"], macro, metric=METRIC_NAMES[metric])
    anchors = {view.name: f"doc-{index + 1}" for index, view in enumerate(data.views)}
    return (
        f'<section id="documents">\n<h2>Documents</h2>\n{chart}\n'
        f"{documents_table(data.documents, data.errors, metric, anchors=anchors)}\n</section>"
    )


def documents_table(
    documents: Mapping[str, Rates], errors: Mapping[str, Mapping[str, int]], metric: str, *, anchors: Mapping[str, str]
) -> str:
    """One row per document, worst first (:func:`~.views.worst_documents`);
    the worst link to their view."""
    error_head = "".join(f'<th title="{kind.description}">{kind.title}</th>' for kind in ERROR_KIND_INFO)
    header = f"<thead><tr><th>Document</th><th>{METRIC_NAMES[metric]} F1</th><th>Mentions F1</th>{error_head}</tr></thead>"
    rows = []
    for name in worst_documents(documents, len(documents)):
        doc = documents[name]
        label = f'<a href="#{anchors[name]}">{escape(name)}</a>' if name in anchors else escape(name)
        counts = "".join(f"<td>{errors.get(name, {}).get(key, '')}</td>" for key in ERROR_KINDS)
        scores = f"<td>{pct(doc[metric]['f1'])}</td><td>{pct(doc['mentions']['f1'])}</td>"
        rows.append(f"<tr><th>{label}</th>{scores}{counts}</tr>")
    table = f'<table class="documents">\n{header}\n<tbody>\n' + "\n".join(rows) + "\n</tbody></table>"
    return f'<div class="scroll">{table}</div>'


def worst_section(views: Sequence[DocumentView]) -> str:
    """The worst documents, gold and predicted mentions side by side."""
    if not views:
        return ""
    docs = "\n".join(document_view_html(view, index + 1) for index, view in enumerate(views))
    return f'<section id="worst">\n<h2>Worst documents</h2>\n{LEGEND}\n{docs}\n</section>'


def document_view_html(view: DocumentView, rank: int) -> str:
    """One document: its scores, errors, window note and the two sides."""
    metric = headline(view.metrics)
    scores = " · ".join(
        f"{METRIC_NAMES[name]} F1 <b>{pct(view.metrics[name]['f1'])}</b>"
        for name in dict.fromkeys((metric, "lea", "mentions"))
        if name in view.metrics
    )
    errors = " · ".join(f"{kind.title.lower()} <b>{view.errors[kind.name]}</b>" for kind in ERROR_KIND_INFO if view.errors.get(kind.name))
    return (
        f'<article class="doc" id="doc-{rank}">\n<h3>{rank}. {escape(view.name)}</h3>\n'
        f'<p class="meta">{scores}</p>\n'
        + (f'<p class="meta">{errors}</p>\n' if errors else "")
        + f'<p class="note">{window_note(view)}</p>\n<div class="sides">\n'
        f"{side_html('gold', 'Gold', view.words, first=view.first, mentions=view.key)}\n"
        f"{side_html('pred', 'Predicted', view.words, first=view.first, mentions=view.response)}\n"
        "</div>\n</article>"
    )


def window_note(view: DocumentView) -> str:
    """Which tokens are shown."""
    if len(view.words) == view.n_tokens:
        return f"Whole document: {view.n_tokens} tokens."
    return (
        f"Tokens {view.first + 1}–{view.first + len(view.words)} of {view.n_tokens}: the stretch with the "
        f"most errors. Mentions shown: {len(view.key)} of {view.n_key} gold, "
        f"{len(view.response)} of {view.n_response} predicted (mentions crossing the edges are left out)."
    )


def side_html(kind: str, title: str, words: Sequence[str], *, first: int, mentions: Sequence[Mention]) -> str:
    """One column: a title and the text with its mentions highlighted."""
    twinless = sum(m.twinless for m in mentions)
    what = "missing from the prediction" if kind == "gold" else "not in the gold"
    return (
        f'<div class="side {kind}"><h4>{title} <span class="meta">{len(mentions)} mentions, '
        f"{twinless} {what}</span></h4>\n"
        f'<div class="text">{mention_markup(words, first, mentions)}</div></div>'
    )


def mention_markup(words: Sequence[str], first: int, mentions: Sequence[Mention]) -> str:
    """The words (token ``first`` on) with every mention as a bordered span,
    nested spans inside their parents. A mention crossing another is cut
    into fragments; its label follows the last one."""
    return _MarkupWriter(mentions).write(words, first)


class _MarkupWriter:
    """Writes spans token by token, with a stack of the open ones: each
    entry is a mention index, where its opening tag stands in ``parts`` and
    whether it continues a fragment cut before."""

    def __init__(self, mentions: Sequence[Mention]) -> None:
        self.mentions = mentions
        self.heights = nesting_heights(mentions)
        self.parts: list[str] = []
        self.stack: list[tuple[int, int, bool]] = []

    def write(self, words: Sequence[str], first: int) -> str:
        starting: dict[int, list[int]] = {}
        for index, mention in enumerate(self.mentions):
            starting.setdefault(mention.start, []).append(index)
        stop = first + len(words)
        for token in range(first, stop + 1):
            reopen = self.close_at(token)
            if token == stop:
                break
            if token > first:
                self.parts.append(" ")
            for index in reopen:
                self.open(index, continued=True)
            for index in starting.get(token, ()):
                self.open(index, continued=False)
            self.parts.append(escape(words[token - first]))
        return "".join(self.parts)

    def open(self, index: int, continued: bool) -> None:
        self.stack.append((index, len(self.parts), continued))
        self.parts.append(_open_tag(self.mentions[index], self.heights[index], continued, cut=False))

    def close_at(self, token: int) -> list[int]:
        """Close the mentions ending at ``token`` and the spans opened inside
        them; returns those to reopen (the ones not ending here)."""
        ending = [depth for depth, (index, _, _) in enumerate(self.stack) if self.mentions[index].end == token]
        if not ending:
            return []
        closing = self.stack[ending[0] :]
        del self.stack[ending[0] :]
        for index, at, continued in reversed(closing):
            mention = self.mentions[index]
            final = mention.end == token
            self.parts[at] = _open_tag(mention, self.heights[index], continued, cut=not final)
            self.parts.append(f'<sub class="l">{escape(mention.label)}</sub></span>' if final else "</span>")
        return [index for index, _, _ in closing if self.mentions[index].end != token]


def _open_tag(mention: Mention, height: int, continued: bool, *, cut: bool) -> str:
    """Classes: colour slot, nesting height, ``t`` twinless, ``c`` continues
    a cut fragment, ``o`` is cut (continues after)."""
    colour = f"p{mention.colour % len(PALETTE)}" if mention.colour >= 0 else "px"
    classes = ["m", colour, f"h{min(height, MAX_NESTING_STYLE)}"]
    classes += ["t"] if mention.twinless else []
    classes += ["c"] if continued else []
    classes += ["o"] if cut else []
    title = "" if continued else f' title="{escape(_mention_title(mention))}"'
    return f'<span class="{" ".join(classes)}"{title}>'


def _mention_title(mention: Mention) -> str:
    twin = " (no twin on the other side)" if mention.twinless else ""
    return f"entity {mention.label}{twin}"


def nesting_heights(mentions: Sequence[Mention]) -> list[int]:
    """For every mention, how deep the mentions inside it nest (0: none)."""
    order = sorted(range(len(mentions)), key=lambda i: mentions[i].end - mentions[i].start)
    heights = [0] * len(mentions)
    for position, outer in enumerate(order):
        o = mentions[outer]
        inside = [heights[inner] + 1 for inner in order[:position] if o.start <= mentions[inner].start and mentions[inner].end <= o.end]
        heights[outer] = max(inside, default=0)
    return heights


LEGEND = (
    '<p class="legend">Each box is a mention, its number the entity. A predicted entity takes the colour '
    "and number of the gold entity it shares most mentions with; <b>b</b>, <b>c</b>, … mark further "
    'pieces of a divided gold entity and <span class="m px h0">grey<sub class="l">x1</sub></span> a '
    "predicted entity sharing no mention with the gold. "
    '<span class="m p0 h0 t">Dashed<sub class="l">1</sub></span> '
    "mentions have no twin on the other side: missing from the prediction (gold column) or not in the "
    "gold (predicted column).</p>"
)

_PALETTE_CSS = "".join(f".p{i}{{--c:{c};--b:{c}2e}}" for i, c in enumerate(PALETTE)) + f".px{{--c:{UNALIGNED};--b:{UNALIGNED}24}}"

PRINT_STYLE = (
    "@media print{"
    "*{-webkit-print-color-adjust:exact;print-color-adjust:exact}"
    "main{max-width:none;padding:0}"
    ".scroll{max-height:none;overflow:visible;border:0}"
    ".documents thead th{position:static}.documents{font-size:10px}"
    ".doc,.chart,.cards,tr,footer{break-inside:avoid}h2,h3{break-after:avoid}"
    ".sides{grid-template-columns:1fr 1fr}"
    "a{color:inherit;text-decoration:none}"
    "}"
)
"""On paper: every row of the documents table (no scrolling box), charts
and documents kept whole on a page, colours printed."""
STYLE = (
    ":root{--fg:#1f2328;--muted:#59636e;--line:#d1d9e0;--soft:#f6f8fa}"
    "*{box-sizing:border-box}"
    "body{margin:0;color:var(--fg);background:#fff;"
    "font:14px/1.5 system-ui,-apple-system,'Segoe UI',Roboto,'Helvetica Neue',Arial,sans-serif}"
    "main{max-width:1240px;margin:0 auto;padding:24px 32px 48px}"
    "h1{font-size:24px;margin:0 0 6px}"
    "h2{font-size:18px;margin:32px 0 12px;padding-bottom:6px;border-bottom:1px solid var(--line)}"
    "h3{font-size:16px;margin:24px 0 4px}h4{font-size:14px;margin:0 0 6px}"
    "p{margin:4px 0}.meta,.note,caption{color:var(--muted)}.note{font-size:13px}"
    "code{font:12px ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;background:var(--soft);"
    "padding:1px 4px;border-radius:4px}"
    ".cards{display:flex;gap:12px;margin:16px 0 4px}"
    ".card{border:1px solid var(--line);border-radius:8px;padding:10px 16px;min-width:150px;background:var(--soft)}"
    ".card .label{display:block;color:var(--muted);font-size:12px;text-transform:uppercase;letter-spacing:.04em}"
    ".card .big{font-size:28px;font-weight:600;font-variant-numeric:tabular-nums}"
    ".warnings{margin-top:12px;background:#fff8c5;border:1px solid #d4a72c66;border-radius:6px;padding:6px 12px}"
    ".pair{display:flex;flex-wrap:wrap;gap:24px;align-items:flex-start}"
    "table{border-collapse:collapse;font-variant-numeric:tabular-nums}"
    "caption{caption-side:bottom;text-align:left;font-size:12px;padding-top:6px}"
    "th,td{padding:4px 8px;text-align:right;border-bottom:1px solid var(--line);vertical-align:top}"
    "th:first-child{text-align:left}thead th{font-size:12px;color:var(--muted);font-weight:600;vertical-align:bottom}"
    ".documents th:first-child{font-weight:500;overflow-wrap:anywhere;min-width:220px}"
    ".ci{display:block;font-size:11px;color:var(--muted)}"
    ".errors td.meaning{text-align:left;color:var(--muted);font-size:13px}"
    ".barcell{width:180px;text-align:left}"
    ".hbar{display:inline-block;height:10px;background:#e15759;border-radius:2px}"
    ".hbar.share{background:#4e79a7}.hbar.f1{background:#59a14f}"
    ".classes td.barcell{white-space:nowrap;min-width:16em}"
    ".scroll{max-height:320px;overflow:auto;border:1px solid var(--line);border-radius:6px;margin-top:12px}"
    ".documents{width:100%;font-size:12px}.documents thead th{position:sticky;top:0;background:#fff}"
    ".chart{max-width:100%;height:auto;font-size:11px}.chart .tick{fill:var(--muted)}"
    ".chart .grid{stroke:#e6eaef}.chart .whisker{stroke:#1f2328;stroke-width:1.2;fill:none}"
    ".chart line.micro{stroke:#1f2328;stroke-width:1.5}"
    ".chart line.macro{stroke:#e15759;stroke-width:1.5;stroke-dasharray:4 3}"
    ".legend{font-size:13px;color:var(--muted);line-height:2.2;max-width:980px}"
    ".doc{border-top:1px solid var(--line);padding-top:4px;margin-top:20px}"
    ".sides{display:grid;grid-template-columns:minmax(0,1fr) minmax(0,1fr);gap:16px;margin-top:8px}"
    ".text{border:1px solid var(--line);border-radius:6px;padding:10px 14px;line-height:2.6;font-size:14px}"
    ".m{border:1.5px solid var(--c);background:var(--b);border-radius:4px;padding:1px 2px;"
    "-webkit-box-decoration-break:clone;box-decoration-break:clone}"
    ".m.h1{padding:3px 3px}.m.h2{padding:5px 4px}.m.h3{padding:7px 5px}"
    ".m.t{border-style:dashed;border-width:2px}"
    ".m.o{border-right:0;border-top-right-radius:0;border-bottom-right-radius:0}"
    ".m.c{border-left:0;border-top-left-radius:0;border-bottom-left-radius:0}"
    ".l{font-size:10px;font-weight:700;color:var(--c);color:color-mix(in srgb,var(--c) 65%,#000);"
    "margin-left:2px;vertical-align:-.35em;line-height:1}" + PRINT_STYLE + _PALETTE_CSS
)
