//===- DepthFirst.cpp - Depth-first channel slices and row bands ---------===//
#include "accel/Tiling/DepthFirst.h"
#include <algorithm>

using namespace accel::tiling;

namespace {
/// Whether a map of `largestMapBytes` is worth slicing at all: it does not
/// fit `wholeFraction` of the storage, and the write and read back of
/// `roundTripMapBytes` at the DRAM bandwidth take at least
/// `minDramToMacRatio` times `macs` at the peak rate.
bool worthSlicing(uint64_t largestMapBytes, uint64_t roundTripMapBytes,
                  uint64_t macs, uint64_t onChipBytes, double wholeFraction,
                  double minDramToMacRatio, double peakMacsPerCycle,
                  double dramBytesPerCycle) {
  if (double(largestMapBytes) <= wholeFraction * double(onChipBytes))
    return false;
  const double roundTripCycles =
      2.0 * double(roundTripMapBytes) / dramBytesPerCycle;
  const double macCycles = double(macs) / peakMacsPerCycle;
  return roundTripCycles >= minDramToMacRatio * macCycles;
}
} // namespace

ChannelSlicing
accel::tiling::chooseChannelSlices(const ChannelSliceProblem &p,
                                   const ChannelSliceRule &rule) {
  ChannelSlicing whole;
  whole.sliceBytes = p.intermediateBytes;
  const double onChip = double(p.onChipBytes);
  if (p.channels < 2 ||
      !worthSlicing(p.intermediateBytes, p.intermediateBytes, p.producerMacs,
                    p.onChipBytes, rule.wholeFraction, rule.minDramToMacRatio,
                    p.peakMacsPerCycle, p.dramBytesPerCycle))
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

RowSlicing accel::tiling::chooseRowSlices(const RowSliceProblem &p,
                                          const RowSliceRule &rule) {
  RowSlicing whole;
  whole.sliceBytes = p.largestInteriorBytes;
  const double onChip = double(p.onChipBytes);
  if (p.rows < 2 || p.rowMultiple < 1 ||
      !worthSlicing(p.largestInteriorBytes, p.interiorBytes, p.macs,
                    p.onChipBytes, rule.wholeFraction, rule.minDramToMacRatio,
                    p.peakMacsPerCycle, p.dramBytesPerCycle))
    return whole;
  for (int64_t k = 2; k <= std::min(p.rows, rule.maxSlices); ++k) {
    if (p.rows % k || (p.rows / k) % p.rowMultiple)
      continue;
    const uint64_t band = p.largestInteriorBytes / uint64_t(k);
    if (double(band) > rule.sliceFraction * onChip)
      continue;
    RowSlicing s;
    s.slices = k;
    s.sliceBytes = band;
    s.extraBytes = uint64_t(k - 1) * (p.weightBytes + p.haloBytesPerCut) +
                   2 * p.outputCopyBytes;
    s.savedBytes = 2 * p.interiorBytes;
    // More bands only add weight and halo reads: the fewest that fit
    // decide.
    return s.extraBytes < s.savedBytes ? s : whole;
  }
  return whole;
}
