//===- ArrayMappingTest.cpp - Dataflow / array partition cost model -------===//
//
// The nine partitions and the slice each cluster computes on the spec's
// I(4x8) . W(8x8) example, balanced splits of non-divisible extents, idle
// clusters of an M split of an SpMV, the combine cost of K splits, the DMA
// volumes per dataflow, and the selection with forced parts.
//
//===----------------------------------------------------------------------===//
#include "accel/Tiling/ArrayMapping.h"
#include "accel/Hardware/HardwareDesc.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <set>

using namespace accel;
using namespace accel::tiling;

namespace {

ArrayPartition part(SplitDim r, SplitDim c) { return ArrayPartition{{r, c}}; }

MappingProblem problem(int64_t m, int64_t k, int64_t n, int64_t tile = 64) {
  MappingProblem p;
  p.gemm.m = m, p.gemm.k = k, p.gemm.n = n;
  p.tileM = p.tileN = p.tileK = tile;
  return p;
}

TEST(ArrayMapping, NamesAndParsing) {
  std::vector<ArrayPartition> all = allPartitions();
  ASSERT_EQ(all.size(), 9u);
  std::vector<std::string> names;
  for (const ArrayPartition &a : all)
    names.push_back(partitionName(a));
  EXPECT_EQ(names, (std::vector<std::string>{"[M,M]", "[M,N]", "[M,K]", "[N,M]",
                                             "[N,N]", "[N,K]", "[K,M]", "[K,N]",
                                             "[K,K]"}));
  Dataflow d;
  EXPECT_TRUE(parseDataflow("weight_stationary", d));
  EXPECT_EQ(d, Dataflow::WeightStationary);
  EXPECT_FALSE(parseDataflow("row_stationary", d));
  SplitDim s;
  EXPECT_TRUE(parseSplitDim("K", s));
  EXPECT_EQ(s, SplitDim::K);
  EXPECT_FALSE(parseSplitDim("k", s));
  EXPECT_EQ(
      choiceName({Dataflow::InputStationary, part(SplitDim::K, SplitDim::N)}),
      "input_stationary [K,N]");
}

TEST(ArrayMapping, BalancedSplitRanges) {
  // 10 over 4: 3, 3, 2, 2.
  std::vector<int64_t> sizes, begins;
  for (int i = 0; i < 4; ++i) {
    Range1 r = splitRange(10, 4, i);
    sizes.push_back(r.size);
    begins.push_back(r.begin);
  }
  EXPECT_EQ(sizes, (std::vector<int64_t>{3, 3, 2, 2}));
  EXPECT_EQ(begins, (std::vector<int64_t>{0, 3, 6, 8}));
  // More parts than elements: the last parts are empty.
  EXPECT_EQ(splitRange(2, 4, 1).size, 1);
  EXPECT_EQ(splitRange(2, 4, 2).size, 0);
  EXPECT_EQ(splitRange(2, 4, 3).size, 0);
}

// Spec Figs. 8 / 9: I (4x8) . W (8x8) = O (4x8) on a 2 x 2 array.
TEST(ArrayMapping, SpecExampleSlices) {
  auto slice = [](ArrayPartition p, int r, int c) {
    return clusterSlice(p, 2, 2, r, c, /*m=*/4, /*n=*/8, /*k=*/8);
  };
  // [M,N] (rows split M, columns split N): cluster (1,0) computes rows 2-3,
  // columns 0-3 with the whole K.
  ClusterSlice s = slice(part(SplitDim::M, SplitDim::N), 1, 0);
  EXPECT_EQ(s.m.begin, 2);
  EXPECT_EQ(s.m.size, 2);
  EXPECT_EQ(s.n.begin, 0);
  EXPECT_EQ(s.n.size, 4);
  EXPECT_EQ(s.k.size, 8);
  // [M,M]: one row per cluster, in row-major cluster order.
  for (int r = 0; r < 2; ++r)
    for (int c = 0; c < 2; ++c) {
      ClusterSlice mm = slice(part(SplitDim::M, SplitDim::M), r, c);
      EXPECT_EQ(mm.m.begin, r * 2 + c);
      EXPECT_EQ(mm.m.size, 1);
      EXPECT_EQ(mm.n.size, 8);
    }
  // [M,K] (Fig. 9c-like): K halves along the columns, summed across a row.
  ClusterSlice mk = slice(part(SplitDim::M, SplitDim::K), 0, 1);
  EXPECT_EQ(mk.k.begin, 4);
  EXPECT_EQ(mk.k.size, 4);
  EXPECT_EQ(mk.part.kCol, 1);
  EXPECT_EQ(mk.part.kRow, 0);
  // [K,K] (Fig. 9i): four K quarters, all four summed.
  std::set<int64_t> kBegins;
  for (int r = 0; r < 2; ++r)
    for (int c = 0; c < 2; ++c) {
      ClusterSlice kk = slice(part(SplitDim::K, SplitDim::K), r, c);
      EXPECT_EQ(kk.k.size, 2);
      EXPECT_EQ(kk.part.k, r * 2 + c);
      EXPECT_EQ(kk.m.size, 4);
      EXPECT_EQ(kk.n.size, 8);
      kBegins.insert(kk.k.begin);
    }
  EXPECT_EQ(kBegins, (std::set<int64_t>{0, 2, 4, 6}));
  SplitFactors f = splitFactors(part(SplitDim::K, SplitDim::K), 2, 2);
  EXPECT_EQ(f.k, 4);
  EXPECT_EQ(f.kRows, 2);
  EXPECT_EQ(f.kCols, 2);
}

TEST(ArrayMapping, MSplitOfSpmvLeavesClustersIdle) {
  HardwareDesc hw = defaultHardware();
  MappingProblem p = problem(/*m=*/1, /*k=*/2048, /*n=*/1024);
  MappingChoice mm{Dataflow::OutputStationary, part(SplitDim::M, SplitDim::M)};
  MappingChoice nn{Dataflow::OutputStationary, part(SplitDim::N, SplitDim::N)};
  MappingCost cm = mappingCost(p, hw, mm), cn = mappingCost(p, hw, nn);
  EXPECT_EQ(cm.activeClusters, 1);
  EXPECT_EQ(cn.activeClusters, 4);
  // Memory bound: one cluster streams all of W over one channel, four
  // clusters use both channels.
  EXPECT_GT(cm.cycles, 1.8 * cn.cycles);
  // The selection never splits M over both grid dimensions for an SpMV and
  // keeps both channels busy (one active cluster per channel suffices).
  MappingCost best = selectMapping(p, hw);
  EXPECT_FALSE(best.choice.array.dims[0] == SplitDim::M &&
               best.choice.array.dims[1] == SplitDim::M);
  EXPECT_GE(best.activeClusters, 2);
  EXPECT_LT(best.cycles, 0.55 * cm.cycles);
}

TEST(ArrayMapping, UnsplitGridDimensions) {
  std::vector<ArrayPartition> c = candidatePartitions();
  ASSERT_EQ(c.size(), 16u);
  EXPECT_EQ(partitionName(c[9]), "[M,none]");
  EXPECT_EQ(partitionName(c[15]), "[none,none]");
  SplitDim s;
  EXPECT_TRUE(parseSplitDim("none", s));
  EXPECT_EQ(s, SplitDim::None);
  // [K,none] on 2 x 2: K halves on the first column, the second idles.
  ArrayPartition kn = part(SplitDim::K, SplitDim::None);
  SplitFactors f = splitFactors(kn, 2, 2);
  EXPECT_EQ(f.k, 2);
  EXPECT_EQ(f.kRows, 2);
  EXPECT_EQ(f.kCols, 1);
  ClusterSlice s10 = clusterSlice(kn, 2, 2, 1, 0, 4, 8, 8);
  EXPECT_EQ(s10.k.begin, 4);
  EXPECT_EQ(s10.k.size, 4);
  EXPECT_EQ(s10.part.kRow, 1);
  EXPECT_TRUE(clusterSlice(kn, 2, 2, 0, 1, 4, 8, 8).empty());
  // [none,none]: one cluster computes everything.
  HardwareDesc hw = defaultHardware();
  MappingCost one = mappingCost(
      problem(4, 8, 8), hw,
      {Dataflow::OutputStationary, part(SplitDim::None, SplitDim::None)});
  EXPECT_EQ(one.activeClusters, 1);
  EXPECT_EQ(one.combineCycles, 0);
  // Where each DMA holds its channel for the whole latency (one DMA in
  // flight), a tiny layer pays fewer of them on fewer clusters: the
  // selection leaves a grid dimension unsplit for the spec's 4x8x8 example.
  HardwareDesc serial = hw;
  for (MemoryChannel &ch : serial.channels)
    ch.maxOutstanding = 1;
  MappingCost best = selectMapping(problem(4, 8, 8), serial);
  EXPECT_TRUE(best.choice.array.dims[0] == SplitDim::None ||
              best.choice.array.dims[1] == SplitDim::None)
      << choiceName(best.choice);
  // A big layer still spreads over the whole grid.
  EXPECT_EQ(selectMapping(problem(1024, 1024, 1024), hw).activeClusters, 4);
}

TEST(ArrayMapping, OnlyKSplitsPayTheCombine) {
  HardwareDesc hw = defaultHardware();
  MappingProblem p = problem(256, 512, 256);
  for (const MappingCost &c : allMappingCosts(p, hw)) {
    bool k = c.choice.array.dims[0] == SplitDim::K ||
             c.choice.array.dims[1] == SplitDim::K;
    EXPECT_EQ(c.combineCycles > 0, k) << choiceName(c.choice);
    EXPECT_GE(c.cycles, c.combineCycles);
  }
  // [K,K] needs two add layers (across a row, then across rows), [K,M] one.
  MappingCost kk = mappingCost(
      p, hw, {Dataflow::OutputStationary, part(SplitDim::K, SplitDim::K)});
  MappingCost km = mappingCost(
      p, hw, {Dataflow::OutputStationary, part(SplitDim::K, SplitDim::M)});
  EXPECT_GT(kk.combineCycles, km.combineCycles);
}

TEST(ArrayMapping, DmaVolumesPerDataflow) {
  HardwareDesc hw = defaultHardware();
  // Everything fits one tile per cluster: each operand is loaded once and C
  // stored once: per cluster (32x64 + 64x32 + 32x32) f32.
  MappingProblem p = problem(64, 64, 64);
  MappingCost os = mappingCost(
      p, hw, {Dataflow::OutputStationary, part(SplitDim::M, SplitDim::N)});
  EXPECT_EQ(os.dmaBytes, 4u * (32 * 64 + 64 * 32 + 32 * 32) * 4);
  EXPECT_EQ(os.activeClusters, 4);
  // With several K chunks, input / weight stationary store and reload the
  // partial sums: more traffic than output stationary.
  MappingProblem q = problem(128, 1024, 128, 64);
  ArrayPartition mn = part(SplitDim::M, SplitDim::N);
  MappingCost o = mappingCost(q, hw, {Dataflow::OutputStationary, mn});
  MappingCost i = mappingCost(q, hw, {Dataflow::InputStationary, mn});
  MappingCost w = mappingCost(q, hw, {Dataflow::WeightStationary, mn});
  EXPECT_GT(i.dmaBytes, o.dmaBytes);
  EXPECT_GT(w.dmaBytes, o.dmaBytes);
  // Input stationary on a matmul (activation = A) is weight stationary on a
  // convolution (activation = B) with the roles of A and B swapped.
  MappingProblem conv = q;
  conv.activationIsA = false;
  MappingCost ws = mappingCost(conv, hw, {Dataflow::WeightStationary, mn});
  EXPECT_EQ(ws.dmaBytes, i.dmaBytes);
  EXPECT_DOUBLE_EQ(ws.cycles, i.cycles);
}

TEST(ArrayMapping, SelectionIsTheMinimumAndHonoursForcedParts) {
  HardwareDesc hw = defaultHardware();
  for (MappingProblem p : {problem(1, 2048, 1000), problem(3136, 576, 64),
                           problem(64, 4608, 512), problem(100, 333, 77)}) {
    std::vector<MappingCost> all = allMappingCosts(p, hw);
    ASSERT_EQ(all.size(), 27u);
    for (const MappingCost &c : all)
      EXPECT_GT(c.cycles, 0);
    // selectMapping prices the 48 pairs of candidatePartitions().
    double lo = all.front().cycles;
    for (Dataflow d : {Dataflow::InputStationary, Dataflow::OutputStationary,
                       Dataflow::WeightStationary})
      for (const ArrayPartition &a : candidatePartitions())
        lo = std::min(lo, mappingCost(p, hw, {d, a}).cycles);
    MappingCost best = selectMapping(p, hw);
    EXPECT_DOUBLE_EQ(best.cycles, lo);
    Dataflow ws = Dataflow::WeightStationary;
    MappingCost f = selectMapping(p, hw, &ws);
    EXPECT_EQ(f.choice.dataflow, ws);
    ArrayPartition kn = part(SplitDim::K, SplitDim::N);
    MappingCost g = selectMapping(p, hw, nullptr, &kn);
    EXPECT_EQ(g.choice.array, kn);
    MappingCost both = selectMapping(p, hw, &ws, &kn);
    EXPECT_EQ(both.choice, (MappingChoice{ws, kn}));
  }
}

TEST(ArrayMapping, WorkIsCoveredExactlyOnce) {
  // Every (m, n, k) point belongs to exactly one cluster for every
  // partition (the nine and those with an unsplit grid dimension), also on
  // a 3 x 2 grid with extents no split divides.
  for (const ArrayPartition &a : candidatePartitions()) {
    int64_t m = 7, n = 5, k = 11;
    std::vector<int> hits(size_t(m * n * k), 0);
    for (int r = 0; r < 3; ++r)
      for (int c = 0; c < 2; ++c) {
        ClusterSlice s = clusterSlice(a, 3, 2, r, c, m, n, k);
        for (int64_t i = s.m.begin; i < s.m.begin + s.m.size; ++i)
          for (int64_t j = s.n.begin; j < s.n.begin + s.n.size; ++j)
            for (int64_t l = s.k.begin; l < s.k.begin + s.k.size; ++l)
              ++hits[size_t((i * n + j) * k + l)];
      }
    for (int h : hits)
      ASSERT_EQ(h, 1) << partitionName(a);
  }
}

} // namespace

