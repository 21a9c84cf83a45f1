// Copyright pinget authors. Licensed under the Apache License 2.0.
package io.pinget;

/**
 * A column family of an open database, resolved once by name ({@link Store#columnFamily}, {@code
 * RocksJavaReader.columnFamily}; {@code FfmStore.columnFamily} is its Store's) and passed the same
 * way to reads ({@link ReadOptions#withColumnFamily}) and writes ({@link
 * WriteOptions#withColumnFamily}, {@link WriteBatch#put(ColumnFamily, byte[], byte[])}). Using it
 * with another store or reader throws IllegalArgumentException; {@link #DEFAULT} works with every
 * one. Immutable and thread-safe.
 */
public final class ColumnFamily {
  /** The "default" column family of any store. */
  public static final ColumnFamily DEFAULT = new ColumnFamily((Void) null, 0, "default");

  private final Object owner; // null for DEFAULT
  private final int id;
  private final String name;

  /**
   * Column family id of owner, named name. Reads and writes through anything but owner refuse it;
   * an id owner does not have is refused by the database (IllegalArgumentException).
   *
   * @param owner the store or reader it belongs to; not null
   * @param id its id in owner's database, more than 0 ("default" is {@link #DEFAULT})
   * @param name not null
   */
  public ColumnFamily(Object owner, int id, String name) {
    this.owner = java.util.Objects.requireNonNull(owner, "owner");
    if (id <= 0) {
      throw new IllegalArgumentException("id is " + id + ": the default column family is DEFAULT");
    }
    this.id = id;
    this.name = java.util.Objects.requireNonNull(name, "name");
  }

  private ColumnFamily(Void none, int id, String name) {
    this.owner = null;
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

  /**
   * Its id, for a binding that owner is: the id in owner's database.
   *
   * @param owner the store or reader about to use it
   * @return the id (0 for {@link #DEFAULT})
   * @throws IllegalArgumentException if it belongs to another store or reader
   */
  public int idIn(Object owner) {
    if (this.owner != null && this.owner != owner) {
      throw new IllegalArgumentException("column family " + name + " belongs to another store");
    }
    return id;
  }

  /** Its id, unchecked: for a caller that has checked it with {@link #idIn}. */
  int id() {
    return id;
  }

  /**
   * The store or reader it belongs to.
   *
   * @return its owner; null for {@link #DEFAULT}, which belongs to every one
   */
  public Object owner() {
    return owner;
  }

  @Override
  public String toString() {
    return "ColumnFamily(" + name + ")";
  }
}
