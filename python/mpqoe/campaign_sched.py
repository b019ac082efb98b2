"""The scheduler papers' experiments (testbed/experiments/sched_run.py) as a campaign family
(mpqoe.campaign).

Cells: mpqoe.sched_matrix's `<scenario>.<scheduler>.<cc>`, a scenario (at one video length)
being one network; a run's record is RESULTS/<experiment>/<cell>/run<k>.json (RUN_SCHEMA,
written in the guest by cellrun.py); the published rows are mpqoe.sched_publish's runs.csv
and paths.csv.
"""

import os
import shlex

from mpqoe import REPO, files
from mpqoe import campaign as cp
from mpqoe import sched_matrix as smx
from mpqoe.runs import chunks

RUN_SCHEMA = "mpqoe-experiment-run/1"
RUNNER = os.path.join(REPO, "testbed", "experiments", "sched_run.py")
RESULTS = os.path.join(REPO, "docs", "results")


def incomplete(doc):
    """Why an ok run document is not complete (what the report reads), or None."""
    lacks = cp.run_doc_lacks(doc, RUN_SCHEMA)
    if lacks:
        return lacks
    from mpqoe import sched_publish as publish  # noqa: PLC0415

    row = publish.run_row(doc)
    missing = [k for k in ("subflows",) if not row.get(k)]
    # 0 underflows is a result
    missing += [k for k in ("thr_mean_mbps", "underflows") if row.get(k) is None]
    if missing:
        return f"no {', '.join(missing)} in its probe record"
    return None


def lengths(config, cells):
    """{video length s: [cells]}: config's scheduler_duration, or each cell's planned one."""
    d = config["scheduler_duration"]
    if d == "planned":
        out = {}
        for c in cells:
            out.setdefault(smx.planned_duration(c), []).append(c)
        return out
    return {float(d): list(cells)}


class Scheduler(cp.Family):
    kind = "scheduler"
    runner = RUNNER
    report_cmd = f"{cp.PY} -m mpqoe.report scheduler"

    def jobs(self, config):
        jobs = []
        store, runs_dir = cp.path(config, "scheduler_results"), cp.path(config, "runs_dir")
        planned = config["scheduler_duration"] == "planned"
        runs = int(config["scheduler_runs"])
        for exp in config.get("scheduler_experiments") or []:
            if exp not in smx.EXPERIMENTS:
                raise cp.ConfigError(f"scheduler_experiments: unknown experiment {exp!r}")
            selected = smx.select(exp, config.get("scheduler_cells"))
            for length, cells in sorted(lengths(config, selected).items(), reverse=True):
                # --planned's layout: one store per length (testbed/experiments/sched_run.py)
                sub = f"{length:g}s" if planned else ""
                st = os.path.join(store, sub) if sub else store
                out = os.path.join(runs_dir, "scheduler", sub) if sub else runs_dir + "/scheduler"
                for scn in smx.SCENARIOS:
                    names = [c.name for c in cells if c.scenario == scn]
                    if not names:
                        continue
                    network = f"{scn}.{length:g}s"
                    size = int(config["batch_runs"])
                    for cs, ks in chunks(names, list(range(1, runs + 1)), size):
                        argv = [RUNNER, "--experiment", exp, "--runs", str(runs)]
                        argv += ["--duration", f"{length:g}", "--results", st, "--no-build"]
                        argv += ["--cells", ",".join(cs), "--only-runs", ",".join(map(str, ks))]
                        todo = {(c, k) for c in cs for k in ks}
                        job = [c for c in cells if c.name in cs]
                        est = smx.estimate_s(smx.batches(job, todo), todo, length)
                        jobs.append(
                            cp.Job("scheduler", exp, network, cs, ks, st, out, tuple(argv), est)
                        )
        return jobs

    def copies(self, job):
        return [
            (os.path.join(job.store, job.experiment, cell, f"run{k}.json"),
             os.path.join(job.out_dir, job.experiment, cell, f"run{k}.json"))
            for cell in job.cells
            for k in job.runs
        ]  # fmt: skip

    def owns(self, src):
        doc = files.read_json(src) if src.endswith(".json") else None
        return bool(doc) and cp.same_schema(doc.get("schema"), RUN_SCHEMA)

    def check(self, src):
        return cp.check_run_doc(src, incomplete)

    def preflight_args(self, job):
        return " ".join(["scheduler", *sorted({c.split(".")[1] for c in job.cells})])

    def publications(self, config):
        """The runner's --publish-only for each experiment (once per video length) and the
        tables it writes."""
        dest = cp.path(config, "publish")
        jobs = self.jobs(config)
        out = []
        for exp in dict.fromkeys(j.experiment for j in jobs):
            cmds = []
            for st in sorted({j.store for j in jobs if j.experiment == exp}):
                argv = [RUNNER, "--experiment", exp, "--runs", str(config["scheduler_runs"])]
                argv += ["--results", st, "--publish", dest, "--publish-only"]
                if config.get("scheduler_cells"):
                    argv += ["--cells", config["scheduler_cells"]]
                cmds.append(shlex.join([cp.PY, *argv]))
            tables = tuple(os.path.join(dest, exp, "data", f) for f in ("runs.csv", "paths.csv"))
            out.append(cp.Publication("scheduler", exp, " && ".join(cmds), tables))
        return out

    def pages(self, config):
        pages = ("scheduler-papers.md", "scheduler-round1.md", "scheduler-regenerate.md")
        return [os.path.join(RESULTS, p) for p in pages]

    def reported(self, config):
        return cp.path(config, "publish") == RESULTS


FAMILY = Scheduler()
