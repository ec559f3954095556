//===- GraphToIsa.cpp - Lower the graph dialect to an isa.program ---------===//
//
// Walks the entry function in program order. Every tensor value gets a DRAM
// view (memory planning: a bump allocator over zero-initialised DRAM;
// reshapes alias their operand), every op becomes one layer of per-cluster
// commands built by the code generators of accel/Codegen, and the resulting
// accel::Program replaces the function as an `isa.program`.
//
//===----------------------------------------------------------------------===//
#include "Graph/GraphPatterns.h"
#include "Lowering.h"
#include "ResourceCheck.h"
#include "accel/Codegen/ChannelSplit.h"
#include "accel/Codegen/DmaCoalesce.h"
#include "accel/Codegen/Kernels.h"
#include "accel/Codegen/Residency.h"
#include "accel/Conversion/Passes.h"
#include "accel/Hardware/HardwareDesc.h"
#include "accel/Target/IsaProgram.h"
#include "accel/Transforms/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/Debug.h"
#include "llvm/Support/FormatVariadic.h"

#define DEBUG_TYPE "residency"
#include <algorithm>
#include <cmath>
#include <cstring>

namespace accel {
#define GEN_PASS_DEF_CONVERTGRAPHTOISA
#include "accel/Conversion/Passes.h.inc"
} // namespace accel

using namespace mlir;
using namespace accel;
using namespace accel::codegen;
using namespace accel::lowering;
using llvm::SmallVector;

namespace {
/// The machine the kernels see: residency=on keeps the top
/// `residencyReserve` bytes of every storage unit for resident pieces.
HardwareDesc kernelView(const HardwareDesc &hw, const LoweringOptions &opts) {
  HardwareDesc k = hw;
  if (opts.residency && opts.residencyReserve < hw.storageBytes)
    k.storageBytes -= opts.residencyReserve;
  return k;
}
} // namespace

/// Storage a depth-first band's layer leaves to the maps beside it: the
/// even shares per cluster of its input band and its result (0 for other
/// ops). Those maps are not in the program's residency reserve, so without
/// this the kernels may take the storage they need (the FPN detector's
/// head on hw/large.json spilled every band).
static uint64_t bandReserve(Operation *op, uint64_t clusters) {
  if (!op->hasAttr(kRowBandAttrName) || op->getNumOperands() == 0 ||
      op->getNumResults() != 1)
    return 0;
  auto share = [&](Value v) -> uint64_t {
    auto t = dyn_cast<RankedTensorType>(v.getType());
    if (!t || !t.hasStaticShape())
      return 0;
    return uint64_t(
        roundUp(ceilDiv(t.getNumElements() * 4, int64_t(clusters)), 64));
  };
  return uint64_t(roundUp(
      int64_t(share(op->getOperand(0)) + share(op->getResult(0))), 4096));
}

Lowering::BandStorage::BandStorage(Lowering &l, Operation *op)
    : l_(l), saved_(l.hw_.storageBytes) {
  const uint64_t reserve =
      bandReserve(op, std::max<uint64_t>(1, l.fullHw_.numClusters()));
  // Only while the kernels keep at least half of the storage unit.
  if (!l.opts_.residency || reserve == 0 ||
      2 * reserve > l.fullHw_.storageBytes)
    return;
  const uint64_t narrowed = std::min(saved_, l.fullHw_.storageBytes - reserve);
  l.hw_.storageBytes = narrowed;
  l.sb_.setKernelStorage(narrowed);
}

Lowering::BandStorage::~BandStorage() {
  l_.hw_.storageBytes = saved_;
  l_.sb_.setKernelStorage(saved_);
}

Lowering::Lowering(func::FuncOp func, const HardwareDesc &hw,
                   const LoweringOptions &opts)
    : func_(func), fullHw_(hw), hw_(kernelView(hw, opts)), opts_(opts),
      sb_(program_, hw_, opts.sync) {
  program_.hwFingerprint = hw.fingerprint();
  sparseSource_.threshold = opts.sparseThreshold;
  sparseSource_.constantAt = [this](uint64_t addr, float &v) {
    return constantAt(addr, v);
  };
  sparseSource_.place = [this](std::vector<uint8_t> bytes) {
    ConstSegment seg;
    seg.dramAddr = allocate(int64_t((bytes.size() + 3) / 4));
    seg.bytes = std::move(bytes);
    program_.constants.push_back(std::move(seg));
    return program_.constants.back().dramAddr;
  };
}

GemmEpilogue Lowering::kernelEpilogue(GemmEpilogue epi) const {
  epi.loadBalance = opts_.loadBalance;
  epi.sfuChained = opts_.sfuChained;
  epi.sparse = opts_.sparseWeights ? &sparseSource_ : nullptr;
  return epi;
}

bool Lowering::constantAt(uint64_t addr, float &value) {
  // Segments are appended in increasing address order (bump allocator).
  const auto &segs = program_.constants;
  auto inside = [&](size_t i) {
    return addr >= segs[i].dramAddr &&
           addr + 4 <= segs[i].dramAddr + segs[i].size();
  };
  if (lastConstant_ >= segs.size() || !inside(lastConstant_)) {
    auto it = std::upper_bound(
        segs.begin(), segs.end(), addr,
        [](uint64_t a, const ConstSegment &s) { return a < s.dramAddr; });
    if (it == segs.begin())
      return false;
    lastConstant_ = size_t(it - segs.begin()) - 1;
    if (!inside(lastConstant_))
      return false;
  }
  const ConstSegment &s = segs[lastConstant_];
  std::memcpy(&value, s.data() + (addr - s.dramAddr), 4);
  return true;
}

const uint8_t *Lowering::constantSpan(uint64_t addr, uint64_t bytes) {
  float first;
  if (bytes < 4 || !constantAt(addr, first)) // finds the segment of `addr`
    return nullptr;
  const ConstSegment &s = program_.constants[lastConstant_];
  if (addr + bytes > s.dramAddr + s.size())
    return nullptr;
  return s.data() + (addr - s.dramAddr);
}