namespace {
TEST(ArrayMapping, InstructionBufferLimit) {
  HardwareDesc hw = defaultHardware();
  // Input stationary with a bias, several K chunks and a fused ReLU needs
  // two instruction buffers (init without / with the ReLU on the last
  // chunk); output stationary with a bias two (first chunk with init).
  MappingProblem p = problem(128, 1024, 128, 64);
  p.withInit = true;
  p.fusedFunc = true;
  ArrayPartition mn = part(SplitDim::M, SplitDim::N);
  EXPECT_EQ(
      mappingCost(p, hw, {Dataflow::InputStationary, mn}).instructionBuffers,
      2);
  EXPECT_EQ(
      mappingCost(p, hw, {Dataflow::OutputStationary, mn}).instructionBuffers,
      2);
  // Without bias the first chunk of input stationary differs as well.
  p.withInit = false;
  EXPECT_EQ(
      mappingCost(p, hw, {Dataflow::InputStationary, mn}).instructionBuffers,
      3);
  EXPECT_EQ(
      mappingCost(p, hw, {Dataflow::OutputStationary, mn}).instructionBuffers,
      1);
  // A machine with two buffers rules input / weight stationary out.
  hw.instructionBuffers = 2;
  MappingCost is = mappingCost(p, hw, {Dataflow::InputStationary, mn});
  EXPECT_FALSE(is.feasible);
  EXPECT_TRUE(std::isinf(is.cycles));
  MappingCost best = selectMapping(p, hw);
  EXPECT_TRUE(best.feasible);
  EXPECT_LE(best.instructionBuffers, 2);
  // K splits move the ReLU to the combine layer: one buffer suffices.
  MappingCost kk = mappingCost(
      p, hw, {Dataflow::InputStationary, part(SplitDim::K, SplitDim::K)});
  EXPECT_TRUE(kk.feasible);
}
} // namespace

