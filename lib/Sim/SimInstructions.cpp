//===- SimInstructions.cpp - LD / MAC / ST / SPU on a cluster's PEs -------===//
//
// Functional effect and cost of one instruction (docs/simulator.md,
// "Instructions", "PE", "SFU", "Control unit"); the host kernels of the MAC
// are in PeKernels.cpp.
//
//===----------------------------------------------------------------------===//
#include "SimImpl.h"
#include "accel/Sim/Numerics.h"
#include "accel/Target/Sfu.h"
#include "accel/Target/SparseWeights.h"

namespace accel {
namespace sim {

bool Sim::doInstr(Cluster &c, const Instruction &in, size_t idx, bool last,
                  ExecInfo &info) {
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
  const bool perPeAddrs = !r.peAddrs.empty();
  if (perPeAddrs) {
    bool uses =
        f.op == Opcode::ST ||
        (f.op == Opcode::LD && (f.sub == uint8_t(LoadStream::Activations) ||
                                f.sub == uint8_t(LoadStream::PartialSums)));
    if (!uses)
      return bad("peAddrs is only used by LD acts / psums and ST");
    if (r.peAddrs.size() != c.pes.size())
      return bad("peAddrs holds " + std::to_string(r.peAddrs.size()) +
                 " addresses, the cluster has " + std::to_string(c.pes.size()) +
                 " PEs");
  }
  if (r.acrossPes &&
      !(f.op == Opcode::SPU && f.sub == uint8_t(SpuType::Reduce)))
    return bad("acrossPes is only used by SPU reduce");
  if (r.rows == 0 || r.cols == 0)
    return true; // empty tile: nothing to do, no time

  const uint64_t P = c.pes.size();
  const uint64_t rows = r.rows, cols = r.cols;
  const uint64_t rmax = r.peRows ? std::min<uint64_t>(r.peRows, rows) : rows;
  const uint64_t rep = r.repeat;
  auto peRange = [&](uint64_t pe, uint64_t &r0, uint64_t &r1) {
    if (!r.peRows) {
      r0 = 0;
      r1 = rows;
      return;
    }
    r0 = std::min<uint64_t>(pe * r.peRows, rows);
    r1 = std::min<uint64_t>(r0 + r.peRows, rows);
  };
  // Storage byte address of tile row `row` as PE `pe` (owning rows from r0)
  // sees it: derived by the parser (addr) or precomputed (peAddrs).
  auto rowAddr = [&](uint64_t pe, uint64_t r0, uint64_t row) -> int64_t {
    if (!perPeAddrs)
      return int64_t(r.addr) + int64_t(row) * r.rowStride * 4;
    return int64_t(r.peAddrs[pe]) + int64_t(row - r0) * r.rowStride * 4;
  };
  Range whole;
  if (!perPeAddrs) {
    whole = tileRange(r, 0, rows);
  } else {
    // Bounding box of the PEs' own tiles.
    bool any = false;
    for (uint64_t pe = 0; pe < P; ++pe) {
      uint64_t r0, r1;
      peRange(pe, r0, r1);
      if (r1 <= r0)
        continue;
      OperandRecord q = r;
      q.addr = r.peAddrs[pe];
      Range t = tileRange(q, 0, r1 - r0);
      whole =
          any ? Range{std::min(whole.lo, t.lo), std::max(whole.hi, t.hi)} : t;
      any = true;
    }
  }
  auto checkStorage = [&]() {
    if (whole.lo < 0 || whole.hi > i128(c.storage.size()))
      return bad("storage tile " + whole.str() +
                 " outside the storage unit [0, " +
                 std::to_string(c.storage.size()) + ")");
    return true;
  };
  auto fits = [&](const char *what, uint64_t base, uint64_t count, uint64_t cap,
                  const char *capName) {
    if (i128(base) + i128(count) > i128(cap))
      return bad(std::string(what) + " of " + std::to_string(count) +
                 " floats at float offset " + std::to_string(base) +
                 " does not fit the " + capName + " of " + std::to_string(cap) +
                 " floats");
    return true;
  };
  // Gather rows [g0, g1) (of the rows [r0, ..) PE `pe` owns) of the storage
  // tile into dense `dst`.
  auto gather = [&](uint64_t pe, uint64_t r0, uint64_t g0, uint64_t g1,
                    float *dst) {
    const uint8_t *s = c.storage.data();
    for (uint64_t row = g0; row < g1; ++row) {
      int64_t base = rowAddr(pe, r0, row);
      float *d = dst + (row - g0) * cols;
      if (r.colStride == 1) {
        std::memcpy(d, s + base, cols * 4);
      } else {
        for (uint64_t cc = 0; cc < cols; ++cc)
          std::memcpy(d + cc, s + base + int64_t(cc) * r.colStride * 4, 4);
      }
    }
  };
  // Scatter PE `pe`'s dense rows [r0, r1) into the storage tile, applying
  // the chained SFU function.
  std::vector<float> tmp;
  auto scatter = [&](uint64_t pe, uint64_t r0, uint64_t r1, const float *src) {
    uint8_t *s = c.storage.data();
    tmp.resize(cols);
    for (uint64_t row = r0; row < r1; ++row) {
      int64_t base = rowAddr(pe, r0, row);
      const float *srow = src + (row - r0) * cols;
      if (r.func != SfuFunc::None) {
        for (uint64_t cc = 0; cc < cols; ++cc)
          tmp[cc] = sfuUnary(r.func, srow[cc], r.imm);
        srow = tmp.data();
      }
      if (r.colStride == 1) {
        std::memcpy(s + base, srow, cols * 4);
      } else {
        for (uint64_t cc = 0; cc < cols; ++cc)
          std::memcpy(s + base + int64_t(cc) * r.colStride * 4, srow + cc, 4);
      }
    }
  };
  auto window = [&](uint64_t dur, bool write, Range range) {
    info.windows.push_back({info.cycles, dur, range, write, int(idx)});
  };
  auto invalidateWindows = [&]() {
    for (bool &v : c.swValid)
      v = false;
  };
  // SW: rows the tile `r` slid forward relative to the window `prev` (same
  // shape, addr moved by d whole rows, 0 < d < limit); 0 = no slide.
  auto slideRows = [&](const OperandRecord &prev, uint64_t limit) -> uint64_t {
    int64_t rb = int64_t(r.rowStride) * 4;
    int64_t diff = int64_t(r.addr) - int64_t(prev.addr);
    if (prev.rows == r.rows && prev.cols == r.cols &&
        prev.rowStride == r.rowStride && prev.colStride == r.colStride &&
        prev.peRows == r.peRows && prev.peAddrs.empty() && rb != 0 &&
        diff % rb == 0 && diff / rb > 0 && uint64_t(diff / rb) < limit)
      return uint64_t(diff / rb);
    return 0;
  };
  // RQ: the queue still holds exactly what this LD would load.
  auto queueReusable = [&]() {
    return r.queueMode == QueueMode::RQ && c.wq.resident &&
           c.wq.stream == f.sub && c.wq.source == r;
  };

  const uint64_t tileBytes = rows * cols * 4;
  switch (f.op) {
  case Opcode::LD: {
    double bw = hw.actLoadBytesPerCycle;
    uint64_t loadBytes = tileBytes;
    Range loadRange = whole;
    if (f.sub == uint8_t(LoadStream::Activations)) {
      if (!checkStorage())
        return false;
      uint64_t base = f.slot * slotFloats;
      if (!fits("input-buffer tile", base, rmax * cols, inbufFloats,
                "input buffer"))
        return false;
      // SW: the same window shifted forward by d whole rows keeps its
      // overlap in the buffer and fetches only the d new rows per PE.
      uint64_t d = 0;
      if (r.queueMode == QueueMode::SW && !perPeAddrs && c.swValid[f.slot])
        d = slideRows(c.swPrev[f.slot], rmax);
      uint64_t fetchedRows = 0, reused = 0;
      for (uint64_t pe = 0; pe < P; ++pe) {
        uint64_t r0, r1;
        peRange(pe, r0, r1);
        uint64_t R = r1 - r0;
        float *buf = c.pes[pe].inbuf.data() + base;
        uint8_t *mk = c.pes[pe].mask.data() + base;
        if (d && d < R) {
          std::memmove(buf, buf + d * cols, (R - d) * cols * 4);
          std::memmove(mk, mk + d * cols, (R - d) * cols);
          gather(pe, r0, r1 - d, r1, buf + (R - d) * cols);
          roundBuffer(hw.computeType, buf + (R - d) * cols, d * cols);
          buildMask(buf + (R - d) * cols, mk + (R - d) * cols, d * cols);
          fetchedRows += d;
          reused += R - d;
        } else {
          gather(pe, r0, r0, r1, buf);
          roundBuffer(hw.computeType, buf, R * cols);
          buildMask(buf, mk, R * cols); // the data load unit's bitmask
          fetchedRows += R;
        }
      }
      invalidateWindows();
      if (r.queueMode == QueueMode::SW) {
        c.swValid[f.slot] = true;
        c.swPrev[f.slot] = r;
      }
      if (d) {
        // Broadcast tiles (peRows = 0) fetch the new rows once.
        if (!r.peRows)
          fetchedRows = d;
        loadBytes = fetchedRows * cols * 4;
        stats.slidingRowsReused += reused;
      }
    } else if (f.sub == uint8_t(LoadStream::Weights)) {
      bw = hw.weightLoadBytesPerCycle;
      if (!checkStorage())
        return false;
      if (!fits("weight tile", 0, rows * cols, wqFloats, "weight queue"))
        return false;
      if (queueReusable()) {
        stats.weightReloadsSkipped += rep;
        return true; // rotated back through the loop-back: no reload
      }
      // SW (the queue holds activations, e.g. depthwise convolution with
      // weights and activations swapped): keep the overlap of the previous
      // window, fetch only the d new rows.
      uint64_t d = 0;
      if (r.queueMode == QueueMode::SW && c.wq.slidable && !c.wq.sparse)
        d = slideRows(c.wq.source, rows);
      float *q = c.pes[0].wq.data();
      if (d) {
        std::memmove(q, q + d * cols, (rows - d) * cols * 4);
        gather(0, 0, rows - d, rows, q + (rows - d) * cols);
        roundBuffer(hw.computeType, q + (rows - d) * cols, d * cols);
        loadBytes = d * cols * 4;
        stats.slidingRowsReused += rows - d;
      } else {
        gather(0, 0, 0, rows, q);
        roundBuffer(hw.computeType, q, rows * cols);
      }
      for (uint64_t pe = 1; pe < P; ++pe)
        std::memcpy(c.pes[pe].wq.data(), q, tileBytes);
      c.wq = WeightQueue{};
      c.wq.denseFloats = rows * cols;
      c.wq.slidable = r.queueMode == QueueMode::SW;
    } else if (f.sub == uint8_t(LoadStream::SparseWeights)) {
      bw = hw.weightLoadBytesPerCycle;
      loadBytes = rows * kSparsePairBytes;
      loadRange = {i128(r.addr), i128(r.addr) + i128(loadBytes)};
      if (loadRange.hi > i128(c.storage.size()))
        return bad("sparse weight list " + loadRange.str() +
                   " outside the storage unit [0, " +
                   std::to_string(c.storage.size()) + ")");
      if (r.depth < 1)
        return bad("LD sparse_weights needs depth (dense rows K) >= 1");
      if (!fits("sparse weight list", 0, rows * 2, wqFloats, "weight queue"))
        return false;
      if (queueReusable()) {
        stats.weightReloadsSkipped += rep;
        return true;
      }
      std::vector<SparsePair> pairs;
      std::string e;
      if (!parseSparseTile(c.storage.data() + r.addr, r.rows, r.depth, r.cols,
                           pairs, e))
        return bad(e);
      for (SparsePair &sp : pairs)
        sp.value = roundTo(hw.computeType, sp.value);
      c.wq = WeightQueue{};
      c.wq.sparse = true;
      c.wq.pairs = std::move(pairs);
      c.wq.sparseK = r.depth;
      c.wq.sparseN = r.cols;
    } else if (f.sub == uint8_t(LoadStream::PartialSums)) {
      if (!checkStorage())
        return false;
      if (!fits("partial-sum tile", 0, rmax * cols, accFloats,
                "accumulation buffer"))
        return false;
      for (uint64_t pe = 0; pe < P; ++pe) {
        uint64_t r0, r1;
        peRange(pe, r0, r1);
        gather(pe, r0, r0, r1, c.pes[pe].acc[f.slot & 3].data());
        roundBuffer(hw.accumulateType, c.pes[pe].acc[f.slot & 3].data(),
                    (r1 - r0) * cols);
      }
    } else {
      return bad("invalid LD stream " + std::to_string(f.sub));
    }
    if (f.sub == uint8_t(LoadStream::Weights) ||
        f.sub == uint8_t(LoadStream::SparseWeights)) {
      c.wq.resident = r.queueMode == QueueMode::RQ;
      c.wq.stream = f.sub;
      c.wq.source = r;
    }
    uint64_t dur = ceilDiv(double(loadBytes), bw) * rep;
    window(dur, false, loadRange);
    info.cycles += dur;
    info.storageRead += loadBytes * rep;
    stats.instructionCounts["LD"] += rep;
    return true;
  }
  case Opcode::MAC: {
    const uint64_t depth = r.depth;
    if (r.rowStride < 0)
      return bad("MAC input row pitch (rowStride) must be >= 0");
    const uint64_t pitch = r.rowStride > 0 ? uint64_t(r.rowStride) : depth;
    uint64_t base = f.slot * slotFloats;
    // Rows may overlap (pitch < base + depth: convolution windows); the
    // last row's last activation bounds the read.
    const uint64_t extent = (rmax - 1) * pitch + r.base + depth;
    if (!fits("input tile (rows x pitch + base)", base, extent, inbufFloats,
              "input buffer") ||
        !fits("accumulator tile (rows x cols)", 0, rmax * cols, accFloats,
              "accumulation buffer"))
      return false;
    const bool sparse = c.wq.sparse;
    uint64_t wOff = 0;
    if (sparse) {
      if (c.wq.sparseK != depth || c.wq.sparseN != cols)
        return bad("MAC depth x cols " + std::to_string(depth) + " x " +
                   std::to_string(cols) +
                   " does not match the sparse "
                   "weight list in the queue (" +
                   std::to_string(c.wq.sparseK) + " x " +
                   std::to_string(c.wq.sparseN) + ")");
    } else {
      const uint64_t tile = depth * cols;
      uint64_t tiles =
          tile ? std::max<uint64_t>(1, c.wq.denseFloats / tile) : 1;
      if (r.queueMode == QueueMode::RQ)
        wOff = (c.wq.head % tiles) * tile;
      if (!fits("weight tile (depth x cols)", wOff, tile, wqFloats,
                "weight queue"))
        return false;
      if (r.queueMode == QueueMode::RQ)
        c.wq.head = (c.wq.head + rep) % tiles;
    }
    MacGeom g;
    g.K = depth;
    g.N = cols;
    g.pitch = pitch;
    g.base = r.base;
    std::vector<uint64_t> work(P, 0);
    uint64_t effective = 0, dense = 0;
    for (uint64_t pe = 0; pe < P; ++pe) {
      uint64_t r0, r1;
      peRange(pe, r0, r1);
      g.R = r1 - r0;
      dense += g.R * depth * cols;
      if (!g.R)
        continue;
      const float *A = c.pes[pe].inbuf.data() + base;
      float *C = c.pes[pe].acc[f.accId].data();
      for (uint64_t it = 0; it < rep; ++it) {
        if (sparse)
          work[pe] = macSparse(A, c.pes[pe].mask.data() + base, c.wq.pairs, C,
                               g, hw.accumulateType);
        else
          macDense(A, c.pes[pe].wq.data() + wOff, C, g, hw.accumulateType);
      }
      if (!sparse)
        work[pe] = g.R * depth * cols; // dense queue: no index compare
      effective += work[pe];
    }
    uint64_t moved = 0;
    uint64_t busiest = f.loadBalance
                           ? balancedMax(work, moved)
                           : *std::max_element(work.begin(), work.end());
    uint64_t dur = 0;
    if (depth)
      dur =
          (ceilDiv(double(busiest), hw.macLanes) + hw.macPipelineLatency) * rep;
    c.accChained[f.accId] = f.sfuActive;
    info.cycles += dur;
    info.macs += effective * rep;
    stats.effectiveMacs += effective * rep;
    stats.skippedMacs += (dense - effective) * rep;
    stats.balancedMacs += moved * rep;
    stats.instructionCounts["MAC"] += rep;
    return true;
  }
  case Opcode::ST: {
    if (f.sub > uint8_t(StoreSource::InputBuffer))
      return bad("invalid ST source " + std::to_string(f.sub));
    if (!sfuAllowedInUnary(r.func))
      return bad(std::string("ST cannot apply the SFU function ") +
                 sfuFuncName(r.func) + " (unary functions only)");
    bool fromAcc = f.sub == uint8_t(StoreSource::AccBuffer);
    if (fromAcc && !last) {
      ++stats.storesSkipped;
      return true;
    }
    if (!checkStorage())
      return false;
    uint64_t base = fromAcc ? 0 : f.slot * slotFloats;
    if (fromAcc ? !fits("accumulator tile", 0, rmax * cols, accFloats,
                        "accumulation buffer")
                : !fits("input-buffer tile", base, rmax * cols, inbufFloats,
                        "input buffer"))
      return false;
    uint64_t elems = 0;
    for (uint64_t pe = 0; pe < P; ++pe) {
      uint64_t r0, r1;
      peRange(pe, r0, r1);
      if (r1 <= r0)
        continue;
      const float *src = fromAcc ? c.pes[pe].acc[f.accId].data()
                                 : c.pes[pe].inbuf.data() + base;
      scatter(pe, r0, r1, src);
      elems += (r1 - r0) * cols;
    }
    // Output queue: chained mode (MAC sfu bit, or the input buffer feeding
    // the SFU) pushes each result once; decoupled mode pushes the raw
    // accumulator, the SFU pops it and pushes the result (3 accesses) and
    // the SFU pass over the queue costs its own cycles.
    const bool sfu = r.func != SfuFunc::None;
    const bool decoupled = sfu && fromAcc && !c.accChained[f.accId];
    stats.outputQueueAccesses += (decoupled ? 3 : 1) * elems * rep;
    stats.outputQueueDrains += elems * rep;
    if (sfu)
      (decoupled ? stats.decoupledResults : stats.chainedResults) +=
          elems * rep;
    uint64_t dur =
        (ceilDiv(double(tileBytes), hw.storageBytesPerCycle) +
         (sfu ? hw.sfuLatency : 0) +
         (decoupled ? ceilDiv(double(rmax * cols), hw.sfuLanes) : 0)) *
        rep;
    window(dur, true, whole);
    info.cycles += dur;
    info.storageWritten += tileBytes * rep;
    stats.instructionCounts["ST"] += rep;
    return true;
  }
  case Opcode::SPU:
    return doSpu(c, in, idx, info);
  }
  return bad("invalid opcode " + std::to_string(unsigned(f.op)));
}

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
  auto peRows = [&](uint64_t pe) -> uint64_t {
    if (!r.peRows)
      return rows;
    uint64_t r0 = std::min<uint64_t>(pe * r.peRows, rows);
    return std::min<uint64_t>(r0 + r.peRows, rows) - r0;
  };
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

