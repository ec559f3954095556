//===- ImportFold.cpp - compile-time evaluation of constant nodes ---------===//
//
// Nodes whose inputs are all compile-time constants (initializers, Constant
// nodes, bound inputs, Shape results, ...) are evaluated here instead of
// becoming graph ops. This is what makes the shape subgraphs of exported
// models (Shape -> Gather -> Unsqueeze -> Concat -> Reshape, integer
// arithmetic, Cast) disappear at compile time: the accelerator has no
// integer datapath, so integer tensors must all be constants.
//
// Layout ops (Reshape, Slice, Gather, Concat, ...) fold in their own
// importers, which share the shape logic with the runtime path.
//
//===----------------------------------------------------------------------===//
#include "ImportUtil.h"
#include "ImporterImpl.h"

#include <cmath>
#include <cstdint>
#include <cstring>

using namespace mlir;
using namespace accel::onnximport;
namespace graph = accel::graph;

namespace {
constexpr int64_t kMaxFoldElements = 1 << 22;

bool isComparison(StringRef op) {
  return op == "Equal" || op == "Less" || op == "Greater" ||
         op == "LessOrEqual" || op == "GreaterOrEqual";
}

/// Rounds a double to the precision of the ONNX type.
double roundTo(int dtype, double v) {
  if (dtype == onnx::TensorProto::FLOAT)
    return (double)(float)v;
  return v;
}
} // namespace

ConstTensor accel::onnximport::broadcastConst(const ConstTensor &c,
                                              ArrayRef<int64_t> shape) {
  ConstTensor r;
  r.dtype = c.dtype;
  r.shape.assign(shape.begin(), shape.end());
  int64_t n = *numElements(shape), rank = shape.size();
  int64_t off = rank - (int64_t)c.shape.size();
  auto inStride = stridesOf(c.shape);
  auto outStride = stridesOf(shape);
  if (c.isFloat())
    r.f.resize(n);
  else
    r.i.resize(n);
  for (int64_t k = 0; k < n; ++k) {
    int64_t src = 0;
    for (int64_t d = off; d < rank; ++d) {
      int64_t idx = (k / outStride[d]) % shape[d];
      if (c.shape[d - off] != 1)
        src += idx * inStride[d - off];
    }
    if (c.isFloat())
      r.f[k] = c.f[src];
    else
      r.i[k] = c.i[src];
  }
  return r;
}

ConstTensor accel::onnximport::castConst(const ConstTensor &c, int to) {
  ConstTensor r;
  r.dtype = to;
  r.shape = c.shape;
  int64_t n = c.size();
  if (isFloatType(to)) {
    r.f.resize(n);
    for (int64_t k = 0; k < n; ++k)
      r.f[k] = roundTo(to, c.getF(k));
  } else {
    r.i.resize(n);
    for (int64_t k = 0; k < n; ++k) {
      if (to == onnx::TensorProto::BOOL) {
        r.i[k] = c.getF(k) != 0;
        continue;
      }
      if (c.isFloat()) {
        double v = c.f[k];
        r.i[k] = std::isfinite(v) ? (int64_t)std::trunc(v) : 0;
      } else {
        r.i[k] = c.i[k];
      }
      switch (to) {
      case onnx::TensorProto::INT32:
        r.i[k] = (int32_t)r.i[k];
        break;
      case onnx::TensorProto::INT16:
        r.i[k] = (int16_t)r.i[k];
        break;
      case onnx::TensorProto::INT8:
        r.i[k] = (int8_t)r.i[k];
        break;
      case onnx::TensorProto::UINT8:
        r.i[k] = (uint8_t)r.i[k];
        break;
      case onnx::TensorProto::UINT16:
        r.i[k] = (uint16_t)r.i[k];
        break;
      case onnx::TensorProto::UINT32:
        r.i[k] = (uint32_t)r.i[k];
        break;
      default:
        break;
      }
    }
  }
  return r;
}

ConstTensor accel::onnximport::permuteConst(const ConstTensor &c,
                                            ArrayRef<int64_t> perm) {
  ConstTensor r;
  r.dtype = c.dtype;
  for (int64_t p : perm)
    r.shape.push_back(c.shape[p]);
  int64_t n = c.size(), rank = perm.size();
  auto inStride = stridesOf(c.shape);
  auto outStride = stridesOf(r.shape);
  if (c.isFloat())
    r.f.resize(n);
  else
    r.i.resize(n);
  for (int64_t k = 0; k < n; ++k) {
    int64_t src = 0;
    for (int64_t d = 0; d < rank; ++d)
      src += ((k / outStride[d]) % r.shape[d]) * inStride[perm[d]];
    if (c.isFloat())
      r.f[k] = c.f[src];
    else
      r.i[k] = c.i[src];
  }
  return r;
}

