//===- Engine.cpp - One cluster's PE array as the RNN engine --------------===//
#include "accel/Rnn/Engine.h"

using namespace accel;

rnn::Engine rnn::engineOf(const HardwareDesc &hw) {
  Engine e;
  e.pes = hw.pesPerCluster;
  e.macLanes = hw.macLanes;
  e.npe = int64_t(hw.rnnNpe());
  e.epMax = hw.rnnEpMax;
  e.catWidth = hw.rnnCatWidth;
  e.multiplierLatency = hw.rnnMultiplierLatency;
  e.treeLevelLatency = hw.rnnAdderTreeLevelLatency;
  e.accumulatorLatency = hw.rnnAccumulatorLatency;
  e.activationLatency = hw.rnnActivationLatency;
  e.tailLatency = hw.rnnTailLatency;
  e.writeBackLatency = hw.rnnWriteBackLatency;
  e.sfuElemsPerCycle = int64_t(hw.pesPerCluster) * int64_t(hw.sfuLanes);
  e.threadContexts = hw.instructionBuffers;
  e.switchCycles = hw.threadSwitchCycles;
  return e;
}
