"""mpqoe.campaign: attempts, run state, the one manifest format, published rows, and the
families the workflow plans through it."""

import json
import os
import shutil
import tempfile
import unittest

from mpqoe import campaign as cp
from mpqoe import files

HERE = os.path.dirname(os.path.abspath(__file__))


class Attempts(unittest.TestCase):
    def setUp(self):
        self.store = tempfile.mkdtemp(prefix="campaign-")
        self.addCleanup(shutil.rmtree, self.store, True)

    def record(self, cell, k, status, why=""):
        return cp.record_attempt(self.store, "exp", cell, k, status, why, family="test",
                                 code_version="abc", kernel="6.1", cpu="cpu x2")  # fmt: skip

    def test_every_attempt_is_its_own_record(self):
        a = self.record("shared/lia", 1, "failed", "the guest's\n kernel died")
        b = self.record("shared/lia", 1, "ok")
        c = self.record("shared/lia", 2, "ok")
        self.assertEqual(
            [os.path.basename(p) for p in (a, b, c)], ["run1-1.json", "run1-2.json", "run2-1.json"]
        )
        got = cp.attempts(self.store, "exp")
        self.assertEqual([(x["run"], x["attempt"], x["status"]) for x in got],
                         [(1, 1, "failed"), (1, 2, "ok"), (2, 1, "ok")])  # fmt: skip
        self.assertEqual(got[0]["why"], "the guest's kernel died")
        self.assertEqual(got[0]["cell"], "shared/lia")
        for key in ("code_version", "kernel", "host_cpu", "ended_utc", "family"):
            self.assertTrue(got[0][key], key)

    def test_manifest_is_partial_until_every_run_is_ok(self):
        status = {("a", 1): "ok", ("a", 2): "failed", ("b", 1): "ok"}
        st = cp.state(["a", "b"], 2, lambda c, k: status.get((c, k)))
        self.assertEqual(st["a"], {"ok": [1], "failed": [2], "missing": []})
        self.assertEqual(st["b"], {"ok": [1], "failed": [], "missing": [2]})
        self.assertEqual(cp.todo(["a", "b"], [1, 2], lambda c, k: status.get((c, k))),
                         [("a", 2), ("b", 2)])  # fmt: skip
        self.record("a", 2, "failed", "timeout")
        m = cp.write_manifest(self.store, "test", "exp", 2, st, code_versions={"abc", None})
        self.assertEqual(
            (m["schema"], m["status"], m["partial"]), (cp.MANIFEST_SCHEMA, "partial", True)
        )
        self.assertEqual(m["counts"], {"ok": 2, "failed": 1, "missing": 1})
        self.assertEqual(m["attempts"], {"ok": 0, "failed": 1})
        self.assertEqual(m["code_versions"], ["abc"])
        self.assertEqual(cp.read_manifest(self.store, "exp"), m)
        done = cp.state(["a"], 1, lambda c, k: "ok")
        self.assertFalse(cp.write_manifest(self.store, "test", "exp", 1, done)["partial"])

    def test_an_older_manifest_is_refused_with_a_line(self):
        files.write_json(os.path.join(self.store, "exp", "manifest.json"), {"experiment": "exp"})
        with self.assertRaises(ValueError) as e:
            cp.read_manifest(self.store, "exp")
        self.assertIn("not a mpqoe-campaign-manifest/1 manifest", str(e.exception))

    def test_published_rows_join_the_table(self):
        path = os.path.join(self.store, "t.csv")

        def read(p):
            if not os.path.exists(p):
                return []
            with open(p) as f:
                lines = f.read().splitlines()[1:]
            return [dict(zip(("cell", "run", "v"), ln.split(","), strict=True)) for ln in lines]

        ident = lambda r: (r["cell"], str(r["run"]))  # noqa: E731
        order = ident
        cp.publish_table(
            path, [{"cell": "a", "run": 1, "v": 1}], ("cell", "run", "v"), order, ident, read
        )
        rows = [{"cell": "a", "run": 1, "v": 2}, {"cell": "b", "run": 1, "v": 3}]
        n = cp.publish_table(path, rows, ("cell", "run", "v"), order, ident, read)
        self.assertEqual(n, (2, 0))
        with open(path) as f:
            self.assertEqual(f.read(), "cell,run,v\na,1,2\nb,1,3\n")


class Families(unittest.TestCase):
    def test_every_family_has_the_plan_api(self):
        kinds = [f.kind for f in cp.families()]
        self.assertEqual(kinds, ["video", "scheduler", "cc", "pcdc"])
        for f in cp.families():
            self.assertIs(cp.family(f.kind), f)
            for name in ("jobs", "copies", "check", "publications", "pages", "reported"):
                self.assertTrue(callable(getattr(f, name)), (f.kind, name))

    def test_the_planning_code_names_no_family(self):
        with open(os.path.join(HERE, "plan.py")) as f:
            code = f.read().split('"""', 2)[2]  # past the docstring
        for word in ("video", "scheduler", "pcdc", "fairness", "cc_"):
            self.assertNotIn(word, code)

    def test_collect_tells_a_record_s_family(self):
        tmp = tempfile.mkdtemp(prefix="campaign-")
        self.addCleanup(shutil.rmtree, tmp, True)
        sched = os.path.join(tmp, "run1.json")
        with open(sched, "w") as f:
            json.dump({"schema": "mpqoe-experiment-run/1"}, f)
        self.assertEqual(cp.family_of(sched).kind, "scheduler")
        self.assertEqual(cp.family_of(f"{tmp}/c/run1/run.json").kind, "video")
        self.assertEqual(cp.family_of(f"{tmp}/shared_lia_run1.csv").kind, "cc")
        self.assertEqual(cp.family_of(f"{tmp}/cubic/run3").kind, "pcdc")
        self.assertEqual(cp.family_of(f"{tmp}/cubic/table.json").kind, "pcdc")


if __name__ == "__main__":
    unittest.main()
