//===- SubPixel.h - A convolution of a nearest upsampling, per phase -*- C++
//-*-===//
//
// A stride-1 convolution over a map upsampled by nearest neighbour (factor
// s) reads every input value s x s times over: output row s q + a (phase a)
// sees, through its k taps, only the input rows q + d for a few offsets d.
// So the convolution of the upsampled map equals, per phase (a, b), a
// smaller convolution of the map itself whose taps are sums of the original
// ones, with the phases' results interleaved (depth to space). For a 3 x 3
// kernel and s = 2 every phase reads 2 x 2 input values: 16 multiply-adds
// per input pixel and channel pair instead of 36, and no upsampled map.
// Pure C++ (no MLIR); the fold-upsampled-merge pass applies it
// (docs/passes.md).
//
//===----------------------------------------------------------------------===//
#ifndef ACCEL_TILING_SUBPIXEL_H
#define ACCEL_TILING_SUBPIXEL_H

#include <cstdint>
#include <vector>

namespace accel::tiling {

/// One axis of the phase convolution: all s phases share one window of
/// `window` taps and pads (`padBefore`, `padAfter`) over the input; phase a
/// takes its output rows [offset[a], offset[a] + inSize) of the
/// `inSize + padBefore + padAfter - window + 1` the convolution makes, and
/// tap t of the original kernel adds into window position tapPos[a][t].
struct SubPixelAxis {
  int64_t factor = 1, window = 0, padBefore = 0, padAfter = 0;
  std::vector<int64_t> offset;              ///< per phase
  std::vector<std::vector<int64_t>> tapPos; ///< [phase][original tap]
  int64_t phaseOutSize(int64_t inSize) const {
    return inSize + padBefore + padAfter - window + 1;
  }
};

/// The phases of a convolution with `kernel` taps, pads `padBefore` /
/// `padAfter` and stride 1 over an axis upsampled `factor` times. False
/// when the convolution does not keep the upsampled size (padBefore +
/// padAfter != kernel - 1) or an argument is out of range.
bool planSubPixelAxis(int64_t kernel, int64_t padBefore, int64_t padAfter,
                      int64_t factor, SubPixelAxis &axis);

/// The phase kernels of weights `w` [O, C, KH, KW] (row-major), as one
/// convolution's weights [s_h * s_w * O, C, rows.window, cols.window]:
/// output channel (a * s_w + b) * O + o is phase (a, b) of output o.
/// Summed in double, rounded once.
std::vector<float> subPixelKernels(const std::vector<float> &w, int64_t O,
                                   int64_t C, int64_t KH, int64_t KW,
                                   const SubPixelAxis &rows,
                                   const SubPixelAxis &cols);

/// The weights of conv(b) after a 1 x 1 conv(a): wb [O, M, KH, KW] times
/// wa [M, C] gives [O, C, KH, KW], summed in double.
std::vector<float> composeAfterPointwise(const std::vector<float> &wb,
                                         const std::vector<float> &wa,
                                         int64_t O, int64_t M, int64_t C,
                                         int64_t KH, int64_t KW);

} // namespace accel::tiling

#endif
