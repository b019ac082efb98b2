#!/usr/bin/python3
"""Fairness experiment of the coupled congestion controls, run in the QEMU TCG guest.

    /usr/bin/python3 kernel-schedulers/cc-fairness/cc_run.py [--runs N] [--data DIR]
        [--modules DIR] [--kernel SPEC] [--only CASE/ALGO,...] [--only-runs K,...] [--dry-run]

Plans every run of CELLS that has no per-run CSV in --data yet (so an interrupted experiment
resumes where it stopped), boots the Debian kernel the modules were built for (their
kernel.txt; --kernel must name the same) once through ../smoke/run.sh with
guest-init.sh as /init, the plan and the parameters, and writes one CSV per finished run
(atomically) as <data>/<case>_<algo>_run<k>.csv. Each row records the code version (the
commit, `-dirty-<hash>` when the tree differs; docs/results/ not counted) and the sha256 of
the module that was loaded for the algorithm (`builtin` for reno and cubic) and the kernel
(`uname -r` of the guest's Debian kernel). Runs whose guest
check failed are not written. Every attempt at a run, written or not, is recorded through the
campaign interface (mpqoe.campaign) in --store (default: --data, or build/cc-fairness when
--data is the committed data): <store>/fairness/attempts/<case>_<algo>/run<k>-<n>.json with why
it failed (the guest's FAIL line, or no result at all), the code version, the kernel and the
host CPU, and <store>/fairness/manifest.json, the campaign's one manifest format, says which
runs of the selected cells are ok or missing ("partial" until all are). Exit 0 when every
planned run was written, 1 otherwise, 2 on bad usage. The guest is exclusive: the caller
serialises guest use (see README.md).
"""

import argparse
import hashlib
import os
import subprocess
import sys
import tempfile
import time

from mpqoe import campaign, files, kernel
from mpqoe import results as shared
from mpqoe.cc_fairness import CELLS, COLUMNS, MODULES, PARAMS, PATH_COLUMNS, RATE_MBPS, run_path
from mpqoe.runs import ONLY_RUNS_HELP, only_runs

HERE = os.path.dirname(os.path.abspath(__file__))
KSCHED = os.path.dirname(HERE)
REPO = os.path.dirname(KSCHED)
DATA = os.path.join(REPO, "docs/results/cc/data")
FAMILY, EXPERIMENT = "cc", "fairness"  # on the campaign interface (mpqoe.campaign_cc)


