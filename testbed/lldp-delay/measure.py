#!/usr/bin/python3
"""LLDP link delays against netem, in the testbed guest (docs/floodlight.md, "Link delays").

    flock -x /tmp/mpqoe-machine.lock /usr/bin/python3 testbed/lldp-delay/measure.py \\
        --jar NAME=JAR [--jar NAME=JAR ...] --out docs/results/lldp-delay/data/RUN

Boots the guest (testbed/run) with testbed/lldp-delay/guest.py, which builds
testbed/lldp-delay/topology.json (two links each of 0, 5, 10, 25 and 50 ms one-way, netem)
under a controller on this host, as `make testbed-smoke` does. Each jar in turn (a phase, by
its NAME) is the standalone controller in discovery mode (no descriptor, --servers): once it
lists all links and after --warmup seconds, GET /mpqoe/topology is read --readings times,
--every seconds apart. Writes readings.csv (phase, jar commit, reading, seconds since the
controller started, link ends, delayMs) and, from the first jar's debug log, samples.csv (every
one-way probe's packet-out to packet-in time and echo-subtracted sample, every reflected
probe's round trip, every ECHO round trip). testbed/lldp-delay/lldp_report.py turns them into the
tables. Both are written atomically; a session in which a phase or the guest failed writes
them as readings.partial.csv and samples.partial.csv, which the report never reads.
"""

import argparse
import csv
import io
import os
import re
import subprocess
import sys
import time

from mpqoe import files
from mpqoe.rest import ERRORS, Rest

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))


SERVER = "10.0.1.1"
LINKS = 10

LLDP_LINE = re.compile(
    r"^(\d\d:\d\d:\d\d\.\d+) .*lldp ([0-9a-f]{16})/(\d+) -> ([0-9a-f]{16})/(\d+) "
    r"elapsed ([\d.]+) ms one-way ([\d.NaN]+) ms"
)
REFLECTED_LINE = re.compile(
    r"^(\d\d:\d\d:\d\d\.\d+) .*lldp reflected ([0-9a-f]{16})/(\d+) elapsed ([\d.]+) ms"
)
ECHO_LINE = re.compile(r"^(\d\d:\d\d:\d\d\.\d+) .*echo ([0-9a-f]{16}) rtt ([\d.]+) ms")


def run_phase(name, jar, commit, port, args, rows, log_path):
    rest = Rest(port + 1)
    cmd = [
        "java",
        "-Dorg.slf4j.simpleLogger.showDateTime=true",
        "-Dorg.slf4j.simpleLogger.dateTimeFormat=HH:mm:ss.SSS",
        "-Dorg.slf4j.simpleLogger.log.org.mpqoe.openflow.NetworkDiscovery=debug",
        "-Dorg.slf4j.simpleLogger.log.org.mpqoe.openflow.SwitchConnection=debug",
        "-jar",
        jar,
        "controller",
        "--servers",
        SERVER,
        "--bind",
        "127.0.0.1",
        "--port",
        str(port),
        "--rest",
        str(port + 1),
    ]
    with open(log_path, "w") as log:
        ctl = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT)
    t0 = time.monotonic()
    try:
        deadline = t0 + args.connect
        while True:
            try:
                if len(rest.get("/mpqoe/topology")["links"]) == LINKS:
                    break
            except ERRORS:
                pass
            if time.monotonic() > deadline or ctl.poll() is not None:
                print(f"measure: {name}: not all {LINKS} links within {args.connect} s", flush=True)
                return False
            time.sleep(1)
        print(f"measure: {name}: {LINKS} links after {time.monotonic() - t0:.0f} s", flush=True)
        time.sleep(args.warmup)
        for i in range(args.readings):
            t = rest.get("/mpqoe/topology")
            at = time.monotonic() - t0
            for link in t["links"]:
                rows.append(
                    [name, commit, i, f"{at:.1f}", link["a"], link["portA"], link["b"]]
                    + [link["portB"], f"{link['delayMs']:.3f}"]
                )
            print(f"measure: {name}: reading {i + 1}/{args.readings} at {at:.0f} s", flush=True)
            if i + 1 < args.readings:
                time.sleep(args.every)
        return True
    finally:
        ctl.terminate()
        try:
            ctl.wait(timeout=10)
        except subprocess.TimeoutExpired:
            ctl.kill()
            ctl.wait()


