//===- TileSelection.h - Tile sizes and loop order (spec/tiling.md) -*- C++
//-*-//
//
// Pure C++ (no MLIR types): the closed-form, rule-based tile-size and
// loop-order selection of spec/tiling.md (branch F / branch X, the split-K
// halving search and the inner-tile rule), the cost model it uses, an
// exhaustive search over the same legal mapping space under the same cost
// model, and the schedule (loop nest) a decision stands for.
//
// Units: sizes are elements (rows / columns / depth) unless a name ends in
// Bytes; cycles are machine cycles; hw_power is MACs per cycle (one MAC =
// one multiply-add), so gemm_cycle = m*k*n / macsPerCycle and a load takes
// bytes / bytesPerCycle. docs/tiling.md states every decision the spec
// leaves open.
//
//===----------------------------------------------------------------------===//
#ifndef ACCEL_TILING_TILESELECTION_H
#define ACCEL_TILING_TILESELECTION_H

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace accel {
struct HardwareDesc;
} // namespace accel

namespace accel::tiling {

//===----------------------------------------------------------------------===//
// Problem
//===----------------------------------------------------------------------===//

/// C[m,n] = A[m,k] * B[k,n], `count` independent instances (batch, heads,
/// groups) that all use the same decision.
struct GemmProblem {
  int64_t m = 0, k = 0, n = 0;
  unsigned elemBytes = 4; ///< d_s: element size of A and B in the buffers
  int64_t count = 1;
  /// Bytes moved to load each operand once (0 = dense: m*k*d_s, k*n*d_s).
  /// Convolution (implicit GEMM) sets bLoadBytes to the raw activation
  /// footprint, which is smaller than the im2col matrix.
  uint64_t aLoadBytes = 0, bLoadBytes = 0;

