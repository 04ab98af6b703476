"""The CoNLL-UA path on LitBank (docs/ua.md): the key and the perturbed
response converted to CoNLL-UA and scored under ``--preset ua`` in a whole
process, against the UA scorer (juntaoy/universal-anaphora-scorer, commit
f4adb45, its own virtual environment) run on the same pair of files on the
machine of the README's figures (AMD EPYC, 2 cores, otherwise idle,
2026-11-25): ``ua-scorer.py`` on the CoNLL-UA pair, best of two runs, and
the same repository's ``scorer.py`` (its CoNLL-2012 route) on the pair as
CoNLL files, best of three (:data:`UA_SCORER_HERE`). Both print the
package's scores to the last digit. The peer is not run here (its code is
not part of this repository), so on another machine the ratios are
approximate; issue #18 quotes 4.2 s for the UA scorer on LitBank as CoNLL,
from another machine (:data:`UA_SCORER_ISSUE`)."""

import sys
from dataclasses import replace
from pathlib import Path

import numpy as np

from spacy_coref_eval.formats import ReadOptions, get_format
from spacy_coref_eval.formats.conll.write import crossing_mentions
from spacy_coref_eval.formats.document import WordsDocument
from spacy_coref_eval.model.clusters import Clusters

from .startup import READ_LINES, process_times

UA_SCORER_ISSUE = 4.2
"""The UA scorer on LitBank as CoNLL, as issue #18 quotes it."""
UA_SCORER_HERE = (15.9, 6.84)
"""Wall seconds of the UA scorer on this benchmark's LitBank pair on the
README's machine: ``ua-scorer.py`` on the CoNLL-UA files, ``scorer.py`` on
the CoNLL files (see the module's text)."""
Row = tuple[str, str, str, str]


def nested_only(clusters: Clusters) -> Clusters:
    """``clusters`` without the mentions that cross an earlier one of any
    entity: CoNLL-UA's brackets nest (LitBank has a few such pairs)."""
    keep = ~crossing_mentions(replace(clusters, entity=np.zeros_like(clusters.entity)))
    return Clusters.from_arrays(clusters.starts[keep], clusters.ends[keep], clusters.entity[keep])


def ua_files(folder: Path, key_path: Path, response_path: Path) -> tuple[Path, Path]:
    """LitBank's key and response as CoNLL-UA files (crossing mentions
    left out)."""
    conll, ua = get_format("conll"), get_format("ua")
    out = []
    for path in (key_path, response_path):
        target = folder / (path.stem + ".ua")
        documents = [
            WordsDocument(d.name, nested_only(d.clusters), list(d.words), d.sentence_starts)
            for d in conll.read(path, ReadOptions("key")).documents
        ]
        ua.write(target, documents, [path])
        out.append(target)
    return out[0], out[1]


def ua_path(folder: Path, key_path: Path, response_path: Path, repeat: int) -> list[Row]:
    """The row, with the same pair as CoNLL files scored in the same turns
    (the reference the target is read against when the machine is loaded)."""
    key, response = ua_files(folder, key_path, response_path)
    score = (sys.executable, "-m", "spacy_coref_eval", "score")
    times = process_times(
        max(repeat, 5),
        {
            "floor": (sys.executable, "-c", READ_LINES, str(key), str(response)),
            "score": (*score, str(key), str(response), "--preset", "ua", "-f", "json"),
            "conll": (*score, str(key_path), str(response_path), "-f", "json"),
        },
    )
    ours = times["score"]
    return [
        (
            "UA path: LitBank as CoNLL-UA, --preset ua, whole process",
            f"{ours * 1000:.0f} ms",
            f"UA scorer {UA_SCORER_HERE[0]:.1f} s, as CoNLL {UA_SCORER_HERE[1]:.1f} s (issue: {UA_SCORER_ISSUE:.1f} s); "
            f"CoNLL files {times['conll'] * 1000:.0f} ms",
            f"{UA_SCORER_HERE[0] / ours:.0f}x, {UA_SCORER_HERE[1] / ours:.1f}x as CoNLL (target >= 10x); "
            f"{UA_SCORER_ISSUE / ours:.1f}x the issue's figure",
        )
    ]
