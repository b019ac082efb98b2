"""cc_run.py without a guest: the guest's verdicts become run CSVs, and every attempt, written or
not, an attempt record with a campaign manifest beside it."""

import contextlib
import io
import os
import subprocess
import sys
import tempfile
import unittest
from unittest import mock

import cc_run as run
from mpqoe import campaign


class Attempts(unittest.TestCase):
    def test_every_attempt_is_recorded(self):
        with tempfile.TemporaryDirectory() as tmp:
            mods = os.path.join(tmp, "modules")
            os.makedirs(mods)
            for m in run.MODULES:
                with open(os.path.join(mods, f"mpqoe_{m}.ko"), "w") as f:
                    f.write(m)
            with open(os.path.join(mods, "kernel.txt"), "w") as f:
                f.write("kernel=6.12.0-test\n")
            data = os.path.join(tmp, "data")
            kv = ("mptcp_mbps=9 tcp_mbps=- subflows=2 cc=lia members=- guest_cpu_pct=50 "
                  "path1_mbps=5 path2_mbps=4 path1_drops=0 path2_drops=0")  # fmt: skip

            real = subprocess.run

            def guest(cmd, **kw):
                if "--save" not in cmd:  # git, for the code version
                    return real(cmd, **kw)
                save = cmd[cmd.index("--save") + 1]
                with open(save, "w") as f:
                    f.write(f"RESULT case=disjoint algo=lia tcp_cc=- run=1 {kv}\n")
                    f.write("PASS run disjoint lia 1\n")
                    f.write(f"RESULT case=disjoint algo=lia tcp_cc=- run=2 {kv}\n")
                    f.write("FAIL run disjoint lia 2: rc=1 subflows=1 cc=lia\n")
                return subprocess.CompletedProcess(cmd, 0)

            argv = ["cc_run.py", "--runs", "3", "--data", data, "--modules", mods]
            argv += ["--only", "disjoint/lia"]
            with (
                mock.patch.object(sys, "argv", argv),
                mock.patch.object(run.subprocess, "run", side_effect=guest),
                contextlib.redirect_stdout(io.StringIO()),
            ):
                self.assertEqual(run.main(), 1)
            self.assertTrue(os.path.exists(run.run_path(data, "disjoint", "lia", 1)))
            self.assertFalse(os.path.exists(run.run_path(data, "disjoint", "lia", 2)))
            got = [(a["run"], a["status"], a["why"]) for a in campaign.attempts(data, "fairness")]
            self.assertEqual(got[0], (1, "ok", ""))
            self.assertEqual(got[1][:2], (2, "failed"))
            self.assertIn("FAIL run disjoint lia 2", got[1][2])
            self.assertEqual(got[2], (3, "failed", "no result from the guest (exit 0)"))
            a = campaign.attempts(data, "fairness")[0]
            self.assertEqual((a["kernel"], a["cell"]), ("6.12.0-test", "disjoint/lia"))
            m = campaign.read_manifest(data, "fairness")
            self.assertEqual(
                m["cells"]["disjoint/lia"], {"ok": [1], "failed": [], "missing": [2, 3]}
            )
            self.assertTrue(m["partial"])


if __name__ == "__main__":
    unittest.main()
