"""The PCDC experiment (mpqoe.pcdc.experiment through `make -C pcdc guest`) as a campaign
family (mpqoe.campaign).

The experiment is a scenario, a cell a congestion control. Each (scenario, control) has one job
more, before its runs: the measurement of its impact factors (--measure-only), whose table every
run of that control uses (--table), measured once per network and shared by the control's runs
wherever they run. A run's record is its four result files <store>/<cc>/<mode>/<test>/run<k>.csv
(both modes, bulk and small); the workflow's run file holds their rows in one CSV. The published
rows are pcdc/pcdc_report.py --import's.
"""

import csv
import os
import re
import shlex

from mpqoe import REPO, files
from mpqoe import campaign as cp
from mpqoe.pcdc import experiment as pcx
from mpqoe.runs import chunks

PCDC = os.path.join(REPO, "pcdc")
REPORT = os.path.join(PCDC, "pcdc_report.py")
SCENARIOS = os.path.join(PCDC, "scenarios")  # <name>.json
DATA = pcx.PUBLISHED  # pcdc_report.py's data root
# From the committed uib-unis runs (10 runs of cubic and olia in the testbed guest, the
# driver's defaults; workflow/cost.py computes what they took and the workflow's tests hold
# these to it): a mode's 120 s bulk transfer and 6 s for the daemon's start and the five small
# transfers; a sample of the impact-factor table its windows (warmup + 2 T + settle) and 0.4 s
# to connect and join the subflows. The boot: the testbed guest and the scenario's namespaces,
# as a scheduler batch's.
BOOT_S, MODE_EXTRA_S, SAMPLE_EXTRA_S = 90, 6, 0.4


def run_s():
    """One run of one congestion control: every mode's bulk and small transfers."""
    return len(pcx.MODES) * (pcx.BULK_SECONDS + MODE_EXTRA_S)


def windows_s():
    """A table sample's measurement windows: warm-up, the two windows of T, settle."""
    return pcx.WARMUP_S + 2 * pcx.T_S + pcx.SETTLE_S


def table_s(pairs):
    """One impact-factor table: every pair's samples, each its windows and the time to connect
    and join its subflows."""
    return pairs * pcx.SAMPLES * (windows_s() + SAMPLE_EXTRA_S)


def run_source(store, cc, k):
    """collect.py's source of run k of cc in the driver's store (a scenario's directory): not
    a file, the run's result files (run_files)."""
    return os.path.join(store, cc, f"run{k}")


def run_files(src):
    """(cc, k, the result files of the run) of a run_source, None for anything else."""
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
        raise cp.ConfigError(f"{key}: want a positive number, got {v!r}")
    return x


def scenarios(config):
    """{scenario: (rate scale, address pairs)} of config pcdc_scenarios, each a file of
    pcdc/scenarios, its rates scaled by config pcdc_rate_scale (a number, or per scenario a map
    whose others get 1); ConfigError naming the key for anything else."""
    names = config.get("pcdc_scenarios") or []
    known = sorted(f[: -len(".json")] for f in os.listdir(SCENARIOS) if f.endswith(".json"))
    if not isinstance(names, list):
        raise cp.ConfigError(
            f"pcdc_scenarios: want a list of scenarios, e.g. [uib-hin], got {names!r}"
        )
    scales = config.get("pcdc_rate_scale", 1)
    if isinstance(scales, dict):
        bad = sorted(str(k) for k in scales if k not in known)
        if bad:
            raise cp.ConfigError(
                f"pcdc_rate_scale: unknown scenario {bad[0]!r} (one of {', '.join(known)})"
            )
    out = {}
    for name in names:
        if name not in known:
            raise cp.ConfigError(
                f"pcdc_scenarios: unknown scenario {name!r} (one of {', '.join(known)})"
            )
        if name in out:
            raise cp.ConfigError(f"pcdc_scenarios: {name} twice")
        scale = _positive(
            "pcdc_rate_scale", scales.get(name, 1) if isinstance(scales, dict) else scales
        )
        try:
            client, server = pcx.load_scenario(os.path.join(SCENARIOS, f"{name}.json"), scale)
        except ValueError as e:
            raise cp.ConfigError(f"pcdc_scenarios: {e}") from None
        out[name] = (scale, len(client) * len(server))
    return out


def ccs(config):
    got = config.get("pcdc_ccs")
    if (
        not isinstance(got, list)
        or not got
        or not all(isinstance(c, str) and c.isidentifier() for c in got)
    ):
        raise cp.ConfigError(
            f"pcdc_ccs: want a list of congestion controls, e.g. [cubic, olia], got {got!r}"
        )
    return list(dict.fromkeys(got))


def dirs(config, scale):
    """(the driver's store, the run files' directory) at a rate scale: a store keeps one scale
    (mpqoe.pcdc.experiment records none), so another scale has directories of its own."""
    sub = "" if scale == 1 else f"rate-scale-{scale:g}"
    store = cp.path(config, "pcdc_results")
    runs_dir = os.path.join(cp.path(config, "runs_dir"), "pcdc")
    return (os.path.join(store, sub), os.path.join(runs_dir, sub)) if sub else (store, runs_dir)


def job(name, scale, store, out, cc, runs, ks, est, args, needs=()):
    """A job of `make -C pcdc guest` (the driver in the testbed guest, the store at /results;
    NO_BUILD: the modules and the guest are the node's, preflight checks them) for one scenario
    and control: its runs ks, or none to measure the table. TIMEOUT, the guest's own limit, is
    5 min inside the job's, so that the job's last step still reports on a cluster."""
    argv = ("-C", PCDC, "guest", f"SCENARIO={name}", f"RUNS={runs}", f"CCS={cc}",
            f"RATE_SCALE={scale:g}", f"OUT={store}", "NO_BUILD=1",
            f"TIMEOUT={cp.time_limit_min(est) * 60 - 300}", f"ARGS={args}")  # fmt: skip
    network = f"rate{scale:g}"
    return cp.Job("pcdc", name, network, (cc,), tuple(ks), store, out, argv, est, ("make",), needs)


