//===- RnnAttrs.cpp - #accel.rnn_parallelism and #accel.rnn_thread --------===//
//
// The RNN decisions' own invariants (genVerifyDecl) and the checks against
// the graph.recurrent they sit on. Machine bounds (constraint (8), cluster
// and context counts) are checked by the passes that read the hardware.
//
//===----------------------------------------------------------------------===//
#include "Accel/AccelDialect.h"
#include "Graph/GraphDialect.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace accel;

LogicalResult RnnParallelismAttr::verify(
    function_ref<InFlightDiagnostic()> emitError, int64_t ep, int64_t vp,
    std::optional<int64_t> candidateVp, std::optional<int64_t> accumulators,
    std::optional<int64_t> blockCycles, std::optional<int64_t> stepCycles) {
  if (ep < 1 || !llvm::isPowerOf2_64(uint64_t(ep)))
    return emitError() << "accel.rnn_parallelism: ep must be a power of two, "
                          "got "
                       << ep;
  if (vp < 1)
    return emitError() << "accel.rnn_parallelism: vp must be >= 1, got " << vp;
  if (candidateVp && *candidateVp < 1)
    return emitError() << "accel.rnn_parallelism: candidate_vp must be >= 1, "
                          "got "
                       << *candidateVp;
  if (accumulators && *accumulators < 1)
    return emitError() << "accel.rnn_parallelism: accumulators must be >= 1, "
                          "got "
                       << *accumulators;
  for (auto [field, v] : {std::pair<StringRef, std::optional<int64_t>>{
                              "block_cycles", blockCycles},
                          {"step_cycles", stepCycles}})
    if (v && *v < 0)
      return emitError() << "accel.rnn_parallelism: " << field
                         << " must be >= 0, got " << *v;
  return success();
}

LogicalResult RnnThreadAttr::verify(
    function_ref<InFlightDiagnostic()> emitError, int64_t task, int64_t cluster,
    int64_t thread, int64_t arrival, ArrayRef<int64_t> after,
    std::optional<int64_t> start, std::optional<int64_t> finish) {
  for (auto [field, v] : {std::pair<StringRef, int64_t>{"task", task},
                          {"cluster", cluster},
                          {"thread", thread},
                          {"arrival", arrival}})
    if (v < 0)
      return emitError() << "accel.rnn_thread: " << field
                         << " must be >= 0, got " << v;
  if (llvm::is_contained(after, task))
    return emitError() << "accel.rnn_thread: task " << task
                       << " waits for itself";
  if (start && *start < arrival)
    return emitError() << "accel.rnn_thread: start " << *start
                       << " is before the arrival " << arrival;
  if (finish && *finish < (start ? *start : arrival))
    return emitError() << "accel.rnn_thread: finish " << *finish
                       << " is before the start";
  return success();
}

namespace accel::detail {

/// Rows of the merged matrix of the first (or only) phase of a recurrent
/// op, and of the GRU candidate phase (0 for LSTM / RNN).
static std::pair<int64_t, int64_t> mergedRows(graph::RecurrentOp op) {
  int64_t h = op.getHiddenSize();
  switch (op.getKind()) {
  case graph::RnnKind::lstm:
    return {4 * h, 0};
  case graph::RnnKind::gru:
    return {2 * h, h};
  case graph::RnnKind::rnn:
    return {h, 0};
  }
  return {h, 0};
}

LogicalResult verifyRnnParallelismOn(Operation *op, Attribute a) {
  auto rec = dyn_cast<graph::RecurrentOp>(op);
  if (!rec)
    return op->emitOpError()
           << kRnnParallelismAttrName << " applies to graph.recurrent only";
  auto p = dyn_cast<RnnParallelismAttr>(a);
  if (!p)
    return op->emitOpError()
           << kRnnParallelismAttrName
           << ": expected an #accel.rnn_parallelism<...> attribute, got " << a;
  auto [rows, candidateRows] = mergedRows(rec);
  if (p.getVp() > rows)
    return op->emitOpError()
           << kRnnParallelismAttrName << ": vp = " << p.getVp()
           << " exceeds the " << rows
           << " rows of the merged gate matrix (constraint (7))";
  if (p.getCandidateVp() && candidateRows == 0)
    return op->emitOpError()
           << kRnnParallelismAttrName << ": candidate_vp applies to a GRU only";
  if (p.getCandidateVp() && *p.getCandidateVp() > candidateRows)
    return op->emitOpError()
           << kRnnParallelismAttrName
           << ": candidate_vp = " << *p.getCandidateVp() << " exceeds the "
           << candidateRows << " rows of the candidate matrix";
  return success();
}

LogicalResult verifyRnnThreadsOn(Operation *op, Attribute a) {
  auto rec = dyn_cast<graph::RecurrentOp>(op);
  if (!rec)
    return op->emitOpError()
           << kRnnThreadsAttrName << " applies to graph.recurrent only";
  auto arr = dyn_cast<ArrayAttr>(a);
  int64_t dirs = rec.getDirection() == "bidirectional" ? 2 : 1;
  int64_t batch = cast<RankedTensorType>(rec.getX().getType()).getDimSize(1);
  if (!arr || int64_t(arr.size()) != dirs * batch)
    return op->emitOpError()
           << kRnnThreadsAttrName << ": expected an array of " << dirs * batch
           << " #accel.rnn_thread (one per direction and batch row), got " << a;
  llvm::SmallDenseSet<int64_t> tasks;
  for (Attribute e : arr) {
    auto t = dyn_cast<RnnThreadAttr>(e);
    if (!t)
      return op->emitOpError() << kRnnThreadsAttrName
                               << ": expected #accel.rnn_thread, got " << e;
    if (!tasks.insert(t.getTask()).second)
      return op->emitOpError() << kRnnThreadsAttrName << ": task "
                               << t.getTask() << " appears twice";
  }
  return success();
}

LogicalResult verifyArrivalOn(Operation *op, Attribute a) {
  auto i = dyn_cast<IntegerAttr>(a);
  if (!isa<graph::RecurrentOp>(op))
    return op->emitOpError()
           << kArrivalAttrName << " applies to graph.recurrent only";
  if (!i || i.getValue().isNegative())
    return op->emitOpError()
           << kArrivalAttrName << ": expected a cycle count >= 0, got " << a;
  return success();
}

} // namespace accel::detail
