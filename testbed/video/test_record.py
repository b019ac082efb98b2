"""Unit tests of the video experiments' records and plan (no guest, no network)."""

import dataclasses
import gzip
import unittest

from mpqoe import video_matrix as mx
from mpqoe import video_record as record

# A square a-b-c-d-a with a diagonal a-c; delays 10, 20, 30, 40, 5 ms.
DESC = {
    "links": [
        {"a": "a", "b": "b", "capacityMbps": 5.0, "delayMs": 10.0},
        {"a": "b", "b": "c", "capacityMbps": 2.0, "delayMs": 20.0},
        {"a": "c", "b": "d", "capacityMbps": 8.0, "delayMs": 30.0},
        {"a": "d", "b": "a", "capacityMbps": 1.5, "delayMs": 40.0},
        {"a": "a", "b": "c", "capacityMbps": 9.0, "delayMs": 5.0},
    ]
}


class AttemptRow(unittest.TestCase):
    def test_fallbacks_by_side_and_syns_sent_on(self):
        doc = {
            "experiment": "ga-sched", "cell": "compuserve.c5.default.b125.ga", "run": 3,
            "code_version": "abc", "started": "t0", "ended": "t1", "status": "failed",
            "error": "checks failed:\n every server connection was MPTCP",
            "network": {"clients": [{"name": "c1"}, {"name": "c2"}]},
            "checks": {"every client finished": True, "every server connection was MPTCP": False},
            "mptcp_counters": {
                "c2": {"MPCapableDataFallback": 1, "OFOQueue": 40, "MPCapableSYNTXDrop": 0},
                "c1": {"MPCapableSYNTXDrop": 2},
                "server": {"DssFallback": 3, "MPCapableSYNRX": 10},
            },
            "guest_kernel": {"tainted": 4608, "new_taints": "W", "new_lines": ["WARN", "BUG"]},
            "forwarder_connections": {"c1": [[1.0, "a", True, None, 1], [2.0, "b", True, None, 0]],
                                      "c2": [[1.5, "c", True, None, 1]]},
        }  # fmt: skip
        log = (
            "10:00:01 packet-in A port 4: MPTCP retransmitted MP_CAPABLE SYN of connection 5 "
            "[decided 0.5, packet-out 0.7 ms]\n"
            "10:00:02 packet-in A port 4: MPTCP retransmitted MP_CAPABLE SYN of connection 6: "
            "not sent on again\n"
            "10:00:03 packet-in B port 3: MPTCP retransmitted MP_JOIN SYN of connection 5 [x]\n"
            "10:00:04 packet-in A port 4: MPTCP retransmitted MP_CAPABLE SYN of connection 12 [y]\n"
        )
        row = record.attempt_row(doc, "run3-1795755034", log)
        self.assertEqual(list(row), record.ATTEMPT_COLUMNS)
        self.assertEqual((row["client_fallbacks"], row["server_fallbacks"]), (3, 3))
        self.assertEqual(
            row["fallback_counters"],
            "c1 MPCapableSYNTXDrop=2; c2 MPCapableDataFallback=1; server DssFallback=3",
        )
        self.assertEqual(row["resent_syns"], 2)  # held back and MP_JOIN lines do not count
        self.assertEqual(row["failed_checks"], "every server connection was MPTCP")
        self.assertEqual(row["error"], "checks failed: every server connection was MPTCP")
        self.assertEqual(row["attempt"], "run3-1795755034")
        self.assertEqual((row["kernel_taints"], row["kernel_warnings"]), ("W", 2))
        self.assertEqual(row["reconnects"], 2)
        self.assertEqual((row["started"], row["ended"]), (doc["started"], doc["ended"]))

    def test_an_attempt_that_recorded_little(self):
        doc = {"status": "failed", "error": "[Errno 32] Broken pipe"}
        row = record.attempt_row(doc, "run1", "")
        self.assertEqual((row["client_fallbacks"], row["server_fallbacks"], row["resent_syns"]),
                         (0, 0, 0))  # fmt: skip
        self.assertEqual((row["failed_checks"], row["fallback_counters"]), ("", ""))
        # no record of the guest's kernel: unknown, not zero
        self.assertEqual((row["kernel_taints"], row["kernel_warnings"]), ("", ""))
        self.assertEqual((row["started"], row["ended"]), ("", ""))
        self.assertEqual(row["reconnects"], "")
        old = {"forwarder_connections": {"c1": [[1.0, "a", True, None]]}}  # before the count
        self.assertEqual(record.attempt_row(old, "run1", "")["reconnects"], "")


