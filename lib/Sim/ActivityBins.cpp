//===- ActivityBins.cpp - PE activity per cluster over time ---------------===//
#include "ActivityBins.h"

#include <algorithm>

namespace accel {
namespace sim {

void ActivityBins::init(uint32_t clusters, unsigned n) {
  width = 1;
  maxBins = n;
  busy.assign(clusters, std::vector<double>(n, 0.0));
  macs = busy;
}

void ActivityBins::coarsen() {
  for (auto *v : {&busy, &macs})
    for (std::vector<double> &bins : *v) {
      for (unsigned i = 0; i < maxBins / 2; ++i)
        bins[i] = bins[2 * i] + bins[2 * i + 1];
      std::fill(bins.begin() + maxBins / 2, bins.end(), 0.0);
    }
  width *= 2;
}

void ActivityBins::add(uint32_t cluster, uint64_t from, uint64_t to,
                       double busyCycles, double n) {
  if (to <= from)
    return;
  while (to > width * maxBins)
    coarsen();
  const double len = double(to - from);
  for (uint64_t b = from / width; b * width < to; ++b) {
    uint64_t lo = std::max(from, b * width), hi = std::min(to, (b + 1) * width);
    const double share = double(hi - lo) / len;
    busy[cluster][b] += busyCycles * share;
    macs[cluster][b] += n * share;
  }
}

void ActivityBins::finish(uint64_t cycles, TimelineStats &out) {
  // The run may go on after the last PE work (a final DMA).
  while (cycles > width * maxBins)
    coarsen();
  const uint64_t n = std::max<uint64_t>(1, (cycles + width - 1) / width);
  out.binCycles = width;
  out.peBusy.clear();
  out.macs.clear();
  for (size_t c = 0; c < busy.size(); ++c) {
    out.peBusy.emplace_back(busy[c].begin(), busy[c].begin() + n);
    out.macs.emplace_back(macs[c].begin(), macs[c].begin() + n);
  }
}

} // namespace sim
} // namespace accel
