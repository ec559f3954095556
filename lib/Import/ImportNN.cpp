//===- ImportNN.cpp - compute, pooling, normalisation, reductions, RNNs ---===//
//
// MatMul, Gemm, Conv (1-D / 2-D / 3-D), ConvTranspose (1-D / 2-D), MaxPool /
// AveragePool (1-D / 2-D / 3-D), global pooling, Reduce*, ArgMax / ArgMin,
// BatchNormalization, InstanceNormalization, LayerNormalization,
// LpNormalization, Einsum (matmul-like forms), RNN / GRU / LSTM.
// 1-D convolutions and pooling run as 2-D ones with a unit height.
//
//===----------------------------------------------------------------------===//
#include "ImportUtil.h"
#include "ImporterImpl.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSwitch.h"

#include <algorithm>
#include <map>

using namespace mlir;
using namespace accel::onnximport;
namespace graph = accel::graph;
using graph::BinaryFn;
using graph::ReduceFn;
using graph::UnaryFn;

namespace {
/// Input i of `n` reshaped to `shape` (constants are reshaped at compile
/// time so that weights stay constants).
FailureOr<Value> operandReshaped(Importer &im, const Node &n, int i,
                                 ArrayRef<int64_t> shape) {
  // An f32 initializer already in its shape is materialised without being
  // decoded (the importer's raw fast path): weights are most of the bytes.
  if (Slot *s = im.slot(n, i); s && !s->value && s->undecodedF32()) {
    auto dims = im.inputShape(n, i);
    if (failed(dims))
      return failure();
    if (*dims == SmallVector<int64_t>(shape))
      return im.operandF32(n, i);
  }
  auto c = im.constant(n, i);
  if (failed(c))
    return failure();
  if (*c && (*c)->dtype == onnx::TensorProto::FLOAT) {
    if (SmallVector<int64_t>(shape) == (*c)->shape)
      return im.operandF32(n, i);
    return im.materialize(reshapeConst(**c, shape), n.input(i));
  }
  auto v = im.operandF32(n, i);
  if (failed(v))
    return failure();
  return im.reshape(*v, shape);
}

/// Expands 1-D spatial attributes to 2-D (unit height).
SmallVector<int64_t> to2D(ArrayRef<int64_t> v, int64_t unit) {
  return {unit, v[0]};
}
SmallVector<int64_t> pads2D(ArrayRef<int64_t> p) { return {0, p[0], 0, p[1]}; }
} // namespace

//===----------------------------------------------------------------------===//
// MatMul / Gemm
//===----------------------------------------------------------------------===//

LogicalResult Importer::importMatMul(const Node &n) {
  if (failed(checkArity(n, 2, 2)))
    return failure();
  auto a = operandF32(n, 0);
  auto b = failed(a) ? Fail() : operandF32(n, 1);
  if (failed(b))
    return failure();
  std::string why;
  auto shape = graph::matmulShape(shapeOf(*a), shapeOf(*b), why);
  if (!shape)
    return failNode(n, why);
  auto op = graph::MatMulOp::create(builder, loc(), f32Tensor(*shape), *a, *b);
  return define(n, 0, op);
}

LogicalResult Importer::importGemm(const Node &n) {
  if (failed(checkArity(n, 2, 3)))
    return failure();
  auto alpha = floatAttr(n, "alpha", 1.0f);
  auto beta = floatAttr(n, "beta", 1.0f);
  auto transA = intAttr(n, "transA", 0);
  auto transB = intAttr(n, "transB", 0);
  if (failed(alpha) || failed(beta) || failed(transA) || failed(transB))
    return failure();
  auto a = operandF32(n, 0);
  auto b = failed(a) ? Fail() : operandF32(n, 1);
  if (failed(b))
    return failure();
  Value c;
  ArrayRef<int64_t> cShape;
  if (hasInput(n, 2)) {
    auto cv = operandF32(n, 2);
    if (failed(cv))
      return failure();
    c = *cv;
    cShape = shapeOf(c);
  }
  std::string why;
  auto shape = graph::gemmShape(shapeOf(*a), shapeOf(*b), c ? &cShape : nullptr,
                                *transA != 0, *transB != 0, why);
  if (!shape)
    return failNode(n, why);
  auto op = graph::GemmOp::create(builder, loc(), f32Tensor(*shape), *a, *b, c,
                                  llvm::APFloat(*alpha), llvm::APFloat(*beta),
                                  *transA != 0, *transB != 0);
  return define(n, 0, op);
}

//===----------------------------------------------------------------------===//
// Convolutions
//===----------------------------------------------------------------------===//

namespace {
/// The spatial attributes of Conv / ConvTranspose / pooling, checked.
struct Spatial {
  SmallVector<int64_t> kernel, strides, dilations, pads;
  bool hasPads = false, hasKernel = false;
  std::string autoPad;
};

LogicalResult readSpatial(Importer &im, const Node &n, int64_t r, Spatial &s) {
  SmallVector<int64_t> ones(r, 1), zeros(2 * r, 0);
  auto kernel = im.intsAttr(n, "kernel_shape", {}, &s.hasKernel);
  auto strides = im.intsAttr(n, "strides", ones);
  auto dilations = im.intsAttr(n, "dilations", ones);
  auto pads = im.intsAttr(n, "pads", zeros, &s.hasPads);
  auto autoPad = im.stringAttr(n, "auto_pad", "NOTSET");
  if (failed(kernel) || failed(strides) || failed(dilations) || failed(pads) ||
      failed(autoPad))
    return failure();
  s.kernel = *kernel;
  s.strides = *strides;
  s.dilations = *dilations;
  s.pads = *pads;
  s.autoPad = *autoPad;
  if (s.hasKernel && (int64_t)s.kernel.size() != r)
    return im.failNode(n, "kernel_shape must have " + std::to_string(r) +
                              " values, got " + shapeStr(s.kernel));
  if ((int64_t)s.strides.size() != r)
    return im.failNode(n, "strides must have " + std::to_string(r) +
                              " values, got " + shapeStr(s.strides));
  if ((int64_t)s.dilations.size() != r)
    return im.failNode(n, "dilations must have " + std::to_string(r) +
                              " values, got " + shapeStr(s.dilations));
  if ((int64_t)s.pads.size() != 2 * r)
    return im.failNode(n, "pads must have " + std::to_string(2 * r) +
                              " values, got " + shapeStr(s.pads));
  for (int64_t i = 0; i < r; ++i)
    if (s.strides[i] < 1 || s.dilations[i] < 1)
      return im.failNode(n, "strides and dilations must be >= 1");
  for (int64_t k : s.kernel)
    if (k < 1)
      return im.failNode(n, "kernel_shape values must be >= 1, got " +
                                shapeStr(s.kernel));
  for (int64_t p : s.pads)
    if (p < 0)
      return im.failNode(n, "pads must be >= 0");
  return success();
}

/// The common prologue of Conv and ConvTranspose: arity, input and weight
/// shapes of the same rank >= 3 with at most `maxSpatial` spatial
/// dimensions, the spatial attributes and `group`.
struct ConvHeader {
  SmallVector<int64_t> xs, ws;
  int64_t r = 0;
  Spatial s;
  int64_t group = 1;
};

LogicalResult readConvHeader(Importer &im, const Node &n, int64_t maxSpatial,
                             const char *what, ConvHeader &h) {
  if (failed(im.checkArity(n, 2, 3)))
    return failure();
  auto xs = im.inputShape(n, 0);
  auto ws = failed(xs) ? Fail() : im.inputShape(n, 1);
  if (failed(ws))
    return failure();
  int64_t rank = xs->size();
  if (rank != int64_t(ws->size()) || rank < 3)
    return im.failNode(n, "expected input and weight of the same rank >= 3 "
                          "(NC... / OI...), got " +
                              shapeStr(*xs) + " and " + shapeStr(*ws));
  h.r = rank - 2;
  if (h.r > maxSpatial)
    return im.failNode(n, std::to_string(h.r) + "-D " + what +
                              " is not supported (1-D to " +
                              std::to_string(maxSpatial) + "-D only, input " +
                              shapeStr(*xs) + ")");
  for (auto [shape, role] : {std::pair{&*ws, "weight"}, {&*xs, "input"}})
    for (size_t d = 0; d < shape->size(); ++d)
      if ((*shape)[d] == 0)
        return im.failNode(n, std::string(role) + " " + shapeStr(*shape) +
                                  " has a zero-sized dimension " +
                                  std::to_string(d) +
                                  " (empty tensors are not supported)");
  h.xs.assign(xs->begin(), xs->end());
  h.ws.assign(ws->begin(), ws->end());
  if (failed(readSpatial(im, n, h.r, h.s)))
    return failure();
  auto group = im.intAttr(n, "group", 1);
  if (failed(group))
    return failure();
  if (*group < 1)
    return im.failNode(n, "group must be >= 1, got " + std::to_string(*group));
  h.group = *group;
  return success();
}
} // namespace

