//===- GemmKernel.cpp - Tiled, double-buffered GEMM layers ----------------===//
//
// Each output tile (Mc x Nc of one problem) belongs to one cluster. For every
// K chunk the cluster DMAs the A and B tiles into one half of its storage
// unit while the PE array computes on the other half (ping-pong), then
// EXECUTEs one instruction buffer: LD activations, LD weights, MAC, ST. The
// ST only writes back on the last chunk (EXECUTE `last`), which also shifts
// the accumulators out (`shift`); partial sums stay in the accumulation
// buffer between chunks.
//
//===----------------------------------------------------------------------===//
#include "accel/Codegen/Kernels.h"
#include <algorithm>
#include <cassert>
#include <cmath>
#include <limits>

using namespace accel;
using namespace accel::codegen;

namespace {
int64_t ceilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

std::vector<int64_t> candidates(int64_t limit) {
  std::vector<int64_t> c;
  for (int64_t v = 1; v < limit; v *= 2)
    c.push_back(v);
  c.push_back(limit);
  return c;
}

/// Floats of one storage half used by a tiling.
int64_t halfFloatsNeeded(int64_t mc, int64_t kc, int64_t nc, bool init) {
  return mc * kc + kc * nc + mc * nc * (init ? 2 : 1);
}

struct HalfLayout {
  uint32_t a, b, c, init;
};
HalfLayout layoutOf(const HardwareDesc &hw, int half, int64_t mc, int64_t kc,
                    int64_t nc) {
  uint32_t base = uint32_t(half * (hw.storageBytes / 2));
  HalfLayout l;
  l.a = base;
  l.b = l.a + uint32_t(mc * kc * 4);
  l.c = l.b + uint32_t(kc * nc * 4);
  l.init = l.c + uint32_t(mc * nc * 4);
  return l;
}
} // namespace

GemmTiling accel::codegen::chooseGemmTiling(const HardwareDesc &hw, int64_t m,
                                            int64_t n, int64_t k,
                                            bool withInit) {
  const int64_t pes = hw.pesPerCluster;
  const int64_t halfFloats = int64_t(hw.storageBytes / 2 / 4);
  const int64_t ibFloats = int64_t(hw.inputBufferBytes / 4);
  const int64_t wqFloats = int64_t(hw.weightQueueBytes / 4);
  const int64_t accFloats = int64_t(hw.accBufferBytes / 4);
  const double chanBw = hw.channels.empty() ? 1.0 : hw.channels[0].bytesPerCycle;
  const double clustersPerChannel =
      std::max(1.0, double(hw.numClusters()) / std::max<size_t>(1, hw.channels.size()));
  const double dmaLatency = hw.channels.empty() ? 0 : hw.channels[0].latencyCycles;

  GemmTiling best;
  double bestCost = std::numeric_limits<double>::infinity();
  int64_t bestVolume = 0;
  for (int64_t r : candidates(ceilDiv(m, pes))) {
    int64_t mc = r * pes;
    for (int64_t kc : candidates(k)) {
      if (r * kc > ibFloats)
        continue;
      for (int64_t nc : candidates(n)) {
        if (kc * nc > wqFloats || r * nc > accFloats ||
            halfFloatsNeeded(mc, kc, nc, withInit) > halfFloats)
          continue;
        int64_t tiles = ceilDiv(m, mc) * ceilDiv(n, nc);
        int64_t stepsPerCluster =
            ceilDiv(tiles, hw.numClusters()) * ceilDiv(k, kc);
        double loadBytes = double(mc * kc + kc * nc) * 4;
        double compute = std::ceil(double(r * kc * nc) / hw.macLanes) +
                         hw.macPipelineLatency +
                         loadBytes / hw.storageBytesPerCycle;
        double dma = dmaLatency + loadBytes * clustersPerChannel / chanBw;
        double cost = double(stepsPerCluster) * std::max(compute, dma);
        int64_t volume = mc * kc * nc;
        if (cost < bestCost || (cost == bestCost && volume > bestVolume)) {
          bestCost = cost;
          bestVolume = volume;
          best = {r, kc, nc};
        }
      }
    }
  }
  assert(bestVolume > 0 && "hardware buffers cannot hold a 1x1x1 tile");
  return best;
}

