// Copyright pinget authors. Licensed under the Apache License 2.0.
//
// The JNI glue's helpers: throwing, status translation, handle lookup, array
// and key access, and view re-pointing. Every native in native/jni has the
// same shape: look up the handle, check arguments and ranges, make one call
// into the public C++ API, translate the status.

#ifndef PINGET_JNI_JNI_UTIL_H_
#define PINGET_JNI_JNI_UTIL_H_

#include <jni.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "pinget/pinget.h"

namespace pinget {
namespace jni {

// Value returned to Java for a key that does not exist.
constexpr jint kNotFound = -1;

// Throws a new exception of the named class (JNI name, "java/lang/...").
void Throw(JNIEnv* env, const char* class_name, const char* message);
inline void ThrowNullPointer(JNIEnv* env, const char* message) {
  Throw(env, "java/lang/NullPointerException", message);
}
inline void ThrowIllegalArgument(JNIEnv* env, const char* message) {
  Throw(env, "java/lang/IllegalArgumentException", message);
}
inline void ThrowIndexOutOfBounds(JNIEnv* env, const char* message) {
  Throw(env, "java/lang/IndexOutOfBoundsException", message);
}

// The one place where a Status becomes a Java exception. Throws for every
// status except OK and NotFound; returns true if it threw.
bool ThrowIfError(JNIEnv* env, const Status& status);

// Throws IndexOutOfBoundsException unless [off, off + len) lies in [0, size).
bool CheckRange(JNIEnv* env, jint off, jint len, jlong size);

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

// ReadOptions flag bits, as io.pinget.ReadOptions packs them.
constexpr jint kFillCache = 1;
constexpr jint kVerifyChecksums = 2;
ReadOptions ToReadOptions(jlong snapshot, jint column_family, jint flags);

// WriteOptions flag bits, as io.pinget.WriteOptions packs them.
constexpr jint kSync = 1;
constexpr jint kDisableWal = 2;
WriteOptions ToWriteOptions(jint flags);

// A key or value given from Java as bytes [off, off + len) of either a byte[]
// (copied: onto the stack when small; one counted key copy) or a direct
// ByteBuffer (read in place: no copy). Exactly one of array, buffer is set.
class BytesArg {
 public:
  BytesArg() = default;
  BytesArg(const BytesArg&) = delete;
  BytesArg& operator=(const BytesArg&) = delete;

  // Returns false with a Java exception pending.
  bool Init(JNIEnv* env, jbyteArray array, jobject buffer, jint off, jint len,
            bool count_as_key);
  std::string_view view() const { return {data_, size_}; }

  // Copies bytes read in place (a direct buffer) if they overlap region, so
  // that releasing region cannot pull them away: one counted key copy.
  void CopyIfWithin(std::string_view region);

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

// Copies keys[begin, begin + count) of a byte[][] into arena (one counted
// key copy each) and points views[0, count) into it. Returns false with an
// exception pending.
bool CopyKeys(JNIEnv* env, jobjectArray keys, jsize begin, jsize count,
              std::string* arena, std::string_view* views);

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
// exception pending if buffer is not direct.
bool DirectWindow(JNIEnv* env, jobject buffer, char** data, size_t* size);

// Views: read-only direct ByteBuffers created once in Java and re-pointed at
// pinned bytes from here by setting java.nio.Buffer's fields, so that a get
// allocates nothing. False if this JDK lacks one of the fields (Java then
// makes a new buffer per get instead).
bool CanRepointViews();
// Makes owner the view's attachment (so a caller holding only the view, or a
// slice of it, keeps the owner and its pin reachable) and points it at nothing.
void AttachView(JNIEnv* env, jobject view, jobject owner);
// Points the view at [data, data + size). REQUIRES: size <= INT32_MAX.
void PointView(JNIEnv* env, jobject view, const char* data, size_t size);
// Points the view at a static dummy byte with capacity 0: reading a stale
// view throws instead of reading released memory.
void PointViewAtNothing(JNIEnv* env, jobject view);
// A new direct buffer over [data, size) (the fallback; allocates).
jobject NewView(JNIEnv* env, const char* data, size_t size);

// Whether a value fits a Java array or buffer (at most 2 GiB - 1 bytes).
inline bool FitsJava(size_t size) {
  return size <= static_cast<size_t>(INT32_MAX);
}
Status TooLargeStatus();
// Throws (NotSupported) unless FitsJava(size).
bool CheckValueSize(JNIEnv* env, size_t size);

// Called once from JNI_OnLoad. Returns false with an exception pending.
bool InitUtil(JNIEnv* env);

// Per-file registration, each with its RegisterNatives table.
bool RegisterStoreNatives(JNIEnv* env);
bool RegisterWriteNatives(JNIEnv* env);
bool RegisterReadNatives(JNIEnv* env);
bool RegisterPinnedNatives(JNIEnv* env);
bool RegisterStatsNatives(JNIEnv* env);  // NativeStats and Diagnostics
bool RegisterNatives(JNIEnv* env, const char* class_name,
                     const JNINativeMethod* methods, int count);
template <size_t N>
bool RegisterNatives(JNIEnv* env, const char* class_name,
                     const JNINativeMethod (&methods)[N]) {
  return RegisterNatives(env, class_name, methods, static_cast<int>(N));
}

// An entry of a RegisterNatives table.
#define PINGET_NATIVE(name, signature, function)           \
  {                                                        \
    const_cast<char*>(name), const_cast<char*>(signature), \
        reinterpret_cast<void*>(function)                  \
  }

}  // namespace jni
}  // namespace pinget

#endif  // PINGET_JNI_JNI_UTIL_H_
