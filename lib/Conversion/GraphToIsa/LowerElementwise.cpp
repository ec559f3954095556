//===- LowerElementwise.cpp - Graph ops that become SFU layers ------------===//
//
// add / relu / unary / binary / where / reduce / softmax: each one SFU layer
// (accel/Codegen ElementwiseLayer) whose steps compose the function from the
// SFU table (accel/Target/Sfu.h).
//
//===----------------------------------------------------------------------===//
#include "Lowering.h"
#include <algorithm>
#include <cmath>

using namespace mlir;
using namespace accel;
using namespace accel::codegen;
using namespace accel::lowering;

LogicalResult Lowering::lowerAdd(graph::AddOp op) {
  std::vector<int64_t> os = shapeOf(op.getResult());
  ElementwiseLayer ew;
  ew.shape = os;
  ew.inputs = {
      View{bufferFor(op.getLhs()), broadcastStrides(shapeOf(op.getLhs()), os)},
      View{bufferFor(op.getRhs()), broadcastStrides(shapeOf(op.getRhs()), os)}};
  ew.output = denseView(op.getResult());
  ew.steps.push_back({SpuType::Binary, SfuFunc::Add, 0.0f, 0, 1, 0});
  return emitSfu(op, ew);
}

LogicalResult Lowering::lowerRelu(graph::ReluOp op) {
  ElementwiseLayer ew;
  ew.shape = shapeOf(op.getResult());
  ew.inputs = {denseView(op.getInput())};
  ew.output = denseView(op.getResult());
  ew.steps.push_back({SpuType::Unary, SfuFunc::Relu, 0.0f, 0, 0, 0});
  return emitSfu(op, ew);
}

namespace {
ElementwiseStep unaryStep(SfuFunc f, float imm = 0.0f, bool rowData = false) {
  ElementwiseStep s{SpuType::Unary, f, imm, 0, 0, 0};
  s.rowData = rowData;
  return s;
}
ElementwiseStep step(SpuType t, SfuFunc f, int in0, int in1, int out,
                     bool rowData = false, float imm = 0.0f) {
  ElementwiseStep s{t, f, imm, in0, in1, out};
  s.rowData = rowData;
  return s;
}

/// SFU steps computing a graph.unary function on operand 0.
std::vector<ElementwiseStep> unarySteps(graph::UnaryFn fn, float a, float b) {
  using graph::UnaryFn;
  switch (fn) {
  case UnaryFn::neg:
    return {unaryStep(SfuFunc::Neg)};
  case UnaryFn::abs:
    return {unaryStep(SfuFunc::Abs)};
  case UnaryFn::reciprocal:
    return {unaryStep(SfuFunc::Reciprocal)};
  case UnaryFn::sqrt:
    return {unaryStep(SfuFunc::Sqrt)};
  case UnaryFn::exp:
    return {unaryStep(SfuFunc::Exp)};
  case UnaryFn::log:
    return {unaryStep(SfuFunc::Log)};
  case UnaryFn::erf:
    return {unaryStep(SfuFunc::Erf)};
  case UnaryFn::floor:
    return {unaryStep(SfuFunc::Floor)};
  case UnaryFn::ceil:
    return {unaryStep(SfuFunc::Ceil)};
  case UnaryFn::sign:
    return {unaryStep(SfuFunc::Sign)};
  case UnaryFn::sin:
    return {unaryStep(SfuFunc::Sin)};
  case UnaryFn::cos:
    return {unaryStep(SfuFunc::Cos)};
  case UnaryFn::tan:
    return {unaryStep(SfuFunc::Tan)};
  case UnaryFn::relu:
    return {unaryStep(SfuFunc::Relu)};
  case UnaryFn::sigmoid:
    return {unaryStep(SfuFunc::Sigmoid)};
  case UnaryFn::tanh:
    return {unaryStep(SfuFunc::Tanh)};
  case UnaryFn::softplus:
    return {unaryStep(SfuFunc::Softplus)};
  case UnaryFn::softsign:
    return {unaryStep(SfuFunc::Softsign)};
  case UnaryFn::round:
    return {unaryStep(SfuFunc::Round)};
  case UnaryFn::square:
    return {unaryStep(SfuFunc::Square)};
  case UnaryFn::hard_swish:
    return {unaryStep(SfuFunc::HardSwish)};
  case UnaryFn::leaky_relu:
    return {unaryStep(SfuFunc::LeakyRelu, a)};
  case UnaryFn::elu:
    return {unaryStep(SfuFunc::Elu, a)};
  case UnaryFn::celu:
    return {unaryStep(SfuFunc::Celu, a)};
  case UnaryFn::thresholded_relu:
    return {unaryStep(SfuFunc::ThresholdedRelu, a)};
  case UnaryFn::selu:
    return {unaryStep(SfuFunc::Elu, a), unaryStep(SfuFunc::Scale, b)};
  case UnaryFn::hard_sigmoid:
    return {unaryStep(SfuFunc::Scale, a), unaryStep(SfuFunc::AddImm, b),
            unaryStep(SfuFunc::MaxImm, 0.0f), unaryStep(SfuFunc::MinImm, 1.0f)};
  case UnaryFn::clip:
    return {unaryStep(SfuFunc::MaxImm, a), unaryStep(SfuFunc::MinImm, b)};
  case UnaryFn::affine:
    return {unaryStep(SfuFunc::Scale, a), unaryStep(SfuFunc::AddImm, b)};
  }
  return {};
}

SfuFunc binaryFunc(graph::BinaryFn fn) {
  using graph::BinaryFn;
  switch (fn) {
  case BinaryFn::add:
    return SfuFunc::Add;
  case BinaryFn::sub:
    return SfuFunc::Sub;
  case BinaryFn::mul:
    return SfuFunc::Mul;
  case BinaryFn::div:
    return SfuFunc::Div;
  case BinaryFn::pow:
    return SfuFunc::Pow;
  case BinaryFn::max:
    return SfuFunc::Max;
  case BinaryFn::min:
    return SfuFunc::Min;
  case BinaryFn::prelu:
    return SfuFunc::Prelu;
  case BinaryFn::equal:
    return SfuFunc::Equal;
  case BinaryFn::less:
    return SfuFunc::Less;
  case BinaryFn::greater:
    return SfuFunc::Greater;
  case BinaryFn::less_equal:
    return SfuFunc::LessEqual;
  case BinaryFn::greater_equal:
    return SfuFunc::GreaterEqual;
  }
  return SfuFunc::None;
}

/// `v` permuted so that the dimensions in `last` come last (in order).
std::vector<int64_t> permuteLast(const std::vector<int64_t> &v,
                                 const std::vector<int64_t> &last) {
  std::vector<int64_t> out;
  for (size_t d = 0; d < v.size(); ++d)
    if (std::find(last.begin(), last.end(), int64_t(d)) == last.end())
      out.push_back(v[d]);
  for (int64_t d : last)
    out.push_back(v[d]);
  return out;
}
} // namespace

