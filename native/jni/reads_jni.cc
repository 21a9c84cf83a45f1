// Copyright pinget authors. Licensed under the Apache License 2.0.
//
// io.pinget.NativeReads: the copying strategies (DESIGN.md tokens). Copies and
// allocations made here, on the Java side of the crossing, are counted here:
// SetByteArrayRegion counts a value copy, NewByteArray an allocation. P = 1
// if RocksDB copied the value into a PinnableSlice (memtable hit), else 0.

#include <algorithm>
#include <string>

#include "jni_util.h"

namespace pinget {
namespace jni {
namespace {

// Per-thread buffers drop storage above this size after use, as the C++
// library's scratch slices do.
constexpr size_t kKeepBytes = size_t{1} << 20;

// Keys and destinations per RocksDB MultiGet call (and per local frame).
constexpr jsize kChunk = 32;

void Trim(std::string* s) {
  if (s->capacity() > kKeepBytes) std::string().swap(*s);
}

// A new byte[] holding [data, data + size): 1 allocation, 1 copy.
jbyteArray CopyToNewArray(JNIEnv* env, const char* data, size_t size) {
  if (!CheckValueSize(env, size)) return nullptr;
  const jsize n = static_cast<jsize>(size);
  jbyteArray array = env->NewByteArray(n);
  if (array == nullptr) return nullptr;  // OutOfMemoryError pending
  RecordAllocation();
  env->SetByteArrayRegion(array, 0, n, reinterpret_cast<const jbyte*>(data));
  RecordValueCopy(size);
  return array;
}

// string_copy: DB::Get into this thread's std::string (1 copy; the string
// keeps its capacity, so no allocation once warm), then into a new byte[]
// (1 copy, 1 allocation): 2 copies, 1 allocation.
jbyteArray StringCopy(JNIEnv* env, jclass, jlong store, jbyteArray key,
                      jobject key_buffer, jint key_off, jint key_len,
                      jlong snapshot, jint column_family, jint flags) {
  BytesArg k;
  if (!InitKey(env, &k, key, key_buffer, key_off, key_len)) return nullptr;
  thread_local std::string value;
  Status st = FromHandle<Store>(store)->GetString(
      ToReadOptions(snapshot, column_family, flags), k.view(), &value);
  jbyteArray result = nullptr;
  if (st.ok()) {
    result = CopyToNewArray(env, value.data(), value.size());
  } else {
    ThrowIfError(env, st);
  }
  Trim(&value);
  return result;
}

// pinnable_copy: DB::Get into a PinnableSlice (P copies), then into a new
// byte[] (1 copy, 1 allocation): P + 1 copies. The slice lives for this call
// only, so a memtable hit larger than 15 bytes also allocates its buffer.
jbyteArray PinnableCopy(JNIEnv* env, jclass, jlong store, jbyteArray key,
                        jobject key_buffer, jint key_off, jint key_len,
                        jlong snapshot, jint column_family, jint flags) {
  BytesArg k;
  if (!InitKey(env, &k, key, key_buffer, key_off, key_len)) return nullptr;
  PinnedValue value;
  Status st = FromHandle<Store>(store)->GetPinned(
      ToReadOptions(snapshot, column_family, flags), k.view(), &value);
  if (!st.ok()) {
    ThrowIfError(env, st);
    return nullptr;
  }
  return CopyToNewArray(env, value.data(), value.size());
}

// buffer_copy: RocksDB into a scratch PinnableSlice (P copies), then straight
// into the caller's byte[] (1 copy): P + 1 copies, no allocation. The
// critical region spans one lookup and makes no JNI call.
jint BufferCopy(JNIEnv* env, jclass, jlong store, jbyteArray key,
                jobject key_buffer, jint key_off, jint key_len, jlong snapshot,
                jint column_family, jint flags, jbyteArray dst, jint off,
                jint len) {
  BytesArg k;
  if (!InitKey(env, &k, key, key_buffer, key_off, key_len)) return kNotFound;
  if (dst == nullptr) {
    ThrowNullPointer(env, "dst is null");
    return kNotFound;
  }
  if (!CheckRange(env, off, len, env->GetArrayLength(dst))) return kNotFound;
  const ReadOptions options = ToReadOptions(snapshot, column_family, flags);
  size_t size = 0;
  Status st;
  if (len == 0) {
    st =
        FromHandle<Store>(store)->GetInto(options, k.view(), nullptr, 0, &size);
  } else {
    CriticalBytes out(env, dst, /*read_only=*/false);
    if (out.data() == nullptr) return kNotFound;
    st = FromHandle<Store>(store)->GetInto(options, k.view(), out.data() + off,
                                           static_cast<size_t>(len), &size);
  }
  if (!st.ok()) {
    ThrowIfError(env, st);
    return kNotFound;
  }
  if (!CheckValueSize(env, size)) return kNotFound;
  return static_cast<jint>(size);
}

// direct_copy: as buffer_copy, into a direct ByteBuffer's memory: P + 1
// copies, no allocation. REQUIRES (checked in Java): dst is not read-only.
jint DirectCopy(JNIEnv* env, jclass, jlong store, jbyteArray key,
                jobject key_buffer, jint key_off, jint key_len, jlong snapshot,
                jint column_family, jint flags, jobject dst, jint off,
                jint len) {
  BytesArg k;
  if (!InitKey(env, &k, key, key_buffer, key_off, key_len)) return kNotFound;
  char* address = dst == nullptr
                      ? nullptr
                      : static_cast<char*>(env->GetDirectBufferAddress(dst));
  if (address == nullptr) {
    ThrowIllegalArgument(env, "dst is not a direct ByteBuffer");
    return kNotFound;
  }
  if (!CheckRange(env, off, len, env->GetDirectBufferCapacity(dst))) {
    return kNotFound;
  }
  size_t size = 0;
  Status st = FromHandle<Store>(store)->GetInto(
      ToReadOptions(snapshot, column_family, flags), k.view(), address + off,
      static_cast<size_t>(len), &size);
  if (!st.ok()) {
    ThrowIfError(env, st);
    return kNotFound;
  }
  if (!CheckValueSize(env, size)) return kNotFound;
  return static_cast<jint>(size);
}

// Checks the shapes of a batched call: keys and dsts of one length n,
// sizes at least n long.
bool CheckBatch(JNIEnv* env, jobjectArray keys, jobjectArray dsts,
                jintArray sizes, jsize* n) {
  if (keys == nullptr || dsts == nullptr || sizes == nullptr) {
    ThrowNullPointer(env, "keys, dsts and sizes must not be null");
    return false;
  }
  *n = env->GetArrayLength(keys);
  if (env->GetArrayLength(dsts) != *n || env->GetArrayLength(sizes) < *n) {
    ThrowIllegalArgument(env, "keys, dsts and sizes differ in length");
    return false;
  }
  return true;
}

// Stores one chunk's results in sizes (-1 for not found). Throws the first
// error other than NotFound.
bool StoreSizes(JNIEnv* env, jintArray sizes, jsize begin, jsize m,
                const size_t* value_sizes, const Status* statuses) {
  jint out[kChunk];
  for (jsize i = 0; i < m; ++i) {
    if (ThrowIfError(env, statuses[i])) return false;
    if (!CheckValueSize(env, value_sizes[i])) return false;
    out[i] = statuses[i].ok() ? static_cast<jint>(value_sizes[i]) : kNotFound;
  }
  env->SetIntArrayRegion(sizes, begin, m, out);
  return !env->ExceptionCheck();
}

// The per-chunk part of a batched copy: Fill gives each destination.
template <typename Fill>
void MultiGetCopy(JNIEnv* env, jlong store, jobjectArray keys,
                  jobjectArray dsts, jintArray sizes, jlong snapshot,
                  jint column_family, jint flags, Fill fill) {
  jsize n = 0;
  if (!CheckBatch(env, keys, dsts, sizes, &n)) return;
  const ReadOptions options = ToReadOptions(snapshot, column_family, flags);
  thread_local std::string arena;
  std::string_view key_views[kChunk];
  Buffer buffers[kChunk];
  size_t value_sizes[kChunk];
  Status statuses[kChunk];
  for (jsize begin = 0; begin < n; begin += kChunk) {
    const jsize m = std::min(kChunk, n - begin);
    if (!CopyKeys(env, keys, begin, m, &arena, key_views)) break;
    if (env->PushLocalFrame(kChunk + 4) != 0) break;
    const bool ok = fill(begin, m, buffers, [&]() {
      return FromHandle<Store>(store)->MultiGetInto(
          options, static_cast<size_t>(m), key_views, buffers, value_sizes,
          statuses);
    });
    env->PopLocalFrame(nullptr);
    if (!ok || !StoreSizes(env, sizes, begin, m, value_sizes, statuses)) break;
  }
  Trim(&arena);
}

// Batched buffer_copy over MultiGet: per key, P + 1 copies into dsts[i]
// from index 0, no allocation. sizes[i] = full length or -1.
void MultiGetBufferCopy(JNIEnv* env, jclass, jlong store, jobjectArray keys,
                        jobjectArray dsts, jintArray sizes, jlong snapshot,
                        jint column_family, jint flags) {
  MultiGetCopy(env, store, keys, dsts, sizes, snapshot, column_family, flags,
               [&](jsize begin, jsize m, Buffer* buffers, auto call) {
                 jbyteArray arrays[kChunk];
                 for (jsize i = 0; i < m; ++i) {
                   arrays[i] = static_cast<jbyteArray>(
                       env->GetObjectArrayElement(dsts, begin + i));
                   if (arrays[i] == nullptr) {
                     ThrowNullPointer(env, "dst is null");
                     return false;
                   }
                   buffers[i].capacity =
                       static_cast<size_t>(env->GetArrayLength(arrays[i]));
                 }
                 // Critical regions: nothing but the lookup happens while they
                 // are held.
                 jsize held = 0;
                 for (; held < m; ++held) {
                   if (buffers[held].capacity == 0) {
                     buffers[held].data = nullptr;
                     continue;
                   }
                   buffers[held].data = static_cast<char*>(
                       env->GetPrimitiveArrayCritical(arrays[held], nullptr));
                   if (buffers[held].data == nullptr) break;
                 }
                 Status st = held == m ? call() : Status::OK();
                 for (jsize i = held; i-- > 0;) {
                   if (buffers[i].data != nullptr) {
                     env->ReleasePrimitiveArrayCritical(arrays[i],
                                                        buffers[i].data, 0);
                   }
                 }
                 if (held != m) return false;  // OutOfMemoryError pending
                 return !ThrowIfError(env, st);
               });
}

// Batched direct_copy: per key, P + 1 copies into dsts[i] at its position,
// no allocation. REQUIRES (checked in Java): no dst is read-only.
void MultiGetDirectCopy(JNIEnv* env, jclass, jlong store, jobjectArray keys,
                        jobjectArray dsts, jintArray sizes, jlong snapshot,
                        jint column_family, jint flags) {
  MultiGetCopy(env, store, keys, dsts, sizes, snapshot, column_family, flags,
               [&](jsize begin, jsize m, Buffer* buffers, auto call) {
                 for (jsize i = 0; i < m; ++i) {
                   LocalRef dst(env,
                                env->GetObjectArrayElement(dsts, begin + i));
                   if (!DirectWindow(env, dst.get(), &buffers[i].data,
                                     &buffers[i].capacity)) {
                     return false;
                   }
                 }
                 return !ThrowIfError(env, call());
               });
}

#define PINGET_KEY_ARGS "J[BLjava/nio/ByteBuffer;IIJII"

const JNINativeMethod kMethods[] = {
    PINGET_NATIVE("stringCopy", "(" PINGET_KEY_ARGS ")[B", StringCopy),
    PINGET_NATIVE("pinnableCopy", "(" PINGET_KEY_ARGS ")[B", PinnableCopy),
    PINGET_NATIVE("bufferCopy", "(" PINGET_KEY_ARGS "[BII)I", BufferCopy),
    PINGET_NATIVE("directCopy", "(" PINGET_KEY_ARGS "Ljava/nio/ByteBuffer;II)I",
                  DirectCopy),
    PINGET_NATIVE("multiGetBufferCopy", "(J[[B[[B[IJII)V", MultiGetBufferCopy),
    PINGET_NATIVE("multiGetDirectCopy", "(J[[B[Ljava/nio/ByteBuffer;[IJII)V",
                  MultiGetDirectCopy),
};

}  // namespace

bool RegisterReadNatives(JNIEnv* env) {
  return RegisterNatives(env, "io/pinget/NativeReads", kMethods);
}

}  // namespace jni
}  // namespace pinget
