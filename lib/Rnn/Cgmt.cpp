//===- Cgmt.cpp - Coarse-grained multithreading schedule model ------------===//
#include "accel/Rnn/Cgmt.h"

#include <algorithm>
#include <limits>
#include <numeric>

using namespace accel;
using namespace accel::rnn;

namespace {

constexpr int64_t kNever = std::numeric_limits<int64_t>::max();

/// Task indices by arrival, ties in list order.
std::vector<int> arrivalOrder(const std::vector<Task> &tasks) {
  std::vector<int> order(tasks.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
    return tasks[a].arrival < tasks[b].arrival;
  });
  return order;
}

Schedule emptySchedule(const std::vector<Task> &tasks) {
  Schedule s;
  s.start.assign(tasks.size(), -1);
  s.finish.assign(tasks.size(), -1);
  return s;
}

/// Records a step on the engine.
void place(Schedule &s, const Task &t, int task, int64_t step, int64_t at) {
  s.segments.push_back({task, step, at, at + t.busyCycles});
  if (step == 0)
    s.start[task] = at;
  if (step == t.steps - 1)
    s.finish[task] = at + t.busyCycles;
  s.busyCycles += t.busyCycles;
  s.makespan = std::max(s.makespan, at + t.busyCycles);
}

void finishStats(Schedule &s) {
  s.utilisation = s.makespan ? double(s.busyCycles) / double(s.makespan) : 0;
}

/// Progress of one task inside runInterleaved.
struct Thread {
  int task = -1;
  int64_t next = 0;  ///< next step
  int64_t ready = 0; ///< earliest start of that step
};

} // namespace

Schedule rnn::runSequential(const std::vector<Task> &tasks) {
  Schedule s = emptySchedule(tasks);
  int64_t now = 0;
  for (int i : arrivalOrder(tasks)) {
    const Task &t = tasks[i];
    int64_t ready = std::max(now, t.arrival);
    for (int64_t k = 0; k < t.steps; ++k) {
      place(s, t, i, k, ready);
      now = ready + t.busyCycles;
      ready = now + t.stallCycles;
    }
  }
  finishStats(s);
  return s;
}

namespace {

/// The interleaved engine: contexts hold admitted threads; a queue holds
/// the tasks still waiting for a context.
struct Interleaver {
  Interleaver(const std::vector<Task> &tasks, int64_t contexts,
              int64_t switchCycles)
      : tasks(tasks), switchCycles(switchCycles),
        slots(static_cast<size_t>(std::max<int64_t>(1, contexts))),
        queue(arrivalOrder(tasks)), s(emptySchedule(tasks)) {}

  const std::vector<Task> &tasks;
  int64_t switchCycles;
  std::vector<Thread> slots; ///< task -1 = free context
  std::vector<int> queue;    ///< arrival order
  size_t queued = 0;         ///< tasks of queue already admitted
  int last = -1;             ///< slot of the task that ran last
  int lastTask = -1;         ///< that task (its slot may hold a new one)
  int64_t now = 0;
  Schedule s;

  /// Fills free contexts with arrived queued tasks.
  void admit() {
    for (Thread &th : slots)
      if (th.task < 0 && queued < queue.size() &&
          tasks[queue[queued]].arrival <= now) {
        const Task &t = tasks[queue[queued]];
        th = Thread{queue[queued++], 0, t.arrival};
        if (t.steps <= 0) // nothing to run: the context frees at once
          th.task = -1;
      }
  }
  /// Slot to run at `now`: the last one while it is ready (switch on block
  /// only), else the first ready one after it in context order; -1 = none.
  int pick() const {
    const int n = int(slots.size());
    if (last >= 0 && slots[last].task == lastTask && slots[last].ready <= now)
      return last;
    for (int d = 1; d <= n; ++d) {
      int i = ((last < 0 ? -1 : last) + d) % n;
      if (slots[i].task >= 0 && slots[i].ready <= now)
        return i;
    }
    return -1;
  }
  /// Earliest time something can happen when nothing is ready now.
  int64_t nextEvent() const {
    int64_t t = kNever;
    bool freeSlot = false;
    for (const Thread &th : slots) {
      if (th.task >= 0)
        t = std::min(t, th.ready);
      freeSlot |= th.task < 0;
    }
    if (freeSlot && queued < queue.size())
      t = std::min(t, tasks[queue[queued]].arrival);
    return t;
  }
  void run(int i) {
    Thread &th = slots[i];
    const Task &t = tasks[th.task];
    int64_t at = now;
    // A switch leaves a live thread (its context keeps its state) for
    // another; moving on from a finished task is what a sequential engine
    // does too and costs nothing, so one context == runSequential.
    const bool lastLive = last >= 0 && slots[last].task == lastTask;
    if (lastLive && th.task != lastTask) {
      at += switchCycles;
      ++s.switches;
    }
    place(s, t, th.task, th.next, at);
    now = at + t.busyCycles;
    th.ready = now + t.stallCycles;
    lastTask = th.task;
    last = i;
    if (++th.next == t.steps)
      th.task = -1;
  }
};

} // namespace

Schedule rnn::runInterleaved(const std::vector<Task> &tasks, int64_t contexts,
                             int64_t switchCycles) {
  Interleaver in(tasks, contexts, switchCycles);
  for (;;) {
    in.admit();
    int i = in.pick();
    if (i >= 0) {
      in.run(i);
      continue;
    }
    int64_t t = in.nextEvent();
    if (t == kNever)
      break;
    in.now = std::max(in.now, t);
  }
  finishStats(in.s);
  return in.s;
}

Task rnn::layerTask(const std::string &name, const EpVp &c, int64_t steps,
                    int64_t arrival) {
  Task t;
  t.name = name;
  t.arrival = arrival;
  t.steps = steps;
  t.busyCycles = c.blockCycles;
  t.stallCycles = std::max<int64_t>(0, c.latency - c.xBlockCycles);
  return t;
}
