#!/usr/bin/python3
"""Tables, figures and the results page of the scheduler papers' experiments.

    /usr/bin/python3 testbed/experiments/sched_report.py --data docs/results [--check]

Reads only the committed per-run CSVs that sched_run.py --publish writes (mpqoe.sched_publish says
what the columns are) of every result set under --data, a set being a folder <set>/ =
<prefix>/<experiment> with <set>/data/runs.csv (and optionally <set>/data/paths.csv), e.g.
sticky, bnaware, long120/sticky, paper/bnaware. A set's plan, the cells it is to hold at their
planned lengths (mpqoe.sched_matrix), is every cell of its experiment, or the cells that
<set>/data/plan.txt selects (one shell pattern over cell names a line, `#` comments); a set
holding a cell outside its plan is malformed. It writes, per set:
    <set>/tables.md       per cell n, mean and 95 % CI of every metric; per group the
                          comparisons with the baseline scheduler (p-values)
    <set>/<metric>.png    bars per scenario and scheduler, panels per congestion control,
                          95 % CI bars (the papers' figure style)
    <set>/subflow_throughput.png   each path's subflow throughput per scheduler and congestion
                          control (the sticky paper's Fig. 6), when the set has per-path data
and the pages <data>/scheduler-papers.md (the standing verdicts), scheduler-round1.md (round
1's, superseded) and scheduler-regenerate.md from their committed templates <page>.in (the
first required, the others where present), and <data>/claims/<page>.csv, the claims a page
registers ({{claim}}: mpqoe.claims), for the results index. Everything is made in
memory first; then only the changed files are written (each atomically) and files of a set
folder that are no longer made (PNG, CSV, Markdown beside data/) are removed. --check writes
nothing and exits 1 listing every file that differs from what the data give.

Template placeholders: the grammar of mpqoe.page (docs/results/placeholders.md), `{{kind arg
... key=value}}`. A CELL is `<set>/<cell>` (sticky/baseline.dft.cubic; a set name may hold
slashes, the name after the last one is the cell), a GROUP `<set>/<group>`; CELLS and GROUPS
are comma-separated lists of those with shell patterns, all of one set
(round2/sticky/baseline.*.cubic,round2/sticky/3p-*.cubic); a CLAIM is one word,
`<set>/<group patterns>/<metric>[,<metric>...]/<scheduler>:<expectation>[,...]`. Shared kinds
(no time series: during= is refused):
    {{value CELL METRIC [FIELD]}}          mean (default), ci (half-width), lo, hi, interval
        ("mean [lo, hi]"), n (runs), min, max
    {{cmp CELL METRIC FIELD}}              the cell against its group's baseline: p
        (Holm-adjusted permutation p), sig (yes/no/untested), diff (mean baseline - mean
        cell), p_raw (permutation p), welch
    {{pair CELL CELL METRIC FIELD}}        any two cells of one set, code version and video
        length, not adjusted: p, sig (p below 0.05), diff, welch
        cmp and pair also take the fields higher, lower and same: nothing when the second
        cell is significantly higher or lower than the first, or (same) not significantly
        different, else an error (the check behind one hand-written word; holds: for several)
    {{within CELLS METRIC LO..HI [FIELD]}}  nothing, or an error: every matching cell's mean
        (the default), interval end (lo, hi), half-width (ci) or run count (n) lies in
        [lo, hi], per-path metrics included (the check behind "about a third", "busy", "10
        runs a cell", whose bounds the sentence states; a description, not a test)
    {{rising CELLS METRIC}}                nothing, or an error: the cells' means rise strictly
        in the order named (the check behind "fewest", "between": a description of the
        means, not a test)
    {{verdict CLAIM [check=WORD]}}         a claim's verdict, "agrees", from the comparisons
        with each group's baseline: each named scheduler higher, lower or the same (no
        significant difference) as the baseline, in every matching group and metric;
        "pending" until each cell the claim rests on (in every group of the plan that a
        pattern matches, run or not) has matrix.PLANNED_RUNS runs; "disagrees", "agrees in
        part", "not significant" or "untested" otherwise (claim_verdict); "rests on V,
        before C: rerun pending" when the runs of a cell it rests on (their code version V)
        lack a recorded change C of the cell's scheduler or congestion control (below).
        check=WORD: nothing when the data's verdict is WORD, else an error
    {{figure <set>/<name>}}                the figure's image link, or why there is none
    {{claim KEY TEXT verdict="verdict CLAIM" at=ANCHOR [superseded=yes] [stale=yes]}}  a
        paper's claim: its verdict in bold (plain when superseded) and the code version(s)
        of the runs it rests on ("**agrees** at code `6c6982ca0140`"), registered with them
        in <data>/claims/<page>.csv. A standing claim whose runs lack a recorded change must
        say stale=yes and reads "rests on V, before C: rerun pending" (plain, counted as
        such); the page is not made while such a claim lacks the mark, or while a claim with
        the mark rests on runs that include every recorded change of their code
The family's own kinds:
    {{comparisons CLAIM}}                  the comparisons that decide the claim's verdict
    {{holds CLAIM}}                        nothing, or an error: the check behind a hand-written
        word of direction or equality ("switches more", "as steady"); the page does not render
        unless the comparisons of the cells as they are (complete or not) give agrees
    {{range CELLS METRIC}}                 lowest-highest cell mean over the matching cells
    {{ref GROUP}}                          the group's baseline scheduler
    {{status SET}}                         runs, cells, video length, code version(s)
    {{kernel SET}}                         the guest kernel (uname -r) its runs recorded (one
        per set: a set whose runs name two is refused), "unrecorded" when none did
    {{progress SET}}                       the groups of the set's plan that are complete
        (matrix.PLANNED_RUNS ok runs in each planned cell), under way (with the ok runs a
        cell) and not started
    {{left SET}}                           the runs of the set's plan that it does not hold
        ok yet, and their machine time at the pace of its own runs (plan_time)
    {{cells SET}}                          the patterns of the set's plan, comma-separated
        (sched_run.py --cells takes them), or "*" for every cell
    {{plan EXPERIMENTS SELECTOR FIELD}}    the full plan (matrix.PLANNED_RUNS runs a cell at
        its planned length) of the experiments (comma-separated, or *) over the cells
        "headline", "short", "all" or comma-separated shell patterns: cells, runs, h (machine
        time, matrix.estimate_s), length (the planned video length(s), s)
    {{rerun EXPERIMENT FIELD}}             the reruns of the experiment's cells that the
        claims marked stale=yes on the pages rendered before (PAGES order) rest on: every
        planned cell of their groups, matrix.PLANNED_RUNS runs a cell at its planned length;
        groups (as --cells patterns), cells, runs, h (machine time, matrix.estimate_s),
        length (the planned video length(s), s)
    {{model NAME}}                         a constant of the plan's time model (MODEL):
        per_run_s, boot_s, batch_runs, planned_runs
    {{pace CELLS}}                         machine time per run, s: the mean time between the
        starts of consecutive runs of one batch, over the matching cells (one video length);
        runs of one batch follow each other within matrix.run_limit_s
    {{sig GROUPS METRIC}}                  how many of the comparisons with the baseline in
        the matching groups (e.g. sticky/3p-50.lia,sticky/3p-50.olia) are significant after
        Holm, and which, with direction and p: "none of 8", "1 of 8 (gr_sty lower in
        3p-50.lia, p 0.008)", ", 2 untested" appended when some could not be tested
    {{builds SET[,SET...]}}                how many module sha256 values the kept runs of the
        sets record per scheduler: "two values for `dft` and one value for `gr_sty`"
    {{onebuild SET[,SET...]}}              nothing, or an error: the check behind "one module
        has one sha256", every scheduler's kept runs record one value
    {{mixedbuilds SET[,SET...]}}           the cells whose kept ok runs loaded two builds of
        their modules (scheduler or congestion control), counted per set, and the first
        one's runs by build: "8 cells of round2/bnaware; A-1.dft.lia of round2/bnaware: runs
        1-4 one build, 5-10 another"
    {{minp GROUPS METRIC[,METRIC...]}}     the lowest Holm p of the tested comparisons with the
        baseline in the matching groups and metrics (the number behind "Holm p X or more");
        an error when none could be tested
    {{prange GROUPS METRIC[,...] SCHEDULER[,...]|*}}  the lowest to the highest Holm p of the
        tested comparisons of those schedulers (* for all) with the baseline in the matching
        groups and metrics, "0.024 to 0.032", or one value when both print alike (the numbers
        behind "Holm p X to Y", "Holm p X for each")
    {{ccsig CELLS CC OTHER_CC METRIC}}     the same count for another family: each matching
        cell of control CC against the cell of OTHER_CC with its scenario and scheduler, Holm
        over all of them: "1 of 15 (olia lower with 3p-50.minrtt, p 0.003)"
    {{zero CELLS METRIC[,METRIC...]}}      nothing, or an error: every ok run of the matching
        cells has 0 in each metric (the check behind "none", "clean")
    {{below CELLS CELLS METRIC}}           nothing, or an error: every ok run of the first
        cells lies below every ok run of the second ("every run fewer than any")
A group is a cell less its scheduler: <scenario>.<cc> (baseline.cubic). Metrics: METRICS, and
per path k path<k>_share_pct, path<k>_mbps, path<k>_rtt_ms where the set has per-path data.

Statistics (python/mpqoe/stats.py, shared with the video report): the unit is the
run; per cell the mean and the 95 % Student t interval; per group and metric the baseline
against every other scheduler, two-sided permutation test on the difference of means (exact up
to stats.SPLIT_EXACT_LIMIT splits, else Monte Carlo from a fixed seed) with Welch's p beside
it, Holm over the group's comparisons of that metric. Baselines: sticky compares against minrtt
(the paper's DFT, lowest RTT first) and, where a group has no minrtt cell, against dft
(upstream's default), saying so; bnaware against dft. Code versions: each cell keeps its newest
version's runs (git ancestry; `unrecorded`, the runs published before versions were recorded,
is the oldest); comparisons across versions, or across video lengths, are not made.

Recorded changes: <data>/scheduler-changes.csv (mpqoe.sched_changes) lists every change that
alters a scheduler's or a coupled control's decisions; a cell's runs lack one when its commit
is not an ancestor of their code version (git; `unrecorded` lacks every one).

Exit 0 when done (or nothing differs), 1 on malformed data, an unknown placeholder, a missing
template or (--check) a difference, with nothing written; 2 on usage errors. Needs Debian's
python3-scipy and python3-matplotlib (installed when missing and run as root).
"""

