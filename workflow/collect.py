#!/usr/bin/python3
"""The last step of a run job of the workflow: the job's run files from the runner's store.

    collect.py --runner-exit RC SRC DST [SRC DST ...]

SRC is a run document in the runner's store (testbed/video: <cell>/run<k>/run.json,
testbed/experiments: <cell>/run<k>.json; cc-fairness: <case>_<algo>_run<k>.csv, which exists
only for a run whose checks passed), DST the workflow's run file. For PCDC (mpqoe.pcdc.experiment)
SRC is DIR/<cc>/run<k>, not a file but run k's four result files DIR/<cc>/<mode>/<test>/run<k>.csv
(plan.pcdc_run_files), whose rows DST gets in one CSV, or DIR/<cc>/table.json, an impact-factor
table (mpqoe.pcdc.impact's document), copied as it is. Each ok and complete
run is copied to its DST atomically; a run that is missing, failed or incomplete gets one
line on stderr and no DST, and the exit is 1, so that Snakemake never takes it for done (and
makes the job again; the runner then skips the runs already ok). Exit 0 when every run was
copied, 2 on bad arguments.
"""

import os
import sys

from mpqoe import files

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)


# What every ok run document of each runner has (cellrun.py, testbed/video/run.py).
SCHEMAS = ("mpqoe-experiment-run/", "mpqoe-video-run/")


def incomplete(doc):
    """Why an ok run document is not complete, or None."""
    for key in ("schema", "experiment", "cell", "run", "code_version"):
        if doc.get(key) in (None, ""):
            return f"no {key}"
    if not str(doc["schema"]).startswith(SCHEMAS):
        return f"unknown schema {doc['schema']!r}"
    if doc["schema"].startswith("mpqoe-video-run/"):
        if not doc.get("clients"):
            return "no clients"
        bad = [k for k, ok in (doc.get("checks") or {}).items() if not ok]
        if not doc.get("checks") or bad:
            return f"checks not passed: {'; '.join(bad) or 'none recorded'}"
        return None
    # the scheduler runner's table: what the report reads
    from mpqoe import sched_publish as publish  # noqa: PLC0415

    row = publish.run_row(doc)
    missing = [k for k in ("subflows",) if not row.get(k)]
    # 0 underflows is a result
    missing += [k for k in ("thr_mean_mbps", "underflows") if row.get(k) is None]
    if missing:
        return f"no {', '.join(missing)} in its probe record"
    return None


def csv_incomplete(path):
    """Why a run CSV of the fairness experiment (cc-fairness/run.py: one row, written only
    when the guest's checks passed) is not complete, or None; "missing" when it is not there."""
    import csv  # noqa: PLC0415

    from mpqoe.cc_fairness import COLUMNS  # noqa: PLC0415

    try:
        with open(path, newline="") as f:
            rows = list(csv.DictReader(f))
    except OSError:
        return "missing"
    if len(rows) != 1:
        return f"{len(rows)} rows, want 1"
    empty = [k for k in COLUMNS if k != "tcp_mbps" and not rows[0].get(k)]
    return f"ok but incomplete (no {', '.join(empty)})" if empty else None


def pcdc_run(cc, k, paths):
    """(the CSV of one PCDC run: every row of its result files, None) or (None, why not)."""
    import csv  # noqa: PLC0415

    import plan  # noqa: PLC0415

    rows = []
    for p in paths:
        name = "/".join(p.split(os.sep)[-3:])  # <mode>/<test>/run<k>.csv
        try:
            with open(p, newline="") as f:
                r = csv.DictReader(f)
                got = list(r)
        except OSError:
            return None, f"missing {name}"
        if tuple(r.fieldnames or ()) != plan.pcx.COLUMNS:
            return None, f"{name}: not the driver's columns"
        if not got:
            return None, f"{name}: no rows"
        rows += got
    versions = {r["code_version"] for r in rows}
    bad = [r for r in rows if r["status"] != "ok" or r["cc"] != cc or r["run"] != str(k)]
    if bad:
        r = bad[0]
        return None, f"a row of {r['cc']} run {r['run']} {r['pm']} {r['test']}: {r['status']}"
    if len(versions) != 1 or "" in versions:
        return None, f"code versions {sorted(versions)} (remove its files to make it again)"
    empty = [k for k in ("seconds", "bytes", "mbps", "subflows", "started") if any(
        not r[k] for r in rows)]  # fmt: skip
    if empty:
        return None, f"ok but incomplete (no {', '.join(empty)})"
    return plan.pcx.results.csv_text(rows, plan.pcx.COLUMNS), None


def pcdc_source(src):
    """(cc, k, result files) of a PCDC run source (plan.pcdc_run_files), None for a file."""
    if src.endswith((".csv", ".json")):
        return None
    import plan  # noqa: PLC0415 - the driver's layout

    return plan.pcdc_run_files(src)


def pcdc_table(doc, src):
    """Whether doc is an impact-factor table (mpqoe.pcdc.impact's document), and why it is not
    complete (None when it is): every pair needs a sample, and the daemon must read it."""
    if str(doc.get("schema")).startswith(SCHEMAS):
        return False, None
    from mpqoe.pcdc import impact  # noqa: PLC0415

    if doc.get("schema") != impact.SCHEMA:
        return False, None
    why = impact.unmeasured(doc)
    if why:
        return True, f"{why} (remove it to measure again)"
    try:
        impact.load_table(src)
    except ValueError as e:
        return True, str(e)
    return True, None


def check(src):
    """(why src is not a done run or None, the bytes of its run file)."""
    run = pcdc_source(src)
    if run:
        text, why = pcdc_run(*run)
        return why, text
    if src.endswith(".csv"):
        return csv_incomplete(src), None
    doc = files.read_json(src)
    if not doc:
        return "missing", None
    table, why = pcdc_table(doc, src)
    if table:
        return (f"table not complete ({why})" if why else None), None
    if doc.get("status") != "ok":
        why = " ".join(str(doc.get("error") or "no error recorded").split())[:200]
        return f"{doc.get('status')} ({why})", None
    why = incomplete(doc)
    return (f"ok but incomplete ({why})" if why else None), None


def collect(pairs):
    """Lines about the runs not copied ([] when all were)."""
    bad = []
    for src, dst in pairs:
        where = os.path.relpath(src, REPO) if src.startswith(REPO) else src
        why, text = check(src)
        if why:
            bad.append(f"{where}: {why}")
            continue
        if text is None:  # the runner's file as it is
            with open(src, "rb") as f:
                text = f.read()
        files.write_atomic(dst, text)
    return bad


def main(argv):
    rc = None
    if argv[:1] == ["--runner-exit"] and len(argv) >= 2:
        rc, argv = argv[1], argv[2:]
    if not argv or len(argv) % 2:
        print("collect.py: want [--runner-exit RC] SRC DST [SRC DST ...]", file=sys.stderr)
        return 2
    pairs = list(zip(argv[::2], argv[1::2], strict=True))
    bad = collect(pairs)
    for line in bad:
        print(f"workflow: run not done: {line}", file=sys.stderr)
    n = len(pairs) - len(bad)
    print(f"workflow: {n} of {len(pairs)} runs ok" + (f" (runner exit {rc})" if rc else ""))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
