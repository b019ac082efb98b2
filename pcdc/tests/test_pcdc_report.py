"""The PCDC results page (report.py) on hand-made driver output: the import's refusals, the
statistics and verdicts, the placeholders, and a page that regenerates byte for byte.

    cd pcdc && /usr/bin/python3 -m unittest tests.test_pcdc_report
"""

import contextlib
import io
import json
import os
import shutil
import tempfile
import time
import unittest

import pcdc_report as report
from mpqoe.pcdc import experiment, netns
from mpqoe.results import ReportError

KIB = 1024
TEMPLATE = experiment.published(report.ROOT, "uib-unis").template
SIZES = (128, 256, 512, 768, 1024)
# uib-unis's pairs (client, server) and a table that puts Uninett-Uninett first
OMEGA = {
    (netns.client_addr(0), netns.server_addr(0)): (0.6, 32.0),  # Uninett-Uninett
    (netns.client_addr(0), netns.server_addr(1)): (-0.1, 58.0),  # BKK-Uninett
    (netns.client_addr(1), netns.server_addr(0)): (0.05, 69.0),  # Uninett-Telenor
    (netns.client_addr(1), netns.server_addr(1)): (-0.2, 96.0),  # BKK-Telenor
}


def flat(cc, pm, test, size, run):
    """Bulk 100 Mbit/s, every size 200 ms: PCDC and FullMesh alike."""
    return 200.0 if test == "small" else 100.0


def scenario_file(name):
    return os.path.join(report.HERE, "scenarios", f"{name}.json")


def omegas(scenario, cc):
    """{(client, server): (Omega, RTT)} of the fixture's table: OMEGA for uib-unis, else the
    paper's table of the scenario for cc."""
    if scenario == "uib-unis":
        return OMEGA
    with open(scenario_file(scenario)) as f:
        names = report.pair_names(json.load(f))
    paper = report.paper_table(scenario, cc)
    return {q: paper[tuple(name.split("-", 1))] for q, name in names.items()}


def volatile_record(key, pairs, bad, stopped_at, windows=()):
    """A record as netns.Volatility writes it: every pair good from 0.01 s, bad in the spans
    bad [(from, to)]."""
    switches = [{"planned": 0.0, "at": 0.01, "state": "good"}]
    for a, b in bad:
        switches += [
            {"planned": a, "at": a, "state": "bad"},
            {"planned": b, "at": b, "state": "good"},
        ]
    return {
        "schema": netns.SCHEMA,
        "key": key,
        "started": "2026-01-01T00:00:00Z",
        "stopped_at": stopped_at,
        "error": None,
        "pairs": [
            {"client": p.addrs[0], "server": p.addrs[1], "good_rate": p.good_rate,
             "bad_rate": p.bad_rate, "mean_good_s": p.mean_good_s, "mean_bad_s": p.mean_bad_s,
             "key": f"{key}/{i}",
             "switches": [dict(sw, rate=p.rate(sw["state"])) for sw in switches]}
            for i, p in enumerate(pairs)
        ],
        "windows": [{"name": n, "from": a, "to": b} for n, a, b in windows],
    }  # fmt: skip


def write_json(path, doc):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        json.dump(doc, f, indent=1, sort_keys=True)


def table_doc(cc, samples=3, scenario="uib-unis"):
    return {
        "schema": "pcdc-impact/1",
        "cc": cc,
        "T_s": 10.0,
        "warmup_s": 2.0,
        "settle_s": 1.0,
        "port": 5301,
        "created": "2026-01-01T00:00:00Z",
        "pairs": [
            {
                "local": local,
                "remote": remote,
                "local_dev": "c0",
                "errors": [],
                "omega": [om + 0.01 * (i - 1) for i in range(samples)],
                "rtt_ms": [rtt] * samples,
            }
            for (local, remote), (om, rtt) in omegas(scenario, cc).items()
        ],
    }


