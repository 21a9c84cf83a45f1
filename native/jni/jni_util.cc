// Copyright pinget authors. Licensed under the Apache License 2.0.

#include "jni_util.h"

#include <cstring>
#include <string>

namespace pinget {
namespace jni {
namespace {

// java.nio.Buffer / DirectByteBuffer fields. Field IDs of boot classes stay
// valid for the life of the VM.
struct ViewFields {
  jfieldID address = nullptr;
  jfieldID capacity = nullptr;
  jfieldID limit = nullptr;
  jfieldID position = nullptr;
  jfieldID mark = nullptr;
  jfieldID attachment = nullptr;
  bool all() const {
    return address && capacity && limit && position && mark && attachment;
  }
};
ViewFields g_fields;
jmethodID g_position_method = nullptr;
jmethodID g_limit_method = nullptr;

// Where a released view points: a valid address, zero bytes readable.
char g_nothing[1];

jfieldID OptionalField(JNIEnv* env, jclass cls, const char* name,
                       const char* sig) {
  jfieldID id = env->GetFieldID(cls, name, sig);
  if (id == nullptr) env->ExceptionClear();  // NoSuchFieldError
  return id;
}

}  // namespace

void Throw(JNIEnv* env, const char* class_name, const char* message) {
  jclass cls = env->FindClass(class_name);
  if (cls == nullptr) return;  // NoClassDefFoundError pending instead
  env->ThrowNew(cls, message);
  env->DeleteLocalRef(cls);
}

bool ThrowIfError(JNIEnv* env, const Status& status) {
  switch (status.code()) {
    case Status::Code::kOk:
    case Status::Code::kNotFound:
      return false;
    case Status::Code::kClosed:
      Throw(env, "io/pinget/StoreClosedException", status.message().c_str());
      return true;
    case Status::Code::kInvalidArgument:
      Throw(env, "java/lang/IllegalArgumentException",
            status.ToString().c_str());
      return true;
    default:
      break;
  }
  // io.pinget.PingetException(int code, String message)
  jclass cls = env->FindClass("io/pinget/PingetException");
  if (cls == nullptr) return true;
  jmethodID ctor = env->GetMethodID(cls, "<init>", "(ILjava/lang/String;)V");
  jstring message =
      ctor == nullptr ? nullptr : env->NewStringUTF(status.ToString().c_str());
  if (message != nullptr) {
    jobject e =
        env->NewObject(cls, ctor, static_cast<jint>(status.code()), message);
    if (e != nullptr) env->Throw(static_cast<jthrowable>(e));
  }
  env->DeleteLocalRef(cls);
  return true;
}

bool CheckRange(JNIEnv* env, jint off, jint len, jlong size) {
  if (off < 0 || len < 0 || static_cast<jlong>(off) + len > size) {
    std::string message = "range [" + std::to_string(off) + ", " +
                          std::to_string(static_cast<jlong>(off) + len) +
                          ") out of bounds for length " + std::to_string(size);
    ThrowIndexOutOfBounds(env, message.c_str());
    return false;
  }
  return true;
}

ReadOptions ToReadOptions(jlong snapshot, jint column_family, jint flags) {
  ReadOptions options;
  options.snapshot = FromHandle<const Snapshot>(snapshot);
  options.column_family = static_cast<uint32_t>(column_family);
  options.fill_cache = (flags & kFillCache) != 0;
  options.verify_checksums = (flags & kVerifyChecksums) != 0;
  return options;
}

WriteOptions ToWriteOptions(jint flags) {
  WriteOptions options;
  options.sync = (flags & kSync) != 0;
  options.disable_wal = (flags & kDisableWal) != 0;
  return options;
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
      env->GetByteArrayRegion(array, off, len, reinterpret_cast<jbyte*>(dst));
      if (env->ExceptionCheck()) return false;
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

void BytesArg::CopyIfWithin(std::string_view region) {
  const auto begin = reinterpret_cast<uintptr_t>(data_);
  const auto region_begin = reinterpret_cast<uintptr_t>(region.data());
  if (size_ == 0 || data_ == stack_ || data_ == heap_.get() ||
      begin >= region_begin + region.size() || region_begin >= begin + size_) {
    return;
  }
  char* dst = stack_;
  if (size_ > kStackBytes) {
    heap_.reset(new char[size_]);
    dst = heap_.get();
  }
  std::memcpy(dst, data_, size_);
  data_ = dst;
  RecordKeyCopy();
}

bool CopyKeys(JNIEnv* env, jobjectArray keys, jsize begin, jsize count,
              std::string* arena, std::string_view* views) {
  if (keys == nullptr) {
    ThrowNullPointer(env, "keys is null");
    return false;
  }
  size_t total = 0;
  for (jsize i = 0; i < count; ++i) {
    LocalRef key(env, env->GetObjectArrayElement(keys, begin + i));
    if (key.get() == nullptr) {
      if (!env->ExceptionCheck()) ThrowNullPointer(env, "key is null");
      return false;
    }
    total += static_cast<size_t>(
        env->GetArrayLength(static_cast<jbyteArray>(key.get())));
  }
  arena->resize(total);
  size_t offset = 0;
  for (jsize i = 0; i < count; ++i) {
    LocalRef key(env, env->GetObjectArrayElement(keys, begin + i));
    const auto array = static_cast<jbyteArray>(key.get());
    const jsize n = env->GetArrayLength(array);
    char* dst = arena->data() + offset;
    if (n > 0) {
      env->GetByteArrayRegion(array, 0, n, reinterpret_cast<jbyte*>(dst));
      RecordKeyCopy();
    }
    views[i] = std::string_view(dst, static_cast<size_t>(n));
    offset += static_cast<size_t>(n);
  }
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
  jint position, limit;
  if (g_fields.position != nullptr && g_fields.limit != nullptr) {
    position = env->GetIntField(buffer, g_fields.position);
    limit = env->GetIntField(buffer, g_fields.limit);
  } else {
    position = env->CallIntMethod(buffer, g_position_method);
    if (env->ExceptionCheck()) return false;
    limit = env->CallIntMethod(buffer, g_limit_method);
    if (env->ExceptionCheck()) return false;
  }
  if (!CheckRange(env, position, limit - position,
                  env->GetDirectBufferCapacity(buffer))) {
    return false;
  }
  *data = address + position;
  *size = static_cast<size_t>(limit - position);
  return true;
}

bool CanRepointViews() { return g_fields.all(); }

void AttachView(JNIEnv* env, jobject view, jobject owner) {
  if (!CanRepointViews()) return;
  // att is final; the JIT does not trust final fields of java.nio classes.
  env->SetObjectField(view, g_fields.attachment, owner);
  PointViewAtNothing(env, view);
}

void PointView(JNIEnv* env, jobject view, const char* data, size_t size) {
  if (!CanRepointViews()) return;  // Java makes a new buffer per get instead
  const jint n = static_cast<jint>(size);
  env->SetLongField(view, g_fields.address,
                    static_cast<jlong>(reinterpret_cast<intptr_t>(data)));
  env->SetIntField(view, g_fields.capacity, n);
  env->SetIntField(view, g_fields.limit, n);
  env->SetIntField(view, g_fields.position, 0);
  env->SetIntField(view, g_fields.mark, -1);
}

void PointViewAtNothing(JNIEnv* env, jobject view) {
  PointView(env, view, g_nothing, 0);
}

jobject NewView(JNIEnv* env, const char* data, size_t size) {
  // JNI takes a non-const address; the Java side makes the buffer read-only.
  void* address = const_cast<char*>(size == 0 ? g_nothing : data);
  return env->NewDirectByteBuffer(address, static_cast<jlong>(size));
}

Status TooLargeStatus() {
  return Status::NotSupported("value of 2 GiB or more cannot reach Java");
}

bool CheckValueSize(JNIEnv* env, size_t size) {
  if (FitsJava(size)) return true;
  ThrowIfError(env, TooLargeStatus());
  return false;
}

bool InitUtil(JNIEnv* env) {
  jclass buffer = env->FindClass("java/nio/Buffer");
  if (buffer == nullptr) return false;
  g_position_method = env->GetMethodID(buffer, "position", "()I");
  if (g_position_method == nullptr) return false;
  g_limit_method = env->GetMethodID(buffer, "limit", "()I");
  if (g_limit_method == nullptr) return false;
  g_fields.address = OptionalField(env, buffer, "address", "J");
  g_fields.capacity = OptionalField(env, buffer, "capacity", "I");
  g_fields.limit = OptionalField(env, buffer, "limit", "I");
  g_fields.position = OptionalField(env, buffer, "position", "I");
  g_fields.mark = OptionalField(env, buffer, "mark", "I");
  env->DeleteLocalRef(buffer);
  jclass direct = env->FindClass("java/nio/DirectByteBuffer");
  if (direct == nullptr) {
    env->ExceptionClear();
  } else {
    g_fields.attachment =
        OptionalField(env, direct, "att", "Ljava/lang/Object;");
    env->DeleteLocalRef(direct);
  }
  return true;
}

bool RegisterNatives(JNIEnv* env, const char* class_name,
                     const JNINativeMethod* methods, int count) {
  jclass cls = env->FindClass(class_name);
  if (cls == nullptr) return false;
  const bool ok = env->RegisterNatives(cls, methods, count) == JNI_OK;
  env->DeleteLocalRef(cls);
  return ok;
}

}  // namespace jni
}  // namespace pinget

// The library's only exported symbol.
extern "C" JNIEXPORT jint JNI_OnLoad(JavaVM* vm, void* /*reserved*/) {
  using namespace pinget::jni;  // NOLINT
  JNIEnv* env = nullptr;
  if (vm->GetEnv(reinterpret_cast<void**>(&env), JNI_VERSION_1_8) != JNI_OK) {
    return JNI_ERR;
  }
  if (!InitUtil(env) || !RegisterStoreNatives(env) ||
      !RegisterWriteNatives(env) || !RegisterReadNatives(env) ||
      !RegisterPinnedNatives(env) || !RegisterStatsNatives(env)) {
    return JNI_ERR;
  }
  return JNI_VERSION_1_8;
}
