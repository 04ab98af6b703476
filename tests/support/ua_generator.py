"""Seeded random generator of CoNLL-UA key/response pairs, for the tests
(written for this project with its UA fixtures; tests/compat/ua/test_ua_random.py).

Pure Python, standard library only, deterministic for a given (seed, params).

    python gen_ua.py --seed 7 --tokens 80 --docs 2 --key K.conllua --sys S.conllua
    python gen_ua.py --seed 7 --print-params

As a module:
    from gen_ua import generate_pair, DEFAULTS
    key_text, sys_text, meta = generate_pair(seed=7, n_tokens=80)

What a key contains (per document):
  * identity markables (IDENTITY column) with properly nested (laminar) spans,
    chains and singletons, occasionally two markables of different entities on
    exactly the same span;
  * non-referring entities (EntityID ends in "-Pseudo"), mostly one markable,
    sometimes two;
  * split-antecedent plurals: an entity P whose antecedents are 2-3 other
    entities; a markable of each antecedent entity carries ElementOf=P
    (ElementOf=P,Q when it is an element of two plurals); sometimes a plural
    of plurals (an antecedent is itself a plural) and sometimes two plurals
    with the same antecedent set; never cyclic, never self-referential;
  * Min=a or Min=a,b (1-based document token ids, inside the markable);
  * bridging entries (MarkableID=anaphor|MentionAnchor=anchor) in the
    BRIDGING column, always bracketed, anchor != anaphor, both existing;
  * discourse-deixis chains (DISCOURSE_DEIXIS column): a longer antecedent
    segment plus 1-2 short anaphors, plus a few DD singletons.
The response is derived from the key by perturbation: dropped, added and
boundary-shifted markables, merged / split entities, moved markables,
flipped non-referring status, changed / dropped / added split antecedents,
changed bridging anchors, perturbed DD chains, and (ignored by the scorer)
Min values on response markables.

Default output is valid for the UA scorer in every mode except that
remove_singletons needs remove_split_antecedent whenever a plural exists
(set plural_rate=0 to get documents without plurals).
`edge=` produces deliberately problematic input: crossing, min_range,
unclosed, stray_close, missing_doc, cycle (the scorer hangs on `cycle`!).
"""

import argparse
import json
import random

DEFAULTS = dict(
    n_docs=1,  # documents per file
    n_tokens=60,  # tokens per document (approx., whole sentences)
    mention_density=0.35,  # identity markable attempts per token
    max_len=6,  # longest markable (tokens)
    p_same_span=0.03,  # chance a new markable duplicates an existing extent (other entity)
    p_new_entity=0.45,  # chance a markable starts a new entity
    p_pseudo=0.10,  # chance a new entity is non-referring (-Pseudo)
    plural_rate=0.12,  # plurals per entity
    p_plural_of_plural=0.35,
    p_same_antecedents=0.25,  # chance to add a second plural with the same antecedent set
    p_min=0.5,  # chance a key markable has Min=
    bridging_rate=0.10,  # bridging anaphors per markable
    dd_chains=2,  # discourse-deixis chains per document
    dd_singletons=1,
    sep="tab",  # tab | space | mixed
    # response perturbation
    p_drop=0.12,
    p_add=0.10,
    p_shift=0.10,
    p_merge=0.08,
    p_split=0.10,
    p_move=0.05,
    p_pseudo_flip=0.25,
    p_plural_change=0.5,
    p_new_plural=0.3,
    p_bridge_change=0.3,
    p_bridge_drop=0.15,
    p_bridge_add=0.05,
    p_bridge_dangling=0.0,
    p_dd_drop=0.15,
    p_dd_shift=0.15,
    p_dd_merge=0.2,
    p_sys_min=0.15,
    sys_identical=False,  # response == key (sanity)
    edge=None,
)

WORDS = (
    "the a man woman dog it they them he she this that house city river "
    "said went saw big old new report plan idea we you of in on and".split()
)

COLUMNS = "ID FORM LEMMA UPOS XPOS FEATS HEAD DEPREL DEPS MISC IDENTITY BRIDGING DISCOURSE_DEIXIS REFERENCE NOM_SEM"


# ----------------------------------------------------------------------------
# span helpers


