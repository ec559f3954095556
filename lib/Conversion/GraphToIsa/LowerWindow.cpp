//===- LowerWindow.cpp - Pooling, batch norm, transposed convolution ------===//
//
// pool2d: the band kernel of accel/Codegen/Pool.h (pool=window, default):
// each input band loaded once, the taps combined on chip. Where no band fits
// (or pool=taps): one SFU layer per kernel position over a strided view of
// the (padded) input, combining with max / add into the output. Average
// pooling multiplies by a host-computed map of 1 / window count.
// batch_norm: per-channel a = scale / sqrt(var + eps), b = bias - mean * a
// computed on the SFU, then y = x * a + b.
// conv_transpose2d: taps that do not overlap (stride > dilation * (kernel -
// 1), e.g. 2x2 stride 2) are one GEMM per input row whose C tiles are
// stored to the strided output positions (depth-to-space in the store
// DMA); overlapping taps: the input is scattered into a zeroed, padded
// buffer with the stride as spacing, the weights are flipped and
// transposed by a copy, and an ordinary conv2d (stride 1) does the rest.
//
//===----------------------------------------------------------------------===//
#include "Accel/AccelDialect.h"
#include "Lowering.h"
#include "accel/Codegen/Pool.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Builders.h"
#include <cmath>
#include <cstring>
#include <limits>

using namespace mlir;
using namespace accel;
using namespace accel::codegen;
using namespace accel::lowering;

uint64_t Lowering::addConstant(const std::vector<float> &values) {
  uint64_t a = allocate(int64_t(values.size()));
  ConstSegment seg;
  seg.dramAddr = a;
  seg.bytes.resize(values.size() * 4);
  std::memcpy(seg.bytes.data(), values.data(), seg.bytes.size());
  program_.constants.push_back(std::move(seg));
  return a;
}

uint64_t Lowering::oneConstant() {
  if (!one_)
    one_ = addConstant({1.0f});
  return one_;
}

namespace {
/// Average pooling's [OH][OW] map of 1 / (elements each window counts).
std::vector<float> inverseWindowCounts(graph::Pool2DOp op, int64_t H, int64_t W,
                                       int64_t OH, int64_t OW) {
  auto k = op.getKernel(), st = op.getStrides(), pads = op.getPads(),
       dil = op.getDilations();
  std::vector<float> inv(size_t(OH * OW));
  bool include = op.getCountIncludePad();
  int64_t lo0 = include ? -pads[0] : 0, hi0 = include ? H + pads[2] : H;
  int64_t lo1 = include ? -pads[1] : 0, hi1 = include ? W + pads[3] : W;
  for (int64_t oh = 0; oh < OH; ++oh)
    for (int64_t ow = 0; ow < OW; ++ow) {
      int64_t count = 0;
      for (int64_t i = 0; i < k[0]; ++i)
        for (int64_t j = 0; j < k[1]; ++j) {
          int64_t h = oh * st[0] + i * dil[0] - pads[0];
          int64_t w = ow * st[1] + j * dil[1] - pads[1];
          count += h >= lo0 && h < hi0 && w >= lo1 && w < hi1;
        }
      inv[size_t(oh * OW + ow)] = count ? 1.0f / float(count) : 0.0f;
    }
  return inv;
}
} // namespace

LogicalResult Lowering::lowerPoolWindow(graph::Pool2DOp op, bool &handled) {
  handled = false;
  std::vector<int64_t> xs = shapeOf(op.getInput()),
                       os = shapeOf(op.getResult());
  auto k = op.getKernel(), st = op.getStrides(), pads = op.getPads(),
       dil = op.getDilations();
  PoolLayer l;
  l.planes = xs[0] * xs[1];
  l.H = xs[2];
  l.W = xs[3];
  l.OH = os[2];
  l.OW = os[3];
  l.KH = k[0];
  l.KW = k[1];
  l.sh = st[0];
  l.sw = st[1];
  l.dh = dil[0];
  l.dw = dil[1];
  l.padT = pads[0];
  l.padL = pads[1];
  l.isMax = op.getKind() == graph::PoolKind::max;
  PoolPlan plan;
  std::string err;
  if (!planPool(hw_, l, plan, err))
    return success(); // one SFU layer per tap instead
  l.x = bufferFor(op.getInput());
  l.out = bufferFor(op.getResult());
  l.padValue =
      addConstant({l.isMax ? -std::numeric_limits<float>::infinity() : 0.0f});
  if (!l.isMax)
    l.invCount = addConstant(inverseWindowCounts(op, l.H, l.W, l.OH, l.OW));
  emitPoolLayer(sb_, l, plan);
  handled = true;
  return success();
}

