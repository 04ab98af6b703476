"""The naive oracle of the UA scorer's behaviour (tests/compat/ua/test_ua_fixtures.py):
a clean-room re-implementation written from this project's specification of
the UA scorer (research notes, not the peer's code), checked against the UA
scorer itself on every fixture before it was copied here.

    from tests.support.ua_oracle import score
    res = score(key_path, sys_path, words=["MIN"], link_rule="peer")

link_rule="peer"  emulates the order-dependent LEA / BLANC-coref-link
                  arithmetic of the peer (SPEC section 7.7), using CPython set
                  order of objects hashed like the peer's markables;
link_rule="rule"  scores every link that involves the split element with the
                  alignment value and every other link with 1.
"""

from collections import deque

import numpy as np
from scipy.optimize import linear_sum_assignment

# ----------------------------------------------------------------------------
# markables


class Mk:
    """A markable.  Hash: the set {start, end} (or, for a split element, the
    set of its antecedent-entity tuples).  Equality: exact span, or the MIN
    window when either side carries a MIN, or member-set equality for split
    elements."""

    __slots__ = ("doc", "s", "e", "mn", "split", "members")

    def __init__(self, doc, s, e, mn=None, split=False, members=None):
        self.doc, self.s, self.e, self.mn = doc, s, e, mn
        self.split = split
        self.members = members if members is not None else frozenset()

    def __hash__(self):
        if self.split:
            return hash(frozenset(self.members))
        return hash(frozenset((self.s, self.e)))

    def __eq__(self, o):
        if not isinstance(o, Mk):
            return NotImplemented
        if self.split or o.split:
            return set(self.members) == set(o.members)
        if self.mn:
            return self.doc == o.doc and self.s <= o.s <= self.mn[0] and self.mn[1] <= o.e <= self.e
        if o.mn:
            return self.doc == o.doc and o.s <= self.s <= o.mn[0] and o.mn[1] <= self.e <= o.e
        return self.doc == o.doc and self.s == o.s and self.e == o.e

    def __repr__(self):
        return "S%s" % sorted((t[0].s, t[0].e) for t in self.members) if self.split else "(%d,%d)" % (self.s, self.e)


# ----------------------------------------------------------------------------
# reading


def read_docs(path):
    docs, name, lines = {}, None, []
    with open(path) as fh:
        for raw in fh:
            line = raw.strip()
            if line.startswith("# newdoc"):
                if name and lines:
                    docs[name] = lines
                    lines = []
                name = line[14:]
            elif not line or line.startswith("#"):
                continue
            else:
                lines.append(line)
    if name and lines:
        docs[name] = lines
    return docs


def _fields(text):
    d = {}
    for part in text.split("|"):
        i = part.find("=")
        # a part without "=" maps part[:-1] -> part (mirrors str.find == -1)
        d[part[:i]] = part[i + 1 :]
    return d


def parse_layer(doc, lines, col, with_min, with_bridging):
    order = []  # markable ids, first-seen order
    ent, start, end, mn, elem = {}, {}, {}, {}, {}
    stack = []
    bridges = {}
    for t, line in enumerate(lines):
        cols = line.split()
        cell = cols[col]
        if cell != "_":
            pieces = cell.split("(")
            for _ in pieces[0]:
                end[stack.pop()] = t
            for p in pieces[1:]:
                single = p.endswith(")")
                if single:
                    p = p[:-1]
                f = _fields(p)
                mid, eid = f["MarkableID"], f["EntityID"]
                if mid not in ent:
                    order.append(mid)
                ent[mid] = eid
                start[mid] = t
                if single:
                    end[mid] = t
                else:
                    stack.append(mid)
                mn[mid] = None
                if with_min and "Min" in f:
                    v = f["Min"].split(",")
                    a = int(v[0]) - 1
                    b = int(v[1]) - 1 if len(v) == 2 else a
                    mn[mid] = (a, b)
                if "ElementOf" in f:
                    for p_ent in f["ElementOf"].split(","):
                        elem.setdefault(p_ent, []).append(mid)
        if with_bridging and cols[11] != "_":
            for p in cols[11].split("(")[1:]:
                if p.endswith(")"):
                    p = p[:-1]
                f = _fields(p)
                bridges[f["MarkableID"]] = f["MentionAnchor"]
    entities = {}  # eid -> [markables, referring?, split entity ids]
    by_id = {}
    for mid in order:
        m = Mk(doc, start[mid], end[mid], mn[mid])
        by_id[mid] = m
        eid = ent[mid]
        if eid not in entities:
            entities[eid] = [[], not eid.endswith("-Pseudo"), [ent[x] for x in elem.get(eid, [])]]
        entities[eid][0].append(m)
    pairs = {}
    messages = []
    for ana, anc in bridges.items():
        if ana not in by_id or anc not in by_id:
            messages.append("skip bridging (%s, %s)" % (anc, ana))
            continue
        pairs[by_id[ana]] = by_id[anc]
    return entities, pairs, messages


