// Copyright pinget authors. Licensed under the Apache License 2.0.

#include "file_reads.h"

#include <rocksdb/file_system.h>

#include <string>
#include <utility>

namespace pinget {
namespace internal {
namespace {

// A read copied the file's bytes when they landed in the buffer RocksDB
// passed (pread, or direct I/O into an aligned buffer); a memory-mapped file
// answers with a pointer into its mapping instead.
void CountIfCopied(const rocksdb::Slice& result, const char* scratch) {
  if (scratch != nullptr && result.data() == scratch && !result.empty()) {
    RecordFileRead(result.size());
  }
}

class CountingFile : public rocksdb::FSRandomAccessFileOwnerWrapper {
 public:
  using FSRandomAccessFileOwnerWrapper::FSRandomAccessFileOwnerWrapper;

  rocksdb::IOStatus Read(uint64_t offset, size_t n,
                         const rocksdb::IOOptions& options,
                         rocksdb::Slice* result, char* scratch,
                         rocksdb::IODebugContext* dbg) const override {
    rocksdb::IOStatus s =
        target()->Read(offset, n, options, result, scratch, dbg);
    if (s.ok()) CountIfCopied(*result, scratch);
    return s;
  }

  rocksdb::IOStatus MultiRead(rocksdb::FSReadRequest* reqs, size_t num_reqs,
                              const rocksdb::IOOptions& options,
                              rocksdb::IODebugContext* dbg) override {
    rocksdb::IOStatus s = target()->MultiRead(reqs, num_reqs, options, dbg);
    if (s.ok()) {
      for (size_t i = 0; i < num_reqs; ++i) {
        if (reqs[i].status.ok()) CountIfCopied(reqs[i].result, reqs[i].scratch);
      }
    }
    return s;
  }
};

class CountingFileSystem : public rocksdb::FileSystemWrapper {
 public:
  using FileSystemWrapper::FileSystemWrapper;

  const char* Name() const override { return "PingetCountingFileSystem"; }

  rocksdb::IOStatus NewRandomAccessFile(
      const std::string& name, const rocksdb::FileOptions& options,
      std::unique_ptr<rocksdb::FSRandomAccessFile>* file,
      rocksdb::IODebugContext* dbg) override {
    std::unique_ptr<rocksdb::FSRandomAccessFile> opened;
    rocksdb::IOStatus s =
        target()->NewRandomAccessFile(name, options, &opened, dbg);
    if (s.ok()) file->reset(new CountingFile(std::move(opened)));
    return s;
  }
};

}  // namespace

std::unique_ptr<rocksdb::Env> NewFileReadCountingEnv(rocksdb::Env* base) {
  return rocksdb::NewCompositeEnv(
      std::make_shared<CountingFileSystem>(base->GetFileSystem()));
}

}  // namespace internal
}  // namespace pinget
