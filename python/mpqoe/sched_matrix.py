"""The scheduler papers' experiment matrix: scenarios, schedulers, congestion controls, cells.

Shared by the host driver (sched_run.py), the guest runner (cellrun.py) and the report
(sched_report.py); stdlib only. A cell is `<scenario>.<scheduler>.<cc>` (e.g.
`3p-50.gr_sty.cubic`); its runs are `<results>/<experiment>/<cell>/run<k>.json`, k = 1..runs.

Link values are one-way: netem on a Mininet TCLink delays both directions, so a path's RTT is
twice the sum of its links' delays (three-path "RTT 50 ms" = 25 ms per link). The bottleneck
paper's delays are RTTs ("60ms or 120ms RTT delays", its section VI-A), and each of its paths
has one delayed link (the bottleneck), so that link delays 30 ms (A-1, B-60: RTT 60 ms) or
60 ms (A-2, B-120: RTT 120 ms) each way. Loss is applied in both directions of a link (TCLink).
Queues are netem's default 1000 packets (about 6 s at 2 Mbit/s), except in the `-q50` variants
of baseline and A-1: 50 packets (0.3 s at 2 Mbit/s, 0.2 s at 3 Mbit/s), which test how much
of the sticky schedulers' and the default's behaviour comes from deep queues. The
`-loss0p1` and `-loss0p5` variants of the baseline (our addition) put 0.1 % or 0.5 % random
loss on paths 1 and 2, the sticky paper's two Wi-Fi access links, whose loss it does not
quantify: do such losses explain its baseline gains?

Baselines: the sticky paper compares with the multipath-tcp.org kernel's default, lowest RTT
first (`minrtt`); upstream's own default (`dft`) runs beside it. The bottleneck paper compares
with the default of its kernel (`dft`). Video lengths: the cells a headline claim of a paper
rests on (HEADLINE) run at the paper's length (PAPER_DURATION), the others at SHORT_DURATION.

Machine time (batches, estimate_s): one guest at a time makes a batch of at most BATCH_RUNS
runs of one scenario; the runner, the workflow's plan and the results page all estimate with
this one model.
"""

import datetime
import fnmatch
import hashlib
import itertools
import os
from dataclasses import dataclass, field

from mpqoe.runs import chunks

BITRATE = 5.24e6
FPS = 30
NETEM_LIMIT = 1000  # netem's default queue limit, packets (Scenario.queue None)
# the papers' video lengths, s: 409 MB at 5.24 Mbit/s (sticky), 6 min (bnaware)
PAPER_DURATION = {"sticky": 624.0, "bnaware": 360.0}
SHORT_DURATION = 120.0
# the cells a headline claim rests on (shell patterns over cell names)
HEADLINE = {
    "sticky": ("baseline.*.cubic", "3p-50.*.cubic", "3p-150.*.cubic"),
    "bnaware": tuple(
        f"{s}.*.{cc}" for s in ("A-1", "A-2", "B-60", "B-120") for cc in ("cubic", "bbr")
    ),
}
# the scheduler every other one of a scenario and congestion control is compared with
BASELINE = {"sticky": "minrtt", "bnaware": "dft"}
# runs per cell of the full plan (the sticky paper's 10, twice the bottleneck paper's 5): the
# report gives a claim its verdict only once every cell the claim rests on has them
PLANNED_RUNS = 10
# this project's coupled congestion control modules (kernel-schedulers, docs/coupled-cc.md)
COUPLED_CCS = ("lia", "olia", "balia")
# The time model of a plan, one guest at a time, from round 1's batch logs (not kept; the
# committed runs' pace is on docs/results/scheduler-regenerate.md). A batch: boot, modules,
# OVS, Mininet build and teardown (measured 75-105 s).
BOOT_OVERHEAD_S = 90
# A run beyond its video length, before any is measured: probe start, startup buffer, trailer,
# settle (measured 5-6 s). A stored-file stream plays for its length plus its stalls, so the
# runner takes the measured pace of a scenario once it has runs of it (run.measured_pace, or
# the published table's, run.published_pace).
PER_RUN_OVERHEAD_S = 7
# the most runs one guest makes (sched_run.py --batch-runs)
BATCH_RUNS = 40
# the seed of the run order within each guest batch (cellrun.py --order-seed, recorded in
# every run): each run's place is drawn from (seed, scenario, cell, run), mpqoe.runs.drawn_order
ORDER_SEED = 1


