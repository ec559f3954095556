//===- LowerConvWeightQueue.cpp - Convolution with the filter in the queue ===//
//
// The implicit GEMM of LowerMapped.cpp puts the filter in the input buffer
// (A = output channels x (kernel position, channel)) and the image in the
// weight queue. When the filter is a compile-time constant with enough zeros
// (convert-graph-to-isa sparse-weights=auto, docs/passes.md) the
// convolution is lowered transposed instead, so that the filter's tiles can
// be loaded as LD sparse_weights lists: the cluster's pixel slice is cut
// into pixel boxes (blocks of whole output rows, or pieces of a row) of at
// most one M partition (peRows * PEs pixels, as many as the input buffer
// allows), each a GEMM problem with rows = its output pixels (A: the image
// window per kernel position, strided by the convolution stride, channels
// as columns), columns = the slice's output channels (B: the filter,
// K x channels), C = the output (pixels x channels, strided by OH * OW). The
// mapping's slices (M = output channels, N = output pixels, K) and dataflows
// are kept; the stationary operand follows the tensor roles (activation = A).
//
//===----------------------------------------------------------------------===//
#include "Lowering.h"
#include "accel/Transforms/Passes.h"
#include <cstring>

using namespace mlir;
using namespace accel;
using namespace accel::codegen;
using namespace accel::lowering;

namespace {

/// Tiles of the transposed problem: rows = the slice's pixels (as many as
/// fit), columns = channels, shrunk until the PE buffers and the storage
/// halves hold them.
GemmTiling transposedTiling(const HardwareDesc &hw, const GemmTiling &t,
                            int64_t pixels, int64_t channels, bool init) {
  const int64_t pes = std::max<int64_t>(1, hw.pesPerCluster);
  GemmTiling tt = t;
  tt.outerM = true;
  tt.peRows = std::max<int64_t>(1, ceilDiv(pixels, pes));
  tt.nc = std::max<int64_t>(1, std::min(channels, t.peRows * pes));
  tt.kc = std::max<int64_t>(1, t.kc);
  const int64_t accFloats = int64_t(hw.accBufferBytes / 4);
  const int64_t ibFloats = int64_t(hw.inputBufferBytes / 4);
  const int64_t wqFloats = int64_t(hw.weightQueueBytes / 4);
  for (;;) {
    int64_t accCols = std::max<int64_t>(1, accFloats / tt.peRows);
    if (tt.nc > 1 &&
        (tt.nc > 4 * accCols || tt.kc * std::min(tt.nc, accCols) > wqFloats))
      tt.nc = std::max<int64_t>(1, tt.nc / 2);
    else if (tt.kc > 1 && (tt.peRows * tt.kc > ibFloats ||
                           tt.kc * std::min(tt.nc, accCols) > wqFloats))
      tt.kc = std::max<int64_t>(1, tt.kc / 2);
    else if (tt.peRows > 1 && (tt.peRows * tt.kc > ibFloats || accCols < 1))
      tt.peRows = std::max<int64_t>(1, tt.peRows / 2);
    else
      break;
  }
  return fitMappedTiling(hw, tt, init);
}
} // namespace

bool Lowering::convWeightsToQueue(const ConvGeom &g) {
  if (!opts_.sparseWeights)
    return false;
  const int64_t n = g.O * g.Cg * g.KH * g.KW;
  int64_t zeros = 0;
  if (const uint8_t *w = n > 0 ? constantSpan(g.w, uint64_t(n) * 4) : nullptr) {
    // The usual case: the weights are one constant segment.
    for (int64_t i = 0; i < n; ++i) {
      float v;
      std::memcpy(&v, w + i * 4, 4);
      zeros += v == 0.0f;
    }
    return double(zeros) >= opts_.sparseThreshold * double(n);
  }
  for (int64_t i = 0; i < n; ++i) {
    float v;
    if (!constantAt(g.w + uint64_t(i * 4), v))
      return false;
    zeros += v == 0.0f;
  }
  return n > 0 && double(zeros) >= opts_.sparseThreshold * double(n);
}

