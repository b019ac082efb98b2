#!/usr/bin/python3
"""Aggregate the experiment runs into CSV tables, Markdown tables and PNG plots.

    /usr/bin/python3 testbed/experiments/report.py [--experiment sticky|bnaware|all]
        [--results build/experiments] [--out docs/results] [--cells PATTERNS]

Reads <results>/<experiment>/<cell>/run<k>.json (written by cellrun.py through run.py) and
writes, per experiment, into <out>/<experiment>/ (each file atomically):
- runs.csv: one row per run (failed ones too, with their error);
- summary.csv: per cell the number of ok and failed runs and, per metric, mean/min/max over the
  ok runs;
- tables.md: the same as Markdown (mean, [min, max]), with the result set's status (complete,
  or partial with the counts);
- one PNG per metric: mean over the ok runs with min/max bars, panels per congestion control,
  groups per scenario, one bar per scheduler (the papers' figure style); bnaware also
  `throughput-series.png`, per-subflow throughput over time of run 1 of A-1 (dft vs bnaware).

Metrics: path switches (the scheduler module's `switches` for the connection, server side),
picture discards, buffer underflows (count and total duration, s), startup delay, per-path
(= per-subflow) throughput: mean over the subflows of their mean rate and of the standard
deviation of their 0.5 s samples (the first and the last sample left out), out-of-order
packets (MPTcpExtOFOQueue delta at the receiver: segments that had to wait in the MPTCP
out-of-order queue; and the subflows' TCP rcv_ooopack). Needs Debian's matplotlib
(apt-get install python3-matplotlib; installed when missing and run as root). Exit 2 on usage
errors, 1 when there is nothing to report. --cells (run.py's patterns) reports a subset: its
tables, plots and status cover only the matching cells, e.g. a longer-video check of a few cells.
"""

import argparse
import csv
import io
import os
import statistics
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(REPO, "mininet-scripts"))

import matrix as mx  # noqa: E402
from mpqoe_lib import debian, files  # noqa: E402

METRICS = {
    # name: (label, unit, experiments)
    "switches": ("Path switches", "count", ("sticky", "bnaware")),
    "discards": ("Picture discards", "frames", ("sticky", "bnaware")),
    "underflows": ("Buffer underflows", "count", ("sticky", "bnaware")),
    "underflow_s": ("Buffer underflow duration", "s", ("sticky", "bnaware")),
    "startup_s": ("Startup delay", "s", ("sticky", "bnaware")),
    "thr_mean_mbps": ("Per-path throughput (mean)", "Mbit/s", ("bnaware",)),
    "thr_std_mbps": (
        "Per-path throughput variability (std of 0.5 s samples)",
        "Mbit/s",
        ("bnaware",),
    ),
    "ofo": ("Out-of-order packets (MPTCP OFO queue)", "packets", ("bnaware",)),
    "subflow_ooo": ("Out-of-order packets (subflow TCP)", "packets", ("bnaware",)),
}
PLOTTED = {
    "sticky": ["switches", "discards", "underflows", "underflow_s"],
    "bnaware": ["discards", "underflows", "underflow_s", "thr_mean_mbps", "thr_std_mbps", "ofo"],
}


def run_metrics(doc):
    """{metric: value} of one ok run (None where the run lacks it)."""
    p = doc.get("probe") or {}
    uf = p.get("buffer_underflows") or {}
    sched = doc.get("scheduler_proc") or {}
    if not sched and p.get("scheduler"):
        sched = p["scheduler"]
    subs = p.get("subflows") or []
    means = [s.get("mean_bps") or 0 for s in subs]
    stds = []
    for s in subs:
        vals = [v for _t, v in (s.get("series") or [])]
        if len(vals) >= 4:
            vals = vals[1:-1]  # without the ramp-up and the partial last interval
        if len(vals) >= 2:
            stds.append(statistics.pstdev(vals))
    ooo = p.get("out_of_order") or {}

    def num(v):
        return None if v is None else float(v)

    return {
        "switches": num(sched.get("switches")),
        "discards": num(p.get("picture_discards")),
        "underflows": num(uf.get("count")),
        "underflow_s": num(uf.get("total_s")),
        "startup_s": num(p.get("startup_delay_s")),
        "thr_mean_mbps": statistics.fmean(means) / 1e6 if means else None,
        "thr_std_mbps": statistics.fmean(stds) / 1e6 if stds else None,
        "ofo": num(ooo.get("mptcp_ofo_queue")),
        "subflow_ooo": num(ooo.get("subflow_rcv_ooopack")),
        "subflows": len(subs),
    }


