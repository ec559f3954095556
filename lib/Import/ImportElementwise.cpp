//===- ImportElementwise.cpp - elementwise ONNX operators -----------------===//
//
// Arithmetic, comparisons, Where, activations, Clip, the softmax family and
// Cast -> graph.add / graph.binary / graph.unary / graph.relu / graph.where /
// graph.softmax. See docs/operators.md.
//
//===----------------------------------------------------------------------===//
#include "ImportUtil.h"
#include "ImporterImpl.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "llvm/ADT/StringSwitch.h"

#include <cfloat>
#include <cmath>
#include <limits>

using namespace mlir;
using namespace accel::onnximport;
namespace graph = accel::graph;
using graph::BinaryFn;
using graph::UnaryFn;

namespace {
constexpr float kInf = std::numeric_limits<float>::infinity();

std::optional<BinaryFn> binaryFnOf(StringRef op) {
  return llvm::StringSwitch<std::optional<BinaryFn>>(op)
      .Case("Add", BinaryFn::add)
      .Case("Sub", BinaryFn::sub)
      .Case("Mul", BinaryFn::mul)
      .Case("Div", BinaryFn::div)
      .Case("Pow", BinaryFn::pow)
      .Case("Max", BinaryFn::max)
      .Case("Min", BinaryFn::min)
      .Case("Equal", BinaryFn::equal)
      .Case("Less", BinaryFn::less)
      .Case("Greater", BinaryFn::greater)
      .Case("LessOrEqual", BinaryFn::less_equal)
      .Case("GreaterOrEqual", BinaryFn::greater_equal)
      .Default(std::nullopt);
}
} // namespace

/// Add, Sub, Mul, Div, Pow and the comparisons (numpy broadcasting; the
/// opset < 7 `broadcast` / `axis` attributes are honoured).
LogicalResult Importer::importBinary(const Node &n) {
  if (failed(checkArity(n, 2, 2)))
    return failure();
  const std::string &op = n.op_type();
  BinaryFn fn = *binaryFnOf(op);
  bool cmp = fn == BinaryFn::equal || fn == BinaryFn::less ||
             fn == BinaryFn::greater || fn == BinaryFn::less_equal ||
             fn == BinaryFn::greater_equal;
  FailureOr<Value> a = failure(), b = failure();
  if (fn == BinaryFn::equal) {
    a = operandAny(n, 0);
    if (failed(a))
      return failure();
    b = elemOf(*a).isF32() ? operandF32(n, 1) : operandAny(n, 1);
  } else {
    a = operandF32(n, 0);
    if (failed(a))
      return failure();
    b = operandF32(n, 1, /*convertInts=*/fn == BinaryFn::pow);
  }
  if (failed(b))
    return failure();
  Value lhs = *a, rhs = *b;

  // Legacy broadcasting: B aligned with A starting at `axis`.
  auto bc = intAttr(n, "broadcast", 0);
  if (failed(bc))
    return failure();
  if (*bc && attr(n, "axis")) {
    auto axis = intAttr(n, "axis", 0);
    if (failed(axis))
      return failure();
    int64_t ra = shapeOf(lhs).size(), rb = shapeOf(rhs).size();
    auto ax = normAxis(n, *axis, ra);
    if (failed(ax))
      return failure();
    if (*ax + rb > ra)
      return failNode(n, "legacy broadcast of " + shapeStr(shapeOf(rhs)) +
                             " at axis " + std::to_string(*ax) +
                             " does not fit " + shapeStr(shapeOf(lhs)));
    SmallVector<int64_t> shape(shapeOf(rhs));
    shape.append(ra - *ax - rb, 1);
    rhs = reshape(rhs, shape);
  }

  if (fn == BinaryFn::add && !cmp) {
    auto r = add(n, lhs, rhs);
    return failed(r) ? Fail() : define(n, 0, *r);
  }
  auto r = binary(n, fn, lhs, rhs);
  return failed(r) ? Fail() : define(n, 0, *r);
}

/// Max, Min, Sum, Mean: a chain of binary ops (Mean scales by 1/n).
LogicalResult Importer::importVariadic(const Node &n) {
  if (failed(checkArity(n, 1, INT32_MAX)))
    return failure();
  const std::string &op = n.op_type();
  auto acc = operandF32(n, 0);
  if (failed(acc))
    return failure();
  Value v = *acc;
  for (int i = 1; i < n.input_size(); ++i) {
    auto x = operandF32(n, i);
    if (failed(x))
      return failure();
    FailureOr<Value> r = failure();
    if (op == "Sum" || op == "Mean")
      r = add(n, v, *x);
    else
      r = binary(n, op == "Max" ? BinaryFn::max : BinaryFn::min, v, *x);
    if (failed(r))
      return failure();
    v = *r;
  }
  if (op == "Mean" && n.input_size() > 1)
    v = unary(UnaryFn::affine, v, 1.0f / n.input_size(), 0.0f);
  return define(n, 0, v);
}

