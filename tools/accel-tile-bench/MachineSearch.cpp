//===- MachineSearch.cpp - accel-tile-bench --machine-search --------------===//
//
// How much of the simulated speed-up is left on the table by the spec's
// procedure on a given machine? For every shape this searches mappings
// (both loop orders, partitions at every block multiple up to 8 blocks and
// powers of two beyond, every K chunk of the same form) under the machine
// prediction (tiling::machineCycles, within ~1-2 % of the simulator) instead
// of the spec's one-cluster cost model, and prints the best found next to
// the selected tiling and the naive baselines, all priced by the machine
// model. Mappings whose schedule has more than --max-steps partition steps
// are skipped (the walk is linear in steps); the count is printed.
//
//===----------------------------------------------------------------------===//
#include "accel/Codegen/Kernels.h"
#include "accel/Tiling/TileSelection.h"
#include "BenchShapes.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iostream>

using namespace accel;
using namespace accel::tiling;

namespace {
/// Block multiples up to 8 blocks, then powers of two, then the extent.
std::vector<int64_t> candidates(int64_t extent, int64_t block) {
  std::vector<int64_t> v;
  for (int64_t b = 1; b <= 8 && b * block < extent; ++b)
    v.push_back(b * block);
  for (int64_t s = 16 * block; s < extent; s *= 2)
    v.push_back(s);
  v.push_back(extent);
  return v;
}
} // namespace

int runMachineSearch(const std::string &hwPath, const std::string &suite,
                     double maxMacs, double maxSteps) {
  HardwareDesc hw;
  std::vector<NamedProblem> shapes;
  if (!loadBenchMachine(hwPath, suite, hw, shapes))
    return 1;
  TilingHardware th = codegen::kernelTilingHardware(hw, false);
  std::printf("%-40s %12s %12s %12s %9s %9s %7s %7s  %s\n", "shape (m x k x n x count)",
              "selected", "search-best", "best naive", "sel", "search",
              "tried", "skipped", "best mapping (pm pn pk order)");
  double logSel = 0, logBest = 0;
  int n = 0;
  for (NamedProblem &s : shapes) {
    GemmProblem p = s.problem;
    p.aLoadBytes = p.bLoadBytes = 0; // dense GEMM, as --simulate runs it
    if (double(p.m) * p.k * p.n * p.count > maxMacs)
      continue;
    TileDecision sel = selectTiling(p, th);
    if (!sel.feasible)
      continue;
    double selC = machineCycles(p, th, hw, sel).cycles;
    double naive = INFINITY;
    for (Baseline b : {Baseline::FixedOrderNoSplit, Baseline::FixedBlockTiles}) {
      TileDecision d = baselineTiling(p, th, b);
      if (d.feasible)
        naive = std::min(naive, machineCycles(p, th, hw, d).cycles);
    }
    double best = selC;
    Mapping bestMap = sel.mapping();
    int tried = 0, skipped = 0;
    for (bool rowMajor : {true, false})
      for (int64_t pm : candidates(p.m, th.blockSize))
        for (int64_t pn : candidates(p.n, th.blockSize))
          for (int64_t pk : candidates(p.k, th.blockSize)) {
            Mapping m{rowMajor, pm, pn, pk};
            TileDecision d = decisionFromMapping(p, th, m);
            if (!d.feasible)
              continue;
            double steps = std::ceil(double(p.m) / pm) *
                           std::ceil(double(p.n) / pn) *
                           std::ceil(double(p.k) / pk);
            if (steps > maxSteps) {
              ++skipped;
              continue;
            }
            ++tried;
            double c = machineCycles(p, th, hw, d).cycles;
            if (c < best) {
              best = c;
              bestMap = m;
            }
          }
    char name[96];
    std::snprintf(name, sizeof name, "%s %lldx%lldx%lldx%lld", s.name.c_str(),
                  (long long)p.m, (long long)p.k, (long long)p.n,
                  (long long)p.count);
    std::printf("%-40s %12.0f %12.0f %12.0f %8.2fx %8.2fx %7d %7d  %lld %lld %lld %s\n",
                name, selC, best, naive, naive / selC, naive / best, tried,
                skipped, (long long)bestMap.partitionM,
                (long long)bestMap.partitionN, (long long)bestMap.partitionK,
                bestMap.outerRowMajor ? "m-outer" : "n-outer");
    std::fflush(stdout);
    logSel += std::log(naive / selC);
    logBest += std::log(naive / best);
    ++n;
  }
  if (n == 0) {
    std::printf("no shape within --max-macs\n");
    return 1;
  }
  std::printf("\n%s: %d shapes; machine-model speed-up over the best naive "
              "baseline (geometric mean): selected tiling %.3fx, best mapping "
              "found by the machine-model search %.3fx\n",
              hw.name.c_str(), n, std::exp(logSel / n), std::exp(logBest / n));
  return 0;
}
