//===- RnnLayer.cpp - A graph.recurrent as the RNN engine sees it ---------===//
#include "RnnLayer.h"
#include "accel/Rnn/GatePacking.h"

using namespace mlir;

namespace accel::transforms {

RnnLayer rnnLayerOf(graph::RecurrentOp op) {
  auto x = cast<RankedTensorType>(op.getX().getType());
  int64_t h = op.getHiddenSize(), in = x.getDimSize(2);
  RnnLayer l;
  l.steps = x.getDimSize(0);
  l.directions = op.getDirection() == "bidirectional" ? 2 : 1;
  l.batch = x.getDimSize(1);
  rnn::Cell cell = rnn::Cell::Rnn;
  if (op.getKind() == graph::RnnKind::lstm)
    cell = rnn::Cell::Lstm;
  else if (op.getKind() == graph::RnnKind::gru)
    cell = rnn::Cell::Gru;
  int64_t tail = rnn::tailOpsPerElement(cell) * h;
  if (cell == rnn::Cell::Gru) { // z | r activations, then candidate + tail
    l.merged = {2 * h, in + h, in, 2 * h};
    l.candidate = {h, in + h, in, h + tail};
  } else {
    int64_t rows = rnn::gateCount(cell) * h;
    l.merged = {rows, in + h, in, rows + tail};
  }
  return l;
}

RnnStepCost rnnStepCost(const rnn::Engine &e, const RnnLayer &l, int64_t ep) {
  RnnStepCost c;
  c.merged = rnn::costEpVp(e, l.merged, ep);
  c.busyCycles = c.merged.blockCycles;
  c.stallCycles = c.merged.latency;
  if (l.candidate.rows > 0) {
    // The candidate reads r * h_{t-1}: it starts after the first phase's
    // gates are out, so its latency is on the step's critical path too.
    c.candidate = rnn::costEpVp(e, l.candidate, ep);
    c.busyCycles += c.candidate->blockCycles;
    c.stallCycles += c.candidate->latency;
  }
  return c;
}

} // namespace accel::transforms
