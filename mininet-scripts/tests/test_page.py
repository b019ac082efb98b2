"""The results pages' placeholder grammar (mpqoe.page): tokenizing, signatures, every error path,
time windows, includes and rendering.

    cd mininet-scripts && /usr/bin/python3 -m unittest tests.test_page
"""

import os
import tempfile
import unittest
from unittest import mock

from mpqoe import page
from mpqoe.page import PageError, Range, Span, Window


def kinds():
    """A family's kinds as the tests use them: each returns what it was given."""
    k = page.Kinds()
    k.shared("cmp", lambda subject, metric, field, during: f"{subject}|{metric}|{field}|{during}")
    k.shared(
        "within",
        lambda subjects, metric, bounds, field, runs, during: repr(
            (subjects, metric, bounds, field, runs, during)
        ),
    )
    k.shared("verdict", lambda subject, check: f"{subject}:{check}")
    k.own("count", "n:int step:number=1", lambda n, step: f"{n}/{step:g}")
    k.own("pick", "field:mean|ci", lambda field: field)
    k.own("bad", "", lambda: 3)
    k.text("status", "12 runs")
    return k


def sub(text):
    return page.substitute(text, kinds(), "t.md.in")


class Tokenize(unittest.TestCase):
    def test_kind_positionals_and_keys(self):
        self.assertEqual(
            page.tokenize(" cmp  a/b ratio p during=0..50 "),
            ("cmp", ["a/b", "ratio", "p"], {"during": "0..50"}),
        )
        self.assertEqual(page.tokenize("status"), ("status", [], {}))

    def test_quoted_text_is_one_argument(self):
        self.assertEqual(
            page.tokenize('attempts "a b" x"y z" error="*Broken pipe*" n=>0'),
            ("attempts", ["a b", "xy z"], {"error": "*Broken pipe*", "n": ">0"}),
        )
        self.assertEqual(page.tokenize('k "a=b"'), ("k", ["a=b"], {}))

    def test_malformed(self):
        for inner, why in (
            ("", "empty placeholder"),
            ("   ", "empty placeholder"),
            ("Cmp a", "is not a kind"),
            ("cmp:a/b", "is not a kind"),
            ("cmp a k=1 b", "positional argument 'b' after a key"),
            ("cmp a k=1 k=2", "key 'k' given twice"),
            ("cmp a k=", "has no value"),
            ("cmp a K=1", "is not a key"),
            ("cmp a k==1", "has no value"),
            ('cmp "a b', "unpaired double quote"),
            ('cmp a k="x', "unpaired double quote"),
        ):
            with self.assertRaisesRegex(ValueError, why, msg=inner):
                page.tokenize(inner)


