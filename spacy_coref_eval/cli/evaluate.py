"""``evaluate``: run a spaCy pipeline on a corpus's texts, as ``spacy
evaluate`` does, and print the whole coreference table (``spacy
evaluate`` prints only spaCy's own columns)."""
from pathlib import Path
from typing import Optional

import typer

from . import app
from .options import (
    FORMAT,
    PER_DOC,
    ScoringOptions,
    with_scoring_options,
)
from .output import output_format, render, reported_errors, say, write


@app.command()
@with_scoring_options
def evaluate(
    scoring: ScoringOptions,
    model: str = typer.Argument(..., help="Pipeline to run: an installed package name or a path"),
    data: Path = typer.Argument(..., help="Gold coreference as a spaCy DocBin (.spacy)", exists=True, dir_okay=False),
    code: Optional[Path] = typer.Option(None, "--code", "-c", help="Python file with your registered functions (components), as spacy evaluate's --code", exists=True),
    gpu_id: int = typer.Option(-1, "--gpu-id", "-g", help="GPU to run the pipeline on (-1: CPU)"),
    output: Optional[Path] = typer.Option(None, "--output", "-o", help="Write the scores as JSON to this file"),
    report_path: Optional[Path] = typer.Option(None, "--report", help="Also write the HTML report to this file"),
    per_doc: bool = PER_DOC,
    fmt: Optional[str] = FORMAT,
) -> None:
    """Run MODEL on the texts of DATA and score its coreference against
    DATA's: MUC, B³, CEAFm, CEAFe, BLANC, LEA, the CoNLL score and mention
    identification, as a table (or JSON)."""
    import spacy
    from spacy.training import Corpus, Example
    from spacy.util import import_file

    from ..formats.alignment import example_pairs
    from ..formats.docbin.docs import stored_name
    from ..formats.tokens import Tokens
    from ..scoring import score_pairs
    from .report import report_page

    inputs = (data,)
    with reported_errors():
        if code is not None:
            import_file("python_code", code)
        if gpu_id >= 0:
            spacy.require_gpu(gpu_id)
        settings = scoring.settings()
        nlp = _load(model)
        gold = list(Corpus(data)(nlp))
        predicted = nlp.pipe(example.predicted for example in gold)
        examples = [Example(doc, example.reference) for doc, example in zip(predicted, gold)]
        names = [stored_name(example.reference) or f"doc{index}" for index, example in enumerate(examples)]
        tokens = [Tokens.from_spacy(example.reference) for example in examples]
        if len(set(names)) != len(names):
            names = [f"doc{index}" for index in range(len(examples))]
        pairs, warnings = example_pairs(examples, scoring.readers(), names)
        result = score_pairs(pairs, settings, warnings, lengths=[len(part) for part in tokens])
        page = None
        if report_path is not None:
            words = {name: [token.text for token in example.reference] for name, example in zip(names, examples)}
            page = report_page(result, words, str(data), f"{model} on {data}", tokens=tokens)
    for warning in result.warnings:
        say("warn", warning)
    shown = output_format(fmt, None)
    write(render(result, shown, per_doc), None, "scores")
    if output is not None:
        write(render(result, "json", per_doc), output, "the scores", inputs)
    if page is not None:
        write(page, report_path, "the report", inputs)


def _load(model: str):
    """The pipeline, with spaCy's own error turned into one line."""
    import spacy

    try:
        return spacy.load(model)
    except (OSError, IOError) as err:
        raise ValueError(f"cannot load the pipeline {model!r}: {str(err).splitlines()[0]}") from None
