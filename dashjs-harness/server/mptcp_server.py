#!/usr/bin/env python3
"""An HTTP/1.1 server for DASH content listening with IPPROTO_MPTCP (Python standard library).

    server/mptcp_server.py --mount /content=DIR [--mount /player=DIR ...] [--players]
                           [--bind ADDR] [--port N] [--log FILE|-] [--tcp]

Serves GET and HEAD from the mounted directories with single byte ranges (206/416), correct MIME
types (.mpd application/dash+xml, .m4s video/iso.segment, .mp4 video/mp4, .js, .html, .json) and
`Cache-Control: no-store`. --players also serves each player profile's dash.js build
(player/players.json) at /dashjs/<profile>/, every profile whose build is installed. Run it
inside a network namespace or a Mininet host (`ip netns exec NS ...`, `host.popen(...)`): it
binds to --bind (default 0.0.0.0) in whatever namespace it starts in.

The listener is an MPTCP socket, so MPTCP clients get MPTCP and plain TCP clients fall back to TCP
(the kernel does this by itself). A kernel without MPTCP (or with net.mptcp.enabled=0) is an error
unless --tcp asks for a plain TCP listener.

Per-request log, one JSON object a line (appended, flushed per line): path, status, bytes (body
bytes written), range, start/end (Unix time of the request line and of the last body byte handed
to the kernel), client ("addr:port"), mptcp (true when the connection really runs MPTCP, false on
fallback, from TCP_IS_MPTCP). Once listening it prints one line
`listening <addr> <port> mptcp|tcp` on stdout.
"""

import json
import os
import posixpath
import signal
import socket
import sys
import threading
import time
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from mpqoe.dash_harness import (
    Failure,
    Parser,
    Unavailable,
    UsageError,
    player_build,
    players,
    run_main,
)

IPPROTO_MPTCP = getattr(socket, "IPPROTO_MPTCP", 262)
SOL_TCP = socket.IPPROTO_TCP
TCP_IS_MPTCP = 43  # include/uapi/linux/tcp.h, Linux >= 5.16
CHUNK = 64 * 1024

MIME = {
    ".mpd": "application/dash+xml",
    ".m4s": "video/iso.segment",
    ".mp4": "video/mp4",
    ".m4v": "video/mp4",
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".mjs": "text/javascript; charset=utf-8",
    ".map": "application/json",
    ".json": "application/json",
    ".css": "text/css",
    ".txt": "text/plain; charset=utf-8",
}


def parse_range(header, size):
    """(start, end) inclusive for a single `bytes=` range, None to send the whole body, or
    "unsatisfiable". Multiple ranges are answered with the whole body (RFC 9110 allows it)."""
    if not header:
        return None
    unit, _, spec = header.partition("=")
    if unit.strip().lower() != "bytes" or "," in spec:
        return None
    first, dash, last = spec.strip().partition("-")
    if not dash:
        return None
    try:
        if first == "":
            n = int(last)
            if n <= 0:
                return "unsatisfiable"
            return (max(0, size - n), size - 1) if size else "unsatisfiable"
        a = int(first)
        b = int(last) if last else size - 1
    except ValueError:
        return None
    if a >= size:
        return "unsatisfiable"
    if a < 0 or b < a:
        return None
    return a, min(b, size - 1)


def is_mptcp(sock):
    try:
        return bool(sock.getsockopt(SOL_TCP, TCP_IS_MPTCP))
    except OSError:
        return None


class RequestLog:
    def __init__(self, path):
        self.lock = threading.Lock()
        if path == "-":
            self.f = sys.stdout
        elif path:
            self.f = open(path, "a", buffering=1)  # lives as long as the server
        else:
            self.f = None

    def write(self, rec):
        if self.f is None:
            return
        line = json.dumps(rec, separators=(",", ":"))
        with self.lock:
            self.f.write(line + "\n")
            self.f.flush()


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "mpqoe-dash/1"

    def log_message(self, format, *args):  # the stdlib's stderr log; RequestLog replaces it
        pass

    def resolve(self, urlpath):
        path = posixpath.normpath(urllib.parse.unquote(urlpath.split("?", 1)[0]))
        for prefix, root in self.server.mounts:
            if path == prefix or path.startswith(prefix.rstrip("/") + "/"):
                rel = path[len(prefix.rstrip("/")) :].lstrip("/")
                full = os.path.realpath(os.path.join(root, rel))
                if full == root or full.startswith(root + os.sep):
                    return full
        return None

    def do_HEAD(self):
        self.serve(head=True)

    def do_GET(self):
        self.serve(head=False)

    def serve(self, head):
        start = time.time()
        status, sent, rng = 500, 0, self.headers.get("Range")
        try:
            status, sent = self._serve(head, rng)
        except (BrokenPipeError, ConnectionResetError) as e:
            status, sent = getattr(e, "status", 499), getattr(e, "sent", 0)
            self.close_connection = True
        finally:
            self.server.log.write(
                {
                    "path": self.path,
                    "method": self.command,
                    "status": status,
                    "bytes": sent,
                    "range": rng,
                    "start": round(start, 6),
                    "end": round(time.time(), 6),
                    "client": f"{self.client_address[0]}:{self.client_address[1]}",
                    "mptcp": self.server.conn_mptcp(self.connection),
                }
            )

    def _error(self, code):
        body = f"{code} {self.responses.get(code, ('',))[0]}\n".encode()
        self.send_response(code)
        self.send_header("Content-Type", "text/plain; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)
        return code, 0

    def _serve(self, head, rng):
        full = self.resolve(self.path)
        if full is None or not os.path.isfile(full):
            return self._error(404)
        size = os.path.getsize(full)
        r = parse_range(rng, size)
        if r == "unsatisfiable":
            self.send_response(416)
            self.send_header("Content-Range", f"bytes */{size}")
            self.send_header("Content-Length", "0")
            self.end_headers()
            return 416, 0
        a, b = r if r else (0, size - 1)
        length = b - a + 1 if size else 0
        status = 206 if r else 200
        self.send_response(status)
        ctype = MIME.get(os.path.splitext(full)[1].lower(), "application/octet-stream")
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(length))
        self.send_header("Accept-Ranges", "bytes")
        self.send_header("Cache-Control", "no-store")
        if r:
            self.send_header("Content-Range", f"bytes {a}-{b}/{size}")
        self.end_headers()
        if head:
            return status, 0
        sent = 0
        with open(full, "rb") as f:
            f.seek(a)
            while sent < length:
                buf = f.read(min(CHUNK, length - sent))
                if not buf:
                    break
                try:
                    self.wfile.write(buf)
                except (BrokenPipeError, ConnectionResetError) as e:
                    e.status, e.sent = status, sent
                    raise
                sent += len(buf)
        return status, sent


