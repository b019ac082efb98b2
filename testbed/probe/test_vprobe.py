"""Unit tests of vprobe: playout model, frame stream, scheduler counters, CLI (no root needed).

The /proc and netstat parsers and the sockaddr decoding are mpqoe_lib's, tested in
mininet-scripts/tests/test_lib.py.

The last class runs server and client as real processes over MPTCP on 127.0.0.1 (one subflow,
no namespaces): the failure paths (TCP fallback, nothing listening). The two-path runs are in
test_loopback.py (root, network namespaces).
"""

import json
import os
import socket
import subprocess
import sys
import tempfile
import time
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
LIB = os.path.join(os.path.dirname(os.path.dirname(HERE)), "mininet-scripts")
sys.path.insert(0, LIB)
import vprobe_counters  # noqa: E402
import vprobe_wire as wire  # noqa: E402
from vprobe_counters import scheduler_counters as counters  # noqa: E402
from vprobe_playout import playout  # noqa: E402

VPROBE = os.path.join(HERE, "vprobe.py")

# fps 10 keeps the arithmetic readable: startup buffer 1.0 s = 10 frames, P = C_9,
# underflow after 0.3 s = the 4th frame of a starvation, rebuffer 0.5 s = 5 frames.
FPS = 10
KW = {"startup_buffer": 1.0, "underflow_after": 0.3, "rebuffer": 0.5}


def on_time(n):
    return [i / FPS for i in range(n)]


