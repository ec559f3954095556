//===- GraphOps.cpp - Graph op shape rules and verifiers ------------------===//
#include "Graph/GraphDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"
#include "llvm/ADT/STLExtras.h"
#include <string>

using namespace mlir;
using namespace accel::graph;
using llvm::ArrayRef;
using llvm::SmallVector;

namespace {
std::string shapeStr(ArrayRef<int64_t> s) {
  std::string r = "[";
  for (size_t i = 0; i < s.size(); ++i)
    r += (i ? "," : "") + std::to_string(s[i]);
  return r + "]";
}
} // namespace

std::optional<SmallVector<int64_t>>
accel::graph::broadcastShapes(ArrayRef<int64_t> a, ArrayRef<int64_t> b,
                              std::string &why) {
  size_t rank = std::max(a.size(), b.size());
  SmallVector<int64_t> out(rank);
  for (size_t i = 0; i < rank; ++i) {
    int64_t da = i < rank - a.size() ? 1 : a[i - (rank - a.size())];
    int64_t db = i < rank - b.size() ? 1 : b[i - (rank - b.size())];
    if (da != db && da != 1 && db != 1) {
      why =
          "shapes " + shapeStr(a) + " and " + shapeStr(b) + " do not broadcast";
      return std::nullopt;
    }
    out[i] = da == 1 ? db : da;
  }
  return out;
}

std::optional<SmallVector<int64_t>>
accel::graph::matmulShape(ArrayRef<int64_t> lhs, ArrayRef<int64_t> rhs,
                          std::string &why) {
  if (lhs.empty() || rhs.empty()) {
    why = "matmul operands must have rank >= 1";
    return std::nullopt;
  }
  SmallVector<int64_t> l(lhs), r(rhs);
  bool lhsVec = l.size() == 1, rhsVec = r.size() == 1;
  if (lhsVec)
    l.insert(l.begin(), 1);
  if (rhsVec)
    r.push_back(1);
  int64_t k1 = l.back(), k2 = r[r.size() - 2];
  if (k1 != k2) {
    why = "contracting dimensions differ: " + shapeStr(lhs) + " x " +
          shapeStr(rhs);
    return std::nullopt;
  }
  auto batch = broadcastShapes(ArrayRef<int64_t>(l).drop_back(2),
                               ArrayRef<int64_t>(r).drop_back(2), why);
  if (!batch)
    return std::nullopt;
  SmallVector<int64_t> out(*batch);
  if (!lhsVec)
    out.push_back(l[l.size() - 2]);
  if (!rhsVec)
    out.push_back(r.back());
  return out;
}

std::optional<SmallVector<int64_t>>
accel::graph::gemmShape(ArrayRef<int64_t> a, ArrayRef<int64_t> b,
                        const ArrayRef<int64_t> *c, bool transA, bool transB,
                        std::string &why) {
  if (a.size() != 2 || b.size() != 2) {
    why = "gemm operands A and B must be 2-D";
    return std::nullopt;
  }
  int64_t m = transA ? a[1] : a[0], ka = transA ? a[0] : a[1];
  int64_t kb = transB ? b[1] : b[0], n = transB ? b[0] : b[1];
  if (ka != kb) {
    why = "gemm contracting dimensions differ (" + std::to_string(ka) + " vs " +
          std::to_string(kb) + ")";
    return std::nullopt;
  }
  SmallVector<int64_t> out{m, n};
  if (c) {
    if (c->size() > 2) {
      why = "gemm C must have rank <= 2";
      return std::nullopt;
    }
    auto bc = broadcastShapes(out, *c, why);
    if (!bc || *bc != out) {
      why =
          "gemm C " + shapeStr(*c) + " does not broadcast to " + shapeStr(out);
      return std::nullopt;
    }
  }
  return out;
}

