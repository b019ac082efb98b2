#!/usr/bin/python3
"""Unit tests of mpqoe.stats on hand-made data, with the expected values worked out by hand
or by enumeration here (never taken from the function under test).

    cd mininet-scripts && /usr/bin/python3 -m unittest tests.test_stats
"""

import itertools
import math
import random
import unittest

from mpqoe import stats

T_975_2 = 4.302652729911275  # Student t, 97.5 % quantile, 2 degrees of freedom (tables: 4.303)


def enumerate_p(a, b):
    """Two-sided exact permutation p by listing every split of the pooled values: twice the
    smaller share of splits whose difference of means is <= / >= the observed one, at most 1."""
    pooled = list(a) + list(b)
    obs = sum(a) / len(a) - sum(b) / len(b)
    le = ge = total = 0
    for idx in itertools.combinations(range(len(pooled)), len(a)):
        x = [pooled[i] for i in idx]
        y = [pooled[i] for i in range(len(pooled)) if i not in idx]
        d = sum(x) / len(x) - sum(y) / len(y)
        le += d <= obs + 1e-12
        ge += d >= obs - 1e-12
        total += 1
    return min(1.0, 2 * min(le, ge) / total)


def row(cell, run, status="ok", version="v1", value=None, client=1):
    return {
        "cell": cell,
        "run": run,
        "client": client,
        "status": status,
        "code_version": version,
        "x": value,
    }


class IntervalTest(unittest.TestCase):
    def test_t_interval_of_three_values(self):
        # 2, 4, 9: mean 5, s^2 = (9 + 1 + 16) / 2 = 13, half = t(0.975, 2) * sqrt(13 / 3)
        iv = stats.mean_ci([2, 4, 9])
        self.assertEqual(iv.n, 3)
        self.assertAlmostEqual(iv.mean, 5.0)
        self.assertAlmostEqual(iv.half, T_975_2 * math.sqrt(13 / 3), places=9)
        self.assertAlmostEqual(iv.half, 8.9567, places=4)
        self.assertAlmostEqual(iv.lo, 5.0 - 8.95669, places=4)
        self.assertAlmostEqual(iv.hi, 5.0 + 8.95669, places=4)

    def test_one_run_has_no_interval_and_none_has_no_mean(self):
        one = stats.mean_ci([7.5])
        self.assertEqual((one.n, one.mean, one.half, one.lo), (1, 7.5, None, None))
        none = stats.mean_ci([])
        self.assertEqual((none.n, none.mean, none.half), (0, None, None))

    def test_equal_values_give_a_zero_width_interval(self):
        iv = stats.mean_ci([3, 3, 3, 3])
        self.assertEqual((iv.mean, iv.half), (3.0, 0.0))


class PerRunTest(unittest.TestCase):
    def test_run_mean_over_ok_clients_only(self):
        rows = [
            row("c", 1, value=10.0, client=1),
            row("c", 1, value=20.0, client=2),
            row("c", 1, status="failed", value=None, client=3),
            row("c", 2, value=5.0, client=1),
            row("c", 2, status="timeout", value=None, client=2),
            row("c", 3, status="failed", value=None, client=1),  # no ok client: no value
            row("d", 1, value=1.0),
        ]
        got = stats.per_run(rows, lambda r: r["x"])
        self.assertEqual(got, {"c": {1: 15.0, 2: 5.0}, "d": {1: 1.0}})
        self.assertEqual(stats.not_ok(rows), {"c": (3, 6), "d": (0, 1)})


