//===- GraphFolds.cpp - Graph op folders ----------------------------------===//
//
// Folders for the identities ONNX exports are full of. Each returns an
// existing value (or updates the op in place, or returns a constant) and
// never creates ops; rewrites that do are in GraphCanonicalize.cpp.
//
// Neutral-element folds (x + 0, x - 0, x * 1, x / 1) need a splat constant
// and fire only when the result has x's type: a neutral operand that
// broadcasts x to a larger shape is not an identity. Like ONNX optimisers
// ("eliminate_nop_with_unit"), x + 0.0 -> x does not keep the sign of a zero
// x (-0.0 + 0.0 is +0.0).
//
//===----------------------------------------------------------------------===//
#include "Graph/GraphDialect.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/STLExtras.h"

using namespace mlir;
using namespace accel::graph;
using llvm::ArrayRef;
using llvm::SmallVector;

Operation *GraphDialect::materializeConstant(OpBuilder &builder,
                                             Attribute value, Type type,
                                             Location loc) {
  auto dense = dyn_cast<DenseElementsAttr>(value);
  if (!dense || dense.getType() != type)
    return nullptr;
  return arith::ConstantOp::create(builder, loc, type, dense);
}

namespace {
bool isIota(ArrayRef<int64_t> v) {
  return llvm::equal(v, llvm::seq<int64_t>(0, v.size()));
}
bool allEqual(ArrayRef<int64_t> v, int64_t x) {
  return llvm::all_of(v, [&](int64_t e) { return e == x; });
}

/// `x` when `neutral` is a splat of the neutral element (per `isNeutral`)
/// and the result keeps x's type; else null.
template <typename Matcher>
Value foldNeutral(Value x, Value neutral, Type resultType, Matcher isNeutral) {
  if (x.getType() == resultType && matchPattern(neutral, isNeutral))
    return x;
  return nullptr;
}

/// x + 0 and 0 + x.
Value foldAddZero(Value lhs, Value rhs, Type resultType) {
  if (Value x = foldNeutral(lhs, rhs, resultType, m_AnyZeroFloat()))
    return x;
  return foldNeutral(rhs, lhs, resultType, m_AnyZeroFloat());
}
} // namespace

OpFoldResult AddOp::fold(FoldAdaptor) {
  return foldAddZero(getLhs(), getRhs(), getType());
}

OpFoldResult BinaryOp::fold(FoldAdaptor) {
  Value lhs = getLhs(), rhs = getRhs();
  Type ty = getType();
  switch (getFn()) {
  case BinaryFn::add:
    return foldAddZero(lhs, rhs, ty);
  case BinaryFn::sub:
    return foldNeutral(lhs, rhs, ty, m_AnyZeroFloat());
  case BinaryFn::mul:
    if (Value x = foldNeutral(lhs, rhs, ty, m_OneFloat()))
      return x;
    return foldNeutral(rhs, lhs, ty, m_OneFloat());
  case BinaryFn::div:
    return foldNeutral(lhs, rhs, ty, m_OneFloat());
  default:
    return {};
  }
}

/// affine with alpha = 1, beta = 0 is the identity.
OpFoldResult UnaryOp::fold(FoldAdaptor) {
  if (getFn() == UnaryFn::affine && getAlpha().isExactlyValue(1.0) &&
      getBeta().isZero())
    return getInput();
  return {};
}

/// The label a value carries (accel.label of a function argument,
/// accel.labels[i] of an op result); null without one. Compared as uniqued
/// attributes: the graph dialect does not know the accel dialect's types.
static Attribute labelOf(Value v) {
  if (auto arg = dyn_cast<BlockArgument>(v)) {
    auto fn =
        dyn_cast_or_null<FunctionOpInterface>(arg.getOwner()->getParentOp());
    if (!fn || arg.getOwner() != &fn.getFunctionBody().front())
      return {};
    return fn.getArgAttr(arg.getArgNumber(), "accel.label");
  }
  auto labels = v.getDefiningOp()->getAttrOfType<ArrayAttr>("accel.labels");
  unsigned i = cast<OpResult>(v).getResultNumber();
  return labels && i < labels.size() ? labels[i] : Attribute();
}

