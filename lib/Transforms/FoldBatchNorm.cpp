//===- FoldBatchNorm.cpp - batch_norm(conv) -> conv -----------------------===//
//
// Inference batch normalisation after a convolution is a per-output-channel
// affine map, so it folds into the convolution's weights and bias at compile
// time when all of them are constants (the usual case for imported models).
// conv2d weights [O, C/g, KH, KW] scale along axis 0, conv_transpose2d
// weights [C, O/g, KH, KW] along axis 1.
//
//===----------------------------------------------------------------------===//
#include "ConstantValues.h"
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
/// Batch norm after a convolution with constant operands: the weights, the
/// per-channel factor a = scale / sqrt(var + eps) and the folded bias
/// (b - mean) * a + beta (b = 0 without a conv bias).
struct Folding {
  std::vector<float> w, a, bias;
};

/// Reads the constants of `bn` and of its convolution (`weight`, `convBias`
/// or null) for `channels` output channels (0: as many as bn's scale);
/// null on success, else why the pattern does not apply.
const char *readFolding(graph::BatchNormOp bn, Value weight, Value convBias,
                        size_t channels, Folding &f) {
  std::vector<float> b, scale, beta, mean, var;
  if (!constantF32Values(weight, f.w) ||
      (convBias && !constantF32Values(convBias, b)) ||
      !constantF32Values(bn.getScale(), scale) ||
      !constantF32Values(bn.getBias(), beta) ||
      !constantF32Values(bn.getMean(), mean) ||
      !constantF32Values(bn.getVariance(), var))
    return "operands are not constants";
  if (channels == 0)
    channels = scale.size();
  if (scale.size() != channels || beta.size() != channels ||
      mean.size() != channels || var.size() != channels ||
      (!b.empty() && b.size() != channels))
    return "channel counts differ";
  if (b.empty())
    b.assign(channels, 0.0f);
  float eps = bn.getEpsilon().convertToFloat();
  f.a.resize(channels);
  f.bias.resize(channels);
  for (size_t o = 0; o < channels; ++o) {
    f.a[o] = scale[o] / std::sqrt(var[o] + eps);
    f.bias[o] = (b[o] - mean[o]) * f.a[o] + beta[o];
  }
  return nullptr;
}

/// Replaces `bn` by the op `build` makes from the folded constants and
/// erases `conv`. The folded op is both source operators: a FusedLoc, the
/// conv's name first (the layer table names the layer by it and lists the
/// batch norm as fused, docs/passes.md "Layer table"); it keeps the conv's
/// analysis attributes (e.g. accel.tiling).
template <typename ConvOp, typename Build>
LogicalResult replaceFolded(PatternRewriter &rewriter, graph::BatchNormOp bn,
                            ConvOp conv, const Folding &f, Build build) {
  Location loc = rewriter.getFusedLoc({conv.getLoc(), bn.getLoc()});
  auto wType = cast<RankedTensorType>(conv.getWeight().getType());
  auto bType =
      RankedTensorType::get({int64_t(f.bias.size())}, rewriter.getF32Type());
  Value newW = arith::ConstantOp::create(
      rewriter, loc, DenseElementsAttr::get(wType, llvm::ArrayRef(f.w)));
  Value newBias = arith::ConstantOp::create(
      rewriter, loc, DenseElementsAttr::get(bType, llvm::ArrayRef(f.bias)));
  ConvOp folded = build(loc, newW, newBias);
  for (NamedAttribute attr : conv->getDiscardableAttrs())
    folded->setAttr(attr.getName(), attr.getValue());
  rewriter.replaceOp(bn, folded.getResult());
  rewriter.eraseOp(conv);
  return success();
}

struct FoldIntoConv : OpRewritePattern<graph::BatchNormOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(graph::BatchNormOp bn,
                                PatternRewriter &rewriter) const override {
    auto conv = bn.getInput().getDefiningOp<graph::Conv2DOp>();
    if (!conv || !conv.getResult().hasOneUse())
      return rewriter.notifyMatchFailure(bn,
                                         "input is not a single-use conv2d");
    Folding f;
    if (const char *why =
            readFolding(bn, conv.getWeight(), conv.getBias(), 0, f))
      return rewriter.notifyMatchFailure(bn, why);
    // Weights [O, C/g, KH, KW]: output channel o scales its slice.
    const size_t channels = f.a.size(), perChannel = f.w.size() / channels;
    for (size_t o = 0; o < channels; ++o)
      for (size_t i = 0; i < perChannel; ++i)
        f.w[o * perChannel + i] *= f.a[o];
    return replaceFolded(
        rewriter, bn, conv, f, [&](Location loc, Value w, Value b) {
          return graph::Conv2DOp::create(
              rewriter, loc, bn.getResult().getType(), conv.getInput(), w, b,
              conv.getStridesAttr(), conv.getPadsAttr(),
              conv.getDilationsAttr(), conv.getGroupsAttr());
        });
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
    ArrayRef<int64_t> ws =
        cast<RankedTensorType>(conv.getWeight().getType()).getShape();
    int64_t groups = conv.getGroups();
    if (ws.size() != 4 || groups < 1 || ws[0] % groups)
      return rewriter.notifyMatchFailure(bn, "unexpected weight shape");
    size_t C = size_t(ws[0]), Og = size_t(ws[1]), taps = size_t(ws[2] * ws[3]),
           Cg = C / size_t(groups);
    Folding f;
    if (const char *why = readFolding(bn, conv.getWeight(), conv.getBias(),
                                      Og * size_t(groups), f))
      return rewriter.notifyMatchFailure(bn, why);
    for (size_t c = 0; c < C; ++c)
      for (size_t o = 0; o < Og; ++o) {
        float a = f.a[(c / Cg) * Og + o];
        for (size_t t = 0; t < taps; ++t)
          f.w[(c * Og + o) * taps + t] *= a;
      }
    return replaceFolded(
        rewriter, bn, conv, f, [&](Location loc, Value w, Value b) {
          return graph::ConvTranspose2DOp::create(
              rewriter, loc, bn.getResult().getType(), conv.getInput(), w, b,
              conv.getStridesAttr(), conv.getPadsAttr(),
              conv.getDilationsAttr(), conv.getOutputPaddingAttr(),
              conv.getGroupsAttr());
        });
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
