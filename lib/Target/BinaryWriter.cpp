//===- BinaryWriter.cpp - accel::Program -> bytes -------------------------===//
#include "accel/Support/Utf8.h"
#include "accel/Target/Binary.h"
#include "accel/Target/Encoding.h"
#include "accel/Target/Sfu.h"
#include <algorithm>
#include <cstring>
#include <fstream>

namespace accel {

namespace {

class Writer {
public:
  /// The encoded bytes, except the large payloads `lend` leaves in place.
  std::vector<uint8_t> buf;
  /// A payload that belongs at `at` in buf (before the byte at that index).
  struct Lent {
    size_t at;
    const uint8_t *data;
    size_t size;
  };
  std::vector<Lent> lent;
  size_t lentBytes = 0;

  /// Offset in the whole binary of the next byte.
  size_t pos() const { return buf.size() + lentBytes; }
  /// `n` bytes at `p` that stay alive until the output is written: large
  /// ones are referenced, not copied.
  void lend(const uint8_t *p, size_t n) {
    if (n < kMinLent) {
      bytes(p, n);
      return;
    }
    lent.push_back({buf.size(), p, n});
    lentBytes += n;
  }
  /// Calls fn(data, size) for the binary's bytes in order.
  template <typename Fn> bool forEachPiece(Fn fn) const {
    size_t from = 0;
    for (const Lent &l : lent) {
      if (l.at > from && !fn(buf.data() + from, l.at - from))
        return false;
      if (!fn(l.data, l.size))
        return false;
      from = l.at;
    }
    return from == buf.size() || fn(buf.data() + from, buf.size() - from);
  }
  void u8(uint8_t v) { buf.push_back(v); }
  void u16(uint16_t v) { le(v, 2); }
  void u32(uint32_t v) { le(v, 4); }
  void u64(uint64_t v) { le(v, 8); }
  void i32(int32_t v) { le(uint32_t(v), 4); }
  void i64(int64_t v) { le(uint64_t(v), 8); }
  void f32(float v) {
    uint32_t b;
    std::memcpy(&b, &v, 4);
    u32(b);
  }
  void bytes(const void *p, size_t n) {
    auto *c = static_cast<const uint8_t *>(p);
    buf.insert(buf.end(), c, c + n);
  }
  void patch32(size_t at, uint32_t v) {
    for (int i = 0; i < 4; ++i)
      buf[at + i] = uint8_t(v >> (8 * i));
  }
  void patch64(size_t at, uint64_t v) {
    for (int i = 0; i < 8; ++i)
      buf[at + i] = uint8_t(v >> (8 * i));
  }

private:
  static constexpr size_t kMinLent = 64 * 1024;
  void le(uint64_t v, int n) {
    for (int i = 0; i < n; ++i)
      buf.push_back(uint8_t(v >> (8 * i)));
  }
};

/// A section being written: where its payload-size field is in Writer::buf
/// and where its payload starts in the binary.
struct OpenSection {
  size_t sizeAt;
  size_t payloadPos;
};
OpenSection beginSection(Writer &w, uint32_t kind, uint32_t index) {
  w.u32(kind);
  w.u32(index);
  size_t at = w.buf.size();
  w.u64(0);
  return {at, w.pos()};
}
void endSection(Writer &w, OpenSection s) {
  w.patch64(s.sizeAt, w.pos() - s.payloadPos);
}

bool fail(std::string &err, const std::string &where, const std::string &msg) {
  err = "binary writer: " + where + ": " + msg;
  return false;
}

/// A u16-length-prefixed name (layers, fused operators, symbols, packet
/// blocks): at most 65535 bytes of UTF-8 (Utf8.h says why).
bool writeName(Writer &w, const std::string &s, const std::string &where,
               const char *what, std::string &err) {
  if (s.size() > UINT16_MAX)
    return fail(err, where, std::string(what) + " longer than 65535 bytes");
  if (!isValidUtf8(s))
    return fail(err, where,
                std::string(what) + " '" + escapeInvalidUtf8(s) +
                    "' is not valid UTF-8");
  w.u16(uint16_t(s.size()));
  w.bytes(s.data(), s.size());
  return true;
}

/// SEND / SIGNAL tail: semaphore and the target list.
bool writeTargets(Writer &w, const MeshOp &m, const std::string &where,
                  std::string &err) {
  if (m.targets.size() > UINT32_MAX)
    return fail(err, where, "too many targets");
  w.u32(m.sem);
  w.u32(uint32_t(m.targets.size()));
  for (uint32_t t : m.targets)
    w.u32(t);
  return true;
}

bool writePackets(Writer &w, const Program &p, std::string &err) {
  w.u32(uint32_t(p.packets.size()));
  for (size_t i = 0; i < p.packets.size(); ++i) {
    const ConstPacket &pk = p.packets[i];
    std::string where = "packet " + std::to_string(i);
    if (pk.blocks.size() > UINT32_MAX)
      return fail(err, where, "too many blocks");
    w.u32(pk.cluster);
    w.u32(pk.core);
    w.u64(pk.markerAddr);
    w.u64(pk.marker.size());
    w.u32(uint32_t(pk.blocks.size()));
    w.bytes(pk.marker.data(), pk.marker.size());
    for (const PacketBlockRef &b : pk.blocks) {
      if (!writeName(w, b.name, where, "block name", err))
        return false;
      w.u64(b.dramAddr);
      w.u64(b.bytes);
    }
  }
  return true;
}

/// Whether segment `b` continues segment `a` in DRAM: it starts where `a`
/// ends, and so does each of its replicas.
bool continues(const ConstSegment &a, const ConstSegment &b) {
  if (b.dramAddr != a.dramAddr + a.size() ||
      b.replicas.size() != a.replicas.size())
    return false;
  for (size_t r = 0; r < a.replicas.size(); ++r)
    if (b.replicas[r] != a.replicas[r] + a.size())
      return false;
  return true;
}

/// The CNST section, each run of segments that continue one another in
/// DRAM written as one segment: the simulator reads a segment's whole DRAM
/// pages in place and copies the pages it covers only in part, and a
/// network's weights lie back to back in hundreds of segments
/// (docs/binary-format.md, "CNST payload").
bool writeConstants(Writer &w, const Program &p, std::string &err) {
  const std::vector<ConstSegment> &cs = p.constants;
  std::vector<size_t> runStarts;
  for (size_t i = 0; i < cs.size(); ++i)
    if (i == 0 || !continues(cs[i - 1], cs[i]))
      runStarts.push_back(i);
  w.u32(uint32_t(runStarts.size()));
  for (size_t r = 0; r < runStarts.size(); ++r) {
    const size_t first = runStarts[r];
    const size_t end = r + 1 < runStarts.size() ? runStarts[r + 1] : cs.size();
    const ConstSegment &c = cs[first];
    if (c.replicas.size() > UINT32_MAX)
      return fail(err, "constant segment " + std::to_string(first),
                  "too many replicas");
    uint64_t bytes = 0;
    for (size_t i = first; i < end; ++i)
      bytes += cs[i].size();
    w.u64(c.dramAddr);
    w.u32(uint32_t(c.replicas.size()));
    for (uint64_t a : c.replicas)
      w.u64(a);
    w.u64(bytes);
    for (size_t i = first; i < end; ++i)
      w.lend(cs[i].data(), cs[i].size());
  }
  return true;
}

/// LAYR payload: the layer table (docs/binary-format.md).
bool writeLayers(Writer &w, const Program &p, std::string &err) {
  if (p.layers.size() > UINT32_MAX)
    return fail(err, "program", "too many layers");
  w.u32(uint32_t(p.layers.size()));
  for (size_t i = 0; i < p.layers.size(); ++i) {
    const LayerInfo &l = p.layers[i];
    std::string where = "layer " + std::to_string(i);
    if (!writeName(w, l.name, where, "name", err) ||
        !writeName(w, l.opKind, where + " op kind", "name", err))
      return false;
    w.u64(l.macs);
    w.u64(l.compulsoryBytes);
    w.u64(l.weightBytes);
    if (l.fused.size() > UINT32_MAX)
      return fail(err, where, "too many fused operators");
    w.u32(uint32_t(l.fused.size()));
    for (const std::string &f : l.fused)
      if (!writeName(w, f, where + " fused operator", "name", err))
        return false;
  }
  return true;
}

/// RECUR payload (docs/binary-format.md): tag, thread, cell, flags, six
/// u32 sizes, clip, three (activation, alpha, beta), the weight address
/// (u64) and eight u32 storage addresses.
bool writeRecur(Writer &w, const RecurDesc &r, const std::string &where,
                std::string &err) {
  if (unsigned(r.cell) > unsigned(RecurCell::Lstm))
    return fail(err, where,
                "invalid RECUR cell " + std::to_string(unsigned(r.cell)));
  for (RecurAct a : r.act)
    if (unsigned(a) >= kRecurActs)
      return fail(err, where,
                  "invalid RECUR activation " + std::to_string(unsigned(a)));
  w.u8(kPacketRecur);
  w.u8(r.tag);
  w.u8(r.thread);
  w.u8(uint8_t(r.cell));
  w.u8(uint8_t(r.reverse | r.linearBeforeReset << 1 | r.inputForget << 2 |
               r.peephole << 3 | r.hasClip << 4 | r.weightsInDram << 5 |
               r.hasSeqLen << 6));
  for (uint32_t v : {r.hidden, r.inputs, r.steps, r.ep, r.vp, r.candidateVp})
    w.u32(v);
  w.f32(r.clip);
  for (int i = 0; i < 3; ++i) {
    w.u8(uint8_t(r.act[i]));
    w.f32(r.alpha[i]);
    w.f32(r.beta[i]);
  }
  w.u64(r.weights);
  for (uint32_t a :
       {r.bias, r.peepholes, r.x, r.h0, r.c0, r.y, r.hT, r.cT, r.seqLen})
    w.u32(a);
  w.u64(r.arrival);
  return true;
}

bool writeCommand(Writer &w, const Command &c, const std::string &where,
                  std::string &err) {
  std::string e;
  w.u32(c.layer); // Command::kNoLayer = no layer
  switch (c.kind) {
  case CommandKind::Config:
  case CommandKind::Execute: {
    uint8_t byte;
    if (!encodeCommand(c, byte, e))
      return fail(err, where, e);
    w.u8(byte);
    if (c.kind == CommandKind::Config) {
      if (c.instrs.size() > UINT32_MAX)
        return fail(err, where, "too many instructions");
      w.u32(uint32_t(c.instrs.size()));
      for (size_t i = 0; i < c.instrs.size(); ++i) {
        const Instruction &in = c.instrs[i];
        uint16_t word;
        if (!encodeInstruction(in.fields, word, e))
          return fail(err, where + " instruction " + std::to_string(i), e);
        const OperandRecord &r = in.operands;
        if (unsigned(r.queueMode) > unsigned(QueueMode::SW))
          return fail(err, where + " instruction " + std::to_string(i),
                      "invalid queue mode " +
                          std::to_string(unsigned(r.queueMode)));
        if (!isValidSfuFunc(uint8_t(r.func)))
          return fail(err, where + " instruction " + std::to_string(i),
                      "invalid SFU function " +
                          std::to_string(unsigned(r.func)));
        w.u16(word);
        w.u32(r.addr);
        w.u32(r.rows);
        w.u32(r.cols);
        w.i32(r.rowStride);
        w.i32(r.colStride);
        w.u32(r.peRows);
        w.u32(r.depth);
        w.u32(r.repeat);
        if (r.pipeline != Pipeline::IdFo && r.pipeline != Pipeline::IdFoSuWb)
          return fail(err, where + " instruction " + std::to_string(i),
                      "invalid pipeline type " +
                          std::to_string(unsigned(r.pipeline)));
        if (r.peAddrs.size() > UINT16_MAX)
          return fail(err, where + " instruction " + std::to_string(i),
                      "too many per-PE addresses");
        w.u8(uint8_t(r.queueMode));
        w.u8(uint8_t(r.func));
        w.u16(0);
        w.f32(r.imm);
        w.u32(r.base);
        w.i32(r.step);
        w.u8(uint8_t(r.pipeline));
        w.u8(r.acrossPes ? 1 : 0);
        w.u16(uint16_t(r.peAddrs.size()));
        for (uint32_t a : r.peAddrs)
          w.u32(a);
      }
    } else {
      if (c.patches.size() > UINT32_MAX)
        return fail(err, where, "too many patches");
      w.u32(uint32_t(c.patches.size()));
      for (size_t i = 0; i < c.patches.size(); ++i) {
        const RegPatch &p = c.patches[i];
        if (unsigned(p.field) > unsigned(PatchField::Base))
          return fail(err, where + " patch " + std::to_string(i),
                      "invalid patch field " +
                          std::to_string(unsigned(p.field)));
        w.u8(p.instr);
        w.u8(uint8_t(p.field));
        w.u32(p.value);
      }
    }
    return true;
  }
  case CommandKind::Dma: {
    const DmaDesc &d = c.dma;
    if (unsigned(d.dir) > unsigned(DmaDir::LocalCopy))
      return fail(err, where,
                  "invalid DMA direction " + std::to_string(unsigned(d.dir)));
    if (d.dir != DmaDir::RemoteLoad && d.srcCluster != 0)
      return fail(err, where,
                  std::string("a ") + dmaDirName(d.dir) +
                      " DMA has no source cluster (srcCluster " +
                      std::to_string(d.srcCluster) + ")");
    w.u8(kPacketDma);
    w.u8(uint8_t(d.dir));
    w.u8(d.tag);
    w.u16(0);
    w.u32(d.elemBytes);
    w.u64(d.src);
    w.u64(d.dst);
    for (int i = 0; i < 4; ++i)
      w.u32(d.shape[i]);
    for (int i = 0; i < 4; ++i)
      w.i64(d.srcStride[i]);
    for (int i = 0; i < 4; ++i)
      w.i64(d.dstStride[i]);
    w.u32(d.srcCluster);
    return true;
  }
  case CommandKind::Wait:
    w.u8(kPacketWait);
    w.u8(c.waitTags);
    w.u8(c.waitPe ? 1 : 0);
    return true;
  case CommandKind::Barrier:
    w.u8(kPacketBarrier);
    w.u32(c.barrierId);
    return true;
  case CommandKind::Send:
    w.u8(kPacketSend);
    w.u8(c.mesh->tag);
    w.u32(c.mesh->src);
    w.u32(c.mesh->dst);
    w.u32(c.mesh->bytes);
    return writeTargets(w, c.mesh, where, err);
  case CommandKind::Signal:
    w.u8(kPacketSignal);
    return writeTargets(w, c.mesh, where, err);
  case CommandKind::Recv:
    w.u8(kPacketRecv);
    w.u32(c.sem);
    w.u32(c.count);
    return true;
  case CommandKind::Recur:
    return writeRecur(w, c.recur, where, err);
  }
  return fail(err, where,
              "invalid command kind " + std::to_string(unsigned(c.kind)));
}

/// Encodes `p` into `w`, the constants' data lent (Writer::lend).
bool encode(const Program &p, Writer &w, std::string &err) {
  size_t commands = 0;
  for (const ClusterStream &s : p.clusters)
    commands += s.commands.size();
  w.buf.reserve(kBinaryHeaderBytes + 64 * commands + 4096);
  // Header (docs/binary-format.md); sizes and CRC are patched at the end.
  w.bytes(kBinaryMagic, 8);
  w.u32(Program::kFormatVersion);
  w.u32(uint32_t(kBinaryHeaderBytes));
  w.u64(p.hwFingerprint);
  w.u32(p.gridRows);
  w.u32(p.gridCols);
  w.u64(p.dramSize);
  w.u64(0); // total bytes
  uint64_t numClusters = uint64_t(p.gridRows) * p.gridCols;
  if (p.clusters.size() != numClusters)
    return fail(err, "program",
                "has " + std::to_string(p.clusters.size()) +
                    " cluster streams but the grid is " +
                    std::to_string(p.gridRows) + "x" +
                    std::to_string(p.gridCols));
  if (numClusters + kNumFixedSections > UINT32_MAX)
    return fail(err, "program", "too many clusters");
  w.u32(uint32_t(numClusters + kNumFixedSections));
  w.u32(0); // CRC
  w.u64(0); // reserved

  OpenSection at = beginSection(w, kSectionSymbols, 0);
  w.u32(uint32_t(p.symbols.size()));
  for (size_t i = 0; i < p.symbols.size(); ++i) {
    const Symbol &s = p.symbols[i];
    std::string where = "symbol " + std::to_string(i);
    if (s.shape.size() > UINT16_MAX)
      return fail(err, where, "rank larger than 65535");
    if (unsigned(s.dtype) > unsigned(kLastDType))
      return fail(err, where, "invalid dtype");
    if (!writeName(w, s.name, where, "name", err))
      return false;
    w.u8(s.isInput ? 0 : 1);
    w.u8(uint8_t(s.dtype));
    w.u16(uint16_t(s.shape.size()));
    w.u64(s.dramAddr);
    for (int64_t d : s.shape)
      w.i64(d);
    if (s.pieces.size() > UINT32_MAX)
      return fail(err, where, "too many DRAM pieces");
    w.u32(uint32_t(s.pieces.size()));
    for (const DramPiece &pc : s.pieces) {
      w.u64(pc.offset);
      w.u64(pc.bytes);
      w.u64(pc.dramAddr);
    }
  }
  endSection(w, at);

  at = beginSection(w, kSectionConstants, 0);
  if (!writeConstants(w, p, err))
    return false;
  endSection(w, at);

  at = beginSection(w, kSectionPackets, 0);
  if (!writePackets(w, p, err))
    return false;
  endSection(w, at);

  at = beginSection(w, kSectionLayers, 0);
  if (!writeLayers(w, p, err))
    return false;
  endSection(w, at);

  for (size_t ci = 0; ci < p.clusters.size(); ++ci) {
    const ClusterStream &s = p.clusters[ci];
    at = beginSection(w, kSectionStream, uint32_t(ci));
    w.u32(uint32_t(s.commands.size()));
    for (size_t k = 0; k < s.commands.size(); ++k)
      if (!writeCommand(w, s.commands[k],
                        "cluster " + std::to_string(ci) + " command " +
                            std::to_string(k),
                        err))
        return false;
    endSection(w, at);
  }

  w.patch64(40, w.pos());
  // The checksum covers everything after the header, lent pieces included.
  uint32_t crc = 0;
  size_t skip = kBinaryHeaderBytes;
  w.forEachPiece([&](const uint8_t *d, size_t n) {
    size_t drop = std::min(skip, n);
    skip -= drop;
    crc = crc32Update(crc, d + drop, n - drop);
    return true;
  });
  w.patch32(kBinaryChecksumOffset, crc);
  return true;
}
} // namespace

bool writeBinaryTo(const Program &p,
                   const std::function<bool(const uint8_t *, size_t)> &sink,
                   std::string &err) {
  Writer w;
  if (!encode(p, w, err))
    return false;
  return w.forEachPiece(sink);
}

bool writeBinary(const Program &p, std::vector<uint8_t> &out,
                 std::string &err) {
  Writer w;
  if (!encode(p, w, err))
    return false;
  out.clear();
  out.reserve(w.pos());
  w.forEachPiece([&](const uint8_t *d, size_t n) {
    out.insert(out.end(), d, d + n);
    return true;
  });
  return true;
}

std::vector<uint8_t> writeBinary(const Program &p) {
  std::vector<uint8_t> out;
  std::string err;
  if (!writeBinary(p, out, err))
    return {};
  return out;
}

bool writeBinaryFile(const std::string &path, const Program &p,
                     std::string &err) {
  std::ofstream f(path, std::ios::binary | std::ios::trunc);
  if (!f) {
    err = "cannot open '" + path + "' for writing";
    return false;
  }
  bool ok = writeBinaryTo(
      p,
      [&](const uint8_t *d, size_t n) {
        f.write(reinterpret_cast<const char *>(d), std::streamsize(n));
        return bool(f);
      },
      err);
  if (ok && !f.flush())
    ok = false;
  if (!ok && err.empty())
    err = "error writing '" + path + "'";
  return ok;
}

} // namespace accel