std::optional<SmallVector<int64_t>> accel::graph::conv2dShape(
    ArrayRef<int64_t> in, ArrayRef<int64_t> w, const ArrayRef<int64_t> *bias,
    ArrayRef<int64_t> strides, ArrayRef<int64_t> pads,
    ArrayRef<int64_t> dilations, int64_t groups, std::string &why) {
  if (in.size() != 4 || w.size() != 4) {
    why = "conv2d expects 4-D input and weight (NCHW / OIHW)";
    return std::nullopt;
  }
  if (strides.size() != 2 || dilations.size() != 2 || pads.size() != 4) {
    why = "conv2d needs 2 strides, 2 dilations and 4 pads";
    return std::nullopt;
  }
  if (groups < 1 || in[1] % groups || w[0] % groups) {
    why = "groups (" + std::to_string(groups) +
          ") must divide input channels and output channels";
    return std::nullopt;
  }
  if (w[1] * groups != in[1]) {
    why = "weight has " + std::to_string(w[1]) + " channels per group but " +
          "input has " + std::to_string(in[1]) + " channels in " +
          std::to_string(groups) + " group(s)";
    return std::nullopt;
  }
  for (int i = 0; i < 2; ++i)
    if (strides[i] < 1 || dilations[i] < 1) {
      why = "strides and dilations must be >= 1";
      return std::nullopt;
    }
  for (int64_t p : pads)
    if (p < 0) {
      why = "pads must be >= 0";
      return std::nullopt;
    }
  if (bias && (bias->size() != 1 || (*bias)[0] != w[0])) {
    why = "bias must be 1-D with one value per output channel";
    return std::nullopt;
  }
  SmallVector<int64_t> out{in[0], w[0], 0, 0};
  for (int i = 0; i < 2; ++i) {
    int64_t span = dilations[i] * (w[2 + i] - 1) + 1;
    int64_t padded = in[2 + i] + pads[i] + pads[i + 2];
    if (padded < span) {
      why = "kernel is larger than the padded input";
      return std::nullopt;
    }
    out[2 + i] = (padded - span) / strides[i] + 1;
  }
  return out;
}

namespace {
ArrayRef<int64_t> shapeOf(Value v) {
  return cast<RankedTensorType>(v.getType()).getShape();
}
LogicalResult checkResult(Operation *op,
                          const std::optional<SmallVector<int64_t>> &expect,
                          const std::string &why) {
  if (!expect)
    return op->emitOpError(why);
  auto got = shapeOf(op->getResult(0));
  if (ArrayRef<int64_t>(*expect) != got)
    return op->emitOpError("result shape ")
           << shapeStr(got) << " does not match the inferred shape "
           << shapeStr(*expect);
  return success();
}
} // namespace

LogicalResult MatMulOp::verify() {
  std::string why;
  return checkResult(
      *this, matmulShape(shapeOf(getLhs()), shapeOf(getRhs()), why), why);
}

LogicalResult GemmOp::verify() {
  std::string why;
  ArrayRef<int64_t> c;
  if (getC())
    c = shapeOf(getC());
  return checkResult(*this,
                     gemmShape(shapeOf(getA()), shapeOf(getB()),
                               getC() ? &c : nullptr, getTransA(), getTransB(),
                               why),
                     why);
}

LogicalResult Conv2DOp::verify() {
  std::string why;
  ArrayRef<int64_t> b;
  if (getBias())
    b = shapeOf(getBias());
  return checkResult(*this,
                     conv2dShape(shapeOf(getInput()), shapeOf(getWeight()),
                                 getBias() ? &b : nullptr, getStrides(),
                                 getPads(), getDilations(), getGroups(), why),
                     why);
}

LogicalResult AddOp::verify() {
  std::string why;
  return checkResult(
      *this, broadcastShapes(shapeOf(getLhs()), shapeOf(getRhs()), why), why);
}