bool Lowering::isReturned(Value v) {
  for (Operation *user : v.getUsers()) {
    if (isa<func::ReturnOp>(user))
      return true;
    if (auto r = dyn_cast<graph::ReshapeOp>(user); r && isReturned(r))
      return true;
  }
  return false;
}

void Lowering::emitFill(uint64_t addr, const std::vector<int64_t> &shape,
                        float value, bool evenIfZero) {
  if (value == 0.0f && !std::signbit(value) && !evenIfZero)
    return;
  ElementwiseLayer ew;
  ew.shape = shape;
  ew.inputs = {View{addr, denseStrides(shape)}};
  ew.output = View{addr, denseStrides(shape)};
  ew.steps = {unaryStep(SfuFunc::Fill, value)};
  std::string err;
  emitElementwiseLayer(sb_, ew, err); // a fill always fits (rows split)
}

LogicalResult Lowering::lowerUnary(graph::UnaryOp op) {
  ElementwiseLayer ew;
  ew.shape = shapeOf(op.getResult());
  ew.inputs = {denseView(op.getInput())};
  ew.output = denseView(op.getResult());
  ew.steps = unarySteps(op.getFn(), op.getAlpha().convertToFloat(),
                        op.getBeta().convertToFloat());
  return emitSfu(op, ew);
}

LogicalResult Lowering::lowerBinary(graph::BinaryOp op) {
  std::vector<int64_t> os = shapeOf(op.getResult());
  ElementwiseLayer ew;
  ew.shape = os;
  ew.inputs = {
      View{bufferFor(op.getLhs()), broadcastStrides(shapeOf(op.getLhs()), os)},
      View{bufferFor(op.getRhs()), broadcastStrides(shapeOf(op.getRhs()), os)}};
  ew.output = denseView(op.getResult());
  ew.steps = {step(SpuType::Binary, binaryFunc(op.getFn()), 0, 1, 0)};
  return emitSfu(op, ew);
}

