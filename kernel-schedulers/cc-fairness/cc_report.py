#!/usr/bin/python3
"""Tables and results page of the congestion control fairness experiment.

    /usr/bin/python3 kernel-schedulers/cc-fairness/cc_report.py [--data DIR] [--check]

Reads only the committed per-run CSVs of cc_run.py (<data>/*.csv, default docs/results/cc/data)
and writes docs/results/cc/tables.md and docs/results/cc.md from the committed template
docs/results/cc.md.in (placeholders below), each atomically and only when changed; --check
writes nothing and exits 1 when a file differs from what the data give.

Per run: shared case, ratio = MPTCP goodput / regular TCP goodput and util_pct = both / the
bottleneck rate; disjoint case, agg_pct = MPTCP goodput / (sum of the two bottleneck rates)
and path<k>_pct = what left bottleneck k's queue (frame bytes, netem's measure) / its rate, in
runs that recorded it.
Per cell (case, algorithm): n runs, mean and 95 % Student t interval over the runs
(python/mpqoe/stats.py). Each coupled algorithm is compared with uncoupled reno
(exact two-sided permutation test on the difference of the means, Welch's p beside it, Holm
over the three algorithms) on each metric of COMPARED: the shared case's ratio, and on the
disjoint paths how much of each path was used (once runs have it). A cell keeps the runs of its
newest code version.

Placeholders (docs/results/placeholders.md; SUBJECT a cell <case>/<algo>, SUBJECTS a
comma-separated list of them, which within may write as shell patterns): {{value SUBJECT
METRIC [FIELD]}} (mean, ci, lo, hi, interval, n, as mpqoe.results.interval_field gives them);
{{verdict SUBJECT [check=met]}} (met / not met / no data against TARGETS; with check=, the
check behind "near one TCP flow's share": nothing when it is that, else an error); {{cmp
SUBJECT METRIC FIELD}} (the cell against uncoupled reno on a metric of COMPARED: p, p_raw,
welch, diff, sig, or a check of a hand-written word, higher, lower or same, mpqoe.results
check_words); {{within SUBJECTS METRIC LO..HI [FIELD] [runs=FIRST-LAST]}} and {{rising
SUBJECTS METRIC [FIELD]}} (checks of words of size and order over the cells' mean, interval
end lo / hi, half-width ci or run count n, or with runs= over each of those runs' values:
mpqoe.results check_within, check_rising); {{falling SUBJECTS METRIC EARLY LATE}} (nothing
when each cell's mean over the EARLY span of runs is above its mean over the LATE one);
{{table cells}}, {{status}}, {{kernel}} (the kernel every run recorded; runs on two kernels
are refused). The metrics are those of METRICS and, for runs=, RUN_ONLY (the disjoint case's
queue drops per path). The runs record whole-run goodput: a time window (during=) is an
error.
Exit 0 when done, 1 on malformed data, an unknown placeholder or (--check) a difference.
"""

import fnmatch
import glob
import os
import sys

from mpqoe import page, stats
from mpqoe import results as shared
from mpqoe.cc_fairness import CELLS, COLUMNS
from mpqoe.results import ReportError, fmt, fmt_p

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))


WHO = "cc-fairness/cc_report.py"
COMMAND = "/usr/bin/python3 -m mpqoe.report cc"
COUPLED = ("lia", "olia", "balia")
# (case, algo): (metric, low, high): the target the page judges
TARGETS = {
    **{("shared", a): ("ratio", 0.7, 1.3) for a in COUPLED},
    ("shared", "reno"): ("ratio", 1.6, 2.4),
    ("shared", "cubic"): ("ratio", 1.6, 2.4),
    **{("disjoint", a): ("agg_pct", 90.0, None) for a in (*COUPLED, "reno")},
}
# (case, metric): compared between each coupled algorithm and uncoupled reno, with a title
COMPARED = {
    ("shared", "ratio"): "shared bottleneck, MPTCP/TCP ratio",
    ("disjoint", "path1_pct"): "disjoint paths, 10 Mbit/s path used %",
    ("disjoint", "path2_pct"): "disjoint paths, 5 Mbit/s path used %",
}
METRICS = {
    "shared": [("ratio", 2), ("mptcp_mbps", 2), ("tcp_mbps", 2), ("util_pct", 1), ("cpu", 0)],
    "disjoint": [("agg_pct", 1), ("mptcp_mbps", 2), ("path1_pct", 1), ("path2_pct", 1), ("cpu", 0)],
}
# per-run values that only the checks of single runs read (runs:, runsfall:), with decimals
RUN_ONLY = {"disjoint": [("path1_drops", 0), ("path2_drops", 0)], "shared": []}
LABEL = {
    "ratio": "MPTCP/TCP",
    "mptcp_mbps": "MPTCP Mbit/s",
    "tcp_mbps": "TCP Mbit/s",
    "util_pct": "bottleneck used %",
    "agg_pct": "aggregate % of 15 Mbit/s",
    "path1_pct": "10 Mbit/s path used %",
    "path2_pct": "5 Mbit/s path used %",
    "cpu": "guest CPU %",
}


