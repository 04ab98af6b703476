"""The README and the pages under docs/ are executable: every fenced block
runs or parses, so they cannot rot.

Every block names its language, one of:

- ``ini``: a fragment of a spaCy config. With the parent sections it leaves
  out (``[components]`` above ``[components.x]``), it parses; no value is a string
  holding ``#`` (confection reads ``key = value  # note`` as the string
  ``"value  # note"``, so comments go on lines of their own), and every
  registered function it names (``@scorers``, ``@misc``) resolves.
- ``python``: runs as a script in a scratch copy of the checkout, or as a
  doctest when it starts with ``>>>``.
- ``bash``: every ``spacy-coref-eval`` command runs as written, in order, in
  a scratch copy of the checkout (as ``python -m spacy_coref_eval``, the
  same ``main`` as the console script, so that the checkout's code is
  tested). Any other command must be in :data:`NOT_RUN`, with the reason.
- ``json``: parses; scores shown for ``spacy evaluate`` (``coref_*`` keys)
  are those of the bundled demo, to three decimals.
- ``text``: shown, not run. A transcript (first line ``$ spacy-coref-eval
  ...``) runs and prints exactly what is shown, unless in
  :data:`TRANSCRIPTS_NOT_RUN`; every option of a ``spacy-coref-eval`` usage
  line exists.
"""

import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import traceback
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import NamedTuple

import pytest

from tests.conftest import REPO

README = REPO / "README.md"
PAGES = [README, *sorted((REPO / "docs").glob("*.md"))]
LANGUAGES = {"bash", "python", "ini", "json", "text"}
CLI = "spacy-coref-eval"

NOT_RUN: dict[str, str] = {
    "pip install": "changes the running environment; .ci/run installs into a fresh virtual environment",
    "python -m pytest": "this test suite itself",
    "bash .ci/run": "CI itself, in a fresh virtual environment",
    "python -m benchmarks.run": "takes minutes; .ci/run runs it once",
    "mkdocs": "builds this documentation; .ci/run builds it with --strict",
    "python -m weasel": "the spaCy project; tests/meta/test_project.py runs `weasel run all` on the demo, offline",
    "python -m spacy evaluate": (
        "needs the pipeline `weasel run all` assembles; tests/meta/test_project.py runs it through "
        "project.yml (evaluate-pipeline), and the json block's scores are checked here"
    ),
}
TRANSCRIPTS_NOT_RUN: dict[str, str] = {
    "spacy-coref-eval compare key.conll a.conll b.conll": (
        "LitBank against perturbed responses that are not in the repository; 10,000 rounds"
    )
}
ANYWHERE = shutil.ignore_patterns("__pycache__", "*.pyc", "*.egg-info")
AT_THE_TOP = shutil.ignore_patterns(
    ".git", ".hypothesis", ".pytest_cache", "build", "dist", ".venv*", "assets", "corpus", "metrics", "pipelines", "project.lock"
)


class Block(NamedTuple):
    language: str
    line: int
    code: str
    page: str = "README.md"

    @property
    def id(self) -> str:
        return f"{self.page}-{self.language}-line{self.line}"

    @property
    def where(self) -> str:
        return f"{self.page}:{self.line}"


def page_blocks(path: Path) -> list[Block]:
    """The fenced blocks of one page, with the line of their opening fence."""
    page = path.relative_to(REPO).as_posix()
    blocks, language, start, body = [], None, 0, []
    for number, line in enumerate(path.read_text(encoding="utf8").splitlines(), 1):
        fence = re.match(r"\s*```(\S*)\s*$", line)
        if language is None and fence:
            language, start, body = fence.group(1), number, []
        elif language is not None and fence and not fence.group(1):
            blocks.append(Block(language, start, "\n".join(body) + "\n", page))
            language = None
        elif language is not None:
            body.append(line)
    assert language is None, f"{page}:{start}: fence never closed"
    return blocks


