//===- Lowering.h - State of the graph-to-ISA lowering ----------*- C++ -*-===//
//
// Private to lib/Conversion/GraphToIsa: the Lowering class walks the entry
// function; its operator lowerings live in one file per family
// (GraphToIsa.cpp: planning, matmul / gemm / conv; LowerElementwise.cpp: SFU
// layers, reductions, softmax; LowerLayout.cpp: copies; LowerWindow.cpp:
// pooling, batch norm, transposed conv; LowerRecurrent.cpp: RNN / GRU / LSTM).
//
//===----------------------------------------------------------------------===//
#ifndef ACCEL_LIB_CONVERSION_GRAPHTOISA_LOWERING_H
#define ACCEL_LIB_CONVERSION_GRAPHTOISA_LOWERING_H

#include "Graph/GraphDialect.h"
#include "accel/Codegen/ChannelPlacement.h"
#include "accel/Codegen/ConvBand.h"
#include "accel/Codegen/Depthwise.h"
#include "accel/Codegen/Kernels.h"
#include "accel/Codegen/PadWindow.h"
#include "accel/Codegen/Reduction.h"
#include "accel/Codegen/Residency.h"
#include "accel/Hardware/HardwareDesc.h"
#include "accel/Tiling/ArrayMapping.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringMap.h"
#include <array>
#include <map>
#include <memory>
#include <optional>
#include <vector>

