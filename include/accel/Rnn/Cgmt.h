//===- Cgmt.h - Coarse-grained multithreading schedule model ----*- C++ -*-===//
//
// Mechanism 6 of spec/rnn-multithreading.md, analytically: each task (one
// RNN layer / model / batch slice) is a chain of steps that each keep the
// engine busy for busyCycles, then block for stallCycles until their h is
// written back. Sequentially the engine idles through every stall; with
// hardware thread contexts it switches to another ready task on a block.
// The cycle-accurate version belongs to the simulator; this one is the
// compiler's and the benchmark's estimate (docs/rnn.md "CGMT model").
//
//===----------------------------------------------------------------------===//
#ifndef ACCEL_RNN_CGMT_H
#define ACCEL_RNN_CGMT_H

#include "accel/Rnn/Parallelism.h"

#include <cstdint>
#include <string>
#include <vector>

namespace accel::rnn {

struct Task {
  std::string name;
  int64_t arrival = 0;
  int64_t steps = 1;
  int64_t busyCycles = 1; ///< engine cycles per step
  /// After a step, until the next step of the same task may start (h
  /// written back).
  int64_t stallCycles = 0;
};

struct Segment {
  int task;
  int64_t step, start, end; ///< [start, end): engine busy with the step
};

struct Schedule {
  int64_t makespan = 0;   ///< end of the last step (0 without steps)
  int64_t busyCycles = 0; ///< sum of all steps' busyCycles
  int64_t switches = 0;   ///< thread switches (each charged switchCycles)
  double utilisation = 0; ///< busyCycles / makespan
  std::vector<int64_t> start, finish; ///< per task: first step start, last end
  std::vector<Segment> segments;      ///< in time order
};

/// One task at a time, in arrival order (ties: list order); each task waits
/// out its own stalls; the next task starts when the previous one's last
/// step ends (and not before it arrives). No switches are counted.
Schedule runSequential(const std::vector<Task> &tasks);

/// Switch-on-block, round robin over `contexts` hardware thread contexts:
/// the running task keeps the engine while its next step is ready; when it
/// blocks, the next ready task after it in context order runs, paying
/// switchCycles (a switch: leaving a task that still has steps for another;
/// moving on from a finished task is free, as in runSequential). Tasks
/// beyond `contexts` queue in arrival order until a context frees (its
/// task's last step ended). A single task, or one context, gives exactly
/// runSequential's schedule.
Schedule runInterleaved(const std::vector<Task> &tasks, int64_t contexts,
                        int64_t switchCycles);

/// A task of `steps` time steps of a layer costed as `c`: busy for the
/// step's block cycles; blocked for the latency minus the x columns, which
/// column-wise computation issues before h is back.
Task layerTask(const std::string &name, const EpVp &c, int64_t steps,
               int64_t arrival = 0);

} // namespace accel::rnn

#endif
