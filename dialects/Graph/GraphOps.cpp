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
      why = "shapes " + shapeStr(a) + " and " + shapeStr(b) +
            " do not broadcast";
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
    why = "gemm contracting dimensions differ (" + std::to_string(ka) +
          " vs " + std::to_string(kb) + ")";
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
      why = "gemm C " + shapeStr(*c) + " does not broadcast to " +
            shapeStr(out);
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
  return checkResult(*this, matmulShape(shapeOf(getLhs()), shapeOf(getRhs()), why),
                     why);
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
  return checkResult(*this,
                     broadcastShapes(shapeOf(getLhs()), shapeOf(getRhs()), why),
                     why);
}

LogicalResult TransposeOp::verify() {
  auto in = shapeOf(getInput());
  auto perm = getPerm();
  if (perm.size() != in.size())
    return emitOpError("perm has ") << perm.size() << " entries for rank "
                                    << in.size();
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

#define GET_OP_CLASSES
#include "Graph/GraphOps.cpp.inc"
