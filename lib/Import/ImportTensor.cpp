//===- ImportTensor.cpp - layout and shape ONNX operators -----------------===//
//
// Reshape, Flatten, Squeeze, Unsqueeze, Transpose, Concat, Split, Slice,
// Gather, Pad, Expand, Tile, Identity, Dropout, Constant, ConstantOfShape,
// Shape, Size. Each folds when its data input is a compile-time constant
// (same shape logic as the runtime path) and otherwise emits graph.reshape /
// transpose / concat / slice / pad / broadcast / tile.
//
//===----------------------------------------------------------------------===//
#include "ImportUtil.h"
#include "ImporterImpl.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "llvm/ADT/STLExtras.h"

#include <algorithm>
#include <limits>

using namespace mlir;
using namespace accel::onnximport;
namespace graph = accel::graph;

LogicalResult Importer::importIdentity(const Node &n) {
  if (failed(checkArity(n, 1, 1)))
    return failure();
  // Forward the value (a constant stays a constant).
  values[n.output(0)] = values[n.input(0)];
  return success();
}

/// Dropout in inference: the identity; the optional mask is all true.
LogicalResult Importer::importDropout(const Node &n) {
  if (failed(checkArity(n, 1, 3, 2)))
    return failure();
  if (hasInput(n, 2)) {
    auto t = constant(n, 2);
    if (failed(t))
      return failure();
    if (!*t)
      return failNode(n, "training_mode must be a compile-time constant");
    if ((*t)->size() && (*t)->getI(0))
      return failNode(n, "training_mode = true is not supported (inference "
                         "only)");
  }
  values[n.output(0)] = values[n.input(0)];
  if (n.output_size() > 1 && !n.output(1).empty()) {
    auto shape = inputShape(n, 0);
    if (failed(shape))
      return failure();
    ConstTensor mask;
    mask.dtype = onnx::TensorProto::BOOL;
    mask.shape = *shape;
    mask.i.assign(*numElements(*shape), 1);
    return defineConst(n, 1, std::move(mask));
  }
  return success();
}

LogicalResult Importer::importConstant(const Node &n) {
  if (failed(checkArity(n, 0, 0)))
    return failure();
  if (n.attribute_size() != 1)
    return failNode(n, "must have exactly one value attribute");
  const auto &a = n.attribute(0);
  ConstTensor c;
  if (a.name() == "value") {
    if (failed(attrType(n, &a, onnx::AttributeProto::TENSOR)))
      return failure();
    if (a.t().data_type() == onnx::TensorProto::STRING)
      return fail("unsupported element type STRING for the output of " +
                  nodeDesc(n) + " (Constant)");
    auto t = decodeTensor(a.t(), "the value of " + nodeDesc(n));
    if (failed(t))
      return failure();
    c = **t;
  } else if (a.name() == "value_float") {
    c.f.push_back(a.f());
  } else if (a.name() == "value_floats") {
    c.shape = {(int64_t)a.floats_size()};
    c.f.assign(a.floats().begin(), a.floats().end());
  } else if (a.name() == "value_int") {
    c.dtype = onnx::TensorProto::INT64;
    c.i.push_back(a.i());
  } else if (a.name() == "value_ints") {
    c.dtype = onnx::TensorProto::INT64;
    c.shape = {(int64_t)a.ints_size()};
    c.i.assign(a.ints().begin(), a.ints().end());
  } else if (a.name() == "value_string" || a.name() == "value_strings") {
    return fail("unsupported element type STRING for the output of " +
                nodeDesc(n) + " (Constant)");
  } else {
    return failNode(n, "attribute '" + a.name() + "' is not supported");
  }
  return defineConst(n, 0, std::move(c));
}

