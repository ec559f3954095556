//===- CellStep.h - One RNN time step on the packed matrices ----*- C++ -*-===//
//
// The functional meaning of the packing (GatePacking.h): one LSTM step from
// the merged matrix, one GRU step from its two phases, with ONNX semantics
// (default activations, no clip). The simulator's functional model and the
// tests compare against these.
//
//===----------------------------------------------------------------------===//
#ifndef ACCEL_RNN_CELLSTEP_H
#define ACCEL_RNN_CELLSTEP_H

#include "accel/Rnn/GatePacking.h"

#include <cstdint>
#include <vector>

namespace accel::rnn {

/// One ONNX LSTM step (f = sigmoid, g = h = tanh) from the merged matrix of
/// packMerged(Cell::Lstm): Wb, Rb are the ONNX biases [4H] (i, o, f, c);
/// c is updated in place; returns h_t.
std::vector<float> lstmStepMerged(const std::vector<float> &merged,
                                  int64_t hidden, int64_t lx, const float *x,
                                  const float *h, std::vector<float> &c,
                                  const float *Wb, const float *Rb);

/// One ONNX GRU step (f = sigmoid, g = tanh) from packGru's phases; Wb, Rb
/// are the ONNX biases [3H] (z, r, h). Returns h_t.
std::vector<float> gruStepPhases(const GruPhases &p, int64_t hidden, int64_t lx,
                                 const float *x, const float *h,
                                 const float *Wb, const float *Rb,
                                 bool linearBeforeReset);

} // namespace accel::rnn

#endif
