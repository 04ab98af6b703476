"""The metrics, each declared once in :data:`REGISTRY`, and their count
functions: the six coreference metrics as functions of a
:class:`Contingency` table, mention identification of the twinning.

Each returns additive counts ``(recall_num, recall_den, precision_num,
precision_den)``, every one an array with one value per document of the
table (docs/metrics.md §1–2); BLANC returns one such tuple for coreference links and one
for non-coreference links. All run in time linear in the number of nonzero
cells, except CEAF, which solves one assignment problem per connected block
of the key/response entity graph.
"""

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Callable, Optional

import numpy as np

from ..assignment import connected_blocks, matchings_by_group
from ..model.clusters import common_tokens
from ..model.ua.modes import Modes
from ..twinning.spans import overlapping_pairs
from ..twinning.twinned import TwinnedCorpus
from .bridging import bridging_counts
from .contingency import Contingency
from .importance import SIZE, LeaImportance
from .non_referring import non_referring_counts
from .zeros import zero_counts

Quad = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]
Scores = dict[str, np.ndarray]


def _pairs(n: np.ndarray) -> np.ndarray:
    """n choose 2, elementwise, as floats."""
    n = np.asarray(n, dtype=np.float64)
    return n * (n - 1) / 2


def muc(table: Contingency) -> Quad:
    """MUC (Vilain et al. 1995): recall Σ_i (|k_i| − |p(k_i)|) / Σ_i (|k_i| − 1).

    |k_i| − |p(k_i)| = Σ_j n_ij − #{j : n_ij > 0}, because each mention of
    k_i missing from the response is a part of its own; so recall and
    precision share the numerator Σ_ij (n_ij − 1).

    Luo (2005) Figure 1, response (a): key {1–5}, {6, 7}, {8–C} and
    response {1–5}, {6–C} (mention m of the 12 has key ``key[m]`` and
    response ``response[m]``). Recall 9/9, precision (4 + 5)/(4 + 6), F1
    0.947 as in Luo's table:

    >>> from spacy_coref_eval.twinning.twinned import Twinned
    >>> key = np.array([0, 0, 0, 0, 0, 1, 1, 2, 2, 2, 2, 2])
    >>> response = np.array([0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1])
    >>> table = Contingency.from_twinned(Twinned(key, response, np.zeros(12, dtype=int), 1))
    >>> [float(count[0]) for count in muc(table)]
    [9.0, 9.0, 9.0, 10.0]
    """
    common = table.per_doc(table.cell_doc, table.counts - 1)
    return (common, table.per_doc(table.key_doc, table.key_sizes - 1), common, table.per_doc(table.response_doc, table.response_sizes - 1))


def _bcub_recall(table: Contingency) -> tuple[np.ndarray, np.ndarray]:
    n = table.counts.astype(np.float64)
    return (table.per_doc(table.cell_doc, n * n / table.key_sizes[table.rows]), table.per_doc(table.key_doc, table.key_sizes))


def bcub(table: Contingency) -> Quad:
    """B³ (Bagga & Baldwin 1998): recall Σ_ij n_ij² / |k_i| ÷ Σ_i |k_i|;
    precision swaps key and response.

    Luo (2005) Figure 1, response (a) (as in :func:`muc`): recall
    (25/5 + 4/2 + 25/5) / 12 = 1, precision (25/5 + 4/7 + 25/7) / 12 = 16/21,
    F1 0.865 as in Luo's table:

    >>> from spacy_coref_eval.twinning.twinned import Twinned
    >>> key = np.array([0, 0, 0, 0, 0, 1, 1, 2, 2, 2, 2, 2])
    >>> response = np.array([0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1])
    >>> table = Contingency.from_twinned(Twinned(key, response, np.zeros(12, dtype=int), 1))
    >>> recall_num, recall_den, precision_num, precision_den = (float(count[0]) for count in bcub(table))
    >>> recall_num / recall_den, round(precision_num / precision_den, 4)
    (1.0, 0.7619)
    """
    return _bcub_recall(table) + _bcub_recall(table.transpose())


