#!/usr/bin/python3
"""docs/perf.md and docs/algorithms.md from the committed data of the path-selection
benchmarks (package org.mpqoe.bench in this directory) and of `mpqoe compare`.

    /usr/bin/python3 floodlight-module/bench/perf_report.py [--data DIR] [--check]
    /usr/bin/python3 floodlight-module/bench/perf_report.py --record NAME[,NAME...]|all [--jar JAR]
    /usr/bin/python3 floodlight-module/bench/perf_report.py --verify [--jar JAR]

Data (docs/perf/data by default): one CSV per measurement of RECORDS, and runs.csv with one row
per measurement: when it was made (UTC), of which code version, how long it took, the load
average just before and just after, and the machine (CPUs, CPU model, memory, kernel, Java).

--record runs the named measurements with the benchmark jar or the CLI's (`make build`) and
replaces their files and runs.csv rows, each file atomically; a measurement that fails leaves
its old files as they were. JMH's JSON result is compacted to one row per benchmark and
parameter set: sample count, mean with JMH's own 99.9 % error, percentiles, and bytes
allocated per operation where JMH ran with -prof gc. --verify reruns the deterministic part
(DETERMINISTIC: selections and rule counts, no timing, the same bytes on any machine from the
same commit) and exits 1 naming any output that differs from the committed data, so the
pages' optimality gaps, rule counts and algorithm comparison are those of the code under test.

Statistics, all computed here from the rows:
- optimality: per topology, variant and instance count n (the first n instances), the mean
  of GA fitness / exact fitness (1 when the exact fitness is 0) with a 95 % Student t interval
  over the instances, its minimum, and how many instances the GA solved exactly (|GA - exact|
  < TIE). The two variants are compared on the same instances by the Wilcoxon signed-rank test
  of the per-instance ratios (two-sided; instances with equal ratios dropped, as Wilcoxon
  did), Holm over the topologies.
- cpu: per topology and variant, the median, 90th and 99th percentile (linear interpolation
  between order statistics) and the mean with a 95 % Student t interval of the thread CPU time
  per join (the joins cycle over 64 instances: a description of this set, not of all joins).
  The variants are compared by the Wilcoxon signed-rank test on the pairs of one pass and
  instance (they ran alternately), Holm over the topologies; `saving` is 1 - median(ga) /
  median(ga-tuned).
- jmh: as JMH gives them. rules: means over the clients. compare: means per join over every
  run of an algorithm (sums / joins), overbooked links per run.

Placeholders of docs/perf.md.in and docs/algorithms.md.in (docs/results/placeholders.md):
  {{table NAME}}: optimality/<n>[/<topology>,...], tuning/<n>, cpu, jmh/<name>, rules, runs,
  compare, e2e (or, while e2e-setup is not recorded, a sentence saying how to record it);
  {{value SUBJECT METRIC FIELD}}, the subject's form per metric (SUBJECTS):
  opt <n>/<topology>/<algorithm> and tuning <n>/<topology>/<crossover>,<elites>,<tournament>
  (mean, ci, lo, hi, n, min, equal, candidates, population; in % but equal, n, candidates),
  cpu <topology>/<algorithm> (median, p90, p99, mean, ci (its 95 % half-width), n; ms),
  jmh <name>/<method>/<k>:<v>[+<k>:<v>...] (samples, mean, error, p50, p90, p99, p999, max,
  alloc), rules <algorithm>/<hop|sr> (subflows, rules, labels, clients), compare <algorithm>
  (COMPARE_FIELDS: a column of `compare --format csv` per join, overbooked per run, runs,
  joins);
  {{cmp SUBJECT METRIC FIELD}} (COMPARISONS: opt <n>/<topology> and cpu <topology>, ga-tuned
  against ga; tuning <n>/<topology>/<setting>, a setting against the default): diff (first -
  second, percentage points), saving (cpu, %), p (Holm-adjusted), p_raw, or a check of a
  hand-written word, higher, lower or same, the second side against the first: nothing when
  the test agrees in every comparison the subject (an fnmatch pattern) matches, else an error;
  {{within SUBJECTS METRIC LO..HI FIELD}}: the check behind a word of size: nothing when every
  value the subjects (fnmatch patterns; a comparison's field gives the comparisons') name lies
  in [lo, hi], else an error; {{target SUBJECTS METRIC LO..HI FIELD}}: "met" when every such
  value lies in [lo, hi], else "missed" (a verdict the data make, not a check of words);
  {{rising SUBJECTS METRIC FIELD}}: the check behind an order: nothing when the values rise
  strictly in the order named, else an error; {{rulecount ALGORITHMS hop|sr PER_SUBFLOW
  PER_CONNECTION}}: the check behind a sentence counting rules: nothing when every client of
  the matching algorithms has exactly per subflow x its subflows + per connection rules with
  that routing, else an error; {{run NAME FIELD}} (a column of runs.csv). The benchmarks have
  no time series: a time window (during=) is an error.
Exit 0 when done, 1 on malformed data, a bad placeholder, a failed check or (--check,
--verify) a difference, 2 for a bad option.
"""

import csv
import fnmatch
import io
import json
import math
import os
import platform
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime

from mpqoe import files, page, stats
from mpqoe import results as shared
from mpqoe.pcap import SETUP_COLUMNS
from mpqoe.results import ReportError, fmt, fmt_p

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))


WHO = "bench/perf_report.py"
COMMAND = "/usr/bin/python3 -m mpqoe.report perf"
DATA = os.path.join(REPO, "docs", "perf", "data")
JAR = os.path.join(HERE, "target", "benchmarks.jar")
CLI = os.path.join(REPO, "floodlight-module", "cli", "target", "mpqoe.jar")
# the pages made here: template -> page
PAGES = {
    os.path.join(REPO, "docs", "perf.md.in"): os.path.join(REPO, "docs", "perf.md"),
    os.path.join(REPO, "docs", "algorithms.md.in"): os.path.join(REPO, "docs", "algorithms.md"),
}
PKG = "org.mpqoe.bench."
TIE = 1e-9
ALPHA = 0.05
VARIANTS = ("ga", "ga-tuned")
# the parameters of ga-tuned that the tuning table compares (crossover, elites, tournament):
# the first defaults, three steps, the tuned 4 elites, and the default (last: GaConfig.DEFAULTS,
# whose 1 elite is the authors' framework's)
TUNINGS = ("0.6,2,3", "0.6,2,2", "0.8,2,2", "0.9,1,2", "0.8,4,2", "0.8,1,2")
OPT_INSTANCES = 300

