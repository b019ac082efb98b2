#!/usr/bin/env python3
"""Run the scheduler-paper experiments in testbed guests (host side, stdlib only).

    testbed/experiments/sched_run.py --experiment sticky|bnaware|all [--runs 5] [--duration 30]
        [--guests 1] [--cells PATTERNS] [--only-runs K,...] [--results DIR] [--batch-runs 40]
        [--budget-min M] [--publish [DEST]] [--dry-run]

The matrix (mpqoe.sched_matrix) is split into batches: one batch = one scenario (its network is
built once per guest boot) and at most --batch-runs runs; each batch runs in a fresh guest
(`testbed/run -- /usr/bin/python3 testbed/experiments/cellrun.py ...`), at most --guests at a
time. Runs land in DIR/<experiment>/<cell>/run<k>.json (DIR is the guest's /results).
Resumable: a run whose JSON exists with status "ok" is skipped; failed ones are run again.
A results directory holds one video length and one code version: a run made with another
--duration, or an ok run of another code version, makes the command refuse (exit 2), so a
sweep spread over days never mixes versions. A run that a batch should have made but did not
(guest killed, timeout) gets a "failed" JSON written here. Every attempt at a run, ok or
failed (a batch stopped by a signal too), is recorded through the campaign interface
(mpqoe.campaign: DIR/<experiment>/attempts/<cell>/run<k>-<n>.json, with why, code version,
guest kernel and host CPU), and DIR/<experiment>/manifest.json, in the campaign's one format,
says which runs of the cells the directory holds (and of the selected ones) are ok, failed or
missing, and is "partial" until each of them has --runs ok runs.
Batch logs: DIR/logs/ (the guest's output, and its kernel console as <batch>.console.log).
Every run records the code version of this checkout (commit, `-dirty-<hash>` when the work
tree differs, taken when this command started and passed to the guest), the sha256 of the
scheduler module it loaded (and of the coupled control's) and of the probe's sources, and its
place in its batch's random order (seed mpqoe.sched_matrix.ORDER_SEED; cellrun.py). A cell's
runs load one build of its modules: the command refuses (exit 2, before any run) to add a run
to a cell whose ok runs here, or published in --publish's DEST at this code version, loaded
another, and publishing refuses a cell whose ok runs of one code version name two.
Before it starts it prints the plan's machine time in one guest at a time: per batch about
90 s of boot, per run the median wall time of the ok runs of its scenario and video length
that DIR holds, else the mean time between the starts of one batch's runs of that scenario in
--publish's DEST at this code version, else its video length plus 7 s.
Exit 0 when every selected run is ok (here, or published in --publish's DEST; with
--budget-min, every run the budget took), 1 otherwise, 2 on usage errors.

--publish [DEST] then writes the selected cells' runs (ok and failed) into the committed
compact tables DEST/<experiment>/data/{runs,paths}.csv (mpqoe.sched_publish; DEST defaults to
docs/results, e.g. docs/results/long120 for another result set), which
testbed/experiments/sched_report.py reads; --publish-only does that alone, without a guest. With
--publish, the runs DEST already holds as ok runs of this code version and video length are
not made again (the guest is told to skip them), so a sweep spread over several machines or
fresh clones resumes from the committed tables; failed ones are made again and replace them.
A run a guest batch did not reach is failed when the batch ended by itself, and left unmade
(not published) when the batch or this command was stopped by a signal.

--budget-min M makes only the runs to do that fit in M minutes of the plan's estimate (the
same model as the printed one), in the order a guest makes them (scenario by scenario, run
index by run index, the cells in matrix order), and leaves the rest for the next command:
a session of known length ends on a finished, published run. With --planned the budget
covers every length, the longest first.

--cells takes comma-separated shell patterns over cell names `<scenario>.<scheduler>.<cc>`,
e.g. 'baseline.*' or '3p-50.gr_sty.cubic,A-1.*.bbr'. --guests > 1 runs guests concurrently:
on a 2-core host this disturbs the emulated clocks (see docs/results/scheduler-papers.md); 1 is
the safe default.
"""

import argparse
import datetime
import os
import re
import shlex
import signal
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass

