//===- ImportExtra.cpp - operators decomposed into existing graph ops -----===//
//
// Operators outside the core list whose semantics are exact compositions of
// graph ops: boolean logic on i1 tensors (And, Or, Xor, Not via where /
// equal), hyperbolic functions (via exp / log / sqrt), IsNaN, IsInf,
// Shrink, DepthToSpace / SpaceToDepth (reshape + transpose), LRN (a window
// average over channels), MeanVarianceNormalization, Atan / Asin / Acos
// (a polynomial after range reduction). Trilu / CumSum / EyeLike are in
// ImportTriangular.cpp, the scatters and gathers by compile-time index
// tuples in ImportScatter.cpp.
//
//===----------------------------------------------------------------------===//
#include "ImportUtil.h"
#include "ImporterImpl.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

#include <algorithm>
#include <limits>

using namespace mlir;
using namespace accel::onnximport;
namespace graph = accel::graph;
using graph::BinaryFn;
using graph::UnaryFn;

namespace {
Value boolScalar(Importer &im, bool v) {
  auto ty = RankedTensorType::get({}, im.builder.getI1Type());
  return arith::ConstantOp::create(im.builder, im.loc(),
                                   DenseElementsAttr::get(ty, v));
}

FailureOr<Value> boolOperand(Importer &im, const Node &n, int i) {
  auto v = im.operandAny(n, i);
  if (failed(v))
    return failure();
  if (!Importer::elemOf(*v).isInteger(1))
    return im.failNode(n, "input '" + n.input(i) + "' must be BOOL");
  return v;
}

} // namespace

/// Broadcast shape of the where's three operands, as graph.where infers it.
FailureOr<Value> accel::onnximport::where(Importer &im, const Node &n, Value c,
                                          Value x, Value y) {
  std::string why;
  auto xy =
      graph::broadcastShapes(Importer::shapeOf(x), Importer::shapeOf(y), why);
  auto shape = xy ? graph::broadcastShapes(Importer::shapeOf(c), *xy, why) : xy;
  if (!shape)
    return im.failNode(n, why);
  return graph::WhereOp::create(im.builder, im.loc(), im.tensorLike(*shape, x),
                                c, x, y)
      .getResult();
}

LogicalResult Importer::importLogic(const Node &n) {
  const std::string &op = n.op_type();
  bool isNot = op == "Not";
  if (failed(checkArity(n, isNot ? 1 : 2, isNot ? 1 : 2)))
    return failure();
  auto a = boolOperand(*this, n, 0);
  if (failed(a))
    return failure();
  if (isNot) {
    auto r = binary(n, BinaryFn::equal, *a, boolScalar(*this, false));
    return failed(r) ? failure() : define(n, 0, *r);
  }
  auto b = boolOperand(*this, n, 1);
  if (failed(b))
    return failure();
  FailureOr<Value> r = failure();
  if (op == "And")
    r = where(*this, n, *a, *b, boolScalar(*this, false));
  else if (op == "Or")
    r = where(*this, n, *a, boolScalar(*this, true), *b);
  else { // Xor = not (a == b)
    auto eq = binary(n, BinaryFn::equal, *a, *b);
    r = failed(eq) ? Fail()
                   : binary(n, BinaryFn::equal, *eq, boolScalar(*this, false));
  }
  return failed(r) ? failure() : define(n, 0, *r);
}

LogicalResult Importer::importHyperbolic(const Node &n) {
  if (failed(checkArity(n, 1, 1)))
    return failure();
  auto x = operandF32(n, 0);
  if (failed(x))
    return failure();
  const std::string &op = n.op_type();
  Value v = *x;
  FailureOr<Value> r = failure();
  if (op == "Sinh" || op == "Cosh") {
    Value ep = unary(UnaryFn::exp, v);
    Value en = unary(UnaryFn::exp, unary(UnaryFn::neg, v));
    r = op == "Sinh" ? binary(n, BinaryFn::sub, ep, en) : add(n, ep, en);
    if (succeeded(r))
      r = unary(UnaryFn::affine, *r, 0.5f, 0.0f);
  } else if (op == "Asinh") {
    // sign(x) * log(|x| + sqrt(x^2 + 1)) (exact for negative x too).
    Value a = unary(UnaryFn::abs, v);
    Value s = unary(UnaryFn::sqrt,
                    unary(UnaryFn::affine, unary(UnaryFn::square, a), 1, 1));
    auto sum = add(n, a, s);
    if (failed(sum)) {
      r = Fail();
    } else {
      // Named steps: the order of evaluation of call arguments (and so the
      // order of the emitted ops) differs between compilers.
      Value logSum = unary(UnaryFn::log, *sum);
      Value sign = unary(UnaryFn::sign, v);
      r = binary(n, BinaryFn::mul, sign, logSum);
    }
  } else if (op == "Acosh") {
    Value s = unary(UnaryFn::sqrt,
                    unary(UnaryFn::affine, unary(UnaryFn::square, v), 1, -1));
    auto sum = add(n, v, s);
    r = failed(sum) ? Fail() : FailureOr<Value>(unary(UnaryFn::log, *sum));
  } else { // Atanh = 0.5 * log((1 + x) / (1 - x))
    Value oneMinusX = unary(UnaryFn::affine, v, -1, 1);
    Value onePlusX = unary(UnaryFn::affine, v, 1, 1);
    auto q = binary(n, BinaryFn::div, onePlusX, oneMinusX);
    r = failed(q) ? Fail()
                  : FailureOr<Value>(unary(UnaryFn::affine,
                                           unary(UnaryFn::log, *q), 0.5f, 0));
  }
  return failed(r) ? failure() : define(n, 0, *r);
}

