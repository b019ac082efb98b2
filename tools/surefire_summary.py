#!/usr/bin/env python3
"""Print one closing line that counts every JUnit test run by Maven Surefire.

Reads the target/surefire-reports/TEST-*.xml files below the given roots (default: the current
directory) and prints 'tests: N passed, N failed, N skipped'. Exits 1 if there are failures
or errors, or if no report is found at all (a build that ran no test must not look green).
"""

import argparse
import pathlib
import sys
import xml.etree.ElementTree as ET


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("roots", nargs="*", default=["."], help="directories to search")
    args = parser.parse_args()
    total = failed = skipped = 0
    reports = [
        p
        for root in args.roots
        for p in pathlib.Path(root).glob("**/target/surefire-reports/TEST-*.xml")
    ]
    for report in reports:
        suite = ET.parse(report).getroot()
        total += int(suite.get("tests", 0))
        failed += int(suite.get("failures", 0)) + int(suite.get("errors", 0))
        skipped += int(suite.get("skipped", 0))
    if not reports:
        print("tests: no Surefire report found", file=sys.stderr)
        return 1
    print(f"tests: {total - failed - skipped} passed, {failed} failed, {skipped} skipped")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