def build_clusters(entities, keep_singletons, keep_nonref, keep_split):
    kept, nonref = [], []
    for eid, (ms, referring, split_ids) in entities.items():
        if split_ids and keep_split:
            assert keep_singletons, "remove_singletons with split antecedents"
            leaves = set()
            q = deque([eid])
            while q:
                cur = q.popleft()
                cms, _, cids = entities[cur]
                if cids:
                    q.extend(cids)
                else:
                    leaves.add(tuple(cms))
            ms.append(Mk(ms[0].doc if ms else "", -1, -1, None, True, leaves))
        if not referring:
            if keep_nonref:
                nonref.append(ms[0])
            continue
        if not keep_singletons and len(ms) == 1:
            continue
        kept.append(ms)
    if keep_split:
        merged = []
        for cl in kept:
            target = None
            for m in cl:
                if m.split:
                    for c2 in merged:
                        if m in c2:
                            target = c2
                            break
            if target:
                target.update(cl)
            else:
                merged.append(set(cl))
        kept = [list(c) for c in merged]
    return kept, nonref


def index_of(clusters):
    d = {}
    for i, c in enumerate(clusters):
        for m in c:
            d[m] = i
    return d


# ----------------------------------------------------------------------------
# metrics.  Each returns (p_num, p_den, r_num, r_den).
# ctx: dict(kind=..., rmap, pmap, fmap, split_alignment=bool, link_rule)


def _f(pn, pd, rn, rd):
    p = pn / pd if pd else 0.0
    r = rn / rd if rd else 0.0
    return 0.0 if p + r == 0 else 2 * p * r / (p + r)


def muc_side(A, B_index, B, amap, count_singletons):
    num = den = 0.0
    for c in A:
        if len(c) == 1 and count_singletons:
            den += 1
            m = c[0]
            if m in B_index and len(B[B_index[m]]) == 1:
                num += 1
            continue
        den += len(c) - 1
        parts = set()
        missing = 0
        spl = None
        for m in c:
            if m.split:
                spl = m
            elif m in B_index:
                parts.add(B_index[m])
            else:
                missing += 1
        val = len(c) - missing - len(parts)
        if spl is not None:
            if spl in amap:
                partner, v = amap[spl]
                val -= (1 - v) if B_index[partner] in parts else 1
            else:
                val -= 1
        num += val
    return num, den


def bcub_side(A, B_index, amap):
    num = den = 0.0
    for c in A:
        w = {}
        for m in c:
            if m.split:
                if m in amap:
                    partner, v = amap[m]
                    j = B_index[partner]
                    w[j] = w.get(j, 0.0) + v
            elif m in B_index:
                j = B_index[m]
                w[j] = w.get(j, 0.0) + 1
        num += sum(x * x for x in w.values()) / len(c)
        den += len(c)
    return num, den


def _overlap(kc, sc, fmap):
    o = 0.0
    for m in kc:
        if m.split:
            if m in fmap:
                partner, v = fmap[m]
                if partner in sc:
                    o += v
        elif m in sc:
            o += 1
    return o


def ceaf(K, S, fmap, entity_based):
    if entity_based:
        sim = lambda a, b: 2 * _overlap(a, b, fmap) / (len(a) + len(b))
    else:
        sim = lambda a, b: _overlap(a, b, fmap)
    M = np.zeros((len(K), len(S)))
    for i, a in enumerate(K):
        for j, b in enumerate(S):
            M[i, j] = sim(a, b)
    r, c = linear_sum_assignment(-M)
    total = M[r, c].sum()
    if entity_based:
        return total, len(S), total, len(K)
    return total, sum(len(x) for x in S), total, sum(len(x) for x in K)


