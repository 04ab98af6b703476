"""Command-line conventions (issue 31, item 3): --version, the version and
schema_version in every JSON document (checked against the JSON Schema
shipped in the package), the settings line under tables, '-' for standard
input and output, closed choices, grouped help, --quiet, NO_COLOR, tables
for papers."""

import json
from importlib.resources import files

import pytest
from click.testing import CliRunner

from spacy_coref_eval import __version__
from spacy_coref_eval.cli import app
from spacy_coref_eval.cli.score import DATA
from tests.conftest import data_path
from tests.support.json_schema import validate

runner = CliRunner()
KEY, RESPONSE = DATA / "demo.key.conll", DATA / "demo.response.conll"
SCHEMA = json.loads(files("spacy_coref_eval").joinpath("schemas", "score.schema.json").read_text(encoding="utf-8"))


def invoke(*args, input=None, env=None):
    return runner.invoke(app, [str(arg) for arg in args], input=input, env=env)


def ok(*args, input=None, env=None):
    result = invoke(*args, input=input, env=env)
    assert result.exit_code == 0, result.output
    return result


# --- version, schema ------------------------------------------------------------


def test_version_option_prints_the_program_and_its_version():
    assert ok("--version").stdout == f"spacy-coref-eval {__version__}\n"
    assert ok("-V").stdout == f"spacy-coref-eval {__version__}\n"


@pytest.mark.parametrize(
    "extra",
    [
        [],
        ["--per-doc"],
        ["--per-doc", "--ci", "0.9", "--n-resamples", "50", "--macro", "--errors", "--classes"],
        ["--per-doc", "--waterfall", "--errors-list", "--by", "chain-length", "--by", "mention-type"],
        ["--match", "overlap", "--singletons", "remove", "--twinless", "b3all", "--lea-importance", "uniform", "-m", "muc,mor"],
        ["--variants"],
    ],
)
def test_score_json_follows_the_schema(extra):
    data = json.loads(ok("score", KEY, RESPONSE, "-f", "json", *extra).stdout)
    assert list(data)[:2] == ["schema_version", "version"]
    assert (data["schema_version"], data["version"]) == ("1", __version__)
    assert validate(data, SCHEMA) == []


def test_score_json_of_other_inputs_and_merge_follows_the_schema(tmp_path):
    gum = data_path("corpora", "gum-corefud.40docs.conllu.gz")
    data = json.loads(ok("score", gum, gum, "-f", "json", "--preset", "corefud", "--per-doc", "--errors").stdout)
    assert validate(data, SCHEMA) == []
    ua_key, ua_response = data_path("ua", "example.key.ua"), data_path("ua", "example.response.ua")
    data = json.loads(ok("score", ua_key, ua_response, "-f", "json", "--preset", "ua", "--non-referring", "--bridging").stdout)
    assert validate(data, SCHEMA) == []
    counts = tmp_path / "counts.json"
    ok("score", KEY, RESPONSE, "--save-counts", counts)
    data = json.loads(ok("merge", counts, "-f", "json", "--per-doc", "--macro").stdout)
    assert validate(data, SCHEMA) == []


def test_schema_rejects_what_it_should():
    data = json.loads(ok("score", KEY, RESPONSE, "-f", "json").stdout)
    data["settings"]["twinless"] = "none"
    data["metrics"]["muc"]["f1"] = 1.5
    data["extra"] = 1
    assert len(validate(data, SCHEMA)) == 3


def test_every_json_document_carries_the_versions(tmp_path):
    for args in (
        ["compare", KEY, RESPONSE, KEY, "-f", "json", "--rounds", "10", "--n-resamples", "10"],
        ["compare", KEY, RESPONSE, KEY, KEY, "-f", "json", "--rounds", "10", "--n-resamples", "10"],
        ["profile", KEY, "-f", "json"],
    ):
        data = json.loads(ok(*args).stdout)
        assert (data["schema_version"], data["version"]) == ("1", __version__), args[0]


# --- the settings line ----------------------------------------------------------


