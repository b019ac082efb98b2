"""The set-up rows of e2e_controller.py --setup-csv (mpqoe.pcap.setup_rows,
e2e_setup_latency.write_setup_csv), on hand-made handshakes (no network).

cd mininet-scripts && /usr/bin/python3 -m unittest tests.test_setup_latency
"""

import csv
import os
import tempfile
import unittest

import e2e_setup_latency as sl
from mpqoe import pcap


def shake(client, kind, setup_ms, syns=1):
    return {
        "client": client,
        "server": "10.0.0.1:80",
        "kind": kind,
        "setup_ms": setup_ms,
        "syns": syns,
    }


class SetupRowsTest(unittest.TestCase):
    def setUp(self):
        self.found = [
            shake("10.0.1.11:40000", "MP_CAPABLE", 28.61234),
            shake("10.0.2.11:40001", "MP_JOIN", None, syns=3),
            shake("10.0.1.12:40002", "MP_CAPABLE", 23.8),
            shake("10.0.1.11:40003", "TCP", 7.1),
        ]
        self.owner = {"10.0.1.11": "c1", "10.0.2.11": "c1", "10.0.1.12": "c2"}

    def test_kinds_times_and_pings(self):
        rows = pcap.setup_rows(self.found, self.owner, {"c1": [1.5, 0.25], "c2": []})
        kinds = [(r["client"], r["kind"]) for r in rows]
        self.assertEqual(
            kinds,
            [
                ("c1", "first MP_CAPABLE"),  # only the run's first MP_CAPABLE
                ("c1", "MP_JOIN"),
                ("c2", "MP_CAPABLE"),
                ("c1", "TCP"),
                ("c1", "first ping"),
                ("c1", "ping"),
            ],
        )
        self.assertEqual(rows[0]["setup_ms"], "28.612")
        self.assertIsNone(rows[1]["setup_ms"])  # never answered: no time, its SYNs counted
        self.assertEqual(rows[1]["syns"], 3)
        self.assertEqual(rows[5]["setup_ms"], "0.250")

    def test_the_csv_carries_the_run_and_its_outcome(self):
        rows = pcap.setup_rows(self.found, self.owner, {})
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "f.csv")
            sl.write_setup_csv(path, rows, "ga SR", 3, ok=False)
            with open(path, encoding="utf-8", newline="") as f:
                got = list(csv.DictReader(f))
            self.assertEqual(os.listdir(d), ["f.csv"])  # no temporary file left
        self.assertEqual(list(got[0]), list(pcap.SETUP_COLUMNS))
        self.assertEqual(
            {(r["variant"], r["seed"], r["status"]) for r in got}, {("ga SR", "3", "failed")}
        )
        self.assertEqual(got[1]["setup_ms"], "")
        self.assertEqual(len(got), 4)


if __name__ == "__main__":
    unittest.main()