LogicalResult Lowering::lowerPool(graph::Pool2DOp op) {
  if (poolWindow_) {
    bool handled = false;
    if (failed(lowerPoolWindow(op, handled)))
      return failure();
    if (handled)
      return success();
  }
  std::vector<int64_t> xs = shapeOf(op.getInput()),
                       os = shapeOf(op.getResult());
  int64_t NC = xs[0] * xs[1], H = xs[2], W = xs[3], OH = os[2], OW = os[3];
  auto k = op.getKernel(), st = op.getStrides(), pads = op.getPads(),
       dil = op.getDilations();
  bool isMax = op.getKind() == graph::PoolKind::max;
  // Padded extent, large enough for every (ceil-mode) window.
  int64_t Hn = std::max(H + pads[0] + pads[2],
                        (OH - 1) * st[0] + (k[0] - 1) * dil[0] + 1);
  int64_t Wn = std::max(W + pads[1] + pads[3],
                        (OW - 1) * st[1] + (k[1] - 1) * dil[1] + 1);
  uint64_t x = bufferFor(op.getInput());
  if (Hn != H || Wn != W) {
    uint64_t xp = allocate(NC * Hn * Wn);
    if (isMax)
      emitFill(xp, {NC, Hn, Wn}, -std::numeric_limits<float>::infinity());
    emitCopyLayer(
        sb_, {NC, H, W}, View{x, {H * W, W, 1}},
        View{xp + uint64_t((pads[0] * Wn + pads[1]) * 4), {Hn * Wn, Wn, 1}});
    x = xp;
  }
  uint64_t out = bufferFor(op.getResult());
  View outView{out, {OH * OW, OW, 1}};
  for (int64_t i = 0; i < k[0]; ++i)
    for (int64_t j = 0; j < k[1]; ++j) {
      View win{x + uint64_t((i * dil[0] * Wn + j * dil[1]) * 4),
               {Hn * Wn, st[0] * Wn, st[1]}};
      ElementwiseLayer ew;
      ew.shape = {NC, OH, OW};
      ew.output = outView;
      if (i == 0 && j == 0) {
        ew.inputs = {win};
        ew.steps = {{SpuType::Copy, SfuFunc::None, 0.0f, 0, 0, 0}};
      } else {
        ew.inputs = {outView, win};
        ew.steps = {{SpuType::Binary, isMax ? SfuFunc::Max : SfuFunc::Add, 0.0f,
                     0, 1, 0}};
      }
      if (failed(emitSfu(op, ew)))
        return failure();
    }
  if (isMax)
    return success();
  // Average: multiply by 1 / (number of counted window elements).
  ElementwiseLayer ew;
  ew.shape = {NC, OH, OW};
  ew.inputs = {outView, View{addConstant(inverseWindowCounts(op, H, W, OH, OW)),
                             {0, OW, 1}}};
  ew.output = outView;
  ew.steps = {{SpuType::Binary, SfuFunc::Mul, 0.0f, 0, 1, 0}};
  return emitSfu(op, ew);
}

