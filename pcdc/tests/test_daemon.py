"""The daemon's event handling (pcdcd.Daemon) with a recording path manager, the measurement
tool's statistics and table file, the start-up checks, and bad command lines."""

import contextlib
import errno
import io
import json
import os
import tempfile
import time
import unittest

from mpqoe import REPO
from mpqoe.pcdc import experiment, impact, netns, pcdcd, pmcheck, policy, transfer
from mpqoe.pcdc.mptcp_genl import Event

PCDC = os.path.join(REPO, "pcdc")

KIB = 1024
L0, L1 = "10.0.1.1", "10.0.2.1"
R0, R1 = "10.0.101.2", "10.0.102.2"
TABLE = {(L0, R0): (0.6, 10.0), (L1, R1): (0.3, 20.0), (L1, R0): (0.1, 30.0), (L0, R1): (-0.2, 5.0)}
TOKEN = 0xABCD


class FakePm:
    def __init__(self, refuse=()):
        self.calls = []
        self.refuse = set(refuse)

    def subflow_create(self, token, local, remote):
        if (local[0], remote[0]) in self.refuse:
            raise OSError(22, "refused")
        self.calls.append(("create", token, local[0], remote[0], remote[1]))

    def subflow_destroy(self, token, local, remote):
        self.calls.append(("destroy", token, local[0], local[1], remote[0], remote[1]))


def ev(name, **attrs):
    return Event(name, {"token": TOKEN, **attrs})


def conn_events(dport=5201, server_side=0):
    base = dict(saddr=L0, daddr=R0, sport=40000, dport=dport, server_side=server_side)
    return [ev("created", **base), ev("established", **base)]


def sub(name, saddr, daddr, sport, error=None):
    a = dict(saddr=saddr, daddr=daddr, sport=sport, dport=5201)
    if error is not None:
        a["error"] = error
    return ev(name, **a)