def write_output(root, runs=5, ccs=("cubic", "olia"), value=flat, version="0123456789ab",
                 scenario="uib-unis"):  # fmt: skip
    """A directory as mpqoe.pcdc.experiment leaves it: <root>/<scenario>/<cc>/... ; value gives a
    bulk run's Mbit/s or a small transfer's milliseconds. Where the scenario has volatile pairs, the
    records beside the results: the measurement 900 s with the pairs bad 100-190 and 500-590 s,
    a cell's test 125 s, the bulk download 1-121 s, bad from 10 s for run seconds. Returns the
    directory."""
    out = os.path.join(root, scenario)
    net = experiment.load_network(scenario_file(scenario))
    for cc in ccs:
        write_json(os.path.join(out, cc, "table.json"), table_doc(cc, scenario=scenario))
        if net.volatile:
            rec = volatile_record(netns.test_key(net.seed, 0, "measure"), net.volatile,
                                  [(100.0, 190.0), (500.0, 590.0)], 900.0)  # fmt: skip
            write_json(os.path.join(out, cc, "table.volatile.json"), rec)
        for run in range(1, runs + 1):
            for pm in ("pcdc", "fullmesh"):
                for test in ("bulk", "small"):
                    rows = []
                    for size in [None] if test == "bulk" else [s * KIB for s in SIZES]:
                        v = value(cc, pm, test, size, run)
                        secs = 120.0 if test == "bulk" else v / 1000
                        mbps = v if test == "bulk" else size * 8 / secs / 1e6
                        rows.append(
                            dict(
                                experiment="pcdc",
                                cc=cc,
                                pm=pm,
                                test=test,
                                run=run,
                                size_bytes="" if size is None else size,
                                hint=int(size is not None),
                                seconds=f"{secs:.4f}",
                                bytes=int(mbps * 1e6 * secs / 8),
                                mbps=f"{mbps:.3f}",
                                subflows=4 if pm == "fullmesh" else 1,
                                pairs="x",
                                status="ok",
                                code_version=version,
                                started="2026-01-01T00:00:00Z",
                            )  # fmt: skip
                        )
                    path = experiment.cell_path(out, cc, pm, test, run)
                    os.makedirs(os.path.dirname(path), exist_ok=True)
                    with open(path, "w") as f:
                        f.write(report.shared.csv_text(rows, experiment.COLUMNS))
                    if net.volatile:
                        windows = (
                            [("bulk", 1.0, 121.0)]
                            if test == "bulk"
                            else [(str(s * KIB), 1.0 + i, 1.5 + i) for i, s in enumerate(SIZES)]
                        )
                        rec = volatile_record(netns.test_key(net.seed, run, test), net.volatile,
                                              [(10.0, 10.0 + run)], 125.0, windows)  # fmt: skip
                        write_json(experiment.volatile_path(path), rec)
    return out


def edit_csv(path, column, value, line=1):
    with open(path) as f:
        lines = f.read().splitlines()
    head = lines[0].split(",")
    fields = lines[line].split(",")
    fields[head.index(column)] = value
    lines[line] = ",".join(fields)
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")


def store_files(root, skip=None):
    """{relative path: bytes} of every file under root, but under skip."""
    out = {}
    for d, dirs, names in os.walk(root):
        dirs[:] = [x for x in dirs if os.path.join(d, x) != skip]
        for n in names:
            with open(os.path.join(d, n), "rb") as f:
                out[os.path.relpath(os.path.join(d, n), root)] = f.read()
    return out


def assert_export_round_trip(case, src):
    """src imported, exported and imported again: the export holds the result files, tables
    and records src had (rows and records as documents, tables byte for byte), and the second
    import gives the first one's data byte for byte."""
    case.do_import(src)
    first = store_files(case.data)
    dest = os.path.join(case.root, "exported", case.SCENARIO)
    report.export_runs(case.data, dest, log=str)
    got, want = store_files(dest), store_files(src, skip=case.data)  # the import is in src
    case.assertEqual(sorted(got), sorted(want))
    for rel, b in want.items():
        if rel.endswith(".csv"):
            case.assertEqual(got[rel].decode().splitlines(), b.decode().splitlines(), rel)
        elif rel.endswith("table.json"):
            case.assertEqual(got[rel], b, rel)
        else:
            case.assertEqual(json.loads(got[rel]), json.loads(b), rel)
    shutil.rmtree(case.data)
    case.do_import(dest)
    case.assertEqual(store_files(case.data), first)