def crosses(a, b):
    """True when spans a, b overlap without one containing the other."""
    (s1, e1), (s2, e2) = a, b
    if e1 < s2 or e2 < s1:
        return False
    if (s1 <= s2 and e2 <= e1) or (s2 <= s1 and e1 <= e2):
        return False
    return True


def laminar_ok(span, spans, allow_identical):
    for t in spans:
        if t == span:
            if not allow_identical:
                return False
        elif crosses(span, t):
            return False
    return True


class Doc:
    def __init__(self, name, forms, sent_lens):
        self.name = name
        self.forms = forms
        self.sent_lens = sent_lens
        self.marks = []  # dicts: id, start, end, ent, min
        self.pseudo = set()  # entity ids that are non-referring
        self.plurals = {}  # plural entity -> list of member entities
        self.elem_marks = {}  # (member entity, plural) -> markable id carrying ElementOf
        self.bridges = {}  # anaphor markable id -> anchor markable id
        self.dd = []  # dd markables dicts: id, start, end, ent, min
        self.dd_pseudo = set()

    def n(self):
        return len(self.forms)

    def sentence_of(self):
        out = []
        for si, L in enumerate(self.sent_lens):
            out += [si] * L
        return out

    def sentence_bounds(self):
        b, s = [], 0
        for L in self.sent_lens:
            b.append((s, s + L - 1))
            s += L
        return b


def _rand_len(rng, max_len):
    r = rng.random()
    if r < 0.45:
        return 1
    if r < 0.65:
        return 2
    if r < 0.77:
        return 3
    return rng.randint(min(4, max_len), max_len)


def _entity_sizes(marks):
    sz = {}
    for m in marks:
        sz[m["ent"]] = sz.get(m["ent"], 0) + 1
    return sz


def ent_name(doc, e):
    return "%s-Pseudo" % e if e in doc.pseudo else str(e)


def dd_ent_name(doc, e):
    return "%s-Pseudo" % e if e in doc.dd_pseudo else str(e)


# ----------------------------------------------------------------------------
# key generation


def _make_spans(rng, doc, density, max_len, p_same):
    n = doc.n()
    bounds = doc.sentence_bounds()
    sent = doc.sentence_of()
    spans = []
    attempts = max(1, int(round(density * n)))
    for _ in range(attempts):
        if spans and rng.random() < p_same:
            sp = rng.choice(spans)
            spans.append(sp)
            continue
        s = rng.randrange(n)
        L = _rand_len(rng, max_len)
        e = min(s + L - 1, bounds[sent[s]][1])
        sp = (s, e)
        if laminar_ok(sp, spans, allow_identical=False):
            spans.append(sp)
    spans.sort(key=lambda x: (x[0], -x[1]))
    return spans


def _descendants(plurals, p, seen=None):
    """All entities reachable from plural p through member links."""
    seen = set() if seen is None else seen
    for m in plurals.get(p, []):
        if m not in seen:
            seen.add(m)
            _descendants(plurals, m, seen)
    return seen


def _would_cycle(plurals, p, member):
    if member == p:
        return True
    return p in _descendants(plurals, member)


def _acyclic(plurals):
    for p in plurals:
        if p in _descendants(plurals, p):
            return False
    return True


def _add_min(rng, m, p):
    if rng.random() >= p:
        m["min"] = None
        return
    s, e = m["start"], m["end"]
    a = rng.randint(s, e)
    b = a if (rng.random() < 0.6 or a == e) else rng.randint(a, min(e, a + 1))
    m["min"] = (a, b)


