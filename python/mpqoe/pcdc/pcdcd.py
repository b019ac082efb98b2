#!/usr/bin/env python3
"""pcdcd: the PCDC path manager (Chen et al., Section IV) on the kernel's userspace path manager.

    python3 -m mpqoe.pcdc.pcdcd [--mode pcdc|fullmesh] [--table FILE]
             [--probe ADDR[,ADDR...] --probe-port N]
             [--local ADDR[,ADDR...]] [--hint-socket PATH] [--remeasure S] [--min-gap S]
             [--T S] [--warmup S] [--settle S] [--samples N] [--poll S]
             [--announce-wait S]

Runs in the client's network namespace with net.mptcp.pm_type=1 and CAP_NET_ADMIN. It listens
to the "mptcp_pm_events" netlink group and, for every connection this host opened (the
server side and connections to --probe-port are left alone):

- pcdc: opens subflows on the pairs (local address, remote address) that equation 2 gives for
  the connection's class over the optional set P of the current impact-factor table
  (policy.py); the class follows the bytes the connection carried (mptcp_diag.py) or an
  application's size hint; subflows it opened whose pair left the target are closed, never
  the connection's last one and never the application's first subflow.
- fullmesh: one subflow per pair, for comparison.

Remote addresses are the connection's own and those the peer announces (ADD_ADDR). For
--announce-wait seconds after a connection is established its announcements may still be on
the way, so a pair of P that it cannot use yet is waited for rather than replaced by the next
pair of P (which would be opened only to be closed when the address arrives). The
impact-factor table comes from --table (a `mpqoe.pcdc.impact --json` file) and, with --probe, from
mpqoe.pcdc.impact run by the daemon: at start when there is no --table, every --remeasure seconds,
and after subflow events (a subflow of a connection closing with an error, a pair to a probe
address that the table lacks), at most once per --min-gap seconds. Each decision is logged
with its reason.

Hints: with --hint-socket PATH, a Unix datagram "TOKEN SIZE" (the connection's MPTCP token
from getsockopt(MPTCP_INFO), the transfer size in bytes; mpqoe.pcdc.transfer.send_hint) gives
the size.

Exit codes: 0 on SIGTERM/SIGINT, 2 for bad options or when the kernel's PM is not the
userspace one, privileges are lacking or the netlink family is missing (one line each).
"""

import argparse
import ipaddress
import os
import select
import signal
import socket
import subprocess
import sys
import tempfile
import time

from mpqoe.pcdc import impact, mptcp_diag, pmcheck, policy
from mpqoe.pcdc import mptcp_genl as genl

HINT_TTL = 30.0  # s a hint waits for its connection
PENDING_TTL = 5.0  # s a requested subflow may take to establish


def _kib(n):
    return f"{n / 1024:.0f} KiB"


def _pairs(ps):
    return "[" + ", ".join(f"{a}->{b}" for a, b in ps) + "]"


class Conn:
    """What the daemon knows of one connection."""

    def __init__(self, ev):
        self.token = ev.get("token")
        self.saddr, self.daddr = ev.get("saddr"), ev.get("daddr")
        self.sport, self.dport = ev.get("sport"), ev.get("dport")
        self.initial_key = (self.saddr, self.sport, self.daddr, self.dport)
        self.initial = (self.saddr, self.daddr)  # None once the first subflow closed
        self.remotes = {self.daddr: self.dport}
        self.rem_ids = {}
        self.opened = {}  # subflow key -> pair, established subflows we opened
        self.others = set()  # subflow keys someone else opened
        self.pending = {}  # pair -> time asked
        self.failed = set()
        self.established = False
        self.settle_by = None  # until then the target waits for the peer's addresses
        self.deferred = False  # whether that wait held back a pair
        self.carried = 0
        self.hint = None
        self.cls = policy.L1


def parse_hint(data):
    """(token, size) of a hint datagram "TOKEN SIZE"; ValueError for anything else."""
    try:
        text = data.decode("ascii").strip()
    except UnicodeDecodeError as e:
        raise ValueError("not ASCII") from e
    parts = text.split()
    if len(parts) != 2:
        raise ValueError(f"expected 'TOKEN SIZE', got {text[:60]!r}")
    token, size = int(parts[0], 0), int(parts[1], 0)
    if not 0 <= token <= 0xFFFFFFFF or size < 0:
        raise ValueError(f"token or size out of range: {text[:60]!r}")
    return token, size