namespace accel::lowering {

constexpr uint64_t kAlign = 64;

inline std::vector<int64_t> shapeOf(mlir::Value v) {
  auto t = mlir::cast<mlir::RankedTensorType>(v.getType());
  return std::vector<int64_t>(t.getShape().begin(), t.getShape().end());
}

inline int64_t numElements(const std::vector<int64_t> &s) {
  int64_t n = 1;
  for (int64_t d : s)
    n *= d;
  return n;
}

inline std::vector<int64_t> denseStrides(const std::vector<int64_t> &shape) {
  std::vector<int64_t> st(shape.size());
  int64_t s = 1;
  for (int i = int(shape.size()) - 1; i >= 0; --i) {
    st[i] = s;
    s *= shape[i];
  }
  return st;
}

/// Strides that read a dense tensor of `shape` broadcast to `target`
/// (numpy rules; the caller has verified compatibility).
inline std::vector<int64_t>
broadcastStrides(const std::vector<int64_t> &shape,
                 const std::vector<int64_t> &target) {
  std::vector<int64_t> dense = denseStrides(shape);
  std::vector<int64_t> out(target.size(), 0);
  size_t off = target.size() - shape.size();
  for (size_t i = 0; i < shape.size(); ++i)
    out[off + i] = shape[i] == 1 ? 0 : dense[i];
  return out;
}

/// Splits `total` into chunks of at most `step`.
inline std::vector<int64_t> chunks(int64_t total, int64_t step) {
  std::vector<int64_t> c;
  for (int64_t o = 0; o < total; o += step)
    c.push_back(std::min(step, total - o));
  return c;
}

inline std::vector<int64_t> prefix(const std::vector<int64_t> &sizes) {
  std::vector<int64_t> p(sizes.size() + 1, 0);
  for (size_t i = 0; i < sizes.size(); ++i)
    p[i + 1] = p[i] + sizes[i];
  return p;
}

/// The interface type of a program input / output element type.
inline std::optional<DType> interfaceType(mlir::Type t) {
  if (t.isF32())
    return DType::F32;
  if (t.isInteger(1))
    return DType::I1;
  if (t.isInteger(32)) // run-time sequence lengths (ONNX int32)
    return DType::I32;
  if (t.isInteger(64))
    return DType::I64;
  return std::nullopt;
}

/// A 2-D strided operand of a matmul: element (i, j) at base + i*s0 + j*s1.
struct Mat2D {
  uint64_t base;
  int64_t s0, s1;
};

/// The GEMM tiles of C (+)= A B over strided matrices in DRAM, for rows
/// [mOff, mOff + m) of A, C and I: K chunks `kChunks` starting at element
/// offsets `k0`, N tiles `nTiles` starting at `n0` (offsets into the whole
/// matrices); C is written `cShift` bytes away from `C.base` (a K part's
/// partial-sum copy); `I` (initial values) is optional (LowerMapped.cpp).
codegen::GemmTiles
matrixGemmTiles(const Mat2D &A, const Mat2D &B, const Mat2D &C, const Mat2D *I,
                int64_t m, int64_t mOff, const std::vector<int64_t> &kChunks,
                const std::vector<int64_t> &k0,
                const std::vector<int64_t> &nTiles,
                const std::vector<int64_t> &n0, int64_t cShift = 0);

/// conv-padding=window: the convolution reads its unpadded H x W input
/// (ConvGeom::x) and zero-fills the padding of its image tiles in storage
/// (PadWindow.h).
struct ConvPadWindow {
  bool on = false;
  int64_t H = 0, W = 0, top = 0, left = 0;
  uint64_t zeros = 0; ///< one zeroed f32 of DRAM nothing writes
};

/// A convolution as the implicit-GEMM lowering sees it (padded input `x`,
/// or the unpadded one when pad.on).
struct ConvGeom {
  int64_t N, C, Hp, Wp, O, Cg, Og, KH, KW, OH, OW, groups;
  int64_t sh, sw, dh, dw;
  uint64_t x, w, out, bias;
  bool hasBias;
  ConvPadWindow pad{};
  /// The filter at `w` is [O, KH, KW, Cg] (channels fastest) instead of the
  /// graph's [O, Cg, KH, KW]: Lowering::relayoutFilter permuted the
  /// constant, so that a K chunk's weights are one contiguous run per
  /// output channel (docs/mapping.md, "Weight layout in DRAM").
  bool filterOhwi = false;
  /// The window and operands as the depthwise / RQ kernels take them.
  codegen::ConvLayerBase kernelBase() const {
    codegen::ConvLayerBase b;
    b.Hp = Hp, b.Wp = Wp, b.KH = KH, b.KW = KW, b.OH = OH, b.OW = OW;
    b.sh = sh, b.sw = sw, b.dh = dh, b.dw = dw;
    b.x = x, b.w = w, b.bias = bias, b.hasBias = hasBias, b.out = out;
    return b;
  }
};
/// An N tile of a convolution: a box of output rows / columns.
struct ConvNTile {
  int64_t oh0, ohc, ow0, owc;
};
/// A K chunk of a convolution: a channel range [c0, c0 + cc) of the kernel
/// positions rows [kh, kh + nkh) x columns [kw, kw + nkw). A chunk of
/// several positions holds every channel (cc = Cg), and one of several rows
/// every column (kw = 0, nkw = KW), so that it is a contiguous range of the
/// (kh, kw, c) flattening of K (docs/mapping.md, "Convolution K chunks").
struct ConvKChunk {
  int64_t kh, kw, c0, cc;
  int64_t nkh = 1, nkw = 1;
  int64_t positions() const { return nkh * nkw; }
  int64_t depth() const { return nkh * nkw * cc; }
};
/// Pixel boxes of at most nc pixels covering output pixels [p0, p1) of an
/// OH x OW image: a leading piece of a row, blocks of whole rows (or pieces
/// of long rows), a trailing piece (LowerMapped.cpp).
std::vector<ConvNTile> convNTiles(int64_t OW, int64_t p0, int64_t p1,
                                  int64_t nc);
/// convNTiles with the whole output rows of [p0, p1) in blocks of rows x
/// columns (codegen::chooseBandBlock: the bands of the input that hold the
/// fewest elements, rows of at least 64 bytes, no more tiles than
/// convNTiles gives them); the leading and trailing pieces of rows as
/// convNTiles (LowerMapped.cpp).
std::vector<ConvNTile> convBlockNTiles(const ConvGeom &g, int64_t p0,
                                       int64_t p1, int64_t nc);
/// K chunks of at most kc covering [k0, k1) of the (kh, kw, c) flattening
/// (c fastest): channel ranges of one kernel position when kc < 2 Cg, else
/// runs of whole positions inside a kernel row, or (`spanRows`, see
/// chunksMaySpanKernelRows) runs of whole kernel rows (ConvKChunks.cpp).
std::vector<ConvKChunk> convKChunks(const ConvGeom &g, int64_t k0, int64_t k1,
                                    int64_t kc, bool spanRows = false);
/// The depth of the deepest chunk (1 when there is none).
int64_t deepestChunk(const std::vector<ConvKChunk> &chunks);
/// Whether an image box of a chunk spanning kernel rows and a pixel box of
/// `tiles` fit the 4-D DMA: every pixel box is a piece of one output row, or
/// the kernel has one column.
bool chunksMaySpanKernelRows(const ConvGeom &g,
                             const std::vector<ConvNTile> &tiles);
/// The chunk's K dims of the padded input image (kernel rows, kernel
/// columns, channels; a dimension of extent 1 left out), appended to `b`;
/// returns how many were appended. The chunk's first element is
/// convInputOffset elements past the (image, group, pixel) origin.
int appendInputKDims(codegen::DramBox &b, const ConvGeom &g,
                     const ConvKChunk &c);
int64_t convInputOffset(const ConvGeom &g, const ConvKChunk &c);
/// The chunk's K dims of the filter (positions, channels), appended to `b`
/// for the layout `g.filterOhwi` says ([O, KH, KW, Cg] or [O, Cg, KH, KW]);
/// the chunk starts convFilterOffset elements past the output channel's
/// filter (KH KW Cg elements per output channel in both layouts).
int appendFilterKDims(codegen::DramBox &b, const ConvGeom &g,
                      const ConvKChunk &c);
int64_t convFilterOffset(const ConvGeom &g, const ConvKChunk &c);

/// conv-padding=window (PadWindow.cpp): `g` as the image boxes address its
/// unpadded input: planes of H x W, x shifted back by the padding (unsigned
/// wrap-around), so that a box whose window stays inside the input reads
/// what the box over the padded input would.
ConvGeom convGeomUnpadded(const ConvGeom &g);
/// The image tile of chunk `c` x pixel box `t` of image n, group grp as the
/// window loads it: `aForm` = rows are pixels (the transposed form of
/// LowerConvWeightQueue.cpp), else rows are the chunk's K; row stride
/// `rowStride`.
codegen::PadWindowTile convPadWindowTile(const ConvGeom &g, int64_t n,
                                         int64_t grp, const ConvKChunk &c,
                                         const ConvNTile &t, bool aForm,
                                         int64_t rowStride);
/// The DMAs of that tile: `box` (the tile's box over convGeomUnpadded) when
/// no pixel reads padding, else the clipped boxes and zero runs.
std::vector<codegen::TilePiece>
convImagePieces(const ConvGeom &g, int64_t n, int64_t grp, const ConvKChunk &c,
                const ConvNTile &t, bool aForm, int64_t rowStride,
                const codegen::DramBox &box);

/// conv-padding=auto: whether the window costs no more cycles than the copy
/// on a layer model with the layer's tiles `t` (g.pad set): max(compute,
/// channel time), where every DMA (an image tile box, or each of its
/// pieces) holds a channel for MemoryChannel::occupancyCycles, against the same
/// with one box per image tile plus the copy (2 x input bytes).
bool convPadWindowPays(const HardwareDesc &hw, const ConvGeom &g,
                       const codegen::GemmTiling &t);

/// Rows [r0, r1) of the zero-padded input plane (Hp rows) that output pixels
/// [p0, p1) of one image read, every kernel row included (PadBands.cpp).
struct PadRows {
  int64_t r0 = 0, r1 = 0;
  bool operator==(const PadRows &o) const { return r0 == o.r0 && r1 == o.r1; }
};
PadRows convPadRows(const ConvGeom &g, int64_t p0, int64_t p1);
/// A padded band: rows `rows` of every (image, channel) plane of the padded
/// input, at `addr` ((N * C) planes of rows.r1 - rows.r0 rows of Wp).
struct PadBand {
  PadRows rows;
  uint64_t addr = 0;
};
/// `g` with its input the band of `bands` that pixels [p0, p1) read: the
/// same addresses relative to a plane of the band's height (x shifted back
/// by the band's first row). `g` unchanged when `bands` is empty.
ConvGeom convGeomOnBand(const ConvGeom &g, const std::vector<PadBand> &bands,
                        int64_t p0, int64_t p1);

/// Machine options of the lowering (convert-graph-to-isa, docs/passes.md).
struct LoweringOptions {
  bool sparseWeights = true;    ///< sparse-weights=auto
  double sparseThreshold = 0.5; ///< minimum zero fraction
  bool loadBalance = false;     ///< MAC bit 3
  bool sfuChained = true;       ///< sfu-mode=chained
  bool layerSliceTiles = false; ///< layer-slice-tiles: no per-slice choice
  /// sync=barrier|events (docs/passes.md, "Synchronisation").
  codegen::SyncMode sync = codegen::SyncMode::Events;
  /// dram-placement=channels|pieces (docs/passes.md, "Memory planning on
  /// channels"); false = one linear plan over all of DRAM.
  bool channelPlacement = true;
  /// dram-placement=pieces: buffers cut into pieces, read-only ones
  /// replicated per reading channel.
  bool channelPieces = true;
  /// Written pieces read from another channel get a copy there when those
  /// reads exceed this many times the written bytes (dram-copy-factor).
  uint64_t dramCopyFactor = codegen::kDefaultWriteCopyFactor;
  /// Those copies kept only where the layers' roofline times say they pay
  /// (dram-copy-time, codegen::unprofitableCopies).
  bool dramCopyTime = true;
  /// channelPieces: intermediates no channel owns cut into one part per
  /// channel (dram-split-shared, codegen::splitSharedSegments).
  bool dramSplitShared = true;
  /// conv-padding: whether implicit-GEMM convolutions zero-fill their
  /// padding in the image tiles (window) or read a padded copy (copy), or
  /// choose per layer by convPadWindowPays (auto).
  enum class Padding { Window, Copy, Auto };
  Padding convPadding = Padding::Auto;
  /// conv-bands=on (docs/mapping.md, "Convolution input bands"): mapped
  /// implicit-GEMM convolutions may form their image tiles from input
  /// bands held in storage (the kernel decides per cluster).
  bool convBands = true;
  /// conv-bands=on (default): also where the cluster's loads hide behind
  /// its MACs; false = conv-bands=auto.
  bool convBandsAlways = true;
  /// conv-band-blocks=true (docs/mapping.md, "Pixel blocks of the bands"):
  /// with input bands, the pixel boxes over whole output rows are blocks of
  /// rows x columns (chooseBandBlock) instead of pieces of rows.
  bool convBandBlocks = true;
  /// conv-band-groups=true (docs/mapping.md, "Band groups"): with bands
  /// read from DRAM, consecutive N tiles may share one band.
  bool convBandGroups = true;
  /// filter-share=true (docs/mapping.md, "Filter strips shared over the
  /// mesh"): ClusterGemmWork::shareFilterStrip for convolutions.
  bool filterShare = true;
  /// residency=on (docs/passes.md, "On-chip residency").
  bool residency = true;
  /// residency=on (not all): pieces whose remote reads would load the mesh
  /// more than their DRAM traffic loads a channel stay in DRAM.
  bool residencyMeshAware = true;
  /// Storage bytes per cluster the kernels leave to resident pieces (the
  /// top of every storage unit); 0 = the kernels use all of it.
  uint64_t residencyReserve = 0;
};

/// The fused chain after a GEMM-shaped `producer` (#accel.fusion): its
/// single users marked accel.fused, in order, and the residual add's other
/// operand (null without one). A graph.add of a non-splat operand is the
/// residual add (fuse-layers takes an add of a splat constant as an add_imm
/// step); its residual is available before the producer, and an add whose
/// other operand comes later is the residual add of that operand's producer
/// (both operands of x + y can be chain values): the chain ends before it,
/// as it does before a second residual. (LowerFusion.cpp)
struct FusedChain {
  llvm::SmallVector<mlir::Operation *> ops;
  mlir::Value residual;
  /// The fused add that reads `residual`: its shape is the index space in
  /// which `residual` broadcasts (reshapes of the producer's result before
  /// it are free, so the two have the same elements in the same order).
  mlir::Operation *residualAdd = nullptr;
};
FusedChain fusedChain(mlir::Operation *producer);

class RecurrentEngineLowering;

class Lowering {
public:
  Lowering(mlir::func::FuncOp func, const HardwareDesc &hw,
           const LoweringOptions &opts = {});

