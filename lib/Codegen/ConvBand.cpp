//===- ConvBand.cpp - Input bands of the implicit-GEMM convolution --------===//
//
// See ConvBand.h and docs/mapping.md, "Convolution input bands".
//
//===----------------------------------------------------------------------===//
#include "accel/Codegen/ConvBand.h"

using namespace accel;
using namespace accel::codegen;

BandLayout accel::codegen::convBandLayout(const ConvWindow &w, int64_t oh0,
                                          int64_t ohc, int64_t ow0, int64_t owc,
                                          int64_t khLo, int64_t khHi,
                                          int64_t kwLo, int64_t kwHi,
                                          int64_t channels) {
  BandLayout b;
  b.r0 = oh0 * w.sh + khLo * w.dh;
  b.c0 = ow0 * w.sw + kwLo * w.dw;
  b.rows = (ohc - 1) * w.sh + (khHi - khLo) * w.dh + 1;
  b.cols = (owc - 1) * w.sw + (kwHi - kwLo) * w.dw + 1;
  b.channels = channels;
  return b;
}

DramBox accel::codegen::convBandTile(const ConvWindow &w, const BandLayout &b,
                                     int64_t kh, int64_t nkh, int64_t kw,
                                     int64_t nkw, int64_t c, int64_t cc,
                                     int64_t ohc, int64_t owc) {
  // Pixel (i, j) of kernel position (kh, kw) (relative to the band's first
  // kernel row / column) reads band row i * sh + kh * dh, column j * sw +
  // kw * dw: the band starts at the pixel box's first window row / column.
  DramBox t;
  int dims = 0;
  if (nkh > 1)
    t.dim(nkh, w.dh * b.cols), ++dims;
  if (nkw > 1)
    t.dim(nkw, w.dw), ++dims;
  t.dim(cc, b.rows * b.cols), ++dims;
  t.rowDims = dims;
  if (ohc > 1)
    t.dim(ohc, w.sh * b.cols);
  t.dim(owc, w.sw);
  t.base = uint64_t((c * b.rows + kh * w.dh) * b.cols + kw * w.dw);
  return t;
}
