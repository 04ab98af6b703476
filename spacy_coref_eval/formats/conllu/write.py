"""Write coreference as CorefUD 1.x CoNLL-U, read back by
:func:`~.conllu.read_conllu` (and udapi) as the same word-span mentions.

A file starts with ``# newdoc id = NAME`` and ``# global.Entity =
eid-etype-head-other``; every document is one ``# newdoc``, every sentence
has a ``# sent_id`` (``NAME-N``, white space in the name written as ``_``)
and a ``# text`` (the words joined by spaces). Token lines hold the ten
columns: ID, FORM, LEMMA ``_``, UPOS, XPOS and FEATS (``Gender`` and
``Person``) from the document's :class:`~...model.tokens.Tokens` when given, else
``_``, HEAD, DEPREL and DEPS ``_``, and MISC ``Entity=...`` (and
``SplitAnte=`` for the plurals of a CoNLL-UA document, as udapi writes it).

Entities are ``e1``, ``e2``, ... in order of their first mention, numbered
on through the file (udapi takes an ``eid`` to name one entity in the whole
file, whatever ``# newdoc`` lies between its mentions). A mention
of several words opens with ``(eN-T-H`` (``T`` the entity's type,
``Clusters.etypes``, empty when unknown; ``H`` its head, 1-based within the
mention; the first word when heads are unknown) and closes with ``eN)``; a
one-word mention is ``(eN-T-1)``. The chunks of one word follow udapi's
canonical order (``udapi/core/coref.py``): closings before openings,
shorter mentions closed first, longer ones opened first, one-word
mentions after the openings, or before the closings on a word that opens
nothing. So the mentions of one entity nest as written, and a reader that
closes the latest open mention of an entity pairs every bracket right.
"""

from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import NamedTuple, Optional, Union

import numpy as np

from ...errors import CorefInputError
from ...files import PathLike, open_output
from ...model.clusters import Clusters
from ...model.tokens import MISSING, Tokens
from ..conll.write import check_nesting
from ..document import SideDocument, conll_column, document_names

ENTITY_FIELDS = "eid-etype-head-other"


class ConlluDocument(NamedTuple):
    """What :func:`write_conllu` writes of one document; ``tokens`` (same
    words) give the UPOS, XPOS and FEATS columns."""

    name: str
    words: Sequence[str]
    clusters: Clusters
    sentence_starts: Sequence[int] = ()
    tokens: Optional[Tokens] = None
    sentence_ids: Sequence[Optional[str]] = ()
    """The ``# sent_id`` of every sentence where the source has them (a
    CoNLL-U document); else, or where one is missing, ``NAME-N``."""


def write_conllu(path: PathLike, documents: Iterable[Union[ConlluDocument, tuple]], inputs: Iterable[PathLike] = ()) -> int:
    """Write documents (:class:`ConlluDocument` or tuples of its fields)
    to a CoNLL-U file, atomically and never over one of ``inputs``.

    CorefUD mentions lie within one sentence, so two sentences that a
    mention spans are written as one; returns how many sentence breaks
    were dropped so. A document name that would not read back (empty, on
    two lines, or with white space around it), a mention head
    outside its mention, or two mentions of one entity that overlap without
    nesting raise :class:`CorefInputError` naming the document.
    """
    joined, first_eid = 0, 1
    with open_output(path, "w", inputs, make_parents=True) as out:
        for index, document in enumerate(documents):
            document = ConlluDocument(*document)
            lines, dropped = format_conllu(document, with_header=index == 0, first_eid=first_eid)
            joined += dropped
            first_eid += document.clusters.n_entities
            for line in lines:
                out.write(line + "\n")
    return joined


