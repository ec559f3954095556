//===- MachineModel.cpp - Machine-level cycles of a tiling decision -------===//
//
// machineCycles: the spec's model (evaluateMapping) prices one cluster's GEMM
// unit with both operand streams overlapping. The simulator runs the kernel
// of lib/Codegen/GemmKernel.cpp on the whole machine: outer partitions are
// dealt over the clusters, the DMAs of all clusters of a channel queue on
// that channel (each holding it for MemoryChannel::occupancyCycles, the data
// arriving a latency after its start), and an EXECUTE runs
// its LD / MAC / ST instructions one after another. This walks the
// decision's schedule per cluster with those rules (docs/tiling.md, "Model
// vs simulator").
//
//===----------------------------------------------------------------------===//
#include "Internal.h"
#include "accel/Hardware/HardwareDesc.h"
#include "accel/Tiling/GemmStorage.h"
#include <algorithm>
#include <cmath>
#include <set>
#include <tuple>

using namespace accel;
using namespace accel::tiling;
using namespace accel::tiling::detail;

namespace {
double cdiv(double bytes, double bw) { return std::ceil(bytes / bw); }

struct ClusterWork {
  double compute = 0, channel = 0;
  double head = -1, tail = 0, lastExec = 0;
  /// Exposed loads: a resident strip of a new outer partition is loaded only
  /// after the PE array has finished with the previous one (the kernel's
  /// deferred loads), so its DMA does not overlap an EXECUTE.
  double exposed = 0;
  int64_t lastOuter = -1;
  uint64_t bytes = 0, transfers = 0;
  bool used = false;
  std::set<std::tuple<int64_t, int64_t, int64_t>> haveA, haveB;
};
} // namespace

