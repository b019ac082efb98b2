"""Volatile pairs (netns.py): the seeded schedule, the pair's checks, the tc commands it gets,
the thread that applies a schedule and its record, and the scenario file's volatile section
(experiment.load_network); no network (the namespace test is tests/test_netns.py).

    cd pcdc && /usr/bin/python3 -m unittest tests.test_volatile
"""

import contextlib
import io
import itertools
import json
import math
import os
import statistics
import tempfile
import threading
import time
import unittest
from unittest import mock

from mpqoe import REPO
from mpqoe.pcdc import experiment, netns

PCDC = os.path.join(REPO, "pcdc")


def draws(key, n, good=20.0, bad=5.0):
    return list(itertools.islice(netns.schedule(key, good, bad), n))


class ScheduleTest(unittest.TestCase):
    def test_the_same_key_gives_the_same_schedule_and_another_key_another(self):
        self.assertEqual(draws("7/3/bulk/0", 50), draws("7/3/bulk/0", 50))
        self.assertNotEqual(draws("7/3/bulk/0", 50), draws("7/4/bulk/0", 50))
        # a test's key: the seed, the run and the test, not the mode
        self.assertEqual(netns.test_key(7, 3, "bulk"), "7/3/bulk")
        self.assertEqual(netns.test_key(7, 0, "measure"), "7/0/measure")

    def test_states_alternate_and_the_means_are_the_given_ones(self):
        steps = draws("means", 40_000)
        states = [s for s, _ in steps]
        self.assertTrue(all(a != b for a, b in itertools.pairwise(states)))
        good = [d for s, d in steps if s == "good"]
        bad = [d for s, d in steps if s == "bad"]
        self.assertEqual(len(good), len(bad))
        # 20 000 exponential draws each: the mean's standard error is 0.7 % of it
        self.assertAlmostEqual(statistics.fmean(good), 20.0, delta=20.0 * 0.03)
        self.assertAlmostEqual(statistics.fmean(bad), 5.0, delta=5.0 * 0.03)
        # exponential: the standard deviation is the mean
        self.assertAlmostEqual(statistics.stdev(bad), 5.0, delta=5.0 * 0.05)
        self.assertTrue(all(d > 0 for _, d in steps))

    def test_the_first_state_has_the_long_run_share(self):
        # bad 5 s of every 25 s: a test starts in the bad state one time in five
        first = [draws(f"start/{k}", 1)[0][0] for k in range(4000)]
        share = first.count("bad") / len(first)
        self.assertAlmostEqual(share, 0.2, delta=0.03)  # standard error 0.006


def pair(**kw):
    args = dict(server=0, client=0, good_rate="1gbit", bad_rate="1mbit", mean_good_s=20.0,
                mean_bad_s=5.0)  # fmt: skip
    args.update(kw)
    return netns.VolatilePair(**args)


class PairTest(unittest.TestCase):
    def test_bad_pairs_are_refused_with_one_line_naming_what(self):
        for kw, words in [
            (dict(bad_rate="1gbit"), "bad rate 1gbit is not below good rate 1gbit"),
            (dict(bad_rate="fast"), "bad rate 'fast'"),
            (dict(mean_good_s=0), "mean_good_s must be positive seconds, got 0"),
            (dict(mean_bad_s=-5), "mean_bad_s must be positive seconds"),
            (dict(mean_bad_s=math.nan), "mean_bad_s"),
            (dict(mean_good_s=math.inf), "mean_good_s"),
            (dict(mean_good_s=True), "mean_good_s"),
            (dict(mean_good_s="20"), "mean_good_s"),
            (dict(server=-1), "server must be a link index"),
            (dict(client=1.0), "client must be a link index"),
        ]:
            with self.subTest(kw), self.assertRaises(ValueError) as cm:
                pair(**kw)
            self.assertIn(words, str(cm.exception))
            self.assertNotIn("\n", str(cm.exception))

    def test_addresses_and_rates(self):
        p = pair(server=1, client=0)
        self.assertEqual(p.addrs, (netns.client_addr(0), netns.server_addr(1)))
        self.assertEqual((p.rate("good"), p.rate("bad")), ("1gbit", "1mbit"))


