#!/usr/bin/python3
"""The LLDP delay measurement's tables, from its committed data (docs/floodlight.md, "Link delays").

    python3 testbed/lldp-delay/lldp_report.py            print the tables
    python3 testbed/lldp-delay/lldp_report.py --write    put them into docs/floodlight.md
    python3 testbed/lldp-delay/lldp_report.py --check    exit 1 when docs/floodlight.md differs

Reads the runs under docs/results/lldp-delay/data (testbed/lldp-delay/measure.py, one directory
per guest session): readings.csv (GET /mpqoe/topology after the warm-up, per controller build)
and samples.csv (the first build's probes, reflected probes and ECHO round trips), and the
configured delays from testbed/lldp-delay/topology.json.

Table 1, per link: configured one-way delay; for each build the discovered delay over the
readings (mean, and min-max) and mean minus configured; whether |error| <= 2 ms + 10 % of the
configured delay held in every reading. A column is one build (its commit below the table).
Table 2, from the reflection build's logged probes: the estimate of windows of 8 consecutive
rounds of a link, recomputed here from the same probes in three ways (reflection with the
minimum or the median of each quantity's window, echo subtraction with the minimum), and one
round alone; mean and largest |error| over all windows of all links, per configured delay,
leaving out each link's first 8 rounds (the network's set-up, see SKIP).
"""

import argparse
import csv
import json
import os
import statistics
import sys
from collections import defaultdict

from mpqoe import page

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
DATA = os.path.join(REPO, "docs", "results", "lldp-delay", "data")
# The runs (data directories) and their builds (phase in readings.csv: column name).
RUNS = (("echo", {"old": "old", "new": "echo"}), ("reflect", {"reflect": "reflect"}))
SAMPLES_RUN = "reflect"
# Table 2 leaves out each link's first rounds (probes of both directions: twice as many echo
# samples): the guest applies netem after the switches connected, and the controller probes at
# once, so the first probes crossed links without their delay (one of 12.8 ms on a 50 ms link).
SKIP = 8  # rounds, as LinkDelayEstimator.WINDOW
DOC = os.path.join(REPO, "docs", "floodlight.md")
BEGIN = "<!-- lldp-delay tables: python3 -m mpqoe.report lldp-delay -->"
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
        by[(r["column"], frozenset((r["a"], r["b"])))].append(float(r["delayMs"]))
        commits[r["column"]] = r["commit"][:12]
    columns = [c for _, names in RUNS for c in names.values() if c in commits]
    head = "| link | configured |"
    rule = "| --- | ---: |"
    for p in columns:
        head += f" {p}: discovered | {p}: error | {p}: within target |"
        rule += " ---: | ---: | :---: |"
    lines = [head, rule]
    for k in link_order(conf):
        c = conf[k]
        line = f"| {name(k)} | {c:g} |"
        for p in columns:
            v = by.get((p, k), [])
            if not v:
                line += " (not discovered) | | no |"
                continue
            mean = statistics.fmean(v)
            ok = all(abs(x - c) <= target(c) for x in v)
            line += f" {mean:.1f} ({min(v):.1f}-{max(v):.1f}) | {mean - c:+.1f} |"
            line += f" {'yes' if ok else 'no'} |"
        lines.append(line)
    n = {p: len({r["reading"] for r in rows if r["column"] == p}) for p in columns}
    notes = ", ".join(f"{p}: commit {commits[p]}, {n[p]} readings" for p in columns)
    summary = []
    for p in columns:
        errors, within = [], 0
        for k in link_order(conf):
            v = by.get((p, k), [])
            if v:
                errors.append(statistics.fmean(v) - conf[k])
                within += all(abs(x - conf[k]) <= target(conf[k]) for x in v)
        summary.append(
            f"{p}: {within} of {len(conf)} links within the target in every reading, mean errors"
            f" {min(errors):+.1f} to {max(errors):+.1f} ms"
        )
    return lines, notes, "Per build: " + "; ".join(summary) + "."


def reflected_ms(ra, rb, tab, tba):
    """LinkDelayEstimator.reflectedMs: (R_a + R_b - T_ab - T_ba) / 2, at least 0."""
    return max(0.0, (ra + rb - tab - tba) / 2)


