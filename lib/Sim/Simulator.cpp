//===- Simulator.cpp - Functional + cycle model ----------------------------===//
//
// One Sim object runs one Program. Clusters are stepped one command at a
// time, always the cluster whose control unit is earliest, so shared memory
// channels see transfers in time order. Functional effects happen when a
// command is processed (program order per cluster); the timing model decides
// when each unit would have done the work, and a hazard detector reports
// data used before the unit producing it is done (a missing WAIT/BARRIER).
// docs/simulator.md is the reference for everything here.
//
//===----------------------------------------------------------------------===//
#include "accel/Sim/Simulator.h"
#include "accel/Target/Sfu.h"
#include "accel/Sim/Numerics.h"
#include "PeKernels.h"
#include "Trace.h"
#include "accel/Target/SparseWeights.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <new>
#include <set>

namespace accel {
namespace {

using namespace sim;

constexpr unsigned kSlots = 16;
constexpr unsigned kAccs = 4;
constexpr unsigned kTags = 8;
constexpr unsigned kMaxIbufs = 32;
constexpr uint32_t kMaxRepeat = 1u << 16;
constexpr uint32_t kMaxElemBytes = 64;
/// Extra cycles of a type-2 pipeline per loop-back iteration: the SU stage
/// (operand arithmetic) and the WB stage (register-file write-back) run after
/// the PEs finish the iteration.
constexpr uint64_t kScalarUnitCycles = 2;

using i128 = __int128;

std::string str128(i128 v) {
  if (v == 0)
    return "0";
  bool neg = v < 0;
  unsigned __int128 u =
      neg ? (unsigned __int128)(-(v + 1)) + 1 : (unsigned __int128)v;
  std::string s;
  while (u) {
    s += char('0' + int(u % 10));
    u /= 10;
  }
  if (neg)
    s += '-';
  return std::string(s.rbegin(), s.rend());
}

/// Byte range [lo, hi).
struct Range {
  i128 lo = 0, hi = 0;
  bool empty() const { return hi <= lo; }
  bool overlaps(const Range &o) const {
    return !empty() && !o.empty() && lo < o.hi && o.lo < hi;
  }
  std::string str() const {
    return "[" + str128(lo) + ", " + str128(hi) + ")";
  }
};

/// Bytes touched by rows [r0, r1) of a tile (4-byte elements).
Range tileRange(const OperandRecord &r, uint64_t r0, uint64_t r1) {
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
Range boxRange(uint64_t base, const uint32_t *shape, const int64_t *stride,
               uint32_t elemBytes) {
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

uint64_t ceilDiv(double num, double den) {
  if (num <= 0)
    return 0;
  return uint64_t(std::ceil(num / den));
}

const char *kindName(CommandKind k) {
  switch (k) {
  case CommandKind::Config: return "CONFIG";
  case CommandKind::Execute: return "EXECUTE";
  case CommandKind::Dma: return "DMA";
  case CommandKind::Wait: return "WAIT";
  case CommandKind::Barrier: return "BARRIER";
  }
  return "?";
}
const char *opName(Opcode op) {
  switch (op) {
  case Opcode::LD: return "LD";
  case Opcode::MAC: return "MAC";
  case Opcode::ST: return "ST";
  case Opcode::SPU: return "SPU";
  }
  return "?";
}
const char *dirName(DmaDir d) {
  switch (d) {
  case DmaDir::Load: return "load";
  case DmaDir::Store: return "store";
  case DmaDir::DramCopy: return "dram_copy";
  }
  return "?";
}

struct PE {
  std::vector<float> inbuf, wq, acc[kAccs];
  std::vector<uint8_t> mask; ///< activation bitmask of the input buffer
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
  OperandRecord source;     ///< record of the LD that filled the queue
};

struct Cluster {
  uint32_t index = 0, row = 0, col = 0, channel = 0;
  std::vector<uint8_t> storage;
  std::vector<PE> pes;
  std::vector<std::vector<Instruction>> ibufs;
  std::vector<char> configured;
  std::vector<uint64_t> ibufBusyUntil;
  WeightQueue wq;
  bool accChained[kAccs] = {}; ///< last MAC into acc[a] had sfuActive
  bool swValid[kSlots] = {};   ///< SW window resident at this slot
  OperandRecord swPrev[kSlots];
  const std::vector<Command> *cmds = nullptr;
  size_t pc = 0;
  uint64_t t = 0, peFree = 0, lastDmaDone = 0;
  uint64_t tagDone[kTags] = {};
  bool atBarrier = false;
  uint32_t barrierId = 0;
  uint64_t barrierArrival = 0;
  ClusterStats st;
};

/// One in-flight memory access for hazard detection.
struct Access {
  Range range;
  uint64_t start = 0, end = 0;
  bool write = false;
  uint32_t cluster = 0;
  size_t cmd = 0;
  int instr = -1; ///< instruction index inside an EXECUTE, -1 = DMA
};

/// Per-EXECUTE accumulation of costs and accesses.
struct ExecInfo {
  uint64_t cycles = 0;
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
  bool step(Cluster &c);
  bool doConfig(Cluster &c, const Command &cmd);
  bool doExecute(Cluster &c, const Command &cmd);
  bool doDma(Cluster &c, const Command &cmd);
  bool doInstr(Cluster &c, const Instruction &in, size_t idx, bool last,
               ExecInfo &info);
  bool doSpu(Cluster &c, const Instruction &in, size_t idx, ExecInfo &info);
  bool releaseBarrier();
  bool addAccess(std::vector<Access> &list, const Access &a, bool dram);
  void prune(uint64_t now);
  void finishStats(double wall);

  const Program &p;
  const HardwareDesc &hw;
  const SimOptions &opts;
  SimStats &stats;
  std::string &err;

  std::vector<uint8_t> dram;
  std::vector<Cluster> clusters;
  std::vector<uint64_t> chFree;
  uint32_t numIbufs = 0;
  uint64_t slotFloats = 0, inbufFloats = 0, wqFloats = 0, accFloats = 0;

  // Current command (for messages).
  Cluster *cur = nullptr;
  size_t curCmd = 0;

  // Hazard detection.
  std::vector<std::vector<Access>> storageAccesses; // per cluster
  std::vector<Access> dramAccesses;
  uint64_t now = 0;
  size_t accessesSincePrune = 0;

  TraceRecorder trace;
};

std::string Sim::where() const {
  const Command &c = (*cur->cmds)[curCmd];
  std::string s = clusterName(cur->index) + " command " +
                  std::to_string(curCmd) + " (" + kindName(c.kind);
  if (c.kind == CommandKind::Config || c.kind == CommandKind::Execute)
    s += " ibuf " + std::to_string(c.ibuf);
  return s + "): ";
}

std::string Sim::instrWhere(size_t idx, const Instruction &in) const {
  return "instruction " + std::to_string(idx) + " (" + opName(in.fields.op) +
         "): ";
}

std::string Sim::describe(const Access &a) const {
  const Command &c = p.clusters[a.cluster].commands[a.cmd];
  std::string s = clusterName(a.cluster) + " command " + std::to_string(a.cmd);
  if (a.instr >= 0)
    s += " (EXECUTE ibuf " + std::to_string(c.ibuf) + " instruction " +
         std::to_string(a.instr) + ")";
  else
    s += std::string(" (DMA ") + dirName(c.dma.dir) + " tag " +
         std::to_string(c.dma.tag) + ")";
  return s;
}

//===----------------------------------------------------------------------===//
// Setup
//===----------------------------------------------------------------------===//

bool Sim::checkProgram() {
  std::string e;
  if (!validateHardwareDesc(hw, e))
    return fail("hardware: " + e);
  auto isFloat = [](DType t) {
    return t == DType::F32 || t == DType::F16 || t == DType::BF16;
  };
  if (!isFloat(hw.computeType) || !isFloat(hw.accumulateType))
    return fail(std::string("hardware: the simulator supports f32, f16 and "
                            "bf16 numerics (numerics.compute = ") +
                dtypeName(hw.computeType) + ", numerics.accumulate = " +
                dtypeName(hw.accumulateType) + ")");
  if (p.gridRows != hw.rows || p.gridCols != hw.cols)
    return fail("program grid " + std::to_string(p.gridRows) + "x" +
                std::to_string(p.gridCols) + " does not match the hardware " +
                std::to_string(hw.rows) + "x" + std::to_string(hw.cols) +
                " grid");
  if (p.clusters.size() != uint64_t(hw.rows) * hw.cols)
    return fail("program has " + std::to_string(p.clusters.size()) +
                " cluster streams, the grid needs " +
                std::to_string(uint64_t(hw.rows) * hw.cols));
  if (p.dramSize > hw.dramBytes)
    return fail("program needs " + std::to_string(p.dramSize) +
                " bytes of DRAM, the hardware has " +
                std::to_string(hw.dramBytes));
  return true;
}

bool Sim::setupMemory(const std::map<std::string, Tensor> &inputs) {
  try {
    dram.assign(p.dramSize, 0);
  } catch (const std::bad_alloc &) {
    return fail("cannot allocate " + std::to_string(p.dramSize) +
                " bytes of simulated DRAM");
  }
  for (size_t i = 0; i < p.constants.size(); ++i) {
    const ConstSegment &s = p.constants[i];
    if (i128(s.dramAddr) + i128(s.bytes.size()) > i128(dram.size()))
      return fail("constant segment " + std::to_string(i) + " at " +
                  std::to_string(s.dramAddr) + " (" +
                  std::to_string(s.bytes.size()) +
                  " bytes) lies outside DRAM [0, " +
                  std::to_string(dram.size()) + ")");
    if (!s.bytes.empty())
      std::memcpy(dram.data() + s.dramAddr, s.bytes.data(), s.bytes.size());
  }

  std::set<std::string> names;
  std::string inputList;
  for (const Symbol &s : p.symbols) {
    if (!names.insert(s.name).second)
      return fail("duplicate symbol '" + s.name + "'");
    if (s.isInput)
      inputList += (inputList.empty() ? "" : ", ") + s.name;
    // i1 / i64 interface values live in DRAM as f32 words.
    if (s.dtype != DType::F32 && s.dtype != DType::I1 && s.dtype != DType::I64)
      return fail(std::string(s.isInput ? "input" : "output") + " '" +
                  s.name + "': dtype " + dtypeName(s.dtype) +
                  " is not supported (f32, or i1 / i64 held as f32)");
    i128 n = 1;
    for (int64_t d : s.shape) {
      if (d < 0)
        return fail("symbol '" + s.name + "': negative dimension in shape " +
                    shapeToString(s.shape));
      n *= d;
      if (n > i128(dram.size()))
        n = i128(dram.size()) + 1; // clamp: already too large
    }
    if (i128(s.dramAddr) + n * 4 > i128(dram.size()))
      return fail("symbol '" + s.name + "' " + shapeToString(s.shape) +
                  " at DRAM address " + std::to_string(s.dramAddr) +
                  " lies outside DRAM [0, " + std::to_string(dram.size()) +
                  ")");
  }
  for (auto &kv : inputs) {
    bool found = false;
    for (const Symbol &s : p.symbols)
      found |= s.isInput && s.name == kv.first;
    if (!found)
      return fail("unknown input '" + kv.first + "' (program inputs: " +
                  (inputList.empty() ? std::string("none") : inputList) + ")");
  }
  for (const Symbol &s : p.symbols) {
    if (!s.isInput)
      continue;
    auto it = inputs.find(s.name);
    if (it == inputs.end())
      return fail("missing input '" + s.name + "' (shape " +
                  shapeToString(s.shape) + ")");
    const Tensor &t = it->second;
    if (t.shape != s.shape)
      return fail("input '" + s.name + "' has shape " +
                  shapeToString(t.shape) + " but the program expects " +
                  shapeToString(s.shape));
    if (t.data.size() != s.numElements())
      return fail("input '" + s.name + "' holds " +
                  std::to_string(t.data.size()) + " values but shape " +
                  shapeToString(s.shape) + " needs " +
                  std::to_string(s.numElements()));
    if (!t.data.empty())
      std::memcpy(dram.data() + s.dramAddr, t.data.data(),
                  t.data.size() * 4);
  }

  numIbufs = std::min<uint32_t>(hw.instructionBuffers, kMaxIbufs);
  slotFloats = hw.inputSlotBytes() / 4;
  inbufFloats = hw.inputBufferBytes / 4;
  wqFloats = hw.weightQueueBytes / 4;
  accFloats = hw.accBufferBytes / 4;
  uint32_t n = hw.numClusters();
  try {
    clusters.resize(n);
    for (uint32_t i = 0; i < n; ++i) {
      Cluster &c = clusters[i];
      c.index = i;
      c.row = i / hw.cols;
      c.col = i % hw.cols;
      c.channel = hw.channelOf(i);
      c.storage.assign(hw.storageBytes, 0);
      c.pes.resize(hw.pesPerCluster);
      for (PE &pe : c.pes) {
        pe.inbuf.assign(inbufFloats, 0.0f);
        pe.mask.assign(inbufFloats, 0);
        pe.wq.assign(wqFloats, 0.0f);
        for (auto &a : pe.acc)
          a.assign(accFloats, 0.0f);
      }
      c.ibufs.resize(numIbufs);
      c.configured.assign(numIbufs, 0);
      c.ibufBusyUntil.assign(numIbufs, 0);
      c.cmds = &p.clusters[i].commands;
      c.st.row = c.row;
      c.st.col = c.col;
      c.st.channel = c.channel;
    }
  } catch (const std::bad_alloc &) {
    return fail("cannot allocate the simulated on-chip memories");
  }
  chFree.assign(hw.channels.size(), 0);
  stats.channels.assign(hw.channels.size(), ChannelStats{});
  storageAccesses.assign(n, {});
  return true;
}

//===----------------------------------------------------------------------===//
// Hazards
//===----------------------------------------------------------------------===//

void Sim::prune(uint64_t t) {
  auto drop = [&](std::vector<Access> &v) {
    v.erase(std::remove_if(v.begin(), v.end(),
                           [&](const Access &a) { return a.end <= t; }),
            v.end());
  };
  for (auto &v : storageAccesses)
    drop(v);
  drop(dramAccesses);
}

bool Sim::addAccess(std::vector<Access> &list, const Access &a, bool dram) {
  if (a.range.empty())
    return true;
  for (const Access &o : list) {
    if (o.end <= a.start || o.write == a.write || !o.range.overlaps(a.range))
      continue;
    // Accesses of one activity (e.g. a DramCopy) never conflict.
    if (o.cluster == a.cluster && o.cmd == a.cmd && o.instr == a.instr)
      continue;
    ++stats.hazardCount;
    std::string mem = dram ? std::string("DRAM")
                           : "the storage unit of " + clusterName(o.cluster);
    std::string msg =
        "hazard: " + describe(a) + " " + (a.write ? "writes" : "reads") +
        " " + mem + " bytes " + a.range.str() + " at cycle " +
        std::to_string(a.start) + " while " + describe(o) + " " +
        (o.write ? "writes" : "reads") + " bytes " + o.range.str() +
        " until cycle " + std::to_string(o.end) +
        " (missing WAIT or BARRIER?)";
    if (opts.hazardsAreErrors) {
      err = msg;
      return false;
    }
    if (stats.hazards.size() < opts.maxHazardMessages)
      stats.hazards.push_back(msg);
    break; // one report per access
  }
  if (a.end > a.start)
    list.push_back(a);
  if (++accessesSincePrune >= 256) {
    prune(now);
    accessesSincePrune = 0;
  }
  return true;
}

//===----------------------------------------------------------------------===//
// Commands
//===----------------------------------------------------------------------===//

bool Sim::doConfig(Cluster &c, const Command &cmd) {
  if (cmd.ibuf >= numIbufs)
    return fail("instruction buffer " + std::to_string(cmd.ibuf) +
                " does not exist (the hardware has " +
                std::to_string(numIbufs) + ")");
  if (cmd.instrs.size() > hw.instructionBufferDepth)
    return fail(std::to_string(cmd.instrs.size()) +
                " instructions exceed the instruction-buffer depth " +
                std::to_string(hw.instructionBufferDepth));
  uint64_t issue = c.t;
  if (c.ibufBusyUntil[cmd.ibuf] > issue) {
    ++stats.hazardCount;
    std::string msg = "hazard: " + where() + "overwrites instruction buffer " +
                      std::to_string(cmd.ibuf) + " at cycle " +
                      std::to_string(issue) +
                      " while the PE array runs it until cycle " +
                      std::to_string(c.ibufBusyUntil[cmd.ibuf]) +
                      " (missing WAIT pe?)";
    if (opts.hazardsAreErrors) {
      err = msg;
      return false;
    }
    if (stats.hazards.size() < opts.maxHazardMessages)
      stats.hazards.push_back(msg);
  }
  c.ibufs[cmd.ibuf] = cmd.instrs;
  c.configured[cmd.ibuf] = 1;
  return true;
}

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
    bool uses = f.op == Opcode::ST ||
                (f.op == Opcode::LD &&
                 (f.sub == uint8_t(LoadStream::Activations) ||
                  f.sub == uint8_t(LoadStream::PartialSums)));
    if (!uses)
      return bad("peAddrs is only used by LD acts / psums and ST");
    if (r.peAddrs.size() != c.pes.size())
      return bad("peAddrs holds " + std::to_string(r.peAddrs.size()) +
                 " addresses, the cluster has " +
                 std::to_string(c.pes.size()) + " PEs");
  }
  if (r.acrossPes && !(f.op == Opcode::SPU && f.sub == uint8_t(SpuType::Reduce)))
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
      whole = any ? Range{std::min(whole.lo, t.lo), std::max(whole.hi, t.hi)}
                  : t;
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
  auto fits = [&](const char *what, uint64_t base, uint64_t count,
                  uint64_t cap, const char *capName) {
    if (i128(base) + i128(count) > i128(cap))
      return bad(std::string(what) + " of " + std::to_string(count) +
                 " floats at float offset " + std::to_string(base) +
                 " does not fit the " + capName + " of " +
                 std::to_string(cap) + " floats");
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
                   std::to_string(cols) + " does not match the sparse "
                   "weight list in the queue (" +
                   std::to_string(c.wq.sparseK) + " x " +
                   std::to_string(c.wq.sparseN) + ")");
    } else {
      const uint64_t tile = depth * cols;
      uint64_t tiles = tile ? std::max<uint64_t>(1, c.wq.denseFloats / tile) : 1;
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
      dur = (ceilDiv(double(busiest), hw.macLanes) + hw.macPipelineLatency) *
            rep;
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

bool Sim::doSpu(Cluster &c, const Instruction &in, size_t idx,
                ExecInfo &info) {
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
          res[i * cols + j] = sfuReduce(r.func, vals.data(), vals.size(), r.imm);
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
            o[i] = a[i] > 0 ? a[i] : 0.0f;
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

bool Sim::doExecute(Cluster &c, const Command &cmd) {
  if (cmd.ibuf >= numIbufs)
    return fail("instruction buffer " + std::to_string(cmd.ibuf) +
                " does not exist (the hardware has " +
                std::to_string(numIbufs) + ")");
  if (!c.configured[cmd.ibuf])
    return fail("instruction buffer " + std::to_string(cmd.ibuf) +
                " was never configured");
  auto &buf = c.ibufs[cmd.ibuf];
  std::string patchErr;
  if (!applyPatches(buf, cmd.patches, patchErr))
    return fail(patchErr);
  ExecInfo info;
  for (size_t i = 0; i < buf.size(); ++i) {
    Instruction &ins = buf[i];
    const OperandRecord rec = ins.operands;
    const bool type2 = rec.pipeline == Pipeline::IdFoSuWb;
    // Iterations differ when the scalar unit advances the operands or the
    // RQ queue rotates between them: run them one by one.
    const bool unroll =
        rec.repeat > 1 && rec.repeat <= kMaxRepeat &&
        ((type2 && rec.step != 0) ||
         (ins.fields.op == Opcode::MAC && rec.queueMode == QueueMode::RQ));
    if (!unroll) {
      if (!doInstr(c, ins, i, cmd.last, info))
        return false;
    } else {
      for (uint32_t it = 0; it < rec.repeat; ++it) {
        Instruction one = ins;
        one.operands = advancedOperands(rec, ins.fields, it);
        one.operands.repeat = 1;
        if (!doInstr(c, one, i, cmd.last, info))
          return false;
      }
    }
    if (type2) {
      // SU + WB stages after every iteration; the write-back persists.
      info.cycles += kScalarUnitCycles * rec.repeat;
      if (rec.step != 0)
        stats.scalarUnitOps += rec.repeat;
      ins.operands = advancedOperands(rec, ins.fields, rec.repeat);
    }
  }
  if (cmd.shift)
    for (PE &pe : c.pes)
      for (auto &a : pe.acc)
        std::fill(a.begin(), a.end(), 0.0f);

  uint64_t issued = c.t + hw.commandIssueCycles;
  uint64_t start = std::max(issued, c.peFree);
  uint64_t end = start + info.cycles;
  for (auto &w : info.windows) {
    Access a;
    a.range = w.range;
    a.start = start + w.offset;
    a.end = a.start + w.dur;
    a.write = w.write;
    a.cluster = c.index;
    a.cmd = curCmd;
    a.instr = w.instr;
    if (!addAccess(storageAccesses[c.index], a, false))
      return false;
  }
  c.peFree = end;
  c.ibufBusyUntil[cmd.ibuf] = end;
  c.st.peBusyCycles += info.cycles;
  c.st.macs += info.macs;
  ++c.st.executes;
  stats.macs += info.macs;
  stats.storageBytesRead += info.storageRead;
  stats.storageBytesWritten += info.storageWritten;
  if (trace.enabled()) {
    std::string name = "EXECUTE ibuf " + std::to_string(cmd.ibuf);
    if (cmd.shift)
      name += " shift";
    if (cmd.last)
      name += " last";
    trace.complete(name, c.index, 1, start, info.cycles,
                   "{\"command\":" + std::to_string(curCmd) +
                       ",\"instructions\":" + std::to_string(buf.size()) +
                       ",\"macs\":" + std::to_string(info.macs) + "}");
  }
  return true;
}

bool Sim::doDma(Cluster &c, const Command &cmd) {
  const DmaDesc &d = cmd.dma;
  if (d.tag >= kTags)
    return fail("tag " + std::to_string(d.tag) + " out of range [0, 8)");
  if (unsigned(d.dir) > unsigned(DmaDir::DramCopy))
    return fail("invalid direction " + std::to_string(unsigned(d.dir)));
  if (d.elemBytes < 1 || d.elemBytes > kMaxElemBytes)
    return fail("elemBytes " + std::to_string(d.elemBytes) +
                " out of range [1, " + std::to_string(kMaxElemBytes) + "]");
  bool srcDram = d.dir != DmaDir::Store, dstDram = d.dir != DmaDir::Load;
  uint8_t *srcMem = srcDram ? dram.data() : c.storage.data();
  uint8_t *dstMem = dstDram ? dram.data() : c.storage.data();
  i128 srcCap = srcDram ? i128(dram.size()) : i128(c.storage.size());
  i128 dstCap = dstDram ? i128(dram.size()) : i128(c.storage.size());
  Range src = boxRange(d.src, d.shape, d.srcStride, d.elemBytes);
  Range dst = boxRange(d.dst, d.shape, d.dstStride, d.elemBytes);
  // Element count, clamped so that four 32-bit extents cannot overflow.
  i128 elems = 1;
  for (int i = 0; i < 4; ++i)
    elems = std::min<i128>(elems * d.shape[i], i128(1) << 80);
  i128 bytes = elems * d.elemBytes;
  if (elems > 0) {
    if (src.lo < 0 || src.hi > srcCap)
      return fail("source box " + src.str() + " outside " +
                  (srcDram ? "DRAM [0, " : "the storage unit [0, ") +
                  str128(srcCap) + ")");
    if (dst.lo < 0 || dst.hi > dstCap)
      return fail("destination box " + dst.str() + " outside " +
                  (dstDram ? "DRAM [0, " : "the storage unit [0, ") +
                  str128(dstCap) + ")");
    if (bytes > dstCap)
      return fail("transfer of " + str128(bytes) +
                  " bytes exceeds the size of its destination memory (" +
                  str128(dstCap) + " bytes)");
  }

  // Functional copy. Overlapping DRAM->DRAM copies read the whole source box
  // before writing.
  const uint64_t eb = d.elemBytes;
  std::vector<uint8_t> staged;
  const uint8_t *srcBase = srcMem;
  int64_t srcOrigin = int64_t(d.src);
  if (elems > 0 && srcMem == dstMem && src.overlaps(dst)) {
    staged.assign(size_t(src.hi - src.lo), 0);
    std::memcpy(staged.data(), srcMem + int64_t(src.lo), staged.size());
    srcBase = staged.data();
    srcOrigin = int64_t(d.src) - int64_t(src.lo);
  }
  const bool contiguous = d.srcStride[3] == 1 && d.dstStride[3] == 1;
  for (uint64_t i0 = 0; elems > 0 && i0 < d.shape[0]; ++i0)
    for (uint64_t i1 = 0; i1 < d.shape[1]; ++i1)
      for (uint64_t i2 = 0; i2 < d.shape[2]; ++i2) {
        int64_t so = srcOrigin + (int64_t(i0) * d.srcStride[0] +
                                  int64_t(i1) * d.srcStride[1] +
                                  int64_t(i2) * d.srcStride[2]) *
                                     int64_t(eb);
        int64_t dof = int64_t(d.dst) + (int64_t(i0) * d.dstStride[0] +
                                        int64_t(i1) * d.dstStride[1] +
                                        int64_t(i2) * d.dstStride[2]) *
                                           int64_t(eb);
        if (contiguous) {
          std::memmove(dstMem + dof, srcBase + so, d.shape[3] * eb);
        } else {
          for (uint64_t i3 = 0; i3 < d.shape[3]; ++i3)
            std::memmove(dstMem + dof + int64_t(i3) * d.dstStride[3] * int64_t(eb),
                         srcBase + so + int64_t(i3) * d.srcStride[3] * int64_t(eb),
                         eb);
        }
      }

  // Timing.
  uint64_t ub = uint64_t(bytes);
  uint64_t channelBytes = d.dir == DmaDir::DramCopy ? 2 * ub : ub;
  const MemoryChannel &ch = hw.channels[c.channel];
  uint64_t issued = c.t + hw.commandIssueCycles;
  uint64_t start = std::max(issued, chFree[c.channel]);
  uint64_t dur = ch.latencyCycles + ceilDiv(double(channelBytes),
                                            ch.bytesPerCycle);
  uint64_t done = start + dur;
  chFree[c.channel] = done;
  c.tagDone[d.tag] = std::max(c.tagDone[d.tag], done);
  c.lastDmaDone = std::max(c.lastDmaDone, done);

  Access a;
  a.start = start;
  a.end = done;
  a.cluster = c.index;
  a.cmd = curCmd;
  auto add = [&](Range r, bool write, bool isDram) {
    a.range = r;
    a.write = write;
    return addAccess(isDram ? dramAccesses : storageAccesses[c.index], a,
                     isDram);
  };
  if (elems > 0 && (!add(src, false, srcDram) || !add(dst, true, dstDram)))
    return false;

  c.st.dmaBytes += ub;
  ++c.st.dmaTransfers;
  ChannelStats &cs = stats.channels[c.channel];
  cs.busyCycles += dur;
  cs.bytes += channelBytes;
  ++cs.transfers;
  if (srcDram)
    stats.dramBytesRead += ub;
  else
    stats.storageBytesRead += ub;
  if (dstDram)
    stats.dramBytesWritten += ub;
  else
    stats.storageBytesWritten += ub;
  if (trace.enabled()) {
    std::string name = std::string("DMA ") + dirName(d.dir) + " tag " +
                       std::to_string(d.tag);
    std::string args = "{\"command\":" + std::to_string(curCmd) +
                       ",\"bytes\":" + std::to_string(ub) +
                       ",\"channel\":" + std::to_string(c.channel) + "}";
    trace.complete(name, c.index, 2, start, dur, args);
    trace.complete(clusterName(c.index) + " " + dirName(d.dir),
                   clusters.size(), c.channel, start, dur, args);
  }
  return true;
}

bool Sim::step(Cluster &c) {
  cur = &c;
  curCmd = c.pc;
  const Command &cmd = (*c.cmds)[c.pc++];
  uint64_t t0 = c.t;
  now = std::max(now, t0);
  ++c.st.commands;
  ++stats.commandCounts[kindName(cmd.kind)];
  switch (cmd.kind) {
  case CommandKind::Config:
    if (!doConfig(c, cmd))
      return false;
    c.t += hw.commandIssueCycles;
    break;
  case CommandKind::Execute:
    if (!doExecute(c, cmd))
      return false;
    c.t += hw.commandIssueCycles;
    break;
  case CommandKind::Dma:
    if (!doDma(c, cmd))
      return false;
    c.t += hw.commandIssueCycles;
    break;
  case CommandKind::Wait: {
    uint64_t nt = c.t + hw.commandIssueCycles;
    uint64_t issued = nt;
    for (unsigned t = 0; t < kTags; ++t)
      if (cmd.waitTags & (1u << t))
        nt = std::max(nt, c.tagDone[t]);
    if (cmd.waitPe)
      nt = std::max(nt, c.peFree);
    c.st.stallCycles += nt - issued;
    c.t = nt;
    break;
  }
  case CommandKind::Barrier:
    c.t += hw.commandIssueCycles;
    c.atBarrier = true;
    c.barrierId = cmd.barrierId;
    c.barrierArrival = c.t;
    break;
  default:
    return fail("invalid command kind " + std::to_string(unsigned(cmd.kind)));
  }
  if (trace.enabled() && cmd.kind != CommandKind::Barrier) {
    std::string name = kindName(cmd.kind);
    if (cmd.kind == CommandKind::Config || cmd.kind == CommandKind::Execute)
      name += " ibuf " + std::to_string(cmd.ibuf);
    else if (cmd.kind == CommandKind::Dma)
      name += std::string(" ") + dirName(cmd.dma.dir) + " tag " +
              std::to_string(cmd.dma.tag);
    trace.complete(name, c.index, 0, t0, c.t - t0,
                   "{\"command\":" + std::to_string(curCmd) + "}");
  }
  cur = nullptr;
  return true;
}

bool Sim::releaseBarrier() {
  // Called when every cluster waits at a barrier.
  uint32_t id = clusters[0].barrierId;
  uint64_t release = 0;
  for (Cluster &c : clusters) {
    if (c.barrierId != id)
      return fail("deadlock: " + clusterName(0) + " waits at barrier " +
                  std::to_string(id) + " but " + clusterName(c.index) +
                  " waits at barrier " + std::to_string(c.barrierId));
    release = std::max(release, c.barrierArrival);
  }
  release += hw.barrierLatency;
  for (Cluster &c : clusters) {
    // The barrier command itself was issued in [arrival - issue, arrival).
    uint64_t from = c.barrierArrival - hw.commandIssueCycles;
    c.st.stallCycles += release - c.barrierArrival;
    if (trace.enabled())
      trace.complete("BARRIER " + std::to_string(id), c.index, 0, from,
                     release - from, "{}");
    c.t = release;
    c.atBarrier = false;
  }
  return true;
}

void Sim::finishStats(double wall) {
  uint64_t cycles = 0;
  for (Cluster &c : clusters) {
    c.st.finishCycle = std::max({c.t, c.peFree, c.lastDmaDone});
    cycles = std::max(cycles, c.st.finishCycle);
  }
  stats.hardware = hw.name;
  stats.cycles = cycles;
  stats.timeUs = double(cycles) / (hw.clockGHz * 1000.0);
  const double cyc = double(std::max<uint64_t>(cycles, 1));
  const double peLanes = double(hw.pesPerCluster) * hw.macLanes;
  stats.clusters.clear();
  for (Cluster &c : clusters) {
    c.st.peUtilisation = cycles ? double(c.st.peBusyCycles) / cyc : 0;
    c.st.macUtilisation = cycles ? double(c.st.macs) / (cyc * peLanes) : 0;
    stats.clusters.push_back(c.st);
  }
  for (ChannelStats &ch : stats.channels)
    ch.utilisation = cycles ? double(ch.busyCycles) / cyc : 0;
  stats.macUtilisation =
      cycles ? double(stats.macs) / (cyc * clusters.size() * peLanes) : 0;
  stats.energyMacPj = double(stats.macs) * hw.pjPerMac;
  stats.energyDramPj =
      double(stats.dramBytesRead + stats.dramBytesWritten) * hw.pjPerDramByte;
  stats.energyStoragePj =
      double(stats.storageBytesRead + stats.storageBytesWritten) *
      hw.pjPerStorageByte;
  stats.energyStaticPj =
      double(cycles) * clusters.size() * hw.staticPjPerClusterCycle;
  stats.energyTotalPj = stats.energyMacPj + stats.energyDramPj +
                        stats.energyStoragePj + stats.energyStaticPj;
  for (const char *k : {"CONFIG", "EXECUTE", "DMA", "WAIT", "BARRIER"})
    stats.commandCounts[k] += 0;
  for (const char *k : {"LD", "MAC", "ST", "SPU"})
    stats.instructionCounts[k] += 0;
  stats.wallSeconds = wall;
}

bool Sim::run(const std::map<std::string, Tensor> &inputs,
              std::map<std::string, Tensor> &outputs) {
  auto t0 = std::chrono::steady_clock::now();
  stats = SimStats{};
  if (!checkProgram() || !setupMemory(inputs))
    return false;
  if (!opts.tracePath.empty()) {
    trace.enable();
    for (Cluster &c : clusters)
      trace.process(c.index,
                    "cluster (" + std::to_string(c.row) + "," +
                        std::to_string(c.col) + ")",
                    {"control unit", "PE array", "DMA"});
    std::vector<std::string> chNames;
    for (size_t i = 0; i < hw.channels.size(); ++i)
      chNames.push_back("channel " + std::to_string(i));
    trace.process(clusters.size(), "channels", chNames);
  }

  for (;;) {
    Cluster *best = nullptr;
    bool anyBlocked = false;
    Cluster *finished = nullptr;
    for (Cluster &c : clusters) {
      if (c.atBarrier)
        anyBlocked = true;
      else if (c.pc >= c.cmds->size())
        finished = finished ? finished : &c;
      else if (!best || c.t < best->t)
        best = &c;
    }
    if (best) {
      if (!step(*best))
        return false;
      continue;
    }
    if (!anyBlocked)
      break;
    if (finished) {
      Cluster *waiting = nullptr;
      for (Cluster &c : clusters)
        if (c.atBarrier) {
          waiting = &c;
          break;
        }
      return fail("deadlock: " + clusterName(waiting->index) +
                  " waits at barrier " + std::to_string(waiting->barrierId) +
                  " but " + clusterName(finished->index) +
                  " has finished its command stream");
    }
    if (!releaseBarrier())
      return false;
  }

  outputs.clear();
  for (const Symbol &s : p.symbols) {
    if (s.isInput)
      continue;
    Tensor t;
    t.shape = s.shape;
    t.data.resize(s.numElements());
    if (!t.data.empty())
      std::memcpy(t.data.data(), dram.data() + s.dramAddr, t.data.size() * 4);
    outputs[s.name] = std::move(t);
  }
  double wall = std::chrono::duration<double>(
                    std::chrono::steady_clock::now() - t0)
                    .count();
  finishStats(wall);
  if (trace.enabled() && !trace.write(opts.tracePath, err))
    return false;
  return true;
}

} // namespace

uint64_t Tensor::numElements() const {
  uint64_t n = 1;
  for (int64_t d : shape)
    n *= d <= 0 ? 0 : uint64_t(d);
  return n;
}

std::string shapeToString(const std::vector<int64_t> &shape) {
  std::string s = "[";
  for (size_t i = 0; i < shape.size(); ++i)
    s += (i ? ", " : "") + std::to_string(shape[i]);
  return s + "]";
}

bool simulate(const Program &prog, const HardwareDesc &hw,
              const std::map<std::string, Tensor> &inputs,
              const SimOptions &opts, std::map<std::string, Tensor> &outputs,
              SimStats &stats, std::string &err) {
  try {
    return Sim(prog, hw, opts, stats, err).run(inputs, outputs);
  } catch (const std::bad_alloc &) {
    err = "simulator: out of host memory";
    return false;
  } catch (const std::exception &e) {
    err = std::string("simulator: internal error: ") + e.what();
    return false;
  }
}

} // namespace accel
