// Copyright pinget authors. Licensed under the Apache License 2.0.
package io.pinget;

/** Natives of native/jni/store_jni.cc. Handles are pinget::Store* and pinget::Snapshot*. */
final class NativeStore {
  static {
    NativeLibrary.load();
  }

  private NativeStore() {}

  /** options: {@link Options#toString()}'s text (pinget::ParseOptions). */
  static native long open(byte[] path, byte[] options, byte[][] columnFamilies);

  static native void close(long store);

  static native void free(long store);

  static native int columnFamilyId(long store, byte[] name);

  static native String property(long store, int columnFamily, byte[] name);

  static native long newSnapshot(long store);

  static native void freeSnapshot(long snapshot);

  static native void flush(long store, int columnFamily);

  static native void compact(long store, int columnFamily);

  static native String rocksdbVersion();
}
