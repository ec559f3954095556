//===- ArrayMapping.h - Dataflow and cluster-array partition -----*- C++
//-*-===//
//
// Pure C++ (no MLIR types): the mapping of one GEMM-shaped layer onto the
// cluster array (spec/isa.md, "Mapping strategies" and "Partitioning a
// matmul over the cluster array"; docs/mapping.md):
//
//  - the dataflow (loop nest inside a cluster): input stationary (an
//    activation tile stays while weight tiles stream), weight stationary (a
//    weight tile stays while activation tiles stream), output stationary
//    (the accumulator tile stays while K streams);
//  - the array partition: which GEMM dimension (M, N or K) the grid rows
//    split and which the grid columns split (nine choices, Figs. 9a-9i), the
//    slice each cluster computes, and the combine step (concatenate, or add
//    partial sums first across the clusters of a row, then across rows);
//  - a cost model pricing (dataflow, partition) pairs in modelled
//    machine cycles, including the combine layers.
//
//===----------------------------------------------------------------------===//
#ifndef ACCEL_TILING_ARRAYMAPPING_H
#define ACCEL_TILING_ARRAYMAPPING_H

#include "accel/Tiling/TileSelection.h"
#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace accel {
struct HardwareDesc;
} // namespace accel

namespace accel::tiling {

enum class Dataflow { InputStationary, OutputStationary, WeightStationary };
/// What one grid dimension splits. `None` is outside the spec's nine: the
/// dimension does not split and only the clusters at index 0 along it work
/// (a small layer on fewer clusters pays fewer DMA latencies). `B` is outside
/// them too: the batch (the `count` independent GEMM instances of a batched
/// matmul), whole instances per cluster (no operand read twice, no combine).
enum class SplitDim { M, N, K, None, B };

/// "input_stationary" | "output_stationary" | "weight_stationary".
const char *dataflowName(Dataflow d);
bool parseDataflow(const std::string &s, Dataflow &out);
/// "M" | "N" | "K" | "none" | "B".
const char *splitDimName(SplitDim d);
bool parseSplitDim(const std::string &s, SplitDim &out);

/// dims[0] is split by the grid rows, dims[1] by the grid columns.
struct ArrayPartition {
  std::array<SplitDim, 2> dims{SplitDim::M, SplitDim::N};
  bool operator==(const ArrayPartition &o) const { return dims == o.dims; }
};
/// The nine partitions in the order of the spec's Figs. 9a-9i:
/// [M,M] [M,N] [M,K] [N,M] [N,N] [N,K] [K,M] [K,N] [K,K].
std::vector<ArrayPartition> allPartitions();
/// The nine plus the seven with a `None` dimension ([M,none] ... [none,none]):
/// what selectMapping chooses from.
std::vector<ArrayPartition> candidatePartitions();
/// The seven with a batch dimension ([B,B], [B,M], [B,N], [B,none], [M,B],
/// [N,B], [none,B]): selectMapping adds them for MappingProblem::batchSplit.
std::vector<ArrayPartition> batchPartitions();
/// `p` splits the batch along a grid dimension.
bool splitsBatch(const ArrayPartition &p);
/// "[M,N]".
std::string partitionName(const ArrayPartition &p);

struct MappingChoice {
  Dataflow dataflow = Dataflow::OutputStationary;
  ArrayPartition array;
  bool operator==(const MappingChoice &o) const {
    return dataflow == o.dataflow && array == o.array;
  }
};
std::string choiceName(const MappingChoice &c); ///< "output_stationary [M,N]"

/// Half-open element range [begin, begin + size).
struct Range1 {
  int64_t begin = 0, size = 0;
};
/// Part `i` of `parts` of [0, extent): balanced contiguous ranges (the first
/// extent % parts parts are one element longer); empty when parts > extent.
Range1 splitRange(int64_t extent, int64_t parts, int64_t i);

/// How many parts each dimension is cut into on an R x C grid, and which
/// part cluster (r, c) owns. A dimension split by both grid dimensions is
/// cut into R*C parts, part r*C + c.
struct SplitFactors {
  int64_t m = 1, n = 1, k = 1, b = 1;
  /// K parts along the rows / the columns (kRows * kCols = k).
  int64_t kRows = 1, kCols = 1;
};
SplitFactors splitFactors(const ArrayPartition &p, int64_t gridRows,
                          int64_t gridCols);
struct PartIndex {
  int64_t m = 0, n = 0, k = 0, b = 0;
  int64_t kRow = 0, kCol = 0; ///< k = kRow * kCols + kCol
};
PartIndex partIndex(const ArrayPartition &p, int64_t gridRows, int64_t gridCols,
                    int64_t r, int64_t c);

/// The slice of `count` m x n x k problems that cluster (r, c) computes:
/// instances `b` of the batch, each its m x n x k part.
struct ClusterSlice {
  Range1 m, n, k;
  Range1 b{0, 1};
  PartIndex part;
  bool empty() const {
    return m.size == 0 || n.size == 0 || k.size == 0 || b.size == 0;
  }
};
ClusterSlice clusterSlice(const ArrayPartition &p, int64_t gridRows,
                          int64_t gridCols, int64_t r, int64_t c, int64_t m,
                          int64_t n, int64_t k, int64_t count = 1);

/// The slices of all clusters of an R x C grid, row-major. `ranges` empty:
/// clusterSlice's balanced parts. Otherwise a split decision (split-strategy,
/// docs/labels-and-splits.md): R*C+1 ascending boundaries of the dimension
/// both grid dimensions split (p.dims[0] == p.dims[1] != None), cluster i
/// computing [ranges[i], ranges[i+1]) of it (an empty range idles it), as the
/// lowering cuts it. Ranges that do not fit the partition (another count,
/// mixed or None dims) are ignored: validRanges says whether they apply.
std::vector<ClusterSlice> clusterSlices(const ArrayPartition &p,
                                        int64_t gridRows, int64_t gridCols,
                                        int64_t m, int64_t n, int64_t k,
                                        const std::vector<int64_t> &ranges = {},
                                        int64_t count = 1);
/// `ranges` is a split decision clusterSlices applies to partition `p`: R*C+1
/// ascending boundaries from 0 to the extent of the split dimension.
bool validRanges(const ArrayPartition &p, int64_t gridRows, int64_t gridCols,
                 int64_t m, int64_t n, int64_t k,
                 const std::vector<int64_t> &ranges);

/// What the cost model needs besides the problem.
struct MappingProblem {
  GemmProblem gemm;          ///< m, k, n, count (f32 in DRAM)
  bool activationIsA = true; ///< matmul / gemm: A; conv (implicit GEMM): B
  bool withInit = false;     ///< bias / C initialises the accumulators
  bool fusedFunc = false;    ///< an activation fused into the final store
  /// Per-cluster tile sizes (accel.tiling partitions), clamped to each slice.
  int64_t tileM = 64, tileN = 64, tileK = 64;
  bool outerM = true; ///< output stationary: m loop outside n
  /// The tiles keep one C (and init) region beside the storage halves
  /// (codegen GemmTiling::sharedC; output stationary with several K chunks).
  bool sharedC = false;
  /// The init (withInit) is one value per C row, a convolution's bias:
  /// output stationary keeps mc floats of it instead of an mc x n tile
  /// (codegen GemmTiling::rowInit).
  bool rowInit = false;
  /// A consumer reads the result in ranges of rows (output channels: a
  /// depthwise convolution's planes), so DRAM placement cuts it into row
  /// pieces on the memory channels, and N-split clusters' interleaved
  /// stores are not all on one channel (mappingCost's interleaved-store
  /// rule does not apply).
  bool outputReadByRows = false;
  /// The lowering can give clusters whole batch instances (a batched
  /// matmul): selectMapping also prices batchPartitions().
  bool batchSplit = false;
  /// A convolution whose image tiles the kernel may form from input bands
  /// (conv-bands, docs/mapping.md "Convolution input bands"): its window.
  /// Cg = 0: not a convolution, or bands off.
  struct ConvWindowShape {
    int64_t Cg = 0, KH = 1, KW = 1, OW = 1, sh = 1, sw = 1, dh = 1, dw = 1;
  } conv;
};

/// What input bands do to the B (image) loads of a convolution step of an
/// n-pixel x k-deep tile (bandedImageLoads): per B tile the kernel would
/// load from DRAM, the DRAM bytes and DMAs of the bands instead.
struct BandedLoads {
  bool on = false;       ///< the bands move less channel time
  double bytes = 0;      ///< DRAM bytes per B tile (its band's share)
  double dmas = 0;       ///< DRAM DMAs per B tile
  int64_t bandBytes = 0; ///< storage bytes of one band slot
};
/// The kernel's band decision for a step of n pixels and depth k on a
/// channel of `latency` cycles and `bytesPerCycle` (same rule as
/// codegen::emitMappedGemmLayer: bands when their DMAs cost less channel
/// time than the tiles').
BandedLoads bandedImageLoads(const MappingProblem::ConvWindowShape &c,
                             int64_t n, int64_t k, double latency,
                             double bytesPerCycle);

struct MappingCost {
  MappingChoice choice;
  double cycles = 0;        ///< layer(s) total: max over clusters + combine
  double computeCycles = 0; ///< busiest cluster's EXECUTE time
  double channelCycles = 0; ///< busiest channel's DMA time
  double combineCycles = 0; ///< partial-sum add layers (K splits)
  int64_t activeClusters = 0;
  /// Instruction buffers the mapped kernel needs on the busiest cluster
  /// (one per (initialise, fused function) variant); more than the hardware
  /// has makes the pair infeasible (cycles = infinity).
  int64_t instructionBuffers = 0;
  bool feasible = true;
  uint64_t dmaBytes = 0; ///< all clusters, GEMM layer only
};

/// A cluster's tile sizes for its slice (tileM rows, a multiple of the PEs
/// per cluster when the slice allows; tileN columns; tileK reduction depth).
struct SliceTiles {
  int64_t tileM = 64, tileN = 64, tileK = 64;
  bool operator==(const SliceTiles &o) const {
    return tileM == o.tileM && tileN == o.tileN && tileK == o.tileK;
  }
};
/// The tiles one cluster uses for its ms x ns x ks slice under choice `c`:
/// the layer's (p.tileM / tileN / tileK, accel.tiling's partitions, which
/// were chosen for the whole problem on the whole machine) or, when the
/// cost model finds it at least 3 % faster for this cluster, up to 4x more
/// rows or columns per step and / or half the depth (bigger steps amortise
/// the per-EXECUTE LD acts / LD weights and the per-DMA latency, and reuse
/// each loaded tile for more MACs, which matters when `sharers` clusters
/// queue on one memory channel, `channel`). Candidates respect the PE buffers
/// (accumulators, input buffer, weight queue); the storage unit is fitted
/// afterwards like codegen::fitMappedTiling. Used by the cost model and by
/// the lowering, so both see the same tiles.
SliceTiles chooseSliceTiles(const MappingProblem &p, const HardwareDesc &hw,
                            Dataflow dataflow, int64_t ms, int64_t ns,
                            int64_t ks, bool init, unsigned sharers,
                            uint32_t channel = 0);
/// Whether the cost model prices cluster slice ms x ns x ks of convolution
/// `p` (p.conv set) with tiles `t` faster with input bands than without
/// (conv-bands, docs/mapping.md "Convolution input bands"): the choice
/// mappingCost and chooseSliceTiles make per cluster. (The lowering leaves
/// the final choice to the kernel, which sees its real steps and storage.)
bool convBandsPay(const MappingProblem &p, const HardwareDesc &hw,
                  Dataflow dataflow, int64_t ms, int64_t ns, int64_t ks,
                  bool init, unsigned sharers, uint32_t channel,
                  const SliceTiles &t);
/// Clusters with a non-empty slice on cluster `cluster`'s memory channel
/// (itself included), for the slices `slices` (row-major, empty = idle).
unsigned channelSharers(const HardwareDesc &hw,
                        const std::vector<ClusterSlice> &slices,
                        uint32_t cluster);

/// Modelled cycles of one (dataflow, partition) pair on `hw`; with `ranges`
/// (a split decision, see clusterSlices) the clusters compute those slices
/// instead of the balanced ones.
MappingCost mappingCost(const MappingProblem &p, const HardwareDesc &hw,
                        const MappingChoice &c,
                        const std::vector<int64_t> &ranges = {});
/// The spec's 27 pairs (3 dataflows x the nine partitions of Fig. 9,
/// dataflow-major); selectMapping also prices the seven partitions with
/// "none" (48 pairs in all).
std::vector<MappingCost> allMappingCosts(const MappingProblem &p,
                                         const HardwareDesc &hw);
/// The cheapest feasible pair over candidatePartitions(), optionally with the
/// dataflow and / or the partition fixed (a forced infeasible pair is returned
/// as such). Ties keep the earlier pair in the order output, input, weight
/// stationary; partitions in Fig. 9 order. `ranges` (with a forced [D, D]
/// partition: a split decision) prices the clusters' actual slices.
MappingCost selectMapping(const MappingProblem &p, const HardwareDesc &hw,
                          const Dataflow *forceDataflow = nullptr,
                          const ArrayPartition *forcePartition = nullptr,
                          const std::vector<int64_t> &ranges = {});

} // namespace accel::tiling

#endif