def lea_side(A, B, B_index, amap, link_rule):
    num = den = 0.0
    for c in A:
        n = len(c)
        if n == 1:
            m = c[0]
            hit = 1.0 if (m in B_index and len(B[B_index[m]]) == 1) else 0.0
            num += hit
            den += 1
            continue
        links = n * (n - 1) / 2.0
        common = 0.0
        if link_rule == "rule":
            resolved = []
            for m in c:
                if m.split:
                    resolved.append(amap[m] if m in amap else (m, 0.0))
                else:
                    resolved.append((m, 1.0))
            for i in range(n):
                a, va = resolved[i]
                for j in range(i + 1, n):
                    b, vb = resolved[j]
                    if a in B_index and b in B_index and B_index[a] == B_index[b]:
                        common += (va if c[i].split else 1.0) * (vb if c[j].split else 1.0)
        else:
            for i, m in enumerate(c):
                score = 1.0
                if m.split and m in amap:
                    m, score = amap[m]
                if m not in B_index:
                    continue
                for m2 in c[i + 1 :]:
                    if m2.split and m2 in amap:
                        m2, v2 = amap[m2]
                        score *= v2  # persists for the rest of the row
                    if m2 in B_index and B_index[m2] == B_index[m]:
                        common += score
        num += n * common / links
        den += n
    return num, den


def blanc_coref(K, S, S_index, fmap, link_rule):
    num = 0.0
    for c in K:
        n = len(c)
        if link_rule == "rule":
            res = [(fmap[m] if m in fmap else (m, 0.0)) if m.split else (m, 1.0) for m in c]
            for i in range(n):
                a, va = res[i]
                for j in range(i + 1, n):
                    b, vb = res[j]
                    if a in S_index and b in S_index and S_index[a] == S_index[b]:
                        num += va * vb
        else:
            for i, m in enumerate(c):
                score = 1.0
                if m.split and m in fmap:
                    m, score = fmap[m]
                if m not in S_index:
                    continue
                for m2 in c[i + 1 :]:  # m2 is NOT replaced by its partner
                    if m2 in S_index and S_index[m2] == S_index[m]:
                        num += score
    rd = sum(len(c) * (len(c) - 1) / 2 for c in K)
    pd = sum(len(c) * (len(c) - 1) / 2 for c in S)
    return num, pd, num, rd


def blanc_noncoref(K, S, S_index, fmap):
    num = 0.0
    for ci, c in enumerate(K):
        for m in c:
            v = 1.0
            if m.split and m in fmap:
                m, v = fmap[m]
            if m not in S_index:
                continue
            for c2 in K[ci + 1 :]:
                for m2 in c2:
                    v2 = 1.0
                    if m2.split and m2 in fmap:
                        m2, v2 = fmap[m2]
                    if m2 in S_index and S_index[m2] != S_index[m]:
                        num += v * v2
    nk = sum(len(c) for c in K)
    ns = sum(len(c) for c in S)
    rd = nk * (nk - 1) / 2 - sum(len(c) * (len(c) - 1) / 2 for c in K)
    pd = ns * (ns - 1) / 2 - sum(len(c) * (len(c) - 1) / 2 for c in S)
    return num, pd, num, rd


def mentions_metric(K, S, K_index, S_index):
    sm = set(m for c in S for m in c)
    km = set(m for c in K for m in c)
    return len(sm & set(K_index.keys())), len(sm), len(km & set(S_index.keys())), len(km)