# QoMRA against the other algorithms on its data-centre topology (docs/algorithms.md)
COMPARE_QOMRA = "compare --topology qomra-dc --clients 8 --runs 5 --format csv".split()
# name -> (kind, commands): each command is the java arguments after `java`; "csv" outputs are
# concatenated (one header), "jmh" commands write JSON that is compacted
RECORDS = {
    "optimality": ("csv", [["-cp", "{jar}", PKG + "OptimalityGap", str(OPT_INSTANCES)]]),
    "tuning": (
        "csv",
        [
            ["-cp", "{jar}", PKG + "OptimalityGap", "--tuned", t, str(OPT_INSTANCES)]
            + ["custom12", "jellyfish20"]
            for t in TUNINGS
        ],
    ),
    "rules": ("csv", [["-cp", "{jar}", PKG + "RulesPerClient"]]),
    "cpu": ("csv", [["-Xms1g", "-Xmx1g", "-cp", "{jar}", PKG + "GaJoinCpuTime"]]),
    "jmh-ga": ("jmh", [["-jar", "{jar}", "GaJoinBenchmark", "-prof", "gc"]]),
    "jmh-exact": ("jmh", [["-jar", "{jar}", "ExactJoinBenchmark"]]),
    "jmh-control": ("jmh", [["-jar", "{jar}", "ControlPlaneBenchmark"]]),
    "compare-qomra": ("csv", [["-jar", "{cli}", *COMPARE_QOMRA]]),
    # the end-to-end test's set-up times, E2E_RUNS runs of each variant of `make e2e`, the
    # variants in turn (root, Mininet and Open vSwitch, no guest or other network test running)
    "e2e-setup": (
        "e2e",
        [
            [],
            ["--segment-routing"],
            ["--algorithm", "qomra", "--segment-routing"],
            ["--select-at", "first-packet"],
        ],
    ),
}
# measurements the pages can do without (they say so) until they are recorded
OPTIONAL = {"e2e-setup"}
E2E_RUNS = 5  # runs of each e2e-setup variant
E2E = os.path.join(REPO, "mininet-scripts", "e2e_controller.py")
NET_LOCK = "/tmp/mpqoe-net.lock"  # the lock every network test of the repository takes
# what --verify reruns (a prefix of the committed rows: instance i is the same problem whatever
# the count), and the committed rows it compares with
DETERMINISTIC = {
    "optimality": (
        ["-cp", "{jar}", PKG + "OptimalityGap", "100"],
        lambda r: int(r[INSTANCE_COLUMN]) <= 100,
    ),
    "rules": (["-cp", "{jar}", PKG + "RulesPerClient"], lambda r: True),
    "compare-qomra": (["-jar", "{cli}", *COMPARE_QOMRA], lambda r: True),
}
HEADERS = {
    "optimality": (
        "topology,algorithm,population,crossover,elites,tournament,instance,candidates,"
        "ga_fitness,exact_fitness"
    ).split(","),
    "rules": "algorithm,routing,client,subflows,rules,label_rules".split(","),
    "cpu": "topology,algorithm,population,pass,instance,cpu_us".split(","),
    "jmh": (
        "benchmark,params,mode,unit,samples,mean,error,p50,p90,p99,p999,max,alloc_bytes_per_op"
    ).split(","),
    "compare": (
        "algorithm,seed,joins,paths,zeta_ms,xi_mbps,fitness,infeasible,no_path,subflows,abw_mbps,"
        "spread_ms,rules_hop,rules_sr,overbooked_links"
    ).split(","),
    "e2e": ["run", *SETUP_COLUMNS],  # run: the repetition of its variant, from 1
    "runs": (
        "name,started_utc,code_version,seconds,load_before,load_after,cpus,cpu_model,"
        "memory_gb,kernel,java"
    ).split(","),
}
HEADERS["tuning"] = HEADERS["optimality"]
INSTANCE_COLUMN = HEADERS["optimality"].index("instance")
JMH_PERCENTILES = {"p50": "50.0", "p90": "90.0", "p99": "99.0", "p999": "99.9", "max": "100.0"}


def header_of(name):
    prefixed = name.startswith(("jmh-", "compare-", "e2e-"))
    return HEADERS[name.partition("-")[0] if prefixed else name]


# ---------------------------------------------------------------------------------------------
# Recording


def machine():
    """The machine facts runs.csv records beside every measurement."""
    model = ""
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            model = next(
                (ln.split(":", 1)[1].strip() for ln in f if ln.startswith("model name")), ""
            )
    except OSError:
        pass
    mem = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**30
    java = subprocess.run(["java", "-version"], capture_output=True, text=True, check=False)
    first = (java.stderr or java.stdout).splitlines()
    return {
        "cpus": str(os.cpu_count()),
        "cpu_model": model,
        "memory_gb": f"{mem:.0f}",
        "kernel": platform.release(),
        "java": first[0] if first else "",
    }


def jmh_rows(results):
    """JMH's JSON result (a list of benchmark results) as rows of HEADERS["jmh"]."""
    rows = []
    for r in results:
        m = r["primaryMetric"]
        hist = m.get("rawDataHistogram")  # forks, iterations, [value, count] pairs
        samples = sum(c for fork in hist or [] for it in fork for _v, c in it)
        pct = m.get("scorePercentiles", {})
        second = r.get("secondaryMetrics", {})
        # JMH 1.37 names it gc.alloc.rate.norm, earlier versions ·gc.alloc.rate.norm
        norm = second.get("gc.alloc.rate.norm") or second.get("·gc.alloc.rate.norm") or {}
        alloc = norm.get("score")
        rows.append(
            {
                "benchmark": ".".join(r["benchmark"].rsplit(".", 2)[-2:]),  # Class.method
                "params": ";".join(f"{k}={v}" for k, v in sorted(r.get("params", {}).items())),
                "mode": r["mode"],
                "unit": m["scoreUnit"],
                "samples": str(samples) if hist else "",
                "mean": f"{m['score']:.6g}",
                "error": "" if math.isnan(m["scoreError"]) else f"{m['scoreError']:.6g}",
                **{k: (f"{pct[v]:.6g}" if v in pct else "") for k, v in JMH_PERCENTILES.items()},
                "alloc_bytes_per_op": "" if alloc is None else f"{alloc:.0f}",
            }
        )
    return rows


