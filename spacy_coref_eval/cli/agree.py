"""``agree``: the agreement of two or more annotators' files
(docs/agreement.md)."""

from collections.abc import Sequence
from pathlib import Path
from typing import Optional

import click

from ._app import app
from .options import FORMAT, INPUT_HELP, N_RESAMPLES, PER_DOC, SEED, ScoringOptions, existing_path, scoring_options
from .output import output_format, reported_errors, say, say_warnings, write


def _level(ctx: click.Context, param: click.Parameter, value: float) -> Optional[float]:
    if value == 0:
        return None
    if not 0 < value < 1:
        raise click.BadParameter(f"the level lies strictly between 0 and 1 (0: no intervals), not {value}")
    return value


@app.command(epilog=INPUT_HELP, short_help="Agreement among annotators")
@click.argument("files", nargs=-1, required=True, type=existing_path())
@click.option("--names", default=None, help="Comma-separated annotator names, one per file (default: the file names)")
@click.option(
    "--formats",
    "file_formats",
    default=None,
    help="Comma-separated format names, one per file (empty: --input-format, else by the file's name)",
)
@click.option("--system", type=existing_path(), default=None, help="Score this system against every annotator (the human ceiling)")
@click.option(
    "--consensus",
    type=click.Path(path_type=Path),
    default=None,
    help="Write the majority-link consensus here as a draft gold (the format by its suffix)",
)
@click.option("--html", "html_path", type=click.Path(path_type=Path), default=None, help="Also write an HTML page here")
@click.option(
    "--ci",
    type=float,
    default=0.95,
    show_default=True,
    callback=_level,
    help="Level of the bootstrap intervals over documents of every cell (0: none)",
)
@PER_DOC
@SEED
@N_RESAMPLES
@FORMAT
@click.option("--output", "-o", type=click.Path(path_type=Path), default=None, help="Write the report to this file")
@scoring_options
def agree(
    scoring: ScoringOptions,
    files: Sequence[Path],
    names: Optional[str],
    *,
    file_formats: Optional[str],
    system: Optional[Path],
    consensus: Optional[Path],
    html_path: Optional[Path],
    ci: Optional[float],
    per_doc: bool,
    seed: int,
    n_resamples: int,
    fmt: Optional[str],
    output: Optional[Path],
) -> None:
    """Agreement of FILES, one per annotator (two or more, any format the
    package reads): every pair scored as 'score A B' scores it, mention
    detection apart from linking, Krippendorff's alpha (MASI), and the
    units the annotators disagree on. A document some annotator lacks is
    missing data, not an empty annotation."""
    from ..analysis.agreement import agreement, annotator_names, read_annotation
    from ..files import check_distinct
    from ..report.json import json_text

    fmt = output_format(fmt, output, files)
    with reported_errors():
        if len(files) < 2:
            raise click.UsageError("agree needs two or more files, one per annotator")
        check_distinct([output, consensus, html_path])
        labels = annotator_names(files, names.split(",") if names else None)
        options = scoring.options(twinning=True, stream=False)
        given = file_formats.split(",") if file_formats else [""] * len(files)
        if len(given) != len(files):
            raise click.UsageError(f"--formats names {len(given)} format(s) for {len(files)} files; give one each (empty: by name)")
        annotations = [read_annotation(path, label, options, fmt=fmt or None) for path, label, fmt in zip(files, labels, given)]
        machine = read_annotation(system, system.stem, options) if system is not None else None
        result = agreement(annotations, options, level=ci, n_resamples=n_resamples, seed=seed, system=machine)
        data = result.to_dict()
        if consensus is not None:
            _write_consensus(result, consensus, files)
    say_warnings(data["warnings"])
    if html_path is not None:
        from ..report.agreement import agreement_page

        page = agreement_page(data, title=f"Agreement of {', '.join(labels)}", views=result.views())
        write(page, html_path, "the agreement page", inputs=files)
    if fmt == "json":
        text = json_text(data)
    else:
        from ..report.agreement import agreement_tables

        text = agreement_tables(data, per_doc=per_doc)
    write(text, output, "the agreement report", inputs=files)


def _write_consensus(result, path: Path, inputs: Sequence[Path]) -> None:
    from ..formats import format_of
    from ..formats.document import WordsDocument

    fmt = format_of(path, writing=True)
    if fmt.write is None:
        raise click.UsageError(f"{path}: {fmt.title} is read, not written; name a format that is written")
    documents = [
        WordsDocument(name, clusters, list(words), list(reference.sentence_starts))
        for name, clusters, words, reference in result.consensus()
    ]
    for line in fmt.write(path, documents, list(inputs)) or []:
        say("warn", line)
    say("good", f"Saved the consensus draft gold to {path}")
