#!/usr/bin/python3
"""Tables, figures and results pages of the GA and QoMRA papers' video experiments.

    /usr/bin/python3 testbed/video/video_report.py --data docs/results [--check]

Reads the committed per-client CSVs (one row per client per run, header HEADER):
    <data>/ga-paper/data/{calibrate,ga-topo,ga-sched,ga-delay}.csv
    <data>/qomra-paper/data/qomra.csv
    <data>/qomra-paper/data/qomra-throughput.csv   cell,run,client,second,kbps      (optional)
    <data>/qomra-paper/data/qomra-links.csv        cell,run,link,second,utilisation (optional)
    <data>/<paper>/data/<experiment>-attempts.csv  one row per attempt at a run, ok or failed
                                                   (record.ATTEMPT_COLUMNS; optional)
    <data>/<paper>/data/samples/<experiment>/<cell>/run<k>-<code version>.csv.gz
                 the players' 1 s samples of a run (record.samples_path), from which every
                 framework number (record.FRAMEWORK columns) must recompute (check_framework);
                 tables published before those columns existed lack them and stay valid
and writes, per paper (ga-paper, qomra-paper):
    <data>/<paper>/tables.md         per cell mean +- 95 % CI, comparisons with p-values
    <data>/<paper>/figures/*.png     the papers' figures' shapes (matplotlib Agg)
    <data>/<paper>.md                rendered from the committed template <data>/<paper>.md.in
Everything is rendered in memory first; only then are the changed files written (each
atomically) and figures that are no longer made removed. --check writes nothing and exits 1
listing every file that differs from what would be made (and figures that would be removed).

Template placeholders (docs/results/placeholders.md; EXP an experiment, a subject
<experiment>/<cell> unless said):
    {{value EXP/CELL METRIC [FIELD]}}   field: mean (default), ci (half-width), lo, hi,
        interval ("mean [lo, hi]"), n (runs)
    {{cmp EXP/GROUP/OTHER METRIC FIELD [during=FROM..TO]}}   the group's cell of algorithm
        OTHER against the experiment's reference algorithm's: field p (Holm-adjusted
        permutation p), sig (yes/no/untested), diff (mean ref - mean other), p_raw
        (unadjusted permutation p), welch (Welch's p); algorithms and metrics joined by commas:
        field minp, the smallest Holm p of those tests (each adjusted in its own family; the
        number behind "smallest p"). during=: the claim's time window, tested on the per-run
        means of the metric's time series in it (WINDOW_SERIES; permutation p, not adjusted);
        field verdict: "not tested" without MIN_RUNS runs a side with a series in the window,
        else higher, lower or same
    {{pair EXP/CELL EXP/OTHER-CELL METRIC FIELD}}
                 any two cells of one code version (e.g. with and without background traffic):
                 field: p (permutation p, not adjusted), sig (p below 0.05), diff, welch
    {{strat EXP/GROUP+GROUP[+...] METRIC REF-vs-OTHER[,...] FIELD}}
                 two algorithms over several groups (e.g. every segment length), runs permuted
                 within each group (python/mpqoe/stats.py): field: p (permutation p), sig, diff
                 (mean of the groups' mean ref - mean other), n (groups); metrics and comparisons
                 joined by commas are one family, each metric with each comparison,
                 Holm-adjusted over them: field maxp (the largest adjusted p) and the check
                 allsig (nothing when every adjusted p is below 0.05)
    {{factor EXP PARAMETER A-vs-B METRIC FIELD [where=PARAMETER:VALUE,...]}}
                 two values of one parameter (e.g. scheduler daps-vs-default), stratified over
                 every other parameter: cells that differ only in it are paired, runs permuted
                 within each pair (as strat); where= keeps the cells with those values: field:
                 p, sig, diff (mean over the pairs of mean a - mean b), n (pairs)
                 cmp, pair, strat and factor also take the fields higher, lower and same,
                 the check behind a hand-written word: nothing when the other side (the
                 second named) is significantly higher or lower than the first, or (same) not
                 significantly different; else an error, so the page is not made; and
                 meanhigher, meanlower: the second side's mean higher or lower, tested or not
                 (the check behind "less on average" beside a test that does not support it)
    {{trend EXP METRIC FIELD}}   field: rho, p (permutation), n (runs), sig, and the checks
                 higher (a significant rise), lower (a fall), same (neither)
    {{order EXP/GROUP EXP/OTHER-GROUP METRIC FIELD}}
                 do two groups rank their algorithms alike (e.g. 120 s against 9-minute videos)?
                 Spearman's rho between the algorithms' means in the two groups, with the exact
                 permutation p over the algorithms' pairings: field: rho, p, n (algorithms in
                 both), sig, top and bottom (the algorithm with the highest or lowest mean in
                 each group: "ga" when the two agree, "ga / none" when not); groups joined
                 by + on both sides (a1+a2 b1+b2, e.g. one pair per topology) are tested
                 together: the mean rho, each pair permuted on its own (rho, p, n, sig only);
                 and the checks as trend's (higher: ranked alike, lower: reversed, same: neither);
                 metrics joined by a comma (m1,m2,m3) are one family, Holm-adjusted over them:
                 field minp (the smallest adjusted p) and the checks, judged by that test (the
                 check behind "none passes Holm's adjustment")
    {{within EXP/CELL-PATTERN[,...] METRIC LO..HI [FIELD]}}
                 nothing, or an error: every matching cell (shell patterns) has its mean (field
                 mean, the default), its interval's lower or upper end (lo, hi), half-width (ci)
                 or run count (n) in [lo, hi] (the check behind "close to the lowest quality",
                 "about", "the interval lies below", "3 runs a cell", whose bounds the sentence
                 states; a description, not a test)
    {{ratio EXP/GROUP EXP/OTHER-GROUP METRIC LO..HI [count]}}
                 per algorithm in both groups, its mean in the other group over its mean in the
                 first: nothing, or an error, when every ratio lies in [lo, hi] ("grows more
                 than 4.5 times"); with count, how many do, "4 of 6" (the number behind
                 "mostly"); a description, not a test
    {{rising EXP/CELL,EXP/CELL[,...] METRIC [FIELD]}}
                 nothing, or an error: the cells' means rise strictly in the order named (the
                 check behind "higher at every length", "falls with every longer segment"; not
                 a test)
    {{highest EXP/CELL-PATTERN,... EXP/OTHER-PATTERN,... METRIC}}, {{lowest ...}}
                 nothing, or an error: the first cells' means all lie above (below) those of
                 every other cell matching the second patterns (the check behind "switch the
                 most", "stalls least"; not a test)
    {{status EXP}}                      runs, cells and code version(s), or "no runs yet"
    {{table EXP/GROUP[/ended]}}  an experiment compared by link draw (Experiment.pair_by, the
                 authors' set-up): per algorithm the mean +- 95 % CI of both metric families
                 (PAPER_TABLE) and the reference's Holm p against it, runs permuted within draws;
                 /ended: over the ok runs and the failed attempts whose players finished
                 (record.ended_table); "not run yet (0 of n runs)" without runs
    {{awaiting EXP [cells=PATTERN[,PATTERN]]}}
                 the verdict of a claim whose runs are to come: "not run yet", "pending (k of
                 n runs)" (n: the design's runs of the matching cells,
                 video_matrix.design_runs); an error once all are in
    {{pace EXP [cells=PATTERN[,PATTERN]]}}   the measured pace of the attempts (started to
                 ended): mean minutes an attempt with its 95 % interval, and the hours the
                 design's missing runs take at the measured minutes per ok run (failed
                 attempts' time included; batch boots not); "not run yet" without attempts
    {{capacity EXP/GROUP [table|cut|need|rho|p]}}   what the chosen paths could carry (a
                 design with link draws; python/mpqoe/capacity.py over its paths and draws
                 tables): per algorithm the paths' capacity (each client at most the top
                 bitrate), the clients' throughput together
                 and its share of it, a client's delay spread, outage (means +- 95 % CI over
                 runs); each draw's cut into
                 the server; what the clients need together at the lowest and top bitrate
                 (gen_content.py's ladder); Spearman's rho and p of the runs' outage against
                 the paths' capacity
    {{cpu-limit CALIBRATION clients|busy}}   the calibration's limit (stats.cpu_limit): the
                 largest client count whose runs all played the top bitrate without stalls
                 (SUSTAINED_KBPS, SUSTAINED_OUTAGE_S), and the highest host CPU busy % of its runs
    {{above-limit CALIBRATION EXP[,EXP...]}}  "k of n" runs of the experiments busier than it
    {{failures EXP[,EXP...] share|p|table|causes}}   the failed attempts: their share with its
                 Wilson interval, the permutation test that failing does not depend on the
                 algorithm (p), a table per algorithm, each failed attempt's cause
    {{attempts EXP[,EXP...] [COLUMN=FILTER ...]}}
                 how many attempts at runs, ok or failed (<data>/ga-paper/data/
                 <experiment>-attempts.csv, record.ATTEMPT_COLUMNS), pass every filter: a shell
                 pattern (quoted when it holds spaces) or >number (e.g. client_fallbacks=>0)
A group is a cell name without its algorithm component (compuserve.c5.ga -> compuserve.c5).
Metrics: the keys of METRICS that the experiment reports (e.g. avg_bitrate_kbps, switches_ga,
outage_pct). Numbers are printed as in the tables. An experiment without a CSV renders its
placeholders as "not run yet"; a cell or group missing from an experiment that has data is
an error.

Statistics: stats.py, i.e. the shared python/mpqoe/stats.py (its docstring and
METHOD below). Reading the CSVs, rendering the templates, code versions and the write-or-check
of the outputs: python/mpqoe/results.py, shared with the scheduler experiments'
report. Code versions: each cell keeps the runs of its newest code version, ordered by git
ancestry in this repository (a `-dirty` version is newer than its commit); versions that cannot
be ordered are an error.

Exit 0 when done (or nothing differs), 1 on malformed data, an unknown placeholder, a missing
template, or (--check) a difference; nothing is written on an error. 2 on usage errors. Needs
Debian's python3-scipy and python3-matplotlib (installed when missing and run as root).
"""

import dataclasses
import datetime
import fnmatch
import functools
import importlib.util
import math
import os
import sys
from collections import Counter
from dataclasses import dataclass, field

from mpqoe import capacity, debian, page, stats, video_matrix
from mpqoe import results as shared
from mpqoe import video_record as record
from mpqoe.claims import Register
from mpqoe.framework_qoe import WINDOW
from mpqoe.results import ReportError, fmt, fmt_diff, fmt_p, read_csv, short

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))


WHO = "video_report.py"
COMMAND = "make results  # or: /usr/bin/python3 -m mpqoe.report video"

HEADER = record.COLUMNS
INT_COLS = ("clients", "rcvbuf_kb", "delay_diff_ms", "run", "seed", "n_paths", "shared_links")
FLOAT_COLS = ("segment_s", "video_s", "host_load", "guest_load")
METRIC_COLS = (
    "avg_bitrate_kbps",
    "avg_rendered_kbps",
    "switches_ga",
    "switches_count",
    "outage_s",
    "stalls",
    "startup_s",
    "success_rate",
    "mean_throughput_kbps",
    "bridge_rtt_ms",
    "bridge_lag_ms",
    "bridge_ratio",
    "redownloads",
    "redownload_share",
    "estimate_error",
    *record.FRAMEWORK,
)
# Can be negative: the player's clock and the guest's differ by an offset measured to about
# half the bridge's round trip.
SIGNED_COLS = ("bridge_lag_ms",)
LIST_COLS = ("path_delays_ms", "path_bw_mbps")
# The cell's definition: equal on every row of a cell; a group is a cell less its algorithm.
PARAMS = (
    "topology",
    "clients",
    "scheduler",
    "rcvbuf_kb",
    "delay_diff_ms",
    "segment_s",
    "video_s",
    "controller",
    "background",
    "algorithm",
)
ALGORITHMS = ("ga", "pd-bw", "pd-delay", "fd-bw", "fd-delay", "none", "qomra", "tcp")
# the kernel's built-in scheduler, this project's DAPS, and minRTT (the authors' set-up)
SCHEDULERS = ("default", "daps", "minrtt")
CONTROLLERS = ("standalone", "floodlight")  # the runtime that hosted the controller core
STATUSES = ("ok", "failed", "timeout")
SERIES = record.SERIES  # the time-series tables and their columns


def _col(name, scale=1.0):
    return lambda r: None if r[name] is None else scale * r[name]


def _outage_pct(r):
    return None if r["outage_s"] is None else 100.0 * r["outage_s"] / r["video_s"]


def _delays(r):
    return [float(x) for x in r["path_delays_ms"].split(";")] if r["path_delays_ms"] else []


def _spread(r):
    ds = _delays(r)
    return max(ds) - min(ds) if ds and r["status"] == "ok" else None


def _mean_delay(r):
    ds = _delays(r)
    return sum(ds) / len(ds) if ds and r["status"] == "ok" else None


