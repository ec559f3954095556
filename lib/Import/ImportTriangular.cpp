//===- ImportTriangular.cpp - Trilu, CumSum, EyeLike ----------------------===//
//
// Triangles and diagonals of the last axes: Trilu (a constant-mask where),
// CumSum (a log-step scan of adds along an axis), EyeLike (a constant).
// Constant inputs fold.
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

//===----------------------------------------------------------------------===//
// Trilu, CumSum, EyeLike
//===----------------------------------------------------------------------===//

namespace {
/// The one element of a scalar integer input (Trilu's k, CumSum's axis),
/// which must be a compile-time constant.
FailureOr<int64_t> scalarInt(Importer &im, const Node &n, int i,
                             StringRef name) {
  auto v = im.constInts(n, i);
  if (failed(v))
    return failure();
  if (v->size() != 1)
    return im.failNode(n, name.str() + " must have one element, got " +
                              std::to_string(v->size()));
  return (*v)[0];
}
} // namespace

/// Trilu: elements (i, j) of the last two axes with j - i >= k (upper) or
/// j - i <= k (lower) are kept, the others are zero. A constant input
/// folds; a runtime f32 input is graph.where(mask, x, 0) with a constant
/// [H, W] mask that broadcasts over the leading axes.
LogicalResult Importer::importTrilu(const Node &n) {
  if (failed(checkArity(n, 1, 2)))
    return failure();
  auto upper = intAttr(n, "upper", 1);
  if (failed(upper))
    return failure();
  int64_t k = 0;
  if (hasInput(n, 1)) {
    auto kv = scalarInt(*this, n, 1, "k");
    if (failed(kv))
      return failure();
    k = *kv;
  }
  auto shape = inputShape(n, 0);
  if (failed(shape))
    return failure();
  int64_t rank = shape->size();
  if (rank < 2)
    return failNode(n,
                    "the input must have rank >= 2, got " + shapeStr(*shape));
  const int64_t h = (*shape)[rank - 2], w = (*shape)[rank - 1];
  // j - i ranges over [-(h - 1), w - 1]; clamping k keeps it from
  // overflowing below.
  k = std::clamp<int64_t>(k, -h - 1, w + 1);
  auto keep = [&](int64_t i, int64_t j) {
    return *upper ? j - i >= k : j - i <= k;
  };

  auto c = constant(n, 0);
  if (failed(c))
    return failure();
  if (*c) {
    ConstTensor r = **c;
    int64_t plane = h * w;
    for (int64_t e = 0; e < r.size(); ++e) {
      int64_t p = e % plane;
      if (keep(p / w, p % w))
        continue;
      if (r.isFloat())
        r.f[e] = 0;
      else
        r.i[e] = 0;
    }
    return defineConst(n, 0, std::move(r));
  }

  auto x = operandF32(n, 0);
  if (failed(x))
    return failure();
  SmallVector<bool> mask;
  bool all = true;
  for (int64_t i = 0; i < h; ++i)
    for (int64_t j = 0; j < w; ++j) {
      mask.push_back(keep(i, j));
      all &= mask.back();
    }
  if (all) // nothing to zero (also an empty plane)
    return define(n, 0, *x);
  auto ty = RankedTensorType::get({h, w}, builder.getI1Type());
  Value m = arith::ConstantOp::create(
      builder, loc(), DenseElementsAttr::get(ty, ArrayRef<bool>(mask)));
  auto r = where(*this, n, m, *x, splatF32({}, 0.0f));
  return failed(r) ? failure() : define(n, 0, *r);
}

/// `v` moved `by` elements along `axis` towards its end (`back`: towards its
/// start), zeros coming in: element i becomes v[i - by] (v[i + by]).
Value Importer::shiftAlong(Value v, ArrayRef<int64_t> shape, int64_t axis,
                           int64_t by, bool back) {
  const int64_t rank = shape.size(), len = shape[axis];
  SmallVector<int64_t> offsets(rank, 0), strides(rank, 1),
      sizes(shape.begin(), shape.end()), pads(2 * rank, 0);
  sizes[axis] = len - by;
  offsets[axis] = back ? by : 0;
  pads[back ? rank + axis : axis] = by;
  Value kept = slice(v, offsets, strides, sizes);
  return graph::PadOp::create(builder, loc(), f32Tensor(shape), kept, pads,
                              graph::PadMode::constant, llvm::APFloat(0.0f));
}