LogicalResult Lowering::lowerWhere(graph::WhereOp op) {
  std::vector<int64_t> os = shapeOf(op.getResult());
  ElementwiseLayer ew;
  ew.shape = os;
  for (Value v : {op.getCond(), op.getX(), op.getY()})
    ew.inputs.push_back(View{bufferFor(v), broadcastStrides(shapeOf(v), os)});
  ew.output = denseView(op.getResult());
  // Select without multiplying, so infinities and NaNs pass unchanged.
  ew.steps = {step(SpuType::Binary, SfuFunc::MaskKeep, 0, 1, 1),
              step(SpuType::Binary, SfuFunc::MaskDrop, 0, 2, 2),
              step(SpuType::Binary, SfuFunc::Add, 1, 2, 0)};
  return emitSfu(op, ew);
}

LogicalResult Lowering::lowerReduce(graph::ReduceOp op) {
  using graph::ReduceFn;
  std::vector<int64_t> in = shapeOf(op.getInput());
  std::vector<int64_t> axes(op.getAxes().begin(), op.getAxes().end());
  int64_t n = 1;
  for (int64_t a : axes)
    n *= in[a];
  // The output, seen with the reduced dimensions kept (extent 1).
  std::vector<int64_t> kept = in;
  for (int64_t a : axes)
    kept[a] = 1;
  std::vector<int64_t> outStrides = denseStrides(kept);
  ElementwiseLayer ew;
  ew.shape = permuteLast(in, axes);
  ew.rowDims = int(in.size() - axes.size());
  ew.wholeRows = true;
  ew.rowResult = true;
  ew.inputs = {
      View{bufferFor(op.getInput()), permuteLast(denseStrides(in), axes)}};
  ew.output = View{bufferFor(op.getResult()), permuteLast(outStrides, axes)};
  auto reduce = [](SfuFunc f, int in0, int out, float imm = 0.0f) {
    return step(SpuType::Reduce, f, in0, in0, out, false, imm);
  };
  switch (op.getFn()) {
  case ReduceFn::sum:
    ew.steps = {reduce(SfuFunc::Add, 0, 0)};
    break;
  case ReduceFn::mean:
    ew.steps = {reduce(SfuFunc::Add, 0, 0),
                unaryStep(SfuFunc::Scale, 1.0f / float(n), true)};
    break;
  case ReduceFn::max:
    ew.steps = {reduce(SfuFunc::Max, 0, 0)};
    break;
  case ReduceFn::min:
    ew.steps = {reduce(SfuFunc::Min, 0, 0)};
    break;
  case ReduceFn::prod:
    ew.steps = {reduce(SfuFunc::Mul, 0, 0)};
    break;
  case ReduceFn::sum_square:
    ew.steps = {unaryStep(SfuFunc::Square), reduce(SfuFunc::Add, 0, 0)};
    break;
  case ReduceFn::l1:
    ew.steps = {unaryStep(SfuFunc::Abs), reduce(SfuFunc::Add, 0, 0)};
    break;
  case ReduceFn::l2:
    ew.steps = {unaryStep(SfuFunc::Square), reduce(SfuFunc::Add, 0, 0),
                unaryStep(SfuFunc::Sqrt, 0.0f, true)};
    break;
  case ReduceFn::log_sum:
    ew.steps = {reduce(SfuFunc::Add, 0, 0),
                unaryStep(SfuFunc::Log, 0.0f, true)};
    break;
  case ReduceFn::log_sum_exp:
    // max + log(sum(exp(x - max))), stable for large inputs.
    ew.scratch = 2;
    ew.steps = {reduce(SfuFunc::Max, 0, 1),
                step(SpuType::Binary, SfuFunc::SubRow, 0, 1, 0),
                unaryStep(SfuFunc::Exp),
                reduce(SfuFunc::Add, 0, 2),
                step(SpuType::Unary, SfuFunc::Log, 2, 2, 2, true),
                step(SpuType::Binary, SfuFunc::Add, 2, 1, 0, true)};
    break;
  case ReduceFn::argmax:
  case ReduceFn::argmin:
    ew.steps = {reduce(op.getFn() == ReduceFn::argmax ? SfuFunc::ArgMax
                                                      : SfuFunc::ArgMin,
                       0, 0, op.getSelectLastIndex() ? 1.0f : 0.0f)};
    break;
  }
  if (n == 0)
    return op.emitOpError("reduction over an empty dimension");
  // A row that does not fit one PE's share of the input buffer is reduced in
  // two passes: chunks of it into partials, then the partials.
  const int64_t cap =
      int64_t(hw_.inputSlotBytes() * (16 / (1 + ew.scratch)) / 4);
  if (n <= cap)
    return emitSfu(op, ew);
  return lowerLargeReduce(op, ew, n, cap);
}

