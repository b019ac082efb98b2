"""Statistics of the results reports: intervals per cell, tests between algorithms.

Shared by the video experiments' report (testbed/video/video_report.py) and the scheduler
experiments' report (testbed/experiments/sched_report.py). Pure functions over rows (dicts with at
least `cell`, `run`, `status`, `code_version`), tested on hand-made data by
mininet-scripts/tests/test_stats.py. scipy and numpy come from Debian (debian.require).

- The unit of replication is the run: a run's value of a metric is the mean over its rows
  (clients; the scheduler experiments have one row per run) whose status is `ok` (a run without
  an ok row has no value). Clients are not independent (they share the network), so they are
  never counted as replicates.
- Per cell: n runs, their mean and a 95 % Student t interval over the per-run values
  (mean +- t(0.975, n-1) * s / sqrt(n)); n = 1 gives no interval.
- Comparisons inside a group (cells equal in everything but the algorithm): the reference
  algorithm against each other one, two-sided permutation test on the difference of the per-run
  means as the primary test: exact, i.e. over every split of the pooled runs, when there are at
  most SPLIT_EXACT_LIMIT splits (e.g. 5 vs 5 = 252, 10 vs 10 = 184756; the splits are enumerated
  once per size, as for the stratified test below), otherwise scipy.stats.permutation_test with
  RESAMPLES random splits from a fixed seed; Welch's t-test p beside it; Holm-Bonferroni over
  the tested comparisons of one metric in one group; significant where the Holm-adjusted
  permutation p < ALPHA. Fewer than MIN_RUNS runs on either side, or cells of different code
  versions: no test, and not counted in Holm's family.
- Trends along a numeric parameter (e.g. the delay difference): Spearman's rank correlation
  between the parameter and the per-run values of every run of the experiment, two-sided
  permutation test over pairings (exact up to EXACT_LIMIT orderings, else RESAMPLES from a fixed
  seed); at least MIN_TREND runs over at least two parameter values, one code version.
- Stratified comparisons (the same two algorithms in several groups, e.g. every segment
  length): the statistic is the sum over the groups of the difference of the per-run means, and
  the permutation test permutes runs only within each group; its null distribution is the sum
  of the groups' independent split distributions, exact when their product has at most
  STRAT_EXACT_LIMIT elements (e.g. five groups of 3 vs 3 runs: 20^5), else RESAMPLES draws
  from SEED. Two-sided p as scipy defines it (twice the smaller one-sided share, at most 1).
  Every group needs MIN_RUNS a side and one code version.
- Spread (is one side steadier?): Brown-Forsythe's test (scipy.stats.levene about the
  medians) on the per-run values of two cells, MIN_RUNS a side; the side with the smaller mean
  absolute deviation from its median is the steadier one.
- Families: `holm_adjusted` applies Holm-Bonferroni to any list of comparisons or spread
  tests, e.g. every test of one kind on a results page; `compare_group` uses it per group.
- Paired by link draw (the authors' set-up: each draw of a topology's links holds a few runs
  of every algorithm): `compare_by_draw` is the stratified test above with the draws as its
  strata, the runs permuted only within a draw, over the draws both algorithms ran (at least
  MIN_RUNS runs a side in all, any number per draw); Holm over the baselines as
  `compare_group`.
- Failed attempts: the failed share with its Wilson 95 % interval (scipy's binomtest); whether
  some algorithm fails more often than the others: a permutation test of independence of the
  algorithms x {failed, ok} table (the Freeman-Halton question, Fisher's exact test beyond
  2 x 2), its statistic Pearson's chi-square, the failed flags permuted over the attempts
  (RESAMPLES from SEED; one-sided: a larger chi-square is more dependence).
- The calibration's CPU limit: the largest client count whose calibration runs all played
  the top bitrate without stalls sets it, at the highest host CPU busy share among that
  count's runs; a run busier than that is above the limit (`CpuLimit.above`).
- Code versions: a cell's runs must come from one code version; when a cell has runs of
  several, only the newest version's are kept (the caller says which is newest).
"""

import functools
import itertools
import math
import warnings
from dataclasses import dataclass, replace

from mpqoe import debian

st = debian.require("scipy.stats", "python3-scipy", "stats.py")
np = debian.require("numpy", "python3-numpy", "stats.py")

