//===- ImportScatter.cpp - Indexing by compile-time tuples ----------------===//
//
// OneHot (a comparison with a constant iota), GatherND (rows of a flat view
// picked by strided slices), ScatterElements / Scatter / ScatterND (update
// rows gathered and kept by a constant-mask where, one round per duplicate).
// Indices must be compile-time constants: the DMA engine has no indirect
// addressing.
//
//===----------------------------------------------------------------------===//
#include "ImportUtil.h"
#include "ImporterImpl.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

#include <algorithm>
#include <limits>

using namespace mlir;
using namespace accel::onnximport;
namespace graph = accel::graph;
using graph::BinaryFn;
using graph::UnaryFn;

//===----------------------------------------------------------------------===//
// OneHot, GatherND, ScatterElements / Scatter, ScatterND
//===----------------------------------------------------------------------===//

/// OneHot: out = where(trunc(idx) (+ depth when negative) == iota, on, off)
/// with `iota` a constant [depth, 1, ...] that broadcasts against the
/// indices reshaped with a 1 at `axis`. `depth` must be a compile-time
/// constant; `values` [off, on] may be runtime.
LogicalResult Importer::importOneHot(const Node &n) {
  if (failed(checkArity(n, 3, 3)))
    return failure();
  auto axisAttr = intAttr(n, "axis", -1);
  auto depthV = failed(axisAttr) ? Fail() : constFloats(n, 1);
  if (failed(depthV))
    return failure();
  if (depthV->size() != 1)
    return failNode(n, "depth must have one element, got " +
                           std::to_string(depthV->size()));
  // ONNX casts depth (and the indices) to int64: truncation.
  double dd = std::trunc((*depthV)[0]);
  if (!(dd >= 1 && dd <= (double)kMaxConstElements))
    return failNode(n, "depth must be in [1, " +
                           std::to_string(kMaxConstElements) + "], got " +
                           std::to_string((*depthV)[0]));
  const int64_t depth = (int64_t)dd;
  auto shape = inputShape(n, 0);
  auto vshape = failed(shape) ? Fail() : inputShape(n, 2);
  if (failed(vshape))
    return failure();
  if (*numElements(*vshape) != 2)
    return failNode(n, "values must have two elements [off, on], got shape " +
                           shapeStr(*vshape));
  int64_t rank = shape->size();
  auto axis = normAxis(n, *axisAttr, rank + 1);
  if (failed(axis))
    return failure();
  auto count = numElements(*shape);
  if (!*count)
    return failNode(n, "empty indices produce an empty tensor, which is not "
                       "supported");
  SmallVector<int64_t> out(*shape);
  out.insert(out.begin() + *axis, depth);
  if (*count > kMaxConstElements / depth)
    return failNode(n, "the output " + shapeStr(out) + " has more than " +
                           std::to_string(kMaxConstElements) + " elements");

  // [off, on] as two scalars (constant splats or slices of a runtime input).
  Value off, on;
  auto vc = constant(n, 2);
  if (failed(vc))
    return failure();
  if (*vc && (*vc)->dtype == onnx::TensorProto::FLOAT) {
    off = splatF32({}, (float)(*vc)->getF(0));
    on = splatF32({}, (float)(*vc)->getF(1));
  } else {
    auto v = operandF32(n, 2);
    if (failed(v))
      return failure();
    Value flat = reshape(*v, {2});
    off = reshape(slice(flat, {0}, {1}, {1}), {});
    on = reshape(slice(flat, {1}, {1}, {1}), {});
  }

  auto x = operandF32(n, 0, /*convertInts=*/true);
  if (failed(x))
    return failure();
  // trunc(x) = where(x < 0, ceil(x), floor(x)); negatives count from depth.
  Value zero = splatF32({}, 0.0f);
  auto neg = binary(n, BinaryFn::less, *x, zero);
  // Ops are created in statement order (argument order is unspecified).
  Value up = unary(UnaryFn::ceil, *x);
  Value down = unary(UnaryFn::floor, *x);
  auto t = failed(neg) ? Fail() : where(*this, n, *neg, up, down);
  auto idx = failed(t)
                 ? Fail()
                 : where(*this, n, *neg,
                         unary(UnaryFn::affine, *t, 1.0f, (float)depth), *t);
  if (failed(idx))
    return failure();
  SmallVector<int64_t> withOne(*shape);
  withOne.insert(withOne.begin() + *axis, 1);
  Value xi = reshape(*idx, withOne);
  SmallVector<int64_t> iotaShape{depth};
  iotaShape.append(rank - *axis, 1);
  SmallVector<float> iota;
  for (int64_t d = 0; d < depth; ++d)
    iota.push_back((float)d);
  auto eq = binary(n, BinaryFn::equal, xi, constF32(iotaShape, iota));
  auto r = failed(eq) ? Fail() : where(*this, n, *eq, on, off);
  return failed(r) ? failure() : define(n, 0, *r);
}

