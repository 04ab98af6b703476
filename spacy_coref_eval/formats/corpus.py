"""Key and response read and paired, document by document (docs/formats.md,
Pairing): by name where both sides name their documents, else by order;
each pair's response put on its key document's tokens by the key
document's format (:meth:`~.document.SideDocument.paired_with`)."""

import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, NamedTuple, Optional, Protocol, TypeVar, cast

import numpy as np

from ..errors import LISTED, CorefInputError, listed
from ..files import PathLike
from ..model.clusters import Clusters, ClustersBatch, ClustersLike, Pair
from ..model.tokens import Tokens
from .base import Format, ReadOptions
from .document import PART_NAME, AlignmentReport, Side, SideDocument, WordMismatch
from .inputs import InputLimits, input_head
from .registry import FALLBACK, format_of, registered_formats

T = TypeVar("T")
PAIR_BY = (None, "name", "order")
"""How documents pair: by name where both sides name them, else by order
(``None``); or always by name or by order."""
_PART_NUMBER = re.compile(r"part\s+0*(\d+)")


@dataclass(frozen=True)
class Corpus:
    """Paired documents: every pair's clusters and token count
    (:class:`~spacy_coref_eval.model.clusters.Pair`), its key document
    (``key_documents[i]`` for ``pairs[i]``; renumbered where its format
    pairs so), the warnings of reading and pairing, and the names of the
    response's documents, paired or not."""

    pairs: list[Pair]
    """The pairs (:class:`StackedPairs` where both sides were read as
    columns: docs/formats.md, Columns)."""
    key_documents: list[SideDocument]
    warnings: list[str]
    response_names: list[str]
    alignment: dict[str, AlignmentReport] = field(default_factory=dict)
    """By pair name, what aligning the response onto the key changed, for
    the pairs whose format aligns (:class:`~.document.AlignmentReport`)."""
    streamed: bool = False
    """Read and scored a batch at a time (docs/streaming.md): ``pairs``
    and ``key_documents`` are then empty."""
    closure: dict[str, dict[str, Any]] = field(default_factory=dict)
    """By side (``"key"``, ``"response"``), what closing an annotation
    tool's links into entities did (:class:`~.annotation.Closure`), for
    the sides read from such exports."""

    @property
    def names(self) -> list[str]:
        return [pair.name for pair in self.pairs]

    def words(self) -> dict[str, list[str]]:
        """The words of every pair's key document, by pair name."""
        return {pair.name: list(document.words) for pair, document in zip(self.pairs, self.key_documents)}

    def tokens(self) -> list[Tokens]:
        """The token information of every pair's key document, in pair order."""
        return [document.tokens() for document in self.key_documents]


def read_side(path: PathLike, fmt: Optional[Format] = None, options: ReadOptions = ReadOptions()) -> Side:
    """The documents of one input in its format (default: :func:`format_of`
    its name). Input that does not fit its format raises
    :class:`CorefInputError` naming the format tried."""
    path = Path(path)
    fmt = fmt or format_of(path)
    try:
        return fmt.read(path, options)
    except CorefInputError as err:
        if fmt.name == FALLBACK and "outside a '#begin document' block" in str(err):
            names = "|".join(other.name for other in registered_formats(plugins=False))
            if _looks_tagged(path):
                raise CorefInputError(
                    f"{err} (read as {fmt.title}); the file looks like CRAC 2025 LLM-track tagged text "
                    "('word|[e1]'): name it *.t2t.txt or give its format, --response-format text2text "
                    "(convert: --input-format text2text)"
                ) from None
            raise CorefInputError(f"{err} (read as {fmt.title}; for another format use its suffix or --input-format {names})") from None
        raise


_TAGGED = re.compile(rb"\S\|\[[A-Za-z]*\d+[^\s\]]*\]|\S\|[A-Za-z]*\d+\]")
"""A text2text token with a tag: ``word|[e1]``, ``word|[e1`` ... ``word|e1]``."""


