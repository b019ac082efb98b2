"""The workflow's plan, through Snakemake's own dry run (`snakemake -n`): which jobs a small
sweep makes, with which outputs and runner commands, at either job size, what a resumed sweep
still makes, and that the plan is the runners' own; PCDC's jobs (tables, then runs), their
estimate and the driver's command line they lead to. No guest, no root; about 60 s.

SNAKEMAKE names the snakemake to use (default: the venv `make workflow-deps` makes)."""

import csv
import json
import os
import re
import shlex
import subprocess
import tempfile
import unittest
from unittest import mock

import cost
import plan
from mpqoe import campaign_cc as ccf
from mpqoe import campaign_pcdc as pcf
from mpqoe import campaign_sched as sf
from mpqoe import campaign_video as vf
from mpqoe import cc_fairness as ccx
from mpqoe.pcdc import experiment as pcx

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)


VENV = os.path.join(REPO, "build", "snakemake")
SNAKEMAKE = os.environ.get("SNAKEMAKE") or os.path.join(VENV, "bin", "snakemake")
CELLS = "baseline.dft.cubic,baseline.minrtt.cubic"


def dry_run(tmp, *config, extra=()):
    """{rule name: {"inputs": [...], "outputs": [...], "shell": str}} of the jobs `snakemake -n`
    lists."""
    conf = [
        f"runs_dir={tmp}/runs", f"video_results={tmp}/video", f"scheduler_results={tmp}/sched",
        f"publish={tmp}/pub", "reports=false", "video_experiments=[ci]", "runs=2",
        "scheduler_experiments=[sticky]", f"scheduler_cells={CELLS}", "scheduler_runs=2",
        "scheduler_duration=10", *config,
    ]  # fmt: skip
    r = subprocess.run(
        [SNAKEMAKE, "-s", os.path.join(HERE, "Snakefile"), "-d", tmp, "-n", "-p", *extra,
         "--config", *conf],
        capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip
    return dry_run_of(r)


def dry_run_of(r):
    """The jobs of a `snakemake -n -p` that ran (AssertionError with its output if it failed)."""
    out = r.stdout + r.stderr
    if r.returncode:
        raise AssertionError(f"snakemake -n exit {r.returncode}:\n{out[-3000:]}")
    jobs, cur = {}, None
    lines = out.splitlines()
    for i, line in enumerate(lines):
        m = re.match(r"^(?:local)?rule (\S+):$", line)
        if m:
            cur = jobs.setdefault(m.group(1), {"inputs": [], "outputs": [], "shell": ""})
            continue
        if cur is None:
            continue
        m = re.match(r"^    (in|out)put: (.*)$", line)
        if m:
            cur[f"{m.group(1)}puts"] = m.group(2).split(", ")
        elif line.startswith(f"Shell command: {plan.PY} {HERE}/preflight.py"):
            cur["shell"] = "\n".join(lines[i : i + 3])
        elif line.startswith("Shell command: "):
            cur["shell"] = line
    return jobs


def run_file(tmp, kind, exp, cell, k):
    return f"{tmp}/runs/{kind}/{exp}/{cell}/run{k}.json"


class DryRun(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="mpqoe-workflow-")
        self.addCleanup(subprocess.run, ["rm", "-rf", self.tmp], check=False)

    def test_one_job_per_network_lists_exactly_the_sweep(self):
        jobs = dry_run(self.tmp)
        video = "video_ci_compuserve_c2_seg2_framework_paper_s1_v20_r1_2"
        sched = "scheduler_sticky_baseline_10s_r1_2"
        self.assertEqual(
            set(jobs), {video, sched, "publish_video_ci", "publish_scheduler_sticky", "all"}
        )
        want = {
            run_file(self.tmp, "scheduler", "sticky", c, k)
            for c in CELLS.split(",")
            for k in (1, 2)
        }
        self.assertEqual(set(jobs[sched]["outputs"]), want)
        want = {
            run_file(self.tmp, "video", "ci", f"compuserve.c2.{a}", k)
            for a in ("ga", "none")
            for k in (1, 2)
        }
        self.assertEqual(set(jobs[video]["outputs"]), want)
        self.assertIn("--only-runs 1,2", jobs[sched]["shell"])
        cells = re.search(r"--cells (\S+)", jobs[sched]["shell"]).group(1)
        self.assertEqual(set(cells.split(",")), set(CELLS.split(",")))
        self.assertIn("--duration 10", jobs[sched]["shell"])
        self.assertIn("preflight.py scheduler dft minrtt", jobs[sched]["shell"])
        self.assertIn("preflight.py video", jobs[video]["shell"])
        self.assertEqual(
            set(jobs["publish_scheduler_sticky"]["outputs"]),
            {f"{self.tmp}/pub/sticky/data/runs.csv", f"{self.tmp}/pub/sticky/data/paths.csv"},
        )

    def test_one_run_per_job_on_a_cluster(self):
        jobs = dry_run(self.tmp, "batch_runs=1")
        runs = {n: j for n, j in jobs.items() if n.startswith(("video_", "scheduler_"))}
        self.assertEqual(len(runs), 8)
        for name, j in runs.items():
            self.assertEqual(len(j["outputs"]), 1, name)
            k = re.search(r"run(\d)\.json$", j["outputs"][0]).group(1)
            cell = j["outputs"][0].split("/")[-2]
            self.assertIn(f"--cells {cell} --only-runs {k}", j["shell"], name)

    def test_a_resumed_sweep_makes_only_what_is_missing(self):
        done = run_file(self.tmp, "scheduler", "sticky", "baseline.dft.cubic", 2)
        os.makedirs(os.path.dirname(done))
        with open(done, "w") as f:
            f.write("{}\n")
        jobs = dry_run(self.tmp, "batch_runs=1")
        runs = [n for n in jobs if n.startswith("scheduler_")]
        self.assertEqual(len(runs), 3)
        self.assertNotIn("scheduler_sticky_baseline_10s_baseline_dft_cubic_r2", jobs)
        # one job per network: the network's job again, its ok runs kept by the runner
        jobs = dry_run(self.tmp)
        self.assertIn("scheduler_sticky_baseline_10s_r1_2", jobs)

    def test_the_reports_follow_the_tables(self):
        jobs = dry_run(self.tmp, "reports=true", f"publish={REPO}/docs/results")
        self.assertIn("report_scheduler", jobs)
        self.assertIn("report_video", jobs)
        self.assertIn(
            f"{REPO}/docs/results/scheduler-papers.md", jobs["report_scheduler"]["outputs"]
        )
        # scheduler tables published elsewhere: no page of docs/results from them
        jobs = dry_run(self.tmp, "reports=true")
        self.assertIn("report_video", jobs)
        self.assertNotIn("report_scheduler", jobs)

    def test_an_unknown_experiment_is_one_clear_error(self):
        with self.assertRaises(AssertionError) as e:
            dry_run(self.tmp, "video_experiments=[nope]")
        self.assertIn("video_experiments: unknown experiment 'nope'", str(e.exception))


def scheduler_doc(cell, k, complete=True):
    """An ok run document of testbed/experiments/cellrun.py (what the runner's store holds)."""
    scn, sched, cc = cell.split(".")
    probe = {"buffer_underflows": {"count": 1, "total_s": 0.5}, "startup_delay_s": 1.2}
    if complete:
        probe["subflows"] = [{"mean_bps": 1e6, "series": [[0.5, 1e6], [1.0, 1e6]]}] * 3
    return {
        "schema": "mpqoe-experiment-run/2", "status": "ok", "error": None,
        "experiment": "sticky", "cell": cell, "scenario": scn, "scheduler": sched, "cc": cc,
        "run": k, "code_version": "0123abcd", "config": {"duration_s": 10.0}, "probe": probe,
    }  # fmt: skip


class Execution(unittest.TestCase):
    """The workflow for real (local profile, real runner, real Snakemake) over a runner store
    that already holds its runs, so that no guest is booted: the jobs check the node, call the
    runner, which finds nothing to make, and take the runs over; then what a finished sweep,
    a change of job size and an incomplete run do. As root, with the guest and the scheduler
    modules built (preflight checks them)."""

    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="mpqoe-workflow-")
        self.addCleanup(subprocess.run, ["rm", "-rf", self.tmp], check=False)
        self.store = os.path.join(self.tmp, "sched")
        for c in CELLS.split(","):
            for k in (1, 2):
                self.put(c, k, scheduler_doc(c, k))

    def put(self, cell, k, doc):
        p = os.path.join(self.store, "sticky", cell, f"run{k}.json")
        os.makedirs(os.path.dirname(p), exist_ok=True)
        with open(p, "w") as f:
            json.dump(doc, f)

    def snakemake(self, *config, extra=()):
        conf = [
            f"runs_dir={self.tmp}/runs", f"scheduler_results={self.store}",
            f"publish={self.tmp}/pub", "reports=false", "video_experiments=[]",
            "scheduler_experiments=[sticky]", f"scheduler_cells={CELLS}", "scheduler_runs=2",
            "scheduler_duration=10", *config,
        ]  # fmt: skip
        return subprocess.run(
            [SNAKEMAKE, "-s", os.path.join(HERE, "Snakefile"), "-d", f"{self.tmp}/wd",
             "--profile", "workflow/profiles/local", *extra, "--config", *conf],
            capture_output=True, text=True, timeout=300, check=False, cwd=REPO,
        )  # fmt: skip

    def test_runs_are_taken_over_published_and_stay_done_at_another_job_size(self):
        r = self.snakemake()
        self.assertEqual(r.returncode, 0, r.stderr[-3000:])
        self.assertIn("workflow: 4 of 4 runs ok", r.stdout + r.stderr)
        for c in CELLS.split(","):
            for k in (1, 2):
                with open(run_file(self.tmp, "scheduler", "sticky", c, k)) as f:
                    self.assertEqual(json.load(f), scheduler_doc(c, k))
        with open(f"{self.tmp}/pub/sticky/data/runs.csv") as f:
            rows = list(csv.DictReader(f))
        self.assertEqual(
            sorted((r["cell"], r["run"], r["status"]) for r in rows),
            sorted((c, str(k), "ok") for c in CELLS.split(",") for k in (1, 2)),
        )
        # one run per job now (as on a cluster): nothing to make again
        jobs = dry_run_of(self.snakemake("batch_runs=1", extra=("-n", "-p")))
        self.assertEqual(jobs, {}, "a finished sweep at another job size")

    def test_an_incomplete_run_is_not_done_and_its_line_says_why(self):
        self.put("baseline.dft.cubic", 2, scheduler_doc("baseline.dft.cubic", 2, complete=False))
        r = self.snakemake("batch_runs=1")
        self.assertNotEqual(r.returncode, 0)
        out = r.stdout + r.stderr
        line = (
            "workflow: run not done: " + f"{self.store}/sticky/baseline.dft.cubic/run2.json: "
            "ok but incomplete (no subflows, thr_mean_mbps in its probe record)"
        )
        # the job is submitted again once (config job_retries), and fails again
        self.assertEqual(out.count(line), 2, out[-3000:])
        self.assertFalse(
            os.path.exists(run_file(self.tmp, "scheduler", "sticky", "baseline.dft.cubic", 2))
        )
        self.assertTrue(
            os.path.exists(run_file(self.tmp, "scheduler", "sticky", "baseline.dft.cubic", 1))
        )
        self.assertFalse(
            os.path.exists(f"{self.tmp}/pub"), "nothing published from a partial sweep"
        )


