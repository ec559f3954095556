//===- ChannelPlacementTest.cpp - DRAM buffers on memory channels ---------===//
#include "accel/Codegen/ChannelPlacement.h"
#include "accel/Codegen/Kernels.h"
#include <gtest/gtest.h>

using namespace accel;
using namespace accel::codegen;

namespace {

HardwareDesc twoChannels() {
  HardwareDesc hw; // 2 x 2 clusters, 2 channels: clusters 0, 1 -> channel 0
  hw.dramBytes = 1 << 20;
  return hw;
}

BufferTraffic traffic(std::vector<uint64_t> read,
                      std::vector<uint64_t> written) {
  return BufferTraffic{std::move(read), std::move(written)};
}

TEST(ChannelPlacement, WritersDecideThenReaders) {
  HardwareDesc hw = twoChannels();
  const uint64_t R = hw.channelRegionBytes();
  std::vector<DramBuffer> bufs{{0, 64}, {64, 128}, {192, 64}};
  std::vector<BufferTraffic> t{
      traffic({100, 0}, {0, 0}),   // only read, by channel 0's clusters
      traffic({500, 0}, {10, 90}), // written mostly by channel 1's
      traffic({0, 0}, {0, 0})};    // untouched: balanced
  ChannelPlan plan;
  std::string err;
  ASSERT_TRUE(planChannels(hw, bufs, t, plan, err)) << err;
  EXPECT_EQ(plan.channel, (std::vector<uint32_t>{0, 1, 0}));
  EXPECT_EQ(plan.addr, (std::vector<uint64_t>{0, R, 64}));
  EXPECT_EQ(plan.dramSize, R + 128);
}

TEST(ChannelPlacement, TiesAreBalancedByAllocatedBytes) {
  HardwareDesc hw = twoChannels();
  const uint64_t R = hw.channelRegionBytes();
  // Three constants read alike by all clusters (within 1/16).
  std::vector<DramBuffer> bufs{{0, 256}, {256, 64}, {320, 64}};
  std::vector<BufferTraffic> t{traffic({100, 97}, {0, 0}),
                               traffic({50, 50}, {0, 0}),
                               traffic({50, 50}, {0, 0})};
  ChannelPlan plan;
  std::string err;
  ASSERT_TRUE(planChannels(hw, bufs, t, plan, err)) << err;
  EXPECT_EQ(plan.channel, (std::vector<uint32_t>{0, 1, 1}));
  EXPECT_EQ(plan.addr, (std::vector<uint64_t>{0, R, R + 64}));
}

TEST(ChannelPlacement, OneChannelKeepsTheLinearPlan) {
  HardwareDesc hw = twoChannels();
  hw.channels.resize(1);
  std::vector<DramBuffer> bufs{{0, 64}, {64, 128}};
  std::vector<BufferTraffic> t{traffic({1}, {0}), traffic({0}, {7})};
  ChannelPlan plan;
  std::string err;
  ASSERT_TRUE(planChannels(hw, bufs, t, plan, err)) << err;
  EXPECT_EQ(plan.addr, (std::vector<uint64_t>{0, 64}));
  EXPECT_EQ(plan.dramSize, 192u);
}

TEST(ChannelPlacement, AFullRegionPassesToTheNextChannel) {
  HardwareDesc hw = twoChannels();
  const uint64_t R = hw.channelRegionBytes();
  std::vector<DramBuffer> bufs{{0, R - 64}, {R - 64, 128}};
  std::vector<BufferTraffic> t{traffic({1, 0}, {0, 0}),
                               traffic({1, 0}, {0, 0})};
  ChannelPlan plan;
  std::string err;
  ASSERT_TRUE(planChannels(hw, bufs, t, plan, err)) << err;
  EXPECT_EQ(plan.channel, (std::vector<uint32_t>{0, 1}));
  // Larger than any region: an error naming the size.
  bufs = {{0, 2 * R}};
  t.resize(1);
  EXPECT_FALSE(planChannels(hw, bufs, t, plan, err));
  EXPECT_NE(err.find("fits no memory channel"), std::string::npos);
}

TEST(ChannelPlacement, TrafficAndRelocation) {
  HardwareDesc hw = twoChannels();
  const uint64_t R = hw.channelRegionBytes();
  Program p;
  StreamBuilder sb(p, hw);
  DramBox in; // buffer 0: [0, 64), read by cluster 3 (channel 1)
  in.dim(16, 1);
  sb.dmaLoad(3, 0, in, 0, 16);
  DramBox out; // buffer 1: [64, 128), written by cluster 2 from offset 32
  out.base = 96;
  out.dim(8, 1);
  sb.dmaStore(2, 2, 0, 8, out);
  p.symbols.push_back(Symbol{"x", true, DType::F32, {16}, 0});
  std::vector<DramBuffer> bufs{{0, 64}, {64, 64}};
  std::vector<BufferTraffic> t;
  std::string err;
  ASSERT_TRUE(measureBufferTraffic(p, hw, bufs, t, err)) << err;
  EXPECT_EQ(t[0].read, (std::vector<uint64_t>{0, 64}));
  EXPECT_EQ(t[1].written, (std::vector<uint64_t>{0, 32}));
  ChannelPlan plan;
  ASSERT_TRUE(planChannels(hw, bufs, t, plan, err)) << err;
  relocateBuffers(p, bufs, plan);
  EXPECT_EQ(p.symbols[0].dramAddr, R);
  EXPECT_EQ(p.clusters[3].commands[0].dma.src, R);
  EXPECT_EQ(p.clusters[2].commands[0].dma.dst, R + 64 + 32);
  // A DMA across two buffers is refused.
  DramBox across;
  across.base = 32;
  across.dim(16, 1);
  sb.dmaLoad(0, 0, across, 0, 16);
  EXPECT_FALSE(measureBufferTraffic(p, hw, {{0, 64}, {64, 64}}, t, err));
}

} // namespace
