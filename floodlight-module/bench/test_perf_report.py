"""Tests of floodlight-module/bench/perf_report.py on hand-made data (no JVM).

/usr/bin/python3 -m unittest discover -s floodlight-module/bench -p 'test_*.py'
"""

import csv
import io
import os
import tempfile
import unittest
from unittest import mock

import perf_report as report
from mpqoe import results as shared
from mpqoe.page import render as render_page

OPT_HEAD = ",".join(report.HEADERS["optimality"])


def opt_rows(topology, algorithm, ratios, params="0.8,4,2", population=28, candidates=10):
    """Rows of an optimality CSV: exact fitness 0.5, GA fitness 0.5 * ratio per instance."""
    c, e, t = params.split(",")
    return [
        f"{topology},{algorithm},{population},{c},{e},{t},{i},{candidates},{0.5 * r:.10f},0.5"
        for i, r in enumerate(ratios, 1)
    ]


def write(d, name, lines):
    with open(os.path.join(d, f"{name}.csv"), "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")


def runs_rows(names):
    head = ",".join(report.HEADERS["runs"])
    return [head] + [
        f"{n},2026-12-01 10:00,{'a' * 12},15,0.10,0.90,2,Some CPU,24,6.12.0,openjdk 17"
        for n in names
    ]


def dataset(d, cpu_ga=None, cpu_tuned=None, opt_ga=None, opt_tuned=None):
    """A complete data directory: two topologies, both variants."""
    opt_ga = opt_ga or [1.0, 0.9, 1.0, 0.95, 1.0, 1.0]
    opt_tuned = opt_tuned or [1.0, 0.92, 1.0, 0.95, 0.97, 1.0]
    write(
        d,
        "optimality",
        [OPT_HEAD]
        + opt_rows("custom12", "ga", opt_ga)
        + opt_rows("custom12", "ga-tuned", opt_tuned)
        + opt_rows("compuserve", "ga", [1.0] * 6, population=150)
        + opt_rows("compuserve", "ga-tuned", [1.0] * 6, population=150),
    )
    tuning = [OPT_HEAD]
    for k, setting in enumerate(report.TUNINGS):
        tuning += opt_rows("custom12", "ga-tuned", [1.0 - 0.01 * k] * 4, params=setting)
    write(d, "tuning", tuning)
    write(
        d,
        "rules",
        [",".join(report.HEADERS["rules"])]
        + [f"ga,hop,h{i},3,{30 + i},0" for i in range(4)]
        + [f"ga,sr,h{i},2,5,276" for i in range(4)]
        + [f"none,hop,h{i},2,12,0" for i in range(4)]
        + [f"none,sr,h{i},3,7,276" for i in range(4)],
    )
    cpu_ga = cpu_ga or [500.0 + 10 * i for i in range(20)]
    cpu_tuned = cpu_tuned or [700.0 + 10 * i for i in range(20)]
    cpu = [",".join(report.HEADERS["cpu"])]
    for i, (a, b) in enumerate(zip(cpu_ga, cpu_tuned, strict=True)):
        cpu += [f"custom12,ga,28,{i // 10 + 1},{i % 10 + 1},{a}"]
        cpu += [f"custom12,ga-tuned,28,{i // 10 + 1},{i % 10 + 1},{b}"]
    write(d, "cpu", cpu)
    jmh_head = ",".join(report.HEADERS["jmh"])
    write(
        d,
        "jmh-ga",
        [jmh_head]
        + [
            "GaJoinBenchmark.select,algorithm=ga;topology=custom12,sample,ms/op,1000,0.61,0.02,"
            "0.55,0.9,1.7,3.1,9.5,512000"
        ],
    )
    write(
        d,
        "jmh-exact",
        [
            jmh_head,
            "ExactJoinBenchmark.select,topology=custom12,sample,us/op,9000,3.4,0.2,2.7,5,7,12,90,",
        ],
    )
    write(
        d,
        "jmh-control",
        [
            jmh_head,
            "ControlPlaneBenchmark.capableSyn,algorithm=ga;wire=false,sample,us/op,99,4600,90,4500,6000,7200,9000,12000,",
        ],
    )
    write(
        d,
        "compare-qomra",
        [",".join(report.HEADERS["compare"])]
        + [f"qomra,{k},8,20,0.2,30,7.0,0,0,20,31.6,0.16,136,40,0" for k in (1, 2)]
        + [f"none,{k},8,24,0,9.6,4.8,0,0,24,9.6,0,144,48,{11 + k}" for k in (1, 2)],
    )
    write(d, "runs", runs_rows([n for n in report.RECORDS if n not in report.OPTIONAL]))