class Daemon:
    def __init__(self, mode, table, locals_, pm, log, probe=None, probe_port=None,
                 measure_args=(), remeasure=600.0, min_gap=60.0, announce_wait=1.0):  # fmt: skip
        self.mode, self.table, self.pm, self.log = mode, dict(table), pm, log
        self.announce_wait = announce_wait
        self.local_ids = {a: k + 1 for k, a in enumerate(locals_)}
        self.probe, self.probe_port = probe, probe_port
        self.measure_args, self.remeasure, self.min_gap = list(measure_args), remeasure, min_gap
        self.conns = {}
        self.hints = {}  # token -> (size, time)
        self.job = None  # (Popen, output path, reason)
        self.last_measure = None
        self.wanted = None  # reason for a measurement not yet started

    # ---------------------------------------------------------------- impact-factor table
    def set_table(self, table, why):
        self.table = dict(table)
        p, standby = policy.optional_set(self.stats())
        self.log(f"table ({why}): P = {_pairs(p)}, standby = {_pairs(standby)}")
        for c in list(self.conns.values()):
            self.reconcile(c, "new impact factors")

    def stats(self):
        return {q: policy.PairStats(om, rtt) for q, (om, rtt) in self.table.items()}

    def want_measurement(self, why):
        if self.probe is None or self.job is not None or self.wanted is not None:
            return
        self.wanted = why

    def measurement_tick(self, now):
        if self.probe is None:
            return
        if self.job is not None:
            proc, path, why = self.job
            if proc.poll() is None:
                return
            self.job = None
            errlog = path + ".log"
            with open(errlog, encoding="utf-8", errors="replace") as f:
                err = f.read().strip().splitlines()
            try:
                table = impact.load_table(path)
                if not table:
                    raise ValueError("no pair measured")
            except ValueError as e:
                tail = err[-1] if err else ""
                self.log(f"measurement ({why}) failed, table kept: {e} {tail}".rstrip())
            else:
                # a pair whose samples all failed this time keeps its previous values
                self.set_table({**self.table, **table}, f"measured, {why}")
            finally:
                for f in (path, errlog):
                    if os.path.exists(f):
                        os.unlink(f)
            return
        if self.wanted is None and (
            self.last_measure is None or now - self.last_measure >= self.remeasure
        ):
            self.wanted = "start" if self.last_measure is None else "schedule"
        if self.wanted is None:
            return
        if self.last_measure is not None and now - self.last_measure < self.min_gap:
            return
        fd, path = tempfile.mkstemp(prefix="pcdc-table-", suffix=".json")
        os.close(fd)
        cmd = [sys.executable, "-m", "mpqoe.pcdc.impact", "measure", "--server",
               ",".join(self.probe), "--port", str(self.probe_port), "--local",
               ",".join(self.local_ids), "--json", path, *self.measure_args]  # fmt: skip
        self.log(f"measuring impact factors ({self.wanted})")
        with open(path + ".log", "w") as errlog:  # its per-sample lines, read when it ends
            proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=errlog)
        self.job, self.wanted, self.last_measure = (proc, path, self.wanted), None, now

    # ---------------------------------------------------------------- connections
    def available(self, c):
        return {(a, b) for a in self.local_ids for b in c.remotes if (":" in a) == (":" in b)}

    def target(self, c, now):
        """(target, held): the pairs the connection should have, and those of them not to
        open yet because it may still learn the addresses of better ones (policy.pcdc_target)."""
        avail = self.available(c)
        if self.mode == "fullmesh":
            return policy.fullmesh_target(avail), ()
        stats = self.stats()
        target = policy.pcdc_target(stats, c.cls, avail)
        if c.settle_by is None or now >= c.settle_by:
            return target, ()
        waiting = policy.pcdc_target(stats, c.cls, avail, settled=False)
        return target, tuple(q for q in target if q not in waiting)

    def reconcile(self, c, why):
        if not c.established:
            return
        now = time.monotonic()
        for pair, t in list(c.pending.items()):
            if now - t > PENDING_TTL:
                del c.pending[pair]
                c.failed.add(pair)
                self.log(f"[token {c.token:08x}] {pair[0]} -> {pair[1]} did not establish: "
                         "not asked again on this connection")  # fmt: skip
        target, held = self.target(c, now)
        p = policy.plan(target, c.initial, c.opened, c.pending, c.failed, len(c.others), held)
        if p.held and not c.deferred:
            c.deferred = True
            self.log(f"[token {c.token:08x}] waiting up to {self.announce_wait:g} s for the peer's "
                     f"addresses before opening {_pairs(p.held)} in place of pairs of P it has "
                     "not announced")  # fmt: skip
        if self.mode == "fullmesh":
            reason = f"fullmesh ({why})"
        else:
            cause = f"hint {_kib(c.hint)}, " if c.hint is not None else ""
            reason = (
                f"class L{c.cls} ({cause}carried {_kib(c.carried)}; {why}); target {_pairs(target)}"
            )
        for pair in p.create:
            local, remote = pair
            try:
                self.pm.subflow_create(c.token, (local, 0, self.local_ids[local], 0),
                                       (remote, c.remotes[remote]))  # fmt: skip
            except (OSError, ValueError) as e:
                c.failed.add(pair)
                self.log(f"[token {c.token:08x}] open {local} -> {remote} refused: {e}")
                continue
            c.pending[pair] = now
            self.log(f"[token {c.token:08x}] open {local} -> {remote}: {reason}")
        for key in p.destroy:
            pair = c.opened[key]
            try:
                self.pm.subflow_destroy(c.token, (key[0], key[1], 0, 0), (key[2], key[3]))
            except (OSError, ValueError) as e:
                self.log(f"[token {c.token:08x}] close {pair[0]} -> {pair[1]} refused: {e}")
                continue
            del c.opened[key]
            self.log(f"[token {c.token:08x}] close {pair[0]} -> {pair[1]}: not in {reason}")

    def unknown_addresses(self, c):
        """Whether the connection has a pair that a measurement would cover (its remote address
        is a probe address) but the table lacks. Pairs to other servers cannot be measured."""
        if self.mode != "pcdc" or self.probe is None:
            return False
        return any(q not in self.table and q[1] in self.probe for q in self.available(c))

    def handle(self, ev):
        token = ev.get("token")
        if ev.name == "created":
            if ev.get("server_side") or ev.get("dport") == self.probe_port:
                return  # the peer's PM opens subflows; probes manage themselves
            c = self.conns[token] = Conn(ev)
            if token in self.hints:
                c.hint = self.hints.pop(token)[0]
                c.cls = policy.online_class(c.carried, c.hint)
            return
        c = self.conns.get(token)
        if c is None:
            return
        key = (ev.get("saddr"), ev.get("sport"), ev.get("daddr"), ev.get("dport"))
        pair = (ev.get("saddr"), ev.get("daddr"))
        if ev.name == "established":
            c.established = True
            if self.mode == "pcdc" and self.announce_wait > 0:
                c.settle_by = time.monotonic() + self.announce_wait
            if self.unknown_addresses(c):
                self.want_measurement("a pair without an impact factor")
            self.reconcile(c, "connection established")
        elif ev.name == "announced":
            addr = ev.get("daddr")
            if addr is None:
                return
            c.remotes[addr] = ev.get("dport") or c.dport
            c.rem_ids[ev.get("rem_id")] = addr
            if self.unknown_addresses(c):
                self.want_measurement(f"announced address {addr} without an impact factor")
            self.reconcile(c, f"peer announced {addr}")
        elif ev.name == "removed":
            addr = c.rem_ids.pop(ev.get("rem_id"), None)
            if addr is not None and addr != c.daddr:
                c.remotes.pop(addr, None)
                self.log(f"[token {token:08x}] peer removed {addr}")
        elif ev.name == "sub_established":
            if key == c.initial_key:
                return
            if pair in c.pending:
                del c.pending[pair]
                c.opened[key] = pair
            else:
                c.others.add(key)
        elif ev.name == "sub_closed":
            err = ev.get("error")
            if key == c.initial_key:
                c.initial = None
            elif key in c.opened:
                del c.opened[key]
            elif pair in c.pending and err:
                del c.pending[pair]
            c.others.discard(key)
            if err:
                c.failed.add(pair)
                self.log(f"[token {token:08x}] subflow {pair[0]} -> {pair[1]} closed, error {err}")
                if self.mode == "pcdc":
                    self.want_measurement(f"subflow {pair[0]} -> {pair[1]} failed")
            self.reconcile(c, "subflow closed")
        elif ev.name == "closed":
            del self.conns[token]

    def on_hint(self, data, now):
        try:
            token, size = parse_hint(data)
        except ValueError as e:
            self.log(f"hint ignored: {e}")
            return
        c = self.conns.get(token)
        if c is None:
            self.hints[token] = (size, now)
            return
        c.hint = size
        new = policy.online_class(c.carried, c.hint)
        if new != c.cls:
            c.cls = new
        self.reconcile(c, f"size hint {_kib(size)}")

    def announce_tick(self, now):
        """Ends the wait for the peer's addresses of the connections whose time is up and
        opens what it held back."""
        for c in list(self.conns.values()):
            if c.settle_by is not None and now >= c.settle_by:
                c.settle_by = None
                if c.deferred:
                    self.reconcile(c, f"no address announced within {self.announce_wait:g} s")

    def poll_bytes(self, now):
        for t, (_size, at) in list(self.hints.items()):
            if now - at > HINT_TTL:
                del self.hints[t]
        if self.mode != "pcdc":
            return
        growing = [c for c in self.conns.values() if c.established and c.cls < policy.L3]
        if not growing:
            return
        try:
            infos = mptcp_diag.connections()
        except (OSError, ValueError) as e:
            self.log(f"mptcp diag: {e}")
            return
        for c in growing:
            info = infos.get(c.token)
            if info is None:
                continue
            c.carried = mptcp_diag.carried(info)
            new = policy.online_class(c.carried, c.hint)
            if new > c.cls:
                bound = policy.L1_MAX if c.cls == policy.L1 else policy.L2_MAX
                c.cls = new
                self.reconcile(c, f"carried more than {_kib(bound)}")