@dataclass(frozen=True)
class Metric:
    label: str
    unit: str
    decimals: int
    columns: tuple  # the CSV columns it needs on ok rows
    value: object  # typed row -> float or None


METRICS = {
    "avg_bitrate_kbps": Metric(
        "Average received bitrate", "kbit/s", 0, ("avg_bitrate_kbps",), _col("avg_bitrate_kbps")
    ),
    "switches_ga": Metric(
        "Quality switches (sum of level differences)",
        "",
        1,
        ("switches_ga",),
        _col("switches_ga"),
    ),
    "switches_count": Metric(
        "Quality switches (count)", "", 1, ("switches_count",), _col("switches_count")
    ),
    "outage_s": Metric("Outage duration", "s", 2, ("outage_s",), _col("outage_s")),
    "outage_pct": Metric("Outage share of the video", "%", 1, ("outage_s", "video_s"), _outage_pct),
    "startup_s": Metric("Startup delay", "s", 2, ("startup_s",), _col("startup_s")),
    "success_pct": Metric(
        "Success rate (segments at the top bitrate)",
        "%",
        1,
        ("success_rate",),
        _col("success_rate", 100.0),
    ),
    "mean_throughput_kbps": Metric(
        "Mean throughput", "kbit/s", 0, ("mean_throughput_kbps",), _col("mean_throughput_kbps")
    ),
    "stalls": Metric("Stalls", "", 1, ("stalls",), _col("stalls")),
    # dash.js's fast switching fetching buffered segments again (dashjs-harness lib/metrics.js);
    # runs made before the harness counted them have none, so no row needs it.
    "redownload_pct": Metric(
        "Media bytes re-downloaded", "%", 1, (), _col("redownload_share", 100.0)
    ),
    # how far dash.js's estimate was from each download's throughput (the harness's median of
    # |estimate / realized - 1|); runs made before the harness measured it have none
    "estimate_err_pct": Metric(
        "Throughput estimate error", "%", 1, (), _col("estimate_error", 100.0)
    ),
    # The controller's assignment, so that a QoE difference can be traced to the paths.
    "n_paths": Metric("Paths per client", "", 2, ("n_paths",), _col("n_paths")),
    "path_spread_ms": Metric(
        "Delay spread of a client's paths (max - min, one way)",
        "ms",
        1,
        ("path_delays_ms",),
        _spread,
    ),
    "path_delay_ms": Metric(
        "Mean one-way delay of a client's paths", "ms", 3, ("path_delays_ms",), _mean_delay
    ),
    "shared_links": Metric(
        "Links shared by a client's paths", "", 2, ("shared_links",), _col("shared_links")
    ),
    "host_busy_pct": Metric(
        "Host CPU busy during the run", "%", 0, ("host_load",), _col("host_load", 100.0)
    ),
    "guest_busy_pct": Metric(
        "Guest CPU busy during the run", "%", 0, ("guest_load",), _col("guest_load", 100.0)
    ),
    # What the host-guest bridge does to the players' view (video_run.py's bridge(),
    # mpqoe.video_record's bridge_timing); runs made before it was recorded have none, so no row
    # needs them.
    # Round trip: host to guest agent and back, median of the run's 2 s samples. Lag: per
    # client, the median over its responses of (end at the player - last byte leaving the
    # forwarder), in the host's clock (the guest's offset is known to about half a round trip).
    # Ratio: per client, the median of the player's transfer time (first byte to end) over the
    # forwarder's; 1 means dash.js's throughput estimate is the MPTCP connection's rate.
    "bridge_rtt_ms": Metric("Bridge round trip", "ms", 2, (), _col("bridge_rtt_ms")),
    "bridge_lag_ms": Metric("Bridge lag at a response's end", "ms", 2, (), _col("bridge_lag_ms")),
    "bridge_ratio": Metric(
        "Transfer duration, player / forwarder", "", 3, (), _col("bridge_ratio")
    ),
    # The GA paper's authors' metric (mpqoe.framework_qoe), from the players' 1 s samples,
    # which the committed sample logs hold (recomputed from them: check_framework); runs made
    # before the players logged quality and bitrate have none, so no row needs them.
    "fw_bitrate_kbps": Metric(
        "Sampled bitrate (framework)", "kbit/s", 0, (), _col("fw_bitrate_kbps")
    ),
    "fw_switches": Metric("Quality switches (framework)", "", 1, (), _col("fw_switches")),
    "fw_underruns": Metric("Underruns (framework)", "", 1, (), _col("fw_underruns")),
    "fw_underrun_s": Metric("Underrun duration (framework)", "s", 1, (), _col("fw_underrun_s")),
}
# What the set-up itself does during a run, beside every experiment's metrics.
MACHINE_METRICS = (
    "host_busy_pct",
    "guest_busy_pct",
    "bridge_rtt_ms",
    "bridge_lag_ms",
    "bridge_ratio",
)

# The framework's four numbers: tabulated in a table of their own when the runs have them,
# never compared.
FRAMEWORK_METRICS = tuple(record.FRAMEWORK)

GA_METRICS = (
    "avg_bitrate_kbps",
    "switches_ga",
    "switches_count",
    "outage_s",
    "startup_s",
    "redownload_pct",
    "estimate_err_pct",
    "n_paths",
    "path_spread_ms",
    "shared_links",
)


@dataclass(frozen=True)
class Experiment:
    name: str
    paper: str
    title: str
    ref: str | None  # the algorithm the others are compared with
    metrics: tuple  # tabulated, and compared when there is a reference algorithm
    needs: tuple  # parameters every row must have
    context: tuple = ()  # tabulated beside them, never compared (machine load, the bridge)
    trend: str | None = None  # a numeric parameter each metric is tested for a trend along
    framework: tuple = ()  # the framework's metrics, in their own table when runs have them
    # a column whose value pairs runs across a group's cells (video_matrix.paired_by: the
    # authors' set-up's link draw, `seed`): the reference is compared with each algorithm
    # within it (stats.compare_by_draw), on the framework's metrics too
    pair_by: str | None = None
    # the calibration whose CPU limit marks this experiment's busier runs (tables.md)
    calibration: str | None = None

    @property
    def compared(self):
        return self.metrics + (self.framework if self.pair_by else ())

    @property
    def tabulated(self):
        return self.metrics + self.context

    @property
    def reported(self):
        """Every metric with values per cell: the tabulated ones and the framework's."""
        return self.tabulated + self.framework


EXPERIMENTS = {
    e.name: e
    for e in (
        Experiment(
            "ga-topo",
            "ga-paper",
            "topology x clients x algorithm (GA paper section IV.B.1, Fig. 4-6)",
            "ga",
            GA_METRICS,
            ("topology", "clients", "algorithm"),
            MACHINE_METRICS,
            framework=FRAMEWORK_METRICS,
        ),
        Experiment(
            "ga-sched",
            "ga-paper",
            "scheduler x receive buffer x algorithm, CompuServe (GA paper section IV.B.2, "
            "Fig. 7-9)",
            "ga",
            GA_METRICS,
            ("scheduler", "rcvbuf_kb", "algorithm"),
            MACHINE_METRICS,
            framework=FRAMEWORK_METRICS,
        ),
        Experiment(
            "calibrate",
            "ga-paper",
            "the set-up's own distortion: N clients on CompuServe's nominal links (45 Mbit/s, "
            "1-16 ms), which must all play the top bitrate without stalls",
            None,
            (
                "avg_bitrate_kbps",
                "stalls",
                "outage_s",
                "startup_s",
            ),
            ("clients",),
            MACHINE_METRICS,
            framework=FRAMEWORK_METRICS,
        ),
        Experiment(
            "ga-delay",
            "ga-paper",
            "two paths of equal bandwidth, delay difference 0-200 ms (GA paper section I, the "
            "motivating observation)",
            None,
            (
                "outage_pct",
                "outage_s",
                "avg_bitrate_kbps",
                "switches_ga",
                "startup_s",
                "redownload_pct",
                "estimate_err_pct",
            ),
            ("delay_diff_ms",),
            MACHINE_METRICS,
            trend="delay_diff_ms",
            framework=FRAMEWORK_METRICS,
        ),
        Experiment(
            "qomra",
            "qomra-paper",
            "QoMRA vs single-path TCP and the GA, segment lengths 2-10 s (QoMRA paper "
            "section V.B, Fig. 5-7, Table II)",
            "qomra",
            (
                "avg_bitrate_kbps",
                "switches_count",
                "startup_s",
                "success_pct",
                "mean_throughput_kbps",
                "redownload_pct",
                "outage_s",
                "n_paths",
                "path_delay_ms",
                "shared_links",
            ),
            ("segment_s", "algorithm"),
            MACHINE_METRICS,
        ),
    )
}
EXPERIMENTS.update(
    {
        e.name: e
        for e in (
            Experiment(
                "ga-topo-paper",
                "ga-paper",
                "the authors' set-up: topology x algorithm, 5 clients, five link draws with two "
                "runs of every algorithm on each (GA paper section IV.B.1, Fig. 4-6)",
                "ga",
                GA_METRICS,
                ("topology", "clients", "algorithm"),
                MACHINE_METRICS,
                framework=FRAMEWORK_METRICS,
                pair_by=video_matrix.paired_by("ga-topo-paper"),
                calibration="calibrate-paper",
            ),
            dataclasses.replace(
                EXPERIMENTS["ga-delay"],
                name="ga-delay-paper",
                title="the authors' set-up: two paths of equal bandwidth, delay difference "
                "0-200 ms (GA paper section I)",
            ),
            dataclasses.replace(
                EXPERIMENTS["calibrate"],
                name="calibrate-paper",
                title="the authors' set-up's calibration: N clients on CompuServe's nominal "
                "links, which must all play the top bitrate without stalls",
            ),
        )
    }
)
# The calibration's test of a run (stats.cpu_limit): its clients played the top bitrate
# (2600 kbit/s, less the first segments at a lower one: a run mean of at least this) without
# stalls (a mean outage under this: the few ms a client's buffer touches 0 while the bridge
# hands over a segment are no stall a viewer sees).
SUSTAINED_KBPS = 2500.0
SUSTAINED_OUTAGE_S = 0.01
PAPERS = {
    "ga-paper": "GA paper (Bikas & Sayit): generated tables",
    "qomra-paper": "QoMRA paper (Barakabitze et al.): generated tables",
}

METHOD = f"""\
How the numbers are made (python/mpqoe/stats.py):
- The unit of replication is the run. A run's value is the mean over its clients whose status
  is `ok`; clients that failed or timed out are counted under "clients not ok" and left out of
  the means. A run without an ok client has no value.
- Per cell: mean over the runs +- the half-width of the 95 % Student t interval
  (t(0.975, n-1) * s / sqrt(n)); n is the number of runs with a value. One run: no interval.
- Comparisons, inside a group (cells that differ only in the algorithm): the reference
  algorithm against each other one, two-sided permutation test on the difference of the
  per-run means (exact, i.e. over every split of the pooled runs, up to
  {stats.SPLIT_EXACT_LIMIT} splits, e.g. 5 vs 5 runs = 252 splits; beyond that
  scipy.stats.permutation_test with {stats.RESAMPLES} random splits from a fixed seed, marked
  MC). Welch's t-test p stands beside it, unadjusted.
  Holm-Bonferroni adjusts the permutation p over the tested comparisons of one metric in one
  group; `*` marks a Holm-adjusted p below {stats.ALPHA}. No test with fewer than
  {stats.MIN_RUNS} runs on either side ("{stats.TOO_FEW}") or between cells of different code
  versions ("{stats.VERSIONS_DIFFER}"). The smallest exact p is 2 / C(n1 + n2, n1): 0.1 for
  3 vs 3 runs (nothing can be marked), 0.029 for 4 vs 4, 0.0079 for 5 vs 5.
- Trends (the delay-difference sweep): Spearman's rho between the parameter and every run's
  value, two-sided permutation test over pairings (exact up to {stats.EXACT_LIMIT} orderings,
  else {stats.RESAMPLES} from a fixed seed, marked MC); `*` marks p below {stats.ALPHA}; no test
  with fewer than {stats.MIN_TREND} runs or runs of different code versions.
- Link draws (the authors' set-up, ga-topo-paper): each draw holds runs of every algorithm,
  so the comparisons permute runs only within a draw (the sum over the draws of the difference
  of means), on both metric families, Holm over the algorithms as above; no Welch p.
- Code versions: each cell keeps the runs of its newest code version (git ancestry; `-dirty`
  counts as newer than its commit); the runs dropped are listed under each experiment.
"""


# ---------------------------------------------------------------------------------------------
# Reading and checking the CSVs