def metric_counts(name, K, S, K_index, S_index, rmap, pmap, fmap, link_rule, in_alignment=False):
    if name == "muc":
        pn, pd = muc_side(S, K_index, K, pmap, in_alignment)
        rn, rd = muc_side(K, S_index, S, rmap, in_alignment)
        return pn, pd, rn, rd
    if name == "bcub":
        pn, pd = bcub_side(S, K_index, pmap)
        rn, rd = bcub_side(K, S_index, rmap)
        return pn, pd, rn, rd
    if name == "ceafe":
        return ceaf(K, S, fmap, True)
    if name == "ceafm":
        return ceaf(K, S, fmap, False)
    if name == "lea":
        pn, pd = lea_side(S, K, K_index, pmap, link_rule)
        rn, rd = lea_side(K, S, S_index, rmap, link_rule)
        return pn, pd, rn, rd
    if name == "blancc":
        return blanc_coref(K, S, S_index, fmap, link_rule)
    if name == "blancn":
        return blanc_noncoref(K, S, S_index, fmap)
    if name == "mentions":
        return mentions_metric(K, S, K_index, S_index)
    raise KeyError(name)


def align_splits(name, K, S, link_rule, counter):
    ks = [m for c in K for m in c if m.split]
    ss = [m for c in S for m in c if m.split]
    if not ks and not ss:
        return {}, {}, {}
    kparts = [list(m.members) for m in ks] or [[]]
    sparts = [list(m.members) for m in ss] or [[]]
    nk, ns = len(kparts), len(sparts)
    raw = np.zeros((nk, ns, 4))
    R = np.zeros((nk, ns))
    P = np.zeros((nk, ns))
    F = np.zeros((nk, ns))
    for i in range(nk):
        Ki = index_of(kparts[i])
        for j in range(ns):
            Sj = index_of(sparts[j])
            pn, pd, rn, rd = metric_counts(name, kparts[i], sparts[j], Ki, Sj, {}, {}, {}, link_rule, True)
            raw[i, j] = (pn, pd, rn, rd)
            P[i, j] = 0 if pn == 0 else pn / pd
            R[i, j] = 0 if rn == 0 else rn / rd
            F[i, j] = _f(pn, pd, rn, rd)
    rows, cols = linear_sum_assignment(-F)
    counter[0] += raw[rows, cols, 0].sum()
    counter[1] += raw[0, :, 1].sum()
    counter[2] += raw[rows, cols, 2].sum()
    counter[3] += raw[:, 0, 3].sum()
    rmap, pmap, fmap = {}, {}, {}
    for i, j in zip(rows, cols):
        if i < len(ks) and j < len(ss):
            if R[i, j] > 0:
                rmap[ks[i]] = (ss[j], float(R[i, j]))
            if P[i, j] > 0:
                pmap[ss[j]] = (ks[i], float(P[i, j]))
            if F[i, j] > 0:
                fmap[ks[i]] = (ss[j], float(F[i, j]))
    return rmap, pmap, fmap


def score_metric(name, docs, only_split, link_rule):
    tot = [0.0, 0.0, 0.0, 0.0]
    sc = [0.0, 0.0, 0.0, 0.0]
    for K, S in docs:
        Ki, Si = index_of(K), index_of(S)
        rmap, pmap, fmap = align_splits(name, K, S, link_rule, sc)
        c = metric_counts(name, K, S, Ki, Si, rmap, pmap, fmap, link_rule)
        for i in range(4):
            tot[i] += c[i]
    pn, pd, rn, rd = sc if only_split else tot
    p = 0 if pn == 0 else pn / pd
    r = 0 if rn == 0 else rn / rd
    return {"recall": r, "precision": p, "f1": _f(pn, pd, rn, rd), "counts": tot, "split_counts": sc}


def interpret(words):
    w = set(words)
    f = dict(
        keep_singletons=not ({"remove_singletons", "remove_singleton"} & w),
        keep_split=not ({"remove_split_antecedent", "remove_split_antecedents"} & w),
        use_min=bool({"MIN", "min", "min_spans"} & w),
        keep_nonref=bool({"keep_non_referring", "keep_non_referrings"} & w),
        keep_bridging=bool({"keep_bridging", "keep_bridgings"} & w),
        only_split=False,
        dd=False,
    )
    if {"only_split_antecedent", "only_split_antecedents"} & w:
        f.update(only_split=True, keep_split=True, keep_singletons=True, keep_bridging=False, keep_nonref=False)
    if "evaluate_discourse_deixis" in w:
        f.update(dd=True, keep_split=True, keep_singletons=True, only_split=False, keep_bridging=False, keep_nonref=False)
    return f