def layout(cells):
    """(scenarios, schedulers, ccs) that occur in cells, in matrix order."""

    def uniq(xs):
        return list(dict.fromkeys(xs))

    return (
        uniq(c.scenario for c in cells),
        uniq(c.scheduler for c in cells),
        uniq(c.cc for c in cells),
    )


def collect(results, cells):
    """[(cell, k, doc)] of every run JSON of the given cells."""
    out = []
    for c in cells:
        d = os.path.join(results, c.experiment, c.name)
        if not os.path.isdir(d):
            continue
        for f in sorted(os.listdir(d)):
            if f.startswith("run") and f.endswith(".json") and f[3:-5].isdigit():
                doc = files.read_json(os.path.join(d, f))
                if doc is not None:
                    out.append((c, int(f[3:-5]), doc))
    return out


def fmt(v, unit=""):
    if v is None:
        return "-"
    if abs(v) >= 100 or float(v).is_integer():
        return f"{v:.0f}"
    return f"{v:.2f}"


def summarize(experiment, runs, cells=None):
    """(metrics, per-run rows, per-cell summary) over cells (all of the experiment's if None)."""
    cells = mx.cells(experiment) if cells is None else cells
    metrics = [m for m, (_l, _u, exps) in METRICS.items() if experiment in exps]
    rows, summary = [], []
    by_cell = {}
    for c, k, doc in runs:
        ok = doc.get("status") == "ok"
        m = run_metrics(doc) if ok else {}
        row = {
            "cell": c.name,
            "scenario": c.scenario,
            "scheduler": c.scheduler,
            "cc": c.cc,
            "run": k,
            "status": doc.get("status"),
            "error": (doc.get("error") or "")[:200],
            "duration_s": (doc.get("config") or {}).get("duration_s"),
            "subflows": m.get("subflows", ""),
        }
        row.update({name: "" if m.get(name) is None else round(m[name], 4) for name in metrics})
        rows.append(row)
        by_cell.setdefault(c.name, (c, []))[1].append((ok, m))
    for c in cells:
        _c, items = by_cell.get(c.name, (c, []))
        oks = [m for ok, m in items if ok]
        s = {
            "cell": c.name,
            "scenario": c.scenario,
            "scheduler": c.scheduler,
            "cc": c.cc,
            "n_ok": len(oks),
            "n_failed": sum(1 for ok, _m in items if not ok),
        }
        for name in metrics:
            vals = [m[name] for m in oks if m.get(name) is not None]
            s[f"{name}_mean"] = statistics.fmean(vals) if vals else None
            s[f"{name}_min"] = min(vals) if vals else None
            s[f"{name}_max"] = max(vals) if vals else None
        summary.append(s)
    return metrics, rows, summary


def to_csv(rows):
    if not rows:
        return ""
    buf = io.StringIO()
    w = csv.DictWriter(buf, fieldnames=list(rows[0]), lineterminator="\n")
    w.writeheader()
    for r in rows:
        w.writerow(
            {
                k: ("" if v is None else (round(v, 4) if isinstance(v, float) else v))
                for k, v in r.items()
            }
        )
    return buf.getvalue()


