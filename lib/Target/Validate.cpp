//===- Validate.cpp - Semantic checks of a Program against hardware -------===//
#include "accel/Target/Validate.h"
#include "ValidateParts.h"
#include "accel/Support/Parallel.h"
#include "accel/Target/Encoding.h"
#include "accel/Target/Sfu.h"
#include <algorithm>
#include <atomic>
#include <exception>
#include <new>
#include <set>
#include <sstream>
#include <thread>

namespace accel {
namespace {

using i128 = __int128;

std::string hex64(uint64_t v) {
  std::ostringstream os;
  os << "0x" << std::hex << v;
  return os.str();
}

using Range = validate::ByteRange;
using validate::boxRange;
std::string rangeStr(Range r) {
  return "[" + int128String(r.lo) + ", " + int128String(r.hi) + ")";
}
std::string shapeString(const std::vector<int64_t> &shape) {
  std::string s = "[";
  for (size_t i = 0; i < shape.size(); ++i)
    s += (i ? ", " : "") + std::to_string(shape[i]);
  return s + "]";
}

/// "instruction I (OP): ", built only when a message needs it: the checks
/// run for every instruction of every EXECUTE, and almost all pass.
struct InstrPrefix {
  size_t idx;
  Opcode op;
  std::string str() const {
    return "instruction " + std::to_string(idx) + " (" + opcodeName(op) + "): ";
  }
};
std::string operator+(const InstrPrefix &p, const std::string &s) {
  return p.str() + s;
}
std::string operator+(const InstrPrefix &p, const char *s) {
  return p.str() + s;
}

class Validator {
public:
  Validator(const Program &p, const HardwareDesc &hw, std::string &err)
      : p(p), hw(hw), err(err) {}

  bool run();

  /// One cluster's stream check, kept apart so the streams can be checked
  /// in parallel (run()) or a part at a time (StreamedValidation). The
  /// simulated control unit's register-file records per instruction
  /// buffer, and the next command to check.
  struct StreamCheck {
    bool ok = true;
    std::string err;
    std::vector<uint32_t> barriers;
    std::vector<Range> dramWrites;
    std::vector<std::vector<Instruction>> bufs;
    std::vector<bool> configured;
    size_t next = 0;
  };
  /// Everything before the streams: the program against the hardware,
  /// symbols, constants, layers, packets, the DRAM layout.
  bool checkTables();
  /// Commands [sc.next, end) of cluster `ci` (a fresh Validator per
  /// stream: it collects the stream's DRAM writes).
  bool checkStream(size_t ci, StreamCheck &sc, size_t end);
  /// After the streams, with their results in `checks`: the first failed
  /// stream in cluster order, else the barrier sequences, the
  /// synchronisation and the outputs.
  bool checkAcrossStreams(std::vector<StreamCheck> &checks);
  /// The DRAM writes checkStream collected (Store, DramCopy spans).
  std::vector<Range> takeDramWrites() { return std::move(dramWrites); }

private:
  /// Streams of fewer commands in all are checked on the calling thread.
  static constexpr size_t kParallelCheckCommands = 4096;

  bool sameBarriers(size_t ci, const std::vector<uint32_t> &barriers,
                    const std::vector<uint32_t> &barriers0);
  bool fail(const std::string &msg) {
    err = location() + msg;
    return false;
  }
  /// `where`, or the command being checked: built only for a message (a
  /// string per command cost as much as checking it).
  std::string location() const {
    if (!cmd)
      return where;
    std::string s = clusterName(cmdCluster) + "command " +
                    std::to_string(cmdIndex) + " (" +
                    commandKindName(cmd->kind);
    if (cmd->kind == CommandKind::Config || cmd->kind == CommandKind::Execute)
      s += " ibuf " + std::to_string(cmd->ibuf);
    return s + "): ";
  }
  /// "cluster (row,col) " of cluster index `ci`.
  std::string clusterName(size_t ci) const {
    return "cluster (" + std::to_string(ci / p.gridCols) + "," +
           std::to_string(ci % p.gridCols) + ") ";
  }
  bool checkStatic(const Instruction &in, size_t idx);
  bool checkTiles(const Instruction &in, size_t idx);
  bool checkTilesOnce(const Instruction &in, const OperandRecord &r,
                      size_t idx);
  bool checkPe(const InstrPrefix &pre, const char *what, i128 base, i128 bytes,
               i128 cap, const char *capName);
  bool checkDma(const DmaDesc &d, uint64_t cluster);
  bool checkSymbol(const Symbol &s);
  bool checkDramLayout();
  bool checkOutputsWritten();

