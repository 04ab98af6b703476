"""Every second implementation against the path it stands beside (issue
#30: a second implementation stays only where it buys at least 1.5x on a
whole process on a real corpus, or lets a corpus that exists fit in memory
on a 16 GB laptop). Each pair is timed as a whole ``score`` process on
LitBank (or LitBank converted by the package's own writers), once with the
fast path and once with the slow path forced in that process by replacing
one function of the package (:data:`PAIRS`: nothing in the package changes),
the two taking turns, best of ``--repeat``; both must print the same JSON.
Streaming is read against reading whole at 4x and 16x LitBank (plain and
``--cross-document``), its peak memory extrapolated to the 40 M-mention
cross-document corpus. ``--corpus tiny`` runs the pairs built for many
small documents (:data:`TINY_PAIRS`) on issue #21 item 5's 10^5
three-token documents (:func:`.small_documents.write_small`) instead, and
sets each side against LitBank's plain ``score`` time (that row's target:
at most 3x LitBank).

    python -m benchmarks.second_paths              # best of 3
    python -m benchmarks.second_paths --repeat 1   # one run each
    python -m benchmarks.second_paths --corpus tiny --repeat 5
    python -m benchmarks.second_paths --child PAIR fast|slow score ARGS...  # one process (the rows run these)

Top-level imports are the standard library's only, so that a child process
imports no more than ``score`` itself does.
"""

import argparse
import os
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Optional

REPO = Path(__file__).resolve().parent.parent
RULE = 1.5
"""The least whole-process speed-up that keeps a second implementation."""
LAPTOP_MB = 16 * 1024
CROSSDOC_MENTIONS = 40_000_000
"""The one corpus streaming is for: 40 M mentions scored cross-document."""
TINY_PAIRS = ("conll", "columns", "docbin-batch", "minipack")
"""The pairs ``--corpus tiny`` runs by default: the batch paths built for
many small documents (issue #21 item 5) and ``conll`` for reference."""
TINY_TARGET = 3.0
"""Issue #21 item 5: 10^5 three-token documents in at most 3x LitBank's time."""


def _no_columns(data, raw=None):
    return None


def _no_ua_columns(data, source):
    return None


def _no_tabbed_columns(data, documents):
    return None


def _not_in_columns(pairs, settings):
    return False


def _no_batch(span_groups, lengths):
    return [None] * len(span_groups)


def _no_minipack(data, use_list=True):
    from spacy_coref_eval.formats.docbin.minipack import Unsupported

    raise Unsupported("forced")


def _patch_conll() -> None:
    from spacy_coref_eval.formats.conll import read

    read.parse_columns = _no_columns  # type: ignore[assignment]


def _patch_words() -> None:
    from spacy_coref_eval.formats.conll import read

    read.tabbed_columns = _no_tabbed_columns  # type: ignore[assignment]


def _patch_columns() -> None:
    from spacy_coref_eval.scoring import score

    score._in_columns = _not_in_columns  # type: ignore[assignment]


def _patch_ua() -> None:
    from spacy_coref_eval.formats.ua import side

    side.parse_simple = _no_ua_columns  # type: ignore[assignment]


def _patch_docbin_decoder() -> None:
    """No reader counts as registered, so that every reader's clusters come
    from ``DocBin.get_docs`` (records.decode_docbin_records; the default
    reader is then an instance of a subclass of the registered one)."""
    from spacy_coref_eval.formats.docbin import records

    class ThroughSpacy(records.PrefixedSpanGroups):
        pass

    class LabeledThroughSpacy(records.LabeledSpanGroup):
        pass

    records.PrefixedSpanGroups = ThroughSpacy  # type: ignore[misc]
    records.LabeledSpanGroup = LabeledThroughSpacy  # type: ignore[misc]


def _patch_docbin_batch() -> None:
    from spacy_coref_eval.formats.docbin import records

    records.batch_groups = _no_batch  # type: ignore[assignment]


def _patch_minipack() -> None:
    from spacy_coref_eval.formats.docbin import table

    table.loads = _no_minipack  # type: ignore[assignment]


