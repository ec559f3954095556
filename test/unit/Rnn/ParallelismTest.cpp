//===- ParallelismTest.cpp - EP/VP cost model (spec worked examples) ------===//
#include "accel/Rnn/Parallelism.h"

#include <gtest/gtest.h>

#include <string>

using namespace accel;
using namespace accel::rnn;

namespace {

std::string preset(const std::string &name) {
  return std::string(ACCEL_SOURCE_DIR) + "/hw/" + name + ".json";
}

Engine presetEngine(const std::string &name) {
  HardwareDesc hw;
  std::string err;
  EXPECT_TRUE(loadHardwareDesc(preset(name), hw, err)) << err;
  return engineOf(hw);
}

/// An LSTM layer with lx = hidden: rows 4H, cols 2H.
LayerShape lstm(int64_t hidden, int64_t lx) {
  return LayerShape{4 * hidden, lx + hidden, lx};
}

} // namespace

TEST(RnnEngine, IsOneClustersPeArray) {
  Engine e = engineOf(defaultHardware());
  EXPECT_EQ(e.pes, 4);
  EXPECT_EQ(e.macLanes, 64);
  EXPECT_EQ(e.npe, 256);
  EXPECT_EQ(e.epMax, 64);
  EXPECT_EQ(e.catWidth, 4);
  EXPECT_EQ(e.threadContexts, 4);
  EXPECT_EQ(e.switchCycles, 2);
  EXPECT_EQ(e.sfuElemsPerCycle, 4 * 16); // pes x sfu_lanes
  EXPECT_EQ(presetEngine("rnn-npe16k").npe, 16384);
  EXPECT_EQ(presetEngine("rnn-npe64k").npe, 65536);
}

// Spec mechanism 5: a 64-wide tree yields 1, 2, 4 partial sums per cycle.
TEST(RnnParallelism, CatAccumulators) {
  EXPECT_EQ(catAccumulatorsPerCycle(64, 64), 1);
  EXPECT_EQ(catAccumulatorsPerCycle(64, 32), 2);
  EXPECT_EQ(catAccumulatorsPerCycle(64, 16), 4);
  // Below ep_max / cat_width the CAT, not the tree, sets the pace.
  Engine e = presetEngine("rnn-npe64k");
  LayerShape s = lstm(512, 512);
  EXPECT_EQ(costEpVp(e, s, 16).accumulatorsPerCycle, 4);
  EXPECT_EQ(costEpVp(e, s, 8).accumulatorsPerCycle, 4);
  // ep 8: vp 2048 (capped by the rows), 128 column blocks, CAT half speed.
  EXPECT_EQ(costEpVp(e, s, 8).blockCycles, 2 * 128);
}

// Spec "Numbers to reproduce": npe 65536, lh = lx = 512.
TEST(RnnParallelism, Spec512Example) {
  Engine e = presetEngine("rnn-npe64k");
  LayerShape s = lstm(512, 512);
  ASSERT_EQ(s.rows, 2048);
  ASSERT_EQ(s.cols, 1024);
  EpVp c32 = costEpVp(e, s, 32);
  EXPECT_EQ(c32.vp, 2048);
  EXPECT_EQ(c32.blockCycles, 32);
  EpVp c16 = costEpVp(e, s, 16);
  EXPECT_EQ(c16.vp, 2048); // 65536 / 16 = 4096 capped by (7) vp <= hw
  EXPECT_EQ(c16.blockCycles, 64);
  EpVp best = selectEpVp(e, s);
  EXPECT_EQ(best.ep, 32);
  EXPECT_EQ(best.vp, 2048);
  // ep 64 also issues 32 blocks (2 x 16) but has one more tree level.
  EXPECT_EQ(costEpVp(e, s, 64).blockCycles, 32);
  EXPECT_EQ(costEpVp(e, s, 64).latency, c32.latency + 1);
}

// Spec: with 1024-dim vectors (16, 4096) beats (32, 2048).
TEST(RnnParallelism, Spec1024Example) {
  Engine e = presetEngine("rnn-npe64k");
  LayerShape s = lstm(1024, 1024);
  EpVp c16 = costEpVp(e, s, 16), c32 = costEpVp(e, s, 32);
  EXPECT_EQ(c16.vp, 4096);
  EXPECT_EQ(c32.vp, 2048);
  EXPECT_EQ(c16.blockCycles, 128);
  EXPECT_EQ(c32.blockCycles, 128); // a tie the log2(ep) latency breaks
  EXPECT_LT(c16.latency, c32.latency);
  EpVp best = selectEpVp(e, s);
  EXPECT_EQ(best.ep, 16);
  EXPECT_EQ(best.vp, 4096);
}

