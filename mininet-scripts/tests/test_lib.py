"""mpqoe's pure functions: parsers, atomic writes, pcap handshakes, flow helpers, run
numbers (no root)."""

import contextlib
import io
import json
import os
import re
import socket
import stat
import struct
import subprocess
import tempfile
import unittest

from e2e_thresholds import pick_thr_delay, simple_path_delays, simple_path_hops
from mpqoe import checks, discovered, files, flows, kernel, network, pcap, proc, runs, sockopt

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data")
with open(os.path.join(DATA, "mpqoe_gr_sty.txt")) as _f:
    PROC = _f.read()  # three connections: closed and live on one address pair, a third
with open(os.path.join(DATA, "mpqoe_olia.txt")) as _f:
    PROC_CC = _f.read()  # a coupled control's file, as the testbed guest wrote it


class KernelParsersTest(unittest.TestCase):
    def test_mpqoe_file(self):
        header, conns = kernel.parse_mpqoe(PROC)
        self.assertEqual(
            header, {"module": "mpqoe_gr_sty", "version": "v1", "untracked_decisions": 0}
        )
        self.assertEqual(len(conns), 3)
        self.assertEqual(conns[1]["bytes"], {"1": 689936, "2": 353536, "3": 456528})
        self.assertEqual(conns[1]["start_ns"], 1795376169416848947)
        self.assertEqual(conns[1]["token"], "1da5a195")
        self.assertTrue(conns[2]["raw"].startswith("conn=4 "))

    def test_mpqoe_room_counters(self):
        line = PROC.splitlines()[2].replace(
            " no_subflow=5 ", " no_subflow=5 room_limited=120 no_room=3 "
        )
        self.assertNotEqual(line, PROC.splitlines()[2])
        c = kernel.parse_mpqoe_line(line)
        self.assertEqual((c["room_limited"], c["no_room"], c["no_subflow"]), (120, 3, 5))
        with self.assertRaises(ValueError):
            kernel.parse_mpqoe_line(line.replace("room_limited=120", "room_limited=x"))

    def test_mpqoe_malformed(self):
        for bad in (
            PROC.replace("switches=19", "switches19"),
            PROC.replace("bytes=1:689936", "bytes=1-689936"),
            PROC.replace("decisions=338", "decisions=x"),
            PROC.replace(" v1 ", " v2 "),
            "",
            "conn=1 local=a:1 remote=b:2 decisions=1 switches=0\n",
            "# mpqoe_x v1\nconn=1 local=a:1 decisions=1 switches=0\n",
        ):
            with self.subTest(bad=bad[:40]), self.assertRaises(ValueError):
                kernel.parse_mpqoe(bad)

    def test_mpqoe_coupled_control_file(self):
        header, conns = kernel.parse_mpqoe(PROC_CC)
        self.assertEqual(header["module"], "mpqoe_olia")
        c = conns[0]
        self.assertEqual((c["acks"], c["ss_acks"], c["reno_acks"]), (16190, 6965, 0))
        self.assertEqual(c["cwnd"], "1:326,2:262,3:256")
        self.assertEqual(kernel.find_connection(conns, local_port=5001)["conn"], 2)
        # a line with neither a scheduler's nor a coupled control's counters is malformed
        with self.assertRaises(ValueError):
            kernel.parse_mpqoe(PROC_CC.replace(" acks=16190 ", " "))
        with self.assertRaises(ValueError):
            kernel.parse_mpqoe(PROC_CC.replace("acks=16190", "acks=many"))

    def test_find_connection(self):
        _, conns = kernel.parse_mpqoe(PROC)
        c = kernel.find_connection(conns, "10.0.1.2:5000", "10.0.1.1:39334")
        self.assertEqual(c["conn"], 3)  # the live one, not the closed one before it
        c = kernel.find_connection(conns, "[::ffff:10.0.1.2]:5001", "10.0.1.1:40000")
        self.assertEqual(c["conn"], 4)
        self.assertEqual(kernel.find_connection(conns, local_port=5001)["conn"], 4)
        self.assertIsNone(kernel.find_connection(conns, local_port=5002))

    def test_mpqoe_in_a_host(self):
        class Host:
            def __init__(self, text):
                self.text = text

            def cmd(self, _c):
                return self.text

        header, conns, _ = kernel.mpqoe_connections(Host(PROC), "gr_sty")
        self.assertEqual((header["module"], len(conns)), ("mpqoe_gr_sty", 3))
        with self.assertRaises(ValueError) as e:
            kernel.mpqoe_connections(Host("cat: /proc/net/mpqoe_x: No such file\n"), "x")
        self.assertIn("No such file", str(e.exception))

    def test_netstat(self):
        text = "TcpExt: A B\nTcpExt: 1 2\nMPTcpExt: MPCapableSYNRX OFOQueue\nMPTcpExt: 3 17\n"
        self.assertEqual(kernel.parse_netstat(text), {"MPCapableSYNRX": 3, "OFOQueue": 17})
        self.assertEqual(kernel.parse_netstat(text, "TcpExt"), {"A": 1, "B": 2})
        self.assertEqual(kernel.parse_netstat("TcpExt: A\nTcpExt: 1\n"), {})
        with self.assertRaises(ValueError):
            kernel.parse_netstat("MPTcpExt: A B\nMPTcpExt: 1\n")
        self.assertEqual(
            kernel.counter_deltas({"A": 1, "B": 2}, {"A": 1, "B": 5, "C": 1}), {"B": 3, "C": 1}
        )

    def test_sockaddr(self):
        buf = bytearray(128)
        struct.pack_into("=H", buf, 0, socket.AF_INET)
        struct.pack_into("!H4s", buf, 2, 5000, socket.inet_aton("10.0.1.2"))
        self.assertEqual(sockopt.format_sockaddr(buf, 0), "10.0.1.2:5000")
        buf = bytearray(128)
        struct.pack_into("=H", buf, 0, socket.AF_INET6)
        struct.pack_into("!H", buf, 2, 80)
        buf[8:24] = socket.inet_pton(socket.AF_INET6, "fd00::1")
        self.assertEqual(sockopt.format_sockaddr(buf, 0), "[fd00::1]:80")
        self.assertIsNone(sockopt.format_sockaddr(bytearray(128), 0))

    def test_fields_beyond_what_the_kernel_wrote_are_left_out(self):
        buf = bytearray(96)
        struct.pack_into("=BxBB", buf, 0, 2, 3, 8)
        struct.pack_into("=I", buf, 12, 0xABCD)
        got = sockopt.decode_fields(bytes(buf), 0, 16, sockopt.MPTCP_INFO_FIELDS)
        self.assertEqual(
            got,
            {"subflows": 2, "add_addr_accepted": 3, "subflows_max": 8, "flags": 0, "token": 0xABCD},
        )


