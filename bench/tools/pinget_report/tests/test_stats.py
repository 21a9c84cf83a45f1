"""The paired statistics: the median's interval and the unit it is taken over."""
import random
import unittest

from pinget_report import stats


def comparison(ns_a, ns_b, fork=0):
    return {"ns_a": ns_a, "ns_b": ns_b, "cpu_a": ns_a, "cpu_b": ns_b,
            "a_first": [i % 2 == 0 for i in range(len(ns_a))], "fork": fork}


class MedianIntervalTest(unittest.TestCase):
    def test_too_few_values_give_no_interval(self):
        # At 99.9%, 10 values cannot: even their range covers the median with
        # probability 1 - 2 / 2**10 < 0.999.
        self.assertIsNone(stats.median_interval(range(10)))

    def test_eleven_values_give_their_range(self):
        lo, hi, coverage = stats.median_interval([5, 1, 9, 3, 7, 2, 8, 4, 6, 0, 10])
        self.assertEqual((lo, hi), (0, 10))
        self.assertGreaterEqual(coverage, 0.999)

    def test_order_statistics_of_a_hundred(self):
        lo, hi, coverage = stats.median_interval(range(100))
        # The 34th and 67th smallest: P(Binomial(100, 1/2) <= 33) < 0.0005.
        self.assertEqual((lo, hi), (33, 66))
        self.assertGreaterEqual(coverage, 0.999)
        self.assertLess(stats.median_interval(range(100), 0.99)[1], 66)

    def test_coverage_is_at_least_the_confidence(self):
        # Draws from a known distribution: the interval holds the true median
        # at least as often as promised (here at 90%, to be testable).
        rng = random.Random(1)
        hits = 0
        for _ in range(2000):
            xs = [rng.expovariate(1.0) for _ in range(25)]
            lo, hi, _ = stats.median_interval(xs, 0.9)
            hits += lo <= 0.6931 <= hi
        self.assertGreaterEqual(hits / 2000, 0.88)


class PairedTest(unittest.TestCase):
    def test_ratio_is_b_time_over_a_time(self):
        rng = random.Random(2)
        a = [1000 * rng.uniform(0.8, 1.2) for _ in range(60)]
        # A slow drift shared by both sides of a pair cancels out.
        b = [2 * x * rng.uniform(0.99, 1.01) for x in a]
        p = stats.paired([comparison(a, b)])
        self.assertEqual(p["unit"], "pair")
        self.assertLessEqual(p["low"], 2.0)
        self.assertGreaterEqual(p["high"], 2.0)
        self.assertLess(stats.half_width(p), 0.01)
        # Unpaired, the two sides' medians carry each side's 20% spread.
        self.assertGreater(p["unpaired_high"] - p["unpaired_low"], 0.1)
        inverted = stats.paired([comparison(a, b)], invert=True)
        self.assertAlmostEqual(inverted["median"], 0.5, delta=0.01)

    def test_forks_are_the_unit_when_there_are_several(self):
        # Each JVM has its own ratio (1 + its offset), its pairs agree on it
        # exactly: pooling pairs would give a point, the forks give the range.
        offsets = [-0.02, -0.01, 0.0, 0.01, 0.02, 0.015, -0.015, 0.005, -0.005, 0.0, 0.01]
        forks = [comparison([100.0] * 20, [100.0 * (1 + d)] * 20, f)
                 for f, d in enumerate(offsets)]
        p = stats.paired(forks)
        self.assertEqual(p["unit"], "fork")
        self.assertAlmostEqual(p["low"], 0.98)
        self.assertAlmostEqual(p["high"], 1.02)
        self.assertAlmostEqual(p["median"], 1.0)

    def test_other_clock_is_reported(self):
        c = comparison([100.0] * 20, [150.0] * 20)
        c["ns_a"] = [200.0] * 20  # a ran half the time on the wall clock
        p = stats.paired([c])
        self.assertAlmostEqual(p["median"], 1.5)
        self.assertAlmostEqual(p["other"]["median"], 0.75)
        self.assertAlmostEqual(p["on_cpu"], 0.75)


if __name__ == "__main__":
    unittest.main()