@dataclass(frozen=True)
class Scenario:
    name: str
    experiment: str
    topology: str  # topologies/<name>.json
    # "a-b" link of the descriptor -> {"delayMs", "lossPct", "capacityMbps"} overrides
    links: dict = field(default_factory=dict)
    # How MPTCP gets its subflows (see cellrun.configure_mptcp):
    #   subflow  - client `subflow` endpoints on its 2nd.. interfaces, all towards the server's
    #              first address (three-path: 3 subflows, one per client interface)
    #   fullmesh - client `subflow fullmesh` endpoints on every interface, server `signal`
    #              endpoints on its 2nd.. interfaces (2 x 2 = 4 subflows)
    #   signal   - server `signal` endpoints only; the client joins each announced address
    #              from the interface that reaches it (parallel: 2 subflows)
    mptcp: str = "subflow"
    subflows: int = 3
    description: str = ""
    # netem queue limit in packets on every link (None: Mininet/netem's default, 1000)
    queue: int | None = None


def _path(delay, loss, bw):
    return {"delayMs": float(delay), "lossPct": float(loss), "capacityMbps": float(bw)}


SCENARIOS = {
    s.name: s
    for s in (
        Scenario(
            "baseline",
            "sticky",
            "three-path",
            {"p1-sv": _path(25, 0, 2), "p2-sv": _path(50, 0, 2), "p3-sv": _path(50, 0, 2)},
            "subflow",
            3,
            "RTT 50/100/100 ms, 2 Mbit/s each, no loss",
        ),
        Scenario(
            "baseline-q50",
            "sticky",
            "three-path",
            {"p1-sv": _path(25, 0, 2), "p2-sv": _path(50, 0, 2), "p3-sv": _path(50, 0, 2)},
            "subflow",
            3,
            "baseline with 50-packet queues (0.3 s at 2 Mbit/s) instead of 1000",
            queue=50,
        ),
        Scenario(
            "baseline-loss0p1",
            "sticky",
            "three-path",
            {"p1-sv": _path(25, 0.1, 2), "p2-sv": _path(50, 0.1, 2), "p3-sv": _path(50, 0, 2)},
            "subflow",
            3,
            "baseline with 0.1 % loss on paths 1 and 2 (the Wi-Fi links; our addition)",
        ),
        Scenario(
            "baseline-loss0p5",
            "sticky",
            "three-path",
            {"p1-sv": _path(25, 0.5, 2), "p2-sv": _path(50, 0.5, 2), "p3-sv": _path(50, 0, 2)},
            "subflow",
            3,
            "baseline with 0.5 % loss on paths 1 and 2 (the Wi-Fi links; our addition)",
        ),
        Scenario(
            "3p-50",
            "sticky",
            "three-path",
            {"p1-sv": _path(25, 2, 2), "p2-sv": _path(50, 0, 2), "p3-sv": _path(50, 0, 2)},
            "subflow",
            3,
            "RTT 50/100/100 ms, 2 Mbit/s each, 2 % loss on path 1",
        ),
        Scenario(
            "3p-150",
            "sticky",
            "three-path",
            {"p1-sv": _path(75, 2, 2), "p2-sv": _path(100, 0, 2), "p3-sv": _path(100, 0, 2)},
            "subflow",
            3,
            "RTT 150/200/200 ms, 2 Mbit/s each, 2 % loss on path 1",
        ),
        Scenario(
            "A-1",
            "bnaware",
            "fullmesh-cross",
            {"ra-sa": _path(30, 0.1, 3), "rb-sb": _path(30, 0.1, 3)},
            "fullmesh",
            4,
            "full mesh 2x2, 4 subflows over 2 shared bottlenecks, 3 Mbit/s, 0.1 %, RTT 60 ms",
        ),
        Scenario(
            "A-1-q50",
            "bnaware",
            "fullmesh-cross",
            {"ra-sa": _path(30, 0.1, 3), "rb-sb": _path(30, 0.1, 3)},
            "fullmesh",
            4,
            "A-1 with 50-packet queues (0.2 s at 3 Mbit/s) instead of 1000",
            queue=50,
        ),
        Scenario(
            "A-2",
            "bnaware",
            "fullmesh-cross",
            {"ra-sa": _path(60, 0.1, 3), "rb-sb": _path(60, 0.1, 3)},
            "fullmesh",
            4,
            "full mesh 2x2, 4 subflows over 2 shared bottlenecks, 3 Mbit/s, 0.1 %, RTT 120 ms",
        ),
        Scenario(
            "B-60",
            "bnaware",
            "parallel",
            {"ca-sa": _path(30, 0.1, 3), "cb-sb": _path(30, 0.1, 3)},
            "signal",
            2,
            "2 disjoint paths, 3 Mbit/s, 0.1 %, RTT 60 ms",
        ),
        Scenario(
            "B-120",
            "bnaware",
            "parallel",
            {"ca-sa": _path(60, 0.1, 3), "cb-sb": _path(60, 0.1, 3)},
            "signal",
            2,
            "2 disjoint paths, 3 Mbit/s, 0.1 %, RTT 120 ms",
        ),
    )
}