import datetime
import fnmatch
import os
import re
import sys
from dataclasses import dataclass, field
from functools import cache, partial

from mpqoe import claims, debian, page, sched_changes, stats
from mpqoe import results as shared
from mpqoe import sched_matrix as mx
from mpqoe import sched_publish as publish
from mpqoe.results import NO_OK, UNRECORDED, ReportError, fmt, fmt_interval, fmt_p

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))


WHO = "experiments/sched_report.py"
GENERATOR = "testbed/experiments/sched_report.py"
COMMAND = "make results  # or: /usr/bin/python3 -m mpqoe.report scheduler"
# the pages, each rendered from <page>.in under --data: the standing findings (the one a
# data directory must have), round 1's superseded history, the regenerate recipes
PAGES = ("scheduler-papers.md", "scheduler-round1.md", "scheduler-regenerate.md")
PLAN = "plan.txt"  # <set>/data/plan.txt: the cells a set is to hold (read_plan)
LENGTHS_DIFFER = "video lengths differ"  # compare_cells: no test across lengths
STATUSES = ("ok", "failed")
NAME = re.compile(r"[a-z][a-z0-9_]*\Z")


@dataclass(frozen=True)
class Metric:
    label: str
    unit: str
    decimals: int


METRICS = {
    "switches": Metric("Path switches", "", 0),
    "discards": Metric("Picture discards", "frames", 1),
    "underflows": Metric("Buffer underflows", "", 1),
    "underflow_s": Metric("Buffer underflow duration", "s", 2),
    "startup_s": Metric("Startup delay", "s", 2),
    "thr_mean_mbps": Metric("Per-path throughput (mean)", "Mbit/s", 2),
    "thr_std_mbps": Metric("Per-path throughput variability (std of 0.5 s samples)", "Mbit/s", 2),
    "ofo": Metric("Out-of-order packets (MPTCP OFO queue)", "packets", 0),
    "subflow_ooo": Metric("Out-of-order packets (subflow TCP)", "packets", 0),
    "frame_delay_mean_s": Metric("Frame delay, mean", "s", 2),
    "frame_delay_p50_s": Metric("Frame delay, median", "s", 2),
    "frame_delay_p95_s": Metric("Frame delay, 95th percentile", "s", 2),
    "frame_delay_max_s": Metric("Frame delay, max", "s", 2),
    "frames_sent_late": Metric("Frames written late by the server", "frames", 1),
}
# what an ok row must have (runs published before the others were recorded lack them)
REQUIRED = {
    "sticky": ("switches", "discards", "underflows", "underflow_s", "startup_s"),
    "bnaware": ("switches", "discards", "underflows", "underflow_s", "startup_s",
                "thr_mean_mbps", "thr_std_mbps", "ofo"),
}  # fmt: skip
PATH_METRICS = {
    "share_pct": Metric("share of the bytes", "%", 1),
    "mbps": Metric("mean throughput", "Mbit/s", 2),
    "rtt_ms": Metric("ping RTT (min) before the batch", "ms", 1),
}
PATH_METRIC = re.compile(r"path(\d+)_(share_pct|mbps|rtt_ms)\Z")
_LINK = r"[\w-]+:[\d.]+/[\d.]+/[\d.]+"
LINKS = re.compile(rf"{_LINK}(\|{_LINK})*")


def scenario_heading(scn, networks):
    """The matrix's description of a scenario when its runs had the matrix's network, else
    the network the runs had (the matrix may have changed since)."""
    s = mx.SCENARIOS[scn]
    now = (publish.links_text(s.links), s.queue or mx.NETEM_LIMIT)
    if networks == {now}:
        return s.description
    return "; ".join(
        "as run: "
        + ", ".join(
            "{} {:g} ms one way, {:g} % loss, {:g} Mbit/s".format(
                k, *(float(x) for x in v.split("/"))
            )
            for k, v in (item.split(":") for item in links.split("|"))
        )
        + f", queues {queue} packets (the matrix has changed since)"
        for links, queue in sorted(networks)
    )


def metric_of(name):
    """The Metric of a name (per-path ones included); KeyError for an unknown one."""
    if name in METRICS:
        return METRICS[name]
    m = PATH_METRIC.fullmatch(name)
    if not m:
        raise KeyError(f"unknown metric {name!r}")
    pm = PATH_METRICS[m.group(2)]
    return Metric(f"Path {m.group(1)}: {pm.label}", pm.unit, pm.decimals)


@dataclass(frozen=True)
class Experiment:
    name: str
    title: str
    refs: tuple  # baseline schedulers, first present in a group wins
    plotted: tuple


EXPERIMENTS = {
    "sticky": Experiment(
        "sticky",
        "sticky schedulers (Nagayama et al.)",
        ("minrtt", "dft"),
        ("switches", "discards", "underflows", "underflow_s"),
    ),
    "bnaware": Experiment(
        "bnaware",
        "bottleneck-aware scheduler (Komatsu et al.)",
        ("dft",),
        ("discards", "underflows", "underflow_s", "thr_mean_mbps", "thr_std_mbps", "ofo"),
    ),
}
REF_NOTES = {
    "dft": "dft, upstream's default (this group has no minrtt cell: minrtt, the paper's "
    "lowest-RTT-first DFT, was not run in it)",
}
SCHEDULER_ORDER = ("minrtt", "dft", "gr_sty", "tp_sty", "tr_sty", "bnaware")
CC_ORDER = ("cubic", "bbr", "lia", "olia", "balia")

METHOD = f"""\
How the numbers are made (testbed/experiments/sched_report.py, statistics of
python/mpqoe/stats.py, shared with the video experiments):
- The unit of replication is the run (one video stream). Failed runs are counted, never
  averaged.
- Per cell: mean over the ok runs [95 % Student t interval, mean +- t(0.975, n-1) s / sqrt(n)];
  n = ok runs. One run: no interval.
- Comparisons inside a group (same scenario and congestion control): the group's baseline
  scheduler against each other one, two-sided permutation test on the difference of the
  per-run means (exact over every split of the pooled runs up to {stats.SPLIT_EXACT_LIMIT}
  splits, e.g. 5 vs 5 runs = 252, 10 vs 10 = 184756; beyond that scipy.stats.permutation_test
  with {stats.RESAMPLES} random splits from a fixed seed, marked MC), Welch's t-test p beside it
  (unadjusted).
  Holm-Bonferroni adjusts the permutation p over the group's comparisons of one metric; `*`
  marks a Holm-adjusted p below {stats.ALPHA}. The smallest exact p is 2 / C(n1 + n2, n1):
  0.1 for 3 vs 3 runs (nothing can be marked), 0.0079 for 5 vs 5, 0.00001 for 10 vs 10. No
  test with fewer than {stats.MIN_RUNS} runs a side ("{stats.TOO_FEW}"), across code versions
  ("{stats.VERSIONS_DIFFER}") or, between cells of two groups, across video lengths
  ("{LENGTHS_DIFFER}"); a set whose group holds cells of two video lengths is refused.
  Two cells that are both all zeros give p = 1.
- Baselines: sticky: minrtt (the paper's DFT, lowest RTT first), and dft (upstream Linux's
  default) is one of the schedulers compared with it; a group without a minrtt cell is compared
  against dft, as its heading says. bnaware: dft.
- Code versions: each cell keeps the runs of its newest code version (git ancestry;
  `{UNRECORDED}` marks runs published before runs recorded their version, the oldest); the
  runs dropped are listed; tables never mix versions within a comparison.
"""


# ---------------------------------------------------------------------------------------------
# Reading


def find_sets(data):
    """[(set name, folder)] of every result set under data: <...>/<experiment>/data/runs.csv."""
    out = []
    for d, dirs, _files in os.walk(data):
        dirs.sort()
        if os.path.basename(d) in EXPERIMENTS and os.path.isfile(
            os.path.join(d, "data", "runs.csv")
        ):
            out.append((os.path.relpath(d, data).replace(os.sep, "/"), d))
    return out


def parse_runs(experiment, path, raw):
    """Typed rows of a runs.csv, every field checked; ReportError naming the line."""
    rows, seen = [], set()
    need = REQUIRED[experiment]
    for line, r in raw:
        where = f"{path}:{line}"
        t = dict(r)
        for col in ("cell", "scenario", "scheduler", "cc", "run", "status", "code_version"):
            if not r[col]:
                raise ReportError(f"{where}: {col} is empty")
        scn = mx.SCENARIOS.get(r["scenario"])
        if scn is None or scn.experiment != experiment:
            raise ReportError(f"{where}: scenario {r['scenario']!r} is not one of {experiment}'s")
        for col in ("scheduler", "cc"):
            if not NAME.match(r[col]):
                raise ReportError(f"{where}: {col} {r[col]!r} is not a name")
        if r["cell"] != f"{r['scenario']}.{r['scheduler']}.{r['cc']}":
            raise ReportError(f"{where}: cell {r['cell']!r} is not <scenario>.<scheduler>.<cc>")
        if r["status"] not in STATUSES:
            raise ReportError(f"{where}: status {r['status']!r} is not one of {STATUSES}")
        t["run"] = shared.number(r["run"], int, where, "run")
        if t["run"] < 1:
            raise ReportError(f"{where}: run {r['run']} is not >= 1")
        t["duration_s"] = shared.number(r["duration_s"], float, where, "duration_s")
        if t["duration_s"] <= 0:
            raise ReportError(f"{where}: duration_s {r['duration_s']} is not positive")
        if not LINKS.fullmatch(r["links"]):
            raise ReportError(f"{where}: links {r['links']!r} is not a-b:delay/loss/Mbit|...")
        t["queue_packets"] = shared.number(r["queue_packets"], int, where, "queue_packets")
        t["started_utc"] = None  # runs published before it was recorded have none
        if r["started_utc"]:
            try:
                t["started_utc"] = datetime.datetime.fromisoformat(r["started_utc"])
            except ValueError:
                raise ReportError(
                    f"{where}: started_utc {r['started_utc']!r} is not an ISO 8601 time"
                ) from None
            if t["started_utc"].tzinfo is None:
                raise ReportError(f"{where}: started_utc {r['started_utc']!r} has no UTC offset")
        t.update(shared.run_metrics(r, ("subflows", *METRICS), need, where))
        key = (r["cell"], t["run"], r["code_version"])
        if key in seen:
            raise ReportError(
                f"{where}: a second row for cell {key[0]} run {key[1]} at version {key[2]}"
            )
        seen.add(key)
        rows.append(t)
    return rows