def sha256(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def parse_kv(line):
    return dict(kv.split("=", 1) for kv in line.split()[1:] if "=" in kv)


def plan(args):
    """[(case, algo, tcp, k)] of the selected runs without a CSV, interleaved (run k of every
    cell, then k + 1): mpqoe.campaign's resume."""
    tcp = {f"{c}/{a}": t for c, a, t in CELLS}
    todo = campaign.todo(selected(args), args.only_run_numbers, lambda c, k: status(args, c, k))
    return [(*cell.split("/"), tcp[cell], k) for cell, k in todo]


def status(args, cell, k):
    """A run's status as its record says: "ok" when its CSV exists (written only when the
    guest's checks passed), else None."""
    case, algo = cell.split("/")
    return "ok" if os.path.exists(run_path(args.data, case, algo, k)) else None


def store_of(args):
    """Where the attempts and the manifest go: --store, else --data unless that is the
    committed data (which holds the run CSVs only)."""
    if args.store:
        return args.store
    if os.path.realpath(args.data) == os.path.realpath(DATA):
        return os.path.join(REPO, "build", "cc-fairness")
    return args.data


def selected(args):
    only = set(args.only.split(",")) if args.only else None
    return [f"{c}/{a}" for c, a, _t in CELLS if not only or f"{c}/{a}" in only]


def write_manifest(args, note=""):
    """The experiment's manifest (mpqoe.campaign) over the selected cells and 1..--runs."""

    st = campaign.state(selected(args), args.runs, lambda c, k: status(args, c, k))
    return campaign.write_manifest(store_of(args), FAMILY, EXPERIMENT, args.runs, st, note=note,
                                   data=os.path.abspath(args.data))  # fmt: skip


def record(args, case, algo, run, status, why, version, kver, written=""):
    campaign.record_attempt(
        store_of(args), EXPERIMENT, f"{case}/{algo}", int(run), status, why, family=FAMILY,
        code_version=version, kernel=kver, cpu=campaign.host_cpu(), record=written,
    )  # fmt: skip


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--data", default=os.path.join(REPO, "docs/results/cc/data"))
    ap.add_argument("--modules", default=os.path.join(KSCHED, "build/modules"))
    ap.add_argument("--kernel", default="", help="Debian kernel (default: the modules')")
    ap.add_argument("--only", default="", help="comma-separated case/algo cells")
    ap.add_argument("--only-runs", default="", help=ONLY_RUNS_HELP)
    ap.add_argument("--store", default="",
                    help="attempts and manifest (default: --data, or build/cc-fairness for the "
                    "committed data)")  # fmt: skip
    ap.add_argument("--dry-run", action="store_true")
    args = ap.parse_args()
    if args.runs < 1:
        ap.error("--runs must be at least 1")
    try:
        args.only_run_numbers = only_runs(args.only_runs, args.runs)
    except ValueError as e:
        ap.error(str(e))
    shas = {}
    for m in MODULES:
        ko = os.path.join(args.modules, f"mpqoe_{m}.ko")
        if not os.path.exists(ko):
            print(f"cc-fairness: {ko} missing (make -C kernel-schedulers modules)", file=sys.stderr)
            return 2
        shas[m] = sha256(ko)
    kver = kernel.modules_kernel(args.modules)
    if not kver:
        print(
            f"cc-fairness: {args.modules}/kernel.txt names no kernel (make -C kernel-schedulers "
            "modules)",
            file=sys.stderr,
        )
        return 2
    todo = plan(args)
    print(f"cc-fairness: {len(todo)} runs to do")
    for t in todo:
        print("  " + " ".join(map(str, t)))
    if not todo and not args.dry_run:
        write_manifest(args)
    if not todo or args.dry_run:
        return 0
    version = shared.code_version(REPO)
    per_run = int(PARAMS["DURATION"]) + 8
    timeout = 120 + len(todo) * per_run * 2
    with tempfile.TemporaryDirectory(prefix="cc-fairness.") as tmp:
        with open(os.path.join(tmp, "plan"), "w") as f:
            f.writelines(f"{c} {a} {t} {r}\n" for c, a, t, r in todo)
        with open(os.path.join(tmp, "fairness.env"), "w") as f:
            f.writelines(f"{k}={v}\n" for k, v in PARAMS.items())
        save = os.path.join(tmp, "verdicts")
        cmd = [os.path.join(KSCHED, "smoke/run.sh"), "--modules", args.modules]
        cmd += ["--schedulers", "", "--ccs", " ".join(MODULES)]
        cmd += ["--init", os.path.join(HERE, "guest-init.sh"), "--timeout", str(timeout)]
        cmd += ["--extra", os.path.join(tmp, "plan"), "--extra", os.path.join(tmp, "fairness.env")]
        cmd += ["--save", save]
        if args.kernel:
            cmd += ["--kernel", args.kernel]
        print("cc-fairness: " + " ".join(repr(c) if not c else c for c in cmd), flush=True)
        try:
            rc = subprocess.run(cmd, check=False).returncode
        except KeyboardInterrupt:
            rc = None
        lines = open(save).read().splitlines() if os.path.exists(save) else []
    passed = {tuple(ln.split()[2:5]) for ln in lines if ln.startswith("PASS run ")}
    failed = {  # FAIL run <case> <algo> <run>: what failed
        tuple(x.rstrip(":") for x in ln.split()[2:5]): ln for ln in lines
        if ln.startswith("FAIL run ")
    }  # fmt: skip
    written = 0
    seen = set()
    for ln in lines:
        if not ln.startswith("RESULT "):
            continue
        kv = parse_kv(ln)
        key = (kv["case"], kv["algo"], kv["run"])
        seen.add(key)
        if key not in passed:
            print(f"cc-fairness: run {' '.join(key)} failed its checks, not written")
            why = failed.get(key, "no PASS line from the guest")
            record(args, *key, "failed", f"guest checks: {why}", version, kver)
            continue
        row = {
            "case": kv["case"],
            "algo": kv["algo"],
            "tcp_cc": kv["tcp_cc"],
            "run": kv["run"],
            "mptcp_mbps": kv["mptcp_mbps"],
            "tcp_mbps": "" if kv["tcp_mbps"] == "-" else kv["tcp_mbps"],
            "subflows": kv["subflows"],
            "guest_cpu_pct": kv["guest_cpu_pct"],
            "rate1_mbps": RATE_MBPS["RATE1"],
            "rate2_mbps": RATE_MBPS["RATE2"],
            "limit1_pkts": PARAMS["LIMIT1"],
            "limit2_pkts": PARAMS["LIMIT2"],
            "delay_ms": PARAMS["DELAY_MS"],
            "warm_s": PARAMS["WARM"],
            "measure_s": PARAMS["MEASURE"],
            "code_version": version,
            "module_sha256": shas.get(kv["algo"], "builtin"),
            "kernel": kver,
            "finished_utc": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
            **{k: kv[k] for k in PATH_COLUMNS},
        }
        path = run_path(args.data, kv["case"], kv["algo"], int(kv["run"]))
        files.write_atomic(path, shared.csv_text([row], COLUMNS))
        written += 1
        record(args, *key, "ok", "", version, kver, os.path.relpath(path, store_of(args)))
    for case, algo, _tcp, run in todo:  # planned, but the guest gave no result
        if (case, algo, str(run)) not in seen:
            why = "interrupted" if rc is None else f"no result from the guest (exit {rc})"
            record(args, case, algo, run, "failed", why, version, kver)
    m = write_manifest(args, "" if rc is not None else "interrupted; run again to resume")
    print(f"cc-fairness: {written} of {len(todo)} runs written to {args.data}; manifest "
          f"{m['status']}")  # fmt: skip
    if rc is None:
        return 130
    return 0 if written == len(todo) else 1


if __name__ == "__main__":
    sys.exit(main())
