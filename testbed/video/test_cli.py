"""video_run.py's bad input: one line on stderr, exit 2, nothing written (no guest, no network)."""

import contextlib
import csv
import io
import json
import math
import os
import shutil
import signal
import subprocess
import tempfile
import types
import unittest
from unittest import mock

HERE = os.path.dirname(os.path.abspath(__file__))
RUN = os.path.join(HERE, "video_run.py")

BAD = [
    (["--topology", "nope", "--clients", "2", "--algorithms", "ga"], "unknown topology 'nope'"),
    (["--topology", "compuserve", "--clients", "2", "--algorithms", "ga,gaa"], "unknown gaa"),
    (["--topology", "qomra-dc", "--clients", "9", "--algorithms", "qomra"], "lists 8 clients"),
    (["--topology", "compuserve", "--clients", "0", "--algorithms", "ga"], "--clients"),
    (["--clients", "3"], "go together"),
    (["--experiment", "bogus"], "invalid choice"),
    (["--runs", "0"], "--runs"),
    (["--retries", "-1"], "--retries"),
    (["--retries", "9"], "--retries"),
    (["--video", "2"], "--video"),
    (["--cells", "nothing.*"], "matches no cell"),
    (["--experiment", "ga-topo", "--max-clients", "0"], "--max-clients: want 1..244"),
    (["--controller", "floodlight"], "no Floodlight jar given"),
    (["--controller", "floodlight", "--floodlight-jar", "/nonexistent.jar"], "no such file"),
    (["--floodlight-jar", "/x.jar"], "goes with --controller floodlight"),
    (["--bogus"], "unrecognized arguments"),
    (["--runs", "2", "--only-runs", "3"], "--only-runs: want numbers of 1..2"),
    (["--only-runs", "x"], "--only-runs: want run numbers"),
    (["--attach", "framework"], "--attach goes with --topology"),
    (
        ["--topology", "compuserve", "--clients", "2", "--algorithms", "ga", "--attach", "x"],
        "compuserve has no attachment 'x'",
    ),
]