def parse_rows(experiment, path, raw):
    """Typed rows (None where a field is empty) of one experiment's CSV, every field checked."""
    ex = EXPERIMENTS[experiment]
    needed = {c for m in ex.tabulated for c in METRICS[m].columns if c in METRIC_COLS}
    rows = []
    seen = set()
    for line, r in raw:
        where = f"{path}:{line}"
        t = dict(r)
        if r["experiment"] != experiment:
            raise ReportError(f"{where}: experiment {r['experiment']!r} in {experiment}.csv")
        for col in ("cell", "client", "code_version"):
            if not r[col]:
                raise ReportError(f"{where}: {col} is empty")
        for col in ex.needs + ("run",):
            if not r[col]:
                raise ReportError(f"{where}: {col} is empty ({experiment} needs it)")
        if r["status"] not in STATUSES:
            raise ReportError(f"{where}: status {r['status']!r} is not one of {STATUSES}")
        if r["algorithm"] and r["algorithm"] not in ALGORITHMS:
            raise ReportError(f"{where}: unknown algorithm {r['algorithm']!r}")
        if r["scheduler"] and r["scheduler"] not in SCHEDULERS:
            raise ReportError(f"{where}: unknown scheduler {r['scheduler']!r}")
        if r["controller"] not in CONTROLLERS:
            raise ReportError(
                f"{where}: controller {r['controller']!r} is not one of {CONTROLLERS}"
            )
        for col in INT_COLS:
            t[col] = shared.number(r[col], int, where, col) if r[col] else None
        for col in FLOAT_COLS:
            t[col] = shared.number(r[col], float, where, col) if r[col] else None
        for col in LIST_COLS:
            for part in r[col].split(";") if r[col] else []:
                shared.number(part, float, where, col)
        ok = r["status"] == "ok"
        t.update(shared.run_metrics(r, METRIC_COLS, needed, where, SIGNED_COLS))
        for col in ("success_rate", "redownload_share"):
            if t[col] is not None and t[col] > 1:
                raise ReportError(f"{where}: {col} {r[col]} is not a share in [0, 1]")
        if ok and "outage_pct" in ex.metrics and not (t["video_s"] and t["video_s"] > 0):
            raise ReportError(f"{where}: video_s must be a positive number")
        key = (r["cell"], t["run"], r["client"], r["code_version"])
        if key in seen:
            raise ReportError(
                f"{where}: a second row for cell {key[0]} run {key[1]} client {key[2]}"
            )
        seen.add(key)
        rows.append(t)
    return rows


def check_framework(data, path, rows):
    """Every framework number (record.FRAMEWORK) of the typed rows of the table at path must be
    what mpqoe.framework_qoe gives on the run's committed sample log (record.samples_path under
    data); ReportError naming the row otherwise, or when the log is missing or malformed."""
    runs = {}
    for r in rows:
        if any(r[c] is not None for c in record.FRAMEWORK):
            runs.setdefault((r["experiment"], r["cell"], r["run"], r["code_version"]), []).append(r)
    for (exp, cell, run, version), rs in runs.items():
        what = f"{path}: {cell} run{run} ({short(version)})"
        try:
            log = record.samples_path(data, exp, cell, run, version)
            with open(log, "rb") as f:
                samples = record.read_samples(f.read(), os.path.relpath(log, data))
        except FileNotFoundError:
            raise ReportError(f"{what}: the framework's numbers without their sample log "
                              f"{os.path.relpath(log, data)}") from None  # fmt: skip
        except (OSError, ValueError) as e:
            raise ReportError(f"{what}: {e}") from None
        for r in rs:
            try:
                want = record.framework_columns(samples.get(r["client"], []))
            except ValueError as e:
                raise ReportError(f"{what} client {r['client']}: {e}") from None
            for col, v in want.items():
                if (None if v == "" else float(v)) != r[col]:
                    raise ReportError(
                        f"{what} client {r['client']}: {col} {fmt_value(r[col])}, its sample "
                        f"log gives {fmt_value(v)}"
                    )


def fmt_value(v):
    return "empty" if v in ("", None) else f"{v:g}"


# An experiment compared by draw may have its ended table (record.ended_table) beside its
# table: the client rows (HEADER, then the attempt's name in <experiment>-attempts) of its failed
# attempts, as they ended. A client whose player finished is `ok` there; the comparison "as
# ended" counts those runs beside the ok ones, so that an attempt a check dropped (a
# controller-caused fallback, say) cannot bias the comparison by its absence.


def parse_ended(experiment, path, raw):
    """Typed rows of an ended table, each attempt's rows checked as a run's, their run
    (run, attempt) so that several attempts at one run stay apart."""
    by_attempt = {}
    for line, r in raw:
        if not r["attempt"]:
            raise ReportError(f"{path}:{line}: attempt is empty")
        by_attempt.setdefault(r["attempt"], []).append((line, r))
    out = []
    for attempt, lines in by_attempt.items():
        for t in parse_rows(experiment, path, lines):
            out.append(dict(t, run=(t["run"], attempt)))
    return out


def parse_network(data, experiment, res):
    """({(cell, run): {client: [paths]}} of the kept runs, {(topology, clients, seed): {link:
    capacity}}) from an experiment's paths and draws tables (record.PATH_COLUMNS,
    DRAW_COLUMNS); empty for absent tables."""
    ex = res.experiment
    kept = res.runs
    version = {c.name: c.version for c in res.cells}
    ppath = os.path.join(data, ex.paper, "data", f"{record.paths_table(experiment)}.csv")
    paths = {}
    for line, r in read_csv(ppath, record.PATH_COLUMNS) or []:
        run = shared.number(r["run"], int, f"{ppath}:{line}", "run")
        if (r["cell"], run) in kept and r["code_version"] == version[r["cell"]]:
            paths.setdefault((r["cell"], run), {})[r["client"]] = record.parse_paths(r["paths"])
    dpath = os.path.join(data, ex.paper, "data", f"{record.draws_table(experiment)}.csv")
    draws = {}
    for line, r in read_csv(dpath, record.DRAW_COLUMNS) or []:
        where = f"{dpath}:{line}"
        key = (r["topology"], shared.number(r["clients"], int, where, "clients"),
               shared.number(r["seed"], int, where, "seed"))  # fmt: skip
        cap = shared.number(r["capacity_mbps"], float, where, "capacity_mbps")
        ends = (r["server_switch"], tuple(r["client_switches"].split(";")))
        d = draws.setdefault(key, Draw({}, *ends))
        if (d.server, d.clients) != ends:
            raise ReportError(f"{where}: another attachment than the draw's first row")
        if d.links.setdefault(frozenset((r["a"], r["b"])), cap) != cap:
            raise ReportError(f"{where}: link {r['a']}-{r['b']} twice in one draw")
    return paths, draws


@dataclass(frozen=True)
class Draw:
    """A link draw's network: {link: capacity (Mbit/s)}, the server's switch (where its
    address is, so where every path ends) and the clients' switches."""

    links: dict
    server: str
    clients: tuple


def parse_series(name, path, raw, runs):
    """{(cell, run): {second: [values]}} of a time-series CSV; rows of runs not kept are left
    out, cells unknown to the experiment are an error."""
    cells = {c for c, _r in runs}
    value_col = SERIES[name][-1]
    out = {}
    for line, r in raw:
        where = f"{path}:{line}"
        run = shared.number(r["run"], int, where, "run")
        second = shared.number(r["second"], float, where, "second")
        v = shared.number(r[value_col], float, where, value_col)
        if v < 0:
            raise ReportError(f"{where}: {value_col} {r[value_col]} is negative")
        if value_col == "utilisation" and v > 2:
            raise ReportError(f"{where}: utilisation {r[value_col]} is not a share of capacity")
        if r["cell"] not in cells:
            raise ReportError(f"{where}: cell {r['cell']!r} is not in the experiment's runs")
        if (r["cell"], run) in runs:
            out.setdefault((r["cell"], run), {}).setdefault(second, []).append(v)
    return out


# ---------------------------------------------------------------------------------------------
# Code versions


git_newest = shared.git_newest


# ---------------------------------------------------------------------------------------------
# Aggregation


@dataclass
class Cell:
    name: str
    params: dict
    version: str
    runs: int  # runs of any outcome
    not_ok: tuple  # (clients not ok, clients)
    values: dict  # metric -> [per-run values]
    intervals: dict  # metric -> stats.Interval
    draws: dict = field(default_factory=dict)  # metric -> {pair_by value: [per-run values]}
    by_run: dict = field(default_factory=dict)  # metric -> {run: value}

    @property
    def busy(self):
        """{run: host CPU busy %} of the cell's runs that recorded it."""
        return self.by_run.get("host_busy_pct", {})


@dataclass
class Group:
    name: str
    params: dict  # the cells' parameters less the algorithm
    cells: dict  # algorithm -> Cell
    comparisons: dict = field(default_factory=dict)  # metric -> [stats.Comparison]


@dataclass
class Result(shared.CellsAndGroups):
    experiment: Experiment
    cells: list = field(default_factory=list)
    groups: list = field(default_factory=list)
    dropped: list = field(default_factory=list)
    runs: set = field(default_factory=set)  # (cell, run) of the kept runs
    series: dict = field(default_factory=dict)  # name -> {(cell, run): {second: [values]}}
    trends: dict = field(default_factory=dict)  # metric -> stats.Trend (experiments with one)
    attempts: list = field(default_factory=list)  # record.ATTEMPT_COLUMNS rows, ok or failed
    rows: list = field(default_factory=list)  # the kept typed rows
    ended: list = field(default_factory=list)  # failed attempts as ended: typed rows, run (k, a)
    paths: dict = field(default_factory=dict)  # (cell, run) -> {client: [paths]} (kept runs)
    draws: dict = field(default_factory=dict)  # (topology, clients, seed) -> {link: Mbit/s}

    @property
    def missing(self):
        return not self.cells


def _order_key(params):
    def k(v, table=()):
        if v is None:
            return (0, 0, "")
        if v in table:
            return (1, table.index(v), "")
        return (1, v, "") if isinstance(v, int | float) else (2, 0, str(v))

    return tuple(
        k(
            params[p],
            {"algorithm": ALGORITHMS, "scheduler": SCHEDULERS, "controller": CONTROLLERS}.get(
                p, ()
            ),
        )
        for p in PARAMS
    )


def group_name(cell, algorithm):
    parts = cell.split(".")
    rest = [p for p in parts if p != algorithm]
    return ".".join(rest) if algorithm and len(rest) == len(parts) - 1 else cell


def summarize(experiment, path, rows, newest):
    """Result of one experiment's typed rows: cells, groups with their comparisons."""
    ex = EXPERIMENTS[experiment]
    res = Result(ex)
    try:
        rows, res.dropped = stats.keep_newest(rows, newest)
    except ValueError as e:
        raise ReportError(f"{path}: {e}") from e
    res.rows = rows
    params = {}
    for r in rows:
        p = {k: None if r[k] in ("", None) else r[k] for k in PARAMS}
        if params.setdefault(r["cell"], p) != p:
            diff = [k for k in PARAMS if params[r["cell"]][k] != p[k]]
            raise ReportError(f"{path}: cell {r['cell']} has rows with different {', '.join(diff)}")
    runs = {}
    for r in rows:
        runs.setdefault(r["cell"], set()).add(r["run"])
        res.runs.add((r["cell"], r["run"]))
    not_ok = stats.not_ok(rows)
    values = {m: stats.per_run(rows, METRICS[m].value) for m in ex.reported}
    version = {r["cell"]: r["code_version"] for r in rows}
    draw = {(r["cell"], r["run"]): r[ex.pair_by] for r in rows} if ex.pair_by else {}
    for name in sorted(params, key=lambda c: (_order_key(params[c]), c)):
        vals = {m: list(values[m].get(name, {}).values()) for m in ex.reported}
        draws = {}
        for m in ex.reported if ex.pair_by else ():
            for run, v in values[m].get(name, {}).items():
                draws.setdefault(m, {}).setdefault(draw[(name, run)], []).append(v)
        res.cells.append(
            Cell(
                name,
                params[name],
                version[name],
                len(runs[name]),
                not_ok[name],
                vals,
                {m: stats.mean_ci(v) for m, v in vals.items()},
                draws,
                {m: values[m].get(name, {}) for m in ex.reported},
            )
        )
    by_key = {}
    for c in res.cells:
        key = tuple((k, v) for k, v in c.params.items() if k != "algorithm")
        gname = group_name(c.name, c.params["algorithm"])
        g = by_key.setdefault(key, Group(gname, dict(key), {}))
        if g.name != gname:
            raise ReportError(
                f"{path}: cells {next(iter(g.cells.values())).name} and {c.name} differ only in "
                "the algorithm but their names do not (name cells <group>.<algorithm>)"
            )
        twin = g.cells.get(c.params["algorithm"])
        if twin is not None:
            raise ReportError(f"{path}: cells {twin.name} and {c.name} have the same parameters")
        g.cells[c.params["algorithm"]] = c
    names = Counter(g.name for g in by_key.values())
    for n, k in names.items():
        if k > 1:
            raise ReportError(f"{path}: group name {n} stands for {k} different groups")
    res.groups = list(by_key.values())
    if ex.trend:
        for m in ex.metrics:
            pts = [(c.params[ex.trend], v, c.version) for c in res.cells for v in c.values[m]]
            res.trends[m] = stats.trend(*zip(*pts, strict=True)) if pts else stats.trend([], [])
    if ex.ref:
        for g in res.groups:
            versions = {a: c.version for a, c in g.cells.items()}
            for m in ex.compared:
                if ex.pair_by:
                    by_draw = {a: c.draws.get(m, {}) for a, c in g.cells.items()}
                    g.comparisons[m] = stats.compare_by_draw(ex.ref, by_draw, versions)
                else:
                    samples = {a: c.values[m] for a, c in g.cells.items()}
                    g.comparisons[m] = stats.compare_group(ex.ref, samples, versions)
    return res