def tables_md(experiment, metrics, summary, status):
    lines = [f"# {experiment}: generated tables", "", status, ""]
    lines.append("Mean over the ok runs, [min, max] in brackets; n = ok runs (failed).")
    lines.append("")
    for scn in dict.fromkeys(s["scenario"] for s in summary):
        lines.append(f"## {scn}: {mx.SCENARIOS[scn].description}")
        lines.append("")
        head = ["scheduler", "cc", "n"] + [METRICS[m][0] for m in metrics]
        lines.append("| " + " | ".join(head) + " |")
        lines.append("|" + "---|" * len(head))
        for s in summary:
            if s["scenario"] != scn:
                continue
            cells = [s["scheduler"], s["cc"], f"{s['n_ok']} ({s['n_failed']})"]
            for m in metrics:
                mean = s[f"{m}_mean"]
                cells.append(
                    "-"
                    if mean is None
                    else f"{fmt(mean)} [{fmt(s[f'{m}_min'])}, {fmt(s[f'{m}_max'])}]"
                )
            lines.append("| " + " | ".join(cells) + " |")
        lines.append("")
    return "\n".join(lines)


def save_fig(fig, path):
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=110, bbox_inches="tight")
    files.write_atomic(path, buf.getvalue())


def bar_plot(plt, experiment, metric, summary, path, runs_per_cell, cells):
    scns, scheds, ccs = layout(cells)
    label, unit, _ = METRICS[metric]
    fig, axes = plt.subplots(
        1, len(ccs), figsize=(max(5.2 * len(ccs), 6.5), 3.8), sharey=True, squeeze=False
    )
    axes = list(axes[0])
    width = 0.8 / len(scheds)
    colors = plt.get_cmap("tab10").colors
    idx = {(s["scenario"], s["scheduler"], s["cc"]): s for s in summary}
    nan = float("nan")
    for ax, cc in zip(axes, ccs, strict=True):
        for j, sched in enumerate(scheds):
            xs, ys, lo, hi, ns = [], [], [], [], []
            for i, scn in enumerate(scns):
                s = idx.get((scn, sched, cc))
                xs.append(i - 0.4 + width * (j + 0.5))
                if not s or s[f"{metric}_mean"] is None:
                    ys.append(nan), lo.append(0), hi.append(0), ns.append(0)
                    continue
                ys.append(s[f"{metric}_mean"])
                lo.append(s[f"{metric}_mean"] - s[f"{metric}_min"])
                hi.append(s[f"{metric}_max"] - s[f"{metric}_mean"])
                ns.append(s["n_ok"])
            ax.bar(xs, ys, width, yerr=[lo, hi], capsize=3, label=sched, color=colors[j])
            for x, y, n, h in zip(xs, ys, ns, hi, strict=True):
                if y != y:  # NaN: no ok run in this cell
                    ax.annotate("n=0", (x, 0), ha="center", va="bottom", fontsize=6)
                    continue
                text = fmt(y) + (f"\nn={n}" if n < runs_per_cell else "")
                ax.annotate(text, (x, y + h), ha="center", va="bottom", fontsize=6)
        ax.set_xticks(range(len(scns)), scns)
        ax.set_title(f"{cc}")
        ax.grid(axis="y", alpha=0.3)
    for ax in axes:
        ax.set_ylim(bottom=0)
    axes[0].set_ylabel(f"{label} ({unit})")
    axes[-1].legend(
        fontsize=8, title="scheduler", title_fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1)
    )
    fig.suptitle(f"{experiment}: {label} (mean, bars = min/max over runs)", fontsize=10)
    save_fig(fig, path)
    plt.close(fig)