def _log(msg):
    print(f"{time.strftime('%H:%M:%S')} pcdcd: {msg}", flush=True)


def _die(msg):
    print(f"pcdcd: {msg}", file=sys.stderr)
    raise SystemExit(2)


def _addrs(text, what):
    out = []
    for a in text.split(","):
        try:
            out.append(str(ipaddress.ip_address(a.strip())))
        except ValueError:
            _die(f"{what}: {a!r} is not an IP address")
    return out


def parse_args(argv):
    ap = argparse.ArgumentParser(prog="pcdcd", description=__doc__.split("\n")[0])
    ap.add_argument("--mode", choices=("pcdc", "fullmesh"), default="pcdc")
    ap.add_argument("--table", help="impact factors: a mpqoe.pcdc.impact --json file")
    ap.add_argument("--probe", help="measurement server addresses (mpqoe.pcdc.transfer serve)")
    ap.add_argument("--probe-port", type=int, help="its port (connections to it are left alone)")
    ap.add_argument("--local", help="local addresses (default: every global IPv4 address)")
    ap.add_argument("--hint-socket", help="Unix datagram socket for size hints")
    ap.add_argument("--remeasure", type=float, default=600.0, help="s between measurements")
    ap.add_argument("--min-gap", type=float, default=60.0, help="s at least between two")
    ap.add_argument("--announce-wait", type=float, default=1.0,
                    help="s a new connection waits for the peer's addresses before opening "
                         "other pairs in place of P's (0: no wait)")  # fmt: skip
    ap.add_argument("--T", dest="t_window", type=float, default=5.0, help="mpqoe.pcdc.impact --T")
    ap.add_argument("--warmup", type=float, default=2.0, help="mpqoe.pcdc.impact --warmup")
    ap.add_argument("--settle", type=float, default=1.0, help="mpqoe.pcdc.impact --settle")
    ap.add_argument("--samples", type=int, default=3, help="mpqoe.pcdc.impact --samples")
    ap.add_argument("--poll", type=float, default=0.05, help="s between byte counts")
    a = ap.parse_args(argv)
    if (a.probe is None) != (a.probe_port is None):
        _die("--probe and --probe-port go together")
    if a.probe_port is not None and not 0 < a.probe_port < 65536:
        _die("--probe-port must be 1-65535")
    if not (a.remeasure > 0 and a.min_gap >= 0 and a.t_window > 0 and a.warmup >= 0
            and a.settle >= 0 and a.samples >= 1 and 0 < a.poll <= 10
            and 0 <= a.announce_wait <= 60):  # fmt: skip
        _die("--remeasure, --T, --samples and --poll (<= 10) must be positive, --min-gap, "
             "--warmup and --settle not negative, --announce-wait 0-60")  # fmt: skip
    a.probes = _addrs(a.probe, "--probe") if a.probe else None
    a.locals = _addrs(a.local, "--local") if a.local else None
    if a.table:
        try:
            a.table_data = impact.load_table(a.table)
        except ValueError as e:
            _die(str(e))
    else:
        a.table_data = {}
    return a


