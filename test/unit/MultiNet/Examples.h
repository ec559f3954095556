//===- Examples.h - The spec's worked examples as plans ---------*- C++ -*-===//
#ifndef ACCEL_TEST_MULTINET_EXAMPLES_H
#define ACCEL_TEST_MULTINET_EXAMPLES_H

#include "accel/MultiNet/Schedule.h"

#include <algorithm>
#include <gtest/gtest.h>

namespace accel::multinet::examples {

inline Process proc(const std::string &net, const std::string &name,
                    std::vector<Coord> pinned,
                    std::vector<size_t> inputs = {}) {
  Process p;
  p.network = net;
  p.name = name;
  p.units = int64_t(pinned.size());
  p.pinned = std::move(pinned);
  p.inputs = std::move(inputs);
  p.cycles = 100;
  p.outputBytes = 64;
  return p;
}

/// A schedule of `plan` that the verifier accepts (test failures otherwise).
inline Schedule mustSchedule(const Plan &plan, ScheduleOptions opts = {}) {
  Schedule s;
  std::string err;
  EXPECT_TRUE(schedule(plan, opts, s, err)) << err;
  EXPECT_TRUE(verify(plan, s, err)) << err;
  return s;
}

/// Sorted unit numbers of the EUs `cs`.
inline std::vector<int64_t> units(const Plan &plan, std::vector<Coord> cs) {
  std::vector<int64_t> u;
  for (const Coord &c : cs)
    u.push_back(plan.grid.index(c));
  std::sort(u.begin(), u.end());
  return u;
}

/// E4 (spec Fig. 5): NN1 and NN2 on a 3x3 grid, pinned as in the table;
/// the interaction X (after both P3) runs in time unit 4 on the
/// intersection of the target sets of NN1.P4 and NN2.P4.
inline Plan e4() {
  Plan plan;
  plan.grid = {3, 3};
  auto &ps = plan.processes;
  ps.push_back(proc("NN1", "P1", {{1, 1}, {2, 1}}));      // 0
  ps.push_back(proc("NN1", "P2", {{2, 2}}, {0}));         // 1
  ps.push_back(proc("NN1", "P3", {{2, 2}, {3, 2}}, {1})); // 2
  ps.push_back(proc("NN2", "P1", {{1, 3}, {2, 3}}));      // 3
  ps.push_back(proc("NN2", "P2", {{3, 2}, {3, 3}}, {3})); // 4
  ps.push_back(proc("NN2", "P3", {{3, 3}}, {4}));         // 5
  Process x = proc("X", "combine", {}, {2, 5});           // 6
  x.units = 1;
  x.interaction = true;
  x.between = {7, 8};
  ps.push_back(x);
  ps.push_back(proc("NN1", "P4", {{3, 2}, {3, 3}}, {2})); // 7
  ps.back().targets = {{3, 2}, {3, 3}};
  ps.push_back(proc("NN2", "P4", {{3, 3}}, {5})); // 8
  ps.back().targets = {{3, 3}};
  return plan;
}

} // namespace accel::multinet::examples

#endif