class Signatures(unittest.TestCase):
    def test_values_are_typed(self):
        self.assertEqual(sub("{{count 3}} {{count 3 2.5}}"), "3/1 3/2.5")
        self.assertEqual(sub("{{pick ci}}"), "ci")
        self.assertEqual(sub("{{status}}"), "12 runs")
        got = sub("{{within a,b x 1..inf}}")
        self.assertEqual(got, repr((["a", "b"], "x", Range(1.0, float("inf")), "mean", None, None)))
        got = sub("{{within a x 0..1 ci runs=2-4}}")
        self.assertEqual(got, repr((["a"], "x", Range(0.0, 1.0), "ci", Span(2, 4), None)))
        self.assertEqual(list(Span(2, 4)), [2, 3, 4])
        self.assertIn(0.5, Range(0, 1))

    def test_unknown_kind(self):
        with self.assertRaisesRegex(PageError, r"line 2: \{\{nope a\}\}: unknown kind 'nope'"):
            sub("text\n{{nope a}}\n")

    def test_wrong_arity(self):
        for text, why in (
            ("{{cmp a b}}", r"2 argument\(s\), cmp takes 3: \{\{cmp SUBJECT METRIC FIELD"),
            ("{{cmp a b c d}}", r"4 argument\(s\), cmp takes 3"),
            ("{{within a x}}", r"within takes 3 to 4"),
            ("{{count}}", r"count takes 1 to 2"),
            ("{{status x}}", r"status takes 0"),
        ):
            with self.assertRaisesRegex(PageError, why, msg=text):
                sub(text)

    def test_bad_key(self):
        with self.assertRaisesRegex(PageError, r"unknown key 'when' \(keys of cmp: during\)"):
            sub("{{cmp a b p when=1}}")
        with self.assertRaisesRegex(PageError, r"unknown key 'x' \(keys of count: none\)"):
            sub("{{count 1 x=1}}")

    def test_bad_values(self):
        for text, why in (
            ("{{count x}}", "N: 'x' is not an integer"),
            ("{{count 1 y}}", "STEP: 'y' is not a number"),
            ("{{count 1 nan}}", "STEP: 'nan' is not a number"),
            ("{{pick median}}", "FIELD: 'median' is not mean|ci"),
            ("{{within a,,b x 0..1}}", "not a comma-separated list"),
            ("{{within a x 2..1}}", "lo <= hi"),
            ("{{within a x 2}}", "is not <lo>..<hi>"),
            ("{{within a x 0..1 runs=3-1}}", "runs=: '3-1' is not <first>-<last>"),
            ("{{within a x 0..1 runs=x}}", "is not <first>-<last>"),
        ):
            with self.assertRaisesRegex(PageError, why, msg=text):
                sub(text)

    def test_unpaired_braces(self):
        for text in ("a {{cmp a b\nc}}", "a }} b", "{{a {{cmp a b c}}", "x {{"):
            with self.assertRaisesRegex(PageError, "unpaired braces", msg=text):
                sub(text)

    def test_every_error_is_reported_with_its_line(self):
        with self.assertRaises(PageError) as e:
            sub("{{nope}}\nok {{status}}\n{{cmp a}} and {{count z}}\n}}")
        msg = str(e.exception)
        self.assertTrue(msg.startswith("t.md.in: bad placeholder(s):"), msg)
        for want in ("line 1: {{nope}}", "line 3: {{cmp a}}", "line 3: {{count z}}", "line 4"):
            self.assertIn(want, msg)

    def test_errors_of_the_kind_function(self):
        k = page.Kinds().own("fails", "", lambda: (_ for _ in ()).throw(KeyError("no such cell")))
        with self.assertRaisesRegex(PageError, r"line 1: \{\{fails\}\}: no such cell"):
            page.substitute("{{fails}}", k, "t")

    def test_a_kind_must_give_text(self):
        with self.assertRaises(TypeError):
            sub("{{bad}}")

    def test_check_without_rendering(self):
        errors = page.check("{{cmp a}}\n{{status}}\n{{nope}}", kinds().kinds)
        self.assertEqual(len(errors), 2)
        self.assertTrue(errors[0].startswith("line 1:") and errors[1].startswith("line 3:"))

    def test_declarations(self):
        k = page.Kinds()
        with self.assertRaisesRegex(ValueError, "is shared"):
            k.own("cmp", "a", lambda a: a)
        with self.assertRaisesRegex(ValueError, "is not shared"):
            k.shared("count", lambda: "")
        with self.assertRaisesRegex(ValueError, "declared twice"):
            k.own("x", "", lambda: "").own("x", "", lambda: "")
        with self.assertRaisesRegex(ValueError, "not a kind name"):
            k.own("include", "f", lambda f: f)
        with self.assertRaisesRegex(ValueError, "unknown type"):
            k.own("y", "a:colour", lambda a: a)
        with self.assertRaisesRegex(ValueError, "required parameter after an optional"):
            k.own("z", "a=1 b", lambda a, b: a)

    def test_shared_kinds_have_one_signature(self):
        a, b = page.Kinds(), page.Kinds()
        a.shared("within", lambda **kw: "")
        b.shared("within", lambda **kw: "")
        self.assertEqual(a.kinds["within"].form, b.kinds["within"].form)
        self.assertEqual(
            a.kinds["within"].form,
            "{{within SUBJECTS METRIC BOUNDS [FIELD] [runs=...] [during=...]}}",
        )


