// Copyright pinget authors. Licensed under the Apache License 2.0.
package io.pinget;

/**
 * A column family of an open {@link Store}, resolved once by name ({@link Store#columnFamily}) and
 * passed the same way to reads ({@link ReadOptions#withColumnFamily}) and writes ({@link
 * WriteOptions#withColumnFamily}, {@link WriteBatch#put(ColumnFamily, byte[], byte[])}). Using it
 * with another store throws IllegalArgumentException; {@link #DEFAULT} works with every store.
 * Immutable and thread-safe.
 */
public final class ColumnFamily {
  /** The "default" column family of any store. */
  public static final ColumnFamily DEFAULT = new ColumnFamily(null, 0, "default");

  private final Store store; // null for DEFAULT
  private final int id;
  private final String name;

  ColumnFamily(Store store, int id, String name) {
    this.store = store;
    this.id = id;
    this.name = name;
  }

  /**
   * The name it was resolved by.
   *
   * @return the column family's name
   */
  public String name() {
    return name;
  }

  /** The store it belongs to; null for {@link #DEFAULT}. */
  Store store() {
    return store;
  }

  /** Its id in store (pinget::Store's), checked to be store's. */
  int idIn(Store store) {
    if (this.store != null && this.store != store) {
      throw new IllegalArgumentException("column family " + name + " belongs to another store");
    }
    return id;
  }

  @Override
  public String toString() {
    return "ColumnFamily(" + name + ")";
  }
}
