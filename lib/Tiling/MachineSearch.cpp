//===- MachineSearch.cpp - Best mapping under the machine prediction ------===//
//
// The spec's cost model prices one cluster; the GEMM kernel deals partitions
// over all clusters and their memory channels. machineSearch prices a
// compact slice of the legal mapping space (both loop orders; partitions and
// K chunks at every block multiple up to 8 blocks, powers of two beyond, and
// the full extent) with machineCycles and keeps the cheapest, starting from
// a given decision (docs/tiling.md, "Headroom of tile choice").
//
//===----------------------------------------------------------------------===//
#include "accel/Hardware/HardwareDesc.h"
#include "accel/Tiling/TileSelection.h"
#include <cmath>

using namespace accel;
using namespace accel::tiling;

namespace {
/// Block multiples up to 8 blocks, then powers of two, then the extent.
std::vector<int64_t> sizes(int64_t extent, int64_t block) {
  std::vector<int64_t> v;
  for (int64_t b = 1; b <= 8 && b * block < extent; ++b)
    v.push_back(b * block);
  for (int64_t s = 16 * block; s < extent; s *= 2)
    v.push_back(s);
  v.push_back(extent);
  return v;
}
} // namespace

TileDecision accel::tiling::machineSearch(
    const GemmProblem &p, const TilingHardware &th, const HardwareDesc &hw,
    const TileDecision &start, bool withInit, double maxSteps,
    MachineSearchStats *stats, const RealiseFn &realise) {
  MachineSearchStats local;
  MachineSearchStats &st = stats ? *stats : local;
  st = {};
  auto price = [&](const TileDecision &d) {
    return machineCycles(p, th, hw, realise ? realise(d) : d, withInit).cycles;
  };
  TileDecision best = start;
  st.startCycles = start.feasible ? price(start) : INFINITY;
  st.bestCycles = st.startCycles;
  const int64_t block = std::max<int64_t>(1, int64_t(th.blockSize));
  for (bool rowMajor : {true, false})
    for (int64_t pm : sizes(p.m, block))
      for (int64_t pn : sizes(p.n, block))
        for (int64_t pk : sizes(p.k, block)) {
          double steps = std::ceil(double(p.m) / double(pm)) *
                         std::ceil(double(p.n) / double(pn)) *
                         std::ceil(double(p.k) / double(pk)) *
                         double(std::max<int64_t>(1, p.count));
          if (steps > maxSteps) {
            ++st.skipped;
            continue;
          }
          TileDecision d = decisionFromMapping(p, th, {rowMajor, pm, pn, pk});
          if (!d.feasible)
            continue;
          ++st.tried;
          double c = price(d);
          if (c < st.bestCycles) {
            st.bestCycles = c;
            best = d;
          }
        }
  return best;
}

TileDecision
accel::tiling::refineForMachine(const GemmProblem &p, const TilingHardware &th,
                                const HardwareDesc &hw, const TileDecision &d,
                                bool withInit, const RealiseFn &realise) {
  MachineSearchStats ms;
  TileDecision r = machineSearch(p, th, hw, d, withInit, 3e5, &ms, realise);
  return ms.bestCycles < 0.99 * ms.startCycles ? r : d;
}