TEST(ArrayMapping, ChannelSharersCountBusyClustersOfTheChannel) {
  // Default 2 x 2 grid, two channels: clusters 0, 1 on channel 0, 2, 3 on 1.
  HardwareDesc hw = defaultHardware();
  auto slicesOf = [&](ArrayPartition a) {
    std::vector<ClusterSlice> v;
    for (int64_t r = 0; r < 2; ++r)
      for (int64_t c = 0; c < 2; ++c)
        v.push_back(clusterSlice(a, 2, 2, r, c, 64, 64, 64));
    return v;
  };
  std::vector<ClusterSlice> mm = slicesOf(part(SplitDim::M, SplitDim::M));
  for (uint32_t cl = 0; cl < 4; ++cl)
    EXPECT_EQ(channelSharers(hw, mm, cl), 2u);
  // [M, none]: only the first column works, one cluster per channel.
  std::vector<ClusterSlice> mNone = slicesOf(part(SplitDim::M, SplitDim::None));
  EXPECT_EQ(channelSharers(hw, mNone, 0), 1u);
  EXPECT_EQ(channelSharers(hw, mNone, 2), 1u);
}

TEST(ArrayMapping, SliceTilesGrowWhenTheChannelIsTheBottleneck) {
  HardwareDesc hw = defaultHardware();
  // The slice of one cluster of ResNet-50's 1x1 1024 -> 256 layer (14 x 14)
  // under [M,M]: 64 filters x 196 pixels x K = 1024, output stationary,
  // layer tiles 64 x 64 x 256, two clusters on the channel. With 64-column
  // steps each weight tile is reloaded for every pixel tile and the
  // channel needs more time than the PEs: bigger steps are chosen.
  MappingProblem p = problem(256, 1024, 196);
  p.tileK = 256;
  p.activationIsA = false;
  p.withInit = true;
  SliceTiles layer{64, 64, 256};
  SliceTiles t = chooseSliceTiles(p, hw, Dataflow::OutputStationary, 64, 196,
                                  1024, true, 2);
  EXPECT_FALSE(t == layer);
  EXPECT_GT(t.tileN, 64);
  EXPECT_LE(t.tileN, 196);
  EXPECT_LE(t.tileM, 64); // never more rows than the slice
  EXPECT_GE(t.tileK, 128);
  // The PE buffers hold one step: accumulators, input buffer, weight queue.
  int64_t peRows = (t.tileM + 3) / 4;
  int64_t accCols = int64_t(hw.accBufferBytes / 4) / peRows;
  EXPECT_LE(t.tileN, 4 * accCols);
  EXPECT_LE(peRows * t.tileK, int64_t(hw.inputBufferBytes / 4));
  EXPECT_LE(t.tileK * std::min(t.tileN, accCols),
            int64_t(hw.weightQueueBytes / 4));
  // A slice the layer tiles already cover whole keeps them when DMAs are
  // latency-bound (one in flight per channel: smaller steps only add
  // latencies).
  HardwareDesc serial = hw;
  for (MemoryChannel &ch : serial.channels)
    ch.maxOutstanding = 1;
  MappingProblem small = problem(32, 32, 32, 64);
  SliceTiles keep = chooseSliceTiles(small, serial, Dataflow::OutputStationary,
                                     8, 16, 32, false, 2);
  EXPECT_TRUE((keep == SliceTiles{64, 64, 64}));
}

