"""The experiment driver's plan without a network: which runs, modes and tables an invocation
makes (--only-runs, --measure-only, --table), with its hosts, the measurement and the cells
replaced by recorders; the options the workflow passes and their refusals."""

import contextlib
import io
import json
import os
import shutil
import tempfile
import time
import unittest
from unittest import mock

from mpqoe.pcdc import experiment, netns


class FakeHost:
    """Offers cubic and olia; records nothing, starts nothing."""

    def __init__(self, prefix):
        self.prefix = prefix

    def run(self, *args, timeout=60):
        return mock.Mock(returncode=0, stdout="reno cubic olia\n", stderr="")

    def spawn(self, log_path, *args):
        return mock.Mock(poll=mock.Mock(return_value=0))


class Recorder:
    """experiment()'s collaborators: the measurement writes a table, a cell is made."""

    def __init__(self):
        self.cells, self.measured = [], []

    def measure_table(self, client, a, cc, table, log):
        self.measured.append((cc, table))
        os.makedirs(os.path.dirname(table), exist_ok=True)  # as mpqoe.pcdc.impact's atomic write
        with open(table, "w") as f:
            f.write("{}\n")
        return None

    def one_cell(self, client, a, cc, pm, test, run, table, version, workdir, log):
        self.cells.append((cc, run, pm, test, table))
        return "made"


class PlanTest(unittest.TestCase):
    def setUp(self):
        self.out = tempfile.mkdtemp(prefix="pcdc-exp-")
        self.addCleanup(shutil.rmtree, self.out, True)
        self.rec = Recorder()
        for name, new in (
            ("Host", FakeHost),
            ("measure_table", self.rec.measure_table),
            ("one_cell", self.rec.one_cell),
        ):
            patcher = mock.patch.object(experiment, name, new)
            patcher.start()
            self.addCleanup(patcher.stop)
        patcher = mock.patch.object(experiment.time, "sleep", lambda s: None)
        patcher.start()
        self.addCleanup(patcher.stop)

    def args(self, *extra):
        argv = ["--out", self.out, "--client-exec", "c", "--server-exec", "s"]
        return experiment.parse_args([*argv, "--server", "10.0.0.1", *extra])

    def test_only_runs_makes_those_runs_in_their_own_mode_order(self):
        counts = experiment.experiment(self.args("--runs", "4", "--only-runs", "2,3"), log=str)
        self.assertEqual(counts, (8, 0, 0))
        table = experiment.table_path(self.out, "cubic")
        self.assertEqual(self.rec.measured, [("cubic", table)])
        # run 2 starts with fullmesh, run 3 with pcdc: as in an invocation of every run
        want = [
            ("cubic", 2, pm, t, table) for pm in ("fullmesh", "pcdc") for t in ("bulk", "small")
        ]
        want += [
            ("cubic", 3, pm, t, table) for pm in ("pcdc", "fullmesh") for t in ("bulk", "small")
        ]
        self.assertEqual(self.rec.cells, want)

    def test_every_run_without_only_runs(self):
        experiment.experiment(self.args("--runs", "3", "--cc", "cubic,olia"), log=str)
        runs = sorted({(cc, k) for cc, k, *_ in self.rec.cells})
        self.assertEqual(runs, [(cc, k) for cc in ("cubic", "olia") for k in (1, 2, 3)])
        self.assertEqual([cc for cc, _t in self.rec.measured], ["cubic", "olia"])

    def test_measure_only_measures_the_missing_tables_and_makes_no_run(self):
        os.makedirs(os.path.join(self.out, "olia"))
        with open(experiment.table_path(self.out, "olia"), "w") as f:
            f.write("{}\n")
        a = self.args("--cc", "cubic,olia", "--measure-only")
        self.assertEqual(experiment.experiment(a, log=str), (1, 1, 0))
        self.assertEqual(self.rec.measured, [("cubic", experiment.table_path(self.out, "cubic"))])
        self.assertEqual(self.rec.cells, [])

    def test_a_given_table_is_used_and_nothing_is_measured(self):
        table = os.path.join(self.out, "given.json")
        with open(table, "w") as f:
            f.write("{}\n")
        experiment.experiment(self.args("--runs", "2", "--only-runs", "1", "--table", table), str)
        self.assertEqual(self.rec.measured, [])
        self.assertEqual({c[4] for c in self.rec.cells}, {table})
        self.assertEqual(len(self.rec.cells), 4)

    def test_every_attempt_is_recorded_and_the_manifest_says_partial(self):
        from mpqoe import campaign  # noqa: PLC0415

        def cell(client, a, cc, pm, test, run, table, version, workdir, log):
            if run == 2 and pm == "pcdc" and test == "bulk":
                log("experiment: x not written: bulk timeout")
                return "failed"
            path = experiment.cell_path(a.out, cc, pm, test, run)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            open(path, "w").close()
            return "made"

        a = self.args("--runs", "3", "--only-runs", "1,2")
        with mock.patch.object(experiment, "one_cell", cell):
            self.assertEqual(experiment.experiment(a, log=str), (7, 0, 1))
        m = experiment.write_manifest(a)
        store, name = os.path.split(os.path.abspath(self.out))
        got = [(x["run"], x["status"], x["why"]) for x in campaign.attempts(store, name)]
        self.assertEqual(
            got, [(0, "ok", ""), (1, "ok", ""), (2, "failed", "x not written: bulk timeout")]
        )
        self.assertEqual(m["schema"], campaign.MANIFEST_SCHEMA)
        self.assertEqual(m["cells"]["cubic"], {"ok": [1], "failed": [2], "missing": [3]})
        self.assertTrue(m["partial"])
        a = self.args("--runs", "3", "--only-runs", "1")  # kept: no attempt
        with mock.patch.object(experiment, "one_cell", lambda *x: "kept"):
            experiment.experiment(a, log=str)
        self.assertEqual(len(campaign.attempts(store, name)), 3)

    def test_an_invocation_writes_the_manifest(self):
        from mpqoe import campaign  # noqa: PLC0415

        a = self.args("--runs", "2", "--only-runs", "1")
        with mock.patch.object(experiment, "summary", lambda out: ""):
            with contextlib.redirect_stdout(io.StringIO()):
                self.assertEqual(experiment.run_and_record(a), 0)
        store, name = os.path.split(os.path.abspath(self.out))
        m = campaign.read_manifest(store, name)
        # the recorder writes no result file: every run is missing
        got = (m["family"], m["status"], m["cells"]["cubic"]["missing"])
        self.assertEqual(got, ("pcdc", "partial", [1, 2]))

    def test_run_paths_are_the_cells_of_one_run(self):
        paths = experiment.run_paths("/o", "olia", 7)
        self.assertEqual(
            paths,
            [experiment.cell_path("/o", "olia", pm, t, 7) for pm in experiment.MODES
             for t in experiment.TESTS],
        )  # fmt: skip
        self.assertEqual(paths[0], "/o/olia/pcdc/bulk/run7.csv")


