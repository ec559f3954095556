//===- Power.h - Power gating, time and energy of a schedule ----*- C++ -*-===//
//
// Power gating of spec/multi-network.md: an EU is switched off in a time unit
// when it runs nothing in it and nothing in the next one (an EU needed next
// is starting up). Times under both synchronisation styles the spec leaves
// open (a barrier per time unit; dataflow firing on arrival) and energy
// (static power per on-cycle, energy per MAC and per byte-hop) with and
// without gating. docs/multi-network.md.
//
//===----------------------------------------------------------------------===//
#ifndef ACCEL_MULTINET_POWER_H
#define ACCEL_MULTINET_POWER_H

#include "accel/MultiNet/Schedule.h"

namespace accel::multinet {

/// Per time unit, the EUs switched off (sorted unit numbers).
using OffSets = std::vector<std::vector<int64_t>>;

/// The full sets: not used in time unit t nor in t + 1.
OffSets offSets(const Plan &plan, const Schedule &s);

/// A user's sets (e.g. the spec's conservative subsets in E5), one list per
/// time unit: each must lie inside the full set of its time unit (never an
/// EU that runs in it or in the next). False with `err` naming the first EU
/// that may not be off.
bool checkOffSets(const Plan &plan, const Schedule &s,
                  const std::vector<std::vector<Coord>> &sets, OffSets &out,
                  std::string &err);

struct CostModel {
  int64_t hopLatency = 2;
  double linkBytesPerCycle = 32;
  int64_t wakeLatency = 1000;
  double staticPjPerCycle = 50; ///< per EU that is on (or waking)
  double pjPerMac = 1, pjPerByteHop = 0.5;
};

struct Timing {
  /// Barrier per time unit: unitStart[t], and unitStart.back() = makespan.
  std::vector<int64_t> unitStart;
  int64_t barrierMakespan = 0;
  /// Dataflow: a process starts when its inputs have arrived and its EUs
  /// are free (and awake).
  std::vector<int64_t> start, finish;
  int64_t dataflowMakespan = 0;
};

/// `off` (optional) delays an EU that wakes for a time unit: switched on at
/// the start of the time unit before, it runs wakeLatency cycles later.
Timing timeSchedule(const Plan &plan, const Schedule &s, const CostModel &c,
                    const OffSets *off = nullptr);

struct Energy {
  double staticPj = 0, macPj = 0, hopPj = 0;
  double total() const { return staticPj + macPj + hopPj; }
};

/// Energy of the barrier-synchronised run: every EU on for the whole
/// makespan except during the time units `off` switches it off.
Energy energyOf(const Plan &plan, const Schedule &s, const Timing &t,
                const CostModel &c, const OffSets *off = nullptr);

} // namespace accel::multinet

#endif
