"""mpqoe.results, what both results reports share: strict CSV reading, the template
renderer, code versions and the write-or-check of generated files (no root, no scipy).

    cd mininet-scripts && /usr/bin/python3 -m unittest tests.test_results
"""

import contextlib
import io
import math
import os
import shutil
import subprocess
import tempfile
import unittest

from mpqoe import results, stats

OLD = "a0343fa68917ec1ca483e0ba137bdd4cde0bd688"  # an ancestor of NEW in this repository
NEW = "573171e00d0648d7bc62ec6a6bbe6cecbec6b0a3"


class TempDir(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="results-test-")

    def tearDown(self):
        shutil.rmtree(self.dir)

    def write(self, name, text):
        path = os.path.join(self.dir, name)
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
        return path


class CsvTest(TempDir):
    def test_rows_with_line_numbers_and_blank_lines_skipped(self):
        path = self.write("a.csv", "x,y\n1,2\n\n3,\n")
        self.assertEqual(
            results.read_csv(path, ("x", "y")),
            [(2, {"x": "1", "y": "2"}), (4, {"x": "3", "y": ""})],
        )

    def test_absent_file_is_none(self):
        self.assertIsNone(results.read_csv(os.path.join(self.dir, "none.csv"), ("x",)))

    def test_other_header_or_field_count_is_an_error_naming_the_line(self):
        with self.assertRaisesRegex(results.ReportError, "header must be exactly x,y; got x,z"):
            results.read_csv(self.write("h.csv", "x,z\n1,2\n"), ("x", "y"))
        with self.assertRaisesRegex(results.ReportError, "the file is empty"):
            results.read_csv(self.write("e.csv", ""), ("x", "y"))
        with self.assertRaisesRegex(results.ReportError, r"f\.csv:3: 3 fields, expected 2"):
            results.read_csv(self.write("f.csv", "x,y\n1,2\n1,2,3\n"), ("x", "y"))

    def test_a_table_from_before_columns_were_appended_is_read_only_when_grown(self):
        path = self.write("g.csv", "x,y\n1,2\n")
        with self.assertRaisesRegex(results.ReportError, "header must be exactly x,y,z; got x,y"):
            results.read_csv(path, ("x", "y", "z"))
        self.assertEqual(
            results.read_csv(path, ("x", "y", "z"), grown=True),
            [(2, {"x": "1", "y": "2", "z": ""})],
        )
        with self.assertRaisesRegex(results.ReportError, "got y,x"):  # not a prefix
            results.read_csv(self.write("h.csv", "y,x\n1,2\n"), ("x", "y", "z"), grown=True)
        with self.assertRaisesRegex(results.ReportError, r"i\.csv:3: 3 fields, expected 2"):
            results.read_csv(self.write("i.csv", "x,y\n1,2\n1,2,3\n"), ("x", "y", "z"), grown=True)

    def test_merging_a_publish_keeps_other_runs_and_replaces_a_run_published_again(self):
        def row(cell, run, v, x):
            return {"cell": cell, "run": str(run), "code_version": v, "x": x}

        old = [row("a", 1, "v1", "old"), row("a", 1, "v1", "old2"), row("a", 2, "v1", "old"),
               row("b", 1, "v0", "old")]  # fmt: skip
        new = [row("a", 1, "v1", "new"), row("b", 1, "v1", "new"), row("a", 10, "v1", "new")]
        got = results.merge_runs(old, new, lambda r: (r["cell"], int(r["run"])))
        self.assertEqual(
            [(r["cell"], r["run"], r["code_version"], r["x"]) for r in got],
            [("a", "1", "v1", "new"), ("a", "2", "v1", "old"), ("a", "10", "v1", "new"),
             ("b", "1", "v0", "old"), ("b", "1", "v1", "new")],
        )  # fmt: skip
        # a table without a code version column (time series): cell and run
        series = [{"cell": "a", "run": "1", "s": "0"}, {"cell": "a", "run": "2", "s": "0"}]
        again = [{"cell": "a", "run": "2", "s": "5"}]
        got = results.merge_runs(series, again, lambda r: (r["cell"], int(r["run"])))
        self.assertEqual([r["s"] for r in got], ["0", "5"])

    def test_numbers(self):
        self.assertEqual(results.number("7", int, "w", "run"), 7)
        self.assertEqual(results.number("0.25", float, "w", "x"), 0.25)
        with self.assertRaisesRegex(results.ReportError, "w: run '1.5' is not an integer"):
            results.number("1.5", int, "w", "run")
        with self.assertRaisesRegex(results.ReportError, "not a finite number"):
            results.number("nan", float, "w", "x")

    def test_run_metrics_are_none_off_an_ok_row_and_checked_on_one(self):
        cols, need = ("a", "b", "d"), ("a",)
        ok = {"status": "ok", "a": "1.5", "b": "", "d": "-2"}
        self.assertEqual(
            results.run_metrics(ok, cols, need, "w", signed=("d",)),
            {"a": 1.5, "b": None, "d": -2.0},
        )
        failed = dict(ok, status="failed", a="")
        self.assertEqual(
            results.run_metrics(failed, cols, need, "w"), {"a": None, "b": None, "d": None}
        )
        for row, error in (
            (dict(ok, a=""), "w: a is empty on an ok row"),
            (ok, "w: d -2 is negative"),
            (dict(ok, b="x"), "w: b 'x' is not a number"),
        ):
            with self.assertRaisesRegex(results.ReportError, error):
                results.run_metrics(row, cols, need, "w")

    def test_csv_text_keeps_the_column_order_and_writes_none_as_empty(self):
        text = results.csv_text([{"b": 1, "a": None}], ("a", "b"))
        self.assertEqual(text, "a,b\n,1\n")
        with self.assertRaises(ValueError):  # a column the table does not have
            results.csv_text([{"a": 1, "c": 2}], ("a",))


