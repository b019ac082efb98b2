#!/usr/bin/env python3
"""The impact factor Omega of every client-server address pair (Chen et al., equation 1), and
its table in the form of the paper's Tables II-IV.

    python3 -m mpqoe.pcdc.impact measure --server ADDR[,ADDR...] --port N
                       [--local ADDR[,ADDR...]] [--T 5]
                       [--warmup 2] [--settle 1] [--samples 10] [--cc cubic] [--json FILE]
    python3 -m mpqoe.pcdc.impact table FILE        print the table of a saved measurement

One sample of pair i is one MPTCP download from a `mpqoe.pcdc.transfer serve` server: the first
subflow on another pair j, a subflow opened on every other pair (this tool is the path manager
of its own connection, so the kernel's PM must be the userspace one and nothing else may manage
connections to --port: pcdcd leaves them alone), `warmup` seconds to leave slow start,
T seconds counted with every subflow, subflow i closed (MPTCP_PM_CMD_SUBFLOW_DESTROY), `settle`
seconds not counted, T more seconds counted; Omega_i = 1 - bytes(second window) / bytes(first
window). The settle time is ours: when a subflow goes, the data that waited in the receiver's
reorder queue for a slower subflow is delivered at once, and counting it in the second window
made a 20 Mbit/s path beside a 2 Mbit/s one look harmful (Omega < 0) in windows of a second.
Its RTT is the mean of the subflow's smoothed RTT (tcp_info) sampled in the first window.
Samples go round-robin over the pairs so that a drift in the network spreads over all of them.

Columns: CC, local and remote address, samples, mean, median, min, max, 10 % and 90 % quantiles
(linear interpolation between order statistics), the 95 % Student t half-width of the mean
(mpqoe.stats.mean_ci), mean RTT. Root (CAP_NET_ADMIN) is needed; bad options: exit 2.
"""

import argparse
import errno
import importlib.util
import ipaddress
import json
import math
import subprocess
import sys
import time

from mpqoe import files, sockopt
from mpqoe.pcdc import mptcp_genl as genl
from mpqoe.pcdc import pmcheck, policy, transfer
from mpqoe.results import quantile

SCHEMA = "pcdc-impact/1"


def mean_ci(values):
    """(mean, half-width of the 95 % t interval) by mpqoe.stats.mean_ci, which needs scipy;
    where scipy is missing (the testbed guest has no python3-scipy) the half-width is None."""
    if importlib.util.find_spec("scipy") is None:
        return math.fsum(values) / len(values), None
    from mpqoe import stats

    ci = stats.mean_ci(values)
    return ci.mean, ci.half


def summarize(omegas, rtts):
    """One table row's numbers from a pair's samples."""
    mean, half = mean_ci(omegas)
    return {
        "samples": len(omegas),
        "mean": mean,
        "median": quantile(omegas, 0.5),
        "min": min(omegas),
        "max": max(omegas),
        "q10": quantile(omegas, 0.1),
        "q90": quantile(omegas, 0.9),
        "ci95": half,
        "rtt_ms": math.fsum(rtts) / len(rtts) if rtts else None,
    }


def _f(v, fmt="{:.2f}"):
    return "-" if v is None else fmt.format(v)


def format_table(doc):
    """The text table of a measurement document."""
    head = ["CC", "Local", "Remote", "Samples", "Mean", "Median", "Min", "Max", "10%", "90%",
            "+-95%", "RTT[ms]"]  # fmt: skip
    rows = [head]
    for p in sorted(doc["pairs"], key=lambda p: (p["local"], p["remote"])):
        local = p["local"] + (f" ({p['local_dev']})" if p.get("local_dev") else "")
        if not p["omega"]:
            rows.append([doc.get("cc") or "-", local, p["remote"], "0"] + ["-"] * 8)
            continue
        s = summarize(p["omega"], p["rtt_ms"])
        rows.append([doc.get("cc") or "-", local, p["remote"], str(s["samples"]),
                     _f(s["mean"]), _f(s["median"]), _f(s["min"]), _f(s["max"]), _f(s["q10"]),
                     _f(s["q90"]), _f(s["ci95"]), _f(s["rtt_ms"], "{:.1f}")])  # fmt: skip
    widths = [max(len(r[c]) for r in rows) for c in range(len(head))]
    return "\n".join("  ".join(v.ljust(w) for v, w in zip(r, widths, strict=True)).rstrip()
                     for r in rows)  # fmt: skip


def unmeasured(doc):
    """Why a measurement document cannot be used, or None: every pair needs a sample (a pair
    without one could only be guessed into P or out of it); the reason names the pairs and
    the first error of each."""
    pairs = doc.get("pairs") if isinstance(doc, dict) else None
    if not pairs or not isinstance(pairs, list):
        return "no pairs"
    missing = [
        f"{p.get('local')} -> {p.get('remote')}"
        + (f" ({p['errors'][0]})" if p.get("errors") else "")
        for p in pairs
        if not p.get("omega")
    ]
    return f"no sample of {', '.join(missing)}" if missing else None