class PermutationTest(unittest.TestCase):
    def test_most_extreme_3_vs_3_split(self):
        # 20 splits of six values; only {1,2,3} has a difference as low as -3, so the one-sided
        # p is 1/20 and the two-sided one 2/20.
        p, exact = stats.permutation_p([1, 2, 3], [4, 5, 6])
        self.assertTrue(exact)
        self.assertAlmostEqual(p, 0.1)
        self.assertAlmostEqual(stats.min_p(3, 3), 0.1)

    def test_3_vs_3_against_enumeration(self):
        for a, b in [
            ([1.0, 4.0, 6.0], [2.0, 3.5, 9.0]),
            ([2400.0, 2510.0, 2390.0], [2200.0, 2450.0, 2100.0]),
            ([0.0, 0.0, 1.0], [0.0, 2.0, 3.0]),  # ties
        ]:
            with self.subTest(a=a, b=b):
                p, exact = stats.permutation_p(a, b)
                self.assertTrue(exact)
                self.assertAlmostEqual(p, enumerate_p(a, b))

    def test_unequal_sizes_against_enumeration(self):
        a, b = [3.0, 5.0, 4.0, 8.0], [1.0, 2.0, 6.0]
        self.assertAlmostEqual(stats.permutation_p(a, b)[0], enumerate_p(a, b))

    def test_10_vs_10_is_exact(self):
        # all 184756 splits: only the observed one and its mirror are as extreme
        a = [float(i) for i in range(10)]
        b = [i + 20.0 for i in range(10)]
        self.assertLessEqual(math.comb(20, 10), stats.SPLIT_EXACT_LIMIT)
        p, exact = stats.permutation_p(a, b)
        self.assertTrue(exact)
        self.assertAlmostEqual(p, 2 / math.comb(20, 10))
        self.assertAlmostEqual(p, stats.min_p(10, 10))

    def test_the_enumeration_gives_scipys_exact_p(self):
        rng = random.Random(7)
        for na, nb in ((5, 5), (6, 4), (8, 8)):
            for ties in (False, True):
                a = [float(rng.randint(0, 3) if ties else rng.gauss(10, 3)) for _ in range(na)]
                b = [float(rng.randint(0, 4) if ties else rng.gauss(12, 3)) for _ in range(nb)]
                with self.subTest(na=na, nb=nb, ties=ties):
                    ref = stats.st.permutation_test(
                        (a, b),
                        lambda x, y, axis: x.mean(axis=axis) - y.mean(axis=axis),
                        permutation_type="independent",
                        vectorized=True,
                        n_resamples=math.inf,
                    ).pvalue
                    self.assertAlmostEqual(stats.permutation_p(a, b)[0], ref)

    def test_large_samples_are_resampled_reproducibly(self):
        a = [float(i) for i in range(11)]
        b = [i + 20.0 for i in range(11)]
        self.assertGreater(math.comb(22, 11), stats.SPLIT_EXACT_LIMIT)
        p1, exact = stats.permutation_p(a, b)
        self.assertFalse(exact)
        self.assertEqual(stats.permutation_p(a, b)[0], p1)
        self.assertLess(p1, 0.001)  # exact: 2 / 705432; random splits never reach it

    def test_min_p_5_vs_5(self):
        self.assertAlmostEqual(stats.min_p(5, 5), 2 / 252)


