//===- HardwareDesc.h - The one JSON-described accelerator ------*- C++ -*-===//
//
// Every parameter the compiler and the simulator use comes from one hardware
// description. It is read from JSON (nlohmann_json), validated field by field,
// and fingerprinted so a binary can refuse to run on a different machine.
// docs/hardware.md lists every JSON field with its unit, default and
// constraints.
//
//===----------------------------------------------------------------------===//
#ifndef ACCEL_HARDWARE_HARDWAREDESC_H
#define ACCEL_HARDWARE_HARDWAREDESC_H

#include <cstdint>
#include <string>
#include <vector>

namespace accel {

/// Element types the machine may compute or store in.
/// I1 and I64 appear only as program input/output types (booleans of
/// comparisons, indices of ArgMax); inside the machine they are f32 words.
enum class DType : uint8_t {
  F32 = 0,
  F16 = 1,
  BF16 = 2,
  I8 = 3,
  I32 = 4,
  I1 = 5,
  I64 = 6
};
/// The last valid DType value (range checks of readers).
constexpr DType kLastDType = DType::I64;
const char *dtypeName(DType t);
unsigned dtypeBytes(DType t);
/// Parses "f32", "f16", "bf16", "i8", "i32", "i1", "i64"; false otherwise.
bool parseDType(const std::string &s, DType &out);

struct MemoryChannel {
  double bytesPerCycle = 64;    ///< sustained bandwidth of this channel
  uint32_t latencyCycles = 100; ///< first-byte latency of a DMA on it
  /// DMAs the channel keeps in flight (JSON `max_outstanding`). A DMA holds
  /// the channel for its data beats plus latencyCycles / maxOutstanding (its
  /// share of the latency window, Little's law); it completes latencyCycles
  /// after its start plus its beats. 1 = a channel serves one DMA at a time,
  /// latency included (the model before this field existed).
  uint32_t maxOutstanding = 16;
  /// Row-major index of the cluster whose router the channel is attached to
  /// (JSON `router: [row, col]`); -1 = the first cluster that channelOf()
  /// maps to this channel.
  int32_t routerCluster = -1;
  bool operator==(const MemoryChannel &o) const {
    return bytesPerCycle == o.bytesPerCycle &&
           latencyCycles == o.latencyCycles &&
           maxOutstanding == o.maxOutstanding &&
           routerCluster == o.routerCluster;
  }
  /// Cycles of data beats of a transfer of `bytes` on this channel.
  uint64_t beatCycles(double bytes) const;
  /// Cycles a DMA of `bytes` holds the channel (the next DMA on it may start
  /// this much later): beats plus ceil(latency / maxOutstanding), where the
  /// latency includes `extraLatency` (a remote cluster's router hops).
  uint64_t occupancyCycles(double bytes, uint64_t extraLatency = 0) const;
  /// Cycles from the start of a DMA of `bytes` to its completion: latency
  /// (+ `extraLatency`) plus beats.
  uint64_t completionCycles(double bytes, uint64_t extraLatency = 0) const;
  bool operator!=(const MemoryChannel &o) const { return !(*this == o); }
};

struct HardwareDesc {
  std::string name = "default";
  std::string description; ///< free text, not part of the fingerprint
  double clockGHz = 1.0;

  // Cluster grid (= PE-cluster array of isa.md = execution units).
  uint32_t rows = 2, cols = 2;
  // Per cluster.
  uint32_t pesPerCluster = 4;           ///< k identical PE units
  uint32_t macLanes = 64;               ///< MACs per cycle per PE
  uint32_t instructionBuffers = 4;      ///< each with its own PC (<= 32); they
                                        ///< double as hardware thread contexts
  uint32_t instructionBufferDepth = 64; ///< instructions per buffer
  uint32_t registerFileEntries = 64;    ///< operand records per cluster
  uint64_t storageBytes =
      512 * 1024; ///< cluster storage unit (ping-pong halves)
  double storageBytesPerCycle = 256;    ///< storage unit <-> PE bandwidth (ST)
  double actLoadBytesPerCycle = 256;    ///< LD activations / partial sums
  double weightLoadBytesPerCycle = 256; ///< LD weights (weight queues)
  // Per PE.
  uint64_t inputBufferBytes = 64 * 1024; ///< split into 16 addressable slots
  uint64_t weightQueueBytes = 64 * 1024;
  uint64_t accBufferBytes =
      16 * 1024;          ///< each of the four accumulation buffers
  uint32_t sfuLanes = 16; ///< SFU elements per cycle per PE
  // Latencies (cycles).
  uint32_t macPipelineLatency = 4;
  uint32_t sfuLatency = 8;
  uint32_t commandIssueCycles = 1;
  uint32_t barrierLatency = 20;
  // Off-chip memory.
  std::vector<MemoryChannel> channels{MemoryChannel{}, MemoryChannel{}};
  uint64_t dramBytes = 1ull << 30;
  /// Whether the storage unit may act as the spec's cluster cache: hold data
  /// that other cores or clusters read (store = cluster, exchange through
  /// it). false = the spec's bus-contention cluster (JSON
  /// `cluster.shared_cache`).
  bool sharedClusterCache = true;
  /// Split-strategy database of this architecture (JSON `split.database`):
  /// a file name under hw/strategies without `.json`; empty = derived from
  /// sharedClusterCache ("shared-cache" / "bus-contention").
  std::string splitDatabase;
  /// Configured tiling of the dynamic labels (JSON `split.activation_tile`,
  /// `split.weight_tile`): values per step along the innermost processor dim
  /// of neurons / weights; 0 = the block size (see the accessors).
  uint32_t splitActivationTile = 0;
  uint32_t splitWeightTile = 0;
  // Mesh router.
  uint32_t hopLatency = 2;
  double linkBytesPerCycle = 32;
  // Tiling (spec/tiling.md).
  uint32_t blockSize = 64;              ///< minimal hardware block (rows/cols)
  uint64_t syncGranularityBytes = 4096; ///< AI core <-> processor sync unit
  // RNN engine (spec/rnn-multithreading.md): one cluster's PE array, so its
  // npe is derived (rnnNpe()); JSON rnn.npe is optional and must match.
  uint32_t rnnEpMax = 64;   ///< widest EP = adder-tree width (<= macLanes)
  uint32_t rnnCatWidth = 4; ///< configurable adder tail (CAT-n)
  uint32_t rnnMultiplierLatency = 3;
  uint32_t rnnAdderTreeLevelLatency = 1; ///< per log2 level of the tree
  uint32_t rnnAccumulatorLatency = 1;
  uint32_t rnnActivationLatency = 4;
  uint32_t rnnTailLatency = 4; ///< LSTM tail (c_t, h_t)
  uint32_t rnnWriteBackLatency = 2;
  uint32_t threadSwitchCycles = 2; ///< CGMT thread-switch penalty
  // Power (spec/multi-network.md energy model).
  uint32_t wakeLatencyCycles = 1000; ///< power-gated cluster -> running
  double staticPjPerClusterCycle =
      50; ///< static energy per powered cluster-cycle
  double pjPerMac = 1.0;
  double pjPerDramByte = 20.0;
  double pjPerStorageByte = 1.0; ///< storage unit <-> PE traffic
  double pjPerByteHop = 0.5;     ///< mesh traffic
  // Numerics.
  DType computeType = DType::F32;
  DType accumulateType = DType::F32;