LogicalResult Importer::importConstantOfShape(const Node &n) {
  if (failed(checkArity(n, 1, 1)))
    return failure();
  auto shape = constInts(n, 0);
  if (failed(shape))
    return failure();
  ConstTensor c;
  c.shape = *shape;
  auto count = numElements(c.shape);
  if (!count)
    return failNode(n, "invalid shape " + shapeStr(c.shape));
  double fv = 0;
  int64_t iv = 0;
  if (const auto *a = attr(n, "value")) {
    if (failed(attrType(n, a, onnx::AttributeProto::TENSOR)))
      return failure();
    auto t = decodeTensor(a->t(), "the value of " + nodeDesc(n));
    if (failed(t))
      return failure();
    if ((*t)->size() != 1)
      return failNode(n, "value must have one element");
    c.dtype = (*t)->dtype;
    fv = (*t)->getF(0);
    iv = (*t)->getI(0);
  }
  if (*count > kMaxConstElements) {
    // Too large to fold: a runtime splat (one value in the IR, filled by
    // the lowering) instead of materialising every element here.
    if (!c.isFloat())
      return failNode(n, "the " + dataTypeName(c.dtype) + " tensor of shape " +
                             shapeStr(c.shape) + " has more than " +
                             std::to_string(kMaxConstElements) +
                             " elements, the importer's limit for integer "
                             "constants");
    return define(n, 0, splatF32(c.shape, float(fv)));
  }
  if (c.isFloat())
    c.f.assign(*count, fv);
  else
    c.i.assign(*count, iv);
  return defineConst(n, 0, std::move(c));
}

namespace {
/// Defines output `out` of `n` as input `in` with a new shape.
} // namespace

LogicalResult Importer::importReshape(const Node &n) {
  FailureOr<SmallVector<int64_t>> target = failure();
  if (opsetVersion && opsetVersion < 5) {
    if (failed(checkArity(n, 1, 1)))
      return failure();
    target = intsAttr(n, "shape", {});
  } else {
    if (failed(checkArity(n, 2, 2)))
      return failure();
    target = constInts(n, 1);
  }
  auto allowZero = intAttr(n, "allowzero", 0);
  if (failed(target) || failed(allowZero))
    return failure();
  auto inShape = inputShape(n, 0);
  if (failed(inShape))
    return failure();
  ArrayRef<int64_t> in = *inShape;
  SmallVector<int64_t> out(*target);
  int inferred = -1;
  for (size_t i = 0; i < out.size(); ++i) {
    if (out[i] == 0) {
      if (*allowZero)
        return failNode(n, "shape " + shapeStr(*target) +
                               " has a zero-sized dimension (allowzero = 1); "
                               "empty tensors are not supported");
      if (i >= in.size())
        return failNode(n, "shape " + shapeStr(*target) + " copies dimension " +
                               std::to_string(i) + " of a rank-" +
                               std::to_string(in.size()) + " input");
      out[i] = in[i];
    } else if (out[i] == -1) {
      if (inferred >= 0)
        return failNode(n,
                        "shape " + shapeStr(*target) + " has more than one -1");
      inferred = (int)i;
    } else if (out[i] < 0) {
      return failNode(n, "invalid shape " + shapeStr(*target));
    }
  }
  int64_t total = *numElements(in);
  if (inferred >= 0) {
    out[inferred] = 1;
    auto rest = numElements(out);
    if (!rest || *rest == 0 || total % *rest)
      return failNode(n, "cannot reshape " + shapeStr(in) + " to " +
                             shapeStr(*target));
    out[inferred] = total / *rest;
  }
  auto count = numElements(out);
  if (!count || *count != total)
    return failNode(n, "cannot reshape " + shapeStr(in) + " (" +
                           std::to_string(total) + " elements) to " +
                           shapeStr(out));
  return defineReshaped(n, out);
}

LogicalResult Importer::importFlatten(const Node &n) {
  if (failed(checkArity(n, 1, 1)))
    return failure();
  auto axis = intAttr(n, "axis", 1);
  auto inShape = failed(axis) ? Fail() : inputShape(n, 0);
  if (failed(inShape))
    return failure();
  ArrayRef<int64_t> in = *inShape;
  auto a = normAxis(n, *axis, in.size(), /*allowRank=*/true);
  if (failed(a))
    return failure();
  SmallVector<int64_t> out{*numElements(in.take_front(*a)),
                           *numElements(in.drop_front(*a))};
  return defineReshaped(n, out);
}

LogicalResult Importer::importSqueeze(const Node &n) {
  bool legacy = opsetVersion && opsetVersion < 13;
  if (failed(checkArity(n, 1, legacy ? 1 : 2)))
    return failure();
  auto inShape = inputShape(n, 0);
  if (failed(inShape))
    return failure();
  ArrayRef<int64_t> in = *inShape;
  bool present = false;
  FailureOr<SmallVector<int64_t>> axes = SmallVector<int64_t>();
  if (legacy) {
    axes = intsAttr(n, "axes", {}, &present);
  } else if (hasInput(n, 1)) {
    present = true;
    axes = constInts(n, 1);
  }
  if (failed(axes))
    return failure();
  SmallVector<bool> drop(in.size(), false);
  if (!present) {
    for (size_t i = 0; i < in.size(); ++i)
      drop[i] = in[i] == 1;
  }
  for (int64_t ax : *axes) {
    auto a = normAxis(n, ax, in.size());
    if (failed(a))
      return failure();
    if (in[*a] != 1)
      return failNode(n, "cannot squeeze dimension " + std::to_string(*a) +
                             " of size " + std::to_string(in[*a]));
    drop[*a] = true;
  }
  SmallVector<int64_t> out;
  for (size_t i = 0; i < in.size(); ++i)
    if (!drop[i])
      out.push_back(in[i]);
  return defineReshaped(n, out);
}

