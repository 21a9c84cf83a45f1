// Copyright pinget authors. Licensed under the Apache License 2.0.
//
// Crash consistency. A child process opens a store and writes with
// WriteOptions::sync, reporting the sequence number of each acknowledged write
// to the parent through a pipe; the parent SIGKILLs it at a random point,
// reopens the store and checks that every acknowledged write is there, with
// the right bytes, and that every read strategy agrees. The rounds reuse one
// database, so later children also recover from, and crash during, the
// recovery and compactions of earlier ones.
//
// The child is this test binary, re-executed with posix_spawn (nothing runs
// between fork and exec in this possibly multithreaded process) as
// --gtest_filter=CrashChild.Writer with PINGET_CRASH_CHILD set. The child role
// has no fixture: a SIGKILLed child cleans nothing up, so it must create
// nothing (not even a temporary directory) besides what the parent removes.
//
// SIGKILL ends the process, not the machine: the kernel keeps what was
// written to files, so this checks that pinget and RocksDB lose no
// acknowledged write when the process dies at any point, not that fsync
// reaches the disk (that needs power-loss testing below the file system).
//
// PINGET_CRASH_SEED=<n> replays a run; the seed is printed on every run.

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <map>
#include <optional>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "test_util.h"

extern char** environ;

namespace pinget_test {
namespace {

using pinget::Options;
using pinget::ReadOptions;
using pinget::Status;
using pinget::Store;
using pinget::WriteOptions;

constexpr char kChildEnv[] = "PINGET_CRASH_CHILD";
constexpr char kSeedEnv[] = "PINGET_CRASH_SEED";
// The pipe's write end in the child.
constexpr int kChildFd = 100;
// What the child sends instead of a sequence number when a write fails.
constexpr uint64_t kChildFailed = ~uint64_t{0};

constexpr uint32_t kKeys = 256;
constexpr int kMinRounds = 4;
constexpr int kMaxRounds = 12;
constexpr auto kRoundsBudget = std::chrono::seconds(4);

// The write with sequence number seq: the same in parent and child.
struct Op {
  uint32_t key;
  bool is_delete;
  size_t size;  // of the value, for a put
};

Op OpFor(uint64_t seq) {
  uint64_t z = seq * 0x9e3779b97f4a7c15ull;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  z ^= z >> 31;
  Op op;
  op.key = static_cast<uint32_t>(z % kKeys);
  op.is_delete = (z >> 32) % 8 == 0;
  op.size = 16 + static_cast<size_t>((z >> 40) % 6000);
  return op;
}

std::string CrashKey(uint32_t k) { return "crash/" + std::to_string(k); }

// Small memtables: the child flushes and compacts while it is killed.
Options CrashOptions() {
  Options o;
  o.write_buffer_bytes = 128 * kKiB;
  o.block_cache_bytes = 8 * kMiB;
  return o;
}

// What a key holds: the sequence number of the put that wrote it, or nothing.
using Version = std::optional<uint64_t>;

std::string Describe(const Version& v) {
  return v ? "version " + std::to_string(*v) : "absent";
}

bool WriteAll(int fd, const void* data, size_t n) {
  const char* p = static_cast<const char*>(data);
  while (n > 0) {
    const ssize_t w = write(fd, p, n);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) return false;
    p += w;
    n -= static_cast<size_t>(w);
  }
  return true;
}

// The child role: writes ops start, start + 1, ... until killed.
[[noreturn]] void RunChild(const std::string& spec) {
  // spec: "<start>:<path>"
  const size_t colon = spec.find(':');
  const uint64_t start = std::strtoull(spec.c_str(), nullptr, 10);
  const std::string path = spec.substr(colon + 1);
  std::unique_ptr<Store> store;
  Status st = Store::Open(path, CrashOptions(), &store);
  if (!st.ok()) {
    std::cerr << "crash child: open: " << st.ToString() << std::endl;
    WriteAll(kChildFd, &kChildFailed, sizeof kChildFailed);
    _exit(2);
  }
  WriteOptions sync;
  sync.sync = true;
  const auto deadline =
      std::chrono::steady_clock::now() + std::chrono::minutes(1);
  for (uint64_t seq = start; std::chrono::steady_clock::now() < deadline;
       ++seq) {
    const Op op = OpFor(seq);
    const std::string key = CrashKey(op.key);
    st = op.is_delete ? store->Delete(sync, 0, key)
                      : store->Put(sync, 0, key, MakeValue(key, op.size, seq));
    if (!st.ok()) {
      std::cerr << "crash child: write " << seq << ": " << st.ToString()
                << std::endl;
      WriteAll(kChildFd, &kChildFailed, sizeof kChildFailed);
      _exit(2);
    }
    // Acknowledged: the write returned OK. SIGPIPE ends us if the parent
    // has gone.
    if (!WriteAll(kChildFd, &seq, sizeof seq)) _exit(3);
  }
  _exit(4);  // never killed: the parent has stopped reading
}

// The running child: its pid and the read end of its pipe.
struct Child {
  pid_t pid = -1;
  int fd = -1;
};

// Re-executes this binary as the child role, writing from start.
::testing::AssertionResult SpawnChild(const std::string& path, uint64_t start,
                                      Child* child) {
  char self[4096];
  const ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
  if (n <= 0) return ::testing::AssertionFailure() << "readlink /proc/self/exe";
  self[n] = '\0';
  int fds[2];
  if (pipe2(fds, O_CLOEXEC) != 0) {
    return ::testing::AssertionFailure() << "pipe2: " << std::strerror(errno);
  }
  if (fds[1] == kChildFd) {
    const int moved = fcntl(fds[1], F_DUPFD_CLOEXEC, kChildFd + 1);
    close(fds[1]);
    fds[1] = moved;
  }
  // The environment, minus GTEST_* (the child must not write the parent's
  // XML report), plus the child's role.
  std::vector<std::string> env;
  for (char** e = environ; *e != nullptr; ++e) {
    if (std::strncmp(*e, "GTEST_", 6) != 0 &&
        std::strncmp(*e, kChildEnv, sizeof kChildEnv - 1) != 0) {
      env.emplace_back(*e);
    }
  }
  env.push_back(std::string(kChildEnv) + "=" + std::to_string(start) + ":" +
                path);
  std::vector<char*> envp;
  for (std::string& s : env) envp.push_back(s.data());
  envp.push_back(nullptr);
  std::string filter = "--gtest_filter=CrashChild.Writer";
  char* argv[] = {self, filter.data(), nullptr};

  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  // dup2 onto another number clears close-on-exec.
  posix_spawn_file_actions_adddup2(&actions, fds[1], kChildFd);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null",
                                   O_WRONLY, 0);
  pid_t pid = -1;
  const int rc = posix_spawn(&pid, self, &actions, nullptr, argv, envp.data());
  posix_spawn_file_actions_destroy(&actions);
  close(fds[1]);
  if (rc != 0) {
    close(fds[0]);
    return ::testing::AssertionFailure()
           << "posix_spawn: " << std::strerror(rc);
  }
  child->pid = pid;
  child->fd = fds[0];
  return ::testing::AssertionSuccess();
}

