// Copyright pinget authors. Licensed under the Apache License 2.0.

#include "jni_views.h"

#include <cstdint>

namespace pinget {
namespace jni {
namespace {

// java.nio.Buffer / DirectByteBuffer fields. Field IDs of boot classes stay
// valid for the life of the VM.
struct ViewFields {
  jfieldID address = nullptr;
  jfieldID capacity = nullptr;
  jfieldID limit = nullptr;
  jfieldID attachment = nullptr;
  bool all() const { return address && capacity && limit && attachment; }
};
ViewFields g_fields;

// Where a released view points: a valid address, zero bytes readable.
char g_nothing[1];

jfieldID OptionalField(JNIEnv* env, jclass cls, const char* name,
                       const char* sig) {
  jfieldID id = env->GetFieldID(cls, name, sig);
  if (id == nullptr) env->ExceptionClear();  // NoSuchFieldError
  return id;
}

}  // namespace

bool CanRepointViews() { return g_fields.all(); }

void AttachView(JNIEnv* env, jobject view, jobject owner) {
  if (!CanRepointViews()) return;
  // att is final; the JIT does not trust final fields of java.nio classes.
  env->SetObjectField(view, g_fields.attachment, owner);
}

const char* ViewAddress(const char* data, size_t size) {
  return size == 0 ? g_nothing : data;
}

void PointView(JNIEnv* env, jobject view, const char* data, size_t size) {
  if (!CanRepointViews()) return;  // Java makes a new buffer per get instead
  data = ViewAddress(data, size);
  const jint n = static_cast<jint>(size);
  // The limit first: never above the capacity, even between the writes.
  if (env->GetIntField(view, g_fields.limit) > n) {
    env->SetIntField(view, g_fields.limit, n);
  }
  env->SetLongField(view, g_fields.address,
                    static_cast<jlong>(reinterpret_cast<intptr_t>(data)));
  env->SetIntField(view, g_fields.capacity, n);
}

void PointViewAtNothing(JNIEnv* env, jobject view) {
  PointView(env, view, g_nothing, 0);
}

jobject NewView(JNIEnv* env, const char* data, size_t size) {
  // JNI takes a non-const address; the Java side makes the buffer read-only.
  void* address = const_cast<char*>(size == 0 ? g_nothing : data);
  return env->NewDirectByteBuffer(address, static_cast<jlong>(size));
}

bool InitViews(JNIEnv* env) {
  jclass buffer = env->FindClass("java/nio/Buffer");
  if (buffer == nullptr) return false;
  g_fields.address = OptionalField(env, buffer, "address", "J");
  g_fields.capacity = OptionalField(env, buffer, "capacity", "I");
  g_fields.limit = OptionalField(env, buffer, "limit", "I");
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

}  // namespace jni
}  // namespace pinget
