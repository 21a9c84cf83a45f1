// Copyright pinget authors. Licensed under the Apache License 2.0.
package io.pinget;

import io.pinget.internal.Checks;
import java.util.List;
import java.util.Objects;

/**
 * Options for {@link Store#open} (and the FFM binding's open), mirroring pinget::Options; copied
 * when the store opens. Setters refuse negative sizes at once; the ranges RocksDB can honour are
 * checked when the store opens (IllegalArgumentException naming the option and the range allowed).
 * They cross to native code as {@link #toString()}'s text, the one format every binding uses. Not
 * thread-safe.
 */
public final class Options {
  boolean createIfMissing = true;
  boolean errorIfExists;
  long blockCacheBytes = 64L << 20;
  BlockCacheKind blockCacheKind = BlockCacheKind.LRU;
  boolean cacheIndexAndFilterBlocks;
  boolean pinL0FilterAndIndexBlocksInCache;
  long blockSize = 4096;
  boolean dataBlockHashIndex;
  boolean allowMmapReads;
  boolean useDirectReads;
  double bloomBitsPerKey;
  boolean wholeKeyFiltering = true;
  long writeBufferBytes = 64L << 20;
  int maxOpenFiles = -1;
  Compression compression = Compression.SNAPPY;
  List<String> columnFamilies = List.of();

  /**
   * The defaults: create if missing, a 64 MiB LRU block cache, 4 KiB blocks, a 64 MiB write buffer,
   * Snappy, no column family but "default"; for point lookups, RocksDB's defaults (no Bloom filter,
   * no data-block hash index, index and filter blocks held outside the cache).
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
   * The shared block cache's size.
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
   * The block cache's implementation. {@link BlockCacheKind#HYPER_CLOCK} needs a block cache
   * (checked when the store opens).
   *
   * @param kind not null; default LRU
   * @return this
   */
  public Options blockCacheKind(BlockCacheKind kind) {
    this.blockCacheKind = Objects.requireNonNull(kind, "blockCacheKind");
    return this;
  }

  /**
   * Whether index and filter blocks live in the block cache, within its capacity, instead of in
   * each open SST file's memory, outside any limit; an evicted one is read again from the file.
   * Needs a block cache (checked when the store opens).
   *
   * @param cache default false (RocksDB's default)
   * @return this
   */
  public Options cacheIndexAndFilterBlocks(boolean cache) {
    this.cacheIndexAndFilterBlocks = cache;
    return this;
  }