  uint64_t aBytes() const; ///< load volume of A (load_a * mata_bw)
  uint64_t bBytes() const; ///< load volume of B
};

/// A 2-D convolution (NCHW input, OIHW weights). Padding, stride, dilation
/// and groups are all honoured; outH/outW follow the usual formula.
struct ConvShape {
  int64_t batch = 1, inChannels = 1, inH = 1, inW = 1;
  int64_t outChannels = 1, kernelH = 1, kernelW = 1;
  int64_t strideH = 1, strideW = 1;
  int64_t padTop = 0, padLeft = 0, padBottom = 0, padRight = 0;
  int64_t dilationH = 1, dilationW = 1;
  int64_t groups = 1;
  int64_t outH() const;
  int64_t outW() const;
};

/// The spec's convolution mapping, per group: m = oc/groups,
/// k = (ic/groups)*kh*kw, n = batch*oh*ow, count = groups. A is the weight
/// matrix (loaded densely); B is loaded once in raw form (implicit GEMM):
/// bLoadBytes = batch * (ic/groups) * rowsRead * colsRead * d_s, where
/// rowsRead / colsRead count the input rows / columns the convolution
/// actually reads (padding excluded, stride and dilation gaps excluded).
/// For a stride-1 'same' convolution that is oh*ow, the spec's sn*h*w.
/// Returns false (and sets err) on inconsistent shapes.
bool convToGemm(const ConvShape &conv, unsigned elemBytes, GemmProblem &out,
                std::string &err);

//===----------------------------------------------------------------------===//
// Hardware parameters
//===----------------------------------------------------------------------===//

/// What the selection consumes (symbols of spec/tiling.md).
struct TilingHardware {
  double macsPerCycle = 256;           ///< hw_power, MACs per cycle
  double aBytesPerCycle = 32;          ///< mata_bw
  double bBytesPerCycle = 32;          ///< matb_bw
  uint64_t aBufferBytes = 256 << 10;   ///< b_s1 (A tiles)
  uint64_t bBufferBytes = 64 << 10;    ///< b_s2 (B tiles)
  uint64_t accBufferBytes = 256 << 10; ///< acc_buffer_max
  unsigned accElemBytes = 0;           ///< partial-sum element size; 0 = d_s
  int64_t blockSize = 64; ///< block_size_m = block_size_n (and K step)
  uint64_t syncGranularityBytes = 4096; ///< sync_granularity
  bool innerRowMajor =
      false; ///< inner flag preset (false: tile_n outside tile_m)
};

/// Where an operand lives when the GEMM starts.
enum class Placement : uint8_t { Dram, OnChip };

struct DeriveOptions {
  Placement a = Placement::Dram, b = Placement::Dram;
  /// Clusters streaming at the same time (they share the memory channels);
  /// 0 = every cluster of the grid.
  uint32_t activeClusters = 0;
};

/// Parameters of one cluster's GEMM unit (the PE array of a cluster):
///   hw_power     = pesPerCluster * macLanes
///   b_s1         = pesPerCluster * inputBufferBytes (A rows are split over
///                  the PEs)
///   b_s2         = weightQueueBytes (LD weights broadcasts the B tile to
///                  every PE's weight queue, so the cluster holds one copy)
///   acc_max      = pesPerCluster * 4 * accBufferBytes (four accumulation
///                  buffers per PE), accElemBytes from numerics.accumulate
///   mata_bw      = actLoadBytesPerCycle, and for a DRAM-resident A at most
///                  the cluster's share of its memory channel (channel
///                  bytes/cycle / active clusters on that channel; the
///                  slowest active cluster counts)
///   matb_bw      = the same with weightLoadBytesPerCycle
///   block size, sync granularity from the tiling group.
TilingHardware deriveTilingHardware(const HardwareDesc &hw,
                                    const DeriveOptions &opts = {});
/// Element size of the hardware's compute type (d_s of a problem).
unsigned computeElemBytes(const HardwareDesc &hw);

/// Checks a parameter set (positive sizes and rates); false + err if not.
bool validateTilingHardware(const TilingHardware &hw, std::string &err);

//===----------------------------------------------------------------------===//
// Mapping space and cost model
//===----------------------------------------------------------------------===//

/// One point of the legal mapping space. Sizes are effective: each is a
/// multiple of the block size smaller than its dimension, or the dimension
/// itself (the last partition of a dimension takes the remainder).
struct Mapping {
  bool outerRowMajor = true; ///< outloop_rowmajor_flag: 1 = m loop outside n
  int64_t partitionM = 0, partitionN = 0, partitionK = 0;
};

/// The cost model (spec formulas (1)-(7) for an arbitrary mapping). Loop
/// nest: for out_o, for out_i, for k (step partition_k), for in_m, for in_n.
/// With the m loop outside (flag 1):
///   A strip (partition_m x k) stays resident across the n loop when it fits
///   b_s1 -> loads_a = 1, else loads_a = ceil(n / partition_n);
///   loads_b = ceil(m / partition_m), except 1 when there is a single n
///   partition whose whole B strip (k x partition_n) fits b_s2;
/// symmetrically with the n loop outside (flag 0).
/// gemm = m*k*n / hw_power; load_a = aBytes / mata_bw; load_b likewise;
/// cycles = count * max(gemm, loads_a*load_a, loads_b*load_b);
/// util = gemm / max(...) (<= 1).
/// Legal when the A tile (partition_m x partition_k) fits b_s1, the B tile
/// fits b_s2 and, if K is split (partition_k < k), the C partition
/// (partition_m x partition_n partial sums) fits acc_buffer_max.
struct Cost {
  bool legal = false;
  const char *why = ""; ///< reason when not legal
  int64_t loadsA = 0, loadsB = 0;
  bool residentA = false, residentB = false; ///< strip kept across the loop
  bool splitK = false;
  uint64_t accBytes = 0; ///< partial sums held (0 without split)
  double gemmCycles = 0, loadACycles = 0, loadBCycles = 0; ///< one instance
  double cycles = 0; ///< all `count` instances
  double util = 0;
};
Cost evaluateMapping(const GemmProblem &p, const TilingHardware &hw,
                     const Mapping &map);

//===----------------------------------------------------------------------===//
// Decision
//===----------------------------------------------------------------------===//

enum class Branch : uint8_t { F, X };
/// How the chosen mapping moves data (classified from the load counts).
enum class Strategy : uint8_t {
  ResidentA, ///< A kept, both loaded once (flag 1); branch F's A-fits case
             ///< (the B stream may be cut into K chunks, see docs/tiling.md)
  ResidentB, ///< B kept, both loaded once (flag 0)
  ReloadA,   ///< B loaded once, A loaded loada > 1 times (S503 reload A)
  ReloadB,   ///< A loaded once, B loaded loadb > 1 times (S503 reload B)
  SplitK,    ///< K split, partial sums of a C partition in the acc buffer,
             ///< both operands reloaded (or the whole C held)
};
const char *branchName(Branch b);
const char *strategyName(Strategy s);

/// One step of the halving search: acc size tried and its split utilisation.
struct HalvingStep {
  uint64_t accBytes = 0;
  double util = 0;
  bool feasible = false;
};

struct TileDecision {
  bool feasible = false;
  std::string error; ///< why no legal mapping exists (feasible == false)

