// Copyright pinget authors. Licensed under the Apache License 2.0.
package io.pinget.bench;

import io.pinget.BlockCacheKind;
import io.pinget.Options;
import java.util.Locale;
import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.BloomFilter;
import org.rocksdb.Cache;
import org.rocksdb.DataBlockIndexType;
import org.rocksdb.HyperClockCache;
import org.rocksdb.LRUCache;

/**
 * Point-lookup settings a data set is opened with, applied alike to pinget's Options and to
 * rocksdbjni's table config so that the two stay comparable. DEFAULT is RocksDB's defaults (and
 * every other benchmark's); each other profile changes one setting, POINT_LOOKUP combines the ones
 * that do not put the index in the cache.
 */
enum Lookup {
  DEFAULT(false, 0, false, false),
  /** The data-block hash index: a hash probe inside a data block instead of a binary search. */
  HASH_INDEX(true, 0, false, false),
  /** A whole-key Bloom filter of 10 bits per key: a miss mostly skips the data block. */
  BLOOM(false, 10, false, false),
  /** HyperClockCache instead of the LRU cache: lock-free lookups. */
  HYPER_CLOCK(false, 0, true, false),
  /** Index and filter blocks in the block cache, with L0's pinned (RocksDB's memory-bound mode). */
  CACHED_INDEX(false, 10, false, true),
  POINT_LOOKUP(true, 10, true, false);

  private final boolean hashIndex;
  private final double bloomBits;
  private final boolean hyperClock;
  private final boolean cachedIndex;

  Lookup(boolean hashIndex, double bloomBits, boolean hyperClock, boolean cachedIndex) {
    this.hashIndex = hashIndex;
    this.bloomBits = bloomBits;
    this.hyperClock = hyperClock;
    this.cachedIndex = cachedIndex;
  }

  static Lookup of(String name) {
    return valueOf(name.toUpperCase(Locale.ROOT));
  }

  /** The name of the files' layout: profiles that write the same SST files share a data set. */
  String files() {
    return (hashIndex ? "hash" : "binary") + "-bloom" + (int) bloomBits;
  }

  Options apply(Options options) {
    return options
        .dataBlockHashIndex(hashIndex)
        .bloomBitsPerKey(bloomBits)
        .blockCacheKind(hyperClock ? BlockCacheKind.HYPER_CLOCK : BlockCacheKind.LRU)
        .cacheIndexAndFilterBlocks(cachedIndex)
        .pinL0FilterAndIndexBlocksInCache(cachedIndex);
  }

  Cache newCache(long bytes) {
    return hyperClock ? new HyperClockCache(bytes, 0, -1, false) : new LRUCache(bytes);
  }

  BlockBasedTableConfig apply(BlockBasedTableConfig table) {
    if (hashIndex) {
      table.setDataBlockIndexType(DataBlockIndexType.kDataBlockBinaryAndHash);
    }
    if (bloomBits > 0) {
      table.setFilterPolicy(new BloomFilter(bloomBits, false));
    }
    return table
        .setCacheIndexAndFilterBlocks(cachedIndex)
        .setPinL0FilterAndIndexBlocksInCache(cachedIndex);
  }
}
