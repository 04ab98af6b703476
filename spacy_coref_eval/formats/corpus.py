"""Key and response documents from CoNLL-2012 or ``.spacy`` files, paired.

Documents pair by name (:func:`~.pairing.pair_documents`): CoNLL documents
by their ``#begin document`` name, ``.spacy`` docs by the name ``convert``
stores (``doc.user_data["coref_doc_name"]``). Where a ``.spacy`` side stores
no names, documents pair by order (both sides must hold as many), except
that two ``.spacy`` files of which only one stores names is an error. Paired ``.spacy`` docs must
have the same text up to white space (the tokenisation may differ, see
:func:`~.alignment.align_clusters`); a ``.spacy`` doc and a CoNLL document
the same words (compared as ``export`` writes them). A pair is named after
its key document (for unnamed docs ``doc{index}``).

A ``.spacy`` side whose docs hold no span group its reader reads is an
error on the key side and a warning on the response side: it would score 0
without a word. spaCy is imported only when a ``.spacy`` file is read, so
that scoring CoNLL files starts fast.
"""
from dataclasses import dataclass, field, replace
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any, Dict, FrozenSet, List, Mapping, Optional, Sequence, Tuple, TypeVar

import numpy as np

from ..clusters import Clusters, ClustersLike
from ..errors import LISTED, CorefInputError, listed
from .conll.read import PathLike, read_conll_documents
from .conll.write import conll_column
from .document import SideDocument
from .tokens import Tokens

T = TypeVar("T")

if TYPE_CHECKING:
    from .conllu.read import CorefUDDocument
    from .docbin.spans import ClusterReader

Pair = Tuple[str, Clusters, Clusters]
Words = Dict[str, List[str]]


@dataclass(frozen=True)
class Side:
    """The documents of one input file (or directory), and for ``.spacy``
    input every span group name its docs hold."""

    path: Path
    documents: List[SideDocument]
    format: str = "conll"
    groups: FrozenSet[str] = field(default_factory=frozenset)
    warnings: List[str] = field(default_factory=list)

    @property
    def spacy(self) -> bool:
        return self.format == "spacy"

    @property
    def named(self) -> bool:
        return all(document.name is not None for document in self.documents)


@dataclass(frozen=True)
class Loaded:
    """Paired documents, the key's words by pair name, warnings, the names
    of the response's documents (paired or not), and with ``with_tokens``
    the key's token information by pair name (for resolution classes)."""

    pairs: List[Pair]
    words: Words
    warnings: List[str]
    response_names: List[str]
    tokens: Dict[str, Tokens] = field(default_factory=dict)
    renumbered: Dict[str, SideDocument] = field(default_factory=dict)
    """Key documents renumbered for their pair (CoNLL-U files with different
    empty nodes), by pair name."""


def is_docbin(path: PathLike) -> bool:
    """Whether ``path`` names a spaCy DocBin (``.spacy``) file."""
    return Path(path).suffix == ".spacy"


FORMATS = ("conll", "conllu", "jsonlines", "spacy")
"""Input formats: CoNLL-2012, CorefUD CoNLL-U, jsonlines, spaCy DocBin."""
_SUFFIXES = {".conllu": "conllu", ".jsonlines": "jsonlines", ".jsonl": "jsonlines", ".spacy": "spacy"}


def input_format(path: PathLike, given: Optional[str] = None) -> str:
    """The format of an input: ``given``, else from the suffix (``.gz``
    aside): ``.conllu`` CoNLL-U, ``.jsonlines``/``.jsonl`` jsonlines,
    ``.spacy`` DocBin, anything else (``.conll``, ``.gold_conll``,
    ``*_conll``, a directory) CoNLL-2012."""
    if given is not None:
        if given not in FORMATS:
            raise CorefInputError(f"unknown input format {given!r}; choose from {', '.join(FORMATS)}")
        return given
    path = Path(path)
    suffix = Path(path.stem).suffix if path.suffix == ".gz" else path.suffix
    return _SUFFIXES.get(suffix.lower(), "conll")


