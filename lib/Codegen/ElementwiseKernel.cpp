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
              const std::vector<int64_t> &extent, int rowDims) {
  DramBox b;
  b.base = v.base;
  for (size_t d = 0; d < extent.size(); ++d) {
    b.base += uint64_t(origin[d] * v.strides[d] * 4);
    b.dim(extent[d], v.strides[d]);
  }
  b.rowDims = rowDims;
  return b;
}
DramBox boxOf(const View &v, const std::vector<int64_t> &origin,
              const std::vector<int64_t> &extent) {
  return boxOf(v, origin, extent, int(extent.size()) - 1);
}

/// The product of v[from], ..., v[size - 1].
int64_t product(const std::vector<int64_t> &v, size_t from = 0) {
  int64_t p = 1;
  for (size_t d = from; d < v.size(); ++d)
    p *= v[d];
  return p;
}

/// `extent` without the repeats of a view with `strides`: extent 1 where
/// the stride is 0 (what an expanded input's staging region holds).
std::vector<int64_t> withoutRepeats(std::vector<int64_t> extent,
                                    const std::vector<int64_t> &strides) {
  for (size_t d = 0; d < extent.size(); ++d)
    if (strides[d] == 0)
      extent[d] = 1;
  return extent;
}

struct Tile {
  std::vector<int64_t> origin, extent;
  std::vector<View> views; ///< inputs..., output
};

/// Splits `shape` at `split` and coalesces each part on its own, so rows
/// never merge with columns.
std::vector<int64_t> coalesceParts(const std::vector<int64_t> &shape,
                                   size_t split, std::vector<View> &views,
                                   int &rowDims) {
  std::vector<int64_t> rowsShape(shape.begin(), shape.begin() + split),
      colsShape(shape.begin() + split, shape.end());
  std::vector<View> rowsV = views, colsV = views;
  std::vector<View *> rp, cp;
  for (size_t v = 0; v < views.size(); ++v) {
    rowsV[v].strides.assign(views[v].strides.begin(),
                            views[v].strides.begin() + split);
    colsV[v].strides.assign(views[v].strides.begin() + split,
                            views[v].strides.end());
    rp.push_back(&rowsV[v]);
    cp.push_back(&colsV[v]);
  }
  rowsShape = coalesce(rowsShape, rp);
  colsShape = coalesce(colsShape, cp);
  if (colsShape.empty()) {
    colsShape.push_back(1);
    for (auto &v : colsV)
      v.strides.push_back(0);
  }
  std::vector<int64_t> out = rowsShape;
  out.insert(out.end(), colsShape.begin(), colsShape.end());
  for (size_t v = 0; v < views.size(); ++v) {
    views[v].strides = rowsV[v].strides;
    views[v].strides.insert(views[v].strides.end(), colsV[v].strides.begin(),
                            colsV[v].strides.end());
  }
  rowDims = int(rowsShape.size());
  return out;
}
} // namespace

