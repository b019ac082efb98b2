#!/usr/bin/python3
"""The Slurm test's verdict: the same sweep made locally and through Slurm, merged by the same
rules, must give tables of the same structure, and every run file must be complete.

    slurm_compare.py EXPERIMENT CELLS RUNS LOCAL SLURM

LOCAL and SLURM are the sweeps' directories (runs/ the workflow's run files, tables/ the
published tables). Prints one line per check and `N passed, M failed`; exit 1 when one failed.
"""

import csv
import os
import sys

from mpqoe import (
    campaign_sched,  # its incomplete: what a complete run document has
    files,
)


def table(path):
    with open(path, newline="") as f:
        r = csv.DictReader(f)
        return r.fieldnames, list(r)


def main(argv):
    if len(argv) != 5:
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    exp, cells, runs, local, slurm = argv
    cells, runs = cells.split(","), int(runs)
    want = {(c, str(k)) for c in cells for k in range(1, runs + 1)}
    results = []

    def check(what, ok, detail=""):
        results.append(ok)
        print(f"{'ok  ' if ok else 'FAIL'} {what}" + (f": {detail}" if detail and not ok else ""))

    sides = {}
    for name, d in (("local", local), ("slurm", slurm)):
        data = os.path.join(d, "tables", exp, "data")
        try:
            sides[name] = {t: table(os.path.join(data, f"{t}.csv")) for t in ("runs", "paths")}
        except OSError as e:
            check(f"{name}: published tables", False, str(e))
            continue
        cols, rows = sides[name]["runs"]
        got = {(r["cell"], r["run"]) for r in rows}
        check(f"{name}: runs.csv has exactly the sweep's runs", got == want, f"{sorted(got)}")
        bad = [f"{r['cell']}/run{r['run']}: {r['error']}" for r in rows if r["status"] != "ok"]
        check(f"{name}: every run ok", not bad, "; ".join(bad))
        incomplete = []
        for c, k in sorted(want):
            p = os.path.join(d, "runs", "scheduler", exp, c, f"run{k}.json")
            doc = files.read_json(p)
            why = "missing" if doc is None else campaign_sched.incomplete(doc)
            if doc is not None and doc.get("status") != "ok":
                why = f"status {doc.get('status')}"
            if why:
                incomplete.append(f"{c}/run{k}: {why}")
        check(f"{name}: every run's JSON is complete", not incomplete, "; ".join(incomplete))
    if len(sides) == 2:
        for t in ("runs", "paths"):
            lc, lr = sides["local"][t]
            sc, sr = sides["slurm"][t]
            check(f"{t}.csv: the same columns", lc == sc, f"{lc} vs {sc}")
            key = ("cell", "run", "path") if t == "paths" else ("cell", "run")
            lk = sorted(tuple(r[x] for x in key) for r in lr)
            sk = sorted(tuple(r[x] for x in key) for r in sr)
            check(f"{t}.csv: the same rows ({', '.join(key)})", lk == sk, f"{lk} vs {sk}")
            # every field filled on one side is filled on the other (values differ: timing)
            lf = {c for r in lr for c in lc if r[c] != ""}
            sf = {c for r in sr for c in sc if r[c] != ""}
            check(f"{t}.csv: the same fields filled", lf == sf, f"{sorted(lf ^ sf)}")
        versions = {r["code_version"] for s in sides.values() for r in s["runs"][1]}
        check("one code version on both sides", len(versions) == 1, f"{sorted(versions)}")
    failed = results.count(False)
    print(f"slurm-test: {len(results) - failed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
