// Copyright pinget authors. Licensed under the Apache License 2.0.
//
// Arguments from Java: handles, ranges, packed options, keys and buffers; and
// the registration of natives. Every native in native/jni has the same shape:
// look up the handle, check and decode arguments (here), make one call into
// the public C++ API, and translate the result (jni_errors.h, jni_views.h).

#ifndef PINGET_JNI_JNI_ARGS_H_
#define PINGET_JNI_JNI_ARGS_H_

#include <jni.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string_view>

#include "jni_errors.h"
#include "pinget/binding/batch_buffers.h"
#include "pinget/binding/store_binding.h"
#include "pinget/binding/wire_options.h"
#include "pinget/pinget.h"

namespace pinget {
namespace jni {

// Value returned to Java for a key that does not exist.
constexpr jint kNotFound = -1;

// Java holds native objects as a long: the pointer. Java guarantees a live
// object (a closed Java handle never passes its pointer again).
template <typename T>
T* FromHandle(jlong handle) {
  return reinterpret_cast<T*>(static_cast<intptr_t>(handle));
}
template <typename T>
jlong ToHandle(T* p) {
  return static_cast<jlong>(reinterpret_cast<intptr_t>(p));
}

// Throws IndexOutOfBoundsException unless [off, off + len) lies in [0, size).
bool CheckRange(JNIEnv* env, jint off, jint len, jlong size);

// Options as io.pinget.ReadOptions and WriteOptions pack them: the wire form
// of pinget/binding/wire_options.h, whose flag bits the Java loader compares
// with its own through NativeLibrary.constants().
inline ReadOptions ToReadOptions(jlong snapshot, jint column_family,
                                 jint flags) {
  return internal::ReadOptionsFromWire(FromHandle<const Snapshot>(snapshot),
                                       static_cast<uint32_t>(column_family),
                                       static_cast<uint32_t>(flags));
}
inline WriteOptions ToWriteOptions(jint flags) {
  return internal::WriteOptionsFromWire(static_cast<uint32_t>(flags));
}

// A key or value given from Java as bytes [off, off + len) of either a byte[]
// (copied: onto the stack when small; one counted key copy) or a direct
// ByteBuffer (read in place: no copy). Exactly one of array, buffer is set.
// Or (InitAt) a key that Java copied into native memory of its own.
class BytesArg {
 public:
  BytesArg() = default;
  BytesArg(const BytesArg&) = delete;
  BytesArg& operator=(const BytesArg&) = delete;

  // Returns false with a Java exception pending.
  bool Init(JNIEnv* env, jbyteArray array, jobject buffer, jint off, jint len,
            bool count_as_key);
  // len bytes at at, an address Java resolved and keeps valid for the call,
  // read in place with no call into the VM: a byte[] key copied by Java into
  // native memory (io.pinget.KeyCopy: the one counted key copy, as the copy
  // Init makes), or a direct buffer's own bytes (no copy).
  void InitAt(jlong at, jint len, bool count_as_key);
  std::string_view view() const { return {data_, size_}; }

 private:
  static constexpr size_t kStackBytes = 256;
  char stack_[kStackBytes];
  std::unique_ptr<char[]> heap_;
  const char* data_ = stack_;
  size_t size_ = 0;
};

inline bool InitKey(JNIEnv* env, BytesArg* key, jbyteArray array,
                    jobject buffer, jint off, jint len) {
  return key->Init(env, array, buffer, off, len, /*count_as_key=*/true);
}
// The read natives' key: len bytes at at if at is not 0 (InitAt; copied if
// array is set), else as above.
inline bool InitKey(JNIEnv* env, BytesArg* key, jbyteArray array,
                    jobject buffer, jlong at, jint off, jint len) {
  if (at == 0) return InitKey(env, key, array, buffer, off, len);
  key->InitAt(at, len, /*count_as_key=*/array != nullptr);
  return true;
}
inline bool InitValue(JNIEnv* env, BytesArg* value, jbyteArray array,
                      jobject buffer, jint off, jint len) {
  return value->Init(env, array, buffer, off, len, /*count_as_key=*/false);
}

// Resets batch and copies every key of a byte[][] into it (one counted key
// copy each). Returns false with an exception pending.
bool CopyKeys(JNIEnv* env, jobjectArray keys, BatchBuffers* batch);

// Keys that Java packed for a batch (io.pinget.PackedKeys): lengths is a
// direct buffer of count native-order jints (key i's length), bytes a direct
// buffer of the keys back to back. Resets batch and points its keys at them,
// read in place (KeysInPlace), and counts Java's copy into bytes (one key copy
// per non-empty key); *slots (if slots is not null) is the jint array,
// which the caller may overwrite with results. Returns false with an
// IllegalArgumentException pending if the buffers do not hold what count and
// the lengths say (a fault in the Java caller).
bool PackedKeys(JNIEnv* env, jobject bytes, jobject lengths, jint count,
                BatchBuffers* batch, jint** slots);

// A local reference deleted at scope exit (for loops over object arrays).
class LocalRef {
 public:
  LocalRef(JNIEnv* env, jobject ref) : env_(env), ref_(ref) {}
  ~LocalRef() {
    if (ref_ != nullptr) env_->DeleteLocalRef(ref_);
  }
  LocalRef(const LocalRef&) = delete;
  LocalRef& operator=(const LocalRef&) = delete;
  jobject get() const { return ref_; }

 private:
  JNIEnv* env_;
  jobject ref_;
};

// The window [position, limit) of a direct ByteBuffer. Returns false with an
// exception pending if buffer is null or not direct.
bool DirectWindow(JNIEnv* env, jobject buffer, char** data, size_t* size);

// Called once from JNI_OnLoad. Returns false with an exception pending.
bool InitArgs(JNIEnv* env);

// Each native file registers its table of natives from JNI_OnLoad
// (jni_onload.cc) through RegisterNatives.
bool RegisterNatives(JNIEnv* env, const char* class_name,
                     const JNINativeMethod* methods, int count);
template <size_t N>
bool RegisterNatives(JNIEnv* env, const char* class_name,
                     const JNINativeMethod (&methods)[N]) {
  return RegisterNatives(env, class_name, methods, static_cast<int>(N));
}
#define PINGET_NATIVE(name, signature, function)           \
  {                                                        \
    const_cast<char*>(name), const_cast<char*>(signature), \
        reinterpret_cast<void*>(function)                  \
  }

}  // namespace jni
}  // namespace pinget

#endif  // PINGET_JNI_JNI_ARGS_H_