def load(data, newest):
    """{experiment: Result} of every experiment under data (empty Results for absent CSVs)."""
    out = {}
    for name, ex in EXPERIMENTS.items():
        path = os.path.join(data, ex.paper, "data", f"{name}.csv")
        # grown: tables published before the framework's columns were added lack them
        raw = read_csv(path, HEADER, grown=True)
        rows = parse_rows(name, path, raw or [])
        check_framework(data, path, rows)
        res = summarize(name, path, rows, newest)
        for sname in SERIES:
            if not sname.startswith(f"{name}-"):
                continue
            spath = os.path.join(data, ex.paper, "data", f"{sname}.csv")
            sraw = read_csv(spath, SERIES[sname])
            if sraw is not None:
                res.series[sname] = parse_series(sname, spath, sraw, res.runs)
        if ex.pair_by:
            epath = os.path.join(data, ex.paper, "data", f"{record.ended_table(name)}.csv")
            res.ended = parse_ended(
                name, epath, read_csv(epath, [*HEADER, *record.ENDED_COLUMNS]) or []
            )
        if ex.pair_by:
            res.paths, res.draws = parse_network(data, name, res)
        apath = os.path.join(data, ex.paper, "data", f"{record.attempts_table(name)}.csv")
        res.attempts = [
            row for _line, row in read_csv(apath, record.ATTEMPT_COLUMNS, grown=True) or []
        ]
        out[name] = res
    return out


# ---------------------------------------------------------------------------------------------
# Text


def fmt_param(v):
    if isinstance(v, float) and v.is_integer():
        return str(int(v))
    return "-" if v is None else str(v)


def fmt_plus_minus(iv, decimals):
    if iv.n == 0:
        return "-"
    if iv.half is None:
        return f"{fmt(iv.mean, decimals)} (1 run)"
    return f"{fmt(iv.mean, decimals)} ± {fmt(iv.half, decimals)}"


PARAM_LABELS = {
    "topology": ("topology", "{}"),
    "clients": ("clients", "{} clients"),
    "scheduler": ("scheduler", "scheduler {}"),
    "rcvbuf_kb": ("receive buffer (KB)", "receive buffer {} KB"),
    "delay_diff_ms": ("delay difference (ms)", "delay difference {} ms"),
    "segment_s": ("segment (s)", "{} s segments"),
    "video_s": ("video (s)", "{} s video"),
    "controller": ("controller", "{} controller"),
    "background": ("background flow", "background flow {}"),
    "algorithm": ("algorithm", "{}"),
}


def metric_label(m):
    return METRICS[m].label + (f" ({METRICS[m].unit})" if METRICS[m].unit else "")


def param_text(p, v):
    if p == "clients" and v == 1:
        return "1 client"
    if p == "rcvbuf_kb" and v == 0:
        return "receive buffer autotuned"  # 0: the kernel's default, no cap set
    return PARAM_LABELS[p][1].format(fmt_param(v))


def group_label(g):
    return ", ".join(param_text(k, v) for k, v in g.params.items() if v is not None)


def status_text(res):
    if res.missing:
        return "no runs yet"
    runs = sum(c.runs for c in res.cells)
    per = sorted({c.runs for c in res.cells})
    per_text = str(per[0]) if len(per) == 1 else f"{per[0]}-{per[-1]}"
    vs = ", ".join(f"`{short(v)}`" for v in sorted(res.versions()))
    word = "version" if len(res.versions()) == 1 else "versions"
    return f"{runs} runs in {len(res.cells)} cells ({per_text} per cell), code {word} {vs}"


def table(head, rows):
    out = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    out += ["| " + " | ".join(r) + " |" for r in rows]
    return out


def experiment_md(res):
    ex = res.experiment
    rel = os.path.join("data", f"{ex.name}.csv")
    lines = [f"## {ex.name}: {ex.title}", ""]
    if res.missing:
        return lines + [f"No runs yet (`{rel}` is absent or empty).", ""]
    lines += [f"Data: `{rel}`: {status_text(res)}."]
    versions = res.versions()
    if res.dropped:
        lines.append(
            "Dropped (older code version of the cell): "
            + "; ".join(f"{c}: {n} run(s) of `{short(v)}`" for c, v, n in res.dropped)
            + "."
        )
    lines.append("")
    varying = [p for p in PARAMS if len({c.params[p] for c in res.cells}) > 1 or p == "algorithm"]
    head = [PARAM_LABELS[p][0] for p in varying] + ["cell", "runs", "clients not ok"]
    head += [metric_label(m) for m in ex.tabulated]
    if len(versions) > 1:
        head.append("code version")
    rows = []
    for c in res.cells:
        r = [fmt_param(c.params[p]) for p in varying]
        n = c.intervals[ex.metrics[0]].n
        r += [f"`{c.name}`", f"{n} of {c.runs}" if n != c.runs else str(n)]
        r.append(f"{c.not_ok[0]} of {c.not_ok[1]}")
        r += [fmt_plus_minus(c.intervals[m], METRICS[m].decimals) for m in ex.tabulated]
        if len(versions) > 1:
            r.append(f"`{short(c.version)}`")
        rows.append(r)
    lines += table(head, rows) + [""]
    lines += framework_md(res)
    if ex.trend:
        lines += trends_md(res)
    if ex.name == "qomra":
        lines += table_ii(res)
    if ex.ref:
        lines += comparisons_md(res)
    return lines


def framework_md(res):
    """The framework's metrics (mean +- CI over runs) of the cells whose runs have them."""
    ex = res.experiment
    cells = [c for c in res.cells if any(c.intervals[m].n for m in ex.framework)]
    if not cells:
        return []
    lines = [
        "### The GA paper's authors' metric (their framework, from the players' 1 s samples)",
        "",
        "Recomputed from the players' sample logs in `data/samples/` ([Two QoE metrics]"
        "(../../video-experiments.md#two-qoe-metrics)): the mean sampled bitrate and the "
        f"underruns over the first {WINDOW} samples (or all), quality switches over all "
        "samples; the cells and runs that have them.",
        "",
    ]
    head = ["cell", "runs"] + [metric_label(m) for m in ex.framework]
    rows = []
    for c in cells:
        n = max(c.intervals[m].n for m in ex.framework)
        r = [f"`{c.name}`", str(n)]
        r += [fmt_plus_minus(c.intervals[m], METRICS[m].decimals) for m in ex.framework]
        rows.append(r)
    return lines + table(head, rows) + [""]


def trends_md(res):
    ex = res.experiment
    lines = [
        f"### Trends along the {PARAM_LABELS[ex.trend][0]}",
        "",
        "Spearman's rho between the parameter and the runs' values (all cells), two-sided "
        "permutation p over pairings.",
        "",
    ]
    rows = []
    for m, t in res.trends.items():
        if t.tested:
            p = fmt_p(t.p) + ("" if t.exact else " (MC)")
            rows.append([METRICS[m].label, str(t.n), f"{t.rho:+.2f}", p, "*" if t.sig else ""])
        else:
            rows.append([METRICS[m].label, str(t.n), "-", t.reason, ""])
    return lines + table(["metric", "runs", "rho", "p", ""], rows) + [""]


def comparisons_md(res):
    ex = res.experiment
    lines = []
    for g in res.groups:
        if not any(g.comparisons.values()):
            continue
        lines += [
            f"### Comparisons in `{g.name}` ({group_label(g)}): {ex.ref} against each",
            "",
            f"difference = mean({ex.ref}) - mean(other); p: permutation test, "
            + (f"runs permuted within each {ex.pair_by} (link draw), " if ex.pair_by else "")
            + "Holm: adjusted over the metric's comparisons, Welch: unadjusted.",
            "",
        ]
        rows = []
        for m in ex.compared:
            d = METRICS[m].decimals
            for c in g.comparisons[m]:
                if c.tested:
                    p = fmt_p(c.p_perm) + ("" if c.exact else " (MC)")
                    tail = [p, fmt_p(c.p_holm), fmt_p(c.p_welch), "*" if c.sig else ""]
                else:
                    tail = [c.reason, "-", "-", ""]
                rows.append(
                    [METRICS[m].label, c.other, f"{c.n_ref} vs {c.n_other}", fmt_diff(c.diff, d)]
                    + tail
                )
        head = ["metric", "other", "runs", "difference", "p", "Holm p", "Welch p", ""]
        lines += table(head, rows) + [""]
    return lines


TABLE_II = {  # metric: column heading
    "switches_count": "switches",
    "startup_s": "startup delay (s)",
    "success_pct": "success rate (%)",
}


def table_ii(res):
    """The QoMRA paper's Table II shape: per segment length and algorithm, switches, startup
    delay and success rate (mean +- CI over runs)."""
    algs = [a for a in ALGORITHMS if any(c.params["algorithm"] == a for c in res.cells)]
    head = ["segment (s)", "video (s)"] + [f"{a}: {h}" for a in algs for h in TABLE_II.values()]
    rows = []
    for g in res.groups:
        r = [fmt_param(g.params["segment_s"]), fmt_param(g.params["video_s"])]
        for a in algs:
            c = g.cells.get(a)
            for m in TABLE_II:
                r.append(fmt_plus_minus(c.intervals[m], METRICS[m].decimals) if c else "-")
        rows.append(r)
    return [
        "### Table II (the paper's shape)",
        "",
        "Mean ± 95 % CI over runs; switches are counted changes of quality, the success rate is "
        "the share of segments at the top bitrate.",
        "",
    ] + (table(head, rows) + [""])


def above_limit_md(res, results):
    """The runs of an experiment whose host was busier than its calibration's CPU limit."""
    cal = res.experiment.calibration
    lim = _calibration(results, cal)
    lines = [f"### Runs above the CPU limit of {cal}", ""]
    if lim is None or lim.busy_pct is None:
        return lines + [f"No limit yet: {cal} has no runs that set one.", ""]
    d = METRICS["host_busy_pct"].decimals
    above = [(c, r, v) for (c, r), v in _run_busy(res).items() if lim.above(v)]
    lines.append(
        f"The limit: {fmt(lim.busy_pct, d)} % host CPU busy, the highest of the {lim.clients}-"
        f"client calibration runs that all played the top bitrate without stalls; "
        f"{len(above)} of {len(_run_busy(res))} runs were busier."
    )
    rows = [[f"`{c}`", str(r), fmt(v, d)] for c, r, v in sorted(above)]
    return lines + [""] + (table(["cell", "run", "host CPU busy (%)"], rows) + [""] if rows else [])


def tables_md(paper, results, figures):
    lines = [
        f"# {PAPERS[paper]}",
        "",
        "Generated from the CSVs in `data/`; do not edit. Regenerate with",
        "",
        "```sh",
        COMMAND,
        "```",
        "",
        METHOD,
    ]
    for res in results.values():
        if res.experiment.paper == paper:
            lines += experiment_md(res)
            if res.experiment.calibration and not res.missing:
                lines += above_limit_md(res, results)
    if figures:
        lines += ["## Figures", ""]
        lines += [f"![{name}](figures/{name})" for name in sorted(figures)]
        lines.append("")
    return "\n".join(lines).rstrip("\n") + "\n"


# ---------------------------------------------------------------------------------------------
# Placeholders

NO_RUNS = "not run yet"


def _subject(subject, what="<experiment>/<cell>"):
    """(experiment, rest) of a subject <experiment>/<rest>; KeyError naming the form."""
    exp, sep, rest = subject.partition("/")
    if not sep or not rest:
        raise KeyError(f"subject {subject!r} is not {what}")
    return exp, rest


def _value(results, subject, metric, fld):
    exp, cell = _subject(subject)
    res = _experiment(results, exp, metric)
    if fld not in shared.INTERVAL_FIELDS:
        raise KeyError(f"field {fld!r} is not {', '.join(shared.INTERVAL_FIELDS)}")
    if res.missing:
        return NO_RUNS
    c = res.cell(cell)
    if c is None:
        raise KeyError(f"{exp} has no cell {cell!r}")
    return shared.interval_field(c.intervals[metric], fld, METRICS[metric].decimals)


def _untested_of(named_tests, check):
    """None when every test of [(name, test)] (one of several placeholders' families) was made;
    else the "n/a (...)" text naming those that were not, or a KeyError when the field is a
    check (words cannot rest on a test that was not made)."""
    untested = "; ".join(f"{n}: {t.reason}" for n, t in named_tests if not t.tested)
    if not untested:
        return None
    if check:
        raise KeyError(f"the words it checks rest on tests not made ({untested})")
    return f"n/a ({untested})"