class FieldTest(unittest.TestCase):
    def test_comparison_fields(self):
        class C:
            tested, reason, diff = True, None, -1.25

        ps = {"p": 0.03, "welch": 0.0004}
        self.assertEqual(results.test_field(C, "diff", 1, ps, 0.05), "-1.2")
        self.assertEqual(results.test_field(C, "sig", 1, ps, 0.05), "yes")
        self.assertEqual(results.test_field(C, "sig", 1, ps, 0.01), "no")
        self.assertEqual(results.test_field(C, "welch", 1, ps, 0.05), "<0.001")
        # the checks: the other side against the reference (diff = reference - other)
        self.assertEqual(results.test_field(C, "higher", 1, ps, 0.05), "")
        self.assertEqual(results.test_field(C, "same", 1, ps, 0.01), "")
        for fld, alpha, found in (("lower", 0.05, "higher"), ("same", 0.05, "higher"),
                                  ("higher", 0.01, "same"), ("lower", 0.01, "same")):  # fmt: skip
            with self.assertRaisesRegex(KeyError, f"need {fld}, the data give {found} "):
                results.test_field(C, fld, 1, ps, alpha)
        C.diff = 0.5
        self.assertEqual(results.test_field(C, "lower", 1, ps, 0.05), "")
        C.tested, C.reason = False, "n too small"
        self.assertEqual(results.test_field(C, "p", 1, ps, 0.05), "n/a (n too small)")
        self.assertEqual(results.test_field(C, "sig", 1, ps, 0.05), "untested")
        for fld in results.CHECKS:
            with self.assertRaisesRegex(KeyError, r"untested \(n too small\)"):
                results.test_field(C, fld, 1, ps, 0.05)

    def test_interval_fields(self):
        class Iv:  # a stats.Interval's fields (stats needs scipy, which these tests do not)
            def __init__(self, n, mean, half):
                self.n, self.mean, self.half = n, mean, half
                self.lo = None if half is None else mean - half
                self.hi = None if half is None else mean + half

        iv = Iv(10, 6.2, 2.64)
        self.assertEqual(results.interval_field(iv, "mean", 1), "6.2")
        self.assertEqual(results.interval_field(iv, "ci", 2), "2.64")
        self.assertEqual(results.interval_field(iv, "lo", 1), "3.6")
        self.assertEqual(results.interval_field(iv, "hi", 1), "8.8")
        self.assertEqual(results.interval_field(iv, "interval", 1), "6.2 [3.6, 8.8]")
        self.assertEqual(results.interval_field(iv, "n", 1), "10")
        self.assertEqual(results.interval_field(Iv(4, 0.02, 0.5), "interval", 0), "0 [0, 1]")
        one = Iv(1, 4.0, None)
        self.assertEqual(results.interval_field(one, "interval", 0), "4 (1 run)")
        self.assertEqual(results.interval_field(one, "lo", 0), "n/a (1 run)")
        none = Iv(0, None, None)
        self.assertEqual(results.interval_field(none, "interval", 0), "n/a (no ok run)")
        self.assertEqual(results.interval_field(none, "n", 0), "0")
        with self.assertRaisesRegex(KeyError, "'median' is not mean"):
            results.interval_field(iv, "median", 1)

    def test_within_and_rising_check_words_about_means(self):
        means = [("a", 1.5), ("b", 2.0), ("c", 1.25)]
        self.assertEqual(results.parse_bounds("1.25..2", "f"), (1.25, 2.0))
        self.assertEqual(results.parse_bounds("4.5..inf", "f"), (4.5, math.inf))  # open above
        for bad in ("2..1", "1-2", "x..2", "1..", "1.5"):
            with self.assertRaises(KeyError, msg=bad):
                results.parse_bounds(bad, "f")
        self.assertEqual(results.check_within(means, 1.25, 2.0, "m", 2), "")  # bounds inclusive
        with self.assertRaisesRegex(KeyError, r"in \[1.3, 2\], the data give c 1.25'$"):
            results.check_within(means, 1.3, 2.0, "m", 2)
        with self.assertRaisesRegex(KeyError, "give a 1.50, b 2.00'$"):
            results.check_within(means, 0, 1.4, "m", 2)
        self.assertEqual(results.check_rising([("c", 1.25), ("a", 1.5), ("b", 2.0)], "m", 2), "")
        for bad in (means, [("a", 1.5), ("a2", 1.5)], [("a", 1.5)]):
            with self.assertRaises(KeyError, msg=str(bad)):
                results.check_rising(bad, "m", 2)
        with self.assertRaisesRegex(KeyError, "rising means of m, the data give a 1.50, b 2.00, c"):
            results.check_rising(means, "m", 2)

    def test_check_sign_holds_the_direction_of_a_difference_alone(self):
        # diff = first - second: -1.5 means the second side's mean is the higher
        self.assertEqual(results.check_sign("meanhigher", -1.5, 1), "")
        self.assertEqual(results.check_sign("meanlower", 0.2, 1), "")
        for fld, diff in (("meanlower", -1.5), ("meanhigher", 0.2), ("meanhigher", 0.0)):
            with self.assertRaisesRegex(KeyError, f"need {fld}, the data give a difference"):
                results.check_sign(fld, diff, 1)
        with self.assertRaisesRegex(KeyError, "no difference of means"):
            results.check_sign("meanlower", None, 1)

    def test_checked_values_of_an_interval(self):
        # mean 2, sd 1, half-width t(0.975, 2) x 1 / sqrt(3) = 4.303 / 1.732 = 2.484
        iv = stats.mean_ci([1.0, 2.0, 3.0])
        self.assertEqual(results.checked_value(iv, "mean", "c"), 2.0)
        self.assertAlmostEqual(results.checked_value(iv, "ci", "c"), 2.484, places=3)
        self.assertAlmostEqual(results.checked_value(iv, "lo", "c"), 2.0 - 2.484, places=3)
        self.assertAlmostEqual(results.checked_value(iv, "hi", "c"), 2.0 + 2.484, places=3)
        self.assertEqual(results.checked_value(iv, "n", "c"), 3)
        self.assertEqual(results.checked_words("hi", "m"), "upper interval ends of m")
        with self.assertRaisesRegex(KeyError, "field 'half' is not mean, lo, hi, ci, n"):
            results.checked_value(iv, "half", "c")
        one, none = stats.mean_ci([1.0]), stats.mean_ci([])
        self.assertEqual(results.checked_value(one, "mean", "c"), 1.0)
        for iv, fld in ((one, "ci"), (one, "hi"), (none, "mean"), (none, "n")):
            with self.assertRaisesRegex(KeyError, f"^'c has no {fld} "):
                results.checked_value(iv, fld, "c")

    def test_extreme_checks_the_highest_or_lowest_means(self):
        firsts, others = [("a", 3.0), ("b", 2.5)], [("a", 3.0), ("b", 2.5), ("c", 2.0), ("d", 1)]
        self.assertEqual(results.check_extreme(firsts, others, "m", 1, True), "")
        self.assertEqual(results.check_extreme([("d", 1)], others, "m", 1, False), "")
        with self.assertRaisesRegex(
            KeyError, "the highest means of m, the data give c 2.0, a 3.0, b"
        ):
            results.check_extreme([("c", 2.0)], others, "m", 1, True)
        with self.assertRaisesRegex(KeyError, "lowest means of m, the data give c 2.0, d 1.0'$"):
            results.check_extreme([("c", 2.0)], others, "m", 1, False)
        with self.assertRaises(KeyError):  # a tie is not the most
            results.check_extreme(firsts, [("e", 2.5)], "m", 1, True)
        with self.assertRaisesRegex(KeyError, "match nothing but"):
            results.check_extreme(firsts, firsts, "m", 1, True)


