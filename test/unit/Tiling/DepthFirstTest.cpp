//===- DepthFirstTest.cpp - chooseChannelSlices ---------------------------===//
#include "accel/Tiling/DepthFirst.h"
#include <gtest/gtest.h>

using namespace accel::tiling;

namespace {
/// MobileNetV3-Large's second block: 16 -> 64 channels at 112 x 112 (a
/// 3.2 MB map), 2 MiB of storage on four clusters, 1024 MACs per cycle.
ChannelSliceProblem secondBlock(double dramBytesPerCycle) {
  ChannelSliceProblem p;
  p.inputBytes = 16 * 112 * 112 * 4;
  p.intermediateBytes = 64 * 112 * 112 * 4;
  p.channels = 64;
  p.onChipBytes = 4 * 512 * 1024;
  p.producerMacs = uint64_t(64) * 16 * 112 * 112;
  p.peakMacsPerCycle = 1024;
  p.dramBytesPerCycle = dramBytesPerCycle;
  return p;
}
} // namespace

TEST(DepthFirst, DefaultMachineSlicesTheSecondBlock) {
  // Round trip 6.4 MB / 128 B per cycle = 50 k cycles, MACs 12.5 k: 4x, at
  // least the ratio of 2. 0.3 of the storage (629 KB) holds 12 channels of
  // the map; the fewest slices dividing 64 with at most that: 8 of 8.
  ChannelSlicing s = chooseChannelSlices(secondBlock(128));
  EXPECT_EQ(s.slices, 8);
  EXPECT_EQ(s.sliceBytes, 8u * 112 * 112 * 4);
  EXPECT_EQ(s.extraInputBytes, 7u * 16 * 112 * 112 * 4);
  EXPECT_EQ(s.savedBytes, 2u * 64 * 112 * 112 * 4);
}

TEST(DepthFirst, MacBoundPairsStayWhole) {
  // 512 B per cycle: the round trip (12.5 k cycles) is as long as the MACs,
  // under the ratio of 2; with the ratio the rule had until 2026-12-02
  // (16) not even 128 B per cycle slices.
  EXPECT_EQ(chooseChannelSlices(secondBlock(512)).slices, 1);
  ChannelSliceRule rule;
  rule.minDramToMacRatio = 16;
  EXPECT_EQ(chooseChannelSlices(secondBlock(128), rule).slices, 1);
}

TEST(DepthFirst, StarvedMachineTakesTheFewestSlicesThatFit) {
  // 8 B per cycle: 64x. With half the storage per slice (1 MiB: 20
  // channels of the map), the fewest slices dividing 64: 4 of 16 channels.
  ChannelSliceRule rule;
  rule.sliceFraction = 0.5;
  ChannelSlicing s = chooseChannelSlices(secondBlock(8), rule);
  EXPECT_EQ(s.slices, 4);
  EXPECT_EQ(s.sliceBytes, 16u * 112 * 112 * 4);
  EXPECT_EQ(s.extraInputBytes, 3u * 16 * 112 * 112 * 4);
  EXPECT_EQ(s.savedBytes, 2u * 64 * 112 * 112 * 4);
  // A smaller slice share asks for more slices: a quarter (512 KiB) -> 8.
  rule.sliceFraction = 0.25;
  EXPECT_EQ(chooseChannelSlices(secondBlock(8), rule).slices, 8);
}

TEST(DepthFirst, MapThatFitsStaysWhole) {
  ChannelSliceProblem p = secondBlock(8);
  p.intermediateBytes = 1 << 20; // half of the storage: residency's case
  EXPECT_EQ(chooseChannelSlices(p).slices, 1);
}

TEST(DepthFirst, InputRereadsMustCostLessThanTheRoundTrip) {
  // 3 more reads of a 3 MB input cost more than the 6.4 MB round trip.
  ChannelSliceProblem p = secondBlock(8);
  p.inputBytes = 3u << 20;
  EXPECT_EQ(chooseChannelSlices(p).slices, 1);
}

TEST(DepthFirst, SlicesDivideTheChannels) {
  // 7 channels (a prime): 2..6 slices do not divide them, 7 do.
  ChannelSliceProblem p = secondBlock(8);
  p.channels = 7;
  p.intermediateBytes = 7u * 512 * 1024;
  p.producerMacs = 1;
  EXPECT_EQ(chooseChannelSlices(p).slices, 7);
  p.channels = 1;
  EXPECT_EQ(chooseChannelSlices(p).slices, 1);
}

