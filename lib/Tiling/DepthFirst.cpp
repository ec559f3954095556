//===- DepthFirst.cpp - Channel slices of a conv -> depthwise pair --------===//
#include "accel/Tiling/DepthFirst.h"

using namespace accel::tiling;

ChannelSlicing
accel::tiling::chooseChannelSlices(const ChannelSliceProblem &p,
                                   const ChannelSliceRule &rule) {
  ChannelSlicing whole;
  whole.sliceBytes = p.intermediateBytes;
  const double onChip = double(p.onChipBytes);
  if (p.channels < 2 ||
      double(p.intermediateBytes) <= rule.wholeFraction * onChip)
    return whole;
  const double roundTripCycles =
      2.0 * double(p.intermediateBytes) / p.dramBytesPerCycle;
  const double macCycles = double(p.producerMacs) / p.peakMacsPerCycle;
  if (roundTripCycles < rule.minDramToMacRatio * macCycles)
    return whole;
  const uint64_t perChannel = p.intermediateBytes / uint64_t(p.channels);
  for (int64_t k = 2; k <= p.channels; ++k) {
    if (p.channels % k)
      continue;
    const uint64_t slice = perChannel * uint64_t(p.channels / k);
    if (double(slice) > rule.sliceFraction * onChip)
      continue;
    ChannelSlicing s;
    s.slices = k;
    s.sliceBytes = slice;
    s.extraInputBytes = uint64_t(k - 1) * p.inputBytes;
    s.savedBytes = 2 * p.intermediateBytes;
    // Each extra read of the input must be paid for by the map's round
    // trip; the fewest slices that fit is also the cheapest in input reads.
    return s.extraInputBytes < s.savedBytes ? s : whole;
  }
  return whole;
}
