"""session.py's pure helpers against a fake guest agent (no guest, no network)."""

import os
import sys
import unittest
from unittest import mock

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import session  # noqa: E402


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
