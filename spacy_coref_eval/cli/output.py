"""What the commands print: the report on standard output (or a file),
messages on standard error, bad input as one line and exit code 1."""

import sys
import warnings
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import NoReturn, Optional

import click

from ..errors import CorefEvalWarning, CorefInputError

_ICONS = {"good": ("✔", "green"), "info": ("ℹ", "blue"), "warn": ("⚠", "yellow"), "fail": ("✘", "red")}
REPORT_FORMATS = ("table", "json", "csv", "tsv", "markdown", "latex")
"""What ``--format`` of ``score``, ``merge`` and ``evaluate`` offers (``report.text.FORMATS``)."""
SUFFIX_FORMATS = {".json": "json", ".csv": "csv", ".tsv": "tsv", ".md": "markdown", ".tex": "latex"}
"""The report format an ``--output`` name says when ``--format`` is not given."""
QUIET = False
"""``--quiet``: :func:`say` writes errors only, and no progress is shown."""
_ALIASES: dict[str, str] = {}
"""Temporary paths that stand for something without a name (standard
input), and how messages name it instead (:func:`aliased`)."""


@contextmanager
def aliased(path: str, name: str) -> Iterator[None]:
    """Messages name ``path`` ``name`` while inside."""
    _ALIASES[path] = name
    try:
        yield
    finally:
        del _ALIASES[path]


def named(path: Optional[Path]) -> str:
    """How messages and reports name an input (``<stdin>`` for standard input)."""
    return _ALIASES.get(str(path), str(path))


def to_stdout(output: Optional[Path]) -> bool:
    """Whether ``--output`` means standard output (not given, or ``-``)."""
    return output is None or str(output) == "-"


def say(kind: str, text: str) -> None:
    """A ``good``/``info``/``warn``/``fail`` message, one line on standard
    error (never wrapped, so paths stay whole), keeping standard output for
    the report alone. Control characters in ``text`` are escaped."""
    from ..report.labels import printable

    if kind == "warn":
        _STRICT["warnings"] += 1
    if QUIET and kind != "fail":
        return
    for path, name in _ALIASES.items():
        text = text.replace(path, name)
    icon, colour = _ICONS[kind]
    if coloured(sys.stderr):
        icon = click.style(icon, fg=colour)
    try:
        sys.stderr.write(f"{icon} {printable(text)}\n")
    except OSError:
        pass


def coloured(stream) -> bool:
    """Whether to colour what goes to ``stream``: a terminal, and no
    ``NO_COLOR`` set (https://no-color.org)."""
    import os

    return not os.environ.get("NO_COLOR") and stream.isatty()


def shows_progress() -> bool:
    """Whether progress may be drawn on standard error: a terminal, and no ``--quiet``."""
    return not QUIET and sys.stderr.isatty()


def fail(err: Exception) -> NoReturn:
    """Stop with the error as one line, exit code 1."""
    _STRICT["on"] = False
    say("fail", str(err))
    raise click.exceptions.Exit(1)


_STRICT = {"on": False, "warnings": 0}
"""Whether the running command was given ``--strict``, and how many
warnings it has printed."""


def _strict(ctx: click.Context, param: click.Parameter, value: bool) -> None:
    _STRICT.update(on=value, warnings=0)
    if value:
        ctx.call_on_close(_strict_end)


def _strict_end() -> None:
    """Under ``--strict``, a run that printed a warning ends with exit code 1."""
    if _STRICT["on"] and _STRICT["warnings"]:
        _STRICT["on"] = False
        say("fail", f"--strict: {_STRICT['warnings']} warning(s) above; exit code 1 (the output is written)")
        raise click.exceptions.Exit(1)


STRICT = click.option(
    "--strict",
    is_flag=True,
    expose_value=False,
    callback=_strict,
    help="Exit with code 1 when the run printed any warning (for CI and sweeps); the output is still written",
)


@contextmanager
def reported_errors() -> Iterator[None]:
    """Bad input (:class:`CorefInputError`, :class:`ValueError`) stops the
    command with one line; :class:`CorefEvalWarning` s raised inside are
    printed on standard error first, each once."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", CorefEvalWarning)
        try:
            yield
        except (CorefInputError, ValueError) as err:
            _say_warnings(caught)
            fail(err)
        except MemoryError:
            _say_warnings(caught)
            fail(CorefInputError("out of memory: the input is too large for this machine"))
        _say_warnings(caught)


def _say_warnings(caught: Sequence[warnings.WarningMessage]) -> None:
    for message in dict.fromkeys(str(w.message) for w in caught if issubclass(w.category, CorefEvalWarning)):
        say("warn", message)


def output_format(
    fmt: Optional[str], output: Optional[Path], inputs: Sequence[Path] = (), *, offered: Sequence[str] = ("table", "json")
) -> str:
    """``--format``, or when it is not given the format of ``--output``'s
    suffix (:data:`SUFFIX_FORMATS`) among those ``offered``, else ``table``. A report written to a name
    that says another kind of file (``.html``, or a coreference format's
    suffix) is refused rather than written in a format the name does not
    say; so is one that is an input (``inputs``)."""
    if fmt is not None and fmt not in REPORT_FORMATS:
        raise click.BadParameter(f"--format must be one of {', '.join(REPORT_FORMATS)}, not {fmt!r}")
    if output is not None and not to_stdout(output):
        from ..files import check_not_input
        from ..formats.registry import claimed_by

        try:
            check_not_input(output, inputs)
        except CorefInputError as err:
            fail(err)
        name = output.name.lower()
        other = "an HTML page ('report' writes one)" if name.endswith((".html", ".htm")) else claimed_by(name)
        if other:
            fail(CorefInputError(f"{output}: the name says {other}, not a {fmt or 'table or JSON'} report"))
    if fmt is None:
        said = "table" if output is None or to_stdout(output) else SUFFIX_FORMATS.get(output.suffix.lower(), "table")
        return said if said in offered else "table"
    return fmt


def write(text: str, output: Optional[Path], what: str, *, inputs: Iterable[Path] = ()) -> None:
    """``text`` to ``output`` (atomically, never over an input; see
    :mod:`~spacy_coref_eval.files`), saying so, or to standard output
    (``output`` ``None`` or ``-``)."""
    from ..files import write_output

    if output is None or to_stdout(output):
        try:
            sys.stdout.write(text)
            sys.stdout.flush()
        except OSError as err:
            fail(CorefInputError(f"cannot write {what} to standard output: {err.strerror or err}"))
        return
    try:
        write_output(output, text, inputs)
    except CorefInputError as err:
        fail(err)
    say("good", f"Saved {what} to {output}")


def say_warnings(lines: Iterable[str]) -> None:
    """Every warning of a run, one line each, on standard error."""
    for line in lines:
        say("warn", line)
