"""The HTML report's sections that take a score apart (docs/analyses.md):
the error-impact waterfall with its chart, the strata of each attribute
and the variant matrix, rendered from their JSON blocks."""

from collections.abc import Mapping, Sequence
from typing import Any, Optional

from ..analysis.error_types import ERROR_KIND_INFO
from .labels import METRIC_NAMES, METRIC_ORDER, pct
from .markup import escape, interval_text, svg, y_axis
from .views import headline

GAIN, LOSS, BASE = "#59a14f", "#e15759", "#4e79a7"
TITLES = {kind.name: kind.title for kind in ERROR_KIND_INFO}


def _columns(scores: Mapping[str, Any]) -> list[str]:
    return [name for name in METRIC_ORDER if name in scores]


def waterfall_section(block: Optional[Mapping[str, Any]]) -> str:
    """The waterfall: a chart of the headline F1 after each fix, and a
    table of the points every kind gains per metric, in turn and alone."""
    if not block:
        return ""
    names = _columns(block["original"])
    metric = headline(block["original"])
    head = "".join(f"<th>{METRIC_NAMES[name]}</th>" for name in names)
    rows = [
        "<tr><th>Response as scored</th><td></td>" + "".join(f"<td>{pct(block['original'][name]['f1'])}</td>" for name in names) + "</tr>"
    ]
    for step in block["steps"]:
        fixed = step["fixed"] or "none"
        cells = "".join(
            f'<td data-kind="{step["kind"]}" data-metric="{name}">{pct(step["metrics"][name]["f1"])}'
            f'<span class="ci">{_points(step["gain"][name]["f1"])} ({_points(step["alone"]["gain"][name]["f1"])})'
            "</span></td>"
            for name in names
        )
        rows.append(f"<tr><th>+ {escape(TITLES.get(step['kind'], step['kind']).lower())}</th><td>{fixed}</td>{cells}</tr>")
    caption = (
        "F1 (percent) after fixing each kind of error in turn, the last row being the key; under each score the "
        "points that step gains and, in brackets, the points the kind gains fixed alone (from the response as scored)."
    )
    table = (
        f'<table class="waterfall"><caption>{caption}</caption>\n<thead><tr><th>Step</th><th>Fixed</th>{head}</tr></thead>\n'
        "<tbody>\n" + "\n".join(rows) + "\n</tbody></table>"
    )
    return (
        '<section id="waterfall">\n<h2>What the errors cost</h2>\n'
        '<p class="meta">The response fixed one kind of error at a time (after Kummerfeld &amp; Klein 2013; '
        "docs/analyses.md §1) and rescored after every step.</p>\n"
        f"{waterfall_chart(block, metric)}\n{table}\n</section>"
    )


def _points(value: float) -> str:
    return f"{100 * value:+.2f}"


def _waterfall_legend(x: float, y: float) -> str:
    """What the colours of the waterfall mean, above the plot (it must
    read on paper, where tooltips do not show)."""
    items = [(BASE, "response"), (GAIN, "gain"), (LOSS, "loss")]
    out = [
        f'<rect x="{x + index * 100:.1f}" y="{y - 9}" width="10" height="10" fill="{colour}"/>'
        f'<text x="{x + index * 100 + 14:.1f}" y="{y}" class="tick">{text}</text>'
        for index, (colour, text) in enumerate(items)
    ]
    at = x + len(items) * 100
    out.append(
        f'<rect x="{at:.1f}" y="{y - 9}" width="10" height="10" class="alone"/>'
        f'<text x="{at + 14:.1f}" y="{y}" class="tick">fixed alone</text>'
    )
    return "".join(out)