LogicalResult Lowering::lowerLargeReduce(graph::ReduceOp op,
                                         const ElementwiseLayer &whole,
                                         int64_t n, int64_t cap) {
  using graph::ReduceFn;
  SfuFunc combine;
  std::vector<ElementwiseStep> pre, post;
  switch (op.getFn()) {
  case ReduceFn::sum:
    combine = SfuFunc::Add;
    break;
  case ReduceFn::mean:
    combine = SfuFunc::Add;
    post = {unaryStep(SfuFunc::Scale, 1.0f / float(n), true)};
    break;
  case ReduceFn::max:
    combine = SfuFunc::Max;
    break;
  case ReduceFn::min:
    combine = SfuFunc::Min;
    break;
  case ReduceFn::prod:
    combine = SfuFunc::Mul;
    break;
  case ReduceFn::sum_square:
    combine = SfuFunc::Add, pre = {unaryStep(SfuFunc::Square)};
    break;
  case ReduceFn::l1:
    combine = SfuFunc::Add, pre = {unaryStep(SfuFunc::Abs)};
    break;
  case ReduceFn::l2:
    combine = SfuFunc::Add, pre = {unaryStep(SfuFunc::Square)};
    post = {unaryStep(SfuFunc::Sqrt, 0.0f, true)};
    break;
  case ReduceFn::log_sum:
    combine = SfuFunc::Add, post = {unaryStep(SfuFunc::Log, 0.0f, true)};
    break;
  default:
    return op.emitOpError("a reduction over ")
           << n << " elements exceeds one PE's share of the input buffer ("
           << cap << ") and " << stringifyReduceFn(op.getFn())
           << " has no two-pass form yet";
  }
  // Make the reduced elements of each row contiguous: [rows, n].
  std::vector<int64_t> rowsShape(whole.shape.begin(),
                                 whole.shape.begin() + whole.rowDims);
  int64_t rows = numElements(rowsShape);
  uint64_t dense = allocate(rows * n);
  emitCopyLayer(sb_, whole.shape, whole.inputs[0],
                View{dense, denseStrides(whole.shape)});
  // The output rows in the same order as the input's kept dimensions.
  View out = whole.output;
  out.strides.resize(whole.rowDims);
  std::vector<int64_t> rowsCoalesced = coalesce(rowsShape, {&out});
  if (rowsCoalesced.size() > 1)
    return op.emitOpError("internal: reduction output is not contiguous");
  return emitDenseRowReduce(op, dense, rows, n, cap, combine, pre, post,
                            View{out.base, {1, 0}});
}

LogicalResult Lowering::emitDenseRowReduce(
    Operation *op, uint64_t src, int64_t rows, int64_t n, int64_t cap,
    SfuFunc combine, const std::vector<ElementwiseStep> &pre,
    const std::vector<ElementwiseStep> &post, const View &out) {
  // Chunk size: the largest divisor of n that fits.
  int64_t chunk = 1;
  for (int64_t c = std::min(n, cap); c >= 1; --c)
    if (n % c == 0) {
      chunk = c;
      break;
    }
  if (chunk * 16 < cap && chunk < n)
    return op->emitOpError("a reduction over ")
           << n << " elements has no chunking that fits the input buffer";
  const int64_t nChunks = n / chunk;
  uint64_t partial = allocate(rows * nChunks);
  ElementwiseLayer p1;
  p1.shape = {rows, nChunks, chunk};
  p1.rowDims = 2;
  p1.wholeRows = true;
  p1.rowResult = true;
  p1.inputs = {View{src, {n, chunk, 1}}};
  p1.output = View{partial, {nChunks, 1, 0}};
  p1.steps = pre;
  p1.steps.push_back(step(SpuType::Reduce, combine, 0, 0, 0));
  ElementwiseLayer p2;
  p2.shape = {rows, nChunks};
  p2.rowDims = 1;
  p2.wholeRows = true;
  p2.rowResult = true;
  p2.inputs = {View{partial, {nChunks, 1}}};
  p2.output = out;
  p2.steps = {step(SpuType::Reduce, combine, 0, 0, 0)};
  p2.steps.insert(p2.steps.end(), post.begin(), post.end());
  if (failed(emitSfu(op, p1)))
    return failure();
  return emitSfu(op, p2);
}

