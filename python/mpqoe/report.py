"""The one command of the results reports: every page, table and figure generated from
committed data, or a check that each agrees with it.

    python3 -m mpqoe.report [--check] [FAMILY ...]

FAMILY is one of FAMILIES (default: all of them, in that order). Each family's report is a
script of its own directory, run with this interpreter from the checkout's root; its messages
pass through. --check writes nothing and exits 1 when any file differs from what its data give.
The pages' placeholders: docs/results/placeholders.md (mpqoe.page).
"""

import argparse
import os
import subprocess
import sys

from mpqoe import REPO

# family: (its report script, the arguments that make its files, those that check them)
RESULTS = ["--data", "docs/results"]
FAMILIES = {
    "video": ("testbed/video/video_report.py", RESULTS, [*RESULTS, "--check"]),
    "scheduler": ("testbed/experiments/sched_report.py", RESULTS, [*RESULTS, "--check"]),
    "cc": ("kernel-schedulers/cc-fairness/cc_report.py", [], ["--check"]),
    "pcdc": ("pcdc/pcdc_report.py", [], ["--check"]),
    "perf": ("floodlight-module/bench/perf_report.py", [], ["--check"]),
    "lldp-delay": ("testbed/lldp-delay/lldp_report.py", ["--write"], ["--check"]),
    # last: the results index and the README's findings, from the claims the pages wrote
    "index": ("python/mpqoe/results_index.py", [], ["--check"]),
}


def command(family, check, python=sys.executable):
    """The argv of one family's report, making its files or (check) checking them."""
    script, make, checks = FAMILIES[family]
    return [python, os.path.join(REPO, script), *(checks if check else make)]


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--check", action="store_true", help="write nothing; exit 1 on a difference")
    p.add_argument("families", nargs="*", metavar="FAMILY", help=", ".join(FAMILIES))
    a = p.parse_args(argv)
    unknown = [f for f in a.families if f not in FAMILIES]
    if unknown:
        p.error(f"unknown family {', '.join(unknown)} ({', '.join(FAMILIES)})")
    rc = 0
    for family in a.families or FAMILIES:
        sys.stdout.flush()
        if subprocess.run(command(family, a.check), cwd=REPO, check=False).returncode != 0:
            rc = 1
    return rc


if __name__ == "__main__":
    sys.exit(main())
