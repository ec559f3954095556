//===- SimInstructions.cpp - LD / MAC / ST / SPU on a cluster's PEs -------===//
//
// Functional effect and cost of one instruction (docs/simulator.md,
// "Instructions", "PE", "SFU", "Control unit"); the host kernels of the MAC
// are in PeKernels.cpp.
//
//===----------------------------------------------------------------------===//
#include "SimImpl.h"
#include "TileRows.h"
#include "accel/Sim/Numerics.h"
#include "accel/Target/Sfu.h"
#include "accel/Target/SparseWeights.h"

namespace accel {
namespace sim {

/// One LD / MAC / ST instruction on a cluster: its operands, the rows each
/// PE owns, the storage bytes the tile touches, and the tile helpers the
/// steps share. Errors go through the Sim, prefixed with the instruction.
struct Sim::InstrCtx {
  Sim &sim;
  Cluster &c;
  const Instruction &in;
  const InstrFields &f;
  const OperandRecord &r;
  size_t idx;
  ExecInfo &info;
  const bool perPeAddrs;
  const uint64_t P, rows, cols, rep;
  const uint64_t rmax;      ///< most rows any PE owns
  const uint64_t tileBytes; ///< rows x cols floats
  /// The tile's rows, copied for the data lanes (the record may be
  /// patched before the copy runs); moved into the instruction's task,
  /// after which only peRange (which does not need peAddrs) may use it.
  TileRows tile;
  Range whole; ///< storage bytes of the tile (all PEs)

  InstrCtx(Sim &sim, Cluster &c, const Instruction &in, size_t idx,
           ExecInfo &info)
      : sim(sim), c(c), in(in), f(in.fields), r(in.operands), idx(idx),
        info(info), perPeAddrs(!r.peAddrs.empty()), P(c.pes.size()),
        rows(r.rows), cols(r.cols), rep(r.repeat),
        rmax(r.peRows ? std::min<uint64_t>(r.peRows, rows) : rows),
        tileBytes(rows * cols * 4), tile(c.storage.data(), r),
        whole(tileStorageRange()) {}

  bool bad(const std::string &m) const {
    return sim.fail(sim.instrWhere(idx, in) + m);
  }

  /// Rows [r0, r1) of the tile that PE `pe` owns (all of them when the
  /// tile is broadcast, peRows = 0).
  void peRange(uint64_t pe, uint64_t &r0, uint64_t &r1) const {
    tile.peRange(pe, r0, r1);
  }

  bool checkStorage() const {
    if (whole.lo < 0 || whole.hi > i128(c.storage.size()))
      return bad("storage tile " + whole.str() +
                 " outside the storage unit [0, " +
                 std::to_string(c.storage.size()) + ")");
    return true;
  }

  bool fits(const char *what, uint64_t base, uint64_t count, uint64_t cap,
            const char *capName) const {
    if (i128(base) + i128(count) > i128(cap))
      return bad(std::string(what) + " of " + std::to_string(count) +
                 " floats at float offset " + std::to_string(base) +
                 " does not fit the " + capName + " of " + std::to_string(cap) +
                 " floats");
    return true;
  }

  /// Records the storage access of this instruction for hazard detection.
  void window(uint64_t dur, bool write, Range range) {
    info.windows.push_back({info.cycles, dur, range, write, int(idx)});
  }

  void invalidateWindows() {
    for (bool &v : c.swValid)
      v = false;
  }

  // SW: rows the tile `r` slid forward relative to the window `prev` (same
  // shape, addr moved by d whole rows, 0 < d < limit); 0 = no slide.
  uint64_t slideRows(const OperandRecord &prev, uint64_t limit) const {
    int64_t rb = int64_t(r.rowStride) * 4;
    int64_t diff = int64_t(r.addr) - int64_t(prev.addr);
    if (prev.rows == r.rows && prev.cols == r.cols &&
        prev.rowStride == r.rowStride && prev.colStride == r.colStride &&
        prev.peRows == r.peRows && prev.peAddrs.empty() && rb != 0 &&
        diff % rb == 0 && diff / rb > 0 && uint64_t(diff / rb) < limit)
      return uint64_t(diff / rb);
    return 0;
  }

