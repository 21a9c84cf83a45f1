// Copyright pinget authors. Licensed under the Apache License 2.0.
package io.pinget;

import java.util.List;
import java.util.Objects;

/** Options for {@link Store#open}, mirroring pinget::Options. Copied when the store opens. */
public final class Options {
  boolean createIfMissing = true;
  boolean errorIfExists;
  long blockCacheBytes = 64L << 20;
  long blockSize = 4096;
  long writeBufferBytes = 64L << 20;
  Compression compression = Compression.SNAPPY;
  List<String> columnFamilies = List.of();

  public Options createIfMissing(boolean createIfMissing) {
    this.createIfMissing = createIfMissing;
    return this;
  }

  public Options errorIfExists(boolean errorIfExists) {
    this.errorIfExists = errorIfExists;
    return this;
  }

  /** Shared LRU block cache size; 0 disables the cache (every read then copies: P = 1). */
  public Options blockCacheBytes(long bytes) {
    this.blockCacheBytes = nonNegative(bytes);
    return this;
  }

  public Options blockSize(long bytes) {
    this.blockSize = nonNegative(bytes);
    return this;
  }

  public Options writeBufferBytes(long bytes) {
    this.writeBufferBytes = nonNegative(bytes);
    return this;
  }

  /** Open fails with NOT_SUPPORTED if this RocksDB build lacks the codec. */
  public Options compression(Compression compression) {
    this.compression = Objects.requireNonNull(compression, "compression");
    return this;
  }

  /**
   * Column families besides "default", created if missing; their ids are 1, 2, ... in this order
   * (see {@link Store#columnFamilyId}).
   */
  public Options columnFamilies(String... names) {
    this.columnFamilies = List.of(names);
    return this;
  }

  private static long nonNegative(long value) {
    if (value < 0) {
      throw new IllegalArgumentException("negative size: " + value);
    }
    return value;
  }
}
