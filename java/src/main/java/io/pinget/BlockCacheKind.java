// Copyright pinget authors. Licensed under the Apache License 2.0.
package io.pinget;

/**
 * The block cache's implementation ({@link Options#blockCacheKind}); ordinals match
 * pinget::BlockCacheKind.
 */
public enum BlockCacheKind {
  /** RocksDB's LRUCache (the default): least recently used blocks go first. */
  LRU,
  /**
   * RocksDB's lock-free HyperClockCache: lookups do not contend on a shard's mutex as LRU's do when
   * many threads read; its CLOCK eviction keeps a slightly different set of blocks.
   */
  HYPER_CLOCK
}
