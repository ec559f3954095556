//===- Parallelism.h - EP/VP selection for column-wise RNN steps -*- C++
//-*-===//
//
// The cost model of spec/rnn-multithreading.md, mechanism 3-5: a step's
// merged matrix-vector product is cut into vp x ep weight blocks, one block
// issued per cycle; an ep-wide slice of the ep_max-wide adder tree yields
// ep_max/ep partial sums per cycle, which the CAT can only accumulate
// cat_width at a time. docs/rnn.md gives the formula and a worked example.
//
//===----------------------------------------------------------------------===//
#ifndef ACCEL_RNN_PARALLELISM_H
#define ACCEL_RNN_PARALLELISM_H

#include "accel/Rnn/Engine.h"

#include <cstdint>
#include <vector>

namespace accel::rnn {

struct LayerShape {
  int64_t rows;      ///< hw = gates * hidden
  int64_t cols;      ///< lw = lx + lh
  int64_t inputCols; ///< lx
  /// SFU element operations of one step of this product: an activation per
  /// row plus the tail (tailOpsPerElement) when it produces h (0: none).
  int64_t sfuOps = 0;
};

struct EpVp {
  int64_t ep = 1, vp = 1; ///< vp capped by (7) vp <= rows, (8) vp <= npe/ep
  int64_t rowBlocks = 0, colBlocks = 0; ///< ceil(rows/vp), ceil(cols/ep)
  int64_t accumulatorsPerCycle = 1;     ///< min(epMax/ep, catWidth)
  /// Issue cycles of one step's blocks: rowBlocks * colBlocks, times the CAT
  /// slow-down ceil((epMax/ep) / catWidth).
  int64_t blockCycles = 0;
  /// The last row block's share of the step's SFU operations, at the
  /// cluster's SFU throughput: ceil(sfuOps * vp / rows / sfuElemsPerCycle).
  int64_t sfuCycles = 0;
  /// multiplier + log2(ep)*treeLevel + accumulator + sfuCycles + activation
  /// + tail + write-back: from the last block's issue to h written back.
  int64_t latency = 0;
  int64_t stepCycles = 0; ///< blockCycles + latency: one step alone
  /// Issue cycles of the x columns (rowBlocks * ceil(lx/ep) * slow-down):
  /// column-wise, they need no h and may overlap the previous step's latency.
  int64_t xBlockCycles = 0;
};

/// Partial sums per cycle a treeWidth-wide tree produces when cut into
/// ep-wide slices (64-wide: ep 64 -> 1, 32 -> 2, 16 -> 4).
int64_t catAccumulatorsPerCycle(int64_t treeWidth, int64_t ep);

/// Cycles per weight block the CAT allows at `ep` (>= 1): the tree yields
/// epMax / ep partial sums per cycle, the CAT accumulates catWidth.
int64_t catSlowDown(const Engine &e, int64_t ep);

/// Multiplier + log2(ep) adder-tree levels + accumulator: from a block's
/// issue until its products are in the accumulators.
int64_t productLatency(const Engine &e, int64_t ep);
/// Cycles the cluster's SFU spends on `ops` element operations
/// (ceil(ops / sfuElemsPerCycle); 0 when the engine's SFU is unlimited).
int64_t sfuCycles(const Engine &e, int64_t ops);
/// The cost of one ep (a power of two <= e.epMax).
EpVp costEpVp(const Engine &e, const LayerShape &s, int64_t ep);
/// Every power-of-two ep from 1 to e.epMax, in increasing ep.
std::vector<EpVp> sweepEp(const Engine &e, const LayerShape &s);
/// The spec's greedy search from ep = 1 upward: fewest stepCycles; a tie
/// keeps the smaller ep (the one found first).
EpVp selectEpVp(const Engine &e, const LayerShape &s);

} // namespace accel::rnn

#endif
