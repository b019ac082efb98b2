#!/usr/bin/python3
"""Unit tests of the experiment scripts (no guest, no root): matrix, routes, planning, report.

    /usr/bin/python3 -m unittest discover -s testbed/experiments -p 'test_*.py'

The routing tests build DescriptorTopo objects (pure Python, nothing is started), so they need
Mininet's Python package (Debian's python3-mininet, /usr/bin/python3).
"""

import contextlib
import io
import json
import os
import random
import tempfile
import unittest
from unittest import mock

import cellrun
import sched_report as report
import sched_run as run
from mpqoe import files, kernel, results
from mpqoe import sched_matrix as mx
from mpqoe import sched_publish as publish


class MatrixTest(unittest.TestCase):
    def test_sizes_and_names(self):
        # 6 scenarios x 5 schedulers x cubic, bbr, plus lia, olia in 3 scenarios (30);
        # 5 x 2 x cubic, bbr, plus lia, olia in the two full-mesh scenarios (8)
        self.assertEqual(len(mx.cells("sticky")), 60 + 30)
        self.assertEqual(len(mx.cells("bnaware")), 20 + 8)
        self.assertNotIn("baseline-q50.dft.lia", [c.name for c in mx.cells("sticky")])
        self.assertNotIn("B-60.dft.olia", [c.name for c in mx.cells("bnaware")])
        names = [c.name for c in mx.select("all")]
        self.assertEqual(len(names), len(set(names)))
        self.assertEqual(mx.parse_cell("3p-50.gr_sty.cubic").scheduler, "gr_sty")
        with self.assertRaises(ValueError):
            mx.parse_cell("3p-50.bnaware.cubic")

    def test_a_run_may_stall_as_long_as_its_video(self):
        self.assertEqual(mx.run_limit_s(624.0), 2 * 624 + 90)
        self.assertEqual(mx.run_limit_s(10.0), 110.0)
        cfg = mx.run_config(mx.SCENARIOS["A-1-q50"], 360.0)
        self.assertEqual((cfg["duration_s"], cfg["queue_packets"]), (360.0, 50))
        self.assertEqual((cfg["expected_subflows"], cfg["mptcp"]), (4, "fullmesh"))
        self.assertEqual(mx.run_config(mx.SCENARIOS["A-1"], 10.0)["queue_packets"], 1000)

    def test_select_patterns(self):
        got = [c.name for c in mx.select("all", "baseline.gr_sty.*,A-1.*.bbr")]
        self.assertEqual(
            got,
            ["baseline.gr_sty.cubic", "baseline.gr_sty.bbr", "baseline.gr_sty.lia"]
            + ["baseline.gr_sty.olia", "A-1.dft.bbr", "A-1.bnaware.bbr"],
        )
        self.assertEqual(mx.select("sticky", "A-1.*"), [])

    def test_planned_lengths(self):
        def length(name):
            return mx.planned_duration(mx.parse_cell(name))

        self.assertEqual(length("baseline.minrtt.cubic"), 624.0)
        self.assertEqual(length("3p-150.tr_sty.cubic"), 624.0)
        self.assertEqual(length("baseline.minrtt.bbr"), 120.0)
        self.assertEqual(length("baseline-q50.minrtt.cubic"), 120.0)
        self.assertEqual(length("baseline-loss0p5.gr_sty.cubic"), 120.0)
        self.assertEqual(length("B-120.bnaware.bbr"), 360.0)
        self.assertEqual(length("A-1-q50.dft.cubic"), 120.0)
        self.assertEqual(length("A-1.bnaware.olia"), 120.0)
        self.assertEqual(length("3p-50.gr_sty.lia"), 120.0)
        for exp, base in mx.BASELINE.items():
            self.assertIn(base, mx.EXPERIMENTS[exp]["schedulers"])

    def test_parse_runs(self):
        self.assertEqual(cellrun.parse_runs("1-3,5"), [1, 2, 3, 5])
        for bad in ("0", "3-1", "x"):
            with self.assertRaises(cellrun.Usage):
                cellrun.parse_runs(bad)


def _copy(doc):
    return json.loads(json.dumps(doc))