LogicalResult Importer::importUnsqueeze(const Node &n) {
  bool legacy = opsetVersion && opsetVersion < 13;
  if (failed(checkArity(n, legacy ? 1 : 2, legacy ? 1 : 2)))
    return failure();
  auto inShape = inputShape(n, 0);
  if (failed(inShape))
    return failure();
  ArrayRef<int64_t> in = *inShape;
  auto axes = legacy ? intsAttr(n, "axes", {}) : constInts(n, 1);
  if (failed(axes))
    return failure();
  int64_t rank = in.size() + axes->size();
  SmallVector<bool> inserted(rank, false);
  for (int64_t ax : *axes) {
    int64_t a = ax < 0 ? ax + rank : ax;
    if (a < 0 || a >= rank || inserted[a])
      return failNode(n, "invalid axes " + shapeStr(*axes) + " for rank " +
                             std::to_string(in.size()));
    inserted[a] = true;
  }
  SmallVector<int64_t> out;
  size_t k = 0;
  for (int64_t i = 0; i < rank; ++i)
    out.push_back(inserted[i] ? 1 : in[k++]);
  return defineReshaped(n, out);
}

LogicalResult Importer::importTranspose(const Node &n) {
  if (failed(checkArity(n, 1, 1)))
    return failure();
  auto inShape = inputShape(n, 0);
  if (failed(inShape))
    return failure();
  ArrayRef<int64_t> in = *inShape;
  SmallVector<int64_t> dflt;
  for (int64_t i = (int64_t)in.size() - 1; i >= 0; --i)
    dflt.push_back(i);
  auto perm = intsAttr(n, "perm", dflt);
  if (failed(perm))
    return failure();
  SmallVector<bool> used(in.size(), false);
  bool ok = perm->size() == in.size();
  for (int64_t p : *perm) {
    if (!ok || p < 0 || p >= (int64_t)in.size() || used[p]) {
      ok = false;
      break;
    }
    used[p] = true;
  }
  if (!ok)
    return failNode(n, "perm " + shapeStr(*perm) +
                           " is not a permutation of the " +
                           std::to_string(in.size()) + " input dimensions");
  auto c = constant(n, 0);
  if (failed(c))
    return failure();
  if (*c)
    return defineConst(n, 0, permuteConst(**c, *perm));
  auto x = operandF32(n, 0);
  if (failed(x))
    return failure();
  return define(n, 0, transpose(*x, *perm));
}

LogicalResult Importer::importConcat(const Node &n) {
  if (failed(checkArity(n, 1, INT32_MAX)))
    return failure();
  auto axisAttr =
      intAttr(n, "axis", opsetVersion && opsetVersion < 4 ? 1 : INT64_MIN);
  if (failed(axisAttr))
    return failure();
  if (*axisAttr == INT64_MIN)
    return failNode(n, "the axis attribute is required");
  auto first = inputShape(n, 0);
  if (failed(first))
    return failure();
  int64_t rank = first->size();
  auto axis = normAxis(n, *axisAttr, rank);
  if (failed(axis))
    return failure();
  // All constant: fold.
  SmallVector<ConstPtr> consts;
  bool allConst = true;
  for (int i = 0; i < n.input_size(); ++i) {
    auto c = constant(n, i);
    if (failed(c))
      return failure();
    allConst &= bool(*c);
    consts.push_back(*c);
  }
  for (int i = 0; i < n.input_size(); ++i) {
    auto s = inputShape(n, i);
    if (failed(s))
      return failure();
    if ((int64_t)s->size() != rank)
      return failNode(n, "inputs must have the same rank");
    for (int64_t d = 0; d < rank; ++d)
      if (d != *axis && (*s)[d] != (*first)[d])
        return failNode(n, "input shapes " + shapeStr(*first) + " and " +
                               shapeStr(*s) + " differ outside the axis");
  }
  if (allConst) {
    SmallVector<const ConstTensor *> parts;
    for (auto &c : consts)
      parts.push_back(c.get());
    return defineConst(n, 0, concatConst(parts, *axis, consts[0]->dtype));
  }
  SmallVector<Value> ins;
  SmallVector<int64_t> out(*first);
  out[*axis] = 0;
  for (int i = 0; i < n.input_size(); ++i) {
    auto s = inputShape(n, i);
    if ((*s)[*axis] == 0)
      continue; // empty inputs contribute nothing
    auto v = operandAny(n, i);
    if (failed(v))
      return failure();
    if (!ins.empty() && elemOf(*v) != elemOf(ins[0]))
      return failNode(n, "inputs have different element types");
    ins.push_back(*v);
    out[*axis] += (*s)[*axis];
  }
  if (ins.size() == 1)
    return define(n, 0, ins[0]);
  auto op = graph::ConcatOp::create(builder, loc(), tensorLike(out, ins[0]),
                                    ins, builder.getI64IntegerAttr(*axis));
  return define(n, 0, op);
}