class TcTest(unittest.TestCase):
    def test_the_pairs_classes_under_the_links_tbf(self):
        cmds = netns.volatile_setup("s0", "1gbit", [pair(client=0), pair(client=1)])
        head = ["tc", "qdisc", "add", "dev", "s0"]
        self.assertEqual(cmds[0], head + ["parent", "10:1", "handle", "20:", "htb", "default", "1"])
        htb = ["htb", "rate", "1gbit", "quantum", "65536"]
        self.assertEqual(cmds[1], ["tc", "class", "add", "dev", "s0", "parent", "20:", "classid",
                                   "20:1", *htb])  # fmt: skip
        # the rest keeps the link's queue: 50 ms at 1 Gbit/s and tbf's bucket of 10 ms
        self.assertEqual(cmds[2], head + ["parent", "20:1", "handle", "21:", "bfifo", "limit",
                                          str(6_250_000 + 1_250_000)])  # fmt: skip
        c0, c1 = netns.client_addr(0), netns.client_addr(1)
        s0 = netns.server_addr(0)
        self.assertEqual(
            cmds[3:6],
            [["tc", "class", "add", "dev", "s0", "parent", "20:", "classid", "20:2", *htb],
             head + ["parent", "20:2", "handle", "30:", "tbf", "rate", "1gbit", "burst",
                     "1250000", "latency", "50ms"],
             ["tc", "filter", "add", "dev", "s0", "parent", "20:", "protocol", "ip", "prio", "1",
              "u32", "match", "ip", "src", f"{s0}/32", "match", "ip", "dst", f"{c0}/32",
              "flowid", "20:2"]],
        )  # fmt: skip
        self.assertEqual(cmds[6][8:], ["20:3", *htb])
        self.assertEqual(cmds[7][5:9], ["parent", "20:3", "handle", "31:"])
        self.assertEqual(cmds[8][-4:], ["dst", f"{c1}/32", "flowid", "20:3"])
        self.assertEqual(len(cmds), 9)

    def test_a_switch_changes_the_pairs_tbf_only(self):
        self.assertEqual(
            netns.volatile_rate("s1", 1, "1000000bit"),
            ["tc", "qdisc", "change", "dev", "s1", "parent", "20:3", "handle", "31:", "tbf",
             "rate", "1000000bit", "burst", "32768", "latency", "50ms"],
        )  # fmt: skip

    def test_the_testbed_places_each_pair_on_its_server_link(self):
        pairs = [pair(server=1, client=0), pair(server=0, client=1), pair(server=1, client=1)]
        tb = netns.Testbed("x", ["10mbit", "10mbit"], ["1gbit", "100mbit"], volatile=pairs)
        with mock.patch.object(netns, "sh") as sh:
            tb.set_volatile_rate(2, "2mbit")
            tb.set_volatile_rate(1, "3mbit")
        self.assertEqual(sh.call_args_list, [
            mock.call(netns.volatile_rate("s1", 1, "2mbit"), "xs"),
            mock.call(netns.volatile_rate("s0", 0, "3mbit"), "xs")])  # fmt: skip

    def test_the_testbed_refuses_pairs_it_does_not_have(self):
        for pairs, words in [
            ([pair(server=2)], "does not exist"),
            ([pair(client=1)], "does not exist"),
            ([pair(), pair(bad_rate="2mbit")], "twice"),
        ]:
            with self.subTest(pairs), self.assertRaisesRegex(ValueError, words):
                netns.Testbed("x", ["10mbit"], ["1gbit", "100mbit"], volatile=pairs)


class Recorder:
    """apply(i, rate) that records; fails from call number fail_at on."""

    def __init__(self, fail_at=None):
        self.calls, self.fail_at = [], fail_at
        self.lock = threading.Lock()

    def __call__(self, i, rate):
        with self.lock:
            if self.fail_at is not None and len(self.calls) >= self.fail_at:
                raise RuntimeError("tc: no such device")
            self.calls.append((i, rate))