BLOCKS = [block for path in PAGES for block in page_blocks(path)]


def of(language: str) -> list[Block]:
    return [block for block in BLOCKS if block.language == language]


def logical_lines(code: str) -> Iterator[str]:
    """Lines with backslash continuations joined."""
    pending = ""
    for line in code.splitlines():
        if line.rstrip().endswith("\\"):
            pending += line.rstrip()[:-1] + " "
            continue
        yield pending + line
        pending = ""


def commands(code: str) -> Iterator[list[str]]:
    """The commands of a shell block: words without comments, split on ``&&``."""
    for line in logical_lines(code):
        words = shlex.split(line, comments=True)
        for operator in ("|", "||", ";", ">", ">>", "<", "&"):
            assert operator not in words, f"{line!r}: only plain commands and && are supported"
        command: list[str] = []
        for word in words + ["&&"]:
            if word == "&&":
                if command:
                    yield command
                command = []
            else:
                command.append(word)


def scratch_checkout(tmp_path: Path) -> Path:
    """A copy of the checkout (no .git, no build output) to run blocks in."""

    def ignore(folder, names):
        ignored = ANYWHERE(folder, names)
        return ignored | AT_THE_TOP(folder, names) if Path(folder) == REPO else ignored

    target = tmp_path / "checkout"
    shutil.copytree(REPO, target, ignore=ignore)
    return target


def environment(checkout: Path) -> dict[str, str]:
    path = os.pathsep.join(filter(None, [str(checkout), os.environ.get("PYTHONPATH")]))
    return {**os.environ, "PYTHONPATH": path}


class Ran(NamedTuple):
    returncode: int
    stdout: str
    stderr: str


def run_cli(arguments: list[str], checkout: Path) -> Ran:
    """A ``spacy-coref-eval`` command run in this process (click's
    ``CliRunner``) from the scratch checkout, as a process would run it:
    warnings printed once to stderr, an exception the command lets
    through printed as its traceback, and the exit code."""
    from click.testing import CliRunner

    from spacy_coref_eval.cli import app

    here = os.getcwd()
    os.chdir(checkout)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("default")
            result = CliRunner().invoke(app, arguments, prog_name=CLI)
    finally:
        os.chdir(here)
    stderr = result.stderr
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        stderr += "".join(traceback.format_exception(type(result.exception), result.exception, result.exception.__traceback__))
    return Ran(result.exit_code, result.stdout, stderr)


def exemption(command: list[str]) -> str:
    """The prefix of :data:`NOT_RUN` that ``command`` starts with, or ''."""
    text = " ".join(command)
    return next((prefix for prefix in NOT_RUN if text == prefix or text.startswith(prefix + " ")), "")


def shown(text: str) -> list[str]:
    """Lines of output as shown: trailing spaces and surrounding blank lines dropped."""
    lines = [line.rstrip() for line in text.splitlines()]
    while lines and not lines[0]:
        lines.pop(0)
    while lines and not lines[-1]:
        lines.pop()
    return lines


# --- the README as a whole ----------------------------------------------------


def test_every_block_names_a_known_language():
    assert {block.id for block in BLOCKS if block.language not in LANGUAGES} == set()


def test_the_readme_has_blocks_of_every_kind():
    """Guards the fence parser: a README read as no blocks passes nothing."""
    assert {block.language for block in BLOCKS if block.page == "README.md"} == LANGUAGES
    assert [block for block in of("text") if block.code.startswith(f"$ {CLI} ")]


def test_every_command_of_the_shell_blocks_runs_or_is_exempt_with_a_reason():
    unknown = [
        (block.id, " ".join(command))
        for block in of("bash")
        for command in commands(block.code)
        if command[0] != CLI and not exemption(command)
    ]
    assert unknown == []


