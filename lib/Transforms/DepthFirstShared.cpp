//===- DepthFirstShared.cpp - Helpers of the depth-first passes -----------===//
#include "DepthFirstShared.h"
#include "Accel/AccelDialect.h"
#include "FuseLayers.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace accel;

bool depthfirst::isSplatConstant(Value v) {
  DenseElementsAttr c;
  return matchPattern(v, m_Constant(&c)) && c.isSplat();
}

std::optional<depthfirst::SliceableChain>
depthfirst::sliceableChain(Operation *producer) {
  SliceableChain chain{{}, producer->getResult(0)};
  while (chain.end.hasOneUse()) {
    Operation *user = *chain.end.getUsers().begin();
    if (!user->hasAttr(kFusedAttrName))
      break;
    if (user->getNumResults() != 1 ||
        llvm::any_of(user->getOperands(), [&](Value v) {
          return v != chain.end && !isSplatConstant(v);
        }))
      return std::nullopt; // a residual add, or a per-channel operand
    chain.ops.push_back(user);
    chain.end = user->getResult(0);
  }
  return chain;
}

int64_t depthfirst::dim(Value v, unsigned d) {
  return cast<RankedTensorType>(v.getType()).getDimSize(d);
}

uint64_t depthfirst::bytesOf(Value v) {
  return uint64_t(cast<RankedTensorType>(v.getType()).getNumElements()) * 4;
}

RankedTensorType depthfirst::withDim(Value v, unsigned d, int64_t extent) {
  auto type = cast<RankedTensorType>(v.getType());
  SmallVector<int64_t> shape(type.getShape());
  shape[d] = extent;
  return RankedTensorType::get(shape, type.getElementType());
}

Location depthfirst::sliceLoc(Operation *op, const std::string &suffix) {
  MLIRContext *ctx = op->getContext();
  auto rename = [&](Location l) -> Location {
    if (auto n = dyn_cast<NameLoc>(l))
      return NameLoc::get(StringAttr::get(ctx, n.getName().str() + suffix),
                          n.getChildLoc());
    return NameLoc::get(StringAttr::get(ctx, fuse::layerName(op) + suffix), l);
  };
  if (auto f = dyn_cast<FusedLoc>(op->getLoc())) {
    SmallVector<Location> parts(f.getLocations());
    parts.front() = rename(parts.front());
    return FusedLoc::get(ctx, parts, f.getMetadata());
  }
  return rename(op->getLoc());
}

Value depthfirst::cloneChain(OpBuilder &b, const SliceableChain &chain,
                             Value orig, Value v, unsigned d) {
  const int64_t extent = dim(v, d);
  for (Operation *op : chain.ops) {
    IRMapping map;
    map.map(orig, v);
    for (Value operand : op->getOperands()) {
      // A full-shape splat operand: the same value in the slice's shape
      // (smaller splats broadcast to either shape as they are).
      if (operand == orig || operand.getType() != orig.getType())
        continue;
      DenseElementsAttr c;
      matchPattern(operand, m_Constant(&c));
      map.map(operand, arith::ConstantOp::create(
                           b, op->getLoc(),
                           DenseElementsAttr::get(withDim(operand, d, extent),
                                                  c.getSplatValue<float>())));
    }
    Operation *clone = b.clone(*op, map);
    clone->getResult(0).setType(withDim(op->getResult(0), d, extent));
    orig = op->getResult(0);
    v = clone->getResult(0);
  }
  return v;
}
