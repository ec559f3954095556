//===- Split.h - Target-dim selection, piece counts, placement --*- C++ -*-===//
//
// Pure C++ (no MLIR): the split index of spec/labels-and-splits.md, steps
// S15 / S16 (target dim, piece count and length, ranges), where the pieces
// go (memory channels, cluster storage; local channel first), the pairwise
// reduction tree of the application examples and the constant packets.
//
//===----------------------------------------------------------------------===//
#ifndef ACCEL_SPLIT_SPLIT_H
#define ACCEL_SPLIT_SPLIT_H

#include "accel/Split/Labels.h"
#include "accel/Split/StrategyDatabase.h"
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace accel {
struct HardwareDesc;
}

namespace accel::split {

/// Target dim ([0169]-[0173]): `operationDims[i]` is the operation dim D of
/// the i-th splittable dim in priority order. The first with D >= M wins;
/// if none does, the largest (the earliest of equal ones). nullopt when the
/// list is empty.
std::optional<size_t> selectTargetDim(const std::vector<int64_t> &operationDims,
                                      uint64_t memoryChannels);

/// Rounding R of the piece length (pass option `rounding=`):
/// Ceil: length ceil(D / p), the last piece short (spec default);
/// Floor: length floor(D / p), the last piece takes the remainder;
/// Balanced: lengths differ by at most one, the first ones longer;
/// Clusters: one piece per core (D >= C), balanced first over the clusters
/// (coreOfPieces deals the pieces in contiguous blocks, a cluster's cores
/// are consecutive) and then over the cores of each cluster, so the cluster
/// shares differ by at most one (Ceil's 14 pieces of 4 of D = 56 over 16
/// cores give clusters 16 / 12 / 16 / 12 rows, Clusters 14 each); with
/// D < C as Balanced.
enum class Rounding { Ceil, Floor, Balanced, Clusters };
const char *roundingName(Rounding r);
bool parseRounding(const std::string &s, Rounding &out);

struct PieceCount {
  int mode = 1;       ///< 1: D >= C, 2: M <= D < C, 3: D < M
  int64_t pieces = 1; ///< non-empty pieces
  int64_t length = 1; ///< nominal piece length R(D / pieces)
};
/// Piece count and length of [0160]-[0164] for operation dim D, M memory
/// channels and C cores. With Ceil, a length that would leave trailing
/// pieces empty lowers the count (D = 9, C = 4 -> 3 pieces of 3): a piece is
/// never empty. D <= 0 (an empty dim) has no pieces: mode 3, pieces 0,
/// length 0. M or C of 0 are read as 1.
PieceCount pieceCount(int64_t D, uint64_t memoryChannels, uint64_t cores,
                      Rounding r = Rounding::Ceil);
/// Inclusive ranges of the pieces along [0, D): non-empty, adjacent, the
/// last one ending at D - 1 (it takes any remainder); empty for D <= 0.
std::vector<PieceRange> pieceRanges(int64_t D, const PieceCount &pc,
                                    Rounding r = Rounding::Ceil);
/// Rounding::Clusters: `pieces` ranges over [0, D) whose blocks of
/// pieces / clusters consecutive pieces (one cluster's) cover
/// floor-balanced shares of D, each block cut into balanced pieces. Falls
/// back to Balanced when the pieces do not divide into the clusters or a
/// cluster's share is shorter than its pieces.
std::vector<PieceRange> clusterBalancedRanges(int64_t D, int64_t pieces,
                                              uint64_t clusters);

/// Which core (row-major cluster index * pes + core) computes each piece:
/// pieces are dealt in contiguous blocks, spread over all cores when there
/// are fewer pieces than cores (piece j -> core j * C / P).
std::vector<uint32_t> coreOfPieces(size_t pieces, uint64_t cores);

/// Storage instance (0-based channel or cluster index) of each piece: an
/// explicit instance puts every piece there; a class puts each piece on the
/// instance local to the cluster of its core (its memory channel, its own
/// storage unit), i.e. contiguous blocks, cluster-local first. Core indices
/// are row-major cluster index * pesPerCluster + PE. An instance or core
/// beyond the machine is clamped to the last one: check the target with
/// checkStorageTarget first.
std::vector<uint32_t> placePieces(const std::vector<uint32_t> &coreOfPiece,
                                  const StorageTarget &store,
                                  const HardwareDesc &hw);
/// "" when `store` names storage the machine has (instance k <= number of
/// channels for memK, <= number of clusters for clusterK), else the reason
/// ("store mem3: the machine has 2 memory channels").
std::string checkStorageTarget(const StorageTarget &store,
                               const HardwareDesc &hw);

/// Steps S15 / S16 for one tensor whose processor part `d` is filled
/// (processorLabel): picks the target dim among `row.dims` by their
/// operation dims (selectTargetDim), cuts it (pieceCount, pieceRanges) and
/// writes split dim, ranges, store and swap of the chosen option into `d`.
/// A row without dims keeps the tensor whole: one range over the innermost
/// processor dim with the row's store and swap (the spec's o:
/// `c[(0,3)],cluster,core`). False with `err` when a row dim is not a dim of
/// the tensor ("rows dim 'h' is not a dim of dim_nc").
/// `clusters`: the clusters the `cores` belong to (Rounding::Clusters).
bool applySplit(const StaticLabel &s, DynamicLabel &d, const StrategyRow &row,
                uint64_t memoryChannels, uint64_t cores, Rounding r,
                std::string &err, uint64_t clusters = 1);

/// Pairwise reduction tree over `parts` partial results (application
/// example 1: o5 = o1 + o2, o6 = o3 + o4, o7 = o5 + o6). Level l lists
/// (destination, source) part pairs: after the level, part `destination`
/// holds the sum of both. The result ends in part 0.
std::vector<std::vector<std::pair<uint32_t, uint32_t>>>
reductionTree(uint32_t parts);

/// Constant packets ([0112]-[0125]): one per core. The constant area holds
/// one block of each constant (instructions, weights, bias, ...) at
/// `alignment`-aligned offsets; the marker area records the constant total,
/// the block sizes, hidden-tensor sizes and the input / output address
/// table (8 bytes per address).
struct PacketBlock {
  std::string name;
  uint64_t size = 0;
  uint64_t offset = 0;
};
struct ConstantPacket {
  std::vector<PacketBlock> constants; ///< constant area
  uint64_t constantTotal = 0;         ///< bytes of the constant area
  std::vector<PacketBlock> hidden;    ///< hidden-tensor sizes (offset unused)
  std::vector<PacketBlock> addresses; ///< address segment, 8 bytes each
  /// Serialised packet (docs/labels-and-splits.md, "Packet layout"): the
  /// constant area (block i at its offset, gaps zero) followed, at
  /// markerOffset(), by the marker area. Empty when the data does not fit
  /// the layout (one data vector of the block's size per constant, one
  /// value per address).
  std::vector<uint8_t> bytes(const std::vector<std::vector<uint8_t>> &blockData,
                             const std::vector<uint64_t> &addressValues) const;
  /// The marker area alone (little-endian u64 fields): constant total,
  /// block count, hidden count, address count, (offset, size) per block,
  /// size per hidden tensor, then the address table. Empty when
  /// `addressValues` does not have one value per address.
  std::vector<uint8_t> marker(const std::vector<uint64_t> &addressValues) const;
  /// Offset of the marker area in bytes(): constantTotal rounded up to 8.
  uint64_t markerOffset() const;
  /// Offset of the address table inside the marker area.
  uint64_t addressTableOffset() const;
};
ConstantPacket
layoutPacket(const std::vector<std::pair<std::string, uint64_t>> &constants,
             const std::vector<std::pair<std::string, uint64_t>> &hidden,
             const std::vector<std::string> &addresses, uint64_t alignment = 1);

} // namespace accel::split

#endif
