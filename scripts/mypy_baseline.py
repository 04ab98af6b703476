"""Fail when mypy reports more errors than ``mypy-baseline.txt`` lists.

    python scripts/mypy_baseline.py            # the check .ci/run runs
    python scripts/mypy_baseline.py --update   # after fixing errors: shrink the baseline

The baseline lists each error without its line number (``path: message
[code]``), sorted, so that a diff shows which errors went or came; the
check compares counts, so moving code around does not fail it."""

import re
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
BASELINE = REPO / "mypy-baseline.txt"


def errors() -> list:
    run = subprocess.run([sys.executable, "-m", "mypy"], cwd=REPO, capture_output=True, text=True)
    if run.returncode not in (0, 1):
        sys.exit(f"mypy failed to run:\n{run.stdout}{run.stderr}")
    return sorted(re.sub(r":\d+: error:", ": error:", line) for line in run.stdout.splitlines() if ": error:" in line)


def main() -> int:
    found = errors()
    if "--update" in sys.argv:
        BASELINE.write_text("".join(f"{line}\n" for line in found), encoding="utf-8")
        print(f"{BASELINE.name}: {len(found)} errors")
        return 0
    allowed = BASELINE.read_text(encoding="utf-8").splitlines() if BASELINE.exists() else []
    if len(found) > len(allowed):
        new = sorted(set(found) - set(allowed))
        print(f"mypy: {len(found)} errors, the baseline allows {len(allowed)}; new:", *new, sep="\n")
        return 1
    print(f"mypy: {len(found)} errors (baseline {len(allowed)})")
    if len(found) < len(allowed):
        print("fewer than the baseline: run python scripts/mypy_baseline.py --update and commit it")
    return 0


if __name__ == "__main__":
    sys.exit(main())