class FairnessExecution(unittest.TestCase):
    """The fairness experiment through the workflow for real, over a store that holds its
    runs (no guest boots): run files, the published CSVs, and a store CSV that lacks a field."""

    CELLS = [("shared", "lia", "reno"), ("disjoint", "olia", "-")]

    def write(self, tmp, case, algo, tcp, k, complete):
        row = {c: "1" for c in ccx.COLUMNS}
        row.update(case=case, algo=algo, tcp_cc=tcp, run=str(k), tcp_mbps="")
        if not complete:
            row["code_version"] = ""
        p = ccx.run_path(f"{tmp}/store", case, algo, k)
        os.makedirs(os.path.dirname(p), exist_ok=True)
        with open(p, "w", newline="") as f:
            w = csv.DictWriter(f, ccx.COLUMNS, lineterminator="\n")
            w.writeheader()
            w.writerow(row)

    def snakemake(self, tmp):
        return subprocess.run(
            [SNAKEMAKE, "-s", os.path.join(HERE, "Snakefile"), "-d", f"{tmp}/wd",
             "--profile", "workflow/profiles/local", "--config", f"runs_dir={tmp}/runs",
             "video_experiments=[]", "cc_fairness=true", "cc_runs=2",
             "cc_cells=shared/lia,disjoint/olia", f"cc_results={tmp}/store",
             f"cc_publish={tmp}/pub", "batch_runs=1"],
            capture_output=True, text=True, timeout=300, check=False, cwd=REPO,
        )  # fmt: skip

    def test_runs_are_taken_over_and_published(self):
        tmp = tempfile.mkdtemp(prefix="mpqoe-workflow-")
        self.addCleanup(subprocess.run, ["rm", "-rf", tmp], check=False)
        for case, algo, tcp in self.CELLS:
            for k in (1, 2):
                self.write(tmp, case, algo, tcp, k, complete=(algo, k) != ("olia", 2))
        r = self.snakemake(tmp)
        out = r.stdout + r.stderr
        self.assertNotEqual(r.returncode, 0, out[-2000:])
        self.assertIn("disjoint_olia_run2.csv: ok but incomplete (no code_version)", out)
        got = sorted(
            os.path.relpath(os.path.join(d, f), f"{tmp}/runs")
            for d, _s, fs in os.walk(f"{tmp}/runs")
            for f in fs
        )
        want = ["cc/fairness/disjoint_olia/run1.csv", "cc/fairness/shared_lia/run1.csv"]
        want.append("cc/fairness/shared_lia/run2.csv")
        self.assertEqual(got, want)
        self.assertFalse(os.path.exists(f"{tmp}/pub"), "nothing published from a partial sweep")
        # the run made complete: the sweep finishes and publishes the four CSVs as they are
        self.write(tmp, "disjoint", "olia", "-", 2, complete=True)
        r = self.snakemake(tmp)
        self.assertEqual(r.returncode, 0, (r.stdout + r.stderr)[-2000:])
        for case, algo, _tcp in self.CELLS:
            for k in (1, 2):
                with open(ccx.run_path(f"{tmp}/pub", case, algo, k)) as f:
                    published = f.read()
                with open(ccx.run_path(f"{tmp}/store", case, algo, k)) as f:
                    self.assertEqual(published, f.read())