LEVEL = 0.95
ALPHA = 0.05
MIN_RUNS = 3
EXACT_LIMIT = 20_000
SPLIT_EXACT_LIMIT = 200_000
RESAMPLES = 9_999
SEED = 1
MIN_TREND = 5
STRAT_EXACT_LIMIT = 5_000_000
TOO_FEW = "n too small"
VERSIONS_DIFFER = "code versions differ"


@dataclass(frozen=True)
class Interval:
    """Mean of n per-run values and the half-width of its t interval (None when n < 2)."""

    n: int
    mean: float | None
    half: float | None

    @property
    def lo(self):
        return None if self.half is None else self.mean - self.half

    @property
    def hi(self):
        return None if self.half is None else self.mean + self.half


def mean_ci(values, level=LEVEL):
    """Interval of the values: Student t on their mean; no half-width for fewer than 2."""
    xs = [float(v) for v in values]
    n = len(xs)
    if n == 0:
        return Interval(0, None, None)
    mean = math.fsum(xs) / n
    if n == 1:
        return Interval(1, mean, None)
    sd = math.sqrt(math.fsum((x - mean) ** 2 for x in xs) / (n - 1))
    t = float(st.t.ppf(0.5 + level / 2, n - 1))
    return Interval(n, mean, t * sd / math.sqrt(n))


def per_run(rows, value):
    """{cell: {run: mean of value(row) over the run's ok clients}}; value returns a float or
    None (not measured); runs without an ok client with a value are left out."""
    acc = {}
    for r in rows:
        if r["status"] != "ok":
            continue
        v = value(r)
        if v is None:
            continue
        acc.setdefault(r["cell"], {}).setdefault(r["run"], []).append(v)
    return {
        cell: {run: math.fsum(vs) / len(vs) for run, vs in sorted(runs.items())}
        for cell, runs in acc.items()
    }


def not_ok(rows):
    """{cell: (clients not ok, clients)} over all runs of each cell."""
    out = {}
    for r in rows:
        bad, total = out.get(r["cell"], (0, 0))
        out[r["cell"]] = (bad + (r["status"] != "ok"), total + 1)
    return out


def keep_newest(rows, newest):
    """(rows of each cell's newest code version, [(cell, version, runs) dropped]).
    newest(set of versions) returns the newest one; it is asked only for cells with more
    than one version and may raise ValueError when they cannot be ordered."""
    versions = {}
    for r in rows:
        versions.setdefault(r["cell"], {}).setdefault(r["code_version"], set()).add(r["run"])
    keep = {}
    dropped = []
    for cell, by_version in versions.items():
        try:
            keep[cell] = next(iter(by_version)) if len(by_version) == 1 else newest(set(by_version))
        except ValueError as e:
            raise ValueError(f"cell {cell}: {e}") from e
        for v, runs in sorted(by_version.items()):
            if v != keep[cell]:
                dropped.append((cell, v, len(runs)))
    return [r for r in rows if r["code_version"] == keep[r["cell"]]], dropped


def _diff_of_means(x, y, axis):
    return np.mean(x, axis=axis) - np.mean(y, axis=axis)


def _permutation_test(data, statistic, permutation_type, orderings):
    """scipy's two-sided permutation test, exact over every ordering when there are at most
    EXACT_LIMIT of them, else RESAMPLES from SEED; (result, exact)."""
    exact = orderings <= EXACT_LIMIT
    res = st.permutation_test(
        tuple(np.asarray(x, float) for x in data),
        statistic,
        permutation_type=permutation_type,
        vectorized=True,
        n_resamples=np.inf if exact else RESAMPLES,
        alternative="two-sided",
        random_state=None if exact else SEED,
    )
    return res, exact


def permutation_p(a, b):
    """(two-sided p, exact) of the difference of means of a and b under exchangeability:
    twice the smaller one-sided share of splits at least as extreme, at most 1 (scipy's
    definition). Exact over every split up to SPLIT_EXACT_LIMIT of them (stratified_p with one
    stratum), else scipy's Monte Carlo test."""
    splits = math.comb(len(a) + len(b), len(a))
    if splits <= SPLIT_EXACT_LIMIT:
        return stratified_p([(a, b)])
    res, exact = _permutation_test((a, b), _diff_of_means, "independent", splits)
    return float(res.pvalue), exact


