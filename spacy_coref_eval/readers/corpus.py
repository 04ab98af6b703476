"""Key and response documents from CoNLL-2012 or ``.spacy`` files, paired.

CoNLL against CoNLL pairs documents by name
(:func:`~spacy_coref_eval.scoring.pair_documents`). As soon as one side is a
``.spacy`` file, documents are paired by order: both sides must hold as many
documents, and paired documents the same text (two ``.spacy`` files; the
tokenisation may differ, see :func:`~.alignment.aligned_clusters`) or the same
words (a ``.spacy`` file and a CoNLL file). A pair is named after its key
document: the CoNLL name, else ``doc{index}``.

spaCy is imported only when a ``.spacy`` file is read, so that scoring
CoNLL files starts fast.
"""
from pathlib import Path
from typing import TYPE_CHECKING, Dict, Iterable, List, Optional, Sequence, Tuple

from ..clusters import Clusters
from ..errors import CorefInputError
from ..scoring import as_clusters, pair_documents
from .conll import ConllDocument, PathLike, read_conll

if TYPE_CHECKING:
    from .spans import ClusterReader

Pair = Tuple[str, Clusters, Clusters]
Words = Dict[str, List[str]]
Side = List[Tuple[str, List[str], Clusters]]

_CONLL_PATTERNS = ("*conll", "*conll.gz")


def is_docbin(path: PathLike) -> bool:
    """Whether ``path`` names a spaCy DocBin (``.spacy``) file."""
    return Path(path).suffix == ".spacy"


def read_conll_documents(path: PathLike, *, with_words: bool = False) -> Dict[str, ConllDocument]:
    """Documents of a CoNLL-2012 file, or of a directory's files whose names
    end in ``conll`` or ``conll.gz`` (in name order, e.g. LitBank's
    ``coref/conll``); document names must be unique."""
    path = Path(path)
    if not path.is_dir():
        return read_conll(path, with_words=with_words)
    files = sorted({file for pattern in _CONLL_PATTERNS for file in path.glob(pattern) if file.is_file()})
    if not files:
        raise CorefInputError(f"{path}: no CoNLL files (*conll, *conll.gz) in this directory")
    documents: Dict[str, ConllDocument] = {}
    for file in files:
        for name, document in read_conll(file, with_words=with_words).items():
            if name in documents:
                raise CorefInputError(
                    f"{file}: document {name!r} appears twice (also in {documents[name].source})"
                )
            documents[name] = document
    return documents


def load_pairs(
    key_path: PathLike,
    response_path: PathLike,
    reader: Optional["ClusterReader"] = None,
) -> Tuple[List[Pair], List[str]]:
    """``(name, key, response)`` clusters of every document pair, and
    warnings. ``reader`` reads clusters from ``.spacy`` docs (default: span
    groups ``coref_clusters_N``)."""
    pairs, _, warnings = _load(key_path, response_path, reader, with_words=False)
    return pairs, warnings


def load_pairs_with_words(
    key_path: PathLike,
    response_path: PathLike,
    reader: Optional["ClusterReader"] = None,
) -> Tuple[List[Pair], Words, List[str]]:
    """Like :func:`load_pairs`, with the words of every pair's key document
    by pair name (the CoNLL word column, or the tokens of a ``.spacy`` doc)."""
    return _load(key_path, response_path, reader, with_words=True)


def _load(
    key_path: PathLike, response_path: PathLike, reader: Optional["ClusterReader"], with_words: bool
) -> Tuple[List[Pair], Words, List[str]]:
    if is_docbin(key_path) or is_docbin(response_path):
        from .spans import prefixed_span_groups

        reader = reader or prefixed_span_groups()
        if is_docbin(key_path) and is_docbin(response_path):
            return _pair_docbins(key_path, response_path, reader)
        return _pair_by_words(key_path, response_path, reader)
    key_documents = read_conll_documents(key_path, with_words=with_words)
    response_documents = read_conll_documents(response_path)
    if not key_documents:
        raise CorefInputError(f"{key_path}: no '#begin document' blocks, nothing to score against")
    key = {name: doc.clusters for name, doc in key_documents.items()}
    pairs, warnings = pair_documents(key, {name: doc.clusters for name, doc in response_documents.items()})
    warnings += length_warnings(key_documents, response_documents)
    words = {name: doc.words for name, doc in key_documents.items() if doc.words is not None}
    return [(name, as_clusters(k), as_clusters(r)) for name, k, r in pairs], words, warnings


