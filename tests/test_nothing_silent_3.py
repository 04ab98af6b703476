"""Issue "Nothing silent, round three": each finding of this part (items
1, 5, 6, 7, 13 and the SIGHUP and ``report`` parts of 11) as a test that
fails before its fix."""
import signal
import subprocess
import sys

WRITER = """
import os, signal, sys
from spacy_coref_eval.files import open_output
with open_output(sys.argv[1], "w") as out:
    out.write("new")
    out.flush()
    os.kill(os.getpid(), getattr(signal, sys.argv[2]))
"""


def test_a_hung_up_write_leaves_the_old_file_and_no_temporary(tmp_path):
    target = tmp_path / "out.txt"
    target.write_text("old")
    run = subprocess.run([sys.executable, "-c", WRITER, str(target), "SIGHUP"], capture_output=True, text=True)
    assert run.returncode not in (0, -signal.SIGHUP)
    assert target.read_text() == "old"
    assert [path.name for path in tmp_path.iterdir()] == ["out.txt"]
