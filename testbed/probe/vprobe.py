#!/usr/bin/env python3
"""vprobe: a video-stream probe over MPTCP (issue 5), standing in for the papers' VLC setup.

    vprobe.py server --port P [--bind ADDR] [--bitrate 5.24e6] [--fps 30] [--duration 30]
                     [--tcp] [--timeout S]
    vprobe.py client --connect HOST:PORT [--bind ADDR] [--startup-buffer 1.0]
                     [--underflow-after 0.1] [--rebuffer 0.5] [--sample-interval 0.5]
                     [--timeout S] [--tcp] [--out FILE] [--label TEXT]

The server is a live constant-bitrate source: frame i (bitrate/8/fps bytes, header included) is
written at max(now, t0 + i/fps), so a path slower than the video makes the server fall behind
exactly as a live encoder feeding a full socket would. Every frame starts with a 24-byte header
(magic "MPQV", index u32, payload size u32, send CLOCK_REALTIME ns u64, flags u32, network
order). Two control frames frame the video: a hello (index 0xfffffffe, JSON: fps, bitrate,
frames, ...) so that the client needs no copy of the server's settings, and a trailer (index
0xffffffff, JSON: server-side facts, among them the scheduler module's counters for this
connection from /proc/net/mpqoe_<scheduler>). The server sends the trailer once all data is
acknowledged (so those counters are final), shuts its side down and waits for the client.

The client records when the last byte of each frame arrived (CLOCK_MONOTONIC), samples the
per-subflow counters every --sample-interval with getsockopt(SOL_MPTCP, MPTCP_FULL_INFO), reads
the namespace's MPTcpExt counters before and after, replays the frame completion times through
the playout model below and writes one JSON document (schema "mpqoe-vprobe/1", see README.md).

Exit codes: 0 complete; 1 runtime failure (the client still writes its JSON, complete=false,
error set); 2 usage error or missing kernel feature (one line on stderr, nothing written).
Stdlib only, Python >= 3.11, Linux >= 6.6 (MPTCP_FULL_INFO).
"""

from __future__ import annotations

import argparse
import contextlib
import ctypes
import json
import math
import os
import select
import signal
import socket
import struct
import sys
import tempfile
import time

SCHEMA = "mpqoe-vprobe/1"
MAGIC = b"MPQV"
HEADER = struct.Struct("!4sIIQI")  # magic, index, payload size, send ns (CLOCK_REALTIME), flags
HELLO_INDEX = 0xFFFFFFFE
TRAILER_INDEX = 0xFFFFFFFF
FLAG_CONTROL = 1
MAX_CONTROL_PAYLOAD = 1 << 20

IPPROTO_MPTCP = getattr(socket, "IPPROTO_MPTCP", 262)
SOL_MPTCP = 284
MPTCP_FULL_INFO = 4
MPTCP_INFO_FLAG_FALLBACK = 1
EPS = 1e-9

# -------------------------------------------------------------------------------------------
# Playout model


