//===- ElementwiseKernel.cpp - SFU layers and DRAM copies -----------------===//
//
// An elementwise layer tiles the (coalesced) output into boxes of at most
// four dimensions, DMAs each input box into the storage unit (broadcast
// inputs are expanded by the DMA's zero strides), loads the tiles into the
// PEs' input buffers (rows split over the PEs), runs the SPU steps and stores
// the result tile back. Tiles are dealt round-robin over the clusters and
// double-buffered through the two storage halves like GEMM steps.
//
//===----------------------------------------------------------------------===//
#include "accel/Codegen/Kernels.h"
#include <algorithm>
#include <cassert>

using namespace accel;
using namespace accel::codegen;

namespace {
constexpr uint8_t kIbufElementwise = 2;
constexpr int kSlotsPerOperand = 8;

/// Calls `fn(offsets)` for every index of the leading `n` dimensions.
template <typename Fn>
void forEachIndex(const std::vector<int64_t> &extents, Fn fn) {
  std::vector<int64_t> idx(extents.size(), 0);
  for (int64_t e : extents)
    if (e == 0)
      return;
  while (true) {
    fn(idx);
    int d = int(extents.size()) - 1;
    for (; d >= 0; --d) {
      if (++idx[d] < extents[d])
        break;
      idx[d] = 0;
    }
    if (d < 0)
      return;
  }
}

/// Splits an N-D problem into sub-problems of rank <= 4 by looping over the
/// leading dimensions; calls fn(shape4, views with rebased bases).
template <typename Fn>
void forEachRank4(std::vector<int64_t> shape, std::vector<View> views, Fn fn) {
  std::vector<View *> ptrs;
  for (auto &v : views)
    ptrs.push_back(&v);
  shape = coalesce(shape, ptrs);
  if (shape.empty()) {
    shape.push_back(1);
    for (auto &v : views)
      v.strides.push_back(1);
  }
  size_t outer = shape.size() > 4 ? shape.size() - 4 : 0;
  std::vector<int64_t> outerExt(shape.begin(), shape.begin() + outer);
  std::vector<int64_t> inner(shape.begin() + outer, shape.end());
  forEachIndex(outerExt, [&](const std::vector<int64_t> &idx) {
    std::vector<View> sub = views;
    for (auto &v : sub) {
      for (size_t d = 0; d < outer; ++d)
        v.base += uint64_t(idx[d] * v.strides[d] * 4);
      v.strides.erase(v.strides.begin(), v.strides.begin() + outer);
    }
    fn(inner, sub);
  });
}

DramBox boxOf(const View &v, const std::vector<int64_t> &origin,
              const std::vector<int64_t> &extent) {
  DramBox b;
  b.base = v.base;
  for (size_t d = 0; d < extent.size(); ++d) {
    b.base += uint64_t(origin[d] * v.strides[d] * 4);
    b.dim(extent[d], v.strides[d]);
  }
  b.rowDims = b.rank - 1;
  return b;
}

struct Tile {
  std::vector<int64_t> origin, extent;
  std::vector<View> views; ///< inputs..., output
};
} // namespace

