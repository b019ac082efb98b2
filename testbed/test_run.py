"""The QEMU launcher (testbed/qemu.sh) with a fake QEMU, as testbed/run and the kernel smoke
guest (kernel-schedulers/smoke/run.sh) use it: a guest that dies while booting is booted again,
one that dies after its work started is not, a timeout or a signal leaves no QEMU behind. The
fake writes what the real guests would write: kernel console lines to the console chardev's
file, the exit code into the control share (testbed) or verdict lines to the second serial
port (smoke)."""

import os
import signal
import subprocess
import sys
import tempfile
import textwrap
import time
import unittest
from pathlib import Path

from mpqoe.kernel import kernel_reports

HERE = Path(__file__).resolve().parent


FAKE_QEMU = textwrap.dedent(
    """\
    #!{python}
    import os, sys, time
    args = sys.argv[1:]
    console = next(
        a.split(",path=")[1].split(",")[0] for a in args if a.startswith("file,id=con,")
    )
    ctl = next(
        (
            p.split(",path=")[1].split(",")[0]
            for p in args
            if p.startswith("local,") and "mount_tag=ctl," in p
        ),
        None,
    )
    # the serial ports after the console (ttyS1, ...), emptied at start as QEMU's file: does
    ports = [a[5:] for a in args if a.startswith("file:")]
    for p in ports:
        open(p, "w").close()
    state = os.environ["FAKE_QEMU_STATE"]
    with open(state, "a+") as f:
        f.seek(0)
        n = len(f.read().splitlines())
        f.write(f"{{os.getpid()}}\\n")
    plan = os.environ["FAKE_QEMU_PLAN"].split(",")
    what = plan[min(n, len(plan) - 1)]
    print("qemu-system-x86_64: a warning of QEMU's own", file=sys.stderr, flush=True)
    with open(console, "a") as con:
        if what == "oops":
            con.write("[    1.47] Oops: int3: 0000 [#1] PREEMPT SMP NOPTI\\n")
            con.write("[    1.48] Kernel panic - not syncing: Fatal exception")
            sys.exit(0)
        con.write("mpqoe-init: ready after 4.2 s\\n")
        con.flush()
        if what == "hang":
            time.sleep(600)
        if what.startswith("rc"):
            print("command output", flush=True)
            with open(os.path.join(ctl, "rc"), "w") as f:
                f.write(what[2:] + "\\n")
        if what == "verdicts":
            lines = "PASS setup: namespaces\\nSMOKE-DONE pass=1 fail=0\\n"
            con.write(lines)
            with open(ports[0], "a") as f:
                f.write(lines)
    """
)

# The launcher as kernel-schedulers/smoke/run.sh calls it (under set -euo pipefail, as there):
# the verdicts on the second serial port, which also says that the checks started.
SMOKE_LAUNCH = textwrap.dedent(
    """\
    set -euo pipefail
    source "$1/qemu.sh"
    d=$2
    trap qemu_stop EXIT
    show_verdicts() { tr -d '\\r' | grep --line-buffered -E '^(PASS|FAIL|SMOKE-DONE)'; }
    : >"$d/verdicts"
    rc=0
    qemu_boot --name smoke --work "the checks" --mem 768 --smp 2 --timeout "$3" \\
        --kernel "$d/vmlinuz" --initrd "$d/initrd.gz" \\
        --log "$d/console.log" --started "$d/verdicts" --follow show_verdicts \\
        --output "$d/qemu.out" -- -serial "file:$d/verdicts" || rc=$?
    echo "rc=$rc started=$QEMU_STARTED ready=$QEMU_READY_S"
    """
)


class FakeQemu(unittest.TestCase):
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

    def boots(self):
        """The pids of the fake QEMUs started, one per boot."""
        path = self.tmp / "boots"
        return [int(p) for p in path.read_text().split()] if path.exists() else []

    def assertNoQemuLeft(self):
        for pid in self.boots():
            try:
                state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
            except FileNotFoundError:
                continue
            # a zombie is dead: its parent (the launcher) ended without waiting for it
            self.assertEqual(state, "Z", f"fake QEMU {pid} still running")


