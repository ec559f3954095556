//===- Kernels.h - Tile-level code generation for the accelerator -*- C++ -*-=//
//
// Pure C++ (no MLIR types): the graph-to-ISA lowering describes each operator
// as DRAM views and calls these generators, which split the work into tiles,
// spread the tiles over the cluster grid and append commands (DMA with
// ping-pong storage halves, CONFIG once, EXECUTE per tile) to the per-cluster
// streams of a Program. Keeping this free of MLIR makes it unit-testable with
// the simulator alone.
//
//===----------------------------------------------------------------------===//
#ifndef ACCEL_CODEGEN_KERNELS_H
#define ACCEL_CODEGEN_KERNELS_H

#include "accel/Codegen/SyncTracker.h"
#include "accel/Hardware/HardwareDesc.h"
#include "accel/Target/Program.h"
#include "accel/Tiling/TileSelection.h"
#include <array>
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace accel::codegen {

/// A strided box of f32 elements in DRAM: element (i0..i{rank-1}) lives at
/// byte base + 4 * sum(i_d * stride_d). The first `rowDims` dimensions index
/// tile rows, the rest tile columns (both row-major).
struct DramBox {
  uint64_t base = 0;
  int rank = 0;
  std::array<int64_t, 4> shape{1, 1, 1, 1};
  std::array<int64_t, 4> stride{0, 0, 0, 0};
  int rowDims = 1;
  int64_t rows() const;
  int64_t cols() const;
  /// Appends a dimension (extent, stride) at the end.
  DramBox &dim(int64_t extent, int64_t strideElems);
};

/// One DMA of a tile that several boxes assemble (a padded convolution's
/// image tile read in the window, PadWindow.h): element (i0..) of `src`
/// lands at tile element offset + sum(i_d * suStrides[d]).
struct TilePiece {
  DramBox src;
  int64_t offset = 0;
  std::array<int64_t, 4> suStrides{0, 0, 0, 0};
  /// Writes zeros (a broadcast of a zeroed f32): a region that got the same
  /// zero pieces at its previous load and nothing since still holds them.
  bool zero = false;
};
/// `box` as the one piece of a dense tile of row stride `rowStride` (what
/// StreamBuilder::dmaLoad writes).
TilePiece denseTilePiece(const DramBox &box, int64_t rowStride);

/// Integer ceil(a / b) and a rounded up to a multiple of b (b > 0).
inline int64_t ceilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }
inline int64_t roundUp(int64_t a, int64_t b) { return ceilDiv(a, b) * b; }

/// One step of a fused epilogue after the chained function of the store
/// (fuse-layers, #accel.fusion): a unary SFU function with its immediate,
/// or the add of the residual tile (`residual`).
struct EpilogueStep {
  SfuFunc func = SfuFunc::None;
  float imm = 0.0f;
  bool residual = false;
};

/// What the convolution kernels that bypass the implicit GEMM (depthwise,
/// RQ) share: the window over a zero-padded Hp x Wp input plane and the DRAM
/// operands (their layouts are the derived layer's).
struct ConvLayerBase {
  int64_t Hp = 0, Wp = 0; ///< input plane with its zero padding
  int64_t KH = 0, KW = 0, OH = 0, OW = 0;
  int64_t sh = 1, sw = 1, dh = 1, dw = 1;
  uint64_t x = 0, w = 0;
  uint64_t bias = 0; ///< per output channel, when hasBias
  bool hasBias = false;
  uint64_t out = 0;
  SfuFunc func = SfuFunc::None; ///< fused activation on the final store
  float funcImm = 0.0f;         ///< its immediate
};

/// How the clusters synchronise between layers (docs/passes.md,
/// "Synchronisation"): `Barrier` = every cluster WAITs for its DMAs and PEs
/// and all meet at a BARRIER after every layer (the behaviour before issue
/// 11); `Events` = a cluster RECVs only the end-of-layer SIGNALs of the
/// clusters whose DRAM writes it reads (or whose reads / writes it
/// overwrites), just before the dependent DMA (SyncTracker).
enum class SyncMode { Barrier, Events };

