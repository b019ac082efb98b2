#!/usr/bin/env python3
"""PCDC against FullMesh as in Chen et al., Section VI: bulk throughput (120 s) and completion
times of small transfers (128-1024 KiB), 10 runs each, per congestion control.

    python3 -m mpqoe.pcdc.experiment --out DIR --client-exec PREFIX --server-exec PREFIX
                  --server ADDR[,ADDR...]
                  [--runs 10] [--cc cubic] [--modes pcdc,fullmesh] [--bulk-seconds 120]
                  [--sizes 128,256,512,768,1024] [--table FILE | --T 10 --warmup 2 --settle 1
                  --samples 10] [--only-runs K,...] [--no-hint] [--redo]
    python3 -m mpqoe.pcdc.experiment ... --measure-only          only the impact factors, no run
    python3 -m mpqoe.pcdc.experiment --scenario FILE --out DIR [--rate-scale X] [options above]
    python3 -m mpqoe.pcdc.experiment --host-smoke --out DIR   a tiny run between namespaces here

With --scenario (e.g. scenarios/uib-unis.json, the paper's Section VI-A), the driver builds the
network itself between namespaces (netns.py: the scenario's rates and netem delays; run it in
the testbed guest, which has netem) and removes it at the end, also on SIGTERM. A scenario's
volatile pairs (load_network; scenarios/uib-hu.json) follow a random schedule during every
test and the measurement, keyed by the scenario's seed, the run and the test
(netns.test_key), so that PCDC and FullMesh of a run face the same one; what was applied is
recorded beside each result file (run<N>.volatile.json, table.volatile.json), written before
it, and a schedule that could not be applied makes the cell fail. Otherwise PREFIX runs a program
on the client or server host: "ip netns exec NAME" for a named
namespace, "mnexec -a PID" for a Mininet host in the testbed guest. The client's namespace
must have net.mptcp.pm_type=1 and per-address source routing; the server announces its other
addresses (in-kernel PM `signal` endpoints). The driver starts `mpqoe.pcdc.transfer serve` on the
server (data port and measurement port), uses the congestion control on every socket of both
ends (TCP_CONGESTION; a control the kernel lacks is skipped with a message: upstream Linux has
no OLIA, this project's mpqoe_olia module adds it), measures the impact factors once per
control unless --table is given (DIR/<cc>/table.json), then for every run and mode starts
pcdcd, makes the transfers and stops it. The order of the modes alternates between runs.

For the workflow (mpqoe.campaign_pcdc, docs/workflow.md), which measures each table in a job of
its own and passes it to the jobs that make the runs: --measure-only measures the tables that
are missing and makes no run; --only-runs makes only those run numbers (of 1..--runs), each
in the mode order it has in a whole invocation (mpqoe.runs).

Results: one compact CSV per (cc, mode, test, run), DIR/<cc>/<mode>/<bulk|small>/run<N>.csv,
written atomically, with the code version in every row. The run is resumable: files that
exist are kept (a note names those of another code version), --redo makes them again; a cell
with a failed transfer gets no file (exit code 1), so that the next invocation makes it again. By
default the transfers tell the daemon their size (the paper's PCDC classifies by the size);
--no-hint leaves it to the online classes. The closing summary is the mean and 95 % t interval
per cell (mpqoe.stats.mean_ci). Bad options: one line, exit 2.

Every attempt, made or failed, is recorded through the campaign interface (mpqoe.campaign):
DIR/attempts/<cc>/run<N>-<n>.json per run (its four result files; run 0 is the impact-factor
table) with why it failed, the code version, the kernel and the CPU it ran on; and
DIR/manifest.json, the campaign's one manifest format, says per control which runs are ok (all
four files), failed (some) or missing, "partial" until every run of 1..--runs is ok.
"""

import argparse
import contextlib
import csv
import glob
import json
import os
import shlex
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass

from mpqoe import REPO, campaign, files, kernel, results
from mpqoe.pcdc import impact, netns
from mpqoe.runs import ONLY_RUNS_HELP, only_runs

HERE = os.path.dirname(os.path.abspath(__file__))


KIB = 1024
MODES = ("pcdc", "fullmesh")  # the paper's comparison; a run makes every (mode, test)
TESTS = ("bulk", "small")
# The defaults of the options (Section VI's transfers; the impact factors' windows as the docs
# say why)
BULK_SECONDS, SIZES_KIB = 120.0, (128, 256, 512, 768, 1024)
T_S, WARMUP_S, SETTLE_S, SAMPLES = 10.0, 2.0, 1.0, 10
COLUMNS = ("experiment", "cc", "pm", "test", "size_bytes", "run", "hint", "seconds", "bytes",
           "mbps", "subflows", "pairs", "status", "code_version", "started")  # fmt: skip