class DaemonTest(unittest.TestCase):
    def daemon(self, mode="pcdc", table=TABLE, **kw):
        self.log = []
        self.pm = FakePm(kw.pop("refuse", ()))
        return pcdcd.Daemon(mode, table, [L0, L1], self.pm, self.log.append, **kw)

    def hinted(self, size, **kw):
        """A daemon whose connection is established, then hinted at size bytes."""
        d = self.daemon(**kw)
        for e in conn_events():
            d.handle(e)
        d.on_hint(f"{TOKEN} {size}".encode(), time.monotonic())
        return d

    def creates(self):
        return [(c[2], c[3]) for c in self.pm.calls if c[0] == "create"]

    def test_l1_opens_nothing_beyond_p0(self):
        d = self.daemon()
        for e in conn_events():
            d.handle(e)
        d.handle(ev("announced", rem_id=1, daddr=R1, dport=5201))
        self.assertEqual(self.creates(), [])  # the initial subflow L0 -> R0 is P[0]

    def test_classes_grow_with_the_bytes(self):
        d = self.daemon()
        for e in conn_events():
            d.handle(e)
        d.handle(ev("announced", rem_id=1, daddr=R1, dport=5201))
        c = d.conns[TOKEN]
        c.carried = 600 * KIB
        c.cls = policy.online_class(c.carried)
        d.reconcile(c, "test")
        self.assertEqual(self.creates(), [(L1, R1)])
        d.handle(sub("sub_established", L1, R1, 41000))
        c.cls = policy.L3
        d.reconcile(c, "test")
        # P = [L0->R0, L1->R1, L1->R0]; L0->R1 is standby and never opened
        self.assertEqual(self.creates(), [(L1, R1), (L1, R0)])
        self.assertTrue(any("open 10.0.2.1 -> 10.0.102.2: class L2" in m for m in self.log))

    def test_hint_before_the_connection(self):
        d = self.daemon()
        d.on_hint(f"{TOKEN} {10 * 1024 * KIB}".encode(), 0.0)
        for e in conn_events():
            d.handle(e)
        self.assertEqual(self.creates(), [(L1, R0)])  # R1 not announced yet
        d.handle(ev("announced", rem_id=1, daddr=R1, dport=5201))
        self.assertEqual(self.creates(), [(L1, R0), (L1, R1)])

    def test_a_pair_not_yet_announced_is_waited_for(self):
        # P = [L0->R0, L1->R1, L1->R0]: an L2 hint before R1's announcement would make L1->R0
        # P[1] of the pairs available, to be closed again when R1 arrives
        d = self.hinted(768 * KIB, announce_wait=30)
        self.assertEqual(self.creates(), [])
        self.assertIn("waiting up to 30 s for the peer's addresses before opening "
                      "[10.0.2.1->10.0.101.2]", self.log[-1])  # fmt: skip
        d.announce_tick(time.monotonic())  # still within the wait: nothing
        self.assertEqual(self.creates(), [])
        d.handle(ev("announced", rem_id=1, daddr=R1, dport=5201))
        self.assertEqual(self.creates(), [(L1, R1)])
        d.announce_tick(time.monotonic() + 31)  # the wait's end changes nothing now
        self.assertEqual(self.creates(), [(L1, R1)])
        self.assertEqual(self.pm.calls[-1][0], "create")  # and closes nothing

    def test_without_an_announcement_the_wait_ends(self):
        d = self.hinted(768 * KIB, announce_wait=30)
        self.assertEqual(self.creates(), [])
        d.announce_tick(time.monotonic() + 31)
        self.assertEqual(self.creates(), [(L1, R0)])
        self.assertIn("no address announced within 30 s", self.log[-1])
        # without a wait the substitute is opened at once
        self.hinted(768 * KIB, announce_wait=0)
        self.assertEqual(self.creates(), [(L1, R0)])

    def test_bad_hints_change_nothing(self):
        d = self.daemon()
        for bad in (b"", b"1", b"x 5", b"1 -5", b"99999999999 5", b"\xff\xfe", b"1 2 3"):
            d.on_hint(bad, 0.0)
        self.assertEqual(d.hints, {})
        self.assertEqual(len(self.log), 7)
        self.assertTrue(all(m.startswith("hint ignored") for m in self.log))
        self.assertEqual(pcdcd.parse_hint(b"0x10 2048\n"), (16, 2048))

    def test_fullmesh_opens_every_pair(self):
        d = self.daemon("fullmesh")
        for e in conn_events():
            d.handle(e)
        d.handle(ev("announced", rem_id=1, daddr=R1, dport=5202))
        self.assertEqual(self.creates(), [(L1, R0), (L0, R1), (L1, R1)])
        self.assertIn(("create", TOKEN, L0, R1, 5202), self.pm.calls)  # the announced port

    def test_probe_and_server_side_connections_are_left_alone(self):
        d = self.daemon("fullmesh", probe=[R0], probe_port=6000)
        for e in conn_events(dport=6000) + conn_events(server_side=1):
            d.handle(e)
        self.assertEqual(self.pm.calls, [])
        self.assertEqual(d.conns, {})

    def test_standby_after_remeasure_closes_but_keeps_one(self):
        d = self.daemon()
        for e in conn_events():
            d.handle(e)
        c = d.conns[TOKEN]
        c.cls = policy.L3
        d.reconcile(c, "test")
        d.handle(sub("sub_established", L1, R0, 42000))
        self.assertEqual(c.opened, {(L1, 42000, R0, 5201): (L1, R0)})
        # L1 -> R0 turns harmful: closed, the initial subflow stays
        d.set_table({**TABLE, (L1, R0): (-0.5, 30.0)}, "test")
        self.assertIn(("destroy", TOKEN, L1, 42000, R0, 5201), self.pm.calls)
        self.assertEqual(c.opened, {})
        # the initial subflow closed, the one we opened is all that is left: not closed
        d.set_table(TABLE, "test")
        d.handle(sub("sub_established", L1, R0, 43000))
        d.handle(sub("sub_closed", L0, R0, 40000))
        self.pm.calls.clear()
        d.set_table({(L0, R0): (0.6, 10.0)}, "test")
        self.assertEqual([c for c in self.pm.calls if c[0] == "destroy"], [])

    def test_failed_subflows_are_not_asked_again(self):
        d = self.daemon("fullmesh", refuse={(L1, R0)})
        for e in conn_events():
            d.handle(e)
        self.assertEqual(self.creates(), [])
        self.assertTrue(any("refused" in m for m in self.log))
        d.handle(ev("announced", rem_id=1, daddr=R1, dport=5201))
        self.assertEqual(self.creates(), [(L0, R1), (L1, R1)])
        d.handle(sub("sub_closed", L0, R1, 0, error=111))
        self.assertEqual(self.creates(), [(L0, R1), (L1, R1)])

    def test_failed_subflow_asks_for_a_measurement(self):
        d = self.daemon(probe=[R0], probe_port=6000)
        for e in conn_events():
            d.handle(e)
        d.handle(sub("sub_closed", L1, R0, 45000, error=104))
        self.assertEqual(d.wanted, "subflow 10.0.2.1 -> 10.0.101.2 failed")

    def test_unknown_pairs_ask_for_a_measurement_only_if_measurable(self):
        d = self.daemon(table={}, probe=[R0], probe_port=6000)
        for e in conn_events():
            d.handle(e)
        self.assertEqual(d.wanted, "a pair without an impact factor")
        d = self.daemon(table={}, probe=["10.9.9.9"], probe_port=6000)
        for e in conn_events():
            d.handle(e)
        self.assertIsNone(d.wanted)

    def test_measurement_results(self):
        d = self.daemon(table={(L0, R0): (0.6, 10.0), (L1, R0): (0.2, 20.0)}, probe=[R0],
                        probe_port=6000)  # fmt: skip

        def finish(doc):
            fd, path = tempfile.mkstemp(suffix=".json")
            with os.fdopen(fd, "w") as f:
                json.dump(doc, f)
            with open(path + ".log", "w") as f:
                f.write("measure: sample 1 failed: boom\n")

            class Done:
                def poll(self):
                    return 0

            d.job = (Done(), path, "test")
            d.measurement_tick(0.0)
            self.assertFalse(os.path.exists(path) or os.path.exists(path + ".log"))

        pairs = [{"local": L0, "remote": R0, "omega": [], "rtt_ms": []},
                 {"local": L1, "remote": R0, "omega": [], "rtt_ms": []}]  # fmt: skip
        finish({"schema": impact.SCHEMA, "pairs": pairs})  # nothing measured: table kept
        self.assertEqual(d.table[(L0, R0)], (0.6, 10.0))
        self.assertIn("failed, table kept: no pair measured measure: sample 1 failed", self.log[-1])
        pairs[1] = {"local": L1, "remote": R0, "omega": [-0.1], "rtt_ms": [5.0]}
        finish({"schema": impact.SCHEMA, "pairs": pairs})  # L0 -> R0 keeps its values
        self.assertEqual(d.table, {(L0, R0): (0.6, 10.0), (L1, R0): (-0.1, 5.0)})
        self.assertIn("P = [10.0.1.1->10.0.101.2], standby = [10.0.2.1->10.0.101.2]", self.log[-1])

    def test_closed_connection_is_forgotten(self):
        d = self.daemon()
        for e in conn_events():
            d.handle(e)
        d.handle(Event("closed", {"token": TOKEN}))
        self.assertEqual(d.conns, {})
        d.handle(sub("sub_established", L1, R0, 42000))  # a late event: ignored