EXPERIMENTS = {
    "sticky": {
        "scenarios": [
            "baseline",
            "3p-50",
            "3p-150",
            "baseline-q50",
            "baseline-loss0p1",
            "baseline-loss0p5",
        ],
        "schedulers": ["minrtt", "dft", "gr_sty", "tp_sty", "tr_sty"],
        "ccs": ["cubic", "bbr"],
        # the paper's coupled columns (its Fig. 4-9: Cubic, LIA, OLIA; Compound is Windows'),
        # in the paper's own scenarios, not in our -q50 and -loss variants
        "coupled": {"ccs": ["lia", "olia"], "scenarios": ["baseline", "3p-50", "3p-150"]},
    },
    "bnaware": {
        "scenarios": ["A-1", "A-2", "B-60", "B-120", "A-1-q50"],
        "schedulers": ["dft", "bnaware"],
        "ccs": ["cubic", "bbr"],
        # coupled controls where subflows share a bottleneck: the full-mesh scenarios (the
        # paper itself ran BBR and CUBIC, uncoupled)
        "coupled": {"ccs": ["lia", "olia"], "scenarios": ["A-1", "A-2"]},
    },
}


@dataclass(frozen=True)
class Cell:
    experiment: str
    scenario: str
    scheduler: str
    cc: str

    @property
    def name(self):
        return f"{self.scenario}.{self.scheduler}.{self.cc}"


def cells(experiment):
    """Every cell of one experiment, in matrix order."""
    e = EXPERIMENTS[experiment]
    coupled = e.get("coupled", {"ccs": [], "scenarios": []})
    return [
        Cell(experiment, s, sched, cc)
        for s in e["scenarios"]
        for sched in e["schedulers"]
        for cc in e["ccs"] + (coupled["ccs"] if s in coupled["scenarios"] else [])
    ]


def parse_cell(name):
    """The Cell of a name `<scenario>.<scheduler>.<cc>`; ValueError when not in the matrix."""
    for exp in EXPERIMENTS:
        for c in cells(exp):
            if c.name == name:
                return c
    raise ValueError(f"unknown cell {name!r}")


def select(experiment, pattern=None):
    """Cells of `experiment` ('all' for both) whose name matches a comma-separated list of
    shell patterns (fnmatch, e.g. 'baseline.*,3p-50.gr_sty.*'); all of them without one."""
    exps = list(EXPERIMENTS) if experiment == "all" else [experiment]
    out = [c for e in exps for c in cells(e)]
    if pattern:
        pats = [p.strip() for p in pattern.split(",") if p.strip()]
        out = [c for c in out if any(fnmatch.fnmatchcase(c.name, p) for p in pats)]
    return out


def headline(cell):
    """Does a headline claim of the cell's paper rest on it?"""
    return any(fnmatch.fnmatchcase(cell.name, p) for p in HEADLINE[cell.experiment])


def planned_duration(cell):
    """The video length the cell is run with: the paper's for a headline cell."""
    return PAPER_DURATION[cell.experiment] if headline(cell) else SHORT_DURATION