def run_java(args, jar, out_json=None):
    """The stdout of `java args` ({jar}: the benchmark jar, {cli}: the mpqoe CLI's)."""
    for key, path in (("{jar}", jar), ("{cli}", CLI)):
        if key in args and not os.path.exists(path):
            raise ReportError(f"no jar {path} (make build)")
    cmd = ["java"] + [a.replace("{jar}", jar).replace("{cli}", CLI) for a in args]
    if out_json:
        cmd += ["-rf", "json", "-rff", out_json]
    p = subprocess.run(cmd, capture_output=True, text=True, check=False)
    if p.returncode != 0:
        raise ReportError(f"`{' '.join(cmd)}` failed ({p.returncode}):\n{p.stderr[-2000:]}")
    return p.stdout


def run_e2e(args):
    """The --setup-csv rows (text) of one end-to-end run with args; a run whose checks failed
    gives its rows marked failed, one that wrote none a ReportError."""
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "setup.csv")
        cmd = ["flock", NET_LOCK, sys.executable, E2E, *args, "--setup-csv", out]
        p = subprocess.run(cmd, capture_output=True, text=True, check=False)
        if not os.path.exists(out):
            raise ReportError(
                f"`{' '.join(cmd)}` wrote no rows ({p.returncode}):\n{p.stdout[-2000:]}"
            )
        with open(out, encoding="utf-8") as f:
            return f.read()


def measure(name, jar):
    """The CSV text of one measurement of RECORDS."""
    kind, commands = RECORDS[name]
    if kind == "jmh":
        with tempfile.TemporaryDirectory() as d:
            out = os.path.join(d, "result.json")
            run_java(commands[0], jar, out)
            with open(out, encoding="utf-8") as f:
                rows = jmh_rows(json.load(f))
        return shared.csv_text(rows, HEADERS["jmh"])
    head = header_of(name)
    if kind == "e2e":  # the variants in turn, E2E_RUNS times; each row gets its run's number
        parts = [(f"{k},", run_e2e(c)) for k in range(1, E2E_RUNS + 1) for c in commands]
        own = head[1:]
    else:
        parts = [("", run_java(c, jar)) for c in commands]
        own = head
    body = []
    for prefix, text in parts:
        lines = text.splitlines()
        if not lines or lines[0].split(",") != own:
            raise ReportError(f"{name}: output does not start with the header {','.join(own)}")
        body += [prefix + ln for ln in lines[1:]]
    return "\n".join([",".join(head), *body]) + "\n"


def record(names, jar, data):
    runs_path = os.path.join(data, "runs.csv")
    runs = [r for _at, r in read(runs_path, HEADERS["runs"])] if os.path.exists(runs_path) else []
    facts = machine()
    for name in names:
        before = os.getloadavg()[0]
        started = datetime.now(UTC).strftime("%Y-%m-%d %H:%M")
        t0 = time.monotonic()
        text = measure(name, jar)
        row = {
            "name": name,
            "started_utc": started,
            "code_version": shared.code_version(REPO),
            "seconds": f"{time.monotonic() - t0:.0f}",
            "load_before": f"{before:.2f}",
            "load_after": f"{os.getloadavg()[0]:.2f}",
            **facts,
        }
        files.write_atomic(os.path.join(data, f"{name}.csv"), text)
        runs = [r for r in runs if r["name"] != name] + [row]
        runs.sort(key=lambda r: list(RECORDS).index(r["name"]) if r["name"] in RECORDS else 99)
        files.write_atomic(runs_path, shared.csv_text(runs, HEADERS["runs"]))
        print(f"{WHO}: recorded {name} in {row['seconds']} s")


def verify(jar, data):
    """1 when a deterministic output differs from the committed rows it covers, else 0."""
    bad = 0
    for name, (args, covered) in DETERMINISTIC.items():
        fresh = list(csv.reader(io.StringIO(run_java(args, jar))))
        with open(os.path.join(data, f"{name}.csv"), encoding="utf-8", newline="") as f:
            kept = list(csv.reader(f))
        kept = kept[:1] + [r for r in kept[1:] if covered(r)]
        if fresh != kept:
            diff = next(
                (i for i, (a, b) in enumerate(zip(fresh, kept, strict=False)) if a != b),
                min(len(fresh), len(kept)),
            )
            print(
                f"{WHO}: {name}: the code gives other rows than docs/perf/data/{name}.csv "
                f"(first difference at line {diff + 1}); rerun --record {name} and commit",
                file=sys.stderr,
            )
            bad = 1
        else:
            print(f"{WHO}: {name}: {len(fresh) - 1} rows agree with the committed data")
    return bad


# ---------------------------------------------------------------------------------------------
# Reading and summarising


def read(path, header):
    """The rows (dicts) of a committed CSV; ReportError when it is absent or malformed."""
    rows = shared.read_csv(path, header)
    if rows is None:
        raise ReportError(f"{path}: no such file (--record makes it)")
    return [(f"{path}:{n}", r) for n, r in rows]


def number(row, col, where, kind=float):
    return shared.number(row[col], kind, where, col)


def wilcoxon_p(a, b):
    """Two-sided Wilcoxon signed-rank p of the pairs (a[i], b[i]); None when every pair is
    equal (nothing to test)."""
    from scipy import stats as st

    d = [x - y for x, y in zip(a, b, strict=True)]
    d = [v for v in d if v != 0]  # Wilcoxon's own treatment of zero differences
    if not d:
        return None
    return float(st.wilcoxon(d).pvalue)


class Opt:
    """One (topology, algorithm, parameters) of an optimality CSV: the ratio per instance."""

    def __init__(self, ratios, equal, candidates, population):
        self.ratios = ratios  # instance -> GA/exact
        self.equal = equal  # instance -> bool
        self.candidates = candidates  # instance -> admissible candidates
        self.population = population

    def first(self, n):
        keys = sorted(self.ratios)[:n]
        if len(keys) < n:
            raise KeyError(f"only {len(keys)} instances, not {n}")
        return keys

    def fields(self, n):
        keys = self.first(n)
        iv = stats.mean_ci([100 * self.ratios[k] for k in keys])
        return {
            "mean": iv.mean,
            "ci": iv.half,
            "lo": iv.lo,
            "hi": iv.hi,
            "n": n,
            "min": 100 * min(self.ratios[k] for k in keys),
            "equal": sum(self.equal[k] for k in keys),
            "candidates": sum(self.candidates[k] for k in keys) / n,
            "population": self.population,
        }