class ChecksSummaryTest(unittest.TestCase):
    def test_summary_repeats_the_failed_checks_last(self):
        t = checks.Checks()
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            t.check("first", True)
            t.check("second", False, "x" * 400)
            t.check("third", False)
            rc = t.summary("e2e", "(seed 1)")
        lines = out.getvalue().splitlines()
        self.assertEqual(rc, 1)
        self.assertTrue(lines[-3].startswith("e2e: FAILED second: xxx"), lines[-3])
        self.assertLessEqual(len(lines[-3]), 300)
        self.assertEqual(lines[-2], "e2e: FAILED third")
        self.assertTrue(lines[-1].startswith("e2e: 1 passed, 2 failed in "), lines[-1])

    def test_summary_of_a_clean_run_is_one_line(self):
        t = checks.Checks()
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            t.check("only", True)
            rc = t.summary("selftest")
        self.assertEqual(rc, 0)
        self.assertEqual(len(out.getvalue().splitlines()), 2)


class KernelHealthTest(unittest.TestCase):
    LOG = (
        "[    1.000000] Linux version 6.12.0\n"
        "[  599.100000] traps: PANIC: double fault, error_code: 0x0\n"
        "[  600.000000] WARNING: CPU: 1 PID: 9 at net/mptcp/protocol.c:1234 x+0x1/0x2\n"
        "[  601.000000] mptcp: subflow closed\n"
    )

    def test_trouble_taints_and_lines_are_picked_and_module_taints_ignored(self):
        # 4096 (O, out of tree) + 8192 (E, unsigned) + 512 (W)
        h = kernel.parse_health("12800\n", self.LOG)
        self.assertEqual((h["tainted"], h["taints"]), (12800, "W"))
        self.assertEqual(len(h["lines"]), 2)
        self.assertIn("double fault", h["lines"][0])
        self.assertEqual(kernel.parse_health("12288", self.LOG.splitlines()[0])["taints"], "")
        with self.assertRaises(ValueError):
            kernel.parse_health("x", "")

    def test_the_one_list_reads_the_same_in_python_and_in_grep(self):
        # one line per kind of report, and lines that report nothing
        lines = [
            "[ 1.0] WARNING: CPU: 0 PID: 1 at net/mptcp/sched.c:10 f+0x1/0x2",
            "[ 1.1] BUG: kernel NULL pointer dereference, address: 0000000000000008",
            "[ 1.2] Oops: int3: 0000 [#1] PREEMPT SMP NOPTI",
            "[ 1.3] Call Trace:",
            "[ 1.4] Kernel panic - not syncing: Fatal exception",
            "[ 1.5] general protection fault, probably for non-canonical address",
            "[ 1.6] traps: PANIC: double fault, error_code: 0x0",
            "[ 1.7] watchdog: BUG: soft lockup - CPU#1 stuck for 22s!",
            "[ 1.8] INFO: task kworker/0:1:9 blocked for more than 120 seconds.",
            "[ 1.9] rcu: INFO: rcu_preempt self-detected stall on CPU",
            "[ 2.0] rcu_sched detected stalls on CPUs/tasks:",
            "[ 2.1] UBSAN: shift-out-of-bounds in net/mptcp/options.c:1:2",
            "[ 2.2] KASAN: use-after-free in mptcp_subflow_get_send",
            "[ 2.3] mptcp: subflow closed",
            "[ 2.4] virtio_net virtio0 eth0: renamed",
        ]
        hits = [ln for ln in lines if kernel.TROUBLE_LINE.search(ln)]
        self.assertEqual(hits, lines[:13])
        grep = subprocess.run(
            ["grep", "-E", "-f", kernel.TROUBLE_FILE],
            input="\n".join(lines) + "\n",
            capture_output=True,
            text=True,
            check=False,
        )
        self.assertEqual(grep.stdout.splitlines(), hits, grep.stderr)
        with open(kernel.TROUBLE_FILE) as f:
            patterns = [ln.rstrip("\n") for ln in f if ln.strip()]
        for pat in patterns:
            self.assertTrue(any(re.search(pat, ln) for ln in hits), f"{pat} matches no sample")

    def test_a_change_holds_only_what_the_run_added(self):
        before = kernel.parse_health("4096", "\n".join(self.LOG.splitlines()[:2]))
        after = kernel.parse_health("4736", self.LOG)  # + W (512) + D (128)
        change = kernel.health_change(before, after)
        self.assertEqual(change["new_taints"], "DW")
        self.assertEqual([ln[:16] for ln in change["new_lines"]], ["[  600.000000] W"])