class BadInput(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="mpqoe-video-cli-")
        self.addCleanup(shutil.rmtree, self.tmp)

    def run_cli(self, args):
        out = os.path.join(self.tmp, "results")
        r = subprocess.run(
            ["/usr/bin/python3", RUN, *args, "--results", out, "--dry-run"],
            capture_output=True, text=True, timeout=120, check=False,
        )  # fmt: skip
        return r, out

    def test_each_gets_one_line_and_exit_2(self):
        for args, want in BAD:
            with self.subTest(args=args):
                r, out = self.run_cli(args)
                self.assertEqual(r.returncode, 2, r.stderr)
                self.assertIn(want, r.stderr)
                self.assertEqual(len(r.stderr.strip().splitlines()), 1, r.stderr)
                self.assertFalse(os.path.exists(out), "nothing written")

    def test_local_without_netem_is_refused(self):
        from mpqoe import topo  # noqa: PLC0415

        if topo.netem_available():
            self.skipTest("this kernel has netem")
        r, _out = self.run_cli(["--local"])
        self.assertEqual(r.returncode, 2, r.stderr)
        self.assertIn("no netem", r.stderr)

    def test_batches_beyond_the_machine_are_left_out_not_refused(self):
        r, out = self.run_cli(["--experiment", "qomra", "--max-clients", "4"])
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("left out (more than --max-clients 4): qomra-dc.c5", r.stdout)
        self.assertIn("0 runs to make", r.stdout)
        self.assertFalse(os.path.exists(out))

    def test_a_good_plan_prints_its_estimate(self):
        r, out = self.run_cli(["--experiment", "ga-topo", "--runs", "5"])
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("90 runs to make in 3 batches", r.stdout)
        self.assertFalse(os.path.exists(out), "a dry run writes nothing")

    def test_only_runs_makes_those_runs_of_each_cell(self):
        r, _out = self.run_cli(["--experiment", "ga-topo", "--runs", "5", "--only-runs", "2,4"])
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("36 runs to make in 3 batches", r.stdout)

    def test_missing_dashjs_is_one_line_before_any_guest(self):
        import video_run as run  # noqa: PLC0415

        out = os.path.join(self.tmp, "results")
        err = io.StringIO()
        with (
            mock.patch.object(run, "DASHJS", lambda _name: os.path.join(self.tmp, "no-dashjs")),
            mock.patch.object(run, "run_batch") as batch,
            contextlib.redirect_stderr(err),
            contextlib.redirect_stdout(io.StringIO()),
        ):
            rc = run.main(["--experiment", "ci", "--results", out])
        self.assertEqual(rc, 2)
        self.assertIn("dash.js is not installed", err.getvalue())
        self.assertIn("make video-deps", err.getvalue())
        self.assertEqual(len(err.getvalue().strip().splitlines()), 1, err.getvalue())
        batch.assert_not_called()
        self.assertFalse(os.path.exists(out))

    def test_the_dashjs_checked_is_the_batch_players(self):
        """Each batch's player profile names the dash.js build that must be installed; a batch
        whose player is None plays the harness's default profile."""
        import video_run as run  # noqa: PLC0415

        installed = {"modern"}

        def build(name):
            run.dash_harness.player_build(name)  # unknown names fail as they would for real
            return self.tmp if name in installed else os.path.join(self.tmp, "no-" + name)

        def plan(*players):
            return [(types.SimpleNamespace(player=p), []) for p in players]

        with mock.patch.object(run, "DASHJS", build):
            self.assertIsNone(run.missing_dependency(plan(None, "modern")))
            msg = run.missing_dependency(plan("modern", "paper"))
            self.assertIn("dash.js is not installed for player paper", msg)
            self.assertIn("make video-deps", msg)
            self.assertIn("unknown player 'nope'", run.missing_dependency(plan("nope")))
            installed.add("paper")
            self.assertIsNone(run.missing_dependency(plan("paper")))

    def test_an_unbuilt_scheduler_module_is_one_line_before_any_guest(self):
        """ga-sched's DAPS cells load mpqoe_daps.ko in the guest: without it every one of
        them would boot and fail, so the runner refuses the plan first."""
        import video_run as run  # noqa: PLC0415

        mods = os.path.join(self.tmp, "modules")
        os.makedirs(mods)
        out = os.path.join(self.tmp, "results")
        for built, want in ((False, 2), (True, 0)):
            if built:
                open(os.path.join(mods, "mpqoe_daps.ko"), "w").close()
            err = io.StringIO()
            with (
                mock.patch.object(run.kernel, "MODULES", mods),
                mock.patch.object(run, "DASHJS", lambda _name: self.tmp),
                mock.patch.object(run, "run_batch") as batch,
                mock.patch.object(run, "summary", return_value=None),
                contextlib.redirect_stderr(err),
                contextlib.redirect_stdout(io.StringIO()),
            ):
                rc = run.main(["--experiment", "ga-sched", "--results", out])
            self.assertEqual(rc == 2, want == 2, err.getvalue())
            if not built:
                self.assertIn("mpqoe_daps.ko", err.getvalue())
                self.assertIn("make video-deps", err.getvalue())
                self.assertEqual(len(err.getvalue().strip().splitlines()), 1, err.getvalue())
                batch.assert_not_called()
            else:
                self.assertEqual(batch.call_count, 1, "the one ga-sched batch runs")

    def test_sigterm_stops_like_ctrl_c_and_leaves_a_partial_manifest(self):
        import video_run as run  # noqa: PLC0415

        out = os.path.join(self.tmp, "results")
        err = io.StringIO()
        calls = []

        def batch(*_a):
            calls.append(1)
            os.kill(os.getpid(), signal.SIGTERM)  # as `kill` would, in the middle of a batch

        before = signal.getsignal(signal.SIGTERM)
        self.addCleanup(signal.signal, signal.SIGTERM, before)
        with (
            mock.patch.object(run, "missing_dependency", return_value=None),
            mock.patch.object(run, "run_batch", side_effect=batch),
            contextlib.redirect_stderr(err),
            contextlib.redirect_stdout(io.StringIO()),
        ):
            rc = run.main(["--experiment", "ga-delay", "--results", out])
        self.assertEqual(rc, 130)
        self.assertEqual(len(calls), 1, "no batch after the stop")
        self.assertIn("stopped; 0 runs ok, 5 missing", err.getvalue())
        with open(os.path.join(out, "ga-delay", "manifest.json"), encoding="utf-8") as f:
            m = json.load(f)
        self.assertTrue(m["partial"])
        self.assertEqual((m["schema"], m["family"]), ("mpqoe-campaign-manifest/1", "video"))
        self.assertEqual((m["counts"]["missing"], m["failed_attempts"]), (5, []))


