//===- LayerProgram.cpp - GEMM layer programs -----------------------------===//
#include "LayerProgram.h"
#include "accel/Target/SparseWeights.h"
#include <cstring>

namespace accel::bench {

namespace {
constexpr uint32_t kAAddr = 0, kWAddr = 65536, kCAddr = 131072;

OperandRecord rec(uint32_t addr, uint32_t rows, uint32_t cols,
                  int32_t rowStride, uint32_t peRows = 0, uint32_t depth = 0) {
  OperandRecord r;
  r.addr = addr;
  r.rows = rows;
  r.cols = cols;
  r.rowStride = rowStride;
  r.peRows = peRows;
  r.depth = depth;
  return r;
}

Instruction instr(Opcode op, uint8_t sub, OperandRecord r) {
  return makeInstruction(op, sub, 0, 0, r);
}

Command wait(uint8_t tags, bool pe) {
  Command c;
  c.kind = CommandKind::Wait;
  c.waitTags = tags;
  c.waitPe = pe;
  return c;
}
} // namespace

bool buildLayerProgram(const HardwareDesc &hw, const Layer &l,
                       const std::vector<float> &W, const LayerOptions &o,
                       Program &p, std::string &err) {
  const uint32_t P = hw.pesPerCluster;
  if (l.M % l.Mt || l.K % l.Kt || l.N % l.Nt || l.Mt % P) {
    err = l.name + ": tiles must divide the layer and Mt the PE count";
    return false;
  }
  const uint32_t peRows = l.Mt / P;
  const uint64_t aBytes = uint64_t(l.M) * l.K * 4,
                 cBytes = uint64_t(l.M) * l.N * 4;
  p = Program();
  p.hwFingerprint = hw.fingerprint();
  p.gridRows = hw.rows;
  p.gridCols = hw.cols;
  p.clusters.resize(hw.numClusters());
  const uint64_t aDram = 0, cDram = aBytes, wDram = aBytes + cBytes;

  // Weights: dense K x N, or one sparse list per (k tile, n tile).
  ConstSegment w;
  w.dramAddr = wDram;
  std::vector<uint64_t> listAddr, listPairs;
  if (!o.sparseWeights) {
    w.bytes.resize(W.size() * 4);
    std::memcpy(w.bytes.data(), W.data(), w.bytes.size());
  } else {
    for (uint32_t k0 = 0; k0 < l.K; k0 += l.Kt)
      for (uint32_t n0 = 0; n0 < l.N; n0 += l.Nt) {
        std::vector<SparsePair> pairs;
        std::vector<uint8_t> bytes;
        if (!encodeSparseTile(W.data() + uint64_t(k0) * l.N + n0, l.Kt, l.Nt,
                              l.N, pairs, err))
          return false;
        // An all-zero tile still needs a (padding) entry.
        uint32_t cap = pairs.empty() ? 1 : uint32_t(pairs.size());
        if (!sparseTileBytes(pairs, cap, bytes, err))
          return false;
        listAddr.push_back(wDram + w.bytes.size());
        listPairs.push_back(cap);
        w.bytes.insert(w.bytes.end(), bytes.begin(), bytes.end());
      }
  }
  p.dramSize = wDram + w.bytes.size();
  p.constants = {w};
  p.symbols.push_back({"a", true, DType::F32, {l.M, l.K}, aDram});
  p.symbols.push_back({"c", false, DType::F32, {l.M, l.N}, cDram});

  Instruction ldw = o.sparseWeights
                        ? instr(Opcode::LD, uint8_t(LoadStream::SparseWeights),
                                rec(kWAddr, 1, l.Nt, 0, 0, l.Kt))
                        : instr(Opcode::LD, uint8_t(LoadStream::Weights),
                                rec(kWAddr, l.Kt, l.Nt, int32_t(l.Nt)));
  Instruction mac = instr(Opcode::MAC, 0, rec(0, l.Mt, l.Nt, 0, peRows, l.Kt));
  mac.fields.loadBalance = o.loadBalance;
  mac.fields.sfuActive = o.sfuChained && o.epilogue != SfuFunc::None;
  Instruction st = instr(Opcode::ST, uint8_t(StoreSource::AccBuffer),
                         rec(kCAddr, l.Mt, l.Nt, int32_t(l.Nt), peRows));
  st.operands.func = o.epilogue;
  Command cfg;
  cfg.kind = CommandKind::Config;
  cfg.instrs = {instr(Opcode::LD, uint8_t(LoadStream::Activations),
                      rec(kAAddr, l.Mt, l.Kt, int32_t(l.Kt), peRows)),
                ldw, mac, st};
  auto &cmds = p.clusters[0].commands;
  cmds.push_back(cfg);
  const uint32_t nTiles = l.N / l.Nt;
  for (uint32_t m0 = 0; m0 < l.M; m0 += l.Mt)
    for (uint32_t n0 = 0; n0 < l.N; n0 += l.Nt) {
      for (uint32_t k0 = 0; k0 < l.K; k0 += l.Kt) {
        cmds.push_back(makeDmaRows(DmaDir::Load, 0,
                                   aDram + (uint64_t(m0) * l.K + k0) * 4,
                                   kAAddr, l.Mt, l.Kt, l.K, l.Kt));
        Command ex;
        ex.kind = CommandKind::Execute;
        if (o.sparseWeights) {
          size_t t = size_t(k0 / l.Kt) * nTiles + n0 / l.Nt;
          cmds.push_back(makeDmaRows(DmaDir::Load, 1, listAddr[t], kWAddr, 1,
                                     uint32_t(listPairs[t] * 2), 0, 0));
          ex.patches.push_back({1, PatchField::Rows, uint32_t(listPairs[t])});
        } else {
          cmds.push_back(makeDmaRows(DmaDir::Load, 1,
                                     wDram + (uint64_t(k0) * l.N + n0) * 4,
                                     kWAddr, l.Kt, l.Nt, l.N, l.Nt));
        }
        cmds.push_back(wait(0b11, false));
        ex.shift = ex.last = k0 + l.Kt == l.K;
        cmds.push_back(ex);
        cmds.push_back(wait(0, true));
      }
      cmds.push_back(makeDmaRows(DmaDir::Store, 2, kCAddr,
                                 cDram + (uint64_t(m0) * l.N + n0) * 4, l.Mt,
                                 l.Nt, l.Nt, l.N));
      cmds.push_back(wait(0b100, false));
    }
  return true;
}

} // namespace accel::bench