def format_conllu(document: ConlluDocument, with_header: bool = False, first_eid: int = 1) -> tuple[list[str], int]:
    """The lines of one document (after ``# newdoc id``, the
    ``# global.Entity`` header when ``with_header``), its entities numbered
    from ``first_eid``, and how many sentence breaks were dropped because a
    mention spans them."""
    name, words, clusters = document.name, document.words, document.clusters
    if "\n" in name or "\r" in name or not name or name != name.strip():
        raise CorefInputError(
            f"document {name!r}: a CoNLL-U document id is one line, not empty, "
            "and neither starts nor ends with white space (it would not read back)"
        )
    check_nesting(name, clusters, "CoNLL-U brackets")
    n_words = len(words)
    if len(clusters) and int(clusters.ends.max()) > n_words:
        m = int(np.argmax(clusters.ends > n_words))
        raise CorefInputError(
            f"document {name!r}: mention ({clusters.starts[m]}, {clusters.ends[m]}) ends after the document's {n_words} words"
        )
    lines = [f"# newdoc id = {name}"]
    if with_header:
        lines.append(f"# global.Entity = {ENTITY_FIELDS}")
    if not n_words:
        return lines, 0
    starts, dropped = sentence_starts_within(clusters, document.sentence_starts, n_words)
    eids: dict[int, int] = {}
    misc = entity_column(name, clusters, n_words, first_eid=first_eid, eids=eids)
    for word, links in split_antecedent_links(clusters, eids).items():
        misc[word] += f"|SplitAnte={links}"
    forms = _cleaned(words)
    upos, xpos, feats = _token_columns(document.tokens, n_words)
    prefix = conll_column(name)
    bounds = starts.tolist() + [n_words]
    given = list(document.sentence_ids) if not dropped and len(document.sentence_ids) == len(starts) else []
    for number, (first, stop) in enumerate(zip(bounds, bounds[1:]), 1):
        ident = given[number - 1] if given else None
        lines.append(f"# sent_id = {ident if ident else f'{prefix}-{number}'}")
        lines.append(f"# text = {' '.join(forms[first:stop])}")
        for w in range(first, stop):
            lines.append(f"{w - first + 1}\t{forms[w]}\t_\t{upos[w]}\t{xpos[w]}\t{feats[w]}\t_\t_\t_\t{misc[w]}")
        lines.append("")
    return lines, dropped


def sentence_starts_within(clusters: Clusters, sentence_starts: Sequence[int], n_words: int) -> tuple[np.ndarray, int]:
    """The first word of every sentence (0 always, the rest sorted and
    unique), leaving out starts inside a mention, and how many were left
    out."""
    given = np.asarray(sentence_starts, dtype=np.int64).reshape(-1)
    starts = np.union1d(given[(given > 0) & (given < n_words)], [0])
    covered = np.zeros(n_words + 1, dtype=np.int64)
    np.add.at(covered, clusters.starts + 1, 1)
    np.add.at(covered, clusters.ends, -1)
    inside = np.cumsum(covered)[starts] > 0
    return starts[~inside], int(inside.sum())


def split_antecedent_links(clusters: Clusters, eids: dict[int, int]) -> dict[int, str]:
    """``SplitAnte=`` values of the plurals of CoNLL-UA clusters (their
    split elements, flattened as the UA scorer flattens them), on the first
    word of each plural's first mention, with the entity numbers ``eids``."""
    splits = getattr(clusters, "splits", None)
    if not splits:
        return {}
    entity_of: dict[tuple[int, int], int] = {}
    for start, end, entity in zip(clusters.starts.tolist(), clusters.ends.tolist(), clusters.entity.tolist()):
        entity_of.setdefault((start, end), entity)
    out: dict[int, str] = {}
    for plural, element in sorted(splits.items()):
        word = int(clusters.starts[clusters.entity == plural].min())
        antecedents = sorted({eids[entity_of[spans[0]]] for spans in element if spans and spans[0] in entity_of})
        links = ",".join(f"e{a}<e{eids[plural]}" for a in antecedents)
        out[word] = f"{out[word]},{links}" if word in out else links
    return out


