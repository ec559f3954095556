//===- PadBands.cpp - Per-cluster zero padding of a mapped convolution ----===//
//
// The implicit-GEMM convolution reads a zero-padded copy of its input. One
// padded buffer for all clusters made every cluster wait for every other
// cluster's part of the copy (each part held whole planes, and every cluster
// reads all planes of its rows) before its first tile. Instead every cluster
// slice reads a band: the padded rows its output pixels need, in a buffer of
// its own (DRAM starts zeroed, so only the valid rows are copied). Clusters
// whose slices need the same rows (an M or K split) share one band and split
// its copy by planes; the bands of different rows are copied in parallel and
// a cluster waits only for the copies of its own band (docs/passes.md,
// graph.conv2d).
//
//===----------------------------------------------------------------------===//
#include "Lowering.h"

using namespace accel;
using namespace accel::codegen;
using namespace accel::lowering;

/// Bytes a cluster with slack copies per DMA (emitPadBands).
static constexpr int64_t kPacedPieceBytes = 8 * 1024;

PadRows accel::lowering::convPadRows(const ConvGeom &g, int64_t p0,
                                     int64_t p1) {
  const int64_t oh0 = p0 / g.OW, oh1 = (p1 - 1) / g.OW + 1;
  return {oh0 * g.sh, std::min(g.Hp, (oh1 - 1) * g.sh + (g.KH - 1) * g.dh + 1)};
}

ConvGeom accel::lowering::convGeomOnBand(const ConvGeom &g,
                                         const std::vector<PadBand> &bands,
                                         int64_t p0, int64_t p1) {
  if (bands.empty())
    return g;
  const PadRows rows = convPadRows(g, p0, p1);
  for (const PadBand &b : bands)
    if (b.rows == rows) {
      ConvGeom gb = g;
      gb.Hp = rows.r1 - rows.r0;
      // Row r of a plane is row r - r0 of the band (unsigned wrap-around:
      // every address formed is inside the band).
      gb.x = b.addr - uint64_t(rows.r0 * g.Wp * 4);
      return gb;
    }
  llvm_unreachable("a slice without its padded band");
}

std::vector<PadBand> Lowering::emitPadBands(const ConvGeom &g, uint64_t x,
                                            int64_t H, int64_t W, int64_t padT,
                                            int64_t padL, int64_t M, int64_t N,
                                            int64_t K) {
  // The distinct bands, each with the clusters that read it.
  std::vector<PadBand> bands;
  std::vector<std::vector<uint32_t>> readers;
  std::vector<tiling::ClusterSlice> slices = cutSlices(M, N, K);
  for (uint32_t cl = 0; cl < slices.size(); ++cl) {
    const tiling::ClusterSlice &s = slices[cl];
    if (s.empty())
      continue;
    PadRows rows = convPadRows(g, s.n.begin, s.n.begin + s.n.size);
    size_t i = 0;
    while (i < bands.size() && !(bands[i].rows == rows))
      ++i;
    if (i == bands.size()) {
      bands.push_back({rows, 0});
      readers.emplace_back();
    }
    readers[i].push_back(cl);
  }
  // The cluster(s) with the most work start first; the others have slack and
  // pace their copies (kPacedPieceBytes per DMA, each waited for) so that the
  // busiest clusters' first tile loads on the same channel are not queued
  // behind a whole band.
  auto work = [&](uint32_t cl) {
    const tiling::ClusterSlice &s = slices[cl];
    return s.m.size * s.n.size * s.k.size;
  };
  int64_t most = 0;
  for (uint32_t cl = 0; cl < slices.size(); ++cl)
    if (!slices[cl].empty())
      most = std::max(most, work(cl));
  const int64_t planes = g.N * g.C;
  for (size_t i = 0; i < bands.size(); ++i) {
    PadBand &b = bands[i];
    const int64_t Hb = b.rows.r1 - b.rows.r0;
    b.addr = allocate(planes * Hb * g.Wp); // DRAM starts zeroed
    // Input rows [h0, h1) land in the band; the rest of it is padding.
    const int64_t h0 = std::max<int64_t>(0, b.rows.r0 - padT),
                  h1 = std::min(H, b.rows.r1 - padT);
    if (h1 <= h0)
      continue;
    const int64_t n = int64_t(readers[i].size());
    const int64_t per = ceilDiv(planes, n);
    for (int64_t j = 0, p0 = 0; p0 < planes; ++j, p0 += per) {
      const uint32_t cl = readers[i][size_t(j)];
      const int64_t pEnd = std::min(planes, p0 + per);
      const bool paced = work(cl) < most;
      const int64_t step =
          paced ? std::max<int64_t>(1, kPacedPieceBytes / ((h1 - h0) * W * 4))
                : pEnd - p0;
      for (int64_t q = p0; q < pEnd; q += step) {
        const int64_t pc = std::min(step, pEnd - q);
        DramBox src, dst;
        src.base = x + uint64_t((q * H + h0) * W * 4);
        src.dim(pc, H * W).dim(h1 - h0, W).dim(W, 1);
        dst.base =
            b.addr +
            uint64_t(((q * Hb + h0 + padT - b.rows.r0) * g.Wp + padL) * 4);
        dst.dim(pc, Hb * g.Wp).dim(h1 - h0, g.Wp).dim(W, 1);
        src.rowDims = dst.rowDims = 2;
        sb_.dmaDramCopy(cl, 0, src, dst);
        if (paced)
          sb_.wait(cl, 1, false);
      }
    }
  }
  sb_.endLayer();
  return bands;
}
