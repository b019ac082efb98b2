"""Connection set-up latency seen by the clients of the end-to-end test.

tcpdump runs on every client interface inside the client's namespace and keeps only SYN and
SYN/ACK segments; afterwards each SYN is paired with its SYN/ACK (mpqoe.pcap), giving per
subflow the time from the first SYN to the SYN/ACK as the client saw it: the MP_CAPABLE SYN of a
connection and each MP_JOIN. For comparison the same capture times a plain TCP connection, and
ping times ICMP echo, both routed by the controller's shortest-path forwarding (they run after
the checks, whose log check expects MPTCP only). Numbers are printed, never asserted; with
e2e_controller.py --setup-csv they are also written, one row per SYN and per ping
(mpqoe.pcap.setup_rows), with the run's outcome, so that a page can be made from kept runs.
"""

import os
import re
import select
import subprocess
import time

from mpqoe import bulk, files, pcap, results
from mpqoe import topo as mq
from mpqoe.pcap import SETUP_COLUMNS


class HandshakeCapture:
    """tcpdump of SYN and SYN/ACK segments on each interface of some Mininet hosts."""

    FILTER = "tcp[tcpflags] & tcp-syn != 0"

    def __init__(self, hosts, workdir):
        self.files, self.procs = [], []
        for host in hosts:
            for intf, _ip in mq.host_interfaces(host):
                path = os.path.join(workdir, f"syn-{intf}.pcap")
                # --immediate-mode: packets reach tcpdump at once, not in blocks that a stop
                # would lose; -U: each is written out as it comes.
                cmd = ["tcpdump", "-i", intf, "-n", "-U", "--immediate-mode", "-s", "128"]
                cmd += ["-Z", "root", "-w", path]
                p = host.popen(
                    [*cmd, self.FILTER],
                    stdout=subprocess.DEVNULL,
                    stderr=subprocess.PIPE,
                    text=True,
                )
                self.files.append(path)
                self.procs.append(p)

    def wait_ready(self, timeout=5):
        """Until every tcpdump says it listens; the interfaces that did not, with tcpdump's
        words."""
        deadline, bad = time.monotonic() + timeout, []
        for path, p in zip(self.files, self.procs, strict=True):
            left = deadline - time.monotonic()
            ready = select.select([p.stderr], [], [], max(0, left))[0]
            line = p.stderr.readline().strip() if ready else "no answer"
            if "listening on" not in line:
                bad.append(f"{os.path.basename(path)}: {line}")
        return bad

    def stop(self):
        """Stops tcpdump (it writes out what it holds) and returns pcap.handshakes."""
        time.sleep(0.3)  # the last SYN/ACK may still be on its way to tcpdump
        for p in self.procs:
            if p.poll() is None:
                p.terminate()
        for p in self.procs:
            try:
                p.wait(timeout=5)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait(timeout=5)
        return pcap.capture_handshakes(self.files)


def fmt_ms(v):
    return "none" if v is None else f"{v:.1f} ms"


def print_handshakes(found, owner):
    """One line per SYN: its host, kind, addresses and set-up time; MP_CAPABLE lines start a
    connection. owner: {client ip: host name}."""
    print("  client-side SYN -> SYN/ACK (tcpdump in the client's namespace):", flush=True)
    for h in found:
        ip = h["client"].split(":")[0]
        what = fmt_ms(h["setup_ms"]) if h["synack_t"] is not None else "no SYN/ACK"
        retx = f", {h['syns']} SYNs" if h["syns"] > 1 else ""
        lead = "   " if h["kind"] == "MP_JOIN" else "  "
        print(
            f"  {lead}{owner.get(ip, ip)} {h['kind']:<10} {h['client']} -> {h['server']}:"
            f" {what}{retx}",
            flush=True,
        )


def summary(found):
    """{kind: [set-up ms]} of the answered SYNs, the first MP_CAPABLE of the run on its own."""
    out = {}
    first = True
    for h in found:
        if h["setup_ms"] is None:
            continue
        key = h["kind"]
        if key == "MP_CAPABLE" and first:
            key, first = "first MP_CAPABLE", False
        out.setdefault(key, []).append(h["setup_ms"])
    return out


def write_setup_csv(path, rows, variant, seed, ok):
    """rows (pcap.setup_rows) as a CSV at path, written atomically, each with the run's variant,
    seed and status (ok, or failed when a check of the run failed: a partial record)."""
    status = "ok" if ok else "failed"
    full = [{"variant": variant, "seed": seed, "status": status, **r} for r in rows]
    files.write_atomic(path, results.csv_text(full, SETUP_COLUMNS))


def print_summary(found, ping_ms):
    """The numbers in one block: per kind the count, minimum, median and maximum."""
    print("  set-up latency (client side, ms):", flush=True)
    for kind, v in summary(found).items():
        v = sorted(v)
        print(
            f"    {kind:<16} n={len(v)} min {v[0]:.1f} median {v[len(v) // 2]:.1f} max {v[-1]:.1f}",
            flush=True,
        )
    for who, times in ping_ms.items():
        if times:
            rest = sorted(times[1:])
            later = f", later median {rest[len(rest) // 2]:.2f}" if rest else ""
            print(f"    ping {who:<11} first {times[0]:.2f}{later}", flush=True)


_PING_TIME = re.compile(r"icmp_seq=(\d+) .*time=([\d.]+) ms")


def ping_times(host, dst, count=4):
    """Round-trip times (ms) of `count` pings, in sequence order (lost ones left out)."""
    out = host.cmd(f"ping -n -c {count} -i 0.2 -W 2 {dst}")
    return [float(t) for _seq, t in sorted(_PING_TIME.findall(out), key=lambda x: int(x[0]))]


def print_controller_times(stats, log_path):
    """The controller's side of the same handshakes: GET /mpqoe/stats' step timings and, from
    its log, the per-packet-in step times of every MPTCP handshake packet-in."""
    print("  in the controller (GET /mpqoe/stats, microseconds):", flush=True)
    for step, t in stats.get("timingsUs", {}).items():
        print(
            f"    {step:<15} n={t['count']} p50 {t['p50']:.0f} p90 {t['p90']:.0f}"
            f" p99 {t['p99']:.0f} max {t['max']:.0f}",
            flush=True,
        )
    print("  handshake packet-ins (controller log: time after the packet-in, ms):", flush=True)
    with open(log_path, errors="replace") as f:
        for ln in f:
            if "packet-in" in ln and "[decided" in ln and ": MPTCP " in ln:
                print("    " + ln.rstrip()[:400], flush=True)


def plain_connect(host, server_ip, size=100_000):
    """A plain TCP transfer to the bulk server (the SYN is routed as plain IPv4); its report."""
    out = host.cmd("timeout 30 " + " ".join(bulk.client_cmd(server_ip, size, tcp=True)))
    return out
