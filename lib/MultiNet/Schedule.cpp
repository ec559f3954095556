//===- Schedule.cpp - Time units and target EUs of every process ----------===//
#include "accel/MultiNet/Schedule.h"

#include <algorithm>
#include <cstdlib>
#include <functional>
#include <numeric>
#include <tuple>

namespace accel::multinet {

std::string str(const Coord &c) {
  return "(" + std::to_string(c.x) + "," + std::to_string(c.y) + ")";
}

int64_t Grid::hops(int64_t a, int64_t b) const {
  Coord p = coord(a), q = coord(b);
  return std::abs(p.x - q.x) + std::abs(p.y - q.y);
}

std::vector<int64_t> targetUnits(const Plan &plan, const Process &p) {
  std::vector<int64_t> s;
  if (p.targets.empty()) {
    s.resize(size_t(plan.grid.size()));
    std::iota(s.begin(), s.end(), 0);
    return s;
  }
  for (const Coord &c : p.targets)
    if (plan.grid.contains(c))
      s.push_back(plan.grid.index(c));
  std::sort(s.begin(), s.end());
  s.erase(std::unique(s.begin(), s.end()), s.end());
  return s;
}

namespace {

std::string setStr(const Plan &plan, const std::vector<int64_t> &units) {
  std::string s = "{";
  for (size_t i = 0; i < units.size(); ++i)
    s += (i ? ", " : "") + str(plan.grid.coord(units[i]));
  return s + "}";
}

/// Processes in an order where every input comes first; false on a cycle.
bool topoOrder(const Plan &plan, std::vector<size_t> &order, std::string &err) {
  size_t n = plan.processes.size();
  std::vector<int> state(n, 0); // 0 new, 1 on the stack, 2 done
  std::function<bool(size_t)> visit = [&](size_t p) {
    if (state[p] == 2)
      return true;
    if (state[p] == 1) {
      err = "process " + plan.processes[p].label() +
            " depends on itself through its inputs";
      return false;
    }
    state[p] = 1;
    for (size_t i : plan.processes[p].inputs)
      if (!visit(i))
        return false;
    state[p] = 2;
    order.push_back(p);
    return true;
  };
  for (size_t p = 0; p < n; ++p)
    if (!visit(p))
      return false;
  return true;
}

/// The cycles of the longest chain from each process to a final one.
std::vector<int64_t> chainCycles(const Plan &plan,
                                 const std::vector<size_t> &order) {
  std::vector<int64_t> chain(plan.processes.size(), 0),
      readers(plan.processes.size(), 0);
  // `order` has every input before its readers: walk it backwards.
  for (auto it = order.rbegin(); it != order.rend(); ++it) {
    chain[*it] = plan.processes[*it].cycles + readers[*it];
    for (size_t i : plan.processes[*it].inputs)
      readers[i] = std::max(readers[i], chain[*it]);
  }
  return chain;
}

class Scheduler {
public:
  Scheduler(const Plan &plan, const ScheduleOptions &opts)
      : plan(plan), opts(opts), n(plan.processes.size()),
        eus(size_t(plan.grid.size())) {}

  bool run(Schedule &out, std::string &err) {
    std::vector<size_t> order;
    if (!topoOrder(plan, order, err) || !prepare(err))
      return false;
    chain = chainCycles(plan, order);
    out.time.assign(n, -1);
    out.units.assign(n, {});
    memUsed.assign(eus, 0);
    ranNetwork.assign(eus, {});
    for (size_t placed = 0; placed < n;) {
      std::vector<size_t> ready = readyAt(out, int64_t(out.at.size()));
      size_t before = placed;
      placeTimeUnit(ready, out, placed);
      if (placed == before) { // an empty grid could not take any of them
        err = "process " + plan.processes[ready.front()].label() +
              " cannot be placed: " + whyNot(ready.front());
        return false;
      }
    }
    addTransfers(plan, out);
    out.repaired = repaired;
    return true;
  }

private:
  /// Candidate EUs per process and the interaction groups; plan errors.
  bool prepare(std::string &err) {
    cands.resize(n);
    groups.resize(n);
    for (size_t p = 0; p < n; ++p) {
      const Process &pr = plan.processes[p];
      for (size_t i : pr.inputs)
        if (i >= n) {
          err = "process " + pr.label() +
                " reads a process that is not in "
                "the plan";
          return false;
        }
      if (pr.units < 1 || pr.units > plan.grid.size()) {
        err = "process " + pr.label() + " wants " + std::to_string(pr.units) +
              " EUs; the grid has " + std::to_string(plan.grid.size());
        return false;
      }
      cands[p] = pr.interaction ? interactionCandidates(plan, p)
                                : targetUnits(plan, pr);
      if (pr.interaction && cands[p].empty()) {
        if (!opts.repairEmptyInteraction) {
          err = "interaction " + pr.label() + ": the target sets of " +
                betweenStr(p) +
                " have no EU in common (repair: place it on "
                "the EU nearest to its inputs)";
          return false;
        }
        cands[p] = targetUnits(plan, Process{});
        repaired.push_back(p);
      }
      if (!checkPinned(p, err))
        return false;
      if (int64_t(cands[p].size()) < pr.units) {
        err = "process " + pr.label() + " wants " + std::to_string(pr.units) +
              " EUs; its targets " + setStr(plan, cands[p]) + " have " +
              std::to_string(cands[p].size());
        return false;
      }
      if (pr.interaction) {
        groups[p].push_back(p);
        for (size_t b : plan.processes[p].betweenOrInputs())
          groups[b].push_back(p);
      }
    }
    return true;
  }