LogicalResult Importer::importSplit(const Node &n) {
  bool legacy = opsetVersion && opsetVersion < 13;
  if (failed(checkArity(n, 1, 2, INT32_MAX)))
    return failure();
  auto axisAttr = intAttr(n, "axis", 0);
  auto inShape = failed(axisAttr) ? Fail() : inputShape(n, 0);
  if (failed(inShape))
    return failure();
  ArrayRef<int64_t> in = *inShape;
  auto axis = normAxis(n, *axisAttr, in.size());
  if (failed(axis))
    return failure();
  int64_t outputs = n.output_size();
  int64_t dim = in[*axis];
  SmallVector<int64_t> sizes;
  bool present = false;
  auto attrSplit = intsAttr(n, "split", {}, &present);
  if (failed(attrSplit))
    return failure();
  if (hasInput(n, 1)) {
    auto s = constInts(n, 1);
    if (failed(s))
      return failure();
    sizes = *s;
  } else if (present && (legacy || true)) {
    sizes = *attrSplit;
  } else {
    auto numOut = intAttr(n, "num_outputs", outputs);
    if (failed(numOut))
      return failure();
    if (*numOut != outputs)
      return failNode(n, "num_outputs does not match the outputs");
    int64_t chunk = (dim + outputs - 1) / outputs;
    if (!attr(n, "num_outputs") && dim % outputs)
      return failNode(n, "dimension " + std::to_string(dim) +
                             " does not split into " + std::to_string(outputs) +
                             " equal parts");
    for (int64_t k = 0, left = dim; k < outputs; ++k) {
      sizes.push_back(std::min(chunk, left));
      left -= sizes.back();
    }
  }
  int64_t total = 0;
  for (int64_t s : sizes) {
    if (s < 0)
      return failNode(n, "negative split size");
    total += s;
  }
  if ((int64_t)sizes.size() != outputs || total != dim)
    return failNode(n, "split sizes " + shapeStr(sizes) + " do not cover " +
                           "dimension " + std::to_string(*axis) + " (" +
                           std::to_string(dim) + ") with " +
                           std::to_string(outputs) + " outputs");
  auto c = constant(n, 0);
  if (failed(c))
    return failure();
  FailureOr<Value> x = Value();
  if (!*c) {
    x = operandAny(n, 0);
    if (failed(x))
      return failure();
  }
  int64_t offset = 0;
  for (int64_t k = 0; k < outputs; ++k) {
    SmallVector<int64_t> offs(in.size(), 0), strides(in.size(), 1), shape(in);
    offs[*axis] = offset;
    shape[*axis] = sizes[k];
    offset += sizes[k];
    if (*c) {
      (void)defineConst(n, k, sliceConst(**c, offs, strides, shape));
      continue;
    }
    if (n.output(k).empty())
      continue;
    if (failed(define(n, k, slice(*x, offs, strides, shape))))
      return failure();
  }
  return success();
}