class Attempts(unittest.TestCase):
    """Every attempt is recorded (mpqoe.campaign), also the runs of a batch that died first."""

    def test_a_batch_that_fails_records_its_runs_as_failed_attempts(self):
        import session as ss  # noqa: PLC0415
        import video_run as run  # noqa: PLC0415
        from mpqoe import campaign  # noqa: PLC0415

        tmp = tempfile.mkdtemp(prefix="video-attempts-")
        self.addCleanup(shutil.rmtree, tmp, True)

        def batch(args, b, runs, progress):
            cell, k = runs[0]
            progress(cell, k, {"status": "ok", "error": None, "code_version": "v1",
                               "kernel": "6.1.0-guest"})  # fmt: skip
            raise ss.SessionError("the guest died")

        with (
            mock.patch.object(run, "missing_dependency", return_value=None),
            mock.patch.object(run, "run_batch", side_effect=batch),
            contextlib.redirect_stderr(io.StringIO()),
            contextlib.redirect_stdout(io.StringIO()),
        ):
            rc = run.main(["--experiment", "ga-delay", "--results", tmp, "--runs", "2"])
        self.assertEqual(rc, 1)
        got = campaign.attempts(tmp, "ga-delay")
        # a batch per delay, each with 2 runs: the first ok, the second never reached
        self.assertEqual([a["status"] for a in got], ["ok", "failed"] * 5)
        self.assertIn("failed before this run: the guest died", got[1]["why"])
        ok = [a for a in got if a["status"] == "ok"]
        self.assertEqual((ok[0]["kernel"], ok[0]["family"]), ("6.1.0-guest", "video"))
        self.assertTrue(ok[0]["host_cpu"])