def parse_paths(path, raw, runs):
    """{(cell, run, code_version): {path k: typed row}} of a paths.csv; rows must belong to an
    ok run of runs.csv."""
    ok = {(r["cell"], r["run"], r["code_version"]) for r in runs if r["status"] == "ok"}
    out = {}
    for line, r in raw:
        where = f"{path}:{line}"
        t = dict(r)
        t["run"] = shared.number(r["run"], int, where, "run")
        t["path"] = shared.number(r["path"], int, where, "path")
        if t["path"] < 1:
            raise ReportError(f"{where}: path {r['path']} is not >= 1")
        key = (r["cell"], t["run"], r["code_version"])
        if key not in ok:
            raise ReportError(f"{where}: no ok run {key[0]} run {key[1]} ({key[2]}) in runs.csv")
        for col in ("rtt_expected_ms", "rtt_min_ms", "rtt_avg_ms", "bytes", "mean_mbps",
                    "std_mbps"):  # fmt: skip
            t[col] = shared.number(r[col], float, where, col) if r[col] else None
            if t[col] is not None and t[col] < 0:
                raise ReportError(f"{where}: {col} {r[col]} is negative")
        if t["path"] in out.get(key, {}):
            raise ReportError(f"{where}: a second row for path {t['path']} of that run")
        out.setdefault(key, {})[t["path"]] = t
    return out


def path_values(paths):
    """{metric: value} of one run's paths: share of the bytes, mean rate, ping RTT per path."""
    total = sum(p["bytes"] or 0 for p in paths.values())
    out = {}
    for k, p in paths.items():
        if p["bytes"] is not None and total > 0:
            out[f"path{k}_share_pct"] = 100.0 * p["bytes"] / total
        if p["mean_mbps"] is not None:
            out[f"path{k}_mbps"] = p["mean_mbps"]
        if p["rtt_min_ms"] is not None:
            out[f"path{k}_rtt_ms"] = p["rtt_min_ms"]
    return out


# ---------------------------------------------------------------------------------------------
# Aggregation


@dataclass
class Cell:
    name: str
    scenario: str
    scheduler: str
    cc: str
    version: str
    duration: float
    network: tuple  # (links as publish.links_text writes them, netem queue in packets)
    runs: int  # ok and failed
    failed: int
    values: dict  # metric -> [per-run values of the ok runs]
    intervals: dict  # metric -> stats.Interval

    @property
    def group(self):
        return f"{self.scenario}.{self.cc}"

    @property
    def ok(self):
        """The ok runs, those the means are over."""
        return self.runs - self.failed


@dataclass
class Group:
    name: str
    scenario: str
    cc: str
    cells: dict  # scheduler -> Cell
    ref: str | None = None
    comparisons: dict = field(default_factory=dict)  # metric -> [stats.Comparison]


@dataclass
class SetResult(shared.CellsAndGroups):
    name: str
    experiment: Experiment
    cells: list = field(default_factory=list)
    groups: list = field(default_factory=list)
    dropped: list = field(default_factory=list)
    metrics: list = field(default_factory=list)  # with a value in some cell, in METRICS order
    absent: list = field(default_factory=list)  # METRICS without any value
    path_metrics: list = field(default_factory=list)
    figures: dict = field(default_factory=dict)  # stem -> PNG bytes, None when not made
    notes: dict = field(default_factory=dict)  # stem -> why the figure is not made
    starts: list = field(default_factory=list)  # (start time, cell, scenario) of kept runs
    # the matrix cells the set is to hold (its data/plan.txt; every cell of its experiment
    # without one) and the patterns that select them (None: every cell), set by load
    plan: list = field(default_factory=list)
    plan_patterns: str | None = None
    builds: dict = field(default_factory=dict)  # scheduler -> module sha256 values of kept runs
    # cell -> {(module sha256, cc module sha256): [run numbers]} of its kept ok runs
    cell_builds: dict = field(default_factory=dict)
    kernel: str = ""  # uname -r of the guest kernel every run recorded ("" when none did)


def _sched_key(s):
    return (SCHEDULER_ORDER.index(s), "") if s in SCHEDULER_ORDER else (len(SCHEDULER_ORDER), s)


def _cc_key(c):
    return (CC_ORDER.index(c), "") if c in CC_ORDER else (len(CC_ORDER), c)


def _scenario_key(s):
    """Matrix order: the experiments' scenario lists, then any other scenario."""
    order = [x for e in mx.EXPERIMENTS.values() for x in e["scenarios"]]
    return order.index(s) if s in order else len(order)


def summarize(name, experiment, path, rows, paths, newest):
    """SetResult of one set's typed rows and per-path data."""
    res = SetResult(name, EXPERIMENTS[experiment])
    try:
        rows, res.dropped = stats.keep_newest(rows, newest)
    except ValueError as e:
        raise ReportError(f"{path}: {e}") from e
    res.starts = sorted(
        (r["started_utc"], r["cell"], r["scenario"]) for r in rows if r["started_utc"]
    )
    for r in rows:
        if r.get("module_sha256"):
            res.builds.setdefault(r["scheduler"], set()).add(r["module_sha256"])
        if r["status"] == "ok":
            build = (r.get("module_sha256") or "", r.get("cc_module_sha256") or "")
            res.cell_builds.setdefault(r["cell"], {}).setdefault(build, []).append(r["run"])
    for r in rows:
        if r["status"] == "ok":
            r.update(path_values(paths.get((r["cell"], r["run"], r["code_version"]), {})))
    pm = sorted({k for r in rows for k in r if PATH_METRIC.fullmatch(k)},
                key=lambda k: (int(PATH_METRIC.fullmatch(k).group(1)), k))  # fmt: skip
    names = list(METRICS) + pm
    values = {m: stats.per_run(rows, lambda r, m=m: r.get(m)) for m in names}
    by_cell = {}
    for r in rows:
        by_cell.setdefault(r["cell"], []).append(r)
    for cname, rs in by_cell.items():
        durations = {r["duration_s"] for r in rs}
        if len(durations) > 1:
            raise ReportError(
                f"{path}: cell {cname} has runs of several video lengths {sorted(durations)}"
            )
        networks = {(r["links"], r["queue_packets"]) for r in rs}
        if len(networks) > 1:
            raise ReportError(f"{path}: cell {cname} has runs of several networks {networks}")
        vals = {m: list(values[m].get(cname, {}).values()) for m in names}
        r0 = rs[0]
        res.cells.append(
            Cell(
                cname,
                r0["scenario"],
                r0["scheduler"],
                r0["cc"],
                r0["code_version"],
                durations.pop(),
                networks.pop(),
                len({r["run"] for r in rs}),
                sum(r["status"] != "ok" for r in rs),
                vals,
                {m: stats.mean_ci(v) for m, v in vals.items()},
            )
        )
    res.cells.sort(key=lambda c: (_scenario_key(c.scenario), _sched_key(c.scheduler),
                                  _cc_key(c.cc)))  # fmt: skip
    res.metrics = [m for m in METRICS if any(c.values[m] for c in res.cells)]
    res.absent = [m for m in METRICS if m not in res.metrics]
    res.path_metrics = pm
    groups = {}
    for c in res.cells:
        g = groups.setdefault(c.group, Group(c.group, c.scenario, c.cc, {}))
        g.cells[c.scheduler] = c
    res.groups = sorted(groups.values(), key=lambda g: (_scenario_key(g.scenario), _cc_key(g.cc)))
    for g in res.groups:
        lengths = {c.name: c.duration for c in g.cells.values()}
        if len(set(lengths.values())) > 1:  # a group's schedulers are compared with each other
            raise ReportError(
                f"{path}: group {g.name} has cells of several video lengths {lengths}"
            )
        g.ref = next((s for s in res.experiment.refs if s in g.cells), None)
        if g.ref is None:
            continue
        cells = {g.ref: g.cells[g.ref]}
        cells.update((s, c) for s, c in g.cells.items() if s != g.ref)
        versions = {s: c.version for s, c in cells.items()}
        for m in res.metrics:
            samples = {s: c.values[m] for s, c in cells.items()}
            g.comparisons[m] = stats.compare_group(g.ref, samples, versions)
    return res


def read_plan(path, experiment):
    """The comma-joined cell patterns of a set's plan file (one shell pattern over cell names a
    line, `#` comments), None when there is none; ReportError when it selects no cell or a
    pattern matches none."""
    if not os.path.isfile(path):
        return None
    with open(path, encoding="utf-8") as f:
        pats = [ln.strip() for ln in f.read().splitlines()]
    pats = [p for p in pats if p and not p.startswith("#")]
    for p in pats:
        if not mx.select(experiment, p):
            raise ReportError(f"{path}: {p!r} matches no cell of the {experiment} matrix")
    if not pats:
        raise ReportError(f"{path}: names no cell pattern")
    return ",".join(pats)


def set_plan(res, path, patterns):
    """Gives res its plan; ReportError when it holds a cell outside it."""
    res.plan_patterns = patterns
    res.plan = mx.select(res.experiment.name, patterns)
    outside = sorted({c.name for c in res.cells} - {c.name for c in res.plan})
    if outside:
        raise ReportError(f"{path}: cells outside the set's plan {patterns!r}: {outside}")


