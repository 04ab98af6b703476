"""Write CoNLL-UA (docs/ua.md, Writing): one ``# newdoc id`` per document,
the UA scorer's 15 columns, IDENTITY brackets with closings before
openings. A CoNLL-UA document is written with everything it holds (split
antecedents, minimum spans, non-referring entities, bridging, discourse
deixis); the documents of other formats with their entities (and CoNLL-U
``SplitAnte=`` links as ``ElementOf=``)."""

from collections.abc import Iterator, Sequence
from pathlib import Path

import numpy as np

from ...errors import CorefInputError
from ...files import open_output
from ...model.ua.layer import Layer
from ...model.ua.splitante import SplitClusters, split_layer
from ..document import SideDocument, check_written_name, conll_column, document_names, first_scattered
from .parse import BRIDGING, DISCOURSE_DEIXIS, IDENTITY

COLUMNS = (
    "ID",
    "FORM",
    "LEMMA",
    "UPOS",
    "XPOS",
    "FEATS",
    "HEAD",
    "DEPREL",
    "DEPS",
    "MISC",
    IDENTITY,
    BRIDGING,
    DISCOURSE_DEIXIS,
    "REFERENCE",
    "NOM_SEM",
)
Opening = tuple[int, int, str]
"""A markable to write: ``[start, end)`` and its fields ``KEY=VALUE|...``."""


def write_side(path: Path, documents: Sequence[SideDocument], inputs: Sequence[Path]) -> list[str]:
    """The documents as a CoNLL-UA file (the format's writer)."""
    names = document_names(documents)
    first_scattered(names, documents, "CoNLL-UA")
    with open_output(path, "w", inputs, make_parents=True) as out:
        out.write(f"# global.columns = {' '.join(COLUMNS)}\n")
        for name, document in zip(names, documents):
            check_written_name(name, "CoNLL-UA", unicode_lines=True)
            for line in format_document(name, document):
                out.write(line + "\n")
    return []


def format_document(name: str, document: SideDocument) -> Iterator[str]:
    """The lines of one document."""
    n = document.n_tokens
    source = getattr(document, "document", None)
    if source is not None and hasattr(source, "identity"):
        identity = layer_openings(source.identity)
        deixis = layer_openings(source.deixis)
        bridging = bridging_cells(source.identity, n)
    elif isinstance(document.clusters, SplitClusters):
        identity = layer_openings(split_layer(document.clusters))
        deixis, bridging = [], ["_"] * n
    else:
        identity = cluster_openings(document)
        deixis, bridging = [], ["_"] * n
    cells = [markable_cells(openings, n, name, column=column) for openings, column in ((identity, IDENTITY), (deixis, DISCOURSE_DEIXIS))]
    words = list(document.words)
    starts = set(int(s) for s in document.sentence_starts) | {0}
    yield f"# newdoc id = {name}"
    sentence = 0
    for t in range(n):
        if t in starts:
            if t:
                yield ""
            sentence += 1
            yield f"# sent_id = {name}-{sentence}"
            number = 0
        number += 1
        word = conll_column(words[t]) if t < len(words) else "_"
        yield "\t".join([str(number), word] + ["_"] * 8 + [cells[0][t], bridging[t], cells[1][t], "_", "_"])
    yield ""


def cluster_openings(document: SideDocument) -> list[Opening]:
    """The markables of a document's clusters: entity ``e`` has the id
    ``e+1``, markables are numbered in order of their starts."""
    clusters = document.clusters
    order = np.lexsort((-clusters.ends, clusters.starts))
    return [
        (int(clusters.starts[m]), int(clusters.ends[m]), f"EntityID={int(clusters.entity[m]) + 1}|MarkableID=markable_{i + 1}")
        for i, m in enumerate(order.tolist())
    ]


def layer_openings(layer: Layer) -> list[Opening]:
    """The markables of a read CoNLL-UA layer, with their fields."""
    plurals: dict[int, list[str]] = {}
    for entity, of in enumerate(layer.element_of):
        plurals[entity] = [layer.entity_ids[p] for p in of]
    out = []
    for m in layer.markables:
        fields = f"EntityID={layer.entity_ids[m.entity]}|MarkableID={m.markable_id}"
        if m.min_span is not None and m.min_span[0] >= 0:
            first, last = m.min_span[0] + 1, m.min_span[1]
            fields += f"|Min={first}" + (f",{last}" if last != first else "")
        if plurals[m.entity]:
            fields += f"|ElementOf={','.join(plurals[m.entity])}"
        out.append((m.start, m.end, fields))
    return out


def bridging_cells(layer: Layer, n: int) -> list[str]:
    """The BRIDGING column: each pair on its anaphor's last token."""
    cells: list[list[str]] = [[] for _ in range(n)]
    for anaphor, anchor in layer.bridging:
        a = layer.markables[anaphor]
        cells[a.end - 1].append(f"(MarkableID={a.markable_id}|MentionAnchor={layer.markables[anchor].markable_id})")
    return ["".join(c) or "_" for c in cells]


def markable_cells(openings: Sequence[Opening], n: int, name: str, *, column: str) -> list[str]:
    """One cell per token: closings, then openings (outer first); a
    one-token markable closes itself. Markables must nest, as one ``)``
    closes the most recently opened markable."""
    order = sorted(openings, key=lambda o: (o[0], -o[1]))
    stack: list[int] = []
    opens: list[list[str]] = [[] for _ in range(n)]
    closes = [0] * n
    for start, end, fields in order:
        while stack and stack[-1] <= start:
            stack.pop()
        if stack and end > stack[-1]:
            raise CorefInputError(
                f"document {name!r}: markable [{start}, {end}) ({fields}) crosses another without nesting; "
                f"CoNLL-UA's {column} brackets cannot express that"
            )
        if end - start == 1:
            opens[start].append(f"({fields})")
        else:
            opens[start].append(f"({fields}")
            closes[end - 1] += 1
            stack.append(end)
    return [(")" * closes[t] + "".join(opens[t])) or "_" for t in range(n)]