class StratifiedTest(unittest.TestCase):
    def test_one_stratum_is_the_plain_permutation_test(self):
        a, b = [3.0, 4.0, 5.5], [0.0, 1.0, 2.5]
        self.assertAlmostEqual(stats.stratified_p([(a, b)])[0], stats.permutation_p(a, b)[0])
        # 20 splits, the observed one and its mirror are the extremes: p = 2 * 1/20
        self.assertAlmostEqual(stats.stratified_p([(a, b)])[0], 0.1)

    def test_strata_multiply_the_evidence_worked_out_by_hand(self):
        a, b = [3.0, 4.0, 5.0], [0.0, 1.0, 2.0]
        # each stratum: diff 3 only for the observed split (1 of 20); the sum reaches 6 only
        # when both do: 1 of 400, two-sided p = 2/400
        p, exact = stats.stratified_p([(a, b), (a, b)])
        self.assertTrue(exact)
        self.assertAlmostEqual(p, 0.005)
        # opposite directions cancel: the sum is 0, p = 1
        self.assertAlmostEqual(stats.stratified_p([(a, b), (b, a)])[0], 1.0)

    def test_large_designs_are_sampled_from_the_seed(self):
        a, b = [float(x) for x in range(6)], [float(x) + 0.5 for x in range(6)]
        p1, exact = stats.stratified_p([(a, b)] * 4)  # 924^4 splits
        self.assertFalse(exact)
        self.assertEqual(p1, stats.stratified_p([(a, b)] * 4)[0])
        self.assertTrue(0 < p1 <= 1)

    def test_compare_stratified_needs_runs_and_one_version(self):
        a, b = [3.0, 4.0, 5.0], [0.0, 1.0, 2.0]
        c = stats.compare_stratified("x", "y", [(a, b), (a, b)])
        self.assertEqual((c.groups, c.diff, c.sig), (2, 3.0, True))
        self.assertAlmostEqual(c.p_perm, 0.005)
        few = stats.compare_stratified("x", "y", [(a, b), (a[:2], b)])
        self.assertEqual((few.reason, few.p_perm), (stats.TOO_FEW, None))
        mixed = stats.compare_stratified("x", "y", [(a, b)], versions=[("v1", "v2")])
        self.assertEqual(mixed.reason, stats.VERSIONS_DIFFER)


class WelchTest(unittest.TestCase):
    def test_welch_against_the_formula(self):
        a, b = [1.0, 2.0, 3.0, 4.0], [2.0, 4.0, 6.0, 8.0, 10.0]
        # means 2.5 and 6; variances 5/3 and 10
        va, vb = 5 / 3 / 4, 10 / 5
        t = (2.5 - 6) / math.sqrt(va + vb)
        df = (va + vb) ** 2 / (va**2 / 3 + vb**2 / 4)
        want = 2 * stats.st.t.sf(abs(t), df)
        self.assertAlmostEqual(stats.welch_p(a, b), want, places=12)

    def test_no_variance_gives_no_p(self):
        self.assertIsNone(stats.welch_p([1.0, 1.0, 1.0], [1.0, 1.0, 1.0]))


class HolmTest(unittest.TestCase):
    def test_known_vector(self):
        # sorted 0.005, 0.01, 0.03, 0.04 times 4, 3, 2, 1 = 0.02, 0.03, 0.06, 0.04 -> monotone
        # 0.02, 0.03, 0.06, 0.06; back in the given order:
        got = stats.holm([0.01, 0.04, 0.03, 0.005])
        for g, w in zip(got, [0.03, 0.06, 0.06, 0.02], strict=True):
            self.assertAlmostEqual(g, w)

    def test_capped_at_one_and_empty(self):
        self.assertEqual(stats.holm([0.5, 0.6]), [1.0, 1.0])
        self.assertEqual(stats.holm([]), [])