LogicalResult Importer::importIsNaNInf(const Node &n) {
  if (failed(checkArity(n, 1, 1)))
    return failure();
  auto x = operandF32(n, 0);
  if (failed(x))
    return failure();
  FailureOr<Value> r = failure();
  if (n.op_type() == "IsNaN") {
    auto self = binary(n, BinaryFn::equal, *x, *x); // false only for NaN
    r = failed(self)
            ? Fail()
            : binary(n, BinaryFn::equal, *self, boolScalar(*this, false));
  } else {
    auto pos = intAttr(n, "detect_positive", 1);
    auto neg = failed(pos) ? Fail() : intAttr(n, "detect_negative", 1);
    if (failed(neg))
      return failure();
    float inf = std::numeric_limits<float>::infinity();
    if (*pos && *neg) {
      // In statement order: C++ leaves the order of sibling arguments open.
      Value mag = unary(UnaryFn::abs, *x);
      r = binary(n, BinaryFn::equal, mag, splatF32({}, inf));
    } else if (*pos || *neg)
      r = binary(n, BinaryFn::equal, *x, splatF32({}, *pos ? inf : -inf));
    else // detect nothing: all false (x < -inf never holds)
      r = binary(n, BinaryFn::less, *x, splatF32({}, -inf));
  }
  return failed(r) ? failure() : define(n, 0, *r);
}

/// Shrink: x < -lambd ? x + bias : x > lambd ? x - bias : 0.
LogicalResult Importer::importShrink(const Node &n) {
  if (failed(checkArity(n, 1, 1)))
    return failure();
  auto bias = floatAttr(n, "bias", 0.0f);
  auto lambd = failed(bias) ? Fail() : floatAttr(n, "lambd", 0.5f);
  auto x = failed(lambd) ? Fail() : operandF32(n, 0);
  if (failed(x))
    return failure();
  auto lo = binary(n, BinaryFn::less, *x, splatF32({}, -*lambd));
  auto hi = failed(lo) ? Fail()
                       : binary(n, BinaryFn::greater, *x, splatF32({}, *lambd));
  if (failed(hi))
    return failure();
  Value up = unary(UnaryFn::affine, *x, 1.0f, *bias);
  Value down = unary(UnaryFn::affine, *x, 1.0f, -*bias);
  auto inner = where(*this, n, *hi, down, splatF32({}, 0.0f));
  auto r = failed(inner) ? Fail() : where(*this, n, *lo, up, *inner);
  return failed(r) ? failure() : define(n, 0, *r);
}

/// DepthToSpace (DCR / CRD) and SpaceToDepth: reshape, transpose, reshape.
LogicalResult Importer::importDepthSpace(const Node &n) {
  if (failed(checkArity(n, 1, 1)))
    return failure();
  auto bsAttr = intAttr(n, "blocksize", 0);
  auto mode = failed(bsAttr) ? Fail() : stringAttr(n, "mode", "DCR");
  auto x = failed(mode) ? Fail() : operandF32(n, 0);
  if (failed(x))
    return failure();
  ArrayRef<int64_t> s = shapeOf(*x);
  int64_t b = *bsAttr;
  if (s.size() != 4 || b < 1)
    return failNode(n, "expected a 4-D input and blocksize >= 1");
  int64_t N = s[0], C = s[1], H = s[2], W = s[3];
  Value v;
  if (n.op_type() == "DepthToSpace") {
    if (C / b < b || C % (b * b)) // C / b first: b * b may overflow
      return failNode(n, "channels must be divisible by blocksize^2");
    int64_t c = C / (b * b);
    if (*mode == "DCR") {
      v = reshape(*x, {N, b, b, c, H, W});
      v = transpose(v, {0, 3, 4, 1, 5, 2});
    } else if (*mode == "CRD") {
      v = reshape(*x, {N, c, b, b, H, W});
      v = transpose(v, {0, 1, 4, 2, 5, 3});
    } else {
      return failNode(n, "mode must be DCR or CRD");
    }
    v = reshape(v, {N, c, H * b, W * b});
  } else {
    if (H % b || W % b)
      return failNode(n, "height and width must be divisible by blocksize");
    v = reshape(*x, {N, C, H / b, b, W / b, b});
    v = transpose(v, {0, 3, 5, 1, 2, 4});
    v = reshape(v, {N, C * b * b, H / b, W / b});
  }
  return define(n, 0, v);
}

