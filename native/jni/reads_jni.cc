// Copyright pinget authors. Licensed under the Apache License 2.0.
//
// io.pinget.NativeReads: the copying strategies (tokens of docs/strategies.md).
// Copies and allocations made here, on the Java side of the crossing, are
// counted here: SetByteArrayRegion counts a value copy, NewByteArray an
// allocation. P = 1 if RocksDB copied the value into a PinnableSlice (memtable
// hit), else 0.

#include <algorithm>
#include <cstdint>
#include <string_view>

#include "jni_args.h"

namespace pinget {
namespace jni {
namespace {

// A new byte[] holding value: 1 allocation, 1 copy. Null with an exception
// pending if it cannot be made.
jbyteArray CopyToNewArray(JNIEnv* env, std::string_view value) {
  if (!FitsJava(value.size())) {
    ThrowIfError(env, TooLargeStatus());
    return nullptr;
  }
  const jsize n = static_cast<jsize>(value.size());
  jbyteArray array = env->NewByteArray(n);
  if (array == nullptr) return nullptr;  // OutOfMemoryError pending
  RecordAllocation();
  env->SetByteArrayRegion(array, 0, n,
                          reinterpret_cast<const jbyte*>(value.data()));
  RecordValueCopy(value.size());
  return array;
}

struct NewArrayTarget {
  JNIEnv* env;
  jbyteArray array = nullptr;
};
void NewArrayVisit(void* context, std::string_view value) {
  auto* target = static_cast<NewArrayTarget*>(context);
  target->array = CopyToNewArray(target->env, value);
}

// The core's visiting reads: GetVisit (P copies) and GetStringVisit (1).
using VisitRead = Status (*)(Store&, const ReadOptions&, std::string_view,
                             ValueVisitor, void*);
Status GetVisit(Store& store, const ReadOptions& options, std::string_view key,
                ValueVisitor visit, void* context) {
  return store.GetVisit(options, key, visit, context);
}

// What the core holds after read, copied into a new byte[] (1 copy, 1
// allocation); null if the key does not exist.
jbyteArray IntoNewArray(JNIEnv* env, jlong store, VisitRead read,
                        jbyteArray key, jobject key_buffer, jlong key_at,
                        jint key_off, jint key_len, jlong snapshot,
                        jint column_family, jint flags) {
  BytesArg k;
  if (!InitKey(env, &k, key, key_buffer, key_at, key_off, key_len)) {
    return nullptr;
  }
  NewArrayTarget target{env};
  Status st = read(*FromHandle<Store>(store),
                   ToReadOptions(snapshot, column_family, flags), k.view(),
                   &NewArrayVisit, &target);
  if (ThrowIfError(env, st)) return nullptr;
  return target.array;  // null if not found, or with an exception pending
}

// string_copy: into the core's per-thread std::string (1 copy), then into a
// new byte[] (1 copy, 1 allocation): 2 copies, 1 allocation.
jbyteArray StringCopy(JNIEnv* env, jclass, jlong store, jbyteArray key,
                      jobject key_buffer, jlong key_at, jint key_off,
                      jint key_len, jlong snapshot, jint column_family,
                      jint flags) {
  return IntoNewArray(env, store, &internal::StoreBinding::GetStringVisit, key,
                      key_buffer, key_at, key_off, key_len, snapshot,
                      column_family, flags);
}

// pinnable_copy: into the core's scratch PinnableSlice (P copies), then, while
// the value is held, into a new byte[]: P + 1 copies, 1 allocation.
jbyteArray PinnableCopy(JNIEnv* env, jclass, jlong store, jbyteArray key,
                        jobject key_buffer, jlong key_at, jint key_off,
                        jint key_len, jlong snapshot, jint column_family,
                        jint flags) {
  return IntoNewArray(env, store, &GetVisit, key, key_buffer, key_at, key_off,
                      key_len, snapshot, column_family, flags);
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

struct ArrayTarget {
  JNIEnv* env;
  jbyteArray dst;
  jint off;
  jint len;
  size_t size = 0;
};
void ArrayVisit(void* context, std::string_view value) {
  auto* target = static_cast<ArrayTarget*>(context);
  target->size = value.size();
  CopyToArray(target->env, target->dst, target->off, target->len, value);
}

// A value's size for Java: -1 unless found and under 2 GiB; *error becomes
// TooLargeStatus() for a value too large (if it held no error yet).
jint JavaSize(const Status& status, size_t size, Status* error) {
  if (!status.ok()) return kNotFound;
  if (FitsJava(size)) return static_cast<jint>(size);
  if (error->ok()) *error = TooLargeStatus();
  return kNotFound;
}

// buffer_copy: into a scratch PinnableSlice (P copies), then, while the value
// is held, into the caller's byte[] (1 copy): P + 1 copies, no allocation.
jint BufferCopy(JNIEnv* env, jclass, jlong store, jbyteArray key,
                jobject key_buffer, jlong key_at, jint key_off, jint key_len,
                jlong snapshot, jint column_family, jint flags, jbyteArray dst,
                jint off, jint len) {
  BytesArg k;
  if (!InitKey(env, &k, key, key_buffer, key_at, key_off, key_len)) {
    return kNotFound;
  }
  if (dst == nullptr) {
    ThrowNullPointer(env, "dst is null");
    return kNotFound;
  }
  if (!CheckRange(env, off, len, env->GetArrayLength(dst))) return kNotFound;
  ArrayTarget target{env, dst, off, len};
  Status st = FromHandle<Store>(store)->GetVisit(
      ToReadOptions(snapshot, column_family, flags), k.view(), &ArrayVisit,
      &target);
  const jint size = JavaSize(st, target.size, &st);
  ThrowIfError(env, st);
  return size;
}

// direct_copy: as buffer_copy, into a direct ByteBuffer's memory: P + 1
// copies, no allocation. REQUIRES (checked in Java): dst is not read-only.
// dst's bytes [off, off + len) start at dst_at if Java resolved it (not 0).
jint DirectCopy(JNIEnv* env, jclass, jlong store, jbyteArray key,
                jobject key_buffer, jlong key_at, jint key_off, jint key_len,
                jlong snapshot, jint column_family, jint flags, jobject dst,
                jlong dst_at, jint off, jint len) {
  BytesArg k;
  if (!InitKey(env, &k, key, key_buffer, key_at, key_off, key_len)) {
    return kNotFound;
  }
  char* address = FromHandle<char>(dst_at);
  if (address == nullptr) {
    address = dst == nullptr
                  ? nullptr
                  : static_cast<char*>(env->GetDirectBufferAddress(dst));
    if (address == nullptr) {
      ThrowIllegalArgument(env, "dst is not a direct ByteBuffer");
      return kNotFound;
    }
    if (!CheckRange(env, off, len, env->GetDirectBufferCapacity(dst))) {
      return kNotFound;
    }
    address += off;
  }
  size_t size = 0;
  Status st = FromHandle<Store>(store)->GetInto(
      ToReadOptions(snapshot, column_family, flags), k.view(), address,
      static_cast<size_t>(len), &size);
  const jint result = JavaSize(st, size, &st);
  ThrowIfError(env, st);
  return result;
}

// The shapes of a batched call of n keys: dsts and sizes at least n long.
// Java passes its own checked copy of the destinations (io.pinget.BatchCopy),
// which no other thread can change: none of the first n is null.
bool CheckBatch(JNIEnv* env, jint n, jobjectArray dsts, jintArray sizes) {
  if (dsts == nullptr || sizes == nullptr) {
    ThrowNullPointer(env, "dsts and sizes must not be null");
    return false;
  }
  if (env->GetArrayLength(dsts) < n || env->GetArrayLength(sizes) < n) {
    ThrowIllegalArgument(env, "keys, dsts and sizes differ in length");
    return false;
  }
  return true;
}

// sizes[i] = value i's size, or -1 (not found, failed, or not read: the call
// failed its checks); then throws the call's status (a check, or its first
// per-key error: the core's rule), else a value of 2 GiB or more.
void Finish(JNIEnv* env, jintArray sizes, BatchBuffers* batch, Status st) {
  const size_t* value_sizes = batch->value_sizes();
  const Status* statuses = batch->statuses();
  Status too_large;
  jint* out =
      static_cast<jint*>(env->GetPrimitiveArrayCritical(sizes, nullptr));
  if (out == nullptr) return;  // OutOfMemoryError pending
  for (size_t i = 0; i < batch->size(); ++i) {
    out[i] = JavaSize(statuses[i], value_sizes[i], &too_large);
  }
  env->ReleasePrimitiveArrayCritical(sizes, out, 0);
  ThrowIfError(env, st.ok() ? too_large : st);
}

struct ArraysTarget {
  JNIEnv* env;
  jobjectArray dsts;
  Status* statuses;
  size_t* value_sizes;
};
// Per key: its status and size, and the value copied into dsts[i] from index
// 0 (CopyToArray) while it is held.
void ArraysVisit(void* context, size_t i, const Status& status,
                 std::string_view value) {
  auto* target = static_cast<ArraysTarget*>(context);
  target->statuses[i] = status;
  target->value_sizes[i] = value.size();
  if (!status.ok()) return;
  JNIEnv* env = target->env;
  LocalRef dst(env,
               env->GetObjectArrayElement(target->dsts, static_cast<jsize>(i)));
  const auto array = static_cast<jbyteArray>(dst.get());
  if (array == nullptr) {  // not from BatchCopy: refused, never dereferenced
    target->statuses[i] = Status::InvalidArgument("a dst is null");
    return;
  }
  CopyToArray(env, array, 0, env->GetArrayLength(array), value);
}

// Batched buffer_copy over MultiGet: per key, P copies into a scratch slice,
// then 1 copy into dsts[i] from index 0 (SetByteArrayRegion; no critical
// region): P + 1 copies, no allocation once warm.
void MultiGetBufferCopy(JNIEnv* env, jclass, jlong store, jint count,
                        jobject key_bytes, jobject key_lengths,
                        jobjectArray dsts, jintArray sizes, jlong snapshot,
                        jint column_family, jint flags) {
  BatchBuffers::Lease lease;
  BatchBuffers& batch = *lease;
  if (!CheckBatch(env, count, dsts, sizes) ||
      !PackedKeys(env, key_bytes, key_lengths, count, &batch, nullptr)) {
    return;
  }
  batch.ResetResults();
  ArraysTarget target{env, dsts, batch.statuses(), batch.value_sizes()};
  Status st = FromHandle<Store>(store)->MultiGetVisit(
      ToReadOptions(snapshot, column_family, flags), batch.size(), batch.keys(),
      &ArraysVisit, &target);
  Finish(env, sizes, &batch, st);
}

// Batched direct_copy over MultiGetInto: per key, P + 1 copies into dsts[i]
// at its position, no allocation once warm. REQUIRES (checked in Java): no
// dst is read-only. windows_at, if not 0, holds each dst's window as Java
// read it (io.pinget.BatchCopy: two int64s, the address at its position and
// its remaining bytes), read in place instead of about ten calls into the VM
// per destination.
void MultiGetDirectCopy(JNIEnv* env, jclass, jlong store, jint count,
                        jobject key_bytes, jobject key_lengths,
                        jobjectArray dsts, jlong windows_at, jintArray sizes,
                        jlong snapshot, jint column_family, jint flags) {
  BatchBuffers::Lease lease;
  BatchBuffers& batch = *lease;
  const auto* windows = FromHandle<const int64_t>(windows_at);
  if (!CheckBatch(env, count, dsts, sizes) ||
      !PackedKeys(env, key_bytes, key_lengths, count, &batch, nullptr)) {
    return;
  }
  for (size_t i = 0; i < batch.size(); ++i) {
    if (windows != nullptr) {
      batch.AddBuffer(reinterpret_cast<char*>(windows[2 * i]),
                      static_cast<size_t>(windows[2 * i + 1]));
      continue;
    }
    LocalRef dst(env, env->GetObjectArrayElement(dsts, static_cast<jsize>(i)));
    Buffer b;
    if (!DirectWindow(env, dst.get(), &b.data, &b.capacity)) return;
    batch.AddBuffer(b.data, b.capacity);
  }
  batch.ResetResults();
  Status st = FromHandle<Store>(store)->MultiGetInto(
      ToReadOptions(snapshot, column_family, flags), batch.size(), batch.keys(),
      batch.buffers(), batch.value_sizes(), batch.statuses());
  Finish(env, sizes, &batch, st);
}

#define PINGET_KEY_ARGS "J[BLjava/nio/ByteBuffer;JIIJII"

const JNINativeMethod kMethods[] = {
    PINGET_NATIVE("stringCopy", "(" PINGET_KEY_ARGS ")[B", StringCopy),
    PINGET_NATIVE("pinnableCopy", "(" PINGET_KEY_ARGS ")[B", PinnableCopy),
    PINGET_NATIVE("bufferCopy", "(" PINGET_KEY_ARGS "[BII)I", BufferCopy),
    PINGET_NATIVE("directCopy",
                  "(" PINGET_KEY_ARGS "Ljava/nio/ByteBuffer;JII)I", DirectCopy),
    PINGET_NATIVE("multiGetBufferCopy",
                  "(JILjava/nio/ByteBuffer;Ljava/nio/ByteBuffer;[[B[IJII)V",
                  MultiGetBufferCopy),
    PINGET_NATIVE("multiGetDirectCopy",
                  "(JILjava/nio/ByteBuffer;Ljava/nio/ByteBuffer;"
                  "[Ljava/nio/ByteBuffer;J[IJII)V",
                  MultiGetDirectCopy),
};

}  // namespace

bool RegisterReadNatives(JNIEnv* env) {
  return RegisterNatives(env, "io/pinget/NativeReads", kMethods);
}

}  // namespace jni
}  // namespace pinget