LogicalResult Lowering::lowerBatchNorm(graph::BatchNormOp op) {
  std::vector<int64_t> xs = shapeOf(op.getInput());
  int64_t C = xs[1];
  // a = scale / sqrt(var + eps); b = bias - mean * a (over [C]).
  uint64_t a = allocate(C), b = allocate(C);
  ElementwiseLayer l1;
  l1.shape = {C};
  l1.inputs = {denseView(op.getVariance()), denseView(op.getScale())};
  l1.output = View{a, {1}};
  l1.steps = {{SpuType::Unary, SfuFunc::AddImm,
               op.getEpsilon().convertToFloat(), 0, 0, 0},
              {SpuType::Unary, SfuFunc::Sqrt, 0.0f, 0, 0, 0},
              {SpuType::Binary, SfuFunc::Div, 0.0f, 1, 0, 0}};
  ElementwiseLayer l2;
  l2.shape = {C};
  l2.inputs = {denseView(op.getMean()), View{a, {1}}, denseView(op.getBias())};
  l2.output = View{b, {1}};
  l2.steps = {{SpuType::Binary, SfuFunc::Mul, 0.0f, 0, 1, 0},
              {SpuType::Binary, SfuFunc::Sub, 0.0f, 2, 0, 0}};
  // y = x * a[c] + b[c], a and b broadcast over every other dimension.
  std::vector<int64_t> chan(xs.size(), 0);
  chan[1] = 1;
  ElementwiseLayer l3;
  l3.shape = xs;
  l3.inputs = {denseView(op.getInput()), View{a, chan}, View{b, chan}};
  l3.output = denseView(op.getResult());
  l3.steps = {{SpuType::Binary, SfuFunc::Mul, 0.0f, 0, 1, 0},
              {SpuType::Binary, SfuFunc::Add, 0.0f, 0, 2, 0}};
  if (failed(emitSfu(op, l1)) || failed(emitSfu(op, l2)))
    return failure();
  return emitSfu(op, l3);
}

LogicalResult Lowering::takeTailEpilogue(Operation *producer) {
  GemmEpilogue epi;
  if (failed(takeEpilogue(producer, epi)))
    return failure();
  if (epi.func != SfuFunc::None)
    tail_.push_back(EpilogueStep{epi.func, epi.funcImm, false});
  tail_.insert(tail_.end(), epi.post.begin(), epi.post.end());
  return success();
}

bool Lowering::convTransposeIsGemm(graph::ConvTranspose2DOp op) {
  std::vector<int64_t> ws = shapeOf(op.getWeight());
  auto st = op.getStrides(), dil = op.getDilations();
  // Non-overlapping taps: the kernel's extent d*(k-1)+1 fits in the stride,
  // so every output pixel receives at most one (input pixel, tap) product.
  return st[0] > dil[0] * (ws[2] - 1) && st[1] > dil[1] * (ws[3] - 1);
}

