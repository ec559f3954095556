//===- ActivityBins.h - PE activity per cluster over time (private) -------===//
//
// SimStats::timeline's bins: a fixed number of bins per cluster whose width
// doubles (neighbours merged) whenever an interval ends past the last one,
// so the memory is fixed, the run length need not be known in advance and
// recording an EXECUTE touches only the bins it overlaps.
//
//===----------------------------------------------------------------------===//
#ifndef ACCEL_LIB_SIM_ACTIVITYBINS_H
#define ACCEL_LIB_SIM_ACTIVITYBINS_H

#include "accel/Sim/Simulator.h"

#include <cstdint>
#include <vector>

namespace accel {
namespace sim {

class ActivityBins {
public:
  /// `maxBins` must be even.
  void init(uint32_t clusters, unsigned maxBins);
  bool enabled() const { return !busy.empty(); }
  /// `busyCycles` PE-array cycles and `macs` in [from, to) on `cluster`,
  /// spread evenly over the interval.
  void add(uint32_t cluster, uint64_t from, uint64_t to, double busyCycles,
           double macs);
  /// The bins up to `cycles` into `out` (binCycles, peBusy, macs).
  void finish(uint64_t cycles, TimelineStats &out);

private:
  /// Doubles the width: bin i becomes bins 2i and 2i+1.
  void coarsen();

  uint64_t width = 1;
  unsigned maxBins = 0;
  std::vector<std::vector<double>> busy, macs; ///< [cluster][bin]
};

} // namespace sim
} // namespace accel

#endif