class Publish(unittest.TestCase):
    """--publish joins a store's runs to the committed table: a run published again replaces
    itself, the table's other runs stay (a sweep made in parts on several machines)."""

    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="video-publish-")
        self.addCleanup(shutil.rmtree, self.tmp, True)
        self.results = os.path.join(self.tmp, "results")
        import test_record  # noqa: PLC0415
        import video_run as run  # noqa: PLC0415
        from mpqoe import video_record as record  # noqa: PLC0415

        self.run, self.record, self.doc = run, record, test_record.run_doc
        self.err = io.StringIO()

    def publish(self, store, runs, bitrate=2400.0, events=None, rc=0):
        """Publishes a store holding runs of one cell, each client at bitrate, and with events
        ({client index: the player's events}) its players' logs; its table."""
        for k in runs:
            doc = self.doc()
            doc["run"] = k
            doc["status"] = "ok"
            doc["clients"][0]["qoe"]["avg_bitrate_kbps"] = bitrate
            doc["network"] = {"clients": [{"name": "c1"}, {"name": "c2"}]}
            d = os.path.join(self.tmp, store, doc["experiment"], doc["cell"], f"run{k}")
            os.makedirs(os.path.join(d, "players"))
            with open(os.path.join(d, "run.json"), "w") as f:
                json.dump(doc, f)
            for i, evs in (events or {}).items():
                with open(os.path.join(d, "players", f"client-{i}.json"), "w") as f:
                    json.dump({"qoe": {"meta": {}, "events": evs}}, f)
        batch = mock.Mock(experiment="ga-topo")
        args = mock.Mock(plan=[(batch, [])], results=os.path.join(self.tmp, store))
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(self.err):
            self.assertEqual(self.run.publish(args, self.results), rc)
        path = self.record.published("ga-topo", self.results)["ga-topo"]
        if not os.path.exists(path):
            return None
        with open(path) as f:
            return [line.split(",") for line in f.read().splitlines()[1:]]

    def test_the_players_samples_are_committed_and_give_the_framework_columns(self):
        import test_record  # noqa: PLC0415

        events = {0: test_record.C1_EVENTS, 1: test_record.C2_EVENTS}
        rows = self.publish("a", [1], events=events)
        cols = self.record.COLUMNS
        fw = [[r[cols.index(k)] for k in self.record.FRAMEWORK] for r in rows]
        self.assertEqual(fw, [["2300.0", "4", "1", "2"], ["", "", "", ""]])
        path = self.record.samples_path(self.results, "ga-topo", "compuserve.c2.ga", 1, "abc123")
        with open(path, "rb") as f:
            first = f.read()
        got = self.record.read_samples(first)
        self.assertEqual(sorted(got), ["c1", "c2"])
        self.assertEqual(got["c1"][1], (2.0, 2.5, 0, 1500))
        self.publish("b", [1], events=events)  # the same run published again
        with open(path, "rb") as f:
            self.assertEqual(f.read(), first)

    def test_no_sample_log_for_a_run_without_the_framework_numbers(self):
        import test_record  # noqa: PLC0415

        self.publish("a", [1], events={1: test_record.C2_EVENTS})
        self.assertFalse(os.path.exists(os.path.join(self.results, "ga-paper", "data", "samples")))

    def test_malformed_samples_stop_the_publish_with_one_line_and_write_nothing(self):
        import test_record  # noqa: PLC0415

        bad = [dict(e, bitrateKbps="x") for e in test_record.C1_EVENTS]
        self.assertIsNone(self.publish("a", [1], events={0: bad}, rc=1))
        self.assertEqual(
            self.err.getvalue().strip(),
            "video_run.py: cannot publish: ga-topo compuserve.c2.ga run1: sample at t=2.0: "
            "bitrate 'x' is not a finite number",
        )
        self.assertFalse(os.path.exists(self.results))

    def test_runs_of_another_store_join_and_a_run_published_again_replaces_itself(self):
        cols = self.record.COLUMNS
        run, rate = cols.index("run"), cols.index("avg_bitrate_kbps")
        first = self.publish("a", [1, 2])
        self.assertEqual([r[run] for r in first], ["1", "1", "2", "2"])  # two clients a run
        both = self.publish("b", [3, 10])
        self.assertEqual([r[run] for r in both], ["1", "1", "2", "2", "3", "3", "10", "10"])
        again = self.publish("c", [2], bitrate=1000.0)
        self.assertEqual([r[run] for r in again], [r[run] for r in both])
        self.assertEqual([float(r[rate]) for r in again if r[run] == "2"][0], 1000.0)
        self.assertEqual([float(r[rate]) for r in again if r[run] == "3"][0], 2400.0)

    def test_the_attempts_table_holds_failed_attempts_beside_the_runs(self):
        self.publish("a", [1])
        doc = self.doc()
        doc.update(run=2, status="failed", checks={"every client finished": False})
        d = os.path.join(self.tmp, "a", doc["experiment"], doc["cell"], "failed", "run2-1700000000")
        os.makedirs(d)
        with open(os.path.join(d, "run.json"), "w") as f:
            json.dump(doc, f)
        with open(os.path.join(d, "controller.log"), "w") as f:
            f.write("retransmitted MP_CAPABLE SYN of connection 3 [decided 1 ms ago]\n")
        self.publish("a", [])
        exp = doc["experiment"]
        path = self.record.published(exp, self.results)[self.record.attempts_table(exp)]
        with open(path) as f:
            rows = list(csv.DictReader(f))
        got = sorted(
            (r["attempt"], r["status"], r["failed_checks"], r["resent_syns"]) for r in rows
        )
        self.assertEqual(
            got,
            [("run1", "ok", "", "0"), ("run2-1700000000", "failed", "every client finished", "1")],
        )

    def draw(self, store, name, capacity=6.5):
        """A batch's descriptor under the store: its path in a run document."""
        rel = os.path.join("ga-topo-paper", "batches", name, "descriptor.json")
        os.makedirs(os.path.dirname(os.path.join(store, rel)), exist_ok=True)
        with open(os.path.join(store, rel), "w") as f:
            json.dump(
                {
                    "links": [
                        {"a": "A", "b": "B", "capacityMbps": capacity, "delayMs": 5},
                        {"a": "B", "b": "C", "capacityMbps": 2.5, "delayMs": 7},
                    ],
                    "hosts": [
                        {"role": "server", "interfaces": [{"switch": "C"}]},
                        {"role": "client", "interfaces": [{"switch": "A"}]},
                    ],
                },
                f,
            )
        return rel

    def ok_run(self, store, run, descriptor, seed=1):
        doc = self.doc()
        doc.update(experiment="ga-topo-paper", cell="compuserve.c5.ga", run=run, status="ok",
                   descriptor=descriptor)  # fmt: skip
        doc["params"]["seed"] = seed
        doc["clients"][0]["assignment"] = {"paths": [["A", "B"], ["A", "B", "C"]]}
        d = os.path.join(store, "ga-topo-paper", "compuserve.c5.ga", f"run{run}")
        os.makedirs(d)
        with open(os.path.join(d, "run.json"), "w") as f:
            json.dump(doc, f)

    def publish_draws(self, store, rc=0):
        args = mock.Mock(plan=[(mock.Mock(experiment="ga-topo-paper"), [])], results=store)
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(self.err):
            self.assertEqual(self.run.publish(args, self.results), rc)
        out = self.record.published("ga-topo-paper", self.results)
        tables = []
        for name in (self.record.paths_table, self.record.draws_table):
            if not os.path.exists(out[name("ga-topo-paper")]):
                return None
            with open(out[name("ga-topo-paper")]) as f:
                tables.append(list(csv.DictReader(f)))
        return tables

    def test_a_design_with_draws_commits_its_runs_paths_and_its_draws_links(self):
        store = os.path.join(self.tmp, "a")
        self.ok_run(store, 1, self.draw(store, "s1"))
        self.ok_run(store, 2, self.draw(store, "s1-again"))  # another batch of the same draw
        self.ok_run(store, 3, self.draw(store, "s2", capacity=9.5), seed=2)
        paths, links = self.publish_draws(store)
        self.assertEqual([(r["run"], r["client"], r["paths"]) for r in paths],
                         [("1", "c1", "A>B;A>B>C"), ("1", "c2", ""), ("2", "c1", "A>B;A>B>C"),
                          ("2", "c2", ""), ("3", "c1", "A>B;A>B>C"), ("3", "c2", "")])  # fmt: skip
        self.assertEqual([(r["seed"], r["a"], r["b"], r["capacity_mbps"]) for r in links],
                         [("1", "A", "B", "6.5"), ("1", "B", "C", "2.5"), ("2", "A", "B", "9.5"),
                          ("2", "B", "C", "2.5")])  # fmt: skip
        self.assertEqual({(r["server_switch"], r["client_switches"]) for r in links}, {("C", "A")})
        # a draw whose runs were made on other links names no one network: nothing is written
        store = os.path.join(self.tmp, "b")
        self.ok_run(store, 4, self.draw(store, "s1-other", capacity=1.0))
        self.ok_run(store, 5, self.draw(store, "s1"))
        self.assertEqual(self.publish_draws(store, rc=1), [paths, links])
        self.assertIn("draw ('compuserve', '2', '1'): the descriptors of its runs differ",
                      self.err.getvalue())  # fmt: skip
        # published from another store, a draw made again on other links than the committed
        # ones: refused too; on the same links, its rows join
        store = os.path.join(self.tmp, "c")
        self.ok_run(store, 6, self.draw(store, "s1", capacity=7.0))
        self.assertEqual(self.publish_draws(store, rc=1), [paths, links])
        self.assertIn("draw ('compuserve', '2', '1'): its runs' descriptor differs from the "
                      "committed links", self.err.getvalue())  # fmt: skip
        store = os.path.join(self.tmp, "d")
        self.ok_run(store, 6, self.draw(store, "s1"))
        paths2, links2 = self.publish_draws(store)
        self.assertEqual([r["run"] for r in paths2], ["1", "1", "2", "2", "3", "3", "6", "6"])
        self.assertEqual(links2, links)

    def test_without_an_ok_run_the_paths_and_draws_tables_are_empty(self):
        store = os.path.join(self.tmp, "a")
        doc = self.doc()
        doc.update(experiment="ga-topo-paper", cell="compuserve.c5.ga", run=1, status="failed")
        d = os.path.join(store, "ga-topo-paper", "compuserve.c5.ga", "failed", "run1-1700000000")
        os.makedirs(d)
        with open(os.path.join(d, "run.json"), "w") as f:
            json.dump(doc, f)
        self.assertEqual(self.publish_draws(store), [[], []])

    def test_failed_attempts_as_they_ended_are_published_for_a_design_with_draws(self):
        exp, cell = "ga-topo-paper", "compuserve.c5.ga"
        store = os.path.join(self.tmp, "a")

        def attempt(where, status, clients=True):
            doc = self.doc()
            doc.update(experiment=exp, cell=cell, run=1, status=status,
                       descriptor=self.draw(store, "s1"))  # fmt: skip
            if not clients:
                doc.pop("clients")
            d = os.path.join(store, exp, cell, *where)
            os.makedirs(d)
            with open(os.path.join(d, "run.json"), "w") as f:
                json.dump(doc, f)

        attempt(["run1"], "ok")
        attempt(["failed", "run1-1700000000"], "failed")  # its players played to the end
        attempt(["failed", "run1-1700000500"], "failed", clients=False)  # died before them
        args = mock.Mock(plan=[(mock.Mock(experiment=exp), [])], results=store)
        with contextlib.redirect_stdout(io.StringIO()):
            self.assertEqual(self.run.publish(args, self.results), 0)
        path = self.record.published(exp, self.results)[self.record.ended_table(exp)]
        with open(path) as f:
            rows = list(csv.DictReader(f))
        self.assertEqual(list(rows[0]), [*self.record.COLUMNS, *self.record.ENDED_COLUMNS])
        self.assertEqual({r["attempt"] for r in rows}, {"run1-1700000000"})
        self.assertEqual([r["client"] for r in rows], [c["name"] for c in self.doc()["clients"]])
        # the modern sweeps have no draws: no such table
        self.assertNotIn(self.record.ended_table("ga-topo"), self.record.published("ga-topo", "x"))