def _metric_list(results, exp, names):
    """(exp's result, [metric]) of comma-joined metric names, each one of exp's metrics and
    named once (a family of tests, or several comparisons)."""
    res = _experiment(results, exp)
    metrics = names.split(",")
    for metric in metrics:
        _experiment(results, exp, metric)
    if len(set(metrics)) != len(metrics):
        raise KeyError(f"{names} names a metric twice")
    return res, metrics


def _experiment(results, exp, metric=None):
    if exp not in results:
        raise KeyError(f"unknown experiment {exp!r}")
    res = results[exp]
    if metric is not None and metric not in res.experiment.reported:
        raise KeyError(f"{exp} has no metric {metric!r} ({', '.join(res.experiment.reported)})")
    return res


def _comparison(results, subject, metric_names, fld, during=None):
    """{{cmp <experiment>/<group>/<other> <metric> <field>}}: the group's cell of algorithm
    other against the experiment's reference algorithm's; algorithms and metrics joined by
    commas name several of the page's tests (each Holm-adjusted in its own family, the group's
    comparisons of one metric): field minp, the smallest of their adjusted p (the number behind
    "smallest p"). during=: the claim's time window, tested on the runs' time series alone."""
    form = "<experiment>/<group>/<algorithm>[,<algorithm>...]"
    exp, rest = _subject(subject, form)
    gname, sep, other_names = rest.rpartition("/")
    if not sep:
        raise KeyError(f"subject {subject!r} is not {form}")
    res, metrics = _metric_list(results, exp, metric_names)
    ref = res.experiment.ref
    others = []
    for other in other_names.split(","):
        if other not in ALGORITHMS or other == ref:
            raise KeyError(f"{exp} compares {ref} with another algorithm, not with {other!r}")
        others.append(other)
    if during is not None:
        return _windowed(res, exp, gname, metrics, others, fld, during)
    several = len(metrics) * len(others) > 1
    if several:
        if fld != "minp":
            raise KeyError(f"field {fld!r} is not minp, the field of several comparisons")
    else:
        shared.check_field(fld, ("p", "sig", "diff", "p_raw", "welch", *shared.SIGN_CHECKS))
    if res.missing:
        return NO_RUNS
    g = res.group(gname)
    if g is None:
        raise KeyError(f"{exp} has no group {gname!r}")
    tests = []
    for metric in metrics:
        for other in others:
            c = next((c for c in g.comparisons[metric] if c.other == other), None)
            if c is None:
                raise KeyError(f"group {gname} of {exp} has no {ref} and {other} cells to compare")
            tests.append((metric, c))
    if not several:
        metric, c = tests[0]
        return _test_field(c, fld, metric, {"p": c.p_holm, "p_raw": c.p_perm, "welch": c.p_welch})
    na = _untested_of([(f"{m} {c.other}", c) for m, c in tests], check=False)
    return na or fmt_p(min(c.p_holm for _m, c in tests))


# the metrics a claim's time window can be tested on: metric -> the time series that holds it
WINDOW_SERIES = {"mean_throughput_kbps": "qomra-throughput"}


def _window_values(res, cell, series, during):
    """[per-run mean of the series' values in the window] of a cell: the runs with a sample in
    it (seconds lo <= s <= hi), each the mean over its seconds and clients."""
    out = []
    for (name, _run), per_second in sorted(res.series.get(series, {}).items()):
        if name != cell.name:
            continue
        vs = [
            v for sec, values in per_second.items() if during.lo <= sec <= during.hi for v in values
        ]
        if vs:
            out.append(sum(vs) / len(vs))
    return out


def _windowed(res, exp, gname, metrics, others, fld, during):
    """The comparison of a claim restricted to a time window: the reference's cell against the
    other's on the per-run means of the metric's time series in the window (permutation test,
    not adjusted). Without runs enough in the window (stats.MIN_RUNS a side) the claim is not
    tested: field verdict "not tested", p "n/a (...)", a check of words an error."""
    if len(metrics) != 1 or len(others) != 1:
        raise KeyError("a time window tests one metric against one algorithm")
    metric, other = metrics[0], others[0]
    if metric not in WINDOW_SERIES:
        raise KeyError(f"{metric} has no time series for during= ({', '.join(WINDOW_SERIES)})")
    shared.check_field(fld, ("p", "sig", "diff", "welch", "verdict", *shared.SIGN_CHECKS))
    if res.missing:
        return NO_RUNS
    g = res.group(gname)
    if g is None:
        raise KeyError(f"{exp} has no group {gname!r}")
    ref = res.experiment.ref
    if ref not in g.cells or other not in g.cells:
        raise KeyError(f"group {gname} of {exp} has no {ref} and {other} cells to compare")
    a, b = (_window_values(res, g.cells[x], WINDOW_SERIES[metric], during) for x in (ref, other))
    c = stats.compare(ref, other, a, b)
    if not a or not b:
        c = stats.Comparison(ref, other, len(a), len(b), None, reason="no series in the window")
    elif g.cells[ref].version != g.cells[other].version:
        c = stats.Comparison(ref, other, len(a), len(b), None, reason=stats.VERSIONS_DIFFER)
    if fld == "verdict":
        if not c.tested:
            return "not tested"
        return shared.finding(c.p_perm < stats.ALPHA, c.diff < 0)
    return _test_field(c, fld, metric, {"p": c.p_perm, "welch": c.p_welch})


def _test_field(c, fld, metric, ps):
    """One field of a stats.Comparison: diff, sig (judged by ps["p"]) or a p-value of ps."""
    return shared.test_field(c, fld, METRICS[metric].decimals, ps, stats.ALPHA)


def _pair(results, first, second, metric, fld):
    exp, a = _subject(first)
    exp_b, b = _subject(second)
    if exp_b != exp:
        raise KeyError(f"pair compares two cells of one experiment, not {exp} and {exp_b}")
    res = _experiment(results, exp, metric)
    shared.check_field(fld, ("p", "sig", "diff", "welch", *shared.SIGN_CHECKS))
    if res.missing:
        return NO_RUNS
    cells = [res.cell(n) for n in (a, b)]
    for n, c in zip((a, b), cells, strict=True):
        if c is None:
            raise KeyError(f"{exp} has no cell {n!r}")
    ca, cb = cells
    if ca.version != cb.version:
        c = stats.Comparison(a, b, 0, 0, None, reason=stats.VERSIONS_DIFFER)
    else:
        c = stats.compare(a, b, ca.values[metric], cb.values[metric])
    return _test_field(c, fld, metric, {"p": c.p_perm, "welch": c.p_welch})


def _strat(results, subject, metric_names, pair_names, fld):
    """{{strat <experiment>/<group>+<group>... <metric> <ref>-vs-<other>[,...] <field>}};
    metrics and comparisons joined by commas are one family, every metric with every
    comparison, Holm-adjusted over them: field maxp (the largest adjusted p) and the check
    allsig (nothing when every adjusted p is below stats.ALPHA)."""
    exp, gnames = _subject(subject, "<experiment>/<group>[+<group>...]")
    name = f"{subject} {metric_names} {','.join(pair_names)}"
    res, metrics = _metric_list(results, exp, metric_names)
    pairs = []
    for pair in pair_names:
        ref, _, other = pair.partition("-vs-")
        if ref not in ALGORITHMS or other not in ALGORITHMS or ref == other:
            raise KeyError(f"{pair!r} is not <algorithm>-vs-<other algorithm>")
        pairs.append((ref, other))
    family = [(m, ref, other) for m in metrics for ref, other in pairs]
    if len(set(family)) != len(family):
        raise KeyError(f"a family names each metric and comparison once, not {name}")
    if len(family) > 1:
        if fld not in ("maxp", "allsig"):
            raise KeyError(f"field {fld!r} is not maxp or allsig, the fields of a family")
    else:
        shared.check_field(fld, ("p", "sig", "diff", "n", *shared.SIGN_CHECKS))
    if res.missing:
        return NO_RUNS
    tests = [_strat_test(res, exp, gnames, *t) for t in family]
    if len(family) == 1:
        return _stratified_field(tests[0], fld, metrics[0])
    named = [(f"{m} {ref}-vs-{other}", t) for (m, ref, other), t in zip(family, tests, strict=True)]
    if na := _untested_of(named, check=fld == "allsig"):
        return na
    adjusted = stats.holm([t.p_perm for t in tests])
    if fld == "maxp":
        return fmt_p(max(adjusted))
    weak = [
        f"{m} {ref}-vs-{other} {fmt_p(p)}"
        for (m, ref, other), p in zip(family, adjusted, strict=True)
        if not p < stats.ALPHA
    ]
    if weak:
        raise KeyError(
            f"the words it checks need every Holm-adjusted p below {stats.ALPHA:g}, the data "
            f"give {', '.join(weak)}"
        )
    return ""


def _strat_test(res, exp, gnames, metric, ref, other):
    """The stats.Stratified of ref against other on metric over the groups joined by +."""
    strata, versions = [], []
    for gname in gnames.split("+"):
        g = res.group(gname)
        if g is None:
            raise KeyError(f"{exp} has no group {gname!r}")
        if ref not in g.cells or other not in g.cells:
            raise KeyError(f"group {gname} of {exp} has no {ref} and {other} cells")
        a, b = g.cells[ref], g.cells[other]
        strata.append((a.values[metric], b.values[metric]))
        versions.append((a.version, b.version))
    return stats.compare_stratified(ref, other, strata, versions)


def _stratified_field(c, fld, metric):
    """One field (p, sig, diff, n) of a stats.Stratified."""
    if fld == "n":
        return str(c.groups)
    return _test_field(c, fld, metric, {"p": c.p_perm})


def _param_eq(value, want):
    """A cell's parameter (as its CSV gives it) against a value written in a placeholder."""
    if value is None:
        return want == ""
    if value == want:
        return True
    try:
        return float(value) == float(want)
    except ValueError:
        return False


def _factor(results, exp, param, pair, metric, fld, where):
    filters = where or []
    res = _experiment(results, exp, metric)
    if param not in PARAMS:
        raise KeyError(f"{param!r} is not a parameter ({', '.join(PARAMS)})")
    a, sep, b = pair.partition("-vs-")
    if not sep or not a or not b or a == b:
        raise KeyError(f"{pair!r} is not <value>-vs-<other value>")
    shared.check_field(fld, ("p", "sig", "diff", "n", *shared.SIGN_CHECKS))
    keep = []
    for f in filters:
        k, eq, v = f.partition(":")
        if not eq or k not in PARAMS or k == param:
            raise KeyError(f"filter {f!r} is not <parameter>:<value> of another parameter")
        keep.append((k, v))
    if res.missing:
        return NO_RUNS
    cells = [c for c in res.cells if all(_param_eq(c.params[k], v) for k, v in keep)]
    pairs = {}
    for c in cells:
        side = 0 if _param_eq(c.params[param], a) else 1 if _param_eq(c.params[param], b) else None
        if side is not None:
            rest = tuple((k, v) for k, v in c.params.items() if k != param)
            pairs.setdefault(rest, [None, None])[side] = c
    strata = [(ca, cb) for ca, cb in pairs.values() if ca is not None and cb is not None]
    if not strata:
        raise KeyError(f"{exp} has no cells that differ only in {param} = {a} / {b}")
    c = stats.compare_stratified(
        a,
        b,
        [(ca.values[metric], cb.values[metric]) for ca, cb in strata],
        [(ca.version, cb.version) for ca, cb in strata],
    )
    return _stratified_field(c, fld, metric)


def _trend(results, exp, metric, fld):
    res = _experiment(results, exp, metric)
    if not res.experiment.trend or metric not in res.experiment.metrics:
        raise KeyError(f"{exp} tests no trend of {metric!r}")
    shared.check_field(fld, ("rho", "p", "n", "sig"))
    if res.missing:
        return NO_RUNS
    t = res.trends[metric]
    return _trend_field(t, fld)


def _trend_field(t, fld):
    """One field (rho, p, n, sig, or a check: higher for a significant rise, lower for a fall,
    same for none) of a stats.Trend."""
    if fld in shared.CHECKS:
        return shared.check_words(fld, t.tested, t.reason, t.p, stats.ALPHA, t.tested and t.rho > 0)
    if fld == "n":
        return str(t.n)
    if fld == "sig":
        return ("yes" if t.sig else "no") if t.tested else "untested"
    if not t.tested:
        return f"n/a ({t.reason})"
    return f"{t.rho:+.2f}" if fld == "rho" else fmt_p(t.p)


