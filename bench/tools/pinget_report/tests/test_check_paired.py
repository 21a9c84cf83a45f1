"""The self-test checks: shape fails a broken harness on any machine, timing
fails one that does not measure the known ratios."""
import unittest

import check_paired
from pinget_report import selftest


def fabricated(ratios, suite="native", spread=0.002):
    out = []
    for b, ratio in ratios.items():
        ns_a = [1000.0 * (1 + spread * ((i % 7) - 3)) for i in range(100)]
        ns_b = [1000.0 * ratio * (1 + spread * ((i % 5) - 2)) for i in range(100)]
        out.append({"suite": suite, "group": "main", "a": "once", "a_batch": 1, "b": b,
                    "b_batch": 1, "value_size": 0, "fork": 0, "ns_a": ns_a, "ns_b": ns_b,
                    "cpu_a": ns_a, "cpu_b": ns_b, "a_first": [i % 2 == 0 for i in range(100)]})
    return out


KNOWN = {"twice": 2.0, "five_fourths": 1.25, "once_twin": 1.0}


def failures(comparisons, timing):
    return selftest.check(comparisons, timing)[1]


class ShapeTest(unittest.TestCase):
    def test_known_ratios_pass(self):
        results, fails = selftest.check(fabricated(KNOWN))
        self.assertEqual((len(results), fails), (3, []))

    def test_wrong_ratios_do_not_fail_the_shape(self):
        # What a slow or busy machine does to the ratios is not a shape fault.
        for ratios in ({"twice": 0.5, "five_fourths": 1.25, "once_twin": 1.0},
                       {"twice": 2.0, "five_fourths": 1.25, "once_twin": 1.03}):
            self.assertEqual(failures(fabricated(ratios), timing=False), [])
        self.assertEqual(failures(fabricated(KNOWN, spread=0.1), timing=False), [])

    def test_a_missing_comparison_fails(self):
        fails = failures(fabricated({"twice": 2.0, "once_twin": 1.0}), timing=False)
        self.assertTrue(any("five_fourths" in f for f in fails))

    def test_a_foreign_comparison_fails(self):
        c = fabricated(KNOWN)
        c[0] = dict(c[0], b="thrice")
        self.assertTrue(any("not a self-test" in f for f in failures(c, timing=False)))

    def test_a_round_without_a_time_fails(self):
        for field, value in (("ns_b", 0.0), ("cpu_a", float("nan")), ("ns_a", -5.0)):
            c = fabricated(KNOWN)
            c[1][field] = list(c[1][field])
            c[1][field][17] = value
            fails = failures(c, timing=False)
            self.assertTrue(any(field in f and "positive time" in f for f in fails), field)

    def test_a_clock_with_missing_rounds_fails(self):
        c = fabricated(KNOWN)
        c[2]["cpu_b"] = c[2]["cpu_b"][:-1]
        self.assertTrue(any("99 cpu_b for 100 pairs" in f for f in failures(c, timing=False)))

    def test_pairs_in_one_order_fail(self):
        c = fabricated(KNOWN)
        c[0]["a_first"] = [True] * 100
        self.assertTrue(any("one order" in f for f in failures(c, timing=False)))

    def test_too_few_pairs_for_an_interval_fail(self):
        c = [dict(x, **{k: x[k][:3] for k in ("ns_a", "ns_b", "cpu_a", "cpu_b", "a_first")})
             for x in fabricated(KNOWN)]
        self.assertTrue(any("too few" in f for f in failures(c, timing=False)))


class TimingTest(unittest.TestCase):
    def test_known_ratios_pass(self):
        self.assertEqual(failures(fabricated(KNOWN), timing=True), [])

    def test_swapped_sides_fail(self):
        fails = failures(fabricated({"twice": 0.5, "five_fourths": 1.25, "once_twin": 1.0}),
                         timing=True)
        self.assertTrue(any("misses 2.0" in f for f in fails))

    def test_a_biased_twin_fails(self):
        fails = failures(fabricated({"twice": 2.0, "five_fourths": 1.25, "once_twin": 1.03}),
                         timing=True)
        self.assertTrue(any("once_twin" in f and "misses 1.0" in f for f in fails))

    def test_noise_too_wide_fails(self):
        fails = failures(fabricated(KNOWN, spread=0.1), timing=True)
        self.assertTrue(any("half-width" in f for f in fails))

    def test_an_unresolved_difference_fails(self):
        fails = failures(fabricated({"twice": 2.0, "five_fourths": 1.0, "once_twin": 1.0}),
                         timing=True)
        self.assertTrue(any("five_fourths" in f and "holds 1" in f for f in fails))

    def test_the_report_section_gives_each_verdict(self):
        lines = selftest.section(selftest.check(
            fabricated({"twice": 2.0, "five_fourths": 1.25, "once_twin": 1.03}), timing=True))
        rows = [line for line in lines if line.startswith("| native |")]
        self.assertEqual(len(rows), 3)
        self.assertIn("resolved", next(r for r in rows if "once:twice" in r))
        self.assertIn("misses 1.0", next(r for r in rows if "once:once_twin" in r))


class CommandTest(unittest.TestCase):
    def run_main(self, comparisons, *flags):
        # main reads files; hand it the comparisons through parse instead.
        original = check_paired.parse.paired_comparisons
        check_paired.parse.paired_comparisons = lambda path: comparisons
        try:
            return check_paired.main(list(flags) + ["selftest-native.json"])
        finally:
            check_paired.parse.paired_comparisons = original

    def test_exit_codes(self):
        slow = fabricated({"twice": 0.5, "five_fourths": 1.25, "once_twin": 1.0})
        self.assertEqual(self.run_main(fabricated(KNOWN)), 0)
        self.assertEqual(self.run_main(slow), 0)
        self.assertEqual(self.run_main(slow, "--timing"), 1)
        self.assertEqual(self.run_main([]), 1)


if __name__ == "__main__":
    unittest.main()