class PathMetrics(unittest.TestCase):
    def test_delay_bottleneck_and_shared_links(self):
        m = record.path_metrics(DESC, [["a", "b", "c"], ["a", "c"], ["d", "a", "b", "c"]])
        self.assertEqual(m["delays_ms"], [30.0, 5.0, 70.0])
        self.assertEqual(m["bw_mbps"], [2.0, 9.0, 1.5])
        # a-b and b-c are on the first and the third path
        self.assertEqual(m["shared_links"], 2)

    def test_direction_does_not_matter_and_none_is_skipped(self):
        m = record.path_metrics(DESC, [["c", "b", "a"], None])
        self.assertEqual(m["delays_ms"], [30.0])
        self.assertEqual(m["shared_links"], 0)

    def test_unknown_link_is_an_error(self):
        with self.assertRaisesRegex(ValueError, "b-d"):
            record.path_metrics(DESC, [["b", "d"]])


def run_doc(status="ok"):
    return {
        "experiment": "ga-topo",
        "cell": "compuserve.c2.ga",
        "run": 3,
        "code_version": "abc123",
        "params": {"topology": "compuserve", "clients": 2, "algorithm": "ga", "video_s": 120,
                   "segment_s": 4, "seed": 1, "scheduler": "default", "rcvbuf_kb": 0},
        "load": {"host_busy": 0.5, "guest_busy": 0.25},
        "clients": [
            {"name": "c1", "status": "ok",
             "qoe": {"avg_bitrate_kbps": 2400.0, "startup_delay_s": 1.5, "switches_ga": 3.0,
                     "redownload_share": 0.25},
             "paths": {"delays_ms": [30.0, 5.5], "bw_mbps": [2.0, None], "shared_links": 1}},
            {"name": "c2", "status": status, "qoe": {"avg_bitrate_kbps": 1500.0}, "paths": None},
        ],
    }  # fmt: skip


class PathsAndDraws(unittest.TestCase):
    """A design with link draws commits its runs' paths and its draws' links."""

    def test_each_client_s_paths_in_the_assignment_s_order(self):
        doc = run_doc()
        doc["clients"][0]["assignment"] = {"paths": [["A", "B", "C"], None, ["A", "C"]]}
        rows = record.path_rows(doc)
        self.assertEqual([list(r) for r in rows], [list(record.PATH_COLUMNS)] * 2)
        self.assertEqual(rows[0]["paths"], "A>B>C;A>C")  # a subflow without a path: none
        self.assertEqual(rows[1]["paths"], "")  # a client without an assignment
        self.assertEqual((rows[0]["cell"], rows[0]["run"], rows[0]["client"]),
                         ("compuserve.c2.ga", 3, "c1"))  # fmt: skip
        self.assertEqual(record.parse_paths(rows[0]["paths"]), [["A", "B", "C"], ["A", "C"]])
        self.assertEqual(record.parse_paths(""), [])
        doc["clients"][0]["assignment"] = {"paths": [["A", "B;C"]]}
        with self.assertRaisesRegex(ValueError, "switch name 'B;C'"):
            record.path_rows(doc)

    def test_the_draw_s_links_from_its_descriptor(self):
        desc = {"links": [{"a": "A", "b": "B", "capacityMbps": 6.2784, "delayMs": 54.0},
                          {"a": "B", "b": "C", "capacityMbps": 4.2784}],
                "hosts": [{"name": "server", "role": "server",
                           "interfaces": [{"switch": "C"}, {"switch": "B"}]},
                          {"name": "c1", "role": "client",
                           "interfaces": [{"switch": "B"}, {"switch": "A"}]},
                          {"name": "c2", "role": "client",
                           "interfaces": [{"switch": "A"}]}]}  # fmt: skip
        rows = record.draw_rows(run_doc(), desc)
        self.assertEqual([list(r) for r in rows], [list(record.DRAW_COLUMNS)] * 2)
        # the server's first interface is where its address is
        self.assertEqual(
            [tuple(r.values()) for r in rows],
            [
                ("compuserve", 2, 1, "A", "B", 6.2784, 54.0, "C", "A;B"),
                ("compuserve", 2, 1, "B", "C", 4.2784, "", "C", "A;B"),
            ],
        )
        doc = run_doc()
        doc["params"]["seed"] = None
        with self.assertRaisesRegex(ValueError, "run3: no seed"):
            record.draw_rows(doc, desc)
        with self.assertRaisesRegex(ValueError, "not one server"):
            record.draw_rows(run_doc(), dict(desc, hosts=desc["hosts"][1:]))


