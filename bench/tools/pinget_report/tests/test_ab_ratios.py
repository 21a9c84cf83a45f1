"""ab_ratios: a row is slower or faster only when every round says so."""
import unittest

import ab_ratios


def rounds(jar_over_host, spreads):
    """Rounds of (host, jar) rows: row "r" at jar/host ratio * (1 + spread)."""
    return [({"r": 1000.0}, {"r": 1000.0 * jar_over_host * (1 + s)}) for s in spreads]


class AbRatiosTest(unittest.TestCase):
    def verdict(self, pairs):
        (row,) = ab_ratios.ratios(pairs)
        return row

    def test_a_steady_cost_is_slower(self):
        key, host, ratio, lo, hi, verdict = self.verdict(rounds(0.9, [0.01, -0.01, 0.0, 0.005]))
        self.assertEqual((key, host, verdict), ("r", 1000.0, "slower"))
        self.assertAlmostEqual(ratio, 0.9, delta=0.01)
        self.assertLess(lo, ratio)
        self.assertLess(ratio, hi)
        self.assertLess(hi, 1.0)

    def test_a_steady_gain_is_faster(self):
        self.assertEqual(self.verdict(rounds(1.2, [0.02, -0.02, 0.01]))[5], "faster")

    def test_rounds_that_disagree_are_noise(self):
        self.assertEqual(self.verdict(rounds(1.0, [0.3, -0.3, 0.2, -0.25]))[5], "within noise")

    def test_rows_missing_from_a_round_are_left_out(self):
        pairs = rounds(1.0, [0.0, 0.01])
        pairs[0][1]["only_once"] = 5.0
        pairs[0][0]["only_once"] = 5.0
        self.assertEqual([r[0] for r in ab_ratios.ratios(pairs)], ["r"])


if __name__ == "__main__":
    unittest.main()
