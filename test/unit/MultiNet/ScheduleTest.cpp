//===- ScheduleTest.cpp - Process scheduling on EUs (spec E1-E4) ----------===//
#include "accel/MultiNet/Schedule.h"
#include "Examples.h"

#include <gtest/gtest.h>
#include <random>

using namespace accel::multinet;
using namespace accel::multinet::examples;

// E1 [0048]: A.L1 on EU1 first; B.L1 waits for EU1; X combines A.L2 and
// B.L1 on EU3 and is sent to EU1 and EU2 (one multicast); A.L3 and B.L2
// read it in time unit 4.
TEST(MultiNetSchedule, SpecE1ThreeUnitsTwoNetworks) {
  Plan plan;
  plan.grid = {3, 1}; // EU1 = (1,1), EU2 = (2,1), EU3 = (3,1)
  auto &ps = plan.processes;
  ps.push_back(proc("A", "L1", {{1, 1}}));              // 0
  ps.push_back(proc("A", "L2", {{2, 1}}, {0}));         // 1
  ps.push_back(proc("B", "L1", {{1, 1}}));              // 2
  ps.push_back(proc("X", "combine", {{3, 1}}, {1, 2})); // 3
  ps.back().interaction = true;
  ps.push_back(proc("A", "L3", {{1, 1}}, {3})); // 4
  ps.push_back(proc("B", "L2", {{2, 1}}, {3})); // 5
  Schedule s = mustSchedule(plan);
  EXPECT_EQ(s.time, (std::vector<int64_t>{0, 1, 1, 2, 3, 3}));
  EXPECT_EQ(s.timeUnits(), 4);
  const Transfer *fromX = nullptr;
  for (const Transfer &t : s.transfers)
    if (t.producer == 3)
      fromX = &t;
  ASSERT_NE(fromX, nullptr);
  EXPECT_EQ(fromX->from, 2);
  EXPECT_EQ(fromX->to, (std::vector<int64_t>{0, 1})); // EU1 and EU2
  EXPECT_EQ(fromX->hops, 2 + 1);
}

// E2 [0060]: C and D start together on EU3 and EU4, chosen by their
// target sets alone.
TEST(MultiNetSchedule, SpecE2TwoNetworksStartTogether) {
  Plan plan;
  plan.grid = {2, 2};
  plan.processes = {proc("C", "L1", {}), proc("D", "L1", {})};
  for (auto &p : plan.processes)
    p.units = 1;
  plan.processes[0].targets = {{1, 2}};
  plan.processes[1].targets = {{2, 2}};
  Schedule s = mustSchedule(plan);
  EXPECT_EQ(s.time, (std::vector<int64_t>{0, 0}));
  EXPECT_EQ(s.units[0], units(plan, {{1, 2}}));
  EXPECT_EQ(s.units[1], units(plan, {{2, 2}}));
}

// E3 (Fig. 4): one network, P1 on (1,1),(2,1), P2 on (2,2), P3 on
// (2,2),(3,2), P4 on (3,2),(3,3); each result moves one hop.
TEST(MultiNetSchedule, SpecE3OneNetworkPinned) {
  Plan plan;
  plan.grid = {3, 3};
  plan.processes = {proc("N", "P1", {{1, 1}, {2, 1}}),
                    proc("N", "P2", {{2, 2}}, {0}),
                    proc("N", "P3", {{2, 2}, {3, 2}}, {1}),
                    proc("N", "P4", {{3, 2}, {3, 3}}, {2})};
  Schedule s = mustSchedule(plan);
  EXPECT_EQ(s.time, (std::vector<int64_t>{0, 1, 2, 3}));
  ASSERT_EQ(s.transfers.size(), 3u);
  for (const Transfer &t : s.transfers)
    EXPECT_EQ(t.hops, 1) << plan.processes[t.producer].label();
  // P3 keeps P2's result where it is: only (3,2) receives it.
  EXPECT_EQ(s.transfers[1].to, units(plan, {{3, 2}}));
}

// E3 unpinned: the scheduler's own choice follows the spec's objectives:
// the reader takes the EU that already holds its input, then the nearest.
TEST(MultiNetSchedule, UnpinnedPrefersDataAlreadyThereThenFewestHops) {
  Plan plan;
  plan.grid = {3, 3};
  plan.processes = {proc("N", "P1", {{2, 2}}), proc("N", "P2", {}, {0})};
  plan.processes[1].units = 2;
  Schedule s = mustSchedule(plan);
  // (2,2) holds P1's result; (2,1) is the lowest-numbered EU one hop away.
  EXPECT_EQ(s.units[1], units(plan, {{2, 1}, {2, 2}}));
}

// E4 (Fig. 5): the interaction runs on {(3,2),(3,3)} n {(3,3)} = (3,3), in
// time unit 4 next to both networks' P4.
TEST(MultiNetSchedule, SpecE4InteractionOnTheIntersection) {
  Plan plan = e4();
  EXPECT_EQ(interactionCandidates(plan, 6), units(plan, {{3, 3}}));
  Schedule s = mustSchedule(plan);
  EXPECT_EQ(s.time, (std::vector<int64_t>{0, 1, 2, 0, 1, 2, 3, 3, 3}));
  EXPECT_EQ(s.units[6], units(plan, {{3, 3}}));
}