from mpqoe import campaign, files
from mpqoe import sched_matrix as mx
from mpqoe import sched_publish as pub
from mpqoe.kernel import kernel_reports
from mpqoe.results import ReportError, code_version, read_csv
from mpqoe.runs import ONLY_RUNS_HELP, only_runs

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))


TESTBED_RUN = os.path.join(REPO, "testbed", "run")
PROBE = os.path.join(REPO, "testbed", "probe", "vprobe.py")
MODULES = os.path.join(REPO, "kernel-schedulers", "build", "modules")
DEFAULT_RESULTS = os.path.join(REPO, "build", "experiments")
DEFAULT_PUBLISH = os.path.join(REPO, "docs", "results")
FAMILY = "scheduler"  # its kind on the campaign interface (mpqoe.campaign_sched)
LEGACY_MANIFEST = "mpqoe-experiments-manifest/1"  # DIR/manifest.json before it
HOST_CPU = campaign.host_cpu()  # the guest's vCPUs run on it


class Usage(Exception):
    pass


def parse_args(argv):
    p = argparse.ArgumentParser(
        description=__doc__.split("\n")[0],
        epilog="Example: sched_run.py --experiment sticky --cells 'baseline.*' --runs 2 "
        "--duration 20",
    )
    p.add_argument("--experiment", required=True, choices=["sticky", "bnaware", "all"])
    p.add_argument("--runs", type=int, default=5, help="runs per cell (default 5)")
    p.add_argument("--duration", type=float, default=None, help="video length, s (default 30)")
    p.add_argument(
        "--planned",
        action="store_true",
        help="every cell at its planned length (mpqoe.sched_matrix: the paper's for the cells a "
        "headline claim rests on, 120 s for the others), into RESULTS/<length>s/",
    )
    p.add_argument("--guests", type=int, default=1, help="concurrent guests (default 1)")
    p.add_argument("--cells", default=None, help="comma-separated patterns over cell names")
    p.add_argument("--results", default=DEFAULT_RESULTS, help=f"(default {DEFAULT_RESULTS})")
    p.add_argument(
        "--batch-runs",
        type=int,
        default=mx.BATCH_RUNS,
        help=f"max runs per guest (default {mx.BATCH_RUNS})",
    )
    p.add_argument("--only-runs", default=None, help=ONLY_RUNS_HELP)
    p.add_argument(
        "--budget-min",
        type=float,
        default=None,
        metavar="M",
        help="make only the runs that fit in M minutes of the estimate, in order",
    )
    p.add_argument("--dry-run", action="store_true", help="print the batches, run nothing")
    p.add_argument("--no-build", action="store_true", help="do not build the modules")
    p.add_argument(
        "--publish",
        nargs="?",
        const=DEFAULT_PUBLISH,
        default=None,
        metavar="DEST",
        help=f"write the committed per-run CSVs into DEST (default {DEFAULT_PUBLISH})",
    )
    p.add_argument(
        "--publish-only", action="store_true", help="only publish (--publish), run nothing"
    )
    a = p.parse_args(argv)  # argparse: one message and exit 2 on bad flags
    if a.planned and a.duration is not None:
        raise Usage("--planned and --duration exclude each other")
    if a.duration is None:
        a.duration = 30.0
    if not 1 <= a.runs <= 100:
        raise Usage("--runs: want 1..100")
    if not 1 <= a.duration <= 7200:
        raise Usage("--duration: want 1..7200 s")
    if not 1 <= a.guests <= 4:
        raise Usage("--guests: want 1..4")
    if a.batch_runs < 1:
        raise Usage("--batch-runs: want >= 1")
    if a.budget_min is not None and not 0 < a.budget_min <= 100000:
        raise Usage("--budget-min: want minutes, > 0")
    try:
        a.only = only_runs(a.only_runs, a.runs)
    except ValueError as e:
        raise Usage(str(e)) from None
    if a.only_runs:
        if a.planned:
            raise Usage("--only-runs and --planned exclude each other")
    if a.publish_only and a.publish is None:
        a.publish = DEFAULT_PUBLISH
    a.selected = mx.select(a.experiment, a.cells)
    a.kernel_reports = []  # [{"batch": log name, "lines": [...]}] of this invocation
    a.boot_retries = []  # the same, of boots that died before their batch started
    if not a.selected:
        raise Usage(f"--cells {a.cells!r} matches no cell of {a.experiment}")
    a.results = os.path.abspath(a.results)
    a.code_version = code_version()
    return a


