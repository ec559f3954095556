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

/// An elementwise binary op (graph.add, graph.binary) one of whose operands
/// is a graph.broadcast, directly or through a graph.reshape, reads the
/// broadcast's input with zero strides instead of a broadcast copy: the op
/// runs on the broadcast's shape with numpy broadcasting, its other operand
/// and its result reshaped to and from it (reshapes are free: aliases).
/// That is how a nearest upsampling by whole factors (Resize, imported as
/// reshape -> broadcast -> reshape) becomes addressing in the op that reads
/// it (docs/operators.md, "Resize"). Only when the other operand already
/// has the result's shape, so that the op's iteration space does not grow.
template <typename OpT>
struct BroadcastOperandAsAddressing : OpRewritePattern<OpT> {
  using OpRewritePattern<OpT>::OpRewritePattern;
  LogicalResult matchAndRewrite(OpT op, PatternRewriter &rw) const override {
    auto resTy = dyn_cast<RankedTensorType>(op.getType());
    if (!resTy || !resTy.hasStaticShape() || !isF32Tensor(resTy))
      return failure();
    for (unsigned i : {0u, 1u}) {
      Value operand = op->getOperand(i), other = op->getOperand(1 - i);
      if (operand.getType() != resTy || other.getType() != resTy)
        continue;
      Value v = operand;
      if (auto r = v.getDefiningOp<ReshapeOp>())
        v = r.getInput();
      auto bc = v.getDefiningOp<BroadcastOp>();
      if (!bc)
        continue;
      auto bTy = cast<RankedTensorType>(bc.getType());
      auto zTy = cast<RankedTensorType>(bc.getInput().getType());
      std::string why;
      std::optional<SmallVector<int64_t>> joint =
          broadcastShapes(zTy.getShape(), bTy.getShape(), why);
      if (!bTy.hasStaticShape() || !zTy.hasStaticShape() || !isF32Tensor(bTy) ||
          bTy.getNumElements() != resTy.getNumElements() || !joint ||
          ArrayRef<int64_t>(*joint) != bTy.getShape())
        continue;
      Location loc = op.getLoc();
      Value x = other;
      if (bTy != resTy)
        x = ReshapeOp::create(rw, loc, bTy, other);
      Operation *wide = rw.clone(*op);
      wide->setOperand(i, bc.getInput());
      wide->setOperand(1 - i, x);
      wide->getResult(0).setType(bTy);
      Value out = wide->getResult(0);
      if (bTy != resTy)
        out = ReshapeOp::create(rw, loc, resTy, out);
      rw.replaceOp(op, out);
      return success();
    }
    return failure();
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
  patterns.add<BinaryAddToAdd, BinaryMaxZeroToRelu,
               BroadcastOperandAsAddressing<BinaryOp>>(ctx);
}

void AddOp::getCanonicalizationPatterns(RewritePatternSet &patterns,
                                        MLIRContext *ctx) {
  patterns.add<BroadcastOperandAsAddressing<AddOp>>(ctx);
}

void UnaryOp::getCanonicalizationPatterns(RewritePatternSet &patterns,
                                          MLIRContext *ctx) {
  patterns.add<UnaryToRelu>(ctx);
}

void TransposeOp::getCanonicalizationPatterns(RewritePatternSet &patterns,
                                              MLIRContext *ctx) {
  patterns.add<TransposeOfUnitDimsToReshape>(ctx);
}
