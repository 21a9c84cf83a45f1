// Copyright pinget authors. Licensed under the Apache License 2.0.
//
// io.pinget.NativePinned: pinned_view. The caller reads RocksDB's memory
// through a read-only direct ByteBuffer: P copies (0 for a block-cache hit,
// 1 for a memtable hit, made by RocksDB), no copy and no allocation here
// (but in GetCopiedIfSmall, decode on read's one-crossing read: one copy of a
// small value into the caller's buffer).
// Views are re-pointed in place (jni_views.h), so a reused handle allocates
// nothing per get. A view points at nothing whenever its pin is released.
// Handles are single-threaded: Java never passes one from two threads.

#include <algorithm>
#include <cstdint>
#include <vector>

#include "jni_args.h"
#include "jni_views.h"

namespace pinget {
namespace jni {
namespace {

// A PinnedBatch, its keys (views of the bytes Java packed, reused per call)
// and its Java views. The views are weak global references, so that they (and
// the Java PinnedBatch they are attached to) stay collectable and its Cleaner
// can run; Java holds them strongly in PinnedBatch.views during every call.
struct Batch {
  PinnedBatch values;
  BatchBuffers keys;
  std::vector<jweak> views;
};

jboolean CanRepoint(JNIEnv*, jclass) {
  return CanRepointViews() ? JNI_TRUE : JNI_FALSE;
}

jobject EmptyView(JNIEnv* env, jclass) { return NewView(env, nullptr, 0); }

// view: a duplicate of emptyView's, showing nothing (Views.attachedTo).
void Attach(JNIEnv* env, jclass, jobject view, jobject owner) {
  AttachView(env, view, owner);
}

jlong NewPinned(JNIEnv*, jclass) { return ToHandle(new PinnedValue()); }

// Drops the pin (if any) and the handle; the last pin of a closed store
// closes its database here.
void FreePinned(JNIEnv*, jclass, jlong pinned) {
  delete FromHandle<PinnedValue>(pinned);
}

// Shows what value holds in view (nothing if it holds nothing).
jint Show(JNIEnv* env, jobject view, const PinnedValue& value) {
  if (!value.holds_value()) {
    if (view != nullptr) PointViewAtNothing(env, view);
    return kNotFound;
  }
  if (view != nullptr) PointView(env, view, value.data(), value.size());
  return static_cast<jint>(value.size());
}

// pinned_view into value (P copies; its previous pin released in the same
// call), shown in view (nothing on failure). Returns the value's size, or -1
// if the key does not exist or with an exception pending. A bad key argument
// leaves value and view as they were, as Java's own checks do.
jint PinInto(JNIEnv* env, jlong store, PinnedValue* value, jobject view,
             jbyteArray key, jobject key_buffer, jlong key_at, jint key_off,
             jint key_len, jlong snapshot, jint column_family, jint flags) {
  BytesArg k;
  if (!InitKey(env, &k, key, key_buffer, key_at, key_off, key_len)) {
    return kNotFound;
  }
  Status st = FromHandle<Store>(store)->GetPinned(
      ToReadOptions(snapshot, column_family, flags), k.view(), value);
  if (st.ok() && !FitsJava(value->size())) {
    value->Release();
    st = TooLargeStatus();
  }
  const jint size = Show(env, view, *value);
  ThrowIfError(env, st);
  return size;
}

// pinned_view, per call: a new PinnedValue holding the value, shown in view
// (which Java attached to its owner). Returns 0 if the key does not exist.
jlong Pin(JNIEnv* env, jclass, jlong store, jobject view, jbyteArray key,
          jobject key_buffer, jlong key_at, jint key_off, jint key_len,
          jlong snapshot, jint column_family, jint flags) {
  std::unique_ptr<PinnedValue> value(new PinnedValue());
  if (PinInto(env, store, value.get(), view, key, key_buffer, key_at, key_off,
              key_len, snapshot, column_family, flags) < 0) {
    return 0;
  }
  return ToHandle(value.release());
}

// pinned_view into a reused handle: releases the previous pin and pins the
// next value in this one call, and re-points view at it.
jint Get(JNIEnv* env, jclass, jlong store, jlong pinned, jobject view,
         jbyteArray key, jobject key_buffer, jlong key_at, jint key_off,
         jint key_len, jlong snapshot, jint column_family, jint flags) {
  return PinInto(env, store, FromHandle<PinnedValue>(pinned), view, key,
                 key_buffer, key_at, key_off, key_len, snapshot, column_family,
                 flags);
}

// The address of a direct buffer that Java keeps (Decoding's slots).
jlong AddressOf(JNIEnv* env, jclass, jobject buffer) {
  return ToHandle(env->GetDirectBufferAddress(buffer));
}

// Decode on read in one crossing (StoreBinding::GetCopiedIfSmall): a value of
// at most small_capacity bytes (none if it is 0) is copied to small and
// nothing stays held; a larger one is pinned and shown in view, for Java to
// ReleaseDetached after decoding. Returns the value's size (which says where it
// is), or -1 if the key does not exist or with an exception pending.
jint GetCopiedIfSmall(JNIEnv* env, jclass, jlong store, jlong pinned,
                      jobject view, jlong small, jint small_capacity,
                      jbyteArray key, jobject key_buffer, jlong key_at,
                      jint key_off, jint key_len, jlong snapshot,
                      jint column_family, jint flags) {
  BytesArg k;
  if (!InitKey(env, &k, key, key_buffer, key_at, key_off, key_len)) {
    return kNotFound;
  }
  PinnedValue* value = FromHandle<PinnedValue>(pinned);
  size_t size = 0;
  Status st = internal::StoreBinding::GetCopiedIfSmall(
      *FromHandle<Store>(store), ToReadOptions(snapshot, column_family, flags),
      k.view(), FromHandle<char>(small), static_cast<size_t>(small_capacity),
      value, &size);
  if (st.ok() && !FitsJava(size)) {
    internal::StoreBinding::Detach(value);
    st = TooLargeStatus();
  }
  if (!st.ok()) {
    ThrowIfError(env, st);
    return kNotFound;
  }
  if (small_capacity > 0 && size <= static_cast<size_t>(small_capacity)) {
    return static_cast<jint>(size);
  }
  return Show(env, view, *value);
}

// As Get, for a Java holder that points its own view (io.pinget.Views.point):
// no view here; the value's address is written to *at (an int64 of a direct
// buffer the holder keeps).
jint GetAt(JNIEnv* env, jclass, jlong store, jlong pinned, jlong at,
           jbyteArray key, jobject key_buffer, jlong key_at, jint key_off,
           jint key_len, jlong snapshot, jint column_family, jint flags) {
  PinnedValue* value = FromHandle<PinnedValue>(pinned);
  const jint size = PinInto(env, store, value, nullptr, key, key_buffer, key_at,
                            key_off, key_len, snapshot, column_family, flags);
  *FromHandle<int64_t>(at) = reinterpret_cast<intptr_t>(
      ViewAddress(value->data(), size > 0 ? value->size() : 0));
  return size;
}

void Release(JNIEnv* env, jclass, jlong pinned, jobject view) {
  FromHandle<PinnedValue>(pinned)->Release();
  if (view != nullptr) PointViewAtNothing(env, view);
}

// Release, and let go of the store's database too (a per-thread handle of
// decoded reads, io.pinget.Decoding: it must keep no database open between
// calls, whatever store it read last).
void ReleaseDetached(JNIEnv* env, jclass, jlong pinned, jobject view) {
  internal::StoreBinding::Detach(FromHandle<PinnedValue>(pinned));
  if (view != nullptr) PointViewAtNothing(env, view);
}

jboolean PinnedInCache(JNIEnv*, jclass, jlong pinned) {
  return FromHandle<PinnedValue>(pinned)->pinned_in_cache() ? JNI_TRUE
                                                            : JNI_FALSE;
}

// The fallback for a JDK whose views cannot be re-pointed: a new buffer.
jobject ViewOf(JNIEnv* env, jclass, jlong pinned) {
  const PinnedValue* value = FromHandle<PinnedValue>(pinned);
  return NewView(env, value->data(), value->holds_value() ? value->size() : 0);
}

jlong NewBatch(JNIEnv*, jclass) { return ToHandle(new Batch()); }

void DropBatchViews(JNIEnv* env, Batch* b) {
  for (jweak view : b->views) env->DeleteWeakGlobalRef(view);
  b->views.clear();
}

void FreeBatch(JNIEnv* env, jclass, jlong batch) {
  Batch* b = FromHandle<Batch>(batch);
  DropBatchViews(env, b);
  delete b;
}

// Replaces the batch's views with those of views (Java grows its array).
void SetBatchViews(JNIEnv* env, jclass, jlong batch, jobjectArray views) {
  Batch* b = FromHandle<Batch>(batch);
  DropBatchViews(env, b);
  const jsize n = env->GetArrayLength(views);
  for (jsize i = 0; i < n; ++i) {
    LocalRef view(env, env->GetObjectArrayElement(views, i));
    jweak weak = env->NewWeakGlobalRef(view.get());
    if (weak == nullptr) {  // OutOfMemoryError pending
      DropBatchViews(env, b);
      return;
    }
    b->views.push_back(weak);
  }
}

// Drops every pin and points every view at nothing.
void ReleaseBatch(JNIEnv* env, jclass, jlong batch) {
  Batch* b = FromHandle<Batch>(batch);
  b->values.Release();
  for (jweak view : b->views) PointViewAtNothing(env, view);
}

// ReleaseBatch, and let go of the store's database too (as ReleaseDetached).
void ReleaseBatchDetached(JNIEnv* env, jclass, jlong batch) {
  Batch* b = FromHandle<Batch>(batch);
  internal::StoreBinding::Detach(&b->values);
  for (jweak view : b->views) PointViewAtNothing(env, view);
}

// Batched pinned_view over MultiGet into a reused batch: releases the
// previous pins, pins one value per key (keys packed by Java: PackedKeys),
// shows value i in views[i] (or nothing) and overwrites slots[i] (key i's
// length) with its size (or -1); then throws the call's status (the core's
// batch rule), else a value of 2 GiB or more. Per key: two JNI field
// writes and a read (PointView), nothing else. REQUIRES (kept by Java): the
// batch holds at least count views (SetBatchViews), slots at least count jints.
void MultiGet(JNIEnv* env, jclass, jlong store, jlong batch, jint count,
              jobject key_bytes, jobject slots, jlong snapshot,
              jint column_family, jint flags) {
  Batch* b = FromHandle<Batch>(batch);
  const size_t previous = b->values.size();
  if (count < 0 || static_cast<size_t>(count) > b->views.size()) {
    ThrowIllegalArgument(env, "batch: fewer views than keys");
    return;
  }
  jint* sizes = nullptr;
  if (!PackedKeys(env, key_bytes, slots, count, &b->keys, &sizes)) return;
  Status st = FromHandle<Store>(store)->MultiGetPinned(
      ToReadOptions(snapshot, column_family, flags), b->keys.size(),
      b->keys.keys(), &b->values);
  const PinnedBatch& values = b->values;
  Status too_large;
  const size_t n = static_cast<size_t>(count);
  const size_t shown_before = std::max({previous, values.size(), n});
  for (size_t i = 0; i < std::min(shown_before, b->views.size()); ++i) {
    const bool ok = i < values.size() && values.status(i).ok();
    const std::string_view v = ok ? values.view(i) : std::string_view();
    const bool shown = ok && FitsJava(v.size());
    if (ok && !shown) too_large = TooLargeStatus();
    PointView(env, b->views[i], shown ? v.data() : nullptr,
              shown ? v.size() : 0);
    if (i < n) sizes[i] = shown ? static_cast<jint>(v.size()) : kNotFound;
  }
  ThrowIfError(env, st.ok() ? too_large : st);
}

// Java checks index; a negative one becomes huge here, past size().
jobject BatchViewOf(JNIEnv* env, jclass, jlong batch, jint index) {
  const std::string_view v =
      FromHandle<Batch>(batch)->values.view(static_cast<size_t>(index));
  return NewView(env, v.data(), v.size());
}

jboolean BatchPinnedInCache(JNIEnv*, jclass, jlong batch, jint index) {
  return FromHandle<Batch>(batch)->values.pinned_in_cache(
             static_cast<size_t>(index))
             ? JNI_TRUE
             : JNI_FALSE;
}

#define PINGET_KEY_ARGS "[BLjava/nio/ByteBuffer;JIIJII"

const JNINativeMethod kMethods[] = {
    PINGET_NATIVE("canRepoint", "()Z", CanRepoint),
    PINGET_NATIVE("emptyView", "()Ljava/nio/ByteBuffer;", EmptyView),
    PINGET_NATIVE("attach", "(Ljava/nio/ByteBuffer;Ljava/lang/Object;)V",
                  Attach),
    PINGET_NATIVE("newPinned", "()J", NewPinned),
    PINGET_NATIVE("freePinned", "(J)V", FreePinned),
    PINGET_NATIVE("pin", "(JLjava/nio/ByteBuffer;" PINGET_KEY_ARGS ")J", Pin),
    PINGET_NATIVE("get", "(JJLjava/nio/ByteBuffer;" PINGET_KEY_ARGS ")I", Get),
    PINGET_NATIVE("getAt", "(JJJ" PINGET_KEY_ARGS ")I", GetAt),
    PINGET_NATIVE("addressOf", "(Ljava/nio/ByteBuffer;)J", AddressOf),
    PINGET_NATIVE("getCopiedIfSmall",
                  "(JJLjava/nio/ByteBuffer;JI" PINGET_KEY_ARGS ")I",
                  GetCopiedIfSmall),
    PINGET_NATIVE("release", "(JLjava/nio/ByteBuffer;)V", Release),
    PINGET_NATIVE("releaseDetached", "(JLjava/nio/ByteBuffer;)V",
                  ReleaseDetached),
    PINGET_NATIVE("pinnedInCache", "(J)Z", PinnedInCache),
    PINGET_NATIVE("viewOf", "(J)Ljava/nio/ByteBuffer;", ViewOf),
    PINGET_NATIVE("newBatch", "()J", NewBatch),
    PINGET_NATIVE("freeBatch", "(J)V", FreeBatch),
    PINGET_NATIVE("setBatchViews", "(J[Ljava/nio/ByteBuffer;)V", SetBatchViews),
    PINGET_NATIVE("releaseBatch", "(J)V", ReleaseBatch),
    PINGET_NATIVE("releaseBatchDetached", "(J)V", ReleaseBatchDetached),
    PINGET_NATIVE("multiGet",
                  "(JJILjava/nio/ByteBuffer;Ljava/nio/ByteBuffer;JII)V",
                  MultiGet),
    PINGET_NATIVE("batchViewOf", "(JI)Ljava/nio/ByteBuffer;", BatchViewOf),
    PINGET_NATIVE("batchPinnedInCache", "(JI)Z", BatchPinnedInCache),
};

}  // namespace

bool RegisterPinnedNatives(JNIEnv* env) {
  return RegisterNatives(env, "io/pinget/NativePinned", kMethods);
}

}  // namespace jni
}  // namespace pinget