class Case(unittest.TestCase):
    """A temporary root with the data directory of SCENARIO's import."""

    SCENARIO = "uib-unis"

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.root = self.tmp.name
        self.data = experiment.published(self.root, self.SCENARIO).data
        self.scenario = scenario_file(self.SCENARIO)
        self.template = experiment.published(report.ROOT, self.SCENARIO).template

    def output(self, **kw):
        """write_output of this case's scenario."""
        return write_output(self.root, scenario=self.SCENARIO, **kw)

    def tearDown(self):
        self.tmp.cleanup()

    def do_import(self, src, rate_scale=1.0):
        log = []
        report.import_runs(src, self.root, self.scenario, rate_scale, log=log.append)
        return log

    def page(self, src, template=None, **kw):
        """(page text, Data) of src imported and rendered with template (the scenario's)."""
        self.do_import(src, **kw)
        template = template or self.template
        where = self.where(template, "pcdc.md", os.path.join(self.root, "figures"))
        out = report.build(where)
        return out[where.page].decode(), report.summarise(*report.load(self.data))

    def where(self, template, page, figures):
        """The published paths of this case's data with another template, page and figures."""
        return experiment.Published(self.data, template, os.path.join(self.root, page), figures)

    def assert_refused(self, src, words):
        keep = os.path.join(self.data, "cubic.csv")
        os.makedirs(self.data, exist_ok=True)
        with open(keep, "w") as f:
            f.write("old\n")
        with self.assertRaises(ReportError) as cm:
            self.do_import(src)
        msg = str(cm.exception)
        self.assertIn(words, msg)
        self.assertNotIn("\n", msg)
        self.assertEqual(os.listdir(self.data), ["cubic.csv"])  # nothing written or removed
        with open(keep) as f:
            self.assertEqual(f.read(), "old\n")

    def assert_placeholders_refused(self, cases):
        """Each (placeholder, words) renders to a ReportError that says words."""
        for bad, words in cases:
            with self.subTest(bad=bad):
                with self.assertRaises(ReportError) as cm:
                    self.render(bad + "\n")
                self.assertIn(words, str(cm.exception))

    def render(self, text):
        tpl = os.path.join(self.root, "t.md.in")
        with open(tpl, "w") as f:
            f.write(text)
        where = self.where(tpl, "t.md", self.root)
        return report.build(where)[where.page].decode().split("\n", 1)[1]


