"""The console table: a time is shown only with an error a reader can use."""
import unittest

from pinget_report import sections


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


if __name__ == "__main__":
    unittest.main()