  mlir::LogicalResult run();
  /// What residency=on kept on chip (zeros when off).
  const codegen::ResidencySummary &residency() const { return residency_; }
  Program &program() { return program_; }
  /// depthwise=sw (default): depthwise conv2d uses the SW-queue kernel
  /// (LowerDepthwise.cpp); false = implicit GEMM per group like any conv.
  void setDepthwiseSW(bool on) { depthwiseSW_ = on; }
  void setDepthwiseLaneRows(codegen::LaneRows m) { depthwiseLaneRows_ = m; }
  /// conv=rq: groups == 1 conv2d uses the RQ-queue kernel
  /// (LowerRqConv.cpp) when it fits; false (conv=gemm) = implicit GEMM.
  void setConvRQ(bool on) { convRQ_ = on; }
  /// pool=window (default): pool2d uses the band kernel (accel/Codegen/
  /// Pool.h) when a band fits; false (pool=taps) = one SFU layer per tap.
  void setPoolWindow(bool on) { poolWindow_ = on; }

private:
  friend class RecurrentLowering;       // LowerRecurrent.cpp: one op's state
  friend class RecurrentEngineLowering; // LowerRecurrentEngine.cpp

  /// Bump allocation; saturates at 2^64 - 1 (run() then refuses the
  /// program) instead of wrapping round to alias earlier buffers.
  /// Records that `what` ("input #0", "output #1") is called `name` in the
  /// binary; a name already taken is an error naming both (an ONNX graph
  /// output that is also a graph input, or two equal accel.name strings).
  mlir::LogicalResult claimSymbolName(const std::string &name,
                                      const std::string &what) {
    auto [it, fresh] = symbolNames_.try_emplace(name, what);
    if (fresh)
      return mlir::success();
    return func_.emitError("the binary names inputs and outputs uniquely, "
                           "but '")
           << name << "' names both " << it->second << " and " << what;
  }
  uint64_t allocate(int64_t elements) {
    uint64_t addr = next_;
    uint64_t bytes;
    if (__builtin_mul_overflow(uint64_t(std::max<int64_t>(elements, 1)),
                               uint64_t(4), &bytes) ||
        bytes > UINT64_MAX - kAlign ||
        __builtin_add_overflow(next_, (bytes + kAlign - 1) / kAlign * kAlign,
                               &next_))
      next_ = UINT64_MAX;
    else
      buffers_.push_back({addr, next_ - addr});
    return addr;
  }
  uint64_t bufferFor(mlir::Value v) {
    auto it = addr_.find(v);
    if (it != addr_.end())
      return it->second;
    uint64_t a = allocate(numElements(shapeOf(v)));
    addr_[v] = a;
    return a;
  }
  codegen::View denseView(mlir::Value v) {
    return {bufferFor(v), denseStrides(shapeOf(v))};
  }

