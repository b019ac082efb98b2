"""Unit tests of vprobe: player, pacing, frame stream, HTTP, scheduler counters, CLI (no root).

The /proc and netstat parsers and the sockaddr decoding are mpqoe's, tested in
mininet-scripts/tests/test_lib.py.

The last class runs server and client as real processes over MPTCP on 127.0.0.1 (one subflow,
no namespaces): a file-mode stream and the failure paths (TCP fallback, nothing listening, bad
HTTP on either side, SIGTERM). The two-path runs are in test_loopback.py (root, namespaces).
"""

import json
import math
import os
import random
import socket
import subprocess
import sys
import tempfile
import threading
import time
import unittest

import vprobe_counters
import vprobe_http as http
import vprobe_wire as wire
from vprobe_client import _Pacer
from vprobe_counters import scheduler_counters as counters
from vprobe_playout import Player, playout
from vprobe_server import _file_writes, _Lag

HERE = os.path.dirname(os.path.abspath(__file__))
LIB = os.path.join(os.path.dirname(os.path.dirname(HERE)), "mininet-scripts")

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


def simulate(packets, sizes, fps, limit=None, oversleep=0.0, chunk=4000):
    """Read a stream whose bytes reach the kernel as `packets` [(t, bytes)]: all at once on
    arrival (limit None), or paced as the client paces (Player.wants_data, wake at the next
    deadline, reads of up to `chunk` bytes). Returns (player result, max frames ahead,
    seconds paused)."""
    n = len(sizes)
    ends = [sum(sizes[: i + 1]) for i in range(n)]
    total = ends[-1]
    player = Player(n, fps, **KW)
    state = {"read": 0, "frame": 0}

    def read(upto, t):
        """Bytes up to offset `upto` read at t: the frames that start or end in them."""
        for i in range(state["frame"], n):
            if ends[i] - sizes[i] >= upto:
                break
            if ends[i] - sizes[i] >= state["read"]:
                player.first_byte(i, t)
            if ends[i] <= upto:
                player.complete(i, t)
                state["frame"] = i + 1
        state["read"] = upto

    in_kernel, k, t, ahead, paused = 0, 0, 0.0, 0, 0.0
    while state["read"] < total:
        while k < len(packets) and packets[k][0] <= t:
            in_kernel += packets[k][1]
            k += 1
        player.advance(t)
        if limit is None or player.wants_data(limit):
            if state["read"] < in_kernel:
                read(min(in_kernel, state["read"] + (chunk if limit else total)), t)
                ahead = max(ahead, player.ahead)
            else:
                t = packets[k][0]
        else:
            wake = player.next_deadline() + oversleep
            paused += wake - t
            t = wake
    player.end(t)
    return player.finish(), ahead, paused


class PacingTest(unittest.TestCase):
    """The file-mode reader never makes a frame late by itself: for the same arrivals in the
    kernel, reading paced by the player gives the figures of reading everything at once."""

    def packets(self, rng, total, rate):
        """Packets of 1000 B at about `rate` B/s, jittered, with stalls of up to 3 s (the
        network), as [(t, bytes)]."""
        out, t, sent = [], 0.0, 0
        while sent < total:
            t += 1000 / rate * rng.choice((0.5, 0.8, 1.0, 1.0, 1.5, 3.0))
            if rng.random() < 0.02:
                t += rng.random() * 3.0
            take = min(1000, total - sent)
            out.append((t, take))
            sent += take
        return out

    def test_paced_reading_gives_the_unpaced_figures(self):
        rng = random.Random(3)
        sizes = [1500] * 200  # 10 fps: 15 kB/s of video
        limit = _Pacer(1.0, FPS).limit
        self.assertEqual(limit, 10)
        paced = late_and_paced = 0
        for trial in range(40):
            packets = self.packets(rng, sum(sizes), rng.choice((20e3, 30e3, 45e3)))
            free, _, _ = simulate(packets, sizes, FPS)
            got, ahead, paused = simulate(packets, sizes, FPS, limit)
            with self.subTest(trial=trial):
                self.assertEqual(got, free)
                # at most one read (4000 B: 3 frames) beyond the limit
                self.assertLessEqual(ahead, limit - 1 + math.ceil(4000 / 1500))
            late = free["picture_discards"] + len(free["underflow_durations_s"])
            paced += paused > 1.0
            late_and_paced += paused > 1.0 and late > 0
        # the reader did pause, also in most of the runs with late frames
        self.assertGreater(paced, 30)
        self.assertGreater(late_and_paced, 20)

    def test_oversleeping_the_limit_would_make_frames_late(self):
        # the check above can fail: a reader that sleeps a second past the deadline loses
        # frames that were in the kernel in time
        packets = self.packets(random.Random(0), 300000, 30e3)
        sizes = [1500] * 200
        free, _, _ = simulate(packets, sizes, FPS)
        late, _, _ = simulate(packets, sizes, FPS, _Pacer(1.0, FPS).limit, oversleep=1.0)
        self.assertEqual((free["picture_discards"], len(free["underflow_durations_s"])), (0, 0))
        self.assertGreater(late["picture_discards"] + len(late["underflow_durations_s"]), 0)

    def test_the_limit_is_at_least_one_frame(self):
        self.assertEqual(_Pacer(0.01, 30).limit, 1)
        self.assertEqual(_Pacer(1.0, 30).limit, 30)
        self.assertEqual(_Pacer(0.5, 29.97).limit, 15)


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