def playout(completions, fps, startup_buffer=1.0, underflow_after=0.1, rebuffer=0.5, end=None):
    """Replay frame completion times through a VLC-like player; return the QoE figures.

    completions[i] is the time (s, any origin; the client uses "connection established" = 0)
    at which frame i was complete, or None if it never arrived. `end` is when the stream ended
    (default: the last completion). The player:

    - starts playback at P, when the first B = ceil(startup_buffer * fps) frames are complete
      (if one of them never arrives: when the stream ended). startup_buffer defaults to 1.0 s,
      VLC's default network caching (--network-caching=1000);
    - shows frame i at its due time D_i = P + i/fps + (stall time so far) if it is complete by
      then (C_i <= D_i);
    - otherwise starves. Frames falling due while the player has been starving for less than
      `underflow_after` (default 0.1 s, our choice: three frames at 30 fps) are picture discards
      (late or incomplete pictures the decoder drops; the clock keeps running). The frame due
      when starvation reaches `underflow_after` starts one buffer underflow instead: the clock
      stops and that frame is not discarded; playback resumes when the next
      ceil(rebuffer * fps) frames (default 0.5 s, our choice) are complete, or when the stream
      ended if some of them never arrive; the freeze's duration (resume - D_i) is recorded;
    - discards frames never received: a missing frame due after the stream ended is a discard
      without starvation (the player knows no more data comes); before that, it is
      indistinguishable from a late one.

    Returns a dict: startup_s (P, None if nothing arrived), displayed, picture_discards,
    underflow_durations_s (list), played_until_s (when the last frame was due).
    """
    if fps <= 0 or startup_buffer < 0 or underflow_after < 0 or rebuffer < 0:
        raise ValueError("playout: fps must be > 0 and the buffer times >= 0")
    n = len(completions)
    received = [c for c in completions if c is not None]
    if not received:
        return {
            "startup_s": None,
            "displayed": 0,
            "picture_discards": n,
            "underflow_durations_s": [],
            "played_until_s": None,
        }
    if end is None:
        end = max(received)
    end = max(end, max(received))

    def ready(first, last):
        """When frames first..last-1 are all complete (or the stream ended without them)."""
        window = completions[first:last]
        done = [c for c in window if c is not None]
        t = max(done) if done else -math.inf
        return max(t, end) if len(done) < len(window) else t

    start = ready(0, min(n, max(1, math.ceil(startup_buffer * fps - EPS))))
    k = max(1, math.ceil(rebuffer * fps - EPS))
    stall = 0.0
    starving_since = None
    displayed = discards = 0
    underflows = []
    due = start
    for i, c in enumerate(completions):
        due = start + i / fps + stall
        if c is not None and c <= due + EPS:
            displayed += 1
            starving_since = None
            continue
        if c is None and due >= end - EPS:
            discards += 1
            continue
        if starving_since is None:
            starving_since = due
        if due - starving_since < underflow_after - EPS:
            discards += 1
            continue
        resume = max(due, ready(i, min(n, i + k)))
        underflows.append(resume - due)
        stall += resume - due
        due = resume
        starving_since = None
        if c is None:
            discards += 1
        else:
            displayed += 1
    return {
        "startup_s": start,
        "displayed": displayed,
        "picture_discards": discards,
        "underflow_durations_s": underflows,
        "played_until_s": due,
    }


# -------------------------------------------------------------------------------------------
# Frames


def frame_sizes(bitrate, fps, frames):
    """Total bytes (header included) of each frame; they sum to frames*bitrate/8/fps, floored."""
    per = bitrate / 8.0 / fps
    return [math.floor((i + 1) * per) - math.floor(i * per) for i in range(frames)]


def control_frame(index, obj):
    payload = json.dumps(obj, separators=(",", ":"), sort_keys=True).encode()
    return HEADER.pack(MAGIC, index, len(payload), time.time_ns(), FLAG_CONTROL) + payload


class ProtocolError(Exception):
    pass


class FrameReader:
    """Incremental parser of the byte stream; keeps only control payloads."""

    def __init__(self):
        self.head = bytearray()
        self.index = None
        self.remaining = 0
        self.payload = None  # bytearray for control frames
        self.stream_bytes = 0

    def feed(self, data):
        """Consume `data`; yield (index, payload, send_ns, frame bytes) for each frame completed
        in it (payload: the bytes of a control frame, None for a video frame)."""
        pos, size = 0, len(data)
        self.stream_bytes += size
        while pos < size:
            if self.index is None:
                take = min(HEADER.size - len(self.head), size - pos)
                self.head += data[pos : pos + take]
                pos += take
                if len(self.head) < HEADER.size:
                    break
                magic, index, length, send_ns, flags = HEADER.unpack(self.head)
                self.head.clear()
                if magic != MAGIC:
                    raise ProtocolError(f"bad frame magic {magic!r}: not a vprobe server?")
                control = bool(flags & FLAG_CONTROL)
                if control and length > MAX_CONTROL_PAYLOAD:
                    raise ProtocolError(f"control frame of {length} bytes")
                self.index, self.remaining, self.send_ns = index, length, send_ns
                self.length = HEADER.size + length
                self.payload = bytearray() if control else None
            take = min(self.remaining, size - pos)
            if self.payload is not None:
                self.payload += data[pos : pos + take]
            pos += take
            self.remaining -= take
            if self.remaining == 0:
                payload = bytes(self.payload) if self.payload is not None else None
                yield self.index, payload, self.send_ns, self.length
                self.index = None
                self.payload = None


# -------------------------------------------------------------------------------------------
# Kernel counters: MPTCP_FULL_INFO, /proc/net/netstat, /proc/net/mpqoe_<scheduler>

