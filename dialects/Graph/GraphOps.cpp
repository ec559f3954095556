//===- GraphOps.cpp - Graph op shape rules and verifiers ------------------===//
#include "Graph/GraphDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/CheckedArithmetic.h"
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

/// Whether a contraction's operands have a zero-sized dimension (with `why`
/// set): the GEMM kernels tile every dimension and an empty one divided
/// them by zero; an empty contraction is refused instead.
static bool emptyOperands(StringRef op, ArrayRef<int64_t> a,
                          ArrayRef<int64_t> b, std::string &why) {
  if (!llvm::is_contained(a, 0) && !llvm::is_contained(b, 0))
    return false;
  why = op.str() + " operands " + shapeStr(a) + " and " + shapeStr(b) +
        " have a zero-sized dimension (empty tensors are not supported)";
  return true;
}

std::optional<SmallVector<int64_t>>
accel::graph::matmulShape(ArrayRef<int64_t> lhs, ArrayRef<int64_t> rhs,
                          std::string &why) {
  if (lhs.empty() || rhs.empty()) {
    why = "matmul operands must have rank >= 1";
    return std::nullopt;
  }
  if (emptyOperands("matmul", lhs, rhs, why))
    return std::nullopt;
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
  if (emptyOperands("gemm", a, b, why))
    return std::nullopt;
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
  if (emptyOperands("conv2d", in, w, why))
    return std::nullopt;
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

//===----------------------------------------------------------------------===//
// Result type inference (InferTypeOpInterface). The interface's verifier
// compares the inferred types with the op's, so these are the shape checks
// too; `verify()` keeps only what does not determine the result type.
//===----------------------------------------------------------------------===//

namespace {
ArrayRef<int64_t> shapeOf(Value v) {
  return cast<RankedTensorType>(v.getType()).getShape();
}
Type elemOf(Value v) {
  return cast<RankedTensorType>(v.getType()).getElementType();
}
bool isComparison(BinaryFn fn) {
  return fn == BinaryFn::equal || fn == BinaryFn::less ||
         fn == BinaryFn::greater || fn == BinaryFn::less_equal ||
         fn == BinaryFn::greater_equal;
}

/// Appends tensor<shape x elem>, or reports `why` as an error of `opName`.
LogicalResult inferTensor(std::optional<Location> loc, StringRef opName,
                          const std::optional<SmallVector<int64_t>> &shape,
                          Type elem, const std::string &why,
                          SmallVectorImpl<Type> &types) {
  if (!shape)
    return emitOptionalError(loc, "'", opName, "' op ", why);
  types.push_back(RankedTensorType::get(*shape, elem));
  return success();
}
LogicalResult inferF32(std::optional<Location> loc, StringRef opName,
                       const std::optional<SmallVector<int64_t>> &shape,
                       const std::string &why, MLIRContext *ctx,
                       SmallVectorImpl<Type> &types) {
  return inferTensor(loc, opName, shape, Float32Type::get(ctx), why, types);
}
} // namespace

LogicalResult MatMulOp::inferReturnTypes(MLIRContext *ctx,
                                         std::optional<Location> loc,
                                         Adaptor op,
                                         SmallVectorImpl<Type> &types) {
  std::string why;
  return inferF32(loc, getOperationName(),
                  matmulShape(shapeOf(op.getLhs()), shapeOf(op.getRhs()), why),
                  why, ctx, types);
}

LogicalResult GemmOp::inferReturnTypes(MLIRContext *ctx,
                                       std::optional<Location> loc, Adaptor op,
                                       SmallVectorImpl<Type> &types) {
  std::string why;
  ArrayRef<int64_t> c;
  if (op.getC())
    c = shapeOf(op.getC());
  return inferF32(loc, getOperationName(),
                  gemmShape(shapeOf(op.getA()), shapeOf(op.getB()),
                            op.getC() ? &c : nullptr, op.getTransA(),
                            op.getTransB(), why),
                  why, ctx, types);
}

bool Conv2DOp::isDepthwise() {
  auto in = cast<RankedTensorType>(getInput().getType());
  auto out = cast<RankedTensorType>(getResult().getType());
  int64_t g = int64_t(getGroups());
  return g == in.getDimSize(1) && g == out.getDimSize(1);
}

LogicalResult Conv2DOp::inferReturnTypes(MLIRContext *ctx,
                                         std::optional<Location> loc,
                                         Adaptor op,
                                         SmallVectorImpl<Type> &types) {
  std::string why;
  ArrayRef<int64_t> b;
  if (op.getBias())
    b = shapeOf(op.getBias());
  return inferF32(loc, getOperationName(),
                  conv2dShape(shapeOf(op.getInput()), shapeOf(op.getWeight()),
                              op.getBias() ? &b : nullptr, op.getStrides(),
                              op.getPads(), op.getDilations(), op.getGroups(),
                              why),
                  why, ctx, types);
}

LogicalResult AddOp::inferReturnTypes(MLIRContext *ctx,
                                      std::optional<Location> loc, Adaptor op,
                                      SmallVectorImpl<Type> &types) {
  std::string why;
  return inferF32(
      loc, getOperationName(),
      broadcastShapes(shapeOf(op.getLhs()), shapeOf(op.getRhs()), why), why,
      ctx, types);
}

LogicalResult TransposeOp::inferReturnTypes(MLIRContext *ctx,
                                            std::optional<Location> loc,
                                            Adaptor op,
                                            SmallVectorImpl<Type> &types) {
  auto in = shapeOf(op.getInput());
  auto perm = op.getPerm();
  std::optional<SmallVector<int64_t>> out;
  std::string why;
  if (perm.size() != in.size()) {
    why = "perm has " + std::to_string(perm.size()) + " entries for rank " +
          std::to_string(in.size());
  } else {
    out.emplace();
    SmallVector<bool> used(in.size(), false);
    for (int64_t p : perm) {
      if (p < 0 || p >= int64_t(in.size()) || used[p]) {
        why = "perm is not a permutation of [0, " + std::to_string(in.size()) +
              ")";
        out.reset();
        break;
      }
      used[p] = true;
      out->push_back(in[p]);
    }
  }
  return inferF32(loc, getOperationName(), out, why, ctx, types);
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

LogicalResult BinaryOp::inferReturnTypes(MLIRContext *ctx,
                                         std::optional<Location> loc,
                                         Adaptor op,
                                         SmallVectorImpl<Type> &types) {
  std::string why;
  Type elem = isComparison(op.getFn()) ? Type(IntegerType::get(ctx, 1))
                                       : elemOf(op.getLhs());
  return inferTensor(
      loc, getOperationName(),
      broadcastShapes(shapeOf(op.getLhs()), shapeOf(op.getRhs()), why), elem,
      why, types);
}

LogicalResult WhereOp::inferReturnTypes(MLIRContext *ctx,
                                        std::optional<Location> loc, Adaptor op,
                                        SmallVectorImpl<Type> &types) {
  std::string why;
  auto xy = broadcastShapes(shapeOf(op.getX()), shapeOf(op.getY()), why);
  if (xy)
    xy = broadcastShapes(shapeOf(op.getCond()), *xy, why);
  return inferTensor(loc, getOperationName(), xy, elemOf(op.getX()), why,
                     types);
}

LogicalResult ReduceOp::inferReturnTypes(MLIRContext *ctx,
                                         std::optional<Location> loc,
                                         Adaptor op,
                                         SmallVectorImpl<Type> &types) {
  std::string why;
  bool arg = op.getFn() == ReduceFn::argmax || op.getFn() == ReduceFn::argmin;
  Type elem = arg ? Type(IntegerType::get(ctx, 64)) : Float32Type::get(ctx);
  return inferTensor(
      loc, getOperationName(),
      reduceShape(shapeOf(op.getInput()), op.getAxes(), op.getKeepdims(), why),
      elem, why, types);
}

LogicalResult ReduceOp::verify() {
  bool arg = getFn() == ReduceFn::argmax || getFn() == ReduceFn::argmin;
  if (arg && getAxes().size() != 1)
    return emitOpError("argmax / argmin reduce exactly one axis");
  return success();
}

LogicalResult SoftmaxOp::verify() {
  // I64Attr accessors are unsigned; read the axis as the signed value it is.
  int64_t rank = shapeOf(getInput()).size();
  int64_t axis = getAxisAttr().getInt();
  if (axis < 0 || axis >= rank)
    return emitOpError("axis ") << axis << " out of range for rank " << rank;
  return success();
}

LogicalResult Pool2DOp::inferReturnTypes(MLIRContext *ctx,
                                         std::optional<Location> loc,
                                         Adaptor op,
                                         SmallVectorImpl<Type> &types) {
  auto in = shapeOf(op.getInput());
  std::string why;
  std::optional<SmallVector<int64_t>> out;
  if (in.size() != 4) {
    why = "expects NCHW input";
  } else if (op.getKernel().size() != 2 || op.getStrides().size() != 2 ||
             op.getPads().size() != 4 || op.getDilations().size() != 2) {
    why = "needs 2 kernel extents, 2 strides, 4 pads, 2 dilations";
  } else {
    out = SmallVector<int64_t>{in[0], in[1], 0, 0};
    for (int i = 0; i < 2 && out; ++i) {
      auto e = poolExtent(in[2 + i], op.getKernel()[i], op.getStrides()[i],
                          op.getPads()[i], op.getPads()[i + 2],
                          op.getDilations()[i], op.getCeilMode(), why);
      if (e)
        (*out)[2 + i] = *e;
      else
        out.reset();
    }
  }
  return inferF32(loc, getOperationName(), out, why, ctx, types);
}

LogicalResult ConcatOp::inferReturnTypes(MLIRContext *ctx,
                                         std::optional<Location> loc,
                                         Adaptor op,
                                         SmallVectorImpl<Type> &types) {
  StringRef name = getOperationName();
  if (op.getInputs().empty())
    return emitOptionalError(loc, "'", name, "' op needs at least one input");
  SmallVector<int64_t> out(shapeOf(op.getInputs()[0]));
  int64_t axis = op.getAxisAttr().getInt();
  if (axis < 0 || axis >= int64_t(out.size()))
    return emitOptionalError(loc, "'", name, "' op axis out of range");
  for (Value v : op.getInputs().drop_front()) {
    auto s = shapeOf(v);
    if (s.size() != out.size())
      return emitOptionalError(loc, "'", name,
                               "' op inputs must have the same rank");
    for (size_t i = 0; i < s.size(); ++i)
      if (int64_t(i) != axis && s[i] != out[i])
        return emitOptionalError(loc, "'", name,
                                 "' op inputs differ in dimension ", i);
    out[axis] += s[axis];
  }
  return inferTensor(loc, name, out, elemOf(op.getInputs()[0]), "", types);
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
    // Overflow-checked: a stride of 2^62 wrapped the last index to 0 and
    // the slice passed (its DMA then read row 0 again and again).
    std::optional<int64_t> lastIdx = llvm::checkedMulAdd<int64_t>(n - 1, st, o);
    if (o < 0 || o >= in[i] || !lastIdx || *lastIdx < 0 || *lastIdx >= in[i])
      return emitOpError("slice of dimension ") << i << " leaves the input";
  }
  return success();
}

LogicalResult PadOp::inferReturnTypes(MLIRContext *ctx,
                                      std::optional<Location> loc, Adaptor op,
                                      SmallVectorImpl<Type> &types) {
  auto in = shapeOf(op.getInput());
  auto pads = op.getPads();
  if (pads.size() != 2 * in.size())
    return emitOptionalError(loc, "'", getOperationName(),
                             "' op pads needs 2 entries per dimension");
  SmallVector<int64_t> out;
  for (size_t i = 0; i < in.size(); ++i) {
    // Overflow-checked: pads near +-2^63 wrapped to any size (even the
    // dynamic marker).
    std::optional<int64_t> size = llvm::checkedAdd<int64_t>(in[i], pads[i]);
    if (size)
      size = llvm::checkedAdd<int64_t>(*size, pads[i + in.size()]);
    if (!size || *size < 0)
      return emitOptionalError(loc, "'", getOperationName(),
                               "' op pads of dimension ", i,
                               " give no valid size");
    out.push_back(*size);
  }
  return inferF32(loc, getOperationName(), out, "", ctx, types);
}

LogicalResult BroadcastOp::verify() {
  std::string why;
  auto out = shapeOf(getResult());
  auto b = broadcastShapes(shapeOf(getInput()), out, why);
  if (!b || ArrayRef<int64_t>(*b) != out)
    return emitOpError("input does not broadcast to the result shape");
  return success();
}

LogicalResult TileOp::inferReturnTypes(MLIRContext *ctx,
                                       std::optional<Location> loc, Adaptor op,
                                       SmallVectorImpl<Type> &types) {
  auto in = shapeOf(op.getInput());
  if (op.getRepeats().size() != in.size())
    return emitOptionalError(loc, "'", getOperationName(),
                             "' op repeats needs one entry per dimension");
  SmallVector<int64_t> out;
  for (size_t i = 0; i < in.size(); ++i) {
    // Overflow-checked: repeats of -2^63 wrapped to a size of 0 (or to
    // the dynamic marker).
    int64_t r = op.getRepeats()[i];
    std::optional<int64_t> size = llvm::checkedMul<int64_t>(in[i], r);
    if (r < 0 || !size)
      return emitOptionalError(loc, "'", getOperationName(),
                               "' op repeats of dimension ", i, " (", r,
                               ") must be >= 0 and keep the size in int64");
    out.push_back(*size);
  }
  return inferTensor(loc, getOperationName(), out, elemOf(op.getInput()), "",
                     types);
}

LogicalResult BatchNormOp::inferReturnTypes(MLIRContext *ctx,
                                            std::optional<Location> loc,
                                            Adaptor op,
                                            SmallVectorImpl<Type> &types) {
  types.push_back(op.getInput().getType());
  return success();
}

LogicalResult BatchNormOp::verify() {
  auto in = shapeOf(getInput());
  if (in.size() < 2)
    return emitOpError("input must have a channel dimension");
  for (Value v : {getScale(), getBias(), getMean(), getVariance()})
    if (shapeOf(v) != ArrayRef<int64_t>{in[1]})
      return emitOpError("scale, bias, mean and variance must be [C]");
  return success();
}

LogicalResult
ConvTranspose2DOp::inferReturnTypes(MLIRContext *ctx,
                                    std::optional<Location> loc, Adaptor op,
                                    SmallVectorImpl<Type> &types) {
  std::string why;
  return inferF32(
      loc, getOperationName(),
      convTranspose2dShape(shapeOf(op.getInput()), shapeOf(op.getWeight()),
                           op.getStrides(), op.getPads(), op.getDilations(),
                           op.getOutputPadding(), op.getGroups(), why),
      why, ctx, types);
}

namespace {
int64_t directionsOf(StringRef dir) { return dir == "bidirectional" ? 2 : 1; }
} // namespace

/// Y [seq, dirs, batch, hidden], Y_h and Y_c [dirs, batch, hidden].
LogicalResult RecurrentOp::inferReturnTypes(MLIRContext *ctx,
                                            std::optional<Location> loc,
                                            Adaptor op,
                                            SmallVectorImpl<Type> &types) {
  StringRef name = getOperationName();
  auto x = shapeOf(op.getX());
  if (x.size() != 3)
    return emitOptionalError(loc, "'", name,
                             "' op X must be [seq, batch, input]");
  StringRef dir = op.getDirection();
  if (dir != "forward" && dir != "reverse" && dir != "bidirectional")
    return emitOptionalError(
        loc, "'", name,
        "' op direction must be forward, reverse or bidirectional");
  int64_t h = op.getHiddenSizeAttr().getInt();
  if (h < 1)
    return emitOptionalError(loc, "'", name, "' op hidden_size must be >= 1");
  int64_t dirs = directionsOf(dir);
  auto f32 = Float32Type::get(ctx);
  types.push_back(RankedTensorType::get({x[0], dirs, x[1], h}, f32));
  types.push_back(RankedTensorType::get({dirs, x[1], h}, f32));
  types.push_back(RankedTensorType::get({dirs, x[1], h}, f32));
  return success();
}

LogicalResult RecurrentOp::verify() {
  auto x = shapeOf(getX());
  if (x.size() != 3)
    return emitOpError("X must be [seq, batch, input]");
  int64_t dirs = directionsOf(getDirection()), h = getHiddenSize();
  int64_t gates = getKind() == RnnKind::lstm  ? 4
                  : getKind() == RnnKind::gru ? 3
                                              : 1;
  if (shapeOf(getW()) != ArrayRef<int64_t>{dirs, gates * h, x[2]})
    return emitOpError("W must be [dirs, gates*hidden, input]");
  if (shapeOf(getR()) != ArrayRef<int64_t>{dirs, gates * h, h})
    return emitOpError("R must be [dirs, gates*hidden, hidden]");
  if (getB() && shapeOf(getB()) != ArrayRef<int64_t>{dirs, 2 * gates * h})
    return emitOpError("B must be [dirs, 2*gates*hidden]");
  return success();
}

#define GET_OP_CLASSES
#include "Graph/GraphOps.cpp.inc"