class CsvRows(unittest.TestCase):
    def test_columns_and_values(self):
        rows = record.csv_rows(run_doc())
        self.assertEqual([list(r) for r in rows], [record.COLUMNS, record.COLUMNS])
        r = rows[0]
        self.assertEqual(
            (r["cell"], r["run"], r["client"], r["status"]), ("compuserve.c2.ga", 3, "c1", "ok")
        )
        self.assertEqual(r["avg_bitrate_kbps"], 2400.0)
        self.assertEqual(r["startup_s"], 1.5)  # renamed from the harness's startup_delay_s
        self.assertEqual(r["redownload_share"], 0.25)
        self.assertEqual(
            (r["n_paths"], r["path_delays_ms"], r["path_bw_mbps"]), (2, "30;5.5", "2;")
        )
        self.assertEqual(
            (r["host_load"], r["guest_load"], r["code_version"]), (0.5, 0.25, "abc123")
        )
        self.assertEqual(r["delay_diff_ms"], "")
        # a run made before the bridge was recorded: empty, not zero
        self.assertEqual((r["bridge_rtt_ms"], r["bridge_lag_ms"], r["bridge_ratio"]), ("", "", ""))

    def test_background_flow(self):
        self.assertEqual(record.csv_rows(run_doc())[0]["background"], "")
        doc = dict(run_doc(), background={"from": "srv1", "to": "h5", "start_s": 50.0})
        self.assertEqual(record.csv_rows(doc)[1]["background"], "srv1>h5@50")

    def test_bridge_medians(self):
        doc = run_doc()
        doc["load"]["samples"] = [
            {"guest": {"bridge_rtt_ms": 9.0}},
            {"guest": {"ok": False}},  # a sample without a round trip is skipped
            {"guest": {"bridge_rtt_ms": 5.0}},
            {"guest": {"bridge_rtt_ms": 6.5}},
        ]
        doc["bridge"] = {
            "clock_offset_s": 0.1,
            "clients": {"c1": {"end_lag_ms": [3.0, -1.0, 40.0, 2.0],
                               "duration_ratio": [0.9, 1.1, 1.0], "unmatched": 0}},
        }  # fmt: skip
        c1, c2 = record.csv_rows(doc)
        self.assertEqual(
            (c1["bridge_rtt_ms"], c1["bridge_lag_ms"], c1["bridge_ratio"]), (6.5, 2.5, 1.0)
        )
        self.assertEqual((c2["bridge_rtt_ms"], c2["bridge_lag_ms"]), (6.5, ""))  # c2 has no pairs

    def test_a_client_that_did_not_finish_has_no_metrics(self):
        r = record.csv_rows(run_doc(status="timeout"))[1]
        self.assertEqual((r["status"], r["avg_bitrate_kbps"], r["n_paths"]), ("timeout", "", 0))


# Two clients' samples as a player logs them: c1 starts before it knows its representation,
# stalls once with its buffer in (0, 1) and switches 0 -> 3 -> 2; c2 never knew one.
C1_EVENTS = [
    {"t": 1.0, "type": "sample", "buffer": None, "quality": None, "bitrateKbps": None},
    {"t": 1.5, "type": "request", "bytes": 10},
    {"t": 2.0, "type": "sample", "buffer": 2.5, "quality": 0, "bitrateKbps": 1500},
    {"t": 3.0, "type": "sample", "buffer": 0.25, "quality": 3, "bitrateKbps": 2600},
    {"t": 4.0, "type": "sample", "buffer": 0.125, "quality": 3, "bitrateKbps": 2600},
    {"t": 5.0, "type": "sample", "buffer": 4, "quality": 2, "bitrateKbps": 2500},
]
C2_EVENTS = [{"t": 1.0, "type": "sample", "buffer": 3.0, "level": 1}]  # no quality, no bitrate


