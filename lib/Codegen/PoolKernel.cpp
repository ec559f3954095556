//===- PoolKernel.cpp - Max / average pooling over input bands ------------===//
//
// Storage half of a tile of np planes (floats):
//   [0, np*inRows*Wn)           the input bands, padded: row b of plane q's
//                               band (at q*inRows*Wn) is padded input row
//                               oh0*sh + b, column c padded column c
//   [.., +np*bandRows*OW)       the output bands (ST writes them)
//   [.., +np*bandRows*OW)       average only: the 1/count rows, per plane
// Input buffer of each PE: operand A = slots 0-7 (the running max / sum),
// operand B = slots 8-15 (the tap being combined).
// Tap (i, j) of output row r, column c is band element
//   (r*sh + i*dh)*Wn + c*sw + j*dw,
// so one LD per tap (row stride sh*Wn, column stride sw) gives every PE its
// rows' window elements; the PE split of the rows is the plain derived one.
// Several planes share a tile only when windows do not overlap vertically
// ((KH-1)*dh + 1 <= sh) and a band is the whole plane: then inRows =
// OH*sh, so output row r of the tile (plane r / OH) still reads band
// element r*sh*Wn + tap offset.
//
//===----------------------------------------------------------------------===//
#include "accel/Codegen/Pool.h"
#include <algorithm>

using namespace accel;
using namespace accel::codegen;

namespace {
constexpr uint8_t kIbufPool = 2;
constexpr uint8_t kSlotAcc = 0, kSlotTap = 8; // two operands of 8 slots

/// Rows of the padded input one band of `bandRows` output rows reads.
int64_t bandInputRows(const PoolLayer &l, int64_t bandRows) {
  return (bandRows - 1) * l.sh + (l.KH - 1) * l.dh + 1;
}

struct Tile {
  int64_t plane = 0, planes = 1, oh0 = 0, rows = 0;
};

class PoolEmitter {
public:
  PoolEmitter(StreamBuilder &sb, const PoolLayer &l, const PoolPlan &plan)
      : sb(sb), l(l), plan(plan), halfBytes(usedHalfBytes(l, plan)) {}
  void emit();

private:
  StreamBuilder &sb;
  const PoolLayer &l;
  const PoolPlan &plan;
  uint32_t halfBytes;

  /// One half's regions (input band, outputs, the average's inverse
  /// counts): half 1 starts right after them, not at the middle of the
  /// storage unit, so the rest stays free for on-chip residency
  /// (docs/passes.md, "Compact kernel storage").
  static uint32_t usedHalfBytes(const PoolLayer &l, const PoolPlan &plan) {
    int64_t floats =
        plan.planesPerTile *
        (plan.inRows * plan.Wn + plan.bandRows * l.OW * (l.isMax ? 1 : 2));
    return uint32_t(roundUp(floats * 4, 64));
  }

