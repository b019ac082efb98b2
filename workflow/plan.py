"""The workflow's jobs (workflow/Snakefile), planned from the runners' own matrices.

A job is what one rule of the Snakefile makes: some runs of one network (a video batch, or a
scheduler-paper scenario at one video length), made by the runner that makes them by hand
(testbed/video/run.py, testbed/experiments/run.py) with --cells and --only-runs. Its outputs
are one file per run: RUNS_DIR/<kind>/<experiment>/<cell>/run<k>.json, a copy of the runner's
run document, written only once that run is ok and complete (workflow/collect.py). The
runners keep their own resumable stores (their --results), so a run that failed leaves no
output and the ok runs of the same job are not made again when the job is.

PCDC (mpqoe.pcdc.experiment through `make -C pcdc guest`): the experiment is a scenario, the cell a
congestion control, and each (scenario, control) has one job more, before its runs: the
measurement of its impact factors (--measure-only), whose table every run of that control uses
(--table). A table is measured once per network, as by hand, and the runs of one control share
it wherever they run (each on its own node on a cluster: a table per job would cost 15-25 min
a run and give every run its own P). Its output is the table's copy
RUNS_DIR/pcdc/<scenario>/<cc>/table.json, the run jobs' input; a run's file,
RUNS_DIR/pcdc/<scenario>/<cc>/run<k>.csv, holds the rows of its four result files (both modes,
bulk and small).

config["batch_runs"] sets the jobs' size: 0 makes one job per network with every run of it
(one guest boot for all; the default on one machine, where a boot costs 40-90 s), N splits a
network's runs into jobs of at most N runs (1 on a cluster: one job per run, each on its own
node). Stdlib only: the Snakefile and the unit test import it.
"""

import dataclasses
import fnmatch
import os
import re
import shlex

from mpqoe import REPO
from mpqoe import cc_fairness as ccx  # its CELLS and PARAMS: the fairness plan
from mpqoe import sched_matrix as smx
from mpqoe import video_matrix as vmx
from mpqoe import video_record as vrec
from mpqoe.pcdc import experiment as pcx  # its layout, defaults and scenario reader
from mpqoe.runs import chunks

PY = "/usr/bin/python3"
VIDEO_RUN = os.path.join(REPO, "testbed", "video", "run.py")
SCHED_RUN = os.path.join(REPO, "testbed", "experiments", "run.py")
CC_RUN = os.path.join(REPO, "kernel-schedulers", "cc-fairness", "run.py")
CC_DATA = os.path.join(REPO, "docs", "results", "cc", "data")
PCDC = os.path.join(REPO, "pcdc")
PCDC_REPORT = os.path.join(PCDC, "pcdc_report.py")
PCDC_SCENARIOS = os.path.join(PCDC, "scenarios")  # <name>.json
PCDC_DATA = pcx.PUBLISHED  # report.py's data root

# The video runner's estimate of machine time (testbed/video/run.py): a guest boot with the
# network, and per run the video plus start-up and records. The scheduler runs': their
# matrix's (batches, estimate_s), as testbed/experiments/run.py plans them.
VIDEO_BOOT_S, VIDEO_RUN_BASE_S, VIDEO_RUN_PER_CLIENT_S = 150, 20, 20
# cc-fairness/README.md: a run about 33 s of guest time (its 30 s transfer and the checks), the
# busybox guest's boot and initramfs a minute at most
CC_BOOT_S, CC_PER_RUN_S = 60, 33
# PCDC, from the committed uib-unis runs (10 runs of cubic and olia in the testbed guest, the
# driver's defaults; workflow/cost.py computes what they took and the workflow's tests hold
# these to it): a mode's 120 s bulk transfer and 6 s for the daemon's start and the five small
# transfers; a sample of the impact-factor table its windows (warmup + 2 T + settle) and 0.4 s
# to connect and join the subflows. The boot: the testbed guest and the scenario's namespaces,
# as a scheduler batch's.
PCDC_BOOT_S, PCDC_MODE_EXTRA_S, PCDC_SAMPLE_EXTRA_S = 90, 6, 0.4


def pcdc_run_s():
    """One run of one congestion control: every mode's bulk and small transfers."""
    return len(pcx.MODES) * (pcx.BULK_SECONDS + PCDC_MODE_EXTRA_S)


def pcdc_windows_s():
    """A table sample's measurement windows: warm-up, the two windows of T, settle."""
    return pcx.WARMUP_S + 2 * pcx.T_S + pcx.SETTLE_S