def _touch(module: str) -> Callable[[], None]:
    """The fast side's import of the module the slow side patches, so that
    both processes import the same modules in the same order."""

    def touch() -> None:
        __import__(module)

    return touch


@dataclass(frozen=True)
class Pair:
    name: str
    fast: str
    slow: str
    corpus: str
    touch: Callable[[], None]
    patch: Callable[[], None]


PAIRS = {
    pair.name: pair
    for pair in (
        Pair(
            "conll",
            "vectorised reader (formats/conll/vectorised.py)",
            "line reader (conll/read.py _parse)",
            "LitBank CoNLL-2012",
            _touch("spacy_coref_eval.formats.conll.read"),
            _patch_conll,
        ),
        Pair(
            "conll-words",
            "words at the stride of tabs (conll/vectorised.py)",
            "words of the lines split (conll/read.py)",
            "LitBank CoNLL-2012, score --classes",
            _touch("spacy_coref_eval.formats.conll.read"),
            _patch_words,
        ),
        Pair(
            "columns",
            "documents twinned as columns (scoring/score.py)",
            "twin_corpus document by document",
            "LitBank CoNLL-2012",
            _touch("spacy_coref_eval.scoring.score"),
            _patch_columns,
        ),
        Pair(
            "ua",
            "vectorised reader (formats/ua/vectorised.py)",
            "line parser (ua/parse.py)",
            "LitBank as CoNLL-UA, --preset ua",
            _touch("spacy_coref_eval.formats.ua.side"),
            _patch_ua,
        ),
        Pair(
            "docbin",
            "DocBin decoder (formats/docbin/)",
            "DocBin.get_docs + doc_clusters (spaCy)",
            "LitBank as .spacy",
            _touch("spacy_coref_eval.formats.docbin.records"),
            _patch_docbin_decoder,
        ),
        Pair(
            "docbin-batch",
            "span groups of all docs at once (docbin/batch.py)",
            "decode_groups doc by doc",
            "LitBank as .spacy",
            _touch("spacy_coref_eval.formats.docbin.records"),
            _patch_docbin_batch,
        ),
        Pair(
            "minipack",
            "msgpack subset decoder (docbin/minipack.py)",
            "srsly.msgpack_loads",
            "LitBank as .spacy",
            _touch("spacy_coref_eval.formats.docbin.table"),
            _patch_minipack,
        ),
    )
}


def child(pair: str, side: str, args: list[str]) -> None:
    """One ``score`` process with the fast or the slow side of ``pair``."""
    (PAIRS[pair].patch if side == "slow" else PAIRS[pair].touch)()
    from spacy_coref_eval.cli import main

    sys.argv = ["spacy-coref-eval", *args]
    main()


def run_process(argv: list[str], env: Optional[dict[str, str]] = None, out: Optional[Path] = None) -> tuple[float, float]:
    """Seconds and peak resident MB of one process (the wrapper of
    :mod:`.streaming`), its standard output written to ``out``."""
    from .streaming import WRAPPER

    command = [sys.executable, "-c", WRAPPER, *argv] if out is None else [sys.executable, "-c", _to_file(), str(out), *argv]
    done = subprocess.run(command, cwd=REPO, env=env, capture_output=True, text=True, check=True)
    seconds, kilobytes = done.stdout.split()
    return float(seconds), int(kilobytes) / 1024


def _to_file() -> str:
    """:mod:`.streaming`'s wrapper, the child's standard output written to
    the file named by its first argument."""
    from .streaming import WRAPPER

    wrapper = WRAPPER.replace("subprocess.run(sys.argv[1:],", "subprocess.run(sys.argv[2:],")
    return wrapper.replace("stdout=subprocess.DEVNULL", "stdout=open(sys.argv[1], 'wb')")


@dataclass
class Measured:
    pair: str
    corpus: str
    fast: float
    slow: float
    fast_mb: float
    slow_mb: float

    @property
    def ratio(self) -> float:
        return self.slow / self.fast