class OnlyRunsTest(unittest.TestCase):
    def test_every_run_by_default_and_the_named_ones_sorted(self):
        self.assertEqual(runs.only_runs(None, 3), [1, 2, 3])
        self.assertEqual(runs.only_runs("", 2), [1, 2])
        self.assertEqual(runs.only_runs("3, 1,3,", 5), [1, 3])

    def test_bad_lists_are_one_line(self):
        for text, want in (
            ("x", "--only-runs: want run numbers, got 'x'"),
            ("1-2", "--only-runs: want run numbers, got '1-2'"),
            ("4", "--only-runs: want numbers of 1..3"),
            ("0,1", "--only-runs: want numbers of 1..3"),
            (",", "--only-runs: want numbers of 1..3"),
        ):
            with self.subTest(text), self.assertRaises(ValueError) as e:
                runs.only_runs(text, 3)
            self.assertEqual(str(e.exception), want)


class ChunksTest(unittest.TestCase):
    def test_sizes(self):
        self.assertEqual(runs.chunks(["a", "b"], [1, 2], 0), [(("a", "b"), (1, 2))])
        self.assertEqual(
            runs.chunks(["a", "b"], [1, 2, 3], 1),
            [(("a",), (1,)), (("a",), (2,)), (("a",), (3,)), (("b",), (1,)), (("b",), (2,)),
             (("b",), (3,))],
        )  # fmt: skip
        self.assertEqual(
            runs.chunks(["a", "b"], [1, 2, 3], 4), [(("a", "b"), (1, 2)), (("a", "b"), (3,))]
        )

    def test_a_chunk_keeps_every_cell_of_its_runs(self):
        got = runs.chunks(list("abcde"), list(range(1, 11)), 40)
        self.assertEqual(got, [(tuple("abcde"), tuple(range(1, 9))), (tuple("abcde"), (9, 10))])


class AtomicWriteTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.d = self.tmp.name

    def tearDown(self):
        self.tmp.cleanup()

    def test_writes_creates_directories_and_leaves_no_temporary(self):
        path = os.path.join(self.d, "a", "b", "doc.json")
        files.write_json(path, {"b": 1, "a": [1, 2]})
        with open(path) as f:
            text = f.read()
        self.assertEqual(json.loads(text), {"a": [1, 2], "b": 1})
        self.assertTrue(text.startswith('{\n "a"') and text.endswith("}\n"), text)
        files.write_atomic(path, b"xyz")
        self.assertEqual(os.listdir(os.path.dirname(path)), ["doc.json"])
        self.assertEqual(files.read_json(path), None)  # not JSON any more
        with open(path, "rb") as f:
            self.assertEqual(f.read(), b"xyz")

    def test_mode_follows_the_umask(self):
        old = os.umask(0o027)
        try:
            path = os.path.join(self.d, "m.json")
            files.write_json(path, {})
        finally:
            os.umask(old)
        self.assertEqual(stat.S_IMODE(os.stat(path).st_mode), 0o640)

    def test_a_failed_write_keeps_the_old_file(self):
        path = os.path.join(self.d, "keep.json")
        files.write_json(path, {"v": 1})
        with self.assertRaises(TypeError):
            files.write_json(path, {"v": {1, 2}})  # a set is not JSON
        with self.assertRaises(TypeError):
            files.write_atomic(path, 42)
        self.assertEqual(files.read_json(path), {"v": 1})
        self.assertEqual(os.listdir(self.d), ["keep.json"])
        self.assertIsNone(files.read_json(os.path.join(self.d, "missing.json")))


def pcap_file(records, linktype=pcap.ETHERNET):
    out = struct.pack("<IHHiIII", 0xA1B2C3D4, 2, 4, 0, 0, 262144, linktype)
    for t, frame in records:
        sec, usec = int(t), round((t - int(t)) * 1e6)
        out += struct.pack("<IIII", sec, usec, len(frame), len(frame)) + frame
    return out


