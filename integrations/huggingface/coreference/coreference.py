"""Coreference metrics for Hugging Face ``evaluate``, scored per document
by spacy-coref-eval: MUC, B³, CEAFm, CEAFe, BLANC, LEA and the CoNLL
score, with coval's inputs and output keys.

Unlike the ``coval`` module, whose call scores every sentence it is given
as one document (so that two documents reusing an entity id merge), the
sentences are grouped into documents by their document-id and part
columns, and every document is scored on its own, as the CoNLL-2012
scorer scores a file.
"""

import tempfile
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

import datasets
import evaluate

import spacy_coref_eval

_CITATION = """\
@inproceedings{pradhan-etal-2014-scoring,
    title = "Scoring Coreference Partitions of Predicted Mentions: A Reference Implementation",
    author = "Pradhan, Sameer and Luo, Xiaoqiang and Recasens, Marta and Hovy, Eduard and Ng, Vincent and Strube, Michael",
    booktitle = "Proceedings of the 52nd Annual Meeting of the Association for Computational Linguistics (Volume 2: Short Papers)",
    year = "2014",
    pages = "30--35",
    url = "https://aclanthology.org/P14-2006",
}
@inproceedings{moosavi-strube-2016-coreference,
    title = "Which Coreference Evaluation Metric Do You Trust? A Proposal for a Link-based Entity Aware Metric",
    author = "Moosavi, Nafise Sadat and Strube, Michael",
    booktitle = "Proceedings of the 54th Annual Meeting of the Association for Computational Linguistics (Volume 1: Long Papers)",
    year = "2016",
    pages = "632--642",
    url = "https://aclanthology.org/P16-1060",
}
"""

_DESCRIPTION = """\
Coreference metrics (MUC, Vilain et al. 1995; B-cubed, Bagga and Baldwin 1998; CEAF, Luo 2005; BLANC, Recasens and
Hovy 2011; LEA, Moosavi and Strube 2016; the CoNLL score, the mean of the MUC, B-cubed and CEAFe F1) computed by
spacy-coref-eval, which gives the reference CoNLL-2012 scorer's numbers. Inputs are coval's (sentences of CoNLL
word lines), grouped into documents by their document-id and part columns and scored document by document, or
documents given as lists of clusters of token spans.
"""

_KWARGS_DESCRIPTION = """
Args:
    predictions: the system's output, in one of two forms (the same for references):
        - a list of sentences, each a list of CoNLL word lines (columns joined with spaces: document id, part
          number, word number, word, ..., coreference last), as coval's module takes them; sentences form
          documents by their document id and part (the first two columns);
        - a list of documents, each a list of clusters, each a list of [start, end] token spans (end exclusive,
          or inclusive with span_end="inclusive"); documents pair by position.
    references: the key, in the same form as predictions.
    keep_singletons: count entities of one mention (default True).
    NP_only: coval's NP_only, drop mentions not rooted in an NP (CoNLL lines with parses; coval's conventions).
    min_span: coval's minimum spans (MINA) from the references' parse column (coval's conventions).
    remove_nested: coval's remove_nested (coval's conventions).
    match: mention matching, "exact" (default), "head", "overlap" or "partial".
    twinless: the twinless-mention policy, "conll" (default), "b3all", "b30" or "sys".
    preset: another scorer's conventions: "coval" (coval's numbers), "corefud", "ua".
    span_end: "exclusive" (default) or "inclusive", for lists of clusters.
Returns:
    "<metric>/recall", "<metric>/precision", "<metric>/f1" (fractions) for mentions, muc, bcub, ceafm, ceafe, blanc
    and lea (those the settings compute), "conll_score" (percent), "n_documents", and "warnings" when there are any.
Examples:
    >>> metric = evaluate.load("integrations/huggingface/coreference")  # doctest: +SKIP
    >>> sentence = ["doc1 0 0 John NNP - (0)", "doc1 0 1 saw VBD - -", "doc1 0 2 himself PRP - (0)"]
    >>> metric.compute(predictions=[sentence], references=[sentence])["conll_score"]  # doctest: +SKIP
    100.0
"""