LogicalResult Lowering::emitMappedConvWeightsInQueue(Operation *op,
                                                     const ConvGeom &g,
                                                     const GemmTiling &t,
                                                     const GemmEpilogue &epi) {
  const int64_t M = g.Og, Npix = g.OH * g.OW, K = g.Cg * g.KH * g.KW;
  const MappedOutput mo = beginMapped(g.out, g.N * g.O * g.OH * g.OW);

  // The image as the boxes address it (unpadded under conv-padding=window).
  const ConvGeom gx = g.pad.on ? convGeomUnpadded(g) : g;
  auto fill = [&](const tiling::ClusterSlice &s, ClusterGemmWork &w) {
    w.tiling =
        transposedTiling(hw_, t, s.n.size, s.m.size, g.hasBias || mo.reloads);
    // Pixel boxes of at most one M partition each.
    std::vector<ConvNTile> pieces =
        convNTiles(g.OW, s.n.begin, s.n.begin + s.n.size,
                   w.tiling.peRows * int64_t(hw_.pesPerCluster));
    std::vector<ConvKChunk> kchunks =
        convKChunks(g, s.k.begin, s.k.begin + s.k.size, w.tiling.kc,
                    chunksMaySpanKernelRows(g, pieces));
    w.tiling = convChunkTiling(w.tiling, kchunks, g.hasBias || mo.reloads);
    std::vector<int64_t> nTiles = chunks(s.m.size, w.tiling.nc);
    std::vector<int64_t> n0 = prefix(nTiles);
    const int64_t mOff = s.m.begin;
    const uint64_t out = mo.partOut(s.part.k);
    const bool bias = g.hasBias && s.part.k == 0;
    for (int64_t n = 0; n < g.N; ++n)
      for (int64_t grp = 0; grp < g.groups; ++grp)
        for (const ConvNTile &pc : pieces) {
          GemmTiles p;
          p.m = pc.ohc * pc.owc;
          p.nTiles = nTiles;
          for (const ConvKChunk &kc : kchunks)
            p.kChunks.push_back(kc.depth());
          auto imageBox = [=](size_t ki) {
            const ConvKChunk &c = kchunks[ki];
            DramBox b;
            b.base =
                gx.x +
                uint64_t(((n * gx.C + grp * gx.Cg) * gx.Hp + pc.oh0 * gx.sh) *
                             gx.Wp +
                         pc.ow0 * gx.sw + convInputOffset(gx, c)) *
                    4;
            // Rows: the pixel box; columns: the chunk's K dims.
            b.rowDims = pc.ohc > 1 ? 2 : 1;
            if (pc.ohc > 1)
              b.dim(pc.ohc, gx.sh * gx.Wp);
            b.dim(pc.owc, gx.sw);
            appendInputKDims(b, gx, c);
            return b;
          };
          // One M partition per box (m0 = 0, mc = ohc * owc).
          p.aBox = [=](int64_t m0, int64_t mc, size_t ki) {
            (void)m0, (void)mc;
            return imageBox(ki);
          };
          if (g.pad.on)
            p.aPieces = [=](int64_t m0, int64_t mc, size_t ki,
                            int64_t rowStride) {
              (void)m0, (void)mc;
              return convImagePieces(g, n, grp, kchunks[ki], pc,
                                     /*aForm=*/true, rowStride, imageBox(ki));
            };
          p.bBox = [=](size_t ki, size_t ni) {
            const ConvKChunk &c = kchunks[ki];
            int64_t o0 = grp * g.Og + mOff + n0[ni];
            DramBox b;
            b.base =
                g.w +
                uint64_t(o0 * g.Cg * g.KH * g.KW + convFilterOffset(g, c)) * 4;
            // Rows: the chunk's K dims; columns: output channels.
            b.rowDims = appendFilterKDims(b, g, c);
            b.dim(nTiles[ni], g.Cg * g.KH * g.KW);
            return b;
          };
          p.cBox = [=](int64_t m0, int64_t mc, size_t ni) {
            (void)m0, (void)mc;
            int64_t o0 = grp * g.Og + mOff + n0[ni];
            DramBox b;
            b.base =
                out +
                uint64_t(((n * g.O + o0) * g.OH + pc.oh0) * g.OW + pc.ow0) * 4;
            b.rowDims = 2;
            b.dim(pc.ohc, g.OW).dim(pc.owc, 1).dim(nTiles[ni], g.OH * g.OW);
            return b;
          };
          if (bias)
            p.initBox = [=](int64_t m0, int64_t mc, size_t ni) {
              (void)m0, (void)mc;
              DramBox b;
              b.base = g.bias + uint64_t((grp * g.Og + mOff + n0[ni]) * 4);
              b.rowDims = 2;
              b.dim(pc.ohc, 0).dim(pc.owc, 0).dim(nTiles[ni], 1);
              return b;
            };
          w.problems.push_back(std::move(p));
        }
  };
  return finishMapped(op, mappedSlices(M, Npix, K, fill),
                      /*activationIsA=*/true, epi, mo);
}