  // RQ: the queue still holds exactly what this LD would load.
  bool queueReusable() const {
    return r.queueMode == QueueMode::RQ && c.wq.resident &&
           c.wq.stream == f.sub && c.wq.source == r;
  }

private:
  /// The storage bytes of the tile: from addr, or the bounding box of the
  /// PEs' own tiles when each PE has its own address.
  Range tileStorageRange() const {
    if (!perPeAddrs)
      return tileRange(r, 0, rows);
    Range box;
    bool any = false;
    for (uint64_t pe = 0; pe < P; ++pe) {
      uint64_t r0, r1;
      peRange(pe, r0, r1);
      if (r1 <= r0)
        continue;
      OperandRecord q = r;
      q.addr = r.peAddrs[pe];
      Range t = tileRange(q, 0, r1 - r0);
      box = any ? Range{std::min(box.lo, t.lo), std::max(box.hi, t.hi)} : t;
      any = true;
    }
    return box;
  }
};

/// Bandwidth, bytes and storage range an LD is charged for; `skipped` when
/// the RQ weight queue already holds the tile (no reload, no time).
struct Sim::LoadCost {
  double bytesPerCycle;
  uint64_t bytes;
  Range range;
  bool skipped = false;
};

/// Field checks every instruction passes before it runs.
bool Sim::checkInstr(const Cluster &c, const Instruction &in, size_t idx) {
  const InstrFields &f = in.fields;
  const OperandRecord &r = in.operands;
  auto bad = [&](const std::string &m) {
    return fail(instrWhere(idx, in) + m);
  };
  if (r.repeat < 1)
    return bad("repeat must be >= 1");
  if (r.repeat > kMaxRepeat)
    return bad("repeat " + std::to_string(r.repeat) +
               " exceeds the simulator limit " + std::to_string(kMaxRepeat));
  if (f.slot >= kSlots || f.outSlot >= kSlots)
    return bad("slot out of range [0, 16)");
  if (f.accId >= kAccs)
    return bad("accumulation buffer " + std::to_string(f.accId) +
               " out of range [0, 4)");
  if (r.pipeline != Pipeline::IdFo && r.pipeline != Pipeline::IdFoSuWb)
    return bad("invalid pipeline type " + std::to_string(unsigned(r.pipeline)));
  if (unsigned(r.queueMode) > unsigned(QueueMode::SW))
    return bad("invalid queue mode " + std::to_string(unsigned(r.queueMode)));
  if (!r.peAddrs.empty()) {
    if (!f.usesPeAddrs())
      return bad("peAddrs is only used by LD acts / psums and ST");
    if (r.peAddrs.size() != c.pes.size())
      return bad("peAddrs holds " + std::to_string(r.peAddrs.size()) +
                 " addresses, the cluster has " + std::to_string(c.pes.size()) +
                 " PEs");
  }
  if (r.acrossPes &&
      !(f.op == Opcode::SPU && f.sub == uint8_t(SpuType::Reduce)))
    return bad("acrossPes is only used by SPU reduce");
  return true;
}

bool Sim::doInstr(Cluster &c, const Instruction &in, size_t idx, bool last,
                  ExecInfo &info) {
  if (!checkInstr(c, in, idx))
    return false;
  const OperandRecord &r = in.operands;
  if (r.rows == 0 || r.cols == 0)
    return true; // empty tile: nothing to do, no time
  switch (in.fields.op) {
  case Opcode::LD: {
    InstrCtx x(*this, c, in, idx, info);
    return doLoad(x);
  }
  case Opcode::MAC: {
    InstrCtx x(*this, c, in, idx, info);
    return doMac(x);
  }
  case Opcode::ST: {
    InstrCtx x(*this, c, in, idx, info);
    return doStore(x, last);
  }
  case Opcode::SPU:
    return doSpu(c, in, idx, info);
  }
  return fail(instrWhere(idx, in) + "invalid opcode " +
              std::to_string(unsigned(in.fields.op)));
}

bool Sim::doLoad(InstrCtx &x) {
  const uint8_t sub = x.f.sub;
  LoadCost cost{hw.actLoadBytesPerCycle, x.tileBytes, x.whole};
  bool ok;
  if (sub == uint8_t(LoadStream::Activations))
    ok = loadActivations(x, cost);
  else if (sub == uint8_t(LoadStream::Weights))
    ok = loadWeights(x, cost);
  else if (sub == uint8_t(LoadStream::SparseWeights))
    ok = loadSparseWeights(x, cost);
  else if (sub == uint8_t(LoadStream::PartialSums))
    ok = loadPartialSums(x);
  else
    return x.bad("invalid LD stream " + std::to_string(sub));
  if (!ok)
    return false;
  if (cost.skipped) {
    stats.weightReloadsSkipped += x.rep;
    return true; // rotated back through the loop-back: no reload
  }
  if (sub == uint8_t(LoadStream::Weights) ||
      sub == uint8_t(LoadStream::SparseWeights)) {
    x.c.wq.resident = x.r.queueMode == QueueMode::RQ;
    x.c.wq.stream = sub;
    x.c.wq.source = x.r;
  }
  uint64_t dur = ceilDiv(double(cost.bytes), cost.bytesPerCycle) * x.rep;
  x.window(dur, false, cost.range);
  x.info.cycles += dur;
  x.info.storageRead += cost.bytes * x.rep;
  instrCounts[kCountLd] += x.rep;
  return true;
}

bool Sim::loadActivations(InstrCtx &x, LoadCost &cost) {
  const OperandRecord &r = x.r;
  const uint64_t slot = x.f.slot, cols = x.cols;
  Cluster &c = x.c;
  if (!x.checkStorage())
    return false;
  uint64_t base = slot * slotFloats;
  if (!x.fits("input-buffer tile", base, x.rmax * cols, inbufFloats,
              "input buffer"))
    return false;
  // SW: the same window shifted forward by d whole rows keeps its
  // overlap in the buffer and fetches only the d new rows per PE.
  uint64_t d = 0;
  if (r.queueMode == QueueMode::SW && !x.perPeAddrs && c.swValid[slot])
    d = x.slideRows(c.swPrev[slot], x.rmax);
  uint64_t fetchedRows = 0, reused = 0;
  for (uint64_t pe = 0; pe < x.P; ++pe) {
    uint64_t r0, r1;
    x.peRange(pe, r0, r1);
    uint64_t R = r1 - r0;
    fetchedRows += d && d < R ? d : R;
    reused += d && d < R ? R - d : 0;
  }
  pushLocal(c, [t = std::move(x.tile), pes = c.pes.data(), P = x.P, base, d,
                type = hw.computeType] {
    const uint64_t cols = t.cols;
    for (uint64_t pe = 0; pe < P; ++pe) {
      uint64_t r0, r1;
      t.peRange(pe, r0, r1);
      const uint64_t R = r1 - r0;
      float *buf = pes[pe].inbuf.data() + base;
      if (d && d < R) {
        std::memmove(buf, buf + d * cols, (R - d) * cols * 4);
        t.gather(pe, r0, r1 - d, r1, buf + (R - d) * cols);
        roundBuffer(type, buf + (R - d) * cols, d * cols);
      } else {
        t.gather(pe, r0, r0, r1, buf);
        roundBuffer(type, buf, R * cols);
      }
    }
  });
  x.invalidateWindows();
  if (r.queueMode == QueueMode::SW) {
    c.swValid[slot] = true;
    c.swPrev[slot] = r;
  }
  if (d) {
    // Broadcast tiles (peRows = 0) fetch the new rows once.
    if (!r.peRows)
      fetchedRows = d;
    cost.bytes = fetchedRows * cols * 4;
    stats.slidingRowsReused += reused;
  }
  return true;
}

bool Sim::loadWeights(InstrCtx &x, LoadCost &cost) {
  const uint64_t rows = x.rows, cols = x.cols;
  Cluster &c = x.c;
  cost.bytesPerCycle = hw.weightLoadBytesPerCycle;
  if (!x.checkStorage())
    return false;
  if (!x.fits("weight tile", 0, rows * cols, wqFloats, "weight queue"))
    return false;
  if (x.queueReusable()) {
    cost.skipped = true;
    return true;
  }
  // SW (the queue holds activations, e.g. depthwise convolution with
  // weights and activations swapped): keep the overlap of the previous
  // window, fetch only the d new rows.
  uint64_t d = 0;
  if (x.r.queueMode == QueueMode::SW && c.wq.slidable && !c.wq.sparse)
    d = x.slideRows(c.wq.source, rows);
  if (d) {
    cost.bytes = d * cols * 4;
    stats.slidingRowsReused += rows - d;
  }
  pushLocal(c, [t = std::move(x.tile), q = c.pes[0].wq.data(), d,
                type = hw.computeType] {
    const uint64_t rows = t.rows, cols = t.cols;
    if (d) {
      std::memmove(q, q + d * cols, (rows - d) * cols * 4);
      t.gather(0, 0, rows - d, rows, q + (rows - d) * cols);
      roundBuffer(type, q + (rows - d) * cols, d * cols);
    } else {
      t.gather(0, 0, 0, rows, q);
      roundBuffer(type, q, rows * cols);
    }
  });
  c.wq = WeightQueue{};
  c.wq.denseFloats = rows * cols;
  c.wq.slidable = x.r.queueMode == QueueMode::SW;
  return true;
}

bool Sim::loadSparseWeights(InstrCtx &x, LoadCost &cost) {
  const OperandRecord &r = x.r;
  Cluster &c = x.c;
  cost.bytesPerCycle = hw.weightLoadBytesPerCycle;
  cost.bytes = x.rows * kSparsePairBytes;
  cost.range = {i128(r.addr), i128(r.addr) + i128(cost.bytes)};
  if (cost.range.hi > i128(c.storage.size()))
    return x.bad("sparse weight list " + cost.range.str() +
                 " outside the storage unit [0, " +
                 std::to_string(c.storage.size()) + ")");
  if (r.depth < 1)
    return x.bad("LD sparse_weights needs depth (dense rows K) >= 1");
  if (!x.fits("sparse weight list", 0, x.rows * 2, wqFloats, "weight queue"))
    return false;
  if (x.queueReusable()) {
    cost.skipped = true;
    return true;
  }
  // The list's values set the queue's content and the MACs' time: the data
  // lanes must have written them.
  drainData();
  std::vector<SparsePair> pairs;
  std::string e;
  if (!parseSparseTile(c.storage.data() + r.addr, r.rows, r.depth, r.cols,
                       pairs, e))
    return x.bad(e);
  for (SparsePair &sp : pairs)
    sp.value = roundTo(hw.computeType, sp.value);
  c.wq = WeightQueue{};
  c.wq.sparse = true;
  c.wq.pairs = std::move(pairs);
  c.wq.sparseK = r.depth;
  c.wq.sparseN = r.cols;
  return true;
}

bool Sim::loadPartialSums(InstrCtx &x) {
  if (!x.checkStorage())
    return false;
  if (!x.fits("partial-sum tile", 0, x.rmax * x.cols, accFloats,
              "accumulation buffer"))
    return false;
  const unsigned acc = x.f.slot & 3;
  for (uint64_t pe = 0; pe < x.P; ++pe) {
    uint64_t r0, r1;
    x.peRange(pe, r0, r1);
    x.c.pes[pe].accWritten(acc, (r1 - r0) * x.cols);
  }
  pushLocal(x.c, [t = std::move(x.tile), pes = x.c.pes.data(), P = x.P, acc,
                  type = hw.accumulateType] {
    for (uint64_t pe = 0; pe < P; ++pe) {
      uint64_t r0, r1;
      t.peRange(pe, r0, r1);
      float *dst = pes[pe].acc[acc].data();
      t.gather(pe, r0, r0, r1, dst);
      roundBuffer(type, dst, (r1 - r0) * t.cols);
    }
  });
  return true;
}

/// The weights the MAC multiplies: checks the sparse list matches, or picks
/// the dense tile at the RQ rotation head (and advances it by `repeat`).
bool Sim::selectMacWeights(InstrCtx &x, uint64_t &wOff) {
  const uint64_t depth = x.r.depth, cols = x.cols;
  WeightQueue &wq = x.c.wq;
  wOff = 0;
  if (wq.sparse) {
    if (wq.sparseK != depth || wq.sparseN != cols)
      return x.bad("MAC depth x cols " + std::to_string(depth) + " x " +
                   std::to_string(cols) +
                   " does not match the sparse "
                   "weight list in the queue (" +
                   std::to_string(wq.sparseK) + " x " +
                   std::to_string(wq.sparseN) + ")");
    return true;
  }
  const uint64_t tile = depth * cols;
  uint64_t tiles = tile ? std::max<uint64_t>(1, wq.denseFloats / tile) : 1;
  if (x.r.queueMode == QueueMode::RQ)
    wOff = (wq.head % tiles) * tile;
  if (!x.fits("weight tile (depth x cols)", wOff, tile, wqFloats,
              "weight queue"))
    return false;
  if (x.r.queueMode == QueueMode::RQ)
    wq.head = (wq.head + x.rep) % tiles;
  return true;
}

/// The dense MAC of one instruction, `rep` times, on the P PEs' buffers
/// (geometry `g` but for the rows each PE owns; activations at float
/// `base`, PE 0's queue at `wOff`, accumulators `acc`).
static void denseMacs(const TileRows &t, PE *pes, uint64_t P, MacGeom g,
                      uint64_t base, uint64_t wOff, unsigned acc, uint64_t rep,
                      DType type, uint64_t inbufStride, uint64_t accStride) {
  const float *W = pes[0].wq.data() + wOff;
  // A row per PE (a depthwise plane's G output rows, a GEMM tile of one row
  // per PE): the PEs' rows as one tile over the buffers' blocks
  // (Cluster::peInbufs, peAccs), each row's operations as on its PE. One
  // kernel call keeps P independent accumulator chains in flight where P
  // calls of one row each waited on their adds.
  bool rowPerPe = P > 1;
  for (uint64_t pe = 0; rowPerPe && pe < P; ++pe) {
    uint64_t r0, r1;
    t.peRange(pe, r0, r1);
    rowPerPe = r1 - r0 == 1;
  }
  if (rowPerPe) {
    g.R = P;
    g.pitch = inbufStride;
    g.ldc = accStride;
    for (uint64_t it = 0; it < rep; ++it)
      macDense(pes[0].inbuf.data() + base, W, pes[0].acc[acc].data(), g, type);
    return;
  }
  for (uint64_t pe = 0; pe < P; ++pe) {
    uint64_t r0, r1;
    t.peRange(pe, r0, r1);
    g.R = r1 - r0;
    if (!g.R)
      continue;
    const float *A = pes[pe].inbuf.data() + base;
    float *C = pes[pe].acc[acc].data();
    for (uint64_t it = 0; it < rep; ++it)
      macDense(A, W, C, g, type);
  }
}

/// Runs the MAC `repeat` times on every PE (geometry `g` but for the rows
/// each PE owns; activations at float `base`, dense weights at `wOff`).
/// Fills `work` with each PE's MACs per iteration (sparse: the index
/// matches) and returns the MACs a dense array would do per iteration.
uint64_t Sim::runMacs(InstrCtx &x, MacGeom g, uint64_t base, uint64_t wOff,
                      std::vector<uint64_t> &peWork) {
  const bool sparse = x.c.wq.sparse;
  // The index compare's work depends on the activations' values: they must
  // be in the buffers before the time can be known.
  if (sparse)
    drainData();
  uint64_t dense = 0;
  for (uint64_t pe = 0; pe < x.P; ++pe) {
    uint64_t r0, r1;
    x.peRange(pe, r0, r1);
    g.R = r1 - r0;
    dense += g.R * g.K * g.N;
    if (!g.R)
      continue;
    PE &p = x.c.pes[pe];
    p.accWritten(x.f.accId, g.R * g.N);
    peWork[pe] = g.R * g.K * g.N; // dense queue: no index compare
    if (!sparse)
      continue;
    const float *A = p.inbuf.data() + base;
    float *C = p.acc[x.f.accId].data();
    for (uint64_t it = 0; it < x.rep; ++it)
      peWork[pe] = macSparse(A, x.c.wq.pairs, C, g, hw.accumulateType);
  }
  if (!sparse)
    pushLocal(x.c,
              [t = std::move(x.tile), pes = x.c.pes.data(), P = x.P, g, base,
               wOff, acc = x.f.accId, rep = x.rep, type = hw.accumulateType,
               sA = x.c.peInbufStride, sC = x.c.peAccStride] {
                denseMacs(t, pes, P, g, base, wOff, acc, rep, type, sA, sC);
              });
  return dense;
}

bool Sim::doMac(InstrCtx &x) {
  const OperandRecord &r = x.r;
  const InstrFields &f = x.f;
  const uint64_t depth = r.depth, cols = x.cols, rep = x.rep;
  if (r.rowStride < 0)
    return x.bad("MAC input row pitch (rowStride) must be >= 0");
  const uint64_t pitch = r.rowStride > 0 ? uint64_t(r.rowStride) : depth;
  uint64_t base = f.slot * slotFloats;
  // Rows may overlap (pitch < base + depth: convolution windows); the
  // last row's last activation bounds the read.
  const uint64_t extent = (x.rmax - 1) * pitch + r.base + depth;
  if (!x.fits("input tile (rows x pitch + base)", base, extent, inbufFloats,
              "input buffer") ||
      !x.fits("accumulator tile (rows x cols)", 0, x.rmax * cols, accFloats,
              "accumulation buffer"))
    return false;
  uint64_t wOff;
  if (!selectMacWeights(x, wOff))
    return false;
  MacGeom g;
  g.K = depth;
  g.N = cols;
  g.pitch = pitch;
  g.base = r.base;
  std::vector<uint64_t> &work = macWork; // reused: no allocation per MAC
  work.assign(x.P, 0);
  uint64_t dense = runMacs(x, g, base, wOff, work);
  uint64_t effective = 0;
  for (uint64_t w : work)
    effective += w;
  uint64_t moved = 0;
  uint64_t busiest = f.loadBalance
                         ? balancedMax(work, moved)
                         : *std::max_element(work.begin(), work.end());
  uint64_t dur = 0;
  if (depth)
    dur = (ceilDiv(double(busiest), hw.macLanes) + hw.macPipelineLatency) * rep;
  for (uint64_t pe = 0; pe < x.P; ++pe) {
    CoreStats &core = x.c.st.cores[pe];
    core.macs += work[pe] * rep;
    core.busyCycles += ceilDiv(double(work[pe]), hw.macLanes) * rep;
  }
  x.c.accChained[f.accId] = f.sfuActive;
  x.info.cycles += dur;
  x.info.macs += effective * rep;
  stats.effectiveMacs += effective * rep;
  stats.skippedMacs += (dense - effective) * rep;
  stats.balancedMacs += moved * rep;
  instrCounts[kCountMac] += rep;
  return true;
}

bool Sim::doStore(InstrCtx &x, bool last) {
  const OperandRecord &r = x.r;
  const InstrFields &f = x.f;
  const uint64_t cols = x.cols, rmax = x.rmax, rep = x.rep;
  if (f.sub > uint8_t(StoreSource::InputBuffer))
    return x.bad("invalid ST source " + std::to_string(f.sub));
  if (!sfuAllowedInUnary(r.func))
    return x.bad(std::string("ST cannot apply the SFU function ") +
                 sfuFuncName(r.func) + " (unary functions only)");
  bool fromAcc = f.sub == uint8_t(StoreSource::AccBuffer);
  if (fromAcc && !last) {
    ++stats.storesSkipped;
    return true;
  }
  if (!x.checkStorage())
    return false;
  uint64_t base = fromAcc ? 0 : f.slot * slotFloats;
  if (fromAcc ? !x.fits("accumulator tile", 0, rmax * cols, accFloats,
                        "accumulation buffer")
              : !x.fits("input-buffer tile", base, rmax * cols, inbufFloats,
                        "input buffer"))
    return false;
  uint64_t elems = 0;
  for (uint64_t pe = 0; pe < x.P; ++pe) {
    uint64_t r0, r1;
    x.peRange(pe, r0, r1);
    elems += r1 > r0 ? (r1 - r0) * cols : 0;
  }
  pushLocal(x.c, [t = std::move(x.tile), pes = x.c.pes.data(), P = x.P, fromAcc,
                  base, acc = f.accId] {
    thread_local std::vector<float> row; // the chained SFU's results
    for (uint64_t pe = 0; pe < P; ++pe) {
      uint64_t r0, r1;
      t.peRange(pe, r0, r1);
      if (r1 <= r0)
        continue;
      const float *src =
          fromAcc ? pes[pe].acc[acc].data() : pes[pe].inbuf.data() + base;
      t.scatter(pe, r0, r1, src, row);
    }
  });
  // Output queue: chained mode (MAC sfu bit, or the input buffer feeding
  // the SFU) pushes each result once; decoupled mode pushes the raw
  // accumulator, the SFU pops it and pushes the result (3 accesses) and
  // the SFU pass over the queue costs its own cycles.
  const bool sfu = r.func != SfuFunc::None;
  const bool decoupled = sfu && fromAcc && !x.c.accChained[f.accId];
  stats.outputQueueAccesses += (decoupled ? 3 : 1) * elems * rep;
  stats.outputQueueDrains += elems * rep;
  if (sfu)
    (decoupled ? stats.decoupledResults : stats.chainedResults) += elems * rep;
  const uint64_t sfuDur =
      ((sfu ? hw.sfuLatency : 0) +
       (decoupled ? ceilDiv(double(rmax * cols), hw.sfuLanes) : 0)) *
      rep;
  uint64_t dur =
      ceilDiv(double(x.tileBytes), hw.storageBytesPerCycle) * rep + sfuDur;
  x.window(dur, true, x.whole);
  x.info.cycles += dur;
  x.info.sfuCycles += sfuDur;
  x.info.storageWritten += x.tileBytes * rep;
  instrCounts[kCountSt] += rep;
  return true;
}

namespace {
/// The data of one SPU instruction, copied for the data lanes.
struct SpuTile {
  PE *pes;
  uint64_t P, rows, cols, peRows, rmax, rep, in1, in2, out;
  SpuType type;
  SfuFunc func;
  float imm;
  DType computeType;