class ImportTest(Case):
    def test_the_data_directory_holds_every_row_and_the_tables_as_they_were(self):
        src = write_output(self.root)
        log = self.do_import(src, rate_scale=0.5)
        self.assertEqual(
            sorted(os.listdir(self.data)),
            ["cubic-table.json", "cubic.csv", "olia-table.json", "olia.csv", "scenario.json"],
        )
        rows, scenario, tables, volatile = report.load(self.data)
        self.assertEqual(volatile, {})
        self.assertEqual(len(rows), 2 * 5 * 2 * (1 + len(SIZES)))
        with open(os.path.join(src, "cubic", "table.json"), "rb") as a:
            with open(os.path.join(self.data, "cubic-table.json"), "rb") as b:
                self.assertEqual(a.read(), b.read())
        self.assertEqual((scenario["name"], scenario["rate_scale"]), ("uib-unis", 0.5))
        self.assertEqual(scenario["file"], "pcdc/scenarios/uib-unis.json")
        self.assertFalse([line for line in log if "partial" in line])
        # the driver's text is kept, e.g. "100.000" Mbit/s, not a re-formatted number
        with open(os.path.join(self.data, "cubic.csv")) as f:
            self.assertIn(",100.000,", f.read())

    def test_an_export_is_the_drivers_output_and_imports_to_the_same_data(self):
        assert_export_round_trip(self, write_output(self.root, runs=3))

    def test_an_export_into_a_store_that_has_the_files_writes_nothing(self):
        self.do_import(write_output(self.root, runs=2))
        dest = os.path.join(self.root, "store", self.SCENARIO)
        os.makedirs(os.path.join(dest, "cubic"))
        with open(experiment.table_path(dest, "cubic"), "w") as f:
            f.write("mine\n")
        with self.assertRaises(ReportError) as cm:
            report.export_runs(self.data, dest, log=str)
        self.assertIn("cubic/table.json exists", str(cm.exception))
        self.assertEqual(os.listdir(dest), ["cubic"])
        self.assertEqual(os.listdir(os.path.join(dest, "cubic")), ["table.json"])

    def test_rows_of_two_code_versions_are_refused(self):
        src = write_output(self.root)
        edit_csv(
            experiment.cell_path(src, "olia", "pcdc", "small", 3), "code_version", "fedcba987654"
        )
        self.assert_refused(src, "more than one code version: 0123456789ab (")

    def test_a_status_that_is_not_ok_is_refused(self):
        src = write_output(self.root)
        edit_csv(experiment.cell_path(src, "cubic", "fullmesh", "bulk", 2), "status", "timeout")
        self.assert_refused(src, "cubic/fullmesh/bulk/run2.csv:2: status 'timeout' is not ok")

    def test_a_row_of_another_file_or_a_missing_table_is_refused(self):
        src = write_output(self.root)
        edit_csv(experiment.cell_path(src, "cubic", "pcdc", "bulk", 1), "pm", "fullmesh")
        self.assert_refused(src, "is not of cubic/pcdc/bulk run 1")
        os.unlink(os.path.join(self.data, "cubic.csv"))
        src = write_output(os.path.join(self.root, "again"))
        os.unlink(os.path.join(src, "olia", "table.json"))
        self.assert_refused(src, "olia/table.json missing")

    def test_partial_cells_are_listed_and_marked_on_the_page(self):
        src = write_output(self.root)
        os.unlink(experiment.cell_path(src, "olia", "fullmesh", "small", 5))
        log = self.do_import(src)
        partial = "pcdc/pcdc_report.py: partial: olia/fullmesh/small/128 KiB has 4 of 5 runs"
        self.assertIn(partial, log)
        self.assertEqual(sum("partial:" in line for line in log), len(SIZES))
        text, _ = self.page(src)
        self.assertIn("**partial**: cells with fewer runs: olia/fullmesh/small/128 KiB 4", text)
        self.assertIn("| olia | 128 | FullMesh | 4 (partial) |", text)

    def test_the_command_line_says_it_in_one_line_and_exits_1(self):
        src = write_output(self.root)
        edit_csv(experiment.cell_path(src, "cubic", "pcdc", "small", 1), "status", "fallback", 2)
        err = io.StringIO()
        with contextlib.redirect_stderr(err):
            rc = report.main(["--import", src, "--data", os.path.join(self.root, "results")])
        self.assertEqual(rc, 1)
        self.assertEqual(len(err.getvalue().strip().splitlines()), 1)
        self.assertIn("(nothing written)", err.getvalue())
        self.assertFalse(os.path.exists(os.path.join(self.root, "results")))

    def test_the_command_line_exports_by_the_directorys_name(self):
        src = write_output(self.root, runs=2)
        root = os.path.join(self.root, "pcdc")
        dest = os.path.join(self.root, "store", "uib-unis")
        with contextlib.redirect_stdout(io.StringIO()):
            self.assertEqual(report.main(["--import", src, "--data", root]), 0)
            self.assertEqual(report.main(["--export", dest, "--data", root]), 0)
        self.assertEqual(sorted(os.listdir(dest)), ["cubic", "olia"])
        err = io.StringIO()
        with contextlib.redirect_stderr(err):  # no data of that name: one line, nothing written
            other = os.path.join(self.root, "store", "uib-hin")
            self.assertEqual(report.main(["--export", other, "--data", root]), 1)
        self.assertEqual(len(err.getvalue().strip().splitlines()), 1)
        self.assertFalse(os.path.exists(other))
        with contextlib.redirect_stderr(io.StringIO()), self.assertRaises(SystemExit):
            report.main(["--export", dest, "--import", src])

    def test_the_import_goes_to_its_scenarios_directory_and_every_scenario_has_a_page(self):
        src = write_output(self.root, runs=2)
        root, results = os.path.join(self.root, "pcdc"), os.path.join(self.root, "results")
        with contextlib.redirect_stdout(io.StringIO()):
            self.assertEqual(report.main(["--import", src, "--data", root]), 0)
        data = os.path.join(root, "uib-unis", "data")
        self.assertEqual(
            sorted(os.listdir(data)),
            ["cubic-table.json", "cubic.csv", "olia-table.json", "olia.csv", "scenario.json"],
        )
        # data without a template: one error naming the template
        with self.assertRaisesRegex(ReportError, "no template .*pcdc-uib-unis.md.in"):
            report.build_all(root, results)
        shutil.copytree(experiment.RESULTS, results, ignore=shutil.ignore_patterns("*.md", "data"))
        out, old = report.build_all(root, results)
        self.assertEqual(
            sorted(os.path.relpath(p, self.root) for p in out),
            [
                "pcdc/uib-unis/figures/bulk.png",
                "pcdc/uib-unis/figures/small.png",
                "results/claims/pcdc-uib-unis.csv",
                "results/pcdc-uib-unis.md",
            ],
        )
        self.assertEqual(old, [])

    def test_a_scenario_named_unfit_for_a_directory_is_refused(self):
        with open(self.scenario) as f:
            doc = json.load(f)
        for name in ("../up", "Big", "", None):
            bad = os.path.join(self.root, "bad.json")
            with open(bad, "w") as f:
                json.dump(dict(doc, name=name), f)
            with self.assertRaisesRegex(ReportError, "name must match"):
                report.read_scenario(bad, 1.0)

    def test_the_papers_table_is_the_scenarios_own(self):
        # Table III, Cubic: Omega > 0 by RTT; Uninett-PowerTech's printed mean is 0.00, so the
        # rule leaves it out although the text counts it in
        self.assertEqual(
            report.paper_sets("uib-hin", "cubic")[0],
            [("Uninett", "Uninett"), ("Uninett", "Broadnet"), ("BKK", "PowerTech")],
        )
        self.assertEqual(report.paper_sets("uib-hin", "olia")[0], [("Uninett", "Uninett")])
        self.assertEqual(report.paper_sets("uib-unis", "olia")[0][0], ("Uninett", "Uninett"))
        self.assertIsNone(report.paper_sets("elsewhere", "cubic"))


