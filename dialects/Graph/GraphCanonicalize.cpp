//===- GraphCanonicalize.cpp - Graph canonicalisation patterns ------------===//
//
// Rewrites that create ops (the folders in GraphFolds.cpp only return values
// that already exist or constants). One small pattern each.
//
//===----------------------------------------------------------------------===//
#include "Graph/GraphDialect.h"
#include "Graph/GraphPatterns.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

using namespace mlir;
using namespace accel::graph;

namespace {
bool isF32Tensor(Type t) {
  auto rt = dyn_cast<RankedTensorType>(t);
  return rt && rt.getElementType().isF32();
}

/// Replaces `op` by a graph.relu of `input`, keeping discardable attributes
/// (labels, tiling decisions) the analysis passes may have attached.
/// The attributes are read before the replacement erases `op`.
void replaceWithRelu(PatternRewriter &rw, Operation *op, Value input) {
  DictionaryAttr attrs = op->getDiscardableAttrDictionary();
  auto relu =
      rw.replaceOpWithNewOp<ReluOp>(op, op->getResult(0).getType(), input);
  relu->setDiscardableAttrs(attrs);
}

/// graph.binary add on f32 -> graph.add (same broadcasting rule).
struct BinaryAddToAdd : OpRewritePattern<BinaryOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(BinaryOp op,
                                PatternRewriter &rw) const override {
    if (op.getFn() != BinaryFn::add || !isF32Tensor(op.getLhs().getType()) ||
        !isF32Tensor(op.getRhs().getType()) || !isF32Tensor(op.getType()))
      return failure();
    DictionaryAttr attrs = op->getDiscardableAttrDictionary(); // op is erased
    auto add = rw.replaceOpWithNewOp<AddOp>(op, op.getType(), op.getLhs(),
                                            op.getRhs());
    add->setDiscardableAttrs(attrs);
    return success();
  }
};

/// graph.binary max(x, 0) / max(0, x) with a zero splat that does not widen
/// x -> graph.relu x.
struct BinaryMaxZeroToRelu : OpRewritePattern<BinaryOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(BinaryOp op,
                                PatternRewriter &rw) const override {
    if (op.getFn() != BinaryFn::max || !isF32Tensor(op.getType()))
      return failure();
    for (auto [x, other] : {std::pair(op.getLhs(), op.getRhs()),
                            std::pair(op.getRhs(), op.getLhs())}) {
      if (x.getType() == op.getType() &&
          matchPattern(other, m_AnyZeroFloat())) {
        replaceWithRelu(rw, op, x);
        return success();
      }
    }
    return failure();
  }
};

/// graph.unary relu, and graph.unary clip with bounds [0, +inf] -> graph.relu
/// (a finite upper bound changes +inf inputs, so such a clip stays a clip).
struct UnaryToRelu : OpRewritePattern<UnaryOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(UnaryOp op,
                                PatternRewriter &rw) const override {
    bool clipToInf = op.getFn() == UnaryFn::clip && op.getAlpha().isZero() &&
                     op.getBeta().isInfinity() && !op.getBeta().isNegative();
    if (op.getFn() != UnaryFn::relu && !clipToInf)
      return failure();
    replaceWithRelu(rw, op, op.getInput());
    return success();
  }
};

/// A transpose that keeps the order of the non-unit dimensions only moves
/// size-1 dimensions: the same row-major data, so a (free) reshape.
struct TransposeOfUnitDimsToReshape : OpRewritePattern<TransposeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(TransposeOp op,
                                PatternRewriter &rw) const override {
    auto inTy = cast<RankedTensorType>(op.getInput().getType());
    if (!inTy.hasStaticShape())
      return failure();
    int64_t last = -1;
    for (int64_t p : op.getPerm()) {
      if (inTy.getDimSize(p) == 1)
        continue;
      if (p < last)
        return failure();
      last = p;
    }
    rw.replaceOpWithNewOp<ReshapeOp>(op, op.getType(), op.getInput());
    return success();
  }
};
} // namespace

void accel::graph::populateCanonicalSpellingPatterns(
    RewritePatternSet &patterns) {
  patterns.add<BinaryAddToAdd, BinaryMaxZeroToRelu, UnaryToRelu>(
      patterns.getContext());
}

LogicalResult accel::graph::applyCanonicalSpellings(Operation *root) {
  RewritePatternSet patterns(root->getContext());
  populateCanonicalSpellingPatterns(patterns);
  GreedyRewriteConfig config;
  config.enableFolding(false)
      .enableConstantCSE(false)
      .setRegionSimplificationLevel(GreedySimplifyRegionLevel::Disabled);
  return applyPatternsGreedily(root, std::move(patterns), config);
}

void BinaryOp::getCanonicalizationPatterns(RewritePatternSet &patterns,
                                           MLIRContext *ctx) {
  patterns.add<BinaryAddToAdd, BinaryMaxZeroToRelu>(ctx);
}

void UnaryOp::getCanonicalizationPatterns(RewritePatternSet &patterns,
                                          MLIRContext *ctx) {
  patterns.add<UnaryToRelu>(ctx);
}

void TransposeOp::getCanonicalizationPatterns(RewritePatternSet &patterns,
                                              MLIRContext *ctx) {
  patterns.add<TransposeOfUnitDimsToReshape>(ctx);
}