def _lea_recall(table: Contingency, importance: LeaImportance = SIZE) -> tuple[np.ndarray, np.ndarray]:
    key_sizes = table.key_sizes.astype(np.float64)
    common = np.bincount(table.rows, weights=_pairs(table.counts), minlength=len(key_sizes))
    singleton_cell = (table.key_sizes[table.rows] == 1) & (table.response_sizes[table.cols] == 1)
    common[table.rows[singleton_cell]] = 1.0
    links = np.where(key_sizes > 1, _pairs(key_sizes), 1.0)
    weights = importance(table.key_sizes, table.key_types)
    return (table.per_doc(table.key_doc, weights * common / links), table.per_doc(table.key_doc, weights))


def lea(table: Contingency, importance: LeaImportance = SIZE) -> Quad:
    """LEA (Moosavi & Strube 2016): recall Σ_i |k_i| · Σ_j link(k_i ∩ r_j) /
    link(k_i) ÷ Σ_i |k_i|, link(e) = |e|(|e| − 1)/2, a singleton's self-link
    counting 1 and found only in a response singleton; precision swaps key
    and response. ``importance`` replaces |k_i| by another weight of the
    entity (:class:`~.importance.LeaImportance`; by type, the table's
    ``key_types`` for recall and ``response_types`` for precision).

    Moosavi & Strube (2016) §5: key {a, b, c}, {d, e, f, g}, response
    {a, b}, {c, d}, {f, g, h, i} (-1: the mention is not on that side).
    Recall (3 · 1/3 + 4 · 1/6) / 7 = 0.24, precision
    (2 · 1 + 2 · 0 + 4 · 1/6) / 8 = 0.33:

    >>> from spacy_coref_eval.twinning.twinned import Twinned
    >>> key = np.array([0, 0, 0, 1, 1, 1, 1, -1, -1])
    >>> response = np.array([0, 0, 1, 1, -1, 2, 2, 2, 2])
    >>> table = Contingency.from_twinned(Twinned(key, response, np.zeros(9, dtype=int), 1))
    >>> recall_num, recall_den, precision_num, precision_den = (float(count[0]) for count in lea(table))
    >>> round(recall_num / recall_den, 2), round(precision_num / precision_den, 2)
    (0.24, 0.33)
    """
    return _lea_recall(table, importance) + _lea_recall(table.transpose(), importance)


def blanc(table: Contingency) -> tuple[Quad, Quad]:
    """BLANC link counts (Recasens & Hovy 2011; Luo et al. 2014).

    Coreference links: |C_K ∩ C_R| = Σ_ij C(n_ij, 2) against C_K = Σ_i
    C(|k_i|, 2) and C_R = Σ_j C(|r_j|, 2). Non-coreference links between the
    mentions on both sides: all pairs, less those joined in the key, less
    those joined in the response, plus those joined in both; N_K and N_R are
    all pairs of a side less its coreference links.

    Luo (2005) Figure 1, response (a) (as in :func:`muc`), 66 pairs of 12
    mentions: C_K = 10 + 1 + 10, C_R = 10 + 21, all 21 key links found;
    N_K = 66 − 21, N_R = 66 − 31, and the 35 pairs the response splits are
    split in the key too:

    >>> from spacy_coref_eval.twinning.twinned import Twinned
    >>> key = np.array([0, 0, 0, 0, 0, 1, 1, 2, 2, 2, 2, 2])
    >>> response = np.array([0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1])
    >>> table = Contingency.from_twinned(Twinned(key, response, np.zeros(12, dtype=int), 1))
    >>> coref, noncoref = blanc(table)
    >>> [float(count[0]) for count in coref], [float(count[0]) for count in noncoref]
    ([21.0, 21.0, 21.0, 31.0], [35.0, 45.0, 35.0, 35.0])
    """
    cell_doc = table.cell_doc
    both = table.per_doc(cell_doc, _pairs(table.counts))
    key_links = table.per_doc(table.key_doc, _pairs(table.key_sizes))
    response_links = table.per_doc(table.response_doc, _pairs(table.response_sizes))
    split_both = (
        _pairs(table.per_doc(cell_doc, table.counts))
        - table.per_doc(table.key_doc, _pairs(table.row_sums))
        - table.per_doc(table.response_doc, _pairs(table.col_sums))
        + both
    )
    key_split = _pairs(table.per_doc(table.key_doc, table.key_sizes)) - key_links
    response_split = _pairs(table.per_doc(table.response_doc, table.response_sizes)) - response_links
    return (both, key_links, both, response_links), (split_both, key_split, split_both, response_split)