PY = sys.executable
FAMILY = "pcdc"  # its kind on the campaign interface (mpqoe.campaign_pcdc)
TABLE_RUN = 0  # the attempt number space's run of an impact-factor table measurement


def code_version():
    """$MPQOE_CODE_VERSION when set (the testbed guest has no git: the host passes its commit,
    which also names the congestion control modules built from it), else the git commit
    (mpqoe.results.code_version), else a hash of the modules of mpqoe.pcdc."""
    if os.environ.get("MPQOE_CODE_VERSION"):
        return os.environ["MPQOE_CODE_VERSION"]
    try:
        v = results.code_version(REPO)
        if not v.startswith("unknown"):
            return v
    except OSError:
        pass
    return "tree-" + results.tree_sha256(sorted(glob.glob(os.path.join(HERE, "*.py"))))[:12]


class Host:
    """A command prefix that runs programs on one host."""

    def __init__(self, prefix):
        self.prefix = shlex.split(prefix)

    def argv(self, *args):
        return self.prefix + list(args)

    def run(self, *args, timeout=60):
        return subprocess.run(self.argv(*args), capture_output=True, text=True, timeout=timeout)

    def spawn(self, log_path, *args):
        with open(log_path, "w") as log:
            return subprocess.Popen(self.argv(*args), stdout=log, stderr=subprocess.STDOUT)


def stop(proc):
    if proc is not None and proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=5)


def wait_for(path, text, timeout=20.0, proc=None):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        with open(path, encoding="utf-8", errors="replace") as f:
            if text in f.read():
                return True
        if proc is not None and proc.poll() is not None:
            return False
        time.sleep(0.1)
    return False


def cc_problem(hosts, cc):
    """Why a host cannot use congestion control cc, or None. The driver sets it per socket
    (TCP_CONGESTION on the server's listeners and the client's sockets; root may pick any
    available one), since a namespace's tcp_congestion_control sysctl only takes the ones in
    tcp_allowed_congestion_control."""
    for h in hosts:
        avail = h.run("sysctl", "-n", "net.ipv4.tcp_available_congestion_control").stdout.split()
        if cc not in avail:
            return f"congestion control {cc} not available (have: {' '.join(avail)})"
    return None


def transfer_row(client, a, cc, pm, test, run, size, version):
    """One transfer's CSV row (status "ok" or what failed)."""
    args = [PY, "-m", "mpqoe.pcdc.transfer", "get", "--connect", f"{a.servers[0]}:{a.port}",
            "--timeout", str(max(60, 3 * a.bulk_seconds)), "--cc", cc]  # fmt: skip
    if a.bind:
        args += ["--bind", a.bind]
    if size is None:
        args += ["--duration", str(a.bulk_seconds)]
    else:
        args += ["--size", str(size)]
        if not a.no_hint:
            args += ["--hint-socket", a.hint_socket]
    row = dict.fromkeys(COLUMNS, "")
    hinted = int(size is not None and not a.no_hint)
    row.update(experiment="pcdc", cc=cc, pm=pm, test=test, run=run, code_version=version,
               size_bytes="" if size is None else size, hint=hinted,
               started=time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()))  # fmt: skip
    try:
        r = client.run(*args, timeout=max(120, 3 * a.bulk_seconds))
    except subprocess.TimeoutExpired:
        row["status"] = "timeout"
        return row
    try:
        doc = json.loads(r.stdout.strip().splitlines()[-1])
    except (ValueError, IndexError):
        row["status"] = ("error: " + (r.stderr.strip().splitlines() or ["no output"])[-1])[:200]
        return row
    row.update(seconds=f"{doc['seconds']:.4f}", bytes=doc["bytes"], mbps=f"{doc['mbps']:.3f}",
               subflows=len(doc["subflows"]),
               pairs=";".join(f"{x}>{y}" for x, y in doc["subflows"]),
               status="ok" if r.returncode == 0 and not doc["fallback"] else
               ("fallback" if doc["fallback"] else "incomplete"))  # fmt: skip
    return row


