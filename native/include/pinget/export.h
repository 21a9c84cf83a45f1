// Copyright pinget authors. Licensed under the Apache License 2.0.
//
// PINGET_EXPORT marks the public API. pinget compiles with hidden symbols; in
// a shared build (BUILD_SHARED_LIBS, which defines PINGET_SHARED_LIBRARY for
// pinget and its users) the marked classes and functions are what the library
// exports. A static build needs no marking.

#ifndef PINGET_EXPORT_H_
#define PINGET_EXPORT_H_

#if defined(PINGET_SHARED_LIBRARY)
#if defined(_WIN32)
#if defined(PINGET_COMPILE_LIBRARY)
#define PINGET_EXPORT __declspec(dllexport)
#else
#define PINGET_EXPORT __declspec(dllimport)
#endif
#else
#define PINGET_EXPORT __attribute__((visibility("default")))
#endif
#else
#define PINGET_EXPORT
#endif

#endif  // PINGET_EXPORT_H_