  // Layer table (LayerTable.cpp, docs/passes.md "Layer table").
  /// The Program::layers entry of source operator `op` (index `position` in
  /// the entry function): the entry of an earlier op with the same location
  /// (one ONNX node lowered as several graph ops), else a new one appended
  /// with the name and kind of the location. `created` says which.
  uint32_t openLayer(mlir::Operation *op, size_t position, bool &created);
  /// After `op` was lowered into `layer`: drops a `created` entry when the
  /// op emitted no commands (`commandsBefore` = StreamBuilder::numCommands
  /// before it); otherwise adds its MACs, constant and network-input bytes
  /// and names the ops fused into it (fused_ from index `fusedBefore` on).
  void closeLayer(mlir::Operation *op, uint32_t layer, bool created,
                  uint64_t commandsBefore, size_t fusedBefore);
  /// Counts `v` (an operand of an op of `layer`) as a constant or network
  /// input the layer must read, once per layer.
  void countLayerRead(uint32_t layer, mlir::Value v);
  /// The layer that writes `v` (through reshapes): its producer's, or
  /// Command::kNoLayer for an input or constant.
  uint32_t layerWriting(mlir::Value v) const;
  /// Output #`index` (`symbol`) in the layer table: its bytes are written
  /// by the layer producing it; `copied` = an output copy was needed (the
  /// copy commands then belong to that layer, or to a new one named after
  /// the symbol when the output is an input or constant). Call before the
  /// copy is emitted; sets the StreamBuilder's layer.
  void layerForOutput(mlir::Value v, const Symbol &symbol);
  /// Adds output `v`'s bytes to the compulsory bytes of the layers that
  /// write them and names `symbol` on each (a concatenation: each operand's
  /// slice to its writer; `fallback` for bytes of no layer).
  void countOutputWrites(mlir::Value v, const std::string &symbol,
                         uint32_t fallback);
  void addOutputBytes(uint32_t layer, mlir::Value v, const std::string &symbol);
  llvm::DenseMap<mlir::Location, uint32_t> layerOfLoc_;
  llvm::DenseMap<mlir::Operation *, uint32_t> layerOfOp_;
  /// LayerInfo::inputs / inputSymbols: the layer or program input behind an
  /// operand `v` of a layer's operator.
  void recordDataFlow(uint32_t layer, mlir::Value v);
  /// Per layer: the constants and inputs already counted.
  std::vector<llvm::DenseSet<mlir::Value>> layerReads_;
  /// The constant values some layer already counted in its weightBytes:
  /// the layers of a band (depth-first-rows) read the same weights, which
  /// the network moves once.
  llvm::DenseSet<mlir::Attribute> weightsCounted_;