def run_cell(client, a, cc, pm, test, run, table, version, workdir, vol=None):
    """Starts pcdcd, makes the cell's transfers, stops it; the rows. With vol (the test's
    netns.Volatility) each transfer's time is recorded as a window of its schedule."""
    log = os.path.join(workdir, f"pcdcd-{cc}-{pm}-{test}-{run}.log")
    args = [PY, "-m", "mpqoe.pcdc.pcdcd", "--mode", pm, "--hint-socket", a.hint_socket]
    if pm == "pcdc":
        args += ["--table", table]
    d = client.spawn(log, *args)
    try:
        if not wait_for(log, "pcdcd: mode", proc=d):
            with open(log, encoding="utf-8", errors="replace") as f:
                tail = (f.read().strip().splitlines() or ["no output"])[-1]
            raise RuntimeError(f"pcdcd did not start: {tail}")
        rows = []
        for size in [None] if test == "bulk" else [s * KIB for s in a.sizes]:
            name = "bulk" if size is None else str(size)
            with vol.window(name) if vol else contextlib.nullcontext():
                rows.append(transfer_row(client, a, cc, pm, test, run, size, version))
        return rows
    finally:
        stop(d)


def volatility(a, run, test):
    """The schedule of the scenario's volatile pairs for one test of a run (netns.test_key:
    the scenario's seed, the run, the test; run 0 and "measure" for the impact factors), as a
    started-on-entry netns.Volatility; without volatile pairs a context giving None."""
    if a.volatility is None:
        return contextlib.nullcontext()
    return a.volatility(netns.test_key(a.volatile_seed, run, test))


def volatile_path(path):
    """Where the volatile record of a result file (run<N>.csv, table.json) goes: beside it,
    run<N>.volatile.json, table.volatile.json."""
    return os.path.splitext(path)[0] + ".volatile.json"


def write_record(path, vol):
    """Writes vol's record beside the result file path (before that file, so that a result
    never lacks its record); the error that makes the result unfit, or None."""
    if vol is None:
        return None
    if vol.record["error"]:
        return f"volatile pair: {vol.record['error']}"
    files.write_json(volatile_path(path), vol.record)
    return None


def cell_path(out, cc, pm, test, run):
    return os.path.join(out, cc, pm, test, f"run{run}.csv")


def run_paths(out, cc, run, modes=MODES):
    """The result files of one run of cc: every (mode, test)."""
    return [cell_path(out, cc, pm, test, run) for pm in modes for test in TESTS]


def table_path(out, cc):
    """Where the impact factors of cc are measured to unless --table is given."""
    return os.path.join(out, cc, "table.json")


# The published layout, one place for pcdc/pcdc_report.py (which writes it) and the workflow
# (mpqoe.campaign_pcdc, which plans it): under a data root (docs/results/pcdc), a scenario's
# import in <scenario>/data, one file set per congestion control and the scenario; its figures,
# one per test, in <scenario>/figures; its page docs/results/pcdc-<scenario>.md from the
# template beside it.
RESULTS = os.path.join(REPO, "docs", "results")
PUBLISHED = os.path.join(RESULTS, "pcdc")


@dataclass(frozen=True)
class Published:
    data: str
    template: str
    page: str
    figures: str

    def figure(self, test):
        return os.path.join(self.figures, f"{test}.png")


def published_rows(data, cc):
    """Every row of cc's runs in a data directory (the rows' file names the control)."""
    return os.path.join(data, f"{cc}.csv")


def published_table(data, cc):
    """The impact factors cc's runs used."""
    return os.path.join(data, f"{cc}-table.json")


def published_volatile(data, cc):
    """The schedules of the volatile pairs applied during cc's runs and measurement."""
    return os.path.join(data, f"{cc}-volatile.json")


def published_files(data, cc, volatile=False):
    """The files of cc in a data directory: its rows, its table, and with volatile pairs the
    schedules applied."""
    out = [published_rows(data, cc), published_table(data, cc)]
    return out + [published_volatile(data, cc)] if volatile else out


def published_scenario(data):
    """The scenario a data directory's runs were made in."""
    return os.path.join(data, "scenario.json")


def published(root, name, results=RESULTS):
    """The published files of scenario name under the data root."""
    return Published(
        data=os.path.join(root, name, "data"),
        template=os.path.join(results, f"pcdc-{name}.md.in"),
        page=os.path.join(results, f"pcdc-{name}.md"),
        figures=os.path.join(root, name, "figures"),
    )


def read_rows(path):
    with open(path, encoding="utf-8", newline="") as f:
        return list(csv.DictReader(f))


def measure_table(client, a, cc, table, log):
    """Measures the impact factors into table, under the volatile pairs' schedule if any
    (written beside it first, then the table); the reason when it failed, else None."""
    log(f"experiment: measuring impact factors for {cc} -> {table}")
    part = table + ".part"  # an earlier invocation's, if any, must not pass for this one's
    if os.path.exists(part):
        os.unlink(part)
    args = [PY, "-m", "mpqoe.pcdc.impact", "measure", "--server", ",".join(a.servers),
            "--port", str(a.probe_port), "--T", str(a.T), "--warmup", str(a.warmup), "--settle",
            str(a.settle), "--samples", str(a.samples), "--cc", cc, "--json", part]  # fmt: skip
    with volatility(a, 0, "measure") as vol:
        r = client.run(*args, timeout=3600 * 6)
    print(r.stdout, end="")
    if not os.path.exists(part):
        return f"mpqoe.pcdc.impact failed: {r.stderr.strip()[-300:]}"
    why = impact.unmeasured(files.read_json(part))
    if why:  # the .part stays for a look; the next invocation measures again
        return f"{part}: {why}"
    why = write_record(table, vol)
    if why:
        return why
    os.replace(part, table)
    return None


def one_cell(client, a, cc, pm, test, run, table, version, workdir, log):
    """Makes one result file unless it exists: "made", "kept" or "failed" (no file)."""
    path = cell_path(a.out, cc, pm, test, run)
    if os.path.exists(path) and not a.redo:
        old = {r["code_version"] for r in read_rows(path)}
        if old != {version}:
            log(f"experiment: kept {path} of code version {sorted(old)}")
        return "kept"
    try:
        with volatility(a, run, test) as vol:
            rows = run_cell(client, a, cc, pm, test, run, table, version, workdir, vol)
    except RuntimeError as e:
        rows = [{"size_bytes": "", "status": f"error: {e}"}]
    bad = [r for r in rows if r["status"] != "ok"]
    why = None if bad else write_record(path, vol)
    if why:
        bad = [{"size_bytes": "", "status": f"error: {why}"}]
    if bad:  # no file: the next invocation makes the cell again
        what = ", ".join(f"{r['size_bytes'] or 'bulk'} {r['status']}" for r in bad)
        log(f"experiment: {path} not written: {what}")
        return "failed"
    files.write_atomic(path, results.csv_text(rows, COLUMNS))
    what = ", ".join(f"{r['size_bytes'] or 'bulk'} {r['seconds']} s {r['subflows']} subflows"
                     for r in rows)  # fmt: skip
    log(f"experiment: {path}: {what}")
    return "made"


def record_attempt(a, cc, run, status, why, version):
    """Record one attempt (mpqoe.campaign) in DIR: a run of cc, or its table (TABLE_RUN)."""
    out = os.path.abspath(a.out)
    rec = table_path(out, cc) if run == TABLE_RUN else ""
    campaign.record_attempt(
        os.path.dirname(out), os.path.basename(out), cc, run, status, why, family=FAMILY,
        code_version=version, kernel=os.uname().release, cpu=campaign.host_cpu(),
        record=os.path.relpath(rec, out) if rec else "",
    )  # fmt: skip


def run_status(a, cc, run):
    """ "ok" when every result file of the run exists, "failed" when some do, else None."""
    there = [os.path.exists(p) for p in run_paths(a.out, cc, run, a.modes)]
    return "ok" if all(there) else "failed" if any(there) else None


def write_manifest(a, note=""):
    """DIR/manifest.json in the campaign's format, over --cc and runs 1..--runs."""
    out = os.path.abspath(a.out)
    st = campaign.state(a.cc, a.runs, lambda cc, k: run_status(a, cc, k))
    return campaign.write_manifest(os.path.dirname(out), FAMILY, os.path.basename(out), a.runs,
                                   st, code_versions=[code_version()], note=note)  # fmt: skip


