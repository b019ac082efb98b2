#!/usr/bin/env python3
"""A small MPTCP bulk transfer: one side sends N bytes, the other counts them; both print JSON.

    mptcp_bulk.py server [--bind 0.0.0.0] [--port 5001] [--count 1] [--tcp]
    mptcp_bulk.py client --connect IP [--port 5001] --bytes N [--direction down|up] [--tcp]

Protocol: the client sends 'D' or 'U' and N (network order, 9 bytes). The sender (the server
for `down`, the default, like a video download; the client for `up`) writes N bytes; the
receiver reads exactly N, takes its statistics, and answers with the count it read (8 bytes);
the sender takes its own statistics when the answer arrives, so that every byte is acked.

Each side prints one JSON object per transfer: role, peer, direction, bytes, duration_s, mbps,
and `mptcp` (null for plain TCP): the connection's MPTCP_INFO (subflows, fallback, token, ...)
and one entry per live subflow (local and remote address, tcp_info bytes and RTT), read with
mpqoe.sockopt (Linux 5.16+ for per-subflow data). Standard library only. Exit code 0 when
the transfer completed, 1 otherwise.
"""

import argparse
import json
import socket
import struct
import sys
import threading
import time

from mpqoe import sockopt

HEADER = struct.Struct("!cQ")
COUNT = struct.Struct("!Q")
CHUNK = 256 * 1024
_INFO_KEYS = ("subflows", "add_addr_accepted", "subflows_max", "token")
_INFO_KEYS += ("bytes_sent", "bytes_received", "bytes_retrans")
_SUBFLOW_KEYS = ("local", "remote", "state", "rtt_us", "cwnd", "total_retrans")
_SUBFLOW_KEYS += ("bytes_acked", "bytes_received", "bytes_sent")


def mptcp_stats(sock):
    """MPTCP_INFO and per-subflow data of a connected socket, or None for plain TCP."""
    try:
        raw = sockopt.mptcp_info(sock.fileno())
    except OSError:
        return None
    info = {k: raw.get(k, 0) for k in _INFO_KEYS}
    info["token"] = f"{info['token']:08x}"
    info["subflows_total"] = raw.get("subflows_total") or None
    info["fallback"] = sockopt.is_fallback(raw)
    try:
        subflows = sockopt.subflows(sock.fileno())
    except OSError:
        return info
    info["subflow_list"] = [{k: sf.get(k) for k in _SUBFLOW_KEYS} for sf in subflows]
    return info


def _recv_exact(sock, n):
    parts, got = [], 0
    while got < n:
        b = sock.recv(min(CHUNK, n - got))
        if not b:
            raise ConnectionError(f"peer closed after {got} of {n} bytes")
        parts.append(b)
        got += len(b)
    return b"".join(parts)


def _receive(sock, n):
    """Read exactly n bytes (discarding them); return the count."""
    got = 0
    while got < n:
        k = len(sock.recv(min(CHUNK, n - got)))
        if k == 0:
            break
        got += k
    return got


def _send(sock, n):
    block = memoryview(b"\xa5" * CHUNK)
    left = n
    while left > 0:
        sock.sendall(block[: min(CHUNK, left)])
        left -= min(CHUNK, left)


def _transfer(sock, role, direction, n, peer):
    """Run one transfer on a connected socket; return the JSON-able report."""
    sending = (direction == "down") == (role == "server")
    start = time.monotonic()
    if sending:
        _send(sock, n)
        counted = COUNT.unpack(_recv_exact(sock, COUNT.size))[0]
        done = time.monotonic()
    else:
        counted = _receive(sock, n)
        done = time.monotonic()
    stats = mptcp_stats(sock)
    if not sending:
        sock.sendall(COUNT.pack(counted))
    duration = max(done - start, 1e-9)
    return {
        "role": role,
        "peer": peer,
        "direction": direction,
        "sender": sending,
        "bytes": counted,
        "requested": n,
        "duration_s": round(duration, 6),
        "mbps": round(counted * 8 / duration / 1e6, 3),
        "mptcp": stats,
    }


def _emit(report):
    print(json.dumps(report), flush=True)


def _serve_one(conn, addr):
    with conn:
        peer = f"{addr[0]}:{addr[1]}"
        try:
            kind, n = HEADER.unpack(_recv_exact(conn, HEADER.size))
            direction = "down" if kind == b"D" else "up"
            report = _transfer(conn, "server", direction, n, peer)
        except (OSError, ConnectionError, struct.error) as e:
            report = {"role": "server", "peer": peer, "error": str(e)}
        _emit(report)


def server(args):
    proto = 0 if args.tcp else sockopt.IPPROTO_MPTCP
    srv = socket.socket(socket.AF_INET, socket.SOCK_STREAM, proto)
    srv.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    srv.bind((args.bind, args.port))
    srv.listen(64)
    print(json.dumps({"role": "server", "listening": f"{args.bind}:{args.port}"}), flush=True)
    threads = []
    served = 0
    while args.count == 0 or served < args.count:
        conn, addr = srv.accept()
        served += 1
        t = threading.Thread(target=_serve_one, args=(conn, addr), daemon=True)
        t.start()
        threads.append(t)
    for t in threads:
        t.join()
    srv.close()
    return 0


def client(args):
    proto = 0 if args.tcp else sockopt.IPPROTO_MPTCP
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM, proto)
    sock.settimeout(args.timeout)
    if args.bind:
        sock.bind((args.bind, 0))
    try:
        sock.connect((args.connect, args.port))
        sock.sendall(HEADER.pack(b"D" if args.direction == "down" else b"U", args.bytes))
        report = _transfer(
            sock, "client", args.direction, args.bytes, f"{args.connect}:{args.port}"
        )
    except (OSError, ConnectionError) as e:
        _emit({"role": "client", "peer": f"{args.connect}:{args.port}", "error": str(e)})
        return 1
    finally:
        sock.close()
    _emit(report)
    return 0 if report["bytes"] == args.bytes else 1


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = p.add_subparsers(dest="mode", required=True)
    s = sub.add_parser("server", help="accept transfers")
    s.add_argument("--bind", default="0.0.0.0")
    s.add_argument("--port", type=int, default=5001)
    s.add_argument("--count", type=int, default=1, help="connections to serve (0: forever)")
    s.add_argument("--tcp", action="store_true", help="plain TCP instead of MPTCP")
    c = sub.add_parser("client", help="run one transfer")
    c.add_argument("--connect", required=True, help="server IPv4 address")
    c.add_argument("--port", type=int, default=5001)
    c.add_argument("--bytes", type=int, default=1_000_000)
    c.add_argument("--direction", choices=("down", "up"), default="down")
    c.add_argument("--bind", help="local address of the initial subflow")
    c.add_argument("--timeout", type=float, default=60.0, help="socket timeout, seconds")
    c.add_argument("--tcp", action="store_true", help="plain TCP instead of MPTCP")
    args = p.parse_args(argv)
    return server(args) if args.mode == "server" else client(args)


if __name__ == "__main__":
    sys.exit(main())
