#!/usr/bin/python3
"""The last step of a run job of the workflow: the job's run files from the runner's store.

    collect.py [--family KIND] [--runner-exit RC] SRC DST [SRC DST ...]

SRC is a run record in the runner's store and DST the workflow's run file, as the family's
`copies` pairs them (mpqoe.campaign: KIND is its kind, video, scheduler, cc or pcdc; without
--family each SRC's family is told from its path). Whether a run record is done, and what its
run file holds, is the family's `check`: a run document copied as it is once ok and complete
(the video and scheduler runners), a fairness run's CSV (written only for a run whose checks
passed), a PCDC run's four result files merged into one CSV (every row ok, one code version)
or its impact-factor table. Each done run is copied to its DST atomically; a run that is
missing, failed or incomplete gets one line on stderr and no DST, and the exit is 1, so that
Snakemake never takes it for done (and makes the job again; the runner then skips the runs
already ok). Exit 0 when every run was copied, 2 on bad arguments.
"""

import os
import sys

from mpqoe import campaign, files

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)


def check(src, family=None):
    """(why src is not a done run or None, the bytes of its run file or None to copy it)."""
    fam = family or campaign.family_of(src)
    if fam is None:
        return ("missing", None) if not os.path.exists(src) else ("not a run record", None)
    return fam.check(src)


def collect(pairs, family=None):
    """Lines about the runs not copied ([] when all were)."""
    bad = []
    for src, dst in pairs:
        where = os.path.relpath(src, REPO) if src.startswith(REPO) else src
        why, text = check(src, family)
        if why:
            bad.append(f"{where}: {why}")
            continue
        if text is None:  # the runner's file as it is
            with open(src, "rb") as f:
                text = f.read()
        files.write_atomic(dst, text)
    return bad


def main(argv):
    rc, family = None, None
    while argv[:1] in (["--runner-exit"], ["--family"]) and len(argv) >= 2:
        if argv[0] == "--runner-exit":
            rc = argv[1]
        else:
            try:
                family = campaign.family(argv[1])
            except KeyError:
                print(f"collect.py: --family: unknown family {argv[1]!r}", file=sys.stderr)
                return 2
        argv = argv[2:]
    if not argv or len(argv) % 2:
        print(
            "collect.py: want [--family KIND] [--runner-exit RC] SRC DST [SRC DST ...]",
            file=sys.stderr,
        )
        return 2
    pairs = list(zip(argv[::2], argv[1::2], strict=True))
    bad = collect(pairs, family)
    for line in bad:
        print(f"workflow: run not done: {line}", file=sys.stderr)
    n = len(pairs) - len(bad)
    print(f"workflow: {n} of {len(pairs)} runs ok" + (f" (runner exit {rc})" if rc else ""))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
