"""Agreement among annotators of the same documents (docs/agreement.md):
every pair scored as ``score A B`` scores it, mention detection apart from
linking, Krippendorff's alpha with the MASI distance over mention units
(Passonneau 2004), a disagreement list for adjudication, a system against
every annotator, and a majority-link consensus. A document an annotator
lacks is missing data: it is left out of that annotator's pairs and units."""

from .annotators import Annotation, annotator_names, read_annotation
from .compute import agreement
from .result import Agreement
from .units import NOT_MARKED, DocumentUnits, Unit

__all__ = ["NOT_MARKED", "Agreement", "Annotation", "DocumentUnits", "Unit", "agreement", "annotator_names", "read_annotation"]
