"""PCDC's decisions (policy.py) on hand-computed cases."""

import unittest

from mpqoe.pcdc import policy
from mpqoe.pcdc.policy import L1, L2, L3, PairStats

KIB = 1024


class ImpactFactorTest(unittest.TestCase):
    def test_equation_1_on_bytes(self):
        # 10 MB with every subflow, 6 MB without subflow i: i carried 40 % of the throughput
        self.assertAlmostEqual(policy.impact_factor(10_000_000, 6_000_000), 0.4)
        # removing i made the connection faster: a negative impact factor (standby)
        self.assertAlmostEqual(policy.impact_factor(8_000_000, 10_000_000), -0.25)
        # nothing left without it: the only useful subflow
        self.assertEqual(policy.impact_factor(5, 0), 1.0)

    def test_equation_1_on_series(self):
        # TP(t) = 10, 10, 20 and TP_i(t) = 5, 5, 5: 1 - 15 / 40
        self.assertAlmostEqual(policy.impact_factor_series([10, 10, 20], [5, 5, 5]), 0.625)

    def test_undefined(self):
        with self.assertRaises(ValueError):
            policy.impact_factor(0, 5)
        with self.assertRaises(ValueError):
            policy.impact_factor(5, -1)
        with self.assertRaises(ValueError):
            policy.impact_factor_series([1, 2], [1])
        with self.assertRaises(ValueError):
            policy.impact_factor_series([], [])


class ClassTest(unittest.TestCase):
    def test_size_classes_at_their_bounds(self):
        self.assertEqual(policy.size_class(0), L1)
        self.assertEqual(policy.size_class(256 * KIB), L1)
        self.assertEqual(policy.size_class(512 * KIB), L1)
        self.assertEqual(policy.size_class(512 * KIB + 1), L2)
        self.assertEqual(policy.size_class(768 * KIB), L2)
        self.assertEqual(policy.size_class(1024 * KIB), L2)
        self.assertEqual(policy.size_class(1024 * KIB + 1), L3)
        self.assertEqual(policy.size_class(10 * 1024 * KIB), L3)
        with self.assertRaises(ValueError):
            policy.size_class(-1)

    def test_online_class_follows_the_bytes(self):
        self.assertEqual(policy.online_class(0), L1)
        self.assertEqual(policy.online_class(512 * KIB), L1)
        self.assertEqual(policy.online_class(600 * KIB), L2)
        self.assertEqual(policy.online_class(2048 * KIB), L3)

    def test_hint_sets_the_class_and_bytes_still_raise_it(self):
        self.assertEqual(policy.online_class(0, hint=10 * 1024 * KIB), L3)
        self.assertEqual(policy.online_class(0, hint=768 * KIB), L2)
        # a hint below what was carried does not lower the class
        self.assertEqual(policy.online_class(2048 * KIB, hint=100), L3)
        self.assertEqual(policy.online_class(700 * KIB, hint=100 * KIB), L2)


# pairs: a..e with (Omega, RTT ms)
A, B, C, D, E = ("l1", "r1"), ("l1", "r2"), ("l2", "r1"), ("l2", "r2"), ("l3", "r1")
TABLE = {
    A: PairStats(0.10, 40.0),
    B: PairStats(0.57, 24.3),
    C: PairStats(-0.06, 10.0),  # fastest but harmful: standby
    D: PairStats(0.04, 40.8),
    E: PairStats(0.0, 5.0),  # no effect: standby
}


