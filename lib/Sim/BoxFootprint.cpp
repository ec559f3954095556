//===- BoxFootprint.cpp - The bytes a strided DMA box touches -------------===//
#include "BoxFootprint.h"

#include <algorithm>
#include <utility>
#include <vector>

namespace accel::sim {
namespace {

using Runs = std::vector<std::pair<int64_t, int64_t>>; // [lo, hi) bytes

/// The box's bytes as sorted, merged runs; false when it has more than
/// `maxRuns` runs before merging.
bool runsOf(const BoxFootprint &f, size_t maxRuns, Runs &out) {
  const int64_t eb = f.elemBytes;
  // A unit-stride innermost dimension is one run; otherwise every element
  // is its own run.
  const bool rowRun = f.shape[3] == 1 || f.stride[3] == 1;
  const uint64_t inner = rowRun ? 1 : f.shape[3];
  const int64_t runBytes = rowRun ? int64_t(f.shape[3]) * eb : eb;
  uint64_t count = inner;
  for (int d = 0; d < 3; ++d) {
    count *= f.shape[d];
    if (count > maxRuns)
      return false;
  }
  out.clear();
  out.reserve(size_t(count));
  for (uint32_t i0 = 0; i0 < f.shape[0]; ++i0)
    for (uint32_t i1 = 0; i1 < f.shape[1]; ++i1)
      for (uint32_t i2 = 0; i2 < f.shape[2]; ++i2) {
        const int64_t base =
            f.origin + (int64_t(i0) * f.stride[0] + int64_t(i1) * f.stride[1] +
                        int64_t(i2) * f.stride[2]) *
                           eb;
        for (uint64_t i3 = 0; i3 < inner; ++i3) {
          const int64_t lo = base + int64_t(i3) * f.stride[3] * eb;
          out.emplace_back(lo, lo + runBytes);
        }
      }
  std::sort(out.begin(), out.end());
  size_t k = 0;
  for (const auto &r : out) {
    if (k > 0 && r.first <= out[k - 1].second)
      out[k - 1].second = std::max(out[k - 1].second, r.second);
    else
      out[k++] = r;
  }
  out.resize(k);
  return true;
}

} // namespace

bool footprintsMayIntersect(const BoxFootprint &a, const BoxFootprint &b,
                            size_t maxRuns) {
  if (!a.known() || !b.known())
    return true;
  Runs ra, rb;
  if (!runsOf(a, maxRuns, ra) || !runsOf(b, maxRuns, rb))
    return true;
  size_t i = 0, j = 0;
  while (i < ra.size() && j < rb.size()) {
    if (ra[i].first < rb[j].second && rb[j].first < ra[i].second)
      return true;
    if (ra[i].second <= rb[j].second)
      ++i;
    else
      ++j;
  }
  return false;
}

} // namespace accel::sim