def _looks_tagged(path: Path) -> bool:
    """Whether the first 64 KiB of ``path`` (gunzipped) hold text2text tags."""
    return _TAGGED.search(input_head(path, 1 << 16)) is not None


def read_corpus(
    key_path: PathLike,
    response_path: PathLike,
    formats: tuple[Optional[str], Optional[str]] = (None, None),
    *,
    spans: tuple[Any, Any] = (None, None),
    words: bool = False,
    tokens: bool = False,
    pair_by: Optional[str] = None,
    cross_document: bool = False,
    topic_pattern: Optional[str] = None,
    limits: Optional[InputLimits] = None,
) -> Corpus:
    """Both sides read (``formats`` may name their formats, else taken from
    the file names; ``spans`` are the cluster readers of spaCy docs) and
    paired. ``words`` and ``tokens`` read what the analyses need of the key
    (its words for the report, its token attributes for resolution
    classes). Two files of formats that pair by position (CoNLL-2012) are
    paired without comparing words, as the reference scorer pairs them,
    with a warning where token counts differ. ``cross_document`` reads
    entity ids as shared across documents and pairs topic by topic
    (:func:`pair_topic_sides`, by ``topic_pattern``; default the
    whole corpus as one document). ``limits`` bound what is read
    (:class:`~.inputs.InputLimits`, default from the environment)."""
    limits = InputLimits.from_environ() if limits is None else limits
    key_format, response_format = format_of(key_path, formats[0]), format_of(response_path, formats[1])
    positional = key_format.positional and response_format.positional
    key_options = ReadOptions("key", spans[0], words or tokens or not positional, tokens, entity_ids=cross_document or words, limits=limits)
    key = read_side(key_path, key_format, key_options)
    response = read_side(
        response_path,
        response_format,
        ReadOptions("response", spans[1], not positional, False, paired_with=key, entity_ids=cross_document, limits=limits),
    )
    if not key.documents:
        raise CorefInputError(f"{key_path}: no {key.format.documents}, nothing to score against")
    if cross_document:
        return pair_topic_sides(key, response, pattern=topic_pattern, pair_by=pair_by)
    return pair_sides(key, response, positional, pair_by=pair_by)


def pair_sides(key: Side, response: Side, positional: bool = False, *, pair_by: Optional[str] = None) -> Corpus:
    """The documents of two sides paired (see the module docstring; by name
    or by order as ``pair_by`` says); with ``positional`` by token position
    alone."""
    notes = list(dict.fromkeys(key.warnings + response.warnings))
    stacked = _pair_columns(key, response, pair_by) if positional else None
    if stacked is not None:
        response_names = list(response.documents.names)  # type: ignore[attr-defined]
        return Corpus(stacked, key.documents, notes + length_warnings(stacked.lengths()), response_names, alignment={})  # type: ignore[arg-type]
    triples, warnings, response_names = pair_by_name_or_order(key, response, pair_by)
    how = "name" if pair_by != "order" and key.named and response.named else "order"
    paired = pair_triples(triples, key.path, response.path, positional=positional, how=how)
    return Corpus(
        paired.pairs,
        paired.key_documents,
        notes + warnings + paired.warnings(),
        response_names,
        alignment=paired.alignment,
        closure=side_closures(key, response),
    )


def side_closures(key: Side, response: Side) -> dict[str, dict[str, Any]]:
    """The closure reports of the sides read from annotation tools' exports, by role."""
    out: dict[str, dict[str, Any]] = {}
    for role, side in (("key", key), ("response", response)):
        if side.documents and getattr(side.documents[0], "closure", None) is not None:
            from .annotation import closure_report

            # not None: the first document has a closure
            out[role] = cast(dict[str, Any], closure_report(side.documents))
    return out


