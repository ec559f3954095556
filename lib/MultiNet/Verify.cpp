//===- Verify.cpp - A schedule checked against its plan -------------------===//
#include "accel/MultiNet/Schedule.h"

#include <algorithm>

namespace accel::multinet {

namespace {

/// p and q take part in one interaction x that runs in their time unit.
bool sameInteraction(const Plan &plan, const Schedule &s, size_t p, size_t q) {
  auto partOf = [&](size_t a, size_t x) {
    const Process &xp = plan.processes[x];
    const auto &between = xp.betweenOrInputs();
    return a == x ||
           std::find(between.begin(), between.end(), a) != between.end();
  };
  for (size_t x = 0; x < plan.processes.size(); ++x)
    if (plan.processes[x].interaction && s.time[x] == s.time[p] &&
        partOf(p, x) && partOf(q, x))
      return true;
  return false;
}

bool checkProcess(const Plan &plan, const Schedule &s, size_t p,
                  std::string &err) {
  const Process &pr = plan.processes[p];
  if (s.time[p] < 0 || int64_t(s.units[p].size()) != pr.units) {
    err = "process " + pr.label() + " is not placed on its " +
          std::to_string(pr.units) + " EUs";
    return false;
  }
  for (size_t i : pr.inputs)
    if (s.time[i] >= s.time[p]) {
      err = "process " + pr.label() + " runs in time unit " +
            std::to_string(s.time[p] + 1) + ", not after its input " +
            plan.processes[i].label() + " (time unit " +
            std::to_string(s.time[i] + 1) + ")";
      return false;
    }
  bool repaired =
      std::find(s.repaired.begin(), s.repaired.end(), p) != s.repaired.end();
  std::vector<int64_t> allowed = repaired ? targetUnits(plan, Process{})
                                 : pr.interaction
                                     ? interactionCandidates(plan, p)
                                     : targetUnits(plan, pr);
  for (int64_t eu : s.units[p]) {
    bool inTargets = std::binary_search(allowed.begin(), allowed.end(), eu);
    if (eu < 0 || eu >= plan.grid.size() || !inTargets) {
      err = "process " + pr.label() + " runs on " +
            (eu >= 0 && eu < plan.grid.size() ? str(plan.grid.coord(eu))
                                              : std::to_string(eu)) +
            ", outside its target set";
      return false;
    }
  }
  return true;
}

} // namespace

bool verify(const Plan &plan, const Schedule &s, std::string &err) {
  size_t n = plan.processes.size();
  if (s.time.size() != n || s.units.size() != n) {
    err = "the schedule does not cover every process";
    return false;
  }
  std::vector<int64_t> memory(size_t(plan.grid.size()), 0);
  for (size_t p = 0; p < n; ++p) {
    if (!checkProcess(plan, s, p, err))
      return false;
    const Process &pr = plan.processes[p];
    for (int64_t eu : s.units[p])
      memory[size_t(eu)] += (pr.staticBytes + pr.units - 1) / pr.units;
    for (size_t q = 0; q < p; ++q) {
      if (s.time[q] != s.time[p])
        continue;
      for (int64_t eu : s.units[p])
        if (std::binary_search(s.units[q].begin(), s.units[q].end(), eu) &&
            !sameInteraction(plan, s, p, q)) {
          err = "processes " + plan.processes[q].label() + " and " +
                pr.label() + " share " + str(plan.grid.coord(eu)) +
                " in time unit " + std::to_string(s.time[p] + 1) +
                " without an interaction between them";
          return false;
        }
    }
  }
  if (plan.memoryBytes > 0)
    for (int64_t eu = 0; eu < plan.grid.size(); ++eu)
      if (memory[size_t(eu)] > plan.memoryBytes) {
        err = "the static data on " + str(plan.grid.coord(eu)) + " (" +
              std::to_string(memory[size_t(eu)]) +
              " bytes) exceeds its memory (" +
              std::to_string(plan.memoryBytes) + " bytes)";
        return false;
      }
  return true;
}

} // namespace accel::multinet