/// 3-D convolution as a sum over kernel depth of 2-D convolutions: for each
/// kernel depth kd the (depth-padded) input is sliced at kd * dilation with
/// the depth stride, depth is folded into the batch, and a 2-D convolution
/// with w[:, :, kd] runs over H, W; the partial results are added.
static LogicalResult importConv3D(Importer &im, const Node &n,
                                  ArrayRef<int64_t> xs, ArrayRef<int64_t> ws,
                                  Spatial &s, int64_t group) {
  int64_t N = xs[0], C = xs[1], D = xs[2], H = xs[3], W = xs[4];
  int64_t O = ws[0], Cg = ws[1], KD = ws[2], KH = ws[3], KW = ws[4];
  int64_t sd = s.strides[0], dd = s.dilations[0];
  int64_t Dp = D + s.pads[0] + s.pads[3];
  int64_t span = dd * (KD - 1) + 1;
  if (Dp < span)
    return im.failNode(n, "kernel is larger than the padded input");
  int64_t OD = (Dp - span) / sd + 1;
  auto x = operandReshaped(im, n, 0, SmallVector<int64_t>(xs));
  auto w =
      failed(x) ? Fail() : operandReshaped(im, n, 1, SmallVector<int64_t>(ws));
  if (failed(w))
    return failure();
  OpBuilder &b = im.builder;
  Location loc = im.loc();
  Value xp = *x;
  if (s.pads[0] || s.pads[3])
    xp = graph::PadOp::create(
        b, loc, im.f32Tensor({N, C, Dp, H, W}), xp,
        b.getDenseI64ArrayAttr({0, 0, s.pads[0], 0, 0, 0, 0, s.pads[3], 0, 0}),
        graph::PadModeAttr::get(b.getContext(), graph::PadMode::constant),
        b.getF32FloatAttr(0.0f));
  SmallVector<int64_t> strides2{s.strides[1], s.strides[2]},
      dil2{s.dilations[1], s.dilations[2]},
      pads2{s.pads[1], s.pads[2], s.pads[4], s.pads[5]};
  std::string why;
  SmallVector<int64_t> x2{N * OD, C, H, W}, w2{O, Cg, KH, KW};
  auto shape2 =
      graph::conv2dShape(x2, w2, nullptr, strides2, pads2, dil2, group, why);
  if (!shape2)
    return im.failNode(n, why);
  int64_t OH = (*shape2)[2], OW = (*shape2)[3];
  Value sum;
  for (int64_t kd = 0; kd < KD; ++kd) {
    Value xs5 =
        graph::SliceOp::create(b, loc, im.f32Tensor({N, C, OD, H, W}), xp,
                               b.getDenseI64ArrayAttr({0, 0, kd * dd, 0, 0}),
                               b.getDenseI64ArrayAttr({1, 1, sd, 1, 1}));
    Value xt =
        graph::TransposeOp::create(b, loc, im.f32Tensor({N, OD, C, H, W}), xs5,
                                   b.getDenseI64ArrayAttr({0, 2, 1, 3, 4}));
    Value wk =
        graph::SliceOp::create(b, loc, im.f32Tensor({O, Cg, 1, KH, KW}), *w,
                               b.getDenseI64ArrayAttr({0, 0, kd, 0, 0}),
                               b.getDenseI64ArrayAttr({1, 1, 1, 1, 1}));
    // In statement order (sibling arguments are evaluated in an order C++
    // leaves open, and the IR would differ between compilers).
    Value x2d = im.reshape(xt, x2);
    Value w2d = im.reshape(wk, w2);
    Value y = graph::Conv2DOp::create(b, loc, im.f32Tensor(*shape2), x2d, w2d,
                                      Value(), strides2, pads2, dil2,
                                      (uint64_t)group);
    sum = sum ? graph::AddOp::create(b, loc, im.f32Tensor(*shape2), sum, y)
                    .getResult()
              : y;
  }
  Value y = graph::TransposeOp::create(b, loc, im.f32Tensor({N, O, OD, OH, OW}),
                                       im.reshape(sum, {N, OD, O, OH, OW}),
                                       b.getDenseI64ArrayAttr({0, 2, 1, 3, 4}));
  if (im.hasInput(n, 2)) {
    auto bias = im.operandF32(n, 2);
    if (failed(bias))
      return failure();
    if (cast<RankedTensorType>(bias->getType()).getShape() !=
        ArrayRef<int64_t>{O})
      return im.failNode(n,
                         "bias must be 1-D with one value per output channel");
    y = graph::AddOp::create(b, loc, im.f32Tensor({N, O, OD, OH, OW}), y,
                             im.reshape(*bias, {1, O, 1, 1, 1}));
  }
  return im.define(n, 0, y);
}

