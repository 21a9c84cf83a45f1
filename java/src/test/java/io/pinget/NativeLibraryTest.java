// Copyright pinget authors. Licensed under the Apache License 2.0.
package io.pinget;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** The loader, in fresh JVMs: what wins, where it extracts, and what a failure says. */
class NativeLibraryTest {
  /** Loads the library in a new JVM: prints "loaded" or the error message. */
  public static final class Probe {
    public static void main(String[] args) {
      try {
        System.out.println("loaded " + Store.rocksdbVersion());
      } catch (UnsatisfiedLinkError e) {
        System.out.println(e.getMessage());
      }
    }
  }

  private static String run(String... properties) throws IOException, InterruptedException {
    List<String> command = new ArrayList<>();
    command.add(Paths.get(System.getProperty("java.home"), "bin", "java").toString());
    command.add("--enable-native-access=ALL-UNNAMED");
    command.add("-cp");
    command.add(System.getProperty("java.class.path"));
    command.addAll(List.of(properties));
    command.add(Probe.class.getName());
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertEquals(0, process.waitFor(), out);
    return out;
  }

  @Test
  void extractsIntoTheConfiguredFolderAndDeletesTheCopy() throws Exception {
    Path tmp = TestSupport.newDir("extract");
    String out = run("-Dpinget.library.tmpdir=" + tmp.resolve("sub"));
    assertTrue(out.startsWith("loaded 7.8.3"), out);
    try (Stream<Path> left = Files.list(tmp.resolve("sub"))) {
      assertEquals(0, left.count(), "the extracted library is deleted after loading");
    }
    TestSupport.deleteTree(tmp);
  }

  @Test
  void anExplicitPathWinsAndAFailureSaysWhatWasTried() throws Exception {
    String out = run("-Dpinget.library.path=/nonexistent/libpinget_jni.so");
    assertTrue(out.contains("could not load libpinget_jni.so; tried:"), out);
    assertTrue(out.contains("pinget.library.path=/nonexistent/libpinget_jni.so"), out);
    assertFalse(out.contains("resource META-INF"), "nothing else is tried: " + out);
  }

  @Test
  void anUnwritableTmpdirFallsBackToTheLibraryPathAndListsBoth() throws Exception {
    String out = run("-Dpinget.library.tmpdir=/proc/no-such-dir");
    assertTrue(out.contains("1. resource "), out);
    assertTrue(out.contains("2. java.library.path="), out);
  }

  @Test
  void aMissingRocksdbNamesThePackage() {
    String message =
        NativeLibrary.describe(
            List.of(
                "resource x extracted to /tmp/y: java.lang.UnsatisfiedLinkError: /tmp/y:"
                    + " librocksdb.so.7.8: cannot open shared object file: No such file or"
                    + " directory"));
    assertTrue(
        message.contains("install Debian package librocksdb7.8 (or librocksdb-dev)"), message);
    assertEquals("linux-x86_64", NativeLibrary.platform());
  }
}