def load(data, newest):
    """[SetResult] of every result set under data."""
    out = []
    for name, d in find_sets(data):
        experiment = os.path.basename(d)
        path = os.path.join(d, "data", "runs.csv")
        rows = parse_runs(experiment, path, shared.read_csv(path, publish.RUN_COLUMNS))
        kernel = shared.one_kernel(rows, os.path.relpath(path, REPO))
        ppath = os.path.join(d, "data", "paths.csv")
        praw = shared.read_csv(ppath, publish.PATH_COLUMNS)
        paths = parse_paths(ppath, praw, rows) if praw else {}
        res = summarize(name, experiment, path, rows, paths, newest)
        res.kernel = kernel
        plan = os.path.join(d, "data", PLAN)
        set_plan(res, plan, read_plan(plan, experiment))
        out.append(res)
    return out


# ---------------------------------------------------------------------------------------------
# Text


def label(m):
    mt = metric_of(m)
    return mt.label + (f" ({mt.unit})" if mt.unit else "")


def fmt_seconds(v):
    return f"{v:g}"


def status_text(res):
    runs = sum(c.runs for c in res.cells)
    failed = sum(c.failed for c in res.cells)
    per = sorted({c.runs for c in res.cells})
    per_text = str(per[0]) if len(per) == 1 else f"{per[0]}-{per[-1]}"
    lengths = ", ".join(fmt_seconds(d) for d in sorted({c.duration for c in res.cells}))
    vs = ", ".join(f"`{shared.short(v)}`" for v in sorted(res.versions()))
    word = "version" if len(res.versions()) == 1 else "versions"
    return (
        f"{runs} runs ({failed} failed) in {len(res.cells)} cells ({per_text} per cell), "
        f"{lengths} s videos, code {word} {vs}"
    )


def planned_groups(res):
    """{group name: [cell names]} of the set's plan, in matrix order."""
    out = {}
    for c in res.plan:
        out.setdefault(f"{c.scenario}.{c.cc}", []).append(c.name)
    return out


def progress_text(res):
    """How far the set is through its experiment's matrix, group by group (progress:)."""
    ok = {c.name: c.ok for c in res.cells}
    groups = {g: [ok.get(n, 0) for n in names] for g, names in planned_groups(res).items()}
    done = [g for g, n in groups.items() if min(n) >= mx.PLANNED_RUNS]
    going = [(g, n) for g, n in groups.items() if max(n) and min(n) < mx.PLANNED_RUNS]
    idle = len(groups) - len(done) - len(going)
    if len(done) == len(groups):
        return f"complete ({mx.PLANNED_RUNS} runs a cell): every planned group ({', '.join(done)})"
    out = [f"complete ({mx.PLANNED_RUNS} runs a cell): {', '.join(done) or 'none'}"]
    if going:
        spans = [(g, f"{min(n)}" if min(n) == max(n) else f"{min(n)}-{max(n)}") for g, n in going]
        out.append(
            "under way: "
            + ", ".join(f"{g} ({k} run{'' if k == '1' else 's'} a cell)" for g, k in spans)
        )
    out.append(f"not started: {idle} of {len(groups)} groups")
    return "; ".join(out)


def table(head, rows):
    out = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    return out + ["| " + " | ".join(r) + " |" for r in rows]


def unrecorded_note(res):
    if UNRECORDED not in res.versions():
        return []
    return [
        f"Code version `{UNRECORDED}`: these runs were published before runs recorded the code "
        "that made them (converted from the report's earlier runs.csv); they have only the "
        "metrics that file had, no per-path data, and any run of the same cell that records "
        "its version replaces them.",
        "",
    ]


def set_md(res):
    ex = res.experiment
    lines = [f"## `{res.name}`: {ex.title}", "", f"Data: `data/runs.csv`: {status_text(res)}."]
    if res.dropped:
        lines.append(
            "Dropped (older code version of the cell): "
            + "; ".join(f"{c}: {n} run(s) of `{shared.short(v)}`" for c, v, n in res.dropped)
            + "."
        )
    lines.append("")
    lines += unrecorded_note(res)
    if res.absent:
        lines += [
            "Not in the data (no run of this set recorded them): "
            + ", ".join(METRICS[m].label.lower() for m in res.absent)
            + ".",
            "",
        ]
    versions = len(res.versions()) > 1
    for scn in dict.fromkeys(c.scenario for c in res.cells):
        cells = [c for c in res.cells if c.scenario == scn]
        lines += [f"### {scn}: {scenario_heading(scn, {c.network for c in cells})}", ""]
        head = ["scheduler", "cc", "runs ok (failed)"] + [label(m) for m in res.metrics]
        head += ["code version"] if versions else []
        rows = []
        for c in cells:
            r = [c.scheduler, c.cc, f"{c.ok} ({c.failed})"]
            r += [fmt_interval(c.intervals[m], metric_of(m).decimals) for m in res.metrics]
            r += [f"`{shared.short(c.version)}`"] if versions else []
            rows.append(r)
        lines += table(head, rows) + [""]
        pms = [m for m in res.path_metrics if any(c.values[m] for c in cells)]
        if pms:
            head = ["scheduler", "cc"] + [label(m) for m in pms]
            rows = [
                [c.scheduler, c.cc]
                + [fmt_interval(c.intervals[m], metric_of(m).decimals) for m in pms]
                for c in cells
            ]
            lines += ["Per path:", ""] + table(head, rows) + [""]
    lines += comparisons_md(res)
    return lines


def comparisons_md(res):
    lines = []
    for g in res.groups:
        if g.ref is None:
            lines += [
                f"### `{g.name}`: no {' or '.join(res.experiment.refs)} cell, no comparison",
                "",
            ]
            continue
        if len(g.cells) < 2:
            continue
        note = REF_NOTES.get(g.ref, g.ref) if "minrtt" in res.experiment.refs else g.ref
        lines += [
            f"### Comparisons in `{g.name}` against {note}",
            "",
            f"difference = mean({g.ref}) - mean(other); p: permutation test; Holm: adjusted over "
            "the group's comparisons of the metric; Welch: unadjusted.",
            "",
        ]
        rows = []
        for m in res.metrics:
            d = metric_of(m).decimals
            for c in g.comparisons[m]:
                ref, other = g.cells[g.ref], g.cells[c.other]
                row = [
                    METRICS[m].label,
                    c.other,
                    f"{c.n_ref} vs {c.n_other}",
                    fmt_interval(ref.intervals[m], d),
                    fmt_interval(other.intervals[m], d),
                    shared.fmt_diff(c.diff, d),
                ]
                if c.tested:
                    p = fmt_p(c.p_perm) + ("" if c.exact else " (MC)")
                    row += [p, fmt_p(c.p_holm), fmt_p(c.p_welch), "*" if c.sig else ""]
                else:
                    row += [c.reason, "-", "-", ""]
                rows.append(row)
        head = ["metric", "other", "runs", g.ref, "other's", "difference", "p", "Holm p"]
        head += ["Welch p", ""]
        lines += table(head, rows) + [""]
    return lines


def tables_md(res):
    lines = [
        f"# {res.name}: generated tables",
        "",
        "Generated from `data/` (the committed per-run CSVs); do not edit. Regenerate with",
        "",
        "```sh",
        COMMAND,
        "```",
        "",
        METHOD,
    ]
    lines += set_md(res)
    made = [s for s, b in res.figures.items() if b is not None]
    missing = list(res.notes.items())
    if made or missing:
        lines += ["## Figures", ""]
        lines += [f"![{s}]({s}.png)" for s in made]
        lines += [f"- `{s}.png`: not made: {why}." for s, why in missing]
        lines.append("")
    return "\n".join(lines).rstrip("\n") + "\n"


# ---------------------------------------------------------------------------------------------
# Placeholders


def _set(sets, name):
    res = next((s for s in sets if s.name == name), None)
    if res is None:
        raise KeyError(f"unknown result set {name!r} ({', '.join(s.name for s in sets)})")
    return res


def _metric(res, m):
    if m not in res.metrics and m not in res.path_metrics:
        if m in METRICS or PATH_METRIC.fullmatch(m):
            raise KeyError(f"{res.name} has no value of {m!r} in its data")
        raise KeyError(f"unknown metric {m!r}")
    return metric_of(m)


def _split(name, n, form):
    parts = name.rsplit("/", n)
    if len(parts) != n + 1 or not all(parts):
        raise KeyError(f"expected {form}")
    return parts


def _subject(sets, subject, what="cell"):
    """(result set, name) of a subject `<set>/<name>` (a set name may hold slashes)."""
    sname, name = _split(subject, 1, f"<set>/<{what}>")
    return _set(sets, sname), name


def _subjects(sets, subjects, what="cell"):
    """(result set, comma-separated patterns) of a list of subjects `<set>/<pattern>`, all of
    one set."""
    found = [_split(s, 1, f"<set>/<{what} pattern>") for s in subjects]
    names = {sname for sname, _ in found}
    if len(names) > 1:
        raise KeyError(f"the {what}s are of several result sets ({', '.join(sorted(names))})")
    return _set(sets, names.pop()), ",".join(p for _, p in found)


def _value(sets, subject, metric, field, during):
    m, fld = metric, field
    page.no_window(during, "the scheduler runs")
    res, cname = _subject(sets, subject)
    sname = res.name
    mt = _metric(res, m)
    fields = shared.INTERVAL_FIELDS + ("min", "max")
    if fld not in fields:
        raise KeyError(f"field {fld!r} is not {', '.join(fields)}")
    c = res.cell(cname)
    if c is None:
        raise KeyError(f"{sname} has no cell {cname!r}")
    iv = c.intervals[m]
    if fld in ("min", "max"):
        return fmt((min if fld == "min" else max)(c.values[m]), mt.decimals) if iv.n else NO_OK
    return shared.interval_field(iv, fld, mt.decimals)


def _comparison(sets, subject, metric, field, during):
    """The cell's test against its group's baseline (cmp <set>/<cell>)."""
    m, fld = metric, field
    page.no_window(during, "the scheduler runs")
    res, cname = _subject(sets, subject)
    sname = res.name
    mt = _metric(res, m)
    shared.check_field(fld, ("p", "sig", "diff", "p_raw", "welch"))
    scenario, other, cc = _cell_parts(cname)
    gname = f"{scenario}.{cc}"
    g = res.group(gname)
    if g is None:
        raise KeyError(f"{sname} has no group {gname!r}")
    if other == g.ref:
        raise KeyError(f"{cname} is the baseline of group {gname} of {sname}")
    c = next((c for c in g.comparisons.get(m, []) if c.other == other), None)
    if c is None:
        raise KeyError(f"group {gname} of {sname} has no {other} cell")
    ps = {"p": c.p_holm, "p_raw": c.p_perm, "welch": c.p_welch}
    return shared.test_field(c, fld, mt.decimals, ps, stats.ALPHA)