LogicalResult Importer::importConv(const Node &n) {
  ConvHeader h;
  if (failed(readConvHeader(*this, n, 3, "convolution", h)))
    return failure();
  const SmallVector<int64_t> *xs = &h.xs, *ws = &h.ws;
  const int64_t r = h.r;
  Spatial &s = h.s;
  const int64_t *group = &h.group;
  ArrayRef<int64_t> wk = ArrayRef<int64_t>(*ws).drop_front(2);
  if (s.hasKernel && ArrayRef<int64_t>(s.kernel) != wk)
    return failNode(n, "kernel_shape " + shapeStr(s.kernel) +
                           " does not match the weight's spatial dimensions " +
                           shapeStr(wk));
  if (failed(resolveAutoPad(n, s.autoPad, s.hasPads,
                            ArrayRef<int64_t>(*xs).drop_front(2), wk, s.strides,
                            s.dilations, s.pads)))
    return failure();

  if (r == 3)
    return importConv3D(*this, n, *xs, *ws, s, *group);
  SmallVector<int64_t> x4(*xs), w4(*ws);
  SmallVector<int64_t> strides = s.strides, dil = s.dilations, pads = s.pads;
  if (r == 1) {
    x4.insert(x4.begin() + 2, 1);
    w4.insert(w4.begin() + 2, 1);
    strides = to2D(s.strides, 1);
    dil = to2D(s.dilations, 1);
    pads = pads2D(s.pads);
  }
  auto x = operandReshaped(*this, n, 0, x4);
  auto w = failed(x) ? Fail() : operandReshaped(*this, n, 1, w4);
  if (failed(w))
    return failure();
  Value bias;
  ArrayRef<int64_t> biasShape;
  if (hasInput(n, 2)) {
    auto bv = operandF32(n, 2);
    if (failed(bv))
      return failure();
    bias = *bv;
    biasShape = shapeOf(bias);
  }
  std::string why;
  auto shape = graph::conv2dShape(x4, w4, bias ? &biasShape : nullptr, strides,
                                  pads, dil, *group, why);
  if (!shape)
    return failNode(n, why);
  Value y = graph::Conv2DOp::create(builder, loc(), f32Tensor(*shape), *x, *w,
                                    bias, strides, pads, dil, (uint64_t)*group);
  if (r == 1)
    y = reshape(y, {(*shape)[0], (*shape)[1], (*shape)[3]});
  return define(n, 0, y);
}

LogicalResult Importer::importConvTranspose(const Node &n) {
  ConvHeader h;
  if (failed(readConvHeader(*this, n, 2, "transposed convolution", h)))
    return failure();
  const SmallVector<int64_t> *xs = &h.xs, *ws = &h.ws;
  const int64_t r = h.r, rank = r + 2;
  Spatial &s = h.s;
  FailureOr<int64_t> group = h.group;
  bool hasOutShape = false;
  auto outPad = failed(group)
                    ? Fail()
                    : intsAttr(n, "output_padding", SmallVector<int64_t>(r, 0));
  auto outShape =
      failed(outPad) ? Fail() : intsAttr(n, "output_shape", {}, &hasOutShape);
  if (failed(outShape))
    return failure();
  if ((int64_t)outPad->size() != r)
    return failNode(n, "output_padding must have " + std::to_string(r) +
                           " values");
  ArrayRef<int64_t> wk = ArrayRef<int64_t>(*ws).drop_front(2);
  if (s.hasKernel && ArrayRef<int64_t>(s.kernel) != wk)
    return failNode(n, "kernel_shape " + shapeStr(s.kernel) +
                           " does not match the weight's spatial dimensions " +
                           shapeStr(wk));
  ArrayRef<int64_t> in = ArrayRef<int64_t>(*xs).drop_front(2);
  SmallVector<int64_t> target;
  if (hasOutShape) {
    target = *outShape;
    if ((int64_t)target.size() == rank)
      target.erase(target.begin(), target.begin() + 2);
    if ((int64_t)target.size() != r)
      return failNode(n, "output_shape must have " + std::to_string(r) +
                             " spatial values, got " + shapeStr(*outShape));
  } else if (s.autoPad == "SAME_UPPER" || s.autoPad == "SAME_LOWER") {
    for (int64_t i = 0; i < r; ++i)
      target.push_back(in[i] * s.strides[i]);
  } else if (s.autoPad != "NOTSET" && s.autoPad != "VALID") {
    return failNode(n, "unsupported auto_pad '" + s.autoPad + "'");
  } else if (s.autoPad == "VALID") {
    s.pads.assign(2 * r, 0);
  }
  if (!target.empty()) {
    if (s.hasPads && llvm::any_of(s.pads, [](int64_t p) { return p != 0; }) &&
        !hasOutShape)
      return failNode(n, "explicit pads cannot be combined with auto_pad " +
                             s.autoPad);
    // total = full extent - requested extent, split as the ONNX spec says;
    // a negative total means the output is larger: extra output padding.
    for (int64_t i = 0; i < r; ++i) {
      int64_t full = s.strides[i] * (in[i] - 1) + (*outPad)[i] +
                     (wk[i] - 1) * s.dilations[i] + 1;
      int64_t total = full - target[i];
      if (total < 0) {
        (*outPad)[i] -= total;
        s.pads[i] = s.pads[i + r] = 0;
        continue;
      }
      int64_t half = total / 2;
      if (s.autoPad == "SAME_UPPER") {
        s.pads[i] = half;
        s.pads[i + r] = total - half;
      } else {
        s.pads[i] = total - half;
        s.pads[i + r] = half;
      }
    }
  }
  SmallVector<int64_t> x4(*xs), w4(*ws);
  SmallVector<int64_t> strides = s.strides, dil = s.dilations, pads = s.pads,
                       op2 = *outPad;
  if (r == 1) {
    x4.insert(x4.begin() + 2, 1);
    w4.insert(w4.begin() + 2, 1);
    strides = to2D(s.strides, 1);
    dil = to2D(s.dilations, 1);
    pads = pads2D(s.pads);
    op2 = to2D(*outPad, 0);
  }
  auto x = operandReshaped(*this, n, 0, x4);
  auto w = failed(x) ? Fail() : operandReshaped(*this, n, 1, w4);
  if (failed(w))
    return failure();
  Value bias;
  if (hasInput(n, 2)) {
    auto bv = operandF32(n, 2);
    if (failed(bv))
      return failure();
    bias = *bv;
  }
  std::string why;
  auto shape =
      graph::convTranspose2dShape(x4, w4, strides, pads, dil, op2, *group, why);
  if (!shape)
    return failNode(n, why);
  if (bias && shapeOf(bias) != ArrayRef<int64_t>{(*shape)[1]})
    return failNode(n, "bias must be 1-D with one value per output channel");
  Value y = graph::ConvTranspose2DOp::create(builder, loc(), f32Tensor(*shape),
                                             *x, *w, bias, strides, pads, dil,
                                             op2, (uint64_t)*group);
  if (r == 1)
    y = reshape(y, {(*shape)[0], (*shape)[1], (*shape)[3]});
  return define(n, 0, y);
}

//===----------------------------------------------------------------------===//
// Pooling
//===----------------------------------------------------------------------===//