LogicalResult Importer::importSlice(const Node &n) {
  bool legacy = opsetVersion && opsetVersion < 10;
  if (failed(checkArity(n, legacy ? 1 : 3, legacy ? 1 : 5)))
    return failure();
  auto inShape = inputShape(n, 0);
  if (failed(inShape))
    return failure();
  ArrayRef<int64_t> in = *inShape;
  int64_t rank = in.size();
  FailureOr<SmallVector<int64_t>> starts = failure(), ends = failure(),
                                  axes = SmallVector<int64_t>(),
                                  steps = SmallVector<int64_t>();
  bool hasAxes = false;
  if (legacy) {
    starts = intsAttr(n, "starts", {});
    ends = intsAttr(n, "ends", {});
    axes = intsAttr(n, "axes", {}, &hasAxes);
  } else {
    starts = constInts(n, 1);
    ends = failed(starts) ? Fail() : constInts(n, 2);
    if (hasInput(n, 3)) {
      hasAxes = true;
      axes = constInts(n, 3);
    }
    if (hasInput(n, 4))
      steps = constInts(n, 4);
  }
  if (failed(starts) || failed(ends) || failed(axes) || failed(steps))
    return failure();
  size_t k = starts->size();
  if (!hasAxes)
    for (size_t i = 0; i < k; ++i)
      axes->push_back(i);
  if (steps->empty())
    steps->assign(k, 1);
  if (ends->size() != k || axes->size() != k || steps->size() != k)
    return failNode(n, "starts, ends, axes and steps must have the same "
                       "length");
  SmallVector<int64_t> offs(rank, 0), strides(rank, 1), sizes(in);
  SmallVector<bool> seen(rank, false);
  for (size_t i = 0; i < k; ++i) {
    auto a = normAxis(n, (*axes)[i], rank);
    if (failed(a))
      return failure();
    if (seen[*a])
      return failNode(n, "axis " + std::to_string(*a) + " is repeated");
    seen[*a] = true;
    int64_t dim = in[*a], st = (*steps)[i];
    int64_t b = (*starts)[i], e = (*ends)[i];
    if (st == 0)
      return failNode(n, "steps must be non-zero");
    if (b < 0)
      b = b < -dim ? -1 : b + dim;
    if (e < 0)
      e = e < -dim ? -1 : e + dim;
    // ceil(span / |step|) as 1 + (span - 1) / |step| in unsigned: a step
    // near +-2^63 overflowed `span + step - 1` and `-step` (the slice of
    // one element came out empty).
    int64_t size;
    const uint64_t stepSize =
        st > 0 ? uint64_t(st) : uint64_t(0) - uint64_t(st);
    if (st > 0) {
      b = std::clamp<int64_t>(b, 0, dim);
      e = std::clamp<int64_t>(e, 0, dim);
      size = e > b ? int64_t(1 + uint64_t(e - b - 1) / stepSize) : 0;
    } else {
      b = std::clamp<int64_t>(b, -1, dim - 1);
      e = std::clamp<int64_t>(e, -1, dim - 1);
      size = b > e ? int64_t(1 + uint64_t(b - e - 1) / stepSize) : 0;
    }
    offs[*a] = size ? b : 0;
    // One element: the step never applies (and a huge one would reach the
    // DMA strides).
    strides[*a] = size == 1 ? 1 : st;
    sizes[*a] = size;
  }
  auto c = constant(n, 0);
  if (failed(c))
    return failure();
  if (*c)
    return defineConst(n, 0, sliceConst(**c, offs, strides, sizes));
  auto x = operandAny(n, 0);
  if (failed(x))
    return failure();
  return define(n, 0, slice(*x, offs, strides, sizes));
}

namespace {
/// A run of indices in arithmetic progression: start, start + step, ...
struct IndexRun {
  int64_t start, step, len;
};

/// Cuts `indices` into maximal arithmetic-progression runs, each of which
/// one strided slice reads. A repeated index starts a run of its own (a
/// zero step is no slice), and a one-element run has step 1 (a huge step
/// would reach the DMA strides).
SmallVector<IndexRun> arithmeticRuns(ArrayRef<int64_t> indices) {
  SmallVector<IndexRun> runs;
  int64_t count = indices.size();
  for (int64_t k = 0; k < count;) {
    int64_t step = k + 1 < count ? indices[k + 1] - indices[k] : 1;
    if (step == 0)
      step = 1;
    int64_t len = 1;
    if (k + 1 < count && indices[k + 1] != indices[k])
      while (k + len < count && indices[k + len] - indices[k + len - 1] == step)
        ++len;
    runs.push_back({indices[k], len == 1 ? 1 : step, len});
    k += len;
  }
  return runs;
}

/// The slice of a rank-`shape.size()` tensor that reads `run` along `axis`.
void runSlice(const IndexRun &run, ArrayRef<int64_t> shape, int64_t axis,
              SmallVector<int64_t> &offs, SmallVector<int64_t> &strides,
              SmallVector<int64_t> &sizes) {
  offs.assign(shape.size(), 0);
  strides.assign(shape.size(), 1);
  sizes.assign(shape.begin(), shape.end());
  offs[axis] = run.start;
  strides[axis] = run.step;
  sizes[axis] = run.len;
}
} // namespace