def pair_topic_sides(key: Side, response: Side, *, pattern: Optional[str] = None, pair_by: Optional[str] = None) -> "Corpus":
    """Two sides read with their entity ids paired document by document
    (as :func:`pair_sides` pairs them) and then topic by topic
    (:func:`~.topics.pair_topics`): a :class:`Corpus` of one pair per topic."""
    from .topics import pair_topics

    triples, warnings, response_names = pair_by_name_or_order(key, response, pair_by)
    pairs, documents = pair_topics(triples, pattern, (key, response))
    notes = list(dict.fromkeys(key.warnings + response.warnings))
    return Corpus(pairs, list(documents), notes + warnings + length_warnings(triples), response_names)


class StackedPairs(Sequence[Pair]):
    """Documents paired one to one, in order, whose key and response were
    read as columns (:class:`~..model.clusters.ClustersBatch`; docs/formats.md,
    Columns): scoring twins them at once without splitting them into
    documents; a :class:`Pair` is built for whoever asks for one."""

    def __init__(
        self, names: list[str], key: ClustersBatch, response: ClustersBatch, *, key_tokens: np.ndarray, response_tokens: np.ndarray
    ) -> None:
        self.names = names
        self.key, self.response = key, response
        self.n_tokens, self.response_tokens = key_tokens, response_tokens
        self._pairs: Optional[list[Pair]] = None

    def pairs(self) -> list[Pair]:
        if self._pairs is None:
            self._pairs = [Pair(*pair) for pair in zip(self.names, self.key.split(), self.response.split(), self.n_tokens.tolist())]
        return self._pairs

    def __len__(self) -> int:
        return len(self.names)

    def __getitem__(self, index):  # type: ignore[override]
        return self.pairs()[index]

    def __iter__(self) -> Iterator[Pair]:
        return iter(self.pairs())

    def repeated(self) -> list[Pair]:
        """The pairs with a repeated mention on either side."""
        return [self[d] for d in np.flatnonzero(self.key.repeated + self.response.repeated).tolist()]

    def lengths(self) -> list[tuple[str, "_Length", "_Length"]]:
        """The pairs whose key and response have different numbers of
        tokens, as :func:`length_warnings` reads them."""
        return [
            (self.names[d], _Length(int(self.n_tokens[d])), _Length(int(self.response_tokens[d])))
            for d in np.flatnonzero(self.n_tokens != self.response_tokens).tolist()
        ]


def repeated_pairs(pairs: Sequence[Pair]) -> list[Pair]:
    """The pairs with a repeated mention on either side (of
    :class:`StackedPairs`, found from its columns)."""
    if isinstance(pairs, StackedPairs):
        return pairs.repeated()
    return [pair for pair in pairs if cast(Clusters, pair.key).repeated or cast(Clusters, pair.response).repeated]


def pair_columns(triples: Sequence[tuple[str, Any, Any]], key: Side, response: Side, *, positional: bool) -> Optional["PairedDocuments"]:
    """The documents of two sides read as columns paired by position,
    document ``i`` of each under the name of ``triples[i]`` (``(name, key,
    response)``, none without a response), as :func:`pair_triples` pairs
    them; else ``None``."""
    columns = _columns(key, response)
    if not positional or columns is None or any(r is None for _, _, r in triples):
        return None
    key_columns, response_columns = columns
    names = [name for name, _, _ in triples]
    if not (len(names) == len(key_columns.names) == len(response_columns.names)):
        return None
    pairs = StackedPairs(
        names, key_columns.clusters, response_columns.clusters, key_tokens=key_columns.n_tokens, response_tokens=response_columns.n_tokens
    )
    return PairedDocuments(pairs, key.documents, True, pairs.lengths())  # type: ignore[arg-type]