def welch_p(a, b):
    """Welch's two-sided t-test p, None when undefined (no variance on either side)."""
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        p = float(st.ttest_ind(a, b, equal_var=False).pvalue)
    return None if math.isnan(p) else p


def min_p(n1, n2):
    """The smallest two-sided p the exact permutation test can give for n1 vs n2 runs."""
    return min(1.0, 2 / math.comb(n1 + n2, n1))


def holm(pvalues):
    """Holm-Bonferroni adjusted p-values, in the given order: the i-th smallest (from 0) is
    multiplied by m - i, made monotone from the smallest up, and capped at 1."""
    m = len(pvalues)
    order = sorted(range(m), key=lambda i: pvalues[i])
    out = [0.0] * m
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (m - rank) * pvalues[i]))
        out[i] = running
    return out


class _Test:
    """A test result with a `reason` when it was not made and `_p`, the p it is judged by."""

    @property
    def tested(self):
        return self.reason is None

    @property
    def sig(self):
        return self.tested and self._p is not None and self._p < ALPHA


@dataclass(frozen=True)
class Trend(_Test):
    """Spearman's rho of a metric against a parameter over n runs, its permutation p."""

    n: int
    rho: float | None = None
    p: float | None = None
    exact: bool = True
    reason: str | None = None

    @property
    def _p(self):
        return self.p


def _ranks(a):
    """Ranks along the last axis (1 = smallest), ties given their average rank: rank of a_i is
    #(a_j < a_i) + (#(a_j == a_i) + 1) / 2. Quadratic in the axis length, which is a run count."""
    a = np.asarray(a, float)
    less = (a[..., None, :] < a[..., :, None]).sum(axis=-1)
    equal = (a[..., None, :] == a[..., :, None]).sum(axis=-1)
    return less + (equal + 1) / 2


def _rank_correlation(x, y, axis=-1):
    """Spearman's rho along the last axis (Pearson's r of the ranks), for many pairings at once."""
    rx, ry = _ranks(np.moveaxis(x, axis, -1)), _ranks(np.moveaxis(y, axis, -1))
    rx = rx - rx.mean(axis=-1, keepdims=True)
    ry = ry - ry.mean(axis=-1, keepdims=True)
    return (rx * ry).sum(axis=-1) / np.sqrt((rx * rx).sum(axis=-1) * (ry * ry).sum(axis=-1))


def _untestable(xs, ys):
    """Why a rank correlation of ys against xs cannot be tested, or None."""
    if len(xs) < MIN_TREND or len(set(xs)) < 2:
        return TOO_FEW
    if len(set(ys)) < 2:
        return "no variation"
    return None


def trend(xs, ys, versions=None):
    """Trend of per-run values ys along parameter values xs (pairs in the same order); with
    versions (one per pair), runs of several code versions are not tested."""
    n = len(xs)
    if versions is not None and len(set(versions)) > 1:
        return Trend(n, reason=VERSIONS_DIFFER)
    if why := _untestable(xs, ys):
        return Trend(n, reason=why)
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        res, exact = _permutation_test((xs, ys), _rank_correlation, "pairings", math.factorial(n))
    return Trend(n, float(res.statistic), float(res.pvalue), exact)


def pooled_trend(pairings):
    """Spearman's rho averaged over several independent pairings [(xs, ys)], e.g. the same
    algorithms ranked on each topology, with its exact two-sided permutation p: under the null
    each pairing's ys are permuted on their own, so the statistic's distribution is the
    convolution of each pairing's exact rho distribution (its n! orderings, at most
    EXACT_LIMIT). Trend.n is the number of pairs in all; a pairing with too few pairs or without
    variation leaves the whole untested."""
    total_n = sum(len(xs) for xs, _ys in pairings)
    observed, dists = [], []
    for xs, ys in pairings:
        n = len(xs)
        if why := _untestable(xs, ys):
            return Trend(total_n, reason=why)
        if math.factorial(n) > EXACT_LIMIT:
            raise ValueError(f"pooled_trend: {n}! orderings of one pairing are too many")
        perms = np.array(list(itertools.permutations(range(n))))
        x = np.broadcast_to(np.asarray(xs, float), perms.shape)
        with np.errstate(all="ignore"):
            observed.append(float(_rank_correlation(np.asarray(xs, float), np.asarray(ys, float))))
            rhos = _rank_correlation(x, np.asarray(ys, float)[perms])
        values, counts = np.unique(np.round(rhos, 9), return_counts=True)
        dists.append(dict(zip(values.tolist(), (counts / counts.sum()).tolist(), strict=True)))
    total = {0.0: 1.0}
    for dist in dists:
        grown = {}
        for a, pa in total.items():
            for b, pb in dist.items():
                key = round(a + b, 9)
                grown[key] = grown.get(key, 0.0) + pa * pb
        total = grown
    obs = sum(observed)
    p = sum(q for v, q in total.items() if abs(v) >= abs(obs) - 1e-9)
    return Trend(total_n, obs / len(observed), min(1.0, p), exact=True)


