//===- ScheduleRnnThreads.cpp - RNN tasks on clusters and thread contexts -===//
//
// Coarse-grained multithreading (spec/rnn-multithreading.md, docs/rnn.md):
// each direction of each recurrent layer is a task; tasks are placed, in
// program order, on the cluster whose multithreaded schedule finishes them
// earliest, then the per-cluster schedules are re-run until the arrival
// times that follow from dependencies are stable. The schedule model is
// rnn::runInterleaved (AccelRnn); the simulator later switches threads on
// real hazards, this pass only decides where tasks go and predicts when.
//
//===----------------------------------------------------------------------===//
#include "Accel/AccelDialect.h"
#include "RnnLayer.h"
#include "accel/Hardware/HardwareDesc.h"
#include "accel/Rnn/Cgmt.h"
#include "accel/Rnn/Engine.h"
#include "accel/Transforms/Passes.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SetVector.h"

namespace accel {
#define GEN_PASS_DEF_SCHEDULERNNTHREADS
#include "accel/Transforms/Passes.h.inc"
} // namespace accel

using namespace mlir;
using namespace accel;

namespace {

struct TaskSlot {
  graph::RecurrentOp op;
  rnn::Task task;
  int64_t ownArrival = 0; ///< accel.arrival of the op
  std::vector<int> after; ///< tasks whose layer this one reads
  int cluster = -1;
  int64_t start = 0, finish = 0;
  int thread = 0;
};

/// The recurrent ops whose results `op` reads, directly or through other
/// ops (not through another recurrent op: that one waits for its own).
llvm::SetVector<Operation *> recurrentProducers(graph::RecurrentOp op) {
  llvm::SetVector<Operation *> found;
  llvm::DenseSet<Operation *> seen;
  SmallVector<Value> work(op->getOperands().begin(), op->getOperands().end());
  while (!work.empty()) {
    Operation *def = work.pop_back_val().getDefiningOp();
    if (!def || !seen.insert(def).second)
      continue;
    if (isa<graph::RecurrentOp>(def)) {
      found.insert(def);
      continue;
    }
    work.append(def->getOperands().begin(), def->getOperands().end());
  }
  return found;
}

class Scheduler {
public:
  Scheduler(std::vector<TaskSlot> &tasks, int64_t clusters, int64_t contexts,
            int64_t switchCycles)
      : tasks(tasks), clusters(clusters), contexts(contexts),
        switchCycles(switchCycles) {}

  void run() {
    for (size_t i = 0; i < tasks.size(); ++i)
      place(int(i));
    // Placing a task can delay the ones already on its cluster, and their
    // dependents arrive later: re-run until nothing moves (arrivals only
    // grow, so this ends; the bound is a guard).
    for (size_t round = 0; round <= tasks.size(); ++round)
      if (!reschedule())
        break;
    assignThreads();
  }

private:
  int64_t arrivalOf(const TaskSlot &t) const {
    int64_t a = t.ownArrival;
    for (int d : t.after)
      a = std::max(a, tasks[d].finish);
    return a;
  }

  /// The tasks on cluster `c` (plus `extra`, when >= 0) scheduled
  /// together; writes their start / finish when `commit`.
  int64_t simulate(int c, int extra, bool commit) {
    std::vector<int> members;
    for (size_t i = 0; i < tasks.size(); ++i)
      if (tasks[i].cluster == c || int(i) == extra)
        members.push_back(int(i));
    std::vector<rnn::Task> model;
    for (int i : members) {
      rnn::Task t = tasks[i].task;
      t.arrival = arrivalOf(tasks[i]);
      model.push_back(t);
    }
    rnn::Schedule s = rnn::runInterleaved(model, contexts, switchCycles);
    int64_t extraFinish = 0;
    for (size_t k = 0; k < members.size(); ++k) {
      if (members[k] == extra)
        extraFinish = s.finish[k];
      if (commit) {
        tasks[members[k]].start = s.start[k];
        tasks[members[k]].finish = s.finish[k];
      }
    }
    return extraFinish;
  }

  void place(int i) {
    int best = 0;
    int64_t bestFinish = INT64_MAX;
    for (int c = 0; c < clusters; ++c) {
      int64_t f = simulate(c, i, /*commit=*/false);
      if (f < bestFinish)
        best = c, bestFinish = f;
    }
    tasks[i].cluster = best;
    simulate(best, -1, /*commit=*/true);
  }

  bool reschedule() {
    std::vector<int64_t> before;
    for (const TaskSlot &t : tasks)
      before.push_back(t.finish);
    for (int c = 0; c < clusters; ++c)
      simulate(c, -1, /*commit=*/true);
    for (size_t i = 0; i < tasks.size(); ++i)
      if (tasks[i].finish != before[i])
        return true;
    return false;
  }

