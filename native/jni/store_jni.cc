// Copyright pinget authors. Licensed under the Apache License 2.0.
//
// io.pinget.NativeStore: opening (or borrowing), closing, snapshots and
// maintenance. close() is Store::Close() (safe while calls run); only the
// Java Cleaner deletes the pinget::Store, once no call can be inside it.

#include <string>
#include <vector>

#include "jni_args.h"

namespace pinget {
namespace jni {
namespace {

// The handle of what a call made, or 0 with the call's error thrown.
template <typename T>
jlong HandleOf(JNIEnv* env, const Status& made, std::unique_ptr<T>* object) {
  return ThrowIfError(env, made) ? 0 : ToHandle(object->release());
}

bool ToString(JNIEnv* env, jbyteArray bytes, std::string* out) {
  if (bytes == nullptr) {
    ThrowNullPointer(env, "string is null");
    return false;
  }
  const jsize n = env->GetArrayLength(bytes);
  out->resize(static_cast<size_t>(n));
  env->GetByteArrayRegion(bytes, 0, n, reinterpret_cast<jbyte*>(out->data()));
  return !env->ExceptionCheck();
}

jlong Open(JNIEnv* env, jclass, jbyteArray path, jint flags,
           jlong block_cache_bytes, jint block_cache_kind, jlong block_size,
           jdouble bloom_bits_per_key, jlong write_buffer_bytes,
           jint compression, jobjectArray column_families) {
  std::string p;
  if (!ToString(env, path, &p)) return 0;
  Options options;
  options.create_if_missing = (flags & kCreateIfMissing) != 0;
  options.error_if_exists = (flags & kErrorIfExists) != 0;
  options.block_cache_bytes = static_cast<size_t>(block_cache_bytes);
  options.block_cache_kind = static_cast<BlockCacheKind>(block_cache_kind);
  options.cache_index_and_filter_blocks =
      (flags & kCacheIndexAndFilterBlocks) != 0;
  options.pin_l0_filter_and_index_blocks_in_cache =
      (flags & kPinL0FilterAndIndexBlocksInCache) != 0;
  options.block_size = static_cast<size_t>(block_size);
  options.data_block_hash_index = (flags & kDataBlockHashIndex) != 0;
  options.bloom_bits_per_key = bloom_bits_per_key;
  options.whole_key_filtering = (flags & kWholeKeyFiltering) != 0;
  options.allow_mmap_reads = (flags & kAllowMmapReads) != 0;
  options.use_direct_reads = (flags & kUseDirectReads) != 0;
  options.write_buffer_bytes = static_cast<size_t>(write_buffer_bytes);
  options.compression = static_cast<Compression>(compression);
  const jsize n = env->GetArrayLength(column_families);
  for (jsize i = 0; i < n; ++i) {
    LocalRef name(env, env->GetObjectArrayElement(column_families, i));
    options.column_families.emplace_back();
    if (!ToString(env, static_cast<jbyteArray>(name.get()),
                  &options.column_families.back())) {
      return 0;
    }
  }
  std::unique_ptr<Store> store;
  return HandleOf(env, Store::Open(p, options, &store), &store);
}

// Handles are RocksJava's native pointers (RocksObject.getNativeHandle()),
// checked by io.pinget.rocksjava.RocksJavaReader before they get here.
jlong Borrow(JNIEnv* env, jclass, jlong db, jlongArray column_families) {
#if defined(_LIBCPP_VERSION)
  // The musl libraries are built with libc++ (zig), rocksdbjni's with
  // libstdc++: the C++ objects behind these handles, and the ReadOptions and
  // PinnableSlice this library would pass them, lay out differently.
  (void)db;
  (void)column_families;
  Throw(env, "java/lang/UnsupportedOperationException",
        "RocksJavaReader is not available with pinget's musl libraries: they "
        "are built with libc++, rocksdbjni with libstdc++, and the two cannot "
        "share RocksDB's C++ objects (docs/design.md, Toolchains)");
  return 0;
#endif
  if (column_families == nullptr) {
    ThrowNullPointer(env, "column families are null");
    return 0;
  }
  std::vector<rocksdb::ColumnFamilyHandle*> families(
      static_cast<size_t>(env->GetArrayLength(column_families)));
  for (size_t i = 0; i < families.size(); ++i) {
    jlong h = 0;
    env->GetLongArrayRegion(column_families, static_cast<jsize>(i), 1, &h);
    families[i] = FromHandle<rocksdb::ColumnFamilyHandle>(h);
  }
  std::unique_ptr<Store> store;
  return HandleOf(env,
                  Store::Borrow(FromHandle<rocksdb::DB>(db), families, &store),
                  &store);
}

jlong BorrowSnapshot(JNIEnv* env, jclass, jlong store, jlong snapshot) {
  std::unique_ptr<Snapshot> borrowed;
  return HandleOf(env,
                  FromHandle<Store>(store)->BorrowSnapshot(
                      FromHandle<const rocksdb::Snapshot>(snapshot), &borrowed),
                  &borrowed);
}

void Close(JNIEnv* env, jclass, jlong store) {
  ThrowIfError(env, FromHandle<Store>(store)->Close());
}

// Called by the Cleaner when the Java Store is unreachable.
void Free(JNIEnv*, jclass, jlong store) { delete FromHandle<Store>(store); }

jint ColumnFamilyId(JNIEnv* env, jclass, jlong store, jbyteArray name) {
  std::string n;
  if (!ToString(env, name, &n)) return 0;
  uint32_t id = 0;
  Status st = FromHandle<Store>(store)->ColumnFamilyId(n, &id);
  if (ThrowIfError(env, st) || st.IsNotFound()) return kNotFound;
  return static_cast<jint>(id);
}

jstring Property(JNIEnv* env, jclass, jlong store, jint column_family,
                 jbyteArray name) {
  std::string n, value;
  if (!ToString(env, name, &n)) return nullptr;
  Status st = FromHandle<Store>(store)->GetProperty(
      static_cast<uint32_t>(column_family), n, &value);
  if (ThrowIfError(env, st) || st.IsNotFound()) return nullptr;
  return env->NewStringUTF(value.c_str());
}

jlong NewSnapshot(JNIEnv* env, jclass, jlong store) {
  std::unique_ptr<Snapshot> snapshot;
  return HandleOf(env, FromHandle<Store>(store)->GetSnapshot(&snapshot),
                  &snapshot);
}

// Called once, when no read can be using the snapshot (Java counts users).
void FreeSnapshot(JNIEnv*, jclass, jlong snapshot) {
  delete FromHandle<Snapshot>(snapshot);
}

void Flush(JNIEnv* env, jclass, jlong store, jint column_family) {
  ThrowIfError(env, FromHandle<Store>(store)->Flush(
                        static_cast<uint32_t>(column_family)));
}

void Compact(JNIEnv* env, jclass, jlong store, jint column_family) {
  ThrowIfError(env, FromHandle<Store>(store)->Compact(
                        static_cast<uint32_t>(column_family)));
}

jstring RocksDBVersionString(JNIEnv* env, jclass) {
  return env->NewStringUTF(RocksDBVersion());
}

const JNINativeMethod kMethods[] = {
    PINGET_NATIVE("open", "([BIJIJDJI[[B)J", Open),
    PINGET_NATIVE("borrow", "(J[J)J", Borrow),
    PINGET_NATIVE("borrowSnapshot", "(JJ)J", BorrowSnapshot),
    PINGET_NATIVE("close", "(J)V", Close),
    PINGET_NATIVE("free", "(J)V", Free),
    PINGET_NATIVE("columnFamilyId", "(J[B)I", ColumnFamilyId),
    PINGET_NATIVE("property", "(JI[B)Ljava/lang/String;", Property),
    PINGET_NATIVE("newSnapshot", "(J)J", NewSnapshot),
    PINGET_NATIVE("freeSnapshot", "(J)V", FreeSnapshot),
    PINGET_NATIVE("flush", "(JI)V", Flush),
    PINGET_NATIVE("compact", "(JI)V", Compact),
    PINGET_NATIVE("rocksdbVersion", "()Ljava/lang/String;",
                  RocksDBVersionString),
};

}  // namespace

bool RegisterStoreNatives(JNIEnv* env) {
  return RegisterNatives(env, "io/pinget/NativeStore", kMethods);
}

}  // namespace jni
}  // namespace pinget
