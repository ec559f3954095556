//===- LabelUtils.h - Reading and writing tensor labels ---------*- C++ -*-===//
//
// Where the labels of a value live (docs/labels-and-splits.md, "Passes"):
// `accel.label` on a function argument, `accel.labels` (one entry per
// result) on the defining op. Shared by tensor-labeling and split-strategy.
//
//===----------------------------------------------------------------------===//
#ifndef ACCEL_TRANSFORMS_LABELUTILS_H
#define ACCEL_TRANSFORMS_LABELUTILS_H

#include "Accel/AccelDialect.h"
#include "mlir/IR/Value.h"
#include <string>

namespace accel::labels {

/// The label of `v`; null when it has none.
LabelAttr labelOf(mlir::Value v);
/// Sets the label of `v`. An op result whose op has no `accel.labels` yet
/// gets the array when the op has one result; false otherwise (a label
/// array must have one entry per result).
bool setLabel(mlir::Value v, LabelAttr label);
/// "static:... dynamic:..." (the spec's two texts).
std::string labelText(LabelAttr label);
/// "argument 0" / "result 1" of the value's owner.
std::string valueName(mlir::Value v);
/// Emits "<valueName>: <labelText>" as a remark on the owner of `v`.
void remarkLabel(mlir::Value v, LabelAttr label);

} // namespace accel::labels

#endif