def load(data):
    rows = []
    for path in sorted(glob.glob(os.path.join(data, "*.csv"))):
        for line, r in shared.read_csv(path, COLUMNS, grown=True):
            where = f"{os.path.relpath(path, REPO)}:{line}"
            m = shared.number(r["mptcp_mbps"], float, where, "mptcp_mbps")
            v = {"mptcp_mbps": m, "cpu": shared.number(r["guest_cpu_pct"], float, where, "cpu")}
            if r["case"] == "shared":
                t = shared.number(r["tcp_mbps"], float, where, "tcp_mbps")
                rate = shared.number(r["rate1_mbps"], float, where, "rate1_mbps")
                v.update(tcp_mbps=t, ratio=m / t if t > 0 else None, util_pct=100 * (m + t) / rate)
            elif r["case"] == "disjoint":
                cap = shared.number(r["rate1_mbps"], float, where, "rate1_mbps") + shared.number(
                    r["rate2_mbps"], float, where, "rate2_mbps"
                )
                v["agg_pct"] = 100 * m / cap
                for k in (1, 2):  # not recorded before the queues were read: left out
                    if r[f"path{k}_mbps"]:
                        rate = shared.number(r[f"rate{k}_mbps"], float, where, f"rate{k}_mbps")
                        used = shared.number(r[f"path{k}_mbps"], float, where, f"path{k}_mbps")
                        v[f"path{k}_pct"] = 100 * used / rate
                        col = f"path{k}_drops"
                        v[col] = shared.number(r[col], int, where, col)
            else:
                raise ReportError(f"{where}: unknown case {r['case']!r}")
            rows.append(
                {
                    "cell": f"{r['case']}/{r['algo']}",
                    "run": int(shared.number(r["run"], int, where, "run")),
                    "status": "ok",
                    "code_version": r["code_version"],
                    "tcp_cc": r["tcp_cc"],
                    "kernel": r["kernel"],
                    "values": v,
                }
            )
    return rows


def summarise(rows):
    rows, dropped = stats.keep_newest(rows, shared.git_newest)
    cells = {}
    for case, algo, _ in CELLS:
        cell = f"{case}/{algo}"
        mine = [r for r in rows if r["cell"] == cell]
        out, runs, by_run = {}, {}, {}
        for metric, _ in METRICS[case] + RUN_ONLY[case]:
            by_run[metric] = stats.per_run(mine, lambda r, m=metric: r["values"].get(m)).get(
                cell, {}
            )
            runs[metric] = list(by_run[metric].values())
            out[metric] = stats.mean_ci(runs[metric])
        cells[cell] = {
            "metrics": out,
            "versions": sorted({r["code_version"] for r in mine}),
            "tcp_cc": mine[0]["tcp_cc"] if mine else "-",
            "runs": runs,
            "by_run": by_run,  # metric -> {run number: value}
        }
    cmps = {}
    for case, metric in COMPARED:
        samples = {
            a: cells[f"{case}/{a}"]["runs"][metric]
            for a in ("reno", *COUPLED)
            if cells[f"{case}/{a}"]["runs"][metric]
        }
        versions = {a: tuple(cells[f"{case}/{a}"]["versions"]) for a in samples}
        got = stats.compare_group("reno", samples, versions)
        cmps[(case, metric)] = {c.other: c for c in got}
    return cells, cmps, dropped


def judge(cells, case, algo):
    metric, lo, hi = TARGETS[(case, algo)]
    iv = cells[f"{case}/{algo}"]["metrics"][metric]
    if iv.n == 0:
        return "no data"
    ok = iv.mean >= lo and (hi is None or iv.mean <= hi)
    return "met" if ok else "not met"


def target_text(case, algo):
    metric, lo, hi = TARGETS[(case, algo)]
    return f"{LABEL[metric]} {lo:g}-{hi:g}" if hi is not None else f"{LABEL[metric]} >= {lo:g}"


def cell_text(iv, d):
    if iv.n == 0:
        return "-"
    return fmt(iv.mean, d) + (f" ± {fmt(iv.half, d)}" if iv.half is not None else "")


