"""mpqoe.floodlight without Floodlight: the properties it writes, the jar checks, the start-up
error, and prepare_network's steps against a fake REST API (no root, no Java)."""

import json
import os
import tempfile
import unittest
import zipfile

from mpqoe import floodlight as fl

MOD = "org.mpqoe.floodlight.MpqoeModule"
TEMPLATE = f"""# example
floodlight.modules=\\
net.floodlightcontroller.core.internal.FloodlightProvider,\\
{MOD}
org.sdnplatform.sync.internal.SyncManager.port=6642
net.floodlightcontroller.core.internal.OFSwitchManager.openFlowPort=6653
net.floodlightcontroller.restserver.RestApiServer.httpPort=8080
{MOD}.topology=compuserve
{MOD}.servers=
{MOD}.algorithm=ga
{MOD}.idleTimeoutS=10
{MOD}.segmentRouting=false
"""
DESCRIPTOR = {
    "name": "t",
    "switches": [{"name": "a"}, {"name": "b"}],
    "links": [{"a": "a", "b": "b"}],
    "hosts": [
        {"name": "c1", "role": "client", "interfaces": [{"ip": "10.0.1.2", "switch": "a"}]},
        {
            "name": "server",
            "role": "server",
            "interfaces": [{"ip": "10.0.1.1", "switch": "b"}, {"ip": "10.0.2.1", "switch": "b"}],
        },
    ],
}


def props_dict(text):
    """{key: value} of the single-line properties, and every key's count."""
    out, count = {}, {}
    for line in text.splitlines():
        if "=" in line and not line.startswith("#") and not line.endswith("\\"):
            k, v = line.split("=", 1)
            out[k] = v
            count[k] = count.get(k, 0) + 1
    return out, count


class Jars:
    """A work directory with a fake Floodlight jar and a fake module jar (zipfile)."""

    def __init__(self):
        self.dir = tempfile.TemporaryDirectory()
        d = self.dir.name
        self.fl = self.zip("floodlight.jar", {fl.MAIN_CLASS: b"\xca\xfe"})
        self.module = self.zip("mpqoe-floodlight.jar", {fl.PROPS: TEMPLATE.encode()})
        self.descriptor = os.path.join(d, "d.json")
        with open(self.descriptor, "w") as f:
            json.dump(DESCRIPTOR, f)

    def zip(self, name, members):
        path = os.path.join(self.dir.name, name)
        with zipfile.ZipFile(path, "w") as z:
            for k, v in members.items():
                z.writestr(k, v)
        return path

    def path(self, name):
        return os.path.join(self.dir.name, name)


class PropertiesTest(unittest.TestCase):
    def setUp(self):
        self.jars = Jars()
        self.addCleanup(self.jars.dir.cleanup)

    def make(self, settings=None):
        text = fl.template(self.jars.module)
        self.assertEqual(text, TEMPLATE)
        return fl.properties(text, self.jars.descriptor, "fd-bw", 40001, 40002, 40003, settings)

    def test_ports_descriptor_servers_algorithm(self):
        text = self.make()
        p, count = props_dict(text)
        self.assertEqual(
            p["net.floodlightcontroller.core.internal.OFSwitchManager.openFlowPort"], "40001"
        )
        self.assertEqual(p["net.floodlightcontroller.restserver.RestApiServer.httpPort"], "40002")
        self.assertEqual(p["org.sdnplatform.sync.internal.SyncManager.port"], "40003")
        self.assertEqual(p[f"{MOD}.topology"], os.path.abspath(self.jars.descriptor))
        self.assertEqual(p[f"{MOD}.servers"], "10.0.1.1,10.0.2.1")
        self.assertEqual(p[f"{MOD}.algorithm"], "fd-bw")
        self.assertEqual(p[f"{MOD}.idleTimeoutS"], "10")  # the example's, untouched
        self.assertEqual(set(count.values()), {1})
        # The multi-line module list and the comments are kept as they are.
        self.assertIn(f"FloodlightProvider,\\\n{MOD}\n", text)
        self.assertTrue(text.startswith("# example\n"))

    def test_settings_replace_append_and_override(self):
        text = self.make({"idleTimeoutS": 60, "statsIntervalS": 1, "segmentRouting": True})
        p, count = props_dict(text)
        self.assertEqual(p[f"{MOD}.idleTimeoutS"], "60")
        self.assertEqual(p[f"{MOD}.statsIntervalS"], "1")  # not in the example: appended
        self.assertEqual(p[f"{MOD}.segmentRouting"], "true")  # as Java reads a boolean
        self.assertEqual(set(count.values()), {1})
        p, _ = props_dict(self.make({"topology": "", "algorithm": "none"}))
        self.assertEqual(p[f"{MOD}.topology"], "")
        self.assertEqual(p[f"{MOD}.algorithm"], "none")

    def test_set_prop(self):
        self.assertEqual(fl.set_prop("a.b=1\na.bc=2\n", "a.b", 3), "a.b=3\na.bc=2\n")
        self.assertEqual(fl.set_prop("a.b = 1", "a.b", 3), "a.b=3")
        self.assertEqual(fl.set_prop("x=1", "a.b", "c\\d"), "x=1\na.b=c\\\\d\n")
        self.assertEqual(fl.set_prop("x=1\n", "a.b", False), "x=1\na.b=false\n")


