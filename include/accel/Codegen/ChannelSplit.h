//===- ChannelSplit.h - Shared DRAM buffers cut over the channels -*- C++
//-*-===//
//
// Pure C++ (no MLIR): a step of memory planning on channels (docs/passes.md,
// "Memory planning on channels", "Shared buffers over both channels").
// cutSegments cuts a buffer only where no DMA box crosses; a feature map
// whose rows are split over the clusters is written by interleaved boxes
// (every channel plane holds a block of each cluster's rows), so it stays
// one segment, lands on one channel, and that channel carries all of its
// writes and reads while the other idles. Here such a segment, when no
// channel's clusters own its traffic, is cut into one part per channel and
// the DMAs across a cut are split at it, so the placement can put the parts
// on different channels.
//
//===----------------------------------------------------------------------===//
#ifndef ACCEL_CODEGEN_CHANNELSPLIT_H
#define ACCEL_CODEGEN_CHANNELSPLIT_H

#include "accel/Codegen/ChannelPlacement.h"
#include "accel/Hardware/HardwareDesc.h"
#include "accel/Target/Program.h"
#include <cstdint>
#include <vector>

namespace accel::codegen {

struct ChannelSplitOptions {
  /// Segments smaller than this stay whole.
  uint64_t minBytes = 256 * 1024;
  /// Cut points are multiples of this.
  uint64_t alignment = 64;
  /// A segment stays whole when a DMA across one of its cuts would need
  /// more parts than this.
  size_t maxPartsPerDma = 4;
};

/// Cuts every segment flagged in `splittable` of at least opts.minBytes
/// whose DMA bytes (reads and writes) no channel's clusters own (kOwnedNum /
/// kOwnedDen) into one part per memory channel of equal size, and splits
/// the DMAs of `p` across the cuts (one command per part, same tag and
/// layer). `segments` (ascending, disjoint) is updated. Returns the number
/// of segments cut.
size_t splitSharedSegments(Program &p, const HardwareDesc &hw,
                           std::vector<DramBuffer> &segments,
                           const std::vector<char> &splittable,
                           const ChannelSplitOptions &opts = {});

} // namespace accel::codegen

#endif