class RoutingTest(unittest.TestCase):
    def routing(self, scenario):
        from mpqoe import topo as mq

        scn = mx.SCENARIOS[scenario]
        topo = cellrun.scenario_topo(scn, mq)
        return topo, cellrun.Routing(topo, cellrun.load_routes(scn.topology))

    def test_every_scenario_topology_has_the_java_tables(self):
        for topology in sorted({scn.topology for scn in mx.SCENARIOS.values()}):
            doc = cellrun.load_routes(topology)  # RunError when missing
            self.assertEqual(doc["topology"], topology)

    def test_rules_follow_the_java_tables(self):
        topo, r = self.routing("A-1")
        routes = cellrun.load_routes("fullmesh-cross")["routes"]
        flows = r.flows()
        # every switch but sa has one rule for server address 1 (on sa): the table's port
        for sw in ("ca", "cb", "ra", "sb", "rb"):
            port = routes[sw]["sa"]["port"]
            self.assertIn(f"nw_dst=10.0.1.1,actions=output:{port}", "\n".join(flows[sw]), sw)
        # ca -> cb ties (via ra, port 1, or rb, port 2): the tables take the lower port
        self.assertEqual(r.next_hop("ca", "cb"), (1, "ra", 0))

    def test_tables_are_consumed_not_recomputed(self):
        # tables that send ca's traffic to sb through ra (a longer, but real, link port):
        # the rules and the path walk follow them, whatever the shortest path is
        topo, _r = self.routing("A-1")
        doc = _copy(cellrun.load_routes("fullmesh-cross"))
        doc["routes"]["ca"]["sb"] = {"port": 1, "link": 0, "next": "ra", "hops": 3}
        doc["routes"]["ra"]["sb"] = {"port": 2, "link": 2, "next": "cb", "hops": 2}
        r = cellrun.Routing(topo, doc)
        self.assertIn("nw_dst=10.0.2.1,actions=output:1", "\n".join(r.flows()["ca"]))
        links = topo.descriptor["links"]
        want = sum(float(links[i]["delayMs"]) for i in (0, 2, 3, 5))  # ca-ra-cb-rb-sb
        self.assertEqual(r.one_way_ms("10.0.1.11", "10.0.2.1"), want)

    def test_tables_that_do_not_fit_the_port_plan_are_refused(self):
        topo, _r = self.routing("3p-50")
        good = cellrun.load_routes("three-path")
        bad_port = _copy(good)
        bad_port["routes"]["p1"]["sv"]["port"] = 2  # p1's port 2 is the client's interface
        bad_next = _copy(good)
        bad_next["routes"]["p1"]["sv"]["next"] = "p2"
        missing = _copy(good)
        del missing["routes"]["p3"]
        for bad in (bad_port, bad_next, missing):
            with self.assertRaisesRegex(cellrun.RunError, "make topology-routes"):
                cellrun.Routing(topo, bad)

    def test_missing_or_foreign_tables_are_refused(self):
        with tempfile.TemporaryDirectory() as d:
            with open(os.path.join(d, "parallel.json"), "w") as f:
                json.dump({"schema": "mpqoe-routes/1", "topology": "three-path"}, f)
            old = cellrun.ROUTES_DIR
            cellrun.ROUTES_DIR = d
            try:
                with self.assertRaisesRegex(cellrun.RunError, "not 'parallel'"):
                    cellrun.load_routes("parallel")
                with self.assertRaisesRegex(cellrun.RunError, "missing"):
                    cellrun.load_routes("three-path")
            finally:
                cellrun.ROUTES_DIR = old

    def test_three_path_rtts(self):
        _topo, r = self.routing("3p-150")
        self.assertEqual([2 * r.one_way_ms(f"10.0.{k}.11", "10.0.1.1") for k in (1, 2, 3)],
                         [150.0, 200.0, 200.0])  # fmt: skip

    def test_fullmesh_next_hops_share_the_server_side_bottleneck(self):
        topo, r = self.routing("A-2")
        flows = r.flows()
        port = {p.peer: p.port for p in topo.plan["ca"] if p.kind == "link"}
        self.assertIn(f"nw_dst=10.0.1.1,actions=output:{port['ra']}", "\n".join(flows["ca"]))
        self.assertIn(f"nw_dst=10.0.2.1,actions=output:{port['rb']}", "\n".join(flows["ca"]))
        for c in ("10.0.1.11", "10.0.2.11"):
            for s in ("10.0.1.1", "10.0.2.1"):
                # the paper's "120ms RTT": 60 ms each way
                self.assertEqual(r.one_way_ms(c, s), 60.0)
                self.assertEqual(r.one_way_ms(s, c), 60.0)
        # every switch has exactly one rule per host address (4 addresses)
        self.assertTrue(all(len(f) == 4 for f in flows.values()), flows)

    def test_bottleneck_paper_delays_are_rtts(self):
        for scenario, rtt in (("A-1", 60.0), ("B-60", 60.0), ("B-120", 120.0)):
            _topo, r = self.routing(scenario)
            self.assertEqual(2 * r.one_way_ms("10.0.1.11", "10.0.1.1"), rtt, scenario)

    def test_loss_sensitivity_is_on_paths_1_and_2_only(self):
        for scenario, loss in (("baseline-loss0p1", 0.1), ("baseline-loss0p5", 0.5)):
            links = mx.SCENARIOS[scenario].links
            self.assertEqual([links[f"p{k}-sv"]["lossPct"] for k in (1, 2, 3)], [loss, loss, 0])
            base = mx.SCENARIOS["baseline"].links
            self.assertEqual(
                [links[k]["delayMs"] for k in sorted(links)],
                [base[k]["delayMs"] for k in sorted(base)],
            )

    def test_path_check_takes_the_rtt_window_and_names_the_paths_outside(self):
        _topo, r = self.routing("3p-150")  # path 1: RTT 150 ms

        class Client:  # ping's summary line; the check needs nothing else of the host
            def __init__(self, min_ms):
                self.min_ms = min_ms

            def cmd(self, _line):
                return f"rtt min/avg/max/mdev = {self.min_ms}/{self.min_ms + 1}/200.0/0.5 ms"

        path = [("client-eth0", "10.0.1.11", "10.0.1.1")]
        for ok in (149.0, 150.4, 190.0):
            rows = cellrun.check_paths(path, r, Client(ok))
            self.assertEqual((rows[0]["expected_ms"], rows[0]["min_ms"]), (150.0, ok))
        for bad in (148.9, 190.1):
            with self.assertRaisesRegex(cellrun.RunError, rf"RTT {bad} ms, expected 149..190"):
                cellrun.check_paths(path, r, Client(bad))

        class Silent:
            def cmd(self, _line):
                return "ping: connect: Network is unreachable"

        with self.assertRaisesRegex(cellrun.RunError, "RTT None ms"):
            cellrun.check_paths(path, r, Silent())

    def test_parallel_has_no_cross_paths(self):
        _topo, r = self.routing("B-60")
        self.assertTrue(r.reachable("10.0.1.11", "10.0.1.1"))
        self.assertTrue(r.reachable("10.0.2.11", "10.0.2.1"))
        self.assertFalse(r.reachable("10.0.1.11", "10.0.2.1"))

    def test_queue_limit_reaches_every_netem_link(self):
        def limits(scenario):
            topo, _r = self.routing(scenario)
            return {i.get("max_queue_size") for _a, _b, i in topo.links(withInfo=True)}

        self.assertEqual(limits("baseline-q50"), {50})
        self.assertEqual(limits("A-1-q50"), {50})
        self.assertEqual(limits("baseline"), {None})

    def test_bad_queue_limit_is_refused(self):
        from mpqoe import topo as mq

        for bad in (0, -5, "x", "5.5", 2.5):
            with self.assertRaises(mq.MpqoeError, msg=repr(bad)):
                mq.DescriptorTopo("three-path", netem=True, queue=bad)
        self.assertEqual(mq.DescriptorTopo("three-path", netem=True, queue="20").queue, 20)

    def test_check_queues_reads_every_namespace(self):
        class Node:
            def __init__(self, out):
                self.out = out

            def cmd(self, _c):
                return self.out

        q50 = "qdisc htb 5: root refcnt 2\nqdisc netem 10: parent 5:1 limit 50 delay 25ms\n"
        default = q50.replace("limit 50", "limit 1000")

        class Net:
            def __init__(self, hosts, switches):
                self.hosts, self.switches = hosts, switches

        scn = mx.SCENARIOS["baseline-q50"]
        self.assertEqual(cellrun.check_queues(Net([Node(q50)], [Node(q50)]), scn), [50])
        with self.assertRaises(cellrun.RunError):  # a host still on netem's default
            cellrun.check_queues(Net([Node(default), Node(q50)], [Node(q50)]), scn)
        with self.assertRaises(cellrun.RunError):  # no netem at all
            cellrun.check_queues(Net([Node("")], [Node("")]), mx.SCENARIOS["baseline"])
        base = cellrun.check_queues(Net([Node(default)], [Node(default)]), mx.SCENARIOS["A-1"])
        self.assertEqual(base, [1000])

    def test_unknown_link_override_is_refused(self):
        from mpqoe import topo as mq

        bad = mx.Scenario("x", "sticky", "three-path", {"p9-sv": {"delayMs": 1.0}})
        with self.assertRaises(cellrun.RunError):
            cellrun.scenario_descriptor(bad, mq)


def fake_run(cell, k, status="ok", discards=2, duration=10.0, version=None):
    return {
        "status": status,
        "error": None if status == "ok" else "boom",
        "cell": cell.name,
        "run": k,
        "code_version": version,
        "config": {"duration_s": duration},
        "scheduler_proc": {"switches": "7"},
        "probe": {
            "picture_discards": discards,
            "buffer_underflows": {"count": 1, "total_s": 0.5},
            "startup_delay_s": 1.2,
            "out_of_order": {"mptcp_ofo_queue": 30, "subflow_rcv_ooopack": 1},
            "subflows": [
                {"mean_bps": 1e6, "series": [[0.5, 1e6], [1.0, 3e6]]},
                {"mean_bps": 3e6, "series": [[0.5, 3e6], [1.0, 3e6]]},
            ],
        },
    }