def ok_row(pm, test, run):
    row = dict.fromkeys(experiment.COLUMNS, "1")
    row.update(experiment="pcdc", cc="cubic", pm=pm, test=test, run=run, status="ok")
    return row


# a measurement with a sample of its one pair
MEASURED = {
    "schema": experiment.impact.SCHEMA,
    "pairs": [{"local": "10.77.1.1", "remote": "10.77.101.2", "omega": [0.4], "rtt_ms": [9.0]}],
}


class VolatileTest(unittest.TestCase):
    """The driver's side of the volatile pairs: each test under its run's schedule (a real
    netns.Volatility whose tc is a recorder), its record written beside the result and before
    it, the measurement's beside the table; a schedule that could not be applied makes no file."""

    PAIR = netns.VolatilePair(0, 0, "10mbit", "1mbit", 0.02, 0.01)

    def setUp(self):
        self.out = tempfile.mkdtemp(prefix="pcdc-vol-")
        self.addCleanup(shutil.rmtree, self.out, True)
        self.applied = []
        self.fail = False
        self.a = experiment.parse_args(["--out", self.out, "--client-exec", "c", "--server-exec",
                                        "s", "--server", "10.0.0.1"])  # fmt: skip
        self.a.volatility = lambda key: netns.Volatility([self.PAIR], self.apply, key)
        self.a.volatile_seed = 5
        self.written = []
        real = experiment.files.write_atomic

        def write(path, data):
            self.written.append(path)
            real(path, data)

        spy = mock.patch.object(experiment.files, "write_atomic", side_effect=write)
        spy.start()
        self.addCleanup(spy.stop)

    def apply(self, i, rate):
        if self.fail:
            raise RuntimeError("tc: Cannot find device")
        self.applied.append(rate)

    @staticmethod
    def run_cell(client, a, cc, pm, test, run, table, version, workdir, vol=None):
        with vol.window("bulk"):
            time.sleep(0.05)
        return [ok_row(pm, test, run)]

    def cell(self, pm, test, run):
        with mock.patch.object(experiment, "run_cell", self.run_cell):
            return experiment.one_cell(None, self.a, "cubic", pm, test, run, "t.json", "v",
                                       self.out, log=str)  # fmt: skip

    def record(self, path):
        with open(experiment.volatile_path(path)) as f:
            return json.load(f)

    def test_a_cells_record_is_its_runs_schedule_written_before_the_result(self):
        for pm in ("pcdc", "fullmesh"):
            self.assertEqual(self.cell(pm, "bulk", 3), "made")
        self.assertEqual(self.cell("pcdc", "small", 4), "made")
        paths = {k: experiment.cell_path(self.out, "cubic", *k) for k in
                 [("pcdc", "bulk", 3), ("fullmesh", "bulk", 3), ("pcdc", "small", 4)]}  # fmt: skip
        recs = {k: self.record(p) for k, p in paths.items()}
        where = os.path.join(self.out, "cubic", "pcdc", "bulk", "run3.volatile.json")
        self.assertEqual(experiment.volatile_path(paths[("pcdc", "bulk", 3)]), where)
        # PCDC and FullMesh of a run: the same key, so the same schedule
        self.assertEqual(recs[("pcdc", "bulk", 3)]["key"], "5/3/bulk")
        self.assertEqual(recs[("fullmesh", "bulk", 3)]["key"], "5/3/bulk")
        self.assertEqual(recs[("pcdc", "small", 4)]["key"], "5/4/small")
        for k, rec in recs.items():
            self.assertTrue(rec["pairs"][0]["switches"], k)
            self.assertEqual([w["name"] for w in rec["windows"]], ["bulk"])
            self.assertLess(
                self.written.index(experiment.volatile_path(paths[k])), self.written.index(paths[k])
            )
        self.assertIn("10mbit", self.applied)

    def test_a_schedule_that_failed_makes_no_file(self):
        self.fail = True
        self.assertEqual(self.cell("pcdc", "bulk", 1), "failed")
        self.assertEqual(self.written, [])

    def test_the_measurement_runs_under_its_schedule_and_its_record_comes_first(self):
        table = experiment.table_path(self.out, "cubic")
        os.makedirs(os.path.dirname(table))

        class Client:
            def run(self, *args, timeout=60):
                time.sleep(0.05)
                with open(args[args.index("--json") + 1], "w") as f:
                    json.dump(MEASURED, f)
                return mock.Mock(stdout="", stderr="", returncode=0)

        self.assertIsNone(experiment.measure_table(Client(), self.a, "cubic", table, str))
        self.assertEqual(self.record(table)["key"], "5/0/measure")
        self.assertTrue(os.path.exists(table))
        self.assertEqual(sorted(os.listdir(os.path.dirname(table))),
                         ["table.json", "table.volatile.json"])  # fmt: skip

    def test_a_measurement_without_a_sample_of_every_pair_is_no_table(self):
        table = experiment.table_path(self.out, "cubic")
        os.makedirs(os.path.dirname(table))
        failed = dict(MEASURED["pairs"][0], local="10.77.2.1", omega=[], errors=["[Errno 107] x"])
        doc = dict(MEASURED, pairs=[*MEASURED["pairs"], failed])

        class Client:
            def run(self, *args, timeout=60):
                with open(args[args.index("--json") + 1], "w") as f:
                    json.dump(doc, f)
                return mock.Mock(stdout="", stderr="", returncode=0)

        why = experiment.measure_table(Client(), self.a, "cubic", table, str)
        self.assertIn("no sample of 10.77.2.1 -> 10.77.101.2 ([Errno 107] x)", why)
        self.assertEqual(os.listdir(os.path.dirname(table)), ["table.json.part"])

    def test_without_volatile_pairs_nothing_is_recorded(self):
        self.a.volatility = None
        with mock.patch.object(experiment, "run_cell", lambda *args: [ok_row("pcdc", "bulk", 1)]):
            self.assertEqual(experiment.one_cell(None, self.a, "cubic", "pcdc", "bulk", 1, "t",
                                                 "v", self.out, log=str), "made")  # fmt: skip
        self.assertEqual(self.written, [experiment.cell_path(self.out, "cubic", "pcdc", "bulk", 1)])


