"""The ``spacy-coref-eval`` command group (click), its commands listed in
the order they are registered, from the commonest on."""

import click

from ..about import __version__
from .sections import SectionedCommand


class CommandGroup(click.Group):
    """A group that lists its commands in the order they were added, each
    with its options in sections (:class:`SectionedCommand`)."""

    command_class = SectionedCommand

    def list_commands(self, ctx: click.Context) -> list[str]:
        return list(self.commands)


@click.group(
    cls=CommandGroup,
    name="spacy-coref-eval",
    context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100, "show_default": True},
)
@click.version_option(__version__, "--version", "-V", prog_name="spacy-coref-eval", message="%(prog)s %(version)s")
def app() -> None:
    """Score coreference resolution: MUC, B³, CEAF, BLANC, LEA and the CoNLL score."""
