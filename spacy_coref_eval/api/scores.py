"""The result of :func:`~spacy_coref_eval.score`: the scores, the command
line's JSON document, a table for the terminal and the notebook, a pandas
DataFrame."""

import json
from html import escape
from typing import Any, Optional

from ..analysis.summary import Analyses
from ..report.json import json_text, score_json
from ..report.labels import METRIC_NAMES, METRIC_ORDER
from ..scoring import CorpusResult

RATES = ("recall", "precision", "f1")


class Scores:
    """Scores of a response against a key: ``metrics`` (recall, precision,
    F1 and counts per metric, over the corpus), ``documents`` (the same by
    document name), ``conll`` (the CoNLL F1), ``warnings``, the
    :class:`~spacy_coref_eval.scoring.CorpusResult` as ``result`` and the
    analyses asked for. :meth:`to_dict` is the command line's JSON
    document."""

    def __init__(self, result: CorpusResult, analyses: Analyses = Analyses(), per_doc: bool = True) -> None:
        self.result = result
        self.analyses = analyses
        self.per_doc = per_doc
        self._json: Optional[str] = None

    @property
    def metrics(self) -> dict[str, dict[str, Any]]:
        """Recall, precision, F1 and counts of every metric, micro-averaged."""
        return self.result.metrics()

    @property
    def documents(self) -> dict[str, dict[str, dict[str, Any]]]:
        """:attr:`metrics` of every document, by name in key order."""
        return self.result.document_metrics()

    @property
    def conll(self) -> Optional[float]:
        """The CoNLL F1 (mean of MUC, B³ and CEAFe F1; a fraction), or
        ``None`` where one of the three was not computed."""
        return self.metrics.get("conll", {}).get("f1")

    @property
    def warnings(self) -> list[str]:
        return list(self.result.warnings)

    def to_json(self) -> str:
        """The command line's JSON text (``score --format json``, with
        ``--per-doc`` when ``per_doc``)."""
        if self._json is None:
            self._json = json_text(score_json(self.result, self.per_doc, self.analyses))
        return self._json

    def to_dict(self) -> dict[str, Any]:
        """The command line's JSON document, as Python values."""
        return json.loads(self.to_json())

    def to_frame(self, documents: bool = False) -> Any:
        """A pandas ``DataFrame``: one row per metric (with ``documents``:
        per document and metric, a two-level index) and the columns
        ``recall``, ``precision``, ``f1`` (fractions). Needs pandas
        (``pip install spacy-coref-eval[pandas]``)."""
        import pandas as pd

        if not documents:
            rows = _rows(self.metrics)
            return pd.DataFrame([row[1:] for row in rows], index=pd.Index([row[0] for row in rows], name="metric"), columns=list(RATES))
        pairs = [(name, *row) for name, metrics in self.documents.items() for row in _rows(metrics)]
        index = pd.MultiIndex.from_tuples([pair[:2] for pair in pairs], names=["document", "metric"])
        return pd.DataFrame([pair[2:] for pair in pairs], index=index, columns=list(RATES))

    def _summary(self) -> str:
        n = len(self.result.names)
        return f"{n} document{'s' if n != 1 else ''}" + (f", {len(self.warnings)} warning(s)" if self.warnings else "")

    def __repr__(self) -> str:
        rows = [(METRIC_NAMES.get(name, name), *values) for name, *values in _rows(self.metrics)]
        width = max([len(row[0]) for row in rows] + [6])
        lines = [f"Scores ({self._summary()})", f"{'metric':<{width}}  {'R':>6}  {'P':>6}  {'F1':>6}"]
        for label, *values in rows:
            lines.append(f"{label:<{width}}  " + "  ".join(" " * 6 if v is None else f"{100 * v:6.2f}" for v in values))
        return "\n".join(lines)

    def _repr_html_(self) -> str:
        head = "".join(f"<th>{title}</th>" for title in ("metric", "recall", "precision", "F1"))
        body = "".join(
            f"<tr><th>{escape(METRIC_NAMES.get(name, name))}</th>"
            + "".join(f"<td>{'' if v is None else f'{100 * v:.2f}'}</td>" for v in values)
            + "</tr>"
            for name, *values in _rows(self.metrics)
        )
        caption = escape(f"Scores ({self._summary()}; percent)")
        return f"<table><caption>{caption}</caption><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def _rows(metrics: dict[str, dict[str, Any]]) -> list[tuple]:
    """``(metric, recall, precision, f1)`` in report order (``None`` where
    a metric has no such rate: CoNLL has F1 alone)."""
    return [(name, *(metrics[name].get(rate) for rate in RATES)) for name in METRIC_ORDER if name in metrics]