_libc = ctypes.CDLL(None, use_errno=True)
_libc.getsockopt.argtypes = [
    ctypes.c_int,
    ctypes.c_int,
    ctypes.c_int,
    ctypes.c_void_p,
    ctypes.POINTER(ctypes.c_uint32),
]
_FULL_INFO_HEAD = struct.Struct("=IIIIIIQQ")  # struct mptcp_full_info up to mptcp_info
_MPTCP_INFO_SIZE = 96
_SFINFO_SIZE = 264  # struct mptcp_subflow_info: id, pad, 2 x sockaddr_storage
_TCPINFO_SIZE = 248  # struct tcp_info of 6.12; the kernel copies min(ours, its own)
# (name, offset, struct format) in struct tcp_info / struct mptcp_info
_TCPINFO_FIELDS = (
    ("rtt_us", 68, "I"),
    ("total_retrans", 100, "I"),
    ("bytes_acked", 120, "Q"),
    ("bytes_received", 128, "Q"),
    ("min_rtt_us", 148, "I"),
    ("bytes_sent", 200, "Q"),
    ("bytes_retrans", 208, "Q"),
    ("rcv_ooopack", 224, "I"),
)
_MPTCP_INFO_FIELDS = (
    ("subflows", 0, "B"),
    ("flags", 8, "I"),
    ("token", 12, "I"),
    ("write_seq", 16, "Q"),
    ("snd_una", 24, "Q"),
    ("rcv_nxt", 32, "Q"),
    ("retransmits", 44, "I"),
    ("bytes_retrans", 48, "Q"),
    ("bytes_sent", 56, "Q"),
    ("bytes_received", 64, "Q"),
    ("bytes_acked", 72, "Q"),
)


def _fields(buf, base, avail, spec):
    out = {}
    for name, off, fmt in spec:
        if off + struct.calcsize(fmt) <= avail:
            out[name] = struct.unpack_from("=" + fmt, buf, base + off)[0]
    return out


def format_sockaddr(buf, off):
    """The "ip:port" / "[ip6]:port" of a struct sockaddr_storage in buf at off (None if unset)."""
    family = struct.unpack_from("=H", buf, off)[0]
    port = struct.unpack_from("!H", buf, off + 2)[0]
    if family == socket.AF_INET:
        return f"{socket.inet_ntop(socket.AF_INET, bytes(buf[off + 4 : off + 8]))}:{port}"
    if family == socket.AF_INET6:
        ip = socket.inet_ntop(socket.AF_INET6, bytes(buf[off + 8 : off + 24]))
        return f"[{ip}]:{port}"
    return None


def mptcp_full_info(fd, max_subflows=16):
    """getsockopt(SOL_MPTCP, MPTCP_FULL_INFO): (mptcp_info dict, [subflow dicts])."""
    sf_buf = ctypes.create_string_buffer(_SFINFO_SIZE * max_subflows)
    ti_buf = ctypes.create_string_buffer(_TCPINFO_SIZE * max_subflows)
    head = ctypes.create_string_buffer(_FULL_INFO_HEAD.size + _MPTCP_INFO_SIZE)
    _FULL_INFO_HEAD.pack_into(
        head,
        0,
        0,
        _TCPINFO_SIZE,
        0,
        _SFINFO_SIZE,
        0,
        max_subflows,
        ctypes.addressof(sf_buf),
        ctypes.addressof(ti_buf),
    )
    length = ctypes.c_uint32(len(head))
    if _libc.getsockopt(fd, SOL_MPTCP, MPTCP_FULL_INFO, head, ctypes.byref(length)) != 0:
        err = ctypes.get_errno()
        raise OSError(err, f"getsockopt(MPTCP_FULL_INFO): {os.strerror(err)}")
    _, ti_size, _, sf_size, count, _, _, _ = _FULL_INFO_HEAD.unpack_from(head, 0)
    info = _fields(head, 40, length.value - 40, _MPTCP_INFO_FIELDS)
    subflows = []
    for k in range(min(count, max_subflows)):
        base = k * sf_size
        sf = {"id": struct.unpack_from("=I", sf_buf, base)[0] if sf_size >= 4 else None}
        if sf_size >= _SFINFO_SIZE:
            sf["local"] = format_sockaddr(sf_buf, base + 8)
            sf["remote"] = format_sockaddr(sf_buf, base + 136)
        sf.update(_fields(ti_buf, k * ti_size, ti_size, _TCPINFO_FIELDS))
        subflows.append(sf)
    return info, subflows