@dataclass(frozen=True)
class Comparison(_Test):
    """The reference algorithm against another in one group, for one metric. diff is
    mean(ref) - mean(other) over per-run values; reason says why there is no test."""

    ref: str
    other: str
    n_ref: int
    n_other: int
    diff: float | None
    p_perm: float | None = None
    exact: bool = True
    p_welch: float | None = None
    p_holm: float | None = None
    reason: str | None = None

    @property
    def p_raw(self):
        return self.p_perm

    @property
    def _p(self):
        return self.p_holm


def _diff(a, b):
    return None if not a or not b else math.fsum(a) / len(a) - math.fsum(b) / len(b)


def compare(ref, other, a, b):
    """One comparison (not yet Holm-adjusted) of per-run values a (ref) and b (other)."""
    c = Comparison(ref, other, len(a), len(b), _diff(a, b))
    if len(a) < MIN_RUNS or len(b) < MIN_RUNS:
        return replace(c, reason=TOO_FEW)
    p, exact = permutation_p(a, b)
    return replace(c, p_perm=p, exact=exact, p_welch=welch_p(a, b))


@functools.lru_cache(maxsize=8)
def _splits(n, k):
    """Every choice of k of n indices, one row each (read-only, shared by the calls)."""
    idx = np.fromiter(
        itertools.chain.from_iterable(itertools.combinations(range(n), k)),
        dtype=np.int8 if n < 128 else np.int32,
        count=math.comb(n, k) * k,
    ).reshape(-1, k)
    idx.flags.writeable = False
    return idx


def _split_diffs(a, b):
    """The difference of means of every split of a + b into |a| and |b| values."""
    pooled = np.asarray(list(a) + list(b), float)
    total, na = pooled.sum(), len(a)
    sa = pooled[_splits(len(pooled), na)].sum(axis=1)
    return sa / na - (total - sa) / len(b)


def stratified_p(strata):
    """(two-sided p, exact) of the sum over strata [(a, b), ...] of mean(a) - mean(b), runs
    permuted within each stratum (module docstring)."""
    observed = math.fsum(_diff(a, b) for a, b in strata)
    dists = [_split_diffs(a, b) for a, b in strata]
    size = math.prod(len(d) for d in dists)
    exact = size <= STRAT_EXACT_LIMIT
    if exact:
        null = np.zeros(1)
        for d in dists:
            null = (null[:, None] + d[None, :]).ravel()
    else:
        rng = np.random.default_rng(SEED)
        null = sum(rng.choice(d, RESAMPLES) for d in dists)
    tol = 1e-12 * max(1.0, abs(observed))
    greater = np.mean(null >= observed - tol)
    less = np.mean(null <= observed + tol)
    return float(min(1.0, 2 * min(greater, less))), exact


@dataclass(frozen=True)
class Stratified(_Test):
    """ref against other over several groups: diff is the mean of the groups' differences of
    means; reason says why there is no test."""

    ref: str
    other: str
    groups: int
    diff: float | None
    p_perm: float | None = None
    exact: bool = True
    reason: str | None = None

    @property
    def _p(self):
        return self.p_perm


def compare_stratified(ref, other, strata, versions=None):
    """Stratified comparison of [(ref values, other values), ...], one pair per group; with
    versions [(ref version, other version), ...] every pair must be of one version."""
    diffs = [_diff(a, b) for a, b in strata]
    c = Stratified(ref, other, len(strata), None if None in diffs or not diffs else
                   math.fsum(diffs) / len(diffs))  # fmt: skip
    if not strata or any(len(a) < MIN_RUNS or len(b) < MIN_RUNS for a, b in strata):
        return replace(c, reason=TOO_FEW)
    if versions and any(va != vb for va, vb in versions):
        return replace(c, reason=VERSIONS_DIFFER)
    p, exact = stratified_p(strata)
    return replace(c, p_perm=p, exact=exact)