def separated(cc, pm, test, size, run):
    """PCDC's bulk clearly higher and its small transfers clearly faster, for every cell."""
    if test == "bulk":
        return (100.0 if pm == "pcdc" else 80.0) + run
    return (150.0 if pm == "pcdc" else 250.0) + run


class StatisticsTest(Case):
    def test_a_known_difference_is_found_and_equal_samples_are_not(self):
        def value(cc, pm, test, size, run):
            if cc == "cubic":
                return separated(cc, pm, test, size, run)
            return flat(cc, pm, test, size, run) + run  # equal samples on both sides

        _, d = self.page(write_output(self.root, runs=10, value=value))
        bulk = d.location[("cubic", "bulk", None)]
        self.assertAlmostEqual(bulk.diff, 20.0)
        self.assertLess(bulk.p_holm, 0.05)
        self.assertEqual(report.verdict(bulk, 1), "agrees")
        small = d.location[("cubic", "small", 768 * KIB)]
        self.assertAlmostEqual(small.diff, -100.0)
        self.assertEqual(report.verdict(small, -1), "agrees")
        self.assertEqual(report.verdict(small, 1), "disagrees")  # the other claim
        # the paper's "not much difference": a difference disagrees and says which way
        self.assertEqual(report.verdict(small, -1, same=True), "disagrees (PCDC lower)")
        self.assertEqual(report.verdict(bulk, 1, same=True), "disagrees (PCDC higher)")
        for key in [("olia", "bulk", None)] + [("olia", "small", s * KIB) for s in SIZES]:
            c = d.location[key]
            self.assertEqual((c.diff, c.p_perm, c.sig), (0.0, 1.0, False))
            self.assertEqual(report.verdict(c, 1), "not significant")
            self.assertEqual(report.verdict(c, -1, True), "consistent (not significant)")
        self.assertEqual(sum(c.tested for c in d.location.values()), 12)  # one family

    def test_holm_runs_over_every_cell_of_the_page(self):
        # 5 runs a side, fully separated in all 12 cells: raw p = 2/252 = 0.0079 each, which
        # alone is a finding; over the page's 12 tests Holm makes each 12 * 2/252 = 0.095
        _, d = self.page(write_output(self.root, runs=5, value=separated))
        self.assertEqual(len(d.location), 12)
        for c in d.location.values():
            self.assertAlmostEqual(c.p_perm, 2 / 252)
            self.assertAlmostEqual(c.p_holm, 12 * 2 / 252)
            self.assertEqual(report.verdict(c, 1), "not significant")

    def test_steadier_completion_times_are_found_and_equal_spreads_are_not(self):
        wild = [150, 420, 210, 500, 190, 330, 260, 480, 170, 390, 600, 140]

        def value(cc, pm, test, size, run):
            if test == "bulk":
                return 100.0
            if cc == "cubic" and pm == "fullmesh":
                return float(wild[run - 1])
            return 200.0 + run % 3  # steady

        _, d = self.page(write_output(self.root, runs=12, value=value))
        for s in SIZES:
            cubic, olia = d.spread[("cubic", s * KIB)], d.spread[("olia", s * KIB)]
            self.assertEqual(report.verdict(cubic, None), "agrees")
            self.assertEqual(report.verdict(cubic, None, True), "disagrees (PCDC steadier)")
            self.assertLess(cubic.dev_ref, cubic.dev_other)
            self.assertAlmostEqual(olia.p, 1.0)
            self.assertEqual(report.verdict(olia, None), "not significant")
        self.assertEqual(sum(t.tested for t in d.spread.values()), 10)

    def test_verdicts_over_the_sizes(self):
        self.assertEqual(
            report.verdict_over_sizes([(128 * KIB, "agrees"), (256 * KIB, "not significant"),
                                       (512 * KIB, "agrees"), (768 * KIB, "disagrees")]),
            "agrees at 128, 512 KiB; disagrees at 768 KiB; not significant at 256 KiB",
        )  # fmt: skip
        self.assertEqual(
            report.verdict_over_sizes([(128 * KIB, "agrees"), (256 * KIB, "agrees")]),
            "agrees at every size",
        )
        self.assertEqual(
            report.verdict_over_sizes([(128 * KIB, "consistent (not significant)"),
                                       (256 * KIB, "disagrees (PCDC lower)"),
                                       (512 * KIB, "not tested (2 runs)")]),
            "disagrees (PCDC lower) at 256 KiB; consistent (not significant) at 128 KiB; "
            "not tested (2 runs) at 512 KiB",
        )  # fmt: skip

    def test_one_run_is_not_tested(self):
        _, d = self.page(write_output(self.root, runs=1, value=separated))
        c = d.location[("cubic", "bulk", None)]
        self.assertEqual(report.verdict(c, 1), "not tested (n too small)")


