"""The probe's server: a live constant-bitrate frame source for one client."""

import contextlib
import json
import math
import select
import socket
import sys
import time

from mpqoe_lib import sockopt
from vprobe_counters import congestion, read_scheduler
from vprobe_net import UsageError, family_of, is_mptcp, make_socket, sock_addr
from vprobe_wire import (
    HEADER,
    HELLO_INDEX,
    MAGIC,
    SCHEMA,
    TRAILER_INDEX,
    control_frame,
    frame_sizes,
)


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
            info, _ = sockopt.mptcp_full_info(sock.fileno())
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
        "congestion_control": congestion(conn),
        "scheduler": None,
        "scheduler_counters": None,
        "scheduler_reason": None,
        "subflows": [],
    }
    name, summary, reason = read_scheduler(local, remote)
    trailer.update(scheduler=name, scheduler_counters=summary, scheduler_reason=reason)
    if mptcp:
        with contextlib.suppress(OSError):
            _, sfs = sockopt.mptcp_full_info(conn.fileno())
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
