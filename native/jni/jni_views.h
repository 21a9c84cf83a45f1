// Copyright pinget authors. Licensed under the Apache License 2.0.
//
// Views: read-only direct ByteBuffers created once in Java and re-pointed at
// pinned bytes from here by setting java.nio.Buffer's private fields, so that
// a get allocates nothing. A JDK that lacks one of the fields gets a new
// buffer per get instead (NewView).

#ifndef PINGET_JNI_JNI_VIEWS_H_
#define PINGET_JNI_JNI_VIEWS_H_

#include <jni.h>

#include <cstddef>

namespace pinget {
namespace jni {

// False if this JDK's buffers cannot be re-pointed.
bool CanRepointViews();
// Makes owner the view's attachment (so a caller holding only the view, or a
// slice of it, keeps the owner and its pin reachable). REQUIRES: the view
// shows nothing (a copy of emptyView's).
void AttachView(JNIEnv* env, jobject view, jobject owner);
// Points the view at [data, data + size) (an empty view at a valid dummy
// address): sets its address and capacity, and lowers its limit to the
// capacity if it was above it, so that no read through it passes the bytes
// shown, whatever Java does next. Position, mark and a limit below the
// capacity are left as they were: the Java caller resets them
// (Buffer.clear(), which raises the limit to the capacity) before it hands
// the view out, which costs nothing there and a JNI field write (a call into
// the VM) here; reading the limit first is HotSpot's fast field access.
// REQUIRES: size <= INT32_MAX.
void PointView(JNIEnv* env, jobject view, const char* data, size_t size);
// The address a view of [data, data + size) is given: data, or a static
// dummy byte when empty (never a null address).
const char* ViewAddress(const char* data, size_t size);
// Points the view at a static dummy byte with capacity 0: reading a stale
// view throws instead of reading released memory.
void PointViewAtNothing(JNIEnv* env, jobject view);
// A new direct buffer over [data, size) (the fallback; allocates).
jobject NewView(JNIEnv* env, const char* data, size_t size);

// Called once from JNI_OnLoad. Returns false with an exception pending.
bool InitViews(JNIEnv* env);

}  // namespace jni
}  // namespace pinget

#endif  // PINGET_JNI_JNI_VIEWS_H_