TEST(ArrayMapping, ConvolutionSliceTilesMoveFewerBytesAtTheSameCycles) {
  HardwareDesc hw = defaultHardware();
  // One cluster's slice of the FPN detector's 3 x 3 conv 256 -> 64 at
  // 160 x 160 under [N,N]: 64 filters x 6400 pixels x K = 2304, output
  // stationary, layer tiles 64 x 64 x 256, two clusters on the channel.
  // The 590 KB filter does not fit a storage unit, so 64-pixel steps
  // reload it for every pixel tile; the bytes step takes shorter K chunks
  // (a quarter of the layer's) that keep a strip per wide pixel tile.
  MappingProblem p = problem(64, 2304, 6400);
  p.tileM = 64, p.tileN = 64, p.tileK = 256;
  p.activationIsA = false;
  p.withInit = true;
  p.rowInit = true;
  SliceTiles t = chooseSliceTiles(p, hw, Dataflow::OutputStationary, 64, 6400,
                                  2304, true, 2);
  // K chunks below half the layer's come only from the bytes step.
  EXPECT_LT(t.tileK, 128);
  int64_t peRows = (t.tileM + 3) / 4;
  int64_t accCols = int64_t(hw.accBufferBytes / 4) / peRows;
  EXPECT_LE(t.tileN, 4 * accCols);
  EXPECT_LE(t.tileK * std::min(t.tileN, accCols),
            int64_t(hw.weightQueueBytes / 4));
  // A matmul keeps the cycles search's tiles (at most 4x the columns, at
  // least half the depth).
  MappingProblem mm = p;
  mm.activationIsA = true;
  mm.rowInit = false;
  SliceTiles m = chooseSliceTiles(mm, hw, Dataflow::OutputStationary, 64, 6400,
                                  2304, true, 2);
  EXPECT_LE(m.tileN, 4 * 64);
  EXPECT_GE(m.tileK, 128);
}

