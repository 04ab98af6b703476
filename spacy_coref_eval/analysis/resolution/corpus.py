"""Resolution classes of a scoring run: every document classified and
counted at once on the run's own twinning (docs/resolution_classes.md)."""

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Optional

import numpy as np

from ...counting.counts import FIELDS
from ...errors import CorefInputError
from ...model.tokens import Tokens
from .classify import classify_mentions
from .lexicon import ANAPHORIC, NONE, RESOLUTION_CLASSES, Classifier
from .muc_rc import count_resolution_classes, muc_rc_rates
from .profile import class_profile

if TYPE_CHECKING:
    from ...scoring import CorpusResult


@dataclass
class ResolutionClassResult:
    """MUC-RC counts ``(n_docs, 9, 4)`` and class members ``(n_docs, 11)``
    of the documents ``names``."""

    names: list[str]
    muc_rc: np.ndarray
    members: np.ndarray

    def rates(self) -> dict[str, np.ndarray]:
        """Micro-averaged recall, precision and F1 per class (arrays of 9)."""
        return muc_rc_rates(self.muc_rc.sum(axis=0))

    def class_scores(self) -> dict[str, float]:
        """MUC-RC F1 per class, as :func:`cpp_prediction` takes them."""
        return dict(zip(RESOLUTION_CLASSES, self.rates()["f1"].tolist()))

    def to_dict(self, scores: Optional[Mapping[str, float]] = None) -> dict[str, Any]:
        """The ``resolution_classes`` block of a JSON report: per class its
        members (``count``, ``share`` of the anaphoric mentions) and MUC-RC
        rates with their counts; then ``none``, ``anaphoric`` and the CPP
        prediction of this corpus's mix with ``scores`` (default
        :data:`TABLE4_AVERAGE`)."""
        profile = class_profile(self.members, scores)
        totals = self.muc_rc.sum(axis=0)
        rates = {name: values.tolist() for name, values in self.rates().items()}
        out: dict[str, Any] = {}
        for i, name in enumerate(RESOLUTION_CLASSES):
            muc_rc = {rate: values[i] for rate, values in rates.items()}
            muc_rc.update(zip(FIELDS, totals[i].tolist()))
            out[name] = {**profile["classes"][name], "muc_rc": muc_rc}
        out[NONE] = {"count": profile[NONE]}
        out[ANAPHORIC] = {"count": profile[ANAPHORIC]}
        out["cpp"] = profile["cpp"]
        return out

    def document(self, index: int) -> "ResolutionClassResult":
        """The counts of one document alone."""
        return ResolutionClassResult([self.names[index]], self.muc_rc[index : index + 1], self.members[index : index + 1])


def score_resolution_classes(
    result: "CorpusResult", tokens: Sequence[Tokens], classify: Classifier = classify_mentions
) -> ResolutionClassResult:
    """Classes and MUC-RC of every document of a scoring run, read off the
    run's own twinning (:attr:`CorpusResult.twinned`, so the same matcher
    and singleton handling), ``tokens[d]`` holding document ``d``'s token
    information. The run must have been scored with the documents' lengths
    (``score_pairs(..., lengths=...)``) so that the tokens stack on its
    document ranges; all documents go through the classifier and the
    counting at once."""
    twinned = result.twinned
    if twinned is None:
        raise CorefInputError("resolution classes need the twinned mentions; results merged from saved counts have none")
    if len(tokens) != twinned.n_docs:
        raise CorefInputError(f"resolution classes: {len(tokens)} token sequences for {twinned.n_docs} documents")
    lengths = np.array([len(part) for part in tokens], dtype=np.int64)
    ranges = np.diff(np.append(twinned.offsets, twinned.size)) if twinned.n_docs else lengths
    key = twinned.key
    reach = np.maximum(key.ends, key.heads + 1 if key.heads is not None else 0) - twinned.offsets[twinned.key_doc]
    beyond = reach > lengths[twinned.key_doc]
    if beyond.any():
        mention = int(np.argmax(beyond))
        doc = int(twinned.key_doc[mention])
        raise CorefInputError(
            f"document {result.names[doc]!r}: a mention or head reaches token {int(reach[mention]) - 1}, "
            f"beyond the {int(lengths[doc])} tokens given"
        )
    crowded = (lengths >= ranges) & (lengths > 0)
    if crowded.any():
        doc = int(np.argmax(crowded))
        raise CorefInputError(
            f"document {result.names[doc]!r}: its {int(lengths[doc])} tokens do not fit the run's document range; "
            "score it with score_pairs(..., lengths=...)"
        )
    stacked = Tokens.stack(list(tokens), twinned.offsets)
    classes = np.asarray(classify(twinned.key, stacked))
    if classes.shape != (len(twinned.key),):
        raise CorefInputError(f"the resolution classifier gave {classes.shape} classes for {len(twinned.key)} mentions")
    muc_rc, members = count_resolution_classes(
        twinned.key,
        twinned.response,
        twinned.twins,
        classes=classes,
        key_doc=twinned.key_doc,
        response_doc=twinned.response_doc,
        n_docs=twinned.n_docs,
    )
    return ResolutionClassResult(list(result.names), muc_rc, members)