class MeasureTest(unittest.TestCase):
    def test_quantiles(self):
        xs = [0.5, -0.1, 0.2, 0.0, 0.3]  # sorted: -0.1 0.0 0.2 0.3 0.5
        self.assertAlmostEqual(impact.quantile(xs, 0.5), 0.2)
        self.assertAlmostEqual(impact.quantile(xs, 0.1), -0.06)  # pos 0.4
        self.assertAlmostEqual(impact.quantile(xs, 0.9), 0.42)  # pos 3.6
        self.assertEqual(impact.quantile([7.0], 0.9), 7.0)
        with self.assertRaises(ValueError):
            impact.quantile([], 0.5)

    def test_summary(self):
        s = impact.summarize([0.1, 0.3], [10.0, 30.0])
        self.assertEqual(s["samples"], 2)
        self.assertAlmostEqual(s["mean"], 0.2)
        self.assertAlmostEqual(s["median"], 0.2)
        self.assertAlmostEqual(s["rtt_ms"], 20.0)
        # t(0.975, 1) = 12.706; s = 0.1414; half = 12.706 * 0.1414 / sqrt(2) = 1.2706
        self.assertAlmostEqual(s["ci95"], 1.2706, places=3)

    def write(self, doc):
        fd, path = tempfile.mkstemp(suffix=".json")
        with os.fdopen(fd, "w") as f:
            f.write(doc if isinstance(doc, str) else json.dumps(doc))
        self.addCleanup(os.unlink, path)
        return path

    def test_table_file(self):
        doc = {"schema": impact.SCHEMA, "cc": "cubic", "pairs": [
            {"local": L0, "local_dev": "eth0", "remote": R0, "omega": [0.5, 0.7],
             "rtt_ms": [10, 20]},
            {"local": L1, "remote": R0, "omega": [], "rtt_ms": []}]}  # fmt: skip
        self.assertEqual(impact.load_table(self.write(doc)), {(L0, R0): (0.6, 15.0)})
        text = impact.format_table(doc)
        self.assertIn("cubic  10.0.1.1 (eth0)  10.0.101.2  2", text)
        self.assertIn("10.0.2.1         10.0.101.2  0", text)
        bad = [
            "{not json",
            {"schema": "other"},
            {
                "schema": impact.SCHEMA,
                "pairs": [{"local": "x", "remote": R0, "omega": [1], "rtt_ms": []}],
            },
            {
                "schema": impact.SCHEMA,
                "pairs": [{"local": L0, "remote": R0, "omega": ["a"], "rtt_ms": []}],
            },
            {"schema": impact.SCHEMA, "pairs": [{"local": L0}]},
        ]
        for b in bad:
            with self.subTest(b), self.assertRaises(ValueError):
                impact.load_table(self.write(b))

    def test_a_table_needs_a_sample_of_every_pair(self):
        ok = {"local": L0, "remote": R0, "omega": [0.5], "rtt_ms": [10.0], "errors": []}
        failed = {"local": L1, "remote": R0, "omega": [], "rtt_ms": [],
                  "errors": ["[Errno 107] Transport endpoint is not connected"]}  # fmt: skip
        self.assertIsNone(impact.unmeasured({"pairs": [ok]}))
        self.assertEqual(
            impact.unmeasured({"pairs": [ok, failed]}),
            f"no sample of {L1} -> {R0} ([Errno 107] Transport endpoint is not connected)",
        )
        for bad in ({}, {"pairs": []}, [], {"pairs": "x"}):
            self.assertEqual(impact.unmeasured(bad), "no pairs")


