// Copyright pinget authors. Licensed under the Apache License 2.0.
package io.pinget.internal;

import io.pinget.ReadOptions;
import io.pinget.Store;

/**
 * What a binding over a borrowed {@link Store} (the FFM binding, through the C API on {@link
 * Store#nativeHandle()}) needs of io.pinget's package-private state: one read's options resolved as
 * the JNI API resolves them. Installed once, by Store's class initialiser.
 */
public abstract class StoreAccess {
  private static volatile StoreAccess installed;

  /** For io.pinget.Store only. */
  protected StoreAccess() {}

  /**
   * Called once, by io.pinget.Store's class initialiser.
   *
   * @param access not null
   * @throws IllegalStateException if already installed, or called from elsewhere
   */
  public static void install(StoreAccess access) {
    Class<?> caller =
        StackWalker.getInstance(StackWalker.Option.RETAIN_CLASS_REFERENCE).getCallerClass();
    if (installed != null || caller != Store.class) {
      throw new IllegalStateException("StoreAccess is io.pinget.Store's to install, once");
    }
    installed = access;
  }

  /**
   * The one io.pinget installed.
   *
   * @return it, never null
   */
  public static StoreAccess get() {
    Store.rocksdbVersion(); // initialises Store, which installs it
    return installed;
  }

  /**
   * Whether store reads a database another library opened (RocksJavaReader's): its calls check that
   * library's objects first, which a binding over the store's handle cannot do.
   *
   * @param store not null
   * @return true for a borrowed database
   */
  public abstract boolean borrowsItsDatabase(Store store);

  /**
   * Begins one read of options through store: checks its column family and snapshot belong to
   * store, and holds the snapshot until {@link #end}.
   *
   * @param options checked not null
   * @param store the store read
   * @return the snapshot's pinget_snapshot* (0: none)
   * @throws IllegalArgumentException if the column family or snapshot is another store's
   * @throws IllegalStateException if the snapshot is closed
   */
  public abstract long begin(ReadOptions options, Store store);

  /**
   * The column family id of options, for a read that {@link #begin} began (which checked it).
   *
   * @param options begun
   * @return the id in pinget_read_options_set's form
   */
  public abstract int columnFamily(ReadOptions options);

  /**
   * The flag bits of options: the wire form the JNI reads pass, pinget/c.h's PINGET_READ_* bits
   * (checked against the loaded library by io.pinget's loader).
   *
   * @param options not null
   * @return the bits in pinget_read_options_set's form
   */
  public abstract int flags(ReadOptions options);

  /**
   * Ends what {@link #begin} began.
   *
   * @param options the options begun
   */
  public abstract void end(ReadOptions options);
}
