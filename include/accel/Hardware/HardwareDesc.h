//===- HardwareDesc.h - The one JSON-described accelerator ------*- C++ -*-===//
//
// Every parameter the compiler and the simulator use comes from one hardware
// description. It is read from JSON (nlohmann_json), validated field by field,
// and fingerprinted so a binary can refuse to run on a different machine.
//
//===----------------------------------------------------------------------===//
#ifndef ACCEL_HARDWARE_HARDWAREDESC_H
#define ACCEL_HARDWARE_HARDWAREDESC_H

#include <cstdint>
#include <string>
#include <vector>

namespace accel {

/// Element types the machine may compute or store in.
enum class DType : uint8_t { F32 = 0, F16 = 1, BF16 = 2, I8 = 3, I32 = 4 };
const char *dtypeName(DType t);
unsigned dtypeBytes(DType t);
/// Parses "f32", "f16", "bf16", "i8", "i32"; returns false on anything else.
bool parseDType(const std::string &s, DType &out);

struct MemoryChannel {
  double bytesPerCycle = 64;   ///< sustained bandwidth of this channel
  uint32_t latencyCycles = 100; ///< first-byte latency of a DMA on it
};

struct HardwareDesc {
  std::string name = "default";
  double clockGHz = 1.0;

  // Cluster grid (= PE-cluster array of isa.md = execution units).
  uint32_t rows = 2, cols = 2;
  // Per cluster.
  uint32_t pesPerCluster = 4;       ///< k identical PE units
  uint32_t macLanes = 64;           ///< MACs per cycle per PE
  uint32_t instructionBuffers = 4;  ///< each with its own PC (<= 32)
  uint32_t instructionBufferDepth = 64; ///< instructions per buffer
  uint32_t registerFileEntries = 64;    ///< operand records per cluster
  uint64_t storageBytes = 512 * 1024;   ///< cluster storage unit (ping-pong halves)
  double storageBytesPerCycle = 256;    ///< storage unit <-> PE bandwidth
  // Per PE.
  uint64_t inputBufferBytes = 64 * 1024;  ///< split into 16 addressable slots
  uint64_t weightQueueBytes = 64 * 1024;
  uint64_t accBufferBytes = 16 * 1024;    ///< each of the four accumulation buffers
  uint32_t sfuLanes = 16;                 ///< SFU elements per cycle per PE
  // Latencies (cycles).
  uint32_t macPipelineLatency = 4;
  uint32_t sfuLatency = 8;
  uint32_t commandIssueCycles = 1;
  uint32_t barrierLatency = 20;
  // Off-chip memory.
  std::vector<MemoryChannel> channels{MemoryChannel{}, MemoryChannel{}};
  uint64_t dramBytes = 1ull << 30;
  // Mesh router.
  uint32_t hopLatency = 2;
  double linkBytesPerCycle = 32;
  // Numerics.
  DType computeType = DType::F32;
  DType accumulateType = DType::F32;

  uint32_t numClusters() const { return rows * cols; }
  uint64_t inputSlotBytes() const { return inputBufferBytes / 16; }
  /// Memory channel serving a cluster: channels are spread over the grid by
  /// row-major cluster index (cluster i -> channel i * nch / nclusters).
  uint32_t channelOf(uint32_t cluster) const;
  /// Stable 64-bit FNV-1a hash of every field (binary compatibility check).
  uint64_t fingerprint() const;
};

/// Reads and validates a description. On error returns false and sets `err`
/// to a message naming the offending field (e.g. "hw.cols: must be >= 1").
/// Fields absent from the JSON keep the defaults above.
bool parseHardwareDesc(const std::string &jsonText, HardwareDesc &out,
                       std::string &err);
bool loadHardwareDesc(const std::string &path, HardwareDesc &out,
                      std::string &err);
/// The shipped default preset (hw/default.json content, compiled in).
HardwareDesc defaultHardware();
std::string hardwareToJson(const HardwareDesc &hw);

} // namespace accel

#endif
