#!/usr/bin/python3
"""The results pages of the PCDC experiment (Chen et al., Section VI): PCDC against FullMesh.

    /usr/bin/python3 pcdc/pcdc_report.py --import DIR [--scenario FILE] [--rate-scale X] [--data D]
    /usr/bin/python3 pcdc/pcdc_report.py --export DIR [--data D]
    /usr/bin/python3 pcdc/pcdc_report.py [--data D] [--check]

Each scenario has its own page, docs/results/pcdc-<scenario>.md from the template
docs/results/pcdc-<scenario>.md.in, and its own directory under the data root (--data, default
docs/results/pcdc): <scenario>/data (the committed data) and <scenario>/figures.

--import DIR reads what mpqoe.pcdc.experiment wrote (DIR/<cc>/table.json and
DIR/<cc>/<pcdc|fullmesh>/<bulk|small>/run<N>.csv) and writes the scenario's data directory
<root>/<scenario>/data, the scenario named by its file:
    <cc>.csv          every row of every run of that congestion control (experiment.COLUMNS)
    <cc>-table.json   the impact factors the runs used (mpqoe.pcdc.impact's document, as it is)
    scenario.json     the scenario file the network was built from (default
                      pcdc/scenarios/<name of DIR>.json) with the --rate-scale it ran with
    <cc>-volatile.json  where the scenario has volatile pairs: the schedules applied, as the
                      driver recorded them ({"measure": table.volatile.json, "cells":
                      {"<mode>/<test>/<run>": run<N>.volatile.json}})
It refuses, with one line and nothing written, rows of more than one code version, a status
that is not ok, a row that does not belong to its file, a run twice, a missing or malformed
table, a table whose addresses are not the scenario's, and for volatile pairs a missing or
malformed record, one whose schedule key (netns.test_key) or pairs are not the scenario's, one
whose schedule failed, and records where the scenario has no volatile pair. Cells (cc, mode,
test, size) with fewer runs than the others are listed; the page marks them partial. Every
file is written atomically, after all of them were read and checked; files of the directory
the import does not make are removed.

--export DIR does the reverse for the scenario named by DIR's name: it writes the committed
data back as the driver's output (result files, tables, volatile records), refusing to replace
a file. The driver, run on DIR at the data's code version (a checkout of that commit), keeps
what it finds and makes the missing cells; --import then gives the same rows plus the new ones.
So a sweep goes on where the last import left it, on any machine.

Without --import or --export: for every scenario with data under the root, its page from its
template and the committed data, and the figures <root>/<scenario>/figures/{bulk,small}.png
(matplotlib Agg): each file written atomically and only when it changed; --check writes
nothing and exits 1 when a file differs from what the data give. Data without a template is an
error.

Statistics (python/mpqoe/stats.py, shared with the other results pages). The unit
is the run: a run's bulk throughput (Mbit/s) or its completion time of one size (ms). Per cell
and path manager: mean with the 95 % Student t interval, min, max, 10 % and 90 % quantiles
(linear interpolation, mpqoe.results.quantile), coefficient of variation (sample SD /
mean). Per cell, PCDC against FullMesh:
- location: two-sided permutation test on the difference of the means (stats.compare; exact
  up to stats.SPLIT_EXACT_LIMIT splits, else stats.RESAMPLES from a fixed seed), Welch's p
  beside it;
  Holm over every tested cell of the page (bulk and small together, one family);
- spread, small transfers only: Brown-Forsythe test (stats.compare_spread), Holm over the
  tested small cells (a second family);
at least stats.MIN_RUNS runs a side. A difference is a finding only where its Holm-adjusted p
is below stats.ALPHA. Verdicts on the paper's claims: "agrees" (significant, in the claimed
direction), "disagrees" (significant, the other way), "not significant", or "not tested (why)".
The optional set P and the standby pairs per congestion control come from the table as the
daemon reads it (impact.load_table, policy.optional_set); the paper's P from its table of the
scenario (Table II for uib-unis, Table III for uib-hin, Table IV for uib-hu), by the same
function.

Placeholders (docs/results/placeholders.md; the templates include fragments with
{{include FILE}}):
    {{status}} {{version}} {{ccs}} {{runs}} (most runs of a cell) {{runs_text}} ("10 runs")
    {{sizes}} {{bulk_seconds}} {{hints}} {{rate_scale}} {{scenario_name}} {{capacity}} (Mbit/s
    that can reach the client) {{location_tests}} {{spread_tests}} (tested cells) {{min_runs}}
    {{alpha}} (stats.MIN_RUNS, stats.ALPHA)
    {{value <cc>/<pm> bulk FIELD}}, {{value <cc>/<KiB>/<pm> small FIELD}}
        field: mean, ci (half-width), lo, hi, min, max, median, q10, q90, range (q90 - q10),
        cv (%), n (runs), subflows
    {{cmp <cc> bulk FIELD}}, {{cmp <cc>/<KiB> small FIELD}} (PCDC against FullMesh)
        field: diff (PCDC - FullMesh), pct (diff as % of FullMesh), p (Holm), p_raw
        (permutation), welch, sig, verdict
    {{cmp <cc>/<KiB> spread FIELD}}   field: pcdc, fullmesh (mean absolute deviation from the
        median, ms), p (Holm), p_raw, sig, verdict
    {{verdict <claim>/<cc> [check=WORD]}}   the claim's verdict (CLAIMS); claim: bulk (PCDC
        higher), bulk-lower, small (PCDC faster), small-slower, steady (PCDC steadier),
        bulk-same, small-same and steady-same (the paper's "not much difference"), P; the small
        and steady claims over the sizes
    {{optional CC}} (P), {{standby CC}}, {{paperset CC}} (the paper's P)
        pairs as <server ISP>-<client ISP>, P in its order
    {{measure CC FIELD}}        field: samples, T, warmup, settle
    {{within <cc pattern>/<pair pattern>,... omega LO..HI}}   nothing, or an error: the mean
        Omega of every matching pair (as the impact table gives it) lies in [lo, hi], the check
        behind words about the impact factors ("near zero or negative"); pairs named as in the
        table (Uninett-Uninett)
    {{paper FIELD}}               the paper's scenario: section, table, bulk_figure,
        small_figure, server, client (e.g. VI-A, Table II, Figure 6, Figure 7, UiB, UNIS)
    {{volatile-model}}   the volatile pairs' model and seed ("none" without volatile pairs)
    {{volatile-bad CC}}   their time in the bad state during cc's measurement
    {{table <scenario|impact|bulk|small|spread|volatile>}}   volatile: per run, each bulk
        test's seconds with a volatile pair in its bad state, and its throughput
The transfers are summarised per run: a time window (during=) is an error.
A placeholder naming cubic or olia (the paper's controls) when the data have no runs of it is
"n/a (no <cc> runs)" and the status says so; any other unknown name is an error.
Exit 0 when done, 1 on bad data or template or (--check) a difference, 2 on bad options.
Needs Debian's python3-scipy and python3-matplotlib (installed when missing and run as root).
"""

import fnmatch
import glob
import json
import os
import re
import statistics
import sys
from dataclasses import dataclass

from mpqoe import debian, files, page
from mpqoe import results as shared
from mpqoe.pcdc import experiment, impact, netns, policy
from mpqoe.results import ReportError, fmt, fmt_p

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)