def render(d, template):
    p = report.Perf(d)
    return render_page(template, report.resolver(p), "t.md.in", "test", "make results")


class PageTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.d = self.tmp.name
        dataset(self.d)

    def tearDown(self):
        self.tmp.cleanup()

    def test_optimality_values(self):
        page = render(
            self.d,
            "{{value 6/custom12/ga opt mean}} {{value 6/custom12/ga opt min}}"
            " {{value 6/custom12/ga opt equal}}"
            " {{value 6/compuserve/ga-tuned opt candidates}} {{value 2/custom12/ga opt mean}}",
        )
        self.assertIn("97.500 90.000 4 10.0 95.000", page)

    def test_instance_count_beyond_the_data_is_refused(self):
        with self.assertRaisesRegex(shared.ReportError, "only 6 instances, not 7"):
            render(self.d, "{{value 7/custom12/ga opt mean}}")

    def test_compare(self):
        page = render(
            self.d,
            "{{value qomra compare subflows}} {{value none compare overbooked}}"
            " {{value qomra compare fitness}}"
            " {{value none compare runs}}{{within * compare 17..18 rules_hop}}",
        )
        self.assertIn("2.50 12.5 0.8750 2", page)
        table = render(self.d, "{{table compare}}")
        self.assertIn("| qomra | 2.50 | 3.95 | 0.020 | 17.0 | 5.0 | 0.0 | 0.8750 |", table)
        with self.assertRaisesRegex(shared.ReportError, "field 'colour'"):
            render(self.d, "{{value qomra compare colour}}")

    def test_e2e_table_once_recorded(self):
        self.assertIn("No run of it is recorded yet", render(self.d, "{{table e2e}}"))
        head = ",".join(report.HEADERS["e2e"])
        rows = [
            "1,ga,1,ok,c1,first MP_CAPABLE,10.0.1.11:4000,10.0.0.1:80,28.6,1",
            "1,ga,1,ok,c1,MP_JOIN,10.0.2.11:4001,10.0.0.1:80,,3",
            "1,ga,1,ok,c2,MP_CAPABLE,10.0.1.12:4002,10.0.0.1:80,20.0,1",
            "1,ga,1,ok,c1,MP_JOIN,10.0.3.11:4003,10.0.0.1:80,12.0,1",
            "1,ga,1,ok,c1,MP_JOIN,10.0.3.11:4004,10.0.0.1:80,30.0,1",
            "1,ga,1,ok,c1,first ping,,,1.5,",
            "2,ga,1,ok,c1,first MP_CAPABLE,10.0.1.11:4000,10.0.0.1:80,21.4,1",
            "2,ga,1,ok,c1,MP_JOIN,10.0.3.11:4003,10.0.0.1:80,15.0,1",
            "1,ga SR,2,failed,c1,first MP_CAPABLE,10.0.1.11:4000,10.0.0.1:80,99.0,1",
        ]
        write(self.d, "e2e-setup", [head, *rows])
        write(self.d, "runs", runs_rows(report.RECORDS))
        table = render(self.d, "{{table e2e}}")
        # the mean is over runs (run 1's joins average 21.0, run 2's 15.0), min, median and max
        # over the SYNs; t(0.975, 1) = 12.706: half-widths 38.1 and 45.7
        self.assertIn(
            "| ga | MP_JOIN | 2 | 3 | 1 | 18.0 [-20.1, 56.1] | 12.0 | 15.0 | 30.0 |", table
        )
        self.assertIn("| ga | first MP_CAPABLE | 2 | 2 | 0 | 25.0 [-20.7, 70.7] |", table)
        self.assertIn("| ga | first ping | 1 | 1 | 0 | 1.5 (1 run) | 1.5 | 1.5 | 1.5 |", table)
        self.assertNotIn("99.0", table)  # the run with a failed check is left out
        self.assertIn("2 runs whose checks all passed (1 with a failed check left out)", table)
        write(self.d, "e2e-setup", [head, "x" + rows[0]])
        with self.assertRaisesRegex(shared.ReportError, "run"):
            render(self.d, "{{table e2e}}")

    def test_rising(self):
        render(self.d, "{{rising custom12/ga,custom12/ga-tuned cpu median}}")
        with self.assertRaisesRegex(shared.ReportError, "rising values"):
            render(self.d, "{{rising custom12/ga-tuned,custom12/ga cpu median}}")

    def test_a_comparison_check_holds_every_match(self):
        render(self.d, "{{cmp 4/custom12/* tuning same}}")
        dataset(self.d, opt_tuned=[1.0, 0.92, 1.0, 0.95, 0.97, 1.0])
        with self.assertRaisesRegex(shared.ReportError, "compuserve: the words it checks"):
            render(self.d, "{{cmp 6/* opt same}}")

    def test_rulecount_holds_every_client(self):
        self.assertTrue(render(self.d, "x{{rulecount * sr 2 1}}y").endswith("\nxy"))
        with self.assertRaisesRegex(shared.ReportError, r"ga/h0 5 for 2, ga/h1 5 for 2"):
            render(self.d, "{{rulecount * sr 2 0}}")
        with self.assertRaisesRegex(shared.ReportError, "none/h0 12 for 2"):
            render(self.d, "{{rulecount none hop 2 1}}")
        for bad, msg in [
            ("{{rulecount * sr 2}}", "rulecount takes 4"),
            ("{{rulecount * sr two 1}}", "not an integer"),
            ("{{rulecount qomra sr 2 1}}", "no rules rows of qomra/sr"),
        ]:
            with self.assertRaisesRegex(shared.ReportError, msg):
                render(self.d, bad)

    def test_target_is_a_verdict(self):
        page = render(
            self.d, "{{target */ga cpu 0..0.6 median}} {{target */ga* cpu 0..0.6 median}}"
        )
        self.assertIn("met missed", page)

    def test_within_holds_every_match(self):
        render(self.d, "{{within 6/*/ga* opt 97..100 mean}}")
        with self.assertRaisesRegex(shared.ReportError, r"custom12/ga 97\.500"):
            render(self.d, "{{within 6/*/ga* opt 98..100 mean}}")

    def test_optimality_comparison_without_difference_is_untested(self):
        page = render(self.d, "{{cmp 6/compuserve opt p}}")
        self.assertIn("n/a (identical, no test)", page)
        with self.assertRaisesRegex(shared.ReportError, "untested"):
            render(self.d, "{{cmp 6/compuserve opt same}}")

    def test_optimality_comparison_same(self):
        page = render(self.d, "{{cmp 6/custom12 opt diff}} {{cmp 6/custom12 opt same}}x")
        self.assertIn("0.167 x", page)  # 97.500 - 97.333 points, Wilcoxon p 1
        with self.assertRaisesRegex(shared.ReportError, "need lower"):
            render(self.d, "{{cmp 6/custom12 opt lower}}")

    def test_tuning_against_the_default(self):
        # the fixture's k-th setting reaches 100 - k % of the optimum; the default is the last
        default, k = report.TUNINGS[-1], len(report.TUNINGS) - 1
        page = render(
            self.d,
            "{{cmp 4/custom12/0.6,2,3 tuning diff}} {{cmp 4/custom12/0.6,2,3 tuning p_raw}}"
            f" {{{{cmp 4/custom12/0.6,2,3 tuning same}}}}x {{{{value 4/custom12/{default} tuning"
            " mean}}",
        )
        # four instances, each k points better than the default: Wilcoxon's smallest p, 0.125
        self.assertIn(f"-{k:.3f} 0.125 x {100 - k:.3f}", page)
        with self.assertRaisesRegex(shared.ReportError, "need higher, the data give same"):
            render(self.d, "{{cmp 4/custom12/0.6,2,3 tuning higher}}")
        with self.assertRaisesRegex(shared.ReportError, f"no comparison '{default}'"):
            render(self.d, f"{{{{cmp 4/custom12/{default} tuning same}}}}")
        table = render(self.d, "{{table tuning/4}}")
        shown = default.replace(",", ", ")
        self.assertIn(
            f"| {shown} (default) | {100 - k:.3f} [{100 - k:.3f}, {100 - k:.3f}] |  |", table
        )
        self.assertIn(f"Holm over the {k} other settings", table)

    def test_cpu_summary_and_paired_test(self):
        page = render(
            self.d,
            "{{value custom12/ga cpu median}} {{value custom12/ga-tuned cpu median}}"
            " {{value custom12/ga cpu n}}"
            " {{cmp custom12 cpu saving}} {{cmp custom12 cpu p}} {{cmp custom12 cpu higher}}x",
        )
        # medians 0.595 and 0.795 ms: ga saves 25.2 %; every pair differs one way
        self.assertIn("0.595 0.795 20 25.2 <0.001 x", page)
        with self.assertRaisesRegex(shared.ReportError, "need lower, the data give higher"):
            render(self.d, "{{cmp custom12 cpu lower}}")

    def test_cpu_comparison_same_when_the_variants_agree(self):
        xs = [500.0 + 37 * (i % 7) for i in range(20)]
        ys = [x + (1 if i % 2 else -1) for i, x in enumerate(xs)]
        dataset(self.d, cpu_ga=xs, cpu_tuned=ys)
        render(self.d, "{{cmp custom12 cpu same}}")

    def test_quantile_interpolates(self):
        self.assertEqual(report.shared.quantile([1, 2, 3, 4], 0.5), 2.5)
        self.assertEqual(report.shared.quantile([5], 0.99), 5)
        self.assertAlmostEqual(report.shared.quantile(range(101), 0.9), 90)

    def test_jmh_and_rules_and_runs(self):
        page = render(
            self.d,
            "{{value jmh-ga/select/topology:custom12+algorithm:ga jmh p50}}"
            " {{value jmh-ga/select/algorithm:ga+topology:custom12 jmh alloc}}"
            " {{value ga/hop rules rules}} {{value none/sr rules labels}}"
            " {{run cpu started_utc}} {{run cpu code_version}}",
        )
        self.assertIn("0.550 512000 31.5 276 2026-12-01 10:00 aaaaaaaaaa", page)
        table = render(self.d, "{{table jmh/jmh-control}}")
        self.assertIn(
            "| ga | false | 99 | 4500.0 | 6000.0 | 7200.0 | 12000.0 | 4600.0 ± 90.0 |", table
        )
        self.assertIn("Times in µs.", table)
        with self.assertRaisesRegex(shared.ReportError, "has no alloc"):
            render(self.d, "{{value jmh-exact/select/topology:custom12 jmh alloc}}")

    def test_tables(self):
        page = render(
            self.d,
            "{{table optimality/6}}\n\n{{table tuning/4}}\n\n{{table cpu}}\n\n"
            "{{table jmh/jmh-ga}}\n\n{{table rules}}\n\n{{table runs}}",
        )
        self.assertIn("| custom12 | ga | 28 | 6 | 97.500 [", page)
        self.assertIn("compuserve: identical ratios, no test", page)
        self.assertIn("| 0.6, 2, 3 | 100.000 [100.000, 100.000] |", page)
        self.assertIn("| custom12 | ga | 20 | 0.595 |", page)
        self.assertIn("| 0.595 [0.567, 0.623] |", page)
        self.assertIn("custom12: ga's median 25.2 % below ga-tuned's, p <0.001", page)
        # each routing's own subflows beside its rules
        self.assertIn("| ga | 3.00 | 31.5 | 2.00 | 5.0 | 276 |", page)
        self.assertIn("| none | 2.00 | 12.0 | 3.00 | 7.0 | 276 |", page)
        self.assertIn("Machine: 2 CPUs (Some CPU), 24 GiB, Linux 6.12.0, openjdk 17.", page)

    def test_bad_placeholders(self):
        for text, msg in [
            ("{{value 6/custom12/ga opt median}}", "field 'median'"),
            ("{{value x/custom12/ga opt mean}}", "not a whole number"),
            ("{{value custom12 cpu median}}", "subject of cpu is <topology>/<algorithm>"),
            ("{{within 6/*/ga opt 100..99 mean}}", "lo <= hi"),
            ("{{value 6/*/ga opt mean}}", "names 2 values, not one"),
            ("{{table nothing}}", "unknown table"),
            ("{{run cpu colour}}", "expected run"),
            ("{{plain}}", "unknown kind 'plain'"),
            ("{{value custom12/ga cpu saving}}", "a comparison's field"),
            ("{{value 6/custom12/ga}}", "value takes 2 to 3"),
            ("{{value 6/custom12/ga colour}}", "no metric 'colour'"),
            ("{{cmp 6/custom12 rules p}}", "no comparison of 'rules'"),
            ("{{value 6/custom12/ga opt during=0..50}}", "no time series"),
        ]:
            with self.subTest(text), self.assertRaisesRegex(shared.ReportError, msg):
                render(self.d, text)


class DataTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.d = self.tmp.name
        dataset(self.d)

    def tearDown(self):
        self.tmp.cleanup()

    def test_a_repeated_instance_is_refused(self):
        write(self.d, "optimality", [OPT_HEAD] + opt_rows("custom12", "ga", [1, 1]) * 2)
        with self.assertRaisesRegex(shared.ReportError, "instance 1 of custom12/ga/0.8,4,2 again"):
            report.Perf(self.d)

    def test_a_bad_header_or_number_is_refused(self):
        write(self.d, "rules", ["algorithm,client", "ga,h1"])
        with self.assertRaisesRegex(shared.ReportError, "header must be exactly"):
            report.Perf(self.d)
        dataset(self.d)
        write(self.d, "cpu", [",".join(report.HEADERS["cpu"]), "custom12,ga,28,1,1,fast"])
        with self.assertRaisesRegex(shared.ReportError, "cpu_us 'fast' is not a number"):
            report.Perf(self.d)

    def test_a_missing_measurement_is_refused(self):
        write(self.d, "runs", runs_rows(["cpu"]))
        with self.assertRaisesRegex(shared.ReportError, "no row for optimality"):
            report.Perf(self.d)
        os.unlink(os.path.join(self.d, "rules.csv"))
        with self.assertRaisesRegex(shared.ReportError, "rules.csv: no such file"):
            report.Perf(self.d)