class CoupledCheckTest(unittest.TestCase):
    def test_coupled_acks_are_needed(self):
        line = {"acks": "51234", "ss_acks": "40", "reno_acks": "12"}
        self.assertIsNone(cellrun.coupled_problem("lia", line))
        # every ack in slow start or handled as Reno: the subflows were never coupled
        line = {"acks": "52", "ss_acks": "40", "reno_acks": "12"}
        self.assertIn("coupled no acknowledgment", cellrun.coupled_problem("olia", line))
        self.assertIn("no /proc/net/mpqoe_lia line", cellrun.coupled_problem("lia", None))
        self.assertIn("no acks", cellrun.coupled_problem("lia", {"acks": "x"}))


class KernelReportTest(unittest.TestCase):
    # the end of a real guest console (2026-11-23, baseline-q50 batch), shortened
    PANIC = (
        '[   12.1] mpqoe_dft: scheduler "dft" registered\n'
        "[   71.213508]  asm_sysvec_apic_timer_interrupt+0x1a/0x20\n"
        "[   71.214396] ---[ end trace 0000000000000000 ]---\n"
        "[   71.214477] RIP: 0010:kmem_cache_alloc_noprof+0xc3/0x2f0\n"
        "[   71.214637] Kernel panic - not syncing: Fatal exception in interrupt\n"
    )

    def scan(self, text):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "batch.console.log")
            with open(path, "w") as f:
                f.write(text)
            return kernel.kernel_reports(path)

    def test_panic_and_warnings_are_found(self):
        self.assertEqual(
            self.scan(self.PANIC),
            (["[   71.214637] Kernel panic - not syncing: Fatal exception in interrupt"], []),
        )
        warn = "[ 5.0] WARNING: CPU: 1 PID: 9 at net/mptcp/protocol.c:1 x+0x1\n"
        self.assertEqual(len(self.scan(warn + self.PANIC)[0]), 2)

    def test_a_boot_that_died_before_the_batch_is_told_apart(self):
        # as testbed/run leaves it (2026-11-28, A-2 batch): an early oops, its marker, the
        # boot that ran the batch
        died = (
            "[    1.584372] Oops: int3: 0000 [#1] PREEMPT SMP NOPTI\n"
            "[    1.585442] Kernel panic - not syncing: Fatal exception in interrupt\n"
            "testbed: boot 1 died before COMMAND started; boot 2 follows\n"
            "mpqoe-init: ready after 10.45 s\n"
        )
        reports, retried = self.scan(died)
        self.assertEqual(reports, [])
        self.assertEqual(len(retried), 2)
        reports, retried = self.scan(died + self.PANIC)
        self.assertEqual((len(reports), len(retried)), (1, 2))

    def test_a_clean_or_missing_log_reports_nothing(self):
        self.assertEqual(self.scan("[ 1.0] virtio_net virtio0 eth0: renamed\n"), ([], []))
        self.assertEqual(kernel.kernel_reports("/nonexistent/console.log"), ([], []))


def _lk(delay, loss, bw):
    return {"delayMs": delay, "lossPct": loss, "capacityMbps": bw}


def cellrun_doc(status="ok"):
    """A run document as cellrun.py writes it (A-1: full mesh, 4 paths), shortened."""
    pings = [
        {"client_if": f"client-eth{i}", "client_ip": c, "server_ip": sv, "expected_ms": 120.0,
         "min_ms": 121.7 + i / 10, "avg_ms": 122.5}
        for i, (c, sv) in enumerate(
            [("10.0.1.11", "10.0.1.1"), ("10.0.1.11", "10.0.2.1"), ("10.0.2.11", "10.0.1.1"),
             ("10.0.2.11", "10.0.2.1")]
        )
    ]  # fmt: skip
    doc = {
        "schema": "mpqoe-experiment-run/1",
        "status": status,
        "error": None if status == "ok" else "path check:\n  10.0.1.11->10.0.1.1: RTT None ms",
        "experiment": "bnaware",
        "cell": "A-1.bnaware.cubic",
        "scenario": "A-1",
        "scheduler": "bnaware",
        "cc": "cubic",
        "run": 3,
        "kernel": "6.12.117+deb13-amd64",
        "config": {
            "duration_s": 10.0,
            "probe_sha256": "8d8ef9f8b0b5d5a2" + "0" * 48,
            "links": {"rb-sb": _lk(30, 0.1, 3), "ra-sa": _lk(30, 0.1, 3)},
            "queue_packets": 1000,
        },
        "network": {"path_rtt_ms": pings},
        "started_utc": "2026-11-22T10:00:00.123+00:00",
        "code_version": "abcdef123456",
        "module_sha256": "f" * 64,
        "scheduler_proc": {"switches": "301", "decisions": "9000"},
        "probe": {
            "picture_discards": 2,
            "buffer_underflows": {"count": 1, "total_s": 0.5},
            "startup_delay_s": 1.25,
            "frame_delay_s": {"mean": 0.21, "p50": 0.2, "p95": 0.35, "max": 0.9},
            "out_of_order": {"mptcp_ofo_queue": 4400, "subflow_rcv_ooopack": 120},
            "server": {"frames_sent_late": 3, "max_send_lag_s": 0.04},
            # three subflows: path 1 in v4-mapped form, path 2 idle (no subflow), and one on
            # an address pair the ping check did not list
            "subflows": [
                {
                    "local": "[::ffff:10.0.1.11]:40000",
                    "remote": "[::ffff:10.0.1.1]:5000",
                    "bytes_received": 3_000_000,
                    "mean_bps": 2.4e6,
                    "series": [[0.5, 0], [1.0, 1e6], [1.5, 3e6], [2.0, 0]],
                },
                {
                    "local": "10.0.2.11:40001",
                    "remote": "10.0.2.1:5000",
                    "bytes_received": 1_000_000,
                    "mean_bps": 0.8e6,
                    "series": [[0.5, 1e6], [1.0, 1e6]],
                },
                {
                    "local": "10.0.2.11:40002",
                    "remote": "10.0.9.1:5000",
                    "bytes_received": 0,
                    "mean_bps": 0,
                    "series": [],
                },
            ],  # fmt: skip
        },
    }
    return doc


