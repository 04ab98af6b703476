"""``convert`` (any format to any other) and ``export`` (spaCy DocBin to
CoNLL-2012); spaCy is imported when one of them needs it, not when the CLI
starts."""
import sys
from pathlib import Path
from typing import Iterable, Iterator, List, Optional, Sequence, Tuple, TypeVar

import typer

from . import app
from .options import HEAD_PREFIX, INPUT_FORMAT, SPANS, build_readers
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
    input_path: Path = typer.Argument(..., metavar="IN", help="Coreference in any format: CoNLL-2012 (file or directory), .conllu, .jsonlines, .spacy"),
    output_path: Path = typer.Argument(..., metavar="OUT", help="File to write; its name says the format: *conll (CoNLL-2012), .conllu (CorefUD), .jsonlines/.jsonl, else a spaCy DocBin (.spacy); gzip-compressed when it ends in .gz"),
    input_format: Optional[str] = INPUT_FORMAT,
    spans: Optional[str] = SPANS,
    head_prefix: Optional[str] = HEAD_PREFIX,
) -> None:
    """Convert coreference between formats, keeping every score.

    To .spacy: every doc keeps the words (one space after each but the
    last), the sentence starts, one span group coref_clusters_N per entity
    (N from 1), mention heads as span groups coref_head_clusters_N when the
    input has them, and the document name. To CoNLL-2012 or jsonlines: the
    words, sentences, clusters and names. To CoNLL-U (CorefUD): the words,
    sentences (those of doc.sents from .spacy input, one per doc without
    sentence boundaries; sentences a mention spans are joined), clusters with their heads,
    names, and the parts of speech and Gender and Person features the input
    has.
    """
    from ..errors import CorefInputError
    from ..files import check_not_input
    from ..formats.corpus import input_format as format_of
    from ..formats.corpus import read_side

    with reported_errors():
        check_not_input(output_path, [input_path])
        target = output_format_of(output_path)
        source = format_of(input_path, input_format)
        if source == target == "spacy":
            raise CorefInputError(f"{input_path} is already a .spacy file (did you mean 'export'?)")
        if source == target:
            raise CorefInputError(f"{input_path} and {output_path} are both {source} files; nothing to convert")
        reader, _ = build_readers(spans, None, None, head_prefix)
        side = read_side(input_path, reader, with_words=True, token_attrs=target == "conllu", fmt=source, role="key")
        documents = progress(side.documents, len(side.documents), input_path, "Converting")
        n_docs, notes = write_documents(output_path, target, documents, [input_path])
    for warning in side.warnings + notes:
        say("warn", warning)
    n_mentions = sum(len(document.clusters) for document in side.documents)
    if not n_docs:
        say("warn", f"{input_path}: no documents found")
    say("good", f"Converted {n_docs} document(s), {n_mentions} mention(s) to {output_path}")


def output_format_of(path: Path) -> str:
    """The format ``convert`` writes: CoNLL-2012 for a name ending in
    ``conll`` (``.gz`` aside), CoNLL-U for ``.conllu``, jsonlines for
    ``.jsonlines``/``.jsonl``, a spaCy DocBin otherwise (``.spacy``)."""
    name = path.name[: -len(".gz")] if path.name.endswith(".gz") else path.name
    if name.endswith(".conllu"):
        return "conllu"
    if name.endswith("conll"):
        return "conll"
    if name.endswith((".jsonlines", ".jsonl")):
        return "jsonlines"
    return "spacy"


def write_documents(path: Path, fmt: str, documents: Iterable, inputs: Sequence[Path]) -> Tuple[int, List[str]]:
    """Write the documents of a side (:class:`~..readers.pairing.SideDocument`)
    in format ``fmt``; returns how many were written, and warnings."""
    documents = list(documents)
    names = [document.name if document.name is not None else f"doc{index}" for index, document in enumerate(documents)]
    check_spans(names, documents, fmt)
    if fmt == "spacy":
        from spacy.vocab import Vocab

        from ..formats.docbin.docs import words_to_doc, write_docbin

        vocab = Vocab()
        docs = (words_to_doc(name, d.words, d.clusters, d.sentence_starts, vocab) for name, d in zip(names, documents))
        return write_docbin(path, docs, inputs), []
    if fmt == "jsonlines":
        from ..formats.jsonlines.write import split_sentences, write_jsonlines

        sentences = [split_sentences(d.words, d.sentence_starts) for d in documents]
        write_jsonlines(path, [(name, s, d.clusters) for name, s, d in zip(names, sentences, documents)], inputs=inputs)
        return len(documents), []
    if fmt == "conllu":
        from ..formats.conllu.write import write_conllu
        from ..formats.corpus import side_tokens

        joined = write_conllu(
            path, [(name, d.words, d.clusters, d.sentence_starts, side_tokens(d)) for name, d in zip(names, documents)], inputs
        )
        notes = [f"{path}: {joined} sentence break(s) inside mentions dropped (a CorefUD mention lies within one sentence)"]
        return len(documents), notes if joined else []
    from ..formats.conll.write import write_conll

    write_conll(path, [(name, d.words, d.clusters, d.sentence_starts) for name, d in zip(names, documents)], inputs)
    return len(documents), []


def check_spans(names: Sequence[str], documents: Sequence, fmt: str) -> None:
    """Raise :class:`CorefInputError` for the first document with a mention
    that is not a token range (a discontinuous CorefUD mention, or one that
    skips an empty node): ``fmt`` has spans only."""
    from ..errors import CorefInputError

    for name, document in zip(names, documents):
        scattered = document.clusters.scattered()
        if scattered.any():
            m = int(scattered.argmax())
            raise CorefInputError(
                f"document {name!r}: {int(scattered.sum())} mention(s) are not token ranges (the first covers tokens "
                f"{document.clusters.nodes.of(m).tolist()}), and {fmt} holds spans only"
            )


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
    from ..formats.conll.write import write_conll
    from ..formats.docbin.docs import docs_to_conll, iter_docs, load_docbin

    with reported_errors():
        if input_path.suffix in (".conll", ".gz"):
            raise CorefInputError(f"{input_path} looks like a CoNLL file (did you mean 'convert'?)")
        reader, _ = build_readers(spans, None, None, head_prefix)
        doc_bin = load_docbin(input_path, reader)
        docs = progress(iter_docs(input_path, doc_bin, Vocab()), len(doc_bin), input_path, "Exporting")
        write_conll(output_path, docs_to_conll(docs, reader), [input_path])
    say("good", f"Exported {len(doc_bin)} document(s) to {output_path}")
