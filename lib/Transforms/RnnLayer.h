//===- RnnLayer.h - A graph.recurrent as the RNN engine sees it -*- C++ -*-===//
//
// The shapes of the merged gate matrices of one recurrent layer (docs/rnn.md)
// and its cost on the column-wise engine, shared by select-rnn-parallelism
// and schedule-rnn-threads.
//
//===----------------------------------------------------------------------===//
#ifndef ACCEL_TRANSFORMS_RNNLAYER_H
#define ACCEL_TRANSFORMS_RNNLAYER_H

#include "Graph/GraphDialect.h"
#include "accel/Rnn/Parallelism.h"

namespace accel::transforms {

struct RnnLayer {
  int64_t steps = 0;      ///< time steps (X's first dimension)
  int64_t directions = 1; ///< 2 for a bidirectional layer
  int64_t batch = 1;      ///< batch rows: one task each (spec [0117])
  /// The merged matrix of the (first) phase: [x | h] columns.
  rnn::LayerShape merged{0, 0, 0};
  /// A GRU's candidate phase (rows H); rows == 0 otherwise.
  rnn::LayerShape candidate{0, 0, 0};
};

RnnLayer rnnLayerOf(graph::RecurrentOp op);

/// One time step of one direction at `ep`: the merged product (and a GRU's
/// candidate product, which waits for r: its blocks and latency add).
struct RnnStepCost {
  rnn::EpVp merged;
  std::optional<rnn::EpVp> candidate;
  int64_t busyCycles = 0;  ///< engine cycles of the step's blocks
  int64_t stallCycles = 0; ///< after the blocks, until h_t is written back
};
RnnStepCost rnnStepCost(const rnn::Engine &e, const RnnLayer &l, int64_t ep);

} // namespace accel::transforms

#endif
