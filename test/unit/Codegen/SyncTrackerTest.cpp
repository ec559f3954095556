//===- SyncTrackerTest.cpp - Which SIGNAL / RECV pairs a program needs ----===//
#include "accel/Codegen/SyncTracker.h"
#include "accel/Codegen/Kernels.h"
#include <gtest/gtest.h>

using namespace accel;
using namespace accel::codegen;

namespace {

std::vector<ByteRange> ranges(uint64_t base, std::vector<int64_t> shape,
                              std::vector<int64_t> stride, bool &exact,
                              size_t max = 256) {
  return boxByteRanges(base, int(shape.size()), shape.data(), stride.data(), 4,
                       max, exact);
}

std::vector<ByteRange> r(uint64_t lo, uint64_t hi) { return {{lo, hi}}; }

TEST(BoxByteRanges, ContiguousBoxIsOneRange) {
  bool exact = false;
  auto r = ranges(64, {4, 8}, {8, 1}, exact);
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(r[0], (ByteRange{64, 64 + 128}));
  EXPECT_TRUE(exact);
}

TEST(BoxByteRanges, RowsOfAWiderMatrix) {
  bool exact = false;
  // 3 rows of 2 elements of a matrix with 10 columns.
  auto r = ranges(0, {3, 2}, {10, 1}, exact);
  ASSERT_EQ(r.size(), 3u);
  EXPECT_EQ(r[0], (ByteRange{0, 8}));
  EXPECT_EQ(r[1], (ByteRange{40, 48}));
  EXPECT_EQ(r[2], (ByteRange{80, 88}));
  EXPECT_TRUE(exact);
}

TEST(BoxByteRanges, NegativeAndZeroStrides) {
  bool exact = false;
  // Walks 4 elements backwards from element 3, broadcast 5 times.
  auto r = ranges(100 + 12, {5, 4}, {0, -1}, exact);
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(r[0], (ByteRange{100, 116}));
  EXPECT_TRUE(exact);
}

TEST(BoxByteRanges, TransposedColumnIsElementwise) {
  bool exact = false;
  auto r = ranges(0, {3}, {4}, exact);
  ASSERT_EQ(r.size(), 3u);
  EXPECT_EQ(r[2], (ByteRange{32, 36}));
}

TEST(BoxByteRanges, TooManyRangesGiveTheBoundingRange) {
  bool exact = true;
  auto r = ranges(0, {10, 2}, {8, 1}, exact, /*max=*/4);
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(r[0], (ByteRange{0, 9 * 32 + 8}));
  EXPECT_FALSE(exact);
}

TEST(BoxByteRanges, EmptyBox) {
  bool exact = false;
  EXPECT_TRUE(ranges(0, {0, 4}, {4, 1}, exact).empty());
}

TEST(SyncTracker, ReadAfterWriteOfAnotherCluster) {
  SyncTracker t(4);
  EXPECT_TRUE(t.access(0, r(0, 64), true).empty());
  EXPECT_TRUE(t.access(1, r(64, 128), true).empty());
  t.endLayer();
  // Cluster 2 reads half of what cluster 0 wrote: one RECV from 0.
  EXPECT_EQ(t.access(2, r(0, 32), false), (std::vector<SyncDep>{{0, 0}}));
  // Already received: nothing more for the rest of cluster 0's bytes.
  EXPECT_TRUE(t.access(2, r(32, 64), false).empty());
  // Both producers, ascending.
  EXPECT_EQ(t.access(3, r(60, 70), false),
            (std::vector<SyncDep>{{0, 0}, {1, 0}}));
}

TEST(SyncTracker, NoDependencyInsideALayerOrACluster) {
  SyncTracker t(2);
  EXPECT_TRUE(t.access(0, r(0, 64), true).empty());
  EXPECT_TRUE(t.access(1, r(0, 64), false).empty()); // same layer
  t.endLayer();
  EXPECT_TRUE(t.access(0, r(0, 64), false).empty());    // same cluster
  EXPECT_TRUE(t.access(1, r(128, 192), false).empty()); // disjoint bytes
}

TEST(SyncTracker, ReadsDoNotOrderReads) {
  SyncTracker t(2);
  t.access(0, r(0, 64), false);
  t.endLayer();
  EXPECT_TRUE(t.access(1, r(0, 64), false).empty());
}

TEST(SyncTracker, WriteAfterReadAndWriteAfterWrite) {
  SyncTracker t(3);
  t.access(0, r(0, 64), false);
  t.access(1, r(64, 128), true);
  t.endLayer();
  EXPECT_EQ(t.access(2, r(32, 96), true),
            (std::vector<SyncDep>{{0, 0}, {1, 0}}));
}

TEST(SyncTracker, AnExactWriteRetiresOlderAccesses) {
  SyncTracker t(3);
  t.access(0, r(0, 64), true);
  t.endLayer();
  EXPECT_EQ(t.access(1, r(0, 64), true), (std::vector<SyncDep>{{0, 0}}));
  t.endLayer();
  // Cluster 1 received from 0 before overwriting: 2 waits for 1 only.
  EXPECT_EQ(t.access(2, r(0, 64), false), (std::vector<SyncDep>{{1, 1}}));
}

TEST(SyncTracker, AnApproximateWriteKeepsOlderWriters) {
  SyncTracker t(3);
  t.access(0, r(0, 64), true);
  t.endLayer();
  EXPECT_EQ(t.access(1, r(0, 64), true, /*exact=*/false),
            (std::vector<SyncDep>{{0, 0}}));
  t.endLayer();
  EXPECT_EQ(t.access(2, r(0, 16), false),
            (std::vector<SyncDep>{{0, 0}, {1, 1}}));
}

TEST(SyncTracker, SameLayerEntryDoesNotHideAnOlderOne) {
  SyncTracker t(2);
  t.access(0, r(0, 64), true);
  t.endLayer();
  // Cluster 0 writes other bytes in layer 1, over-approximated to cover
  // [0, 128); cluster 1 still depends on cluster 0's layer-0 write.
  t.access(0, r(0, 128), true, /*exact=*/false);
  EXPECT_EQ(t.access(1, r(0, 64), false), (std::vector<SyncDep>{{0, 0}}));
}

TEST(SyncTracker, ALaterSignalCoversEarlierLayers) {
  SyncTracker t(2);
  t.access(0, r(0, 64), true);
  t.endLayer();
  t.access(0, r(64, 128), true);
  t.endLayer();
  EXPECT_EQ(t.access(1, r(64, 128), false), (std::vector<SyncDep>{{0, 1}}));
  // Layer 0 of cluster 0 is implied by its layer-1 signal.
  EXPECT_TRUE(t.access(1, r(0, 64), false).empty());
}

TEST(SyncTracker, DramCopyChecksBothSides) {
  SyncTracker t(3);
  t.access(0, r(0, 64), true);    // source written by 0
  t.access(1, r(64, 128), false); // destination read by 1
  t.endLayer();
  std::vector<SyncTracker::Part> copy{{r(0, 64), false, true},
                                      {r(64, 128), true, true}};
  EXPECT_EQ(t.access(2, copy), (std::vector<SyncDep>{{0, 0}, {1, 0}}));
}

TEST(SyncTracker, SegmentsCoalesce) {
  SyncTracker t(2);
  for (uint64_t a = 0; a < 64 * 100; a += 64)
    t.access(0, r(a, a + 64), true);
  EXPECT_EQ(t.numSegments(), 1u);
}

// The stream builder in events mode: a two-layer program where cluster 1
// reads what cluster 0 stored.
TEST(StreamBuilderEvents, SignalAndRecvReplaceTheBarrier) {
  HardwareDesc hw;
  hw.rows = 1;
  hw.cols = 2;
  Program p;
  StreamBuilder sb(p, hw, SyncMode::Events);
  DramBox out;
  out.dim(4, 8).dim(8, 1);
  sb.dmaStore(0, 2, 0, 8, out);
  DramBox other = out;
  other.base = 4096;
  sb.dmaStore(1, 2, 0, 8, other);
  sb.endLayer();
  sb.dmaLoad(1, 0, out, 0, 8);
  sb.endLayer();
  sb.finish();
  const auto &c0 = p.clusters[0].commands, &c1 = p.clusters[1].commands;
  // Cluster 0: DMA, WAIT, SIGNAL -> 1 (its layer-1 nothing).
  ASSERT_EQ(c0.size(), 3u);
  EXPECT_EQ(c0[1].kind, CommandKind::Wait);
  EXPECT_EQ(c0[1].waitTags, 0xFF);
  EXPECT_TRUE(c0[1].waitPe);
  EXPECT_EQ(c0[2].kind, CommandKind::Signal);
  EXPECT_EQ(c0[2].mesh->sem, 0u);
  EXPECT_EQ(c0[2].mesh->targets, (std::vector<uint32_t>{1}));
  // Cluster 1: DMA, WAIT (its signal nobody needs is dropped), RECV sem 0,
  // the dependent load, WAIT.
  ASSERT_EQ(c1.size(), 5u);
  EXPECT_EQ(c1[1].kind, CommandKind::Wait);
  EXPECT_EQ(c1[2].kind, CommandKind::Recv);
  EXPECT_EQ(c1[2].sem, 0u);
  EXPECT_EQ(c1[2].count, 1u);
  EXPECT_EQ(c1[3].kind, CommandKind::Dma);
  EXPECT_EQ(c1[4].kind, CommandKind::Wait);
  for (const auto &cl : p.clusters)
    for (const Command &c : cl.commands)
      EXPECT_NE(c.kind, CommandKind::Barrier);
  EXPECT_EQ(sb.numRecvs(), 1u);
}

TEST(StreamBuilderEvents, EveryCommandCarriesTheCurrentLayer) {
  HardwareDesc hw;
  hw.rows = 1;
  hw.cols = 2;
  Program p;
  StreamBuilder sb(p, hw, SyncMode::Events);
  EXPECT_EQ(sb.layer(), Command::kNoLayer);
  DramBox out;
  out.dim(4, 8).dim(8, 1);
  sb.setLayer(3);
  sb.dmaStore(0, 2, 0, 8, out);
  sb.endLayer(); // WAIT + SIGNAL of layer 3
  sb.setLayer(7);
  sb.dmaLoad(1, 0, out, 0, 8); // RECV (layer 7) before the dependent load
  sb.endLayer();
  sb.finish();
  EXPECT_EQ(sb.numCommands(), 7u); // 3 + 4 (cluster 1's unused SIGNAL too)
  const auto &c0 = p.clusters[0].commands, &c1 = p.clusters[1].commands;
  ASSERT_EQ(c0.size(), 3u);
  for (const Command &c : c0)
    EXPECT_EQ(c.layer, 3u) << commandKindName(c.kind);
  ASSERT_EQ(c1.size(), 3u);
  EXPECT_EQ(c1[0].kind, CommandKind::Recv);
  for (const Command &c : c1)
    EXPECT_EQ(c.layer, 7u) << commandKindName(c.kind);
}

TEST(StreamBuilderEvents, BarrierModeIsUnchanged) {
  HardwareDesc hw;
  Program p;
  StreamBuilder sb(p, hw);
  sb.endLayer();
  sb.finish();
  for (const auto &cl : p.clusters) {
    ASSERT_EQ(cl.commands.size(), 2u);
    EXPECT_EQ(cl.commands[0].kind, CommandKind::Wait);
    EXPECT_EQ(cl.commands[1].kind, CommandKind::Barrier);
  }
}

} // namespace
