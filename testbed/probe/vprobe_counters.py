"""The probe's counters: the scheduler module's line for a connection, the congestion control,
and per-subflow byte counters sampled over time (MPTCP_FULL_INFO, mpqoe.sockopt)."""

import socket

from mpqoe import kernel, sockopt


def scheduler_counters(proc_text, name, local, remote):
    """The scheduler summary for the connection local->remote, or (None, reason)."""
    try:
        _, conns = kernel.parse_mpqoe(proc_text)
    except ValueError as e:
        return None, f"{kernel.mpqoe_path(name)} malformed: {e}"
    c = kernel.find_connection(conns, local=local, remote=remote)
    if c is None:
        return None, f"no line for local={local} remote={remote} in /proc/net/mpqoe_{name}"
    summary = {
        "name": name,
        "switches": c["switches"],
        "decisions": c["decisions"],
        "injections": c.get("injections"),
        "reinjections": c.get("reinjections"),
        "no_subflow": c.get("no_subflow"),
        "bytes": c.get("bytes", {}),
        "bytes_other": c.get("bytes_other"),
        "state": c.get("state"),
        "raw": c["raw"],
    }
    return summary, None


def read_scheduler(local, remote):
    """(scheduler name, summary or None, reason or None) for this netns and connection."""
    try:
        with open("/proc/sys/net/mptcp/scheduler") as f:
            name = f.read().strip()
    except OSError as e:
        return None, None, f"net.mptcp.scheduler unreadable: {e.strerror}"
    path = kernel.mpqoe_path(name)
    try:
        with open(path) as f:
            text = f.read()
    except OSError:
        return name, None, f"{path} missing (scheduler {name!r} is not an mpqoe module)"
    summary, reason = scheduler_counters(text, name, local, remote)
    return name, summary, reason


def sock_addr(sa):
    host, port = sa[0], sa[1]
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"


def _sysctl(path):
    try:
        with open(path) as f:
            return f.read().strip()
    except OSError:
        return None


def congestion(conn):
    try:
        raw = conn.getsockopt(socket.IPPROTO_TCP, socket.TCP_CONGESTION, 16)
        return raw.split(b"\0", 1)[0].decode()
    except OSError:
        return _sysctl("/proc/sys/net/ipv4/tcp_congestion_control")


class SubflowSeries:
    """Per-subflow byte counters sampled over time."""

    def __init__(self):
        self.last = {}  # id -> latest subflow dict
        self.series = {}  # id -> [[t, bps], ...]
        self.prev = {}  # id -> (t, bytes_received)
        self.t_prev = 0.0

    def sample(self, sock, t):
        try:
            _, sfs = sockopt.mptcp_full_info(sock.fileno())
        except OSError:
            return
        for sf in sfs:
            key = sf["id"] if sf.get("id") else (sf.get("local"), sf.get("remote"))
            got = sf.get("bytes_received", 0)
            t_before, b_before = self.prev.get(key, (self.t_prev, 0))
            if t > t_before:
                bps = (got - b_before) * 8 / (t - t_before)
                self.series.setdefault(key, []).append([round(t, 3), round(bps)])
            self.prev[key] = (t, got)
            self.last[key] = sf
        self.t_prev = t

    def report(self, duration):
        out = []
        for key, sf in self.last.items():
            got = sf.get("bytes_received", 0)
            out.append(
                {
                    "id": sf.get("id"),
                    "local": sf.get("local"),
                    "remote": sf.get("remote"),
                    "bytes_received": got,
                    "mean_bps": round(got * 8 / duration) if duration > 0 else None,
                    "rcv_ooopack": sf.get("rcv_ooopack"),
                    "series": self.series.get(key, []),
                }
            )
        return out