def parse_netstat(text, prefix="MPTcpExt"):
    """Counters of one group of /proc/net/netstat (header line + value line) as a dict."""
    lines = [ln.split() for ln in text.splitlines() if ln.startswith(prefix + ":")]
    if len(lines) < 2:
        return {}
    names, values = lines[0][1:], lines[1][1:]
    if len(names) != len(values):
        raise ValueError(f"/proc/net/netstat: {prefix} header and values differ in length")
    return {n: int(v) for n, v in zip(names, values, strict=True)}


def read_netstat():
    try:
        with open("/proc/net/netstat") as f:
            return parse_netstat(f.read())
    except OSError:
        return {}


_PROC_INT_FIELDS = {
    "conn",
    "start_ns",
    "end_ns",
    "decisions",
    "switches",
    "injections",
    "reinjections",
    "no_subflow",
    "bytes_other",
}


def parse_proc_line(line):
    """One connection line of /proc/net/mpqoe_<name> (format v1) as a dict."""
    out = {}
    for item in line.split():
        key, sep, value = item.partition("=")
        if not sep or not key:
            raise ValueError(f"malformed field {item!r}")
        if key in _PROC_INT_FIELDS:
            out[key] = int(value)
        elif key == "bytes":
            per = {}
            for pair in filter(None, value.split(",")):
                sid, sep, n = pair.partition(":")
                if not sep:
                    raise ValueError(f"malformed bytes entry {pair!r}")
                per[str(int(sid))] = int(n)
            out[key] = per
        else:
            out[key] = value
    for key in ("conn", "local", "remote", "decisions", "switches"):
        if key not in out:
            raise ValueError(f"missing field {key!r}")
    return out


def parse_proc(text):
    """(header dict, [connection dicts]) of /proc/net/mpqoe_<name>; ValueError if malformed."""
    lines = [ln.strip() for ln in text.splitlines() if ln.strip()]
    if not lines or not lines[0].startswith("#"):
        raise ValueError("no header line")
    words = lines[0][1:].split()
    if len(words) < 2 or words[1] != "v1":
        raise ValueError(f"unsupported header {lines[0]!r} (want v1)")
    header = {"module": words[0], "version": words[1]}
    for w in words[2:]:
        k, _, v = w.partition("=")
        header[k] = int(v) if v.isdigit() else v
    conns = []
    for ln in lines[1:]:
        try:
            conns.append(dict(parse_proc_line(ln), raw=ln))
        except ValueError as e:
            raise ValueError(f"{e} in line {ln!r}") from None
    return header, conns


def _norm_addr(addr):
    """Canonical "ip:port": v4-mapped IPv6 shown as IPv4."""
    if addr.startswith("[::ffff:") and "." in addr:
        host, _, port = addr[len("[::ffff:") :].partition("]:")
        return f"{host}:{port}"
    return addr


def scheduler_counters(proc_text, name, local, remote):
    """The scheduler summary for the connection local->remote, or (None, reason)."""
    try:
        _, conns = parse_proc(proc_text)
    except ValueError as e:
        return None, f"/proc/net/mpqoe_{name} malformed: {e}"
    want = (_norm_addr(local), _norm_addr(remote))
    found = [c for c in conns if (_norm_addr(c["local"]), _norm_addr(c["remote"])) == want]
    if not found:
        return None, f"no line for local={local} remote={remote} in /proc/net/mpqoe_{name}"
    live = [c for c in found if c.get("state") == "live"]
    c = (live or found)[-1]
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
    path = f"/proc/net/mpqoe_{name}"
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


# -------------------------------------------------------------------------------------------
# Common


class UsageError(Exception):
    """Bad input or a missing kernel feature: exit 2, nothing written."""


class Interrupted(Exception):
    pass


def _on_signal(signum, frame):
    raise Interrupted(f"interrupted by signal {signal.Signals(signum).name}")


def make_socket(family, use_tcp):
    proto = socket.IPPROTO_TCP if use_tcp else IPPROTO_MPTCP
    try:
        return socket.socket(family, socket.SOCK_STREAM, proto)
    except OSError as e:
        if use_tcp:
            raise
        raise UsageError(
            f"cannot create an MPTCP socket ({e.strerror}): kernel without MPTCP or "
            "net.mptcp.enabled=0 (use --tcp for plain TCP)"
        ) from None


