// Copyright pinget authors. Licensed under the Apache License 2.0.
package io.pinget.kafka.streams.cluster;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.common.Uuid;

/**
 * A single-node KRaft Kafka (broker and controller in one JVM, kafka_2.13's own {@code
 * kafka.Kafka}) on 127.0.0.1, with its storage formatted in a fresh folder; stopped on close.
 */
final class Broker {
  private final Process process;
  private final int port;
  final Path log;

  private Broker(Process process, int port, Path log) {
    this.process = process;
    this.port = port;
    this.log = log;
  }

  String bootstrap() {
    return "127.0.0.1:" + port;
  }

  static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
      return s.getLocalPort();
    }
  }

  static Broker start(Path dir) throws Exception {
    int port = freePort();
    int controller = freePort();
    Path props = dir.resolve("server.properties");
    Files.writeString(
        props,
        String.join(
            "\n",
            "process.roles=broker,controller",
            "node.id=1",
            "controller.quorum.bootstrap.servers=127.0.0.1:" + controller,
            "listeners=PLAINTEXT://127.0.0.1:" + port + ",CONTROLLER://127.0.0.1:" + controller,
            "advertised.listeners=PLAINTEXT://127.0.0.1:" + port,
            "controller.listener.names=CONTROLLER",
            "inter.broker.listener.name=PLAINTEXT",
            "listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT",
            "log.dirs=" + dir.resolve("logs"),
            "num.partitions=1",
            "offsets.topic.replication.factor=1",
            "offsets.topic.num.partitions=4",
            "transaction.state.log.replication.factor=1",
            "transaction.state.log.min.isr=1",
            "transaction.state.log.num.partitions=4",
            "group.initial.rebalance.delay.ms=0",
            "auto.create.topics.enable=false",
            ""));
    List<String> heap = List.of("-Xmx512m", "-XX:+UseSerialGC");
    Process format =
        Jvm.start(
            dir.resolve("format.log"),
            heap,
            "kafka.tools.StorageTool",
            "format",
            "--standalone",
            "-t",
            Uuid.randomUuid().toString(),
            "-c",
            props.toString());
    if (!format.waitFor(120, TimeUnit.SECONDS) || format.exitValue() != 0) {
      format.destroyForcibly();
      throw new IllegalStateException(
          "formatting the broker's storage failed: " + Files.readString(dir.resolve("format.log")));
    }
    Path log = dir.resolve("broker.log");
    Broker b = new Broker(Jvm.start(log, heap, "kafka.Kafka", props.toString()), port, log);
    long deadline = System.nanoTime() + Duration.ofSeconds(120).toNanos();
    while (!b.listening()) {
      if (!b.process.isAlive() || System.nanoTime() > deadline) {
        b.close();
        throw new IllegalStateException("the broker did not start: " + Files.readString(log));
      }
      Thread.sleep(200);
    }
    return b;
  }

  private boolean listening() {
    try (Socket s = new Socket()) {
      s.connect(new InetSocketAddress("127.0.0.1", port), 200);
      return true;
    } catch (IOException e) {
      return false;
    }
  }

  void close() throws InterruptedException {
    process.destroy();
    if (!process.waitFor(30, TimeUnit.SECONDS)) {
      process.destroyForcibly().waitFor();
    }
  }
}