class CreateTest(unittest.TestCase):
    """A sample's subflows are created once the connection is fully established: the kernel
    refuses them with ENOTCONN before, for an RTT or more after connect() returns."""

    class Pm:
        def __init__(self, refusals, err=errno.ENOTCONN):
            self.refusals, self.err, self.tries = refusals, err, 0

        def subflow_create(self, token, local, remote):
            self.tries += 1
            if self.tries <= self.refusals:
                raise OSError(self.err, os.strerror(self.err))
            return "created"

    class Reader:
        def __init__(self):
            self.read = 0.0

        def run(self, seconds):
            self.read += seconds

    def create(self, pm, deadline):
        r = self.Reader()
        return impact._create(pm, r, TOKEN, (L1, 0, 2, 0), (R0, 5201), deadline), r

    def test_refused_while_not_established_then_created(self):
        pm = self.Pm(refusals=3)
        got, r = self.create(pm, time.monotonic() + 60)
        self.assertEqual((got, pm.tries), ("created", 4))
        self.assertAlmostEqual(r.read, 0.15)  # it read the download meanwhile

    def test_still_refused_at_the_deadline(self):
        pm = self.Pm(refusals=10**6)
        with self.assertRaises(OSError) as cm:
            self.create(pm, time.monotonic() - 1)
        self.assertEqual((cm.exception.errno, pm.tries), (errno.ENOTCONN, 1))

    def test_other_refusals_are_not_retried(self):
        pm = self.Pm(refusals=1, err=errno.EINVAL)
        with self.assertRaises(OSError):
            self.create(pm, time.monotonic() + 60)
        self.assertEqual(pm.tries, 1)