def is_mptcp(sock):
    """True if the connection runs MPTCP (not a TCP fallback)."""
    try:
        info, _ = mptcp_full_info(sock.fileno())
    except OSError:
        return False
    return not info.get("flags", 0) & MPTCP_INFO_FLAG_FALLBACK


def family_of(host):
    return socket.AF_INET6 if ":" in host else socket.AF_INET


def write_json_atomic(path, doc):
    text = json.dumps(doc, indent=1, sort_keys=False) + "\n"
    if path is None:
        sys.stdout.write(text)
        sys.stdout.flush()
        return
    d = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(prefix=".vprobe-", suffix=".tmp", dir=d)
    try:
        with os.fdopen(fd, "w") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


# -------------------------------------------------------------------------------------------
# Server


class _PeerWatch:
    """The client never sends: the socket turning readable means it closed or failed."""

    def __init__(self, sock):
        self.poller = select.poll()
        self.poller.register(sock, select.POLLIN | select.POLLRDHUP)

    def wait(self, seconds, what):
        """Sleep `seconds`, raising RuntimeError as soon as the client goes away."""
        if self.poller.poll(max(0, math.ceil(seconds * 1000))):
            raise RuntimeError(f"the client closed the connection {what}")


def _wait_drained(sock, watch, deadline):
    """Wait until the peer acknowledged all data (so the scheduler counters are final)."""
    while time.monotonic() < deadline:
        try:
            info, _ = mptcp_full_info(sock.fileno())
        except OSError:
            return
        if info.get("write_seq", 0) == info.get("snd_una", 0):
            return
        watch.wait(0.02, "before acknowledging all data")


def serve(args):
    family = family_of(args.bind)
    lsock = make_socket(family, args.tcp)
    with lsock:
        lsock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            lsock.bind((args.bind, args.port))
        except OSError as e:
            raise UsageError(f"cannot bind {args.bind}:{args.port}: {e.strerror}") from None
        lsock.listen(1)
        print(f"vprobe server: listening on {sock_addr(lsock.getsockname())}", file=sys.stderr)
        sys.stderr.flush()
        lsock.settimeout(args.timeout)
        try:
            conn, _ = lsock.accept()
        except TimeoutError:
            raise RuntimeError(f"no client within {args.timeout:g} s") from None
        # The listener stays open until the end: MPTCP joins (MP_JOIN SYNs) are accepted
        # through it, and a join that arrives after it closed is reset.
        lsock.listen(0)
        with conn:
            conn.settimeout(args.timeout)
            return _stream(conn, args)


def _stream(conn, args):
    n = round(args.duration * args.fps)
    sizes = frame_sizes(args.bitrate, args.fps, n)
    local, remote = sock_addr(conn.getsockname()), sock_addr(conn.getpeername())
    mptcp = is_mptcp(conn)
    hello = {
        "schema": SCHEMA,
        "fps": args.fps,
        "bitrate": args.bitrate,
        "duration": args.duration,
        "frames": n,
        "bytes": sum(sizes),
    }
    conn.sendall(control_frame(HELLO_INDEX, hello))
    payload = memoryview(bytes(max(sizes, default=HEADER.size)))
    watch = _PeerWatch(conn)
    t0 = time.monotonic()
    late = 0
    max_lag = 0.0
    for i, size in enumerate(sizes):
        due = t0 + i / args.fps
        now = time.monotonic()
        if now < due:
            watch.wait(due - now, f"after {i} of {n} frames")
        else:
            watch.wait(0, f"after {i} of {n} frames")
            lag = now - due
            max_lag = max(max_lag, lag)
            if lag > 1.0 / args.fps:
                late += 1
        head = HEADER.pack(MAGIC, i, size - HEADER.size, time.time_ns(), 0)
        conn.sendall(head + payload[: size - HEADER.size])
    sent_s = time.monotonic() - t0
    _wait_drained(conn, watch, time.monotonic() + args.timeout)
    trailer = {
        "frames_sent": n,
        "bytes_sent": sum(sizes),
        "send_duration_s": round(sent_s, 6),
        "frames_sent_late": late,
        "max_send_lag_s": round(max_lag, 6),
        "mptcp": mptcp,
        "local": local,
        "remote": remote,
        "congestion_control": _congestion(conn),
        "scheduler": None,
        "scheduler_counters": None,
        "scheduler_reason": None,
        "subflows": [],
    }
    name, summary, reason = read_scheduler(local, remote)
    trailer.update(scheduler=name, scheduler_counters=summary, scheduler_reason=reason)
    if mptcp:
        with contextlib.suppress(OSError):
            _, sfs = mptcp_full_info(conn.fileno())
            keep = ("id", "local", "remote", "bytes_sent", "bytes_acked", "bytes_retrans")
            keep += ("total_retrans", "rtt_us", "min_rtt_us")
            trailer["subflows"] = [{k: sf.get(k) for k in keep} for sf in sfs]
    conn.sendall(control_frame(TRAILER_INDEX, trailer))
    conn.shutdown(socket.SHUT_WR)
    # Wait for the client's close so that the last bytes are not reset away.
    with contextlib.suppress(OSError):
        while conn.recv(4096):
            pass
    print(json.dumps(trailer, sort_keys=True))
    return 0