def test_settings_line_under_every_table():
    line = f"Settings: matching exact, twinless conll, singletons keep, preset none; spacy-coref-eval {__version__}"
    assert ok("score", KEY, RESPONSE).stdout.endswith(line + "\n")
    assert ok("compare", KEY, RESPONSE, KEY, "--rounds", "10", "--n-resamples", "10").stdout.endswith(line + "\n")
    out = ok("score", KEY, RESPONSE, "--match", "overlap", "--singletons", "remove", "--twinless", "sys").stdout
    assert out.splitlines()[-1].startswith(
        "Settings: matching overlap, twinless sys, singletons remove, preset none, min overlap 0.5, overlap measure dice;"
    )


def test_html_report_footer_names_the_version_and_settings(tmp_path):
    page = tmp_path / "report.html"
    ok("report", KEY, RESPONSE, "-o", page, "--n-resamples", "20")
    html = page.read_text(encoding="utf-8")
    footer = (
        '<footer class="meta">Settings: matching exact, twinless conll, singletons keep, preset none; '
        f"spacy-coref-eval {__version__}</footer>"
    )
    assert footer in html
    ranking = tmp_path / "ranking.html"
    ok("compare", KEY, RESPONSE, KEY, KEY, "--rounds", "10", "--n-resamples", "10", "--html", ranking)
    assert footer in ranking.read_text(encoding="utf-8")


# --- '-' for standard input and output --------------------------------------------


def test_response_or_key_from_standard_input_scores_as_the_file():
    expected = json.loads(ok("score", KEY, RESPONSE, "-f", "json", "--per-doc").stdout)
    from_stdin = ok("score", KEY, "-", "-f", "json", "--per-doc", input=RESPONSE.read_bytes()).stdout
    assert json.loads(from_stdin) == expected
    key_from_stdin = ok("score", "-", RESPONSE, "-f", "json", "--per-doc", input=KEY.read_bytes()).stdout
    assert json.loads(key_from_stdin) == expected


@pytest.mark.parametrize("target", ["conllu", "jsonlines", "spacy", "conll"])
def test_standard_input_format_told_by_content_gzipped_or_not(tmp_path, target):
    import gzip

    converted = tmp_path / f"demo.{target}"
    if target == "conll":
        converted.write_bytes(KEY.read_bytes())
    else:
        ok("convert", KEY, converted)
    expected = json.loads(ok("score", KEY, converted, "-f", "json", "-m", "muc,bcub").stdout)["metrics"]
    for data in (converted.read_bytes(), gzip.compress(converted.read_bytes(), mtime=0)):
        result = ok("score", KEY, "-", "-f", "json", "-m", "muc,bcub", input=data)
        assert json.loads(result.stdout)["metrics"] == expected


def test_standard_input_of_unknown_content_asks_for_the_format():
    result = invoke("score", KEY, "-", input=b"one two three\n")
    assert result.exit_code == 1
    assert result.stderr.strip() == (
        "✘ <stdin>: cannot tell the format of standard input (RESPONSE) from its content; name it with --response-format"
    )
    assert invoke("score", KEY, "-", input=b"").stderr.strip() == "✘ <stdin>: standard input (RESPONSE) is empty"
    named = ok("score", KEY, "-", "--response-format", "conll", "-m", "muc", input=RESPONSE.read_bytes())
    assert "MUC" in named.stdout


def test_errors_in_standard_input_name_it_stdin():
    text = RESPONSE.read_text(encoding="utf-8").replace("#end document", "")
    result = invoke("score", KEY, "-", input=text)
    assert result.exit_code == 1
    assert result.stderr.startswith("✘ <stdin>:32: ") and "/tmp" not in result.stderr


def test_two_standard_inputs_are_a_usage_error():
    result = invoke("score", "-", "-", input=b"")
    assert result.exit_code == 2
    assert "standard input ('-') can be one input only, not KEY and RESPONSE" in result.stderr


