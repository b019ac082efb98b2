"""session.py's pure helpers against a fake guest agent (no guest, no network)."""

import json
import os
import tempfile
import time
import unittest
from unittest import mock

import session


class FakeAgent:
    """Answers `sockets` from a list of states, one per call; `kill` empties the state."""

    def __init__(self, states, killable=True):
        self.states, self.killable, self.calls = list(states), killable, []

    def call(self, cmd, **kw):
        self.calls.append((cmd, kw))
        assert cmd == "sockets"
        if kw.get("kill") and self.killable:
            self.states = [{}]
        state = self.states[0] if len(self.states) == 1 else self.states.pop(0)
        return {"ok": True, "open": state}


class WaitClosed(unittest.TestCase):
    def setUp(self):
        patcher = mock.patch.object(session.time, "sleep")  # no real waiting
        patcher.start()
        self.addCleanup(patcher.stop)

    def test_nothing_open_returns_at_once(self):
        agent = FakeAgent([{}])
        out = session.wait_closed(agent, kill=True)
        self.assertEqual((out["open"], out["killed"]), ({}, {}))
        self.assertEqual(len(agent.calls), 1)

    def test_waits_until_the_connections_closed(self):
        agent = FakeAgent([{"server": 2}, {"server": 1}, {}])
        out = session.wait_closed(agent, timeout=60, kill=True)
        self.assertEqual((out["open"], out["killed"]), ({}, {}))
        self.assertEqual([kw for _c, kw in agent.calls], [{}, {}, {}])

    def test_kills_what_outlives_the_timeout(self):
        agent = FakeAgent([{"server": 1, "c2": 1}])
        with mock.patch.object(session.time, "monotonic", side_effect=[0.0, 0.0, 30.0, 30.0]):
            out = session.wait_closed(agent, timeout=20, kill=True)
        self.assertEqual(out["killed"], {"server": 1, "c2": 1})
        self.assertEqual(out["open"], {})
        self.assertEqual(agent.calls[-1], ("sockets", {"kill": True}))

    def test_without_kill_reports_what_is_left(self):
        agent = FakeAgent([{"server": 1}])
        with mock.patch.object(session.time, "monotonic", side_effect=[0.0, 0.0, 30.0, 30.0]):
            out = session.wait_closed(agent, timeout=20)
        self.assertEqual((out["open"], out["killed"]), ({"server": 1}, {}))
        self.assertNotIn(("sockets", {"kill": True}), agent.calls)

    def test_a_kernel_that_cannot_kill_leaves_them_open(self):
        agent = FakeAgent([{"server": 1}], killable=False)
        with mock.patch.object(session.time, "monotonic", side_effect=[0.0, 0.0, 30.0, 30.0]):
            out = session.wait_closed(agent, timeout=20, kill=True)
        self.assertEqual(out["open"], {"server": 1})  # the run's check then fails on it


if __name__ == "__main__":
    unittest.main()


class PlanAgent:
    """Answers `plan` for a line of three switches: client on a, server on c."""

    def call(self, cmd, **_kw):
        assert cmd == "plan"
        return {
            "plan": {
                "a": [[1, "link", "b"], [2, "host", "cl"]],
                "b": [[1, "link", "a"], [2, "link", "c"]],
                "c": [[1, "link", "b"], [2, "host", "srv"]],
            }
        }


COOKIE, LABEL_COOKIE = 0x4D51010000010000, 0x4D51020000000000
CLIENT, SERVER = "10.0.1.11", "10.0.1.1"


def rule(table, match, actions, n=5, cookie=LABEL_COOKIE):
    return {"cookie": cookie, "table": table, "match": match, "actions": actions, "n_packets": n}