// Reads acknowledgements until the pipe closes (the child is dead) or
// until_acks of them arrived (then returns true with the pipe still open).
// *last is the highest sequence number acknowledged. False on a child
// failure or when timeout passes first.
::testing::AssertionResult ReadAcks(int fd, uint64_t until_acks,
                                    std::chrono::milliseconds timeout,
                                    uint64_t* acks,
                                    std::optional<uint64_t>* last, bool* eof) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  char buf[8 * 64];
  size_t have = 0;  // bytes of a partial record carried over
  *eof = false;
  while (*acks < until_acks) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) {
      return ::testing::AssertionFailure()
             << "no acknowledgement for " << timeout.count() << " ms after "
             << *acks;
    }
    pollfd p{fd, POLLIN, 0};
    const int ready = poll(&p, 1, static_cast<int>(left.count()));
    if (ready < 0 && errno == EINTR) continue;
    if (ready <= 0) continue;  // re-check the deadline
    // Whole records only: 8-byte pipe writes are atomic.
    const ssize_t n = read(fd, buf + have, sizeof buf - have);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      return ::testing::AssertionFailure() << "read: " << std::strerror(errno);
    }
    if (n == 0) {
      *eof = true;
      if (have != 0) {
        return ::testing::AssertionFailure() << "partial acknowledgement";
      }
      return ::testing::AssertionSuccess();
    }
    have += static_cast<size_t>(n);
    size_t used = 0;
    for (; used + 8 <= have; used += 8) {
      uint64_t seq;
      std::memcpy(&seq, buf + used, 8);
      if (seq == kChildFailed) {
        return ::testing::AssertionFailure()
               << "the child failed (see its stderr)";
      }
      if (*last && seq != **last + 1) {
        return ::testing::AssertionFailure()
               << "acknowledgements out of order: " << seq << " after "
               << **last;
      }
      *last = seq;
      ++*acks;
    }
    std::memmove(buf, buf + used, have - used);
    have -= used;
  }
  return ::testing::AssertionSuccess();
}

// The child role; skipped unless run by
// CrashTest.AcknowledgedSyncWritesSurviveSigkill.
TEST(CrashChild, Writer) {
  const char* spec = std::getenv(kChildEnv);
  if (spec == nullptr) {
    GTEST_SKIP() << "runs only as the child of "
                    "CrashTest.AcknowledgedSyncWritesSurviveSigkill";
  }
  RunChild(spec);
}

class CrashTest : public StoreTest {};

