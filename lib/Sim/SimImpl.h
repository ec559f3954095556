//===- SimImpl.h - The simulator's internal state and the Sim class ------===//
//
// Shared by Simulator.cpp (commands, DMA, hazards, stats, the run loop) and
// SimInstructions.cpp (LD / MAC / ST / SPU on the PE array) and SimMesh.cpp
// (SEND / SIGNAL / RECV, remote_load). Internal to
// lib/Sim; docs/simulator.md is the reference.
//
//===----------------------------------------------------------------------===//
#ifndef ACCEL_LIB_SIM_SIMIMPL_H
#define ACCEL_LIB_SIM_SIMIMPL_H

#include "AccessList.h"
#include "ActivityBins.h"
#include "ChannelTimeline.h"
#include "DataLanes.h"
#include "LayerAccounting.h"
#include "MeshModel.h"
#include "PagedMemory.h"
#include "PeKernels.h"
#include "Trace.h"
#include "ZeroedMemory.h"
#include "accel/Rnn/ColumnEngine.h"
#include "accel/Sim/Simulator.h"
#include "accel/Support/Parallel.h"
#include "accel/Target/Encoding.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

namespace accel {
namespace sim {

constexpr unsigned kSlots = 16;
constexpr unsigned kAccs = 4;
constexpr unsigned kTags = 8;
constexpr unsigned kMaxIbufs = 32;
constexpr uint32_t kMaxRepeat = 1u << 16;
constexpr uint32_t kMaxElemBytes = 64;
/// Bins per cluster of SimStats::timeline (128 to 256 used once a run is
/// longer than 256 cycles: enough for a plot a screen wide).
constexpr unsigned kTimelineBins = 256;
/// Extra cycles of a type-2 pipeline per loop-back iteration: the SU stage
/// (operand arithmetic) and the WB stage (register-file write-back) run after
/// the PEs finish the iteration.
constexpr uint64_t kScalarUnitCycles = 2;

using i128 = __int128;

/// Byte range [lo, hi).
struct Range {
  i128 lo = 0, hi = 0;
  bool empty() const { return hi <= lo; }
  bool overlaps(const Range &o) const {
    return !empty() && !o.empty() && lo < o.hi && o.lo < hi;
  }
  std::string str() const {
    return "[" + int128String(lo) + ", " + int128String(hi) + ")";
  }
};

/// Bytes touched by rows [r0, r1) of a tile (4-byte elements).
inline Range tileRange(const OperandRecord &r, uint64_t r0, uint64_t r1) {
  if (r1 <= r0 || r.cols == 0)
    return {};
  i128 a = i128(r0) * r.rowStride, b = i128(r1 - 1) * r.rowStride;
  i128 lo = std::min(a, b), hi = std::max(a, b);
  i128 ce = i128(r.cols - 1) * r.colStride;
  lo += std::min<i128>(0, ce);
  hi += std::max<i128>(0, ce);
  return {i128(r.addr) + lo * 4, i128(r.addr) + hi * 4 + 4};
}

/// Bytes touched by a DMA box side.
inline Range boxRange(uint64_t base, const uint32_t *shape,
                      const int64_t *stride, uint32_t elemBytes) {
  i128 lo = 0, hi = 0;
  for (int d = 0; d < 4; ++d) {
    if (shape[d] == 0)
      return {};
    i128 ext = i128(shape[d] - 1) * stride[d];
    if (ext < 0)
      lo += ext;
    else
      hi += ext;
  }
  return {i128(base) + lo * elemBytes, i128(base) + hi * elemBytes + elemBytes};
}

inline uint64_t ceilDiv(double num, double den) {
  if (num <= 0)
    return 0;
  return uint64_t(std::ceil(num / den));
}

struct PE {
  /// wq: LD weights broadcasts one tile to every PE's queue, so the host
  /// keeps PE 0's copy only (the MACs of every PE read it).
  /// Zeroed at start, in Sim::onChip (ZeroedMemory.h).
  ZeroedArray<float> inbuf, wq, acc[kAccs];
  /// Floats of acc[a] from 0 that may be non-zero (written since the last
  /// clear): a shift clears only those.
  uint64_t accDirty[kAccs] = {};
  void accWritten(unsigned a, uint64_t n) {
    accDirty[a] = std::max(accDirty[a], n);
  }
  /// A shift: the floats to zero per buffer; the counts start again.
  std::array<uint64_t, kAccs> takeDirty() {
    std::array<uint64_t, kAccs> d;
    for (unsigned a = 0; a < kAccs; ++a) {
      d[a] = accDirty[a];
      accDirty[a] = 0;
    }
    return d;
  }
  void clearAccs(const std::array<uint64_t, kAccs> &dirty) {
    for (unsigned a = 0; a < kAccs; ++a)
      std::fill(acc[a].begin(), acc[a].begin() + dirty[a], 0.0f);
  }
};

/// The weight queue's state beyond its data (identical in every PE: LD
/// weights broadcasts).
struct WeightQueue {
  bool sparse = false;           ///< holds (value, index) pairs
  std::vector<SparsePair> pairs; ///< sparse list (real pairs only)
  uint32_t sparseK = 0, sparseN = 0;
  uint64_t denseFloats = 0; ///< floats the last dense LD weights wrote
  uint64_t head = 0;        ///< RQ rotation position (in tiles)
  bool resident = false;    ///< `source` names the queue's content
  bool slidable = false;    ///< filled by an SW load (a window)
  uint8_t stream = 0;
  OperandRecord source; ///< record of the LD that filled the queue
};

/// A RECUR issued but not yet scheduled on the engine (SimRecur.cpp).
struct PendingRecur {
  RecurDesc desc;
  uint64_t issued = 0;
  size_t cmd = 0;
  uint32_t layer = Command::kNoLayer;
};

/// Where a batch of RECUR tasks keeps its weights (SimRecur.cpp).
struct WeightPlan {
  bool stationary = false;                  ///< all fit the PE weight queues
  uint64_t fillCycles = 0;                  ///< loading them there
  std::set<const PendingRecur *> firstUser; ///< first task of each matrix
};

struct Cluster {
  uint32_t index = 0, row = 0, col = 0, channel = 0;
  ZeroedArray<uint8_t> storage; ///< in Sim::onChip
  /// Every PE's input buffer, then every PE's accumulation buffers (PE q's
  /// acc[a] at (q * kAccs + a) * accFloats): the blocks PE::inbuf and
  /// PE::acc view, in Sim::onChip.
  ZeroedArray<float> peInbufs, peAccs;
  /// Floats from one PE's input buffer to the next's, and from one PE's
  /// acc[a] to the next's, in those blocks.
  uint64_t peInbufStride = 0, peAccStride = 0;
  std::vector<PE> pes;
  std::vector<std::vector<Instruction>> ibufs;
  std::vector<char> configured;
  std::vector<uint64_t> ibufBusyUntil;
  WeightQueue wq;
  bool accChained[kAccs] = {}; ///< last MAC into acc[a] had sfuActive
  bool swValid[kSlots] = {};   ///< SW window resident at this slot
  OperandRecord swPrev[kSlots];
  const CommandList *cmds = nullptr;
  size_t pc = 0;
  /// Commands [0, checked) may run (SimOptions::commandsChecked).
  uint64_t checked = UINT64_MAX;
  uint64_t t = 0, peFree = 0, lastDmaDone = 0;
  /// Last cycle another cluster read or wrote its storage (power gating).
  uint64_t reachedUntil = 0;
  /// Power gating: a stream that starts with a RECV sleeps in it; the
  /// cluster is off in [0, offUntil) and wakes in [offUntil, wokenAt).
  bool sleeping = false;
  uint64_t offUntil = 0, wokenAt = 0;
  /// When the DMA engine's storage-to-storage path (local_copy) is free:
  /// local copies run one after another, in issue order.
  uint64_t localCopyFree = 0;
  uint64_t tagDone[kTags] = {};
  bool atBarrier = false;
  uint32_t barrierId = 0;
  uint64_t barrierArrival = 0;
  /// Blocked in RECV (command recvCmd) until semaphore recvSem holds
  /// recvCount arrivals; recvIssued = control-unit time after the issue.
  bool inRecv = false;
  uint32_t recvSem = 0, recvCount = 0;
  size_t recvCmd = 0;
  uint64_t recvIssued = 0;
  /// RECUR tasks waiting for the engine, and when its last block ends.
  std::vector<PendingRecur> pendingRecur;
  uint64_t engineFree = 0;
  std::set<uint32_t> rnnTraceThreads;
  /// Semaphores: pending arrival times (not yet taken by a RECV) per id.
  std::map<uint32_t, std::multiset<uint64_t>> sems;
  ClusterStats st;
};

/// One in-flight memory access for hazard detection.
struct Access {
  Range range;
  uint64_t start = 0, end = 0;
  /// Commands (instr = -1): the cycle the command was issued (it may queue
  /// on a channel or link until `start`); hazards count from here.
  uint64_t issued = 0;
  /// DMA on memory channels: bit (k % 64) per channel k it uses (0 = not a
  /// channel DMA). A cluster's DMAs on one channel run in issue order.
  uint64_t channels = 0;
  bool write = false;
  uint32_t cluster = 0;
  size_t cmd = 0;
  int instr = -1; ///< instruction index inside an EXECUTE, -1 = command
};

/// Per-EXECUTE accumulation of costs and accesses.
struct ExecInfo {
  uint64_t cycles = 0;
  uint64_t sfuCycles = 0; ///< of `cycles`: SPU instructions, ST SFU passes
  uint64_t macs = 0;
  uint64_t storageRead = 0, storageWritten = 0;
  struct Window {
    uint64_t offset, dur; // relative to the EXECUTE start
    Range range;
    bool write;
    int instr;
  };
  std::vector<Window> windows;
};

class Sim {
public:
  Sim(const Program &p, const HardwareDesc &hw, const SimOptions &opts,
      SimStats &stats, std::string &err)
      : p(p), hw(hw), opts(opts), stats(stats), err(err) {}