LogicalResult TransposeOp::verify() {
  auto in = shapeOf(getInput());
  auto perm = getPerm();
  if (perm.size() != in.size())
    return emitOpError("perm has ")
           << perm.size() << " entries for rank " << in.size();
  SmallVector<int64_t> expect;
  SmallVector<bool> used(in.size(), false);
  for (int64_t p : perm) {
    if (p < 0 || p >= (int64_t)in.size() || used[p])
      return emitOpError("perm is not a permutation of [0, ")
             << in.size() << ")";
    used[p] = true;
    expect.push_back(in[p]);
  }
  return checkResult(*this, expect, "");
}

LogicalResult ReshapeOp::verify() {
  auto in = cast<RankedTensorType>(getInput().getType());
  auto out = cast<RankedTensorType>(getResult().getType());
  if (!in.hasStaticShape() || !out.hasStaticShape())
    return emitOpError("reshape needs static shapes");
  if (in.getNumElements() != out.getNumElements())
    return emitOpError("element count changes from ")
           << in.getNumElements() << " to " << out.getNumElements();
  return success();
}

std::optional<SmallVector<int64_t>>
accel::graph::reduceShape(ArrayRef<int64_t> in, ArrayRef<int64_t> axes,
                          bool keepdims, std::string &why) {
  SmallVector<bool> reduced(in.size(), false);
  for (int64_t a : axes) {
    if (a < 0 || a >= int64_t(in.size()) || reduced[a]) {
      why = "axes must be distinct and in [0, rank)";
      return std::nullopt;
    }
    reduced[a] = true;
  }
  SmallVector<int64_t> out;
  for (size_t i = 0; i < in.size(); ++i) {
    if (!reduced[i])
      out.push_back(in[i]);
    else if (keepdims)
      out.push_back(1);
  }
  return out;
}

std::optional<int64_t> accel::graph::poolExtent(int64_t in, int64_t k,
                                                int64_t s, int64_t p0,
                                                int64_t p1, int64_t d,
                                                bool ceilMode,
                                                std::string &why) {
  if (k < 1 || s < 1 || d < 1 || p0 < 0 || p1 < 0) {
    why = "kernel, strides and dilations must be >= 1 and pads >= 0";
    return std::nullopt;
  }
  int64_t span = d * (k - 1) + 1, padded = in + p0 + p1;
  if (padded < span) {
    why = "window is larger than the padded input";
    return std::nullopt;
  }
  int64_t out =
      ceilMode ? (padded - span + s - 1) / s + 1 : (padded - span) / s + 1;
  // The last window must start inside the input or the begin padding.
  if (ceilMode && (out - 1) * s >= in + p0)
    --out;
  return out;
}

std::optional<SmallVector<int64_t>> accel::graph::convTranspose2dShape(
    ArrayRef<int64_t> in, ArrayRef<int64_t> w, ArrayRef<int64_t> strides,
    ArrayRef<int64_t> pads, ArrayRef<int64_t> dil, ArrayRef<int64_t> outPad,
    int64_t groups, std::string &why) {
  if (in.size() != 4 || w.size() != 4 || strides.size() != 2 ||
      pads.size() != 4 || dil.size() != 2 || outPad.size() != 2) {
    why = "conv_transpose2d expects 4-D input/weight, 2 strides, 4 pads, 2 "
          "dilations, 2 output paddings";
    return std::nullopt;
  }
  if (groups < 1 || in[1] % groups || w[0] != in[1]) {
    why = "weight must be [C, O/groups, KH, KW] with groups dividing C";
    return std::nullopt;
  }
  SmallVector<int64_t> out{in[0], w[1] * groups, 0, 0};
  for (int i = 0; i < 2; ++i) {
    out[2 + i] = strides[i] * (in[2 + i] - 1) + outPad[i] +
                 ((w[2 + i] - 1) * dil[i] + 1) - pads[i] - pads[i + 2];
    if (out[2 + i] < 1) {
      why = "output extent would be < 1";
      return std::nullopt;
    }
  }
  return out;
}

