"""Plain-text tables of scores (wasabi, as spaCy's own command line)."""

from collections.abc import Mapping, Sequence
from typing import Any, Literal, Optional

from wasabi import table

from ..analysis.error_types import ERROR_KIND_INFO
from ..counting import METRIC_INFO
from .grids import COUNT, LABEL, SCORE_KINDS, Grid, cell_text, documents_grid, score_row, scores_grid
from .labels import METRIC_NAMES, METRIC_ORDER, RATE_NAMES, fraction, pct, printable

Align = Literal["l", "r", "c"]


def _aligns(lead: Sequence[Align], n_right: int) -> list[Align]:
    """Column alignments: ``lead``, then ``n_right`` columns aligned right."""
    right: list[Align] = ["r"] * n_right
    return [*lead, *right]


def metrics_table(metrics: Mapping[str, dict]) -> str:
    """One row per metric: recall, precision, F1 (percent) and the counts
    behind them, like the reference scorer's report in one table."""
    return _text(scores_grid(metrics), pair_counts=True)


def documents_table(documents: Mapping[str, Mapping[str, dict]]) -> str:
    """F1 (percent) of every metric, one row per document."""
    return _text(documents_grid(documents))


def _text(grid: Grid, pair_counts: bool = False) -> str:
    """A grid as a text table: rates as percentages, labels made printable,
    and with ``pair_counts`` each numerator and denominator column pair
    written ``num / den`` in one column."""
    header, kinds = list(grid.header), list(grid.kinds)
    rows = [[cell_text(cell, kind, printable) for cell, kind in zip(row, kinds)] for row in grid.rows]
    if pair_counts:
        pairs = [index for index, kind in enumerate(kinds) if kind == COUNT][::2]
        for index in reversed(pairs):
            header[index : index + 2] = [f"{header[index].rsplit(' ', 1)[0]} num / den"]
            kinds[index : index + 2] = [COUNT]
            for row, cells in zip(rows, grid.rows):
                num, den = cells[index], cells[index + 1]
                row[index : index + 2] = ["" if num is None else fraction(float(num), float(den or 0))]
    aligns: list[Align] = ["l" if kind == LABEL else "r" for kind in kinds]
    return table(rows, header=header, divider=True, aligns=aligns, max_col=_widest(rows))


def _row(label: str, scores: Mapping[str, float], counts: bool) -> list[str]:
    """A text row of recall, precision, F1 and (with ``counts``) the counts."""
    cells = [cell_text(cell, kind, printable) for cell, kind in zip(score_row(label, scores, counts), SCORE_KINDS)]
    if not counts:
        return cells[:4] + ["", ""]
    return cells[:4] + [fraction(scores["recall_num"], scores["recall_den"]), fraction(scores["precision_num"], scores["precision_den"])]


def _ordered(scores: Mapping[str, Mapping]) -> list[str]:
    return [name for name in METRIC_ORDER if name in scores]


def intervals_table(intervals: Mapping[str, Mapping[str, Sequence[float]]]) -> str:
    """Recall, precision and F1 intervals (percent) of every metric."""
    rows = [
        [METRIC_NAMES[name]]
        + [
            f"{pct(intervals[name][rate][0])} – {pct(intervals[name][rate][1])}" if rate in intervals[name] else ""
            for rate, _ in RATE_NAMES
        ]
        for name in _ordered(intervals)
    ]
    header = ["Metric"] + [label for _, label in RATE_NAMES]
    return table(rows, header=header, divider=True, aligns=("l", "r", "r", "r"))


def macro_table(macro: Mapping[str, Mapping[str, float]]) -> str:
    """Macro-averaged recall, precision and F1 (percent) of every metric and
    the number of documents averaged."""
    rows = [
        [METRIC_NAMES[name]]
        + [pct(macro[name][rate]) if rate in macro[name] else "" for rate, _ in RATE_NAMES]
        + [str(macro[name]["n_documents"])]
        for name in _ordered(macro)
    ]
    header = ["Metric"] + [label for _, label in RATE_NAMES] + ["Documents"]
    return table(rows, header=header, divider=True, aligns=("l", "r", "r", "r", "r"))


