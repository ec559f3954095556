//===- DepthFirstChannels.cpp - conv -> depthwise pairs by channel slices -===//
//
// An inverted-residual block's expand conv writes a map several times its
// input (MobileNetV3-Large's second block: 64 x 112 x 112 floats, 3.2 MB,
// against 2 MiB of storage on the default machine), so the map goes to DRAM
// and the depthwise conv reads it back. A depthwise conv reads each channel
// plane on its own, so the pair can run depth-first one channel slice at a
// time: slice k is the expand conv's output channels of slice k (its input
// read again) and the depthwise conv of those planes; the slices' outputs
// are concatenated along the channels. The slice of the map is then small
// enough for on-chip residency, and the concat is addressing (each slice's
// depthwise conv writes its part of the concat's buffer, planConcatSlices).
// The fused epilogue chains (fuse-layers) go with their producers.
// How many slices: accel::tiling::chooseChannelSlices (DepthFirst.h) from
// the hardware description's storage; docs/passes.md, "depth-first-channels".
//
//===----------------------------------------------------------------------===//
#include "DepthFirstShared.h"
#include "FuseLayers.h"
#include "Graph/GraphDialect.h"
#include "OptionChecks.h"
#include "accel/Tiling/DepthFirst.h"
#include "accel/Transforms/Passes.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Matchers.h"

namespace accel {
#define GEN_PASS_DEF_DEPTHFIRSTCHANNELS
#include "accel/Transforms/Passes.h.inc"
} // namespace accel

using namespace mlir;
using namespace accel;

