//===- ValidateSync.cpp - Mesh commands and synchronisation checks --------===//
//
// The load-time half of "a receive without a matching send, a wait that can
// never be satisfied, a route outside the grid are errors, not hangs"
// (docs/isa.md, "Validation rules"):
//  - per command: SEND / SIGNAL targets, semaphores, RECV counts, SEND
//    storage ranges, remote_load sources;
//  - per (cluster, semaphore): the RECV counts equal the SEND / SIGNAL
//    arrivals;
//  - a symbolic run of the synchronisation commands (BARRIER, RECV, SEND,
//    SIGNAL; time ignored, every arrival eventually happens) that finds
//    streams which can never finish. Only the owning cluster waits on its
//    semaphores and semaphores only grow between its RECVs, so the outcome
//    does not depend on the order the clusters are advanced in: the run is
//    exact, and linear in the commands (each command is executed once,
//    each arrival wakes at most its one consumer).
//
//===----------------------------------------------------------------------===//
#include "ValidateParts.h"
#include "accel/Target/Encoding.h"
#include <unordered_map>

namespace accel {
namespace validate {

std::string clusterName(const Program &p, uint64_t cluster) {
  return "(" + std::to_string(cluster / p.gridCols) + "," +
         std::to_string(cluster % p.gridCols) + ")";
}

namespace {

std::string gridName(const Program &p) {
  return std::to_string(p.gridRows) + "x" + std::to_string(p.gridCols);
}

/// "1 arrival", "3 arrivals".
std::string count(uint64_t n, const char *noun) {
  return std::to_string(n) + " " + noun + (n == 1 ? "" : "s");
}

uint64_t numClusters(const Program &p) {
  return uint64_t(p.gridRows) * p.gridCols;
}

bool checkTargets(const MeshOp &m, const Program &p, std::string &msg) {
  if (m.targets.empty()) {
    msg = "no target cluster";
    return false;
  }
  for (size_t i = 0; i < m.targets.size(); ++i) {
    uint32_t t = m.targets[i];
    if (t >= numClusters(p)) {
      msg = "target cluster " + std::to_string(t) + " is outside the " +
            gridName(p) + " grid";
      return false;
    }
    if (i && t <= m.targets[i - 1]) {
      msg = "targets must be ascending row-major indices without repeats (" +
            clusterName(p, t) + " follows " + clusterName(p, m.targets[i - 1]) +
            ")";
      return false;
    }
  }
  return true;
}

bool checkSem(uint32_t sem, std::string &msg) {
  if (sem < kNumSemaphores)
    return true;
  msg = "semaphore " + std::to_string(sem) + " out of range [0, " +
        std::to_string(kNumSemaphores) + ")";
  return false;
}

bool checkStorage(const char *side, uint64_t addr, uint64_t bytes,
                  const HardwareDesc &hw, std::string &msg) {
  if (addr + bytes <= hw.storageBytes) // both < 2^32: no overflow
    return true;
  msg = std::string(side) + " bytes [" + std::to_string(addr) + ", " +
        std::to_string(addr + bytes) + ") outside the storage unit [0, " +
        std::to_string(hw.storageBytes) + ")";
  return false;
}

} // namespace

bool checkSyncCommand(const Command &c, const Program &p,
                      const HardwareDesc &hw, std::string &msg) {
  switch (c.kind) {
  case CommandKind::Recv:
    if (!checkSem(c.sem, msg))
      return false;
    if (c.count < 1) {
      msg = "count must be >= 1";
      return false;
    }
    return true;
  case CommandKind::Signal:
    return checkTargets(c.mesh, p, msg) && checkSem(c.mesh->sem, msg);
  case CommandKind::Send: {
    const MeshOp &m = c.mesh;
    if (!checkTargets(m, p, msg) || !checkSem(m.sem, msg))
      return false;
    if (m.tag >= kNumDmaTags) {
      msg = "tag " + std::to_string(m.tag) + " out of range [0, 8)";
      return false;
    }
    if (m.bytes < 1) {
      msg = "bytes must be >= 1";
      return false;
    }
    return checkStorage("source", m.src, m.bytes, hw, msg) &&
           checkStorage("destination", m.dst, m.bytes, hw, msg);
  }
  default:
    msg = "not a synchronisation command";
    return false;
  }
}

bool checkRemoteLoad(const DmaDesc &d, uint64_t cluster, const Program &p,
                     const HardwareDesc &hw, std::string &msg) {
  if (d.srcCluster >= numClusters(p)) {
    msg = "remote_load source cluster " + std::to_string(d.srcCluster) +
          " is outside the " + gridName(p) + " grid";
    return false;
  }
  if (d.srcCluster == cluster) {
    msg = "remote_load from its own cluster " + clusterName(p, cluster) +
          " (a SEND to itself copies inside the storage unit)";
    return false;
  }
  if (!hw.sharedClusterCache) {
    msg = "remote_load reads the storage unit of cluster " +
          clusterName(p, d.srcCluster) + ", but on hardware '" + hw.name +
          "' the storage unit is not a shared cache (cluster.shared_cache "
          "is false): exchange through DRAM instead";
    return false;
  }
  return true;
}

namespace {

/// Symbolic run of the synchronisation commands of every stream.
class SyncRun {
public:
  SyncRun(const Program &p) : p(p), n(p.clusters.size()), pc(n, 0) {
    state.assign(n, Running);
  }
  /// Runs to the end or to a deadlock; false + message on a deadlock.
  bool run(std::string &err);

private:
  enum State { Running, AtRecv, AtBarrier, Done };
  static uint64_t key(uint64_t cluster, uint32_t sem) {
    return cluster * kNumSemaphores + sem;
  }
  void advance(uint64_t c);
  void arrive(uint64_t target, uint32_t sem);
  std::string blockedAt(uint64_t c) const;
  std::string deadlockMessage() const;