/// Appends commands to the cluster streams of a Program, tracking each
/// cluster's register file so EXECUTE sends only the fields that changed.
class StreamBuilder {
public:
  StreamBuilder(Program &program, const HardwareDesc &hw,
                SyncMode sync = SyncMode::Barrier);
  SyncMode syncMode() const { return sync_; }
  const HardwareDesc &hw() const { return hw_; }
  uint32_t numClusters() const { return hw_.numClusters(); }
  /// The storage the kernels appended from now on may use (from address 0
  /// up): the lowering narrows it for a layer whose neighbours' maps stay
  /// resident beside it (a depth-first band) and restores it after.
  void setKernelStorage(uint64_t bytes) { hw_.storageBytes = bytes; }

  /// The Program::layers entry the commands appended from now on work for
  /// (Command::layer; per-layer attribution, docs/passes.md "Layer table").
  /// The lowering sets it before each source operator, so every kernel,
  /// helper copy and synchronisation command of the operator carries it.
  void setLayer(uint32_t layer) { layer_ = layer; }
  uint32_t layer() const { return layer_; }
  /// Commands appended so far (all clusters; an operator that appends none
  /// gets no layer table entry).
  uint64_t numCommands() const { return numCommands_; }

  void config(uint32_t cluster, uint8_t ibuf, std::vector<Instruction> instrs);
  /// Operand records the cluster's register file holds for its configured
  /// buffers other than `ibufs` (whose configurations are about to be
  /// replaced): what a kernel's new configurations must leave room for.
  uint64_t recordsOutside(uint32_t cluster,
                          std::initializer_list<uint8_t> ibufs) const;
  /// Operand records of buffer `ibuf` as last configured on the cluster.
  uint64_t configuredRecords(uint32_t cluster, uint8_t ibuf) const {
    return regs_.at(cluster).at(ibuf).size();
  }
  /// EXECUTE `ibuf` with the records replaced by `records` (same length as
  /// the configured sequence); only differing addr/rows/cols/depth/base fields
  /// are sent as patches.
  void execute(uint32_t cluster, uint8_t ibuf,
               const std::vector<OperandRecord> &records, bool shift,
               bool last);
  /// DMA between a DRAM box and a dense storage tile of row stride
  /// `rowStride` elements at `suAddr`.
  void dmaLoad(uint32_t cluster, uint8_t tag, const DramBox &src,
               uint32_t suAddr, int64_t suRowStride);
  /// DMA from a DRAM box to storage with explicit storage strides
  /// (elements, one per box dimension).
  void dmaLoadStrided(uint32_t cluster, uint8_t tag, const DramBox &src,
                      uint32_t suAddr, const std::array<int64_t, 4> &suStrides);
  /// local_copy DMA inside the cluster's storage with strides on both sides:
  /// `box` gives the shape and the source strides (its base is unused), from
  /// storage byte `srcAddr` to `dstAddr` with `dstStrides` (elements, one
  /// per box dimension).
  void dmaLocalCopyStrided(uint32_t cluster, uint8_t tag, uint32_t srcAddr,
                           const DramBox &box, uint32_t dstAddr,
                           const std::array<int64_t, 4> &dstStrides);
  /// remote_load of the dense tile of row stride `rowStride` holding `box`
  /// (its shape; base and strides unused) at storage byte `srcAddr` of
  /// cluster `srcCluster` into the same layout at `dstAddr` of `cluster`:
  /// the copy of a tile another cluster loaded with dmaLoad. The caller
  /// orders it after that load and the owner's later writes after it.
  void dmaRemoteLoad(uint32_t cluster, uint8_t tag, uint32_t srcCluster,
                     uint32_t srcAddr, const DramBox &box, uint32_t dstAddr,
                     int64_t rowStride);
  /// One DMA per piece into the tile at `suAddr`.
  void dmaLoadPieces(uint32_t cluster, uint8_t tag,
                     const std::vector<TilePiece> &pieces, uint32_t suAddr);
  void dmaStore(uint32_t cluster, uint8_t tag, uint32_t suAddr,
                int64_t suRowStride, const DramBox &dst);
  /// DMA from storage to a DRAM box with explicit storage strides
  /// (elements, one per box dimension).
  void dmaStoreStrided(uint32_t cluster, uint8_t tag, uint32_t suAddr,
                       const std::array<int64_t, 4> &suStrides,
                       const DramBox &dst);
  /// local_copy DMA inside the cluster's storage: the box `src` (shape and
  /// strides in elements; its base ignored) at storage byte `srcAddr` into
  /// a dense tile of row stride `dstRowStride` at `dstAddr` (the box's
  /// rowDims index the tile's rows).
  void dmaLocalCopy(uint32_t cluster, uint8_t tag, uint32_t srcAddr,
                    const DramBox &src, uint32_t dstAddr, int64_t dstRowStride);
  void dmaDramCopy(uint32_t cluster, uint8_t tag, const DramBox &src,
                   const DramBox &dst);
  /// Mesh commands (DESIGN-11 "Mesh and synchronisation"; definitions in
  /// MeshCommands.cpp): SEND `op.bytes` of this cluster's storage to the
  /// storage of `op.targets`, SIGNAL `targets` on semaphore `sem`, RECV
  /// (block until semaphore `sem` >= `count`, then take `count`).
  void meshSend(uint32_t cluster, const MeshOp &op);
  void meshSignal(uint32_t cluster, std::vector<uint32_t> targets,
                  uint32_t sem);
  void meshRecv(uint32_t cluster, uint32_t sem, uint32_t count);
  void wait(uint32_t cluster, uint8_t tagMask, bool pe);
  /// RECUR: one RNN task on the cluster's column-wise engine (docs/rnn.md).
  /// Its operands are in the cluster's storage (the weights possibly in
  /// DRAM constants, which no command writes: no synchronisation needed).
  void recur(uint32_t cluster, const RecurDesc &task);
  /// Records that the scalar unit (pipeline type 2) wrote `addr` back into
  /// the record of instruction `instr` of `ibuf`, so that the next execute()
  /// patches only what differs from the advanced register file.
  void noteAddrWriteBack(uint32_t cluster, uint8_t ibuf, size_t instr,
                         uint32_t addr);
  /// The same for a MAC's index-compare `base` advanced by the scalar unit
  /// (the next execute() sends a base patch to reset it).
  void noteBaseWriteBack(uint32_t cluster, uint8_t ibuf, size_t instr,
                         uint32_t base);
  /// Ends a layer. Barrier mode: every cluster waits for all its DMAs and
  /// its PE array, then all clusters meet at a barrier. Events mode: every
  /// cluster that issued commands in the layer waits for its DMAs and PE
  /// array and gets a SIGNAL whose targets are the later consumers of its
  /// accesses (filled in as they appear; finish() drops the SIGNALs nobody
  /// needs).
  void endLayer();
  /// Completes the streams: removes the unused SIGNALs of events mode and
  /// sorts the targets of the others. Call once, after the last layer.
  void finish();
  /// Per cluster, per command of its stream: the index of the layer
  /// (endLayer count, both sync modes) it was emitted in. Kept in step with
  /// the streams by finish(); the on-chip residency planner reads it
  /// (docs/passes.md, "On-chip residency").
  const std::vector<std::vector<uint32_t>> &commandLayers() const {
    return commandLayers_;
  }
  /// Layers ended so far (+1 while a layer is open).
  uint32_t numLayers() const { return layerIndex_ + 1; }
  /// SIGNAL / RECV pairs emitted so far (events mode; statistics, tests).
  uint64_t numRecvs() const { return numRecvs_; }
  /// The first control-unit capacity the emitted CONFIGs exceed, naming the
  /// hardware field and the minimum the kernels need ("" = none). Checked
  /// by the lowering before the program is validated.
  const std::string &capacityError() const { return capacityError_; }

private:
  void checkCapacity(uint32_t cluster, uint8_t ibuf, size_t instrs);
  void push(uint32_t cluster, Command c);
  /// Events mode: the RECVs `cluster` needs before a DMA reading `src` and
  /// / or writing `dst` (either may be null), pushed before it.
  void syncBefore(uint32_t cluster, const DramBox *src, const DramBox *dst);
  Program &program_;
  HardwareDesc hw_;
  SyncMode sync_;
  SyncTracker tracker_;
  /// Events mode, per cluster: (layer, index of its end-of-layer SIGNAL in
  /// the stream), ascending by layer.
  std::vector<std::vector<std::pair<uint32_t, size_t>>> signals_;
  /// Per cluster: issued a command since its last end of layer.
  std::vector<char> active_;
  uint64_t numRecvs_ = 0;
  uint32_t layer_ = Command::kNoLayer;
  uint64_t numCommands_ = 0;
  bool finished_ = false;
  // Register file of each cluster: ibuf -> records as currently stored.
  std::vector<std::vector<std::vector<OperandRecord>>> regs_;
  uint32_t nextBarrier_ = 0;
  std::string capacityError_;
  std::vector<std::vector<uint32_t>> commandLayers_;
  uint32_t layerIndex_ = 0;
};