def samples(log_path):
    out = []
    with open(log_path) as f:
        for line in f:
            m = LLDP_LINE.match(line)
            if m:
                ts, src, sp, dst, dp, elapsed, one = m.groups()
                out.append(["lldp", ts, int(src, 16), sp, int(dst, 16), dp, elapsed, one])
                continue
            m = REFLECTED_LINE.match(line)
            if m:
                ts, dpid, port, elapsed = m.groups()
                out.append(["reflected", ts, int(dpid, 16), port, "", "", elapsed, ""])
                continue
            m = ECHO_LINE.match(line)
            if m:
                ts, dpid, rtt = m.groups()
                out.append(["echo", ts, int(dpid, 16), "", "", "", rtt, ""])
    return out


def jar_commit(jar):
    """The git commit a jar was built from: the commit file beside it (see --help)."""
    path = jar + ".commit"
    with open(path) as f:
        return f.read().strip()


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument(
        "--jar",
        action="append",
        required=True,
        metavar="NAME=JAR",
        help="a phase: its name and jar (JAR.commit beside it); samples.csv is the first's",
    )
    p.add_argument("--out", required=True, help="directory for readings.csv and samples.csv")
    p.add_argument("--port", type=int, default=16673, help="OpenFlow port (REST: +1)")
    p.add_argument("--connect", type=int, default=120, help="seconds to wait for all links")
    p.add_argument("--warmup", type=int, default=60, help="seconds after all links are listed")
    p.add_argument("--readings", type=int, default=10)
    p.add_argument("--every", type=int, default=12, help="seconds between readings")
    args = p.parse_args()
    phases = []
    for spec in args.jar:
        name, sep, jar = spec.partition("=")
        if not sep or not re.fullmatch(r"[a-z][a-z0-9-]*", name) or not jar:
            p.error(f"--jar wants NAME=JAR with a lower-case name, got {spec!r}")
        phases.append((name, jar))
    commits = {name: jar_commit(jar) for name, jar in phases}
    os.makedirs(args.out, exist_ok=True)
    work = os.path.join(REPO, "build", "lldp-delay")
    os.makedirs(work, exist_ok=True)
    stop = os.path.join(work, "stop")
    if os.path.exists(stop):
        os.remove(stop)
    budget = len(phases) * (args.connect + args.warmup + args.readings * args.every) + 120
    guest = subprocess.Popen(
        [
            os.path.join(REPO, "testbed", "run"),
            "--timeout",
            str(budget + 180),
            "--results",
            work,
            "--",
            "/usr/bin/python3",
            "testbed/lldp-delay/guest.py",
            "--controller",
            f"10.0.2.2:{args.port}",
            "--stop",
            "/results/stop",
            "--timeout",
            str(budget),
        ]
    )
    rows = []
    ok = True
    try:
        for name, jar in phases:
            log = os.path.join(work, f"controller-{name}.log")
            ok = run_phase(name, jar, commits[name], args.port, args, rows, log) and ok
    finally:
        open(stop, "w").close()
        rc = guest.wait()
    # A session whose phases or guest failed is kept, but as *.partial.csv, which the report
    # never reads.
    done = ok and rc == 0
    suffix = ".csv" if done else ".partial.csv"
    head = ["phase", "commit", "reading", "seconds", "a", "portA", "b", "portB", "delayMs"]
    files.write_atomic(os.path.join(args.out, "readings" + suffix), csv_text(head, rows))
    head = ["kind", "time", "src", "srcPort", "dst", "dstPort", "ms", "oneWayMs"]
    log = os.path.join(work, f"controller-{phases[0][0]}.log")
    files.write_atomic(os.path.join(args.out, "samples" + suffix), csv_text(head, samples(log)))
    state = "" if done else ", partial"
    print(f"measure: guest exit {rc}; {len(rows)} rows in {args.out}{state}", flush=True)
    return 0 if done else 1


def csv_text(head, rows):
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\r\n")
    w.writerow(head)
    w.writerows(rows)
    return out.getvalue()


if __name__ == "__main__":
    sys.exit(main())