/// LRN: y = x / (bias + alpha / size * sum of squares over a channel
/// window)^beta. The window sum is an average pool (padding included) over
/// the channel axis of [N, 1, C, rest].
LogicalResult Importer::importLRN(const Node &n) {
  if (failed(checkArity(n, 1, 1)))
    return failure();
  auto alpha = floatAttr(n, "alpha", 1e-4f);
  auto beta = failed(alpha) ? Fail() : floatAttr(n, "beta", 0.75f);
  auto bias = failed(beta) ? Fail() : floatAttr(n, "bias", 1.0f);
  auto size = failed(bias) ? Fail() : intAttr(n, "size", 0);
  auto x = failed(size) ? Fail() : operandF32(n, 0);
  if (failed(x))
    return failure();
  SmallVector<int64_t> s(shapeOf(*x));
  if (s.size() < 3 || *size < 1)
    return failNode(n, "expected an N x C x ... input and size >= 1");
  int64_t rest = *numElements(ArrayRef<int64_t>(s).drop_front(2));
  Value sq = reshape(unary(UnaryFn::square, *x), {s[0], 1, s[1], rest});
  int64_t before = (*size - 1) / 2, after = *size - 1 - before;
  SmallVector<int64_t> kernel{*size, 1}, strides{1, 1}, dil{1, 1},
      pads{before, 0, after, 0};
  // The padded window keeps the channel extent: same shape as `sq`.
  Value avg = graph::Pool2DOp::create(builder, loc(), sq.getType(),
                                      graph::PoolKind::avg, sq, kernel, strides,
                                      pads, dil, false, true);
  // bias + alpha / size * (size * avg) = bias + alpha * avg
  Value den = unary(UnaryFn::affine, reshape(avg, s), *alpha, *bias);
  auto p = binary(n, BinaryFn::pow, den, splatF32({}, *beta));
  auto r = failed(p) ? Fail() : binary(n, BinaryFn::div, *x, *p);
  return failed(r) ? failure() : define(n, 0, *r);
}

/// MeanVarianceNormalization: (x - mean) / sqrt(var) over `axes`
/// (default [0, 2, 3]; the ONNX function adds 1e-9 to the deviation).
LogicalResult Importer::importMVN(const Node &n) {
  if (failed(checkArity(n, 1, 1)))
    return failure();
  auto axes = intsAttr(n, "axes", {0, 2, 3});
  auto x = failed(axes) ? Fail() : operandF32(n, 0);
  if (failed(x))
    return failure();
  int64_t rank = shapeOf(*x).size();
  SmallVector<int64_t> norm;
  for (int64_t a : *axes) {
    auto na = normAxis(n, a, rank);
    if (failed(na))
      return failure();
    norm.push_back(*na);
  }
  llvm::sort(norm);
  Value mean = reduce(graph::ReduceFn::mean, *x, norm, true);
  auto d = binary(n, BinaryFn::sub, *x, mean);
  if (failed(d))
    return failure();
  Value var =
      reduce(graph::ReduceFn::mean, unary(UnaryFn::square, *d), norm, true);
  Value sd = unary(UnaryFn::affine, unary(UnaryFn::sqrt, var), 1.0f, 1e-9f);
  auto r = binary(n, BinaryFn::div, *d, sd);
  return failed(r) ? failure() : define(n, 0, *r);
}

//===----------------------------------------------------------------------===//
// Gathers with compile-time indices and the classification losses
//===----------------------------------------------------------------------===//

namespace {
/// out[p] = data[p with p[axis] = idx[p]] for a constant `idx` of shape S:
/// the data (sliced to S outside the axis) times a constant one-hot mask
/// [S[..axis], S[axis], D[axis], S[axis+1..]], summed over the D axis.
FailureOr<Value> gatherElements(Importer &im, const Node &n, Value data,
                                const ConstTensor &idx, int64_t axis) {
  ArrayRef<int64_t> ds = Importer::shapeOf(data);
  ArrayRef<int64_t> s = idx.shape;
  int64_t rank = ds.size();
  if ((int64_t)s.size() != rank)
    return im.failNode(n, "indices must have the rank of the data");
  SmallVector<int64_t> sliced(s);
  sliced[axis] = ds[axis];
  for (int64_t d = 0; d < rank; ++d)
    if (sliced[d] > ds[d])
      return im.failNode(n, "indices shape " + shapeStr(s) +
                                " exceeds the data shape " + shapeStr(ds));
  Value v = im.slice(data, SmallVector<int64_t>(rank, 0),
                     SmallVector<int64_t>(rank, 1), sliced);
  SmallVector<int64_t> dataShape(sliced);
  dataShape.insert(dataShape.begin() + axis, 1);
  v = im.reshape(v, dataShape);
  SmallVector<int64_t> maskShape(s);
  maskShape.insert(maskShape.begin() + axis + 1, ds[axis]);
  int64_t count = *numElements(s), dim = ds[axis];
  if (count * dim > (1 << 24))
    return im.failNode(n, "the gather mask would be too large");
  SmallVector<float> mask(count * dim, 0.0f);
  int64_t inner = *numElements(s.drop_front(axis + 1));
  for (int64_t k = 0; k < count; ++k) {
    int64_t j = idx.getI(k);
    if (j < 0)
      j += dim;
    if (j < 0 || j >= dim)
      return im.failNode(n, "index " + std::to_string(idx.getI(k)) +
                                " is out of range");
    int64_t outer = k / inner, in = k % inner;
    mask[(outer * dim + j) * inner + in] = 1.0f;
  }
  auto prod = im.binary(n, BinaryFn::mul, im.constF32(maskShape, mask), v);
  if (failed(prod))
    return failure();
  return im.reduce(graph::ReduceFn::sum, *prod, {axis + 1}, false);
}
} // namespace

