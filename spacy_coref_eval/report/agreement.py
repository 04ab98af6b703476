"""The ``agree`` report: tables, and one self-contained HTML page in the
styles of the scoring report (:mod:`.html`), from the JSON of
:meth:`~..analysis.agreement.Agreement.to_dict`."""

from collections.abc import Mapping, Sequence
from typing import Any, Optional

from wasabi import table

from .alignment_html import closure_section
from .html import STYLE, mention_markup
from .labels import METRIC_NAMES, pct, printable
from .markup import escape
from .views import Mention

WIDEST = 80
"""The widest cell of a table (wasabi cuts its columns at 30 characters)."""
SHOWN = 20
"""Disagreements listed in the table (all in JSON and HTML)."""


def _name(metric: str) -> str:
    return "Mentions" if metric == "mentions" else METRIC_NAMES.get(metric, metric)


def _cell(value: Optional[float]) -> str:
    return "–" if value is None else pct(value)


def _interval(bounds: Optional[Sequence[float]]) -> str:
    return "" if bounds is None else f" [{pct(bounds[0])}–{pct(bounds[1])}]"


def agreement_tables(data: Mapping[str, Any], *, shown: int = SHOWN, per_doc: bool = False) -> str:
    """The tables: mean pairwise F1 per metric (detection, all, linking),
    alpha (by document too with ``per_doc``), the CoNLL and mentions
    matrices with the system row, the closure and the first ``shown``
    disagreements.

    Parameters
    ----------
    data : the JSON report.
    shown : disagreements listed.
    per_doc : add alpha by document.
    """
    annotators = data["annotators"]
    parts: list[str] = []
    system = data.get("system")
    rows = [
        [
            _name(metric),
            _cell(mean),
            _cell(data["linking"]["mean_pairwise"].get(metric)),
            *([_cell(system["mean"].get(metric))] if system else []),
        ]
        for metric, mean in data["mean_pairwise"].items()
    ]
    header = ("Metric", "Mean pairwise F1", "Linking (shared mentions)", *(["System vs annotators"] if system else []))
    parts.append(table(rows, header=header, divider=True, aligns=_aligns(len(header) - 1), max_col=WIDEST))
    alpha = data["alpha"]
    parts.append(
        table(
            [
                ["MASI, all units", _cell_alpha(alpha["masi"]), str(alpha["units"])],
                ["MASI, units every annotator marked", _cell_alpha(alpha["linking"]), str(alpha["linking_units"])],
            ],
            header=("Krippendorff's alpha", "Value", "Units"),
            divider=True,
            aligns=_aligns(2),
            max_col=WIDEST,
        )
    )
    if per_doc:
        rows = [
            [
                printable(name),
                str(len(doc["annotators"])),
                str(doc["units"]),
                _cell_alpha(doc["masi"]),
                str(doc["linking_units"]),
                _cell_alpha(doc["linking"]),
            ]
            for name, doc in alpha["documents"].items()
        ]
        parts.append(
            table(
                rows,
                header=("Document", "Annotators", "Units", "Alpha", "Linking units", "Linking alpha"),
                divider=True,
                aligns=_aligns(5),
                max_col=WIDEST,
            )
        )
    for metric in ("conll", "mentions"):
        matrix = data["pairwise"].get(metric)
        if matrix is None:
            continue
        bounds = data.get("intervals", {}).get(metric)
        rows = [
            [printable(name), *(_cell(v) + (_interval(bounds[i][j]) if bounds and i != j else "") for j, v in enumerate(row))]
            for i, (name, row) in enumerate(zip(annotators, matrix))
        ]
        if data.get("system"):
            system = data["system"]
            rows.append(
                [
                    f"{printable(system['name'])} (system)",
                    *(_cell(v) + _interval(b) for v, b in zip(system["f1"][metric], system["intervals"][metric])),
                ]
            )
        parts.append(
            f"{_name(metric)} F1, key (rows) against response (columns)\n"
            + table(rows, header=("", *map(printable, annotators)), divider=True, aligns=_aligns(len(annotators)), max_col=WIDEST)
        )
    if data.get("closure"):
        parts.append(closure_table(data["closure"]))
    listing = data["disagreements"]
    if listing:
        rows = [
            [
                printable(entry["document"]),
                printable(entry["unit"]),
                printable(name),
                "not marked" if entity is None else printable(", ".join(entity)),
            ]
            for entry in listing[:shown]
            for name, entity in entry["entities"].items()
        ]
        more = f"\n... and {len(listing) - shown} more disagreements (-f json lists them all)" if len(listing) > shown else ""
        parts.append(
            f"Disagreements ({len(listing)} units)\n"
            + table(rows, header=("Document", "Unit", "Annotator", "Entity"), divider=True, max_col=WIDEST)
            + more
        )
    return "\n".join(parts) + "\n"


def closure_table(closure: Mapping[str, Any]) -> str:
    """What closing links into entities did, by annotator (or side)."""
    names = list(next(iter(closure.values()))["counts"])
    rows = [[printable(who), *(str(report["counts"][name]) for name in names)] for who, report in closure.items()]
    header = ("Closure of links", *(name.replace("_", " ") for name in names))
    return table(rows, header=header, divider=True, aligns=_aligns(len(names)))