def experiment(a, log=print):
    """Runs what is missing; returns the counts of files made and kept and of cells failed
    (a cell with a transfer that is not ok gets no file, so that a new invocation makes it;
    a congestion control whose measurement failed counts as one failure). With
    --measure-only the files are the tables."""
    client, server = Host(a.client_exec), Host(a.server_exec)
    version = code_version()
    workdir = os.path.join(a.out, "logs")
    os.makedirs(workdir, exist_ok=True)
    counts = {"made": 0, "kept": 0, "failed": 0}
    for h in (client, server):
        # a run must not start from the ssthresh that the previous one's losses left cached
        r = h.run("sysctl", "-q", "-w", "net.ipv4.tcp_no_metrics_save=1")
        if r.returncode != 0:
            log(f"experiment: note: tcp_no_metrics_save not set: {r.stderr.strip()}")
    for cc in a.cc:
        why = cc_problem([client, server], cc)
        if why:
            log(f"experiment: {cc} skipped: {why}")
            for run in [] if a.measure_only else a.run_list:
                record_attempt(a, cc, run, "failed", why, version)
            continue
        servers = [server.spawn(os.path.join(workdir, f"serve-{cc}-{p}.log"), PY,
                                "-m", "mpqoe.pcdc.transfer", "serve", "--port", str(p),
                                "--cc", cc)
                   for p in (a.port, a.probe_port)]  # fmt: skip
        try:
            time.sleep(0.5)
            table = a.table or table_path(a.out, cc)
            if not os.path.exists(table):
                why = measure_table(client, a, cc, table, log)
                record_attempt(a, cc, TABLE_RUN, "failed" if why else "ok", why or "", version)
                if why:
                    log(f"experiment: {cc} skipped: {why}")
                    counts["failed"] += 1
                    continue
                counts["made"] += a.measure_only
            else:
                counts["kept"] += a.measure_only
            if a.measure_only:
                continue
            for run in a.run_list:
                made, notes = [], []

                def run_log(msg, notes=notes):
                    notes.append(msg)
                    log(msg)

                for pm in a.modes if run % 2 else list(reversed(a.modes)):
                    for test in TESTS:
                        what = one_cell(client, a, cc, pm, test, run, table, version, workdir,
                                        run_log)  # fmt: skip
                        counts[what] += 1
                        made.append(what)
                if made and set(made) != {"kept"}:  # something was attempted
                    bad = [n for n in notes if "not written" in n]
                    why = "; ".join(n.removeprefix("experiment: ") for n in bad)
                    record_attempt(a, cc, run, "failed" if bad else "ok", why, version)
        finally:
            for p in servers:
                stop(p)
    return counts["made"], counts["kept"], counts["failed"]


def summary(out):
    """Mean and 95 % t interval per (cc, pm, test, size) over the runs' ok rows (no interval
    where scipy is missing)."""
    cells = {}
    for path in sorted(glob.glob(os.path.join(out, "*", "*", "*", "run*.csv"))):
        for r in read_rows(path):
            if r["status"] == "ok":
                key = (r["cc"], r["test"], r["size_bytes"], r["pm"])
                v = float(r["mbps"] if r["test"] == "bulk" else r["seconds"])
                cells.setdefault(key, []).append(v)
    lines = ["cc      test   size[KiB]  pm        n   mean      +-95%    (Mbit/s bulk, s small)"]
    for (cc, test, size, pm), vs in sorted(cells.items()):
        mean, half = impact.mean_ci(vs)
        kib = int(size) // KIB if size else "-"
        half = "-" if half is None else f"{half:.4f}"
        lines.append(f"{cc:<7} {test:<6} {kib!s:<10} {pm:<9} {len(vs):<3} {mean:<9.4f} {half}")
    return "\n".join(lines)


def _die(msg):
    print(f"mpqoe.pcdc.experiment: {msg}", file=sys.stderr)
    raise SystemExit(2)


