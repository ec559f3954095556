//===- Simulator.cpp - Functional + cycle model
//----------------------------===//
//
// One Sim object runs one Program. Clusters are stepped one command at a
// time, always the cluster whose control unit is earliest (a cluster blocked
// in RECV competes with the time its semaphore reaches the count), so
// memory channels and mesh links see transfers in time order. DMAs are
// charged to the channels of their DRAM addresses; SEND / SIGNAL / RECV and
// remote_load are in SimMesh.cpp, the link model in MeshModel.cpp. Functional
// effects happen when a command is processed (program order per cluster); the
// timing model decides when each unit would have done the work, and a hazard
// detector reports data used before the unit producing it is done (a missing
// WAIT/BARRIER). docs/simulator.md is the reference for everything here.
//
//===----------------------------------------------------------------------===//
#include "accel/Sim/Simulator.h"
#include "BoxFootprint.h"
#include "DmaCopy.h"
#include "SimImpl.h"
#include "StridedCopy.h"
#include "accel/Sim/Numerics.h"
#include "accel/Target/Sfu.h"
#include "accel/Target/SparseWeights.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <new>
#include <set>
#include <thread>

namespace accel {
namespace sim {

std::string Sim::where() const {
  const Command &c = (*cur->cmds)[curCmd];
  std::string s = clusterName(cur->index) + " command " +
                  std::to_string(curCmd) + " (" + commandKindName(c.kind);
  if (c.kind == CommandKind::Config || c.kind == CommandKind::Execute)
    s += " ibuf " + std::to_string(c.ibuf);
  return s + "): ";
}

std::string Sim::instrWhere(size_t idx, const Instruction &in) const {
  return "instruction " + std::to_string(idx) + " (" +
         opcodeName(in.fields.op) + "): ";
}

std::string Sim::describe(const Access &a) const {
  const Command &c = p.clusters[a.cluster].commands[a.cmd];
  std::string s = clusterName(a.cluster) + " command " + std::to_string(a.cmd);
  if (a.instr >= 0)
    s += " (EXECUTE ibuf " + std::to_string(c.ibuf) + " instruction " +
         std::to_string(a.instr) + ")";
  else if (c.kind == CommandKind::Send)
    s += " (SEND tag " + std::to_string(c.mesh->tag) + " sem " +
         std::to_string(c.mesh->sem) + ")";
  else
    s += std::string(" (DMA ") + dmaDirName(c.dma.dir) + " tag " +
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

namespace {
bool isIntegerDType(DType t) {
  return t == DType::I8 || t == DType::I32 || t == DType::I64;
}

/// The blocks setupMemory carves from Sim::onChip for each cluster, in
/// elements: listed once, so that the huge-page region reserved for them
/// (bytes()) and the carving agree.
struct ClusterBlocks {
  size_t storageBytes, peInbufFloats, peAccFloats, weightQueueFloats;
  /// One cluster's bytes, each block rounded up to 64 as ZeroedArena::alloc
  /// rounds it.
  size_t bytes() const {
    auto block = [](size_t n) { return (n + 63) & ~size_t(63); };
    return block(storageBytes) + block(peInbufFloats * 4) +
           block(peAccFloats * 4) + block(weightQueueFloats * 4);
  }
};
} // namespace

// An i32 / i64 input (e.g. run-time sequence lengths) is a count or an
// index: a floating-point tensor for it is most likely the wrong file, so it
// is refused rather than truncated. DRAM holds f32 words, exact only below
// 2^24 in magnitude; a larger value would silently become another number.
bool Sim::checkIntegerInput(const Symbol &s, const Tensor &t) {
  if (s.dtype != DType::I32 && s.dtype != DType::I64)
    return true;
  if (!isIntegerDType(t.dtype))
    return fail("input '" + s.name + "' is an integer input (" +
                dtypeName(s.dtype) + ") but was given a " + dtypeName(t.dtype) +
                " tensor; give an integer tensor (e.g. .npy int32 / int64)");
  constexpr float kExactLimit = 16777216.0f; // 2^24
  for (size_t i = 0; i < t.data.size(); ++i)
    if (std::fabs(t.data[i]) >= kExactLimit)
      return fail("input '" + s.name + "': value at index " +
                  std::to_string(i) +
                  " is outside (-2^24, 2^24), where integers are held "
                  "exactly as f32");
  return true;
}

void Sim::writeImage(const Symbol &s, const std::vector<float> &data) {
  const auto *bytes = reinterpret_cast<const uint8_t *>(data.data());
  if (s.pieces.empty()) {
    if (!data.empty())
      dram.write(s.dramAddr, bytes, data.size() * 4);
    return;
  }
  for (const DramPiece &q : s.pieces) // every replica gets its copy
    if (q.bytes)
      dram.write(q.dramAddr, bytes + q.offset, q.bytes);
}

void Sim::readImage(const Symbol &s, std::vector<float> &data) {
  auto *bytes = reinterpret_cast<uint8_t *>(data.data());
  if (s.pieces.empty()) {
    if (!data.empty())
      dram.read(s.dramAddr, bytes, data.size() * 4);
    return;
  }
  // Backwards, so that the first piece covering a byte is the one kept.
  for (auto q = s.pieces.rbegin(); q != s.pieces.rend(); ++q)
    if (q->bytes)
      dram.read(q->dramAddr, bytes + q->offset, q->bytes);
}

bool Sim::setupMemory(const std::map<std::string, Tensor> &inputs) {
  dram.reset(p.dramSize); // pages are allocated as the program touches them
  for (size_t i = 0; i < p.constants.size(); ++i) {
    const ConstSegment &s = p.constants[i];
    if (i128(s.dramAddr) + i128(s.size()) > i128(dram.size()))
      return fail("constant segment " + std::to_string(i) + " at " +
                  std::to_string(s.dramAddr) + " (" + std::to_string(s.size()) +
                  " bytes) lies outside DRAM [0, " +
                  std::to_string(dram.size()) + ")");
    // Whole pages read the program's bytes in place until written.
    if (!s.empty())
      dram.writeShared(s.dramAddr, s.data(), s.size());
    for (uint64_t r : s.replicas) {
      if (i128(r) + i128(s.size()) > i128(dram.size()))
        return fail("replica at " + std::to_string(r) +
                    " of constant segment " + std::to_string(i) + " (" +
                    std::to_string(s.size()) +
                    " bytes) lies outside DRAM [0, " +
                    std::to_string(dram.size()) + ")");
      if (!s.empty())
        dram.writeShared(r, s.data(), s.size());
    }
  }

  if (!writePackets())
    return false;

  std::set<std::string> names;
  std::string inputList;
  for (const Symbol &s : p.symbols) {
    if (!names.insert(s.name).second)
      return fail("duplicate symbol '" + s.name + "'");
    if (s.isInput)
      inputList += (inputList.empty() ? "" : ", ") + s.name;
    // i1 / i32 / i64 interface values live in DRAM as f32 words.
    if (s.dtype != DType::F32 && s.dtype != DType::I1 &&
        s.dtype != DType::I32 && s.dtype != DType::I64)
      return fail(std::string(s.isInput ? "input" : "output") + " '" + s.name +
                  "': dtype " + dtypeName(s.dtype) +
                  " is not supported (f32, or i1 / i32 / i64 held as f32)");
    i128 n = 1;
    for (int64_t d : s.shape) {
      if (d < 0)
        return fail("symbol '" + s.name + "': negative dimension in shape " +
                    shapeToString(s.shape));
      n *= d;
      if (n > i128(dram.size()))
        n = i128(dram.size()) + 1; // clamp: already too large
    }
    if (s.pieces.empty() && i128(s.dramAddr) + n * 4 > i128(dram.size()))
      return fail("symbol '" + s.name + "' " + shapeToString(s.shape) +
                  " at DRAM address " + std::to_string(s.dramAddr) +
                  " lies outside DRAM [0, " + std::to_string(dram.size()) +
                  ")");
    for (const DramPiece &q : s.pieces)
      if (i128(q.offset) + i128(q.bytes) > n * 4 ||
          i128(q.dramAddr) + i128(q.bytes) > i128(dram.size()))
        return fail("symbol '" + s.name + "': piece [" +
                    std::to_string(q.offset) + ", +" + std::to_string(q.bytes) +
                    ") at DRAM address " + std::to_string(q.dramAddr) +
                    " lies outside its image or DRAM [0, " +
                    std::to_string(dram.size()) + ")");
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
      return fail("input '" + s.name + "' has shape " + shapeToString(t.shape) +
                  " but the program expects " + shapeToString(s.shape));
    if (t.data.size() != s.numElements())
      return fail("input '" + s.name + "' holds " +
                  std::to_string(t.data.size()) + " values but shape " +
                  shapeToString(s.shape) + " needs " +
                  std::to_string(s.numElements()));
    if (!checkIntegerInput(s, t))
      return false;
    writeImage(s, t.data);
  }
  if (!recordArrivals())
    return false;

  numIbufs = std::min<uint32_t>(hw.instructionBuffers, kMaxIbufs);
  slotFloats = hw.inputSlotBytes() / 4;
  inbufFloats = hw.inputBufferBytes / 4;
  wqFloats = hw.weightQueueBytes / 4;
  accFloats = hw.accBufferBytes / 4;
  uint32_t n = hw.numClusters();
  try {
    const size_t pes = hw.pesPerCluster;
    const ClusterBlocks blocks{hw.storageBytes, pes * inbufFloats,
                               pes * kAccs * accFloats, wqFloats};
    onChip.reserveHuge(blocks.bytes() * n);
    clusters.resize(n);
    for (uint32_t i = 0; i < n; ++i) {
      Cluster &c = clusters[i];
      c.index = i;
      c.row = i / hw.cols;
      c.col = i % hw.cols;
      c.channel = hw.channelOf(i);
      // Zeroed without a memset: host pages appear as the program
      // touches them.
      c.storage.allocate(onChip, blocks.storageBytes);
      c.pes.resize(hw.pesPerCluster);
      // The PEs' input buffers one after the other in one block, and their
      // accumulation buffers in another (PE-major): a MAC whose PEs own a
      // row each runs as one tile over them (runMacs).
      c.peInbufStride = inbufFloats;
      c.peAccStride = kAccs * accFloats;
      c.peInbufs.allocate(onChip, blocks.peInbufFloats);
      c.peAccs.allocate(onChip, blocks.peAccFloats);
      for (size_t q = 0; q < c.pes.size(); ++q) {
        PE &pe = c.pes[q];
        pe.inbuf.view(c.peInbufs.data() + q * c.peInbufStride, inbufFloats);
        pe.wq.allocate(onChip, q == 0 ? blocks.weightQueueFloats : 0);
        for (unsigned a = 0; a < kAccs; ++a)
          pe.acc[a].view(c.peAccs.data() + q * c.peAccStride + a * accFloats,
                         accFloats);
      }
      c.ibufs.resize(numIbufs);
      c.configured.assign(numIbufs, 0);
      c.ibufBusyUntil.assign(numIbufs, 0);
      c.cmds = &p.clusters[i].commands;
      c.checked = opts.commandsChecked ? 0 : UINT64_MAX;
      c.st.row = c.row;
      c.st.col = c.col;
      c.st.channel = c.channel;
      c.st.cores.assign(hw.pesPerCluster, CoreStats{});
    }
  } catch (const std::bad_alloc &) {
    return fail("cannot allocate the simulated on-chip memories");
  }
  channelTimes.assign(hw.channels.size(), ChannelTimeline{});
  stats.channels.assign(hw.channels.size(), ChannelStats{});
  storageAccesses.assign(n, {});
  return true;
}

bool Sim::writePackets() {
  const i128 size = i128(dram.size());
  auto inside = [&](uint64_t addr, uint64_t n) {
    return i128(addr) + i128(n) <= size;
  };
  for (size_t i = 0; i < p.packets.size(); ++i) {
    const ConstPacket &pk = p.packets[i];
    std::string what = "constant packet " + std::to_string(i) + " (" +
                       clusterName(pk.cluster) + " core " +
                       std::to_string(pk.core) + ")";
    if (pk.cluster >= hw.numClusters())
      return fail("constant packet " + std::to_string(i) + ": cluster " +
                  std::to_string(pk.cluster) + " outside the " +
                  std::to_string(hw.rows) + "x" + std::to_string(hw.cols) +
                  " grid");
    if (pk.core >= hw.pesPerCluster)
      return fail(what + ": core " + std::to_string(pk.core) +
                  " outside the cluster's " + std::to_string(hw.pesPerCluster) +
                  " PEs");
    if (!inside(pk.markerAddr, pk.marker.size()))
      return fail(what + ": marker area at " + std::to_string(pk.markerAddr) +
                  " (" + std::to_string(pk.marker.size()) +
                  " bytes) lies outside DRAM [0, " +
                  std::to_string(dram.size()) + ")");
    for (const PacketBlockRef &b : pk.blocks)
      if (!inside(b.dramAddr, b.bytes))
        return fail(what + ": block '" + b.name + "' at " +
                    std::to_string(b.dramAddr) + " (" +
                    std::to_string(b.bytes) + " bytes) lies outside DRAM [0, " +
                    std::to_string(dram.size()) + ")");
    if (!pk.marker.empty())
      dram.write(pk.markerAddr, pk.marker.data(), pk.marker.size());
  }
  return true;
}

//===----------------------------------------------------------------------===//
// Hazards
//===----------------------------------------------------------------------===//

/// Whether an access belongs to a mesh command (SEND, remote_load): the
/// missing synchronisation is then a RECV.
static bool isMeshAccess(const Program &p, const Access &a) {
  if (a.instr >= 0)
    return false;
  const Command &c = p.clusters[a.cluster].commands[a.cmd];
  return c.kind == CommandKind::Send ||
         (c.kind == CommandKind::Dma && c.dma.dir == DmaDir::RemoteLoad);
}

/// Whether an access belongs to a local_copy DMA (they run in issue order
/// on their cluster, like one channel's DMAs).
static bool isLocalCopy(const Program &p, const Access &a) {
  if (a.instr >= 0)
    return false;
  const Command &c = p.clusters[a.cluster].commands[a.cmd];
  return c.kind == CommandKind::Dma && c.dma.dir == DmaDir::LocalCopy;
}

/// The box a DMA command's access touches (its source when it reads, its
/// destination when it writes), from the command itself; unknown (only the
/// bounding range counts) for every other access.
static BoxFootprint dmaBox(const Program &p, const Access &a) {
  BoxFootprint f;
  if (a.instr >= 0)
    return f;
  const Command &c = p.clusters[a.cluster].commands[a.cmd];
  if (c.kind != CommandKind::Dma)
    return f;
  const DmaDesc &d = c.dma;
  f.origin = int64_t(a.write ? d.dst : d.src);
  f.elemBytes = d.elemBytes;
  for (int i = 0; i < 4; ++i) {
    f.shape[i] = d.shape[i];
    f.stride[i] = a.write ? d.dstStride[i] : d.srcStride[i];
  }
  return f;
}

bool Sim::addAccess(const Access &a, int owner) {
  AccessList<Access> &list =
      owner < 0 ? dramAccesses : storageAccesses[size_t(owner)];
  if (a.range.empty())
    return true;
  // Accesses that ended by `now` can conflict with none issued from now on.
  list.prune(now);
  const bool aLocal = isLocalCopy(p, a);
  // A command's access (DMA, SEND, remote_load) is in flight from its issue
  // on: a channel or link queue may delay it in this run, but nothing in the
  // program guarantees that order, except for two DMAs of one cluster on a
  // common channel (the channel serves them in program order).
  auto fromFor = [&](const Access &o) {
    const bool fifo =
        o.cluster == a.cluster &&
        ((o.channels & a.channels) != 0 || (aLocal && isLocalCopy(p, o)));
    return a.instr < 0 && !fifo ? std::min(a.issued, a.start) : a.start;
  };
  const uint64_t earliest = a.instr < 0 ? std::min(a.issued, a.start) : a.start;
  const Access *hit = list.firstConflict(a, earliest, [&](const Access &o) {
    // In DRAM two DMAs of one cluster on a common channel are served in
    // issue order even while the earlier one is still in its latency
    // (max_outstanding > 1): a byte lives on one channel, which starts its
    // DMAs in issue order. Their storage sides still meet the data when it
    // arrives, so they are checked on their windows.
    if (owner < 0 && o.cluster == a.cluster && (o.channels & a.channels) != 0)
      return false;
    if (o.end <= fromFor(o))
      return false;
    // Accesses of one activity (e.g. a DramCopy) never conflict.
    if (o.cluster == a.cluster && o.cmd == a.cmd && o.instr == a.instr)
      return false;
    // The bounding ranges overlap; strided boxes may still share no byte.
    return footprintsMayIntersect(dmaBox(p, a), dmaBox(p, o));
  });
  if (hit) {
    const Access &o = *hit;
    const uint64_t from = fromFor(o);
    ++stats.hazardCount;
    std::string mem =
        owner < 0 ? std::string("DRAM")
                  : "the storage unit of " + clusterName(uint32_t(owner));
    bool meshSync = isMeshAccess(p, a) || isMeshAccess(p, o);
    std::string msg =
        "hazard: " + describe(a) + " " + (a.write ? "writes" : "reads") + " " +
        mem + " bytes " + a.range.str() + " at cycle " + std::to_string(from) +
        " while " + describe(o) + " " + (o.write ? "writes" : "reads") +
        " bytes " + o.range.str() + " until cycle " + std::to_string(o.end) +
        (meshSync ? " (missing RECV, WAIT or BARRIER?)"
                  : " (missing WAIT or BARRIER?)");
    if (opts.hazardsAreErrors) {
      err = msg;
      return false;
    }
    if (stats.hazards.size() < opts.maxHazardMessages)
      stats.hazards.push_back(msg);
  }
  if (a.end > a.start)
    list.add(a);
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
    std::string msg =
        "hazard: " + where() + "overwrites instruction buffer " +
        std::to_string(cmd.ibuf) + " at cycle " + std::to_string(issue) +
        " while the PE array runs it until cycle " +
        std::to_string(c.ibufBusyUntil[cmd.ibuf]) + " (missing WAIT pe?)";
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
  ExecInfo &info = execInfo; // reused: its window list keeps its capacity
  info.cycles = info.sfuCycles = info.macs = 0;
  info.storageRead = info.storageWritten = 0;
  info.windows.clear();
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
  if (cmd.shift && !lanes->threaded()) {
    for (PE &pe : c.pes)
      pe.clearAccs(pe.takeDirty());
  } else if (cmd.shift) {
    std::vector<std::array<uint64_t, kAccs>> dirty;
    dirty.reserve(c.pes.size());
    for (PE &pe : c.pes)
      dirty.push_back(pe.takeDirty());
    pushLocal(c, [pes = c.pes.data(), dirty = std::move(dirty)] {
      for (size_t i = 0; i < dirty.size(); ++i)
        pes[i].clearAccs(dirty[i]);
    });
  }

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
    if (!addAccess(a, int(c.index)))
      return false;
  }
  c.peFree = end;
  c.ibufBusyUntil[cmd.ibuf] = end;
  if (activity.enabled())
    activity.add(c.index, start, end, double(info.cycles), double(info.macs));
  unitEnd = end;
  c.st.peBusyCycles += info.cycles;
  busyTotals.pe += info.cycles;
  busyTotals.sfu += info.sfuCycles;
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

/// SimOptions::inputArrival as DRAM ranges (every piece and replica).
bool Sim::recordArrivals() {
  for (const auto &[name, cycle] : opts.inputArrival) {
    const Symbol *sym = nullptr;
    for (const Symbol &s : p.symbols)
      if (s.isInput && s.name == name)
        sym = &s;
    if (!sym)
      return fail("arrival of unknown input '" + name + "'");
    uint64_t bytes = sym->numElements() * 4;
    if (sym->pieces.empty())
      arrivals.push_back(
          {{i128(sym->dramAddr), i128(sym->dramAddr + bytes)}, cycle});
    for (const DramPiece &q : sym->pieces)
      arrivals.push_back(
          {{i128(q.dramAddr), i128(q.dramAddr + q.bytes)}, cycle});
  }
  return true;
}

uint64_t Sim::arrivalOf(const Range &r) const {
  uint64_t at = 0;
  for (const auto &[range, cycle] : arrivals)
    if (range.overlaps(r))
      at = std::max(at, cycle);
  return at;
}

bool Sim::doDma(Cluster &c, const Command &cmd) {
  const DmaDesc &d = cmd.dma;
  if (d.tag >= kTags)
    return fail("tag " + std::to_string(d.tag) + " out of range [0, 8)");
  if (unsigned(d.dir) > unsigned(DmaDir::LocalCopy))
    return fail("invalid direction " + std::to_string(unsigned(d.dir)));
  if (d.elemBytes < 1 || d.elemBytes > kMaxElemBytes)
    return fail("elemBytes " + std::to_string(d.elemBytes) +
                " out of range [1, " + std::to_string(kMaxElemBytes) + "]");
  const bool remote = d.dir == DmaDir::RemoteLoad;
  if (remote) {
    if (!hw.sharedClusterCache)
      return fail("remote_load needs a shared cluster cache (the hardware "
                  "has cluster.shared_cache = false)");
    if (d.srcCluster >= clusters.size())
      return fail("remote_load source cluster " + std::to_string(d.srcCluster) +
                  " outside the " + std::to_string(hw.rows) + "x" +
                  std::to_string(hw.cols) + " grid");
    if (d.srcCluster == c.index)
      return fail("remote_load from the issuing cluster itself (use a "
                  "local copy)");
  }
  Cluster &owner = remote ? clusters[d.srcCluster] : c;
  bool srcDram = readsDram(d.dir);
  bool dstDram = writesDram(d.dir);
  i128 srcCap = srcDram ? i128(dram.size()) : i128(owner.storage.size());
  i128 dstCap = dstDram ? i128(dram.size()) : i128(c.storage.size());
  // Built only for a message (a string per DMA was 1 % of a run).
  auto srcName = [&] {
    return srcDram ? std::string("DRAM [0, ")
                   : (remote ? "the storage unit of " +
                                   clusterName(owner.index) + " [0, "
                             : std::string("the storage unit [0, "));
  };
  Range src = boxRange(d.src, d.shape, d.srcStride, d.elemBytes);
  Range dst = boxRange(d.dst, d.shape, d.dstStride, d.elemBytes);
  // Element count, clamped so that four 32-bit extents cannot overflow.
  i128 elems = 1;
  for (int i = 0; i < 4; ++i)
    elems = std::min<i128>(elems * d.shape[i], i128(1) << 80);
  i128 bytes = elems * d.elemBytes;
  if (elems > 0) {
    if (src.lo < 0 || src.hi > srcCap)
      return fail("source box " + src.str() + " outside " + srcName() +
                  int128String(srcCap) + ")");
    if (dst.lo < 0 || dst.hi > dstCap)
      return fail("destination box " + dst.str() + " outside " +
                  (dstDram ? "DRAM [0, " : "the storage unit [0, ") +
                  int128String(dstCap) + ")");
    if (bytes > dstCap)
      return fail("transfer of " + int128String(bytes) +
                  " bytes exceeds the size of its destination memory (" +
                  int128String(dstCap) + " bytes)");
  }

  // The bytes, on a data lane (DmaCopy.cpp).
  if (elems > 0) {
    DataFootprint fp;
    if (srcDram)
      fp.dramRead = src;
    if (dstDram)
      fp.dramWrite = dst;
    if (remote)
      fp.foreign.push_back(owner.index);
    pushData(c, fp,
             DmaCopy{&d, &dram, srcDram ? nullptr : owner.storage.data(),
                     dstDram ? nullptr : c.storage.data(), src, dst});
  }

  const uint64_t ub = uint64_t(bytes);
  const uint64_t arrival = srcDram ? arrivalOf(src) : 0;
  const uint64_t issued = std::max(c.t + hw.commandIssueCycles, arrival);
  if (remote)
    return doRemoteLoad(c, cmd, src, dst, ub);

  // Timing: every DRAM side on the channel(s) of its addresses; a local
  // copy reads and writes the storage unit at its bandwidth.
  uint64_t start = 0, done = 0;
  uint64_t mask = 0;
  if (d.dir == DmaDir::LocalCopy) {
    start = std::max(issued, c.localCopyFree);
    done = start + ceilDiv(double(ub), hw.storageBytesPerCycle);
    c.localCopyFree = done;
  } else {
    // Delayed by an input's arrival: reserved ahead of the channels'
    // cursors, so that the DMAs simulated after it need not wait for it.
    const bool delayed = arrival > c.t + hw.commandIssueCycles;
    mask = chargeChannels(c, d, src, dst, ub, issued, delayed, start, done);
  }
  c.tagDone[d.tag] = std::max(c.tagDone[d.tag], done);
  c.lastDmaDone = std::max(c.lastDmaDone, done);
  unitEnd = done;
  if (dstDram && elems > 0)
    spillTotal +=
        layerAcct.bytesOutsideOutputs(uint64_t(dst.lo), uint64_t(dst.hi), ub);

  Access a;
  a.start = start;
  a.end = done;
  a.cluster = c.index;
  a.cmd = curCmd;
  a.channels = mask;
  auto add = [&](Range r, bool write, bool isDram) {
    a.range = r;
    a.write = write;
    a.issued = issued;
    return addAccess(a, isDram ? -1 : int(c.index));
  };
  if (elems > 0 && (!add(src, false, srcDram) || !add(dst, true, dstDram)))
    return false;

  c.st.dmaBytes += ub;
  ++c.st.dmaTransfers;
  if (srcDram)
    stats.dramBytesRead += ub;
  else
    stats.storageBytesRead += ub;
  if (dstDram)
    stats.dramBytesWritten += ub;
  else
    stats.storageBytesWritten += ub;
  if (trace.enabled()) {
    std::string name = std::string("DMA ") + dmaDirName(d.dir) + " tag " +
                       std::to_string(d.tag);
    std::string args = "{\"command\":" + std::to_string(curCmd) +
                       ",\"bytes\":" + std::to_string(ub) + "}";
    trace.complete(name, c.index, 2, start, done - start, args);
  }
  return true;
}

uint64_t Sim::chargeChannels(Cluster &c, const DmaDesc &d, Range src, Range dst,
                             uint64_t bytes, uint64_t issued, bool delayed,
                             uint64_t &start, uint64_t &done) {
  // Bytes per channel of the DRAM sides (DramCopy: read + write).
  std::map<uint32_t, uint64_t> perChannel;
  auto side = [&](Range r, uint64_t base) {
    if (bytes == 0 || r.empty()) {
      perChannel[hw.channelOfAddress(base)] += 0;
      return;
    }
    for (const ChannelShare &s :
         channelShares(hw, uint64_t(r.lo), uint64_t(r.hi), bytes))
      perChannel[s.channel] += s.bytes;
  };
  if (readsDram(d.dir))
    side(src, d.src);
  if (writesDram(d.dir))
    side(dst, d.dst);
  start = UINT64_MAX;
  done = 0;
  uint64_t mask = 0;
  for (auto &kv : perChannel) {
    const uint32_t k = kv.first;
    const uint64_t n = kv.second;
    mask |= uint64_t(1) << (k % 64);
    const MemoryChannel &ch = hw.channels[k];
    const bool local = k == c.channel;
    // A remote channel: the request and the data cross the routers between
    // the cluster and the channel's router.
    const uint64_t extra =
        local ? 0
              : 2 * uint64_t(hw.channelHops(c.index, k) - 1) * hw.hopLatency;
    // The channel is held for the beats and the DMA's share of the latency
    // window; the data is there a full latency after the start
    // (docs/simulator.md, "Cycle model").
    uint64_t held = ch.occupancyCycles(double(n), extra);
    uint64_t dur = ch.completionCycles(double(n), extra);
    uint64_t s = channelTimes[k].reserve(issued, held, delayed);
    busyTotals.dma += held;
    start = std::min(start, s);
    done = std::max(done, s + dur);
    ChannelStats &cs = stats.channels[k];
    cs.busyCycles += held;
    cs.bytes += n;
    ++cs.transfers;
    (local ? cs.localBytes : cs.remoteBytes) += n;
    (local ? stats.dramLocalBytes : stats.dramRemoteBytes) += n;
    c.st.dramBytes += n;
    if (!local)
      c.st.dramRemoteBytes += n;
    if (trace.enabled())
      trace.complete(clusterName(c.index) + " " + dmaDirName(d.dir),
                     clusters.size(), k, s, held,
                     "{\"command\":" + std::to_string(curCmd) +
                         ",\"bytes\":" + std::to_string(n) +
                         ",\"done\":" + std::to_string(s + dur) +
                         ",\"channel\":" + std::to_string(k) +
                         ",\"remote\":" + (local ? "false" : "true") + "}");
  }
  return mask;
}

/// A WAIT for DMA tags only, none of them a pending RECUR's, needs no
/// result of the engine: its tasks keep collecting (docs/rnn.md).
bool Sim::waitSkipsEngine(const Cluster &c, const Command &cmd) const {
  if (cmd.kind != CommandKind::Wait || cmd.waitPe)
    return false;
  for (const PendingRecur &p : c.pendingRecur)
    if (cmd.waitTags & (1u << p.desc.tag))
      return false;
  return true;
}

bool Sim::awaitChecked(Cluster &c) {
  for (unsigned spin = 0;; ++spin) {
    uint64_t n = 0;
    if (!opts.commandsChecked(c.index, n)) {
      cur = nullptr; // the message names the command itself
      return fail(clusterName(c.index) + " command " + std::to_string(c.pc) +
                  ": not run, the program failed validation");
    }
    if (n > c.pc) {
      c.checked = n;
      return true;
    }
    // The checker is a chunk of commands behind: it runs on another core.
    if (spin < 64)
      std::this_thread::yield();
    else
      std::this_thread::sleep_for(std::chrono::microseconds(50));
  }
}

bool Sim::step(Cluster &c) {
  if (c.pc >= c.checked && !awaitChecked(c))
    return false;
  cur = &c;
  curCmd = c.pc;
  const Command &cmd = (*c.cmds)[c.pc++];
  // The engine's pending tasks run before the control unit needs the PE
  // array or a result (SimRecur.cpp); DMAs and CONFIGs do not wait for it.
  if (cmd.kind != CommandKind::Recur && cmd.kind != CommandKind::Dma &&
      cmd.kind != CommandKind::Config && !waitSkipsEngine(c, cmd)) {
    curCmd = c.pc - 1;
    if (!flushEngine(c))
      return false;
  }
  uint64_t t0 = c.t;
  now = std::max(now, t0);
  const LayerCounters before = layerCounters();
  unitEnd = 0;
  ++c.st.commands;
  if (unsigned(cmd.kind) < kCommandKinds)
    ++cmdCounts[unsigned(cmd.kind)];
  else
    ++stats.commandCounts[commandKindName(cmd.kind)];
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
  case CommandKind::Send:
    if (!doSend(c, cmd))
      return false;
    c.t += hw.commandIssueCycles;
    break;
  case CommandKind::Signal:
    if (!doSignal(c, cmd))
      return false;
    c.t += hw.commandIssueCycles;
    break;
  case CommandKind::Recv:
    if (!beginRecv(c, cmd))
      return false;
    break;
  case CommandKind::Recur:
    if (!doRecur(c, cmd))
      return false;
    c.t += hw.commandIssueCycles;
    break;
  default:
    return fail("invalid command kind " + std::to_string(unsigned(cmd.kind)));
  }
  if (trace.enabled() && cmd.kind != CommandKind::Barrier &&
      cmd.kind != CommandKind::Recv) {
    std::string name = commandKindName(cmd.kind);
    if (cmd.kind == CommandKind::Config || cmd.kind == CommandKind::Execute)
      name += " ibuf " + std::to_string(cmd.ibuf);
    else if (cmd.kind == CommandKind::Dma)
      name += std::string(" ") + dmaDirName(cmd.dma.dir) + " tag " +
              std::to_string(cmd.dma.tag);
    else if (cmd.kind == CommandKind::Send || cmd.kind == CommandKind::Signal)
      name += " sem " + std::to_string(cmd.mesh->sem);
    trace.complete(name, c.index, 0, t0, c.t - t0,
                   "{\"command\":" + std::to_string(curCmd) + "}");
  }
  layerAcct.charge(cmd.layer, c.index, t0, std::max(c.t, unitEnd),
                   layerCounters() - before);
  if (c.pc == c.cmds->size() && !flushEngine(c))
    return false;
  cur = nullptr;
  return true;
}

LayerCounters Sim::layerCounters() const {
  LayerCounters k;
  k.macs = stats.macs;
  k.dramRead = stats.dramBytesRead;
  k.dramWritten = stats.dramBytesWritten;
  k.storage = stats.storageBytesRead + stats.storageBytesWritten;
  k.meshBytes = stats.mesh.bytes;
  k.spill = spillTotal;
  k.busy = busyTotals;
  return k;
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
    layerAcct.extend((*c.cmds)[c.pc - 1].layer, c.index, release);
    if (trace.enabled())
      trace.complete("BARRIER " + std::to_string(id), c.index, 0, from,
                     release - from, "{}");
    c.t = release;
    c.atBarrier = false;
  }
  return true;
}

/// Power gating: a cluster is on until its stream has finished (its finish
/// cycle) or another cluster last reached into its storage (a remote load
/// from it, a SEND to it), whichever is later; a cluster nobody uses is off
/// throughout. One whose stream starts with a RECV is off until the signal
/// arrives and then wakes (SimOptions::powerGating; the wake latency delays
/// it, and waking cycles count as on). No cluster is switched off mid-run.
void Sim::gateClusters(uint64_t cycles) {
  uint64_t onCycles = 0;
  stats.offClusterCycles = stats.wakes = stats.wakingClusterCycles = 0;
  for (Cluster &c : clusters) {
    uint64_t on =
        std::max(c.cmds->empty() ? 0 : c.st.finishCycle, c.reachedUntil);
    on = std::min(on, cycles);
    uint64_t from = std::min(c.offUntil, on);
    onCycles += on - from;
    stats.offClusterCycles += cycles - on + from;
    if (c.wokenAt > c.offUntil) {
      ++stats.wakes;
      stats.wakingClusterCycles += c.wokenAt - c.offUntil;
    }
    if (!opts.powerGating || !trace.enabled())
      continue;
    if (from > 0)
      trace.complete("powered off", c.index, 0, 0, from, "{}");
    if (c.wokenAt > c.offUntil)
      trace.complete("waking", c.index, 0, c.offUntil, c.wokenAt - c.offUntil,
                     "{}");
    if (on < cycles)
      trace.complete("powered off", c.index, 0, on, cycles - on, "{}");
  }
  stats.energyStaticUngatedPj =
      double(cycles) * clusters.size() * hw.staticPjPerClusterCycle;
  stats.energyStaticGatedPj = double(onCycles) * hw.staticPjPerClusterCycle;
  stats.powerGated = opts.powerGating;
  stats.energyStaticPj = opts.powerGating ? stats.energyStaticGatedPj
                                          : stats.energyStaticUngatedPj;
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
  for (ClusterStats &cs : stats.clusters)
    for (CoreStats &core : cs.cores)
      core.macUtilisation =
          cycles ? double(core.macs) / (cyc * hw.macLanes) : 0;
  stats.mesh.links.clear();
  for (auto &kv : mesh.links()) {
    LinkStats l;
    l.from = kv.first.from;
    l.to = kv.first.to;
    l.busyCycles = kv.second.busyCycles;
    l.bytes = kv.second.bytes;
    l.transfers = kv.second.transfers;
    l.utilisation = cycles ? double(l.busyCycles) / cyc : 0;
    stats.mesh.maxLinkBusyCycles =
        std::max(stats.mesh.maxLinkBusyCycles, l.busyCycles);
    stats.mesh.links.push_back(l);
  }
  stats.mesh.maxLinkUtilisation =
      cycles ? double(stats.mesh.maxLinkBusyCycles) / cyc : 0;
  stats.macUtilisation =
      cycles ? double(stats.macs) / (cyc * clusters.size() * peLanes) : 0;
  stats.energyMacPj = double(stats.macs) * hw.pjPerMac;
  stats.energyDramPj =
      double(stats.dramBytesRead + stats.dramBytesWritten) * hw.pjPerDramByte;
  stats.energyStoragePj =
      double(stats.storageBytesRead + stats.storageBytesWritten) *
      hw.pjPerStorageByte;
  gateClusters(cycles);
  stats.energyMeshPj = double(stats.mesh.byteHops) * hw.pjPerByteHop;
  stats.energyTotalPj = stats.energyMacPj + stats.energyDramPj +
                        stats.energyStoragePj + stats.energyStaticPj +
                        stats.energyMeshPj;
  // Every kind appears, counted or not.
  for (unsigned k = 0; k < kCommandKinds; ++k)
    stats.commandCounts[commandKindName(CommandKind(k))] += cmdCounts[k];
  const char *instrNames[kInstrCountKinds] = {"LD", "MAC", "ST", "SPU"};
  for (unsigned k = 0; k < kInstrCountKinds; ++k)
    stats.instructionCounts[instrNames[k]] += instrCounts[k];
  layerAcct.finish(stats);
  if (activity.enabled()) {
    activity.finish(cycles, stats.timeline);
    layerAcct.spans(stats.timeline);
  }
  stats.wallSeconds = wall;
}

void Sim::initProgress() {
  if (!opts.progress)
    return;
  progressStep = std::max<uint64_t>(1, opts.progressEvery);
  layerCommandTotals.assign(p.layers.size(), 0);
  for (const ClusterStream &cs : p.clusters) {
    commandsTotal += cs.commands.size();
    for (const Command &cmd : cs.commands)
      if (cmd.layer < p.layers.size())
        ++layerCommandTotals[cmd.layer];
  }
}

void Sim::reportProgress() const {
  SimProgress pr;
  pr.cycle = now;
  pr.commandsDone = commandsDone;
  pr.commandsTotal = commandsTotal;
  pr.layersTotal = uint32_t(p.layers.size());
  for (uint32_t l = 0; l < pr.layersTotal; ++l)
    pr.layersDone += layerAcct.commandsOf(l) == layerCommandTotals[l];
  opts.progress(pr);
}

/// Lanes pay when a command's data outweighs handing it to another
/// thread: measured on the zoo (docs/simulator.md, "Eighth round"), the
/// networks whose DMAs move 4.8-16 KB per command ran 12-18 % faster on two
/// host threads, those moving 1.6-2.1 KB (the MobileNets: small tiles,
/// every layer reading what all clusters wrote) no faster.
constexpr uint64_t kLaneDmaBytesPerCommand = 3072;

/// SimOptions::dataLanes, or: one lane per host thread, at most one per
/// cluster, when the program's DMAs move at least kLaneDmaBytesPerCommand
/// per command (ACCEL_HOST_THREADS=1: none).
unsigned Sim::laneCount() const {
  const unsigned most =
      std::min<unsigned>(unsigned(clusters.size()), DataLanes::kMaxLanes);
  if (opts.dataLanes)
    return std::max(1u, std::min(opts.dataLanes, most));
  const unsigned threads = std::min(hostThreads(), most);
  if (threads <= 1)
    return 1;
  uint64_t commands = 0, dmaBytes = 0;
  for (const ClusterStream &cs : p.clusters)
    for (const Command &cmd : cs.commands) {
      ++commands;
      if (cmd.kind == CommandKind::Dma)
        dmaBytes += cmd.dma.numElements() * cmd.dma.elemBytes;
    }
  return dmaBytes >= kLaneDmaBytesPerCommand * commands ? threads : 1;
}

void Sim::startLanes() {
  const unsigned n = laneCount();
  lanes = std::make_unique<DataLanes>(n);
  dramConflicts = std::make_unique<DramConflicts>(n);
  foreignWait.assign(clusters.size(), DataLanes::After{});
  laneOf.resize(clusters.size());
  for (size_t k = 0; k < clusters.size(); ++k)
    laneOf[k] = unsigned(k % n);
  lastSeq.assign(clusters.size(), 0);
}

/// The simulator's thread both decides and moves the bytes of the clusters
/// on lane 0; how much of the data work it should keep depends on how the
/// network's deciding and data work compare, which the program does not
/// say. So the split follows the helpers: a helper
/// lane with little queued (it waits for work) takes a cluster from lane
/// 0; when the simulator's thread found a helper's queue full since the
/// last look, the busiest helper gives one back. A moved cluster's next
/// task waits for its last one on the old lane (foreignWait), so its tasks
/// stay in order.
void Sim::balanceLanes() {
  pushesSinceBalance = 0;
  const unsigned n = lanes->count();
  auto move = [&](unsigned from, unsigned to) {
    for (size_t k = 0; k < laneOf.size(); ++k)
      if (laneOf[k] == from) {
        foreignWait[k].need(from, lastSeq[k]);
        laneOf[k] = to;
        lastSeq[k] = 0;
        return true;
      }
    return false;
  };
  const uint64_t full = lanes->fullWaits();
  if (full != fullWaitsSeen) {
    fullWaitsSeen = full;
    unsigned busiest = 1;
    for (unsigned l = 2; l < n; ++l)
      if (lanes->issued(l) - lanes->done(l) >
          lanes->issued(busiest) - lanes->done(busiest))
        busiest = l;
    move(busiest, 0);
    return;
  }
  constexpr uint64_t kIdle = 8; // queued tasks
  for (unsigned l = 1; l < n; ++l)
    if (lanes->issued(l) - lanes->done(l) <= kIdle && move(0, l))
      return;
}

void Sim::drainData() {
  if (lanes)
    lanes->drain();
}

bool Sim::run(const std::map<std::string, Tensor> &inputs,
              std::map<std::string, Tensor> &outputs) {
  auto t0 = std::chrono::steady_clock::now();
  stats = SimStats{};
  std::fill(std::begin(cmdCounts), std::end(cmdCounts), 0);
  std::fill(std::begin(instrCounts), std::end(instrCounts), 0);
  if (!checkProgram() || !setupMemory(inputs))
    return false;
  startLanes();
  layerAcct.init(p, hw, !opts.tracePath.empty() || opts.timeline);
  if (opts.timeline)
    activity.init(clusters.size(), kTimelineBins);
  initProgress();
  for (const ClusterStream &cs : p.clusters)
    for (const Command &cmd : cs.commands)
      if (cmd.kind == CommandKind::Recur && cmd.recur->weightsInDram) {
        ++dramRecurClusters;
        break;
      }
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
    // Mesh: one thread per directed link, sorted by (from, to).
    std::vector<MeshLink> all;
    for (uint32_t i = 0; i < clusters.size(); ++i) {
      uint32_t r = i / hw.cols, col = i % hw.cols;
      if (r > 0)
        all.push_back({i, i - hw.cols});
      if (col > 0)
        all.push_back({i, i - 1});
      if (col + 1 < hw.cols)
        all.push_back({i, i + 1});
      if (r + 1 < hw.rows)
        all.push_back({i, i + hw.cols});
    }
    std::sort(all.begin(), all.end());
    std::vector<std::string> linkNames;
    for (const MeshLink &l : all) {
      linkTid[l] = uint32_t(linkNames.size());
      linkNames.push_back("(" + std::to_string(l.from / hw.cols) + "," +
                          std::to_string(l.from % hw.cols) + ")->(" +
                          std::to_string(l.to / hw.cols) + "," +
                          std::to_string(l.to % hw.cols) + ")");
    }
    trace.process(clusters.size() + 1, "mesh", linkNames);
  }