/// Unary functions and activations with their ONNX parameter defaults.
LogicalResult Importer::importUnary(const Node &n) {
  if (failed(checkArity(n, 1, 1)))
    return failure();
  struct Spec {
    const char *op;
    UnaryFn fn;
    const char *alphaName;
    float alpha;
    const char *betaName;
    float beta;
  };
  static const Spec specs[] = {
      {"Neg", UnaryFn::neg, nullptr, 0, nullptr, 0},
      {"Abs", UnaryFn::abs, nullptr, 0, nullptr, 0},
      {"Reciprocal", UnaryFn::reciprocal, nullptr, 0, nullptr, 0},
      {"Sqrt", UnaryFn::sqrt, nullptr, 0, nullptr, 0},
      {"Exp", UnaryFn::exp, nullptr, 0, nullptr, 0},
      {"Log", UnaryFn::log, nullptr, 0, nullptr, 0},
      {"Erf", UnaryFn::erf, nullptr, 0, nullptr, 0},
      {"Floor", UnaryFn::floor, nullptr, 0, nullptr, 0},
      {"Ceil", UnaryFn::ceil, nullptr, 0, nullptr, 0},
      {"Round", UnaryFn::round, nullptr, 0, nullptr, 0},
      {"Sign", UnaryFn::sign, nullptr, 0, nullptr, 0},
      {"Sin", UnaryFn::sin, nullptr, 0, nullptr, 0},
      {"Cos", UnaryFn::cos, nullptr, 0, nullptr, 0},
      {"Tan", UnaryFn::tan, nullptr, 0, nullptr, 0},
      {"Sigmoid", UnaryFn::sigmoid, nullptr, 0, nullptr, 0},
      {"Tanh", UnaryFn::tanh, nullptr, 0, nullptr, 0},
      {"Softplus", UnaryFn::softplus, nullptr, 0, nullptr, 0},
      {"Softsign", UnaryFn::softsign, nullptr, 0, nullptr, 0},
      {"LeakyRelu", UnaryFn::leaky_relu, "alpha", 0.01f, nullptr, 0},
      {"Elu", UnaryFn::elu, "alpha", 1.0f, nullptr, 0},
      {"Selu", UnaryFn::selu, "alpha", 1.67326319217681884765625f, "gamma",
       1.05070102214813232421875f},
      {"Celu", UnaryFn::celu, "alpha", 1.0f, nullptr, 0},
      {"HardSigmoid", UnaryFn::hard_sigmoid, "alpha", 0.2f, "beta", 0.5f},
      {"HardSwish", UnaryFn::hard_swish, nullptr, 0, nullptr, 0},
      {"ThresholdedRelu", UnaryFn::thresholded_relu, "alpha", 1.0f, nullptr, 0},
  };
  const Spec *spec = nullptr;
  for (const Spec &s : specs)
    if (n.op_type() == s.op)
      spec = &s;
  float alpha = spec->alpha, beta = spec->beta;
  if (spec->alphaName) {
    auto a = floatAttr(n, spec->alphaName, spec->alpha);
    if (failed(a))
      return failure();
    alpha = *a;
  }
  if (spec->betaName) {
    auto b = floatAttr(n, spec->betaName, spec->beta);
    if (failed(b))
      return failure();
    beta = *b;
  }
  auto x = operandF32(n, 0);
  if (failed(x))
    return failure();
  return define(n, 0, unary(spec->fn, *x, alpha, beta));
}

LogicalResult Importer::importRelu(const Node &n) {
  if (failed(checkArity(n, 1, 1)))
    return failure();
  auto x = operandF32(n, 0);
  if (failed(x))
    return failure();
  auto op = graph::ReluOp::create(builder, loc(), x->getType(), *x);
  return define(n, 0, op);
}

/// PRelu: graph.binary prelu; the slope broadcasts unidirectionally to X
/// (opset < 7: a 1-D per-channel slope applies to dimension 1).
LogicalResult Importer::importPRelu(const Node &n) {
  if (failed(checkArity(n, 2, 2)))
    return failure();
  auto x = operandF32(n, 0);
  auto slope = failed(x) ? Fail() : operandF32(n, 1);
  if (failed(slope))
    return failure();
  ArrayRef<int64_t> xs = shapeOf(*x);
  Value s = *slope;
  ArrayRef<int64_t> ss = shapeOf(s);
  std::string why;
  auto b = graph::broadcastShapes(xs, ss, why);
  if (ss.size() == 1 && xs.size() >= 2 && ss[0] == xs[1] && ss[0] != 1 &&
      (!b || *b != SmallVector<int64_t>(xs))) {
    SmallVector<int64_t> shape{ss[0]};
    shape.append(xs.size() - 2, 1);
    s = reshape(s, shape);
    b = graph::broadcastShapes(xs, shapeOf(s), why);
  }
  if (!b || ArrayRef<int64_t>(*b) != xs)
    return failNode(n, "slope " + shapeStr(shapeOf(s)) +
                           " does not broadcast to the input " + shapeStr(xs));
  auto r = binary(n, BinaryFn::prelu, *x, s);
  return failed(r) ? Fail() : define(n, 0, *r);
}

