"""The file-level fields of a DocBin (docs/formats.md): the msgpack field
table, the token table split by document, spaces, flags, user data (the
document names) and per document its span groups' bytes, checked."""

import sys
import zlib
from functools import partial
from typing import Any, Optional

import numpy as np

from ...errors import CorefInputError
from .minipack import Unsupported, loads
from .names import DEP, HEAD, MORPH, NAME_KEY, ORTH, POS, SENT_START, TAG
from .strings import StringTable

DECODE_ERRORS = (ValueError, TypeError, KeyError, IndexError, OverflowError)
"""What decoding damaged msgpack or damaged fields raises (srsly's msgpack
errors are ``ValueError``s)."""


class MsgpackDecoder:
    """msgpack decoded as ``srsly.msgpack_loads`` decodes it: by
    ``srsly.msgpack.unpackb`` when srsly is imported (by spaCy, or by this
    decoder for what :func:`~.minipack.loads`, which decodes the rest, does
    not cover), with srsly's registered decoders (numpy arrays) chained once
    and passed in: ``srsly.msgpack_loads`` looks them up,
    entry points included, on every call, which costs hundreds of times the
    decoding of a span group (benchmarks/run.py). Passing
    ``object_pairs_hook`` is what spares ``unpackb`` that lookup."""

    def __init__(self) -> None:
        self._hook: Any = None
        self._srsly: Any = None
        if "srsly" in sys.modules:
            self._unpackb()

    def _unpackb(self) -> Any:
        if self._srsly is None:
            import srsly
            import srsly.msgpack

            hook = None
            for decoder in srsly.msgpack_decoders.get_all().values():
                hook = partial(decoder, chain=hook)
            self._hook, self._srsly = hook, srsly.msgpack.unpackb
        return self._srsly

    def __call__(self, data: Any, use_list: bool = True) -> Any:
        if self._srsly is None and type(data) is bytes:
            try:
                return loads(data, use_list)
            except Unsupported:
                pass
        unpackb = self._unpackb()
        return unpackb(data, raw=False, use_list=use_list, object_hook=self._hook, object_pairs_hook=None)

    def plain(self, data: Any) -> Any:
        """Without srsly's decoders, for data that cannot hold numpy arrays."""
        return self._unpackb()(data, raw=False, object_pairs_hook=None)


def unpack_file(unpack: MsgpackDecoder, data: bytes, source: str) -> dict[str, Any]:
    """The field table of the bytes of a ``.spacy`` file."""
    try:
        msg = unpack(zlib.decompress(data))
    except zlib.error:
        raise CorefInputError(f"{source}: not a spaCy DocBin (.spacy) file (not zlib-compressed)") from None
    except DECODE_ERRORS as err:
        raise CorefInputError(f"{source}: not a spaCy DocBin (.spacy) file (damaged msgpack: {err})") from None
    if not isinstance(msg, dict):
        raise CorefInputError(f"{source}: not a spaCy DocBin (.spacy) file (no field table)")
    return msg


