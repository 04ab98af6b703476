"""The format registry: the formats built in, those registered with
:func:`register_format`, and those of installed packages' entry points in
the group :data:`ENTRY_POINTS`, each a :class:`~.base.Format`. One rule
names the format of a file for reading and writing (:func:`format_of`)."""

from pathlib import Path
from typing import Optional, Union

from ..errors import CorefInputError
from .base import Format
from .brat import FORMAT as BRAT
from .conll import FORMAT as CONLL
from .conllu import FORMAT as CONLLU
from .docbin import FORMAT as DOCBIN
from .doccano import FORMAT as DOCCANO
from .indiscrim import FORMAT as INDISCRIM
from .jsonlines import FORMAT as JSONLINES
from .labelstudio import FORMAT as LABELSTUDIO
from .litbank_tsv import FORMAT as LITBANK_TSV
from .prodigy import FORMAT as PRODIGY
from .sysout import SYSTEMS
from .text2text import FORMAT as TEXT2TEXT
from .ua import FORMAT as UA
from .webanno import FORMAT as WEBANNO

ENTRY_POINTS = "spacy_coref_eval.formats"
"""The entry-point group of formats installed by other packages; each
entry point loads a :class:`~.base.Format`."""
FALLBACK = CONLL.name
"""The format of an input whose name ends in no format's suffix (the
reference scorer's test files are named ``*.key`` and ``*.response``);
such an output is refused instead, since writing would have to guess."""

_BUILT_IN = (CONLL, CONLLU, JSONLINES, DOCBIN, UA, *SYSTEMS, TEXT2TEXT, INDISCRIM)
_ANNOTATION_TOOLS = (BRAT, LITBANK_TSV, WEBANNO, LABELSTUDIO, PRODIGY, DOCCANO)
_REGISTERED: dict[str, Format] = {fmt.name: fmt for fmt in (*_BUILT_IN, *_ANNOTATION_TOOLS)}
_PLUGINS_LOADED = False


def register_format(fmt: Format, replace: bool = False) -> Format:
    """Add ``fmt`` to the registry (``replace`` an entry of the same name);
    returns it, so that it can decorate a module-level assignment."""
    if not isinstance(fmt, Format):
        raise TypeError(f"a format is a spacy_coref_eval.formats.Format, not {fmt!r}")
    if fmt.name in _REGISTERED and not replace:
        raise ValueError(f"a format named {fmt.name!r} is already registered")
    _REGISTERED[fmt.name] = fmt
    return fmt


def registered_formats(plugins: bool = True) -> tuple[Format, ...]:
    """Every format, built-in ones first; with ``plugins`` those of
    installed packages too (their entry points are read once)."""
    if plugins:
        _load_plugins()
    return tuple(_REGISTERED.values())


def get_format(name: str) -> Format:
    """The format called ``name`` (``NAME:OPTIONS`` configures a format
    that takes options, e.g. ``brat:Coref,Anaphora``);
    :class:`CorefInputError` listing the formats for any other name."""
    if ":" in name and name not in _REGISTERED:
        base, _, options = name.partition(":")
        fmt = get_format(base)
        if fmt.configure is None:
            raise CorefInputError(f"the format {base!r} takes no options (given {options!r} after the colon)")
        return fmt.configure(options)
    if name not in _REGISTERED:
        _load_plugins()
    if name not in _REGISTERED:
        raise CorefInputError(f"unknown format {name!r}; choose from {', '.join(_REGISTERED)}")
    return _REGISTERED[name]


def format_of(path: Union[str, Path], given: Optional[str] = None, writing: bool = False) -> Format:
    """The format of a file: ``given`` (a format name) when given, else the
    format whose suffix the name ends in (the longest such suffix, any
    case, ``.gz`` aside), else for a directory the format that reads
    directories. An input whose name says nothing is read as
    :data:`FALLBACK`; such an output is an error naming the formats."""
    if given is not None:
        return get_format(given)
    path = Path(path)
    if not writing and path.is_dir():
        return _directory_format(path)
    name = path.name.lower()
    name = name[: -len(".gz")] if name.endswith(".gz") else name
    fmt = _by_suffix(name)
    if fmt is None and not _PLUGINS_LOADED:
        _load_plugins()
        fmt = _by_suffix(name)
    if fmt is not None:
        return fmt
    if writing:
        raise CorefInputError(
            f"{path}: cannot tell which format to write from the name; end it in a format's suffix "
            f"({describe_formats()}) or name the format"
        )
    return _REGISTERED[FALLBACK]


def claimed_by(file_name: str) -> Optional[str]:
    """``"a FORMAT file"`` when ``file_name`` ends in a built-in or
    registered format's suffix, else ``None``."""
    name = file_name.lower()
    fmt = _by_suffix(name[: -len(".gz")] if name.endswith(".gz") else name)
    return None if fmt is None else f"a {fmt.title} file"


def describe_formats(plugins: bool = False) -> str:
    """Every format with its suffixes, for help texts and messages."""
    return "; ".join(fmt.describe() for fmt in registered_formats(plugins))


def _directory_format(path: Path) -> Format:
    """The format of a directory: of the formats that read directories,
    the one whose suffixes most of its files end in (the first such format,
    CoNLL-2012, when none does)."""
    readers = [fmt for fmt in _REGISTERED.values() if fmt.directories]
    names = [child.name.lower() for child in path.iterdir() if child.is_file()]
    names = [name[: -len(".gz")] if name.endswith(".gz") else name for name in names]
    counts = [sum(bool(fmt.matched(name)) for name in names) for fmt in readers]
    return readers[counts.index(max(counts))]


def _by_suffix(name: str) -> Optional[Format]:
    best = max(_REGISTERED.values(), key=lambda fmt: fmt.matched(name))
    return best if best.matched(name) else None


def _load_plugins() -> None:
    """Register the formats of the :data:`ENTRY_POINTS` group, once."""
    global _PLUGINS_LOADED
    if _PLUGINS_LOADED:
        return
    _PLUGINS_LOADED = True
    from importlib.metadata import entry_points

    for entry in entry_points(group=ENTRY_POINTS):
        try:
            fmt = entry.load()
        except Exception as err:
            raise CorefInputError(f"cannot load the format {entry.name!r} ({entry.value}): {err}") from None
        if fmt.name not in _REGISTERED:
            register_format(fmt)