// The latency term: multiplier + log2(ep) tree levels + accumulator +
// activation + tail + write-back, with the hardware's latencies.
TEST(RnnParallelism, LatencyAndStepCycles) {
  Engine e = engineOf(defaultHardware());
  LayerShape s = lstm(256, 256); // rows 1024, cols 512 on npe 256
  EpVp c = costEpVp(e, s, 16);
  EXPECT_EQ(c.latency, 3 + 4 * 1 + 1 + 4 + 4 + 2);
  EXPECT_EQ(c.vp, 16);
  EXPECT_EQ(c.rowBlocks, 64);
  EXPECT_EQ(c.colBlocks, 32);
  EXPECT_EQ(c.blockCycles, 64 * 32);
  EXPECT_EQ(c.stepCycles, c.blockCycles + c.latency);
  EXPECT_EQ(c.xBlockCycles, 64 * 16);
  // The SFU's share: the last row block's activations and tails at the
  // cluster's 64 element operations per cycle. LSTM h 256: 1024 gate rows +
  // 5 tail operations x 256 elements = 2304 per step; a row block of 16
  // rows holds 36 of them: one SFU cycle more.
  LayerShape withSfu = s;
  withSfu.sfuOps = 1024 + 5 * 256;
  EpVp sfu = costEpVp(e, withSfu, 16);
  EXPECT_EQ(sfu.sfuCycles, 1);
  EXPECT_EQ(sfu.latency, c.latency + 1);
  // ep 1: vp 256 rows a block, 576 operations, 9 SFU cycles.
  EXPECT_EQ(costEpVp(e, withSfu, 1).sfuCycles, 9);
  // Constraint (7): vp never exceeds the rows.
  EXPECT_EQ(costEpVp(e, LayerShape{8, 40, 8}, 1).vp, 8);
}

// Spec: best ep between 4 and 16 for npe 16384, between 16 and 64 for
// npe 65536, on typical LSTM sizes.
TEST(RnnParallelism, BestEpRangesPerNpe) {
  Engine e16k = presetEngine("rnn-npe16k"), e64k = presetEngine("rnn-npe64k");
  for (int64_t h : {128, 256, 384, 512, 768, 1024}) {
    EpVp a = selectEpVp(e16k, lstm(h, h));
    EXPECT_GE(a.ep, 4) << "npe 16384, hidden " << h;
    EXPECT_LE(a.ep, 16) << "npe 16384, hidden " << h;
    EpVp b = selectEpVp(e64k, lstm(h, h));
    EXPECT_GE(b.ep, 16) << "npe 65536, hidden " << h;
    EXPECT_LE(b.ep, 64) << "npe 65536, hidden " << h;
  }
}

namespace {

/// Cycles fall strictly up to the selected ep and do not fall after it.
void expectValley(const Engine &e, const LayerShape &s, int64_t wantBest) {
  std::vector<EpVp> sweep = sweepEp(e, s);
  EpVp best = selectEpVp(e, s);
  EXPECT_EQ(best.ep, wantBest);
  size_t at = 0;
  while (sweep[at].ep != best.ep)
    ++at;
  ASSERT_GT(at, 0u);
  ASSERT_LT(at + 1, sweep.size()) << "the optimum must not be the widest ep";
  for (size_t i = 1; i <= at; ++i)
    EXPECT_LT(sweep[i].stepCycles, sweep[i - 1].stepCycles) << sweep[i].ep;
  for (size_t i = at + 1; i < sweep.size(); ++i)
    EXPECT_GE(sweep[i].stepCycles, sweep[i - 1].stepCycles) << sweep[i].ep;
  EXPECT_GT(sweep.back().stepCycles, best.stepCycles);
}

} // namespace

TEST(RnnParallelism, SweepFallsThenRises) {
  expectValley(presetEngine("rnn-npe16k"), lstm(1024, 1024), 4);
  expectValley(presetEngine("rnn-npe64k"), lstm(512, 512), 32);
  expectValley(presetEngine("rnn-npe64k"), lstm(1024, 1024), 16);
}

TEST(RnnParallelism, SweepCoversEveryPowerOfTwo) {
  Engine e = engineOf(defaultHardware());
  std::vector<EpVp> sweep = sweepEp(e, lstm(64, 32));
  ASSERT_EQ(sweep.size(), 7u); // 1 .. 64
  for (size_t i = 0; i < sweep.size(); ++i) {
    EXPECT_EQ(sweep[i].ep, int64_t(1) << i);
    EXPECT_LE(sweep[i].vp * sweep[i].ep, e.npe); // constraint (8)
  }
}
