//===- FoldBatchNorm.cpp - batch_norm(conv) -> conv -----------------------===//
//
// Inference batch normalisation after a convolution is a per-output-channel
// affine map, so it folds into the convolution's weights and bias at compile
// time when all of them are constants (the usual case for imported models).
// conv2d weights [O, C/g, KH, KW] scale along axis 0, conv_transpose2d
// weights [C, O/g, KH, KW] along axis 1.
//
//===----------------------------------------------------------------------===//
#include "Graph/GraphDialect.h"
#include "accel/Transforms/Passes.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include <cmath>

namespace accel {
#define GEN_PASS_DEF_FOLDBATCHNORM
#include "accel/Transforms/Passes.h.inc"
} // namespace accel

using namespace mlir;
using namespace accel;

namespace {
/// The f32 values of a constant tensor, or false.
bool constantValues(Value v, std::vector<float> &out) {
  auto c = v.getDefiningOp<arith::ConstantOp>();
  auto dense = c ? dyn_cast<DenseElementsAttr>(c.getValue()) : nullptr;
  if (!dense || !dense.getElementType().isF32())
    return false;
  // The raw f32 storage, not one APFloat per element (weights are large).
  auto values = dense.getValues<float>();
  out.assign(values.begin(), values.end());
  return true;
}

struct FoldIntoConv : OpRewritePattern<graph::BatchNormOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(graph::BatchNormOp bn,
                                PatternRewriter &rewriter) const override {
    auto conv = bn.getInput().getDefiningOp<graph::Conv2DOp>();
    if (!conv || !conv.getResult().hasOneUse())
      return rewriter.notifyMatchFailure(bn,
                                         "input is not a single-use conv2d");
    std::vector<float> w, b, scale, bias, mean, var;
    if (!constantValues(conv.getWeight(), w) ||
        (conv.getBias() && !constantValues(conv.getBias(), b)) ||
        !constantValues(bn.getScale(), scale) ||
        !constantValues(bn.getBias(), bias) ||
        !constantValues(bn.getMean(), mean) ||
        !constantValues(bn.getVariance(), var))
      return rewriter.notifyMatchFailure(bn, "operands are not constants");
    size_t channels = scale.size(), perChannel = w.size() / channels;
    if (b.empty())
      b.assign(channels, 0.0f);
    float eps = bn.getEpsilon().convertToFloat();
    std::vector<float> newB(channels);
    for (size_t o = 0; o < channels; ++o) {
      float a = scale[o] / std::sqrt(var[o] + eps);
      for (size_t i = 0; i < perChannel; ++i)
        w[o * perChannel + i] *= a;
      newB[o] = (b[o] - mean[o]) * a + bias[o];
    }
    // The folded conv is both source operators: a FusedLoc, the conv's name
    // first (the layer table names the layer by it and lists the batch
    // norm as fused, docs/passes.md "Layer table").
    Location loc = rewriter.getFusedLoc({conv.getLoc(), bn.getLoc()});
    auto wType = cast<RankedTensorType>(conv.getWeight().getType());
    auto bType =
        RankedTensorType::get({int64_t(channels)}, rewriter.getF32Type());
    Value newW = arith::ConstantOp::create(
        rewriter, loc, DenseElementsAttr::get(wType, llvm::ArrayRef(w)));
    Value newBias = arith::ConstantOp::create(
        rewriter, loc, DenseElementsAttr::get(bType, llvm::ArrayRef(newB)));
    auto folded = graph::Conv2DOp::create(
        rewriter, loc, bn.getResult().getType(), conv.getInput(), newW, newBias,
        conv.getStridesAttr(), conv.getPadsAttr(), conv.getDilationsAttr(),
        conv.getGroupsAttr());
    // Keep analysis attributes (e.g. accel.tiling) of the convolution.
    for (NamedAttribute attr : conv->getDiscardableAttrs())
      folded->setAttr(attr.getName(), attr.getValue());
    rewriter.replaceOp(bn, folded.getResult());
    rewriter.eraseOp(conv);
    return success();
  }
};

/// batch_norm(conv_transpose2d): the weight is [C, O/g, KH, KW], so output
/// channel g*(O/g) + o scales the slices w[c, o] of every input channel c of
/// group g (axis 1, not axis 0 as for conv2d).
struct FoldIntoConvTranspose : OpRewritePattern<graph::BatchNormOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(graph::BatchNormOp bn,
                                PatternRewriter &rewriter) const override {
    auto conv = bn.getInput().getDefiningOp<graph::ConvTranspose2DOp>();
    if (!conv || !conv.getResult().hasOneUse())
      return rewriter.notifyMatchFailure(
          bn, "input is not a single-use conv_transpose2d");
    std::vector<float> w, b, scale, bias, mean, var;
    if (!constantValues(conv.getWeight(), w) ||
        (conv.getBias() && !constantValues(conv.getBias(), b)) ||
        !constantValues(bn.getScale(), scale) ||
        !constantValues(bn.getBias(), bias) ||
        !constantValues(bn.getMean(), mean) ||
        !constantValues(bn.getVariance(), var))
      return rewriter.notifyMatchFailure(bn, "operands are not constants");
    auto wType = cast<RankedTensorType>(conv.getWeight().getType());
    ArrayRef<int64_t> ws = wType.getShape();
    int64_t groups = conv.getGroups();
    if (ws.size() != 4 || groups < 1 || ws[0] % groups)
      return rewriter.notifyMatchFailure(bn, "unexpected weight shape");
    size_t C = size_t(ws[0]), Og = size_t(ws[1]), taps = size_t(ws[2] * ws[3]),
           Cg = C / size_t(groups);
    size_t channels = Og * size_t(groups);
    if (scale.size() != channels || bias.size() != channels ||
        mean.size() != channels || var.size() != channels ||
        (!b.empty() && b.size() != channels))
      return rewriter.notifyMatchFailure(bn, "channel counts differ");
    if (b.empty())
      b.assign(channels, 0.0f);
    float eps = bn.getEpsilon().convertToFloat();
    std::vector<float> a(channels), newB(channels);
    for (size_t o = 0; o < channels; ++o) {
      a[o] = scale[o] / std::sqrt(var[o] + eps);
      newB[o] = (b[o] - mean[o]) * a[o] + bias[o];
    }
    for (size_t c = 0; c < C; ++c)
      for (size_t o = 0; o < Og; ++o) {
        float f = a[(c / Cg) * Og + o];
        for (size_t t = 0; t < taps; ++t)
          w[(c * Og + o) * taps + t] *= f;
      }
    Location loc = rewriter.getFusedLoc({conv.getLoc(), bn.getLoc()});
    auto bType =
        RankedTensorType::get({int64_t(channels)}, rewriter.getF32Type());
    Value newW = arith::ConstantOp::create(
        rewriter, loc, DenseElementsAttr::get(wType, llvm::ArrayRef(w)));
    Value newBias = arith::ConstantOp::create(
        rewriter, loc, DenseElementsAttr::get(bType, llvm::ArrayRef(newB)));
    auto folded = graph::ConvTranspose2DOp::create(
        rewriter, loc, bn.getResult().getType(), conv.getInput(), newW, newBias,
        conv.getStridesAttr(), conv.getPadsAttr(), conv.getDilationsAttr(),
        conv.getOutputPaddingAttr(), conv.getGroupsAttr());
    for (NamedAttribute attr : conv->getDiscardableAttrs())
      folded->setAttr(attr.getName(), attr.getValue());
    rewriter.replaceOp(bn, folded.getResult());
    rewriter.eraseOp(conv);
    return success();
  }
};

struct FoldBatchNormPass
    : public accel::impl::FoldBatchNormBase<FoldBatchNormPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<FoldIntoConv, FoldIntoConvTranspose>(&getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace
