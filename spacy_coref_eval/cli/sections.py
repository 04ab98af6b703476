"""``--help`` in sections: every option carries the name of its section
(:func:`section`), and :class:`SectionedCommand` lists the options
section by section, in :data:`SECTIONS` order (click has no option
groups). Every command also takes ``--quiet``."""

from typing import Any, Callable

import click

SECTIONS: tuple[str, ...] = ("Scoring", "Input", "Analyses", "Output", "Other")
"""The sections of ``--help``, in order; an option without one is in Other."""
ATTRIBUTE = "help_section"


def section(name: str, *decorators: Callable[[Callable[..., Any]], Callable[..., Any]]) -> Callable[..., Any]:
    """``decorators`` (``click.option``\\ s) applied as if written one above
    the other, each option they add marked as in section ``name``."""
    if name not in SECTIONS:
        raise ValueError(f"unknown help section {name!r}; one of {', '.join(SECTIONS)}")

    def apply(command: Callable[..., Any]) -> Callable[..., Any]:
        for decorator in reversed(decorators):
            before = len(getattr(command, "__click_params__", ()))
            command = decorator(command)
            for param in command.__click_params__[before:]:  # type: ignore[attr-defined]
                setattr(param, ATTRIBUTE, name)
        return command

    return apply


def set_quiet(ctx: click.Context, param: click.Parameter, value: bool) -> bool:
    from . import output

    output.QUIET = value
    return value


def quiet_option() -> click.Option:
    option = click.Option(
        ["--quiet", "-q"],
        is_flag=True,
        expose_value=False,
        is_eager=True,
        callback=set_quiet,
        help="No warnings, notes or progress on standard error (errors still)",
    )
    setattr(option, ATTRIBUTE, "Output")
    return option


class SectionedCommand(click.Command):
    """A command whose ``--help`` lists its options by section, defaults
    shown, and which takes ``--quiet``."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.params.append(quiet_option())

    def format_options(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        rows: dict[str, list[tuple[str, str]]] = {name: [] for name in SECTIONS}
        for param in self.get_params(ctx):
            if not isinstance(param, click.Option):
                continue
            record = param.get_help_record(ctx)
            if record is not None:
                rows[getattr(param, ATTRIBUTE, "Other")].append(record)
        for name in SECTIONS:
            if rows[name]:
                with formatter.section(f"{name} options"):
                    formatter.write_dl(rows[name])