def planned_argv(argv, args):
    """One argument list per planned video length: the selected cells of that length, the
    length as --duration and RESULTS/<length>s as --results, other flags as given."""
    rest, skip = [], False
    for i, a in enumerate(argv):
        if skip:
            skip = False
            continue
        if a == "--planned":
            continue
        if a in ("--cells", "--results") and i + 1 < len(argv):
            skip = True
            continue
        if a.startswith(("--cells=", "--results=")):
            continue
        rest.append(a)
    groups = {}
    for c in args.selected:
        groups.setdefault(mx.planned_duration(c), []).append(c.name)
    return [
        rest
        + ["--duration", f"{d:g}", "--cells", ",".join(names)]
        + ["--results", os.path.join(args.results, f"{d:g}s")]
        for d, names in sorted(groups.items(), reverse=True)
    ]


def run_state(results, runs, cells, duration, version=None):
    """{cell name: {"ok": [k], "failed": [k], "missing": [k]}}; Usage when a run was made with
    another duration or (given `version`) an ok run with another code version."""
    state = {}
    for c in cells:
        st = {"ok": [], "failed": [], "missing": []}
        for k in range(1, runs + 1):
            doc = files.read_json(mx.run_path(results, c, k))
            if doc is None:
                st["missing"].append(k)
                continue
            got = (doc.get("config") or {}).get("duration_s")
            if got is not None and float(got) != float(duration):
                raise Usage(
                    f"{mx.run_path(results, c, k)} was made with --duration {got:g}, not "
                    f"{duration:g}: use the same duration or another --results directory"
                )
            ok = doc.get("status") == "ok"
            got = doc.get("code_version")
            if ok and version is not None and got != version:
                raise Usage(
                    f"{mx.run_path(results, c, k)} is an ok run of code version {got}, and this "
                    f"checkout is {version}: a results directory holds one code version (run "
                    "from a checkout of that version, or use another --results directory)"
                )
            st["ok" if ok else "failed"].append(k)
        state[c.name] = st
    return state


def console_of(log):
    """The guest kernel console kept beside a batch log (<batch>.log -> <batch>.console.log)."""
    return log[: -len(".log")] + ".console.log"


def stored_cells(args, experiment):
    """The cells of an experiment that this results directory holds runs of or that are
    selected now (a directory of one planned length holds only that length's cells)."""
    d = os.path.join(args.results, experiment)
    held = set(os.listdir(d)) if os.path.isdir(d) else set()
    chosen = {c.name for c in args.selected}
    return [c for c in mx.cells(experiment) if c.name in held or c.name in chosen]


def write_manifest(args, note=""):
    """Each experiment's manifest in the campaign's one format (mpqoe.campaign),
    DIR/<experiment>/manifest.json, over the cells the directory holds or that are selected;
    the batches' kernel reports and boot retries in each. Returns {"status": "complete" or
    "partial", "experiments": {experiment: its manifest}}."""
    exps = list(mx.EXPERIMENTS) if args.experiment == "all" else [args.experiment]
    # a store written before the campaign's manifest: one DIR/manifest.json for every
    # experiment; its kernel reports and boot retries go into the new ones, which replace it
    legacy_path = os.path.join(args.results, "manifest.json")
    legacy = files.read_json(legacy_path) or {}
    if legacy.get("schema") != LEGACY_MANIFEST:
        legacy = {}
    out = {}
    for e in exps:
        cells = stored_cells(args, e)
        if not cells:
            continue
        st = run_state(args.results, args.runs, cells, args.duration)
        versions = set()
        for c in cells:
            for k in st[c.name]["ok"] + st[c.name]["failed"]:
                versions.add((files.read_json(mx.run_path(args.results, c, k)) or {}).get(
                    "code_version"))  # fmt: skip
        try:
            old = campaign.read_manifest(args.results, e) or {}
        except ValueError:  # an older store's: written anew from its run records
            old = {}
        extra = {}
        for key in ("kernel_reports", "boot_retries"):
            got = legacy.get(key, []) + old.get(key, []) + getattr(args, key)
            reports = {r["batch"]: r for r in got}
            extra[key] = list(reports.values())
        out[e] = campaign.write_manifest(
            args.results, FAMILY, e, args.runs, st, code_versions=versions, note=note,
            duration_s=args.duration, **extra,
        )  # fmt: skip
    if legacy and out:
        os.unlink(legacy_path)
    statuses = [m["status"] for m in out.values()]
    done = statuses and all(s == "complete" for s in statuses)
    return {"status": "complete" if done else "partial", "experiments": out}


