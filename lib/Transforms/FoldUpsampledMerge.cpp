//===- FoldUpsampledMerge.cpp - conv(1x1 conv + upsample) by phases -------===//
//
// A feature pyramid merges its levels top-down: the finer level's 1 x 1
// lateral convolution plus the coarser level upsampled by nearest
// neighbour, then a 3 x 3 smoothing convolution. At the finest level the
// merged map (and the upsampled one) exist only for that convolution, yet
// they are the largest maps of the neck (the FPN detector: 26 MB each at
// 160 x 160 x 256). Both maps are linear in their inputs, so the smoothing
// convolution distributes over the sum: its part of the lateral branch is
// one convolution with composed weights, and its part of the upsampled
// branch runs per sub-pixel phase on the coarse map (accel/Tiling/
// SubPixel.h). Neither map is then written.
//
//===----------------------------------------------------------------------===//
#include "ConstantValues.h"
#include "DepthFirstShared.h"
#include "FuseLayers.h"
#include "Graph/GraphDialect.h"
#include "accel/Tiling/SubPixel.h"
#include "accel/Transforms/Passes.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace accel {
#define GEN_PASS_DEF_FOLDUPSAMPLEDMERGE
#include "accel/Transforms/Passes.h.inc"
} // namespace accel

using namespace mlir;
using namespace accel;

