//===- ColumnEngineTest.cpp - the block-level RNN engine model ------------===//
#include "accel/Rnn/ColumnEngine.h"
#include <gtest/gtest.h>
#include <random>

using namespace accel::rnn;

namespace {

/// A small engine whose latencies are easy to add up by hand:
/// product = 3 + log2(ep) * 1 + 1, then activation 4 + tail 4 + write-back 2.
Engine smallEngine() {
  Engine e{};
  e.npe = 16;
  e.pes = 1;
  e.macLanes = 16;
  e.epMax = 2;
  e.catWidth = 2;
  e.multiplierLatency = 3;
  e.treeLevelLatency = 1;
  e.accumulatorLatency = 1;
  e.activationLatency = 4;
  e.tailLatency = 4;
  e.writeBackLatency = 2;
  e.threadContexts = 4;
  e.switchCycles = 0;
  return e;
}

/// LSTM, hidden 2, 2 inputs: rows 8 (4 gates interleaved), ep 2, vp 4: two
/// row blocks, one x column block and one h column block: 4 blocks a step.
EngineTask tinyLstm(int64_t steps) {
  EngineTask t;
  t.cell = Cell::Lstm;
  t.hidden = 2;
  t.inputs = 2;
  t.steps = steps;
  t.ep = 2;
  t.vp = 4;
  return t;
}

TEST(ColumnEngine, OneStepByHand) {
  EngineRun r = runEngine(smallEngine(), {tinyLstm(1)}, 1, true);
  ASSERT_EQ(r.blocks.size(), 4u);
  // x blocks first (row blocks 0, 1), then the h blocks.
  EXPECT_FALSE(r.blocks[0].overH);
  EXPECT_FALSE(r.blocks[1].overH);
  EXPECT_TRUE(r.blocks[2].overH);
  EXPECT_EQ(r.issueCycles, 4);
  // Row block 1's last block ends at 4: final at 4 + 5, h[1] written back
  // at 9 + 4 + 4 + 2 = 19.
  EXPECT_EQ(r.tasks[0].finish, 19);
  EXPECT_EQ(r.makespan, 19);
  EXPECT_EQ(r.macs, 8 * 4);
}

// The SFU at 2 element operations per cycle: row block 0 (element 0: 4
// gate activations + 5 tail operations) is final at 8 and takes 5 SFU
// cycles (8..13); row block 1 is final at 9 but waits for the SFU (13..18).
// h[0] = 13 + 4 + 4 + 2 = 23, h[1] = 18 + 10 = 28.
TEST(ColumnEngine, SfuThroughputByHand) {
  Engine e = smallEngine();
  e.sfuElemsPerCycle = 2;
  EngineRun r = runEngine(e, {tinyLstm(1)}, 1);
  EXPECT_EQ(r.tasks[0].finish, 28);
  EXPECT_EQ(r.sfuCycles, 10);
  // Unlimited SFU (0): the latencies alone, as in OneStepByHand.
  EXPECT_EQ(runEngine(smallEngine(), {tinyLstm(1)}, 1).sfuCycles, 0);
}

// One SFU serves every thread: the second task's row blocks are final at
// 12 and 13 but the SFU is busy with the first task's until 18.
TEST(ColumnEngine, ThreadsShareTheSfu) {
  Engine e = smallEngine();
  e.sfuElemsPerCycle = 2;
  EngineRun r = runEngine(e, {tinyLstm(1), tinyLstm(1)}, 2);
  EXPECT_EQ(r.tasks[0].finish, 28);
  EXPECT_EQ(r.tasks[1].finish, 38);
  EXPECT_EQ(r.sfuCycles, 20);
  EngineRun unlimited = runEngine(smallEngine(), {tinyLstm(1), tinyLstm(1)}, 2);
  EXPECT_EQ(unlimited.tasks[1].finish, 8 + 5 + 10);
}

TEST(ColumnEngine, NextStepStartsWithXColumnsAndWaitsForH) {
  EngineRun r = runEngine(smallEngine(), {tinyLstm(2)}, 1, true);
  ASSERT_EQ(r.blocks.size(), 8u);
  // Step 1's x blocks issue right after step 0 (cycles 4, 5), before h_0
  // is complete; its h blocks wait for h_0 (ready at 19).
  EXPECT_EQ(r.blocks[4].step, 1);
  EXPECT_EQ(r.blocks[4].start, 4);
  EXPECT_EQ(r.blocks[5].start, 5);
  EXPECT_EQ(r.blocks[6].start, 19);
  EXPECT_EQ(r.idleCycles, 19 - 6);
  EXPECT_EQ(r.makespan, 21 + 5 + 10);
}

TEST(ColumnEngine, OneTaskAloneIsNotSlowedByThreadContexts) {
  Engine e = smallEngine();
  e.switchCycles = 3;
  EngineRun one = runEngine(e, {tinyLstm(5)}, 1);
  EngineRun four = runEngine(e, {tinyLstm(5)}, 4);
  EXPECT_EQ(one.makespan, four.makespan);
  EXPECT_EQ(four.switches, 0);
}

TEST(ColumnEngine, ThreadsFillTheDrain) {
  Engine e = smallEngine();
  std::vector<EngineTask> tasks(4, tinyLstm(6));
  EngineRun seq = runEngine(e, tasks, 1);
  EngineRun mt = runEngine(e, tasks, 4);
  EXPECT_EQ(seq.issueCycles, mt.issueCycles);
  EXPECT_LT(mt.makespan, seq.makespan);
  EXPECT_GT(mt.switches, 0);
  EXPECT_GT(mt.macUtilisation, seq.macUtilisation);
  // Sequential: one task after the other; the next one's first blocks
  // may only overlap the previous one's final drain.
  EngineRun alone = runEngine(e, {tinyLstm(6)}, 1);
  EXPECT_LE(seq.makespan, 4 * alone.makespan);
  EXPECT_GE(seq.makespan,
            4 * alone.makespan - 3 * (alone.makespan - alone.issueCycles));
}

TEST(ColumnEngine, SwitchPenaltyIsChargedPerSwitch) {
  Engine e = smallEngine();
  std::vector<EngineTask> tasks(2, tinyLstm(3));
  EngineRun free = runEngine(e, tasks, 2);
  e.switchCycles = 2;
  EngineRun paid = runEngine(e, tasks, 2);
  EXPECT_EQ(paid.switchCycles, 2 * paid.switches);
  EXPECT_GE(paid.makespan, free.makespan);
}

TEST(ColumnEngine, TasksBeyondTheContextsQueue) {
  std::vector<EngineTask> tasks(5, tinyLstm(3));
  for (size_t i = 0; i < tasks.size(); ++i)
    tasks[i].arrival = int64_t(i) * 3;
  EngineRun r = runEngine(smallEngine(), tasks, 2, true);
  // A task holds its context from its first to its last block: at most two
  // tasks are between those at any time.
  std::vector<int64_t> first(tasks.size(), INT64_MAX), last(tasks.size(), 0);
  for (const EngineBlock &b : r.blocks) {
    first[b.task] = std::min(first[b.task], b.start);
    last[b.task] = std::max(last[b.task], b.end);
  }
  for (const EngineBlock &b : r.blocks) {
    int live = 0;
    for (size_t i = 0; i < tasks.size(); ++i)
      live += first[i] <= b.start && b.start < last[i];
    EXPECT_LE(live, 2) << "block at " << b.start;
  }
  for (size_t i = 0; i < tasks.size(); ++i)
    EXPECT_GE(r.tasks[i].start, tasks[i].arrival);
}

TEST(ColumnEngine, GruWaitsForRBeforeTheCandidate) {
  EngineTask t = tinyLstm(1);
  t.cell = Cell::Gru;
  t.vp = 2;
  EngineRun r = runEngine(smallEngine(), {t}, 1, true);
  for (const EngineBlock &b : r.blocks) {
    if (b.phase == 1 && b.overH) {
      EXPECT_GT(b.start, r.blocks.front().start + 5 + 4 - 1);
    }
  }
  t.linearBeforeReset = true;
  EngineRun lbr = runEngine(smallEngine(), {t}, 1);
  EXPECT_LE(lbr.makespan, r.makespan);
}

TEST(ColumnEngine, WeightBandwidthSlowsTheIssue) {
  EngineTask t = tinyLstm(2);
  EngineRun unlimited = runEngine(smallEngine(), {t}, 1);
  t.weightBytesPerCycle = 8; // a 2 x 4 block of f32 needs 32 bytes: 4 cycles
  EngineRun fed = runEngine(smallEngine(), {t}, 1);
  EXPECT_EQ(blockIssueInterval(smallEngine(), t, 4), 4);
  EXPECT_EQ(fed.issueCycles, 4 * unlimited.issueCycles);
}

/// When element j of (phase, gate row layout) is final in `step` of task
/// `k`, recomputed from the recorded blocks: the end of the block of the
/// phase's last h column block that covers the row, plus the product
/// latency. Independent of the model's own bookkeeping.
int64_t rowFinal(const EngineRun &r, const Engine &e, const EngineTask &t,
                 size_t k, int64_t step, int phase, int64_t row, int64_t vp) {
  int64_t lastC1 = -1, end = -1;
  for (const EngineBlock &b : r.blocks)
    if (b.task == k && b.step == step && b.phase == phase && b.overH &&
        b.rowBlock == row / vp && b.c1 >= lastC1)
      lastC1 = b.c1, end = b.end;
  return end + productLatency(e, t.ep);
}

int64_t hWrittenBack(const EngineRun &r, const Engine &e, const EngineTask &t,
                     size_t k, int64_t step, int64_t j) {
  int64_t h = t.hidden, fin = 0;
  if (t.cell == Cell::Lstm)
    for (int g = 0; g < 4; ++g)
      fin = std::max(
          fin, rowFinal(r, e, t, k, step, 0, 4 * j + g, std::min(t.vp, 4 * h)));
  if (t.cell == Cell::Rnn)
    fin = rowFinal(r, e, t, k, step, 0, j, std::min(t.vp, h));
  if (t.cell == Cell::Gru)
    fin = std::max(rowFinal(r, e, t, k, step, 0, 2 * j, std::min(t.vp, 2 * h)),
                   rowFinal(r, e, t, k, step, 1, j, std::min(t.vp, h)));
  int64_t tail = t.cell == Cell::Rnn ? 0 : e.tailLatency;
  return fin + e.activationLatency + tail + e.writeBackLatency;
}

/// Random task sets: blocks never overlap, never read an element before
/// it is written back, and keep each task's order.
TEST(ColumnEngine, RandomTaskSetsKeepEveryDependency) {
  std::mt19937 rng(12345);
  auto pick = [&](int lo, int hi) {
    return std::uniform_int_distribution<int>(lo, hi)(rng);
  };
  for (int trial = 0; trial < 40; ++trial) {
    Engine e = smallEngine();
    e.epMax = 4;
    e.switchCycles = pick(0, 3);
    std::vector<EngineTask> tasks;
    int n = pick(1, 6);
    for (int i = 0; i < n; ++i) {
      EngineTask t;
      t.cell = Cell(pick(0, 2));
      t.hidden = pick(1, 9);
      t.inputs = pick(1, 9);
      t.steps = pick(1, 5);
      t.ep = int64_t(1) << pick(0, 2);
      t.vp = pick(1, 12);
      t.arrival = pick(0, 40);
      tasks.push_back(t);
    }
    int64_t contexts = pick(1, 4);
    EngineRun r = runEngine(e, tasks, contexts, true);
    int64_t lastEnd = 0;
    std::vector<std::pair<int64_t, int64_t>> lastOf(tasks.size(), {-1, -1});
    for (const EngineBlock &b : r.blocks) {
      EXPECT_GE(b.start, lastEnd) << "blocks overlap";
      EXPECT_GE(b.start, b.inputsReady) << "read an element early";
      EXPECT_GE(b.start, tasks[b.task].arrival);
      EXPECT_GE(b.step, lastOf[b.task].first) << "step order";
      const EngineTask &t = tasks[b.task];
      for (int64_t j = b.c0; b.overH && b.step > 0 && j < b.c1; ++j) {
        EXPECT_GE(b.start, hWrittenBack(r, e, t, b.task, b.step - 1, j))
            << "h element " << j << " read before its write-back";
      }
      if (b.overH && b.phase == 1 && !t.linearBeforeReset) {
        for (int64_t j = b.c0; j < b.c1; ++j) {
          EXPECT_GE(b.start, rowFinal(r, e, t, b.task, b.step, 0, 2 * j + 1,
                                      std::min(t.vp, 2 * t.hidden)) +
                                 e.activationLatency)
              << "r element " << j << " read before the activation";
        }
      }
      lastOf[b.task] = {b.step, b.start};
      lastEnd = b.end;
    }
    EXPECT_GE(r.makespan, r.issueCycles);
  }
}

} // namespace
