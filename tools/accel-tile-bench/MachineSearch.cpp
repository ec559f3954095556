//===- MachineSearch.cpp - accel-tile-bench --machine-search --------------===//
//
// How much of the simulated speed-up is left on the table by the spec's
// procedure on a given machine? For every shape tiling::machineSearch looks
// for a cheaper mapping under the machine prediction (tiling::machineCycles,
// within ~1-2 % of the simulator) than the selected tiling; the best found
// is printed next to the selected tiling and the naive baselines, all priced
// by the machine model. Mappings whose schedule has more than --max-steps
// partition steps are skipped; the count is printed.
//
//===----------------------------------------------------------------------===//
#include "BenchShapes.h"
#include "accel/Codegen/Kernels.h"
#include "accel/Tiling/TileSelection.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iostream>

using namespace accel;
using namespace accel::tiling;

int runMachineSearch(const std::string &hwPath, const std::string &suite,
                     double maxMacs, double maxSteps) {
  HardwareDesc hw;
  std::vector<NamedProblem> shapes;
  if (!loadBenchMachine(hwPath, suite, hw, shapes))
    return 1;
  TilingHardware th = codegen::kernelTilingHardware(hw, false);
  std::printf("%-40s %12s %12s %12s %9s %9s %7s %7s  %s\n",
              "shape (m x k x n x count)", "selected", "search-best",
              "best naive", "sel", "search", "tried", "skipped",
              "best mapping (pm pn pk order)");
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
    RealiseFn realise = codegen::kernelRealiser(hw, p, false);
    double selC = machineCycles(p, th, hw, realise(sel)).cycles;
    double naive = INFINITY;
    for (Baseline b :
         {Baseline::FixedOrderNoSplit, Baseline::FixedBlockTiles}) {
      TileDecision d = baselineTiling(p, th, b);
      if (d.feasible)
        naive = std::min(naive, machineCycles(p, th, hw, realise(d)).cycles);
    }
    MachineSearchStats ms;
    Mapping bestMap =
        machineSearch(p, th, hw, sel, false, maxSteps, &ms, realise).mapping();
    double best = ms.bestCycles;
    int tried = ms.tried, skipped = ms.skipped;
    char name[96];
    std::snprintf(name, sizeof name, "%s %lldx%lldx%lldx%lld", s.name.c_str(),
                  (long long)p.m, (long long)p.k, (long long)p.n,
                  (long long)p.count);
    std::printf(
        "%-40s %12.0f %12.0f %12.0f %8.2fx %8.2fx %7d %7d  %lld %lld %lld %s\n",
        name, selC, best, naive, naive / selC, naive / best, tried, skipped,
        (long long)bestMap.partitionM, (long long)bestMap.partitionN,
        (long long)bestMap.partitionK,
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