LogicalResult Importer::importGatherElements(const Node &n) {
  if (failed(checkArity(n, 2, 2)))
    return failure();
  auto axisAttr = intAttr(n, "axis", 0);
  auto x = failed(axisAttr) ? Fail() : operandF32(n, 0);
  if (failed(x))
    return failure();
  auto axis = normAxis(n, *axisAttr, shapeOf(*x).size());
  auto idx = failed(axis) ? Fail() : constant(n, 1);
  if (failed(idx))
    return failure();
  if (!*idx)
    return failNode(n, "indices must be compile-time constants: the DMA "
                       "engine has no indirect addressing (input '" +
                           n.input(1) + "')");
  auto r = gatherElements(*this, n, *x, **idx, *axis);
  return failed(r) ? failure() : define(n, 0, *r);
}

/// NegativeLogLikelihoodLoss and SoftmaxCrossEntropyLoss with
/// compile-time targets: the gathered (log-)probabilities are input times a
/// constant one-hot mask summed over the class axis; weights (runtime or
/// constant) are gathered the same way; ignore_index entries get weight 0.
LogicalResult Importer::importLoss(const Node &n) {
  bool sce = n.op_type() == "SoftmaxCrossEntropyLoss";
  if (failed(checkArity(n, 2, 3, sce ? 2 : 1)))
    return failure();
  auto reduction = stringAttr(n, "reduction", "mean");
  if (failed(reduction))
    return failure();
  bool hasIgnore = attr(n, "ignore_index") != nullptr;
  auto ignore = intAttr(n, "ignore_index", 0);
  auto x = failed(ignore) ? Fail() : operandF32(n, 0);
  if (failed(x))
    return failure();
  auto tgt = constant(n, 1);
  if (failed(tgt))
    return failure();
  if (!*tgt)
    return failNode(n, "the target must be a compile-time constant: the DMA "
                       "engine has no indirect addressing (bind '" +
                           n.input(1) + "' with --bind)");
  SmallVector<int64_t> xs(shapeOf(*x));
  if (xs.size() < 2)
    return failNode(n, "the input must be [N, C, ...]");
  int64_t C = xs[1];
  const ConstTensor &t = **tgt;
  SmallVector<int64_t> ts(xs);
  ts.erase(ts.begin() + 1);
  if (t.shape != ts)
    return failNode(n, "target shape " + shapeStr(t.shape) +
                           " does not match the input " + shapeStr(xs));
  Value logp = *x;
  if (sce)
    logp = graph::SoftmaxOp::create(builder, loc(), logp.getType(), logp,
                                    builder.getI64IntegerAttr(1),
                                    builder.getBoolAttr(true));
  // One-hot mask [N, C, d...] of the valid targets.
  int64_t count = *numElements(ts);
  int64_t inner = *numElements(ArrayRef<int64_t>(ts).drop_front(1));
  SmallVector<float> mask(count * C, 0.0f);
  for (int64_t k = 0; k < count; ++k) {
    int64_t c = t.getI(k);
    if (hasIgnore && c == *ignore)
      continue;
    if (c < 0 || c >= C)
      return failNode(n, "target " + std::to_string(c) + " is outside [0, " +
                             std::to_string(C) + ")");
    int64_t nIdx = k / inner, in = k % inner;
    mask[(nIdx * C + c) * inner + in] = 1.0f;
  }
  Value maskV = constF32(xs, mask);
  // Per-element weights: mask * weight[c], summed over C.
  Value w = maskV;
  if (hasInput(n, 2)) {
    SmallVector<int64_t> wshape{C};
    wshape.append(xs.size() - 2, 1);
    auto wv = operandF32(n, 2);
    if (failed(wv))
      return failure();
    if (shapeOf(*wv) != ArrayRef<int64_t>{C})
      return failNode(n, "weights must be [C]");
    auto m = binary(n, BinaryFn::mul, maskV, reshape(*wv, wshape));
    if (failed(m))
      return failure();
    w = *m;
  }
  auto picked = binary(n, BinaryFn::mul, logp, w);
  if (failed(picked))
    return failure();
  Value loss =
      unary(UnaryFn::neg, reduce(graph::ReduceFn::sum, *picked, {1}, false));
  SmallVector<int64_t> all;
  for (size_t d = 0; d < ts.size(); ++d)
    all.push_back(d);
  if (*reduction == "sum") {
    loss = reduce(graph::ReduceFn::sum, loss, all, false);
  } else if (*reduction == "mean") {
    Value total = reduce(graph::ReduceFn::sum, loss, all, false);
    Value wsum = reduce(
        graph::ReduceFn::sum, w,
        [&] {
          SmallVector<int64_t> a;
          for (size_t d = 0; d < xs.size(); ++d)
            a.push_back(d);
          return a;
        }(),
        false);
    auto m = binary(n, BinaryFn::div, total, wsum);
    if (failed(m))
      return failure();
    loss = *m;
  } else if (*reduction != "none") {
    return failNode(n, "reduction must be none, sum or mean");
  }
  if (failed(define(n, 0, loss)))
    return failure();
  if (sce)
    return define(n, 1, logp);
  return success();
}

