"""CoNLL-2012 documents as spaCy ``Doc`` objects and back; ``.spacy`` files.

A converted doc has:

- the CoNLL word column as its tokens. CoNLL keeps no spacing, so every token
  is followed by one space except the last: ``doc.text`` is the words joined
  by single spaces;
- sentence starts from the blank lines, as ``is_sent_start``;
- one span group ``coref_clusters_N`` per entity, ``N`` counting from 1 in
  the order the CoNLL reader gives (the layout of spaCy's experimental
  coreference component);
- the CoNLL document name in ``doc.user_data["coref_doc_name"]``, so that
  export restores it.
"""

from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from typing import Optional, Union

import numpy as np
from spacy.tokens import Doc, DocBin
from spacy.vocab import Vocab

from ...errors import CorefInputError
from ...files import open_output
from ...model.clusters import Clusters
from ..conll.read import ConllDocument, PathLike
from .names import CLUSTER_PREFIX, HEAD_PREFIX, NAME_KEY
from .records import check_docbin_data, read_docbin_bytes
from .spans import ClusterReader, PrefixedSpanGroups, doc_clusters

ConllRecord = tuple[str, list[str], Clusters, list[int]]


def conll_to_doc(document: ConllDocument, vocab: Vocab) -> Doc:
    """One CoNLL document (read ``with_words=True``) as a ``Doc``."""
    if document.words is None:
        raise ValueError(f"document {document.name!r} was read without its words (use with_words=True)")
    return words_to_doc(document.name, document.words, document.clusters, sentence_starts=document.sentence_starts, vocab=vocab)


def words_to_doc(
    name: str, words: Sequence[str], clusters: Clusters, *, sentence_starts: Union[Sequence[int], np.ndarray], vocab: Vocab
) -> Doc:
    """A document given by its words as a ``Doc`` (see the module
    docstring); mention heads, when ``clusters`` has them, become span
    groups ``coref_head_clusters_N`` (span i the head of mention i of
    ``coref_clusters_N``), read back with ``--head-prefix coref_head_clusters``."""
    doc = words_doc(vocab, words, sentence_starts)
    heads = clusters.heads
    for number, members in enumerate(_entity_members(clusters), 1):
        doc.spans[f"{CLUSTER_PREFIX}_{number}"] = [doc[int(clusters.starts[m]) : int(clusters.ends[m])] for m in members]
        if heads is not None:
            doc.spans[f"{HEAD_PREFIX}_{number}"] = [doc[int(heads[m]) : int(heads[m]) + 1] for m in members]
    doc.user_data[NAME_KEY] = name
    return doc


def words_doc(vocab: Vocab, words: Sequence[str], sentence_starts: Union[Sequence[int], np.ndarray], *, one_sentence: bool = True) -> Doc:
    """A ``Doc`` of a document given by its words: a space after every
    word but the last (so ``doc.text`` is the same whichever format the
    words come from: ``convert`` and ``evaluate`` both build it here), its
    sentences starting at ``sentence_starts``.

    Parameters
    ----------
    one_sentence : mark the sentence of a document with one sentence too
        (else its sentences are left for a pipeline to set)
    """
    spaces = [True] * len(words)
    if spaces:
        spaces[-1] = False
    starts = set(int(start) for start in sentence_starts)
    marked = len(starts) > 1 or (one_sentence and len(starts) > 0)
    sent_starts: Optional[list[Union[bool, int, None]]] = [index in starts for index in range(len(words))] if marked else None
    return Doc(vocab, words=list(words), spaces=spaces, sent_starts=sent_starts)


def _entity_members(clusters: Clusters) -> list[list[int]]:
    out: list[list[int]] = [[] for _ in range(clusters.n_entities)]
    for index, entity in enumerate(clusters.entity.tolist()):
        out[entity].append(index)
    return out


def conll_to_docs(documents: Iterable[ConllDocument], vocab: Vocab) -> Iterator[Doc]:
    """Every CoNLL document as a ``Doc`` (see the module docstring)."""
    for document in documents:
        yield conll_to_doc(document, vocab)


def stored_name(doc: Doc) -> Optional[str]:
    """The document name ``convert`` stored on ``doc``, else ``None``."""
    name = doc.user_data.get(NAME_KEY)
    return name if isinstance(name, str) and name else None