def make_key_doc(rng, name, P):
    forms, lens = [], []
    total = 0
    while total < P["n_tokens"]:
        L = rng.randint(4, 14)
        lens.append(L)
        total += L
    forms = [rng.choice(WORDS) for _ in range(total)]
    doc = Doc(name, forms, lens)
    spans = _make_spans(rng, doc, P["mention_density"], P["max_len"], P["p_same_span"])
    next_ent = 1
    sizes = {}
    for i, (s, e) in enumerate(spans):
        # never give the same entity to two markables with the same extent
        same = {m["ent"] for m in doc.marks if (m["start"], m["end"]) == (s, e)}
        ents = [x for x in sizes if x not in same]
        if not ents or rng.random() < P["p_new_entity"]:
            ent = next_ent
            next_ent += 1
            if rng.random() < P["p_pseudo"]:
                doc.pseudo.add(ent)
        else:
            w = [(0.15 if x in doc.pseudo else sizes[x]) for x in ents]
            ent = rng.choices(ents, weights=w)[0]
        sizes[ent] = sizes.get(ent, 0) + 1
        m = {"id": "markable_%d" % (i + 1), "start": s, "end": e, "ent": ent}
        _add_min(rng, m, P["p_min"])
        doc.marks.append(m)
    # plurals
    referring = sorted(x for x in sizes if x not in doc.pseudo)
    n_pl = sum(1 for _ in referring if rng.random() < P["plural_rate"])
    for _ in range(n_pl):
        cands = [x for x in referring if x not in doc.plurals]
        if len(cands) < 3:
            break
        p = rng.choice(cands)
        k = rng.choice([2, 2, 3])
        pool = [x for x in referring if x != p and not _would_cycle(doc.plurals, p, x)]
        plural_pool = [x for x in pool if x in doc.plurals]
        atomic_pool = [x for x in pool if x not in doc.plurals]
        members = []
        if plural_pool and rng.random() < P["p_plural_of_plural"]:
            members.append(rng.choice(plural_pool))
        rng.shuffle(atomic_pool)
        for x in atomic_pool:
            if len(members) >= k:
                break
            if x not in members:
                members.append(x)
        if len(members) < 2:
            continue
        doc.plurals[p] = sorted(members)
        if not _acyclic(doc.plurals):
            del doc.plurals[p]
            continue
        if rng.random() < P["p_same_antecedents"]:
            q_c = [x for x in referring if x not in doc.plurals and x not in members and x != p]
            if q_c:
                q = rng.choice(q_c)
                doc.plurals[q] = list(doc.plurals[p])
                if not _acyclic(doc.plurals):
                    del doc.plurals[q]
    _assign_element_marks(rng, doc)
    # bridging
    for i, m in enumerate(doc.marks):
        if i == 0 or m["ent"] in doc.pseudo:
            continue
        if rng.random() < P["bridging_rate"]:
            cands = [x for x in doc.marks[:i] if x["ent"] != m["ent"] and x["id"] != m["id"]]
            if cands:
                doc.bridges[m["id"]] = rng.choice(cands)["id"]
    # discourse deixis
    _make_dd(rng, doc, P)
    return doc


def _assign_element_marks(rng, doc):
    doc.elem_marks = {}
    by_ent = {}
    for m in doc.marks:
        by_ent.setdefault(m["ent"], []).append(m["id"])
    for p in sorted(doc.plurals):
        for x in doc.plurals[p]:
            if x in by_ent:
                doc.elem_marks[(x, p)] = rng.choice(by_ent[x])


def _make_dd(rng, doc, P):
    n = doc.n()
    ent = 1
    for _ in range(P["dd_chains"]):
        for _try in range(10):
            s = rng.randrange(max(1, n - 8))
            e = min(n - 2, s + rng.randint(2, 8))
            if e < s:
                continue
            if laminar_ok((s, e), [(d["start"], d["end"]) for d in doc.dd], False):
                break
        else:
            continue
        doc.dd.append({"start": s, "end": e, "ent": ent})
        for _k in range(rng.choice([1, 1, 2])):
            a = rng.randint(min(e + 1, n - 1), n - 1)
            sp = (a, a)
            if laminar_ok(sp, [(d["start"], d["end"]) for d in doc.dd], False):
                doc.dd.append({"start": a, "end": a, "ent": ent})
        ent += 1
    for _ in range(P["dd_singletons"]):
        s = rng.randrange(n)
        e = min(n - 1, s + rng.randint(0, 3))
        if laminar_ok((s, e), [(d["start"], d["end"]) for d in doc.dd], False):
            doc.dd.append({"start": s, "end": e, "ent": ent})
            ent += 1
    doc.dd.sort(key=lambda d: (d["start"], -d["end"]))
    for i, d in enumerate(doc.dd):
        d["id"] = "dd_%d" % (i + 1)
        _add_min(rng, d, P["p_min"] * 0.5)


# ----------------------------------------------------------------------------
# response generation