class FrameworkColumns(unittest.TestCase):
    def samples(self):
        return {"c1": record.player_samples(C1_EVENTS), "c2": record.player_samples(C2_EVENTS)}

    def test_player_samples(self):
        s = self.samples()
        self.assertEqual(s["c1"][0], (1.0, None, None, None))
        self.assertEqual(s["c1"][1], (2.0, 2.5, 0, 1500))
        self.assertEqual(len(s["c1"]), 5)  # the request is not a sample
        self.assertEqual(s["c2"], [(1.0, 3.0, None, None)])

    def test_rows_carry_the_framework_numbers_of_clients_that_finished(self):
        c1, c2 = record.csv_rows(run_doc(), self.samples())
        self.assertEqual(
            [c1[k] for k in record.FRAMEWORK], [round((1500 + 2600 * 2 + 2500) / 4, 1), 4, 1, 2]
        )
        self.assertEqual([c2[k] for k in record.FRAMEWORK], ["", "", "", ""])  # nothing known
        samples = self.samples()
        samples["c2"] = samples["c1"]
        _c1, c2 = record.csv_rows(run_doc(status="timeout"), samples)
        self.assertEqual([c2[k] for k in record.FRAMEWORK], ["", "", "", ""])  # not finished
        # a run recorded without samples (or before the players logged them): empty, not zero
        self.assertEqual([record.csv_rows(run_doc())[0][k] for k in record.FRAMEWORK], [""] * 4)

    def test_malformed_samples_are_an_error(self):
        bad = [dict(C1_EVENTS[2], quality="high")]
        with self.assertRaisesRegex(ValueError, "quality 'high' is not a finite number"):
            record.csv_rows(run_doc(), {"c1": record.player_samples(bad)})

    def test_the_sample_log_gives_back_the_same_samples_and_numbers(self):
        s = self.samples()
        data = record.samples_bytes(s)
        self.assertEqual(data, record.samples_bytes(s))  # the same bytes every time
        back = record.read_samples(data)
        self.assertEqual(back, s)
        self.assertEqual(record.framework_columns(back["c1"]),
                         record.framework_columns(s["c1"]))  # fmt: skip
        self.assertIsInstance(back["c1"][1][2], int)

    def test_a_sample_log_that_is_not_one(self):
        with self.assertRaisesRegex(ValueError, "x.csv.gz: not a gzip CSV"):
            record.read_samples(b"client,t", "x.csv.gz")
        cases = [
            (b"client,t\n", "header must be client,t,buffer_s,quality,bitrate_kbps"),
            (b"client,t,buffer_s,quality,bitrate_kbps\nc1,1.0,2\n", "x:2: want 5 fields"),
            (b"client,t,buffer_s,quality,bitrate_kbps\nc1,1.0,2,one,1500\n", "x:2: a field is"),
        ]
        for text, words in cases:
            with self.assertRaisesRegex(ValueError, words):
                record.read_samples(gzip.compress(text), "x")

    def test_path(self):
        got = record.samples_path("/r", "ga-topo", "compuserve.c5.ga", 3, "abc-dirty-12")
        want = "/r/ga-paper/data/samples/ga-topo/compuserve.c5.ga/run3-abc-dirty-12.csv.gz"
        self.assertEqual(got, want)
        for cell, version in (("../x", "abc"), ("c", "a/b"), ("c", "")):
            with self.assertRaises(ValueError):
                record.samples_path("/r", "ga-topo", cell, 1, version)


class ServerLog(unittest.TestCase):
    def test_each_request_matches_one_entry(self):
        entries = [
            {"method": "GET", "status": 200, "path": "/m/1.m4s", "bytes": 100},
            {"method": "GET", "status": 200, "path": "/m/1.m4s", "bytes": 100},
            {"method": "GET", "status": 404, "path": "/m/2.m4s", "bytes": 7},
            {"method": "HEAD", "status": 200, "path": "/m/3.m4s", "bytes": 0},
        ]
        reqs = [{"path": "/m/1.m4s", "bytes": 100}] * 3 + [{"path": "/m/2.m4s", "bytes": 7}]
        matched, missing = record.server_log_check(reqs, entries)
        self.assertEqual(matched, 2)
        self.assertEqual(
            missing, [{"path": "/m/1.m4s", "bytes": 100}, {"path": "/m/2.m4s", "bytes": 7}]
        )


