//===- RnnLayer.cpp - A graph.recurrent as the RNN engine sees it ---------===//
#include "RnnLayer.h"

using namespace mlir;

namespace accel::transforms {

RnnLayer rnnLayerOf(graph::RecurrentOp op) {
  auto x = cast<RankedTensorType>(op.getX().getType());
  int64_t h = op.getHiddenSize(), in = x.getDimSize(2);
  RnnLayer l;
  l.steps = x.getDimSize(0);
  l.directions = op.getDirection() == "bidirectional" ? 2 : 1;
  l.batch = x.getDimSize(1);
  int64_t rows = h;
  if (op.getKind() == graph::RnnKind::lstm)
    rows = 4 * h;
  else if (op.getKind() == graph::RnnKind::gru)
    rows = 2 * h;
  l.merged = {rows, in + h, in};
  if (op.getKind() == graph::RnnKind::gru)
    l.candidate = {h, in + h, in};
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
