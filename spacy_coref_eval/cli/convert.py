"""``convert`` and ``export``: CoNLL-2012 to spaCy DocBin (``.spacy``) and
back (spaCy is imported when one of them runs, not when the CLI starts)."""
import sys
from pathlib import Path
from typing import Iterable, Iterator, TypeVar

import typer
from tqdm import tqdm

from ..errors import CorefInputError
from ..readers.conll import write_conll
from ..readers.corpus import is_docbin, read_conll_documents
from . import app
from .output import fail, say

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

    from ..readers.docbin import conll_to_docs, write_docbin

    try:
        if is_docbin(input_path):
            raise CorefInputError(f"{input_path} is already a .spacy file (did you mean 'export'?)")
        documents = read_conll_documents(input_path, with_words=True)
        docs = conll_to_docs(progress(documents.values(), len(documents), input_path, "Converting"), Vocab())
        n_docs = write_docbin(output_path, docs)
    except CorefInputError as err:
        fail(err)
    n_mentions = sum(len(document.clusters) for document in documents.values())
    if not n_docs:
        say("warn", f"{input_path}: no '#begin document' blocks found")
    say("good", f"Converted {n_docs} document(s), {n_mentions} mention(s) to {output_path}")


@app.command()
def export(
    input_path: Path = typer.Argument(..., metavar="IN", help="spaCy DocBin file (.spacy)"),
    output_path: Path = typer.Argument(..., metavar="OUT", help="CoNLL-2012 file to write"),
) -> None:
    """Export the coreference of a spaCy DocBin (.spacy) as CoNLL-2012.

    Entities are read from the span groups coref_clusters_N; document names
    are those kept by 'convert', else doc0, doc1, ...; white space inside a
    token is written as '_'. Use it to cross-check with other scorers.
    """
    from spacy.vocab import Vocab

    from ..readers.docbin import docs_to_conll, load_docbin

    try:
        if input_path.suffix in (".conll", ".gz"):
            raise CorefInputError(f"{input_path} looks like a CoNLL file (did you mean 'convert'?)")
        doc_bin = load_docbin(input_path)
        docs = progress(doc_bin.get_docs(Vocab()), len(doc_bin), input_path, "Exporting")
        output_path.parent.mkdir(parents=True, exist_ok=True)
        write_conll(output_path, docs_to_conll(docs))
    except CorefInputError as err:
        fail(err)
    except OSError as err:
        fail(CorefInputError(f"{output_path}: cannot write file: {err.strerror or err}"))
    say("good", f"Exported {len(doc_bin)} document(s) to {output_path}")
