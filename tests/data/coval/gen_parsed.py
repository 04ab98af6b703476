#!/usr/bin/env python3
"""Seeded random generator of CoNLL-2012 key/response pairs WITH a parse column.

Pure Python (standard library only) and deterministic: the same seed gives the
same text on every machine and Python >= 3.6 (only random.Random methods
whose output is specified for a given seed are used: random(), randrange(),
choice() over lists, shuffle()).

Each sentence is a random constituency tree (TOP, S, NP, VP, PP, SBAR, WHNP,
ADJP, ADVP, QP, NML, NX, PRN; optionally function-tagged labels such as
NP-SBJ) written in the CoNLL-2012 way: column 5 = POS, column 6 = parse bit
("(TOP(S(NP*", "*", "*))", ...).  The vocabulary deliberately contains tokens
that are not purely alphabetic ("U.S.", "1,000", "3.5", "n't", "well-known",
"-LRB-", "%", "''") and Unicode letters ("Zürich").

Key coreference: NP constituents (nested ones too, sometimes in the same
entity), verb tokens and whole VPs (event mentions), S/SBAR mentions,
non-constituent spans (random 1-4 token windows, spans crossing brackets,
spans with punctuation), lone determiners; singletons included.
Response: perturbation of the key: drops, boundary changes (to the parent
constituent, to the first child NP, +-1 token, determiner stripped, trailing
punctuation added), merges, splits, mention moves and spurious mentions.
Mentions of one entity never cross each other and no span is written twice
(so the bracket notation is unambiguous) unless the pair is generated with
``exotic=True``, which also allows the same span in two entities and
function-tagged labels.

Usage:  python gen_parsed.py SEED [--exotic] [--docs N] [--out PREFIX]
        -> PREFIX.key.conll and PREFIX.response.conll (default: stdout JSON)
As a module: make_pair(seed, exotic=False, n_docs=None) -> dict with
"key", "response" (file texts) and "features".
"""
import json
import random
import sys

# --------------------------------------------------------------------------
# vocabulary
# --------------------------------------------------------------------------
VOCAB = {
    'DT': ['the', 'the', 'the', 'a', 'an', 'this', 'that', 'these', 'every'],
    'JJ': ['big', 'old', 'new', 'small', 'former', 'local', 'well-known', 'red'],
    'NN': ['dog', 'company', 'man', 'report', 'market', 'government', 'chairman',
           'city', 'year', 'plan', 'e-mail', 'price', 'steel', 'industry', 'chief'],
    'NNS': ['dogs', 'companies', 'people', 'reports', 'shares', 'dollars', 'years'],
    'NNP': ['John', 'Mary', 'Smith', 'London', 'IBM', 'U.S.', 'Smith-Jones',
            "O'Brien", 'Zürich', 'Acme', 'Paris', 'Bush'],
    'PRP': ['he', 'she', 'it', 'they', 'we', 'him', 'her', 'them', 'I'],
    'PRP$': ['his', 'her', 'its', 'their', 'our'],
    'VBD': ['saw', 'said', 'bought', 'left', 'met', 'told', 'grew', 'sold', 'visited'],
    'VB': ['go', 'buy', 'see', 'sell', 'leave', 'grow'],
    'VBZ': ['is', 'has', 'says', 'does'],
    'MD': ['will', 'would', 'can', 'could'],
    'IN': ['in', 'of', 'for', 'with', 'on', 'about', 'after'],
    'CC': ['and', 'or', 'but'],
    'RB': ['quickly', 'home', 'also', 'about', 'there'],
    'CD': ['3', '1,000', '3.5', 'two', '1990', '100', 'million'],
    'WP': ['who'],
    'WDT': ['which', 'that'],
    'POS': ["'s", "'s", "'"],
    'TO': ['to'],
}


class Leaf(object):
    __slots__ = ('pos', 'word')

    def __init__(self, pos, word):
        self.pos = pos
        self.word = word


class Phrase(object):
    __slots__ = ('label', 'children', 'start', 'end', 'parent')

    def __init__(self, label, children):
        self.label = label
        self.children = children
        self.parent = None
        self.start = self.end = None