TEST(ArrayMapping, SplitDecisionRangesReplaceTheBalancedSlices) {
  // [N,N] on 2 x 2 with split-strategy's ranges for 7 output rows x 7 in 16
  // core pieces: clusters 0 and 2 own the image, 1 and 3 idle.
  ArrayPartition nn = part(SplitDim::N, SplitDim::N);
  std::vector<int64_t> ranges{0, 28, 28, 49, 49};
  ASSERT_TRUE(validRanges(nn, 2, 2, 512, 49, 4608, ranges));
  std::vector<ClusterSlice> s = clusterSlices(nn, 2, 2, 512, 49, 4608, ranges);
  ASSERT_EQ(s.size(), 4u);
  EXPECT_EQ(s[0].n.begin, 0);
  EXPECT_EQ(s[0].n.size, 28);
  EXPECT_TRUE(s[1].empty());
  EXPECT_EQ(s[2].n.begin, 28);
  EXPECT_EQ(s[2].n.size, 21);
  EXPECT_TRUE(s[3].empty());
  EXPECT_EQ(s[0].m.size, 512);
  // Without ranges: clusterSlice's balanced parts (13, 12, 12, 12).
  std::vector<ClusterSlice> even = clusterSlices(nn, 2, 2, 512, 49, 4608);
  EXPECT_EQ(even[0].n.size, 13);
  EXPECT_EQ(even[3].n.size, 12);
  // Ranges that do not fit the partition are not applied.
  EXPECT_FALSE(
      validRanges(part(SplitDim::M, SplitDim::N), 2, 2, 512, 49, 4608, ranges));
  EXPECT_FALSE(validRanges(nn, 2, 2, 512, 49, 4608, {0, 28, 49}));
  EXPECT_FALSE(validRanges(nn, 2, 2, 512, 49, 4608, {0, 28, 20, 49, 49}));
  EXPECT_FALSE(validRanges(nn, 2, 2, 512, 49, 4608, {0, 28, 28, 49, 50}));

  // The cost model prices the slices the lowering cuts: two active
  // clusters (one per channel: each streams the whole filter alone), not
  // four, and splitting the 512 output channels instead is cheaper still.
  HardwareDesc hw = defaultHardware();
  MappingProblem p = problem(/*m=*/512, /*k=*/4608, /*n=*/49);
  p.activationIsA = false;
  MappingChoice os{Dataflow::OutputStationary, nn};
  MappingCost uneven = mappingCost(p, hw, os, ranges);
  MappingCost balanced = mappingCost(p, hw, os);
  EXPECT_EQ(uneven.activeClusters, 2);
  EXPECT_EQ(balanced.activeClusters, 4);
  EXPECT_NE(uneven.cycles, balanced.cycles);
  MappingCost mm = mappingCost(
      p, hw, {Dataflow::OutputStationary, part(SplitDim::M, SplitDim::M)});
  EXPECT_LT(mm.cycles, uneven.cycles);
  // selectMapping with a forced partition and its ranges prices the same.
  MappingCost sel = selectMapping(p, hw, nullptr, &nn, ranges);
  EXPECT_EQ(sel.choice.array, nn);
  EXPECT_LE(sel.cycles, uneven.cycles);
  EXPECT_EQ(sel.activeClusters, 2);
  // Balanced ranges price like no ranges.
  std::vector<int64_t> even4{0, 13, 25, 37, 49};
  EXPECT_DOUBLE_EQ(mappingCost(p, hw, os, even4).cycles, balanced.cycles);
}

