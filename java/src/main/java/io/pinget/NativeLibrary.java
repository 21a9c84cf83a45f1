// Copyright pinget authors. Licensed under the Apache License 2.0.
package io.pinget;

import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Loads libpinget_jni.so once. The system property {@value #PATH_PROPERTY} (a file) wins; otherwise
 * the library is extracted from this JAR to a temporary file in {@value #TMPDIR_PROPERTY} (default:
 * java.io.tmpdir), loaded and deleted; otherwise it is looked up on java.library.path. A failure
 * names every place tried and why.
 */
final class NativeLibrary {
  static final String PATH_PROPERTY = "pinget.library.path";
  static final String TMPDIR_PROPERTY = "pinget.library.tmpdir";
  static final String NAME = "pinget_jni";
  // The library embeds RocksDB and its codecs; from the machine it needs only the C and C++
  // runtimes, at least as new as those it was built with (Debian 12).
  static final String RUNTIME_HINT =
      "lib" + NAME + ".so needs glibc >= 2.34 and the libstdc++ of GCC >= 12 (GLIBCXX_3.4.30)";

  private NativeLibrary() {}

  private static final class Holder {
    static final String FAILURE = tryLoad();
  }

  /** Loads the library if not yet loaded; throws UnsatisfiedLinkError if it cannot. */
  static void load() {
    String failure = Holder.FAILURE;
    if (failure != null) {
      throw new UnsatisfiedLinkError(failure);
    }
  }

  static String platform() {
    String os = System.getProperty("os.name", "").toLowerCase(Locale.ROOT);
    String arch = System.getProperty("os.arch", "").toLowerCase(Locale.ROOT);
    if (arch.equals("amd64") || arch.equals("x86_64")) {
      arch = "x86_64";
    }
    return (os.startsWith("linux") ? "linux" : os.replace(' ', '_')) + "-" + arch;
  }

  static String resourceName() {
    return "META-INF/native/" + platform() + "/lib" + NAME + ".so";
  }

  /** Returns null once loaded, else the error message. */
  private static String tryLoad() {
    List<String> tried = new ArrayList<>();
    String explicit = System.getProperty(PATH_PROPERTY);
    if (explicit != null && !explicit.isEmpty()) {
      if (loadFile(explicit, PATH_PROPERTY + "=" + explicit, tried)) {
        return null;
      }
      return describe(tried);
    }
    if (loadFromJar(tried)) {
      return null;
    }
    try {
      System.loadLibrary(NAME);
      return null;
    } catch (UnsatisfiedLinkError | SecurityException e) {
      tried.add("java.library.path=" + System.getProperty("java.library.path") + ": " + e);
    }
    return describe(tried);
  }

  private static boolean loadFile(String file, String what, List<String> tried) {
    try {
      System.load(Paths.get(file).toAbsolutePath().toString());
      return true;
    } catch (UnsatisfiedLinkError | SecurityException | InvalidPathException e) {
      tried.add(what + ": " + e);
      return false;
    }
  }

  private static boolean loadFromJar(List<String> tried) {
    String resource = resourceName();
    ClassLoader loader = NativeLibrary.class.getClassLoader();
    URL url =
        loader != null ? loader.getResource(resource) : ClassLoader.getSystemResource(resource);
    if (url == null) {
      tried.add("resource " + resource + ": not on the class path");
      return false;
    }
    String dirName = System.getProperty(TMPDIR_PROPERTY, System.getProperty("java.io.tmpdir"));
    Path file = null;
    try {
      Path dir = Paths.get(dirName);
      Files.createDirectories(dir);
      file = Files.createTempFile(dir, "lib" + NAME + "-", ".so");
      try (InputStream in = url.openStream()) {
        Files.copy(in, file, StandardCopyOption.REPLACE_EXISTING);
      }
      return loadFile(file.toString(), "resource " + url + " extracted to " + file, tried);
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

  static String describe(List<String> tried) {
    StringBuilder message = new StringBuilder("could not load lib" + NAME + ".so; tried:");
    boolean runtime = false;
    for (int i = 0; i < tried.size(); i++) {
      message.append("\n  ").append(i + 1).append(". ").append(tried.get(i));
      runtime |= tried.get(i).matches("(?s).*version `GLIBC(XX)?_.*");
    }
    if (runtime) {
      message.append("\n").append(RUNTIME_HINT);
    }
    return message.toString();
  }
}