  uint64_t rowsOf(uint64_t pe) const {
    if (!peRows)
      return rows;
    uint64_t r0 = std::min<uint64_t>(pe * peRows, rows);
    return std::min<uint64_t>(r0 + peRows, rows) - r0;
  }

  /// Decoupled SFU: every PE pushes its R x cols partial tile into its
  /// output queue tagged with its PE index; the SFU pops the tagged
  /// partials, combines them elementwise in PE order and the result is
  /// written back to the input buffer of every PE (rmax x cols at `out`).
  void reduceAcrossPes() const {
    const uint64_t n = rmax * cols;
    std::vector<float> vals, res(n);
    for (uint64_t it = 0; it < rep; ++it) {
      for (uint64_t i = 0; i < rmax; ++i)
        for (uint64_t j = 0; j < cols; ++j) {
          vals.clear();
          for (uint64_t pe = 0; pe < P; ++pe)
            if (i < rowsOf(pe))
              vals.push_back(pes[pe].inbuf[in1 + i * cols + j]);
          res[i * cols + j] = sfuReduce(func, vals.data(), vals.size(), imm);
        }
      roundBuffer(computeType, res.data(), n);
      for (uint64_t pe = 0; pe < P; ++pe)
        std::memcpy(pes[pe].inbuf.data() + out, res.data(), n * 4);
    }
  }

