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

namespace {
// io.pinget.PingetException and its static of(int, String): the one mapper
// from a status code to a Java exception, which the FFM binding calls too.
jclass g_exception_class = nullptr;
jmethodID g_exception_of = nullptr;
}  // namespace

bool InitErrors(JNIEnv* env) {
  jclass cls = env->FindClass("io/pinget/PingetException");
  if (cls == nullptr) return false;
  g_exception_class = static_cast<jclass>(env->NewGlobalRef(cls));
  env->DeleteLocalRef(cls);
  g_exception_of = env->GetStaticMethodID(
      g_exception_class, "of",
      "(ILjava/lang/String;)Ljava/lang/RuntimeException;");
  return g_exception_class != nullptr && g_exception_of != nullptr;
}

bool ThrowIfError(JNIEnv* env, const Status& status) {
  if (status.ok() || status.IsNotFound()) return false;
  jstring text = env->NewStringUTF(status.ToString().c_str());
  if (text == nullptr) return true;  // OutOfMemoryError pending
  jobject e =
      env->CallStaticObjectMethod(g_exception_class, g_exception_of,
                                  static_cast<jint>(status.code()), text);
  env->DeleteLocalRef(text);
  if (env->ExceptionCheck()) return true;  // of() failed (OutOfMemoryError)
  if (e != nullptr) {
    env->Throw(static_cast<jthrowable>(e));
    env->DeleteLocalRef(e);
  }
  return true;
}

Status TooLargeStatus() {
  return Status::NotSupported("value of 2 GiB or more cannot reach Java");
}

}  // namespace jni
}  // namespace pinget
