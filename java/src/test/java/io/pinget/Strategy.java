// Copyright pinget authors. Licensed under the Apache License 2.0.
package io.pinget;

/**
 * The ways to read a value, with their tokens and copy counts (docs/strategies.md, which a test
 * compares this enum with). P is RocksDB's own copy into a PinnableSlice: 0 when the value is
 * pinned in the block cache, 1 otherwise (memtable hit).
 */
public enum Strategy {
  /** {@link Store#stringCopy}: into a std::string, then a new byte[]. 2 copies, 1 array. */
  STRING_COPY("string_copy"),
  /** {@link Store#pinnableCopy}: into a PinnableSlice, then a new byte[]. P + 1, 1 array. */
  PINNABLE_COPY("pinnable_copy"),
  /** {@link Store#bufferCopy}: into a PinnableSlice, then the caller's byte[]. P + 1, 0. */
  BUFFER_COPY("buffer_copy"),
  /** {@link Store#directCopy}: as buffer_copy, into a direct ByteBuffer. P + 1, 0. */
  DIRECT_COPY("direct_copy"),
  /**
   * {@link PinnedView#get} (and {@link Store#pinnedValue}): a view of pinned memory. P copies, 0
   * arrays with a reused handle.
   */
  PINNED_VIEW("pinned_view");

  private final String token;

  Strategy(String token) {
    this.token = token;
  }

  /**
   * The token that names it in the design, the benchmarks and the report.
   *
   * @return "string_copy", "pinnable_copy", ...
   */
  public String token() {
    return token;
  }

  /**
   * Value copies per get into Java memory.
   *
   * @param p RocksDB's own copy: 0 for a value in the block cache, 1 otherwise
   * @return the copies per get
   */
  public int valueCopies(int p) {
    return switch (this) {
      case STRING_COPY -> 2;
      case PINNED_VIEW -> p;
      case PINNABLE_COPY, BUFFER_COPY, DIRECT_COPY -> p + 1;
    };
  }

  /**
   * Java arrays allocated per get.
   *
   * @return 1 for the strategies that return a new byte[], else 0
   */
  public int javaAllocations() {
    return switch (this) {
      case STRING_COPY, PINNABLE_COPY -> 1;
      case BUFFER_COPY, DIRECT_COPY, PINNED_VIEW -> 0;
    };
  }

  /**
   * The strategy of a token.
   *
   * @param token not null, as {@link #token()} gives it
   * @return the strategy
   * @throws IllegalArgumentException for an unknown token
   */
  public static Strategy fromToken(String token) {
    java.util.Objects.requireNonNull(token, "token");
    for (Strategy s : values()) {
      if (s.token.equals(token)) {
        return s;
      }
    }
    throw new IllegalArgumentException("unknown strategy: " + token);
  }
}