bool Lowering::permuteConstant(
    Value v, uint64_t addr, int64_t elements,
    llvm::function_ref<void(const uint8_t *in, uint8_t *out)> permute) {
  float first;
  if (elements < 2 || !v.hasOneUse() || !constantAt(addr, first))
    return false;
  ConstSegment &seg = program_.constants[lastConstant_];
  const uint64_t bytes = uint64_t(elements) * 4;
  if (seg.dramAddr != addr || seg.size() != bytes)
    return false;
  std::vector<uint8_t> out(bytes);
  permute(seg.data(), out.data());
  seg.bytes = std::move(out);
  seg.borrowed = nullptr;
  seg.borrowedSize = 0;
  return true;
}

SfuFunc Lowering::fuseRelu(Value v) {
  if (!v.hasOneUse())
    return SfuFunc::None;
  auto relu = dyn_cast<graph::ReluOp>(*v.getUsers().begin());
  if (!relu)
    return SfuFunc::None;
  fused_.insert(relu);
  addr_[relu.getResult()] = bufferFor(v);
  return SfuFunc::Relu;
}

LogicalResult Lowering::lowerConstant(Operation *op, DenseElementsAttr value) {
  auto type = cast<RankedTensorType>(value.getType());
  Type et = type.getElementType();
  // i1 / i64 constants (masks, indices, folded shapes) are held as f32 words
  // like every other i1 / i64 value; larger integers would lose precision.
  bool isInt = et.isInteger(1) || et.isInteger(64) || et.isInteger(32);
  if (!et.isF32() && !isInt)
    return op->emitError("constant of element type ")
           << et
           << " is not supported by the accelerator (f32, or i1 / i32 / "
              "i64 held as f32)";
  if (!type.hasStaticShape())
    return op->emitError("constant must have a static shape");
  if (value.isSplat() && type.getNumElements() >= kMinFilledSplat)
    return lowerSplatConstant(op, value);
  ConstSegment seg;
  if (!isInt) {
    // The raw f32 storage (host floats, as the binary holds them): weights
    // are large, so the segment borrows the attribute's bytes (they live as
    // long as the context, past this pass). A splat stores one element.
    ArrayRef<char> raw = value.getRawData();
    const size_t bytes = size_t(type.getNumElements()) * 4;
    if (!value.isSplat() && raw.size() == bytes &&
        llvm::endianness::native == llvm::endianness::little) {
      seg.borrowed = reinterpret_cast<const uint8_t *>(raw.data());
      seg.borrowedSize = bytes;
    } else {
      seg.bytes.resize(bytes);
      for (size_t at = 0; at < bytes; at += 4)
        std::memcpy(seg.bytes.data() + at,
                    raw.data() + (value.isSplat() ? 0 : at), 4);
    }
    seg.dramAddr = bufferFor(op->getResult(0));
    program_.constants.push_back(std::move(seg));
    return success();
  }
  std::vector<float> values;
  values.reserve(size_t(type.getNumElements()));
  for (const APInt &v : value.getValues<APInt>()) {
    int64_t x = et.isInteger(1) ? int64_t(v.getBoolValue()) : v.getSExtValue();
    if (x > (int64_t(1) << 24) || x < -(int64_t(1) << 24))
      return op->emitError("integer constant ")
             << x << " is not exactly representable as f32";
    values.push_back(float(x));
  }
  seg.dramAddr = bufferFor(op->getResult(0));
  seg.bytes.resize(values.size() * 4);
  std::memcpy(seg.bytes.data(), values.data(), seg.bytes.size());
  program_.constants.push_back(std::move(seg));
  return success();
}

/// A large splat constant is not materialised in the binary: its buffer is
/// filled at run time (a zero splat costs nothing, DRAM starts zeroed).
LogicalResult Lowering::lowerSplatConstant(Operation *op,
                                           DenseElementsAttr value) {
  auto type = cast<RankedTensorType>(value.getType());
  Type et = type.getElementType();
  float v;
  if (et.isF32()) {
    v = value.getSplatValue<APFloat>().convertToFloat();
  } else {
    APInt i = value.getSplatValue<APInt>();
    int64_t x = et.isInteger(1) ? int64_t(i.getBoolValue()) : i.getSExtValue();
    if (x > (int64_t(1) << 24) || x < -(int64_t(1) << 24))
      return op->emitError("integer constant ")
             << x << " is not exactly representable as f32";
    v = float(x);
  }
  uint64_t addr = bufferFor(op->getResult(0));
  emitFill(addr, shapeOf(op->getResult(0)), v);
  return success();
}

LogicalResult
Lowering::emitMatmuls(Operation *op,
                      const std::vector<std::array<Mat2D, 3>> &batches,
                      int64_t m, int64_t n, int64_t k,
                      const std::vector<Mat2D> &init, const GemmEpilogue &epi) {
  tiling::GemmProblem gp{m, k, n, tiling::computeElemBytes(hw_),
                         int64_t(batches.size())};
  GemmTiling t = gemmTilingFor(hw_, gp, k, !init.empty(),
                               gemmMapping_ ? &*gemmMapping_ : nullptr);
  if (failed(readMapping(op)))
    return failure();
  GemmEpilogue kepi = epi;
  if (!mapping_ && !gemmPostFits(hw_, t, !init.empty(), kepi))
    keepChainedOnly(kepi);
  if (mapping_)
    return emitMappedMatmuls(op, batches, m, n, k, init, kepi, t);
  std::vector<int64_t> kChunks = chunks(k, t.kc), nTiles = chunks(n, t.nc);
  std::vector<int64_t> k0 = prefix(kChunks), n0 = prefix(nTiles);
  std::vector<GemmTiles> problems;
  for (size_t b = 0; b < batches.size(); ++b)
    problems.push_back(matrixGemmTiles(
        batches[b][0], batches[b][1], batches[b][2],
        init.empty() ? nullptr : &init[b], m, 0, kChunks, k0, nTiles, n0));
  emitGemmLayer(sb_, problems, t, kernelEpilogue(kepi));
  return success();
}