MachineEstimate accel::tiling::machineCycles(
    const GemmProblem &p, const TilingHardware &th, const HardwareDesc &hw,
    const TileDecision &d, bool withInit,
    const std::vector<uint32_t> *dramChannelOfCluster) {
  MachineEstimate e;
  if (!d.feasible || hw.numClusters() == 0)
    return e;
  const uint32_t nCl = hw.numClusters();
  const int64_t pes = std::max<uint32_t>(1, hw.pesPerCluster);
  const int64_t peRows = ceilDiv(std::max<int64_t>(1, d.partitionM), pes);
  const int64_t groupCols = std::max<int64_t>(
      1,
      std::min<int64_t>(d.partitionN, int64_t(hw.accBufferBytes / 4) / peRows));
  const int64_t groups = std::min<int64_t>(
      4, ceilDiv(std::max<int64_t>(1, d.partitionN), groupCols));
  auto chanOf = [&](uint32_t cl) {
    if (hw.channels.empty())
      return 0u;
    if (dramChannelOfCluster && cl < dramChannelOfCluster->size())
      return std::min<uint32_t>((*dramChannelOfCluster)[cl],
                                uint32_t(hw.channels.size() - 1));
    return hw.channelOf(cl);
  };
  auto dma = [&](ClusterWork &w, uint32_t cl, double bytes) {
    const uint32_t k = chanOf(cl);
    const MemoryChannel &ch = hw.channels[k];
    // A channel other than the cluster's own: the request and the data
    // cross the routers to the channel's router (docs/simulator.md).
    const double remote =
        k == hw.channelOf(cl)
            ? 0.0
            : 2.0 * (hw.channelHops(cl, k) - 1) * hw.hopLatency;
    // The channel is held for the beats and the DMA's share of the latency
    // window; the data arrives a full latency (and the hops) after the start.
    w.channel += double(ch.occupancyCycles(bytes, uint64_t(remote)));
    w.bytes += uint64_t(bytes);
    ++w.transfers;
    return double(ch.completionCycles(bytes, uint64_t(remote)));
  };

  // Outer partitions of one instance and the deal (kernel: outer partitions
  // round robin; (outer, inner) pairs when there are fewer than clusters).
  const int64_t nM = ceilDiv(p.m, d.partitionM),
                nN = ceilDiv(p.n, d.partitionN);
  const int64_t nOuter = d.outerRowMajor ? nM : nN;
  const bool dealPairs = uint64_t(nOuter * p.count) < nCl;
  // Residency as the kernel realises it: the outer operand's strip (all K
  // chunks of one outer partition) stays in the storage region left by the
  // two ping-pong halves when the inner loop has several partitions; the
  // inner operand's strip when the inner loop has one partition.
  const int64_t nK = ceilDiv(p.k, d.partitionK);
  const int64_t mc = peRows * pes;
  // Split-K: the C and init tiles have one region beside the halves
  // (codegen GemmTiling::sharedC), else one copy in each half.
  const int64_t stripBudget =
      int64_t(hw.storageBytes) -
      gemmStorage(mc, d.partitionK, d.partitionN, withInit, d.partitionK < p.k)
          .total();
  const int64_t aStrip = nK * mc * d.partitionK * 4,
                bStrip = nK * d.partitionK * d.partitionN * 4;
  const int64_t nInner = d.outerRowMajor ? nN : nM;
  const bool keepOuter =
      nInner > 1 && (d.outerRowMajor ? aStrip : bStrip) <= stripBudget;
  const int64_t left =
      stripBudget - (keepOuter ? (d.outerRowMajor ? aStrip : bStrip) : 0);
  const bool keepInner = nInner == 1 && nOuter > 1 && !dealPairs &&
                         (d.outerRowMajor ? bStrip : aStrip) <= left;
  const bool keepA = d.outerRowMajor ? keepOuter : keepInner;
  const bool keepB = d.outerRowMajor ? keepInner : keepOuter;
  std::vector<ClusterWork> work(nCl);
  uint64_t pairIndex = 0;
  int64_t lastPair = -1;

  for (int64_t inst = 0; inst < p.count; ++inst) {
    forEachPartitionStep(p, th, d, [&](const PartitionStep &s) {
      int64_t mi = s.m0 / d.partitionM, ni = s.n0 / d.partitionN;
      int64_t outer = d.outerRowMajor ? mi : ni;
      int64_t pair = (inst * nOuter + outer) * (d.outerRowMajor ? nN : nM) +
                     (d.outerRowMajor ? ni : mi);
      uint32_t cl;
      if (dealPairs) {
        if (pair != lastPair)
          ++pairIndex, lastPair = pair;
        cl = uint32_t((pairIndex - 1) % nCl);
      } else {
        cl = uint32_t((inst * nOuter + outer) % nCl);
      }
      ClusterWork &w = work[cl];
      w.used = true;
      // DMAs of the step (f32 in DRAM and storage).
      double loads = 0;
      bool stripLoad = false;
      auto keyA = std::make_tuple(inst, s.m0, s.k0);
      auto keyB = std::make_tuple(inst, s.n0, s.k0);
      if (!keepA || !w.haveA.count(keyA)) {
        loads += dma(w, cl, double(s.m * s.k) * 4);
        w.haveA.insert(keyA);
        stripLoad |= keepA;
      }
      if (!keepB || !w.haveB.count(keyB)) {
        loads += dma(w, cl, double(s.k * s.n) * 4);
        w.haveB.insert(keyB);
        stripLoad |= keepB;
      }
      if (withInit && s.firstK)
        loads += dma(w, cl, double(s.m * s.n) * 4);
      const int64_t outerKey = inst * nOuter + outer;
      if (w.head < 0)
        w.head = loads;
      else if (stripLoad && outerKey != w.lastOuter)
        w.exposed += loads;
      w.lastOuter = outerKey;

      // EXECUTE.
      int64_t rmax = std::min<int64_t>(peRows, s.m);
      double exec = cdiv(double(s.m * s.k) * 4, hw.actLoadBytesPerCycle);
      for (int64_t g = 0; g < groups; ++g) {
        int64_t cols =
            std::max<int64_t>(1, std::min(groupCols, s.n - g * groupCols));
        exec += cdiv(double(s.k * cols) * 4, hw.weightLoadBytesPerCycle);
        exec += cdiv(double(rmax * s.k * cols), hw.macLanes) +
                hw.macPipelineLatency;
        if (withInit && s.firstK)
          exec += cdiv(double(s.m * cols) * 4, hw.actLoadBytesPerCycle);
        if (s.lastK)
          exec += cdiv(double(s.m * cols) * 4, hw.storageBytesPerCycle);
      }
      w.compute += exec;
      w.lastExec = exec;
      if (s.lastK)
        w.tail = dma(w, cl, double(s.m * s.n) * 4);
    });
  }

  std::vector<double> channel(std::max<size_t>(1, hw.channels.size()), 0);
  for (uint32_t cl = 0; cl < nCl; ++cl)
    channel[chanOf(cl)] += work[cl].channel;
  for (uint32_t cl = 0; cl < nCl; ++cl) {
    const ClusterWork &w = work[cl];
    if (!w.used)
      continue;
    ++e.activeClusters;
    e.dmaBytes += w.bytes;
    e.dmaTransfers += w.transfers;
    double ch = channel[chanOf(cl)];
    double computePath = std::max(0.0, w.head) + w.compute + w.exposed + w.tail;
    double channelPath = ch + w.lastExec;
    e.computeCycles = std::max(e.computeCycles, w.compute);
    e.channelCycles = std::max(e.channelCycles, ch);
    if (std::max(computePath, channelPath) > e.cycles) {
      e.cycles = std::max(computePath, channelPath);
      e.channelBound = channelPath >= computePath;
    }
  }
  return e;
}