  mlir::LogicalResult lowerConstant(mlir::Operation *op,
                                    mlir::DenseElementsAttr value);
  /// Splat constants of at least this many elements are filled at run time
  /// instead of being stored in the binary.
  static constexpr int64_t kMinFilledSplat = 1 << 16;
  mlir::LogicalResult lowerSplatConstant(mlir::Operation *op,
                                         mlir::DenseElementsAttr value);
  /// `epi` with the machine options (load balance, SFU mode, sparse
  /// weights) the GEMM kernels apply.
  codegen::GemmEpilogue kernelEpilogue(codegen::GemmEpilogue epi) const;
  /// The f32 value of a compile-time constant at a DRAM byte address.
  bool constantAt(uint64_t addr, float &value);
  /// Rewrites the constant segment of `v` at `addr` (exactly `elements`
  /// f32): `permute(in, out)` writes the new bytes from the old ones, when
  /// `v` has one user (the caller, which then addresses the new layout) and
  /// one segment holds exactly it; returns whether it did (docs/mapping.md,
  /// "Weight layout in DRAM"). `in` may be unaligned (a borrowed image).
  bool permuteConstant(
      mlir::Value v, uint64_t addr, int64_t elements,
      llvm::function_ref<void(const uint8_t *in, uint8_t *out)> permute);
  /// The bytes [addr, addr + bytes) when one constant segment holds all of
  /// them, else null (then read them with constantAt).
  const uint8_t *constantSpan(uint64_t addr, uint64_t bytes);
  mlir::LogicalResult lowerMatMul(graph::MatMulOp op);
  mlir::LogicalResult lowerGemm(graph::GemmOp op);
  mlir::LogicalResult lowerConv(graph::Conv2DOp op);
  /// Permutes the filter constant of `op` to [O, KH, KW, Cg] and sets
  /// `g.filterOhwi` (permuteConstant's conditions, and a kernel of more
  /// than one position and channel); else leaves both as they are
  /// (ConvKChunks.cpp).
  void relayoutFilter(graph::Conv2DOp op, ConvGeom &g);
  /// Depthwise conv2d (groups == C == O) on the SW-queue kernel; sets
  /// `handled` = false (and emits nothing) when the kernel does not apply,
  /// so the caller falls back to the implicit GEMM. `g.x` is the unpadded
  /// H x W input, g.Hp / g.Wp the padded extents, padT / padL the padding
  /// before the first row / column.
  mlir::LogicalResult lowerDepthwise(graph::Conv2DOp op, const ConvGeom &g,
                                     int64_t H, int64_t W, int64_t padT,
                                     int64_t padL, bool &handled);
  /// Regular (groups == 1) conv2d on the RQ-queue kernel; sets `handled`
  /// (false = not applicable / does not fit: the caller falls back to the
  /// implicit GEMM). `g.x` is the padded input.
  mlir::LogicalResult lowerRqConv(graph::Conv2DOp op, const ConvGeom &g,
                                  bool &handled);
  mlir::LogicalResult lowerAdd(graph::AddOp op);
  mlir::LogicalResult lowerRelu(graph::ReluOp op);
  mlir::LogicalResult lowerTranspose(graph::TransposeOp op);
  mlir::LogicalResult lowerUnary(graph::UnaryOp op);
  mlir::LogicalResult lowerBinary(graph::BinaryOp op);
  mlir::LogicalResult lowerWhere(graph::WhereOp op);
  mlir::LogicalResult lowerReduce(graph::ReduceOp op);
  mlir::LogicalResult lowerLargeReduce(graph::ReduceOp op,
                                       const codegen::ElementwiseLayer &whole,
                                       int64_t n, int64_t cap);
  /// Reduces each row of a dense [rows, n] buffer at `src` into `out` (one
  /// value per row) in two passes: chunks of a row, then the partials.
  mlir::LogicalResult
  emitDenseRowReduce(mlir::Operation *op, uint64_t src, int64_t rows, int64_t n,
                     int64_t cap, SfuFunc combine,
                     const std::vector<codegen::ElementwiseStep> &pre,
                     const std::vector<codegen::ElementwiseStep> &post,
                     const codegen::View &out);
  mlir::LogicalResult lowerSoftmax(graph::SoftmaxOp op);
  /// Concat as addressing (docs/passes.md): before any op is lowered, each
  /// concat operand whose slice of the result is contiguous (every dim
  /// before the axis is 1) and whose producer (or fused chain) is a single
  /// graph op result used only there gets its slice as its buffer, so the
  /// producer writes in place and lowerConcat copies nothing for it.
  void planConcatSlices(mlir::Block &body);
  mlir::LogicalResult lowerConcat(graph::ConcatOp op);
  mlir::LogicalResult lowerSlice(graph::SliceOp op);
  /// Whether `op` is lowered as a view of its input's buffer (a contiguous
  /// slice of an intermediate that is not an output and has no buffer
  /// planned yet): no copy, its result's address inside the input's.
  bool sliceIsView(graph::SliceOp op);
  /// The slices lowered as views (layerWriting / recordDataFlow look
  /// through them to the input's writer).
  llvm::DenseSet<mlir::Operation *> sliceViews_;
  /// `v` through reshapes and slices lowered as views: the value whose
  /// buffer holds its bytes.
  mlir::Value viewedValue(mlir::Value v) const;
  mlir::LogicalResult lowerBroadcast(graph::BroadcastOp op);
  mlir::LogicalResult lowerTile(graph::TileOp op);
  mlir::LogicalResult lowerPad(graph::PadOp op);
  mlir::LogicalResult lowerPool(graph::Pool2DOp op);
  /// pool=window: the band kernel; `handled` false when no band fits.
  mlir::LogicalResult lowerPoolWindow(graph::Pool2DOp op, bool &handled);
  mlir::LogicalResult lowerBatchNorm(graph::BatchNormOp op);
  mlir::LogicalResult lowerConvTranspose(graph::ConvTranspose2DOp op);
  /// Non-overlapping taps (stride > dilation * (kernel - 1) on both axes):
  /// lowered by lowerConvTransposeGemm, without zero-stuffing.
  static bool convTransposeIsGemm(graph::ConvTranspose2DOp op);
  mlir::LogicalResult lowerConvTransposeGemm(graph::ConvTranspose2DOp op);
  mlir::LogicalResult lowerRecurrent(graph::RecurrentOp op);
  /// A graph.recurrent placed by schedule-rnn-threads as RECUR tasks on the
  /// column-wise engine (LowerRecurrentEngine.cpp); false when the op keeps
  /// the plain lowering (nothing emitted for it then).
  mlir::FailureOr<bool> lowerRecurrentOnEngine(graph::RecurrentOp op);
  /// Stores the results of the open group of RNN layers whose tasks share
  /// the engine, after a WAIT for it, and ends their layer.
  void flushRecurrentGroup();
  struct RnnGroupMember {
    std::shared_ptr<RecurrentEngineLowering> lowering;
    uint32_t layer;
  };
  std::vector<RnnGroupMember> rnnGroup_;
  std::vector<uint64_t> rnnStorageUsed_; ///< per cluster, by the group
  std::vector<uint64_t> rnnQueueUsed_;   ///< weight-queue bytes, the same
  std::vector<uint32_t> rnnTagNext_;     ///< per cluster, the next tag
  /// Places host-computed f32 data in DRAM; returns its address.
  uint64_t addConstant(const std::vector<float> &values);
  /// A DRAM float 1.0, one constant for the whole program.
  uint64_t oneConstant();

