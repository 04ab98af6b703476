"""``convert`` (any format to any other), ``export`` (the same, from a
spaCy DocBin) and ``formats`` (the registry); the formats' readers and
writers load when a conversion needs them."""

import shutil
import sys
import tempfile
from collections.abc import Iterable, Iterator, Sequence, Sequence as SequenceABC
from pathlib import Path
from typing import Any, Optional, TypeVar

import click

from ._app import app
from .options import HEAD_PREFIX, INPUT_FORMAT, INPUT_HELP, SPANS, FormatName
from .output import aliased, named, reported_errors, say, say_warnings, shows_progress, write
from .sections import section
from .stdin import is_dash, standard_input

PROGRESS_MIN_BYTES = 1 << 20
T = TypeVar("T")
OUTPUT_FORMAT = section(
    "Output", click.option("--output-format", default=None, type=FormatName(), help="Format to write, by name (default: from OUT's name)")
)


def input_size(path: Path) -> int:
    """Bytes in a file, or in the files directly inside a directory."""
    if path.is_dir():
        return sum(file.stat().st_size for file in path.iterdir() if file.is_file())
    return path.stat().st_size


def progress(items: Iterable[T], total: int, path: Path, *, desc: str) -> Iterator[T]:
    """``items`` with a progress bar on standard error, shown only on a
    terminal, without ``--quiet``, and for inputs of at least
    :data:`PROGRESS_MIN_BYTES`."""
    from tqdm import tqdm

    show = shows_progress() and input_size(path) >= PROGRESS_MIN_BYTES
    return iter(tqdm(items, total=total, desc=desc, unit="doc", disable=not show, leave=False, file=sys.stderr))


class Progressed(SequenceABC):  # type: ignore[type-arg]
    """A sequence each pass over which draws a progress bar (as
    :func:`progress`): what a writer receives, so that its pass building
    the output shows how far it got."""

    def __init__(self, items: Sequence, path: Path, desc: str) -> None:
        self.items, self.path, self.desc = items, path, desc

    def __len__(self) -> int:
        return len(self.items)

    def __getitem__(self, index):  # type: ignore[override]
        return self.items[index]

    def __iter__(self) -> Iterator:
        return progress(self.items, len(self.items), self.path, desc=self.desc)


@app.command(epilog=INPUT_HELP, short_help="Convert coreference between formats")
@click.argument("input_path", metavar="IN", type=click.Path(path_type=Path, allow_dash=True))
@click.argument("output_path", metavar="OUT", type=click.Path(path_type=Path, allow_dash=True))
@INPUT_FORMAT
@OUTPUT_FORMAT
@SPANS
@HEAD_PREFIX
def convert(input_path: Path, output_path: Path, input_format: Optional[str], **options: Any) -> None:
    """Convert coreference between formats, keeping every score. IN and
    OUT: files in any format the package reads and writes ('formats' lists
    them); OUT's name says the format to write (gzip-compressed when it
    ends in .gz).

    To .spacy: every doc keeps the words (one space after each but the
    last), the sentence starts, one span group coref_clusters_N per entity
    (N from 1), mention heads as span groups coref_head_clusters_N when the
    input has them, and the document name. To CoNLL-2012 or jsonlines: the
    words, sentences, clusters and names. To CoNLL-U (CorefUD): the words,
    sentences (those of doc.sents from .spacy input, one per doc without
    sentence boundaries; sentences a mention spans are joined), clusters
    with their heads, names, and the parts of speech and Gender and Person
    features the input has.

    IN - reads standard input (its format from --input-format, else from
    its content); OUT - writes standard output (give --output-format).
    """
    with standard_input((input_path,), ("IN",), (input_format,)) as (input_path,):
        converted(input_path, output_path, input_format, **options)


@app.command(short_help="Export the coreference of a .spacy file")
@click.argument("input_path", metavar="IN", type=click.Path(path_type=Path))
@click.argument("output_path", metavar="OUT", type=click.Path(path_type=Path))
@OUTPUT_FORMAT
@SPANS
@HEAD_PREFIX
def export(input_path: Path, output_path: Path, **options: Any) -> None:
    """Export the coreference of a spaCy DocBin (IN, .spacy) to OUT, in the
    format OUT's name says (CoNLL-2012 for *conll), as 'convert' does.

    Entities are read from the span groups coref_clusters_N (or those
    named by --spans); document names are those kept by 'convert', else
    doc0, doc1, ...; white space inside a token is written as '_'. Use it
    to cross-check with other scorers.
    """
    from ..formats import format_of
    from ..formats.docbin import FORMAT as DOCBIN

    with reported_errors():
        source = format_of(input_path)
        if source is not DOCBIN:
            raise ValueError(f"{input_path} looks like a {source.title} file (did you mean 'convert'?)")
    converted(input_path, output_path, DOCBIN.name, **options)