  bool run(const std::map<std::string, Tensor> &inputs,
           std::map<std::string, Tensor> &outputs);

private:
  bool fail(const std::string &msg) {
    err = cur ? where() + msg : msg;
    return false;
  }
  std::string clusterName(uint32_t i) const {
    return "cluster (" + std::to_string(i / p.gridCols) + "," +
           std::to_string(i % p.gridCols) + ")";
  }
  std::string where() const;
  std::string instrWhere(size_t idx, const Instruction &in) const;
  std::string describe(const Access &a) const;

  bool checkProgram();
  bool setupMemory(const std::map<std::string, Tensor> &inputs);
  /// A symbol's image to / from DRAM (dense, or its pieces).
  void writeImage(const Symbol &s, const std::vector<float> &data);
  /// An i32 / i64 input needs an integer tensor held exactly in f32.
  bool checkIntegerInput(const Symbol &s, const Tensor &t);
  void readImage(const Symbol &s, std::vector<float> &data);
  /// Writes the constant packets' marker areas into DRAM.
  bool writePackets();
  bool step(Cluster &c);
  /// Waits until command c.pc is checked (SimOptions::commandsChecked);
  /// false when a violation stops the run.
  bool awaitChecked(Cluster &c);
  bool doConfig(Cluster &c, const Command &cmd);
  bool doExecute(Cluster &c, const Command &cmd);
  bool doDma(Cluster &c, const Command &cmd);
  /// SimOptions::inputArrival: the DRAM ranges of the inputs that arrive
  /// late, and the latest arrival among those a range `r` overlaps.
  bool recordArrivals();
  uint64_t arrivalOf(const Range &r) const;
  std::vector<std::pair<Range, uint64_t>> arrivals;
  bool doInstr(Cluster &c, const Instruction &in, size_t idx, bool last,
               ExecInfo &info);
  // The steps of doInstr (SimInstructions.cpp).
  struct InstrCtx;
  struct LoadCost;
  bool checkInstr(const Cluster &c, const Instruction &in, size_t idx);
  bool doLoad(InstrCtx &x);
  bool loadActivations(InstrCtx &x, LoadCost &cost);
  bool loadWeights(InstrCtx &x, LoadCost &cost);
  bool loadSparseWeights(InstrCtx &x, LoadCost &cost);
  bool loadPartialSums(InstrCtx &x);
  bool doMac(InstrCtx &x);
  bool selectMacWeights(InstrCtx &x, uint64_t &wOff);
  uint64_t runMacs(InstrCtx &x, MacGeom g, uint64_t base, uint64_t wOff,
                   std::vector<uint64_t> &work);
  bool doStore(InstrCtx &x, bool last);
  bool doSpu(Cluster &c, const Instruction &in, size_t idx, ExecInfo &info);
  // RECUR on the column-wise engine (SimRecur.cpp).
  bool doRecur(Cluster &c, const Command &cmd);
  bool checkRecurCommand(const RecurDesc &r, std::string &msg) const;
  bool runTimeSteps(const Cluster &c, const RecurDesc &r, uint64_t &steps);
  /// Schedules the cluster's pending RECUR tasks together.
  bool flushEngine(Cluster &c);
  bool waitSkipsEngine(const Cluster &c, const Command &cmd) const;
  rnn::EngineTask engineTask(const PendingRecur &p,
                             uint64_t dramStreamers) const;
  bool retireRecur(Cluster &c, const PendingRecur &p, const rnn::EngineTask &t,
                   const rnn::EngineTaskRun &run, const WeightPlan &plan);
  WeightPlan planWeights(const Cluster &c, uint64_t dramStreamers) const;
  bool recurAccesses(Cluster &c, const PendingRecur &p, uint64_t start,
                     uint64_t finish);
  void readStorage(const Cluster &c, uint64_t addr, std::vector<float> &out,
                   uint64_t n);
  void writeStorage(Cluster &c, uint64_t addr, const float *v, uint64_t n);
  bool releaseBarrier();
  // Mesh and semaphores (SimMesh.cpp).
  bool checkTargets(const MeshOp &m, bool needStorage);
  bool doSend(Cluster &c, const Command &cmd);
  bool doSignal(Cluster &c, const Command &cmd);
  bool beginRecv(Cluster &c, const Command &cmd);
  /// The time a cluster blocked in RECV continues, if enough arrivals are
  /// known (false otherwise).
  bool recvReady(const Cluster &c, uint64_t &resume) const;
  void finishRecv(Cluster &c, uint64_t resume);
  bool doRemoteLoad(Cluster &c, const Command &cmd, Range src, Range dst,
                    uint64_t bytes);
  std::string deadlockMessage() const;
  void meshTrace(const std::string &name, const MeshTransfer &t,
                 const std::string &args);
  /// Charges a DMA's DRAM sides to their channels; returns [start, done).
  /// Returns the channel mask (Access::channels).
  uint64_t chargeChannels(Cluster &c, const DmaDesc &d, Range src, Range dst,
                          uint64_t bytes, uint64_t issued, bool delayed,
                          uint64_t &start, uint64_t &done);
  /// Records `a` on the storage unit of cluster `owner` (-1: DRAM) and
  /// reports a hazard with an access it conflicts with.
  bool addAccess(const Access &a, int owner);
  void finishStats(double wall);
  void gateClusters(uint64_t cycles);

