"""brat standoff (docs/formats.md, Annotation tools): an ``.ann`` file
beside its ``.txt``, or a folder of such pairs, one document each, named
by the file. Binary relations of the coreference types
(:data:`~..annotation.COREFERENCE_TYPES` unless :func:`brat_format` names
others), equivalence lines (``*``) and LitBank's entity labels are closed
into entities with a closure report."""
from typing import Iterable, Optional

from ..base import Format, Lazy

FORMAT = Format("brat", "brat standoff", (".ann",), Lazy(f"{__name__}.read:read_brat"), directories=True)


def brat_format(types: Optional[Iterable[str]], name: str = "brat") -> Format:
    """A brat format reading the relation types ``types`` (``None``: every
    type) as coreference, to register in place of the default, e.g.
    ``register_format(brat_format({"COREF"}), replace=True)``.

    Parameters
    ----------
    types : the relation and equivalence types that are coreference.
    name : the format's name.
    """
    from functools import partial

    from .read import read_brat

    return Format(name, "brat standoff", (".ann",), partial(read_brat, types=None if types is None else frozenset(types)),
                  directories=True)
