"""mpqoe.topo's pure functions (descriptors, port plan, flow parsing), no root, no network."""

import os
import unittest
from unittest import mock

from mpqoe import topo as mq


def descriptor(**extra):
    """Two switches A, B (B with DPID 7), one link, a server on B and a client on A and B."""
    d = {
        "schema": 1,
        "name": "tiny",
        "switches": [{"name": "A"}, {"name": "B", "dpid": 7}],
        "links": [{"a": "A", "b": "B", "capacityMbps": 10}],
        "hosts": [
            {
                "name": "srv",
                "role": "server",
                "interfaces": [{"ip": "10.0.0.1", "mac": "02:00:00:00:00:01", "switch": "B"}],
            },
            {
                "name": "cli",
                "role": "client",
                "interfaces": [
                    {"ip": "10.0.1.2", "mac": "02:00:00:00:01:02", "switch": "A"},
                    {"ip": "10.0.2.2", "mac": "02:00:00:00:02:02", "switch": "B"},
                ],
            },
        ],
    }
    d.update(extra)
    return d


class DescriptorTest(unittest.TestCase):
    def test_dpids_and_bridge_names(self):
        d = descriptor()
        self.assertEqual(mq.switch_dpids(d), {"A": 1, "B": 7})
        self.assertEqual(mq.switch_names(d), {"A": "s1", "B": "s7"})

    def test_port_plan_links_first_then_host_interfaces_in_host_order(self):
        plan = mq.port_plan(mq.load_descriptor(descriptor()))
        self.assertEqual(
            [(p.port, p.kind, p.peer, p.peer_port) for p in plan["A"]],
            [(1, "link", "B", 1), (2, "host", "cli", 0)],
        )
        self.assertEqual(
            [(p.port, p.kind, p.peer, p.peer_port) for p in plan["B"]],
            [(1, "link", "A", 1), (2, "host", "srv", 0), (3, "host", "cli", 1)],
        )

    def test_bad_descriptors_are_refused_with_the_reason(self):
        cases = {
            "missing 'links'": {k: v for k, v in descriptor().items() if k != "links"},
            "schema 2": descriptor(schema=2),
            "switch name is repeated": descriptor(switches=[{"name": "A"}, {"name": "A"}]),
            "DPIDs must be unique": descriptor(
                switches=[{"name": "A", "dpid": 7}, {"name": "B", "dpid": 7}]
            ),
            "unknown switch 'C'": descriptor(links=[{"a": "A", "b": "C"}]),
        }
        for why, d in cases.items():
            with self.subTest(why=why), self.assertRaises(mq.MpqoeError) as e:
                mq.load_descriptor(d)
            self.assertIn(why, str(e.exception))
        with self.assertRaises(mq.MpqoeError) as e:
            mq.load_descriptor("no-such-topology")
        self.assertIn("three-path", str(e.exception))

    def test_host_on_unknown_switch(self):
        d = descriptor()
        d["hosts"][1]["interfaces"][1]["switch"] = "Z"
        with self.assertRaises(mq.MpqoeError):
            mq.port_plan(d)

    def test_generated_clients_round_robin_over_client_switches(self):
        d = descriptor(hosts=descriptor()["hosts"][:1])  # the server only
        self.assertEqual(mq.client_switches(d), ["A"])
        hosts = mq.all_hosts(d, 2)
        self.assertEqual([h["name"] for h in hosts], ["srv", "c1", "c2"])
        self.assertEqual(
            hosts[2]["interfaces"][1],
            {
                "ip": "10.0.2.12",
                "mac": "02:00:00:00:02:0c",
                "switch": "A",
            },
        )
        d["clientSwitches"] = ["B", "A"]
        self.assertEqual(
            [h["interfaces"][0]["switch"] for h in mq.all_hosts(d, 3)[1:]], ["B", "A", "B"]
        )

    def test_listed_clients_are_taken_not_generated(self):
        d = descriptor()
        self.assertEqual([h["name"] for h in mq.all_hosts(d, 1)], ["srv", "cli"])
        with self.assertRaises(mq.MpqoeError):
            mq.all_hosts(d, 2)

    def test_queue_and_flags(self):
        self.assertIsNone(mq._queue(None))
        self.assertEqual(mq._queue("50"), 50)
        for bad in ("0", "-3", "5.5", "x"):
            with self.subTest(queue=bad), self.assertRaises(mq.MpqoeError):
                mq._queue(bad)
        self.assertFalse(mq._flag("0"))
        self.assertTrue(mq._flag("yes"))


class ParseFlowsTest(unittest.TestCase):
    TEXT = (
        " cookie=0x4d51010000010001, duration=2.5s, table=0, n_packets=12, n_bytes=3400,"
        " idle_timeout=30, send_flow_rem priority=40000,tcp,in_port=3,nw_src=10.0.1.11,"
        "nw_dst=10.0.0.1,tp_src=40000,tp_dst=5001 actions=output:2\n"
        " cookie=0x0, duration=9.1s, table=1, n_packets=0, n_bytes=0,"
        " mpls,mpls_label=17,mpls_bos=1 actions=pop_mpls:0x0800,output:4\n"
        "OFPST_FLOW reply (OF1.3) (xid=0x2):\n"
    )

    def test_fields(self):
        a, b = mq.parse_flows(self.TEXT)
        self.assertEqual(a["cookie"], 0x4D51010000010001)
        self.assertEqual((a["table"], a["priority"], a["n_packets"]), (0, 40000, 12))
        self.assertEqual(a["idle_timeout"], 30)
        self.assertEqual(a["flags"], ["send_flow_rem"])
        self.assertEqual(a["match"]["tcp"], True)
        self.assertEqual(a["match"]["nw_src"], "10.0.1.11")
        self.assertEqual(a["actions"], "output:2")
        self.assertEqual((b["table"], b["priority"]), (1, 32768))
        self.assertEqual(b["match"], {"mpls": True, "mpls_label": "17", "mpls_bos": "1"})


if __name__ == "__main__":
    unittest.main()


class EnableMptcpTest(unittest.TestCase):
    """The sysctls that keep a kernel from dropping MP_CAPABLE from a slow handshake's SYN."""

    class Host:
        def __init__(self):
            self.cmds = []

        def cmd(self, line):
            self.cmds.append(line)
            return ""

    def sysctls(self, present):
        """The sysctl lines enable_mptcp runs on a kernel whose /proc/sys/net/mptcp has the
        files in present."""
        host = self.Host()
        exists = lambda p: os.path.basename(p) in present  # noqa: E731
        with mock.patch.object(mq.os.path, "exists", side_effect=exists):
            mq.enable_mptcp(host, endpoints=[])
        return [c for c in host.cmds if c.startswith("sysctl")]

    def test_linux_6_12_backs_off_exponentially(self):
        # two retransmissions 1 s apart would drop MP_CAPABLE 3 s after the SYN; 7 s this way
        self.assertIn(
            "sysctl -w net.ipv4.tcp_syn_linear_timeouts=0", self.sysctls({"blackhole_timeout"})
        )

    def test_later_kernels_set_the_fallback_itself(self):
        got = self.sysctls({"blackhole_timeout", "syn_retrans_before_tcp_fallback"})
        self.assertIn("sysctl -w net.mptcp.syn_retrans_before_tcp_fallback=10", got)
        self.assertFalse([c for c in got if "linear_timeouts" in c])

    def test_kernels_without_the_fallback_keep_their_timeouts(self):
        self.assertEqual(self.sysctls(set()), ["sysctl -w net.mptcp.enabled=1"])