class NodeCheckAndCollect(unittest.TestCase):
    """preflight.py and collect.py on their own: one line for what is wrong."""

    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="mpqoe-workflow-")
        self.addCleanup(subprocess.run, ["rm", "-rf", self.tmp], check=False)

    def script(self, name, *args, env=None):
        return subprocess.run(
            [plan.PY, os.path.join(HERE, name), *args], capture_output=True, text=True,
            timeout=60, check=False, env={**os.environ, **(env or {})},
        )  # fmt: skip

    def test_a_node_without_the_guest_is_one_line(self):
        r = self.script("preflight.py", "scheduler", "dft", env={"MPQOE_TESTBED_CACHE": self.tmp})
        self.assertEqual(r.returncode, 1, r.stderr)
        self.assertEqual(len(r.stderr.strip().splitlines()), 1, r.stderr)
        self.assertRegex(r.stderr, r"^preflight on \S+: no testbed guest built for this checkout")
        self.assertEqual(self.script("preflight.py", "bogus").returncode, 2)

    def test_an_unbuilt_module_is_named(self):
        """On this node (root, QEMU, the guest: make workflow-test builds it) a scheduler
        that has no module file is the one thing missing."""
        r = self.script("preflight.py", "scheduler", "nosuch")
        self.assertEqual(r.returncode, 1, r.stderr)
        self.assertRegex(
            r.stderr, r"^preflight on \S+: scheduler modules not built: mpqoe_nosuch\.ko \(make"
        )

    def test_missing_failed_and_incomplete_video_runs_are_not_copied(self):
        ok = {
            "schema": "mpqoe-video-run/1", "status": "ok", "experiment": "ci",
            "cell": "compuserve.c2.ga", "run": 1, "code_version": "0123abcd",
            "clients": [{"name": "h1"}], "checks": {"every client finished": True},
        }  # fmt: skip
        docs = {
            "ok": ok,
            "failed": {**ok, "status": "failed", "error": "checks failed: x"},
            "unchecked": {**ok, "checks": {"every client finished": False}},
            "noversion": {**ok, "code_version": None},
        }
        pairs = []
        for name, doc in docs.items():
            src = os.path.join(self.tmp, "store", name, "run.json")
            os.makedirs(os.path.dirname(src))
            with open(src, "w") as f:
                json.dump(doc, f)
            pairs += [src, os.path.join(self.tmp, "out", f"{name}.json")]
        pairs += [os.path.join(self.tmp, "nothing.json"), os.path.join(self.tmp, "out", "x.json")]
        r = self.script("collect.py", "--runner-exit", "1", *pairs)
        self.assertEqual(r.returncode, 1)
        self.assertEqual(os.listdir(os.path.join(self.tmp, "out")), ["ok.json"])
        lines = r.stderr.strip().splitlines()
        self.assertEqual(len(lines), 4, r.stderr)
        self.assertIn("failed/run.json: failed (checks failed: x)", lines[0])
        self.assertIn("checks not passed: every client finished", lines[1])
        self.assertIn("ok but incomplete (no code_version)", lines[2])
        self.assertIn("nothing.json: missing", lines[3])
        self.assertIn("workflow: 1 of 5 runs ok (runner exit 1)", r.stdout)


