// Copyright pinget authors. Licensed under the Apache License 2.0.
package io.pinget.bench;

import io.pinget.Store;
import org.rocksdb.RocksDB;

/**
 * Prints, as JSON, the RocksDB release inside the pinget JAR and the one inside rocksdbjni, as
 * loaded by this JVM: bench/run records them and the report's header shows them.
 */
public final class Versions {
  private Versions() {}

  public static void main(String[] args) {
    RocksDB.loadLibrary();
    System.out.printf(
        "{\"pinget_rocksdb\": \"%s\", \"rocksdbjni\": \"%s\"}%n",
        Store.rocksdbVersion(), RocksDB.rocksdbVersion());
  }
}