/// A convolution's input band (docs/mapping.md, "Convolution input bands",
/// ConvBand.h): the B (image) tile of a K chunk formed on chip from a band
/// of the padded input held in storage, instead of a DRAM DMA per tile.
struct ImageBand {
  /// Bands of one problem with the same id hold the same data.
  int64_t id = -1;
  int64_t elems = 0; ///< f32 elements of the band (dense in storage)
  /// The DMAs that fill the band (TilePiece offsets in elements from the
  /// band's start; zero pieces for the padding).
  std::vector<TilePiece> load;
  /// The chunk's tile as a box over the band: base = element offset in the
  /// band (not bytes), strides in elements, rowDims as the tile's rows.
  DramBox tile;
};

/// The three operand streams of a GEMM-shaped problem C[M,N] (+)= A[M,K]
/// B[K,N], where N and K are split into problem-specific tiles (for
/// convolution a K chunk is one kernel position x a channel range and an N
/// tile is a block of output pixels).
struct GemmTiles {
  int64_t m = 0;
  std::vector<int64_t> nTiles;  ///< width of each N tile
  std::vector<int64_t> kChunks; ///< depth of each K chunk
  std::function<DramBox(int64_t m0, int64_t mc, size_t k)> aBox;
  std::function<DramBox(size_t k, size_t n)> bBox;
  std::function<DramBox(int64_t m0, int64_t mc, size_t n)> cBox;
  /// Initial accumulator value (bias / C), broadcast allowed. Optional.
  std::function<DramBox(int64_t m0, int64_t mc, size_t n)> initBox;
  /// Optional, with initBox: the same init as one value per C row (a
  /// convolution's bias, constant along N), rows m0 .. m0 + mc - 1 as a
  /// rank-1 box. The mapped kernel then loads these mc values instead of
  /// the mc x n broadcast and LD psums broadcasts them along the columns.
  std::function<DramBox(int64_t m0, int64_t mc)> initRows;
  /// Optional: the A / B tile as several DMAs for a tile of row stride
  /// `rowStride` (a padded convolution's image tile read in the window,
  /// PadWindow.h); when set, the kernels load these instead of aBox / bBox.
  std::function<std::vector<TilePiece>(int64_t m0, int64_t mc, size_t k,
                                       int64_t rowStride)>
      aPieces;
  std::function<std::vector<TilePiece>(size_t k, size_t n, int64_t rowStride)>
      bPieces;
  /// Optional: the B tile of (chunk k, N tile n) from an input band
  /// (ImageBand); the mapped kernel uses it where its loop nest reuses a
  /// band (emitMappedGemmLayer), else bBox / bPieces. `groupElems` > 0:
  /// consecutive N tiles share one band of at most that many elements
  /// (docs/mapping.md, "Band groups"); 0: a band per N tile.
  /// Shared: a group's tiles and the strip planners' repeated asks hold the
  /// same band.
  std::function<std::shared_ptr<const ImageBand>(size_t k, size_t n,
                                                 int64_t groupElems)>
      bBand;
  /// With bands: the order of the K loop (chunk indexes) that puts the
  /// chunks of one band next to each other; empty = 0, 1, ...
  std::vector<size_t> bandOrder;
};