class VolatilityTest(unittest.TestCase):
    PAIRS = [pair(good_rate="10mbit", bad_rate="1mbit", mean_good_s=0.04, mean_bad_s=0.02),
             pair(client=1, good_rate="20mbit", bad_rate="2mbit", mean_good_s=0.05,
                  mean_bad_s=0.03)]  # fmt: skip

    def test_the_record_is_the_schedule_of_its_key_as_applied(self):
        apply = Recorder()
        running = set()
        with netns.Volatility(self.PAIRS, apply, "9/2/bulk", registry=running) as vol:
            self.assertEqual(running, {vol})
            with vol.window("bulk"):
                time.sleep(0.6)
        self.assertEqual(running, set())
        rec = vol.record
        self.assertEqual((rec["schema"], rec["key"]), (netns.SCHEMA, "9/2/bulk"))
        self.assertIsNone(rec["error"])
        self.assertGreaterEqual(rec["stopped_at"], 0.6)
        for i, (p, e) in enumerate(zip(self.PAIRS, rec["pairs"], strict=True)):
            self.assertEqual(e["key"], f"9/2/bulk/{i}")
            self.assertEqual((e["client"], e["server"]), p.addrs)
            sw = e["switches"]
            self.assertGreater(len(sw), 3)
            # the states and planned times are the key's schedule, whatever tc took
            plan = draws(e["key"], len(sw), p.mean_good_s, p.mean_bad_s)
            self.assertEqual([s["state"] for s in sw], [s for s, _ in plan])
            self.assertEqual([s["rate"] for s in sw], [p.rate(s) for s, _ in plan])
            starts = [0.0] + list(itertools.accumulate(d for _, d in plan))[:-1]
            for s, t in zip(sw, starts, strict=True):
                self.assertAlmostEqual(s["planned"], t, delta=0.001)
                self.assertGreaterEqual(s["at"], s["planned"] - 0.001)
            # what was applied, in order, then the good rate back at the stop
            mine = [r for j, r in apply.calls if j == i]
            self.assertEqual(mine, [s["rate"] for s in sw] + [p.good_rate])
        [w] = rec["windows"]
        self.assertEqual(w["name"], "bulk")
        self.assertAlmostEqual(w["to"] - w["from"], 0.6, delta=0.1)
        json.dumps(rec)  # written as JSON beside the results

    def test_a_failing_tc_is_recorded_and_ends_the_schedule(self):
        with netns.Volatility(self.PAIRS, Recorder(fail_at=1), "k") as vol:
            time.sleep(0.1)
        self.assertIn("tc: no such device", vol.record["error"])
        self.assertEqual(sum(len(e["switches"]) for e in vol.record["pairs"]), 1)

    def test_the_testbed_stops_what_runs_when_it_goes_down(self):
        tb = netns.Testbed("x", ["10mbit", "10mbit"], ["1gbit"], volatile=self.PAIRS)
        calls = Recorder()
        tb.set_volatile_rate = calls
        vol = tb.volatility("k").start()
        time.sleep(0.05)
        with mock.patch.object(netns, "sh", return_value=mock.Mock(stdout="")):
            tb.down()
        self.assertIsNone(vol._thread)
        self.assertFalse([t for t in threading.enumerate() if t.name == "volatility"])
        n = len(calls.calls)
        time.sleep(0.1)
        self.assertEqual(len(calls.calls), n)  # nothing applied after the teardown
        self.assertIsNotNone(vol.record["stopped_at"])

    def test_bad_seconds_of_a_window(self):
        switches = [{"at": 0.0, "state": "good"}, {"at": 10.0, "state": "bad"},
                    {"at": 14.0, "state": "good"}, {"at": 30.0, "state": "bad"}]  # fmt: skip
        self.assertEqual(netns.state_seconds(switches, 33.0, 0.0, 33.0), 7.0)
        self.assertEqual(netns.state_seconds(switches, 33.0, 12.0, 31.0), 3.0)
        self.assertEqual(netns.state_seconds(switches, 33.0, 0.0, 33.0, "good"), 26.0)
        self.assertEqual(netns.state_seconds(switches, 33.0, 15.0, 29.0), 0.0)
        self.assertEqual(netns.state_seconds([], 5.0, 0.0, 5.0), 0.0)


