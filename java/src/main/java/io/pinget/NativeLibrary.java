// Copyright pinget authors. Licensed under the Apache License 2.0.
package io.pinget;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Loads pinget's JNI library (libpinget_jni.so, libpinget_jni.dylib, pinget_jni.dll) once. The
 * system property {@value #PATH_PROPERTY} (a file) wins; otherwise the library of this platform
 * ({@link #platform()}) is extracted from this JAR to a temporary file in {@value #TMPDIR_PROPERTY}
 * (default: java.io.tmpdir), loaded and deleted; otherwise it is looked up on java.library.path. A
 * failure names the platform looked for, the platforms the JAR has, and every place tried and why.
 */
final class NativeLibrary {
  static final String PATH_PROPERTY = "pinget.library.path";
  static final String TMPDIR_PROPERTY = "pinget.library.tmpdir";
  static final String NAME = "pinget_jni";

  /** One platform per line, written by the build beside the libraries it packed. */
  static final String PLATFORMS_RESOURCE = "META-INF/native/platforms";

  // What each library needs from the machine (their floors, tested by test/portable/floors):
  // the glibc ones embed libstdc++, the musl ones libc++.
  static final String GLIBC_HINT =
      "the linux-x86_64 and linux-aarch64 libraries need glibc 2.17 or later (and libgcc_s)";
  static final String MUSL_HINT =
      "the linux-x86_64-musl and linux-aarch64-musl libraries need musl 1.2.3 or later";
  static final String MACOS_HINT =
      "the osx-arm64 and osx-x86_64 libraries need macOS 11.0 or later";
  static final String WINDOWS_HINT =
      "the win-x86_64 library needs Windows 10 or later (the Universal C Runtime)";

  private NativeLibrary() {}

  private static final class Holder {
    static final String FAILURE = tryLoad();
  }

  /** What was loaded (for diagnostics and tests); null until a load succeeded. */
  private static volatile String loadedFrom;

  /** Loads the library if not yet loaded; throws UnsatisfiedLinkError if it cannot. */
  static void load() {
    String failure = Holder.FAILURE;
    if (failure != null) {
      throw new UnsatisfiedLinkError(failure);
    }
  }

  /** Where the library was loaded from, once {@link #load()} succeeded. */
  static String loadedFrom() {
    return loadedFrom;
  }

  /**
   * This JVM's platform as the JAR names its folders: {@code linux-x86_64}, {@code linux-aarch64}
   * (with {@code -musl} appended when the process runs on musl, as on Alpine), {@code osx-arm64},
   * {@code osx-x86_64}, {@code win-x86_64}; any other as {@code os.name-os.arch}.
   */
  static String platform() {
    return platform(
        System.getProperty("os.name", ""),
        System.getProperty("os.arch", ""),
        NativeLibrary::isMusl);
  }

  static String platform(String osName, String osArch, java.util.function.BooleanSupplier musl) {
    String os = osName.toLowerCase(Locale.ROOT);
    String arch = osArch.toLowerCase(Locale.ROOT);
    if (arch.equals("amd64") || arch.equals("x86_64")) {
      arch = "x86_64";
    } else if (arch.equals("arm64") || arch.equals("aarch64")) {
      arch = "aarch64";
    }
    if (os.startsWith("linux")) {
      return "linux-" + arch + (musl.getAsBoolean() ? "-musl" : "");
    } else if (os.startsWith("mac os x") || os.startsWith("darwin")) {
      return "osx-" + (arch.equals("aarch64") ? "arm64" : arch);
    } else if (os.startsWith("windows")) {
      return "win-" + arch;
    }
    return os.replace(' ', '_') + "-" + arch;
  }

  /** The library's file name on a platform, as System.mapLibraryName gives it there. */
  static String fileName(String platform) {
    if (platform.startsWith("osx-")) {
      return "lib" + NAME + ".dylib";
    } else if (platform.startsWith("win-")) {
      return NAME + ".dll";
    }
    return "lib" + NAME + ".so";
  }

  /**
   * Whether this process runs on musl, without running a program: its memory map names the C
   * library it loaded (see {@link #mapsMusl}). Without /proc, a musl loader on disk and no glibc
   * one decide.
   */
  static boolean isMusl() {
    Path maps = Paths.get("/proc/self/maps");
    if (Files.isReadable(maps)) {
      try (BufferedReader lines = Files.newBufferedReader(maps, StandardCharsets.ISO_8859_1)) {
        return mapsMusl(lines);
      } catch (IOException | SecurityException e) {
        // fall through to the files on disk
      }
    }
    return hasFile("/lib", "ld-musl-")
        && !hasFile("/lib64", "ld-linux-")
        && !hasFile("/lib", "ld-linux-");
  }

  /**
   * Whether a memory map (the lines of /proc/PID/maps) has musl's C library mapped. musl's loader
   * is its C library; the map shows the file the loader's name resolves to: {@code
   * /lib/ld-musl-ARCH.so.1} itself on Alpine, {@code libc.so} where that name is a link to it
   * (Debian's musl package: /usr/lib/ARCH-linux-musl/libc.so; Void). glibc never maps a file named
   * {@code libc.so} (its libc.so is a linker script): it maps libc.so.6 or libc-2.N.so.
   */
  static boolean mapsMusl(BufferedReader maps) throws IOException {
    for (String line = maps.readLine(); line != null; line = maps.readLine()) {
      int slash = line.lastIndexOf('/');
      String file = line.substring(slash + 1);
      if (slash >= 0
          && (file.startsWith("ld-musl-")
              || file.startsWith("libc.musl-")
              || file.equals("libc.so"))) {
        return true;
      }
    }
    return false;
  }

  private static boolean hasFile(String dir, String prefix) {
    try (var files = Files.newDirectoryStream(Paths.get(dir), prefix + "*")) {
      return files.iterator().hasNext();
    } catch (IOException | SecurityException | InvalidPathException e) {
      return false;
    }
  }

  static String resourceName() {
    return resourceName(platform());
  }

  static String resourceName(String platform) {
    return "META-INF/native/" + platform + "/" + fileName(platform);
  }

  /** The platforms this JAR (or class path) has a library for, as the build listed them. */
  static List<String> packedPlatforms() {
    List<String> platforms = new ArrayList<>();
    try (InputStream in = resource(PLATFORMS_RESOURCE)) {
      if (in != null) {
        BufferedReader lines =
            new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
        for (String line = lines.readLine(); line != null; line = lines.readLine()) {
          if (!line.isBlank()) {
            platforms.add(line.trim());
          }
        }
      }
    } catch (IOException e) {
      // the message then says that the list could not be read
    }
    return platforms;
  }

  private static InputStream resource(String name) throws IOException {
    URL url = url(name);
    return url == null ? null : url.openStream();
  }

  private static URL url(String name) {
    ClassLoader loader = NativeLibrary.class.getClassLoader();
    return loader != null ? loader.getResource(name) : ClassLoader.getSystemResource(name);
  }

  /**
   * Returns null once loaded and checked, else the error message. A library whose constant tables
   * differ from these classes' (one of another pinget release, named by {@link #PATH_PROPERTY})
   * stays loaded but is refused: it would read the option flags or the status codes wrongly.
   */
  private static String tryLoad() {
    String failure = loadAny();
    return failure != null ? failure : checkTables(constants());
  }

  /**
   * The loaded library's tables (native/jni/stats_jni.cc): the status code names in
   * pinget::Status::Code order, then the option flag bits, as {@code
   * "OK,NotFound,...,|fill_cache=1,verify_checksums=2,..."}.
   */
  static native String constants();

  /**
   * Null if a library's {@link #constants()} agree with {@link PingetException.Code} (in order) and
   * the flag bits of {@link ReadOptions} and {@link WriteOptions}; else what differs.
   */
  static String checkTables(String tables) {
    StringBuilder codes = new StringBuilder();
    for (PingetException.Code c : PingetException.Code.values()) {
      codes.append(c.name()).append(',');
    }
    String bits =
        "fill_cache="
            + ReadOptions.FILL_CACHE
            + ",verify_checksums="
            + ReadOptions.VERIFY_CHECKSUMS
            + ",pin_memtable="
            + ReadOptions.PIN_MEMTABLE
            + ",sync="
            + WriteOptions.SYNC
            + ",disable_wal="
            + WriteOptions.DISABLE_WAL;
    String expected = codes + "|" + bits;
    int bar = tables.indexOf('|');
    StringBuilder actual = new StringBuilder();
    for (String name : tables.substring(0, Math.max(bar, 0)).split(",")) {
      if (!name.isEmpty()) {
        actual.append(constantName(name)).append(',');
      }
    }
    actual.append('|').append(tables.substring(bar + 1));
    if (expected.contentEquals(actual)) {
      return null;
    }
    return "the native library ("
        + loadedFrom
        + ") does not match pinget's classes (another release?): its tables are "
        + actual
        + ", the classes' "
        + expected;
  }

  /** A native status code name as the Java constant: "IOError" → "IO_ERROR". */
  private static String constantName(String camel) {
    return camel
        .replaceAll("([a-z])([A-Z])", "$1_$2")
        .replaceAll("([A-Z])([A-Z][a-z])", "$1_$2")
        .toUpperCase(Locale.ROOT);
  }

  /** Returns null once loaded, else the error message. */
  private static String loadAny() {
    List<String> tried = new ArrayList<>();
    String explicit = System.getProperty(PATH_PROPERTY);
    if (explicit != null && !explicit.isEmpty()) {
      if (loadFile(explicit, PATH_PROPERTY + "=" + explicit, tried)) {
        return null;
      }
      return describe(platform(), packedPlatforms(), tried);
    }
    String platform = platform();
    if (loadFromJar(platform, tried)) {
      return null;
    }
    try {
      System.loadLibrary(NAME);
      loadedFrom = "java.library.path";
      return null;
    } catch (UnsatisfiedLinkError | SecurityException e) {
      tried.add("java.library.path=" + System.getProperty("java.library.path") + ": " + e);
    }
    return describe(platform, packedPlatforms(), tried);
  }

  private static boolean loadFile(String file, String what, List<String> tried) {
    try {
      System.load(Paths.get(file).toAbsolutePath().toString());
      loadedFrom = what;
      return true;
    } catch (UnsatisfiedLinkError | SecurityException | InvalidPathException e) {
      tried.add(what + ": " + e);
      return false;
    }
  }

  private static boolean loadFromJar(String platform, List<String> tried) {
    String resource = resourceName(platform);
    URL url = url(resource);
    if (url == null) {
      tried.add("resource " + resource + ": not in the JAR (no library for " + platform + ")");
      return false;
    }
    String dirName = System.getProperty(TMPDIR_PROPERTY, System.getProperty("java.io.tmpdir"));
    if (platform.startsWith("win-")) {
      return loadKept(url, resource, Paths.get(dirName), platform, tried);
    }
    Path file = null;
    try {
      Path dir = Paths.get(dirName);
      Files.createDirectories(dir);
      String name = fileName(platform);
      int dot = name.lastIndexOf('.');
      file = Files.createTempFile(dir, name.substring(0, dot) + "-", name.substring(dot));
      try (InputStream in = url.openStream()) {
        Files.copy(in, file, StandardCopyOption.REPLACE_EXISTING);
      }
      return loadFile(file.toString(), "resource " + resource, tried);
    } catch (IOException | InvalidPathException | SecurityException e) {
      tried.add("resource " + url + " extracted to " + (file != null ? file : dirName) + ": " + e);
      return false;
    } finally {
      if (file != null) {
        try {
          Files.deleteIfExists(file); // a loaded library stays mapped
        } catch (IOException e) {
          file.toFile().deleteOnExit();
        }
      }
    }
  }

  /**
   * Windows cannot delete a loaded DLL, so it is extracted once per content and kept: {@code
   * <dir>/pinget-<SHA-256 prefix>/pinget_jni.dll}, reused by every later JVM whose JAR holds the
   * same bytes (checked by hash before loading), written under a temporary name and moved into
   * place so that concurrent JVMs never load a half-written file. The file keeps the DLL's own
   * name, under which Windows then knows the loaded module.
   */
  private static boolean loadKept(
      URL url, String resource, Path dir, String platform, List<String> tried) {
    Path file = null;
    try {
      byte[] bytes;
      try (InputStream in = url.openStream()) {
        bytes = in.readAllBytes();
      }
      String hash = sha256(bytes);
      file = dir.resolve("pinget-" + hash.substring(0, 16)).resolve(fileName(platform));
      if (!Files.isRegularFile(file) || !sha256(Files.readAllBytes(file)).equals(hash)) {
        Files.createDirectories(file.getParent());
        Path partial = Files.createTempFile(file.getParent(), "partial-", ".dll");
        try {
          Files.write(partial, bytes);
          Files.move(partial, file, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
          Files.deleteIfExists(partial);
          // Another JVM moved the same bytes into place first (and may have it loaded).
          if (!Files.isRegularFile(file) || !sha256(Files.readAllBytes(file)).equals(hash)) {
            throw e;
          }
        }
      }
      return loadFile(file.toString(), "resource " + resource + " (kept as " + file + ")", tried);
    } catch (IOException | InvalidPathException | SecurityException e) {
      tried.add("resource " + url + " extracted to " + (file != null ? file : dir) + ": " + e);
      return false;
    }
  }

  private static String sha256(byte[] bytes) {
    try {
      StringBuilder hex = new StringBuilder();
      for (byte b : java.security.MessageDigest.getInstance("SHA-256").digest(bytes)) {
        hex.append(String.format("%02x", b));
      }
      return hex.toString();
    } catch (java.security.NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JDK has SHA-256", e);
    }
  }

  static String describe(String platform, List<String> packed, List<String> tried) {
    StringBuilder message =
        new StringBuilder(
                "could not load " + fileName(platform) + " for " + platform + " (os.name=")
            .append(System.getProperty("os.name"))
            .append(", os.arch=")
            .append(System.getProperty("os.arch"))
            .append("); this JAR has libraries for: ")
            .append(packed.isEmpty() ? "(no list in " + PLATFORMS_RESOURCE + ")" : packed)
            .append("; tried:");
    boolean glibc = false;
    boolean musl = false;
    for (int i = 0; i < tried.size(); i++) {
      String attempt = tried.get(i);
      message.append("\n  ").append(i + 1).append(". ").append(attempt);
      glibc |= attempt.matches("(?s).*version `GLIBC.*");
      musl |= attempt.matches("(?s).*(Error relocating|symbol not found).*");
    }
    if (glibc) {
      message.append("\n").append(GLIBC_HINT);
    }
    if (musl) {
      message.append("\n").append(MUSL_HINT);
    }
    // The floor of a library the JAR has for this platform, which then did not load.
    if (platform.startsWith("osx-") && packed.contains(platform)) {
      message.append("\n").append(MACOS_HINT);
    } else if (platform.startsWith("win-") && packed.contains(platform)) {
      message.append("\n").append(WINDOWS_HINT);
    }
    return message.toString();
  }
}