def load_table(path):
    """{(local, remote): (mean Omega, mean RTT ms)} of a saved measurement; ValueError with
    the reason when the file is not one."""
    try:
        with open(path, encoding="utf-8") as f:
            doc = json.load(f)
    except (OSError, ValueError) as e:
        raise ValueError(f"{path}: {e}") from e
    if not isinstance(doc, dict) or doc.get("schema") != SCHEMA:
        raise ValueError(f"{path}: not a {SCHEMA} document")
    out = {}
    try:
        for p in doc["pairs"]:
            om, rt = p["omega"], p["rtt_ms"]
            if not om:
                continue
            if not all(isinstance(x, int | float) and math.isfinite(x) for x in om + rt):
                raise ValueError("non-numeric sample")
            key = (str(ipaddress.ip_address(p["local"])), str(ipaddress.ip_address(p["remote"])))
            out[key] = (math.fsum(om) / len(om), math.fsum(rt) / len(rt) if rt else math.inf)
    except (KeyError, TypeError, ValueError) as e:
        raise ValueError(f"{path}: bad pair entry: {e}") from e
    return out


class _Reader:
    """Reads an endless download, counting bytes."""

    def __init__(self, s):
        self.s = s
        s.settimeout(0.2)

    def run(self, seconds, each=None, every=0.2):
        got = 0
        end = time.monotonic() + seconds
        nxt = time.monotonic()
        while (now := time.monotonic()) < end:
            if each is not None and now >= nxt:
                each()
                nxt = now + every
            try:
                data = self.s.recv(transfer.CHUNK)
            except TimeoutError:
                continue
            if not data:
                raise OSError("the server closed the connection")
            got += len(data)
        return got


def _subflow(s, pair):
    for sf in sockopt.subflows(s.fileno()):
        if sf.get("state") != 1:
            continue
        lip, lport = sf["local"].rsplit(":", 1)
        rip = sf["remote"].rsplit(":", 1)[0]
        if (lip, rip) == pair:
            return sf, int(lport)
    return None, None


def _create(pm, reader, token, local, remote, deadline):
    """Creates a subflow once the connection is fully established: the kernel refuses with
    ENOTCONN before (mptcp_pm_nl_subflow_create_doit), which takes an RTT or more after
    connect() returns, until the server's first data-level ACK; so read and try again until
    the deadline."""
    while True:
        try:
            return pm.subflow_create(token, local, remote)
        except OSError as e:
            if e.errno != errno.ENOTCONN or time.monotonic() > deadline:
                raise
        reader.run(0.05)


def sample(pm, pairs, i, port, local_ids, t_window, warmup, settle_after, cc=None, establish=5.0):
    """(Omega_i, mean RTT of pair i in ms) of one sample; OSError when it cannot be made."""
    target = pairs[i]
    first = next(q for q in pairs if q != target)
    s = transfer.mptcp_socket(cc)
    try:
        s.settimeout(5)
        s.bind((first[0], 0))
        s.connect((first[1], port))
        token = sockopt.mptcp_info(s.fileno())["token"]
        s.sendall(transfer._COUNT.pack(0))
        r = _Reader(s)
        r.run(0.05)  # on short paths the connection is fully established by now
        deadline = time.monotonic() + establish
        for q in pairs:
            if q != first:
                _create(pm, r, token, (q[0], 0, local_ids[q[0]], 0), (q[1], port), deadline)
        while set(map(tuple, transfer.live_pairs(s.fileno()))) < set(pairs):
            if time.monotonic() > deadline:
                missing = set(pairs) - set(map(tuple, transfer.live_pairs(s.fileno())))
                raise OSError(f"subflows not established: {sorted(missing)}")
            r.run(0.1)
        r.run(warmup)
        rtts = []

        def rtt():
            sf, _ = _subflow(s, target)
            if sf is not None and sf.get("rtt_us"):
                rtts.append(sf["rtt_us"] / 1000)

        with_all = r.run(t_window, rtt)
        _, lport = _subflow(s, target)
        if lport is None:
            raise OSError(f"subflow {target} closed before it was removed")
        pm.subflow_destroy(token, (target[0], lport, 0, 0), (target[1], port))
        r.run(settle_after)
        without = r.run(t_window)
        if with_all <= 0:
            raise OSError("nothing received with every subflow")
        return policy.impact_factor(with_all, without), (
            math.fsum(rtts) / len(rtts) if rtts else None
        )
    finally:
        transfer.abort(s)