  Branch branch = Branch::F;
  Strategy strategy = Strategy::ResidentA;
  int64_t partitionM = 0, partitionN = 0, partitionK = 0;
  int64_t tileM = 0, tileN = 0;
  bool outerRowMajor = true;  ///< outloop_rowmajor_flag
  bool innerRowMajor = false; ///< inner flag (1: in_m loop outside in_n)
  bool needSplitK = false;    ///< need_splitk_flag (partition_k < k)
  bool accBufferFlag = false; ///< acc_buffer_flag
  /// acc_buffer_needed in bytes: for the split-K branch the smallest size of
  /// the halving search that keeps the utilisation; otherwise the partial
  /// sums the mapping holds (0 without split).
  uint64_t accBufferNeeded = 0;
  uint64_t accBytesUsed = 0; ///< partition_m * partition_n * acc elem (split)
  int64_t loadA = 0, loadB = 0; ///< how many times each operand is loaded

  double util = 0; ///< modelled GEMM utilisation of the chosen mapping
  double gemmCycles = 0, loadACycles = 0, loadBCycles = 0; ///< one instance
  double cycles = 0; ///< modelled cycles, all instances

  // Trace of the spec's comparisons (branch X; 0 = no legal mapping).
  double util1 = 0;                 ///< reload A, no split (S503)
  double util2 = 0;                 ///< reload B, no split (S503)
  double utilNoSplitK = 0;          ///< max(util1, util2)
  double utilSplitK = 0;            ///< split at acc_buffer_max (S504)
  std::vector<HalvingStep> halving; ///< S515-S517, first entry = acc_max