namespace {
/// The constant integer indices of input `i` of an indexing node (GatherND,
/// Scatter*): runtime indices are rejected naming the node and the input.
FailureOr<ConstPtr> constIndices(Importer &im, const Node &n, int i) {
  auto c = im.constant(n, i);
  if (failed(c))
    return failure();
  if (!*c)
    return im.failNode(n, "indices must be compile-time constants: the DMA "
                          "engine has no indirect addressing (input '" +
                              n.input(i) + "'; bind it to a constant: --bind " +
                              n.input(i) + "=FILE.pb)");
  if ((*c)->isFloat())
    return im.failNode(n, "indices must be integers, got " +
                              dataTypeName((*c)->dtype));
  return *c;
}

/// Row-major flat offsets of the index tuples of `idx` (last axis k) into
/// `dims` (k extents), negatives counted from the end; out-of-range
/// entries are an error.
FailureOr<SmallVector<int64_t>> flatTuples(Importer &im, const Node &n,
                                           const ConstTensor &idx,
                                           ArrayRef<int64_t> dims) {
  const int64_t k = dims.size();
  const int64_t tuples = k ? idx.size() / k : 0;
  SmallVector<int64_t> out;
  for (int64_t t = 0; t < tuples; ++t) {
    int64_t off = 0;
    for (int64_t j = 0; j < k; ++j) {
      int64_t v = idx.getI(t * k + j), w = v < 0 ? v + dims[j] : v;
      if (w < 0 || w >= dims[j])
        return im.failNode(n, "index " + std::to_string(v) +
                                  " is out of range for an axis of size " +
                                  std::to_string(dims[j]));
      off = off * dims[j] + w;
    }
    out.push_back(off);
  }
  return out;
}
} // namespace

/// GatherND with compile-time indices: the data reshaped to [B * P, R]
/// (B the batch_dims extents, P the k indexed ones, R the rest), the rows of
/// the flat index tuples gathered (gatherAlong: strided slices + concat),
/// reshaped to indices.shape[:-1] + data.shape[b + k:]. Constant data folds.
LogicalResult Importer::importGatherND(const Node &n) {
  if (failed(checkArity(n, 2, 2)))
    return failure();
  auto b = intAttr(n, "batch_dims", 0);
  auto ds = failed(b) ? Fail() : inputShape(n, 0);
  auto idxC = failed(ds) ? Fail() : constIndices(*this, n, 1);
  if (failed(idxC))
    return failure();
  const ConstTensor &idx = **idxC;
  ArrayRef<int64_t> D = *ds, I = idx.shape;
  const int64_t r = D.size(), q = I.size();
  if (q < 1 || r < 1)
    return failNode(n, "data and indices must have rank >= 1");
  const int64_t k = I.back();
  if (*b < 0 || *b >= std::min(q, r))
    return failNode(n, "batch_dims " + std::to_string(*b) +
                           " must be in [0, min(rank(data), rank(indices)))");
  if (k < 1 || *b + k > r)
    return failNode(n, "the last axis of indices (" + std::to_string(k) +
                           ") must be in [1, rank(data) - batch_dims]");
  if (D.take_front(*b) != I.take_front(*b))
    return failNode(n, "the batch axes of data " + shapeStr(D) +
                           " and indices " + shapeStr(I) + " differ");
  SmallVector<int64_t> out(I.drop_back());
  out.append(D.begin() + *b + k, D.end());
  const int64_t B = *numElements(D.take_front(*b));
  const int64_t P = *numElements(D.slice(*b, k));
  const int64_t R = *numElements(D.drop_front(*b + k));
  auto flat = flatTuples(*this, n, idx, D.slice(*b, k));
  if (failed(flat))
    return failure();
  if (flat->empty())
    return failNode(n, "empty indices produce an empty tensor, which is not "
                       "supported");
  const int64_t perBatch = flat->size() / B;
  for (int64_t t = 0; t < (int64_t)flat->size(); ++t)
    (*flat)[t] += (t / perBatch) * P;

  auto c = constant(n, 0);
  if (failed(c))
    return failure();
  if (*c) {
    const ConstTensor &in = **c;
    ConstTensor res;
    res.dtype = in.dtype;
    res.shape = out;
    for (int64_t row : *flat)
      for (int64_t e = row * R; e < (row + 1) * R; ++e) {
        if (in.isFloat())
          res.f.push_back(in.f[e]);
        else
          res.i.push_back(in.i[e]);
      }
    return defineConst(n, 0, std::move(res));
  }
  auto x = operandF32(n, 0);
  if (failed(x))
    return failure();
  Value v = gatherAlong(reshape(*x, {B * P, R}), 0, *flat);
  return define(n, 0, reshape(v, out));
}

