"""The guest agent's capture command, with fake Mininet hosts in place of the network: which
interfaces it captures on, that stop ends every tcpdump and moves its pcap, and that bad
input changes nothing."""

import json
import os
import shutil
import socket
import subprocess
import tempfile
import threading
import unittest
from unittest import mock

import guest_agent
from mpqoe.proc import free_port


class FakeProcess:
    def __init__(self):
        self.running = True

    def poll(self):
        return None if self.running else 0

    def terminate(self):
        self.running = False

    def wait(self, timeout=None):
        return 0


class FakeHost:
    """A Mininet host whose popen stands for tcpdump: it writes the pcap named after -w."""

    def __init__(self, name, intfs):
        self.name, self.intfs, self.started = name, intfs, []

    def popen(self, cmd, **_kw):
        with open(cmd[cmd.index("-w") + 1], "wb") as f:
            f.write(b"pcap")
        self.started.append(FakeProcess())
        return self.started[-1]


class Capture(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="agent-capture-")
        self.addCleanup(shutil.rmtree, self.tmp, True)
        capture_dir = os.path.join(self.tmp, "capture")
        for patch in (
            mock.patch.object(guest_agent, "CAPTURE_DIR", capture_dir),
            mock.patch.object(guest_agent.time, "sleep"),
        ):
            patch.start()
            self.addCleanup(patch.stop)
        self.server = FakeHost("srv", ["srv-eth0", "srv-eth1"])
        self.clients = [FakeHost(f"c{i}", [f"c{i}-eth0", f"c{i}-eth1"]) for i in (1, 2)]
        mq = mock.Mock()
        mq.host_interfaces.side_effect = lambda h: [(i, "10.0.0.1") for i in h.intfs]
        self.agent = guest_agent.Agent(mock.Mock(server_port=8080), mq)
        self.agent.server_hosts = lambda: [self.server]
        self.agent.clients = lambda: self.clients

    def test_stop_ends_every_tcpdump_and_moves_its_pcap(self):
        started = self.agent.cmd_capture({"action": "start"})
        self.assertEqual(started["capture"], ["srv-eth0", "srv-eth1", "c1-eth0", "c2-eth0"])
        dest = os.path.join(self.tmp, "run1", "capture")
        stopped = self.agent.cmd_capture({"action": "stop", "dir": dest})
        pcaps = ["c1-eth0.pcap", "c2-eth0.pcap", "srv-eth0.pcap", "srv-eth1.pcap"]
        self.assertEqual(sorted(stopped["capture"]), pcaps)
        self.assertEqual(sorted(os.listdir(dest)), pcaps)
        hosts = [self.server, *self.clients]
        self.assertFalse(any(p.running for h in hosts for p in h.started))
        # a second stop has nothing left to move
        self.assertEqual(self.agent.cmd_capture({"action": "stop", "dir": dest}), {"capture": {}})

    def test_a_relative_dir_is_refused_and_keeps_the_pcaps(self):
        self.agent.cmd_capture({"action": "start"})
        with self.assertRaisesRegex(ValueError, "absolute"):
            self.agent.cmd_capture({"action": "stop", "dir": "run1/capture"})
        dest = os.path.join(self.tmp, "later")
        self.assertEqual(len(self.agent.cmd_capture({"action": "stop", "dir": dest})["capture"]), 4)


class Serve(unittest.TestCase):
    """The command loop over a socket: a command that fails in any way answers with its error
    and the agent goes on serving."""

    def test_a_command_that_fails_does_not_end_the_agent(self):
        class Agent:
            calls = 0

            def cmd_flows(self, _cmd):
                self.calls += 1
                if self.calls == 1:
                    raise subprocess.TimeoutExpired(["ovs-ofctl", "dump-flows", "s4"], 10)
                return {"flows": {}}

        port = free_port()
        t = threading.Thread(target=guest_agent.serve, args=(Agent(), port, "127.0.0.1"))
        t.start()
        for _ in range(100):
            try:
                sock = socket.create_connection(("127.0.0.1", port), timeout=10)
                break
            except ConnectionRefusedError:
                threading.Event().wait(0.05)
        with sock, sock.makefile("rwb") as f:

            def call(**cmd):
                f.write(json.dumps(cmd).encode() + b"\n")
                f.flush()
                return json.loads(f.readline())

            first = call(cmd="flows")
            self.assertFalse(first["ok"])
            self.assertIn("TimeoutExpired", first["error"])
            self.assertEqual(call(cmd="flows"), {"ok": True, "flows": {}})
            self.assertIn("unknown command", call(cmd="nosuch")["error"])
            self.assertEqual(call(cmd="quit"), {"ok": True})
        t.join(timeout=10)
        self.assertFalse(t.is_alive())


if __name__ == "__main__":
    unittest.main()