def ceaf(table: Contingency) -> tuple[Quad, Quad]:
    """CEAFm and CEAFe (Luo 2005): Φ* is the best one-to-one alignment of key
    to response entities under φ3 = |k ∩ r| and φ4 = 2|k ∩ r| / (|k| + |r|);
    recall Φ* / Σ_i φ(k_i, k_i), precision Φ* / Σ_j φ(r_j, r_j).

    Cells with n_ij = 0 never help, so each connected block of the graph of
    nonzero cells is aligned on its own (:func:`_best_alignment`): a block
    with one key or one response entity by its best cell, others as
    assignment problems.

    Luo (2005) Figure 1, response (a) (as in :func:`muc`): the best
    alignment pairs {1–5} with {1–5} and {8–C} with {6–C}. CEAFm: Φ* = 5 + 5
    of 12 mentions on each side, F1 0.833; CEAFe: Φ* = 10/10 + 10/12 of 3
    key and 2 response entities, F1 0.733, as in Luo's table:

    >>> from spacy_coref_eval.twinning.twinned import Twinned
    >>> key = np.array([0, 0, 0, 0, 0, 1, 1, 2, 2, 2, 2, 2])
    >>> response = np.array([0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1])
    >>> table = Contingency.from_twinned(Twinned(key, response, np.zeros(12, dtype=int), 1))
    >>> mentions, entities = ceaf(table)
    >>> [float(count[0]) for count in mentions]
    [10.0, 12.0, 10.0, 12.0]
    >>> [round(float(count[0]), 4) for count in entities]
    [1.8333, 3.0, 1.8333, 2.0]
    """
    if "ceaf" in table.cache:
        return table.cache["ceaf"]
    n = table.counts.astype(np.float64)
    phi3 = n
    phi4 = 2 * n / (table.key_sizes[table.rows] + table.response_sizes[table.cols])
    total3, total4 = _best_alignment(table, (phi3, phi4))
    ones = np.ones(len(table.key_sizes)), np.ones(len(table.response_sizes))
    mentions = (total3, table.per_doc(table.key_doc, table.key_sizes), total3, table.per_doc(table.response_doc, table.response_sizes))
    entities = (total4, table.per_doc(table.key_doc, ones[0]), total4, table.per_doc(table.response_doc, ones[1]))
    table.cache["ceaf"] = mentions, entities
    return mentions, entities


def _best_alignment(table: Contingency, similarities: tuple[np.ndarray, ...]) -> list[np.ndarray]:
    """Φ* per document for each similarity (given per cell), summed over the
    connected blocks of each document.

    A star block (one key or one response entity) is aligned by its best
    cell, for all stars at once. The other blocks, a group of small ones at
    a time, are assignment problems, solved in Python when they are few
    and small, else by SciPy
    (:func:`~spacy_coref_eval.assignment.matchings_by_group`), sparse in
    memory linear in their cells unless small and dense, never as a dense
    matrix of all key × response entities of a large block.
    """
    if len(table.counts) == 0:
        return [np.zeros(table.n_docs) for _ in similarities]
    blocks = connected_blocks(table.rows, table.cols, n_rows=len(table.key_sizes), n_cols=len(table.response_sizes))
    star = (blocks.n_rows == 1) | (blocks.n_cols == 1)
    cells: list[list[np.ndarray]] = [[blocks.first_edges[star]] for _ in similarities]
    values: list[list[np.ndarray]] = [
        [np.maximum.reduceat(similarity[blocks.edges], blocks.bounds[:-1])[star]] for similarity in similarities
    ]
    for matched in matchings_by_group(blocks, table.rows, table.cols, selected=~star, gains=similarities):
        for cell, value, similarity, chosen in zip(cells, values, similarities, matched):
            cell.append(chosen)
            value.append(similarity[chosen])
    return [_canonical_sums(table, np.concatenate(cell), np.concatenate(value)) for cell, value in zip(cells, values)]