WHO = "pcdc/pcdc_report.py"
COMMAND = "make results"
ROOT = experiment.PUBLISHED  # the data root: <scenario>/data, <scenario>/figures
COLUMNS = experiment.COLUMNS
PMS = ("pcdc", "fullmesh")
LABEL = {"pcdc": "PCDC", "fullmesh": "FullMesh"}
KIB = 1024
# Chen et al.'s scenarios (Section VI): where the paper has them, its impact-factor table with
# rows (cc, from ISP, to ISP): (Omega mean, mean RTT ms), the figures of bulk throughput and of
# small transfers, the server and client sites.
PAPER = {
    "uib-unis": dict(
        section="VI-A",
        table="Table II",
        bulk_figure="Figure 6",
        small_figure="Figure 7",
        server="UiB",
        client="UNIS",
        rows={
            ("cubic", "BKK", "Telenor"): (-0.04, 104.2),
            ("cubic", "BKK", "Uninett"): (-0.06, 50.1),
            ("cubic", "Uninett", "Telenor"): (-0.01, 61.3),
            ("cubic", "Uninett", "Uninett"): (0.68, 39.6),
            ("olia", "BKK", "Telenor"): (-0.02, 82.7),
            ("olia", "BKK", "Uninett"): (-0.02, 42.8),
            ("olia", "Uninett", "Telenor"): (0.03, 73.1),
            ("olia", "Uninett", "Uninett"): (0.44, 37.4),
        },
    ),
    "uib-hin": dict(
        section="VI-B",
        table="Table III",
        bulk_figure="Figure 8",
        small_figure="Figure 9",
        server="UiB",
        client="HiN",
        rows={
            ("cubic", "BKK", "Broadnet"): (-0.01, 46.7),
            ("cubic", "BKK", "PowerTech"): (0.02, 55.3),
            ("cubic", "BKK", "Uninett"): (-0.06, 61.1),
            ("cubic", "Uninett", "Broadnet"): (0.04, 40.8),
            ("cubic", "Uninett", "PowerTech"): (0.00, 50.5),
            ("cubic", "Uninett", "Uninett"): (0.57, 24.3),
            ("olia", "BKK", "Broadnet"): (-0.02, 45.4),
            ("olia", "BKK", "PowerTech"): (-0.01, 53.7),
            ("olia", "BKK", "Uninett"): (-0.04, 24.3),
            ("olia", "Uninett", "Broadnet"): (-0.02, 38.6),
            ("olia", "Uninett", "PowerTech"): (-0.04, 41.4),
            ("olia", "Uninett", "Uninett"): (0.25, 22.4),
        },
    ),
    "uib-hu": dict(
        section="VI-C",
        table="Table IV",
        bulk_figure="Figure 10",
        small_figure="Figure 11",
        server="UiB",
        client="HU",
        rows={
            ("cubic", "BKK", "CERNET"): (-0.00, 411.3),
            ("cubic", "BKK", "CnUnicom"): (-0.05, 346.2),
            ("cubic", "Uninett", "CERNET"): (0.55, 353.0),
            ("cubic", "Uninett", "CnUnicom"): (-0.18, 316.4),
            ("olia", "BKK", "CERNET"): (0.22, 413.1),
            ("olia", "BKK", "CnUnicom"): (-0.23, 345.7),
            ("olia", "Uninett", "CERNET"): (0.53, 325.7),
            ("olia", "Uninett", "CnUnicom"): (-0.23, 315.8),
        },
    ),
}
PAPER_FIELDS = ("section", "table", "bulk_figure", "small_figure", "server", "client")
PAPER_CCS = ("cubic", "olia")  # a template may name them before their runs are in the data
# The claims a page can give a verdict on: (test, the direction the claim says PCDC's value
# differs in: 1 higher, -1 lower, None steadier, whether the claim is "no difference")
CLAIMS = {
    "bulk": ("bulk", 1, False),  # PCDC's bulk throughput higher
    "bulk-lower": ("bulk", -1, False),
    "bulk-same": ("bulk", 1, True),
    "small": ("small", -1, False),  # PCDC's completion times lower (faster)
    "small-slower": ("small", 1, False),
    "small-same": ("small", -1, True),
    "steady": ("spread", None, False),  # PCDC's completion times steadier
    "steady-same": ("spread", None, True),
}
RUN_FILE = re.compile(r"run([1-9][0-9]*)\.csv")
SCENARIO_NAME = re.compile(r"[a-z0-9][a-z0-9-]*")  # a directory and a page name


# ---------------------------------------------------------------------------------------------
# Rows, checks and the import


def parse_row(r, where):
    """A driver row with typed fields; ReportError naming where for what is malformed."""
    if r["experiment"] != "pcdc":
        raise ReportError(f"{where}: experiment {r['experiment']!r} is not pcdc")
    if r["pm"] not in PMS or r["test"] not in ("bulk", "small"):
        raise ReportError(f"{where}: unknown mode or test {r['pm']!r}, {r['test']!r}")
    if not r["cc"].isidentifier():
        raise ReportError(f"{where}: bad congestion control {r['cc']!r}")
    out = dict(r)
    if r["test"] == "bulk":
        if r["size_bytes"]:
            raise ReportError(f"{where}: a bulk row with size_bytes {r['size_bytes']!r}")
        out["size"] = None
    else:
        out["size"] = shared.number(r["size_bytes"], int, where, "size_bytes")
        if out["size"] <= 0:
            raise ReportError(f"{where}: size_bytes must be positive")
    for col, kind in (("run", int), ("hint", int), ("subflows", int), ("bytes", int)):
        out[col] = shared.number(r[col], kind, where, col)
    for col in ("seconds", "mbps"):
        out[col] = shared.number(r[col], float, where, col)
    if out["seconds"] <= 0 or out["run"] < 1:
        raise ReportError(f"{where}: seconds and run must be positive")
    out["where"] = where
    out["raw"] = r  # what the import copies, as the driver wrote it
    return out


def check_rows(rows):
    """ReportError (one line) unless every row is ok, all are of one code version and no
    transfer (cc, mode, test, size, run) appears twice."""
    if not rows:
        raise ReportError("no rows")
    for r in rows:
        if r["status"] != "ok":
            raise ReportError(f"{r['where']}: status {r['status']!r} is not ok")
    versions = {}
    for r in rows:
        versions[r["code_version"]] = versions.get(r["code_version"], 0) + 1
    if len(versions) > 1:
        what = ", ".join(f"{v} ({n} rows)" for v, n in sorted(versions.items()))
        raise ReportError(f"rows of more than one code version: {what}; use one version's runs")
    seen = {}
    for r in rows:
        key = (r["cc"], r["pm"], r["test"], r["size"], r["run"])
        if key in seen:
            raise ReportError(f"{r['where']}: the same transfer as {seen[key]}")
        seen[key] = r["where"]


def coverage(rows):
    """({(cc, test, size, pm): runs}, most runs of any cell) over every cell the rows imply:
    each cc with each mode, bulk and every size found."""
    ccs = sorted({r["cc"] for r in rows})
    sizes = sorted({r["size"] for r in rows if r["size"] is not None})
    cells = {(cc, "bulk", None, pm): set() for cc in ccs for pm in PMS}
    cells.update({(cc, "small", s, pm): set() for cc in ccs for s in sizes for pm in PMS})
    for r in rows:
        cells[(r["cc"], r["test"], r["size"], r["pm"])].add(r["run"])
    counts = {k: len(v) for k, v in cells.items()}
    return counts, max(counts.values(), default=0)


def cell_name(cc, test, size, pm):
    return f"{cc}/{pm}/{test}" + ("" if size is None else f"/{size // KIB} KiB")


def partial_cells(rows):
    """[(cell name, runs)] of the cells with fewer runs than the most any has, and that most."""
    counts, most = coverage(rows)
    return [
        (cell_name(*k), n) for k, n in sorted(counts.items(), key=_cell_order) if n < most
    ], most


def _cell_order(item):
    (cc, test, size, pm), _ = item
    return (cc, test, size or 0, PMS.index(pm))


def read_scenario(path, rate_scale):
    """The scenario document with its rates and volatile pairs checked
    (experiment.load_network)."""
    try:
        experiment.load_network(path, rate_scale)
        with open(path, encoding="utf-8") as f:
            doc = json.load(f)
    except (OSError, ValueError) as e:
        raise ReportError(f"scenario {e}") from None
    if not isinstance(doc.get("name"), str) or not SCENARIO_NAME.fullmatch(doc["name"]):
        raise ReportError(f"scenario {path}: its name must match {SCENARIO_NAME.pattern}")
    return doc


def pair_names(scenario):
    """{(client address, server address): "<server ISP>-<client ISP>"}: the paper names a pair
    from the sender (UiB, the server here) to the receiver (UNIS, the client)."""
    return {
        (netns.client_addr(k), netns.server_addr(j)): f"{s.get('isp', f's{j}')}-"
        f"{c.get('isp', f'c{k}')}"
        for k, c in enumerate(scenario["client"])
        for j, s in enumerate(scenario["server"])
    }


