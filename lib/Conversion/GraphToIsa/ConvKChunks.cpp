//===- ConvKChunks.cpp - K chunks of the implicit-GEMM convolution --------===//
//
// K of a convolution is the (kh, kw, c) flattening of the kernel window, c
// fastest. A chunk of one kernel position and a channel range is a 1-D
// channel box of the image; with few input channels (the first layer of a
// CNN: 3) that makes chunks of depth Cg, each paying a whole EXECUTE's fixed
// costs and a DMA's latency. Whole positions of one kernel row are a 2-D box
// (kernel columns at the dilation stride, channels at the plane stride), and
// whole kernel rows a 3-D one (rows at dh * Wp), so deeper chunks are single
// strided DMAs as long as the box keeps one dimension for the output pixels:
// kernel rows can be spanned only when every pixel box is a piece of one
// output row (docs/mapping.md, "Convolution K chunks").
//
//===----------------------------------------------------------------------===//
#include "Lowering.h"

#include <cstring>

using namespace accel;
using namespace accel::codegen;
using namespace accel::lowering;

namespace {
/// Sizes of `parts` balanced pieces of `total` (the first total % parts are
/// one longer).
std::vector<int64_t> balanced(int64_t total, int64_t parts) {
  std::vector<int64_t> v;
  for (int64_t i = 0; i < parts; ++i)
    v.push_back(total / parts + (i < total % parts ? 1 : 0));
  return v;
}

/// Units (kernel positions of a row, or kernel rows) per chunk for runs of
/// `extent` units, at most `most` per chunk: the fewest chunks whose
/// balanced pieces, all padded to the largest (the kernel sizes its tiles and
/// resident strips by the deepest chunk), pad less than a third of the run.
/// Kernel 3 wide, 2 positions per chunk: 1 (2 + 1 pads a third: a 3x3
/// layer with many channels keeps its one-position chunks); 7 wide, 3 per
/// chunk: 3 (3 + 2 + 2 pads 2 of 7).
int64_t unitsPerChunk(int64_t extent, int64_t most) {
  for (int64_t parts = ceilDiv(extent, most); parts < extent; ++parts) {
    int64_t largest = ceilDiv(extent, parts);
    if (3 * parts * largest < 4 * extent)
      return largest;
  }
  return 1;
}
} // namespace

std::vector<ConvKChunk> accel::lowering::convKChunks(const ConvGeom &g,
                                                     int64_t k0, int64_t k1,
                                                     int64_t kc,
                                                     bool spanRows) {
  std::vector<ConvKChunk> v;
  if (k1 <= k0)
    return v;
  kc = std::max<int64_t>(1, kc);
  const int64_t Cg = g.Cg, KW = g.KW;
  // Channel chunks [cb, ce) of position p.
  auto channels = [&](int64_t p, int64_t cb, int64_t ce) {
    for (int64_t c0 = cb; c0 < ce; c0 += kc)
      v.push_back({p / KW, p % KW, c0, std::min(kc, ce - c0)});
  };
  // Whole positions [a, b).
  const int64_t perChunk =
      kc / Cg < 2 ? kc / Cg : unitsPerChunk(KW, std::min(kc / Cg, KW));
  const int64_t rowsPerChunk =
      kc / (KW * Cg) < 2 ? 0 : unitsPerChunk(g.KH, kc / (KW * Cg));
  const bool rowRuns = spanRows && rowsPerChunk >= 2;
  auto positions = [&](int64_t a, int64_t b) {
    if (perChunk < 2 && !rowRuns) {
      for (int64_t p = a; p < b; ++p)
        channels(p, 0, Cg);
      return;
    }
    for (int64_t p = a; p < b;) {
      const int64_t kh = p / KW, rowEnd = (kh + 1) * KW;
      if (rowRuns && p == kh * KW && b >= rowEnd) {
        // Whole kernel rows, in balanced runs of at most rowsPerChunk.
        int64_t rows = (b - p) / KW;
        int64_t r0 = kh;
        for (int64_t n : balanced(rows, ceilDiv(rows, rowsPerChunk))) {
          v.push_back({r0, 0, 0, Cg, n, KW});
          r0 += n;
        }
        p += rows * KW;
        continue;
      }
      // Positions of one kernel row, in balanced runs of at most perChunk
      // (at least 1: a chunk of a kernel 1 wide is a whole row).
      int64_t end = std::min(b, rowEnd), len = end - p;
      int64_t kw = p - kh * KW;
      for (int64_t n : balanced(len, ceilDiv(len, perChunk))) {
        v.push_back({kh, kw, 0, Cg, 1, n});
        kw += n;
      }
      p = end;
    }
  };
  // Whole positions [pFirst, pLast), partial ones at either end.
  const int64_t pFirst = ceilDiv(k0, Cg), pLast = k1 / Cg;
  if (pFirst > pLast) { // [k0, k1) inside one position
    int64_t p = k0 / Cg;
    channels(p, k0 - p * Cg, k1 - p * Cg);
    return v;
  }
  if (k0 % Cg)
    channels(k0 / Cg, k0 % Cg, Cg);
  positions(pFirst, pLast);
  if (k1 % Cg)
    channels(pLast, 0, k1 % Cg);
  return v;
}

