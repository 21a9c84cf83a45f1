// Copyright pinget authors. Licensed under the Apache License 2.0.
//
// Controls for benchmarks, not installed: pinget's reads made in a loop in
// C++, for a binding to call once per many reads. A binding's per-read cost is
// then its row's time per read over the control's, measured in one process
// (same data, same block cache, same JIT state), free of the drift between two
// processes (the JMH rows native_pinned_loop and native_batch_loop call these).

#ifndef PINGET_BINDING_CONTROLS_H_
#define PINGET_BINDING_CONTROLS_H_

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "pinget/cursor.h"
#include "pinget/export.h"
#include "pinget/options.h"
#include "pinget/pinned_value.h"
#include "pinget/status.h"
#include "pinget/store.h"

namespace pinget {

// pinned_view as a C++ caller makes it: Store::GetPinned of keys[0], ...,
// keys[count - 1] in order into the one reused value (P copies each, no
// allocation). Adds each value's size to *bytes, so that no read can be
// elided. Returns the first error other than NotFound, after every key was
// read. value holds the last key's pin afterwards.
PINGET_EXPORT Status PinnedGetLoop(Store& store, const ReadOptions& options,
                                   size_t count, const std::string_view* keys,
                                   PinnedValue* value, uint64_t* bytes);

// Batched pinned_view as a C++ caller makes it: Store::MultiGetPinned of
// consecutive batches of batch keys (the last one shorter) into the one
// reused values, adding each value's size to *bytes. Returns as
// PinnedGetLoop. REQUIRES: batch > 0.
PINGET_EXPORT Status PinnedBatchLoop(Store& store, const ReadOptions& options,
                                     size_t count, const std::string_view* keys,
                                     size_t batch, PinnedBatch* values,
                                     uint64_t* bytes);

// A scan as a C++ caller makes it: Next(batch) from the position until total
// entries were lent, starting over (SeekToFirst) when the range ends, adding
// each entry's key and value sizes to *bytes and the entries to *entries (0
// value copies from the block cache and the memtable; one key copy each).
// REQUIRES: batch > 0; the range is not empty.
PINGET_EXPORT Status CursorScanLoop(Cursor* cursor, size_t batch, size_t total,
                                    uint64_t* bytes, uint64_t* entries);

// A short scan as a C++ caller makes it: cursor->Seek(key), then Next(count)
// once, adding sizes and entries as CursorScanLoop does.
PINGET_EXPORT Status CursorSeekLoop(Cursor* cursor, std::string_view key,
                                    size_t count, uint64_t* bytes,
                                    uint64_t* entries);

}  // namespace pinget

#endif  // PINGET_BINDING_CONTROLS_H_
