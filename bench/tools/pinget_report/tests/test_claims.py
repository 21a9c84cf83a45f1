"""The one verdict vocabulary, and the claims judged from paired comparisons
and rows."""
import unittest

from pinget_report import claims


def comparison(a, b, size, ratio, fork, a_batch=1, b_batch=1, suite="jmh", group="main"):
    ns_a = [100.0] * 12
    return {"suite": suite, "group": group, "a": a, "a_batch": a_batch, "b": b,
            "b_batch": b_batch, "value_size": size, "fork": fork, "ns_a": ns_a,
            "ns_b": [100.0 * ratio] * 12, "cpu_a": ns_a, "cpu_b": [100.0 * ratio] * 12,
            "a_first": [True, False] * 6}


def forks(a, b, size, ratios, **k):
    return [comparison(a, b, size, r, f, **k) for f, r in enumerate(ratios)]


class VerdictTest(unittest.TestCase):
    def test_at_least(self):
        c = {"at_least": 8}
        self.assertEqual(claims.judge_interval(c, 9, 8.5, 9.5), claims.MET)
        self.assertEqual(claims.judge_interval(c, 8.1, 7.5, 9.5), claims.WITHIN)
        self.assertEqual(claims.judge_interval(c, 7, 6.5, 7.5), claims.NOT_MET)
        self.assertEqual(claims.judge_interval(c, None, None, None), claims.NOT_MEASURED)

    def test_at_most_and_equal(self):
        self.assertEqual(claims.judge_interval({"at_most": 1.1}, 1.0, 0.95, 1.05), claims.MET)
        self.assertEqual(claims.judge_interval({"at_most": 1.1}, 1.2, 1.15, 1.25),
                         claims.NOT_MET)
        self.assertEqual(claims.judge_interval({"equal": 1}, 1.01, 0.99, 1.03), claims.MET)
        self.assertEqual(claims.judge_interval({"equal": 1}, 1.05, 1.02, 1.08), claims.NOT_MET)