def compare_cells(a, b, m):
    """Cell a against cell b on metric m, unadjusted; untested when their code versions
    differ (comparisons across versions are not made) or their video lengths do (a count
    per run, of discards or switches, grows with the length, so the test would measure the
    length)."""
    if a.version != b.version:
        return stats.Comparison(a.name, b.name, 0, 0, None, reason=stats.VERSIONS_DIFFER)
    if a.duration != b.duration:
        return stats.Comparison(a.name, b.name, 0, 0, None, reason=LENGTHS_DIFFER)
    return stats.compare(a.name, b.name, a.values[m], b.values[m])


def _cell_parts(cname):
    """(scenario, scheduler, congestion control) of a cell name."""
    parts = cname.rsplit(".", 2)
    if len(parts) != 3 or not all(parts):
        raise KeyError(f"{cname!r} is not a cell, <scenario>.<scheduler>.<cc>")
    return parts


def _pair(sets, first, second, metric, field, during):
    m, fld = metric, field
    page.no_window(during, "the scheduler runs")
    res, a = _subject(sets, first)
    res2, b = _subject(sets, second)
    sname = res.name
    if res2 is not res:
        raise KeyError(f"pair compares cells of one result set, not {sname} and {res2.name}")
    mt = _metric(res, m)
    shared.check_field(fld, ("p", "sig", "diff", "welch"))
    ca, cb = res.cell(a), res.cell(b)
    for n, c in ((a, ca), (b, cb)):
        if c is None:
            raise KeyError(f"{sname} has no cell {n!r}")
    c = compare_cells(ca, cb, m)
    return shared.test_field(c, fld, mt.decimals, {"p": c.p_perm, "welch": c.p_welch}, stats.ALPHA)


def name_matches(name, patterns):
    """Whether name matches one of the comma-separated shell patterns."""
    return any(fnmatch.fnmatchcase(name, p) for p in patterns.split(",") if p)


def matching(items, patterns, what):
    """The items (cells or groups, by name) that match one of the comma-separated shell
    patterns; KeyError naming `what` when none does."""
    found = [i for i in items if name_matches(i.name, patterns)]
    if not found:
        raise KeyError(f"no {what} matches {patterns!r}")
    return found


def matching_cells(res, patterns):
    """The cells of res whose names match one of the comma-separated shell patterns;
    KeyError when none does."""
    return matching(res.cells, patterns, f"cell of {res.name}")


def _range(sets, cells, metric):
    res, patterns = _subjects(sets, cells)
    m = metric
    mt = _metric(res, m)
    cells = matching_cells(res, patterns)
    means = [c.intervals[m].mean for c in cells if c.intervals[m].n]
    if not means:
        return NO_OK
    lo, hi = fmt(min(means), mt.decimals), fmt(max(means), mt.decimals)
    return lo if lo == hi else f"{lo}-{hi}"


def pace_s(res, patterns):
    """(mean s between the starts of consecutive runs of one batch, number of such gaps) over
    the cells matching the comma-separated patterns; two runs follow each other in a batch
    when they are next to each other in the set's start order, of one scenario, and started
    within matrix.run_limit_s of each other. The mean is None without a gap. Meant for runs
    made one guest at a time: runs of concurrent guests interleave, and their gaps are not a
    run's time."""
    cells = matching_cells(res, patterns)
    lengths = {c.duration for c in cells}
    if len(lengths) > 1:
        raise KeyError(f"the cells matching {patterns!r} have several video lengths {lengths}")
    return batch_gaps(res, {c.name for c in cells}, lengths.pop())


def batch_gaps(res, names, length):
    """pace_s over the cells `names` of one video length."""
    return mx.start_gaps(res.starts, names, length)


def _pace(sets, cells):
    mean, _n = pace_s(*_subjects(sets, cells))
    return "n/a (no two runs of one batch)" if mean is None else fmt(mean, 0)


def plan_cells(experiments, selector):
    """The matrix cells of the experiments (a list, ["*"]: all) that a plan placeholder
    selects: "headline" (a headline claim rests on them), "short" (the others), "all", or
    comma-separated shell patterns over cell names; KeyError when none is."""
    names = list(mx.EXPERIMENTS) if experiments == ["*"] else experiments
    for e in names:
        if e not in mx.EXPERIMENTS:
            raise KeyError(f"unknown experiment {e!r} ({', '.join(mx.EXPERIMENTS)})")
    pattern = None if selector in ("headline", "short", "all") else selector
    cells = [c for e in names for c in mx.select(e, pattern)]
    if selector in ("headline", "short"):
        cells = [c for c in cells if mx.headline(c) == (selector == "headline")]
    if not cells:
        raise KeyError(f"no cell of {','.join(experiments)} is {selector!r}")
    return cells


def plan_time(cells, done=None, pace=None):
    """(runs to make, machine time s) of the planned runs of `cells` (matrix.PLANNED_RUNS a
    cell at its planned length) that are not among the done ones ({cell name: ok runs}), in
    guest batches as the runner makes them (one results directory per length), at the pace
    {(scenario, length): s a run} where given and else the video length plus
    matrix.PER_RUN_OVERHEAD_S (matrix.estimate_s)."""
    done, pace = done or {}, pace or {}
    runs, total = 0, 0.0
    lengths = sorted({mx.planned_duration(c) for c in cells}, reverse=True)
    for length in lengths:
        cs = [c for c in cells if mx.planned_duration(c) == length]
        todo = {
            (c.name, k) for c in cs for k in range(done.get(c.name, 0) + 1, mx.PLANNED_RUNS + 1)
        }
        at = {scn: (s, 0) for (scn, d), s in pace.items() if d == length}
        runs += len(todo)
        total += mx.estimate_s(mx.batches(cs, todo), todo, length, at)
    return runs, total


def _plan(experiments, cells, field):
    fld = field
    cells = plan_cells(experiments, cells)
    runs, total = plan_time(cells)
    fields = {
        "cells": lambda: str(len(cells)),
        "runs": lambda: str(runs),
        "h": lambda: fmt(total / 3600, 1),
        "length": lambda: ", ".join(
            fmt_seconds(d) for d in sorted({mx.planned_duration(c) for c in cells}, reverse=True)
        ),
    }
    return fields[fld]()


# the time model's constants a page may quote ({{model NAME}}), so its sentences follow
# mpqoe.sched_matrix
MODEL = {
    "per_run_s": "PER_RUN_OVERHEAD_S",
    "boot_s": "BOOT_OVERHEAD_S",
    "batch_runs": "BATCH_RUNS",
    "planned_runs": "PLANNED_RUNS",
}


def left_text(res):
    """What is left of the set's experiment plan (left:): the planned runs that its cells do
    not hold ok at their planned lengths, and their machine time at the pace of the set's own
    runs of each scenario and length (matrix.PER_RUN_OVERHEAD_S over the length where it has
    none)."""
    cells = res.plan
    planned = {c.name: mx.planned_duration(c) for c in cells}
    held = [c for c in res.cells if planned.get(c.name) == c.duration]
    done = {c.name: c.ok for c in held}
    pace = {}
    for scn, length in {(c.scenario, c.duration) for c in held}:
        mean, _n = batch_gaps(res, {c.name for c in held if c.scenario == scn}, length)
        if mean is not None:
            pace[(scn, length)] = mean
    runs, total = plan_time(cells, done, pace)
    if not runs:
        return "nothing"
    return f"{runs} runs, about {fmt(total / 3600, 1)} h of machine time"


def significant(res, patterns, metric):
    """Over the groups matching the comma-separated patterns, the comparisons of metric with
    each group's baseline: (tested, untested, [(other, group, "lower"/"higher", Holm p)] of
    those with a Holm-adjusted p below stats.ALPHA, the direction being the other scheduler's
    mean against the baseline's)."""
    tested, untested, sig = 0, 0, []
    for g in matching(res.groups, patterns, f"group of {res.name}"):
        for c in g.comparisons.get(metric, []):
            if not c.tested:
                untested += 1
                continue
            tested += 1
            if c.sig:
                sig.append((c.other, g.name, shared.direction(c), c.p_holm))
    return tested, untested, sig


def control_comparisons(res, patterns, ref_cc, other_cc, metric):
    """The cells of control ref_cc matching the comma-separated patterns, each against the
    cell of other_cc with the same scenario and scheduler: [(<scenario>.<scheduler>,
    Comparison)] in the set's cell order, Holm-adjusted as one family. Cells of two code
    versions are not compared (untested); a cell without a counterpart is left out, and
    KeyError when none has one."""
    by_key = {(c.scenario, c.scheduler, c.cc): c for c in res.cells}
    pairs = []
    for a in matching_cells(res, patterns):
        b = by_key.get((a.scenario, a.scheduler, other_cc)) if a.cc == ref_cc else None
        if b is not None:
            pairs.append((f"{a.scenario}.{a.scheduler}", compare_cells(a, b, metric)))
    if not pairs:
        raise KeyError(f"no {ref_cc} cell matching {patterns!r} has a {other_cc} cell beside it")
    adjusted = stats.holm_adjusted(c for _l, c in pairs)
    return [(label, c) for (label, _c), c in zip(pairs, adjusted, strict=True)]


def hits_text(hits):
    """Comparisons as text, "<hit>, p 0.008; <hit>, p 0.012"; hits are (text, Holm p)."""
    return "; ".join(f"{h}, p {fmt_p(p)}" for h, p in hits)


def sig_text(tested, untested, hits):
    """The count of significant comparisons: "none of 8", "2 of 8 (<hit>, p 0.008; <hit>, p
    0.012)", with ", 1 untested" appended when some could not be made; hits are (text, Holm
    p)."""
    text = f"{len(hits) or 'none'} of {tested}"
    if hits:
        text += f" ({hits_text(hits)})"
    if untested:
        text += f", {untested} untested"
    return text


