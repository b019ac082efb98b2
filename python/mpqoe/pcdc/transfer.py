#!/usr/bin/env python3
"""MPTCP transfers for PCDC's measurements and experiments: a server and a downloading client.

    python3 -m mpqoe.pcdc.transfer serve --port 5201 [--bind ADDR] [--cc NAME]
    python3 -m mpqoe.pcdc.transfer get --connect ADDR:PORT (--size BYTES | --duration S)
                    [--bind ADDR]
                    [--hint-socket PATH] [--linger S] [--cc NAME] [--timeout S]

Wire protocol: the client sends an 8-byte big-endian count N (0: send until I close), the
server sends N bytes and waits for the client to close. `get` prints one JSON line: bytes,
seconds (from before connect() to the last byte, so the MPTCP handshake counts, as in the
paper's completion times), Mbit/s, the token and the subflows alive at the end (pairs of
local and remote address). With --hint-socket it sends the path manager the transfer's size
(see pcdcd) right after connecting; --linger keeps the connection open after the last byte
so that a path manager's late decisions stay visible. Bad options: one line, exit 2.
"""

import argparse
import json
import signal
import socket
import struct
import sys
import threading
import time

from mpqoe import sockopt

CHUNK = 1 << 16
_COUNT = struct.Struct("!Q")


def mptcp_socket(cc=None):
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM, sockopt.IPPROTO_MPTCP)
    if cc:
        s.setsockopt(socket.IPPROTO_TCP, socket.TCP_CONGESTION, cc.encode())
    return s


def _serve_one(conn):
    with conn:
        try:
            conn.settimeout(300)
            head = b""
            while len(head) < _COUNT.size:
                got = conn.recv(_COUNT.size - len(head))
                if not got:
                    return
                head += got
            left = _COUNT.unpack(head)[0]
            buf = b"\0" * CHUNK
            endless = left == 0
            while endless or left > 0:
                n = conn.send(buf if endless or left >= CHUNK else buf[:left])
                left -= n
            while conn.recv(CHUNK):  # wait for the client to close
                pass
        except OSError:
            pass


def serve(port, bind="0.0.0.0", cc=None):
    s = mptcp_socket(cc)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    s.bind((bind, port))
    s.listen(64)
    print(f"transfer: serving on {bind}:{port}", flush=True)
    while True:
        conn, _ = s.accept()
        threading.Thread(target=_serve_one, args=(conn,), daemon=True).start()


def abort(s):
    """Closes an MPTCP socket at once (SO_LINGER 0: MP_FASTCLOSE / RST). A plain close() of a
    download the client stops early leaves the orphaned connection's subflows carrying data
    until net.mptcp.close_timeout (60 s), competing with the next transfer."""
    try:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    except OSError:
        pass
    s.close()


def send_hint(path, token, size):
    """Tells the path manager at path (a Unix datagram socket) the size of this connection's
    transfer: one datagram "TOKEN SIZE"."""
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as h:
        h.sendto(f"{token} {size}\n".encode(), path)


def live_pairs(fd):
    """[[local ip, remote ip]] of the subflows alive now (sorted)."""
    try:
        return sorted(
            [sf["local"].rsplit(":", 1)[0], sf["remote"].rsplit(":", 1)[0]]
            for sf in sockopt.subflows(fd)
            if sf.get("state") == 1  # TCP_ESTABLISHED
        )
    except OSError:
        return []


def get(addr, port, size=None, duration=None, bind=None, hint_socket=None, linger=0.0, cc=None,
        timeout=60.0):  # fmt: skip
    """Downloads size bytes (or for duration seconds); the result dict printed by `get`."""
    s = mptcp_socket(cc)
    try:
        s.settimeout(timeout)
        if bind:
            s.bind((bind, 0))
        t0 = time.monotonic()
        s.connect((addr, port))
        info = sockopt.mptcp_info(s.fileno())
        token = info.get("token")
        if hint_socket and size is not None:
            send_hint(hint_socket, token, size)
        s.sendall(_COUNT.pack(0 if size is None else size))
        got = 0
        end = None if duration is None else t0 + duration
        while size is None or got < size:
            if end is not None and time.monotonic() >= end:
                break
            data = s.recv(CHUNK)
            if not data:
                break
            got += len(data)
        t1 = time.monotonic()
        pairs_at_end = live_pairs(s.fileno())
        if linger > 0:
            time.sleep(linger)
        pairs_after = live_pairs(s.fileno())
        return {
            "bytes": got,
            "seconds": t1 - t0,
            "mbps": got * 8 / (t1 - t0) / 1e6,
            "complete": size is None or got >= size,
            "token": token,
            "fallback": sockopt.is_fallback(info),
            "subflows": pairs_at_end,
            "subflows_after_linger": pairs_after,
        }
    finally:
        abort(s)


def parse_args(argv):
    ap = argparse.ArgumentParser(prog="mpqoe.pcdc.transfer", description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    sv = sub.add_parser("serve", help="send what clients ask for")
    sv.add_argument("--port", type=int, required=True)
    sv.add_argument("--bind", default="0.0.0.0")
    sv.add_argument("--cc", help="congestion control (TCP_CONGESTION)")
    g = sub.add_parser("get", help="download and print one JSON line")
    g.add_argument("--connect", required=True, metavar="ADDR:PORT")
    what = g.add_mutually_exclusive_group(required=True)
    what.add_argument("--size", type=int, help="bytes to download")
    what.add_argument("--duration", type=float, help="seconds of endless download")
    g.add_argument("--bind", help="local address of the first subflow")
    g.add_argument("--hint-socket", help="tell this path manager socket the size")
    g.add_argument("--linger", type=float, default=0.0, help="seconds to stay connected after")
    g.add_argument("--cc", help="congestion control (TCP_CONGESTION)")
    g.add_argument("--timeout", type=float, default=60.0)
    a = ap.parse_args(argv)
    if a.cmd == "serve" and not 0 < a.port < 65536:
        ap.error("--port must be 1-65535")
    if a.cmd == "get":
        host, _, port = a.connect.rpartition(":")
        if not host or not port.isdigit() or not 0 < int(port) < 65536:
            ap.error(f"--connect {a.connect!r}: expected ADDR:PORT")
        a.host, a.port = host, int(port)
        if a.size is not None and a.size <= 0:
            ap.error("--size must be positive")
        if a.duration is not None and a.duration <= 0:
            ap.error("--duration must be positive")
        if a.linger < 0 or a.timeout <= 0:
            ap.error("--linger must be >= 0 and --timeout > 0")
    return a


def main(argv=None):
    a = parse_args(argv)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    try:
        if a.cmd == "serve":
            serve(a.port, a.bind, a.cc)
            return 0
        r = get(a.host, a.port, a.size, a.duration, a.bind, a.hint_socket, a.linger, a.cc,
                a.timeout)  # fmt: skip
    except OSError as e:
        print(f"mpqoe.pcdc.transfer: {e}", file=sys.stderr)
        return 1
    print(json.dumps(r), flush=True)
    return 0 if r["complete"] else 1


if __name__ == "__main__":
    sys.exit(main())
