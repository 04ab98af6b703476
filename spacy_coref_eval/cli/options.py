"""Arguments and options shared by the commands that score: the key and
response files, metrics, mention matching,
twinless policy and singletons (turned into :class:`Settings` by
:func:`build_settings`), and the seed and resamples of the statistics.

A command takes an option by using its object as a parameter default,
e.g. ``match: str = MATCH`` (``METRICS_OPTION`` keeps clear of
:data:`~spacy_coref_eval.counting.METRICS`).
"""
from typing import List, Optional

import typer

from ..counting import METRICS, check_metrics
from ..scoring import Settings

KEY_ARGUMENT = typer.Argument(
    ..., help="Gold coreference: CoNLL-2012 file (.conll, .gz), a directory of them, or spaCy DocBin (.spacy)",
    exists=True,
)
RESPONSE_ARGUMENT = typer.Argument(
    ..., help="System coreference, the same forms; with a .spacy side, documents pair by order", exists=True,
)
METRICS_OPTION = typer.Option(",".join(METRICS), "--metrics", "-m", help="Comma-separated metrics")
TWINLESS = typer.Option("conll", "--twinless", help="Twinless policy: conll, b3all, b30, sys")
SINGLETONS = typer.Option("keep", "--singletons", help="keep or remove singleton entities")
MATCH = typer.Option("exact", "--match", help="Mention matching: exact, head, overlap, partial (head and partial need heads)")
MIN_OVERLAP = typer.Option(None, "--min-overlap", help="--match overlap: least overlap θ in (0, 1] (default 0.5)")
OVERLAP_MEASURE = typer.Option(None, "--overlap-measure", help="--match overlap: dice (default) or jaccard")
SEED = typer.Option(0, "--seed", help="Random seed of the resampling statistics")
PER_DOC = typer.Option(False, "--per-doc", help="Also report every document")
MACRO = typer.Option(False, "--macro", help="Add macro averages over documents")
FORMAT = typer.Option("table", "--format", "-f", help="table or json")
N_RESAMPLES = typer.Option(1000, "--n-resamples", min=1, help="Bootstrap resamples of the documents")


def parse_metrics(value: str) -> List[str]:
    """Comma-separated metric names, checked."""
    names = [name.strip() for name in value.split(",") if name.strip()]
    if not names:
        raise typer.BadParameter(f"no metric given; choose from {','.join(METRICS)}")
    try:
        return list(check_metrics(names))
    except ValueError as err:
        raise typer.BadParameter(str(err)) from None


def build_settings(
    metrics: str,
    twinless: str,
    singletons: str,
    match: str,
    min_overlap: Optional[float],
    overlap_measure: Optional[str],
) -> Settings:
    """:class:`Settings` from the values of the shared options; bad values
    raise :class:`ValueError` (or :class:`typer.BadParameter` for metrics)."""
    return Settings(
        metrics=tuple(parse_metrics(metrics)), matcher=match, twinless=twinless, singletons=singletons,
        min_overlap=min_overlap, overlap_measure=overlap_measure,
    )


def check_level(value: Optional[float]) -> Optional[float]:
    """A confidence level strictly between 0 and 1 (or no level)."""
    if value is not None and not 0 < value < 1:
        raise typer.BadParameter(f"the confidence level must lie strictly between 0 and 1 (e.g. 0.95), not {value}")
    return value


CI = typer.Option(None, "--ci", callback=check_level, help="Add bootstrap confidence intervals at this level, e.g. 0.95")
