#!/usr/bin/python3
"""The LLDP delay measurement's tables, from its committed data (docs/floodlight.md, "Link delays").

    python3 testbed/lldp-delay/report.py            print the tables
    python3 testbed/lldp-delay/report.py --write    put them into docs/floodlight.md
    python3 testbed/lldp-delay/report.py --check    exit 1 when docs/floodlight.md differs

Reads docs/results/lldp-delay/data/readings.csv (testbed/lldp-delay/measure.py: GET
/mpqoe/topology after the warm-up, per controller build) and samples.csv (the new build's probes
and ECHO round trips), and the configured delays from testbed/lldp-delay/topology.json.

Table 1, per link: configured one-way delay; for each build the discovered delay over the
readings (mean, and min-max) and mean minus configured; whether |error| <= 2 ms + 10 % of the
configured delay held in every reading. Table 2, from the new build's one-way samples (control
channel already taken out by the controller): the error of one sample alone, of the minimum and
of the median of windows of 8 consecutive samples of a link, mean and largest |error| over all
windows of all links, per configured delay.
"""

import argparse
import csv
import json
import os
import statistics
import sys
from collections import defaultdict

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
DATA = os.path.join(REPO, "docs", "results", "lldp-delay", "data")
DOC = os.path.join(REPO, "docs", "floodlight.md")
BEGIN = "<!-- lldp-delay tables: testbed/lldp-delay/report.py --write -->"
END = "<!-- end of lldp-delay tables -->"
WINDOW = 8  # LinkDelayEstimator.WINDOW


def configured():
    """{frozenset of the two switch names: delay ms}; switch s<dpid> as in discovery."""
    with open(os.path.join(HERE, "topology.json")) as f:
        d = json.load(f)
    dpid = {s["name"]: int(s.get("dpid") or i) for i, s in enumerate(d["switches"], 1)}
    return {frozenset((f"s{dpid[x['a']]}", f"s{dpid[x['b']]}")): x["delayMs"] for x in d["links"]}


def target(conf):
    return 2.0 + 0.1 * conf


def link_order(conf):
    return sorted(conf, key=lambda k: (conf[k], sorted(k, key=lambda s: int(s[1:]))))


def name(k):
    return "-".join(sorted(k, key=lambda s: int(s[1:])))


def readings_table(conf, rows):
    by = defaultdict(list)
    commits = {}
    for r in rows:
        by[(r["phase"], frozenset((r["a"], r["b"])))].append(float(r["delayMs"]))
        commits[r["phase"]] = r["commit"][:12]
    phases = [p for p in ("old", "new") if p in commits]
    head = "| link | configured |"
    rule = "| --- | ---: |"
    for p in phases:
        head += f" {p}: discovered | {p}: error | {p}: within target |"
        rule += " ---: | ---: | :---: |"
    lines = [head, rule]
    for k in link_order(conf):
        c = conf[k]
        line = f"| {name(k)} | {c:g} |"
        for p in phases:
            v = by.get((p, k), [])
            if not v:
                line += " (not discovered) | | no |"
                continue
            mean = statistics.fmean(v)
            ok = all(abs(x - c) <= target(c) for x in v)
            line += f" {mean:.1f} ({min(v):.1f}-{max(v):.1f}) | {mean - c:+.1f} |"
            line += f" {'yes' if ok else 'no'} |"
        lines.append(line)
    n = {p: len({r["reading"] for r in rows if r["phase"] == p}) for p in phases}
    notes = ", ".join(f"{p}: commit {commits[p]}, {n[p]} readings" for p in phases)
    return lines, notes


def samples_table(conf, rows):
    names = {}
    for r in rows:
        if r["kind"] == "lldp" and r["oneWayMs"] not in ("", "NaN"):
            k = frozenset((f"s{r['src']}", f"s{r['dst']}"))
            names.setdefault(k, []).append(float(r["oneWayMs"]))
    errs = defaultdict(lambda: {"sample": [], "min": [], "median": []})
    for k, v in names.items():
        if k not in conf:
            continue
        c = conf[k]
        e = errs[c]
        e["sample"] += [abs(x - c) for x in v]
        for i in range(len(v) - WINDOW + 1):
            w = v[i : i + WINDOW]
            e["min"].append(abs(min(w) - c))
            e["median"].append(abs(statistics.median(w) - c))
    lines = [
        f"| configured | samples | one sample: mean / max abs error | min of {WINDOW}: mean / max |"
        f" median of {WINDOW}: mean / max |",
        "| ---: | ---: | ---: | ---: | ---: |",
    ]
    for c in sorted(errs):
        e = errs[c]
        cells = [
            f"{statistics.fmean(e[s]):.1f} / {max(e[s]):.1f}" if e[s] else "-"
            for s in ("sample", "min", "median")
        ]
        lines.append(f"| {c:g} | {len(e['sample'])} | " + " | ".join(cells) + " |")
    echo = [float(r["ms"]) for r in rows if r["kind"] == "echo"]
    note = ""
    if echo:
        q = statistics.quantiles(echo, n=20)
        note = (
            f"ECHO round trips: {len(echo)}, median {statistics.median(echo):.1f} ms, "
            f"5th-95th percentile {q[0]:.1f}-{q[-1]:.1f} ms, max {max(echo):.1f} ms."
        )
    return lines, note


def render(data):
    conf = configured()
    with open(os.path.join(data, "readings.csv")) as f:
        readings = list(csv.DictReader(f))
    with open(os.path.join(data, "samples.csv")) as f:
        samples = list(csv.DictReader(f))
    t1, notes = readings_table(conf, readings)
    t2, echo = samples_table(conf, samples)
    out = [BEGIN, "", *t1, "", f"Builds measured ({notes}).", "", *t2, ""]
    if echo:
        out += [echo, ""]
    out.append(END)
    return "\n".join(out) + "\n"


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    g = p.add_mutually_exclusive_group()
    g.add_argument("--write", action="store_true", help=f"replace the tables in {DOC}")
    g.add_argument("--check", action="store_true", help=f"exit 1 when {DOC} differs")
    p.add_argument("--data", default=DATA)
    args = p.parse_args(argv)
    block = render(args.data)
    if not (args.write or args.check):
        sys.stdout.write(block)
        return 0
    with open(DOC) as f:
        doc = f.read()
    i, j = doc.find(BEGIN), doc.find(END)
    if i < 0 or j < i:
        print(f"report: {DOC} has no '{BEGIN}' ... '{END}' block", file=sys.stderr)
        return 1
    new = doc[:i] + block + doc[j + len(END) + 1 :]
    if args.check:
        if new != doc:
            print(f"report: {DOC}: the LLDP delay tables differ from their data", file=sys.stderr)
            return 1
        return 0
    with open(DOC, "w") as f:
        f.write(new)
    return 0


if __name__ == "__main__":
    sys.exit(main())
