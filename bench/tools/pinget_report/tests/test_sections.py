"""The console table: a time is shown only with an error a reader can use."""
import unittest

from pinget_report import sections, stats


def row(strategy, ns, error_share, size=4096, suite="jmh"):
    ops = 1e9 / ns
    return {"suite": suite, "strategy": strategy, "value_size": size, "residency": "block_cache",
            "batch": 1, "ns_per_op": ns, "ops_per_s": ops,
            "ops_per_s_error": None if error_share is None else ops * error_share,
            "copies_per_op": 0.0}


class ConsoleTableTest(unittest.TestCase):
    def test_a_time_within_ten_percent_is_shown_with_its_error(self):
        out = sections.console_table([row("pinned_view", 1500.0, 0.04)])
        self.assertIn("1,500 ± 4%", out[1])
        self.assertEqual(len(out), 2, "no footnote when nothing is hidden")

    def test_a_noisy_or_unknown_time_is_hidden_and_counted(self):
        out = sections.console_table([row("pinned_view", 1500.0, 0.25),
                                      row("rocksdbjni_get", 1800.0, None),
                                      row("buffer_copy", 1600.0, 0.10)])
        text = "\n".join(out)
        self.assertNotIn("1,500", text)
        self.assertNotIn("1,800", text)
        self.assertIn("1,600 ± 10%", text, "exactly 10% is shown")
        self.assertTrue(out[-1].startswith("— : 2 times not shown"), out[-1])
        # The copies of a hidden row are still shown.
        line = next(l for l in out if "pinned_view" in l)
        self.assertIn("0.00", line)

    def test_a_paired_side_within_ten_percent_replaces_a_noisy_row(self):
        # 11 JVMs of pinned_view at about 1,000 ns: [min, max] of the forks'
        # medians is the 99.9% interval, ±2% here.
        forks = [comparison("pinned_view", "rocksdbjni_get", 980.0 + 4 * i, 1200.0, fork=i)
                 for i in range(11)]
        sides = stats.side_times(forks)
        out = sections.console_table([row("pinned_view", 1500.0, 0.25)], sides)
        line = next(l for l in out if l.startswith("jmh    pinned_view "))
        self.assertIn("1,000 ± 2% p", line)
        self.assertNotIn("1,500", "\n".join(out))
        self.assertTrue(any(l.startswith("p : ") for l in out))
        # rocksdbjni_get has no JMH row here; its paired time is shown alone.
        line = next(l for l in out if l.startswith("jmh    rocksdbjni_get "))
        self.assertIn("1,200 ± 0% p", line)

    def test_a_noisy_paired_side_falls_back_to_a_good_row(self):
        # Two modes across JVMs: the interval over the forks is wide.
        forks = [comparison("pinned_view", "rocksdbjni_get", 1000.0,
                            1200.0 if i % 2 else 9000.0, fork=i) for i in range(11)]
        out = sections.console_table([row("rocksdbjni_get", 1800.0, 0.05)],
                                     stats.side_times(forks))
        line = next(l for l in out if l.startswith("jmh    rocksdbjni_get "))
        self.assertIn("1,800 ± 5%", line)
        self.assertNotIn(" p", line[len("jmh    rocksdbjni_get "):])


class SideTimesTest(unittest.TestCase):
    def test_java_units_are_jvms_and_cpp_units_are_rounds(self):
        java = [comparison("pinned_view", "rocksdbjni_get", 1000.0 + i, 2000.0, fork=i)
                for i in range(11)]
        cpp = [dict(comparison("pinned_view", "native_pinned", 900.0, 950.0, rounds=20),
                    suite="native")]
        sides = stats.side_times(java + cpp)
        j = sides[("jmh", "main", "pinned_view", 1, 4096)]
        self.assertEqual((j["unit"], j["n"], j["median"]), ("fork", 11, 1005.0))
        self.assertEqual((j["low"], j["high"]), (1000.0, 1010.0))
        c = sides[("native", "main", "native_pinned", 1, 4096)]
        self.assertEqual((c["unit"], c["n"], c["median"]), ("round", 20, 950.0))

    def test_too_few_units_give_no_interval(self):
        sides = stats.side_times([comparison("a", "b", 1.0, 2.0, rounds=5)])
        self.assertIsNone(sides[("jmh", "main", "a", 1, 4096)]["low"])


def comparison(a, b, cpu_a, cpu_b, fork=0, rounds=3, size=4096):
    return {"suite": "jmh", "group": "main", "a": a, "a_batch": 1, "b": b, "b_batch": 1,
            "value_size": size, "fork": fork, "cpu_a": [cpu_a] * rounds,
            "cpu_b": [cpu_b] * rounds}


if __name__ == "__main__":
    unittest.main()
