#!/usr/bin/env python3
"""Benchmark: plain TCP against MPTCP on a constrained two-path link; prints both.

    bench/tcp_vs_mptcp.py [--duration 60] [--segment 4] [--set ga] [--rates 2,2]
                          [--bulk-mb 4] [--settings JSON] [--json FILE]

For each transport, on a fresh mpqoe.twopath testbed (each path limited to its rate by tbf in both
directions):
  1. bulk: one HTTP download of --bulk-mb MiB with curl from the harness server (goodput);
  2. QoE: one dash.js client (`./run --clients 1`) playing --duration s of content; its QoE
     summary and the bytes each client interface received (--settings: dash.js settings, as
     for `run`).
Plain TCP is the same Chromium and curl without mptcpize: the MPTCP listener falls back to TCP,
which can only use path 1. MPTCP opens a second subflow over path 2. The numbers are measured,
never asserted; --json writes them to a file as well (atomically).
"""

import json
import os
import subprocess
import sys
import tempfile
import time

from mpqoe import twopath
from mpqoe.dash_harness import (
    HOME,
    PY,
    RUN,
    Failure,
    Parser,
    UsageError,
    run_main,
    write_json_atomic,
)

SERVER = os.path.join(HOME, "server", "mptcp_server.py")


def bulk(lab, mptcp, size_mb, tmp):
    path = os.path.join(tmp, "bulk.bin")
    if not os.path.exists(path):
        with open(path, "wb") as f:
            f.write(os.urandom(size_mb * 1024 * 1024))
    srv = subprocess.Popen(
        ["ip", "netns", "exec", lab.srv, PY, SERVER, "--mount", f"/bulk={tmp}"]
        + ["--bind", twopath.SERVER_ADDR, "--port", "8080"],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        line = srv.stdout.readline()
        if not line.startswith("listening"):
            raise Failure("bulk server did not start")
        before = lab.link_bytes(lab.cli)
        wrap = ["mptcpize", "run"] if mptcp else []
        r = lab.ns(
            lab.cli,
            *wrap,
            "curl",
            "-sS",
            "-o",
            "/dev/null",
            "-w",
            "%{size_download} %{time_total}",
            f"http://{twopath.SERVER_ADDR}:8080/bulk/bulk.bin",
            timeout=300,
        )
        after = lab.link_bytes(lab.cli)
        size, secs = r.stdout.split()
        return {
            "bytes": int(size),
            "seconds": round(float(secs), 2),
            "goodput_mbit": round(int(size) * 8 / float(secs) / 1e6, 2),
            "path_rx_bytes": {d: after[d][0] - before[d][0] for d in ("v1c", "v2c")},
        }
    finally:
        srv.terminate()
        srv.wait(timeout=10)


def qoe(lab, mptcp, args, out):
    before = lab.link_bytes(lab.cli)
    cmd = [RUN, "--clients", "1", "--set", args.set, "--duration", str(args.duration)]
    cmd += ["--segment", str(args.segment), "--server-netns", lab.srv, "--netns", lab.cli]
    cmd += ["--server-addr", twopath.SERVER_ADDR, "--out", out, "--progress", "30"]
    if not mptcp:
        cmd.append("--tcp")
    if args.settings:
        cmd += ["--settings", args.settings]
    t = time.monotonic()
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=args.duration * 3 + 120)
    wall = time.monotonic() - t
    after = lab.link_bytes(lab.cli)
    if r.returncode != 0:
        sys.stderr.write(r.stderr[-3000:])
    if not os.path.exists(os.path.join(out, "client-0.json")):
        raise Failure(f"run exited {r.returncode} without a client result")
    with open(os.path.join(out, "client-0.json")) as f:
        rec = json.load(f)
    keys = [
        "status",
        "startup_delay_s",
        "avg_bitrate_kbps",
        "avg_rendered_kbps",
        "switches_ga",
        "switches_count",
        "outage_s",
        "stalls",
        "success_rate",
        "mean_throughput_kbps",
        "segments_requested",
        "bytes",
    ]
    res = {k: rec.get(k) for k in keys}
    res["path_rx_bytes"] = {d: after[d][0] - before[d][0] for d in ("v1c", "v2c")}
    res["wall_s"] = round(wall, 1)
    return res