/// Clip: graph.unary clip with constant bounds (absent = +-inf); runtime
/// bounds become graph.binary max / min.
LogicalResult Importer::importClip(const Node &n) {
  if (failed(checkArity(n, 1, 3)))
    return failure();
  auto x = operandF32(n, 0);
  if (failed(x))
    return failure();
  float lo = -kInf, hi = kInf;
  Value v = *x;
  if (opsetVersion && opsetVersion < 11) {
    auto a = floatAttr(n, "min", -kInf);
    auto b = floatAttr(n, "max", kInf);
    if (failed(a) || failed(b))
      return failure();
    lo = *a;
    hi = *b;
  } else {
    for (int i = 1; i <= 2; ++i) {
      if (!hasInput(n, i))
        continue;
      auto c = constant(n, i);
      if (failed(c))
        return failure();
      if (*c) {
        if ((*c)->size() != 1)
          return failNode(n, std::string(i == 1 ? "min" : "max") +
                                 " must be a scalar");
        (i == 1 ? lo : hi) = (float)(*c)->getF(0);
        continue;
      }
      auto bound = operandF32(n, i);
      if (failed(bound))
        return failure();
      auto r = binary(n, i == 1 ? BinaryFn::max : BinaryFn::min, v, *bound);
      if (failed(r))
        return failure();
      v = *r;
    }
  }
  if (lo != -kInf || hi != kInf)
    v = unary(UnaryFn::clip, v, lo, hi);
  return define(n, 0, v);
}

LogicalResult Importer::importWhere(const Node &n) {
  if (failed(checkArity(n, 3, 3)))
    return failure();
  auto c = operandAny(n, 0);
  if (failed(c))
    return failure();
  if (!elemOf(*c).isInteger(1))
    return failNode(n, "the condition must be a BOOL tensor");
  auto x = operandAny(n, 1);
  auto y = failed(x) ? Fail() : operandAny(n, 2);
  if (failed(y))
    return failure();
  if (elemOf(*x) != elemOf(*y))
    return failNode(n, "X and Y have different element types");
  std::string why;
  auto xy = graph::broadcastShapes(shapeOf(*x), shapeOf(*y), why);
  auto shape = xy ? graph::broadcastShapes(shapeOf(*c), *xy, why) : xy;
  if (!shape)
    return failNode(n, why);
  auto op = graph::WhereOp::create(builder, loc(), tensorLike(*shape, *x), *c,
                                   *x, *y);
  return define(n, 0, op);
}

/// Softmax / LogSoftmax. Opset >= 13: one axis (default -1). Older opsets
/// coerce the input to 2-D at `axis` (default 1): reshape, softmax over the
/// inner dimension, reshape back.
LogicalResult Importer::importSoftmax(const Node &n) {
  if (failed(checkArity(n, 1, 1)))
    return failure();
  bool legacy = opsetVersion && opsetVersion < 13;
  auto axisAttr = intAttr(n, "axis", legacy ? 1 : -1);
  auto x = failed(axisAttr) ? Fail() : operandF32(n, 0);
  if (failed(x))
    return failure();
  SmallVector<int64_t> shape(shapeOf(*x));
  int64_t rank = shape.size();
  if (rank == 0)
    return failNode(n, "the input must have rank >= 1");
  auto axis = normAxis(n, *axisAttr, rank);
  if (failed(axis))
    return failure();
  bool log = n.op_type() == "LogSoftmax";
  Value v = *x;
  int64_t a = *axis;
  if (legacy && a != rank - 1) {
    int64_t outer = *numElements(ArrayRef<int64_t>(shape).take_front(a));
    int64_t inner = *numElements(ArrayRef<int64_t>(shape).drop_front(a));
    v = reshape(v, {outer, inner});
    a = 1;
  }
  v = graph::SoftmaxOp::create(builder, loc(), v.getType(), v,
                               builder.getI64IntegerAttr(a),
                               builder.getBoolAttr(log));
  return define(n, 0, reshape(v, shape));
}