def _aligns(numbers: int) -> Any:
    """A first column on the left and ``numbers`` columns on the right."""
    return ("l",) + ("r",) * numbers


def _cell_alpha(value: Optional[float]) -> str:
    return "–" if value is None else f"{value:.4f}"


def agreement_page(data: Mapping[str, Any], *, title: str = "Agreement", views: Sequence[Mapping[str, Any]] = ()) -> str:
    """The HTML page: the matrices, alpha, the system row, the closure,
    every disagreement (one column per annotator) and the documents with
    the most disagreements, the annotators' mentions side by side.

    Parameters
    ----------
    data : the JSON report.
    title : the page title.
    views : the documents shown side by side (:meth:`~..analysis.agreement.Agreement.views`).
    """
    annotators = data["annotators"]
    sections = [f"<header><h1>{escape(title)}</h1><p>Annotators: {escape(', '.join(annotators))}</p></header>"]
    means = "".join(
        f"<tr><th>{escape(_name(m))}</th><td>{_cell(v)}</td><td>{_cell(data['linking']['mean_pairwise'].get(m))}</td></tr>"
        for m, v in data["mean_pairwise"].items()
    )
    sections.append(
        "<section><h2>Mean pairwise F1</h2><table><thead><tr><th>Metric</th><th>All mentions</th>"
        f"<th>Linking (shared mentions)</th></tr></thead><tbody>{means}</tbody></table></section>"
    )
    alpha = data["alpha"]
    sections.append(
        "<section><h2>Krippendorff's alpha (MASI)</h2><table><tbody>"
        f"<tr><th>All units ({alpha['units']})</th><td>{_cell_alpha(alpha['masi'])}</td></tr>"
        f"<tr><th>Units every annotator marked ({alpha['linking_units']})</th><td>{_cell_alpha(alpha['linking'])}</td></tr>"
        "</tbody></table></section>"
    )
    for metric, matrix in data["pairwise"].items():
        head = "".join(f"<th>{escape(name)}</th>" for name in annotators)
        body = "".join(
            f"<tr><th>{escape(name)}</th>" + "".join(f"<td>{_cell(v)}</td>" for v in row) + "</tr>" for name, row in zip(annotators, matrix)
        )
        if data.get("system"):
            system = data["system"]
            body += (
                f"<tr><th>{escape(system['name'])} (system)</th>" + "".join(f"<td>{_cell(v)}</td>" for v in system["f1"][metric]) + "</tr>"
            )
        sections.append(
            f"<section><h2>{escape(_name(metric))} F1</h2><table><thead><tr><th></th>{head}</tr></thead>"
            f"<tbody>{body}</tbody></table></section>"
        )
    if data.get("closure"):
        sections.append(closure_section(data["closure"]))
    listing = data["disagreements"]
    head = "".join(f"<th>{escape(name)}</th>" for name in annotators)
    body = "".join(
        f"<tr><td>{escape(entry['document'])}</td><td>{escape(entry['unit'])}</td>"
        + "".join(
            "<td></td>"
            if name not in entry["entities"]
            else "<td><em>not marked</em></td>"
            if entry["entities"][name] is None
            else f"<td>{escape(', '.join(entry['entities'][name]))}</td>"
            for name in annotators
        )
        + "</tr>"
        for entry in listing
    )
    sections.append(
        f"<section><h2>Disagreements for adjudication ({len(listing)})</h2><table><thead><tr><th>Document</th>"
        f"<th>Unit</th>{head}</tr></thead><tbody>{body}</tbody></table></section>"
    )
    sections.extend(_document_view(view, rank) for rank, view in enumerate(views, 1))
    return (
        f'<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<title>{escape(title)}</title>\n'
        f"<style>{STYLE}</style>\n</head>\n<body>\n<main>\n" + "\n".join(sections) + "\n</main>\n</body>\n</html>\n"
    )


def _document_view(view: Mapping[str, Any], rank: int) -> str:
    """One document, every annotator's mentions side by side; a mention
    whose unit the annotators disagree on is drawn as one without a twin."""
    columns = []
    for name, mentions in view["sides"].items():  # a disputed unit is drawn as the report draws a twinless mention
        drawn = [Mention(start, end, f"e{label}", colour, twinless=disagreed) for start, end, label, colour, disagreed in mentions]
        columns.append(
            f'<div class="side"><h4>{escape(name)} <span class="meta">{len(drawn)} mentions, '
            f"{sum(m.twinless for m in drawn)} disputed</span></h4>\n"
            f'<div class="text">{_disputed(mention_markup(view["words"], view["first"], drawn))}</div></div>'
        )
    shown = len(view["words"])
    note = (
        f"Whole document: {shown} tokens."
        if shown == view["n_tokens"]
        else f"Tokens {view['first'] + 1}–{view['first'] + shown} of {view['n_tokens']}."
    )
    return (
        f'<article class="doc" id="doc-{rank}">\n<h3>{rank}. {escape(view["document"])}</h3>\n'
        f'<p class="meta">{view["disagreements"]} disputed units. {note} Entities are coloured as the first '
        f'annotator\'s entity sharing most of their units.</p>\n<div class="sides">\n' + "\n".join(columns) + "\n</div>\n</article>"
    )


def _disputed(markup: str) -> str:
    """The markup's titles saying what the marking means here."""
    return markup.replace("(no twin on the other side)", "(the annotators disagree on it)")
