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