def sr_flows():
    """Segment-routed subflow a>b>c: the edges push one node label (c's 16002 up, a's 16000
    down), b pops it as the penultimate hop, the far edge delivers."""
    mpls = rule(0, {"mpls": True}, "goto_table:1")
    up = {"nw_src": CLIENT, "nw_dst": SERVER}
    down = {"nw_src": SERVER, "nw_dst": CLIENT}
    return {
        "a": [
            rule(0, up, "push_mpls:0x8847,set_field:16002->mpls_label,goto_table:1", cookie=COOKIE),
            rule(1, {"mpls": True, "mpls_label": "16002", "mpls_bos": "1"}, "output:1"),
            rule(0, {"nw_dst": CLIENT}, "output:2"),
            mpls,
        ],
        "b": [
            mpls,
            rule(
                1,
                {"mpls": True, "mpls_label": "16002", "mpls_bos": "1"},
                "pop_mpls:0x0800,output:2",
            ),
            rule(
                1,
                {"mpls": True, "mpls_label": "16000", "mpls_bos": "1"},
                "pop_mpls:0x0800,output:1",
            ),
        ],
        "c": [
            rule(
                0, down, "push_mpls:0x8847,set_field:16000->mpls_label,goto_table:1", cookie=COOKIE
            ),
            rule(1, {"mpls": True, "mpls_label": "16000", "mpls_bos": "1"}, "output:1"),
            rule(0, {"nw_dst": SERVER}, "output:2"),
            mpls,
        ],
    }


class SegmentRoutedPathCheck(unittest.TestCase):
    """The run check 'subflow packets went through exactly their assigned switches' with
    segment routing: the cookie on its two edges only, the label stacks walked to the far edge."""

    def sampler(self, path=("a", "b", "c")):
        s = session.Sampler(None, PlanAgent(), segment_routing=True)
        s.subflows[COOKIE] = {
            "client": CLIENT, "server": SERVER, "path": list(path), "connection": 1,
            "client_name": "h1",
        }  # fmt: skip
        return s

    def test_stacks_that_follow_the_path_pass(self):
        s = self.sampler()
        s.count(sr_flows())
        self.assertEqual(s.path_check(), (1, [], 0))

    def test_a_stack_that_leads_elsewhere_fails(self):
        s = self.sampler(path=("a", "x", "c"))
        s.count(sr_flows())
        good, bad, _idle = s.path_check()
        self.assertEqual(good, 0)
        self.assertIn("labels [16002] lead along ['a', 'b', 'c']", bad[0])

    def test_a_label_rule_that_forwarded_nothing_fails(self):
        flows = sr_flows()
        flows["b"][1]["n_packets"] = 0
        s = self.sampler()
        s.count(flows)
        good, bad, _idle = s.path_check()
        self.assertEqual(good, 0)
        self.assertIn("up: rules that counted nothing", bad[0])

    def test_the_cookie_beyond_its_edges_fails(self):
        flows = sr_flows()
        flows["b"].append(rule(0, {"nw_src": CLIENT}, "output:2", cookie=COOKIE))
        s = self.sampler()
        s.count(flows)
        self.assertIn("up: counted on ['a', 'b'], not its edge ['a']", s.path_check()[1][0])

    def test_an_idle_subflow_is_counted_apart(self):
        flows = sr_flows()
        for sw in ("a", "c"):
            flows[sw][0]["n_packets"] = 0
        s = self.sampler()
        s.count(flows)
        self.assertEqual(s.path_check(), (0, [], 1))


class AgentClientClosed(unittest.TestCase):
    def test_a_call_after_close_is_a_session_error(self):
        c = session.AgentClient(1)
        c.close()
        with self.assertRaisesRegex(session.SessionError, "no connection to the agent for 'flows'"):
            c.call("flows")