Value Importer::gatherAlong(Value x, int64_t axis, ArrayRef<int64_t> indices) {
  ArrayRef<int64_t> in = shapeOf(x);
  SmallVector<Value> parts;
  for (const IndexRun &r : arithmeticRuns(indices)) {
    SmallVector<int64_t> offs, strides, sizes;
    runSlice(r, in, axis, offs, strides, sizes);
    parts.push_back(slice(x, offs, strides, sizes));
  }
  if (parts.size() == 1)
    return parts[0];
  SmallVector<int64_t> shape(in);
  shape[axis] = indices.size();
  return graph::ConcatOp::create(builder, loc(), tensorLike(shape, x), parts,
                                 builder.getI64IntegerAttr(axis));
}

/// Gather with compile-time indices: an arithmetic progression is one
/// strided slice, anything else is slices + concat; then a reshape to the
/// ONNX result shape.
LogicalResult Importer::importGather(const Node &n) {
  if (failed(checkArity(n, 2, 2)))
    return failure();
  auto axisAttr = intAttr(n, "axis", 0);
  auto inShape = failed(axisAttr) ? Fail() : inputShape(n, 0);
  if (failed(inShape))
    return failure();
  ArrayRef<int64_t> in = *inShape;
  auto axis = normAxis(n, *axisAttr, in.size());
  if (failed(axis))
    return failure();
  auto idxC = constant(n, 1);
  if (failed(idxC))
    return failure();
  if (!*idxC)
    return failNode(n, "indices must be compile-time constants: the DMA "
                       "engine has no indirect addressing (input '" +
                           n.input(1) + "')");
  const ConstTensor &idx = **idxC;
  if (idx.isFloat())
    return failNode(n, "indices must be integers");
  int64_t dim = in[*axis];
  SmallVector<int64_t> indices;
  for (int64_t v : idx.i) {
    int64_t j = v < 0 ? v + dim : v;
    if (j < 0 || j >= dim)
      return failNode(
          n, "index " + std::to_string(v) + " is out of range for dimension " +
                 std::to_string(*axis) + " of size " + std::to_string(dim));
    indices.push_back(j);
  }
  SmallVector<int64_t> out(in.take_front(*axis));
  out.append(idx.shape.begin(), idx.shape.end());
  out.append(in.begin() + *axis + 1, in.end());
  int64_t count = indices.size();
  if (count == 0)
    return failNode(n, "empty indices produce an empty tensor, which is not "
                       "supported");

  auto c = constant(n, 0);
  if (failed(c))
    return failure();
  if (*c) {
    SmallVector<ConstTensor> parts;
    for (const IndexRun &r : arithmeticRuns(indices)) {
      SmallVector<int64_t> o, s, z;
      runSlice(r, in, *axis, o, s, z);
      parts.push_back(sliceConst(**c, o, s, z));
    }
    SmallVector<const ConstTensor *> ptrs;
    for (auto &p : parts)
      ptrs.push_back(&p);
    ConstTensor r = concatConst(ptrs, *axis, (*c)->dtype);
    return defineConst(n, 0, reshapeConst(r, out));
  }
  auto x = operandAny(n, 0);
  if (failed(x))
    return failure();
  Value v = gatherAlong(*x, *axis, indices);
  if (shapeOf(v) != ArrayRef<int64_t>(out)) {
    if (!elemOf(v).isF32())
      return failNode(n, "gathering from a non-f32 runtime tensor with a "
                         "rank change is not supported");
    v = reshape(v, out);
  }
  return define(n, 0, v);
}

