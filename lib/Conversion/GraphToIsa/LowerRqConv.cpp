//===- LowerRqConv.cpp - Regular conv2d on the rotating (RQ) queue --------===//
//
// graph.conv2d with groups == 1 under convert-graph-to-isa{conv=rq}: the
// kernel of accel/Codegen/RqConv.h (all taps' weights of a channel block in
// the weight queue, rotated by the loop-back, the scalar unit advancing the
// activation operand per tap) instead of the implicit GEMM. Stride,
// padding (the zeroed padded DRAM copy lowerConv makes for the GEMM path),
// dilation, bias and a fused relu are supported.
//
// Fallback to the GEMM path (docs/passes.md, docs/depthwise.md): groups !=
// 1, or no block fits the weight queue / input buffer / storage
// (planRqConv). RQ takes precedence over accel.mapping / accel.tiling: those
// attributes describe partitions of the implicit GEMM; they are still
// parsed (a malformed one is an error) but do not apply to an RQ layer.
//
//===----------------------------------------------------------------------===//
#include "Lowering.h"
#include "accel/Codegen/RqConv.h"

using namespace mlir;
using namespace accel;
using namespace accel::codegen;
using namespace accel::lowering;

LogicalResult Lowering::lowerRqConv(graph::Conv2DOp op, const ConvGeom &g,
                                    bool &handled) {
  handled = false;
  if (g.groups != 1)
    return success();
  RqConvLayer l;
  static_cast<ConvLayerBase &>(l) = g.kernelBase();
  l.N = g.N;
  l.Cin = g.C;
  l.Cout = g.O;
  l.xsN = g.C * g.Hp * g.Wp;
  l.xsC = g.Hp * g.Wp;
  l.xsH = g.Wp;
  l.xsW = 1;
  RqConvPlan plan;
  std::string err;
  if (!planRqConv(hw_, l, plan, err))
    return success(); // implicit GEMM instead
  if (failed(takeChainedEpilogue(op, l.func, l.funcImm)))
    return failure();
  emitRqConvLayer(sb_, l, plan);
  handled = true;
  return success();
}