def _order(results, first, second, metric_names, fld):
    """{{order <experiment>/<group> <experiment>/<other group> <metric> <field>}}: do the two
    groups rank the algorithms alike by their cells' means of metric (Spearman's rho, exact
    permutation p; top and bottom: the first and last algorithm of each). Groups joined by +
    on both sides (g1+g2 h1+h2) pair up in order and are tested together
    (stats.pooled_trend: the mean rho, each pair permuted on its own); top and bottom then
    have no meaning. Metrics joined by a comma are one family of tests, Holm-adjusted over
    them: minp, the smallest adjusted p, and the checks, judged by the test with that p."""
    exp, ga = _subject(first, "<experiment>/<group>[+<group>...]")
    exp_b, gb = _subject(second, "<experiment>/<group>[+<group>...]")
    if exp_b != exp:
        raise KeyError(f"order ranks groups of one experiment, not {exp} and {exp_b}")
    res, metrics = _metric_list(results, exp, metric_names)
    family = len(metrics) > 1
    if family:
        shared.check_field(fld, ("minp",))
    else:
        shared.check_field(fld, ("rho", "p", "n", "sig", "top", "bottom"))
    firsts, seconds = ga.split("+"), gb.split("+")
    if len(firsts) != len(seconds):
        raise KeyError(f"{ga} and {gb} join different numbers of groups")
    if len(firsts) > 1 and fld in ("top", "bottom"):
        raise KeyError(f"field {fld!r} needs one group a side, not {ga}")
    if res.missing:
        return NO_RUNS
    pairs = []
    for first, second in zip(firsts, seconds, strict=True):
        groups = _two_groups(res, exp, first, second, "order")
        algs = [a for a in ALGORITHMS if all(a in g.cells for g in groups)]
        pairs.append((algs, groups))
    if fld in ("top", "bottom"):
        algs, groups = pairs[0]
        if not algs:
            return "n/a"
        pick = max if fld == "top" else min
        means = [[g.cells[a].intervals[metrics[0]].mean for a in algs] for g in groups]
        ends = [algs[pick(range(len(algs)), key=m.__getitem__)] for m in means]
        return ends[0] if ends[0] == ends[1] else " / ".join(ends)
    trends = [_order_trend(pairs, metric) for metric in metrics]
    if not family:
        return _trend_field(trends[0], fld)
    if na := _untested_of(list(zip(metrics, trends, strict=True)), check=fld in shared.CHECKS):
        return na
    adjusted = stats.holm([t.p for t in trends])
    i = min(range(len(trends)), key=adjusted.__getitem__)
    if fld == "minp":
        return fmt_p(adjusted[i])
    return shared.check_words(fld, True, None, adjusted[i], stats.ALPHA, trends[i].rho > 0)


def _two_groups(res, exp, first, second, kind):
    """The groups named first and second of exp's result; KeyError when one is missing or both
    are the same (kind, the placeholder, compares two)."""
    if first == second:
        raise KeyError(f"{kind} compares two different groups, not {first} with itself")
    groups = []
    for gname in (first, second):
        g = res.group(gname)
        if g is None:
            raise KeyError(f"{exp} has no group {gname!r}")
        groups.append(g)
    return groups


def _order_trend(pairs, metric):
    """The stats.Trend of one metric's ranking over pairs [(algorithms, (group, other group))]:
    one pair tested alone, several pooled (stats.pooled_trend)."""
    # two groups of different code versions may be ranked against each other: each mean comes
    # from one version; the test is of the ranking, not of a difference between the groups
    pairings = [
        [[g.cells[a].intervals[metric].mean for a in algs] for g in groups]
        for algs, groups in pairs
    ]
    if len(pairings) == 1:
        return stats.trend(*pairings[0])
    return stats.pooled_trend(pairings)


def _cells_with_runs(res, exp, names, metric, fld="mean"):
    """[(cell name, fld of metric's interval)] of the named cells (comma-separated shell
    patterns when patterns); fld: one of shared.CHECKED_VALUES (mean, interval ends, half-width,
    run count); KeyError when one matches nothing or lacks that number (words about it rest
    on nothing)."""
    if res.missing:
        raise KeyError(f"{exp} has no runs yet, so the words it checks rest on nothing")
    values = []
    for pat in names.split(","):
        cells = [c for c in res.cells if fnmatch.fnmatchcase(c.name, pat)]
        if not cells:
            raise KeyError(f"no cell of {exp} matches {pat!r}")
        for c in cells:
            where = f"{c.name} of {exp} ({metric})"
            values.append((c.name, shared.checked_value(c.intervals[metric], fld, where)))
    return values


def _by_experiment(results, subjects, metric, fld="mean"):
    """[(cell name, fld of metric)] of subjects <experiment>/<cell pattern> (shell patterns
    when patterns), in the order named (_cells_with_runs)."""
    values = []
    for subject in subjects:
        exp, pattern = _subject(subject, "<experiment>/<cell pattern>")
        res = _experiment(results, exp, metric)
        values += _cells_with_runs(res, exp, pattern, metric, fld)
    return values


def _within(results, subjects, metric, bounds, fld):
    """{{within <experiment>/<cell pattern>,... <metric> <lo>..<hi> [<field>]}}: nothing when
    every matching cell's mean (field mean, the default), interval end (lo, hi), half-width
    (ci) or run count (n) lies in [lo, hi], else an error (shared.check_within)."""
    if fld not in shared.CHECKED_VALUES:
        raise KeyError(f"field {fld!r} is not {', '.join(shared.CHECKED_VALUES)}")
    lo, hi = bounds.lo, bounds.hi
    values = _by_experiment(results, subjects, metric, fld)
    what = shared.checked_words(fld, metric)
    return shared.check_within(values, lo, hi, metric, METRICS[metric].decimals, what)


def _ratio(results, first, second, metric, bounds, what):
    """{{ratio <experiment>/<group> <experiment>/<other group> <metric> <lo>..<hi> [count]}}:
    per algorithm
    in both groups, its mean in the other group over its mean in the first; nothing when every
    ratio lies in [lo, hi], else an error (shared.check_within); with count, how many do ("4
    of 6"), the number behind "mostly"."""
    exp, ga = _subject(first, "<experiment>/<group>")
    exp_b, gb = _subject(second, "<experiment>/<group>")
    if exp_b != exp:
        raise KeyError(f"ratio divides groups of one experiment, not {exp} and {exp_b}")
    res = _experiment(results, exp, metric)
    lo, hi = bounds.lo, bounds.hi
    if res.missing:
        raise KeyError(f"{exp} has no runs yet, so the words it checks rest on nothing")
    groups = _two_groups(res, exp, ga, gb, "ratio")
    ratios = []
    for a in ALGORITHMS:
        if not all(a in g.cells for g in groups):
            continue
        base, other = (g.cells[a].intervals[metric].mean for g in groups)
        if base is None or other is None or base == 0:
            raise KeyError(f"{a} has no ratio of {metric} ({gb} over {ga}: {other} / {base})")
        ratios.append((a, other / base))
    if not ratios:
        raise KeyError(f"{ga} and {gb} share no algorithm")
    if what == "count":
        inside = sum(lo <= r <= hi for _a, r in ratios)
        return f"{inside} of {len(ratios)}"
    return shared.check_within(ratios, lo, hi, metric, 2, f"ratios {gb} / {ga} of {metric}")


def _rising(results, subjects, metric, fld):
    """{{rising <experiment>/<cell>,<experiment>/<cell>[,...] <metric> [<field>]}}: nothing when
    the named cells' field (mean, the default) rises strictly in that order, else an error
    (shared.check_rising)."""
    if any(ch in s for s in subjects for ch in "*?["):
        raise KeyError("rising names cells, not patterns (their order is the order checked)")
    if fld not in shared.CHECKED_VALUES:
        raise KeyError(f"field {fld!r} is not {', '.join(shared.CHECKED_VALUES)}")
    means = _by_experiment(results, subjects, metric, fld)
    what = None if fld == "mean" else shared.checked_words(fld, metric)
    return shared.check_rising(means, metric, METRICS[metric].decimals, what)


def _extreme(results, firsts, others, metric, highest):
    """{{highest <experiment>/<cell pattern>,... <experiment>/<other cell pattern>,... <metric>}}
    (and lowest): nothing when the first cells' means lie above (below) every other matching
    cell's, else an error (shared.check_extreme)."""
    return shared.check_extreme(
        _by_experiment(results, firsts, metric),
        _by_experiment(results, others, metric),
        metric,
        METRICS[metric].decimals,
        highest,
    )


def _attempts(results, exps, filters):
    """{{attempts <experiment>[,<experiment>...] [<column>=<filter>...]}}: how many attempts of
    those experiments (their <experiment>-attempts tables) pass every filter, a shell pattern
    or >number (`client_fallbacks=>0`)."""
    rows = []
    for exp in exps:
        rows += _experiment(results, exp).attempts
    tests = []
    for col, f in filters.items():
        if f is None:
            continue
        op, value = (">", f[1:]) if f.startswith(">") else ("=", f)
        if op == ">":
            try:
                limit = float(value)
            except ValueError:
                raise KeyError(f"filter {f!r}: {value!r} is not a number") from None
            tests.append(lambda r, c=col, x=limit: float(r[c] or 0) > x)
        else:
            tests.append(lambda r, c=col, x=value: fnmatch.fnmatchcase(r[c], x))
    if not rows:
        return NO_RUNS
    return str(sum(all(t(r) for t in tests) for r in rows))


def _design_runs(exp, pattern):
    """Runs an experiment's design makes in the cells matching pattern (video_matrix)."""
    per = video_matrix.design_runs(exp)
    if per is None or exp not in video_matrix.EXPERIMENTS:
        raise KeyError(f"{exp}: no design fixes its runs (video_matrix.design_runs)")
    names = {c.name for _b, cells in video_matrix.EXPERIMENTS[exp]() for c in cells}
    pats = (pattern or "*").split(",")
    cells = [n for n in names if any(fnmatch.fnmatchcase(n, p) for p in pats)]
    if not cells:
        raise KeyError(f"{exp} has no cell matching {pattern!r}")
    return cells, per * len(cells)


def _awaiting(results, exp, pattern):
    """{{awaiting EXP [cells=PATTERN[,PATTERN]]}}: the verdict of a claim whose runs are still
    to come: "not run yet", "pending (k of n runs)"; an error once all n are in (the page's
    verdict is then to be written from its test)."""
    res = _experiment(results, exp)
    cells, n = _design_runs(exp, pattern)
    k = sum(c.runs for c in res.cells if c.name in cells)
    if k == 0:
        return "not run yet"
    if k < n:
        return f"pending ({k} of {n} runs)"
    raise KeyError(
        f"all {n} runs of {exp} {pattern or ''} are in: state the verdict its test gives"
    )


def _minutes(row):
    """An attempt's wall time in minutes (started to ended), None when it has no such pair (an
    attempt refused before its run, or recorded before the columns were); ValueError naming
    the attempt for a malformed or reversed pair."""
    if not row.get("started") or not row.get("ended"):
        return None
    try:
        started = datetime.datetime.fromisoformat(row["started"])
        ended = datetime.datetime.fromisoformat(row["ended"])
    except ValueError as e:
        raise ValueError(f"{row['cell']} run {row['run']} ({row['attempt']}): {e}") from None
    if ended < started:
        raise ValueError(f"{row['cell']} run {row['run']}: ended before it started")
    return (ended - started).total_seconds() / 60


def _count_attempts(k):
    return f"{k} attempt" if k == 1 else f"{k} attempts"


def _pace(results, exp, pattern):
    """{{pace EXP [cells=PATTERN[,PATTERN]]}}: the measured pace of an experiment's attempts
    in the matching cells (their started and ended columns): the mean minutes an attempt took
    with its 95 % interval, and the hours the design's missing runs take at the measured
    minutes per ok run (every attempt's time, failed ones included, over the ok runs; a
    batch's boot is not in it); "not run yet" without attempts. Attempts without a start and
    an end (refused before their run) are counted apart, as untimed."""
    res = _experiment(results, exp)
    cells, n = _design_runs(exp, pattern)
    rows = [r for r in res.attempts if r["cell"] in cells]
    if not rows:
        return NO_RUNS
    try:
        timed = [m for m in map(_minutes, rows) if m is not None]
    except ValueError as e:
        raise KeyError(f"{exp} attempts: {e}") from None
    untimed = f" ({len(rows) - len(timed)} untimed)" if len(timed) < len(rows) else ""
    if not timed:
        return f"{_count_attempts(len(rows))}, none timed"
    ci = stats.mean_ci(timed)
    interval = "" if ci.half is None else f" [{fmt(ci.lo, 1)}, {fmt(ci.hi, 1)}]"
    text = f"{fmt(ci.mean, 1)}{interval} min an attempt over {_count_attempts(len(timed))}{untimed}"
    ok = sum(1 for r in rows if not _failed(r))
    missing = max(n - sum(c.runs for c in res.cells if c.name in cells), 0)
    if not missing:
        return text + ", all runs in"
    if not ok:
        return text + f", none ok: the {missing} missing runs cannot be timed yet"
    return (
        text + f", so about {fmt(missing * math.fsum(timed) / ok / 60, 1)} h for the "
        f"{missing} missing runs"
    )