def errors_table(errors: Mapping[str, Mapping[str, int]]) -> str:
    """Counts of every error kind, one row per entry of ``errors`` (documents,
    the total), in the order given (m. = mentions, e. = entities)."""
    rows = [[printable(name)] + [str(counts[kind.name]) for kind in ERROR_KIND_INFO] for name, counts in errors.items()]
    header = ["Document"] + [kind.short for kind in ERROR_KIND_INFO]
    return table(rows, header=header, divider=True, aligns=_aligns(["l"], len(ERROR_KIND_INFO)), max_col=_widest(rows))


def classes_table(classes: Mapping[str, Mapping]) -> str:
    """Resolution classes (Stoyanov et al. 2009, Table 4): per class its
    count, share of the anaphoric mentions and MUC-RC recall, precision and
    F1 (percent); then the mentions in no class."""
    rows = [
        [name, str(block["count"]), pct(block["share"])] + [pct(block["muc_rc"][rate]) for rate, _ in RATE_NAMES]
        for name, block in classes.items()
        if isinstance(block, Mapping) and "muc_rc" in block
    ]
    rows.append(["none", str(classes["none"]["count"]), "", "", "", ""])
    header = ("Class", "Count", "Share", "MUC-RC R", "MUC-RC P", "MUC-RC F1")
    return table(rows, header=header, divider=True, aligns=("l", "r", "r", "r", "r", "r"))


def profile_table(profile: Mapping[str, Any], scores: Mapping[str, float]) -> str:
    """A corpus's class mix (:func:`~..analysis.resolution.class_profile`):
    per class its count, share of the anaphoric mentions, the MUC-RC F1
    the CPP prediction assumes and share × F1 (percent); then the
    anaphoric mentions no class takes and the first mentions of entities,
    and how much of the anaphoric mentions the classes cover."""
    rows = [
        [name, str(entry["count"]), pct(entry["share"]), pct(scores.get(name, 0.0)), pct(entry["share"] * scores.get(name, 0.0))]
        for name, entry in profile["classes"].items()
    ]
    rows.append(["unclassified", str(profile["unclassified"]), pct(1 - profile["coverage"]) if profile["anaphoric"] else "", "", ""])
    rows.append(["first mentions", str(profile["first_mentions"]), "", "", ""])
    header = ("Class", "Count", "Share", "Assumed F1", "Share × F1")
    note = (
        f"The classes cover {pct(profile['coverage'])}% of the anaphoric mentions; the CPP prediction counts only "
        "those (unclassified anaphors add nothing to it)."
    )
    return table(rows, header=header, divider=True, aligns=("l", "r", "r", "r", "r")) + "\n" + note + "\n"


def comparison_table(comparison: Mapping[str, Mapping[str, float]], first: str = "Metric") -> str:
    """F1 (percent) of systems A and B per metric (or per resolution class,
    keyed ``rc:CLASS``, with ``first="Class"``), B − A (points) and the
    p-values of :func:`~spacy_coref_eval.analysis.statistics.compare`."""
    names = _ordered(comparison) if first == "Metric" else [name for name in comparison if name.startswith("rc:")]
    rows = [_comparison_row(METRIC_NAMES.get(name, name[3:]), comparison[name]) for name in names]
    header = (first, "A F1", "B F1", "B − A", "p randomization", "p bootstrap")
    return table(rows, header=header, divider=True, aligns=("l", "r", "r", "r", "r", "r"))


def _comparison_row(label: str, entry: Mapping[str, float]) -> list[str]:
    return [
        label,
        pct(entry["a"]),
        pct(entry["b"]),
        f"{100 * entry['difference']:+.2f}",
        f"{entry['p_value_randomization']:.4f}",
        f"{entry['p_value_bootstrap']:.4f}",
    ]


