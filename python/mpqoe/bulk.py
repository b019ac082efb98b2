"""mptcp_bulk.py as the tests use it: its server as a report collector, and its JSON reports."""

import json
import os
import subprocess
import threading
import time

from mpqoe import REPO

BULK = os.path.join(REPO, "mininet-scripts", "mptcp_bulk.py")
PY = "/usr/bin/python3"
PORT = 5001


def server_cmd(port=PORT, count=0):
    return [PY, BULK, "server", "--port", str(port), "--count", str(count)]


def client_cmd(server_ip, size, port=PORT, direction="down", timeout=30, tcp=False):
    cmd = [PY, BULK, "client", "--connect", server_ip, "--port", str(port)]
    cmd += ["--bytes", str(size), "--direction", direction, "--timeout", str(timeout)]
    return cmd + (["--tcp"] if tcp else [])


class BulkServer:
    """mptcp_bulk.py server (count 0: any number of connections) in a Mininet host; collects
    its JSON reports. `listening` is its first line."""

    def __init__(self, host, port=PORT, count=0):
        self.proc = host.popen(
            server_cmd(port, count), stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
        )
        self.listening = self.proc.stdout.readline().strip()
        self.reports, self.lines = [], []
        self.cond = threading.Condition()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.proc.stdout:
            with self.cond:
                self.lines.append(line.rstrip())
                try:
                    self.reports.append(json.loads(line))
                except ValueError:
                    pass
                self.cond.notify_all()

    def report_for(self, client_ips, skip, timeout=10):
        """The first report from one of client_ips not in `skip` (ids), waiting up to timeout."""
        deadline = time.monotonic() + timeout
        with self.cond:
            while True:
                for r in self.reports:
                    if id(r) not in skip and (r.get("peer") or "").split(":")[0] in client_ips:
                        return r
                left = deadline - time.monotonic()
                if left <= 0:
                    return None
                self.cond.wait(left)


def subflows_of(report, established=True):
    """The report's subflow list (only the established ones, tcp state 1, by default)."""
    lst = ((report or {}).get("mptcp") or {}).get("subflow_list") or []
    return [s for s in lst if not established or s.get("state") == 1]


def describe_subflows(report):
    listed = subflows_of(report, established=False)
    if not listed:
        info = (report or {}).get("mptcp")
        if info is None:
            return "no MPTCP info: plain TCP or no report"
        keys = ("fallback", "subflows", "subflows_total", "token")
        return "no subflow list; MPTCP_INFO " + ", ".join(f"{k}={info.get(k)}" for k in keys)
    return ", ".join(f"{s['local']}<->{s['remote']} (state {s['state']})" for s in listed)
