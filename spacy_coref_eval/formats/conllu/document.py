"""The model of a CorefUD CoNLL-U file: documents whose mentions are stored
column-wise, empty nodes, node identities across files (:func:`node_key`),
and the check that a key and a response hold the same sentences
(docs/formats.md, CorefUD CoNLL-U)."""

from dataclasses import KW_ONLY, dataclass, field
from typing import Callable, NamedTuple, Optional

import numpy as np

from ...errors import CorefInputError

MINOR_BITS = 16
MAJOR_BITS = 24


def node_key(sentence: int, major: int, minor: int = 0) -> int:
    """A node's identity within a document, comparable between files with the
    same sentences: sentence index, then the integer part of the CoNLL-U ID,
    then its decimal part (0 for a word). Keys sort in document order."""
    return (sentence << (MAJOR_BITS + MINOR_BITS)) | (major << MINOR_BITS) | minor


class Mention(NamedTuple):
    """One mention as a set of nodes.

    ``words`` are sorted document word positions (empty nodes excluded) and
    ``empty`` sorted indices into :attr:`CorefUDDocument.empty_nodes`. The
    head is word ``head``, or empty node ``head`` when ``zero``.
    ``contiguous`` means a single subspan: the words are a range, whatever
    empty nodes lie inside it."""

    eid: str
    etype: Optional[str]
    words: tuple[int, ...]
    empty: tuple[int, ...]
    head: int
    zero: bool
    contiguous: bool
    line: int


@dataclass(frozen=True)
class EmptyNode:
    """An empty node (ID ``major.minor``): sentence index, ID, the number of
    document words before it, its identity (:func:`node_key`), form, and
    enhanced dependencies as ``(node_key of the parent, relation)``."""

    sentence: int
    id: str
    after: int
    key: int
    form: str
    deps: tuple[tuple[int, str], ...]
    line: int


@dataclass
class CorefUDDocument:
    """One document of a CoNLL-U file.

    Words: ``words`` (forms) and their ``upos``, ``xpos`` and ``feats``
    columns as written (these three decoded on first use); ``sentence_starts[s]`` is the first word of sentence
    ``s`` (one extra entry: the number of words), ``sentence_ids[s]`` its
    ``# sent_id`` (None without one) and ``sentence_lines[s]`` the line of its
    first token line; ``word_ords[w]`` is the integer ID of word ``w``.

    Mentions, in order of opening (document order of their first node; at
    one node, as the chunks are written), column-wise: ``mention_entity``
    (index into ``entities``, the entity ids in order of first opening),
    ``mention_start``/``mention_end`` (first word and one past the last; for
    a mention of empty nodes only, both are the position of the first
    one's ``after``), ``mention_head``, ``mention_zero`` (head is an empty
    node: ``mention_head`` indexes ``empty_nodes``), ``mention_contiguous``,
    ``mention_line`` and ``mention_etype``. ``mention_words`` holds the word
    sets of discontinuous mentions and ``mention_empty`` the empty-node sets
    of mentions that cover empty nodes, by mention index.
    ``split_antecedents`` holds the ``SplitAnte=`` links as written.
    """

    name: str
    source: str
    _: KW_ONLY
    line: int
    words: list[str]
    token_columns: "TokenColumns"
    sentence_starts: np.ndarray
    sentence_ids: list[Optional[str]]
    sentence_lines: list[int]
    word_ords: np.ndarray
    empty_nodes: tuple[EmptyNode, ...]
    entities: tuple[str, ...]
    mention_entity: np.ndarray
    mention_start: np.ndarray
    mention_end: np.ndarray
    mention_head: np.ndarray
    mention_zero: np.ndarray
    mention_contiguous: np.ndarray
    mention_line: np.ndarray
    mention_etype: list[Optional[str]]
    mention_words: dict[int, tuple[int, ...]] = field(default_factory=dict)
    mention_empty: dict[int, tuple[int, ...]] = field(default_factory=dict)
    split_antecedents: tuple[tuple[str, str, int], ...] = ()
    """``SplitAnte=`` links as ``(antecedent eid, plural eid, line)``: the
    plural entity's split antecedents (docs/corefud.md §2)."""

    @property
    def upos(self) -> list[str]:
        """The UPOS column of every word (read on first use)."""
        return self.token_columns.get(3)

    @property
    def xpos(self) -> list[str]:
        return self.token_columns.get(4)

    @property
    def feats(self) -> list[str]:
        return self.token_columns.get(5)

    @property
    def n_words(self) -> int:
        return len(self.words)

    @property
    def n_sentences(self) -> int:
        return len(self.sentence_ids)

    def __len__(self) -> int:
        return len(self.mention_entity)

    def word_sentences(self) -> np.ndarray:
        """The sentence index of every word."""
        return np.repeat(np.arange(self.n_sentences, dtype=np.int64), np.diff(self.sentence_starts))

    def word_keys(self) -> np.ndarray:
        """:func:`node_key` of every word."""
        sentences = self.word_sentences()
        return (sentences << (MAJOR_BITS + MINOR_BITS)) | (self.word_ords << MINOR_BITS)

    def words_of(self, m: int) -> tuple[int, ...]:
        """The sorted word positions of mention ``m``."""
        words = self.mention_words.get(m)
        if words is None:
            return tuple(range(int(self.mention_start[m]), int(self.mention_end[m])))
        return words

    def node_keys_of(self, m: int, word_keys: Optional[np.ndarray] = None) -> tuple[int, ...]:
        """The sorted :func:`node_key` of every node (words and empty nodes)
        of mention ``m``: the CorefUD scorer's identity of a mention."""
        keys = self.word_keys() if word_keys is None else word_keys
        nodes = [int(keys[w]) for w in self.words_of(m)]
        nodes += [self.empty_nodes[e].key for e in self.mention_empty.get(m, ())]
        return tuple(sorted(nodes))

    def head_key_of(self, m: int, word_keys: Optional[np.ndarray] = None) -> int:
        """:func:`node_key` of the head of mention ``m``."""
        if self.mention_zero[m]:
            return self.empty_nodes[int(self.mention_head[m])].key
        keys = self.word_keys() if word_keys is None else word_keys
        return int(keys[int(self.mention_head[m])])

    def mentions(self) -> list[Mention]:
        """Every mention as a :class:`Mention`, in stored order."""
        return [
            Mention(
                self.entities[int(self.mention_entity[m])],
                self.mention_etype[m],
                self.words_of(m),
                self.mention_empty.get(m, ()),
                int(self.mention_head[m]),
                bool(self.mention_zero[m]),
                bool(self.mention_contiguous[m]),
                int(self.mention_line[m]),
            )
            for m in range(len(self))
        ]


