"""``profile``: a corpus's resolution-class mix (Stoyanov et al. 2009,
Table 4's # and % columns) and its CPP prediction of a system's MUC score."""

from pathlib import Path
from typing import Optional

import click

from ._app import app
from .options import FORMAT, HEAD_PREFIX, INPUT_FORMAT, SPANS, existing_path, key_argument, output_path
from .output import named, output_format, reported_errors, write
from .sections import section
from .stdin import standard_input


@app.command(short_help="Print a key's resolution classes")
@key_argument()
@section(
    "Analyses",
    click.option(
        "--scores",
        type=existing_path(dir_okay=False),
        default=None,
        help="Per-class MUC-RC F1 as JSON ({\"PN-e\": 0.9, ...}, or the output of 'score --classes -f json' "
        "on another corpus); default: the average column of Stoyanov et al.'s Table 4",
    ),
)
@SPANS
@HEAD_PREFIX
@INPUT_FORMAT
@FORMAT
@section(
    "Output",
    click.option(
        "--output", "-o", type=output_path(), default=None, help="Write the profile to this file (.json: JSON; -: standard output)"
    ),
)
def profile(
    key: Path,
    scores: Optional[Path],
    spans: Optional[str],
    *,
    head_prefix: Optional[str],
    input_format: Optional[str],
    fmt: Optional[str],
    output: Optional[Path],
) -> None:
    """Print KEY's resolution classes: how many anaphoric mentions fall in
    each class, their shares, and the CPP prediction Σ share(C) · score(C)."""
    from ..analysis.resolution import TABLE4_AVERAGE, class_profile, read_class_scores, score_resolution_classes
    from ..report.json import json_text, stamped
    from ..report.table import profile_table
    from ..scoring import Options, evaluate_corpus

    with standard_input((key,), ("KEY",), (input_format,)) as (key,):
        fmt = output_format(fmt, output, (key,))
        with reported_errors():
            options = Options.from_names(spans=spans, head_prefix=head_prefix, input_format=input_format, tokens=True)
            run = evaluate_corpus(key, key, options)
            members = score_resolution_classes(run.result, run.corpus.tokens()).members
            class_scores = read_class_scores(scores) if scores is not None else None
            mix = class_profile(members, class_scores)
        source = str(scores) if scores is not None else "Stoyanov et al. (2009), Table 4, average"
        n_documents = len(run.corpus.pairs)
        data = stamped({"key": named(key), "n_documents": n_documents, "scores": source, **mix})
        if fmt == "json":
            text = json_text(data)
        else:
            text = (
                f"{named(key)}: {n_documents} documents, {mix['anaphoric']} anaphoric mentions; "
                f"CPP prediction of MUC F1 {100 * mix['cpp']:.2f} (scores: {source})\n" + profile_table(mix, class_scores or TABLE4_AVERAGE)
            )
        write(text, output, "the profile", inputs=(key,))