class SameAsTheRunners(unittest.TestCase):
    """The workflow's jobs cover exactly the runs the runners' own --dry-run plans."""

    def runner_dry_run(self, script, *args):
        r = subprocess.run(
            [plan.PY, script, *args, "--dry-run"], capture_output=True, text=True, check=True
        )
        return r.stdout

    def test_video_sweep(self):
        config = {
            "video_results": "/nonexistent", "runs_dir": "/nonexistent", "batch_runs": 0,
            "video_experiments": ["ga-topo", "qomra", "calibrate"], "runs": 3, "video": 60,
            "max_clients": 5, "retries": 0, "video_overrides": {"calibrate": {"video": None}},
            "scheduler_experiments": [],
        }  # fmt: skip
        jobs = vf.FAMILY.jobs(config)
        for exp in config["video_experiments"]:
            video = [] if exp == "calibrate" else ["--video", "60"]
            out = self.runner_dry_run(
                vf.RUNNER, "--experiment", exp, "--runs", "3", *video,
                "--results", "/nonexistent",
            )  # fmt: skip
            want = {
                m.group(1): (set(m.group(2).split(", ")), int(m.group(3)))
                for m in re.finditer(r"^  (\S+): (.*) \((\d+) runs\)$", out, re.M)
            }
            got = {
                j.network: (set(j.cells), len(j.cells) * len(j.runs))
                for j in jobs
                if j.experiment == exp
            }
            self.assertEqual(got, want, exp)

    def test_scheduler_sweep(self):
        config = {
            "scheduler_results": "/nonexistent", "runs_dir": "/nonexistent", "batch_runs": 1,
            "scheduler_experiments": ["bnaware"], "scheduler_runs": 2,
            "scheduler_duration": 20, "scheduler_cells": None,
        }  # fmt: skip
        got = {(c, k) for j in sf.FAMILY.jobs(config) for c in j.cells for k in j.runs}
        out = self.runner_dry_run(
            sf.RUNNER, "--experiment", "bnaware", "--runs", "2", "--duration", "20",
            "--results", "/nonexistent",
        )  # fmt: skip
        want = set()
        for m in re.finditer(r"--cells (\S+) --runs (\S+)", out):
            want |= {(c, int(k)) for c in m.group(1).split(",") for k in m.group(2).split(",")}
        self.assertEqual(got, want)
        self.assertEqual(len(got), 28 * 2)  # 20 cells, and 8 of coupled controls

    def test_fairness_sweep(self):
        config = {
            "cc_results": "/nonexistent", "runs_dir": "/nonexistent", "batch_runs": 1,
            "cc_fairness": True, "cc_runs": 3, "cc_cells": "shared/*",
        }  # fmt: skip
        got = {(c, k) for j in ccf.FAMILY.jobs(config) for c in j.cells for k in j.runs}
        self.assertEqual(len(ccf.FAMILY.jobs(config)), len(got))
        out = self.runner_dry_run(
            ccf.RUNNER, "--runs", "3", "--data", "/nonexistent", "--only",
            ",".join(ccf.cells(config)),
        )  # fmt: skip
        want = {
            (f"{m.group(1)}/{m.group(2)}", int(m.group(3)))
            for m in re.finditer(r"^  (\S+) (\S+) \S+ (\d+)$", out, re.M)
        }
        self.assertEqual(got, want)
        self.assertEqual(len(got), 5 * 3)  # the shared case's 5 controls