/// ConvTranspose whose taps do not overlap (stride > dilation * (kernel -
/// 1) on both axes, e.g. 2x2 stride 2): per input row, one GEMM
/// [W pixels x Cg] x [Cg x Og*KH*KW] (the ONNX weight as it is stored), whose
/// C tile columns (o, i, j) are stored to output pixel (h*s + i*d, w*s +
/// j*d) of channel o by the store DMA's addressing (depth-to-space). Output
/// pixels no tap reaches (stride > d*(k-1)+1, output_padding) are filled
/// with the bias first; pads crop a full-size temporary.
LogicalResult Lowering::lowerConvTransposeGemm(graph::ConvTranspose2DOp op) {
  std::vector<int64_t> xs = shapeOf(op.getInput()),
                       ws = shapeOf(op.getWeight()),
                       os = shapeOf(op.getResult());
  auto st = op.getStrides(), pads = op.getPads(), dil = op.getDilations();
  int64_t groups = op.getGroups();
  int64_t N = xs[0], C = xs[1], H = xs[2], W = xs[3];
  int64_t Og = ws[1], KH = ws[2], KW = ws[3], Cg = C / groups, O = Og * groups;
  int64_t OH = os[2], OW = os[3], KK = KH * KW, Ncols = Og * KK;
  int64_t sh = st[0], sw = st[1], dh = dil[0], dw = dil[1];
  // The full (uncropped) extent the taps cover.
  int64_t Hf = (H - 1) * sh + dh * (KH - 1) + 1;
  int64_t Wf = (W - 1) * sw + dw * (KW - 1) + 1;
  const bool cropped = pads[0] || pads[1] || pads[2] || pads[3];
  const bool gaps = sh != dh * (KH - 1) + 1 || sw != dw * (KW - 1) + 1;
  bool hasBias = bool(op.getBias());
  uint64_t x = bufferFor(op.getInput()), w = bufferFor(op.getWeight());
  uint64_t bias = hasBias ? bufferFor(op.getBias()) : 0;

  // The bias as one more K step (a column of ones in A, the bias row in B)
  // instead of the accumulators' initial values: an initial-value tile is
  // as large as the C tile (the bias broadcast over pixels and taps: as
  // many DRAM bytes as the output), the K step reads W + Og*KH*KW floats
  // per tile but costs two more DMAs per tile (their latency). Taken when
  // the initial values would add at least a quarter of the input's bytes
  // (Og*KH*KW >= Cg / 4: the FPN head's 64 -> 64 2x2 layer, 1.39x faster;
  // not its 64 -> 1 one, which the K step made 1.35x slower).
  const bool biasStep = hasBias && 4 * Ncols >= Cg;
  const int64_t K = Cg + (biasStep ? 1 : 0);
  tiling::GemmProblem gp{W, K, Ncols, tiling::computeElemBytes(hw_),
                         N * groups * H};
  GemmTiling t = gemmTilingFor(hw_, gp, K, hasBias && !biasStep, nullptr);
  // N tiles: (o0, oc, i0, ic) = output channels [o0, o0 + oc) x kernel rows
  // [i0, i0 + ic) x every kernel column; a contiguous column range of the
  // weight matrix. Whole channels when nc holds all taps, else one channel's
  // kernel rows.
  struct CtTile {
    int64_t o0, oc, i0, ic;
  };
  // A column tile's (o, i, j) dimensions after a box's first dimension, with
  // their steps; extent-1 ones left out, the box padded to rank 2.
  auto tapDims = [KW](DramBox &b, const CtTile &nt, int64_t oStep,
                      int64_t iStep, int64_t jStep, int64_t padStep) {
    if (nt.oc > 1)
      b.dim(nt.oc, oStep);
    if (nt.ic > 1)
      b.dim(nt.ic, iStep);
    if (KW > 1)
      b.dim(KW, jStep);
    if (b.rank == 1)
      b.dim(1, padStep);
  };
  std::vector<CtTile> ntiles;
  if (t.nc >= KK) {
    int64_t per = t.nc / KK;
    for (int64_t o = 0; o < Og; o += per)
      ntiles.push_back({o, std::min(per, Og - o), 0, KH});
  } else if (t.nc >= KW) {
    int64_t per = t.nc / KW;
    for (int64_t o = 0; o < Og; ++o)
      for (int64_t i = 0; i < KH; i += per)
        ntiles.push_back({o, 1, i, std::min(per, KH - i)});
  } else {
    return op.emitOpError("a kernel row of ")
           << KW << " taps is wider than the GEMM's N tile (" << t.nc << ")";
  }

  // Where the taps land: the output itself, or a full-size temporary that
  // pads crop.
  const int64_t TH = cropped ? Hf : OH, TW = cropped ? Wf : OW;
  const uint64_t out = bufferFor(op.getResult());
  const uint64_t target = cropped ? allocate(N * O * TH * TW) : out;
  // Pixels of the target no tap reaches: the bias (or 0) first.
  const bool uncovered = gaps || TH > Hf || TW > Wf;
  // The fused chain runs in the GEMM's epilogue only when the GEMM writes
  // every output pixel; otherwise it is one SFU pass over the output.
  const bool inKernel = !cropped && !uncovered;
  auto fillBias = [&](uint64_t buf, int64_t h, int64_t wd) {
    if (hasBias)
      emitCopyLayer(sb_, {N, O, h, wd}, View{bias, {0, 1, 0, 0}},
                    View{buf, denseStrides({N, O, h, wd})});
    else
      emitFill(buf, {N, O, h, wd}, 0.0f, /*evenIfZero=*/true);
  };
  if (uncovered)
    fillBias(target, TH, TW);

  std::vector<int64_t> kChunks = chunks(Cg, t.kc);
  const size_t biasChunk = biasStep ? kChunks.size() : SIZE_MAX;
  if (biasStep)
    kChunks.push_back(1);
  std::vector<int64_t> k0 = prefix(kChunks);
  const uint64_t ones = biasStep ? addConstant({1.0f}) : 0;
  std::vector<GemmTiles> problems;
  for (int64_t n = 0; n < N; ++n)
    for (int64_t g = 0; g < groups; ++g)
      for (int64_t h = 0; h < H; ++h) {
        GemmTiles p;
        p.m = W;
        for (const CtTile &nt : ntiles)
          p.nTiles.push_back(nt.oc * nt.ic * KW);
        p.kChunks = kChunks;
        // A = the input row transposed: rows = pixels w, columns = channels.
        p.aBox = [=](int64_t m0, int64_t mc, size_t ki) {
          DramBox b;
          if (ki == biasChunk) { // a column of ones
            b.base = ones;
            b.dim(mc, 0).dim(1, 1);
            return b;
          }
          b.base =
              x + uint64_t(((n * C + g * Cg + k0[ki]) * H + h) * W + m0) * 4;
          b.dim(mc, 1).dim(kChunks[ki], H * W);
          return b;
        };
        // B = the weights [Cg, Og*KH*KW] of the group, as stored.
        p.bBox = [=](size_t ki, size_t ni) {
          const CtTile &nt = ntiles[ni];
          DramBox b;
          if (ki == biasChunk) { // bias[o] for every tap (i, j) of o
            b.base = bias + uint64_t((g * Og + nt.o0) * 4);
            b.dim(1, 0);
            tapDims(b, nt, 1, 0, 0, 0);
            return b;
          }
          b.base =
              w +
              uint64_t((g * Cg + k0[ki]) * Ncols + nt.o0 * KK + nt.i0 * KW) * 4;
          b.dim(kChunks[ki], Ncols).dim(nt.oc * nt.ic * KW, 1);
          return b;
        };
        // C: pixel w of column (o, i, j) to target (h*s + i*d, w*s + j*d).
        p.cBox = [=](int64_t m0, int64_t mc, size_t ni) {
          const CtTile &nt = ntiles[ni];
          DramBox b;
          b.base =
              target +
              uint64_t(((n * O + g * Og + nt.o0) * TH + h * sh + nt.i0 * dh) *
                           TW +
                       m0 * sw) *
                  4;
          b.dim(mc, sw);
          tapDims(b, nt, TH * TW, dh * TW, dw, 1);
          return b;
        };
        if (hasBias && !biasStep)
          p.initBox = [=](int64_t m0, int64_t mc, size_t ni) {
            const CtTile &nt = ntiles[ni];
            DramBox b;
            b.base = bias + uint64_t((g * Og + nt.o0) * 4);
            b.dim(mc, 0);
            tapDims(b, nt, 1, 0, 0, 0);
            return b;
          };
        problems.push_back(std::move(p));
      }
  GemmEpilogue epi;
  if (inKernel) {
    if (failed(takeEpilogue(op, epi)))
      return failure();
    if (!gemmPostFits(hw_, t, hasBias && !biasStep, epi))
      keepChainedOnly(epi);
  } else if (failed(takeTailEpilogue(op))) {
    return failure();
  }
  // A band's rows in blocks: the next band layer, dealt so too, reads its
  // rows on the cluster that wrote them (depth-first-rows).
  emitGemmLayer(sb_, problems, t, kernelEpilogue(epi),
                op->hasAttr(kRowBandAttrName) ? GemmDeal::Blocks
                                              : GemmDeal::RoundRobin);
  if (!cropped)
    return success();
  // Crop: output (r, c) = target (r + top, c + left); pixels past the full
  // extent (output_padding beyond the end pads) get the bias.
  int64_t ch = std::min(OH, Hf - pads[0]), cw = std::min(OW, Wf - pads[1]);
  if (ch < OH || cw < OW)
    fillBias(out, OH, OW);
  if (ch > 0 && cw > 0)
    emitCopyLayer(
        sb_, {N * O, ch, cw},
        View{target + uint64_t((pads[0] * TW + pads[1]) * 4), {TH * TW, TW, 1}},
        View{out, {OH * OW, OW, 1}});
  return success();
}

