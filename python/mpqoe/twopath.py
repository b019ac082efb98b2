"""A two-path MPTCP testbed made of two network namespaces (Linux iproute2 only, no Mininet).

Not the descriptor's Mininet network (mpqoe.topo): the DASH harness is tested on its own, on
machines with neither Mininet, Open vSwitch nor a controller, whose paths are not under test.

    client ns  v1c 10.31.1.2 ---- tbf R1 ---- v1s 10.31.1.1  server ns (lo: 10.31.0.1)
               v2c 10.31.2.2 ---- tbf R2 ---- v2s 10.31.2.1

The server is single-homed at 10.31.0.1 (on its loopback), reachable over both paths; the client
is dual-homed like the papers' clients: its main table sends 10.31.0.1 over path 1, a source rule
sends traffic from 10.31.2.2 over path 2, and an MPTCP `subflow` endpoint on 10.31.2.2 makes the
in-kernel path manager open the second subflow there. Both directions of both paths are limited
by tbf (this kernel has no netem: no delay or loss, only rate).

Use it as a context manager; leaving it (also by an exception or a signal turned into one) kills
every process left in the two namespaces and deletes them, which deletes the veths.
"""

import json
import os
import re
import signal
import subprocess
import threading
import time

from mpqoe import kernel
from mpqoe.dash_harness import Failure, Unavailable

SERVER_ADDR = "10.31.0.1"
CLIENT_ADDRS = ("10.31.1.2", "10.31.2.2")


class LabError(Failure):
    """Building or tearing down the testbed failed."""


def sh(args, check=True, timeout=20):
    r = subprocess.run(args, capture_output=True, text=True, timeout=timeout)
    if check and r.returncode != 0:
        raise LabError(f"{' '.join(args)}: {r.stderr.strip() or r.stdout.strip()}")
    return r


def preflight():
    """Raises Unavailable naming what is missing: root, MPTCP, tools."""
    if os.geteuid() != 0:
        raise Unavailable("must run as root (it creates network namespaces)")
    for tool in ("ip", "tc", "ss", "mptcpize"):
        if sh(["sh", "-c", f"command -v {tool}"], check=False).returncode != 0:
            raise Unavailable(f"{tool} not found (apt-get install iproute2 mptcpd)")
    try:
        with open("/proc/sys/net/mptcp/enabled") as f:
            if f.read().strip() != "1":
                raise Unavailable("net.mptcp.enabled is 0 (sysctl -w net.mptcp.enabled=1)")
    except FileNotFoundError as e:
        raise Unavailable("this kernel has no MPTCP (/proc/sys/net/mptcp missing)") from e


