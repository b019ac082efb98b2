"""The scheduler experiments' committed per-run data: raw run JSONs -> compact CSVs.

Called by sched_run.py (--publish, --publish-only); stdlib only. From the runs of the selected cells
under a results directory (<results>/<experiment>/<cell>/run<k>.json, cellrun.py's documents)
it writes, each file atomically:

    <dest>/<experiment>/data/runs.csv    one row per run, RUN_COLUMNS
    <dest>/<experiment>/data/paths.csv   one row per path of each ok run, PATH_COLUMNS

<dest> is docs/results for the main matrix, another folder for another result set (e.g.
docs/results/long120). Rows already in the files are kept, except those of a run published
again: a run is (cell, run, code_version), so runs of another code version stay beside the new
ones and the report keeps each cell's newest version. A failed attempt never replaces an ok row
of its run (one made elsewhere, e.g. by another machine of a sweep in parts). A publish that
would leave a cell with ok runs of one code version naming two sha256 values of its scheduler's
or its control's module is refused, nothing written (check_builds).
testbed/experiments/sched_report.py reads only these files.

runs.csv: the cell and its parts, the outcome (status ok/failed, error), the video length, the
start time, what identifies the code (code_version: the repository's commit, `-dirty-<hash>`
when the work tree differed, `unrecorded` when the run did not record it; probe_sha256,
module_sha256 and cc_module_sha256: the first 16 hex digits of the sha256 of the probe's
sources, of the scheduler module and of the coupled congestion control's module, empty for
the kernel's own cubic and bbr;
kernel: the guest's release) and, for ok runs, the metrics: path switches (the module's
counter), picture discards, buffer underflows (count, total s), startup delay, per-path
throughput (mean over the subflows of their mean rate, and of the standard deviation of their
0.5 s samples without the first and the last), out-of-order packets (MPTCP OFO queue, subflow
TCP), the frames' delay from the server's write to the client's read (mean, p50, p95, max;
time in both hosts' socket buffers included, which in file mode is most of it: the server
writes ahead and the client reads at playback's pace), the frames the server wrote late and
its largest send lag (testbed/probe/README.md).

paths.csv: per path (numbered as the batch's ping check lists them: three-path 1-3 by client
interface; full mesh and parallel by client then server address): the addresses, the RTT the
scenario expects and the ping's min/avg before the batch, and the subflow on it: bytes received
by the client, mean rate and the standard deviation of its 0.5 s samples (Mbit/s).
"""

import os
import statistics

from mpqoe import campaign, files, kernel
from mpqoe import sched_matrix as mx
from mpqoe.results import UNRECORDED, ReportError, merge_runs, read_csv, run_key

RUN_COLUMNS = (
    "cell",
    "scenario",
    "scheduler",
    "cc",
    "run",
    "status",
    "error",
    "duration_s",
    "links",
    "queue_packets",
    "started_utc",
    "code_version",
    "probe_sha256",
    "module_sha256",
    "cc_module_sha256",
    "kernel",
    "subflows",
    "switches",
    "discards",
    "underflows",
    "underflow_s",
    "startup_s",
    "thr_mean_mbps",
    "thr_std_mbps",
    "ofo",
    "subflow_ooo",
    "frame_delay_mean_s",
    "frame_delay_p50_s",
    "frame_delay_p95_s",
    "frame_delay_max_s",
    "frames_sent_late",
    "max_send_lag_s",
)
PATH_COLUMNS = (
    "cell",
    "run",
    "code_version",
    "path",
    "client_ip",
    "server_ip",
    "rtt_expected_ms",
    "rtt_min_ms",
    "rtt_avg_ms",
    "bytes",
    "mean_mbps",
    "std_mbps",
)
ERROR_CHARS = 200
HASH_DIGITS = 16


def _num(v, digits=4):
    return None if v is None else round(float(v), digits)


def _std_mbps(series):
    """Standard deviation (Mbit/s) of a subflow's samples without the ramp-up and the partial
    last interval; None with fewer than 2 left."""
    vals = [v for _t, v in series or []]
    if len(vals) >= 4:
        vals = vals[1:-1]
    return statistics.pstdev(vals) / 1e6 if len(vals) >= 2 else None


def code_version(doc):
    """The run's code version (cellrun.py records it), else UNRECORDED."""
    return doc.get("code_version") or UNRECORDED


def module_sha256(doc):
    """The first digits of the sha256 of the scheduler module the run loaded ('' unknown)."""
    return (doc.get("module_sha256") or "")[:HASH_DIGITS]