def _congestion(conn):
    try:
        raw = conn.getsockopt(socket.IPPROTO_TCP, socket.TCP_CONGESTION, 16)
        return raw.split(b"\0", 1)[0].decode()
    except OSError:
        return _sysctl("/proc/sys/net/ipv4/tcp_congestion_control")


# -------------------------------------------------------------------------------------------
# Client


class SubflowSeries:
    """Per-subflow byte counters sampled over time."""

    def __init__(self):
        self.last = {}  # id -> latest subflow dict
        self.series = {}  # id -> [[t, bps], ...]
        self.prev = {}  # id -> (t, bytes_received)
        self.t_prev = 0.0

    def sample(self, sock, t):
        try:
            _, sfs = mptcp_full_info(sock.fileno())
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


def parse_hostport(text):
    host, sep, port = text.rpartition(":")
    if not sep or not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise ValueError(f"--connect wants HOST:PORT, got {text!r}")
    return host.strip("[]"), int(port)


def _connect(args, host, port, deadline):
    """Connect, retrying while the server is not listening yet (until the deadline)."""
    while True:
        sock = make_socket(family_of(host), args.tcp)
        try:
            if args.bind:
                sock.bind((args.bind, 0))
            sock.settimeout(max(0.1, deadline - time.monotonic()))
            sock.connect((host, port))
            return sock
        except (ConnectionRefusedError, TimeoutError) as e:
            sock.close()
            if time.monotonic() >= deadline:
                raise RuntimeError(f"cannot connect to {host}:{port}: {e}") from None
            time.sleep(0.1)
        except OSError:
            sock.close()
            raise


def _delay_stats(delays):
    if not delays:
        return None
    s = sorted(delays)

    def q(p):
        return round(s[min(len(s) - 1, int(p * len(s)))], 6)

    return {"mean": round(sum(s) / len(s), 6), "p50": q(0.5), "p95": q(0.95), "max": q(1.0)}