  /// Emits an SFU layer; a layer the hardware cannot hold is an error on op.
  mlir::LogicalResult emitSfu(mlir::Operation *op,
                              const codegen::ElementwiseLayer &layer) {
    std::string err;
    if (!codegen::emitElementwiseLayer(sb_, layer, err))
      return op->emitOpError("cannot be mapped onto the SFU: ") << err;
    return mlir::success();
  }
  /// Fills a fresh buffer with a constant (zero needs nothing: DRAM starts
  /// zeroed and buffers are never reused).
  /// Fills a buffer with `value`; +0 is skipped (DRAM starts zeroed) unless
  /// `evenIfZero`: a program output must be written by the program.
  void emitFill(uint64_t addr, const std::vector<int64_t> &shape, float value,
                bool evenIfZero = false);
  /// `v` is returned by the function, directly or through reshapes (which
  /// alias its buffer).
  static bool isReturned(mlir::Value v);

  /// If `v`'s only user is a graph.relu, fuse it: the relu result shares
  /// v's buffer and the GEMM applies ReLU on its final store.
  SfuFunc fuseRelu(mlir::Value v);
  /// The fused epilogue of `producer` (LowerFusion.cpp): its #accel.fusion
  /// (fuse-layers), else a single-user relu (fuseRelu). Marks the fused
  /// operators (no layer of their own; their results share the producer's
  /// buffer) and fills `epi`: the first unary step as the store's chained
  /// function, the others in `epi.post` with the residual offset. Call
  /// after the producer's result buffer is allocated.
  mlir::LogicalResult takeEpilogue(mlir::Operation *producer,
                                   codegen::GemmEpilogue &epi);
  /// takeEpilogue for kernels that apply one chained function only: the
  /// other steps become a tail layer (keepChainedOnly).
  /// takeEpilogue for lowerings that cannot apply any step to their tiles:
  /// every step (the chained function too) becomes the tail layer.
  mlir::LogicalResult takeTailEpilogue(mlir::Operation *producer);
  mlir::LogicalResult takeChainedEpilogue(mlir::Operation *producer,
                                          SfuFunc &func, float &imm);
  /// Moves `epi.post` to the tail layer emitted after the producer's
  /// layer (one SFU pass over its output in DRAM) for kernels that cannot
  /// apply the steps to their tiles.
  void keepChainedOnly(codegen::GemmEpilogue &epi);
  /// Emits the pending tail layer of `producer`, if any.
  mlir::LogicalResult emitEpilogueTail(mlir::Operation *producer);
  mlir::LogicalResult
  emitMatmuls(mlir::Operation *op,
              const std::vector<std::array<Mat2D, 3>> &batches, int64_t m,
              int64_t n, int64_t k, const std::vector<Mat2D> &init,
              const codegen::GemmEpilogue &epi);

