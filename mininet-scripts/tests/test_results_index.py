"""mpqoe.results_index: the index page and the README's findings from the pages' claims files."""

import os
import tempfile
import unittest

from mpqoe import results_index as ri
from mpqoe.claims import Claim, Register
from mpqoe.page import PageError

INDEX = """# Results

{{summary a.md}}.

{{claims a.md}}
{{claims b.md keys=X*}}
{{superseded b.md}}
"""
FINDINGS = "- A: {{summary a.md}}.\n- B: {{summary a.md,b.md keys=X*}}.\n"
README = f"# project\n\nintro\n\n{ri.FINDINGS_BEGIN}\nstale\n{ri.FINDINGS_END}\n\n## rest\n"


class IndexTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.addCleanup(self.tmp.cleanup)
        self.data = self.tmp.name
        r = Register()
        r.add(Claim("a.md", "A1", "a claim", "agrees", "p 0.010", "claims"))
        r.add(Claim("a.md", "A2", "another", "not significant"))
        r.add(Claim("b.md", "X1", "x", "disagrees on bitrate"))
        r.add(Claim("b.md", "Y1", "y", "agrees"))
        r.add(Claim("b.md", "X0", "old", "agrees", superseded=True))
        for path, text in r.files(self.data).items():
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "w") as f:
                f.write(text)
        self.write("index.md.in", INDEX)
        self.write("findings.md.in", FINDINGS)
        self.readme = self.write("README-project.md", README)

    def write(self, name, text):
        path = os.path.join(self.data, name)
        with open(path, "w") as f:
            f.write(text)
        return path

    def test_the_index_and_the_findings_come_from_the_claims(self):
        out, old, _dropped, status = ri.make(self.data, self.readme)
        self.assertEqual(old, [])
        self.assertEqual(status, ["5 claims of 2 pages"])
        index = out[os.path.join(self.data, "README.md")].decode()
        self.assertIn("2 claims: 1 agree, 1 not significant.", index)
        self.assertIn("| A1 a claim | **agrees** | p 0.010 | [a.md](a.md#claims) |", index)
        self.assertIn("| X1 x | **disagrees on bitrate** |  | [b.md](b.md) |", index)
        self.assertNotIn("| Y1", index)  # keys=X*
        self.assertIn("| X0 old | agrees |", index)  # superseded: plain
        readme = out[self.readme].decode()
        self.assertIn(
            f"intro\n\n{ri.FINDINGS_BEGIN}\n- A: 2 claims: 1 agree, 1 not significant.\n"
            f"- B: 1 claim: 1 disagree.\n{ri.FINDINGS_END}\n\n"
            "## rest\n",
            readme,
        )

    def test_a_page_of_set_ups_gets_a_column_and_a_count_per_set_up(self):
        r = Register()
        r.add(Claim("c.md", "G7", "highest", "pending (4 of 10 runs)", setup="paper"))
        r.add(Claim("c.md", "G7", "highest", "not significant", "p 0.190", setup="modern"))
        r.add(Claim("c.md", "G8", "range", "not run yet", setup="paper"))
        r.add(Claim("c.md", "G8", "range", "disagrees", setup="modern"))
        for path, text in r.files(self.data).items():
            with open(path, "w") as f:
                f.write(text)
        self.write("index.md.in", INDEX + "{{summary c.md}}.\n\n{{claims c.md}}\n")
        out, *_ = ri.make(self.data, self.readme)
        index = out[os.path.join(self.data, "README.md")].decode()
        self.assertIn(
            "the authors' set-up: 2 claims: 1 pending, 1 not run yet; "
            "the modern set-up: 2 claims: 1 disagree, 1 not significant.",
            index,
        )
        self.assertIn("| claim | the authors' set-up | the modern set-up | where |", index)
        self.assertIn(
            "| G7 highest | **pending (4 of 10 runs)** | **not significant** (p 0.190) "
            "| [c.md](c.md) |",
            index,
        )
        self.assertIn("| G8 range | **not run yet** | **disagrees** | [c.md](c.md) |", index)

    def test_a_page_the_index_leaves_out_is_an_error(self):
        self.write("index.md.in", "{{claims a.md}}\n")
        self.write("findings.md.in", "{{summary a.md}}\n")
        with self.assertRaisesRegex(PageError, "claims of b.md are in no placeholder"):
            ri.make(self.data, self.readme)

    def test_an_unknown_page_and_a_readme_without_markers_are_errors(self):
        self.write("findings.md.in", "{{summary c.md}}\n")
        with self.assertRaisesRegex(PageError, "no claims of c.md"):
            ri.make(self.data, self.readme)
        self.write("findings.md.in", FINDINGS)
        self.write("README-project.md", "# no markers\n")
        with self.assertRaisesRegex(PageError, "no '<!-- findings"):
            ri.make(self.data, self.readme)


if __name__ == "__main__":
    unittest.main()
