"""Head-only coreference on spaCy docs (docs/formats.md §7): Coreferee's
chains, read as one mention a chain member, spanning its tokens, with its
first token as head, for head matching against a key's heads."""

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ...errors import CorefInputError

if TYPE_CHECKING:
    from spacy.tokens import Doc, Span


@dataclass(frozen=True)
class CorefereeChains:
    """The chains Coreferee stores in ``doc._.coref_chains``: every mention
    (its ``token_indexes``: one token, or several for a coordination such
    as "Peter and Mary") becomes the span from its first to its last token,
    headed by its first token. A doc without the extension or without
    chains has no entities."""

    attribute: str = "coref_chains"

    def accepts(self, names: Iterable[str]) -> bool:
        return True

    def describe(self) -> str:
        return f"doc._.{self.attribute}"

    def _chains(self, doc: "Doc") -> list[list[list[int]]]:
        if not doc.has_extension(self.attribute):
            return []
        chains = getattr(doc._, self.attribute) or []
        try:
            return [[sorted(int(index) for index in mention.token_indexes) for mention in chain] for chain in chains]
        except (AttributeError, TypeError, ValueError) as err:
            raise CorefInputError(
                f"doc._.{self.attribute} is not Coreferee's chains (chains of mentions with token_indexes): {err}"
            ) from None

    def __call__(self, doc: "Doc") -> list[list["Span"]]:
        out = []
        for chain in self._chains(doc):
            spans = []
            for indexes in chain:
                if not indexes or indexes[0] < 0 or indexes[-1] >= len(doc):
                    raise CorefInputError(f"a Coreferee mention's token indexes {indexes} lie outside the doc ({len(doc)} tokens)")
                spans.append(doc[indexes[0] : indexes[-1] + 1])
            out.append(spans)
        return out

    def heads(self, doc: "Doc") -> list[list[int]]:
        """Every mention's first token."""
        return [[indexes[0] for indexes in chain] for chain in self._chains(doc)]