//===----------------------------------------------------------------------===//
// Resize / Upsample: separable interpolation matrices
//===----------------------------------------------------------------------===//

namespace {
struct ResizeAttrs {
  std::string mode, ctm, nearestMode;
  float cubicA = -0.75f, extrapolation = 0.0f;
  bool excludeOutside = false;
};

/// The [out, in] interpolation matrix of one axis (ONNX reference
/// semantics: neighbours clamped to the edge, ratio in (0, 1] preferring
/// the left pixel, exclude_outside renormalising). `outside[o]` is set
/// when tf_crop_and_resize samples outside the input (extrapolation).
SmallVector<double> resizeMatrix(const ResizeAttrs &a, int64_t in, int64_t out,
                                 double scale, double roiStart, double roiEnd,
                                 SmallVector<bool> &outside) {
  SmallVector<double> m(out * in, 0.0);
  outside.assign(out, false);
  double outWidth = scale * in;
  for (int64_t o = 0; o < out; ++o) {
    double x;
    const std::string &c = a.ctm;
    if (c == "align_corners")
      x = outWidth == 1 ? 0 : o * (in - 1) / (outWidth - 1);
    else if (c == "asymmetric")
      x = o / scale;
    else if (c == "tf_half_pixel_for_nn")
      x = (o + 0.5) / scale;
    else if (c == "pytorch_half_pixel")
      x = outWidth != 1 ? (o + 0.5) / scale - 0.5 : -0.5;
    else if (c == "tf_crop_and_resize") {
      x = outWidth > 1 ? roiStart * (in - 1) +
                             o * (roiEnd - roiStart) * (in - 1) / (outWidth - 1)
                       : 0.5 * (roiStart + roiEnd) * (in - 1);
      if (x < 0 || x > in - 1) {
        outside[o] = true;
        continue;
      }
    } else // half_pixel
      x = (o + 0.5) / scale - 0.5;
    double xi = std::floor(x);
    double ratio = x == xi ? 1.0 : x - xi;
    SmallVector<double> coeffs;
    if (a.mode == "nearest") {
      if (x == xi)
        coeffs = {0, 1};
      else if (a.nearestMode == "round_prefer_ceil")
        coeffs = {ratio < 0.5 ? 1.0 : 0.0, ratio >= 0.5 ? 1.0 : 0.0};
      else if (a.nearestMode == "floor")
        coeffs = {1, 0};
      else if (a.nearestMode == "ceil")
        coeffs = {0, 1};
      else // round_prefer_floor
        coeffs = {ratio <= 0.5 ? 1.0 : 0.0, ratio > 0.5 ? 1.0 : 0.0};
    } else if (a.mode == "linear") {
      coeffs = {1 - ratio, ratio};
    } else {
      double A = a.cubicA, r = ratio, s = 1 - ratio;
      coeffs = {((A * (r + 1) - 5 * A) * (r + 1) + 8 * A) * (r + 1) - 4 * A,
                ((A + 2) * r - (A + 3)) * r * r + 1,
                ((A + 2) * s - (A + 3)) * s * s + 1,
                ((A * (s + 1) - 5 * A) * (s + 1) + 8 * A) * (s + 1) - 4 * A};
    }
    // The n neighbours: floor(x) - n/2 + 1 ... floor(x) + n/2 when x is not
    // an integer; for an integer x the window is shifted left by one (the
    // ratio is then 1, so the weight sits on x itself).
    int64_t n = coeffs.size();
    int64_t first = (int64_t)xi - n / 2 + 1 - (x == xi ? 1 : 0);
    if (a.excludeOutside) {
      double sum = 0;
      for (int64_t k = 0; k < n; ++k) {
        int64_t idx = first + k;
        if (idx < 0 || idx >= in)
          coeffs[k] = 0;
        sum += coeffs[k];
      }
      if (sum != 0)
        for (double &cf : coeffs)
          cf /= sum;
    }
    for (int64_t k = 0; k < n; ++k) {
      int64_t idx = std::clamp<int64_t>(first + k, 0, in - 1);
      m[o * in + idx] += coeffs[k];
    }
  }
  return m;
}
/// The factor f when `m` ([out, in]) repeats every input element f times
/// (output o reads input o / f with weight 1), else 0.
int64_t repeatFactor(ArrayRef<double> m, int64_t in, int64_t out) {
  if (in <= 0 || out % in != 0)
    return 0;
  const int64_t f = out / in;
  for (int64_t o = 0; o < out; ++o)
    for (int64_t i = 0; i < in; ++i)
      if (m[o * in + i] != (i == o / f ? 1.0 : 0.0))
        return 0;
  return f;
}
} // namespace