class PlayoutTest(unittest.TestCase):
    def check_total(self, r, n):
        self.assertEqual(r["displayed"] + r["picture_discards"], n)

    def test_all_on_time(self):
        r = playout(on_time(50), FPS, **KW)
        self.assertAlmostEqual(r["startup_s"], 0.9)
        self.assertEqual((r["displayed"], r["picture_discards"]), (50, 0))
        self.assertEqual(r["underflow_durations_s"], [])
        self.assertAlmostEqual(r["played_until_s"], 0.9 + 4.9)

    def test_startup_waits_for_the_slowest_of_the_first_frames(self):
        c = on_time(30)
        c[3] = 1.7  # frames arrive in order over TCP, but the model must not assume it
        r = playout(c, FPS, **KW)
        self.assertAlmostEqual(r["startup_s"], 1.7)
        self.assertEqual(r["picture_discards"], 0)

    def test_short_hiccup_gives_discards_but_no_underflow(self):
        c = on_time(50)
        # frame 20 is due at 0.9 + 2.0 = 2.9, frame 21 at 3.0, frame 22 at 3.1
        c[20] = c[21] = c[22] = 3.05
        r = playout(c, FPS, **KW)
        self.assertEqual(r["picture_discards"], 2)
        self.assertEqual(r["underflow_durations_s"], [])
        self.check_total(r, 50)

    def test_long_gap_gives_one_underflow_of_the_right_duration(self):
        c = on_time(50)
        for i in range(20, 50):
            c[i] = 5.0 + (i - 20) * 0.01  # nothing from 2.0 s to 5.0 s, then a burst
        r = playout(c, FPS, **KW)
        # starving from 2.9: frames 20, 21, 22 discarded; frame 23 (due 3.2) starts the
        # underflow; playback resumes when frames 23..27 are complete (C_27 = 5.07)
        self.assertEqual(r["picture_discards"], 3)
        self.assertEqual(len(r["underflow_durations_s"]), 1)
        self.assertAlmostEqual(r["underflow_durations_s"][0], 5.07 - 3.2)
        self.assertAlmostEqual(r["played_until_s"], 0.9 + 4.9 + 1.87)
        self.check_total(r, 50)

    def test_two_gaps_two_underflows_and_the_clock_shifts(self):
        c = on_time(60)
        for i in range(20, 60):
            c[i] = 4.0 + (i - 20) / FPS  # first gap: on time again after resuming
        for i in range(45, 60):
            c[i] += 2.0  # second gap
        r = playout(c, FPS, **KW)
        self.assertEqual(len(r["underflow_durations_s"]), 2)
        # first: frame 23 due 3.2, resume at C_27 = 4.7
        self.assertAlmostEqual(r["underflow_durations_s"][0], 1.5)
        # second: stall 1.5, frame 45 due 0.9+4.5+1.5 = 6.9, starving; frame 48 due 7.2
        # starts it; frames 48..52 complete at 4.0+3.2+2.0 = 9.2
        self.assertAlmostEqual(r["underflow_durations_s"][1], 9.2 - 7.2)
        self.assertEqual(r["picture_discards"], 6)
        self.check_total(r, 60)

    def test_zero_underflow_after_means_no_discards(self):
        c = on_time(50)
        for i in range(20, 50):
            c[i] = 5.0 + (i - 20) * 0.01
        r = playout(c, FPS, startup_buffer=1.0, underflow_after=0.0, rebuffer=0.5)
        self.assertEqual(r["picture_discards"], 0)
        self.assertAlmostEqual(r["underflow_durations_s"][0], 5.04 - 2.9)

    def test_frames_never_received_at_the_end_are_discards(self):
        c = on_time(40) + [None] * 10
        r = playout(c, FPS, **KW, end=3.95)
        self.assertEqual(r["picture_discards"], 10)
        self.assertEqual(r["underflow_durations_s"], [])
        self.assertEqual(r["displayed"], 40)

    def test_a_missing_frame_in_the_middle_is_one_discard(self):
        c = on_time(50)
        c[15] = None
        r = playout(c, FPS, **KW)
        self.assertEqual((r["picture_discards"], r["underflow_durations_s"]), (1, []))

    def test_stream_ending_during_an_underflow(self):
        c = on_time(20) + [4.0] * 4 + [None] * 26
        r = playout(c, FPS, **KW, end=4.5)
        # frames 20-22 discarded, frame 23 (due 3.2) starts the underflow; frames 24-27 never
        # come, so playback resumes when the stream ended (4.5); the rest are discards
        self.assertEqual(len(r["underflow_durations_s"]), 1)
        self.assertAlmostEqual(r["underflow_durations_s"][0], 4.5 - 3.2)
        self.assertEqual(r["displayed"], 21)
        self.assertEqual(r["picture_discards"], 29)

    def test_nothing_received(self):
        r = playout([None] * 5, FPS, **KW)
        self.assertEqual((r["startup_s"], r["displayed"], r["picture_discards"]), (None, 0, 5))
        r = playout([], FPS, **KW)
        self.assertEqual((r["startup_s"], r["picture_discards"]), (None, 0))

    def test_stream_shorter_than_the_startup_buffer(self):
        r = playout(on_time(4), FPS, **KW)
        self.assertAlmostEqual(r["startup_s"], 0.3)
        self.assertEqual(r["displayed"], 4)

    def test_bad_parameters(self):
        with self.assertRaises(ValueError):
            playout(on_time(5), 0, **KW)
        with self.assertRaises(ValueError):
            playout(on_time(5), FPS, startup_buffer=-1)