def _compared_metric(res, m):
    _metric(res, m)
    if m not in res.metrics:
        raise KeyError(f"{m} is not compared between cells (per-path metrics are not)")


def _sig(sets, groups, metric):
    res, patterns = _subjects(sets, groups, "group")
    m = metric
    _compared_metric(res, m)
    tested, untested, sig = significant(res, patterns, m)
    return sig_text(tested, untested, [(f"{o} {d} in {g}", p) for o, g, d, p in sig])


WORDS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")


def joined(items):
    """Items as words: "a", "a and b", "a, b and c"."""
    return " and ".join(filter(None, (", ".join(items[:-1]), items[-1])))


def module_builds(sets, names):
    """{scheduler: module sha256 values} over the kept runs of the sets named."""
    builds = {}
    for sname in names:
        for sched, hashes in _set(sets, sname).builds.items():
            builds.setdefault(sched, set()).update(hashes)
    if not builds:
        raise KeyError(f"no run of {','.join(names)} records its module's sha256")
    return builds


def _onebuild(sets, names):
    """Nothing when every scheduler's kept runs in the sets record one module sha256, else
    KeyError with the counts."""
    builds = module_builds(sets, names)
    if any(len(h) > 1 for h in builds.values()):
        raise KeyError(
            "the words it checks need one module sha256 a scheduler, the data give "
            + builds_text(builds)
        )
    return ""


def mixed_builds(sets, names):
    """[(set name, cell name, {(module sha256, cc module sha256): [runs]})] of the cells of the
    sets named whose kept ok runs loaded more than one build of their modules, in set and
    cell order."""
    out = []
    for sname in names:
        res = _set(sets, sname)
        for c in res.cells:
            builds = res.cell_builds.get(c.name, {})
            if len(builds) > 1:
                out.append((sname, c.name, builds))
    return out


def _runs_text(runs):
    """Run numbers as spans: [1, 2, 3, 5] -> "1-3, 5"."""
    runs, spans = sorted(runs), []
    for k in runs:
        if spans and k == spans[-1][1] + 1:
            spans[-1][1] = k
        else:
            spans.append([k, k])
    return ", ".join(f"{a}" if a == b else f"{a}-{b}" for a, b in spans)


def mixedbuilds_text(mixed):
    """How many cells of each set mix module builds, and the first one's runs by build:
    "8 cells of round2/bnaware and 15 of round2/sticky; A-1.dft.lia of round2/bnaware: runs
    1-4 one build, 5-10 another" ("no cell" when none does)."""
    if not mixed:
        return "no cell"
    per = {}
    for sname, _cell, _b in mixed:
        per[sname] = per.get(sname, 0) + 1
    counts = [f"{n} cell{'s' if n > 1 else ''} of {s}" for s, n in per.items()]
    sname, cell, builds = mixed[0]
    spans = [_runs_text(runs) for runs in sorted(builds.values(), key=min)]
    return (f"{joined(counts)}; {cell} of {sname}: runs {spans[0]} one build, "
            f"{', '.join(spans[1:])} another")  # fmt: skip


def builds_text(builds):
    """{scheduler: sha256 values} as words, most values first: "two values for `minrtt` and
    `dft` and one value for `tr_sty`"."""
    counts = {}
    for sched in sorted(builds, key=_sched_key):
        counts.setdefault(len(builds[sched]), []).append(f"`{sched}`")
    parts = []
    for n in sorted(counts, reverse=True):
        word = WORDS[n] if n < len(WORDS) else str(n)
        parts.append(f"{word} value{'s' if n > 1 else ''} for {joined(counts[n])}")
    return " and ".join(parts)


def holm_ps(res, patterns, metrics, schedulers=("*",)):
    """The Holm p values of the tested comparisons with the baseline over the groups matching
    the comma-separated patterns, the metrics and the schedulers (["*"]: all); KeyError when
    none could be tested."""
    wanted = None if list(schedulers) == ["*"] else set(schedulers)
    ps = []
    for m in metrics:
        _compared_metric(res, m)
        for g in matching(res.groups, patterns, f"group of {res.name}"):
            ps += [
                c.p_holm
                for c in g.comparisons.get(m, [])
                if c.tested and (wanted is None or c.other in wanted)
            ]
    if not ps:
        what = f"no comparison of {','.join(schedulers)} in {patterns} of {res.name}"
        raise KeyError(f"{what} could be tested in {','.join(metrics)}")
    return ps


def _minp(sets, groups, metrics):
    """The lowest Holm p of the tested comparisons with the baseline over the matching groups
    and the metrics: the bound in "no significant difference, Holm p X or more"."""
    res, patterns = _subjects(sets, groups, "group")
    return fmt_p(min(holm_ps(res, patterns, metrics)))


def _prange(sets, groups, metrics, schedulers):
    """The lowest to the highest Holm p of the matching comparisons, "0.024 to 0.032", or one
    value when both print alike: the numbers behind "Holm p X to Y" and "Holm p X for each"."""
    res, patterns = _subjects(sets, groups, "group")
    ps = holm_ps(res, patterns, metrics, schedulers)
    lo, hi = fmt_p(min(ps)), fmt_p(max(ps))
    return lo if lo == hi else f"{lo} to {hi}"


def _ccsig(sets, cells, cc, other, metric):
    res, patterns = _subjects(sets, cells)
    ref_cc, other_cc, m = cc, other, metric
    _compared_metric(res, m)
    pairs = control_comparisons(res, patterns, ref_cc, other_cc, m)
    tested = [(label, c) for label, c in pairs if c.tested]
    hits = [
        (f"{other_cc} {shared.direction(c)} with {label}", c.p_holm) for label, c in tested if c.sig
    ]
    return sig_text(len(tested), len(pairs) - len(tested), hits)


EXPECTATIONS = ("higher", "lower", "same")


def parse_expectations(text):
    """`gr_sty:higher,tr_sty:same` -> {"gr_sty": "higher", "tr_sty": "same"}: each scheduler's
    mean against its group's baseline as a claim states it; KeyError when malformed."""
    expected = {}
    for item in text.split(","):
        sched, _, exp = item.partition(":")
        if not sched or exp not in EXPECTATIONS or sched in expected:
            raise KeyError(
                f"expected <scheduler>:{'|'.join(EXPECTATIONS)}, each scheduler once, not {item!r}"
            )
        expected[sched] = exp
    return expected


def claim_cells(res, patterns, expected):
    """(group names, [(cell name, Cell or None when not run)]) of a claim: every group of the
    set's plan that one of the comma-separated patterns matches, run or not (and any other
    group of the set that one matches), and in each the baseline's cell and those of the
    schedulers named in expected. KeyError for patterns that match no group of the set or its
    plan, and for a named scheduler that a group has neither run nor planned."""
    plan = planned_groups(res)
    planned = {n for cells in plan.values() for n in cells}
    names = sorted(n for n in set(plan) | {g.name for g in res.groups} if name_matches(n, patterns))
    if not names:
        raise KeyError(f"no group of {res.name} or of its plan matches {patterns!r}")
    rests = []
    for name in names:
        g = res.group(name)
        ref = g.ref if g is not None and g.ref else res.experiment.refs[0]
        scenario, cc = name.rsplit(".", 1)
        for s in [ref, *expected]:
            cell = g.cells.get(s) if g is not None else None
            cname = f"{scenario}.{s}.{cc}"
            if cell is None and cname not in planned:
                raise KeyError(f"group {name} of {res.name} has no {s} cell, run or planned")
            rests.append((cname, cell))
    return names, rests


def claim_basis(sets, claim, changes, contains):
    """mpqoe.claims.Basis of a claim (CLAIM): the code versions of the runs of the cells its
    comparisons use, and the commits of the recorded changes (mpqoe.sched_changes) to those
    cells' schedulers and congestion controls that a cell's version does not include, in the
    record's order. Cells not run yet add nothing."""
    sname, patterns, _metrics, expectations = _split(claim, 3, CLAIM)
    res = _set(sets, sname)
    _names, rests = claim_cells(res, patterns, parse_expectations(expectations))
    cells = [c for _n, c in rests if c is not None]
    lacking = []
    for c in cells:
        for ch in sched_changes.lacking(changes, c.version, (c.scheduler, c.cc), contains):
            lacking.append(ch.commit)
    versions = tuple(sorted({c.version for c in cells}))
    return claims.Basis(versions, tuple(dict.fromkeys(lacking)))


def claim_verdict(res, patterns, metrics, expected, complete=True):
    """The verdict on a claim about schedulers against the baseline: over the groups matching
    the comma-separated patterns and each of the metrics, each scheduler named in expected
    should be "higher" or "lower" than the group's baseline (a significant difference that
    way, Holm-adjusted as in the tables) or the "same" (no significant difference).

    The claim rests on every group of the set's plan that a pattern matches, run or not (and
    on any other group of the set that one matches), and in each on the baseline's cell and
    the named schedulers' cells. Returns (verdict, text): "pending" while one of those cells
    has fewer than matrix.PLANNED_RUNS ok runs of a metric (none when it has not been run
    yet), unless complete is False (the cells as they are); else
    "disagrees" when a comparison is significant against the claim (the other way, or at all
    where "same" is expected); "agrees" when every expected difference is significant and
    every comparison was tested; "agrees in part" when some are; "not significant" when none
    is; "untested" when no comparison could be made. A claim of only "same" that nothing
    contradicts agrees (consistent with it, which a test cannot prove). KeyError for an
    unknown metric, for patterns that match no group of the set or its plan, and for a
    named scheduler that a group has neither run nor planned."""
    for m in metrics:
        _compared_metric(res, m)
    names, rests = claim_cells(res, patterns, expected)
    short = sum(
        cell is None or min(cell.intervals[m].n for m in metrics) < mx.PLANNED_RUNS
        for _name, cell in rests
    )
    if short and complete:
        return "pending", f"{short} of {len(rests)} cells below {mx.PLANNED_RUNS} runs"
    hits, against = [], []
    missing, same, same_against, diffs, untested = 0, 0, 0, 0, 0
    for g in map(res.group, names):
        if g is None:  # planned, not run: only complete=False gets here
            untested += len(metrics) * len(expected)
            continue
        for m in metrics:
            compared = {c.other for c in g.comparisons.get(m, [])}
            untested += len(set(expected) - compared)  # a cell not run: only complete=False
            for c in g.comparisons.get(m, []):
                exp = expected.get(c.other)
                if exp is None:
                    continue
                if not c.tested:
                    untested += 1
                    continue
                where = (f"{c.other} {shared.direction(c)} in {g.name} {m}", c.p_holm)
                same += exp == "same"
                diffs += exp != "same"
                got = shared.finding(c.sig, c.diff is not None and c.diff < 0)
                if got == exp != "same":
                    hits.append(where)
                elif got != "same":
                    against.append(where)
                    same_against += exp == "same"
                elif exp != "same":
                    missing += 1

    parts = []
    if diffs:
        found = f"{len(hits) or 'none'} of {diffs} expected differences significant"
        parts.append(found + (f" ({hits_text(hits)})" if hits else ""))
    if same:
        parts.append(f"{same - same_against} of {same} without a difference as expected")
    if against:
        parts.append(f"against the claim: {hits_text(against)}")
    if untested:
        parts.append(f"{untested} untested")
    text = "; ".join(parts)
    if not same and not diffs:
        return "untested", text
    if against:
        return "disagrees", text
    if not hits and diffs:
        return "not significant", text
    return ("agrees" if not missing and not untested else "agrees in part"), text


