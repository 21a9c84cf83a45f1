// Copyright pinget authors. Licensed under the Apache License 2.0.
//
// Helpers shared by the pinget GoogleTest suite.

#ifndef PINGET_TEST_NATIVE_TEST_UTIL_H_
#define PINGET_TEST_NATIVE_TEST_UTIL_H_

#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <ostream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "pinget/pinget.h"

namespace pinget_test {

constexpr size_t kKiB = size_t{1} << 10;
constexpr size_t kMiB = size_t{1} << 20;

// A fresh directory under /tmp, removed with everything in it on destruction.
class TempDir {
 public:
  TempDir();
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  const std::string& path() const { return path_; }
  // path()/name (not created).
  std::string Sub(std::string_view name) const;

 private:
  std::string path_;
};

// The value written for (key, version) at a given size. Deterministic, unique
// per (key, size, version), and compressible so that compressed SST blocks
// really are compressed. Values of 16 bytes or more begin with the version and
// a hash of the key, so ParseValue can tell whose value it is.
// The newest OPTIONS-<number> file of the database at path, whole.
std::string NewestOptionsFile(const std::string& path);
// The value of `name` in the section of an OPTIONS file whose header line is
// `section` ("[DBOptions]"), or "<absent>".
std::string OptionsFileValue(const std::string& options_file,
                             const std::string& section,
                             const std::string& name);

std::string MakeValue(std::string_view key, size_t size, uint64_t version);

// True if value is exactly MakeValue(key, value.size(), v) for some v, which
// is stored in *version. Needs value.size() >= 16.
bool ParseValue(std::string_view key, std::string_view value,
                uint64_t* version);

// A key with embedded zero bytes: distinct for distinct i, never empty.
std::string BinaryKey(uint32_t i);

enum class Residency { kBlockCache, kMemtable };
const char* ResidencyName(Residency r);

// Writes the pairs so that their values are read from the given place:
//   kMemtable:   Put only; the store must not flush on its own.
//   kBlockCache: Put, Flush, then one read of each key to load its block.
pinget::Status WriteResident(
    pinget::Store* store, Residency residency, uint32_t column_family,
    const std::vector<std::pair<std::string, std::string>>& pairs);
pinget::Status WriteResident(pinget::Store* store, Residency residency,
                             uint32_t column_family, std::string_view key,
                             std::string_view value);

// The five ways to read one value (their tokens, docs/strategies.md, in
// parentheses).
enum class Strategy {
  kGetString,       // string_copy
  kGetInto,         // buffer_copy
  kGetPinned,       // pinned_view
  kMultiGetInto,    // buffer_copy, batched
  kMultiGetPinned,  // pinned_view, batched
};
constexpr Strategy kAllStrategies[] = {
    Strategy::kGetString, Strategy::kGetInto, Strategy::kGetPinned,
    Strategy::kMultiGetInto, Strategy::kMultiGetPinned};
const char* StrategyName(Strategy s);

struct ReadResult {
  pinget::Status status;
  std::string bytes;  // empty unless status is OK
};

// Reads key with one strategy and copies what it got. GetInto asks for the
// size first, then reads into a buffer of exactly that size. For the batched
// strategies, status is the call's status if it failed, else the key's.
ReadResult ReadWith(pinget::Store* store, Strategy strategy,
                    const pinget::ReadOptions& options, std::string_view key);

// Fixture: every test gets its own temporary directory, removed afterwards,
// and stores opened through it are closed before the directory goes.
class StoreTest : public ::testing::Test {
 protected:
  // Options with a block cache and write buffer large enough for the biggest
  // values the suite writes (so nothing is evicted or flushed behind its back).
  static pinget::Options LargeOptions();

  std::string DbPath(std::string_view name = "db") const {
    return dir_.Sub(name);
  }
  // Opens DbPath(name) into store_ (or *store); a failure is fatal to the
  // test when called inside ASSERT_NO_FATAL_FAILURE.
  void OpenStore(const pinget::Options& options, std::string_view name = "db");
  void OpenStore(const pinget::Options& options, std::string_view name,
                 std::unique_ptr<pinget::Store>* store);

  TempDir dir_;
  std::unique_ptr<pinget::Store> store_;
};

// What a visitor (GetVisit, MultiGetVisit) saw: one entry per call.
struct Visits {
  std::vector<std::string> values;
  std::vector<size_t> indexes;
  std::vector<pinget::Status> statuses;
  uint64_t copy_bytes = 0;  // if set, each visit copies and counts this many
};

// A ValueVisitor recording into the Visits at context.
inline void RecordVisit(void* context, std::string_view value) {
  auto* visits = static_cast<Visits*>(context);
  visits->values.emplace_back(value);
  if (visits->copy_bytes > 0) pinget::RecordValueCopy(visits->copy_bytes);
}

// A batch visitor recording into the Visits at context.
inline void RecordBatchVisit(void* context, size_t index,
                             const pinget::Status& status,
                             std::string_view value) {
  auto* visits = static_cast<Visits*>(context);
  visits->indexes.push_back(index);
  visits->statuses.push_back(status);
  visits->values.emplace_back(value);
}

}  // namespace pinget_test

namespace pinget {
// Lets tests stream a Status into failure messages (found by ADL).
std::ostream& operator<<(std::ostream& os, const Status& s);
}  // namespace pinget

#define ASSERT_OK(expr)                                         \
  do {                                                          \
    const ::pinget::Status _st = (expr);                        \
    ASSERT_TRUE(_st.ok()) << #expr << " -> " << _st.ToString(); \
  } while (0)
#define EXPECT_OK(expr)                                         \
  do {                                                          \
    const ::pinget::Status _st = (expr);                        \
    EXPECT_TRUE(_st.ok()) << #expr << " -> " << _st.ToString(); \
  } while (0)

#endif  // PINGET_TEST_NATIVE_TEST_UTIL_H_
