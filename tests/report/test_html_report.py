"""The HTML report, checked without a browser: the page is parsed with the
standard library and its numbers, charts, error counts and side-by-side
views compared with the scoring run (the browser check is
test_report_browser.py)."""

from dataclasses import dataclass, field
from html.parser import HTMLParser
from typing import Callable, Optional, Union

import numpy as np
import pytest
from click.testing import CliRunner
from spacy.vocab import Vocab

from spacy_coref_eval.analysis import ERROR_KINDS, bootstrap_intervals, corpus_error_counts, macro_average
from spacy_coref_eval.analysis.error_types import ERROR_KIND_INFO
from spacy_coref_eval.cli import app
from spacy_coref_eval.cli.score import DATA
from spacy_coref_eval.counting.rates import rates
from spacy_coref_eval.errors import CorefEvalWarning
from spacy_coref_eval.formats.conll.read import read_conll
from spacy_coref_eval.formats.corpus import read_corpus
from spacy_coref_eval.formats.docbin.docs import conll_to_docs, write_docbin
from spacy_coref_eval.model.clusters import Clusters
from spacy_coref_eval.report.html import mention_markup, nice_step, render_report, window_note
from spacy_coref_eval.report.labels import pct
from spacy_coref_eval.report.markup import interval_text
from spacy_coref_eval.report.views import Mention, build_report, document_view, error_window, headline, worst_documents
from spacy_coref_eval.scoring import CorpusResult, Settings, score_pairs
from spacy_coref_eval.twinning import ExactMatcher

runner = CliRunner()
KEY, RESPONSE = DATA / "demo.key.conll", DATA / "demo.response.conll"
VOID = {"meta", "br", "hr", "img", "input", "link", "col", "wbr", "area", "base", "source", "track"}


@dataclass
class Node:
    tag: str
    attrs: dict[str, str]
    parent: Optional["Node"] = None
    content: list[Union["Node", str]] = field(default_factory=list)

    @property
    def children(self) -> list["Node"]:
        return [part for part in self.content if isinstance(part, Node)]

    @property
    def classes(self) -> list[str]:
        return self.attrs.get("class", "").split()

    def own_text(self) -> str:
        return "".join(part for part in self.content if isinstance(part, str))

    def all_text(self) -> str:
        return "".join(part if isinstance(part, str) else part.all_text() for part in self.content)

    def find_all(self, test: Callable[["Node"], bool]) -> list["Node"]:
        found = [self] if test(self) else []
        return found + [node for child in self.children for node in child.find_all(test)]

    def find(self, test: Callable[["Node"], bool]) -> "Node":
        found = self.find_all(test)
        assert len(found) == 1, f"expected one element, found {len(found)}"
        return found[0]

    def inside(self, other: "Node") -> bool:
        node = self.parent
        while node is not None and node is not other:
            node = node.parent
        return node is other