/// CumSum along a constant axis (`exclusive`, `reverse`). A constant input
/// folds (a sequential sum); a runtime f32 input is a log-step scan:
/// ceil(log2 n) adds of the running sums and a shifted copy of them
/// (graph.slice + graph.pad), the exclusive sum one more shift.
LogicalResult Importer::importCumSum(const Node &n) {
  if (failed(checkArity(n, 2, 2)))
    return failure();
  auto exclusive = intAttr(n, "exclusive", 0);
  auto reverse = failed(exclusive) ? Fail() : intAttr(n, "reverse", 0);
  auto axisV = failed(reverse) ? Fail() : scalarInt(*this, n, 1, "axis");
  auto shape = failed(axisV) ? Fail() : inputShape(n, 0);
  if (failed(shape))
    return failure();
  int64_t rank = shape->size();
  if (rank < 1)
    return failNode(n, "the input must have rank >= 1");
  auto axis = normAxis(n, *axisV, rank);
  if (failed(axis))
    return failure();
  const int64_t len = (*shape)[*axis];

  auto c = constant(n, 0);
  if (failed(c))
    return failure();
  if (*c) {
    const ConstTensor &in = **c;
    if (!in.isFloat() && !isIntegerType(in.dtype))
      return fail("unsupported element type " + dataTypeName(in.dtype) +
                  " for '" + n.input(0) + "' (" + nodeDesc(n) + ")");
    ConstTensor r = in;
    int64_t inner =
        *numElements(ArrayRef<int64_t>(in.shape).drop_front(*axis + 1));
    int64_t outer = in.size() ? in.size() / (len * inner) : 0;
    for (int64_t o = 0; o < outer; ++o)
      for (int64_t q = 0; q < inner; ++q) {
        double fs = 0;
        uint64_t is = 0; // wraps as the integer type does
        for (int64_t s = 0; s < len; ++s) {
          int64_t t = *reverse ? len - 1 - s : s;
          int64_t e = (o * len + t) * inner + q;
          double fx = in.getF(e);
          uint64_t ix = uint64_t(in.getI(e));
          if (!*exclusive) {
            fs += fx;
            is += ix;
          }
          if (r.isFloat())
            r.f[e] = fs;
          else
            r.i[e] = wrapToInt64(is);
          if (*exclusive) {
            fs += fx;
            is += ix;
          }
        }
      }
    // Rounds to f32 / wraps to the width of the integer type.
    return defineConst(n, 0, castConst(r, r.dtype));
  }

  auto x = operandF32(n, 0);
  if (failed(x))
    return failure();
  if (!*numElements(*shape) || (len == 1 && !*exclusive))
    return define(n, 0, *x);
  // Steps of 1, 2, 4, ... (a Hillis-Steele scan): after the step of s every
  // element holds the sum of the 2s elements ending at it. No element is
  // ever multiplied, so an infinity or NaN reaches only the sums that
  // include it, as in a sequential sum.
  Value v = *x;
  for (int64_t s = 1; s < len; s *= 2) {
    auto r = add(n, v, shiftAlong(v, *shape, *axis, s, *reverse));
    if (failed(r))
      return failure();
    v = *r;
  }
  if (*exclusive)
    v = shiftAlong(v, *shape, *axis, 1, *reverse);
  return define(n, 0, v);
}

/// EyeLike: a constant of the input's (static) 2-D shape with ones on
/// diagonal k, of type `dtype` (default: the input's type).
LogicalResult Importer::importEyeLike(const Node &n) {
  if (failed(checkArity(n, 1, 1)))
    return failure();
  auto k = intAttr(n, "k", 0);
  auto shape = failed(k) ? Fail() : inputShape(n, 0);
  auto inType = failed(shape) ? Fail() : inputType(n, 0);
  if (failed(inType))
    return failure();
  auto dtype = intAttr(n, "dtype", *inType);
  if (failed(dtype))
    return failure();
  int to = (int)*dtype;
  if (!(isFloatType(to) || isIntegerType(to) || to == onnx::TensorProto::BOOL))
    return fail("unsupported element type " + dataTypeName(to) +
                " for the output of " + nodeDesc(n) + " (EyeLike)");
  if (shape->size() != 2)
    return failNode(n, "the input must be 2-D, got " + shapeStr(*shape));
  const int64_t h = (*shape)[0], w = (*shape)[1];
  auto count = numElements(*shape);
  if (!count || *count > kMaxConstElements)
    return failNode(n, "the output of shape " + shapeStr(*shape) +
                           " has more than " +
                           std::to_string(kMaxConstElements) +
                           " elements, the importer's limit for constants");
  ConstTensor r;
  r.dtype = to;
  r.shape.assign(shape->begin(), shape->end());
  if (r.isFloat())
    r.f.assign(*count, 0.0);
  else
    r.i.assign(*count, 0);
  for (int64_t i = 0; i < h; ++i) {
    // Column i + k, computed without overflow for any k.
    if (*k < -i || *k - w >= -i)
      continue;
    int64_t e = i * w + i + *k;
    if (r.isFloat())
      r.f[e] = 1.0;
    else
      r.i[e] = 1;
  }
  return defineConst(n, 0, std::move(r));
}
