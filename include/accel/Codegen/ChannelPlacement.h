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

/// DMA bytes one layer moves to or from one buffer, from the clusters of
/// one memory channel.
struct LayerTraffic {
  uint32_t layer = 0;   ///< Program::layers index; kNoLayerTraffic: none
  uint32_t channel = 0; ///< the accessing clusters' channel
  uint64_t read = 0, written = 0;
};
constexpr uint32_t kNoLayerTraffic = 0xFFFFFFFFu;

/// DMA bytes of one buffer per memory channel of the accessing clusters
/// (HardwareDesc::channelOf), in total and per layer.
struct BufferTraffic {
  std::vector<uint64_t> read, written;
  std::vector<LayerTraffic> layers{};
};

/// The traffic of every buffer from the DMAs of `p` (the DRAM side of each
/// load, store and DRAM copy) and the constant packets' marker areas (read
/// by their core's cluster). False with `err` when a DMA's DRAM box is not
/// inside one buffer.
bool measureBufferTraffic(const Program &p, const HardwareDesc &hw,
                          const std::vector<DramBuffer> &buffers,
                          std::vector<BufferTraffic> &traffic,
                          std::string &err);

/// Cuts every buffer into segments that no DMA box crosses (a cut point is
/// a byte boundary strictly inside no box, among the boxes' own ends; bytes no
/// DMA touches stay with the segment before them), so that each segment can
/// live on its own channel without splitting a DMA. Constant-packet blocks
/// and marker areas are boxes too (a core's packet is never cut). Only
/// addresses that are multiples of `alignment` are cut points. Ascending,
/// covering the buffers exactly. False with `err` when a DMA's DRAM box is
/// not inside one buffer.
bool cutSegments(const Program &p, const std::vector<DramBuffer> &buffers,
                 uint64_t alignment, std::vector<DramBuffer> &segments,
                 std::string &err);

struct ChannelPlan {
  std::vector<uint32_t> channel;   ///< per buffer
  std::vector<uint64_t> addr;      ///< per buffer, the new address
  uint64_t dramSize = 0;           ///< end of the highest placed buffer
  std::vector<uint64_t> allocated; ///< bytes per channel
  /// Per buffer: further copies (channel, address), one on each other
  /// channel whose clusters read it (PlacementOptions::replicate).
  std::vector<std::vector<std::pair<uint32_t, uint64_t>>> replicas;

  /// Address of buffer `b`'s copy that a cluster on channel `ch` uses: its
  /// replica on `ch`, else the primary.
  uint64_t copyFor(size_t b, uint32_t ch) const;
};

/// A buffer is owned by a channel when that channel's clusters do at least
/// kOwnedNum / kOwnedDen of its (written, else read) DMA bytes.
constexpr uint64_t kOwnedNum = 3, kOwnedDen = 4;

/// A buffer the program writes gets a copy on another channel only when
/// that channel's clusters read more than this many times the bytes written
/// into it (every write then goes to every copy): by default when the copy
/// saves at least as many remote read bytes as it adds written bytes.
constexpr uint64_t kDefaultWriteCopyFactor = 1;

struct PlacementOptions {
  /// Replicate buffers read from several channels (on each reading channel
  /// with room left), so every read is local: read-only ones always,
  /// written ones where the reads outweigh the duplicated writes
  /// (writeCopyFactor); a write DMA is then issued once per copy.
  bool replicate = false;
  /// Balance channels by DMA bytes: a buffer no channel owns goes to the
  /// local channel with the fewest DMA bytes placed so far, and near-ties
  /// are broken by those bytes (false: by bytes allocated).
  bool balance = false;
  /// replicate: a written buffer gets a copy on channel ch when ch's
  /// clusters read more than writeCopyFactor x its written bytes (0: when
  /// they read it at all).
  uint64_t writeCopyFactor = kDefaultWriteCopyFactor;
  /// replicate: multiply-adds per layer (Program::layers). When given, a
  /// copy of a written buffer that passes writeCopyFactor is kept only
  /// when it shortens the layers' roofline times (unprofitableCopies);
  /// empty: writeCopyFactor alone decides.
  std::vector<uint64_t> layerMacs{};
};

/// unprofitableCopies prices a layer's bytes on a channel at this many
/// times their transfer time: its loads come in bursts at tile starts rather
/// than spread evenly over its MACs, so a layer whose bytes take half its
/// MAC time can still wait on a channel. At 1 the FPN detector on
/// hw/large.json was 2.3 % slower without the copies the rule dropped; at 2
/// no zoo run on hw/default.json is slower (docs/passes.md).
constexpr double kCopyBurstFactor = 2.0;