  // Mapped GEMM layers (LowerMapped.cpp, docs/mapping.md).
  /// Reads the op's accel.mapping into mapping_ (nullopt when absent); a
  /// malformed attribute is an error on op.
  mlir::LogicalResult readMapping(mlir::Operation *op);
  /// Matmul batches (dense outputs, consecutive) under mapping_: per-cluster
  /// slices, the mapped kernel, the partial-sum combine of a K split.
  mlir::LogicalResult emitMappedMatmuls(
      mlir::Operation *op, const std::vector<std::array<Mat2D, 3>> &batches,
      int64_t m, int64_t n, int64_t k, const std::vector<Mat2D> &init,
      const codegen::GemmEpilogue &epi, const codegen::GemmTiling &t);
  /// Convolution under mapping_ (M = output channels of a group, N = output
  /// pixels, K = kernel positions x channels of a group).
  /// `bands` (emitPadBands): the padded input as per-cluster bands instead
  /// of one padded buffer (g.x unused then).
  mlir::LogicalResult emitMappedConv(mlir::Operation *op, const ConvGeom &g,
                                     const codegen::GemmTiling &t,
                                     const codegen::GemmEpilogue &epi,
                                     const std::vector<PadBand> &bands = {});
  /// The zero padding of a mapped convolution's input, per cluster: every
  /// distinct row band the clusters' slices of `M` x `N` x `K` read (N =
  /// OH * OW pixels of one image) gets a zeroed buffer into which the
  /// clusters reading it copy its valid rows (the band's planes split among
  /// them), all bands in parallel in one layer (PadBands.cpp).
  std::vector<PadBand> emitPadBands(const ConvGeom &g, uint64_t x, int64_t H,
                                    int64_t W, int64_t padT, int64_t padL,
                                    int64_t M, int64_t N, int64_t K);
  /// One zeroed f32 of DRAM (allocated on first use) that the window
  /// padding broadcasts into storage.
  uint64_t zeroSource() {
    if (!zeroSource_)
      zeroSource_ = allocate(kAlign / 4);
    return *zeroSource_;
  }
  std::optional<uint64_t> zeroSource_;
  /// The per-cluster slices of `count` M x N x K instances under mapping_,
  /// row-major by cluster (empty = idle).
  std::vector<tiling::ClusterSlice> cutSlices(int64_t M, int64_t N, int64_t K,
                                              int64_t count = 1) const;
  /// True when sparse weights are on and the filter is a compile-time
  /// constant with a zero fraction >= the threshold: the convolution is
  /// then lowered with the filter in the weight queue
  /// (LowerConvWeightQueue.cpp).
  bool convWeightsToQueue(const ConvGeom &g);
  /// The mapped convolution as the transposed implicit GEMM: rows = output
  /// pixels of one output row piece, columns = output channels, the filter
  /// is the weight-queue operand (so its tiles can be sparse lists).
  mlir::LogicalResult
  emitMappedConvWeightsInQueue(mlir::Operation *op, const ConvGeom &g,
                               const codegen::GemmTiling &t,
                               const codegen::GemmEpilogue &epi);
  /// What a mapped layer derives from mapping_ before its per-cluster work:
  /// the split factors, the dense output [out, out + 4 * outElems), one
  /// partial-sum copy of it per K part (K split only) and whether the
  /// dataflow reloads partial sums (the storage halves need an init region).
  struct MappedOutput {
    tiling::SplitFactors f;
    uint64_t out = 0;
    int64_t outElems = 0;
    uint64_t partials = 0; ///< K part j at partials + 4 * outElems * j
    bool reloads = false;
    /// Where K part `kPart` writes the output: its partial-sum copy under a
    /// K split, else the output itself.
    uint64_t partOut(int64_t kPart) const {
      return f.k > 1 ? partials + uint64_t(kPart * outElems * 4) : out;
    }
  };
  MappedOutput beginMapped(uint64_t out, int64_t outElems);
  /// The per-cluster work of a mapped layer of `count` M x N x K instances:
  /// `fill(slice, work)` for every cluster whose slice under mapping_->array
  /// is not empty (slice.b: its instances, all unless the batch splits).
  std::vector<codegen::ClusterGemmWork>
  mappedSlices(int64_t M, int64_t N, int64_t K,
               llvm::function_ref<void(const tiling::ClusterSlice &,
                                       codegen::ClusterGemmWork &)>
                   fill,
               int64_t count = 1) const;
  /// The tiling of slice `s` for the cluster of `w`: the tiles the cost
  /// model picks for the slice (tiling::chooseSliceTiles, starting from the
  /// layer's tiling `t`; `count` instances, `bias`: K part 0 starts from a
  /// bias / C), clamped to it and fitted to the storage (fitMappedTiling;
  /// `init`: an init region), with one shared C region for output
  /// stationary slices deeper than one K chunk. `bands` (a convolution
  /// with convWindow_ set): whether the cost model prices the slice faster
  /// with input bands (tiling::convBandsPay; informational, the kernel
  /// decides).
  codegen::GemmTiling sliceTiling(const tiling::ClusterSlice &s,
                                  const codegen::ClusterGemmWork &w,
                                  const codegen::GemmTiling &t, bool init,
                                  int64_t count, bool activationIsA, bool bias,
                                  bool *bands = nullptr) const;
  /// A slice tiling `t` narrowed to the convolution K chunks cut with it:
  /// kc = the deepest chunk (smaller tiles, more room for resident strips),
  /// no shared C region for a single chunk; refitted (`init` as in
  /// sliceTiling).
  codegen::GemmTiling convChunkTiling(codegen::GemmTiling t,
                                      const std::vector<ConvKChunk> &chunks,
                                      bool init) const;
  /// Launches the per-cluster work and, for a K split, the combine layers
  /// over the dense output of `mo`.
  mlir::LogicalResult
  finishMapped(mlir::Operation *op,
               const std::vector<codegen::ClusterGemmWork> &work,
               bool activationIsA, const codegen::GemmEpilogue &epi,
               const MappedOutput &mo);
  std::optional<tiling::MappingChoice> mapping_;
  /// Per-cluster boundaries of a split decision (accel.mapping `ranges`,
  /// split-strategy) along the dim both grid dims split; empty = even
  /// ranges (tiling::splitRange).
  std::vector<int64_t> mappingRanges_;
  /// The window of the mapped convolution being lowered with input bands
  /// (conv-bands), for the per-slice tile choice; Cg = 0 otherwise.
  tiling::MappingProblem::ConvWindowShape convWindow_;
  /// Constant packets (ConstantPackets.cpp): when operand 1 of `op` (the
  /// weight of matmul / gemm / conv) is a constant split by its label, each
  /// cluster's slab of it (the contiguous range its slice reads) is copied
  /// into DRAM of the cluster's local channel, the weight boxes of `work`
  /// are redirected there and the cores' blocks are added to their packets.
  mlir::LogicalResult
  placeWeightSlabs(mlir::Operation *op,
                   std::vector<codegen::ClusterGemmWork> &work, bool weightIsA);
  /// Writes Program::packets (one per core that holds blocks): the marker
  /// area of split::layoutPacket with the cluster-relative block offsets and
  /// the address table of the layers the core computes.
  void finishConstantPackets();
  /// DRAM of `elements` f32 meant for memory channel `channel`: a buffer of
  /// the linear plan that the channel planner moves to the channel local to
  /// its readers (the slab's cluster).
  uint64_t allocateInChannel(uint32_t channel, int64_t elements);
  struct PacketUnderConstruction {
    std::vector<PacketBlockRef> blocks;
    std::vector<std::pair<std::string, uint64_t>> addresses;
  };
  /// After placeOnChannels moved the buffers: the packets' block offsets
  /// and address tables (written with the linear plan) follow them.
  void relocatePacketMarkers(const std::vector<codegen::DramBuffer> &buffers,
                             const codegen::ChannelPlan &plan);
  std::map<std::pair<uint32_t, uint32_t>, PacketUnderConstruction> packets_;
  /// Per Program::packets entry: byte offset of its address table in the
  /// marker and the linear addresses written there.
  std::vector<std::pair<uint64_t, std::vector<uint64_t>>> packetTables_;
  unsigned splitConstants_ = 0, packetLayers_ = 0;
  /// The slices mappedSlices() cut last, by cluster (empty = idle).
  mutable std::vector<tiling::ClusterSlice> slices_;