def record_attempts(args, cells, runs, todo, since, why_not=None):
    """Record an attempt (mpqoe.campaign) for every run to do of a batch that has ended: its
    run document's status and error when the batch wrote one (at or after `since`, a time
    stamp), else failed with why_not (a batch stopped by a signal)."""
    for c in cells:
        for k in runs:
            if (c.name, k) not in todo:
                continue
            path = mx.run_path(args.results, c, k)
            doc = files.read_json(path)
            fresh = doc is not None and os.path.getmtime(path) >= since
            if not fresh and why_not is None:
                continue
            doc = doc if fresh else {"status": "failed", "error": why_not}
            campaign.record_attempt(
                args.results, c.experiment, c.name, k,
                "ok" if doc.get("status") == "ok" else "failed", doc.get("error") or "",
                family=FAMILY, code_version=doc.get("code_version") or args.code_version,
                kernel=doc.get("kernel") or "", cpu=HOST_CPU,
                record=os.path.relpath(path, args.results) if fresh else "",
            )  # fmt: skip


def published_rows(args):
    """[(experiment, row)] of the runs --publish's DEST holds of this checkout's code version
    and video length in the selected experiments, run as an int and started_utc as a datetime
    (None when empty); none without --publish. ReportError naming a malformed line."""
    if not args.publish:
        return []
    out = []
    for e in dict.fromkeys(c.experiment for c in args.selected):
        path = os.path.join(args.publish, e, "data", "runs.csv")
        for line, r in read_csv(path, pub.RUN_COLUMNS) or []:
            if r["code_version"] != args.code_version:
                continue
            try:
                if float(r["duration_s"]) != args.duration:
                    continue
                start = r["started_utc"]
                r = {**r, "run": int(r["run"])}
                r["started_utc"] = datetime.datetime.fromisoformat(start) if start else None
            except ValueError:
                raise ReportError(
                    f"{path}:{line}: run, duration_s or started_utc is malformed"
                ) from None
            out.append((e, r))
    return out


def published_ok(args, rows=None):
    """{(cell name, k)} of the selected runs that --publish's DEST holds as ok runs of this
    checkout's code version and video length (none without --publish); rows: published_rows
    already read."""
    names = {c.name for c in args.selected}
    return {
        (r["cell"], r["run"])
        for _e, r in (published_rows(args) if rows is None else rows)
        if r["cell"] in names and r["status"] == "ok"
    }


def published_pace(args, rows=None):
    """{scenario: (mean s, n)}: the pace of the selected cells' scenarios in --publish's DEST
    at this code version and video length, the mean time between the starts of consecutive
    runs of one batch (matrix.start_gaps, as the results page's pace), over every cell of the
    scenario there; rows: published_rows already read."""
    starts = {}
    for e, r in published_rows(args) if rows is None else rows:
        if r["started_utc"] is not None:
            starts.setdefault(e, []).append((r["started_utc"], r["cell"], r["scenario"]))
    out = {}
    for c in args.selected:
        got = sorted(starts.get(c.experiment, []))
        names = {cell for _t, cell, scn in got if scn == c.scenario}
        mean, n = mx.start_gaps(got, names, args.duration)
        if mean is not None:
            out[c.scenario] = (mean, n)
    return out


def todo_runs(args, done=None):
    """{(cell name, k)} of the selected runs that are not ok yet, here or in --publish's DEST
    (done: published_ok already computed)."""
    state = run_state(args.results, args.runs, args.selected, args.duration, args.code_version)
    done = published_ok(args) if done is None else done
    return {
        (c, k)
        for c, s in state.items()
        for k in s["failed"] + s["missing"]
        if k in args.only and (c, k) not in done
    }


