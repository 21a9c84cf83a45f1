// Copyright pinget authors. Licensed under the Apache License 2.0.

/**
 * pinget's strategies over a RocksJava ({@code org.rocksdb:rocksdbjni}) database: {@link
 * io.pinget.rocksjava.RocksJavaReader} lends a {@link io.pinget.Store} over an open {@code
 * org.rocksdb.RocksDB}, which reads it in place with the Store's copy counts and no migration:
 * RocksJava keeps doing the writes, snapshots, iterators, transactions and backups (the store
 * refuses writes and snapshots).
 *
 * <p>rocksdbjni is an optional dependency of pinget: add it yourself, at the release pinget embeds
 * ({@link io.pinget.Store#rocksdbVersion()}); a reader refuses any other.
 *
 * <p>The one rule pinget cannot enforce: close pinget's readers, views, batches, pinned values and
 * snapshot wrappers before closing the RocksJava objects they read (the database, its column family
 * handles, the options that own its block cache).
 */
package io.pinget.rocksjava;