@dataclass
class ConlluFile:
    """The documents of one file, by name in file order, and how many
    ``Bridge=`` and ``SplitAnte=`` annotations were read past."""

    source: str
    documents: dict[str, CorefUDDocument]
    bridges: int = 0
    split_antecedents: int = 0

    def warnings(self) -> list[str]:
        if not (self.bridges or self.split_antecedents):
            return []
        return [
            f"{self.source}: {self.bridges} Bridge= and {self.split_antecedents} SplitAnte= "
            "annotation(s) read past: only identity coreference (Entity=) is scored (SplitAnte= also under "
            "--preset ua, as the UA scorer scores ElementOf=)"
        ]


def check_aligned(key: CorefUDDocument, response: CorefUDDocument) -> None:
    """Raise :class:`CorefInputError` unless the two documents have the same
    sentences with the same words (empty nodes are not compared, as in the
    CorefUD scorer 1.2). Sentence ids do not change a score: they are
    compared, where both files give them, only to name the first sentence
    that differs (a file converted through a format without sentence ids
    has new ones). The message names the response file, document and the
    first sentence that differs."""
    same_words = key.words == response.words
    same_sentences = np.array_equal(key.sentence_starts, response.sentence_starts)
    if same_words and same_sentences:
        return
    for s in range(min(key.n_sentences, response.n_sentences)):
        detail = _sentence_difference(key, response, s)
        if detail and _empty_nodes_as_words(key, response, s):
            detail += (
                " (the response has a word for each of the key's empty nodes here, as a file converted "
                "through another format has: convert wrote them as words)"
            )
        if detail:
            raise CorefInputError(
                f"{response.source}:{response.sentence_lines[s]}: document {response.name!r}, "
                f"sentence {s + 1}{_sent_id(response, s)}: {detail} (key: {key.source}:{key.sentence_lines[s]})"
            )
    raise CorefInputError(
        f"{response.source}: document {response.name!r} has {response.n_sentences} sentence(s), "
        f"the key {key.source} has {key.n_sentences}; the first "
        f"{'extra' if response.n_sentences > key.n_sentences else 'missing'} one is sentence "
        f"{min(key.n_sentences, response.n_sentences) + 1}"
    )


def _empty_nodes_as_words(key: CorefUDDocument, response: CorefUDDocument, s: int) -> bool:
    """Whether sentence ``s`` of ``response`` has as many words as the key's
    sentence has words and empty nodes, and no empty node of its own."""
    empty = sum(1 for node in key.empty_nodes if node.sentence == s)
    k_words = key.sentence_starts[s + 1] - key.sentence_starts[s]
    r_words = response.sentence_starts[s + 1] - response.sentence_starts[s]
    return bool(empty) and r_words == k_words + empty and not any(n.sentence == s for n in response.empty_nodes)


def _sent_id(document: CorefUDDocument, s: int) -> str:
    ident = document.sentence_ids[s]
    return f" (sent_id {ident})" if ident is not None else ""


def _sentence_difference(key: CorefUDDocument, response: CorefUDDocument, s: int) -> str:
    k_words = key.words[key.sentence_starts[s] : key.sentence_starts[s + 1]]
    r_words = response.words[response.sentence_starts[s] : response.sentence_starts[s + 1]]
    for i, (k, r) in enumerate(zip(k_words, r_words)):
        if k != r:
            return f"word {i + 1} is {r!r}, the key's is {k!r}"
    if len(k_words) != len(r_words):
        return f"{len(r_words)} word(s), the key's has {len(k_words)}"
    return ""


class TokenColumns:
    """Columns of a document's words, read from the file on first use by
    ``read(k)`` (field ``k`` of every word)."""

    def __init__(self, read: Optional[Callable[[int], list[str]]]) -> None:
        self.read = read
        self.cache: dict[int, list[str]] = {}

    def get(self, column: int) -> list[str]:
        """Field ``column`` of every word (``[]`` without a file)."""
        if column not in self.cache:
            self.cache[column] = [] if self.read is None else self.read(column)
        return self.cache[column]


def empty_document(name: str, source: str, line: int) -> CorefUDDocument:
    none = np.zeros(0, dtype=np.int64)
    flags = np.zeros(0, dtype=bool)
    return CorefUDDocument(
        name,
        source,
        line=line,
        words=[],
        token_columns=TokenColumns(None),
        sentence_starts=np.zeros(1, dtype=np.int64),
        sentence_ids=[],
        sentence_lines=[],
        word_ords=none,
        empty_nodes=(),
        entities=(),
        mention_entity=none,
        mention_start=none,
        mention_end=none,
        mention_head=none,
        mention_zero=flags,
        mention_contiguous=flags,
        mention_line=none,
        mention_etype=[],
    )
