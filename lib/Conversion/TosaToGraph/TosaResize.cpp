//===- TosaResize.cpp - tosa.resize as graph ops --------------------------===//

#include "TosaResize.h"

#include "Graph/GraphDialect.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/BuiltinTypes.h"
#include <algorithm>

namespace accel::tosa_resize {

namespace {
int64_t floorDiv(int64_t a, int64_t b) {
  return a >= 0 ? a / b : -((-a + b - 1) / b);
}

mlir::RankedTensorType f32(mlir::OpBuilder &b, llvm::ArrayRef<int64_t> s) {
  return mlir::RankedTensorType::get(s, b.getF32Type());
}

mlir::Value constant(mlir::OpBuilder &b, mlir::Location loc,
                     llvm::ArrayRef<int64_t> shape,
                     llvm::ArrayRef<float> values) {
  return mlir::arith::ConstantOp::create(
      b, loc, mlir::DenseElementsAttr::get(f32(b, shape), values));
}
} // namespace

Axis planAxis(int64_t in, int64_t out, int64_t scaleN, int64_t scaleD,
              int64_t offset, bool bilinear) {
  Axis a;
  a.in = in;
  a.out = out;
  a.weights.assign(size_t(in * out), 0.0f);
  std::vector<int64_t> nearest(static_cast<size_t>(out), 0);
  for (int64_t o = 0; o < out; ++o) {
    const int64_t y = o * scaleD + offset;
    const int64_t iy = floorDiv(y, scaleN), ry = y - iy * scaleN;
    const double d = double(ry) / double(scaleN);
    const int64_t lo = std::clamp<int64_t>(iy, 0, in - 1);
    const int64_t hi = std::clamp<int64_t>(iy + 1, 0, in - 1);
    float *row = &a.weights[size_t(o * in)];
    if (bilinear) {
      row[lo] += float(1.0 - d);
      row[hi] += float(d);
    } else {
      nearest[size_t(o)] = d >= 0.5 ? hi : lo;
      row[nearest[size_t(o)]] = 1.0f;
    }
  }
  if (!bilinear && out % in == 0) {
    a.factor = out / in;
    a.repeats = true;
    for (int64_t o = 0; o < out && a.repeats; ++o)
      a.repeats = nearest[size_t(o)] == o / a.factor;
  }
  if (!a.repeats)
    a.factor = 1;
  return a;
}

mlir::Value resizeNchw(mlir::OpBuilder &b, mlir::Location loc, mlir::Value x,
                       const Axis &rows, const Axis &cols) {
  llvm::SmallVector<int64_t> s(
      mlir::cast<mlir::RankedTensorType>(x.getType()).getShape());
  const int64_t N = s[0], C = s[1], H = s[2], W = s[3];
  if (rows.identity() && cols.identity())
    return x;
  if (rows.repeats && cols.repeats) {
    const int64_t sh = rows.factor, sw = cols.factor;
    mlir::Value v =
        graph::ReshapeOp::create(b, loc, f32(b, {N, C, H, 1, W, 1}), x);
    v = graph::BroadcastOp::create(b, loc, f32(b, {N, C, H, sh, W, sw}), v);
    return graph::ReshapeOp::create(b, loc, f32(b, {N, C, sh * H, sw * W}), v);
  }
  mlir::Value v = x;
  if (!cols.identity()) { // v . Mx^T over the columns
    std::vector<float> mt(size_t(W * cols.out));
    for (int64_t o = 0; o < cols.out; ++o)
      for (int64_t i = 0; i < W; ++i)
        mt[size_t(i * cols.out + o)] = cols.weights[size_t(o * W + i)];
    v = graph::MatMulOp::create(b, loc, f32(b, {N, C, H, cols.out}), v,
                                constant(b, loc, {W, cols.out}, mt));
  }
  if (!rows.identity()) // My . v, over the leading dims
    v = graph::MatMulOp::create(b, loc, f32(b, {N, C, rows.out, cols.out}),
                                constant(b, loc, {rows.out, H}, rows.weights),
                                v);
  return v;
}

} // namespace accel::tosa_resize