void accel::codegen::emitElementwiseLayer(StreamBuilder &sb,
                                          const ElementwiseLayer &layer) {
  const HardwareDesc &hw = sb.hw();
  const size_t nIn = layer.inputs.size();
  assert(nIn >= 1 && nIn <= 2 && "elementwise layers take 1 or 2 inputs");
  const int64_t pes = hw.pesPerCluster;
  const int64_t perPe =
      int64_t(hw.inputSlotBytes() * kSlotsPerOperand / 4); // floats/operand
  const int64_t halfFloats = int64_t(hw.storageBytes / 2 / 4);

  // Collect tiles of every rank<=4 sub-problem.
  std::vector<Tile> tiles;
  int64_t tileCols = 1, peRows = 1;
  std::vector<View> all(layer.inputs);
  all.push_back(layer.output);
  forEachRank4(layer.shape, all, [&](const std::vector<int64_t> &shape,
                                     const std::vector<View> &views) {
    size_t r = shape.size();
    std::vector<int64_t> t(r, 1);
    t[r - 1] = std::min(shape[r - 1], perPe);
    int64_t rowsCap = std::min(pes * (perPe / t[r - 1]),
                               halfFloats / int64_t(nIn) / t[r - 1]);
    for (int d = int(r) - 2; d >= 0 && rowsCap > 1; --d) {
      t[d] = std::min(shape[d], rowsCap);
      rowsCap /= t[d];
      if (t[d] < shape[d])
        break;
    }
    int64_t rows = 1;
    for (size_t d = 0; d + 1 < r; ++d)
      rows *= t[d];
    tileCols = std::max(tileCols, t[r - 1]);
    peRows = std::max(peRows, (rows + pes - 1) / pes);
    std::vector<int64_t> grid(r);
    for (size_t d = 0; d < r; ++d)
      grid[d] = (shape[d] + t[d] - 1) / t[d];
    forEachIndex(grid, [&](const std::vector<int64_t> &g) {
      Tile tile;
      for (size_t d = 0; d < r; ++d) {
        tile.origin.push_back(g[d] * t[d]);
        tile.extent.push_back(std::min(t[d], shape[d] - g[d] * t[d]));
      }
      tile.views = views;
      tiles.push_back(std::move(tile));
    });
  });

  // One instruction sequence: LD each input, the SPU steps, ST the result.
  std::vector<Instruction> seq;
  OperandRecord base;
  base.rowStride = int32_t(tileCols);
  base.peRows = uint32_t(peRows);
  base.rows = uint32_t(peRows * pes); // CONFIG holds a full tile;
  base.cols = uint32_t(tileCols);     // EXECUTEs patch the edges.
  for (size_t i = 0; i < nIn; ++i) {
    Instruction ld;
    ld.fields.op = Opcode::LD;
    ld.fields.sub = uint8_t(LoadStream::Activations);
    ld.fields.slot = uint8_t(i * kSlotsPerOperand);
    ld.operands = base;
    seq.push_back(ld);
  }
  for (const ElementwiseStep &s : layer.steps) {
    Instruction spu;
    spu.fields.op = Opcode::SPU;
    spu.fields.sub = uint8_t(s.type);
    spu.fields.slot = uint8_t(s.in0 * kSlotsPerOperand);
    spu.fields.outSlot = uint8_t(s.out * kSlotsPerOperand);
    spu.operands = base;
    spu.operands.func = s.func;
    spu.operands.imm = s.imm;
    if (s.type == SpuType::Binary)
      spu.operands.depth = uint32_t(s.in1 * kSlotsPerOperand);
    seq.push_back(spu);
  }
  Instruction st;
  st.fields.op = Opcode::ST;
  st.fields.sub = uint8_t(StoreSource::InputBuffer);
  st.fields.slot = 0;
  st.operands = base;
  seq.push_back(st);

  const uint32_t nCl = sb.numClusters();
  std::vector<std::vector<const Tile *>> perCluster(nCl);
  for (size_t i = 0; i < tiles.size(); ++i)
    perCluster[i % nCl].push_back(&tiles[i]);

  const uint64_t regionBytes = uint64_t(halfFloats / int64_t(nIn)) * 4;
  auto regionAddr = [&](int half, size_t operand) {
    return uint32_t(half * (hw.storageBytes / 2) + operand * regionBytes);
  };

  for (uint32_t cl = 0; cl < nCl; ++cl) {
    const auto &mine = perCluster[cl];
    if (mine.empty())
      continue;
    std::vector<OperandRecord> recs;
    for (auto &i : seq)
      recs.push_back(i.operands);
    sb.config(cl, kIbufElementwise, seq);
    auto issueLoads = [&](size_t s) {
      const Tile &tile = *mine[s];
      for (size_t i = 0; i < nIn; ++i)
        sb.dmaLoad(cl, uint8_t(s % 2), boxOf(tile.views[i], tile.origin,
                                             tile.extent),
                   regionAddr(int(s % 2), i), tileCols);
    };
    issueLoads(0);
    for (size_t s = 0; s < mine.size(); ++s) {
      const Tile &tile = *mine[s];
      int half = int(s % 2);
      if (s + 1 < mine.size()) {
        sb.wait(cl, 0, true);
        issueLoads(s + 1);
      }
      sb.wait(cl, uint8_t((1u << half) | (1u << (2 + half))), false);
      DramBox out = boxOf(tile.views[nIn], tile.origin, tile.extent);
      for (size_t i = 0; i < seq.size(); ++i) {
        recs[i].rows = uint32_t(out.rows());
        recs[i].cols = uint32_t(out.cols());
        if (seq[i].fields.op == Opcode::LD)
          recs[i].addr = regionAddr(half, seq[i].fields.slot / kSlotsPerOperand);
        if (seq[i].fields.op == Opcode::ST)
          recs[i].addr = regionAddr(half, 0);
      }
      sb.execute(cl, kIbufElementwise, recs, false, true);
      sb.wait(cl, 0, true);
      sb.dmaStore(cl, uint8_t(2 + half), regionAddr(half, 0), tileCols, out);
    }
  }
  sb.layerBarrier();
}

void accel::codegen::emitCopyLayer(StreamBuilder &sb,
                                   const std::vector<int64_t> &shape,
                                   const View &src, const View &dst) {
  const uint32_t nCl = sb.numClusters();
  size_t next = 0;
  forEachRank4(shape, {src, dst}, [&](const std::vector<int64_t> &s,
                                      const std::vector<View> &v) {
    // Split the outermost dimension over the clusters.
    int64_t per = (s[0] + nCl - 1) / nCl;
    for (int64_t o = 0; o < s[0]; o += per) {
      std::vector<int64_t> origin(s.size(), 0), extent(s);
      origin[0] = o;
      extent[0] = std::min(per, s[0] - o);
      sb.dmaDramCopy(uint32_t(next++ % nCl), 0, boxOf(v[0], origin, extent),
                     boxOf(v[1], origin, extent));
    }
  });
  sb.layerBarrier();
}