/// 3-D pooling as two 2-D poolings: over (H, W) with depth folded into the
/// channels, then over D with H * W as the width. A box window is separable:
/// the max of maxes is the max, and the average of averages is the average
/// because the counted window is the product of per-axis counts (with or
/// without padding, in ceil mode too).
static LogicalResult importPool3D(Importer &im, const Node &n,
                                  ArrayRef<int64_t> xs, Spatial &s,
                                  bool isMax) {
  if (!s.hasKernel)
    return im.failNode(n, "kernel_shape is required");
  auto ceilMode = im.intAttr(n, "ceil_mode", 0);
  auto countPad =
      failed(ceilMode) ? Fail() : im.intAttr(n, "count_include_pad", 0);
  if (failed(countPad))
    return failure();
  if (failed(im.resolveAutoPad(n, s.autoPad, s.hasPads, xs.drop_front(2),
                               s.kernel, s.strides, s.dilations, s.pads)))
    return failure();
  int64_t N = xs[0], C = xs[1], D = xs[2], H = xs[3], W = xs[4];
  std::string why;
  auto extent = [&](int i) {
    return graph::poolExtent(xs[2 + i], s.kernel[i], s.strides[i], s.pads[i],
                             s.pads[i + 3], s.dilations[i], *ceilMode != 0,
                             why);
  };
  auto od = extent(0), oh = extent(1), ow = extent(2);
  if (!od || !oh || !ow)
    return im.failNode(n, why);
  auto kind = isMax ? graph::PoolKind::max : graph::PoolKind::avg;
  auto x = operandReshaped(im, n, 0, {N, C * D, H, W});
  if (failed(x))
    return failure();
  Value hw = graph::Pool2DOp::create(
      im.builder, im.loc(), im.f32Tensor({N, C * D, *oh, *ow}), kind, *x,
      {s.kernel[1], s.kernel[2]}, {s.strides[1], s.strides[2]},
      {s.pads[1], s.pads[2], s.pads[4], s.pads[5]},
      {s.dilations[1], s.dilations[2]}, *ceilMode != 0, *countPad != 0);
  hw = im.reshape(hw, {N, C, D, *oh * *ow});
  Value d = graph::Pool2DOp::create(
      im.builder, im.loc(), im.f32Tensor({N, C, *od, *oh * *ow}), kind, hw,
      {s.kernel[0], 1}, {s.strides[0], 1}, {s.pads[0], 0, s.pads[3], 0},
      {s.dilations[0], 1}, *ceilMode != 0, *countPad != 0);
  return im.define(n, 0, im.reshape(d, {N, C, *od, *oh, *ow}));
}

LogicalResult Importer::importPool(const Node &n) {
  bool isMax = n.op_type() == "MaxPool";
  if (failed(checkArity(n, 1, 1, isMax ? 2 : 1)))
    return failure();
  if (isMax && n.output_size() > 1 && !n.output(1).empty())
    return failNode(n, "the Indices output is not supported");
  auto xs = inputShape(n, 0);
  if (failed(xs))
    return failure();
  int64_t rank = xs->size();
  if (rank < 3)
    return failNode(n, "expected an N x C x ... input, got " + shapeStr(*xs));
  int64_t r = rank - 2;
  if (r > 3)
    return failNode(n, std::to_string(r) +
                           "-D pooling is not supported (1-D to 3-D only, "
                           "input " +
                           shapeStr(*xs) + ")");
  Spatial s;
  if (failed(readSpatial(*this, n, r, s)))
    return failure();
  if (r == 3)
    return importPool3D(*this, n, *xs, s, isMax);
  if (!s.hasKernel)
    return failNode(n, "kernel_shape is required");
  auto ceilMode = intAttr(n, "ceil_mode", 0);
  auto countPad =
      failed(ceilMode) ? Fail() : intAttr(n, "count_include_pad", 0);
  if (failed(countPad))
    return failure();
  ArrayRef<int64_t> in = ArrayRef<int64_t>(*xs).drop_front(2);
  if (failed(resolveAutoPad(n, s.autoPad, s.hasPads, in, s.kernel, s.strides,
                            s.dilations, s.pads)))
    return failure();
  SmallVector<int64_t> x4(*xs), kernel = s.kernel, strides = s.strides,
                                dil = s.dilations, pads = s.pads;
  if (r == 1) {
    x4.insert(x4.begin() + 2, 1);
    kernel = to2D(s.kernel, 1);
    strides = to2D(s.strides, 1);
    dil = to2D(s.dilations, 1);
    pads = pads2D(s.pads);
  }
  auto x = operandReshaped(*this, n, 0, x4);
  if (failed(x))
    return failure();
  SmallVector<int64_t> out{x4[0], x4[1], 0, 0};
  std::string why;
  for (int i = 0; i < 2; ++i) {
    auto e = graph::poolExtent(x4[2 + i], kernel[i], strides[i], pads[i],
                               pads[i + 2], dil[i], *ceilMode != 0, why);
    if (!e)
      return failNode(n, why);
    out[2 + i] = *e;
  }
  Value y = graph::Pool2DOp::create(
      builder, loc(), f32Tensor(out),
      isMax ? graph::PoolKind::max : graph::PoolKind::avg, *x, kernel, strides,
      pads, dil, *ceilMode != 0, *countPad != 0);
  if (r == 1)
    y = reshape(y, {out[0], out[1], out[3]});
  return define(n, 0, y);
}

LogicalResult Importer::importGlobalPool(const Node &n) {
  if (failed(checkArity(n, 1, 1)))
    return failure();
  auto x = operandF32(n, 0);
  if (failed(x))
    return failure();
  int64_t rank = shapeOf(*x).size();
  if (rank < 3)
    return failNode(n, "expected an N x C x ... input");
  SmallVector<int64_t> axes;
  for (int64_t d = 2; d < rank; ++d)
    axes.push_back(d);
  bool isMax = n.op_type() == "GlobalMaxPool";
  return define(n, 0,
                reduce(isMax ? ReduceFn::max : ReduceFn::mean, *x, axes, true));
}

//===----------------------------------------------------------------------===//
// Reductions
//===----------------------------------------------------------------------===//

LogicalResult Importer::importReduce(const Node &n) {
  const std::string &op = n.op_type();
  ReduceFn fn = llvm::StringSwitch<ReduceFn>(op)
                    .Case("ReduceMean", ReduceFn::mean)
                    .Case("ReduceSum", ReduceFn::sum)
                    .Case("ReduceMax", ReduceFn::max)
                    .Case("ReduceMin", ReduceFn::min)
                    .Case("ReduceProd", ReduceFn::prod)
                    .Case("ReduceL1", ReduceFn::l1)
                    .Case("ReduceL2", ReduceFn::l2)
                    .Case("ReduceLogSum", ReduceFn::log_sum)
                    .Case("ReduceLogSumExp", ReduceFn::log_sum_exp)
                    .Default(ReduceFn::sum_square);
  // Axes are an input from opset 13 (ReduceSum) / 18 (the others).
  bool axesInput =
      opsetVersion >= 18 || (op == "ReduceSum" && opsetVersion >= 13);
  if (failed(checkArity(n, 1, axesInput ? 2 : 1)))
    return failure();
  auto keep = intAttr(n, "keepdims", 1);
  auto noop = failed(keep) ? Fail() : intAttr(n, "noop_with_empty_axes", 0);
  if (failed(noop))
    return failure();
  FailureOr<SmallVector<int64_t>> axes = SmallVector<int64_t>();
  if (axesInput) {
    if (hasInput(n, 1))
      axes = constInts(n, 1);
  } else {
    axes = intsAttr(n, "axes", {});
  }
  if (failed(axes))
    return failure();
  auto xs = inputShape(n, 0);
  if (failed(xs))
    return failure();
  int64_t rank = xs->size();
  if (axes->empty()) {
    if (*noop) {
      values[n.output(0)] = values[n.input(0)];
      return success();
    }
    for (int64_t d = 0; d < rank; ++d)
      axes->push_back(d);
  }
  SmallVector<int64_t> norm;
  for (int64_t a : *axes) {
    auto na = normAxis(n, a, rank);
    if (failed(na))
      return failure();
    if (llvm::is_contained(norm, *na))
      return failNode(n, "axis " + std::to_string(a) + " is repeated");
    norm.push_back(*na);
  }
  llvm::sort(norm);
  auto x = operandF32(n, 0);
  if (failed(x))
    return failure();
  return define(n, 0, reduce(fn, *x, norm, *keep != 0));
}