LogicalResult Lowering::lowerMatMul(graph::MatMulOp op) {
  gemmMapping_ = readTilingAttr(op->getAttr(kTilingAttrName));
  std::vector<int64_t> l = shapeOf(op.getLhs()), r = shapeOf(op.getRhs());
  std::vector<int64_t> ld = denseStrides(l), rd = denseStrides(r);
  // numpy promotion of 1-D operands.
  if (l.size() == 1)
    l.insert(l.begin(), 1), ld.insert(ld.begin(), 0);
  if (r.size() == 1)
    r.push_back(1), rd.push_back(0);
  int64_t m = l[l.size() - 2], k = l.back(), n = r.back();
  std::vector<int64_t> lb(l.begin(), l.end() - 2), rb(r.begin(), r.end() - 2);
  std::string why;
  auto batch = graph::broadcastShapes(lb, rb, why);
  if (!batch)
    return op.emitOpError(why);
  std::vector<int64_t> bshape(batch->begin(), batch->end());
  std::vector<int64_t> lbs = broadcastStrides(lb, bshape),
                       rbs = broadcastStrides(rb, bshape);
  // broadcastStrides assumed dense strides of the batch part alone; scale
  // them by the matrix size.
  for (auto &s : lbs)
    s *= m * k;
  for (auto &s : rbs)
    s *= k * n;
  uint64_t lbase = bufferFor(op.getLhs()), rbase = bufferFor(op.getRhs());
  uint64_t out = bufferFor(op.getResult());
  GemmEpilogue epi;
  if (failed(takeEpilogue(op, epi)))
    return failure();
  std::vector<std::array<Mat2D, 3>> batches;
  int64_t nb = numElements(bshape);
  std::vector<int64_t> idx(bshape.size(), 0);
  for (int64_t b = 0; b < nb; ++b) {
    int64_t rem = b, lo = 0, ro = 0;
    for (int d = int(bshape.size()) - 1; d >= 0; --d) {
      int64_t i = rem % bshape[d];
      rem /= bshape[d];
      lo += i * lbs[d];
      ro += i * rbs[d];
    }
    Mat2D A{lbase + uint64_t(lo * 4), ld[ld.size() - 2], ld.back()};
    Mat2D B{rbase + uint64_t(ro * 4), rd[rd.size() - 2], rd.back()};
    Mat2D C{out + uint64_t(b * m * n * 4), n, 1};
    batches.push_back({A, B, C});
  }
  return emitMatmuls(op, batches, m, n, k, {}, epi);
}

LogicalResult Lowering::lowerGemm(graph::GemmOp op) {
  gemmMapping_ = readTilingAttr(op->getAttr(kTilingAttrName));
  std::vector<int64_t> a = shapeOf(op.getA()), b = shapeOf(op.getB());
  bool ta = op.getTransA(), tb = op.getTransB();
  int64_t m = ta ? a[1] : a[0], k = ta ? a[0] : a[1], n = tb ? b[0] : b[1];
  uint64_t out = bufferFor(op.getResult());
  Mat2D A = ta ? Mat2D{bufferFor(op.getA()), 1, m}
               : Mat2D{bufferFor(op.getA()), k, 1};
  Mat2D B = tb ? Mat2D{bufferFor(op.getB()), 1, k}
               : Mat2D{bufferFor(op.getB()), n, 1};
  // A constant [N, K] B stays [N, K] (a transposing load per tile): stored
  // [K, N], the constant packets of an N split would no longer be one
  // contiguous slab per cluster (docs/mapping.md, "Weight layout in DRAM").
  float alpha = op.getAlpha().convertToFloat();
  float beta = op.getBeta().convertToFloat();
  Value c = op.getC();
  if (c && beta == 0.0f)
    c = nullptr;
  std::vector<int64_t> cs;
  View cView;
  if (c) {
    cs = broadcastStrides(shapeOf(c), {m, n});
    cView = {bufferFor(c), cs};
  }
  GemmEpilogue epi;
  epi.alpha = alpha;
  if (!c || beta == 1.0f) {
    if (failed(takeEpilogue(op, epi)))
      return failure();
    std::vector<Mat2D> init;
    if (c)
      init.push_back({cView.base, cs[0], cs[1]});
    return emitMatmuls(op, {{A, B, Mat2D{out, n, 1}}}, m, n, k, init, epi);
  }
  // beta != 1: Y = alpha*A*B into a temporary, then Y += beta*C.
  uint64_t tmp = allocate(m * n);
  if (failed(emitMatmuls(op, {{A, B, Mat2D{tmp, n, 1}}}, m, n, k, {}, epi)))
    return failure();
  ElementwiseLayer ew;
  ew.shape = {m, n};
  ew.inputs = {View{tmp, {n, 1}}, cView};
  ew.output = View{out, {n, 1}};
  ew.steps.push_back({SpuType::Unary, SfuFunc::Scale, beta, 1, 1, 1});
  ew.steps.push_back({SpuType::Binary, SfuFunc::Add, 0.0f, 0, 1, 0});
  return emitSfu(op, ew);
}