def read_opt(path):
    """{(topology, algorithm, "crossover,elites,tournament"): Opt}."""
    out = {}
    for at, r in read(path, HEADERS["optimality"]):
        g, e = number(r, "ga_fitness", at), number(r, "exact_fitness", at)
        crossover = f"{number(r, 'crossover', at):g}"
        elites, tournament = number(r, "elites", at, int), number(r, "tournament", at, int)
        key = (r["topology"], r["algorithm"], f"{crossover},{elites},{tournament}")
        o = out.setdefault(key, Opt({}, {}, {}, number(r, "population", at, int)))
        i = number(r, "instance", at, int)
        if i in o.ratios:
            raise ReportError(f"{at}: instance {i} of {'/'.join(key)} again")
        o.ratios[i] = 1.0 if e == 0 else g / e
        o.equal[i] = abs(g - e) < TIE
        o.candidates[i] = number(r, "candidates", at, int)
    return out


def paired(a, b, n, where):
    """(mean of a's ratios - mean of b's, in percentage points; Wilcoxon p) over the first n
    instances, which both must share (Opt)."""
    keys = a.first(n)
    if keys != b.first(n):
        raise ReportError(f"optimality: {where}: the two sides ran other instances")
    x = [100 * a.ratios[k] for k in keys]
    y = [100 * b.ratios[k] for k in keys]
    return math.fsum(x) / n - math.fsum(y) / n, wilcoxon_p(x, y)


def with_holm(raw):
    """{key: (effect, p_raw)} -> {key: (effect, p_raw, Holm-adjusted p over the tested)}."""
    tested = [k for k, (_e, p) in raw.items() if p is not None]
    adj = dict(zip(tested, stats.holm([raw[k][1] for k in tested]), strict=True))
    return {k: (e, p, adj.get(k)) for k, (e, p) in raw.items()}


class Perf:
    """Everything the page shows, read from the data directory."""

    def __init__(self, data):
        self.data = data
        path = os.path.join(data, "optimality.csv")
        self.opt = {(t, a): o for (t, a, _p), o in read_opt(path).items()}
        self.tuning = {(t, p): o for (t, _a, p), o in read_opt(self._path("tuning")).items()}
        self.cpu = self._cpu()
        self.jmh = {
            n: [r for _at, r in read(self._path(n), HEADERS["jmh"])]
            for n in RECORDS
            if n.startswith("jmh-")
        }
        self.rules = []
        for at, r in read(self._path("rules"), HEADERS["rules"]):
            for col in ("subflows", "rules", "label_rules"):
                number(r, col, at, int)
            self.rules.append(r)
        self.compare = []
        for at, r in read(self._path("compare-qomra"), HEADERS["compare"]):
            for col in HEADERS["compare"][1:]:
                number(r, col, at)
            self.compare.append(r)
        self.runs = {r["name"]: r for _at, r in read(self._path("runs"), HEADERS["runs"])}
        self.e2e = None  # not recorded yet
        if "e2e-setup" in self.runs:
            self.e2e = []
            for at, r in read(self._path("e2e-setup"), HEADERS["e2e"]):
                number(r, "run", at, int)
                if r["setup_ms"]:
                    number(r, "setup_ms", at)
                self.e2e.append(r)
        missing = [n for n in RECORDS if n not in self.runs and n not in OPTIONAL]
        if missing:
            raise ReportError(f"runs.csv has no row for {', '.join(missing)}")
        self._cmp = {}

    def _path(self, name):
        return os.path.join(self.data, f"{name}.csv")

    def topologies(self, table):
        return list(dict.fromkeys(t for t, _ in table))

    def _cpu(self):
        path = self._path("cpu")
        out = {}
        for at, r in read(path, HEADERS["cpu"]):
            key = (r["topology"], r["algorithm"])
            join = (number(r, "pass", at, int), number(r, "instance", at, int))
            if join in out.get(key, {}):
                raise ReportError(
                    f"{at}: pass {join[0]} instance {join[1]} of {key[0]}/{key[1]} again"
                )
            out.setdefault(key, {})[join] = number(r, "cpu_us", at) / 1000
        return out

    # --- optimality

    def optcmp(self, n):
        """{topology: (ga - ga-tuned in points, p_raw, p Holm over the topologies)}."""
        if ("opt", n) not in self._cmp:
            raw = {
                t: paired(self.opt[(t, "ga")], self.opt[(t, "ga-tuned")], n, t)
                for t in self.topologies(self.opt)
                if (t, "ga") in self.opt and (t, "ga-tuned") in self.opt
            }
            self._cmp[("opt", n)] = with_holm(raw)
        return self._cmp[("opt", n)]

    def tunecmp(self, n, topology):
        """{setting: (default - setting in points, p_raw, p Holm over the settings)}: each
        setting of TUNINGS against the default (the last) on one topology."""
        if ("tune", n, topology) not in self._cmp:
            default, *others = TUNINGS[-1:] + TUNINGS[:-1]
            table = {s: self.tuning.get((topology, s)) for s in TUNINGS}
            if not all(table.values()):
                raise KeyError(f"the tuning data lack settings of {topology}")
            raw = {s: paired(table[default], table[s], n, topology) for s in others}
            self._cmp[("tune", n, topology)] = with_holm(raw)
        return self._cmp[("tune", n, topology)]

    # --- cpu

    def cpu_fields(self, topology, algorithm):
        if (topology, algorithm) not in self.cpu:
            raise KeyError(f"no cpu rows of {topology}/{algorithm}")
        xs = list(self.cpu[(topology, algorithm)].values())
        iv = stats.mean_ci(xs)
        return {
            "median": shared.quantile(xs, 0.5),
            "p90": shared.quantile(xs, 0.9),
            "p99": shared.quantile(xs, 0.99),
            "mean": iv.mean,
            "ci": iv.half,
            "n": len(xs),
        }

    def cpucmp(self):
        """{topology: (saving %, p_raw, p Holm over the topologies)}."""
        raw = {}
        for t in self.topologies(self.cpu):
            a, b = self.cpu.get((t, "ga")), self.cpu.get((t, "ga-tuned"))
            if not a or not b or a.keys() != b.keys():
                raise ReportError(f"cpu: {t}: the variants did not time the same joins")
            keys = sorted(a)
            saving = 100 * (1 - shared.quantile(a.values(), 0.5) / shared.quantile(b.values(), 0.5))
            raw[t] = (saving, wilcoxon_p([a[k] for k in keys], [b[k] for k in keys]))
        return with_holm(raw)

    # --- compare

    def compare_fields(self, algorithm):
        """Means per join over every run of an algorithm (overbooked links: per run)."""
        rows = [r for r in self.compare if r["algorithm"] == algorithm]
        if not rows:
            raise KeyError(f"no compare rows of {algorithm}")
        joins = sum(float(r["joins"]) for r in rows)

        def per_join(col):
            return math.fsum(float(r[col]) for r in rows) / joins

        out = {c: per_join(c) for c in COMPARE_PER_JOIN}
        out["overbooked"] = math.fsum(float(r["overbooked_links"]) for r in rows) / len(rows)
        out["runs"] = len(rows)
        out["joins"] = joins
        return out

    # --- jmh and rules

    def jmh_row(self, name, method, params):
        if name not in self.jmh:
            raise KeyError(f"no JMH measurement {name!r} ({', '.join(self.jmh)})")
        want = ";".join(sorted(params.split(","))) if params else ""
        rows = [
            r
            for r in self.jmh[name]
            if r["params"] == want and r["benchmark"].rpartition(".")[2] == method
        ]
        if len(rows) != 1:
            raise KeyError(f"{name} has no one row of {method} with parameters {want!r}")
        return rows[0]

    def rules_fields(self, algorithm, routing):
        rows = [r for r in self.rules if r["algorithm"] == algorithm and r["routing"] == routing]
        if not rows:
            raise KeyError(f"no rules rows of {algorithm}/{routing}")
        n = len(rows)
        return {
            "subflows": sum(int(r["subflows"]) for r in rows) / n,
            "rules": sum(int(r["rules"]) for r in rows) / n,
            "labels": int(rows[0]["label_rules"]),
            "clients": n,
        }