class OptionalSetTest(unittest.TestCase):
    def test_positive_pairs_by_increasing_rtt(self):
        p, standby = policy.optional_set(TABLE)
        self.assertEqual(p, [B, A, D])
        self.assertEqual(standby, [C, E])

    def test_equal_rtts_are_ordered_by_pair(self):
        t = {B: PairStats(0.2, 10.0), A: PairStats(0.1, 10.0)}
        self.assertEqual(policy.optional_set(t)[0], [A, B])

    def test_equation_2(self):
        p = [B, A, D]
        self.assertEqual(policy.select(p, L1), [B])
        self.assertEqual(policy.select(p, L2), [B, A])
        self.assertEqual(policy.select(p, L3), [B, A, D])
        self.assertEqual(policy.select([], L3), [])
        with self.assertRaises(ValueError):
            policy.select(p, 4)

    def test_target_only_over_available_pairs(self):
        everything = set(TABLE)
        self.assertEqual(policy.pcdc_target(TABLE, L1, everything), [B])
        # B not reachable yet (its remote address not announced): P[0] is A
        self.assertEqual(policy.pcdc_target(TABLE, L1, everything - {B}), [A])
        self.assertEqual(policy.pcdc_target(TABLE, L2, everything - {B}), [A, D])
        # pairs without a measurement are standby
        self.assertEqual(policy.pcdc_target(TABLE, L3, {("x", "y"), A}), [A])
        self.assertEqual(policy.fullmesh_target({D, A, C}), [A, C, D])

    def test_before_the_addresses_are_known_only_what_stays(self):
        everything = set(TABLE)
        # B not reachable yet: of equation 2 over the whole P ([B, A, D]) only what is
        # available, never A or D in B's place
        self.assertEqual(policy.pcdc_target(TABLE, L1, everything - {B}, settled=False), [])
        self.assertEqual(policy.pcdc_target(TABLE, L2, everything - {B}, settled=False), [A])
        self.assertEqual(policy.pcdc_target(TABLE, L3, everything - {B}, settled=False), [A, D])
        for cls in (L1, L2, L3):  # with every pair available the wait changes nothing
            self.assertEqual(policy.pcdc_target(TABLE, cls, everything, settled=False),
                             policy.pcdc_target(TABLE, cls, everything))  # fmt: skip


class PlanTest(unittest.TestCase):
    def test_opens_what_is_missing(self):
        p = policy.plan([B, A, D], initial_pair=B, opened={}, pending={}, failed=set())
        self.assertEqual(p.create, (A, D))
        self.assertEqual(p.destroy, ())

    def test_nothing_twice(self):
        k = ("l1", 40000, "r1", 80)
        p = policy.plan([B, A, D], B, opened={k: A}, pending={D: 1.0}, failed=set())
        self.assertEqual(p, policy.Plan((), ()))
        p = policy.plan([B, A, D], B, opened={}, pending={}, failed={A, D})
        self.assertEqual(p.create, ())

    def test_closes_what_left_the_target_but_never_the_last(self):
        ka, kd = ("l1", 1, "r1", 80), ("l2", 2, "r2", 80)
        # A went standby: close it, the initial subflow B stays
        p = policy.plan([B, D], B, opened={ka: A, kd: D}, pending={}, failed=set())
        self.assertEqual(p.destroy, (ka,))
        # the initial subflow is gone and nothing we opened is in the target: keep one
        p = policy.plan([], None, opened={ka: A, kd: D}, pending={}, failed=set())
        self.assertEqual(p.destroy, (ka,))
        p = policy.plan([], None, opened={ka: A}, pending={}, failed=set())
        self.assertEqual(p.destroy, ())
        # a subflow someone else opened keeps the connection alive
        p = policy.plan([], None, opened={ka: A}, pending={}, failed=set(), others=1)
        self.assertEqual(p.destroy, (ka,))

    def test_held_pairs_are_neither_opened_nor_closed(self):
        ka = ("l1", 1, "r1", 80)
        p = policy.plan([B, A, D], B, opened={ka: A}, pending={}, failed=set(), hold=(A, D))
        self.assertEqual(p, policy.Plan((), (), (D,)))

    def test_initial_subflow_is_never_closed(self):
        # the application's first subflow is on standby pair C: PCDC adds P[0], keeps C
        p = policy.plan([B], C, opened={}, pending={}, failed=set())
        self.assertEqual(p, policy.Plan((B,), ()))


if __name__ == "__main__":
    unittest.main()