def measure_pair(pair: Pair, args: list[str], repeat: int, folder: Path, corpus: str = "LitBank") -> Measured:
    """Fast and slow processes taking turns after one untimed turn that
    also checks both print the same JSON; best time, peak memory of all."""
    env = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}
    best = {"fast": float("inf"), "slow": float("inf")}
    peak = {"fast": 0.0, "slow": 0.0}
    outputs = {}
    for turn in range(repeat + 1):
        for side in best:
            out = folder / f"{pair.name}.{side}.json"
            argv = [sys.executable, "-m", "benchmarks.second_paths", "--child", pair.name, side, "score", *args]
            seconds, mb = run_process(argv, env, out)
            if turn:
                best[side] = min(best[side], seconds)
            peak[side] = max(peak[side], mb)
            if not turn:
                outputs[side] = out.read_bytes()
    if outputs["fast"] != outputs["slow"]:
        raise RuntimeError(f"{pair.name}: the slow path prints other scores than the fast path")
    return Measured(pair.name, pair.corpus.replace("LitBank", corpus), best["fast"], best["slow"], peak["fast"], peak["slow"])


def convert(source: Path, target: Path, *extra: str) -> Path:
    """``spacy-coref-eval convert`` (the package's own writers)."""
    subprocess.run([sys.executable, "-m", "spacy_coref_eval", "convert", str(source), str(target), *extra], cwd=REPO, check=True)
    return target


def corpora(folder: Path, key: Path, response: Path, only: Optional[set[str]] = None) -> dict[str, list[str]]:
    """The ``score`` arguments of every pair (of ``only``'s, the files
    converted only for them): a key and its response (LitBank and its
    perturbed response, or :func:`.small_documents.write_small`'s) as
    CoNLL, CoNLL-UA (:func:`.ua.ua_files`: crossing mentions left out),
    and .spacy."""
    from .ua import ua_files

    wanted = set(PAIRS) if only is None else only
    json = ("-f", "json")
    arguments = {
        "conll": [str(key), str(response), *json],
        "conll-words": [str(key), str(response), "--classes", *json],
        "columns": [str(key), str(response), *json],
    }
    if "ua" in wanted:
        ua_key, ua_response = ua_files(folder, key, response)
        arguments["ua"] = [str(ua_key), str(ua_response), "--preset", "ua", *json]
    if wanted & {"docbin", "docbin-batch", "minipack"}:
        spacy = [convert(path, folder / f"{path.stem}.spacy") for path in (key, response)]
        for name in ("docbin", "docbin-batch", "minipack"):
            arguments[name] = [str(spacy[0]), str(spacy[1]), *json]
    return arguments


def tiny_files(folder: Path, n: int) -> tuple[Path, Path]:
    """Issue #21 item 5's key and response (seeds 1 and 2, as
    :func:`.small_documents.small_documents_rows` writes them)."""
    from .small_documents import write_small

    key, response = folder / "small.key.conll", folder / "small.response.conll"
    write_small(key, 1, n)
    write_small(response, 2, n)
    return key, response


def measure_plain(args: list[str], repeat: int) -> float:
    """Best time of a plain ``score`` process (no pair touched), after one
    untimed turn."""
    argv = [sys.executable, "-m", "spacy_coref_eval", "score", *args]
    return min([run_process(argv)[0] for _ in range(repeat + 1)][1:])


def against_litbank(measured: list[Measured], litbank: float, documents: int) -> list[str]:
    """Issue #21 item 5's row (at most 3x LitBank) with each pair's fast
    and its slow path."""
    lines = [f"LitBank CoNLL-2012, plain score: {litbank * 1000:.0f} ms (best of the turns before and after the pairs)"]
    for m in measured:
        fast, slow = m.fast / litbank, m.slow / litbank
        verdict = "within" if slow <= TINY_TARGET else "over"
        lines.append(
            f"{documents:,} three-token documents, {m.pair}: fast {fast:.2f}x LitBank, slow {slow:.2f}x "
            f"({verdict} the {TINY_TARGET:g}x target without the fast path)"
        )
    return lines


