"""``convert`` and ``export``: CoNLL-2012 to spaCy DocBin (``.spacy``) and
back (spaCy is imported when one of them runs, not when the CLI starts)."""
import sys
from pathlib import Path
from typing import Iterable, Iterator, Optional, TypeVar

import typer

from . import app
from .options import HEAD_PREFIX, SPANS, build_readers
from .output import reported_errors, say

PROGRESS_MIN_BYTES = 1 << 20
T = TypeVar("T")


def input_size(path: Path) -> int:
    """Bytes in a file, or in the files directly inside a directory."""
    if path.is_dir():
        return sum(file.stat().st_size for file in path.iterdir() if file.is_file())
    return path.stat().st_size


def progress(items: Iterable[T], total: int, path: Path, desc: str) -> Iterator[T]:
    """``items`` with a progress bar on standard error, shown only on a
    terminal and for inputs of at least :data:`PROGRESS_MIN_BYTES`."""
    from tqdm import tqdm

    show = sys.stderr.isatty() and input_size(path) >= PROGRESS_MIN_BYTES
    return iter(tqdm(items, total=total, desc=desc, unit="doc", disable=not show, leave=False, file=sys.stderr))


@app.command()
def convert(
    input_path: Path = typer.Argument(..., metavar="IN", help="CoNLL-2012 file (.conll, .gz) or a directory of them"),
    output_path: Path = typer.Argument(..., metavar="OUT", help="spaCy DocBin file to write (.spacy)"),
) -> None:
    """Convert CoNLL-2012 coreference to a spaCy DocBin (.spacy).

    Every doc keeps the words (one space after each but the last), the
    sentence starts, one span group coref_clusters_N per entity (N from 1)
    and the document name.
    """
    from spacy.vocab import Vocab

    from ..errors import CorefInputError
    from ..readers.corpus import is_docbin, read_conll_documents
    from ..readers.docbin import conll_to_docs, write_docbin

    with reported_errors():
        if is_docbin(input_path):
            raise CorefInputError(f"{input_path} is already a .spacy file (did you mean 'export'?)")
        documents = read_conll_documents(input_path, with_words=True)
        docs = conll_to_docs(progress(documents.values(), len(documents), input_path, "Converting"), Vocab())
        n_docs = write_docbin(output_path, docs, [input_path])
    n_mentions = sum(len(document.clusters) for document in documents.values())
    if not n_docs:
        say("warn", f"{input_path}: no '#begin document' blocks found")
    say("good", f"Converted {n_docs} document(s), {n_mentions} mention(s) to {output_path}")


@app.command()
def export(
    input_path: Path = typer.Argument(..., metavar="IN", help="spaCy DocBin file (.spacy)"),
    output_path: Path = typer.Argument(..., metavar="OUT", help="CoNLL-2012 file to write"),
    spans: Optional[str] = SPANS,
    head_prefix: Optional[str] = HEAD_PREFIX,
) -> None:
    """Export the coreference of a spaCy DocBin (.spacy) as CoNLL-2012.

    Entities are read from the span groups coref_clusters_N (or those
    named by --spans); document names are those kept by 'convert', else
    doc0, doc1, ...; white space inside a token is written as '_'. Use it
    to cross-check with other scorers.
    """
    from spacy.vocab import Vocab

    from ..errors import CorefInputError
    from ..readers.conll import write_conll
    from ..readers.docbin import docs_to_conll, iter_docs, load_docbin

    with reported_errors():
        if input_path.suffix in (".conll", ".gz"):
            raise CorefInputError(f"{input_path} looks like a CoNLL file (did you mean 'convert'?)")
        reader, _ = build_readers(spans, None, None, head_prefix)
        doc_bin = load_docbin(input_path)
        docs = progress(iter_docs(input_path, doc_bin, Vocab()), len(doc_bin), input_path, "Exporting")
        write_conll(output_path, docs_to_conll(docs, reader), [input_path])
    say("good", f"Exported {len(doc_bin)} document(s) to {output_path}")