def run_client(args, doc):
    """Fill doc in place; raise on failure (doc keeps what was measured so far)."""
    host, port = args.host, args.port
    t_start = time.monotonic()
    before = read_netstat()  # before connecting: the handshake and joins count too
    sock = _connect(args, host, port, t_start + args.timeout)
    with sock:
        t_conn = time.monotonic()
        if not args.tcp and not is_mptcp(sock):
            raise RuntimeError("the connection fell back to plain TCP (server not MPTCP?)")
        sock.settimeout(None)
        reader = FrameReader()
        series = SubflowSeries()
        hello = trailer = None
        completions = []
        delays = []
        frame_bytes = 0
        state = {}

        def finish(t_end):
            if not args.tcp:
                series.sample(sock, t_end - t_conn)
            after = read_netstat()
            deltas = {k: v - before.get(k, 0) for k, v in after.items()}
            state["counters"] = {k: v for k, v in deltas.items() if v}
            state["ofo"] = deltas.get("OFOQueue")

        rbuf = bytearray(1 << 16)
        view = memoryview(rbuf)
        poller = select.poll()
        poller.register(sock, select.POLLIN)
        next_sample = t_conn + args.sample_interval
        last_rx = t_conn
        eof = False
        t_end = None
        try:
            while not eof:
                now = time.monotonic()
                if now >= next_sample and not args.tcp and trailer is None:
                    series.sample(sock, now - t_conn)
                    while next_sample <= now:
                        next_sample += args.sample_interval
                if now - last_rx > args.timeout:
                    raise RuntimeError(f"no data for {args.timeout:g} s")
                wait = min(next_sample, last_rx + args.timeout) - now
                if not poller.poll(max(0, int(wait * 1000) + 1)):
                    continue
                got = sock.recv_into(rbuf)
                now = time.monotonic()
                if got == 0:
                    eof = True
                    break
                last_rx = now
                for index, payload, send_ns, length in reader.feed(view[:got]):
                    if payload is not None:
                        obj = _control(payload, index)
                        if index == HELLO_INDEX:
                            hello = obj
                            completions = [None] * int(hello["frames"])
                            doc["config"]["server"] = hello
                        elif index == TRAILER_INDEX:
                            trailer = obj
                            t_end = now
                            finish(now)
                        continue
                    if hello is None or index >= len(completions) or trailer is not None:
                        raise ProtocolError(f"unexpected frame {index}")
                    if completions[index] is not None:
                        raise ProtocolError(f"frame {index} received twice")
                    completions[index] = now - t_conn
                    frame_bytes += length
                    delays.append((time.time_ns() - send_ns) / 1e9)
        finally:
            if t_end is None:
                t_end = time.monotonic()
                with contextlib.suppress(OSError):
                    finish(t_end)
            duration = t_end - t_conn
            doc["duration_s"] = round(duration, 6)
            doc["stream_bytes"] = reader.stream_bytes
            received = sum(c is not None for c in completions)
            doc["frames"] = {
                "expected": hello["frames"] if hello else None,
                "received": received,
                "bytes": frame_bytes,
            }
            if hello:
                _fill_playout(doc, completions, hello["fps"], args, duration)
            doc["frame_delay_s"] = _delay_stats(delays)
            doc["subflows"] = series.report(duration)
            doc["out_of_order"] = {
                "mptcp_ofo_queue": state.get("ofo"),
                "subflow_rcv_ooopack": sum(
                    s["rcv_ooopack"] or 0 for s in doc["subflows"] if s["rcv_ooopack"] is not None
                ),
            }
            doc["mptcp_counters"] = state.get("counters", {})
            if trailer is not None:
                doc["server"] = trailer
                doc["scheduler"] = trailer.get("scheduler_counters")
                doc["scheduler_reason"] = trailer.get("scheduler_reason")
        if hello is None:
            raise ProtocolError("stream ended before the hello frame")
        if trailer is None:
            raise RuntimeError("stream ended before the trailer (server failed?)")
        if received != hello["frames"]:
            raise RuntimeError(f"{received} of {hello['frames']} frames received")
    return 0


def _control(payload, index):
    try:
        obj = json.loads(payload)
    except ValueError as e:
        raise ProtocolError(f"control frame {index:#x} is not JSON: {e}") from None
    if not isinstance(obj, dict):
        raise ProtocolError(f"control frame {index:#x} is not a JSON object")
    if index == HELLO_INDEX:
        if obj.get("schema") != SCHEMA:
            raise ProtocolError(f"server speaks {obj.get('schema')!r}, not {SCHEMA}")
        fps, frames = obj.get("fps"), obj.get("frames")
        if not isinstance(fps, int | float) or fps <= 0 or not isinstance(frames, int):
            raise ProtocolError("hello frame without valid fps/frames")
    return obj


def _fill_playout(doc, completions, fps, args, end):
    p = playout(
        completions,
        fps,
        startup_buffer=args.startup_buffer,
        underflow_after=args.underflow_after,
        rebuffer=args.rebuffer,
        end=end,
    )
    durations = [round(d, 6) for d in p["underflow_durations_s"]]
    doc["startup_delay_s"] = None if p["startup_s"] is None else round(p["startup_s"], 6)
    doc["frames"]["displayed"] = p["displayed"]
    doc["picture_discards"] = p["picture_discards"]
    doc["buffer_underflows"] = {
        "count": len(durations),
        "total_s": round(sum(p["underflow_durations_s"]), 6),
        "durations_s": durations,
    }


def new_doc(args):
    return {
        "schema": SCHEMA,
        "label": args.label,
        "complete": False,
        "error": None,
        "config": {
            "connect": args.connect,
            "bind": args.bind,
            "mptcp": not args.tcp,
            "startup_buffer_s": args.startup_buffer,
            "underflow_after_s": args.underflow_after,
            "rebuffer_s": args.rebuffer,
            "sample_interval_s": args.sample_interval,
            "timeout_s": args.timeout,
            "server": None,
        },
        "frames": {"expected": None, "received": 0, "bytes": 0},
        "stream_bytes": 0,
        "startup_delay_s": None,
        "picture_discards": None,
        "buffer_underflows": None,
        "frame_delay_s": None,
        "subflows": [],
        "out_of_order": None,
        "mptcp_counters": {},
        "scheduler": None,
        "scheduler_reason": "no trailer received",
        "server": None,
        "duration_s": None,
    }