class PcdcPlan(unittest.TestCase):
    """PCDC's jobs through Snakemake's dry run: per scenario and control a table job, then the
    run jobs that take its table; the plan's estimate; bad values; the driver's command line
    a job leads to (`make -n`); no report is run (the report's tests are pcdc/tests)."""

    CCS = ("cubic", "olia")

    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="mpqoe-workflow-")
        self.addCleanup(subprocess.run, ["rm", "-rf", self.tmp], check=False)

    def dry_run(self, *config):
        return dry_run(
            self.tmp, "video_experiments=[]", "scheduler_experiments=[]",
            f"pcdc_results={self.tmp}/pcdc", f"pcdc_publish={self.tmp}/pcdcpub",
            "pcdc_scenarios=[uib-hin]", "pcdc_runs=2", *config,
        )  # fmt: skip

    def copy(self, cc, name):
        return f"{self.tmp}/runs/pcdc/uib-hin/{cc}/{name}"

    def config(self, **kw):
        c = {"runs_dir": "/r", "pcdc_results": "/s", "pcdc_publish": "/p", "batch_runs": 0}
        c.update(video_results="/v", scheduler_results="/e", scheduler_duration=10)
        c.update(scheduler_runs=1, video_experiments=[], scheduler_experiments=[])
        c.update(pcdc_scenarios=["uib-unis"], pcdc_runs=10, pcdc_ccs=list(self.CCS))
        return {**c, **kw}

    def test_a_table_job_then_one_run_job_per_control(self):
        jobs = self.dry_run()
        names = {f"pcdc_uib_hin_rate1_{cc}_{x}" for cc in self.CCS for x in ("table", "r1_2")}
        self.assertEqual(set(jobs), names | {"publish_pcdc_uib_hin", "all"})
        make = f"make -C {REPO}/pcdc guest SCENARIO=uib-hin RUNS=2 CCS={{}} RATE_SCALE=1 "
        make += f"OUT={self.tmp}/pcdc NO_BUILD=1 TIMEOUT="
        for cc in self.CCS:
            table = jobs[f"pcdc_uib_hin_rate1_{cc}_table"]
            self.assertEqual(table["inputs"], [])
            self.assertEqual(table["outputs"], [self.copy(cc, "table.json")])
            self.assertIn(f"preflight.py pcdc {cc}\nrc=0; {make.format(cc)}", table["shell"])
            self.assertIn(" ARGS=--measure-only || rc=$?", table["shell"])
            src = f"{self.tmp}/pcdc/uib-hin/{cc}/table.json"
            self.assertIn(f"$rc {src} {self.copy(cc, 'table.json')}", table["shell"])
            runs = jobs[f"pcdc_uib_hin_rate1_{cc}_r1_2"]
            self.assertEqual(runs["inputs"], [self.copy(cc, "table.json")])
            self.assertEqual(set(runs["outputs"]), {self.copy(cc, f"run{k}.csv") for k in (1, 2)})
            self.assertIn(
                f"'ARGS=--only-runs 1,2 --table /results/uib-hin/{cc}/table.json'", runs["shell"]
            )
            pairs = " ".join(
                f"{self.tmp}/pcdc/uib-hin/{cc}/run{k} {self.copy(cc, f'run{k}.csv')}"
                for k in (1, 2)
            )
            self.assertTrue(runs["shell"].endswith(f"--runner-exit $rc {pairs}"), runs["shell"])
        publish = jobs["publish_pcdc_uib_hin"]
        self.assertEqual(
            set(publish["inputs"]),
            {self.copy(cc, f) for cc in self.CCS for f in ("table.json", "run1.csv", "run2.csv")},
        )
        data = f"{self.tmp}/pcdcpub/uib-hin/data"
        self.assertEqual(
            set(publish["outputs"]),
            {f"{data}/{f}" for f in ("cubic.csv", "cubic-table.json", "olia.csv",
                                     "olia-table.json", "scenario.json")},
        )  # fmt: skip
        self.assertEqual(
            publish["shell"],
            f"Shell command: {plan.PY} {REPO}/pcdc/pcdc_report.py --import {self.tmp}/pcdc/uib-hin "
            f"--rate-scale 1 --data {self.tmp}/pcdcpub",
        )

    def test_one_run_per_job_on_a_cluster_and_a_resumed_sweep(self):
        jobs = self.dry_run("batch_runs=1")
        runs = {n: j for n, j in jobs.items() if re.search(r"_r\d+$", n)}
        self.assertEqual(len(runs), 4)
        self.assertEqual(len([n for n in jobs if n.endswith("_table")]), 2)
        for cc in self.CCS:
            for k in (1, 2):
                j = runs[f"pcdc_uib_hin_rate1_{cc}_r{k}"]
                self.assertEqual(j["outputs"], [self.copy(cc, f"run{k}.csv")])
                self.assertEqual(j["inputs"], [self.copy(cc, "table.json")])
                self.assertIn(f"CCS={cc} ", j["shell"])
                self.assertIn(f"'ARGS=--only-runs {k} --table ", j["shell"])
        # cubic's table and its run 1 made: only the rest
        for f in (self.copy("cubic", "table.json"), self.copy("cubic", "run1.csv")):
            os.makedirs(os.path.dirname(f), exist_ok=True)
            with open(f, "w") as out:
                out.write("{}\n")
        jobs = self.dry_run("batch_runs=1")
        self.assertEqual(
            {n for n in jobs if n.startswith("pcdc_")},
            {"pcdc_uib_hin_rate1_olia_table", "pcdc_uib_hin_rate1_cubic_r2"}
            | {f"pcdc_uib_hin_rate1_olia_r{k}" for k in (1, 2)},
        )

    def test_a_rate_scale_has_directories_of_its_own(self):
        jobs = self.dry_run("pcdc_rate_scale={uib-hin: 0.5}", "pcdc_ccs=[cubic]")
        j = jobs["pcdc_uib_hin_rate0_5_cubic_r1_2"]
        self.assertIn(f"RATE_SCALE=0.5 OUT={self.tmp}/pcdc/rate-scale-0.5 ", j["shell"])
        self.assertIn(f"{self.tmp}/runs/pcdc/rate-scale-0.5/uib-hin/cubic/run1.csv", j["outputs"])
        self.assertIn(
            f"--import {self.tmp}/pcdc/rate-scale-0.5/uib-hin --rate-scale 0.5",
            jobs["publish_pcdc_uib_hin"]["shell"],
        )

    def test_the_pages_follow_the_data(self):
        jobs = self.dry_run("reports=true", f"pcdc_publish={REPO}/docs/results/pcdc")
        pages = [f"{REPO}/docs/results/pcdc-uib-hin.md"]
        pages += [f"{REPO}/docs/results/pcdc/uib-hin/figures/{t}.png" for t in ("bulk", "small")]
        self.assertEqual(jobs["report_pcdc"]["outputs"], pages)
        self.assertEqual(
            jobs["report_pcdc"]["shell"], f"Shell command: {plan.PY} -m mpqoe.report pcdc"
        )
        # data published elsewhere: no page of docs/results from them
        self.assertNotIn("report_pcdc", self.dry_run("reports=true"))

    def test_the_estimate(self):
        # a table: 4 pairs x 10 samples x (2 s warm-up + 2 x 10 s + 1 s settle + 0.4 s) = 936 s;
        # a run: 2 modes x (120 s bulk + 6 s) = 252 s; a guest boot 90 s
        c = self.config()
        self.assertEqual(sorted(j.estimate_s for j in pcf.FAMILY.jobs(c)), [1026] * 2 + [2610] * 2)
        self.assertEqual(plan.summary(c), {"jobs": 4, "runs": 20, "hours": 2.0})  # 7272 s
        # on a cluster: 20 run jobs of 90 + 252 s, 8892 s in all
        self.assertEqual(plan.summary({**c, "batch_runs": 1}), {"jobs": 22, "runs": 20,
                                                                "hours": 2.5})  # fmt: skip
        # uib-hin: 6 pairs, a table 1404 s
        hin = pcf.FAMILY.jobs(self.config(pcdc_scenarios=["uib-hin"], pcdc_ccs=["olia"]))
        self.assertEqual([j.estimate_s for j in hin], [1494, 2610])
        # the guest's limit: 5 min inside the job's, int(1026 x 1.5 / 60) + 10 = 35 min
        self.assertEqual(pcf.FAMILY.jobs(c)[0].runtime_min(), 35)
        self.assertIn("TIMEOUT=1800", pcf.FAMILY.jobs(c)[0].argv)
        # it follows the driver's defaults
        with (
            mock.patch.object(pcx, "SAMPLES", 5),
            mock.patch.object(pcx, "BULK_SECONDS", 60.0),
        ):
            self.assertEqual(pcf.table_s(4), 468)
            self.assertEqual(pcf.run_s(), 132)

    def test_bad_values_are_one_clear_line(self):
        r = subprocess.run(
            [SNAKEMAKE, "-s", os.path.join(HERE, "Snakefile"), "-d", self.tmp, "-n",
             "--config", "pcdc_scenarios=[uib-hin]", "pcdc_rate_scale=0"],
            capture_output=True, text=True, timeout=300, check=False,
        )  # fmt: skip
        self.assertNotEqual(r.returncode, 0)
        lines = [ln for ln in (r.stdout + r.stderr).splitlines() if "workflow config:" in ln]
        self.assertEqual(
            lines, ["workflow config: pcdc_rate_scale: want a positive number, got 0"], r.stderr
        )
        for kw, want in (
            ({"pcdc_scenarios": ["nope"]}, "pcdc_scenarios: unknown scenario 'nope' (one of "),
            ({"pcdc_scenarios": "uib-hin"}, "pcdc_scenarios: want a list of scenarios"),
            ({"pcdc_scenarios": ["uib-hin"] * 2}, "pcdc_scenarios: uib-hin twice"),
            ({"pcdc_rate_scale": "fast"}, "pcdc_rate_scale: want a positive number, got 'fast'"),
            ({"pcdc_rate_scale": -1}, "pcdc_rate_scale: want a positive number, got -1"),
            ({"pcdc_rate_scale": {"uib-hn": 0.1}}, "pcdc_rate_scale: unknown scenario 'uib-hn'"),
            ({"pcdc_rate_scale": 1e-9}, "pcdc_scenarios: "),  # the scenario's rates
            ({"pcdc_ccs": []}, "pcdc_ccs: want a list of congestion controls"),
            ({"pcdc_ccs": ["cu bic"]}, "pcdc_ccs: want a list of congestion controls"),
            ({"pcdc_runs": 0}, "pcdc_runs: want 1..100, got 0"),
            ({"pcdc_runs": "ten"}, "pcdc_runs: want 1..100, got 'ten'"),
        ):
            with self.subTest(kw), self.assertRaises(plan.ConfigError) as e:
                plan.jobs(self.config(**kw))
            self.assertTrue(str(e.exception).startswith(want), str(e.exception))
            self.assertEqual(len(str(e.exception).splitlines()), 1)

    def test_a_job_leads_to_the_drivers_command_line(self):
        # runs 1-2 and 3 in jobs of 2 runs; 3's estimate 90 + 252 s, its limit 18 min
        c = self.config(pcdc_scenarios=["uib-hin"], pcdc_runs=3, batch_runs=2)
        job = next(j for j in pcf.FAMILY.jobs(c) if j.runs == (3,) and j.cells == ("olia",))
        r = subprocess.run(["make", "-n", *job.argv], capture_output=True, text=True, check=True)
        recipe = r.stdout.replace("\\\n", " ")
        self.assertIn("../testbed/run --timeout 780 --no-build --results /s ", recipe)
        self.assertNotIn("kernel-schedulers", recipe)  # NO_BUILD: nothing built in a job
        cmd = shlex.split(recipe.split("python3 -m mpqoe.pcdc.experiment", 1)[1].splitlines()[0])
        want = "--scenario pcdc/scenarios/uib-hin.json --out /results/uib-hin --runs 3 --cc olia"
        want += " --rate-scale 1 --only-runs 3 --table /results/uib-hin/olia/table.json"
        self.assertEqual(cmd, want.split())
        # what the driver makes of it (the store as the guest sees it, /results, made here)
        table = os.path.join(self.tmp, "uib-hin", "olia", "table.json")
        os.makedirs(os.path.dirname(table))
        open(table, "w").close()
        argv = [x.replace("/results", self.tmp) for x in cmd]
        argv[1] = os.path.join(REPO, argv[1])
        a = pcx.parse_args(argv)
        self.assertEqual((a.run_list, a.cc, a.table, a.measure_only), ([3], ["olia"], table, False))
        measure = next(j for j in pcf.FAMILY.jobs(c) if not j.runs)
        self.assertEqual(measure.argv[-1], "ARGS=--measure-only")


