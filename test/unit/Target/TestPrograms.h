//===- TestPrograms.h - Programs and comparisons shared by Target tests ---===//
#ifndef ACCEL_TEST_UNIT_TARGET_TESTPROGRAMS_H
#define ACCEL_TEST_UNIT_TARGET_TESTPROGRAMS_H

#include "accel/Target/Program.h"
#include <cmath>
#include <cstring>
#include <sstream>
#include <string>

namespace accel {
namespace target_test {

inline Instruction instr(Opcode op, uint8_t sub, uint8_t slot, uint8_t acc = 0,
                         uint8_t out = 0, bool lb = false, bool sfu = false) {
  Instruction in = makeInstruction(op, sub, slot, acc, OperandRecord{});
  in.fields.outSlot = out;
  in.fields.loadBalance = lb;
  in.fields.sfuActive = sfu;
  return in;
}

/// A DMA of a dense rows x cols f32 tile, row stride `cols` on both sides.
inline Command tileDma(DmaDir dir, uint8_t tag, uint64_t src, uint64_t dst,
                       uint32_t rows, uint32_t cols) {
  return makeDmaRows(dir, tag, src, dst, rows, cols, cols, cols);
}

/// A 2x2 program using every command kind, every instruction kind,
/// non-default values of every record field and two constant packets.
inline Program makeFullProgram() {
  Program p;
  p.hwFingerprint = 0xFEDCBA9876543210ull;
  p.gridRows = 2;
  p.gridCols = 2;
  p.dramSize = 1 << 20;
  p.symbols.push_back({"input0", true, DType::F32, {1, 4}, 0});
  p.symbols.push_back({"out", false, DType::I8, {2, 2, 2}, 64});
  p.symbols.push_back({"scalar", true, DType::BF16, {}, 128});
  p.symbols.push_back({"", false, DType::I32, {0, 3}, 256});
  ConstSegment c0;
  c0.dramAddr = 4096;
  for (int i = 0; i < 16; ++i)
    c0.bytes.push_back(uint8_t(i * 17));
  ConstSegment c1;
  c1.dramAddr = 8192;
  c1.bytes = {1, 2, 3};
  ConstSegment c2; // empty segment
  c2.dramAddr = 9000;
  p.constants = {c0, c1, c2};
  p.clusters.resize(4);

  auto &s = p.clusters[0].commands;
  Command dma;
  dma.kind = CommandKind::Dma;
  dma.dma.dir = DmaDir::Load;
  dma.dma.tag = 3;
  dma.dma.elemBytes = 2;
  dma.dma.src = 4096;
  dma.dma.dst = 1024;
  dma.dma.shape[0] = 2;
  dma.dma.shape[1] = 3;
  dma.dma.shape[2] = 4;
  dma.dma.shape[3] = 5;
  dma.dma.srcStride[0] = 60;
  dma.dma.srcStride[1] = -20;
  dma.dma.srcStride[2] = 5;
  dma.dma.srcStride[3] = 1;
  dma.dma.dstStride[0] = 0;
  dma.dma.dstStride[1] = 20;
  dma.dma.dstStride[2] = 5;
  dma.dma.dstStride[3] = 1;
  s.push_back(dma);
  dma.dma.dir = DmaDir::Store;
  dma.dma.tag = 7;
  s.push_back(dma);
  dma.dma.dir = DmaDir::DramCopy;
  dma.dma.tag = 0;
  dma.dma.elemBytes = 4;
  s.push_back(dma);

  Command wait;
  wait.kind = CommandKind::Wait;
  wait.waitTags = 0x88;
  wait.waitPe = true;
  s.push_back(wait);

  Command cfg;
  cfg.kind = CommandKind::Config;
  cfg.ibuf = 2;
  Instruction ld = instr(Opcode::LD, 0, 4);
  ld.operands.addr = 1024;
  ld.operands.rows = 16;
  ld.operands.cols = 8;
  ld.operands.rowStride = 8;
  ld.operands.peRows = 4;
  ld.operands.pipeline = Pipeline::IdFoSuWb; // issue 5 control-unit fields
  ld.operands.step = -32;
  ld.operands.peAddrs = {1024, 1152, 1280, 1408};
  cfg.instrs.push_back(ld);
  Instruction lds = instr(Opcode::LD, 3, 0); // sparse weights
  lds.operands.addr = 8192;
  lds.operands.rows = 5;
  lds.operands.cols = 4;
  lds.operands.depth = 6;
  cfg.instrs.push_back(lds);
  Instruction ldw = instr(Opcode::LD, 1, 0);
  ldw.operands.addr = 4096;
  ldw.operands.rows = 8;
  ldw.operands.cols = 8;
  ldw.operands.rowStride = -8;
  ldw.operands.colStride = 0;
  ldw.operands.queueMode = QueueMode::RQ;
  cfg.instrs.push_back(ldw);
  Instruction ldp = instr(Opcode::LD, 2, 3);
  cfg.instrs.push_back(ldp);
  Instruction mac = instr(Opcode::MAC, 0, 4, 2, 0, true, true);
  mac.operands.rows = 16;
  mac.operands.cols = 8;
  mac.operands.depth = 8;
  mac.operands.repeat = 3;
  mac.operands.peRows = 4;
  mac.operands.queueMode = QueueMode::SW;
  mac.operands.func = SfuFunc::Relu;
  mac.operands.base = 7;
  mac.operands.step = 2;
  mac.operands.pipeline = Pipeline::IdFoSuWb;
  cfg.instrs.push_back(mac);
  Instruction st = instr(Opcode::ST, 0, 0, 2);
  st.operands.addr = 2048;
  st.operands.rows = 16;
  st.operands.cols = 8;
  st.operands.rowStride = 8;
  st.operands.func = SfuFunc::Scale;
  st.operands.imm = 0.25f;
  cfg.instrs.push_back(st);
  Instruction st2 = instr(Opcode::ST, 1, 15, 3);
  st2.operands.imm = -1.5e-7f;
  cfg.instrs.push_back(st2);
  Instruction spu = instr(Opcode::SPU, 1, 1, 0, 2);
  spu.operands.depth = 3;
  spu.operands.func = SfuFunc::Add;
  cfg.instrs.push_back(spu);
  Instruction spu2 = instr(Opcode::SPU, 3, 15, 0, 14);
  spu2.operands.func = SfuFunc::Min;
  uint32_t nanBits = 0x7FC00123;
  std::memcpy(&spu2.operands.imm, &nanBits, 4);
  cfg.instrs.push_back(spu2);
  s.push_back(cfg);

  Command ex;
  ex.kind = CommandKind::Execute;
  ex.ibuf = 2;
  ex.shift = true;
  ex.last = false;
  ex.patches = {{0, PatchField::Addr, 512},
                {3, PatchField::Depth, 4},
                {4, PatchField::Rows, 8},
                {4, PatchField::Cols, 0xFFFFFFFFu},
                {4, PatchField::Base, 9}};
  s.push_back(ex);
  ex.shift = false;
  ex.last = true;
  ex.patches.clear();
  s.push_back(ex);

  Command bar;
  bar.kind = CommandKind::Barrier;
  bar.barrierId = 0xDEADBEEF;
  s.push_back(bar);

  // Cluster 1: another buffer; cluster 2: only a barrier; cluster 3 empty.
  Command cfg1;
  cfg1.kind = CommandKind::Config;
  cfg1.ibuf = 31;
  cfg1.instrs.push_back(instr(Opcode::SPU, 0, 0, 0, 0));
  Instruction red = instr(Opcode::SPU, 2, 1, 0, 3);
  red.operands.acrossPes = true;
  red.operands.func = SfuFunc::Max;
  cfg1.instrs.push_back(red);
  p.clusters[1].commands.push_back(cfg1);
  Command ex1;
  ex1.kind = CommandKind::Execute;
  ex1.ibuf = 31;
  ex1.shift = ex1.last = true;
  p.clusters[1].commands.push_back(ex1);
  p.clusters[2].commands.push_back(bar);

  // Mesh and semaphore commands (cluster 1), a remote_load (cluster 0, last).
  Command send;
  send.kind = CommandKind::Send;
  send.mesh->targets = {1, 2, 3};
  send.mesh->src = 256;
  send.mesh->dst = 0xFFFFFF00u;
  send.mesh->bytes = 192;
  send.mesh->sem = 4095;
  send.mesh->tag = 6;
  p.clusters[1].commands.push_back(send);
  Command signal;
  signal.kind = CommandKind::Signal;
  signal.mesh->targets = {0};
  signal.mesh->sem = 1;
  p.clusters[1].commands.push_back(signal);
  Command recv;
  recv.kind = CommandKind::Recv;
  recv.sem = 2;
  recv.count = 3;
  p.clusters[1].commands.push_back(recv);
  Command remote = dma;
  remote.dma.dir = DmaDir::RemoteLoad;
  remote.dma.srcCluster = 3;
  remote.dma.tag = 5;
  s.push_back(remote);

  ConstPacket pk;
  pk.cluster = 2;
  pk.core = 3;
  pk.blocks = {{"w", 4096, 8}, {"bias", 4104, 8}};
  pk.markerAddr = 10000;
  pk.marker = {16, 0, 0, 0, 0, 0, 0, 0, 8, 0, 0, 0, 0, 0, 0, 0};
  p.packets.push_back(pk);
  ConstPacket empty; // a core without blocks, marker of odd length
  empty.cluster = 0;
  empty.core = 1;
  empty.markerAddr = 20000;
  empty.marker = {1, 2, 3};
  p.packets.push_back(empty);
  return p;
}

/// A valid program large enough for the parallel paths (over 1 MiB of
/// streams, over 4096 commands): every cluster loads a 64 x 64 tile
/// `loads` times, cluster (0,0) then stores the output.
inline Program makeLargeProgram(const HardwareDesc &hw, int loads = 3000) {
  Program p;
  p.hwFingerprint = hw.fingerprint();
  p.gridRows = hw.rows;
  p.gridCols = hw.cols;
  p.dramSize = 1 << 20;
  p.symbols.push_back({"y", false, DType::F32, {64, 64}, 0});
  p.clusters.resize(hw.numClusters());
  Command dma = tileDma(DmaDir::Load, 1, 0, 0, 64, 64);
  Command wait;
  wait.kind = CommandKind::Wait;
  wait.waitTags = 2;
  for (ClusterStream &cs : p.clusters) {
    for (int i = 0; i < loads; ++i) {
      dma.dma.src = uint64_t(i % 16) * 4;
      cs.commands.push_back(dma);
    }
    cs.commands.push_back(wait);
  }
  Command store = dma;
  store.dma.dir = DmaDir::Store;
  store.dma.src = store.dma.dst = 0;
  p.clusters[0].commands.push_back(store);
  p.clusters[0].commands.push_back(wait);
  return p;
}

/// makeLargeProgram with two bad streams: cluster (0,1)'s command 2000
/// reads outside DRAM, cluster (1,1)'s command 10 uses a tag that does not
/// exist; the first in cluster order is (0,1)'s.
inline Program makeTwoBadStreams(const HardwareDesc &hw) {
  Program p = makeLargeProgram(hw);
  p.clusters[1].commands[2000].dma.src = p.dramSize; // outside DRAM
  p.clusters[3].commands[10].dma.tag = 9;            // no such tag
  return p;
}

/// makeLargeProgram where cluster (0,1) lacks the barrier the others end
/// with, and cluster (1,1)'s command 5 uses a tag that does not exist: the
/// barrier mismatch comes first in cluster order.
inline Program makeBarrierMismatch(const HardwareDesc &hw) {
  Program p = makeLargeProgram(hw);
  Command barrier;
  barrier.kind = CommandKind::Barrier;
  barrier.barrierId = 7;
  p.clusters[0].commands.push_back(barrier);
  p.clusters[2].commands.push_back(barrier);
  p.clusters[3].commands.push_back(barrier);
  p.clusters[3].commands[5].dma.tag = 9;
  return p;
}

/// makeFullProgram with its input cut into DRAM pieces (two copies of the
/// first half, one of the second), its 4-element output in two pieces and
/// the first constant segment replicated twice: the layout of a tensor
/// placed on several memory channels.
inline Program makePiecedProgram() {
  Program p = makeFullProgram();
  Symbol &in = p.symbols[0]; // f32 [1, 4]: 16 bytes
  in.dramAddr = 512;
  in.pieces = {{0, 8, 512}, {0, 8, 768}, {8, 8, 1024}};
  Symbol &out = p.symbols[1]; // i8 [2, 2, 2]: 8 bytes
  out.pieces = {{0, 4, 64}, {4, 4, 1536}};
  p.constants[0].replicas = {12288, 16384};
  return p;
}

/// Appends a constant segment at the end of `p`'s DRAM that borrows
/// `weights` (filled with a byte pattern of `bytes` bytes first): the large
/// weights the compiler leaves in their attributes. `weights` must outlive
/// `p`.
inline void addBorrowedConstant(Program &p, std::vector<uint8_t> &weights,
                                size_t bytes) {
  weights.resize(bytes);
  for (size_t i = 0; i < bytes; ++i)
    weights[i] = uint8_t(i * 13 + 1);
  ConstSegment big;
  big.dramAddr = p.dramSize;
  big.borrowed = weights.data();
  big.borrowedSize = weights.size();
  p.dramSize += weights.size();
  p.constants.push_back(big);
}

/// Field-by-field comparison; returns "" when equal, else the first
/// difference.
/// makeFullProgram with a layer table (names, kinds, counts, fused
/// operators, one without any) and a layer id on every command but one.
inline Program makeLayeredProgram() {
  Program p = makeFullProgram();
  LayerInfo conv;
  conv.name = "/backbone/conv1/Conv";
  conv.opKind = "Conv";
  conv.macs = 118013952;
  conv.compulsoryBytes = 639232;
  conv.weightBytes = 37632;
  conv.fused = {"bn1", "relu1"};
  LayerInfo empty; // no name, kind or counts
  LayerInfo fc;
  fc.name = "fc";
  fc.opKind = "Gemm";
  fc.macs = 1ull << 40;
  fc.compulsoryBytes = fc.weightBytes = 4096;
  p.layers = {conv, empty, fc};
  uint32_t next = 0;
  for (ClusterStream &s : p.clusters)
    for (Command &c : s.commands)
      c.layer = next++ % 3;
  p.clusters[0].commands[1].layer = Command::kNoLayer;
  return p;
}

/// A constant segment's bytes, owned or borrowed (readBinaryFile).
inline std::vector<uint8_t> constantBytes(const ConstSegment &c) {
  return std::vector<uint8_t>(c.data(), c.data() + c.size());
}

inline std::string diffPrograms(const Program &a, const Program &b) {
  std::ostringstream os;
#define CHECK_EQ_FIELD(x, y, name)                                             \
  if (!((x) == (y))) {                                                         \
    os << name;                                                                \
    return os.str();                                                           \
  }
  CHECK_EQ_FIELD(a.hwFingerprint, b.hwFingerprint, "hwFingerprint");
  CHECK_EQ_FIELD(a.gridRows, b.gridRows, "gridRows");
  CHECK_EQ_FIELD(a.gridCols, b.gridCols, "gridCols");
  CHECK_EQ_FIELD(a.dramSize, b.dramSize, "dramSize");
  CHECK_EQ_FIELD(a.symbols.size(), b.symbols.size(), "symbol count");
  for (size_t i = 0; i < a.symbols.size(); ++i) {
    const Symbol &x = a.symbols[i], &y = b.symbols[i];
    CHECK_EQ_FIELD(x.name, y.name, "symbol name " << i);
    CHECK_EQ_FIELD(x.isInput, y.isInput, "symbol isInput " << i);
    CHECK_EQ_FIELD(x.dtype, y.dtype, "symbol dtype " << i);
    CHECK_EQ_FIELD(x.shape, y.shape, "symbol shape " << i);
    CHECK_EQ_FIELD(x.dramAddr, y.dramAddr, "symbol addr " << i);
    CHECK_EQ_FIELD(x.pieces, y.pieces, "symbol pieces " << i);
  }
  CHECK_EQ_FIELD(a.constants.size(), b.constants.size(), "constant count");
  for (size_t i = 0; i < a.constants.size(); ++i) {
    CHECK_EQ_FIELD(a.constants[i].dramAddr, b.constants[i].dramAddr,
                   "constant addr " << i);
    CHECK_EQ_FIELD(constantBytes(a.constants[i]), constantBytes(b.constants[i]),
                   "constant bytes " << i);
    CHECK_EQ_FIELD(a.constants[i].replicas, b.constants[i].replicas,
                   "constant replicas " << i);
  }
  CHECK_EQ_FIELD(a.packets.size(), b.packets.size(), "packet count");
  for (size_t i = 0; i < a.packets.size(); ++i) {
    const ConstPacket &x = a.packets[i], &y = b.packets[i];
    CHECK_EQ_FIELD(x.cluster, y.cluster, "packet cluster " << i);
    CHECK_EQ_FIELD(x.core, y.core, "packet core " << i);
    CHECK_EQ_FIELD(x.markerAddr, y.markerAddr, "packet marker addr " << i);
    CHECK_EQ_FIELD(x.marker, y.marker, "packet marker " << i);
    CHECK_EQ_FIELD(x.blocks.size(), y.blocks.size(), "packet blocks " << i);
    for (size_t j = 0; j < x.blocks.size(); ++j) {
      CHECK_EQ_FIELD(x.blocks[j].name, y.blocks[j].name, "block name " << j);
      CHECK_EQ_FIELD(x.blocks[j].dramAddr, y.blocks[j].dramAddr,
                     "block addr " << j);
      CHECK_EQ_FIELD(x.blocks[j].bytes, y.blocks[j].bytes, "block bytes " << j);
    }
  }
  CHECK_EQ_FIELD(a.layers.size(), b.layers.size(), "layer count");
  for (size_t i = 0; i < a.layers.size(); ++i) {
    const LayerInfo &x = a.layers[i], &y = b.layers[i];
    CHECK_EQ_FIELD(x.name, y.name, "layer name " << i);
    CHECK_EQ_FIELD(x.opKind, y.opKind, "layer op kind " << i);
    CHECK_EQ_FIELD(x.macs, y.macs, "layer macs " << i);
    CHECK_EQ_FIELD(x.compulsoryBytes, y.compulsoryBytes,
                   "layer compulsory bytes " << i);
    CHECK_EQ_FIELD(x.weightBytes, y.weightBytes, "layer weight bytes " << i);
    CHECK_EQ_FIELD(x.fused, y.fused, "layer fused " << i);
  }
  CHECK_EQ_FIELD(a.clusters.size(), b.clusters.size(), "cluster count");
  for (size_t ci = 0; ci < a.clusters.size(); ++ci) {
    const auto &x = a.clusters[ci].commands, &y = b.clusters[ci].commands;
    CHECK_EQ_FIELD(x.size(), y.size(), "command count of cluster " << ci);
    for (size_t k = 0; k < x.size(); ++k) {
      const Command &c = x[k], &d = y[k];
      std::string at = "cluster " + std::to_string(ci) + " command " +
                       std::to_string(k) + " ";
      CHECK_EQ_FIELD(c.kind, d.kind, at << "kind");
      CHECK_EQ_FIELD(c.layer, d.layer, at << "layer");
      switch (c.kind) {
      case CommandKind::Config:
      case CommandKind::Execute:
        CHECK_EQ_FIELD(c.ibuf, d.ibuf, at << "ibuf");
        CHECK_EQ_FIELD(c.shift, d.shift, at << "shift");
        CHECK_EQ_FIELD(c.last, d.last, at << "last");
        CHECK_EQ_FIELD(c.instrs.size(), d.instrs.size(), at << "instr count");
        for (size_t i = 0; i < c.instrs.size(); ++i) {
          const InstrFields &f = c.instrs[i].fields, &g = d.instrs[i].fields;
          CHECK_EQ_FIELD(f.op, g.op, at << "instr " << i << " op");
          CHECK_EQ_FIELD(f.sub, g.sub, at << "instr " << i << " sub");
          CHECK_EQ_FIELD(f.slot, g.slot, at << "instr " << i << " slot");
          CHECK_EQ_FIELD(f.accId, g.accId, at << "instr " << i << " acc");
          CHECK_EQ_FIELD(f.outSlot, g.outSlot, at << "instr " << i << " out");
          CHECK_EQ_FIELD(f.loadBalance, g.loadBalance, at << "instr " << i);
          CHECK_EQ_FIELD(f.sfuActive, g.sfuActive, at << "instr " << i);
          CHECK_EQ_FIELD(c.instrs[i].operands, d.instrs[i].operands,
                         at << "instr " << i << " operands");
        }
        CHECK_EQ_FIELD(c.patches.size(), d.patches.size(), at << "patches");
        for (size_t i = 0; i < c.patches.size(); ++i) {
          CHECK_EQ_FIELD(c.patches[i].instr, d.patches[i].instr, at << "patch");
          CHECK_EQ_FIELD(c.patches[i].field, d.patches[i].field, at << "patch");
          CHECK_EQ_FIELD(c.patches[i].value, d.patches[i].value, at << "patch");
        }
        break;
      case CommandKind::Dma:
        CHECK_EQ_FIELD(c.dma.dir, d.dma.dir, at << "dir");
        CHECK_EQ_FIELD(c.dma.tag, d.dma.tag, at << "tag");
        CHECK_EQ_FIELD(c.dma.elemBytes, d.dma.elemBytes, at << "elemBytes");
        CHECK_EQ_FIELD(c.dma.src, d.dma.src, at << "src");
        CHECK_EQ_FIELD(c.dma.dst, d.dma.dst, at << "dst");
        CHECK_EQ_FIELD(c.dma.srcCluster, d.dma.srcCluster, at << "srcCluster");
        for (int i = 0; i < 4; ++i) {
          CHECK_EQ_FIELD(c.dma.shape[i], d.dma.shape[i], at << "shape");
          CHECK_EQ_FIELD(c.dma.srcStride[i], d.dma.srcStride[i], at << "ss");
          CHECK_EQ_FIELD(c.dma.dstStride[i], d.dma.dstStride[i], at << "ds");
        }
        break;
      case CommandKind::Wait:
        CHECK_EQ_FIELD(c.waitTags, d.waitTags, at << "waitTags");
        CHECK_EQ_FIELD(c.waitPe, d.waitPe, at << "waitPe");
        break;
      case CommandKind::Barrier:
        CHECK_EQ_FIELD(c.barrierId, d.barrierId, at << "barrierId");
        break;
      case CommandKind::Send:
        CHECK_EQ_FIELD(c.mesh->src, d.mesh->src, at << "mesh src");
        CHECK_EQ_FIELD(c.mesh->dst, d.mesh->dst, at << "mesh dst");
        CHECK_EQ_FIELD(c.mesh->bytes, d.mesh->bytes, at << "mesh bytes");
        CHECK_EQ_FIELD(c.mesh->tag, d.mesh->tag, at << "mesh tag");
        [[fallthrough]];
      case CommandKind::Signal:
        CHECK_EQ_FIELD(c.mesh->targets, d.mesh->targets, at << "targets");
        CHECK_EQ_FIELD(c.mesh->sem, d.mesh->sem, at << "mesh sem");
        break;
      case CommandKind::Recv:
        CHECK_EQ_FIELD(c.sem, d.sem, at << "recv sem");
        CHECK_EQ_FIELD(c.count, d.count, at << "recv count");
        break;
      case CommandKind::Recur: {
        const RecurDesc &r = c.recur, &q = d.recur;
        CHECK_EQ_FIELD(int(r.cell), int(q.cell), at << "recur cell");
        CHECK_EQ_FIELD(r.thread, q.thread, at << "recur thread");
        CHECK_EQ_FIELD(r.tag, q.tag, at << "recur tag");
        CHECK_EQ_FIELD(r.steps, q.steps, at << "recur steps");
        CHECK_EQ_FIELD(r.ep, q.ep, at << "recur ep");
        CHECK_EQ_FIELD(r.vp, q.vp, at << "recur vp");
        CHECK_EQ_FIELD(r.weights, q.weights, at << "recur weights");
        CHECK_EQ_FIELD(r.y, q.y, at << "recur y");
        CHECK_EQ_FIELD(r.arrival, q.arrival, at << "recur arrival");
        break;
      }
      }
    }
  }
#undef CHECK_EQ_FIELD
  return "";
}

} // namespace target_test
} // namespace accel

#endif