namespace {
struct Step {
  const GemmTiles *problem;
  int64_t m0, mc;
  size_t n, k;
  bool first() const { return k == 0; }
  bool last() const { return k + 1 == problem->kChunks.size(); }
};

/// The instruction sequence of one K step; `withInit` adds the LD of the
/// initial accumulator value (first chunk of problems with a bias).
std::vector<Instruction> gemmInstructions(const HardwareDesc &hw,
                                          const GemmTiling &t,
                                          const GemmEpilogue &epi,
                                          bool withInit) {
  std::vector<Instruction> seq;
  auto add = [&](Opcode op, uint8_t sub, OperandRecord rec) {
    Instruction i;
    i.fields.op = op;
    i.fields.sub = sub;
    i.operands = rec;
    seq.push_back(i);
    return &seq.back();
  };
  OperandRecord rec;
  rec.peRows = uint32_t(t.peRows);
  if (withInit) {
    OperandRecord r = rec;
    r.rowStride = int32_t(t.nc);
    add(Opcode::LD, uint8_t(LoadStream::PartialSums), r); // slot 0 = acc 0
  }
  {
    OperandRecord r = rec;
    r.rowStride = int32_t(t.kc);
    add(Opcode::LD, uint8_t(LoadStream::Activations), r);
  }
  if (epi.alpha != 1.0f) {
    OperandRecord r = rec;
    r.func = SfuFunc::Scale;
    r.imm = epi.alpha;
    add(Opcode::SPU, uint8_t(SpuType::Unary), r);
  }
  {
    OperandRecord r;
    r.rowStride = int32_t(t.nc);
    add(Opcode::LD, uint8_t(LoadStream::Weights), r);
  }
  {
    OperandRecord r = rec;
    Instruction *mac = add(Opcode::MAC, 0, r);
    mac->fields.sfuActive = epi.func != SfuFunc::None;
  }
  {
    OperandRecord r = rec;
    r.rowStride = int32_t(t.nc);
    r.func = epi.func;
    add(Opcode::ST, uint8_t(StoreSource::AccBuffer), r);
  }
  return seq;
}

/// CONFIG carries full-tile operands (half 0); EXECUTEs patch the edges.
void setFullTileOperands(std::vector<Instruction> &seq, const HardwareDesc &hw,
                         const GemmTiling &t);

/// Register-file contents for one step (same order as gemmInstructions).
std::vector<OperandRecord> stepRecords(std::vector<OperandRecord> recs,
                                       const std::vector<Instruction> &seq,
                                       const HalfLayout &l, int64_t mc,
                                       int64_t kc, int64_t nc) {
  for (size_t i = 0; i < seq.size(); ++i) {
    OperandRecord &r = recs[i];
    const InstrFields &f = seq[i].fields;
    switch (f.op) {
    case Opcode::LD:
      if (f.sub == uint8_t(LoadStream::PartialSums)) {
        r.addr = l.init, r.rows = uint32_t(mc), r.cols = uint32_t(nc);
      } else if (f.sub == uint8_t(LoadStream::Activations)) {
        r.addr = l.a, r.rows = uint32_t(mc), r.cols = uint32_t(kc);
      } else {
        r.addr = l.b, r.rows = uint32_t(kc), r.cols = uint32_t(nc);
      }
      break;
    case Opcode::SPU:
      r.rows = uint32_t(mc), r.cols = uint32_t(kc);
      break;
    case Opcode::MAC:
      r.rows = uint32_t(mc), r.cols = uint32_t(nc), r.depth = uint32_t(kc);
      break;
    case Opcode::ST:
      r.addr = l.c, r.rows = uint32_t(mc), r.cols = uint32_t(nc);
      break;
    }
  }
  return recs;
}

void setFullTileOperands(std::vector<Instruction> &seq, const HardwareDesc &hw,
                         const GemmTiling &t) {
  std::vector<OperandRecord> recs;
  for (auto &i : seq)
    recs.push_back(i.operands);
  int64_t mcMax = t.peRows * hw.pesPerCluster;
  recs = stepRecords(recs, seq, layoutOf(hw, 0, mcMax, t.kc, t.nc), mcMax,
                     t.kc, t.nc);
  for (size_t i = 0; i < seq.size(); ++i)
    seq[i].operands = recs[i];
}

constexpr uint8_t kIbufInit = 0, kIbufMain = 1;
uint8_t loadTag(int half) { return uint8_t(half); }
uint8_t storeTag(int half) { return uint8_t(2 + half); }
} // namespace

