// Copyright pinget authors. Licensed under the Apache License 2.0.
//
// Exceptions: the one place where a Status becomes a Java exception, and the
// throws the glue's own checks make.

#ifndef PINGET_JNI_JNI_ERRORS_H_
#define PINGET_JNI_JNI_ERRORS_H_

#include <jni.h>

#include <cstddef>
#include <cstdint>

#include "pinget/status.h"

namespace pinget {
namespace jni {

// Throws a new exception of the named class (JNI name, "java/lang/...").
void Throw(JNIEnv* env, const char* class_name, const char* message);
inline void ThrowNullPointer(JNIEnv* env, const char* message) {
  Throw(env, "java/lang/NullPointerException", message);
}
inline void ThrowIllegalArgument(JNIEnv* env, const char* message) {
  Throw(env, "java/lang/IllegalArgumentException", message);
}

// Throws for every status except OK and NotFound and returns true if it
// threw: the exception io.pinget.PingetException.of(code, message) maps it
// to (the one mapper, shared with the FFM binding), the message always
// Status::ToString() ("<Code>: <message>").
bool ThrowIfError(JNIEnv* env, const Status& status);

// Called once from JNI_OnLoad. Returns false with an exception pending.
bool InitErrors(JNIEnv* env);

// Whether a value fits a Java array or buffer (at most 2 GiB - 1 bytes).
inline bool FitsJava(size_t size) {
  return size <= static_cast<size_t>(INT32_MAX);
}
// NotSupported: what a value of 2 GiB or more gets.
Status TooLargeStatus();

}  // namespace jni
}  // namespace pinget

#endif  // PINGET_JNI_JNI_ERRORS_H_
