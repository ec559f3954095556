//===- ChannelPlacement.h - DRAM buffers on memory channels -----*- C++ -*-===//
//
// Pure C++ (no MLIR): memory planning on channels (docs/passes.md, "Memory
// planning on channels"). The lowering plans DRAM linearly (one bump
// allocator) while it emits the streams; afterwards every buffer moves into
// the region of one memory channel (channel k owns [k*R, (k+1)*R),
// HardwareDesc::channelRegionBytes): the channel local to the clusters that
// write most of its bytes, or, for a buffer the program only reads (network
// inputs, constants, zero padding), to the clusters that read most of them;
// near-ties go to the channel with the fewest bytes allocated so far. Each
// region is a bump allocator in the order of the linear plan, so a program
// whose buffers all land in channel 0 (one channel, a 1x1 grid) keeps its
// linear addresses.
//
//===----------------------------------------------------------------------===//
#ifndef ACCEL_CODEGEN_CHANNELPLACEMENT_H
#define ACCEL_CODEGEN_CHANNELPLACEMENT_H

#include "accel/Hardware/HardwareDesc.h"
#include "accel/Target/Program.h"
#include <cstdint>
#include <string>
#include <vector>

namespace accel::codegen {

/// One buffer of the linear plan: [addr, addr + bytes), ascending, disjoint.
struct DramBuffer {
  uint64_t addr = 0;
  uint64_t bytes = 0;
};

/// DMA bytes of one buffer per memory channel of the accessing clusters
/// (HardwareDesc::channelOf).
struct BufferTraffic {
  std::vector<uint64_t> read, written;
};

/// The traffic of every buffer from the DMAs of `p` (the DRAM side of each
/// load, store and DRAM copy). False with `err` when a DMA's DRAM box is not
/// inside one buffer.
bool measureBufferTraffic(const Program &p, const HardwareDesc &hw,
                          const std::vector<DramBuffer> &buffers,
                          std::vector<BufferTraffic> &traffic,
                          std::string &err);

struct ChannelPlan {
  std::vector<uint32_t> channel;   ///< per buffer
  std::vector<uint64_t> addr;      ///< per buffer, the new address
  uint64_t dramSize = 0;           ///< end of the highest placed buffer
  std::vector<uint64_t> allocated; ///< bytes per channel
};

/// Near-tie tolerance of the channel choice: channels whose score is at
/// least (1 - 1/kTieFraction) of the best are balanced by allocated bytes.
constexpr uint64_t kTieFraction = 16;

/// Chooses a channel and an address for every buffer (rule in the file
/// comment; a region that is full passes the buffer to the next-best channel
/// with room). False with `err` when some buffer fits no region.
bool planChannels(const HardwareDesc &hw,
                  const std::vector<DramBuffer> &buffers,
                  const std::vector<BufferTraffic> &traffic, ChannelPlan &plan,
                  std::string &err);

/// Moves every DRAM address of `p` (DMA DRAM sides, symbols, constant
/// segments, constant packets) from its linear buffer to the planned one
/// and sets p.dramSize. Addresses outside every buffer stay.
void relocateBuffers(Program &p, const std::vector<DramBuffer> &buffers,
                     const ChannelPlan &plan);

} // namespace accel::codegen

#endif
