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
// threw. The message is always Status::ToString() ("<Code>: <message>"):
// Closed → StoreClosedException, InvalidArgument → IllegalArgumentException,
// any other code → PingetException with that code.
bool ThrowIfError(JNIEnv* env, const Status& status);

// Whether a value fits a Java array or buffer (at most 2 GiB - 1 bytes).
inline bool FitsJava(size_t size) {
  return size <= static_cast<size_t>(INT32_MAX);
}
// NotSupported: what a value of 2 GiB or more gets.
Status TooLargeStatus();

}  // namespace jni
}  // namespace pinget

#endif  // PINGET_JNI_JNI_ERRORS_H_