def read_side(
    path: PathLike,
    reader: Optional["ClusterReader"] = None,
    with_words: bool = True,
    token_attrs: bool = False,
    fmt: Optional[str] = None,
    role: str = "response",
    paired_with: Optional[Side] = None,
) -> Side:
    """The documents of one input in its format (:func:`input_format`): a
    CoNLL-2012 file or directory, a CoNLL-U or jsonlines file (``role``
    ``"key"`` reads jsonlines ``clusters``, ``"response"`` prefers
    ``predicted_clusters``), or a ``.spacy`` file read with ``reader``
    (default: span groups ``coref_clusters_N``; ``token_attrs`` also reads
    parts of speech and morphology). A jsonlines file ``paired_with``
    another reuses what was read of the sentences the two share. Input that
    does not fit its format raises :class:`CorefInputError` naming the
    format tried."""
    path = Path(path)
    fmt = input_format(path, fmt)
    try:
        return _read_side(path, fmt, reader, with_words, token_attrs, role, paired_with)
    except CorefInputError as err:
        if fmt == "conll" and "outside a '#begin document' block" in str(err):
            raise CorefInputError(
                f"{err} (read as CoNLL-2012; for another format use its suffix or --input-format "
                f"{'|'.join(FORMATS)})"
            ) from None
        raise


def _read_side(path: Path, fmt: str, reader: Optional["ClusterReader"], with_words: bool, token_attrs: bool, role: str,
               paired_with: Optional[Side]) -> Side:
    if fmt == "spacy":
        from .docbin.records import read_docbin_records

        records = read_docbin_records(path, reader, token_attrs=token_attrs)
        documents = [
            SideDocument(record.name, record.clusters, len(record), record=record, sentence_starts=record.sentence_starts)
            for record in records
        ]
        return Side(path, documents, fmt, frozenset(g for record in records for g in record.span_groups))
    if fmt == "conllu":
        from .conllu.nodes import node_order
        from .conllu.read import read_conllu

        conllu = read_conllu(path)
        documents = [_conllu_document(document, node_order(document)) for document in conllu.documents.values()]
        return Side(path, documents, fmt, warnings=conllu.warnings())
    if fmt == "jsonlines":
        from .jsonlines.read import read_jsonlines

        known = paired_with.documents if paired_with is not None and paired_with.format == "jsonlines" else ()
        lines = read_jsonlines(path, role=role, known={d.record.doc_key: d.record for d in known})
        documents = [
            SideDocument(d.doc_key, d.clusters, d.n_words, record=d, sentence_starts=d.sentence_starts,
                         token_info=d.token_info, words_text=d.sentences_text if d.subtoken_map is None else None)
            for d in lines.values()
        ]
        return Side(path, documents, fmt)
    conll = read_conll_documents(path, with_words=with_words)
    documents = [
        SideDocument(
            d.name, d.clusters, d.n_tokens, d.words or [], None, d.sentence_starts,
            None if d.pos is None else partial(Tokens, d.words or [], d.sentence_starts or [0], tag=d.pos),
        )
        for d in conll.values()
    ]
    return Side(path, documents, fmt, warnings=conll.warnings)


def _conllu_document(
    document: "CorefUDDocument", order: np.ndarray, other: Optional["CorefUDDocument"] = None
) -> SideDocument:
    """A CoNLL-U document whose tokens are its nodes in ``order``
    (:func:`~.conllu_nodes.node_order`: its own, or the union with those of
    the ``other`` file it is paired with): discontinuous and zero mentions
    are sets of nodes (:mod:`~.conllu_nodes`)."""
    from .conllu.nodes import node_clusters, node_forms, node_sentence_starts, node_tokens

    return SideDocument(
        document.name, node_clusters(document, order), len(order), node_forms(document, order, other), None,
        node_sentence_starts(document, order), partial(node_tokens, document, order), corefud=document,
    )


