//===- BinaryReader.cpp - bytes -> accel::Program (bounds-checked) --------===//
//
// Every read goes through Cursor, which checks the remaining bytes first.
// Counts are checked against the bytes left (count * minimum record size)
// before anything is reserved, so a corrupt count can never cause a large
// allocation.
//
//===----------------------------------------------------------------------===//
#include "accel/Support/FileRead.h"
#include "accel/Support/HugePageAllocator.h"
#include "accel/Support/Parallel.h"
#include "accel/Support/Utf8.h"
#include "accel/Target/Binary.h"
#include "accel/Target/Encoding.h"
#include "accel/Target/Sfu.h"
#include <cstring>
#include <functional>
#include <memory>

namespace accel {
namespace {

class Cursor {
public:
  Cursor(const uint8_t *data, size_t begin, size_t end, std::string &err)
      : data(data), pos(begin), end(end), err(err) {}

  size_t offset() const { return pos; }
  size_t left() const { return end - pos; }

  bool fail(size_t at, const std::string &msg) {
    err = "binary: " + msg + " at offset " + std::to_string(at);
    return false;
  }
  // Inline check, out-of-line message: every field of every command passes
  // here (a call per field was 3 % of a MobileNetV2 run).
  bool need(size_t n, const char *what) {
    return left() >= n || truncated(n, what);
  }
  [[gnu::noinline, gnu::cold]] bool truncated(size_t n, const char *what) {
    return fail(pos, std::string("truncated ") + what + " (need " +
                         std::to_string(n) + " bytes, " +
                         std::to_string(left()) + " left)");
  }
  bool raw(void *out, size_t n, const char *what) {
    if (!need(n, what))
      return false;
    std::memcpy(out, data + pos, n);
    pos += n;
    return true;
  }
  template <typename T> bool uint(T &out, const char *what) {
    if (!need(sizeof(T), what))
      return false;
    uint64_t v = 0;
    for (size_t i = 0; i < sizeof(T); ++i)
      v |= uint64_t(data[pos + i]) << (8 * i);
    out = T(v);
    pos += sizeof(T);
    return true;
  }
  bool i32(int32_t &out, const char *what) {
    uint32_t u;
    if (!uint(u, what))
      return false;
    out = int32_t(u);
    return true;
  }
  bool i64(int64_t &out, const char *what) {
    uint64_t u;
    if (!uint(u, what))
      return false;
    out = int64_t(u);
    return true;
  }
  bool f32(float &out, const char *what) {
    uint32_t u;
    if (!uint(u, what))
      return false;
    std::memcpy(&out, &u, 4);
    return true;
  }
  /// Reads a u32 count and checks that `count` records of at least
  /// `minBytes` each fit in the remaining bytes.
  bool count(uint32_t &out, size_t minBytes, const char *what) {
    size_t at = pos;
    if (!uint(out, what))
      return false;
    if (uint64_t(out) * minBytes > left())
      return fail(at, std::string(what) + " " + std::to_string(out) +
                          " is more than the remaining " +
                          std::to_string(left()) + " bytes can hold");
    return true;
  }

