"""Unit tests of the GA paper's authors' QoE metric (python/mpqoe/framework_qoe.py) on sample
logs built by hand."""

import unittest

from mpqoe.framework_qoe import WINDOW, framework_qoe


def log(buffers, qualities=None, bitrates=None):
    """(t, buffer, quality, bitrate) samples 1 s apart: quality 0 and 1500 kbit/s unless given."""
    n = len(buffers)
    qualities = qualities if qualities is not None else [0] * n
    bitrates = bitrates if bitrates is not None else [1500] * n
    rows = zip(buffers, qualities, bitrates, strict=True)
    return [(i + 1.0, b, q, r) for i, (b, q, r) in enumerate(rows)]


def episodes(buffers):
    q = framework_qoe(log(buffers))
    return q.underruns, q.underrun_s


class Switches(unittest.TestCase):
    def test_sum_of_index_steps_from_the_first_sample(self):
        q = framework_qoe(log([5] * 6, qualities=[2, 2, 0, 3, 3, 1]))
        self.assertEqual(q.switches, 2 + 3 + 2)

    def test_over_every_sample_not_only_the_window(self):
        qualities = [0] * 4 + [1, 0, 1]  # the steps lie after the window of 4
        self.assertEqual(framework_qoe(log([5] * 7, qualities), window=4).switches, 3)
        self.assertEqual(framework_qoe(log([5] * 7, qualities), window=4).window, 4)


class Underruns(unittest.TestCase):
    def test_the_open_interval_0_1(self):
        self.assertEqual(episodes([5, 0.5, 5]), (1, 1))
        self.assertEqual(episodes([5, 1.0, 5]), (0, 0))  # 1.0 is outside
        self.assertEqual(episodes([5, 0.0, 5]), (0, 0))  # 0.0 is outside
        self.assertEqual(episodes([5, 0.999, 0.001, 5]), (1, 2))

    def test_an_episode_of_n_samples_lasts_n(self):
        self.assertEqual(episodes([3, 0.4, 0.3, 0.2, 2]), (1, 3))
        self.assertEqual(episodes([0.5, 5, 0.5, 0.5, 5, 0.5, 5]), (3, 4))

    def test_an_episode_open_at_the_window_end_lasts_n_minus_1(self):
        self.assertEqual(episodes([5, 0.5, 0.5, 0.5]), (1, 2))
        q = framework_qoe(log([5, 0.5, 0.5, 0.5, 5, 5]), window=4)
        self.assertEqual((q.underruns, q.underrun_s), (1, 2))  # the 5 after it is not seen

    def test_a_zero_sample_ends_an_episode(self):
        # a stall with the buffer at 0: only its first sample counts, and the 0 ends it
        self.assertEqual(episodes([5, 0.5, 0, 0, 0, 0.5, 5]), (2, 2))

    def test_a_drop_straight_to_zero_counts_nothing(self):
        self.assertEqual(episodes([5, 1.2, 0, 0, 0, 0, 4, 5]), (0, 0))


class Window(unittest.TestCase):
    def test_bitrate_is_the_mean_over_the_window(self):
        rates = [1500, 2000, 2500, 2600, 1500]
        q = framework_qoe(log([5] * 5, bitrates=rates), window=4)
        self.assertEqual(q.bitrate_kbps, (1500 + 2000 + 2500 + 2600) / 4)
        # fewer samples than the window: all of them, divided by their number (not by 596)
        q = framework_qoe(log([5] * 5, bitrates=rates))
        self.assertEqual((q.bitrate_kbps, q.window), (sum(rates) / 5, 5))

    def test_the_window_cuts_underruns_at_596_samples(self):
        buffers = [5] * (WINDOW - 1) + [0.5, 5, 0.5, 5]
        q = framework_qoe(log(buffers))
        self.assertEqual((q.underruns, q.underrun_s, q.window), (1, 0, WINDOW))


class Unknown(unittest.TestCase):
    def test_samples_before_quality_and_bitrate_are_known_are_skipped(self):
        samples = [
            (1.0, None, None, None),
            (2.0, None, 3, None),  # quality known, bitrate not yet
            (3.0, 0.5, None, 2600),  # in (0, 1), but skipped
            (4.0, None, 1, 2000),  # the first known sample: an unknown buffer counts as 0
            (5.0, 0.5, 2, 2500),
            (6.0, 4.0, 2, 2500),
        ]
        q = framework_qoe(samples)
        self.assertEqual((q.window, q.switches), (3, 1))  # from index 1, not 3
        self.assertEqual((q.underruns, q.underrun_s), (1, 1))
        self.assertEqual(q.bitrate_kbps, 7000 / 3)

    def test_nothing_known(self):
        self.assertIsNone(framework_qoe([(1.0, 2.0, None, None), (2.0, 3.0, 1, None)]))
        self.assertIsNone(framework_qoe([]))


class BadInput(unittest.TestCase):
    def bad(self, samples, words):
        with self.assertRaises(ValueError) as e:
            framework_qoe(samples)
        self.assertIn(words, str(e.exception))

    def test_a_missing_field(self):
        self.bad([(1.0, 2.0, 1)], "want (t, buffer, quality, bitrate_kbps)")

    def test_non_numeric_fields(self):
        self.bad([(1.0, "2.0", 1, 1500)], "buffer '2.0' is not a finite number")
        self.bad([(1.0, 2.0, True, 1500)], "quality True is not a finite number")
        self.bad([(1.0, 2.0, 1, float("nan"))], "bitrate nan is not a finite number")
        self.bad([("1", 2.0, 1, 1500)], "time '1' is not a finite number")

    def test_values_out_of_their_domain(self):
        self.bad([(1.0, -0.5, 1, 1500)], "buffer -0.5 is negative")
        self.bad([(1.0, 2.0, 1.5, 1500)], "quality 1.5 is not an integer")
        self.bad([(1.0, 2.0, 1, 1500), (2.0, 2.0, None, 1500)], "quality unknown after")
        self.bad([(2.0, 2.0, 1, 1500), (1.0, 2.0, 1, 1500)], "earlier than the one before")


if __name__ == "__main__":
    unittest.main()
