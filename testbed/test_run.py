"""testbed/run with a fake QEMU: a guest that dies while booting is booted again, one that
dies after COMMAND started is not. The fake writes what the real guest would write: kernel
console lines to the -serial file and the exit code into the control share."""

import os
import subprocess
import sys
import tempfile
import textwrap
import unittest
from pathlib import Path

from mpqoe.kernel import kernel_reports

HERE = Path(__file__).resolve().parent


FAKE_QEMU = textwrap.dedent(
    """\
    #!{python}
    import os, sys
    args = sys.argv[1:]
    serial = next(a[5:] for a in args if a.startswith("file:"))
    ctl = next(
        p.split(",path=")[1].split(",")[0]
        for p in args
        if p.startswith("local,") and "mount_tag=ctl," in p
    )
    state = os.environ["FAKE_QEMU_STATE"]
    with open(state, "a+") as f:
        f.seek(0)
        n = len(f.read().splitlines())
        f.write("boot\\n")
    plan = os.environ["FAKE_QEMU_PLAN"].split(",")
    what = plan[min(n, len(plan) - 1)]
    with open(serial, "a") as con:
        if what == "oops":
            con.write("[    1.47] Oops: int3: 0000 [#1] PREEMPT SMP NOPTI\\n")
            con.write("[    1.48] Kernel panic - not syncing: Fatal exception\\n")
            sys.exit(0)
        con.write("mpqoe-init: ready after 4.2 s\\n")
        con.flush()
        if what.startswith("rc"):
            print("command output", flush=True)
            with open(os.path.join(ctl, "rc"), "w") as f:
                f.write(what[2:] + "\\n")
    """
)


class Run(unittest.TestCase):
    def setUp(self):
        tmp = tempfile.TemporaryDirectory()
        self.addCleanup(tmp.cleanup)
        self.tmp = Path(tmp.name)
        bindir = self.tmp / "bin"
        bindir.mkdir()
        qemu = bindir / "qemu-system-x86_64"
        qemu.write_text(FAKE_QEMU.format(python=sys.executable))
        qemu.chmod(0o755)
        self.env = dict(
            os.environ,
            PATH=f"{bindir}:{os.environ['PATH']}",
            MPQOE_TESTBED_CACHE=str(self.tmp / "cache"),
            FAKE_QEMU_STATE=str(self.tmp / "boots"),
        )
        guest = subprocess.run(
            ["bash", "-c", f"source {HERE / 'lib.sh'} && guest_dir"],
            env=self.env,
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
        Path(guest).mkdir(parents=True)
        (Path(guest) / "stamp").touch()

    def run_guest(self, plan):
        log = self.tmp / "console.log"
        res = subprocess.run(
            [
                str(HERE / "run"),
                "--no-build",
                "--timeout",
                "60",
                "--results",
                str(self.tmp / "results"),
                "--log",
                str(log),
                "--",
                "true",
            ],
            env=dict(self.env, FAKE_QEMU_PLAN=plan),
            capture_output=True,
            text=True,
            timeout=120,
        )
        boots = len((self.tmp / "boots").read_text().splitlines())
        return res, boots, log.read_text()

    def test_a_boot_that_dies_is_booted_again(self):
        res, boots, log = self.run_guest("oops,rc0")
        self.assertEqual(res.returncode, 0, res.stderr)
        self.assertEqual(boots, 2)
        self.assertIn("command output", res.stdout)
        self.assertIn("Oops: int3", res.stderr)
        self.assertIn("booting again (2 of 3)", res.stderr)
        # The log keeps the console of both boots, and run.py tells the boot that died from
        # the one that ran the command.
        self.assertIn("Kernel panic", log)
        self.assertIn("ready after", log)
        reports, retried = kernel_reports(str(self.tmp / "console.log"))
        self.assertEqual(reports, [])
        self.assertEqual(len(retried), 2)

    def test_three_boots_that_die_give_125(self):
        res, boots, _ = self.run_guest("oops")
        self.assertEqual(res.returncode, 125)
        self.assertEqual(boots, 3)
        self.assertIn("without an exit code", res.stderr)

    def test_a_guest_that_dies_after_ready_is_not_booted_again(self):
        res, boots, _ = self.run_guest("ready,rc0")
        self.assertEqual(res.returncode, 125)
        self.assertEqual(boots, 1)

    def test_the_commands_exit_code(self):
        res, boots, _ = self.run_guest("rc7")
        self.assertEqual(res.returncode, 7)
        self.assertEqual(boots, 1)
        self.assertNotIn("booting again", res.stderr)


if __name__ == "__main__":
    unittest.main()
