//===- LayerAccounting.h - Per-layer statistics (private to AccelSim) -----===//
//
// Charges what each command cost to the layer it works for (Command::layer)
// and derives the per-layer and network roofline figures. The simulator
// takes a snapshot of its running counters (LayerCounters) before a
// command, subtracts it from the counters after the command and hands the
// difference to charge(): a few additions per command, nothing per
// instruction. docs/simulator.md "Per-layer statistics" is the reference.
//
//===----------------------------------------------------------------------===//
#ifndef ACCEL_LIB_SIM_LAYERACCOUNTING_H
#define ACCEL_LIB_SIM_LAYERACCOUNTING_H

#include "Trace.h"
#include "accel/Sim/Simulator.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace accel {
namespace sim {

/// The running totals a command's cost is the difference of.
struct LayerCounters {
  uint64_t macs = 0, dramRead = 0, dramWritten = 0, storage = 0, meshBytes = 0,
           spill = 0;
  UnitBusy busy;
  LayerCounters operator-(const LayerCounters &o) const;
};

/// Roofline of `macs` multiply-adds and `bytes` compulsory DRAM bytes on
/// `hw`: max(macs / peak MACs per cycle, bytes / DRAM bytes per cycle of
/// all channels), rounded up to whole cycles. `memoryBound` says which term
/// is the larger.
double rooflineCycles(const HardwareDesc &hw, uint64_t macs, uint64_t bytes,
                      bool *memoryBound = nullptr);

/// Per span [first, last) of `spans` (in priority order), the part no
/// earlier span covers.
std::vector<uint64_t>
exclusiveLengths(const std::vector<std::pair<uint64_t, uint64_t>> &spans);

/// Compulsory DRAM bytes and total MACs of the network ideal bound. With a
/// layer table: Σ weightBytes and Σ macs of the layers; without one (a
/// hand-written program): every constant segment once (replicas and packet
/// markers not counted) and `performedMacs`. Both add the f32 images of
/// every input and output symbol once.
void networkCompulsory(const Program &p, uint64_t performedMacs,
                       uint64_t &bytes, uint64_t &macs);

class LayerAccounting {
public:
  /// `spans`: also keep each layer's first / last cycle per cluster (for
  /// the trace).
  void init(const Program &p, const HardwareDesc &hw, bool spans);

  /// A command of `layer` on `cluster` was active in [from, to) and cost
  /// `d`.
  void charge(uint32_t layer, uint32_t cluster, uint64_t from, uint64_t to,
              const LayerCounters &d) {
    LayerStats &L = row(layer);
    ++L.commands;
    L.macs += d.macs;
    L.dramBytesRead += d.dramRead;
    L.dramBytesWritten += d.dramWritten;
    L.storageBytes += d.storage;
    L.meshBytes += d.meshBytes;
    L.spillBytes += d.spill;
    L.busy.pe += d.busy.pe;
    L.busy.dma += d.busy.dma;
    L.busy.sfu += d.busy.sfu;
    L.busy.mesh += d.busy.mesh;
    active(L, layer, cluster, from, to);
  }
  /// A WAIT-like command of `layer` (BARRIER, RECV) stayed active until
  /// `to` (its release).
  void extend(uint32_t layer, uint32_t cluster, uint64_t to) {
    LayerStats &L = row(layer);
    active(L, layer, cluster, to, to);
  }

  /// DRAM bytes of a write of `payload` bytes with bounding byte range
  /// [lo, hi) that fall outside the network's output symbols (in proportion
  /// when the range is larger than the payload, i.e. strided).
  uint64_t bytesOutsideOutputs(uint64_t lo, uint64_t hi,
                               uint64_t payload) const;

  /// Derived figures (cycles, utilisation, bounds, limit) into `stats`
  /// (layers, unattributed, the network ideal bound); stats.cycles and
  /// stats.macs must be final.
  void finish(SimStats &stats) const;

  /// Commands of layer `layer` charged so far.
  uint64_t commandsOf(uint32_t layer) const { return rows[layer].commands; }

  /// Each layer's span on each cluster (init with spans = true) into
  /// `out.layerSpans`.
  void spans(TimelineStats &out) const;

  /// Layer spans on every cluster's "layers" tracks (tid `firstTid` and up;
  /// overlapping spans of one cluster go to further tracks).
  void writeTrace(TraceRecorder &trace, uint32_t firstTid) const;

private:
  LayerStats &row(uint32_t layer) {
    return layer < rows.size() ? rows[layer] : unattributed;
  }
  void active(LayerStats &L, uint32_t layer, uint32_t cluster, uint64_t from,
              uint64_t to);
  void finishRow(LayerStats &L, double peak, bool isLayer) const;

  const Program *prog = nullptr;
  const HardwareDesc *hw = nullptr;
  std::vector<LayerStats> rows;
  LayerStats unattributed;
  /// rows.size() + 1 (unattributed last) per cluster: {first, last}, first >
  /// last = never active. Empty unless init(spans = true).
  std::vector<std::pair<uint64_t, uint64_t>> clusterSpans;
  size_t spanStride = 0;
  /// Sorted, merged DRAM byte ranges of the output symbols.
  std::vector<std::pair<uint64_t, uint64_t>> outputRanges;
};

} // namespace sim
} // namespace accel

#endif