class Summary(unittest.TestCase):
    """The printed summary: both metric families per cell, under their own headings."""

    def test_both_families_in_columns_that_line_up(self):
        import video_run as run  # noqa: PLC0415

        means = {k: 1.0 for _h, cols in run.SUMMARY for k, _l in cols}
        table = [("compuserve.c3.ga", 3, 3, dict(means, fw_underruns=None)),
                 ("compuserve.c3.none", 2, 3, dict(means, avg_bitrate_kbps=2612.25))]  # fmt: skip
        heads, labels, ga, none, *notes = run.summary_lines(table)
        self.assertEqual(notes, list(run.SUMMARY_NOTE))
        self.assertEqual(len({len(heads), len(labels), len(ga), len(none)}), 1)
        # each family's heading ends where its last column does
        self.assertTrue(labels.endswith("underruns  underrun s"))
        project = labels.index("startup s") + len("startup s")
        self.assertEqual(heads.index("project (player events)") + 23, project)
        self.assertEqual(labels.split()[2:], ["ok", "bitrate", "switches", "outage", "s",
                                              "startup", "s", "bitrate", "switches",
                                              "underruns", "underrun", "s"])  # fmt: skip
        self.assertEqual(ga.split()[1:], ["3/3"] + ["1.0"] * 6 + ["-", "1.0"])
        self.assertEqual(none.split()[2], "2612.2")