class EvaluateTest(unittest.TestCase):
    def results(self, comparisons, rows=()):
        return claims.evaluate(list(rows), comparisons)

    def find(self, results, text, size):
        return next(r for r in results if r["text"].startswith(text) and r["size"] == size)

    def test_paired_claims_read_the_forks(self):
        cs = forks("pinned_view", "rocksdbjni_get", 65536, [9.0 + 0.1 * i for i in range(11)])
        cs += forks("pinned_view", "pinned_view_twin", 128, [0.99 + 0.002 * i for i in range(11)])
        out = self.results(cs)
        r = self.find(out, "`pinned_view` speed / `rocksdbjni_get` ≥ 8", "64 KiB")
        self.assertEqual((r["verdict"], r["low"], r["high"]), (claims.MET, 9.0, 10.0))
        self.assertEqual(r["pairs"], 11 * 12)
        r = self.find(out, "`pinned_view` speed / `pinned_view_twin` = 1", "128 B")
        self.assertEqual(r["verdict"], claims.MET)
        # 9.0 to 10.0 around 9.5: a half-width of 5.3% of the ratio, within 10%.
        r = self.find(out, "precision: `pinned_view` / `rocksdbjni_get`", "64 KiB")
        self.assertEqual(r["verdict"], claims.MET)
        self.assertAlmostEqual(r["value"], 0.5 / 9.5)
        # The twin's 0.99 to 1.01: 1.0%, within 3%.
        r = self.find(out, "precision: `pinned_view` / `pinned_view_twin`", "128 B")
        self.assertEqual(r["verdict"], claims.MET)
        wide = forks("pinned_view", "rocksdbjni_get", 128, [1.0 + 0.03 * i for i in range(11)])
        r = self.find(self.results(wide), "precision: `pinned_view` / `rocksdbjni_get`", "128 B")
        self.assertEqual(r["verdict"], claims.NOT_MET)

    def test_named_sizes_that_did_not_run_are_not_measured(self):
        out = self.results([])
        r = self.find(out, "`pinned_view` speed / `rocksdbjni_get` ≥ 8", "64 KiB")
        self.assertEqual(r["verdict"], claims.NOT_MEASURED)
        # Claims over every size measured name no size when nothing ran.
        self.assertFalse([r for r in out if r["text"].startswith("`pinned_view` speed / "
                                                                  "`buffer_copy`")])

    def test_a_time_claim_inverts_the_ratio(self):
        cs = forks("pinned_view", "native_pinned_loop", 128, [1 / 1.08] * 11)
        r = self.find(self.results(cs), "`pinned_view` time / `native_pinned_loop` ≤ 1.1",
                      "128 B")
        self.assertAlmostEqual(r["value"], 1.08)
        self.assertEqual(r["verdict"], claims.MET)

    def test_ffm_claims_read_the_ffm_suite(self):
        cs = forks("ffm_pinned_view", "rocksdbjni_get", 26, [1.3] * 11, group="ffm")
        r = self.find(self.results(cs), "FFM suite: `ffm_pinned_view` speed / `rocksdbjni_get`",
                      "hot key (26 B)")
        self.assertEqual(r["verdict"], claims.NOT_MET)

    def test_row_claims_of_a_key_count_read_that_count(self):
        def row(strategy, size, ops, keys, err=None, copied=0.0, alloc=0.0):
            return {"suite": "jmh", "group": "main", "strategy": strategy, "value_size": size,
                    "residency": "block_cache", "batch": 1, "keys": keys, "ops_per_s": ops,
                    "ops_per_s_error": ops * 0.01 if err is None else err,
                    "bytes_copied_per_op": copied, "alloc_bytes_per_op": alloc}
        primary = [row("cursor@stream", 128, 3e6, 1000, alloc=0.2),
                   row("rocksdbjni_iterator@stream", 128, 1e6, 1000)]
        every = primary + [row("cursor@stream", 128, 2e6, 100000),
                           row("rocksdbjni_iterator@stream", 128, 1e6, 100000)]
        out = claims.evaluate(primary, [], None, every)
        r = self.find(out, "jmh `cursor@stream` speed / jmh `rocksdbjni_iterator@stream` ≥ 2.5"
                           " (1,000 keys)", "128 B")
        self.assertAlmostEqual(r["value"], 3.0)
        self.assertEqual(r["verdict"], claims.MET)
        r = self.find(out, "jmh `cursor@stream` speed / jmh `rocksdbjni_iterator@stream` ≥ 2.5"
                           " (100,000 keys)", "128 B")
        self.assertAlmostEqual(r["value"], 2.0)
        self.assertEqual(r["verdict"], claims.NOT_MET)
        r = self.find(out, "`cursor@stream`, `cursor@range`: alloc_bytes_per_op < 1", "128 B")
        self.assertEqual(r["verdict"], claims.MET)

    def test_the_ffm_cursor_allocation_is_judged_in_the_ffm_suite(self):
        def row(strategy, size, alloc):
            return {"suite": "jmh", "group": "ffm", "strategy": strategy, "value_size": size,
                    "residency": "block_cache", "batch": 1, "keys": 1000, "ops_per_s": 1e6,
                    "ops_per_s_error": 1e4, "bytes_copied_per_op": 0.0,
                    "alloc_bytes_per_op": alloc}
        out = claims.evaluate([row("ffm_cursor@stream", 128, 0.01),
                               row("ffm_cursor@range", 128, 0.02),
                               row("ffm_cursor@stream", 4096, 0.01),
                               row("ffm_cursor@range", 4096, 192.0)], [])
        text = "FFM suite: `ffm_cursor@stream`, `ffm_cursor@range`: alloc_bytes_per_op < 1"
        self.assertEqual(self.find(out, text, "128 B")["verdict"], claims.MET)
        r = self.find(out, text, "4 KiB")
        self.assertEqual(r["verdict"], claims.NOT_MET)
        self.assertEqual(r["failing"], ["ffm_cursor@range"])

    def test_a_claim_against_several_rows_takes_the_fastest(self):
        def row(strategy, ops, alloc, residency="block_cache"):
            return {"suite": "jmh", "group": "main", "strategy": strategy, "value_size": 8,
                    "residency": residency, "batch": 1, "keys": 1000, "ops_per_s": ops,
                    "ops_per_s_error": ops * 0.01, "alloc_bytes_per_op": alloc,
                    "bytes_copied_per_op": 0.0}
        rows = [row("long_decode_on_read", 2.8e6, 0.1), row("long_rocksdbjni_get_wrap", 2e6, 24),
                row("long_rocksdbjni_get_direct", 2.5e6, 0.1)]
        r = self.find(self.results([], rows), "jmh `long_decode_on_read` speed / the fastest",
                      "8 B")
        self.assertAlmostEqual(r["value"], 2.8 / 2.5)
        self.assertEqual((r["peer"], r["verdict"]), ("long_rocksdbjni_get_direct", claims.NOT_MET))
        r = self.find(self.results([], rows), "`long_decode_on_read`, "
                      "`rocksjava_long_decode_on_read`: alloc_bytes_per_op < 0.5", "8 B")
        self.assertEqual(r["verdict"], claims.MET)


if __name__ == "__main__":
    unittest.main()
