//===- DataLanes.h - The simulator's data work on several host threads ----===//
//
// The simulator decides everything (checks, timing, hazards, statistics)
// from addresses and shapes on its own thread; the bytes (DMA copies, LD /
// MAC / ST / SPU tiles, SEND payloads) are tasks run on lanes, one helper
// thread each (accel/Support/OrderedWorker.h). Cluster c's tasks go to lane
// c % lanes, in issue order. Tasks of different lanes run at the same time
// unless they touch the same bytes with at least one write; then the later
// one (in issue order) waits until the earlier one's lane has passed it
// (`After`). Every byte then ends up as the sequential run leaves it
// (docs/simulator.md, "Eighth round"). Internal to lib/Sim.
//
//===----------------------------------------------------------------------===//
#ifndef ACCEL_LIB_SIM_DATALANES_H
#define ACCEL_LIB_SIM_DATALANES_H

#include "accel/Support/OrderedWorker.h"

#include <array>
#include <atomic>
#include <deque>
#include <memory>
#include <string>
#include <thread>
#include <vector>

namespace accel {
namespace sim {

class DataLanes {
public:
  static constexpr unsigned kMaxLanes = 8;

  /// Points other lanes must have passed before a task runs: lane l's
  /// first `seq[l]` tasks (0: none).
  struct After {
    std::array<uint64_t, kMaxLanes> seq{};
    void need(unsigned lane, uint64_t s) {
      seq[lane] = seq[lane] > s ? seq[lane] : s;
    }
    void merge(const After &o) {
      for (unsigned l = 0; l < kMaxLanes; ++l)
        need(l, o.seq[l]);
    }
  };

  /// `lanes` lanes (1 .. kMaxLanes); lane 0 is the caller's thread (its
  /// tasks run as they are pushed), the others have a thread each. The
  /// caller takes a lane because the deciding is a small part of a run:
  /// a thread of its own would mostly wait, and spinning threads beyond
  /// the host's cores slow everyone.
  explicit DataLanes(unsigned lanes);
  /// Runs every queued task first: a lane's task may wait for another
  /// lane, which must still exist.
  ~DataLanes() { drain(); }
  DataLanes(const DataLanes &) = delete;
  DataLanes &operator=(const DataLanes &) = delete;

  unsigned count() const { return unsigned(lanes.size()); }
  bool threaded() const { return lanes.size() > 1; }

  /// Queues `task` on `lane` after `after`; returns its number in the lane
  /// (1, 2, ...).
  template <class F>
  uint64_t push(unsigned lane, const After &after, F &&task) {
    Lane &l = *lanes[lane];
    const uint64_t seq = ++l.issued;
    l.worker.push(
        [this, lane, seq, after, task = std::forward<F>(task)]() mutable {
          waitFor(lane, after);
          task();
          lanes[lane]->done.store(seq, std::memory_order_release);
        });
    return seq;
  }

  /// Tasks queued on `lane` so far, and how many of them have run.
  uint64_t issued(unsigned lane) const { return lanes[lane]->issued; }
  uint64_t done(unsigned lane) const {
    return lanes[lane]->done.load(std::memory_order_acquire);
  }

  /// Makes every queued task visible to its lane's thread (each lane
  /// publishes its tasks in batches; a lane may wait for another's task).
  void flushAll();

  /// Tasks pushed while a helper lane's queue was full, so far (the
  /// helpers are behind: the simulator's thread should keep more work).
  uint64_t fullWaits() const;

  /// Returns once every queued task has run.
  void drain();
  /// The first failure of a task ("" if none).
  std::string error() const;

private:
  struct Lane {
    explicit Lane(bool threaded) : worker(threaded, size_t(64) << 10) {}
    uint64_t issued = 0; ///< the producer's count
    alignas(64) std::atomic<uint64_t> done{0};
    OrderedWorker worker; ///< last: stops first
  };
  void waitFor(unsigned lane, const After &after);

  std::vector<std::unique_ptr<Lane>> lanes;
};

/// The DRAM bytes each lane's queued tasks touch, to find what a new task
/// must wait for: a read waits for the other lanes' queued writes of its
/// bytes, a write for their queued reads and writes. The lists stay short:
/// a lane's ring holds a few hundred tasks, and the tasks a lane has run
/// are dropped at the next check.
class DramConflicts {
public:
  explicit DramConflicts(unsigned lanes) : pending(lanes) {}
  /// Adds to `after`, for every lane but `lane`, its last queued task that
  /// touches [lo, hi) and conflicts (one of the two writes).
  void check(const DataLanes &lanes, unsigned lane, uint64_t lo, uint64_t hi,
             bool write, DataLanes::After &after);
  /// Task `seq` of `lane` touches [lo, hi). The lane's tasks that have run
  /// are dropped here too: a lane no other lane checks against (every
  /// cluster on it) would otherwise keep them all.
  void record(const DataLanes &lanes, unsigned lane, uint64_t seq, uint64_t lo,
              uint64_t hi, bool write) {
    prune(lanes, lane);
    pending[lane].push_back({lo, hi, seq, write});
  }

private:
  struct Span {
    uint64_t lo, hi, seq;
    bool write;
  };
  void prune(const DataLanes &lanes, unsigned lane) {
    std::deque<Span> &q = pending[lane];
    const uint64_t done = lanes.done(lane);
    while (!q.empty() && q.front().seq <= done)
      q.pop_front();
  }
  std::vector<std::deque<Span>> pending;
};

} // namespace sim
} // namespace accel

#endif