def length_warnings(key: Dict[str, ConllDocument], response: Dict[str, ConllDocument]) -> List[str]:
    """One warning listing the documents whose key and response have
    different numbers of tokens (mentions are compared by token position,
    so such a response is likely misaligned)."""
    differing = [
        f"{name} ({doc.n_tokens} vs {response[name].n_tokens})"
        for name, doc in key.items()
        if name in response and doc.n_tokens != response[name].n_tokens
    ]
    if not differing:
        return []
    listed = ", ".join(differing[:10]) + (", ..." if len(differing) > 10 else "")
    return [
        f"{len(differing)} document(s) have different numbers of tokens in the key and the response; "
        f"mentions are compared by token position, so check the files are aligned: {listed}"
    ]


def _pair_docbins(key_path: PathLike, response_path: PathLike, reader: "ClusterReader") -> Tuple[List[Pair], Words, List[str]]:
    from spacy.vocab import Vocab

    from .alignment import aligned_clusters, unmapped_warnings
    from .docbin import doc_name, read_docbin

    vocab = Vocab()
    key_docs = read_docbin(key_path, vocab)
    response_docs = read_docbin(response_path, vocab)
    _check_counts(key_path, len(key_docs), response_path, len(response_docs))
    names = _unique_names(doc_name(doc, index) for index, doc in enumerate(key_docs))
    pairs: List[Pair] = []
    unmapped: Dict[str, int] = {}
    words: Words = {}
    for index, (name, key_doc, response_doc) in enumerate(zip(names, key_docs, response_docs)):
        if key_doc.text != response_doc.text:
            where = _difference(key_doc.text, response_doc.text, "character", "", 30)
            raise _mismatch(key_path, response_path, index, name, f"different text: {where}")
        key, response, n_unmapped = aligned_clusters(key_doc, response_doc, reader)
        if n_unmapped:
            unmapped[name] = n_unmapped
        pairs.append((name, key, response))
        words[name] = [token.text for token in key_doc]
    return pairs, words, unmapped_warnings(unmapped)


def _pair_by_words(key_path: PathLike, response_path: PathLike, reader: "ClusterReader") -> Tuple[List[Pair], Words, List[str]]:
    key_side = _read_side(key_path, reader)
    response_side = _read_side(response_path, reader)
    _check_counts(key_path, len(key_side), response_path, len(response_side))
    pairs: List[Pair] = []
    words: Words = {}
    for index, ((name, key_words, key), (_, response_words, response)) in enumerate(zip(key_side, response_side)):
        if key_words != response_words:
            where = _difference(key_words, response_words, "word", " ", 6)
            raise _mismatch(key_path, response_path, index, name, f"different words: {where}")
        pairs.append((name, key, response))
        words[name] = key_words
    return pairs, words, []


def _read_side(path: PathLike, reader: "ClusterReader") -> Side:
    """``(name, words, clusters)`` of every document of one file."""
    if is_docbin(path):
        from .docbin import doc_name, read_docbin
        from .spans import doc_clusters

        docs = read_docbin(path)
        names = _unique_names(doc_name(doc, index) for index, doc in enumerate(docs))
        return [(name, [token.text for token in doc], doc_clusters(doc, reader)) for name, doc in zip(names, docs)]
    return [(d.name, d.words or [], d.clusters) for d in read_conll_documents(path, with_words=True).values()]


def _check_counts(key_path: PathLike, n_key: int, response_path: PathLike, n_response: int) -> None:
    if n_key != n_response:
        raise CorefInputError(
            f"cannot pair {key_path} ({n_key} documents) with {response_path} "
            f"({n_response} documents): with a .spacy file, documents are paired by order"
        )


def _mismatch(key_path: PathLike, response_path: PathLike, index: int, name: str, detail: str) -> CorefInputError:
    return CorefInputError(
        f"cannot pair {key_path} with {response_path}: document index {index} ({name!r}) has {detail} "
        "(with a .spacy file, documents are paired by order)"
    )


def _difference(key: Sequence[str], response: Sequence[str], unit: str, joiner: str, width: int) -> str:
    """Where two sequences first differ, with an excerpt of each."""
    at = next((i for i, (a, b) in enumerate(zip(key, response)) if a != b), min(len(key), len(response)))
    return (
        f"from {unit} {at} the key reads {_excerpt(key, at, joiner, width)} "
        f"and the response {_excerpt(response, at, joiner, width)}"
    )


def _excerpt(items: Sequence[str], at: int, joiner: str, width: int) -> str:
    part = joiner.join(items[at : at + width])
    return repr(part) if part else "nothing (end of document)"


def _unique_names(names: Iterable[str]) -> List[str]:
    """Names made unique by adding ``(doc{index})`` to repeats."""
    seen = set()
    out = []
    for index, name in enumerate(names):
        if name in seen:
            name = f"{name} (doc{index})"
        seen.add(name)
        out.append(name)
    return out
