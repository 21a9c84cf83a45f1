"""docs/strategies.md as check_counts and the report read it, and check_counts
against it: a measured row that disagrees fails; a table row that a run did
not measure is not checked."""
import copy
import os
import tempfile
import unittest

import check_counts
from pinget_report import strategies

HEADER = ("| binding | row | strategy | copies | allocations | allocation-free |\n"
          "|---|---|---|---|---|---|\n")


def row(suite, strategy, copies, residency="block_cache", allocs=0.0, alloc_bytes=0.0,
        size=4096):
    return {"suite": suite, "strategy": strategy, "value_size": size, "residency": residency,
            "batch": 1, "ops_per_s": 1e6, "ops_per_s_error": 1e4, "ns_per_op": 1000,
            "copies_per_op": copies, "bytes_copied_per_op": copies * size,
            "alloc_bytes_per_op": alloc_bytes if suite == "jmh" else None,
            "allocs_per_op": allocs, "file_reads_per_op": 0.0, "file_bytes_per_op": 0.0}


class TableTest(unittest.TestCase):
    def setUp(self):
        self.table = strategies.load()

    def test_reads_the_repository_table(self):
        jni = strategies.lookup(self.table, "jmh", "pinned_view")
        self.assertEqual((jni["binding"], jni["copies_of"](0), jni["copies_of"](1)),
                         ("jni", 0, 1))
        cpp = strategies.lookup(self.table, "native", "string_copy")
        self.assertEqual(cpp["binding"], "cpp")
        self.assertEqual(
            strategies.lookup(self.table, "jmh", "ffm_multiget_buffer_copy")["copies_of"](1), 2)
        self.assertEqual(strategies.lookup(self.table, "jmh", "ffm_string_copy")["copies_of"](1),
                         2)
        self.assertIsNone(strategies.lookup(self.table, "jmh", "rocksdbjni_get"))
        self.assertIn("ffm_buffer_copy", strategies.allocation_free(self.table))
        self.assertNotIn("ffm_pinned_view", strategies.allocation_free(self.table))

    def test_scan_shapes_are_the_table_row_other_variants_are_not(self):
        self.assertEqual(strategies.lookup(self.table, "jmh", "cursor@range")["row"], "cursor")
        self.assertEqual(strategies.lookup(self.table, "native", "cursor@stream")["binding"],
                         "cpp")
        self.assertIsNone(strategies.lookup(self.table, "jmh", "pinned_view@bloom"))
        self.assertIsNone(strategies.lookup(self.table, "jmh", "cursor@sideways"))

    def test_reads_sums_of_p_and_numbers(self):
        self.assertEqual(strategies.count_function("P + 2")(3), 5)
        self.assertEqual(strategies.count_function("P + P")(3), 6)
        self.assertEqual(strategies.count_function("2")(3), 2)

    def test_refuses_what_it_cannot_read(self):
        with self.assertRaises(strategies.TableError):
            strategies.count_function("P + F")
        for body in ("| jni | a | a | 1 | 0 | maybe |\n", "| jni | a | a | 1 | F | no |\n",
                     "| jni | a | a | 1 | 0 | yes |\n| ffm | a | a | 1 | 0 | yes |\n",
                     "| jni | a | a | 1 | 0 |\n"):
            with tempfile.NamedTemporaryFile("w", suffix=".md", delete=False) as f:
                f.write("# t\n\n" + HEADER + body)
            try:
                with self.assertRaises(strategies.TableError):
                    strategies.load(f.name)
            finally:
                os.unlink(f.name)


class CheckCountsTest(unittest.TestCase):
    def setUp(self):
        self.table = strategies.load()

    def run_check(self, rows):
        return check_counts.check([{"results": rows}], self.table)

    def test_agreeing_rows_pass(self):
        rows = [row("jmh", "pinned_view", 0), row("jmh", "pinned_view", 1, "memtable"),
                row("native", "string_copy", 1), row("jmh", "ffm_buffer_copy", 1),
                row("jmh", "string_copy", 2, allocs=1, alloc_bytes=4112)]
        self.assertEqual(self.run_check(rows), (5, []))

    def test_a_disagreeing_row_fails(self):
        checked, errors = self.run_check([row("jmh", "pinned_view", 1)])
        self.assertEqual(checked, 1)
        self.assertTrue(any("copies per get" in e for e in errors))
        _, errors = self.run_check([row("jmh", "buffer_copy", 1, alloc_bytes=64)])
        self.assertTrue(any("allocation-free" in e for e in errors))
        _, errors = self.run_check([row("jmh", "pinnable_copy", 1, allocs=2, alloc_bytes=4112)])
        self.assertTrue(any("allocations per get" in e for e in errors))

    def test_allocations_in_p_follow_the_residency(self):
        def per_call(residency, allocs):
            p = 1 if residency == "memtable" else 0
            return row("jmh", "pinned_view_per_call", p, residency, allocs=allocs,
                       alloc_bytes=48)
        self.assertEqual(self.run_check([per_call("block_cache", 0), per_call("memtable", 1)]),
                         (2, []))
        for wrong in (per_call("block_cache", 1), per_call("memtable", 0)):
            _, errors = self.run_check([wrong])
            self.assertTrue(any("allocations per get" in e for e in errors), errors)

    def test_a_changed_table_fails_the_same_row(self):
        table = copy.deepcopy(self.table)
        entry = next(t for t in table if t["binding"] == "ffm" and t["row"] == "ffm_pinned_view")
        entry["copies_of"] = strategies.count_function("P + 1")
        entry["copies"] = "P + 1"
        _, errors = check_counts.check([{"results": [row("jmh", "ffm_pinned_view", 0)]}], table)
        self.assertTrue(errors)

    def test_unmeasured_table_rows_and_unnamed_rows_are_not_checked(self):
        # One measured row of the table, one peer: the table's other rows are
        # simply not in the run.
        checked, errors = self.run_check([row("jmh", "direct_copy", 1),
                                          row("jmh", "rocksdbjni_get", 7)])
        self.assertEqual((checked, errors), (1, []))


if __name__ == "__main__":
    unittest.main()