class Gen(object):
    def __init__(self, rng, exotic=False):
        self.r = rng
        self.exotic = exotic

    # --- helpers ---------------------------------------------------------
    def w(self, pos):
        return Leaf(pos, self.r.choice(VOCAB[pos]))

    def lab(self, base, tags):
        """base label, or (exotic pairs only) a function-tagged variant."""
        if self.exotic and self.r.random() < 0.3:
            return base + '-' + self.r.choice(tags)
        return base

    def pick(self, weighted):
        total = sum(wt for wt, _ in weighted)
        x = self.r.random() * total
        for wt, f in weighted:
            x -= wt
            if x < 0:
                return f()
        return weighted[-1][1]()

    # --- noun phrases ----------------------------------------------------
    def simple_np_children(self):
        r = self.r
        return self.pick([
            (4, lambda: [self.w('PRP')]),
            (5, lambda: [self.w('DT'), self.w('NN')]),
            (3, lambda: [self.w('DT'), self.w('JJ'), self.w('NN')]),
            (2, lambda: [self.w('DT'), self.w('NNS')]),
            (3, lambda: [self.w('NNP')]),
            (2, lambda: [self.w('NNP'), self.w('NNP')]),
            (2, lambda: [self.w('PRP$'), self.w('NN')]),
            (1, lambda: [self.w('CD'), self.w('NNS')]),
            (1, lambda: [Leaf('DT', r.choice(['this', 'that', 'these']))]),
            (1, lambda: [self.w('NN'), self.w('NN')]),
            (1, lambda: [self.w('DT'), Phrase('NML', [self.w('NN'), self.w('NN')]),
                         self.w('NN')]),
            (1, lambda: [Phrase('QP', [Leaf('RB', 'about'), self.w('CD'),
                                       Leaf('CD', 'million')]), self.w('NNS')]),
            (1, lambda: [self.w('CD'), Leaf('NN', '%')]),
            (1, lambda: [Leaf('$', '$'), self.w('CD')]),
            (1, lambda: [Leaf('``', '``'), self.w('DT'), self.w('NN'),
                         Leaf("''", "''")]),
            (1, lambda: [self.w('DT'), Phrase('NX', [self.w('NN')]), self.w('CC'),
                         Phrase('NX', [self.w('NN')])]),
            (1, lambda: [Phrase('ADJP', [Leaf('RB', 'very'), self.w('JJ')]),
                         self.w('NNS')]),
        ])

    def np(self, d):
        if d <= 0 or self.r.random() < 0.45:
            return Phrase(self.lab('NP', ['SBJ', 'TMP', '1']), self.simple_np_children())
        return self.pick([
            (4, lambda: Phrase('NP', [self.np(d - 1), self.pp(d - 1)])),
            (2, lambda: Phrase('NP', [self.np(d - 1), self.sbar_rel(d - 1)])),
            (2, lambda: Phrase('NP', [Phrase('NP', self.simple_np_children()
                                             + [self.w('POS')]), self.w('NN')])),
            (2, lambda: Phrase('NP', [self.np(d - 1), self.w('CC'), self.np(d - 1)])),
            (2, lambda: Phrase('NP', [self.np(d - 1), Leaf(',', ','), self.np(d - 1),
                                      Leaf(',', ',')])),
            (1, lambda: Phrase('NP', [self.np(d - 1), Phrase('PRN', [
                Leaf('-LRB-', '-LRB-'), self.np(0), Leaf('-RRB-', '-RRB-')])])),
            (1, lambda: Phrase('NP', [self.w('DT'), self.w('JJ'), self.w('NN'),
                                      self.pp(d - 1)])),
        ])

    def pp(self, d):
        return Phrase('PP', [self.w('IN'), self.np(d)])

    def sbar_rel(self, d):
        wh = self.r.choice([Phrase('WHNP', [self.w('WP')]),
                            Phrase('WHNP', [self.w('WDT')])])
        return Phrase('SBAR', [wh, Phrase('S', [self.vp(d)])])

    # --- verb phrases / clauses -------------------------------------------
    def vp(self, d):
        if d <= 0:
            return self.pick([
                (3, lambda: Phrase('VP', [self.w('VBD'), self.np(0)])),
                (1, lambda: Phrase('VP', [self.w('VBD'), Phrase('ADVP', [self.w('RB')])])),
                (1, lambda: Phrase('VP', [self.w('VBZ'), Phrase('ADJP', [self.w('JJ')])])),
                (1, lambda: Phrase('VP', [self.w('VBD')])),
            ])
        return self.pick([
            (4, lambda: Phrase('VP', [self.w('VBD'), self.np(d - 1)])),
            (2, lambda: Phrase('VP', [self.w('VBD'), self.np(d - 1), self.pp(d - 1)])),
            (2, lambda: Phrase('VP', [self.w('VBD'), Phrase('SBAR', [
                Leaf('IN', 'that'), self.s(d - 1)])])),
            (2, lambda: Phrase('VP', [self.w('MD'), Phrase('VP', [self.w('VB'),
                                                                  self.np(d - 1)])])),
            (1, lambda: Phrase('VP', [Leaf('VBZ', 'does'), Leaf('RB', "n't"),
                                      Phrase('VP', [self.w('VB'), self.np(d - 1)])])),
            (1, lambda: Phrase('VP', [self.w('VBD'), Phrase('S', [Phrase('VP', [
                self.w('TO'), Phrase('VP', [self.w('VB'), self.np(d - 1)])])])])),
            (1, lambda: Phrase(self.lab('VP', ['TPC']), [self.w('VBZ'),
                                                         Phrase('ADJP', [self.w('JJ')])])),
        ])

    def s(self, d):
        return self.pick([
            (6, lambda: Phrase('S', [self.np(d - 1), self.vp(d - 1)])),
            (1, lambda: Phrase('S', [self.pp(0), Leaf(',', ','), self.np(d - 1),
                                     self.vp(d - 1)])),
            (1, lambda: Phrase('S', [Phrase('S', [self.np(0), self.vp(0)]), Leaf(',', ','),
                                     self.w('CC'), Phrase('S', [self.np(0), self.vp(0)])])),
        ])

    def sentence(self):
        d = self.r.choice([2, 2, 3, 3, 4])
        s = self.s(d)
        s.children.append(Leaf('.', self.r.choice(['.', '.', '?', '!'])))
        return Phrase('TOP', [s])