def samples_table(conf, rows):
    """Windows of WINDOW rounds of each link, from the logged probes, three ways."""
    one_way = defaultdict(list)  # (src end, dst end): elapsed ms, in time order
    echo = defaultdict(list)  # link: echo-subtracted samples, both directions
    back = defaultdict(list)  # end: reflected round trips
    link_of = {}
    for r in rows:
        if r["kind"] == "lldp":
            src, dst = (int(r["src"]), int(r["srcPort"])), (int(r["dst"]), int(r["dstPort"]))
            one_way[(src, dst)].append(float(r["ms"]))
            key = frozenset((f"s{src[0]}", f"s{dst[0]}"))
            link_of[src] = link_of[dst] = (key, src, dst)
            if r["oneWayMs"] not in ("", "NaN"):
                echo[key].append(float(r["oneWayMs"]))
        elif r["kind"] == "reflected":
            back[(int(r["src"]), int(r["srcPort"]))].append(float(r["ms"]))
    errs = defaultdict(lambda: defaultdict(list))
    done = set()
    for key, a, b in link_of.values():
        if key in done or key not in conf:
            continue
        done.add(key)
        c = conf[key]
        e = errs[c]
        qs = [back[a], back[b], one_way[(a, b)], one_way[(b, a)]]
        n = min(len(q) for q in qs)
        e["rounds"].append(n)
        for i in range(SKIP, n):
            e["one round"].append(abs(reflected_ms(*(q[i] for q in qs)) - c))
        for i in range(SKIP, n - WINDOW + 1):
            w = [q[i : i + WINDOW] for q in qs]
            e["min"].append(abs(reflected_ms(*(min(x) for x in w)) - c))
            e["median"].append(abs(reflected_ms(*(statistics.median(x) for x in w)) - c))
        v = echo[key]
        for i in range(2 * SKIP, len(v) - WINDOW + 1):
            # As LinkDelayEstimator: WINDOW samples, both directions together.
            e["echo"].append(abs(min(v[i : i + WINDOW]) - c))
    lines = [
        f"| configured | rounds per link | reflection, min of {WINDOW}: mean / max abs error |"
        f" reflection, median of {WINDOW}: mean / max | echo subtraction, min of {WINDOW}:"
        " mean / max | one round alone: mean / max |",
        "| ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for c in sorted(errs):
        e = errs[c]
        cells = [
            f"{statistics.fmean(e[s]):.1f} / {max(e[s]):.1f}" if e[s] else "-"
            for s in ("min", "median", "echo", "one round")
        ]
        rounds = "-".join(str(x) for x in sorted({min(e["rounds"]), max(e["rounds"])}))
        lines.append(f"| {c:g} | {rounds} | " + " | ".join(cells) + " |")
    rtt = [float(r["ms"]) for r in rows if r["kind"] == "echo"]
    note = ""
    if rtt:
        q = statistics.quantiles(rtt, n=20)
        note = (
            f"ECHO round trips: {len(rtt)}, median {statistics.median(rtt):.1f} ms, "
            f"5th-95th percentile {q[0]:.1f}-{q[-1]:.1f} ms, max {max(rtt):.1f} ms."
        )
    return lines, note


# The block, in the results pages' placeholder grammar (mpqoe.page).
TEMPLATE = f"""{BEGIN}

{{{{table readings}}}}

Builds measured ({{{{builds}}}}).

{{{{summary}}}}

{{{{table samples}}}}

{{{{echo}}}}{END}
"""


def render(data):
    conf = configured()
    readings = []
    for run, columns in RUNS:
        with open(os.path.join(data, run, "readings.csv")) as f:
            for r in csv.DictReader(f):
                if r["phase"] in columns:
                    readings.append({**r, "column": columns[r["phase"]]})
    with open(os.path.join(data, SAMPLES_RUN, "samples.csv")) as f:
        samples = list(csv.DictReader(f))
    t1, notes, summary = readings_table(conf, readings)
    t2, echo = samples_table(conf, samples)
    tables = {"readings": "\n".join(t1), "samples": "\n".join(t2)}

    def table(name):
        if name not in tables:
            raise KeyError(f"no table {name!r} ({', '.join(tables)})")
        return tables[name]

    kinds = page.Kinds().shared("table", table)
    kinds.text("builds", notes).text("summary", summary).text("echo", echo and echo + "\n\n")
    return page.substitute(TEMPLATE, kinds, "lldp-delay block")


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
    i, j = doc.find(BEGIN.partition(":")[0]), doc.find(END)  # the marker's command may differ
    if i < 0 or j < i:
        print(f"lldp_report.py: {DOC} has no '{BEGIN}' ... '{END}' block", file=sys.stderr)
        return 1
    new = doc[:i] + block + doc[j + len(END) + 1 :]
    if args.check:
        if new != doc:
            print(
                f"lldp_report.py: {DOC}: the LLDP delay tables differ from their data",
                file=sys.stderr,
            )
            return 1
        return 0
    with open(DOC, "w") as f:
        f.write(new)
    return 0


if __name__ == "__main__":
    sys.exit(main())