def batches(cells, todo, batch_runs=BATCH_RUNS):
    """[(scenario, [cells], [runs])]: the guest batches that make the runs `todo` ({(cell name,
    k)}) of `cells`, scenario by scenario in matrix order, each at most batch_runs runs. A
    batch is a cells x runs product (the guest skips a cell's runs that are not to do); a cell
    is in a batch only where some of its runs are."""
    out = []
    for scn in SCENARIOS:
        runs = {c.name: {k for n, k in todo if n == c.name} for c in cells if c.scenario == scn}
        group = [c for c in cells if runs.get(c.name)]
        ks = sorted(set().union(*runs.values()))
        for cs, chunk in chunks(group, ks, batch_runs):
            bc = [c for c in cs if runs[c.name] & set(chunk)]
            if bc:
                out.append((scn, bc, list(chunk)))
    return out


def estimate_s(batches, todo, duration, pace=None):
    """Machine time of `batches` in one guest at a time, s: per batch BOOT_OVERHEAD_S, per run
    to make ((cell name, k) in todo) its scenario's measured pace ({scenario: (s, runs)}) or
    else the video length plus PER_RUN_OVERHEAD_S."""
    pace = pace or {}
    total = 0.0
    for scn, cells, runs in batches:
        n = sum((c.name, k) in todo for c in cells for k in runs)
        per_run = pace[scn][0] if scn in pace else duration + PER_RUN_OVERHEAD_S
        total += BOOT_OVERHEAD_S + n * per_run
    return total


def run_limit_s(duration):
    """The longest one run may take, s: a stored-file stream plays for its length plus its
    stalls, so the limit allows stalls as long as the video itself (the network delivering,
    on average, half the video rate) plus 90 s for start-up and the trailer. A run still
    playing then is stopped and recorded as failed, with what the probe measured so far."""
    return 2 * duration + 90


def start_gaps(starts, names, length):
    """(mean s, n) of the times between the starts of consecutive runs of one batch, over the
    cells `names` of one video length: starts is the sorted [(start time, cell, scenario)] of
    a table's runs, and two consecutive starts are of one batch when they are of one scenario
    and less than run_limit_s(length) apart; (None, 0) without any. The machine time a run
    takes, its overhead and any stall included (the report's pace, the runner's estimate from
    a published table)."""
    limit = run_limit_s(length)
    gaps = []
    for (t0, c0, s0), (t1, c1, s1) in itertools.pairwise(starts):
        gap = (t1 - t0).total_seconds()
        if c0 in names and c1 in names and s0 == s1 and gap <= limit:
            gaps.append(gap)
    return (sum(gaps) / len(gaps) if gaps else None), len(gaps)


def run_config(scn, duration):
    """The network and video of a run of scenario `scn` (a run document's config, less what
    the guest adds about the probe)."""
    return {
        "duration_s": duration,
        "bitrate_bps": BITRATE,
        "fps": FPS,
        "topology": scn.topology,
        "links": scn.links,
        "mptcp": scn.mptcp,
        "expected_subflows": scn.subflows,
        "queue_packets": scn.queue or NETEM_LIMIT,
    }


# the run document's fields of the sha256 of the modules a run loads (module_builds)
BUILD_FIELDS = ("module_sha256", "cc_module_sha256")


def module_builds(modules, cell):
    """{BUILD_FIELDS: sha256} of the modules a cell's run loads from the directory `modules`:
    the scheduler's mpqoe_<scheduler>.ko and the coupled control's (None for the kernel's own
    cubic and bbr, and for a module that is missing). What a run records (cellrun.py) and what
    the driver compares a cell's runs with (sched_run.py)."""

    def sha256(name):
        try:
            with open(os.path.join(modules, f"mpqoe_{name}.ko"), "rb") as f:
                return hashlib.sha256(f.read()).hexdigest()
        except OSError:
            return None

    cc = sha256(cell.cc) if cell.cc in COUPLED_CCS else None
    return {"module_sha256": sha256(cell.scheduler), "cc_module_sha256": cc}


def run_path(results, cell, k):
    return f"{results}/{cell.experiment}/{cell.name}/run{k}.json"


def now_utc(timespec="seconds"):
    """The current UTC time in ISO 8601, e.g. 2026-11-23T00:03:32+00:00."""
    return datetime.datetime.now(datetime.UTC).isoformat(timespec=timespec)