class CompareTest(unittest.TestCase):
    def test_too_few_runs_give_no_test(self):
        for a, b in [([1, 2], [3, 4, 5]), ([1, 2, 3], [4, 5]), ([1, 2, 3], [])]:
            with self.subTest(a=a, b=b):
                c = stats.compare("ga", "none", a, b)
                self.assertEqual(c.reason, stats.TOO_FEW)
                self.assertFalse(c.tested)
                self.assertFalse(c.sig)
                self.assertIsNone(c.p_perm)
                self.assertIsNone(c.p_welch)
        self.assertAlmostEqual(stats.compare("ga", "none", [1, 2], [4, 5, 6]).diff, -3.5)
        self.assertIsNone(stats.compare("ga", "none", [1, 2, 3], []).diff)

    def test_group_holm_over_the_tested_comparisons_only(self):
        samples = {
            "ga": [10.0, 11.0, 12.0, 13.0, 14.0],
            "fd-bw": [0.0, 1.0, 2.0, 3.0, 4.0],  # fully separated: p = 2/252
            "pd-bw": [10.0, 11.0, 12.0, 13.0, 14.0],  # the same values: p = 1
            "none": [1.0, 2.0],  # two runs: no test, not in the family
        }
        cs = {c.other: c for c in stats.compare_group("ga", samples)}
        self.assertEqual(list(cs), ["fd-bw", "pd-bw", "none"])
        self.assertAlmostEqual(cs["fd-bw"].p_perm, 2 / 252)
        self.assertAlmostEqual(cs["fd-bw"].p_holm, 2 * 2 / 252)  # m = 2
        self.assertAlmostEqual(cs["fd-bw"].diff, 10.0)
        self.assertTrue(cs["fd-bw"].sig)
        self.assertAlmostEqual(cs["pd-bw"].p_holm, 1.0)
        self.assertFalse(cs["pd-bw"].sig)
        self.assertEqual(cs["none"].reason, stats.TOO_FEW)
        self.assertIsNone(cs["none"].p_holm)

    def test_holm_can_remove_a_raw_significance(self):
        # five others, each fully separated from ga with 4 vs 4 runs: raw p = 2/70 = 0.029 < 0.05,
        # Holm: 5 * 0.029 = 0.14 for the first -> nothing is significant.
        samples = {"ga": [10.0, 11.0, 12.0, 13.0]}
        for k, alg in enumerate(["pd-bw", "pd-delay", "fd-bw", "fd-delay", "none"]):
            samples[alg] = [k * 0.1 + v for v in (0.0, 1.0, 2.0, 3.0)]
        cs = stats.compare_group("ga", samples)
        self.assertEqual(len(cs), 5)
        for c in cs:
            self.assertAlmostEqual(c.p_perm, 2 / 70)
            self.assertAlmostEqual(c.p_holm, 5 * 2 / 70)
            self.assertFalse(c.sig)

    def test_cells_of_another_code_version_are_not_compared(self):
        samples = {
            "ga": [10.0, 11.0, 12.0, 13.0, 14.0],
            "fd-bw": [0.0, 1.0, 2.0, 3.0, 4.0],
            "none": [0.5, 1.5, 2.5, 3.5, 4.5],
        }
        versions = {"ga": "v2", "fd-bw": "v2", "none": "v1"}
        cs = {c.other: c for c in stats.compare_group("ga", samples, versions)}
        self.assertEqual(cs["none"].reason, stats.VERSIONS_DIFFER)
        self.assertAlmostEqual(cs["none"].diff, 9.5)
        self.assertAlmostEqual(cs["fd-bw"].p_holm, 2 / 252)  # a family of one

    def test_no_reference_no_comparisons(self):
        self.assertEqual(stats.compare_group("ga", {"none": [1.0, 2.0, 3.0]}), [])


class PageFamilyTest(unittest.TestCase):
    def test_holm_over_a_list_of_comparisons_and_spreads_skips_untested_ones(self):
        sep = stats.compare("pcdc", "fullmesh", [10.0, 11.0, 12.0, 13.0, 14.0], [0.0, 1, 2, 3, 4])
        same = stats.compare("pcdc", "fullmesh", [1.0, 2, 3, 4, 5], [1.0, 2, 3, 4, 5])
        few = stats.compare("pcdc", "fullmesh", [1.0, 2], [3.0, 4, 5])
        got = stats.holm_adjusted([sep, few, same])
        self.assertAlmostEqual(got[0].p_holm, 2 * 2 / 252)  # m = 2: the untested one is out
        self.assertIsNone(got[1].p_holm)
        self.assertAlmostEqual(got[2].p_holm, 1.0)
        self.assertEqual([c.sig for c in got], [True, False, False])


