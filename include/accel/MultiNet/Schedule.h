//===- Schedule.h - Time units and target EUs of every process -*- C++ -*-===//
//
// Steps S11 and S12 of spec/multi-network.md: every process gets a time unit
// (a producer's before its readers') and a set of target EUs. Processes are
// taken in time-unit order; among the ready ones the longest remaining chain
// goes first (least total idle time); each takes its pinned EUs or the free
// EUs of its target set that already hold most of its inputs, then need the
// fewest router hops to them, then already ran its network (reuse of data in
// an EU, fewest transfers), then the lowest number. A process that finds too
// few free EUs waits for the next time unit. docs/multi-network.md.
//
//===----------------------------------------------------------------------===//
#ifndef ACCEL_MULTINET_SCHEDULE_H
#define ACCEL_MULTINET_SCHEDULE_H

#include "accel/MultiNet/Plan.h"

namespace accel::multinet {

/// One result sent through the routers: from the producer's EU nearest to
/// the receivers (fewest summed hops; the lowest number on a tie) to every
/// EU of its readers that does not hold it already (a multicast).
struct Transfer {
  size_t producer = 0;
  int64_t from = 0;        ///< sending EU
  std::vector<int64_t> to; ///< receiving EUs
  int64_t bytes = 0;       ///< per receiver
  int64_t hops = 0;        ///< summed over the receivers
  int64_t time = 0;        ///< time unit of the first reader
};

struct Schedule {
  std::vector<int64_t> time;               ///< per process, from 0
  std::vector<std::vector<int64_t>> units; ///< per process, sorted
  std::vector<std::vector<size_t>> at;     ///< per time unit, its processes
  std::vector<Transfer> transfers;
  /// Interactions whose target sets do not meet, placed by
  /// ScheduleOptions::repairEmptyInteraction: any EU of the grid is theirs.
  std::vector<size_t> repaired;
  int64_t timeUnits() const { return int64_t(at.size()); }
};

struct ScheduleOptions {
  /// An interaction whose target sets do not meet is an error; with this
  /// option it runs on the free EU nearest (in hops) to its inputs.
  bool repairEmptyInteraction = false;
};

/// The EUs `p` may use (its targets inside the grid; all of them when it
/// names none), sorted.
std::vector<int64_t> targetUnits(const Plan &plan, const Process &p);

/// The EUs an interaction may use: the intersection of its `between` (else
/// `inputs`) processes' target sets.
std::vector<int64_t> interactionCandidates(const Plan &plan, size_t p);

/// Schedules every process. False, with `err` naming the process, when the
/// plan is impossible (a pinned EU off the grid or outside its targets, an
/// interaction with disjoint target sets, more EUs wanted than its targets
/// have, static data that fits no EU, a cycle among the inputs).
bool schedule(const Plan &plan, const ScheduleOptions &opts, Schedule &out,
              std::string &err);

/// Fills `s.transfers` from the time units and EUs of a schedule (made by
/// `schedule`, or read back from a placement the IR carries).
void addTransfers(const Plan &plan, Schedule &s);

/// Checks a schedule against its plan: every input in an earlier time unit,
/// EUs inside the grid and the targets, static data within every EU's
/// memory, and no two processes on one EU in one time unit unless both
/// take part in one interaction of that time unit.
bool verify(const Plan &plan, const Schedule &s, std::string &err);

} // namespace accel::multinet

#endif
