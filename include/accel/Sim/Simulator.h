//===- Simulator.h - Functional + cycle model of the accelerator -*- C++
//-*-===//
//
// simulate() executes an accel::Program on a HardwareDesc: functionally
// (real f32 numbers, tile-level host kernels) and in time (control units,
// PE arrays, DMA on the memory channels of its DRAM addresses, mesh
// transfers (SEND / remote_load) with link contention, semaphores (SIGNAL /
// RECV) and barriers). The semantics, every
// cycle formula, the stats fields and the trace format are documented in
// docs/simulator.md.
//
// The simulator defends itself: a Program that was not validated (or is
// wrong) yields an error message, never an out-of-range access.
//
//===----------------------------------------------------------------------===//
#ifndef ACCEL_SIM_SIMULATOR_H
#define ACCEL_SIM_SIMULATOR_H

#include "accel/Hardware/HardwareDesc.h"
#include "accel/Target/Program.h"

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace accel {

/// A dense row-major f32 tensor (program inputs and outputs).
struct Tensor {
  std::vector<int64_t> shape;
  std::vector<float> data;
  /// Element type the values were converted from (TensorIO sets it: F32
  /// for floating-point files, I8 / I32 / I64 for integers, I1 for
  /// booleans). An integer program input (i32 / i64 symbol) only accepts an
  /// integer source, so a float tensor given by mistake is reported.
  /// simulate() sets each output's to the type its symbol declares (F32,
  /// I1, I32 or I64); the writers deliver the values in it (encodeNpy, the
  /// Python extension: bool / int32 / int64 arrays, TensorIO.h).
  DType dtype = DType::F32;
  /// Product of the dimensions (1 for a scalar); 0 if any dimension <= 0.
  uint64_t numElements() const;
};
/// "[2, 3, 4]".
std::string shapeToString(const std::vector<int64_t> &shape);

/// How far a run has got (SimOptions::progress).
struct SimProgress {
  uint64_t cycle = 0; ///< the earliest cycle any cluster can still issue at
  uint64_t commandsDone = 0, commandsTotal = 0;
  /// Layers of the layer table all of whose commands have run.
  uint32_t layersDone = 0, layersTotal = 0;
};

struct SimOptions {
  /// Write a Chrome trace event JSON file here (empty = no trace).
  std::string tracePath;
  /// Treat detected timing hazards (data used before the transfer or
  /// computation producing it completes) as errors instead of warnings.
  bool hazardsAreErrors = false;
  /// Keep at most this many hazard messages in SimStats (all are counted).
  unsigned maxHazardMessages = 20;
  /// Input symbol -> the cycle its data arrives (absent: 0). A DMA that
  /// reads DRAM bytes of the input starts no earlier (docs/multi-network.md
  /// "Arrival times": several networks whose inputs come at different
  /// times).
  std::map<std::string, uint64_t> inputArrival;
  /// Power gating (docs/multi-network.md, "Power gating in the simulator"):
  /// a cluster with no work is off for the whole run, and one whose stream
  /// has finished is off from then on; a cluster whose stream starts with
  /// a RECV is off until the signal arrives, then wakes (the hardware's
  /// wake latency) before it goes on. The static energy counts the
  /// clusters' on and waking cycles only. SimStats::energyStaticGatedPj is
  /// computed either way; this makes it the static term of energyTotalPj.
  bool powerGating = false;
  /// Called every `progressEvery` commands (accel-run's progress line on a
  /// terminal); empty = never. The callback decides how often to show it.
  std::function<void(const SimProgress &)> progress;
  uint64_t progressEvery = 256;
  /// Fill SimStats::timeline (accel-run --report's plots over time).
  bool timeline = false;
  /// Host threads that move the simulated bytes (docs/simulator.md,
  /// "Eighth round"; the result never depends on it): 0 = chosen from the
  /// program and the host, 1 = the simulator's own thread only, N = up to
  /// N (at most one per cluster, at most 8).
  unsigned dataLanes = 0;
  /// The most dataLanes a front end (accel-run --data-lanes, Python's
  /// data_lanes) accepts.
  static constexpr unsigned kMaxDataLanes = 64;
  /// For a caller that checks the command streams while they run
  /// (accel-run with accel::StreamedValidation, docs/simulator.md "Eleventh
  /// round"): command k of cluster c runs only once `commandsChecked(c,
  /// n)` has set n > k; it is asked again (the simulator's thread yields
  /// meanwhile) when a cluster reaches the last answer. Returning false
  /// stops the run with an error (a violation was found). Empty = every
  /// command may run.
  std::function<bool(uint32_t cluster, uint64_t &checked)> commandsChecked;
};

/// One core (PE) of a cluster.
struct CoreStats {
  uint64_t macs = 0;       ///< products of its own rows (sparse: effective)
  uint64_t busyCycles = 0; ///< Σ over MAC iterations of ceil(products / lanes)
  double macUtilisation = 0; ///< macs / (cycles * macLanes)
};

struct ClusterStats {
  uint32_t row = 0, col = 0;
  uint32_t channel = 0;     ///< memory channel serving the cluster
  uint64_t finishCycle = 0; ///< max(control, PE array, last DMA)
  uint64_t commands = 0;
  uint64_t executes = 0;
  uint64_t peBusyCycles = 0; ///< sum of EXECUTE durations
  double peUtilisation = 0;  ///< peBusyCycles / total cycles
  uint64_t macs = 0;         ///< multiply-adds performed by its PEs
  double macUtilisation = 0; ///< macs / (cycles * pes * macLanes)
  uint64_t dmaBytes = 0;     ///< payload bytes of its DMAs
  uint64_t dmaTransfers = 0;
  uint64_t stallCycles = 0;     ///< control unit blocked in WAIT/BARRIER/RECV
  uint64_t dramBytes = 0;       ///< DRAM bytes its DMAs moved (DramCopy: twice)
  uint64_t dramRemoteBytes = 0; ///< of which over a non-local channel
  uint64_t meshBytesSent = 0;   ///< SEND payload x targets (not to itself),
                                ///< remote_load bytes it served
  uint64_t meshBytesReceived = 0; ///< SEND / remote_load bytes that arrived
  uint64_t sends = 0, signals = 0, recvs = 0;
  std::vector<CoreStats> cores; ///< one per PE
};

/// The column-wise RNN engine (RECUR tasks, docs/rnn.md).
struct RnnEngineStats {
  uint64_t tasks = 0;
  uint64_t issueCycles = 0;  ///< engine cycles issuing weight blocks
  uint64_t idleCycles = 0;   ///< no thread could issue (h not written back)
  uint64_t switches = 0;     ///< thread switches on a blocked thread
  uint64_t switchCycles = 0; ///< cycles the switches cost
  uint64_t sfuCycles = 0;    ///< SFU cycles of gate activations and tails
  /// Per batch of tasks, from the first block (after the weight fill) to
  /// the last write-back, summed.
  uint64_t spanCycles = 0;
};

struct ChannelStats {
  uint64_t busyCycles = 0; ///< sum of transfer durations on the channel
  double utilisation = 0;  ///< busyCycles / total cycles
  uint64_t bytes = 0;      ///< bytes over the channel (DramCopy: read+write)
  uint64_t transfers = 0;
  /// Of `bytes`: from clusters whose channelOf() is this channel / others.
  uint64_t localBytes = 0, remoteBytes = 0;
};

/// One directed mesh link that carried traffic.
struct LinkStats {
  uint32_t from = 0, to = 0; ///< row-major cluster indices
  uint64_t busyCycles = 0;   ///< Σ reservations of the link
  uint64_t bytes = 0, transfers = 0;
  double utilisation = 0; ///< busyCycles / total cycles
};

/// Mesh traffic of SEND / SIGNAL / remote_load (docs/simulator.md "Mesh").
struct MeshStats {
  uint64_t bytes = 0;       ///< payload bytes (multicast counted once)
  uint64_t byteHops = 0;    ///< Σ bytes x links of the route / tree
  uint64_t transfers = 0;   ///< SEND + remote_load commands
  uint64_t signals = 0;     ///< SIGNAL commands
  uint64_t localCopies = 0; ///< SEND targets equal to the sender
  uint64_t maxLinkBusyCycles = 0;
  double maxLinkUtilisation = 0; ///< maxLinkBusyCycles / total cycles
  std::vector<LinkStats> links;  ///< links that carried traffic, sorted
};

/// Busy cycles of the units on behalf of one layer, summed over clusters /
/// channels (docs/simulator.md "Per-layer statistics" defines each).
struct UnitBusy {
  uint64_t pe = 0;   ///< EXECUTE durations on the PE arrays
  uint64_t dma = 0;  ///< memory-channel occupancy of the layer's DMAs
  uint64_t sfu = 0;  ///< SFU cycles inside those EXECUTEs (SPU, ST SFU pass)
  uint64_t mesh = 0; ///< path-holding time of SEND / remote_load transfers
};

/// What one layer of Program::layers cost (or, with id == kNoLayer, the
/// commands of no layer). docs/simulator.md "Per-layer statistics".
struct LayerStats {
  uint32_t id = Command::kNoLayer; ///< index into Program::layers
  std::string name, op;            ///< LayerInfo::name / opKind
  std::vector<std::string> fused;  ///< LayerInfo::fused
  uint64_t commands = 0;           ///< commands of the layer executed
  /// First cycle a command of the layer was issued on any cluster and the
  /// last cycle one was active (its unit finished, or its WAIT / BARRIER /
  /// RECV released); both 0 when no command ran. cycles = last - first.
  uint64_t firstCycle = 0, lastCycle = 0, cycles = 0;
  /// The cycles of [firstCycle, lastCycle) in which no earlier layer (a
  /// lower id) was active: what the run waited on this layer for. Layers
  /// overlap (the next layer's first DMAs are issued while this one
  /// computes), so `cycles` add up to more than the total; these add up to
  /// at most the total. For the unattributed row: the cycles of its span no
  /// layer covers.
  uint64_t exclusiveCycles = 0;
  UnitBusy busy;
  uint64_t macs = 0;            ///< multiply-adds performed by its EXECUTEs
  uint64_t modelMacs = 0;       ///< LayerInfo::macs (the source operator's)
  uint64_t compulsoryBytes = 0; ///< LayerInfo::compulsoryBytes
  uint64_t dramBytesRead = 0, dramBytesWritten = 0;
  uint64_t storageBytes = 0; ///< storage-unit bytes read + written
  uint64_t meshBytes = 0;    ///< SEND / remote_load payload bytes
  /// DRAM bytes written outside the network's output symbols (intermediates
  /// that went to DRAM instead of staying on chip).
  uint64_t spillBytes = 0;
  double macUtilisation = 0; ///< macs / (cycles * peak MACs per cycle)
  /// max(modelMacs / peak MACs per cycle, compulsoryBytes / DRAM bytes per
  /// cycle of all channels), rounded up; 0 for the unattributed row.
  double rooflineBound = 0;
  double boundRatio = 0;     ///< cycles / rooflineBound (0 if the bound is 0)
  std::string boundKind;     ///< "compute" or "memory" (which term is larger)
  std::string limit;         ///< busiest unit: "pe", "dma", "sfu", "mesh"
  double limitOccupancy = 0; ///< its busy / (units * cycles)
};

/// Activity over time (SimOptions::timeline): per cluster, bins of
/// `binCycles` cycles (bin b = [b * binCycles, (b + 1) * binCycles)), and
/// where each layer ran on each cluster. Not in stats.json.
struct TimelineStats {
  uint64_t binCycles = 0;
  /// [cluster][bin]: PE-array busy cycles and MACs in the bin, an EXECUTE's
  /// (an RNN engine batch's) spread evenly over its interval.
  std::vector<std::vector<double>> peBusy, macs;
  struct Span {
    uint32_t cluster = 0;
    uint32_t layer = Command::kNoLayer; ///< kNoLayer: the unattributed row
    uint64_t first = 0, last = 0;       ///< as LayerStats, on this cluster
  };
  std::vector<Span> layerSpans; ///< by cluster, then layer
};

struct SimStats {
  std::string hardware; ///< HardwareDesc::name
  uint64_t cycles = 0;  ///< total: max over clusters of finishCycle
  double timeUs = 0;    ///< cycles / (clockGHz * 1000)
  uint64_t macs = 0;
  double macUtilisation = 0; ///< macs / (cycles * clusters * pes * lanes)
  uint64_t dramBytesRead = 0, dramBytesWritten = 0;
  /// DRAM bytes over the accessing cluster's local channel / other channels
  /// (sum = dramBytesRead + dramBytesWritten).
  uint64_t dramLocalBytes = 0, dramRemoteBytes = 0;
  uint64_t storageBytesRead = 0, storageBytesWritten = 0; ///< LD / ST + DMA
  /// Energy (pJ) from the power fields of the hardware description.
  double energyMacPj = 0, energyDramPj = 0, energyStoragePj = 0,
         energyStaticPj = 0, energyMeshPj = 0, energyTotalPj = 0;
  /// Static energy with power gating (SimOptions::powerGating) and the
  /// cluster-cycles gating switches off.
  double energyStaticGatedPj = 0, energyStaticUngatedPj = 0;
  uint64_t offClusterCycles = 0;
  /// Clusters woken by a signal (gating on) and their cycles spent waking.
  uint64_t wakes = 0, wakingClusterCycles = 0;
  bool powerGated = false;
  /// Commands by kind: CONFIG, EXECUTE, DMA, WAIT, BARRIER, SEND, SIGNAL,
  /// RECV.
  std::map<std::string, uint64_t> commandCounts;
  /// Executed instructions by opcode (LD, MAC, ST, SPU), each repeat counted.
  std::map<std::string, uint64_t> instructionCounts;
  uint64_t storesSkipped =
      0; ///< ST AccBuffer instructions of non-last EXECUTEs
  /// PE sparsity (docs/simulator.md "PE: index compare"): multiply-adds the
  /// MACs performed (= macs) and the dense-equivalent ones they skipped
  /// (zero weights absent from a sparse list, zero activations masked out).
  uint64_t effectiveMacs = 0, skippedMacs = 0;
  /// Products a load-balancing MAC moved to a left neighbour PE.
  uint64_t balancedMacs = 0;
  /// Output queue: pushes + SFU pops (chained: 1 per result element,
  /// decoupled: 3), and drains to the storage unit / input buffers.
  uint64_t outputQueueAccesses = 0, outputQueueDrains = 0;
  uint64_t chainedResults = 0,
           decoupledResults = 0; ///< elements through the SFU
  /// Control unit: scalar-unit operand updates, LD weights skipped in RQ
  /// mode (queue reused), activation rows kept by SW mode (not refetched).
  uint64_t scalarUnitOps = 0, weightReloadsSkipped = 0, slidingRowsReused = 0;
  std::vector<ClusterStats> clusters; ///< row-major
  std::vector<ChannelStats> channels;
  MeshStats mesh;
  /// Per-layer statistics, one per Program::layers entry in table order,
  /// and the commands of no layer (unattributed.commands == 0: none).
  std::vector<LayerStats> layers;
  LayerStats unattributed;
  /// Network ideal bound: max(total MACs / peak MACs per cycle,
  /// compulsoryBytes / DRAM bytes per cycle of all channels), with total
  /// MACs and compulsory bytes from the layer table (docs/simulator.md),
  /// rounded up to whole cycles.
  double idealBoundCycles = 0;
  uint64_t idealMacs = 0;       ///< the total MACs of the bound
  uint64_t compulsoryBytes = 0; ///< weights + inputs + outputs, once each
  double idealRatio = 0;        ///< cycles / idealBoundCycles (0 if 0)
  uint64_t hazardCount = 0;
  RnnEngineStats rnn;
  std::vector<std::string> hazards; ///< first SimOptions::maxHazardMessages
  double wallSeconds = 0;           ///< host time spent in simulate()
  TimelineStats timeline;           ///< empty unless SimOptions::timeline
};

/// stats.json content (field names in docs/simulator.md).
std::string statsToJson(const SimStats &stats);

/// Runs `prog` on `hw`. Every input symbol must be present in `inputs` with
/// exactly its shape; unknown names are errors. On success fills `outputs`
/// (one tensor per output symbol, with the symbol's shape and dtype) and
/// `stats`. On failure returns false with `err` set; `outputs` / `stats` are
/// then unspecified. The program's hardware fingerprint is NOT compared here
/// (use validateProgram for that); grid and sizes are checked.
bool simulate(const Program &prog, const HardwareDesc &hw,
              const std::map<std::string, Tensor> &inputs,
              const SimOptions &opts, std::map<std::string, Tensor> &outputs,
              SimStats &stats, std::string &err);

} // namespace accel

#endif