class NetworkTest(unittest.TestCase):
    def test_rates(self):
        self.assertEqual(netns.rate_bits("20mbit"), 20_000_000)
        self.assertEqual(netns.rate_bits("1gbit"), 10**9)
        self.assertEqual(netns.rate_bits("1.5mbit"), 1_500_000)
        self.assertEqual(netns.rate_bits("64000bit"), 64_000)
        for bad in ("20", "mbit", "-5mbit", "0kbit", "fast"):
            with self.subTest(bad), self.assertRaises(ValueError):
                netns.rate_bits(bad)

    def test_shaping(self):
        self.assertEqual(netns.shaping("c0"), [])
        self.assertEqual(
            netns.shaping("rc0", "20mbit"),
            [["tc", "qdisc", "replace", "dev", "rc0", "root", "handle", "10:", "tbf", "rate",
              "20mbit", "burst", "32768", "latency", "50ms"]],
        )  # fmt: skip
        # netem first, tbf as its child; the bucket holds 10 ms at 1 Gbit/s
        cmds = netns.shaping("s0", "1gbit", 5.0)
        self.assertEqual(cmds[0][5:], ["root", "handle", "1:", "netem", "delay", "5.0ms", "limit",
                                       "100000"])  # fmt: skip
        self.assertEqual(cmds[1][5:12], ["parent", "1:1", "handle", "10:", "tbf", "rate", "1gbit"])
        self.assertEqual(cmds[1][13], "1250000")
        self.assertEqual(len(netns.shaping("c1", None, 29.7)), 1)

    def test_scenario(self):
        path = os.path.join(PCDC, "scenarios", "uib-unis.json")
        client, server = experiment.load_scenario(path)
        self.assertEqual(client, [("100000000bit", 10.75), ("10000000bit", 29.7)])
        self.assertEqual(server, [("1000000000bit", 5.0), ("100000000bit", 18.35)])
        # the pairs' RTTs keep the order of the paper's Table II (Cubic)
        rtt = {(s, c): 2 * (server[s][1] + client[c][1]) for s in range(2) for c in range(2)}
        self.assertEqual(sorted(rtt, key=rtt.get), [(0, 0), (1, 0), (0, 1), (1, 1)])
        self.assertAlmostEqual(rtt[(0, 0)], 31.5)
        scaled, _ = experiment.load_scenario(path, rate_scale=0.1)
        self.assertEqual(scaled[1], ("1000000bit", 29.7))

    def test_scenario_hin(self):
        path = os.path.join(PCDC, "scenarios", "uib-hin.json")
        client, server = experiment.load_scenario(path)
        self.assertEqual([r for r, _ in client], ["1000000000bit", "2000000bit", "2000000bit"])
        rtt = {(s, c): 2 * (server[s][1] + client[c][1]) for s in range(2) for c in range(3)}
        # Uninett-Uninett as Table III measured it, the lowest of the six pairs
        self.assertAlmostEqual(rtt[(0, 0)], 24.3)
        self.assertEqual(min(rtt, key=rtt.get), (0, 0))

    def test_scenario_hu(self):
        path = os.path.join(PCDC, "scenarios", "uib-hu.json")
        net = experiment.load_network(path)
        self.assertEqual([r for r, _ in net.client], ["10000000bit", "10000000bit"])
        rtt = {
            (s, c): 2 * (net.server[s][1] + net.client[c][1]) for s in range(2) for c in range(2)
        }
        # Table IV, Cubic: (server, client) -> ms; the fit keeps their order within 7.2 ms
        paper = {(0, 0): 353.0, (0, 1): 316.4, (1, 0): 411.3, (1, 1): 346.2}
        self.assertEqual(sorted(rtt, key=rtt.get), sorted(paper, key=paper.get))
        for q, ms in paper.items():
            self.assertAlmostEqual(rtt[q], ms, delta=7.2)
        # Uninett-CERNET alone is volatile: 1 Mbit/s of its 10 when bad
        [p] = net.volatile
        self.assertEqual((p.server, p.client, p.good_rate, p.bad_rate), (0, 0, "1000000000bit",
                                                                         "1000000bit"))  # fmt: skip
        self.assertEqual((p.mean_good_s, p.mean_bad_s, net.seed), (20, 5, 1))

    def test_bad_scenarios(self):
        bad = [
            "{",
            {"client": [], "server": [{"rate": "1mbit"}]},
            {"client": [{"rate": "1mbit"}], "server": [{"rate": "fast"}]},
            {"client": [{"rate": "1mbit"}], "server": [{"rate": "1mbit", "delay_ms": -1}]},
            {"client": [{"rate": "1mbit"}], "server": [{"rate": "1mbit"}]},  # one pair
            {"client": [{"delay_ms": 3}, {"rate": "1mbit"}], "server": [{"rate": "1mbit"}]},
        ]
        for doc in bad:
            fd, path = tempfile.mkstemp(suffix=".json")
            with os.fdopen(fd, "w") as f:
                f.write(doc if isinstance(doc, str) else json.dumps(doc))
            self.addCleanup(os.unlink, path)
            with self.subTest(doc), self.assertRaises(ValueError):
                experiment.load_scenario(path)