class PublishTest(unittest.TestCase):
    def test_run_row_of_a_hand_made_document(self):
        row = publish.run_row(cellrun_doc())
        self.assertEqual(list(row), list(publish.RUN_COLUMNS))
        want = {
            "cell": "A-1.bnaware.cubic", "scenario": "A-1", "scheduler": "bnaware", "cc": "cubic",
            "run": 3, "status": "ok", "error": "", "duration_s": 10.0,
            "links": "ra-sa:30/0.1/3|rb-sb:30/0.1/3", "queue_packets": 1000,
            "started_utc": "2026-11-22T10:00:00.123+00:00", "code_version": "abcdef123456",
            "probe_sha256": "8d8ef9f8b0b5d5a2", "module_sha256": "f" * 16, "cc_module_sha256": "",
            "kernel": "6.12.117+deb13-amd64", "subflows": 3, "switches": 301.0,
            "discards": 2.0, "underflows": 1.0, "underflow_s": 0.5, "startup_s": 1.25,
            # mean rates 2.4, 0.8, 0 Mbit/s; stds: (1, 3) without the first and last sample
            # -> 1; (1, 1) -> 0; none for the empty series: mean of 1 and 0
            "thr_mean_mbps": round(3.2 / 3, 4), "thr_std_mbps": 0.5,
            "ofo": 4400.0, "subflow_ooo": 120.0,
            "frame_delay_mean_s": 0.21, "frame_delay_p50_s": 0.2, "frame_delay_p95_s": 0.35,
            "frame_delay_max_s": 0.9, "frames_sent_late": 3.0, "max_send_lag_s": 0.04,
        }  # fmt: skip
        self.assertEqual(row, want)

    def test_a_coupled_control_module_is_identified(self):
        doc = cellrun_doc()
        doc.update(cell="A-1.bnaware.lia", cc="lia", cc_module_sha256="e" * 64)
        row = publish.run_row(doc)
        self.assertEqual((row["cc"], row["cc_module_sha256"]), ("lia", "e" * 16))

    def test_failed_run_keeps_its_error_on_one_line_and_no_metrics(self):
        doc = cellrun_doc("failed")
        del doc["code_version"]
        row = publish.run_row(doc)
        self.assertEqual(row["status"], "failed")
        self.assertEqual(row["error"], "path check: 10.0.1.11->10.0.1.1: RTT None ms")
        self.assertEqual(row["code_version"], results.UNRECORDED)
        self.assertNotIn("switches", row)
        self.assertEqual(publish.path_rows(doc), [])
        doc["code_version"] = "0123456789ab"
        self.assertEqual(publish.run_row(doc)["code_version"], "0123456789ab")

    def test_path_rows_follow_the_ping_check_and_match_subflows_by_address(self):
        rows = publish.path_rows(cellrun_doc())
        self.assertEqual([r["path"] for r in rows], [1, 2, 3, 4, 5])
        self.assertEqual(list(rows[0]), list(publish.PATH_COLUMNS))
        p1, p2, p4, extra = rows[0], rows[1], rows[3], rows[4]
        self.assertEqual((p1["client_ip"], p1["server_ip"]), ("10.0.1.11", "10.0.1.1"))
        self.assertEqual((p1["bytes"], p1["mean_mbps"], p1["std_mbps"]), (3_000_000, 2.4, 1.0))
        self.assertEqual((p1["rtt_expected_ms"], p1["rtt_min_ms"]), (120.0, 121.7))
        self.assertNotIn("bytes", p2)  # measured by ping, no subflow on it
        self.assertEqual((p4["bytes"], p4["std_mbps"]), (1_000_000, 0.0))
        self.assertEqual((extra["server_ip"], extra["bytes"]), ("10.0.9.1", 0))
        self.assertIsNone(extra["rtt_min_ms"])

    def test_publish_writes_both_tables_and_republishing_replaces_only_that_run(self):
        with tempfile.TemporaryDirectory() as d:
            res, dest = os.path.join(d, "raw"), os.path.join(d, "docs")
            cell = mx.parse_cell("A-1.bnaware.cubic")
            old = "\n".join(
                [",".join(publish.RUN_COLUMNS),
                 "A-1.dft.cubic,A-1,dft,cubic,1,ok,,10.0,ra-sa:60/0.1/3|rb-sb:60/0.1/3,1000,"
                 + ",unrecorded,,,,,4,336.0,0,0,0,1.4,1.26,0.26,4409.0,164.0" + "," * 6,
                 "A-1.bnaware.cubic,A-1,bnaware,cubic,3,failed,x,10.0,ra-sa:60/0.1/3|rb-sb:60"
                 + "/0.1/3,1000,,abcdef123456,,,," + "," * 16]
            ) + "\n"  # fmt: skip
            os.makedirs(os.path.join(dest, "bnaware", "data"))
            with open(os.path.join(dest, "bnaware", "data", "runs.csv"), "w") as f:
                f.write(old)
            path = mx.run_path(res, cell, 3)
            os.makedirs(os.path.dirname(path))
            with open(path, "w") as f:
                json.dump(cellrun_doc(), f)
            self.assertEqual(publish.publish(res, [cell], dest), {"bnaware": (1, 2)})
            runs = results.read_csv(
                os.path.join(dest, "bnaware", "data", "runs.csv"), publish.RUN_COLUMNS
            )
            self.assertEqual([(r["cell"], r["status"]) for _l, r in runs],
                             [("A-1.dft.cubic", "ok"), ("A-1.bnaware.cubic", "ok")])  # fmt: skip
            paths = results.read_csv(
                os.path.join(dest, "bnaware", "data", "paths.csv"), publish.PATH_COLUMNS
            )
            self.assertEqual(len(paths), 5)
            publish.publish(res, [cell], dest)  # the same run again: nothing doubles
            paths = results.read_csv(
                os.path.join(dest, "bnaware", "data", "paths.csv"), publish.PATH_COLUMNS
            )
            self.assertEqual(len(paths), 5)