def parse_args(argv):
    ap = argparse.ArgumentParser(prog="mpqoe.pcdc.experiment", description=__doc__.split("\n")[0])
    ap.add_argument("--out", required=True, help="results directory")
    ap.add_argument("--host-smoke", action="store_true", help="tiny run in host namespaces")
    ap.add_argument("--scenario", help="build this scenario's network (netem: testbed guest)")
    ap.add_argument("--rate-scale", type=float, default=1.0, help="scale the scenario's rates")
    ap.add_argument("--client-exec", help="command prefix for the client host")
    ap.add_argument("--server-exec", help="command prefix for the server host")
    ap.add_argument("--server", help="server addresses, the first one is connected to")
    ap.add_argument("--bind", help="client address of the first subflow")
    ap.add_argument("--port", type=int, default=5201)
    ap.add_argument("--probe-port", type=int, default=5301)
    ap.add_argument("--runs", type=int, default=10)
    ap.add_argument("--only-runs", help=ONLY_RUNS_HELP)
    ap.add_argument("--measure-only", action="store_true", help="only the impact factors")
    ap.add_argument("--cc", default="cubic", help="congestion controls, comma separated")
    ap.add_argument("--modes", default=",".join(MODES))
    ap.add_argument("--bulk-seconds", type=float, default=BULK_SECONDS)
    ap.add_argument("--sizes", default=",".join(map(str, SIZES_KIB)), help="small transfers in KiB")
    ap.add_argument("--table", help="impact factors to use instead of measuring")
    ap.add_argument("--T", type=float, default=T_S, help="mpqoe.pcdc.impact --T")
    ap.add_argument("--warmup", type=float, default=WARMUP_S, help="mpqoe.pcdc.impact --warmup")
    ap.add_argument("--settle", type=float, default=SETTLE_S, help="mpqoe.pcdc.impact --settle")
    ap.add_argument("--samples", type=int, default=SAMPLES, help="mpqoe.pcdc.impact --samples")
    ap.add_argument("--no-hint", action="store_true", help="online classes only")
    ap.add_argument("--redo", action="store_true", help="make existing result files again")
    a = ap.parse_args(argv)
    if a.scenario:
        if a.client_exec or a.server_exec or a.server or a.host_smoke:
            _die("--scenario builds the network: no --client-exec, --server-exec, --server")
        if not a.rate_scale > 0:
            _die("--rate-scale must be positive")
        try:
            a.network = load_network(a.scenario, a.rate_scale)
        except ValueError as e:
            _die(str(e))
    elif not a.host_smoke and not (a.client_exec and a.server_exec and a.server):
        _die("--client-exec, --server-exec and --server are required (or --scenario, "
             "--host-smoke)")  # fmt: skip
    a.cc = [c for c in a.cc.split(",") if c]
    a.modes = [m for m in a.modes.split(",") if m]
    if not a.cc or any(not c.isidentifier() for c in a.cc):
        _die(f"--cc: bad congestion control list {','.join(a.cc)!r}")
    if not a.modes or any(m not in ("pcdc", "fullmesh") for m in a.modes):
        _die("--modes: a comma-separated list of pcdc and fullmesh")
    try:
        a.sizes = [int(s) for s in a.sizes.split(",")]
    except ValueError:
        _die(f"--sizes: integers (KiB) expected, got {a.sizes!r}")
    if any(s <= 0 for s in a.sizes):
        _die("--sizes must be positive")
    if not (a.runs >= 1 and a.bulk_seconds > 0 and a.T > 0 and a.samples >= 1
            and a.warmup >= 0 and a.settle >= 0):  # fmt: skip
        _die("--runs, --bulk-seconds, --T, --samples must be positive")
    for port in (a.port, a.probe_port):
        if not 0 < port < 65536 or a.port == a.probe_port:
            _die("--port and --probe-port: two different ports 1-65535")
    if a.table and not os.path.exists(a.table):
        _die(f"--table {a.table}: no such file")
    try:
        a.run_list = only_runs(a.only_runs, a.runs)
    except ValueError as e:
        _die(str(e))
    if a.measure_only and (a.table or a.only_runs or a.host_smoke):
        _die("--measure-only measures the tables: no --table, --only-runs, --host-smoke")
    a.servers = a.server.split(",") if a.server else []
    # set where the driver builds the network with volatile pairs (scenario_run, host_smoke):
    # a function of a schedule key giving a netns.Volatility, and the scenario's seed
    a.volatility, a.volatile_seed = None, None
    # not under --out: that may be a 9p share (the testbed guest's /results), which has no
    # sockets, and a socket path has at most 107 bytes
    a.hint_socket = os.path.join(tempfile.gettempdir(), f"pcdc-hint-{os.getpid()}.sock")
    return a


def host_smoke(a):
    """The driver end to end between namespaces of this host (no delays: this kernel has no
    netem): 1 run, 2 s bulk, 128 and 768 KiB, measured table, the first pair volatile (means
    of 1 s good and 0.5 s bad); then again, which must keep every file. Exit code 1 when a
    result or a volatile record is missing or not ok."""
    pair = netns.VolatilePair(0, 0, "40mbit", "2mbit", 1.0, 0.5)
    tb = netns.Testbed(f"pcsm{os.getpid()}", ["20mbit", "4mbit"], ["40mbit"], volatile=[pair])
    a.client_exec, a.server_exec = f"ip netns exec {tb.client}", f"ip netns exec {tb.server}"
    a.servers, a.bind = tb.server_addrs, tb.client_addrs[0]
    a.volatility, a.volatile_seed = tb.volatility, 1
    a.runs, a.run_list, a.bulk_seconds, a.sizes = 1, [1], 2.0, [128, 768]
    a.T, a.warmup, a.settle, a.samples = 1.0, 0.5, 0.5, 1
    with tb:
        first = experiment(a)
        again = experiment(a)
    problems = []
    if first != (4 * len(a.cc), 0, 0) or again != (0, 4 * len(a.cc), 0):
        problems.append(f"files made/kept/failed {first}, then {again}")
    results_ = sorted(glob.glob(os.path.join(a.out, "*", "*", "*", "run*.csv")))
    for path in results_ + [table_path(a.out, cc) for cc in a.cc]:
        try:
            with open(volatile_path(path), encoding="utf-8") as f:
                switches = json.load(f)["pairs"][0]["switches"]
        except (OSError, ValueError, KeyError, IndexError) as e:
            problems.append(f"{path}: no volatile record ({e})")
            continue
        if not switches:
            problems.append(f"{path}: its volatile record has no switch")
    for path in results_:
        for r in read_rows(path):
            if r["status"] != "ok":
                problems.append(f"{path}: {r['size_bytes'] or 'bulk'} {r['status']}")
            elif r["pm"] == "fullmesh" and r["test"] == "small" and int(r["subflows"]) != 2:
                problems.append(f"{path}: fullmesh with {r['subflows']} subflows, not 2")
    print(summary(a.out))
    for p in problems:
        print(f"mpqoe.pcdc.experiment --host-smoke: FAIL {p}")
    print(f"mpqoe.pcdc.experiment --host-smoke: {'FAIL' if problems else 'PASS'}")
    return 1 if problems else 0


