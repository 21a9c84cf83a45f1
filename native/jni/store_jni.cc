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

// options is the text of io.pinget.Options.toString(): pinget::ParseOptions.
jlong Open(JNIEnv* env, jclass, jbyteArray path, jbyteArray options_text,
           jobjectArray column_families) {
  std::string p, text;
  if (!ToString(env, path, &p) || !ToString(env, options_text, &text)) return 0;
  Options options;
  if (ThrowIfError(env, ParseOptions(text, &options))) return 0;
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
    PINGET_NATIVE("open", "([B[B[[B)J", Open),
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