bool accel::lowering::chunksMaySpanKernelRows(
    const ConvGeom &g, const std::vector<ConvNTile> &tiles) {
  // Input K dims (rows, columns, channels) + pixel dims (rows, columns) <= 4.
  if (g.KW == 1)
    return true;
  for (const ConvNTile &t : tiles)
    if (t.ohc != 1)
      return false;
  return true;
}

int64_t accel::lowering::deepestChunk(const std::vector<ConvKChunk> &chunks) {
  int64_t d = 1;
  for (const ConvKChunk &c : chunks)
    d = std::max(d, c.depth());
  return d;
}

int accel::lowering::appendInputKDims(DramBox &b, const ConvGeom &g,
                                      const ConvKChunk &c) {
  int dims = 0;
  if (c.nkh > 1)
    b.dim(c.nkh, g.dh * g.Wp), ++dims;
  if (c.nkw > 1)
    b.dim(c.nkw, g.dw), ++dims;
  b.dim(c.cc, g.Hp * g.Wp);
  return dims + 1;
}

int64_t accel::lowering::convInputOffset(const ConvGeom &g,
                                         const ConvKChunk &c) {
  return (c.c0 * g.Hp + c.kh * g.dh) * g.Wp + c.kw * g.dw;
}

int accel::lowering::appendFilterKDims(DramBox &b, const ConvGeom &g,
                                       const ConvKChunk &c) {
  // Positions of a chunk are consecutive in the filter's (kh, kw) plane:
  // one kernel row, or whole rows.
  const int64_t positionStride = g.filterOhwi ? g.Cg : 1;
  const int64_t channelStride = g.filterOhwi ? 1 : g.KH * g.KW;
  if (c.positions() > 1) {
    b.dim(c.positions(), positionStride);
    b.dim(c.cc, channelStride);
    return 2;
  }
  b.dim(c.cc, channelStride);
  return 1;
}

int64_t accel::lowering::convFilterOffset(const ConvGeom &g,
                                          const ConvKChunk &c) {
  if (g.filterOhwi)
    return (c.kh * g.KW + c.kw) * g.Cg + c.c0;
  return (c.c0 * g.KH + c.kh) * g.KW + c.kw;
}

void Lowering::relayoutFilter(graph::Conv2DOp op, ConvGeom &g) {
  // Why: the chunks of an [O, Cg, KH, KW] filter are gathers at a KH KW
  // element stride, which every K chunk repeats over the whole filter (the
  // simulator's host caches then read it KH KW times, docs/simulator.md
  // "Simulator speed"); [O, KH, KW, Cg] makes each a contiguous run.
  const int64_t taps = g.KH * g.KW, O = g.O, Cg = g.Cg;
  if (taps < 2 || Cg < 2)
    return;
  // A K split cuts the input channels: in [O, Cg, KH, KW] a channel range of
  // an output channel is one run, which keeps the constant packets' slabs
  // (a cluster's span of the filter) as small as the slice.
  if (mapping_ && llvm::is_contained(mapping_->array.dims, tiling::SplitDim::K))
    return;
  // Per output channel a [Cg, taps] -> [taps, Cg] transpose (loops, not
  // an index function per element: FPN's 11 M weights took 65 ms that way).
  g.filterOhwi = permuteConstant(
      op.getWeight(), g.w, O * Cg * taps, [=](const uint8_t *in, uint8_t *out) {
        // Pointers stepped, not indices multiplied out per element.
        for (int64_t o = 0; o < O; ++o, in += Cg * taps * 4)
          for (int64_t t = 0; t < taps; ++t) {
            const uint8_t *from = in + t * 4;
            for (int64_t c = 0; c < Cg; ++c, from += taps * 4, out += 4)
              std::memcpy(out, from, 4);
          }
      });
}
