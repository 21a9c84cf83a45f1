// Copyright pinget authors. Licensed under the Apache License 2.0.
package io.pinget.ffm;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;

import io.pinget.Compression;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * Options for {@link FfmStore#open(java.nio.file.Path, FfmOptions)}: the settings of pinget's
 * {@code Options} that this binding passes on, with the same names and RocksDB's defaults (as
 * pinget's). Checked when the store opens: a bad value is an IllegalArgumentException naming it.
 * Not thread-safe.
 */
public final class FfmOptions {
  private Boolean createIfMissing;
  private Boolean allowMmapReads;
  private Long blockCacheBytes;
  private Long blockSize;
  private Long writeBufferBytes;
  private Compression compression;
  private Double bloomBitsPerKey;
  private String[] columnFamilies = new String[0];

  /** pinget's defaults. */
  public FfmOptions() {}

  /**
   * Whether a missing database is created (default true).
   *
   * @param create whether to create
   * @return this
   */
  public FfmOptions createIfMissing(boolean create) {
    createIfMissing = create;
    return this;
  }

  /**
   * SST files are read through a memory map: no read into memory (F = 0), but values are copied out
   * (P = 1) and blocks are not cached.
   *
   * @param mmap whether to map
   * @return this
   */
  public FfmOptions allowMmapReads(boolean mmap) {
    allowMmapReads = mmap;
    return this;
  }

  /**
   * The block cache's capacity; 0: no cache (default 64 MiB).
   *
   * @param bytes capacity
   * @return this
   */
  public FfmOptions blockCacheBytes(long bytes) {
    blockCacheBytes = bytes;
    return this;
  }

  /**
   * The SST block size (default 4 KiB).
   *
   * @param bytes size
   * @return this
   */
  public FfmOptions blockSize(long bytes) {
    blockSize = bytes;
    return this;
  }

  /**
   * The memtable's size before a flush (default 64 MiB).
   *
   * @param bytes size
   * @return this
   */
  public FfmOptions writeBufferBytes(long bytes) {
    writeBufferBytes = bytes;
    return this;
  }

  /**
   * The compression of new blocks (default Snappy).
   *
   * @param compression not null
   * @return this
   */
  public FfmOptions compression(Compression compression) {
    this.compression = Objects.requireNonNull(compression, "compression");
    return this;
  }

  /**
   * A Bloom filter of this many bits per key; 0: none (the default).
   *
   * @param bits 0, or 1 to 100
   * @return this
   */
  public FfmOptions bloomBitsPerKey(double bits) {
    bloomBitsPerKey = bits;
    return this;
  }

  /**
   * Column families besides "default", created if missing; their ids are 1, 2, ... in this order
   * ({@link FfmStore#columnFamilyId}).
   *
   * @param names not null, no name null
   * @return this
   */
  public FfmOptions columnFamilies(String... names) {
    String[] copy = names.clone();
    for (String n : copy) {
      Objects.requireNonNull(n, "names[i]");
    }
    columnFamilies = copy;
    return this;
  }

  /** Sets what was given on a C pinget_options. */
  void applyTo(MemorySegment options, MemorySegment message) throws Throwable {
    try (Arena arena = Arena.ofConfined()) {
      for (String name : columnFamilies) {
        byte[] utf8 = name.getBytes(StandardCharsets.UTF_8);
        MemorySegment n = arena.allocate(Math.max(1, utf8.length));
        MemorySegment.copy(utf8, 0, n, JAVA_BYTE, 0, utf8.length);
        Native.check(
            (int)
                Native.OPTIONS_ADD_COLUMN_FAMILY.invokeExact(
                    options, n, (long) utf8.length, message),
            message);
      }
    }
    if (createIfMissing != null) {
      Native.check(
          (int)
              Native.SET_BOOL_CREATE_IF_MISSING.invokeExact(
                  options, createIfMissing ? 1 : 0, message),
          message);
    }
    if (allowMmapReads != null) {
      Native.check(
          (int)
              Native.SET_BOOL_ALLOW_MMAP_READS.invokeExact(
                  options, allowMmapReads ? 1 : 0, message),
          message);
    }
    if (blockCacheBytes != null) {
      Native.check(
          (int)
              Native.SET_SIZE_BLOCK_CACHE_BYTES.invokeExact(
                  options, blockCacheBytes.longValue(), message),
          message);
    }
    if (blockSize != null) {
      Native.check(
          (int) Native.SET_SIZE_BLOCK_SIZE.invokeExact(options, blockSize.longValue(), message),
          message);
    }
    if (writeBufferBytes != null) {
      Native.check(
          (int)
              Native.SET_SIZE_WRITE_BUFFER_BYTES.invokeExact(
                  options, writeBufferBytes.longValue(), message),
          message);
    }
    if (compression != null) {
      // Compression's ordinals are pinget::Compression's values.
      Native.check(
          (int) Native.SET_INT_COMPRESSION.invokeExact(options, compression.ordinal(), message),
          message);
    }
    if (bloomBitsPerKey != null) {
      Native.check(
          (int)
              Native.SET_DOUBLE_BLOOM_BITS_PER_KEY.invokeExact(
                  options, bloomBitsPerKey.doubleValue(), message),
          message);
    }
  }
}
