// Copyright pinget authors. Licensed under the Apache License 2.0.
package io.pinget.bench;

import io.pinget.Options;
import io.pinget.ReadOptions;
import java.util.Locale;

/**
 * How a file-residency data set reads values that are not in its block cache, applied alike to
 * pinget and to rocksdbjni. DEFAULT is the file residency of every other benchmark (pread through
 * the OS page cache, 4 KiB blocks, a block cache of 1/16 of the data, fill_cache true); each other
 * profile changes one thing.
 */
enum FilePath {
  DEFAULT(false, false, true, 4096, 16),
  /** allow_mmap_reads: blocks are read in place from a memory map (F = 0, P = 1). */
  MMAP_READS(true, false, true, 4096, 16),
  /** use_direct_reads: O_DIRECT, around the OS page cache. */
  DIRECT_READS(false, true, true, 4096, 16),
  /** ReadOptions.fill_cache false: one-off reads that do not displace the cache (P = 1). */
  NO_FILL_CACHE(false, false, false, 4096, 16),
  /** 16 KiB blocks: fewer, larger reads, each bringing neighbours along (other SST files). */
  BLOCK_16K(false, false, true, 16384, 16),
  /** A block cache of 1/4 of the data instead of 1/16: more hits. */
  CACHE_QUARTER(false, false, true, 4096, 4);

  final boolean mmapReads;
  final boolean directReads;
  final boolean fillCache;
  final int blockSize;
  final int cacheDivisor;

  FilePath(
      boolean mmapReads, boolean directReads, boolean fillCache, int blockSize, int cacheDivisor) {
    this.mmapReads = mmapReads;
    this.directReads = directReads;
    this.fillCache = fillCache;
    this.blockSize = blockSize;
    this.cacheDivisor = cacheDivisor;
  }

  static FilePath of(String name) {
    return valueOf(name.toUpperCase(Locale.ROOT));
  }

  /** The name of the files' layout: profiles that write the same SST files share a data set. */
  String files() {
    return blockSize == 4096 ? "" : "-block" + blockSize;
  }

  Options apply(Options options) {
    return options.allowMmapReads(mmapReads).useDirectReads(directReads).blockSize(blockSize);
  }

  org.rocksdb.Options apply(org.rocksdb.Options options) {
    return options.setAllowMmapReads(mmapReads).setUseDirectReads(directReads);
  }

  ReadOptions readOptions() {
    return ReadOptions.DEFAULT.withFillCache(fillCache);
  }

  /** A new rocksdbjni ReadOptions; the caller closes it. */
  org.rocksdb.ReadOptions newRocksReadOptions() {
    return new org.rocksdb.ReadOptions().setFillCache(fillCache);
  }
}
