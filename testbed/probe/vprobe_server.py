"""The probe's server, for one client: a stored constant-bitrate video file behind one HTTP GET
(file mode, the default) or a live constant-bitrate source (live mode)."""

import contextlib
import json
import math
import select
import socket
import sys
import time

import vprobe_http as http
from mpqoe import sockopt
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

WRITE_SIZE = 1 << 16  # file mode: bytes per socket write, as a web server's large writes


class _PeerWatch:
    """After its request (file mode) or from the start (live mode) the client never sends: the
    socket turning readable means it closed or failed."""

    def __init__(self, sock):
        self.sock = sock
        self.poller = select.poll()
        self.poller.register(sock, select.POLLIN | select.POLLRDHUP)

    def wait(self, seconds, what):
        """Sleep `seconds`, raising RuntimeError as soon as the client goes away."""
        events = self.poller.poll(max(0, math.ceil(seconds * 1000)))
        if not events:
            return
        if events[0][1] & select.POLLIN:
            try:
                data = self.sock.recv(1, socket.MSG_DONTWAIT | socket.MSG_PEEK)
            except BlockingIOError:
                return
            except OSError:
                data = b""
            if data:
                raise RuntimeError(f"the client sent data {what} (a --mode file client?)")
        raise RuntimeError(f"the client closed the connection {what}")


class _Lag:
    """How far the writing fell behind the video's own clock, in both modes: frame i is due
    at t0 + i/fps (t0: the first frame's write); a frame whose first byte is handed to the
    socket more than one frame interval after that is written late. Live mode cannot write a
    frame before it is due; file mode writes ahead, so a late frame there means the network
    delivered less than the video rate for long enough to use up the lead (a frame written
    late may still arrive before the player shows it: the player's clock starts after its
    start-up buffer and stops while it stalls)."""

    def __init__(self, t0, fps):
        self.t0, self.fps = t0, fps
        self.late, self.max_lag = 0, 0.0

    def frame(self, i, now):
        lag = now - (self.t0 + i / self.fps)
        self.max_lag = max(self.max_lag, lag)
        if lag > 1.0 / self.fps:
            self.late += 1

    def facts(self):
        return {"frames_sent_late": self.late, "max_send_lag_s": round(self.max_lag, 6)}


def _wait_drained(sock, watch, deadline):
    """Wait until the peer acknowledged all data (so the scheduler counters are final);
    return whether it did before the deadline."""
    while time.monotonic() < deadline:
        try:
            info, _ = sockopt.mptcp_full_info(sock.fileno())
        except OSError:
            return True
        if info.get("write_seq", 0) == info.get("snd_una", 0):
            return True
        watch.wait(0.02, "before acknowledging all data")
    return False


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
            if args.mode == "file":
                return _serve_file(conn, args)
            return _serve_live(conn, args)


def _video(args):
    """The frame sizes and the hello of this video."""
    n = round(args.duration * args.fps)
    sizes = frame_sizes(args.bitrate, args.fps, n)
    hello = {
        "schema": SCHEMA,
        "mode": args.mode,
        "fps": args.fps,
        "bitrate": args.bitrate,
        "duration": args.duration,
        "frames": n,
        "bytes": sum(sizes),
    }
    return sizes, hello


def _serve_live(conn, args):
    """Live constant-bitrate source: frame i written at max(now, t0 + i/fps)."""
    sizes, hello = _video(args)
    n = len(sizes)
    conn.sendall(control_frame(HELLO_INDEX, hello))
    payload = memoryview(bytes(max(sizes, default=HEADER.size)))
    watch = _PeerWatch(conn)
    t0 = time.monotonic()
    lag = _Lag(t0, args.fps)
    for i, size in enumerate(sizes):
        due = t0 + i / args.fps
        now = time.monotonic()
        watch.wait(max(0.0, due - now), f"after {i} of {n} frames")
        lag.frame(i, max(due, now))
        head = HEADER.pack(MAGIC, i, size - HEADER.size, time.time_ns(), 0)
        conn.sendall(head + payload[: size - HEADER.size])
    return _finish(conn, args, watch, sizes, t0, lag.facts())


