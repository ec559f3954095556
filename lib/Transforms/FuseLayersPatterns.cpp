//===- FuseLayersPatterns.cpp - Graph rewrites of fuse-layers -------------===//
//
// Three local rewrites, each one pattern for the greedy driver:
// - x * hard_sigmoid(x) (alpha 1/6, beta 1/2) -> graph.unary hard_swish, the
//   exporters' spelling of HardSwish, so the epilogue applies it in one step;
// - conv2d(pad(x, 0)) -> conv2d(x) with the pad's spatial amounts added to
//   the conv's pads (the pad layer and its DRAM copy disappear);
// - conv2d(x * s) with a per-channel s ([1, C, 1, 1]) computed from a global
//   average pool of x (squeeze-and-excite) -> conv2d(x, w * s):
//   the squeeze-and-excite scale multiplies the (small) weights instead of
//   the (large) feature map. Exact up to rounding: sum_c w[o,c] (s[c] x[c])
//   = sum_c (w[o,c] s[c]) x[c], and the zero padding stays zero.
//
//===----------------------------------------------------------------------===//
#include "FuseLayers.h"
#include "Graph/GraphDialect.h"
#include "mlir/IR/Matchers.h"
#include <cmath>

using namespace mlir;
using namespace accel;
using namespace accel::graph;

namespace {
ArrayRef<int64_t> shapeOf(Value v) {
  return cast<RankedTensorType>(v.getType()).getShape();
}

int64_t numElements(ArrayRef<int64_t> shape) {
  int64_t n = 1;
  for (int64_t d : shape)
    n *= d;
  return n;
}

/// x * hard_sigmoid(x) -> hard_swish(x).
struct HardSwishIdiom : OpRewritePattern<BinaryOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(BinaryOp mul,
                                PatternRewriter &rw) const override {
    if (mul.getFn() != BinaryFn::mul || mul.getLhs() == mul.getRhs())
      return failure();
    for (auto [x, other] : {std::pair(mul.getLhs(), mul.getRhs()),
                            std::pair(mul.getRhs(), mul.getLhs())}) {
      auto hs = other.getDefiningOp<UnaryOp>();
      if (!hs || hs.getFn() != UnaryFn::hard_sigmoid || hs.getInput() != x ||
          !hs.getResult().hasOneUse() || x.getType() != mul.getType())
        continue;
      float a = hs.getAlpha().convertToFloat(),
            b = hs.getBeta().convertToFloat();
      if (std::fabs(a - 1.0f / 6.0f) > 1e-6f || b != 0.5f)
        continue;
      Location loc = rw.getFusedLoc({hs.getLoc(), mul.getLoc()});
      auto swish = UnaryOp::create(rw, loc, mul.getType(), UnaryFn::hard_swish,
                                   x, llvm::APFloat(0.0f), llvm::APFloat(0.0f));
      rw.replaceOp(mul, swish.getResult());
      rw.eraseOp(hs);
      return success();
    }
    return failure();
  }
};

/// conv2d(pad(x)) with a constant-zero pad of H and W only.
struct FoldPadIntoConv : OpRewritePattern<Conv2DOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(Conv2DOp conv,
                                PatternRewriter &rw) const override {
    auto pad = conv.getInput().getDefiningOp<PadOp>();
    if (!pad || pad.getMode() != PadMode::constant ||
        !pad.getValue().isZero() || !pad.getResult().hasOneUse())
      return rw.notifyMatchFailure(conv, "input is not a single-use zero pad");
    ArrayRef<int64_t> p = pad.getPads();
    if (p.size() != 8 || p[0] || p[1] || p[4] || p[5] ||
        llvm::any_of(p, [](int64_t v) { return v < 0; }))
      return rw.notifyMatchFailure(conv, "pad is not spatial and >= 0");
    ArrayRef<int64_t> cp = conv.getPads();
    SmallVector<int64_t> pads{cp[0] + p[2], cp[1] + p[3], cp[2] + p[6],
                              cp[3] + p[7]};
    fuse::FusionFields f = fuse::fusionFields(conv);
    if (!f.pad.empty())
      return rw.notifyMatchFailure(conv, "a pad is folded already");
    f.pad = fuse::layerName(pad);
    rw.modifyOpInPlace(conv, [&] {
      conv.getInputMutable().assign(pad.getInput());
      conv.setPads(pads);
      fuse::setFusion(conv, f);
    });
    rw.eraseOp(pad);
    return success();
  }
};

