#!/usr/bin/python3
"""Tests of the scheduler experiments' report on hand-made committed CSVs: the reader rejects
bad rows, the statistics give the values worked out here by hand, the template's placeholders
resolve (an unknown one is an error), and --check fails on a stale file.

    /usr/bin/python3 -m unittest discover -s testbed/experiments -p 'test_*.py'
"""

import contextlib
import io
import math
import os
import shutil
import subprocess
import tempfile
import unittest
from unittest import mock

import sched_report as report
from mpqoe import results, sched_changes, stats
from mpqoe import sched_matrix as mx
from mpqoe import sched_publish as publish

T_975_4 = 2.7764451051977987  # Student t, 97.5 % quantile, 4 degrees of freedom
V1 = "v1"


def newest(versions):
    """Orders the fixture's versions without git: unrecorded < v1 < v2."""
    order = {results.UNRECORDED: 0, "v1": 1, "v2": 2}
    return max(versions, key=order.__getitem__)


def run_row(cell, k, version=V1, status="ok", **metrics):
    scn, sched, cc = cell.split(".")
    row = {"cell": cell, "scenario": scn, "scheduler": sched, "cc": cc, "run": k,
           "status": status, "duration_s": 10.0, "code_version": version,
           "links": publish.links_text(mx.SCENARIOS[scn].links),
           "queue_packets": mx.SCENARIOS[scn].queue or mx.NETEM_LIMIT}  # fmt: skip
    if status == "ok":
        row.update(switches=100, discards=0, underflows=0, underflow_s=0, startup_s=1.2)
        row.update(metrics)
    return row


def fixture():
    """baseline.cubic: dft switches 300..340 (runs 1-5), gr_sty 80..120, tp_sty 100 + 0..4;
    minrtt only in 3p-50.cubic (runs 1-3, 3p-50.dft 3 runs); gr_sty run 6 of an older
    version; one failed tp_sty run. Discards: dft 0, gr_sty 1, 2, 3, 4, 5."""
    rows = []
    for k in range(1, 6):
        rows.append(run_row("baseline.dft.cubic", k, switches=290 + 10 * k))
        rows.append(run_row("baseline.gr_sty.cubic", k, switches=70 + 10 * k, discards=k))
        rows.append(run_row("baseline.tp_sty.cubic", k, switches=100 + k - 1))
    rows.append(run_row("baseline.gr_sty.cubic", 6, version=results.UNRECORDED, switches=9999))
    rows.append(run_row("baseline.tp_sty.cubic", 6, status="failed"))
    for k in range(1, 4):
        rows.append(run_row("3p-50.minrtt.cubic", k, switches=50 + k))
        rows.append(run_row("3p-50.dft.cubic", k, switches=300 + k))
    return rows


TEMPLATE = """\
dft {{value sticky/baseline.dft.cubic switches}} ± {{value sticky/baseline.dft.cubic switches ci}}
dft {{value sticky/baseline.dft.cubic switches interval}}
n {{value sticky/baseline.gr_sty.cubic switches n}} \
min {{value sticky/baseline.gr_sty.cubic switches min}}
p {{cmp sticky/baseline.gr_sty.cubic switches p}} raw \
{{cmp sticky/baseline.gr_sty.cubic switches p_raw}} \
sig {{cmp sticky/baseline.gr_sty.cubic switches sig}}
disc {{cmp sticky/baseline.gr_sty.cubic discards p}}
ref {{ref sticky/3p-50.cubic}} {{cmp sticky/3p-50.dft.cubic switches p}}
pair {{pair sticky/baseline.tp_sty.cubic sticky/baseline.gr_sty.cubic switches diff}}
range {{range sticky/baseline.*.cubic switches}}
sig {{sig sticky/*.cubic switches}} | {{sig sticky/3p-50.* switches}}
{{status sticky}}
{{figure sticky/subflow_throughput}}
S1 {{claim S1 "fewer switches" verdict="verdict sticky/baseline.cubic/switches/gr_sty:lower" at=a}}
"""


class Case(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="sched-report-")
        self.data = os.path.join(self.tmp, "results")
        self.write_set("sticky", fixture())
        with open(os.path.join(self.data, "scheduler-papers.md.in"), "w", encoding="utf-8") as f:
            f.write(TEMPLATE)

    def tearDown(self):
        shutil.rmtree(self.tmp)

    def write_set(self, name, rows, paths=None):
        d = os.path.join(self.data, name, "data")
        os.makedirs(d, exist_ok=True)
        with open(os.path.join(d, "runs.csv"), "w", encoding="utf-8") as f:
            f.write(results.csv_text(rows, publish.RUN_COLUMNS))
        if paths is not None:
            with open(os.path.join(d, "paths.csv"), "w", encoding="utf-8") as f:
                f.write(results.csv_text(paths, publish.PATH_COLUMNS))

    def run_report(self, *args):
        err, out = io.StringIO(), io.StringIO()
        with contextlib.redirect_stderr(err), contextlib.redirect_stdout(out):
            rc = report.main(["--data", self.data, *args], newest=newest)
        return rc, out.getvalue() + err.getvalue()

    def read(self, rel):
        with open(os.path.join(self.data, rel), encoding="utf-8") as f:
            return f.read()

    def assert_refused(self, res, names):
        """Each placeholder (written without its braces) is a KeyError."""
        for name in names:
            with self.assertRaises(KeyError, msg=name):
                report.resolve([res], name)

    def load(self):
        return {s.name: s for s in report.load(self.data, newest)}


