// Copyright pinget authors. Licensed under the Apache License 2.0.
//
// For pinget's bindings, not installed: the one wire form of read and write
// options that the C API (pinget_read_options_set, pinget_write_options_set),
// the JNI layer and, through the C API, the FFM binding all pass: a snapshot,
// a column family id and the flag bits that pinget/c.h defines.

#ifndef PINGET_BINDING_WIRE_OPTIONS_H_
#define PINGET_BINDING_WIRE_OPTIONS_H_

#include <cstdint>

#include "pinget/c.h"
#include "pinget/options.h"

namespace pinget {
namespace internal {

constexpr uint32_t kReadFlags = PINGET_READ_FILL_CACHE |
                                PINGET_READ_VERIFY_CHECKSUMS |
                                PINGET_READ_PIN_MEMTABLE;
constexpr uint32_t kWriteFlags = PINGET_WRITE_SYNC | PINGET_WRITE_DISABLE_WAL;

// Bits outside kReadFlags are ignored here; the C API refuses them.
inline ReadOptions ReadOptionsFromWire(const Snapshot* snapshot,
                                       uint32_t column_family, uint32_t flags) {
  ReadOptions options;
  options.snapshot = snapshot;
  options.column_family = column_family;
  options.fill_cache = (flags & PINGET_READ_FILL_CACHE) != 0;
  options.verify_checksums = (flags & PINGET_READ_VERIFY_CHECKSUMS) != 0;
  options.pin_memtable = (flags & PINGET_READ_PIN_MEMTABLE) != 0;
  return options;
}

// Bits outside kWriteFlags are ignored here; the C API refuses them.
inline WriteOptions WriteOptionsFromWire(uint32_t flags) {
  WriteOptions options;
  options.sync = (flags & PINGET_WRITE_SYNC) != 0;
  options.disable_wal = (flags & PINGET_WRITE_DISABLE_WAL) != 0;
  return options;
}

}  // namespace internal
}  // namespace pinget

#endif  // PINGET_BINDING_WIRE_OPTIONS_H_