void accel::codegen::emitGemmLayer(StreamBuilder &sb,
                                   const std::vector<GemmTiles> &problems,
                                   const GemmTiling &t,
                                   const GemmEpilogue &epi) {
  const HardwareDesc &hw = sb.hw();
  const int64_t mcMax = t.peRows * hw.pesPerCluster;
  const uint32_t nCl = sb.numClusters();

  // Deal output tiles round-robin; each tile's K chunks stay together.
  std::vector<std::vector<Step>> perCluster(nCl);
  bool anyInit = false;
  size_t tileIndex = 0;
  for (const GemmTiles &p : problems) {
    anyInit |= bool(p.initBox);
    for (int64_t m0 = 0; m0 < p.m; m0 += mcMax)
      for (size_t n = 0; n < p.nTiles.size(); ++n, ++tileIndex)
        for (size_t k = 0; k < p.kChunks.size(); ++k)
          perCluster[tileIndex % nCl].push_back(
              {&p, m0, std::min(mcMax, p.m - m0), n, k});
  }

  std::vector<Instruction> seqInit = gemmInstructions(hw, t, epi, true);
  std::vector<Instruction> seqMain = gemmInstructions(hw, t, epi, false);
  setFullTileOperands(seqInit, hw, t);
  setFullTileOperands(seqMain, hw, t);
  std::vector<OperandRecord> recsInit, recsMain;
  for (auto &i : seqInit)
    recsInit.push_back(i.operands);
  for (auto &i : seqMain)
    recsMain.push_back(i.operands);

  for (uint32_t cl = 0; cl < nCl; ++cl) {
    const std::vector<Step> &steps = perCluster[cl];
    if (steps.empty())
      continue;
    if (anyInit)
      sb.config(cl, kIbufInit, seqInit);
    sb.config(cl, kIbufMain, seqMain);

    auto issueLoads = [&](size_t s) {
      const Step &st = steps[s];
      int half = int(s % 2);
      HalfLayout l = layoutOf(hw, half, mcMax, t.kc, t.nc);
      sb.dmaLoad(cl, loadTag(half), st.problem->aBox(st.m0, st.mc, st.k), l.a,
                 t.kc);
      sb.dmaLoad(cl, loadTag(half), st.problem->bBox(st.k, st.n), l.b, t.nc);
      if (st.first() && st.problem->initBox)
        sb.dmaLoad(cl, loadTag(half), st.problem->initBox(st.m0, st.mc, st.n),
                   l.init, t.nc);
    };

    issueLoads(0);
    for (size_t s = 0; s < steps.size(); ++s) {
      const Step &st = steps[s];
      int half = int(s % 2);
      if (s + 1 < steps.size()) {
        sb.wait(cl, 0, /*pe=*/true); // EXECUTE s-1 used the other half
        issueLoads(s + 1);
      }
      uint8_t mask = uint8_t(1u << loadTag(half));
      if (st.last())
        mask |= uint8_t(1u << storeTag(half)); // C region free again
      sb.wait(cl, mask, false);
      HalfLayout l = layoutOf(hw, half, mcMax, t.kc, t.nc);
      int64_t kc = st.problem->kChunks[st.k], nc = st.problem->nTiles[st.n];
      bool init = st.first() && st.problem->initBox;
      const auto &seq = init ? seqInit : seqMain;
      sb.execute(cl, init ? kIbufInit : kIbufMain,
                 stepRecords(init ? recsInit : recsMain, seq, l, st.mc, kc, nc),
                 /*shift=*/st.last(), /*last=*/st.last());
      if (st.last()) {
        sb.wait(cl, 0, /*pe=*/true);
        sb.dmaStore(cl, storeTag(half), l.c, t.nc,
                    st.problem->cBox(st.m0, st.mc, st.n));
      }
    }
  }
  sb.layerBarrier();
}
