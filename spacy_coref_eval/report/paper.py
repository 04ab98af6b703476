"""The scores tables for papers and spreadsheets: CSV, TSV, Markdown
(pipe tables) and LaTeX (booktabs ``tabular``), from the same rows as the
text table (:mod:`.grids`). Rates are percentages with two decimals, as
in the text table; counts are plain numbers. Markdown and LaTeX end with
the settings line (LaTeX as a comment); CSV and TSV hold only the tables,
separated by one empty line."""

import csv
import io
from collections.abc import Mapping, Sequence
from typing import Any, Callable

from .grids import LABEL, Grid, cell_text
from .labels import settings_line

PAPER_FORMATS = ("csv", "tsv", "markdown", "latex")
LATEX_SPECIALS = {
    "\\": r"\textbackslash{}",
    "&": r"\&",
    "%": r"\%",
    "$": r"\$",
    "#": r"\#",
    "_": r"\_",
    "{": r"\{",
    "}": r"\}",
    "~": r"\textasciitilde{}",
    "^": r"\textasciicircum{}",
    "³": r"$^3$",
}


def render_paper(grids: Sequence[Grid], fmt: str, settings: Mapping[str, Any]) -> str:
    """``grids`` in ``fmt``, one of :data:`PAPER_FORMATS`."""
    return _RENDERERS[fmt](grids, settings_line(settings).strip())


def _cells(grid: Grid):
    return [[cell_text(cell, kind, str.strip) for cell, kind in zip(row, grid.kinds)] for row in grid.rows]


def _delimited(delimiter: str) -> Callable[[Sequence[Grid], str], str]:
    def render(grids: Sequence[Grid], settings: str) -> str:
        blocks = []
        for grid in grids:
            out = io.StringIO()
            writer = csv.writer(out, delimiter=delimiter, lineterminator="\n")
            writer.writerow(grid.header)
            writer.writerows(_cells(grid))
            blocks.append(out.getvalue())
        return "\n".join(blocks)

    return render


def _markdown(grids: Sequence[Grid], settings: str) -> str:
    blocks = []
    for grid in grids:
        lines = [f"**{_md(grid.title)}**\n"] if grid.title else []
        lines.append("| " + " | ".join(_md(name) for name in grid.header) + " |")
        lines.append("|" + "|".join(":---" if kind == LABEL else "---:" for kind in grid.kinds) + "|")
        lines.extend("| " + " | ".join(_md(cell) for cell in row) + " |" for row in _cells(grid))
        blocks.append("\n".join(lines) + "\n")
    return "\n".join(blocks) + f"\n{_md(settings)}\n"


def _md(text: str) -> str:
    return text.replace("\\", "\\\\").replace("|", "\\|")


def _latex(grids: Sequence[Grid], settings: str) -> str:
    blocks = []
    for grid in grids:
        lines = [f"% {_tex(grid.title)}"] if grid.title else []
        lines.append(r"\begin{tabular}{" + "".join("l" if kind == LABEL else "r" for kind in grid.kinds) + "}")
        lines.append(r"\toprule")
        lines.append(" & ".join(_tex(name) for name in grid.header) + r" \\")
        lines.append(r"\midrule")
        for row, cells in zip(grid.rows, _cells(grid)):
            indent = r"\quad " if isinstance(row[0], str) and row[0].startswith(" ") else ""
            lines.append(indent + " & ".join(_tex(cell) for cell in cells) + r" \\")
        lines.append(r"\bottomrule")
        lines.append(r"\end{tabular}")
        blocks.append("\n".join(lines) + "\n")
    return "\n".join(blocks) + f"% {settings}\n"


def _tex(text: str) -> str:
    return "".join(LATEX_SPECIALS.get(char, char) for char in text)


_RENDERERS: dict[str, Callable[[Sequence[Grid], str], str]] = {
    "csv": _delimited(","),
    "tsv": _delimited("\t"),
    "markdown": _markdown,
    "latex": _latex,
}
