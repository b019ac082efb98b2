"""The coupled congestion controls' fairness experiment (kernel-schedulers/cc-fairness/cc_run.py)
as a campaign family (mpqoe.campaign).

Cells: mpqoe.cc_fairness's CELLS, `<case>/<algo>`, all in one network; a run's record is its
CSV row, <data>/<case>_<algo>_run<k>.csv, written only when the guest's checks passed; the
published rows are those CSVs, copied as they are into docs/results/cc/data.
"""

import csv
import fnmatch
import os
import re

from mpqoe import REPO
from mpqoe import campaign as cp
from mpqoe import cc_fairness as ccx
from mpqoe.runs import chunks

EXPERIMENT = "fairness"
RUNNER = os.path.join(REPO, "kernel-schedulers", "cc-fairness", "cc_run.py")
DATA = os.path.join(REPO, "docs", "results", "cc", "data")
# cc-fairness/README.md: a run about 33 s of guest time (its 30 s transfer and the checks), the
# busybox guest's boot and initramfs a minute at most
BOOT_S, PER_RUN_S = 60, 33
COLLECT = os.path.join(REPO, "workflow", "collect.py")


def cells(config):
    """The cells (case/algo) the sweep makes: every one of CELLS, or those config cc_cells
    names (comma-separated shell patterns)."""
    names = [f"{case}/{algo}" for case, algo, _tcp in ccx.CELLS]
    pats = [p.strip() for p in (config.get("cc_cells") or "").split(",") if p.strip()]
    return [n for n in names if not pats or any(fnmatch.fnmatchcase(n, p) for p in pats)]


def csv_incomplete(path):
    """Why a run CSV (one row, written only when the guest's checks passed) is not complete,
    or None; "missing" when it is not there."""
    try:
        with open(path, newline="") as f:
            rows = list(csv.DictReader(f))
    except OSError:
        return "missing"
    if len(rows) != 1:
        return f"{len(rows)} rows, want 1"
    empty = [k for k in ccx.COLUMNS if k != "tcp_mbps" and not rows[0].get(k)]
    return f"ok but incomplete (no {', '.join(empty)})" if empty else None


class Fairness(cp.Family):
    kind = "cc"
    runner = RUNNER
    report_cmd = f"{cp.PY} -m mpqoe.report cc"

    def jobs(self, config):
        if str(config.get("cc_fairness")).lower() not in ("true", "1", "yes"):
            return []
        store, runs_dir = cp.path(config, "cc_results"), cp.path(config, "runs_dir")
        runs = int(config["cc_runs"])
        names = cells(config)
        if not names:
            raise cp.ConfigError(f"cc_cells: {config.get('cc_cells')!r} matches no cell")
        jobs = []
        for cs, ks in chunks(names, list(range(1, runs + 1)), int(config["batch_runs"])):
            argv = [RUNNER, "--runs", str(runs), "--data", store, "--only", ",".join(cs)]
            argv += ["--only-runs", ",".join(map(str, ks))]
            est = BOOT_S + PER_RUN_S * len(cs) * len(ks)
            out = os.path.join(runs_dir, "cc")
            jobs.append(cp.Job("cc", EXPERIMENT, "cc", cs, ks, store, out, tuple(argv), est))
        return jobs

    def copies(self, job):
        out = []
        for cell in job.cells:
            case, algo = cell.split("/")
            for k in job.runs:
                dst = os.path.join(job.out_dir, job.experiment, f"{case}_{algo}", f"run{k}.csv")
                out.append((ccx.run_path(job.store, case, algo, k), dst))
        return out

    def owns(self, src):
        return src.endswith(".csv")

    def check(self, src):
        return csv_incomplete(src), None

    def publications(self, config):
        """The committed data are the run files themselves, one CSV per run, copied to config
        cc_publish (docs/results/cc/data, what its report reads) through collect.py."""
        copies = []
        for j in self.jobs(config):
            for _src, run_file in j.copies():
                cell = os.path.basename(os.path.dirname(run_file))
                k = int(re.fullmatch(r"run(\d+)\.csv", os.path.basename(run_file)).group(1))
                case, algo = cell.split("_", 1)
                copies.append(
                    (run_file, ccx.run_path(cp.path(config, "cc_publish"), case, algo, k))
                )
        if not copies:
            return []
        cmd = f"{cp.PY} {COLLECT} --family cc " + " ".join(f"{s} {d}" for s, d in copies)
        return [cp.Publication("cc", EXPERIMENT, cmd, tuple(d for _s, d in copies))]

    def pages(self, config):
        return [os.path.join(REPO, "docs", "results", "cc.md")]

    def reported(self, config):
        return cp.path(config, "cc_publish") == DATA


FAMILY = Fairness()