/// Tile sizes and loop order of the matmul kernel: Mc = pesPerCluster *
/// peRows rows per M partition, K chunks of at most kc, N tiles of at most nc
/// (the storage row strides). A partition step (Mc x one N tile x one K
/// chunk) is one EXECUTE; its nc columns are spread over up to four
/// accumulation buffers (acc ids 0..3) so that partial sums of the whole
/// partition stay in the PEs across K chunks (split-K).
struct GemmTiling {
  int64_t peRows = 1, kc = 1, nc = 1;
  /// Loop nest: true = for m partition { for n tile { for k } } (m outside),
  /// false = n outside.
  bool outerM = true;
  /// Keep strips resident in a storage region instead of reloading them:
  /// the outer operand's strip (all K chunks of one outer partition) across
  /// the inner loop, and the inner operand's strip when the inner loop has a
  /// single partition. A strip that does not fit the free storage is
  /// streamed.
  bool keepStrips = false;
  /// Split-K layout: every partition writes its C tile once (after its last
  /// K chunk), so the C tile and the initial values get one region each
  /// beside the two ping-pong halves instead of a copy in each half. That is
  /// what lets a split-K partition use the whole accumulators (four buffers
  /// per PE) instead of an eighth of the storage unit.
  bool sharedC = false;
  /// The init region holds one value per row (GemmTiles::initRows, a
  /// convolution's bias under output stationary): mc floats instead of an
  /// mc x nc tile, which leaves room for wider tiles.
  bool rowInit = false;
};

