"""Random CorefUD CoNLL-U files for the reader's tests: documents with
nested, same-start, one-word, crossing and discontinuous mentions,
multiword tokens, empty nodes, comments, ``# global.Entity`` variants and
(``junk``) malformed values."""

from hypothesis import strategies as st

HEADERS = ["eid-etype-head-other", "GRP-etype-infstat-salience", "eid-etype", "etype-eid-head", "entity-GRP-x-head", "eid", "eid-head"]
EIDS = ["e1", "e2", "e3", "7", "12", "c8", "a_rather_long_entity_id"]
ETYPES = ["person", "", "place", "organization", "ünï"]
HEADS = ["0", "+1", "01", "x", "", "١", "123456789"]
JUNK = [
    "(",
    ")",
    "()",
    "((e1",
    "e9)",
    "(e1-x-1-)e1)",
    "\x00",
    " ",
    "(e 1)",
    "(=)",
    "(e1[1/2]-x-1)",
    "(-x-1)",
    "e1-x)",
    "(e1-x-99-)",
    "e1)(",
    "(e1",
    "[",
]
MISC_OTHER = ["SpaceAfter=No", "Bridge=e1<e2", "SplitAnte=e1<e3", "Split=e2<e3", "MSeg=a-b"]


@st.composite
def mention_chunks(draw, fields: list[str], n_nodes: int, junk: bool):
    """Openings and closings of random mentions over ``n_nodes`` nodes, by
    node: nested, same-start, one-node and crossing ones, sometimes
    discontinuous, heads sometimes odd."""
    openings: list[list[str]] = [[] for _ in range(n_nodes)]
    closings: list[list[str]] = [[] for _ in range(n_nodes)]
    singles: list[list[str]] = [[] for _ in range(n_nodes)]
    for _ in range(draw(st.integers(0, 2 * n_nodes))):
        start = draw(st.integers(0, n_nodes - 1))
        last = draw(st.integers(start, min(start + 4, n_nodes - 1)))
        eid = draw(st.sampled_from(EIDS))
        size = last - start + 1
        head = str(draw(st.integers(1, size)))
        if junk and draw(st.integers(0, 9)) == 0:
            head = draw(st.sampled_from(HEADS + [str(size + 1)]))
        elif draw(st.integers(0, 5)) == 0:
            head = "0" * draw(st.integers(1, 2)) + head
        split = size > 2 and draw(st.integers(0, 14)) == 0
        values = {"eid": eid, "GRP": eid, "etype": draw(st.sampled_from(ETYPES)), "head": head}
        values["entity"] = values["etype"]
        body = [values.get(name, draw(st.sampled_from(["x", "new", "acc:com"]))) for name in fields]
        shortest = 1 if junk else 1 + max(i for i, name in enumerate(fields) if name in ("eid", "GRP"))
        if draw(st.integers(0, 7)) == 0:
            body = body[: draw(st.integers(shortest, len(body)))]
        if split:
            first = "-".join([f"{eid}[1/2]" if f in ("eid", "GRP") else v for f, v in zip(fields, body)])
            second = "-".join([f"{eid}[2/2]" if f in ("eid", "GRP") else v for f, v in zip(fields, body)])
            singles[start].append(f"({first})")
            singles[last].append(f"({second})")
        elif start == last:
            singles[start].append(f"({'-'.join(body)})")
        else:
            openings[start].append(f"({'-'.join(body)}")
            closings[last].insert(0, f"{eid})")
    out = []
    for node in range(n_nodes):
        chunks = closings[node] + openings[node] + singles[node]
        if junk and draw(st.integers(0, 9)) == 0:
            chunks = draw(st.permutations(chunks))
        if junk and draw(st.integers(0, 29)) == 0:
            chunks = list(chunks)
            chunks.insert(draw(st.integers(0, len(chunks))), draw(st.sampled_from(JUNK)))
        out.append("".join(chunks))
    return out


@st.composite
def conllu_texts(draw, junk: bool = False):
    """CoNLL-U files of up to three documents."""
    lines: list[str] = []
    for d in range(draw(st.integers(0, 3))):
        newdoc = draw(st.sampled_from([f"# newdoc id = d{d}", "# newdoc", f"# newdoc id =  d{d} ", None]))
        if newdoc is not None and (d or draw(st.booleans())):
            lines.append(newdoc)
        header = draw(st.sampled_from(HEADERS))
        with_empty = draw(st.booleans())
        if not junk or draw(st.integers(0, 14)):
            lines.append(f"# global.Entity = {header}")
        for s in range(draw(st.integers(1, 3))):
            sent_id = draw(
                st.sampled_from(
                    [f"# sent_id = d{d}s{s}", f"# sent_id=d{d}-{s}", "# sent_id", "#sent_id = z", f"# sent_id = d{d}s{s} extra", None]
                )
            )
            if sent_id is not None:
                lines.append(sent_id)
            lines.append(f"# text = sentence {s}")
            rows = _rows(draw, header.split("-"), junk, with_empty)
            lines.extend(rows)
            lines.append("")
    return "\n".join(lines) + ("\n" if draw(st.booleans()) else "")


def _rows(draw, fields: list[str], junk: bool, with_empty: bool) -> list[str]:
    """Token lines of one sentence: words, multiword ranges before some
    words and (``with_empty``) empty nodes after some, with mentions over
    words and empty nodes."""
    n_words = draw(st.integers(1, 6))
    ids = []
    for word in range(1, n_words + 1):
        if word < n_words and draw(st.integers(0, 4)) == 0:
            ids.append(f"{word}-{word + 1}")
        ids.append(str(word))
        for minor in range(1, draw(st.sampled_from([0] * 8 + [1, 2])) + 1 if with_empty else 1):
            ids.append(f"{word}.{minor}")
    nodes = [i for i, ident in enumerate(ids) if "-" not in ident]
    chunks = draw(mention_chunks(fields, len(nodes), junk))
    entity = {row: value for row, value in zip(nodes, chunks)}
    if junk and draw(st.integers(0, 19)) == 0:
        ranges = [i for i, ident in enumerate(ids) if "-" in ident]
        if ranges:
            entity[ranges[0]] = "(e1-x-1-)"
    rows = []
    for i, ident in enumerate(ids):
        items = [f"Entity={entity[i]}"] if entity.get(i) else []
        items += draw(st.lists(st.sampled_from(MISC_OTHER), max_size=2, unique=True))
        items = draw(st.permutations(items))
        misc = "|".join(items) or "_"
        deps = "_" if "." not in ident else draw(st.sampled_from(["_", "1:nsubj", "2.1:obj|1:x"]))
        form = draw(st.sampled_from(["w", "Wort", "ünï", "(", "e1)", "x-y"]))
        rows.append("\t".join([ident, form, "_", "X", "x", "Number=Sing|Case=Nom", "0", "_", deps, misc]))
    if junk and draw(st.integers(0, 199)) == 0:
        rows.insert(draw(st.integers(1, len(rows))), "# comment inside")
    return rows