def _canonical_sums(table: Contingency, cells: np.ndarray, values: np.ndarray) -> np.ndarray:
    """Per document, the sum of ``values`` (a star block's best value at its
    first cell, an assignment's values at its chosen cells) added in cell
    order, so that a document's float total does not depend on which other
    documents, or which solver groups, share the run."""
    order = np.argsort(cells, kind="stable")
    return table.per_doc(table.cell_doc[cells[order]], values[order])


def mention_counts(twinned: TwinnedCorpus) -> tuple[Quad]:
    """Mention identification: twin pairs against key mentions (recall) and
    against response mentions (precision), read off the twinning itself.

    Key {[0, 2), [5, 6)}, {[8, 10)} and response {[0, 2), [5, 7)},
    {[8, 9)}: one span is exact; overlap matching (Dice ≥ 0.5) twins the
    two others too (Dice 2/3 each):

    >>> from spacy_coref_eval.model.clusters import Clusters
    >>> from spacy_coref_eval.twinning import get_matcher, twin_corpus
    >>> key = Clusters.from_entities([[(0, 2), (5, 6)], [(8, 10)]])
    >>> response = Clusters.from_entities([[(0, 2), (5, 7)], [(8, 9)]])
    >>> for match in ("exact", "overlap"):
    ...     (counts,) = mention_counts(twin_corpus([(key, response, 0)], get_matcher(match)))
    ...     print(match, [float(count[0]) for count in counts])
    exact [1.0, 3.0, 1.0, 3.0]
    overlap [3.0, 3.0, 3.0, 3.0]
    """
    n_docs = twinned.n_docs
    found = np.bincount(twinned.response_doc[twinned.twinned], minlength=n_docs).astype(np.float64)
    keys = np.bincount(twinned.key_doc, minlength=n_docs).astype(np.float64)
    responses = np.bincount(twinned.response_doc, minlength=n_docs).astype(np.float64)
    return ((found, keys, found, responses),)


def mor(twinned: TwinnedCorpus) -> tuple[Quad]:
    """MOR, the mention overlap ratio (Žabokrtský et al. 2022, CRAC): key and
    response mentions are aligned one-to-one, whatever the twinning, so as to
    share the most tokens, Σ |k ∩ r|; recall divides that by the tokens of
    all key mentions, precision by those of all response mentions. The
    alignment decomposes over the connected blocks of the graph of
    overlapping key/response pairs, each solved as a maximum-gain matching.

    The mentions of :func:`mention_counts`' example share 2 + 1 + 1 of the
    5 tokens of either side, whatever the twinning: recall and precision
    4/5:

    >>> from spacy_coref_eval.model.clusters import Clusters
    >>> from spacy_coref_eval.twinning import get_matcher, twin_corpus
    >>> key = Clusters.from_entities([[(0, 2), (5, 6)], [(8, 10)]])
    >>> response = Clusters.from_entities([[(0, 2), (5, 7)], [(8, 9)]])
    >>> (counts,) = mor(twin_corpus([(key, response, 0)], get_matcher("exact")))
    >>> [float(count[0]) for count in counts]
    [4.0, 5.0, 4.0, 5.0]
    """
    key, response, n_docs = twinned.key, twinned.response, twinned.n_docs
    rows, cols = overlapping_pairs(key.starts, key.ends, response_starts=response.starts, response_ends=response.ends)
    common = common_tokens(key, response, k=rows, r=cols)
    rows, cols, common = rows[common > 0], cols[common > 0], common[common > 0]
    shared = np.zeros(n_docs)
    if len(rows):
        blocks = connected_blocks(rows, cols, n_rows=len(key), n_cols=len(response))
        for (chosen,) in matchings_by_group(blocks, rows, cols, selected=np.ones(len(blocks), dtype=bool), gains=[common]):
            shared += np.bincount(twinned.key_doc[rows[chosen]], weights=common[chosen], minlength=n_docs)
    key_tokens = np.bincount(twinned.key_doc, weights=key.sizes, minlength=n_docs)
    response_tokens = np.bincount(twinned.response_doc, weights=response.sizes, minlength=n_docs)
    return ((shared, key_tokens.astype(np.float64), shared, response_tokens.astype(np.float64)),)