class PlaceholderTest(Case):
    def test_placeholders_give_the_values_of_the_data(self):
        self.do_import(write_output(self.root, runs=10, value=separated))
        text = self.render(
            "{{value cubic/pcdc bulk mean}} {{value cubic/fullmesh bulk min}}"
            " {{value cubic/pcdc bulk n}} "
            "{{value olia/768/fullmesh small max}} {{value olia/768/pcdc small q90}} "
            "{{cmp cubic bulk diff}} {{cmp cubic bulk pct}} {{cmp cubic bulk verdict}} "
            "{{cmp olia/128 small verdict}} {{verdict small/olia}}\n"
            "{{optional cubic}} / {{standby cubic}} / {{paperset olia}} / {{verdict P/cubic}}\n"
            "{{runs_text}} {{sizes}} {{bulk_seconds}} {{capacity}} {{measure olia samples}} "
            "{{measure cubic T}} {{location_tests}} {{spread_tests}}\n"
        )
        lines = text.splitlines()
        # bulk PCDC 101..110 (mean 105.5), FullMesh 81..90; small FullMesh 251..260,
        # PCDC 151..160: q90 = 159.1 by linear interpolation
        self.assertEqual(
            lines[0],
            "105.5 81.0 10 260.0 159.1 +20.0 +23.4 % agrees agrees agrees at every size",
        )
        # P by RTT; standby by address; the paper's OLIA P; the paper's Cubic P has one pair
        self.assertEqual(
            lines[1],
            "Uninett-Uninett, Uninett-Telenor / BKK-Uninett, BKK-Telenor / "
            "Uninett-Uninett, Uninett-Telenor / differs",
        )
        self.assertEqual(lines[2], "10 runs 128, 256, 512, 768, 1024 120 110 3 10 12 10")

    def test_every_claim_kind_has_its_direction(self):
        # PCDC clearly higher in bulk, faster in small transfers, for both controls
        self.do_import(write_output(self.root, runs=10, value=separated))
        text = self.render(
            "{{verdict bulk/cubic}} | {{verdict bulk-lower/cubic}} | {{verdict bulk-same/cubic}}\n"
            "{{verdict small/olia}} | {{verdict small-slower/olia}} | {{verdict small-same/olia}}\n"
        )
        self.assertEqual(
            text.splitlines(),
            ["agrees | disagrees | disagrees (PCDC higher)",
             "agrees at every size | disagrees at every size | "
             "disagrees (PCDC lower) at every size"],
        )  # fmt: skip
        with self.assertRaisesRegex(ReportError, r"unknown claim 'faster' \(bulk, bulk-lower"):
            self.render("{{verdict faster/cubic}}\n")

    def test_omega_holds_the_impact_factors_to_stated_bounds(self):
        # the fixture's means: Uninett-Uninett 0.6, BKK-Uninett -0.1, Uninett-Telenor 0.05,
        # BKK-Telenor -0.2, for both controls
        self.do_import(write_output(self.root, runs=3))
        self.assertEqual(self.render("{{within */* omega -0.25..0.65}}\n"), "\n")
        self.assertEqual(
            self.render("{{within cubic/BKK-*,cubic/*-Telenor omega -inf..0.06}}\n"), "\n"
        )
        self.assert_placeholders_refused(
            [
                (
                    "{{within */* omega -inf..0.1}}",
                    "the data give cubic Uninett-Uninett 0.60, olia Uninett-",
                ),
                (
                    "{{within olia/BKK-* omega -0.15..0}}",
                    "in [-0.15, 0], the data give olia BKK-Telenor -0.20",
                ),
                ("{{within reno/* omega 0..1}}", "no congestion control 'reno'"),
                ("{{within cubic/HiN-* omega 0..1}}", "no pair of cubic matches 'HiN-*'"),
                ("{{within cubic/* omega 1..0}}", "lo <= hi"),
                ("{{within cubic/* omega}}", "within takes 3 to 4"),
            ]
        )

    def test_an_unknown_placeholder_is_an_error(self):
        self.do_import(write_output(self.root, runs=3))
        self.assert_placeholders_refused(
            [
                ("{{value reno/pcdc bulk mean}}", "no congestion control 'reno'"),
                ("{{value cubic/100/pcdc small mean}}", "no size 100 KiB"),
                ("{{value cubic/pcdc bulk nope}}", "unknown field 'nope'"),
                ("{{nope}}", "unknown kind 'nope'"),
                ("{{table nope}}", "unknown table 'nope'"),
                ("{{value cubic/pcdc bulk mean during=0..50}}", "have no time series"),
                ("{{cmp cubic/768/pcdc small p}}", "a subject of small is <cc>/<KiB>"),
            ]
        )