namespace {
/// Fills the entries of `sel` where `has` is false (rows whose value does
/// not matter, any update row in [0, U)) so that `sel` splits into few runs
/// of an arithmetic progression (few gatherAlong slices): greedily, a run
/// goes on while its given entries follow one step and its filled ones stay
/// in range.
void fillRuns(SmallVector<int64_t> &sel, ArrayRef<bool> has, int64_t U) {
  const int64_t P = sel.size();
  for (int64_t p0 = 0, p; p0 < P; p0 = p) {
    int64_t pa = -1, va = 0, step = 0;
    for (p = p0; p < P; ++p) {
      if (!has[p]) {
        int64_t v = va + step * (p - pa);
        if (step && (v < 0 || v >= U))
          break;
        continue;
      }
      if (pa < 0) {
        pa = p;
        va = sel[p];
        continue;
      }
      if (step) {
        if (sel[p] != va + step * (p - pa))
          break;
        continue;
      }
      int64_t d = sel[p] - va, gap = p - pa, v0 = va - (d / gap) * (pa - p0);
      if (d == 0 || d % gap || v0 < 0 || v0 >= U)
        break;
      step = d / gap;
    }
    if (pa < 0) { // nothing given: 0, 1, 2, ...
      for (int64_t q = p0; q < p; ++q)
        sel[q] = std::min(q - p0, U - 1);
      continue;
    }
    if (!step) { // one given entry: a step of +-1 if it fits, else repeats
      if (va - (pa - p0) >= 0 && va + (p - 1 - pa) < U)
        step = 1;
      else if (va + (pa - p0) < U && va - (p - 1 - pa) >= 0)
        step = -1;
    }
    for (int64_t q = p0; q < p; ++q)
      if (!has[q])
        sel[q] = va + step * (q - pa);
  }
}

/// data2 [P, R] with the rows of upd2 [U, R] scattered to rows `target[u]`
/// (in update order) and combined by `reduction`: one round per
/// contribution depth, each a gather of one update row per data row
/// (gatherAlong; a single update row broadcasts instead) and a graph.where
/// with a constant [P, 1] mask of the rows that have a contribution in that
/// round. "none" keeps only the last contribution (ONNX leaves duplicates
/// undefined).
FailureOr<Value> scatterRows(Importer &im, const Node &n, Value data2,
                             Value upd2, ArrayRef<int64_t> target,
                             StringRef reduction) {
  const int64_t P = Importer::shapeOf(data2)[0];
  const int64_t U = Importer::shapeOf(upd2)[0];
  std::vector<SmallVector<int64_t>> contrib(P);
  for (int64_t u = 0; u < (int64_t)target.size(); ++u)
    contrib[target[u]].push_back(u);
  bool none = reduction == "none";
  if (none)
    for (auto &c : contrib)
      if (c.size() > 1)
        c.erase(c.begin(), c.end() - 1);
  size_t rounds = 0;
  for (auto &c : contrib)
    rounds = std::max(rounds, c.size());
  Value acc = data2;
  for (size_t rd = 0; rd < rounds; ++rd) {
    SmallVector<int64_t> sel(P, 0);
    SmallVector<bool> mask(P, false);
    bool all = true;
    for (int64_t p = 0; p < P; ++p) {
      mask[p] = rd < contrib[p].size();
      all &= mask[p];
      if (mask[p])
        sel[p] = contrib[p][rd];
    }
    fillRuns(sel, mask, U);
    Value g = U == 1 ? upd2 : im.gatherAlong(upd2, 0, sel);
    Value comb = g;
    if (!none) {
      auto r = im.binary(n, reduction == "add" ? BinaryFn::add : BinaryFn::mul,
                         acc, g);
      if (failed(r))
        return failure();
      comb = *r;
    }
    if (all && Importer::shapeOf(comb) == Importer::shapeOf(acc)) {
      acc = comb;
      continue;
    }
    auto ty = RankedTensorType::get({P, 1}, im.builder.getI1Type());
    Value m = arith::ConstantOp::create(
        im.builder, im.loc(), DenseElementsAttr::get(ty, ArrayRef<bool>(mask)));
    auto w = where(im, n, m, comb, acc);
    if (failed(w))
      return failure();
    acc = *w;
  }
  return acc;
}

FailureOr<std::string> scatterReduction(Importer &im, const Node &n) {
  auto red = im.stringAttr(n, "reduction", "none");
  if (failed(red))
    return failure();
  // max / min (opset 18) would be graph.binary max / min, but the importer
  // reads opsets up to 17.
  if (*red != "none" && *red != "add" && *red != "mul")
    return im.failNode(n, "reduction '" + *red +
                              "' is not supported (none, add, mul)");
  return *red;
}
} // namespace