  uint32_t numClusters() const { return rows * cols; }
  /// Multipliers of the RNN engine: cluster.pes * pe.mac_lanes.
  uint64_t rnnNpe() const { return uint64_t(pesPerCluster) * macLanes; }
  uint64_t inputSlotBytes() const { return inputBufferBytes / 16; }
  /// Memory channel serving a cluster: channels are spread over the grid by
  /// row-major cluster index (cluster i -> channel i * nch / nclusters).
  uint32_t channelOf(uint32_t cluster) const;
  /// DRAM is split into one contiguous region per channel: channel k serves
  /// addresses [k * R, (k+1) * R) with R = channelRegionBytes() (dramBytes /
  /// channels, rounded down to 64 bytes); the last channel also serves the
  /// remainder.
  uint64_t channelRegionBytes() const;
  /// Multiply-adds per cycle of the whole array: clusters x PEs x MAC lanes.
  double peakMacsPerCycle() const {
    return double(numClusters()) * pesPerCluster * macLanes;
  }
  /// DRAM bytes per cycle of all memory channels together.
  double dramBytesPerCycle() const;
  uint32_t channelOfAddress(uint64_t addr) const;
  /// Cluster whose router channel `ch` is attached to.
  uint32_t channelRouter(uint32_t ch) const;
  /// Router hops between two clusters on the mesh (XY routing = Manhattan
  /// distance).
  uint32_t meshHops(uint32_t fromCluster, uint32_t toCluster) const;
  /// NUMA distance in router hops from a cluster to a channel: 1 for a local
  /// channel (its own router), 1 + meshHops to the channel's router otherwise.
  uint32_t channelHops(uint32_t cluster, uint32_t ch) const;
  /// The split-strategy database name (splitDatabase or the derived one).
  std::string splitDatabaseName() const;
  /// splitActivationTile / splitWeightTile with 0 resolved to blockSize.
  uint32_t activationTile() const;
  uint32_t weightTile() const;
  /// Stable 64-bit FNV-1a hash of every field except `name` and
  /// `description` (binary compatibility check: two descriptions of the same
  /// machine under different names are compatible).
  uint64_t fingerprint() const;

  bool operator==(const HardwareDesc &o) const;
  bool operator!=(const HardwareDesc &o) const { return !(*this == o); }
};

/// Reads and validates a description. On error returns false and sets `err`
/// to a message naming the offending field path (e.g.
/// "grid.cols: must be >= 1", "pe.mac_lanes: expected an integer").
/// Fields absent from the JSON keep the defaults above; unknown keys are
/// errors. `out` is only written on success.
bool parseHardwareDesc(const std::string &jsonText, HardwareDesc &out,
                       std::string &err);
/// As parseHardwareDesc, reading a file (a regular file of at most
/// kMaxHardwareDescBytes, see accel/Support/FileRead.h); every error names
/// the file: "hardware description '<path>': <field>: <reason>".
bool loadHardwareDesc(const std::string &path, HardwareDesc &out,
                      std::string &err);
/// Checks the constraints of an in-memory description (the same checks the
/// parser applies after reading the fields).
bool validateHardwareDesc(const HardwareDesc &hw, std::string &err);
/// The shipped default preset (hw/default.json content, compiled in): the
/// member defaults above.
HardwareDesc defaultHardware();
/// Full JSON (every field, nested groups); parseHardwareDesc of the result
/// gives back an equal description.
std::string hardwareToJson(const HardwareDesc &hw);

} // namespace accel

#endif