  /// The DRAM bytes of each symbol (4-byte words for i1 / i64): its dense
  /// image, clamped just past dramSize when absurdly large, or one range
  /// per piece; filled by run().
  std::vector<std::vector<Range>> symbolRanges;
  /// Spans of the DRAM sides the DMA commands write (Store, DramCopy).
  std::vector<Range> dramWrites;

  const Program &p;
  const HardwareDesc &hw;
  std::string &err;
  std::string where;
  /// The command run() checks (null outside the command loop).
  const Command *cmd = nullptr;
  size_t cmdCluster = 0, cmdIndex = 0;
};

bool Validator::checkPe(const InstrPrefix &pre, const char *what, i128 base,
                        i128 bytes, i128 cap, const char *capName) {
  if (base + bytes > cap)
    return fail(pre + what + " [" + int128String(base) + ", " +
                int128String(base + bytes) + ") does not fit the " + capName +
                " of " + int128String(cap) + " bytes");
  return true;
}

/// Which SFU functions each instruction may name (Sfu.h kinds).
static bool sfuFuncFits(const InstrFields &f, SfuFunc fn) {
  switch (f.op) {
  case Opcode::ST:
    return sfuAllowedInUnary(fn);
  case Opcode::SPU:
    switch (SpuType(f.sub)) {
    case SpuType::Unary:
      return sfuAllowedInUnary(fn);
    case SpuType::Binary:
      return sfuAllowedInBinary(fn);
    case SpuType::Reduce:
      return sfuAllowedInReduce(fn);
    case SpuType::Copy:
      return fn == SfuFunc::None;
    }
    return false;
  default:
    return fn == SfuFunc::None;
  }
}

bool Validator::checkStatic(const Instruction &in, size_t idx) {
  const InstrPrefix pre{idx, in.fields.op};
  uint16_t word;
  std::string e;
  if (!encodeInstruction(in.fields, word, e))
    return fail(pre + e);
  const OperandRecord &r = in.operands;
  if (unsigned(r.queueMode) > unsigned(QueueMode::SW))
    return fail(pre + "invalid queue mode " +
                std::to_string(unsigned(r.queueMode)));
  if (!isValidSfuFunc(uint8_t(r.func)))
    return fail(pre + "invalid SFU function " +
                std::to_string(unsigned(r.func)));
  if (r.repeat < 1)
    return fail(pre + "repeat must be >= 1");
  if (!sfuFuncFits(in.fields, r.func))
    return fail(pre + "SFU function " + sfuFuncName(r.func) +
                " cannot be used by this instruction");
  if (in.fields.op == Opcode::LD &&
      in.fields.sub == uint8_t(LoadStream::PartialSums) &&
      in.fields.slot >= kNumAccs)
    return fail(pre + "LD psums slot " + std::to_string(in.fields.slot) +
                " names no accumulation buffer (must be < 4)");
  const InstrFields &f = in.fields;
  if (r.pipeline != Pipeline::IdFo && r.pipeline != Pipeline::IdFoSuWb)
    return fail(pre + "invalid pipeline type " +
                std::to_string(unsigned(r.pipeline)) +
                " (1 = ID-FO, 2 = ID-FO-SU-WB)");
  if (r.step != 0 && r.pipeline != Pipeline::IdFoSuWb)
    return fail(pre + "step needs pipeline 2 (the scalar unit)");
  if (r.base != 0 && f.op != Opcode::MAC)
    return fail(pre + "base is only used by MAC");
  if (r.acrossPes &&
      !(f.op == Opcode::SPU && f.sub == uint8_t(SpuType::Reduce)))
    return fail(pre + "acrossPes is only used by SPU reduce");
  if (!r.peAddrs.empty()) {
    if (!f.usesPeAddrs())
      return fail(pre + "peAddrs is only used by LD acts / psums and ST");
    if (r.peAddrs.size() != hw.pesPerCluster)
      return fail(pre + "peAddrs holds " + std::to_string(r.peAddrs.size()) +
                  " addresses, the cluster has " +
                  std::to_string(hw.pesPerCluster) + " PEs");
  }
  if (f.op == Opcode::MAC && r.rowStride < 0)
    return fail(pre + "MAC input row pitch (rowStride) must be >= 0");
  if (in.fields.op == Opcode::SPU &&
      in.fields.sub == uint8_t(SpuType::Binary) && r.depth >= kNumSlots)
    return fail(pre + "SPU binary second slot (depth) " +
                std::to_string(r.depth) + " out of range [0, 16)");
  return true;
}

bool Validator::checkTiles(const Instruction &in, size_t idx) {
  // A type-2 pipeline advances the operands linearly, so the first and the
  // last loop-back iteration bound every access.
  if (!checkTilesOnce(in, in.operands, idx))
    return false;
  if (in.operands.pipeline == Pipeline::IdFoSuWb && in.operands.step != 0 &&
      in.operands.repeat > 1)
    return checkTilesOnce(
        in, advancedOperands(in.operands, in.fields, in.operands.repeat - 1),
        idx);
  return true;
}

bool Validator::checkTilesOnce(const Instruction &in, const OperandRecord &r,
                               size_t idx) {
  const InstrPrefix pre{idx, in.fields.op};
  if (r.rows < 1 || r.cols < 1)
    return fail(pre + "rows and cols must be >= 1 (rows " +
                std::to_string(r.rows) + ", cols " + std::to_string(r.cols) +
                ")");
  i128 peRows = r.peRows ? std::min(r.peRows, r.rows) : r.rows;
  i128 slotBytes = i128(hw.inputSlotBytes());
  i128 inBuf = i128(hw.inputBufferBytes), wq = i128(hw.weightQueueBytes),
       acc = i128(hw.accBufferBytes);
  auto slotBase = [&](unsigned s) { return i128(s) * slotBytes; };
  const InstrFields &f = in.fields;

  auto inStorage = [&](Range t) {
    if (t.lo < 0 || t.hi > i128(hw.storageBytes))
      return fail(pre + "storage tile " + rangeStr(t) +
                  " outside the storage unit [0, " +
                  int128String(hw.storageBytes) + ")");
    return true;
  };
  auto storage = [&]() {
    if (r.peAddrs.empty()) {
      uint32_t shape[2] = {r.rows, r.cols};
      int64_t stride[2] = {r.rowStride, r.colStride};
      return inStorage(boxRange(r.addr, shape, stride, 2, 4));
    }
    // Compiler-precomputed per-PE addresses: each PE's own rows.
    for (size_t pe = 0; pe < r.peAddrs.size(); ++pe) {
      i128 r0 = r.peRows ? std::min<i128>(i128(pe) * r.peRows, r.rows) : 0;
      i128 r1 = r.peRows ? std::min<i128>(r0 + r.peRows, r.rows) : r.rows;
      if (r1 <= r0)
        continue;
      uint32_t shape[2] = {uint32_t(r1 - r0), r.cols};
      int64_t stride[2] = {r.rowStride, r.colStride};
      if (!inStorage(boxRange(r.peAddrs[pe], shape, stride, 2, 4)))
        return false;
    }
    return true;
  };

  switch (f.op) {
  case Opcode::LD:
    if (f.sub == uint8_t(LoadStream::SparseWeights)) {
      // rows = (value, index) pairs of 8 bytes, contiguous at addr.
      if (r.depth < 1)
        return fail(pre + "LD sparse_weights needs depth (dense rows K) >= 1");
      if (!inStorage({i128(r.addr), i128(r.addr) + i128(r.rows) * 8}))
        return false;
      return checkPe(pre, "sparse weight list", 0, i128(r.rows) * 8, wq,
                     "weight queue");
    }
    if (!storage())
      return false;
    if (f.sub == uint8_t(LoadStream::Activations))
      return checkPe(pre, "input-buffer tile", slotBase(f.slot),
                     peRows * r.cols * 4, inBuf, "input buffer");
    if (f.sub == uint8_t(LoadStream::Weights)) // broadcast: every row
      return checkPe(pre, "weight tile", 0, i128(r.rows) * r.cols * 4, wq,
                     "weight queue");
    return checkPe(pre, "partial-sum tile", 0, peRows * r.cols * 4, acc,
                   "accumulation buffer");
  case Opcode::ST:
    if (!storage())
      return false;
    if (f.sub == uint8_t(StoreSource::AccBuffer))
      return checkPe(pre, "accumulator tile", 0, peRows * r.cols * 4, acc,
                     "accumulation buffer");
    return checkPe(pre, "input-buffer tile", slotBase(f.slot),
                   peRows * r.cols * 4, inBuf, "input buffer");
  case Opcode::MAC:
    if (r.depth < 1)
      return fail(pre + "MAC depth (K) must be >= 1");
    // Rows may overlap (convolution windows): the last row's last
    // activation bounds the read.
    return checkPe(pre, "input tile (rows x pitch + base)", slotBase(f.slot),
                   ((peRows - 1) * (r.rowStride > 0 ? r.rowStride : r.depth) +
                    r.base + r.depth) *
                       4,
                   inBuf, "input buffer") &&
           checkPe(pre, "weight tile (depth x cols)", 0,
                   i128(r.depth) * r.cols * 4, wq, "weight queue") &&
           checkPe(pre, "accumulator tile (rows x cols)", 0,
                   peRows * r.cols * 4, acc, "accumulation buffer");
  case Opcode::SPU: {
    i128 tile = peRows * r.cols * 4;
    if (!checkPe(pre, "SPU input tile", slotBase(f.slot), tile, inBuf,
                 "input buffer"))
      return false;
    if (f.sub == uint8_t(SpuType::Binary) &&
        !checkPe(pre, "SPU second input tile", slotBase(r.depth), tile, inBuf,
                 "input buffer"))
      return false;
    i128 out = f.sub == uint8_t(SpuType::Reduce) ? peRows * 4 : tile;
    return checkPe(pre, "SPU output tile", slotBase(f.outSlot), out, inBuf,
                   "input buffer");
  }
  }
  return true;
}

bool Validator::checkDma(const DmaDesc &d, uint64_t cluster) {
  if (d.tag >= kNumDmaTags)
    return fail("tag " + std::to_string(d.tag) + " out of range [0, 8)");
  if (unsigned(d.dir) > unsigned(DmaDir::LocalCopy))
    return fail("invalid direction " + std::to_string(unsigned(d.dir)));
  std::string msg;
  if (d.dir == DmaDir::RemoteLoad &&
      !validate::checkRemoteLoad(d, cluster, p, hw, msg))
    return fail(msg);
  if (d.dir != DmaDir::RemoteLoad && d.srcCluster != 0)
    return fail(std::string("a ") + dmaDirName(d.dir) +
                " DMA has no source cluster (srcCluster " +
                std::to_string(d.srcCluster) + ")");
  if (d.elemBytes != 1 && d.elemBytes != 2 && d.elemBytes != 4)
    return fail("elemBytes " + std::to_string(d.elemBytes) +
                " must be 1, 2 or 4");
  for (int i = 0; i < 4; ++i)
    if (d.shape[i] < 1)
      return fail("shape extent " + std::to_string(i) + " must be >= 1");
  bool srcDram = readsDram(d.dir);
  bool dstDram = writesDram(d.dir);
  Range src = boxRange(i128(d.src), d.shape, d.srcStride, 4, d.elemBytes);
  Range dst = boxRange(i128(d.dst), d.shape, d.dstStride, 4, d.elemBytes);
  auto check = [&](const char *side, Range r, bool dram) {
    i128 cap = dram ? i128(p.dramSize) : i128(hw.storageBytes);
    if (r.lo < 0 || r.hi > cap)
      return fail(std::string(side) + " box " + rangeStr(r) + " outside " +
                  (dram ? "DRAM [0, " : "the storage unit [0, ") +
                  int128String(cap) + ")");
    return true;
  };
  if (!check("source", src, srcDram) || !check("destination", dst, dstDram))
    return false;
  if (d.dir == DmaDir::LocalCopy && src.lo < dst.hi && dst.lo < src.hi)
    return fail("local_copy source box " + rangeStr(src) +
                " overlaps its destination box " + rangeStr(dst));
  if (dstDram)
    dramWrites.push_back(dst);
  return true;
}

/// dtype and dimensions, then the DRAM bytes of the image (dense or in
/// pieces) inside [0, dramSize); appends the symbol's ranges.
bool Validator::checkSymbol(const Symbol &s) {
  if (unsigned(s.dtype) > unsigned(kLastDType))
    return fail("invalid dtype");
  i128 bytes = validate::symbolElementBytes(s.dtype);
  for (int64_t d : s.shape) {
    if (d < 0)
      return fail("negative dimension " + std::to_string(d));
    bytes *= d;
    if (bytes > i128(p.dramSize))
      break; // already too large; avoids overflow
  }
  if (!s.pieces.empty()) {
    std::vector<Range> ranges;
    std::string msg;
    if (!validate::checkPieces(s, bytes, p.dramSize, ranges, msg))
      return fail(msg);
    symbolRanges.push_back(std::move(ranges));
    return true;
  }
  Range r{i128(s.dramAddr), i128(s.dramAddr) + bytes};
  symbolRanges.push_back({r});
  if (r.hi > i128(p.dramSize))
    return fail("bytes " + rangeStr(r) + " outside DRAM [0, " +
                std::to_string(p.dramSize) + ")");
  return true;
}

/// Symbols (each of their pieces), constant segments (each of their
/// replicas) and packet marker areas are disjoint (each has a buffer of its
/// own), and symbols, which hold f32 words, are 4-byte aligned.
bool Validator::checkDramLayout() {
  struct Item {
    Range r;
    std::string name;
  };
  std::vector<Item> items;
  for (size_t i = 0; i < p.symbols.size(); ++i) {
    const Symbol &s = p.symbols[i];
    where = "symbol '" + s.name + "': ";
    if (s.dramAddr % 4)
      return fail("DRAM address " + std::to_string(s.dramAddr) +
                  " is not 4-byte aligned (symbols hold f32 words)");
    const std::vector<Range> &ranges = symbolRanges[i];
    std::string name = "symbol '" + s.name + "'";
    for (size_t k = 0; k < ranges.size(); ++k)
      items.push_back({ranges[k], s.pieces.empty()
                                      ? name
                                      : name + " piece " + std::to_string(k)});
  }
  for (size_t i = 0; i < p.constants.size(); ++i) {
    const ConstSegment &c = p.constants[i];
    i128 bytes = i128(c.size());
    std::string name = "constant segment " + std::to_string(i);
    items.push_back({{i128(c.dramAddr), i128(c.dramAddr) + bytes}, name});
    for (size_t k = 0; k < c.replicas.size(); ++k)
      items.push_back({{i128(c.replicas[k]), i128(c.replicas[k]) + bytes},
                       name + " replica " + std::to_string(k)});
  }
  // The loader writes the marker areas of the constant packets.
  for (const ConstPacket &pk : p.packets)
    items.push_back(
        {{i128(pk.markerAddr), i128(pk.markerAddr) + i128(pk.marker.size())},
         "the marker area of packet (cluster " +
             validate::clusterName(p, pk.cluster) + " core " +
             std::to_string(pk.core) + ")"});
  items.erase(std::remove_if(items.begin(), items.end(),
                             [](const Item &it) { return it.r.hi <= it.r.lo; }),
              items.end());
  std::stable_sort(
      items.begin(), items.end(),
      [](const Item &a, const Item &b) { return a.r.lo < b.r.lo; });
  where.clear();
  for (size_t i = 1; i < items.size(); ++i)
    if (items[i].r.lo < items[i - 1].r.hi)
      return fail(items[i - 1].name + " " + rangeStr(items[i - 1].r) +
                  " overlaps " + items[i].name + " " + rangeStr(items[i].r) +
                  " in DRAM");
  return true;
}

/// Every byte of an output symbol lies inside a span some DMA writes to DRAM
/// (a constant segment cannot hold it: that would overlap): an output whose
/// shape disagrees with the program's stores would return bytes the program
/// never wrote. Spans (not exact boxes) keep this linear in the commands.
bool Validator::checkOutputsWritten() {
  std::vector<Range> written = dramWrites;
  std::sort(written.begin(), written.end(),
            [](const Range &a, const Range &b) { return a.lo < b.lo; });
  std::vector<Range> merged;
  for (const Range &r : written) {
    if (!merged.empty() && r.lo <= merged.back().hi)
      merged.back().hi = std::max(merged.back().hi, r.hi);
    else
      merged.push_back(r);
  }
  // The bytes of `r` no merged span covers (empty when all are written).
  auto firstGap = [&](Range r) -> Range {
    // The first merged span ending after r.lo; spans are disjoint and
    // non-adjacent, so r is covered only if that one span covers it.
    auto it =
        std::upper_bound(merged.begin(), merged.end(), r.lo,
                         [](i128 lo, const Range &m) { return lo < m.hi; });
    Range gap{r.lo, r.hi};
    if (it != merged.end() && it->lo <= r.lo) {
      if (r.hi <= it->hi)
        return {r.hi, r.hi};
      gap.lo = it->hi;
      ++it;
    }
    if (it != merged.end())
      gap.hi = std::min(it->lo, r.hi);
    return gap;
  };
  for (size_t i = 0; i < p.symbols.size(); ++i) {
    const Symbol &s = p.symbols[i];
    if (s.isInput)
      continue;
    where = "output '" + s.name + "': ";
    if (s.pieces.empty()) {
      Range r = symbolRanges[i].front();
      if (r.hi <= r.lo)
        continue;
      Range gap = firstGap(r);
      if (gap.lo < gap.hi)
        return fail("shape " + shapeString(s.shape) + " at " + rangeStr(r) +
                    " disagrees with the program: no command writes bytes " +
                    rangeStr(gap));
      continue;
    }
    // Each byte is read from the first piece covering it.
    for (const validate::ReadPart &part : validate::outputReadParts(s)) {
      Range gap = firstGap(part.dram);
      if (gap.lo < gap.hi)
        return fail("piece " + std::to_string(part.piece) + " (image bytes " +
                    rangeStr(part.image) + " read at " + rangeStr(part.dram) +
                    ") disagrees with the program: no command writes bytes " +
                    rangeStr(gap));
    }
  }
  return true;
}

/// Commands [sc.next, end) of cluster `ci` in order, with a simulated
/// register file per instruction buffer (kept in `sc` for the next part);
/// the stream's barrier ids go to sc.barriers. On a violation sc.next is
/// the failing command.
bool Validator::checkStream(size_t ci, StreamCheck &sc, size_t end) {
  const unsigned numIbufs =
      std::min<unsigned>(hw.instructionBuffers, kNumIbufIds);
  // Simulated control unit: the register-file records of each buffer.
  if (sc.bufs.empty()) {
    sc.bufs.resize(numIbufs);
    sc.configured.assign(numIbufs, false);
  }
  std::vector<std::vector<Instruction>> &bufs = sc.bufs;
  std::vector<bool> &configured = sc.configured;
  std::vector<uint32_t> &barriers = sc.barriers;
  const auto &cmds = p.clusters[ci].commands;
  end = std::min(end, cmds.size());
  for (size_t &k = sc.next; k < end; ++k) {
    const Command &c = cmds[k];
    cmd = &c;
    cmdCluster = ci;
    cmdIndex = k;
    if (c.layer != Command::kNoLayer && c.layer >= p.layers.size())
      return fail("layer " + std::to_string(c.layer) +
                  " is out of range: the layer table has " +
                  std::to_string(p.layers.size()) + " entries");
    switch (c.kind) {
    case CommandKind::Config: {
      if (c.ibuf >= numIbufs)
        return fail("instruction buffer " + std::to_string(c.ibuf) +
                    " does not exist (hardware has " +
                    std::to_string(numIbufs) + ")");
      if (c.shift || c.last)
        return fail("CONFIG has no shift/last bits");
      if (c.instrs.empty())
        return fail("empty instruction sequence");
      if (c.instrs.size() > hw.instructionBufferDepth)
        return fail(std::to_string(c.instrs.size()) +
                    " instructions exceed the instruction-buffer depth " +
                    std::to_string(hw.instructionBufferDepth));
      for (size_t i = 0; i < c.instrs.size(); ++i)
        if (!checkStatic(c.instrs[i], i))
          return false;
      bufs[c.ibuf] = c.instrs;
      configured[c.ibuf] = true;
      uint64_t entries = 0;
      for (auto &b : bufs)
        entries += b.size();
      if (entries > hw.registerFileEntries)
        return fail("configured buffers hold " + std::to_string(entries) +
                    " operand records, the register file has " +
                    std::to_string(hw.registerFileEntries) + " entries");
      break;
    }
    case CommandKind::Execute: {
      if (c.ibuf >= numIbufs)
        return fail("instruction buffer " + std::to_string(c.ibuf) +
                    " does not exist (hardware has " +
                    std::to_string(numIbufs) + ")");
      if (!configured[c.ibuf])
        return fail("instruction buffer " + std::to_string(c.ibuf) +
                    " was never configured");
      auto &buf = bufs[c.ibuf];
      std::string patchErr;
      if (!applyPatches(buf, c.patches, patchErr))
        return fail(patchErr);
      for (size_t i = 0; i < buf.size(); ++i) {
        if (!checkStatic(buf[i], i) || !checkTiles(buf[i], i))
          return false;
        // The scalar unit's write-back persists in the register file.
        buf[i].operands = advancedOperands(buf[i].operands, buf[i].fields,
                                           buf[i].operands.repeat);
      }
      break;
    }
    case CommandKind::Dma:
      if (!checkDma(c.dma, ci))
        return false;
      break;
    case CommandKind::Wait:
      break;
    case CommandKind::Barrier:
      barriers.push_back(c.barrierId);
      break;
    case CommandKind::Send:
    case CommandKind::Signal:
    case CommandKind::Recv: {
      std::string msg;
      if (!validate::checkSyncCommand(c, p, hw, msg))
        return fail(msg);
      break;
    }
    case CommandKind::Recur: {
      std::string msg;
      if (!validate::checkRecur(c.recur, p, hw, msg))
        return fail(msg);
      break;
    }
    default:
      return fail("invalid command kind " + std::to_string(unsigned(c.kind)));
    }
  }
  cmd = nullptr;
  return true;
}

/// Whether cluster `ci` meets the barriers of cluster (0,0) in the same
/// order; else the message of the first difference.
bool Validator::sameBarriers(size_t ci, const std::vector<uint32_t> &barriers,
                             const std::vector<uint32_t> &barriers0) {
  if (barriers == barriers0)
    return true;
  where = clusterName(ci);
  size_t i = 0;
  while (i < barriers.size() && i < barriers0.size() &&
         barriers[i] == barriers0[i])
    ++i;
  std::string mine = i < barriers.size()
                         ? "barrier " + std::to_string(barriers[i])
                         : "no barrier";
  std::string theirs = i < barriers0.size()
                           ? "barrier " + std::to_string(barriers0[i])
                           : "no barrier";
  return fail("barrier sequence differs from cluster (0,0): barrier #" +
              std::to_string(i) + " is " + mine + " here but " + theirs +
              " on cluster (0,0) (the clusters would deadlock)");
}

bool Validator::checkTables() {
  if (p.hwFingerprint != hw.fingerprint())
    return fail("the binary was compiled for another hardware description "
                "(fingerprint " +
                hex64(p.hwFingerprint) + ", this hardware '" + hw.name +
                "' has " + hex64(hw.fingerprint()) + ")");
  if (p.gridRows != hw.rows || p.gridCols != hw.cols)
    return fail("program grid " + std::to_string(p.gridRows) + "x" +
                std::to_string(p.gridCols) + " does not match the hardware " +
                std::to_string(hw.rows) + "x" + std::to_string(hw.cols) +
                " grid");
  if (p.clusters.size() != uint64_t(p.gridRows) * p.gridCols)
    return fail("program has " + std::to_string(p.clusters.size()) +
                " cluster streams, grid needs " +
                std::to_string(uint64_t(p.gridRows) * p.gridCols));
  if (p.dramSize > hw.dramBytes)
    return fail("program needs " + std::to_string(p.dramSize) +
                " bytes of DRAM, the hardware has " +
                std::to_string(hw.dramBytes));

  std::set<std::string> names;
  for (const Symbol &s : p.symbols) {
    where = "symbol '" + s.name + "': ";
    if (!names.insert(s.name).second)
      return fail("duplicate symbol name");
    if (!checkSymbol(s))
      return false;
  }
  for (size_t i = 0; i < p.constants.size(); ++i) {
    const ConstSegment &c = p.constants[i];
    where = "constant segment " + std::to_string(i) + ": ";
    i128 bytes = i128(c.size());
    Range r{i128(c.dramAddr), i128(c.dramAddr) + bytes};
    if (r.hi > i128(p.dramSize))
      return fail("bytes " + rangeStr(r) + " outside DRAM [0, " +
                  std::to_string(p.dramSize) + ")");
    for (size_t k = 0; k < c.replicas.size(); ++k) {
      Range rr{i128(c.replicas[k]), i128(c.replicas[k]) + bytes};
      if (rr.hi > i128(p.dramSize))
        return fail("replica " + std::to_string(k) + " bytes " + rangeStr(rr) +
                    " outside DRAM [0, " + std::to_string(p.dramSize) + ")");
    }
  }
  for (size_t i = 0; i < p.layers.size(); ++i) {
    const LayerInfo &l = p.layers[i];
    where = "layer " + std::to_string(i) + " '" + l.name + "': ";
    if (l.weightBytes > l.compulsoryBytes)
      return fail("weight bytes " + std::to_string(l.weightBytes) +
                  " exceed its compulsory bytes " +
                  std::to_string(l.compulsoryBytes) +
                  " (the weights are part of them)");
  }
  where.clear();
  return validate::checkPackets(p, hw, err) && checkDramLayout();
}

bool Validator::checkAcrossStreams(std::vector<StreamCheck> &checks) {
  // In cluster order: a stream's own failure, else its barriers against
  // cluster (0,0)'s.
  for (size_t ci = 0; ci < checks.size(); ++ci) {
    StreamCheck &sc = checks[ci];
    if (!sc.ok)
      return err = std::move(sc.err), false;
    dramWrites.insert(dramWrites.end(), sc.dramWrites.begin(),
                      sc.dramWrites.end());
    if (ci > 0 && !sameBarriers(ci, sc.barriers, checks[0].barriers))
      return false;
  }
  return validate::checkSynchronisation(p, err) && checkOutputsWritten();
}

bool Validator::run() {
  if (!checkTables())
    return false;
  // The streams are checked on the host's cores, one Validator per
  // cluster (parallelFor); the first failure in cluster order is reported,
  // as a check of one cluster after the other would.
  std::vector<StreamCheck> checks(p.clusters.size());
  auto checkOne = [&](size_t ci) {
    StreamCheck &sc = checks[ci];
    Validator v(p, hw, sc.err);
    sc.ok = v.checkStream(ci, sc, SIZE_MAX);
    sc.dramWrites = v.takeDramWrites();
  };
  size_t commands = 0;
  for (const ClusterStream &cs : p.clusters)
    commands += cs.commands.size();
  if (commands < kParallelCheckCommands) {
    for (size_t ci = 0; ci < checks.size(); ++ci)
      checkOne(ci);
  } else {
    parallelFor(checks.size(), checkOne);
  }
  return checkAcrossStreams(checks);
}

} // namespace

bool validateProgram(const Program &p, const HardwareDesc &hw,
                     std::string &err) {
  return Validator(p, hw, err).run();
}

struct StreamedValidation::State {
  State(const Program &p, const HardwareDesc &hw)
      : p(p), hw(hw), tables(p, hw, err), checks(p.clusters.size()),
        checked(p.clusters.size()) {
    for (std::atomic<uint64_t> &c : checked)
      c.store(0, std::memory_order_relaxed); // C++17 leaves them unset
  }
  void checkStreams();

