// Copyright pinget authors. Licensed under the Apache License 2.0.
// Everything a pinget user includes.

#ifndef PINGET_PINGET_H_
#define PINGET_PINGET_H_

#include "pinget/copy_stats.h"
#include "pinget/cursor.h"
#include "pinget/options.h"
#include "pinget/pinned_value.h"
#include "pinget/status.h"
#include "pinget/store.h"
#include "pinget/write_batch.h"

#endif  // PINGET_PINGET_H_