/// The tile-selection parameters (docs/tiling.md) the GEMM kernel can
/// honour: deriveTilingHardware(hw, opts) with the A and B buffers capped to
/// S/8 (S = storage bytes; two ping-pong halves of an A and a B tile take
/// S/2) and the split-K partial sums to S/2 (S/4 with `withInit`): a split-K
/// partition's C tile (and its initial values) has one region outside the
/// halves (GemmTiling::sharedC), and its partial sums stay in the PE
/// accumulation buffers.
tiling::TilingHardware
kernelTilingHardware(const HardwareDesc &hw, bool withInit,
                     const tiling::DeriveOptions &opts = {});

/// The kernel tiling that realises decision `d` for problem `p` (the
/// lowering's view of docs/tiling.md): peRows = ceil(partition_m / pes),
/// kc = partition_k, nc = partition_n, the outer order; without split the
/// inner dimension's tile is narrowed until its C tile fits the PE
/// accumulation buffers and the storage C region (load counts unchanged).
/// Returns false when the decision cannot be realised.
bool gemmTilingFromDecision(const HardwareDesc &hw,
                            const tiling::TileDecision &d,
                            const tiling::GemmProblem &p, bool withInit,
                            GemmTiling &out);

/// Decision `d` as the kernel runs it: the partitions of the realised
/// GemmTiling (partition_m = peRows * pes, at most m; partition_n = nc;
/// partition_k = kc), priced by decisionFromMapping. `d` itself when nothing
/// was narrowed or the narrowed tiles are not a legal mapping. This is what
/// tiling::machineCycles should price.
tiling::TileDecision realisedDecision(const HardwareDesc &hw,
                                      const tiling::TileDecision &d,
                                      const tiling::GemmProblem &p,
                                      bool withInit);
/// realisedDecision for problem `p`, as tiling::machineSearch takes it
/// (`hw` must outlive the function).
tiling::RealiseFn kernelRealiser(const HardwareDesc &hw,
                                 const tiling::GemmProblem &p, bool withInit);
/// `d` refined for this kernel on the whole machine
/// (tiling::refineForMachine on kernelTilingHardware, pricing the realised
/// tiles): what select-tiling refine=machine attaches.
tiling::TileDecision refineForKernel(const HardwareDesc &hw,
                                     const tiling::GemmProblem &p,
                                     const tiling::TileDecision &d,
                                     bool withInit);

/// The decision for a GEMM-shaped problem: `forced` (a mapping from the
/// accel.tiling attribute) when given and legal, else selectTiling on
/// kernelTilingHardware.
tiling::TileDecision gemmDecision(const HardwareDesc &hw,
                                  const tiling::GemmProblem &p, bool withInit,
                                  const tiling::Mapping *forced = nullptr);

/// gemmDecision + gemmTilingFromDecision, falling back to chooseGemmTiling
/// when no decision can be realised. `k` is the depth a K chunk can offer
/// (for convolution the channels of a group).
GemmTiling gemmTilingFor(const HardwareDesc &hw, const tiling::GemmProblem &p,
                         int64_t chunkK, bool withInit,
                         const tiling::Mapping *forced = nullptr);