def series_plot(plt, runs, path):
    """Per-subflow throughput over time, run 1 of A-1 with cubic and bbr, dft vs bnaware."""
    pick = {(c.scheduler, c.cc): doc for c, k, doc in runs if c.scenario == "A-1" and k == 1}
    pick = {key: d for key, d in pick.items() if d.get("status") == "ok"}
    if not pick:
        return False
    keys = [(s, cc) for cc in ("cubic", "bbr") for s in ("dft", "bnaware") if (s, cc) in pick]
    fig, axes = plt.subplots(1, len(keys), figsize=(4.2 * len(keys), 3.4), sharey=True)
    axes = axes if len(keys) > 1 else [axes]
    for ax, key in zip(axes, keys, strict=True):
        for s in pick[key]["probe"].get("subflows") or []:
            pts = s.get("series") or []
            ends = f"{s['local'].split(':')[0]} > {s['remote'].split(':')[0]}"
            ax.plot([t for t, _v in pts], [v / 1e6 for _t, v in pts], lw=1, label=ends)
        ax.set_title(f"A-1 {key[0]} {key[1]} (run 1)", fontsize=9)
        ax.set_xlabel("time (s)")
        ax.grid(alpha=0.3)
    axes[0].set_ylabel("subflow throughput (Mbit/s)")
    axes[-1].legend(fontsize=6, title="client > server", title_fontsize=6)
    save_fig(fig, path)
    plt.close(fig)
    return True


def report(experiment, results, out, plt, pattern=None):
    cells = mx.select(experiment, pattern)
    if not cells:
        print(f"report.py: --cells {pattern!r} matches no cell of {experiment}", file=sys.stderr)
        return False
    runs = collect(results, cells)
    if not runs:
        print(f"report.py: no runs of {experiment} under {results}", file=sys.stderr)
        return False
    metrics, rows, summary = summarize(experiment, runs, cells)
    manifest = files.read_json(os.path.join(results, "manifest.json")) or {}
    m = (manifest.get("experiments") or {}).get(experiment) or {}
    per = m.get("runs_per_cell") or max(k for _c, k, _d in runs)
    total = len(cells) * per
    ok = sum(s["n_ok"] for s in summary)
    durations = sorted({r["duration_s"] for r in rows if r["duration_s"] is not None})
    status = (
        f"Status: **{'complete' if ok == total else 'partial'}**: {ok} of {total} runs ok "
        f"({len(cells)} cells x {per} runs), "
        f"{sum(s['n_failed'] for s in summary)} failed; video length {durations} s."
    )
    d = os.path.join(out, experiment)
    os.makedirs(d, exist_ok=True)
    files.write_atomic(os.path.join(d, "runs.csv"), to_csv(rows))
    files.write_atomic(os.path.join(d, "summary.csv"), to_csv(summary))
    files.write_atomic(
        os.path.join(d, "tables.md"), tables_md(experiment, metrics, summary, status) + "\n"
    )
    made = ["runs.csv", "summary.csv", "tables.md"]
    for metric in PLOTTED[experiment]:
        path = os.path.join(d, f"{metric}.png")
        bar_plot(plt, experiment, metric, summary, path, per, cells)
        made.append(f"{metric}.png")
    if experiment == "bnaware" and series_plot(plt, runs, os.path.join(d, "throughput-series.png")):
        made.append("throughput-series.png")
    print(f"report.py: {experiment}: {status} -> {d}: {', '.join(made)}")
    return True


def main(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--experiment", default="all", choices=["sticky", "bnaware", "all"])
    p.add_argument("--results", default=os.path.join(REPO, "build", "experiments"))
    p.add_argument("--out", default=os.path.join(REPO, "docs", "results"))
    p.add_argument("--cells", default=None, help="comma-separated patterns over cell names")
    a = p.parse_args(argv)
    if not os.path.isdir(a.results):
        print(f"report.py: --results: no directory {a.results}", file=sys.stderr)
        return 2
    plt = debian.pyplot("report.py")
    exps = list(mx.EXPERIMENTS) if a.experiment == "all" else [a.experiment]
    done = [report(e, a.results, a.out, plt, a.cells) for e in exps]
    return 0 if any(done) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