def links_text(links):
    """The scenario's link overrides as one field: `a-b:<delay ms>/<loss %>/<Mbit/s>` per link,
    `|`-separated, sorted (e.g. `ra-sa:30/0.1/3|rb-sb:30/0.1/3`), so that a table can say
    which network its runs had even after the matrix changed."""

    def g(v):
        return f"{float(v):g}"

    return "|".join(
        f"{k}:{g(v['delayMs'])}/{g(v['lossPct'])}/{g(v['capacityMbps'])}"
        for k, v in sorted((links or {}).items())
    )


def run_row(doc):
    """The runs.csv row of one run document (metrics only for an ok run)."""
    cfg = doc.get("config") or {}
    ok = doc.get("status") == "ok"
    row = {
        "cell": doc["cell"],
        "scenario": doc["scenario"],
        "scheduler": doc["scheduler"],
        "cc": doc["cc"],
        "run": int(doc["run"]),
        "status": "ok" if ok else "failed",
        "error": " ".join((doc.get("error") or "").split())[:ERROR_CHARS],
        "duration_s": _num(cfg.get("duration_s")),
        "links": links_text(cfg.get("links")),
        "queue_packets": cfg.get("queue_packets") or mx.NETEM_LIMIT,
        "started_utc": doc.get("started_utc") or "",
        "code_version": code_version(doc),
        "probe_sha256": (cfg.get("probe_sha256") or "")[:HASH_DIGITS],
        "module_sha256": module_sha256(doc),
        "cc_module_sha256": (doc.get("cc_module_sha256") or "")[:HASH_DIGITS],
        "kernel": doc.get("kernel") or "",
    }
    if not ok:
        return row
    p = doc.get("probe") or {}
    sched = doc.get("scheduler_proc") or p.get("scheduler") or {}
    uf = p.get("buffer_underflows") or {}
    subs = p.get("subflows") or []
    means = [(s.get("mean_bps") or 0) / 1e6 for s in subs]
    stds = [x for x in (_std_mbps(s.get("series")) for s in subs) if x is not None]
    ooo = p.get("out_of_order") or {}
    delay = p.get("frame_delay_s") or {}
    server = p.get("server") or {}
    row.update(
        subflows=len(subs),
        switches=_num(sched.get("switches")),
        discards=_num(p.get("picture_discards")),
        underflows=_num(uf.get("count")),
        underflow_s=_num(uf.get("total_s")),
        startup_s=_num(p.get("startup_delay_s")),
        thr_mean_mbps=_num(statistics.fmean(means)) if means else None,
        thr_std_mbps=_num(statistics.fmean(stds)) if stds else None,
        ofo=_num(ooo.get("mptcp_ofo_queue")),
        subflow_ooo=_num(ooo.get("subflow_rcv_ooopack")),
        frame_delay_mean_s=_num(delay.get("mean")),
        frame_delay_p50_s=_num(delay.get("p50")),
        frame_delay_p95_s=_num(delay.get("p95")),
        frame_delay_max_s=_num(delay.get("max")),
        frames_sent_late=_num(server.get("frames_sent_late")),
        max_send_lag_s=_num(server.get("max_send_lag_s")),
    )
    return row


def _ip(addr):
    return kernel.norm_addr(addr or "").rsplit(":", 1)[0].strip("[]")


def path_rows(doc):
    """The paths.csv rows of one ok run: the batch's measured paths in their order, each with
    the subflow(s) between its two addresses; subflows on no measured path follow, numbered
    on."""
    if doc.get("status") != "ok":
        return []
    base = {"cell": doc["cell"], "run": int(doc["run"]), "code_version": code_version(doc)}
    paths = []  # [(client ip, server ip, ping row)]
    for r in (doc.get("network") or {}).get("path_rtt_ms") or []:
        paths.append((r.get("client_ip"), r.get("server_ip"), r))
    subs = {}
    for s in (doc.get("probe") or {}).get("subflows") or []:
        key = (_ip(s.get("local")), _ip(s.get("remote")))
        if key not in {(c, sv) for c, sv, _r in paths}:
            paths.append((key[0], key[1], {}))
        subs.setdefault(key, []).append(s)
    rows = []
    for i, (cip, sip, ping) in enumerate(paths, 1):
        on = subs.get((cip, sip), [])
        row = dict(base, path=i, client_ip=cip, server_ip=sip)
        row.update(
            rtt_expected_ms=_num(ping.get("expected_ms"), 3),
            rtt_min_ms=_num(ping.get("min_ms"), 3),
            rtt_avg_ms=_num(ping.get("avg_ms"), 3),
        )
        if on:
            row["bytes"] = sum(int(s.get("bytes_received") or 0) for s in on)
            row["mean_mbps"] = _num(sum((s.get("mean_bps") or 0) for s in on) / 1e6)
            row["std_mbps"] = _num(_std_mbps(on[0].get("series"))) if len(on) == 1 else None
        rows.append(row)
    return rows


