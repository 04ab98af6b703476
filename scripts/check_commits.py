"""Fail when a commit subject is longer than 72 characters (CONTRIBUTING.md: Commits).

    python scripts/check_commits.py             # the check .ci/run runs
    python scripts/check_commits.py --install   # a commit-msg hook that checks each new commit

Commits up to :data:`SINCE` were written before the rule and are not checked.
Outside a git checkout (an unpacked archive) there is nothing to check."""

import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
LIMIT = 72
SINCE = "ca4b8cc8308f2a2eb8e4ae48b36e394a0fca6e8e"
HOOK = """#!/bin/sh
# installed by scripts/check_commits.py --install
subject=$(grep -v '^#' "$1" | head -n 1)
if [ "${#subject}" -gt LIMIT ]; then
    echo "commit subject is ${#subject} characters, at most LIMIT: $subject" >&2
    exit 1
fi
""".replace("LIMIT", str(LIMIT))


def git(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(["git", *args], cwd=REPO, capture_output=True, text=True)


def too_long(subjects: str) -> list:
    """The ``hash subject`` lines whose subject is longer than :data:`LIMIT`."""
    long = []
    for line in subjects.splitlines():
        commit, _, subject = line.partition(" ")
        if len(subject) > LIMIT:
            long.append(f"{commit[:10]} ({len(subject)} characters): {subject}")
    return long


def install() -> int:
    hooks = git("rev-parse", "--git-path", "hooks").stdout.strip()
    hook = (REPO / hooks / "commit-msg") if hooks else None
    if hook is None:
        sys.exit("not a git checkout: no hook to install")
    hook.parent.mkdir(parents=True, exist_ok=True)
    hook.write_text(HOOK, encoding="utf-8")
    hook.chmod(0o755)
    print(f"installed {hook}")
    return 0


def main() -> int:
    if "--install" in sys.argv:
        return install()
    if git("rev-parse", "--git-dir").returncode != 0:
        print("commit subjects: not a git checkout, nothing to check")
        return 0
    since = git("merge-base", "--is-ancestor", SINCE, "HEAD")
    span = f"{SINCE}..HEAD" if since.returncode == 0 else "HEAD"
    log = git("log", "--no-merges", "--format=%H %s", span)
    if log.returncode != 0:
        sys.exit(f"git log failed: {log.stderr.strip()}")
    long = too_long(log.stdout)
    if long:
        print(f"{len(long)} commit subject(s) longer than {LIMIT} characters:", *long, sep="\n")
        return 1
    print(f"commit subjects: {len(log.stdout.splitlines())} checked, none longer than {LIMIT} characters")
    return 0


if __name__ == "__main__":
    sys.exit(main())