/// A standalone matmul layer, lowered like graph.matmul / graph.gemm
/// (gemmTilingFor with `forced`): `p.count` instances of
/// C[m,n] = A[m,k] B[k,n] (+ bias[n] broadcast over the rows when `bias`),
/// symbols "a" [count,m,k], "b" [count,k,n], "bias" [n], "c" [count,m,n],
/// dense f32 in DRAM. `used` receives the decision the kernel realises
/// (gemmDecision). For simulator agreement tests and the simulated
/// benchmark (accel-tile-bench --simulate).
Program matmulLayerProgram(const HardwareDesc &hw, const tiling::GemmProblem &p,
                           bool bias, const tiling::Mapping *forced = nullptr,
                           tiling::TileDecision *used = nullptr);

/// Chooses the tile sizes for an M x N x K problem that fit the storage
/// half and the PE buffers, minimising a simple cycle estimate. `maxK` and
/// `maxN` cap the chunk sizes the problem can offer.
GemmTiling chooseGemmTiling(const HardwareDesc &hw, int64_t m, int64_t n,
                            int64_t k, bool withInit);

/// Compile-time constant weights the GEMM kernels may load as sparse
/// (value, index) lists (`LD sparse_weights`, docs/passes.md "Sparse
/// weights"): when every element of every weight-queue tile (GemmTiles::bBox)
/// of a layer is a constant and at least `threshold` of them are zero, each
/// tile the loop nest loads is encoded per accumulation group
/// (encodeSparseTile) and placed in DRAM as a constant segment.
struct SparseWeightSource {
  double threshold = 0.5; ///< minimum zero fraction of the layer's B tiles
  /// The f32 constant at DRAM byte address `addr`; false when no
  /// compile-time constant lives there.
  std::function<bool(uint64_t addr, float &value)> constantAt;
  /// Places `bytes` as a constant DRAM segment; returns its address.
  std::function<uint64_t(std::vector<uint8_t> bytes)> place;
};

/// The residual of a fused epilogue as a view over the output's elements
/// (ResidualView.h: an add fused through a broadcast, e.g. a nearest
/// upsampling read as addressing).
struct ResidualView {
  uint64_t base = 0;   ///< byte address of the residual's element 0
  uint64_t output = 0; ///< byte address of the output's element 0
  /// The index space, row-major over the output's elements (the fused
  /// add's shape: same element count as the output).
  std::vector<int64_t> shape;
  /// Residual element strides per dimension of `shape` (0: repeated).
  std::vector<int64_t> strides;
  bool empty() const { return shape.empty(); }
};

/// Per-layer options of the GEMM kernels: the fused epilogue and the
/// machine features the MACs use.
struct GemmEpilogue {
  float alpha = 1.0f;           ///< scales A tiles in the input buffer
  SfuFunc func = SfuFunc::None; ///< applied on the final store
  float funcImm = 0.0f;         ///< the immediate of `func`
  /// Steps applied to each final C tile in storage before its DMA store,
  /// after `func`: one extra EXECUTE per tile (LD acts of the tile [and of
  /// the residual tile], SPU steps, ST inbuf applying the last unary step
  /// on its way back). Check gemmPostFits first.
  std::vector<EpilogueStep> post;
  /// Byte offset from an output element in DRAM to the same element of the
  /// residual tensor (a `residual` step in `post`; same dense layout).
  uint64_t residualDelta = 0;
  /// Set instead of residualDelta when the residual is read through a
  /// broadcast: each C tile's residual is loaded by viewTilePieces' DMAs.
  ResidualView residualView;
  /// MAC sfu bit when `func` is fused: true = chained SFU (the ST applies
  /// the function on its way out, 1 output-queue access per element), false
  /// = decoupled (3 accesses + an SFU pass).
  bool sfuChained = true;
  bool loadBalance = false; ///< MAC bit 3 on every MAC
  /// Non-null: try `LD sparse_weights` for constant weight-queue operands
  /// (falls back to dense LD weights when not applicable).
  const SparseWeightSource *sparse = nullptr;
};