def _run_busy(res):
    """{(cell, run): host busy %} of an experiment's kept runs (the first client's row: one
    value per run)."""
    return {(c.name, r): v for c in res.cells for r, v in c.busy.items()}


def _calibration(results, exp):
    res = _experiment(results, exp, "host_busy_pct")
    if res.missing:
        return None
    runs = []
    for c in res.cells:
        for run, busy in c.busy.items():
            kbps, out = c.by_run["avg_bitrate_kbps"].get(run), c.by_run["outage_s"].get(run)
            ok = kbps is not None and out is not None
            ok = ok and kbps >= SUSTAINED_KBPS and out < SUSTAINED_OUTAGE_S
            runs.append((c.params["clients"], ok, busy))
    return stats.cpu_limit(runs)


def _cpu_limit(results, exp, fld):
    """{{cpu-limit CALIBRATION clients|busy}}: the calibration's client count and CPU limit."""
    lim = _calibration(results, exp)
    if lim is None:
        return NO_RUNS
    if lim.clients is None:
        return "none: no client count played the top bitrate without stalls"
    if fld == "clients":
        return str(lim.clients)
    return "-" if lim.busy_pct is None else fmt(lim.busy_pct, METRICS["host_busy_pct"].decimals)


def _above_limit(results, calibration, exps):
    """{{above-limit CALIBRATION EXP[,EXP]}}: "k of n" runs of the experiments whose host was
    busier than the calibration's limit."""
    lim = _calibration(results, calibration)
    runs = {}
    for exp in exps:
        runs.update({(exp, *k): v for k, v in _run_busy(_experiment(results, exp)).items()})
    if lim is None or not runs:
        return NO_RUNS
    return f"{sum(lim.above(v) for v in runs.values())} of {len(runs)}"


def _failed(row):
    return row["status"] != "ok"


def _cause(row):
    return row["error"] or row["failed_checks"] or row["status"]


def _failures(results, exps, fld):
    """{{failures EXP[,EXP] share|p|table|causes}}: the experiments' failed attempts: the
    failed share with its 95 % interval, the test that failing does not depend on the
    algorithm (its p), a table per algorithm, or each failed attempt's cause."""
    rows = [r for exp in exps for r in _experiment(results, exp).attempts]
    if not rows:
        return NO_RUNS
    alg = {r["cell"]: r["cell"].rsplit(".", 1)[-1] for r in rows}
    test = stats.failures_by_algorithm([(alg[r["cell"]], _failed(r)) for r in rows])
    if fld == "share":
        return _share_text(stats.share(sum(_failed(r) for r in rows), len(rows)))
    if fld == "p":
        return fmt_p(test.p) if test.tested else f"untested ({test.reason})"
    if fld == "table":
        out = table(["algorithm", "attempts", "failed", "95 % interval"],
                    [[a, str(s.n), str(s.k), _share_text(s, counts=False)]
                     for a, s in test.failed.items()])  # fmt: skip
        return "\n".join(out)
    failed = [r for r in rows if _failed(r)]
    if not failed:
        return "none failed"
    return "; ".join(f"{r['experiment']} {r['cell']} run {r['run']} ({r['attempt']}): {_cause(r)}"
                     for r in failed)  # fmt: skip


def _share_text(s, counts=True):
    if not s.n:
        return NO_RUNS
    pct = f"{100 * s.share:.1f} %, interval {100 * s.lo:.1f}-{100 * s.hi:.1f} %"
    return f"{s.k} of {s.n} ({pct})" if counts else pct


PAPER_TABLE = ("avg_bitrate_kbps", "switches_ga", "outage_s", *FRAMEWORK_METRICS)


def _as_ended(res, g):
    """{algorithm: ({metric: {draw: [per-run values]}}, runs)} of a group's cells over their ok
    runs and their failed attempts whose players finished (ended rows of the cell's code
    version), each such attempt a run of its own."""
    ex = res.experiment
    versions = {c.name: c.version for c in g.cells.values()}
    rows = [dict(r, run=(r["run"], "")) for r in res.rows if r["cell"] in versions]
    rows += [r for r in res.ended if versions.get(r["cell"]) == r["code_version"]]
    draw = {(r["cell"], r["run"]): r[ex.pair_by] for r in rows}
    values = {m: stats.per_run(rows, METRICS[m].value) for m in PAPER_TABLE}
    out = {}
    for alg, c in g.cells.items():
        draws = {}
        for m in PAPER_TABLE:
            for run, v in values[m].get(c.name, {}).items():
                draws.setdefault(m, {}).setdefault(draw[(c.name, run)], []).append(v)
        runs = {run for m in PAPER_TABLE for run in values[m].get(c.name, {})}
        out[alg] = (draws, len(runs))
    return out


def _paper_table(results, name):
    """{{table EXP/GROUP[/ended]}}: per algorithm of a group of an experiment compared by draw,
    the mean +- 95 % CI of both metric families with the reference's p against each (Holm over
    the algorithms, runs permuted within draws); with /ended, over the ok runs and the failed
    attempts whose players finished (ended table); "not run yet" (k of n runs) without runs."""
    name, ended = (name[: -len("/ended")], True) if name.endswith("/ended") else (name, False)
    exp, gname = _subject(name, "<experiment>/<group>")
    res = _experiment(results, exp)
    if not res.experiment.pair_by:
        raise KeyError(f"{exp} does not compare by draw: no such table")
    g = None if res.missing else res.group(gname)
    if g is None:
        # a group of the design without runs yet (a design's draws come batch by batch);
        # KeyError when the design has no such group
        _cells, n = _design_runs(exp, gname + ".*")
        return f"not run yet (0 of {n} runs)"
    if ended:
        cells = _as_ended(res, g)
        versions = {a: c.version for a, c in g.cells.items()}
        comparisons = {m: stats.compare_by_draw(res.experiment.ref, {a: d.get(m, {}) for a, (d,
                       _n) in cells.items()}, versions) for m in PAPER_TABLE}  # fmt: skip
        cells = {a: ({m: stats.mean_ci([v for vs in d.get(m, {}).values() for v in vs])
                      for m in PAPER_TABLE}, n) for a, (d, n) in cells.items()}  # fmt: skip
    else:
        comparisons = g.comparisons
        cells = {a: (c.intervals, c.runs) for a, c in g.cells.items()}
    head = ["algorithm", "runs"]
    for m in PAPER_TABLE:
        head += [metric_label(m), "p"]
    rows = []
    for alg, (intervals, n) in cells.items():
        r = [alg, str(n)]
        for m in PAPER_TABLE:
            r.append(fmt_plus_minus(intervals[m], METRICS[m].decimals))
            cmp = next((x for x in comparisons.get(m, []) if x.other == alg), None)
            r.append("" if cmp is None else fmt_p(cmp.p_holm) if cmp.tested else cmp.reason)
        rows.append(r)
    return "\n".join(table(head, rows))


def _run_network(res, cell, run):
    """(the run's Draw, its clients' paths, its rows) of a kept run; KeyError when the draw or
    the paths are not committed."""
    rows = [r for r in res.rows if r["cell"] == cell and r["run"] == run]
    p = rows[0]
    key = (p["topology"], int(p["clients"]), int(p["seed"]))
    if key not in res.draws:
        raise KeyError(f"{res.experiment.name}: no links of draw {key} (its draws table)")
    if (cell, run) not in res.paths:
        raise KeyError(f"{res.experiment.name} {cell} run {run}: no paths (its paths table)")
    return res.draws[key], res.paths[(cell, run)], rows


def capacities(res, g, demand):
    """{algorithm: [(draw, paths' capacity, the clients' throughput together in Mbit/s, their
    mean outage in s, their paths' mean delay spread in ms)]} of a group's kept runs (each
    client receiving at most demand Mbit/s), and {draw: its cut into the server}: the maximum
    flow from the server's switch to the clients' over every link (capacity.py)."""
    per, cuts = {}, {}
    for alg, c in g.cells.items():
        for run in sorted(c.by_run["outage_s"]):
            draw, paths, rows = _run_network(res, c.name, run)
            for ps in paths.values():
                for p in ps:
                    if len(p) > 1 and p[-1] != draw.server:
                        raise KeyError(f"{c.name} run {run}: path {'>'.join(p)} ends off the "
                                       f"server's switch {draw.server}")  # fmt: skip
            try:
                cap = capacity.path_capacity(draw.links, list(paths.values()), demand)
                if rows[0]["seed"] not in cuts:
                    cuts[rows[0]["seed"]] = capacity.cut_capacity(
                        draw.links, draw.server, draw.clients
                    )
            except ValueError as err:
                raise KeyError(f"{c.name} run {run}: {err}") from None
            if any(r["mean_throughput_kbps"] is None for r in rows):
                raise KeyError(f"{c.name} run {run}: a client without its throughput")
            tput = math.fsum(r["mean_throughput_kbps"] for r in rows) / 1000
            spreads = [x for x in map(_spread, rows) if x is not None]
            spread = math.fsum(spreads) / len(spreads) if spreads else None
            per.setdefault(alg, []).append(
                (rows[0]["seed"], cap, tput, c.by_run["outage_s"][run], spread, c.version)
            )
    return per, dict(sorted(cuts.items()))