class SpreadTest(unittest.TestCase):
    def test_brown_forsythe_against_the_anova_of_the_deviations(self):
        a, b = [1.0, 2.0, 3.0, 10.0], [5.0, 5.5, 6.0, 6.5, 7.0]
        # deviations from the medians 2.5 and 6: 1.5 0.5 0.5 7.5 and 1 0.5 0 0.5 1
        za, zb = [1.5, 0.5, 0.5, 7.5], [1.0, 0.5, 0.0, 0.5, 1.0]
        ma, mb, m = sum(za) / 4, sum(zb) / 5, (sum(za) + sum(zb)) / 9
        between = 4 * (ma - m) ** 2 + 5 * (mb - m) ** 2  # 1 degree of freedom
        within = sum((z - ma) ** 2 for z in za) + sum((z - mb) ** 2 for z in zb)  # 7
        want = stats.st.f.sf(between / (within / 7), 1, 7)
        s = stats.compare_spread("pcdc", "fullmesh", a, b)
        self.assertTrue(s.tested)
        self.assertAlmostEqual(s.p, want, places=12)
        self.assertAlmostEqual(s.dev_ref, 2.5)
        self.assertAlmostEqual(s.dev_other, 0.6)

    def test_a_much_steadier_side_is_found_and_equal_spreads_are_not(self):
        steady = [200.0, 201.0, 202.0, 203.0, 204.0, 205.0, 206.0, 207.0, 208.0, 209.0]
        wild = [150.0, 420.0, 210.0, 500.0, 190.0, 330.0, 260.0, 480.0, 170.0, 390.0]
        s = stats.holm_adjusted([stats.compare_spread("pcdc", "fullmesh", steady, wild)])[0]
        self.assertLess(s.dev_ref, s.dev_other)
        self.assertTrue(s.sig)
        shifted = [x + 50 for x in steady]  # the same spread at another level
        e = stats.holm_adjusted([stats.compare_spread("pcdc", "fullmesh", steady, shifted)])[0]
        self.assertAlmostEqual(e.p, 1.0)
        self.assertFalse(e.sig)

    def test_untested_cases(self):
        self.assertEqual(
            stats.compare_spread("x", "y", [1.0, 2.0], [1.0, 2, 3]).reason, stats.TOO_FEW
        )
        flat = stats.compare_spread("x", "y", [3.0, 3, 3], [5.0, 5, 5])
        self.assertEqual((flat.reason, flat.dev_ref, flat.sig), ("no variation", 0.0, False))
        self.assertIsNone(stats.deviation_from_median([]))


class VersionTest(unittest.TestCase):
    def test_newest_version_per_cell(self):
        rows = [
            row("A", 1, version="v1"),
            row("A", 1, version="v1", client=2),
            row("A", 2, version="v1"),
            row("A", 3, version="v2"),
            row("B", 1, version="v1"),
            row("B", 2, version="v1"),
        ]
        asked = []

        def newest(versions):
            asked.append(versions)
            return max(versions)

        kept, dropped = stats.keep_newest(rows, newest)
        self.assertEqual([(r["cell"], r["run"]) for r in kept], [("A", 3), ("B", 1), ("B", 2)])
        self.assertEqual(dropped, [("A", "v1", 2)])
        self.assertEqual(asked, [{"v1", "v2"}])  # B has one version: nothing to order

    def test_unorderable_versions_raise(self):
        rows = [row("A", 1, version="x"), row("A", 2, version="y")]

        def newest(versions):
            raise ValueError("cannot order")

        with self.assertRaisesRegex(ValueError, "cell A: cannot order"):
            stats.keep_newest(rows, newest)