ConstTensor accel::onnximport::sliceConst(const ConstTensor &c,
                                          ArrayRef<int64_t> offsets,
                                          ArrayRef<int64_t> strides,
                                          ArrayRef<int64_t> sizes) {
  ConstTensor r;
  r.dtype = c.dtype;
  r.shape.assign(sizes.begin(), sizes.end());
  int64_t n = *numElements(sizes), rank = sizes.size();
  auto inStride = stridesOf(c.shape);
  auto outStride = stridesOf(sizes);
  if (c.isFloat())
    r.f.resize(n);
  else
    r.i.resize(n);
  for (int64_t k = 0; k < n; ++k) {
    int64_t src = 0;
    for (int64_t d = 0; d < rank; ++d)
      src += (offsets[d] + ((k / outStride[d]) % sizes[d]) * strides[d]) *
             inStride[d];
    if (c.isFloat())
      r.f[k] = c.f[src];
    else
      r.i[k] = c.i[src];
  }
  return r;
}

ConstTensor accel::onnximport::concatConst(ArrayRef<const ConstTensor *> parts,
                                           int64_t axis, int dtype) {
  ConstTensor r;
  r.dtype = dtype;
  r.shape = parts[0]->shape;
  r.shape[axis] = 0;
  for (const ConstTensor *p : parts)
    r.shape[axis] += p->shape[axis];
  int64_t outer = *numElements(ArrayRef<int64_t>(r.shape).take_front(axis));
  for (int64_t o = 0; o < outer; ++o)
    for (const ConstTensor *p : parts) {
      int64_t inner =
          *numElements(ArrayRef<int64_t>(p->shape).drop_front(axis));
      for (int64_t k = 0; k < inner; ++k) {
        if (isFloatType(dtype))
          r.f.push_back(p->getF(o * inner + k));
        else
          r.i.push_back(p->getI(o * inner + k));
      }
    }
  return r;
}