class LagTest(unittest.TestCase):
    """The server's frames written late, on hand-made write times (fps 10: frame i is due at
    t0 + i/10, late when written more than 0.1 s after that)."""

    def test_late_and_largest_lag(self):
        lag = _Lag(100.0, FPS)
        # frame 0 on time, 1 early (a file server's lead), 2 exactly one interval late (not
        # late), 3 0.15 s late, 4 0.5 s late
        for i, t in enumerate((100.0, 100.05, 100.3, 100.45, 100.9)):
            lag.frame(i, t)
        self.assertEqual(lag.facts(), {"frames_sent_late": 2, "max_send_lag_s": 0.5})

    def test_a_lead_is_not_a_lag(self):
        lag = _Lag(0.0, FPS)
        for i in range(10):
            lag.frame(i, 0.0)  # everything handed to the socket at once
        self.assertEqual(lag.facts(), {"frames_sent_late": 0, "max_send_lag_s": 0.0})

    def test_file_writes_give_every_frame_to_the_lag_in_order(self):
        seen = []

        class Seen:
            def frame(self, i, now):
                seen.append(i)

        sizes = [wire.HEADER.size + 100] * 30
        writes = list(_file_writes(b"head", sizes, 1000, Seen()))
        self.assertEqual(seen, list(range(30)))
        self.assertEqual(sum(map(len, writes)), 4 + sum(sizes))


class HttpTest(unittest.TestCase):
    def test_the_clients_request_is_what_the_server_answers(self):
        req = http.request("10.0.1.2", 5000)
        self.assertEqual(http.head_end(req), len(req))
        method, target, version, headers = http.parse_request(req)
        self.assertEqual((method, target, version), ("GET", http.TARGET, "HTTP/1.1"))
        self.assertEqual(headers["host"], "10.0.1.2:5000")
        self.assertIn(b"Host: [fd00::1]:80\r\n", http.request("fd00::1", 80))

    def test_head_end(self):
        self.assertEqual(http.head_end(b"GET / HTTP/1.0\r\n\r\nxy"), 18)
        self.assertEqual(http.head_end(b"GET / HTTP/1.0\n\nxy"), 16)
        self.assertEqual(http.head_end(b"GET / HTTP/1.0\r\nHost: a\r\n"), -1)

    def test_requests_the_server_refuses(self):
        cases = {
            b"POST / HTTP/1.1\r\nHost: a\r\n\r\n": "method 'POST' not supported",
            b"HEAD / HTTP/1.1\r\nHost: a\r\n\r\n": "method 'HEAD' not supported",
            b"GET / HTTP/1.1\r\n\r\n": "without a Host header",
            b"GET / HTTP/2.0\r\nHost: a\r\n\r\n": "not HTTP/1.0 or HTTP/1.1",
            b"GET /\r\n\r\n": "malformed request line",
            b"hello\r\n\r\n": "malformed request line",
            b"\r\n": "malformed request line",
            b"GET http://a/ HTTP/1.1\r\nHost: a\r\n\r\n": "is not a path",
            b"GET / HTTP/1.1\r\nHost a\r\n\r\n": "malformed header line",
            b"GET / HTTP/1.1\r\nHost: a\r\nContent-Length: 3\r\n\r\n": "a GET with a body",
            b"GET / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: x\r\n\r\n": "a GET with a body",
        }
        for head, why in cases.items():
            with self.subTest(head=head), self.assertRaises(http.HttpError) as cm:
                http.parse_request(head)
            self.assertIn(why, str(cm.exception))
        # HTTP/1.0 needs no Host; an empty body is no body
        http.parse_request(b"GET / HTTP/1.0\r\nContent-Length: 0\r\n\r\n")
        self.assertTrue(http.bad_request("why").startswith(b"HTTP/1.1 400 Bad Request\r\n"))

    def test_response_head_in_pieces_and_the_body_after_it(self):
        data = http.response_head() + b"MPQV body"
        for chunk in (1, 5, len(data)):
            head, body = http.ResponseHead(), b""
            for k in range(0, len(data), chunk):
                if head.done:
                    body += data[k : k + chunk]
                    continue
                rest = head.feed(memoryview(data[k : k + chunk]))
                body += rest or b""
            self.assertEqual((head.status, head.reason, body), (200, "OK", b"MPQV body"))
            self.assertEqual(head.headers["content-type"], http.CONTENT_TYPE)
            self.assertEqual(head.size, len(http.response_head()))

    def test_responses_the_client_refuses(self):
        for data, why in (
            (b"MPQV\xff\xff\xff\xfe", "does not start with HTTP/"),
            (b"HTTP/1.1 2000 OK\r\n\r\n", "malformed status line"),
            (b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n", "chunked"),
            (b"HTTP/1.1 200 OK\r\n" + b"X: y\r\n" * 3000, "response head over"),
        ):
            with self.subTest(data=data[:30]), self.assertRaises(http.HttpError) as cm:
                http.ResponseHead().feed(data)
            self.assertIn(why, str(cm.exception))
        head = http.ResponseHead()
        self.assertEqual(head.feed(b"HTTP/1.1 404 Not Found\r\n\r\n"), b"")
        self.assertEqual((head.status, head.reason), (404, "Not Found"))


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
                ["client", "--connect", "h:1", "--read-ahead", "0", "--out", out],
                ["client", "--connect", "h:1", "--read-ahead", "-1", "--out", out],
                ["client", "--connect", "h:1", "--mode", "live", "--read-ahead", "1", "--out", out],
                ["client", "--connect", "h:1", "--mode", "vod", "--out", out],
                ["server", "--port", "5000", "--mode", "http"],
            )
            for argv in cases:
                with self.subTest(argv=argv):
                    r = run(*argv)
                    self.assertEqual(r.returncode, 2)
                    self.assertEqual(r.stdout, "")
                    self.assertEqual(len(r.stderr.splitlines()), 1, r.stderr)
                    self.assertTrue(r.stderr.startswith("vprobe: error: "), r.stderr)
            self.assertEqual(os.listdir(d), [])