LogicalResult Lowering::lowerConv(graph::Conv2DOp op) {
  std::vector<int64_t> xs = shapeOf(op.getInput()),
                       ws = shapeOf(op.getWeight()),
                       os = shapeOf(op.getResult());
  auto strides = op.getStrides(), pads = op.getPads(), dil = op.getDilations();
  int64_t groups = op.getGroups();
  int64_t N = xs[0], C = xs[1], H = xs[2], W = xs[3];
  int64_t O = ws[0], Cg = ws[1], KH = ws[2], KW = ws[3];
  int64_t OH = os[2], OW = os[3], Og = O / groups;
  int64_t Hp = H + pads[0] + pads[2], Wp = W + pads[1] + pads[3];

  // Depthwise: the SW weight-queue kernel (LowerDepthwise.cpp), which
  // reads the unpadded input and zero-fills the padding itself. An
  // accel.mapping (select-mapping skips depthwise convs, so another pass or
  // the user set it) partitions the implicit GEMM: the GEMM path below
  // follows it.
  if (depthwiseSW_ && groups == C && O == C && !op->hasAttr(kMappingAttrName)) {
    bool handled = false;
    uint64_t b = op.getBias() ? bufferFor(op.getBias()) : 0;
    ConvGeom dg{N,
                C,
                Hp,
                Wp,
                O,
                Cg,
                Og,
                KH,
                KW,
                OH,
                OW,
                groups,
                strides[0],
                strides[1],
                dil[0],
                dil[1],
                bufferFor(op.getInput()),
                bufferFor(op.getWeight()),
                bufferFor(op.getResult()),
                b,
                bool(op.getBias())};
    if (failed(lowerDepthwise(op, dg, H, W, pads[0], pads[1], handled)))
      return failure();
    if (handled)
      return success();
  }

  // Zero padding: copy the input into the interior of a fresh (zeroed)
  // DRAM buffer, or (mapped implicit GEMM, below) into per-cluster bands.
  uint64_t x = bufferFor(op.getInput());
  const bool padded = Hp != H || Wp != W;
  auto padWhole = [&] {
    uint64_t xp = allocate(N * C * Hp * Wp);
    View src{x, {H * W, W, 1}};
    View dst{xp + uint64_t((pads[0] * Wp + pads[1]) * 4), {Hp * Wp, Wp, 1}};
    emitCopyLayer(sb_, {N * C, H, W}, src, dst);
    return xp;
  };
  uint64_t w = bufferFor(op.getWeight());
  bool hasBias = bool(op.getBias());
  uint64_t bias = hasBias ? bufferFor(op.getBias()) : 0;

  // The decision (accel.tiling, else selected) on the spec's mapping.
  tiling::ConvShape cshape{1,          C,       H,       W,
                           O,          KH,      KW,      strides[0],
                           strides[1], pads[0], pads[1], pads[2],
                           pads[3],    dil[0],  dil[1],  groups};
  tiling::GemmProblem gp;
  std::string terr;
  tiling::convToGemm(cshape, tiling::computeElemBytes(hw_), gp, terr);
  gp.count *= N;
  auto convMapping = readTilingAttr(op->getAttr(kTilingAttrName));
  GemmTiling t = gemmTilingFor(hw_, gp, Cg * KH * KW, hasBias,
                               convMapping ? &*convMapping : nullptr);
  if (failed(readMapping(op)))
    return failure();
  ConvGeom geom{N,      C,      Hp, Wp, O,      Cg,         Og,
                KH,     KW,     OH, OW, groups, strides[0], strides[1],
                dil[0], dil[1], x,  w,  0,      bias,       hasBias};
  // K chunks may span kernel positions (convKChunks): the decision's depth
  // narrowed to the deepest chunk it realises, so that the per-slice tile
  // choice (sliceTiling) starts from tiles the kernel runs as priced.
  t.kc = deepestChunk(convKChunks(
      geom, 0, Cg * KH * KW, t.kc,
      chunksMaySpanKernelRows(geom, convNTiles(OW, 0, OH * OW, t.nc))));
  // conv-padding=window: the implicit GEMM (mapped or dealt, either form)
  // zero-fills the padding in its image tiles (ConvPadWindow.cpp). The RQ
  // kernel reads one padded buffer. conv-padding=copy: the mapped implicit
  // GEMM reads per-cluster padded bands, every other kernel the one padded
  // buffer; the copies are allocated before the result.
  // conv-padding=auto: the window where its extra DMAs cost fewer cycles
  // than the copy (convPadWindowPays).
  const bool rq = convRQ_ && groups == 1;
  bool window =
      padded && opts_.convPadding != LoweringOptions::Padding::Copy && !rq;
  if (window) {
    geom.pad = {true, H, W, pads[0], pads[1], 0};
    if (opts_.convPadding == LoweringOptions::Padding::Auto &&
        !convPadWindowPays(hw_, geom, t)) {
      window = false;
      geom.pad = {};
    } else {
      geom.pad.zeros = zeroSource();
    }
  }
  const bool banded =
      padded && !window && mapping_ && !rq && !convWeightsToQueue(geom);
  std::vector<PadBand> bands;
  if (banded)
    bands = emitPadBands(geom, x, H, W, pads[0], pads[1], Og, OH * OW,
                         Cg * KH * KW);
  else if (padded && !window)
    geom.x = x = padWhole();
  const uint64_t out = bufferFor(op.getResult());
  geom.out = out;
  // conv=rq: the RQ weight-queue kernel (LowerRqConv.cpp) for groups == 1
  // when a block fits; it takes precedence over accel.mapping / accel.tiling
  // (parsed above, they describe the implicit GEMM). Never banded.
  if (rq) {
    bool handled = false;
    if (failed(lowerRqConv(op, geom, handled)))
      return failure();
    if (handled)
      return success();
  }
  // Every kernel below addresses the filter through convFilterOffset /
  // appendFilterKDims (the RQ kernel above reads [O, Cg, KH, KW] itself).
  relayoutFilter(op, geom);
  if (banded) {
    GemmEpilogue epi;
    if (failed(takeEpilogue(op, epi)))
      return failure();
    return emitMappedConv(op, geom, t, epi, bands);
  }
  if (mapping_) {
    GemmEpilogue epi;
    if (failed(takeEpilogue(op, epi)))
      return failure();
    return emitMappedConv(op, geom, t, epi);
  }
  // N tiles: blocks of whole output rows, or pieces of one row.
  std::vector<ConvNTile> ntiles;
  if (OW <= t.nc) {
    int64_t rows = std::max<int64_t>(1, t.nc / OW);
    for (int64_t oh = 0; oh < OH; oh += rows)
      ntiles.push_back({oh, std::min(rows, OH - oh), 0, OW});
  } else {
    for (int64_t oh = 0; oh < OH; ++oh)
      for (int64_t ow = 0; ow < OW; ow += t.nc)
        ntiles.push_back({oh, 1, ow, std::min(t.nc, OW - ow)});
  }
  std::vector<ConvKChunk> kchunks = convKChunks(
      geom, 0, Cg * KH * KW, t.kc, chunksMaySpanKernelRows(geom, ntiles));
  t.kc = std::min(t.kc, deepestChunk(kchunks));

  std::vector<GemmTiles> problems;
  const int64_t sh = strides[0];
  for (int64_t n = 0; n < N; ++n)
    for (int64_t g = 0; g < groups; ++g) {
      GemmTiles p;
      p.m = Og;
      for (auto &nt : ntiles)
        p.nTiles.push_back(nt.ohc * nt.owc);
      for (auto &kc : kchunks)
        p.kChunks.push_back(kc.depth());
      p.aBox = [=](int64_t m0, int64_t mc, size_t ki) {
        const ConvKChunk &c = kchunks[ki];
        DramBox b;
        b.base = w + uint64_t((g * Og + m0) * Cg * KH * KW +
                              convFilterOffset(geom, c)) *
                         4;
        b.dim(mc, Cg * KH * KW);
        appendFilterKDims(b, geom, c);
        return b;
      };
      // The image as the boxes address it (unpadded under conv-padding=
      // window: the tiles that read padding are then loaded as pieces).
      const ConvGeom gx = geom.pad.on ? convGeomUnpadded(geom) : geom;
      auto imageBox = [=](size_t ki, size_t ni) {
        const ConvKChunk &c = kchunks[ki];
        const ConvNTile &t2 = ntiles[ni];
        DramBox b;
        b.base =
            gx.x + uint64_t(((n * C + g * Cg) * gx.Hp + t2.oh0 * sh) * gx.Wp +
                            t2.ow0 * strides[1] + convInputOffset(gx, c)) *
                       4;
        // Rows: the chunk's K dims; columns: the pixel box.
        b.rowDims = appendInputKDims(b, gx, c);
        if (t2.ohc > 1)
          b.dim(t2.ohc, sh * gx.Wp);
        b.dim(t2.owc, strides[1]);
        return b;
      };
      p.bBox = imageBox;
      if (geom.pad.on)
        p.bPieces = [=](size_t ki, size_t ni, int64_t rowStride) {
          return convImagePieces(geom, n, g, kchunks[ki], ntiles[ni],
                                 /*aForm=*/false, rowStride, imageBox(ki, ni));
        };
      p.cBox = [=](int64_t m0, int64_t mc, size_t ni) {
        const ConvNTile &t2 = ntiles[ni];
        DramBox b;
        b.base =
            out +
            uint64_t(((n * O + g * Og + m0) * OH + t2.oh0) * OW + t2.ow0) * 4;
        b.dim(mc, OH * OW).dim(t2.ohc, OW).dim(t2.owc, 1);
        return b;
      };
      if (hasBias)
        p.initBox = [=](int64_t m0, int64_t mc, size_t ni) {
          const ConvNTile &t2 = ntiles[ni];
          DramBox b;
          b.base = bias + uint64_t((g * Og + m0) * 4);
          b.dim(mc, 1).dim(t2.ohc, 0).dim(t2.owc, 0);
          return b;
        };
      problems.push_back(std::move(p));
    }
  GemmEpilogue epi;
  if (failed(takeEpilogue(op, epi)))
    return failure();
  if (!gemmPostFits(hw_, t, hasBias, epi))
    keepChainedOnly(epi);
  emitGemmLayer(sb_, problems, t, kernelEpilogue(epi));
  return success();
}