class PcdcCollect(unittest.TestCase):
    """collect.py on the PCDC driver's output: a run's four result files become one run file,
    a run that lacks one or mixes code versions none; a table is copied when every pair has
    a sample."""

    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="mpqoe-workflow-")
        self.addCleanup(subprocess.run, ["rm", "-rf", self.tmp], check=False)
        self.store = os.path.join(self.tmp, "pcdc", "uib-hin")

    def put_run(self, cc, k, skip=(), versions=None):
        """The driver's four result files of run k (but those of skip), every row of code
        version 0123abcd but those of versions {(mode, test): version}; their rows."""
        rows = []
        for path in pcx.run_paths(self.store, cc, k):
            pm, test = path.split(os.sep)[-3:-1]
            if (pm, test) in skip:
                continue
            sizes = [None] if test == "bulk" else [131072, 262144]
            version = (versions or {}).get((pm, test), "0123abcd")
            mine = [
                {**dict.fromkeys(pcx.COLUMNS, "1"), "experiment": "pcdc", "cc": cc,
                 "pm": pm, "test": test, "size_bytes": "" if s is None else str(s),
                 "run": str(k), "pairs": "10.0.0.1>10.0.1.2", "status": "ok",
                 "code_version": version, "started": "2026-11-24T16:41:31Z"}
                for s in sizes
            ]  # fmt: skip
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "w") as f:
                f.write(pcx.results.csv_text(mine, pcx.COLUMNS))
            rows += mine
        return rows

    def put_table(self, cc, omegas):
        doc = {"schema": "pcdc-impact/1", "cc": cc, "T_s": 10.0, "pairs": [
            {"local": "10.77.1.1", "remote": f"10.77.10{i}.2", "omega": om, "rtt_ms": [30.0],
             "errors": []} for i, om in enumerate(omegas, 1)]}  # fmt: skip
        path = pcx.table_path(self.store, cc)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as f:
            json.dump(doc, f)
        return path

    def test_runs_and_tables(self):
        rows = self.put_run("cubic", 1)
        self.put_run("cubic", 2, skip={("fullmesh", "small")})
        self.put_run("olia", 1, versions={("fullmesh", "bulk"): "fedcba98"})
        good, bad = (
            self.put_table("cubic", [[0.5], [0.1, 0.2]]),
            self.put_table("olia", [[0.5], []]),
        )
        out = os.path.join(self.tmp, "runs")
        args = []
        for cc, k in (("cubic", 1), ("cubic", 2), ("olia", 1)):
            args += [pcf.run_source(self.store, cc, k), f"{out}/{cc}/run{k}.csv"]
        args += [good, f"{out}/cubic/table.json", bad, f"{out}/olia/table.json"]
        r = subprocess.run(
            [plan.PY, os.path.join(HERE, "collect.py"), "--runner-exit", "1", *args],
            capture_output=True, text=True, timeout=60, check=False,
        )  # fmt: skip
        self.assertEqual(r.returncode, 1, r.stderr)
        lines = r.stderr.strip().splitlines()
        self.assertEqual(len(lines), 3, r.stderr)
        self.assertIn("uib-hin/cubic/run2: missing fullmesh/small/run2.csv", lines[0])
        self.assertIn("uib-hin/olia/run1: code versions ['0123abcd', 'fedcba98']", lines[1])
        self.assertIn("olia/table.json: table not complete (no sample of 10.77.1.1 -> 10.77.102.2",
                      lines[2])  # fmt: skip
        self.assertIn("workflow: 2 of 5 runs ok (runner exit 1)", r.stdout)
        self.assertEqual(
            sorted(
                os.path.relpath(os.path.join(d, f), out) for d, _s, fs in os.walk(out) for f in fs
            ),
            ["cubic/run1.csv", "cubic/table.json"],
        )
        with open(f"{out}/cubic/run1.csv", newline="") as f:
            self.assertEqual(list(csv.DictReader(f)), rows)  # every row of the four, in order
        with open(f"{out}/cubic/table.json") as f, open(good) as g:
            self.assertEqual(f.read(), g.read())


