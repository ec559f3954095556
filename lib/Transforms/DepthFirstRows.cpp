//===- DepthFirstRows.cpp - Halo-free layer chains in bands of rows -------===//
//
// A layer whose output rows depend on its own input rows only (a 1x1
// convolution, a transposed convolution or a pool whose kernel equals its
// stride along the rows, with no row padding) can run on a band of rows
// without the rows around it. A chain of such layers can then run
// depth-first, one band at a time: band k is a graph.slice of the chain's
// input rows followed by every layer on its band, and a graph.concat of the
// bands along the rows replaces the chain's result. The maps between the
// layers then exist one band at a time, small enough for on-chip residency
// instead of a write to DRAM and a read back (the FPN detector's head: two
// 2x2 stride-2 transposed convolutions whose 26 MB map went through DRAM).
// Layers with a halo (a 3x3 convolution) are left out: measured, their
// bands ran slower than the whole layer (docs/passes.md,
// "depth-first-rows"). How many bands: accel::tiling::chooseRowSlices
// (DepthFirst.h) from the hardware description's storage.
//
//===----------------------------------------------------------------------===//
#include "DepthFirstShared.h"
#include "FuseLayers.h"
#include "Graph/GraphDialect.h"
#include "accel/Tiling/DepthFirst.h"
#include "accel/Transforms/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/IRMapping.h"
#include <numeric>

namespace accel {
#define GEN_PASS_DEF_DEPTHFIRSTROWS
#include "accel/Transforms/Passes.h.inc"
} // namespace accel

using namespace mlir;
using namespace accel;
using depthfirst::bytesOf;
using depthfirst::dim;
using depthfirst::SliceableChain;

