//===- SimMesh.cpp - SEND / SIGNAL / RECV and remote_load -----------------===//
//
// Mesh transfers between the clusters' storage units and the per-cluster
// semaphores that synchronise them (docs/simulator.md "Mesh", "Semaphores").
// A SEND writes the targets' storage units when it is processed (program
// order of the sender) and records, per target, the cycle its data arrives;
// a RECV blocks its control unit until enough arrivals are known, so a
// receiver that RECVs before using the data reads the sent values, and a
// receiver that does not is caught by the hazard detector (the SEND's write
// window on its storage unit).
//
//===----------------------------------------------------------------------===//
#include "SimImpl.h"

namespace accel {
namespace sim {

bool Sim::checkTargets(const MeshOp &m, bool send) {
  if (m.targets.empty())
    return fail("no target cluster");
  for (size_t i = 0; i < m.targets.size(); ++i) {
    if (m.targets[i] >= clusters.size())
      return fail("target cluster " + std::to_string(m.targets[i]) +
                  " outside the " + std::to_string(hw.rows) + "x" +
                  std::to_string(hw.cols) + " grid");
    if (i && m.targets[i] <= m.targets[i - 1])
      return fail("targets must be ascending and distinct (" +
                  std::to_string(m.targets[i - 1]) + " before " +
                  std::to_string(m.targets[i]) + ")");
  }
  if (m.sem >= kNumSemaphores)
    return fail("semaphore " + std::to_string(m.sem) + " out of range [0, " +
                std::to_string(kNumSemaphores) + ")");
  if (send && m.tag >= kTags)
    return fail("tag " + std::to_string(m.tag) + " out of range [0, 8)");
  return true;
}

void Sim::meshTrace(const std::string &name, const MeshTransfer &t,
                    const std::string &args) {
  if (!trace.enabled() || t.linkBusy == 0)
    return;
  for (const MeshLink &l : t.links) {
    auto it = linkTid.find(l);
    if (it != linkTid.end())
      trace.complete(name, clusters.size() + 1, it->second, t.start, t.linkBusy,
                     args);
  }
}

bool Sim::doSend(Cluster &c, const Command &cmd) {
  const MeshOp &m = cmd.mesh;
  if (!checkTargets(m, true))
    return false;
  const i128 cap = i128(c.storage.size());
  const Range src{i128(m.src), i128(m.src) + m.bytes};
  const Range dst{i128(m.dst), i128(m.dst) + m.bytes};
  if (src.hi > cap)
    return fail("source " + src.str() + " outside the storage unit [0, " +
                int128String(cap) + ")");
  if (dst.hi > cap)
    return fail("destination " + dst.str() +
                " outside the target storage units [0, " + int128String(cap) +
                ")");

  const uint64_t issued = c.t + hw.commandIssueCycles;
  MeshTransfer t = mesh.send(c.index, m.targets, m.bytes, issued);

  // Functional: the targets' storage units receive the bytes now (the
  // source is staged first: a local copy may overlap it), on the issuing
  // cluster's data lane.
  if (m.bytes) {
    std::vector<uint8_t *> to;
    for (uint32_t target : m.targets)
      to.push_back(clusters[target].storage.data() + m.dst);
    DataFootprint fp;
    fp.foreign = m.targets;
    pushData(
        c, fp,
        [from = c.storage.data() + m.src, bytes = m.bytes, to = std::move(to)] {
          std::vector<uint8_t> data(from, from + bytes);
          for (uint8_t *dst : to)
            std::memcpy(dst, data.data(), bytes);
        });
  }
  uint64_t lastArrival = t.sourceDone;
  Access a;
  a.cluster = c.index;
  a.cmd = curCmd;
  a.start = t.start;
  a.issued = issued;
  a.end = t.sourceDone;
  a.range = src;
  a.write = false;
  if (!addAccess(a, int(c.index)))
    return false;
  for (size_t i = 0; i < m.targets.size(); ++i) {
    Cluster &to = clusters[m.targets[i]];
    to.sems[m.sem].insert(t.arrival[i]);
    to.reachedUntil = std::max(to.reachedUntil, t.arrival[i]);
    lastArrival = std::max(lastArrival, t.arrival[i]);
    a.end = t.arrival[i];
    a.range = dst;
    a.write = true;
    if (!addAccess(a, int(to.index)))
      return false;
    if (to.index == c.index) {
      ++stats.mesh.localCopies;
    } else {
      c.st.meshBytesSent += m.bytes;
      to.st.meshBytesReceived += m.bytes;
    }
  }
  c.tagDone[m.tag] = std::max(c.tagDone[m.tag], t.sourceDone);
  c.lastDmaDone = std::max(c.lastDmaDone, lastArrival);
  unitEnd = lastArrival;
  busyTotals.mesh += t.linkBusy;
  ++c.st.sends;
  ++stats.mesh.transfers;
  stats.mesh.bytes += m.bytes;
  stats.mesh.byteHops += t.byteHops;
  stats.storageBytesRead += m.bytes;
  stats.storageBytesWritten += uint64_t(m.bytes) * m.targets.size();
  if (trace.enabled()) {
    std::string tg;
    for (uint32_t x : m.targets)
      tg += std::string(tg.empty() ? "" : ",") + std::to_string(x);
    std::string args = "{\"command\":" + std::to_string(curCmd) +
                       ",\"bytes\":" + std::to_string(m.bytes) +
                       ",\"sem\":" + std::to_string(m.sem) + ",\"targets\":[" +
                       tg + "]}";
    trace.complete("SEND tag " + std::to_string(m.tag), c.index, 2, t.start,
                   lastArrival - t.start, args);
    meshTrace("SEND from " + clusterName(c.index), t, args);
  }
  return true;
}

bool Sim::doSignal(Cluster &c, const Command &cmd) {
  const MeshOp &m = cmd.mesh;
  if (!checkTargets(m, false))
    return false;
  const uint64_t issued = c.t + hw.commandIssueCycles;
  for (uint32_t x : m.targets)
    clusters[x].sems[m.sem].insert(mesh.signalArrival(c.index, x, issued));
  ++c.st.signals;
  ++stats.mesh.signals;
  return true;
}

bool Sim::beginRecv(Cluster &c, const Command &cmd) {
  if (cmd.sem >= kNumSemaphores)
    return fail("semaphore " + std::to_string(cmd.sem) + " out of range [0, " +
                std::to_string(kNumSemaphores) + ")");
  c.t += hw.commandIssueCycles;
  c.inRecv = true;
  c.recvSem = cmd.sem;
  c.recvCount = cmd.count;
  c.recvCmd = curCmd;
  c.recvIssued = c.t;
  c.sleeping = opts.powerGating && curCmd == 0;
  ++c.st.recvs;
  return true;
}

bool Sim::recvReady(const Cluster &c, uint64_t &resume) const {
  resume = c.recvIssued;
  if (c.recvCount == 0)
    return true;
  auto it = c.sems.find(c.recvSem);
  if (it == c.sems.end() || it->second.size() < c.recvCount)
    return false;
  auto nth = it->second.begin();
  std::advance(nth, c.recvCount - 1);
  resume = std::max(resume, *nth);
  return true;
}

void Sim::finishRecv(Cluster &c, uint64_t resume) {
  if (c.recvCount) {
    auto &pending = c.sems[c.recvSem];
    auto last = pending.begin();
    std::advance(last, c.recvCount);
    pending.erase(pending.begin(), last);
  }
  if (c.sleeping) { // switched on by the arrival: it wakes first
    c.sleeping = false;
    c.offUntil = resume;
    c.wokenAt = resume = resume + hw.wakeLatencyCycles;
  }
  c.st.stallCycles += resume - c.recvIssued;
  layerAcct.extend((*c.cmds)[c.recvCmd].layer, c.index, resume);
  if (trace.enabled())
    trace.complete("RECV sem " + std::to_string(c.recvSem) + " count " +
                       std::to_string(c.recvCount),
                   c.index, 0, c.recvIssued - hw.commandIssueCycles,
                   resume - c.recvIssued + hw.commandIssueCycles,
                   "{\"command\":" + std::to_string(c.recvCmd) + "}");
  c.t = resume;
  c.inRecv = false;
  now = std::max(now, resume);
}

bool Sim::doRemoteLoad(Cluster &c, const Command &cmd, Range src, Range dst,
                       uint64_t bytes) {
  const DmaDesc &d = cmd.dma;
  Cluster &owner = clusters[d.srcCluster];
  const uint64_t issued = c.t + hw.commandIssueCycles;
  MeshTransfer t = mesh.remoteLoad(c.index, owner.index, bytes, issued);
  const uint64_t done = t.arrival[0];
  c.tagDone[d.tag] = std::max(c.tagDone[d.tag], done);
  c.lastDmaDone = std::max(c.lastDmaDone, done);
  owner.reachedUntil = std::max(owner.reachedUntil, done); // power gating
  unitEnd = done;
  busyTotals.mesh += t.linkBusy;

  Access a;
  a.start = t.start;
  a.issued = issued;
  a.end = done;
  a.cluster = c.index;
  a.cmd = curCmd;
  a.range = src;
  a.write = false;
  if (bytes && !addAccess(a, int(owner.index)))
    return false;
  a.range = dst;
  a.write = true;
  if (bytes && !addAccess(a, int(c.index)))
    return false;

  c.st.dmaBytes += bytes;
  ++c.st.dmaTransfers;
  owner.st.meshBytesSent += bytes;
  c.st.meshBytesReceived += bytes;
  ++stats.mesh.transfers;
  stats.mesh.bytes += bytes;
  stats.mesh.byteHops += t.byteHops;
  stats.storageBytesRead += bytes;
  stats.storageBytesWritten += bytes;
  if (trace.enabled()) {
    std::string args = "{\"command\":" + std::to_string(curCmd) +
                       ",\"bytes\":" + std::to_string(bytes) +
                       ",\"from\":" + std::to_string(owner.index) + "}";
    trace.complete("DMA remote_load tag " + std::to_string(d.tag), c.index, 2,
                   t.start, done - t.start, args);
    meshTrace("remote_load " + clusterName(c.index) + " <- " +
                  clusterName(owner.index),
              t, args);
  }
  return true;
}

std::string Sim::deadlockMessage() const {
  std::string s = "deadlock: no cluster can continue:";
  const char *sep = " ";
  for (const Cluster &c : clusters) {
    std::string what;
    if (c.inRecv) {
      auto it = c.sems.find(c.recvSem);
      size_t have = it == c.sems.end() ? 0 : it->second.size();
      what = "command " + std::to_string(c.recvCmd) +
             " (RECV) waits for semaphore " + std::to_string(c.recvSem) +
             " to reach " + std::to_string(c.recvCount) + " (" +
             std::to_string(have) + " arrived, no SEND/SIGNAL left to come)";
    } else if (c.atBarrier) {
      what = "command " + std::to_string(c.pc - 1) + " waits at barrier " +
             std::to_string(c.barrierId);
    } else {
      what = "has finished its command stream";
    }
    s += sep + clusterName(c.index) + " " + what;
    sep = "; ";
  }
  return s;
}

} // namespace sim
} // namespace accel
