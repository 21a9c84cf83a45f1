// Copyright pinget authors. Licensed under the Apache License 2.0.

#include "jni_args.h"
#include "jni_views.h"

namespace pinget {
namespace jni {

// Defined by the native files, one table each.
bool RegisterStoreNatives(JNIEnv* env);
bool RegisterWriteNatives(JNIEnv* env);
bool RegisterReadNatives(JNIEnv* env);
bool RegisterPinnedNatives(JNIEnv* env);
bool RegisterStatsNatives(JNIEnv* env);  // NativeStats and NativeLibrary
bool RegisterRocksJavaNatives(JNIEnv* env);
bool RegisterCursorNatives(JNIEnv* env);

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

// Exported beside the C API's pinget_* functions (c.cc is compiled into this
// library for the FFM binding); everything else is hidden.
extern "C" JNIEXPORT jint JNI_OnLoad(JavaVM* vm, void* /*reserved*/) {
  using namespace pinget::jni;  // NOLINT
  JNIEnv* env = nullptr;
  if (vm->GetEnv(reinterpret_cast<void**>(&env), JNI_VERSION_1_8) != JNI_OK) {
    return JNI_ERR;
  }
  if (!InitArgs(env) || !InitErrors(env) || !InitViews(env) ||
      !RegisterStoreNatives(env) || !RegisterWriteNatives(env) ||
      !RegisterReadNatives(env) || !RegisterPinnedNatives(env) ||
      !RegisterStatsNatives(env) || !RegisterRocksJavaNatives(env) ||
      !RegisterCursorNatives(env)) {
    return JNI_ERR;
  }
  return JNI_VERSION_1_8;
}
