//===- ColumnEngine.h - Block-level cycle model of the RNN engine -*- C++ -*-===//
//
// The column-wise engine of spec/rnn-multithreading.md on one cluster's PE
// array, block by block: each time step issues weight blocks of vp x ep,
// x columns first, then h columns, and an h column block issues only once
// every h element it multiplies has been written back by the previous step
// (row-interleaved gates: the elements of a row block are written back when
// that row block's last column block has gone through the multiplier, the
// adder tree, the accumulator, the activation, the tail and the write-back).
// Several tasks share the engine through hardware thread contexts: when the
// running thread's next block would read an element that is not written
// back yet, the engine switches to the next ready thread (round robin, a
// switch costs Engine::switchCycles); tasks beyond the contexts queue.
//
// This is the cycle model itself, not a prediction: it switches on the real
// readiness of every h element. docs/rnn.md, "Block-level engine model".
//
//===----------------------------------------------------------------------===//
#ifndef ACCEL_RNN_COLUMNENGINE_H
#define ACCEL_RNN_COLUMNENGINE_H

#include "accel/Rnn/Engine.h"
#include "accel/Rnn/GatePacking.h"
#include <cstdint>
#include <string>
#include <vector>

namespace accel::rnn {

/// One RNN task (a model, a direction of a layer, or a batch slice).
struct EngineTask {
  std::string name;
  Cell cell = Cell::Lstm;
  int64_t hidden = 1, inputs = 1; ///< lh, lx
  int64_t steps = 1;
  int64_t ep = 1, vp = 1;
  int64_t arrival = 0;
  /// GRU: the candidate's recurrent product multiplies h (then r scales
  /// it) instead of r * h, so it does not wait for r.
  bool linearBeforeReset = false;
};

struct EngineTaskRun {
  int64_t start = 0;  ///< first block issued
  int64_t finish = 0; ///< last h element written back
};

struct EngineRun {
  int64_t makespan = 0;    ///< last write-back of any task
  int64_t issueCycles = 0; ///< cycles the engine issued blocks
  int64_t idleCycles = 0;  ///< cycles no thread could issue
  int64_t switchCycles = 0;
  int64_t switches = 0;
  int64_t macs = 0;        ///< useful products (rows x cols per step)
  double macUtilisation = 0; ///< macs / (npe * makespan)
  std::vector<EngineTaskRun> tasks;
};

/// Cycles between two block issues at `ep` (>= 1): the CAT can update
/// catWidth accumulators per cycle, and a tree narrower than epMax yields
/// epMax / ep partial sums per cycle.
int64_t blockIssueInterval(const Engine &e, int64_t ep);

/// Multiplier + log2(ep) adder-tree levels + accumulator.
int64_t productLatency(const Engine &e, int64_t ep);

/// Runs `tasks` on one engine with `contexts` thread contexts (1 = one task
/// at a time, in arrival order: no multithreading).
EngineRun runEngine(const Engine &e, const std::vector<EngineTask> &tasks,
                    int64_t contexts);

} // namespace accel::rnn

#endif
