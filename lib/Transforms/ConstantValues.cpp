//===- ConstantValues.cpp - f32 values of a constant tensor ---------------===//

#include "ConstantValues.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/BuiltinAttributes.h"
#include <cstring>

bool accel::constantF32Values(mlir::Value v, std::vector<float> &out) {
  auto c = v ? v.getDefiningOp<mlir::arith::ConstantOp>() : nullptr;
  auto dense =
      c ? mlir::dyn_cast<mlir::DenseElementsAttr>(c.getValue()) : nullptr;
  if (!dense || !dense.getElementType().isF32())
    return false;
  // The raw f32 storage, not one APFloat per element (weights are large),
  // copied whole when it holds every element (not a splat).
  llvm::ArrayRef<char> raw = dense.getRawData();
  const size_t n = size_t(dense.getNumElements());
  if (!dense.isSplat() && raw.size() == n * sizeof(float)) {
    out.resize(n);
    std::memcpy(out.data(), raw.data(), raw.size());
    return true;
  }
  auto values = dense.getValues<float>();
  out.assign(values.begin(), values.end());
  return true;
}
