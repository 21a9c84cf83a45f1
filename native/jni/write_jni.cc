// Copyright pinget authors. Licensed under the Apache License 2.0.
//
// io.pinget.NativeWrite: puts, deletes and write batches. Keys and values
// from byte[] are copied out of the Java heap before RocksDB is called, so no
// critical region spans a write that may stall.

#include "jni_args.h"

namespace pinget {
namespace jni {
namespace {

void Put(JNIEnv* env, jclass, jlong store, jint write_flags, jint column_family,
         jbyteArray key, jobject key_buffer, jint key_off, jint key_len,
         jbyteArray value, jobject value_buffer, jint value_off,
         jint value_len) {
  BytesArg k, v;
  if (!InitKey(env, &k, key, key_buffer, key_off, key_len) ||
      !InitValue(env, &v, value, value_buffer, value_off, value_len)) {
    return;
  }
  ThrowIfError(
      env, FromHandle<Store>(store)->Put(ToWriteOptions(write_flags),
                                         static_cast<uint32_t>(column_family),
                                         k.view(), v.view()));
}

void Delete(JNIEnv* env, jclass, jlong store, jint write_flags,
            jint column_family, jbyteArray key, jobject key_buffer,
            jint key_off, jint key_len) {
  BytesArg k;
  if (!InitKey(env, &k, key, key_buffer, key_off, key_len)) return;
  ThrowIfError(env, FromHandle<Store>(store)->Delete(
                        ToWriteOptions(write_flags),
                        static_cast<uint32_t>(column_family), k.view()));
}

void Write(JNIEnv* env, jclass, jlong store, jint write_flags, jlong batch) {
  ThrowIfError(env,
               FromHandle<Store>(store)->Write(ToWriteOptions(write_flags),
                                               *FromHandle<WriteBatch>(batch)));
}

jlong NewBatch(JNIEnv*, jclass) { return ToHandle(new WriteBatch()); }

void FreeBatch(JNIEnv*, jclass, jlong batch) {
  delete FromHandle<WriteBatch>(batch);
}

void BatchPut(JNIEnv* env, jclass, jlong batch, jint column_family,
              jbyteArray key, jobject key_buffer, jint key_off, jint key_len,
              jbyteArray value, jobject value_buffer, jint value_off,
              jint value_len) {
  BytesArg k, v;
  if (!InitKey(env, &k, key, key_buffer, key_off, key_len) ||
      !InitValue(env, &v, value, value_buffer, value_off, value_len)) {
    return;
  }
  FromHandle<WriteBatch>(batch)->Put(static_cast<uint32_t>(column_family),
                                     k.view(), v.view());
}

void BatchDelete(JNIEnv* env, jclass, jlong batch, jint column_family,
                 jbyteArray key, jobject key_buffer, jint key_off,
                 jint key_len) {
  BytesArg k;
  if (!InitKey(env, &k, key, key_buffer, key_off, key_len)) return;
  FromHandle<WriteBatch>(batch)->Delete(static_cast<uint32_t>(column_family),
                                        k.view());
}

void BatchClear(JNIEnv*, jclass, jlong batch) {
  FromHandle<WriteBatch>(batch)->Clear();
}

jint BatchCount(JNIEnv*, jclass, jlong batch) {
  return static_cast<jint>(FromHandle<WriteBatch>(batch)->Count());
}

const JNINativeMethod kMethods[] = {
    PINGET_NATIVE(
        "put", "(JII[BLjava/nio/ByteBuffer;II[BLjava/nio/ByteBuffer;II)V", Put),
    PINGET_NATIVE("delete", "(JII[BLjava/nio/ByteBuffer;II)V", Delete),
    PINGET_NATIVE("write", "(JIJ)V", Write),
    PINGET_NATIVE("newBatch", "()J", NewBatch),
    PINGET_NATIVE("freeBatch", "(J)V", FreeBatch),
    PINGET_NATIVE("batchPut",
                  "(JI[BLjava/nio/ByteBuffer;II[BLjava/nio/ByteBuffer;II)V",
                  BatchPut),
    PINGET_NATIVE("batchDelete", "(JI[BLjava/nio/ByteBuffer;II)V", BatchDelete),
    PINGET_NATIVE("batchClear", "(J)V", BatchClear),
    PINGET_NATIVE("batchCount", "(J)I", BatchCount),
};

}  // namespace

bool RegisterWriteNatives(JNIEnv* env) {
  return RegisterNatives(env, "io/pinget/NativeWrite", kMethods);
}

}  // namespace jni
}  // namespace pinget