def _copy_doc(doc):
    d = Doc(doc.name, list(doc.forms), list(doc.sent_lens))
    d.marks = [dict(m) for m in doc.marks]
    d.pseudo = set(doc.pseudo)
    d.plurals = {p: list(v) for p, v in doc.plurals.items()}
    d.elem_marks = dict(doc.elem_marks)
    d.bridges = dict(doc.bridges)
    d.dd = [dict(x) for x in doc.dd]
    d.dd_pseudo = set(doc.dd_pseudo)
    return d


def _perturb_layer(rng, marks, n, p_drop, p_shift, p_add, max_len, new_ent, allow_identical=True):
    """Drop / shift / add markables of one layer; returns new list (with 'src')."""
    out = []
    for m in marks:
        if rng.random() < p_drop:
            continue
        mm = dict(m)
        mm["src"] = m["id"]
        out.append(mm)
    for mm in out:
        if rng.random() < p_shift:
            s, e = mm["start"], mm["end"]
            if rng.random() < 0.5:
                s = max(0, min(e, s + rng.choice([-1, 1])))
            else:
                e = min(n - 1, max(s, e + rng.choice([-1, 1])))
            others = [(o["start"], o["end"]) for o in out if o is not mm]
            if laminar_ok((s, e), others, allow_identical):
                mm["start"], mm["end"] = s, e
    n_add = int(round(p_add * max(1, len(marks))))
    for _ in range(n_add):
        s = rng.randrange(n)
        e = min(n - 1, s + _rand_len(rng, max_len) - 1)
        others = [(o["start"], o["end"]) for o in out]
        if not laminar_ok((s, e), others, False):
            continue
        ents = sorted({o["ent"] for o in out})
        if ents and rng.random() < 0.5:
            ent = rng.choice(ents)
        else:
            ent = new_ent()
        out.append({"id": None, "src": None, "start": s, "end": e, "ent": ent, "min": None})
    return out