/// Per buffer, the channels on which it must not get a copy.
using CopyVeto = std::vector<std::vector<uint32_t>>;

/// The copies of written buffers in `plan` that do not pay for themselves.
/// Each layer is priced at its roofline time, max(MACs / peak,
/// kCopyBurstFactor x its bytes on each channel / that channel's bandwidth),
/// with the bytes of every buffer
/// as `plan` places them (reads from the copy on the reader's channel,
/// writes to every copy; traffic of no layer priced as one extra layer
/// without MACs). Copies are visited in buffer order; one whose removal
/// leaves the sum of the touched layers' times no larger is vetoed and its
/// bytes moved back (reads to the primary, its writes gone) before the next
/// is priced. Read-only buffers' copies cost no writes and are never
/// vetoed.
CopyVeto unprofitableCopies(const HardwareDesc &hw,
                            const std::vector<DramBuffer> &buffers,
                            const std::vector<BufferTraffic> &traffic,
                            const ChannelPlan &plan,
                            const std::vector<uint64_t> &layerMacs);

/// Removes the vetoed copies from `plan` and lays the buffers out again in
/// order (each region a bump allocator, as planChannels does), so nothing
/// moves to another channel and no address rises.
void dropCopies(const HardwareDesc &hw, const std::vector<DramBuffer> &buffers,
                const CopyVeto &veto, ChannelPlan &plan);

/// Near-tie tolerance of the channel choice: channels whose score is at
/// least (1 - 1/kTieFraction) of the best are balanced by allocated bytes.
constexpr uint64_t kTieFraction = 16;

/// Chooses a channel and an address for every buffer (rule in the file
/// comment; a region that is full passes the buffer to the next-best channel
/// with room). False with `err` when some buffer fits no region.
bool planChannels(const HardwareDesc &hw,
                  const std::vector<DramBuffer> &buffers,
                  const std::vector<BufferTraffic> &traffic, ChannelPlan &plan,
                  std::string &err, const PlacementOptions &opts = {});

/// Per buffer, whether some constant segment of `p` lies in it (buffers
/// ascending and disjoint).
std::vector<bool> constantBuffers(const Program &p,
                                  const std::vector<DramBuffer> &buffers);

/// Lays every channel region out again with the buffers marked in
/// `constant` first, then the others, each group in buffer order (the
/// primaries and copies on that channel). Channels, copies and the bytes of
/// each region stay, so every region still fits. The constants then lie
/// back to back in DRAM: the binary holds them as a few long segments,
/// whose whole DRAM pages the simulator reads in place instead of copying
/// the pages that many small segments share (docs/simulator.md, "Twelfth
/// round").
void layOutConstantsFirst(const HardwareDesc &hw,
                          const std::vector<DramBuffer> &buffers,
                          const std::vector<bool> &constant, ChannelPlan &plan);

/// Moves every DRAM address of `p` from its linear buffer to the planned
/// one and sets p.dramSize: DMA DRAM sides and constant-packet blocks to the
/// copy of the issuing cluster's channel (ChannelPlan::copyFor); constant
/// segments split at buffer ends, with their replicas; symbols whose image
/// spans several buffers or has replicas get pieces (Symbol::pieces).
/// Addresses outside every buffer stay.
void relocateBuffers(Program &p, const HardwareDesc &hw,
                     const std::vector<DramBuffer> &buffers,
                     const ChannelPlan &plan);

/// Index of the buffer holding byte `a`, or -1 (buffers ascending).
int64_t bufferOf(const std::vector<DramBuffer> &buffers, uint64_t a);

/// bufferOf for lookups that mostly land in the buffer of the one before
/// (the slices of one DMA box): that buffer is tried before the binary
/// search. Same answers as bufferOf.
class BufferLookup {
public:
  explicit BufferLookup(const std::vector<DramBuffer> &buffers)
      : buffers(buffers) {}
  int64_t operator()(uint64_t a) {
    if (last >= 0) {
      const DramBuffer &b = buffers[size_t(last)];
      if (a >= b.addr && a < b.addr + b.bytes)
        return last;
    }
    const int64_t found = bufferOf(buffers, a);
    if (found >= 0)
      last = found;
    return found;
  }

private:
  const std::vector<DramBuffer> &buffers;
  int64_t last = -1;
};

/// The planned address of linear byte `a` as a cluster on channel `ch` sees
/// it (its own copy, ChannelPlan::copyFor); `a` outside every buffer stays.
uint64_t relocatedAddress(const std::vector<DramBuffer> &buffers,
                          const ChannelPlan &plan, uint64_t a, uint32_t ch);

} // namespace accel::codegen

#endif
