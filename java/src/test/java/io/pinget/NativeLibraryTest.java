// Copyright pinget authors. Licensed under the Apache License 2.0.
package io.pinget;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
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
    assertTrue(out.startsWith("loaded " + Store.rocksdbVersion()), out);
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
  void aTooOldLibstdcxxIsNamed() {
    String message =
        NativeLibrary.describe(
            List.of(
                "resource x extracted to /tmp/y: java.lang.UnsatisfiedLinkError: /tmp/y:"
                    + " /lib64/libstdc++.so.6: version `GLIBCXX_3.4.30' not found (required by"
                    + " /tmp/y)"));
    assertTrue(message.contains(NativeLibrary.RUNTIME_HINT), message);
    assertEquals("linux-x86_64", NativeLibrary.platform());
  }

  /** What the JAR may need from the machine: the C and C++ runtimes, nothing else. */
  private static final Set<String> SYSTEM_LIBRARIES =
      Set.of(
          "libc.so.6",
          "libm.so.6",
          "libstdc++.so.6",
          "libgcc_s.so.1",
          "libpthread.so.0",
          "libdl.so.2",
          "librt.so.1",
          "ld-linux-x86-64.so.2");

  @Test
  void theLibraryInTheJarNeedsOnlySystemLibrariesAndExportsOnlyJniOnLoad() throws Exception {
    Path dir = TestSupport.newDir("readelf");
    Path lib = dir.resolve("libpinget_jni.so");
    // The resource that the JAR packs (target/classes/META-INF/native/...).
    try (InputStream in =
        NativeLibraryTest.class
            .getClassLoader()
            .getResourceAsStream(NativeLibrary.resourceName())) {
      assertNotNull(in, NativeLibrary.resourceName());
      Files.copy(in, lib);
    }
    List<String> needed = new ArrayList<>();
    Matcher m =
        Pattern.compile("\\(NEEDED\\)\\s+Shared library: \\[([^\\]]+)\\]")
            .matcher(readelf("-d", lib));
    while (m.find()) {
      needed.add(m.group(1));
    }
    assertFalse(needed.isEmpty(), "readelf -d found no NEEDED entry");
    for (String library : needed) {
      assertTrue(SYSTEM_LIBRARIES.contains(library), "needs " + library + ": " + needed);
    }
    // Defined (section index not UND) global or weak symbols of the dynamic table.
    List<String> exported = new ArrayList<>();
    for (String line : readelf("--dyn-syms", lib).split("\n")) {
      String[] f = line.trim().split("\\s+");
      if (f.length >= 8
          && f[0].endsWith(":")
          && (f[4].equals("GLOBAL") || f[4].equals("WEAK"))
          && !f[6].equals("UND")) {
        exported.add(f[7]);
      }
    }
    // JNI_OnLoad, and the C API (pinget/c.h) for the FFM binding: nothing of RocksDB or C++.
    assertTrue(exported.remove("JNI_OnLoad"), "JNI_OnLoad is not exported: " + exported);
    assertTrue(exported.contains("pinget_get_pinned"), "no C API: " + exported);
    for (String symbol : exported) {
      assertTrue(symbol.startsWith("pinget_"), "exports " + symbol);
    }
    TestSupport.deleteTree(dir);
  }

  private static String readelf(String what, Path file) throws IOException, InterruptedException {
    Process p =
        new ProcessBuilder("readelf", "-W", what, file.toString())
            .redirectErrorStream(true)
            .start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertEquals(0, p.waitFor(), out);
    return out;
  }
}