  /// Each PE's own rows: unary, binary, reduce along the row, or copy.
  void runPerPe() const {
    std::vector<float> red;
    for (uint64_t pe = 0; pe < P; ++pe) {
      uint64_t R = rowsOf(pe), m = R * cols;
      if (!R)
        continue;
      float *buf = pes[pe].inbuf.data();
      for (uint64_t it = 0; it < rep; ++it) {
        const float *a = buf + in1, *b = buf + in2;
        float *o = buf + out;
        switch (type) {
        case SpuType::Unary:
          if (func == SfuFunc::None)
            std::memmove(o, a, m * 4);
          else // element i reads a[i] before writing o[i]: in place is fine
            sfuUnaryRow(func, a, o, m, imm);
          break;
        case SpuType::Binary:
          if (sfuIsRowBinary(func)) {
            // The second operand has one value per row (R x 1).
            red.assign(b, b + R);
            for (uint64_t i = 0; i < R; ++i)
              for (uint64_t j = 0; j < cols; ++j)
                o[i * cols + j] = sfuBinary(func, a[i * cols + j], red[i]);
          } else if (func == SfuFunc::Add) {
            for (uint64_t i = 0; i < m; ++i)
              o[i] = a[i] + b[i];
          } else {
            for (uint64_t i = 0; i < m; ++i)
              o[i] = sfuBinary(func, a[i], b[i]);
          }
          break;
        case SpuType::Reduce:
          red.assign(R, 0.0f);
          for (uint64_t i = 0; i < R; ++i)
            red[i] = sfuReduce(func, a + i * cols, cols, imm);
          std::memcpy(o, red.data(), R * 4);
          break;
        case SpuType::Copy:
          std::memmove(o, a, m * 4);
          break;
        }
        // SFU results live in the input buffer (compute type).
        uint64_t written = type == SpuType::Reduce ? R : m;
        roundBuffer(computeType, o, written);
      }
    }
  }
};
} // namespace

bool Sim::doSpu(Cluster &c, const Instruction &in, size_t idx, ExecInfo &info) {
  const InstrFields &f = in.fields;
  const OperandRecord &r = in.operands;
  auto bad = [&](const std::string &m) {
    return fail(instrWhere(idx, in) + m);
  };
  auto fits = [&](const char *what, uint64_t base, uint64_t count) {
    if (i128(base) + i128(count) > i128(inbufFloats))
      return bad(std::string(what) + " of " + std::to_string(count) +
                 " floats at float offset " + std::to_string(base) +
                 " does not fit the input buffer of " +
                 std::to_string(inbufFloats) + " floats");
    return true;
  };
  const uint64_t P = c.pes.size();
  const uint64_t rows = r.rows, cols = r.cols;
  const uint64_t rmax = r.peRows ? std::min<uint64_t>(r.peRows, rows) : rows;
  const uint64_t rep = r.repeat;
  uint64_t n = rmax * cols;
  uint64_t in1 = f.slot * slotFloats, out = f.outSlot * slotFloats;
  SpuType type = SpuType(f.sub);
  uint64_t in2 = 0;
  if (!fits("SPU input tile", in1, n))
    return false;
  switch (type) {
  case SpuType::Unary:
    if (!sfuAllowedInUnary(r.func))
      return bad(std::string("SPU unary cannot apply the function ") +
                 sfuFuncName(r.func));
    break;
  case SpuType::Binary:
    if (!sfuAllowedInBinary(r.func))
      return bad(std::string("SPU binary cannot apply the function ") +
                 sfuFuncName(r.func));
    if (r.depth >= kSlots)
      return bad("SPU binary second slot (depth) " + std::to_string(r.depth) +
                 " out of range [0, 16)");
    in2 = r.depth * slotFloats;
    if (!fits("SPU second input tile", in2, sfuIsRowBinary(r.func) ? rmax : n))
      return false;
    break;
  case SpuType::Reduce:
    if (!sfuAllowedInReduce(r.func))
      return bad(std::string("SPU reduce cannot apply the function ") +
                 sfuFuncName(r.func));
    break;
  case SpuType::Copy:
    break;
  default:
    return bad("invalid SPU type " + std::to_string(f.sub));
  }
  for (bool &v : c.swValid) // the SFU result may overwrite a window
    v = false;

  SpuTile t{c.pes.data(), P,   rows, cols, r.peRows, rmax,  rep,
            in1,          in2, out,  type, r.func,   r.imm, hw.computeType};
  if (r.acrossPes) {
    if (!fits("SPU output tile", out, n))
      return false;
    uint64_t partials = 0;
    for (uint64_t pe = 0; pe < P; ++pe)
      partials += t.rowsOf(pe) * cols;
    pushLocal(c, [t] { t.reduceAcrossPes(); });
    stats.outputQueueAccesses += (2 * partials + n) * rep;
    stats.outputQueueDrains += n * rep;
    stats.decoupledResults += n * rep;
    uint64_t dur =
        (ceilDiv(double(partials), hw.sfuLanes) + hw.sfuLatency) * rep;
    info.cycles += dur;
    info.sfuCycles += dur;
    instrCounts[kCountSpu] += rep;
    return true;
  }

  uint64_t outN = type == SpuType::Reduce ? rmax : n;
  if (!fits("SPU output tile", out, outN))
    return false;
  pushLocal(c, [t] { t.runPerPe(); });
  uint64_t dur = (ceilDiv(double(n), hw.sfuLanes) + hw.sfuLatency) * rep;
  info.cycles += dur;
  info.sfuCycles += dur;
  instrCounts[kCountSpu] += rep;
  return true;
}

} // namespace sim
} // namespace accel
