"""mpqoe.claims: verdict classes, the register's refusals, the index table and summary."""

import os
import tempfile
import unittest

from mpqoe import claims
from mpqoe.claims import Claim, ClaimError, Register, counts, summary, table


def claim(key="G6", verdict="disagrees on bitrate", **kw):
    return Claim(page="ga-paper.md", key=key, text="no selection: 1728 kbit/s", verdict=verdict,
                 **kw)  # fmt: skip


class OutcomeTest(unittest.TestCase):
    def test_a_verdict_is_classed_by_its_first_words(self):
        cases = {
            "agrees": "agrees",
            "agrees in part": "agrees in part",
            "Disagrees on bitrate and outage": "disagrees",
            "not significant against the four baselines": "not significant",
            "not testable here as stated": "not tested",
            "untested": "not tested",
            "pending (3 of 10 runs)": "pending",
            "not run yet": "not run yet",
            "n/a": "not decided",
            "met": "agrees",
            "not met": "disagrees",
            "rests on 3ea5f3257aee, before 5ab5311dca56: rerun pending; its runs give agrees": (
                "rerun pending"
            ),
        }
        for verdict, outcome in cases.items():
            with self.subTest(verdict):
                self.assertEqual(claim(verdict=verdict).outcome, outcome)

    def test_unknown_wording_is_refused_naming_the_claim(self):
        with self.assertRaisesRegex(ClaimError, "ga-paper.md G6: verdict 'agreeable'"):
            claim(verdict="agreeable").outcome  # noqa: B018

    def test_a_word_is_matched_whole(self):
        # "agreesome" starts with "agrees" but is not that verdict
        with self.assertRaises(ClaimError):
            claim(verdict="agreesome").outcome  # noqa: B018


class RegisterTest(unittest.TestCase):
    def test_claims_keep_their_order_and_superseded_ones_stand_apart(self):
        r = Register()
        r.add(claim("G1", "agrees"))
        r.add(claim("S1", "agrees", superseded=True))
        r.add(claim("G2", "not significant"))
        self.assertEqual([c.key for c in r.claims()], ["G1", "G2"])
        self.assertEqual([c.key for c in r.claims(superseded=True)], ["S1"])
        self.assertEqual(r.pages(), ["ga-paper.md"])

    def test_the_same_claim_twice_is_one_and_a_changed_one_is_refused(self):
        r = Register()
        r.add(claim())
        r.add(claim())
        self.assertEqual(len(r.claims()), 1)
        with self.assertRaisesRegex(ClaimError, "registered twice"):
            r.add(claim(verdict="agrees"))

    def test_a_claim_has_one_verdict_per_set_up(self):
        r = Register()
        r.add(claim("G7", "not run yet", setup="paper"))
        r.add(claim("G7", "not significant", setup="modern"))
        self.assertEqual([c.setup for c in r.claims()], ["paper", "modern"])
        with self.assertRaisesRegex(ClaimError, "registered twice"):
            r.add(claim("G7", "agrees", setup="modern"))

    def test_an_unknown_set_up_and_a_page_naming_set_ups_in_part_are_refused(self):
        with self.assertRaisesRegex(ClaimError, "set-up 'lab' is none of paper, modern"):
            Register().add(claim(setup="lab"))
        r = Register()
        r.add(claim("G1", "agrees", setup="modern"))
        with self.assertRaisesRegex(ClaimError, "set-up all or none"):
            r.add(claim("G2", "agrees"))

    def test_an_unknown_verdict_is_refused_when_registered(self):
        with self.assertRaises(ClaimError):
            Register().add(claim(verdict="maybe"))


