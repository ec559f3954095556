//===- DepthFirst.h - Depth-first channel slices and row bands --*- C++ -*-===//
//
// Depth-first tiling of a convolution whose output feeds a depthwise
// convolution (an inverted-residual "expand" and its depthwise layer). A
// depthwise layer reads each channel plane of its input on its own, so the
// pair can run one channel slice at a time: the producer computes output
// channels [c0, c1) (reading its whole input again) and the depthwise layer
// consumes exactly those planes. The intermediate map then exists one slice
// at a time, small enough to stay in the storage units instead of going
// through DRAM. This library decides how many slices (pure C++, no MLIR;
// the depth-first-channels pass applies it, docs/passes.md).
//
//===----------------------------------------------------------------------===//
#ifndef ACCEL_TILING_DEPTHFIRST_H
#define ACCEL_TILING_DEPTHFIRST_H

#include <cstdint>

namespace accel::tiling {

/// One producer -> depthwise pair, in bytes.
struct ChannelSliceProblem {
  uint64_t inputBytes = 0;        ///< the producer's input, read per slice
  uint64_t intermediateBytes = 0; ///< the producer's output map
  int64_t channels = 0;           ///< its channels (the depthwise groups)
  uint64_t onChipBytes = 0;       ///< storage of every cluster together
  uint64_t producerMacs = 0;      ///< the producer's multiply-adds
  double peakMacsPerCycle = 1;    ///< of the whole array
  double dramBytesPerCycle = 1;   ///< of all memory channels together
};

/// The thresholds of the decision, as fractions of the on-chip storage.
struct ChannelSliceRule {
  /// A map at most this share of the storage is left whole: residency can
  /// keep it on chip as it is.
  double wholeFraction = 0.5;
  /// A slice may take at most this share, so that it stays resident next
  /// to the producer's input and the depthwise output.
  double sliceFraction = 0.3;
  /// Slice only when the map's round trip through DRAM (write and read
  /// back at full bandwidth) takes at least this many times the producer's
  /// MAC time. Slicing also costs what this rule does not price: one more
  /// pair of layers per slice, the slices' mesh traffic, their partial
  /// spills and smaller layers' lower efficiency. Measured on the zoo
  /// (docs/passes.md, "depth-first-channels"): with 16 and half the storage
  /// per slice it sliced only on a DRAM-starved machine; since the kernels
  /// leave their unused storage to residency (strided units, smaller
  /// depthwise halves), 2 and 0.3 keep the slices on chip and pay on the
  /// default machine too.
  double minDramToMacRatio = 2;
};

/// The decision and what it costs and saves in DRAM bytes.
struct ChannelSlicing {
  int64_t slices = 1;           ///< 1: leave the pair as it is
  uint64_t sliceBytes = 0;      ///< the largest slice of the map
  uint64_t extraInputBytes = 0; ///< (slices - 1) more reads of the input
  uint64_t savedBytes = 0;      ///< the map's write and read back
};

/// The fewest slices that divide `channels` and fit the slice share, when
/// the map does not fit whole, its round trip through DRAM dominates the
/// producer's MACs (minDramToMacRatio) and the extra input reads cost fewer
/// bytes than that round trip; else 1 slice.
ChannelSlicing chooseChannelSlices(const ChannelSliceProblem &p,
                                   const ChannelSliceRule &rule = {});

/// A chain of layers whose output rows depend on their own input rows only
/// (no halo: 1x1 convolutions, transposed convolutions and pools whose
/// kernel equals their stride along the rows), run depth-first one band of
/// rows at a time so that the maps between the layers exist one band at a
/// time (the depth-first-rows pass applies it, docs/passes.md). In bytes.
struct RowSliceProblem {
  int64_t rows = 0;           ///< the chain input's rows
  int64_t rowMultiple = 1;    ///< a band boundary must be a multiple of this
                              ///< (every layer's boundary a whole row)
  uint64_t interiorBytes = 0; ///< the maps between the layers
  uint64_t largestInteriorBytes = 0; ///< the largest of them
  uint64_t weightBytes = 0;          ///< the layers' constants, read per band
  uint64_t outputCopyBytes = 0;      ///< the bands' concat when it is a copy
  /// A chain with halos: the chain input's bytes both bands next to a cut
  /// read (the rows around it that each band's layers make again).
  uint64_t haloBytesPerCut = 0;
  uint64_t onChipBytes = 0; ///< storage of every cluster together
  uint64_t macs = 0;        ///< the chain's multiply-adds
  double peakMacsPerCycle = 1;
  double dramBytesPerCycle = 1;
};

/// The thresholds of the decision.
struct RowSliceRule {
  /// Maps at most this share of the storage stay whole (residency keeps
  /// them on chip as they are).
  double wholeFraction = 0.5;
  /// A band of the largest map may take at most this share.
  double sliceFraction = 0.3;
  /// Slice only when the maps' DRAM round trip takes at least this many
  /// times the chain's MAC time: a MAC-bound chain hides that traffic, and
  /// every band is one more layer per op. Measured (docs/passes.md,
  /// "depth-first-rows"): the FPN detector's head, 0.93, ran 18 % faster
  /// in bands.
  double minDramToMacRatio = 0.5;
  /// At most this many bands (each is one layer per op of the chain).
  int64_t maxSlices = 256;
};

/// The decision and what it costs and saves in DRAM bytes.
struct RowSlicing {
  int64_t slices = 1;      ///< 1: leave the chain as it is
  uint64_t sliceBytes = 0; ///< one band of the largest map
  uint64_t extraBytes = 0; ///< weights and halo rows read again, the
                           ///< concat's copy
  uint64_t savedBytes = 0; ///< the maps' write and read back
};

/// The fewest bands (dividing `rows` into whole multiples of `rowMultiple`)
/// whose band of the largest map fits the slice share, when that map does
/// not fit whole, the DRAM round trip is long enough against the MACs and
/// the extra bytes are fewer than the saved ones; else 1 band.
RowSlicing chooseRowSlices(const RowSliceProblem &p,
                           const RowSliceRule &rule = {});

} // namespace accel::tiling

#endif