def _widest(rows: Sequence[Sequence[str]]) -> int:
    """The widest cell, so that no column is cut short (wasabi pads to at
    most ``max_col`` characters and lets longer cells push their row out of
    line)."""
    return max([30] + [len(cell) for row in rows for cell in row])


def _f1_columns(scores: Mapping[str, Mapping]) -> list[str]:
    return [name for name in METRIC_ORDER if name in scores]


def waterfall_tables(block: Mapping[str, Any]) -> str:
    """The ``waterfall`` block (docs/analyses.md §1) as three tables: F1
    (percent) of every metric after each step, fixed in turn; the points
    each step gains; the points each kind gains fixed alone."""
    names = _f1_columns(block["original"])
    header = ["Step", "Fixed"] + [METRIC_NAMES[name] for name in names]
    aligns = _aligns(["l", "r"], len(names))
    titles = {kind.name: kind.title for kind in ERROR_KIND_INFO}
    rows = [["response as scored", ""] + [pct(block["original"][name]["f1"]) for name in names]]
    gains, alone = [], []
    for step in block["steps"]:
        label = titles.get(step["kind"], step["kind"])
        fixed = str(step["fixed"]) if step["fixed"] else "none"
        rows.append([f"+ {label.lower()}", fixed] + [pct(step["metrics"][name]["f1"]) for name in names])
        gains.append([label, fixed] + [_points(step["gain"][name]["f1"]) for name in names])
        alone.append([label, fixed] + [_points(step["alone"]["gain"][name]["f1"]) for name in names])
    kinds = ["Kind"] + header[1:]
    return "\n".join(
        [
            "F1 after fixing each kind of error in turn (the last row is the key)\n"
            + table(rows, header=header, divider=True, aligns=aligns),
            "Points each kind gains, fixed in turn\n" + table(gains, header=kinds, divider=True, aligns=aligns),
            "Points each kind gains, fixed alone\n" + table(alone, header=kinds, divider=True, aligns=aligns),
        ]
    )


def _points(value: float) -> str:
    """A difference of fractions in points, signed."""
    return f"{100 * value:+.2f}"


UNDEFINED = "n/a"
"""How a table shows a metric undefined on a stratum."""


def strata_table(attribute: str, block: Mapping[str, Mapping[str, Any]], level: Optional[float] = None) -> str:
    """One attribute's strata (docs/analyses.md §3): per stratum its key and
    response mentions and the F1 (percent) of every metric; with
    intervals, a second table of their F1 intervals at ``level``."""
    first = next(iter(block.values()), None)
    names = _f1_columns(first["metrics"]) if first else []
    header = ["Stratum", "Key m.", "Response m."] + [METRIC_NAMES[name] for name in names]
    aligns = _aligns(["l", "r", "r"], len(names))
    rows = [
        [printable(stratum), str(entry["key_mentions"]), str(entry["response_mentions"])]
        + [UNDEFINED if name in entry.get("undefined", ()) else pct(entry["metrics"][name]["f1"]) for name in names]
        for stratum, entry in block.items()
    ]
    note = (
        f"; {UNDEFINED} = undefined: the stratum's key gives the metric nothing to find"
        if any(entry.get("undefined") for entry in block.values())
        else ""
    )
    body = table(rows, header=header, divider=True, aligns=aligns, max_col=_widest(rows))
    out = f"F1 by {printable(attribute)} (m. = mentions{note})\n" + body
    if first and "intervals" in first:
        bounds = [
            [printable(stratum)]
            + [
                f"{pct(entry['intervals'][name]['f1'][0])}–{pct(entry['intervals'][name]['f1'][1])}" if name in entry["intervals"] else ""
                for name in names
            ]
            for stratum, entry in block.items()
        ]
        level_text = f"{100 * level:g}% " if level is not None else ""
        out += f"\nBootstrap {level_text}intervals of F1 by {printable(attribute)}\n" + table(
            bounds, header=["Stratum"] + header[3:], divider=True, aligns=_aligns(["l"], len(aligns) - 3), max_col=_widest(bounds)
        )
    return out


