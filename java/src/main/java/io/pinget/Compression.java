// Copyright pinget authors. Licensed under the Apache License 2.0.
package io.pinget;

/** Block compression; ordinals match pinget::Compression. */
public enum Compression {
  NONE,
  SNAPPY,
  LZ4,
  ZSTD,
  ZLIB,
  BZIP2
}
