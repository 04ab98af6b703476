"""``baseline``: write the string-match baseline of a key as a response
(:mod:`~spacy_coref_eval.analysis.baseline`; docs/long-documents.md §6)."""

from pathlib import Path
from typing import Optional

import click

from ._app import app
from .options import INPUT_FORMAT, INPUT_HELP, key_argument
from .output import reported_errors, say, write


@app.command(epilog=INPUT_HELP, short_help="Write a string-match baseline response for a key")
@key_argument()
@click.option(
    "--output",
    "-o",
    type=click.Path(path_type=Path),
    default=None,
    help="Write the response here, in the format its name says (default: CoNLL-2012 on standard output)",
)
@click.option(
    "--match",
    "by",
    type=click.Choice(["string", "head"]),
    default="string",
    show_default=True,
    help="Put mentions with the same text (lowercased words joined by one space) or the same head word in one entity",
)
@INPUT_FORMAT
def baseline(key: Path, output: Optional[Path], by: str, *, input_format: Optional[str]) -> None:
    """Write the string-match baseline of KEY: the key's own mentions, those
    with the same text (or head word) in one entity, as a response to score."""
    from ..analysis.baseline import baseline_clusters
    from ..errors import CorefInputError
    from ..files import check_not_input
    from ..formats import ReadOptions, format_of
    from ..formats.conll.write import format_conll
    from ..formats.corpus import read_side
    from ..formats.document import WordsDocument, document_names

    with reported_errors():
        side = read_side(key, format_of(key, input_format), ReadOptions("key", None, True, False))
        if not side.documents:
            raise CorefInputError(f"{key}: no documents")
        documents = [
            WordsDocument(
                document.name,
                baseline_clusters(document.clusters, document.words, by),
                list(document.words),
                list(document.sentence_starts),
            )
            for document in side.documents
        ]
        if output is None:
            lines = [
                line
                for name, document in zip(document_names(documents), documents)
                for line in format_conll(name, document.words, document.clusters, sentence_starts=document.sentence_starts)
            ]
            write("\n".join(lines) + "\n", None, "the baseline", inputs=(key,))
            return
        check_not_input(output, [key])
        target = format_of(output, writing=True)
        if target.write is None:
            raise CorefInputError(f"{output}: the {target.title} format is read, not written")
        target.write(output, documents, [key])
    n_entities = sum(document.clusters.n_entities for document in documents)
    say("good", f"Wrote the {by}-match baseline of {len(documents)} document(s), {n_entities} entities, to {output}")