class Windows(unittest.TestCase):
    def test_a_claims_window(self):
        self.assertEqual(sub("{{cmp q/a thr p during=0..50}}"), "q/a|thr|p|0-50 s")
        self.assertEqual(sub("{{cmp q/a thr p during=10.5..inf}}"), "q/a|thr|p|10.5-inf s")
        self.assertEqual(sub("{{cmp q/a thr p}}"), "q/a|thr|p|None")
        self.assertEqual(page._window("0..50"), Window(0, 50))

    def test_bad_windows(self):
        for w, why in (
            ("50..0", "0 <= from < to"),
            ("5..5", "0 <= from < to"),
            ("-1..5", "0 <= from < to"),
            ("0-50", r"not <from>..<to> \(seconds\)"),
            ("a..5", "not a number"),
            ("inf..inf", "0 <= from < to"),
        ):
            with self.assertRaisesRegex(PageError, why, msg=w):
                sub(f"{{{{cmp a b p during={w}}}}}")

    def test_data_without_a_series_refuse_a_window(self):
        page.no_window(None, "x")
        with self.assertRaisesRegex(KeyError, "during=0..50: the runs have no time series"):
            page.no_window(Window(0, 50), "the runs")


class Templates(unittest.TestCase):
    def test_render_names_generator_template_and_command(self):
        got = page.render("a {{status}}\n", kinds(), "/x/p.md.in", "gen", "make results")
        self.assertEqual(
            got,
            "<!-- Generated by gen from p.md.in: edit that, then make results -->\na 12 runs\n",
        )

    def test_include(self):
        with tempfile.TemporaryDirectory() as d:
            os.mkdir(os.path.join(d, "part"))
            with open(os.path.join(d, "p.md.in"), "w") as f:
                f.write("top\n{{include part/a.md.in}}\nend {{include x}}\n")
            with open(os.path.join(d, "part", "a.md.in"), "w") as f:
                f.write("A {{status}}\n{{include b.md.in}}\n")
            with open(os.path.join(d, "part", "b.md.in"), "w") as f:
                f.write("B\n")
            text = page.read_template(os.path.join(d, "p.md.in"))
            self.assertEqual(text, "top\nA {{status}}\nB\nend {{include x}}\n")
            with open(os.path.join(d, "part", "b.md.in"), "w") as f:
                f.write("{{include a.md.in}}\n")
            with self.assertRaisesRegex(PageError, "includes itself"):
                page.read_template(os.path.join(d, "p.md.in"))
            with self.assertRaisesRegex(PageError, "No such file"):
                page.read_template(os.path.join(d, "missing.md.in"))


if __name__ == "__main__":
    unittest.main()


class Command(unittest.TestCase):
    """The one command of the reports (mpqoe.report)."""

    def test_each_family_makes_or_checks(self):
        from mpqoe import REPO, report

        for family, (script, _make, _check) in report.FAMILIES.items():
            self.assertTrue(os.path.exists(os.path.join(REPO, script)), script)
            argv = report.command(family, True, python="py")
            self.assertEqual(argv[:2], ["py", os.path.join(REPO, script)])
            self.assertIn("--check", argv)
            self.assertNotIn("--check", report.command(family, False, python="py"))
        names = {os.path.basename(s) for s, _m, _c in report.FAMILIES.values()}
        self.assertEqual(len(names), len(report.FAMILIES), "two reports share a file name")

    def test_an_unknown_family_is_a_usage_error(self):
        from mpqoe import report

        with self.assertRaises(SystemExit) as cm, mock.patch("sys.stderr"):
            report.main(["--check", "nosuch"])
        self.assertEqual(cm.exception.code, 2)