class StatisticsTest(Case):
    def test_cells_keep_the_newest_version_and_count_failed_runs(self):
        res = self.load()["sticky"]
        gr = res.cell("baseline.gr_sty.cubic")
        self.assertEqual(gr.values["switches"], [80, 90, 100, 110, 120])  # 9999 dropped
        self.assertEqual(res.dropped, [("baseline.gr_sty.cubic", results.UNRECORDED, 1)])
        tp = res.cell("baseline.tp_sty.cubic")
        self.assertEqual((tp.runs, tp.failed, tp.intervals["switches"].n), (6, 1, 5))
        # dft 300..340: mean 320, s = sqrt(250), half = t(0.975, 4) * s / sqrt(5)
        iv = res.cell("baseline.dft.cubic").intervals["switches"]
        self.assertAlmostEqual(iv.mean, 320.0)
        self.assertAlmostEqual(iv.half, T_975_4 * math.sqrt(250) / math.sqrt(5), places=9)

    def test_figures_name_each_scenarios_length_when_a_set_mixes_lengths(self):
        res = self.load()["sticky"]
        self.assertEqual(report.scenario_ticks(res, "cubic", ["baseline", "3p-50"]),
                         ["baseline", "3p-50"])  # fmt: skip
        # the planned lengths: baseline at the paper's 624 s, its bbr cells at 120 s
        rows = [run_row("baseline.minrtt.cubic", k) for k in (1, 2)]
        rows += [dict(run_row("baseline.minrtt.bbr", k), duration_s=120.0) for k in (1, 2)]
        rows += [dict(run_row("3p-50.minrtt.bbr", k), duration_s=120.0) for k in (1, 2)]
        for r in rows[:2]:
            r["duration_s"] = 624.0
        self.write_set("sticky", rows)
        res = self.load()["sticky"]
        self.assertEqual(report.scenario_ticks(res, "cubic", ["baseline", "3p-50"]),
                         ["baseline\n624 s", "3p-50"])  # fmt: skip
        self.assertEqual(report.scenario_ticks(res, "bbr", ["baseline", "3p-50"]),
                         ["baseline\n120 s", "3p-50\n120 s"])  # fmt: skip

    def test_baseline_is_minrtt_where_a_group_has_one_else_dft(self):
        res = self.load()["sticky"]
        base = res.group("baseline.cubic")
        self.assertEqual(base.ref, "dft")
        self.assertEqual([c.other for c in base.comparisons["switches"]], ["gr_sty", "tp_sty"])
        # every dft run above every gr_sty and tp_sty run: exact p = 2 / C(10, 5) = 2/252 each;
        # Holm over the two: 2 * 2/252
        for c in base.comparisons["switches"]:
            self.assertAlmostEqual(c.p_perm, 2 / 252)
            self.assertAlmostEqual(c.p_holm, 4 / 252)
            self.assertTrue(c.sig)
        self.assertAlmostEqual(base.comparisons["switches"][0].diff, 320 - 100)
        p50 = res.group("3p-50.cubic")
        self.assertEqual(p50.ref, "minrtt")
        (c,) = p50.comparisons["switches"]
        # 3 vs 3, wholly apart: 2 / C(6, 3) = 0.1, never significant
        self.assertEqual((c.other, c.n_ref, c.n_other), ("dft", 3, 3))
        self.assertAlmostEqual(c.p_perm, 0.1)
        self.assertFalse(c.sig)

    def test_pace_is_the_mean_gap_between_runs_of_one_batch(self):
        # 10 s videos: runs of one batch follow each other within 2 * 10 + 90 = 110 s
        starts = [("baseline.dft.cubic", 1, 0), ("baseline.gr_sty.cubic", 1, 20),
                  ("baseline.dft.cubic", 2, 50),
                  ("baseline.gr_sty.cubic", 2, 200),  # 150 s later: another batch
                  ("3p-50.dft.cubic", 1, 230),  # another scenario between two baseline runs
                  ("baseline.dft.cubic", 3, 260), ("baseline.gr_sty.cubic", 3, 300)]  # fmt: skip
        rows = [dict(run_row(c, k), started_utc=f"2026-11-22T10:{t // 60:02d}:{t % 60:02d}+00:00")
                for c, k, t in starts]  # fmt: skip
        rows.append(run_row("baseline.tp_sty.cubic", 1))  # published before starts were kept
        self.write_set("sticky", rows)
        sets = report.load(self.data, newest)
        (res,) = sets
        self.assertEqual(report.pace_s(res, "baseline.*.cubic"), (30.0, 3))  # 20, 30, 40
        self.assertEqual(report.pace_s(res, "baseline.*.cubic,3p-50.*"), (30.0, 3))
        self.assertEqual(report.pace_s(res, "baseline.dft.cubic"), (None, 0))
        self.assertEqual(report.resolve(sets, "pace sticky/baseline.*.cubic"), "30")
        self.assertEqual(report.resolve(sets, "pace sticky/baseline.dft.cubic"),
                         "n/a (no two runs of one batch)")  # fmt: skip
        with self.assertRaisesRegex(KeyError, "no cell of sticky matches"):
            report.pace_s(res, "A-1.*")
        rows.append(dict(run_row("3p-150.dft.cubic", 1), duration_s=120.0))
        self.write_set("sticky", rows)
        with self.assertRaisesRegex(KeyError, "several video lengths"):
            report.pace_s(self.load()["sticky"], "*")

    def test_metrics_without_values_are_listed_not_tabulated(self):
        res = self.load()["sticky"]
        self.assertNotIn("frame_delay_mean_s", res.metrics)
        self.assertIn("frame_delay_mean_s", res.absent)
        self.assertEqual(res.path_metrics, [])

    def test_significant_counts_untested_comparisons_apart_and_gives_the_direction(self):
        rows = fixture()
        rows += [run_row("3p-50.gr_sty.cubic", k, switches=40) for k in (1, 2)]  # n too small
        rows += [run_row("3p-50.tp_sty.cubic", k, switches=400 + k) for k in range(1, 6)]
        rows += [run_row("3p-50.minrtt.cubic", k, switches=50 + k) for k in (4, 5)]
        self.write_set("sticky", rows)
        res = self.load()["sticky"]
        # minrtt 51..55 against dft 301..303: exact 2 / C(8, 3) = 2/56; against tp_sty
        # 401..405: 2/252; Holm over the two tested: 2 * 2/252, then max(that, 2/56)
        tested, untested, sig = report.significant(res, "3p-50.cubic", "switches")
        self.assertEqual((tested, untested), (2, 1))
        self.assertEqual([s[:3] for s in sig], [("dft", "3p-50.cubic", "higher"),
                                                ("tp_sty", "3p-50.cubic", "higher")])  # fmt: skip
        self.assertAlmostEqual(sig[0][3], 2 / 56)
        self.assertAlmostEqual(sig[1][3], 4 / 252)
        # gr_sty's third run: tested now, 2/56 as dft; Holm over three: tp_sty 3 * 2/252,
        # then 2 * 2/56 = 0.071 for dft and gr_sty, no longer significant
        rows += [run_row("3p-50.gr_sty.cubic", 3, switches=40)]
        self.write_set("sticky", rows)
        res = self.load()["sticky"]
        self.assertEqual(
            report.resolve([res], "sig sticky/3p-50.cubic switches"),
            "1 of 3 (tp_sty higher in 3p-50.cubic, p 0.024)",
        )
        # the lowest Holm p over groups and metrics: tp_sty's switches in 3p-50.cubic; in
        # baseline.cubic (against dft) gr_sty and tp_sty switches each 2/252, Holm 4/252
        self.assertEqual(report.resolve([res], "minp sticky/3p-50.cubic switches"), "0.024")
        self.assertEqual(report.resolve([res], "minp sticky/3p-50.cubic discards"), "1.000")
        self.assertEqual(report.resolve([res], "minp sticky/*.cubic discards,switches"), "0.016")
        self.assert_refused(res, (
            "minp sticky/3p-50.cubic nope", "minp sticky/nope.* switches",
            "minp sticky/3p-50.cubic path1_share_pct", "minp sticky/3p-50.cubic",
        ))  # fmt: skip
        # the range of them, for all schedulers or the named ones; one value when alike
        for name, want in (
            ("3p-50.cubic switches *", "0.024 to 0.071"),
            ("3p-50.cubic switches tp_sty", "0.024"),
            ("3p-50.cubic switches dft,gr_sty", "0.071"),
            ("*.cubic switches gr_sty", "0.016 to 0.071"),
            ("baseline.cubic switches *", "0.016"),
        ):
            self.assertEqual(report.resolve([res], "prange sticky/" + name), want, name)
        self.assert_refused(res, (
            "prange sticky/3p-50.cubic switches", "prange sticky/3p-50.cubic switches nope",
            "prange sticky/3p-50.cubic nope *", "prange sticky/nope.* switches *",
            "prange sticky/3p-50.cubic path1_share_pct *",
            "prange sticky/3p-50.cubic,old/sticky/3p-50.cubic switches *",
        ))  # fmt: skip

    def claim_set(self, tr_version=V1):
        """baseline.lia, 5 runs a cell: minrtt and tr_sty 0 discards, gr_sty and tp_sty 11..15
        (each against minrtt 2/252, Holm over the three: 3 * 2/252 = 0.024, tr_sty 1); no
        underflows."""
        rows = []
        for k in range(1, 6):
            rows.append(run_row("baseline.minrtt.lia", k))
            rows.append(run_row("baseline.gr_sty.lia", k, discards=10 + k))
            rows.append(run_row("baseline.tp_sty.lia", k, discards=10 + k))
            rows.append(run_row("baseline.tr_sty.lia", k, version=tr_version))
        self.write_set("sticky", rows)
        return self.load()["sticky"]

    def test_a_claims_verdict_follows_the_comparisons_with_the_baseline(self):
        res = self.claim_set()

        def claim(metrics, expected, group="baseline.lia"):
            spec = f"sticky/{group}/{metrics}/{expected}"
            verdict = report.resolve([res], "verdict " + spec)
            return f"**{verdict}** ({report.resolve([res], 'comparisons ' + spec)})"

        hits = (
            "gr_sty higher in baseline.lia discards, p 0.024; "
            "tp_sty higher in baseline.lia discards, p 0.024"
        )
        with mock.patch.object(mx, "PLANNED_RUNS", 5):
            self.assertEqual(
                claim("discards", "gr_sty:higher,tp_sty:higher,tr_sty:same"),
                f"**agrees** (2 of 2 expected differences significant ({hits}); "
                "1 of 1 without a difference as expected)",
            )
            self.assertEqual(
                claim("discards,underflows", "gr_sty:higher,tp_sty:higher,tr_sty:same"),
                f"**agrees in part** (2 of 4 expected differences significant ({hits}); "
                "2 of 2 without a difference as expected)",
            )
            self.assertEqual(
                claim("underflows", "gr_sty:same,tp_sty:same,tr_sty:same"),
                "**agrees** (3 of 3 without a difference as expected)",
            )
            self.assertEqual(
                report.resolve([res], "verdict sticky/baseline.lia/discards,underflows/"
                                      "gr_sty:higher,tp_sty:higher,tr_sty:same"),
                "agrees in part",
            )  # fmt: skip
            spec = "sticky/baseline.lia/discards/gr_sty:higher,tp_sty:higher"
            self.assertEqual(report.resolve([res], f"verdict {spec} check=agrees"), "")
            spec = "sticky/baseline.lia/discards,underflows/gr_sty:higher,tp_sty:higher"
            with self.assertRaisesRegex(KeyError, "the data give agrees in part"):
                report.resolve([res], f"verdict {spec} check=agrees")
            self.assertEqual(
                claim("discards", "tr_sty:higher"),
                "**not significant** (none of 1 expected differences significant)",
            )
            self.assertEqual(
                claim("discards", "gr_sty:lower,tr_sty:same"),
                "**disagrees** (none of 1 expected differences significant; 1 of 1 without a "
                "difference as expected; against the claim: gr_sty higher in baseline.lia "
                "discards, p 0.024)",
            )
            self.assertEqual(
                claim("discards", "tp_sty:same"),
                "**disagrees** (0 of 1 without a difference as expected; against the claim: "
                "tp_sty higher in baseline.lia discards, p 0.024)",
            )
            # tr_sty's runs of another code version: its comparisons cannot be made
            res = self.claim_set(tr_version="v2")
            self.assertEqual(claim("discards", "tr_sty:same"), "**untested** (1 untested)")
            self.assertTrue(
                claim("discards", "gr_sty:higher,tr_sty:same").startswith(
                    "**agrees in part** (1 of 1 expected differences significant"
                )
            )
        # at the plan's 10 runs a cell, 5 are not enough for a verdict
        self.assertEqual(
            claim("discards", "gr_sty:higher,tr_sty:same"),
            f"**pending** (3 of 3 cells below {mx.PLANNED_RUNS} runs)",
        )
        # a claim rests on every planned group it names: those not run yet keep it pending
        with mock.patch.object(mx, "PLANNED_RUNS", 5):
            self.assertEqual(
                claim("discards", "gr_sty:higher", "baseline.*"),
                "**pending** (6 of 8 cells below 5 runs)",
            )
            self.assertEqual(
                claim("discards", "gr_sty:lower", "baseline-loss0p5.cubic"),
                "**pending** (2 of 2 cells below 5 runs)",
            )
        self.assert_refused(res, [
            f"{kind} sticky/baseline.lia/{bad}" for kind in ("verdict", "comparisons")
            for bad in ("discards/gr_sty:bigger", "discards/gr_sty",
                        "discards/gr_sty:higher,gr_sty:lower", "discards/nope:same",
                        "path1_share_pct/gr_sty:same", "nope/gr_sty:same",
                        "discards/bnaware:same")
        ])  # fmt: skip
        self.assert_refused(res, ("verdict sticky/nope.lia/discards/gr_sty:same",
                                  "verdict sticky/A-1.cubic/discards/gr_sty:same",
                                  "verdict sticky/baseline.lia/discards/gr_sty:same check=x y",
                                  "verdict sticky/baseline.lia/discards/gr_sty:same during=0..5",
                                  ))  # fmt: skip

    def test_holds_checks_the_words_on_the_cells_as_they_are(self):
        # 5 runs a cell, below the plan's 10: a claim is pending, the words' check is not
        res = self.claim_set()
        holds = "holds sticky/baseline.lia/"
        self.assertEqual(report.resolve([res], holds + "discards/gr_sty:higher,tr_sty:same"), "")
        self.assertEqual(report.resolve([res], holds + "underflows/gr_sty:same"), "")
        for words, verdict in (
            ("discards/gr_sty:lower", "disagrees"),  # significant the other way
            ("discards/tr_sty:higher", "not significant"),
            ("discards,underflows/gr_sty:higher", "agrees in part"),
            ("discards/tp_sty:same", "disagrees"),
        ):
            with self.assertRaisesRegex(KeyError, f"the data give {verdict} ", msg=words):
                report.resolve([res], holds + words)
        # a cell of another code version cannot be compared, so its words are not checked
        res = self.claim_set(tr_version="v2")
        with self.assertRaisesRegex(KeyError, "the data give untested "):
            report.resolve([res], holds + "discards/tr_sty:same")
        # a group of the plan not run yet, or a named cell it lacks, cannot back words either
        with self.assertRaisesRegex(KeyError, "the data give agrees in part "):
            report.resolve([res], "holds sticky/baseline.lia,baseline.olia/discards/gr_sty:higher")
        rows = [run_row(f"baseline.{s}.lia", k, discards=10 * (s == "gr_sty") + k)
                for s in ("minrtt", "gr_sty") for k in range(1, 6)]  # fmt: skip
        self.write_set("sticky", rows)
        res = self.load()["sticky"]
        self.assertEqual(report.resolve([res], holds + "discards/gr_sty:higher"), "")
        with self.assertRaisesRegex(KeyError, "the data give agrees in part "):
            report.resolve([res], holds + "discards/gr_sty:higher,tp_sty:same")
        self.assert_refused(res, (holds + "discards/gr_sty:bigger", holds + "nope/gr_sty:same"))

    def test_zero_below_and_rising_check_hand_words_about_runs_and_means(self):
        # fixture: discards dft 0 x 5, gr_sty 1..5, tp_sty 0 x 5; switches dft 300..340,
        # gr_sty 80..120 (mean 100), tp_sty 100..104 (mean 102)
        res = self.load()["sticky"]
        ok = (
            "zero sticky/baseline.dft.cubic,sticky/baseline.tp_sty.cubic discards,underflows",
            "below sticky/baseline.gr_sty.cubic,sticky/baseline.tp_sty.cubic "
            "sticky/baseline.dft.cubic switches",
            "rising sticky/baseline.gr_sty.cubic,sticky/baseline.tp_sty.cubic,"
            "sticky/baseline.dft.cubic switches",
        )
        for name in ok:
            self.assertEqual(report.resolve([res], name), "", name)
        for name, why in (
            ("zero sticky/baseline.*.cubic discards", "baseline.gr_sty.cubic discards up to 5"),
            (
                "below sticky/baseline.tp_sty.cubic sticky/baseline.gr_sty.cubic switches",
                "104 against 80",
            ),
            (
                "below sticky/baseline.dft.cubic sticky/baseline.dft.cubic switches",
                "340 against 300",
            ),
            (
                "rising sticky/baseline.tp_sty.cubic,sticky/baseline.gr_sty.cubic switches",
                "cubic 102, ",
            ),
            # equal means are not an order
            (
                "rising sticky/baseline.dft.cubic,sticky/baseline.tp_sty.cubic discards",
                "rising means",
            ),
        ):
            with self.assertRaisesRegex(KeyError, why, msg=name):
                report.resolve([res], name)
        self.assert_refused(res, (
            "zero sticky/nope.* discards", "zero sticky/baseline.dft.cubic nope",
            "rising sticky/baseline.dft.cubic switches", "below sticky/baseline.dft.cubic switches",
            "rising sticky/baseline.dft.cubic,sticky/baseline.nope.cubic switches",
            "rising sticky/baseline.dft.cubic,sticky/baseline.*.cubic switches",
        ))  # fmt: skip

    def test_within_checks_that_every_cell_mean_lies_in_the_stated_bounds(self):
        # fixture: switches means dft 320, gr_sty 100, tp_sty 102 (baseline.cubic)
        res = self.load()["sticky"]
        for bounds in ("100..320", "99.5..320.5", "100..400"):
            name = f"within sticky/baseline.*.cubic switches {bounds}"
            self.assertEqual(report.resolve([res], name), "", name)
        for bounds, why in (
            ("101..400", "baseline.gr_sty.cubic 100'$"),
            ("100..319", "baseline.dft.cubic 320'$"),
            ("200..250", "give baseline.dft.cubic 320, baseline.gr_sty.cubic 100, baseline.tp_sty"),
        ):
            with self.assertRaisesRegex(KeyError, why, msg=bounds):
                report.resolve([res], f"within sticky/baseline.*.cubic switches {bounds}")
        # the interval's ends, half-width and run count (n 5 in every fixture cell)
        self.assertEqual(
            report.resolve([res], "within sticky/baseline.*.cubic switches 5..5 n"), ""
        )
        with self.assertRaisesRegex(KeyError, "run counts of switches in .* give baseline.dft"):
            report.resolve([res], "within sticky/baseline.*.cubic switches 6..10 n")
        self.assertEqual(
            report.resolve([res], "within sticky/baseline.dft.cubic switches 0..320 lo"), ""
        )
        with self.assertRaisesRegex(KeyError, "upper interval ends of switches"):
            report.resolve([res], "within sticky/baseline.dft.cubic switches 0..320 hi")
        self.assert_refused(res, [f"within sticky/{bad}" for bad in (
            "baseline.*.cubic switches 0..1 half",
            "baseline.*.cubic switches 10..1", "baseline.*.cubic switches 1-10",
            "baseline.*.cubic switches a..10", "baseline.*.cubic switches",
            "nope.* switches 0..1", "baseline.*.cubic nope 0..1",
            "baseline.*.cubic path1_share_pct 0..100",
            "baseline.*.cubic switches 0..400 runs=1-5",
            "baseline.*.cubic switches 0..400 during=0..50",
        )])  # fmt: skip

    def test_builds_counts_module_hashes_per_scheduler_over_sets_and_kept_runs(self):
        rows = fixture()
        for r in rows:
            if r["status"] == "ok":
                r["module_sha256"] = {"dft": "d1" if r["run"] < 3 else "d2", "gr_sty": "g1",
                                      "minrtt": "m1"}.get(r["scheduler"], "")  # fmt: skip
        rows[-4]["module_sha256"] = ""  # a run that did not record it counts for nothing
        gr6 = next(r for r in rows if r["cell"] == "baseline.gr_sty.cubic" and r["run"] == 6)
        gr6["module_sha256"] = "g9"  # an older version's run, dropped with it
        self.write_set("sticky", rows)
        self.write_set("old/sticky", [run_row("3p-150.dft.cubic", k, module_sha256=f"d{k + 1}")
                                      for k in (1, 2)])  # fmt: skip
        sets = self.load()
        self.assertEqual(
            report.resolve([sets["sticky"]], "builds sticky"),
            "two values for `dft` and one value for `minrtt` and `gr_sty`",
        )
        self.assertEqual(
            report.resolve(list(sets.values()), "builds sticky,old/sticky"),
            "three values for `dft` and one value for `minrtt` and `gr_sty`",
        )
        self.assertEqual(
            report.resolve([sets["old/sticky"]], "builds old/sticky"), "two values for `dft`"
        )
        self.assert_refused(sets["sticky"], ("builds nope", "builds sticky,nope"))
        with self.assertRaisesRegex(
            KeyError, "one module sha256 a scheduler.*two values for `dft`"
        ):
            report.resolve([sets["sticky"]], "onebuild sticky")
        self.write_set("sticky", [r for r in rows if r["scheduler"] != "dft"])
        self.assertEqual(report.resolve([self.load()["sticky"]], "onebuild sticky"), "")
        self.write_set("old/sticky", [run_row("3p-150.dft.cubic", 1)])
        self.assert_refused(self.load()["old/sticky"], ("builds old/sticky",))

    def test_mixedbuilds_names_the_cells_whose_runs_loaded_two_builds(self):
        rows = fixture()
        for r in rows:
            if r["cell"] == "baseline.dft.cubic":
                r["module_sha256"] = "d1" if r["run"] in (1, 2, 5) else "d2"
            if r["cell"] == "3p-50.minrtt.cubic":  # one scheduler build, two of the control
                r["module_sha256"], r["cc_module_sha256"] = "m1", f"c{r['run'] % 2}"
        self.write_set("sticky", rows)
        self.assertEqual(
            report.resolve([self.load()["sticky"]], "mixedbuilds sticky"),
            "2 cells of sticky; baseline.dft.cubic of sticky: runs 1-2, 5 one build, 3-4 another",
        )
        self.write_set("sticky", fixture())
        self.assertEqual(report.resolve([self.load()["sticky"]], "mixedbuilds sticky"), "no cell")

    def test_progress_counts_ok_runs_in_the_planned_cells(self):
        rows = [run_row(f"baseline.{s}.lia", k) for s in ("minrtt", "dft", "gr_sty", "tp_sty",
                "tr_sty") for k in range(1, 6)]  # fmt: skip
        rows.append(run_row("baseline.tr_sty.lia", 6, status="failed"))
        rows += [run_row("baseline.minrtt.olia", k) for k in (1, 2)]
        rows += [run_row("baseline.gr_sty.olia", k) for k in range(1, 6)]
        self.write_set("sticky", rows)
        res = self.load()["sticky"]
        self.assertEqual(
            report.resolve([res], "progress sticky"),
            "complete (10 runs a cell): none; under way: baseline.lia (5 runs a cell), "
            "baseline.olia (0-5 runs a cell); not started: 16 of 18 groups",
        )
        with mock.patch.object(mx, "PLANNED_RUNS", 5):
            self.assertEqual(
                report.resolve([res], "progress sticky"),
                "complete (5 runs a cell): baseline.lia; under way: baseline.olia (0-5 runs a "
                "cell); not started: 16 of 18 groups",
            )
        rows += [run_row(f"3p-50.{s}.lia", 1) for s in ("minrtt", "dft", "gr_sty", "tp_sty",
                 "tr_sty")]  # fmt: skip
        self.write_set("sticky", rows)
        self.assertIn(
            "3p-50.lia (1 run a cell); not started: 15 of 18",
            report.resolve([self.load()["sticky"]], "progress sticky"),
        )

    def test_a_plan_file_narrows_progress_left_and_claims_to_its_cells(self):
        rows = [run_row(f"baseline.{s}.cubic", k, duration_s=624.0) for s in ("minrtt", "dft",
                "gr_sty", "tp_sty", "tr_sty") for k in range(1, 11)]  # fmt: skip
        self.write_set("round3/sticky", rows)
        whole = self.load()["round3/sticky"]
        self.assertEqual(report.resolve([whole], "cells round3/sticky"), "*")
        progress = report.resolve([whole], "progress round3/sticky")
        self.assertIn("not started: 17 of 18 groups", progress)
        plan = os.path.join(self.data, "round3", "sticky", "data", report.PLAN)
        with open(plan, "w", encoding="utf-8") as f:
            f.write("# ours\nbaseline.*.cubic\n\n3p-50.*.bbr\n")
        res = self.load()["round3/sticky"]
        cells = report.resolve([res], "cells round3/sticky")
        self.assertEqual(cells, "baseline.*.cubic,3p-50.*.bbr")
        self.assertEqual(
            report.resolve([res], "progress round3/sticky"),
            "complete (10 runs a cell): baseline.cubic; not started: 1 of 2 groups",
        )
        # left: 3p-50.bbr only, 5 cells x 10 runs at the short length
        left = report.resolve([res], "left round3/sticky")
        self.assertTrue(left.startswith("50 runs, about "), left)
        self.assertNotEqual(left, report.resolve([whole], "left round3/sticky"))
        # a plan whose every group is complete says so, with nothing left
        with open(plan, "w", encoding="utf-8") as f:
            f.write("baseline.*.cubic\n")
        done = self.load()["round3/sticky"]
        self.assertEqual(
            report.resolve([done], "progress round3/sticky"),
            "complete (10 runs a cell): every planned group (baseline.cubic)",
        )
        self.assertEqual(report.resolve([done], "left round3/sticky"), "nothing")
        with open(plan, "w", encoding="utf-8") as f:
            f.write("# ours\nbaseline.*.cubic\n\n3p-50.*.bbr\n")
        # a claim over a group outside the plan names no group; one inside it waits for it
        with self.assertRaisesRegex(KeyError, "or of its plan matches"):
            report.resolve([res], "verdict round3/sticky/3p-150.cubic/switches/gr_sty:lower")
        self.assertEqual(
            report.resolve([res], "verdict round3/sticky/3p-50.bbr/switches/gr_sty:lower"),
            "pending",
        )
        # a set holding a cell outside its plan, or a plan naming nothing, is malformed
        for text, err in (
            ("3p-50.*.bbr\n", "cells outside the set's plan"),
            ("# none\n", "names no cell pattern"),
            ("baseline.*.cubic\nnope.*\n", "'nope.[*]' matches no cell"),
        ):
            with open(plan, "w", encoding="utf-8") as f:
                f.write(text)
            with self.assertRaisesRegex(report.ReportError, err):
                self.load()

    def test_plan_is_the_matrix_in_the_runners_batches(self):
        # sticky's headline: 3 scenarios x 5 schedulers at 624 s, 10 runs each; a scenario's
        # 50 runs are 2 batches (40 // 5 = 8 runs of each cell, then 2)
        head = (6 * mx.BOOT_OVERHEAD_S + 150 * (624 + mx.PER_RUN_OVERHEAD_S)) / 3600
        got = {f: report.resolve([], f"plan sticky headline {f}") for f in ("cells", "runs", "h")}
        self.assertEqual(got, {"cells": "15", "runs": "150", "h": results.fmt(head, 1)})
        self.assertEqual(report.resolve([], "plan sticky headline length"), "624")
        self.assertEqual(report.resolve([], "plan * all length"), "624, 360, 120")
        lia = (2 * mx.BOOT_OVERHEAD_S + 50 * (120 + mx.PER_RUN_OVERHEAD_S)) / 3600
        self.assertEqual(report.resolve([], "plan sticky baseline.*.lia h"), results.fmt(lia, 1))
        n = sum(len(mx.cells(e)) for e in mx.EXPERIMENTS)
        self.assertEqual(report.resolve([], "plan * all cells"), str(n))
        self.assertEqual(report.resolve([], "plan sticky,bnaware short runs"),
                         report.resolve([], "plan * short runs"))  # fmt: skip
        for bad in ("nope all h", "sticky A-1.* h", "sticky all hours", "sticky h"):
            with self.assertRaises(KeyError, msg=bad):
                report.resolve([], "plan " + bad)

    def test_model_quotes_the_time_models_constants(self):
        self.assertEqual(report.resolve([], "model per_run_s"), str(mx.PER_RUN_OVERHEAD_S))
        self.assertEqual(report.resolve([], "model boot_s"), str(mx.BOOT_OVERHEAD_S))
        self.assertEqual(report.resolve([], "model batch_runs"), str(mx.BATCH_RUNS))
        self.assertEqual(report.resolve([], "model planned_runs"), str(mx.PLANNED_RUNS))
        for bad in ("PER_RUN_OVERHEAD_S", "SCENARIOS", "", "boot_s batch_runs"):
            with self.assertRaises(KeyError, msg=bad):
                report.resolve([], "model " + bad)

    def test_left_counts_what_the_set_lacks_at_the_planned_lengths_at_its_pace(self):
        scheds = ("minrtt", "dft", "gr_sty", "tp_sty", "tr_sty")
        rows = []
        for i, (k, sched) in enumerate((k, s) for k in range(1, 11) for s in scheds):
            t = 300 * i  # one batch, a run every 300 s
            stamp = f"2026-11-22T{10 + t // 3600:02d}:{t // 60 % 60:02d}:{t % 60:02d}+00:00"
            rows.append(dict(run_row(f"baseline.{sched}.lia", k), duration_s=120.0,
                             started_utc=stamp))  # fmt: skip
        rows += [dict(run_row("baseline.minrtt.olia", k), duration_s=120.0) for k in range(1, 5)]
        rows.append(dict(run_row("baseline.dft.olia", 1, status="failed"), duration_s=120.0))
        # a headline cell's runs at 120 s are not its plan's (624 s)
        rows += [dict(run_row("baseline.dft.cubic", k), duration_s=120.0) for k in range(1, 11)]
        self.write_set("sticky", rows)
        res = self.load()["sticky"]
        # 90 sticky cells, 54 runs held ok at their length. The baseline's 120 s cells: bbr,
        # lia, olia, 150 runs in 5 batches (2 runs of each of 15 cells a batch) in the full
        # plan; left: bbr's 50 and olia's 46 runs, 10 cells in 3 batches (4 runs each a batch),
        # at the measured 300 s a run
        full = report.plan_time(mx.cells("sticky"))[1]
        full_b120 = 5 * mx.BOOT_OVERHEAD_S + 150 * (120 + mx.PER_RUN_OVERHEAD_S)
        left_b120 = 3 * mx.BOOT_OVERHEAD_S + 96 * 300
        want = (full - full_b120 + left_b120) / 3600
        got = report.resolve([res], "left sticky")
        self.assertEqual(got, f"{900 - 54} runs, about {results.fmt(want, 1)} h of machine time")
        with mock.patch.object(mx, "PLANNED_RUNS", 1):
            rows = [dict(run_row(c.name, 1), duration_s=mx.planned_duration(c))
                    for c in mx.cells("sticky")]  # fmt: skip
            self.write_set("sticky", rows)
            self.assertEqual(report.resolve([self.load()["sticky"]], "left sticky"), "nothing")

    def test_cells_of_two_video_lengths_are_not_compared(self):
        rows = []
        for k in range(1, 6):  # 10..14 against 0..4 discards: 2/252 at one length
            rows.append(dict(run_row("baseline.gr_sty.cubic", k, discards=9 + k), duration_s=60.0))
            rows.append(run_row("baseline-q50.gr_sty.cubic", k, discards=k - 1))
            rows.append(run_row("baseline-q50.tp_sty.cubic", k, discards=9 + k))
        self.write_set("sticky", rows)
        res = self.load()["sticky"]
        a, b = (res.cell(n) for n in ("baseline.gr_sty.cubic", "baseline-q50.gr_sty.cubic"))
        self.assertEqual(report.compare_cells(a, b, "discards").reason, report.LENGTHS_DIFFER)
        across = "pair sticky/baseline.gr_sty.cubic sticky/baseline-q50.gr_sty.cubic discards "
        self.assertEqual(report.resolve([res], across + "p"), f"n/a ({report.LENGTHS_DIFFER})")
        self.assert_refused(res, [across + "lower", across + "same"])
        within = "pair sticky/baseline-q50.tp_sty.cubic sticky/baseline-q50.gr_sty.cubic discards "
        self.assertEqual(report.resolve([res], within + "p"), "0.008")

    def test_controls_are_compared_per_scheduler_as_one_family(self):
        rows = []
        for k in range(1, 6):  # 10..14 against 0..4: exact 2 / C(10, 5) = 2/252
            rows.append(run_row("baseline.dft.lia", k, discards=9 + k))
            rows.append(run_row("baseline.dft.olia", k, discards=k - 1))
        for k in range(1, 4):  # 3 vs 3 wholly apart: 2/20 = 0.1
            rows.append(run_row("baseline.minrtt.lia", k, discards=k))
            rows.append(run_row("baseline.minrtt.olia", k, discards=10 + k))
            rows.append(run_row("baseline.gr_sty.olia", k, discards=k))
            rows.append(run_row("baseline.tr_sty.lia", k, version="v2", discards=50))
            rows.append(run_row("baseline.tr_sty.olia", k, discards=0))
        rows += [run_row("baseline.gr_sty.lia", k, discards=40) for k in (1, 2)]  # too few
        rows += [run_row("baseline.tp_sty.lia", k, discards=90) for k in (1, 2, 3)]  # no olia
        self.write_set("sticky", rows)
        res = self.load()["sticky"]
        pairs = report.control_comparisons(res, "baseline.*", "lia", "olia", "discards")
        self.assertEqual([label for label, _c in pairs],
                         ["baseline.minrtt", "baseline.dft", "baseline.gr_sty",
                          "baseline.tr_sty"])  # fmt: skip
        self.assertEqual([c.reason for _l, c in pairs[2:]],
                         [stats.TOO_FEW, stats.VERSIONS_DIFFER])  # fmt: skip
        # Holm over the two tested: 2 * 2/252 for dft, then max(that, 0.1) for minrtt
        self.assertAlmostEqual(pairs[1][1].p_holm, 4 / 252)
        self.assertAlmostEqual(pairs[0][1].p_holm, 0.1)
        self.assertEqual(
            report.resolve([res], "ccsig sticky/baseline.* lia olia discards"),
            "1 of 2 (olia lower with baseline.dft, p 0.016), 2 untested",
        )
        self.assertEqual(
            report.resolve([res], "ccsig sticky/*.dft.* olia lia discards"),
            "1 of 1 (lia higher with baseline.dft, p 0.008)",
        )
        self.assertEqual(
            report.resolve([res], "ccsig sticky/baseline.minrtt.* lia olia discards"),
            "none of 1",
        )
        self.assert_refused(res, [f"ccsig sticky/{bad}" for bad in (
            "baseline.* lia cubic discards", "baseline.* lia discards",
            "baseline.* lia olia path1_share_pct", "nope.* lia olia discards",
        )])  # fmt: skip