class BuildsTest(unittest.TestCase):
    """A cell's runs load one build of its modules: the driver refuses to add a run to a cell
    whose ok runs loaded another, and publishing refuses a cell whose ok runs name two."""

    def doc(self, k, module="a", cc_module=None, cell="A-1.dft.lia", status="ok"):
        c = mx.parse_cell(cell)
        doc = cellrun_doc(status)
        doc.update(cell=c.name, scheduler=c.scheduler, cc=c.cc, run=k, code_version="v1",
                   module_sha256=module * 64,
                   cc_module_sha256=cc_module and cc_module * 64)  # fmt: skip
        return doc

    def write(self, results, doc):
        path = mx.run_path(results, mx.parse_cell(doc["cell"]), doc["run"])
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as f:
            json.dump(doc, f)

    def test_the_driver_refuses_a_run_of_another_build_and_changes_nothing(self):
        with tempfile.TemporaryDirectory() as d:
            res, modules = os.path.join(d, "res"), os.path.join(d, "modules")
            os.makedirs(modules)
            for name in ("dft", "lia"):
                with open(os.path.join(modules, f"mpqoe_{name}.ko"), "wb") as f:
                    f.write(name.encode())
            c = mx.parse_cell("A-1.dft.lia")
            here = mx.module_builds(modules, c)
            self.assertEqual(here["cc_module_sha256"][:8], "bc86396b")  # sha256(b"lia")
            argv = ["--experiment", "bnaware", "--cells", c.name, "--runs", "3"]
            argv += ["--duration", "10", "--results", res, "--no-build", "--dry-run"]
            args = run.parse_args(argv)
            self.write(res, dict(self.doc(1, "a"), code_version=args.code_version,
                                 **here))  # fmt: skip
            self.write(res, dict(self.doc(2, "a"), code_version=args.code_version,
                                 status="failed"))  # fmt: skip
            todo = {(c.name, 2), (c.name, 3)}
            run.check_builds(args, todo, [], {c.name: here})  # the same build: fine
            run.check_builds(args, set(), [], {c.name: {"module_sha256": "b" * 64}})
            with self.assertRaisesRegex(run.Usage, r"^A-1.dft.lia: .*run1.json loaded "
                                        r"module_sha256 9e4f1681de656e22, the module here is "
                                        r"b{16}: the runs of a cell load one build"):  # fmt: skip
                run.check_builds(args, todo, [], {c.name: dict(here, module_sha256="b" * 64)})
            # published at this version: the control's module counts too
            row = publish.run_row({**self.doc(4), **here, "cc_module_sha256": "e" * 64})
            args.publish = "DEST"
            with self.assertRaisesRegex(
                run.Usage, "run 4 published in DEST loaded cc_module_sha256 e{16},"
            ):
                run.check_builds(args, todo, [("bnaware", row)], {c.name: here})
            # the command: exit 2 with the one line, the results directory as it was
            before = sorted(os.listdir(os.path.dirname(mx.run_path(res, c, 1))))
            with open(os.path.join(modules, "mpqoe_dft.ko"), "wb") as f:
                f.write(b"rebuilt")
            err = io.StringIO()
            with (mock.patch.object(run, "MODULES", modules), contextlib.redirect_stderr(err),
                  contextlib.redirect_stdout(io.StringIO())):  # fmt: skip
                self.assertEqual(run.main(argv), 2)
            self.assertRegex(err.getvalue(), r"^sched_run.py: A-1.dft.lia: .* loaded module_sha256")
            self.assertEqual(len(err.getvalue().splitlines()), 1)
            self.assertEqual(sorted(os.listdir(os.path.dirname(mx.run_path(res, c, 1)))), before)

    def test_publishing_refuses_a_cell_of_two_builds_and_writes_nothing(self):
        with tempfile.TemporaryDirectory() as d:
            res, dest = os.path.join(d, "res"), os.path.join(d, "docs")
            cells = [mx.parse_cell("A-1.dft.lia"), mx.parse_cell("A-1.bnaware.lia")]
            self.write(res, self.doc(1, "a", "c", cell="A-1.bnaware.lia"))
            self.write(res, self.doc(1, "a", "c"))
            self.write(res, self.doc(2, "a", "c"))
            self.write(res, self.doc(3, "b", "c", status="failed"))  # failed: counts for nothing
            self.assertEqual(publish.publish(res, cells, dest), {"bnaware": (4, 4)})
            runs_csv = os.path.join(dest, "bnaware", "data", "runs.csv")
            with open(runs_csv) as f:
                published = f.read()
            self.write(res, self.doc(3, "a", "e"))  # the control's module of another build
            with self.assertRaisesRegex(results.ReportError, r"A-1.dft.lia at v1 would hold ok "
                                        r"runs of two cc_module_sha256 values, c{16} \(runs 1, "
                                        r"2\); e{16} \(runs 3\)"):  # fmt: skip
                publish.publish(res, cells, dest)
            with open(runs_csv) as f:
                self.assertEqual(f.read(), published)
            self.assertEqual(len(results.read_csv(runs_csv, publish.RUN_COLUMNS)), 4)
            # a run published again with the cell's build replaces its row
            self.write(res, self.doc(3, "a", "c"))
            self.assertEqual(publish.publish(res, cells, dest), {"bnaware": (4, 4)})


class OrderTest(unittest.TestCase):
    """The runs of a guest batch in a random order, drawn per run (mpqoe.runs.drawn_order)."""

    def test_a_batch_runs_in_the_drawn_order_and_a_resumed_one_keeps_it(self):
        with tempfile.TemporaryDirectory() as d:
            names = "baseline.minrtt.cubic,baseline.dft.cubic,baseline.gr_sty.cubic"
            argv = ["--scenario", "baseline", "--cells", names, "--runs", "1-4", "--results", d]
            g = cellrun.parse_args(argv)
            self.assertEqual(g.order_seed, mx.ORDER_SEED)
            got = [(c.name, k) for c, k, _p, _d in cellrun.pending(g)]
            interleaved = [(n, k) for k in range(1, 5) for n in names.split(",")]
            self.assertEqual(sorted(got), sorted(interleaved))
            self.assertNotEqual(got, interleaved)
            # each run's own draw: (seed, scenario, cell, run)
            draw = {r: random.Random(f"1:baseline:{r[0]}:{r[1]}").random() for r in got}
            self.assertEqual(got, sorted(interleaved, key=draw.__getitem__))
            # resumed: the runs left keep their relative order
            done = got[::2]
            for name, k in done:
                c = mx.parse_cell(name)
                os.makedirs(os.path.dirname(mx.run_path(d, c, k)), exist_ok=True)
                files.write_json(mx.run_path(d, c, k), {"status": "ok"})
            left = [(c.name, k) for c, k, _p, _d in cellrun.pending(g)]
            self.assertEqual(left, [r for r in got if r not in done])
            other = cellrun.parse_args([*argv, "--order-seed", "2"])
            self.assertNotEqual([(c.name, k) for c, k, _p, _d in cellrun.pending(other)], left)

    def test_the_driver_passes_the_seed_and_the_video_runner_draws_the_same_way(self):
        args = run.parse_args(["--experiment", "sticky", "--cells", "baseline.dft.cubic"])
        cmd = run.guest_command(args, "baseline", args.selected, [1], {("baseline.dft.cubic", 1)})
        self.assertEqual(cmd[cmd.index("--order-seed") + 1], str(mx.ORDER_SEED))
        from mpqoe import video_matrix  # noqa: PLC0415

        b = video_matrix.Batch("x", "compuserve", 3, 60.0, order_seed=7)
        cells = [mock.Mock(), mock.Mock()]
        cells[0].name, cells[1].name = "ga", "none"
        runs = [(c, k) for k in (1, 2, 3) for c in cells]
        want = sorted(runs, key=lambda r: random.Random(f"7:{b.name}:{r[0].name}:{r[1]}").random())
        self.assertEqual(b.order(runs), want)


