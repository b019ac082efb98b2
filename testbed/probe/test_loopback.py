"""Integration test: vprobe server and client as real processes over two MPTCP subflows.

Two network namespaces joined by two veth pairs, each shaped by tbf on the server's side (the
data direction); the server announces its second address (`ip mptcp endpoint ... signal`), so
the client joins a second subflow over the second pair. Runs on the host kernel (MPTCP, tbf; no
netem needed), as root. No scheduler module can be loaded there, so the JSON must carry
scheduler = null with a reason. Namespaces are named vpt<pid>{c,s} and removed in any case.

    run 1: file mode, 2 x 4 Mbit/s, 6 s of 5.24 Mbit/s video -> complete, no discards, no
           underflow, the client reading paced by playback
    run 2: file mode, 2 x 1.5 Mbit/s (below the video rate), 4 s -> complete, underflows > 0
    run 3: live mode, 2 x 1.5 Mbit/s, 4 s -> complete, underflows > 0, the server falls behind
"""

import atexit
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
VPROBE = os.path.join(HERE, "vprobe.py")
PREFIX = f"vpt{os.getpid()}"
NS_C, NS_S = PREFIX + "c", PREFIX + "s"
PORT = 5000
SERVER = "10.231.1.2"


def sh(cmd, ns=None, check=True):
    """Run a command line (split on blanks), in namespace ns if given."""
    argv = (["ip", "netns", "exec", ns] if ns else []) + cmd.split()
    r = subprocess.run(argv, capture_output=True, text=True, timeout=30)
    if check and r.returncode != 0:
        raise RuntimeError(f"{cmd}: {r.stderr.strip()}")
    return r


def shape(rate):
    for dev in ("s0", "s1"):
        sh(f"tc qdisc replace dev {dev} root tbf rate {rate} burst 16kb latency 100ms", NS_S)


def setup_namespaces():
    sh(f"ip netns add {NS_C}")
    sh(f"ip netns add {NS_S}")
    for k in (0, 1):
        sh(f"ip link add c{k} netns {NS_C} type veth peer name s{k} netns {NS_S}")
        sh(f"ip -n {NS_C} addr add 10.231.{k + 1}.1/24 dev c{k}")
        sh(f"ip -n {NS_S} addr add 10.231.{k + 1}.2/24 dev s{k}")
        sh(f"ip -n {NS_C} link set c{k} up")
        sh(f"ip -n {NS_S} link set s{k} up")
    for ns in (NS_C, NS_S):
        sh(f"ip -n {ns} link set lo up")
        sh("sysctl -q -w net.mptcp.enabled=1", ns)
        sh(f"ip -n {ns} mptcp limits set subflows 2 add_addr_accepted 2")
    # the server announces its second address; the client joins it over the second pair
    sh(f"ip -n {NS_S} mptcp endpoint add 10.231.2.2 dev s1 signal")


def teardown_namespaces():
    """Kill what still runs in our namespaces and delete them (the veths go with them)."""
    for ns in (NS_C, NS_S):
        for pid in sh(f"ip netns pids {ns}", check=False).stdout.split():
            subprocess.run(["kill", "-9", pid], check=False)
        sh(f"ip netns del {ns}", check=False)


def _exit_on_sigterm(signum, frame):
    sys.exit(128 + signum)  # runs the atexit teardown


