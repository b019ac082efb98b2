"""Unit tests of server/mptcp_server.py: range parsing, and a live server on loopback (MPTCP
listener; plain and MPTCP clients; MIME types, ranges, 404/416, path traversal, the request log)."""

import http.client
import json
import os
import socket
import tempfile
import threading
import time
import unittest
import unittest.mock

import mptcp_server as ms


class ParseRange(unittest.TestCase):
    def test_ranges(self):
        self.assertIsNone(ms.parse_range(None, 100))
        self.assertEqual(ms.parse_range("bytes=0-9", 100), (0, 9))
        self.assertEqual(ms.parse_range("bytes=90-", 100), (90, 99))
        self.assertEqual(ms.parse_range("bytes=90-200", 100), (90, 99))
        self.assertEqual(ms.parse_range("bytes=-10", 100), (90, 99))
        self.assertEqual(ms.parse_range("bytes=-1000", 100), (0, 99))
        self.assertEqual(ms.parse_range("bytes=100-", 100), "unsatisfiable")
        self.assertEqual(ms.parse_range("bytes=-0", 100), "unsatisfiable")
        self.assertIsNone(ms.parse_range("bytes=5-2", 100))
        self.assertIsNone(ms.parse_range("bytes=0-1,5-6", 100))
        self.assertIsNone(ms.parse_range("items=0-1", 100))
        self.assertIsNone(ms.parse_range("bytes=a-b", 100))


def mptcp_available():
    try:
        socket.socket(socket.AF_INET, socket.SOCK_STREAM, ms.IPPROTO_MPTCP).close()
        return True
    except OSError:
        return False


