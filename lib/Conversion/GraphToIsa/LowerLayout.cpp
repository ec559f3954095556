//===- LowerLayout.cpp - Graph ops that become DMA copies -----------------===//
//
// transpose / concat / slice / broadcast / tile / pad: DRAM -> DRAM copies
// with strided (negative, zero) views, plus an SFU fill for constant pads.
//
//===----------------------------------------------------------------------===//
#include "Lowering.h"
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

LogicalResult Lowering::lowerConcat(graph::ConcatOp op) {
  std::vector<int64_t> os = shapeOf(op.getResult());
  std::vector<int64_t> ostr = denseStrides(os);
  uint64_t out = bufferFor(op.getResult());
  int64_t offset = 0, axis = op.getAxis();
  for (Value v : op.getInputs()) {
    std::vector<int64_t> s = shapeOf(v);
    if (numElements(s) > 0)
      emitCopyLayer(sb_, s, denseView(v),
                    View{out + uint64_t(offset * ostr[axis] * 4), ostr});
    offset += s[axis];
  }
  return success();
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