def _read_request(conn, args):
    """The request head, up to its blank line; HttpError if it is not one the server answers."""
    buf = bytearray()
    while (end := http.head_end(buf)) < 0:
        if len(buf) > http.MAX_HEAD:
            raise http.HttpError(f"request head over {http.MAX_HEAD} bytes")
        try:
            data = conn.recv(4096)
        except TimeoutError:
            raise RuntimeError(
                f"no complete HTTP request within {args.timeout:g} s (a --mode live client?)"
            ) from None
        if not data:
            raise RuntimeError("the client closed the connection before completing its request")
        buf += data
    if end < len(buf):
        raise http.HttpError("data after the request head (a body or a second request)")
    method, target, version, _ = http.parse_request(buf)
    return f"{method} {target} {version}"


def _refuse(conn, reason):
    """Send a 400 saying why and let the client read it before the close."""
    with contextlib.suppress(OSError):
        conn.sendall(http.bad_request(reason))
        conn.shutdown(socket.SHUT_WR)
        conn.settimeout(1.0)
        while conn.recv(4096):
            pass


def _file_writes(prefix, sizes, size, lag=None):
    """The stored file in writes of `size` bytes: prefix (response head and hello), then the
    frames, header and zero payload. A frame is appended to a write only if its header starts
    in it, and stamped then, i.e. with the time its first byte is handed to the socket (and
    given to `lag`, a _Lag, at that time)."""
    zeros = memoryview(bytes(max(sizes, default=HEADER.size)))
    buf = bytearray(prefix)
    for i, fsize in enumerate(sizes):
        while len(buf) >= size:
            yield bytes(buf[:size])
            del buf[:size]
        if lag is not None:
            lag.frame(i, time.monotonic())
        buf += HEADER.pack(MAGIC, i, fsize - HEADER.size, time.time_ns(), 0)
        buf += zeros[: fsize - HEADER.size]
    while buf:
        yield bytes(buf[:size])
        del buf[:size]


def _serve_file(conn, args):
    """Stored file behind one HTTP GET: the whole stream written as fast as the socket takes
    it, i.e. at the pace TCP's congestion and flow control (the client's reading) allow."""
    try:
        request_line = _read_request(conn, args)
    except http.HttpError as e:
        _refuse(conn, str(e))
        raise RuntimeError(f"bad request: {e}") from None
    sizes, hello = _video(args)
    total = sum(sizes)
    prefix = http.response_head() + control_frame(HELLO_INDEX, hello)
    watch = _PeerWatch(conn)
    t0 = time.monotonic()
    lag = _Lag(t0, args.fps)
    handed = 0
    for chunk in _file_writes(prefix, sizes, WRITE_SIZE, lag):
        what = f"after {max(0, handed - len(prefix))} of {total} video bytes"
        watch.wait(0, what)
        try:
            conn.sendall(chunk)
        except TimeoutError:
            raise RuntimeError(f"no progress writing for {args.timeout:g} s ({what})") from None
        except (BrokenPipeError, ConnectionResetError):
            raise RuntimeError(f"the client closed the connection {what}") from None
        handed += len(chunk)
    facts = {"request": request_line, "write_size": WRITE_SIZE, **lag.facts()}
    return _finish(conn, args, watch, sizes, t0, facts)


def _finish(conn, args, watch, sizes, t0, facts):
    """Wait for all data to be acknowledged, send the trailer, wait for the client's close."""
    sent_s = time.monotonic() - t0
    local, remote = sock_addr(conn.getsockname()), sock_addr(conn.getpeername())
    mptcp = is_mptcp(conn)
    drained = _wait_drained(conn, watch, time.monotonic() + args.timeout)
    trailer = {
        "mode": args.mode,
        "frames_sent": len(sizes),
        "bytes_sent": sum(sizes),
        "send_duration_s": round(sent_s, 6),
        "acked_s": round(time.monotonic() - t0, 6) if drained else None,
        "frames_sent_late": None,
        "max_send_lag_s": None,
        "request": None,
        "write_size": None,
        "mptcp": mptcp,
        "local": local,
        "remote": remote,
        "congestion_control": congestion(conn),
        "scheduler": None,
        "scheduler_counters": None,
        "scheduler_reason": None,
        "subflows": [],
    }
    trailer.update(facts)
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
    print(json.dumps(trailer, sort_keys=True))
    sys.stdout.flush()
    # Wait for the client's close so that the last bytes are not reset away. A client that
    # read the whole stream closes cleanly; one that closes with data unread resets the
    # connection (in file mode all data may be acknowledged, i.e. in its kernel, long before
    # it has read it).
    try:
        while conn.recv(4096):
            pass
    except ConnectionResetError:
        raise RuntimeError(
            "the client reset the connection before reading the whole stream"
        ) from None
    except OSError:
        pass
    return 0