def crossdoc_table(block: Mapping[str, Any]) -> str:
    """The ``cross_document`` block (docs/crossdoc.md §3): the link metrics
    within and across documents, for the corpus and every topic listed."""
    rows: list[list[str]] = []
    for title, parts in [("", block)] + [(f"{printable(name)}: ", topic) for name, topic in block.get("documents", {}).items()]:
        for name in parts["within"]:
            for part in ("within", "across"):
                scores = parts[part][name]
                rows.append(_row(f"{title}{METRIC_NAMES[name]} {part}", scores, counts="recall_num" in scores))
                metric = METRIC_INFO[name]
                rows.extend(_row(f"  {label}", scores[key], counts=True) for key, label in zip(metric.parts, metric.part_labels))
    header = ("Links", "Recall", "Precision", "F1", "Recall num / den", "Precision num / den")
    note = (
        "Links within one document and across documents (docs/crossdoc.md §3: BLANC and LEA add up, MUC does not)\n"
        "Mention detection is scored apart from linking: the Mentions row above\n"
    )
    return note + table(rows, header=header, divider=True, aligns=("l", "r", "r", "r", "r", "r"), max_col=_widest(rows))


def variants_table(rows: Sequence[Mapping[str, Any]]) -> str:
    """The variant matrix (docs/analyses.md §4): F1 (percent) of every
    metric per setting; the rows not available listed below with why."""
    available = [row for row in rows if row["available"]]
    names = _f1_columns(available[0]["metrics"]) if available else []
    lines = []
    body = []
    for row in rows:
        label = f"{row['preset']} {row['match']} singletons {'kept' if row['singletons'] == 'keep' else 'removed'}"
        if row["available"]:
            body.append([label] + [pct(row["metrics"][name]["f1"]) for name in names])
        else:
            body.append([label] + ["n/a"] * len(names))
            lines.append(f"{label}: not available ({printable(str(row['reason']))})")
    header = ["Setting"] + [METRIC_NAMES[name] for name in names]
    out = table(body, header=header, divider=True, aligns=_aligns(["l"], len(names)), max_col=_widest(body))
    return out + ("\n".join(lines) + "\n" if lines else "")


def errors_list_table(listing: Mapping[str, Mapping[str, Sequence[Mapping[str, Any]]]]) -> str:
    """Every error of every document (docs/analyses.md §2), one row each:
    the document, the kind, and what the key and the response hold
    (``[start, end)`` token spans; entities by their file's id, ``#ID``,
    else by number, ``e<n>``)."""
    rows: list[list[str]] = []
    titles = {kind.name: _SINGULAR.get(kind.name, kind.title.lower()) for kind in ERROR_KIND_INFO}
    for document, kinds in listing.items():
        name = printable(document)
        for entry in kinds.get("span_errors", ()):
            rows.append([name, titles["span_errors"], _mention(entry["key"]), _mention(entry["response"])])
        for entry in kinds.get("missing_mentions", ()):
            whole = " (entity missing)" if entry.get("entity_missing") else ""
            rows.append([name, titles["missing_mentions"], _mention(entry) + whole, ""])
        for entry in kinds.get("extra_mentions", ()):
            whole = " (entity extra)" if entry.get("entity_extra") else ""
            rows.append([name, titles["extra_mentions"], "", _mention(entry) + whole])
        for entry in kinds.get("missing_entities", ()):
            rows.append([name, titles["missing_entities"], _members(_entity(entry), entry["mentions"]), ""])
        for entry in kinds.get("extra_entities", ()):
            rows.append([name, titles["extra_entities"], "", _members(_entity(entry), entry["mentions"])])
        for entry in kinds.get("divided_entities", ()):
            parts = _fitted([_members(_entity(part, "response_"), part["mentions"]) for part in entry["parts"]], "; ")
            rows.append([name, titles["divided_entities"], _entity(entry), parts])
        for entry in kinds.get("conflated_entities", ()):
            parts = _fitted([_members(_entity(part, "key_"), part["mentions"]) for part in entry["parts"]], "; ")
            rows.append([name, titles["conflated_entities"], parts, _entity(entry)])
    if not rows:
        return "No errors.\n"
    header = ("Document", "Error", "Key", "Response")
    text = table(rows, header=header, divider=True, aligns=("l", "l", "l", "l"), max_col=_widest(rows))
    return "\n".join(line.rstrip() for line in text.split("\n"))


