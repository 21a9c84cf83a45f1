"""The Kafka Streams section: rows from JMH JSON, ratios with their error, verdicts."""
import json
import os
import tempfile
import unittest

from pinget_report import kafka


def jmh(op, store, size, ops, err, alloc, length=10, decode="field"):
    return {"benchmark": f"io.pinget.bench.kafka.KafkaStoreBenchmark.{op}",
            "params": {"store": store, "valueSize": str(size), "keys": "1000",
                       "rangeLength": str(length), "decode": decode},
            "primaryMetric": {"score": ops, "scoreError": err, "scoreUnit": "ops/s"},
            "secondaryMetrics": {"gc.alloc.rate.norm": {"score": alloc}}}


class KafkaSectionTest(unittest.TestCase):
    def write(self, entries):
        d = tempfile.mkdtemp()
        path = os.path.join(d, "kafka-stores.json")
        with open(path, "w") as f:
            json.dump(entries, f)
        return path

    def test_ratio_and_its_error(self):
        r, hw = kafka.ratio({"ops": 100.0, "err": 3.0}, {"ops": 200.0, "err": 8.0})
        self.assertAlmostEqual(r, 2.0)
        self.assertAlmostEqual(hw, 2.0 * (0.03 ** 2 + 0.04 ** 2) ** 0.5)
        self.assertEqual(kafka.ratio(None, {"ops": 1.0, "err": 0.0}), (None, None))

    def test_verdicts(self):
        self.assertEqual(kafka.verdict(2.0, 0.1, 1.5), "met")
        self.assertEqual(kafka.verdict(1.2, 0.1, 1.5), "not met")
        self.assertEqual(kafka.verdict(1.45, 0.1, 1.5), "within error")
        self.assertEqual(kafka.verdict(None, None, 1.5), "not measured")
        self.assertEqual(kafka.verdict(3.0, None, 1.5), "no error estimate")

    def test_section_tables_every_store_and_judges_the_targets(self):
        path = self.write([
            jmh("get", "kafka", 4096, 100_000.0, 1_000.0, 4200.0),
            jmh("get", "pinget_bytes", 4096, 110_000.0, 1_000.0, 4200.0),
            jmh("get", "pinget_typed", 4096, 200_000.0, 2_000.0, 40.0),
        ])
        lines = kafka.section([path])
        row = next(line for line in lines if line.startswith("| get | one field | 4096 B × 1,000"))
        self.assertIn("10,000", row)  # Kafka's ns per get
        self.assertIn("2.00×", row)
        target = next(line for line in lines if "`get` (one field) at 4096 B, 1,000 keys" in line)
        self.assertTrue(target.endswith("| met |"), target)
        whole = next(line for line in lines if "`get` (whole value) at 4096 B" in line)
        self.assertTrue(whole.endswith("| not measured |"), whole)
        missing = next(line for line in lines if "`get` (one field) at 65536 B" in line)
        self.assertTrue(missing.endswith("| not measured |"), missing)

    def test_no_files_no_section(self):
        self.assertEqual(kafka.section([]), [])


if __name__ == "__main__":
    unittest.main()