LogicalResult Importer::importPad(const Node &n) {
  bool legacy = opsetVersion && opsetVersion < 11;
  if (failed(checkArity(n, legacy ? 1 : 2, legacy ? 1 : 4)))
    return failure();
  auto mode = stringAttr(n, "mode", "constant");
  if (failed(mode))
    return failure();
  auto x = operandF32(n, 0);
  if (failed(x))
    return failure();
  ArrayRef<int64_t> in = shapeOf(*x);
  int64_t rank = in.size();
  SmallVector<int64_t> pads;
  float value = 0;
  Value runtimeValue; // a constant_value only known at run time
  if (legacy) {
    bool present = false;
    auto p = intsAttr(n, "pads", {}, &present);
    if (failed(p))
      return failure();
    if (!present) {
      p = intsAttr(n, "paddings", {});
      if (failed(p))
        return failure();
    }
    pads = *p;
    auto v = floatAttr(n, "value", 0.0f);
    if (failed(v))
      return failure();
    value = *v;
  } else {
    auto p = constInts(n, 1);
    if (failed(p))
      return failure();
    pads = *p;
    if (hasInput(n, 2)) {
      auto c = constant(n, 2);
      if (failed(c))
        return failure();
      if (*c) {
        if ((*c)->size() != 1)
          return failNode(n, "constant_value must be a scalar");
        value = (float)(*c)->getF(0);
      } else {
        auto v = operandF32(n, 2);
        if (failed(v))
          return failure();
        if (*numElements(shapeOf(*v)) != 1)
          return failNode(n, "constant_value must be a scalar");
        runtimeValue = *v;
      }
    }
    if (hasInput(n, 3)) {
      auto axes = constInts(n, 3);
      if (failed(axes))
        return failure();
      if (pads.size() != 2 * axes->size())
        return failNode(n, "pads must have 2 entries per axis");
      SmallVector<int64_t> full(2 * rank, 0);
      for (size_t i = 0; i < axes->size(); ++i) {
        auto a = normAxis(n, (*axes)[i], rank);
        if (failed(a))
          return failure();
        full[*a] = pads[i];
        full[*a + rank] = pads[i + axes->size()];
      }
      pads = full;
    }
  }
  if ((int64_t)pads.size() != 2 * rank)
    return failNode(n, "pads has " + std::to_string(pads.size()) +
                           " entries for a rank-" + std::to_string(rank) +
                           " input");
  graph::PadMode pm;
  if (*mode == "constant")
    pm = graph::PadMode::constant;
  else if (*mode == "reflect")
    pm = graph::PadMode::reflect;
  else if (*mode == "edge")
    pm = graph::PadMode::edge;
  else
    return failNode(n, "pad mode '" + *mode +
                           "' is not supported (constant, reflect, edge)");
  Value v = *x;
  // Negative pads crop: a slice first.
  if (llvm::any_of(pads, [](int64_t p) { return p < 0; })) {
    SmallVector<int64_t> offs(rank, 0), strides(rank, 1), sizes(in);
    for (int64_t d = 0; d < rank; ++d) {
      int64_t b = std::max<int64_t>(0, -pads[d]),
              e = std::max<int64_t>(0, -pads[d + rank]);
      offs[d] = b;
      sizes[d] = in[d] - b - e;
      if (sizes[d] <= 0)
        return failNode(n, "negative pads remove the whole dimension");
      pads[d] = std::max<int64_t>(0, pads[d]);
      pads[d + rank] = std::max<int64_t>(0, pads[d + rank]);
    }
    v = slice(v, offs, strides, sizes);
  }
  if (llvm::all_of(pads, [](int64_t p) { return p == 0; }))
    return define(n, 0, v);
  SmallVector<int64_t> out(shapeOf(v));
  for (int64_t d = 0; d < rank; ++d) {
    if (pm == graph::PadMode::reflect &&
        (pads[d] >= out[d] || pads[d + rank] >= out[d]))
      return failNode(n, "reflect padding must be smaller than the "
                         "dimension");
    out[d] += pads[d] + pads[d + rank];
  }
  Value y = graph::PadOp::create(builder, loc(), f32Tensor(out), v, pads, pm,
                                 llvm::APFloat(value));
  if (runtimeValue && pm == graph::PadMode::constant) {
    // pad(x, 0) + border * value, border = 1 in the padding, 0 elsewhere.
    auto count = numElements(out);
    if (!count || *count > kMaxConstElements)
      return failNode(n, "the padded tensor is too large");
    SmallVector<float> border(*count, 1.0f);
    auto strides = stridesOf(out);
    for (int64_t k = 0; k < *count; ++k) {
      bool inside = true;
      for (int64_t d = 0; d < rank && inside; ++d) {
        int64_t i = (k / strides[d]) % out[d];
        inside = i >= pads[d] && i < out[d] - pads[d + rank];
      }
      if (inside)
        border[k] = 0.0f;
    }
    Value borderMask = constF32(out, border); // in statement order
    auto scaled =
        binary(n, graph::BinaryFn::mul, borderMask, reshape(runtimeValue, {}));
    auto r = failed(scaled) ? Fail() : add(n, y, *scaled);
    if (failed(r))
      return failure();
    y = *r;
  }
  return define(n, 0, y);
}