TEST(ArrayMapping, InterleavedStoresGoToOneChannelUnlessReadByRows) {
  // MobileNetV3-Large's 112 x 112 expansion (16 -> 64 channels, 1 x 1) with
  // split-strategy's N ranges: every cluster writes all 64 output channels
  // of its pixels with one M tile, so the boxes interleave in every
  // channel and the stores are priced on one memory channel. A result that
  // a depthwise convolution reads is cut into channel pieces on both
  // channels (outputReadByRows): priced without the move, cheaper.
  HardwareDesc hw = defaultHardware();
  MappingProblem p = problem(/*m=*/64, /*k=*/16, /*n=*/12544);
  p.activationIsA = false;
  p.withInit = p.rowInit = true;
  ArrayPartition nn = part(SplitDim::N, SplitDim::N);
  const std::vector<int64_t> ranges{0, 3136, 6272, 9408, 12544};
  MappingChoice os{Dataflow::OutputStationary, nn};
  MappingCost oneChannel = mappingCost(p, hw, os, ranges);
  p.outputReadByRows = true;
  MappingCost byRows = mappingCost(p, hw, os, ranges);
  EXPECT_LT(byRows.cycles, oneChannel.cycles);
  EXPECT_LT(byRows.channelCycles, oneChannel.channelCycles);
  EXPECT_EQ(byRows.dmaBytes, oneChannel.dmaBytes); // same bytes, other channel
  // The free search (no ranges) never applies the move.
  p.outputReadByRows = false;
  EXPECT_DOUBLE_EQ(mappingCost(p, hw, os).cycles, [&] {
    MappingProblem q = p;
    q.outputReadByRows = true;
    return mappingCost(q, hw, os).cycles;
  }());
}

