"""scripts/check_commits.py: the commit-subject rule of CONTRIBUTING.md."""

import importlib.util
import subprocess

from tests.conftest import REPO

spec = importlib.util.spec_from_file_location("check_commits", REPO / "scripts" / "check_commits.py")
check_commits = importlib.util.module_from_spec(spec)
spec.loader.exec_module(check_commits)


def test_a_subject_of_72_characters_passes_and_73_fails():
    ok, long = "a" * 72, "b" * 73
    found = check_commits.too_long(f"1111111111aa {ok}\n2222222222bb {long}\n")
    assert found == [f"2222222222 (73 characters): {long}"]


def test_the_hook_rejects_a_long_subject(tmp_path):
    hook = tmp_path / "commit-msg"
    hook.write_text(check_commits.HOOK)
    hook.chmod(0o755)
    for subject, code in (("x" * 72, 0), ("y" * 73, 1)):
        message = tmp_path / "message"
        message.write_text(f"# a comment git strips\n{subject}\n\nbody\n")
        assert subprocess.run([str(hook), str(message)], capture_output=True).returncode == code