def table(cells, cmps):
    out = []
    for case, title in (("shared", "Shared bottleneck"), ("disjoint", "Disjoint paths")):
        # a metric that no run of the case recorded (added after its runs) gets no column
        algos = [a for c, a, _ in CELLS if c == case]
        ms = [
            (m, d)
            for m, d in METRICS[case]
            if any(cells[f"{case}/{a}"]["metrics"][m].n for a in algos)
        ]
        head = ["MPTCP algorithm", *(["TCP flow"] if case == "shared" else []), "runs"]
        head += [LABEL[m] for m, _ in ms] + ["target", "met"]
        out += [f"### {title}", "", "| " + " | ".join(head) + " |"]
        out.append("|" + "---|" * len(head))
        for c, algo, _ in CELLS:
            if c != case:
                continue
            cell = cells[f"{case}/{algo}"]
            n = cell["metrics"][ms[0][0]].n
            row = [algo + ("" if algo in COUPLED else " (uncoupled)")]
            row += [cell["tcp_cc"]] if case == "shared" else []
            row += [str(n)] + [cell_text(cell["metrics"][m], d) for m, d in ms]
            row += [target_text(case, algo), judge(cells, case, algo)]
            out.append("| " + " | ".join(row) + " |")
        out.append("")
    for (case, metric), title in COMPARED.items():
        if not cmps[(case, metric)] and case != "shared":
            continue  # a metric no run recorded yet
        d = dict(METRICS[case])[metric]
        out += [f"### Coupled against uncoupled reno ({title})", ""]
        out += ["| algorithm | diff (reno - algorithm) | p (Holm) | p (permutation) | Welch p |"]
        out.append("|---|---|---|---|---|")
        for a in COUPLED:
            c = cmps[(case, metric)].get(a)
            if c is None:
                out.append(f"| {a} | - | - | - | - |")
                continue
            out.append(
                f"| {a} | {shared.fmt_diff(c.diff, d)} | {fmt_p(c.p_holm) if c.tested else 'n/a'}"
                f" | {fmt_p(c.p_perm)} | {fmt_p(c.p_welch)} |"
            )
        out.append("")
    return "\n".join(out)


def cell_field(cells, subject, metric, fld="mean"):
    """A {{value <case>/<algo> <metric> [<field>]}} placeholder's text; KeyError naming what is
    wrong."""
    cell = cells.get(subject)
    case = subject.partition("/")[0]
    if cell is None or metric not in cell["metrics"]:
        raise KeyError(f"no cell {subject} with metric {metric}")
    return shared.interval_field(cell["metrics"][metric], fld, dict(METRICS[case])[metric])


def make(data):
    rows = load(data)
    kernel = shared.one_kernel(rows, os.path.relpath(data, REPO)) or "unrecorded"
    cells, cmps, dropped = summarise(rows)
    tab = table(cells, cmps)
    versions = sorted({v for c in cells.values() for v in c["versions"]})
    nruns = sum(c["metrics"][METRICS[k.split("/")[0]][0][0]].n for k, c in cells.items())
    status = f"{nruns} runs in {sum(1 for c in cells.values() if c['versions'])} cells"
    status += f", code version(s) {', '.join(versions) or 'none'}"
    if dropped:
        status += f"; {sum(n for _, _, n in dropped)} runs of older versions left out"
    src = os.path.join(REPO, "docs/results/cc.md.in")
    kinds = resolver(cells, cmps, {"status": status, "table": tab, "kernel": kernel})
    text = page.render(page.read_template(src), kinds, src, WHO, COMMAND)
    gen = f"<!-- Generated by {WHO} from {os.path.relpath(data, REPO)}: run {COMMAND} -->\n"
    return {
        os.path.join(REPO, "docs/results/cc/tables.md"): (gen + "## " + status + "\n\n" + tab),
        os.path.join(REPO, "docs/results/cc.md"): text,
    }