/// A resize whose every axis is the identity or a repeat (repeatFactor) as
/// reshape [.., in, 1, ..] -> broadcast [.., in, f, ..] -> reshape [.., out,
/// ..]; nothing when an axis interpolates.
std::optional<Value>
Importer::resizeAsRepeat(Value x, ArrayRef<int64_t> in, ArrayRef<int64_t> out,
                         ArrayRef<SmallVector<double>> matrices) {
  SmallVector<int64_t> unit, repeated;
  bool any = false;
  for (size_t d = 0; d < in.size(); ++d) {
    unit.push_back(in[d]);
    repeated.push_back(in[d]);
    const int64_t f = repeatFactor(matrices[d], in[d], out[d]);
    if (f == 0)
      return std::nullopt;
    if (f == 1) // the identity
      continue;
    unit.push_back(1);
    repeated.push_back(f);
    any = true;
  }
  if (!any)
    return std::nullopt;
  Value b = graph::BroadcastOp::create(builder, loc(), tensorLike(repeated, x),
                                       reshape(x, unit));
  return reshape(b, out);
}

LogicalResult Importer::importResize(const Node &n) {
  bool upsample = n.op_type() == "Upsample";
  if (failed(checkArity(n, 1, 4)))
    return failure();
  ResizeAttrs a;
  auto mode = stringAttr(n, "mode", "nearest");
  auto ctm = failed(mode)
                 ? Fail()
                 : stringAttr(n, "coordinate_transformation_mode",
                              (upsample || opsetVersion < 11) ? "asymmetric"
                                                              : "half_pixel");
  auto nm = failed(ctm) ? Fail()
                        : stringAttr(n, "nearest_mode",
                                     (upsample || opsetVersion < 11)
                                         ? "floor"
                                         : "round_prefer_floor");
  auto cubicA = failed(nm) ? Fail() : floatAttr(n, "cubic_coeff_a", -0.75f);
  auto excl = failed(cubicA) ? Fail() : intAttr(n, "exclude_outside", 0);
  auto extra = failed(excl) ? Fail() : floatAttr(n, "extrapolation_value", 0);
  auto anti = failed(extra) ? Fail() : intAttr(n, "antialias", 0);
  if (failed(anti))
    return failure();
  a.mode = *mode;
  a.ctm = *ctm;
  a.nearestMode = *nm;
  a.cubicA = *cubicA;
  a.excludeOutside = *excl != 0;
  a.extrapolation = *extra;
  if (a.mode == "bilinear")
    a.mode = "linear";
  if (a.mode != "nearest" && a.mode != "linear" && a.mode != "cubic")
    return failNode(n, "mode '" + a.mode + "' is not supported");
  if (*anti)
    return failNode(n, "antialias = 1 is not supported");
  if (attr(n, "axes"))
    return failNode(n, "the axes attribute (opset 18) is not supported");
  auto x = operandF32(n, 0);
  if (failed(x))
    return failure();
  SmallVector<int64_t> in(shapeOf(*x));
  int64_t rank = in.size();

  // Scales / sizes / roi.
  SmallVector<double> scales, roi;
  SmallVector<int64_t> sizes;
  int scalesIdx = upsample || opsetVersion < 11 ? 1 : 2;
  if (upsample && opsetVersion && opsetVersion < 9) {
    auto s = floatsAttr(n, "scales", {});
    if (failed(s))
      return failure();
    scales.assign(s->begin(), s->end());
  } else if (hasInput(n, scalesIdx)) {
    auto s = constFloats(n, scalesIdx);
    if (failed(s))
      return failure();
    scales = *s;
  }
  if (!upsample && opsetVersion >= 11 && hasInput(n, 3)) {
    auto s = constInts(n, 3);
    if (failed(s))
      return failure();
    sizes = *s;
  }
  if (!upsample && opsetVersion >= 11 && hasInput(n, 1)) {
    auto r = constFloats(n, 1);
    if (failed(r))
      return failure();
    roi = *r;
  }
  if (!sizes.empty() && !scales.empty())
    return failNode(n, "only one of scales and sizes may be given");
  if (sizes.empty() && scales.empty())
    return failNode(n, "scales or sizes is required");
  if ((!sizes.empty() && (int64_t)sizes.size() != rank) ||
      (!scales.empty() && (int64_t)scales.size() != rank))
    return failNode(n, "scales / sizes need one entry per dimension");
  if (a.ctm == "tf_crop_and_resize" && (int64_t)roi.size() != 2 * rank)
    return failNode(n, "tf_crop_and_resize needs a roi of 2 x rank values");
  SmallVector<int64_t> out(rank);
  SmallVector<double> scale(rank);
  for (int64_t d = 0; d < rank; ++d) {
    if (!sizes.empty()) {
      out[d] = sizes[d];
      scale[d] = (double)sizes[d] / in[d];
    } else {
      scale[d] = scales[d];
      out[d] = (int64_t)std::floor(in[d] * scales[d]);
    }
    if (out[d] < 1 || scale[d] <= 0)
      return failNode(n, "the resized shape " + shapeStr(out) +
                             " is empty or invalid");
  }

  // The interpolation matrix of every axis (in x out, a constant).
  for (int64_t d = 0; d < rank; ++d)
    if (out[d] > kMaxConstElements / std::max<int64_t>(in[d], 1))
      return failNode(n, "the resized shape " + shapeStr(out) +
                             " is too large: the interpolation matrix of "
                             "axis " +
                             std::to_string(d) + " would have " +
                             std::to_string(in[d]) + " x " +
                             std::to_string(out[d]) + " elements (at most " +
                             std::to_string(kMaxConstElements) + ")");
  SmallVector<SmallVector<bool>> outsideAll(rank);
  SmallVector<SmallVector<double>> matrices(rank);
  bool anyOutside = false;
  for (int64_t d = 0; d < rank; ++d) {
    double r0 = roi.empty() ? 0 : roi[d], r1 = roi.empty() ? 1 : roi[d + rank];
    matrices[d] =
        resizeMatrix(a, in[d], out[d], scale[d], r0, r1, outsideAll[d]);
    anyOutside |= llvm::is_contained(outsideAll[d], true);
  }
  // Every resized axis repeats each input element a whole number of times
  // (nearest upsampling by integer factors): a broadcast, which consumers
  // read as addressing (docs/operators.md, "Resize").
  if (!anyOutside)
    if (std::optional<Value> r = resizeAsRepeat(*x, in, out, matrices))
      return define(n, 0, *r);

  // Apply one matrix per resized axis: move the axis last, matmul, back.
  Value v = *x;
  for (int64_t d = 0; d < rank; ++d) {
    const SmallVector<double> &m = matrices[d];
    bool identity = in[d] == out[d];
    for (int64_t i = 0; identity && i < out[d]; ++i)
      for (int64_t j = 0; j < in[d]; ++j)
        if (m[i * in[d] + j] != (i == j ? 1.0 : 0.0))
          identity = false;
    if (identity)
      continue;
    SmallVector<int64_t> perm, inv(rank);
    for (int64_t k = 0; k < rank; ++k)
      if (k != d)
        perm.push_back(k);
    perm.push_back(d);
    for (int64_t k = 0; k < rank; ++k)
      inv[perm[k]] = k;
    SmallVector<float> mt(in[d] * out[d]);
    for (int64_t i = 0; i < out[d]; ++i)
      for (int64_t j = 0; j < in[d]; ++j)
        mt[j * out[d] + i] = (float)m[i * in[d] + j];
    SmallVector<int64_t> ts(shapeOf(v));
    ts[d] = out[d];
    if (d == rank - 1) { // v . M^T
      v = graph::MatMulOp::create(builder, loc(), f32Tensor(ts), v,
                                  constF32({in[d], out[d]}, mt));
      continue;
    }
    if (d == rank - 2) { // M . v, broadcast over the leading dimensions
      SmallVector<float> mf(m.begin(), m.end());
      v = graph::MatMulOp::create(builder, loc(), f32Tensor(ts),
                                  constF32({out[d], in[d]}, mf), v);
      continue;
    }
    Value t = transpose(v, perm);
    SmallVector<int64_t> tts(shapeOf(t));
    tts.back() = out[d];
    Value p = graph::MatMulOp::create(builder, loc(), f32Tensor(tts), t,
                                      constF32({in[d], out[d]}, mt));
    v = transpose(p, inv);
  }
  if (anyOutside) {
    // Elements sampled outside the crop take the extrapolation value.
    int64_t count = *numElements(out);
    auto strides = stridesOf(out);
    SmallVector<bool> mask(count, false);
    for (int64_t k = 0; k < count; ++k)
      for (int64_t d = 0; d < rank; ++d)
        if (outsideAll[d][(k / strides[d]) % out[d]])
          mask[k] = true;
    auto ty = RankedTensorType::get(out, builder.getI1Type());
    Value mv = arith::ConstantOp::create(
        builder, loc(), DenseElementsAttr::get(ty, ArrayRef<bool>(mask)));
    v = graph::WhereOp::create(builder, loc(), f32Tensor(out), mv,
                               splatF32({}, a.extrapolation), v);
  }
  return define(n, 0, v);
}