def _runs_of(res, patterns, m):
    """{cell name: the ok runs' values of metric m} over the cells matching the patterns;
    KeyError when a cell has no ok run (words about its runs have nothing to rest on)."""
    _compared_metric(res, m)
    runs = {c.name: c.values[m] for c in matching_cells(res, patterns)}
    empty = [n for n, v in runs.items() if not v]
    if empty:
        raise KeyError(f"{', '.join(empty)} of {res.name} has no ok run with a value of {m}")
    return runs


def _zero(sets, cells, metrics):
    """Nothing when every ok run of the matching cells has 0 in each metric, else KeyError:
    the check behind a hand-written "none", "clean" or "without a discard"."""
    res, patterns = _subjects(sets, cells)
    bad = []
    for m in metrics:
        for cname, vals in _runs_of(res, patterns, m).items():
            if any(v != 0 for v in vals):
                bad.append(f"{cname} {m} up to {fmt(max(vals), metric_of(m).decimals)}")
    if bad:
        raise KeyError(f"the words it checks need 0 in every run, the data give {'; '.join(bad)}")
    return ""


def _below(sets, low, high, metric):
    """Nothing when every ok run of the cells matching the first patterns is below every ok run
    of those matching the second, else KeyError: the check behind "every ... run made fewer
    than any ... run"."""
    m = metric
    res, low = _subjects(sets, low)
    res2, high = _subjects(sets, high)
    if res2 is not res:
        raise KeyError(f"below compares cells of one result set, not {res.name} and {res2.name}")
    top = max(v for vals in _runs_of(res, low, m).values() for v in vals)
    bottom = min(v for vals in _runs_of(res, high, m).values() for v in vals)
    if not top < bottom:
        d = metric_of(m).decimals
        raise KeyError(
            f"the words it checks need every run of {low} below every run of {high} in {m}, "
            f"the data give {fmt(top, d)} against {fmt(bottom, d)}"
        )
    return ""


def _rising(sets, subjects, metric, field, during):
    """Nothing when the named cells' means rise strictly in the order given, else KeyError:
    the check behind a hand-written ordering of means ("fewest", "between"), which describes
    and does not test."""
    m, fld = metric, field
    page.no_window(during, "the scheduler runs")
    if fld != "mean":
        raise KeyError(f"rising checks cell means, not {fld}")
    res, names = _subjects(sets, subjects)
    sname = res.name
    means = []
    for cname in names.split(","):
        c = res.cell(cname)
        if c is None:
            raise KeyError(f"{sname} has no cell {cname!r} (rising names cells, not patterns)")
        _runs_of(res, cname, m)  # with ok runs
        means.append((cname, c.intervals[m].mean))
    return shared.check_rising(means, m, metric_of(m).decimals)


def _within(sets, subjects, metric, bounds, field, runs, during):
    """Nothing when every matching cell's mean of the metric (per-path metrics too), or its
    interval end (lo, hi), half-width (ci) or run count (n), lies in [lo, hi], else KeyError:
    the check behind a hand-written "about a third", "half the video rate", "busy", whose bounds
    the sentence states; a description, not a test."""
    m, fld = metric, field
    page.no_window(during, "the scheduler runs")
    if runs is not None:
        raise KeyError("runs=: the scheduler cells are checked by their intervals, not by runs")
    if fld not in shared.CHECKED_VALUES:
        raise KeyError(f"field {fld!r} is not {', '.join(shared.CHECKED_VALUES)}")
    res, patterns = _subjects(sets, subjects)
    sname = res.name
    mt = _metric(res, m)
    lo, hi = bounds.lo, bounds.hi
    values = [
        (c.name, shared.checked_value(c.intervals[m], fld, f"{c.name} of {sname} ({m})"))
        for c in matching_cells(res, patterns)
    ]
    what = shared.checked_words(fld, m)
    return shared.check_within(values, lo, hi, m, mt.decimals, what)


CLAIM = "<set>/<group patterns>/<metric>[,<metric>...]/<scheduler>:<expectation>[,...]"


def _claim(sets, claim, kind="verdict"):
    """A claim's verdict (verdict), the comparisons that decide it (comparisons) or nothing,
    the check that it holds on the cells as they are (holds)."""
    sname, patterns, metrics, expectations = _split(claim, 3, CLAIM)
    res = _set(sets, sname)
    verdict, text = claim_verdict(
        res, patterns, metrics.split(","), parse_expectations(expectations), kind != "holds"
    )
    if kind == "holds":
        if verdict != "agrees":
            raise KeyError(f"the words it checks need agrees, the data give {verdict} ({text})")
        return ""
    return verdict if kind == "verdict" else text


def _verdict(sets, subject, check):
    verdict = _claim(sets, subject)
    if check is None:
        return verdict
    if verdict != check:
        raise KeyError(f"the words it checks need {check}, the data give {verdict}")
    return ""


def _ref(sets, group):
    res, gname = _subject(sets, group, "group")
    sname = res.name
    g = res.group(gname)
    if g is None:
        raise KeyError(f"{sname} has no group {gname!r}")
    return g.ref or "none"


def _figure(sets, name):
    res, stem = _subject(sets, name, "figure")
    sname = res.name
    if stem not in res.figures:
        raise KeyError(f"{sname} makes no figure {stem!r} ({', '.join(res.figures)})")
    if res.figures[stem] is None:
        return f"(*{stem}.png is not made: {res.notes[stem]}.*)"
    return f"![{sname} {stem}]({sname}/{stem}.png)"


RERUN_FIELDS = ("groups", "cells", "runs", "h", "length")


def rerun_cells(sets, pending, experiment):
    """The matrix cells of an experiment to run again for the claims that await a rerun
    (pending: their verdict placeholders' texts, `verdict CLAIM`): every planned cell of each
    group such a claim rests on (the whole group, as its comparisons are adjusted over all of
    it), in matrix order; KeyError when none of them is of the experiment."""
    groups = set()
    for text in pending:
        _kind, args, _options = page.tokenize(text)
        sname, patterns, _m, expectations = _split(args[0], 3, CLAIM)
        res = _set(sets, sname)
        if res.experiment.name == experiment:
            names, _rests = claim_cells(res, patterns, parse_expectations(expectations))
            groups.update(names)
    cells = [c for c in mx.cells(experiment) if f"{c.scenario}.{c.cc}" in groups]
    if not cells:
        raise KeyError(f"no claim rendered so far awaits a rerun of {experiment} cells")
    return cells


def _rerun(sets, kinds, experiment, field):
    """A field of the rerun plan of an experiment (rerun_cells): its groups as --cells
    patterns (`<scenario>.*.<cc>`, comma-separated), cells, runs, h (machine time at the
    model's pace, matrix.estimate_s, as the runner plans) or length (the planned video
    lengths, s)."""
    cells = rerun_cells(sets, kinds.pending, experiment)
    runs, total = plan_time(cells)
    groups = dict.fromkeys(f"{c.scenario}.*.{c.cc}" for c in cells)
    lengths = sorted({mx.planned_duration(c) for c in cells}, reverse=True)
    return {
        "groups": lambda: ",".join(groups),
        "cells": lambda: str(len(cells)),
        "runs": lambda: str(runs),
        "h": lambda: fmt(total / 3600, 1),
        "length": lambda: ", ".join(fmt_seconds(d) for d in lengths),
    }[field]()


def _basis(sets, changes, contains, text):
    """The Basis of a verdict placeholder's text (`verdict CLAIM`), None for another kind."""
    kind, args, _options = page.tokenize(text)
    if kind != "verdict" or not args:
        return None
    return claim_basis(sets, args[0], changes, contains)


