"""``profile``: a corpus's resolution-class mix (Stoyanov et al. 2009,
Table 4's # and % columns) and its CPP prediction of a system's MUC score."""
from pathlib import Path
from typing import Optional

import typer

from . import app
from .options import FORMAT, HEAD_PREFIX, INPUT_FORMAT, INPUT_FORMS, SPANS, build_readers
from .output import json_text, output_format, reported_errors, write


@app.command()
def profile(
    key: Path = typer.Argument(..., help=f"Gold coreference: {INPUT_FORMS}", exists=True),
    scores: Optional[Path] = typer.Option(
        None, "--scores", exists=True, dir_okay=False,
        help="Per-class MUC-RC F1 as JSON ({\"PN-e\": 0.9, ...}, or the output of 'score --classes -f json' "
        "on another corpus); default: the average column of Stoyanov et al.'s Table 4",
    ),
    spans: Optional[str] = SPANS,
    head_prefix: Optional[str] = HEAD_PREFIX,
    input_format: Optional[str] = INPUT_FORMAT,
    fmt: Optional[str] = FORMAT,
    output: Optional[Path] = typer.Option(None, "--output", "-o", help="Write the profile to this file (.json: JSON)"),
) -> None:
    """Print KEY's resolution classes: how many anaphoric mentions fall in
    each class, their shares, and the CPP prediction Σ share(C) · score(C)."""
    from ..analysis.resolution import TABLE4_AVERAGE, class_profile, read_class_scores, score_resolution_classes
    from ..formats.corpus import load_corpus
    from ..report.table import profile_table
    from ..scoring import score_pairs

    fmt = output_format(fmt, output)
    with reported_errors():
        reader, _ = build_readers(spans, None, None, head_prefix)
        loaded = load_corpus(key, key, reader, reader, with_words=False, with_tokens=True, formats=(input_format, input_format))
        tokens = [loaded.tokens[name] for name, _, _ in loaded.pairs]
        result = score_pairs(loaded.pairs, lengths=[len(part) for part in tokens])
        members = score_resolution_classes(result, tokens).members
        class_scores = read_class_scores(scores) if scores is not None else None
        mix = class_profile(members, class_scores)
    source = str(scores) if scores is not None else "Stoyanov et al. (2009), Table 4, average"
    data = {"key": str(key), "n_documents": len(loaded.pairs), "scores": source, **mix}
    if fmt == "json":
        text = json_text(data)
    else:
        text = (
            f"{key}: {len(loaded.pairs)} documents, {mix['anaphoric']} anaphoric mentions; "
            f"CPP prediction of MUC F1 {100 * mix['cpp']:.2f} (scores: {source})\n"
            + profile_table(mix["classes"], class_scores or TABLE4_AVERAGE, mix["none"])
        )
    write(text, output, "the profile", (key,))