class FailureDetails(unittest.TestCase):
    def doc(self, **checks):
        return {
            "checks": {"every client finished": True, **checks},
            "server_requests": {
                "missing": [{"path": "/v/seg1.m4s", "bytes": 10}],
                "not_mptcp": [{"client": "10.0.1.11:4000"}, {"client": "10.0.1.11:4002"}],
            },
            "forwarder_connections": {"c1": [[1.0, "10.0.1.11:4000", False, None],
                                             [2.0, "10.0.1.11:4001", True, None]]},
            "mptcp_counters": {"c1": {"MPCapableSYNTXDrop": 2, "MPRstTx": 4},
                               "server": {"MPCapableSYNRX": 3}},
            "sockets_before": {"open": {"c1": ["a", "b"]}},
            "path_check": {"exact": 3, "wrong": [["c1", 7]]},
            "clients": [{"name": "c1", "status": "ok"}],
        }  # fmt: skip

    def test_a_run_that_passed_has_none(self):
        self.assertEqual(record.failure_details(self.doc()), [])

    def test_plain_tcp_names_peers_forwarder_sockets_and_fallback_counters(self):
        out = record.failure_details(self.doc(**{"every server connection was MPTCP": False}))
        self.assertEqual(out[0], "plain-TCP requests at the server: 2 from 10.0.1.11:4000, "
                         "10.0.1.11:4002")  # fmt: skip
        self.assertEqual(out[1], "forwarder connections not MPTCP: c1 10.0.1.11:4000")
        self.assertEqual(out[2], "fallback counters: c1 MPCapableSYNTXDrop=2")

    def test_no_counter_moved_is_said(self):
        d = self.doc(**{"every server connection was MPTCP": False})
        d["mptcp_counters"] = {"c1": {"MPRstTx": 1}}
        d["forwarder_connections"] = {}
        self.assertEqual(record.failure_details(d)[-1], "fallback counters: none moved")

    def test_other_checks(self):
        out = record.failure_details(self.doc(**{
            "no connection was left from an earlier run": False,
            "server log has every completed request": False,
            "subflow packets went through exactly their assigned switches": False,
            "every client finished": False,
        }))  # fmt: skip
        self.assertIn("still open before the run: c1: 2", out)
        self.assertIn("requests the server did not log: /v/seg1.m4s (10 B)", out)
        self.assertIn("subflows: 3 on their path, wrong: [['c1', 7]]", out)


class Busy(unittest.TestCase):
    def test_cpu_busy_share(self):
        # user nice system idle iowait ...: 30 busy + 70 idle/iowait ticks between samples
        a = [100, 0, 50, 800, 50, 0, 0]
        b = [120, 0, 60, 860, 60, 0, 0]
        self.assertAlmostEqual(record.cpu_busy(a, b), 0.3)
        samples = [{"host": {"cpu": a}}, {"host": None}, {"host": {"cpu": b}}]
        self.assertAlmostEqual(record.mean_busy(samples, "host"), 0.3)
        self.assertIsNone(record.mean_busy(samples[:1], "host"))


class Series(unittest.TestCase):
    def test_link_utilisation_of_the_links_that_were_used(self):
        doc = {"cell": "x.qomra", "run": 2, "links": {
            "names": ["a-b", "b-c", "c-d", "d-a", "a-c"],
            "series": [{"t": 2.0, "load": [1.0, 0.0, 0.0, 0.0, 0.0]},
                       {"t": 4.0, "load": [2.5, 0.0, 0.2, 0.0, 0.0]}]}}  # fmt: skip
        rows = record.link_rows(doc, DESC)
        got = [(r["link"], r["second"], r["utilisation"]) for r in rows]
        # c-d peaks at 0.2 / 8 = 0.025, under the default 0.05: left out
        self.assertEqual(got, [("a-b", 2.0, 0.2), ("a-b", 4.0, 0.5)])
        self.assertEqual(len(record.link_rows(doc, DESC, min_peak=0.02)), 4)

    def test_throughput_rows(self):
        doc = {"cell": "x.tcp", "run": 1}
        rows = record.throughput_rows(doc, {"h1": [[0, 10.0], [1, 0]], "h2": []})
        self.assertEqual([(r["client"], r["second"], r["kbps"]) for r in rows],
                         [("h1", 0, 10.0), ("h1", 1, 0)])  # fmt: skip