@dataclass(frozen=True)
class Conventions:
    """The rules that turn counts into scores where scorers differ, as
    values a preset sets (:mod:`spacy_coref_eval.presets`). With
    ``blanc_either_side`` a BLANC link kind is left out only when neither
    the key nor the response has such links (the CorefUD scorer;
    docs/corefud.md §4), else when the key has none (the reference
    scorer)."""

    blanc_either_side: bool = False


def blanc_rates(counts: Sequence[np.ndarray], rates: Sequence[Scores], conventions: Conventions = Conventions()) -> Scores:
    """BLANC from the count blocks of its two link kinds and their rates
    (Recasens & Hovy 2011; Luo et al. 2014): the mean of the two, or the one
    kind whose key has links, as the reference scorer does (0 when the key
    has links of neither kind); see :class:`Conventions` for the CorefUD
    scorer's rule."""
    (coref, noncoref), (coref_rates, noncoref_rates) = counts, rates
    has_coref, has_noncoref = coref[..., 1] > 0, noncoref[..., 1] > 0
    if conventions.blanc_either_side:
        has_coref |= coref[..., 3] > 0
        has_noncoref |= noncoref[..., 3] > 0
    out: Scores = {}
    for name in RATES:
        c, n = coref_rates[name], noncoref_rates[name]
        alone = np.where(has_coref, c, np.where(has_noncoref, n, 0.0))
        out[name] = np.where(has_coref & has_noncoref, (c + n) / 2, alone)
    return out


RATES: tuple[str, ...] = ("recall", "precision", "f1")


def markable_level(counts: Sequence[np.ndarray], rates: Sequence[Scores], conventions: Conventions = Conventions()) -> Scores:
    """Bridging's headline scores: those of its markable level (anchor and
    anaphor both right), the UA scorer's full bridging score."""
    return rates[1]


@dataclass(frozen=True)
class Metric:
    """Everything the package knows of one metric, declared once.

    ``count`` gives one count quad per block in ``blocks``, each an array
    over documents: metrics of ``kind`` ``"anaphora"`` read the UA layers
    of the ``(key, response)`` clusters (:mod:`~spacy_coref_eval.compat.ua.anaphora`), those of ``kind`` ``"partitions"`` read a
    :class:`Contingency` (once for recall and once for precision, so that
    twinless policies apply), those of kind ``"mentions"`` read the
    :class:`TwinnedCorpus` (no policy rewrite). ``parts`` names the blocks
    in the JSON when there are several (``part_labels`` in tables), and ``combine`` turns their count
    blocks and each block's rates into recall, precision and F1 (default:
    the one block's rates; :func:`~.rates.score_arrays`).
    ``in_conll`` marks the three metrics the CoNLL score averages.
    ``selectable`` metrics are chosen with ``--metrics`` (those not
    ``default`` only when asked for); the others are always reported.
    ``fractional`` names the count fields that may hold fractions (the
    others count mentions, links or tokens), ``partial_credit`` those that
    split antecedents make fractional (Paun et al. 2023; docs/ua.md): both
    let a counts file be checked (:mod:`~spacy_coref_eval.shards`), as
    ``weighted`` does for those that weights by entity type make
    fractional (LEA's importance, :mod:`.importance`).
    ``options`` names the settings its ``count`` takes as keywords.
    """

    name: str
    label: str
    source: str
    count: Callable[..., tuple[Quad, ...]]
    kind: str = "partitions"
    blocks: tuple[str, ...] = ()
    parts: tuple[str, ...] = ()
    part_labels: tuple[str, ...] = ()
    combine: Optional[Callable[..., Scores]] = None
    in_conll: bool = False
    selectable: bool = True
    default: bool = True
    fractional: tuple[str, ...] = ()
    partial_credit: tuple[str, ...] = ()
    weighted: tuple[str, ...] = ()
    options: tuple[str, ...] = ()

    @property
    def count_blocks(self) -> tuple[str, ...]:
        """The rows this metric fills in a counts array."""
        return self.blocks or (self.name,)