def read_table(path, scenario, where=None):
    """(document, {pair: (mean Omega, mean RTT)}) of an impact-factor table whose pairs are the
    scenario's; ReportError otherwise."""
    where = where or path
    try:
        means = impact.load_table(path)
        with open(path, encoding="utf-8") as f:
            doc = json.load(f)
    except ValueError as e:
        raise ReportError(f"impact factors {e}") from None
    names = pair_names(scenario)
    for p in doc["pairs"]:
        if (p["local"], p["remote"]) not in names:
            raise ReportError(
                f"{where}: pair {p['local']} > {p['remote']} is not one of the scenario's"
            )
    return doc, means


def network(scenario, rate_scale=None):
    """The experiment.Network of a scenario document (rate_scale: the document's own, as the
    data directory's scenario.json records it, unless given)."""
    scale = scenario.get("rate_scale", 1.0) if rate_scale is None else rate_scale
    try:
        return experiment.network_of(scenario, "scenario", scale)
    except ValueError as e:
        raise ReportError(str(e)) from None


def cell_key(pm, test, run):
    """A cell's key in a <cc>-volatile.json document."""
    return f"{pm}/{test}/{run}"


def check_record(rec, where, key, pairs):
    """ReportError naming where unless rec is the record (netns.Volatility) of a schedule key
    over the scenario's volatile pairs that was applied without error."""

    def bad(why):
        raise ReportError(f"{where}: {why}")

    if not isinstance(rec, dict) or rec.get("schema") != netns.SCHEMA:
        bad(f"not a {netns.SCHEMA} record")
    if rec.get("key") != key:
        bad(f"schedule key {rec.get('key')!r}, want {key!r} (scenario seed/run/test)")
    if rec.get("error"):
        bad(f"the schedule was not applied: {rec['error']}")
    try:
        stopped = float(rec["stopped_at"])
        if len(rec["pairs"]) != len(pairs):
            bad(f"{len(rec['pairs'])} volatile pairs, the scenario has {len(pairs)}")
        for i, (p, e) in enumerate(zip(pairs, rec["pairs"], strict=True)):
            want = {"client": p.addrs[0], "server": p.addrs[1], "good_rate": p.good_rate,
                    "bad_rate": p.bad_rate, "mean_good_s": p.mean_good_s,
                    "mean_bad_s": p.mean_bad_s, "key": f"{key}/{i}"}  # fmt: skip
            got = {k: e[k] for k in want}
            if got != want:
                what = ", ".join(f"{k} {got[k]!r}" for k in want if got[k] != want[k])
                bad(f"pair {i} is not the scenario's ({what})")
            last = 0.0
            for sw in e["switches"]:
                at = float(sw["at"])
                if sw["state"] not in netns.STATES or sw["rate"] != p.rate(sw["state"]):
                    bad(f"pair {i}: switch at {at} s to {sw['state']!r} at {sw['rate']!r}")
                if not last <= at <= stopped:
                    bad(f"pair {i}: switch at {at} s out of order")
                last = at
        for w in rec["windows"]:
            if not isinstance(w["name"], str) or not 0 <= w["from"] <= w["to"] <= stopped:
                bad(f"window {w!r} outside the schedule's 0-{stopped} s")
    except (KeyError, TypeError, ValueError) as e:
        bad(f"malformed record ({type(e).__name__}: {e})")


def bulk_window(rec):
    """(from, to) of the bulk transfer in a cell's record, None when it has none."""
    wins = [(w["from"], w["to"]) for w in rec["windows"] if w["name"] == "bulk"]
    return wins[0] if len(wins) == 1 else None


def check_records(doc, where, cc, rows, scenario):
    """ReportError unless doc, the <cc>-volatile.json document {"measure": record, "cells":
    {cell_key: record}}, has the record of the measurement and of every cell of cc in rows,
    each of its schedule key (netns.test_key), and nothing else."""
    net = network(scenario)
    if not isinstance(doc, dict) or sorted(doc) != ["cells", "measure"]:
        raise ReportError(f'{where}: want {{"measure": record, "cells": {{...}}}}')
    check_record(doc["measure"], f"{where} measure", netns.test_key(net.seed, 0, "measure"),
                 net.volatile)  # fmt: skip
    cells = {(r["pm"], r["test"], r["run"]) for r in rows if r["cc"] == cc}
    keys = {cell_key(*c) for c in cells}
    if not isinstance(doc["cells"], dict) or set(doc["cells"]) != keys:
        extra = sorted(set(doc["cells"]) - keys) if isinstance(doc["cells"], dict) else []
        missing = sorted(keys - set(doc["cells"])) if isinstance(doc["cells"], dict) else []
        raise ReportError(f"{where}: records of cells {extra} without rows, none of {missing}")
    for pm, test, run in sorted(cells):
        rec = doc["cells"][cell_key(pm, test, run)]
        here = f"{where} {cell_key(pm, test, run)}"
        check_record(rec, here, netns.test_key(net.seed, run, test), net.volatile)
        if test == "bulk" and bulk_window(rec) is None:
            raise ReportError(f"{here}: no window of the bulk transfer")


def read_records(src, rows, tables, scenario):
    """{cc: <cc>-volatile.json document} of the driver's volatile records (run<N>.volatile.json
    beside each result file, table.volatile.json beside the table), checked; {} for a scenario
    without volatile pairs, which must have no records."""
    found = sorted(glob.glob(os.path.join(src, "*", "*.volatile.json")))
    found += sorted(glob.glob(os.path.join(src, "*", "*", "*", "*.volatile.json")))
    if not network(scenario).volatile:
        if found:
            rel = os.path.relpath(found[0], src)
            raise ReportError(f"{rel}: a volatile record, but the scenario has no volatile pair")
        return {}

    def read(path):
        doc = files.read_json(path)
        if doc is None:
            rel = os.path.relpath(path, src)
            raise ReportError(f"{rel} missing or not JSON: the scenario has volatile pairs")
        return doc

    out = {}
    for cc in sorted(tables):
        cells = {}
        for r in rows:
            if r["cc"] == cc:
                path = experiment.cell_path(src, cc, r["pm"], r["test"], r["run"])
                key = cell_key(r["pm"], r["test"], r["run"])
                cells[key] = cells.get(key) or read(experiment.volatile_path(path))
        doc = {"measure": read(experiment.volatile_path(tables[cc])), "cells": cells}
        check_records(doc, f"{cc} volatile records", cc, rows, scenario)
        out[cc] = doc
    return out


def read_source(src, scenario):
    """(rows, {cc: table path}) of the driver's output directory, checked."""
    paths = sorted(glob.glob(os.path.join(src, "*", "*", "*", "run*.csv")))
    if not paths:
        raise ReportError(f"{src}: no <cc>/<mode>/<test>/run<N>.csv files")
    rows = []
    for path in paths:
        rel = os.path.relpath(path, src)
        cc, pm, test, name = rel.split(os.sep)
        m = RUN_FILE.fullmatch(name)
        if not m:
            raise ReportError(f"{rel}: not a run<N>.csv name")
        raw = shared.read_csv(path, COLUMNS)
        if not raw:
            raise ReportError(f"{rel}: no rows")
        for line, r in raw:
            row = parse_row(r, f"{rel}:{line}")
            if (row["cc"], row["pm"], row["test"], row["run"]) != (cc, pm, test, int(m[1])):
                raise ReportError(f"{rel}:{line}: the row is not of {cc}/{pm}/{test} run {m[1]}")
            rows.append(row)
    check_rows(rows)
    tables = {}
    for cc in sorted({r["cc"] for r in rows}):
        path = os.path.join(src, cc, "table.json")
        if not os.path.exists(path):
            raise ReportError(f"{cc}/table.json missing: the runs' impact factors are needed")
        read_table(path, scenario, f"{cc}/table.json")
        tables[cc] = path
    return rows, tables