class TokenTable:
    """The file-level fields of a DocBin, checked and split by document.
    Only the strings wait for a lookup (:class:`~.strings.StringTable`)."""

    def __init__(self, msg: dict[str, Any], source: str) -> None:
        self.source = source
        attrs = msg.get("attrs")
        if not isinstance(attrs, list) or not attrs or not all(isinstance(a, int) for a in attrs):
            raise self._damaged("'attrs' is not a list of attribute ids")
        if len(set(attrs)) != len(attrs) or ORTH not in attrs:
            raise self._damaged("'attrs' repeats an attribute or lacks ORTH")
        for key in ("tokens", "spaces", "lengths"):
            if not isinstance(msg.get(key), bytes):
                raise self._damaged(f"{key!r} is missing or not bytes")
        if len(msg["lengths"]) % 4:
            raise self._damaged("'lengths' is not a whole number of int32 values")
        self.lengths = np.frombuffer(msg["lengths"], dtype="int32").astype(np.int64)
        if np.any(self.lengths < 0):
            raise self._damaged(f"document index {int(np.argmax(self.lengths < 0))} has a negative length")
        self.n_docs = len(self.lengths)
        self.starts = np.concatenate([[0], np.cumsum(self.lengths)]).astype(np.int64)
        self._bounds = self.starts.tolist()
        n_tokens = self._bounds[-1]
        if len(msg["tokens"]) != 8 * len(attrs) * n_tokens:
            raise self._damaged(
                f"the token table holds {len(msg['tokens'])} bytes, not {len(attrs)} attributes x "
                f"{n_tokens} tokens (the sum of the document lengths) x 8"
            )
        if len(msg["spaces"]) != n_tokens:
            raise self._damaged(f"{len(msg['spaces'])} spaces for {n_tokens} tokens")
        self.tokens = np.frombuffer(msg["tokens"], dtype="uint64").reshape(n_tokens, len(attrs))
        self.spaces = np.frombuffer(msg["spaces"], dtype=np.uint8) != 0
        self.columns = {attr: col for col, attr in enumerate(attrs)}
        self.span_groups = self._per_doc(msg, "span_groups", b"", types=(bytes,))
        self.flags = self._per_doc(msg, "flags", {}, types=(dict,))
        user_data = msg.get("user_data", [])
        if not isinstance(user_data, list):
            raise self._damaged("'user_data' is not a list")
        self.user_data = user_data
        self.strings = StringTable(msg.get("strings"), source)
        self.orth = np.ascontiguousarray(self.column(ORTH))
        self._check_orth()
        self.rel_heads = self._heads()
        self._sentences: Optional[list[list[int]]] = None
        self._has_dep: Optional[list[bool]] = None

    def _damaged(self, detail: str) -> CorefInputError:
        return CorefInputError(f"{self.source}: damaged DocBin: {detail}")

    def _per_doc(self, msg: dict[str, Any], key: str, default: Any, *, types: tuple[type, ...]) -> list[Any]:
        if key not in msg:
            return [default] * self.n_docs
        values = msg[key]
        if not isinstance(values, list) or len(values) != self.n_docs:
            found = len(values) if isinstance(values, list) else type(values).__name__
            raise self._damaged(f"{key!r} should hold one entry per document ({self.n_docs}), found {found}")
        for index, value in enumerate(values):
            if not isinstance(value, types):
                raise CorefInputError(f"{self.source}: document index {index}: damaged DocBin: {key!r} entry is a {type(value).__name__}")
        return values

    def _where(self, token: int) -> tuple[int, int]:
        """Document index and token index within it of a file-level token."""
        index = int(np.searchsorted(self.starts, token, side="right")) - 1
        return index, token - int(self.starts[index])

    def column(self, attr: int) -> Optional[np.ndarray]:
        """The values of attribute ``attr`` (an id of :mod:`~.names`) of
        every token of the file, if stored."""
        col = self.columns.get(attr)
        return None if col is None else self.tokens[:, col]

    def _check_orth(self) -> None:
        """A token with ORTH 0 has no text: spaCy's error E031. (A hash
        missing from the string table, E018, shows when the words are
        looked up.)"""
        if np.any(self.orth == 0):
            index, within = self._where(int(np.argmax(self.orth == 0)))
            raise CorefInputError(f"{self.source}: document index {index}: token {within}: has no text (ORTH 0)")

    def _heads(self) -> np.ndarray:
        """Relative dependency heads (spaCy stores them as int32 offsets in
        uint64 cells); an absolute head outside its document is spaCy's
        error E190."""
        heads = self.column(HEAD)
        if heads is None or not heads.any():
            return np.zeros(len(self.tokens), dtype=np.int64)
        rel = heads.astype(np.uint32).view(np.int32).astype(np.int64)
        doc_of = np.repeat(np.arange(self.n_docs), self.lengths)
        local = np.arange(len(rel)) - self.starts[doc_of]
        target = local + rel
        bad = (target < 0) | (target >= self.lengths[doc_of])
        if bad.any():
            token = int(np.argmax(bad))
            index, at = self._where(token)
            raise CorefInputError(
                f"{self.source}: document index {index}: token {at}: dependency head {int(target[token])} "
                f"is outside the document ({int(self.lengths[index])} tokens)"
            )
        return rel

    def doc_slice(self, index: int) -> slice:
        return slice(self._bounds[index], self._bounds[index + 1])

    def doc_spaces(self, index: int) -> np.ndarray:
        """Whether each token is followed by a space; all are when the doc's
        spaces are unknown (``Doc(words=...)`` without spaces)."""
        spaces = self.spaces[self.doc_slice(index)]
        if self.flags[index].get("has_unknown_spaces"):
            return np.ones(len(spaces), dtype=bool)
        return spaces

    def has_dep(self, index: int) -> bool:
        """``doc.has_annotation("DEP")``: some token has a DEP label (an
        empty doc counts as annotated, as in spaCy)."""
        if self._has_dep is None:
            dep = self.column(DEP)
            doc_of = np.repeat(np.arange(self.n_docs), self.lengths)
            labelled = np.zeros(0, dtype=np.int64) if dep is None else doc_of[dep != 0]
            self._has_dep = ((np.bincount(labelled, minlength=self.n_docs) > 0) | (self.lengths == 0)).tolist()
        return self._has_dep[index]

    def sentence_starts(self, index: int) -> list[int]:
        """The starts of ``doc.sents``: the tokens whose SENT_START is 1
        (spaCy stores 1, -1 or 0 for unknown, and a parse's sentences
        too), where some token after the first has a known value
        (``doc.has_annotation("SENT_START")``); else ``[0]``."""
        if self._sentences is None:
            self._sentences = self._all_sentence_starts()
        return self._sentences[index]

    def _all_sentence_starts(self) -> list[list[int]]:
        column = self.column(SENT_START)
        if column is None:
            return [[0] for _ in range(self.n_docs)]
        values = column.astype(np.int64)
        known = values != 0
        known[self.starts[:-1][self.lengths > 0]] = False
        doc_of = np.repeat(np.arange(self.n_docs), self.lengths)
        annotated = (np.bincount(doc_of[known], minlength=self.n_docs) > 0).tolist()
        ones = np.flatnonzero(values == 1)
        bounds = np.searchsorted(ones, self.starts).tolist()
        out = []
        for index, begin in enumerate(self.starts[:-1].tolist()):
            found = (ones[bounds[index] : bounds[index + 1]] - begin).tolist() if annotated[index] else []
            out.append(found if found[:1] == [0] else [0, *found])
        return out

    def token_attrs(self, index: int) -> tuple[list[str], list[str], list[str]]:
        """``pos_``, ``tag_`` and ``str(morph)`` of every token."""
        at = self.doc_slice(index)
        out = []
        for name, attr in (("POS", POS), ("TAG", TAG), ("MORPH", MORPH)):
            column = self.column(attr)
            if column is None:
                out.append([""] * int(self.lengths[index]))
            else:
                out.append(self.strings.lookup(np.ascontiguousarray(column[at]), name))
        return out[0], out[1], out[2]

    def doc_name(self, unpack: MsgpackDecoder, index: int) -> Optional[str]:
        """``user_data[NAME_KEY]`` of a doc when it is a string."""
        value = self.user_data[index] if index < len(self.user_data) else None
        if value is None:
            return None
        try:
            data = unpack(value, use_list=False)
        except DECODE_ERRORS as err:
            raise CorefInputError(f"damaged user data ({err})") from None
        if not isinstance(data, dict):
            raise CorefInputError(f"damaged user data (a {type(data).__name__}, not a map)")
        name = data.get(NAME_KEY)
        return name if isinstance(name, str) else None
