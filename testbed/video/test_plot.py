"""video_run.py's demo plot: the players' timelines it draws beside the bars, read from run
directories made here (no guest)."""

import json
import os
import tempfile
import unittest


def sample(t, buffer, quality, kbps=2000):
    return {"type": "sample", "t": t, "buffer": buffer, "quality": quality, "bitrateKbps": kbps}


class TimelinesTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.addCleanup(self.tmp.cleanup)
        self.exp = os.path.join(self.tmp.name, "demo")

    def run_dir(self, cell, k, status, events_by_client):
        d = os.path.join(self.exp, cell, f"run{k}")
        os.makedirs(os.path.join(d, "players"))
        clients = [{"name": name} for name in events_by_client]
        with open(os.path.join(d, "run.json"), "w") as f:
            json.dump({"status": status, "network": {"clients": clients}}, f)
        for i, events in enumerate(events_by_client.values()):
            with open(os.path.join(d, "players", f"client-{i}.json"), "w") as f:
                json.dump({"qoe": {"events": events}}, f)

    def test_the_first_ok_run_of_each_cell_gives_each_client_s_buffer_and_quality(self):
        import video_run as run  # noqa: PLC0415

        stall = [sample(1, 3.0, 1), sample(2, 0.0, 0), {"type": "stall"}, sample(3, 1.5, None)]
        self.run_dir("compuserve.c3.ga", 1, "failed", {"h1": [sample(1, 9.0, 3)]})
        self.run_dir("compuserve.c3.ga", 2, "ok", {"h1": stall, "h2": [sample(1, 4.0, 2)]})
        self.run_dir("compuserve.c3.ga", 10, "ok", {"h1": [sample(1, 7.0, 3)]})
        self.run_dir("compuserve.c3.none", 1, "failed", {"h1": [sample(1, 9.0, 3)]})
        got = run.run_timelines(self.exp, ["compuserve.c3.ga", "compuserve.c3.none", "absent"])
        self.assertEqual(
            got,
            {"compuserve.c3.ga": {"h1": [(1, 3.0, 1), (2, 0.0, 0), (3, 1.5, None)],
                                  "h2": [(1, 4.0, 2)]}},
        )  # fmt: skip

    def test_the_plot_is_written_with_the_timelines(self):
        import video_run as run  # noqa: PLC0415

        try:
            import matplotlib  # noqa: F401, PLC0415
        except ImportError:
            self.skipTest("matplotlib missing")
        self.run_dir(
            "compuserve.c3.ga", 1, "ok", {"h1": [sample(t, t % 4, t % 3) for t in range(9)]}
        )
        means = {k: 1.0 for _h, cs in run.SUMMARY for k, _l in cs}
        path = os.path.join(self.exp, "summary.png")
        self.assertEqual(run.plot_summary([("compuserve.c3.ga", 1, 1, means)], path), path)
        with open(path, "rb") as f:
            self.assertEqual(f.read(8), b"\x89PNG\r\n\x1a\n")
        self.assertEqual(sorted(os.listdir(self.exp)), ["compuserve.c3.ga", "summary.png"])


if __name__ == "__main__":
    unittest.main()