def _row_order(r):
    return (r["cc"], r["test"], r["size"] or 0, PMS.index(r["pm"]), r["run"])


def import_runs(src, root, scenario_path, rate_scale, log=print):
    """Copies the driver's output in src into the scenario's data directory under the data
    root (module docstring); ReportError and nothing written when it is not fit."""
    if not os.path.isdir(src):
        raise ReportError(f"{src}: no such directory")
    scenario = dict(read_scenario(scenario_path, rate_scale), rate_scale=rate_scale)
    data = experiment.published(root, scenario["name"]).data
    rows, tables = read_source(src, scenario)
    records = read_records(src, rows, tables, scenario)
    out = {}
    for cc in sorted(tables):
        mine = sorted((r for r in rows if r["cc"] == cc), key=_row_order)
        text = shared.csv_text((r["raw"] for r in mine), COLUMNS)
        out[experiment.published_rows(data, cc)] = text
        with open(tables[cc], "rb") as f:
            out[experiment.published_table(data, cc)] = f.read()
        if cc in records:
            out[experiment.published_volatile(data, cc)] = files.json_text(records[cc])
    rel = os.path.relpath(os.path.abspath(scenario_path), REPO)
    doc = dict(scenario, file=rel if not rel.startswith("..") else os.path.basename(rel))
    doc["rate_scale"] = rate_scale
    out[experiment.published_scenario(data)] = files.json_text(doc)
    old = [
        p for p in sorted(glob.glob(os.path.join(data, "*"))) if os.path.isfile(p) and p not in out
    ]
    for path, b in out.items():
        files.write_atomic(path, b)
    for p in old:
        os.unlink(p)
        log(f"{WHO}: removed {os.path.basename(p)} (not in this import)")
    version = rows[0]["code_version"]
    runs = {cc: len({r["run"] for r in rows if r["cc"] == cc}) for cc in tables}
    log(
        f"{WHO}: {len(rows)} rows of code version {version} ("
        + ", ".join(f"{cc} {plural(n, 'run')}" for cc, n in runs.items())
        + f") into {os.path.relpath(data, REPO)}"
    )
    partial, most = partial_cells(rows)
    for name, n in partial:
        log(f"{WHO}: partial: {name} has {n} of {most} runs")
    log(f"{WHO}: now run `{COMMAND}` and commit {os.path.relpath(data, REPO)} with the page")
    return rows


def export_runs(data, dest, log=print):
    """Writes the committed data of one scenario back as the driver's output in dest, the
    inverse of import_runs: every run's result files, each control's table and, with volatile
    pairs, their records; so a sweep started on one machine goes on on another (run the driver
    on dest at the data's code version: it keeps the cells it finds and makes the others).
    ReportError and nothing written when the data do not load or dest holds a file it would
    write."""
    rows, _scenario, tables, volatile = load(data)
    out = {}
    cells = {}
    for r in rows:
        cells.setdefault((r["cc"], r["pm"], r["test"], r["run"]), []).append(r["raw"])
    for (cc, pm, test, run), raw in sorted(cells.items()):
        path = experiment.cell_path(dest, cc, pm, test, run)
        out[path] = shared.csv_text(raw, COLUMNS)
        if cc in volatile:
            rec = volatile[cc]["cells"][cell_key(pm, test, run)]
            out[experiment.volatile_path(path)] = files.json_text(rec)
    for cc in tables:
        table = experiment.table_path(dest, cc)
        with open(experiment.published_table(data, cc), "rb") as f:
            out[table] = f.read()
        if cc in volatile:
            out[experiment.volatile_path(table)] = files.json_text(volatile[cc]["measure"])
    there = [p for p in out if os.path.exists(p)]
    if there:
        raise ReportError(f"{there[0]} exists: export into a new directory")
    for path, b in out.items():
        files.write_atomic(path, b)
    n = len({(r["cc"], r["run"]) for r in rows})
    log(f"{WHO}: {len(cells)} cells ({n} runs of {', '.join(sorted(tables))}) of "
        f"{os.path.relpath(data, REPO)} into {dest}")  # fmt: skip
    return out


# ---------------------------------------------------------------------------------------------
# The committed data and their statistics


@dataclass(frozen=True)
class Summary:
    """One cell and path manager over its runs."""

    values: tuple
    iv: object  # stats.Interval
    subflows: tuple

    def field(self, name):
        v = self.values
        if not v:
            return None
        q10, q90 = impact.quantile(v, 0.1), impact.quantile(v, 0.9)
        sd = statistics.stdev(v) if len(v) > 1 else None
        return {
            "mean": self.iv.mean,
            "ci": self.iv.half,
            "lo": self.iv.lo,
            "hi": self.iv.hi,
            "min": min(v),
            "max": max(v),
            "median": impact.quantile(v, 0.5),
            "q10": q10,
            "q90": q90,
            "range": q90 - q10,
            "cv": None if sd is None or self.iv.mean == 0 else 100 * sd / self.iv.mean,
        }[name]


@dataclass
class Data:
    rows: list
    scenario: dict
    tables: dict  # cc -> (document, {pair: (mean Omega, mean RTT)})
    ccs: list
    sizes: list  # bytes
    cells: dict  # (cc, test, size) -> {pm: Summary}
    location: dict  # (cc, test, size) -> stats.Comparison (PCDC is ref)
    spread: dict  # (cc, size) -> stats.Spread
    partial: list
    most: int
    network: object  # experiment.Network of the scenario
    volatile: dict  # cc -> <cc>-volatile.json document ({} without volatile pairs)


def load(data):
    """(rows, scenario, tables, volatile records) of the committed data, checked as the import
    checks them; ReportError otherwise."""
    spath = experiment.published_scenario(data)
    scenario = files.read_json(spath)
    if not isinstance(scenario, dict) or "client" not in scenario or "server" not in scenario:
        raise ReportError(f"{os.path.relpath(spath, REPO)}: missing or not a scenario")
    rows, tables = [], {}
    for path in sorted(glob.glob(os.path.join(data, "*.csv"))):
        cc = os.path.basename(path)[: -len(".csv")]
        rel = os.path.relpath(path, REPO)
        for line, r in shared.read_csv(path, COLUMNS):
            row = parse_row(r, f"{rel}:{line}")
            if row["cc"] != cc:
                raise ReportError(f"{rel}:{line}: a {row['cc']} row in the {cc} file")
            rows.append(row)
        tpath = experiment.published_table(data, cc)
        if not os.path.exists(tpath):
            raise ReportError(f"{os.path.relpath(tpath, REPO)} missing")
        tables[cc] = read_table(tpath, scenario, os.path.relpath(tpath, REPO))
    check_rows(rows)
    volatile = {}
    if network(scenario).volatile:
        for cc in tables:
            vpath = experiment.published_volatile(data, cc)
            rel = os.path.relpath(vpath, REPO)
            doc = files.read_json(vpath)
            if doc is None:
                raise ReportError(f"{rel} missing or not JSON: the scenario has volatile pairs")
            check_records(doc, rel, cc, rows, scenario)
            volatile[cc] = doc
    return rows, scenario, tables, volatile


def summarise(rows, scenario, tables, volatile=None):
    from mpqoe import stats  # scipy: not needed by the import, which may run without it

    ccs = sorted({r["cc"] for r in rows})
    sizes = sorted({r["size"] for r in rows if r["size"] is not None})
    keys = [(cc, "bulk", None) for cc in ccs] + [(cc, "small", s) for cc in ccs for s in sizes]
    cells = {}
    for key in keys:
        cells[key] = {}
        for pm in PMS:
            mine = sorted(
                (r for r in rows if (r["cc"], r["test"], r["size"], r["pm"]) == (*key, pm)),
                key=lambda r: r["run"],
            )
            vals = tuple(r["mbps"] if key[1] == "bulk" else 1000 * r["seconds"] for r in mine)
            cells[key][pm] = Summary(vals, stats.mean_ci(vals), tuple(r["subflows"] for r in mine))
    loc = stats.holm_adjusted(
        stats.compare("pcdc", "fullmesh", cells[k]["pcdc"].values, cells[k]["fullmesh"].values)
        for k in keys
    )
    small = [k for k in keys if k[1] == "small"]
    spr = stats.holm_adjusted(
        stats.compare_spread(
            "pcdc", "fullmesh", cells[k]["pcdc"].values, cells[k]["fullmesh"].values
        )
        for k in small
    )
    partial, most = partial_cells(rows)
    return Data(
        rows,
        scenario,
        tables,
        ccs,
        sizes,
        cells,
        dict(zip(keys, loc, strict=True)),
        {(cc, s): t for (cc, _, s), t in zip(small, spr, strict=True)},
        partial,
        most,
        network(scenario),
        volatile or {},
    )