LogicalResult Importer::importArgMinMax(const Node &n) {
  if (failed(checkArity(n, 1, 1)))
    return failure();
  auto axisAttr = intAttr(n, "axis", 0);
  auto keep = failed(axisAttr) ? Fail() : intAttr(n, "keepdims", 1);
  auto last = failed(keep) ? Fail() : intAttr(n, "select_last_index", 0);
  auto x = failed(last) ? Fail() : operandF32(n, 0);
  if (failed(x))
    return failure();
  auto axis = normAxis(n, *axisAttr, shapeOf(*x).size());
  if (failed(axis))
    return failure();
  std::string why;
  auto shape = graph::reduceShape(shapeOf(*x), {*axis}, *keep != 0, why);
  auto type = RankedTensorType::get(*shape, builder.getI64Type());
  auto op = graph::ReduceOp::create(
      builder, loc(), type,
      n.op_type() == "ArgMax" ? ReduceFn::argmax : ReduceFn::argmin, *x,
      ArrayRef<int64_t>{*axis}, *keep != 0, *last != 0);
  return define(n, 0, op);
}

//===----------------------------------------------------------------------===//
// Normalisation
//===----------------------------------------------------------------------===//

LogicalResult Importer::importBatchNorm(const Node &n) {
  if (failed(checkArity(n, 5, 5, 5)))
    return failure();
  for (int i = 1; i < n.output_size(); ++i)
    if (!n.output(i).empty())
      return failNode(n, "training outputs (running / saved mean and "
                         "variance) are not supported (inference only)");
  auto eps = floatAttr(n, "epsilon", 1e-5f);
  auto training = failed(eps) ? Fail() : intAttr(n, "training_mode", 0);
  auto spatial = failed(training) ? Fail() : intAttr(n, "spatial", 1);
  if (failed(spatial))
    return failure();
  if (*training)
    return failNode(n, "training_mode = 1 is not supported (inference only)");
  if (!*spatial)
    return failNode(n, "spatial = 0 is not supported");
  SmallVector<Value> ops;
  for (int i = 0; i < 5; ++i) {
    auto v = operandF32(n, i);
    if (failed(v))
      return failure();
    ops.push_back(*v);
  }
  ArrayRef<int64_t> xs = shapeOf(ops[0]);
  if (xs.size() < 2)
    return failNode(n, "the input needs a channel dimension");
  for (int i = 1; i < 5; ++i)
    if (shapeOf(ops[i]) != ArrayRef<int64_t>{xs[1]})
      return failNode(n, "scale, bias, mean and variance must have shape [" +
                             std::to_string(xs[1]) + "]");
  auto op = graph::BatchNormOp::create(builder, loc(), ops[0].getType(), ops[0],
                                       ops[1], ops[2], ops[3], ops[4],
                                       builder.getF32FloatAttr(*eps));
  return define(n, 0, op);
}

namespace {
/// (x - mean) / sqrt(var + eps) over `axes` (keepdims); returns the
/// normalised value, the mean and the inverse standard deviation.
struct Normalized {
  Value y, mean, invStd;
};
FailureOr<Normalized> normalize(Importer &im, const Node &n, Value x,
                                ArrayRef<int64_t> axes, float eps) {
  Value mean = im.reduce(ReduceFn::mean, x, axes, true);
  auto d = im.binary(n, BinaryFn::sub, x, mean);
  if (failed(d))
    return failure();
  Value var =
      im.reduce(ReduceFn::mean, im.unary(UnaryFn::square, *d), axes, true);
  Value inv = im.unary(
      UnaryFn::reciprocal,
      im.unary(UnaryFn::sqrt, im.unary(UnaryFn::affine, var, 1.0f, eps)));
  auto y = im.binary(n, BinaryFn::mul, *d, inv);
  if (failed(y))
    return failure();
  return Normalized{*y, mean, inv};
}
} // namespace

LogicalResult Importer::importInstanceNorm(const Node &n) {
  if (failed(checkArity(n, 3, 3)))
    return failure();
  auto eps = floatAttr(n, "epsilon", 1e-5f);
  auto x = failed(eps) ? Fail() : operandF32(n, 0);
  if (failed(x))
    return failure();
  SmallVector<int64_t> xs(shapeOf(*x));
  if (xs.size() < 3)
    return failNode(n, "expected an N x C x D1 ... input");
  SmallVector<int64_t> axes, cshape{xs[1]};
  for (size_t d = 2; d < xs.size(); ++d) {
    axes.push_back(d);
    cshape.push_back(1);
  }
  auto scale = operandReshaped(*this, n, 1, cshape);
  auto bias = failed(scale) ? Fail() : operandReshaped(*this, n, 2, cshape);
  if (failed(bias))
    return failure();
  auto nz = normalize(*this, n, *x, axes, *eps);
  if (failed(nz))
    return failure();
  auto y = binary(n, BinaryFn::mul, nz->y, *scale);
  auto r = failed(y) ? Fail() : add(n, *y, *bias);
  return failed(r) ? Fail() : define(n, 0, *r);
}

LogicalResult Importer::importLayerNorm(const Node &n) {
  if (failed(checkArity(n, 2, 3, 3)))
    return failure();
  auto axisAttr = intAttr(n, "axis", -1);
  auto eps = failed(axisAttr) ? Fail() : floatAttr(n, "epsilon", 1e-5f);
  auto x = failed(eps) ? Fail() : operandF32(n, 0);
  if (failed(x))
    return failure();
  int64_t rank = shapeOf(*x).size();
  auto axis = normAxis(n, *axisAttr, rank);
  if (failed(axis))
    return failure();
  SmallVector<int64_t> axes;
  for (int64_t d = *axis; d < rank; ++d)
    axes.push_back(d);
  auto nz = normalize(*this, n, *x, axes, *eps);
  auto scale = failed(nz) ? Fail() : operandF32(n, 1);
  if (failed(scale))
    return failure();
  auto y = binary(n, BinaryFn::mul, nz->y, *scale);
  if (failed(y))
    return failure();
  Value v = *y;
  if (hasInput(n, 2)) {
    auto b = operandF32(n, 2);
    auto r = failed(b) ? Fail() : add(n, v, *b);
    if (failed(r))
      return failure();
    v = *r;
  }
  if (shapeOf(v) != shapeOf(*x))
    return failNode(n, "scale / bias do not broadcast to the input");
  if (failed(define(n, 0, v)) || failed(define(n, 1, nz->mean)))
    return failure();
  return define(n, 2, nz->invStd);
}