@unittest.skipIf(os.geteuid() != 0, "needs root (network namespaces)")
class TwoSubflowTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="vprobe-test-")
        atexit.register(teardown_namespaces)
        signal.signal(signal.SIGTERM, _exit_on_sigterm)
        try:
            setup_namespaces()
        except BaseException:
            teardown_namespaces()
            raise

    @classmethod
    def tearDownClass(cls):
        teardown_namespaces()
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def stream(self, name, duration, rate, mode="file"):
        shape(rate)
        out = os.path.join(self.tmp, f"{name}.json")
        # no --bind: joins arrive at the second address, which a listener bound to the first
        # one would not see
        server = f"server --mode {mode} --port {PORT} --duration {duration} --timeout 30".split()
        client = f"client --mode {mode} --connect {SERVER}:{PORT} --timeout 20 --out {out}"
        client += f" --label {name}"
        srv = subprocess.Popen(
            ["ip", "netns", "exec", NS_S, sys.executable, VPROBE, *server],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        try:
            cli = subprocess.run(
                ["ip", "netns", "exec", NS_C, sys.executable, VPROBE, *client.split()],
                capture_output=True,
                text=True,
                timeout=duration * 4 + 30,
            )
            srv_out, srv_err = srv.communicate(timeout=30)
        finally:
            if srv.poll() is None:
                srv.kill()
                srv.wait()
        self.assertEqual(cli.returncode, 0, cli.stderr)
        self.assertEqual(srv.returncode, 0, srv_err)
        with open(out) as f:
            doc = json.load(f)
        self.assertEqual(json.loads(srv_out), doc["server"])
        return doc

    def check_consistent(self, doc, frames, mode="file"):
        self.assertEqual(doc["schema"], "mpqoe-vprobe/2")
        self.assertEqual((doc["config"]["mode"], doc["server"]["mode"]), (mode, mode))
        if mode == "file":
            self.assertEqual(doc["http"]["status"], 200)
        self.assertTrue(doc["complete"])
        self.assertIsNone(doc["error"])
        self.assertEqual(doc["frames"]["expected"], frames)
        self.assertEqual(doc["frames"]["received"], frames)
        self.assertEqual(doc["frames"]["bytes"], doc["server"]["bytes_sent"])
        self.assertEqual(doc["frames"]["displayed"] + doc["picture_discards"], frames)
        self.assertGreater(doc["stream_bytes"], doc["frames"]["bytes"])
        subflows = doc["subflows"]
        self.assertEqual(len(subflows), 2, (subflows, doc["mptcp_counters"]))
        self.assertEqual(sorted(s["id"] for s in subflows), [1, 2])
        self.assertEqual(
            sorted(s["remote"].split(":")[0] for s in subflows), ["10.231.1.2", "10.231.2.2"]
        )
        for s in subflows:
            self.assertGreater(s["bytes_received"], 0, s)
            self.assertTrue(s["series"], s)
            self.assertAlmostEqual(s["mean_bps"], s["bytes_received"] * 8 / doc["duration_s"], -2)
        self.assertGreaterEqual(sum(s["bytes_received"] for s in subflows), doc["stream_bytes"])
        self.assertEqual(doc["mptcp_counters"].get("MPJoinSynAckRx"), 1, doc["mptcp_counters"])
        self.assertGreaterEqual(doc["out_of_order"]["mptcp_ofo_queue"], 0)
        self.assertGreaterEqual(doc["out_of_order"]["subflow_rcv_ooopack"], 0)
        u = doc["buffer_underflows"]
        self.assertEqual(u["count"], len(u["durations_s"]))
        self.assertAlmostEqual(u["total_s"], sum(u["durations_s"]), 5)
        server = doc["server"]
        self.assertTrue(server["mptcp"])
        self.assertEqual(server["scheduler"], "default")
        self.assertIsNone(doc["scheduler"])
        self.assertIn("/proc/net/mpqoe_default missing", doc["scheduler_reason"])
        self.assertEqual(len(server["subflows"]), 2)
        self.assertGreaterEqual(
            sum(s["bytes_acked"] for s in server["subflows"]), server["bytes_sent"]
        )

    def test_1_unconstrained_two_paths(self):
        doc = self.stream("free", 6, "4mbit")
        self.check_consistent(doc, 180)
        self.assertEqual(doc["picture_discards"], 0)
        self.assertEqual(doc["buffer_underflows"]["count"], 0)
        # 1 s of video over 8 Mbit/s: 0.65 s at line rate, more in slow start and before the
        # second subflow joins (measured 1.0-1.2 s)
        self.assertGreater(doc["startup_delay_s"], 0.5)
        self.assertLess(doc["startup_delay_s"], 2.0)
        # the server hands the file to the socket ahead of playback, as far as the read-ahead
        # and the kernel's buffers let it (measured 2.9 s; a live source takes 5.97 s)
        self.assertLess(doc["server"]["send_duration_s"], 4.5)
        # the reader keeps 1 s (+ one read) ahead of playback, so the trailer comes about 1 s
        # before the end of playback
        r = doc["reader"]
        self.assertLessEqual(r["max_ahead_s"], 1.0 + 4 / 30 + 1e-6)
        self.assertGreater(r["paused_s"], 2.0)
        self.assertGreater(doc["duration_s"], doc["startup_delay_s"] + 4.5)
        # measured in file mode too (slow start may hold the first writes back a little)
        self.assertGreaterEqual(doc["server"]["frames_sent_late"], 0)
        self.assertLess(doc["server"]["max_send_lag_s"], 2.0)

    def test_2_constrained_below_the_video_rate(self):
        doc = self.stream("slow", 4, "1500kbit")
        self.check_consistent(doc, 120)
        self.assertGreater(doc["buffer_underflows"]["count"], 0)
        # 4 s of 5.24 Mbit/s over 3 Mbit/s take about 7 s to arrive: the player, which buffered
        # 1 s, must have stalled for most of the 3 s difference
        u = doc["buffer_underflows"]
        self.assertGreater(u["total_s"], 1.0)
        played = doc["startup_delay_s"] + 4 + u["total_s"]
        self.assertGreater(played, doc["duration_s"] - 0.5)

    def test_3_live_mode_constrained(self):
        doc = self.stream("live", 4, "1500kbit", mode="live")
        self.check_consistent(doc, 120, mode="live")
        self.assertIsNone(doc["http"])
        self.assertEqual(doc["reader"]["paused_s"], 0.0)
        self.assertGreater(doc["buffer_underflows"]["count"], 0)
        self.assertGreater(doc["buffer_underflows"]["total_s"], 1.0)
        self.assertGreater(doc["server"]["frames_sent_late"], 0)


if __name__ == "__main__":
    unittest.main()