/// Whether the dealt GEMM kernel (emitGemmLayer) can apply `epi.post` to
/// the C tiles of `t` in place: the C tile (and the residual tile) of a PE
/// fit its input buffer, and the residual tile a storage region beside the
/// halves.
bool gemmPostFits(const HardwareDesc &hw, const GemmTiling &t, bool withInit,
                  const GemmEpilogue &epi);

/// An N-D view of f32 elements in DRAM (any rank), strides in elements.
struct View {
  uint64_t base = 0;
  std::vector<int64_t> strides;
};

/// The operand that stays put in the loop nest of a mapped GEMM layer
/// (docs/mapping.md): A (M x K, the input-buffer operand), B (K x N, the
/// weight-queue operand) or C (the accumulator tile: output stationary).
enum class StationaryOperand { A, B, C };

/// One cluster's share of a mapped GEMM layer: its slices of every problem
/// (empty = idle) and the tile sizes applied inside them.
struct ClusterGemmWork {
  std::vector<GemmTiles> problems;
  GemmTiling tiling;
  /// DRAM scratch (mappedPsumScratchElems f32) private to the cluster for
  /// the long-lived partial sums of stationary A / B: stored after every K
  /// chunk but the last and reloaded on the next, so that no other
  /// cluster's output tiles share the byte range being reloaded.
  uint64_t psumScratch = 0;
  /// A DRAM float 1.0 (a program constant): a per-row bias (GemmTiling::
  /// rowInit) is then added by a depth-1 MAC of its values by a row of
  /// ones (the 1.0, loaded once per init region and broadcast by LD
  /// weights); 0 = LD psums broadcasts the values instead.
  uint64_t ones = 0;
  /// Clusters with work on this cluster's memory channel (itself
  /// included): the slice tiles are chosen for that share of the channel.
  unsigned channelSharers = 1;
  uint32_t channel = 0; ///< that channel
  /// Convolution input bands (docs/mapping.md): the kernel takes them only
  /// when the cluster's channel time without them (times channelSharers)
  /// is at least this fraction of its MAC time.
  double bandsMinChannelShare = 0.5;
  /// With input bands: consecutive N tiles may share one band (band groups,
  /// docs/mapping.md), for inputs the bands read from DRAM.
  bool bandGroups = false;
  /// A is a convolution's filter, read from DRAM: when its strip does not
  /// fit the storage, the kernel keeps the chunks that fit resident and
  /// streams only the rest (docs/mapping.md, "Partial filter strips").
  /// Not for activations, which on-chip residency may already hold: a
  /// partial strip of those only takes its room.
  bool partialFilterStrip = false;
  /// With partialFilterStrip: when every cluster of the layer computes
  /// with the same filter strip and it does not fit, the clusters share it
  /// over the mesh (docs/mapping.md, "Filter strips shared over the mesh").
  bool shareFilterStrip = false;
};
/// `t` shrunk (N, then K, then rows, halving) until two storage halves with
/// an init region when `init` (bias, or partial sums reloaded by stationary
/// A / B) fit the storage unit. `sharedC` keeps t.sharedC (one C and init
/// region beside the halves); only worth it for stationary C with several K
/// chunks per tile, which the caller knows; otherwise the C tile goes into
/// each half. The caller cuts its chunks with the result.
GemmTiling fitMappedTiling(const HardwareDesc &hw, GemmTiling t, bool init,
                           bool sharedC = false);
/// Elements of the partial-sum scratch a cluster needs (0 for stationary C).
int64_t mappedPsumScratchElems(const ClusterGemmWork &w, StationaryOperand st);

/// Emits a GEMM layer in which cluster `i` computes exactly `work[i]` with
/// the loop nest of `st` (lib/Codegen/MappedGemm.cpp): stationary A = for m,
/// for k, for n; stationary B = for n, for k, for m (both store partial sums
/// after every chunk and reload them on the next); stationary C = for outer,
/// for inner, for k (accumulators stay). Loads are double-buffered; the
/// resident operand alternates between two storage slots. The tiling must
/// fit (fitMappedTiling). False with `err` when the slices cannot be
/// realised.
bool emitMappedGemmLayer(StreamBuilder &sb,
                         const std::vector<ClusterGemmWork> &work,
                         StationaryOperand st, const GemmEpilogue &epi,
                         std::string &err);
