"""The fairness report on hand-made per-run CSVs: the per-cell intervals and the comparisons
against uncoupled reno, the shared ratio's and the disjoint paths' per-path use.

    /usr/bin/python3 -m unittest discover -s kernel-schedulers/cc-fairness -p 'test_*.py'
"""

import os
import tempfile
import unittest

import cc_report as report
from mpqoe import page
from mpqoe.cc_fairness import CELLS, COLUMNS, run_path
from mpqoe.page import PageError

RUNS = 5


def row(case, algo, tcp, run, mptcp, tcp_mbps=None, paths=None):
    r = dict.fromkeys(COLUMNS, "")
    r.update(
        case=case,
        algo=algo,
        tcp_cc=tcp or "-",
        run=run,
        mptcp_mbps=mptcp,
        tcp_mbps="" if tcp_mbps is None else tcp_mbps,
        subflows=2,
        guest_cpu_pct=5,
        rate1_mbps=10.0,
        rate2_mbps=10.0 if case == "shared" else 5.0,
        limit1_pkts=34,
        limit2_pkts=17,
        delay_ms=40,
        warm_s=5,
        measure_s=25,
        code_version="abcdef012345",
        module_sha256="builtin",
        kernel="6.12",
        finished_utc="2026-01-01T00:00:00Z",
    )
    if paths is not None:
        r.update(path1_mbps=paths[0], path2_mbps=paths[1], path1_drops=1, path2_drops=1)
    return r


def write(data, paths_for):
    """Every cell RUNS runs; the disjoint cells' path rates come from paths_for(algo, run)
    (None: the run predates the per-path record)."""
    for case, algo, tcp in CELLS:
        for run in range(1, RUNS + 1):
            if case == "shared":
                r = row(case, algo, tcp, run, 5.0 + run / 100, 5.0)
            else:
                p = paths_for(algo, run)
                r = row(case, algo, tcp, run, 14.0, paths=p)
            with open(run_path(data, case, algo, run), "w") as f:  # as cc_run.py writes a run
                f.write(report.shared.csv_text([r], COLUMNS))


class PerPath(unittest.TestCase):
    def tables(self, paths_for):
        with tempfile.TemporaryDirectory() as data:
            write(data, paths_for)
            cells, cmps, _ = report.summarise(report.load(data))
        return report.table(cells, cmps)

    def test_a_path_used_less_is_a_finding(self):
        # balia's 5 Mbit/s path carries 4.3-4.4 Mbit/s, every other algorithm's 4.9-5.0:
        # 86-88 % against 98-100 %, the 5 runs apart with no overlap (exact p 2/252)
        def paths(algo, run):
            second = 4.3 + run / 50 if algo == "balia" else 4.9 + run / 50
            return (9.9, second)

        t = self.tables(paths)
        self.assertIn("| 10 Mbit/s path used % | 5 Mbit/s path used % |", t)
        self.assertIn("| balia | 5 | ", t)
        part = t.split("(disjoint paths, 5 Mbit/s path used %)")[1]
        lines = {ln.split(" | ")[0].strip("| "): ln for ln in part.splitlines() if ln[:2] == "| "}
        self.assertIn("| balia | +12.0 | 0.024 | 0.008 |", lines["balia"])
        self.assertIn("| lia | +0.0 | 1.000 | 1.000 |", lines["lia"])

    def test_runs_without_the_record_get_no_comparison(self):
        t = self.tables(lambda algo, run: None)
        self.assertNotIn("path used %", t)
        self.assertIn("(shared bottleneck, MPTCP/TCP ratio)", t)

    def test_comparisons_are_keyed_by_case_and_metric(self):
        with tempfile.TemporaryDirectory() as data:
            write(data, lambda algo, run: (9.9, 4.3 if algo == "balia" else 4.9 + run / 50))
            rows = report.load(data)
            cells, cmps, _ = report.summarise(rows)
        c = cmps[("disjoint", "path2_pct")]["balia"]
        self.assertEqual(c.n_ref, RUNS)
        self.assertGreater(c.diff, 0)
        self.assertEqual(set(cmps[("shared", "ratio")]), {"lia", "olia", "balia"})
        self.assertEqual(cells["disjoint/reno"]["metrics"]["path2_pct"].n, RUNS)