def annotate(tree):
    """Sets start/end/parent of every phrase; returns (leaves, phrases)."""
    leaves, phrases = [], []

    def walk(node, parent):
        if isinstance(node, Leaf):
            leaves.append(node)
            return
        node.parent = parent
        node.start = len(leaves)
        phrases.append(node)
        for ch in node.children:
            walk(ch, node)
        node.end = len(leaves) - 1

    walk(tree, None)
    return leaves, phrases


def parse_bits(n, phrases):
    opens = [[] for _ in range(n)]
    closes = [0] * n
    for p in phrases:                  # pre-order: outer phrases first
        opens[p.start].append(p.label)
        closes[p.end] += 1
    return [''.join('(' + l for l in opens[i]) + '*' + ')' * closes[i]
            for i in range(n)]


# --------------------------------------------------------------------------
# documents and coreference
# --------------------------------------------------------------------------
class Doc(object):
    def __init__(self, name):
        self.name = name
        self.sents = []       # list of (leaves, phrases, bits)


def crosses(a, b):
    """Two spans (sent, start, end) partially overlap (neither contains the other)."""
    if a[0] != b[0]:
        return False
    s1, e1, s2, e2 = a[1], a[2], b[1], b[2]
    if e1 < s2 or e2 < s1:
        return False
    inside = (s1 >= s2 and e1 <= e2) or (s2 >= s1 and e2 <= e1)
    return not inside


def can_join(entity, span):
    return all(m != span and not crosses(m, span) for m in entity)


def key_mentions(rng, doc):
    """Candidate mentions in document order, with hints for nesting."""
    cands = []   # (span, kind, parent_span or None)
    for si, (leaves, phrases, _bits) in enumerate(doc.sents):
        n = len(leaves)
        for p in phrases:
            span = (si, p.start, p.end)
            lab = p.label
            if lab.startswith('NP'):
                if rng.random() < 0.65:
                    par = p.parent
                    pspan = None
                    if par is not None and par.label.startswith('NP') and par.children[0] is p:
                        pspan = (si, par.start, par.end)
                    cands.append((span, 'np', pspan))
            elif lab.startswith('VP'):
                x = rng.random()
                if x < 0.10:
                    cands.append(((si, p.start, p.start), 'verb', None))
                elif x < 0.15:
                    cands.append((span, 'vp', None))
            elif lab in ('S', 'SBAR') and rng.random() < 0.04:
                cands.append((span, 'clause', None))
            elif lab in ('PP', 'ADJP', 'QP', 'NML', 'PRN') and rng.random() < 0.05:
                cands.append((span, 'other-constituent', None))
        # non-constituents: random windows (may include punctuation, cross brackets)
        k = 0
        while rng.random() < 0.45 and k < 3:
            k += 1
            a = rng.randrange(n)
            b = min(n - 1, a + rng.randrange(4))
            cands.append(((si, a, b), 'window', None))
        # lone determiners
        for i, lf in enumerate(leaves):
            if lf.pos == 'DT' and rng.random() < 0.05:
                cands.append(((si, i, i), 'determiner', None))
    cands.sort(key=lambda c: (c[0][0], c[0][1], -c[0][2]))
    return cands