@functools.cache
def ladder(content_set):
    """The bitrates (kbit/s) of a content set, lowest first (dashjs-harness/content/
    gen_content.py's SETS, read from its file once)."""
    path = os.path.join(shared.REPO, "dashjs-harness", "content", "gen_content.py")
    spec = importlib.util.spec_from_file_location("gen_content", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return sorted(kbps for kbps, _w, _h in mod.SETS[content_set][2])


def _capacity(results, name, fld):
    """{{capacity EXP/GROUP [table|cut|need|rho|p]}}: what the chosen paths of a group's runs
    can carry (capacities, each client wanting at most the content's top bitrate): a table per
    algorithm (runs; the paths' capacity, the clients' throughput together and its share of the
    capacity, the delay spread of a client's paths, mean outage; means +- 95 % CI over runs),
    each draw's cut, what the group's clients need together at the lowest and the top bitrate
    (the content's ladder), or Spearman's rho (and p) of the runs' outage against their paths'
    capacity."""
    exp, gname = _subject(name, "<experiment>/<group>")
    res = _experiment(results, exp)
    if not res.experiment.pair_by:
        raise KeyError(f"{exp} has no link draws: no capacities")
    _cells, _n = _design_runs(exp, gname + ".*")  # KeyError for a group the design lacks
    b = next(c.batch for _b, cs in video_matrix.EXPERIMENTS[exp]() for c in cs
             if c.name.startswith(gname + "."))  # fmt: skip
    rates = [r / 1000 for r in ladder(b.content_set)]  # Mbit/s
    if fld == "need":
        low, top = b.clients * rates[0], b.clients * rates[-1]
        return f"{fmt(low, 1)} Mbit/s at the lowest quality and {fmt(top, 1)} at the top"
    g = None if res.missing else res.group(gname)
    if g is None:
        return NO_RUNS
    per, cuts = capacities(res, g, rates[-1])
    if fld == "cut":
        return ", ".join(f"{fmt(v, 1)} Mbit/s (draw {d})" for d, v in cuts.items())
    if fld in ("rho", "p"):
        runs = [x for xs in per.values() for x in xs]
        t = stats.trend([x[1] for x in runs], [x[3] for x in runs], [x[5] for x in runs])
        if not t.tested:
            return f"untested ({t.reason})"
        return fmt(t.rho, 2) if fld == "rho" else fmt_p(t.p)
    rows = []
    for alg, xs in per.items():
        cap = stats.mean_ci([x[1] for x in xs])
        tput = stats.mean_ci([x[2] for x in xs])
        used = stats.mean_ci([100 * x[2] / x[1] for x in xs if x[1] > 0])
        out = stats.mean_ci([x[3] for x in xs])
        spread = stats.mean_ci([x[4] for x in xs if x[4] is not None])
        rows.append([alg, str(len(xs)), fmt_plus_minus(cap, 1), fmt_plus_minus(tput, 1),
                     fmt_plus_minus(used, 0), fmt_plus_minus(spread, 0),
                     fmt_plus_minus(out, 1)])  # fmt: skip
    head = ["algorithm", "runs", "paths' capacity (Mbit/s)", "clients' throughput (Mbit/s)",
            "of the capacity (%)", "delay spread (ms)", "outage (s)"]  # fmt: skip
    return "\n".join(table(head, rows))


def kinds(results):
    """The kinds of the pages' placeholders (mpqoe.page; the module's docstring) over results
    {experiment: Result}."""

    def no_window(during):
        page.no_window(during, "the per-run values (only cmp tests a window)")

    def value(subject, metric, field, during):
        no_window(during)
        return _value(results, subject, metric, field)

    def cmp(subject, metric, field, during):
        return _comparison(results, subject, metric, field, during)

    def pair(first, second, metric, field, during):
        no_window(during)
        return _pair(results, first, second, metric, field)

    def trend(subject, metric, field, during):
        no_window(during)
        return _trend(results, subject, metric, field)

    def within(subjects, metric, bounds, field, runs, during):
        no_window(during)
        if runs is not None:
            raise KeyError("runs=: the video pages check cells' intervals, not single runs")
        return _within(results, subjects, metric, bounds, field)

    def rising(subjects, metric, field, during):
        no_window(during)
        return _rising(results, subjects, metric, field)

    def attempts(experiments, **filters):
        return _attempts(results, experiments, filters)

    k = page.Kinds()
    k.shared("value", value).shared("cmp", cmp).shared("pair", pair).shared("trend", trend)
    k.shared("within", within).shared("rising", rising)
    k.own(
        "strat",
        "subject metric comparisons:list field",
        lambda subject, metric, comparisons, field: _strat(
            results, subject, metric, comparisons, field
        ),
    )
    k.own(
        "factor",
        "experiment parameter values metric field",
        lambda **a: _factor(
            results,
            a["experiment"],
            a["parameter"],
            a["values"],
            a["metric"],
            a["field"],
            a["where"],
        ),
        keys="where:list",
    )
    k.own(
        "order",
        "first second metric field",
        lambda first, second, metric, field: _order(results, first, second, metric, field),
    )
    k.own(
        "ratio",
        "first second metric bounds:range what:check|count=check",
        lambda **a: _ratio(results, **a),
    )
    for word, highest in (("highest", True), ("lowest", False)):
        k.own(
            word,
            "subjects:list others:list metric",
            lambda subjects, others, metric, h=highest: _extreme(
                results, subjects, others, metric, h
            ),
        )
    k.own("status", "experiment", lambda experiment: status_text(_experiment(results, experiment)))
    k.own("awaiting", "experiment", lambda experiment, cells: _awaiting(results, experiment,
          cells), keys="cells")  # fmt: skip
    k.own("capacity", "subject field:table|cut|need|rho|p=table", lambda subject, field: _capacity(
        results, subject, field))  # fmt: skip
    k.own("pace", "experiment", lambda experiment, cells: _pace(results, experiment, cells),
          keys="cells")  # fmt: skip
    k.own("cpu-limit", "experiment field:clients|busy", lambda experiment, field: _cpu_limit(
        results, experiment, field))  # fmt: skip
    k.own("above-limit", "calibration experiments:list", lambda calibration, experiments:
          _above_limit(results, calibration, experiments))  # fmt: skip
    k.own("failures", "experiments:list field:share|p|table|causes", lambda experiments, field:
          _failures(results, experiments, field))  # fmt: skip
    k.shared("table", lambda name: _paper_table(results, name))
    k.own("attempts", "experiments:list", attempts, keys=" ".join(record.ATTEMPT_COLUMNS))
    return k


def resolve(results, text):
    """The text of one placeholder, written as between its braces; KeyError saying what is
    wrong with it."""
    try:
        return page.substitute("{{" + text + "}}", kinds(results), "placeholder")
    except page.PageError as e:
        raise KeyError(str(e)) from None


def render(template, results, source, claims=None):
    """The page of a template; ReportError listing every bad placeholder. Its claims are
    registered in claims (mpqoe.claims.Register) when given."""
    k = kinds(results)
    if claims is not None:
        k.claims = claims
    return page.render(template, k, source, "testbed/video/video_report.py", "make results")


# ---------------------------------------------------------------------------------------------
# Figures


def _colors(plt):
    tab = plt.get_cmap("tab10").colors
    return {a: tab[i % len(tab)] for i, a in enumerate(ALGORITHMS)}


png = shared.png


def _plotted_cells(res, axes):
    """The cells a figure shows: for every parameter that is not on an axis, the most common
    value (e.g. the sweep's video length; a full-length check cell stays in the tables)."""
    cells = res.cells
    fixed = {}
    for p in PARAMS:
        if p in axes:
            continue
        common = Counter(c.params[p] for c in cells).most_common()
        fixed[p] = common[0][0]
        cells = [c for c in cells if c.params[p] == fixed[p]]
    return cells, fixed


def bar_figure(plt, res, metric, panel, x, xlabel):
    """One panel per value of `panel`, groups of bars along `x`, one bar per algorithm, 95 %
    intervals as error bars (the GA paper's Fig. 4-9 shape)."""
    cells, fixed = _plotted_cells(res, (panel, x, "algorithm"))
    colors = _colors(plt)
    panels = sorted({c.params[panel] for c in cells}, key=lambda v: _order_key_one(panel, v))
    xs = sorted({c.params[x] for c in cells}, key=lambda v: _order_key_one(x, v))
    algs = [a for a in ALGORITHMS if any(c.params["algorithm"] == a for c in cells)]
    idx = {(c.params[panel], c.params[x], c.params["algorithm"]): c for c in cells}
    m = METRICS[metric]
    fig, axes = plt.subplots(
        1, len(panels), figsize=(max(4.0 * len(panels), 5.5), 3.6), sharey=True, squeeze=False
    )
    width = 0.8 / len(algs)
    for ax, pv in zip(axes[0], panels, strict=True):
        for j, a in enumerate(algs):
            pos, ys, err = [], [], []
            for i, xv in enumerate(xs):
                c = idx.get((pv, xv, a))
                iv = c.intervals[metric] if c else None
                if iv is None or iv.n == 0:
                    continue
                pos.append(i - 0.4 + width * (j + 0.5))
                ys.append(iv.mean)
                err.append(iv.half or 0.0)
                if iv.half is None:
                    ax.annotate("n=1", (pos[-1], iv.mean), ha="center", va="bottom", fontsize=6)
            ax.bar(pos, ys, width, yerr=err, capsize=2, label=a, color=colors[a])
        ax.set_xticks(range(len(xs)), [fmt_param(v) for v in xs])
        ax.set_xlabel(xlabel)
        ax.set_title(param_text(panel, pv), fontsize=9)
        ax.grid(axis="y", alpha=0.3)
        ax.set_ylim(bottom=0)
    axes[0][0].set_ylabel(metric_label(metric), fontsize=8)
    axes[0][-1].legend(
        fontsize=7, title="algorithm", title_fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1)
    )
    title = f"{res.experiment.name}: {m.label}, mean and 95 % CI over runs" + _fixed_text(fixed)
    fig.suptitle(title, fontsize=9, y=1.0 + 0.05 * title.count("\n"))
    return png(plt, fig)


def _order_key_one(param, v):
    return _order_key({p: (v if p == param else None) for p in PARAMS})


def _fixed_text(fixed):
    parts = [param_text(p, v) for p, v in fixed.items() if v is not None]
    return f"\n({', '.join(parts)})" if parts else ""


def delay_figure(plt, res):
    """Outage share of the video against the paths' delay difference, 95 % intervals."""
    cells, fixed = _plotted_cells(res, ("delay_diff_ms",))
    pts = [(c.params["delay_diff_ms"], c.intervals["outage_pct"]) for c in cells]
    pts = sorted((d, iv) for d, iv in pts if iv.n)
    fig, ax = plt.subplots(figsize=(5.5, 3.6))
    ax.errorbar(
        [d for d, _ in pts],
        [iv.mean for _, iv in pts],
        yerr=[iv.half or 0.0 for _, iv in pts],
        marker="o",
        capsize=3,
        label="measured (mean, 95 % CI over runs)",
    )
    right = max([200] + [d for d, _ in pts])
    ax.hlines(20, 100, right, color="grey", ls="--", lw=1, label="the paper: > 20 % above 100 ms")
    ax.set_xlabel("delay difference between the two paths (ms)")
    ax.set_ylabel("outage (% of the video)")
    ax.set_ylim(bottom=0)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=7)
    ax.set_title("ga-delay: outage share against delay difference" + _fixed_text(fixed), fontsize=9)
    return png(plt, fig)


def series_figure(plt, res, name, title, ylabel, scale):
    """One panel per segment length, one line per algorithm: the mean over runs of each run's
    mean over its clients (or links) per second, with the 95 % interval as a band."""
    series = res.series.get(name) or {}
    cells = {c.name: c for c in res.cells}
    panels = {}
    for (cell, _run), per_second in series.items():
        c = cells[cell]
        panels.setdefault(c.params["segment_s"], {}).setdefault(c.params["algorithm"], {})
        for sec, vs in per_second.items():
            d = panels[c.params["segment_s"]][c.params["algorithm"]]
            d.setdefault(sec, []).append(scale * math.fsum(vs) / len(vs))
    if not panels:
        return None
    colors = _colors(plt)
    keys = sorted(panels)
    fig, axes = plt.subplots(
        1, len(keys), figsize=(max(4.5 * len(keys), 5.5), 3.4), sharey=True, squeeze=False
    )
    for ax, seg in zip(axes[0], keys, strict=True):
        for a in [a for a in ALGORITHMS if a in panels[seg]]:
            secs = sorted(panels[seg][a])
            ivs = [stats.mean_ci(panels[seg][a][s]) for s in secs]
            ax.plot(secs, [iv.mean for iv in ivs], lw=1, color=colors[a], label=a)
            band = [(s, iv) for s, iv in zip(secs, ivs, strict=True) if iv.half is not None]
            if band:
                ax.fill_between(
                    [s for s, _ in band],
                    [iv.lo for _, iv in band],
                    [iv.hi for _, iv in band],
                    color=colors[a],
                    alpha=0.2,
                    lw=0,
                )
        ax.set_title(f"{fmt_param(seg)} s segments", fontsize=9)
        ax.set_xlabel("time (s)")
        ax.grid(alpha=0.3)
        ax.set_ylim(bottom=0)
    axes[0][0].set_ylabel(ylabel, fontsize=8)
    axes[0][-1].legend(fontsize=7, title="algorithm", title_fontsize=7)
    fig.suptitle(f"{res.experiment.name}: {title}, mean and 95 % CI over runs", fontsize=9, y=1.04)
    return png(plt, fig)


FIGURE_METRICS = ("avg_bitrate_kbps", "switches_ga", "outage_s")


def figures(plt, results):
    """{paper: {file name: PNG bytes}}."""
    out = {p: {} for p in PAPERS}
    topo, sched = results["ga-topo"], results["ga-sched"]
    delay, qomra = results["ga-delay"], results["qomra"]
    for m in FIGURE_METRICS:
        if not topo.missing:
            out["ga-paper"][f"ga-topo-{m}.png"] = bar_figure(
                plt, topo, m, "topology", "clients", "clients"
            )
        if not sched.missing:
            out["ga-paper"][f"ga-sched-{m}.png"] = bar_figure(
                plt, sched, m, "scheduler", "rcvbuf_kb", "receive buffer (KB)"
            )
    if not delay.missing:
        out["ga-paper"]["ga-delay-outage.png"] = delay_figure(plt, delay)
    if not qomra.missing:
        out["qomra-paper"]["qomra-segment-throughput.png"] = bar_figure(
            plt, qomra, "mean_throughput_kbps", "video_s", "segment_s", "segment length (s)"
        )
        for name, title, label, scale in (
            ("qomra-throughput", "throughput over time", "mean client throughput (kbit/s)", 1.0),
            ("qomra-links", "link utilisation over time", "mean link utilisation (%)", 100.0),
        ):
            b = series_figure(plt, qomra, name, title, label, scale)
            if b is not None:
                out["qomra-paper"][f"{name}.png"] = b
    return out


# ---------------------------------------------------------------------------------------------
# The whole output


def build(data, newest=git_newest):
    """({path: bytes} of every file the report makes under data, results); ReportError on bad
    input, found before any figure is drawn."""
    results = load(data, newest)
    out = {}
    claims = Register()
    for paper in PAPERS:
        src = os.path.join(data, f"{paper}.md.in")
        template = page.read_template(src)
        out[os.path.join(data, f"{paper}.md")] = render(template, results, src, claims).encode()
    out.update((path, text.encode()) for path, text in claims.files(data).items())
    figs = figures(debian.pyplot(WHO), results)
    for paper in PAPERS:
        for name, b in figs[paper].items():
            out[os.path.join(data, paper, "figures", name)] = b
        text = tables_md(paper, results, figs[paper])
        out[os.path.join(data, paper, "tables.md")] = text.encode()
    return out, results


def stale(data, out):
    """Figures on disk that the report no longer makes."""
    found = []
    for paper in PAPERS:
        d = os.path.join(data, paper, "figures")
        if os.path.isdir(d):
            found += [
                os.path.join(d, f)
                for f in sorted(os.listdir(d))
                if f.endswith(".png") and os.path.join(d, f) not in out
            ]
    return found


def main(argv, newest=git_newest):
    def make(data):
        out, results = build(data, newest)
        dropped = [
            f"{res.experiment.name}: dropped {n} run(s) of {cell} at older code version {short(v)}"
            for res in results.values()
            for cell, v, n in res.dropped
        ]
        status = [f"{res.experiment.name}: {status_text(res)}" for res in results.values()]
        return out, stale(data, out), dropped, status

    default = os.path.join(REPO, "docs", "results")
    return shared.report_cli(argv, WHO, __doc__.split("\n")[0], default, make)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