def body(argv):
    ap = Parser(prog="tcp_vs_mptcp", description=__doc__.split("\n\n")[0])
    ap.add_argument("--duration", type=int, default=60)
    ap.add_argument("--segment", type=float, default=4)
    ap.add_argument("--set", choices=["ga", "qomra"], default="ga")
    ap.add_argument("--rates", default="2,2", help="Mbit/s of path 1,path 2")
    ap.add_argument("--bulk-mb", type=int, default=4)
    ap.add_argument("--settings", help="dash.js settings JSON, passed to run")
    ap.add_argument("--json", help="also write the results here")
    args = ap.parse_args(argv)
    try:
        rates = tuple(float(x) for x in args.rates.split(","))
    except ValueError:
        rates = ()
    if len(rates) != 2 or min(rates) <= 0:
        raise UsageError("--rates wants two positive numbers, e.g. 2,2")
    if args.duration < 4 or args.bulk_mb < 1:
        raise UsageError("--duration >= 4 and --bulk-mb >= 1")
    if args.settings:
        try:
            json.loads(args.settings)
        except ValueError as e:
            raise UsageError(f"--settings is not JSON: {e}") from e
    twopath.preflight()
    results = {"rates_mbit": rates, "set": args.set, "duration": args.duration}
    results["settings"] = args.settings
    with tempfile.TemporaryDirectory(prefix="mqdash-bench-") as tmp:
        for mode in ("tcp", "mptcp"):
            with twopath.TwoPath(rates_mbit=rates) as lab:
                b = bulk(lab, mode == "mptcp", args.bulk_mb, tmp)
                q = qoe(lab, mode == "mptcp", args, os.path.join(tmp, mode))
            results[mode] = {"bulk": b, "qoe": q}
            print(f"{mode}: bulk {b['goodput_mbit']} Mbit/s, QoE {json.dumps(q)}", flush=True)

    print(f"\npaths: {rates[0]:g} + {rates[1]:g} Mbit/s (tbf), {args.set} set, {args.duration} s")
    print(f"dash.js settings: {args.settings or 'defaults'}")
    rows = [
        ("bulk goodput (Mbit/s)", lambda r: r["bulk"]["goodput_mbit"]),
        (
            "bulk MB on path 1 / 2",
            lambda r: "{:.2f} / {:.2f}".format(
                *[v / 1e6 for v in r["bulk"]["path_rx_bytes"].values()]
            ),
        ),
        ("client status", lambda r: r["qoe"]["status"]),
        ("avg bitrate (kbit/s)", lambda r: r["qoe"]["avg_bitrate_kbps"]),
        ("avg rendered (kbit/s)", lambda r: r["qoe"]["avg_rendered_kbps"]),
        (
            "switches GA / count",
            lambda r: f"{r['qoe']['switches_ga']} / {r['qoe']['switches_count']}",
        ),
        ("outage (s)", lambda r: r["qoe"]["outage_s"]),
        ("startup delay (s)", lambda r: r["qoe"]["startup_delay_s"]),
        ("success rate", lambda r: r["qoe"]["success_rate"]),
        ("mean throughput (kbit/s)", lambda r: r["qoe"]["mean_throughput_kbps"]),
        ("payload MB (player)", lambda r: round(r["qoe"]["bytes"] / 1e6, 2)),
        (
            "video MB on path 1 / 2",
            lambda r: "{:.2f} / {:.2f}".format(
                *[v / 1e6 for v in r["qoe"]["path_rx_bytes"].values()]
            ),
        ),
    ]
    print(f"{'':26}{'TCP':>16}{'MPTCP':>16}")
    for name, f in rows:
        print(f"{name:26}{str(f(results['tcp'])):>16}{str(f(results['mptcp'])):>16}")
    if args.json:
        write_json_atomic(args.json, results, indent=1)
    return 0


def main(argv=None):
    return run_main("tcp_vs_mptcp", body, argv)


if __name__ == "__main__":
    sys.exit(main())
