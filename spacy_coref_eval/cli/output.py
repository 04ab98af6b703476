"""What the commands print: the report on standard output (or a file),
messages on standard error, bad input as one line and exit code 1."""
import json
import sys
from pathlib import Path
from typing import NoReturn, Optional

import typer
from wasabi import color

from ..report.table import documents_table, metrics_table
from ..scoring import CorpusResult

_ICONS = {"good": ("✔", "green"), "info": ("ℹ", "blue"), "warn": ("⚠", "yellow"), "fail": ("✘", "red")}


def say(kind: str, text: str) -> None:
    """A ``good``/``info``/``warn``/``fail`` message, one line on standard
    error (never wrapped, so paths stay whole), keeping standard output for
    the report alone."""
    icon, colour = _ICONS[kind]
    if sys.stderr.isatty():
        icon = color(icon, fg=colour)
    sys.stderr.write(f"{icon} {text}\n")


def fail(err: Exception) -> NoReturn:
    """Stop with the error as one line, exit code 1."""
    say("fail", str(err))
    raise typer.Exit(1)


def check_format(fmt: str) -> None:
    if fmt not in ("table", "json"):
        raise typer.BadParameter("--format must be 'table' or 'json'")


def render(result: CorpusResult, fmt: str, per_doc: bool) -> str:
    """The report in ``json`` or ``table`` form."""
    if fmt == "json":
        return json.dumps(result.to_json(per_doc=per_doc), indent=2, ensure_ascii=False) + "\n"
    parts = [metrics_table(result.metrics())]
    if per_doc:
        documents = result.to_json(per_doc=True)["documents"]
        parts.append(documents_table({name: doc["metrics"] for name, doc in documents.items()}))
    return "\n".join(parts)


def report(result: CorpusResult, fmt: str, per_doc: bool, output: Optional[Path]) -> None:
    """Warnings on standard error, then the report to ``output`` or standard output."""
    for warning in result.warnings:
        say("warn", warning)
    text = render(result, fmt, per_doc)
    if output is None:
        sys.stdout.write(text)
    else:
        output.write_text(text, encoding="utf8")
        say("good", f"Saved scores to {output}")
