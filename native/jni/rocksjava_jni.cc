// Copyright pinget authors. Licensed under the Apache License 2.0.
//
// io.pinget.rocksjava.RocksJavaNatives: a Store and Snapshots over objects of
// a database that RocksJava opened. The handles come from RocksJava's own
// objects (getNativeHandle()), checked by RocksJavaReader, whose package alone
// can call these; the Java objects are made here, through constructors that
// are not public, so that no public method takes a raw handle.

#include <vector>

#include "jni_args.h"

namespace pinget {
namespace jni {
namespace {

// io.pinget.Store(long, IntConsumer) and io.pinget.Snapshot(Store, long).
jclass g_store_class = nullptr;
jmethodID g_store_ctor = nullptr;
jclass g_snapshot_class = nullptr;
jmethodID g_snapshot_ctor = nullptr;
jfieldID g_store_handle = nullptr;

bool GlobalClass(JNIEnv* env, const char* name, jclass* out) {
  jclass cls = env->FindClass(name);
  if (cls == nullptr) return false;
  *out = static_cast<jclass>(env->NewGlobalRef(cls));
  env->DeleteLocalRef(cls);
  return *out != nullptr;
}

jobject Borrow(JNIEnv* env, jclass, jlong db, jlongArray column_families,
               jobject owner_check) {
#if defined(_LIBCPP_VERSION)
  // The musl, macOS and Windows libraries are built with zig's libc++;
  // rocksdbjni's with libstdc++ (Linux), Apple's libc++ (macOS: another
  // build, unproven) or MSVC's runtime (Windows): the C++ objects behind
  // these handles, and the ReadOptions and PinnableSlice this library would
  // pass them, may lay out differently.
  (void)db;
  (void)column_families;
  (void)owner_check;
  Throw(env, "java/lang/UnsupportedOperationException",
        "RocksJavaReader is not available with pinget's musl, macOS and "
        "Windows libraries: they are built with zig's libc++, rocksdbjni with "
        "another C++ runtime, and the two cannot share RocksDB's C++ objects "
        "(docs/design.md, Toolchains)");
  return nullptr;
#endif
  if (column_families == nullptr || owner_check == nullptr) {
    ThrowNullPointer(env, "column families or owner check is null");
    return nullptr;
  }
  std::vector<rocksdb::ColumnFamilyHandle*> families(
      static_cast<size_t>(env->GetArrayLength(column_families)));
  for (size_t i = 0; i < families.size(); ++i) {
    jlong h = 0;
    env->GetLongArrayRegion(column_families, static_cast<jsize>(i), 1, &h);
    families[i] = FromHandle<rocksdb::ColumnFamilyHandle>(h);
  }
  std::unique_ptr<Store> store;
  if (ThrowIfError(
          env, Store::Borrow(FromHandle<rocksdb::DB>(db), families, &store))) {
    return nullptr;
  }
  // Owned by the Java Store from here (freed by its Cleaner).
  jobject made = env->NewObject(g_store_class, g_store_ctor,
                                ToHandle(store.get()), owner_check);
  if (made != nullptr) store.release();
  return made;
}

jobject BorrowSnapshot(JNIEnv* env, jclass, jobject store, jlong snapshot) {
  if (store == nullptr) {
    ThrowNullPointer(env, "store is null");
    return nullptr;
  }
  Store* s = FromHandle<Store>(env->GetLongField(store, g_store_handle));
  std::unique_ptr<Snapshot> borrowed;
  if (ThrowIfError(
          env, s->BorrowSnapshot(FromHandle<const rocksdb::Snapshot>(snapshot),
                                 &borrowed))) {
    return nullptr;
  }
  jobject made = env->NewObject(g_snapshot_class, g_snapshot_ctor, store,
                                ToHandle(borrowed.get()));
  if (made != nullptr) borrowed.release();
  return made;
}

const JNINativeMethod kMethods[] = {
    PINGET_NATIVE("borrow",
                  "(J[JLjava/util/function/IntConsumer;)Lio/pinget/Store;",
                  Borrow),
    PINGET_NATIVE("borrowSnapshot", "(Lio/pinget/Store;J)Lio/pinget/Snapshot;",
                  BorrowSnapshot),
};

}  // namespace

bool RegisterRocksJavaNatives(JNIEnv* env) {
  if (!GlobalClass(env, "io/pinget/Store", &g_store_class) ||
      !GlobalClass(env, "io/pinget/Snapshot", &g_snapshot_class)) {
    return false;
  }
  g_store_ctor = env->GetMethodID(g_store_class, "<init>",
                                  "(JLjava/util/function/IntConsumer;)V");
  g_store_handle = env->GetFieldID(g_store_class, "handle", "J");
  g_snapshot_ctor =
      env->GetMethodID(g_snapshot_class, "<init>", "(Lio/pinget/Store;J)V");
  return g_store_ctor != nullptr && g_store_handle != nullptr &&
         g_snapshot_ctor != nullptr &&
         RegisterNatives(env, "io/pinget/rocksjava/RocksJavaNatives", kMethods);
}

}  // namespace jni
}  // namespace pinget