class KernelTest(unittest.TestCase):
    def test_one_kernel_or_none_recorded_passes_two_are_refused(self):
        k = "6.12.118+deb12-amd64"
        self.assertEqual(results.one_kernel([{"kernel": k}, {"kernel": ""}, {}], "t"), k)
        self.assertEqual(results.one_kernel([{"kernel": ""}], "t"), "")
        with self.assertRaisesRegex(results.ReportError, "t: runs of one table on two kernels"):
            results.one_kernel([{"kernel": k}, {"kernel": "7.3.4+deb13-amd64"}], "t")


class VersionTest(unittest.TestCase):
    def setUp(self):
        if subprocess.run(
            ["git", "-C", results.REPO, "cat-file", "-e", NEW], capture_output=True
        ).returncode:
            self.skipTest("not in a git clone of the project")

    def test_ancestry_dirty_and_unrecorded(self):
        self.assertEqual(results.git_newest({OLD, NEW}), NEW)
        self.assertEqual(
            results.git_newest({NEW, NEW + "-dirty-0a1b2c3d"}), NEW + "-dirty-0a1b2c3d"
        )
        self.assertEqual(results.git_newest({OLD + "-dirty", NEW}), NEW)
        self.assertEqual(results.git_newest({results.UNRECORDED, OLD}), OLD)
        self.assertEqual(results.git_newest({results.UNRECORDED}), results.UNRECORDED)

    def test_a_version_contains_its_commit_and_its_ancestors(self):
        self.assertTrue(results.git_contains(NEW, OLD))
        self.assertTrue(results.git_contains(NEW + "-dirty-0a1b2c3d", NEW))
        self.assertFalse(results.git_contains(OLD, NEW))
        self.assertFalse(results.git_contains(OLD + "-dirty-0a1b2c3d", NEW))
        self.assertFalse(results.git_contains(results.UNRECORDED, OLD))
        with self.assertRaisesRegex(ValueError, "not a commit of this repository"):
            results.git_contains(NEW, "0" * 12)

    def test_what_cannot_be_ordered(self):
        with self.assertRaisesRegex(ValueError, "not a commit of this repository"):
            results.git_newest({NEW, "0" * 40})
        with self.assertRaisesRegex(ValueError, "cannot be ordered"):
            results.git_newest({NEW + "-dirty-1", NEW + "-dirty-2"})

    def test_short(self):
        self.assertEqual(results.short(NEW + "-dirty-0a1b2c3d"), "573171e00d-dirty")
        self.assertEqual(results.short(results.UNRECORDED), "unrecorded")

    def test_code_version_is_a_commit_of_this_repository(self):
        v = results.code_version()
        commit = v.partition("-dirty")[0]
        self.assertRegex(commit, r"^[0-9a-f]{12}$")
        self.assertEqual(results.git_newest({v, OLD}), v)