/// Mod with fmod = 1 on f32: a - b * trunc(a / b), trunc(q) =
/// sign(q) * floor(|q|). (fmod = 0 is integer-only in ONNX.)
LogicalResult Importer::importMod(const Node &n) {
  if (failed(checkArity(n, 2, 2)))
    return failure();
  auto fmod = intAttr(n, "fmod", 0);
  auto a = failed(fmod) ? Fail() : operandF32(n, 0);
  auto b = failed(a) ? Fail() : operandF32(n, 1);
  if (failed(b))
    return failure();
  if (!*fmod)
    return failNode(n, "fmod = 0 (integer modulo) is not supported on f32 "
                       "tensors");
  auto q = binary(n, BinaryFn::div, *a, *b);
  if (failed(q))
    return failure();
  Value t = unary(UnaryFn::floor, unary(UnaryFn::abs, *q));
  auto tr = binary(n, BinaryFn::mul, unary(UnaryFn::sign, *q), t);
  auto prod = failed(tr) ? Fail() : binary(n, BinaryFn::mul, *b, *tr);
  auto r = failed(prod) ? Fail() : binary(n, BinaryFn::sub, *a, *prod);
  return failed(r) ? failure() : define(n, 0, *r);
}

//===----------------------------------------------------------------------===//
// Atan, Asin, Acos
//===----------------------------------------------------------------------===//

