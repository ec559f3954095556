//===- LowerLayout.cpp - Graph ops that become DMA copies -----------------===//
//
// transpose / concat / slice / broadcast / tile / pad: DRAM -> DRAM copies
// with strided (negative, zero) views, plus an SFU fill for constant pads.
// A concat whose operands are written in place by their producers
// (planConcatSlices) copies nothing.
//
//===----------------------------------------------------------------------===//
#include "Accel/AccelDialect.h"
#include "Lowering.h"
#include "mlir/IR/Matchers.h"
#include <algorithm>
#include <cmath>

using namespace mlir;
using namespace accel;
using namespace accel::codegen;
using namespace accel::lowering;

LogicalResult Lowering::lowerTranspose(graph::TransposeOp op) {
  std::vector<int64_t> in = denseStrides(shapeOf(op.getInput()));
  View src{bufferFor(op.getInput()), {}};
  for (int64_t p : op.getPerm())
    src.strides.push_back(in[p]);
  emitCopyLayer(sb_, shapeOf(op.getResult()), src, denseView(op.getResult()));
  return success();
}

/// The values that share `producer`'s result buffer: its result and the
/// results of its fused chain (#accel.fusion), in order, as takeEpilogue
/// walks it (LowerFusion.cpp).
static SmallVector<Value> fusedChainValues(Operation *producer) {
  SmallVector<Value> vals{producer->getResult(0)};
  for (Operation *user : fusedChain(producer).ops)
    vals.push_back(user->getResult(0));
  return vals;
}

void Lowering::planConcatSlices(Block &body) {
  // Chain end -> every value of the chain (they share one buffer).
  llvm::DenseMap<Value, SmallVector<Value>> chains;
  SmallVector<graph::ConcatOp> concats;
  for (Operation &op : body.without_terminator()) {
    if (op.hasAttr(kFusionAttrName) && op.getNumResults() == 1) {
      SmallVector<Value> vals = fusedChainValues(&op);
      chains[vals.back()] = vals;
    }
    if (auto c = dyn_cast<graph::ConcatOp>(op))
      concats.push_back(c);
  }
  // Outer concats first: an inner concat that is an operand of an outer
  // one then plans its slices inside the outer one's slice.
  for (graph::ConcatOp op : llvm::reverse(concats)) {
    std::vector<int64_t> os = shapeOf(op.getResult());
    int64_t axis = op.getAxis(), outer = 1;
    for (int64_t d = 0; d < axis; ++d)
      outer *= os[size_t(d)];
    // A slice is contiguous only when nothing varies before the axis.
    if (outer != 1 || numElements(os) == 0)
      continue;
    std::vector<int64_t> ostr = denseStrides(os);
    uint64_t out = 0;
    int64_t offset = 0;
    for (Value v : op.getInputs()) {
      int64_t extent = shapeOf(v)[size_t(axis)];
      const uint64_t at = uint64_t(offset * ostr[size_t(axis)] * 4);
      offset += extent;
      Operation *def = v.getDefiningOp();
      // The producer: a graph op of this block with one result, whose only
      // use is this operand; not a reshape (it aliases its input).
      if (!def || def->getBlock() != &body || def->getNumResults() != 1 ||
          !isa<graph::GraphDialect>(def->getDialect()) ||
          isa<graph::ReshapeOp>(def) || !v.hasOneUse() || isReturned(v))
        continue;
      SmallVector<Value> shared{v};
      if (def->hasAttr(kFusedAttrName)) {
        auto it = chains.find(v);
        if (it == chains.end())
          continue;
        shared = it->second;
      }
      if (llvm::any_of(shared, [&](Value s) { return addr_.count(s); }))
        continue;
      if (!out)
        out = bufferFor(op.getResult());
      for (Value s : shared)
        addr_[s] = out + at;
    }
  }
}

LogicalResult Lowering::lowerConcat(graph::ConcatOp op) {
  std::vector<int64_t> os = shapeOf(op.getResult());
  std::vector<int64_t> ostr = denseStrides(os);
  uint64_t out = bufferFor(op.getResult());
  int64_t offset = 0, axis = op.getAxis();
  for (Value v : op.getInputs()) {
    std::vector<int64_t> s = shapeOf(v);
    const uint64_t slice = out + uint64_t(offset * ostr[axis] * 4);
    // Written in place by its producer (planConcatSlices): no copy.
    if (numElements(s) > 0 && bufferFor(v) != slice)
      emitCopyLayer(sb_, s, denseView(v), View{slice, ostr});
    offset += s[axis];
  }
  return success();
}

/// Whether `op`'s result is one contiguous run of its input's dense
/// elements: after its leading dimensions of extent 1, one dimension cut
/// anywhere and every later one whole, each stepping by 1.
static bool isContiguousSlice(graph::SliceOp op) {
  std::vector<int64_t> in = shapeOf(op.getInput()),
                       out = shapeOf(op.getResult());
  size_t d = 0;
  while (d < out.size() && out[d] == 1)
    ++d;
  for (size_t i = d; i < out.size(); ++i)
    if ((i > d && out[i] != in[i]) || op.getStrides()[i] != 1)
      return false;
  return true;
}