def main(argv=None):
    a = parse_args(argv)
    pmcheck.require_userspace_pm("pcdcd")
    locals_ = a.locals or impact.local_addresses()
    if not locals_:
        _die("no local addresses")
    hint_sock = None
    if a.hint_socket:
        try:
            if os.path.exists(a.hint_socket):
                os.unlink(a.hint_socket)
            hint_sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
            hint_sock.bind(a.hint_socket)
        except OSError as e:
            _die(f"--hint-socket {a.hint_socket}: {e}")
    try:
        events = genl.EventSocket()
        pm = genl.MptcpPm()
    except PermissionError:
        _die("needs CAP_NET_ADMIN to join the mptcp_pm_events group")
    except (genl.FamilyMissing, OSError) as e:
        _die(f"mptcp_pm netlink: {e}")
    measure_args = ["--T", str(a.t_window), "--warmup", str(a.warmup), "--settle", str(a.settle),
                    "--samples", str(a.samples)]  # fmt: skip
    d = Daemon(a.mode, a.table_data, locals_, pm, _log, a.probes, a.probe_port, measure_args,
               a.remeasure, a.min_gap, a.announce_wait)  # fmt: skip
    stop = []
    signal.signal(signal.SIGTERM, lambda *_: stop.append(1))
    signal.signal(signal.SIGINT, lambda *_: stop.append(1))
    _log(f"mode {a.mode}, local addresses {', '.join(locals_)}"
         + (f", hints on {a.hint_socket}" if hint_sock else ""))  # fmt: skip
    if a.table_data and a.probes:
        d.last_measure = time.monotonic()  # the given table stands until the first schedule
    if a.mode == "pcdc":
        if a.table_data:
            d.set_table(a.table_data, f"from {a.table}")
        elif a.probes is None:
            _log("no impact factors (--table or --probe): every pair is standby, nothing opened")
    fds = [events.sock] + ([hint_sock] if hint_sock else [])
    try:
        while not stop:
            try:
                ready, _, _ = select.select(fds, [], [], a.poll)
            except InterruptedError:
                continue
            now = time.monotonic()
            if events.sock in ready:
                for ev, err in events.read():
                    if err is not None:
                        _log(f"malformed netlink message ignored: {err}")
                    else:
                        d.handle(ev)
            if hint_sock is not None and hint_sock in ready:
                d.on_hint(hint_sock.recv(512), now)
            d.announce_tick(now)
            d.poll_bytes(now)
            d.measurement_tick(now)
    finally:
        if d.job is not None:
            d.job[0].terminate()
            d.job[0].wait(timeout=10)
            for f in (d.job[1], d.job[1] + ".log"):
                if os.path.exists(f):
                    os.unlink(f)
        events.close()
        pm.close()
        if hint_sock is not None:
            hint_sock.close()
            os.unlink(a.hint_socket)
    _log("stopped")
    return 0


if __name__ == "__main__":
    sys.exit(main())