  uint32_t inAddr(int half) const { return uint32_t(half) * halfBytes; }
  uint32_t outAddr(int half) const {
    return inAddr(half) +
           uint32_t(plan.planesPerTile * plan.inRows * plan.Wn * 4);
  }
  uint32_t invAddr(int half) const {
    return outAddr(half) +
           uint32_t(plan.planesPerTile * plan.bandRows * l.OW * 4);
  }
  std::vector<Instruction> sequence() const;
  void patch(std::vector<OperandRecord> &recs, const Tile &t, int half) const;
  void load(uint32_t cl, const Tile &t, int half);
  void fill(uint32_t cl, uint8_t tag, uint32_t at, int64_t planes, int64_t rows,
            int64_t cols);
};

std::vector<Instruction> PoolEmitter::sequence() const {
  OperandRecord rec;
  rec.rows = uint32_t(plan.planesPerTile * plan.bandRows);
  rec.cols = uint32_t(l.OW);
  rec.peRows = uint32_t(plan.peRows);
  rec.rowStride = int32_t(l.OW);
  auto ld = [&](uint8_t slot, int32_t rowStride, int32_t colStride) {
    Instruction i;
    i.fields.op = Opcode::LD;
    i.fields.sub = uint8_t(LoadStream::Activations);
    i.fields.slot = slot;
    i.operands = rec;
    i.operands.rowStride = rowStride;
    i.operands.colStride = colStride;
    return i;
  };
  auto combine = [&](SfuFunc f) {
    Instruction i;
    i.fields.op = Opcode::SPU;
    i.fields.sub = uint8_t(SpuType::Binary);
    i.fields.slot = kSlotAcc;
    i.fields.outSlot = kSlotAcc;
    i.operands = rec;
    i.operands.func = f;
    i.operands.depth = kSlotTap;
    return i;
  };
  const int32_t tapRowStride = int32_t(l.sh * plan.Wn);
  std::vector<Instruction> seq;
  for (int64_t t = 0; t < l.KH * l.KW; ++t) {
    seq.push_back(
        ld(t == 0 ? kSlotAcc : kSlotTap, tapRowStride, int32_t(l.sw)));
    if (t > 0)
      seq.push_back(combine(l.isMax ? SfuFunc::Max : SfuFunc::Add));
  }
  if (!l.isMax) {
    seq.push_back(ld(kSlotTap, int32_t(l.OW), 1));
    seq.push_back(combine(SfuFunc::Mul));
  }
  Instruction st;
  st.fields.op = Opcode::ST;
  st.fields.sub = uint8_t(StoreSource::InputBuffer);
  st.fields.slot = kSlotAcc;
  st.operands = rec;
  seq.push_back(st);
  return seq;
}

/// The tile's rows and the half's addresses: tap t's LD reads at the tap's
/// offset in the band, the 1/count LD at the half's map rows.
void PoolEmitter::patch(std::vector<OperandRecord> &recs, const Tile &t,
                        int half) const {
  size_t k = 0;
  for (int64_t i = 0; i < l.KH; ++i)
    for (int64_t j = 0; j < l.KW; ++j) {
      recs[k].addr =
          inAddr(half) + uint32_t((i * l.dh * plan.Wn + j * l.dw) * 4);
      k += (i == 0 && j == 0) ? 1 : 2;
    }
  if (!l.isMax) {
    recs[k].addr = invAddr(half);
    k += 2;
  }
  recs[k].addr = outAddr(half);
  for (OperandRecord &r : recs)
    r.rows = uint32_t(t.planes * t.rows);
}

/// `planes` x `rows` x `cols` padding values at storage byte `at` (band
/// row stride, plane pitch).
void PoolEmitter::fill(uint32_t cl, uint8_t tag, uint32_t at, int64_t planes,
                       int64_t rows, int64_t cols) {
  if (rows <= 0 || cols <= 0)
    return;
  DramBox src;
  src.base = l.padValue;
  src.dim(planes, 0).dim(rows, 0).dim(cols, 0);
  src.rowDims = 2;
  sb.dmaLoadStrided(cl, tag, src, at, {plan.inRows * plan.Wn, plan.Wn, 1, 0});
}

/// The bands' valid input box (one DMA from the unpadded planes), the
/// padding around it and, for average, the bands' 1/count rows.
void PoolEmitter::load(uint32_t cl, const Tile &t, int half) {
  const uint8_t tag = uint8_t(half);
  const int64_t rows = bandInputRows(l, t.rows);
  const int64_t r0 = t.oh0 * l.sh - l.padT; // input row of band row 0
  const int64_t top = std::clamp<int64_t>(-r0, 0, rows);
  const int64_t valid =
      std::max<int64_t>(0, std::min(r0 + rows, l.H) - std::max<int64_t>(r0, 0));
  const int64_t right = l.padL + l.W;
  auto rowAddr = [&](int64_t b) {
    return inAddr(half) + uint32_t(b * plan.Wn * 4);
  };
  fill(cl, tag, rowAddr(0), t.planes, top, plan.Wn);
  if (valid > 0) {
    DramBox src;
    src.base = l.x + uint64_t((t.plane * l.H + r0 + top) * l.W * 4);
    src.dim(t.planes, l.H * l.W).dim(valid, l.W).dim(l.W, 1);
    src.rowDims = 2;
    sb.dmaLoadStrided(cl, tag, src, rowAddr(top) + uint32_t(l.padL * 4),
                      {plan.inRows * plan.Wn, plan.Wn, 1, 0});
    fill(cl, tag, rowAddr(top), t.planes, valid, l.padL);
    fill(cl, tag, rowAddr(top) + uint32_t(right * 4), t.planes, valid,
         plan.Wn - right);
  }
  fill(cl, tag, rowAddr(top + valid), t.planes, rows - top - valid, plan.Wn);
  if (!l.isMax) {
    DramBox inv; // the same map rows for every plane of the tile
    inv.base = l.invCount + uint64_t(t.oh0 * l.OW * 4);
    inv.dim(t.planes, 0).dim(t.rows, l.OW).dim(l.OW, 1);
    inv.rowDims = 2;
    sb.dmaLoadStrided(cl, tag, inv, invAddr(half), {t.rows * l.OW, l.OW, 1, 0});
  }
}

void PoolEmitter::emit() {
  const uint32_t nCl = sb.numClusters();
  std::vector<std::vector<Tile>> perCluster(nCl);
  size_t next = 0;
  for (int64_t p = 0; p < l.planes; p += plan.planesPerTile)
    for (int64_t oh0 = 0; oh0 < l.OH; oh0 += plan.bandRows)
      perCluster[next++ % nCl].push_back(
          {p, std::min(plan.planesPerTile, l.planes - p), oh0,
           std::min(plan.bandRows, l.OH - oh0)});
  const std::vector<Instruction> seq = sequence();
  for (uint32_t cl = 0; cl < nCl; ++cl) {
    const std::vector<Tile> &mine = perCluster[cl];
    if (mine.empty())
      continue;
    std::vector<OperandRecord> recs;
    for (const Instruction &i : seq)
      recs.push_back(i.operands);
    sb.config(cl, kIbufPool, seq);
    load(cl, mine[0], 0);
    for (size_t s = 0; s < mine.size(); ++s) {
      const Tile &t = mine[s];
      const int half = int(s % 2);
      if (s + 1 < mine.size()) {
        // The next tile's half still feeds the store of tile s - 1.
        sb.wait(cl, uint8_t(1u << (2 + (s + 1) % 2)), true);
        load(cl, mine[s + 1], int((s + 1) % 2));
      }
      sb.wait(cl, uint8_t((1u << half) | (1u << (2 + half))), false);
      patch(recs, t, half);
      sb.execute(cl, kIbufPool, recs, false, true);
      sb.wait(cl, 0, true);
      DramBox out;
      out.base = l.out + uint64_t((t.plane * l.OH + t.oh0) * l.OW * 4);
      out.dim(t.planes * t.rows, l.OW).dim(l.OW, 1); // whole planes if > 1
      sb.dmaStore(cl, uint8_t(2 + half), outAddr(half), l.OW, out);
    }
  }
  sb.endLayer();
}
} // namespace