def test_output_dash_writes_standard_output(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    expected = ok("score", KEY, RESPONSE, "-f", "json").stdout
    assert ok("score", KEY, RESPONSE, "-f", "json", "-o", "-").stdout == expected
    assert ok("score", KEY, RESPONSE, "-o", "-").stdout == ok("score", KEY, RESPONSE).stdout
    page = ok("report", KEY, RESPONSE, "-o", "-", "--n-resamples", "20").stdout
    assert page.startswith("<!DOCTYPE html>")
    assert json.loads(ok("profile", KEY, "-f", "json", "-o", "-").stdout)["key"] == str(KEY)
    assert not (tmp_path / "-").exists()


def test_compare_profile_and_report_name_standard_input():
    data = json.loads(
        ok("compare", KEY, "-", KEY, "-f", "json", "--rounds", "10", "--n-resamples", "10", input=RESPONSE.read_bytes()).stdout
    )
    assert data["systems"] == {"a": "<stdin>", "b": str(KEY)}
    assert json.loads(ok("profile", "-", "-f", "json", input=KEY.read_bytes()).stdout)["key"] == "<stdin>"
    page = ok("report", KEY, "-", "-o", "-", "--n-resamples", "20", input=RESPONSE.read_bytes()).stdout
    assert "<code>&lt;stdin&gt;</code>" in page


def test_convert_between_standard_input_and_output(tmp_path):
    lines = ok("convert", "-", "-", "--output-format", "jsonlines", input=KEY.read_bytes()).stdout.splitlines()
    assert [json.loads(line)["doc_key"] for line in lines] == ["(demo/alice); part 000", "(demo/storm); part 000"]
    result = invoke("convert", KEY, "-")
    assert result.exit_code == 2 and "give --output-format" in result.stderr


# --- closed choices, help, --quiet, colour ----------------------------------------------


@pytest.mark.parametrize(
    "option,value,choices",
    [
        ("--twinless", "none", "'conll', 'b3all', 'b30', 'sys'"),
        ("--match", "fuzzy", "'exact', 'head', 'overlap', 'partial'"),
        ("--format", "xml", "'table', 'json'"),
        ("--preset", "conll2012", "'reference', 'corefud', 'ua', 'coval'"),
        ("--lea-importance", "entity", "'size', 'uniform', 'entity-type'"),
        ("--singletons", "drop", "'keep', 'remove'"),
        ("--overlap-measure", "cosine", "'dice', 'jaccard'"),
        ("--zeros", "drop", "'keep', 'exclude'"),
    ],
)
def test_a_bad_choice_is_a_usage_error_naming_the_choices(option, value, choices):
    result = invoke("score", KEY, RESPONSE, option, value)
    assert result.exit_code == 2
    assert f"Invalid value for '{option}'" in result.stderr and choices in result.stderr


@pytest.mark.parametrize(
    "args,message",
    [
        (["-m", "muc,ceaf"], "'ceaf' is not a metric; choose from muc,bcub,ceafm,ceafe,blanc,lea,mor,zero,non_referring,bridging"),
        (["--response-format", "xml"], "'xml' is not a format; choose from conll, conllu, jsonlines, spacy"),
        (["--by", "length"], "unknown stratum attribute 'length'; choose from"),
        (["--min-overlap", "0"], "0<x<=1"),
    ],
)
def test_other_closed_sets_are_usage_errors_too(args, message):
    result = invoke("score", KEY, RESPONSE, *args)
    assert result.exit_code == 2 and message in result.stderr, result.stderr


def test_closed_sets_agree_with_the_registries():
    from spacy_coref_eval.cli import options
    from spacy_coref_eval.counting.importance import KINDS
    from spacy_coref_eval.counting.metrics import ANAPHORA_METRICS, METRICS
    from spacy_coref_eval.presets import PRESETS
    from spacy_coref_eval.scoring.settings import SINGLETON_MODES, ZERO_MODES
    from spacy_coref_eval.twinning.corefud import ZERO_MATCHES
    from spacy_coref_eval.twinning.matchers import MATCHERS, OVERLAP_MEASURES
    from spacy_coref_eval.twinning.policies import POLICIES

    assert options.TWINLESS == tuple(POLICIES)
    assert options.MATCHES == tuple(MATCHERS)
    assert options.PRESETS == tuple(PRESETS)
    assert options.LEA_IMPORTANCES == KINDS
    assert (options.SINGLETONS, options.ZEROS, options.ZERO_MATCHES) == (SINGLETON_MODES, ZERO_MODES, ZERO_MATCHES)
    assert options.OVERLAP_MEASURES == OVERLAP_MEASURES
    assert options.ALL_METRICS.split(",") == [*METRICS, *ANAPHORA_METRICS]


def test_help_is_grouped_with_defaults_shown():
    text = ok("score", "--help").stdout
    headings = [line for line in text.splitlines() if line.endswith("options:")]
    assert headings == ["Scoring options:", "Input options:", "Analyses options:", "Output options:", "Other options:"]
    scoring = text[text.index("Scoring options:") : text.index("Input options:")]
    assert "--twinless [conll|b3all|b30|sys]" in scoring and "[default: conll]" in scoring
    assert "--errors " in text[text.index("Analyses options:") : text.index("Output options:")]
    assert "-q, --quiet" in text[text.index("Output options:") : text.index("Other options:")]
    for command in ("merge", "demo", "report", "compare", "evaluate", "profile", "convert", "export", "formats"):
        assert "Other options:" in ok(command, "--help").stdout, command


def test_evaluate_offers_no_option_it_ignores():
    text = ok("evaluate", "--help").stdout
    assert "--response-format" not in text and "--pair-by" not in text
    assert "--key-format" in text


def test_quiet_keeps_errors_only():
    loud = invoke("score", KEY, RESPONSE, "--ci", "0.9", "--n-resamples", "20")
    assert "⚠" in loud.stderr
    quiet = invoke("score", KEY, RESPONSE, "--ci", "0.9", "--n-resamples", "20", "--quiet")
    assert quiet.exit_code == 0 and quiet.stderr == "" and quiet.stdout == loud.stdout
    failed = invoke("score", KEY, KEY.parent / "demo.key.conll", "-q", "--preset", "coval", "-m", "blanc")
    assert failed.exit_code == 1 and failed.stderr.startswith("✘ ")


def test_colour_only_on_a_terminal_without_no_color(monkeypatch):
    import io

    from spacy_coref_eval.cli.output import coloured

    class Terminal(io.StringIO):
        def isatty(self):
            return True

    monkeypatch.delenv("NO_COLOR", raising=False)
    assert coloured(Terminal()) and not coloured(io.StringIO())
    monkeypatch.setenv("NO_COLOR", "1")
    assert not coloured(Terminal())
    assert "\x1b[" not in invoke("score", KEY, RESPONSE, "--ci", "0.9", "--n-resamples", "20").stderr


# --- tables for papers, printable report -------------------------------------------------


def _percent(value):
    return f"{100 * value:.2f}"


@pytest.mark.parametrize("fmt,delimiter", [("csv", ","), ("tsv", "\t")])
def test_csv_and_tsv_hold_the_table_rows_as_the_json_says(fmt, delimiter):
    import csv
    import io

    data = json.loads(ok("score", KEY, RESPONSE, "-f", "json", "--per-doc").stdout)
    text = ok("score", KEY, RESPONSE, "-f", fmt, "--per-doc").stdout
    scores, documents = text.split("\n\n")
    rows = list(csv.reader(io.StringIO(scores), delimiter=delimiter))
    assert rows[0] == ["Metric", "Recall", "Precision", "F1", "Recall num", "Recall den", "Precision num", "Precision den"]
    by_label = {row[0]: row[1:] for row in rows[1:]}
    muc = data["metrics"]["muc"]
    assert by_label["MUC"] == [_percent(muc["recall"]), _percent(muc["precision"]), _percent(muc["f1"]), "7", "10", "7", "9"]
    assert by_label["CoNLL"] == ["", "", _percent(data["metrics"]["conll"]["f1"]), "", "", "", ""]
    assert by_label["coref links"][3:] == ["9", "15", "9", "15"]
    doc_rows = list(csv.reader(io.StringIO(documents), delimiter=delimiter))
    assert [row[0] for row in doc_rows[1:]] == list(data["documents"])
    assert doc_rows[0][-1] == "CoNLL F1"
    assert doc_rows[1][-1] == _percent(data["documents"]["(demo/alice); part 000"]["metrics"]["conll"]["f1"])


def test_markdown_and_latex_tables_end_with_the_settings():
    settings = f"Settings: matching exact, twinless conll, singletons keep, preset none; spacy-coref-eval {__version__}"
    markdown = ok("score", KEY, RESPONSE, "-f", "markdown", "--ci", "0.9", "--n-resamples", "20", "--macro").stdout
    lines = markdown.splitlines()
    assert lines[0] == "| Metric | Recall | Precision | F1 | Recall num | Recall den | Precision num | Precision den |"
    assert lines[1] == "|:---|---:|---:|---:|---:|---:|---:|---:|"
    assert "| MUC | 70.00 | 77.78 | 73.68 | 7 | 10 | 7 | 9 |" in lines
    assert "**Bootstrap 90% intervals**" in lines and "**Macro averages over documents**" in lines
    assert lines[-1] == settings
    latex = ok("score", KEY, RESPONSE, "-f", "latex").stdout
    assert latex.startswith("\\begin{tabular}{lrrrrrrr}\n\\toprule\n")
    assert "B$^3$ & 70.37 & 72.22 & 71.28 & 12.6667 & 18 & 13 & 18 \\\\" in latex
    assert "\\quad coref links & 60.00" in latex
    assert latex.endswith("\\end{tabular}\n% " + settings + "\n")


def test_latex_escapes_document_names():
    from spacy_coref_eval.report.grids import Grid
    from spacy_coref_eval.report.paper import render_paper

    grid = Grid("", ("Document", "F1"), ("label", "rate"), (("a_b & 50% #1", 0.5),))
    text = render_paper([grid], "latex", {"match": "exact", "twinless": "conll", "singletons": "keep"})
    assert "a\\_b \\& 50\\% \\#1 & 50.00 \\\\" in text


def test_output_suffix_says_the_paper_format(tmp_path):
    for suffix, fmt in ((".csv", "csv"), (".tsv", "tsv"), (".md", "markdown"), (".tex", "latex")):
        out = tmp_path / f"scores{suffix}"
        ok("score", KEY, RESPONSE, "-o", out)
        assert out.read_text(encoding="utf-8") == ok("score", KEY, RESPONSE, "-f", fmt).stdout, suffix


def test_paper_formats_refuse_analyses_they_do_not_render():
    result = invoke("score", KEY, RESPONSE, "-f", "csv", "--errors", "--waterfall")
    assert result.exit_code == 2
    assert "--errors, --waterfall need --format table or json" in result.stderr


def test_html_report_prints_every_document_and_explains_its_charts(tmp_path):
    page = tmp_path / "report.html"
    ok("report", KEY, RESPONSE, "-o", page, "--n-resamples", "20")
    html = page.read_text(encoding="utf-8")
    style = html[html.index("@media print{") :]
    assert ".scroll{max-height:none;overflow:visible" in style
    assert "print-color-adjust:exact" in style
    table = html[html.index('<table class="documents">') :]
    body = table[table.index("<tbody>") : table.index("</tbody>")]
    assert body.count("<tr>") == 2
    assert "(demo/alice); part 000" in body and "(demo/storm); part 000" in body
    waterfall = html[html.index('id="chart-waterfall"') :]
    waterfall = waterfall[: waterfall.index("</svg>")]
    assert all(f">{label}</text>" in waterfall for label in ("response", "gain", "loss", "fixed alone"))
    prf = html[html.index('id="chart-prf"') :]
    assert all(f">{label}</text>" in prf[: prf.index("</svg>")] for label in ("Recall", "Precision", "F1"))


# --- convert: progress, a lean DocBin ------------------------------------------------------


def test_convert_shows_progress_of_the_write_unless_quiet(tmp_path, monkeypatch):
    from spacy_coref_eval.cli import convert, output

    monkeypatch.setattr(convert, "PROGRESS_MIN_BYTES", 0)
    monkeypatch.setattr(convert, "shows_progress", lambda: not output.QUIET)
    result = ok("convert", KEY, tmp_path / "demo.spacy")
    assert "Reading:" in result.stderr and "Writing:   0%|          | 0/2" in result.stderr
    quiet = ok("convert", KEY, tmp_path / "quiet.spacy", "--quiet")
    assert quiet.stderr == ""


def test_progress_is_off_when_quiet_or_not_a_terminal(monkeypatch):
    import io

    from spacy_coref_eval.cli import output

    class Terminal(io.StringIO):
        def isatty(self):
            return True

    monkeypatch.setattr(output.sys, "stderr", Terminal())
    monkeypatch.setattr(output, "QUIET", False)
    assert output.shows_progress()
    monkeypatch.setattr(output, "QUIET", True)
    assert not output.shows_progress()
    monkeypatch.setattr(output, "QUIET", False)
    monkeypatch.setattr(output.sys, "stderr", io.StringIO())
    assert not output.shows_progress()


def test_converted_docbin_holds_the_same_docs_as_a_full_one(tmp_path):
    import srsly
    from spacy.tokens import DocBin
    from spacy.vocab import Vocab

    from spacy_coref_eval import read_conll
    from spacy_coref_eval.formats.docbin.docs import conll_to_docs, write_docbin

    full = tmp_path / "full.spacy"
    write_docbin(full, conll_to_docs(read_conll(KEY, with_words=True).values(), Vocab()))
    lean = tmp_path / "lean.spacy"
    ok("convert", KEY, lean)
    assert srsly.msgpack_encoders.entry_points
    vocab = Vocab()
    docs = [list(DocBin().from_disk(path).get_docs(vocab)) for path in (full, lean)]
    assert len(docs[0]) == len(docs[1]) == 2
    for a, b in zip(*docs):
        assert a.to_json() == b.to_json()
        assert [t.is_sent_start for t in a] == [t.is_sent_start for t in b]
        assert a.user_data == b.user_data
        assert {k: [(s.start, s.end) for s in g] for k, g in a.spans.items()} == {
            k: [(s.start, s.end) for s in g] for k, g in b.spans.items()
        }
    scores = [json.loads(ok("score", KEY, path, "-f", "json", "--per-doc").stdout) for path in (full, lean)]
    assert scores[0] == scores[1]


# --- shell completion ----------------------------------------------------------------


@pytest.mark.parametrize(
    "words,expected",
    [
        ("spacy-coref-eval score --twinless b", ["b3all", "b30"]),
        ("spacy-coref-eval score -m muc,c", ["muc,ceafm", "muc,ceafe"]),
        ("spacy-coref-eval score --response-format con", ["conll", "conllu"]),
        ("spacy-coref-eval score --pre", ["--preset"]),
    ],
)
def test_shell_completion_offers_the_choices(words, expected):
    env = {"_SPACY_COREF_EVAL_COMPLETE": "bash_complete", "COMP_WORDS": words, "COMP_CWORD": str(len(words.split()) - 1)}
    result = runner.invoke(app, [], env=env, prog_name="spacy-coref-eval")
    assert result.exit_code == 0
    assert [line.split(",", 1)[1] for line in result.stdout.splitlines()] == expected


def test_evaluate_reads_its_data_from_standard_input(tmp_path):
    import spacy

    pipeline = tmp_path / "blank"
    spacy.blank("en").to_disk(pipeline)
    from_file = ok("evaluate", pipeline, KEY, "-o", "-", "-q").stdout
    from_stdin = ok("evaluate", pipeline, "-", "-o", "-", "-q", input=KEY.read_bytes()).stdout
    assert json.loads(from_stdin) == json.loads(from_file)
    assert json.loads(from_file)["metrics"]["mentions"]["recall"] == 0.0