class PageTest(Case):
    def test_a_congestion_control_without_runs_yet_is_na_on_the_page(self):
        text, _ = self.page(write_output(self.root, runs=3, ccs=("cubic",)))
        self.assertIn("code version 0123456789; **no runs of olia**", text)
        self.assertIn("| n/a (no olia runs) vs n/a (no olia runs) Mbit/s", text)
        self.assertIn("| cubic | PCDC | 3 |", text)

    def test_the_page_regenerates_byte_for_byte_and_fills_every_placeholder(self):
        src = write_output(self.root, runs=4, value=separated)
        self.do_import(src)
        where = self.where(TEMPLATE, "p.md", self.root)
        first, second = report.build(where), report.build(where)
        self.assertEqual(sorted(first), sorted(second))
        for path in first:
            self.assertEqual(first[path], second[path], path)
        text = first[os.path.join(self.root, "p.md")].decode()
        self.assertNotIn("{{", text)
        head = "<!-- Generated by pcdc/pcdc_report.py from pcdc-uib-unis.md.in"
        self.assertTrue(text.startswith(head))
        self.assertIn("4 runs per cell (cubic, olia), 96 transfers, code version 0123456789", text)
        self.assertTrue(first[os.path.join(self.root, "bulk.png")].startswith(b"\x89PNG"))
        # other data, another page
        edit_csv(os.path.join(self.data, "cubic.csv"), "mbps", "55.000")
        self.assertNotEqual(report.build(where)[where.page], first[where.page])


def hu_value(cc, pm, test, size, run):
    """The paper's Section VI-C: with Cubic PCDC lower in bulk and slower in small transfers,
    with OLIA higher in bulk and alike in small ones."""
    if test == "bulk":
        low, high = (35.0, 75.0) if cc == "cubic" else (55.0, 65.0)
        return (high if (pm == "pcdc") == (cc == "olia") else low) + run
    if cc == "cubic":
        return (3400.0 if pm == "pcdc" else 3000.0) + run
    return 2200.0 + run


