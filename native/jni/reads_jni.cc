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

// pinnable_copy's visitor: the held value into a new byte[].
struct NewArrayTarget {
  JNIEnv* env;
  jbyteArray array = nullptr;
};
void CopyToNewArrayVisit(void* context, std::string_view value) {
  auto* target = static_cast<NewArrayTarget*>(context);
  target->array = CopyToNewArray(target->env, value.data(), value.size());
}

// pinnable_copy: RocksDB into this thread's scratch PinnableSlice (P copies,
// no allocation once warm), then, while the value is held, into a new byte[]
// (1 copy, 1 allocation): P + 1 copies, 1 allocation.
jbyteArray PinnableCopy(JNIEnv* env, jclass, jlong store, jbyteArray key,
                        jobject key_buffer, jint key_off, jint key_len,
                        jlong snapshot, jint column_family, jint flags) {
  BytesArg k;
  if (!InitKey(env, &k, key, key_buffer, key_off, key_len)) return nullptr;
  NewArrayTarget target{env};
  Status st = FromHandle<Store>(store)->GetVisit(
      ToReadOptions(snapshot, column_family, flags), k.view(),
      &CopyToNewArrayVisit, &target);
  if (ThrowIfError(env, st)) return nullptr;
  return target.array;  // null if not found, or with an exception pending
}

// Copies what fits of value into dst[off, off + len) with SetByteArrayRegion
// (no critical region): 1 copy of min(size, len) bytes, counted even when
// that is 0 bytes, as GetInto counts any non-null buffer.
void CopyToArray(JNIEnv* env, jbyteArray dst, jint off, jint len,
                 std::string_view value) {
  const size_t n = std::min(value.size(), static_cast<size_t>(len));
  if (n > 0) {
    env->SetByteArrayRegion(dst, off, static_cast<jsize>(n),
                            reinterpret_cast<const jbyte*>(value.data()));
  }
  RecordValueCopy(n);
}

// buffer_copy's visitor: the value's size and CopyToArray.
struct ArrayTarget {
  JNIEnv* env;
  jbyteArray dst;
  jint off;
  jint len;
  size_t size = 0;
};
void CopyToArrayVisit(void* context, std::string_view value) {
  auto* target = static_cast<ArrayTarget*>(context);
  target->size = value.size();
  CopyToArray(target->env, target->dst, target->off, target->len, value);
}

// buffer_copy: RocksDB into a scratch PinnableSlice (P copies), then, while
// the value is held, into the caller's byte[] (1 copy): P + 1 copies, no
// allocation.
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
  ArrayTarget target{env, dst, off, len};
  Status st = FromHandle<Store>(store)->GetVisit(
      ToReadOptions(snapshot, column_family, flags), k.view(),
      &CopyToArrayVisit, &target);
  if (env->ExceptionCheck() || ThrowIfError(env, st) || !st.ok()) {
    return kNotFound;
  }
  if (!CheckValueSize(env, target.size)) return kNotFound;
  return static_cast<jint>(target.size);
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

// Runs read(begin, m, keys) on each chunk of up to kChunk keys of a batch,
// with the chunk's keys copied (one counted key copy each) and a local frame
// for the chunk's references; stops at the first chunk that returns false.
template <typename Read>
void ForEachChunk(JNIEnv* env, jobjectArray keys, jsize n, Read read) {
  thread_local std::string arena;
  std::string_view key_views[kChunk];
  for (jsize begin = 0; begin < n; begin += kChunk) {
    const jsize m = std::min(kChunk, n - begin);
    if (!CopyKeys(env, keys, begin, m, &arena, key_views)) break;
    if (env->PushLocalFrame(kChunk + 4) != 0) break;
    const bool ok = read(begin, m, key_views);
    env->PopLocalFrame(nullptr);
    if (!ok) break;
  }
  Trim(&arena);
}

