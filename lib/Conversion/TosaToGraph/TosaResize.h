//===- TosaResize.h - tosa.resize as graph ops ------------------*- C++ -*-===//
//
// tosa.resize (NHWC, f32, NEAREST_NEIGHBOR or BILINEAR) is separable: each
// output row (column) is a fixed combination of at most two input rows
// (columns), given by the TOSA 1.0 formula from scale, offset and the
// output size. A nearest resize by a whole factor with the rows repeated
// becomes reshape -> broadcast -> reshape (the ONNX importer's spelling of
// a nearest Resize, which fold-upsampled-merge and the lowering's
// addressing know); any other resize multiplies by the per-axis
// interpolation matrices, as the importer's Resize does.
//
//===----------------------------------------------------------------------===//
#ifndef ACCEL_CONVERSION_TOSARESIZE_H
#define ACCEL_CONVERSION_TOSARESIZE_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/Value.h"
#include <cstdint>
#include <vector>

namespace accel::tosa_resize {

/// One axis of a resize: weights [out][in] (row-major), and whether it
/// repeats every input `factor` times (nearest, out = factor * in, output o
/// reads input o / factor; factor 1 is the identity).
struct Axis {
  int64_t in = 0, out = 0;
  std::vector<float> weights;
  bool repeats = false;
  int64_t factor = 1;
  /// Output o reads input o alone (no resize along this axis).
  bool identity() const {
    if (in != out)
      return false;
    for (int64_t o = 0; o < out; ++o)
      if (weights[size_t(o * in + o)] != 1.0f)
        return false;
    return true;
  }
};

/// The TOSA 1.0 resize of one axis for floating point: output o samples
/// y = o * scaleD + offset at input floor(y / scaleN) with fraction
/// d = (y mod scaleN) / scaleN, the neighbours clamped to [0, in - 1];
/// nearest takes the upper one when d >= 0.5, bilinear blends them
/// (1 - d, d). Assumes scaleN, scaleD > 0.
Axis planAxis(int64_t in, int64_t out, int64_t scaleN, int64_t scaleD,
              int64_t offset, bool bilinear);

/// `x` ([N, C, H, W], f32) resized by `rows` and `cols`: graph ops at the
/// builder's insertion point.
mlir::Value resizeNchw(mlir::OpBuilder &b, mlir::Location loc, mlir::Value x,
                       const Axis &rows, const Axis &cols);

} // namespace accel::tosa_resize

#endif
