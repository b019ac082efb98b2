"""The video experiments (testbed/video/video_run.py) as a campaign family (mpqoe.campaign).

Cells: mpqoe.video_matrix's, a batch (one network) each; a run's record is
RESULTS/<experiment>/<cell>/run<k>/run.json (RUN_SCHEMA), ok when its checks passed; the
published rows are mpqoe.video_record's tables.
"""

import os
import shlex

from mpqoe import REPO
from mpqoe import campaign as cp
from mpqoe import video_matrix as vmx
from mpqoe import video_record as vrec
from mpqoe.runs import chunks

RUN_SCHEMA = "mpqoe-video-run/1"
RUNNER = os.path.join(REPO, "testbed", "video", "video_run.py")
# The runner's estimate of machine time: a guest boot with the network, and per run the video
# plus start-up and records, which grow with the clients (measured here, 120 s videos: 1.5 min a
# run with 5 clients on CompuServe, 2 min on Custom12 and Jellyfish; 60 s videos: 20 s with
# the delay sweep's one client).
BOOT_S, RUN_BASE_S, RUN_PER_CLIENT_S = 150, 20, 20
RESULTS = os.path.join(REPO, "docs", "results")


def run_s(batch):
    """Machine time of one run of a batch: its video, the joins, start-up and records."""
    per = batch.video_s + vmx.JOIN_INTERVAL_S * (batch.clients - 1)
    return per + RUN_BASE_S + RUN_PER_CLIENT_S * batch.clients


def run_dir(results, experiment, cell, k):
    return os.path.join(results, experiment, cell, f"run{k}")


def run_record(results, experiment, cell, k):
    return os.path.join(run_dir(results, experiment, cell, k), "run.json")


def incomplete(doc):
    """Why an ok run document is not complete, or None."""
    lacks = cp.run_doc_lacks(doc, RUN_SCHEMA)
    if lacks:
        return lacks
    if not doc.get("clients"):
        return "no clients"
    bad = [k for k, ok in (doc.get("checks") or {}).items() if not ok]
    if not doc.get("checks") or bad:
        return f"checks not passed: {'; '.join(bad) or 'none recorded'}"
    return None


def check_doc(src):
    """(why the run document at src is not done or None, None): collect copies it as it is."""
    return cp.check_run_doc(src, incomplete)


class Video(cp.Family):
    kind = "video"
    runner = RUNNER
    report_cmd = f"{cp.PY} -m mpqoe.report video"

    def plan(self, config):
        """[(experiment, runs, video, [(batch, cells)])] of config's video sweep."""
        out = []
        for exp in config.get("video_experiments") or []:
            if exp not in vmx.EXPERIMENTS:
                raise cp.ConfigError(f"video_experiments: unknown experiment {exp!r}")
            o = {**(config.get("video_overrides") or {}).get(exp, {})}
            runs = int(o.get("runs", vmx.design_runs(exp) or config["runs"]))
            video = o.get("video", config["video"])
            plan = vmx.experiment_plan(exp, float(video) if video else None)
            plan = vmx.select(plan, config.get("video_cells"))
            plan, _big = vmx.limit_clients(plan, exp, int(config["max_clients"]))
            out.append((exp, runs, video, plan))
        return out

    def argv(self, config, exp, runs, video):
        store = cp.path(config, "video_results")
        argv = [RUNNER, "--experiment", exp, "--runs", str(runs)]
        argv += ["--video", f"{float(video):g}"] if video else []
        argv += ["--max-clients", str(config["max_clients"])]
        return argv + ["--retries", str(config["retries"]), "--results", store]

    def jobs(self, config):
        jobs = []
        store, runs_dir = cp.path(config, "video_results"), cp.path(config, "runs_dir")
        for exp, runs, video, plan in self.plan(config):
            for b, cells in plan:
                names = [c.name for c in cells]
                size = int(config["batch_runs"])
                # a batch makes its own runs of its cells (a link draw of a design, or all)
                for cs, ks in chunks(names, b.runs(range(1, runs + 1)), size):
                    argv = self.argv(config, exp, runs, video)
                    argv += ["--cells", ",".join(cs), "--only-runs", ",".join(map(str, ks))]
                    est = BOOT_S + run_s(b) * len(cs) * len(ks)
                    out = os.path.join(runs_dir, "video")
                    jobs.append(cp.Job("video", exp, b.name, cs, ks, store, out, tuple(argv), est))
        return jobs

    def copies(self, job):
        return [
            (run_record(job.store, job.experiment, cell, k),
             os.path.join(job.out_dir, job.experiment, cell, f"run{k}.json"))
            for cell in job.cells
            for k in job.runs
        ]  # fmt: skip

    def owns(self, src):
        return src.endswith(os.sep + "run.json")

    def check(self, src):
        return check_doc(src)

    def publications(self, config):
        """The runner's --publish-only for each experiment and the tables it writes."""
        out = []
        for exp, runs, video, _plan in self.plan(config):
            argv = self.argv(config, exp, runs, video) + ["--publish-only"]
            if config.get("video_cells"):
                argv += ["--cells", config["video_cells"]]
            tables = tuple(vrec.published(exp, RESULTS).values())
            out.append(cp.Publication("video", exp, shlex.join([cp.PY, *argv]), tables))
        return out

    def pages(self, config):
        return [os.path.join(RESULTS, p) for p in ("ga-paper.md", "qomra-paper.md")]


FAMILY = Video()