TEST_F(CrashTest, AcknowledgedSyncWritesSurviveSigkill) {
  uint64_t seed;
  if (const char* s = std::getenv(kSeedEnv)) {
    seed = std::strtoull(s, nullptr, 10);
  } else {
    seed = std::random_device()();
    seed = (seed << 32) ^ std::random_device()();
  }
  std::cout << "crash test seed: " << seed << " (replay with " << kSeedEnv
            << "=" << seed << ")" << std::endl;
  RecordProperty("seed", std::to_string(seed));
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937_64 rng(seed);

  const std::string path = DbPath();
  // What the database holds, known exactly between rounds.
  std::map<uint32_t, Version> model;
  uint64_t next_seq = 1;
  uint64_t total_acks = 0;
  const auto began = std::chrono::steady_clock::now();
  int round = 0;
  for (; round < kMaxRounds; ++round) {
    if (round >= kMinRounds &&
        std::chrono::steady_clock::now() - began > kRoundsBudget) {
      break;
    }
    SCOPED_TRACE("round " + std::to_string(round));
    // Round 0 always lets the child create the database; one later round in
    // four kills it after a delay alone, often before its first write (during
    // open and WAL recovery).
    const bool early = round > 0 && rng() % 4 == 0;
    const uint64_t target =
        early ? 0 : std::uniform_int_distribution<uint64_t>(1, 300)(rng);
    const auto extra_delay = std::chrono::microseconds(
        std::uniform_int_distribution<int>(0, early ? 60000 : 2000)(rng));

    const uint64_t start = next_seq;
    Child child;
    ASSERT_TRUE(SpawnChild(path, start, &child));
    uint64_t acks = 0;
    std::optional<uint64_t> last;
    bool eof = false;
    const auto read_acks = ReadAcks(child.fd, target, std::chrono::seconds(20),
                                    &acks, &last, &eof);
    if (read_acks) std::this_thread::sleep_for(extra_delay);
    kill(child.pid, SIGKILL);
    // Acknowledgements sent before the kill landed count too: drain to EOF.
    bool drained = false;
    const auto drain =
        ReadAcks(child.fd, ~uint64_t{0}, std::chrono::seconds(20), &acks, &last,
                 &drained);
    close(child.fd);
    int wstatus = 0;
    ASSERT_EQ(waitpid(child.pid, &wstatus, 0), child.pid);
    ASSERT_TRUE(read_acks);
    ASSERT_TRUE(drain);
    ASSERT_TRUE(drained);
    ASSERT_TRUE(WIFSIGNALED(wstatus) && WTERMSIG(wstatus) == SIGKILL)
        << "the child ended on its own, status " << wstatus;
    if (last) EXPECT_EQ(*last, start + acks - 1);
    total_acks += acks;

    // Acknowledged: start .. start + acks - 1. In flight (maybe applied, maybe
    // not): start + acks. Nothing after it was attempted.
    std::map<uint32_t, Version> expected = model;
    for (uint64_t seq = start; seq < start + acks; ++seq) {
      const Op op = OpFor(seq);
      expected[op.key] = op.is_delete ? Version() : Version(seq);
    }
    const uint64_t in_flight = start + acks;
    const Op maybe = OpFor(in_flight);
    const Version maybe_version =
        maybe.is_delete ? Version() : Version(in_flight);

    ASSERT_NO_FATAL_FAILURE(OpenStore(CrashOptions()));
    for (uint32_t k = 0; k <= kKeys; ++k) {  // kKeys itself: never written
      const std::string key = CrashKey(k);
      SCOPED_TRACE(key);
      ReadResult results[std::size(kAllStrategies)];
      for (size_t i = 0; i < std::size(kAllStrategies); ++i) {
        results[i] =
            ReadWith(store_.get(), kAllStrategies[i], ReadOptions(), key);
        SCOPED_TRACE(StrategyName(kAllStrategies[i]));
        ASSERT_TRUE(results[i].status.ok() || results[i].status.IsNotFound())
            << results[i].status;
        EXPECT_EQ(results[i].status.code(), results[0].status.code());
        EXPECT_TRUE(results[i].bytes == results[0].bytes)
            << "strategies disagree on the bytes";
      }
      Version observed;
      if (results[0].status.ok()) {
        uint64_t v = 0;
        ASSERT_TRUE(ParseValue(key, results[0].bytes, &v))
            << "not a value ever written for this key";
        ASSERT_EQ(results[0].bytes.size(), OpFor(v).size);
        observed = v;
      }
      const Version want = k < kKeys ? expected[k] : Version();
      if (observed != want) {
        ASSERT_TRUE(k == maybe.key && observed == maybe_version)
            << "read " << Describe(observed) << ", acknowledged "
            << Describe(want) << "; in flight: seq " << in_flight << " on "
            << CrashKey(maybe.key);
      }
      if (k < kKeys) expected[k] = observed;
    }
    ASSERT_OK(store_->Close());
    store_.reset();
    model = std::move(expected);
    next_seq = in_flight + 1;  // every sequence number is written at most once
    std::cout << "round " << round << ": target " << target << ", " << acks
              << " writes acknowledged before SIGKILL" << std::endl;
  }
  EXPECT_GT(total_acks, 0u);
  std::cout << round << " rounds, " << total_acks
            << " acknowledged writes checked" << std::endl;
}

}  // namespace
}  // namespace pinget_test