  const Program &p;
  const HardwareDesc &hw;
  std::string err;
  Validator tables; ///< checkTables, then checkAcrossStreams
  std::vector<Validator::StreamCheck> checks;
  std::vector<std::atomic<uint64_t>> checked;
  std::atomic<bool> failed{false};
  bool ok = false;
  std::thread thread;
};

/// Round robin over the streams, a chunk each. A failed stream stops the
/// streams after it in cluster order (an earlier one's failure would be
/// reported first, as validateProgram does); those before it are checked
/// to their end.
void StreamedValidation::State::checkStreams() {
  const size_t n = checks.size();
  std::vector<std::unique_ptr<Validator>> streams;
  for (size_t ci = 0; ci < n; ++ci)
    streams.push_back(std::make_unique<Validator>(p, hw, checks[ci].err));
  size_t firstFailed = n;
  for (bool more = true; more;) {
    more = false;
    for (size_t ci = 0; ci < firstFailed; ++ci) {
      Validator::StreamCheck &sc = checks[ci];
      const size_t size = p.clusters[ci].commands.size();
      if (sc.next >= size) // checked to its end (an empty one from the start)
        continue;
      if (!streams[ci]->checkStream(ci, sc, sc.next + kChunkCommands)) {
        sc.ok = false;
        firstFailed = ci;
        failed.store(true, std::memory_order_release);
        break;
      }
      checked[ci].store(sc.next, std::memory_order_release);
      more |= sc.next < size;
    }
  }
  for (size_t ci = 0; ci < n; ++ci)
    checks[ci].dramWrites = streams[ci]->takeDramWrites();
  ok = tables.checkAcrossStreams(checks);
  if (!ok)
    failed.store(true, std::memory_order_release);
}

StreamedValidation::StreamedValidation(const Program &p, const HardwareDesc &hw)
    : state(std::make_unique<State>(p, hw)) {}

StreamedValidation::~StreamedValidation() {
  if (state->thread.joinable())
    state->thread.join();
}

bool StreamedValidation::start(std::string &err) {
  if (!state->tables.checkTables()) {
    err = state->err;
    state->failed = true;
    return false;
  }
  state->thread = std::thread([s = state.get()] {
    // An exception must not end the process from this thread: it becomes
    // the verdict, as it would have reached validateProgram's caller.
    try {
      s->checkStreams();
    } catch (const std::exception &e) {
      s->err = std::string("validation: ") +
               (dynamic_cast<const std::bad_alloc *>(&e) ? "out of host memory"
                                                         : e.what());
      s->ok = false;
      s->failed.store(true, std::memory_order_release);
    }
  });
  return true;
}

uint64_t StreamedValidation::checked(size_t ci) const {
  return ci < state->checked.size()
             ? state->checked[ci].load(std::memory_order_acquire)
             : 0;
}

bool StreamedValidation::failed() const {
  return state->failed.load(std::memory_order_acquire);
}

bool StreamedValidation::finish(std::string &err) {
  if (state->thread.joinable())
    state->thread.join();
  else if (state->failed)
    return err = state->err, false; // start() failed
  if (!state->ok)
    err = state->err;
  return state->ok;
}

} // namespace accel