  if (r.acrossPes) {
    // Decoupled SFU: every PE pushes its R x cols partial tile into its
    // output queue tagged with its PE index; the SFU pops the tagged
    // partials, combines them elementwise in PE order and the result is
    // written back to the input buffer of every PE (rmax x cols at `out`).
    if (!fits("SPU output tile", out, n))
      return false;
    std::vector<float> vals, res(n);
    uint64_t partials = 0;
    for (uint64_t pe = 0; pe < P; ++pe)
      partials += peRows(pe) * cols;
    for (uint64_t it = 0; it < rep; ++it) {
      for (uint64_t i = 0; i < rmax; ++i)
        for (uint64_t j = 0; j < cols; ++j) {
          vals.clear();
          for (uint64_t pe = 0; pe < P; ++pe)
            if (i < peRows(pe))
              vals.push_back(c.pes[pe].inbuf[in1 + i * cols + j]);
          res[i * cols + j] =
              sfuReduce(r.func, vals.data(), vals.size(), r.imm);
        }
      roundBuffer(hw.computeType, res.data(), n);
      for (uint64_t pe = 0; pe < P; ++pe) {
        std::memcpy(c.pes[pe].inbuf.data() + out, res.data(), n * 4);
        buildMask(res.data(), c.pes[pe].mask.data() + out, n);
      }
    }
    stats.outputQueueAccesses += (2 * partials + n) * rep;
    stats.outputQueueDrains += n * rep;
    stats.decoupledResults += n * rep;
    uint64_t dur =
        (ceilDiv(double(partials), hw.sfuLanes) + hw.sfuLatency) * rep;
    info.cycles += dur;
    stats.instructionCounts["SPU"] += rep;
    return true;
  }