def count_mentions(path: Path) -> int:
    """Mentions of a CoNLL file (a ``.gz`` one read transparently)."""
    from spacy_coref_eval import read_conll

    return sum(len(document.clusters.starts) for document in read_conll(path).values())


@dataclass
class Streamed:
    n: int
    cross: bool
    mb: float
    streamed: float
    whole: float
    streamed_mb: float
    whole_mb: float


def measure_streaming(key: Path, response: Path, folder: Path, sizes: tuple[int, ...], repeat: int) -> list[Streamed]:
    """Streamed (the default above 32 MiB) and read whole
    (``SPACY_COREF_EVAL_BATCH_BYTES=0``) taking turns, plain ``score`` and
    ``--cross-document`` (one topic a copy), best time, highest peak RSS."""
    from .streaming import copies, run_score

    rows = []
    for n in sizes:
        key_n, response_n = copies(key, folder / f"key{n}.conll", n), copies(response, folder / f"response{n}.conll", n)
        mb = (key_n.stat().st_size + response_n.stat().st_size) / 2**20
        for cross in (False, True):
            extra = ["--cross-document", "--topic-pattern", r"^c(\d+)_"] if cross else []
            best = {"stream": float("inf"), "whole": float("inf")}
            peak = {"stream": 0.0, "whole": 0.0}
            for _ in range(repeat):
                for side in best:
                    seconds, used = run_score(key_n, response_n, extra, batch_bytes=0 if side == "whole" else None)
                    best[side], peak[side] = min(best[side], seconds), max(peak[side], used)
            rows.append(Streamed(n, cross, mb, best["stream"], best["whole"], peak["stream"], peak["whole"]))
        key_n.unlink()
        response_n.unlink()
    return rows


def decision(ratio: float, memory: bool = False) -> str:
    if ratio >= RULE:
        return "keep (>= 1.5x)"
    if memory:
        return "keep (memory)"
    return "below the rule"