namespace {
/// The FPN text detector's head on the default machine: two 2x2 stride-2
/// transposed convolutions, 64 x 160 x 160 -> 64 x 320 x 320 (a 26.2 MB
/// map) -> 1 x 640 x 640, 2 MiB of storage, 1024 MACs and 128 DRAM bytes
/// per cycle.
RowSliceProblem fpnHead() {
  RowSliceProblem p;
  p.rows = 160;
  p.interiorBytes = p.largestInteriorBytes = 64u * 320 * 320 * 4;
  p.weightBytes = (64 * 64 * 4 + 64 + 64 * 4 + 1) * 4;
  p.outputCopyBytes = 0; // one channel: the concat is addressing
  p.onChipBytes = 4 * 512 * 1024;
  p.macs = uint64_t(64) * 64 * 4 * 160 * 160 + uint64_t(64) * 4 * 320 * 320;
  p.peakMacsPerCycle = 1024;
  p.dramBytesPerCycle = 128;
  return p;
}
} // namespace

TEST(DepthFirstRows, FpnHeadRunsInEightyBands) {
  // 0.3 of the storage (629 146 bytes) against 26.2 MB: at least 41.7
  // bands; 40 divides 160 but leaves 655 360 bytes per band, 80 leaves
  // 327 680. The round trip (409.6 k cycles) is 0.94x the MACs, at least
  // 0.5; 79 more weight reads (66.6 KB each) cost less than 52.4 MB.
  RowSlicing s = chooseRowSlices(fpnHead());
  EXPECT_EQ(s.slices, 80);
  EXPECT_EQ(s.sliceBytes, 327680u);
  EXPECT_EQ(s.extraBytes, 79u * fpnHead().weightBytes);
  EXPECT_EQ(s.savedBytes, 2u * 64 * 320 * 320 * 4);
}

TEST(DepthFirstRows, BandsAreWholeRowsAtEveryLayer) {
  // With boundaries on multiples of 3 input rows, 80 bands of 2 rows do
  // not qualify; 160 has no divisor k with 160 / k a multiple of 3 and a
  // band small enough, so the chain stays.
  RowSliceProblem p = fpnHead();
  p.rowMultiple = 3;
  EXPECT_EQ(chooseRowSlices(p).slices, 1);
  // Multiples of 2: 80 bands of 2 rows still qualify.
  p.rowMultiple = 2;
  EXPECT_EQ(chooseRowSlices(p).slices, 80);
  // At most 40 bands: none small enough.
  RowSliceRule rule;
  rule.maxSlices = 40;
  EXPECT_EQ(chooseRowSlices(fpnHead(), rule).slices, 1);
}

TEST(DepthFirstRows, SmallMapsMacBoundChainsAndHeavyWeightsStayWhole) {
  RowSliceProblem small = fpnHead();
  small.interiorBytes = small.largestInteriorBytes = 1 << 20; // half of 2 MiB
  EXPECT_EQ(chooseRowSlices(small).slices, 1);
  // Ten times the MACs: the round trip is 0.09x of them.
  RowSliceProblem macBound = fpnHead();
  macBound.macs *= 10;
  EXPECT_EQ(chooseRowSlices(macBound).slices, 1);
  // A 1 MB filter read 79 more times costs more than the round trip saves.
  RowSliceProblem heavy = fpnHead();
  heavy.weightBytes = 1 << 20;
  EXPECT_EQ(chooseRowSlices(heavy).slices, 1);
  // A concat copy of the output counts twice against the saving.
  RowSliceProblem copied = fpnHead();
  copied.outputCopyBytes = 64u * 320 * 320 * 4;
  RowSlicing s = chooseRowSlices(copied);
  EXPECT_EQ(s.slices, 1);
}

TEST(DepthFirstRows, HaloRowsCountOncePerCut) {
  // The FPN head's 80 bands with a halo: each of the 79 cuts reads a
  // 164 KB row block of the input again (two rows of 64 x 160 floats,
  // plus a bit), on top of the weights.
  RowSliceProblem halo = fpnHead();
  halo.haloBytesPerCut = 2u * 64 * 160 * 4 + 4096;
  RowSlicing s = chooseRowSlices(halo);
  EXPECT_EQ(s.slices, 80);
  EXPECT_EQ(s.extraBytes, 79u * (fpnHead().weightBytes + halo.haloBytesPerCut));
  // Halo rows as heavy as the saving per cut: the chain stays whole.
  halo.haloBytesPerCut = 2u * 64 * 320 * 320 * 4 / 79;
  EXPECT_EQ(chooseRowSlices(halo).slices, 1);
}