REGISTRY: tuple[Metric, ...] = (
    Metric("mentions", "Mentions", "mention identification", mention_counts, kind="mentions", selectable=False),
    Metric("muc", "MUC", "Vilain et al. 1995", lambda table: (muc(table),), in_conll=True, partial_credit=("recall_num", "precision_num")),
    Metric("bcub", "B³", "Bagga & Baldwin 1998", lambda table: (bcub(table),), in_conll=True, fractional=("recall_num", "precision_num")),
    Metric("ceafm", "CEAFm", "Luo 2005", lambda table: (ceaf(table)[0],), partial_credit=("recall_num", "precision_num")),
    Metric("ceafe", "CEAFe", "Luo 2005", lambda table: (ceaf(table)[1],), in_conll=True, fractional=("recall_num", "precision_num")),
    Metric(
        "blanc",
        "BLANC",
        "Recasens & Hovy 2011; Luo et al. 2014",
        blanc,
        blocks=("blanc_coref", "blanc_noncoref"),
        parts=("coref_links", "noncoref_links"),
        part_labels=("coref links", "non-coref links"),
        combine=blanc_rates,
        partial_credit=("recall_num", "precision_num"),
    ),
    Metric(
        "lea",
        "LEA",
        "Moosavi & Strube 2016",
        lambda table, lea_importance=SIZE: (lea(table, lea_importance),),
        fractional=("recall_num", "precision_num"),
        weighted=("recall_den", "precision_den"),
        options=("lea_importance",),
    ),
    Metric(
        "non_referring",
        "Non-referring",
        "Yu et al. 2022 (the UA scorer)",
        non_referring_counts,
        kind="anaphora",
        selectable=False,
        default=False,
    ),
    Metric(
        "bridging",
        "Bridging",
        "Yu et al. 2022 (the UA scorer)",
        bridging_counts,
        kind="anaphora",
        blocks=("bridging_recognition", "bridging_markable", "bridging_entity"),
        parts=("anaphora_recognition", "markable_level", "entity_level"),
        part_labels=("anaphora recognition", "markable level", "entity level"),
        combine=markable_level,
        selectable=False,
        default=False,
    ),
    Metric("mor", "MOR", "Žabokrtský et al. 2022", mor, kind="mentions", default=False),
    Metric("zero", "Zero", "Žabokrtský et al. 2022 (zero anaphors)", zero_counts, kind="mentions", default=False),
)
"""Every metric, in report order."""
METRIC_INFO: dict[str, Metric] = {metric.name: metric for metric in REGISTRY}
METRICS: tuple[str, ...] = tuple(metric.name for metric in REGISTRY if metric.selectable)
"""The metrics ``--metrics`` chooses from, in report order."""
ANAPHORA_METRICS: tuple[str, ...] = tuple(metric.name for metric in REGISTRY if metric.kind == "anaphora")
"""The UA scorer's extra scores, counted from the UA layers
(:mod:`~spacy_coref_eval.compat.ua.anaphora`) and chosen by its modes (docs/ua.md)."""
DEFAULT_METRICS: tuple[str, ...] = tuple(metric.name for metric in REGISTRY if metric.selectable and metric.default)
"""The metrics computed unless others are chosen: the six of the CoNLL reference scorer."""
CONLL_PARTS: tuple[str, ...] = tuple(metric.name for metric in REGISTRY if metric.in_conll)
"""The metrics whose F1 the CoNLL score averages (Pradhan et al. 2014)."""


def check_metrics(metrics: Iterable[str]) -> tuple[str, ...]:
    """Validated metric names, in report order."""
    chosen = set(metrics)
    unknown = chosen - set(METRICS) - set(ANAPHORA_METRICS)
    if unknown:
        raise ValueError(f"unknown metric(s) {sorted(unknown)}; choose from {list(METRICS)}")
    return tuple(m.name for m in REGISTRY if m.name in chosen)


def reads_documents(metrics: Sequence[str], modes: Modes) -> bool:
    """Whether :func:`~spacy_coref_eval.compat.ua.anaphora.anaphora_counts` reads documents that
    carry no split antecedents, non-referring or bridging markables: where
    a metric of kind ``"anaphora"`` is asked for, or split antecedents are
    scored alone."""
    return modes.effective.split_antecedents == "only" or any(
        METRIC_INFO[name].kind == "anaphora" for name in metrics if name in METRIC_INFO
    )