/// Hardmax: one-hot of the (first) arg-max along the axis:
/// where(argmax == iota, 1, 0).
LogicalResult Importer::importHardmax(const Node &n) {
  if (failed(checkArity(n, 1, 1)))
    return failure();
  bool legacy = opsetVersion && opsetVersion < 13;
  auto axisAttr = intAttr(n, "axis", legacy ? 1 : -1);
  auto x = failed(axisAttr) ? Fail() : operandF32(n, 0);
  if (failed(x))
    return failure();
  SmallVector<int64_t> shape(shapeOf(*x));
  int64_t rank = shape.size();
  if (rank == 0)
    return failNode(n, "the input must have rank >= 1");
  auto axis = normAxis(n, *axisAttr, rank);
  if (failed(axis))
    return failure();
  Value v = *x;
  int64_t a = *axis;
  if (legacy && a != rank - 1) {
    int64_t outer = *numElements(ArrayRef<int64_t>(shape).take_front(a));
    int64_t inner = *numElements(ArrayRef<int64_t>(shape).drop_front(a));
    v = reshape(v, {outer, inner});
    a = 1;
  }
  SmallVector<int64_t> vs(shapeOf(v));
  Value am = reduce(graph::ReduceFn::argmax, v, {a}, /*keepdims=*/true);
  SmallVector<int64_t> iotaShape(vs.size(), 1);
  iotaShape[a] = vs[a];
  SmallVector<int64_t> iota;
  for (int64_t k = 0; k < vs[a]; ++k)
    iota.push_back(k);
  auto iotaTy = RankedTensorType::get(iotaShape, builder.getI64Type());
  Value iotaV = arith::ConstantOp::create(
      builder, loc(), DenseElementsAttr::get(iotaTy, ArrayRef<int64_t>(iota)));
  auto eq = binary(n, BinaryFn::equal, am, iotaV);
  if (failed(eq))
    return failure();
  Value one = splatF32({}, 1.0f), zero = splatF32({}, 0.0f);
  Value r =
      graph::WhereOp::create(builder, loc(), f32Tensor(vs), *eq, one, zero);
  return define(n, 0, reshape(r, shape));
}

/// Cast / CastLike: constants are converted at compile time; at run time
/// only FLOAT <-> FLOAT, BOOL -> FLOAT (where) and FLOAT -> BOOL (x != 0).
LogicalResult Importer::importCast(const Node &n) {
  bool like = n.op_type() == "CastLike";
  if (failed(checkArity(n, like ? 2 : 1, like ? 2 : 1)))
    return failure();
  int to;
  if (like) {
    auto t = inputType(n, 1);
    if (failed(t))
      return failure();
    to = *t;
  } else {
    auto t = intAttr(n, "to", -1);
    if (failed(t))
      return failure();
    if (attr(n, "to") && attr(n, "to")->type() == onnx::AttributeProto::STRING)
      return failNode(n, "string 'to' attributes (opset 1) are not supported");
    to = (int)*t;
  }
  if (to == onnx::TensorProto::STRING ||
      !(isFloatType(to) || isIntegerType(to) || to == onnx::TensorProto::BOOL))
    return fail("unsupported element type " + dataTypeName(to) +
                " for the output of " + nodeDesc(n) + " (Cast)");
  auto c = constant(n, 0);
  if (failed(c))
    return failure();
  if (*c) {
    if ((*c)->dtype == onnx::TensorProto::STRING)
      return fail("unsupported element type STRING for '" + n.input(0) + "' (" +
                  nodeDesc(n) + ")");
    return defineConst(n, 0, castConst(**c, to));
  }
  auto from = inputType(n, 0);
  if (failed(from))
    return failure();
  auto x = operandAny(n, 0);
  if (failed(x))
    return failure();
  if (*from == to) {
    values[n.output(0)] = values[n.input(0)];
    return success();
  }
  if (to == onnx::TensorProto::FLOAT && *from == onnx::TensorProto::BOOL) {
    Value one = splatF32({}, 1.0f); // in statement order
    Value zero = splatF32({}, 0.0f);
    Value r = graph::WhereOp::create(builder, loc(), f32Tensor(shapeOf(*x)), *x,
                                     one, zero);
    return define(n, 0, r);
  }
  if (to == onnx::TensorProto::BOOL && *from == onnx::TensorProto::FLOAT) {
    auto isZero = binary(n, BinaryFn::equal, *x, splatF32({}, 0.0f));
    if (failed(isZero))
      return failure();
    auto falseTy = RankedTensorType::get({}, builder.getI1Type());
    Value f = arith::ConstantOp::create(builder, loc(),
                                        DenseElementsAttr::get(falseTy, false));
    auto r = binary(n, BinaryFn::equal, *isZero, f);
    return failed(r) ? Fail() : define(n, 0, *r);
  }
  return fail("unsupported element type " + dataTypeName(to) +
              " for the output of " + nodeDesc(n) + " (Cast from " +
              dataTypeName(*from) +
              "): the accelerator computes in f32; only constant tensors can "
              "be cast to other types");
}