def pcdc_table_s(pairs):
    """One impact-factor table: every pair's samples, each its windows and the time to connect
    and join its subflows."""
    return pairs * pcx.SAMPLES * (pcdc_windows_s() + PCDC_SAMPLE_EXTRA_S)


def time_limit_min(estimate_s):
    """A job's time limit: the estimate and a half, and 10 min."""
    return int(estimate_s * 1.5 / 60) + 10


class ConfigError(Exception):
    pass


@dataclasses.dataclass(frozen=True)
class Job:
    kind: str  # "video", "scheduler", "cc" or "pcdc"
    experiment: str  # (the scenario for PCDC)
    network: str  # the video batch's name, the scenario (and length) of a scheduler job, the
    # fairness experiment's one network, PCDC's rate scale (rate<x>)
    cells: tuple  # cell names (case/algo for the fairness experiment, the control for PCDC)
    runs: tuple  # run numbers (none: a PCDC job that measures the table)
    store: str  # the runner's --results
    out_dir: str  # RUNS_DIR/<kind>[/<length>s | /rate-scale-<x>]
    argv: tuple  # the runner's arguments, --cells and --only-runs included
    estimate_s: float  # machine time, boot included
    program: tuple = (PY,)  # what argv is given to
    needs: tuple = ()  # the job's inputs: a PCDC run job's table

    @property
    def name(self):
        """The rule's name: unique, letters, digits and underscores."""
        cells = "" if len(self.cells) != 1 else f"_{self.cells[0]}".replace("/", "_")
        runs = "_r" + "_".join(map(str, self.runs)) if self.runs else "_table"
        raw = f"{self.kind}_{self.experiment}_{self.network}{cells}{runs}"
        return re.sub(r"[^A-Za-z0-9]+", "_", raw)

    def copies(self):
        """[(the runner's run document, the workflow's run file)] of every run of the job."""
        if self.kind == "pcdc":
            out_dir = os.path.join(self.out_dir, self.experiment, self.cells[0])
            src = os.path.join(self.store, self.experiment)
            if not self.runs:
                return [(pcx.table_path(src, self.cells[0]), os.path.join(out_dir, "table.json"))]
            return [
                (pcdc_run_source(src, self.cells[0], k), os.path.join(out_dir, f"run{k}.csv"))
                for k in self.runs
            ]
        out = []
        for cell in self.cells:
            for k in self.runs:
                if self.kind == "video":
                    src = os.path.join(self.store, self.experiment, cell, f"run{k}", "run.json")
                elif self.kind == "scheduler":
                    src = os.path.join(self.store, self.experiment, cell, f"run{k}.json")
                else:  # one CSV row per run (cc-fairness/run.py)
                    case, algo = cell.split("/")
                    src = ccx.run_path(self.store, case, algo, k)
                    dst = os.path.join(
                        self.out_dir, self.experiment, f"{case}_{algo}", f"run{k}.csv"
                    )
                    out.append((src, dst))
                    continue
                out.append((src, os.path.join(self.out_dir, self.experiment, cell, f"run{k}.json")))
        return out

    def outputs(self):
        return [dst for _src, dst in self.copies()]

    def preflight_args(self):
        """workflow/preflight.py's arguments: the kind, and the modules the cells load."""
        if self.kind == "video":
            return "video"
        if self.kind == "cc":
            return "cc"
        if self.kind == "pcdc":
            return f"pcdc {self.cells[0]}"
        return " ".join(["scheduler", *sorted({c.split(".")[1] for c in self.cells})])

    def command(self):
        return shlex.join([*self.program, *self.argv])

    def runtime_min(self):
        return time_limit_min(self.estimate_s)


def path(config, key):
    p = config[key]
    return os.path.normpath(p if os.path.isabs(p) else os.path.join(REPO, p))


def video_jobs(config):
    jobs = []
    store, runs_dir = path(config, "video_results"), path(config, "runs_dir")
    for exp in config.get("video_experiments") or []:
        if exp not in vmx.EXPERIMENTS:
            raise ConfigError(f"video_experiments: unknown experiment {exp!r}")
        o = {**(config.get("video_overrides") or {}).get(exp, {})}
        runs = int(o.get("runs", config["runs"]))
        video = o.get("video", config["video"])
        plan = vmx.experiment_plan(exp, float(video) if video else None)
        plan = vmx.select(plan, config.get("video_cells"))
        plan, _big = vmx.limit_clients(plan, exp, int(config["max_clients"]))
        for b, cells in plan:
            names = [c.name for c in cells]
            per_run = b.video_s + vmx.JOIN_INTERVAL_S * (b.clients - 1)
            per_run += VIDEO_RUN_BASE_S + VIDEO_RUN_PER_CLIENT_S * b.clients
            for cs, ks in chunks(names, list(range(1, runs + 1)), int(config["batch_runs"])):
                argv = [VIDEO_RUN, "--experiment", exp, "--runs", str(runs)]
                argv += ["--video", f"{float(video):g}"] if video else []
                argv += ["--max-clients", str(config["max_clients"])]
                argv += ["--retries", str(config["retries"]), "--results", store]
                argv += ["--cells", ",".join(cs), "--only-runs", ",".join(map(str, ks))]
                est = VIDEO_BOOT_S + per_run * len(cs) * len(ks)
                jobs.append(
                    Job("video", exp, b.name, cs, ks, store, os.path.join(runs_dir, "video"),
                        tuple(argv), est)
                )  # fmt: skip
    return jobs