def within_budget(args, todo, pace):
    """The runs of todo that fit in args.budget_min minutes of matrix.estimate_s, taken in
    the order a guest makes them (scenario, run index, cell in matrix order) up to the first
    that does not fit."""
    if args.budget_min is None:
        return todo
    scns = list(mx.SCENARIOS)
    order = {c.name: i for i, c in enumerate(args.selected)}
    scn_of = {c.name: c.scenario for c in args.selected}
    runs = sorted(todo, key=lambda r: (scns.index(scn_of[r[0]]), r[1], order[r[0]]))

    def cost(n):
        trial = set(runs[:n])
        return mx.estimate_s(mx.batches(args.selected, trial, args.batch_runs), trial,
                             args.duration, pace)  # fmt: skip

    # a longer prefix never costs less (one more run, or one more batch), so bisect it
    lo, hi = 0, len(runs)
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if cost(mid) <= args.budget_min * 60:
            lo = mid
        else:
            hi = mid - 1
    return set(runs[:lo])


@dataclass
class Part:
    """What one invocation (one video length) makes: the runs to do, those left beyond the
    budget, the selected runs published already, the pace (measured here, else in the
    published table), the batches and their estimate, s, where the pace comes from, and the
    published rows of this code version and length (published_rows)."""

    todo: set
    beyond: set
    published: set
    pace: dict
    batches: list
    est: float
    pace_text: str
    rows: list


def plan_part(args):
    rows = published_rows(args)  # read once
    done = published_ok(args, rows)
    todo = todo_runs(args, done)
    here = measured_pace(args.results, args.selected, args.duration)
    there = published_pace(args, rows)
    pace = {**there, **here}
    published = done & {(c.name, k) for c in args.selected for k in args.only}
    kept = within_budget(args, todo, pace)
    batches = mx.batches(args.selected, kept, args.batch_runs)
    est = mx.estimate_s(batches, kept, args.duration, pace)
    text = pace_text(batches, here, there)
    return Part(kept, todo - kept, published, pace, batches, est, text, rows)


def check_builds(args, todo, rows, builds=None):
    """Usage (one line) when a cell with runs to do (todo) has ok runs, in the results
    directory or published in --publish's DEST at this code version and length (rows:
    published_rows), that loaded another build of its scheduler's or congestion control's
    module than the one here (builds: {cell name: matrix.module_builds}, read from MODULES
    when None; a module not built yet is not compared): the runs of a cell load one build,
    so its comparisons never mix two binaries."""
    names = {n for n, _k in todo}
    for c in args.selected:
        if c.name not in names:
            continue
        now = mx.module_builds(MODULES, c) if builds is None else builds[c.name]
        held = []  # (which run, the build fields it recorded)
        for k in range(1, args.runs + 1):
            path = mx.run_path(args.results, c, k)
            doc = files.read_json(path)
            if doc and doc.get("status") == "ok":
                held.append((path, doc))
        held += [(f"run {r['run']} published in {args.publish}", r) for _e, r in rows
                 if r["cell"] == c.name and r["status"] == "ok"]  # fmt: skip
        for where, doc in held:
            for fld in mx.BUILD_FIELDS:
                old = (doc.get(fld) or "")[: pub.HASH_DIGITS]
                new = (now.get(fld) or "")[: pub.HASH_DIGITS]
                if old and new and old != new:
                    raise Usage(
                        f"{c.name}: {where} loaded {fld} {old}, the module here is {new}: the "
                        "runs of a cell load one build (build the modules at the cell's commit, "
                        "which is reproducible, or use another --results and --publish DEST)"
                    )


def unfinished(args, part):
    """{(cell name, k)} of the selected runs that are neither ok here nor published, nor left
    beyond the budget: what makes the exit status 1."""
    return todo_runs(args, part.published) - part.beyond