LogicalResult Importer::importLpNorm(const Node &n) {
  if (failed(checkArity(n, 1, 1)))
    return failure();
  auto axisAttr = intAttr(n, "axis", -1);
  auto p = failed(axisAttr) ? Fail() : intAttr(n, "p", 2);
  auto x = failed(p) ? Fail() : operandF32(n, 0);
  if (failed(x))
    return failure();
  if (*p != 1 && *p != 2)
    return failNode(n, "p must be 1 or 2");
  auto axis = normAxis(n, *axisAttr, shapeOf(*x).size());
  if (failed(axis))
    return failure();
  Value norm = reduce(*p == 1 ? ReduceFn::l1 : ReduceFn::l2, *x, {*axis}, true);
  auto r = binary(n, BinaryFn::div, *x, norm);
  return failed(r) ? Fail() : define(n, 0, *r);
}

//===----------------------------------------------------------------------===//
// Einsum
//===----------------------------------------------------------------------===//

/// The matmul-like forms: every label appears at most once per operand;
/// labels only in one operand and not in the output are summed first; the
/// rest is batch (both operands and output), free (one operand and output)
/// or contracted (both operands, not the output) -> transpose + reshape +
/// graph.matmul + reshape + transpose.
LogicalResult Importer::importEinsum(const Node &n) {
  if (failed(checkArity(n, 1, 2)))
    return failure();
  auto eq = stringAttr(n, "equation", "");
  if (failed(eq))
    return failure();
  std::string e;
  for (char ch : *eq)
    if (ch != ' ')
      e += ch;
  int numIn = n.input_size();
  SmallVector<Value> xs;
  for (int i = 0; i < numIn; ++i) {
    auto v = operandF32(n, i);
    if (failed(v))
      return failure();
    xs.push_back(*v);
  }
  size_t arrow = e.find("->");
  std::string lhs = arrow == std::string::npos ? e : e.substr(0, arrow);
  SmallVector<std::string> terms;
  {
    size_t start = 0, comma;
    while ((comma = lhs.find(',', start)) != std::string::npos) {
      terms.push_back(lhs.substr(start, comma - start));
      start = comma + 1;
    }
    terms.push_back(lhs.substr(start));
  }
  if ((int)terms.size() != numIn)
    return failNode(n, "equation '" + *eq + "' does not match " +
                           std::to_string(numIn) + " inputs");
  // Expand "..." into reserved upper-case-free labels (digits).
  int64_t ellRank = -1;
  for (int i = 0; i < numIn; ++i) {
    size_t p = terms[i].find("...");
    int64_t rank = shapeOf(xs[i]).size();
    if (p == std::string::npos)
      continue;
    int64_t er = rank - ((int64_t)terms[i].size() - 3);
    if (er < 0)
      return failNode(n, "equation '" + *eq + "' does not fit the inputs");
    ellRank = std::max(ellRank, er);
    std::string rep;
    for (int64_t k = 0; k < er; ++k)
      rep += char('0' + (ellRank - er) + k);
    terms[i].replace(p, 3, rep);
  }
  std::string out;
  if (arrow != std::string::npos) {
    out = e.substr(arrow + 2);
    size_t p = out.find("...");
    if (p != std::string::npos) {
      std::string rep;
      for (int64_t k = 0; k < std::max<int64_t>(ellRank, 0); ++k)
        rep += char('0' + k);
      out.replace(p, 3, rep);
    }
  } else {
    // Implicit output: ellipsis labels, then labels appearing once, sorted.
    std::map<char, int> count;
    for (auto &t : terms)
      for (char ch : t)
        ++count[ch];
    for (auto &[ch, c] : count)
      if (c == 1 || isdigit(ch))
        out += ch;
  }
  for (int i = 0; i < numIn; ++i) {
    if ((int64_t)terms[i].size() != (int64_t)shapeOf(xs[i]).size())
      return failNode(n, "equation '" + *eq + "': term '" + terms[i] +
                             "' does not match input rank " +
                             std::to_string(shapeOf(xs[i]).size()));
    for (size_t a = 0; a < terms[i].size(); ++a)
      if (terms[i].find(terms[i][a], a + 1) != std::string::npos)
        return failNode(n, "equation '" + *eq +
                               "' is not a matmul-like form (repeated label "
                               "in one operand: diagonal)");
  }
  auto dimOf = [&](char ch) -> int64_t {
    for (int i = 0; i < numIn; ++i) {
      size_t p = terms[i].find(ch);
      if (p != std::string::npos)
        return shapeOf(xs[i])[p];
    }
    return 1;
  };
  // Sum out labels that appear in one operand only and not in the output.
  for (int i = 0; i < numIn; ++i) {
    SmallVector<int64_t> axes;
    std::string kept;
    for (size_t a = 0; a < terms[i].size(); ++a) {
      char ch = terms[i][a];
      bool other = numIn == 2 && terms[1 - i].find(ch) != std::string::npos;
      if (out.find(ch) == std::string::npos && !other)
        axes.push_back(a);
      else
        kept += ch;
    }
    if (!axes.empty()) {
      xs[i] = reduce(ReduceFn::sum, xs[i], axes, false);
      terms[i] = kept;
    }
  }
  auto permFor = [&](const std::string &from, const std::string &to) {
    SmallVector<int64_t> perm;
    for (char ch : to)
      perm.push_back(from.find(ch));
    return perm;
  };
  if (numIn == 1) {
    if (terms[0].size() != out.size())
      return failNode(n, "equation '" + *eq + "' is not supported");
    return define(n, 0, transpose(xs[0], permFor(terms[0], out)));
  }
  std::string batch, lfree, rfree, contr;
  for (char ch : terms[0]) {
    bool inR = terms[1].find(ch) != std::string::npos;
    bool inO = out.find(ch) != std::string::npos;
    if (inR && inO)
      batch += ch;
    else if (inR)
      contr += ch;
    else
      lfree += ch;
  }
  for (char ch : terms[1])
    if (terms[0].find(ch) == std::string::npos)
      rfree += ch;
  for (char ch : out)
    if (batch.find(ch) == std::string::npos &&
        lfree.find(ch) == std::string::npos &&
        rfree.find(ch) == std::string::npos)
      return failNode(n, "equation '" + *eq + "': output label '" +
                             std::string(1, ch) + "' is not in the inputs");
  auto prod = [&](const std::string &ls) {
    int64_t p = 1;
    for (char ch : ls)
      p *= dimOf(ch);
    return p;
  };
  for (char ch : batch)
    if (dimOf(ch) != shapeOf(xs[1])[terms[1].find(ch)] ||
        shapeOf(xs[0])[terms[0].find(ch)] != shapeOf(xs[1])[terms[1].find(ch)])
      return failNode(n, "equation '" + *eq +
                             "': broadcasting batch labels is not supported");
  SmallVector<int64_t> bshape;
  for (char ch : batch)
    bshape.push_back(dimOf(ch));
  int64_t M = prod(lfree), K = prod(contr), N = prod(rfree);
  Value a = transpose(xs[0], permFor(terms[0], batch + lfree + contr));
  Value b = transpose(xs[1], permFor(terms[1], batch + contr + rfree));
  SmallVector<int64_t> as(bshape), bs(bshape), cs(bshape);
  as.append({M, K});
  bs.append({K, N});
  cs.append({M, N});
  a = reshape(a, as);
  b = reshape(b, bs);
  Value c = graph::MatMulOp::create(builder, loc(), f32Tensor(cs), a, b);
  std::string produced = batch + lfree + rfree;
  SmallVector<int64_t> ps;
  for (char ch : produced)
    ps.push_back(dimOf(ch));
  c = reshape(c, ps);
  return define(n, 0, transpose(c, permFor(produced, out)));
}