class CheckTest(unittest.TestCase):
    def sysctls(self, **values):
        d = tempfile.mkdtemp()
        self.addCleanup(lambda: [os.unlink(os.path.join(d, f)) for f in os.listdir(d)]
                        or os.rmdir(d))  # fmt: skip
        for k, v in values.items():
            with open(os.path.join(d, k), "w") as f:
                f.write(v + "\n")
        return d

    def test_pm_problems(self):
        self.assertIn("no MPTCP", pmcheck.pm_problem("/nonexistent"))
        self.assertIn("disabled", pmcheck.pm_problem(self.sysctls(enabled="0")))
        self.assertIn("pm_type=1", pmcheck.pm_problem(self.sysctls(enabled="1", pm_type="0")))
        d = self.sysctls(enabled="1", pm_type="0", path_manager="kernel")
        self.assertIn("'kernel'", pmcheck.pm_problem(d))
        self.assertIsNone(pmcheck.pm_problem(self.sysctls(enabled="1", pm_type="1")))
        d = self.sysctls(enabled="1", pm_type="1", path_manager="userspace")
        self.assertIsNone(pmcheck.pm_problem(d))

    def test_capability(self):
        d = self.sysctls(status="Name:\tx\nCapEff:\t0000000000001000\n")
        self.assertTrue(pmcheck.has_net_admin(os.path.join(d, "status")))
        d = self.sysctls(status="Name:\tx\nCapEff:\t0000000000000400\n")
        self.assertFalse(pmcheck.has_net_admin(os.path.join(d, "status")))


