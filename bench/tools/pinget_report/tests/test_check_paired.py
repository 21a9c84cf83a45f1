"""check_paired fails a harness that does not measure the known ratios."""
import unittest

import check_paired


def selftest(ratios, suite="native", spread=0.002):
    out = []
    for b, ratio in ratios.items():
        ns_a = [1000.0 * (1 + spread * ((i % 7) - 3)) for i in range(100)]
        ns_b = [1000.0 * ratio * (1 + spread * ((i % 5) - 2)) for i in range(100)]
        out.append({"suite": suite, "group": "main", "a": "once", "a_batch": 1, "b": b,
                    "b_batch": 1, "value_size": 0, "fork": 0, "ns_a": ns_a, "ns_b": ns_b,
                    "cpu_a": ns_a, "cpu_b": ns_b, "a_first": [i % 2 == 0 for i in range(100)]})
    return out


class CheckPairedTest(unittest.TestCase):
    def test_known_ratios_pass(self):
        checked, failures = check_paired.check(
            selftest({"twice": 2.0, "five_fourths": 1.25, "once_twin": 1.0}))
        self.assertEqual((checked, failures), (3, []))

    def test_swapped_sides_fail(self):
        _, failures = check_paired.check(
            selftest({"twice": 0.5, "five_fourths": 1.25, "once_twin": 1.0}))
        self.assertTrue(any("misses 2.0" in f for f in failures))

    def test_a_biased_twin_fails(self):
        _, failures = check_paired.check(
            selftest({"twice": 2.0, "five_fourths": 1.25, "once_twin": 1.03}))
        self.assertTrue(failures)

    def test_noise_too_wide_fails(self):
        _, failures = check_paired.check(
            selftest({"twice": 2.0, "five_fourths": 1.25, "once_twin": 1.0}, spread=0.1))
        self.assertTrue(any("half-width" in f for f in failures))

    def test_a_missing_comparison_fails(self):
        _, failures = check_paired.check(selftest({"twice": 2.0, "once_twin": 1.0}))
        self.assertTrue(any("five_fourths" in f for f in failures))


if __name__ == "__main__":
    unittest.main()