class ApplyTest(TempDir):
    def run_apply(self, out, old, check):
        err, std = io.StringIO(), io.StringIO()
        with contextlib.redirect_stderr(err), contextlib.redirect_stdout(std):
            rc = results.apply(out, old, check, self.dir, "t")
        return rc, std.getvalue() + err.getvalue()

    def test_check_fails_on_a_stale_or_missing_file_and_writes_nothing(self):
        same = self.write("same.md", "x\n")
        stale = self.write("stale.md", "old\n")
        new = os.path.join(self.dir, "sub", "new.png")
        gone = self.write("gone.png", "g")
        out = {same: b"x\n", stale: b"new\n", new: b"\x89PNG"}
        rc, msg = self.run_apply(out, [gone], check=True)
        self.assertEqual(rc, 1)
        self.assertIn("differs from the data: stale.md", msg)
        self.assertIn(f"differs from the data: {os.path.join('sub', 'new.png')}", msg)
        self.assertIn("no longer made: gone.png", msg)
        self.assertNotIn("same.md", msg)
        self.assertFalse(os.path.exists(new))
        self.assertTrue(os.path.exists(gone))
        rc, msg = self.run_apply(out, [gone], check=False)
        self.assertEqual(rc, 0)
        self.assertIn("2 of 3 files written, 1 removed", msg)
        self.assertEqual(results.current(stale), b"new\n")
        self.assertFalse(os.path.exists(gone))
        rc, msg = self.run_apply(out, [], check=True)
        self.assertEqual(rc, 0, msg)
        self.assertIn("3 files agree with the data", msg)


if __name__ == "__main__":
    unittest.main()