def sched_lengths(config, cells):
    """{video length s: [cells]}: config's scheduler_duration, or each cell's planned one."""
    d = config["scheduler_duration"]
    if d == "planned":
        out = {}
        for c in cells:
            out.setdefault(smx.planned_duration(c), []).append(c)
        return out
    return {float(d): list(cells)}


def scheduler_jobs(config):
    jobs = []
    store, runs_dir = path(config, "scheduler_results"), path(config, "runs_dir")
    planned = config["scheduler_duration"] == "planned"
    runs = int(config["scheduler_runs"])
    for exp in config.get("scheduler_experiments") or []:
        if exp not in smx.EXPERIMENTS:
            raise ConfigError(f"scheduler_experiments: unknown experiment {exp!r}")
        selected = smx.select(exp, config.get("scheduler_cells"))
        for length, cells in sorted(sched_lengths(config, selected).items(), reverse=True):
            # --planned's layout: one store per length (testbed/experiments/run.py)
            sub = f"{length:g}s" if planned else ""
            st = os.path.join(store, sub) if sub else store
            out = os.path.join(runs_dir, "scheduler", sub) if sub else runs_dir + "/scheduler"
            for scn in smx.SCENARIOS:
                names = [c.name for c in cells if c.scenario == scn]
                if not names:
                    continue
                network = f"{scn}.{length:g}s"
                for cs, ks in chunks(names, list(range(1, runs + 1)), int(config["batch_runs"])):
                    argv = [SCHED_RUN, "--experiment", exp, "--runs", str(runs)]
                    argv += ["--duration", f"{length:g}", "--results", st, "--no-build"]
                    argv += ["--cells", ",".join(cs), "--only-runs", ",".join(map(str, ks))]
                    todo = {(c, k) for c in cs for k in ks}
                    job = [c for c in cells if c.name in cs]
                    est = smx.estimate_s(smx.batches(job, todo), todo, length)
                    jobs.append(Job("scheduler", exp, network, cs, ks, st, out, tuple(argv), est))
    return jobs


def cc_cells(config):
    """The fairness experiment's cells (case/algo) the sweep makes: every one of run.py's
    CELLS, or those config cc_cells names (comma-separated shell patterns)."""
    names = [f"{case}/{algo}" for case, algo, _tcp in ccx.CELLS]
    pats = [p.strip() for p in (config.get("cc_cells") or "").split(",") if p.strip()]
    return [n for n in names if not pats or any(fnmatch.fnmatchcase(n, p) for p in pats)]


def cc_jobs(config):
    if str(config.get("cc_fairness")).lower() not in ("true", "1", "yes"):
        return []
    store, runs_dir = path(config, "cc_results"), path(config, "runs_dir")
    runs = int(config["cc_runs"])
    cells = cc_cells(config)
    if not cells:
        raise ConfigError(f"cc_cells: {config.get('cc_cells')!r} matches no cell")
    jobs = []
    for cs, ks in chunks(cells, list(range(1, runs + 1)), int(config["batch_runs"])):
        argv = [CC_RUN, "--runs", str(runs), "--data", store, "--only", ",".join(cs)]
        argv += ["--only-runs", ",".join(map(str, ks))]
        est = CC_BOOT_S + CC_PER_RUN_S * len(cs) * len(ks)
        out = os.path.join(runs_dir, "cc")
        jobs.append(Job("cc", "fairness", "cc", cs, ks, store, out, tuple(argv), est))
    return jobs


def publish_cc(config):
    """The fairness experiment's committed data: one CSV per run in config cc_publish
    (docs/results/cc/data, what report.py reads), copied from the workflow's run files;
    [(src, dst)]."""
    out = []
    for j in cc_jobs(config):
        for _src, run_file in j.copies():
            cell, k = os.path.basename(os.path.dirname(run_file)), run_file[: -len(".csv")]
            k = int(k.rsplit("run", 1)[1])
            case, algo = cell.split("_", 1)
            out.append((run_file, ccx.run_path(path(config, "cc_publish"), case, algo, k)))
    return out