# ---------------------------------------------------------------------------------------------
# Tables


def md_table(head, rows, right):
    """A Markdown table; right: how many trailing columns are right-aligned numbers."""
    align = ["---"] * (len(head) - right) + ["---:"] * right
    lines = ["| " + " | ".join(head) + " |", "|" + "|".join(align) + "|"]
    lines += ["| " + " | ".join(str(c) for c in r) + " |" for r in rows]
    return "\n".join(lines)


def opt_row(label, o, n):
    f = o.fields(n)
    return [
        *label,
        o.population,
        n,
        shared.fmt_interval(stats.Interval(n, f["mean"], f["ci"]), 3),
        fmt(f["min"], 3),
        f"{f['equal']}/{n}",
        fmt(f["candidates"], 1),
    ]


OPT_HEAD = ["GA population", "instances", "mean GA/exact % [95 % CI]", "min %", "GA == exact"]


def table_optimality(p, n, topologies):
    rows = [
        opt_row([t, a], p.opt[(t, a)], n) for t in topologies for a in VARIANTS if (t, a) in p.opt
    ]
    if not rows:
        raise KeyError(f"no optimality rows of {', '.join(topologies)}")
    cmp = p.optcmp(n)
    head = ["topology", "algorithm", *OPT_HEAD, "mean candidates"]
    text = md_table(head, rows, 6)
    tests = "; ".join(
        f"{t}: ga - ga-tuned {shared.fmt_diff(d, 3)} points, p {fmt_p(adj)}"
        if adj is not None
        else f"{t}: identical ratios, no test"
        for t, (d, _p, adj) in cmp.items()
        if t in topologies
    )
    return text + f"\n\nWilcoxon signed-rank, Holm over the topologies: {tests}."


def table_tuning(p, n):
    tops = p.topologies(p.tuning)
    head = ["crossover, elites, tournament"]
    for t in tops:
        head += [f"{t}: mean GA/exact % [95 % CI]", f"{t}: p against the default"]
    rows = []
    for setting in TUNINGS:
        row = [setting.replace(",", ", ") + (" (default)" if setting == TUNINGS[-1] else "")]
        for t in tops:
            f = p.tuning[(t, setting)].fields(n)
            cmp = p.tunecmp(n, t).get(setting)
            row.append(shared.fmt_interval(stats.Interval(n, f["mean"], f["ci"]), 3))
            row.append("" if cmp is None else fmt_p(cmp[2]) if cmp[2] is not None else "identical")
        rows.append(row)
    note = (
        f"{n} instances per topology; Wilcoxon signed-rank of each setting against the default on"
        f" the same instances, Holm over the {len(TUNINGS) - 1} other settings of a topology."
    )
    return md_table(head, rows, len(head) - 1) + "\n\n" + note


def table_cpu(p):
    rows = []
    for t in p.topologies(p.cpu):
        for a in VARIANTS:
            f = p.cpu_fields(t, a)
            mean = shared.fmt_interval(stats.Interval(f["n"], f["mean"], f["ci"]), 3)
            rows.append([t, a, f["n"], *(fmt(f[k], 3) for k in ("median", "p90", "p99")), mean])
    cmp = p.cpucmp()
    head = ["topology", "algorithm", "joins", "median", "p90", "p99", "mean [95 % CI]"]
    text = md_table(head, rows, 5)
    tests = "; ".join(
        f"{t}: ga's median {fmt(abs(s), 1)} % {'below' if s >= 0 else 'above'} ga-tuned's,"
        f" p {fmt_p(adj)}"
        for t, (s, _p, adj) in cmp.items()
    )
    return text + f"\n\nWilcoxon signed-rank on the pairs, Holm over the topologies: {tests}."


# JMH's units as the page writes them, and the decimals of its times in each
UNITS = {"ms/op": ("ms", 3), "us/op": ("µs", 1), "ns/op": ("ns", 0), "s/op": ("s", 3)}


def jmh_decimals(row, col):
    """Decimals of a JMH column: none for counts and bytes, by the unit for times."""
    if col in ("samples", "alloc_bytes_per_op"):
        return 0
    if row["unit"] not in UNITS:
        raise KeyError(f"unknown JMH unit {row['unit']!r}")
    return UNITS[row["unit"]][1]


def jmh_text(row, col):
    return fmt(float(row[col]), jmh_decimals(row, col)) if row[col] else "-"


def table_jmh(p, name):
    if name not in p.jmh:
        raise KeyError(f"no JMH measurement {name!r}")
    rows = p.jmh[name]
    if not rows:
        raise KeyError(f"{name} has no rows")
    keys = sorted({k.split("=")[0] for r in rows for k in r["params"].split(";") if k})
    methods = len({r["benchmark"] for r in rows}) > 1
    keys = (["benchmark"] if methods else []) + keys
    alloc = any(r["alloc_bytes_per_op"] for r in rows)
    head = [*keys, "samples", "median", "p90", "p99", "max", "mean ± 99.9 % error"]
    head += ["bytes allocated per call"] if alloc else []
    out = []
    for r in rows:
        params = dict(kv.split("=", 1) for kv in r["params"].split(";") if kv)
        params["benchmark"] = r["benchmark"].rpartition(".")[2]
        line = [params.get(k, "") for k in keys]
        line += [jmh_text(r, c) for c in ("samples", "p50", "p90", "p99", "max")]
        line += [f"{jmh_text(r, 'mean')} ± {jmh_text(r, 'error')}"]
        line += [jmh_text(r, "alloc_bytes_per_op")] if alloc else []
        out.append(line)
    units = {UNITS[r["unit"]][0] if r["unit"] in UNITS else r["unit"] for r in rows}
    return md_table(head, out, len(head) - len(keys)) + f"\n\nTimes in {', '.join(units)}."