def connect(port, deadline=10.0):
    """A plain TCP connection to 127.0.0.1:port, retried while the server starts."""
    t_end = time.monotonic() + deadline
    while True:
        try:
            return socket.create_connection(("127.0.0.1", port), timeout=10)
        except ConnectionRefusedError:
            if time.monotonic() > t_end:
                raise
            time.sleep(0.1)


class FakeServer(threading.Thread):
    """Plain TCP: reads one request head, answers `reply`, closes."""

    def __init__(self, reply):
        super().__init__(daemon=True)
        self.reply = reply
        self.lsock = socket.create_server(("127.0.0.1", 0))
        self.port = self.lsock.getsockname()[1]
        self.request = b""

    def run(self):
        with self.lsock:
            self.lsock.settimeout(20)
            conn, _ = self.lsock.accept()
        with conn:
            conn.settimeout(20)
            while http.head_end(self.request) < 0:
                data = conn.recv(4096)
                if not data:
                    return
                self.request += data
            conn.sendall(self.reply)
            conn.shutdown(socket.SHUT_WR)
            while conn.recv(4096):
                pass


class LocalProcessTest(unittest.TestCase):
    """Real server and client over 127.0.0.1 (the host kernel's MPTCP, one subflow)."""

    def server(self, port, opts, stderr=subprocess.DEVNULL):
        return subprocess.Popen(
            [sys.executable, VPROBE, *f"server --port {port} --bind 127.0.0.1 {opts}".split()],
            stdout=subprocess.DEVNULL,
            stderr=stderr,
            text=True,
        )

    def test_file_mode_reads_only_the_read_ahead_before_playback(self):
        port = free_port()
        srv = self.server(port, "--duration 3 --timeout 20")
        try:
            r = run(*f"client --connect 127.0.0.1:{port} --timeout 20 --label f".split())
        finally:
            srv.wait(timeout=20)
        self.assertEqual((r.returncode, srv.returncode), (0, 0), r.stderr)
        doc = json.loads(r.stdout)
        self.assertEqual(doc["schema"], "mpqoe-vprobe/2")
        self.assertEqual((doc["config"]["mode"], doc["config"]["read_ahead_s"]), ("file", 1.0))
        self.assertEqual(doc["config"]["server"]["mode"], "file")
        self.assertEqual(doc["http"]["status"], 200)
        self.assertEqual(doc["http"]["content_type"], http.CONTENT_TYPE)
        self.assertEqual(doc["frames"]["received"], 90)
        self.assertEqual(doc["server"]["request"], f"GET {http.TARGET} HTTP/1.1")
        self.assertEqual(doc["server"]["write_size"], 65536)
        # the file is handed to the socket ahead of its frames' times (a loaded machine may
        # delay the first writes by a scheduling slice, not by half a second)
        self.assertIsInstance(doc["server"]["frames_sent_late"], int)
        self.assertLess(doc["server"]["max_send_lag_s"], 0.5)
        # the whole file is in the kernel's buffers at once over loopback, but the reader
        # keeps at most 1 s (+ one 64 KiB read: 4 frames) ahead of playback, and so reads
        # the trailer only when playback is 1 s from the end
        self.assertLessEqual(doc["reader"]["max_ahead_s"], 1.0 + 4 / 30 + 1e-6)
        self.assertGreater(doc["reader"]["paused_s"], 1.0)
        self.assertGreater(doc["duration_s"], doc["startup_delay_s"] + 1.5)
        body = doc["stream_bytes"] - doc["http"]["head_bytes"]
        self.assertGreater(body, doc["frames"]["bytes"])  # + hello and trailer

    def test_live_mode_reads_as_fast_as_it_can(self):
        port = free_port()
        srv = self.server(port, "--mode live --duration 1 --timeout 20")
        try:
            r = run(*f"client --mode live --connect 127.0.0.1:{port} --timeout 20".split())
        finally:
            srv.wait(timeout=20)
        self.assertEqual((r.returncode, srv.returncode), (0, 0), r.stderr)
        doc = json.loads(r.stdout)
        self.assertEqual((doc["config"]["mode"], doc["config"]["read_ahead_s"]), ("live", None))
        self.assertEqual((doc["http"], doc["server"]["request"]), (None, None))
        self.assertEqual((doc["reader"]["paused_s"], doc["reader"]["pauses"]), (0.0, 0))
        self.assertEqual(doc["frames"]["received"], 30)
        self.assertGreaterEqual(doc["server"]["frames_sent_late"], 0)
        # a live source makes 1 s of video in 1 s: the startup buffer takes that long
        self.assertGreater(doc["startup_delay_s"], 0.9)

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

    def test_a_bad_request_gets_a_400_and_the_server_exits_1(self):
        port = free_port()
        srv = self.server(port, "--duration 1 --timeout 10", stderr=subprocess.PIPE)
        try:
            with connect(port) as s:
                s.sendall(b"POST /video HTTP/1.1\r\nHost: x\r\n\r\n")
                answer = b""
                while data := s.recv(4096):
                    answer += data
            _, err = srv.communicate(timeout=15)
        finally:
            if srv.poll() is None:
                srv.kill()
                srv.wait()
        self.assertTrue(answer.startswith(b"HTTP/1.1 400 Bad Request\r\n"), answer)
        self.assertIn(b"method 'POST' not supported", answer)
        self.assertEqual(srv.returncode, 1)
        self.assertEqual(
            err.splitlines()[1:],
            ["vprobe server: bad request: method 'POST' not supported (only GET)"],
        )

    def test_the_client_fails_on_an_answer_other_than_200(self):
        frames = wire.control_frame(wire.HELLO_INDEX, {"schema": wire.SCHEMA, "frames": 1})
        for reply, why in (
            (b"HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n", "answered 404 Not Found"),
            (frames, "does not start with HTTP/"),  # a live-mode server
        ):
            fake = FakeServer(reply)
            fake.start()
            with tempfile.TemporaryDirectory() as d:
                out = os.path.join(d, "r.json")
                argv = f"client --tcp --connect 127.0.0.1:{fake.port} --timeout 10 --out {out}"
                r = run(*argv.split())
                fake.join(timeout=10)
                with open(out) as f:
                    doc = json.load(f)
            with self.subTest(why=why):
                self.assertEqual(r.returncode, 1, r.stderr)
                self.assertFalse(doc["complete"])
                self.assertIn(why, doc["error"])
                self.assertEqual(r.stderr.splitlines(), [f"vprobe client: {doc['error']}"])
                self.assertTrue(fake.request.startswith(b"GET /video.vprobe HTTP/1.1\r\nHost: "))

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
        # read ahead of playback: more than the 1 s startup buffer, less than the file
        self.assertLess(doc["frames"]["received"], 150)
        self.assertGreater(doc["frames"]["received"], 30)
        self.assertIsNotNone(doc["startup_delay_s"])


if __name__ == "__main__":
    unittest.main()