class Bridge(unittest.TestCase):
    def test_pairs_by_size_and_time_in_the_host_clock(self):
        # guest clock 10 s ahead of the host's
        responses = [(110.0, 111.0, 500), (112.0, 114.0, 700), (120.0, 120.5, 500)]
        requests = [(100.01, 101.02, 500), (102.0, 104.2, 700), (110.0, 110.51, 500), (1, 2, 9)]
        got = record.bridge_timing(requests, responses, 10.0)
        self.assertEqual(got["end_lag_ms"], [20.0, 200.0, 10.0])
        self.assertEqual(got["duration_ratio"], [1.01, 1.1, 1.02])
        self.assertEqual(got["unmatched"], 1)


class Plan(unittest.TestCase):
    def test_cell_names_are_unique_and_selectable(self):
        # a cell may span batches (a design's link draws), but each of its runs is made by one
        for exp, make in mx.EXPERIMENTS.items():
            every = range(1, (mx.design_runs(exp) or 1) + 1)
            runs = [(c.name, k) for b, cells in make() for c in cells for k in b.runs(every)]
            self.assertEqual(len(runs), len(set(runs)), exp)
            names = {c.name for _b, cells in make() for c in cells}
            self.assertEqual(set(runs), {(n, k) for n in names for k in every}, exp)
        plan = mx.select(mx.ga_topo(), "compuserve.c5.*,*.c10.ga")
        names = sorted(c.name for _b, cells in plan for c in cells)
        self.assertEqual(len(names), 6 + 3)  # six algorithms, and ga at 10 on three topologies
        self.assertIn("jellyfish20.c10.ga", names)
        self.assertEqual(mx.select(mx.ga_topo(), "nope.*"), [])

    def test_the_paper_design_runs_every_algorithm_on_every_draw(self):
        plan = mx.ga_topo_paper()
        for t in ("compuserve", "custom12", "jellyfish20"):
            batches = [(b, cells) for b, cells in plan if b.topology == t]
            self.assertEqual(sorted(b.seed for b, _c in batches), list(mx.DRAWS))
            for b, cells in batches:
                self.assertEqual(sorted(c.algorithm for c in cells), sorted(mx.GA_ALGORITHMS))
                self.assertEqual(len(b.run_numbers), mx.RUNS_PER_DRAW)
                self.assertEqual((b.player, b.attach, b.segment_s), ("paper", "framework", 2.0))
                self.assertTrue(all((c.scheduler, c.rcvbuf_kb) == ("minrtt", 256) for c in cells))
            self.assertEqual(
                sorted(k for b, _c in batches for k in b.run_numbers),
                list(range(1, mx.design_runs("ga-topo-paper") + 1)),
            )
        video = {b.topology: b.video_s for b, _c in plan}
        self.assertEqual(video, {"compuserve": 540.0, "custom12": 120.0, "jellyfish20": 120.0})
        # the headline cells are named without a video suffix at their own length
        self.assertIn("compuserve.c5.ga", {c.name for _b, cells in plan for c in cells})

    def test_only_a_design_with_draws_pairs_its_runs_by_draw(self):
        paired = {e for e in mx.EXPERIMENTS if mx.paired_by(e)}
        self.assertEqual(paired, {"ga-topo-paper"})
        self.assertEqual(mx.paired_by("ga-topo-paper"), "seed")
        self.assertIsNone(mx.paired_by("no-such-experiment"))
        # the publisher's ended table and the report's pairing follow the one decision
        self.assertTrue(record.has_ended("ga-topo-paper"))
        self.assertFalse(record.has_ended("ga-topo"))

    def test_a_batch_order_is_random_recorded_and_kept_on_resume(self):
        b, cells = mx.ga_topo_paper()[0]
        runs = [(c, k) for k in b.run_numbers for c in cells]
        order = b.order(runs)
        self.assertEqual(sorted(order, key=lambda r: (r[1], r[0].name)),
                         sorted(runs, key=lambda r: (r[1], r[0].name)))  # fmt: skip
        self.assertNotEqual(order, runs)  # 12 runs: the identity has odds 1 / 12!
        self.assertEqual(b.order(list(reversed(runs))), order)  # from the seed, not the input
        left = [r for r in runs if r not in order[:5]]
        self.assertEqual(b.order(left), order[5:])
        other, ocells = mx.ga_topo_paper()[1]
        self.assertNotEqual(
            [
                (c.name, k)
                for c, k in other.order([(c, k) for k in other.run_numbers for c in ocells])
            ],
            [(c.name, k - 2) for c, k in order],
        )
        plain = mx.ga_topo()[0][0]
        self.assertIsNone(plain.order_seed)
        self.assertEqual(plain.order(runs), runs)

    def test_the_player_names_a_cell_only_when_it_is_not_the_experiments(self):
        ((b, cells),) = mx.demo()
        self.assertEqual(b.player, "paper")
        self.assertEqual(cells[0].name, "compuserve.c3.ga")
        ((m, mcells),) = mx.with_batch(mx.demo(), player="modern")
        self.assertEqual(mcells[0].name, "compuserve.c3.modern.ga")
        self.assertNotEqual(m.name, b.name)
        self.assertEqual(mcells[0].params()["player"], "modern")
        self.assertEqual(mx.ga_topo()[0][1][0].name, "compuserve.c5.ga")

    def test_sched_cells_name_scheduler_and_buffer(self):
        names = {c.name for _b, cells in mx.ga_sched() for c in cells}
        self.assertIn("compuserve.c5.daps.b125.ga", names)
        self.assertEqual(len(names), 2 * 3 * 3)

    def test_qomra_and_delay_cells(self):
        names = [c.name for _b, cells in mx.qomra() for c in cells]
        self.assertIn("qomra-dc.c5.seg2.tcp", names)
        self.assertIn("qomra-dc.c5.seg6.bg.qomra", names)
        self.assertEqual([b.background for b, _c in mx.qomra(clients=8)][-1], ("srv1", "h8", 50.0))
        cells = {c.name: c for _b, cs in mx.qomra() for c in cs}
        self.assertEqual(cells["qomra-dc.c5.seg6.bg.tcp"].batch.background, ("srv1", "h5", 50.0))
        tcp, q = cells["qomra-dc.c5.seg6.tcp"], cells["qomra-dc.c5.seg6.qomra"]
        self.assertEqual(
            (tcp.tcp, tcp.controller_algorithm(), tcp.controller_args()), (True, "none", [])
        )
        self.assertEqual(
            (q.controller_algorithm(), q.controller_args()), ("qomra", ["--segment-routing"])
        )
        b, cs = mx.ga_delay()[2]
        self.assertEqual(
            (cs[0].name, b.overrides()), ("delay-pair.c1.d100.pd-bw", {"b-s": {"delayMs": 105.0}})
        )
        self.assertEqual(cs[0].params()["delay_diff_ms"], 100)

    def test_floodlight_cells_are_their_own_group(self):
        plan = mx.with_controller(mx.demo(), "floodlight")
        b, cells = plan[0]
        self.assertEqual(b.controller, "floodlight")
        self.assertEqual(cells[0].name, "compuserve.c3.floodlight.ga")
        self.assertIs(cells[0].batch, b)
        self.assertEqual(cells[0].params()["controller"], "floodlight")

    def test_descriptor_arguments(self):
        b = mx.Batch("ga-sched", "compuserve", 5, 120.0, bandwidth_mean=1.6, access_mbps=20)
        self.assertEqual(
            b.with_clients_args(),
            ["compuserve", "--clients", "5", "--seed", "1", "--links", "PAPER",
             "--bandwidth-mean", "1.6", "--access-capacity", "20"],
        )  # fmt: skip

    def test_an_attachment_is_passed_and_named(self):
        plain = mx.Batch("demo", "compuserve", 2, 30.0)
        fw = dataclasses.replace(plain, attach="framework")
        self.assertNotIn("--attach", plain.with_clients_args())
        self.assertEqual(fw.with_clients_args()[-2:], ["--attach", "framework"])
        self.assertEqual(plain.name, "compuserve.c2.s1.v30")
        self.assertEqual(fw.name, "compuserve.c2.framework.s1.v30")


if __name__ == "__main__":
    unittest.main()