class DeathCause(unittest.TestCase):
    """Why the network side stopped answering, from logs as the guest writes them."""

    CONSOLE_PANIC = (
        "mpqoe-init: ready after 8.74 s\n"
        "[  599.054538] traps: PANIC: double fault, error_code: 0x0\n"
        "[  599.060070] Oops: double fault: 0000 [#1] PREEMPT SMP NOPTI\n"
        "[  599.078782] Kernel panic - not syncing: Fatal exception in interrupt\n"
    )
    CONSOLE_CLEAN = (
        "mpqoe-init: command exited with 1 after 575.53 s\n[  575.760587] sysrq: Power Off\n"
    )
    AGENT_DIED = (
        "agent: listening on 0.0.0.0:7000\n"
        "Traceback (most recent call last):\n"
        '  File "/mpqoe/testbed/video/guest_agent.py", line 459, in <module>\n'
        "    raise TimeoutExpired(\n"
        "subprocess.TimeoutExpired: Command '['ovs-ofctl', 'dump-flows', 's4']' timed out\n"
        "testbed: exit 1, guest ready after 8.74 s (guest uptime), 578.0 s in QEMU\n"
    )

    def test_a_panic_an_agent_that_died_or_only_an_exit_code(self):
        self.assertEqual(
            session.death_cause(self.CONSOLE_PANIC, self.AGENT_DIED, 1),
            "the guest's kernel panicked (Fatal exception in interrupt)",
        )
        self.assertEqual(
            session.death_cause(self.CONSOLE_CLEAN, self.AGENT_DIED, 1),
            "the guest agent died: subprocess.TimeoutExpired: Command "
            "'['ovs-ofctl', 'dump-flows', 's4']' timed out",
        )
        self.assertEqual(
            session.death_cause("", "agent: listening\n", 125), "the network side exited (125)"
        )
        self.assertIn("has not exited", session.death_cause("", "", None))


class StoppedWhileBooting(unittest.TestCase):
    """A runner stopped (SIGTERM, ^C) while its network boots leaves no process behind: the
    testbed's shell and the QEMU it started (here a shell and its sleeping child)."""

    def test_the_whole_network_side_ends(self):
        tmp = tempfile.mkdtemp(prefix="video-abort-")
        self.addCleanup(lambda: __import__("shutil").rmtree(tmp, True))
        desc = os.path.join(tmp, "d.json")
        with open(desc, "w") as f:
            json.dump({"hosts": [{"role": "client"}, {"role": "server"}]}, f)
        pids = os.path.join(tmp, "pids")
        script = os.path.join(tmp, "run")
        with open(script, "w") as f:  # like testbed/run: a shell that waits for its QEMU
            f.write(f"#!/bin/sh\nsleep 300 &\necho $$ $! > {pids}.tmp\nmv {pids}.tmp {pids}\n")
            f.write("wait\n")
        os.chmod(script, 0o755)

        def connect(*_):
            for _ in range(100):
                if os.path.exists(pids):
                    raise KeyboardInterrupt
                time.sleep(0.05)
            self.fail("the fake network side did not start")

        net = session.Network(desc, os.path.join(tmp, "content", "x"), tmp)
        with (
            mock.patch.object(session, "TESTBED_RUN", script),
            mock.patch.object(session.AgentClient, "connect", connect),
            self.assertRaises(KeyboardInterrupt),
        ):
            net.__enter__()
        with open(pids) as f:
            _shell, child = map(int, f.read().split())
        self.assertIsNotNone(net.proc.poll())  # the shell was reaped
        for _ in range(100):  # the child is reparented; it ends on the signal
            try:
                os.kill(child, 0)
            except ProcessLookupError:
                break
            time.sleep(0.05)
        else:
            os.kill(child, 9)
            self.fail(f"process {child} of the network side outlived the runner")
        self.assertTrue(net.log.closed)


class Play(unittest.TestCase):
    """play() hands the batch and the player profile to dashjs-harness/run."""

    def argv(self, **kw):
        batch = mock.Mock(clients=2, content_set="ga", video_s=60, segment_s=4)
        with (
            tempfile.TemporaryDirectory() as d,
            mock.patch.object(session.subprocess, "run") as run,
        ):
            run.return_value = mock.Mock(returncode=0)
            rc = session.play(["http://a:1", "http://b:2"], "/content/x/manifest.mpd", batch, 2,
                              d, os.path.join(d, "players.log"), **kw)  # fmt: skip
        self.assertEqual(rc, 0)
        return run.call_args[0][0]

    def test_the_player_profile_becomes_the_player_flag(self):
        argv = self.argv(player="paper")
        self.assertEqual(argv[argv.index("--player") + 1], "paper")
        self.assertEqual(argv[argv.index("--server") + 1], "http://a:1,http://b:2")

    def test_no_profile_leaves_the_harness_default(self):
        self.assertNotIn("--player", self.argv())