def make_sys_doc(rng, key, P):
    if P["sys_identical"]:
        return _copy_doc(key)
    d = Doc(key.name, list(key.forms), list(key.sent_lens))
    n = d.n()
    counter = [max([m["ent"] for m in key.marks] + [0]) + 1]

    def new_ent():
        counter[0] += 1
        return counter[0] - 1

    marks = _perturb_layer(rng, key.marks, n, P["p_drop"], P["p_shift"], P["p_add"], P["max_len"], new_ent)
    pseudo = set(key.pseudo)
    # entity structure: merge, split, move
    ents = sorted({m["ent"] for m in marks})
    emap = {e: e for e in ents}
    for e in ents:
        if rng.random() < P["p_merge"] and len(ents) > 1:
            other = rng.choice(ents)
            if other != e and (e in pseudo) == (other in pseudo):
                for x in emap:
                    if emap[x] == e:
                        emap[x] = emap[other]
    for m in marks:
        m["ent"] = emap.get(m["ent"], m["ent"])
    sizes = _entity_sizes(marks)
    for e in sorted(sizes):
        if sizes[e] >= 2 and rng.random() < P["p_split"]:
            ne = new_ent()
            if e in pseudo:
                pseudo.add(ne)
            members = [m for m in marks if m["ent"] == e]
            for m in members[1:]:
                if rng.random() < 0.5:
                    m["ent"] = ne
    ents = sorted({m["ent"] for m in marks})
    for m in marks:
        if rng.random() < P["p_move"] and len(ents) > 1:
            m["ent"] = rng.choice(ents)
    # no two markables with the same extent in the same entity unless merged there
    # (this can still happen through merges: it is a legitimate quirk to exercise)
    # pseudo flips
    sizes = _entity_sizes(marks)
    for e in sorted(sizes):
        if rng.random() < P["p_pseudo_flip"] * (1.0 if e in pseudo else 0.3):
            if e in pseudo:
                pseudo.discard(e)
            elif sizes[e] == 1:
                pseudo.add(e)
    d.pseudo = {e for e in pseudo if e in sizes}
    # ids
    marks.sort(key=lambda m: (m["start"], -m["end"]))
    src2id = {}
    for i, m in enumerate(marks):
        m["id"] = "markable_%d" % (i + 1)
        if m.get("src"):
            src2id[m["src"]] = m["id"]
        if rng.random() < P["p_sys_min"]:
            _add_min(rng, m, 1.0)
        else:
            m["min"] = None
    d.marks = [{k: m[k] for k in ("id", "start", "end", "ent", "min")} for m in marks]
    id2ent = {m["id"]: m["ent"] for m in d.marks}
    # plurals: map key relations through surviving markables
    key_first = {}
    for m in key.marks:
        if m["id"] in src2id:
            key_first.setdefault(m["ent"], src2id[m["id"]])
    plurals = {}
    for p in sorted(key.plurals):
        if p not in key_first:
            continue
        sp = id2ent[key_first[p]]
        mem = []
        for x in key.plurals[p]:
            if x in key_first:
                sx = id2ent[key_first[x]]
                if sx not in mem:
                    mem.append(sx)
        if rng.random() < P["p_plural_change"]:
            op = rng.choice(["drop", "remove", "add", "replace"])
            all_e = sorted(e for e in id2ent.values() if e not in d.pseudo)
            all_e = sorted(set(all_e))
            if op == "drop":
                continue
            if op == "remove" and len(mem) > 2:
                mem.pop(rng.randrange(len(mem)))
            elif op == "add" and all_e:
                mem.append(rng.choice(all_e))
            elif op == "replace" and all_e and mem:
                mem[rng.randrange(len(mem))] = rng.choice(all_e)
        mem = sorted(set(x for x in mem if x != sp))
        if len(mem) >= 2 or (len(mem) == 1 and rng.random() < 0.2):
            plurals.setdefault(sp, [])
            for x in mem:
                if x not in plurals[sp]:
                    plurals[sp].append(x)
    if rng.random() < P["p_new_plural"]:
        all_e = sorted(set(e for e in id2ent.values() if e not in d.pseudo))
        if len(all_e) >= 3:
            sp = rng.choice(all_e)
            mem = rng.sample([x for x in all_e if x != sp], 2)
            plurals.setdefault(sp, [])
            plurals[sp] = sorted(set(plurals[sp]) | set(mem))
    # remove cycles / self links
    for p in sorted(plurals):
        plurals[p] = sorted(x for x in plurals[p] if x != p)
        ok = []
        for x in plurals[p]:
            plurals[p] = ok + [x]
            if _acyclic(plurals):
                ok.append(x)
        plurals[p] = ok
        if not ok:
            del plurals[p]
    d.plurals = plurals
    _assign_element_marks(rng, d)
    # bridging
    ids = [m["id"] for m in d.marks]
    for ana, anc in sorted(key.bridges.items()):
        if rng.random() < P["p_bridge_drop"]:
            continue
        if ana not in src2id:
            continue
        a = src2id[ana]
        if anc in src2id and rng.random() >= P["p_bridge_change"]:
            b = src2id[anc]
        elif anc not in src2id and rng.random() < P["p_bridge_dangling"]:
            b = "markable_missing_%s" % anc.split("_")[-1]
        else:
            cands = [x for x in ids if x != a]
            if not cands:
                continue
            b = rng.choice(cands)
        if a != b:
            d.bridges[a] = b
    for i, m in enumerate(d.marks):
        if i > 0 and rng.random() < P["p_bridge_add"] and m["id"] not in d.bridges:
            b = rng.choice(ids[:i])
            if b != m["id"]:
                d.bridges[m["id"]] = b
    # discourse deixis
    dd_counter = [max([x["ent"] for x in key.dd] + [0]) + 1]

    def new_dd():
        dd_counter[0] += 1
        return dd_counter[0] - 1

    dd = _perturb_layer(rng, key.dd, n, P["p_dd_drop"], P["p_dd_shift"], 0.0, 6, new_dd, allow_identical=False)
    dd_ents = sorted({x["ent"] for x in dd})
    if len(dd_ents) > 1 and rng.random() < P["p_dd_merge"]:
        a, b = rng.sample(dd_ents, 2)
        for x in dd:
            if x["ent"] == a:
                x["ent"] = b
    dd.sort(key=lambda x: (x["start"], -x["end"]))
    for i, x in enumerate(dd):
        x["id"] = "dd_%d" % (i + 1)
        x["min"] = None
    d.dd = [{k: x[k] for k in ("id", "start", "end", "ent", "min")} for x in dd]
    return d


# ----------------------------------------------------------------------------
# writing


