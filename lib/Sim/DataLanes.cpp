//===- DataLanes.cpp - The simulator's data work on several host threads --===//
#include "DataLanes.h"

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define ACCEL_LANE_PAUSE() _mm_pause()
#else
#define ACCEL_LANE_PAUSE() std::this_thread::yield()
#endif

namespace accel {
namespace sim {

DataLanes::DataLanes(unsigned n) {
  n = n < 1 ? 1 : n < kMaxLanes ? n : kMaxLanes;
  for (unsigned i = 0; i < n; ++i) {
    lanes.push_back(std::make_unique<Lane>(i > 0));
    // Before the simulator's thread blocks on one lane, every lane's tasks
    // are published: the task it waits for may wait for another lane's.
    lanes.back()->worker.setBeforeBlocking(
        [](void *self) { static_cast<DataLanes *>(self)->flushAll(); }, this);
  }
}

void DataLanes::flushAll() {
  for (auto &l : lanes)
    l->worker.flush();
}

uint64_t DataLanes::fullWaits() const {
  uint64_t n = 0;
  for (const auto &l : lanes)
    n += l->worker.fullWaits();
  return n;
}

void DataLanes::waitFor(unsigned lane, const After &after) {
  for (unsigned l = 0; l < lanes.size(); ++l) {
    if (l == lane || !after.seq[l])
      continue;
    const std::atomic<uint64_t> &done = lanes[l]->done;
    // Lane 0 is the producer's thread: it publishes what it waits for.
    if (lane == 0 && done.load(std::memory_order_acquire) < after.seq[l])
      flushAll();
    // The other lane is running (its tasks are queued before ours in issue
    // order, so it never waits for this one): spin briefly, then give the
    // core away, since the host may have fewer cores than threads.
    for (unsigned spin = 0; done.load(std::memory_order_acquire) < after.seq[l];
         ++spin) {
      if (spin < 4096)
        ACCEL_LANE_PAUSE();
      else
        std::this_thread::yield();
    }
  }
}

void DataLanes::drain() {
  flushAll();
  for (auto &l : lanes)
    l->worker.drain();
}

std::string DataLanes::error() const {
  std::string e;
  for (const auto &l : lanes)
    if (e.empty())
      e = l->worker.error();
  return e;
}

void DramConflicts::check(const DataLanes &lanes, unsigned lane, uint64_t lo,
                          uint64_t hi, bool write, DataLanes::After &after) {
  for (unsigned l = 0; l < pending.size(); ++l) {
    if (l == lane)
      continue;
    prune(lanes, l);
    const std::deque<Span> &q = pending[l];
    // Newest first: the first conflict is the one to wait for.
    for (auto it = q.rbegin(); it != q.rend(); ++it)
      if ((write || it->write) && it->lo < hi && lo < it->hi) {
        after.need(l, it->seq);
        break;
      }
  }
}

} // namespace sim
} // namespace accel