class Placeholders(unittest.TestCase):
    def cells(self, runs):
        with tempfile.TemporaryDirectory() as data:
            write(data, lambda algo, run: (9.9, 4.9))
            for case, algo, _ in CELLS:  # keep the first `runs` runs of each cell
                for run in range(runs + 1, RUNS + 1):
                    os.remove(run_path(data, case, algo, run))
            cells, _, _ = report.summarise(report.load(data))
        return cells

    def test_fields_of_a_cell_interval(self):
        cells = self.cells(RUNS)
        iv = cells["shared/lia"]["metrics"]["ratio"]
        mean = report.cell_field(cells, "shared/lia", "ratio", "mean")
        self.assertEqual(float(mean), round(iv.mean, 2))
        self.assertEqual(report.cell_field(cells, "shared/lia", "ratio", "n"), str(RUNS))
        lo = report.cell_field(cells, "shared/lia", "ratio", "lo")
        hi = report.cell_field(cells, "shared/lia", "ratio", "hi")
        self.assertLess(float(lo), float(hi))
        interval = report.cell_field(cells, "shared/lia", "ratio", "interval")
        self.assertEqual(interval, f"{mean} [{lo}, {hi}]")

    def test_one_run_has_no_interval(self):
        cells = self.cells(1)
        self.assertEqual(report.cell_field(cells, "shared/lia", "ratio", "ci"), "n/a (1 run)")
        self.assertTrue(
            report.cell_field(cells, "shared/lia", "ratio", "interval").endswith("(1 run)")
        )

    def test_unknown_names_are_errors(self):
        cells = self.cells(RUNS)
        for args in (("shared/lia", "ratio", "median"), ("shared/nope", "ratio", "mean")):
            with self.assertRaises(KeyError, msg=args):
                report.cell_field(cells, *args)


class Checks(unittest.TestCase):
    """The checks behind the page's words: target met, within, rising."""

    def resolve(self, name, shared_ratio=None, paths=None):
        """name resolved over every cell with RUNS runs; the shared cells' MPTCP goodput
        5.01-5.05 against TCP 5 (ratio about 1.006, half-width about 0.005) unless
        shared_ratio(algo, run) gives the MPTCP rate; the disjoint paths' rates 9.9 and 4.9
        unless paths(algo, run) gives them."""
        with tempfile.TemporaryDirectory() as data:
            write(data, paths or (lambda algo, run: (9.9, 4.9)))
            if shared_ratio:
                for case, algo, tcp in CELLS:
                    for run in range(1, RUNS + 1):
                        if case == "shared":
                            r = row(case, algo, tcp, run, shared_ratio(algo, run), 5.0)
                            with open(run_path(data, case, algo, run), "w") as f:
                                f.write(report.shared.csv_text([r], COLUMNS))
            cells, cmps, _ = report.summarise(report.load(data))
        return page.substitute("{{" + name + "}}", report.resolver(cells, cmps, {}), "test")

    def test_target_met_is_nothing_and_not_met_an_error(self):
        # ratio about 1: the coupled target 0.7-1.3 is met, uncoupled reno's 1.6-2.4 is not
        self.assertEqual(self.resolve("verdict shared/lia"), "met")
        self.assertEqual(self.resolve("verdict shared/lia check=met"), "")
        self.assertEqual(self.resolve("verdict shared/reno"), "not met")
        with self.assertRaisesRegex(
            PageError, r"\(MPTCP/TCP 1.6-2.4\) met, the data give not met, mean 1.01"
        ):
            self.resolve("verdict shared/reno check=met")
        # the disjoint aggregate, 14 of 15 Mbit/s = 93 %, meets its 90 %
        self.assertEqual(self.resolve("verdict disjoint/balia check=met"), "")
        for bad in ("verdict shared/lia check=yes", "verdict shared/nope check=met", "verdict"):
            with self.assertRaises(PageError, msg=bad):
                self.resolve(bad)

    def test_within_and_rising(self):
        # disjoint paths: 9.9 of 10 Mbit/s = 99 %, 4.9 of 5 = 98 % in every run
        self.assertEqual(self.resolve("within disjoint/* path1_pct 99..99"), "")
        self.assertEqual(self.resolve("within disjoint/lia,disjoint/olia agg_pct 93..94"), "")
        with self.assertRaisesRegex(PageError, "means of path2_pct in .* give lia 98.0, olia"):
            self.resolve("within disjoint/* path2_pct 98.5..100")
        # shared: MPTCP rate 5 + run / 10 against 5 for reno, 5 + run / 100 for the others:
        # reno's spread, and so its interval, is ten times the others'
        rate = lambda algo, run: 5 + run / (10 if algo == "reno" else 100)  # noqa: E731
        self.assertEqual(self.resolve("rising shared/lia,shared/reno ratio ci", rate), "")
        self.assertEqual(self.resolve("rising shared/lia,shared/reno ratio", rate), "")
        with self.assertRaisesRegex(PageError, "rising interval half-widths of ratio, the data"):
            self.resolve("rising shared/reno,shared/lia ratio ci", rate)
        self.assertEqual(self.resolve("within shared/lia ratio 0..0.01 ci", rate), "")
        for bad, why in (
            ("within shared/* nope 0..1", "no metric 'nope'"),
            ("within shared/x* ratio 0..1", "no cell matches"),
            ("within shared/* ratio 1..0", "lo <= hi"),
            ("within shared/* ratio 0..1 half", "field 'half'"),
            ("within shared/* ratio", "within takes 3 to 4"),
            ("rising shared/l*,shared/reno ratio", "not patterns"),
            ("rising shared/lia ratio", "two cells or more"),
        ):
            with self.assertRaisesRegex(PageError, why, msg=bad):
                self.resolve(bad)

    def test_checks_of_single_runs(self):
        # the 10 Mbit/s path used 80 % in runs 1-2, 99 % in runs 3-5; one drop per path and run
        paths = lambda algo, run: (8.0 if run <= 2 else 9.9, 4.9)  # noqa: E731
        self.assertEqual(
            self.resolve("within disjoint/* path1_pct 98..100 runs=3-5", paths=paths), ""
        )
        self.assertEqual(
            self.resolve("within disjoint/reno path1_drops 1..1 runs=1-1", paths=paths), ""
        )
        with self.assertRaisesRegex(PageError, r"per-run path1_pct .* lia run 1 80\.0, lia run 2"):
            self.resolve("within disjoint/* path1_pct 98..100 runs=1-5", paths=paths)
        self.assertEqual(self.resolve("falling disjoint/* path1_pct 3-5 1-2", paths=paths), "")
        with self.assertRaisesRegex(PageError, "rising means of path1_pct, the data give lia runs"):
            self.resolve("falling disjoint/* path1_pct 1-2 3-5", paths=paths)
        for bad, why in (
            ("within disjoint/* path1_pct 0..100 runs=1-6", r"has no path1_pct of run\(s\) \[6\]"),
            ("within disjoint/* path1_pct 0..100 runs=5-1", "not <first>-<last>"),
            ("within disjoint/* path1_pct 0..100 runs=x", "not <first>-<last>"),
            ("within shared/* path1_drops 0..100 runs=1-2", "no per-run metric"),
            ("within disjoint/* path1_pct runs=1-2", "within takes 3 to 4"),
            ("falling disjoint/q* cpu 1-2 3-5", "no cell matches"),
        ):
            with self.assertRaisesRegex(PageError, why, msg=bad):
                self.resolve(bad, paths=paths)


if __name__ == "__main__":
    unittest.main()