  /**
   * Whether the index and filter blocks of flushed (level-0) files stay pinned in the cache while
   * their file is open, so lookups in the newest files never read them again; they take cache
   * capacity that cannot be evicted. Needs {@link #cacheIndexAndFilterBlocks} (checked when the
   * store opens).
   *
   * @param pin default false (RocksDB's default)
   * @return this
   */
  public Options pinL0FilterAndIndexBlocksInCache(boolean pin) {
    this.pinL0FilterAndIndexBlocksInCache = pin;
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
   * Whether SST files are read through a memory map instead of pread. A block that is not in the
   * block cache is then read in place, with no copy into RocksDB's memory (no file read counted in
   * {@link CopyStats#fileReads()}), but its value cannot be pinned: RocksDB copies it out of the
   * mapping (P = 1) and does not cache the block. Cannot be combined with {@link
   * #useDirectReads(boolean)} (checked when the store opens).
   *
   * @param mmapReads default false
   * @return this
   */
  public Options allowMmapReads(boolean mmapReads) {
    this.allowMmapReads = mmapReads;
    return this;
  }

  /**
   * Whether SST files are read with O_DIRECT, bypassing the operating system's page cache: every
   * block that is not in the block cache comes from the device. The open fails (a {@link
   * PingetException}) where the file system lacks O_DIRECT, such as tmpfs. Cannot be combined with
   * {@link #allowMmapReads(boolean)}.
   *
   * @param directReads default false
   * @return this
   */
  public Options useDirectReads(boolean directReads) {
    this.useDirectReads = directReads;
    return this;
  }

  /**
   * Whether each data block gets a hash index beside its binary-search index: a point lookup finds
   * its key's place in the block with one hash probe instead of a binary search. Costs about 1.3
   * bytes per key in every data block, on disk and in the cache.
   *
   * @param hashIndex default false (RocksDB's default)
   * @return this
   */
  public Options dataBlockHashIndex(boolean hashIndex) {
    this.dataBlockHashIndex = hashIndex;
    return this;
  }

  /**
   * A Bloom filter per SST file with this many bits per key: a lookup skips files that lack its key
   * without reading their data blocks (10 bits give about 1% false positives). Costs bitsPerKey / 8
   * bytes per key in memory (or the cache) and on disk, and hashing at flush time.
   *
   * @param bitsPerKey 0 (no filter) or 1 to 100 (checked when the store opens); default 0
   * @return this
   */
  public Options bloomBitsPerKey(double bitsPerKey) {
    this.bloomBitsPerKey = bitsPerKey;
    return this;
  }

  /**
   * Whether the Bloom filter holds whole keys. pinget sets no prefix extractor, so whole keys are
   * all a filter can hold: false with a Bloom filter would leave it empty, and is refused when the
   * store opens.
   *
   * @param wholeKeys default true (RocksDB's default)
   * @return this
   */
  public Options wholeKeyFiltering(boolean wholeKeys) {
    this.wholeKeyFiltering = wholeKeys;
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
   * How many SST files RocksDB keeps open, each with its table reader (and, unless {@link
   * #cacheIndexAndFilterBlocks}, its index and filter blocks, outside the block cache). A lookup in
   * a file that was closed opens it again: it reads the file's footer, index and filter first.
   *
   * @param files -1 (every file stays open: RocksDB's default) or at least 20 (checked when the
   *     store opens); default -1
   * @return this
   */
  public Options maxOpenFiles(int files) {
    this.maxOpenFiles = files;
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

  /**
   * The column families named besides "default".
   *
   * @return the names, unmodifiable
   */
  public List<String> columnFamilies() {
    return columnFamilies;
  }

  /** The column family names in UTF-8; an unpaired surrogate is refused by name. */
  byte[][] columnFamilyNames() {
    byte[][] names = new byte[columnFamilies.size()][];
    for (int i = 0; i < names.length; i++) {
      names[i] = Checks.utf8(columnFamilies.get(i), "columnFamilies[" + i + "]");
    }
    return names;
  }

  /**
   * Every option but the column families, as the text pinget's native code reads ({@code
   * pinget::ParseOptions}, C's {@code pinget_options_set}): "name=value" pairs joined by ';', named
   * as pinget::Options' fields.
   *
   * @return the options as text
   */
  @Override
  public String toString() {
    return "create_if_missing="
        + createIfMissing
        + ";error_if_exists="
        + errorIfExists
        + ";block_cache_bytes="
        + blockCacheBytes
        + ";block_cache_kind="
        + blockCacheKind.name().toLowerCase(java.util.Locale.ROOT)
        + ";cache_index_and_filter_blocks="
        + cacheIndexAndFilterBlocks
        + ";pin_l0_filter_and_index_blocks_in_cache="
        + pinL0FilterAndIndexBlocksInCache
        + ";block_size="
        + blockSize
        + ";allow_mmap_reads="
        + allowMmapReads
        + ";use_direct_reads="
        + useDirectReads
        + ";data_block_hash_index="
        + dataBlockHashIndex
        + ";bloom_bits_per_key="
        + number(bloomBitsPerKey)
        + ";whole_key_filtering="
        + wholeKeyFiltering
        + ";write_buffer_bytes="
        + writeBufferBytes
        + ";max_open_files="
        + maxOpenFiles
        + ";compression="
        + compression.name().toLowerCase(java.util.Locale.ROOT);
  }

  /** A double as C's from_chars reads it: 10.5, 1.0E-5 as 1.0e-5, nan, inf, -inf. */
  private static String number(double d) {
    if (Double.isNaN(d)) {
      return "nan";
    }
    if (Double.isInfinite(d)) {
      return d > 0 ? "inf" : "-inf";
    }
    return Double.toString(d).replace('E', 'e');
  }

  private static long nonNegative(long value, String option) {
    if (value < 0) {
      throw new IllegalArgumentException(option + " is negative: " + value);
    }
    return value;
  }
}
