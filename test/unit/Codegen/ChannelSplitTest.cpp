//===- ChannelSplitTest.cpp - Shared DRAM buffers cut over the channels ---===//
#include "accel/Codegen/ChannelSplit.h"
#include "../../../lib/Codegen/StreamParts.h"
#include "accel/Codegen/Kernels.h"
#include <gtest/gtest.h>

using namespace accel;
using namespace accel::codegen;

namespace {

/// A 16 x 64 x 64 float feature map (256 KiB) whose rows are split over
/// `writers` clusters: cluster k stores rows [k*64/n, (k+1)*64/n) of every
/// plane with one box, so the boxes interleave and no cut point exists
/// between them. On the default 2 x 2 grid clusters 0, 1 use channel 0 and
/// clusters 2, 3 channel 1.
struct RowSplitMap {
  HardwareDesc hw;
  Program p;
  std::vector<DramBuffer> seg{{0, 16 * 64 * 64 * 4}};
  explicit RowSplitMap(std::vector<uint32_t> writers) {
    hw.dramBytes = 1 << 24;
    StreamBuilder sb(p, hw);
    const int64_t rows = 64 / int64_t(writers.size());
    for (size_t k = 0; k < writers.size(); ++k) {
      DramBox out;
      out.base = uint64_t(k * rows * 64 * 4);
      out.dim(16, 64 * 64).dim(rows, 64).dim(64, 1);
      out.rowDims = 2;
      sb.dmaStore(writers[k], 2, 0, 64, out);
    }
  }
  size_t split(const ChannelSplitOptions &opts = {}) {
    return splitSharedSegments(p, hw, seg, {1}, opts);
  }
};

TEST(ChannelSplit, AFeatureMapWrittenFromBothChannelsIsCutPerChannel) {
  RowSplitMap m({0, 1, 2, 3});
  ASSERT_EQ(m.split(), 1u);
  // Two halves of 128 KiB (planes 0..7 and 8..15).
  ASSERT_EQ(m.seg.size(), 2u);
  EXPECT_EQ(m.seg[0].addr, 0u);
  EXPECT_EQ(m.seg[0].bytes, 128u * 1024);
  EXPECT_EQ(m.seg[1].addr, 128u * 1024);
  // Each store became two, one per half, with the same tag.
  for (uint32_t cl = 0; cl < 4; ++cl) {
    const auto &cmds = m.p.clusters[cl].commands;
    ASSERT_EQ(cmds.size(), 2u);
    for (size_t i = 0; i < 2; ++i) {
      EXPECT_EQ(cmds[i].dma.tag, 2u);
      EXPECT_EQ(cmds[i].dma.shape[0] * cmds[i].dma.shape[1] *
                    cmds[i].dma.shape[2] * cmds[i].dma.shape[3],
                8u * 16 * 64);
      EXPECT_EQ(bufferOf(m.seg, cmds[i].dma.dst), int64_t(i));
    }
  }
  // The placement now puts the halves on different channels.
  std::vector<BufferTraffic> t;
  ChannelPlan plan;
  std::string err;
  ASSERT_TRUE(measureBufferTraffic(m.p, m.hw, m.seg, t, err)) << err;
  ASSERT_TRUE(
      planChannels(m.hw, m.seg, t, plan, err, PlacementOptions{true, true}))
      << err;
  EXPECT_NE(plan.channel[0], plan.channel[1]);
}

TEST(ChannelSplit, OwnedSmallOrUnsplittableSegmentsStayWhole) {
  // Written by the clusters of channel 0 only: that channel owns it.
  RowSplitMap owned({0, 1});
  EXPECT_EQ(owned.split(), 0u);
  EXPECT_EQ(owned.seg.size(), 1u);
  EXPECT_EQ(owned.p.clusters[0].commands.size(), 1u);
  // Below the size threshold.
  RowSplitMap small({0, 1, 2, 3});
  ChannelSplitOptions big;
  big.minBytes = 512 * 1024;
  EXPECT_EQ(small.split(big), 0u);
  // A store across the cut would need more parts than allowed.
  RowSplitMap tight({0, 1, 2, 3});
  ChannelSplitOptions onePart;
  onePart.maxPartsPerDma = 1;
  EXPECT_EQ(tight.split(onePart), 0u);
  EXPECT_EQ(tight.p.clusters[3].commands.size(), 1u);
  // Not flagged splittable (a symbol, a constant, a packet).
  RowSplitMap input({0, 1, 2, 3});
  EXPECT_EQ(splitSharedSegments(input.p, input.hw, input.seg, {0}), 0u);
}

} // namespace

TEST(StreamParts, CommandsReplacedByTheirPartsInOrder) {
  // Five commands; the DMAs with an odd tag become (tag + 1) parts each,
  // which keep every field of their command but the box.
  CommandList stream;
  for (uint8_t t = 0; t < 5; ++t) {
    Command c;
    c.kind = t == 2 ? CommandKind::Wait : CommandKind::Dma;
    c.dma.tag = t;
    c.dma.src = 1000 * t;
    c.layer = 10 + t;
    stream.push_back(c);
  }
  detail::replaceByParts(stream,
                         [](const Command &c, std::vector<DmaDesc> &parts) {
                           if (c.kind != CommandKind::Dma || c.dma.tag % 2 == 0)
                             return false;
                           parts.clear();
                           for (uint8_t k = 0; k <= c.dma.tag; ++k) {
                             DmaDesc d = c.dma;
                             d.src += k;
                             parts.push_back(d);
                           }
                           return true;
                         });
  // tag 0, tag 1 x 2, the wait, tag 3 x 4, tag 4.
  std::vector<std::pair<uint8_t, uint64_t>> want{
      {0, 0},    {1, 1000}, {1, 1001}, {2, 2000}, {3, 3000},
      {3, 3001}, {3, 3002}, {3, 3003}, {4, 4000}};
  ASSERT_EQ(stream.size(), want.size());
  EXPECT_EQ(stream.capacity(), want.size()); // built at its final size
  for (size_t i = 0; i < want.size(); ++i) {
    EXPECT_EQ(stream[i].dma.tag, want[i].first) << i;
    EXPECT_EQ(stream[i].dma.src, want[i].second) << i;
    EXPECT_EQ(stream[i].layer, 10u + want[i].first) << i;
  }
  EXPECT_EQ(stream[3].kind, CommandKind::Wait);
  // Nothing to replace: the stream stays (the same storage).
  const Command *before = stream.data();
  detail::replaceByParts(
      stream, [](const Command &, std::vector<DmaDesc> &) { return false; });
  EXPECT_EQ(stream.data(), before);
  EXPECT_EQ(stream.size(), want.size());
}