LogicalResult Lowering::lowerSoftmax(graph::SoftmaxOp op) {
  std::vector<int64_t> in = shapeOf(op.getInput());
  std::vector<int64_t> axis{op.getAxisAttr().getInt()};
  ElementwiseLayer ew;
  ew.shape = permuteLast(in, axis);
  ew.rowDims = int(in.size()) - 1;
  ew.wholeRows = true;
  std::vector<int64_t> strides = permuteLast(denseStrides(in), axis);
  ew.inputs = {View{bufferFor(op.getInput()), strides}};
  ew.output = View{bufferFor(op.getResult()), strides};
  auto reduce = [](SfuFunc f, int in0, int out) {
    return step(SpuType::Reduce, f, in0, in0, out);
  };
  if (!op.getLog()) {
    ew.scratch = 1;
    ew.steps = {reduce(SfuFunc::Max, 0, 1),
                step(SpuType::Binary, SfuFunc::SubRow, 0, 1, 0),
                unaryStep(SfuFunc::Exp), reduce(SfuFunc::Add, 0, 1),
                step(SpuType::Binary, SfuFunc::DivRow, 0, 1, 0)};
  } else {
    ew.scratch = 2;
    ew.steps = {reduce(SfuFunc::Max, 0, 1),
                step(SpuType::Binary, SfuFunc::SubRow, 0, 1, 0),
                step(SpuType::Unary, SfuFunc::Exp, 0, 0, 2),
                reduce(SfuFunc::Add, 2, 2),
                step(SpuType::Unary, SfuFunc::Log, 2, 2, 2, true),
                step(SpuType::Binary, SfuFunc::SubRow, 0, 2, 0)};
  }
  const int64_t n = in[axis[0]];
  const int64_t cap =
      int64_t(hw_.inputSlotBytes() * (16 / (1 + ew.scratch)) / 4);
  if (n <= cap)
    return emitSfu(op, ew);
  // Rows longer than a PE's share: max, exp and sum in separate passes over
  // a dense [rows, n] copy, the reductions in two passes each.
  const int64_t rows = numElements(in) / n;
  std::vector<int64_t> dense = denseStrides(ew.shape);
  std::vector<int64_t> perRow(dense);
  perRow.back() = 0; // one value per row, broadcast along the axis
  for (auto &st : perRow)
    st /= n; // row-major over the row dimensions only
  uint64_t xd = allocate(rows * n), m = allocate(rows), t = allocate(rows * n),
           e = allocate(rows * n), sum = allocate(rows);
  emitCopyLayer(sb_, ew.shape, ew.inputs[0], View{xd, dense});
  if (failed(emitDenseRowReduce(op, xd, rows, n, cap, SfuFunc::Max, {}, {},
                                View{m, {1, 0}})))
    return failure();
  ElementwiseLayer shift; // t = x - max, e = exp(t)
  shift.shape = ew.shape;
  shift.inputs = {View{xd, dense}, View{m, perRow}};
  shift.output = View{t, dense};
  shift.steps = {step(SpuType::Binary, SfuFunc::Sub, 0, 1, 0)};
  ElementwiseLayer ex;
  ex.shape = ew.shape;
  ex.inputs = {View{t, dense}};
  ex.output = View{e, dense};
  ex.steps = {unaryStep(SfuFunc::Exp)};
  if (failed(emitSfu(op, shift)) || failed(emitSfu(op, ex)) ||
      failed(emitDenseRowReduce(op, e, rows, n, cap, SfuFunc::Add, {}, {},
                                View{sum, {1, 0}})))
    return failure();
  ElementwiseLayer fin; // e / sum, or t - log(sum)
  fin.shape = ew.shape;
  fin.output = ew.output;
  if (!op.getLog()) {
    fin.inputs = {View{e, dense}, View{sum, perRow}};
    fin.steps = {step(SpuType::Binary, SfuFunc::Div, 0, 1, 0)};
  } else {
    fin.inputs = {View{t, dense}, View{sum, perRow}};
    fin.steps = {step(SpuType::Unary, SfuFunc::Log, 1, 1, 1),
                 step(SpuType::Binary, SfuFunc::Sub, 0, 1, 0)};
  }
  return emitSfu(op, fin);
}
