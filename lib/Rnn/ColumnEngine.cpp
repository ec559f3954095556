//===- ColumnEngine.cpp - Block-level cycle model of the RNN engine -------===//
#include "accel/Rnn/ColumnEngine.h"
#include "accel/Hardware/HardwareDesc.h"
#include <algorithm>
#include <cassert>
#include <cmath>
#include <deque>

namespace accel::rnn {

namespace {

int64_t ceilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

/// One merged product of a step: a GRU has two (z|r, then the candidate).
struct Phase {
  int64_t rows = 0;  ///< gates x hidden
  int64_t gates = 1; ///< rows per h element (row-interleaved)
  int64_t vp = 1;    ///< min(vp, rows)
  int64_t rowBlocks() const { return ceilDiv(rows, vp); }
};

/// A run of column blocks of one phase over x or over h.
struct Group {
  int phase = 0;
  bool overH = false;
  int64_t c0 = 0, c1 = 0; ///< columns [c0, c1) of x or of h
};

std::vector<Phase> phasesOf(const EngineTask &t) {
  int64_t h = t.hidden;
  switch (t.cell) {
  case Cell::Lstm:
    return {{4 * h, 4, std::min(t.vp, 4 * h)}};
  case Cell::Gru: {
    int64_t cvp = t.candidateVp > 0 ? t.candidateVp : t.vp;
    return {{2 * h, 2, std::min(t.vp, 2 * h)}, {h, 1, std::min(cvp, h)}};
  }
  case Cell::Rnn:
    return {{h, 1, std::min(t.vp, h)}};
  }
  return {};
}

/// Issue order of one step: every phase's x blocks (no dependency), then
/// every phase's h blocks in element order, so the blocks that wait for
/// the previous step come last and in the order the elements are
/// written back. Blocks never straddle the x | h boundary.
std::vector<Group> groupsOf(const EngineTask &t, size_t phases) {
  std::vector<Group> g;
  for (bool overH : {false, true})
    for (size_t p = 0; p < phases; ++p) {
      int64_t n = overH ? t.hidden : t.inputs;
      for (int64_t c = 0; c < n; c += t.ep)
        g.push_back({int(p), overH, c, std::min(n, c + t.ep)});
    }
  return g;
}

/// The state of one task on the engine.
struct Thread {
  const EngineTask *task = nullptr;
  size_t index = 0;
  std::vector<Phase> phases;
  std::vector<Group> groups;
  std::vector<size_t> lastGroupOf; ///< per phase
  int64_t step = 0;
  size_t group = 0;
  int64_t rowBlock = 0;
  int64_t groupReady = 0;      ///< when the current group's columns are there
  std::vector<int64_t> hReady; ///< h_{t-1}[j] written back
  std::vector<int64_t> rReady; ///< GRU: r_t[j] out of the activation
  std::vector<int64_t> zReady; ///< GRU: z_t[j] out of the activation
  std::vector<std::vector<int64_t>> rowFinal; ///< per phase, per row
  bool started = false;
  int64_t context = 0;
};

class Model {
public:
  Model(const Engine &e, const std::vector<EngineTask> &tasks, int64_t contexts,
        bool recordBlocks)
      : e(e), tasks(tasks), contexts(std::max<int64_t>(1, contexts)),
        recordBlocks(recordBlocks) {
    busy.assign(size_t(this->contexts), false);
    run.tasks.resize(tasks.size());
    for (size_t i = 0; i < tasks.size(); ++i)
      queue.push_back(i);
    std::stable_sort(queue.begin(), queue.end(), [&](size_t a, size_t b) {
      return tasks[a].arrival < tasks[b].arrival;
    });
  }

  EngineRun simulate() {
    while (!queue.empty() || !active.empty()) {
      admit();
      if (active.empty()) {
        int64_t next = INT64_MAX;
        for (size_t q : queue)
          if (freeContext(tasks[q].thread) >= 0)
            next = std::min(next, tasks[q].arrival);
        assert(next != INT64_MAX && "a queued task's context is never freed");
        now = std::max(now, next);
        continue;
      }
      int pick = choose();
      if (pick < 0) {
        idleUntilNextEvent();
        continue;
      }
      issue(size_t(pick));
    }
    finishStats();
    return run;
  }

private:
  /// Arrived tasks take their thread context (or the lowest free one) in
  /// arrival order; a task whose context is busy lets later ones by.
  void admit() {
    for (auto it = queue.begin(); it != queue.end();) {
      const EngineTask &t = tasks[*it];
      if (t.arrival > now)
        break;
      int64_t ctx = freeContext(t.thread);
      if (ctx < 0) {
        ++it;
        continue;
      }
      busy[size_t(ctx)] = true;
      active.push_back(makeThread(*it));
      active.back().context = ctx;
      run.tasks[*it].context = ctx;
      it = queue.erase(it);
    }
  }