class RenderTest(unittest.TestCase):
    def test_a_standing_verdict_is_bold_and_a_superseded_one_is_not(self):
        text = table([claim(evidence="p 0.040", anchor="claims"),
                      claim("S1", "agrees", superseded=True)])  # fmt: skip
        lines = text.splitlines()
        self.assertEqual(lines[0], "| claim | verdict | evidence | where |")
        self.assertEqual(
            lines[2],
            "| G6 no selection: 1728 kbit/s | **disagrees on bitrate** | p 0.040 "
            "| [ga-paper.md](ga-paper.md#claims) |",
        )
        self.assertIn("| agrees |", lines[3])
        self.assertNotIn("**", lines[3])

    def test_a_code_column_appears_when_a_claim_names_its_code_and_pending_is_plain(self):
        self.assertNotIn("code", table([claim()]).splitlines()[0])
        pending = claims.Basis(("v1",), ("c1",)).pending("agrees")
        text = table([claim("S1", "agrees", code="v1 v2"), claim("S2", pending, code="v1")])
        lines = text.splitlines()
        self.assertEqual(lines[0], "| claim | verdict | evidence | code | where |")
        self.assertIn("| **agrees** |  | `v1` `v2` |", lines[2])
        self.assertIn(f"| {pending} |  | `v1` |", lines[3])
        self.assertEqual(pending, "rests on v1, before c1: rerun pending; its runs give agrees")
        self.assertEqual(counts([claim(verdict=pending)]), {"rerun pending": 1})

    def test_cells_escape_pipes_and_fold_whitespace(self):
        text = table([Claim("p.md", "X1", "a | b\n  c", "agrees")])
        self.assertIn("| X1 a \\| b c |", text)

    def test_summary_counts_in_a_fixed_order(self):
        cs = [claim("A", "not significant"), claim("B", "agrees"), claim("C", "disagrees"),
              claim("D", "agrees")]  # fmt: skip
        self.assertEqual(counts(cs), {"agrees": 2, "disagrees": 1, "not significant": 1})
        self.assertEqual(summary(cs), "4 claims: 2 agree, 1 disagree, 1 not significant")
        self.assertEqual(summary(cs[:1]), "1 claim: 1 not significant")

    def test_claims_of_set_ups_get_a_verdict_column_each(self):
        cs = [claim("G7", "pending (4 of 10 runs)", setup="paper"),
              claim("G7", "not significant", evidence="p 0.190", setup="modern", anchor="v"),
              claim("G8", "disagrees", setup="modern")]  # fmt: skip
        lines = table(cs).splitlines()
        self.assertEqual(lines[0], "| claim | the authors' set-up | the modern set-up | where |")
        self.assertEqual(lines[1], "|---|---|---|---|")
        self.assertEqual(
            lines[2],
            "| G7 no selection: 1728 kbit/s | **pending (4 of 10 runs)** "
            "| **not significant** (p 0.190) | [ga-paper.md](ga-paper.md) |",
        )
        self.assertEqual(lines[3], "| G8 no selection: 1728 kbit/s | - | **disagrees** "
                                   "| [ga-paper.md](ga-paper.md) |")  # fmt: skip
        self.assertEqual(len(lines), 4)

    def test_summary_counts_each_set_up_apart(self):
        cs = [claim("A", "not run yet", setup="paper"), claim("B", "pending (2 of 10 runs)",
              setup="paper"), claim("A", "agrees", setup="modern"),
              claim("B", "disagrees", setup="modern")]  # fmt: skip
        self.assertEqual(
            summary(cs),
            "the authors' set-up: 2 claims: 1 pending, 1 not run yet; "
            "the modern set-up: 2 claims: 1 agree, 1 disagree",
        )


class FileTest(unittest.TestCase):
    def test_a_page_s_claims_round_trip_through_its_csv(self):
        r = Register()
        r.add(claim("G1", "agrees", evidence="p 0.01", anchor="claims"))
        r.add(claim("G3", "agrees", code="3ea5f3257aee 6c6982ca0140"))
        r.add(claim("G2", 'not significant, "quoted", with commas', superseded=True))
        files = r.files("/x/docs/results")
        self.assertEqual(list(files), ["/x/docs/results/claims/ga-paper.csv"])
        with tempfile.TemporaryDirectory() as d:
            p = os.path.join(d, "ga-paper.csv")
            with open(p, "w") as f:
                f.write(files["/x/docs/results/claims/ga-paper.csv"])
            self.assertEqual(claims.read(p), r.claims() + r.claims(superseded=True))

    def test_set_ups_round_trip_through_the_csv(self):
        r = Register()
        r.add(claim("G7", "not run yet", setup="paper"))
        r.add(claim("G7", "agrees", evidence="p 0.01", setup="modern"))
        with tempfile.TemporaryDirectory() as d:
            p = os.path.join(d, "ga-paper.csv")
            with open(p, "w") as f:
                f.write(next(iter(r.files(d).values())))
            self.assertEqual(claims.read(p), r.claims())

    def test_a_foreign_or_broken_file_is_refused(self):
        with tempfile.TemporaryDirectory() as d:
            p = os.path.join(d, "c.csv")
            head = ",".join(claims.FIELDS)
            for text, msg in (("a,b\n", "not a claims file"),
                              (head + "\np,k,t,agrees,,,maybe,,\n", ":2:"),
                              (head + "\np,k,t,agrees,,,no,\n", ":2:"),
                              (head + "\np,k,t,agrees,,,no,lab,\n", ":2:.*set-up"),
                              (head + "\np,k,t,perhaps,,,no,,\n", "perhaps")):  # fmt: skip
                with self.subTest(msg), open(p, "w") as f:
                    f.write(text)
                with self.subTest(msg), self.assertRaisesRegex(ClaimError, msg):
                    claims.read(p)