class TrendTest(unittest.TestCase):
    def test_a_perfect_rank_order_has_the_smallest_exact_p(self):
        t = stats.trend([0, 50, 100, 150, 200], [1.0, 2.0, 3.5, 4.0, 9.0])
        self.assertTrue(t.exact)
        self.assertAlmostEqual(t.rho, 1.0)
        # two of the 5! = 120 pairings are as extreme (rho = +1 and -1)
        self.assertAlmostEqual(t.p, 2 / 120)
        self.assertTrue(t.sig)

    def test_exact_p_by_enumeration_with_ties(self):
        xs, ys = [0, 0, 100, 100, 200], [3.0, 1.0, 2.0, 5.0, 4.0]

        def rho(y):
            return stats.st.spearmanr(xs, y).statistic

        obs = rho(ys)
        perms = [rho(list(p)) for p in itertools.permutations(ys)]
        want = sum(1 for r in perms if abs(r) >= abs(obs) - 1e-12) / len(perms)
        t = stats.trend(xs, ys)
        self.assertAlmostEqual(t.rho, obs)
        self.assertAlmostEqual(t.p, want, places=6)
        self.assertFalse(t.sig)

    def test_many_runs_use_seeded_resamples(self):
        xs = [d for d in (0, 50, 100, 150, 200) for _ in range(3)]
        ys = [float(i % 4) for i in range(15)]
        a, b = stats.trend(xs, ys), stats.trend(xs, ys)
        self.assertFalse(a.exact)
        self.assertEqual(a.p, b.p)  # fixed seed: the same p every time

    def test_untested_cases(self):
        self.assertEqual(stats.trend([0, 1, 2, 3], [1, 2, 3, 4]).reason, stats.TOO_FEW)
        self.assertEqual(stats.trend([], []).reason, stats.TOO_FEW)  # a metric without values
        self.assertEqual(stats.trend([5] * 6, [1, 2, 3, 4, 5, 6]).reason, stats.TOO_FEW)
        self.assertEqual(stats.trend(range(6), [2.0] * 6).reason, "no variation")
        t = stats.trend(range(6), range(6), versions=["a"] * 5 + ["b"])
        self.assertEqual(t.reason, stats.VERSIONS_DIFFER)
        self.assertFalse(t.sig)


class PooledTrendTest(unittest.TestCase):
    def test_one_pairing_is_the_plain_exact_test(self):
        xs, ys = [0, 50, 100, 150, 200], [3.0, 1.0, 2.0, 5.0, 4.0]
        one, plain = stats.pooled_trend([(xs, ys)]), stats.trend(xs, ys)
        self.assertAlmostEqual(one.rho, plain.rho)
        self.assertAlmostEqual(one.p, plain.p)

    def test_p_by_enumerating_both_pairings(self):
        a = ([1, 2, 3, 4, 5], [2.0, 1.0, 3.0, 5.0, 4.0])
        b = ([5, 4, 3, 2, 1, 6], [1.0, 3.0, 2.0, 6.0, 5.0, 4.0])

        def rho(x, y):
            return stats.st.spearmanr(x, y).statistic

        obs = rho(*a) + rho(*b)
        ra = [rho(a[0], list(p)) for p in itertools.permutations(a[1])]
        rb = [rho(b[0], list(p)) for p in itertools.permutations(b[1])]
        want = sum(1 for x in ra for y in rb if abs(x + y) >= abs(obs) - 1e-9) / (120 * 720)
        t = stats.pooled_trend([a, b])
        self.assertAlmostEqual(t.rho, obs / 2)
        self.assertAlmostEqual(t.p, want, places=9)
        self.assertEqual(t.n, 11)

    def test_agreement_on_three_topologies_is_significant_where_one_is_not(self):
        xs = [1, 2, 3, 4, 5, 6]
        ys = [1.0, 3.0, 2.0, 4.0, 6.0, 5.0]  # rho 0.89 on each
        self.assertFalse(stats.trend(xs, ys).p < 0.01)
        self.assertLess(stats.pooled_trend([(xs, ys)] * 3).p, 0.01)

    def test_untested_when_a_pairing_is_too_short(self):
        t = stats.pooled_trend([([1, 2, 3, 4, 5], [1, 2, 3, 4, 5]), ([1, 2, 3], [1, 2, 3])])
        self.assertEqual(t.reason, stats.TOO_FEW)
        self.assertEqual(stats.pooled_trend([(range(5), [1] * 5)]).reason, "no variation")


