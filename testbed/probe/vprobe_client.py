"""The probe's client: receives one stream, times the first and last byte of every frame, plays
it out online through the player, samples the subflows and writes one JSON document."""

import contextlib
import select
import sys
import time

from mpqoe_lib import files, kernel
from vprobe_counters import SubflowSeries
from vprobe_net import Interrupted, UsageError, family_of, is_mptcp, make_socket
from vprobe_playout import Player
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
        reader = FrameReader()
        series = SubflowSeries()
        hello = trailer = player = None
        n = 0  # video frames (from the hello)
        next_video = 0
        delays = []
        frame_bytes = 0
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
                if now - last_rx > args.timeout:
                    raise RuntimeError(f"no data for {args.timeout:g} s")
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
                started = reader.started
                for index, payload, send_ns, length in reader.feed(data):
                    if payload is not None:
                        obj = parse_control(payload, index)
                        if index == HELLO_INDEX:
                            if hello is not None:
                                raise ProtocolError("a second hello frame")
                            hello = obj
                            n = int(hello["frames"])
                            player = Player(n, hello["fps"], args.startup_buffer, args.rebuffer)
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
        finally:
            if t_end is None:
                t_end = time.monotonic()
                with contextlib.suppress(OSError):
                    finish(t_end)
            duration = t_end - t_conn
            doc["duration_s"] = round(duration, 6)
            doc["stream_bytes"] = reader.stream_bytes
            doc["frames"] = {
                "expected": hello["frames"] if hello else None,
                "received": next_video,
                "bytes": frame_bytes,
            }
            if player is not None:
                if player.ended is None:
                    player.end(duration)
                _fill_playout(doc, player.finish())
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
            "startup_buffer_s": args.startup_buffer,
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
    except (
        OSError,
        RuntimeError,
        ProtocolError,
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
