"""The forwarder: its response watcher on hand-made streams, and a real copy over loopback."""

import contextlib
import io
import json
import os
import socket
import subprocess
import threading
import time
import unittest

import forwarder

HERE = os.path.dirname(os.path.abspath(__file__))


def response(body, status=200):
    head = f"HTTP/1.1 {status} OK\r\nContent-Type: x\r\nContent-Length: {len(body)}\r\n\r\n"
    return head.encode() + body


class Responses(unittest.TestCase):
    def test_two_responses_split_anywhere(self):
        stream = response(b"a" * 1000) + response(b"", 304) + response(b"b" * 10, 206)
        w = forwarder.Responses()
        # Headers are 58, 55 and 56 bytes: A is bytes 0-1057, B 1058-1112, C 1113-1178.
        # Pieces (arriving at times 1.0, 2.0, ...) cut headers and bodies: A's last byte is in
        # piece 4, B's header runs from piece 4 to 6, C lies in piece 6.
        cuts = [5, 40, 700, 1070, 1100, len(stream)]
        prev = 0
        for i, c in enumerate(cuts):
            w.feed(stream[prev:c], float(i + 1))
            prev = c
        self.assertFalse(w.lost)
        self.assertEqual(
            [(r["first"], r["last"], r["bytes"], r["status"]) for r in w.done],
            [(1.0, 4.0, 1000, 200), (4.0, 6.0, 0, 304), (6.0, 6.0, 10, 206)],
        )

    def test_a_stream_it_cannot_follow_only_stops_the_watcher(self):
        w = forwarder.Responses()
        w.feed(b"HTTP/1.1 abc OK\r\n\r\n", 1.0)
        self.assertTrue(w.lost)
        w2 = forwarder.Responses()
        w2.feed(b"garbage\r\n\r\n", 1.0)  # no status at all: an IndexError inside
        self.assertTrue(w2.lost)
        w.feed(response(b"x"), 2.0)
        self.assertEqual(w.done, [])


class Copy(unittest.TestCase):
    def test_relays_both_ways_and_reports_the_response(self):
        server = socket.create_server(("127.0.0.1", 0))
        body = os.urandom(200_000)

        def serve():
            c, _ = server.accept()
            with c:
                req = b""
                while b"\r\n\r\n" not in req:
                    req += c.recv(1000)
                c.sendall(response(body))

        threading.Thread(target=serve, daemon=True).start()
        listener = socket.create_server(("127.0.0.1", 0))
        self.addCleanup(server.close)
        self.addCleanup(listener.close)
        port = server.getsockname()[1]
        p = subprocess.Popen(
            ["/usr/bin/python3", os.path.join(HERE, "forwarder.py"), "--listen-fd",
             str(listener.fileno()), "--server", f"127.0.0.1:{port}", "--tcp"],
            pass_fds=[listener.fileno()], stdout=subprocess.PIPE, text=True,
        )  # fmt: skip
        try:
            with socket.create_connection(listener.getsockname(), timeout=10) as b:
                b.sendall(b"GET /x HTTP/1.1\r\nHost: h\r\n\r\n")
                got = b""
                while len(got) < len(response(body)):
                    part = b.recv(65536)
                    if not part:
                        break
                    got += part
            self.assertEqual(got, response(body))
            rec = json.loads(p.stdout.readline())
        finally:
            p.kill()
            p.wait()
        self.assertEqual(rec["bytes_down"], len(response(body)))
        self.assertEqual(len(rec["responses"]), 1)
        first, last, n, status = rec["responses"][0]
        self.assertEqual((n, status), (len(body), 200))
        self.assertLessEqual(first, last)
        self.assertLess(abs(last - time.time()), 60)


class Reconnect(unittest.TestCase):
    """A connection the kernel made plain TCP in its handshake is made again, unused, up to
    --reconnects times (on loopback, a plain TCP listener makes every MPTCP connect fall back;
    an MPTCP listener keeps it)."""

    def connects(self, server, reconnects):
        accepted = []

        def accept():
            while True:
                try:
                    c, _ = server.accept()
                except OSError:
                    return
                accepted.append(c)

        threading.Thread(target=accept, daemon=True).start()
        args = forwarder.parse_args(
            ["--listen-fd", "0", "--server", f"127.0.0.1:{server.getsockname()[1]}",
             "--reconnects", str(reconnects)]
        )  # fmt: skip
        s, mptcp, again = forwarder.connect(args)
        s.close()
        time.sleep(0.2)
        return mptcp, again, len(accepted)

    def listener(self, proto):
        try:
            server = socket.socket(socket.AF_INET, socket.SOCK_STREAM, proto)
        except OSError as e:
            self.skipTest(f"no MPTCP sockets on this kernel: {e}")
        self.addCleanup(server.close)
        server.bind(("127.0.0.1", 0))
        server.listen(8)
        return server

    def test_a_fallback_is_made_again_up_to_the_limit(self):
        self.listener(forwarder.IPPROTO_MPTCP).close()  # skips where MPTCP is missing
        self.assertEqual(self.connects(self.listener(socket.IPPROTO_TCP), 2), (False, 2, 3))
        self.assertEqual(self.connects(self.listener(socket.IPPROTO_TCP), 0), (False, 0, 1))

    def test_an_mptcp_connection_is_kept(self):
        server = self.listener(forwarder.IPPROTO_MPTCP)
        self.assertEqual(self.connects(server, 2), (True, 0, 1))

    def test_bad_limits_are_refused(self):
        for bad in ("-1", "11", "x"):
            with self.subTest(bad=bad), self.assertRaises(SystemExit):
                with contextlib.redirect_stderr(io.StringIO()):
                    forwarder.parse_args(
                        ["--listen-fd", "0", "--server", "127.0.0.1:1", "--reconnects", bad]
                    )


if __name__ == "__main__":
    unittest.main()