class PcdcExecution(unittest.TestCase):
    """PCDC's import through the workflow for real: a store as the driver leaves it (the PCDC
    report's own fixture), the run files its jobs' last step makes of it, then Snakemake runs
    the publish rule alone, whose command is pcdc/pcdc_report.py --import: the data it declares are
    the data the report writes, and they agree with the store."""

    def test_the_publish_rule_imports_the_store(self):
        tmp = tempfile.mkdtemp(prefix="mpqoe-workflow-")
        self.addCleanup(subprocess.run, ["rm", "-rf", tmp], check=False)
        store, pub = f"{tmp}/pcdc", f"{tmp}/pub"
        # the PCDC report's hand-made driver output (pcdc/tests/test_pcdc_report.py)
        subprocess.run([plan.PY, "-c", "from tests.test_pcdc_report import write_output; "
                        f"write_output({store!r}, runs=2, ccs=('cubic',))"],
                       cwd=pcf.PCDC, check=True)  # fmt: skip
        conf = {
            "runs_dir": f"{tmp}/runs", "pcdc_results": store, "pcdc_publish": pub,
            "batch_runs": 0, "pcdc_scenarios": ["uib-unis"], "pcdc_runs": 2,
            "pcdc_ccs": ["cubic"],
        }  # fmt: skip
        copies = [c for j in pcf.FAMILY.jobs(conf) for c in j.copies()]
        self.assertEqual(len(copies), 3)  # the table and two runs
        r = subprocess.run(
            [plan.PY, os.path.join(HERE, "collect.py"), "--runner-exit", "0",
             *[x for c in copies for x in c]],
            capture_output=True, text=True, timeout=60, check=False,
        )  # fmt: skip
        self.assertEqual(r.returncode, 0, r.stderr)
        r = subprocess.run(
            [SNAKEMAKE, "-s", os.path.join(HERE, "Snakefile"), "-d", f"{tmp}/wd", "--cores", "1",
             "--allowed-rules", "publish_pcdc_uib_unis", "--config", "video_experiments=[]",
             *[f"{k}={json.dumps(v)}" for k, v in conf.items()], "--",
             "publish_pcdc_uib_unis"],
            capture_output=True, text=True, timeout=300, check=False, cwd=REPO,
        )  # fmt: skip
        self.assertEqual(r.returncode, 0, (r.stdout + r.stderr)[-3000:])
        data = os.path.join(pub, "uib-unis", "data")
        self.assertEqual(
            sorted(os.listdir(data)), ["cubic-table.json", "cubic.csv", "scenario.json"]
        )
        with open(os.path.join(data, "cubic.csv"), newline="") as f:
            rows = list(csv.DictReader(f))
        self.assertEqual(len(rows), 2 * 2 * (1 + len(pcx.SIZES_KIB)))  # runs x modes x tests
        self.assertEqual({r["code_version"] for r in rows}, {"0123456789ab"})


class JobRetries(unittest.TestCase):
    def test_whole_numbers_only(self):
        self.assertEqual(plan.job_retries({}), 1)
        self.assertEqual(plan.job_retries({"job_retries": 0}), 0)
        for v in (-1, 1.5, "2", True, None):
            with self.subTest(v), self.assertRaises(plan.ConfigError) as e:
                plan.job_retries({"job_retries": v})
            self.assertEqual(str(e.exception), f"job_retries: want a whole number >= 0, got {v!r}")