def table_compare(p):
    head = ["algorithm", "subflows", "abw (Mbit/s)", "delay spread (ms)"]
    head += ["rules/client per-hop", "rules/client SR", "overbooked links", "fitness (eq. 7)"]
    cols = ("subflows", "abw_mbps", "spread_ms", "rules_hop", "rules_sr", "overbooked", "fitness")
    rows = []
    for a in dict.fromkeys(r["algorithm"] for r in p.compare):
        f = p.compare_fields(a)
        rows.append([a, *(fmt(f[c], COMPARE_FIELDS[c]) for c in cols)])
    return md_table(head, rows, len(cols))


E2E_KINDS = ("first MP_CAPABLE", "MP_CAPABLE", "MP_JOIN", "TCP", "first ping", "ping")


def table_e2e(p):
    """Per variant and kind of SYN (or ping), over the recorded runs whose checks all passed:
    the runs with an answered one, the answered and unanswered count, the mean over those runs
    of a run's mean set-up time (ms; the unit is the run, as on the results pages) with its 95 %
    t interval, and the min, median and max of every answered one; or, not recorded, how to
    record them."""
    if p.e2e is None:
        return (
            "No run of it is recorded yet: "
            "`floodlight-module/bench/perf_report.py --record e2e-setup`"
            f" (as root, with no guest or other network test running) records {E2E_RUNS} runs of"
            " each of the first three variants of `make e2e`."
        )
    ok = [r for r in p.e2e if r["status"] == "ok"]
    # {(variant, kind): {run: the run's mean set-up time}}: ok runs, answered SYNs only
    run_means = stats.per_run(
        ({**r, "cell": (r["variant"], r["kind"])} for r in p.e2e),
        lambda r: float(r["setup_ms"]) if r["setup_ms"] else None,
    )
    rows = []
    for variant in dict.fromkeys(r["variant"] for r in p.e2e):
        mine = [r for r in ok if r["variant"] == variant]
        for kind in E2E_KINDS:
            answered = [r for r in mine if r["kind"] == kind and r["setup_ms"]]
            unanswered = sum(1 for r in mine if r["kind"] == kind and not r["setup_ms"])
            if not answered and not unanswered:
                continue
            xs = [float(r["setup_ms"]) for r in answered]
            means = run_means.get((variant, kind), {})
            iv = stats.mean_ci(means.values())
            times = (
                [fmt(min(xs), 1), fmt(shared.quantile(xs, 0.5), 1), fmt(max(xs), 1)]
                if xs
                else ["-"] * 3
            )
            mean = shared.fmt_interval(iv, 1)
            rows.append([variant, kind, len(means), len(xs), unanswered, mean, *times])
    runs = {(r["variant"], r["run"], r["status"]) for r in p.e2e}
    failed = sum(1 for _v, _k, st in runs if st != "ok")
    head = ["variant", "SYN or ping", "runs", "answered", "unanswered", "mean of runs"]
    head += ["min", "median", "max"]
    note = f"Milliseconds; {len(runs) - failed} runs whose checks all passed"
    note += f" ({failed} with a failed check left out)." if failed else "."
    return md_table(head, rows, 7) + "\n\n" + note


def table_rules(p):
    algos = list(dict.fromkeys(r["algorithm"] for r in p.rules))
    rows = []
    for a in algos:
        hop, sr = p.rules_fields(a, "hop"), p.rules_fields(a, "sr")
        rows.append(
            [a, fmt(hop["subflows"], 2), fmt(hop["rules"], 1)]
            + [fmt(sr["subflows"], 2), fmt(sr["rules"], 1), sr["labels"]]
        )
    head = [
        "algorithm",
        "per hop: subflows/client",
        "rules/client",
        "SR: subflows/client",
        "rules/client",
        "label rules (shared, all switches)",
    ]
    return md_table(head, rows, 5)


def table_runs(p):
    rows = [
        [n, r["started_utc"], shared.short(r["code_version"]), r["seconds"]]
        + [r["load_before"], r["load_after"]]
        for n, r in p.runs.items()
    ]
    head = ["measurement", "started (UTC)", "code version", "s", "load before", "load after"]
    facts = sorted(
        {
            (r["cpus"], r["cpu_model"], r["memory_gb"], r["kernel"], r["java"])
            for r in p.runs.values()
        }
    )
    machines = "; ".join(f"{c} CPUs ({m}), {g} GiB, Linux {k}, {j}" for c, m, g, k, j in facts)
    return md_table(head, rows, 4) + f"\n\nMachine: {machines}."


# ---------------------------------------------------------------------------------------------
# Placeholders


# compare's per-join columns and the decimals the page gives them; per run: overbooked
COMPARE_PER_JOIN = {
    **{"subflows": 2, "abw_mbps": 2, "spread_ms": 3, "rules_hop": 1, "rules_sr": 1},
    **{"fitness": 4, "paths": 2, "zeta_ms": 3, "xi_mbps": 2, "infeasible": 2, "no_path": 2},
}
COMPARE_FIELDS = {**COMPARE_PER_JOIN, "overbooked": 1, "runs": 0, "joins": 0}
OPT_FIELDS = {
    **{"mean": 3, "ci": 3, "lo": 3, "hi": 3, "min": 3},
    **{"n": 0, "equal": 0, "candidates": 1, "population": 0},
}
CPU_FIELDS = {"median": 3, "p90": 3, "p99": 3, "mean": 3, "ci": 3, "n": 0}
RULES_FIELDS = {"subflows": 2, "rules": 1, "labels": 0, "clients": 0}
JMH_FIELDS = ("samples", "mean", "error", "p50", "p90", "p99", "p999", "max", "alloc")


def count(text):
    try:
        return int(text)
    except ValueError:
        raise KeyError(f"instance count {text!r} is not a whole number") from None


def split_subject(metric, subject, n):
    """A subject's n parts (SUBJECTS: its form per metric); KeyError naming the form."""
    parts = subject.split("/")
    if len(parts) != n:
        raise KeyError(f"a subject of {metric} is {SUBJECTS[metric]}, not {subject!r}")
    return parts