def compare_group(ref, samples, versions=None):
    """[Comparison] of ref against every other key of samples ({algorithm: per-run values},
    in the order given), Holm-adjusted over the tested ones. With versions ({algorithm: code
    version}), cells of another version than ref's are not tested. Empty when ref is absent."""
    if ref not in samples:
        return []
    cs = []
    for alg, vals in samples.items():
        if alg == ref:
            continue
        if versions is not None and versions[alg] != versions[ref]:
            a = samples[ref]
            diff = _diff(a, vals)
            cs.append(Comparison(ref, alg, len(a), len(vals), diff, reason=VERSIONS_DIFFER))
        else:
            cs.append(compare(ref, alg, samples[ref], vals))
    return holm_adjusted(cs)


def holm_adjusted(tests):
    """The tests (Comparison or Spread, in the order given) with p_holm set by Holm over the
    raw p of the tested ones (a Comparison's permutation p, a Spread's p): one family, e.g.
    every comparison of a results page. Untested ones are returned as they are."""
    tests = list(tests)
    tested = [i for i, c in enumerate(tests) if c.tested]
    for i, p in zip(tested, holm([tests[i].p_raw for i in tested]), strict=True):
        tests[i] = replace(tests[i], p_holm=p)
    return tests


@dataclass(frozen=True)
class Spread(_Test):
    """Equal spread of ref's and other's per-run values, Brown-Forsythe test (Levene's test
    about the medians: a one-way ANOVA of the absolute deviations from each side's median).
    dev_ref and dev_other are those mean absolute deviations, which the test compares: the
    smaller one is the steadier side. reason says why there is no test."""

    ref: str
    other: str
    n_ref: int
    n_other: int
    dev_ref: float | None
    dev_other: float | None
    p: float | None = None
    p_holm: float | None = None
    reason: str | None = None

    @property
    def p_raw(self):
        return self.p

    @property
    def _p(self):
        return self.p_holm


def deviation_from_median(values):
    """Mean absolute deviation from the median (the Brown-Forsythe statistic's unit); None for
    no values."""
    xs = [float(v) for v in values]
    if not xs:
        return None
    med = float(np.median(xs))
    return math.fsum(abs(x - med) for x in xs) / len(xs)


def compare_spread(ref, other, a, b):
    """One Spread test (not yet Holm-adjusted) of per-run values a (ref) and b (other); at
    least MIN_RUNS a side, and some deviation on one side at least."""
    s = Spread(ref, other, len(a), len(b), deviation_from_median(a), deviation_from_median(b))
    if len(a) < MIN_RUNS or len(b) < MIN_RUNS:
        return replace(s, reason=TOO_FEW)
    if s.dev_ref == 0 and s.dev_other == 0:
        return replace(s, reason="no variation")
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        p = float(st.levene(a, b, center="median").pvalue)
    return replace(s, reason="no variation") if math.isnan(p) else replace(s, p=p)


def compare_by_draw(ref, samples, versions=None):
    """[Comparison] of ref against every other algorithm of samples ({algorithm: {draw:
    [per-run values]}}, in the order given), runs permuted within the draws both ran
    (stratified_p), Holm-adjusted over the tested ones. diff is the mean over those draws of
    mean(ref) - mean(other); n_ref and n_other count their runs. With versions ({algorithm:
    code version}) cells of another version than ref's are not tested. Empty when ref is
    absent."""
    if ref not in samples:
        return []
    cs = []
    for alg, by_draw in samples.items():
        if alg == ref:
            continue
        draws = [d for d in samples[ref] if samples[ref][d] and by_draw.get(d)]
        strata = [(samples[ref][d], by_draw[d]) for d in draws]
        n_ref, n_other = sum(len(a) for a, _ in strata), sum(len(b) for _, b in strata)
        diffs = [_diff(a, b) for a, b in strata]
        c = Comparison(ref, alg, n_ref, n_other, math.fsum(diffs) / len(diffs) if diffs else None)
        if n_ref < MIN_RUNS or n_other < MIN_RUNS:
            c = replace(c, reason=TOO_FEW)
        elif versions is not None and versions[alg] != versions[ref]:
            c = replace(c, reason=VERSIONS_DIFFER)
        else:
            p, exact = stratified_p(strata)
            c = replace(c, p_perm=p, exact=exact)
        cs.append(c)
    return holm_adjusted(cs)