/// A re-layout to the label its input already has (or to no label) is the
/// input.
OpFoldResult RelayoutOp::fold(FoldAdaptor) {
  auto labels = (*this)->getAttrOfType<ArrayAttr>("accel.labels");
  if (!labels || labels.empty() || labels[0] == labelOf(getInput()))
    return getInput();
  return {};
}

/// reshape to the same type; reshape of reshape (squeeze / unsqueeze /
/// flatten chains) reshapes the innermost input once; a constant is
/// reshaped at compile time (same data, new type).
OpFoldResult ReshapeOp::fold(FoldAdaptor adaptor) {
  if (getInput().getType() == getType())
    return getInput();
  if (auto inner = getInput().getDefiningOp<ReshapeOp>()) {
    if (inner.getInput().getType() == getType())
      return inner.getInput();
    getInputMutable().assign(inner.getInput());
    return getResult();
  }
  if (auto dense = dyn_cast_if_present<DenseElementsAttr>(adaptor.getInput()))
    return dense.reshape(getType());
  return {};
}

/// Identity permutation; transpose of transpose composes the permutations
/// (result dim i = inner input dim innerPerm[perm[i]]); a splat constant
/// only changes its type.
OpFoldResult TransposeOp::fold(FoldAdaptor adaptor) {
  if (isIota(getPerm()))
    return getInput();
  if (auto inner = getInput().getDefiningOp<TransposeOp>()) {
    SmallVector<int64_t> composed;
    for (int64_t p : getPerm())
      composed.push_back(inner.getPerm()[p]);
    if (isIota(composed))
      return inner.getInput();
    getInputMutable().assign(inner.getInput());
    setPerm(composed);
    return getResult();
  }
  if (auto dense = dyn_cast_if_present<DenseElementsAttr>(adaptor.getInput()))
    if (dense.isSplat())
      return dense.resizeSplat(getType());
  return {};
}

/// Broadcast to the shape the input already has.
OpFoldResult BroadcastOp::fold(FoldAdaptor) {
  if (getInput().getType() == getType())
    return getInput();
  return {};
}

/// A slice that takes every element in order.
OpFoldResult SliceOp::fold(FoldAdaptor) {
  if (getInput().getType() == getType() && allEqual(getOffsets(), 0) &&
      allEqual(getStrides(), 1))
    return getInput();
  return {};
}

/// Concat of a single input.
OpFoldResult ConcatOp::fold(FoldAdaptor) {
  if (getInputs().size() == 1 && getInputs()[0].getType() == getType())
    return getInputs()[0];
  return {};
}

/// Pad by nothing (any mode).
OpFoldResult PadOp::fold(FoldAdaptor) {
  if (getInput().getType() == getType() && allEqual(getPads(), 0))
    return getInput();
  return {};
}

/// Tile once along every dimension.
OpFoldResult TileOp::fold(FoldAdaptor) {
  if (getInput().getType() == getType() && allEqual(getRepeats(), 1))
    return getInput();
  return {};
}

/// A 1x1 window with stride 1 and no padding takes each element alone
/// (max and average alike).
OpFoldResult Pool2DOp::fold(FoldAdaptor) {
  if (getInput().getType() == getType() && allEqual(getKernel(), 1) &&
      allEqual(getStrides(), 1) && allEqual(getPads(), 0))
    return getInput();
  return {};
}

/// where with a splat condition picks one side when it has the result type.
OpFoldResult WhereOp::fold(FoldAdaptor adaptor) {
  auto cond = dyn_cast_if_present<DenseElementsAttr>(adaptor.getCond());
  if (!cond || !cond.isSplat() || !cond.getElementType().isInteger(1))
    return {};
  Value picked = cond.getSplatValue<bool>() ? getX() : getY();
  if (picked.getType() == getType())
    return picked;
  return {};
}
