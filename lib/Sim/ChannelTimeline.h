//===- ChannelTimeline.h - When a memory channel is free --------*- C++ -*-===//
//
// A memory channel serves one DMA at a time (docs/simulator.md, "Memory
// channels"). DMAs reserve it in simulation order, and the simulator steps
// the earliest cluster first, so a DMA almost always asks for the channel at
// or after the end of the last reservation: one cursor (`free`) is the whole
// timeline.
//
// A DMA that reads a network input which arrives later (`accel-run
// --arrival`) is the exception: it asks for the channel far in the future.
// Moving the cursor there would make every DMA simulated after it wait for
// the arrival, those of other networks too. Such a reservation is kept
// *ahead* of the cursor instead: an interval that later DMAs skip over but
// do not wait for. Without delayed DMAs the ahead set stays empty and the
// timeline is the cursor alone (the same cycles as before it existed).
// Internal to lib/Sim; ChannelTimelineTest checks it.
//
//===----------------------------------------------------------------------===//
#ifndef ACCEL_LIB_SIM_CHANNELTIMELINE_H
#define ACCEL_LIB_SIM_CHANNELTIMELINE_H

#include <cstdint>
#include <iterator>
#include <map>

namespace accel::sim {

class ChannelTimeline {
public:
  /// Reserves `held` cycles for a DMA issued at `issued`; returns its start.
  /// A DMA issued after the cursor (`ahead`, a delayed input load) takes the
  /// first gap of the ahead set at or after `issued` and leaves the cursor
  /// where it is; any other DMA starts at max(issued, cursor), past the
  /// ahead reservations it would overlap, and moves the cursor to its end.
  uint64_t reserve(uint64_t issued, uint64_t held, bool ahead) {
    if (ahead && issued > free) {
      const uint64_t s = firstGap(issued, held);
      if (held > 0)
        aheadSet.emplace(s, s + held);
      return s;
    }
    const uint64_t s = firstGap(issued > free ? issued : free, held);
    free = s + held;
    dropPassed();
    return s;
  }

  /// The cursor: the end of the last reservation in simulation order.
  uint64_t cursor() const { return free; }
  /// Reservations ahead of the cursor still to be passed.
  size_t aheadCount() const { return aheadSet.size(); }

private:
  /// The first s >= from with [s, s + held) overlapping no ahead interval.
  uint64_t firstGap(uint64_t from, uint64_t held) const {
    uint64_t s = from;
    auto it = aheadSet.upper_bound(s);
    if (it != aheadSet.begin() && std::prev(it)->second > s)
      --it;
    // The intervals are disjoint and sorted: each one that overlaps
    // [s, s + held) pushes s to its end; the first that starts at or after
    // s + held leaves room.
    for (; it != aheadSet.end(); ++it) {
      if (it->first >= s + held)
        break;
      if (it->second > s)
        s = it->second;
    }
    return s;
  }

  /// Ahead intervals that end at or before the cursor can no longer be hit:
  /// every later request starts at or after it.
  void dropPassed() {
    while (!aheadSet.empty() && aheadSet.begin()->second <= free)
      aheadSet.erase(aheadSet.begin());
  }

  uint64_t free = 0;
  std::map<uint64_t, uint64_t> aheadSet; ///< start -> end, disjoint
};

} // namespace accel::sim

#endif // ACCEL_LIB_SIM_CHANNELTIMELINE_H