  const Program &p;
  const HardwareDesc &hw;
  const SimOptions &opts;
  SimStats &stats;
  std::string &err;

  PagedMemory dram; ///< allocated on first touch
  /// Host memory of the storage units and PE buffers (before `clusters`,
  /// which point into it).
  ZeroedArena onChip;
  std::vector<Cluster> clusters;
  std::vector<ChannelTimeline> channelTimes; ///< one per memory channel
  MeshModel mesh{hw};
  std::map<MeshLink, uint32_t> linkTid; ///< trace thread of each link
  uint32_t numIbufs = 0;
  uint64_t slotFloats = 0, inbufFloats = 0, wqFloats = 0, accFloats = 0;

  // Current command (for messages).
  Cluster *cur = nullptr;
  size_t curCmd = 0;

  // Hazard detection.
  std::vector<AccessList<Access>> storageAccesses; // per cluster
  AccessList<Access> dramAccesses;
  /// The earliest time any cluster can still issue at (never decreases).
  uint64_t now = 0;

  TraceRecorder trace;

  // Commands and instructions run, by kind (in SimStats' maps at the end:
  // no string map lookup per command).
  static constexpr unsigned kCommandKinds = 9; ///< CONFIG .. RECUR
  /// Clusters whose RECUR tasks stream weights from DRAM (they share the
  /// channels' bandwidth, docs/rnn.md).
  uint64_t dramRecurClusters = 0;
  static constexpr unsigned kInstrCountKinds = 4;
  enum { kCountLd, kCountMac, kCountSt, kCountSpu };
  uint64_t cmdCounts[kCommandKinds] = {};
  // Scratch reused across commands: the EXECUTE being run, the MAC work
  // per PE.
  ExecInfo execInfo;
  std::vector<uint64_t> macWork;
  uint64_t instrCounts[kInstrCountKinds] = {};

