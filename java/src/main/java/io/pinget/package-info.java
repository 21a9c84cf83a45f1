// Copyright pinget authors. Licensed under the Apache License 2.0.

/**
 * pinget: read RocksDB values into the memory the caller uses, with a known number of copies.
 *
 * <h2>Strategies</h2>
 *
 * Each way of reading is one method, named after its token (docs/strategies.md): {@code
 * stringCopy}, {@code pinnableCopy}, {@code bufferCopy}, {@code directCopy} and {@code pinnedView}
 * / {@link io.pinget.PinnedView} / {@link io.pinget.PinnedBatch}. {@link io.pinget.CopyStats} reads
 * this thread's counters. Decode on read ({@link io.pinget.Reader#get(io.pinget.ReadOptions,
 * byte[], int, int, io.pinget.ValueDecoder)}, {@link io.pinget.Reader#getLong}, {@link
 * io.pinget.Decoders}) lends the pinned value to a decoder and releases it when the decoder
 * returns.
 *
 * <h2>Not found</h2>
 *
 * A missing key gives null for byte[] and view results, and {@link io.pinget.Store#NOT_FOUND} (-1)
 * for lengths. It never throws.
 *
 * <h2>Threading</h2>
 *
 * <ul>
 *   <li>{@link io.pinget.Store}, {@link io.pinget.Snapshot}, {@link io.pinget.ReadOptions} and
 *       {@link io.pinget.WriteOptions} are thread-safe.
 *   <li>{@link io.pinget.PinnedValue}, {@link io.pinget.PinnedView}, {@link io.pinget.PinnedBatch}
 *       and {@link io.pinget.WriteBatch} are single-threaded: one thread at a time (hand-off with a
 *       happens-before edge is fine). Using one from two threads at once is a programming error
 *       that is not detected.
 *   <li>Copy counters are per platform thread; virtual threads see their carrier's counters.
 * </ul>
 *
 * <h2>Lifetimes</h2>
 *
 * <ul>
 *   <li>{@code close()} is idempotent everywhere. {@link io.pinget.Store#close()} waits for calls
 *       in flight; later calls throw {@link io.pinget.StoreClosedException}.
 *   <li>A pinned value keeps its RocksDB block and its database alive, even after the Store is
 *       closed; the database closes (and its files unlock) when the last pin or snapshot goes. A
 *       {@link io.pinget.PinnedView} or {@link io.pinget.PinnedBatch} lets go of a closed store's
 *       database on its next {@code release()}, get or {@code close()}.
 *   <li>A view returned by {@link io.pinget.PinnedView#get} or {@link io.pinget.PinnedBatch#value}
 *       is valid until the next get, {@code release()} or {@code close()} on the same handle; a
 *       {@link io.pinget.PinnedValue}'s view until its {@code close()}. A released view has
 *       capacity 0, so reading it throws IndexOutOfBoundsException or BufferUnderflowException.
 *       Buffers sliced or duplicated from a view capture its address: read them only while the view
 *       is valid (they cannot be invalidated). When {@link io.pinget.PinnedView#VIEWS_REPOINTED} is
 *       false, released views are not emptied either: read them only while valid.
 *   <li>A view keeps its owning handle reachable (when {@link io.pinget.PinnedView#VIEWS_REPOINTED}
 *       is true; a fallback view does not, so keep the handle itself reachable while reading). Pin
 *       holders never closed are released by a {@link java.lang.ref.Cleaner} and counted ({@link
 *       io.pinget.PinnedValue#releasedByCleaner()}). No finalizers.
 * </ul>
 *
 * <h2>Errors</h2>
 *
 * Null arguments throw NullPointerException; offsets and lengths out of range
 * IndexOutOfBoundsException; empty keys, heap buffers where direct ones are required, or unknown
 * column families IllegalArgumentException; read-only destination buffers ReadOnlyBufferException;
 * a closed handle IllegalStateException; a closed store {@link io.pinget.StoreClosedException};
 * RocksDB errors {@link io.pinget.PingetException} with a code.
 *
 * <h2>Loading</h2>
 *
 * The JNI library is carried in the JAR and loaded on first use; see the system properties {@code
 * pinget.library.path} and {@code pinget.library.tmpdir}. It embeds RocksDB ({@link
 * io.pinget.Store#rocksdbVersion()}) and its codecs, and needs nothing from the machine but glibc
 * and libstdc++. On JDK 24 and later, pass {@code --enable-native-access=ALL-UNNAMED} (or the
 * module's name) to avoid the restricted-method warning of {@code System.load}.
 */
package io.pinget;