bool Lowering::sliceIsView(graph::SliceOp op) {
  // Through reshapes and other views: a network input or a constant read
  // through a view would not be counted as read by the consumer's layer
  // (countLayerRead), so those slices still copy.
  Operation *def = viewedValue(op.getInput()).getDefiningOp();
  return def && isa<graph::GraphDialect>(def->getDialect()) &&
         !isReturned(op.getResult()) && !addr_.count(op.getResult()) &&
         numElements(shapeOf(op.getResult())) > 0 && isContiguousSlice(op);
}

LogicalResult Lowering::lowerSlice(graph::SliceOp op) {
  std::vector<int64_t> in = denseStrides(shapeOf(op.getInput()));
  std::vector<int64_t> os = shapeOf(op.getResult());
  if (numElements(os) == 0)
    return success();
  View src{bufferFor(op.getInput()), {}};
  int64_t off = 0;
  for (size_t d = 0; d < in.size(); ++d) {
    off += op.getOffsets()[d] * in[d];
    src.strides.push_back(op.getStrides()[d] * in[d]);
  }
  src.base += uint64_t(off * 4);
  // A contiguous slice of an intermediate is a view of its buffer: the
  // consumers read the input's bytes where they are (buffers are never
  // reused, and no op writes an operand), so nothing is copied.
  if (sliceIsView(op)) {
    addr_[op.getResult()] = src.base;
    sliceViews_.insert(op);
    return success();
  }
  emitCopyLayer(sb_, os, src, denseView(op.getResult()));
  return success();
}

LogicalResult Lowering::lowerBroadcast(graph::BroadcastOp op) {
  std::vector<int64_t> os = shapeOf(op.getResult());
  emitCopyLayer(sb_, os,
                View{bufferFor(op.getInput()),
                     broadcastStrides(shapeOf(op.getInput()), os)},
                denseView(op.getResult()));
  return success();
}

LogicalResult Lowering::lowerTile(graph::TileOp op) {
  // out[r0, i0, r1, i1, ...] = in[i0, i1, ...]: one copy of rank 2 * rank.
  std::vector<int64_t> in = shapeOf(op.getInput());
  std::vector<int64_t> inStr = denseStrides(in),
                       outStr = denseStrides(shapeOf(op.getResult()));
  std::vector<int64_t> shape;
  View src{bufferFor(op.getInput()), {}}, dst{bufferFor(op.getResult()), {}};
  for (size_t d = 0; d < in.size(); ++d) {
    shape.push_back(op.getRepeats()[d]);
    shape.push_back(in[d]);
    src.strides.push_back(0);
    src.strides.push_back(inStr[d]);
    dst.strides.push_back(in[d] * outStr[d]);
    dst.strides.push_back(outStr[d]);
  }
  if (numElements(shape) > 0)
    emitCopyLayer(sb_, shape, src, dst);
  return success();
}

LogicalResult Lowering::lowerPad(graph::PadOp op) {
  std::vector<int64_t> in = shapeOf(op.getInput()),
                       os = shapeOf(op.getResult());
  size_t r = in.size();
  auto pads = op.getPads();
  uint64_t out = bufferFor(op.getResult());
  std::vector<int64_t> ostr = denseStrides(os);
  for (size_t d = 0; d < r; ++d)
    if (pads[d] < 0 || pads[d + r] < 0)
      return op.emitOpError("negative pads (cropping) are not supported");
  auto at = [&](const std::vector<int64_t> &idx) {
    int64_t off = 0;
    for (size_t d = 0; d < r; ++d)
      off += idx[d] * ostr[d];
    return out + uint64_t(off * 4);
  };
  if (op.getMode() == graph::PadMode::constant)
    emitFill(out, os, op.getValue().convertToFloat(),
             isReturned(op.getResult()));
  std::vector<int64_t> begin(pads.begin(), pads.begin() + r);
  if (numElements(in) > 0)
    emitCopyLayer(sb_, in, denseView(op.getInput()), View{at(begin), ostr});
  if (op.getMode() == graph::PadMode::constant)
    return success();
  // Edge / reflect: fill the borders one dimension at a time from the part
  // already written (full extent in earlier dimensions, interior in later).
  for (size_t d = 0; d < r; ++d) {
    int64_t pb = pads[d], pe = pads[d + r], n = in[d];
    bool reflect = op.getMode() == graph::PadMode::reflect;
    if ((pb || pe) && (reflect ? n < 2 || pb >= n || pe >= n : n < 1))
      return op.emitOpError("pads of dimension ")
             << d << " are too large for " << stringifyPadMode(op.getMode())
             << " padding of extent " << n;
    std::vector<int64_t> slab(r), origin(r);
    for (size_t e = 0; e < r; ++e) {
      slab[e] = e < d ? os[e] : in[e];
      origin[e] = e < d ? 0 : pads[e];
    }
    auto border = [&](int64_t count, int64_t dstIdx, int64_t srcIdx,
                      int64_t srcStep) {
      if (!count)
        return;
      std::vector<int64_t> shape = slab, dstO = origin, srcO = origin;
      shape[d] = count;
      dstO[d] = dstIdx;
      srcO[d] = srcIdx;
      View src{at(srcO), ostr}, dst{at(dstO), ostr};
      src.strides[d] = srcStep * ostr[d];
      emitCopyLayer(sb_, shape, src, dst);
    };
    if (reflect) {
      border(pb, 0, 2 * pb, -1);
      border(pe, pb + n, pb + n - 2, -1);
    } else {
      border(pb, 0, pb, 0);
      border(pe, pb + n, pb + n - 1, 0);
    }
  }
  return success();
}