def load_pairs(
    key_path: PathLike,
    response_path: PathLike,
    key_reader: Optional["ClusterReader"] = None,
    response_reader: Optional["ClusterReader"] = None,
    formats: Tuple[Optional[str], Optional[str]] = (None, None),
) -> Tuple[List[Pair], List[str]]:
    """``(name, key, response)`` clusters of every document pair, and
    warnings. The readers read clusters from ``.spacy`` docs (default: span
    groups ``coref_clusters_N``); ``formats`` as :func:`load_corpus`."""
    loaded = load_corpus(key_path, response_path, key_reader, response_reader, with_words=False, formats=formats)
    return loaded.pairs, loaded.warnings


def load_pairs_with_words(
    key_path: PathLike,
    response_path: PathLike,
    key_reader: Optional["ClusterReader"] = None,
    response_reader: Optional["ClusterReader"] = None,
) -> Tuple[List[Pair], Words, List[str]]:
    """Like :func:`load_pairs`, with the words of every pair's key document
    by pair name (the CoNLL word column, or the tokens of a ``.spacy`` doc)."""
    loaded = load_corpus(key_path, response_path, key_reader, response_reader, with_words=True)
    return loaded.pairs, loaded.words, loaded.warnings


def load_corpus(
    key_path: PathLike,
    response_path: PathLike,
    key_reader: Optional["ClusterReader"] = None,
    response_reader: Optional["ClusterReader"] = None,
    with_words: bool = True,
    with_tokens: bool = False,
    formats: Tuple[Optional[str], Optional[str]] = (None, None),
) -> Loaded:
    """Both sides read (``formats`` may name their formats, else taken from
    the suffixes) and paired (see the module docstring); with
    ``with_tokens`` the key's token information too."""
    kinds = input_format(key_path, formats[0]), input_format(response_path, formats[1])
    checked = kinds != ("conll", "conll")
    key = read_side(key_path, key_reader, with_words or checked or with_tokens, with_tokens, kinds[0], "key")
    response = read_side(response_path, response_reader, checked, False, kinds[1], "response", key)
    if not key.documents:
        what = "no '#begin document' blocks" if key.format == "conll" else "no documents"
        raise CorefInputError(f"{key_path}: {what}, nothing to score against")
    notes = list(dict.fromkeys(key.warnings + response.warnings))
    notes += _group_notes(key, key_reader, "key") + _group_notes(response, response_reader, "response")
    if checked:
        loaded = _pair_checked(key, _named_like(response, key), notes, with_words)
    else:
        by_name = {document.name: document for document in response.documents}
        pairs, warnings = pair_documents({d.name: d for d in key.documents}, by_name, None)
        words = {name: k.words for name, k, _ in pairs if with_words}
        warnings += length_warnings(pairs)
        loaded = Loaded(
            [(name, k.clusters, r.clusters if r else Clusters()) for name, k, r in pairs], words, notes + warnings,
            list(by_name),
        )
    if with_tokens:
        names = [name for name, _, _ in loaded.pairs]
        loaded = replace(loaded, tokens={name: side_tokens(doc) for name, doc in zip(names, _by_pair(key, loaded))})
    return loaded


def side_tokens(document: SideDocument) -> Tokens:
    """The token information of one document: words and sentences of a
    CoNLL document, words, parts of speech and morphology of a ``.spacy``
    doc read with ``token_attrs``."""
    if document.token_info is not None:
        return document.token_info()
    record = document.record
    if record is None:
        return Tokens(document.words, document.sentence_starts if len(document.sentence_starts) else [0])
    return Tokens.from_columns(record.words, record.sentence_starts, record.pos, record.tags, record.morphs)


def _by_pair(key: Side, loaded: Loaded) -> List[SideDocument]:
    """The key documents in the order of the loaded pairs."""
    if key.named:
        by_name = {document.name: document for document in key.documents}
        return [loaded.renumbered.get(name) or by_name[name] for name, _, _ in loaded.pairs]
    return list(key.documents)