def waterfall_chart(block: Mapping[str, Any], metric: str) -> str:
    """Floating bars of ``metric``'s F1: the response, each step's gain
    (green) or loss (red) from the step before; a hollow bar beside each
    step for the kind fixed alone (from the response). The axis starts at
    the round ten below the lowest value shown."""
    steps = block["steps"]
    values = [block["original"][metric]["f1"]] + [step["metrics"][metric]["f1"] for step in steps]
    alone = [values[0] + step["alone"]["gain"][metric]["f1"] for step in steps]
    floor = max(0, int(100 * min(values + alone) // 10) * 10 - 10) / 100
    width, height, left, top, bottom = 720, 300, 36, 30, 44
    plot_w, plot_h = width - left - 8, height - top - bottom
    slot = plot_w / (len(steps) + 1)
    bar = min(slot * 0.5, 40)
    step_tick = 5 if floor >= 0.6 else (10 if floor >= 0.2 else 20)
    ticks = [(v - 100 * floor, str(v)) for v in range(int(round(100 * floor)), 101, step_tick)]
    parts = y_axis(left, top, plot_w=plot_w, plot_h=plot_h, ticks=ticks, top_value=100 * (1 - floor))

    def y(value: float) -> float:
        return top + plot_h * (1 - (max(value, floor) - floor) / (1 - floor))

    label = METRIC_NAMES[metric]
    parts.append(_waterfall_legend(left, 14))
    parts.append(
        _rect(
            left + slot / 2 - bar / 2,
            y(values[0]),
            bar,
            h=y(floor) - y(values[0]),
            colour=BASE,
            tip=f"{label} F1 of the response: {pct(values[0])}",
            kind="original",
        )
    )
    parts.append(_tick(left + slot / 2, top + plot_h + 14, "response"))
    for index, step in enumerate(steps):
        centre = left + slot * (index + 1.5)
        before, after = values[index], values[index + 1]
        low, high = min(before, after), max(before, after)
        title = TITLES.get(step["kind"], step["kind"])
        tip = f"{title}: {step['fixed'] or 'none'} fixed, {label} F1 {pct(before)} → {pct(after)} ({_points(after - before)})"
        colour = GAIN if after >= before else LOSS
        parts.append(_rect(centre - bar / 2, y(high), bar * 0.7, h=max(y(low) - y(high), 1.0), colour=colour, tip=tip, kind=step["kind"]))
        start, gain = values[0], alone[index] - values[0]
        parts.append(
            f'<rect x="{centre + bar * 0.25:.1f}" y="{y(max(start, alone[index])):.1f}" width="{bar * 0.25:.1f}" '
            f'height="{max(abs(y(start) - y(alone[index])), 1.0):.1f}" class="alone" data-kind="{step["kind"]}">'
            f"<title>{escape(f'{title} fixed alone: {_points(gain)} points of {label} F1')}</title></rect>"
        )
        parts.append(_tick(centre, top + plot_h + 14, title.split()[0].lower()))
        parts.append(_tick(centre, top + plot_h + 26, title.split()[-1].lower()))
    return svg("chart-waterfall", width, height, label=f"{label} F1 after fixing each kind of error", parts=parts)


def _rect(x: float, y: float, w: float, *, h: float, colour: str, tip: str, kind: str) -> str:
    return (
        f'<rect x="{x:.1f}" y="{y:.1f}" width="{w:.1f}" height="{h:.1f}" fill="{colour}" data-kind="{kind}">'
        f"<title>{escape(tip)}</title></rect>"
    )


def _tick(x: float, y: float, text: str) -> str:
    return f'<text x="{x:.1f}" y="{y:.1f}" class="tick" text-anchor="middle">{escape(text)}</text>'


def strata_section(strata: Optional[Mapping[str, Mapping[str, Any]]], level: float) -> str:
    """One table per attribute: every stratum's mentions and F1 per metric
    (with its interval where computed)."""
    if not strata:
        return ""
    tables = []
    for attribute, block in strata.items():
        first = next(iter(block.values()), None)
        names = _columns(first["metrics"]) if first else []
        head = "".join(f"<th>{METRIC_NAMES[name]}</th>" for name in names)
        rows = []
        for stratum, entry in block.items():
            cells = []
            empty = not entry["key_mentions"] and not entry["response_mentions"]
            for name in names:
                bounds = entry.get("intervals", {}).get(name, {}).get("f1")
                ci = (
                    f'<span class="ci">{interval_text(tuple(bounds))}</span>'
                    if bounds and not empty and name not in entry.get("undefined", ())
                    else ""
                )
                undefined = name in entry.get("undefined", ())
                shown = "–" if empty else "n/a" if undefined else pct(entry["metrics"][name]["f1"])
                cells.append(f'<td data-stratum="{escape(stratum)}" data-metric="{name}">{shown}{ci}</td>')
            rows.append(
                f"<tr><th>{escape(stratum)}</th><td>{entry['key_mentions']}</td><td>{entry['response_mentions']}</td>"
                + "".join(cells)
                + "</tr>"
            )
        tables.append(
            f'<h3>By {escape(attribute)}</h3>\n<table class="strata" data-attribute="{escape(attribute)}">'
            f"<thead><tr><th>Stratum</th><th>Key mentions</th><th>Response mentions</th>{head}</tr></thead>\n"
            "<tbody>\n" + "\n".join(rows) + "\n</tbody></table>"
        )
    return (
        '<section id="strata">\n<h2>Scores by stratum</h2>\n'
        '<p class="meta">F1 (percent) of each stratum scored as a corpus of its own: recall over the key\'s '
        f"mentions of the stratum, precision over the response's (docs/analyses.md §3); {level * 100:g}% intervals "
        "where computed; – for a stratum with no mention on either side.</p>\n" + "\n".join(tables) + "\n</section>"
    )


def variants_section(rows: Optional[Sequence[Mapping[str, Any]]]) -> str:
    """The variant matrix: F1 of every metric per setting, and why a row is
    not available."""
    if rows is None:
        return ""
    available = [row for row in rows if row["available"]]
    names = _columns(available[0]["metrics"]) if available else []
    head = "".join(f"<th>{METRIC_NAMES[name]}</th>" for name in names)
    body = []
    for row in rows:
        label = f"{row['preset']} · {row['match']} · singletons {'kept' if row['singletons'] == 'keep' else 'removed'}"
        if row["available"]:
            cells = "".join(f'<td data-metric="{name}">{pct(row["metrics"][name]["f1"])}</td>' for name in names)
        else:
            cells = f'<td colspan="{max(len(names), 1)}" class="meaning">not available: {escape(str(row["reason"]))}</td>'
        body.append(f"<tr><th>{escape(label)}</th>{cells}</tr>")
    return (
        '<section id="variants">\n<h2>Variants</h2>\n'
        '<p class="meta">F1 (percent) under the reference setting and under the CorefUD scorer\'s conventions '
        "with every matching, singletons kept and removed (docs/analyses.md §4).</p>\n"
        f'<table class="variants"><thead><tr><th>Setting</th>{head}</tr></thead>\n<tbody>\n'
        + "\n".join(body)
        + "\n</tbody></table>\n</section>"
    )


STYLE = (
    ".waterfall td,.strata td,.waterfall th{white-space:nowrap}.waterfall{font-size:13px;margin-top:12px}"
    ".chart rect.alone{fill:none;stroke:#1f2328;stroke-width:1.2;stroke-dasharray:3 2}"
    ".variants td.meaning{text-align:left}.variants th{white-space:nowrap}"
)
"""Rules the sections add to the page's style."""