class RefusalTest(unittest.TestCase):
    """require_userspace_pm: one line on stderr and exit code 2 for each missing piece."""

    def refusal(self, problem=None, admin=True, pm_error=None):
        saved = pmcheck.pm_problem, pmcheck.has_net_admin, pmcheck.genl.MptcpPm

        class Pm:
            def __init__(self):
                if pm_error is not None:
                    raise pm_error

            def close(self):
                pass

        pmcheck.pm_problem, pmcheck.has_net_admin = (lambda: problem), (lambda: admin)
        pmcheck.genl.MptcpPm = Pm
        err = io.StringIO()
        try:
            with contextlib.redirect_stderr(err):
                pmcheck.require_userspace_pm("pcdcd")
        except SystemExit as e:
            self.assertEqual(e.code, 2)
            self.assertEqual(len(err.getvalue().splitlines()), 1)
            return err.getvalue()
        finally:
            pmcheck.pm_problem, pmcheck.has_net_admin, pmcheck.genl.MptcpPm = saved
        return None

    def test_each_refusal(self):
        self.assertIsNone(self.refusal())
        self.assertIn(
            "not 1 (userspace)", self.refusal(problem="net.mptcp.pm_type is 0, not 1 (userspace)")
        )
        self.assertIn("CAP_NET_ADMIN", self.refusal(admin=False))
        missing = pmcheck.genl.FamilyMissing("mptcp_pm")
        self.assertIn("family mptcp_pm missing", self.refusal(pm_error=missing))


class CommandLineTest(unittest.TestCase):
    def exit_code(self, parse, argv):
        err = io.StringIO()
        with contextlib.redirect_stderr(err), self.assertRaises(SystemExit) as cm:
            parse(argv)
        self.assertEqual(len(err.getvalue().strip().splitlines()) >= 1, True)
        return cm.exception.code

    def test_bad_flags_exit_2(self):
        cases = [
            (pcdcd.parse_args, ["--mode", "roundrobin"]),
            (pcdcd.parse_args, ["--probe", "10.0.0.1"]),
            (pcdcd.parse_args, ["--probe", "10.0.0.x", "--probe-port", "5"]),
            (pcdcd.parse_args, ["--probe", "10.0.0.1", "--probe-port", "70000"]),
            (pcdcd.parse_args, ["--poll", "0"]),
            (pcdcd.parse_args, ["--announce-wait", "-1"]),
            (pcdcd.parse_args, ["--table", "/nonexistent.json"]),
            (pcdcd.parse_args, ["--local", "eth0"]),
            (impact.parse_args, ["measure", "--server", "10.0.0.1", "--port", "0"]),
            (impact.parse_args, ["measure", "--server", "a.b", "--port", "5"]),
            (impact.parse_args, ["measure", "--server", "10.0.0.1,10.0.0.1", "--port", "5"]),
            (impact.parse_args, ["measure", "--server", "10.0.0.1", "--port", "5", "--T", "0"]),
            (transfer.parse_args, ["get", "--connect", "10.0.0.1", "--size", "5"]),
            (transfer.parse_args, ["get", "--connect", "10.0.0.1:5", "--size", "0"]),
            (transfer.parse_args, ["get", "--connect", "10.0.0.1:5"]),
            (experiment.parse_args, ["--out", "x"]),
            (experiment.parse_args, ["--out", "x", "--host-smoke", "--modes", "pcdc,roundrobin"]),
            (experiment.parse_args, ["--out", "x", "--host-smoke", "--sizes", "128,big"]),
            (experiment.parse_args, ["--out", "x", "--host-smoke", "--cc", "cu bic"]),
            (experiment.parse_args, ["--out", "x", "--host-smoke", "--probe-port", "5201"]),
            (experiment.parse_args, ["--out", "x", "--host-smoke", "--table", "/nonexistent"]),
            (experiment.parse_args, ["--out", "x", "--scenario", "/nonexistent.json"]),
            (experiment.parse_args, ["--out", "x", "--scenario", "s.json", "--server", "1.2.3.4"]),
        ]
        for parse, argv in cases:
            with self.subTest(argv):
                self.assertEqual(self.exit_code(parse, argv), 2)

    def test_good_flags(self):
        a = pcdcd.parse_args(["--mode", "fullmesh", "--probe", "10.0.0.1", "--probe-port", "5"])
        self.assertEqual((a.mode, a.probes, a.probe_port), ("fullmesh", ["10.0.0.1"], 5))


if __name__ == "__main__":
    unittest.main()