def _pair_columns(key: Side, response: Side, pair_by: Optional[str]) -> Optional[StackedPairs]:
    """Two sides read as columns paired as :func:`pair_sides` pairs them
    by position, where every key document has a response document of the
    same name (the response's documents reordered to the key's where
    their order differs) or pairs by order; else ``None``."""
    columns = _columns(key, response)
    if columns is None or pair_by not in PAIR_BY:
        return None
    key_columns, response_columns = columns
    names, response_clusters, response_tokens = key_columns.names, response_columns.clusters, response_columns.n_tokens
    if not names or len(names) != len(response_columns.names):
        return None
    if names != response_columns.names:
        if pair_by == "order" or set(names) != set(response_columns.names):
            return None
        place = {name: index for index, name in enumerate(response_columns.names)}
        ids = np.array([place[name] for name in names], dtype=np.int64)
        response_clusters, response_tokens = response_clusters.take(ids), response_tokens[ids]
    if pair_by != "order" and any(map(_NUMBERED_KEY.search, names)):
        return None
    return StackedPairs(names, key_columns.clusters, response_clusters, key_tokens=key_columns.n_tokens, response_tokens=response_tokens)


def _columns(key: Side, response: Side) -> Optional[tuple[Any, Any]]:
    """The columns both sides were read as (``documents.simple``), else ``None``."""
    key_columns, response_columns = (getattr(side.documents, "simple", None) for side in (key, response))
    return None if key_columns is None or response_columns is None else (key_columns, response_columns)


@dataclass
class PairedDocuments:
    """Documents paired by :func:`pair_triples`: the pairs, their key
    documents, and what the closing warnings are made of (token counts of
    positional pairs, unmapped response mentions and alignments by name).
    Those of consecutive batches :meth:`extend` one another."""

    pairs: list[Pair] = field(default_factory=list)
    key_documents: list[SideDocument] = field(default_factory=list)
    positional: bool = False
    lengths: list[tuple[str, "_Length", "_Length"]] = field(default_factory=list)
    unmapped: dict[str, int] = field(default_factory=dict)
    alignment: dict[str, AlignmentReport] = field(default_factory=dict)

    def extend(self, other: "PairedDocuments") -> None:
        self.pairs += other.pairs
        self.key_documents += other.key_documents
        self.lengths += other.lengths
        self.unmapped.update(other.unmapped)
        self.alignment.update(other.alignment)

    def repeated(self) -> list[Pair]:
        """The pairs with a repeated mention on either side."""
        return repeated_pairs(self.pairs)

    def warnings(self) -> list[str]:
        """Token counts that differ (positional pairs), response mentions
        left unmapped, alignments that changed words."""
        lengths = length_warnings(self.lengths) if self.positional else []
        if not (self.unmapped or self.alignment):
            return lengths
        from .alignment import alignment_warning, unmapped_warnings

        return lengths + unmapped_warnings(self.unmapped) + alignment_warning(self.alignment)


class _Length(NamedTuple):
    n_tokens: int


def pair_triples(
    triples: Sequence[tuple[str, SideDocument, Optional[SideDocument]]],
    key_path: Path,
    response_path: Path,
    *,
    positional: bool = False,
    first: int = 0,
    how: str = "order",
) -> PairedDocuments:
    """Every ``(name, key document, response document or None)`` paired: by
    token position with ``positional``, else the response put on the key
    document's tokens (``first``: the index of the first triple in the
    corpus, for messages; ``how``: paired by ``"name"`` or by ``"order"``,
    for the alignment report)."""
    paired = PairedDocuments(positional=positional)
    for index, (name, key_doc, response_doc) in enumerate(triples, first):
        clusters = Clusters()
        if response_doc is not None and positional:
            clusters = response_doc.clusters
            paired.lengths.append((name, _Length(key_doc.n_tokens), _Length(response_doc.n_tokens)))
        elif response_doc is not None:
            try:
                on_key = key_doc.paired_with(response_doc)
            except WordMismatch as err:
                raise CorefInputError(f"cannot pair {key_path} with {response_path}: document index {index} ({name!r}) has {err}") from None
            key_doc, clusters = on_key.key, on_key.response
            if on_key.unmapped:
                paired.unmapped[name] = on_key.unmapped
            if on_key.alignment is not None:
                paired.alignment[name] = replace(on_key.alignment, paired=how)
        paired.pairs.append(Pair(name, key_doc.clusters, clusters, key_doc.n_tokens))
        paired.key_documents.append(key_doc)
    return paired


def pair_by_name_or_order(
    key: Side, response: Side, pair_by: Optional[str] = None
) -> tuple[list[tuple[str, SideDocument, Optional[SideDocument]]], list[str], list[str]]:
    """``(name, key document, response document or None)`` in key order,
    warnings and the response's document names. ``pair_by`` ``"name"``
    pairs by name (:func:`match_names`), ``"order"`` by order; by default
    by name when both sides name their documents, else by order (with a
    warning when one side names them: predictions saved from ``nlp.pipe``
    carry no names)."""
    if pair_by not in PAIR_BY:
        raise ValueError(f"documents pair by {' or '.join(p for p in PAIR_BY if p)}, not {pair_by!r}")
    if key.documents and not response.documents:
        raise CorefInputError(f"{response.path}: no {response.format.documents}, nothing to score")
    if pair_by == "name" and not (key.named and response.named):
        unnamed = key if not key.named else response
        raise CorefInputError(f"cannot pair by name: the documents of {unnamed.path} have no stored names")
    if pair_by != "order" and key.named and response.named:
        return _pair_by_name(key, response)
    if len(key.documents) != len(response.documents):
        raise CorefInputError(
            f"cannot pair {key.path} ({len(key.documents)} documents) with {response.path} "
            f"({len(response.documents)} documents): documents without stored names are paired by order"
        )
    notes = []
    if pair_by is None and key.named != response.named:
        unnamed = key if not key.named else response
        notes.append(f"{unnamed.path}: the documents have no stored names, so they are paired by order")
    names = [cast(str, d.name) if key.named else f"doc{index}" for index, d in enumerate(key.documents)]
    return list(zip(names, key.documents, response.documents)), notes, names


def _pair_by_name(key: Side, response: Side) -> tuple[list[tuple[str, SideDocument, Optional[SideDocument]]], list[str], list[str]]:
    # both sides named (pair_by_name_or_order): no name is None
    key_names = [cast(str, d.name) for d in key.documents]
    response_names = [cast(str, d.name) for d in response.documents]
    if key_names == response_names and len(set(key_names)) == len(key_names) and not any(map(_NUMBERED_KEY.search, key_names)):
        return list(zip(key_names, key.documents, response.documents)), [], key_names
    matched = match_names(key_names, response_names)
    renamed = {other: name for name, other in matched.items()}
    by_name = {renamed.get(name, name): d for name, d in zip(response_names, response.documents)}
    if key.documents and not matched:
        raise CorefInputError(
            f"cannot pair {key.path} with {response.path}: no document name is in both "
            f"(the key has {listed(key_names, 3)}; "
            f"the response {listed(list(by_name), 3)}){_hint(key.documents, list(by_name))}"
        )
    paired, warnings = pair_documents(dict(zip(key_names, key.documents)), by_name, None)
    triples = cast(list[tuple[str, SideDocument, Optional[SideDocument]]], paired)  # key documents are never None
    return triples, warnings + _name_hints(key.documents, by_name), list(by_name)


def loose_name(name: str) -> str:
    """A document name with its white space collapsed and the leading zeros
    of a part number dropped, for hints about names that differ only so."""
    return _PART_NUMBER.sub(lambda match: f"part {int(match.group(1))}", " ".join(name.split()))


def _hint(key: Sequence[SideDocument], response_names: Sequence[str]) -> str:
    """``"; did you mean ..."`` for the first key name a response name
    matches when written loosely (:func:`loose_name`), else nothing."""
    loose = {loose_name(name): name for name in response_names}
    for document in key:
        other = loose.get(loose_name(cast(str, document.name)))  # key documents paired by name are named
        if other is not None:
            return f"; did you mean to pair {document.name!r} with {other!r}? Names must match exactly"
    return ""


def _name_hints(key: Sequence[SideDocument], by_name: Mapping[str, SideDocument]) -> list[str]:
    """A hint when key documents without a response have namesakes that
    differ only in white space or a part number's zeros."""
    unpaired = [document for document in key if document.name not in by_name]
    if not unpaired:
        return []
    key_names = {d.name for d in key}
    hint = _hint(unpaired, [name for name in by_name if name not in key_names])
    return [f"some document names differ only in formatting{hint}"] if hint else []


