// Copyright pinget authors. Licensed under the Apache License 2.0.

#include "jni_errors.h"

#include <string>

namespace pinget {
namespace jni {

void Throw(JNIEnv* env, const char* class_name, const char* message) {
  jclass cls = env->FindClass(class_name);
  if (cls == nullptr) return;  // NoClassDefFoundError pending instead
  env->ThrowNew(cls, message);
  env->DeleteLocalRef(cls);
}

bool ThrowIfError(JNIEnv* env, const Status& status) {
  if (status.ok() || status.IsNotFound()) return false;
  const std::string message = status.ToString();
  if (status.IsClosed()) {
    Throw(env, "io/pinget/StoreClosedException", message.c_str());
    return true;
  }
  if (status.IsInvalidArgument()) {
    Throw(env, "java/lang/IllegalArgumentException", message.c_str());
    return true;
  }
  // io.pinget.PingetException(int code, String message)
  jclass cls = env->FindClass("io/pinget/PingetException");
  if (cls == nullptr) return true;
  jmethodID ctor = env->GetMethodID(cls, "<init>", "(ILjava/lang/String;)V");
  jstring text = ctor == nullptr ? nullptr : env->NewStringUTF(message.c_str());
  if (text != nullptr) {
    jobject e =
        env->NewObject(cls, ctor, static_cast<jint>(status.code()), text);
    if (e != nullptr) env->Throw(static_cast<jthrowable>(e));
  }
  env->DeleteLocalRef(cls);
  return true;
}

Status TooLargeStatus() {
  return Status::NotSupported("value of 2 GiB or more cannot reach Java");
}

}  // namespace jni
}  // namespace pinget
