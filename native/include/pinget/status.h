// Copyright pinget authors. Licensed under the Apache License 2.0.
//
// Status: the result of every pinget operation. No C++ exception crosses the
// public API. An OK or NotFound status carries no message and never allocates.

#ifndef PINGET_STATUS_H_
#define PINGET_STATUS_H_

#include <string>
#include <string_view>
#include <utility>

#include "pinget/export.h"

namespace pinget {

class PINGET_EXPORT Status {
 public:
  enum class Code : int {
    kOk = 0,
    kNotFound = 1,
    kCorruption = 2,
    kNotSupported = 3,
    kInvalidArgument = 4,
    kIOError = 5,
    kClosed = 6,  // the store (or the store a handle came from) is closed
    kBusy = 7,
    kUnknown = 8,  // any other RocksDB error; the message says which
  };

  Status() noexcept = default;

  static Status OK() { return Status(); }
  static Status NotFound() { return Status(Code::kNotFound, {}); }
  static Status Corruption(std::string_view msg) {
    return Status(Code::kCorruption, msg);
  }
  static Status NotSupported(std::string_view msg) {
    return Status(Code::kNotSupported, msg);
  }
  static Status InvalidArgument(std::string_view msg) {
    return Status(Code::kInvalidArgument, msg);
  }
  static Status IOError(std::string_view msg) {
    return Status(Code::kIOError, msg);
  }
  static Status Closed(std::string_view msg) {
    return Status(Code::kClosed, msg);
  }
  static Status Busy(std::string_view msg) { return Status(Code::kBusy, msg); }
  static Status Unknown(std::string_view msg) {
    return Status(Code::kUnknown, msg);
  }

  bool ok() const { return code_ == Code::kOk; }
  bool IsNotFound() const { return code_ == Code::kNotFound; }
  bool IsCorruption() const { return code_ == Code::kCorruption; }
  bool IsNotSupported() const { return code_ == Code::kNotSupported; }
  bool IsInvalidArgument() const { return code_ == Code::kInvalidArgument; }
  bool IsIOError() const { return code_ == Code::kIOError; }
  bool IsClosed() const { return code_ == Code::kClosed; }
  bool IsBusy() const { return code_ == Code::kBusy; }

  Code code() const { return code_; }
  // Printable ASCII: any other byte (of a path or name in the message) is
  // written as \xNN, so that every binding can show it as it is.
  const std::string& message() const { return message_; }

  // "OK", "NotFound", or "<Code>: <message>".
  std::string ToString() const;

 private:
  Status(Code code, std::string_view msg);

  Code code_ = Code::kOk;
  std::string message_;
};

// The name of a code ("OK", "NotFound", "InvalidArgument", ...).
PINGET_EXPORT const char* StatusCodeName(Status::Code code);

}  // namespace pinget

#endif  // PINGET_STATUS_H_