class FrameTest(unittest.TestCase):
    def test_frame_sizes_sum_to_the_bitrate(self):
        sizes = wire.frame_sizes(5.24e6, 30, 300)
        self.assertEqual(sum(sizes), int(5.24e6 / 8 * 10))
        self.assertEqual(set(sizes), {21833, 21834})

    def stream(self):
        out = wire.control_frame(wire.HELLO_INDEX, {"fps": 30, "frames": 2})
        for i, size in enumerate((100, 57)):
            out += wire.HEADER.pack(wire.MAGIC, i, size - 24, 123 + i, 0) + bytes(size - 24)
        return out + wire.control_frame(wire.TRAILER_INDEX, {"x": 1})

    def test_reader_byte_by_byte_and_in_one_piece(self):
        data = self.stream()
        for chunk in (1, 7, len(data)):
            r = wire.FrameReader()
            got = []
            for k in range(0, len(data), chunk):
                got += list(r.feed(memoryview(data[k : k + chunk])))
            self.assertEqual([g[0] for g in got], [wire.HELLO_INDEX, 0, 1, wire.TRAILER_INDEX])
            self.assertEqual(json.loads(got[0][1]), {"fps": 30, "frames": 2})
            self.assertEqual([g[1:] for g in got[1:3]], [(None, 123, 100), (None, 124, 57)])
            self.assertEqual(json.loads(got[3][1]), {"x": 1})
            self.assertEqual(r.stream_bytes, len(data))

    def test_bad_magic(self):
        with self.assertRaises(wire.ProtocolError):
            list(wire.FrameReader().feed(b"HTTP/1.1 200 OK\r\n\r\nhello world"))

    def test_control_frame_validation(self):
        with self.assertRaises(wire.ProtocolError):
            wire.parse_control(b"{not json", wire.TRAILER_INDEX)
        with self.assertRaises(wire.ProtocolError):
            wire.parse_control(b"[1]", wire.TRAILER_INDEX)
        with self.assertRaises(wire.ProtocolError):
            wire.parse_control(b'{"schema": "other/1", "fps": 30, "frames": 3}', wire.HELLO_INDEX)
        with self.assertRaises(wire.ProtocolError):
            wire.parse_control(b'{"schema": "mpqoe-vprobe/1", "fps": 0}', wire.HELLO_INDEX)


# The scheduler file of mininet-scripts/tests (closed and live line of one address pair, a third)
with open(os.path.join(LIB, "tests", "data", "mpqoe_gr_sty.txt")) as _f:
    PROC = _f.read()


class CounterParsingTest(unittest.TestCase):
    def test_matches_the_live_connection_of_that_address_pair(self):
        s, reason = counters(PROC, "gr_sty", "10.0.1.2:5000", "10.0.1.1:39334")
        self.assertIsNone(reason)
        self.assertEqual((s["name"], s["switches"], s["decisions"]), ("gr_sty", 19, 338))
        self.assertEqual((s["injections"], s["reinjections"], s["state"]), (158, 2, "live"))
        self.assertTrue(s["raw"].startswith("conn=3 "))
        s, _ = counters(PROC, "gr_sty", "[::ffff:10.0.1.2]:5001", "10.0.1.1:40000")
        self.assertEqual(s["decisions"], 1)

    def test_no_match_and_malformed_give_a_reason(self):
        s, reason = counters(PROC, "gr_sty", "10.0.1.2:5000", "10.9.9.9:1")
        self.assertIsNone(s)
        self.assertIn("no line for local=10.0.1.2:5000", reason)
        # (every malformed shape is in mininet-scripts/tests/test_lib.py)
        for bad in (PROC.replace("switches=19", "switches19"), ""):
            s, reason = counters(bad, "gr_sty", "10.0.1.2:5000", "10.0.1.1:39334")
            self.assertIsNone(s)
            self.assertIn("malformed", reason)

    def test_missing_proc_file_on_this_kernel(self):
        name, s, reason = vprobe_counters.read_scheduler("127.0.0.1:1", "127.0.0.1:2")
        if os.path.exists(f"/proc/net/mpqoe_{name}"):
            self.skipTest(f"an mpqoe module ({name}) is loaded here")
        self.assertIsNone(s)
        self.assertIn("missing", reason)