LogicalResult Lowering::run() {
  Block &body = func_.getBody().front();
  // Inputs.
  for (BlockArgument arg : body.getArguments()) {
    auto t = dyn_cast<RankedTensorType>(arg.getType());
    std::optional<DType> dt =
        t ? interfaceType(t.getElementType()) : std::nullopt;
    if (!t || !t.hasStaticShape() || !dt)
      return func_.emitError("input #")
             << arg.getArgNumber() << " has type " << arg.getType()
             << "; the accelerator needs statically shaped f32 tensors "
                "(or i1 / i32 / i64, held as f32)";
    Symbol s;
    s.dtype = *dt;
    auto name =
        func_.getArgAttrOfType<StringAttr>(arg.getArgNumber(), "accel.name");
    s.name = name ? name.str() : "input" + std::to_string(arg.getArgNumber());
    s.isInput = true;
    s.shape = shapeOf(arg);
    s.dramAddr = bufferFor(arg);
    if (failed(claimSymbolName(s.name,
                               "input #" + std::to_string(arg.getArgNumber()))))
      return failure();
    program_.symbols.push_back(s);
  }

  planConcatSlices(body);
  size_t position = 0;
  for (Operation &opRef : body.without_terminator()) {
    Operation *op = &opRef;
    ++position;
    if (fused_.count(op))
      continue;
    if (op->hasAttr(kFusedAttrName))
      return op->emitOpError(kFusedAttrName)
             << " is set but no producer's accel.fusion chain reaches this "
                "operator (a rewrite after fuse-layers broke the chain)";
    // Every command of the op (and of the ops fused into it) carries its
    // layer table index (LayerTable.cpp).
    // RNN layers sharing the engine are stored before anything else runs.
    if (!llvm::isa<graph::RecurrentOp, arith::ConstantOp>(op))
      flushRecurrentGroup();
    BandStorage band(*this, op);
    bool createdLayer;
    uint32_t layer = openLayer(op, position - 1, createdLayer);
    sb_.setLayer(layer);
    const uint64_t commandsBefore = sb_.numCommands();
    const size_t fusedBefore = fused_.size();
    LogicalResult r =
        llvm::TypeSwitch<Operation *, LogicalResult>(op)
            .Case<arith::ConstantOp>([&](arith::ConstantOp c) {
              auto dense = dyn_cast<DenseElementsAttr>(c.getValue());
              if (!dense)
                return LogicalResult(c.emitError(
                    "only dense tensor constants can be placed in DRAM"));
              return lowerConstant(c, dense);
            })
            .Case<graph::MatMulOp>([&](auto o) { return lowerMatMul(o); })
            .Case<graph::GemmOp>([&](auto o) { return lowerGemm(o); })
            .Case<graph::Conv2DOp>([&](auto o) { return lowerConv(o); })
            .Case<graph::AddOp>([&](auto o) { return lowerAdd(o); })
            .Case<graph::ReluOp>([&](auto o) { return lowerRelu(o); })
            .Case<graph::TransposeOp>([&](auto o) { return lowerTranspose(o); })
            .Case<graph::UnaryOp>([&](auto o) { return lowerUnary(o); })
            .Case<graph::BinaryOp>([&](auto o) { return lowerBinary(o); })
            .Case<graph::WhereOp>([&](auto o) { return lowerWhere(o); })
            .Case<graph::ReduceOp>([&](auto o) { return lowerReduce(o); })
            .Case<graph::SoftmaxOp>([&](auto o) { return lowerSoftmax(o); })
            .Case<graph::ConcatOp>([&](auto o) { return lowerConcat(o); })
            .Case<graph::SliceOp>([&](auto o) { return lowerSlice(o); })
            .Case<graph::BroadcastOp>([&](auto o) { return lowerBroadcast(o); })
            .Case<graph::TileOp>([&](auto o) { return lowerTile(o); })
            .Case<graph::PadOp>([&](auto o) { return lowerPad(o); })
            .Case<graph::Pool2DOp>([&](auto o) { return lowerPool(o); })
            .Case<graph::BatchNormOp>([&](auto o) { return lowerBatchNorm(o); })
            .Case<graph::RecurrentOp>([&](auto o) { return lowerRecurrent(o); })
            .Case<graph::ConvTranspose2DOp>(
                [&](auto o) { return lowerConvTranspose(o); })
            .Case<graph::ReshapeOp>([&](graph::ReshapeOp o) {
              addr_[o.getResult()] = bufferFor(o.getInput());
              return success();
            })
            .Default([&](Operation *o) {
              return LogicalResult(o->emitError("operation '")
                                   << o->getName()
                                   << "' cannot be lowered to the accelerator "
                                      "ISA (no graph-to-isa lowering)");
            });
    if (failed(r) || failed(emitEpilogueTail(op)))
      return failure();
    closeLayer(op, layer, createdLayer, commandsBefore, fusedBefore);
  }

  flushRecurrentGroup();
  // Outputs: a buffer of their own, dense, written by the program.
  auto ret = cast<func::ReturnOp>(body.getTerminator());
  llvm::DenseSet<uint64_t> taken;
  for (BlockArgument arg : body.getArguments())
    taken.insert(addr_[arg]);
  for (auto &c : program_.constants)
    taken.insert(c.dramAddr);
  for (auto [i, v] : llvm::enumerate(ret.getOperands())) {
    Symbol s;
    auto name = func_.getResultAttrOfType<StringAttr>(i, "accel.name");
    s.name = name ? name.str() : "output" + std::to_string(i);
    s.isInput = false;
    s.shape = shapeOf(v);
    s.dtype =
        interfaceType(cast<RankedTensorType>(v.getType()).getElementType())
            .value_or(DType::F32);
    uint64_t a = bufferFor(v);
    layerForOutput(v, s);
    if (!taken.insert(a).second) {
      // Returned twice, or an input/constant/alias: copy it out.
      uint64_t copy = allocate(numElements(s.shape));
      emitCopyLayer(sb_, s.shape, View{a, denseStrides(s.shape)},
                    View{copy, denseStrides(s.shape)});
      a = copy;
    }
    s.dramAddr = a;
    if (failed(claimSymbolName(s.name, "output #" + std::to_string(i))))
      return failure();
    program_.symbols.push_back(s);
  }
  finishConstantPackets();
  sb_.finish();
  program_.dramSize = next_;
  if (!sb_.capacityError().empty())
    return func_.emitError(sb_.capacityError());
  if (next_ != UINT64_MAX && (opts_.channelPlacement || opts_.residency)) {
    placeOnChannels();
    // The parts the piece splits cut from one box, contiguous again.
    coalesceDmaLoads(program_);
  }
  if (next_ == UINT64_MAX)
    return func_.emitError("the program's DRAM buffers need 2^64 bytes or "
                           "more (a tensor type too large for any machine; "
                           "the hardware has ")
           << hw_.dramBytes << " bytes)";
  if (next_ > hw_.dramBytes)
    return func_.emitError("the program needs ")
           << next_ << " bytes of DRAM but the hardware has " << hw_.dramBytes;
  return success();
}