def measured_pace(results, cells, duration):
    """{scenario: (median wall time of one run, s; number of runs)} over the ok runs of this
    video length that `results` holds, in every cell of the scenarios of `cells`. A plan
    estimate, not a prediction per cell: the scheduler and the control move a run's stalls
    too, and the median keeps one long stall from moving the estimate of every run."""
    scenarios = {c.scenario for c in cells}
    walls = {}
    for e in sorted({c.experiment for c in cells}):
        for c in mx.cells(e):
            if c.scenario not in scenarios:
                continue
            d = os.path.dirname(mx.run_path(results, c, 1))
            names = os.listdir(d) if os.path.isdir(d) else []
            for name in sorted(n for n in names if re.fullmatch(r"run\d+\.json", n)):
                doc = files.read_json(os.path.join(d, name)) or {}
                got = (doc.get("config") or {}).get("duration_s")
                wall = doc.get("wall_s")
                if doc.get("status") != "ok" or not isinstance(got, (int, float)):
                    continue
                if float(got) == float(duration) and isinstance(wall, (int, float)) and wall > 0:
                    walls.setdefault(c.scenario, []).append(float(wall))
    return {s: (statistics.median(w), len(w)) for s, w in walls.items()}


def pace_text(batches, pace, published=None):
    """Where the estimate's pace of each batch's scenario comes from: the runs here (pace),
    else the published table (published), else the model."""
    published = published or {}
    scns = list(dict.fromkeys(scn for scn, _c, _r in batches))
    here = [f"{s} {pace[s][0]:.0f} s ({pace[s][1]} runs)" for s in scns if s in pace]
    there = [
        f"{s} {published[s][0]:.0f} s ({published[s][1]} gaps)"
        for s in scns
        if s not in pace and s in published
    ]
    if not here and not there:
        return f"a run taken as its length + {mx.PER_RUN_OVERHEAD_S} s"
    parts = ["median run time measured here: " + ", ".join(here)] if here else []
    parts += ["mean time between published starts: " + ", ".join(there)] if there else []
    rest = len(here) + len(there) < len(scns)
    return "; ".join(parts) + (f", others length + {mx.PER_RUN_OVERHEAD_S} s" if rest else "")


def guest_command(args, scn, cells, runs, todo):
    """The guest's command for one batch: the cells x runs product, less the runs not in todo
    (--skip), which the guest would otherwise make where it holds no ok JSON of them."""
    skip = [f"{c.name}:{k}" for k in runs for c in cells if (c.name, k) not in todo]
    return [
        "/usr/bin/python3",
        "testbed/experiments/cellrun.py",
        "--scenario",
        scn,
        "--cells",
        ",".join(c.name for c in cells),
        "--runs",
        ",".join(map(str, runs)),
        "--duration",
        f"{args.duration:g}",
        "--results",
        "/results",
        "--code-version",
        args.code_version,
        "--order-seed",
        str(mx.ORDER_SEED),
    ] + (["--skip", ",".join(skip)] if skip else [])


def preflight(args):
    if not os.access(TESTBED_RUN, os.X_OK):
        raise Usage(f"{TESTBED_RUN} missing or not executable")
    if not os.path.isfile(PROBE):
        raise Usage(f"{PROBE} missing: the video probe (testbed/probe) is needed")
    scheds = sorted({c.scheduler for c in args.selected})
    missing = [s for s in scheds if not os.path.isfile(os.path.join(MODULES, f"mpqoe_{s}.ko"))]
    if missing and args.no_build:
        raise Usage(f"modules {missing} not built: make -C kernel-schedulers modules")
    if not args.no_build and not args.dry_run:
        r = subprocess.run(
            ["make", "-C", os.path.join(REPO, "kernel-schedulers"), "modules"],
            capture_output=True,
            text=True,
        )
        if r.returncode != 0:
            print(r.stdout[-2000:] + r.stderr[-2000:], file=sys.stderr)
            raise RuntimeError("make -C kernel-schedulers modules failed")


# testbed/run's exits when it is stopped by SIGINT or SIGTERM (its traps)
INTERRUPTED_EXITS = (130, 143)


def mark_missing(args, cells, runs, rc, log, todo):
    """Write a failed JSON for every run to do (in todo) of a batch that left none. A batch
    stopped by a signal (rc < 0, or testbed/run's 130 and 143 for SIGINT and SIGTERM) failed
    no run: its unmade runs stay unmade, so a publish leaves them out and a rerun makes them."""
    if rc < 0 or rc in INTERRUPTED_EXITS:
        return
    for c in cells:
        for k in runs:
            path = mx.run_path(args.results, c, k)
            if os.path.exists(path) or (c.name, k) not in todo:
                continue
            files.write_json(path, missing_doc(args, c, k, rc, log))


