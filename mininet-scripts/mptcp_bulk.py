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
and one entry per live subflow (local and remote address, tcp_info bytes and RTT). Needs only
the standard library (socket.IPPROTO_MPTCP = 262, SOL_MPTCP = 284; Linux 5.16+ for per-subflow
data). Exit code 0 when the transfer completed, 1 otherwise.
"""

import argparse
import ctypes
import ipaddress
import json
import socket
import struct
import sys
import threading
import time

IPPROTO_MPTCP = getattr(socket, "IPPROTO_MPTCP", 262)
SOL_MPTCP = 284
MPTCP_INFO = 1
MPTCP_TCPINFO = 2
MPTCP_SUBFLOW_ADDRS = 3
HEADER = struct.Struct("!cQ")
COUNT = struct.Struct("!Q")
CHUNK = 256 * 1024
_TCPINFO_SIZE = 248
_ADDRS_SIZE = 256  # two __kernel_sockaddr_storage
_libc = ctypes.CDLL(None, use_errno=True)


def _subflow_data(sock, opt, elem_size, max_subflows=16):
    """Elements of an MPTCP_TCPINFO / MPTCP_SUBFLOW_ADDRS answer (struct mptcp_subflow_data)."""
    head = 16
    buf = ctypes.create_string_buffer(head + elem_size * max_subflows)
    struct.pack_into("=IIII", buf, 0, head, 0, 0, elem_size)
    length = ctypes.c_uint32(len(buf))
    if _libc.getsockopt(sock.fileno(), SOL_MPTCP, opt, buf, ctypes.byref(length)) != 0:
        return None
    size_head, num, _size_kernel, size_user = struct.unpack_from("=IIII", buf, 0)
    count = min(num, max_subflows)
    return [
        buf.raw[size_head + i * size_user : size_head + (i + 1) * size_user] for i in range(count)
    ]


def _sockaddr(raw):
    family = struct.unpack_from("=H", raw, 0)[0]
    port = struct.unpack_from("!H", raw, 2)[0]
    if family == socket.AF_INET:
        return f"{ipaddress.IPv4Address(raw[4:8])}:{port}"
    if family == socket.AF_INET6:
        return f"[{ipaddress.IPv6Address(raw[8:24])}]:{port}"
    return None


def _tcp_info(raw):
    def u32(off):
        return struct.unpack_from("=I", raw, off)[0] if len(raw) >= off + 4 else None

    def u64(off):
        return struct.unpack_from("=Q", raw, off)[0] if len(raw) >= off + 8 else None

    return {
        "state": raw[0],
        "rtt_us": u32(68),
        "cwnd": u32(80),
        "total_retrans": u32(100),
        "bytes_acked": u64(120),
        "bytes_received": u64(128),
        "bytes_sent": u64(200),
    }


def mptcp_stats(sock):
    """MPTCP_INFO and per-subflow data of a connected socket, or None for plain TCP."""
    try:
        raw = sock.getsockopt(SOL_MPTCP, MPTCP_INFO, 96)
    except OSError:
        return None
    raw = raw.ljust(96, b"\0")
    flags, token = struct.unpack_from("=II", raw, 8)
    info = {
        "subflows": raw[0],  # joined subflows (not counting the initial one)
        "subflows_total": raw[80] or None,  # all live subflows (Linux 6.10+)
        "add_addr_accepted": raw[2],
        "subflows_max": raw[3],
        "fallback": bool(flags & 1),
        "token": f"{token:08x}",
        "bytes_sent": struct.unpack_from("=Q", raw, 56)[0],
        "bytes_received": struct.unpack_from("=Q", raw, 64)[0],
        "bytes_retrans": struct.unpack_from("=Q", raw, 48)[0],
    }
    addrs = _subflow_data(sock, MPTCP_SUBFLOW_ADDRS, _ADDRS_SIZE)
    tcpinfo = _subflow_data(sock, MPTCP_TCPINFO, _TCPINFO_SIZE)
    if addrs is not None and tcpinfo is not None and len(addrs) == len(tcpinfo):
        info["subflow_list"] = [
            {"local": _sockaddr(a[:128]), "remote": _sockaddr(a[128:]), **_tcp_info(t)}
            for a, t in zip(addrs, tcpinfo, strict=True)
        ]
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
    proto = 0 if args.tcp else IPPROTO_MPTCP
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
    proto = 0 if args.tcp else IPPROTO_MPTCP
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
