"""The HTML report's section on aligning the response onto the key
(docs/formats.md, Alignment onto the key), rendered from an
:class:`~.views.AlignmentView`."""

from collections.abc import Mapping
from typing import Any, Optional

from .markup import escape
from .views import ALIGNMENT_COLUMNS, AlignmentView


def alignment_section(view: Optional[AlignmentView]) -> str:
    """Totals, then every document whose alignment changed something with
    its counts and where its text drifted; nothing when no document was
    aligned."""
    if view is None:
        return ""
    head = "".join(f"<th>{name}</th>" for name in ALIGNMENT_COLUMNS)
    total = "".join(f'<td data-alignment="{name}">{view.total[name]}</td>' for name in ALIGNMENT_COLUMNS)
    rows = [f"<tr><th>all {view.n_aligned} aligned documents</th>{total}<td></td></tr>"]
    for name, counts, drift in view.documents:
        cells = "".join(f"<td>{counts[c]}</td>" for c in ALIGNMENT_COLUMNS)
        rows.append(f"<tr><th>{escape(name)}</th>{cells}<td><code>{escape(drift)}</code></td></tr>")
    more = f'<p class="meta">… and {view.more} more document(s) (see the JSON).</p>\n' if view.more else ""
    paired = ", ".join(f"{n} by {how}" for how, n in view.paired.items() if n)
    paired = f" Documents paired with the key's: {paired}." if paired else ""
    return (
        '<section id="alignment">\n<h2>Alignment onto the key</h2>\n'
        f'<p class="meta">The response was put on the key\'s words through the text ({escape(view.unit)}): '
        "mentions whose ends fell inside a key word were snapped outward to whole words, mentions on white "
        f"space dropped; replaced characters differ only as quotes or bracket escapes.{escape(paired)}</p>\n"
        f'<table class="alignment"><thead><tr><th>document</th>{head}<th>where the text drifted</th></tr></thead>'
        "<tbody>\n" + "\n".join(rows) + f"\n</tbody></table>\n{more}</section>"
    )


def closure_section(closure: Optional[Mapping[str, Any]]) -> str:
    """What closing an annotation tool's links into entities did, by side
    (docs/formats.md, Annotation tools); nothing when no side had links."""
    if not closure:
        return ""
    names = list(next(iter(closure.values()))["counts"])
    head = "".join(f"<th>{escape(name.replace('_', ' '))}</th>" for name in names)
    rows = "".join(
        f"<tr><th>{escape(side)}</th>"
        + "".join(f"<td>{report['counts'][name]}</td>" for name in names)
        + f"<td>{escape(', '.join(f'{k} {v}' for k, v in report.get('ignored_types', {}).items()))}</td></tr>"
        for side, report in closure.items()
    )
    return (
        '<section id="closure">\n<h2>Closure of links into entities</h2>\n'
        '<p class="meta">Links and chains were closed transitively into entities: chains merged through a shared '
        "mention, links within an entity already (cycles), links naming no mention and relations of types that are "
        "not coreference are counted here.</p>\n"
        f'<table class="alignment"><thead><tr><th>side</th>{head}<th>ignored types</th></tr></thead>'
        f"<tbody>{rows}</tbody></table>\n</section>"
    )
