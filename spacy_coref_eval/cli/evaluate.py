"""``evaluate``: run a spaCy pipeline on a corpus's texts, as ``spacy
evaluate`` does, and print the whole coreference table (``spacy
evaluate`` prints only spaCy's own columns)."""

import json
from pathlib import Path
from typing import Optional

import click

from ._app import app
from .options import PER_DOC, ScoringOptions, existing_path, format_option, input_path, output_path, scoring_options_without
from .output import REPORT_FORMATS, named, output_format, reported_errors, say, say_warnings, write
from .sections import section
from .stdin import is_dash, standard_input


@app.command(short_help="Run a spaCy pipeline on a corpus and score it")
@click.argument("model")
@click.argument("data", type=input_path(dir_okay=False))
@section(
    "Other",
    click.option(
        "--code",
        "-c",
        type=existing_path(),
        default=None,
        help="Python file with your registered functions (components), as spacy evaluate's --code",
    ),
    click.option("--gpu-id", "-g", default=-1, type=int, help="GPU to run the pipeline on (-1: CPU)"),
)
@section(
    "Output",
    click.option(
        "--output",
        "-o",
        type=output_path(),
        default=None,
        help="Write the scores as JSON to this file (-: to standard output, in place of the table)",
    ),
    click.option("--report", "report_path", type=click.Path(path_type=Path), default=None, help="Also write the HTML report to this file"),
)
@PER_DOC
@format_option(REPORT_FORMATS)
@scoring_options_without("response_format", "pair_by")
def evaluate(
    scoring: ScoringOptions,
    model: str,
    data: Path,
    *,
    code: Optional[Path],
    gpu_id: int,
    output: Optional[Path],
    report_path: Optional[Path],
    per_doc: bool,
    fmt: Optional[str],
) -> None:
    """Run MODEL (an installed pipeline package or a path) on the texts of
    DATA (gold coreference in any format the package reads) and score its
    coreference against DATA's: MUC, B³, CEAFm, CEAFe, BLANC, LEA, the CoNLL
    score and mention identification, as a table (or JSON). A DocBin's docs
    go to the pipeline as ``spacy evaluate`` gives them; other formats' as
    their words."""
    import spacy
    from spacy.util import import_file

    from ..errors import CorefInputError
    from ..formats.docbin.examples import docs_side
    from ..report.page import report_page
    from ..report.text import render
    from ..scoring import evaluate_corpus

    with standard_input((data,), ("DATA",), (scoring.key_format or scoring.input_format,)) as (data,):
        inputs = (data,)
        with reported_errors():
            if code is not None:
                import_file("python_code", code)
            if gpu_id >= 0:
                spacy.require_gpu(gpu_id)
            nlp = _load(model)
            options, origin = _pipeline_options(nlp, scoring, tokens=report_path is not None)
            key, texts = _gold(nlp, data, scoring.key_format or scoring.input_format, options=options)
            if not key.documents:
                raise CorefInputError(f"{data}: no documents, nothing to evaluate")
            predicted = docs_side(nlp.pipe(texts), options.spans[1], "response", names=[d.name for d in key.documents])
            run = evaluate_corpus(key, predicted, options)
            page = None
            if report_path is not None:
                page = report_page(
                    run.result, run.corpus.words(), key=named(data), response=f"{model} on {named(data)}", tokens=run.corpus.tokens()
                )
        say_warnings(run.result.warnings)
        say("info", f"Settings ({origin}): {json.dumps(run.result.settings.to_dict(), ensure_ascii=False)}")
        if not is_dash(output):
            write(render(run.result, output_format(fmt, None, offered=REPORT_FORMATS), per_doc), None, "scores")
        if output is not None:
            write(render(run.result, "json", per_doc), output, "the scores", inputs=inputs)
        if page is not None:
            write(page, report_path, "the report", inputs=inputs)


def _gold(nlp, data: Path, given: Optional[str], *, options):
    """The gold side and the docs the pipeline runs on: a DocBin's docs as
    ``spacy evaluate`` reads them, any other format's documents as docs of
    their words (sentence starts kept), named as the gold documents."""
    from spacy.training import Corpus

    from ..formats import ReadOptions, format_of
    from ..formats.corpus import read_side
    from ..formats.docbin import FORMAT as DOCBIN
    from ..formats.docbin.docs import stored_name, words_doc
    from ..formats.docbin.examples import docs_side
    from ..formats.docbin.records import check_docbin

    fmt = format_of(data, given)
    if fmt is DOCBIN:
        check_docbin(data, options.spans[0])
        examples = list(Corpus(data)(nlp))
        gold = [example.reference for example in examples]
        names = [stored_name(doc) or f"doc{index}" for index, doc in enumerate(gold)]
        if len(set(names)) != len(names):
            names = [f"doc{index}" for index in range(len(gold))]
        return docs_side(gold, options.spans[0], "key", names=names), [example.predicted for example in examples]
    side = read_side(data, fmt, ReadOptions("key", options.spans[0], True, options.tokens))
    texts = [words_doc(nlp.vocab, d.words, d.sentence_starts, one_sentence=False) for d in side.documents]
    return side, texts


def _pipeline_options(nlp, scoring: ScoringOptions, tokens: bool):
    """The run's options: those of the pipeline's coreference scorer (the
    ``scorer`` of a component such as ``coref_evaluator``, as ``spacy
    evaluate`` scores), with every scoring option given on the command line
    in place of the scorer's; and where they come from."""
    from dataclasses import replace

    from ..scoring import Settings
    from .options import SETTINGS_OPTIONS, parse_metrics

    given = {
        name for name in vars(scoring) if click.get_current_context().get_parameter_source(name) is not click.core.ParameterSource.DEFAULT
    }
    scorer = next(
        (proc.scorer for _, proc in nlp.pipeline if isinstance(getattr(getattr(proc, "scorer", None), "settings", None), Settings)), None
    )
    if scorer is None:
        return scoring.options(tokens=tokens), "command-line options"
    names = {**scorer.settings.to_dict(), **{name: getattr(scoring, name) for name in given & set(SETTINGS_OPTIONS)}}
    if "lea_importance" in given and "lea_weights" not in given:
        names.pop("lea_weights", None)
        names.pop("lea_default_weight", None)
    if "metrics" in given:
        names["metrics"] = parse_metrics(scoring.metrics)
    spans = (scorer.reference_reader, scorer.predicted_reader)
    options = scoring.options(tokens=tokens)
    if not {"spans", "key_spans", "response_spans", "head_prefix"} & given:
        options = replace(options, spans=spans)
    origin = "the pipeline's coreference scorer" + (f", with {', '.join(sorted(given))} from the command line" if given else "")
    return replace(options, settings=Settings.from_dict(names)), origin


def _load(model: str):
    """The pipeline, with spaCy's own error turned into one line."""
    import spacy

    try:
        return spacy.load(model)
    except OSError as err:
        raise ValueError(f"cannot load the pipeline {model!r}: {str(err).splitlines()[0]}") from None