/// ScatterElements (and the deprecated Scatter) with compile-time indices:
/// data and updates flattened to [N, 1] / [U, 1], each update's flat target
/// computed at compile time, then scatterRows; reshaped back.
LogicalResult Importer::importScatter(const Node &n) {
  if (failed(checkArity(n, 3, 3)))
    return failure();
  auto red = scatterReduction(*this, n);
  auto axisAttr = failed(red) ? Fail() : intAttr(n, "axis", 0);
  auto x = failed(axisAttr) ? Fail() : operandF32(n, 0);
  auto idxC = failed(x) ? Fail() : constIndices(*this, n, 1);
  auto upd = failed(idxC) ? Fail() : operandF32(n, 2);
  if (failed(upd))
    return failure();
  ArrayRef<int64_t> D = shapeOf(*x), S = (*idxC)->shape;
  const int64_t rank = D.size();
  auto axis = normAxis(n, *axisAttr, rank);
  if (failed(axis))
    return failure();
  if ((int64_t)S.size() != rank || shapeOf(*upd) != S)
    return failNode(n, "indices " + shapeStr(S) + " and updates " +
                           shapeStr(shapeOf(*upd)) +
                           " must have the same shape and the rank of the "
                           "data " +
                           shapeStr(D));
  for (int64_t d = 0; d < rank; ++d)
    if (d != *axis && S[d] > D[d])
      return failNode(n, "indices shape " + shapeStr(S) +
                             " exceeds the data shape " + shapeStr(D));
  const ConstTensor &idx = **idxC;
  const int64_t U = idx.size(), N = *numElements(D);
  if (!U)
    return define(n, 0, *x);
  SmallVector<int64_t> target;
  SmallVector<int64_t> pos(rank, 0);
  for (int64_t u = 0; u < U; ++u) {
    // pos = the multi-index of u in S
    int64_t rem = u;
    for (int64_t d = rank - 1; d >= 0; --d) {
      pos[d] = rem % S[d];
      rem /= S[d];
    }
    int64_t v = idx.getI(u), w = v < 0 ? v + D[*axis] : v;
    if (w < 0 || w >= D[*axis])
      return failNode(n, "index " + std::to_string(v) +
                             " is out of range for axis " +
                             std::to_string(*axis) + " of size " +
                             std::to_string(D[*axis]));
    int64_t off = 0;
    for (int64_t d = 0; d < rank; ++d)
      off = off * D[d] + (d == *axis ? w : pos[d]);
    target.push_back(off);
  }
  Value x2 = reshape(*x, {N, 1});
  Value u2 = reshape(*upd, {U, 1});
  auto r = scatterRows(*this, n, x2, u2, target, *red);
  return failed(r) ? failure() : define(n, 0, reshape(*r, D));
}

/// ScatterND with compile-time indices: data as [P, R] rows (P the k
/// indexed axes), updates as [U, R], scatterRows, reshaped back.
LogicalResult Importer::importScatterND(const Node &n) {
  if (failed(checkArity(n, 3, 3)))
    return failure();
  auto red = scatterReduction(*this, n);
  auto x = failed(red) ? Fail() : operandF32(n, 0);
  auto idxC = failed(x) ? Fail() : constIndices(*this, n, 1);
  auto upd = failed(idxC) ? Fail() : operandF32(n, 2);
  if (failed(upd))
    return failure();
  ArrayRef<int64_t> D = shapeOf(*x), I = (*idxC)->shape;
  const int64_t r = D.size();
  if (I.empty() || I.back() < 1 || I.back() > r)
    return failNode(n, "the last axis of indices " + shapeStr(I) +
                           " must be in [1, rank(data)]");
  const int64_t k = I.back();
  SmallVector<int64_t> us(I.drop_back());
  us.append(D.begin() + k, D.end());
  if (shapeOf(*upd) != ArrayRef<int64_t>(us))
    return failNode(n, "updates must have shape " + shapeStr(us) + ", got " +
                           shapeStr(shapeOf(*upd)));
  auto target = flatTuples(*this, n, **idxC, D.take_front(k));
  if (failed(target))
    return failure();
  if (target->empty())
    return define(n, 0, *x);
  const int64_t P = *numElements(D.take_front(k));
  const int64_t R = *numElements(D.drop_front(k));
  const int64_t U = target->size();
  Value x2 = reshape(*x, {P, R});
  Value u2 = reshape(*upd, {U, R});
  auto res = scatterRows(*this, n, x2, u2, *target, *red);
  return failed(res) ? failure() : define(n, 0, reshape(*res, D));
}
