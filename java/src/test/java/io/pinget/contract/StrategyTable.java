// Copyright pinget authors. Licensed under the Apache License 2.0.
package io.pinget.contract;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * docs/strategies.md, the one strategy table, as the tests read it: binding and row to copies and
 * allocations (in P) and whether the row is allocation-free. The tests assert what they count
 * against it, so a count changed in the code and not in the table (or the reverse) fails.
 */
public final class StrategyTable {
  /** One row. copies and allocations are counts in P: terms P or a number joined by +. */
  public record Row(
      String binding,
      String row,
      String strategy,
      String copies,
      String allocations,
      boolean free) {
    /** Value copies per get when RocksDB's own copy is p (0 or 1), before F. */
    public int copies(int p) {
      return inP(copies, p);
    }

    /** Counted allocations per get when RocksDB's own copy is p (0 or 1). */
    public int allocations(int p) {
      return inP(allocations, p);
    }

    /** Terms P or a whole number joined by +, as bench/tools reads them; anything else throws. */
    private static int inP(String count, int p) {
      int n = 0;
      for (String term : count.split("\\+", -1)) {
        String t = term.trim();
        if (t.equals("P")) {
          n += p;
        } else if (t.matches("\\d+")) {
          n += Integer.parseInt(t);
        } else {
          throw new AssertionError("docs/strategies.md: " + count + ": terms are P or a number");
        }
      }
      return n;
    }
  }

  private static final Map<String, Row> ROWS = load();

  private StrategyTable() {}

  /**
   * The row of binding ("cpp", "jni", "rocksjava", "ffm", "control") named row.
   *
   * @throws AssertionError if the table has no such row
   */
  public static Row get(String binding, String row) {
    Row r = ROWS.get(binding + "/" + row);
    if (r == null) {
      throw new AssertionError("docs/strategies.md has no row " + binding + " " + row);
    }
    return r;
  }

  public static List<Row> rows() {
    return List.copyOf(ROWS.values());
  }

  private static Map<String, Row> load() {
    Path file = find();
    Map<String, Row> rows = new LinkedHashMap<>();
    Set<String> names = new HashSet<>();
    try {
      for (String line : Files.readAllLines(file)) {
        if (!line.startsWith("| ") || line.startsWith("| binding") || line.startsWith("|---")) {
          continue;
        }
        String[] cells = line.substring(1, line.length() - 1).split("\\|");
        if (cells.length != 6) {
          throw new AssertionError(file + ": not a row of six cells: " + line);
        }
        String free = cells[5].trim();
        if (!free.matches("yes|no")) {
          throw new AssertionError(file + ": allocation-free is yes or no: " + line);
        }
        Row r =
            new Row(
                cells[0].trim(),
                cells[1].trim(),
                cells[2].trim(),
                cells[3].trim(),
                cells[4].trim(),
                free.equals("yes"));
        r.copies(0); // a count that cannot be read fails here, for every row
        r.allocations(0);
        // Row names are unique among every binding but cpp, as summary.json's JMH rows need.
        String name = (r.binding().equals("cpp") ? "cpp/" : "java/") + r.row();
        if (!names.add(name)) {
          throw new AssertionError(file + ": row " + r.row() + " twice");
        }
        rows.put(r.binding() + "/" + r.row(), r);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    if (rows.isEmpty()) {
      throw new AssertionError(file + " holds no strategy row");
    }
    return rows;
  }

  /** docs/strategies.md in the working directory or a parent of it (a module's folder). */
  private static Path find() {
    for (Path dir = Paths.get("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
      Path file = dir.resolve("docs/strategies.md");
      if (Files.isRegularFile(file)) {
        return file;
      }
    }
    throw new AssertionError(
        "docs/strategies.md not found above " + Paths.get("").toAbsolutePath());
  }
}