def _named_like(side: Side, other: Side) -> Side:
    """A jsonlines side against a CoNLL-2012 side: its documents renamed
    to the CoNLL names they pair with (doc_key ``NAME_N`` for
    ``(NAME); part NNN``, or the exact name)."""
    if side.format != "jsonlines" or other.format != "conll":
        return side
    from .jsonlines.read import pair_with_conll

    renamed = {key: name for name, key in pair_with_conll([d.name for d in other.documents], [d.name for d in side.documents]).items()}
    return replace(side, documents=[replace(d, name=renamed.get(d.name, d.name)) for d in side.documents])


def _pair_checked(key: Side, response: Side, notes: List[str], with_words: bool) -> Loaded:
    from .alignment import unmapped_warnings

    named_pairs, warnings, response_names = _pair_sides(key, response)
    pairs: List[Pair] = []
    words: Words = {}
    unmapped: Dict[str, int] = {}
    renumbered: Dict[str, SideDocument] = {}
    for index, name, key_doc, response_doc in named_pairs:
        if with_words:
            words[name] = key_doc.words
        if response_doc is None:
            pairs.append((name, key_doc.clusters, Clusters()))
            continue
        if key.spacy and response.spacy:
            clusters, n_unmapped = _aligned(key, response, index, name, key_doc.record, response_doc.record)
            if n_unmapped:
                unmapped[name] = n_unmapped
        elif key_doc.corefud is not None and response_doc.corefud is not None:
            paired_key, clusters = _corefud_pair(key_doc, response_doc)
            if paired_key is not key_doc:
                renumbered[name] = paired_key
                if with_words:
                    words[name] = paired_key.words
            pairs.append((name, paired_key.clusters, clusters))
            continue
        else:
            same_text = key_doc.words_text is not None and key_doc.words_text == response_doc.words_text
            if not same_text and key_doc.words != response_doc.words and _columns(key_doc.words) != _columns(response_doc.words):
                key_words, response_words = _columns(key_doc.words), _columns(response_doc.words)
                where = _difference(key_words, response_words, "word", " ", 6)
                raise _mismatch(key.path, response.path, index, name, f"different words: {where}")
            clusters = response_doc.clusters
        pairs.append((name, key_doc.clusters, clusters))
    return Loaded(pairs, words, notes + warnings + unmapped_warnings(unmapped), response_names, renumbered=renumbered)


def _corefud_pair(key: SideDocument, response: SideDocument) -> Tuple[SideDocument, Clusters]:
    """Two CoNLL-U documents with the same words (:func:`~.conllu.check_aligned`):
    the key document and the response's clusters, both numbered on the
    union of their nodes when their empty nodes differ."""
    from .conllu.nodes import empty_keys, node_clusters, node_order
    from .conllu.read import check_aligned

    check_aligned(key.corefud, response.corefud)
    if np.array_equal(empty_keys(key.corefud), empty_keys(response.corefud)):
        return key, response.clusters
    order = node_order(key.corefud, empty_keys(response.corefud))
    return _conllu_document(key.corefud, order, response.corefud), node_clusters(response.corefud, order)


def _aligned(key: Side, response: Side, index: int, name: str, key_record: Any, response_record: Any) -> Tuple[Clusters, int]:
    """The response's clusters on the key doc's tokens (two ``.spacy``
    docs; see :func:`~.alignment.align_clusters`), and how many spans could
    not be mapped."""
    from .alignment import align_clusters

    if key_record.same_tokens(response_record):
        return response_record.clusters, 0
    if _visible(key_record.text) != _visible(response_record.text):
        where = _difference(key_record.text, response_record.text, "character", "", 30)
        raise _mismatch(key.path, response.path, index, name, f"different text: {where}")
    return align_clusters(
        name, response_record.clusters,
        (key_record.text, key_record.token_offsets()), (response_record.text, response_record.token_offsets()),
    )


