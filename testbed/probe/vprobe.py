#!/usr/bin/env python3
"""vprobe: a video-stream probe over MPTCP, standing in for the scheduler papers' VLC setup.

    vprobe.py server --port P [--bind ADDR] [--mode file|live] [--bitrate 5.24e6] [--fps 30]
                     [--duration 30] [--tcp] [--timeout S]
    vprobe.py client --connect HOST:PORT [--bind ADDR] [--mode file|live] [--read-ahead 1.0]
                     [--startup-buffer 1.0] [--rebuffer 0.5] [--sample-interval 0.5]
                     [--timeout S] [--tcp] [--out FILE] [--label TEXT]

The video is a constant-bitrate frame sequence: frame i is bitrate/8/fps bytes, header included.
Every frame starts with a 24-byte header (magic "MPQV", index u32, payload size u32, send
CLOCK_REALTIME ns u64, flags u32, network order). Two control frames frame the video: a hello
(index 0xfffffffe, JSON: mode, fps, bitrate, frames, ...) so that the client needs no copy of
the server's settings, and a trailer (index 0xffffffff, JSON: server-side facts, among them the
scheduler module's counters for this connection from /proc/net/mpqoe_<scheduler>). The server
sends the trailer once all data is acknowledged (so those counters are final), shuts its side
down and waits for the client's close.

--mode file (default; both sides must use the same mode), like an HTTP server serving a stored
file to VLC: the client sends one HTTP/1.1 GET; the server answers 200 with the frame stream as
the body (delimited by the close) and writes it in 64 KiB writes as fast as the socket takes
them. The client reads only while less than --read-ahead seconds of video are read but not yet
played, as VLC does, and leaves the rest in the kernel's receive buffer, whose window throttles
the sender. --mode live: the server is a live source writing frame i at max(now, t0 + i/fps),
the client reads as fast as it can.

The client records when the first and the last byte of each frame were read (CLOCK_MONOTONIC),
plays the frames out online through the player (vprobe_playout.py: startup buffer, picture
discards, buffer underflows), samples the per-subflow counters every --sample-interval with
getsockopt(SOL_MPTCP, MPTCP_FULL_INFO), reads the namespace's MPTcpExt counters before and after
and writes one JSON document (schema "mpqoe-vprobe/2", see README.md).

This file is the command line; the parts are vprobe_playout.py (player), vprobe_wire.py
(frames), vprobe_http.py (the file mode's request and response), vprobe_counters.py (scheduler
and subflow counters), vprobe_net.py (sockets, errors), vprobe_server.py and vprobe_client.py;
MPTCP socket options and /proc parsing come from python/mpqoe.

Exit codes: 0 complete; 1 runtime failure (the client still writes its JSON, complete=false,
error set; the server refuses a bad request with a 400); 2 usage error or missing kernel
feature (one line on stderr, nothing written). Stdlib only, Python >= 3.11, Linux >= 6.6
(MPTCP_FULL_INFO).
"""

from __future__ import annotations

import argparse
import math
import os
import signal
import sys

from vprobe_client import client_main
from vprobe_net import Interrupted, UsageError, on_signal, parse_hostport
from vprobe_server import serve
from vprobe_wire import HEADER

MODES = ("file", "live")
MODE_HELP = "file: a stored video behind one HTTP GET (default); live: a live source"
READ_AHEAD = 1.0  # s: VLC's default network caching, its reading lead when it paces a file


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
    p = _Parser(prog="vprobe.py", description="Video-stream probe over MPTCP.")
    sub = p.add_subparsers(dest="cmd", required=True, parser_class=_Parser)
    s = sub.add_parser("server", help="send one constant-bitrate video to one client, then exit")
    s.add_argument("--port", type=int, required=True)
    s.add_argument("--bind", default="0.0.0.0")
    s.add_argument("--bitrate", type=_positive(float), default=5.24e6, help="bit/s")
    s.add_argument("--fps", type=_positive(float), default=30.0)
    s.add_argument("--duration", type=_positive(float), default=30.0, help="seconds of video")
    s.add_argument("--mode", choices=MODES, default="file", help=MODE_HELP)
    s.add_argument("--tcp", action="store_true", help="plain TCP instead of MPTCP")
    s.add_argument("--timeout", type=_positive(float), default=60.0, help="accept/send stall")
    c = sub.add_parser("client", help="receive one stream, write the QoE JSON")
    c.add_argument("--connect", required=True, metavar="HOST:PORT")
    c.add_argument("--bind", default=None)
    c.add_argument("--mode", choices=MODES, default="file", help=MODE_HELP)
    c.add_argument(
        "--read-ahead",
        type=_positive(float),
        default=None,
        help="file mode: read at most this many seconds of video ahead of playback (1.0)",
    )
    c.add_argument("--startup-buffer", type=_positive(float, True), default=1.0)
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
        if args.read_ahead is not None and args.mode != "file":
            raise UsageError("--read-ahead applies to --mode file only")
        if args.read_ahead is None and args.mode == "file":
            args.read_ahead = READ_AHEAD
        if args.out is not None:
            d = os.path.dirname(os.path.abspath(args.out))
            if not os.path.isdir(d) or not os.access(d, os.W_OK):
                raise UsageError(f"--out {args.out}: directory {d} missing or not writable")
    return args


def main(argv=None):
    try:
        args = parse_args(sys.argv[1:] if argv is None else argv)
        signal.signal(signal.SIGTERM, on_signal)
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
