"""Hypothesis strategies for key/response partitions of one document.

Mentions are ``(start, end)`` token spans (end exclusive) over a small token
range, so nested and overlapping spans are common. No mention appears twice
on the same side.
"""

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from hypothesis import HealthCheck, Phase, settings, strategies as st

from tests.profiles import scaled


def deterministic(max_examples, shrink=True):
    """Hypothesis settings of a test that runs ``max_examples`` examples
    under the ``ci`` profile (scaled by the profile chosen,
    :mod:`tests.profiles`), with no per-example deadline. Under ``dev``
    and ``ci`` the examples are the same on every run; the profile, not
    the test, says whether they are random and kept in a database.

    ``shrink=False`` reports a failing example as generated, for strategies
    whose examples are too large to shrink quickly.
    """
    phases = tuple(Phase) if shrink else (Phase.explicit, Phase.reuse, Phase.generate)
    return settings(max_examples=scaled(max_examples), deadline=None, phases=phases, suppress_health_check=[HealthCheck.too_slow])


@contextmanager
def limits_env(**values: int) -> Iterator[None]:
    """The ``SPACY_COREF_EVAL_*`` environment variables of
    :class:`~spacy_coref_eval.formats.inputs.InputLimits` fields set for the
    block (``batch_bytes=1``: ``SPACY_COREF_EVAL_BATCH_BYTES=1``), read
    where a run's options are built."""
    import os

    names = {f"SPACY_COREF_EVAL_{name.upper()}": str(value) for name, value in values.items()}
    saved = {name: os.environ.get(name) for name in names}
    os.environ.update(names)
    try:
        yield
    finally:
        for name, old in saved.items():
            if old is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = old


@contextmanager
def patched(modules: Any, name: str, value: Any) -> Iterator[None]:
    """``module.name`` set to ``value`` for the block, in one module or in
    each of a tuple of modules that import the name (a size threshold, to
    send small examples down the path meant for large ones)."""
    modules = modules if isinstance(modules, tuple) else (modules,)
    saved = [getattr(module, name) for module in modules]
    for module in modules:
        setattr(module, name, value)
    try:
        yield
    finally:
        for module, old in zip(modules, saved):
            setattr(module, name, old)


@contextmanager
def collector_paused() -> Iterator[None]:
    """The garbage collector disabled for the block. udapi's reader ends
    each read with a full ``gc.collect()`` when the collector is enabled:
    over the test process's heap, about 0.25 CPU-seconds a read, most of
    the CPU time of the udapi comparisons. What udapi leaves behind is
    freed by the collector's next ordinary pass instead."""
    import gc

    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


SHARED, KEY_ONLY, RESPONSE_ONLY = "shared", "key-only", "response-only"


def spans(max_token=12, max_width=4):
    """Token spans ``(start, end)`` inside ``[0, max_token)``."""
    return st.tuples(st.integers(0, max_token - 1), st.integers(1, max_width)).map(
        lambda pair: (pair[0], min(pair[0] + pair[1], max_token))
    )


@st.composite
def entities_over(draw, mentions, max_entities=None):
    """A random partition of ``mentions`` into at most ``max_entities``
    entities (default: as many as mentions)."""
    mentions = list(mentions)
    if not mentions:
        return []
    count = min(max_entities or len(mentions), len(mentions))
    labels = draw(st.lists(st.integers(0, count - 1), min_size=len(mentions), max_size=len(mentions)))
    groups = {}
    for mention, label in zip(mentions, labels):
        groups.setdefault(label, []).append(mention)
    return [groups[label] for label in sorted(groups)]


def mention_sets(min_mentions=0, max_mentions=10):
    """Distinct spans, as a list."""
    return st.lists(spans(), min_size=min_mentions, max_size=max_mentions, unique=True)


def partitions(min_mentions=0, max_mentions=10):
    """One side: a partition of distinct spans (singletons included)."""
    return mention_sets(min_mentions, max_mentions).flatmap(entities_over)


@st.composite
def key_response_pairs(draw, max_mentions=10, min_mentions=0, max_entities=None):
    """(key, response): each span is shared, key-only (missing from the
    response) or response-only (extra), and each side is partitioned
    independently. Covers empty key, empty response and both empty."""
    mentions = draw(mention_sets(min_mentions, max_mentions))
    roles = draw(st.lists(st.sampled_from([SHARED, SHARED, KEY_ONLY, RESPONSE_ONLY]), min_size=len(mentions), max_size=len(mentions)))
    key_mentions = [m for m, role in zip(mentions, roles) if role != RESPONSE_ONLY]
    response_mentions = [m for m, role in zip(mentions, roles) if role != KEY_ONLY]
    return (draw(entities_over(key_mentions, max_entities)), draw(entities_over(response_mentions, max_entities)))


@st.composite
def same_mention_pairs(draw, max_mentions=10):
    """(key, response) partitioning one mention set: no twinless mentions."""
    mentions = draw(mention_sets(0, max_mentions))
    return draw(entities_over(mentions)), draw(entities_over(mentions))


@st.composite
def corpora(draw, max_documents=4, max_mentions=8):
    """(keys, responses): mappings document name -> entities, same names."""
    pairs = draw(st.lists(key_response_pairs(max_mentions), min_size=1, max_size=max_documents))
    names = [f"doc{index}" for index in range(len(pairs))]
    keys = {name: key for name, (key, _) in zip(names, pairs)}
    responses = {name: response for name, (_, response) in zip(names, pairs)}
    return keys, responses


@st.composite
def shuffled(draw, entities):
    """The same partition with entities and mentions inside them reordered."""
    rng = draw(st.randoms(use_true_random=False))
    result = [list(entity) for entity in entities]
    for entity in result:
        rng.shuffle(entity)
    rng.shuffle(result)
    return result
