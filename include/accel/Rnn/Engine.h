//===- Engine.h - One cluster's PE array as the RNN engine ------*- C++ -*-===//
//
// spec/rnn-multithreading.md describes an engine of npe multipliers feeding
// adder trees with a configurable adder tail (CAT). Here that engine is one
// cluster's PE array: every PE is an ep_max-wide adder tree over its MAC
// lanes, so npe = pes * mac_lanes. Engine gathers the parameters the cost
// model and the scheduler use, in signed 64-bit arithmetic (docs/rnn.md).
//
//===----------------------------------------------------------------------===//
#ifndef ACCEL_RNN_ENGINE_H
#define ACCEL_RNN_ENGINE_H

#include "accel/Hardware/HardwareDesc.h"

#include <cstdint>

namespace accel::rnn {

struct Engine {
  int64_t npe = 0; ///< = pes * macLanes of one cluster
  int64_t pes = 0, macLanes = 0;
  int64_t epMax = 0;    ///< adder-tree width (<= macLanes)
  int64_t catWidth = 0; ///< CAT-n: accumulators a tree can update per cycle
  int64_t multiplierLatency = 0, treeLevelLatency = 0, accumulatorLatency = 0,
          activationLatency = 0, tailLatency = 0, writeBackLatency = 0;
  /// The cluster's SFUs (pes * sfu_lanes): element operations per cycle for
  /// the gate activations and the cell's tail (0 = unlimited, latency only).
  int64_t sfuElemsPerCycle = 0;
  int64_t threadContexts = 0; ///< = cluster.instruction_buffers
  int64_t switchCycles = 0;   ///< rnn.thread_switch_cycles
};

Engine engineOf(const HardwareDesc &hw);

} // namespace accel::rnn

#endif
