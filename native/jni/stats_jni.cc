// Copyright pinget authors. Licensed under the Apache License 2.0.
//
// io.pinget.NativeStats: this thread's copy counters (copy_stats.h), and
// io.pinget.Diagnostics: the empty call that the jni_nop benchmark row times.

#include "jni_util.h"

namespace pinget {
namespace jni {
namespace {

// out = {value_copies, value_bytes_copied, key_copies, allocations}.
void Get(JNIEnv* env, jclass, jlongArray out) {
  const CopyStats stats = GetCopyStats();
  const jlong values[] = {static_cast<jlong>(stats.value_copies),
                          static_cast<jlong>(stats.value_bytes_copied),
                          static_cast<jlong>(stats.key_copies),
                          static_cast<jlong>(stats.allocations)};
  if (out == nullptr || env->GetArrayLength(out) < 4) {
    ThrowIllegalArgument(env, "out must hold 4 longs");
    return;
  }
  env->SetLongArrayRegion(out, 0, 4, values);
}

void Reset(JNIEnv*, jclass) { ResetCopyStats(); }

// jni_nop: one JNI crossing and nothing else. No copy, no allocation.
jint JniNop(JNIEnv*, jclass) { return 0; }

const JNINativeMethod kMethods[] = {
    PINGET_NATIVE("get", "([J)V", Get),
    PINGET_NATIVE("reset", "()V", Reset),
};

const JNINativeMethod kDiagnosticsMethods[] = {
    PINGET_NATIVE("jniNop", "()I", JniNop),
};

}  // namespace

bool RegisterStatsNatives(JNIEnv* env) {
  return RegisterNatives(env, "io/pinget/NativeStats", kMethods) &&
         RegisterNatives(env, "io/pinget/Diagnostics", kDiagnosticsMethods);
}

}  // namespace jni
}  // namespace pinget
