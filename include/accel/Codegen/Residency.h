//===- Residency.h - Intermediates kept in cluster storage ------*- C++ -*-===//
//
// Pure C++ (no MLIR): on-chip residency (docs/passes.md, "On-chip
// residency"). After the lowering emitted the streams on a linear DRAM plan
// and the plan was cut into pieces no DMA box crosses (cutSegments), a piece
// of an intermediate tensor may live in the storage unit of the one cluster
// that writes it (its owner) instead of on a memory channel, when storage
// is free there for its whole lifetime. The DMAs touching it are rewritten:
// the owner's stores and loads become local copies, other clusters' loads
// become remote loads over the mesh. The SIGNAL / RECV pairs the stream
// builder derived from the linear addresses still order every producer and
// consumer.
//
//===----------------------------------------------------------------------===//
#ifndef ACCEL_CODEGEN_RESIDENCY_H
#define ACCEL_CODEGEN_RESIDENCY_H

#include "accel/Codegen/ChannelPlacement.h"
#include "accel/Hardware/HardwareDesc.h"
#include "accel/Target/Program.h"
#include <cstdint>
#include <string>
#include <vector>

namespace accel::codegen {

//===----------------------------------------------------------------------===//
// The allocator (lifetimes in layers, addresses in one storage unit)
//===----------------------------------------------------------------------===//

/// A request for `bytes` of one cluster's storage from layer `first` to
/// layer `last` (inclusive), worth `benefit` (DRAM bytes it saves).
struct StorageRequest {
  uint32_t cluster = 0;
  uint64_t bytes = 0;
  uint32_t first = 0, last = 0;
  uint64_t benefit = 0;
};

/// Grants requests in the order of benefit per byte-layer held (highest
/// first; ties: earlier request first). A granted request gets the lowest
/// `align`-multiple address at or above the kernels' high-water mark of its
/// cluster in every layer of its lifetime (`floor[cluster][layer]`) where it
/// overlaps no granted request of the same cluster whose lifetime meets its
/// own, and ends inside `capacity`. Returns one address per request,
/// kNotGranted for the refused ones.
constexpr uint64_t kNotGranted = ~uint64_t(0);
std::vector<uint64_t>
allocateStorage(const std::vector<StorageRequest> &requests,
                const std::vector<std::vector<uint64_t>> &floor,
                uint64_t capacity, uint64_t align);

//===----------------------------------------------------------------------===//
// Storage the kernels use
//===----------------------------------------------------------------------===//

/// Per cluster, per layer (`commandLayers[cluster][command]`, numLayers
/// layers): the end of the highest storage byte the layer's commands touch
/// on that cluster: DMA storage sides (a remote load counts on both
/// clusters), LD / ST tiles of every EXECUTE (register files tracked through
/// CONFIG, patches and the scalar unit's write-back, first and last
/// loop-back iteration) and SEND sources / destinations (on the targets).
std::vector<std::vector<uint64_t>>
storageHighWater(const Program &p,
                 const std::vector<std::vector<uint32_t>> &commandLayers,
                 uint32_t numLayers);

//===----------------------------------------------------------------------===//
// Planning and rewriting
//===----------------------------------------------------------------------===//

/// Why a piece stays in DRAM (statistics, tests).
enum class StayReason : uint8_t {
  Resident = 0,    ///< it does not: kept on chip
  NotIntermediate, ///< part of a symbol, constant or packet
  NotWritten,      ///< no DMA writes it (zero padding, unused bytes)
  SeveralWriters,  ///< written by more than one cluster
  OtherAccess,     ///< a DRAM copy by another cluster, a box across pieces,
                   ///< a copy inside the piece, or a remote reader on a
                   ///< machine without a shared cluster cache
  ReadBeforeWrite, ///< some byte is read before (or without) a write
  NoRoom,          ///< the owner's storage is full during its lifetime
  MeshBound,       ///< its remote reads would cost more over the mesh than its
                   ///< accesses in DRAM (ResidencyOptions::meshAware)
};

/// Pieces planned as one (docs/passes.md, "Strided units"): `count` runs
/// of `runBytes` bytes, `period` bytes apart from `addr` on. A feature map
/// split by rows over the clusters is one unit per writer: its row block of
/// every channel plane. Resident, the runs lie back to back in storage, so
/// a box that steps from run to run (a stride that is a multiple of the
/// period) stays one box there. A piece of its own is a unit of one run.
struct PieceUnit {
  uint64_t addr = 0, runBytes = 0, period = 0, count = 1;
  uint64_t bytes() const { return runBytes * count; }
  /// DRAM bytes from the first run's start to the last run's end.
  uint64_t spanBytes() const { return (count - 1) * period + runBytes; }
  /// Whether a box dimension of `extent` elements `strideBytes` apart steps
  /// from run to run (every other dimension of a box stays in one run).
  bool stepsRuns(uint32_t extent, int64_t strideBytes) const {
    return count > 1 && extent > 1 && strideBytes > 0 &&
           strideBytes % int64_t(period) == 0;
  }
  /// The unit of one piece.
  static PieceUnit single(const DramBuffer &b) {
    return {b.addr, b.bytes, b.bytes, 1};
  }
};

struct ResidencyPlan {
  /// The pieces planned: the input pieces, intermediate ones cut further
  /// where their writers change (refineByWriters).
  std::vector<DramBuffer> pieces;
  /// The units of the pieces (unitOf[piece]) and the units: a resident
  /// unit's run k is at storageAddr[its first piece] + k * runBytes.
  std::vector<int64_t> unitOf;
  std::vector<PieceUnit> units;
  /// Per piece: the owner cluster (-1 = stays in DRAM) and the storage
  /// address of its first byte there.
  std::vector<int64_t> owner;
  std::vector<uint64_t> storageAddr;
  std::vector<StayReason> reason;
  /// Per piece: DMA bytes that moved it through DRAM on the linear plan
  /// (reads + writes).
  std::vector<uint64_t> dramTraffic;
  bool resident(size_t piece) const { return owner.at(piece) >= 0; }
};

struct ResidencyOptions {
  /// Storage addresses of resident pieces are multiples of this.
  uint64_t align = 64;
  /// Largest number of byte ranges one DMA box is split into when checking
  /// that every byte read was written before (bigger boxes: refused).
  size_t maxRangesPerBox = 1 << 14;
  /// Largest number of DMAs one DMA is split into at piece ends (more: the
  /// pieces it reaches stay in DRAM).
  size_t maxPartsPerDma = 16;
  /// The program ends every layer with a WAIT of all tags and a BARRIER on
  /// every cluster (sync=barrier): a remote reader's loads of a layer are
  /// complete before the next layer starts anywhere.
  bool barrierSync = false;
  /// refineByWriters: a piece whose write boxes interleave with other
  /// clusters' is cut between the boxes' contiguous runs when no part is
  /// smaller than this (0: only between the boxes' bounding ranges).
  uint64_t minRunPieceBytes = 8192;
  /// A part cut between runs stays on chip only when at most this many
  /// other clusters read it (docs/passes.md, "Row-split feature maps").
  size_t maxRunPieceRemoteReaders = 1;
  /// Keep a piece in DRAM when serving the other clusters' reads of it
  /// over the mesh would cost more than its DRAM accesses (latency and
  /// shared bandwidth per access; docs/passes.md, "Not worth the mesh").
  bool meshAware = true;
};

/// Splits `d` into parts (same direction and tag, the box cut along its
/// outer dimensions) whose DRAM sides each lie inside one of `pieces` (or
/// outside all). False when that takes more than `maxParts` parts or a single
/// element crosses a piece end.
bool splitAtPieces(const DmaDesc &d, const std::vector<DramBuffer> &pieces,
                   size_t maxParts, std::vector<DmaDesc> &out);

/// Splits `d` into parts whose DRAM sides each lie in one unit as one box
/// there: inside one run, or stepping from run to run along dimensions
/// whose strides are multiples of the period (or outside all pieces). It
/// first tries cuts along a single dimension, the whole box kept in the
/// others (a box of every plane of a row-split map: one part per writer),
/// then the outer-first cuts of splitAtPieces. False beyond `maxParts`.
bool splitAtUnits(const DmaDesc &d, const std::vector<DramBuffer> &pieces,
                  const std::vector<int64_t> &unitOf,
                  const std::vector<PieceUnit> &units, size_t maxParts,
                  std::vector<DmaDesc> &out);

/// Cuts the intermediate pieces further between groups of overlapping DMA
/// write boxes whose writing clusters differ (a tensor whose parts are
/// computed by different clusters gets one piece per part), so that each
/// part can live with its writer. With `minRunPieceBytes`, an intermediate
/// piece is cut between the boxes' contiguous runs instead of their
/// bounding ranges when no part gets smaller than that: a feature map split
/// by rows over the clusters (interleaved boxes) gets one part per plane
/// and writer. Smaller runs are cut out too when each writer's runs form
/// units (PieceUnit: equal runs at a fixed period) of at least
/// `minRunPieceBytes`. `refinedIntermediate`: the flags of the result (0 =
/// not intermediate, 1 = intermediate, kCutBetweenRuns = a part cut out
/// between runs); `unitOf` / `units` (optional): the units of the result.
constexpr char kCutBetweenRuns = 2;
std::vector<DramBuffer>
refineByWriters(const Program &p, const std::vector<DramBuffer> &pieces,
                const std::vector<char> &intermediate,
                std::vector<char> &refinedIntermediate,
                uint64_t minRunPieceBytes = 0,
                std::vector<int64_t> *unitOf = nullptr,
                std::vector<PieceUnit> *units = nullptr);

/// Chooses the resident pieces (the rule in the file comment and in
/// docs/passes.md). `pieces`: the cut linear plan (ascending, disjoint);
/// `intermediate[i]`: piece i holds no symbol, constant or packet byte.
/// DMAs across piece ends count as their parts (splitAtPieces).
ResidencyPlan
planResidency(const Program &p, const HardwareDesc &hw,
              const std::vector<std::vector<uint32_t>> &commandLayers,
              uint32_t numLayers, const std::vector<DramBuffer> &pieces,
              const std::vector<char> &intermediate,
              const ResidencyOptions &opts = {});

/// Rewrites the DMAs that touch resident pieces (split at piece ends first):
/// local copies, remote loads, a DRAM copy out of a resident piece as a
/// store, into one as a load.
void applyResidency(Program &p, const ResidencyPlan &plan,
                    const ResidencyOptions &opts = {});

/// The DRAM buffers left for channel placement: the pieces that stay in
/// DRAM, adjacent ones of one input piece merged again.
std::vector<DramBuffer> remainingBuffers(const ResidencyPlan &plan,
                                         const std::vector<DramBuffer> &coarse);

/// The pieces flagged intermediate: overlapping no symbol image, constant
/// segment (or replica), packet block or marker of `p` (linear addresses).
std::vector<char> intermediatePieces(const Program &p,
                                     const std::vector<DramBuffer> &pieces);

/// Totals of a plan: bytes of the resident pieces and the DRAM traffic they
/// no longer cause; bytes and traffic of the written intermediate pieces that
/// stay in DRAM (the spills).
struct ResidencySummary {
  uint64_t residentBytes = 0, residentTraffic = 0;
  uint64_t spilledBytes = 0, spilledTraffic = 0;
  uint64_t residentPieces = 0, spilledPieces = 0;
};
ResidencySummary summarize(const ResidencyPlan &plan);

} // namespace accel::codegen

#endif
