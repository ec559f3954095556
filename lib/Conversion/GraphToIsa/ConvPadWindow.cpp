//===- ConvPadWindow.cpp - Convolution padding inside the window ----------===//
//
// conv-padding=window (docs/passes.md, graph.conv2d): the implicit-GEMM
// convolution reads its unpadded input. Its image boxes are formed as over
// the padded input, with the planes H x W and the base shifted back by the
// padding; a tile none of whose pixels reads padding is that one box, any
// other the clipped boxes and zero runs of codegen::padWindowPieces. No
// padded copy is written, so the layer neither reads nor writes the feature
// map once more through DRAM nor waits for a copy layer.
//
//===----------------------------------------------------------------------===//
#include "Lowering.h"

using namespace accel;
using namespace accel::codegen;
using namespace accel::lowering;

ConvGeom accel::lowering::convGeomUnpadded(const ConvGeom &g) {
  ConvGeom u = g;
  u.Hp = g.pad.H;
  u.Wp = g.pad.W;
  u.x = g.x - uint64_t((g.pad.top * g.pad.W + g.pad.left) * 4);
  return u;
}

PadWindowTile accel::lowering::convPadWindowTile(const ConvGeom &g, int64_t n,
                                                 int64_t grp,
                                                 const ConvKChunk &c,
                                                 const ConvNTile &t, bool aForm,
                                                 int64_t rowStride) {
  const ConvPadWindow &p = g.pad;
  PadWindowTile w;
  w.planes = g.x + uint64_t((n * g.C + grp * g.Cg + c.c0) * p.H * p.W * 4);
  w.zeros = p.zeros;
  w.H = p.H, w.W = p.W, w.padT = p.top, w.padL = p.left;
  w.sh = g.sh, w.sw = g.sw, w.dh = g.dh, w.dw = g.dw;
  w.kh = c.kh, w.nkh = c.nkh, w.kw = c.kw, w.nkw = c.nkw, w.cc = c.cc;
  w.oh0 = t.oh0, w.ohc = t.ohc, w.ow0 = t.ow0, w.owc = t.owc;
  if (aForm) {
    w.posStride = c.cc, w.chanStride = 1, w.pixStride = rowStride;
  } else {
    w.posStride = c.cc * rowStride, w.chanStride = rowStride, w.pixStride = 1;
  }
  return w;
}

std::vector<TilePiece> accel::lowering::convImagePieces(
    const ConvGeom &g, int64_t n, int64_t grp, const ConvKChunk &c,
    const ConvNTile &t, bool aForm, int64_t rowStride, const DramBox &box) {
  PadWindowTile w = convPadWindowTile(g, n, grp, c, t, aForm, rowStride);
  if (!padWindowClips(w))
    return {denseTilePiece(box, rowStride)};
  return padWindowPieces(w);
}

bool accel::lowering::convPadWindowPays(const HardwareDesc &hw,
                                        const ConvGeom &g,
                                        const GemmTiling &t) {
  if (hw.channels.empty())
    return true;
  // Per channel (means): the cycles a DMA holds it besides its bytes, the
  // latency a dependent DMA waits for, the bandwidth.
  double held = 0, latency = 0, bw = 0;
  for (const MemoryChannel &ch : hw.channels) {
    held += double(ch.occupancyCycles(0));
    latency += double(ch.latencyCycles), bw += ch.bytesPerCycle;
  }
  const double nch = double(hw.channels.size());
  held /= nch, latency /= nch;
  const int64_t pes = std::max<int64_t>(1, hw.pesPerCluster);
  const int64_t r = std::max<int64_t>(1, t.peRows);
  // The layer's DMAs with its tiles `t`: every (pixel tile, K chunk) image
  // tile once per M partition (one DMA, or its pieces in the window), every
  // output tile stored once per M partition. The filter tiles are left out
  // (stationary or few next to the image tiles).
  std::vector<ConvNTile> tiles =
      convNTiles(g.OW, 0, g.OH * g.OW, std::max<int64_t>(1, t.nc));
  std::vector<ConvKChunk> chunks = convKChunks(
      g, 0, g.Cg * g.KH * g.KW, t.kc, chunksMaySpanKernelRows(g, tiles));
  double boxes = 0, pieces = 0, bytes = 0;
  for (const ConvNTile &nt : tiles) {
    boxes += 1;
    pieces += 1;
    for (const ConvKChunk &c : chunks) {
      PadWindowTile w =
          convPadWindowTile(g, 0, 0, c, nt, false, nt.ohc * nt.owc);
      boxes += 1;
      pieces += padWindowClips(w) ? double(padWindowPieces(w).size()) : 1.0;
      bytes += double(c.depth() * nt.ohc * nt.owc * 4);
    }
  }
  const double reps = double(ceilDiv(g.Og, r * pes) * g.N * g.groups);
  bytes = bytes * reps + double(g.N * g.O * g.OH * g.OW * 4);
  // A layer takes max(compute, channel time): each DMA holds a channel
  // for its share of the latency window plus its bytes; the copy is a
  // layer of its own before, the input read and written once more.
  const double compute = double(g.N * g.O * g.OH * g.OW) * double(g.Cg) *
                         double(g.KH * g.KW) /
                         double(hw.numClusters() * pes * hw.macLanes);
  auto channels = [&](double dmas) {
    return (dmas * reps * held + bytes / (bw / nch)) / nch;
  };
  const double copy =
      2.0 * double(g.N * g.C * g.pad.H * g.pad.W * 4) / bw + 2 * latency;
  return std::max(compute, channels(pieces)) <=
         std::max(compute, channels(boxes)) + copy;
}