def converted(input_path: Path, output_path: Path, input_format: Optional[str], *, output_format: Optional[str], **options: Any) -> None:
    """Read ``input_path`` in its format and write it in ``output_path``'s
    (``-``: standard output, through a temporary file)."""
    if not is_dash(output_path):
        return _converted(input_path, output_path, input_format, output_format=output_format, **options)
    if output_format is None:
        raise click.UsageError("OUT - (standard output) has no name to tell the format by; give --output-format")
    with tempfile.TemporaryDirectory(prefix="spacy-coref-eval-") as folder:
        path = Path(folder) / "<stdout>"
        with aliased(str(path), "<stdout>"):
            _converted(input_path, path, input_format, output_format=output_format, **options)
        out = sys.stdout.buffer
        with path.open("rb") as source:
            shutil.copyfileobj(source, out)
        out.flush()


def _converted(
    input_path: Path,
    output_path: Path,
    input_format: Optional[str],
    *,
    output_format: Optional[str],
    spans: Optional[str],
    head_prefix: Optional[str],
) -> None:
    from ..errors import CorefInputError
    from ..files import check_not_input
    from ..formats import ReadOptions, format_of
    from ..formats.corpus import read_side
    from ..formats.docbin.spans import parse_reader
    from ..formats.document import document_names, first_scattered

    with reported_errors():
        check_not_input(output_path, [input_path])
        target = format_of(output_path, output_format, writing=True)
        source = format_of(input_path, input_format)
        if target.write is None:
            raise CorefInputError(f"{output_path}: the {target.title} format is read, not written")
        if source is target and _plain(input_path) == _plain(output_path):
            raise CorefInputError(f"{input_path} and {output_path} are both {source.title} files; nothing to convert")
        reader = parse_reader(spans or "coref_clusters_*", head_prefix)
        side = read_side(input_path, source, ReadOptions("key", reader, True, target.token_attributes))
        documents = list(progress(side.documents, len(side.documents), input_path, desc="Reading"))
        if not documents:
            raise CorefInputError(f"{input_path}: no {source.documents}, nothing to convert")
        changed = []
        for name, document in zip(document_names(documents), documents):
            lost = document.lost_in(target)
            if lost:
                raise CorefInputError(f"{input_path}: document {name!r} has {lost}, which {target.title} cannot hold")
            change = document.changed_in(target)
            if change and source is target:
                raise CorefInputError(
                    f"{input_path}: document {name!r}: converting {target.title} to "
                    f"{target.title} would change it ({change}); (de)compress the file with "
                    "gzip instead"
                )
            if change:
                changed.append(f"document {name!r}: {change}")
        if changed:
            more = f" (and {len(changed) - 1} more document(s))" if len(changed) > 1 else ""
            side.warnings.append(f"{input_path} → {output_path}: {changed[0]}{more}")
        if target.spans_only:
            first_scattered(document_names(documents), documents, target.title)
        notes = target.write(output_path, Progressed(documents, input_path, "Writing"), [input_path])
    say_warnings(side.warnings + notes)
    n_mentions = sum(len(document.clusters) for document in side.documents)
    say("good", f"Converted {len(documents)} document(s), {n_mentions} mention(s) to {named(output_path)}")


def _plain(path: Path) -> bool:
    """Whether a file is written without compression."""
    return not path.name.lower().endswith(".gz")


@app.command("formats", short_help="List the formats read and written")
def formats_command() -> None:
    """List the formats: those built in and those installed packages
    register (entry point group spacy_coref_eval.formats)."""
    from ..formats import registered_formats

    lines = [f"{fmt.name:<12} {fmt.describe()}{'' if fmt.write is not None else ' (read only)'}" for fmt in registered_formats()]
    write("\n".join(lines) + "\n", None, "the formats")