int64_t accel::codegen::poolInstructions(const PoolLayer &l) {
  return 2 * l.KH * l.KW + (l.isMax ? 0 : 2);
}

bool accel::codegen::planPool(const HardwareDesc &hw, const PoolLayer &l,
                              PoolPlan &plan, std::string &err) {
  if (l.planes <= 0 || l.H <= 0 || l.W <= 0 || l.OH <= 0 || l.OW <= 0) {
    err = "an empty input or output has no band";
    return false;
  }
  if (poolInstructions(l) > int64_t(hw.instructionBufferDepth)) {
    err = std::to_string(l.KH * l.KW) + " taps need " +
          std::to_string(poolInstructions(l)) +
          " instructions, more than an instruction buffer holds";
    return false;
  }
  plan = PoolPlan();
  plan.Wn = std::max(l.padL + l.W, (l.OW - 1) * l.sw + (l.KW - 1) * l.dw + 1);
  const int64_t pes = int64_t(hw.pesPerCluster);
  const int64_t operandFloats = int64_t(hw.inputSlotBytes() * 8 / 4);
  const int64_t halfFloats = int64_t(hw.storageBytes / 2 / 4);
  const int64_t outFloatsPerRow = l.OW * (l.isMax ? 1 : 2);
  // np planes of `rows` output rows each (np > 1: whole planes, bands of
  // OH*sh rows).
  auto fits = [&](int64_t rows, int64_t np) {
    const int64_t in = np > 1 ? l.OH * l.sh : bandInputRows(l, rows);
    return ceilDiv(np * rows, pes) * l.OW <= operandFloats &&
           np * (in * plan.Wn + rows * outFloatsPerRow) <= halfFloats;
  };
  if (!fits(1, 1)) {
    err = "one output row's band (" +
          std::to_string(bandInputRows(l, 1) * plan.Wn) +
          " floats) does not fit a storage half or a PE's operand";
    return false;
  }
  int64_t rows = l.OH;
  // Spread a layer of few planes over the clusters: two tiles each.
  const int64_t wantTiles = 2 * int64_t(hw.numClusters());
  if (l.planes < wantTiles)
    rows = std::min(rows,
                    std::max<int64_t>(1, l.OH / ceilDiv(wantTiles, l.planes)));
  while (rows > 1 && !fits(rows, 1))
    rows = std::max<int64_t>(1, std::min(rows - 1, rows * 3 / 4));
  // Whole rows per PE where that costs little: a multiple of the PEs.
  if (rows > pes && rows < l.OH)
    rows -= rows % pes;
  plan.bandRows = rows;
  plan.inRows = bandInputRows(l, rows);
  // Small planes whose windows do not overlap vertically: several whole
  // planes per tile (the per-DMA latency and per-EXECUTE overhead shared),
  // while every cluster still gets two tiles.
  if (rows == l.OH && (l.KH - 1) * l.dh + 1 <= l.sh) {
    const int64_t most = std::max<int64_t>(1, l.planes / wantTiles);
    int64_t np = 1;
    while (np < most && fits(rows, np + 1))
      ++np;
    if (np > 1) {
      plan.planesPerTile = np;
      plan.inRows = l.OH * l.sh;
    }
  }
  plan.peRows = ceilDiv(plan.planesPerTile * rows, pes);
  plan.tiles = ceilDiv(l.planes, plan.planesPerTile) * ceilDiv(l.OH, rows);
  return true;
}

void accel::codegen::emitPoolLayer(StreamBuilder &sb, const PoolLayer &l,
                                   const PoolPlan &plan) {
  PoolEmitter(sb, l, plan).emit();
}