class CostTable(unittest.TestCase):
    """docs/workflow.md's cost block is what cost.py computes from the plan (run with the
    workflow's Python, which has PyYAML for config.yaml)."""

    PAGE = os.path.join(REPO, "docs", "workflow.md")

    def cost(self, *args):
        return subprocess.run(
            [os.path.join(VENV, "bin", "python"), os.path.join(HERE, "cost.py"), *args],
            capture_output=True, text=True, timeout=120, check=False,
        )  # fmt: skip

    def test_the_page_holds_the_plans_table(self):
        r = self.cost("--check", self.PAGE)
        self.assertEqual(r.returncode, 0, r.stderr)
        printed = self.cost()
        with open(self.PAGE) as f:
            self.assertIn(printed.stdout, f.read())
        # the default sweep's row carries plan.summary's own figures
        self.assertIn("| 518 | 42 jobs, about 43 h |", printed.stdout)

    def test_a_stale_table_is_found_and_rewritten(self):
        with open(self.PAGE) as f:
            page = f.read()
        stale = page.replace("| 590 | 11 jobs, about 3.3 h |", "| 590 | 11 jobs, about 85 min |")
        self.assertNotEqual(stale, page)
        with tempfile.NamedTemporaryFile("w", suffix=".md", delete=False) as f:
            f.write(stale)
        self.addCleanup(os.unlink, f.name)
        r = self.cost("--check", f.name)
        self.assertEqual(r.returncode, 1)
        self.assertIn("the cost table is not the plan's", r.stderr)
        self.assertEqual(self.cost("--write", f.name).returncode, 0)
        with open(f.name) as g:
            self.assertEqual(g.read(), page)

    def test_a_page_without_markers_is_one_line_and_left_alone(self):
        with tempfile.NamedTemporaryFile("w", suffix=".md", delete=False) as f:
            f.write("no table here\n")
        self.addCleanup(os.unlink, f.name)
        r = self.cost("--write", f.name)
        self.assertEqual(r.returncode, 1)
        self.assertIn("no table between", r.stderr)
        with open(f.name) as g:
            self.assertEqual(g.read(), "no table here\n")

    def test_figures(self):
        self.assertEqual(cost.duration(1545), "about 26 min")
        self.assertEqual(cost.duration(90 * 60), "about 1.5 h")
        self.assertEqual(cost.duration(17.54 * 3600), "about 17.5 h")
        self.assertEqual(cost.duration(20.8 * 3600), "about 21 h")
        self.assertEqual(cost.per_job([108, 108]), "1.8 min")
        self.assertEqual(cost.per_job([216, 720]), "3.6-12 min")

    def test_the_pcdc_constants_are_what_the_committed_runs_took(self):
        t = cost.pcdc_timing()
        self.assertEqual(t["runs"], {"cubic": 10, "olia": 10})
        self.assertEqual(round(t["mode_extra_s"]), pcf.MODE_EXTRA_S)
        self.assertEqual(round(t["sample_extra_s"], 1), pcf.SAMPLE_EXTRA_S)

    def test_pcdc_timing_of_hand_made_runs(self):
        root = tempfile.mkdtemp(prefix="mpqoe-cost-")
        self.addCleanup(subprocess.run, ["rm", "-rf", root], check=False)
        data = pcx.published(root, "uib-unis").data
        os.makedirs(data)
        # cubic: runs 1-3 start 250 and 260 s apart (a run's rows: its first row's start), its
        # last row ends at 12:10:10.5; olia's table is stamped 800.5 s later
        rows = {
            "cubic": [(1, "12:00:00", 120), (1, "12:02:00", 1), (2, "12:04:10", 120),
                      (3, "12:08:30", 99), (3, "12:10:10", 0.5)],
            "olia": [(1, "12:30:00", 120), (2, "12:34:00", 120)],
        }  # fmt: skip
        for cc, rs in rows.items():
            with open(pcx.published_rows(data, cc), "w") as f:
                f.write("cc,run,seconds,started\n")
                f.writelines(f"{cc},{k},{sec},2026-01-01T{hms}Z\n" for k, hms, sec in rs)
        with open(pcx.published_table(data, "olia"), "w") as f:
            json.dump({"created": "2026-01-01T12:23:31Z"}, f)
        t = cost.pcdc_timing(root)
        self.assertEqual(t["runs"], {"cubic": 3, "olia": 2})
        self.assertEqual(t["spacing"], {"cubic": 255.0, "olia": 240.0})
        self.assertAlmostEqual(t["table_s"], 800.5)
        self.assertEqual(t["samples"], 40)  # uib-unis: 4 pairs x 10
        # a run (255 + 240) / 2 = 247.5 s over 2 modes, less 120 s bulk each; a sample
        # 800.5 s / 40 less its windows, 2 + 2 x 10 + 1 s
        self.assertAlmostEqual(t["mode_extra_s"], 3.75)
        self.assertAlmostEqual(t["sample_extra_s"], -2.9875)
        text = cost.pcdc_sentence(t)
        self.assertIn("3 runs of cubic and 2 runs of olia in one guest", text)
        self.assertIn("3.8 s a mode beyond its 120 s bulk transfer", text)

    def test_slurm_test_settings_come_from_its_script(self):
        got = cost.slurm_test_settings()
        self.assertEqual(got["CELLS"], CELLS)
        with tempfile.NamedTemporaryFile("w", suffix=".sh", delete=False) as f:
            f.write("EXP=sticky\nRUNS=2\n")
        self.addCleanup(os.unlink, f.name)
        with self.assertRaises(ValueError) as e:
            cost.slurm_test_settings(f.name)
        self.assertIn("no CELLS= line", str(e.exception))


if __name__ == "__main__":
    unittest.main()
