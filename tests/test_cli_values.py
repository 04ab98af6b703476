"""Command-line values converted without pydantic (``cli/values.py``) come
out as typer's own conversion gives them: the same value of the same type,
or the same error."""
from pathlib import Path

import pytest
import typer

from spacy_coref_eval.cli import app
from spacy_coref_eval.cli.values import PlainConversion

typer_conversion = pytest.importorskip("typer._coercion", reason="this typer does not convert through pydantic")

COMMAND = typer.main.get_command(app)
PARAMS = [(name, param) for name, command in COMMAND.commands.items() for param in command.params]
RAW = [
    None, "", " ", "x", "0", "1", "007", "-1", "-0", "+5", " 5", "5 ", "1_000", "٣", "0x10", "1e3",
    "0.5", ".5", "5.", "05.5", "1e-3", "nan", "inf", "-0.5", "0.95", "1" * 30,
    "256", "257", "1000000", "1000001", "10000000", "10000001", "4294967295", "4294967296",
    0, 1, 1000, -1, 0.5, True, False,
]


def outcome(convert, value, param, ctx):
    try:
        result = convert(value, param=param, ctx=ctx)
    except typer.BadParameter as err:
        return "error", err.format_message()
    return "value", type(result), repr(result)


@pytest.mark.parametrize("name, param", PARAMS, ids=[f"{name}:{param.name}" for name, param in PARAMS])
def test_plain_values_convert_as_typer_converts(name, param, tmp_path):
    unreadable = tmp_path / "unreadable"
    unreadable.write_text("")
    unreadable.chmod(0)
    paths = [str(tmp_path), str(tmp_path / "missing"), str(Path(__file__)), str(unreadable), "-", ".", Path(__file__)]
    ctx = typer.Context(COMMAND.commands[name])
    descriptor = param.type_descriptor
    theirs = typer_conversion.build_runtime_param(descriptor)
    for value in RAW + paths + [(str(Path(__file__)),), ()]:
        ours = PlainConversion(descriptor.annotation, descriptor.parameter_info)
        assert outcome(ours.coerce, value, param, ctx) == outcome(theirs.coerce, value, param, ctx), value
