//===- Simulated.cpp - accel-tile-bench --simulate ------------------------===//
//
// Simulated cycles (accel::simulate on the Program the GEMM kernel emits,
// codegen::matmulLayerProgram) of the selected tiling against the naive
// baselines, for the suite's shapes whose simulation is cheap (at most
// --max-macs multiply-adds). Convolutions run as their dense (im2col) GEMM.
// Also prints the machine-level prediction (tiling::machineCycles).
//
//===----------------------------------------------------------------------===//
#include "BenchShapes.h"
#include "accel/Codegen/Kernels.h"
#include "accel/Sim/Simulator.h"
#include "accel/Tiling/TileSelection.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iostream>

using namespace accel;
using namespace accel::tiling;

namespace {
/// Whether the DRAM bytes of every symbol (each of its pieces when it is cut
/// into pieces, else its dense f32 image) lie in the region of one memory
/// channel; sets `channel` to it.
bool oneChannelHoldsEverySymbol(const Program &prog, const HardwareDesc &hw,
                                uint32_t &channel) {
  bool first = true;
  auto inChannel = [&](uint64_t addr, uint64_t bytes) {
    uint32_t lo = hw.channelOfAddress(addr),
             hi = hw.channelOfAddress(addr + (bytes ? bytes - 1 : 0));
    if (first)
      channel = lo;
    first = false;
    return lo == hi && lo == channel;
  };
  for (const Symbol &s : prog.symbols) {
    if (s.pieces.empty() && !inChannel(s.dramAddr, s.numElements() * 4))
      return false;
    for (const DramPiece &pc : s.pieces)
      if (!inChannel(pc.dramAddr, pc.bytes))
        return false;
  }
  return !first;
}

struct SimResult {
  bool ok = false;
  uint64_t cycles = 0;
  double machine = 0;
  TileDecision d;
};

SimResult simulateOne(const HardwareDesc &hw, const GemmProblem &p,
                      const char *which, bool refine = false) {
  SimResult r;
  TilingHardware th = codegen::kernelTilingHardware(hw, false);
  std::string w = which;
  TileDecision d =
      w == "naive-order" ? baselineTiling(p, th, Baseline::FixedOrderNoSplit)
      : w == "naive-64"  ? baselineTiling(p, th, Baseline::FixedBlockTiles)
      : w == "square-sk" ? baselineTiling(p, th, Baseline::SquareSplitK)
                         : selectTiling(p, th);
  if (!d.feasible)
    return r;
  if (refine && w == "selected")
    d = codegen::refineForKernel(hw, p, d, false);
  Mapping forced = d.mapping();
  Program prog = codegen::matmulLayerProgram(hw, p, false, &forced, &r.d);
  std::map<std::string, Tensor> in, out;
  in["a"] = {{p.count, p.m, p.k},
             std::vector<float>(size_t(p.count * p.m * p.k), 1.0f)};
  in["b"] = {{p.count, p.k, p.n},
             std::vector<float>(size_t(p.count * p.k * p.n), 1.0f)};
  SimStats stats;
  std::string err;
  if (!simulate(prog, hw, in, {}, out, stats, err)) {
    std::cerr << "accel-tile-bench: simulation failed: " << err << "\n";
    return r;
  }
  r.ok = true;
  r.cycles = stats.cycles;
  // The simulator charges DMAs to the channel of their DRAM addresses: when
  // all of the kernel's buffers lie in one channel region, that channel
  // serves every cluster.
  std::vector<uint32_t> channels;
  uint32_t channel = 0;
  if (oneChannelHoldsEverySymbol(prog, hw, channel))
    channels.assign(hw.numClusters(), channel);
  r.machine =
      machineCycles(p, th, hw, codegen::realisedDecision(hw, r.d, p, false),
                    false, channels.empty() ? nullptr : &channels)
          .cycles;
  return r;
}
} // namespace

int runSimulatedBench(const std::string &hwPath, const std::string &suite,
                      double maxMacs, bool refine) {
  HardwareDesc hw;
  std::vector<NamedProblem> shapes;
  if (!loadBenchMachine(hwPath, suite, hw, shapes))
    return 1;
  std::printf("%-34s %16s %12s %12s %12s %12s %12s %8s %8s\n",
              "shape (m x k x n x count)", "selected", "machine", "naive-order",
              "naive-64", "square-sk", "best naive", "speedup", "pred err");
  double logBest = 0, logOrder = 0, log64 = 0, logSquare = 0, errSum = 0,
         errMax = 0;
  int n = 0;
  for (NamedProblem &s : shapes) {
    GemmProblem p = s.problem;
    p.aLoadBytes = p.bLoadBytes = 0; // dense GEMM
    if (double(p.m) * p.k * p.n * p.count > maxMacs)
      continue;
    SimResult sel = simulateOne(hw, p, "selected", refine);
    SimResult no = simulateOne(hw, p, "naive-order");
    SimResult n64 = simulateOne(hw, p, "naive-64");
    SimResult sq = simulateOne(hw, p, "square-sk");
    if (!sel.ok || !no.ok || !n64.ok || !sq.ok)
      continue;
    uint64_t best = std::min(no.cycles, n64.cycles);
    double speed = double(best) / double(sel.cycles);
    double e = (sel.machine - double(sel.cycles)) / double(sel.cycles);
    char name[96];
    std::snprintf(name, sizeof name, "%s %lldx%lldx%lldx%lld", s.name.c_str(),
                  (long long)p.m, (long long)p.k, (long long)p.n,
                  (long long)p.count);
    std::printf(
        "%-34s %16llu %12.0f %12llu %12llu %12llu %12llu %7.2fx %+7.2f%%\n",
        name, (unsigned long long)sel.cycles, sel.machine,
        (unsigned long long)no.cycles, (unsigned long long)n64.cycles,
        (unsigned long long)sq.cycles, (unsigned long long)best, speed,
        100 * e);
    std::fflush(stdout);
    logBest += std::log(speed);
    logOrder += std::log(double(no.cycles) / double(sel.cycles));
    log64 += std::log(double(n64.cycles) / double(sel.cycles));
    logSquare += std::log(double(sq.cycles) / double(sel.cycles));
    errSum += std::fabs(e);
    errMax = std::max(errMax, std::fabs(e));
    ++n;
  }
  if (n == 0) {
    std::printf("no shape within --max-macs\n");
    return 1;
  }
  std::printf("\n%s: %d shapes; simulated speed-up of the selected tiling%s "
              "(geometric mean): vs best naive (naive-order / naive-64) "
              "%.2fx, vs naive-order %.2fx, vs naive-64 %.2fx, vs square-sk "
              "%.2fx; machine prediction error mean %.2f %%, max %.2f %%\n",
              hw.name.c_str(), n, refine ? " (refine=machine)" : "",
              std::exp(logBest / n), std::exp(logOrder / n),
              std::exp(log64 / n), std::exp(logSquare / n), 100 * errSum / n,
              100 * errMax);
  return 0;
}