  int64_t freeContext(int64_t wanted) const {
    if (wanted >= 0) {
      int64_t k = wanted % contexts;
      return busy[size_t(k)] ? -1 : k;
    }
    for (int64_t k = 0; k < contexts; ++k)
      if (!busy[size_t(k)])
        return k;
    return -1;
  }

  Thread makeThread(size_t i) {
    Thread t;
    t.task = &tasks[i];
    t.index = i;
    t.phases = phasesOf(tasks[i]);
    t.groups = groupsOf(tasks[i], t.phases.size());
    t.lastGroupOf.assign(t.phases.size(), 0);
    for (size_t g = 0; g < t.groups.size(); ++g)
      t.lastGroupOf[size_t(t.groups[g].phase)] = g;
    t.hReady.assign(size_t(tasks[i].hidden), tasks[i].arrival);
    t.rReady.assign(size_t(tasks[i].hidden), 0);
    t.zReady.assign(size_t(tasks[i].hidden), 0);
    for (const Phase &p : t.phases)
      t.rowFinal.emplace_back(size_t(p.rows), 0);
    t.groupReady = groupReadyTime(t);
    return t;
  }

  /// When the columns of the thread's current group are available.
  int64_t groupReadyTime(const Thread &t) const {
    const Group &g = t.groups[t.group];
    if (!g.overH)
      return t.task->arrival;
    int64_t ready = 0;
    bool needsR =
        t.task->cell == Cell::Gru && g.phase == 1 && !t.task->linearBeforeReset;
    for (int64_t j = g.c0; j < g.c1; ++j) {
      ready = std::max(ready, t.hReady[size_t(j)]);
      if (needsR)
        ready = std::max(ready, t.rReady[size_t(j)]);
    }
    return ready;
  }

  /// The running thread goes on while it can; otherwise the next ready
  /// thread in round-robin order; -1 when none can issue now.
  int choose() const {
    size_t n = active.size();
    size_t from = current < n ? current : 0;
    for (size_t k = 0; k < n; ++k) {
      size_t i = (from + k) % n;
      if (active[i].groupReady <= now)
        return int(i);
    }
    return -1;
  }

  void idleUntilNextEvent() {
    int64_t next = INT64_MAX;
    for (const Thread &t : active)
      next = std::min(next, t.groupReady);
    for (size_t q : queue)
      if (tasks[q].arrival > now && freeContext(tasks[q].thread) >= 0)
        next = std::min(next, tasks[q].arrival);
    assert(next > now && next != INT64_MAX);
    run.idleCycles += next - now;
    now = next;
  }

  void issue(size_t i) {
    // Switching away from a thread that is still there (blocked) costs the
    // penalty; the first issue, or taking over after a thread finished,
    // does not: one task alone never pays it.
    if (lastThread != SIZE_MAX && lastThread != active[i].index &&
        lastStillActive()) {
      now += e.switchCycles;
      run.switchCycles += e.switchCycles;
      ++run.switches;
    }
    Thread &t = active[i];
    current = i;
    lastThread = t.index;
    if (!t.started) {
      t.started = true;
      run.tasks[t.index].start = now;
    }
    const Phase &phase = t.phases[size_t(t.groups[t.group].phase)];
    int64_t interval = blockIssueInterval(e, *t.task, phase.vp);
    if (recordBlocks) {
      const Group &g = t.groups[t.group];
      run.blocks.push_back({t.index, t.step, g.phase, g.overH, g.c0, g.c1,
                            t.rowBlock, now, now + interval, t.groupReady});
    }
    now += interval;
    run.issueCycles += interval;
    run.tasks[t.index].issueCycles += interval;
    run.tasks[t.index].lastIssue = now;
    retireBlock(t, now);
    if (advance(t)) {
      busy[size_t(t.context)] = false;
      active.erase(active.begin() + std::ptrdiff_t(i));
      if (current >= active.size())
        current = 0;
    }
  }

  bool lastStillActive() const {
    for (const Thread &t : active)
      if (t.index == lastThread)
        return true;
    return false;
  }

  /// A block of the phase's last group makes its row block's sums final.
  void retireBlock(Thread &t, int64_t issuedEnd) {
    const Group &g = t.groups[t.group];
    if (t.lastGroupOf[size_t(g.phase)] != t.group)
      return;
    const Phase &p = t.phases[size_t(g.phase)];
    int64_t r0 = t.rowBlock * p.vp, r1 = std::min(p.rows, r0 + p.vp);
    int64_t final = issuedEnd + productLatency(e, t.task->ep);
    for (int64_t r = r0; r < r1; ++r)
      t.rowFinal[size_t(g.phase)][size_t(r)] = final;
  }

  /// Moves to the next block; true when the task has issued its last one.
  bool advance(Thread &t) {
    const Phase &p = t.phases[size_t(t.groups[t.group].phase)];
    if (++t.rowBlock < p.rowBlocks())
      return false;
    t.rowBlock = 0;
    if (t.task->cell == Cell::Gru && t.group == t.lastGroupOf[0])
      computeR(t);
    if (++t.group == t.groups.size()) {
      t.group = 0;
      computeH(t);
      if (++t.step == t.task->steps) {
        int64_t last = 0;
        for (int64_t v : t.hReady)
          last = std::max(last, v);
        run.tasks[t.index].finish = last;
        return true;
      }
    }
    t.groupReady = groupReadyTime(t);
    return false;
  }

