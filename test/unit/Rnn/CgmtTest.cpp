//===- CgmtTest.cpp - Coarse-grained multithreading schedule model --------===//
#include "accel/Rnn/Cgmt.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>

using namespace accel;
using namespace accel::rnn;

namespace {

constexpr int64_t C = 100;   // one step
constexpr int64_t S = 2 * C; // stall between a task's steps

/// Spec Fig. 1b / 1f: LSTM1..3 with 2, 3, 2 steps.
std::vector<Task> figure1() {
  return {Task{"LSTM1", 0, 2, C, S}, Task{"LSTM2", 0, 3, C, S},
          Task{"LSTM3", 0, 2, C, S}};
}

/// Invariants every schedule must keep.
void expectValid(const std::vector<Task> &tasks, const Schedule &s) {
  std::vector<Segment> segs = s.segments;
  std::sort(segs.begin(), segs.end(), [](const Segment &a, const Segment &b) {
    return a.start < b.start;
  });
  for (size_t i = 1; i < segs.size(); ++i)
    EXPECT_GE(segs[i].start, segs[i - 1].end) << "overlap at " << i;
  int64_t busy = 0, critical = 0;
  for (size_t t = 0; t < tasks.size(); ++t) {
    const Task &task = tasks[t];
    std::vector<Segment> mine;
    for (const Segment &g : segs)
      if (g.task == int(t))
        mine.push_back(g);
    ASSERT_EQ(int64_t(mine.size()), task.steps) << task.name;
    for (size_t k = 0; k < mine.size(); ++k) {
      EXPECT_EQ(mine[k].step, int64_t(k));
      EXPECT_EQ(mine[k].end - mine[k].start, task.busyCycles);
      EXPECT_GE(mine[k].start, task.arrival);
      if (k) {
        EXPECT_GE(mine[k].start, mine[k - 1].end + task.stallCycles)
            << task.name << " step " << k;
      }
    }
    if (!mine.empty()) {
      EXPECT_EQ(s.start[t], mine.front().start);
      EXPECT_EQ(s.finish[t], mine.back().end);
    }
    busy += task.steps * task.busyCycles;
    critical = std::max(critical, task.arrival + task.steps * task.busyCycles +
                                      (task.steps - 1) * task.stallCycles);
  }
  EXPECT_EQ(s.busyCycles, busy);
  EXPECT_GE(s.makespan, std::max(busy, critical));
}

} // namespace

TEST(RnnCgmt, Figure1bSequential) {
  Schedule s = runSequential(figure1());
  expectValid(figure1(), s);
  EXPECT_EQ(s.makespan, 15 * C);
  EXPECT_EQ(s.busyCycles, 7 * C);
  EXPECT_DOUBLE_EQ(s.utilisation, 7.0 / 15.0);
  EXPECT_EQ(s.switches, 0);
}

TEST(RnnCgmt, Figure1fInterleaved) {
  Schedule s = runInterleaved(figure1(), 3, 0);
  expectValid(figure1(), s);
  EXPECT_EQ(s.makespan, 8 * C);
  EXPECT_DOUBLE_EQ(s.utilisation, 0.875);
  EXPECT_DOUBLE_EQ(double(runSequential(figure1()).makespan) / s.makespan,
                   1.875);
  // T1's idle holds one step of T2 and one of T3.
  ASSERT_GE(s.segments.size(), 4u);
  EXPECT_EQ(s.segments[0].task, 0);
  EXPECT_EQ(s.segments[1].task, 1);
  EXPECT_EQ(s.segments[2].task, 2);
  EXPECT_EQ(s.segments[3].task, 0);
  EXPECT_EQ(s.segments[3].start, 3 * C);
}