  const uint8_t *data;
  size_t pos, end;
  std::string &err;
};

constexpr size_t kSectionHeaderBytes = 16;
constexpr size_t kMinCommandBytes = 7; ///< layer id, lead byte, 2 bytes
/// Name, op kind (both empty), MACs, compulsory and weight bytes, fused
/// count: a layer table entry without names.
constexpr size_t kMinLayerBytes = 32;
constexpr size_t kDmaPayloadBytes = 108;
constexpr size_t kMinSymbolBytes = 18; ///< empty name, rank 0, no pieces
constexpr size_t kDramPieceBytes = 24; ///< offset, bytes, DRAM address
/// Address, replica count, byte count: a segment without replicas or bytes.
constexpr size_t kMinConstSegmentBytes = 20;
constexpr size_t kMinPacketBytes = 28;      ///< constant packet, no blocks
constexpr size_t kMinPacketBlockBytes = 18; ///< block with an empty name

/// A row-major cluster index of the binary's grid.
bool checkCluster(Cursor &c, size_t at, const char *what, uint64_t index,
                  uint64_t numClusters) {
  if (index < numClusters)
    return true;
  return c.fail(at, std::string(what) + " " + std::to_string(index) +
                        " is outside the grid of " +
                        std::to_string(numClusters) + " clusters");
}

/// SEND / SIGNAL tail: u32 sem, u32 target count (>= 1), the targets
/// (ascending row-major cluster indices inside the grid).
bool readTargets(Cursor &c, MeshOp &m, uint64_t numClusters) {
  size_t at = c.offset();
  if (!c.uint(m.sem, "semaphore"))
    return false;
  if (m.sem >= kNumSemaphores)
    return c.fail(at, "semaphore " + std::to_string(m.sem) +
                          " out of range [0, " +
                          std::to_string(kNumSemaphores) + ")");
  uint32_t n;
  at = c.offset();
  if (!c.count(n, 4, "target count"))
    return false;
  if (n == 0)
    return c.fail(at, "empty target list");
  m.targets.resize(n);
  for (uint32_t i = 0; i < n; ++i) {
    at = c.offset();
    if (!c.uint(m.targets[i], "target") ||
        !checkCluster(c, at, "target cluster", m.targets[i], numClusters))
      return false;
    if (i && m.targets[i] <= m.targets[i - 1])
      return c.fail(at, "targets are not in ascending order without repeats");
  }
  return true;
}

bool readSyncCommand(Cursor &c, uint8_t lead, Command &cmd,
                     uint64_t numClusters) {
  switch (lead) {
  case kPacketSend:
    cmd.kind = CommandKind::Send;
    return c.uint(cmd.mesh->tag, "SEND packet") &&
           c.uint(cmd.mesh->src, "SEND packet") &&
           c.uint(cmd.mesh->dst, "SEND packet") &&
           c.uint(cmd.mesh->bytes, "SEND packet") &&
           readTargets(c, *cmd.mesh, numClusters);
  case kPacketSignal:
    cmd.kind = CommandKind::Signal;
    return readTargets(c, *cmd.mesh, numClusters);
  default: { // kPacketRecv
    cmd.kind = CommandKind::Recv;
    size_t at = c.offset();
    if (!c.uint(cmd.sem, "RECV packet") || !c.uint(cmd.count, "RECV packet"))
      return false;
    if (cmd.sem >= kNumSemaphores)
      return c.fail(at, "semaphore " + std::to_string(cmd.sem) +
                            " out of range [0, " +
                            std::to_string(kNumSemaphores) + ")");
    if (cmd.count == 0)
      return c.fail(at + 4, "RECV count 0 (must be >= 1)");
    return true;
  }
  }
}

/// A u16-length-prefixed name, which must be UTF-8 (Utf8.h says why).
bool readName(Cursor &c, std::string &out, const char *what) {
  uint16_t len;
  if (!c.uint(len, what) || !c.need(len, what))
    return false;
  const size_t at = c.offset();
  out.assign(reinterpret_cast<const char *>(c.data + c.pos), len);
  c.pos += len;
  if (!isValidUtf8(out))
    return c.fail(at, std::string(what) + " '" + escapeInvalidUtf8(out) +
                          "' is not valid UTF-8");
  return true;
}

/// One LAYR entry. Layer ids of commands are not checked against the table
/// here: that is validateProgram's job (it names the cluster and command).
/// An entry whose weights exceed its compulsory bytes (which include them)
/// is refused here, as the ISA dialect's verifier refuses it: a binary
/// `accel-translate --binary-to-isa` prints must translate back.
bool readLayer(Cursor &c, LayerInfo &l) {
  uint32_t fused;
  if (!readName(c, l.name, "layer name") ||
      !readName(c, l.opKind, "layer op kind") || !c.uint(l.macs, "layer"))
    return false;
  const size_t compulsoryAt = c.offset();
  if (!c.uint(l.compulsoryBytes, "layer") || !c.uint(l.weightBytes, "layer"))
    return false;
  if (l.weightBytes > l.compulsoryBytes)
    return c.fail(compulsoryAt, "layer '" + l.name + "': weight bytes " +
                                    std::to_string(l.weightBytes) +
                                    " exceed its compulsory bytes " +
                                    std::to_string(l.compulsoryBytes) +
                                    " (the weights are part of them)");
  if (!c.count(fused, 2, "fused operator count"))
    return false;
  l.fused.resize(fused);
  for (std::string &f : l.fused)
    if (!readName(c, f, "fused operator name"))
      return false;
  return true;
}

/// RECUR payload (writeRecur in BinaryWriter.cpp). Enum values and flags
/// are checked here; sizes and addresses by validateProgram.
bool readRecur(Cursor &c, RecurDesc &r) {
  size_t at = c.offset();
  uint8_t cell, flags;
  if (!c.uint(r.tag, "RECUR packet") || !c.uint(r.thread, "RECUR packet") ||
      !c.uint(cell, "RECUR packet") || !c.uint(flags, "RECUR packet"))
    return false;
  if (cell > uint8_t(RecurCell::Lstm))
    return c.fail(at + 2, "invalid RECUR cell " + std::to_string(cell));
  if (flags > 127)
    return c.fail(at + 3, "invalid RECUR flags " + std::to_string(flags));
  r.cell = RecurCell(cell);
  r.reverse = flags & 1;
  r.linearBeforeReset = flags & 2;
  r.inputForget = flags & 4;
  r.peephole = flags & 8;
  r.hasClip = flags & 16;
  r.weightsInDram = flags & 32;
  r.hasSeqLen = flags & 64;
  for (uint32_t *v :
       {&r.hidden, &r.inputs, &r.steps, &r.ep, &r.vp, &r.candidateVp})
    if (!c.uint(*v, "RECUR packet"))
      return false;
  if (!c.f32(r.clip, "RECUR packet"))
    return false;
  for (int i = 0; i < 3; ++i) {
    uint8_t act;
    size_t aat = c.offset();
    if (!c.uint(act, "RECUR packet") || !c.f32(r.alpha[i], "RECUR packet") ||
        !c.f32(r.beta[i], "RECUR packet"))
      return false;
    if (act >= kRecurActs)
      return c.fail(aat, "invalid RECUR activation " + std::to_string(act));
    r.act[i] = RecurAct(act);
  }
  if (!c.uint(r.weights, "RECUR packet"))
    return false;
  for (uint32_t *a : {&r.bias, &r.peepholes, &r.x, &r.h0, &r.c0, &r.y, &r.hT,
                      &r.cT, &r.seqLen})
    if (!c.uint(*a, "RECUR packet"))
      return false;
  return c.uint(r.arrival, "RECUR packet");
}

bool readCommand(Cursor &c, Command &cmd, uint64_t numClusters) {
  if (!c.uint(cmd.layer, "command layer id"))
    return false;
  size_t at = c.offset();
  uint8_t lead;
  if (!c.uint(lead, "command byte"))
    return false;
  bool isPacket = !(lead & kCmdOpcodeBit) && (lead & kCmdReservedBits);
  if (!isPacket) {
    std::string e;
    if (!decodeCommand(lead, cmd, e))
      return c.fail(at, e);
    if (cmd.kind == CommandKind::Config) {
      uint32_t n;
      if (!c.count(n, 2 + kOperandRecordBytes, "CONFIG instruction count"))
        return false;
      cmd.instrs.resize(n);
      for (uint32_t i = 0; i < n; ++i) {
        Instruction &in = cmd.instrs[i];
        size_t wat = c.offset();
        uint16_t word;
        if (!c.uint(word, "instruction word"))
          return false;
        if (!decodeInstruction(word, in.fields, e))
          return c.fail(wat, e);
        OperandRecord &r = in.operands;
        uint8_t qm, fn;
        uint16_t reserved;
        if (!c.uint(r.addr, "operand record") ||
            !c.uint(r.rows, "operand record") ||
            !c.uint(r.cols, "operand record") ||
            !c.i32(r.rowStride, "operand record") ||
            !c.i32(r.colStride, "operand record") ||
            !c.uint(r.peRows, "operand record") ||
            !c.uint(r.depth, "operand record") ||
            !c.uint(r.repeat, "operand record"))
          return false;
        size_t qat = c.offset();
        if (!c.uint(qm, "operand record") || !c.uint(fn, "operand record") ||
            !c.uint(reserved, "operand record") ||
            !c.f32(r.imm, "operand record"))
          return false;
        if (qm > uint8_t(QueueMode::SW))
          return c.fail(qat, "invalid queue mode " + std::to_string(qm));
        if (!isValidSfuFunc(fn))
          return c.fail(qat + 1, "invalid SFU function " + std::to_string(fn));
        if (reserved)
          return c.fail(qat + 2, "nonzero reserved operand-record bytes");
        r.queueMode = QueueMode(qm);
        r.func = SfuFunc(fn);
        uint8_t pipe, flags;
        uint16_t nAddrs;
        if (!c.uint(r.base, "operand record") ||
            !c.i32(r.step, "operand record"))
          return false;
        size_t pat = c.offset();
        if (!c.uint(pipe, "operand record") ||
            !c.uint(flags, "operand record") ||
            !c.uint(nAddrs, "operand record"))
          return false;
        if (pipe != uint8_t(Pipeline::IdFo) &&
            pipe != uint8_t(Pipeline::IdFoSuWb))
          return c.fail(pat, "invalid pipeline type " + std::to_string(pipe) +
                                 " (1 or 2)");
        if (flags & ~1u)
          return c.fail(pat + 1, "nonzero reserved operand-record flag bits");
        if (size_t(nAddrs) * 4 > c.left())
          return c.fail(pat + 2,
                        "per-PE address count " + std::to_string(nAddrs) +
                            " is more than the remaining " +
                            std::to_string(c.left()) + " bytes can hold");
        r.pipeline = Pipeline(pipe);
        r.acrossPes = flags & 1;
        r.peAddrs.resize(nAddrs);
        for (uint32_t &a : r.peAddrs)
          if (!c.uint(a, "operand record"))
            return false;
      }
    } else {
      uint32_t n;
      if (!c.count(n, 6, "EXECUTE patch count"))
        return false;
      cmd.patches.resize(n);
      for (uint32_t i = 0; i < n; ++i) {
        RegPatch &p = cmd.patches[i];
        uint8_t field;
        if (!c.uint(p.instr, "patch"))
          return false;
        size_t fat = c.offset();
        if (!c.uint(field, "patch") || !c.uint(p.value, "patch"))
          return false;
        if (field > uint8_t(PatchField::Base))
          return c.fail(fat, "invalid patch field " + std::to_string(field));
        p.field = PatchField(field);
      }
    }
    return true;
  }
  switch (lead) {
  case kPacketDma: {
    cmd.kind = CommandKind::Dma;
    if (!c.need(kDmaPayloadBytes, "DMA packet"))
      return false;
    DmaDesc &d = cmd.dma;
    uint8_t dir = 0;
    uint16_t reserved = 0;
    size_t dat = c.offset();
    c.uint(dir, "DMA packet");
    c.uint(d.tag, "DMA packet");
    c.uint(reserved, "DMA packet");
    c.uint(d.elemBytes, "DMA packet");
    c.uint(d.src, "DMA packet");
    c.uint(d.dst, "DMA packet");
    for (int i = 0; i < 4; ++i)
      c.uint(d.shape[i], "DMA packet");
    for (int i = 0; i < 4; ++i)
      c.i64(d.srcStride[i], "DMA packet");
    for (int i = 0; i < 4; ++i)
      c.i64(d.dstStride[i], "DMA packet");
    c.uint(d.srcCluster, "DMA packet");
    if (dir > uint8_t(DmaDir::LocalCopy))
      return c.fail(dat, "invalid DMA direction " + std::to_string(dir));
    if (reserved)
      return c.fail(dat + 2, "nonzero reserved DMA bytes");
    d.dir = DmaDir(dir);
    if (d.dir == DmaDir::RemoteLoad)
      return checkCluster(c, dat + 104, "remote_load source cluster",
                          d.srcCluster, numClusters);
    if (d.srcCluster != 0)
      return c.fail(dat + 104, std::string("a ") + dmaDirName(d.dir) +
                                   " DMA has no source cluster (" +
                                   std::to_string(d.srcCluster) + ")");
    return true;
  }
  case kPacketWait: {
    cmd.kind = CommandKind::Wait;
    uint8_t flags;
    if (!c.uint(cmd.waitTags, "WAIT packet"))
      return false;
    size_t fat = c.offset();
    if (!c.uint(flags, "WAIT packet"))
      return false;
    if (flags > 1)
      return c.fail(fat, "invalid WAIT flags " + std::to_string(flags));
    cmd.waitPe = flags & 1;
    return true;
  }
  case kPacketBarrier:
    cmd.kind = CommandKind::Barrier;
    return c.uint(cmd.barrierId, "BARRIER packet");
  case kPacketSend:
  case kPacketSignal:
  case kPacketRecv:
    return readSyncCommand(c, lead, cmd, numClusters);
  case kPacketRecur:
    cmd.kind = CommandKind::Recur;
    return readRecur(c, cmd.recur.get());
  default: {
    static const char *d = "0123456789abcdef";
    std::string h = "0x";
    h += d[lead >> 4];
    h += d[lead & 15];
    return c.fail(at, "unknown command kind byte " + h);
  }
  }
}

/// Reads a section header, checks its kind/index, and narrows `sub` to its
/// payload.
bool openSection(Cursor &c, uint32_t kind, uint32_t index, const char *name,
                 size_t &payloadEnd) {
  size_t at = c.offset();
  uint32_t k, idx;
  uint64_t size;
  if (!c.uint(k, "section header") || !c.uint(idx, "section header") ||
      !c.uint(size, "section header"))
    return false;
  if (k != kind)
    return c.fail(at, std::string("expected section ") + name + " (kind " +
                          std::to_string(kind) + "), found kind " +
                          std::to_string(k));
  if (idx != index)
    return c.fail(at + 4, std::string("section ") + name + " has index " +
                              std::to_string(idx) + ", expected " +
                              std::to_string(index));
  if (size > c.left())
    return c.fail(at + 8, std::string("section ") + name + " size " +
                              std::to_string(size) + " exceeds the remaining " +
                              std::to_string(c.left()) + " bytes (truncated)");
  payloadEnd = c.offset() + size_t(size);
  return true;
}

bool closeSection(Cursor &c, size_t payloadEnd, const char *name) {
  if (c.offset() != payloadEnd)
    return c.fail(c.offset(), std::string("section ") + name + " has " +
                                  std::to_string(payloadEnd - c.offset()) +
                                  " unexpected trailing bytes");
  return true;
}

/// The DRAM pieces ending a SYMB record: u32 count, then (u64 offset, u64
/// bytes, u64 DRAM address) each. Whether they cover the image is
/// validateProgram's business; the reader only checks the count.
bool readPieces(Cursor &s, Symbol &sym) {
  uint32_t n;
  if (!s.count(n, kDramPieceBytes, "symbol piece count"))
    return false;
  sym.pieces.resize(n);
  for (DramPiece &pc : sym.pieces)
    if (!s.uint(pc.offset, "symbol piece") ||
        !s.uint(pc.bytes, "symbol piece") ||
        !s.uint(pc.dramAddr, "symbol piece"))
      return false;
  return true;
}

/// A PCKT record: cluster, core, marker address / size, block count, the
/// marker bytes, then the blocks (name, DRAM address, bytes).
bool readPacket(Cursor &s, ConstPacket &pk, uint64_t numClusters) {
  size_t at = s.offset();
  uint64_t markerBytes;
  uint32_t nBlocks;
  if (!s.uint(pk.cluster, "packet") || !s.uint(pk.core, "packet") ||
      !s.uint(pk.markerAddr, "packet") || !s.uint(markerBytes, "packet"))
    return false;
  if (!checkCluster(s, at, "packet cluster", pk.cluster, numClusters))
    return false;
  if (!s.uint(nBlocks, "packet"))
    return false;
  if (markerBytes > s.left())
    return s.fail(at + 16, "marker size " + std::to_string(markerBytes) +
                               " exceeds the remaining " +
                               std::to_string(s.left()) + " bytes");
  pk.marker.assign(s.data + s.pos, s.data + s.pos + markerBytes);
  s.pos += size_t(markerBytes);
  if (uint64_t(nBlocks) * kMinPacketBlockBytes > s.left())
    return s.fail(at + 24, "packet block count " + std::to_string(nBlocks) +
                               " is more than the remaining " +
                               std::to_string(s.left()) + " bytes can hold");
  pk.blocks.resize(nBlocks);
  for (PacketBlockRef &b : pk.blocks) {
    if (!readName(s, b.name, "block name"))
      return false;
    if (!s.uint(b.dramAddr, "packet block") || !s.uint(b.bytes, "packet block"))
      return false;
  }
  return true;
}

bool parseTables(Cursor &c, const uint8_t *data, Program &p, bool borrow);
bool parseStreams(Cursor &c, const uint8_t *data, Program &p,
                  const std::function<void()> &checksum);

/// readBinary; with `borrow`, constant segments point into `data` (which
/// the caller keeps alive through Program::backing) instead of copying it.
bool parseBinary(const uint8_t *data, size_t size, Program &p, std::string &err,
                 bool borrow) {
  p = Program();
  if (!data && size)
    return err = "binary: null data", false;
  Cursor c(data, 0, size, err);
  char magic[8];
  if (!c.raw(magic, 8, "header (magic)"))
    return false;
  if (std::memcmp(magic, kBinaryMagic, 8) != 0)
    return c.fail(0, "bad magic (not an accelerator binary)");
  uint32_t version, headerBytes, sections, crc;
  uint64_t total, reserved;
  if (!c.uint(version, "header (format version)"))
    return false;
  if (version != Program::kFormatVersion) {
    err = "binary format version " + std::to_string(version) +
          " is not supported (this build reads version " +
          std::to_string(Program::kFormatVersion) + "; recompile the model)";
    return false;
  }
  if (!c.uint(headerBytes, "header") || !c.uint(p.hwFingerprint, "header") ||
      !c.uint(p.gridRows, "header") || !c.uint(p.gridCols, "header") ||
      !c.uint(p.dramSize, "header") || !c.uint(total, "header") ||
      !c.uint(sections, "header") || !c.uint(crc, "header") ||
      !c.uint(reserved, "header"))
    return false;
  if (headerBytes != kBinaryHeaderBytes)
    return c.fail(12, "header size " + std::to_string(headerBytes) +
                          " is not " + std::to_string(kBinaryHeaderBytes));
  if (p.gridRows == 0 || p.gridCols == 0)
    return c.fail(24, "empty cluster grid " + std::to_string(p.gridRows) + "x" +
                          std::to_string(p.gridCols));
  if (total != size)
    return c.fail(40, "header declares " + std::to_string(total) +
                          " bytes but the input has " + std::to_string(size) +
                          " bytes" +
                          (total > size ? " (truncated)" : " (trailing data)"));
  uint64_t numClusters = uint64_t(p.gridRows) * p.gridCols;
  if (uint64_t(sections) != numClusters + kNumFixedSections)
    return c.fail(48, "section count " + std::to_string(sections) +
                          " does not match " +
                          std::to_string(kNumFixedSections) + " + " +
                          std::to_string(numClusters) + " cluster streams");
  // Each cluster stream needs at least a section header and a count.
  if (numClusters * (kSectionHeaderBytes + 4) > c.left())
    return c.fail(24, "grid " + std::to_string(p.gridRows) + "x" +
                          std::to_string(p.gridCols) +
                          " needs more streams than the remaining " +
                          std::to_string(c.left()) + " bytes can hold");
  if (reserved)
    return c.fail(56, "nonzero reserved header bytes");
  // The checksum is computed while the sections are parsed (the cluster
  // streams on the other cores, parseStreams), and a mismatch is reported
  // first, as if it had been checked before them: a corrupt binary gives
  // the same message either way. Parsing corrupt bytes is safe (every read
  // is bounds-checked, every count checked before a reservation).
  uint32_t actual = 0;
  auto checksum = [&] {
    actual = crc32(data + kBinaryHeaderBytes, size - kBinaryHeaderBytes);
  };
  p.clusters.resize(size_t(numClusters));
  bool ok = parseTables(c, data, p, borrow);
  if (ok)
    ok = parseStreams(c, data, p, checksum);
  else
    checksum();
  if (actual != crc)
    return c.fail(kBinaryChecksumOffset, "checksum mismatch (corrupt binary)");
  return ok;
}

/// The symbol table, constants, packets and layer table (`c` at SYMB).
bool parseTables(Cursor &c, const uint8_t *data, Program &p, bool borrow) {
  std::string &err = c.err;
  // Symbol table.
  size_t endAt;
  if (!openSection(c, kSectionSymbols, 0, "SYMB", endAt))
    return false;
  {
    Cursor s(data, c.offset(), endAt, err);
    uint32_t n;
    if (!s.count(n, kMinSymbolBytes, "symbol count"))
      return false;
    p.symbols.resize(n);
    for (uint32_t i = 0; i < n; ++i) {
      Symbol &sym = p.symbols[i];
      uint16_t rank;
      uint8_t kind, dtype;
      if (!readName(s, sym.name, "symbol name"))
        return false;
      size_t kat = s.offset();
      if (!s.uint(kind, "symbol") || !s.uint(dtype, "symbol") ||
          !s.uint(rank, "symbol") || !s.uint(sym.dramAddr, "symbol"))
        return false;
      if (kind > 1)
        return s.fail(kat, "invalid symbol kind " + std::to_string(kind));
      if (dtype > uint8_t(kLastDType))
        return s.fail(kat + 1, "invalid symbol dtype " + std::to_string(dtype));
      sym.isInput = kind == 0;
      sym.dtype = DType(dtype);
      if (uint64_t(rank) * 8 > s.left())
        return s.fail(kat + 2, "symbol rank " + std::to_string(rank) +
                                   " is more than the remaining " +
                                   std::to_string(s.left()) +
                                   " bytes can hold");
      sym.shape.resize(rank);
      for (uint16_t d = 0; d < rank; ++d) {
        size_t dat = s.offset();
        if (!s.i64(sym.shape[d], "symbol dims"))
          return false;
        if (sym.shape[d] < 0)
          return s.fail(dat, "negative symbol dimension " +
                                 std::to_string(sym.shape[d]));
      }
      if (!readPieces(s, sym))
        return false;
    }
    if (!closeSection(s, endAt, "SYMB"))
      return false;
    c.pos = endAt;
  }

  // Constants.
  if (!openSection(c, kSectionConstants, 0, "CNST", endAt))
    return false;
  {
    Cursor s(data, c.offset(), endAt, err);
    uint32_t n;
    if (!s.count(n, kMinConstSegmentBytes, "constant segment count"))
      return false;
    p.constants.resize(n);
    for (uint32_t i = 0; i < n; ++i) {
      ConstSegment &seg = p.constants[i];
      uint32_t replicas;
      uint64_t bytes;
      if (!s.uint(seg.dramAddr, "constant segment") ||
          !s.count(replicas, 8, "constant replica count"))
        return false;
      seg.replicas.resize(replicas);
      for (uint64_t &r : seg.replicas)
        if (!s.uint(r, "constant replica"))
          return false;
      if (!s.uint(bytes, "constant segment"))
        return false;
      if (bytes > s.left())
        return s.fail(s.offset() - 8, "constant segment size " +
                                          std::to_string(bytes) +
                                          " exceeds the remaining " +
                                          std::to_string(s.left()) + " bytes");
      if (borrow && bytes) {
        seg.borrowed = data + s.pos;
        seg.borrowedSize = bytes;
      } else {
        seg.bytes.assign(data + s.pos, data + s.pos + bytes);
      }
      s.pos += size_t(bytes);
    }
    if (!closeSection(s, endAt, "CNST"))
      return false;
    c.pos = endAt;
  }

  // Constant packets.
  if (!openSection(c, kSectionPackets, 0, "PCKT", endAt))
    return false;
  {
    Cursor s(data, c.offset(), endAt, err);
    uint32_t n;
    if (!s.count(n, kMinPacketBytes, "packet count"))
      return false;
    p.packets.resize(n);
    for (ConstPacket &pk : p.packets)
      if (!readPacket(s, pk, p.clusters.size()))
        return false;
    if (!closeSection(s, endAt, "PCKT"))
      return false;
    c.pos = endAt;
  }

  // Layer table.
  if (!openSection(c, kSectionLayers, 0, "LAYR", endAt))
    return false;
  {
    Cursor s(data, c.offset(), endAt, err);
    uint32_t n;
    if (!s.count(n, kMinLayerBytes, "layer count"))
      return false;
    p.layers.resize(n);
    for (LayerInfo &l : p.layers)
      if (!readLayer(s, l))
        return false;
    if (!closeSection(s, endAt, "LAYR"))
      return false;
    c.pos = endAt;
  }

  return true;
}

/// One cluster stream's section: where it is, and its decoding's error.
struct StreamJob {
  size_t begin = 0, end = 0;
  std::string err;
  bool ok = true;
};

/// Decodes the commands of one STRM payload into `cmds`.
bool readStream(const uint8_t *data, StreamJob &job, uint64_t numClusters,
                CommandList &cmds) {
  Cursor s(data, job.begin, job.end, job.err);
  uint32_t n;
  if (!s.count(n, kMinCommandBytes, "command count"))
    return false;
  cmds.resize(n);
  for (uint32_t k = 0; k < n; ++k)
    if (!readCommand(s, cmds[k], numClusters))
      return false;
  return closeSection(s, job.end, "STRM");
}

/// Binaries below this size decode on the calling thread: a thread costs
/// more than their streams (the fuzzers' inputs, hand-written programs).
constexpr size_t kParallelDecodeBytes = size_t(1) << 20;

/// The cluster streams (`c` after the layer table), then the end of the
/// binary. The section headers are walked first; the streams before the
/// first bad header are then decoded on the host's cores, next to
/// `checksum` (parallelFor), and the first error in file order is reported,
/// as a front-to-back reading would.
bool parseStreams(Cursor &c, const uint8_t *data, Program &p,
                  const std::function<void()> &checksum) {
  const uint64_t numClusters = p.clusters.size();
  std::vector<StreamJob> jobs;
  std::string headerErr;
  bool headersOk = true;
  for (uint64_t ci = 0; headersOk && ci < numClusters; ++ci) {
    StreamJob job;
    Cursor h(data, c.offset(), c.end, headerErr);
    headersOk = openSection(h, kSectionStream, uint32_t(ci), "STRM", job.end);
    if (headersOk) {
      job.begin = h.offset();
      c.pos = job.end;
      jobs.push_back(std::move(job));
    }
  }
  auto work = [&](size_t i) {
    if (i == 0)
      return checksum();
    StreamJob &job = jobs[i - 1];
    job.ok = readStream(data, job, numClusters, p.clusters[i - 1].commands);
  };
  if (c.end < kParallelDecodeBytes) {
    for (size_t i = 0; i <= jobs.size(); ++i)
      work(i);
  } else {
    parallelFor(jobs.size() + 1, work);
  }
  for (StreamJob &job : jobs)
    if (!job.ok)
      return c.err = std::move(job.err), false;
  if (!headersOk)
    return c.err = std::move(headerErr), false;
  if (c.left())
    return c.fail(c.offset(), "unexpected trailing bytes");
  return true;
}

/// A whole file read into memory of its own on transparent huge pages
/// (hugepages::allocate), freed when the last Program sharing it goes.
///
/// Read, not mapped. A private mapping of the page cache was first (no
/// copy), but a host that traps every first touch of a 4 KiB page into its
/// hypervisor (a paravirtualised guest, where MAP_POPULATE does not spare
/// the touches) charged about 1 ms per MB to the checksum's walk over it:
/// MobileNetV2's 19 MB, mapped and checksummed, 19-28 ms; read into huge
/// pages and checksummed, 10-14 ms (docs/simulator.md, "Fourteenth round").
struct FileImage {
  void *addr = nullptr;
  size_t size = 0;
  ~FileImage() { hugepages::deallocate(addr, size); }
};

/// `path`'s bytes in a FileImage of their own (readRegularFileInto's
/// checks and messages); null with `err` set when the file cannot be read.
std::shared_ptr<FileImage> loadFile(const std::string &path, std::string &err) {
  auto image = std::make_shared<FileImage>();
  auto onHugePages = [&image](size_t size) {
    if (size)
      image->addr = hugepages::allocate(size);
    image->size = size;
    return static_cast<uint8_t *>(image->addr);
  };
  if (!readRegularFileInto(path, "accelerator binary", kMaxDataFileBytes,
                           onHugePages, err))
    return nullptr;
  return image;
}

} // namespace

bool readBinary(const uint8_t *data, size_t size, Program &p,
                std::string &err) {
  return parseBinary(data, size, p, err, /*borrow=*/false);
}

bool readBinaryFile(const std::string &path, Program &p, std::string &err) {
  std::shared_ptr<FileImage> image = loadFile(path, err);
  if (!image)
    return false;
  // The constant segments (most of the file) are borrowed by the Program
  // from the file's image, not copied again.
  if (!parseBinary(static_cast<const uint8_t *>(image->addr), image->size, p,
                   err, /*borrow=*/true)) {
    p = Program(); // no segment may point into the image it loses
    err = path + ": " + err;
    return false;
  }
  p.backing = std::move(image);
  return true;
}

} // namespace accel
