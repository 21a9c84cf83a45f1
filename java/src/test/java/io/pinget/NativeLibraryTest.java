// Copyright pinget authors. Licensed under the Apache License 2.0.
package io.pinget;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
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
    assertTrue(out.contains("could not load libpinget_jni.so for linux-x86_64 (os.name="), out);
    assertTrue(
        out.matches("(?s).*this JAR has libraries for: \\[[^\\]]*\\blinux-x86_64\\b.*"), out);
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
  void aTooOldGlibcIsNamed() {
    String message =
        NativeLibrary.describe(
            "linux-x86_64",
            List.of("linux-x86_64"),
            List.of(
                "resource x: java.lang.UnsatisfiedLinkError: /tmp/y: /lib64/libc.so.6: version"
                    + " `GLIBC_2.18' not found (required by /tmp/y)"));
    assertTrue(message.contains(NativeLibrary.GLIBC_HINT), message);
    assertFalse(message.contains(NativeLibrary.MUSL_HINT), message);
  }

  /** Each JVM's os.name and os.arch as the JDKs of the JAR's platforms report them. */
  @Test
  void everyPlatformOfTheJarIsNamedAsItsFolderWithItsFileName() {
    String[][] cases = {
      {"Linux", "amd64", "false", "linux-x86_64", "libpinget_jni.so"},
      {"Linux", "aarch64", "true", "linux-aarch64-musl", "libpinget_jni.so"},
      {"Mac OS X", "aarch64", "false", "osx-arm64", "libpinget_jni.dylib"},
      {"Mac OS X", "x86_64", "false", "osx-x86_64", "libpinget_jni.dylib"},
      {"Windows 11", "amd64", "false", "win-x86_64", "pinget_jni.dll"},
      {"Windows Server 2022", "amd64", "false", "win-x86_64", "pinget_jni.dll"},
      {"FreeBSD", "amd64", "false", "freebsd-x86_64", "libpinget_jni.so"},
    };
    for (String[] c : cases) {
      boolean musl = Boolean.parseBoolean(c[2]);
      String platform = NativeLibrary.platform(c[0], c[1], () -> musl);
      assertEquals(c[3], platform, c[0] + " " + c[1]);
      assertEquals(c[4], NativeLibrary.fileName(platform));
      assertEquals("META-INF/native/" + c[3] + "/" + c[4], NativeLibrary.resourceName(platform));
    }
    assertEquals(
        "win-x86_64",
        NativeLibrary.platform(
            "Windows 10",
            "amd64",
            () -> {
              throw new AssertionError("musl is asked only on Linux");
            }));
  }

  @Test
  void aMacOrWindowsFailureNamesThatPlatformsFloor() {
    String mac =
        NativeLibrary.describe(
            "osx-arm64",
            List.of("osx-arm64"),
            List.of("resource x: java.lang.UnsatisfiedLinkError"));
    assertTrue(mac.startsWith("could not load libpinget_jni.dylib for osx-arm64"), mac);
    assertTrue(mac.contains(NativeLibrary.MACOS_HINT), mac);
    String win =
        NativeLibrary.describe(
            "win-x86_64",
            List.of("win-x86_64"),
            List.of("resource x: java.lang.UnsatisfiedLinkError"));
    assertTrue(win.startsWith("could not load pinget_jni.dll for win-x86_64"), win);
    assertTrue(win.contains(NativeLibrary.WINDOWS_HINT), win);
    assertFalse(win.contains(NativeLibrary.MACOS_HINT), win);
    String unpacked =
        NativeLibrary.describe(
            "win-aarch64", List.of("win-x86_64"), List.of("resource x: not in the JAR"));
    assertFalse(unpacked.contains(NativeLibrary.WINDOWS_HINT), unpacked);
  }

  @Test
  void aPlatformWithoutALibraryIsNamedWithThePlatformsTheJarHas() {
    String message =
        NativeLibrary.describe(
            "linux-riscv64",
            List.of("linux-x86_64", "linux-aarch64"),
            List.of(
                "resource " + NativeLibrary.resourceName("linux-riscv64") + ": not in the JAR"));
    assertTrue(
        message.startsWith("could not load libpinget_jni.so for linux-riscv64 (os.name="), message);
    assertTrue(
        message.contains("this JAR has libraries for: [linux-x86_64, linux-aarch64]"), message);
    assertTrue(message.contains("META-INF/native/linux-riscv64/libpinget_jni.so"), message);
  }

  /**
   * musl is told by its C library in the memory map, under any name musl installs it by; glibc
   * (whichever file names it maps) and a file that merely mentions musl are not musl.
   */
  @Test
  void muslIsReadFromTheMemoryMap() throws IOException {
    // Alpine: the loader is the file; Debian's musl package and Void: a link to libc.so, which
    // the map shows (a Zulu musl JRE on Debian's musl 1.2.3 maps
    // /usr/lib/x86_64-linux-musl/libc.so).
    for (String musl :
        List.of(
            "/lib/ld-musl-x86_64.so.1",
            "/lib/ld-musl-aarch64.so.1",
            "/usr/lib/libc.musl-x86_64.so.1",
            "/usr/lib/x86_64-linux-musl/libc.so",
            "/usr/lib/libc.so")) {
      assertTrue(mapsMuslWith(musl), musl);
    }
    for (String glibc :
        List.of(
            "/usr/lib/x86_64-linux-gnu/libc.so.6",
            "/usr/lib64/ld-linux-x86-64.so.2",
            "/lib64/libc-2.17.so",
            "/lib/aarch64-linux-gnu/libc.so.6",
            "/tmp/musl/libc.so.6",
            "/opt/ld-musl-notes.txt.so.6/libjvm.so",
            "[vdso]")) {
      assertFalse(mapsMuslWith(glibc), glibc);
    }
  }

  /** mapsMusl of a JVM's memory map that also maps file. */
  private static boolean mapsMuslWith(String file) throws IOException {
    String map =
        "7f1c2a100000-7f1c2a200000 r-xp 00000000 08:01 99 /usr/lib/jvm/lib/server/libjvm.so\n"
            + "7f1c2a000000-7f1c2a014000 r--p 00000000 08:01 1234 "
            + file
            + "\n";
    return NativeLibrary.mapsMusl(new BufferedReader(new StringReader(map)));
  }

  /** This machine (Debian, x86_64, glibc): the platform and the library the tests load. */
  @Test
  void thisMachineIsLinuxX8664OnGlibcAndLoadsTheJarsLibrary() {
    assertFalse(NativeLibrary.isMusl());
    assertEquals("linux-x86_64", NativeLibrary.platform());
    Store.rocksdbVersion(); // loads it
    assertEquals(
        "resource " + NativeLibrary.resourceName("linux-x86_64"), NativeLibrary.loadedFrom());
  }

  /**
   * RocksJavaReader over rocksdbjni's own C++ objects, with the JAR's linux-x86_64 library (GCC 12
   * against glibc 2.17, libstdc++ linked in): the two libraries agree on libstdc++'s ABI.
   */
  @Test
  void rocksJavaReaderReadsThroughTheJarsLibrary() throws Exception {
    Path dir = TestSupport.newDir("rocksjava-jar");
    byte[] key = "k".getBytes(StandardCharsets.UTF_8);
    byte[] value = new byte[4096];
    Arrays.fill(value, (byte) 3);
    org.rocksdb.RocksDB.loadLibrary();
    try (org.rocksdb.Options options = new org.rocksdb.Options().setCreateIfMissing(true);
        org.rocksdb.RocksDB db = org.rocksdb.RocksDB.open(options, dir.toString());
        io.pinget.rocksjava.RocksJavaReader reader = io.pinget.rocksjava.RocksJavaReader.open(db)) {
      db.put(key, value);
      assertArrayEquals(value, reader.store().pinnableCopy(key));
    }
    assertEquals(
        "resource " + NativeLibrary.resourceName("linux-x86_64"), NativeLibrary.loadedFrom());
    TestSupport.deleteTree(dir);
  }

  /**
   * Every library packed (target/classes/META-INF/native, as in the JAR): its machine, NEEDED
   * entries and symbol versions within its platform's floors (test/portable/floors), and the list
   * of platforms the loader reports matches the folders.
   */
  @Test
  void everyPackedLibraryIsWithinItsFloors() throws Exception {
    List<String> platforms = NativeLibrary.packedPlatforms();
    assertTrue(platforms.contains("linux-x86_64"), platforms.toString());
    Path dir = TestSupport.newDir("floors");
    for (String platform : platforms) {
      Path lib = dir.resolve(platform + ".so");
      try (InputStream in =
          NativeLibraryTest.class
              .getClassLoader()
              .getResourceAsStream(NativeLibrary.resourceName(platform))) {
        assertNotNull(in, NativeLibrary.resourceName(platform));
        Files.copy(in, lib);
      }
      String out = floors(lib, platform);
      System.out.println(out.trim());
      assertTrue(out.startsWith(platform + ": "), out);
    }
    TestSupport.deleteTree(dir);
  }

  /** The floor check can fail: the build machine's libstdc++ needs glibc 2.34 or later. */
  @Test
  void theFloorCheckRefusesALibraryAboveTheFloors() throws Exception {
    Path libstdcxx = Paths.get("/usr/lib/x86_64-linux-gnu/libstdc++.so.6");
    Process p =
        new ProcessBuilder(
                System.getProperty("pinget.test.floors"), libstdcxx.toString(), "linux-x86_64")
            .redirectErrorStream(true)
            .start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertEquals(1, p.waitFor(), out);
    assertTrue(out.contains("above GLIBC_2.17"), out);
  }

  /**
   * The Windows check can fail: wine's own shlwapi.dll (tools/install-deps installs wine64) imports
   * DLLs outside the allowed list and exports more than JNI_OnLoad and the C API.
   */
  @Test
  void theFloorCheckRefusesADllBeyondTheWindowsFloors() throws Exception {
    Path dll = Paths.get("/usr/lib/x86_64-linux-gnu/wine/x86_64-windows/shlwapi.dll");
    Process p =
        new ProcessBuilder(System.getProperty("pinget.test.floors"), dll.toString(), "win-x86_64")
            .redirectErrorStream(true)
            .start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertEquals(1, p.waitFor(), out);
    assertTrue(out.contains("(allowed: KERNEL32, SHLWAPI, RPCRT4 and the UCRT)"), out);
    assertTrue(out.contains("(only JNI_OnLoad and pinget/c.h's functions)"), out);
  }

  /**
   * The macOS checks read a real Mach-O library: rocksdbjni's osx-arm64 one (on the test class
   * path) links libc++ and exports RocksDB, so floors refuses it; its ad-hoc signature is valid,
   * and one byte changed breaks it.
   */
  @Test
  void theMacChecksReadRocksdbjnisArm64Library() throws Exception {
    Path dir = TestSupport.newDir("macho");
    Path lib = dir.resolve("librocksdbjni-osx-arm64.jnilib");
    try (InputStream in =
        NativeLibraryTest.class
            .getClassLoader()
            .getResourceAsStream("librocksdbjni-osx-arm64.jnilib")) {
      assertNotNull(in, "rocksdbjni's osx-arm64 library is not on the test class path");
      Files.copy(in, lib);
    }
    String floors = System.getProperty("pinget.test.floors");
    Process p =
        new ProcessBuilder(floors, lib.toString(), "osx-arm64").redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertEquals(1, p.waitFor(), out);
    assertTrue(out.contains("/usr/lib/libc++.1.dylib"), out);
    assertTrue(out.contains("exports _Java_org_rocksdb_"), out);
    assertFalse(out.contains("minimum macOS"), out); // 11.0, as pinget's

    Path signature = Paths.get(floors).resolveSibling("macho_signature");
    assertEquals(0, exitCode(signature.toString(), lib.toString()), "rocksdbjni's signature");
    byte[] bytes = Files.readAllBytes(lib);
    bytes[5000] ^= 1;
    Files.write(lib, bytes);
    assertEquals(1, exitCode(signature.toString(), lib.toString()), "a changed page");
    TestSupport.deleteTree(dir);
  }

  private static int exitCode(String... command) throws IOException, InterruptedException {
    Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
    p.getInputStream().readAllBytes();
    return p.waitFor();
  }

  private static String floors(Path lib, String platform) throws IOException, InterruptedException {
    Process p =
        new ProcessBuilder(System.getProperty("pinget.test.floors"), lib.toString(), platform)
            .redirectErrorStream(true)
            .start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertEquals(0, p.waitFor(), out);
    return out;
  }

  /** What the JAR may need from the machine: the C runtime and libgcc_s; no C++ runtime. */
  private static final Set<String> SYSTEM_LIBRARIES =
      Set.of(
          "libc.so.6",
          "libm.so.6",
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
    assertTrue(exported.contains("pinget_pinned_view"), "no C API: " + exported);
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
