"""The probe's client: requests and receives one stream, times the first and last byte of every
frame, plays it out online through the player (which, in file mode, also paces the reading),
samples the subflows and writes one JSON document."""

import contextlib
import math
import select
import sys
import time

import vprobe_http as http
from mpqoe import files, kernel
from vprobe_counters import SubflowSeries
from vprobe_net import Interrupted, UsageError, family_of, is_mptcp, make_socket
from vprobe_playout import EPS, Player
from vprobe_wire import (
    HELLO_INDEX,
    SCHEMA,
    TRAILER_INDEX,
    FrameReader,
    ProtocolError,
    parse_control,
)

READ_SIZE = 1 << 16  # bytes per read


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


class _Pacer:
    """File mode: read like VLC, only about --read-ahead seconds ahead of playback.

    VLC reads an HTTP file at the pace its decoders take the data (its decoder fifos are kept
    to a few blocks when it controls the pace), beyond the caching it fills before playback
    starts (--network-caching, 1000 ms by default); what it does not read stays in the
    kernel's TCP receive buffer, whose window then throttles the sender. So the reader reads
    while fewer than `limit` complete frames are read but not yet due (always while playback
    has not started or is paused by an underflow: the player is waiting for data), and
    otherwise sleeps until the next frame is due (or the next subflow sample).

    Pacing cannot make a frame late by itself. The reader pauses only while playing with at
    least `limit` >= 1 complete frames not yet due (frames next..next+limit-1: frames are read
    in order), and a pause ends at the next deadline. So while frame i is incomplete, the
    reader pauses only before D_(i-limit), and from then on it reads whatever the kernel holds
    until frame i is complete: each byte of frame i is read at its arrival in the kernel or,
    if it came during a pause, by D_(i-limit) < D_i. F_i and C_i therefore fall on the same
    side of D_i as for a reader that reads everything at once, a late frame completes at the
    same time, and the discards and underflows are the same (test_vprobe.PacingTest replays
    this) - unless the process oversleeps a deadline by more than `limit` frame intervals.
    """

    def __init__(self, read_ahead, fps):
        self.limit = max(1, math.ceil(read_ahead * fps - EPS))
        self.paused_s = 0.0
        self.pauses = 0
        self.paused = False


