#!/usr/bin/python3
"""One client's forwarder: a browser's TCP connections in, MPTCP connections out.

    forwarder.py --listen-fd FD --server IP:PORT [--chunk BYTES] [--tcp] [--reconnects N]

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
A connection that the kernel made plain TCP during its handshake is closed before any byte
goes over it and made again, up to --reconnects times (default 2). After two unanswered
retransmissions of an MP_CAPABLE SYN, Linux 6.12 sends the next one without the option (a
defence against middleboxes that drop MPTCP options; a sysctl only from 6.14 on): 7 s after
the SYN with the exponential backoff the hosts are given (mpqoe.topo.enable_mptcp), 3 s with
the kernel's default linear SYN timeouts. Here nothing drops options: the SYN waits for the
controller's rules and the SYN/ACK behind queued video, which on a loaded machine can take
that long. The papers' kernels kept
MP_CAPABLE on every retransmission; a new connection gets MPTCP too, at the cost of one more
handshake, which the player sees as a slower connect (docs/video-experiments.md).

Prints one JSON line per closed connection on stdout: bytes each way, MPTCP or not, the
connections made again, and per HTTP response [first byte, last byte (Unix time), body bytes,
status] as it left here.
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
    p.add_argument(
        "--reconnects", type=int, default=2,
        help="make a connection that fell back to TCP in its handshake again, up to N times",
    )  # fmt: skip
    a = p.parse_args(argv)
    host, _, port = a.server.rpartition(":")
    if not host or not port.isdigit() or not 0 < int(port) < 65536:
        p.error(f"--server wants IP:PORT, got {a.server!r}")
    a.addr = (host, int(port))
    if not 1024 <= a.chunk <= 1 << 20:
        p.error("--chunk wants 1024..1048576")
    if not 0 <= a.reconnects <= 10:
        p.error("--reconnects wants 0..10")
    return a


def upstream(addr, tcp=False):
    """An MPTCP (or with tcp, a plain TCP) connection to addr."""
    proto = socket.IPPROTO_TCP if tcp else IPPROTO_MPTCP
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM, proto)
    s.setsockopt(SOL_TCP, socket.TCP_NODELAY, 1)
    s.connect(addr)
    return s


def is_mptcp(s):
    try:
        return bool(s.getsockopt(SOL_TCP, TCP_IS_MPTCP))
    except OSError:
        return False


def connect(args):
    """(upstream socket, MPTCP or not, connections made again): with MPTCP, a connection the
    kernel made plain TCP in its handshake is closed unused and made again, up to
    args.reconnects times; OSError when a connect fails."""
    s = upstream(args.addr, args.tcp)
    again = 0
    while not args.tcp and not is_mptcp(s) and again < args.reconnects:
        s.close()
        again += 1
        s = upstream(args.addr, args.tcp)
    return s, is_mptcp(s), again


class Responses:
    """Watches the server's side of one connection (HTTP/1.1 responses one after another, each
    with a Content-Length) and notes per response when its first and last bytes arrived from
    the MPTCP connection, after handing them on: the player's own timing of the same response
    shows what the bridge to the host adds (docs/video-experiments.md). It only observes: a
    stream it cannot follow makes it stop, never the copy."""

    def __init__(self):
        self.done, self.head, self.left, self.cur, self.lost = [], b"", 0, None, False
        self.first = None  # arrival of the first header byte of the response under way

    def feed(self, data, t):
        if self.lost:
            return
        try:
            self._feed(data, t)
        except Exception:  # noqa: BLE001 - an observer: whatever it trips on, the copy goes on
            self.lost = True

    def _feed(self, data, t):
        while data:
            if self.left == 0 and self.cur is None:
                self.head += data
                end = self.head.find(b"\r\n\r\n")
                if end < 0:
                    if len(self.head) > 16384:
                        raise ValueError("no end of headers")
                    if self.head and self.first is None:
                        self.first = t
                    return
                head, data = self.head[: end + 4], self.head[end + 4 :]
                self.head = b""
                length = 0
                for line in head.split(b"\r\n")[1:]:
                    name, _, value = line.partition(b":")
                    if name.strip().lower() == b"content-length":
                        length = int(value.strip())
                status = int(head.split(b" ", 2)[1])
                first = t if self.first is None else self.first
                self.cur = {"first": first, "last": t, "bytes": length, "status": status}
                self.first, self.left = None, length
                if length == 0:
                    self.done.append(self.cur)
                    self.cur = None
                continue
            n = min(len(data), self.left)
            self.left -= n
            self.cur["last"] = t
            data = data[n:]
            if self.left == 0:
                self.done.append(self.cur)
                self.cur = None


def pump(src, dst, chunk, counter, key, watch=None):
    """Copies src to dst until EOF or an error, then half-closes dst; watch.feed(data, time)
    after each piece is handed on."""
    try:
        while True:
            data = src.recv(chunk)
            if not data:
                break
            dst.sendall(data)
            counter[key] += len(data)
            if watch is not None:
                watch.feed(data, time.time())
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
    record = {"start": t0, "error": None, "mptcp": None, "reconnects": 0}
    try:
        browser.setsockopt(SOL_TCP, socket.TCP_NODELAY, 1)
        server, record["mptcp"], record["reconnects"] = connect(args)
    except OSError as e:
        record["error"] = f"connect {args.addr[0]}:{args.addr[1]}: {e}"
        browser.close()
    else:
        host, port = server.getsockname()[:2]
        record["local"] = f"{host}:{port}"
        up = threading.Thread(target=pump, args=(browser, server, args.chunk, counter, "up"))
        up.start()
        responses = Responses()
        pump(server, browser, args.chunk, counter, "down", responses)
        up.join()
        server.close()
        browser.close()
        record["responses"] = [
            [round(r["first"], 4), round(r["last"], 4), r["bytes"], r["status"]]
            for r in responses.done
        ]
        record["responses_lost"] = responses.lost
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