def measure(locals_, servers, port, t_window, warmup, settle_after, samples, cc=None, log=print):
    """The measurement document (schema SCHEMA) of every (local, server) pair."""
    pairs = [(a, b) for a in locals_ for b in servers]
    local_ids = {a: k + 1 for k, a in enumerate(locals_)}
    res = {q: {"omega": [], "rtt_ms": [], "errors": []} for q in pairs}
    try:
        devs = address_devices()
    except (OSError, ValueError, subprocess.SubprocessError):
        devs = {}
    pm = genl.MptcpPm()
    try:
        for n in range(samples):
            for i, q in enumerate(pairs):
                try:
                    om, rtt = sample(
                        pm, pairs, i, port, local_ids, t_window, warmup, settle_after, cc
                    )
                except OSError as e:
                    res[q]["errors"].append(str(e))
                    log(f"measure: sample {n + 1} of {q[0]} -> {q[1]} failed: {e}")
                    continue
                res[q]["omega"].append(om)
                if rtt is not None:
                    res[q]["rtt_ms"].append(rtt)
                log(f"measure: sample {n + 1} of {q[0]} -> {q[1]}: Omega {om:+.3f}, RTT "
                    + ("-" if rtt is None else f"{rtt:.1f} ms"))  # fmt: skip
    finally:
        pm.close()
    return {
        "schema": SCHEMA,
        "cc": cc,
        "T_s": t_window,
        "warmup_s": warmup,
        "settle_s": settle_after,
        "port": port,
        "created": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "pairs": [
            {"local": a, "local_dev": devs.get(a), "remote": b, **res[(a, b)]} for a, b in pairs
        ],  # fmt: skip
    }


def address_devices():
    """{IPv4 address: interface} of this namespace's interfaces that are up, loopback left
    out (global addresses only)."""
    out = subprocess.run(["ip", "-j", "-4", "addr", "show", "up"], capture_output=True,
                         text=True, check=True).stdout  # fmt: skip
    devs = {}
    for link in json.loads(out):
        if "LOOPBACK" in link.get("flags", []):
            continue
        for a in link.get("addr_info", []):
            if a.get("scope") == "global":
                devs[a["local"]] = link.get("ifname")
    return devs


def local_addresses():
    """The IPv4 addresses of this namespace's interfaces that are up, loopback left out."""
    return list(address_devices())


def _addr_list(text, what):
    out = []
    for a in text.split(","):
        try:
            out.append(str(ipaddress.IPv4Address(a.strip())))
        except ValueError:
            _die(f"{what}: {a!r} is not an IPv4 address")
    if len(set(out)) != len(out):
        _die(f"{what}: an address is given twice")
    return out


def _die(msg):
    print(f"mpqoe.pcdc.impact: {msg}", file=sys.stderr)
    raise SystemExit(2)


def parse_args(argv):
    ap = argparse.ArgumentParser(prog="mpqoe.pcdc.impact", description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    m = sub.add_parser("measure", help="measure and print the table")
    m.add_argument("--server", required=True, help="server addresses, comma separated")
    m.add_argument("--port", type=int, required=True, help="port of mpqoe.pcdc.transfer serve")
    m.add_argument("--local", help="local addresses (default: every global IPv4 address)")
    m.add_argument("--T", dest="t_window", type=float, default=5.0, help="window T in s")
    m.add_argument("--warmup", type=float, default=2.0, help="s before the first window")
    m.add_argument("--settle", type=float, default=1.0, help="s between removal and window 2")
    m.add_argument("--samples", type=int, default=10, help="samples per pair")
    m.add_argument("--cc", help="congestion control of the connections")
    m.add_argument("--json", help="write the measurement here (atomically)")
    t = sub.add_parser("table", help="print the table of a saved measurement")
    t.add_argument("file")
    a = ap.parse_args(argv)
    if a.cmd == "measure":
        if not 0 < a.port < 65536:
            _die("--port must be 1-65535")
        if not (a.t_window > 0 and a.warmup >= 0 and a.settle >= 0 and a.samples >= 1):
            _die("--T must be > 0, --warmup and --settle >= 0, --samples >= 1")
        a.servers = _addr_list(a.server, "--server")
        a.locals = _addr_list(a.local, "--local") if a.local else None
    return a


def main(argv=None):
    a = parse_args(argv)
    if a.cmd == "table":
        try:
            with open(a.file, encoding="utf-8") as f:
                doc = json.load(f)
            if doc.get("schema") != SCHEMA:
                raise ValueError(f"not a {SCHEMA} document")
            print(format_table(doc))
        except (OSError, ValueError, KeyError, TypeError, AttributeError) as e:
            _die(f"{a.file}: {e}")
        return 0
    pmcheck.require_userspace_pm("mpqoe.pcdc.impact")
    locals_ = a.locals or local_addresses()
    if len(locals_) * len(a.servers) < 2:
        _die("at least two address pairs are needed (one to keep the connection alive)")
    doc = measure(locals_, a.servers, a.port, a.t_window, a.warmup, a.settle, a.samples, a.cc,
                  log=lambda m: print(m, file=sys.stderr, flush=True))  # fmt: skip
    if a.json:
        files.write_json(a.json, doc)
    print(format_table(doc))
    return 0 if all(p["omega"] for p in doc["pairs"]) else 1


if __name__ == "__main__":
    try:
        sys.exit(main())
    except TimeoutError as e:
        print(f"mpqoe.pcdc.impact: {e}", file=sys.stderr)
        sys.exit(1)