namespace {
bool isComparison(BinaryFn fn) {
  return fn == BinaryFn::equal || fn == BinaryFn::less ||
         fn == BinaryFn::greater || fn == BinaryFn::less_equal ||
         fn == BinaryFn::greater_equal;
}
Type elemOf(Value v) {
  return cast<RankedTensorType>(v.getType()).getElementType();
}
} // namespace

LogicalResult BinaryOp::verify() {
  std::string why;
  if (failed(checkResult(
          *this, broadcastShapes(shapeOf(getLhs()), shapeOf(getRhs()), why),
          why)))
    return failure();
  Type want = isComparison(getFn()) ? Type(IntegerType::get(getContext(), 1))
                                    : elemOf(getLhs());
  if (elemOf(getResult()) != want)
    return emitOpError("result element type must be ") << want;
  return success();
}

LogicalResult WhereOp::verify() {
  std::string why;
  auto xy = broadcastShapes(shapeOf(getX()), shapeOf(getY()), why);
  if (!xy)
    return emitOpError(why);
  return checkResult(*this, broadcastShapes(shapeOf(getCond()), *xy, why), why);
}

LogicalResult ReduceOp::verify() {
  std::string why;
  bool arg = getFn() == ReduceFn::argmax || getFn() == ReduceFn::argmin;
  if (arg && getAxes().size() != 1)
    return emitOpError("argmax / argmin reduce exactly one axis");
  if (arg != elemOf(getResult()).isInteger(64))
    return emitOpError("argmax / argmin produce i64, other reductions f32");
  return checkResult(
      *this, reduceShape(shapeOf(getInput()), getAxes(), getKeepdims(), why),
      why);
}

LogicalResult SoftmaxOp::verify() {
  // I64Attr accessors are unsigned; read the axis as the signed value it is.
  int64_t rank = shapeOf(getInput()).size();
  int64_t axis = getAxisAttr().getInt();
  if (axis < 0 || axis >= rank)
    return emitOpError("axis ") << axis << " out of range for rank " << rank;
  return success();
}

LogicalResult Pool2DOp::verify() {
  auto in = shapeOf(getInput());
  if (in.size() != 4)
    return emitOpError("expects NCHW input");
  if (getKernel().size() != 2 || getStrides().size() != 2 ||
      getPads().size() != 4 || getDilations().size() != 2)
    return emitOpError(
        "needs 2 kernel extents, 2 strides, 4 pads, 2 dilations");
  std::string why;
  SmallVector<int64_t> out{in[0], in[1], 0, 0};
  for (int i = 0; i < 2; ++i) {
    auto e =
        poolExtent(in[2 + i], getKernel()[i], getStrides()[i], getPads()[i],
                   getPads()[i + 2], getDilations()[i], getCeilMode(), why);
    if (!e)
      return emitOpError(why);
    out[2 + i] = *e;
  }
  return checkResult(*this, out, why);
}

LogicalResult ConcatOp::verify() {
  if (getInputs().empty())
    return emitOpError("needs at least one input");
  SmallVector<int64_t> out(shapeOf(getInputs()[0]));
  int64_t axis = getAxis();
  if (axis < 0 || axis >= int64_t(out.size()))
    return emitOpError("axis out of range");
  for (Value v : getInputs().drop_front()) {
    auto s = shapeOf(v);
    if (s.size() != out.size())
      return emitOpError("inputs must have the same rank");
    for (size_t i = 0; i < s.size(); ++i)
      if (int64_t(i) != axis && s[i] != out[i])
        return emitOpError("inputs differ in dimension ") << i;
    out[axis] += s[axis];
  }
  return checkResult(*this, out, "");
}

LogicalResult SliceOp::verify() {
  auto in = shapeOf(getInput());
  auto out = shapeOf(getResult());
  if (getOffsets().size() != in.size() || getStrides().size() != in.size() ||
      out.size() != in.size())
    return emitOpError(
        "offsets, strides and result need one entry per dimension");
  for (size_t i = 0; i < in.size(); ++i) {
    int64_t o = getOffsets()[i], st = getStrides()[i], n = out[i];
    if (st == 0)
      return emitOpError("strides must be non-zero");
    if (n == 0)
      continue;
    int64_t lastIdx = o + (n - 1) * st;
    if (o < 0 || o >= in[i] || lastIdx < 0 || lastIdx >= in[i])
      return emitOpError("slice of dimension ") << i << " leaves the input";
  }
  return success();
}

