// Copyright pinget authors. Licensed under the Apache License 2.0.
package io.pinget;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.lang.reflect.Modifier;
import java.net.URISyntaxException;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The classes that pinget's JAR makes public, listed: nothing of the benchmarks or the tests (their
 * controls are in bench/, their hooks in the test sources), so that adding a public class is a
 * decision this list records.
 */
class PublicApiTest {
  private static final List<String> PUBLIC =
      List.of(
          "io.pinget.BlockCacheKind",
          "io.pinget.ColumnFamily",
          "io.pinget.Compression",
          "io.pinget.CopyStats",
          "io.pinget.Cursor",
          "io.pinget.Cursor$EntryVisitor",
          "io.pinget.CursorOptions",
          "io.pinget.DecodeException",
          "io.pinget.Decoders",
          "io.pinget.LongDecoder",
          "io.pinget.Options",
          "io.pinget.PingetException",
          "io.pinget.PingetException$Code",
          "io.pinget.PinnedBatch",
          "io.pinget.PinnedValue",
          "io.pinget.PinnedView",
          "io.pinget.ReadOptions",
          "io.pinget.Reader",
          "io.pinget.Snapshot",
          "io.pinget.Store",
          "io.pinget.StoreClosedException",
          "io.pinget.ValueDecoder",
          "io.pinget.WriteBatch",
          "io.pinget.WriteOptions",
          // Not API (its package says so): what the FFM binding shares with the JNI one.
          "io.pinget.internal.BatchCursor",
          "io.pinget.internal.BatchCursor$Visitor",
          "io.pinget.internal.CallSlot",
          "io.pinget.internal.Checks",
          "io.pinget.internal.DecodeRules",
          "io.pinget.internal.DecodedBatch",
          "io.pinget.internal.StoreAccess",
          "io.pinget.kafka.KafkaDecoders",
          "io.pinget.rocksjava.RocksJavaReader");

  @Test
  void theJarMakesPublicOnlyTheApi() throws IOException, URISyntaxException {
    Path root = Path.of(Store.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    TreeSet<String> found = new TreeSet<>();
    if (Files.isDirectory(root)) {
      found.addAll(publicClasses(root));
    } else {
      try (FileSystem jar = FileSystems.newFileSystem(root)) {
        found.addAll(publicClasses(jar.getPath("/")));
      }
    }
    assertEquals(new TreeSet<>(PUBLIC), found, "public classes of " + root);
  }

  /** The public classes under root (multi-release versions excluded), public nesting included. */
  private static List<String> publicClasses(Path root) throws IOException {
    Path base = root.resolve("io");
    try (Stream<Path> files = Files.walk(base)) {
      return files
          .map(p -> root.relativize(p).toString())
          .filter(n -> n.endsWith(".class") && !n.endsWith("package-info.class"))
          .map(n -> n.substring(0, n.length() - ".class".length()).replace('/', '.'))
          .filter(PublicApiTest::isPublic)
          .collect(Collectors.toList());
    }
  }

  private static boolean isPublic(String name) {
    Class<?> c;
    try {
      c = Class.forName(name, false, PublicApiTest.class.getClassLoader());
    } catch (ClassNotFoundException e) {
      throw new AssertionError(name, e);
    }
    if (c.isAnonymousClass() || c.isLocalClass() || c.isSynthetic()) {
      return false;
    }
    for (Class<?> k = c; k != null; k = k.getEnclosingClass()) {
      if (!Modifier.isPublic(k.getModifiers())) {
        return false;
      }
    }
    return true;
  }
}