/// Whether `s` is computed from a global average of `x` (through ops with
/// a single tensor operand that is not a constant: convs, FCs, activations).
bool squeezesFrom(Value s, Value x, int depth = 12) {
  for (; depth > 0; --depth) {
    Operation *def = s.getDefiningOp();
    if (!def)
      return false;
    if (auto p = dyn_cast<Pool2DOp>(def)) {
      ArrayRef<int64_t> in = shapeOf(p.getInput()), k = p.getKernel();
      return p.getInput() == x && p.getKind() == PoolKind::avg &&
             in.size() == 4 && k.size() == 2 && k[0] == in[2] && k[1] == in[3];
    }
    if (auto r = dyn_cast<ReduceOp>(def))
      return r.getInput() == x && r.getFn() == ReduceFn::mean &&
             r.getAxes() == ArrayRef<int64_t>{2, 3};
    Value next;
    for (Value operand : def->getOperands()) {
      if (matchPattern(operand, m_Constant()))
        continue;
      if (next)
        return false; // two runtime operands: not a squeeze path
      next = operand;
    }
    if (!next)
      return false;
    s = next;
  }
  return false;
}

/// conv2d(x * s) with s a squeeze-and-excite scale of x -> conv2d(x, w * s).
struct FoldChannelScaleIntoConv : OpRewritePattern<Conv2DOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(Conv2DOp conv,
                                PatternRewriter &rw) const override {
    auto mul = conv.getInput().getDefiningOp<BinaryOp>();
    if (!mul || mul.getFn() != BinaryFn::mul || !mul.getResult().hasOneUse())
      return rw.notifyMatchFailure(conv, "input is not a single-use mul");
    ArrayRef<int64_t> xs = shapeOf(conv.getInput()),
                      ws = shapeOf(conv.getWeight());
    if (xs.size() != 4 || xs[0] != 1)
      return rw.notifyMatchFailure(conv,
                                   "batch 1 only (one scale per channel)");
    int64_t C = xs[1], groups = conv.getGroups();
    bool depthwise = groups == C && ws[0] == C && ws[1] == 1;
    if (groups != 1 && !depthwise)
      return rw.notifyMatchFailure(conv, "grouped conv");
    // Scaling the weights reads and writes every weight once more (the conv
    // then reads the scaled copy); scaling the map does the same with the
    // map. Late MobileNet blocks (960 x 7 x 7 maps, 160 x 960 projections)
    // have more weights than map: there the mul stays an elementwise layer.
    if (numElements(ws) > numElements(xs))
      return rw.notifyMatchFailure(
          conv, "more weights than feature map: the map is cheaper to scale");
    for (auto [x, s] : {std::pair(mul.getLhs(), mul.getRhs()),
                        std::pair(mul.getRhs(), mul.getLhs())}) {
      ArrayRef<int64_t> ss = shapeOf(s);
      if (x.getType() != mul.getType() || ss.size() > 4 || ss.size() < 3 ||
          ss[ss.size() - 3] != C || ss[ss.size() - 2] != 1 || ss.back() != 1 ||
          (ss.size() == 4 && ss[0] != 1))
        continue;
      // Only a recognised squeeze-and-excite (the rewrite itself holds for
      // any per-channel scale).
      if (!squeezesFrom(s, x))
        continue;
      auto f32 = rw.getF32Type();
      // Scale shaped to multiply the weights: [1, C, 1, 1] for groups 1
      // (input channel = weight dim 1), [C, 1, 1, 1] for depthwise.
      SmallVector<int64_t> scaleShape = depthwise
                                            ? SmallVector<int64_t>{C, 1, 1, 1}
                                            : SmallVector<int64_t>{1, C, 1, 1};
      Value scale = s;
      if (ArrayRef<int64_t>(scaleShape) != ss)
        scale = ReshapeOp::create(rw, mul.getLoc(),
                                  RankedTensorType::get(scaleShape, f32), s);
      Value w = BinaryOp::create(rw, mul.getLoc(), conv.getWeight().getType(),
                                 BinaryFn::mul, conv.getWeight(), scale);
      fuse::FusionFields f = fuse::fusionFields(conv);
      if (!f.squeezeExcite.empty())
        return rw.notifyMatchFailure(conv, "a scale is folded already");
      f.squeezeExcite = fuse::layerName(mul);
      rw.modifyOpInPlace(conv, [&] {
        conv.getInputMutable().assign(x);
        conv.getWeightMutable().assign(w);
        fuse::setFusion(conv, f);
      });
      rw.eraseOp(mul);
      return success();
    }
    return rw.notifyMatchFailure(conv, "no per-channel scale operand");
  }
};
} // namespace

void fuse::populateFusePatterns(RewritePatternSet &patterns, bool activations,
                                bool pad, bool squeezeExcite) {
  MLIRContext *ctx = patterns.getContext();
  if (activations)
    patterns.add<HardSwishIdiom>(ctx);
  if (pad)
    patterns.add<FoldPadIntoConv>(ctx);
  if (squeezeExcite)
    patterns.add<FoldChannelScaleIntoConv>(ctx);
}