TEST(ArrayMapping, BatchSplitGivesClustersWholeInstances) {
  std::vector<ArrayPartition> b = batchPartitions();
  ASSERT_EQ(b.size(), 7u);
  EXPECT_EQ(partitionName(b[0]), "[B,B]");
  EXPECT_EQ(partitionName(b[6]), "[none,B]");
  SplitDim d;
  EXPECT_TRUE(parseSplitDim("B", d));
  EXPECT_EQ(d, SplitDim::B);
  EXPECT_TRUE(splitsBatch(b[4]));
  EXPECT_FALSE(splitsBatch(part(SplitDim::M, SplitDim::N)));
  // [B,B] on 2 x 2 over 5 instances: 2, 1, 1, 1, each whole.
  std::vector<ClusterSlice> s =
      clusterSlices(part(SplitDim::B, SplitDim::B), 2, 2, 128, 128, 64, {}, 5);
  ASSERT_EQ(s.size(), 4u);
  EXPECT_EQ(s[0].b.begin, 0);
  EXPECT_EQ(s[0].b.size, 2);
  EXPECT_EQ(s[3].b.begin, 4);
  EXPECT_EQ(s[3].b.size, 1);
  for (const ClusterSlice &c : s) {
    EXPECT_EQ(c.m.size, 128);
    EXPECT_EQ(c.n.size, 128);
    EXPECT_EQ(c.k.size, 64);
  }
  // [B,N]: instances by grid row, N halves by column.
  ClusterSlice bn =
      clusterSlice(part(SplitDim::B, SplitDim::N), 2, 2, 1, 1, 8, 10, 4, 12);
  EXPECT_EQ(bn.b.begin, 6);
  EXPECT_EQ(bn.b.size, 6);
  EXPECT_EQ(bn.n.begin, 5);
  // Without a B split every cluster sees all instances.
  EXPECT_EQ(
      clusterSlice(part(SplitDim::M, SplitDim::N), 2, 2, 1, 0, 8, 8, 8, 12)
          .b.size,
      12);
  // More clusters than instances idle the rest.
  EXPECT_TRUE(
      clusterSlice(part(SplitDim::B, SplitDim::B), 2, 2, 1, 1, 8, 8, 8, 3)
          .empty());
  // Split decisions (ranges) never apply to B.
  EXPECT_FALSE(validRanges(part(SplitDim::B, SplitDim::B), 2, 2, 8, 8, 8,
                           {0, 1, 2, 3, 4}));
}

TEST(ArrayMapping, BatchSplitOfSmallBatchedMatmul) {
  // BERT-base attention scores: 12 heads of [128x64] x [64x128]. Splitting
  // every head over the grid reads each operand twice; whole heads per
  // cluster read them once, so the model prefers [B,B] and moves fewer
  // bytes.
  HardwareDesc hw = defaultHardware();
  MappingProblem p = problem(128, 64, 128);
  p.gemm.count = 12;
  MappingCost mn = mappingCost(
      p, hw, {Dataflow::OutputStationary, part(SplitDim::M, SplitDim::N)});
  MappingCost bb = mappingCost(
      p, hw, {Dataflow::OutputStationary, part(SplitDim::B, SplitDim::B)});
  EXPECT_EQ(bb.activeClusters, 4);
  EXPECT_EQ(bb.dmaBytes, uint64_t(12 * (128 * 64 * 2 + 128 * 128) * 4));
  EXPECT_LT(bb.dmaBytes, mn.dmaBytes);
  EXPECT_LT(bb.cycles, mn.cycles);
  // Only problems that allow it get a batch partition.
  EXPECT_FALSE(splitsBatch(selectMapping(p, hw).choice.array));
  p.batchSplit = true;
  EXPECT_TRUE(splitsBatch(selectMapping(p, hw).choice.array))
      << choiceName(selectMapping(p, hw).choice);
}