def build_key(rng, doc):
    cands = key_mentions(rng, doc)
    entities = []          # list of lists of spans
    where = {}             # span -> entity index
    for span, kind, pspan in cands:
        if span in where:
            continue
        choice = None
        if pspan is not None and pspan in where and rng.random() < 0.35:
            choice = where[pspan]          # same-entity nesting (inner NP)
        elif entities and rng.random() < (0.62 if kind != 'window' else 0.4):
            pool = list(range(max(0, len(entities) - 6), len(entities)))
            choice = rng.choice(pool)
        if choice is not None and not can_join(entities[choice], span):
            choice = None
        if choice is None:
            entities.append([span])
            where[span] = len(entities) - 1
        else:
            entities[choice].append(span)
            where[span] = choice
    return entities


def neighbours(doc, span):
    """Constituent-based and token-based boundary variants of a span."""
    si, a, b = span
    leaves, phrases, _ = doc.sents[si]
    n = len(leaves)
    out = []
    node = None
    for p in phrases:
        if p.start == a and p.end == b:
            node = p           # the lowest such phrase (pre-order: last wins)
    if node is not None:
        par = node.parent
        while par is not None and par.start == a and par.end == b:
            par = par.parent
        if par is not None and par.label != 'TOP':
            out.append(('parent', (si, par.start, par.end)))
        for ch in node.children:
            if isinstance(ch, Phrase) and ch.label.startswith('NP') and (ch.start, ch.end) != (a, b):
                out.append(('child-np', (si, ch.start, ch.end)))
                break
    if leaves[a].pos == 'DT' and b > a:
        out.append(('strip-det', (si, a + 1, b)))
    if b + 1 < n and not any(c.isalnum() for c in leaves[b + 1].word):
        out.append(('add-punct', (si, a, b + 1)))
    if a > 0:
        out.append(('left+1', (si, a - 1, b)))
    if b > a:
        out.append(('left-1', (si, a + 1, b)))
        out.append(('right-1', (si, a, b - 1)))
    if b + 1 < n:
        out.append(('right+1', (si, a, b + 1)))
    return out


def build_response(rng, doc, key_entities, exotic):
    ents = []
    for e in key_entities:
        ne = []
        for span in e:
            x = rng.random()
            if x < 0.10:
                continue                         # drop
            if x < 0.38:
                opts = neighbours(doc, span)
                structural = [o for o in opts if o[0] in ('parent', 'child-np', 'strip-det', 'add-punct')]
                if structural and rng.random() < 0.7:
                    span = rng.choice(structural)[1]
                elif opts:
                    span = rng.choice(opts)[1]
            ne.append(span)
        if ne:
            ents.append(ne)
    # splits
    for i in range(len(ents)):
        if len(ents[i]) >= 3 and rng.random() < 0.2:
            cut = 1 + rng.randrange(len(ents[i]) - 1)
            ents.append(ents[i][cut:])
            ents[i] = ents[i][:cut]
    # merges
    k = 0
    while len(ents) >= 2 and rng.random() < 0.5 and k < 3:
        k += 1
        i, j = rng.randrange(len(ents)), rng.randrange(len(ents))
        if i != j:
            ents[i] = ents[i] + ents[j]
            ents[j] = []
        ents = [e for e in ents if e]
    # moves
    for _ in range(2):
        if len(ents) >= 2 and rng.random() < 0.4:
            i, j = rng.randrange(len(ents)), rng.randrange(len(ents))
            if i != j and ents[i]:
                ents[j].append(ents[i].pop(rng.randrange(len(ents[i]))))
        ents = [e for e in ents if e]
    # spurious mentions
    for si, (leaves, phrases, _) in enumerate(doc.sents):
        for p in phrases:
            if p.label.startswith('NP') and rng.random() < 0.08:
                span = (si, p.start, p.end)
                if ents and rng.random() < 0.6:
                    rng.choice(ents).append(span)
                else:
                    ents.append([span])
        if rng.random() < 0.2:
            a = rng.randrange(len(leaves))
            ents.append([(si, a, min(len(leaves) - 1, a + rng.randrange(3)))])
    # make the bracket notation unambiguous
    seen = set()
    clean = []
    for e in ents:
        ne = []
        for span in sorted(e):
            if span in seen and not (exotic and rng.random() < 0.5):
                continue
            if not can_join(ne, span):
                continue
            seen.add(span)
            ne.append(span)
        if ne:
            clean.append(ne)
    rng.shuffle(clean)
    return clean


