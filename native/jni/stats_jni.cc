// Copyright pinget authors. Licensed under the Apache License 2.0.
//
// io.pinget.NativeStats: this thread's copy counters (copy_stats.h); and
// io.pinget.NativeLibrary.constants(): the native side of the constant tables,
// which the loader compares with the classes' own.

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "jni_args.h"
#include "pinget/c.h"

namespace pinget {
namespace jni {
namespace {

// out = {value_copies, value_bytes_copied, key_copies, allocations}, then
// {file_reads, file_bytes_read} if out has room for them.
void Get(JNIEnv* env, jclass, jlongArray out) {
  const CopyStats stats = GetCopyStats();
  const jlong values[] = {static_cast<jlong>(stats.value_copies),
                          static_cast<jlong>(stats.value_bytes_copied),
                          static_cast<jlong>(stats.key_copies),
                          static_cast<jlong>(stats.allocations),
                          static_cast<jlong>(stats.file_reads),
                          static_cast<jlong>(stats.file_bytes_read)};
  constexpr jsize kAll = sizeof values / sizeof values[0];
  const jsize n = out == nullptr ? 0 : env->GetArrayLength(out);
  if (n < 4) {  // Java checked
    ThrowIllegalArgument(env, "out must hold 4 longs");
    return;
  }
  env->SetLongArrayRegion(out, 0, n < kAll ? 4 : kAll, values);
}

void Reset(JNIEnv*, jclass) { ResetCopyStats(); }

// A copy (and allocation) made in Java on pinget's behalf: Decoders.bytes(),
// CopyStats.recordValueCopy / recordAllocation. copy_bytes < 0: no copy.
void Record(JNIEnv*, jclass, jlong copy_bytes, jboolean allocation) {
  if (copy_bytes >= 0) RecordValueCopy(static_cast<size_t>(copy_bytes));
  if (allocation) RecordAllocation();
}

// The native side of the tables Java keeps in step with it, which the loader
// compares with its own (NativeLibrary): "<status code names in order>|<flag
// bits>".
jstring Constants(JNIEnv* env, jclass) {
  std::string s;
  for (int c = 0; c <= static_cast<int>(Status::Code::kUnknown); ++c) {
    s += StatusCodeName(static_cast<Status::Code>(c)) + std::string(",");
  }
  s += "|fill_cache=" + std::to_string(PINGET_READ_FILL_CACHE) +
       ",verify_checksums=" + std::to_string(PINGET_READ_VERIFY_CHECKSUMS) +
       ",pin_memtable=" + std::to_string(PINGET_READ_PIN_MEMTABLE) +
       ",sync=" + std::to_string(PINGET_WRITE_SYNC) +
       ",disable_wal=" + std::to_string(PINGET_WRITE_DISABLE_WAL);
  return env->NewStringUTF(s.c_str());
}

const JNINativeMethod kMethods[] = {
    PINGET_NATIVE("get", "([J)V", Get),
    PINGET_NATIVE("reset", "()V", Reset),
    PINGET_NATIVE("record", "(JZ)V", Record),
};

const JNINativeMethod kLibraryMethods[] = {
    PINGET_NATIVE("constants", "()Ljava/lang/String;", Constants),
};

}  // namespace

bool RegisterStatsNatives(JNIEnv* env) {
  return RegisterNatives(env, "io/pinget/NativeStats", kMethods) &&
         RegisterNatives(env, "io/pinget/NativeLibrary", kLibraryMethods);
}

}  // namespace jni
}  // namespace pinget