  const Program &p;
  size_t n;
  std::vector<size_t> pc;
  std::vector<State> state;
  std::unordered_map<uint64_t, uint64_t> sems;
  std::vector<uint64_t> ready;
  size_t atBarrier = 0;
};

void SyncRun::arrive(uint64_t t, uint32_t sem) {
  uint64_t v = ++sems[key(t, sem)];
  if (state[t] != AtRecv)
    return;
  const Command &w = p.clusters[t].commands[pc[t]];
  if (w.sem == sem && v >= w.count) {
    state[t] = Running;
    ready.push_back(t);
  }
}

void SyncRun::advance(uint64_t c) {
  const auto &cmds = p.clusters[c].commands;
  while (pc[c] < cmds.size()) {
    const Command &cmd = cmds[pc[c]];
    switch (cmd.kind) {
    case CommandKind::Send:
    case CommandKind::Signal:
      for (uint32_t t : cmd.mesh->targets)
        arrive(t, cmd.mesh->sem);
      break;
    case CommandKind::Recv: {
      uint64_t &v = sems[key(c, cmd.sem)];
      if (v < cmd.count) {
        state[c] = AtRecv;
        return;
      }
      v -= cmd.count;
      break;
    }
    case CommandKind::Barrier:
      // The barrier sequences agree (checked before), so the clusters meet
      // at the same id; the last one to arrive releases them all.
      state[c] = AtBarrier;
      if (++atBarrier < n)
        return;
      atBarrier = 0;
      for (uint64_t o = 0; o < n; ++o) {
        state[o] = Running;
        ++pc[o];
        if (o != c)
          ready.push_back(o);
      }
      continue; // pc[c] already moved past the barrier
    default:
      break;
    }
    ++pc[c];
  }
  state[c] = Done;
}

std::string SyncRun::blockedAt(uint64_t c) const {
  const Command &cmd = p.clusters[c].commands[pc[c]];
  std::string s = "cluster " + clusterName(p, c) + " command " +
                  std::to_string(pc[c]) + " " + commandKindName(cmd.kind);
  if (cmd.kind == CommandKind::Recv)
    return s + " sem " + std::to_string(cmd.sem);
  return s + " " + std::to_string(cmd.barrierId);
}

std::string SyncRun::deadlockMessage() const {
  // Report the first cluster stuck on a RECV (a deadlock always has one:
  // with equal barrier sequences the clusters cannot all be stuck at
  // barriers), then the other stuck clusters it may be waiting for.
  uint64_t victim = n;
  for (uint64_t c = 0; c < n && victim == n; ++c)
    if (state[c] == AtRecv)
      victim = c;
  for (uint64_t c = 0; c < n && victim == n; ++c)
    if (state[c] != Done)
      victim = c;
  std::string msg = blockedAt(victim) + " can never complete: ";
  if (state[victim] == AtRecv) {
    const Command &w = p.clusters[victim].commands[pc[victim]];
    auto it = sems.find(key(victim, w.sem));
    msg += "the semaphore holds " +
           std::to_string(it == sems.end() ? 0 : it->second) + " of " +
           std::to_string(w.count) + " and no cluster can still signal it";
  } else {
    msg += "not every cluster can reach it";
  }
  std::string others;
  size_t listed = 0, stuck = 0;
  for (uint64_t c = 0; c < n; ++c) {
    if (c == victim || state[c] == Done)
      continue;
    ++stuck;
    if (listed < 4) {
      others += (listed ? "; " : "") + blockedAt(c);
      ++listed;
    }
  }
  if (stuck) {
    msg += " (also blocked: " + others;
    if (stuck > listed)
      msg += "; and " + std::to_string(stuck - listed) + " more";
    msg += ")";
  } else {
    msg += " (every other cluster finished its stream)";
  }
  return msg;
}

bool SyncRun::run(std::string &err) {
  for (uint64_t c = n; c-- > 0;)
    ready.push_back(c);
  while (!ready.empty()) {
    uint64_t c = ready.back();
    ready.pop_back();
    if (state[c] == Running)
      advance(c);
  }
  for (uint64_t c = 0; c < n; ++c)
    if (state[c] != Done) {
      err = deadlockMessage();
      return false;
    }
  return true;
}

/// First RECV of `cluster` on `sem` whose cumulative count exceeds
/// `arrivals` (the one that would block forever).
size_t firstUnsatisfiedRecv(const Program &p, uint64_t cluster, uint32_t sem,
                            uint64_t arrivals) {
  const auto &cmds = p.clusters[cluster].commands;
  uint64_t taken = 0;
  for (size_t k = 0; k < cmds.size(); ++k)
    if (cmds[k].kind == CommandKind::Recv && cmds[k].sem == sem &&
        (taken += cmds[k].count) > arrivals)
      return k;
  return cmds.size();
}

/// Per (cluster, semaphore): the RECV counts and the SEND / SIGNAL arrivals
/// (with the last command that targets it, for the message).
bool checkCounts(const Program &p, std::string &err) {
  struct Tally {
    uint64_t waits = 0, arrivals = 0;
    uint64_t lastSender = 0;
    size_t lastCommand = 0;
  };
  std::unordered_map<uint64_t, Tally> tally;
  std::vector<uint64_t> order; // keys in first-seen order: stable messages
  auto at = [&](uint64_t k) -> Tally & {
    auto [it, inserted] = tally.try_emplace(k);
    if (inserted)
      order.push_back(k);
    return it->second;
  };
  for (uint64_t c = 0; c < p.clusters.size(); ++c) {
    const auto &cmds = p.clusters[c].commands;
    for (size_t k = 0; k < cmds.size(); ++k) {
      const Command &cmd = cmds[k];
      if (cmd.kind == CommandKind::Recv) {
        at(c * kNumSemaphores + cmd.sem).waits += cmd.count;
      } else if (cmd.kind == CommandKind::Send ||
                 cmd.kind == CommandKind::Signal) {
        for (uint32_t t : cmd.mesh->targets) {
          Tally &ty = at(uint64_t(t) * kNumSemaphores + cmd.mesh->sem);
          ++ty.arrivals;
          ty.lastSender = c;
          ty.lastCommand = k;
        }
      }
    }
  }
  for (uint64_t k : order) {
    const Tally &t = tally[k];
    uint64_t cluster = k / kNumSemaphores;
    uint32_t sem = uint32_t(k % kNumSemaphores);
    std::string name = clusterName(p, cluster), s = std::to_string(sem);
    if (t.waits > t.arrivals) {
      size_t cmd = firstUnsatisfiedRecv(p, cluster, sem, t.arrivals);
      err = "cluster " + name + " RECV sem " + s + " waits for " +
            count(t.waits, "arrival") + " but only " +
            std::to_string(t.arrivals) + " SEND/SIGNAL target it (command " +
            std::to_string(cmd) + " is the first RECV that can never complete)";
      return false;
    }
    if (t.arrivals > t.waits) {
      const Command &last = p.clusters[t.lastSender].commands[t.lastCommand];
      err = "cluster " + clusterName(p, t.lastSender) + " command " +
            std::to_string(t.lastCommand) + " (" + commandKindName(last.kind) +
            "): SEND/SIGNAL to " + name + " sem " + s +
            " never received: " + count(t.arrivals, "arrival") +
            " but the RECVs of cluster " + name + " take " +
            std::to_string(t.waits);
      return false;
    }
  }
  return true;
}

} // namespace

bool checkSynchronisation(const Program &p, std::string &err) {
  return checkCounts(p, err) && SyncRun(p).run(err);
}

} // namespace validate
} // namespace accel
