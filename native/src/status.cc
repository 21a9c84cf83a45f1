// Copyright pinget authors. Licensed under the Apache License 2.0.

#include "pinget/status.h"

#include <string>

#include "convert.h"

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

Status::Status(Code code, std::string_view msg) : code_(code) {
  static const char kHex[] = "0123456789abcdef";
  message_.reserve(msg.size());
  for (char c : msg) {
    const auto u = static_cast<unsigned char>(c);
    if (u >= 0x20 && u < 0x7f) {
      message_ += c;
    } else {
      message_ += "\\x";
      message_ += kHex[u >> 4];
      message_ += kHex[u & 0xf];
    }
  }
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
namespace {

// s's text without the name RocksDB gives its code: empty_of_code is a status
// of the same code without a message, whose text is just that name.
std::string WithoutCodeName(const rocksdb::Status& s,
                            const rocksdb::Status& empty_of_code) {
  std::string text = s.ToString();
  const std::string name = empty_of_code.ToString();
  if (text.compare(0, name.size(), name) == 0) text.erase(0, name.size());
  return text;
}

}  // namespace

Status FromRocksDB(const rocksdb::Status& s) {
  using C = rocksdb::Status::Code;
  using R = rocksdb::Status;
  switch (s.code()) {
    case C::kOk:
      return Status::OK();
    case C::kNotFound:
      return Status::NotFound();
    case C::kCorruption:
      return Status::Corruption(WithoutCodeName(s, R::Corruption()));
    case C::kNotSupported:
      return Status::NotSupported(WithoutCodeName(s, R::NotSupported()));
    case C::kInvalidArgument:
      return Status::InvalidArgument(WithoutCodeName(s, R::InvalidArgument()));
    case C::kIOError:
      return Status::IOError(WithoutCodeName(s, R::IOError()));
    case C::kBusy:
      return Status::Busy(WithoutCodeName(s, R::Busy()));
    default:
      // pinget has no code of its own for these: RocksDB's name for it stays.
      return Status::Unknown(s.ToString());
  }
}

}  // namespace internal
}  // namespace pinget