  // Step the cluster that can continue earliest (ties: lowest index). A
  // cluster blocked in RECV competes with the time its semaphore reaches the
  // count, known once enough SEND / SIGNAL arrivals have been issued; it is
  // resumed only when no other cluster is earlier, so no later-processed
  // command can deliver an earlier arrival.
  for (;;) {
    Cluster *best = nullptr;
    uint64_t bestT = 0;
    bool anyBarrier = false, anyRecv = false;
    Cluster *finished = nullptr;
    for (Cluster &c : clusters) {
      uint64_t t = c.t;
      if (c.atBarrier) {
        anyBarrier = true;
        continue;
      }
      if (c.inRecv && !recvReady(c, t)) {
        anyRecv = true;
        continue;
      }
      if (!c.inRecv && c.pc >= c.cmds->size()) {
        finished = finished ? finished : &c;
        continue;
      }
      if (!best || t < bestT) {
        best = &c;
        bestT = t;
      }
    }
    if (best) {
      if (best->inRecv)
        finishRecv(*best, bestT);
      else if (!step(*best))
        return false;
      else if (opts.progress && ++commandsDone % progressStep == 0)
        reportProgress();
      continue;
    }
    if (!anyBarrier && !anyRecv)
      break;
    if (anyRecv)
      return fail(deadlockMessage());
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

  // Every byte the data lanes still have to write, then their verdict.
  drainData();
  const std::string dataErr = lanes->error();
  if (!dataErr.empty())
    return fail("simulator: " + dataErr);
  outputs.clear();
  for (const Symbol &s : p.symbols) {
    if (s.isInput)
      continue;
    Tensor t;
    t.shape = s.shape;
    // The declared type (f32 words in DRAM): writers deliver it (TensorIO.h).
    t.dtype = s.dtype;
    t.data.resize(s.numElements());
    readImage(s, t.data);
    outputs[s.name] = std::move(t);
  }
  double wall =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0)
          .count();
  finishStats(wall);
  if (trace.enabled())
    layerAcct.writeTrace(trace, 3);
  if (trace.enabled() && !trace.write(opts.tracePath, err))
    return false;
  return true;
}

} // namespace sim

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
    return sim::Sim(prog, hw, opts, stats, err).run(inputs, outputs);
  } catch (const std::bad_alloc &) {
    err = "simulator: out of host memory";
    return false;
  } catch (const std::exception &e) {
    err = std::string("simulator: internal error: ") + e.what();
    return false;
  }
}

} // namespace accel