class TreeBuilder(HTMLParser):
    """A tree of the page; fails on any end tag that does not close the
    element open at that point, and on elements left open."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.root = Node("#root", {})
        self.stack = [self.root]

    def handle_starttag(self, tag, attrs):
        node = Node(tag, {k: v or "" for k, v in attrs}, parent=self.stack[-1])
        self.stack[-1].content.append(node)
        if tag not in VOID:
            self.stack.append(node)

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)
        if tag not in VOID:
            self.stack.pop()

    def handle_endtag(self, tag):
        assert self.stack[-1].tag == tag, f"</{tag}> closes <{self.stack[-1].tag}>"
        self.stack.pop()

    def handle_data(self, data):
        self.stack[-1].content.append(data)


def parse(page: str) -> Node:
    builder = TreeBuilder()
    builder.feed(page)
    builder.close()
    assert builder.stack == [builder.root], f"unclosed: {[node.tag for node in builder.stack[1:]]}"
    return builder.root


def tagged(tag: str, cls: Optional[str] = None, **attrs: str) -> Callable[[Node], bool]:
    def test(node: Node) -> bool:
        return (
            node.tag == tag
            and (cls is None or cls in node.classes)
            and all(node.attrs.get(k.replace("_", "-")) == v for k, v in attrs.items())
        )

    return test


def mention_spans(side: Node) -> list[Node]:
    """First fragments of the highlighted mentions of one column."""
    return side.find_all(lambda n: n.tag == "span" and "m" in n.classes and "c" not in n.classes)


@dataclass
class Run:
    pairs: list[tuple[str, Clusters, Clusters]]
    result: CorpusResult
    intervals: dict[str, dict[str, tuple[float, float]]]
    errors: dict[str, dict[str, int]]
    page: str
    tree: Node


def demo_run(settings: Settings = Settings(), worst: int = 2) -> Run:
    corpus = read_corpus(KEY, RESPONSE, words=True)
    pairs, words, warnings = corpus.pairs, corpus.words(), corpus.warnings
    result = score_pairs(pairs, settings, warnings)
    with pytest.warns(CorefEvalWarning, match="unreliable"):
        intervals = bootstrap_intervals(result, n_resamples=200, seed=0)
        macro = macro_average(result)
    errors = corpus_error_counts(result)
    data = build_report(
        result,
        words,
        intervals=intervals,
        errors=errors,
        macro=macro,
        key="demo.key.conll",
        response="demo.response.conll",
        n_resamples=200,
        worst=worst,
    )
    page = render_report(data)
    return Run(pairs, result, intervals, errors, page, parse(page))


@pytest.fixture(scope="module")
def demo() -> Run:
    return demo_run()


def test_page_is_one_well_formed_html_document(demo):
    assert demo.page.startswith("<!DOCTYPE html>")
    html = demo.tree.find(tagged("html"))
    assert [child.tag for child in html.children] == ["head", "body"]
    assert [meta.attrs.get("charset") for meta in demo.tree.find_all(tagged("meta"))][0] == "utf-8"


def test_page_is_self_contained(demo):
    lowered = demo.page.lower()
    for needle in ("http://", "https://", "src=", "<link", "url(", "@import", "<script", "<iframe"):
        assert needle not in lowered, needle
    assert len(demo.tree.find_all(tagged("style"))) == 1


def test_metrics_table_shows_every_score_with_its_interval(demo):
    table = demo.tree.find(tagged("table", "metrics"))
    metrics = demo.result.metrics()
    shown = 0
    for metric, bounds in demo.intervals.items():
        for rate, interval in bounds.items():
            cell = table.find(tagged("td", data_metric=metric, data_rate=rate))
            assert cell.own_text() == pct(metrics[metric][rate])
            assert cell.find(tagged("span", "ci")).all_text() == f"{100 * interval[0]:.2f}–{100 * interval[1]:.2f}"
            shown += 1
    assert shown == len(table.find_all(lambda n: n.attrs.get("data-rate") in ("recall", "precision", "f1")))
    assert table.find(tagged("td", data_metric="muc", data_rate="recall")).attrs["title"] == "7 / 10"
    assert set(metrics) == {"mentions", "muc", "bcub", "ceafm", "ceafe", "blanc", "lea", "conll"}
    assert table.find(tagged("td", data_metric="conll", data_rate="f1")).own_text() == "72.30"
    with pytest.warns(CorefEvalWarning, match="unreliable"):
        macro = macro_average(demo.result)
    for metric in metrics:
        cell = table.find(tagged("td", data_metric=metric, data_rate="macro_f1"))
        assert cell.own_text() == f"{100 * macro[metric]['f1']:.2f}"
        assert cell.attrs["title"].startswith(f"mean over the {macro[metric]['n_documents']} documents")


def test_bar_chart_has_a_bar_per_score_and_the_histogram_every_document(demo):
    bars = demo.tree.find(tagged("svg", id="chart-prf")).find_all(lambda n: n.tag == "rect" and n.children)
    metrics = demo.result.metrics()
    assert len(bars) == sum(len(demo.intervals[m]) for m in metrics)
    recall, interval = metrics["mentions"]["recall"], demo.intervals["mentions"]["recall"]
    assert bars[0].all_text() == f"Mentions Recall {pct(recall)} ({interval_text(interval)})"
    bins = demo.tree.find(tagged("svg", id="chart-f1")).find_all(lambda n: n.tag == "rect" and n.children)
    counts = [int(rect.all_text().rsplit(": ", 1)[1].split()[0]) for rect in bins]
    assert sum(counts) == len(demo.result.documents) == 2


def test_error_counts_are_the_corpus_totals(demo):
    cells = demo.tree.find_all(lambda n: "data-error" in n.attrs)
    assert [cell.attrs["data-error"] for cell in cells] == list(ERROR_KINDS) == [kind.name for kind in ERROR_KIND_INFO]
    assert {cell.attrs["data-error"]: int(cell.all_text()) for cell in cells} == demo.errors["total"]


def test_worst_documents_are_shown_side_by_side_with_every_mention(demo):
    per_doc = {name: rates(counts)["conll"]["f1"] for name, counts in demo.result.documents.items()}
    expected = sorted(per_doc, key=lambda name: (per_doc[name], name))
    clusters = {name: (key, response) for name, key, response, _ in demo.pairs}
    articles = demo.tree.find_all(tagged("article", "doc"))
    assert [a.attrs["id"] for a in articles] == ["doc-1", "doc-2"]
    for rank, (article, name) in enumerate(zip(articles, expected), 1):
        assert article.find(tagged("h3")).all_text() == f"{rank}. {name}"
        gold, pred = article.find(tagged("div", "gold")), article.find(tagged("div", "pred"))
        key, response = clusters[name]
        assert len(mention_spans(gold)) == len(key) and len(mention_spans(pred)) == len(response)
        assert sum("t" in m.classes for m in mention_spans(gold)) == demo.errors[name]["missing_mentions"]
        assert sum("t" in m.classes for m in mention_spans(pred)) == demo.errors[name]["extra_mentions"]
        assert article.find(tagged("p", "note")).all_text() == f"Whole document: {len(gold_words(name))} tokens."


def gold_words(name: str) -> list[str]:
    return read_conll(KEY, with_words=True)[name].words


def test_nested_mentions_are_drawn_inside_their_parent(demo):
    alice = demo.tree.find(tagged("article", id="doc-2")).find(tagged("div", "gold"))
    her = next(m for m in mention_spans(alice) if m.own_text() == "her")
    her_sister = next(m for m in mention_spans(alice) if m.all_text().startswith("her1 sister"))
    assert her.inside(her_sister)
    assert her.find(tagged("sub", "l")).all_text() == "1"


def test_the_same_input_gives_the_same_bytes(demo):
    assert demo_run().page == demo.page


def test_documents_are_ranked_by_the_headline_metric_without_conll():
    run = demo_run(Settings(metrics=("muc", "lea")), worst=1)
    header = run.tree.find(tagged("table", "documents")).find(tagged("thead")).all_text()
    assert header.startswith("DocumentLEA F1")
    assert not run.tree.find_all(tagged("td", data_metric="conll"))
    lea = {name: rates(counts)["lea"]["f1"] for name, counts in run.result.documents.items()}
    [article] = run.tree.find_all(tagged("article", "doc"))
    assert article.find(tagged("h3")).all_text() == f"1. {min(lea, key=lea.get)}"


def test_removed_singletons_are_not_drawn():
    run = demo_run(Settings(singletons="remove"))
    name = "(demo/alice); part 000"
    articles = run.tree.find_all(tagged("article", "doc"))
    article = next(a for a in articles if a.find(tagged("h3")).all_text().endswith(name))
    key = {n: k for n, k, *_ in run.pairs}[name]
    assert len(mention_spans(article.find(tagged("div", "gold")))) == len(key.without_singletons()) < len(key)


def test_cli_writes_the_same_report_twice(tmp_path):
    pages = []
    for index in range(2):
        out = tmp_path / f"report{index}.html"
        args = ["report", str(KEY), str(RESPONSE), "-o", str(out), "--n-resamples", "100", "--seed", "3", "--worst", "1"]
        result = runner.invoke(app, args)
        assert result.exit_code == 0, result.output
        pages.append(out.read_bytes())
    assert pages[0] == pages[1]
    tree = parse(pages[0].decode("utf8"))
    assert [a.attrs["id"] for a in tree.find_all(tagged("article", "doc"))] == ["doc-1"]
    assert "100 resamples, seed 3" in tree.find(tagged("header")).all_text()
    assert "Saved the report to" in result.stderr


@pytest.mark.parametrize(
    "args, message",
    [
        ([str(KEY), str(RESPONSE), "--ci", "1.5"], "confidence level"),
        ([str(KEY), str(RESPONSE), "--twinless", "nope"], "'nope' is not one of 'conll', 'b3all', 'b30', 'sys'"),
        (["EMPTY", "EMPTY"], "no '#begin document' blocks, nothing to score against"),
    ],
)
def test_cli_rejects_bad_input(tmp_path, args, message):
    out, empty = tmp_path / "report.html", tmp_path / "empty.conll"
    empty.write_text("", encoding="utf8")
    args = [str(empty) if arg == "EMPTY" else arg for arg in args]
    result = runner.invoke(app, ["report", *args, "-o", str(out)])
    assert result.exit_code != 0
    assert message in result.output
    assert not out.exists()


def entity_lists(pairs):
    return [(name, key.entities(), response.entities()) for name, key, response, _ in pairs]


def test_words_come_with_the_pairs_from_conll_and_spacy_files(tmp_path):
    corpus = read_corpus(KEY, RESPONSE, words=True)
    pairs, words, warnings = corpus.pairs, corpus.words(), corpus.warnings
    corpus = read_corpus(KEY, RESPONSE)
    plain_pairs, plain_warnings = corpus.pairs, corpus.warnings
    assert entity_lists(pairs) == entity_lists(plain_pairs)
    assert warnings == plain_warnings
    conll = read_conll(KEY, with_words=True)
    assert words == {name: doc.words for name, doc in conll.items()}
    spacy_key = tmp_path / "key.spacy"
    write_docbin(spacy_key, conll_to_docs(conll.values(), Vocab()))
    for response in (RESPONSE, spacy_key):
        corpus = read_corpus(spacy_key, response, words=True)
        spacy_pairs, spacy_words, _ = corpus.pairs, corpus.words(), corpus.warnings
        assert list(spacy_words.values()) == list(words.values())
        assert len(spacy_pairs) == len(pairs)


def test_worst_documents_rank_by_headline_f1_then_name():
    def doc(conll: float, lea: float):
        return {"conll": {"f1": conll}, "lea": {"f1": lea}, "mentions": {"f1": 1.0}}

    documents = {"c": doc(0.5, 0.1), "a": doc(0.5, 0.9), "b": doc(0.2, 0.9), "d": doc(0.9, 0.0)}
    assert worst_documents(documents, 3) == ["b", "a", "c"]
    assert worst_documents(documents, 10) == ["b", "a", "c", "d"]
    assert headline({"muc": {}, "lea": {}, "mentions": {}}) == "lea"
    assert headline({"bcub": {}, "muc": {}, "mentions": {}}) == "muc"


def test_predicted_entities_take_the_colour_and_number_of_their_gold_entity():
    key = Clusters.from_entities([[(0, 1), (2, 3), (4, 5)], [(6, 7)]])
    response = Clusters.from_entities([[(4, 5)], [(0, 1), (2, 3)], [(8, 9)], [(6, 7)]])
    view = document_view("d", [str(i) for i in range(10)], key=key, response=response, twins=ExactMatcher()(key, response), metrics={})
    assert [(m.start, m.label, m.colour, m.twinless) for m in view.key] == [
        (0, "1", 0, False),
        (2, "1", 0, False),
        (4, "1", 0, False),
        (6, "2", 1, False),
    ]
    assert [(m.start, m.label, m.colour, m.twinless) for m in view.response] == [
        (0, "1", 0, False),
        (2, "1", 0, False),
        (4, "1b", 0, False),
        (6, "2", 1, False),
        (8, "x1", -1, True),
    ]


def test_long_documents_show_the_stretch_with_most_errors():
    assert error_window(1000, np.array([10, 500, 510, 520]), 100) == (421, 521)
    assert error_window(50, np.array([10]), 100) == (0, 50)
    key = Clusters.from_entities([[(0, 1), (30, 31), (55, 57)], [(40, 42), (58, 62)]])
    response = Clusters.from_entities([[(0, 1), (30, 31)], [(41, 42), (45, 46)]])
    view = document_view(
        "d", [f"w{i}" for i in range(100)], key=key, response=response, twins=ExactMatcher()(key, response), metrics={}, max_tokens=20
    )
    assert (view.first, view.words[0], len(view.words), view.n_tokens) == (39, "w39", 20, 100)
    assert [(m.start, m.end, m.twinless) for m in view.key] == [(40, 42, True), (55, 57, True)]
    assert [(m.start, m.end, m.twinless) for m in view.response] == [(41, 42, True), (45, 46, True)]
    assert window_note(view).startswith(
        "Tokens 40–59 of 100: the stretch with the most errors. Mentions shown: 2 of 5 gold, 2 of 4 predicted"
    )


def test_crossing_mentions_are_cut_into_fragments_and_text_is_escaped():
    words = ["<a>", "b", "&", "d", "e", "f"]
    mentions = [Mention(0, 4, "1", 0, twinless=False), Mention(1, 2, "2", 1, twinless=True), Mention(3, 6, "x1", -1, twinless=False)]
    tree = parse(mention_markup(words, 0, mentions))
    spans = tree.find_all(tagged("span", "m"))
    assert [s.classes for s in spans] == [["m", "p0", "h1"], ["m", "p1", "h0", "t"], ["m", "px", "h0", "o"], ["m", "px", "h0", "c"]]
    assert spans[2].inside(spans[0]) and not spans[3].inside(spans[0])
    assert [sub.all_text() for sub in tree.find_all(tagged("sub", "l"))] == ["2", "1", "x1"]
    assert tree.all_text() == "<a> b2 & d1 e fx1"
    assert "&lt;a&gt;" in mention_markup(words, 0, mentions)


def test_histogram_steps_are_round():
    assert [nice_step(x) for x in (0.25, 1, 1.5, 4.2, 17, 51)] == [1, 1, 2, 5, 20, 100]