def run_csv(cc, k, paths):
    """(the CSV of one run: every row of its result files, None) or (None, why not)."""
    from mpqoe import results  # noqa: PLC0415

    rows = []
    for p in paths:
        name = "/".join(p.split(os.sep)[-3:])  # <mode>/<test>/run<k>.csv
        try:
            with open(p, newline="") as f:
                r = csv.DictReader(f)
                got = list(r)
        except OSError:
            return None, f"missing {name}"
        if tuple(r.fieldnames or ()) != pcx.COLUMNS:
            return None, f"{name}: not the driver's columns"
        if not got:
            return None, f"{name}: no rows"
        rows += got
    versions = {r["code_version"] for r in rows}
    bad = [r for r in rows if r["status"] != "ok" or r["cc"] != cc or r["run"] != str(k)]
    if bad:
        r = bad[0]
        return None, f"a row of {r['cc']} run {r['run']} {r['pm']} {r['test']}: {r['status']}"
    if len(versions) != 1 or "" in versions:
        return None, f"code versions {sorted(versions)} (remove its files to make it again)"
    empty = [k for k in ("seconds", "bytes", "mbps", "subflows", "started") if any(
        not r[k] for r in rows)]  # fmt: skip
    if empty:
        return None, f"ok but incomplete (no {', '.join(empty)})"
    return results.csv_text(rows, pcx.COLUMNS), None


def table_incomplete(src):
    """Why the impact-factor table at src (mpqoe.pcdc.impact's document) is not complete, or
    None: every pair needs a sample, and the daemon must read it."""
    from mpqoe.pcdc import impact  # noqa: PLC0415

    doc = files.read_json(src)
    if not doc:
        return "missing"
    if doc.get("schema") != impact.SCHEMA:
        return f"not an impact-factor table ({doc.get('schema')!r})"
    why = impact.unmeasured(doc)
    if why:
        return f"table not complete ({why} (remove it to measure again))"
    try:
        impact.load_table(src)
    except ValueError as e:
        return f"table not complete ({e})"
    return None


class Pcdc(cp.Family):
    kind = "pcdc"
    runner = PCDC
    report_cmd = f"{cp.PY} -m mpqoe.report pcdc"

    def jobs(self, config):
        found = scenarios(config)
        if not found:
            return []
        controls = ccs(config)
        runs = config.get("pcdc_runs")
        if isinstance(runs, bool) or not isinstance(runs, int) or not 1 <= runs <= 100:
            raise cp.ConfigError(f"pcdc_runs: want 1..100, got {runs!r}")
        jobs = []
        for name, (scale, pairs) in found.items():
            store, out = dirs(config, scale)
            for cc in controls:
                est = BOOT_S + table_s(pairs)
                table = job(name, scale, store, out, cc, runs, (), est, "--measure-only")
                jobs.append(table)
                guest_table = pcx.table_path(f"/results/{name}", cc)
                for _cs, ks in chunks([cc], list(range(1, runs + 1)), int(config["batch_runs"])):
                    est = BOOT_S + run_s() * len(ks)
                    args = f"--only-runs {','.join(map(str, ks))} --table {guest_table}"
                    needs = tuple(table.outputs())
                    jobs.append(job(name, scale, store, out, cc, runs, ks, est, args, needs))
        return jobs

    def copies(self, job):
        out_dir = os.path.join(job.out_dir, job.experiment, job.cells[0])
        src = os.path.join(job.store, job.experiment)
        if not job.runs:
            return [(pcx.table_path(src, job.cells[0]), os.path.join(out_dir, "table.json"))]
        return [
            (run_source(src, job.cells[0], k), os.path.join(out_dir, f"run{k}.csv"))
            for k in job.runs
        ]

    def owns(self, src):
        return (
            run_files(src) is not None
            and not src.endswith((".csv", ".json"))
            or (os.path.basename(src) == "table.json")
        )

    def check(self, src):
        if os.path.basename(src) == "table.json":
            return table_incomplete(src), None
        cc, k, paths = run_files(src)
        text, why = run_csv(cc, k, paths)
        return why, text

    def preflight_args(self, job):
        return f"pcdc {job.cells[0]}"

    def publications(self, config):
        """pcdc_report.py --import of each scenario's store into config pcdc_publish
        (<root>/<scenario>/data) and the files it writes for the sweep's controls."""
        out = []
        found = scenarios(config)
        for scenario in sorted(found) if self.jobs(config) else []:
            scale, _pairs = found[scenario]
            store, _out = dirs(config, scale)
            root = cp.path(config, "pcdc_publish")
            argv = [REPORT, "--import", os.path.join(store, scenario)]
            argv += ["--rate-scale", f"{scale:g}", "--data", root]
            data = pcx.published(root, scenario).data
            tables = [f for cc in ccs(config) for f in pcx.published_files(data, cc)]
            tables.append(pcx.published_scenario(data))
            out.append(cp.Publication("pcdc", scenario, shlex.join([cp.PY, *argv]), tuple(tables)))
        return out

    def pages(self, config):
        """What pcdc_report.py renders for the sweep's scenarios: each one's page and figures."""
        out = []
        for name in scenarios(config):
            where = pcx.published(DATA, name)
            out += [where.page, *(where.figure(t) for t in pcx.TESTS)]
        return out

    def reported(self, config):
        return cp.path(config, "pcdc_publish") == DATA


FAMILY = Pcdc()