def resolver(sets, changes=(), contains=shared.git_contains):
    """The kinds of the page's placeholders (mpqoe.page; the module's docstring) over the
    result sets; changes: the record of decision-affecting changes (mpqoe.sched_changes),
    contains: whether a code version includes a commit (mpqoe.results.git_contains)."""
    k = page.Kinds()
    k.basis = partial(_basis, sets, changes, cache(contains))  # git, once per pair
    k.shared("value", partial(_value, sets))
    k.shared("cmp", partial(_comparison, sets))
    k.shared("pair", partial(_pair, sets))
    k.shared("within", partial(_within, sets))
    k.shared("rising", partial(_rising, sets))
    k.shared("verdict", partial(_verdict, sets))
    k.shared("figure", partial(_figure, sets))
    k.own("holds", "claim", lambda claim: _claim(sets, claim, "holds"))
    k.own("comparisons", "claim", lambda claim: _claim(sets, claim, "comparisons"))
    k.own("range", "cells:list metric", partial(_range, sets))
    k.own("ref", "group", partial(_ref, sets))
    for name, fn in (
        ("status", status_text),
        ("kernel", lambda r: r.kernel or UNRECORDED),
        ("progress", progress_text),
        ("left", left_text),
        ("cells", lambda r: r.plan_patterns or "*"),
    ):
        k.own(name, "result_set", lambda result_set, fn=fn: fn(_set(sets, result_set)))
    k.own("plan", "experiments:list cells field:cells|runs|h|length", _plan)
    k.own("model", f"name:{'|'.join(MODEL)}", lambda name: str(getattr(mx, MODEL[name])))
    k.own(
        "rerun",
        f"experiment:sticky|bnaware field:{'|'.join(RERUN_FIELDS)}",
        partial(_rerun, sets, k),
    )
    k.own("pace", "cells:list", partial(_pace, sets))
    k.own("sig", "groups:list metric", partial(_sig, sets))
    k.own("minp", "groups:list metrics:list", partial(_minp, sets))
    k.own("prange", "groups:list metrics:list schedulers:list", partial(_prange, sets))
    k.own(
        "builds",
        "result_sets:list",
        lambda result_sets: builds_text(module_builds(sets, result_sets)),
    )
    k.own("onebuild", "result_sets:list", lambda result_sets: _onebuild(sets, result_sets))
    k.own(
        "mixedbuilds",
        "result_sets:list",
        lambda result_sets: mixedbuilds_text(mixed_builds(sets, result_sets)),
    )
    k.own("ccsig", "cells:list cc other metric", partial(_ccsig, sets))
    k.own("zero", "cells:list metrics:list", partial(_zero, sets))
    k.own("below", "low:list high:list metric", partial(_below, sets))
    return k


def resolve(sets, text):
    """The text of one placeholder written without its braces (`value sticky/<cell> switches`);
    KeyError saying what is wrong with it (its arguments not fitting its kind included)."""
    kinds = resolver(sets).kinds
    try:
        kind, args, options = page.tokenize(text)
        if kind not in kinds:
            raise KeyError(f"unknown kind {kind!r} ({', '.join(sorted(kinds))})")
        k = kinds[kind]
        bound = k.bind(args, options)
    except ValueError as e:
        raise KeyError(str(e)) from None
    return k.fn(**bound)


# ---------------------------------------------------------------------------------------------
# Figures


def _colors(plt, names):
    tab = plt.get_cmap("tab10").colors
    return {n: tab[i % len(tab)] for i, n in enumerate(names)}


def scenario_ticks(res, cc, scns):
    """The x labels of one congestion control's panel: the scenarios, each with its video
    length when the set mixes lengths (run at the planned lengths, the headline cells have the
    paper's): counts grow with the length, so such panels do not share their y axis either."""
    if len({c.duration for c in res.cells}) == 1:
        return list(scns)
    lengths = {c.scenario: c.duration for c in res.cells if c.cc == cc}
    return [f"{s}\n{fmt_seconds(lengths[s])} s" if s in lengths else s for s in scns]


def bar_figure(plt, res, metric):
    """Panels per congestion control, groups per scenario, one bar per scheduler, 95 % CI."""
    scns = list(dict.fromkeys(c.scenario for c in res.cells))
    scheds = sorted({c.scheduler for c in res.cells}, key=_sched_key)
    ccs = sorted({c.cc for c in res.cells}, key=_cc_key)
    idx = {(c.scenario, c.scheduler, c.cc): c for c in res.cells}
    colors = _colors(plt, SCHEDULER_ORDER + tuple(s for s in scheds if s not in SCHEDULER_ORDER))
    mt = metric_of(metric)
    mixed = len({c.duration for c in res.cells}) > 1
    fig, axes = plt.subplots(
        1, len(ccs), figsize=(max(5.2 * len(ccs), 6.5), 3.8), sharey=not mixed, squeeze=False
    )
    width = 0.8 / len(scheds)
    for ax, cc in zip(axes[0], ccs, strict=True):
        for j, s in enumerate(scheds):
            pos, ys, err = [], [], []
            for i, scn in enumerate(scns):
                c = idx.get((scn, s, cc))
                iv = c.intervals[metric] if c else None
                x = i - 0.4 + width * (j + 0.5)
                if iv is None or iv.n == 0:
                    if c is not None:
                        ax.annotate("n=0", (x, 0), ha="center", va="bottom", fontsize=6)
                    continue
                pos.append(x)
                ys.append(iv.mean)
                err.append(iv.half or 0.0)
                text = fmt(iv.mean, mt.decimals) + ("\nn=1" if iv.half is None else "")
                ax.annotate(
                    text, (x, iv.mean + (iv.half or 0)), ha="center", va="bottom", fontsize=6
                )
            ax.bar(pos, ys, width, yerr=err, capsize=3, label=s, color=colors[s])
        ax.set_xticks(
            range(len(scns)), scenario_ticks(res, cc, scns), fontsize=7 if mixed else None
        )
        ax.set_title(cc)
        ax.grid(axis="y", alpha=0.3)
        ax.set_ylim(bottom=0)
    axes[0][0].set_ylabel(label(metric))
    axes[0][-1].legend(
        fontsize=8, title="scheduler", title_fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1)
    )
    fig.suptitle(f"{res.name}: {mt.label}, mean and 95 % CI over runs", fontsize=10)
    return shared.png(plt, fig)


def subflow_figure(plt, res):
    """The sticky paper's Fig. 6: per scenario (rows) and scheduler (columns), each path's
    subflow throughput per congestion control, mean and 95 % CI over runs."""
    scns = [s for s in dict.fromkeys(c.scenario for c in res.cells)]
    scheds = sorted({c.scheduler for c in res.cells}, key=_sched_key)
    ccs = sorted({c.cc for c in res.cells}, key=_cc_key)
    mets = [m for m in res.path_metrics if m.endswith("_mbps")]
    idx = {(c.scenario, c.scheduler, c.cc): c for c in res.cells}
    colors = _colors(plt, mets)
    fig, axes = plt.subplots(
        len(scns), len(scheds), figsize=(2.6 * len(scheds) + 1.5, 2.4 * len(scns)),
        sharey=True, squeeze=False,
    )  # fmt: skip
    width = 0.8 / len(mets)
    for r, scn in enumerate(scns):
        for k, s in enumerate(scheds):
            ax = axes[r][k]
            for j, m in enumerate(mets):
                pos, ys, err = [], [], []
                for i, cc in enumerate(ccs):
                    c = idx.get((scn, s, cc))
                    iv = c.intervals[m] if c else None
                    if iv is None or iv.n == 0:
                        continue
                    pos.append(i - 0.4 + width * (j + 0.5))
                    ys.append(iv.mean)
                    err.append(iv.half or 0.0)
                name = f"path {PATH_METRIC.fullmatch(m).group(1)}"
                ax.bar(pos, ys, width, yerr=err, capsize=2, color=colors[m], label=name)
            ax.set_xticks(range(len(ccs)), ccs, fontsize=7)
            ax.set_title(f"{scn}: {s}", fontsize=8)
            ax.grid(axis="y", alpha=0.3)
            ax.set_ylim(bottom=0)
        axes[r][0].set_ylabel("Mbit/s", fontsize=7)
    axes[0][-1].legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1))
    fig.suptitle(
        f"{res.name}: throughput of each path's subflow, mean and 95 % CI over runs", fontsize=10
    )
    return shared.png(plt, fig)


def figures(plt, res):
    """Fills res.figures ({stem: PNG bytes or None}) and res.notes for the ones not made."""
    notes = res.notes
    for m in res.experiment.plotted:
        if m in res.metrics:
            res.figures[m] = bar_figure(plt, res, m)
        else:
            res.figures[m] = None
            notes[m] = f"no run of this set recorded {METRICS[m].label.lower()}"
    if any(m.endswith("_mbps") for m in res.path_metrics):
        res.figures["subflow_throughput"] = subflow_figure(plt, res)
    else:
        res.figures["subflow_throughput"] = None
        notes["subflow_throughput"] = (
            "the runs of this set have no per-path data (data/paths.csv); runs published "
            "by sched_run.py --publish have them"
        )


# ---------------------------------------------------------------------------------------------
# The whole output


def build(data, newest=shared.git_newest, contains=shared.git_contains):
    """({path: bytes} of every file the report makes under data, sets); ReportError on bad
    input, found before any figure is drawn."""
    sets = load(data, newest)
    changes = sched_changes.read(os.path.join(data, sched_changes.NAME))
    if not sets:
        raise ReportError(f"{data}: no result set (<...>/sticky|bnaware/data/runs.csv)")
    srcs = [os.path.join(data, p + ".in") for p in PAGES]
    srcs = [s for s in srcs if s == srcs[0] or os.path.exists(s)]
    templates = [page.read_template(src) for src in srcs]
    plt = debian.pyplot(WHO)
    out = {}
    for res in sets:
        figures(plt, res)
    kinds = resolver(sets, changes, contains)
    for src, template in zip(srcs, templates, strict=True):
        text = page.render(template, kinds, src, GENERATOR, "make results")
        out[src.removesuffix(".in")] = text.encode()
    for path, text in kinds.claims.files(data).items():
        out[path] = text.encode()
    for res in sets:
        d = os.path.join(data, *res.name.split("/"))
        for stem, b in res.figures.items():
            if b is not None:
                out[os.path.join(d, f"{stem}.png")] = b
        out[os.path.join(d, "tables.md")] = tables_md(res).encode()
    return out, sets


def stale(data, sets, out):
    """Files in the sets' folders (not in data/) that the report no longer makes."""
    found = []
    for res in sets:
        d = os.path.join(data, *res.name.split("/"))
        for f in sorted(os.listdir(d)):
            p = os.path.join(d, f)
            if os.path.isfile(p) and f.endswith((".png", ".csv", ".md")) and p not in out:
                found.append(p)
    return found


def main(argv, newest=shared.git_newest, contains=shared.git_contains):
    def make(data):
        out, sets = build(data, newest, contains)
        dropped = [
            f"{res.name}: dropped {n} run(s) of {cell} at older code version {shared.short(v)}"
            for res in sets
            for cell, v, n in res.dropped
        ]
        status = [f"{res.name}: {status_text(res)}" for res in sets]
        return out, stale(data, sets, out), dropped, status

    default = os.path.join(REPO, "docs", "results")
    return shared.report_cli(argv, WHO, __doc__.split("\n")[0], default, make)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