class ClaimKindTest(unittest.TestCase):
    """The claim placeholder (mpqoe.page): rendering, registration, refusals."""

    def kinds(self):
        from mpqoe import page  # noqa: PLC0415

        k = page.Kinds()
        k.own("p", "subject", lambda subject: {"a": "0.040"}[subject])
        k.own("word", "", lambda: "**agrees** in part")
        return page, k

    def test_stated_and_derived_verdicts_render_and_register(self):
        page, k = self.kinds()
        text = page.substitute(
            '{{claim G6 "no selection" says=disagrees evidence="p a" label=p at=claims}}\n'
            '{{claim G7 "highest bitrate" verdict=word}}\n'
            '{{claim S1 "round 1" says="agrees" superseded=yes}}',
            k,
            "docs/results/ga-paper.md.in",
        )
        self.assertEqual(text.splitlines(), ["**disagrees**", "**agrees in part**", "agrees"])
        self.assertEqual(
            k.claims.claims()[0],
            Claim("ga-paper.md", "G6", "no selection", "disagrees", "p 0.040", "claims"),
        )
        self.assertEqual(k.claims.claims()[1].verdict, "agrees in part")
        self.assertTrue(k.claims.claims(superseded=True)[0].superseded)

    def test_a_claim_names_its_set_up(self):
        page, k = self.kinds()
        text = page.substitute(
            '{{claim G7 "highest" says="not run yet" setup=paper}} '
            '{{claim G7 "highest" says=agrees setup=modern}}',
            k,
            "docs/results/ga-paper.md.in",
        )
        self.assertEqual(text, "**not run yet** **agrees**")
        self.assertEqual([(c.setup, c.verdict) for c in k.claims.claims()],
                         [("paper", "not run yet"), ("modern", "agrees")])  # fmt: skip
        with self.assertRaisesRegex(page.PageError, "'lab' is not paper|modern"):
            page.substitute('{{claim G7 "t" says=agrees setup=lab}}', k, "p.md.in")

    def based(self, lacking):
        """Kinds whose verdict kind gives "agrees" and whose basis says the runs are of v1 and
        lack the changes `lacking`."""
        page, k = self.kinds()
        k.shared("verdict", lambda subject, check: "agrees")
        k.basis = lambda text: (
            claims.Basis(("v1",), lacking) if text.startswith("verdict") else None
        )
        return page, k

    def test_a_verdict_names_its_code_and_a_stale_one_must_be_marked(self):
        page, k = self.based(())
        text = page.substitute('{{claim S1 "t" verdict="verdict x"}}', k, "p.md.in")
        self.assertEqual(text, "**agrees** at code `v1`")
        self.assertEqual(k.claims.claims()[0].code, "v1")
        with self.assertRaisesRegex(page.PageError, "S1: marked stale=yes.*remove the mark"):
            page.substitute('{{claim S1 "t" verdict="verdict x" stale=yes}}', k, "p.md.in")
        page, k = self.based(("c1",))
        with self.assertRaisesRegex(page.PageError, "S1: its runs .v1. were made before .*c1"):
            page.substitute('{{claim S1 "t" verdict="verdict x"}}', k, "p.md.in")
        text = page.substitute(
            '{{claim S1 "t" verdict="verdict x" stale=yes}} | {{verdict x}} | '
            '{{claim S0 "t" verdict="verdict x" superseded=yes}}',
            k,
            "p.md.in",
        )
        pending = "rests on v1, before c1: rerun pending; its runs give agrees"
        self.assertEqual(text, f"{pending} | {pending} | agrees at code `v1`")
        self.assertEqual(k.claims.claims()[0].verdict, pending)
        self.assertEqual(k.claims.claims()[0].outcome, "rerun pending")
        self.assertEqual(k.pending, ["verdict x"])
        # a mark where the family knows no code, or on a superseded claim, is refused
        for bad in ('{{claim S2 "t" says=agrees stale=yes}}',
                    '{{claim S2 "t" verdict="verdict x" superseded=yes stale=yes}}'):  # fmt: skip
            with self.subTest(bad), self.assertRaisesRegex(page.PageError, "stale=yes marks"):
                page.substitute(bad, k, "p.md.in")

    def test_a_claim_needs_exactly_one_verdict_and_known_words(self):
        page, k = self.kinds()
        for bad, msg in (('{{claim G1 "t"}}', "one of says= and verdict="),
                         ('{{claim G1 "t" says=agrees verdict=word}}', "one of says="),
                         ('{{claim G1 "t" says=maybe}}', "verdict 'maybe'"),
                         ('{{claim G1 "t" verdict="nope x"}}', "unknown kind")):  # fmt: skip
            with self.subTest(bad), self.assertRaisesRegex(page.PageError, msg):
                page.substitute(bad, k, "p.md.in")


if __name__ == "__main__":
    unittest.main()