class DeadNetwork(unittest.TestCase):
    """A run that fails because the network side died ends its batch, without retries or the
    batch's other runs failing at once on the broken connection, and its record says why."""

    def test_the_batch_stops_and_the_run_names_the_cause(self):
        tmp = tempfile.mkdtemp(prefix="video-dead-")
        self.addCleanup(shutil.rmtree, tmp, True)
        import video_run as run  # noqa: PLC0415

        net = mock.MagicMock(ready={"built": {}})
        net.__enter__.return_value = net
        net.answers.return_value = False
        net.gone_cause.return_value = "the guest agent died: subprocess.TimeoutExpired: x"

        def one_run(args, _net, cell, k, *_):
            os.makedirs(run.run_dir(args.results, cell, k))
            return {"status": "failed", "error": "[Errno 32] Broken pipe"}

        batch = types.SimpleNamespace(experiment="ga-topo", name="batch", video_s=120, clients=5)
        cells = [types.SimpleNamespace(batch=batch, name=n) for n in ("a", "b")]
        args = mock.Mock(results=tmp, retries=2, runs=1, only=[1], local=False)
        progress = mock.Mock()
        with (
            mock.patch.object(run, "prepare_batch", return_value=("d.json", "content")),
            mock.patch.object(run.ss, "Network", return_value=net),
            mock.patch.object(run, "one_run", side_effect=one_run) as made,
            contextlib.redirect_stdout(io.StringIO()),
            self.assertRaisesRegex(run.ss.SessionError, "agent died"),
        ):
            run.run_batch(args, batch, [(cells[0], 1), (cells[1], 1)], progress)
        self.assertEqual(made.call_count, 1)  # no retry, no second run
        doc = progress.call_args.args[2]
        self.assertTrue(progress.call_args.args[3])  # the attempt is final
        self.assertEqual(
            doc["error"],
            "[Errno 32] Broken pipe; the guest agent died: subprocess.TimeoutExpired: x",
        )
        with open(os.path.join(run.run_dir(tmp, cells[0], 1), "run.json")) as f:
            self.assertEqual(json.load(f)["error"], doc["error"])


class NetworkTimeout(unittest.TestCase):
    """The network side's own time limit covers the batch it serves, retries included."""

    def setUp(self):
        import video_run as run  # noqa: PLC0415

        self.run = run

    def batch(self, video_s):
        return types.SimpleNamespace(video_s=video_s, clients=5)

    def test_a_short_batch_keeps_two_hours(self):
        self.assertEqual(self.run.network_timeout_s(self.batch(120), 6, 1), 7200)

    def test_six_nine_minute_runs_with_a_retry_each_get_more(self):
        # such a batch took 7500 s with one retry and was cut off at 7200 s
        got = self.run.network_timeout_s(self.batch(540), 6, 1)
        self.assertEqual(got, 2 * (150 + 12 * (540 + 4 * 4 + 20 + 5 * 20)))
        self.assertGreater(got, 7500)
        self.assertLess(self.run.network_timeout_s(self.batch(540), 6, 0), got)

    def test_the_limit_is_whole_seconds_as_testbed_run_takes_them(self):
        # a batch's length is a float (540.0): "16524.0" made testbed/run refuse every
        # 9-minute batch before its guest booted
        got = self.run.network_timeout_s(self.batch(540.0), 12, 0)
        self.assertIsInstance(got, int)
        self.assertRegex(str(got), r"^[1-9][0-9]*$")
        self.assertGreater(got, 7200)
        self.assertEqual(self.run.network_timeout_s(self.batch(540.5), 1, 0), 7200)
        self.assertEqual(
            self.run.network_timeout_s(self.batch(4000.25), 1, 0),
            math.ceil(2 * (150 + 4000.25 + 4 * 4 + 20 + 5 * 20)),
        )

    def test_the_batch_starts_its_network_with_it(self):
        net = mock.MagicMock(ready={"built": {}})
        net.__enter__.return_value = net
        batch = types.SimpleNamespace(experiment="ga-topo", name="b", video_s=540, clients=5)
        args = mock.Mock(results="/nonexistent", retries=1, runs=1, only=[1], local=False)
        with (
            mock.patch.object(self.run, "prepare_batch", return_value=("d.json", "content")),
            mock.patch.object(self.run.ss, "Network", return_value=net) as made,
            contextlib.redirect_stdout(io.StringIO()),
        ):
            self.run.run_batch(args, batch, [], mock.Mock())
        self.assertEqual(made.call_args.kwargs["timeout"], self.run.network_timeout_s(batch, 0, 1))


if __name__ == "__main__":
    unittest.main()
