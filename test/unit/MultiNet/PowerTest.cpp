//===- PowerTest.cpp - Power gating, time and energy (spec E5) ------------===//
#include "accel/MultiNet/Power.h"
#include "Examples.h"

#include <gtest/gtest.h>

using namespace accel::multinet;
using namespace accel::multinet::examples;

// E5 (Fig. 6) on E4's schedule. The full sets under "not used now nor in
// the next time unit": time 1 leaves (2,2), (3,2), (3,3) on for time 2.
TEST(MultiNetPower, SpecE5FullOffSets) {
  Plan plan = e4();
  Schedule s = mustSchedule(plan);
  OffSets off = offSets(plan, s);
  ASSERT_EQ(off.size(), 4u);
  EXPECT_EQ(off[0], units(plan, {{3, 1}, {1, 2}}));
  std::vector<Coord> idle = {{1, 1}, {2, 1}, {3, 1}, {1, 2}, {1, 3}, {2, 3}};
  EXPECT_EQ(off[1], units(plan, idle));
  EXPECT_EQ(off[2], units(plan, idle));
  idle.push_back({2, 2});
  EXPECT_EQ(off[3], units(plan, idle));
}

// The spec's text switches off conservative subsets: (3,1); (3,1), (1,2);
// then (3,1), (1,2), (1,3) twice. They are accepted as given; an EU that
// runs in the next time unit is refused.
TEST(MultiNetPower, SpecE5ConservativeSetsAreChecked) {
  Plan plan = e4();
  Schedule s = mustSchedule(plan);
  std::vector<std::vector<Coord>> text = {{{3, 1}},
                                          {{3, 1}, {1, 2}},
                                          {{3, 1}, {1, 2}, {1, 3}},
                                          {{3, 1}, {1, 2}, {1, 3}}};
  OffSets off;
  std::string err;
  ASSERT_TRUE(checkOffSets(plan, s, text, off, err)) << err;
  EXPECT_EQ(off[3], units(plan, {{3, 1}, {1, 2}, {1, 3}}));
  text[0].push_back({2, 2}); // NN1.P2 runs there in time unit 2
  EXPECT_FALSE(checkOffSets(plan, s, text, off, err));
  EXPECT_EQ(err, "time unit 1: (2,2) runs in this or the next time unit and "
                 "cannot be switched off");
}

// Barrier: each time unit lasts its longest process plus the arrival of
// its inputs (hops x hop latency + bytes / link width); dataflow starts a
// process as soon as its inputs are there and its EUs are free.
TEST(MultiNetPower, BarrierAndDataflowTimesByHand) {
  Plan plan;
  plan.grid = {2, 1};
  plan.processes = {proc("A", "L1", {{1, 1}}), proc("B", "L1", {{2, 1}}),
                    proc("A", "L2", {{2, 1}}, {0})};
  plan.processes[0].cycles = 100;
  plan.processes[1].cycles = 10;
  plan.processes[2].cycles = 50;
  Schedule s = mustSchedule(plan);
  ASSERT_EQ(s.time, (std::vector<int64_t>{0, 0, 1}));
  CostModel c;
  c.hopLatency = 2;
  c.linkBytesPerCycle = 32; // 64 bytes: 2 cycles on the link
  Timing t = timeSchedule(plan, s, c);
  EXPECT_EQ(t.unitStart, (std::vector<int64_t>{0, 100, 100 + 4 + 50}));
  EXPECT_EQ(t.barrierMakespan, 154);
  EXPECT_EQ(t.start[2], 104);
  EXPECT_EQ(t.dataflowMakespan, 154);
  // Energy: 2 EUs x 154 cycles x 50 pJ, 64 bytes x 1 hop x 0.5 pJ.
  plan.processes[0].macs = 1000;
  Energy e = energyOf(plan, s, t, c);
  EXPECT_DOUBLE_EQ(e.staticPj, 2 * 154 * 50.0);
  EXPECT_DOUBLE_EQ(e.macPj, 1000.0);
  EXPECT_DOUBLE_EQ(e.hopPj, 64 * 0.5);
}

// An EU off in time unit t - 2 is switched on when t - 1 begins; a wake
// latency longer than time unit t - 1 delays time unit t. Gating saves the
// off EUs' static energy.
TEST(MultiNetPower, WakeLatencyAndGatedEnergy) {
  Plan plan;
  plan.grid = {2, 1};
  plan.processes = {proc("A", "L1", {{1, 1}}), proc("A", "L2", {{1, 1}}, {0}),
                    proc("A", "L3", {{2, 1}}, {1})};
  Schedule s = mustSchedule(plan);
  OffSets off = offSets(plan, s);
  EXPECT_EQ(off[0], (std::vector<int64_t>{1})); // (2,1) idle in 1 and 2
  EXPECT_TRUE(off[1].empty());                  // needed in time unit 3
  EXPECT_EQ(off[2], (std::vector<int64_t>{0})); // (1,1) done after L2
  CostModel c;
  c.wakeLatency = 150;
  Timing ungated = timeSchedule(plan, s, c);
  Timing gated = timeSchedule(plan, s, c, &off);
  // Time unit 3 waits for (2,1): on at 100, awake at 250, then 2 + 2
  // cycles for L2's 64 bytes over 1 hop are hidden behind the wake.
  EXPECT_EQ(ungated.barrierMakespan, 200 + 4 + 100);
  EXPECT_EQ(gated.unitStart[2], 200);
  EXPECT_EQ(gated.barrierMakespan, 250 + 100);
  EXPECT_EQ(gated.dataflowMakespan, 250 + 100);
  c.wakeLatency = 50;
  gated = timeSchedule(plan, s, c, &off);
  EXPECT_EQ(gated.barrierMakespan, ungated.barrierMakespan);
  Energy on = energyOf(plan, s, ungated, c),
         saved = energyOf(plan, s, gated, c, &off);
  // (2,1) off for time unit 1 (100 cycles), (1,1) for time unit 3 (104).
  EXPECT_DOUBLE_EQ(on.staticPj - saved.staticPj, (100 + 104) * 50.0);
}