def jmh_params(text):
    """JMH parameters as a subject writes them (`k:v+k:v`, the grammar keeps `=` and `,` for
    its own) as jmh_row takes them (`k=v,k=v`)."""
    return ",".join(kv.replace(":", "=", 1) for kv in text.split("+")) if text else ""


def values(p, metric, subject, fld):
    """[(name, number, decimals)] of the field fld of a metric (SUBJECTS) of the subjects the
    subject names; its parts may be fnmatch patterns (within, target: every match is held).
    A field of a comparison (CMP_FIELDS: the effect, p_raw, p) gives the comparison's."""
    if metric in COMPARISONS and fld in CMP_FIELDS[metric]:
        cmp, key = comparisons(p, metric, subject)
        effect, decimals = COMPARISONS[metric][1:]
        idx = {effect: 0, "p_raw": 1, "p": 2}
        out = [
            (k, c[idx[fld]], decimals if fld == effect else None)
            for k, c in cmp.items()
            if fnmatch.fnmatchcase(k, key)
        ]
    elif metric in ("opt", "tuning"):
        if fld not in OPT_FIELDS:
            raise KeyError(f"field {fld!r} is not {', '.join((*OPT_FIELDS, *CMP_FIELDS[metric]))}")
        n, top, what = split_subject(metric, subject, 3)
        table = p.opt if metric == "opt" else p.tuning
        keys = [
            k for k in table if fnmatch.fnmatchcase(k[0], top) and fnmatch.fnmatchcase(k[1], what)
        ]
        out = [(f"{t}/{w}", table[(t, w)].fields(count(n))[fld], OPT_FIELDS[fld]) for t, w in keys]
    elif metric == "cpu":
        if fld not in CPU_FIELDS:
            raise KeyError(f"field {fld!r} is not {', '.join((*CPU_FIELDS, *CMP_FIELDS['cpu']))}")
        top, algo = split_subject(metric, subject, 2)
        keys = [
            k for k in p.cpu if fnmatch.fnmatchcase(k[0], top) and fnmatch.fnmatchcase(k[1], algo)
        ]
        out = [(f"{t}/{a}", p.cpu_fields(t, a)[fld], CPU_FIELDS[fld]) for t, a in keys]
    elif metric == "compare":
        if fld not in COMPARE_FIELDS:
            raise KeyError(f"field {fld!r} is not {', '.join(COMPARE_FIELDS)}")
        (algo,) = split_subject(metric, subject, 1)
        algos = dict.fromkeys(r["algorithm"] for r in p.compare)
        out = [
            (a, p.compare_fields(a)[fld], COMPARE_FIELDS[fld])
            for a in algos
            if fnmatch.fnmatchcase(a, algo)
        ]
    elif metric == "rules":
        if fld not in RULES_FIELDS:
            raise KeyError(f"field {fld!r} is not {', '.join(RULES_FIELDS)}")
        algo, routing = split_subject(metric, subject, 2)
        algos = dict.fromkeys(r["algorithm"] for r in p.rules)
        out = [
            (f"{a}/{routing}", p.rules_fields(a, routing)[fld], RULES_FIELDS[fld])
            for a in algos
            if fnmatch.fnmatchcase(a, algo)
        ]
    elif metric == "jmh":
        if fld not in JMH_FIELDS:
            raise KeyError(f"field {fld!r} is not {', '.join(JMH_FIELDS)}")
        name, method, params = split_subject(metric, subject, 3)
        params = jmh_params(params)
        r = p.jmh_row(name, method, params)
        col = "alloc_bytes_per_op" if fld == "alloc" else fld
        if not r[col]:
            raise KeyError(f"{name}/{params} has no {fld}")
        out = [(f"{name}/{params}", float(r[col]), jmh_decimals(r, col))]
    else:
        raise KeyError(f"no metric {metric!r} ({', '.join(SUBJECTS)})")
    if not out:
        raise KeyError(f"{metric} {subject} {fld} matches nothing")
    return out


# the metrics: the form of their subjects
SUBJECTS = {
    "opt": "<n>/<topology>/<algorithm>",
    "tuning": "<n>/<topology>/<crossover>,<elites>,<tournament>",
    "cpu": "<topology>/<algorithm>",
    "compare": "<algorithm>",
    "rules": "<algorithm>/<hop|sr>",
    "jmh": "<name>/<method>/<k>:<v>[+<k>:<v>...]",
}
# the metrics with a comparison (cmp): the form of its subjects, its effect field, the decimals
# of the effect
COMPARISONS = {
    "opt": ("<n>/<topology>", "diff", 3),
    "tuning": ("<n>/<topology>/<setting>", "diff", 3),
    "cpu": ("<topology>", "saving", 1),
}
CMP_FIELDS = {m: (effect, "p_raw", "p") for m, (_f, effect, _d) in COMPARISONS.items()}


def comparisons(p, metric, subject):
    """(the comparisons {key: (effect, p_raw, p)}, the key pattern) of a comparison of metric:
    opt (ga-tuned against ga, effect ga - ga-tuned, keys topologies), tuning (a setting against
    the default, effect default - setting, keys settings), cpu (ga-tuned against ga, effect
    ga's saving, keys topologies)."""
    if metric not in COMPARISONS:
        raise KeyError(f"no comparison of {metric!r} ({', '.join(COMPARISONS)})")
    form = COMPARISONS[metric][0]
    head = subject.split("/")
    if len(head) != form.count("/") + 1:
        raise KeyError(f"a subject of a comparison of {metric} is {form}, not {subject!r}")
    if metric == "opt":
        return p.optcmp(count(head[0])), head[1]
    if metric == "tuning":
        return p.tunecmp(count(head[0]), head[1]), head[2]
    return p.cpucmp(), head[0]


def single(p, metric, subject, fld):
    """One value's text: a p-value as fmt_p gives it, "n/a" for none."""
    out = values(p, metric, subject, fld)
    if len(out) != 1:
        raise KeyError(f"{subject} names {len(out)} values, not one (patterns are for within)")
    _name, v, decimals = out[0]
    if decimals is None:  # a p-value
        return fmt_p(v) if v is not None else "n/a (identical, no test)"
    return fmt(v, decimals)