  uint64_t outN = type == SpuType::Reduce ? rmax : n;
  if (!fits("SPU output tile", out, outN))
    return false;
  std::vector<float> red;
  for (uint64_t pe = 0; pe < P; ++pe) {
    uint64_t R = peRows(pe), m = R * cols;
    if (!R)
      continue;
    float *buf = c.pes[pe].inbuf.data();
    for (uint64_t it = 0; it < rep; ++it) {
      const float *a = buf + in1, *b = buf + in2;
      float *o = buf + out;
      switch (type) {
      case SpuType::Unary:
        if (r.func == SfuFunc::Relu)
          for (uint64_t i = 0; i < m; ++i)
            o[i] = !(a[i] <= 0) ? a[i] : 0.0f; // as sfuUnary: NaN stays
        else if (r.func == SfuFunc::None)
          std::memmove(o, a, m * 4);
        else
          for (uint64_t i = 0; i < m; ++i)
            o[i] = sfuUnary(r.func, a[i], r.imm);
        break;
      case SpuType::Binary:
        if (sfuIsRowBinary(r.func)) {
          // The second operand has one value per row (R x 1).
          red.assign(b, b + R);
          for (uint64_t i = 0; i < R; ++i)
            for (uint64_t j = 0; j < cols; ++j)
              o[i * cols + j] = sfuBinary(r.func, a[i * cols + j], red[i]);
        } else if (r.func == SfuFunc::Add) {
          for (uint64_t i = 0; i < m; ++i)
            o[i] = a[i] + b[i];
        } else {
          for (uint64_t i = 0; i < m; ++i)
            o[i] = sfuBinary(r.func, a[i], b[i]);
        }
        break;
      case SpuType::Reduce:
        red.assign(R, 0.0f);
        for (uint64_t i = 0; i < R; ++i)
          red[i] = sfuReduce(r.func, a + i * cols, cols, r.imm);
        std::memcpy(o, red.data(), R * 4);
        break;
      case SpuType::Copy:
        std::memmove(o, a, m * 4);
        break;
      }
      // SFU results live in the input buffer (compute type).
      uint64_t written = type == SpuType::Reduce ? R : m;
      roundBuffer(hw.computeType, o, written);
      buildMask(o, c.pes[pe].mask.data() + out, written);
    }
  }
  uint64_t dur = (ceilDiv(double(n), hw.sfuLanes) + hw.sfuLatency) * rep;
  info.cycles += dur;
  stats.instructionCounts["SPU"] += rep;
  return true;
}

} // namespace sim
} // namespace accel