def _layer_cells(n, marks, fields_of):
    closes = [0] * n
    opens = [[] for _ in range(n)]
    for m in marks:
        if m["end"] > m["start"]:
            closes[m["end"]] += 1
        opens[m["start"]].append(m)
    cells = []
    for t in range(n):
        parts = [")" * closes[t]]
        # outermost first so that the reader's stack closes the innermost first
        for m in sorted(opens[t], key=lambda m: (-m["end"], m["id"])):
            body = "(" + fields_of(m)
            if m["end"] == m["start"]:
                body += ")"
            parts.append(body)
        cell = "".join(parts)
        cells.append(cell if cell else "_")
    return cells


def _min_str(mn):
    if mn is None:
        return None
    a, b = mn
    return "Min=%d" % (a + 1) if a == b else "Min=%d,%d" % (a + 1, b + 1)


def write_doc(doc, rng_sep, sep_mode, edge=None):
    n = doc.n()
    elem_of = {}
    for (_x, p), mid in sorted(doc.elem_marks.items(), key=lambda kv: (str(kv[0]), kv[1])):
        elem_of.setdefault(mid, []).append(str(p))

    def ident_fields(m):
        f = ["EntityID=%s" % ent_name(doc, m["ent"]), "MarkableID=%s" % m["id"]]
        ms = _min_str(m.get("min"))
        if ms:
            f.append(ms)
        f.append("SemType=%s" % ("do" if m["ent"] not in doc.pseudo else "dn"))
        if m["id"] in elem_of:
            f.append("ElementOf=%s" % ",".join(sorted(set(elem_of[m["id"]]), key=lambda s: (len(s), s))))
        return "|".join(f)

    def dd_fields(m):
        f = ["EntityID=%s" % dd_ent_name(doc, m["ent"]), "MarkableID=%s" % m["id"]]
        ms = _min_str(m.get("min"))
        if ms:
            f.append(ms)
        return "|".join(f)

    ident = _layer_cells(n, doc.marks, ident_fields)
    ddc = _layer_cells(n, doc.dd, dd_fields)
    starts = {m["id"]: m["start"] for m in doc.marks}
    bridg = [[] for _ in range(n)]
    for ana, anc in sorted(doc.bridges.items()):
        bridg[starts[ana]].append("(MarkableID=%s|MentionAnchor=%s)" % (ana, anc))
    bcells = ["".join(b) if b else "_" for b in bridg]
    lines = ["# newdoc id = %s" % doc.name]
    t = 0
    for si, L in enumerate(doc.sent_lens):
        lines.append("# sent_id = %s-%d" % (doc.name, si + 1))
        lines.append("# text = %s" % " ".join(doc.forms[t : t + L]))
        for j in range(L):
            cols = [str(j + 1), doc.forms[t], "_", "_", "_", "_", "_", "_", "_", "_", ident[t], bcells[t], ddc[t], "_", "_"]
            if sep_mode == "tab":
                sep = "\t"
            elif sep_mode == "space":
                sep = "  "
            else:
                sep = rng_sep.choice(["\t", " ", "   "])
            lines.append(sep.join(cols))
            t += 1
        lines.append("")
    return "\n".join(lines) + "\n"


def _apply_edge(rng, key_docs, sys_docs, edge):
    """Mutate documents to produce a deliberately problematic input."""
    if edge is None:
        return
    k = key_docs[0]
    if edge == "crossing":
        # add a crossing pair of markables (the reader silently mis-assigns ends)
        n = k.n()
        s = n // 2
        new_e = max(m["ent"] for m in k.marks) + 1
        k.marks.append({"id": "markable_x1", "start": s, "end": s + 2, "ent": new_e, "min": None})
        k.marks.append({"id": "markable_x2", "start": s + 1, "end": s + 3, "ent": new_e, "min": None})
    elif edge == "cycle":
        ents = sorted({m["ent"] for m in k.marks if m["ent"] not in k.pseudo})
        if len(ents) >= 2:
            k.plurals = {ents[0]: [ents[1]], ents[1]: [ents[0]]}
            _assign_element_marks(rng, k)
    elif edge == "missing_doc":
        if len(sys_docs) > 1:
            sys_docs.pop()
    elif edge in ("min_range", "unclosed", "stray_close"):
        pass  # handled on the text
    else:
        raise ValueError("unknown edge kind %r" % edge)