/// Evaluates elementwise / comparison / logic nodes on constants.
FailureOr<bool> Importer::tryFold(const Node &n) {
  static const std::set<std::string> foldable = {
      "Add",     "Sub",         "Mul",
      "Div",     "Neg",         "Abs",
      "Sqrt",    "Reciprocal",  "Floor",
      "Ceil",    "Sign",        "Max",
      "Min",     "Equal",       "Less",
      "Greater", "LessOrEqual", "GreaterOrEqual",
      "Where",   "Not",         "And",
      "Or",      "Xor",         "Mod",
      "Range",   "Pow",         "Exp",
      "Log",     "Relu"};
  const std::string &op = n.op_type();
  if (!foldable.count(op))
    return false;
  if (op == "Range" && n.input_size() != 3)
    return false;
  SmallVector<ConstPtr> in;
  for (int i = 0; i < n.input_size(); ++i) {
    if (n.input(i).empty())
      return false;
    auto c = constant(n, i);
    if (failed(c))
      return failure();
    if (!*c)
      return false;
    in.push_back(*c);
  }
  if (in.empty() || n.output_size() < 1)
    return false;

  if (op == "Range") {
    double start = in[0]->getF(0), limit = in[1]->getF(0),
           delta = in[2]->getF(0);
    if (delta == 0)
      return failNode(n, "delta is zero");
    int64_t count =
        std::max<int64_t>(0, (int64_t)std::ceil((limit - start) / delta));
    if (count == 0 || count > kMaxFoldElements)
      return failNode(n, "the range has " + std::to_string(count) +
                             " elements (empty or too large)");
    ConstTensor r;
    r.dtype = in[0]->dtype;
    r.shape = {count};
    for (int64_t k = 0; k < count; ++k) {
      if (r.isFloat())
        r.f.push_back(roundTo(r.dtype, start + k * delta));
      else
        r.i.push_back(in[0]->i[0] + k * in[2]->i[0]);
    }
    (void)defineConst(n, 0, std::move(r));
    return true;
  }

  // Broadcast all inputs to a common shape.
  SmallVector<int64_t> shape = in[0]->shape;
  std::string why;
  for (size_t k = 1; k < in.size(); ++k) {
    auto b = graph::broadcastShapes(shape, in[k]->shape, why);
    if (!b)
      return failNode(n, why);
    shape = *b;
  }
  auto count = numElements(shape);
  if (!count || *count > kMaxFoldElements)
    return false;
  SmallVector<ConstTensor> args;
  for (auto &c : in)
    args.push_back(broadcastConst(*c, shape));

  int inType = in[0]->dtype;
  bool isF = isFloatType(inType);
  ConstTensor r;
  r.shape = shape;
  r.dtype = inType;
  bool boolOut = isComparison(op) || op == "Not" || op == "And" || op == "Or" ||
                 op == "Xor";
  if (boolOut)
    r.dtype = onnx::TensorProto::BOOL;
  if (op == "Where") {
    r.dtype = in[1]->dtype;
    isF = isFloatType(r.dtype);
  }
  bool outF = isFloatType(r.dtype);
  for (int64_t k = 0; k < *count; ++k) {
    double a = args[0].getF(k), b = args.size() > 1 ? args[1].getF(k) : 0;
    int64_t ia = args[0].getI(k), ib = args.size() > 1 ? args[1].getI(k) : 0;
    double fv = 0;
    int64_t iv = 0;
    if (op == "Add") {
      fv = a + b;
      iv = wrapToInt64(uint64_t(ia) + uint64_t(ib));
    } else if (op == "Sub") {
      fv = a - b;
      iv = wrapToInt64(uint64_t(ia) - uint64_t(ib));
    } else if (op == "Mul") {
      fv = a * b;
      iv = wrapToInt64(uint64_t(ia) * uint64_t(ib));
    } else if (op == "Div") {
      fv = a / b;
      if (!isF && ib == 0)
        return failNode(n, "integer division by zero");
      // The one quotient an int64 cannot hold (the hardware traps on it).
      if (!isF && ia == INT64_MIN && ib == -1)
        return failNode(n, "integer overflow (-9223372036854775808 / -1)");
      iv = isF ? 0 : ia / ib;
    } else if (op == "Mod") {
      if (!isF && ib == 0)
        return failNode(n, "integer division by zero");
      fv = std::fmod(a, b);
      // x % -1 is 0; INT64_MIN % -1 traps on the hardware.
      iv = isF || ib == -1 ? 0 : ia % ib;
      if (!isF && iv != 0 && ((iv < 0) != (ib < 0)) &&
          !(attr(n, "fmod") && attr(n, "fmod")->i()))
        iv += ib;
    } else if (op == "Pow") {
      fv = std::pow(a, b);
      iv = (int64_t)std::pow((double)ia, b);
    } else if (op == "Neg") {
      fv = -a;
      iv = wrapToInt64(0 - uint64_t(ia));
    } else if (op == "Abs") {
      fv = std::fabs(a);
      iv = ia < 0 ? wrapToInt64(0 - uint64_t(ia)) : ia;
    } else if (op == "Sqrt") {
      fv = std::sqrt(a);
      iv = (int64_t)std::sqrt((double)ia);
    } else if (op == "Exp") {
      fv = std::exp(a);
      iv = (int64_t)std::exp((double)ia);
    } else if (op == "Log") {
      fv = std::log(a);
      iv = (int64_t)std::log((double)ia);
    } else if (op == "Relu") {
      fv = a > 0 ? a : 0;
      iv = ia > 0 ? ia : 0;
    } else if (op == "Reciprocal") {
      fv = 1.0 / a;
      iv = ia ? 1 / ia : 0;
    } else if (op == "Floor") {
      fv = std::floor(a);
      iv = ia;
    } else if (op == "Ceil") {
      fv = std::ceil(a);
      iv = ia;
    } else if (op == "Sign") {
      fv = a > 0 ? 1 : a < 0 ? -1 : 0;
      iv = ia > 0 ? 1 : ia < 0 ? -1 : 0;
    } else if (op == "Max" || op == "Min") {
      bool mx = op == "Max";
      fv = a;
      iv = ia;
      for (size_t j = 1; j < args.size(); ++j) {
        double x = args[j].getF(k);
        int64_t ix = args[j].getI(k);
        fv = mx ? std::max(fv, x) : std::min(fv, x);
        iv = mx ? std::max(iv, ix) : std::min(iv, ix);
      }
    } else if (op == "Equal")
      iv = isF ? a == b : ia == ib;
    else if (op == "Less")
      iv = isF ? a < b : ia < ib;
    else if (op == "Greater")
      iv = isF ? a > b : ia > ib;
    else if (op == "LessOrEqual")
      iv = isF ? a <= b : ia <= ib;
    else if (op == "GreaterOrEqual")
      iv = isF ? a >= b : ia >= ib;
    else if (op == "Not")
      iv = !ia;
    else if (op == "And")
      iv = ia && ib;
    else if (op == "Or")
      iv = ia || ib;
    else if (op == "Xor")
      iv = (ia != 0) != (ib != 0);
    else if (op == "Where") {
      bool c = ia != 0;
      fv = c ? args[1].getF(k) : args[2].getF(k);
      iv = c ? args[1].getI(k) : args[2].getI(k);
    }
    if (outF)
      r.f.push_back(roundTo(r.dtype, fv));
    else
      r.i.push_back(iv);
  }
  (void)defineConst(n, 0, std::move(r));
  return true;
}