def pcdc_run_source(store, cc, k):
    """collect.py's source of PCDC run k of cc in the driver's output store (a scenario's
    directory): not a file, the run's result files (pcdc_run_files)."""
    return os.path.join(store, cc, f"run{k}")


def pcdc_run_files(src):
    """(cc, k, the result files of the run) of a pcdc_run_source, None for anything else."""
    m = re.fullmatch(r"(.+)/([^/]+)/run([1-9][0-9]*)", src)
    if not m:
        return None
    return m.group(2), int(m.group(3)), pcx.run_paths(m.group(1), m.group(2), int(m.group(3)))


def _positive(key, v):
    try:
        x = float(v)
    except (TypeError, ValueError):
        x = None
    if isinstance(v, bool) or x is None or not 0 < x < float("inf"):
        raise ConfigError(f"{key}: want a positive number, got {v!r}")
    return x


def pcdc_scenarios(config):
    """{scenario: (rate scale, address pairs)} of config pcdc_scenarios, each a file of
    pcdc/scenarios, its rates scaled by config pcdc_rate_scale (a number, or per scenario a map
    whose others get 1); ConfigError naming the key for anything else."""
    names = config.get("pcdc_scenarios") or []
    known = sorted(f[: -len(".json")] for f in os.listdir(PCDC_SCENARIOS) if f.endswith(".json"))
    if not isinstance(names, list):
        raise ConfigError(
            f"pcdc_scenarios: want a list of scenarios, e.g. [uib-hin], got {names!r}"
        )
    scales = config.get("pcdc_rate_scale", 1)
    if isinstance(scales, dict):
        bad = sorted(str(k) for k in scales if k not in known)
        if bad:
            raise ConfigError(
                f"pcdc_rate_scale: unknown scenario {bad[0]!r} (one of {', '.join(known)})"
            )
    out = {}
    for name in names:
        if name not in known:
            raise ConfigError(
                f"pcdc_scenarios: unknown scenario {name!r} (one of {', '.join(known)})"
            )
        if name in out:
            raise ConfigError(f"pcdc_scenarios: {name} twice")
        scale = _positive(
            "pcdc_rate_scale", scales.get(name, 1) if isinstance(scales, dict) else scales
        )
        try:
            client, server = pcx.load_scenario(os.path.join(PCDC_SCENARIOS, f"{name}.json"), scale)
        except ValueError as e:
            raise ConfigError(f"pcdc_scenarios: {e}") from None
        out[name] = (scale, len(client) * len(server))
    return out


def pcdc_ccs(config):
    ccs = config.get("pcdc_ccs")
    if (
        not isinstance(ccs, list)
        or not ccs
        or not all(isinstance(c, str) and c.isidentifier() for c in ccs)
    ):
        raise ConfigError(
            f"pcdc_ccs: want a list of congestion controls, e.g. [cubic, olia], got {ccs!r}"
        )
    return list(dict.fromkeys(ccs))


def pcdc_dirs(config, scale):
    """(the driver's store, the run files' directory) at a rate scale: a store keeps one scale
    (mpqoe.pcdc.experiment records none), so another scale has directories of its own."""
    sub = "" if scale == 1 else f"rate-scale-{scale:g}"
    store, runs_dir = path(config, "pcdc_results"), os.path.join(path(config, "runs_dir"), "pcdc")
    return (os.path.join(store, sub), os.path.join(runs_dir, sub)) if sub else (store, runs_dir)


def pcdc_job(name, scale, store, out, cc, runs, ks, est, args, needs=()):
    """A job of `make -C pcdc guest` (the driver in the testbed guest, the store at /results;
    NO_BUILD: the modules and the guest are the node's, preflight checks them) for one scenario
    and control: its runs ks, or none to measure the table. TIMEOUT, the guest's own limit, is
    5 min inside the job's, so that the job's last step still reports on a cluster."""
    argv = ("-C", PCDC, "guest", f"SCENARIO={name}", f"RUNS={runs}", f"CCS={cc}",
            f"RATE_SCALE={scale:g}", f"OUT={store}", "NO_BUILD=1",
            f"TIMEOUT={time_limit_min(est) * 60 - 300}", f"ARGS={args}")  # fmt: skip
    network = f"rate{scale:g}"
    return Job("pcdc", name, network, (cc,), tuple(ks), store, out, argv, est, ("make",), needs)


