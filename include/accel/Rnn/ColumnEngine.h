//===- ColumnEngine.h - Block-level cycle model of the RNN engine -*- C++
//-*-===//
//
// The column-wise engine of spec/rnn-multithreading.md on one cluster's PE
// array, block by block: each time step issues weight blocks of vp x ep,
// x columns first, then h columns, and an h column block issues only once
// every h element it multiplies has been written back by the previous step
// (row-interleaved gates: the elements of a row block are written back when
// that row block's last column block has gone through the multiplier, the
// adder tree and the accumulator, then through the cluster's SFU - shared by
// every thread, pes * sfu_lanes element operations per cycle, row blocks in
// the order they become final - for the gate activations and the cell's
// tail, and the write-back).
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
#include "accel/Rnn/Parallelism.h"
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
  int64_t candidateVp = 0; ///< GRU candidate phase (0: vp)
  /// Thread context the task must run in (-1: any free one; ids beyond the
  /// contexts wrap around). A task waits until its context is free.
  int64_t thread = -1;
  int64_t arrival = 0;
  /// GRU: the candidate's recurrent product multiplies h (then r scales
  /// it) instead of r * h, so it does not wait for r.
  bool linearBeforeReset = false;
  /// Where the weight blocks come from: bytes per cycle the path delivers
  /// to the multipliers (0 = unlimited: weights held next to them). A
  /// batch-1 step reuses no weight, so a block of ep x vp weights needs
  /// ep * vp * weightElemBytes bytes and cannot issue faster than the path
  /// delivers them (see dramShareBytesPerCycle).
  double weightBytesPerCycle = 0;
  int64_t weightElemBytes = 4;
};

struct EngineTaskRun {
  int64_t start = 0;       ///< first block issued
  int64_t finish = 0;      ///< last h element written back
  int64_t lastIssue = 0;   ///< end of its last block on the engine
  int64_t issueCycles = 0; ///< engine cycles its blocks took
  int64_t context = 0;     ///< thread context it ran in
};

/// One issued weight block (EngineRun::blocks, when recorded).
struct EngineBlock {
  size_t task = 0;
  int64_t step = 0;
  int phase = 0;
  bool overH = false;
  int64_t c0 = 0, c1 = 0; ///< columns of x or h it multiplies
  int64_t rowBlock = 0;
  int64_t start = 0, end = 0;
  int64_t inputsReady = 0; ///< when every element it reads was there
};

struct EngineRun {
  int64_t makespan = 0;    ///< last write-back of any task
  int64_t issueCycles = 0; ///< cycles the engine issued blocks
  int64_t idleCycles = 0;  ///< cycles no thread could issue
  int64_t switchCycles = 0;
  int64_t switches = 0;
  int64_t sfuCycles = 0;     ///< cycles the SFU spent on activations and tails
  int64_t macs = 0;          ///< useful products (rows x cols per step)
  double macUtilisation = 0; ///< macs / (npe * makespan)
  std::vector<EngineTaskRun> tasks;
  std::vector<EngineBlock> blocks; ///< issue order (if recorded)
};

/// Cycles between two block issues of `t` with `vp` rows (a phase's vp,
/// capped by its rows; >= 1): the CAT limit (catSlowDown), and the weight
/// path (ceil(ep * vp * weightElemBytes / weightBytesPerCycle)).
int64_t blockIssueInterval(const Engine &e, const EngineTask &t, int64_t vp);

/// One cluster's share of DRAM bandwidth for weights it reads from DRAM:
/// every channel's bytes per cycle, shared by `clustersStreaming` clusters.
double dramShareBytesPerCycle(const HardwareDesc &hw,
                              int64_t clustersStreaming);

/// Runs `tasks` on one engine with `contexts` thread contexts (1 = one task
/// at a time, in arrival order: no multithreading).
EngineRun runEngine(const Engine &e, const std::vector<EngineTask> &tasks,
                    int64_t contexts, bool recordBlocks = false);

} // namespace accel::rnn

#endif
