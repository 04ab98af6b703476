"""How the table and the HTML report render the analyses of long
documents (docs/long-documents.md): antecedent distance, link difficulty,
windows, partial gold and the string-match baseline."""

from collections.abc import Mapping
from typing import Any, Optional

from wasabi import table

from ..analysis.windows import to_json
from .labels import METRIC_NAMES, METRIC_ORDER, fraction, pct, printable
from .markup import escape, interval_text


def antecedents_text(value: Mapping[str, Any], result: Any, per_doc: bool, analyses: Any) -> list[str]:
    rows = [
        [printable(name), str(entry["links"]), str(entry["found"]), pct(entry["recall"])]
        for name, entry in [*value["buckets"].items(), ("all", value["total"])]
    ]
    header = ("Distance (tokens)", "Key links", "Found", "Recall")
    return [
        "Link recall by antecedent distance (each key mention and the nearest preceding mention of its entity)\n"
        + table(rows, header=header, divider=True, aligns=("l", "r", "r", "r"))
    ]


def antecedents_html(block: Optional[Mapping[str, Any]], data: Any) -> str:
    if not block:
        return ""
    rows = "\n".join(
        f"<tr><th>{escape(name)}</th><td>{entry['links']}</td><td>{entry['found']}</td>"
        f'<td data-distance="{escape(name)}">{pct(entry["recall"])}</td></tr>'
        for name, entry in [*block["buckets"].items(), ("all", block["total"])]
    )
    return (
        '<section id="antecedent-distance">\n<h2>Link recall by antecedent distance</h2>\n'
        '<p class="meta">Every key mention linked to the nearest preceding mention of its entity, by the tokens '
        "between their starts; found when both twins lie in one response entity (docs/long-documents.md §2).</p>\n"
        '<table class="strata"><thead><tr><th>Distance (tokens)</th><th>Key links</th><th>Found</th>'
        f"<th>Recall</th></tr></thead>\n<tbody>\n{rows}\n</tbody></table>\n</section>"
    )


def _f1_columns(scores: Mapping[str, Any]) -> list[str]:
    return [name for name in METRIC_ORDER if name in scores]


def windows_text(value: Mapping[str, Any], result: Any, per_doc: bool, analyses: Any) -> list[str]:
    block = to_json(value, False)
    whole, windowed = result.metrics(), block["metrics"]
    names = _f1_columns(whole)
    rows = [
        [METRIC_NAMES[name], pct(whole[name]["f1"]), pct(windowed[name]["f1"]), f"{100 * (windowed[name]['f1'] - whole[name]['f1']):+.2f}"]
        for name in names
    ]
    header = ("Metric", "Whole F1", "Windows F1", "Windows − whole")
    return [
        f"Windows of {block['size']} {block['unit']} ({block['n_windows']} holding a mention), each scored as a "
        "document, beside the whole documents\n" + table(rows, header=header, divider=True, aligns=("l", "r", "r", "r"))
    ]


def windows_html(block: Optional[Mapping[str, Any]], data: Any) -> str:
    if not block:
        return ""
    names = _f1_columns(data.metrics)
    rows = "\n".join(
        f"<tr><th>{METRIC_NAMES[name]}</th><td>{pct(data.metrics[name]['f1'])}</td>"
        f'<td data-metric="{name}">{pct(block["metrics"][name]["f1"])}</td></tr>'
        for name in names
    )
    return (
        '<section id="windows">\n<h2>Windows and whole documents</h2>\n'
        f'<p class="meta">Every document cut into windows of {block["size"]} {escape(block["unit"])}, each scored as '
        "a document (entities cut at window edges; docs/long-documents.md §3), beside the whole documents.</p>\n"
        '<table class="strata"><thead><tr><th>Metric</th><th>Whole F1</th><th>Windows F1</th></tr></thead>\n'
        f"<tbody>\n{rows}\n</tbody></table>\n</section>"
    )


def links_text(value: Mapping[str, Any], result: Any, per_doc: bool, analyses: Any) -> list[str]:
    rows = [
        [
            name,
            pct(entry["recall"]),
            pct(entry["precision"]),
            pct(entry["f1"]),
            fraction(entry["recall_num"], entry["recall_den"]),
            fraction(entry["precision_num"], entry["precision_den"]),
        ]
        for name, entry in value.items()
    ]
    header = ("Links", "Recall", "Precision", "F1", "Recall num / den", "Precision num / den")
    out = "Coreference links by difficulty (surface: same text or head word; seen: head words together in a training entity)\n" + table(
        rows, header=header, divider=True, aligns=("l", "r", "r", "r", "r", "r")
    )
    bounded = [(name, entry["intervals"]) for name, entry in value.items() if "intervals" in entry]
    if bounded:
        level = f"{100 * analyses.level:g}% " if analyses.level is not None else ""
        rows = [
            [name] + [f"{pct(bounds[rate][0])}–{pct(bounds[rate][1])}" for rate in ("recall", "precision", "f1")]
            for name, bounds in bounded
        ]
        out += f"\nBootstrap {level}intervals of the link classes\n" + table(
            rows, header=("Links", "Recall", "Precision", "F1"), divider=True, aligns=("l", "r", "r", "r")
        )
    return [out]


