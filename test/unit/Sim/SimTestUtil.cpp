//===- SimTestUtil.cpp ----------------------------------------------------===//
#include "SimTestUtil.h"
#include <cstring>

#include <cmath>

namespace accel::test {

Program makeProgram(const HardwareDesc &hw, uint64_t dramSize) {
  Program p;
  p.hwFingerprint = hw.fingerprint();
  p.gridRows = hw.rows;
  p.gridCols = hw.cols;
  p.dramSize = dramSize;
  p.clusters.resize(hw.numClusters());
  return p;
}

OperandRecord rec(uint32_t addr, uint32_t rows, uint32_t cols,
                  int32_t rowStride, int32_t colStride, uint32_t peRows,
                  uint32_t depth) {
  OperandRecord r;
  r.addr = addr;
  r.rows = rows;
  r.cols = cols;
  r.rowStride = rowStride;
  r.colStride = colStride;
  r.peRows = peRows;
  r.depth = depth;
  return r;
}

static Instruction instr(Opcode op, uint8_t sub, OperandRecord r) {
  return makeInstruction(op, sub, 0, 0, r);
}

Instruction ldActs(uint8_t slot, OperandRecord r) {
  Instruction in = instr(Opcode::LD, uint8_t(LoadStream::Activations), r);
  in.fields.slot = slot;
  return in;
}
Instruction ldWeights(OperandRecord r) {
  return instr(Opcode::LD, uint8_t(LoadStream::Weights), r);
}
Instruction ldPsums(uint8_t acc, OperandRecord r) {
  Instruction in = instr(Opcode::LD, uint8_t(LoadStream::PartialSums), r);
  in.fields.slot = acc;
  return in;
}
Instruction mac(uint8_t slot, uint8_t acc, OperandRecord r) {
  Instruction in = instr(Opcode::MAC, 0, r);
  in.fields.slot = slot;
  in.fields.accId = acc;
  return in;
}
Instruction stAcc(uint8_t acc, OperandRecord r, SfuFunc f) {
  r.func = f;
  Instruction in = instr(Opcode::ST, uint8_t(StoreSource::AccBuffer), r);
  in.fields.accId = acc;
  return in;
}
Instruction stInbuf(uint8_t slot, OperandRecord r, SfuFunc f) {
  r.func = f;
  Instruction in = instr(Opcode::ST, uint8_t(StoreSource::InputBuffer), r);
  in.fields.slot = slot;
  return in;
}
Instruction spu(SpuType type, uint8_t inSlot, uint8_t outSlot, OperandRecord r,
                SfuFunc f, float imm) {
  r.func = f;
  r.imm = imm;
  Instruction in = instr(Opcode::SPU, uint8_t(type), r);
  in.fields.slot = inSlot;
  in.fields.outSlot = outSlot;
  return in;
}

Command config(uint8_t ibuf, std::vector<Instruction> instrs) {
  Command c;
  c.kind = CommandKind::Config;
  c.ibuf = ibuf;
  c.instrs = std::move(instrs);
  return c;
}
Command execute(uint8_t ibuf, bool shift, bool last,
                std::vector<RegPatch> patches) {
  Command c;
  c.kind = CommandKind::Execute;
  c.ibuf = ibuf;
  c.shift = shift;
  c.last = last;
  c.patches = std::move(patches);
  return c;
}
Command dma(DmaDir dir, uint8_t tag, uint64_t src, uint64_t dst,
            std::array<uint32_t, 4> shape, std::array<int64_t, 4> srcStride,
            std::array<int64_t, 4> dstStride) {
  Command c = makeDma(dir, tag, src, dst);
  for (int i = 0; i < 4; ++i) {
    c.dma.shape[i] = shape[i];
    c.dma.srcStride[i] = srcStride[i];
    c.dma.dstStride[i] = dstStride[i];
  }
  return c;
}
Command dma2d(DmaDir dir, uint8_t tag, uint64_t src, uint64_t dst,
              uint32_t rows, uint32_t cols, int64_t srcRowStride,
              int64_t dstRowStride) {
  return makeDmaRows(dir, tag, src, dst, rows, cols, srcRowStride,
                     dstRowStride);
}
Command waitCmd(uint8_t tags, bool pe) {
  Command c;
  c.kind = CommandKind::Wait;
  c.waitTags = tags;
  c.waitPe = pe;
  return c;
}
std::vector<Command> tileMatmul(uint32_t M, uint32_t K, uint32_t N,
                                uint64_t xAddr, uint64_t wAddr,
                                uint32_t wStorage, uint32_t yStorage) {
  return {dma2d(DmaDir::Load, 0, xAddr, 0, M, K, K, K),
          dma2d(DmaDir::Load, 0, wAddr, wStorage, K, N, N, N),
          waitCmd(1),
          config(0, {ldActs(0, rec(0, M, K, K, 1, 2)),
                     ldWeights(rec(wStorage, K, N, N)),
                     mac(0, 0, rec(0, M, N, 0, 1, 2, K)),
                     stAcc(0, rec(yStorage, M, N, N, 1, 2))}),
          execute(0, true, true),
          waitCmd(0, true)};
}
Command barrier(uint32_t id) {
  Command c;
  c.kind = CommandKind::Barrier;
  c.barrierId = id;
  return c;
}

Command sendCmd(std::vector<uint32_t> targets, uint32_t src, uint32_t dst,
                uint32_t bytes, uint32_t sem, uint8_t tag) {
  Command c;
  c.kind = CommandKind::Send;
  c.mesh->targets = std::move(targets);
  c.mesh->src = src;
  c.mesh->dst = dst;
  c.mesh->bytes = bytes;
  c.mesh->sem = sem;
  c.mesh->tag = tag;
  return c;
}

Command signalCmd(std::vector<uint32_t> targets, uint32_t sem) {
  Command c;
  c.kind = CommandKind::Signal;
  c.mesh->targets = std::move(targets);
  c.mesh->sem = sem;
  return c;
}

Command recvCmd(uint32_t sem, uint32_t count) {
  Command c;
  c.kind = CommandKind::Recv;
  c.sem = sem;
  c.count = count;
  return c;
}

Command remoteLoad(uint8_t tag, uint32_t fromCluster, uint64_t src,
                   uint64_t dst, uint32_t rows, uint32_t cols) {
  Command c = dma2d(DmaDir::RemoteLoad, tag, src, dst, rows, cols, cols, cols);
  c.dma.srcCluster = fromCluster;
  return c;
}

Symbol sym(const std::string &name, bool input, std::vector<int64_t> shape,
           uint64_t addr) {
  Symbol s;
  s.name = name;
  s.isInput = input;
  s.shape = std::move(shape);
  s.dramAddr = addr;
  return s;
}

bool simulateStrict(const Program &prog, const HardwareDesc &hw,
                    const std::map<std::string, Tensor> &in,
                    std::map<std::string, Tensor> &out, std::string &err,
                    SimStats *stats) {
  SimOptions strict;
  strict.hazardsAreErrors = true;
  SimStats local;
  return simulate(prog, hw, in, strict, out, stats ? *stats : local, err);
}

std::vector<uint8_t> bytesOf(const std::vector<float> &v) {
  std::vector<uint8_t> b(v.size() * 4);
  std::memcpy(b.data(), v.data(), b.size());
  return b;
}

std::vector<float> pattern(size_t n, unsigned seed) {
  std::vector<float> v(n);
  uint32_t x = 2463534242u ^ (seed * 2654435761u);
  for (size_t i = 0; i < n; ++i) {
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    v[i] = float(int(x % 2001) - 1000) / 1000.0f;
  }
  return v;
}

Tensor tensor(std::vector<int64_t> shape, unsigned seed) {
  Tensor t;
  t.shape = std::move(shape);
  t.data = pattern(t.numElements(), seed);
  return t;
}

std::vector<float> matmul(const std::vector<float> &a,
                          const std::vector<float> &b, size_t m, size_t k,
                          size_t n) {
  std::vector<float> c(m * n, 0.0f);
  for (size_t i = 0; i < m; ++i)
    for (size_t j = 0; j < n; ++j) {
      double s = 0;
      for (size_t q = 0; q < k; ++q)
        s += double(a[i * k + q]) * b[q * n + j];
      c[i * n + j] = float(s);
    }
  return c;
}

HardwareDesc tinyHardware(uint32_t rows, uint32_t cols) {
  HardwareDesc hw;
  hw.name = "tiny";
  hw.rows = rows;
  hw.cols = cols;
  hw.pesPerCluster = 2;
  hw.macLanes = 8;
  hw.rnnEpMax = 8; // an adder tree spans at most one PE's lanes
  hw.sfuLanes = 4;
  hw.storageBytes = 64 * 1024;
  hw.storageBytesPerCycle = 16;
  hw.actLoadBytesPerCycle = 16;
  hw.weightLoadBytesPerCycle = 8;
  hw.inputBufferBytes = 16 * 1024;
  hw.weightQueueBytes = 16 * 1024;
  hw.accBufferBytes = 4 * 1024;
  hw.macPipelineLatency = 4;
  hw.sfuLatency = 8;
  hw.commandIssueCycles = 1;
  hw.barrierLatency = 20;
  // One DMA in flight at a time (latency held), as every hand-computed
  // number of these tests assumes; SimTiming.DmaPipelinedChannel covers
  // the request window.
  hw.channels = {MemoryChannel{16, 10, 1}};
  hw.dramBytes = 1 << 20;
  return hw;
}

std::string run(const Program &p, const HardwareDesc &hw,
                const std::map<std::string, Tensor> &in,
                std::map<std::string, Tensor> &out, SimStats &stats,
                const SimOptions &opts) {
  std::string err;
  if (!simulate(p, hw, in, opts, out, stats, err))
    return err.empty() ? "<failed without message>" : err;
  return "";
}

} // namespace accel::test