  // Labelled lowering (LowerSplit.cpp, docs/labels-and-splits.md).
  /// How the K parts of `op`'s output meet, from the exchange level of the
  /// output's dynamic label (accel.labels): the mesh for swap = core /
  /// cluster on a machine with shared cluster storage, memory otherwise;
  /// nullopt without a label (the unlabelled combine layers).
  std::optional<codegen::ReductionExchange>
  reductionExchangeFor(mlir::Operation *op) const;
  /// The reduction trees of a K split (one per output region of an M / N
  /// part) over the partial-sum copies of `mo`, from the slices_ and the
  /// root clusters' output tiles in `work`.
  mlir::LogicalResult emitReductionTree(
      mlir::Operation *op, const std::vector<codegen::ClusterGemmWork> &work,
      const MappedOutput &mo, codegen::ReductionExchange x, SfuFunc func);

  /// The accel.tiling decision (select-tiling) of the GEMM op being lowered;
  /// set by lowerMatMul / lowerGemm, reset by GEMMs without one.
  std::optional<tiling::Mapping> gemmMapping_;
  bool depthwiseSW_ = true;
  codegen::LaneRows depthwiseLaneRows_ = codegen::LaneRows::Auto;
  bool convRQ_ = false;
  bool poolWindow_ = true;
  mlir::func::FuncOp func_;
  /// The machine compiled for, and the one the kernels see (kernelView:
  /// less storage under residency=on).
  HardwareDesc fullHw_, hw_;
  /// While alive, the kernels see less storage for a depth-first band's
  /// layer (bandReserve, GraphToIsa.cpp); restores it on destruction.
  class BandStorage {
  public:
    BandStorage(Lowering &l, mlir::Operation *op);
    ~BandStorage();
    BandStorage(const BandStorage &) = delete;
    BandStorage &operator=(const BandStorage &) = delete;

  private:
    Lowering &l_;
    uint64_t saved_;
  };
  LoweringOptions opts_;
  codegen::SparseWeightSource sparseSource_;
  size_t lastConstant_ = 0; ///< constantAt's cache
  uint64_t one_ = 0;        ///< oneConstant's, 0 until asked for
  Program program_;
  codegen::StreamBuilder sb_;
  llvm::DenseMap<mlir::Value, uint64_t> addr_;
  /// Ops lowered as part of another (e.g. a relu in a GEMM's store), in
  /// the order they were fused (the layer table names them).
  llvm::SetVector<mlir::Operation *> fused_;
  /// Epilogue steps a kernel could not apply (keepChainedOnly) and the
  /// residual value they read.
  std::vector<codegen::EpilogueStep> tail_;
  mlir::Value tailResidual_;
  std::vector<int64_t> tailResidualSpace_;   ///< residualAdd's shape
  llvm::StringMap<std::string> symbolNames_; // binary name -> what
  uint64_t next_ = 0;
  /// The buffers of the linear plan, in allocation order (ascending).
  std::vector<codegen::DramBuffer> buffers_;
  /// dram-placement=channels: moves the linear plan's buffers onto memory
  /// channels (ChannelPlacement.h); keeps the linear plan when a buffer
  /// fits no region.
  void placeOnChannels();
  /// residency=on: keeps pieces of intermediates in their writer's storage
  /// unit (Residency.h) and drops them from `pieces`; a remark reports the
  /// resident and spilled bytes.
  void keepOnChip(std::vector<codegen::DramBuffer> &pieces);
  codegen::ResidencySummary residency_;
};

} // namespace accel::lowering

#endif