def doc_name(doc: Doc, index: int) -> str:
    """The stored CoNLL name of ``doc``, else ``doc{index}``."""
    return stored_name(doc) or f"doc{index}"


def doc_to_conll(doc: Doc, index: int, reader: Optional[ClusterReader] = None) -> ConllRecord:
    """``(name, words, clusters, sentence_starts)`` of one doc, as
    :func:`~.conll.write_conll` takes them; sentences only where the doc has
    sentence boundaries."""
    clusters = doc_clusters(doc, reader or PrefixedSpanGroups(CLUSTER_PREFIX), heads=False)
    sentence_starts = [sent.start for sent in doc.sents] if doc.has_annotation("SENT_START") else []
    return doc_name(doc, index), [token.text for token in doc], clusters, sentence_starts


def docs_to_conll(docs: Iterable[Doc], reader: Optional[ClusterReader] = None) -> Iterator[ConllRecord]:
    """:func:`doc_to_conll` for every doc, numbered from 0."""
    for index, doc in enumerate(docs):
        yield doc_to_conll(doc, index, reader)


def load_docbin(path: PathLike, reader: Optional[ClusterReader] = None) -> DocBin:
    """A ``.spacy`` file, user data included, checked first by
    :func:`~.records.check_docbin_data` (with ``reader``, its clusters too), so
    that damage is one :class:`CorefInputError` naming the file and doc,
    not spaCy's error when a doc or span is built."""
    data = read_docbin_bytes(path)
    check_docbin_data(data, str(path), reader)
    try:
        return DocBin(store_user_data=True).from_bytes(data)
    except Exception:
        raise CorefInputError(f"{path}: not a spaCy DocBin (.spacy) file") from None


def read_docbin(path: PathLike, vocab: Optional[Vocab] = None) -> list[Doc]:
    """The docs of a ``.spacy`` file; a damaged one raises
    :class:`CorefInputError` naming the file and the first bad doc."""
    return list(iter_docs(path, load_docbin(path), vocab or Vocab()))


def iter_docs(path: PathLike, doc_bin: DocBin, vocab: Vocab) -> Iterator[Doc]:
    """The docs of ``doc_bin`` (read from ``path``), one by one; spaCy's
    errors on damaged data become :class:`CorefInputError` naming the doc."""
    docs = doc_bin.get_docs(vocab)
    index = 0
    while True:
        try:
            doc = next(docs)
        except StopIteration:
            return
        except Exception as err:
            raise CorefInputError(f"{path}: doc {index} is damaged: {type(err).__name__}: {_first_line(err)}") from None
        yield doc
        index += 1


def write_docbin(path: PathLike, docs: Iterable[Doc], inputs: Iterable[PathLike] = (), *, attrs: Optional[Sequence[str]] = None) -> int:
    """Write docs (user data included) to a ``.spacy`` file, atomically and
    never over one of ``inputs``; returns how many were written.

    Parameters
    ----------
    attrs : the token attributes to store (ORTH and SPACY always are); by
        default every attribute a ``DocBin`` stores. A doc whose other
        attributes are unset loses nothing when given only those it sets,
        and its token table shrinks from 13 columns to ``1 + len(attrs)``.
    """
    with _encoders_looked_up_once():
        doc_bin = DocBin(store_user_data=True, docs=docs, **({} if attrs is None else {"attrs": list(attrs)}))
        data = doc_bin.to_bytes()
    with open_output(path, "wb", inputs, make_parents=True) as out:
        out.write(data)
    return len(doc_bin)


@contextmanager
def _encoders_looked_up_once() -> Iterator[None]:
    """srsly's msgpack encoders, looked up in the installed packages' entry
    points once rather than at every ``msgpack_dumps``: a doc's span groups
    are serialized one group (one entity) at a time, and each lookup scans
    every installed distribution (about 2 ms; 140 s of converting ten
    LitBanks). Where an entry point registers an encoder, nothing changes."""
    import srsly

    registry = srsly.msgpack_encoders
    if not registry.entry_points or registry.get_entry_points():
        yield
        return
    registry.entry_points = False
    try:
        yield
    finally:
        registry.entry_points = True


def _first_line(err: Exception) -> str:
    text = str(err).strip().splitlines()
    return text[0][:200] if text else ""