  /// The cluster's SFU activates a phase's rows (and runs the tail of the
  /// elements whose last gate row they hold, `tailOps` each) row block by
  /// row block, as the blocks become final: one SFU shared by every thread,
  /// in the order the row blocks retire, ceil(ops / sfuElemsPerCycle) cycles
  /// a block. Returns, per row, when its block left the SFU's issue stage.
  std::vector<int64_t> runSfu(const Thread &t, size_t phase, int64_t tailOps) {
    const Phase &p = t.phases[phase];
    const std::vector<int64_t> &final = t.rowFinal[phase];
    std::vector<int64_t> issued(size_t(p.rows), 0);
    for (int64_t r0 = 0; r0 < p.rows; r0 += p.vp) {
      int64_t r1 = std::min(p.rows, r0 + p.vp);
      int64_t ready = 0;
      for (int64_t r = r0; r < r1; ++r)
        ready = std::max(ready, final[size_t(r)]);
      // Elements whose last gate row is in [r0, r1).
      int64_t elems = r1 / p.gates - r0 / p.gates;
      int64_t ops = (r1 - r0) + tailOps * elems;
      int64_t cycles = sfuCycles(e, ops);
      int64_t start = std::max(ready, sfuFree);
      sfuFree = start + cycles;
      run.sfuCycles += cycles;
      for (int64_t r = r0; r < r1; ++r)
        issued[size_t(r)] = sfuFree;
    }
    return issued;
  }

  /// GRU: z_t and r_t out of the activation (phase 0, no tail).
  void computeR(Thread &t) {
    std::vector<int64_t> act = runSfu(t, 0, 0);
    for (int64_t j = 0; j < t.task->hidden; ++j) {
      t.zReady[size_t(j)] = act[size_t(2 * j)] + e.activationLatency;
      t.rReady[size_t(j)] = act[size_t(2 * j + 1)] + e.activationLatency;
    }
  }

  /// h_t[j]: every gate row of element j through the SFU (activation and
  /// tail: c_t, h_t; the GRU's interpolation, which also needs z_t), the
  /// tail's latency and the write-back.
  void computeH(Thread &t) {
    const Phase &last = t.phases.back();
    std::vector<int64_t> act =
        runSfu(t, t.phases.size() - 1, tailOpsPerElement(t.task->cell));
    int64_t tail = t.task->cell == Cell::Rnn ? 0 : e.tailLatency;
    for (int64_t j = 0; j < t.task->hidden; ++j) {
      int64_t ready = 0;
      for (int64_t g = 0; g < last.gates; ++g)
        ready = std::max(ready, act[size_t(j * last.gates + g)]);
      ready += e.activationLatency;
      if (t.task->cell == Cell::Gru)
        ready = std::max(ready, t.zReady[size_t(j)]);
      t.hReady[size_t(j)] = ready + tail + e.writeBackLatency;
    }
  }

  void finishStats() {
    for (size_t i = 0; i < tasks.size(); ++i) {
      run.makespan = std::max(run.makespan, run.tasks[i].finish);
      int64_t perStep = 0;
      for (const Phase &p : phasesOf(tasks[i]))
        perStep += p.rows * (tasks[i].inputs + tasks[i].hidden);
      run.macs += perStep * tasks[i].steps;
    }
    if (run.makespan > 0)
      run.macUtilisation =
          double(run.macs) / (double(e.npe) * double(run.makespan));
  }

  const Engine &e;
  const std::vector<EngineTask> &tasks;
  int64_t contexts;
  bool recordBlocks;
  std::deque<size_t> queue;
  std::vector<bool> busy; ///< per thread context
  std::vector<Thread> active;
  size_t current = 0;
  size_t lastThread = SIZE_MAX;
  int64_t now = 0;
  int64_t sfuFree = 0; ///< the cluster's SFU takes its next row block
  EngineRun run;
};

} // namespace

int64_t blockIssueInterval(const Engine &e, const EngineTask &t, int64_t vp) {
  int64_t interval = catSlowDown(e, t.ep);
  if (t.weightBytesPerCycle > 0) {
    double bytes = double(t.ep) * double(vp) * double(t.weightElemBytes);
    interval = std::max<int64_t>(
        interval, int64_t(std::ceil(bytes / t.weightBytesPerCycle)));
  }
  return interval;
}

double dramShareBytesPerCycle(const HardwareDesc &hw,
                              int64_t clustersStreaming) {
  return hw.dramBytesPerCycle() /
         double(std::max<int64_t>(1, clustersStreaming));
}

EngineRun runEngine(const Engine &e, const std::vector<EngineTask> &tasks,
                    int64_t contexts, bool recordBlocks) {
  return Model(e, tasks, contexts, recordBlocks).simulate();
}

} // namespace accel::rnn
