// Copyright pinget authors. Licensed under the Apache License 2.0.
//
// The glibc symbols that GCC 12's libstdc++.a references and glibc 2.17 lacks.
// The glibc targets' toolchain (cmake/toolchains/pinget-target.cmake) compiles
// this file once and links it into every C++ program and library it links,
// the JNI library included, beside a static libstdc++. The list is what
// `ld --no-undefined` reports against the glibc 2.17 sysroot (docs/design.md,
// "Toolchains").
//
// Every definition is hidden: it binds only to the static libstdc++ inside
// the same program or library, never to the process's other objects. Where
// the running glibc has the symbol, glibc's own is looked up by name and
// version and used, so on a glibc that has it the behaviour is a normal
// build's; the fallbacks below run only on an older glibc. Written in C so
// that it needs no C++ runtime itself.

#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

#define PINGET_HIDDEN __attribute__((visibility("hidden")))

// The sysroot's kernel headers predate getrandom(2) (Linux 3.17).
#ifndef SYS_getrandom
#if defined(__x86_64__)
#define SYS_getrandom 318
#elif defined(__aarch64__)
#define SYS_getrandom 278
#endif
#endif

// Glibc's own `name` at `version`, or NULL on an older glibc, cached in *slot
// (two threads may both look it up; they store the same value). The
// definitions in this file are hidden, so the lookup never finds them.
static void* Glibc(void** slot, const char* name, const char* version) {
  static char absent;
  void* f = __atomic_load_n(slot, __ATOMIC_ACQUIRE);
  if (f == NULL) {
    f = dlvsym(RTLD_DEFAULT, name, version);
    if (f == NULL) f = &absent;
    __atomic_store_n(slot, f, __ATOMIC_RELEASE);
  }
  return f == &absent ? NULL : f;
}

// --- thread_local destructors: __cxa_thread_atexit_impl (glibc 2.18) -------
// Fallback: a list per thread, run newest first by a pthread key destructor
// when the thread exits. Shared libraries of these targets are linked with
// -z nodelete, so the destructors a library registers stay mapped until every
// thread has run them. The main thread's list is not run at exit(): the
// process returns the memory.

struct Dtor {
  void (*run)(void*);
  void* object;
  struct Dtor* next;
};

static pthread_key_t dtor_key;
static pthread_once_t dtor_key_once = PTHREAD_ONCE_INIT;

static void RunDtors(void* list) {
  // A destructor may register more (a thread_local first used inside one):
  // take the list again until it stays empty.
  struct Dtor* d = list;
  while (d != NULL) {
    pthread_setspecific(dtor_key, NULL);
    while (d != NULL) {
      struct Dtor* next = d->next;
      d->run(d->object);
      free(d);
      d = next;
    }
    d = pthread_getspecific(dtor_key);
  }
}

static void CreateDtorKey(void) {
  if (pthread_key_create(&dtor_key, RunDtors) != 0) abort();
}

PINGET_HIDDEN int __cxa_thread_atexit_impl(void (*run)(void*), void* object,
                                           void* dso_symbol) {
  static void* glibc;
  int (*impl)(void (*)(void*), void*, void*) =
      Glibc(&glibc, "__cxa_thread_atexit_impl", "GLIBC_2.18");
  if (impl != NULL) return impl(run, object, dso_symbol);
  pthread_once(&dtor_key_once, CreateDtorKey);
  struct Dtor* d = malloc(sizeof *d);
  if (d == NULL) return -1;
  d->run = run;
  d->object = object;
  d->next = pthread_getspecific(dtor_key);
  if (pthread_setspecific(dtor_key, d) != 0) {
    free(d);
    return -1;
  }
  return 0;
}

// --- __libc_single_threaded (glibc 2.32) -----------------------------------
// libstdc++ skips atomic reference counts while this is non-zero. Zero
// ("maybe multi-threaded") is always correct, only less quick in a process
// with one thread; a JVM has many.
PINGET_HIDDEN char __libc_single_threaded = 0;

// --- getentropy (glibc 2.25), arc4random (glibc 2.36) -----------------------
// std::random_device's "getentropy" and "arc4random" sources.

// Fills buffer from the kernel: getrandom(2), else /dev/urandom.
static int KernelEntropy(char* p, size_t length) {
  while (length > 0) {
    long n = syscall(SYS_getrandom, p, length, 0);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) break;  // ENOSYS: a kernel before 3.17
    p += n;
    length -= (size_t)n;
  }
  if (length == 0) return 0;
  int fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);
  if (fd < 0) return -1;
  while (length > 0) {
    ssize_t n = read(fd, p, length);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    p += n;
    length -= (size_t)n;
  }
  close(fd);
  if (length == 0) return 0;
  errno = EIO;
  return -1;
}

PINGET_HIDDEN int getentropy(void* buffer, size_t length) {
  static void* glibc;
  int (*impl)(void*, size_t) = Glibc(&glibc, "getentropy", "GLIBC_2.25");
  if (impl != NULL) return impl(buffer, length);
  if (length > 256) {  // getentropy's contract
    errno = EIO;
    return -1;
  }
  return KernelEntropy(buffer, length);
}

PINGET_HIDDEN uint32_t arc4random(void) {
  static void* glibc;
  uint32_t (*impl)(void) = Glibc(&glibc, "arc4random", "GLIBC_2.36");
  if (impl != NULL) return impl();
  uint32_t value;
  if (getentropy(&value, sizeof value) != 0) abort();  // it cannot fail
  return value;
}