LogicalResult PadOp::verify() {
  auto in = shapeOf(getInput());
  if (getPads().size() != 2 * in.size())
    return emitOpError("pads needs 2 entries per dimension");
  SmallVector<int64_t> out;
  for (size_t i = 0; i < in.size(); ++i)
    out.push_back(in[i] + getPads()[i] + getPads()[i + in.size()]);
  return checkResult(*this, out, "");
}

LogicalResult BroadcastOp::verify() {
  std::string why;
  auto out = shapeOf(getResult());
  auto b = broadcastShapes(shapeOf(getInput()), out, why);
  if (!b || ArrayRef<int64_t>(*b) != out)
    return emitOpError("input does not broadcast to the result shape");
  return success();
}

LogicalResult TileOp::verify() {
  auto in = shapeOf(getInput());
  if (getRepeats().size() != in.size())
    return emitOpError("repeats needs one entry per dimension");
  SmallVector<int64_t> out;
  for (size_t i = 0; i < in.size(); ++i)
    out.push_back(in[i] * getRepeats()[i]);
  return checkResult(*this, out, "");
}

LogicalResult BatchNormOp::verify() {
  auto in = shapeOf(getInput());
  if (in.size() < 2)
    return emitOpError("input must have a channel dimension");
  for (Value v : {getScale(), getBias(), getMean(), getVariance()})
    if (shapeOf(v) != ArrayRef<int64_t>{in[1]})
      return emitOpError("scale, bias, mean and variance must be [C]");
  return checkResult(*this, SmallVector<int64_t>(in), "");
}

LogicalResult ConvTranspose2DOp::verify() {
  std::string why;
  return checkResult(*this,
                     convTranspose2dShape(shapeOf(getInput()),
                                          shapeOf(getWeight()), getStrides(),
                                          getPads(), getDilations(),
                                          getOutputPadding(), getGroups(), why),
                     why);
}

LogicalResult RecurrentOp::verify() {
  auto x = shapeOf(getX());
  if (x.size() != 3)
    return emitOpError("X must be [seq, batch, input]");
  StringRef dir = getDirection();
  if (dir != "forward" && dir != "reverse" && dir != "bidirectional")
    return emitOpError("direction must be forward, reverse or bidirectional");
  int64_t dirs = dir == "bidirectional" ? 2 : 1, h = getHiddenSize();
  int64_t gates = getKind() == RnnKind::lstm  ? 4
                  : getKind() == RnnKind::gru ? 3
                                              : 1;
  if (shapeOf(getW()) != ArrayRef<int64_t>{dirs, gates * h, x[2]})
    return emitOpError("W must be [dirs, gates*hidden, input]");
  if (shapeOf(getR()) != ArrayRef<int64_t>{dirs, gates * h, h})
    return emitOpError("R must be [dirs, gates*hidden, hidden]");
  if (getB() && shapeOf(getB()) != ArrayRef<int64_t>{dirs, 2 * gates * h})
    return emitOpError("B must be [dirs, 2*gates*hidden]");
  if (shapeOf(getY()) != ArrayRef<int64_t>{x[0], dirs, x[1], h} ||
      shapeOf(getYH()) != ArrayRef<int64_t>{dirs, x[1], h} ||
      shapeOf(getYC()) != ArrayRef<int64_t>{dirs, x[1], h})
    return emitOpError("results must be Y [seq, dirs, batch, hidden], Y_h and "
                       "Y_c [dirs, batch, hidden]");
  return success();
}

#define GET_OP_CLASSES
#include "Graph/GraphOps.cpp.inc"