// One chunk of multiGetBufferCopy: the destination arrays (local references)
// and what the visitor stores for each key.
struct ArraysTarget {
  JNIEnv* env;
  jbyteArray dsts[kChunk];
  jint lengths[kChunk];
  jint sizes[kChunk];
};

// multiGetBufferCopy's visitor: per key, the size (or -1) and CopyToArray
// into dsts[i] from index 0. Throws the first error other than NotFound; once
// an exception is pending, makes no JNI call for the rest of the chunk.
void CopyToArraysVisit(void* context, size_t i, const Status& status,
                       std::string_view value) {
  auto* target = static_cast<ArraysTarget*>(context);
  JNIEnv* env = target->env;
  if (env->ExceptionCheck()) return;
  target->sizes[i] = kNotFound;
  if (ThrowIfError(env, status) || !status.ok()) return;
  if (!CheckValueSize(env, value.size())) return;
  CopyToArray(env, target->dsts[i], 0, target->lengths[i], value);
  target->sizes[i] = static_cast<jint>(value.size());
}

// Batched buffer_copy over MultiGet: per key, P copies into a scratch slice,
// then, while the value is held, 1 copy into dsts[i] from index 0
// (SetByteArrayRegion; no critical region): P + 1 copies, no allocation.
// sizes[i] = full length or -1.
void MultiGetBufferCopy(JNIEnv* env, jclass, jlong store, jobjectArray keys,
                        jobjectArray dsts, jintArray sizes, jlong snapshot,
                        jint column_family, jint flags) {
  jsize n = 0;
  if (!CheckBatch(env, keys, dsts, sizes, &n)) return;
  const ReadOptions options = ToReadOptions(snapshot, column_family, flags);
  ArraysTarget target{};
  target.env = env;
  ForEachChunk(env, keys, n,
               [&](jsize begin, jsize m, const std::string_view* key_views) {
                 for (jsize i = 0; i < m; ++i) {
                   target.dsts[i] = static_cast<jbyteArray>(
                       env->GetObjectArrayElement(dsts, begin + i));
                   if (target.dsts[i] == nullptr) {
                     if (!env->ExceptionCheck())
                       ThrowNullPointer(env, "dst is null");
                     return false;
                   }
                   target.lengths[i] = env->GetArrayLength(target.dsts[i]);
                 }
                 Status st = FromHandle<Store>(store)->MultiGetVisit(
                     options, static_cast<size_t>(m), key_views,
                     &CopyToArraysVisit, &target);
                 if (env->ExceptionCheck() || ThrowIfError(env, st))
                   return false;
                 env->SetIntArrayRegion(sizes, begin, m, target.sizes);
                 return !env->ExceptionCheck();
               });
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

// Batched direct_copy over MultiGetInto: per key, P + 1 copies into dsts[i]
// at its position, no allocation. No critical region: direct buffers do not
// move. REQUIRES (checked in Java): no dst is read-only.
void MultiGetDirectCopy(JNIEnv* env, jclass, jlong store, jobjectArray keys,
                        jobjectArray dsts, jintArray sizes, jlong snapshot,
                        jint column_family, jint flags) {
  jsize n = 0;
  if (!CheckBatch(env, keys, dsts, sizes, &n)) return;
  const ReadOptions options = ToReadOptions(snapshot, column_family, flags);
  Buffer buffers[kChunk];
  size_t value_sizes[kChunk];
  Status statuses[kChunk];
  ForEachChunk(
      env, keys, n,
      [&](jsize begin, jsize m, const std::string_view* key_views) {
        for (jsize i = 0; i < m; ++i) {
          jobject dst = env->GetObjectArrayElement(dsts, begin + i);
          if (!DirectWindow(env, dst, &buffers[i].data, &buffers[i].capacity)) {
            return false;
          }
        }
        Status st = FromHandle<Store>(store)->MultiGetInto(
            options, static_cast<size_t>(m), key_views, buffers, value_sizes,
            statuses);
        return !ThrowIfError(env, st) &&
               StoreSizes(env, sizes, begin, m, value_sizes, statuses);
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