class MptcpHTTPServer(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True
    request_queue_size = 128

    def __init__(self, addr, mounts, log, tcp=False):
        self.mounts = sorted(mounts, key=lambda m: -len(m[0]))
        self.log = log
        self.proto = "tcp" if tcp else "mptcp"
        super().__init__(addr, Handler, bind_and_activate=False)
        if not tcp:
            self.socket.close()
            try:
                self.socket = socket.socket(self.address_family, socket.SOCK_STREAM, IPPROTO_MPTCP)
            except OSError as e:
                raise Unavailable(
                    f"cannot open an MPTCP socket ({e.strerror}): this kernel lacks MPTCP or "
                    "net.mptcp.enabled=0 (sysctl -w net.mptcp.enabled=1), or pass --tcp"
                ) from e
        try:
            self.server_bind()
            self.server_activate()
        except OSError:
            self.server_close()
            raise

    def conn_mptcp(self, sock):
        return is_mptcp(sock) if self.proto == "mptcp" else False


def parse_mount(s):
    prefix, eq, d = s.partition("=")
    if not eq or not prefix.startswith("/") or not d:
        raise UsageError(f"--mount wants /PREFIX=DIR, got {s!r}")
    if not os.path.isdir(d):
        raise UsageError(f"--mount {prefix}: {d} is not a directory")
    return posixpath.normpath(prefix), os.path.realpath(d)


def player_mounts():
    """(/dashjs/<profile>, build directory) for every player profile whose build is installed;
    the page of a profile that is not installed finds no dash.js and reports it."""
    out = []
    for name in players()["players"]:
        d = player_build(name)
        if os.path.isdir(d):
            out.append((f"/dashjs/{name}", os.path.realpath(d)))
    return out


def stop_on_sigterm(*_):
    raise KeyboardInterrupt


def body(argv):
    ap = Parser(prog="mptcp_server", description=__doc__.split("\n\n")[0])
    ap.add_argument("--mount", action="append", default=[], help="/PREFIX=DIR (repeatable)")
    ap.add_argument(
        "--players", action="store_true", help="serve the player profiles' dash.js at /dashjs/NAME"
    )
    ap.add_argument("--bind", default="0.0.0.0")
    ap.add_argument("--port", type=int, default=8000, help="0 picks a free port")
    ap.add_argument("--log", default="", help="request log file (JSON lines), - for stdout")
    ap.add_argument("--tcp", action="store_true", help="plain TCP listener instead of MPTCP")
    args = ap.parse_args(argv)
    if not args.mount and not args.players:
        raise UsageError("at least one --mount /PREFIX=DIR (or --players) is needed")
    if not 0 <= args.port <= 65535:
        raise UsageError(f"--port {args.port} is out of range")
    mounts = [parse_mount(m) for m in args.mount] + (player_mounts() if args.players else [])
    try:
        log = RequestLog(args.log)
    except OSError as e:
        raise UsageError(f"--log {args.log}: {e.strerror}") from e
    try:
        srv = MptcpHTTPServer((args.bind, args.port), mounts, log, args.tcp)
    except OSError as e:
        raise Failure(f"cannot listen on {args.bind}:{args.port}: {e.strerror}") from e
    signal.signal(signal.SIGTERM, stop_on_sigterm)
    host, port = srv.server_address[:2]
    print(f"listening {host} {port} {srv.proto}", flush=True)
    try:
        srv.serve_forever(poll_interval=0.2)
    except KeyboardInterrupt:
        pass
    finally:
        srv.server_close()
    return 0


def main(argv=None):
    return run_main("mptcp_server", body, argv)


if __name__ == "__main__":
    sys.exit(main())
