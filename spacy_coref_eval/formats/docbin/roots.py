"""spaCy's ``Span.root`` of many spans of one doc at once, from relative
dependency heads (the rules are in docs/formats.md)."""

import numpy as np

from ...errors import CorefInputError


def span_roots(rel_heads: np.ndarray, starts: np.ndarray, ends: np.ndarray) -> np.ndarray:
    """spaCy's ``Span.root`` token of every span ``[start, end)`` of a doc
    with relative heads ``rel_heads``: the first token that is its own
    head, else the first of the tokens whose head lies outside the span
    with the fewest steps to a root; an empty span gives its start. A head
    chain that never reaches a root (a cycle) is an error, as in spaCy
    (E039), when a span needs it."""
    n = len(rel_heads)
    positions = np.arange(n, dtype=np.int64)
    is_root = rel_heads == 0
    next_root = np.append(np.minimum.accumulate(np.where(is_root, positions, n)[::-1])[::-1], n)
    first_root = next_root[starts]
    roots = np.where(first_root < ends, first_root, starts)
    todo = np.flatnonzero((first_root >= ends) & (ends > starts))
    if len(todo) == 0:
        return roots
    parent = positions + rel_heads
    depth = _depths(parent, is_root)
    s, e = starts[todo], ends[todo]
    sizes = e - s
    first = np.cumsum(sizes) - sizes
    segment = np.repeat(np.arange(len(todo)), sizes)
    local = np.arange(int(sizes.sum())) - first[segment]
    tokens = s[segment] + local
    candidate = (parent[tokens] < s[segment]) | (parent[tokens] >= e[segment])
    if np.any(candidate & (depth[tokens] < 0)):
        token = int(tokens[np.argmax(candidate & (depth[tokens] < 0))])
        raise CorefInputError(f"the dependency heads from token {token} form a cycle and reach no root")
    width = int(sizes.max()) + 1
    key = np.where(candidate, depth[tokens], n) * width + local
    best = np.minimum.reduceat(key, first)
    best_depth, best_local = np.divmod(best, width)
    roots[todo] = np.where(best_depth < n, s + best_local, s)
    return roots


def _depths(parent: np.ndarray, is_root: np.ndarray) -> np.ndarray:
    """Steps from every token to its root by pointer doubling; -1 where the
    chain of heads never reaches a root."""
    n = len(parent)
    jump = np.where(is_root, np.arange(n), parent)
    steps = (~is_root).astype(np.int64)
    for _ in range(max(1, n.bit_length())):
        steps = steps + steps[jump]
        jump = jump[jump]
    return np.where(is_root[jump], steps, -1)
