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
#include "FuseLayers.h"
#include "Graph/GraphDialect.h"
#include "accel/Tiling/DepthFirst.h"
#include "accel/Transforms/Passes.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"

namespace accel {
#define GEN_PASS_DEF_DEPTHFIRSTCHANNELS
#include "accel/Transforms/Passes.h.inc"
} // namespace accel

using namespace mlir;
using namespace accel;

namespace {
/// The fused epilogue chain after `producer` (fuse-layers' accel.fused ops),
/// when every operand of its ops other than the chain value is a splat
/// constant, so each op can be applied to a channel slice as it is.
struct SliceableChain {
  SmallVector<Operation *> ops;
  Value end;
};

bool isSplatConstant(Value v) {
  DenseElementsAttr c;
  return matchPattern(v, m_Constant(&c)) && c.isSplat();
}

std::optional<SliceableChain> sliceableChain(Operation *producer) {
  SliceableChain chain{{}, producer->getResult(0)};
  while (chain.end.hasOneUse()) {
    Operation *user = *chain.end.getUsers().begin();
    if (!user->hasAttr(kFusedAttrName))
      break;
    if (user->getNumResults() != 1 ||
        llvm::any_of(user->getOperands(), [&](Value v) {
          return v != chain.end && !isSplatConstant(v);
        }))
      return std::nullopt; // a residual add, or a per-channel operand
    chain.ops.push_back(user);
    chain.end = user->getResult(0);
  }
  return chain;
}

int64_t dim(Value v, unsigned d) {
  return cast<RankedTensorType>(v.getType()).getDimSize(d);
}

uint64_t bytesOf(Value v) {
  return uint64_t(cast<RankedTensorType>(v.getType()).getNumElements()) * 4;
}

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

/// `loc` with " [c0:c1]" after the layer name (the first name of a fused
/// location), so each slice is its own row of the layer table.
Location sliceLoc(Operation *op, int64_t c0, int64_t c1) {
  std::string suffix =
      " [" + std::to_string(c0) + ":" + std::to_string(c1) + "]";
  MLIRContext *ctx = op->getContext();
  auto rename = [&](Location l) -> Location {
    if (auto n = dyn_cast<NameLoc>(l))
      return NameLoc::get(StringAttr::get(ctx, n.getName().str() + suffix),
                          n.getChildLoc());
    return NameLoc::get(StringAttr::get(ctx, fuse::layerName(op) + suffix), l);
  };
  if (auto f = dyn_cast<FusedLoc>(op->getLoc())) {
    SmallVector<Location> parts(f.getLocations());
    parts.front() = rename(parts.front());
    return FusedLoc::get(ctx, parts, f.getMetadata());
  }
  return rename(op->getLoc());
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

/// `t` with `channels` channels (dimension 1).
RankedTensorType withChannels(Value t, int64_t channels) {
  auto type = cast<RankedTensorType>(t.getType());
  SmallVector<int64_t> shape(type.getShape());
  shape[1] = channels;
  return RankedTensorType::get(shape, type.getElementType());
}

/// `conv` on output channels [c0, c1) of `input` (a depthwise conv reads
/// those channels: groups = c1 - c0), with its fused chain applied.
Value sliceConv(OpBuilder &b, graph::Conv2DOp conv, const SliceableChain &chain,
                Value input, int64_t c0, int64_t c1, bool depthwise) {
  Location loc = sliceLoc(conv, c0, c1);
  Value w = sliceConstant(b, loc, conv.getWeight(), c0, c1);
  Value bias =
      conv.getBias() ? sliceConstant(b, loc, conv.getBias(), c0, c1) : Value();
  auto sliced = graph::Conv2DOp::create(
      b, loc, withChannels(conv.getResult(), c1 - c0), input, w, bias,
      conv.getStridesAttr(), conv.getPadsAttr(), conv.getDilationsAttr(),
      b.getI64IntegerAttr(depthwise ? c1 - c0 : 1));
  for (NamedAttribute attr : conv->getDiscardableAttrs())
    sliced->setAttr(attr.getName(), attr.getValue());
  Value orig = conv.getResult(), v = sliced.getResult();
  for (Operation *op : chain.ops) {
    IRMapping map;
    map.map(orig, v);
    for (Value operand : op->getOperands()) {
      // A full-shape splat operand: the same value in the slice's shape
      // (smaller splats broadcast to either shape as they are).
      if (operand == orig || operand.getType() != orig.getType())
        continue;
      DenseElementsAttr c;
      matchPattern(operand, m_Constant(&c));
      map.map(operand,
              arith::ConstantOp::create(
                  b, op->getLoc(),
                  DenseElementsAttr::get(withChannels(operand, c1 - c0),
                                         c.getSplatValue<float>())));
    }
    Operation *clone = b.clone(*op, map);
    clone->getResult(0).setType(withChannels(op->getResult(0), c1 - c0));
    orig = op->getResult(0);
    v = clone->getResult(0);
  }
  return v;
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
    : public accel::impl::DepthFirstChannelsBase<DepthFirstChannelsPass> {
  using DepthFirstChannelsBase::DepthFirstChannelsBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    HardwareDesc hw;
    if (failed(moduleHardware(module, hw)))
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