namespace {

ArrayRef<int64_t> shapeOf(Value v) {
  return cast<RankedTensorType>(v.getType()).getShape();
}

/// A 1 x 1 convolution with constant weights [M, C] and bias (empty when
/// it has none or an all-zero one) whose result has one user.
bool matchPointwise(Value v, graph::Conv2DOp &conv, std::vector<float> &weights,
                    std::vector<float> &bias) {
  conv = v.getDefiningOp<graph::Conv2DOp>();
  if (!conv || !conv.getResult().hasOneUse() || conv.getGroups() != 1 ||
      llvm::any_of(conv.getStrides(), [](int64_t s) { return s != 1; }) ||
      llvm::any_of(conv.getPads(), [](int64_t p) { return p != 0; }) ||
      !conv->getDiscardableAttrs().empty())
    return false;
  ArrayRef<int64_t> ws = shapeOf(conv.getWeight());
  if (ws[2] != 1 || ws[3] != 1 || !constantF32Values(conv.getWeight(), weights))
    return false;
  bias.clear();
  if (conv.getBias() && !constantF32Values(conv.getBias(), bias))
    return false;
  if (llvm::all_of(bias, [](float b) { return b == 0; }))
    bias.clear();
  return true;
}

/// A nearest-neighbour upsampling as the importer writes it:
/// reshape [N, C, H, W] -> [N, C, H, 1, W, 1], broadcast to
/// [N, C, H, sh, W, sw], reshape to [N, C, sh H, sw W].
struct Upsampling {
  Value source;
  int64_t sh = 1, sw = 1;
  /// The three ops, outermost first (the importer's Resize location).
  SmallVector<Operation *, 3> ops;
};
std::optional<Upsampling> matchUpsampling(Value v) {
  auto outer = v.getDefiningOp<graph::ReshapeOp>();
  auto bcast =
      outer ? outer.getInput().getDefiningOp<graph::BroadcastOp>() : nullptr;
  auto inner =
      bcast ? bcast.getInput().getDefiningOp<graph::ReshapeOp>() : nullptr;
  if (!inner)
    return std::nullopt;
  ArrayRef<int64_t> src = shapeOf(inner.getInput()), mid = shapeOf(inner),
                    wide = shapeOf(bcast), out = shapeOf(outer);
  if (src.size() != 4 || mid.size() != 6 || wide.size() != 6 || out.size() != 4)
    return std::nullopt;
  const int64_t N = src[0], C = src[1], H = src[2], W = src[3];
  if (mid != ArrayRef<int64_t>{N, C, H, 1, W, 1} || wide[0] != N ||
      wide[1] != C || wide[2] != H || wide[4] != W)
    return std::nullopt;
  Upsampling u{inner.getInput(), wide[3], wide[5], {outer, bcast, inner}};
  if (out != ArrayRef<int64_t>{N, C, u.sh * H, u.sw * W} ||
      (u.sh == 1 && u.sw == 1))
    return std::nullopt;
  return u;
}

/// conv_b's input as a merge: the 1 x 1 lateral convolution, the coarse
/// map (4-D [N, M, H, W], or 6-D [N, M, H, 1, W, 1]), the upsampling
/// factors and the ops the rewrite leaves unused, outermost first.
struct Merge {
  graph::Conv2DOp lateral;
  std::vector<float> wa, lateralBias;
  Value coarse;
  int64_t sh = 1, sw = 1;
  Location upLoc;
  SmallVector<Operation *> dead;
};

/// add(conv1x1(x), upsample(y)), either operand order: the importer's form.
std::optional<Merge> matchPlainMerge(Value in) {
  auto add = in.getDefiningOp<graph::AddOp>();
  if (!add || !add.getResult().hasOneUse())
    return std::nullopt;
  for (int side = 0; side < 2; ++side) {
    Value conv = side ? add.getRhs() : add.getLhs();
    Value other = side ? add.getLhs() : add.getRhs();
    graph::Conv2DOp lateral;
    std::vector<float> wa, bias;
    if (!matchPointwise(conv, lateral, wa, bias))
      continue;
    std::optional<Upsampling> up = matchUpsampling(other);
    if (!up)
      continue;
    Merge m{lateral, std::move(wa), std::move(bias),           up->source,
            up->sh,  up->sw,        up->ops.front()->getLoc(), {add, lateral}};
    m.dead.append(up->ops.begin(), up->ops.end());
    return m;
  }
  return std::nullopt;
}

/// reshape(add(reshape(conv1x1(x)) [N, M, H, sh, W, sw], y6 [N, M, H, 1,
/// W, 1])) to [N, M, sh H, sw W]: the canonicaliser's form of the same sum
/// (the upsampling as a broadcasting add).
std::optional<Merge> matchCanonicalMerge(Value in) {
  auto outer = in.getDefiningOp<graph::ReshapeOp>();
  auto add = outer ? outer.getInput().getDefiningOp<graph::AddOp>() : nullptr;
  if (!add || !outer.getResult().hasOneUse() || !add.getResult().hasOneUse())
    return std::nullopt;
  ArrayRef<int64_t> wide = shapeOf(add), out = shapeOf(outer);
  if (wide.size() != 6 || out.size() != 4)
    return std::nullopt;
  const int64_t N = wide[0], M = wide[1], H = wide[2], sh = wide[3],
                W = wide[4], sw = wide[5];
  if (out != ArrayRef<int64_t>{N, M, sh * H, sw * W} || (sh == 1 && sw == 1))
    return std::nullopt;
  for (int side = 0; side < 2; ++side) {
    auto split =
        (side ? add.getRhs() : add.getLhs()).getDefiningOp<graph::ReshapeOp>();
    Value coarse = side ? add.getLhs() : add.getRhs();
    graph::Conv2DOp lateral;
    std::vector<float> wa, bias;
    if (!split || !split.getResult().hasOneUse() || shapeOf(split) != wide ||
        shapeOf(coarse) != ArrayRef<int64_t>{N, M, H, 1, W, 1} ||
        !matchPointwise(split.getInput(), lateral, wa, bias))
      continue;
    Location upLoc = coarse.getDefiningOp() ? coarse.getDefiningOp()->getLoc()
                                            : add.getLoc();
    return Merge{lateral,
                 std::move(wa),
                 std::move(bias),
                 coarse,
                 sh,
                 sw,
                 upLoc,
                 {outer, add, split, lateral}};
  }
  return std::nullopt;
}

Value constantTensor(PatternRewriter &rewriter, Location loc,
                     ArrayRef<int64_t> shape, ArrayRef<float> values) {
  auto type = RankedTensorType::get(shape, rewriter.getF32Type());
  return arith::ConstantOp::create(rewriter, loc,
                                   DenseElementsAttr::get(type, values));
}

/// The sizes of one merge: images N, lateral input channels C, merged
/// channels M, output channels O, coarse H x W, conv_b's kernel KH x KW and
/// the upsampling factors.
struct Dims {
  int64_t N, C, M, O, H, W, KH, KW, sh, sw;
  int64_t phases() const { return sh * sw; }
  int64_t fine() const { return sh * H * sw * W; }
};

/// Why the rewrite does not pay, or null: it must save multiply-adds, and
/// its new weights (phase kernels + composed) must weigh less than the
/// merged map written and read once (a 3x3 conv over an 8x upsampling has
/// 64 phases of 2x2 taps, 28 times its weights).
const char *unprofitable(const Dims &d, const tiling::SubPixelAxis &rows,
                         const tiling::SubPixelAxis &cols) {
  const int64_t taps = rows.window * cols.window;
  const int64_t before = d.fine() * (d.C * d.M + d.KH * d.KW * d.M * d.O);
  const int64_t after = d.fine() * d.KH * d.KW * d.C * d.O +
                        d.phases() * d.H * d.W * taps * d.M * d.O;
  if (after >= before)
    return "no fewer multiply-adds";
  const int64_t kernelBytes =
      4 * (d.phases() * taps * d.M * d.O + d.KH * d.KW * d.C * d.O);
  if (kernelBytes >= 2 * 4 * d.N * d.fine() * d.M)
    return "the phase kernels outweigh the merged map";
  return nullptr;
}

/// conv_b over the upsampled branch: the coarse map (4-D, plus the lateral
/// bias when there is one), one convolution per sub-pixel phase (one
/// convolution of all phases would need per-phase slices of its result,
/// copies), the phases interleaved.
Value buildPhases(PatternRewriter &rw, graph::Conv2DOp convB, const Merge &m,
                  const Dims &d, const std::vector<float> &wb,
                  const tiling::SubPixelAxis &rows,
                  const tiling::SubPixelAxis &cols) {
  MLIRContext *ctx = rw.getContext();
  auto tensor = [&](ArrayRef<int64_t> s) {
    return RankedTensorType::get(s, rw.getF32Type());
  };
  Value coarse = m.coarse;
  if (shapeOf(coarse).size() == 6)
    coarse = graph::ReshapeOp::create(rw, FusedLoc::get(ctx, {m.upLoc}),
                                      tensor({d.N, d.M, d.H, d.W}), coarse);
  // The lateral convolution's bias moves to the coarse map: a per-channel
  // constant commutes with the upsampling, and added before conv_b's zero
  // padding it reaches the border exactly as in the merged map.
  if (!m.lateralBias.empty()) {
    Location biasLoc = m.lateral->getLoc();
    Value bias = constantTensor(rw, biasLoc, {1, d.M, 1, 1}, m.lateralBias);
    coarse = graph::AddOp::create(rw, biasLoc, tensor({d.N, d.M, d.H, d.W}),
                                  coarse, bias);
  }
  std::vector<float> k =
      tiling::subPixelKernels(wb, d.O, d.M, d.KH, d.KW, rows, cols);
  const int64_t R = rows.window, S = cols.window, perPhase = d.O * d.M * R * S;
  SmallVector<Value> parts;
  for (int64_t a = 0; a < d.sh; ++a)
    for (int64_t b = 0; b < d.sw; ++b) {
      Location loc = FusedLoc::get(
          ctx, {depthfirst::sliceLoc(convB, " [phase " + std::to_string(a) +
                                                "," + std::to_string(b) + "]"),
                m.upLoc});
      Value kernel = constantTensor(
          rw, loc, {d.O, d.M, R, S},
          ArrayRef<float>(k).slice(size_t((a * d.sw + b) * perPhase),
                                   size_t(perPhase)));
      // Phase a reads input rows q + offset[a] - padBefore + [0, R).
      const int64_t top = rows.padBefore - rows.offset[a],
                    left = cols.padBefore - cols.offset[b];
      parts.push_back(graph::Conv2DOp::create(
          rw, loc, tensor({d.N, d.O, d.H, d.W}), coarse, kernel, Value(),
          rw.getDenseI64ArrayAttr({1, 1}),
          rw.getDenseI64ArrayAttr({top, left, R - 1 - top, S - 1 - left}),
          rw.getDenseI64ArrayAttr({1, 1}), rw.getI64IntegerAttr(1)));
    }
  Location loc = FusedLoc::get(
      ctx, {NameLoc::get(StringAttr::get(ctx, fuse::layerName(convB) +
                                                  " [phases interleaved]"),
                         NameLoc::get(StringAttr::get(ctx, "DepthToSpace"))),
            m.upLoc});
  Value all = graph::ConcatOp::create(rw, loc,
                                      tensor({d.N, d.phases() * d.O, d.H, d.W}),
                                      parts, rw.getI64IntegerAttr(1));
  Value split = graph::ReshapeOp::create(
      rw, loc, tensor({d.N, d.sh, d.sw, d.O, d.H, d.W}), all);
  Value moved = graph::TransposeOp::create(
      rw, loc, tensor({d.N, d.O, d.H, d.sh, d.W, d.sw}), split,
      rw.getDenseI64ArrayAttr({0, 3, 4, 1, 5, 2}));
  return graph::ReshapeOp::create(rw, loc, convB.getResult().getType(), moved);
}

/// conv_b after the 1x1 as one convolution with composed weights, conv_b's
/// bias, pads and analysis attributes.
graph::Conv2DOp buildComposed(PatternRewriter &rw, graph::Conv2DOp convB,
                              const Merge &m, const Dims &d,
                              const std::vector<float> &wb) {
  Location loc =
      FusedLoc::get(rw.getContext(), {convB.getLoc(), m.lateral->getLoc(),
                                      m.dead.front()->getLoc()});
  Value wc = constantTensor(
      rw, loc, {d.O, d.C, d.KH, d.KW},
      tiling::composeAfterPointwise(wb, m.wa, d.O, d.M, d.C, d.KH, d.KW));
  auto composed = graph::Conv2DOp::create(
      rw, loc, convB.getResult().getType(),
      graph::Conv2DOp(m.lateral).getInput(), wc, convB.getBias(),
      convB.getStridesAttr(), convB.getPadsAttr(), convB.getDilationsAttr(),
      convB.getGroupsAttr());
  for (NamedAttribute attr : convB->getDiscardableAttrs())
    composed->setAttr(attr.getName(), attr.getValue());
  return composed;
}

struct FoldMergeIntoPhases : OpRewritePattern<graph::Conv2DOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(graph::Conv2DOp convB,
                                PatternRewriter &rewriter) const override {
    if (convB.getGroups() != 1 ||
        llvm::any_of(convB.getStrides(), [](int64_t s) { return s != 1; }) ||
        llvm::any_of(convB.getDilations(), [](int64_t d) { return d != 1; }))
      return rewriter.notifyMatchFailure(convB, "strided, dilated or grouped");
    std::optional<Merge> merge = matchPlainMerge(convB.getInput());
    if (!merge)
      merge = matchCanonicalMerge(convB.getInput());
    if (!merge)
      return rewriter.notifyMatchFailure(
          convB, "input is not a 1x1 convolution plus a nearest upsampling "
                 "that only it reads");
    std::vector<float> wb, bias;
    if (!constantF32Values(convB.getWeight(), wb) ||
        (convB.getBias() && !constantF32Values(convB.getBias(), bias)))
      return rewriter.notifyMatchFailure(convB, "weights are not constants");
    ArrayRef<int64_t> ws = shapeOf(convB.getWeight()),
                      xs = shapeOf(merge->lateral.getInput()),
                      ys = shapeOf(merge->coarse);
    const Dims d{
        ys[0], xs[1], ws[1],     ws[0],    ys[2], ys[ys.size() == 6 ? 4 : 3],
        ws[2], ws[3], merge->sh, merge->sw};
    ArrayRef<int64_t> pads = convB.getPads();
    tiling::SubPixelAxis rows, cols;
    if (!tiling::planSubPixelAxis(d.KH, pads[0], pads[2], d.sh, rows) ||
        !tiling::planSubPixelAxis(d.KW, pads[1], pads[3], d.sw, cols))
      return rewriter.notifyMatchFailure(convB, "pads change the size");
    if (const char *why = unprofitable(d, rows, cols))
      return rewriter.notifyMatchFailure(convB, why);
    // The phases first, so that the sum can be the composed convolution's
    // fused residual.
    Value upsampledPart =
        buildPhases(rewriter, convB, *merge, d, wb, rows, cols);
    graph::Conv2DOp composed = buildComposed(rewriter, convB, *merge, d, wb);
    Value sum = graph::AddOp::create(rewriter, merge->dead.front()->getLoc(),
                                     convB.getResult().getType(),
                                     composed.getResult(), upsampledPart);
    rewriter.replaceOp(convB, sum);
    // The merge, the lateral convolution and the upsampling, unless
    // something else reads them.
    for (Operation *op : merge->dead)
      if (op->use_empty())
        rewriter.eraseOp(op);
    return success();
  }
};

struct FoldUpsampledMergePass
    : public accel::impl::FoldUpsampledMergeBase<FoldUpsampledMergePass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<FoldMergeIntoPhases>(&getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace
