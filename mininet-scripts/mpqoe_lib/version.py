"""The code version an experiment run records: the commit, and whether the tree differed."""

import hashlib
import os
import subprocess

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def code_version(repo=REPO):
    """The commit, with -dirty-<hash of the diff> when the work tree differs from it (results
    under docs/results left out: publishing them does not change the code)."""

    def git(*a):
        return subprocess.run(
            ["git", "-C", repo, *a], capture_output=True, text=True, check=False
        ).stdout

    head = git("rev-parse", "--short=12", "HEAD").strip() or "unknown"
    diff = git("diff", "HEAD", "--", ".", ":(exclude)docs/results")
    return head + (f"-dirty-{hashlib.sha256(diff.encode()).hexdigest()[:8]}" if diff else "")


def tree_sha256(paths):
    """One sha256 over the contents of files, in the order given (e.g. every source file of
    the probe), so that a change in any of them changes it."""
    h = hashlib.sha256()
    for p in paths:
        with open(p, "rb") as f:
            data = f.read()
        h.update(f"{os.path.basename(p)}\0{len(data)}\0".encode())
        h.update(data)
    return h.hexdigest()