class OptionsTest(unittest.TestCase):
    def refusal(self, *argv):
        err = io.StringIO()
        base = ["--out", "x", "--client-exec", "c", "--server-exec", "s", "--server", "1.2.3.4"]
        with contextlib.redirect_stderr(err), self.assertRaises(SystemExit) as e:
            experiment.parse_args([*base, *argv])
        self.assertEqual(e.exception.code, 2)
        lines = err.getvalue().strip().splitlines()
        self.assertEqual(len(lines), 1, err.getvalue())
        return lines[0]

    def test_bad_only_runs_and_measure_only_combinations(self):
        self.assertIn(
            "--only-runs: want numbers of 1..3", self.refusal("--runs", "3", "--only-runs", "4")
        )
        self.assertIn("--only-runs: want run numbers", self.refusal("--only-runs", "1-3"))
        with tempfile.NamedTemporaryFile() as t:
            self.assertIn("--measure-only", self.refusal("--measure-only", "--table", t.name))
        self.assertIn("--measure-only", self.refusal("--measure-only", "--only-runs", "1"))

    def test_defaults_are_the_module_constants(self):
        a = experiment.parse_args(["--out", "x", "--host-smoke"])
        self.assertEqual(a.run_list, list(range(1, 11)))
        self.assertEqual(a.modes, list(experiment.MODES))
        self.assertEqual(a.sizes, list(experiment.SIZES_KIB))
        self.assertEqual(
            (a.bulk_seconds, a.T, a.warmup, a.settle, a.samples),
            (experiment.BULK_SECONDS, experiment.T_S, experiment.WARMUP_S, experiment.SETTLE_S,
             experiment.SAMPLES),
        )  # fmt: skip


if __name__ == "__main__":
    unittest.main()
