// Copyright pinget authors. Licensed under the Apache License 2.0.
package io.pinget;

/**
 * The compression of new SST blocks ({@link Options#compression}); ordinals match
 * pinget::Compression. Blocks of every codec are read whatever this says.
 */
public enum Compression {
  /** Blocks stored as they are. */
  NONE,
  /** Snappy (pinget's default). */
  SNAPPY,
  /** LZ4 (RocksDB 11's default). */
  LZ4,
  /** Zstandard. */
  ZSTD,
  /** zlib (deflate). */
  ZLIB,
  /** bzip2. */
  BZIP2
}