def _prf(tp, fp, fn):
    r = tp / (tp + fn) if tp + fn > 0 else 0
    p = tp / (tp + fp) if tp + fp > 0 else 0
    return {"recall": r, "precision": p, "f1": (2 * r * p / (r + p) if r + p > 0 else 0)}


def _blanc(subs):
    """BLANC from its coreference and non-coreference parts, those with
    links on either side averaged."""
    used = [s for s in subs if not (s["counts"][1] == 0 and s["counts"][3] == 0)]
    if used:
        out = {k: sum(s[k] for s in used) / len(used) for k in ("recall", "precision", "f1")}
    else:
        out = {"recall": 0, "precision": 0, "f1": 0}
    out["subs"] = subs
    return out


def score(key, sys_, words=(), link_rule="peer", metrics=None):
    """Every metric's scores (``metrics``: only those named, e.g. ``("lea",
    "blanc")``, with no ``conll``, non-referring or bridging scores unless
    all are asked for), as the UA scorer gives them for ``words``."""
    f = interpret(words)
    kd, sd = read_docs(key), read_docs(sys_)
    col = 12 if f["dd"] else 10
    docs, nonref, bridging = [], [], []
    for name, klines in kd.items():
        if name not in sd:
            continue
        ke, kb, _ = parse_layer(name, klines, col, f["use_min"], f["keep_bridging"])
        se, sb, _ = parse_layer(name, sd[name], col, False, f["keep_bridging"])
        K, kn = build_clusters(ke, f["keep_singletons"], f["keep_nonref"], f["keep_split"])
        S, sn = build_clusters(se, f["keep_singletons"], f["keep_nonref"], f["keep_split"])
        docs.append((K, S))
        nonref.append((kn, sn))
        bridging.append((kb, sb, index_of(K)))
    out = {}
    for name in ("lea", "muc", "bcub", "ceafe", "ceafm", "mentions"):
        if metrics is None or name in metrics:
            out[name] = score_metric(name, docs, f["only_split"], link_rule)
    if metrics is not None:
        if "blanc" in metrics:
            out["blanc"] = _blanc([score_metric(n, docs, f["only_split"], link_rule) for n in ("blancc", "blancn")])
        return out
    subs = [score_metric(n, docs, f["only_split"], link_rule) for n in ("blancc", "blancn")]
    out["blanc"] = _blanc(subs)
    out["conll"] = (out["muc"]["f1"] + out["bcub"]["f1"] + out["ceafe"]["f1"]) / 3
    if f["keep_nonref"]:
        tp = fp = fn = 0
        for kn, sn in nonref:
            for m in kn:
                if m in sn:
                    tp += 1
                else:
                    fn += 1
            fp += sum(1 for m in sn if m not in kn)
        out["non_referring"] = _prf(tp, fp, fn)
    if f["keep_bridging"]:
        c = dict(tp_ar=0, fp_ar=0, fn_ar=0, tp_m=0, fp_m=0, fn_m=0, tp_e=0, fp_e=0, fn_e=0)
        for kb, sb, kidx in bridging:

            def same_entity(a, b):
                return a in kidx and b in kidx and kidx[a] == kidx[b]

            for ana, kant in kb.items():
                if ana in sb:
                    sant = sb[ana]
                    c["tp_ar"] += 1
                    if kant == sant:
                        c["tp_m"] += 1
                        c["tp_e"] += 1
                    else:
                        c["fn_m"] += 1
                        if same_entity(sant, kant):
                            c["tp_e"] += 1
                        else:
                            c["fn_e"] += 1
                else:
                    c["fn_ar"] += 1
                    c["fn_m"] += 1
                    c["fn_e"] += 1
            for ana, sant in sb.items():
                if ana not in kb:
                    c["fp_ar"] += 1
                    c["fp_m"] += 1
                    c["fp_e"] += 1
                else:
                    kant = kb[ana]
                    if not sant == kant:
                        c["fp_m"] += 1
                        if not same_entity(sant, kant):
                            c["fp_e"] += 1
        out["bridging"] = {
            "anaphora_recognition": _prf(c["tp_ar"], c["fp_ar"], c["fn_ar"]),
            "markable_level": _prf(c["tp_m"], c["fp_m"], c["fn_m"]),
            "entity_level": _prf(c["tp_e"], c["fp_e"], c["fn_e"]),
        }
    return out