def within_draw_p(strata):
    """Two-sided p of the sum over draws of mean(a) - mean(b), listing every combination of
    splits within each draw (independent of the function under test)."""
    per = []
    for a, b in strata:
        pooled = list(a) + list(b)
        ds = []
        for idx in itertools.combinations(range(len(pooled)), len(a)):
            x = [pooled[i] for i in idx]
            y = [pooled[i] for i in range(len(pooled)) if i not in idx]
            ds.append(sum(x) / len(x) - sum(y) / len(y))
        per.append(ds)
    obs = sum(sum(a) / len(a) - sum(b) / len(b) for a, b in strata)
    totals = [sum(c) for c in itertools.product(*per)]
    ge = sum(t >= obs - 1e-12 for t in totals) / len(totals)
    le = sum(t <= obs + 1e-12 for t in totals) / len(totals)
    return min(1.0, 2 * min(ge, le))


class ByDrawTest(unittest.TestCase):
    def test_one_run_a_draw_is_the_sign_flip_test(self):
        # the GA higher in each of 5 draws: 2 of the 2^5 sign patterns are as extreme
        ga = {d: [10.0 + d] for d in range(5)}
        other = {d: [5.0 + 2 * d] for d in range(5)}
        (c,) = stats.compare_by_draw("ga", {"ga": ga, "x": other})
        self.assertAlmostEqual(c.p_perm, 2 / 32)
        self.assertEqual((c.n_ref, c.n_other), (5, 5))
        self.assertAlmostEqual(c.diff, sum(5.0 - d for d in range(5)) / 5)

    def test_two_runs_a_draw_against_enumeration_and_holm_over_the_baselines(self):
        rng = random.Random(7)
        ga = {d: [rng.uniform(0, 10) + 3, rng.uniform(0, 10) + 3] for d in range(4)}
        xs = {d: [rng.uniform(0, 10), rng.uniform(0, 10)] for d in range(4)}
        ys = {d: [rng.uniform(0, 10) + 3, rng.uniform(0, 10) + 3] for d in range(4)}
        cx, cy = stats.compare_by_draw("ga", {"ga": ga, "x": xs, "y": ys})
        self.assertAlmostEqual(cx.p_perm, within_draw_p([(ga[d], xs[d]) for d in range(4)]))
        self.assertAlmostEqual(cy.p_perm, within_draw_p([(ga[d], ys[d]) for d in range(4)]))
        self.assertEqual([cx.p_holm, cy.p_holm], stats.holm([cx.p_perm, cy.p_perm]))

    def test_permuting_within_draws_sees_what_pooling_hides(self):
        # draws differ a lot, the GA is 1 higher within each: pooled the test sees nothing
        ga = {d: [100.0 * d + 1, 100.0 * d + 1.5] for d in range(5)}
        other = {d: [100.0 * d, 100.0 * d + 0.5] for d in range(5)}
        (c,) = stats.compare_by_draw("ga", {"ga": ga, "x": other})
        pooled, _ = stats.permutation_p(sum(ga.values(), []), sum(other.values(), []))
        self.assertLess(c.p_perm, 0.05)
        self.assertGreater(pooled, 0.5)

    def test_draws_without_both_sides_are_left_out_and_too_few_runs_are_not_tested(self):
        ga = {1: [1.0, 2.0], 2: [3.0], 3: [9.0, 9.0]}
        other = {1: [0.0, 1.0], 2: []}
        (c,) = stats.compare_by_draw("ga", {"ga": ga, "x": other})
        self.assertEqual(c.reason, stats.TOO_FEW)  # draw 1 alone: 2 runs a side
        self.assertEqual((c.n_ref, c.n_other), (2, 2))
        self.assertEqual(stats.compare_by_draw("ga", {"x": other}), [])
        versions = {"ga": "a", "x": "b"}
        other = {1: [0.0, 1.0], 3: [1.0, 1.0]}
        (c,) = stats.compare_by_draw("ga", {"ga": ga, "x": other}, versions)
        self.assertEqual(c.reason, stats.VERSIONS_DIFFER)