def _apply_edge_text(rng, key_text, edge):
    lines = key_text.split("\n")
    if edge == "min_range":
        for i, l in enumerate(lines):
            if "Min=" in l and not l.startswith("#"):
                import re

                lines[i] = re.sub(r"Min=(\d+)(,(\d+))?", lambda mo: "Min=%s-%s" % (mo.group(1), mo.group(3) or mo.group(1)), l, count=1)
                break
    elif edge == "unclosed":
        for i, l in enumerate(lines):
            cols = l.split("\t") if "\t" in l else l.split()
            if len(cols) > 10 and cols[10] != "_" and cols[10].startswith("(") and cols[10].endswith(")"):
                cols[10] = cols[10][:-1]
                lines[i] = "\t".join(cols)
                break
    elif edge == "stray_close":
        for i, l in enumerate(lines):
            cols = l.split("\t") if "\t" in l else l.split()
            if len(cols) > 10 and cols[10] == "_":
                cols[10] = "-"
                lines[i] = "\t".join(cols)
                break
    return "\n".join(lines)


def generate_pair(seed=0, **params):
    P = dict(DEFAULTS)
    unknown = set(params) - set(P)
    if unknown:
        raise ValueError("unknown parameters: %s" % sorted(unknown))
    P.update(params)
    rng = random.Random(seed)
    key_docs, sys_docs = [], []
    for di in range(P["n_docs"]):
        name = "gen_s%d_d%d" % (seed, di + 1)
        kd = make_key_doc(rng, name, P)
        key_docs.append(kd)
    for kd in key_docs:
        sys_docs.append(make_sys_doc(rng, kd, P))
    _apply_edge(rng, key_docs, sys_docs, P["edge"])
    rs = random.Random(seed * 7919 + 1)
    header = "# global.columns = %s\n" % COLUMNS
    key_text = header + "".join(write_doc(d, rs, P["sep"]) for d in key_docs)
    sys_text = header + "".join(write_doc(d, rs, P["sep"]) for d in sys_docs)
    if P["edge"] in ("min_range", "unclosed", "stray_close"):
        key_text = _apply_edge_text(rng, key_text, P["edge"])
    meta = {"seed": seed, "params": P, "stats": {"key": [_stats(d) for d in key_docs], "sys": [_stats(d) for d in sys_docs]}}
    return key_text, sys_text, meta


def _stats(d):
    sizes = _entity_sizes(d.marks)
    return {
        "doc": d.name,
        "tokens": d.n(),
        "markables": len(d.marks),
        "entities": len(sizes),
        "singletons": sum(1 for e, s in sizes.items() if s == 1 and e not in d.pseudo),
        "pseudo_entities": len([e for e in d.pseudo if e in sizes]),
        "plurals": len(d.plurals),
        "plural_of_plural": sum(1 for p, mem in d.plurals.items() if any(x in d.plurals for x in mem)),
        "bridging": len(d.bridges),
        "dd_markables": len(d.dd),
        "with_min": sum(1 for m in d.marks if m.get("min")),
    }


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--key")
    ap.add_argument("--sys")
    ap.add_argument("--print-params", action="store_true")
    for k, v in DEFAULTS.items():
        if k == "seed":
            continue
        flag = "--" + k.replace("_", "-")
        if isinstance(v, bool):
            ap.add_argument(flag, dest=k, action="store_true", default=v)
        elif isinstance(v, int):
            ap.add_argument(flag, dest=k, type=int, default=v)
        elif isinstance(v, float):
            ap.add_argument(flag, dest=k, type=float, default=v)
        else:
            ap.add_argument(flag, dest=k, default=v)
    # short aliases
    ap.add_argument("--tokens", dest="n_tokens", type=int)
    ap.add_argument("--docs", dest="n_docs", type=int)
    a = ap.parse_args()
    params = {k: getattr(a, k) for k in DEFAULTS}
    key_text, sys_text, meta = generate_pair(a.seed, **params)
    if a.print_params or not (a.key and a.sys):
        print(json.dumps(meta, indent=1))
    if a.key:
        open(a.key, "w").write(key_text)
    if a.sys:
        open(a.sys, "w").write(sys_text)


if __name__ == "__main__":
    main()
