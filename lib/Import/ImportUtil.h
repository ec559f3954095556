//===- ImportUtil.h - constant-tensor helpers of the importer ---*- C++ -*-===//
#ifndef ACCEL_LIB_IMPORT_IMPORTUTIL_H
#define ACCEL_LIB_IMPORT_IMPORTUTIL_H

#include "ImporterImpl.h"

#include <cstring>

namespace accel::onnximport {

/// The most elements of a constant the importer creates (a folded tensor, a
/// padded initializer, an interpolation matrix).
constexpr int64_t kMaxConstElements = 1 << 24;

/// numpy broadcast of `c` to `shape` (which must be compatible).
ConstTensor broadcastConst(const ConstTensor &c, ArrayRef<int64_t> shape);
/// ONNX Cast semantics on constants (float -> int truncates).
ConstTensor castConst(const ConstTensor &c, int to);
ConstTensor permuteConst(const ConstTensor &c, ArrayRef<int64_t> perm);
ConstTensor sliceConst(const ConstTensor &c, ArrayRef<int64_t> offsets,
                       ArrayRef<int64_t> strides, ArrayRef<int64_t> sizes);
ConstTensor concatConst(ArrayRef<const ConstTensor *> parts, int64_t axis,
                        int dtype);
inline ConstTensor reshapeConst(const ConstTensor &c, ArrayRef<int64_t> shape) {
  ConstTensor r = c;
  r.shape.assign(shape.begin(), shape.end());
  return r;
}

/// Two's-complement wrap-around of an int64 result computed in uint64 (as
/// ONNX runtimes wrap; signed overflow would be undefined in C++).
inline int64_t wrapToInt64(uint64_t v) {
  int64_t r;
  std::memcpy(&r, &v, sizeof r);
  return r;
}

} // namespace accel::onnximport

#endif