def coref_column(doc, entities, rng):
    cols = [[[] for _ in s[0]] for s in doc.sents]
    ids = list(range(len(entities)))
    rng.shuffle(ids)
    for eid, e in zip(ids, entities):
        for si, a, b in e:
            if a == b:
                cols[si][a].append((1, '(%d)' % eid))
            else:
                cols[si][a].append((0, '(%d' % eid))
                cols[si][b].append((2, '%d)' % eid))
    out = []
    for sc in cols:
        row = []
        for marks in sc:
            if not marks:
                row.append('-')
            else:
                # opens first (outer before inner is irrelevant for same-id LIFO
                # because same-entity spans never cross), then singles, then closes
                marks.sort(key=lambda m: m[0])
                row.append('|'.join(m[1] for m in marks))
        out.append(row)
    return out


def render(doc, coref):
    lines = ['#begin document (%s); part 000' % doc.name]
    for si, (leaves, phrases, bits) in enumerate(doc.sents):
        for i, lf in enumerate(leaves):
            lines.append('\t'.join([doc.name, '0', str(i), lf.word, lf.pos, bits[i],
                                    '-', '-', '-', 'Speaker#1', '*', coref[si][i]]))
        lines.append('')
    lines.append('#end document')
    return '\n'.join(lines) + '\n'


def make_pair(seed, exotic=False, n_docs=None, n_sents=None):
    rng = random.Random(seed)
    g = Gen(rng, exotic=exotic)
    if n_docs is None:
        n_docs = rng.choice([1, 1, 2, 3])
    key_txt, rsp_txt = [], []
    stats = {'docs': n_docs, 'sentences': 0, 'tokens': 0, 'key_mentions': 0,
             'response_mentions': 0, 'key_entities': 0, 'response_entities': 0}
    for d in range(n_docs):
        doc = Doc('gen/s%d/d%d' % (seed, d))
        ns = n_sents if n_sents is not None else 2 + rng.randrange(6)
        for _ in range(ns):
            tree = g.sentence()
            leaves, phrases = annotate(tree)
            doc.sents.append((leaves, phrases, parse_bits(len(leaves), phrases)))
            stats['sentences'] += 1
            stats['tokens'] += len(leaves)
        key = build_key(rng, doc)
        rsp = build_response(rng, doc, key, exotic)
        stats['key_mentions'] += sum(len(e) for e in key)
        stats['response_mentions'] += sum(len(e) for e in rsp)
        stats['key_entities'] += len(key)
        stats['response_entities'] += len(rsp)
        key_txt.append(render(doc, coref_column(doc, key, rng)))
        rsp_txt.append(render(doc, coref_column(doc, rsp, rng)))
    return {'seed': seed, 'exotic': exotic, 'key': ''.join(key_txt),
            'response': ''.join(rsp_txt), 'stats': stats}


def main(argv):
    import argparse
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('seed', type=int)
    ap.add_argument('--exotic', action='store_true')
    ap.add_argument('--docs', type=int, default=None)
    ap.add_argument('--sents', type=int, default=None, help='sentences per document')
    ap.add_argument('--out', default=None, help='write PREFIX.key.conll / PREFIX.response.conll')
    a = ap.parse_args(argv)
    pair = make_pair(a.seed, exotic=a.exotic, n_docs=a.docs, n_sents=a.sents)
    if a.out:
        with open(a.out + '.key.conll', 'w', encoding='utf-8') as f:
            f.write(pair['key'])
        with open(a.out + '.response.conll', 'w', encoding='utf-8') as f:
            f.write(pair['response'])
        json.dump(pair['stats'], sys.stdout)
        sys.stdout.write('\n')
    else:
        json.dump(pair, sys.stdout, ensure_ascii=False, indent=1)
        sys.stdout.write('\n')


if __name__ == '__main__':
    main(sys.argv[1:])