def test_every_exemption_is_used():
    used = {exemption(command) for block in of("bash") for command in commands(block.code)}
    assert set(NOT_RUN) <= used
    transcripts = {shown(block.code)[0][2:] for block in of("text") if block.code.startswith("$ ")}
    assert set(TRANSCRIPTS_NOT_RUN) <= transcripts


# --- spaCy configs -------------------------------------------------------------


def _strings(node) -> Iterator[str]:
    if isinstance(node, dict):
        for value in node.values():
            yield from _strings(value)
    elif isinstance(node, (list, tuple)):
        for value in node:
            yield from _strings(value)
    elif isinstance(node, str):
        yield node


def _promises(node) -> Iterator[dict]:
    """The outermost sections that name a registered function."""
    if isinstance(node, dict):
        if any(key.startswith("@") for key in node):
            yield node
        else:
            for value in node.values():
                yield from _promises(value)


def with_parent_sections(fragment: str) -> str:
    """``fragment`` preceded by the sections it nests in but does not open,
    which a full config has (a fragment pasted into one must not repeat them)."""
    opened = re.findall(r"^\[([^\]]+)\]", fragment, flags=re.MULTILINE)
    parents = []
    for section in opened:
        parts = section.split(".")
        for depth in range(1, len(parts)):
            parent = ".".join(parts[:depth])
            if parent not in opened and parent not in parents:
                parents.append(parent)
    return "".join(f"[{parent}]\n" for parent in parents) + fragment


@pytest.mark.parametrize("block", of("ini"), ids=lambda block: block.id)
def test_config_block_parses_and_resolves(block):
    from spacy.util import Config, registry

    config = Config().from_str(with_parent_sections(block.code))
    assert config
    assert [value for value in _strings(config) if "#" in value] == []
    for promise in _promises(config):
        resolved = registry.resolve({"promise": promise})["promise"]
        assert callable(resolved), promise