def scenario_file(test, **volatile):
    with open(os.path.join(PCDC, "scenarios", "uib-unis.json")) as f:
        doc = json.load(f)
    if volatile:
        doc["volatile"] = volatile
    fd, path = tempfile.mkstemp(suffix=".json")
    with os.fdopen(fd, "w") as f:
        json.dump(doc, f)
    test.addCleanup(os.unlink, path)
    return path


GOOD = dict(server="Uninett", client="Telenor", bad_share=0.1, mean_good_s=20, mean_bad_s=5)


class ScenarioTest(unittest.TestCase):
    def test_a_volatile_pair_from_the_file(self):
        path = scenario_file(self, seed=3, pairs=[GOOD])
        net = experiment.load_network(path, rate_scale=0.5)
        self.assertEqual(net.seed, 3)
        # good: the server link's rate; bad: 10 % of the smaller of the pair's links (Telenor)
        self.assertEqual(
            net.volatile, [netns.VolatilePair(0, 1, "500000000bit", "500000bit", 20, 5)]
        )
        self.assertEqual(experiment.load_scenario(path, 0.5), (net.client, net.server))
        none = experiment.load_network(os.path.join(PCDC, "scenarios", "uib-unis.json"))
        self.assertEqual((none.volatile, none.seed), ([], None))

    def test_bad_volatile_sections_are_refused_in_one_line(self):
        cases = [
            (dict(pairs=[GOOD]), "want {\"seed\": N"),
            (dict(seed=-1, pairs=[GOOD]), "seed must be a non-negative integer"),
            (dict(seed=True, pairs=[GOOD]), "seed must be"),
            (dict(seed=1, pairs=[]), "pairs must be a non-empty list"),
            (dict(seed=1, pairs=[dict(GOOD, mean_good=3)]), "want the keys server, client"),
            (dict(seed=1, pairs=[dict(GOOD, server="Telenor")]), "'Telenor' is not the ISP of"),
            (dict(seed=1, pairs=[dict(GOOD, bad_share=1)]), "bad_share must be between 0 and 1"),
            (dict(seed=1, pairs=[dict(GOOD, bad_share=1e-6)]), "below 1 kbit/s"),
            (dict(seed=1, pairs=[dict(GOOD, mean_bad_s=0)]),
             "pair 0 (Uninett-Telenor): mean_bad_s must be positive seconds"),
            (dict(seed=1, pairs=[GOOD, GOOD]), "pair 1 (Uninett-Telenor): the pair is given twice"),
        ]  # fmt: skip
        for sec, words in cases:
            with self.subTest(sec), self.assertRaises(ValueError) as cm:
                experiment.load_network(scenario_file(self, **sec))
            self.assertIn(words, str(cm.exception))
            self.assertIn(": volatile", str(cm.exception))
            self.assertNotIn("\n", str(cm.exception))

    def test_the_command_line_refuses_it_in_one_line(self):
        path = scenario_file(self, seed=1, pairs=[dict(GOOD, mean_good_s=-1)])
        err = io.StringIO()
        with contextlib.redirect_stderr(err), self.assertRaises(SystemExit) as cm:
            experiment.parse_args(["--out", "x", "--scenario", path])
        self.assertEqual(cm.exception.code, 2)
        self.assertEqual(len(err.getvalue().strip().splitlines()), 1, err.getvalue())
        self.assertIn("mean_good_s must be positive seconds", err.getvalue())


if __name__ == "__main__":
    unittest.main()