TEST(MultiNetSchedule, DisjointTargetSetsAreAnErrorOrRepaired) {
  Plan plan = e4();
  plan.processes[7].targets = {{1, 1}, {2, 1}};
  plan.processes[7].pinned = {{1, 1}, {2, 1}};
  Schedule s;
  std::string err;
  EXPECT_FALSE(schedule(plan, {}, s, err));
  EXPECT_NE(err.find("interaction X.combine: the target sets of NN1.P4 "
                     "{(1,1), (2,1)} and NN2.P4 {(3,3)} have no EU in common"),
            std::string::npos)
      << err;
  ScheduleOptions repair;
  repair.repairEmptyInteraction = true;
  ASSERT_TRUE(schedule(plan, repair, s, err)) << err;
  // The EU nearest to its inputs (NN1.P3 on (2,2),(3,2); NN2.P3 on (3,3)).
  EXPECT_EQ(s.units[6], units(plan, {{3, 2}}));
}

TEST(MultiNetSchedule, TwoProcessesWithoutInteractionMayNotShareAnEu) {
  Plan plan;
  plan.grid = {2, 1};
  plan.processes = {proc("A", "L1", {{1, 1}}), proc("B", "L1", {{1, 1}})};
  Schedule s = mustSchedule(plan);
  EXPECT_EQ(s.time, (std::vector<int64_t>{0, 1})); // B waits for the EU
  s.time = {0, 0};
  s.at = {{0, 1}};
  std::string err;
  EXPECT_FALSE(verify(plan, s, err));
  EXPECT_EQ(err, "processes A.L1 and B.L1 share (1,1) in time unit 1 "
                 "without an interaction between them");
}

TEST(MultiNetSchedule, ImpossiblePlansNameTheProcess) {
  std::string err;
  Schedule s;
  Plan plan;
  plan.grid = {2, 2};
  plan.processes = {proc("A", "L1", {{3, 1}})};
  EXPECT_FALSE(schedule(plan, {}, s, err));
  EXPECT_EQ(err, "process A.L1 is pinned to (3,1), outside the 2x2 grid");
  plan.processes = {proc("A", "L1", {})};
  plan.processes[0].units = 3;
  plan.processes[0].targets = {{1, 1}, {2, 2}};
  EXPECT_FALSE(schedule(plan, {}, s, err));
  EXPECT_EQ(err, "process A.L1 wants 3 EUs; its targets {(1,1), (2,2)} have 2");
  plan.processes = {proc("A", "L1", {{1, 1}}, {1}),
                    proc("A", "L2", {{2, 1}}, {0})};
  EXPECT_FALSE(schedule(plan, {}, s, err));
  EXPECT_NE(err.find("depends on itself"), std::string::npos) << err;
  plan.processes = {proc("A", "L1", {})};
  plan.processes[0].units = 1;
  plan.processes[0].staticBytes = 2048;
  plan.memoryBytes = 1024;
  EXPECT_FALSE(schedule(plan, {}, s, err));
  EXPECT_EQ(err, "process A.L1 cannot be placed: its static data (2048 bytes "
                 "per EU) exceeds an EU's memory (1024 bytes)");
}

// Random multi-network plans: every schedule verifies (inputs first, no
// sharing outside an interaction, targets, memory), and is deterministic.
TEST(MultiNetSchedule, RandomPlansKeepEveryRule) {
  std::mt19937 rng(7);
  for (int iter = 0; iter < 200; ++iter) {
    Plan plan;
    plan.grid = {int64_t(2 + rng() % 3), int64_t(2 + rng() % 3)};
    plan.memoryBytes = rng() % 2 ? 0 : 4096;
    std::vector<size_t> lastOf;
    int nets = 2 + int(rng() % 3);
    for (int n = 0; n < nets; ++n) {
      int len = 1 + int(rng() % 4);
      for (int l = 0; l < len; ++l) {
        Process p;
        p.network = "N" + std::to_string(n);
        p.name = "L" + std::to_string(l);
        p.units = 1 + int64_t(rng() % 2);
        p.cycles = 10 + int64_t(rng() % 90);
        p.staticBytes = int64_t(rng() % 1024);
        p.outputBytes = int64_t(rng() % 512);
        if (l > 0)
          p.inputs = {plan.processes.size() - 1};
        plan.processes.push_back(p);
      }
      lastOf.push_back(plan.processes.size() - 1);
    }
    if (rng() % 2) { // an interaction of the first two networks' ends
      Process x;
      x.network = "X";
      x.name = "combine";
      x.interaction = true;
      x.inputs = {lastOf[0], lastOf[1]};
      plan.processes.push_back(x);
    }
    Schedule s, again;
    std::string err;
    ASSERT_TRUE(schedule(plan, {}, s, err)) << err;
    EXPECT_TRUE(verify(plan, s, err)) << err;
    ASSERT_TRUE(schedule(plan, {}, again, err)) << err;
    EXPECT_EQ(s.time, again.time);
    EXPECT_EQ(s.units, again.units);
  }
}
