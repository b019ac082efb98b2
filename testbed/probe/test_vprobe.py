"""Unit tests of vprobe: player, frame stream, scheduler counters, CLI (no root needed).

The /proc and netstat parsers and the sockaddr decoding are mpqoe_lib's, tested in
mininet-scripts/tests/test_lib.py.

The last class runs server and client as real processes over MPTCP on 127.0.0.1 (one subflow,
no namespaces): the failure paths (TCP fallback, nothing listening). The two-path runs are in
test_loopback.py (root, network namespaces).
"""

import json
import os
import random
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
from vprobe_playout import Player, playout  # noqa: E402

VPROBE = os.path.join(HERE, "vprobe.py")

# fps 10 keeps the arithmetic readable: startup buffer 1.0 s = 10 frames, P = C_9 when frames
# arrive on time, D_i = 0.9 + i/10 + stall; rebuffer 0.5 s = 5 frames.
FPS = 10
KW = {"startup_buffer": 1.0, "rebuffer": 0.5}


def on_time(n):
    return [i / FPS for i in range(n)]


def play(completions, firsts=None, fps=FPS, **kw):
    """playout() of frames that arrive in one piece unless firsts says otherwise."""
    firsts = list(completions) if firsts is None else firsts
    return playout(firsts, completions, fps, **{**KW, **kw})


