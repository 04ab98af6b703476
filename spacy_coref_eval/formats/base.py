"""What a format is (:class:`Format`) and what a reader is asked for
(:class:`ReadOptions`). Importing this module imports no numpy, so that
the command line can list the formats in its help at once."""

from collections.abc import Sequence
from dataclasses import dataclass
from importlib import import_module
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Optional, Union

if TYPE_CHECKING:
    from .document import Side, SideDocument
    from .inputs import InputLimits

Reader = Callable[[Path, "ReadOptions"], "Side"]
BytesReader = Callable[[Union[bytes, bytearray], Path, "ReadOptions"], "Side"]
Writer = Callable[[Path, Sequence["SideDocument"], Sequence[Path]], list[str]]


@dataclass(frozen=True)
class ReadOptions:
    """What a reader is asked for. ``role`` is ``"key"`` or ``"response"``
    (a format holding both gold and predicted clusters picks by it);
    ``spans`` reads clusters from spaCy docs (a cluster reader, see
    :mod:`.docbin.spans`); ``words`` asks for every document's words where
    the format can leave them out, ``tokens`` for the token attributes the
    analyses read (parts of speech, morphology); ``paired_with`` is the key
    side a response is read against (a reader may reuse what was read
    there); ``entity_ids`` asks for every document's mentions with their
    entity ids as written (:attr:`~.document.SideDocument.mentions`), for
    cross-document scoring; ``limits`` bound what a file read is
    (:class:`~.inputs.InputLimits`, ``None``: from the environment)."""

    role: str = "response"
    spans: Any = None
    words: bool = True
    tokens: bool = False
    paired_with: Optional["Side"] = None
    entity_ids: bool = False
    limits: Optional["InputLimits"] = None


@dataclass(frozen=True)
class Format:
    """One format: its ``name`` (``--input-format NAME``), a ``title`` for
    messages, the ``suffixes`` file names end in (``.gz`` aside, any case),
    its reader and writer (``None``: not written). ``positional`` formats
    pair with each other by token position without comparing words, as
    the reference scorer pairs CoNLL-2012 files; ``directories`` says that
    the reader takes a directory; ``spans_only`` that the writer holds
    token ranges only (no discontinuous mentions); ``token_attributes``
    that it writes token attributes (parts of speech, morphology), which
    a conversion then asks the reader for; ``documents`` is what the
    format's documents are called in messages."""

    name: str
    title: str
    suffixes: tuple[str, ...]
    read: Reader
    write: Optional[Writer] = None
    positional: bool = False
    directories: bool = False
    spans_only: bool = True
    token_attributes: bool = False
    documents: str = "documents"
    index: Optional["DocumentIndex"] = None
    """How a file is cut into documents without reading it, for reading a
    batch at a time (docs/streaming.md); ``None``: read whole."""
    configure: Optional[Callable[[str], "Format"]] = None
    """For a format that takes options in its name (``brat:Coref,Anaphora``):
    the format configured by the text after the colon."""
    parse: Optional[BytesReader] = None
    """The reader of a file's bytes (or a part of them) given with its
    path for messages; taken from ``read`` where that is :class:`Opened`,
    which opens the file (:mod:`.inputs`) and calls it. ``None`` where the
    format reads a path (a directory)."""

    def __post_init__(self) -> None:
        if self.parse is None and isinstance(self.read, Opened):
            object.__setattr__(self, "parse", self.read.parse)

    def matched(self, file_name: str) -> int:
        """The length of the longest of :attr:`suffixes` that ``file_name``
        (lower case, ``.gz`` removed) ends in, 0 for none."""
        return max((len(suffix) for suffix in self.suffixes if file_name.endswith(suffix)), default=0)

    def describe(self) -> str:
        """``title (suffixes)``, for help texts and messages; ``(by name)``
        for a format no suffix names."""
        if not self.suffixes and not self.directories:
            return f"{self.title} (by name)"
        names = ", ".join(f"*{s}" if not s.startswith(".") else s for s in self.suffixes) or "by name"
        return f"{self.title} ({names}{', a directory' if self.directories else ''})"


@dataclass(frozen=True)
class Opened:
    """The reader of a format read from one file: the file opened once, as
    every reader's is (:func:`~.inputs.read_input`: ``.gz``, size limits,
    line lengths), and its bytes handed to ``parse`` with its path for
    messages. ``long_lines``: a line may be as long as the whole input
    (JSON lines, binary files)."""

    parse: BytesReader
    long_lines: bool = False

    def __call__(self, path: Path, options: "ReadOptions") -> "Side":
        from .inputs import read_input

        path = Path(path)
        return self.parse(read_input(path, options.limits, self.long_lines), path, options)


@dataclass(frozen=True)
class DocumentIndex:
    """How a format's files are indexed by document (docs/streaming.md §2).
    ``pattern`` matches the lines that matter at a line's start, among the
    lines that begin with the byte ``first`` (``None``: every line);
    ``entries`` turns the scan's ``(offset, match)`` items into the file's
    documents (:data:`.index.Entries`); ``read_batch`` reads a batch's bytes
    and path given the entity ids seen before (``None``: the format's
    :attr:`Format.parse`) and
    ``batch_warnings`` sums what the batches noted into warning lines;
    ``alone`` says that the format streams paired with itself only, and
    ``long_lines`` that a line may be as long as the whole input."""

    pattern: bytes
    first: Optional[bytes]
    entries: Callable[..., Any]
    read_batch: Optional[Callable[..., Any]] = None
    batch_warnings: Optional[Callable[..., Any]] = None
    alone: bool = False
    long_lines: bool = False


@dataclass(frozen=True)
class Lazy:
    """The function ``module:name``, imported when first called, so that a
    format's entry costs nothing until the format is used."""

    target: str

    def __call__(self, *args: Any) -> Any:
        module, _, name = self.target.partition(":")
        return getattr(import_module(module), name)(*args)