LogicalResult Importer::importExpand(const Node &n) {
  if (failed(checkArity(n, 2, 2)))
    return failure();
  auto shape = constInts(n, 1);
  auto inShape = failed(shape) ? Fail() : inputShape(n, 0);
  if (failed(inShape))
    return failure();
  std::string why;
  auto out = graph::broadcastShapes(*inShape, *shape, why);
  if (!out)
    return failNode(n, why);
  auto c = constant(n, 0);
  if (failed(c))
    return failure();
  if (*c) {
    auto count = numElements(*out);
    if (count && *count <= kMaxConstElements)
      return defineConst(n, 0, broadcastConst(**c, *out));
  }
  auto x = operandAny(n, 0);
  if (failed(x))
    return failure();
  if (shapeOf(*x) == ArrayRef<int64_t>(*out))
    return define(n, 0, *x);
  auto op =
      graph::BroadcastOp::create(builder, loc(), tensorLike(*out, *x), *x);
  return define(n, 0, op);
}

LogicalResult Importer::importTile(const Node &n) {
  if (failed(checkArity(n, 2, 2)))
    return failure();
  auto repeats = constInts(n, 1);
  auto inShape = failed(repeats) ? Fail() : inputShape(n, 0);
  if (failed(inShape))
    return failure();
  ArrayRef<int64_t> in = *inShape;
  if (repeats->size() != in.size())
    return failNode(n, "repeats has " + std::to_string(repeats->size()) +
                           " entries for a rank-" + std::to_string(in.size()) +
                           " input");
  SmallVector<int64_t> out;
  for (size_t i = 0; i < in.size(); ++i) {
    if ((*repeats)[i] < 1)
      return failNode(n, "repeats must be >= 1 (empty tensors are not "
                         "supported)");
    out.push_back(in[i] * (*repeats)[i]);
  }
  auto c = constant(n, 0);
  if (failed(c))
    return failure();
  if (*c) {
    // Tiling = concatenating copies, dimension by dimension.
    ConstTensor t = **c;
    for (size_t d = 0; d < in.size(); ++d) {
      SmallVector<const ConstTensor *> copies((*repeats)[d], &t);
      t = concatConst(copies, d, t.dtype);
    }
    return defineConst(n, 0, std::move(t));
  }
  auto x = operandAny(n, 0);
  if (failed(x))
    return failure();
  if (out == SmallVector<int64_t>(in))
    return define(n, 0, *x);
  auto op =
      graph::TileOp::create(builder, loc(), tensorLike(out, *x), *x, *repeats);
  return define(n, 0, op);
}

/// Shape: always static here, so always a constant (opset 15 start / end).
LogicalResult Importer::importShape(const Node &n) {
  if (failed(checkArity(n, 1, 1)))
    return failure();
  auto inShape = inputShape(n, 0);
  auto start = failed(inShape) ? Fail() : intAttr(n, "start", 0);
  auto end = failed(start)
                 ? Fail()
                 : intAttr(n, "end", std::numeric_limits<int64_t>::max());
  if (failed(end))
    return failure();
  int64_t rank = inShape->size();
  auto clampAxis = [&](int64_t a) {
    if (a < 0)
      a += rank;
    return std::clamp<int64_t>(a, 0, rank);
  };
  int64_t b = clampAxis(*start), e = clampAxis(*end);
  ConstTensor c;
  c.dtype = onnx::TensorProto::INT64;
  for (int64_t i = b; i < e; ++i)
    c.i.push_back((*inShape)[i]);
  c.shape = {(int64_t)c.i.size()};
  return defineConst(n, 0, std::move(c));
}

LogicalResult Importer::importSize(const Node &n) {
  if (failed(checkArity(n, 1, 1)))
    return failure();
  auto inShape = inputShape(n, 0);
  if (failed(inShape))
    return failure();
  ConstTensor c;
  c.dtype = onnx::TensorProto::INT64;
  c.i.push_back(*numElements(*inShape));
  return defineConst(n, 0, std::move(c));
}
