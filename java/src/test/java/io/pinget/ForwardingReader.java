// Copyright pinget authors. Licensed under the Apache License 2.0.
package io.pinget;

import java.nio.ByteBuffer;

/**
 * A Reader that implements only the contract's abstract methods, by forwarding them to a Store: it
 * runs Reader's default methods (decode on read through a PinnedView or PinnedBatch per call), as a
 * Reader written outside pinget would.
 */
final class ForwardingReader implements Reader {
  private final Store store;

  private ForwardingReader(Store store) {
    this.store = store;
  }

  static ForwardingReader of(Store store) {
    return new ForwardingReader(store);
  }

  @Override
  public Cursor newCursor(CursorOptions options) {
    return store.newCursor(options);
  }

  @Override
  public byte[] stringCopy(ReadOptions options, byte[] key, int keyOff, int keyLen) {
    return store.stringCopy(options, key, keyOff, keyLen);
  }

  @Override
  public byte[] stringCopy(ReadOptions options, ByteBuffer key) {
    return store.stringCopy(options, key);
  }

  @Override
  public byte[] pinnableCopy(ReadOptions options, byte[] key, int keyOff, int keyLen) {
    return store.pinnableCopy(options, key, keyOff, keyLen);
  }

  @Override
  public byte[] pinnableCopy(ReadOptions options, ByteBuffer key) {
    return store.pinnableCopy(options, key);
  }

  @Override
  public int bufferCopy(
      ReadOptions options, byte[] key, int keyOff, int keyLen, byte[] dst, int off, int len) {
    return store.bufferCopy(options, key, keyOff, keyLen, dst, off, len);
  }

  @Override
  public int bufferCopy(ReadOptions options, ByteBuffer key, byte[] dst, int off, int len) {
    return store.bufferCopy(options, key, dst, off, len);
  }

  @Override
  public int directCopy(ReadOptions options, byte[] key, int keyOff, int keyLen, ByteBuffer dst) {
    return store.directCopy(options, key, keyOff, keyLen, dst);
  }

  @Override
  public int directCopy(ReadOptions options, ByteBuffer key, ByteBuffer dst) {
    return store.directCopy(options, key, dst);
  }

  @Override
  public PinnedValue pinnedValue(ReadOptions options, byte[] key, int keyOff, int keyLen) {
    return store.pinnedValue(options, key, keyOff, keyLen);
  }

  @Override
  public PinnedValue pinnedValue(ReadOptions options, ByteBuffer key) {
    return store.pinnedValue(options, key);
  }

  @Override
  public PinnedView newPinnedView() {
    return store.newPinnedView();
  }

  @Override
  public PinnedBatch newPinnedBatch() {
    return store.newPinnedBatch();
  }

  @Override
  public void multiGetBufferCopy(ReadOptions options, byte[][] keys, byte[][] dsts, int[] sizes) {
    store.multiGetBufferCopy(options, keys, dsts, sizes);
  }

  @Override
  public void multiGetDirectCopy(
      ReadOptions options, byte[][] keys, ByteBuffer[] dsts, int[] sizes) {
    store.multiGetDirectCopy(options, keys, dsts, sizes);
  }

  @Override
  public boolean isClosed() {
    return store.isClosed();
  }

  @Override
  public void close() {
    store.close();
  }
}
