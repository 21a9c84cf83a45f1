// Copyright pinget authors. Licensed under the Apache License 2.0.

#include "jni_args.h"

#include <cstring>
#include <string>

namespace pinget {
namespace jni {
namespace {
// java.nio.Buffer's public position() and limit(); method IDs of boot
// classes stay valid for the life of the VM.
jmethodID g_position = nullptr;
jmethodID g_limit = nullptr;
}  // namespace

bool CheckRange(JNIEnv* env, jint off, jint len, jlong size) {
  if (off < 0 || len < 0 || static_cast<jlong>(off) + len > size) {
    std::string message = "range [" + std::to_string(off) + ", " +
                          std::to_string(static_cast<jlong>(off) + len) +
                          ") out of bounds for length " + std::to_string(size);
    Throw(env, "java/lang/IndexOutOfBoundsException", message.c_str());
    return false;
  }
  return true;
}

bool BytesArg::Init(JNIEnv* env, jbyteArray array, jobject buffer, jint off,
                    jint len, bool count_as_key) {
  if (array != nullptr) {
    if (!CheckRange(env, off, len, env->GetArrayLength(array))) return false;
    size_ = static_cast<size_t>(len);
    char* dst = stack_;
    if (size_ > kStackBytes) {
      heap_.reset(new char[size_]);
      dst = heap_.get();
    }
    if (size_ > 0) {
      // Cannot throw: the range was checked above.
      env->GetByteArrayRegion(array, off, len, reinterpret_cast<jbyte*>(dst));
      if (count_as_key) RecordKeyCopy();
    }
    data_ = dst;
    return true;
  }
  if (buffer == nullptr) {
    ThrowNullPointer(env, "bytes are null");
    return false;
  }
  const char* address =
      static_cast<const char*>(env->GetDirectBufferAddress(buffer));
  if (address == nullptr) {
    ThrowIllegalArgument(env, "not a direct ByteBuffer");
    return false;
  }
  if (!CheckRange(env, off, len, env->GetDirectBufferCapacity(buffer))) {
    return false;
  }
  data_ = address + off;
  size_ = static_cast<size_t>(len);
  return true;
}

void BytesArg::InitAt(jlong at, jint len, bool count_as_key) {
  data_ = FromHandle<const char>(at);
  size_ = static_cast<size_t>(len);
  if (count_as_key && size_ > 0) RecordKeyCopy();
}

bool CopyKeys(JNIEnv* env, jobjectArray keys, BatchBuffers* batch) {
  batch->Reset();
  const jsize n = env->GetArrayLength(keys);
  for (jsize i = 0; i < n; ++i) {
    LocalRef key(env, env->GetObjectArrayElement(keys, i));
    if (key.get() == nullptr) {
      ThrowNullPointer(env, ("keys[" + std::to_string(i) + "]").c_str());
      return false;
    }
    const auto array = static_cast<jbyteArray>(key.get());
    const jsize len = env->GetArrayLength(array);
    char* dst = batch->AddKey(static_cast<size_t>(len));
    if (len > 0) {
      env->GetByteArrayRegion(array, 0, len, reinterpret_cast<jbyte*>(dst));
      RecordKeyCopy();
    }
  }
  return true;
}

bool PackedKeys(JNIEnv* env, jobject bytes, jobject lengths, jint count,
                BatchBuffers* batch, jint** slots) {
  const char* data = static_cast<char*>(
      bytes == nullptr ? nullptr : env->GetDirectBufferAddress(bytes));
  auto* sizes = static_cast<jint*>(
      lengths == nullptr ? nullptr : env->GetDirectBufferAddress(lengths));
  if (data == nullptr || sizes == nullptr || count < 0 ||
      env->GetDirectBufferCapacity(lengths) / jlong{sizeof(jint)} < count) {
    ThrowIllegalArgument(env, "packed keys: bad buffers");
    return false;
  }
  const auto capacity =
      static_cast<size_t>(env->GetDirectBufferCapacity(bytes));
  batch->Reset();
  std::string_view* keys = batch->KeysInPlace(static_cast<size_t>(count));
  size_t offset = 0;
  size_t copied = 0;
  for (jint i = 0; i < count; ++i) {
    const auto size = static_cast<size_t>(sizes[i]);
    if (sizes[i] < 0 || size > capacity - offset) {
      ThrowIllegalArgument(env, "packed keys: bad length");
      return false;
    }
    keys[i] = {data + offset, size};
    offset += size;
    copied += size > 0 ? 1 : 0;
  }
  RecordKeyCopy(copied);
  if (slots != nullptr) *slots = sizes;
  return true;
}

bool DirectWindow(JNIEnv* env, jobject buffer, char** data, size_t* size) {
  if (buffer == nullptr) {
    ThrowNullPointer(env, "buffer is null");
    return false;
  }
  char* address = static_cast<char*>(env->GetDirectBufferAddress(buffer));
  if (address == nullptr) {
    ThrowIllegalArgument(env, "not a direct ByteBuffer");
    return false;
  }
  const jint position = env->CallIntMethod(buffer, g_position);
  if (env->ExceptionCheck()) return false;
  const jint limit = env->CallIntMethod(buffer, g_limit);
  if (env->ExceptionCheck() ||
      !CheckRange(env, position, limit - position,
                  env->GetDirectBufferCapacity(buffer))) {
    return false;
  }
  *data = address + position;
  *size = static_cast<size_t>(limit - position);
  return true;
}

bool InitArgs(JNIEnv* env) {
  jclass buffer = env->FindClass("java/nio/Buffer");
  if (buffer == nullptr) return false;
  g_position = env->GetMethodID(buffer, "position", "()I");
  g_limit = env->GetMethodID(buffer, "limit", "()I");
  env->DeleteLocalRef(buffer);
  return g_position != nullptr && g_limit != nullptr;
}

}  // namespace jni
}  // namespace pinget