namespace {
/// atan(x) from elementwise ops: t = |x| or 1 / |x| (|x| > 1) in [0, 1],
/// p = t * Q(t^2) with Q a degree-8 polynomial (a near-minimax fit of
/// atan(t) / t on [0, 1], max error 6e-9 in exact arithmetic), pi/2 - p
/// where |x| > 1, times sign(x). +-inf gives +-pi/2, NaN stays NaN.
FailureOr<Value> atanOf(Importer &im, const Node &n, Value x) {
  static const float q[] = {0.99999988f,   -0.333325982f,  0.199859068f,
                            -0.141612321f, 0.104989506f,   -0.0723486245f,
                            0.0397812389f, -0.0144013502f, 0.00245671952f};
  const float halfPi = 1.57079637f;
  Value a = im.unary(UnaryFn::abs, x);
  auto inv = im.binary(n, BinaryFn::greater, a, im.splatF32({}, 1.0f));
  if (failed(inv))
    return failure();
  auto t = where(im, n, *inv, im.unary(UnaryFn::reciprocal, a), a);
  if (failed(t))
    return failure();
  Value s = im.unary(UnaryFn::square, *t);
  const int deg = std::size(q) - 1;
  Value p = im.unary(UnaryFn::affine, s, q[deg], q[deg - 1]);
  for (int k = deg - 2; k >= 0; --k) {
    auto m = im.binary(n, BinaryFn::mul, p, s);
    if (failed(m))
      return failure();
    p = im.unary(UnaryFn::affine, *m, 1.0f, q[k]);
  }
  auto pt = im.binary(n, BinaryFn::mul, *t, p);
  if (failed(pt))
    return failure();
  auto r =
      where(im, n, *inv, im.unary(UnaryFn::affine, *pt, -1.0f, halfPi), *pt);
  if (failed(r))
    return failure();
  return im.binary(n, BinaryFn::mul, im.unary(UnaryFn::sign, x), *r);
}
} // namespace

/// Atan; Asin(x) = atan(x / sqrt((1 - |x|)(1 + |x|))) (+-1 -> x / 0 =
/// +-inf -> +-pi/2; |x| > 1 -> sqrt of a negative = NaN); Acos(x) = pi/2 -
/// asin(x). The factored 1 - x^2 is exact for |x| >= 0.5 up to the product.
LogicalResult Importer::importInverseTrig(const Node &n) {
  if (failed(checkArity(n, 1, 1)))
    return failure();
  auto x = operandF32(n, 0);
  if (failed(x))
    return failure();
  const std::string &op = n.op_type();
  Value v = *x;
  if (op != "Atan") {
    Value a = unary(UnaryFn::abs, v);
    // Created in statement order (argument order is unspecified).
    Value oneMinus = unary(UnaryFn::affine, a, -1.0f, 1.0f);
    Value onePlus = unary(UnaryFn::affine, a, 1.0f, 1.0f);
    auto d = binary(n, BinaryFn::mul, oneMinus, onePlus);
    auto r = failed(d) ? Fail()
                       : binary(n, BinaryFn::div, v, unary(UnaryFn::sqrt, *d));
    if (failed(r))
      return failure();
    v = *r;
  }
  auto r = atanOf(*this, n, v);
  if (failed(r))
    return failure();
  if (op == "Acos")
    return define(n, 0, unary(UnaryFn::affine, *r, -1.0f, 1.57079637f));
  return define(n, 0, *r);
}