def run_docs(results, cells):
    """[doc] of every run<k>.json of the given cells under results, in cell then run order."""
    out = []
    for c in cells:
        d = os.path.join(results, c.experiment, c.name)
        if not os.path.isdir(d):
            continue
        ks = sorted(int(f[3:-5]) for f in os.listdir(d) if f.startswith("run") and
                    f.endswith(".json") and f[3:-5].isdigit())  # fmt: skip
        for k in ks:
            doc = files.read_json(os.path.join(d, f"run{k}.json"))
            if doc is not None:
                out.append(doc)
    return out


def _order(experiment):
    index = {c.name: i for i, c in enumerate(mx.cells(experiment))}

    def key(row):
        return (index.get(row["cell"], len(index)), row["cell"], int(row["run"]),
                row["code_version"], int(row.get("path") or 0))  # fmt: skip

    return key


def merge(old, new, experiment):
    """old rows (as read, text) with new rows in place of old ones of the same run, ordered by
    the matrix's cell order, run, code version (and path)."""
    return merge_runs(old, new, _order(experiment))


def check_builds(rows, cells, where):
    """ReportError (one line) when a cell of `cells` ({(cell, code version)}) has ok rows that
    name two values of a module's sha256 (matrix.BUILD_FIELDS; empty, not recorded, counts for
    nothing): a cell's runs of one code version load one build."""
    seen = {}
    for r in rows:
        key = (r["cell"], r["code_version"])
        if key in cells and r["status"] == "ok":
            for col in mx.BUILD_FIELDS:
                if r[col]:
                    seen.setdefault((key, col), {}).setdefault(str(r[col]), []).append(r["run"])
    for ((cell, version), col), values in seen.items():
        if len(values) > 1:
            named = "; ".join(f"{h} (runs {', '.join(map(str, sorted(map(int, ks))))})"
                              for h, ks in sorted(values.items()))  # fmt: skip
            raise ReportError(
                f"{where}: {cell} at {version} would hold ok runs of two {col} values, "
                f"{named}: a cell's runs load one build; nothing published"
            )


def publish(results, cells, dest):
    """Writes <dest>/<experiment>/data/{runs,paths}.csv from the runs of cells under results;
    returns {experiment: (runs published, rows in runs.csv)}. ReportError, with nothing
    written, when a cell published to would hold ok runs of one code version that loaded
    two builds of a module (check_builds)."""
    made_by = {}
    for experiment in dict.fromkeys(c.experiment for c in cells):
        docs = run_docs(results, [c for c in cells if c.experiment == experiment])
        d = os.path.join(dest, experiment, "data")
        old_runs = [r for _l, r in read_csv(os.path.join(d, "runs.csv"), RUN_COLUMNS) or []]
        ok = {run_key(r) for r in old_runs if r["status"] == "ok"}
        made = [(doc, run_row(doc)) for doc in docs]
        made = [(doc, r) for doc, r in made if r["status"] == "ok" or run_key(r) not in ok]
        published = {run_key(r) for _doc, r in made}
        kept = [r for r in old_runs if run_key(r) not in published]
        touched = {(r["cell"], r["code_version"]) for _doc, r in made}
        check_builds(kept + [r for _doc, r in made], touched, os.path.join(d, "runs.csv"))
        made_by[experiment] = (d, old_runs, made)
    done = {}
    for experiment, (d, old_runs, made) in made_by.items():
        old_paths = [r for _l, r in read_csv(os.path.join(d, "paths.csv"), PATH_COLUMNS) or []]
        # both tables through the campaign's publish (mpqoe.campaign.publish_table): a run
        # published again replaces its rows, and a run's paths go with its run row
        published = {run_key(r) for _doc, r in made}
        kept_paths = [r for r in old_paths if run_key(r) not in published]
        n, kept = campaign.publish_table(
            os.path.join(d, "runs.csv"), [r for _doc, r in made], RUN_COLUMNS,
            _order(experiment), run_key, lambda _p, rows=old_runs: rows,
        )  # fmt: skip
        campaign.publish_table(
            os.path.join(d, "paths.csv"), [r for doc, _r in made for r in path_rows(doc)],
            PATH_COLUMNS, _order(experiment), run_key, lambda _p, rows=kept_paths: rows,
        )  # fmt: skip
        done[experiment] = (n, n + kept)
    return done