def table(measured: list[Measured], streamed: list[Streamed], mentions: int) -> list[str]:
    """The rows, columns as wide as their longest cell, and the
    extrapolation of streaming's memory to :data:`CROSSDOC_MENTIONS`."""
    header = ("pair", "fast path", "slow path forced", "corpus, whole score process", "fast", "slow", "ratio", "peak RSS fast/slow")
    rows = [(*header, "decision")]
    for m in measured:
        pair = PAIRS[m.pair]
        rows.append(
            (
                m.pair,
                pair.fast,
                pair.slow,
                m.corpus,
                f"{m.fast * 1000:.0f} ms",
                f"{m.slow * 1000:.0f} ms",
                f"{m.ratio:.2f}x",
                f"{m.fast_mb:.0f}/{m.slow_mb:.0f} MB",
                decision(m.ratio),
            )
        )
    for s in streamed:
        kind = "score --cross-document" if s.cross else "score"
        rows.append(
            (
                "streaming",
                "batches of documents (formats/stream.py)",
                "read whole (BATCH_BYTES=0)",
                f"{s.n}x LitBank ({s.mb:,.0f} MB), {kind}",
                f"{s.streamed:.2f} s",
                f"{s.whole:.2f} s",
                f"{s.whole / s.streamed:.2f}x",
                f"{s.streamed_mb:,.0f}/{s.whole_mb:,.0f} MB",
                "see below",
            )
        )
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    right = {4, 5, 6, 7}
    lines = [
        "  ".join(cell.rjust(width) if i in right else cell.ljust(width) for i, (cell, width) in enumerate(zip(row, widths))).rstrip()
        for row in rows
    ]
    lines.insert(1, "  ".join("-" * w for w in widths))
    copies_needed = CROSSDOC_MENTIONS / mentions
    for cross in (False, True):
        pair = [s for s in streamed if s.cross == cross]
        if len(pair) < 2:
            continue
        small, large = pair[0], pair[-1]
        kind = "score --cross-document" if cross else "score"
        fits = {}
        for label, lo, hi in (("streamed", small.streamed_mb, large.streamed_mb), ("read whole", small.whole_mb, large.whole_mb)):
            slope = (hi - lo) / (large.n - small.n)
            at = hi + slope * (copies_needed - large.n)
            fits[label] = at < LAPTOP_MB
            lines.append(
                f"{kind}, {label}: {slope:,.1f} MB more peak RSS per LitBank copy ({mentions:,} key mentions); "
                f"{CROSSDOC_MENTIONS / 1e6:.0f} M key mentions = {copies_needed:,.0f} copies -> ~{at / 1024:,.1f} GB "
                f"({'fits' if fits[label] else 'does not fit'} in 16 GB)"
            )
        speed = large.whole / large.streamed
        keep = speed >= RULE or (fits["streamed"] and not fits["read whole"])
        verdict = decision(speed, memory=keep) if keep else "below the rule"
        lines.append(f"{kind}, streaming: {verdict} ({speed:.2f}x at {large.n}x LitBank)")
    return lines


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "--child":
        child(sys.argv[2], sys.argv[3], sys.argv[4:])
        return
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=int, default=3, help="timed turns of each side (after one untimed turn)")
    parser.add_argument("--only", nargs="*", choices=[*PAIRS, "streaming"], help="these rows only")
    parser.add_argument("--sizes", type=int, nargs="*", default=[4, 16], help="LitBank copies for streaming (default 4 16)")
    parser.add_argument("--head", type=int, default=0, help="the first N documents of LitBank (N tiny ones) only, to try the script")
    parser.add_argument(
        "--corpus",
        choices=["litbank", "tiny"],
        default="litbank",
        help="tiny: the pairs on 10^5 three-token documents (issue #21 item 5), set against LitBank's score time",
    )
    args = parser.parse_args()
    from .run import LITBANK, litbank_files

    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        key, response, _ = litbank_files(folder)
        if args.corpus == "tiny":
            tiny(folder, key, response, args)
            return
        if args.head:
            for path in (key, response):
                text = path.read_text(encoding="utf8")
                path.write_text("#end document\n".join(text.split("#end document\n")[: args.head]) + "#end document\n", encoding="utf8")
        only = set(args.only or [*PAIRS, "streaming"])
        measured = []
        if only & set(PAIRS):
            arguments = corpora(folder, key, response, only)
            for pair in PAIRS.values():
                if pair.name in only:
                    measured.append(measure_pair(pair, arguments[pair.name], args.repeat, folder))
                    print(f"# {pair.name} done", file=sys.stderr)
        streamed = measure_streaming(key, response, folder, tuple(args.sizes), args.repeat) if "streaming" in only else []
        mentions = count_mentions(LITBANK) if not args.head else count_mentions(key)
        print(f"# {sys.version.split()[0]}, repeat {args.repeat}, LitBank key mentions {mentions:,}")
        for line in table(measured, streamed, mentions):
            print(line)


def tiny(folder: Path, litbank_key: Path, litbank_response: Path, args: argparse.Namespace) -> None:
    """``--corpus tiny``: the pairs on 10^5 three-token documents, LitBank's
    plain ``score`` timed before and after them."""
    from .small_documents import N_DOCUMENTS

    documents = args.head or N_DOCUMENTS
    only = [name for name in PAIRS if name in set(args.only or TINY_PAIRS)]
    plain = [str(litbank_key), str(litbank_response), "-f", "json"]
    litbank = measure_plain(plain, args.repeat)
    key, response = tiny_files(folder, documents)
    arguments = corpora(folder, key, response, set(only))
    label = f"{documents:,} three-token docs"
    measured = []
    for name in only:
        measured.append(measure_pair(PAIRS[name], arguments[name], args.repeat, folder, label))
        print(f"# {name} done", file=sys.stderr)
    litbank = min(litbank, measure_plain(plain, args.repeat))
    print(f"# {sys.version.split()[0]}, repeat {args.repeat}, load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    for line in table(measured, [], 1):
        print(line)
    for line in against_litbank(measured, litbank, documents):
        print(line)


if __name__ == "__main__":
    main()