@dataclass(frozen=True)
class Share:
    """k of n with its Wilson interval at LEVEL (lo, hi as fractions; None for n = 0)."""

    k: int
    n: int
    lo: float | None = None
    hi: float | None = None

    @property
    def share(self):
        return self.k / self.n if self.n else None


def share(k, n, level=LEVEL):
    """The Share k of n, its Wilson score interval from scipy's binomtest."""
    if not 0 <= k <= n:
        raise ValueError(f"share: {k} of {n}")
    if n == 0:
        return Share(0, 0)
    ci = st.binomtest(k, n).proportion_ci(confidence_level=level, method="wilson")
    return Share(k, n, float(ci.low), float(ci.high))


@dataclass(frozen=True)
class Independence(_Test):
    """Whether failing depends on the algorithm: {algorithm: Share of failed attempts}, the
    chi-square statistic of the algorithms x {failed, ok} table and its permutation p; reason
    says why there is no test."""

    failed: dict
    chi2: float | None = None
    p: float | None = None
    reason: str | None = None

    @property
    def _p(self):
        return self.p


def _chi2_rows(flags, codes, sizes):
    """Pearson's chi-square of the algorithms x {failed, ok} table, per row of flags (failed
    0/1 over the attempts; codes: each attempt's algorithm index; sizes: attempts per
    algorithm, each with 0 < expected failures < size)."""
    onehot = np.eye(len(sizes))[codes]
    failed = flags @ onehot
    expected = sizes * flags.sum(axis=-1, keepdims=True) / sizes.sum()
    return np.sum((failed - expected) ** 2 * (1 / expected + 1 / (sizes - expected)), axis=-1)


def failures_by_algorithm(attempts):
    """Independence of failing and algorithm over attempts [(algorithm, failed)]: the module
    docstring's permutation test, untested with fewer than two algorithms or when no attempt
    (or every one) failed."""
    algs = list(dict.fromkeys(a for a, _ in attempts))
    counts = {a: [0, 0] for a in algs}
    for a, failed in attempts:
        counts[a][0] += bool(failed)
        counts[a][1] += 1
    result = Independence({a: share(k, n) for a, (k, n) in counts.items()})
    total = sum(bool(f) for _, f in attempts)
    if len(algs) < 2:
        return replace(result, reason="fewer than two algorithms")
    if total in (0, len(attempts)):
        return replace(result, reason="no attempt failed" if total == 0 else "every attempt failed")
    codes = np.array([algs.index(a) for a, _ in attempts])
    sizes = np.array([counts[a][1] for a in algs], float)
    flags = np.array([float(bool(f)) for _, f in attempts])
    res = st.permutation_test(
        (flags,),
        lambda f, axis: _chi2_rows(np.moveaxis(f, axis, -1), codes, sizes),
        permutation_type="pairings",
        vectorized=True,
        n_resamples=RESAMPLES,
        alternative="greater",
        random_state=SEED,
    )
    return replace(result, chi2=float(res.statistic), p=float(res.pvalue))


@dataclass(frozen=True)
class CpuLimit:
    """The calibration's limit: the largest client count whose runs all played the top bitrate
    without stalls (None when no count did) and the highest host CPU busy share (%) among its
    runs (None when they recorded none)."""

    clients: int | None
    busy_pct: float | None

    def above(self, busy_pct):
        """Whether a run with this host busy share (%) was busier than the limit; False when
        either is unknown."""
        return self.busy_pct is not None and busy_pct is not None and busy_pct > self.busy_pct


def cpu_limit(runs):
    """The CpuLimit of calibration runs [(clients, sustained, host busy %)], sustained: the run
    played the top bitrate without stalls (its caller decides how)."""
    by_count = {}
    for clients, sustained, busy in runs:
        by_count.setdefault(clients, []).append((sustained, busy))
    good = [c for c, rs in by_count.items() if all(ok for ok, _ in rs)]
    if not good:
        return CpuLimit(None, None)
    best = max(good)
    busy = [b for _, b in by_count[best] if b is not None]
    return CpuLimit(best, max(busy) if busy else None)