//===----------------------------------------------------------------------===//
// Recurrent layers
//===----------------------------------------------------------------------===//

namespace {

/// An ONNX recurrent activation function and its default alpha / beta.
struct ActivationDefault {
  const char *name;
  bool hasAlpha, hasBeta;
  float alpha, beta;
};
const ActivationDefault kActivations[] = {
    {"Relu", false, false, 0, 0},
    {"Tanh", false, false, 0, 0},
    {"Sigmoid", false, false, 0, 0},
    {"Affine", true, true, 1.0f, 0.0f},
    {"LeakyRelu", true, false, 0.01f, 0},
    {"ThresholdedRelu", true, false, 1.0f, 0},
    {"ScaledTanh", true, true, 1.0f, 1.0f},
    {"HardSigmoid", true, true, 0.2f, 0.5f},
    {"Elu", true, false, 1.0f, 0},
    {"Softsign", false, false, 0, 0},
    {"Softplus", false, false, 0, 0},
};

/// The activation named `name` (ONNX names are case-insensitive), or null.
const ActivationDefault *findActivation(StringRef name) {
  const ActivationDefault *found = nullptr;
  for (const auto &a : kActivations)
    if (StringRef(a.name).equals_insensitive(name))
      found = &a;
  return found;
}

/// One RNN / GRU / LSTM node being imported: its attributes and operands,
/// read and checked in order (the first error names the node), then the
/// graph.recurrent op.
class RecurrentImport {
public:
  RecurrentImport(Importer &im, const Node &n);
  LogicalResult run();

private:
  LogicalResult readAttributes();
  /// X (to layout 0), W, R, and the hidden size (from R when absent).
  LogicalResult readWeights();
  LogicalResult readBias();
  /// Constant lengths are checked, and dropped when every sequence is full.
  LogicalResult readSequenceLengths();
  /// initial_h, and for an LSTM initial_c and the peepholes P.
  LogicalResult readStates();
  /// Initial state input i into `out` (layout 0), checked [dirs, batch, h].
  LogicalResult readState(int i, Value &out);
  /// Every direction's activations with their alpha / beta, defaults
  /// filled in, names in canonical spelling.
  LogicalResult resolveActivations();
  /// Shapes, checked here to name the node (the verifier checks again).
  LogicalResult checkShapes();
  LogicalResult createOp();

