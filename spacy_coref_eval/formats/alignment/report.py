"""What aligning responses onto the key changed, summed up."""

from collections.abc import Mapping
from dataclasses import replace

from ..document import AlignmentReport
from .place import Placed


def placed_report(report: AlignmentReport, placed: Placed, dropped: int = 0) -> AlignmentReport:
    """``report`` with the snapped and dropped mentions of ``placed`` (and
    ``dropped`` more, dropped before placing) added."""
    return replace(report, snapped=report.snapped + int(placed.snapped.sum()), dropped=report.dropped + dropped + int((~placed.kept).sum()))


def alignment_warning(reports: Mapping[str, AlignmentReport], shown: int = 3) -> list[str]:
    """One warning summing up what aligning the responses onto the key
    changed, naming the first ``shown`` documents it changed. Characters
    that differ only as quotes or bracket escapes move no mention and are
    left to the JSON and HTML report."""
    totals: dict[str, int] = {}
    changed = []
    for name, report in reports.items():
        counts = [
            (f"{report.unit} {kind}", getattr(report, kind)) for kind in ("inserted", "deleted", "replaced") if report.unit != "characters"
        ]
        counts += [(f"mentions {kind}", getattr(report, kind)) for kind in ("snapped", "dropped", "unplaced")]
        counts = [(label, n) for label, n in counts if n]
        if counts:
            changed.append(name)
        for label, n in counts:
            totals[label] = totals.get(label, 0) + n
    if not changed:
        return []
    counted = ", ".join(f"{n} {label}" for label, n in totals.items())
    named = ", ".join(repr(name) for name in changed[:shown]) + (", ..." if len(changed) > shown else "")
    return [
        f"aligning the response onto the key changed {len(changed)} of {len(reports)} document(s): {counted} "
        f"({named}; see 'alignment' in the JSON or the HTML report)"
    ]
