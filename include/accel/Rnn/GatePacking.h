//===- GatePacking.h - Merged, row-interleaved gate matrices ----*- C++ -*-===//
//
// Mechanism 1 of spec/rnn-multithreading.md: the gate matrices of a cell are
// merged into one matrix over [x | h] whose rows interleave the gates, so
// that one matrix-vector product per step replaces one per gate and the
// rows a vp-wide block produces hold every gate of the same hidden units
// (the tail needs i, o, f, c of unit j together). Gates keep ONNX order.
//
//===----------------------------------------------------------------------===//
#ifndef ACCEL_RNN_GATEPACKING_H
#define ACCEL_RNN_GATEPACKING_H

#include <cstdint>
#include <vector>

namespace accel::rnn {

enum class Cell { Rnn, Gru, Lstm };
/// Gate matrices of a cell: 1 (RNN), 3 (GRU z, r, h), 4 (LSTM i, o, f, c).
int64_t gateCount(Cell c);
/// SFU element operations of a cell's tail per hidden element, after the
/// gate activations (one per gate row): LSTM c = f*c + i*g (3), tanh(c) and
/// o * tanh(c) (2); GRU h = (1 - z) * n + z * h (3); RNN none. Peepholes
/// and clip ride in the same passes (docs/rnn.md, "SFU").
int64_t tailOpsPerElement(Cell c);

/// Row-interleaved merged matrix [G*H, lx+H], row-major: packed row r holds
/// gate r % G, gate row r / G; columns [x (lx) | h (H)]. W is ONNX W of one
/// direction [G*H, lx], R is ONNX R [G*H, H].
std::vector<float> packMerged(Cell c, int64_t hidden, int64_t lx,
                              const float *W, const float *R);

/// GRU in two phases (the candidate needs r before its product):
/// zr = z and r merged and interleaved like packMerged, [2H, lx+H];
/// candidate = [W_h | R_h], [H, lx+H], rows in hidden order. Phase 2 applies
/// it to [x | r*h] (linear_before_reset = 0) or to [x | h], keeping the x
/// and h column sums apart so r scales only R_h h + Rb_h
/// (linear_before_reset = 1). docs/rnn.md "GRU in two phases".
struct GruPhases {
  std::vector<float> zr;
  std::vector<float> candidate;
};
GruPhases packGru(int64_t hidden, int64_t lx, const float *W, const float *R);

/// y[r] = sum over columns [c0, c1) of M[r, c] * v[c - c0] for a row-major
/// M with `cols` columns: the column-wise product over a column range.
void matVecColumns(const float *M, int64_t rows, int64_t cols, int64_t c0,
                   int64_t c1, const float *v, float *y);

} // namespace accel::rnn

#endif