  Mapping mapping() const {
    return Mapping{outerRowMajor, partitionM, partitionN, partitionK};
  }
};

/// The spec's procedure (Fig. 5).
TileDecision selectTiling(const GemmProblem &p, const TilingHardware &hw);

struct ExhaustiveStats {
  uint64_t visited = 0; ///< mappings evaluated
  uint64_t legal = 0;
};
/// Every legal mapping (both loop orders, every block-aligned partition_m /
/// partition_n / partition_k that fits, split or not, hence every
/// accumulation size) under evaluateMapping; the cheapest wins. Ties:
/// no split first, then the smaller accumulation, the larger partition_k,
/// the larger partition_m * partition_n, flag 1.
TileDecision exhaustiveTiling(const GemmProblem &p, const TilingHardware &hw,
                              ExhaustiveStats *stats = nullptr);

/// Naive baselines (for the benchmark and as forced decisions). All keep
/// the m loop outside and take the largest K chunk that fits.
enum class Baseline : uint8_t {
  /// Fixed loop order without split-K: A strips resident, the largest
  /// full-K tiles (S506 with a fixed order). When no full-K tile fits, only
  /// the one block the GEMM unit accumulates itself carries partial sums
  /// across K chunks (= FixedBlockTiles).
  FixedOrderNoSplit,
  /// partition_m = partition_n = one block.
  FixedBlockTiles,
  /// Split-K without the spec's reasoning: the largest square C partition
  /// the accumulation buffer holds (no balancing, no order choice, no
  /// halving, no no-split comparison).
  SquareSplitK,
};
TileDecision baselineTiling(const GemmProblem &p, const TilingHardware &hw,
                            Baseline b);

/// Fills a decision (costs, flags, inner tiles, strategy) from a mapping.
/// Not legal -> feasible = false with the reason.
TileDecision decisionFromMapping(const GemmProblem &p, const TilingHardware &hw,
                                 const Mapping &map);

/// Inner tiles (S512-S514) of a partition.
void innerTiles(const GemmProblem &p, const TilingHardware &hw,
                int64_t partitionM, int64_t partitionN, int64_t &tileM,
                int64_t &tileN);

//===----------------------------------------------------------------------===//
// Schedule
//===----------------------------------------------------------------------===//

/// One iteration of the k loop of the nest (one partition of C, one K
/// chunk). loadA / loadB: the A tile (m0.., k0..) / B tile (k0.., n0..)
/// must be brought in for this step (false: still resident).
struct PartitionStep {
  int64_t m0 = 0, m = 0, n0 = 0, n = 0, k0 = 0, k = 0;
  bool loadA = false, loadB = false;
  bool firstK = false, lastK = false; ///< first / last chunk of this C part
};
/// Walks the loop nest of a decision for one instance, in execution order.
void forEachPartitionStep(const GemmProblem &p, const TilingHardware &hw,
                          const TileDecision &d,
                          const std::function<void(const PartitionStep &)> &fn);
/// The inner tiles of one step, in the inner loop order of the decision.
void forEachInnerTile(const TileDecision &d, const PartitionStep &step,
                      const std::function<void(int64_t m0, int64_t m,
                                               int64_t n0, int64_t n)> &fn);

//===----------------------------------------------------------------------===//
// Machine-level prediction (docs/tiling.md, "Model vs simulator")
//===----------------------------------------------------------------------===//

/// What the whole machine (every cluster, the shared memory channels) takes
/// to run a decision as the GEMM kernel lowers it (lib/Codegen/GemmKernel):
/// the spec's model prices one cluster with independent operand streams
/// (max of the two loads); the machine deals the outer partitions over the
/// clusters, queues all DMAs of the clusters of a channel on that channel
/// (sum, not max), charges every transfer the channel latency and runs LD /
/// MAC / ST of each EXECUTE in sequence on the PE array.
struct MachineEstimate {
  double cycles = 0;        ///< predicted total (all instances)
  double channelCycles = 0; ///< busiest channel: sum of transfer durations
  double computeCycles = 0; ///< busiest cluster: sum of EXECUTE durations
  uint32_t activeClusters = 0;
  uint64_t dmaBytes = 0, dmaTransfers = 0;
  bool channelBound = false;
};
/// `th` is the TilingHardware the decision was made with (residency), `hw`
/// the machine; withInit: the GEMM starts from a bias / C (LD psums).
/// Operands are f32 in DRAM and storage (4 bytes per element). Walks the
/// decision's schedule per cluster:
///   DMA duration   = latency + ceil(bytes / channel bytes per cycle)
///   EXECUTE        = LD acts + per acc group (LD weights + MAC) + ST on the
///                    last K chunk (+ LD psums on the first with an init),
///                    the simulator's instruction costs (docs/simulator.md)
///   cycles = max over clusters of max(head + compute + tail,
///                                     channel of the cluster + last EXECUTE)
/// where head = the cluster's first loads, tail = its last store.
/// `dramChannelOfCluster` (optional): the memory channel serving cluster i's
/// DMAs (the channel region of the layer's DRAM buffers, as the simulator
/// charges by address); a channel other than channelOf(i) adds
/// 2 * (channelHops - 1) * hopLatency per DMA. Null = channelOf(i).
MachineEstimate
machineCycles(const GemmProblem &p, const TilingHardware &th,
              const HardwareDesc &hw, const TileDecision &d,
              bool withInit = false,
              const std::vector<uint32_t> *dramChannelOfCluster = nullptr);

/// What machineSearch looked at.
struct MachineSearchStats {
  double startCycles = 0, bestCycles = 0; ///< machineCycles of start / result
  int tried = 0;                          ///< legal mappings priced
  int skipped = 0; ///< mappings with more than maxSteps partition steps
};

/// The cheapest mapping under machineCycles among `start` and a compact
/// slice of the legal space (both orders; partitions and K chunks at every
/// block multiple up to 8 blocks, powers of two beyond, and the extent).
/// Mappings whose schedule has more than `maxSteps` partition steps (all
/// instances) are skipped: the walk is linear in steps. Returns `start` when
/// nothing is cheaper.
/// `realise` maps a decision to the partitions the kernel actually runs
/// (codegen::realisedDecision narrows an inner tile that does not fit); it
/// is what machineCycles prices. Empty = the decision as is.
using RealiseFn = std::function<TileDecision(const TileDecision &)>;
TileDecision machineSearch(const GemmProblem &p, const TilingHardware &th,
                           const HardwareDesc &hw, const TileDecision &start,
                           bool withInit = false, double maxSteps = 3e5,
                           MachineSearchStats *stats = nullptr,
                           const RealiseFn &realise = {});

/// `d` replaced by machineSearch's result when that is at least 1 % cheaper
/// under machineCycles (select-tiling refine=machine): the spec's model
/// prices one cluster, the kernel deals partitions over all of them.
TileDecision refineForMachine(const GemmProblem &p, const TilingHardware &th,
                              const HardwareDesc &hw, const TileDecision &d,
                              bool withInit = false,
                              const RealiseFn &realise = {});

/// The decision as a JSON object (one line per field, 2-space indent).
std::string toJson(const TileDecision &d);
std::string toJson(const TilingHardware &hw);

//===----------------------------------------------------------------------===//
// Shape suites (benchmark and tests)
//===----------------------------------------------------------------------===//

struct NamedProblem {
  std::string name;
  GemmProblem problem;
};
/// Every GEMM of BERT-Large (hidden 1024, FFN 4096, 16 heads of 64, pooler)
/// for sequence 128/384/512 and batch 1/8/32.
std::vector<NamedProblem> bertLargeGemms(unsigned elemBytes);
/// The convolutions (and the classifier) of ResNet-50 v1.5 at 224x224 as
/// GEMMs, for the given batch sizes.
std::vector<NamedProblem> resnet50Gemms(unsigned elemBytes,
                                        const std::vector<int64_t> &batches);

} // namespace accel::tiling

#endif