TEST(RnnCgmt, SingleTaskInterleavedEqualsSequential) {
  for (Task t : {Task{"a", 0, 5, 70, 130}, Task{"b", 40, 3, 10, 0},
                 Task{"c", 7, 1, 9, 50}}) {
    Schedule seq = runSequential({t});
    Schedule inter = runInterleaved({t}, 4, 25);
    EXPECT_EQ(inter.makespan, seq.makespan) << t.name;
    EXPECT_EQ(inter.switches, 0);
    ASSERT_EQ(inter.segments.size(), seq.segments.size());
    for (size_t i = 0; i < seq.segments.size(); ++i) {
      EXPECT_EQ(inter.segments[i].start, seq.segments[i].start);
      EXPECT_EQ(inter.segments[i].end, seq.segments[i].end);
    }
  }
  // One context is the sequential machine, whatever the penalty.
  Schedule one = runInterleaved(figure1(), 1, 25);
  EXPECT_EQ(one.makespan, runSequential(figure1()).makespan);
  EXPECT_EQ(one.switches, 0);
}

TEST(RnnCgmt, MoreTasksThanContextsQueue) {
  std::vector<Task> tasks = {
      Task{"t0", 0, 3, 50, 120}, Task{"t1", 0, 2, 80, 100},
      Task{"t2", 10, 4, 30, 90}, Task{"t3", 500, 2, 60, 60},
      Task{"t4", 20, 1, 40, 0}};
  Schedule s = runInterleaved(tasks, 2, 3);
  expectValid(tasks, s);
  // At most two tasks are live at any time: a task starts only after
  // another has finished once two are running.
  for (size_t t = 0; t < tasks.size(); ++t) {
    int live = 0;
    for (size_t u = 0; u < tasks.size(); ++u)
      live += s.start[u] <= s.start[t] && s.finish[u] > s.start[t];
    EXPECT_LE(live, 2) << tasks[t].name;
  }
  EXPECT_GT(s.start[2], std::min(s.finish[0], s.finish[1]) - 1);
  EXPECT_LT(s.makespan, runSequential(tasks).makespan);
}

// Two tasks of two steps, step = stall = 100, penalty 10, by hand:
// T0 [0,100); switch, T1 [110,210); switch back, T0 [220,320) (its last:
// T0 is done); T1 [320,420) without a switch. Two switches, 400 + 2*10.
TEST(RnnCgmt, SwitchPenaltyAddsSwitchesTimesPenalty) {
  std::vector<Task> tasks = {Task{"a", 0, 2, C, C}, Task{"b", 0, 2, C, C}};
  Schedule free = runInterleaved(tasks, 2, 0);
  EXPECT_EQ(free.makespan, 4 * C);
  Schedule paid = runInterleaved(tasks, 2, 10);
  expectValid(tasks, paid);
  EXPECT_EQ(paid.switches, 2);
  EXPECT_EQ(paid.makespan, free.makespan + paid.switches * 10);
  EXPECT_EQ(paid.segments[1].start, 110);
  EXPECT_EQ(paid.segments[3].start, 320);
}

TEST(RnnCgmt, RandomTaskSetsKeepInvariants) {
  std::mt19937 rng(1234);
  std::uniform_int_distribution<int> nTasks(1, 8), steps(1, 6), busy(1, 200),
      stall(0, 400), arrival(0, 1000), ctx(1, 4), penalty(0, 20);
  for (int trial = 0; trial < 300; ++trial) {
    std::vector<Task> tasks;
    for (int i = nTasks(rng); i > 0; --i)
      tasks.push_back(Task{"t" + std::to_string(i), arrival(rng), steps(rng),
                           busy(rng), stall(rng)});
    SCOPED_TRACE("trial " + std::to_string(trial));
    Schedule seq = runSequential(tasks);
    expectValid(tasks, seq);
    Schedule inter = runInterleaved(tasks, ctx(rng), penalty(rng));
    expectValid(tasks, inter);
    Schedule noPenalty = runInterleaved(tasks, 8, 0);
    expectValid(tasks, noPenalty);
    EXPECT_LE(noPenalty.makespan, seq.makespan);
  }
}

TEST(RnnCgmt, LayerTaskOverlapsTheXColumns) {
  EpVp c;
  c.blockCycles = 64;
  c.latency = 20;
  c.xBlockCycles = 12;
  Task t = layerTask("lstm", c, 10, 5);
  EXPECT_EQ(t.busyCycles, 64);
  EXPECT_EQ(t.stallCycles, 8);
  EXPECT_EQ(t.steps, 10);
  EXPECT_EQ(t.arrival, 5);
  c.xBlockCycles = 40;
  EXPECT_EQ(layerTask("x", c, 1).stallCycles, 0);
}