namespace {
using depthfirst::bytesOf;
using depthfirst::dim;
using depthfirst::SliceableChain;
using depthfirst::sliceableChain;

/// A conv2d on one image with constant weights and bias (sliced at compile
/// time).
bool oneImageConstantWeights(graph::Conv2DOp op) {
  return dim(op.getInput(), 0) == 1 &&
         matchPattern(op.getWeight(), m_Constant()) &&
         (!op.getBias() || matchPattern(op.getBias(), m_Constant()));
}

/// A depthwise conv2d of more than one channel on one image with constant
/// weights and bias.
bool isSliceableDepthwise(graph::Conv2DOp op) {
  return op.isDepthwise() && dim(op.getInput(), 1) > 1 &&
         oneImageConstantWeights(op);
}

/// A regular conv2d on one image with constant weights and bias.
bool isSliceableProducer(graph::Conv2DOp op) {
  return op.getGroups() == 1 && oneImageConstantWeights(op);
}

/// One producer -> depthwise pair with their chains.
struct Pair {
  graph::Conv2DOp producer, depthwise;
  SliceableChain producerChain, depthwiseChain;
};

std::optional<Pair> matchPair(graph::Conv2DOp dw) {
  if (!isSliceableDepthwise(dw))
    return std::nullopt;
  // Back from the depthwise input through accel.fused ops to a producer.
  Operation *def = dw.getInput().getDefiningOp();
  while (def && def->hasAttr(kFusedAttrName) && def->getNumOperands() > 0)
    def = def->getOperand(0).getDefiningOp();
  auto producer = dyn_cast_or_null<graph::Conv2DOp>(def);
  if (!producer || !isSliceableProducer(producer))
    return std::nullopt;
  auto pc = sliceableChain(producer), dc = sliceableChain(dw);
  if (!pc || !dc || pc->end != dw.getInput() || !pc->end.hasOneUse())
    return std::nullopt;
  return Pair{producer, dw, *pc, *dc};
}

/// Elements [c0, c1) of a constant along its first dimension.
Value sliceConstant(OpBuilder &b, Location loc, Value v, int64_t c0,
                    int64_t c1) {
  DenseElementsAttr dense;
  matchPattern(v, m_Constant(&dense));
  auto type = cast<RankedTensorType>(v.getType());
  SmallVector<int64_t> shape(type.getShape());
  const int64_t inner = type.getNumElements() / shape[0];
  shape[0] = c1 - c0;
  auto sliced = RankedTensorType::get(shape, type.getElementType());
  if (dense.isSplat())
    return arith::ConstantOp::create(
        b, loc, DenseElementsAttr::get(sliced, dense.getSplatValue<float>()));
  auto all = dense.getValues<float>();
  std::vector<float> part(all.begin() + c0 * inner, all.begin() + c1 * inner);
  return arith::ConstantOp::create(
      b, loc, DenseElementsAttr::get(sliced, llvm::ArrayRef(part)));
}

/// `conv` on output channels [c0, c1) of `input` (a depthwise conv reads
/// those channels: groups = c1 - c0), with its fused chain applied.
Value sliceConv(OpBuilder &b, graph::Conv2DOp conv, const SliceableChain &chain,
                Value input, int64_t c0, int64_t c1, bool depthwise) {
  Location loc = depthfirst::sliceLoc(conv, " [" + std::to_string(c0) + ":" +
                                                std::to_string(c1) + "]");
  Value w = sliceConstant(b, loc, conv.getWeight(), c0, c1);
  Value bias =
      conv.getBias() ? sliceConstant(b, loc, conv.getBias(), c0, c1) : Value();
  auto sliced = graph::Conv2DOp::create(
      b, loc, depthfirst::withDim(conv.getResult(), 1, c1 - c0), input, w, bias,
      conv.getStridesAttr(), conv.getPadsAttr(), conv.getDilationsAttr(),
      b.getI64IntegerAttr(depthwise ? c1 - c0 : 1));
  for (NamedAttribute attr : conv->getDiscardableAttrs())
    sliced->setAttr(attr.getName(), attr.getValue());
  return depthfirst::cloneChain(b, chain, conv.getResult(), sliced.getResult(),
                                1);
}

/// Replaces `pair` by `slices` channel slices and a concat after the
/// depthwise chain's last op.
void slicePair(Pair &pair, int64_t slices) {
  Operation *last = pair.depthwiseChain.ops.empty()
                        ? pair.depthwise.getOperation()
                        : pair.depthwiseChain.ops.back();
  OpBuilder b(last->getContext());
  b.setInsertionPointAfter(last);
  const int64_t channels = dim(pair.depthwise.getResult(), 1);
  const int64_t step = channels / slices;
  SmallVector<Value> parts;
  for (int64_t c0 = 0; c0 < channels; c0 += step) {
    Value mid = sliceConv(b, pair.producer, pair.producerChain,
                          pair.producer.getInput(), c0, c0 + step, false);
    parts.push_back(sliceConv(b, pair.depthwise, pair.depthwiseChain, mid, c0,
                              c0 + step, true));
  }
  Value end = pair.depthwiseChain.end;
  auto concat = graph::ConcatOp::create(b, last->getLoc(), end.getType(), parts,
                                        b.getI64IntegerAttr(1));
  end.replaceAllUsesWith(concat.getResult());
  SmallVector<Operation *> dead(pair.depthwiseChain.ops.rbegin(),
                                pair.depthwiseChain.ops.rend());
  dead.push_back(pair.depthwise);
  dead.append(pair.producerChain.ops.rbegin(), pair.producerChain.ops.rend());
  dead.push_back(pair.producer);
  for (Operation *op : dead)
    op->erase();
}

struct DepthFirstChannelsPass
    : public CheckedOptionsPass<
          accel::impl::DepthFirstChannelsBase<DepthFirstChannelsPass>> {
  using CheckedOptionsPass::CheckedOptionsPass;

  OptionChecks optionChecks() const override {
    OptionChecks c("depth-first-channels");
    c.finiteAtLeast("whole-fraction", wholeFraction, 0)
        .finiteAtLeast("slice-fraction", sliceFraction, 0, /*strict=*/true)
        .finiteAtLeast("min-dram-to-mac-ratio", minDramToMacRatio, 0)
        .atLeast("slices", slices, 0);
    return c;
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    HardwareDesc hw;
    if (failed(optionChecks().emitOn(module)) ||
        failed(moduleHardware(module, hw)))
      return signalPassFailure();
    tiling::ChannelSliceRule rule;
    rule.wholeFraction = wholeFraction;
    rule.sliceFraction = sliceFraction;
    rule.minDramToMacRatio = minDramToMacRatio;
    SmallVector<std::pair<Pair, int64_t>> work;
    bool failed = false;
    module.walk([&](graph::Conv2DOp dw) {
      std::optional<Pair> pair = matchPair(dw);
      if (!pair)
        return;
      tiling::ChannelSliceProblem p;
      p.inputBytes = bytesOf(pair->producer.getInput());
      p.intermediateBytes = bytesOf(pair->producer.getResult());
      p.channels = dim(dw.getInput(), 1);
      p.onChipBytes = uint64_t(hw.numClusters()) * hw.storageBytes;
      p.producerMacs = graph::denseMacs(pair->producer);
      p.peakMacsPerCycle = hw.peakMacsPerCycle();
      p.dramBytesPerCycle = hw.dramBytesPerCycle();
      int64_t k = slices > 0 ? int64_t(slices)
                             : tiling::chooseChannelSlices(p, rule).slices;
      if (p.channels % k) {
        dw.emitError("depth-first-channels: slices=")
            << k << " does not divide the " << p.channels << " channels";
        failed = true;
      } else if (k > 1) {
        work.push_back({*pair, k});
      }
    });
    if (failed)
      return signalPassFailure();
    for (auto &[pair, k] : work)
      slicePair(pair, k);
  }
};
} // namespace