class PageTest(Case):
    def test_placeholders_render_the_values_worked_out_by_hand(self):
        rc, msg = self.run_report()
        self.assertEqual(rc, 0, msg)
        page = self.read("scheduler-papers.md")
        self.assertTrue(page.startswith("<!-- Generated by testbed/experiments/sched_report.py"))
        half = T_975_4 * math.sqrt(250) / math.sqrt(5)
        self.assertIn(f"dft 320 ± {round(half)}\n", page)
        self.assertIn(f"dft 320 [{round(320 - half)}, {round(320 + half)}]\n", page)
        self.assertIn("n 5 min 80\n", page)
        self.assertIn("p 0.016 raw 0.008 sig yes\n", page)
        # discards: dft 0 x 5 against gr_sty 1..5: 2/252 too, Holm over gr_sty and tp_sty
        # (tp_sty 0 x 5 against dft 0 x 5: p = 1): min(1, 2 * 2/252) = 0.016
        self.assertIn("disc 0.016\n", page)
        self.assertIn("ref minrtt 0.100\n", page)
        self.assertIn("pair +2\n", page)  # tp_sty 102 - gr_sty 100
        self.assertIn("range 100-320\n", page)
        # dft against gr_sty and tp_sty both Holm 4/252 (above); 3p-50's minrtt-dft p 0.1
        self.assertIn(
            "sig 2 of 3 (gr_sty lower in baseline.cubic, p 0.016; tp_sty lower in "
            "baseline.cubic, p 0.016) | none of 1\n",
            page,
        )
        # 5 + 5 (the older run dropped) + 6 (one failed) + 3 + 3
        self.assertIn("22 runs (1 failed) in 5 cells (3-6 per cell), 10 s videos", page)
        self.assertIn("subflow_throughput.png is not made", page)
        # a claim: its verdict in bold, registered in the claims file beside the pages
        self.assertIn("S1 **pending** at code `v1`\n", page)
        self.assertEqual(
            self.read("claims/scheduler-papers.csv").splitlines(),
            ["page,key,text,verdict,evidence,anchor,superseded,setup,code",
             "scheduler-papers.md,S1,fewer switches,pending,,a,no,,v1"],
        )  # fmt: skip
        # round 1's and the regenerate pages are rendered where their templates are
        self.assertFalse(os.path.exists(os.path.join(self.data, "scheduler-round1.md")))
        with open(os.path.join(self.data, "scheduler-round1.md.in"), "w") as f:
            f.write('{{claim R1 "old" verdict="verdict sticky/baseline.cubic/switches/gr_sty:lower"'
                    " superseded=yes}}\n")  # fmt: skip
        rc, msg = self.run_report()
        self.assertEqual(rc, 0, msg)
        self.assertTrue(self.read("scheduler-round1.md").endswith("\npending at code `v1`\n"))
        self.assertIn(
            "scheduler-round1.md,R1,old,pending,,,yes,,v1", self.read("claims/scheduler-round1.csv")
        )
        tables = self.read("sticky/tables.md")
        self.assertIn("Dropped (older code version of the cell): baseline.gr_sty.cubic", tables)
        self.assertIn("against dft, upstream's default (this group has no minrtt cell", tables)
        self.assertIn("| gr_sty | cubic | 5 (0) | 100 [", tables)
        self.assertTrue(os.path.exists(os.path.join(self.data, "sticky", "switches.png")))

    def test_unknown_placeholder_or_the_baseline_against_itself_is_an_error_and_nothing_is_written(
        self,
    ):
        for bad in (
            "{{value sticky/baseline.dft.cubic switches median}}",
            "{{cmp sticky/baseline.dft.cubic switches p}}",
            "{{value sticky/baseline.nope.cubic switches}}",
            "{{what sticky}}",
            "{{sticky/baseline.dft.cubic/switches/mean}}",
            "{{sig sticky/nope.* switches}}",
            "{{sig sticky/*.cubic nope}}",
            "{{value long120/sticky/baseline.dft.cubic switches}}",
            "{{value sticky/baseline.dft.cubic switches during=0..50}}",
        ):
            with open(
                os.path.join(self.data, "scheduler-papers.md.in"), "w", encoding="utf-8"
            ) as f:
                f.write(f"x {bad}\n")
            rc, msg = self.run_report()
            self.assertEqual(rc, 1, bad)
            self.assertIn("bad placeholder", msg)
            self.assertFalse(os.path.exists(os.path.join(self.data, "scheduler-papers.md")), bad)

    def test_check_fails_on_a_stale_or_extra_file_and_passes_after_regenerating(self):
        self.assertEqual(self.run_report()[0], 0)
        rc, msg = self.run_report("--check")
        self.assertEqual(rc, 0, msg)
        path = os.path.join(self.data, "sticky", "tables.md")
        with open(path, "a", encoding="utf-8") as f:
            f.write("hand edit\n")
        old = os.path.join(self.data, "sticky", "summary.csv")
        with open(old, "w") as f:
            f.write("x\n")
        rc, msg = self.run_report("--check")
        self.assertEqual(rc, 1)
        self.assertIn("differs from the data: sticky/tables.md", msg)
        self.assertIn("no longer made: sticky/summary.csv", msg)
        self.assertIn("hand edit", self.read("sticky/tables.md"))  # check writes nothing
        # new data: the page is stale until regenerated
        self.assertEqual(self.run_report()[0], 0)
        rows = fixture() + [run_row("baseline.dft.cubic", 7, switches=500)]
        self.write_set("sticky", rows)
        rc, msg = self.run_report("--check")
        self.assertEqual(rc, 1)
        self.assertIn("differs from the data: scheduler-papers.md", msg)


CHANGE = "0123456789ab"  # a recorded change of gr_sty, in v2 and not in v1


def contains(version, commit):
    """The fixture's git ancestry: v2 includes CHANGE, v1 and unrecorded do not."""
    return version == "v2" and commit == CHANGE


class StaleTest(Case):
    """A verdict on runs older than a recorded change of their code (scheduler-changes.csv)."""

    def setUp(self):
        super().setUp()
        self.record(CHANGE, "gr_sty")

    def record(self, commit, modules):
        with open(os.path.join(self.data, "scheduler-changes.csv"), "w") as f:
            f.write(f"commit,date,modules,change\n{commit},2026-11-29,{modules},a rule\n")

    def render(self, claim, *args):
        with open(os.path.join(self.data, "scheduler-papers.md.in"), "w") as f:
            f.write(claim + "\n")
        err, out = io.StringIO(), io.StringIO()
        with contextlib.redirect_stderr(err), contextlib.redirect_stdout(out):
            rc = report.main(["--data", self.data, *args], newest=newest, contains=contains)
        return rc, out.getvalue() + err.getvalue()

    CLAIM = '{{claim S1 "fewer" verdict="verdict sticky/baseline.cubic/switches/gr_sty:lower"'

    def test_an_unmarked_stale_verdict_fails_and_a_marked_one_says_so_plainly(self):
        rc, msg = self.render(self.CLAIM + "}}")
        self.assertEqual(rc, 1, msg)
        self.assertIn(f"S1: its runs (v1) were made before recorded change(s) {CHANGE}", msg)
        self.assertFalse(os.path.exists(os.path.join(self.data, "scheduler-papers.md")))
        marked = self.CLAIM + " stale=yes}} {{verdict sticky/baseline.cubic/switches/gr_sty:lower}}"
        rc, msg = self.render(marked)
        self.assertEqual(rc, 0, msg)
        pending = f"rests on v1, before {CHANGE}: rerun pending; its runs give pending"
        self.assertIn(f"\n{pending} {pending}\n", self.read("scheduler-papers.md"))
        self.assertIn(
            f'scheduler-papers.md,S1,fewer,"{pending}",,,no,,v1',
            self.read("claims/scheduler-papers.csv"),
        )
        self.assertEqual(self.render(marked, "--check")[0], 0)

    def test_a_mark_on_runs_that_include_every_change_fails(self):
        rows = [dict(r, code_version="v2") for r in fixture() if r["code_version"] == V1]
        self.write_set("sticky", rows)
        rc, msg = self.render(self.CLAIM + " stale=yes}}")
        self.assertEqual(rc, 1, msg)
        self.assertIn("S1: marked stale=yes, but its runs (v2) include every recorded", msg)
        rc, msg = self.render(self.CLAIM + "}}")
        self.assertEqual(rc, 0, msg)
        self.assertIn("**pending** at code `v2`", self.read("scheduler-papers.md"))

    def test_a_change_of_another_module_leaves_the_verdict_standing(self):
        self.record(CHANGE, "bnaware tr_sty")
        rc, msg = self.render(self.CLAIM + "}}")
        self.assertEqual(rc, 0, msg)
        self.assertIn("**pending** at code `v1`", self.read("scheduler-papers.md"))
        # the baseline's own module counts: dft is the group's baseline here
        self.record(CHANGE, "dft")
        self.assertEqual(self.render(self.CLAIM + "}}")[0], 1)

    def test_the_rerun_plan_is_every_planned_cell_of_the_stale_claims_groups(self):
        with open(os.path.join(self.data, "scheduler-regenerate.md.in"), "w") as f:
            f.write("{{rerun sticky groups}} {{rerun sticky cells}} {{rerun sticky runs}} "
                    "{{rerun sticky length}} {{rerun sticky h}}\n")  # fmt: skip
        rc, msg = self.render(self.CLAIM + " stale=yes}}")
        self.assertEqual(rc, 0, msg)
        # baseline.cubic: minrtt, dft and the three sticky schedulers, 10 runs each at the
        # paper's 624 s: two guest batches (40 + 10 runs), 2 x 90 s + 50 x 631 s = 8.81 h
        self.assertTrue(
            self.read("scheduler-regenerate.md").endswith("\nbaseline.*.cubic 5 50 624 8.8\n")
        )
        with open(os.path.join(self.data, "scheduler-regenerate.md.in"), "w") as f:
            f.write("{{rerun bnaware cells}}\n")
        rc, msg = self.render(self.CLAIM + " stale=yes}}")
        self.assertEqual(rc, 1)
        self.assertIn("no claim rendered so far awaits a rerun of bnaware cells", msg)

    def test_the_committed_record_names_commits_of_this_repository_on_their_dates(self):
        path = os.path.join(report.REPO, "docs", "results", sched_changes.NAME)
        changes = sched_changes.read(path)
        self.assertIn("5ab5311dca56", [c.commit for c in changes])
        for c in changes:
            got = subprocess.run(
                ["git", "-C", report.REPO, "log", "-1", "--format=%ad", "--date=short", c.commit],
                capture_output=True, text=True, check=False,
            )  # fmt: skip
            if got.returncode:
                self.skipTest("not in a git clone of the project")
            self.assertEqual(got.stdout.strip(), c.date, c.commit)

    def test_a_bad_record_is_refused_naming_the_line(self):
        for commit, modules, msg in (("0123", "gr_sty", ":2: commit"),
                                     (CHANGE, "nope", ":2: modules 'nope'"),
                                     (CHANGE, "", ":2: modules")):  # fmt: skip
            self.record(commit, modules)
            rc, out = self.render(self.CLAIM + "}}")
            self.assertEqual(rc, 1, commit)
            self.assertIn(msg, out)


class ReaderTest(Case):
    def assert_rejected(self, rows, message, paths=None):
        self.write_set("sticky", rows, paths)
        rc, msg = self.run_report()
        self.assertEqual(rc, 1, msg)
        self.assertIn(message, msg)
        self.assertFalse(os.path.exists(os.path.join(self.data, "scheduler-papers.md")))

    def test_bad_rows_are_rejected_naming_the_line(self):
        good = fixture()
        bad_status = [dict(good[0], status="weird")] + good[1:]
        self.assert_rejected(bad_status, "runs.csv:2: status 'weird'")
        missing = [dict(good[0], switches=None)] + good[1:]
        self.assert_rejected(missing, "runs.csv:2: switches is empty on an ok row")
        self.assert_rejected([dict(good[0], discards=-1)], "discards -1 is negative")
        self.assert_rejected([dict(good[0], cell="baseline.dft.bbr")], "is not <scenario>.")
        self.assert_rejected([dict(good[0], scenario="A-1", cell="A-1.dft.cubic")],
                             "scenario 'A-1' is not one of sticky's")  # fmt: skip
        self.assert_rejected([good[0], dict(good[0])], "runs.csv:3: a second row for cell")
        self.assert_rejected([dict(good[0], run="x")], "run 'x' is not an integer")
        self.assert_rejected([dict(good[0], started_utc="noon")],
                             "runs.csv:2: started_utc 'noon' is not an ISO 8601 time")  # fmt: skip
        self.assert_rejected([dict(good[0], started_utc="2026-11-22T10:00:00")], "no UTC offset")
        self.assert_rejected(
            [good[0], dict(good[1], cell="baseline.dft.cubic", scheduler="dft", run=9,
                           duration_s=120)],
            "several video lengths",
        )  # fmt: skip
        self.assert_rejected(
            good + [dict(run_row("baseline.tr_sty.cubic", 1), duration_s=120.0)],
            "group baseline.cubic has cells of several video lengths",
        )
        self.assert_rejected([dict(good[0], links="p1-sv 25 ms")], "links 'p1-sv 25 ms' is not")
        self.assert_rejected(
            [good[0], dict(good[1], cell="baseline.dft.cubic", scheduler="dft", run=9,
                           queue_packets=50)],
            "several networks",
        )  # fmt: skip

    def test_a_set_on_two_kernels_is_refused_and_one_kernel_is_named(self):
        good = fixture()
        self.assert_rejected(
            [
                dict(good[0], kernel="6.12.118+deb12-amd64"),
                dict(good[1], kernel="7.3.4+deb13-amd64"),
            ]
            + good[2:],
            "runs of one table on two kernels: 6.12.118+deb12-amd64 (1 runs), 7.3.4+deb13-amd64",
        )
        self.write_set("sticky", [dict(r, kernel="7.3.4+deb13-amd64") for r in good])
        self.assertEqual(report.resolve(list(self.load().values()), "kernel sticky"),
                         "7.3.4+deb13-amd64")  # fmt: skip
        self.write_set("sticky", [dict(r, kernel="") for r in good])
        self.assertEqual(report.resolve(list(self.load().values()), "kernel sticky"), "unrecorded")

    def test_tables_say_which_network_the_runs_had(self):
        now = report.scenario_heading("A-1", {(publish.links_text(mx.SCENARIOS["A-1"].links),
                                               mx.NETEM_LIMIT)})  # fmt: skip
        self.assertEqual(now, mx.SCENARIOS["A-1"].description)
        old = report.scenario_heading("A-1", {("ra-sa:60/0.1/3|rb-sb:60/0.1/3", 1000)})
        self.assertEqual(
            old,
            "as run: ra-sa 60 ms one way, 0.1 % loss, 3 Mbit/s, rb-sb 60 ms one way, 0.1 % loss, "
            "3 Mbit/s, queues 1000 packets (the matrix has changed since)",
        )

    def test_bad_header_and_orphan_path_rows_are_rejected(self):
        d = os.path.join(self.data, "sticky", "data")
        with open(os.path.join(d, "runs.csv"), "w") as f:
            f.write("cell,run\nbaseline.dft.cubic,1\n")
        rc, msg = self.run_report()
        self.assertEqual(rc, 1)
        self.assertIn("header must be exactly", msg)
        path = {"cell": "baseline.dft.cubic", "run": 9, "code_version": V1, "path": 1}
        self.assert_rejected(fixture(), "no ok run baseline.dft.cubic run 9", paths=[path])

    def test_per_path_data_give_shares_and_the_subflow_figure(self):
        paths = []
        for k in range(1, 6):
            for p, (b, mbps) in enumerate([(600, 3.0), (300, 1.5), (100, 0.5)], 1):
                paths.append({"cell": "baseline.dft.cubic", "run": k, "code_version": V1,
                              "path": p, "bytes": b * k, "mean_mbps": mbps,
                              "rtt_min_ms": 50.0 * p})  # fmt: skip
        self.write_set("sticky", fixture(), paths)
        res = self.load()["sticky"]
        c = res.cell("baseline.dft.cubic")
        self.assertEqual(c.values["path1_share_pct"], [60.0] * 5)
        self.assertEqual(c.values["path3_mbps"], [0.5] * 5)
        self.assertEqual(c.values["path2_rtt_ms"], [100.0] * 5)
        rc, msg = self.run_report()
        self.assertEqual(rc, 0, msg)
        self.assertIn("![sticky subflow_throughput](sticky/subflow_throughput.png)",
                      self.read("scheduler-papers.md"))  # fmt: skip
        self.assertIn("Path 1: share of the bytes (%)", self.read("sticky/tables.md"))
        # per-path values are described, not compared: counting their tests is an error
        self.assertEqual(report.resolve([res], "range sticky/baseline.dft.cubic path1_share_pct"),
                         "60.0")  # fmt: skip
        with self.assertRaisesRegex(KeyError, "not compared"):
            report.resolve([res], "sig sticky/baseline.cubic path1_share_pct")
        # but a hand word about them ("carries most of the bytes") can be held to bounds
        self.assertEqual(report.resolve([res], "within sticky/baseline.dft.cubic "
                                        "path1_share_pct 55..65"), "")  # fmt: skip
        with self.assertRaisesRegex(KeyError, r"in \[20, 40\], the data give baseline.dft"):
            report.resolve([res], "within sticky/baseline.dft.cubic path1_share_pct 20..40")


if __name__ == "__main__":
    unittest.main()