RATES = ("recall", "precision", "f1")
CONLL_LINES = datasets.Features(
    {"predictions": datasets.Sequence(datasets.Value("string")), "references": datasets.Sequence(datasets.Value("string"))}
)
CLUSTERS = datasets.Features(
    {side: datasets.Sequence(datasets.Sequence(datasets.Sequence(datasets.Value("int64")))) for side in ("predictions", "references")}
)


@evaluate.utils.file_utils.add_start_docstrings(_DESCRIPTION, _KWARGS_DESCRIPTION)
class Coreference(evaluate.Metric):
    def _info(self) -> evaluate.MetricInfo:
        return evaluate.MetricInfo(
            module_type="metric",
            description=_DESCRIPTION,
            citation=_CITATION,
            inputs_description=_KWARGS_DESCRIPTION,
            features=[CLUSTERS, CONLL_LINES],
            codebase_urls=["https://pypi.org/project/spacy-coref-eval/"],
            reference_urls=["https://aclanthology.org/P14-2006", "http://www.conll.cemantix.org/2012/data.html"],
        )

    def _compute(
        self,
        predictions: Sequence[Any],
        references: Sequence[Any],
        keep_singletons: bool = True,
        NP_only: bool = False,
        min_span: bool = False,
        remove_nested: bool = False,
        match: Any = None,
        twinless: str = "conll",
        preset: Any = None,
        span_end: str = "exclusive",
    ) -> dict[str, Any]:
        options = {
            "singletons": None if keep_singletons else "remove",
            "np_only": NP_only,
            "mina": min_span,
            "remove_nested": remove_nested,
            "match": match,
            "twinless": twinless,
            "preset": preset,
        }
        if _are_lines(references) and _are_lines(predictions):
            with tempfile.TemporaryDirectory() as folder:
                key, response = Path(folder) / "key.conll", Path(folder) / "response.conll"
                write_documents(key, references, "references")
                write_documents(response, predictions, "predictions")
                scores = spacy_coref_eval.score(key, response, per_doc=False, pair_by="name", **options)
        else:
            scores = spacy_coref_eval.score(list(references), list(predictions), per_doc=False, span_end=span_end, **options)
        return coval_keys(scores)


def coval_keys(scores: Any) -> dict[str, Any]:
    """coval's flat keys: ``<metric>/<rate>`` (fractions), ``conll_score`` (percent)."""
    out: dict[str, Any] = {}
    for name, rates in scores.metrics.items():
        if name != "conll":
            out.update({f"{name}/{rate}": rates[rate] for rate in RATES})
    if scores.conll is not None:
        out["conll_score"] = 100 * scores.conll
    out["n_documents"] = len(scores.result.names)
    if scores.warnings:
        out["warnings"] = scores.warnings
    return out


def group_documents(sentences: Iterable[Sequence[str]], side: str) -> dict[tuple[str, str], list[list[str]]]:
    """The sentences of CoNLL word lines by document: the first two columns
    (document id and part) of each sentence's first word line."""
    documents: dict[tuple[str, str], list[list[str]]] = {}
    for number, sentence in enumerate(sentences):
        lines = [line for line in sentence if line.strip() and not line.lstrip().startswith("#")]
        if not lines:
            continue
        columns = lines[0].split()
        if len(columns) < 4:
            raise spacy_coref_eval.CorefInputError(
                f"{side}, sentence {number}: a CoNLL word line has at least the columns document id, part, word "
                f"number, word and coreference; read {lines[0]!r}"
            )
        documents.setdefault((columns[0], columns[1]), []).append(lines)
    return documents


def write_documents(path: Path, sentences: Iterable[Sequence[str]], side: str) -> None:
    """The sentences as a CoNLL-2012 file, one ``#begin document`` block per document."""
    with open(path, "w", encoding="utf-8") as out:
        for (document, part), lines in group_documents(sentences, side).items():
            out.write(f"#begin document ({document}); part {part}\n")
            for sentence in lines:
                out.write("\n".join(" ".join(line.split()) for line in sentence) + "\n\n")
            out.write("#end document\n")


def _are_lines(values: Sequence[Any]) -> bool:
    return all(isinstance(line, str) for sentence in values for line in sentence)