def _pair_sides(
    key: Side, response: Side
) -> Tuple[List[Tuple[int, str, SideDocument, Optional[SideDocument]]], List[str], List[str]]:
    """``(key index, name, key document, response document or None)``,
    warnings and the response's document names: by name when both sides
    are named, by order when neither is."""
    if key.named and response.named:
        by_name = {document.name: document for document in response.documents}
        pairs, warnings = pair_documents({d.name: d for d in key.documents}, by_name, None)
        return [(index, name, k, r) for index, (name, k, r) in enumerate(pairs)], warnings, list(by_name)
    if key.spacy and response.spacy and (key.named or response.named):
        named, unnamed = (key, response) if key.named else (response, key)
        raise CorefInputError(
            f"cannot pair {key.path} with {response.path}: the documents of {named.path} are named but those of "
            f"{unnamed.path} are not (store names with 'spacy-coref-eval convert', which keeps each "
            "document's name in doc.user_data['coref_doc_name'])"
        )
    if len(key.documents) != len(response.documents):
        raise CorefInputError(
            f"cannot pair {key.path} ({len(key.documents)} documents) with {response.path} "
            f"({len(response.documents)} documents): documents without stored names are paired by order"
        )
    names = [d.name if key.named else f"doc{index}" for index, d in enumerate(key.documents)]
    return [(i, name, k, r) for i, (name, k, r) in enumerate(zip(names, key.documents, response.documents))], [], names


def _group_notes(side: Side, reader: Optional["ClusterReader"], role: str) -> List[str]:
    """A ``.spacy`` side none of whose docs holds a span group its reader
    reads: an error for the key, a warning for the response."""
    from .docbin.spans import PrefixedSpanGroups, missing_groups

    missing = missing_groups(reader or PrefixedSpanGroups(), side.groups) if side.spacy and side.documents else None
    if missing is None:
        return []
    message = (
        f"{side.path}: no coreference span group in any doc ({missing}); "
        f"choose the span groups with --spans or --{role}-spans"
    )
    if role == "key":
        raise CorefInputError(message)
    return [message + "; every response entity is missing"]


def length_warnings(pairs: Sequence[Tuple[str, SideDocument, Optional[SideDocument]]]) -> List[str]:
    """One warning listing the documents whose key and response have
    different numbers of tokens (mentions are compared by token position,
    so such a response is likely misaligned)."""
    differing = [
        f"{name} ({key.n_tokens} vs {response.n_tokens})"
        for name, key, response in pairs
        if response is not None and key.n_tokens != response.n_tokens
    ]
    if not differing:
        return []
    listed = ", ".join(differing[:10]) + (", ..." if len(differing) > 10 else "")
    return [
        f"{len(differing)} document(s) have different numbers of tokens in the key and the response; "
        f"mentions are compared by token position, so check the files are aligned: {listed}"
    ]


def _columns(words: Sequence[str]) -> List[str]:
    """Words as ``export`` writes them to a CoNLL column."""
    return [conll_column(word) for word in words]


def _visible(text: str) -> str:
    return "".join(text.split())


def _mismatch(key_path: PathLike, response_path: PathLike, index: int, name: str, detail: str) -> CorefInputError:
    return CorefInputError(f"cannot pair {key_path} with {response_path}: document index {index} ({name!r}) has {detail}")


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


def pair_documents(key: Mapping[str, T], response: Mapping[str, T], empty: T) -> Tuple[List[Tuple[str, T, T]], List[str]]:
    """``(name, key, response)`` triples for the key documents, in key order,
    with ``empty`` standing in for a missing response, and warnings."""
    pairs = [(name, value, response.get(name, empty)) for name, value in key.items()]
    missing = [name for name in key if name not in response]
    extra = [name for name in response if name not in key]
    notes = [f"document {name!r}: no response document; scored as an empty response" for name in missing[:LISTED]]
    if len(missing) > LISTED:
        notes.append(
            f"{len(missing) - LISTED} more key document(s) with no response document, scored as empty "
            f"responses: {listed(missing[LISTED:])}"
        )
    if extra:
        notes.append(f"{len(extra)} response document(s) not in the key, ignored: {listed(extra)}")
    return pairs, notes


def pair_clusters(key: Mapping[str, ClustersLike], response: Mapping[str, ClustersLike]) -> Tuple[List[Pair], List[str]]:
    """:func:`pair_documents` of clusters, an empty response standing in."""
    return pair_documents(key, response, Clusters())
