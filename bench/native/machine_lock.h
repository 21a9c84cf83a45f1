// Copyright pinget authors. Licensed under the Apache License 2.0.
//
// JMH's lock (/tmp/jmh.lock, which JMH's Runner and the Java paired harness
// take with FileChannel.tryLock, an fcntl lock on Linux): the native
// benchmarks hold it too while they measure, so that benchmarks of any
// worktree on one machine wait for each other instead of disturbing each
// other.

#ifndef PINGET_BENCH_NATIVE_MACHINE_LOCK_H_
#define PINGET_BENCH_NATIVE_MACHINE_LOCK_H_

#include <fcntl.h>
#include <unistd.h>

#include <cstdio>

namespace pinget_bench {

class MachineLock {
 public:
  // Waits (polling every 5 s, saying so once on stderr) while another
  // process holds the lock. Without the lock file, measures unlocked.
  MachineLock() : fd_(open("/tmp/jmh.lock", O_RDWR | O_CREAT, 0666)) {
    if (fd_ < 0) return;
    struct flock whole = {};
    whole.l_type = F_WRLCK;
    whole.l_whence = SEEK_SET;
    bool said = false;
    while (fcntl(fd_, F_SETLK, &whole) != 0) {
      if (!said) {
        std::fprintf(stderr,
                     "waiting for /tmp/jmh.lock (another benchmark is "
                     "running)\n");
        said = true;
      }
      sleep(5);
    }
  }
  ~MachineLock() {
    if (fd_ >= 0) close(fd_);  // releases the lock
  }
  MachineLock(const MachineLock&) = delete;
  MachineLock& operator=(const MachineLock&) = delete;

 private:
  int fd_;
};

}  // namespace pinget_bench

#endif  // PINGET_BENCH_NATIVE_MACHINE_LOCK_H_
