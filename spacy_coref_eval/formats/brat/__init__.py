"""brat standoff (docs/formats.md, Annotation tools): an ``.ann`` file
beside its ``.txt``, or a folder of such pairs, one document each, named
by the file. Binary relations of the coreference types
(:data:`~..annotation.COREFERENCE_TYPES` unless :func:`brat_format` names
others), equivalence lines (``*``) and LitBank's entity labels are closed
into entities with a closure report. ``--input-format brat:TYPE,TYPE``
names the coreference types on the command line."""

from collections.abc import Iterable
from functools import partial
from typing import Optional

from ...errors import CorefInputError
from ..base import Format, Lazy

FORMAT = Format(
    "brat", "brat standoff", (".ann",), Lazy(f"{__name__}.read:read_brat"), directories=True, configure=Lazy(f"{__name__}:configured")
)


def brat_format(types: Optional[Iterable[str]], name: str = "brat") -> Format:
    """A brat format reading the relation types ``types`` (``None``: every
    type) as coreference, to register in place of the default, e.g.
    ``register_format(brat_format({"COREF"}), replace=True)``.

    Parameters
    ----------
    types : the relation and equivalence types that are coreference.
    name : the format's name.
    """
    from .read import read_brat

    return Format(name, "brat standoff", (".ann",), partial(read_brat, types=None if types is None else frozenset(types)), directories=True)


def configured(options: str) -> Format:
    """``brat:TYPE,TYPE…`` on the command line: the relation and
    equivalence types that are coreference (``brat:*``: every type).

    Parameters
    ----------
    options : the text after the colon.
    """
    types = [t.strip() for t in options.split(",") if t.strip()]
    if not types:
        raise CorefInputError("brat:TYPES names the relation types that are coreference, e.g. brat:Coref,Anaphora")
    return brat_format(None if types == ["*"] else types, f"brat:{options}")