def links_html(block: Optional[Mapping[str, Any]], data: Any) -> str:
    if not block:
        return ""
    rows = []
    for name, entry in block.items():
        cells = []
        for rate in ("recall", "precision", "f1"):
            bounds = entry.get("intervals", {}).get(rate)
            ci = f'<span class="ci">{interval_text(tuple(bounds))}</span>' if bounds else ""
            cells.append(f'<td data-links="{escape(name)}" data-rate="{rate}">{pct(entry[rate])}{ci}</td>')
        rows.append(
            f"<tr><th>{escape(name)}</th><td>{entry['recall_den']:g}</td><td>{entry['precision_den']:g}</td>" + "".join(cells) + "</tr>"
        )
    return (
        '<section id="links">\n<h2>Easy and hard links</h2>\n'
        '<p class="meta">Every coreference link of the key and the response, as BLANC counts them, classed surface '
        "(same text or head word) or other, and seen or unseen in a training file (docs/long-documents.md §5).</p>\n"
        '<table class="strata"><thead><tr><th>Links</th><th>Key links</th><th>Response links</th><th>Recall</th>'
        "<th>Precision</th><th>F1</th></tr></thead>\n<tbody>\n" + "\n".join(rows) + "\n</tbody></table>\n</section>"
    )


def partial_gold_text(value: Mapping[str, Any], result: Any, per_doc: bool, analyses: Any) -> list[str]:
    types = f" (key types: {', '.join(value['key_types'])})" if value["key_types"] else ""
    lines = [
        f"Partial gold{types}: {value['entities']} response entities ({value['mentions']} mentions) twinning no key "
        "mention set aside, not scored as precision errors"
    ]
    for document, entries in value["documents"].items():
        for entry in entries:
            spans = ", ".join(_span(mention) for mention in entry["mentions"])
            lines.append(f"  {printable(document)} e{entry['entity']}: {spans}")
    return ["\n".join(lines) + "\n"]


def _span(mention: Mapping[str, Any]) -> str:
    start, end = mention["span"]
    text = f' "{printable(mention["text"])}"' if "text" in mention else ""
    return f"[{start}, {end}){text}"


def partial_gold_html(block: Optional[Mapping[str, Any]], data: Any) -> str:
    if not block:
        return ""
    items = "\n".join(
        f"<li>{escape(document)} e{entry['entity']}: " + escape(", ".join(_span(m) for m in entry["mentions"])) + "</li>"
        for document, entries in block["documents"].items()
        for entry in entries
    )
    return (
        '<section id="partial-gold">\n<h2>Set aside (partial gold)</h2>\n'
        f'<p class="meta">{block["entities"]} response entities ({block["mentions"]} mentions) twin no key mention '
        "and are not scored as precision errors (docs/long-documents.md §4).</p>\n"
        f"<ul>\n{items}\n</ul>\n</section>"
    )


def baseline_text(value: Mapping[str, Any], result: Any, per_doc: bool, analyses: Any) -> list[str]:
    system = result.metrics()
    names = _f1_columns(system)
    rows = [
        [METRIC_NAMES[name], pct(system[name]["f1"])] + [pct(block["metrics"][name]["f1"]) for block in value.values()] for name in names
    ]
    header = ["Metric", "System F1"] + [f"{variant.capitalize()}-match baseline F1" for variant in value]
    aligns: Any = ("l",) + ("r",) * (len(header) - 1)
    return [
        "The system beside a string-match baseline (the key's mentions with the same text, or head word, in one "
        "entity)\n" + table(rows, header=header, divider=True, aligns=aligns)
    ]


def baseline_html(block: Optional[Mapping[str, Any]], data: Any) -> str:
    if not block:
        return ""
    names = _f1_columns(data.metrics)
    head = "".join(f"<th>{escape(variant)}-match baseline F1</th>" for variant in block)
    rows = "\n".join(
        f"<tr><th>{METRIC_NAMES[name]}</th><td>{pct(data.metrics[name]['f1'])}</td>"
        + "".join(f'<td data-baseline="{escape(v)}">{pct(b["metrics"][name]["f1"])}</td>' for v, b in block.items())
        + "</tr>"
        for name in names
    )
    return (
        '<section id="baseline">\n<h2>Against a string-match baseline</h2>\n'
        '<p class="meta">The key\'s mentions with the same text (or head word) put in one entity, scored with the '
        "same settings (docs/long-documents.md §6).</p>\n"
        f'<table class="strata"><thead><tr><th>Metric</th><th>System F1</th>{head}</tr></thead>\n'
        f"<tbody>\n{rows}\n</tbody></table>\n</section>"
    )