bool accel::codegen::emitElementwiseLayer(StreamBuilder &sb,
                                          const ElementwiseLayer &layer,
                                          std::string &err) {
  // A zero-element result needs no commands (and its tile sizes would
  // divide by zero).
  if (std::find(layer.shape.begin(), layer.shape.end(), 0) != layer.shape.end())
    return true;
  const HardwareDesc &hw = sb.hw();
  const size_t nIn = layer.inputs.size();
  assert(nIn >= 1 && nIn <= 3 && "elementwise layers take 1 to 3 inputs");
  const int nOperands = int(nIn) + layer.scratch;
  const int slotsPer = 16 / nOperands;
  assert(slotsPer >= 1 && "too many operands for the input buffer");
  const int64_t pes = hw.pesPerCluster;
  const int64_t perPe = int64_t(hw.inputSlotBytes() * slotsPer / 4);

  std::vector<int64_t> shape = layer.shape;
  std::vector<View> views(layer.inputs);
  views.push_back(layer.output);
  // Rows are all but the last dimension: trailing extent-1 dimensions
  // ([O, C, 1, 1] weights, [N, C, 1, 1] vectors) would make rows of one
  // element, so the last dimension of extent > 1 holds the columns.
  if (layer.rowDims < 0 && !layer.rowResult && !layer.wholeRows)
    while (shape.size() > 1 && shape.back() == 1) {
      shape.pop_back();
      for (View &v : views)
        v.strides.pop_back();
    }
  size_t split = layer.rowDims < 0 ? (shape.empty() ? 0 : shape.size() - 1)
                                   : size_t(layer.rowDims);
  if (layer.rowResult) // the output has no column extent
    for (size_t d = split; d < shape.size(); ++d)
      views.back().strides[d] = 0;
  int rowDims = 0;
  shape = coalesceParts(shape, split, views, rowDims);
  const int colDims = int(shape.size()) - rowDims;
  // Loop over leading row dimensions beyond what a 4-D DMA box can hold.
  const int outer = std::max(0, int(shape.size()) - 4);
  // Inputs that repeat along some row dimension (zero strides: a nearest
  // upsampling read as addressing) but not along all of them are loaded
  // compact into a staging region and expanded on chip by a local_copy
  // with zero source strides, so that DRAM moves each element once per
  // tile instead of once per use. Not inputs that repeat along the columns
  // only (one value per row: a mean, a per-channel scale): those are
  // small, and their staging regions cost the on-chip residency of the
  // neighbouring layers' maps more than they save (docs/passes.md,
  // "Repeated inputs expanded on chip").
  std::vector<bool> expand(nIn, false);
  size_t nExpand = 0; // planned; the staging may drop some (below)
  for (size_t i = 0; i < nIn; ++i) {
    // Zero strides in every row dimension: one row repeated by the LD
    // (rowBroadcast below), not expanded.
    bool repeatsRows = false, everyRow = rowDims > outer;
    for (size_t d = size_t(outer); int(d) < rowDims; ++d) {
      repeatsRows |= views[i].strides[d] == 0 && shape[d] > 1;
      everyRow &= views[i].strides[d] == 0;
    }
    expand[i] = repeatsRows && !everyRow;
    nExpand += expand[i];
  }
  const int64_t regionFloats = int64_t(hw.storageBytes / 2 / 4) / int64_t(nIn);
  if (colDims > 3) {
    err = "a row spans more than three non-contiguous dimensions";
    return false;
  }
  int64_t colsTotal = 1;
  for (int d = rowDims; d < int(shape.size()); ++d)
    colsTotal *= shape[d];
  if (layer.wholeRows && (colsTotal > perPe || colsTotal > regionFloats)) {
    err = "a row of " + std::to_string(colsTotal) +
          " elements does not fit one PE's share of the input buffer (" +
          std::to_string(std::min(perPe, regionFloats)) + " elements)";
    return false;
  }
  if (!layer.wholeRows && colDims != 1) {
    err = "internal: elementwise layers need one column dimension";
    return false;
  }

  std::vector<int64_t> outerExt(shape.begin(), shape.begin() + outer);
  std::vector<int64_t> inner(shape.begin() + outer, shape.end());
  int innerRowDims = rowDims - outer;
  int64_t innerRows = 1;
  for (int d = 0; d < innerRowDims; ++d)
    innerRows *= inner[d];
  const int64_t nCl = int64_t(sb.numClusters());
  // The tile shape when a region holds at most `cap` floats.
  auto tileShape = [&](int64_t cap) {
    std::vector<int64_t> t(inner.size(), 1);
    for (int d = innerRowDims; d < int(inner.size()); ++d)
      t[d] = inner[d];
    if (!layer.wholeRows)
      t.back() = std::min(inner.back(), std::min(perPe, cap));
    int64_t cols = 1;
    for (int d = innerRowDims; d < int(inner.size()); ++d)
      cols *= t[d];
    int64_t rowsCap = std::min(pes * (perPe / cols), cap / cols);
    // Every cluster gets a tile when there are rows enough: a small layer
    // in one or two storage-filling tiles would leave the other clusters
    // (and their memory channels) idle.
    if (innerRows >= 2 * nCl * pes)
      rowsCap = std::min(rowsCap, ceilDiv(innerRows, nCl));
    for (int d = innerRowDims - 1; d >= 0 && rowsCap > 1; --d) {
      t[d] = std::min(inner[d], rowsCap);
      rowsCap /= t[d];
      if (t[d] < inner[d])
        break;
    }
    return t;
  };
  // Elements of input i's compact tile for tile shape `t`.
  auto compactElems = [&](const std::vector<int64_t> &t, size_t i) {
    return product(
        withoutRepeats(t, std::vector<int64_t>(views[i].strides.begin() + outer,
                                               views[i].strides.end())));
  };
  // Both halves' regions and staging regions (floats) with tile shape t.
  auto storageFloats = [&](const std::vector<int64_t> &t) {
    int64_t f = int64_t(nIn) * roundUp(product(t), 16);
    for (size_t i = 0; i < nIn; ++i)
      if (expand[i])
        f += roundUp(compactElems(t, i), 16);
    return 2 * f;
  };
  std::vector<int64_t> t = tileShape(regionFloats);
  // Room for the staging regions: the regions give up the staging's share
  // (those that still do not fit are dropped below).
  if (storageFloats(t) > int64_t(hw.storageBytes / 4)) {
    double share = double(nIn);
    for (size_t i = 0; i < nIn; ++i)
      if (expand[i])
        share += double(compactElems(t, i)) / double(product(t));
    t = tileShape(int64_t(double(regionFloats) * double(nIn) / share) -
                  int64_t(16 * nExpand));
  }
  const int64_t tileCols = product(t, size_t(innerRowDims));
  int64_t tileRows = 1;
  for (int d = 0; d < innerRowDims; ++d)
    tileRows *= t[d];
  const int64_t peRows = (tileRows + pes - 1) / pes;

  std::vector<Tile> tiles;
  forEachIndex(outerExt, [&](const std::vector<int64_t> &idx) {
    std::vector<View> sub = views;
    for (auto &v : sub) {
      for (int d = 0; d < outer; ++d)
        v.base += uint64_t(idx[d] * v.strides[d] * 4);
      v.strides.erase(v.strides.begin(), v.strides.begin() + outer);
    }
    std::vector<int64_t> grid(inner.size());
    for (size_t d = 0; d < inner.size(); ++d)
      grid[d] = (inner[d] + t[d] - 1) / t[d];
    forEachIndex(grid, [&](const std::vector<int64_t> &g) {
      Tile tile;
      for (size_t d = 0; d < inner.size(); ++d) {
        tile.origin.push_back(g[d] * t[d]);
        tile.extent.push_back(std::min(t[d], inner[d] - g[d] * t[d]));
      }
      tile.views = sub;
      tiles.push_back(std::move(tile));
    });
  });

  // One instruction sequence: LD each input, the SPU steps, ST the result.
  std::vector<Instruction> seq;
  OperandRecord base;
  base.rowStride = int32_t(tileCols);
  base.peRows = uint32_t(peRows);
  base.rows = uint32_t(tileRows); // CONFIG holds a full tile;
  base.cols = uint32_t(tileCols); // EXECUTEs patch the edges.
  auto slotOf = [&](int operand) { return uint8_t(operand * slotsPer); };
  // An input that is the same row for every row of a tile (zero strides in
  // all row dimensions: a bias, a per-column scale) is DMA'd as that one row
  // and the LD repeats it (row_stride 0), instead of reading it from DRAM
  // once per row.
  std::vector<bool> rowBroadcast(nIn, false);
  for (size_t i = 0; i < nIn; ++i) {
    bool zero = innerRowDims > 0;
    for (int d = 0; d < innerRowDims; ++d)
      zero &= views[i].strides[size_t(outer + d)] == 0;
    rowBroadcast[i] = zero;
  }
  for (size_t i = 0; i < nIn; ++i) {
    Instruction ld;
    ld.fields.op = Opcode::LD;
    ld.fields.sub = uint8_t(LoadStream::Activations);
    ld.fields.slot = slotOf(int(i));
    ld.operands = base;
    if (rowBroadcast[i])
      ld.operands.rowStride = 0;
    seq.push_back(ld);
  }
  std::vector<bool> rowCols(seq.size(), false); // record uses cols = 1
  for (const ElementwiseStep &s : layer.steps) {
    Instruction spu;
    spu.fields.op = Opcode::SPU;
    spu.fields.sub = uint8_t(s.type);
    spu.fields.slot = slotOf(s.in0);
    spu.fields.outSlot = slotOf(s.out);
    spu.operands = base;
    spu.operands.func = s.func;
    spu.operands.imm = s.imm;
    if (s.type == SpuType::Binary)
      spu.operands.depth = slotOf(s.in1);
    if (s.rowData)
      spu.operands.cols = 1;
    seq.push_back(spu);
    rowCols.push_back(s.rowData);
  }
  Instruction st;
  st.fields.op = Opcode::ST;
  st.fields.sub = uint8_t(StoreSource::InputBuffer);
  st.fields.slot = slotOf(layer.result);
  st.operands = base;
  if (layer.rowResult) {
    st.operands.cols = 1;
    st.operands.rowStride = 1;
  }
  seq.push_back(st);
  rowCols.push_back(layer.rowResult);

  // An expanded input's tile without its repeats, and the local copy's
  // source box that repeats it: the staging region's dense strides, 0 along
  // the repeated dimensions.
  auto compactExtent = [&](const Tile &tile, size_t i) {
    return withoutRepeats(tile.extent, tile.views[i].strides);
  };
  auto expandBox = [&](const Tile &tile, size_t i) {
    std::vector<int64_t> c = compactExtent(tile, i);
    std::vector<int64_t> strides(c.size(), 0);
    int64_t step = 1;
    for (size_t d = c.size(); d-- > 0;) {
      strides[d] = tile.views[i].strides[d] == 0 ? 0 : step;
      step *= c[d];
    }
    DramBox b;
    for (size_t d = 0; d < c.size(); ++d)
      b.dim(tile.extent[d], strides[d]);
    b.rowDims = innerRowDims;
    return b;
  };

  std::vector<std::vector<const Tile *>> perCluster(static_cast<size_t>(nCl));
  for (size_t i = 0; i < tiles.size(); ++i)
    perCluster[i % size_t(nCl)].push_back(&tiles[i]);

  // Regions of one tile each, packed from address 0 (not spread over the
  // storage unit): the rest stays free for on-chip residency
  // (docs/passes.md, "Compact kernel storage").
  const uint64_t regionBytes = uint64_t(roundUp(tileRows * tileCols, 16)) * 4;
  auto regionAddr = [&](int half, size_t operand) {
    return uint32_t((uint64_t(half) * nIn + operand) * regionBytes);
  };
  // The staging regions of the expanded inputs (a compact tile each, per
  // half), after the halves; the inputs whose staging does not fit the
  // storage unit beside them are read with zero strides from DRAM.
  std::vector<uint64_t> stageOffset(nIn, 0), stageBytes(nIn, 0);
  uint64_t stageEnd = 2 * nIn * regionBytes;
  for (size_t i = 0; i < nIn; ++i) {
    if (!expand[i])
      continue;
    const uint64_t bytes = uint64_t(roundUp(compactElems(t, i), 16)) * 4;
    if (stageEnd + 2 * bytes > hw.storageBytes) {
      expand[i] = false;
      continue;
    }
    stageOffset[i] = stageEnd;
    stageBytes[i] = bytes;
    stageEnd += 2 * bytes;
  }
  auto stageAddr = [&](int half, size_t operand) {
    return uint32_t(stageOffset[operand] +
                    uint64_t(half) * stageBytes[operand]);
  };
  auto stageTag = [](int half) { return uint8_t(4 + half); };
  const bool anyExpanded =
      std::find(expand.begin(), expand.end(), true) != expand.end();
  const int64_t outRowStride = layer.rowResult ? 1 : tileCols;

  for (uint32_t cl = 0; cl < uint32_t(nCl); ++cl) {
    const auto &mine = perCluster[cl];
    if (mine.empty())
      continue;
    std::vector<OperandRecord> recs;
    for (auto &i : seq)
      recs.push_back(i.operands);
    sb.config(cl, kIbufElementwise, seq);
    auto issueLoads = [&](size_t s) {
      const Tile &tile = *mine[s];
      const int half = int(s % 2);
      for (size_t i = 0; i < nIn; ++i) {
        std::vector<int64_t> extent = tile.extent;
        if (rowBroadcast[i])
          std::fill(extent.begin(), extent.begin() + innerRowDims, 1);
        if (expand[i]) {
          std::vector<int64_t> compact = compactExtent(tile, i);
          sb.dmaLoad(cl, stageTag(half),
                     boxOf(tile.views[i], tile.origin, compact, innerRowDims),
                     stageAddr(half, i), product(compact, innerRowDims));
          continue;
        }
        sb.dmaLoad(cl, uint8_t(half),
                   boxOf(tile.views[i], tile.origin, extent, innerRowDims),
                   regionAddr(half, i), tileCols);
      }
    };
    // The expanded inputs of tile s, once their staging loads are in (the
    // tile's loads wait for these copies: same tag).
    auto expandLoads = [&](size_t s) {
      if (!anyExpanded)
        return;
      const Tile &tile = *mine[s];
      const int half = int(s % 2);
      sb.wait(cl, uint8_t(1u << stageTag(half)), false);
      for (size_t i = 0; i < nIn; ++i)
        if (expand[i])
          sb.dmaLocalCopy(cl, uint8_t(half), stageAddr(half, i),
                          expandBox(tile, i), regionAddr(half, i), tileCols);
    };
    issueLoads(0);
    expandLoads(0);
    for (size_t s = 0; s < mine.size(); ++s) {
      const Tile &tile = *mine[s];
      int half = int(s % 2);
      if (s + 1 < mine.size()) {
        // The next tile's half still feeds the store of tile s - 1 (tag
        // 2 + its half): on another memory channel than the loads, that
        // store is not ordered before them by the channel's queue.
        sb.wait(cl, uint8_t(1u << (2 + (s + 1) % 2)), true);
        issueLoads(s + 1);
      }
      sb.wait(cl, uint8_t((1u << half) | (1u << (2 + half))), false);
      DramBox in = boxOf(tile.views[0], tile.origin, tile.extent, innerRowDims);
      std::vector<int64_t> outExtent = tile.extent;
      if (layer.rowResult)
        for (size_t d = innerRowDims; d < outExtent.size(); ++d)
          outExtent[d] = 1;
      DramBox out =
          boxOf(tile.views[nIn], tile.origin, outExtent, innerRowDims);
      for (size_t i = 0; i < seq.size(); ++i) {
        recs[i].rows = uint32_t(in.rows());
        recs[i].cols = rowCols[i] ? 1u : uint32_t(in.cols());
        if (seq[i].fields.op == Opcode::LD)
          recs[i].addr = regionAddr(half, seq[i].fields.slot / slotsPer);
        if (seq[i].fields.op == Opcode::ST)
          recs[i].addr = regionAddr(half, 0);
      }
      sb.execute(cl, kIbufElementwise, recs, false, true);
      // The next tile's expansions run beside this tile's EXECUTE.
      if (s + 1 < mine.size())
        expandLoads(s + 1);
      sb.wait(cl, 0, true);
      sb.dmaStore(cl, uint8_t(2 + half), regionAddr(half, 0), outRowStride,
                  out);
    }
  }
  sb.endLayer();
  return true;
}

void accel::codegen::emitCopyLayer(StreamBuilder &sb,
                                   const std::vector<int64_t> &shape,
                                   const View &src, const View &dst) {
  const uint32_t nCl = sb.numClusters();
  size_t next = 0;
  forEachRank4(shape, {src, dst},
               [&](const std::vector<int64_t> &s, const std::vector<View> &v) {
                 // Split the outermost dimension over the clusters.
                 int64_t per = (s[0] + nCl - 1) / nCl;
                 for (int64_t o = 0; o < s[0]; o += per) {
                   std::vector<int64_t> origin(s.size(), 0), extent(s);
                   origin[0] = o;
                   extent[0] = std::min(per, s[0] - o);
                   sb.dmaDramCopy(uint32_t(next++ % nCl), 0,
                                  boxOf(v[0], origin, extent),
                                  boxOf(v[1], origin, extent));
                 }
               });
  sb.endLayer();
}