_CELL = 100
"""The widest list of mentions or entities an error-list cell shows in
full; a longer one ends in ``… N more`` (``-f json`` lists them all)."""
_TEXT = 50
"""The longest mention text an error-list cell shows in full."""


def _fitted(items: Sequence[str], separator: str) -> str:
    """``items`` joined by ``separator`` as far as :data:`_CELL` characters
    (at least the first), and how many are left out."""
    shown = list(items[:1])
    width = len(shown[0]) if shown else 0
    for item in items[1:]:
        width += len(separator) + len(item)
        if width > _CELL:
            return separator.join(shown) + f"{separator}… {len(items) - len(shown)} more"
        shown.append(item)
    return separator.join(shown)


_SINGULAR = {
    "span_errors": "span error",
    "missing_mentions": "missing mention",
    "extra_mentions": "extra mention",
    "missing_entities": "missing entity",
    "extra_entities": "extra entity",
    "divided_entities": "divided entity",
    "conflated_entities": "conflated entities",
}


def _span(entry: Mapping[str, Any]) -> str:
    start, end = entry["span"]
    words = printable(entry["text"]) if "text" in entry else None
    if words is not None and len(words) > _TEXT:
        words = words[: _TEXT - 1] + "…"
    text = f' "{words}"' if words is not None else ""
    return f"[{start}, {end}){text}"


def _entity(entry: Mapping[str, Any], prefix: str = "") -> str:
    """An entity as its file names it (``#ID``), else by number (``e<n>``)."""
    given = entry.get(f"{prefix}entity_id")
    return f"#{printable(str(given))}" if given is not None else f"e{entry[f'{prefix}entity']}"


def _mention(entry: Mapping[str, Any]) -> str:
    return f"{_entity(entry)} {_span(entry)}"


def _members(entity: str, mentions: Sequence[Mapping[str, Any]]) -> str:
    return f"{entity}: " + _fitted([_span(mention) for mention in mentions], ", ")


def ranking_table(ranking: Any, labels: Sequence[str]) -> str:
    """A :class:`~..analysis.ranking.Ranking` as a table, best first: the
    ranking metric's F1 (percent) and interval, the other metrics' F1, and
    the p-values against the system ranked next."""
    others = [name for name in METRIC_ORDER if name in ranking.f1[0] and name != ranking.metric]
    rows = []
    for rank, index in enumerate(ranking.order):
        scores = ranking.f1[index]
        low, high = ranking.intervals[index]
        against = ranking.against_next(rank) if rank + 1 < len(ranking.order) else None
        rows.append(
            [
                str(rank + 1),
                printable(labels[index]),
                pct(scores[ranking.metric]),
                f"{pct(low)}–{pct(high)}",
                *(pct(scores[name]) for name in others),
                f"{against['p_value_randomization']:.4f}" if against else "",
                f"{against['p_value_bootstrap']:.4f}" if against else "",
            ]
        )
    header = (
        "Rank",
        "System",
        f"{METRIC_NAMES[ranking.metric]} F1",
        "interval",
        *(METRIC_NAMES[name] for name in others),
        "p rand. vs next",
        "p boot. vs next",
    )
    aligns = _aligns(["r", "l"], len(header) - 2)
    return table(rows, header=header, divider=True, aligns=aligns, max_col=_widest([header, *rows]))
