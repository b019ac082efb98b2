"""The Python side of the cross-language contracts, checked against what the Java code makes
(`bin/mpqoe contract`): the rule cookie layout (org.mpqoe.core.control.Cookies) and the DPIDs and
OpenFlow port numbers that TopologyLoader assigns to each embedded descriptor, which
mpqoe.topo.port_plan must reproduce (Mininet builds the ports the controller installs rules for).
"""

import json
import os
import subprocess
import unittest

from mpqoe import cookies
from mpqoe import topo as mq

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
MPQOE = os.path.join(ROOT, "bin", "mpqoe")
U64 = (1 << 64) - 1
_FIXTURE = []


def fixture():
    """`bin/mpqoe contract` output, run once per test process."""
    if not _FIXTURE:
        r = subprocess.run([MPQOE, "contract"], capture_output=True, text=True, timeout=900)
        if r.returncode != 0:
            raise AssertionError(f"bin/mpqoe contract failed ({r.returncode}): {r.stderr[-500:]}")
        _FIXTURE.append(json.loads(r.stdout))
    return _FIXTURE[0]


class CookieContractTest(unittest.TestCase):
    def setUp(self):
        self.java = fixture()["cookies"]

    def test_app_and_kinds(self):
        self.assertEqual(self.java["app"] & U64, cookies.APP)
        self.assertEqual(self.java["appMask"] & U64, cookies.APP_MASK)
        self.assertEqual(self.java["kinds"], cookies.KINDS)

    def test_field_layout(self):
        decoders = {
            "kind": lambda c: cookies.kind(cookies.APP | c),
            "connection": cookies.connection,
            "generation": cookies.generation,
            "subflow": cookies.subflow,
        }
        self.assertEqual(set(self.java["fields"]), set(decoders))
        for name, f in self.java["fields"].items():
            ones = ((1 << f["bits"]) - 1) << f["shift"]
            with self.subTest(field=name):
                self.assertEqual(decoders[name](ones), (1 << f["bits"]) - 1)
                # the bits just outside the field are not read as part of it
                outside = (1 << (f["shift"] + f["bits"])) | ((1 << f["shift"]) >> 1)
                self.assertEqual(decoders[name](outside & U64), 0)

    def test_samples_decode_as_in_java(self):
        self.assertGreaterEqual(len(self.java["samples"]), 4)
        for s in self.java["samples"]:
            c = s["cookie"] & U64
            with self.subTest(cookie=hex(c)):
                self.assertEqual(cookies.is_ours(c), s["ours"])
                self.assertEqual(cookies.kind(c), s["kind"])
                self.assertEqual(cookies.connection(c), s["connection"])
                self.assertEqual(cookies.generation(c), s["generation"])
                self.assertEqual(cookies.subflow(c), s["subflow"])

    def test_connection_mask_covers_app_kind_connection(self):
        mask = self.java["connectionMask"] & U64
        sample = self.java["samples"][1]["cookie"] & U64
        self.assertEqual(cookies.generation(sample & mask), 0)
        self.assertEqual(cookies.subflow(sample & mask), 0)
        self.assertEqual(cookies.connection(sample & mask), cookies.connection(sample))


class PortPlanContractTest(unittest.TestCase):
    def test_every_embedded_descriptor(self):
        plans = fixture()["topologies"]
        self.assertGreaterEqual(len(plans), 3, [p["ref"] for p in plans])
        for java in plans:
            with self.subTest(topology=java["ref"]):
                self.check(java)

    def check(self, java):
        d = mq.load_descriptor(java["ref"])
        self.assertEqual(mq.switch_dpids(d), {s["name"]: s["dpid"] for s in java["switches"]})
        plan = mq.port_plan(d)
        for link in java["links"]:
            a = next(p for p in plan[link["a"]] if p.kind == "link" and p.index == link["index"])
            b = next(p for p in plan[link["b"]] if p.kind == "link" and p.index == link["index"])
            self.assertEqual((a.port, a.peer, a.peer_port), (link["portA"], link["b"], b.port))
            self.assertEqual((b.port, b.peer, b.peer_port), (link["portB"], link["a"], a.port))
        for h in java["hosts"]:
            for i, itf in enumerate(h["interfaces"]):
                p = next(
                    p
                    for p in plan[itf["switch"]]
                    if p.kind == "host" and p.peer == h["name"] and p.peer_port == i
                )
                self.assertEqual(p.port, itf["port"], f"{h['name']} interface {i}")
        # nothing more in the Python plan than Java numbered
        n_java = 2 * len(java["links"]) + sum(len(h["interfaces"]) for h in java["hosts"])
        self.assertEqual(sum(len(v) for v in plan.values()), n_java)


if __name__ == "__main__":
    unittest.main()