class RequireJarsTest(unittest.TestCase):
    def setUp(self):
        self.jars = Jars()
        self.addCleanup(self.jars.dir.cleanup)

    def error(self, floodlight_jar, module_jar):
        with self.assertRaises(ValueError) as cm:
            fl.require_jars(floodlight_jar, module_jar)
        msg = str(cm.exception)
        self.assertNotIn("\n", msg)
        return msg

    def test_good_jars(self):
        self.assertIsNone(fl.require_jars(self.jars.fl, self.jars.module))

    def test_missing_floodlight_jar(self):
        missing = self.jars.path("nope.jar")
        msg = self.error(missing, self.jars.module)
        self.assertIn(f"Floodlight jar {missing}: no such file", msg)
        self.assertNotIn("mvn", msg)
        self.assertIn("no Floodlight jar given", self.error(None, self.jars.module))
        self.assertIn("no such file", self.error(self.jars.dir.name, self.jars.module))

    def test_missing_module_jar_says_how_to_build_it(self):
        missing = self.jars.path("target/mpqoe-floodlight.jar")
        msg = self.error(self.jars.fl, missing)
        self.assertIn(f"mpqoe module jar {missing}: no such file", msg)
        self.assertIn(f"mvn -Dfloodlight.jar={self.jars.fl} -pl floodlight-module/floodlight", msg)
        self.assertIn("docs/floodlight.md", msg)

    def test_not_a_jar_or_the_wrong_one(self):
        text = self.jars.path("x.jar")
        with open(text, "w") as f:
            f.write("not a zip")
        self.assertIn("not a jar", self.error(text, self.jars.module))
        self.assertIn(f"has no {fl.MAIN_CLASS}", self.error(self.jars.module, self.jars.module))
        self.assertIn(f"has no {fl.PROPS}", self.error(self.jars.fl, self.jars.fl))

    @unittest.skipIf(os.geteuid() == 0, "root reads any file")
    def test_unreadable(self):
        os.chmod(self.jars.fl, 0)
        self.assertIn("not readable", self.error(self.jars.fl, self.jars.module))

    def test_enter_with_a_missing_jar_changes_nothing(self):
        log = self.jars.path("run/floodlight.log")
        c = fl.Floodlight(
            self.jars.descriptor, "ga", 1, 2, log, self.jars.path("nope.jar"), self.jars.module
        )
        with self.assertRaises(ValueError):
            c.__enter__()
        self.assertFalse(os.path.exists(os.path.dirname(log)))
        self.assertFalse(c.service.alive())


class FirstErrorTest(unittest.TestCase):
    def test_exception_line_before_error_line(self):
        log = (
            "22:38:21.555 INFO  [n.f.f.Forwarding] Flows will be removed\n"
            "22:38:21.573 ERROR [n.f.core.Main] Exception in main\n"
            "net.floodlightcontroller.core.module.FloodlightModuleException: mpqoe: unknown"
            " parameter 'idleTimeout'\n"
            "\tat org.mpqoe.floodlight.MpqoeModule.init(MpqoeModule.java:175)\n"
        )
        self.assertTrue(fl.first_error(log).endswith("mpqoe: unknown parameter 'idleTimeout'"))
        self.assertIn("Exception in main", fl.first_error(log.replace("FloodlightModuleEx", "x")))
        self.assertIsNone(fl.first_error("INFO all well\n"))


class FakeRest:
    """GET /wm/mpqoe/topology answers from a list (the last one repeats); records POSTs."""

    def __init__(self, *topologies):
        self.topologies, self.posts = list(topologies), []

    def get(self, path, timeout=5):
        assert path == "/wm/mpqoe/topology", path
        return self.topologies.pop(0) if len(self.topologies) > 1 else self.topologies[0]

    def request(self, method, path, body=None, timeout=5):
        self.posts.append((method, path))


LINKS = {"links": [{"a": "a", "b": "b"}, {"a": "b", "b": "c"}], "mismatches": []}


class PrepareNetworkTest(unittest.TestCase):
    def pings(self, *answers):
        calls = []

        def ping():
            calls.append(1)
            return answers[len(calls) - 1]

        return ping, calls

    def test_waits_for_the_links_then_pings(self):
        rest = FakeRest({"links": []}, {"links": LINKS["links"][:1]}, LINKS)
        ping, calls = self.pings([])
        done = fl.prepare_network(rest, ping, 2, timeout=5, settle_s=0)
        self.assertEqual(done["failed_first"], [])
        self.assertFalse(done["recomputed"])
        self.assertEqual((len(calls), rest.posts), (1, []))
        self.assertEqual(rest.topologies, [LINKS])  # asked until the links were there

    def test_failed_pings_force_a_recompute_once(self):
        rest = FakeRest(LINKS)
        ping, calls = self.pings(["c1-eth1"], [])
        done = fl.prepare_network(rest, ping, 2, timeout=0, settle_s=0)
        self.assertEqual(done["failed_first"], ["c1-eth1"])
        self.assertTrue(done["recomputed"])
        self.assertEqual(rest.posts, [("POST", fl.FORCE_RECOMPUTE)])
        self.assertEqual(len(calls), 2)

    def test_pings_failing_twice(self):
        ping, _ = self.pings(["c1-eth1", "c1-eth2"], ["c1-eth2"])
        with self.assertRaisesRegex(RuntimeError, r"failed from \['c1-eth2'\]"):
            fl.prepare_network(FakeRest(LINKS), ping, 2, timeout=0, settle_s=0)

    def test_links_missing_or_mismatched(self):
        ping, calls = self.pings([])
        with self.assertRaisesRegex(RuntimeError, "1 of 2 links"):
            fl.prepare_network(FakeRest({"links": [{}]}), ping, 2, timeout=0, settle_s=0)
        bad = dict(LINKS, mismatches=[{"kind": "EXTRA_LINK", "message": "x"}])
        with self.assertRaisesRegex(RuntimeError, "EXTRA_LINK"):
            fl.prepare_network(FakeRest(bad), ping, 2, timeout=0, settle_s=0)
        self.assertEqual(calls, [])  # no ping before mpqoe knows the network


if __name__ == "__main__":
    unittest.main()