def tcp_frame(src, dst, sport, dport, seq, ack, flags, options=b""):
    options += b"\x00" * (-len(options) % 4)
    tcp = (
        struct.pack(
            "!HHIIBBHHH", sport, dport, seq, ack, (5 + len(options) // 4) << 4, flags, 65535, 0, 0
        )
        + options
    )
    ip = struct.pack(
        "!BBHHHBBH4s4s",
        0x45,
        0,
        20 + len(tcp),
        0,
        0,
        64,
        6,
        0,
        socket.inet_aton(src),
        socket.inet_aton(dst),
    )
    return b"\x02" * 6 + b"\x04" * 6 + b"\x08\x00" + ip + tcp


MP_CAPABLE = bytes([30, 4, 0x01, 0x01])  # RFC 8684 v1 SYN: subtype 0, version 1
MP_JOIN = bytes([30, 12, 0x10, 0]) + b"\x00" * 8  # subtype 1
MSS = bytes([2, 4, 5, 180])


class PcapTest(unittest.TestCase):
    def test_handshakes(self):
        c, s = "10.0.1.11", "10.0.0.1"
        recs = [
            (100.000, tcp_frame(c, s, 40000, 5001, 1000, 0, 0x02, MSS + MP_CAPABLE)),
            (100.2505, tcp_frame(s, c, 5001, 40000, 7000, 1001, 0x12, MSS + MP_CAPABLE)),
            (100.300, tcp_frame("10.0.2.11", s, 40001, 5001, 5, 0, 0x02, MP_JOIN)),
            (101.300, tcp_frame("10.0.2.11", s, 40001, 5001, 5, 0, 0x02, MP_JOIN)),
            (101.321, tcp_frame(s, "10.0.2.11", 5001, 40001, 9, 6, 0x12, MP_JOIN)),
            (102.000, tcp_frame("10.0.3.11", s, 40002, 5001, 77, 0, 0x02, MP_JOIN)),
            (102.500, tcp_frame(c, s, 40003, 5001, 3, 0, 0x02, MSS)),
            (102.509, tcp_frame(s, c, 5001, 40003, 1, 999, 0x12, MSS)),  # acks another SYN
        ]
        with tempfile.NamedTemporaryFile(suffix=".pcap") as f:
            f.write(pcap_file(recs) + b"\x01\x02")  # a cut-off record at the end
            f.flush()
            found = pcap.capture_handshakes([f.name, "/nonexistent.pcap"])
        got = [(h["kind"], h["client"], h["syns"], h["setup_ms"]) for h in found]
        self.assertEqual(
            [g[:3] for g in got],
            [
                ("MP_CAPABLE", "10.0.1.11:40000", 1),
                ("MP_JOIN", "10.0.2.11:40001", 2),
                ("MP_JOIN", "10.0.3.11:40002", 1),
                ("TCP", "10.0.1.11:40003", 1),
            ],
        )
        self.assertAlmostEqual(got[0][3], 250.5, places=3)
        self.assertAlmostEqual(got[1][3], 1021.0, places=3)  # from the first SYN
        self.assertIsNone(got[2][3])
        self.assertIsNone(got[3][3])  # a SYN/ACK for another sequence number is not its answer

    def test_lost_mptcp(self):
        c, s = "10.0.1.13", "10.0.1.1"
        mpc_ack = bytes([30, 20, 0x01, 0x01]) + b"\x00" * 16  # v1 third ACK: both keys
        dss_ack_map = bytes([30, 20, 0x20, 0x05]) + b"\x00" * 16  # A and M flags
        dss_ack = bytes([30, 8, 0x20, 0x01]) + b"\x00" * 4
        recs = [
            (10.0, tcp_frame(c, s, 50000, 8000, 100, 0, 0x02, MP_CAPABLE)),
            (10.1, tcp_frame(s, c, 8000, 50000, 900, 101, 0x12, MP_CAPABLE)),
            (10.2, tcp_frame(c, s, 50000, 8000, 101, 901, 0x10, mpc_ack)),
            (10.3, tcp_frame(s, c, 8000, 50000, 901, 101, 0x10, dss_ack)),
            (10.4, tcp_frame(s, c, 8000, 50000, 901, 101, 0x10)),  # no option: lost here
            (10.5, tcp_frame(c, s, 50000, 8000, 101, 901, 0x10)),
            # a connection that keeps MPTCP and ends with a reset without options
            (11.0, tcp_frame(c, s, 50001, 8000, 7, 0, 0x02, MP_CAPABLE)),
            (11.1, tcp_frame(s, c, 8000, 50001, 70, 8, 0x12, MP_CAPABLE)),
            (11.2, tcp_frame(c, s, 50001, 8000, 8, 71, 0x18, dss_ack_map)),
            (11.3, tcp_frame(s, c, 8000, 50001, 71, 8, 0x04)),
            # plain TCP from the start: not a loss
            (12.0, tcp_frame(c, s, 50002, 8000, 1, 0, 0x02, MSS)),
            (12.1, tcp_frame(c, s, 50002, 8000, 2, 0, 0x10)),
        ]
        with tempfile.NamedTemporaryFile(suffix=".pcap") as f:
            f.write(pcap_file(recs))
            f.flush()
            lost = pcap.lost_mptcp(pcap.capture_segments([f.name]), context=2)
        self.assertEqual([x["client"] for x in lost], ["10.0.1.13:50000"])
        first = lost[0]["first_plain"]
        self.assertEqual((first["way"], first["seq"], first["ack"], first["mptcp"]),
                         ("s>c", 1, 1, "-"))  # fmt: skip
        self.assertAlmostEqual(first["ms"], 400.0, places=3)
        self.assertEqual(
            [(b["way"], b["mptcp"]) for b in lost[0]["before"]],
            [("c>s", "MP_CAPABLE"), ("s>c", "DSS(0x01)")],
        )

    def test_not_pcap(self):
        with self.assertRaises(ValueError):
            pcap.read_pcap(b"\x00" * 40)

    def test_options_walk(self):
        self.assertEqual(pcap.mptcp_kind(MSS + b"\x01\x01" + MP_JOIN), "MP_JOIN")
        self.assertIsNone(pcap.mptcp_kind(MSS + b"\x00" + MP_CAPABLE))  # after end of list
        self.assertIsNone(pcap.mptcp_kind(b"\x02\x00\x1e\x04\x00\x01"))  # length 0: stop


class FlowsAndOvsTest(unittest.TestCase):
    def test_pushed_labels(self):
        actions = (
            "push_mpls:0x8847,set_field:17->mpls_label,push_mpls:0x8847,"
            "set_field:23->mpls_label,output:2"
        )
        self.assertEqual(flows.pushed_labels(actions), [23, 17])
        self.assertIsNone(flows.pushed_labels("output:2"))

    def test_cookie_switches_by_direction(self):
        rule = {"cookie": 5, "n_packets": 3, "match": {"nw_src": "10.0.1.11"}}
        back = {"cookie": 5, "n_packets": 0, "match": {"nw_dst": "10.0.1.11"}}
        got = flows.cookie_switches({"s1": [rule], "s2": [back]}, 5, "10.0.1.11")
        self.assertEqual(got, {"up": {"s1"}, "down": set()})
        got = flows.cookie_switches({"s1": [rule], "s2": [back]}, 5, "10.0.1.11", counted=False)
        self.assertEqual(got, {"up": {"s1"}, "down": {"s2"}})

    def test_vsctl_show(self):
        text = (
            'Bridge s1\n    Controller "tcp:127.0.0.1:6653"\n        is_connected: true\n'
            "Bridge s2\n    fail_mode: secure\n"
        )
        self.assertEqual(network.parse_connected(text), {"s1": True, "s2": False})

    def test_last_json_line(self):
        self.assertEqual(proc.last_json('noise\n{"a": 1}\n{"b": 2}\ntrailing'), {"b": 2})
        self.assertEqual(proc.last_json(None), {})


class ThrDelayTest(unittest.TestCase):
    def test_delays_of_simple_paths(self):
        d = {
            "links": [
                {"a": "A", "b": "B", "delayMs": 1},
                {"a": "B", "b": "C", "delayMs": 2},
                {"a": "A", "b": "C", "delayMs": 5},
            ]
        }
        self.assertEqual(simple_path_delays(d, "A", "C", 3), [3.0, 5.0])
        self.assertEqual(simple_path_delays(d, "A", "C", 1), [5.0])

    def test_a_client_short_of_paths_but_with_two(self):
        thr, counts = pick_thr_delay({"c1": [1, 2, 9], "c2": [4, 5, 6]}, {"c1": 3, "c2": 3})
        self.assertEqual(counts, {"c1": 2, "c2": 3})
        self.assertEqual(thr, 7.5)
        self.assertIsNone(pick_thr_delay({"c1": [1]}, {"c1": 1}))


class DiscoveredTest(unittest.TestCase):
    SPEC = [
        {"name": "srv", "role": "server", "interfaces": [{"ip": "10.0.1.1"}, {"ip": "10.0.2.1"}]},
        {"name": "c1", "role": "client", "interfaces": [{"ip": "10.0.1.11"}, {"ip": "10.0.2.11"}]},
    ]

    @staticmethod
    def host(name, role, *ips):
        return {"name": name, "role": role, "interfaces": [{"ip": ip} for ip in ips]}

    def test_hosts_matched_by_address_and_role(self):
        rest = [
            self.host("server-1", "SERVER", "10.0.1.1"),
            self.host("client-11", "CLIENT", "10.0.1.11"),
            self.host("client-12", "CLIENT", "10.0.1.12"),
            self.host("client-1", "CLIENT", "10.0.2.1"),  # the server's address, wrong role
        ]
        self.assertEqual(
            discovered.host_names(rest, self.SPEC), {"server-1": "srv", "client-11": "c1"}
        )
        self.assertEqual(discovered.missing_hosts(rest, self.SPEC, "10.0.1.1"), ["c1 (10.0.2.11)"])
        rest[1] = self.host("client-11", "CLIENT", "10.0.1.11", "10.0.2.11")
        self.assertEqual(discovered.missing_hosts(rest, self.SPEC, "10.0.1.1"), [])
        self.assertEqual(discovered.missing_hosts(rest, self.SPEC, "10.0.2.1"), ["srv (10.0.2.1)"])

    def test_rename_values_not_keys(self):
        got = discovered.rename(
            {"s1": ["s1", {"a": "s2"}], "n": 1, "x": "s3"}, {"s1": "A", "s2": "B"}
        )
        self.assertEqual(got, {"s1": ["A", {"a": "B"}], "n": 1, "x": "s3"})

    def test_hop_bound(self):
        d = {"links": [{"a": "x", "b": "y"}, {"a": "y", "b": "z"}, {"a": "x", "b": "z"}]}
        self.assertEqual(simple_path_hops(d, "x", "z", 8), [1.0, 2.0])
        self.assertEqual(pick_thr_delay({"c": [1.0, 2.0, 3.0]}, {"c": 3}), (2.5, {"c": 2}))


if __name__ == "__main__":
    unittest.main()