void Lowering::placeOnChannels() {
  std::vector<BufferTraffic> traffic;
  ChannelPlan plan;
  std::string err;
  std::vector<DramBuffer> segments = buffers_;
  // A DMA across buffers (none of the kernels emits one) or a region too
  // small for a buffer: the linear plan stays, it is valid as it is.
  if (opts_.channelPieces &&
      !cutSegments(program_, buffers_, kAlign, segments, err))
    return;
  if (opts_.residency)
    keepOnChip(segments);
  // After residency: only what stays in DRAM is cut.
  if (opts_.channelPlacement && opts_.channelPieces && opts_.dramSplitShared)
    splitSharedSegments(program_, hw_, segments,
                        intermediatePieces(program_, segments));
  PlacementOptions popts{opts_.channelPieces, opts_.channelPieces,
                         opts_.dramCopyFactor};
  if (opts_.dramCopyTime)
    for (const LayerInfo &l : program_.layers)
      popts.layerMacs.push_back(l.macs);
  if (!opts_.channelPlacement ||
      !measureBufferTraffic(program_, hw_, segments, traffic, err) ||
      !planChannels(hw_, segments, traffic, plan, err, popts))
    return;
  layOutConstantsFirst(hw_, segments, constantBuffers(program_, segments),
                       plan);
  relocateBuffers(program_, hw_, segments, plan);
  relocatePacketMarkers(segments, plan);
  next_ = program_.dramSize;
}

