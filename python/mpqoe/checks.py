"""The self-tests' check list (one PASS/FAIL line per check) and their whole-run deadline."""

import shutil
import signal
import time

from mpqoe.proc import print_tail


class Timeout(Exception):
    """The run's --timeout expired."""


class Checks:
    """Named checks, printed as they are made; `failed` counts the failures."""

    def __init__(self):
        self.results = []
        self.failed = 0
        self.start = time.monotonic()

    def check(self, name, ok, detail=""):
        self.results.append((name, bool(ok), detail))
        if not ok:
            self.failed += 1
        mark = "PASS" if ok else "FAIL"
        print(f"  [{mark}] {name}" + (f": {detail}" if detail else ""), flush=True)
        return ok

    def group(self, title):
        print(f"== {title}", flush=True)

    def summary(self, prog, extra=""):
        """The failed checks again, then `prog: N passed, M failed in S s` (+ extra); returns
        the exit code (1 on failure). The repeat puts the failures in the last lines of the
        output, after any log tail, where a CI excerpt of the output's end shows them."""
        for name, ok, detail in self.results:
            if not ok:
                line = f"{prog}: FAILED {name}" + (f": {detail}" if detail else "")
                print(line if len(line) <= 300 else line[:297] + "...", flush=True)
        print(
            f"{prog}: {len(self.results) - self.failed} passed, {self.failed} failed "
            f"in {time.monotonic() - self.start:.1f} s" + (f" {extra}" if extra else ""),
            flush=True,
        )
        return 1 if self.failed else 0


def deadline(seconds, term=True):
    """Raises Timeout in the main thread after `seconds` (SIGALRM) and, with term, turns
    SIGTERM into KeyboardInterrupt, so that a run stopped either way still cleans up. Cancel
    with signal.alarm(0)."""

    def on_alarm(_sig, _frame):
        raise Timeout(f"timed out after {seconds} s")

    def on_term(sig, _frame):
        raise KeyboardInterrupt(f"signal {sig}")

    signal.signal(signal.SIGALRM, on_alarm)
    if term:
        signal.signal(signal.SIGTERM, on_term)
    signal.alarm(seconds)


class NoAlarm:
    """A block that the deadline must not cut short (cleanup): the alarm is paused inside and
    set again, for the time that was left, on leaving it."""

    def __enter__(self):
        self.left = signal.alarm(0)
        return self

    def __exit__(self, *exc):
        if self.left:
            signal.alarm(self.left)
        return False


def add_run_options(parser, timeout, log_lines, log_name):
    """The options every Mininet test shares: --timeout, --keep, --log-lines, --force-clean,
    -v."""
    parser.add_argument("--timeout", type=int, default=timeout, help="stop after this many s")
    parser.add_argument("--keep", action="store_true", help="keep the work directory")
    parser.add_argument(
        "--log-lines", type=int, default=log_lines, help=f"{log_name} lines on failure"
    )
    parser.add_argument("--force-clean", action="store_true", help="delete leftover s<N> bridges")
    parser.add_argument("-v", "--verbose", action="store_true", help="Mininet info logging")


def keep_or_remove(t, workdir, keep, log_path, log_lines, log_name):
    """After a run: on failure the log's tail; the work directory kept on failure or with
    keep, else removed."""
    if t.failed and log_path:
        print_tail(log_path, log_lines, log_name)
    if t.failed or keep:
        print(f"work directory kept: {workdir}")
    else:
        shutil.rmtree(workdir, ignore_errors=True)
