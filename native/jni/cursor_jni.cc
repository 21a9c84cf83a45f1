// Copyright pinget authors. Licensed under the Apache License 2.0.
//
// io.pinget.NativeCursor: a pinget::Cursor and its Java views. A batch is one
// call: the cursor lends its entries, and either key view i and value view i
// are re-pointed at them here (JNI field writes; views past the batch at
// nothing) or, where Java re-points its own views (io.pinget.Views.point),
// entry i's addresses and sizes are written to the Java cursor's table (plain
// stores), so a warm scan allocates nothing. Values are RocksDB's memory (no
// copy); keys are the cursor's copies. Single-threaded, as the Java Cursor.

#include <algorithm>
#include <cstdint>
#include <vector>

#include "jni_args.h"
#include "jni_views.h"

namespace pinget {
namespace jni {
namespace {

// The cursor and its Java views, weak global references (so the Java Cursor
// stays collectable and its Cleaner can run; Java holds them strongly in its
// arrays during every call). shown: views that may show an entry.
// table: where Java re-points its views, kTableSlots int64 per entry (key
// address, key size, value address, value size) in a direct buffer that the
// Java cursor keeps; then there are no views here.
struct JavaCursor {
  std::unique_ptr<Cursor> cursor;
  std::vector<jweak> keys;
  std::vector<jweak> values;
  size_t shown = 0;
  int64_t* table = nullptr;
  size_t table_entries = 0;
};

constexpr size_t kTableSlots = 4;

bool ToBytes(JNIEnv* env, jbyteArray array, std::string* out) {
  if (array == nullptr) return true;  // no bound
  const jsize n = env->GetArrayLength(array);
  out->resize(static_cast<size_t>(n));
  env->GetByteArrayRegion(array, 0, n, reinterpret_cast<jbyte*>(out->data()));
  return !env->ExceptionCheck();
}

jlong Open(JNIEnv* env, jclass, jlong store, jbyteArray lower, jbyteArray upper,
           jbyteArray prefix, jlong snapshot, jint column_family, jint flags) {
  CursorOptions options;
  options.read = ToReadOptions(snapshot, column_family, flags);
  if (!ToBytes(env, lower, &options.lower_bound) ||
      !ToBytes(env, upper, &options.upper_bound) ||
      !ToBytes(env, prefix, &options.prefix)) {
    return 0;
  }
  std::unique_ptr<JavaCursor> c(new JavaCursor());
  if (ThrowIfError(env,
                   FromHandle<Store>(store)->NewCursor(options, &c->cursor))) {
    return 0;
  }
  return ToHandle(c.release());
}

void DropViews(JNIEnv* env, JavaCursor* c) {
  for (jweak view : c->keys) env->DeleteWeakGlobalRef(view);
  for (jweak view : c->values) env->DeleteWeakGlobalRef(view);
  c->keys.clear();
  c->values.clear();
  c->shown = 0;
}

// Called by the Cleaner or close(): drops the views' references, the
// iterator, the snapshot and the database reference.
void Free(JNIEnv* env, jclass, jlong cursor) {
  JavaCursor* c = FromHandle<JavaCursor>(cursor);
  DropViews(env, c);
  delete c;
}

// As Free, for a cursor over a borrowed database that its owner (RocksJava)
// has closed: the cursor, its iterator and its engine reference are leaked,
// since destroying the iterator would touch the freed database.
void Abandon(JNIEnv* env, jclass, jlong cursor) {
  JavaCursor* c = FromHandle<JavaCursor>(cursor);
  DropViews(env, c);
  static_cast<void>(c->cursor.release());
  delete c;
}

bool Weak(JNIEnv* env, jobjectArray views, std::vector<jweak>* out) {
  const jsize n = env->GetArrayLength(views);
  for (jsize i = 0; i < n; ++i) {
    LocalRef view(env, env->GetObjectArrayElement(views, i));
    jweak weak = env->NewWeakGlobalRef(view.get());
    if (weak == nullptr) return false;  // OutOfMemoryError pending
    out->push_back(weak);
  }
  return true;
}

// Replaces the views (Java grows its arrays, both to the same length).
void SetViews(JNIEnv* env, jclass, jlong cursor, jobjectArray keys,
              jobjectArray values) {
  JavaCursor* c = FromHandle<JavaCursor>(cursor);
  DropViews(env, c);
  if (!Weak(env, keys, &c->keys) || !Weak(env, values, &c->values)) {
    DropViews(env, c);
  }
}

// Shows the cursor's batch in the views, and nothing in those that showed
// the last one. Returns the batch's size, or throws the status.
jint Show(JNIEnv* env, JavaCursor* c, const Status& st) {
  const Cursor& cursor = *c->cursor;
  Status too_large;
  for (size_t i = 0; i < cursor.count(); ++i) {
    if (!FitsJava(cursor.key(i).size()) || !FitsJava(cursor.value(i).size())) {
      too_large = TooLargeStatus();
    }
  }
  // Entry i as Java sees it: nothing for an entry past the batch or too large.
  auto entry = [&cursor](size_t i, size_t n, std::string_view* k,
                         std::string_view* v) {
    *k = i < n ? cursor.key(i) : std::string_view();
    *v = i < n ? cursor.value(i) : std::string_view();
    if (!FitsJava(k->size()) || !FitsJava(v->size())) {
      *k = *v = std::string_view();
    }
  };
  std::string_view k, v;
  if (c->table != nullptr) {
    const size_t n = std::min(cursor.count(), c->table_entries);
    for (size_t i = 0; i < n; ++i) {
      entry(i, n, &k, &v);
      int64_t* e = c->table + i * kTableSlots;
      e[0] = reinterpret_cast<intptr_t>(ViewAddress(k.data(), k.size()));
      e[1] = static_cast<int64_t>(k.size());
      e[2] = reinterpret_cast<intptr_t>(ViewAddress(v.data(), v.size()));
      e[3] = static_cast<int64_t>(v.size());
    }
  } else {
    const size_t n = std::min(cursor.count(), c->keys.size());
    for (size_t i = 0; i < std::max(n, c->shown); ++i) {
      entry(i, n, &k, &v);
      PointView(env, c->keys[i], k.data(), k.size());
      PointView(env, c->values[i], v.data(), v.size());
    }
    c->shown = n;
  }
  if (ThrowIfError(env, st.ok() ? too_large : st)) return 0;
  return static_cast<jint>(cursor.count());
}

// Makes table (a direct buffer of kTableSlots int64 per entry, native byte
// order, kept by Java) where batches are written instead of views.
void SetTable(JNIEnv* env, jclass, jlong cursor, jobject table) {
  JavaCursor* c = FromHandle<JavaCursor>(cursor);
  c->table = static_cast<int64_t*>(env->GetDirectBufferAddress(table));
  c->table_entries = static_cast<size_t>(env->GetDirectBufferCapacity(table)) /
                     (kTableSlots * sizeof(int64_t));
}

// how: 0 first, 1 last, 2 at or after key, 3 at or before key.
void Seek(JNIEnv* env, jclass, jlong cursor, jint how, jbyteArray key,
          jobject key_buffer, jlong key_at, jint key_off, jint key_len) {
  JavaCursor* c = FromHandle<JavaCursor>(cursor);
  Status st;
  if (how < 2) {
    st = how == 0 ? c->cursor->SeekToFirst() : c->cursor->SeekToLast();
  } else {
    BytesArg k;
    if (!InitKey(env, &k, key, key_buffer, key_at, key_off, key_len)) return;
    st =
        how == 2 ? c->cursor->Seek(k.view()) : c->cursor->SeekForPrev(k.view());
  }
  Show(env, c, st);
}

// Lends up to max entries forward or backward. Java keeps max within its
// views (or sets none: a JDK whose views cannot be re-pointed).
jint Lend(JNIEnv* env, jclass, jlong cursor, jint max, jboolean forward) {
  JavaCursor* c = FromHandle<JavaCursor>(cursor);
  const size_t m = static_cast<size_t>(max);
  Status st = forward ? c->cursor->Next(m) : c->cursor->Prev(m);
  return Show(env, c, st);
}

void Close(JNIEnv* env, jclass, jlong cursor) {
  JavaCursor* c = FromHandle<JavaCursor>(cursor);
  c->cursor->Close();
  Show(env, c, Status::OK());
}

// The fallback for a JDK whose views cannot be re-pointed: new buffers. Java
// checks index.
jobject KeyOf(JNIEnv* env, jclass, jlong cursor, jint index) {
  std::string_view k =
      FromHandle<JavaCursor>(cursor)->cursor->key(static_cast<size_t>(index));
  return NewView(env, k.data(), k.size());
}

jobject ValueOf(JNIEnv* env, jclass, jlong cursor, jint index) {
  std::string_view v =
      FromHandle<JavaCursor>(cursor)->cursor->value(static_cast<size_t>(index));
  return NewView(env, v.data(), v.size());
}

jboolean ValuePinned(JNIEnv*, jclass, jlong cursor, jint index) {
  return FromHandle<JavaCursor>(cursor)->cursor->value_pinned(
             static_cast<size_t>(index))
             ? JNI_TRUE
             : JNI_FALSE;
}

// Copies min(size, len) bytes of entry index's key (or value) into
// dst[off, off + len) and returns its full size: one counted copy (a key's is
// a key copy, a value's a value copy). Java checks index and the range.
jint CopyOut(JNIEnv* env, jclass, jlong cursor, jint index, jboolean value,
             jbyteArray dst, jint off, jint len) {
  const Cursor& c = *FromHandle<JavaCursor>(cursor)->cursor;
  const size_t i = static_cast<size_t>(index);
  std::string_view bytes = value ? c.value(i) : c.key(i);
  if (!FitsJava(bytes.size())) {
    ThrowIfError(env, TooLargeStatus());
    return 0;
  }
  const jint n = std::min(len, static_cast<jint>(bytes.size()));
  if (!CheckRange(env, off, len, env->GetArrayLength(dst))) return 0;
  if (n > 0) {
    env->SetByteArrayRegion(dst, off, n,
                            reinterpret_cast<const jbyte*>(bytes.data()));
  }
  value ? RecordValueCopy(static_cast<size_t>(n)) : RecordKeyCopy();
  return static_cast<jint>(bytes.size());
}

#define PINGET_KEY_ARGS "[BLjava/nio/ByteBuffer;JII"

const JNINativeMethod kMethods[] = {
    PINGET_NATIVE("open", "(J[B[B[BJII)J", Open),
    PINGET_NATIVE("free", "(J)V", Free),
    PINGET_NATIVE("abandon", "(J)V", Abandon),
    PINGET_NATIVE("setViews",
                  "(J[Ljava/nio/ByteBuffer;[Ljava/nio/ByteBuffer;)V", SetViews),
    PINGET_NATIVE("setTable", "(JLjava/nio/ByteBuffer;)V", SetTable),
    PINGET_NATIVE("seek", "(JI" PINGET_KEY_ARGS ")V", Seek),
    PINGET_NATIVE("lend", "(JIZ)I", Lend),
    PINGET_NATIVE("close", "(J)V", Close),
    PINGET_NATIVE("keyOf", "(JI)Ljava/nio/ByteBuffer;", KeyOf),
    PINGET_NATIVE("valueOf", "(JI)Ljava/nio/ByteBuffer;", ValueOf),
    PINGET_NATIVE("valuePinned", "(JI)Z", ValuePinned),
    PINGET_NATIVE("copyOut", "(JIZ[BII)I", CopyOut),
};

}  // namespace

bool RegisterCursorNatives(JNIEnv* env) {
  return RegisterNatives(env, "io/pinget/NativeCursor", kMethods);
}

}  // namespace jni
}  // namespace pinget