class FailedShareTest(unittest.TestCase):
    def test_wilson_interval_against_the_formula(self):
        z = 1.959963984540054
        for k, n in ((2, 10), (0, 12), (12, 12), (7, 40)):
            p = k / n
            centre = (p + z * z / (2 * n)) / (1 + z * z / n)
            half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
            s = stats.share(k, n)
            with self.subTest(k=k, n=n):
                self.assertAlmostEqual(s.lo, max(0.0, centre - half))
                self.assertAlmostEqual(s.hi, min(1.0, centre + half))
                self.assertAlmostEqual(s.share, p)

    def test_no_attempts_and_impossible_counts(self):
        self.assertEqual(stats.share(0, 0), stats.Share(0, 0))
        self.assertIsNone(stats.share(0, 0).share)
        with self.assertRaises(ValueError):
            stats.share(3, 2)


class FailuresByAlgorithmTest(unittest.TestCase):
    def test_every_failure_in_one_algorithm_by_hand(self):
        # 3 failures among 6 attempts: 20 equally likely placements, 2 as lopsided
        attempts = [("ga", True)] * 3 + [("pd-bw", False)] * 3
        t = stats.failures_by_algorithm(attempts)
        self.assertAlmostEqual(t.p, 2 / 20)
        self.assertAlmostEqual(t.chi2, 6.0)  # (1.5^2 / 1.5) * 4
        self.assertEqual(t.failed["ga"], stats.share(3, 3))
        self.assertFalse(t.sig)

    def test_a_lopsided_table_is_significant_and_an_even_one_is_not(self):
        lopsided = [("ga", i < 8) for i in range(10)] + [(a, i == 0) for a in ("x", "y")
                                                          for i in range(10)]  # fmt: skip
        even = [(a, i < 2) for a in ("ga", "x", "y") for i in range(10)]
        self.assertTrue(stats.failures_by_algorithm(lopsided).sig)
        t = stats.failures_by_algorithm(even)
        self.assertAlmostEqual(t.chi2, 0.0)
        self.assertAlmostEqual(t.p, 1.0)

    def test_untested_cases(self):
        self.assertEqual(stats.failures_by_algorithm([("ga", True), ("ga", False)]).reason,
                         "fewer than two algorithms")  # fmt: skip
        t = stats.failures_by_algorithm([("ga", False), ("x", False)])
        self.assertEqual(t.reason, "no attempt failed")
        self.assertFalse(t.sig)
        self.assertEqual(stats.failures_by_algorithm([("ga", True), ("x", True)]).reason,
                         "every attempt failed")  # fmt: skip


class CpuLimitTest(unittest.TestCase):
    def test_the_largest_count_that_played_clean_sets_the_limit(self):
        runs = [(3, True, 40.0), (5, True, 61.0), (5, True, 70.5), (8, False, 90.0),
                (8, True, 85.0), (10, False, 97.0)]  # fmt: skip
        lim = stats.cpu_limit(runs)
        self.assertEqual(lim, stats.CpuLimit(5, 70.5))
        self.assertTrue(lim.above(70.6))
        self.assertFalse(lim.above(70.5))
        self.assertFalse(lim.above(None))

    def test_no_clean_count_or_no_cpu_record_gives_no_limit(self):
        self.assertEqual(stats.cpu_limit([(5, False, 80.0)]), stats.CpuLimit(None, None))
        lim = stats.cpu_limit([(5, True, None)])
        self.assertEqual(lim, stats.CpuLimit(5, None))
        self.assertFalse(lim.above(99.0))


if __name__ == "__main__":
    unittest.main()
