//===- LowerDepthwise.cpp - Depthwise conv2d on the SW weight queue -------===//
//
// graph.conv2d with groups == input channels == output channels (MobileNet
// depthwise layers) under convert-graph-to-isa{depthwise=sw} (the default):
// the kernel of accel/Codegen/Depthwise.h instead of one implicit GEMM per
// group (m = 1, one kernel position per K chunk). Stride, padding (zero
// boxes in the kernel's band DMA, no padded DRAM copy), dilation, bias and a
// fused relu are supported.
// A shape whose window does not fit the weight queue / a storage half falls
// back to the implicit GEMM.
//
// accel.mapping describes a partition of the implicit GEMM, which this
// kernel does not have: select-mapping leaves depthwise convs without it,
// and a conv that carries one anyway takes the mapped GEMM path (lowerConv).
// The SW kernel gives each cluster a contiguous run of its tiles (channel
// plane bands).
//
//===----------------------------------------------------------------------===//
#include "Lowering.h"
#include "accel/Codegen/Depthwise.h"

using namespace mlir;
using namespace accel;
using namespace accel::codegen;
using namespace accel::lowering;

LogicalResult Lowering::lowerDepthwise(graph::Conv2DOp op, const ConvGeom &g,
                                       int64_t H, int64_t W, int64_t padT,
                                       int64_t padL, bool &handled) {
  handled = false;
  if (g.groups != g.C || g.O != g.C || g.Cg != 1 || g.Og != 1)
    return success();
  DepthwiseLayer l;
  static_cast<ConvLayerBase &>(l) = g.kernelBase();
  l.planes = g.N * g.C;
  l.C = g.C;
  l.H = H;
  l.W = W;
  l.padT = padT;
  l.padL = padL;
  DepthwisePlan plan;
  std::string err;
  if (!planDepthwise(hw_, l, plan, err, depthwiseLaneRows_))
    return success(); // implicit GEMM instead
  GemmEpilogue epi;
  if (failed(takeEpilogue(op, epi)))
    return failure();
  l.func = epi.func;
  l.funcImm = epi.funcImm;
  l.sfuChained = epi.sfuChained;
  l.post = epi.post;
  if (!depthwisePostFits(hw_, l, plan)) {
    l.post.clear();
    keepChainedOnly(epi);
  }
  l.zeros = allocate(plan.zeroElems); // DRAM starts zeroed
  emitDepthwiseLayer(sb_, l, plan);
  handled = true;
  return success();
}
