// Copyright pinget authors. Licensed under the Apache License 2.0.
//
// io.pinget.NativeStats: this thread's copy counters (copy_stats.h), and
// io.pinget.Controls: the empty call that the jni_nop benchmark row times
// and the loops of native reads (controls.h) that the native_*_loop rows time.

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "jni_args.h"

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

// jni_nop: one JNI crossing and nothing else. No copy, no allocation.
jint JniNop(JNIEnv*, jclass) { return 0; }

// A Controls.NativeLoop: its keys (copied once) and the reused results.
struct Loop {
  BatchBuffers keys;
  PinnedValue value;
  PinnedBatch batch;
};

jlong NewLoop(JNIEnv* env, jclass, jobjectArray keys) {
  std::unique_ptr<Loop> loop(new Loop());
  if (keys == nullptr) {
    ThrowNullPointer(env, "keys is null");
    return 0;
  }
  if (!CopyKeys(env, keys, &loop->keys)) return 0;
  return ToHandle(loop.release());
}

void FreeLoop(JNIEnv*, jclass, jlong loop) { delete FromHandle<Loop>(loop); }

// Keys [from, from + count) of the loop, checked against its size.
const std::string_view* LoopKeys(JNIEnv* env, Loop* loop, jint from,
                                 jint count) {
  if (!CheckRange(env, from, count, static_cast<jlong>(loop->keys.size()))) {
    return nullptr;
  }
  return loop->keys.keys() + from;
}

jlong PinnedGetLoop(JNIEnv* env, jclass, jlong store, jlong handle, jint from,
                    jint count) {
  Loop* loop = FromHandle<Loop>(handle);
  const std::string_view* keys = LoopKeys(env, loop, from, count);
  if (keys == nullptr) return 0;
  uint64_t bytes = 0;
  ThrowIfError(env, pinget::PinnedGetLoop(*FromHandle<Store>(store), {},
                                          static_cast<size_t>(count), keys,
                                          &loop->value, &bytes));
  return static_cast<jlong>(bytes);
}

jlong PinnedBatchLoop(JNIEnv* env, jclass, jlong store, jlong handle, jint from,
                      jint count, jint batch) {
  Loop* loop = FromHandle<Loop>(handle);
  const std::string_view* keys = LoopKeys(env, loop, from, count);
  if (keys == nullptr) return 0;
  uint64_t bytes = 0;
  ThrowIfError(env, pinget::PinnedBatchLoop(*FromHandle<Store>(store), {},
                                            static_cast<size_t>(count), keys,
                                            static_cast<size_t>(batch),
                                            &loop->batch, &bytes));
  return static_cast<jlong>(bytes);
}

// The native side of the tables Java keeps in step with it, for a test:
// "<status code names in order>|<flag bits>".
jstring Constants(JNIEnv* env, jclass) {
  std::string s;
  for (int c = 0; c <= static_cast<int>(Status::Code::kUnknown); ++c) {
    s += StatusCodeName(static_cast<Status::Code>(c)) + std::string(",");
  }
  s += "|fill_cache=" + std::to_string(kFillCache) +
       ",verify_checksums=" + std::to_string(kVerifyChecksums) +
       ",pin_memtable=" + std::to_string(kPinMemtable) +
       ",sync=" + std::to_string(kSync) +
       ",disable_wal=" + std::to_string(kDisableWal);
  return env->NewStringUTF(s.c_str());
}

const JNINativeMethod kMethods[] = {
    PINGET_NATIVE("get", "([J)V", Get),
    PINGET_NATIVE("reset", "()V", Reset),
    PINGET_NATIVE("record", "(JZ)V", Record),
};

const JNINativeMethod kControlsMethods[] = {
    PINGET_NATIVE("jniNop", "()I", JniNop),
    PINGET_NATIVE("constants", "()Ljava/lang/String;", Constants),
    PINGET_NATIVE("newLoop", "([[B)J", NewLoop),
    PINGET_NATIVE("freeLoop", "(J)V", FreeLoop),
    PINGET_NATIVE("pinnedGetLoop", "(JJII)J", PinnedGetLoop),
    PINGET_NATIVE("pinnedBatchLoop", "(JJIII)J", PinnedBatchLoop),
};

}  // namespace

bool RegisterStatsNatives(JNIEnv* env) {
  return RegisterNatives(env, "io/pinget/NativeStats", kMethods) &&
         RegisterNatives(env, "io/pinget/Controls", kControlsMethods);
}

}  // namespace jni
}  // namespace pinget