class LiveServer(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        root = os.path.join(cls.tmp.name, "content")
        os.makedirs(root)
        cls.body = bytes(range(256)) * 40  # 10240 bytes
        for name in ("seg-0-00001.m4s", "manifest.mpd", "x.bin"):
            with open(os.path.join(root, name), "wb") as f:
                f.write(cls.body)
        with open(os.path.join(cls.tmp.name, "secret"), "w") as f:
            f.write("no")
        cls.log = os.path.join(cls.tmp.name, "log.jsonl")
        cls.tcp_only = not mptcp_available()
        cls.srv = ms.MptcpHTTPServer(
            ("127.0.0.1", 0),
            [ms.parse_mount(f"/content={root}"), *ms.player_mounts()],
            ms.RequestLog(cls.log),
            tcp=cls.tcp_only,
        )
        cls.port = cls.srv.server_address[1]
        cls.thread = threading.Thread(target=cls.srv.serve_forever, daemon=True)
        cls.thread.start()

    @classmethod
    def tearDownClass(cls):
        cls.srv.shutdown()
        cls.srv.server_close()
        cls.tmp.cleanup()

    def get(self, path, headers=None, method="GET", mptcp=False):
        c = http.client.HTTPConnection("127.0.0.1", self.port, timeout=5)
        if mptcp:
            c.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM, ms.IPPROTO_MPTCP)
            c.sock.settimeout(5)
            c.sock.connect(("127.0.0.1", self.port))
        c.request(method, path, headers=headers or {})
        r = c.getresponse()
        body = r.read()
        c.close()
        return r, body

    def records(self, want):
        """The log's records, once `want` of them match (the server writes a record after the
        response's last byte, so it can lag the client a little)."""
        deadline = time.monotonic() + 5
        while True:
            with open(self.log) as f:
                recs = [json.loads(line) for line in f]
            if all(any(pred(x) for x in recs) for pred in want) or time.monotonic() > deadline:
                return recs
            time.sleep(0.02)

    def test_mime_types_and_whole_body(self):
        r, body = self.get("/content/seg-0-00001.m4s")
        self.assertEqual(r.status, 200)
        self.assertEqual(r.getheader("Content-Type"), "video/iso.segment")
        self.assertEqual(r.getheader("Accept-Ranges"), "bytes")
        self.assertEqual(body, self.body)
        r, _ = self.get("/content/manifest.mpd")
        self.assertEqual(r.getheader("Content-Type"), "application/dash+xml")
        r, _ = self.get("/content/x.bin")
        self.assertEqual(r.getheader("Content-Type"), "application/octet-stream")

    def test_range(self):
        r, body = self.get("/content/seg-0-00001.m4s", {"Range": "bytes=100-199"})
        self.assertEqual(r.status, 206)
        self.assertEqual(r.getheader("Content-Range"), f"bytes 100-199/{len(self.body)}")
        self.assertEqual(body, self.body[100:200])
        r, body = self.get("/content/seg-0-00001.m4s", {"Range": "bytes=99999-"})
        self.assertEqual(r.status, 416)
        self.assertEqual(r.getheader("Content-Range"), f"bytes */{len(self.body)}")

    def test_head(self):
        r, body = self.get("/content/seg-0-00001.m4s", method="HEAD")
        self.assertEqual(r.status, 200)
        self.assertEqual(r.getheader("Content-Length"), str(len(self.body)))
        self.assertEqual(body, b"")

    def test_every_player_profiles_dashjs(self):
        """--players: each profile's dash.js build at /dashjs/<profile>/, as JavaScript."""
        got = {}
        for name, p in ms.players()["players"].items():
            r, body = self.get(f"/dashjs/{name}/{p['script']}")
            self.assertEqual(r.status, 200, name)
            self.assertEqual(r.getheader("Content-Type"), "text/javascript; charset=utf-8")
            got[name] = body
        self.assertEqual(sorted(got), ["modern", "paper"])
        self.assertIn(b'"2.5.0"', got["paper"])
        self.assertNotEqual(got["paper"], got["modern"])

    def test_not_found_and_traversal(self):
        self.assertEqual(self.get("/content/nope.m4s")[0].status, 404)
        self.assertEqual(self.get("/other/seg-0-00001.m4s")[0].status, 404)
        self.assertEqual(self.get("/content/../secret")[0].status, 404)
        self.assertEqual(self.get("/content/%2e%2e/secret")[0].status, 404)

    @unittest.skipUnless(mptcp_available(), "kernel without MPTCP")
    def test_log_records_bytes_and_transport(self):
        self.get("/content/seg-0-00001.m4s", {"Range": "bytes=0-99"}, mptcp=True)
        self.get("/content/x.bin")
        recs = self.records(
            [lambda x: x["range"] == "bytes=0-99", lambda x: x["path"] == "/content/x.bin"]
        )
        ranged = [x for x in recs if x["range"] == "bytes=0-99"][-1]
        self.assertEqual((ranged["status"], ranged["bytes"], ranged["mptcp"]), (206, 100, True))
        plain = [x for x in recs if x["path"] == "/content/x.bin"][-1]
        self.assertEqual((plain["bytes"], plain["mptcp"]), (len(self.body), False))
        self.assertLessEqual(plain["start"], plain["end"])
        self.assertTrue(plain["client"].startswith("127.0.0.1:"))


class PlayerMounts(unittest.TestCase):
    def test_installed_profiles_only(self):
        """A profile whose build is absent is left out (its page then reports that dash.js did
        not load); the others are served."""
        with tempfile.TemporaryDirectory() as d:
            fake = {"default": "a", "players": {"a": {"build": d}, "b": {"build": d + "/absent"}}}
            with (
                unittest.mock.patch.object(ms, "players", return_value=fake),
                unittest.mock.patch.object(
                    ms, "player_build", side_effect=lambda n: fake["players"][n]["build"]
                ),
            ):
                self.assertEqual(ms.player_mounts(), [("/dashjs/a", os.path.realpath(d))])


class Usage(unittest.TestCase):
    def test_bad_flags_exit_2(self):
        for argv in (
            [],
            ["--mount", "content=/tmp"],
            ["--mount", "/c=/nonexistent"],
            ["--port", "x"],
        ):
            with self.subTest(argv=argv):
                self.assertEqual(ms.main(argv), 2)


if __name__ == "__main__":
    unittest.main()