class Run(FakeQemu):
    """testbed/run: the Debian guest, its command's exit code through the control share."""

    def setUp(self):
        super().setUp()
        guest = subprocess.run(
            ["bash", "-c", f"source {HERE / 'lib.sh'} && guest_dir"],
            env=self.env,
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
        Path(guest).mkdir(parents=True)
        (Path(guest) / "stamp").touch()

    def command(self, timeout=60):
        return [
            str(HERE / "run"),
            "--no-build",
            "--timeout",
            str(timeout),
            "--results",
            str(self.tmp / "results"),
            "--log",
            str(self.tmp / "console.log"),
            "--",
            "true",
        ]

    def run_guest(self, plan, timeout=60):
        res = subprocess.run(
            self.command(timeout),
            env=dict(self.env, FAKE_QEMU_PLAN=plan),
            capture_output=True,
            text=True,
            timeout=120,
        )
        return res, len(self.boots()), (self.tmp / "console.log").read_text()

    def test_a_boot_that_dies_is_booted_again(self):
        res, boots, log = self.run_guest("oops,rc0")
        self.assertEqual(res.returncode, 0, res.stderr)
        self.assertEqual(boots, 2)
        self.assertIn("command output", res.stdout)
        self.assertIn("Oops: int3", res.stderr)
        self.assertIn("booting again (2 of 3)", res.stderr)
        self.assertIn("guest ready after 4.2 s", res.stderr)
        # The log keeps the console of both boots, and run.py tells the boot that died from
        # the one that ran the command, also when the kernel died in the middle of a line.
        self.assertIn("Kernel panic", log)
        self.assertIn("ready after", log)
        self.assertIn("exception\ntestbed: boot 1 died before COMMAND started; boot 2", log)
        reports, retried = kernel_reports(str(self.tmp / "console.log"))
        self.assertEqual(reports, [])
        self.assertEqual(len(retried), 2)

    def test_three_boots_that_die_give_125(self):
        res, boots, _ = self.run_guest("oops")
        self.assertEqual(res.returncode, 125)
        self.assertEqual(boots, 3)
        self.assertIn("without an exit code", res.stderr)
        self.assertIn("Kernel panic", res.stderr)  # the last boot's console ends the message

    def test_a_guest_that_dies_after_ready_is_not_booted_again(self):
        res, boots, _ = self.run_guest("ready,rc0")
        self.assertEqual(res.returncode, 125)
        self.assertEqual(boots, 1)

    def test_the_commands_exit_code(self):
        res, boots, _ = self.run_guest("rc7")
        self.assertEqual(res.returncode, 7)
        self.assertEqual(boots, 1)
        self.assertNotIn("booting again", res.stderr)
        self.assertIn("a warning of QEMU's own", res.stderr)

    def test_a_timeout_gives_124_and_kills_qemu(self):
        t0 = time.monotonic()
        res, boots, _ = self.run_guest("hang", timeout=2)
        self.assertEqual(res.returncode, 124)
        self.assertLess(time.monotonic() - t0, 30)
        self.assertEqual(boots, 1)
        self.assertIn("testbed: timeout after 2 s, guest killed", res.stderr)
        self.assertNoQemuLeft()

    def test_sigterm_gives_143_and_kills_qemu(self):
        proc = subprocess.Popen(
            self.command(),
            env=dict(self.env, FAKE_QEMU_PLAN="hang"),
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        try:
            deadline = time.monotonic() + 30
            while not self.boots() and time.monotonic() < deadline:
                time.sleep(0.1)
            self.assertEqual(len(self.boots()), 1)
            proc.send_signal(signal.SIGTERM)
            self.assertEqual(proc.wait(timeout=30), 143)
        finally:
            proc.kill()
            proc.wait()
        self.assertNoQemuLeft()


class SmokeGuest(FakeQemu):
    """The kernel smoke guest's use of the launcher: no shares, verdicts on ttyS1."""

    def launch(self, plan, timeout=60):
        res = subprocess.run(
            ["bash", "-c", SMOKE_LAUNCH, "smoke-launch", str(HERE), str(self.tmp), str(timeout)],
            env=dict(self.env, FAKE_QEMU_PLAN=plan),
            capture_output=True,
            text=True,
            timeout=120,
        )
        self.assertEqual(res.returncode, 0, res.stderr)
        return res, len(self.boots()), (self.tmp / "console.log").read_text()

    def test_a_boot_that_dies_is_booted_again(self):
        res, boots, log = self.launch("oops,verdicts")
        self.assertEqual(boots, 2)
        self.assertIn("rc=0 started=1 ready=4.2", res.stdout)
        self.assertIn("died before the checks started ([    1.47] Oops: int3", res.stderr)
        self.assertIn("booting again (2 of 3)", res.stderr)
        # shown while the guest ran, and on ttyS1 the second boot's verdicts alone
        self.assertIn("PASS setup: namespaces\nSMOKE-DONE pass=1 fail=0\n", res.stdout)
        verdicts = (self.tmp / "verdicts").read_text()
        self.assertEqual(verdicts, "PASS setup: namespaces\nSMOKE-DONE pass=1 fail=0\n")
        self.assertIn("smoke: boot 1 died before the checks started; boot 2 follows", log)
        self.assertIn("SMOKE-DONE", log)
        # QEMU's own output goes to --output, one line per boot
        qemu_out = (self.tmp / "qemu.out").read_text()
        self.assertEqual(qemu_out.count("a warning of QEMU's own"), 2)
        self.assertNotIn("a warning of QEMU's own", res.stderr)

    def test_three_boots_that_die(self):
        res, boots, _ = self.launch("oops")
        self.assertEqual(boots, 3)
        self.assertIn("rc=0 started=0 ready=", res.stdout)
        self.assertEqual((self.tmp / "verdicts").read_text(), "")

    def test_a_timeout_returns_124_and_kills_qemu(self):
        res, boots, _ = self.launch("hang", timeout=2)
        self.assertEqual(boots, 1)
        self.assertIn("rc=124 started=0", res.stdout)
        self.assertIn("smoke: timeout after 2 s, guest killed", res.stderr)
        self.assertNoQemuLeft()


if __name__ == "__main__":
    unittest.main()