  // Per-layer attribution (LayerAccounting.h): running totals of the unit
  // costs SimStats does not keep, and the end of the current command's
  // unit work (EXECUTE, DMA, SEND), 0 if none.
  LayerAccounting layerAcct;
  UnitBusy busyTotals;
  uint64_t spillTotal = 0;
  uint64_t unitEnd = 0;
  LayerCounters layerCounters() const;

  /// SimStats::timeline's bins (empty unless SimOptions::timeline).
  ActivityBins activity;
  /// SimOptions::progress: commands in the program, of each layer, run.
  uint64_t commandsTotal = 0, commandsDone = 0, progressStep = 1;
  std::vector<uint64_t> layerCommandTotals;
  void initProgress();
  void reportProgress() const;

  /// The data work (DMA bytes, LD / MAC / ST / SPU tiles, SEND bytes) runs
  /// on lanes of host threads (DataLanes.h), each cluster's in issue order;
  /// the timing, checks and statistics above never read the data, so the
  /// bytes end up as in a sequential run (docs/simulator.md, "Eighth
  /// round"). Code that reads simulated data (sparse weights, RECUR,
  /// outputs) drains the lanes first.
  struct DataFootprint {
    Range dramRead, dramWrite; ///< empty: none
    /// Other clusters' storage units read (remote_load's source) or
    /// written (SEND's targets); may name the issuing cluster.
    std::vector<uint32_t> foreign;
  };
  template <class F>
  void pushData(const Cluster &c, const DataFootprint &fp, F &&task);
  /// Own storage and PE buffers only.
  template <class F> void pushLocal(const Cluster &c, F &&task) {
    pushData(c, DataFootprint{}, std::forward<F>(task));
  }
  unsigned laneCount() const;
  void startLanes();
  void drainData();
  std::unique_ptr<DramConflicts> dramConflicts;
  /// Per cluster: what its next tasks wait for (other lanes' tasks that
  /// wrote or read its storage unit, or its own tasks on the lane it ran
  /// on before it moved).
  std::vector<DataLanes::After> foreignWait;
  /// Per cluster: its lane (0: the simulator's thread), and the number of
  /// its last task there.
  std::vector<unsigned> laneOf;
  std::vector<uint64_t> lastSeq;
  /// Every kBalancePushes tasks, a cluster may move between the
  /// simulator's thread and a helper lane (balanceLanes).
  static constexpr unsigned kBalancePushes = 64;
  unsigned pushesSinceBalance = 0;
  uint64_t fullWaitsSeen = 0;
  void balanceLanes();
  /// Declared last: destroyed first, while the memories it writes exist.
  std::unique_ptr<DataLanes> lanes;
};

template <class F>
void Sim::pushData(const Cluster &c, const DataFootprint &fp, F &&task) {
  if (!lanes->threaded()) {
    task(); // the sequential simulator, exactly
    return;
  }
  if (++pushesSinceBalance >= kBalancePushes)
    balanceLanes();
  const unsigned lane = laneOf[c.index];
  DataLanes::After after = foreignWait[c.index];
  if (!fp.dramRead.empty())
    dramConflicts->check(*lanes, lane, uint64_t(fp.dramRead.lo),
                         uint64_t(fp.dramRead.hi), false, after);
  if (!fp.dramWrite.empty())
    dramConflicts->check(*lanes, lane, uint64_t(fp.dramWrite.lo),
                         uint64_t(fp.dramWrite.hi), true, after);
  // Another cluster's storage: after everything its lane has queued, and
  // its later tasks after this one.
  for (uint32_t k : fp.foreign) {
    if (laneOf[k] != lane)
      after.need(laneOf[k], lanes->issued(laneOf[k]));
    after.merge(foreignWait[k]); // its tasks on a lane it left
  }
  const uint64_t seq = lanes->push(lane, after, std::forward<F>(task));
  lastSeq[c.index] = seq;
  if (!fp.dramRead.empty())
    dramConflicts->record(*lanes, lane, seq, uint64_t(fp.dramRead.lo),
                          uint64_t(fp.dramRead.hi), false);
  if (!fp.dramWrite.empty())
    dramConflicts->record(*lanes, lane, seq, uint64_t(fp.dramWrite.lo),
                          uint64_t(fp.dramWrite.hi), true);
  // Its later tasks wait for this one, on whatever lane they run (a
  // cluster may move, balanceLanes).
  for (uint32_t k : fp.foreign)
    if (k != c.index)
      foreignWait[k].need(lane, seq);
}

} // namespace sim
} // namespace accel

#endif