class RecordTest(unittest.TestCase):
    def test_jmh_rows(self):
        result = [
            {
                "benchmark": "org.mpqoe.bench.GaJoinBenchmark.select",
                "mode": "sample",
                "params": {"topology": "custom12", "algorithm": "ga"},
                "primaryMetric": {
                    "score": 0.6123456789,
                    "scoreError": 0.02,
                    "scorePercentiles": {"50.0": 0.55, "90.0": 0.9, "99.0": 1.7, "100.0": 9.5},
                    "scoreUnit": "ms/op",
                    "rawDataHistogram": [[[[0.5, 3], [0.6, 2]], [[0.7, 5]]]],
                },
                "secondaryMetrics": {"gc.alloc.rate.norm": {"score": 512000.4}},
            }
        ]
        (row,) = report.jmh_rows(result)
        self.assertEqual(row["benchmark"], "GaJoinBenchmark.select")
        self.assertEqual(row["params"], "algorithm=ga;topology=custom12")
        self.assertEqual((row["samples"], row["mean"], row["p999"]), ("10", "0.612346", ""))
        self.assertEqual(row["alloc_bytes_per_op"], "512000")

    def test_record_writes_the_output_and_its_run_row(self):
        out = ",".join(report.HEADERS["rules"]) + "\nga,hop,h1,3,30,0"
        with tempfile.TemporaryDirectory() as d:
            jar = os.path.join(d, "b.jar")
            open(jar, "w").close()
            with mock.patch.object(report, "run_java", return_value=out + "\n"):
                report.record(["rules"], jar, d)
            with open(os.path.join(d, "rules.csv"), encoding="utf-8") as f:
                self.assertEqual(f.read(), out + "\n")
            with open(os.path.join(d, "runs.csv"), encoding="utf-8") as f:
                (row,) = list(csv.DictReader(f))
            self.assertEqual(row["name"], "rules")
            # a second measurement is added, the same one again replaces its row
            with mock.patch.object(report, "run_java", return_value=out + "\n"):
                report.record(["rules"], jar, d)
            with (
                mock.patch.object(report, "run_java", return_value="topology," + out),
                self.assertRaises(shared.ReportError),
            ):
                report.record(["cpu"], jar, d)
            with open(os.path.join(d, "runs.csv"), encoding="utf-8") as f:
                self.assertEqual([r["name"] for r in csv.DictReader(f)], ["rules"])

    def test_a_failed_measurement_leaves_the_old_files(self):
        with tempfile.TemporaryDirectory() as d:
            jar = os.path.join(d, "b.jar")
            open(jar, "w").close()
            write(d, "rules", ["old"])
            with (
                mock.patch.object(report, "run_java", return_value="not,the,header\n"),
                self.assertRaisesRegex(shared.ReportError, "does not start with the header"),
            ):
                report.record(["rules"], jar, d)
            with open(os.path.join(d, "rules.csv"), encoding="utf-8") as f:
                self.assertEqual(f.read(), "old\n")
            self.assertFalse(os.path.exists(os.path.join(d, "runs.csv")))

    def test_verify_compares_the_covered_rows(self):
        with tempfile.TemporaryDirectory() as d:
            dataset(d)
            jar = os.path.join(d, "b.jar")
            open(jar, "w").close()
            kept = {}
            for name in ("rules", "compare-qomra"):
                with open(os.path.join(d, f"{name}.csv"), encoding="utf-8") as f:
                    kept[name] = f.read()
            opt = "\n".join([OPT_HEAD] + opt_rows("custom12", "ga", [1.0, 0.9])) + "\n"

            def fake(args, _jar, _json=None):
                if "org.mpqoe.bench.OptimalityGap" in args:
                    return opt
                return kept["compare-qomra" if "compare" in args else "rules"]

            with mock.patch.object(report, "run_java", side_effect=fake):
                # the committed file has more rows (other algorithms, instances above 100):
                # only those the rerun covers are compared, and they differ
                err = io.StringIO()
                with mock.patch("sys.stderr", err):
                    self.assertEqual(report.verify(jar, d), 1)
                self.assertIn("optimality: the code gives other rows", err.getvalue())
            write(d, "optimality", opt.splitlines())
            with mock.patch.object(report, "run_java", side_effect=fake):
                self.assertEqual(report.verify(jar, d), 0)

    def test_e2e_runs_keep_their_rows_or_fail(self):
        import subprocess

        def fake_run(cmd, **_kw):
            out = cmd[cmd.index("--setup-csv") + 1]
            if "--segment-routing" not in cmd:  # this run writes its rows, a check failed
                with open(out, "w", encoding="utf-8") as f:
                    f.write(",".join(report.HEADERS["e2e"]) + "\nga,1,failed,c1,TCP,a,b,7.0,1\n")
            return subprocess.CompletedProcess(cmd, 1, "e2e: 20 passed, 1 failed", "")

        with mock.patch.object(report.subprocess, "run", side_effect=fake_run):
            self.assertIn("ga,1,failed", report.run_e2e([]))
            with self.assertRaisesRegex(shared.ReportError, "wrote no rows"):
                report.run_e2e(["--segment-routing"])

    def test_e2e_measurement_numbers_runs_of_the_variants_in_turn(self):
        calls = []

        def fake(args):
            calls.append(args)
            v = "SR" if args else "ga"
            return ",".join(report.HEADERS["e2e"][1:]) + f"\n{v},1,ok,c1,TCP,a,b,7.0,1\n"

        with (
            mock.patch.object(report, "run_e2e", side_effect=fake),
            mock.patch.object(report, "E2E_RUNS", 2),
            mock.patch.dict(report.RECORDS, {"e2e-setup": ("e2e", [[], ["--sr"]])}),
        ):
            text = report.measure("e2e-setup", "unused.jar")
        self.assertEqual(calls, [[], ["--sr"], [], ["--sr"]])
        lines = text.splitlines()
        self.assertEqual(lines[0], ",".join(report.HEADERS["e2e"]))
        self.assertEqual(
            [ln.split(",")[:2] for ln in lines[1:]],
            [["1", "ga"], ["1", "SR"]] + [["2", "ga"], ["2", "SR"]],
        )

    def test_unknown_record_name_is_a_usage_error(self):
        with self.assertRaises(SystemExit) as e, mock.patch("sys.stderr", io.StringIO()):
            report.main(["--record", "speed"])
        self.assertEqual(e.exception.code, 2)


if __name__ == "__main__":
    unittest.main()