def client_main(args):
    doc = new_doc(args)
    code = 0
    try:
        run_client(args, doc)
        doc["complete"] = True
    except UsageError:
        raise
    except (OSError, RuntimeError, ProtocolError, Interrupted, KeyboardInterrupt) as e:
        doc["error"] = str(e) or type(e).__name__
        code = 1
    write_json_atomic(args.out, doc)
    if code:
        print(f"vprobe client: {doc['error']}", file=sys.stderr)
    return code


# -------------------------------------------------------------------------------------------
# CLI


class _Parser(argparse.ArgumentParser):
    def error(self, message):
        raise UsageError(message)


def _positive(kind, allow_zero=False):
    def conv(text):
        try:
            v = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
        if not math.isfinite(v) or v < 0 or (v == 0 and not allow_zero):
            raise argparse.ArgumentTypeError(f"must be {'>= 0' if allow_zero else '> 0'}")
        return v

    return conv


def build_parser():
    p = _Parser(prog="vprobe.py", description="Video-stream probe over MPTCP (mpqoe issue 5).")
    sub = p.add_subparsers(dest="cmd", required=True, parser_class=_Parser)
    s = sub.add_parser("server", help="send one constant-bitrate frame stream, then exit")
    s.add_argument("--port", type=int, required=True)
    s.add_argument("--bind", default="0.0.0.0")
    s.add_argument("--bitrate", type=_positive(float), default=5.24e6, help="bit/s")
    s.add_argument("--fps", type=_positive(float), default=30.0)
    s.add_argument("--duration", type=_positive(float), default=30.0, help="seconds of video")
    s.add_argument("--tcp", action="store_true", help="plain TCP instead of MPTCP")
    s.add_argument("--timeout", type=_positive(float), default=60.0, help="accept/send stall")
    c = sub.add_parser("client", help="receive one stream, write the QoE JSON")
    c.add_argument("--connect", required=True, metavar="HOST:PORT")
    c.add_argument("--bind", default=None)
    c.add_argument("--startup-buffer", type=_positive(float, True), default=1.0)
    c.add_argument("--underflow-after", type=_positive(float, True), default=0.1)
    c.add_argument("--rebuffer", type=_positive(float, True), default=0.5)
    c.add_argument("--sample-interval", type=_positive(float), default=0.5)
    c.add_argument("--timeout", type=_positive(float), default=30.0, help="connect/idle limit")
    c.add_argument("--tcp", action="store_true", help="plain TCP instead of MPTCP")
    c.add_argument("--out", default=None, help="JSON file (default: stdout)")
    c.add_argument("--label", default=None)
    return p


def parse_args(argv):
    args = build_parser().parse_args(argv)
    if args.cmd == "server":
        if not 0 < args.port < 65536:
            raise UsageError(f"--port {args.port}: want 1..65535")
        if args.bitrate / 8 / args.fps < HEADER.size + 1:
            raise UsageError(f"frames of {args.bitrate / 8 / args.fps:.1f} B: under the header")
        if round(args.duration * args.fps) < 1:
            raise UsageError("--duration * --fps gives no frame")
    else:
        try:
            args.host, args.port = parse_hostport(args.connect)
        except ValueError as e:
            raise UsageError(str(e)) from None
        if args.out is not None:
            d = os.path.dirname(os.path.abspath(args.out))
            if not os.path.isdir(d) or not os.access(d, os.W_OK):
                raise UsageError(f"--out {args.out}: directory {d} missing or not writable")
    return args


def main(argv=None):
    try:
        args = parse_args(sys.argv[1:] if argv is None else argv)
        signal.signal(signal.SIGTERM, _on_signal)
        if args.cmd == "server":
            try:
                return serve(args)
            except (OSError, RuntimeError, Interrupted) as e:
                print(f"vprobe server: {e}", file=sys.stderr)
                return 1
        return client_main(args)
    except UsageError as e:
        print(f"vprobe: error: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("vprobe: interrupted", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