  bool checkPinned(size_t p, std::string &err) {
    const Process &pr = plan.processes[p];
    if (pr.pinned.empty())
      return true;
    if (int64_t(pr.pinned.size()) != pr.units) {
      err = "process " + pr.label() + " is pinned to " +
            std::to_string(pr.pinned.size()) + " EUs but wants " +
            std::to_string(pr.units);
      return false;
    }
    for (const Coord &c : pr.pinned) {
      if (!plan.grid.contains(c)) {
        err = "process " + pr.label() + " is pinned to " + str(c) +
              ", outside the " + std::to_string(plan.grid.cols) + "x" +
              std::to_string(plan.grid.rows) + " grid";
        return false;
      }
      if (!std::binary_search(cands[p].begin(), cands[p].end(),
                              plan.grid.index(c))) {
        err = "process " + pr.label() + " is pinned to " + str(c) +
              ", outside its target set " + setStr(plan, cands[p]);
        return false;
      }
    }
    return true;
  }

  std::string betweenStr(size_t p) const {
    std::string s;
    for (size_t b : plan.processes[p].betweenOrInputs())
      s += (s.empty() ? "" : " and ") + plan.processes[b].label() + " " +
           setStr(plan, targetUnits(plan, plan.processes[b]));
    return s;
  }

  /// Unplaced processes whose inputs all ran before time unit t, longest
  /// remaining chain first.
  std::vector<size_t> readyAt(const Schedule &s, int64_t t) const {
    std::vector<size_t> ready;
    for (size_t p = 0; p < n; ++p) {
      if (s.time[p] >= 0)
        continue;
      bool ok = true;
      for (size_t i : plan.processes[p].inputs)
        ok = ok && s.time[i] >= 0 && s.time[i] < t;
      if (ok)
        ready.push_back(p);
    }
    // Interactions first: the processes that may share their EUs can only
    // join them once they are placed. Then the longest remaining chain.
    std::stable_sort(ready.begin(), ready.end(), [&](size_t a, size_t b) {
      const Process &pa = plan.processes[a], &pb = plan.processes[b];
      if (pa.interaction != pb.interaction)
        return pa.interaction;
      return chain[a] > chain[b];
    });
    return ready;
  }

  /// p may join the processes already on an EU in time unit t: all take
  /// part in one interaction (itself or one of its `between`) placed in t.
  bool mayShare(size_t p, const std::vector<size_t> &on, const Schedule &s,
                int64_t t) const {
    for (size_t q : on) {
      bool common = false;
      for (size_t x : groups[p])
        common = common || ((x == p || s.time[x] == t) &&
                            std::find(groups[q].begin(), groups[q].end(), x) !=
                                groups[q].end());
      if (!common)
        return false;
    }
    return true;
  }

  int64_t share(size_t p) const {
    const Process &pr = plan.processes[p];
    return (pr.staticBytes + pr.units - 1) / pr.units;
  }

  bool fits(int64_t eu, size_t p) const {
    return plan.memoryBytes <= 0 ||
           memUsed[size_t(eu)] + share(p) <= plan.memoryBytes;
  }

  void placeTimeUnit(const std::vector<size_t> &ready, Schedule &s,
                     size_t &placed) {
    int64_t t = int64_t(s.at.size());
    std::vector<std::vector<size_t>> on(eus);
    s.at.emplace_back();
    for (size_t p : ready) {
      std::vector<int64_t> chosen = choose(p, s, on);
      if (chosen.empty())
        continue; // waits for the next time unit
      for (int64_t eu : chosen) {
        on[size_t(eu)].push_back(p);
        memUsed[size_t(eu)] += share(p);
        ranNetwork[size_t(eu)].push_back(plan.processes[p].network);
      }
      s.time[p] = t;
      s.units[p] = chosen;
      s.at.back().push_back(p);
      ++placed;
    }
  }