def resolver(cells, cmps, texts):
    """The kinds of the page's placeholders (mpqoe.page; the module's docstring) over the cells
    and comparisons of summarise; texts: the whole-page ones ({{status}}, {{kernel}},
    {{table cells}})."""
    what = "the fairness runs (goodput of seconds 5-30)"

    def value(subject, metric, field, during):
        page.no_window(during, what)
        return cell_field(cells, subject, metric, field)

    def verdict(subject, check):
        case, _, algo = subject.partition("/")
        if (case, algo) not in TARGETS:
            raise KeyError(f"no target for {subject}")
        got = judge(cells, case, algo)
        if check is None:
            return got
        if got != check:
            metric = TARGETS[(case, algo)][0]
            iv = cells[subject]["metrics"][metric]
            mean = "" if iv.n == 0 else f", mean {fmt(iv.mean, dict(METRICS[case])[metric])}"
            raise KeyError(
                f"the words it checks need {subject}'s target ({target_text(case, algo)})"
                f" {check}, the data give {got}{mean}"
            )
        return ""

    def matching(subjects):
        """(case, algo) of the cells the shell patterns <case>/<algo> match, in pattern order;
        KeyError for a pattern that matches none."""
        out = []
        for pat in subjects:
            names = [(c, a) for c, a, _ in CELLS if fnmatch.fnmatchcase(f"{c}/{a}", pat)]
            if not names:
                raise KeyError(f"no cell matches {pat!r}")
            out += names
        return out

    def decimals_of(case, metric, per_run=False):
        known = dict(METRICS.get(case, []) + (RUN_ONLY.get(case, []) if per_run else []))
        if metric not in known:
            raise KeyError(f"no {'per-run ' if per_run else ''}metric {metric!r} in case {case!r}")
        return known[metric]

    def values(subjects, metric, fld):
        """[(algo, its fld of metric)] of the cells the patterns match, and the decimals."""
        out, decimals = [], 0
        for case, a in matching(subjects):
            decimals = decimals_of(case, metric)
            iv = cells[f"{case}/{a}"]["metrics"][metric]
            out.append((a, shared.checked_value(iv, fld, f"{case}/{a} ({metric})")))
        return out, decimals

    def run_values(subjects, span, metric):
        """{algo: [(run, value)]} of the runs in span of the cells the patterns match, and the
        decimals; KeyError when one of those runs has no value."""
        out, decimals = {}, 0
        for case, name in matching(subjects):
            decimals = decimals_of(case, metric, per_run=True)
            got = cells[f"{case}/{name}"]["by_run"][metric]
            missing = [k for k in span if k not in got]
            if missing:
                raise KeyError(f"{case}/{name} has no {metric} of run(s) {missing}")
            out[name] = [(k, got[k]) for k in span]
        return out, decimals

    def within(subjects, metric, bounds, field, runs, during):
        page.no_window(during, what)
        if runs is not None:
            if field != "mean":
                raise KeyError("runs= checks the runs' values themselves: no field")
            got, decimals = run_values(subjects, runs, metric)
            each = [(f"{name} run {k}", v) for name, vs in got.items() for k, v in vs]
            return shared.check_within(
                each, bounds.lo, bounds.hi, metric, decimals, f"per-run {metric}"
            )
        got, decimals = values(subjects, metric, field)
        words = shared.checked_words(field, metric)
        return shared.check_within(got, bounds.lo, bounds.hi, metric, decimals, words)

    def rising(subjects, metric, field, during):
        page.no_window(during, what)
        if any(ch in s for s in subjects for ch in "*?["):
            raise KeyError("rising names cells, not patterns (their order is the order checked)")
        got, decimals = values(subjects, metric, field)
        return shared.check_rising(got, metric, decimals, shared.checked_words(field, metric))

    def falling(subjects, metric, early, late):
        first, decimals = run_values(subjects, early, metric)
        then, _ = run_values(subjects, late, metric)
        for name in first:
            means = [
                (f"{name} runs {span}", sum(v for _k, v in vs) / len(vs))
                for span, vs in ((late, then[name]), (early, first[name]))
            ]
            shared.check_rising(means, metric, decimals, f"means of {metric}")
        return ""

    def cmp(subject, metric, field, during):
        page.no_window(during, what)
        case, _, algo = subject.partition("/")
        c = cmps.get((case, metric), {}).get(algo)
        if c is None:
            raise KeyError(f"no comparison of {algo} on {case}/{metric}")
        shared.check_field(field, ("p", "p_raw", "welch", "diff", "sig"))
        ps = {"p": c.p_holm, "p_raw": c.p_perm, "welch": c.p_welch}
        return shared.test_field(c, field, dict(METRICS[case])[metric], ps, stats.ALPHA)

    def table(name):
        if name != "cells":
            raise KeyError(f"no table {name!r} (cells)")
        return texts["table"]

    kinds = page.Kinds()
    kinds.shared("value", value).shared("verdict", verdict).shared("cmp", cmp)
    kinds.shared("within", within).shared("rising", rising).shared("table", table)
    kinds.own("falling", "subjects:list metric early:span late:span", falling)
    for name in ("status", "kernel"):
        kinds.text(name, texts.get(name, ""))
    return kinds


def main(argv=None):
    def run(data):
        return make(data), [], [], []

    default = os.path.join(REPO, "docs/results/cc/data")
    return shared.report_cli(argv, WHO, __doc__.splitlines()[0], default, run, REPO, COMMAND)


if __name__ == "__main__":
    sys.exit(main())