/// Whether emitMappedGemmLayer can apply `epi.post` on every cluster's C
/// tiles (input buffer, a storage region for the residual tile, a free
/// instruction buffer); the lowering otherwise applies the steps as a tail
/// layer.
bool mappedPostFits(const HardwareDesc &hw,
                    const std::vector<ClusterGemmWork> &work,
                    StationaryOperand st, const GemmEpilogue &epi);

/// The combine step of a K split: `kRows * kCols` dense partial-sum buffers
/// of `elems` f32 each (part (kr, kc) at partials + 4 * elems * (kr * kCols
/// + kc)) are added first across each grid row (one SFU add layer per extra
/// column, all rows at once), then across rows, into `out`; `func` (a fused
/// activation) is applied by the last layer. `allocate(elems)` provides
/// DRAM for intermediate sums.
bool emitPartialSumCombine(StreamBuilder &sb, uint64_t partials, int64_t elems,
                           int64_t kRows, int64_t kCols, uint64_t out,
                           SfuFunc func,
                           const std::function<uint64_t(int64_t)> &allocate,
                           std::string &err);

/// How emitGemmLayer deals a layer's outer partitions over the clusters.
enum class GemmDeal {
  RoundRobin, ///< partition k to cluster k mod clusters
  /// Consecutive partitions to one cluster (partition k of P to cluster
  /// k * clusters / P): a layer whose problems are consecutive rows of a
  /// map gives each cluster a block of rows, which the next layer of a
  /// depth-first band, dealt the same way, reads where it was written.
  Blocks,
};

/// Several independent GEMM problems (batches, groups) share one layer:
/// their output tiles are dealt over the clusters (`deal`; when there are
/// fewer outer partitions than clusters, their (outer, inner) pairs
/// round-robin).
void emitGemmLayer(StreamBuilder &sb, const std::vector<GemmTiles> &problems,
                   const GemmTiling &tiling, const GemmEpilogue &epi,
                   GemmDeal deal = GemmDeal::RoundRobin);

/// SFU layers: a small program of SPU steps over tiles of an iteration
/// space. The leading `rowDims` dimensions index tile rows (split over the
/// PEs), the others form each row's columns. Operands are the inputs (loaded
/// from DRAM views, broadcast by zero strides) followed by `scratch` regions;
/// each operand owns 16 / #operands input-buffer slots.
struct ElementwiseStep {
  SpuType type = SpuType::Unary;
  SfuFunc func = SfuFunc::None;
  float imm = 0.0f;
  int in0 = 0, in1 = 1; ///< operand indexes (in1: binary steps only)
  int out = 0;          ///< operand index the result is written to
  bool rowData = false; ///< the step works on one value per row (after a
                        ///< reduction): its tiles are rows x 1
};
struct ElementwiseLayer {
  std::vector<int64_t> shape; ///< iteration space
  int rowDims = -1;           ///< -1: all but the last dimension
  bool wholeRows = false;     ///< columns may not be split (reductions)
  std::vector<View> inputs;   ///< 1..3 views over `shape`
  View output;                ///< view over `shape` (column strides unused
                              ///< when `rowResult`)
  int scratch = 0;            ///< extra operand regions for temporaries
  std::vector<ElementwiseStep> steps;
  int result = 0;         ///< operand holding the result
  bool rowResult = false; ///< the result is one value per row
};
/// Returns false (with `err`) when a row does not fit a PE's share of the
/// input buffer although the layer needs whole rows.
bool emitElementwiseLayer(StreamBuilder &sb, const ElementwiseLayer &layer,
                          std::string &err);

/// DRAM -> DRAM copy of `shape` elements from view `src` to view `dst`
/// (padding, transposes, output copies), spread over the clusters.
void emitCopyLayer(StreamBuilder &sb, const std::vector<int64_t> &shape,
                   const View &src, const View &dst);

/// Merges adjacent dimensions that are contiguous in every view and drops
/// extent-1 dimensions; returns the coalesced shape and rewrites the views.
std::vector<int64_t> coalesce(const std::vector<int64_t> &shape,
                              std::vector<View *> views);

} // namespace accel::codegen

#endif
