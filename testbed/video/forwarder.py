#!/usr/bin/python3
"""One client's forwarder: a browser's TCP connections in, MPTCP connections out.

    forwarder.py --listen-fd FD --server IP:PORT [--chunk BYTES] [--tcp]

The video experiments keep the real player (dash.js in Chromium on the host) while the
network is emulated in the testbed guest. guest_agent.py creates a listening TCP socket in
the guest's root namespace (reached from the host through QEMU's port forwarding) and starts
this program inside the client's Mininet host with that socket as FD. Every accepted
connection gets its own MPTCP connection to the server, made from the client host's
interfaces, so the controller sees the client's MPTCP handshakes at its first-hop switch and
the client's path manager adds its subflows.

Bytes are copied as they arrive, in reads of at most --chunk bytes (16 KiB), without any
buffer of its own: what the browser receives follows what the MPTCP connection delivers
(calibrated in docs/results/ga-paper.md). The receive buffer is the kernel's (autotuned up to
the client namespace's net.ipv4.tcp_rmem maximum, which guest_agent.py sets).
Prints one JSON line per closed connection (bytes each way, MPTCP or not) on stdout.
"""

import argparse
import json
import socket
import sys
import threading
import time

IPPROTO_MPTCP = 262
SOL_TCP = 6
TCP_IS_MPTCP = 43


def parse_args(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--listen-fd", type=int, required=True)
    p.add_argument("--server", required=True, help="IP:PORT of the video server")
    p.add_argument("--chunk", type=int, default=16384, help="largest read (default 16384)")
    p.add_argument("--tcp", action="store_true", help="plain TCP upstream (the TCP baseline)")
    a = p.parse_args(argv)
    host, _, port = a.server.rpartition(":")
    if not host or not port.isdigit() or not 0 < int(port) < 65536:
        p.error(f"--server wants IP:PORT, got {a.server!r}")
    a.addr = (host, int(port))
    if not 1024 <= a.chunk <= 1 << 20:
        p.error("--chunk wants 1024..1048576")
    return a


def upstream(addr, tcp=False):
    """An MPTCP (or with tcp, a plain TCP) connection to addr."""
    proto = socket.IPPROTO_TCP if tcp else IPPROTO_MPTCP
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM, proto)
    s.setsockopt(SOL_TCP, socket.TCP_NODELAY, 1)
    s.connect(addr)
    return s


def pump(src, dst, chunk, counter, key):
    """Copies src to dst until EOF or an error, then half-closes dst."""
    try:
        while True:
            data = src.recv(chunk)
            if not data:
                break
            dst.sendall(data)
            counter[key] += len(data)
    except OSError:
        pass
    finally:
        try:
            dst.shutdown(socket.SHUT_WR)
        except OSError:
            pass


def serve(browser, args, lock):
    t0 = time.time()
    counter = {"up": 0, "down": 0}
    record = {"start": t0, "error": None, "mptcp": None}
    try:
        browser.setsockopt(SOL_TCP, socket.TCP_NODELAY, 1)
        server = upstream(args.addr, args.tcp)
    except OSError as e:
        record["error"] = f"connect {args.addr[0]}:{args.addr[1]}: {e}"
        browser.close()
    else:
        try:
            record["mptcp"] = bool(server.getsockopt(SOL_TCP, TCP_IS_MPTCP))
        except OSError:
            record["mptcp"] = False
        host, port = server.getsockname()[:2]
        record["local"] = f"{host}:{port}"
        up = threading.Thread(target=pump, args=(browser, server, args.chunk, counter, "up"))
        up.start()
        pump(server, browser, args.chunk, counter, "down")
        up.join()
        server.close()
        browser.close()
    record.update(end=time.time(), bytes_up=counter["up"], bytes_down=counter["down"])
    with lock:
        print(json.dumps(record), flush=True)


def main(argv):
    args = parse_args(argv)
    listener = socket.socket(fileno=args.listen_fd)
    lock = threading.Lock()
    while True:
        conn, _ = listener.accept()
        threading.Thread(target=serve, args=(conn, args, lock), daemon=True).start()


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except KeyboardInterrupt:
        sys.exit(130)