def check_cmp(p, metric, subject, fld):
    """The check of a word (shared.CHECKS) about comparisons: the second side (ga-tuned; the
    setting) against the first (ga; the default), in every comparison the key (a topology or
    a setting; an fnmatch pattern) matches."""
    cmp, key = comparisons(p, metric, subject)
    keys = [k for k in cmp if fnmatch.fnmatchcase(k, key)]
    if not keys:
        raise KeyError(f"no comparison {key!r} ({', '.join(cmp)})")
    for k in keys:
        effect, _raw, adj = cmp[k]
        # the effect is first - second (opt, tuning) or ga's saving (cpu): the second side
        # higher when it is negative, positive respectively
        higher = effect > 0 if metric == "cpu" else effect < 0
        try:
            shared.check_words(fld, adj is not None, "identical ratios", adj, ALPHA, higher)
        except KeyError as e:
            raise KeyError(f"{k}: {e.args[0]}") from None
    return ""


def resolver(p):
    """The kinds of the pages' placeholders (mpqoe.page; the module's docstring) over the
    data of p."""
    no_series = "the benchmarks"

    def table(name):
        name, _, arg = name.partition("/")
        if name == "optimality":
            n, _, tops = arg.partition("/")
            return table_optimality(p, count(n), tops.split(",") if tops else p.topologies(p.opt))
        if name == "tuning":
            return table_tuning(p, count(arg))
        if name == "jmh":
            return table_jmh(p, arg)
        simple = {
            "cpu": table_cpu,
            "rules": table_rules,
            "runs": table_runs,
            "compare": table_compare,
            "e2e": table_e2e,
        }
        if name not in simple or arg:
            raise KeyError(f"unknown table {name + (arg and '/' + arg)!r}")
        return simple[name](p)

    def value(subject, metric, field, during):
        page.no_window(during, no_series)
        if field in CMP_FIELDS.get(metric, ()):
            raise KeyError(f"{field!r} is a comparison's field: {{{{cmp {subject} {metric} ...}}}}")
        return single(p, metric, subject, field)

    def cmp(subject, metric, field, during):
        page.no_window(during, no_series)
        if metric not in COMPARISONS:
            raise KeyError(f"no comparison of {metric!r} ({', '.join(COMPARISONS)})")
        if field in shared.CHECKS:
            return check_cmp(p, metric, subject, field)
        if field not in CMP_FIELDS[metric]:
            fields = (*CMP_FIELDS[metric], *shared.CHECKS)
            raise KeyError(f"field {field!r} is not {', '.join(fields)}")
        return single(p, metric, subject, field)

    def run(name, field):
        if name not in p.runs or field not in HEADERS["runs"]:
            raise KeyError(f"expected run <{'|'.join(p.runs)}> <{'|'.join(HEADERS['runs'])}>")
        v = p.runs[name][field]
        return shared.short(v) if field == "code_version" else v

    def numbers(subjects, metric, field):
        """[(name, value, decimals)] of every subject (patterns) of the list; every value a
        number."""
        vals = [v for s in subjects for v in values(p, metric, s, field)]
        if any(v is None for _n, v, _d in vals):
            raise KeyError(f"{metric} {','.join(subjects)} {field} has a value without a number")
        return vals

    def within(subjects, metric, bounds, field, runs, during):
        page.no_window(during, no_series)
        if runs is not None:
            raise KeyError("runs=: the benchmarks have no runs of a cell")
        vals = numbers(subjects, metric, field)
        decimals = max(3 if d is None else d for _n, _v, d in vals)
        what = f"{metric} {','.join(subjects)} {field}"
        return shared.check_within(
            [(n, v) for n, v, _d in vals], bounds.lo, bounds.hi, what, decimals, what
        )

    def target(subjects, metric, bounds, field):
        vals = numbers(subjects, metric, field)
        return "met" if all(v in bounds for _n, v, _d in vals) else "missed"

    def rising(subjects, metric, field, during):
        page.no_window(during, no_series)
        named = [(s, v, d) for s in subjects for _n, v, d in values(p, metric, s, field)]
        if any(v is None for _n, v, _d in named):
            raise KeyError("a value without a number")
        decimals = max(3 if d is None else d for _n, _v, d in named)
        what = f"{metric} {field}"
        return shared.check_rising([(n, v) for n, v, _d in named], what, decimals, "values")

    def rulecount(subjects, routing, per_subflow, per_connection):
        a, b = per_subflow, per_connection
        rows = [
            r
            for r in p.rules
            if any(fnmatch.fnmatchcase(r["algorithm"], s) for s in subjects)
            and r["routing"] == routing
        ]
        if not rows:
            raise KeyError(f"no rules rows of {','.join(subjects)}/{routing}")
        off = [
            f"{r['algorithm']}/{r['client']} {r['rules']} for {r['subflows']}"
            for r in rows
            if int(r["rules"]) != a * int(r["subflows"]) + b
        ]
        if off:
            raise KeyError(
                f"the words it checks need {a} rules a subflow and {b} a connection "
                f"({routing}), the data give (rules for subflows) {', '.join(off)}"
            )
        return ""

    kinds = page.Kinds()
    kinds.shared("table", table).shared("value", value).shared("cmp", cmp)
    kinds.shared("within", within).shared("rising", rising)
    kinds.own("target", "subjects:list metric bounds:range field", target)
    kinds.own("run", "name field", run)
    kinds.own(
        "rulecount", "subjects:list routing:hop|sr per_subflow:int per_connection:int", rulecount
    )
    return kinds


def make(data):
    p = Perf(data)
    kinds = resolver(p)
    out = {}
    for template, target in PAGES.items():
        text = page.read_template(template)
        out[target] = page.render(text, kinds, template, WHO, COMMAND)
    status = [
        f"{n}: {r['started_utc']}, {shared.short(r['code_version'])}" for n, r in p.runs.items()
    ]
    return out, [], [], status


def main(argv=None):
    def extend(parser):
        parser.add_argument("--record", metavar="NAME[,NAME...]|all", help="run measurements")
        parser.add_argument("--verify", action="store_true", help="rerun the deterministic ones")
        parser.add_argument("--jar", default=JAR, help="the benchmark jar")

        def own(a):
            try:
                if a.record:
                    names = list(RECORDS) if a.record == "all" else a.record.split(",")
                    unknown = [n for n in names if n not in RECORDS]
                    if unknown:
                        parser.error(
                            f"--record: unknown {', '.join(unknown)} ({', '.join(RECORDS)})"
                        )
                    record(names, a.jar, a.data)
                    return 0
                if a.verify:
                    return verify(a.jar, a.data)
            except ReportError as e:
                print(f"{WHO}: {e}", file=sys.stderr)
                return 1
            return None

        return own

    return shared.report_cli(
        argv,
        WHO,
        "docs/perf.md from the benchmarks' committed data",
        DATA,
        make,
        root=REPO,
        command=COMMAND,
        extend=extend,
    )


if __name__ == "__main__":
    sys.exit(main())
