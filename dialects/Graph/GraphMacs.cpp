//===- GraphMacs.cpp - Multiply-adds of the contractions ------------------===//
//
// One count of an operator's dense multiply-adds, shared by the layer table
// (the roofline bound of every layer) and the passes that price a layer
// (depth-first-channels).
//
//===----------------------------------------------------------------------===//
#include "Graph/GraphDialect.h"

using namespace mlir;
using namespace accel::graph;

namespace {
uint64_t elementsOf(Value v) {
  auto t = dyn_cast<ShapedType>(v.getType());
  return t && t.hasStaticShape() ? uint64_t(t.getNumElements()) : 0;
}
} // namespace

uint64_t accel::graph::denseMacs(Operation *op) {
  auto dim = [](Value v, unsigned d) -> uint64_t {
    auto t = cast<ShapedType>(v.getType());
    return d < t.getRank() && !t.isDynamicDim(d) ? uint64_t(t.getDimSize(d))
                                                 : 0;
  };
  if (auto conv = dyn_cast<graph::Conv2DOp>(op)) {
    // N*OH*OW pixels of O outputs, each Cg*KH*KW deep: N*OH*OW * |weight|.
    uint64_t o = dim(conv.getResult(), 1);
    return o ? elementsOf(conv.getResult()) / o * elementsOf(conv.getWeight())
             : 0;
  }
  if (auto conv = dyn_cast<graph::ConvTranspose2DOp>(op)) {
    // Every input pixel meets the whole [C, O/g, KH, KW] weight of its
    // channel: N*H*W * |weight|.
    uint64_t c = dim(conv.getInput(), 1);
    return c ? elementsOf(conv.getInput()) / c * elementsOf(conv.getWeight())
             : 0;
  }
  if (auto mm = dyn_cast<graph::MatMulOp>(op)) {
    auto lhs = cast<ShapedType>(mm.getLhs().getType());
    return elementsOf(mm.getResult()) *
           dim(mm.getLhs(), unsigned(lhs.getRank() - 1));
  }
  if (auto gemm = dyn_cast<graph::GemmOp>(op))
    return elementsOf(gemm.getResult()) *
           dim(gemm.getA(), gemm.getTransA() ? 0 : 1);
  if (auto rnn = dyn_cast<graph::RecurrentOp>(op))
    // Per step and batch row, every gate row of W and R once.
    return dim(rnn.getX(), 0) * dim(rnn.getX(), 1) *
           (elementsOf(rnn.getW()) + elementsOf(rnn.getR()));
  return 0;
}
