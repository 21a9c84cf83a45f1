// Copyright pinget authors. Licensed under the Apache License 2.0.
//
// libpinget_bench_jni: the natives of io.pinget.bench.NativeControls (bench/
// common), for the benchmarks only. It calls pinget's C API in the shipped
// libpinget_jni, which the JVM has loaded first (the dynamic loader finds it
// by its soname), on a Java Store's nativeHandle(). Handles are KeyLoop* and
// CursorLoop*. Errors throw IllegalStateException("<Code>: <message>").

#include <jni.h>

#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "controls.h"

namespace pinget_bench {
namespace {

template <typename T>
T* FromHandle(jlong handle) {
  return reinterpret_cast<T*>(static_cast<intptr_t>(handle));
}
template <typename T>
jlong ToHandle(T* p) {
  return static_cast<jlong>(reinterpret_cast<intptr_t>(p));
}
pinget_store* StoreOf(jlong handle) { return FromHandle<pinget_store>(handle); }

void Throw(JNIEnv* env, const char* type, const std::string& message) {
  jclass c = env->FindClass(type);
  if (c != nullptr) env->ThrowNew(c, message.c_str());
}

// Throws unless st is OK; true if it threw.
bool ThrowIfError(JNIEnv* env, const LoopStatus& st) {
  if (st.code == PINGET_OK) return false;
  Throw(env, "java/lang/IllegalStateException",
        std::string(pinget_code_name(st.code)) + ": " + st.message);
  return true;
}

// The array's bytes, or false with an exception pending.
bool Bytes(JNIEnv* env, jbyteArray array, std::string* out) {
  if (array == nullptr) {
    Throw(env, "java/lang/NullPointerException", "key is null");
    return false;
  }
  out->resize(static_cast<size_t>(env->GetArrayLength(array)));
  env->GetByteArrayRegion(array, 0, static_cast<jsize>(out->size()),
                          reinterpret_cast<jbyte*>(out->data()));
  return !env->ExceptionCheck();
}

// Java checked out's length; true unless an exception is pending.
bool SetResult(JNIEnv* env, jlongArray out, uint64_t entries, uint64_t bytes) {
  const jlong result[] = {static_cast<jlong>(entries),
                          static_cast<jlong>(bytes)};
  env->SetLongArrayRegion(out, 0, 2, result);
  return !env->ExceptionCheck();
}

// jni_nop: one JNI crossing and nothing else. No copy, no allocation.
jint JniNop(JNIEnv*, jclass) { return 0; }

jlong NewKeyLoop(JNIEnv* env, jclass, jobjectArray keys) {
  if (keys == nullptr) {
    Throw(env, "java/lang/NullPointerException", "keys is null");
    return 0;
  }
  std::vector<std::string> copies(
      static_cast<size_t>(env->GetArrayLength(keys)));
  for (size_t i = 0; i < copies.size(); ++i) {
    jobject key = env->GetObjectArrayElement(keys, static_cast<jsize>(i));
    const bool ok = Bytes(env, static_cast<jbyteArray>(key), &copies[i]);
    env->DeleteLocalRef(key);
    if (!ok) return 0;
  }
  return ToHandle(new KeyLoop(std::move(copies)));
}

void FreeKeyLoop(JNIEnv*, jclass, jlong loop) {
  delete FromHandle<KeyLoop>(loop);
}

// Java checked the range and the batch.
jlong PinnedGets(JNIEnv* env, jclass, jlong store, jlong loop, jint from,
                 jint count) {
  uint64_t bytes = 0;
  ThrowIfError(env, FromHandle<KeyLoop>(loop)->PinnedGets(
                        StoreOf(store), static_cast<size_t>(from),
                        static_cast<size_t>(count), &bytes));
  return static_cast<jlong>(bytes);
}

// native_utf8_loop's decode: each value found becomes a Java String, made
// here the way JNI offers native code (NewStringUTF, which reads a
// NUL-terminated copy of the value: a call into the VM per value), then
// dropped. The copy and the string are the UTF-8 decode's work that a bare
// get loop does not do.
struct StringMaker {
  explicit StringMaker(JNIEnv* e) : env(e) {}
  JNIEnv* env;
  std::string text;     // the value, NUL-terminated
  bool failed = false;  // an exception is pending: no further JNI call
};

void MakeString(void* context, size_t, const char* data, size_t size) {
  auto* m = static_cast<StringMaker*>(context);
  if (m->failed) return;
  m->text.assign(data, size);
  jstring s = m->env->NewStringUTF(m->text.c_str());
  if (s == nullptr) {
    m->failed = true;
    return;
  }
  m->env->DeleteLocalRef(s);
}

// Java checked the range.
jlong PinnedStrings(JNIEnv* env, jclass, jlong store, jlong loop, jint from,
                    jint count) {
  uint64_t bytes = 0;
  StringMaker maker(env);
  const LoopStatus st = FromHandle<KeyLoop>(loop)->PinnedGets(
      StoreOf(store), static_cast<size_t>(from), static_cast<size_t>(count),
      &bytes, &MakeString, &maker);
  if (!maker.failed) ThrowIfError(env, st);
  return static_cast<jlong>(bytes);
}

// native_avro_loop's copies: value j of the call is copied into slot j of
// dst, the copy decode on read makes into its thread's slot, for Java to
// decode there. dst holds count sizes (int32, native order; -1: no value, or
// one larger than a slot), then count slots of stride bytes.
struct SlotCopier {
  char* sizes;
  char* slots;
  size_t stride;
};

void CopyToSlot(void* context, size_t j, const char* data, size_t size) {
  auto* c = static_cast<SlotCopier*>(context);
  int32_t n = -1;
  if (size <= c->stride) {
    std::memcpy(c->slots + j * c->stride, data, size);
    n = static_cast<int32_t>(size);
  }
  std::memcpy(c->sizes + j * sizeof n, &n, sizeof n);
}

// Java checked the range, stride and dst; its size is checked again here,
// since a slot past it would be written.
jlong PinnedCopies(JNIEnv* env, jclass, jlong store, jlong loop, jint from,
                   jint count, jobject dst, jint stride) {
  char* base = static_cast<char*>(env->GetDirectBufferAddress(dst));
  const jlong capacity = env->GetDirectBufferCapacity(dst);
  const size_t n = static_cast<size_t>(count);
  if (base == nullptr || capacity < 0 || stride < 0 ||
      static_cast<uint64_t>(capacity) <
          n * (sizeof(int32_t) + static_cast<uint64_t>(stride))) {
    Throw(env, "java/lang/IllegalArgumentException", "dst is too small");
    return 0;
  }
  std::memset(base, 0xff, n * sizeof(int32_t));  // every size -1
  SlotCopier copier{base, base + n * sizeof(int32_t),
                    static_cast<size_t>(stride)};
  uint64_t bytes = 0;
  ThrowIfError(env, FromHandle<KeyLoop>(loop)->PinnedGets(
                        StoreOf(store), static_cast<size_t>(from), n, &bytes,
                        &CopyToSlot, &copier));
  return static_cast<jlong>(bytes);
}

jlong PinnedBatches(JNIEnv* env, jclass, jlong store, jlong loop, jint from,
                    jint count, jint batch) {
  uint64_t bytes = 0;
  ThrowIfError(
      env, FromHandle<KeyLoop>(loop)->PinnedBatches(
               StoreOf(store), static_cast<size_t>(from),
               static_cast<size_t>(count), static_cast<size_t>(batch), &bytes));
  return static_cast<jlong>(bytes);
}

jlong NewCursorLoop(JNIEnv* env, jclass, jlong store, jint max_batch) {
  std::unique_ptr<CursorLoop> loop(
      new CursorLoop(StoreOf(store), static_cast<size_t>(max_batch)));
  if (ThrowIfError(env, loop->status())) return 0;
  return ToHandle(loop.release());
}

void FreeCursorLoop(JNIEnv*, jclass, jlong loop) {
  delete FromHandle<CursorLoop>(loop);
}

// out = {entries, key and value bytes}.
void Scan(JNIEnv* env, jclass, jlong loop, jint batch, jint total,
          jlongArray out) {
  uint64_t bytes = 0, entries = 0;
  const LoopStatus st = FromHandle<CursorLoop>(loop)->Scan(
      static_cast<size_t>(batch), static_cast<size_t>(total), &bytes, &entries);
  if (SetResult(env, out, entries, bytes)) ThrowIfError(env, st);
}

void Seek(JNIEnv* env, jclass, jlong loop, jbyteArray key, jint count,
          jlongArray out) {
  std::string k;
  if (!Bytes(env, key, &k)) return;
  uint64_t bytes = 0, entries = 0;
  const LoopStatus st = FromHandle<CursorLoop>(loop)->Seek(
      k.data(), k.size(), static_cast<size_t>(count), &bytes, &entries);
  if (SetResult(env, out, entries, bytes)) ThrowIfError(env, st);
}

#define PINGET_BENCH_NATIVE(name, signature, function)     \
  {                                                        \
    const_cast<char*>(name), const_cast<char*>(signature), \
        reinterpret_cast<void*>(function)                  \
  }

const JNINativeMethod kMethods[] = {
    PINGET_BENCH_NATIVE("jniNop", "()I", JniNop),
    PINGET_BENCH_NATIVE("newKeyLoop", "([[B)J", NewKeyLoop),
    PINGET_BENCH_NATIVE("freeKeyLoop", "(J)V", FreeKeyLoop),
    PINGET_BENCH_NATIVE("pinnedGets", "(JJII)J", PinnedGets),
    PINGET_BENCH_NATIVE("pinnedStrings", "(JJII)J", PinnedStrings),
    PINGET_BENCH_NATIVE("pinnedCopies", "(JJIILjava/nio/ByteBuffer;I)J",
                        PinnedCopies),
    PINGET_BENCH_NATIVE("pinnedBatches", "(JJIII)J", PinnedBatches),
    PINGET_BENCH_NATIVE("newCursorLoop", "(JI)J", NewCursorLoop),
    PINGET_BENCH_NATIVE("freeCursorLoop", "(J)V", FreeCursorLoop),
    PINGET_BENCH_NATIVE("scan", "(JII[J)V", Scan),
    PINGET_BENCH_NATIVE("seek", "(J[BI[J)V", Seek),
};

}  // namespace
}  // namespace pinget_bench

extern "C" JNIEXPORT jint JNICALL JNI_OnLoad(JavaVM* vm, void*) {
  JNIEnv* env = nullptr;
  if (vm->GetEnv(reinterpret_cast<void**>(&env), JNI_VERSION_1_8) != JNI_OK) {
    return JNI_ERR;
  }
  jclass c = env->FindClass("io/pinget/bench/NativeControls");
  if (c == nullptr) return JNI_ERR;
  const jint n =
      sizeof pinget_bench::kMethods / sizeof pinget_bench::kMethods[0];
  if (env->RegisterNatives(c, pinget_bench::kMethods, n) != JNI_OK) {
    return JNI_ERR;
  }
  return JNI_VERSION_1_8;
}