def optional_sets(means):
    """(P, standby) of {pair: (mean Omega, mean RTT)} as the daemon decides them."""
    return policy.optional_set({q: policy.PairStats(om, rtt) for q, (om, rtt) in means.items()})


def table_sets(table):
    """(P, standby) of a (document, means) table; a pair without a sample is standby, as in
    the daemon."""
    doc, means = table
    p, standby = optional_sets(means)
    unmeasured = [(e["local"], e["remote"]) for e in doc["pairs"] if not e["omega"]]
    return p, sorted(standby + unmeasured)


def paper_table(scenario, cc):
    """{(server ISP, client ISP): (Omega mean, RTT)} of the paper's table of scenario (a name)
    for cc, {} when the paper has none."""
    rows = PAPER.get(scenario, {}).get("rows", {})
    return {(f, t): v for (c, f, t), v in rows.items() if c == cc}


def paper_sets(scenario, cc):
    """(P, standby) of the paper's table of scenario for cc, pairs as (server ISP, client ISP);
    None when the paper has none."""
    table = paper_table(scenario, cc)
    return optional_sets(table) if table else None


def verdict(test, sign, same=False):
    """The verdict on a claim that PCDC's value is higher (sign 1) or lower (sign -1), or for a
    Spread that PCDC is steadier (sign None). With same, the claim is the paper's "no (or not
    much) difference": a significant difference disagrees and says which way, none is
    "consistent (not significant)" (which is no evidence of equality)."""
    if not test.tested:
        return f"not tested ({test.reason})"
    if not test.sig:
        return "consistent (not significant)" if same else "not significant"
    if sign is None:
        better = test.dev_ref < test.dev_other
    else:
        better = test.diff * sign > 0
    if same:
        way = {None: ("steadier", "less steady"), 1: ("higher", "lower"), -1: ("lower", "higher")}
        return f"disagrees (PCDC {way[sign][0 if better else 1]})"
    return "agrees" if better else "disagrees"