def run(*args, timeout=30):
    return subprocess.run(
        [sys.executable, VPROBE, *args], capture_output=True, text=True, timeout=timeout
    )


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class CliTest(unittest.TestCase):
    def test_bad_flags_exit_2_with_one_line_and_write_nothing(self):
        with tempfile.TemporaryDirectory() as d:
            out = os.path.join(d, "r.json")
            cases = (
                [],
                ["play"],
                ["server"],
                ["server", "--port", "0"],
                ["server", "--port", "5000", "--fps", "0"],
                ["server", "--port", "5000", "--bitrate", "fast"],
                ["server", "--port", "5000", "--bitrate", "1000"],
                ["server", "--port", "5000", "--duration", "-3"],
                ["server", "--port", "5000", "--duration", "nan"],
                ["client"],
                ["client", "--connect", "10.0.0.1", "--out", out],
                ["client", "--connect", "10.0.0.1:99999", "--out", out],
                ["client", "--connect", "h:1", "--startup-buffer", "-1", "--out", out],
                ["client", "--connect", "h:1", "--sample-interval", "0", "--out", out],
                ["client", "--connect", "h:1", "--bogus", "--out", out],
                ["client", "--connect", "h:1", "--out", os.path.join(d, "no", "r.json")],
            )
            for argv in cases:
                with self.subTest(argv=argv):
                    r = run(*argv)
                    self.assertEqual(r.returncode, 2)
                    self.assertEqual(r.stdout, "")
                    self.assertEqual(len(r.stderr.splitlines()), 1, r.stderr)
                    self.assertTrue(r.stderr.startswith("vprobe: error: "), r.stderr)
            self.assertEqual(os.listdir(d), [])


class LocalProcessTest(unittest.TestCase):
    """Real server and client over 127.0.0.1 (the host kernel's MPTCP, one subflow)."""

    def server(self, port, opts):
        return subprocess.Popen(
            [sys.executable, VPROBE, *f"server --port {port} --bind 127.0.0.1 {opts}".split()],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )

    def test_nothing_listening_is_a_runtime_failure_with_json(self):
        with tempfile.TemporaryDirectory() as d:
            out = os.path.join(d, "r.json")
            r = run(*f"client --connect 127.0.0.1:{free_port()} --timeout 0.5 --out {out}".split())
            self.assertEqual(r.returncode, 1, r.stderr)
            with open(out) as f:
                doc = json.load(f)
            self.assertFalse(doc["complete"])
            self.assertIn("cannot connect", doc["error"])
            self.assertEqual(os.listdir(d), ["r.json"])

    def test_tcp_server_makes_an_mptcp_client_fail_and_tcp_client_pass(self):
        for client_tcp in ("", "--tcp"):
            port = free_port()
            srv = self.server(port, "--tcp --duration 0.5 --timeout 10")
            try:
                r = run(*f"client --connect 127.0.0.1:{port} --timeout 10 {client_tcp}".split())
                doc = json.loads(r.stdout)
                if client_tcp:
                    self.assertEqual(r.returncode, 0, r.stderr)
                    self.assertTrue(doc["complete"])
                    self.assertEqual(doc["frames"]["received"], 15)
                    self.assertEqual(doc["server"]["mptcp"], False)
                else:
                    self.assertEqual(r.returncode, 1)
                    self.assertIn("fell back to plain TCP", doc["error"])
            finally:
                srv.wait(timeout=15)

    def test_sigterm_writes_a_partial_result(self):
        port = free_port()
        srv = self.server(port, "--duration 5 --timeout 10")
        with tempfile.TemporaryDirectory() as d:
            out = os.path.join(d, "r.json")
            argv = f"client --connect 127.0.0.1:{port} --out {out} --label cut".split()
            cli = subprocess.Popen([sys.executable, VPROBE, *argv], stderr=subprocess.PIPE)
            try:
                time.sleep(2.0)
                cli.terminate()
                _, err = cli.communicate(timeout=10)
            finally:
                srv.wait(timeout=15)
            self.assertEqual(srv.returncode, 1)  # it noticed that the client went away
            self.assertEqual(cli.returncode, 1, err)
            with open(out) as f:
                doc = json.load(f)
        self.assertFalse(doc["complete"])
        self.assertEqual(doc["error"], "interrupted by signal SIGTERM")
        self.assertEqual(doc["label"], "cut")
        self.assertEqual(doc["frames"]["expected"], 150)
        self.assertLess(doc["frames"]["received"], 150)
        self.assertGreater(doc["frames"]["received"], 30)
        self.assertIsNotNone(doc["startup_delay_s"])


if __name__ == "__main__":
    unittest.main()