namespace {
constexpr unsigned kRows = 2; // NCHW

/// How a layer maps rows: input rows [a, b) give output rows
/// [a * up / down, b * up / down).
struct RowMap {
  int64_t up = 1, down = 1;
};

/// Whether a window of `kernel` rows stepping by `stride` with the given
/// row pads and dilation reads each input row for exactly one output row,
/// with `in` = `out` * `stride` rows.
bool disjointWindows(int64_t kernel, int64_t stride, int64_t padTop,
                     int64_t padBottom, int64_t dilation, int64_t in,
                     int64_t out) {
  return kernel == stride && padTop == 0 && padBottom == 0 &&
         (dilation == 1 || kernel == 1) && out * stride == in;
}

/// The row map of a layer whose output rows depend on its own input rows
/// only, else nullopt.
std::optional<RowMap> rowMap(Operation *op) {
  if (op->getNumResults() != 1 || op->getNumOperands() < 1 ||
      !isa<graph::Conv2DOp, graph::ConvTranspose2DOp, graph::Pool2DOp>(op))
    return std::nullopt;
  Value in = op->getOperand(0), out = op->getResult(0);
  auto inType = dyn_cast<RankedTensorType>(in.getType());
  auto outType = dyn_cast<RankedTensorType>(out.getType());
  if (!inType || !outType || inType.getRank() != 4 || outType.getRank() != 4)
    return std::nullopt;
  const int64_t hin = dim(in, kRows), hout = dim(out, kRows);
  if (auto c = dyn_cast<graph::Conv2DOp>(op)) {
    if (disjointWindows(dim(c.getWeight(), 2), c.getStrides()[0],
                        c.getPads()[0], c.getPads()[2], c.getDilations()[0],
                        hin, hout))
      return RowMap{1, c.getStrides()[0]};
  } else if (auto t = dyn_cast<graph::ConvTranspose2DOp>(op)) {
    // Each input row scatters into its own `stride` output rows.
    if (disjointWindows(dim(t.getWeight(), 2), t.getStrides()[0],
                        t.getPads()[0], t.getPads()[2], t.getDilations()[0],
                        hout, hin) &&
        t.getOutputPadding()[0] == 0)
      return RowMap{t.getStrides()[0], 1};
  } else if (auto p = dyn_cast<graph::Pool2DOp>(op)) {
    if (disjointWindows(p.getKernel()[0], p.getStrides()[0], p.getPads()[0],
                        p.getPads()[2], p.getDilations()[0], hin, hout))
      return RowMap{1, p.getStrides()[0]};
  }
  return std::nullopt;
}

/// One layer of a chain with its fused epilogue chain.
struct Layer {
  Operation *op;
  RowMap map;
  SliceableChain chain;
};

std::optional<Layer> rowLocalLayer(Operation *op) {
  std::optional<RowMap> m = rowMap(op);
  if (!m)
    return std::nullopt;
  std::optional<SliceableChain> c = depthfirst::sliceableChain(op);
  if (!c)
    return std::nullopt;
  return Layer{op, *m, *c};
}

/// The longest chain of row-local layers from `head`, each the only user
/// of the previous one's chain end (through its input operand).
SmallVector<Layer> chainFrom(Layer head) {
  SmallVector<Layer> layers{head};
  while (true) {
    Value end = layers.back().chain.end;
    if (!end.hasOneUse())
      break;
    OpOperand &use = *end.getUses().begin();
    std::optional<Layer> next;
    if (use.getOperandNumber() == 0)
      next = rowLocalLayer(use.getOwner());
    if (!next)
      break;
    layers.push_back(*next);
  }
  return layers;
}

/// The smallest band (in the chain input's rows) whose boundaries are
/// whole rows at every layer.
int64_t rowMultiple(ArrayRef<Layer> layers) {
  int64_t num = 1, den = 1, multiple = 1; // input rows -> this layer's rows
  for (const Layer &l : layers) {
    // A boundary a maps to a * num / den rows here, then to
    // a * num / (den * down): whole when den * down / gcd(num, den * down)
    // divides a.
    const int64_t d = den * l.map.down;
    multiple = std::lcm(multiple, d / std::gcd(num, d));
    num *= l.map.up;
    den = d;
    const int64_t g = std::gcd(num, den);
    num /= g;
    den /= g;
  }
  return multiple;
}

tiling::RowSliceProblem problemOf(ArrayRef<Layer> layers,
                                  const HardwareDesc &hw) {
  tiling::RowSliceProblem p;
  p.rows = dim(layers.front().op->getOperand(0), kRows);
  p.rowMultiple = rowMultiple(layers);
  for (size_t i = 0; i < layers.size(); ++i) {
    Operation *op = layers[i].op;
    for (Value w : op->getOperands().drop_front())
      p.weightBytes += bytesOf(w);
    p.macs += graph::denseMacs(op);
    if (i + 1 == layers.size())
      continue;
    const uint64_t map = bytesOf(layers[i].chain.end);
    p.interiorBytes += map;
    p.largestInteriorBytes = std::max(p.largestInteriorBytes, map);
  }
  // A concat along the rows is addressing only when nothing varies before
  // them (one image of one channel), else a copy of the result.
  Value result = layers.back().chain.end;
  if (dim(result, 0) * dim(result, 1) > 1)
    p.outputCopyBytes = bytesOf(result);
  p.onChipBytes = uint64_t(hw.numClusters()) * hw.storageBytes;
  p.peakMacsPerCycle = hw.peakMacsPerCycle();
  p.dramBytesPerCycle = hw.dramBytesPerCycle();
  return p;
}

/// `layer` on output rows [r0, r1) from `input` (its band of input rows),
/// with its fused chain applied.
Value sliceLayer(OpBuilder &b, const Layer &layer, Value input, int64_t r0,
                 int64_t r1) {
  Operation *op = layer.op;
  IRMapping map;
  map.map(op->getOperand(0), input);
  Operation *clone = b.clone(*op, map);
  clone->setLoc(depthfirst::sliceLoc(op, " [rows " + std::to_string(r0) + ":" +
                                             std::to_string(r1) + "]"));
  clone->getResult(0).setType(
      depthfirst::withDim(op->getResult(0), kRows, r1 - r0));
  Value end = depthfirst::cloneChain(b, layer.chain, op->getResult(0),
                                     clone->getResult(0), kRows);
  for (Operation *o = clone; o; o = o->getNextNode()) {
    if (!o->hasTrait<OpTrait::ConstantLike>())
      o->setAttr(kRowBandAttrName, b.getUnitAttr());
    if (o == end.getDefiningOp())
      break;
  }
  return end;
}

/// Replaces the chain by `slices` bands and a concat along the rows.
void sliceChain(ArrayRef<Layer> layers, int64_t slices) {
  Operation *last = layers.back().chain.ops.empty()
                        ? layers.back().op
                        : layers.back().chain.ops.back();
  OpBuilder b(last->getContext());
  b.setInsertionPointAfter(last);
  Value input = layers.front().op->getOperand(0);
  const int64_t rows = dim(input, kRows), step = rows / slices;
  const int64_t rank = 4;
  SmallVector<Value> parts;
  for (int64_t a = 0; a < rows; a += step) {
    SmallVector<int64_t> offsets(rank, 0), strides(rank, 1);
    offsets[kRows] = a;
    Value v = graph::SliceOp::create(
        b,
        depthfirst::sliceLoc(layers.front().op,
                             " input [rows " + std::to_string(a) + ":" +
                                 std::to_string(a + step) + "]"),
        depthfirst::withDim(input, kRows, step), input,
        b.getDenseI64ArrayAttr(offsets), b.getDenseI64ArrayAttr(strides));
    v.getDefiningOp()->setAttr(kRowBandAttrName, b.getUnitAttr());
    int64_t r0 = a, r1 = a + step;
    for (const Layer &l : layers) {
      r0 = r0 * l.map.up / l.map.down;
      r1 = r1 * l.map.up / l.map.down;
      v = sliceLayer(b, l, v, r0, r1);
    }
    parts.push_back(v);
  }
  Value end = layers.back().chain.end;
  auto concat = graph::ConcatOp::create(b, last->getLoc(), end.getType(), parts,
                                        b.getI64IntegerAttr(kRows));
  end.replaceAllUsesWith(concat.getResult());
  for (const Layer &l : llvm::reverse(layers)) {
    for (Operation *op : llvm::reverse(l.chain.ops))
      op->erase();
    l.op->erase();
  }
}

struct DepthFirstRowsPass
    : public accel::impl::DepthFirstRowsBase<DepthFirstRowsPass> {
  using DepthFirstRowsBase::DepthFirstRowsBase;

  tiling::RowSliceRule rule() const {
    tiling::RowSliceRule r;
    r.wholeFraction = wholeFraction;
    r.sliceFraction = sliceFraction;
    r.minDramToMacRatio = minDramToMacRatio;
    r.maxSlices = maxSlices;
    return r;
  }

  /// The forced band count `slices`, checked against the chain's rows.
  LogicalResult forcedSlices(const tiling::RowSliceProblem &p, Operation *op,
                             int64_t &k) {
    k = slices;
    if (p.rows % k == 0 && (p.rows / k) % p.rowMultiple == 0)
      return success();
    return op->emitError("depth-first-rows: slices=")
           << k << " does not cut the " << p.rows
           << " rows into bands of whole multiples of " << p.rowMultiple;
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    HardwareDesc hw;
    if (failed(moduleHardware(module, hw)))
      return signalPassFailure();
    SmallVector<std::pair<SmallVector<Layer>, int64_t>> work;
    llvm::DenseSet<Operation *> claimed;
    bool failed = false;
    module.walk([&](Operation *op) {
      if (claimed.count(op))
        return;
      std::optional<Layer> head = rowLocalLayer(op);
      if (!head)
        return;
      SmallVector<Layer> layers = chainFrom(*head);
      for (const Layer &l : layers)
        claimed.insert(l.op);
      if (layers.size() < 2)
        return;
      tiling::RowSliceProblem p = problemOf(layers, hw);
      int64_t k = 1;
      if (slices > 0)
        failed |= mlir::failed(forcedSlices(p, op, k));
      else
        k = tiling::chooseRowSlices(p, rule()).slices;
      if (k > 1)
        work.push_back({std::move(layers), k});
    });
    if (failed)
      return signalPassFailure();
    for (auto &[layers, k] : work)
      sliceChain(layers, k);
  }
};
} // namespace