class PlayoutTest(unittest.TestCase):
    """The model on hand-made arrival sequences (first and last byte of each frame). The
    comments say what the former model (the first `underflow_after` of every starvation
    counted as discards, 0.1 s by default) gave where it differs."""

    def check_total(self, r, n):
        self.assertEqual(r["displayed"] + r["picture_discards"], n)

    def check_underflows(self, r, starts, durations):
        self.assertEqual(len(r["underflow_starts_s"]), len(starts), r)
        for got, want in zip(r["underflow_starts_s"], starts, strict=True):
            self.assertAlmostEqual(got, want)
        for got, want in zip(r["underflow_durations_s"], durations, strict=True):
            self.assertAlmostEqual(got, want)

    def test_all_on_time(self):
        r = play(on_time(50))
        self.assertAlmostEqual(r["startup_s"], 0.9)
        self.assertEqual((r["displayed"], r["picture_discards"]), (50, 0))
        self.check_underflows(r, [], [])
        self.assertAlmostEqual(r["played_until_s"], 0.9 + 4.9)

    def test_startup_waits_for_the_slowest_of_the_first_frames(self):
        c = on_time(30)
        c[3] = 1.7  # frames arrive in order over TCP, but the model must not assume it
        r = play(c)
        self.assertAlmostEqual(r["startup_s"], 1.7)
        self.assertEqual(r["picture_discards"], 0)
        self.check_underflows(r, [], [])

    def test_slow_startup_is_neither_discard_nor_underflow(self):
        # the first ten frames take 2.7 s: the clock has not started, nothing is late
        c = [0.3 * i for i in range(10)] + [2.7 + 0.05 * (i - 9) for i in range(10, 40)]
        r = play(c)
        self.assertAlmostEqual(r["startup_s"], 2.7)
        self.assertEqual((r["displayed"], r["picture_discards"]), (40, 0))
        self.check_underflows(r, [], [])

    def test_a_gap_without_bytes_is_one_underflow_not_discards(self):
        # frame 20 is due at 2.9; nothing arrives until 3.1, then the rest in a burst
        c = on_time(20) + [3.1 + 0.01 * k for k in range(30)]
        r = play(c)
        # buffer empty at 2.9: one underflow until frames 20..24 are complete (3.14); frame
        # 20 is then shown. (Former model: frame 20 discarded, underflow from 3.0.)
        self.assertEqual((r["displayed"], r["picture_discards"]), (50, 0))
        self.check_underflows(r, [2.9], [0.24])
        self.assertAlmostEqual(r["played_until_s"], 0.9 + 4.9 + 0.24)

    def test_a_02s_gap_at_30fps_with_the_default_parameters(self):
        # 30 fps, startup 1 s (P = C_29 = 29/30), rebuffer 0.5 s (15 frames): frame 60 is due
        # at P + 2; its bytes come 0.2 s late, the rest 1 ms apart
        p = 29 / 30
        c = [i / 30 for i in range(60)] + [p + 2.2 + 0.001 * k for k in range(60)]
        r = playout(c, c, 30)
        # one underflow from P + 2 until C_74 = P + 2.214, no discard. (Former model: frames
        # 60, 61, 62 discarded, then an underflow from frame 63: 3 discards per underflow.)
        self.assertEqual((r["displayed"], r["picture_discards"]), (120, 0))
        self.check_underflows(r, [p + 2.0], [0.214])

    def test_a_frame_incomplete_at_its_deadline_is_one_discard(self):
        c = on_time(50)
        f = list(c)
        f[20], c[20] = 2.85, 2.95  # due at 2.9: part of it is there, the rest 50 ms late
        f[21] = c[21] = 2.96  # due at 3.0
        r = play(c, f)
        self.assertEqual((r["displayed"], r["picture_discards"]), (49, 1))
        self.check_underflows(r, [], [])
        self.assertAlmostEqual(r["played_until_s"], 0.9 + 4.9)

    def test_a_discard_then_an_underflow(self):
        # frame 20 trickles in from 2.5 to 3.3 (due 2.9); frames 21.. come after it
        c = on_time(20) + [3.3 + 0.01 * k for k in range(30)]
        f = list(c)
        f[20] = 2.5
        r = play(c, f)
        # 20: discarded at 2.9 (the clock runs on); 21 due 3.0, no byte of it: underflow
        # until frames 21..25 are complete (3.35). (Former model with underflow_after 0.3:
        # frames 20, 21, 22 discarded, underflow from 3.2 to 3.37.)
        self.assertEqual((r["displayed"], r["picture_discards"]), (49, 1))
        self.check_underflows(r, [3.0], [0.35])
        self.assertAlmostEqual(r["played_until_s"], 0.9 + 4.9 + 0.35)

    def test_two_gaps_two_underflows_and_the_clock_shifts(self):
        c = on_time(60)
        for i in range(20, 60):
            c[i] = 4.0 + (i - 20) / FPS  # first gap: 0.4 s ahead of the clock after resuming
        for i in range(45, 60):
            c[i] += 2.0  # second gap
        r = play(c)
        # first: frame 20 due 2.9, resume at C_24 = 4.4; second: stall 1.5, frame 45 due
        # 0.9 + 4.5 + 1.5 = 6.9, resume at C_49 = 8.9
        self.assertEqual((r["displayed"], r["picture_discards"]), (60, 0))
        self.check_underflows(r, [2.9, 6.9], [1.5, 2.0])
        self.assertAlmostEqual(r["played_until_s"], 0.9 + 5.9 + 3.5)

    def test_rebuffer_zero_resumes_with_the_missing_frame(self):
        c = on_time(20) + [3.1 + 0.01 * k for k in range(30)]
        r = play(c, rebuffer=0.0)
        self.check_underflows(r, [2.9], [0.2])

    def test_a_missing_frame_in_the_middle_is_one_discard(self):
        c = on_time(50)
        c[15] = None  # later frames are there: the buffer is not empty
        r = play(c)
        self.assertEqual((r["displayed"], r["picture_discards"]), (49, 1))
        self.check_underflows(r, [], [])

    def test_frames_never_received_at_the_end_are_discards(self):
        c = on_time(40) + [None] * 10
        r = play(c, end=3.95)
        self.assertEqual((r["displayed"], r["picture_discards"]), (40, 10))
        self.check_underflows(r, [], [])

    def test_stream_ending_during_an_underflow(self):
        c = on_time(20) + [4.0] * 4 + [None] * 26
        r = play(c, end=4.5)
        # frame 20 due 2.9: underflow; frame 24 never comes, so playback resumes when the
        # stream ended (4.5); 20-23 are shown, the rest (due from 4.9 on) discarded.
        # (Former model: 20-22 discarded, underflow from 3.2.)
        self.assertEqual((r["displayed"], r["picture_discards"]), (24, 26))
        self.check_underflows(r, [2.9], [1.6])

    def test_stream_ending_inside_a_frame(self):
        c = on_time(30) + [None] * 20
        f = on_time(30) + [2.95] + [None] * 19
        r = play(c, f, end=5.0)
        # 30 (due 3.9) partly there: discard; 31 (due 4.0) nothing, stream still on:
        # underflow until it ended (5.0), 31 never came: discard; the rest due after the end
        self.assertEqual((r["displayed"], r["picture_discards"]), (30, 20))
        self.check_underflows(r, [4.0], [1.0])

    def test_nothing_received(self):
        r = play([None] * 5)
        self.assertEqual((r["startup_s"], r["displayed"], r["picture_discards"]), (None, 0, 5))
        self.check_underflows(r, [], [])
        r = play([])
        self.assertEqual((r["startup_s"], r["picture_discards"]), (None, 0))

    def test_stream_shorter_than_the_startup_buffer(self):
        r = play(on_time(4))
        self.assertAlmostEqual(r["startup_s"], 0.3)
        self.assertEqual(r["displayed"], 4)

    def test_bad_parameters(self):
        with self.assertRaises(ValueError):
            play(on_time(5), fps=0)
        with self.assertRaises(ValueError):
            play(on_time(5), startup_buffer=-1)
        with self.assertRaises(ValueError):
            play([1.0], [1.5])  # first byte after the last
        with self.assertRaises(ValueError):
            play([1.0, 2.0], [1.0])


def random_arrivals(rng, n, fps):
    """An in-order stream with slow stretches and gaps: (firsts, completions)."""
    firsts, completions = [], []
    t = 0.0
    for _ in range(n):
        t += rng.choice((0.0, 0.0, 0.0, 0.2, 0.6, 1.5)) * rng.random() / fps * 10
        f = t
        t += rng.random() * rng.choice((0.3, 1.0, 3.0)) / fps
        firsts.append(f)
        completions.append(t)
    return firsts, completions


class OnlinePlayerTest(unittest.TestCase):
    """The client feeds the Player while reading; playout() replays the record. Same figures
    whenever advance(t) comes after every arrival up to t."""

    def test_advancing_between_arrivals_changes_nothing(self):
        rng = random.Random(7)
        for trial in range(200):
            firsts, completions = random_arrivals(rng, 60, FPS)
            if trial % 5 == 0:  # some streams end early
                cut = rng.randrange(60)
                firsts[cut + 1 :] = [None] * (59 - cut)
                completions[cut:] = [None] * (60 - cut)
            events = sorted(
                [(f, 0, i) for i, f in enumerate(firsts) if f is not None]
                + [(c, 1, i) for i, c in enumerate(completions) if c is not None]
            )
            end = events[-1][0] + rng.random()
            player = Player(60, FPS, **KW)
            for k, (t, kind, i) in enumerate(events):
                (player.complete if kind else player.first_byte)(i, t)
                later = events[k + 1][0] if k + 1 < len(events) else end
                player.advance(t + rng.random() * (later - t))
            player.end(end)
            online = player.finish()
            with self.subTest(trial=trial):
                self.assertEqual(online, playout(firsts, completions, FPS, **KW, end=end))
                at_once = Player(60, FPS, **KW)
                for t, kind, i in events:
                    (at_once.complete if kind else at_once.first_byte)(i, t)
                at_once.end(end)
                self.assertEqual(online, at_once.finish())


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
            self.assertEqual(r.started, 4)

    def test_a_frame_counts_as_started_at_its_first_header_byte(self):
        data = self.stream()
        hello = len(wire.control_frame(wire.HELLO_INDEX, {"fps": 30, "frames": 2}))
        r = wire.FrameReader()
        self.assertEqual(len(list(r.feed(data[:hello]))), 1)
        self.assertEqual(r.started, 1)
        self.assertEqual(list(r.feed(data[hello : hello + 1])), [])  # 1 byte of frame 0
        self.assertEqual(r.started, 2)
        self.assertEqual(len(list(r.feed(data[hello + 1 : hello + 100]))), 1)
        self.assertEqual(r.started, 2)  # frame 0 complete, frame 1 not begun
        self.assertEqual(list(r.feed(data[hello + 100 : hello + 101])), [])
        self.assertEqual(r.started, 3)

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
            wire.parse_control(b'{"schema": "mpqoe-vprobe/1", "fps": 30, "frames": 3}', 0xFFFFFFFE)
        with self.assertRaises(wire.ProtocolError):
            wire.parse_control(b'{"schema": "mpqoe-vprobe/2", "fps": 0}', wire.HELLO_INDEX)


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
                ["client", "--connect", "h:1", "--underflow-after", "0.1", "--out", out],
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