class VolatileScenarioTest(Case):
    """The UiB-HU page (Section VI-C): the volatile records through the import, their checks,
    and the page from its template."""

    SCENARIO = "uib-hu"

    def test_an_export_has_the_records_and_imports_to_the_same_data(self):
        assert_export_round_trip(self, self.output(runs=2, value=hu_value))

    def test_the_page_has_the_claims_the_records_and_every_placeholder(self):
        src = self.output(runs=10, value=hu_value)
        text, d = self.page(src)
        self.assertEqual(
            sorted(os.listdir(self.data)),
            ["cubic-table.json", "cubic-volatile.json", "cubic.csv", "olia-table.json",
             "olia-volatile.json", "olia.csv", "scenario.json"],
        )  # fmt: skip
        self.assertNotIn("{{", text)
        head = "<!-- Generated by pcdc/pcdc_report.py from pcdc-uib-hu.md.in"
        self.assertTrue(text.startswith(head))
        claims = {line.split(" | ")[0]: line[:-2].rsplit(" | ", 1)[1] for line in text.splitlines()
                  if line.startswith("| with ") or line.startswith("| the optional")}  # fmt: skip
        self.assertEqual(
            list(claims.values()),
            ["**agrees**", "**agrees**", "**same as Table IV**", "**same as Table IV**",
             "**agrees at every size**", "**consistent (not significant) at every size**"],
        )  # fmt: skip
        self.assertIn("| 36.9 vs 77.2 Mbit/s | 40.5 vs 80.5 Mbit/s (-49.7 %", text)
        self.assertIn("| Uninett-CERNET | Uninett-CERNET | **same as Table IV** |", text)
        self.assertIn("| Uninett-CERNET, BKK-CERNET | Uninett-CERNET, BKK-CERNET |", text)
        # the model's parameters, and the measurement's bad time (180 of 900 s, two drops)
        self.assertIn(
            "Uninett-CERNET: bad at 1.0 Mbit/s (10 % of the 10 Mbit/s of its slower link) for "
            "exponential durations of mean 5 s, good for durations of mean 20 s (its tbf then at "
            "the server link's 1000 Mbit/s, limiting nothing); seed 1", text)  # fmt: skip
        self.assertIn("Cubic 180 of 900 s bad (20 %), 2 drops; OLIA\n  180 of 900 s", text)
        # per run: run seconds bad within the bulk window, and the run's throughput
        self.assertIn("| run | cubic PCDC: bad (s), Mbit/s | cubic FullMesh: bad (s), Mbit/s |",
                      text)  # fmt: skip
        self.assertIn("| 3 | 3.0, 38.0 | 3.0, 78.0 | 3.0, 68.0 | 3.0, 58.0 |", text)
        self.assertIn("| mean | 5.5, 40.5 | 5.5, 80.5 | 5.5, 70.5 | 5.5, 60.5 |", text)
        self.assertEqual(d.network.seed, 1)

    def test_records_that_do_not_explain_the_runs_are_refused(self):
        src = self.output(runs=2)
        cell = experiment.volatile_path(experiment.cell_path(src, "olia", "fullmesh", "bulk", 2))
        with open(cell) as f:
            good = json.load(f)

        def edit(doc):
            with open(cell, "w") as f:
                json.dump(doc, f)

        os.unlink(cell)
        self.assert_refused(src, "olia/fullmesh/bulk/run2.volatile.json missing or not JSON")
        edit(dict(good, key="1/1/bulk"))  # another run's schedule
        self.assert_refused(src, "fullmesh/bulk/2: schedule key '1/1/bulk', want '1/2/bulk'")
        edit(dict(good, error="pair 0: setting 1000000bit: tc: no such device"))
        self.assert_refused(src, "the schedule was not applied: pair 0: setting")
        edit(dict(good, windows=[]))
        self.assert_refused(src, "fullmesh/bulk/2: no window of the bulk transfer")
        edit(good)
        # made at rate scale 1, so not the network of another scale
        with self.assertRaisesRegex(ReportError, r"pair 0 is not the scenario's \(good_rate"):
            self.do_import(src, rate_scale=0.5)
        # records where the scenario has none: the same addresses, no volatile pair
        self.scenario = scenario_file("uib-unis")
        self.assert_refused(src, "a volatile record, but the scenario has no volatile pair")

    def test_the_committed_records_are_checked_too(self):
        self.do_import(self.output(runs=2))
        path = os.path.join(self.data, "cubic-volatile.json")
        with open(path) as f:
            doc = json.load(f)
        del doc["cells"]["pcdc/small/2"]
        with open(path, "w") as f:
            json.dump(doc, f)
        with self.assertRaisesRegex(ReportError, r"none of \['pcdc/small/2'\]"):
            report.load(self.data)
        os.unlink(path)
        with self.assertRaisesRegex(ReportError, "cubic-volatile.json missing"):
            report.load(self.data)

    def test_a_record_the_driver_makes_is_one_the_report_reads(self):
        net = experiment.load_network(self.scenario)
        quick = [netns.VolatilePair(p.server, p.client, p.good_rate, p.bad_rate, 0.02, 0.01)
                 for p in net.volatile]  # fmt: skip
        key = netns.test_key(net.seed, 4, "bulk")
        with netns.Volatility(quick, lambda i, rate: None, key) as vol:
            with vol.window("bulk"):
                time.sleep(0.1)
        rec = json.loads(json.dumps(vol.record))
        report.check_record(rec, "here", key, quick)
        self.assertIsNotNone(report.bulk_window(rec))
        with self.assertRaisesRegex(ReportError, "here: pair 0 is not the scenario's"):
            report.check_record(rec, "here", key, net.volatile)  # other means


if __name__ == "__main__":
    unittest.main()