LogicalResult Lowering::lowerConvTranspose(graph::ConvTranspose2DOp op) {
  if (convTransposeIsGemm(op))
    return lowerConvTransposeGemm(op);
  // Overlapping taps: zero-stuffing. A fused chain runs after the conv as
  // one SFU pass (the temporary conv2d below has no users to fuse).
  if (failed(takeTailEpilogue(op)))
    return failure();
  std::vector<int64_t> xs = shapeOf(op.getInput()),
                       ws = shapeOf(op.getWeight()),
                       os = shapeOf(op.getResult());
  auto st = op.getStrides(), pads = op.getPads(), dil = op.getDilations(),
       outPad = op.getOutputPadding();
  int64_t groups = op.getGroups();
  int64_t N = xs[0], C = xs[1], H = xs[2], W = xs[3];
  int64_t Og = ws[1], KH = ws[2], KW = ws[3], Cg = C / groups, O = Og * groups;
  // Equivalent direct convolution: pads d*(k-1) - p, end pads + output_padding.
  int64_t pb[2], pe[2];
  for (int i = 0; i < 2; ++i) {
    int64_t full = dil[i] * ((i ? KW : KH) - 1);
    pb[i] = full - pads[i];
    pe[i] = full - pads[i + 2] + outPad[i];
    if (pb[i] < 0 || pe[i] < 0)
      return op.emitOpError("pads larger than dilation * (kernel - 1) are not "
                            "supported");
  }
  int64_t Hz = (H - 1) * st[0] + 1 + pb[0] + pe[0];
  int64_t Wz = (W - 1) * st[1] + 1 + pb[1] + pe[1];
  uint64_t xz = allocate(N * C * Hz * Wz); // zeroed DRAM
  emitCopyLayer(sb_, {N * C, H, W},
                View{bufferFor(op.getInput()), {H * W, W, 1}},
                View{xz + uint64_t((pb[0] * Wz + pb[1]) * 4),
                     {Hz * Wz, st[0] * Wz, st[1]}});
  // w'[g*Og + o][c][kh][kw] = w[g*Cg + c][o][KH-1-kh][KW-1-kw].
  uint64_t wf = allocate(O * Cg * KH * KW);
  View src{bufferFor(op.getWeight()) + uint64_t(((KH - 1) * KW + KW - 1) * 4),
           {Cg * Og * KH * KW, KH * KW, Og * KH * KW, -KW, -1}};
  emitCopyLayer(sb_, {groups, Og, Cg, KH, KW}, src,
                View{wf, denseStrides({groups, Og, Cg, KH, KW})});
  // Lower a temporary conv2d over those buffers, then drop it.
  OpBuilder b(op);
  auto f32 = b.getF32Type();
  auto xzType = RankedTensorType::get({N, C, Hz, Wz}, f32);
  auto wfType = RankedTensorType::get({O, Cg, KH, KW}, f32);
  Value xzVal = tensor::EmptyOp::create(b, op.getLoc(), xzType.getShape(), f32);
  Value wfVal = tensor::EmptyOp::create(b, op.getLoc(), wfType.getShape(), f32);
  addr_[xzVal] = xz;
  addr_[wfVal] = wf;
  auto conv = graph::Conv2DOp::create(
      b, op.getLoc(), op.getResult().getType(), xzVal, wfVal, op.getBias(),
      b.getDenseI64ArrayAttr({1, 1}), b.getDenseI64ArrayAttr({0, 0, 0, 0}),
      b.getDenseI64ArrayAttr({dil[0], dil[1]}), b.getI64IntegerAttr(groups));
  addr_[conv.getResult()] = bufferFor(op.getResult());
  LogicalResult r = lowerConv(conv);
  conv.erase();
  xzVal.getDefiningOp()->erase();
  wfVal.getDefiningOp()->erase();
  (void)os;
  return r;
}
