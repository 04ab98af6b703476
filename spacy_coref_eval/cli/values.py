"""Command-line values converted without pydantic.

Typer from 0.2x converts every parameter's value, given or default,
through a pydantic ``TypeAdapter`` built when the value comes: for
``score`` that is importing pydantic and building some twenty adapters,
longer than reading and scoring LitBank. The values of these commands are
plain (text, bounded integers, numbers, paths), so the commands of an
:class:`App` give each parameter a converter that takes a plainly valid
value as typer would and hands anything else to typer's own conversion, so
that messages and exit codes stay typer's. With a typer that converts
otherwise (no ``get_runtime_param``) nothing changes.
"""
import os
import re
import stat
from pathlib import Path
from typing import Any, Callable, List

import typer
from typer.core import TyperCommand, TyperGroup

UNSURE = object()
"""What :func:`plain_value` returns for a value it leaves to typer."""
_DIGITS = re.compile(r"[0-9]+")
_DECIMAL = re.compile(r"[0-9]+\.?[0-9]*|\.[0-9]+")


def plain_value(value: Any, annotation: Any, info: Any) -> Any:
    """``value`` converted to ``annotation`` as typer converts it, when it
    plainly fits (ASCII digits, within ``info``'s bounds, a path passing
    ``info``'s checks), else :data:`UNSURE`."""
    if annotation is str:
        return value if isinstance(value, str) else UNSURE
    if annotation is int or annotation is float:
        return _number(value, annotation, info)
    if annotation is Path:
        return _path(value, info)
    return UNSURE


def _number(value: Any, annotation: type, info: Any) -> Any:
    if info.clamp:
        return UNSURE
    if type(value) is annotation or (annotation is float and type(value) is int):
        number = annotation(value)
    elif isinstance(value, str) and (_DIGITS if annotation is int else _DECIMAL).fullmatch(value):
        number = annotation(value)
    else:
        return UNSURE
    if (info.min is not None and number < info.min) or (info.max is not None and number > info.max):
        return UNSURE
    return number


def _path(value: Any, info: Any) -> Any:
    if not isinstance(value, str) or not value or info.resolve_path or info.allow_dash or info.path_type is not None:
        return UNSURE
    try:
        mode = os.stat(value).st_mode
    except OSError:
        return UNSURE if info.exists else Path(value)
    if (
        (not info.file_okay and stat.S_ISREG(mode))
        or (not info.dir_okay and stat.S_ISDIR(mode))
        or (info.readable and not os.access(value, os.R_OK))
        or (info.writable and not os.access(value, os.W_OK))
    ):
        return UNSURE
    return Path(value)


class PlainConversion:
    """The conversion of one parameter's values: :func:`plain_value`, else
    typer's (built then, once)."""

    def __init__(self, annotation: Any, info: Any) -> None:
        self.annotation = annotation
        self.info = info

    def coerce(self, value: Any, param: Any, ctx: typer.Context) -> Any:
        if value is None and param.nargs == 1 and not param.multiple:
            return None
        converted = plain_value(value, self.annotation, self.info)
        if converted is not UNSURE:
            return converted
        param._runtime_param = None
        return param.get_runtime_param().coerce(value, param=param, ctx=ctx)


def convert_plainly(param: Any) -> None:
    """Give ``param`` a :class:`PlainConversion`, if typer converts its
    values through ``get_runtime_param`` and has not built that yet."""
    descriptor = getattr(param, "type_descriptor", None)
    if descriptor is not None and getattr(param, "_runtime_param", UNSURE) is None and hasattr(param, "get_runtime_param"):
        param._runtime_param = PlainConversion(descriptor.annotation, descriptor.parameter_info)


class PlainValues:
    """A command whose parameters, ``--help`` included, convert plain
    values without pydantic (:func:`convert_plainly`)."""

    def get_params(self, ctx: typer.Context) -> List[Any]:
        params = super().get_params(ctx)  # type: ignore[misc]
        for param in params:
            convert_plainly(param)
        return params


class PlainCommand(PlainValues, TyperCommand):
    """A command of :class:`App`."""


class CommandGroup(PlainValues, TyperGroup):
    """The group of the commands of :class:`App`."""


class App(typer.Typer):
    """A typer application whose group and commands convert plain values
    without pydantic."""

    def __init__(self, **settings: Any) -> None:
        super().__init__(cls=CommandGroup, **settings)

    def command(self, *args: Any, **settings: Any) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
        settings.setdefault("cls", PlainCommand)
        return super().command(*args, **settings)