  std::vector<int64_t> choose(size_t p, const Schedule &s,
                              const std::vector<std::vector<size_t>> &on) {
    const Process &pr = plan.processes[p];
    const int64_t t = int64_t(s.at.size()) - 1;
    std::vector<int64_t> pool;
    if (!pr.pinned.empty()) {
      for (const Coord &c : pr.pinned)
        pool.push_back(plan.grid.index(c));
      for (int64_t eu : pool)
        if (!mayShare(p, on[size_t(eu)], s, t) || !fits(eu, p))
          return {};
      std::sort(pool.begin(), pool.end());
      return pool;
    }
    for (int64_t eu : cands[p])
      if (mayShare(p, on[size_t(eu)], s, t) && fits(eu, p))
        pool.push_back(eu);
    if (int64_t(pool.size()) < pr.units)
      return {};
    std::vector<std::tuple<int64_t, int64_t, int64_t, int64_t>> scored;
    for (int64_t eu : pool)
      scored.emplace_back(-reuse(p, eu, s), hopsTo(p, eu, s), -ranBefore(p, eu),
                          eu);
    std::sort(scored.begin(), scored.end());
    std::vector<int64_t> chosen;
    for (int64_t k = 0; k < pr.units; ++k)
      chosen.push_back(std::get<3>(scored[size_t(k)]));
    std::sort(chosen.begin(), chosen.end());
    return chosen;
  }

  int64_t reuse(size_t p, int64_t eu, const Schedule &s) const {
    int64_t r = 0;
    for (size_t i : plan.processes[p].inputs)
      r += std::binary_search(s.units[i].begin(), s.units[i].end(), eu);
    return r;
  }

  int64_t hopsTo(size_t p, int64_t eu, const Schedule &s) const {
    int64_t h = 0;
    for (size_t i : plan.processes[p].inputs) {
      int64_t best = INT64_MAX;
      for (int64_t src : s.units[i])
        best = std::min(best, plan.grid.hops(src, eu));
      h += best;
    }
    return h;
  }

  int64_t ranBefore(size_t p, int64_t eu) const {
    const auto &nets = ranNetwork[size_t(eu)];
    return std::find(nets.begin(), nets.end(), plan.processes[p].network) !=
           nets.end();
  }

  std::string whyNot(size_t p) const {
    const Process &pr = plan.processes[p];
    if (plan.memoryBytes > 0 && share(p) > plan.memoryBytes)
      return "its static data (" + std::to_string(share(p)) +
             " bytes per EU) exceeds an EU's memory (" +
             std::to_string(plan.memoryBytes) + " bytes)";
    return "its " + std::to_string(pr.units) + " EUs among " +
           setStr(plan, cands[p]) +
           " do not have room for its static data next to the processes "
           "placed before it";
  }

  const Plan &plan;
  const ScheduleOptions &opts;
  size_t n, eus;
  std::vector<std::vector<int64_t>> cands;
  std::vector<std::vector<size_t>> groups; ///< interactions p takes part in
  std::vector<int64_t> chain, memUsed;
  std::vector<size_t> repaired; ///< interactions placed anywhere (repair)
  std::vector<std::vector<std::string>> ranNetwork;
};

} // namespace

void addTransfers(const Plan &plan, Schedule &s) {
  size_t n = plan.processes.size();
  s.transfers.clear();
  for (size_t q = 0; q < n; ++q) {
    Transfer t;
    t.producer = q;
    t.bytes = plan.processes[q].outputBytes;
    t.time = INT64_MAX;
    for (size_t r = 0; r < n; ++r) {
      const auto &ins = plan.processes[r].inputs;
      if (std::find(ins.begin(), ins.end(), q) == ins.end())
        continue;
      t.time = std::min(t.time, s.time[r]);
      for (int64_t eu : s.units[r])
        if (!std::binary_search(s.units[q].begin(), s.units[q].end(), eu) &&
            std::find(t.to.begin(), t.to.end(), eu) == t.to.end())
          t.to.push_back(eu);
    }
    if (t.to.empty())
      continue;
    std::sort(t.to.begin(), t.to.end());
    // One sender: the producer's EU nearest (summed hops) to the receivers.
    t.hops = INT64_MAX;
    for (int64_t src : s.units[q]) {
      int64_t hops = 0;
      for (int64_t eu : t.to)
        hops += plan.grid.hops(src, eu);
      if (hops < t.hops) {
        t.hops = hops;
        t.from = src;
      }
    }
    s.transfers.push_back(t);
  }
}

std::vector<int64_t> interactionCandidates(const Plan &plan, size_t p) {
  const Process &pr = plan.processes[p];
  const std::vector<size_t> &between = pr.betweenOrInputs();
  std::vector<int64_t> common = targetUnits(plan, pr);
  for (size_t b : between) {
    if (b >= plan.processes.size())
      return {};
    std::vector<int64_t> s = targetUnits(plan, plan.processes[b]), meet;
    std::set_intersection(common.begin(), common.end(), s.begin(), s.end(),
                          std::back_inserter(meet));
    common = meet;
  }
  return common;
}

bool schedule(const Plan &plan, const ScheduleOptions &opts, Schedule &out,
              std::string &err) {
  out = Schedule{};
  return Scheduler(plan, opts).run(out, err);
}

} // namespace accel::multinet