def run_client(args, doc):
    """Fill doc in place; raise on failure (doc keeps what was measured so far)."""
    host, port = args.host, args.port
    t_start = time.monotonic()
    before = kernel.read_netstat()  # before connecting: the handshake and joins count too
    sock = _connect(args, host, port, t_start + args.timeout)
    with sock:
        t_conn = time.monotonic()
        if not args.tcp and not is_mptcp(sock):
            raise RuntimeError("the connection fell back to plain TCP (server not MPTCP?)")
        sock.settimeout(None)
        response = None
        if args.mode == "file":
            sock.sendall(http.request(host, port))
            response = http.ResponseHead()
        reader = FrameReader()
        series = SubflowSeries()
        hello = trailer = player = pacer = None
        n = 0  # video frames (from the hello)
        next_video = 0
        delays = []
        frame_bytes = 0
        max_ahead = 0
        state = {}

        def finish(t_end):
            if not args.tcp:
                series.sample(sock, t_end - t_conn)
            after = kernel.read_netstat()
            deltas = {k: v - before.get(k, 0) for k, v in after.items()}
            state["counters"] = {k: v for k, v in deltas.items() if v}
            state["ofo"] = deltas.get("OFOQueue")

        rbuf = bytearray(READ_SIZE)
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
                if player is not None:
                    player.advance(now - t_conn)  # every byte read so far is fed
                    if pacer is not None and trailer is None and not player.wants_data(pacer.limit):
                        if not pacer.paused:
                            pacer.paused, pacer.pauses = True, pacer.pauses + 1
                        wake = min(t_conn + player.next_deadline(), next_sample)
                        time.sleep(max(0.0, wake - now))
                        pacer.paused_s += time.monotonic() - now
                        last_rx = time.monotonic()  # the idle limit counts while reading
                        continue
                    if pacer is not None:
                        pacer.paused = False
                if now - last_rx > args.timeout:
                    hint = ""
                    if args.mode == "live" and reader.stream_bytes == 0:
                        hint = " (a --mode file server waits for an HTTP request)"
                    raise RuntimeError(f"no data for {args.timeout:g} s{hint}")
                wait = min(next_sample, last_rx + args.timeout) - now
                if not poller.poll(max(0, int(wait * 1000) + 1)):
                    continue
                got = sock.recv_into(rbuf)
                now = time.monotonic()
                t = now - t_conn
                if got == 0:
                    eof = True
                    break
                last_rx = now
                data = view[:got]
                if response is not None and not response.done:
                    data = response.feed(data)
                    if data is None:
                        continue
                    if response.status != 200:
                        raise RuntimeError(
                            f"the server answered {response.status} {response.reason}, not 200"
                        )
                started = reader.started
                for index, payload, send_ns, length in reader.feed(data):
                    if payload is not None:
                        obj = parse_control(payload, index)
                        if index == HELLO_INDEX:
                            if hello is not None:
                                raise ProtocolError("a second hello frame")
                            if obj.get("mode") != args.mode:
                                raise ProtocolError(
                                    f"the server runs --mode {obj.get('mode')}, "
                                    f"the client --mode {args.mode}"
                                )
                            hello = obj
                            n = int(hello["frames"])
                            player = Player(n, hello["fps"], args.startup_buffer, args.rebuffer)
                            if args.mode == "file":
                                pacer = _Pacer(args.read_ahead, hello["fps"])
                            doc["config"]["server"] = hello
                        elif index == TRAILER_INDEX:
                            trailer = obj  # the stream is over: read on to the close
                            t_end = now
                            finish(now)
                            if player is not None:
                                player.end(t)
                        continue
                    if hello is None or trailer is not None or index != next_video:
                        expected = "none" if hello is None or next_video >= n else next_video
                        raise ProtocolError(f"frame {index} where {expected} was due")
                    next_video += 1
                    player.complete(index, t)
                    frame_bytes += length
                    delays.append((time.time_ns() - send_ns) / 1e9)
                # frames started in this read: stream position s is video frame s-1
                for s in range(max(started, 1), min(reader.started, n + 1)):
                    player.first_byte(s - 1, t)
                if player is not None:
                    max_ahead = max(max_ahead, player.ahead)
        finally:
            if t_end is None:
                t_end = time.monotonic()
                with contextlib.suppress(OSError):
                    finish(t_end)
            duration = t_end - t_conn
            doc["duration_s"] = round(duration, 6)
            doc["stream_bytes"] = reader.stream_bytes + (response.size if response else 0)
            if response is not None and response.done:
                doc["http"] = {
                    "status": response.status,
                    "reason": response.reason,
                    "content_type": response.headers.get("content-type"),
                    "head_bytes": response.size,
                }
            doc["frames"] = {
                "expected": hello["frames"] if hello else None,
                "received": next_video,
                "bytes": frame_bytes,
            }
            if player is not None:
                if player.ended is None:
                    player.end(duration)
                _fill_playout(doc, player.finish())
                doc["reader"] = {
                    "paused_s": round(pacer.paused_s, 6) if pacer else 0.0,
                    "pauses": pacer.pauses if pacer else 0,
                    "max_ahead_s": round(max_ahead / hello["fps"], 6),
                }
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
        if next_video != n:
            raise RuntimeError(f"{next_video} of {n} frames received")
    return 0


def _fill_playout(doc, p):
    durations = [round(d, 6) for d in p["underflow_durations_s"]]
    doc["startup_delay_s"] = None if p["startup_s"] is None else round(p["startup_s"], 6)
    doc["frames"]["displayed"] = p["displayed"]
    doc["picture_discards"] = p["picture_discards"]
    doc["buffer_underflows"] = {
        "count": len(durations),
        "total_s": round(sum(p["underflow_durations_s"]), 6),
        "durations_s": durations,
        "starts_s": [round(s, 6) for s in p["underflow_starts_s"]],
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
            "mode": args.mode,
            "read_ahead_s": args.read_ahead,
            "startup_buffer_s": args.startup_buffer,
            "rebuffer_s": args.rebuffer,
            "sample_interval_s": args.sample_interval,
            "timeout_s": args.timeout,
            "server": None,
        },
        "http": None,
        "frames": {"expected": None, "received": 0, "bytes": 0},
        "stream_bytes": 0,
        "startup_delay_s": None,
        "picture_discards": None,
        "buffer_underflows": None,
        "reader": None,
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
    except (
        OSError,
        RuntimeError,
        ProtocolError,
        http.HttpError,
        Interrupted,
        KeyboardInterrupt,
    ) as e:
        doc["error"] = str(e) or type(e).__name__
        code = 1
    if args.out is None:
        sys.stdout.write(files.json_text(doc, sort_keys=False))
        sys.stdout.flush()
    else:
        files.write_json(args.out, doc, sort_keys=False)
    if code:
        print(f"vprobe client: {doc['error']}", file=sys.stderr)
    return code
