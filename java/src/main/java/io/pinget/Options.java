// Copyright pinget authors. Licensed under the Apache License 2.0.
package io.pinget;

import java.util.List;
import java.util.Objects;

/**
 * Options for {@link Store#open}, mirroring pinget::Options; copied when the store opens. Setters
 * refuse negative sizes at once; the ranges RocksDB can honour are checked when the store opens
 * (IllegalArgumentException naming the option and the range allowed). Not thread-safe.
 */
public final class Options {
  boolean createIfMissing = true;
  boolean errorIfExists;
  long blockCacheBytes = 64L << 20;
  long blockSize = 4096;
  long writeBufferBytes = 64L << 20;
  Compression compression = Compression.SNAPPY;
  List<String> columnFamilies = List.of();

  /**
   * The defaults: create if missing, a 64 MiB block cache, 4 KiB blocks, a 64 MiB write buffer,
   * Snappy, no column family but "default".
   */
  public Options() {}

  /**
   * Whether a missing database is created.
   *
   * @param createIfMissing default true
   * @return this
   */
  public Options createIfMissing(boolean createIfMissing) {
    this.createIfMissing = createIfMissing;
    return this;
  }

  /**
   * Whether opening an existing database fails.
   *
   * @param errorIfExists default false
   * @return this
   */
  public Options errorIfExists(boolean errorIfExists) {
    this.errorIfExists = errorIfExists;
    return this;
  }

  /**
   * The shared LRU block cache's size.
   *
   * @param bytes 0 (no cache: every read copies, P = 1) to 1 PiB; default 64 MiB
   * @return this
   * @throws IllegalArgumentException if negative
   */
  public Options blockCacheBytes(long bytes) {
    this.blockCacheBytes = nonNegative(bytes, "blockCacheBytes");
    return this;
  }

  /**
   * The size of a data block.
   *
   * @param bytes 1 to 4 GiB - 1; default 4096
   * @return this
   * @throws IllegalArgumentException if negative
   */
  public Options blockSize(long bytes) {
    this.blockSize = nonNegative(bytes, "blockSize");
    return this;
  }

  /**
   * The memtable's size before it is flushed.
   *
   * @param bytes 64 KiB to 64 GiB (RocksDB's range); default 64 MiB
   * @return this
   * @throws IllegalArgumentException if negative
   */
  public Options writeBufferBytes(long bytes) {
    this.writeBufferBytes = nonNegative(bytes, "writeBufferBytes");
    return this;
  }

  /**
   * The compression of new SST blocks (any codec is read).
   *
   * @param compression not null; default SNAPPY
   * @return this
   */
  public Options compression(Compression compression) {
    this.compression = Objects.requireNonNull(compression, "compression");
    return this;
  }

  /**
   * Column families besides "default", created if missing; resolve them with {@link
   * Store#columnFamily}. Families that exist on disk are opened whether named or not.
   *
   * @param names not null, each not null, not empty, not "default", valid UTF-16, and distinct
   *     (checked when the store opens)
   * @return this
   */
  public Options columnFamilies(String... names) {
    Objects.requireNonNull(names, "names");
    for (int i = 0; i < names.length; i++) {
      Objects.requireNonNull(names[i], "names[" + i + "]");
    }
    this.columnFamilies = List.of(names);
    return this;
  }

  private static long nonNegative(long value, String option) {
    if (value < 0) {
      throw new IllegalArgumentException(option + " is negative: " + value);
    }
    return value;
  }
}