  Importer &im;
  const Node &n;
  const graph::RnnKind kind;
  const int64_t gates; ///< 4 (LSTM), 3 (GRU), 1 (RNN)
  // Attributes.
  std::string direction;
  int64_t dirs = 1, layout = 0, hidden = -1, inputForget = 0, lbr = 0;
  bool hasActs = false, hasAlpha = false, hasBeta = false;
  SmallVector<std::string> acts;
  SmallVector<float> alphas, betas;
  std::optional<float> clip;
  // Operands (layout 0) and dimensions.
  Value X, W, R, B, seqLens, h0, c0, P;
  int64_t seq = 0, batch = 0, h = 0;
  // Resolved activations.
  SmallVector<std::string> actNames;
  SmallVector<float> alphaOut, betaOut;
};

RecurrentImport::RecurrentImport(Importer &im, const Node &n)
    : im(im), n(n), kind(n.op_type() == "LSTM"  ? graph::RnnKind::lstm
                         : n.op_type() == "GRU" ? graph::RnnKind::gru
                                                : graph::RnnKind::rnn),
      gates(kind == graph::RnnKind::lstm  ? 4
            : kind == graph::RnnKind::gru ? 3
                                          : 1) {}

LogicalResult RecurrentImport::run() {
  const bool lstm = kind == graph::RnnKind::lstm;
  if (failed(im.checkArity(n, 3, lstm ? 8 : 6, lstm ? 3 : 2)) ||
      failed(readAttributes()) || failed(readWeights()) || failed(readBias()) ||
      failed(readSequenceLengths()) || failed(readStates()) ||
      failed(resolveActivations()) || failed(checkShapes()))
    return failure();
  return createOp();
}

LogicalResult RecurrentImport::readAttributes() {
  auto dirAttr = im.stringAttr(n, "direction", "forward");
  auto layoutAttr = failed(dirAttr) ? Fail() : im.intAttr(n, "layout", 0);
  auto hiddenAttr =
      failed(layoutAttr) ? Fail() : im.intAttr(n, "hidden_size", -1);
  auto forgetAttr =
      failed(hiddenAttr) ? Fail() : im.intAttr(n, "input_forget", 0);
  auto lbrAttr =
      failed(forgetAttr) ? Fail() : im.intAttr(n, "linear_before_reset", 0);
  auto actsAttr =
      failed(lbrAttr) ? Fail() : im.stringsAttr(n, "activations", &hasActs);
  auto alphasAttr = failed(actsAttr)
                        ? Fail()
                        : im.floatsAttr(n, "activation_alpha", {}, &hasAlpha);
  auto betasAttr = failed(alphasAttr)
                       ? Fail()
                       : im.floatsAttr(n, "activation_beta", {}, &hasBeta);
  if (failed(betasAttr))
    return failure();
  direction = *dirAttr, layout = *layoutAttr, hidden = *hiddenAttr;
  inputForget = *forgetAttr, lbr = *lbrAttr;
  acts = *actsAttr, alphas = *alphasAttr, betas = *betasAttr;
  if (direction != "forward" && direction != "reverse" &&
      direction != "bidirectional")
    return im.failNode(n,
                       "direction must be forward, reverse or bidirectional");
  dirs = direction == "bidirectional" ? 2 : 1;
  if (im.attr(n, "clip")) {
    auto c = im.floatAttr(n, "clip", 0);
    if (failed(c))
      return failure();
    clip = *c;
  }
  return success();
}

LogicalResult RecurrentImport::readWeights() {
  auto x = im.operandF32(n, 0);
  auto w = failed(x) ? Fail() : im.operandF32(n, 1);
  auto r = failed(w) ? Fail() : im.operandF32(n, 2);
  if (failed(r))
    return failure();
  X = *x, W = *w, R = *r;
  if (Importer::shapeOf(X).size() != 3)
    return im.failNode(n, "X must be 3-D");
  if (layout)
    X = im.transpose(X, {1, 0, 2});
  seq = Importer::shapeOf(X)[0], batch = Importer::shapeOf(X)[1];
  h = hidden;
  if (im.attr(n, "hidden_size") && h < 1)
    return im.failNode(n, "hidden_size must be >= 1, got " + std::to_string(h));
  if (h <= 0) {
    if (Importer::shapeOf(R).size() != 3)
      return im.failNode(n, "R must be 3-D");
    h = Importer::shapeOf(R)[2];
  }
  return success();
}

LogicalResult RecurrentImport::readBias() {
  if (!Importer::hasInput(n, 3))
    return success();
  auto v = im.operandF32(n, 3);
  if (failed(v))
    return failure();
  B = *v;
  return success();
}

LogicalResult RecurrentImport::readSequenceLengths() {
  if (!Importer::hasInput(n, 4))
    return success();
  auto c = im.constant(n, 4);
  if (failed(c))
    return failure();
  if (!*c) {
    // A run-time input (an i32 / i64 graph input): the lowering turns it into
    // per-step masks on the accelerator; its values are checked at run time
    // only by clamping (docs/importer.md).
    auto v = im.operandAny(n, 4);
    if (failed(v))
      return failure();
    Type e = cast<RankedTensorType>(v->getType()).getElementType();
    if (!e.isInteger(32) && !e.isInteger(64))
      return im.failNode(n, "sequence_lens must be an integer tensor");
    seqLens = *v;
    return success();
  }
  bool full = llvm::all_of((*c)->i, [&](int64_t l) { return l == seq; });
  if ((*c)->isFloat())
    return im.failNode(n, "sequence_lens must be an integer tensor");
  for (int64_t l : (*c)->i)
    if (l < 1 || l > seq)
      return im.failNode(n, "sequence length " + std::to_string(l) +
                                " is outside [1, " + std::to_string(seq) + "]");
  if (!full) {
    ConstTensor lens = **c;
    lens.dtype = onnx::TensorProto::INT64;
    seqLens = im.materialize(lens, n.input(4));
  }
  return success();
}

LogicalResult RecurrentImport::readState(int i, Value &out) {
  if (!Importer::hasInput(n, i))
    return success();
  auto v = im.operandF32(n, i);
  if (failed(v))
    return failure();
  out = layout ? im.transpose(*v, {1, 0, 2}) : *v;
  if (Importer::shapeOf(out) != ArrayRef<int64_t>{dirs, batch, h})
    return im.failNode(n, "initial state '" + n.input(i) + "' must be [" +
                              std::to_string(dirs) + "," +
                              std::to_string(batch) + "," + std::to_string(h) +
                              "]");
  return success();
}

LogicalResult RecurrentImport::readStates() {
  if (failed(readState(5, h0)))
    return failure();
  if (kind != graph::RnnKind::lstm)
    return success();
  if (failed(readState(6, c0)))
    return failure();
  if (Importer::hasInput(n, 7)) {
    auto v = im.operandF32(n, 7);
    if (failed(v))
      return failure();
    P = *v;
    if (Importer::shapeOf(P) != ArrayRef<int64_t>{dirs, 3 * h})
      return im.failNode(n, "P must be [dirs, 3*hidden]");
  }
  return success();
}

LogicalResult RecurrentImport::resolveActivations() {
  SmallVector<std::string> defaults =
      kind == graph::RnnKind::lstm
          ? SmallVector<std::string>{"Sigmoid", "Tanh", "Tanh"}
      : kind == graph::RnnKind::gru
          ? SmallVector<std::string>{"Sigmoid", "Tanh"}
          : SmallVector<std::string>{"Tanh"};
  const size_t perDir = defaults.size();
  SmallVector<std::string> names;
  if (hasActs) {
    names = acts;
    if (names.size() == perDir && dirs == 2)
      names.append(SmallVector<std::string>(acts));
    if (names.size() != perDir * dirs)
      return im.failNode(n,
                         "activations needs " + std::to_string(perDir * dirs) +
                             " functions, got " + std::to_string(acts.size()));
  } else {
    for (int64_t d = 0; d < dirs; ++d)
      names.append(defaults.begin(), defaults.end());
  }
  size_t ai = 0, bi = 0;
  for (const std::string &name : names) {
    const ActivationDefault *k = findActivation(name);
    if (!k)
      return im.failNode(n, "unsupported activation '" + name + "'");
    float a = k->alpha, b = k->beta;
    // Explicit alpha / beta values are consumed in order by the functions
    // that take them.
    if (k->hasAlpha && hasAlpha && ai < alphas.size())
      a = alphas[ai++];
    if (k->hasBeta && hasBeta && bi < betas.size())
      b = betas[bi++];
    actNames.push_back(k->name);
    alphaOut.push_back(a);
    betaOut.push_back(b);
  }
  return success();
}

LogicalResult RecurrentImport::checkShapes() {
  const int64_t inSize = Importer::shapeOf(X)[2];
  if (Importer::shapeOf(W) != ArrayRef<int64_t>{dirs, gates * h, inSize})
    return im.failNode(n, "W must be [" + std::to_string(dirs) + "," +
                              std::to_string(gates * h) + "," +
                              std::to_string(inSize) + "], got " +
                              shapeStr(Importer::shapeOf(W)));
  if (Importer::shapeOf(R) != ArrayRef<int64_t>{dirs, gates * h, h})
    return im.failNode(n, "R must be [" + std::to_string(dirs) + "," +
                              std::to_string(gates * h) + "," +
                              std::to_string(h) + "], got " +
                              shapeStr(Importer::shapeOf(R)));
  if (B && Importer::shapeOf(B) != ArrayRef<int64_t>{dirs, 2 * gates * h})
    return im.failNode(n, "B must be [" + std::to_string(dirs) + "," +
                              std::to_string(2 * gates * h) + "]");
  if (seqLens && Importer::shapeOf(seqLens) != ArrayRef<int64_t>{batch})
    return im.failNode(n, "sequence_lens must be [batch]");
  return success();
}

// layout = 1 outputs are transposed back from the op's layout 0.
LogicalResult RecurrentImport::createOp() {
  OpBuilder &b = im.builder;
  SmallVector<StringRef> nameRefs(actNames.begin(), actNames.end());
  auto yTy = im.f32Tensor({seq, dirs, batch, h});
  auto hTy = im.f32Tensor({dirs, batch, h});
  auto rec = graph::RecurrentOp::create(
      b, im.loc(), TypeRange{yTy, hTy, hTy},
      graph::RnnKindAttr::get(&im.ctx, kind), X, W, R, B, seqLens, h0, c0, P,
      b.getI64IntegerAttr(h), b.getStringAttr(direction),
      b.getStrArrayAttr(nameRefs), b.getF32ArrayAttr(alphaOut),
      b.getF32ArrayAttr(betaOut), clip ? b.getF32FloatAttr(*clip) : FloatAttr(),
      b.getBoolAttr(inputForget != 0), b.getBoolAttr(lbr != 0));
  Value Y = rec.getY(), Yh = rec.getYH(), Yc = rec.getYC();
  if (layout) {
    Y = im.transpose(Y, {2, 0, 1, 3});
    Yh = im.transpose(Yh, {1, 0, 2});
    Yc = im.transpose(Yc, {1, 0, 2});
  }
  if (failed(im.define(n, 0, Y)) || failed(im.define(n, 1, Yh)))
    return failure();
  if (kind == graph::RnnKind::lstm)
    return im.define(n, 2, Yc);
  return success();
}

} // namespace

/// RNN / GRU / LSTM -> graph.recurrent. The importer fills in every
/// default: `activations` lists the functions of all directions (ONNX
/// spelling), `activation_alpha` / `activation_beta` have one entry per
/// activation (the ONNX default of that function, 0 when it has none).
/// layout = 1 is turned into layout 0 with transposes around the op.
LogicalResult Importer::importRecurrent(const Node &n) {
  return RecurrentImport(*this, n).run();
}
