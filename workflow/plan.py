"""The workflow's jobs (workflow/Snakefile), planned through the campaign interface.

Every experiment family is a `mpqoe.campaign.Family` (mpqoe.campaign_video, campaign_sched,
campaign_cc, campaign_pcdc); this module only goes through `mpqoe.campaign.families()`, the same
calls for each: its jobs, their run files, its publish steps and its report. A job is what one
rule of the Snakefile makes: some runs of one network (a video batch, a scheduler scenario at one
video length, the fairness network, a PCDC scenario's control), made by the runner that makes
them by hand with --cells and --only-runs (PCDC: a job of its own measures each control's
impact-factor table first). Its outputs are one file per run under RUNS_DIR/<kind>/, a copy of
the runner's run record, written only once that run is ok and complete (workflow/collect.py,
the family's `check`). The runners keep their own resumable stores (their --results), so a run
that failed leaves no output and the ok runs of the same job are not made again when the job is.

config["batch_runs"] sets the jobs' size: 0 makes one job per network with every run of it
(one guest boot for all; the default on one machine, where a boot costs 40-90 s), N splits a
network's runs into jobs of at most N runs (1 on a cluster: one job per run, each on its own
node). Stdlib only: the Snakefile and the unit test import it.
"""

from mpqoe import REPO  # noqa: F401 - the Snakefile's and the tests' repository
from mpqoe import campaign as cp
from mpqoe.campaign import PY, ConfigError, Job, path, time_limit_min  # noqa: F401


def jobs(config):
    """Every family's jobs, in the order of mpqoe.campaign.families()."""
    out = [j for fam in cp.families() for j in fam.jobs(config)]
    names = [j.name for j in out]
    dup = {n for n in names if names.count(n) > 1}
    if dup:
        raise ConfigError(f"two jobs named {sorted(dup)[0]}")
    return out


def publications(config, js=None):
    """The publish steps (mpqoe.campaign.Publication) of every experiment that has jobs, each
    family's sorted by experiment."""
    planned = {(j.kind, j.experiment) for j in (jobs(config) if js is None else js)}
    out = []
    for fam in cp.families():
        steps = [p for p in fam.publications(config) if (p.kind, p.experiment) in planned]
        out += sorted(steps, key=lambda p: p.experiment)
    return out


def reports(config, pubs):
    """{kind: (the pages its report renders, the command)} of the families whose report the
    workflow renders: config reports, tables published, and published where the templates are."""
    if str(config.get("reports")).lower() not in ("true", "1", "yes"):
        return {}
    out = {}
    for fam in cp.families():
        if any(p.kind == fam.kind for p in pubs) and fam.reported(config):
            out[fam.kind] = (fam.pages(config), fam.report_cmd)
    return out


def job_retries(config):
    """config job_retries: how often a failed run job is submitted again (a whole number >= 0;
    absent: 1)."""
    v = config.get("job_retries", 1)
    if isinstance(v, bool) or not isinstance(v, int) or v < 0:
        raise ConfigError(f"job_retries: want a whole number >= 0, got {v!r}")
    return v


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