def pcdc_jobs(config):
    scenarios = pcdc_scenarios(config)
    if not scenarios:
        return []
    ccs = pcdc_ccs(config)
    runs = config.get("pcdc_runs")
    if isinstance(runs, bool) or not isinstance(runs, int) or not 1 <= runs <= 100:
        raise ConfigError(f"pcdc_runs: want 1..100, got {runs!r}")
    jobs = []
    for name, (scale, pairs) in scenarios.items():
        store, out = pcdc_dirs(config, scale)
        for cc in ccs:
            est = PCDC_BOOT_S + pcdc_table_s(pairs)
            table = pcdc_job(name, scale, store, out, cc, runs, (), est, "--measure-only")
            jobs.append(table)
            guest_table = pcx.table_path(f"/results/{name}", cc)
            for _cs, ks in chunks([cc], list(range(1, runs + 1)), int(config["batch_runs"])):
                est = PCDC_BOOT_S + pcdc_run_s() * len(ks)
                args = f"--only-runs {','.join(map(str, ks))} --table {guest_table}"
                needs = tuple(table.outputs())
                jobs.append(pcdc_job(name, scale, store, out, cc, runs, ks, est, args, needs))
    return jobs


def publish_pcdc(config, scenario):
    """report.py --import of one scenario's store into config pcdc_publish
    (<root>/<scenario>/data) and the files it writes for the sweep's controls."""
    scale, _pairs = pcdc_scenarios(config)[scenario]
    store, _out = pcdc_dirs(config, scale)
    root = path(config, "pcdc_publish")
    argv = [PCDC_REPORT, "--import", os.path.join(store, scenario), "--rate-scale", f"{scale:g}"]
    argv += ["--data", root]
    data = pcx.published(root, scenario).data
    tables = [f for cc in pcdc_ccs(config) for f in pcx.published_files(data, cc)]
    return shlex.join([PY, *argv]), [*tables, pcx.published_scenario(data)]


def pcdc_pages(config):
    """What report.py renders for the sweep's scenarios: each one's page and figures."""
    out = []
    for name in pcdc_scenarios(config):
        where = pcx.published(PCDC_DATA, name)
        out += [where.page, *(where.figure(t) for t in pcx.TESTS)]
    return out


def job_retries(config):
    """config job_retries: how often a failed run job is submitted again (a whole number >= 0;
    absent: 1)."""
    v = config.get("job_retries", 1)
    if isinstance(v, bool) or not isinstance(v, int) or v < 0:
        raise ConfigError(f"job_retries: want a whole number >= 0, got {v!r}")
    return v


def jobs(config):
    out = video_jobs(config) + scheduler_jobs(config) + cc_jobs(config) + pcdc_jobs(config)
    names = [j.name for j in out]
    dup = {n for n in names if names.count(n) > 1}
    if dup:
        raise ConfigError(f"two jobs named {sorted(dup)[0]}")
    return out


def publish_video(config, exp):
    """The runner's --publish-only for one video experiment and the tables it writes."""
    job = next(j for j in video_jobs(config) if j.experiment == exp)
    argv = list(job.argv[: job.argv.index("--cells")]) + ["--publish-only"]
    if config.get("video_cells"):
        argv += ["--cells", config["video_cells"]]
    tables = list(vrec.published(exp, os.path.join(REPO, "docs", "results")).values())
    return shlex.join([PY, *argv]), tables


def publish_scheduler(config, exp):
    """The runner's --publish-only for one scheduler experiment (once per video length) and
    the tables it writes."""
    dest = path(config, "publish")
    cmds = []
    stores = sorted({j.store for j in scheduler_jobs(config) if j.experiment == exp})
    for st in stores:
        argv = [SCHED_RUN, "--experiment", exp, "--runs", str(config["scheduler_runs"])]
        argv += ["--results", st, "--publish", dest, "--publish-only"]
        if config.get("scheduler_cells"):
            argv += ["--cells", config["scheduler_cells"]]
        cmds.append(shlex.join([PY, *argv]))
    tables = [os.path.join(dest, exp, "data", f) for f in ("runs.csv", "paths.csv")]
    return " && ".join(cmds), tables


def run_count(js):
    """The runs some jobs make (a PCDC table job makes none)."""
    return sum(len(j.cells) * len(j.runs) for j in js)


def summary(config):
    """{"jobs", "runs", "hours"} of the whole workflow (for the docs and --dry-run)."""
    js = jobs(config)
    return {
        "jobs": len(js),
        "runs": run_count(js),
        "hours": round(sum(j.estimate_s for j in js) / 3600, 1),
    }