class PlanTest(unittest.TestCase):
    def test_resume_skips_ok_runs_and_checks_duration(self):
        with tempfile.TemporaryDirectory() as d:
            c = mx.parse_cell("baseline.dft.cubic")
            path = mx.run_path(d, c, 1)
            os.makedirs(os.path.dirname(path))
            args = run.parse_args(
                ["--experiment", "sticky", "--cells", "baseline.dft.*", "--runs", "2"]
                + ["--duration", "10", "--results", d]
            )
            with open(path, "w") as f:
                json.dump(fake_run(c, 1, version=args.code_version), f)
            todo = run.todo_runs(args)
            want = {("baseline.dft.cubic", 2)} | {
                (f"baseline.dft.{cc}", k) for cc in ("bbr", "lia", "olia") for k in (1, 2)
            }
            self.assertEqual(todo, want)
            batches = run.plan_part(args).batches
            covered = {(cell.name, k) for _s, cells, ks in batches for cell in cells for k in ks}
            self.assertLessEqual(todo, covered)
            args.duration = 30.0
            with self.assertRaises(run.Usage):
                run.plan_part(args)

    def test_a_results_directory_holds_one_code_version(self):
        with tempfile.TemporaryDirectory() as d:
            args = run.parse_args(
                ["--experiment", "sticky", "--cells", "baseline.dft.cubic", "--runs", "2"]
                + ["--duration", "10", "--results", d]
            )
            c = args.selected[0]
            os.makedirs(os.path.dirname(mx.run_path(d, c, 1)))
            # a failed run of another version is simply made again
            with open(mx.run_path(d, c, 1), "w") as f:
                json.dump(fake_run(c, 1, "failed", version="0123456789ab"), f)
            self.assertEqual(run.todo_runs(args), {("baseline.dft.cubic", 1), (c.name, 2)})
            # an ok one is refused: the directory would hold two versions
            with open(mx.run_path(d, c, 2), "w") as f:
                json.dump(fake_run(c, 2, version="0123456789ab"), f)
            with self.assertRaisesRegex(run.Usage, "ok run of code version 0123456789ab"):
                run.todo_runs(args)
            with self.assertRaises(run.Usage):
                run.plan_part(args)
            args.code_version = "0123456789ab"
            self.assertEqual(run.todo_runs(args), {(c.name, 1)})

    def test_a_run_the_guest_did_not_make_publishes_as_a_row_the_report_reads(self):
        with tempfile.TemporaryDirectory() as d:
            args = run.parse_args(
                ["--experiment", "bnaware", "--cells", "A-1.dft.lia", "--runs", "1"]
                + ["--duration", "360", "--results", os.path.join(d, "raw")]
            )
            args.code_version = "0123456789ab"
            todo = {(args.selected[0].name, 1)}
            path = mx.run_path(args.results, args.selected[0], 1)
            log = os.path.join(args.results, "logs", "x.log")
            # a batch stopped by a signal failed no run: nothing is written
            for rc in (-15, 130, 143):
                run.mark_missing(args, args.selected, [1], rc, log, todo)
                self.assertFalse(os.path.exists(path), rc)
            run.mark_missing(args, args.selected, [1], 124, log, todo)
            doc = files.read_json(path)
            self.assertEqual((doc["status"], doc["code_version"]), ("failed", "0123456789ab"))
            self.assertIn("exit 124", doc["error"])
            # the log is named relative to the results, not by this machine's path
            self.assertIn("see logs/x.log", doc["error"])
            self.assertNotIn(d, doc["error"])
            run.mark_missing(args, args.selected, [1], 0, "other.log", todo)  # it stays
            self.assertIn("exit 124", files.read_json(path)["error"])
            publish.publish(args.results, args.selected, os.path.join(d, "docs"))
            path = os.path.join(d, "docs", "bnaware", "data", "runs.csv")
            raw = results.read_csv(path, publish.RUN_COLUMNS)
            (row,) = report.parse_runs("bnaware", path, raw)
            self.assertEqual((row["status"], row["duration_s"]), ("failed", 360.0))
            self.assertEqual(
                (row["links"], row["queue_packets"]), ("ra-sa:30/0.1/3|rb-sb:30/0.1/3", 1000)
            )

    def test_the_manifest_counts_the_cells_the_directory_holds(self):
        with tempfile.TemporaryDirectory() as d:
            argv = ["--experiment", "sticky", "--runs", "1", "--duration", "10", "--results", d]
            args = run.parse_args(argv + ["--cells", "baseline.dft.cubic"])
            c = args.selected[0]
            os.makedirs(os.path.dirname(mx.run_path(d, c, 1)))
            with open(mx.run_path(d, c, 1), "w") as f:
                json.dump(fake_run(c, 1, version=args.code_version), f)
            m = run.write_manifest(args)
            self.assertEqual(m["experiments"]["sticky"]["status"], "complete")
            self.assertEqual(list(m["experiments"]["sticky"]["cells"]), [c.name])
            self.assertNotIn("bnaware", m["experiments"])
            args = run.parse_args(argv + ["--cells", "baseline.dft.*"])
            m = run.write_manifest(args)
            self.assertEqual(m["experiments"]["sticky"]["status"], "partial")
            self.assertEqual(m["experiments"]["sticky"]["counts"]["missing"], 3)  # bbr, lia, olia
            with open(os.path.join(d, "sticky", "manifest.json")) as f:
                self.assertEqual(json.load(f)["schema"], "mpqoe-campaign-manifest/1")

    def test_an_old_store_s_manifest_is_replaced_by_the_campaign_s(self):
        with tempfile.TemporaryDirectory() as d:
            argv = ["--experiment", "sticky", "--runs", "1", "--duration", "10", "--results", d]
            args = run.parse_args(argv + ["--cells", "baseline.dft.cubic"])
            old = {"schema": "mpqoe-experiments-manifest/1", "experiments": {},
                   "kernel_reports": [{"batch": "b.log", "lines": ["oops"]}]}  # fmt: skip
            files.write_json(os.path.join(d, "manifest.json"), old)
            m = run.write_manifest(args)
            self.assertFalse(os.path.exists(os.path.join(d, "manifest.json")))
            self.assertEqual(m["experiments"]["sticky"]["kernel_reports"], old["kernel_reports"])
            self.assertEqual(m["experiments"]["sticky"]["counts"]["missing"], 1)

    def test_every_attempt_of_a_batch_is_recorded(self):
        from mpqoe import campaign  # noqa: PLC0415

        with tempfile.TemporaryDirectory() as d:
            argv = ["--experiment", "sticky", "--runs", "2", "--duration", "10", "--results", d]
            args = run.parse_args(argv + ["--cells", "baseline.dft.cubic"])
            c = args.selected[0]
            todo = {(c.name, 1), (c.name, 2)}
            os.makedirs(os.path.dirname(mx.run_path(d, c, 1)))
            with open(mx.run_path(d, c, 1), "w") as f:
                json.dump(fake_run(c, 1, version=args.code_version), f)
            run.record_attempts(args, [c], [1, 2], todo, 0)  # run 2: no document, not tried
            run.record_attempts(args, [c], [2], todo, 0, "interrupted by signal 15")
            got = [(a["run"], a["status"], a["why"]) for a in campaign.attempts(d, "sticky")]
            self.assertEqual(got, [(1, "ok", ""), (2, "failed", "interrupted by signal 15")])
            a = campaign.attempts(d, "sticky")[0]
            self.assertEqual((a["family"], a["code_version"]), ("scheduler", args.code_version))
            self.assertEqual(a["record"], os.path.relpath(mx.run_path(d, c, 1), d))
            self.assertEqual(run.write_manifest(args)["experiments"]["sticky"]["attempts"],
                             {"ok": 1, "failed": 1})  # fmt: skip

    def test_the_estimate_takes_the_measured_pace_of_each_scenario(self):
        with tempfile.TemporaryDirectory() as d:
            args = run.parse_args(
                ["--experiment", "sticky", "--cells", "baseline.dft.lia,3p-50.dft.lia"]
                + ["--runs", "3", "--duration", "10", "--results", d]
            )
            stored = [  # (cell, run, status, wall_s): another cell of the scenario counts too
                ("baseline.dft.lia", 1, "ok", 20.0),
                ("baseline.gr_sty.cubic", 1, "ok", 30.0),
                ("baseline.gr_sty.cubic", 2, "ok", 90.0),
                ("baseline.gr_sty.cubic", 3, "failed", 500.0),
            ]
            for name, k, status, wall in stored:
                c = mx.parse_cell(name)
                os.makedirs(os.path.dirname(mx.run_path(d, c, k)), exist_ok=True)
                doc = fake_run(c, k, status, version=args.code_version)
                doc["wall_s"] = wall
                with open(mx.run_path(d, c, k), "w") as f:
                    json.dump(doc, f)
            pace = run.measured_pace(d, args.selected, args.duration)
            self.assertEqual(pace, {"baseline": (30.0, 3)})
            batches = run.plan_part(args).batches
            todo = run.todo_runs(args)
            self.assertEqual(len(todo), 5)
            want = 2 * mx.BOOT_OVERHEAD_S + 2 * 30.0 + 3 * (10 + mx.PER_RUN_OVERHEAD_S)
            self.assertEqual(mx.estimate_s(batches, todo, args.duration, pace), want)
            text = run.pace_text(batches, pace)
            self.assertIn("baseline 30 s (3 runs), others length + 7 s", text)
            # runs of another video length say nothing of this one's pace
            self.assertEqual(run.measured_pace(d, args.selected, 20.0), {})

    def test_only_runs_plans_those_runs_and_no_other(self):
        with tempfile.TemporaryDirectory() as d:
            args = run.parse_args(
                ["--experiment", "sticky", "--cells", "baseline.dft.*", "--runs", "3"]
                + ["--only-runs", "2", "--results", d]
            )
            want = {(f"baseline.dft.{cc}", 2) for cc in ("cubic", "bbr", "lia", "olia")}
            self.assertEqual(run.todo_runs(args), want)
            self.assertEqual({k for _s, _c, ks in run.plan_part(args).batches for k in ks}, {2})
            for bad in ("4", "0", "x"):
                with self.assertRaises(run.Usage):
                    run.parse_args(["--experiment", "sticky", "--runs", "3", "--only-runs", bad])

    def test_published_runs_are_not_made_again_and_the_guest_skips_them(self):
        with tempfile.TemporaryDirectory() as d:
            version, made = "0123456789ab", os.path.join(d, "made")
            dest = os.path.join(d, "docs")
            cells = mx.select("bnaware", "A-1.*.cubic")
            dft, bn = (mx.parse_cell(f"A-1.{s}.cubic") for s in ("dft", "bnaware"))
            # published: bnaware run 1 ok and run 2 failed at this version; dft run 1 ok at
            # another version, run 2 ok at another video length
            for c, k, status, v, duration in ((bn, 1, "ok", version, 10.0),
                                              (bn, 2, "failed", version, 10.0),
                                              (dft, 1, "ok", "ba9876543210", 10.0),
                                              (dft, 2, "ok", version, 20.0)):  # fmt: skip
                doc = cellrun_doc(status)
                doc.update(cell=c.name, scheduler=c.scheduler, run=k, code_version=v)
                doc["config"]["duration_s"] = duration
                path = mx.run_path(os.path.join(made, str(duration)), c, k)
                os.makedirs(os.path.dirname(path), exist_ok=True)
                with open(path, "w") as f:
                    json.dump(doc, f)
                publish.publish(os.path.join(made, str(duration)), cells, dest)
            argv = ["--experiment", "bnaware", "--cells", "A-1.*.cubic", "--runs", "2"]
            argv += ["--duration", "10", "--results", os.path.join(d, "fresh")]
            args = run.parse_args(argv + ["--publish", dest])
            args.code_version = version
            self.assertEqual(run.published_ok(args), {(bn.name, 1)})
            todo = run.todo_runs(args)
            self.assertEqual(todo, {(dft.name, 1), (dft.name, 2), (bn.name, 2)})
            ((scn, bcells, ks),) = mx.batches(args.selected, todo)
            cmd = run.guest_command(args, scn, bcells, ks, todo)
            self.assertEqual(cmd[cmd.index("--skip") + 1], "A-1.bnaware.cubic:1")
            # a batch that ends early marks only the runs it was to make as failed, and the
            # exit status counts neither those published nor those left beyond a budget
            run.mark_missing(args, bcells, ks, 1, "x.log", todo)
            self.assertIsNone(files.read_json(mx.run_path(args.results, bn, 1)))
            self.assertEqual(files.read_json(mx.run_path(args.results, bn, 2))["status"], "failed")
            part = run.plan_part(args)
            self.assertEqual(part.published, {(bn.name, 1)})
            self.assertEqual(run.unfinished(args, part), todo)
            part.beyond = {(dft.name, 2)}
            self.assertEqual(run.unfinished(args, part), {(dft.name, 1), (bn.name, 2)})
            # a failed attempt of a run published ok (made here before another machine made
            # it) never replaces the ok row
            failed = cellrun_doc("failed")
            failed.update(cell=bn.name, scheduler="bnaware", run=1, code_version=version)
            with open(mx.run_path(args.results, bn, 1), "w") as f:
                json.dump(failed, f)
            publish.publish(args.results, cells, dest)
            rows = results.read_csv(os.path.join(dest, "bnaware", "data", "runs.csv"),
                                    publish.RUN_COLUMNS)  # fmt: skip
            status = {(r["cell"], r["run"], r["code_version"]): r["status"] for _l, r in rows}
            self.assertEqual(status[(bn.name, "1", version)], "ok")
            self.assertEqual(status[(bn.name, "2", version)], "failed")
            self.assertEqual(status[(dft.name, "1", version)], "failed")
            # without --publish nothing is known to be made
            plain = run.parse_args(argv)
            plain.code_version = version
            self.assertEqual(len(run.todo_runs(plain)), 4)
            self.assertNotIn("--skip", run.guest_command(plain, scn, bcells, ks, {
                (c.name, k) for c in bcells for k in ks}))  # fmt: skip
            # the guest leaves the skipped runs alone
            g = cellrun.parse_args(["--scenario", "A-1", "--cells", f"{dft.name},{bn.name}",
                                    "--runs", "1-2", "--results", os.path.join(d, "g"),
                                    "--skip", f"{bn.name}:1"])  # fmt: skip
            got = [(c.name, k) for c, k, _p, _d in cellrun.pending(g)]
            self.assertEqual(sorted(got), sorted([(dft.name, 1), (dft.name, 2), (bn.name, 2)]))
            for bad in (f"{bn.name}", "3p-50.dft.cubic:1", f"{bn.name}:x"):
                with self.assertRaisesRegex(cellrun.Usage, "--skip"):
                    cellrun.parse_args(["--scenario", "A-1", "--cells", bn.name, "--skip", bad])

    def test_the_estimate_takes_the_pace_of_the_published_table_where_none_is_here(self):
        with tempfile.TemporaryDirectory() as d:
            version, dest = "0123456789ab", os.path.join(d, "docs")
            dft = mx.parse_cell("A-1.dft.cubic")
            # one batch of three runs, 400 s apart; a fourth an hour later (another batch);
            # one of another version
            for k, start, v in ((1, "10:00:00", version), (2, "10:06:40", version),
                                (3, "10:13:20", version), (4, "11:13:20", version),
                                (5, "10:20:00", "ba9876543210")):  # fmt: skip
                doc = cellrun_doc()
                doc.update(cell=dft.name, scheduler="dft", run=k, code_version=v)
                doc["started_utc"] = f"2026-11-22T{start}+00:00"
                doc["config"]["duration_s"] = 360.0  # runs of one batch: < 810 s apart
                made = os.path.join(d, "made", v)
                os.makedirs(os.path.dirname(mx.run_path(made, dft, k)), exist_ok=True)
                with open(mx.run_path(made, dft, k), "w") as f:
                    json.dump(doc, f)
                publish.publish(made, [dft], dest)
            argv = ["--experiment", "bnaware", "--cells", "A-1.*.cubic", "--runs", "6"]
            argv += ["--duration", "360", "--results", os.path.join(d, "fresh")]
            args = run.parse_args(argv + ["--publish", dest])
            args.code_version = version
            self.assertEqual(run.published_pace(args), {"A-1": (400.0, 2)})
            part = run.plan_part(args)
            # dft runs 5, 6 and bnaware's six, in one batch at 400 s each
            self.assertEqual(len(part.todo), 8)
            self.assertEqual(part.est, mx.BOOT_OVERHEAD_S + 8 * 400.0)
            self.assertIn("mean time between published starts: A-1 400 s (2 gaps)", part.pace_text)
            args.code_version = "ba9876543210"  # one run of its version: no gap, the model
            self.assertEqual(run.published_pace(args), {})
            self.assertIn("length + 7 s", run.plan_part(args).pace_text)

    def test_a_budget_takes_runs_in_the_guests_order_up_to_the_first_that_does_not_fit(self):
        with tempfile.TemporaryDirectory() as d:
            argv = ["--experiment", "sticky", "--runs", "3", "--duration", "10", "--results", d]
            argv += ["--cells", "baseline.minrtt.cubic,baseline.dft.cubic,3p-50.dft.cubic"]
            # the model: a boot of 90 s, then 17 s a run (length + 7 s): 4 runs take 158 s
            args = run.parse_args(argv + ["--budget-min", "2.7"])
            kept = run.within_budget(args, run.todo_runs(args), {})
            want = {(f"baseline.{s}.cubic", k) for s in ("minrtt", "dft") for k in (1, 2)}
            self.assertEqual(kept, want)
            args = run.parse_args(argv + ["--budget-min", "1"])  # not even one run
            self.assertEqual(run.within_budget(args, run.todo_runs(args), {}), set())
            args = run.parse_args(argv)
            self.assertEqual(len(run.within_budget(args, run.todo_runs(args), {})), 9)
            out = io.StringIO()
            with contextlib.redirect_stdout(out):
                code = run.main(argv + ["--budget-min", "2.7", "--dry-run"])
            self.assertEqual(code, 0, out.getvalue())
            self.assertIn(
                "4 run(s) to do, 5 left beyond --budget-min 2.7, about 3 min", out.getvalue()
            )
            # --planned: the 624 s part first, the 120 s part with what its estimate left
            argv = ["--experiment", "sticky", "--runs", "3", "--results", d, "--planned"]
            argv += ["--cells", "baseline.minrtt.cubic,baseline.minrtt.bbr", "--dry-run"]
            # 624 s runs take 631 s, boot 90 s: 30 min hold two (1352 s), 12.5 min one (721 s,
            # 0.48 min left: spent), 5 min none, so the 120 s part has all of it
            for budget, want in (("30", ["30.00", "7.47"]), ("12.5", ["12.50"]),
                                 ("5", ["5.00", "5.00"])):  # fmt: skip
                out = io.StringIO()
                with contextlib.redirect_stdout(out):
                    code = run.main(argv + ["--budget-min", budget])
                self.assertEqual(code, 0, out.getvalue())
                parts = [ln.split() for ln in out.getvalue().splitlines() if "planned part" in ln]
                self.assertEqual([p[len(p) - p[::-1].index("--budget-min")] for p in parts], want)
            for bad in ("0", "-5", "x"):
                with self.assertRaises((run.Usage, SystemExit)):
                    with contextlib.redirect_stderr(io.StringIO()):
                        run.parse_args(argv + ["--budget-min", bad])

    def test_planned_publish_only_reads_each_lengths_directory(self):
        with tempfile.TemporaryDirectory() as d:
            c = mx.parse_cell("A-1.bnaware.cubic")  # a headline cell: 360 s
            doc = cellrun_doc()
            doc["config"]["duration_s"] = 360.0
            path = mx.run_path(os.path.join(d, "360s"), c, doc["run"])
            os.makedirs(os.path.dirname(path))
            with open(path, "w") as f:
                json.dump(doc, f)
            out = io.StringIO()
            with contextlib.redirect_stdout(out):
                code = run.main(["--experiment", "bnaware", "--cells", c.name, "--planned",
                                 "--runs", "3", "--results", d, "--publish-only", "--publish",
                                 os.path.join(d, "pub")])  # fmt: skip
            self.assertEqual(code, 0, out.getvalue())
            self.assertIn("published 1 run(s) of bnaware", out.getvalue())

    def test_planned_splits_by_length_into_subdirectories(self):
        argv = ["--experiment", "all", "--cells", "baseline.minrtt.*,A-1.dft.*"]
        argv += ["--planned", "--runs", "3", "--results", "/r"]
        parts = run.planned_argv(argv, run.parse_args(argv))
        got = [(p[p.index("--duration") + 1], p[p.index("--cells") + 1]) for p in parts]
        self.assertEqual(
            got,
            [
                ("624", "baseline.minrtt.cubic"),
                ("360", "A-1.dft.cubic,A-1.dft.bbr"),
                # coupled controls are not headline cells: 120 s, also in A-1
                (
                    "120",
                    "baseline.minrtt.bbr,baseline.minrtt.lia,baseline.minrtt.olia,"
                    "A-1.dft.lia,A-1.dft.olia",
                ),
            ],
        )
        for p in parts:
            self.assertEqual(p[p.index("--results") + 1], f"/r/{p[p.index('--duration') + 1]}s")
            self.assertEqual(p.count("--cells"), 1)
            self.assertNotIn("--planned", p)
            self.assertIn("--runs", p)
        with self.assertRaises(run.Usage):
            run.parse_args(argv + ["--duration", "10"])


if __name__ == "__main__":
    unittest.main()
