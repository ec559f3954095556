//===- Power.cpp - Power gating, time and energy of a schedule ------------===//
#include "accel/MultiNet/Power.h"

#include <algorithm>
#include <cmath>

namespace accel::multinet {

namespace {

/// EUs used per time unit.
std::vector<std::vector<bool>> usage(const Plan &plan, const Schedule &s) {
  std::vector<std::vector<bool>> used(
      size_t(s.timeUnits()), std::vector<bool>(size_t(plan.grid.size())));
  for (size_t p = 0; p < plan.processes.size(); ++p)
    for (int64_t eu : s.units[p])
      used[size_t(s.time[p])][size_t(eu)] = true;
  return used;
}

/// Cycles to bring input i's result to the EUs of p that do not hold it.
int64_t arrival(const Plan &plan, const Schedule &s, size_t i, size_t p,
                const CostModel &c) {
  int64_t hops = 0;
  for (int64_t eu : s.units[p]) {
    int64_t best = INT64_MAX;
    for (int64_t src : s.units[i])
      best = std::min(best, plan.grid.hops(src, eu));
    hops = std::max(hops, best);
  }
  if (hops == 0)
    return 0;
  double bytes = double(plan.processes[i].outputBytes);
  return hops * c.hopLatency +
         int64_t(std::ceil(bytes / std::max(1e-9, c.linkBytesPerCycle)));
}

bool isOff(const OffSets *off, int64_t t, int64_t eu) {
  if (!off || t < 0 || t >= int64_t(off->size()))
    return false;
  const auto &set = (*off)[size_t(t)];
  return std::binary_search(set.begin(), set.end(), eu);
}

} // namespace

OffSets offSets(const Plan &plan, const Schedule &s) {
  std::vector<std::vector<bool>> used = usage(plan, s);
  OffSets off(used.size());
  for (size_t t = 0; t < used.size(); ++t)
    for (int64_t eu = 0; eu < plan.grid.size(); ++eu)
      if (!used[t][size_t(eu)] &&
          (t + 1 == used.size() || !used[t + 1][size_t(eu)]))
        off[t].push_back(eu);
  return off;
}

bool checkOffSets(const Plan &plan, const Schedule &s,
                  const std::vector<std::vector<Coord>> &sets, OffSets &out,
                  std::string &err) {
  OffSets full = offSets(plan, s);
  if (sets.size() != full.size()) {
    err = "power-off sets for " + std::to_string(sets.size()) +
          " time units; the schedule has " + std::to_string(full.size());
    return false;
  }
  out.assign(sets.size(), {});
  for (size_t t = 0; t < sets.size(); ++t) {
    for (const Coord &c : sets[t]) {
      int64_t eu = plan.grid.contains(c) ? plan.grid.index(c) : -1;
      if (eu < 0 || !std::binary_search(full[t].begin(), full[t].end(), eu)) {
        err = "time unit " + std::to_string(t + 1) + ": " + str(c) +
              (eu < 0 ? " is outside the grid"
                      : " runs in this or the next time unit and cannot be "
                        "switched off");
        return false;
      }
      out[t].push_back(eu);
    }
    std::sort(out[t].begin(), out[t].end());
    out[t].erase(std::unique(out[t].begin(), out[t].end()), out[t].end());
  }
  return true;
}

Timing timeSchedule(const Plan &plan, const Schedule &s, const CostModel &c,
                    const OffSets *off) {
  Timing tm;
  size_t n = plan.processes.size();
  tm.unitStart.assign(size_t(s.timeUnits()) + 1, 0);
  for (int64_t t = 0; t < s.timeUnits(); ++t) {
    int64_t begin = tm.unitStart[size_t(t)], len = 0;
    for (size_t p : s.at[size_t(t)]) {
      int64_t in = 0, wake = 0;
      for (size_t i : plan.processes[p].inputs)
        in = std::max(in, arrival(plan, s, i, p, c));
      // Off two time units ago: switched on when the previous one began.
      for (int64_t eu : s.units[p])
        if (t >= 2 && isOff(off, t - 2, eu))
          wake = std::max(wake,
                          tm.unitStart[size_t(t - 1)] + c.wakeLatency - begin);
      int64_t late = plan.processes[p].arrival - begin; // input not there
      len =
          std::max(len, std::max({in, wake, late}) + plan.processes[p].cycles);
    }
    tm.unitStart[size_t(t) + 1] = begin + len;
  }
  tm.barrierMakespan = tm.unitStart.back();

  tm.start.assign(n, 0);
  tm.finish.assign(n, 0);
  std::vector<int64_t> free(size_t(plan.grid.size()), 0);
  // Dataflow has no time-unit boundaries: an EU off in time unit t - 2 is
  // switched on when the first process of time unit t - 1 starts.
  std::vector<int64_t> firstStart(size_t(s.timeUnits()), INT64_MAX);
  for (const auto &at : s.at)
    for (size_t p : at) {
      int64_t t = s.time[p], start = plan.processes[p].arrival;
      for (size_t i : plan.processes[p].inputs)
        start = std::max(start, tm.finish[i] + arrival(plan, s, i, p, c));
      for (int64_t eu : s.units[p]) {
        start = std::max(start, free[size_t(eu)]);
        if (t >= 2 && isOff(off, t - 2, eu) &&
            firstStart[size_t(t - 1)] != INT64_MAX)
          start = std::max(start, firstStart[size_t(t - 1)] + c.wakeLatency);
      }
      tm.start[p] = start;
      tm.finish[p] = start + plan.processes[p].cycles;
      firstStart[size_t(t)] = std::min(firstStart[size_t(t)], start);
      for (int64_t eu : s.units[p])
        free[size_t(eu)] = tm.finish[p];
      tm.dataflowMakespan = std::max(tm.dataflowMakespan, tm.finish[p]);
    }
  return tm;
}

Energy energyOf(const Plan &plan, const Schedule &s, const Timing &t,
                const CostModel &c, const OffSets *off) {
  Energy e;
  double onCycles = double(plan.grid.size()) * double(t.barrierMakespan);
  if (off)
    for (size_t u = 0; u < off->size(); ++u)
      onCycles -= double((*off)[u].size()) *
                  double(t.unitStart[u + 1] - t.unitStart[u]);
  e.staticPj = onCycles * c.staticPjPerCycle;
  for (const Process &p : plan.processes)
    e.macPj += double(p.macs) * c.pjPerMac;
  for (const Transfer &x : s.transfers)
    e.hopPj += double(x.bytes) * double(x.hops) * c.pjPerByteHop;
  return e;
}

} // namespace accel::multinet