def verdict_over_sizes(verdicts):
    """A claim's verdict over the sizes from [(size, verdict)], e.g. "agrees at 128, 256 KiB;
    not significant at 512 KiB", or "agrees at every size"."""
    groups = {}
    for size, v in verdicts:
        groups.setdefault(v, []).append(str(size // KIB))
    if len(groups) == 1:
        return f"{next(iter(groups))} at every size"
    order = ["agrees", "disagrees", "not significant", "consistent"]

    def rank(v):
        head = v.split(" (")[0]
        return (order.index(head) if head in order else len(order), v)

    keys = sorted(groups, key=rank)
    return "; ".join(f"{v} at {', '.join(groups[v])} KiB" for v in keys)


# ---------------------------------------------------------------------------------------------
# Text


def mbit(rate):
    return netns.rate_bits(rate) / 1e6


def fmt_mbit(v):
    """A rate in Mbit/s with as many decimals as it needs to show (100, 2.5, 0.20)."""
    return fmt(v, 0 if v >= 10 else 1 if v >= 1 else 2)


def capacity(d):
    """Mbit/s that can reach the client: the smaller of the sums of either side's rates."""
    scale = d.scenario.get("rate_scale", 1.0)
    return scale * min(
        sum(mbit(x["rate"]) for x in d.scenario[side]) for side in ("client", "server")
    )


def version_text(d):
    return shared.short(d.rows[0]["code_version"])


def status_text(d):
    runs = f"{plural(d.most, 'run')} per cell"
    s = f"{runs} ({', '.join(d.ccs)}), {len(d.rows)} transfers, code version {version_text(d)}"
    missing = [cc for cc in PAPER_CCS if cc not in d.ccs]
    if missing:
        s += f"; **no runs of {', '.join(missing)}**"
    if d.partial:
        what = ", ".join(f"{name} {n}" for name, n in d.partial)
        return f"{s}; **partial**: cells with fewer runs: {what}"
    return s + ("" if missing else "; every cell complete")


def plural(n, word):
    return f"{n} {word}" + ("" if n == 1 else "s")


def runs_text(d, n):
    return f"{n} (partial)" if n < d.most else str(n)


def subflows_text(s):
    if not s.subflows:
        return "-"
    lo, hi = min(s.subflows), max(s.subflows)
    return str(lo) if lo == hi else f"{lo}-{hi}"


def value_cell(s, dec):
    if not s.values:
        return "-"
    return fmt(s.iv.mean, dec) + (f" ± {fmt(s.iv.half, dec)}" if s.iv.half is not None else "")


def pairs_text(pairs, names):
    return ", ".join(names.get(q, f"{q[0]}>{q[1]}") for q in pairs) or "none"


def scenario_table(d):
    scale = d.scenario.get("rate_scale", 1.0)
    paper = PAPER.get(d.scenario.get("name"))
    server, client = (
        (f", the paper's {paper[s]}" for s in ("server", "client")) if paper else ("", "")
    )
    out = [
        "| side | ISP | address | rate (Mbit/s) | one-way delay (ms) |",
        "|---|---|---|---:|---:|",
    ]
    for side, addr, label in (
        ("server", netns.server_addr, f"server (sender{server})"),
        ("client", netns.client_addr, f"client (receiver{client})"),
    ):
        for i, link in enumerate(d.scenario[side]):
            out.append(
                f"| {label} | {link.get('isp', '-')} | {addr(i)} | "
                f"{fmt_mbit(mbit(link['rate']) * scale)} | "
                f"{fmt(float(link.get('delay_ms', 0)), 2)} |"
            )
    return "\n".join(out)


def _delays(d):
    """{(client address, server address): RTT of the netem delays, ms}."""
    return {
        (netns.client_addr(k), netns.server_addr(j)): 2
        * (float(c.get("delay_ms", 0)) + float(s.get("delay_ms", 0)))
        for k, c in enumerate(d.scenario["client"])
        for j, s in enumerate(d.scenario["server"])
    }


def impact_table(d):
    names = pair_names(d.scenario)
    head = [
        "CC",
        "pair (from-to ISP)",
        "client > server",
        "samples",
        "Ω mean",
        "± 95 %",
        "median",
        "min",
        "max",
        "10 %",
        "90 %",
        "RTT (ms)",
        "netem RTT (ms)",
        "P / standby",
        "paper Ω mean",
        "paper RTT (ms)",
    ]
    out = ["| " + " | ".join(head) + " |", "|---|---|---|" + "---:|" * 10 + "---|---:|---:|"]
    netem = _delays(d)
    for cc in d.ccs:
        doc, _means = d.tables[cc]
        p, _standby = table_sets(d.tables[cc])
        for e in sorted(doc["pairs"], key=lambda e: names[(e["local"], e["remote"])]):
            q = (e["local"], e["remote"])
            name = names[q]
            role = f"P[{p.index(q)}]" if q in p else "standby"
            if not e["omega"]:
                role = "standby (no sample)"
            s = impact.summarize(e["omega"], e["rtt_ms"]) if e["omega"] else {}
            ref = paper_table(d.scenario.get("name"), cc).get(tuple(name.split("-", 1)))
            out.append(
                "| "
                + " | ".join(
                    [
                        cc,
                        name,
                        f"{q[0]} > {q[1]}",
                        str(len(e["omega"])),
                        *(
                            fmt(s.get(k), 2)
                            for k in ("mean", "ci95", "median", "min", "max", "q10", "q90")
                        ),
                        fmt(s.get("rtt_ms"), 1),
                        fmt(netem[q], 1),
                        role,
                        # as the paper prints it, "-0.00" (a small negative) included
                        f"{ref[0]:.2f}" if ref else "-",
                        fmt(ref[1], 1) if ref else "-",
                    ]
                )
                + " |"
            )
    return "\n".join(out)


def volatile_text(d):
    """The volatile pairs' model in words, with the rates the runs had."""
    net = d.network
    if not net.volatile:
        return "none"
    names = pair_names(d.scenario)
    out = []
    for p in net.volatile:
        cap = min(mbit(net.server[p.server][0]), mbit(net.client[p.client][0]))
        bad = mbit(p.bad_rate)
        out.append(
            f"{names[p.addrs]}: bad at {fmt(bad, 1)} Mbit/s ({fmt(100 * bad / cap, 0)} % of the "
            f"{fmt(cap, 0)} Mbit/s of its slower link) for exponential durations of mean "
            f"{p.mean_bad_s:g} s, good for durations of mean {p.mean_good_s:g} s (its tbf then "
            f"at the server link's {fmt(mbit(p.good_rate), 0)} Mbit/s, limiting nothing)"
        )
    return "; ".join(out) + f"; seed {net.seed}"


def _bad(rec, start=0.0, end=None):
    """[seconds in the bad state of each volatile pair] of a record between start and end."""
    end = rec["stopped_at"] if end is None else end
    return [netns.state_seconds(e["switches"], rec["stopped_at"], start, end) for e in rec["pairs"]]


def measure_bad_text(d, cc):
    """How the volatile pairs fared during cc's impact-factor measurement."""
    rec = d.volatile[cc]["measure"]
    total = rec["stopped_at"]
    out = []
    for e, bad in zip(rec["pairs"], _bad(rec), strict=True):
        drops = sum(sw["state"] == "bad" for sw in e["switches"])
        share = fmt(100 * bad / total, 0) if total else "-"
        out.append(f"{fmt(bad, 0)} of {fmt(total, 0)} s bad ({share} %), {drops} drops")
    return "; ".join(out)


def volatile_table(d):
    """Per run: each bulk test's seconds with a volatile pair in its bad state and the run's
    throughput, per congestion control and path manager; their means last."""
    if not d.network.volatile:
        return "No volatile pair in this scenario."
    bulk = {(r["cc"], r["pm"], r["run"]): r["mbps"] for r in d.rows if r["test"] == "bulk"}
    cols = [(cc, pm) for cc in d.ccs for pm in PMS]
    head = ["run"] + [f"{cc} {LABEL[pm]}: bad (s), Mbit/s" for cc, pm in cols]
    out = ["| " + " | ".join(head) + " |", "|---:|" + "---:|" * len(cols)]
    sums = {c: ([], []) for c in cols}
    for run in sorted({r["run"] for r in d.rows if r["test"] == "bulk"}):
        row = [str(run)]
        for cc, pm in cols:
            rec = d.volatile[cc]["cells"].get(cell_key(pm, "bulk", run))
            if rec is None or (cc, pm, run) not in bulk:
                row.append("-")
                continue
            bad = _bad(rec, *bulk_window(rec))
            sums[(cc, pm)][0].append(bad)
            sums[(cc, pm)][1].append(bulk[(cc, pm, run)])
            row.append(f"{' / '.join(fmt(b, 1) for b in bad)}, {fmt(bulk[(cc, pm, run)], 1)}")
        out.append("| " + " | ".join(row) + " |")
    row = ["mean"]
    for c in cols:
        bads, mbps = sums[c]
        if not bads:
            row.append("-")
            continue
        per_pair = [statistics.fmean(b[i] for b in bads) for i in range(len(bads[0]))]
        row.append(f"{' / '.join(fmt(b, 1) for b in per_pair)}, {fmt(statistics.fmean(mbps), 1)}")
    out.append("| " + " | ".join(row) + " |")
    return "\n".join(out)


def cell_table(d, test):
    unit, dec = ("Mbit/s", 1) if test == "bulk" else ("ms", 1)
    head = ["CC"] + (["size (KiB)"] if test == "small" else []) + ["path manager", "runs"]
    head += [f"mean ± 95 % ({unit})", "min", "10 %", "median", "90 %", "max", "CV (%)", "subflows"]
    head += ["PCDC - FullMesh", "p (Holm)", "p (perm.)", "Welch p", "verdict"]
    lead = 3 if test == "small" else 2
    out = [
        "| " + " | ".join(head) + " |",
        "|" + "---|" * lead + "---:|" * 10 + "---:|" * 3 + "---|",
    ]
    for (cc, t, size), by_pm in d.cells.items():
        if t != test:
            continue
        c = d.location[(cc, t, size)]
        for pm in PMS:
            s = by_pm[pm]
            row = [cc] + ([str(size // KIB)] if test == "small" else []) + [LABEL[pm]]
            row += [runs_text(d, len(s.values)), value_cell(s, dec)]
            row += [fmt(s.field(f), dec) for f in ("min", "q10", "median", "q90", "max")]
            row += [fmt(s.field("cv"), 1), subflows_text(s)]
            if pm == "pcdc":
                row += [
                    shared.fmt_diff(c.diff, dec),
                    fmt_p(c.p_holm) if c.tested else f"n/a ({c.reason})",
                    fmt_p(c.p_perm),
                    fmt_p(c.p_welch),
                    verdict(c, 1 if test == "bulk" else -1),
                ]
            else:
                row += [""] * 5
            out.append("| " + " | ".join(row) + " |")
    return "\n".join(out)


def spread_table(d):
    head = ["CC", "size (KiB)", "PCDC 10-90 % (ms)", "FullMesh 10-90 % (ms)", "PCDC CV (%)"]
    head += ["FullMesh CV (%)", "PCDC dev. (ms)", "FullMesh dev. (ms)", "p (Holm)", "p", "verdict"]
    out = ["| " + " | ".join(head) + " |", "|---|---:|" + "---:|" * 8 + "---|"]
    for (cc, size), t in d.spread.items():
        pc, fm = d.cells[(cc, "small", size)]["pcdc"], d.cells[(cc, "small", size)]["fullmesh"]
        out.append(
            "| "
            + " | ".join(
                [
                    cc,
                    str(size // KIB),
                    fmt(pc.field("range"), 1),
                    fmt(fm.field("range"), 1),
                    fmt(pc.field("cv"), 1),
                    fmt(fm.field("cv"), 1),
                    fmt(t.dev_ref, 1),
                    fmt(t.dev_other, 1),
                    fmt_p(t.p_holm) if t.tested else f"n/a ({t.reason})",
                    fmt_p(t.p),
                    verdict(t, None),
                ]
            )
            + " |"
        )
    return "\n".join(out)


# ---------------------------------------------------------------------------------------------
# Figures


def _bars(ax, groups, colors, labelled):
    """groups: [(x centre, {pm: Summary})]; one bar per path manager around each centre: the
    mean, thin min-max and thick 10-90 % bars (the paper's), and the 95 % t interval. Each
    legend entry once (labelled: the ones given already)."""
    width = 0.38

    def label(what):
        if what in labelled:
            return None
        labelled.add(what)
        return what

    for x, by_pm in groups:
        for j, pm in enumerate(PMS):
            s = by_pm[pm]
            if not s.values:
                continue
            xj = x + (j - 0.5) * width
            ax.bar(xj, s.iv.mean, width * 0.9, color=colors[pm], label=label(LABEL[pm]))
            ax.vlines(xj, s.field("min"), s.field("max"), color="tab:orange", lw=1,
                      label=label("min-max"))  # fmt: skip
            ax.vlines(xj, s.field("q10"), s.field("q90"), color="tab:red", lw=4,
                      label=label("10-90 %"))  # fmt: skip
            if s.iv.half is not None:
                ax.errorbar(xj + width / 4, s.iv.mean, yerr=s.iv.half, fmt="none", ecolor="black",
                            capsize=3, lw=1, label=label("mean, 95 % t interval"))  # fmt: skip


COLORS = {"pcdc": "tab:blue", "fullmesh": "tab:grey"}


def _legend(ax):
    """The path managers first, then the bars' meanings, outside the plot on the right."""
    handles, labels = ax.get_legend_handles_labels()
    order = [LABEL[pm] for pm in PMS] + ["mean, 95 % t interval", "10-90 %", "min-max"]
    pairs = sorted(zip(labels, handles, strict=True), key=lambda lh: order.index(lh[0]))
    ax.legend([h for _, h in pairs], [lab for lab, _ in pairs], fontsize=7, loc="upper left",
              bbox_to_anchor=(1.0, 1.0))  # fmt: skip


def cc_title(cc):
    return cc.upper() if cc == "olia" else cc.title()


def bulk_figure(plt, d):
    fig, ax = plt.subplots(figsize=(5.5, 3.6))
    _bars(ax, [(i, d.cells[(cc, "bulk", None)]) for i, cc in enumerate(d.ccs)], COLORS, set())
    ax.set_xticks(range(len(d.ccs)), [cc_title(cc) for cc in d.ccs])
    ax.set_ylabel("application payload throughput (Mbit/s)")
    ax.set_ylim(bottom=0)
    ax.grid(axis="y", alpha=0.3)
    _legend(ax)
    ax.set_title(f"Bulk ({bulk_seconds(d)} s): {plural(d.most, 'run')}", fontsize=9)
    return shared.png(plt, fig)


def small_figure(plt, d):
    fig, axes = plt.subplots(
        1, len(d.ccs), figsize=(max(4.5 * len(d.ccs), 5.5), 3.6), sharey=True, squeeze=False
    )
    for ax, cc in zip(axes[0], d.ccs, strict=True):
        groups = [(i, d.cells[(cc, "small", s)]) for i, s in enumerate(d.sizes)]
        _bars(ax, groups, COLORS, set())
        ax.set_xticks(range(len(d.sizes)), [str(s // KIB) for s in d.sizes])
        ax.set_xlabel("transfer size (KiB)")
        ax.set_title(cc_title(cc), fontsize=9)
        ax.grid(axis="y", alpha=0.3)
        ax.set_ylim(bottom=0)
    axes[0][0].set_ylabel("completion time (ms)")
    _legend(axes[0][-1])
    fig.suptitle(f"Small transfers: completion times, {plural(d.most, 'run')}", fontsize=9)
    return shared.png(plt, fig)


# ---------------------------------------------------------------------------------------------
# The page


def bulk_seconds(d):
    secs = [r["seconds"] for r in d.rows if r["test"] == "bulk"]
    return fmt(min(secs), 0) if secs else "-"


def hints_text(d):
    hints = {r["hint"] for r in d.rows if r["test"] == "small"}
    if hints == {1}:
        return "with size hints (the paper's PCDC is given the size)"
    if hints == {0}:
        return "without size hints (online classes only)"
    return "partly with size hints"


def resolver(d):
    from mpqoe import stats

    names = pair_names(d.scenario)
    sizes = {str(s // KIB): s for s in d.sizes}

    def cc_of(cc):
        if cc in d.ccs:
            return cc
        if cc in PAPER_CCS:
            raise NoRuns(cc)
        raise KeyError(f"no congestion control {cc!r} ({', '.join(d.ccs)})")

    def size_of(kib):
        if kib not in sizes:
            raise KeyError(f"no size {kib} KiB ({', '.join(sizes)})")
        return sizes[kib]

    def summary_field(s, fld, dec):
        if fld == "n":
            return str(len(s.values))
        if fld == "subflows":
            return subflows_text(s)
        try:
            return fmt(s.field(fld), 1 if fld == "cv" else dec)
        except KeyError:
            raise KeyError(f"unknown field {fld!r}") from None

    def pm_of(pm):
        if pm not in PMS:
            raise KeyError(f"unknown path manager {pm!r}")
        return pm

    def value(subject, metric, field, during):
        page.no_window(during, "the transfers' summaries")
        if metric == "bulk":
            cc, pm = split(subject, 2, "<cc>/<pm>", metric)
            return summary_field(d.cells[(cc_of(cc), "bulk", None)][pm_of(pm)], field, 1)
        if metric == "small":
            cc, kib, pm = split(subject, 3, "<cc>/<KiB>/<pm>", metric)
            cell = d.cells[(cc_of(cc), "small", size_of(kib))]
            return summary_field(cell[pm_of(pm)], field, 1)
        raise KeyError(f"no metric {metric!r} (bulk, small)")

    def cmp(subject, metric, field, during):
        page.no_window(during, "the transfers' summaries")
        if metric == "spread":
            return spread(subject, field)
        if metric == "bulk":
            (cc,) = split(subject, 1, "<cc>", metric)
            key, sign = (cc_of(cc), "bulk", None), 1
        elif metric == "small":
            cc, kib = split(subject, 2, "<cc>/<KiB>", metric)
            key, sign = (cc_of(cc), "small", size_of(kib)), -1
        else:
            raise KeyError(f"no comparison of {metric!r} (bulk, small, spread)")
        c = d.location[key]
        if field == "verdict":
            return verdict(c, sign)
        if field == "pct":
            fm = d.cells[key]["fullmesh"].iv.mean
            return "-" if c.diff is None or not fm else shared.fmt_diff(100 * c.diff / fm, 1) + " %"
        if field not in ("diff", "sig", "p", "p_raw", "welch"):
            raise KeyError(f"unknown field {field!r}")
        ps = {"p": c.p_holm, "p_raw": c.p_perm, "welch": c.p_welch}
        return shared.test_field(c, field, 1, ps, stats.ALPHA)

    def split(subject, n, form, metric):
        parts = subject.split("/")
        if len(parts) != n:
            raise KeyError(f"a subject of {metric} is {form}, not {subject!r}")
        return parts

    def spread(subject, fld):
        cc, kib = split(subject, 2, "<cc>/<KiB>", "spread")
        t = d.spread[(cc_of(cc), size_of(kib))]
        if fld == "verdict":
            return verdict(t, None)
        if fld in ("pcdc", "fullmesh"):
            return fmt(t.dev_ref if fld == "pcdc" else t.dev_other, 1)
        if fld == "sig":
            return ("yes" if t.sig else "no") if t.tested else "untested"
        if fld in ("p", "p_raw"):
            return fmt_p(t.p_holm if fld == "p" else t.p) if t.tested else f"n/a ({t.reason})"
        raise KeyError(f"unknown field {fld!r}")

    def verdict_of(subject, check):
        got = claim_verdict(subject)
        if check is not None and got != check:
            raise KeyError(f"the words it checks need {subject} {check}, the data give {got}")
        return "" if check is not None else got

    def claim_verdict(subject):
        claim, cc = split(subject, 2, "<claim>/<cc>", "verdict")
        cc = cc_of(cc)
        if claim in CLAIMS:
            test, sign, same = CLAIMS[claim]
            if test == "bulk":
                return verdict(d.location[(cc, "bulk", None)], sign, same)
            tests = d.location if test == "small" else d.spread
            key = (lambda s: (cc, "small", s)) if test == "small" else (lambda s: (cc, s))
            return verdict_over_sizes([(s, verdict(tests[key(s)], sign, same)) for s in d.sizes])
        if claim == "P":
            ours = [names[q] for q in table_sets(d.tables[cc])[0]]
            paper = paper_sets(d.scenario.get("name"), cc)
            if paper is None:
                return "no paper value"
            label = PAPER[d.scenario["name"]]["table"]
            return f"same as {label}" if ours == [f"{a}-{b}" for a, b in paper[0]] else "differs"
        raise KeyError(f"unknown claim {claim!r} ({', '.join(CLAIMS)}, P)")

    def sets(which):
        def resolve(cc):
            p, standby = table_sets(d.tables[cc_of(cc)])
            return pairs_text(p if which == "P" else standby, names)

        return resolve

    def paper_p(cc):
        paper = paper_sets(d.scenario.get("name"), cc_of(cc))
        return "-" if paper is None else ", ".join(f"{a}-{b}" for a, b in paper[0])

    def measure_of(cc, field):
        fld = field
        doc = d.tables[cc_of(cc)][0]
        if fld == "samples":
            counts = sorted({len(e["omega"]) for e in doc["pairs"]})
            return str(counts[0]) if len(counts) == 1 else f"{counts[0]}-{counts[-1]}"
        keys = {"T": "T_s", "warmup": "warmup_s", "settle": "settle_s"}
        if fld not in keys:
            raise KeyError(f"unknown field {fld!r}")
        return f"{doc[keys[fld]]:g}"

    def table(name):
        makers = {
            "scenario": scenario_table,
            "impact": impact_table,
            "bulk": lambda d: cell_table(d, "bulk"),
            "small": lambda d: cell_table(d, "small"),
            "spread": spread_table,
            "volatile": volatile_table,
        }
        if name not in makers:
            raise KeyError(f"unknown table {name!r} ({', '.join(makers)})")
        return makers[name](d)

    plain = {
        "status": lambda: status_text(d),
        "version": lambda: version_text(d),
        "ccs": lambda: ", ".join(d.ccs),
        "runs": lambda: str(d.most),
        "runs_text": lambda: plural(d.most, "run"),
        "sizes": lambda: ", ".join(str(s // KIB) for s in d.sizes),
        "bulk_seconds": lambda: bulk_seconds(d),
        "hints": lambda: hints_text(d),
        "rate_scale": lambda: f"{d.scenario.get('rate_scale', 1.0):g}",
        "scenario_name": lambda: str(d.scenario.get("name", "-")),
        "capacity": lambda: fmt_mbit(capacity(d)),
        "location_tests": lambda: str(sum(c.tested for c in d.location.values())),
        "min_runs": lambda: str(stats.MIN_RUNS),
        "alpha": lambda: f"{stats.ALPHA:g}",
        "spread_tests": lambda: str(sum(t.tested for t in d.spread.values())),
    }

    def or_na(f):
        def resolve(**args):
            try:
                return f(**args)
            except NoRuns as e:
                return f"n/a (no {e.args[0]} runs)"

        return resolve

    def paper_of(field):
        fld = field
        paper = PAPER.get(d.scenario.get("name"))
        if paper is None:
            raise KeyError(f"the paper has no scenario {d.scenario.get('name')!r}")
        if fld not in PAPER_FIELDS:
            raise KeyError(f"no field {fld!r} ({', '.join(PAPER_FIELDS)})")
        return paper[fld]

    def volatile_bad(cc):
        cc = cc_of(cc)
        if not d.network.volatile:
            return "none"
        return measure_bad_text(d, cc)

    def within(subjects, metric, bounds, field, runs, during):
        """The check behind words about the impact factors: the mean Omega of every pair the
        subjects <cc pattern>/<pair pattern> match lies in bounds."""
        page.no_window(during, "the impact measurements' means")
        if metric != "omega" or field != "mean" or runs is not None:
            raise KeyError("within checks the mean Omega here: <cc>/<pair> omega <lo>..<hi>")
        means = []
        for subject in subjects:
            ccp, pat = split(subject, 2, "<cc pattern>/<pair pattern>", "omega")
            for cc in [c for c in d.ccs if fnmatch.fnmatchcase(c, ccp)] or [cc_of(ccp)]:
                pairs = {names[(e["local"], e["remote"])]: e for e in d.tables[cc][0]["pairs"]}
                matched = sorted(n for n in pairs if fnmatch.fnmatchcase(n, pat))
                if not matched:
                    raise KeyError(f"no pair of {cc} matches {pat!r} ({', '.join(pairs)})")
                for name in matched:
                    e = pairs[name]
                    if not e["omega"]:
                        raise KeyError(f"{cc} {name} has no Omega sample")
                    mean = impact.summarize(e["omega"], e["rtt_ms"])["mean"]
                    means.append((f"{cc} {name}", mean))
        return shared.check_within(means, bounds.lo, bounds.hi, "Omega", 2)

    kinds = page.Kinds()
    for name, fn in (
        ("value", value),
        ("cmp", cmp),
        ("verdict", verdict_of),
        ("within", within),
        ("table", table),
    ):
        kinds.shared(name, or_na(fn))
    for name, params, fn in (
        ("paper", "field", paper_of),
        ("volatile-model", "", lambda: volatile_text(d)),
        ("volatile-bad", "cc", volatile_bad),
        ("optional", "cc", sets("P")),
        ("standby", "cc", sets("standby")),
        ("paperset", "cc", paper_p),
        ("measure", "cc field:samples|T|warmup|settle", measure_of),
    ):
        kinds.own(name, params, or_na(fn))
    for name, fn in plain.items():
        kinds.own(name, "", or_na(fn))
    return kinds


class NoRuns(Exception):
    """A congestion control of the paper that the data have no runs of (yet)."""


def build(where):
    """{path: bytes} of one scenario's page and its figures (an experiment.Published);
    ReportError on bad data or template (found before any figure is drawn)."""
    d = summarise(*load(where.data))
    kinds = resolver(d)
    text = page.render(page.read_template(where.template), kinds, where.template, WHO, COMMAND)
    plt = debian.pyplot(WHO)
    claims = kinds.claims.files(os.path.dirname(where.page))
    return {
        where.page: text.encode(),
        **{path: csv.encode() for path, csv in claims.items()},
        where.figure("bulk"): bulk_figure(plt, d),
        where.figure("small"): small_figure(plt, d),
    }


def build_all(root=ROOT, results=experiment.RESULTS):
    """(out, old) over every scenario with data under root: the pages and figures, and the
    figures they no longer make. ReportError for data without a template."""
    out, old = {}, []
    names = sorted(n for n in os.listdir(root) if os.path.isdir(experiment.published(root, n).data))
    for name in names:
        where = experiment.published(root, name, results)
        if not os.path.exists(where.template):
            rel = os.path.relpath(where.template, REPO)
            data = os.path.relpath(where.data, REPO)
            raise ReportError(f"{data}: no template {rel} for its page")
        mine = build(where)
        out.update(mine)
        old += stale(where.figures, mine)
    if not names:
        raise ReportError(f"{os.path.relpath(root, REPO)}: no <scenario>/data directory")
    return out, old


def stale(figures, out):
    if not os.path.isdir(figures):
        return []
    return [
        os.path.join(figures, f)
        for f in sorted(os.listdir(figures))
        if f.endswith(".png") and os.path.join(figures, f) not in out
    ]


def _import_options(ap):
    """The --import and --export modes of the command line (shared.report_cli's extend)."""
    ap.add_argument("--import", dest="source", metavar="DIR", help="the driver's output")
    ap.add_argument(
        "--export",
        metavar="DIR",
        help="write a scenario's data (by DIR's name) back as the driver's output in DIR",
    )
    ap.add_argument("--scenario", help="the scenario file it ran (default: by DIR's name)")
    ap.add_argument(
        "--rate-scale", type=float, default=1.0, help="mpqoe.pcdc.experiment --rate-scale"
    )

    def run(a):
        if a.export is not None:
            if a.source is not None or a.check:
                ap.error("--export takes neither --import nor --check")
            name = os.path.basename(os.path.normpath(a.export))
            try:
                export_runs(experiment.published(a.data, name).data, a.export)
            except ReportError as e:
                print(f"{WHO}: {e} (nothing written)", file=sys.stderr)
                return 1
            return 0
        if a.source is None:
            return None
        if a.check:
            ap.error("--check is for the page, not --import")
        if not a.rate_scale > 0:
            ap.error("--rate-scale must be positive")
        name = os.path.basename(os.path.normpath(a.source))
        scenario = a.scenario or os.path.join(HERE, "scenarios", f"{name}.json")
        try:
            import_runs(a.source, a.data, scenario, a.rate_scale)
        except ReportError as e:
            print(f"{WHO}: {e} (nothing written)", file=sys.stderr)
            return 1
        return 0

    return run


def _pages(root):
    out, old = build_all(root)
    return out, old, [], []


def main(argv=None):
    return shared.report_cli(
        argv, WHO, __doc__.splitlines()[0], ROOT, _pages, REPO, COMMAND, _import_options
    )


if __name__ == "__main__":
    sys.exit(main())
