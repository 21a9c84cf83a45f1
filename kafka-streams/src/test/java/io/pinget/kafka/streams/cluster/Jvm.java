// Copyright pinget authors. Licensed under the Apache License 2.0.
package io.pinget.kafka.streams.cluster;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;

/** Child JVMs on the test's class path (written by the build: target/test-classpath.txt). */
final class Jvm {
  private Jvm() {}

  static String classPath() {
    Path target = Paths.get("target");
    try {
      String deps = Files.readString(target.resolve("test-classpath.txt")).trim();
      return target.resolve("test-classes").toAbsolutePath()
          + java.io.File.pathSeparator
          + target.resolve("classes").toAbsolutePath()
          + java.io.File.pathSeparator
          + deps;
    } catch (IOException e) {
      throw new UncheckedIOException("no target/test-classpath.txt: run through Maven", e);
    }
  }

  /** Starts java with these arguments (heap, then main class and its arguments), output to log. */
  static Process start(Path log, List<String> jvmArgs, String main, String... args)
      throws IOException {
    List<String> cmd = new ArrayList<>();
    cmd.add(Paths.get(System.getProperty("java.home"), "bin", "java").toString());
    cmd.addAll(jvmArgs);
    cmd.add("-cp");
    cmd.add(classPath());
    cmd.add(main);
    cmd.addAll(List.of(args));
    return new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
  }
}