# --- Python ------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("block", of("python"), ids=lambda block: block.id)
def test_python_block_runs(block, tmp_path):
    checkout = scratch_checkout(tmp_path)
    doctest = block.code.lstrip().startswith(">>> ")
    script = tmp_path / ("block.txt" if doctest else "block.py")
    script.write_text(block.code, encoding="utf8")
    command = [sys.executable, "-m", "doctest", str(script)] if doctest else [sys.executable, str(script)]
    run = subprocess.run(command, cwd=checkout, env=environment(checkout), capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, f"{block.where}\n{run.stdout}{run.stderr}"


# --- shell ---------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("block", of("bash"), ids=lambda block: block.id)
def test_shell_block_runs(block, tmp_path):
    checkout = None
    for command in commands(block.code):
        if command[0] != CLI:
            continue
        checkout = checkout or scratch_checkout(tmp_path)
        run = run_cli(command[1:], checkout)
        assert run.returncode == 0, f"{block.where}: {' '.join(command)}\n{run.stdout}{run.stderr}"
        assert "Traceback" not in run.stderr, run.stderr


# --- JSON ----------------------------------------------------------------------


def demo_spacy_scores() -> dict[str, float]:
    """What ``spacy evaluate`` reports for the demo: coref_evaluator with its
    default scorer on the demo's key and response."""
    import spacy
    from spacy.training import Example

    from spacy_coref_eval import read_conll
    from spacy_coref_eval.formats.docbin.docs import conll_to_doc

    nlp = spacy.blank("en")
    nlp.add_pipe("coref_evaluator")
    data = REPO / "spacy_coref_eval" / "data"
    key = read_conll(data / "demo.key.conll", with_words=True)
    response = read_conll(data / "demo.response.conll", with_words=True)
    examples = [Example(conll_to_doc(response[name], nlp.vocab), conll_to_doc(key[name], nlp.vocab)) for name in key]
    return nlp.evaluate(examples)


@pytest.mark.parametrize("block", of("json"), ids=lambda block: block.id)
def test_json_block_parses(block):
    data = json.loads(block.code)
    if isinstance(data, dict) and all(key.startswith("coref_") for key in data):
        scores = demo_spacy_scores()
        assert {key: round(scores[key], 3) for key in data} == data


# --- text: transcripts and usage lines -------------------------------------------


TRANSCRIPTS = [block for block in of("text") if block.code.startswith(f"$ {CLI} ") and shown(block.code)[0][2:] not in TRANSCRIPTS_NOT_RUN]


@pytest.mark.parametrize("block", TRANSCRIPTS, ids=lambda block: block.id)
def test_transcript_prints_what_is_shown(block, tmp_path):
    command_line, *output = shown(block.code)
    command = shlex.split(command_line[2:])
    run = run_cli(command[1:], scratch_checkout(tmp_path))
    assert run.returncode == 0, run.stderr
    assert shown(run.stdout) == shown("\n".join(output))


def cli_options() -> dict[str, set]:
    """Every command of the command line with the options it takes."""
    from spacy_coref_eval.cli import app as group

    commands = {
        name: {opt for param in command.params for opt in param.opts + param.secondary_opts} | {"--help", "-h"}
        for name, command in group.commands.items()
    }
    for option in (opt for param in group.params for opt in param.opts + param.secondary_opts):
        commands[option] = {option}
    return commands


def usage_lines() -> Iterator[tuple]:
    """``spacy-coref-eval`` lines of the text blocks, with the indented lines
    that continue them; of a transcript, its command alone (what follows is
    output)."""
    for block in of("text"):
        usage = None
        lines = list(logical_lines(block.code))
        if block.code.startswith("$ "):
            lines = lines[:1]
        for line in lines:
            if usage is not None and line[:1].isspace() and line.strip():
                usage += " " + line.strip()
                continue
            if usage is not None:
                yield block.id, usage
            usage = line.lstrip("$ ") if line.lstrip("$ ").split()[:1] == [CLI] else None
        if usage is not None:
            yield block.id, usage


def test_usage_lines_name_real_commands_and_options():
    known = cli_options()
    lines = list(usage_lines())
    assert lines
    wrong = []
    for block_id, line in lines:
        words = line.split()
        options = set(re.findall(r"(?<![\w-])(--?[A-Za-z][\w-]*)", line))
        if len(words) < 2 or words[1] not in known:
            wrong.append((block_id, line))
        elif options - known[words[1]]:
            wrong.append((block_id, sorted(options - known[words[1]])))
    assert wrong == []


# --- the README's size, the site's navigation, links -----------------------------


def test_the_readme_is_short():
    """The README says what the package is and the three common jobs; the rest lives in docs/."""
    assert len(README.read_text(encoding="utf8").splitlines()) <= 400


def nav_pages() -> list[str]:
    """The pages named in mkdocs.yml's ``nav``."""
    text = (REPO / "mkdocs.yml").read_text(encoding="utf8")
    nav = text[text.index("\nnav:") :]
    return re.findall(r":\s*\"?([\w./-]+\.md)\"?\s*$", nav, flags=re.MULTILINE)


def links(path: Path) -> Iterator[str]:
    """The relative targets of a page's Markdown links, without anchors."""
    for target in re.findall(r"\]\(([^)\s]+)\)", path.read_text(encoding="utf8")):
        if not re.match(r"[a-z]+:", target) and not target.startswith("#"):
            yield target.split("#")[0]


def test_every_page_is_in_the_site_and_reachable_from_its_index():
    pages = {path.name for path in (REPO / "docs").glob("*.md")}
    assert set(nav_pages()) == pages
    assert pages - {"index.md"} <= set(links(REPO / "docs" / "index.md"))


@pytest.mark.parametrize("path", PAGES, ids=lambda path: path.relative_to(REPO).as_posix())
def test_relative_links_name_files_that_exist(path):
    missing = [target for target in links(path) if not (path.parent / target).exists()]
    assert missing == []
