"""The record of decision-affecting changes to the scheduler and congestion-control modules,
and which of them the runs of a code version lack.

The record is docs/results/scheduler-changes.csv, one row a change (COLUMNS):

    commit      the commit that made the change, its first 12 hex digits
    date        its author date, YYYY-MM-DD
    modules     the modules whose decisions it changed, space-separated, named as the runs.csv
                `scheduler` and `cc` columns name them (dft, minrtt, gr_sty, tp_sty, tr_sty,
                bnaware, daps; lia, olia, balia)
    change      what a module decides differently since, one line

A change qualifies when a module given the same inputs (the subflows' state, the ACKs) can
decide differently after it than before: which subflow takes data, how much one decision hands
it, a congestion window's growth. Refactors that keep every decision (a test moved into a
shared helper, a table shared by two kinds of module), comments, /proc counters and files,
builds (reproducible builds change a module's sha256, not its code) and support for other
kernels' interfaces do not. A commit changing several rules gets one row per rule. The rows
are in commit order.

The scheduler report (testbed/experiments/sched_report.py) reads it to name, for every
verdict, the changes its runs were made before (`lacking`): a standing verdict whose runs lack
a change of one of its cells' schedulers or controls must be marked as awaiting its rerun.
"""

import dataclasses
import datetime
import glob
import os
import re

from mpqoe import REPO
from mpqoe.results import ReportError, read_csv

COLUMNS = ("commit", "date", "modules", "change")
NAME = "scheduler-changes.csv"  # under docs/results, beside the pages that use it
COMMIT = re.compile(r"[0-9a-f]{12}\Z")
KMOD = os.path.join(REPO, "kernel-schedulers", "kmod")


@dataclasses.dataclass(frozen=True)
class Change:
    commit: str
    date: str
    modules: tuple
    change: str


def module_names(kmod=KMOD):
    """The project's modules: a scheduler per kmod/sched_<name>.c, a coupled congestion
    control per kmod/cc_<name>.c."""
    names = set()
    for pattern in ("sched_*.c", "cc_*.c"):
        for path in glob.glob(os.path.join(kmod, pattern)):
            names.add(os.path.basename(path).split("_", 1)[1][: -len(".c")])
    return names


def read(path, known=None):
    """[Change] of a record, [] when the file is absent; ReportError naming the line for
    another header, a commit that is not 12 hex digits, a bad date, an unknown module or an
    empty change."""
    rows = read_csv(path, COLUMNS)
    if rows is None:
        return []
    known = module_names() if known is None else set(known)
    out = []
    for i, r in rows:
        where = f"{path}:{i}"
        commit, date, modules, change = (r[c] for c in COLUMNS)
        if not COMMIT.match(commit):
            raise ReportError(f"{where}: commit {commit!r} is not 12 hex digits")
        try:
            datetime.date.fromisoformat(date)
        except ValueError:
            raise ReportError(f"{where}: date {date!r} is not YYYY-MM-DD") from None
        names = tuple(modules.split())
        bad = [n for n in names if n not in known]
        if not names or bad:
            raise ReportError(
                f"{where}: modules {modules!r}: want names of {', '.join(sorted(known))}"
            )
        if not change.strip():
            raise ReportError(f"{where}: the change is empty")
        out.append(Change(commit, date, names, change.strip()))
    return out


def lacking(changes, version, modules, contains):
    """The changes of `changes` to any of `modules` that the code of `version` does not include
    (contains(version, commit): mpqoe.results.git_contains), in the record's order."""
    return [c for c in changes if set(c.modules) & set(modules) and not contains(version, c.commit)]