void Lowering::keepOnChip(std::vector<DramBuffer> &pieces) {
  ResidencyOptions ropts;
  ropts.barrierSync = opts_.sync == SyncMode::Barrier;
  ropts.meshAware = opts_.residencyMeshAware;
  ResidencyPlan plan =
      planResidency(program_, fullHw_, sb_.commandLayers(), sb_.numLayers(),
                    pieces, intermediatePieces(program_, pieces), ropts);
  applyResidency(program_, plan, ropts);
  residency_ = summarize(plan);
  LLVM_DEBUG({
    for (size_t i = 0; i < plan.pieces.size(); ++i)
      llvm::dbgs() << "residency: piece [" << plan.pieces[i].addr << ", +"
                   << plan.pieces[i].bytes << ") reason " << int(plan.reason[i])
                   << " owner " << plan.owner[i] << " at "
                   << plan.storageAddr[i] << " traffic " << plan.dramTraffic[i]
                   << "\n";
  });
  pieces = remainingBuffers(plan, pieces);
}

namespace {
/// Largest residency-reserve-cap: the kernels keep at least a tenth.
constexpr unsigned kMaxReserveCapPercent = 90;

/// Storage the kernels leave to resident pieces (residency=on): enough for
/// the largest tensor the function computes that is neither returned nor a
/// constant (in 4 KB steps), at most `capPercent` of the storage unit.
uint64_t residencyReserve(func::FuncOp f, const HardwareDesc &hw,
                          unsigned capPercent) {
  llvm::DenseSet<Value> returned;
  f.walk([&](func::ReturnOp r) {
    for (Value v : r.getOperands())
      returned.insert(v);
  });
  uint64_t largest = 0, fitting = 0, total = 0;
  const uint64_t clusters = std::max<uint64_t>(1, hw.numClusters());
  const uint64_t cap = hw.storageBytes * capPercent / 100;
  f.walk([&](Operation *op) {
    // A depth-first band's maps are sized to fit what the kernels leave;
    // counting them would turn on a reserve that shrinks every other
    // layer's tiles (the FPN detector: 28.45 M cycles without, 29.74 M
    // with).
    if (op->hasTrait<OpTrait::ConstantLike>() || op->hasAttr(kRowBandAttrName))
      return;
    for (Value v : op->getResults()) {
      auto t = dyn_cast<RankedTensorType>(v.getType());
      // A value only fused operators read never reaches memory (it stays in
      // the producer's epilogue).
      bool materialised = llvm::any_of(v.getUsers(), [](Operation *u) {
        return !u->hasAttr(kFusedAttrName);
      });
      if (!t || !t.hasStaticShape() || returned.contains(v) || !materialised)
        continue;
      // Pieces are per writing cluster: a tensor whose even share per
      // cluster exceeds the largest reserve can never stay on chip, and
      // reserving storage for it would only shrink every kernel's tiles
      // (measured: the FPN detector at 640x640 lost 4 %).
      uint64_t bytes = uint64_t(t.getNumElements()) * 4;
      uint64_t share = (bytes + clusters - 1) / clusters;
      total += bytes;
      if (share <= cap) {
        largest = std::max(largest, share);
        fitting += bytes;
      }
    }
  });
  // When almost nothing could stay on chip (large feature maps: the FPN
  // detector at 640x640 has 3 % of its intermediate bytes in tensors that
  // fit), the reserve costs more in smaller tiles than residency saves
  // (measured there: 604 M cycles with it, 512 M without, on
  // bandwidth-starved.json); residency still uses what the kernels leave.
  if (fitting * 10 < total)
    return 0;
  const uint64_t step = 4096;
  return std::min((largest + step - 1) / step * step, cap);
}

struct ConvertGraphToIsaPass
    : public accel::impl::ConvertGraphToIsaBase<ConvertGraphToIsaPass> {
  using ConvertGraphToIsaBase::ConvertGraphToIsaBase;

  /// The enum-like options are checked by their parsers (Passes.td); the
  /// range of sparse-threshold here, so that a bad value is an option error
  /// too (accel-opt, the pipeline and accel-compile).
  LogicalResult initializeOptions(
      StringRef options,
      function_ref<LogicalResult(const Twine &)> errorHandler) override {
    if (failed(Pass::initializeOptions(options, errorHandler)))
      return failure();
    std::string err = rangeError();
    return err.empty() ? success() : errorHandler(err);
  }

  /// The numeric options' range check, for the option parser and for a
  /// pass built with its options set in C++: "" when they are valid.
  std::string rangeError() const {
    if (!(sparseThreshold >= 0.0 && sparseThreshold <= 1.0))
      return "sparse-threshold expects a zero fraction in [0, 1], got " +
             llvm::formatv("{0}", double(sparseThreshold)).str();
    // Kernels need some storage of their own; above 90 % the reserve would
    // leave them too little for any tile (and the lowering retries with 0).
    if (residencyReserveCap > kMaxReserveCapPercent)
      return "residency-reserve-cap expects a percentage in [0, 90], got " +
             std::to_string(unsigned(residencyReserveCap));
    return "";
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    HardwareDesc hw;
    if (failed(moduleHardware(module, hw)))
      return signalPassFailure();
    func::FuncOp target;
    for (auto f : module.getOps<func::FuncOp>()) {
      if (f.isExternal())
        continue;
      bool match = entry.empty() ? f.isPublic() : f.getName() == entry;
      if (!match)
        continue;
      if (target) {
        module.emitError("several public functions; choose one with "
                         "entry=<name>");
        return signalPassFailure();
      }
      target = f;
    }
    if (!target) {
      module.emitError("no function to lower")
          << (entry.empty() ? std::string() : " named '" + entry + "'");
      return signalPassFailure();
    }
    // Fusion and the op switch below expect one spelling per operation.
    if (failed(graph::applyCanonicalSpellings(target))) {
      target.emitError("the graph ops did not reach their canonical spelling");
      return signalPassFailure();
    }
    if (!target.getBody().hasOneBlock()) {
      target.emitError("the entry function must have a single block");
      return signalPassFailure();
    }
    // A re-layout (split-strategy) changes which core reads which piece,
    // not the dense DRAM tensor: it lowers to an alias of its operand.
    target.walk([](graph::RelayoutOp r) {
      r.getResult().replaceAllUsesWith(r.getInput());
      r.erase();
    });
    if (failed(checkResourcesUpFront(target, hw)))
      return signalPassFailure();
    LoweringOptions lo;
    lo.sparseWeights = sparseWeights == SparseWeightsMode::Auto;
    if (std::string err = rangeError(); !err.empty()) {
      module.emitError(err);
      return signalPassFailure();
    }
    lo.sparseThreshold = sparseThreshold;
    lo.loadBalance = loadBalance;
    lo.layerSliceTiles = layerSliceTiles;
    lo.sfuChained = sfuMode == SfuMode::Chained;
    lo.channelPlacement = dramPlacement != DramPlacement::Linear;
    lo.channelPieces = dramPlacement == DramPlacement::Pieces;
    lo.dramCopyFactor = dramCopyFactor;
    lo.dramCopyTime = dramCopyTime;
    lo.dramSplitShared = dramSplitShared;
    lo.convPadding =
        convPadding == ConvPadding::Window ? LoweringOptions::Padding::Window
        : convPadding == ConvPadding::Copy ? LoweringOptions::Padding::Copy
                                           : LoweringOptions::Padding::Auto;
    lo.convBands = convBands != ConvBands::Off;
    lo.convBandsAlways = convBands == ConvBands::On;
    lo.convBandBlocks = convBandBlocks;
    lo.convBandGroups = convBandGroups;
    lo.filterShare = filterShare;
    lo.residency = residency != Residency::Off;
    lo.residencyMeshAware = residency == Residency::On;
    if (lo.residency)
      lo.residencyReserve = residencyReserve(target, hw, residencyReserveCap);
    lo.sync = sync == LayerSync::Events ? codegen::SyncMode::Events
                                        : codegen::SyncMode::Barrier;
    auto lower = [&](const LoweringOptions &o) {
      auto l = std::make_unique<Lowering>(target, hw, o);
      l->setDepthwiseSW(depthwise == DepthwiseKernel::Sw);
      l->setDepthwiseLaneRows(depthwiseLaneRows == DepthwiseLaneRows::Off
                                  ? codegen::LaneRows::Off
                              : depthwiseLaneRows == DepthwiseLaneRows::On
                                  ? codegen::LaneRows::On
                                  : codegen::LaneRows::Auto);
      l->setConvRQ(conv == ConvKernel::Rq);
      l->setPoolWindow(pool == PoolKernel::Window);
      return l;
    };
    std::unique_ptr<Lowering> lowering = lower(lo);
    LogicalResult lowered = success();
    if (lo.residencyReserve != 0) {
      // A kernel that needs more storage than the reserve leaves: lower
      // again with all of it (and report that run's errors, if any).
      ScopedDiagnosticHandler quiet(&getContext(), [](Diagnostic &d) {
        return success(d.getSeverity() == DiagnosticSeverity::Error);
      });
      lowered = lowering->run();
    } else {
      lowered = lowering->run();
    }
    if (failed(lowered) && lo.residencyReserve != 0) {
      lo.residencyReserve = 0;
      lowering = lower(lo);
      lowered = lowering->run();
    }
    if (failed(lowered))
      return signalPassFailure();
    if (residencyReport) {
      const codegen::ResidencySummary &rs = lowering->residency();
      mlir::emitRemark(target.getLoc(), "residency: ")
          << rs.residentBytes << " bytes of intermediates in "
          << rs.residentPieces << " pieces kept on chip (" << rs.residentTraffic
          << " DMA bytes off DRAM), " << rs.spilledBytes << " bytes in "
          << rs.spilledPieces << " pieces spilled to DRAM ("
          << rs.spilledTraffic << " DMA bytes)";
    }
    OwningOpRef<ModuleOp> isa =
        isaFromProgram(std::move(lowering->program()), module.getContext());
    if (!isa) {
      module.emitError("internal error: could not build the isa.program");
      return signalPassFailure();
    }
    target.erase();
    for (Operation &op :
         llvm::make_early_inc_range(isa->getBody()->getOperations()))
      op.moveBefore(module.getBody(), module.getBody()->end());
  }
};

} // namespace

FailureOr<std::unique_ptr<Pass>> accel::createConvertGraphToIsaFromString(
    StringRef options,
    function_ref<LogicalResult(const Twine &)> errorHandler) {
  std::unique_ptr<Pass> pass = createConvertGraphToIsa();
  if (failed(pass->initializeOptions(options, errorHandler)))
    return failure();
  return pass;
}
