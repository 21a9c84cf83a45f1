// Copyright pinget authors. Licensed under the Apache License 2.0.

#include "pinget/status.h"

#include "engine.h"

namespace pinget {

const char* StatusCodeName(Status::Code code) {
  switch (code) {
    case Status::Code::kOk:
      return "OK";
    case Status::Code::kNotFound:
      return "NotFound";
    case Status::Code::kCorruption:
      return "Corruption";
    case Status::Code::kNotSupported:
      return "NotSupported";
    case Status::Code::kInvalidArgument:
      return "InvalidArgument";
    case Status::Code::kIOError:
      return "IOError";
    case Status::Code::kClosed:
      return "Closed";
    case Status::Code::kBusy:
      return "Busy";
    case Status::Code::kUnknown:
      return "Unknown";
  }
  return "Unknown";
}

std::string Status::ToString() const {
  std::string s = StatusCodeName(code_);
  if (!message_.empty()) {
    s += ": ";
    s += message_;
  }
  return s;
}

namespace internal {

Status FromRocksDB(const rocksdb::Status& s) {
  using C = rocksdb::Status::Code;
  switch (s.code()) {
    case C::kOk:
      return Status::OK();
    case C::kNotFound:
      return Status::NotFound();
    case C::kCorruption:
      return Status::Corruption(s.ToString());
    case C::kNotSupported:
      return Status::NotSupported(s.ToString());
    case C::kInvalidArgument:
      return Status::InvalidArgument(s.ToString());
    case C::kIOError:
      return Status::IOError(s.ToString());
    case C::kBusy:
      return Status::Busy(s.ToString());
    default:
      return Status::Unknown(s.ToString());
  }
}

Status CheckKey(std::string_view key) {
  if (key.empty()) return Status::InvalidArgument("key is empty");
  if (key.data() == nullptr) return Status::InvalidArgument("key is null");
  return Status::OK();
}

}  // namespace internal
}  // namespace pinget
