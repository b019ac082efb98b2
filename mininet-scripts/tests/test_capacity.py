#!/usr/bin/python3
"""Unit tests of mpqoe.capacity on small networks whose capacities are worked out by hand.

cd mininet-scripts && /usr/bin/python3 -m unittest tests.test_capacity
"""

import unittest

from mpqoe import capacity

# A diamond toward the server on S: two client switches C1, C2 reach S over A (6) or B (4)
# and A-B (1) joins the middle:
#   C1 -5- A -6- S      C1-A 5, C2-A 2, C2-B 8, A-B 1, A-S 6, B-S 4
#   C2 -2- A, C2 -8- B -4- S
LINKS = {
    frozenset(p): c
    for p, c in (
        (("C1", "A"), 5.0),
        (("C2", "A"), 2.0),
        (("C2", "B"), 8.0),
        (("A", "B"), 1.0),
        (("A", "S"), 6.0),
        (("B", "S"), 4.0),
    )
}


class PathCapacity(unittest.TestCase):
    def test_paths_sharing_a_link_share_its_capacity(self):
        # both over A-S (6): C1's path alone is held to 5 by C1-A, C2's to 2 by C2-A; together
        # 6, not 7
        self.assertAlmostEqual(capacity.path_capacity(LINKS, [[["C1", "A", "S"]]]), 5.0)
        self.assertAlmostEqual(
            capacity.path_capacity(LINKS, [[["C1", "A", "S"]], [["C2", "A", "S"]]]), 6.0
        )

    def test_disjoint_paths_add_up(self):
        self.assertAlmostEqual(
            capacity.path_capacity(LINKS, [[["C1", "A", "S"]], [["C2", "B", "S"]]]), 9.0
        )

    def test_the_same_path_twice_carries_no_more(self):
        path = ["C2", "B", "S"]
        self.assertAlmostEqual(capacity.path_capacity(LINKS, [[path, path]]), 4.0)

    def test_a_link_crossed_in_both_directions_carries_its_capacity_each_way(self):
        # C1 -> A -> B -> S and C2 -> B -> A -> S cross A-B in opposite directions: each gets 1
        self.assertAlmostEqual(
            capacity.path_capacity(LINKS, [[["C1", "A", "B", "S"]], [["C2", "B", "A", "S"]]]), 2.0
        )

    def test_a_client_receives_at_most_its_demand(self):
        # C1 over A (5) and C2 over B (4): 9; wanting at most 3 each, 6.
        # C1 over A, C2 over both of its sides: S-A 6 is shared by C1 (at most 5) and C2's A
        # side (at most 2), S-B gives C2 4 more: 10. Wanting 3 each: 6. Wanting 4.5 each: C2
        # takes 4 over B and 0.5 over A, C1 4.5 over A (5 of S-A's 6): 9.
        both = [[["C1", "A", "S"]], [["C2", "B", "S"]]]
        self.assertAlmostEqual(capacity.path_capacity(LINKS, both, demand=3.0), 6.0)
        self.assertAlmostEqual(capacity.path_capacity(LINKS, both), 9.0)
        shared = [[["C1", "A", "S"]], [["C2", "A", "S"], ["C2", "B", "S"]]]
        self.assertAlmostEqual(capacity.path_capacity(LINKS, shared), 10.0)
        self.assertAlmostEqual(capacity.path_capacity(LINKS, shared, demand=3.0), 6.0)
        self.assertAlmostEqual(capacity.path_capacity(LINKS, shared, demand=4.5), 9.0)

    def test_no_path_carries_nothing_and_a_missing_link_is_an_error(self):
        self.assertEqual(capacity.path_capacity(LINKS, []), 0.0)
        self.assertEqual(capacity.path_capacity(LINKS, [[["S"]], []]), 0.0)
        with self.assertRaisesRegex(ValueError, "path C1>S: no link C1-S"):
            capacity.path_capacity(LINKS, [[["C1", "S"]]])
        with self.assertRaisesRegex(ValueError, "path C1>S: no positive capacity on C1-S"):
            capacity.path_capacity(LINKS | {frozenset(("C1", "S")): 0.0}, [[["C1", "S"]]])


class CutCapacity(unittest.TestCase):
    def test_the_maximum_flow_to_the_clients(self):
        # into S: A-S 6 and B-S 4, 10 in all; out to C1 and C2: C1-A 5, C2-A 2, C2-B 8 (15):
        # S-A carries 6 (5 to C1, 1 to C2), S-B 4 to C2: 10
        self.assertAlmostEqual(capacity.cut_capacity(LINKS, "S", ["C1", "C2"]), 10.0)
        # to C1 alone: S-A 6 and S-B-A 1 reach A, but C1-A holds it to 5
        self.assertAlmostEqual(capacity.cut_capacity(LINKS, "S", ["C1"]), 5.0)
        # to C2 alone: C2-A 2 + C2-B 8, fed by S-A 6 and S-B 4: A gives 2 and B 4 (+1 from A)
        self.assertAlmostEqual(capacity.cut_capacity(LINKS, "S", ["C2"]), 7.0)

    def test_the_paths_never_carry_more_than_the_cut(self):
        paths = [["C1", "A", "S"], ["C2", "B", "S"], ["C2", "A", "S"], ["C1", "A", "B", "S"]]
        self.assertLessEqual(
            capacity.path_capacity(LINKS, [paths]), capacity.cut_capacity(LINKS, "S", ["C1", "C2"])
        )

    def test_unknown_switches_are_an_error(self):
        with self.assertRaisesRegex(ValueError, "switch X has no link"):
            capacity.cut_capacity(LINKS, "S", ["X"])
        with self.assertRaisesRegex(ValueError, "the server's and a client's"):
            capacity.cut_capacity(LINKS, "S", ["S"])


if __name__ == "__main__":
    unittest.main()