def missing_doc(args, cell, k, rc, log):
    """The failed run document of a run that a guest batch did not make: what the host knows
    of the run (network, video, code version), so that it publishes as a complete row."""
    return {
        "schema": "mpqoe-experiment-run/1",
        "status": "failed",
        "error": f"the guest batch ended with exit {rc} before this run; see {log_name(args, log)}",
        "experiment": cell.experiment,
        "cell": cell.name,
        "scenario": cell.scenario,
        "scheduler": cell.scheduler,
        "cc": cell.cc,
        "run": k,
        "config": mx.run_config(mx.SCENARIOS[cell.scenario], args.duration),
        "code_version": args.code_version,
        "ended_utc": mx.now_utc(),
    }


def log_name(args, log):
    """A batch log's path as the committed tables may show it: relative to the results
    directory (logs/<stamp>-<scenario>.log), never a machine's absolute path."""
    rel = os.path.relpath(log, args.results)
    return log if rel.startswith("..") else rel


def publish(args):
    done = pub.publish(args.results, args.selected, args.publish)
    for exp, (n, total) in done.items():
        dest = os.path.join(args.publish, exp, "data")
        print(f"sched_run.py: published {n} run(s) of {exp} into {dest} ({total} rows)", flush=True)
    if not done:
        print("sched_run.py: nothing to publish", flush=True)


# a budget left below this (minutes) is spent: no run is that short
BUDGET_FLOOR_MIN = 0.5


def planned(argv, args):
    """--planned: one part per video length, the longest first; a budget covers them all,
    each part taking what the parts before it spent (their estimate in a dry run, the wall
    time otherwise)."""
    worst, spent = 0, 0.0
    for sub in planned_argv(argv, args):
        if args.budget_min is not None:
            left = args.budget_min - spent
            if left < BUDGET_FLOOR_MIN:
                print("sched_run.py: budget spent; the other lengths are left", flush=True)
                break
            sub += ["--budget-min", f"{left:.2f}"]  # the last one counts
        print(f"sched_run.py: planned part: {shlex.join(sub)}", flush=True)
        t0 = time.monotonic()
        est = plan_part(parse_args(sub)).est if args.dry_run else None
        worst = max(worst, main(sub))
        spent += (est if args.dry_run else time.monotonic() - t0) / 60
        if worst in (2, 130):
            break
    return worst


