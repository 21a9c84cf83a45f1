/* Copyright pinget authors. Licensed under the Apache License 2.0.
 *
 * A C++ exception thrown and caught inside the JNI library, run under each
 * target's own loader: a batch of 2^58 keys makes the library ask for 2^62
 * bytes, operator new throws std::bad_alloc, and the C API's guard catches it
 * (PINGET_UNKNOWN). With libstdc++ linked statically against glibc 2.17 this
 * exercises the unwinder the library uses (libgcc_s) and the personality
 * routine linked into it. Then a read on a new thread checks that the library
 * still works, there and after that thread's exit (whose thread_local objects
 * the library destroys: on glibc 2.17 through the toolchain's compat.c).
 * Usage: unwind_test DIR (an empty folder).
 */
#include <pinget/c.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define CHECK(cond)                                                     \
  do {                                                                  \
    if (!(cond)) {                                                      \
      fprintf(stderr, "unwind_test:%d: failed: %s\n", __LINE__, #cond); \
      return 1;                                                         \
    }                                                                   \
  } while (0)

static pinget_store* store;

static void* read_key(void* result) {
  char value[16];
  size_t size = 0;
  *(int*)result = pinget_buffer_copy(store, NULL, "k", 1, value, sizeof value,
                                     &size, NULL) == PINGET_OK &&
                  size == 1 && value[0] == 'v';
  return NULL;
}

int main(int argc, char** argv) {
  CHECK(argc == 2);
  char* message = NULL;
  CHECK(pinget_open(argv[1], NULL, &store, &message) == PINGET_OK);
  CHECK(pinget_put(store, NULL, 0, "k", 1, "v", 1, NULL) == PINGET_OK);

  const char* keys[1] = {"k"};
  size_t key_sizes[1] = {1};
  pinget_code code =
      pinget_multi_buffer_copy(store, NULL, (size_t)1 << 58, keys, key_sizes,
                               NULL, NULL, NULL, NULL, &message);
  CHECK(code == PINGET_UNKNOWN); /* bad_alloc, caught inside the library */
  CHECK(message == NULL);

  int ok = 0;
  pthread_t thread;
  CHECK(pthread_create(&thread, NULL, read_key, &ok) == 0);
  CHECK(pthread_join(thread, NULL) == 0);
  CHECK(ok);
  ok = 0;
  read_key(&ok); /* and on this one, after that thread's exit */
  CHECK(ok);
  CHECK(pinget_close(store, NULL) == PINGET_OK);
  pinget_store_destroy(store);
  printf("unwind_test: passed (bad_alloc caught in the library; RocksDB %s)\n",
         pinget_rocksdb_version());
  return 0;
}