class TwoPath:
    def __init__(self, prefix="mqdash", rates_mbit=(2.0, 2.0), burst_kb=16, latency_ms=100):
        tag = f"{prefix}{os.getpid() % 100000}"
        self.srv = f"{tag}-srv"
        self.cli = f"{tag}-cli"
        self.rates = rates_mbit
        self.burst_kb = burst_kb
        self.latency_ms = latency_ms
        self._old_handlers = {}

    # -- setup / teardown --------------------------------------------------------------------
    def __enter__(self):
        preflight()
        for s in (signal.SIGTERM, signal.SIGHUP):
            self._old_handlers[s] = signal.signal(s, self._on_signal)
        try:
            self._build()
        except BaseException:
            self.cleanup()
            raise
        return self

    def __exit__(self, *exc):
        self.cleanup()
        for s, h in self._old_handlers.items():
            signal.signal(s, h)
        return False

    def _on_signal(self, signum, _frame):
        raise KeyboardInterrupt(f"signal {signum}")

    def ns(self, ns, *args, **kw):
        return sh(["ip", "netns", "exec", ns, *args], **kw)

    def _build(self):
        for ns in (self.srv, self.cli):
            if os.path.exists(f"/var/run/netns/{ns}"):
                raise LabError(f"namespace {ns} already exists")
        sh(["ip", "netns", "add", self.srv])
        sh(["ip", "netns", "add", self.cli])
        for ns in (self.srv, self.cli):
            sh(["ip", "-n", ns, "link", "set", "lo", "up"])
            for key in ("all", "default"):
                self.ns(ns, "sysctl", "-qw", f"net.ipv4.conf.{key}.rp_filter=0")
            self.ns(ns, "sysctl", "-qw", "net.mptcp.enabled=1")
        sh(["ip", "-n", self.srv, "addr", "add", f"{SERVER_ADDR}/32", "dev", "lo"])
        for i, rate in enumerate(self.rates, start=1):
            c, s = f"v{i}c", f"v{i}s"
            sh(
                ["ip", "link", "add", "name", c, "netns", self.cli, "type", "veth"]
                + ["peer", "name", s, "netns", self.srv]
            )
            sh(["ip", "-n", self.cli, "addr", "add", f"10.31.{i}.2/24", "dev", c])
            sh(["ip", "-n", self.srv, "addr", "add", f"10.31.{i}.1/24", "dev", s])
            for ns, dev in ((self.cli, c), (self.srv, s)):
                sh(["ip", "-n", ns, "link", "set", dev, "up"])
                self.ns(ns, "sysctl", "-qw", f"net.ipv4.conf.{dev}.rp_filter=0")
                sh(
                    [
                        "tc",
                        "-n",
                        ns,
                        "qdisc",
                        "add",
                        "dev",
                        dev,
                        "root",
                        "tbf",
                        "rate",
                        f"{rate}mbit",
                    ]
                    + ["burst", f"{self.burst_kb}kb", "latency", f"{self.latency_ms}ms"]
                )
        # client: path 1 by the main table, path 2 for traffic from 10.31.2.2
        sh(["ip", "-n", self.cli, "route", "add", SERVER_ADDR, "via", "10.31.1.1", "dev", "v1c"])
        sh(["ip", "-n", self.cli, "rule", "add", "from", CLIENT_ADDRS[1], "table", "102"])
        sh(
            ["ip", "-n", self.cli, "route", "add", SERVER_ADDR, "via", "10.31.2.1", "dev", "v2c"]
            + ["table", "102"]
        )
        for ns in (self.srv, self.cli):
            sh(["ip", "-n", ns, "mptcp", "endpoint", "flush"])
            sh(
                [
                    "ip",
                    "-n",
                    ns,
                    "mptcp",
                    "limits",
                    "set",
                    "subflows",
                    "2",
                    "add_addr_accepted",
                    "0",
                ]
            )
        sh(
            ["ip", "-n", self.cli, "mptcp", "endpoint", "add", CLIENT_ADDRS[1], "dev", "v2c"]
            + ["subflow"]
        )

    def cleanup(self):
        for ns in (self.cli, self.srv):
            if not os.path.exists(f"/var/run/netns/{ns}"):
                continue
            for _ in range(3):
                pids = sh(["ip", "netns", "pids", ns], check=False).stdout.split()
                if not pids:
                    break
                for p in pids:
                    try:
                        os.kill(int(p), signal.SIGKILL)
                    except (ProcessLookupError, ValueError):
                        pass
                time.sleep(0.2)
            sh(["ip", "netns", "del", ns], check=False)

    # -- counters ------------------------------------------------------------------------------
    def mptcp_counters(self, ns):
        """MPTcpExt counters of a namespace (from its /proc/net/netstat)."""
        return kernel.parse_netstat(self.ns(ns, "cat", kernel.NETSTAT).stdout)

    def link_bytes(self, ns):
        """{dev: (rx_bytes, tx_bytes)} of a namespace's veths."""
        out = json.loads(sh(["ip", "-n", ns, "-s", "-j", "link", "show"]).stdout)
        return {
            x["ifname"]: (x["stats64"]["rx"]["bytes"], x["stats64"]["tx"]["bytes"])
            for x in out
            if x["ifname"] != "lo"
        }


SS_SOCK = re.compile(r"^\S+\s+\d+\s+\d+\s+(\S+):(\d+)\s+(\S+):(\d+)")


class SubflowSampler(threading.Thread):
    """Samples `ss -tin` in a namespace: the highest bytes_received/bytes_acked seen per TCP socket
    (an MPTCP subflow is a TCP socket carrying `tcp-ulp-mptcp`)."""

    def __init__(self, lab, ns, interval=0.5):
        super().__init__(daemon=True)
        self.lab, self.ns, self.interval = lab, ns, interval
        self.stop_event = threading.Event()
        self.sockets = {}  # (local, lport, peer, pport) -> {"mptcp": bool, "rx": int, "tx": int}

    def run(self):
        while not self.stop_event.is_set():
            r = self.lab.ns(self.ns, "ss", "-tinH", check=False, timeout=10)
            self._parse(r.stdout)
            self.stop_event.wait(self.interval)

    def _parse(self, text):
        cur = None
        for line in text.splitlines():
            m = SS_SOCK.match(line)
            if m:
                cur = self.sockets.setdefault(m.groups(), {"mptcp": False, "rx": 0, "tx": 0})
                continue
            if cur is None:
                continue
            if "tcp-ulp-mptcp" in line:
                cur["mptcp"] = True
            for key, field in (("rx", "bytes_received"), ("tx", "bytes_acked")):
                mm = re.search(rf"\b{field}:(\d+)", line)
                if mm:
                    cur[key] = max(cur[key], int(mm.group(1)))

    def stop(self):
        self.stop_event.set()
        self.join(timeout=15)

    def received_by_local_addr(self):
        out = {}
        for (laddr, _lp, _paddr, _pp), v in self.sockets.items():
            laddr = laddr.split("%", 1)[0]  # ss prints 10.31.2.2%v2c for a device-bound subflow
            if v["mptcp"]:
                out[laddr] = out.get(laddr, 0) + v["rx"]
        return out