def match_names(key_names: Sequence[str], response_names: Sequence[str]) -> dict[str, str]:
    """For every key name, the response name it pairs with (names without a
    partner left out): the same name, or under the OntoNotes convention of
    neural models' jsonlines the doc_key ``NAME_N`` for the CoNLL-2012
    document ``(NAME); part NNN`` (N = int(NNN)). A response name claimed
    by two key names, or a key name matching two response names, is an
    error. Where no name is in both, ``(NAME); part 000`` pairs with
    ``NAME`` (either side's)."""
    available = set(response_names)
    if not any(map(_NUMBERED_KEY.search, available)):
        exact = {name: name for name in key_names if name in available}
        if exact:
            return exact
        if not any(PART_NAME.match(name) for name in key_names):
            bare = {document_keys(name)[-1]: name for name in response_names if PART_NAME.match(name)}
            return {name: bare[name] for name in key_names if name in bare}
    out: dict[str, str] = {}
    claimed: dict[str, str] = {}
    for name in key_names:
        matches = [other for other in document_keys(name) if other in available]
        if len(matches) > 1:
            raise CorefInputError(f"document {name!r} matches two response documents: {matches[0]!r} and {matches[1]!r}")
        if not matches:
            continue
        if matches[0] in claimed:
            raise CorefInputError(f"response document {matches[0]!r} pairs with two key documents: {claimed[matches[0]]!r} and {name!r}")
        claimed[matches[0]] = name
        out[name] = matches[0]
    return out


_NUMBERED_KEY = re.compile(r"_[0-9]+$")
"""A name that could be the doc_key ``NAME_N`` of a CoNLL-2012 part."""


def document_keys(name: str) -> tuple[str, ...]:
    """The names a document name pairs with: the name itself, and for
    ``(NAME); part NNN`` also ``NAME_N`` with N = int(NNN), and ``NAME``
    alone for part 0 (a file named by its document, as annotation tools
    export them)."""
    match = PART_NAME.match(name)
    if match is None:
        return (name,)
    bare = (match.group(1),) if int(match.group(2)) == 0 else ()
    return (name, f"{match.group(1)}_{int(match.group(2))}", *bare)


def pair_documents(key: Mapping[str, T], response: Mapping[str, T], empty: T) -> tuple[list[tuple[str, T, T]], list[str]]:
    """``(name, key, response)`` triples for the key documents, in key order,
    with ``empty`` standing in for a missing response, and warnings."""
    pairs = [(name, value, response.get(name, empty)) for name, value in key.items()]
    missing = [name for name in key if name not in response]
    extra = [name for name in response if name not in key]
    notes = [f"document {name!r}: no response document; scored as an empty response" for name in missing[:LISTED]]
    if len(missing) > LISTED:
        notes.append(
            f"{len(missing) - LISTED} more key document(s) with no response document, scored as empty responses: {listed(missing[LISTED:])}"
        )
    if extra:
        notes.append(f"{len(extra)} response document(s) not in the key, ignored: {listed(extra)}")
    return pairs, notes


def pair_clusters(key: Mapping[str, ClustersLike], response: Mapping[str, ClustersLike]) -> tuple[list[Pair], list[str]]:
    """:func:`pair_documents` of clusters, an empty response standing in."""
    triples, notes = pair_documents(key, response, Clusters())
    return [Pair(*triple) for triple in triples], notes


class _Counted(Protocol):
    @property
    def n_tokens(self) -> int: ...


def length_warnings(pairs: Sequence[tuple[str, _Counted, Optional[_Counted]]]) -> list[str]:
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
    shown = ", ".join(differing[:10]) + (", ..." if len(differing) > 10 else "")
    return [
        f"{len(differing)} document(s) have different numbers of tokens in the key and the response; "
        f"mentions are compared by token position, so check the files are aligned: {shown}"
    ]