@dataclass(frozen=True)
class Network:
    """A scenario file's network: client and server links [(rate, delay ms)], the volatile
    pairs (netns.VolatilePair) and the seed of their schedules (None without any)."""

    client: list
    server: list
    volatile: list
    seed: int | None


VOLATILE_KEYS = ("server", "client", "bad_share", "mean_good_s", "mean_bad_s")


def load_scenario(path, rate_scale=1.0):
    """(client links, server links) of a scenario file (load_network)."""
    net = load_network(path, rate_scale)
    return net.client, net.server


def load_network(path, rate_scale=1.0):
    """The Network of a scenario file, rates scaled by rate_scale; ValueError naming what is
    wrong. A file's "volatile" section (optional) is {"seed": N, "pairs": [{"server": ISP,
    "client": ISP, "bad_share": X, "mean_good_s": G, "mean_bad_s": B}]}: the pair of those
    ISPs' links alternates between good (the server link's rate: its own tbf limits nothing)
    and bad (X times the smaller of its two links' rates) for exponential durations of means
    G and B seconds (netns.VolatilePair, netns.schedule)."""
    try:
        with open(path, encoding="utf-8") as f:
            doc = json.load(f)
    except (OSError, ValueError) as e:
        raise ValueError(f"{path}: {e}") from e
    return network_of(doc, path, rate_scale)


def network_of(doc, path, rate_scale=1.0):
    """The Network of a scenario document (load_network), errors naming path."""
    out = []
    for side in ("client", "server"):
        links = doc.get(side) if isinstance(doc, dict) else None
        if not isinstance(links, list) or not links:
            raise ValueError(f"{path}: {side!r} must be a non-empty list of links")
        side_links = []
        for i, link in enumerate(links):
            try:
                bits = netns.rate_bits(link["rate"]) * rate_scale
                delay = float(link.get("delay_ms", 0.0))
            except (KeyError, TypeError, ValueError) as e:
                raise ValueError(f"{path}: {side} link {i}: {e}") from e
            if not (bits >= 1000 and 0 <= delay < 10_000):
                raise ValueError(f"{path}: {side} link {i}: rate or delay out of range")
            side_links.append((f"{int(bits)}bit", delay))
        out.append(side_links)
    if len(out[0]) * len(out[1]) < 2:
        raise ValueError(f"{path}: at least two address pairs are needed")
    seed, volatile = _volatile(path, doc, out[0], out[1])
    return Network(out[0], out[1], volatile, seed)


def _number(v):
    return not isinstance(v, bool) and isinstance(v, int | float)