def main(argv):
    try:
        args = parse_args(argv)
        if args.publish_only and not args.planned:  # planned: each length's own directory
            publish(args)
            return 0
        if args.planned:
            return planned(argv, args)
        part = plan_part(args)
        todo, batches = part.todo, part.batches
        preflight(args)
        check_builds(args, todo, part.rows)
    except Usage as e:
        if str(e):
            print(f"sched_run.py: {e}", file=sys.stderr)
        return 2
    except (RuntimeError, ReportError) as e:
        print(f"sched_run.py: {e}", file=sys.stderr)
        return 1
    est = part.est
    if part.published:
        print(
            f"sched_run.py: {len(part.published)} selected run(s) are published in {args.publish} "
            "at this code version and length: not made again",
            flush=True,
        )
    beyond = part.beyond
    budget = f", {len(beyond)} left beyond --budget-min {args.budget_min:g}" if beyond else ""
    print(
        f"sched_run.py: {len(batches)} batch(es), {len(todo)} run(s) to do{budget}, about "
        f"{est / 60:.0f} min in one guest at a time ({part.pace_text}); results in "
        f"{args.results}",
        flush=True,
    )
    if args.dry_run:
        for scn, cells, runs in batches:
            print("  " + shlex.join(guest_command(args, scn, cells, runs, todo)))
        return 0
    os.makedirs(os.path.join(args.results, "logs"), exist_ok=True)
    write_manifest(args, "running")
    procs = []  # (Popen, batch, log path, start)
    stop = []

    def on_signal(signum, _frame):
        stop.append(signum)

    signal.signal(signal.SIGINT, on_signal)
    signal.signal(signal.SIGTERM, on_signal)
    queue = list(batches)
    started = {}  # batch log: when it started (time.time()), for its attempts
    t_all = time.monotonic()
    failed_batches = 0
    while (queue or procs) and not stop:
        while queue and len(procs) < args.guests and not stop:
            scn, cells, runs = queue.pop(0)
            stamp = datetime.datetime.now().strftime("%Y%m%d-%H%M%S")
            # jobs of one scenario may start in the same second (on a cluster): the runs too
            every = args.only == list(range(1, args.runs + 1))
            tag = "" if every else "-r" + "-".join(map(str, runs))
            log = os.path.join(args.results, "logs", f"{stamp}-{scn}{tag}.log")
            # every run may take its limit (matrix.run_limit_s), plus its 1 s settle
            per_run = mx.run_limit_s(args.duration) + 15
            timeout = mx.BOOT_OVERHEAD_S + 120 + len(cells) * len(runs) * per_run
            cmd = [TESTBED_RUN, "--timeout", str(int(timeout)), "--results", args.results]
            cmd += ["--log", console_of(log)]  # scanned by kernel_reports
            cmd += ["--", *guest_command(args, scn, cells, runs, todo)]
            f = open(log, "w")  # noqa: SIM115 - closed when the batch ends
            f.write(f"# {shlex.join(cmd)}\n")
            f.flush()
            started[log] = time.time()
            p = subprocess.Popen(cmd, stdout=f, stderr=subprocess.STDOUT, cwd=REPO)
            procs.append((p, (scn, cells, runs), log, time.monotonic(), f))
            print(
                f"sched_run.py: started {scn} ({len(cells)} cells x runs {runs}) -> {log}",
                flush=True,
            )
        time.sleep(1)
        for item in list(procs):
            p, (scn, cells, runs), log, t0, f = item
            if p.poll() is None:
                continue
            procs.remove(item)
            f.close()
            if not stop:  # a batch that ends under a stop was interrupted, not failed
                mark_missing(args, cells, runs, p.returncode, log, todo)
            why = f"interrupted by signal {stop[0]}" if stop else None
            record_attempts(args, cells, runs, todo, started[log], why)
            console = console_of(log)
            hits, retried = kernel_reports(console)
            if retried:
                print(
                    f"sched_run.py: {scn}: a boot died before the batch started and the guest was"
                    f" booted again (see {console}): {retried[0]}",
                    flush=True,
                )
                args.boot_retries.append({"batch": os.path.basename(log), "lines": retried})
            if hits:
                print(
                    f"sched_run.py: {scn}: the guest kernel reported (see {console}):", flush=True
                )
                for line in hits:
                    print(f"  {line}", flush=True)
                args.kernel_reports.append({"batch": os.path.basename(log), "lines": hits})
            m = write_manifest(args, "running")
            failed_batches += p.returncode != 0
            ok = {e: v["counts"]["ok"] for e, v in m["experiments"].items()}
            print(
                f"sched_run.py: {scn} done, exit {p.returncode}, {time.monotonic() - t0:.0f} s;"
                f" ok runs so far {ok}",
                flush=True,
            )
    if stop:
        print(f"sched_run.py: signal {stop[0]}: stopping {len(procs)} guest(s)", flush=True)
        for p, *_ in procs:
            p.terminate()
        for p, (_scn, cells, runs), log, _t0, f in procs:
            try:
                p.wait(timeout=30)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait()
            f.close()
            record_attempts(
                args, cells, runs, todo, started[log], f"interrupted by signal {stop[0]}"
            )
        write_manifest(args, f"interrupted by signal {stop[0]}; rerun the same command to resume")
        return 130
    m = write_manifest(args, "")
    if args.publish:
        try:
            publish(args)
        except ReportError as e:
            print(f"sched_run.py: {e}", file=sys.stderr)
            return 1
    bad = unfinished(args, part)
    print(
        f"sched_run.py: finished in {(time.monotonic() - t_all) / 60:.1f} min; "
        f"selected runs not ok: {len(bad)}{budget}; manifest {m['status']} "
        f"({os.path.join(args.results, '<experiment>', 'manifest.json')})",
        flush=True,
    )
    return 0 if not bad else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
