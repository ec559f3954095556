//===- EpilogueSteps.cpp - Fused epilogue over a stored C tile ------------===//
//
// A C tile leaves the accumulators through ST with one chained SFU function
// (GemmEpilogue::func). Further steps of a fused chain (clip's second bound,
// hard_sigmoid's four steps, a residual add) run while the tile is still in
// the cluster's storage: the PEs load their rows back into the input buffer
// (slot 0), the SPU applies the steps in place, and ST inbuf writes the
// tile back applying the last unary step on the way (ST's chained function
// works for both sources). No DRAM traffic besides the residual tile
// itself; the cost is one storage round trip of the C tile per PE.
//
//===----------------------------------------------------------------------===//
#include "EpilogueSteps.h"
#include "accel/Codegen/ResidualView.h"

using namespace accel;
using namespace accel::codegen;

namespace {
Instruction instr(Opcode op, uint8_t sub, uint8_t slot = 0) {
  Instruction i;
  i.fields.op = op;
  i.fields.sub = sub;
  i.fields.slot = slot;
  return i;
}
} // namespace

int detail::residualSlot(const HardwareDesc &hw, int64_t peRows, int64_t cols) {
  const int64_t slot = int64_t(hw.inputSlotBytes());
  const int64_t tile = peRows * cols * 4;
  const int64_t first = ceilDiv(tile, slot);
  if (slot <= 0 || first >= 16 ||
      first * slot + tile > int64_t(hw.inputBufferBytes))
    return -1;
  return int(first);
}

bool detail::hasResidual(const std::vector<EpilogueStep> &post) {
  for (const EpilogueStep &s : post)
    if (s.residual)
      return true;
  return false;
}

bool detail::postFits(const HardwareDesc &hw,
                      const std::vector<EpilogueStep> &post, int64_t peRows,
                      int64_t cols) {
  if (peRows * cols * 4 > int64_t(hw.inputBufferBytes))
    return false;
  return !hasResidual(post) || residualSlot(hw, peRows, cols) >= 0;
}

int64_t detail::postPeRows(const HardwareDesc &hw,
                           const std::vector<EpilogueStep> &post,
                           int64_t peRows, int64_t cols) {
  for (int64_t r = peRows; r >= 1; --r)
    if (postFits(hw, post, r, cols))
      return r;
  return 0;
}

std::vector<Instruction>
detail::postSequence(const HardwareDesc &hw,
                     const std::vector<EpilogueStep> &post, int64_t peRows,
                     int64_t cols) {
  std::vector<Instruction> seq;
  OperandRecord rec;
  rec.peRows = uint32_t(peRows);
  Instruction ld = instr(Opcode::LD, uint8_t(LoadStream::Activations));
  ld.operands = rec;
  seq.push_back(ld);
  const int rslot = residualSlot(hw, peRows, cols);
  if (hasResidual(post)) {
    Instruction r = ld;
    r.fields.slot = uint8_t(rslot);
    seq.push_back(r);
  }
  // The last unary step rides on the ST back to storage.
  size_t spuSteps = post.size();
  SfuFunc stFunc = SfuFunc::None;
  float stImm = 0.0f;
  if (!post.empty() && !post.back().residual) {
    stFunc = post.back().func;
    stImm = post.back().imm;
    --spuSteps;
  }
  for (size_t i = 0; i < spuSteps; ++i) {
    const EpilogueStep &s = post[i];
    Instruction spu = instr(
        Opcode::SPU, uint8_t(s.residual ? SpuType::Binary : SpuType::Unary));
    spu.operands = rec;
    spu.fields.outSlot = 0;
    if (s.residual) {
      spu.operands.func = SfuFunc::Add;
      spu.operands.depth = uint32_t(rslot);
    } else {
      spu.operands.func = s.func;
      spu.operands.imm = s.imm;
    }
    seq.push_back(spu);
  }
  Instruction st = instr(Opcode::ST, uint8_t(StoreSource::InputBuffer));
  st.operands = rec;
  st.operands.func = stFunc;
  st.operands.imm = stImm;
  seq.push_back(st);
  return seq;
}

std::vector<OperandRecord>
detail::postRecords(const std::vector<Instruction> &seq, uint32_t c,
                    uint32_t residual, int64_t rows, int64_t cols,
                    int64_t rowStride) {
  std::vector<OperandRecord> recs;
  for (const Instruction &i : seq) {
    OperandRecord r = i.operands;
    r.rows = uint32_t(rows);
    r.cols = uint32_t(cols);
    if (i.fields.op == Opcode::LD || i.fields.op == Opcode::ST) {
      r.rowStride = int32_t(rowStride);
      r.addr = (i.fields.op == Opcode::LD && i.fields.slot != 0) ? residual : c;
    }
    recs.push_back(r);
  }
  return recs;
}

DramBox detail::residualBox(DramBox c, uint64_t delta) {
  c.base += delta;
  return c;
}

int64_t detail::residualTileBytes(const HardwareDesc &hw, const GemmTiling &t,
                                  const GemmEpilogue &epi) {
  return hasResidual(epi.post) ? t.peRows * int64_t(hw.pesPerCluster) * t.nc * 4
                               : 0;
}

int64_t detail::residualPartPeRows(const HardwareDesc &hw, const GemmTiling &t,
                                   const GemmEpilogue &epi,
                                   StationaryOperand st) {
  if (!hasResidual(epi.post) || st != StationaryOperand::C)
    return 0;
  const int64_t pes = std::max<int64_t>(1, hw.pesPerCluster);
  const int64_t mc = t.peRows * pes;
  const int64_t tileBytes = (mc * t.kc + t.kc * t.nc) * 4;
  const int64_t rowBytes = pes * t.nc * 4;
  return std::min(t.peRows, tileBytes / rowBytes);
}

int64_t detail::residualStagingBytes(const HardwareDesc &hw,
                                     const GemmTiling &t,
                                     const GemmEpilogue &epi) {
  const int64_t tile = residualTileBytes(hw, t, epi) / 4;
  const int64_t repeats = repeatFactor(epi.residualView);
  if (!tile || repeats <= 1)
    return 0;
  // Twice the tile over the repeats: a tile that starts inside a repeated
  // row reads part of a second one (the FPN detector's lateral
  // convolutions: 5 120 compact floats for a 16 384-float tile).
  return std::min(tile, roundUp(2 * ceilDiv(tile, repeats), 16)) * 4;
}

void detail::loadResidual(StreamBuilder &sb, uint32_t cluster, uint8_t tag,
                          const DramBox &cBox, const GemmEpilogue &epi,
                          uint32_t addr, int64_t rowStride,
                          uint32_t stagingAddr, int64_t stagingBytes) {
  if (epi.residualView.empty())
    return sb.dmaLoad(cluster, tag, residualBox(cBox, epi.residualDelta), addr,
                      rowStride);
  std::vector<TilePiece> pieces =
      viewTilePieces(cBox, rowStride, epi.residualView);
  StagedResidual staged = stageRepeatedReads(pieces);
  if (staged.compact.empty() || staged.stagingElems * 4 > stagingBytes)
    return sb.dmaLoadPieces(cluster, tag, pieces, addr);
  sb.dmaLoadPieces(cluster, tag, staged.direct, addr);
  sb.dmaLoadPieces(cluster, tag, staged.compact, stagingAddr);
  sb.wait(cluster, uint8_t(1u << tag), false);
  for (const TilePiece &e : staged.expand)
    sb.dmaLocalCopyStrided(cluster, tag, stagingAddr + uint32_t(e.src.base * 4),
                           e.src, addr + uint32_t(e.offset * 4), e.suStrides);
}