  /// Per cluster, in start order, the lowest context free at the start.
  void assignThreads() {
    for (int c = 0; c < clusters; ++c) {
      std::vector<int> members;
      for (size_t i = 0; i < tasks.size(); ++i)
        if (tasks[i].cluster == c)
          members.push_back(int(i));
      llvm::stable_sort(members, [&](int a, int b) {
        return tasks[a].start < tasks[b].start;
      });
      std::vector<int64_t> freeAt(size_t(contexts), 0);
      for (int i : members) {
        size_t k = 0;
        while (k + 1 < freeAt.size() && freeAt[k] > tasks[i].start)
          ++k;
        tasks[i].thread = int(k);
        freeAt[k] = tasks[i].finish;
      }
    }
  }

  std::vector<TaskSlot> &tasks;
  int64_t clusters, contexts, switchCycles;
};

struct ScheduleRnnThreadsPass
    : public accel::impl::ScheduleRnnThreadsBase<ScheduleRnnThreadsPass> {
  using ScheduleRnnThreadsBase::ScheduleRnnThreadsBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    HardwareDesc hw;
    if (failed(moduleHardware(module, hw)))
      return signalPassFailure();
    rnn::Engine e = rnn::engineOf(hw);
    int64_t grid = hw.numClusters();
    int64_t useClusters = clusters ? int64_t(clusters) : grid;
    int64_t useContexts = contexts ? int64_t(contexts) : e.threadContexts;
    if (useClusters < 1 || useClusters > grid) {
      module.emitError("schedule-rnn-threads: clusters = ")
          << int64_t(clusters) << " must be between 1 and the grid's " << grid;
      return signalPassFailure();
    }
    if (useContexts < 1 || useContexts > e.threadContexts) {
      module.emitError("schedule-rnn-threads: contexts = ")
          << int64_t(contexts) << " must be between 1 and the hardware's "
          << e.threadContexts << " instruction buffers";
      return signalPassFailure();
    }
    std::vector<TaskSlot> tasks;
    if (failed(collectTasks(module, e, tasks)))
      return signalPassFailure();
    Scheduler(tasks, useClusters, useContexts, e.switchCycles).run();
    writeAttributes(tasks);
  }

  LogicalResult collectTasks(ModuleOp module, const rnn::Engine &e,
                             std::vector<TaskSlot> &tasks) {
    llvm::DenseMap<Operation *, std::vector<int>> tasksOf;
    WalkResult r = module.walk([&](graph::RecurrentOp op) {
      transforms::RnnLayer l = transforms::rnnLayerOf(op);
      auto p = op->getAttrOfType<RnnParallelismAttr>(kRnnParallelismAttrName);
      int64_t ep = p ? p.getEp() : rnn::selectEpVp(e, l.merged).ep;
      transforms::RnnStepCost cost = transforms::rnnStepCost(e, l, ep);
      int64_t arrival = 0;
      if (auto a = op->getAttrOfType<IntegerAttr>(kArrivalAttrName))
        arrival = a.getInt();
      std::vector<int> producers;
      for (Operation *p : recurrentProducers(op))
        llvm::append_range(producers, tasksOf[p]);
      for (int64_t d = 0; d < l.directions * l.batch; ++d) {
        TaskSlot t;
        t.op = op;
        t.task.name =
            (op->getName().getStringRef() + "#" + std::to_string(tasks.size()))
                .str();
        t.task.steps = std::max<int64_t>(1, l.steps);
        t.task.busyCycles = std::max<int64_t>(1, cost.busyCycles);
        t.task.stallCycles = cost.stallCycles;
        t.ownArrival = arrival;
        t.after = producers;
        tasksOf[op].push_back(int(tasks.size()));
        tasks.push_back(std::move(t));
      }
      return WalkResult::advance();
    });
    return failure(r.wasInterrupted());
  }

  void writeAttributes(const std::vector<TaskSlot> &tasks) {
    llvm::DenseMap<Operation *, SmallVector<Attribute>> threads;
    for (size_t i = 0; i < tasks.size(); ++i) {
      const TaskSlot &t = tasks[i];
      SmallVector<int64_t> after(t.after.begin(), t.after.end());
      int64_t arrival = t.ownArrival;
      for (int d : t.after)
        arrival = std::max(arrival, tasks[d].finish);
      threads[t.op].push_back(RnnThreadAttr::get(t.op->getContext(), int64_t(i),
                                                 t.cluster, t.thread, arrival,
                                                 after, t.start, t.finish));
    }
    for (auto &[op, list] : threads)
      op->setAttr(kRnnThreadsAttrName, ArrayAttr::get(op->getContext(), list));
  }
};
} // namespace
