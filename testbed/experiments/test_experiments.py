#!/usr/bin/python3
"""Unit tests of the experiment scripts (no guest, no root): matrix, routes, planning, report.

    /usr/bin/python3 -m unittest discover -s testbed/experiments -p 'test_*.py'

The routing tests build DescriptorTopo objects (pure Python, nothing is started), so they need
Mininet's Python package (Debian's python3-mininet, /usr/bin/python3).
"""

import json
import os
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(HERE)), "mininet-scripts"))

import cellrun  # noqa: E402
import matrix as mx  # noqa: E402
import report  # noqa: E402
import run  # noqa: E402


class MatrixTest(unittest.TestCase):
    def test_sizes_and_names(self):
        self.assertEqual(len(mx.cells("sticky")), 60)
        self.assertEqual(len(mx.cells("bnaware")), 20)
        names = [c.name for c in mx.select("all")]
        self.assertEqual(len(names), len(set(names)))
        self.assertEqual(mx.parse_cell("3p-50.gr_sty.cubic").scheduler, "gr_sty")
        with self.assertRaises(ValueError):
            mx.parse_cell("3p-50.bnaware.cubic")

    def test_select_patterns(self):
        got = [c.name for c in mx.select("all", "baseline.gr_sty.*,A-1.*.bbr")]
        self.assertEqual(
            got,
            ["baseline.gr_sty.cubic", "baseline.gr_sty.bbr", "A-1.dft.bbr", "A-1.bnaware.bbr"],
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
        for exp, base in mx.BASELINE.items():
            self.assertIn(base, mx.EXPERIMENTS[exp]["schedulers"])

    def test_parse_runs(self):
        self.assertEqual(cellrun.parse_runs("1-3,5"), [1, 2, 3, 5])
        for bad in ("0", "3-1", "x"):
            with self.assertRaises(cellrun.Usage):
                cellrun.parse_runs(bad)


class RoutingTest(unittest.TestCase):
    def routing(self, scenario):
        import mpqoe_topo as mq

        scn = mx.SCENARIOS[scenario]
        topo = cellrun.scenario_topo(scn, mq)
        return topo, cellrun.Routing(topo)

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
        import mpqoe_topo as mq

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
        import mpqoe_topo as mq

        bad = mx.Scenario("x", "sticky", "three-path", {"p9-sv": {"delayMs": 1.0}})
        with self.assertRaises(cellrun.RunError):
            cellrun.scenario_descriptor(bad, mq)


def fake_run(cell, k, status="ok", discards=2, duration=10.0):
    return {
        "status": status,
        "error": None if status == "ok" else "boom",
        "cell": cell.name,
        "run": k,
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


class ReportTest(unittest.TestCase):
    def test_run_metrics(self):
        m = report.run_metrics(fake_run(mx.parse_cell("A-1.dft.cubic"), 1))
        self.assertEqual(m["switches"], 7.0)
        self.assertEqual(m["discards"], 2.0)
        self.assertAlmostEqual(m["thr_mean_mbps"], 2.0)
        self.assertAlmostEqual(m["thr_std_mbps"], 0.5)  # pstdev(1, 3) = 1, pstdev(3, 3) = 0
        self.assertEqual(m["ofo"], 30.0)

    def test_variability_leaves_out_ramp_up_and_last_sample(self):
        c = mx.parse_cell("A-1.dft.cubic")
        doc = fake_run(c, 1)
        doc["probe"]["subflows"] = [
            {"mean_bps": 1e6, "series": [[0.5, 0], [1.0, 1e6], [1.5, 3e6], [2.0, 0]]}
        ]
        self.assertAlmostEqual(report.run_metrics(doc)["thr_std_mbps"], 1.0)

    def test_summary_counts_failed_runs_apart(self):
        c = mx.parse_cell("A-1.dft.cubic")
        runs = [(c, 1, fake_run(c, 1, discards=2)), (c, 2, fake_run(c, 2, discards=6))]
        runs.append((c, 3, fake_run(c, 3, status="failed")))
        _metrics, rows, summary = report.summarize("bnaware", runs)
        s = next(s for s in summary if s["cell"] == c.name)
        self.assertEqual((s["n_ok"], s["n_failed"]), (2, 1))
        self.assertEqual((s["discards_mean"], s["discards_min"], s["discards_max"]), (4, 2, 6))
        self.assertEqual(len(rows), 3)

    def test_subset_report_covers_only_the_selected_cells(self):
        cells = mx.select("bnaware", "A-1.*.cubic")
        runs = [(c, 1, fake_run(c, 1)) for c in cells]
        _metrics, _rows, summary = report.summarize("bnaware", runs, cells)
        self.assertEqual([s["cell"] for s in summary], ["A-1.dft.cubic", "A-1.bnaware.cubic"])
        md = report.tables_md("bnaware", ["discards"], summary, "Status")
        self.assertIn("## A-1:", md)
        self.assertNotIn("## A-2:", md)
        self.assertNotIn("| bbr |", md)
        self.assertEqual(report.layout(cells), (["A-1"], ["dft", "bnaware"], ["cubic"]))


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
            return run.kernel_reports(path)

    def test_panic_and_warnings_are_found(self):
        self.assertEqual(
            self.scan(self.PANIC),
            ["[   71.214637] Kernel panic - not syncing: Fatal exception in interrupt"],
        )
        warn = "[ 5.0] WARNING: CPU: 1 PID: 9 at net/mptcp/protocol.c:1 x+0x1\n"
        self.assertEqual(len(self.scan(warn + self.PANIC)), 2)

    def test_a_clean_or_missing_log_reports_nothing(self):
        self.assertEqual(self.scan("[ 1.0] virtio_net virtio0 eth0: renamed\n"), [])
        self.assertEqual(run.kernel_reports("/nonexistent/console.log"), [])


class PlanTest(unittest.TestCase):
    def test_resume_skips_ok_runs_and_checks_duration(self):
        with tempfile.TemporaryDirectory() as d:
            c = mx.parse_cell("baseline.dft.cubic")
            path = mx.run_path(d, c, 1)
            os.makedirs(os.path.dirname(path))
            with open(path, "w") as f:
                json.dump(fake_run(c, 1), f)
            args = run.parse_args(
                ["--experiment", "sticky", "--cells", "baseline.dft.*", "--runs", "2"]
                + ["--duration", "10", "--results", d]
            )
            todo = run.todo_runs(args)
            want = {("baseline.dft.cubic", 2), ("baseline.dft.bbr", 1), ("baseline.dft.bbr", 2)}
            self.assertEqual(todo, want)
            batches = run.plan(args)
            covered = {(cell.name, k) for _s, cells, ks in batches for cell in cells for k in ks}
            self.assertLessEqual(todo, covered)
            args.duration = 30.0
            with self.assertRaises(run.Usage):
                run.plan(args)

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
                ("120", "baseline.minrtt.bbr"),
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