def entity_column(name: str, clusters: Clusters, n_words: int, *, first_eid: int = 1, eids: Optional[dict[int, int]] = None) -> list[str]:
    """The MISC value of every word: ``Entity=`` and its chunks, or ``_``;
    entities numbered from ``first_eid`` in order of their first mention
    (mentions must lie within the ``n_words`` words), the numbers left in
    ``eids`` when given."""
    order = np.lexsort((clusters.entity, clusters.starts - clusters.ends, clusters.starts))
    first_seen: dict[int, int] = {} if eids is None else eids
    opens: dict[int, list[str]] = {}
    singles: dict[int, list[str]] = {}
    closes: dict[int, list[str]] = {}
    columns = (clusters.starts[order], clusters.ends[order], clusters.entity[order], _head_numbers(name, clusters)[order])
    etypes = clusters.etypes if clusters.etypes is not None else ("",) * clusters.n_entities
    for start, end, entity, head in zip(*(column.tolist() for column in columns)):
        eid = first_seen.setdefault(entity, len(first_seen) + first_eid)
        etype = etypes[entity] or ""
        if end - start == 1:
            singles.setdefault(start, []).append(f"(e{eid}-{etype}-1)")
        else:
            opens.setdefault(start, []).append(f"(e{eid}-{etype}-{head}")
            closes.setdefault(end - 1, []).insert(0, f"e{eid})")
    column = ["_"] * n_words
    for w in set(opens) | set(singles) | set(closes):
        if w in opens:
            chunks = closes.get(w, []) + opens[w] + singles.get(w, [])
        else:
            chunks = singles.get(w, []) + closes.get(w, [])
        column[w] = "Entity=" + "".join(chunks)
    return column


def _head_numbers(name: str, clusters: Clusters) -> np.ndarray:
    """The head of every mention as a 1-based position within it (1 where
    the head is unknown)."""
    if clusters.heads is None:
        return np.ones(len(clusters), dtype=np.int64)
    known = clusters.heads >= 0
    bad = known & ((clusters.heads < clusters.starts) | (clusters.heads >= clusters.ends))
    if bad.any():
        m = int(np.argmax(bad))
        raise CorefInputError(
            f"document {name!r}: the head {clusters.heads[m]} of mention ({clusters.starts[m]}, {clusters.ends[m]}) lies outside it"
        )
    return np.where(known, clusters.heads - clusters.starts + 1, 1)


def _token_columns(tokens: Optional[Tokens], n_words: int) -> tuple[list[str], list[str], list[str]]:
    """UPOS, XPOS and FEATS of every word from ``tokens``, ``_`` where unknown."""
    blank = ["_"] * n_words
    if tokens is None:
        return blank, blank, blank
    if len(tokens) != n_words:
        raise CorefInputError(f"tokens: {len(tokens)} token(s) for {n_words} words")
    upos, xpos, gender, person = (_known(values) for values in (tokens.pos, tokens.tag, tokens.gender, tokens.person))
    features = [
        [f"{feature}={value}" if value != "_" else "" for value in values]
        for feature, values in (("Gender", gender), ("Person", person))
        if values is not None
    ]
    feats = ["|".join(filter(None, pair)) or "_" for pair in zip(*features)] if features else blank
    return upos or blank, xpos or blank, feats


def _known(values: Optional[Sequence[str]]) -> Optional[list[str]]:
    """A token column as written: ``_`` for unknown values."""
    if values is None:
        return None
    return _cleaned(["_" if value in MISSING else value for value in values])


def _cleaned(values: Sequence[str]) -> list[str]:
    """``values`` through :func:`~..document.conll_column` (no copy made when
    none is empty or holds white space)."""
    values = list(values)
    joined = " ".join(values)
    pieces = joined.split()
    if len(pieces) == len(values) and len(joined) == len(values) - 1 + sum(map(len, pieces)):
        return values
    return [conll_column(value) for value in values]


def _with_elements(document: SideDocument) -> Clusters:
    """A document's clusters, with their split elements where it has them
    (a CoNLL-UA document's plurals, written as ``SplitAnte=``)."""
    elements = getattr(document, "clusters_with_elements", None)
    return elements() if elements is not None else document.clusters


def write_side(path: Path, documents: Sequence[SideDocument], inputs: Sequence[Path]) -> list[str]:
    """The documents as a CoNLL-U file (the format's writer), with their
    token attributes; a warning when sentence breaks inside mentions were
    dropped."""
    names = document_names(documents)
    joined = write_conllu(
        path,
        [(name, d.words, _with_elements(d), d.sentence_starts, d.tokens(), d.sentence_ids()) for name, d in zip(names, documents)],
        inputs,
    )
    if not joined:
        return []
    return [f"{path}: {joined} sentence break(s) inside mentions dropped (a CorefUD mention lies within one sentence)"]
