//===- Reduction.h - Reduction trees of K-split partial sums ----*- C++ -*-===//
//
// Pure C++ (no MLIR): the combine step of a GEMM whose K dimension is split
// over several clusters, as the pairwise reduction tree of the spec's
// application examples (split::reductionTree: o5 = o1 + o2, o6 = o3 + o4,
// o7 = o5 + o6), through one of the two exchange levels the output's
// dynamic label can ask for (docs/labels-and-splits.md, "Lowering:
// reduction trees, constant packets, materialisation").
//
//===----------------------------------------------------------------------===//
#ifndef ACCEL_CODEGEN_REDUCTION_H
#define ACCEL_CODEGEN_REDUCTION_H

#include "accel/Codegen/Kernels.h"
#include <cstdint>
#include <string>
#include <vector>

namespace accel::codegen {

/// Where the partial sums meet.
enum class ReductionExchange {
  /// swap = core / cluster on a machine with shared cluster storage: at
  /// every tree level the source cluster SENDs its running sum, chunk by
  /// chunk, over the mesh into the destination cluster's storage unit; the
  /// destination RECVs it and adds it with an SPU add. Only the root writes
  /// DRAM (the output).
  Mesh,
  /// swap = mem, or a machine without shared cluster storage: every running
  /// sum stays in DRAM (the producing cluster's partial buffer); a source
  /// SIGNALs its destination once its sum is complete, the destination
  /// RECVs, loads both, adds and stores into its own buffer (the root: the
  /// output).
  Memory,
};
const char *reductionExchangeName(ReductionExchange x); ///< "mesh", "memory"

/// One K part of a group: the cluster that computed it and where its
/// partial-sum copy of the group's region lies relative to the root's.
struct ReductionMember {
  uint32_t cluster = 0;
  int64_t shiftBytes = 0; ///< partial = root box base + shiftBytes
};

/// The clusters that computed the same output region (same M / N part) for
/// different K parts. members[0] is the root (the part the tree's result
/// ends in); `boxes` cover the region once, addressed in the root's partial
/// buffer; the output box is a box shifted by `outShiftBytes`.
struct ReductionGroup {
  std::vector<ReductionMember> members;
  std::vector<DramBox> boxes;
  int64_t outShiftBytes = 0;
};

/// Emits the reduction tree of every group (groups run concurrently: their
/// clusters are disjoint), applying `func` (a fused activation, None for
/// none) when the root writes the output, then ends the layer. False with
/// `err` when a group is malformed (a cluster in two groups, a member
/// outside the grid) or Mesh is asked of a machine without shared cluster
/// storage.
bool emitReductionTrees(StreamBuilder &sb,
                        const std::vector<ReductionGroup> &groups,
                        ReductionExchange exchange, SfuFunc func,
                        std::string &err);

/// Cuts `box` (all dimensions but the last index rows, the last one is the
/// row) into boxes whose rows are at most `colCap` elements long and that
/// have at most `rowCap` rows. Exposed for the unit tests.
std::vector<DramBox> cutReductionBox(const DramBox &box, int64_t colCap,
                                     int64_t rowCap);

} // namespace accel::codegen

#endif