def _volatile(path, doc, client, server):
    """(seed, [netns.VolatilePair]) of a scenario document's "volatile" section, (None, [])
    without one (load_network)."""
    sec = doc.get("volatile")
    if sec is None:
        return None, []
    where = f"{path}: volatile"
    if not isinstance(sec, dict) or sorted(sec) != ["pairs", "seed"]:
        raise ValueError(f'{where}: want {{"seed": N, "pairs": [...]}}')
    if not isinstance(sec["seed"], int) or isinstance(sec["seed"], bool) or sec["seed"] < 0:
        raise ValueError(f"{where}: seed must be a non-negative integer, got {sec['seed']!r}")
    if not isinstance(sec["pairs"], list) or not sec["pairs"]:
        raise ValueError(f"{where}: pairs must be a non-empty list")
    isps = {side: [link.get("isp") for link in doc[side]] for side in ("client", "server")}
    pairs = []
    for n, e in enumerate(sec["pairs"]):
        w = f"{where} pair {n}"
        if not isinstance(e, dict) or sorted(e) != sorted(VOLATILE_KEYS):
            raise ValueError(f"{w}: want the keys {', '.join(VOLATILE_KEYS)}")
        idx = {}
        for side in ("server", "client"):
            if isps[side].count(e[side]) != 1:
                have = ", ".join(map(str, isps[side]))
                raise ValueError(f"{w}: {e[side]!r} is not the ISP of one {side} link ({have})")
            idx[side] = isps[side].index(e[side])
        w = f"{w} ({e['server']}-{e['client']})"
        if not _number(e["bad_share"]) or not 0 < e["bad_share"] < 1:
            raise ValueError(f"{w}: bad_share must be between 0 and 1, got {e['bad_share']!r}")
        good = server[idx["server"]][0]
        cap = min(netns.rate_bits(good), netns.rate_bits(client[idx["client"]][0]))
        bad = int(e["bad_share"] * cap)
        if bad < 1000:
            raise ValueError(f"{w}: bad rate {bad} bit/s is below 1 kbit/s")
        try:
            p = netns.VolatilePair(idx["server"], idx["client"], good, f"{bad}bit",
                                   e["mean_good_s"], e["mean_bad_s"])  # fmt: skip
        except ValueError as ex:
            raise ValueError(f"{w}: {ex}") from None
        if any((q.server, q.client) == (p.server, p.client) for q in pairs):
            raise ValueError(f"{w}: the pair is given twice")
        pairs.append(p)
    return sec["seed"], pairs


def scenario_run(a):
    """The experiment on the network of a scenario file, built here and removed afterwards.
    Congestion controls the kernel lacks are first loaded from this project's modules
    (kernel.load_modules: mpqoe_olia.ko etc., where built; the testbed guest loads modules)."""
    net = a.network
    tb = netns.Testbed(f"pcx{os.getpid()}", [r for r, _ in net.client], [r for r, _ in net.server],
                       [d for _, d in net.client], [d for _, d in net.server],
                       volatile=net.volatile)  # fmt: skip
    a.client_exec, a.server_exec = f"ip netns exec {tb.client}", f"ip netns exec {tb.server}"
    a.servers, a.bind = tb.server_addrs, tb.client_addrs[0]
    if net.volatile:
        a.volatility, a.volatile_seed = tb.volatility, net.seed
    for cc in a.cc:
        try:  # this project's coupled controls (mpqoe_olia.ko...), where built; else skipped
            kernel.load_modules(ccs=[cc])
        except RuntimeError as e:
            print(f"mpqoe.pcdc.experiment: {cc}: {e}", file=sys.stderr)
    try:
        tb.up()
    except RuntimeError as e:
        _die(str(e))
    try:
        return run_and_record(a)
    finally:
        tb.down()


def run_and_record(a):
    """experiment(a), then DIR's manifest (mpqoe.campaign; partial, and saying so, when
    interrupted) and the summary; 1 when a cell failed, else 0."""
    try:
        _made, _kept, failed = experiment(a)
    except (SystemExit, KeyboardInterrupt):
        write_manifest(a, "interrupted; run again to resume")
        raise
    m = write_manifest(a)
    print(summary(a.out))
    print(f"experiment: manifest {m['status']} ({os.path.join(a.out, 'manifest.json')})")
    return 1 if failed else 0


def _on_term(signum, _frame):
    # unwinds like an error: the cells' finally blocks stop the daemons and the volatile
    # pairs' schedules, the network is torn down
    raise SystemExit(128 + signum)


def main(argv=None):
    a = parse_args(argv)
    signal.signal(signal.SIGTERM, _on_term)
    if a.host_smoke:
        if os.geteuid() != 0:
            _die("--host-smoke needs root (network namespaces)")
        marker = os.path.join(a.out, ".pcdc-smoke")
        if os.path.exists(a.out) and os.listdir(a.out) and not os.path.exists(marker):
            _die(f"--out {a.out} exists and is not a smoke directory: not touching it")
        subprocess.run(["rm", "-rf", a.out], check=True)
        os.makedirs(a.out)
        open(marker, "w").close()
        return host_smoke(a)
    if a.scenario:
        if os.geteuid() != 0:
            _die("--scenario needs root (network namespaces)")
        return scenario_run(a)
    return run_and_record(a)


if __name__ == "__main__":
    sys.exit(main())
