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

// opts.balance weighs a channel's DMA bytes by its bandwidth: on a 128 and
// a 16 B/cycle channel (hw/asymmetric.json) 1 600 bytes on the fast one
// take as long as 200 on the slow one, so the third buffer read alike by
// every cluster goes back to the fast channel. Counted in bytes, the slow
// one (200 < 1 600) would take it.
TEST(ChannelPlacement, DmaBytesAreBalancedByChannelTime) {
  HardwareDesc hw = twoChannels();
  hw.channels[0].bytesPerCycle = 128;
  hw.channels[1].bytesPerCycle = 16;
  std::vector<DramBuffer> bufs{{0, 256}, {256, 64}, {320, 64}};
  std::vector<BufferTraffic> t{traffic({800, 800}, {0, 0}),
                               traffic({100, 100}, {0, 0}),
                               traffic({100, 100}, {0, 0})};
  PlacementOptions opts;
  opts.balance = true;
  ChannelPlan plan;
  std::string err;
  ASSERT_TRUE(planChannels(hw, bufs, t, plan, err, opts)) << err;
  EXPECT_EQ(plan.channel, (std::vector<uint32_t>{0, 1, 0}));
  // Equal channels: the bytes alone decide, as before.
  hw.channels[1].bytesPerCycle = 128;
  ASSERT_TRUE(planChannels(hw, bufs, t, plan, err, opts)) << err;
  EXPECT_EQ(plan.channel, (std::vector<uint32_t>{0, 1, 1}));
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
  p.symbols.push_back(Symbol{"x", true, DType::F32, {16}, 0, {}});
  std::vector<DramBuffer> bufs{{0, 64}, {64, 64}};
  std::vector<BufferTraffic> t;
  std::string err;
  ASSERT_TRUE(measureBufferTraffic(p, hw, bufs, t, err)) << err;
  EXPECT_EQ(t[0].read, (std::vector<uint64_t>{0, 64}));
  EXPECT_EQ(t[1].written, (std::vector<uint64_t>{0, 32}));
  ChannelPlan plan;
  ASSERT_TRUE(planChannels(hw, bufs, t, plan, err)) << err;
  relocateBuffers(p, hw, bufs, plan);
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

/// Pieces: an input read by cluster 0 (channel 0) in its first half and by
/// cluster 3 (channel 1) in its second, an output written the same way, and
/// a constant read whole by both.
struct Pieces {
  HardwareDesc hw = twoChannels();
  Program p;
  std::vector<DramBuffer> bufs{{0, 256}, {256, 256}, {512, 128}};
  Pieces() {
    StreamBuilder sb(p, hw);
    for (uint32_t half = 0; half < 2; ++half) {
      uint32_t cl = half ? 3 : 0;
      DramBox in;
      in.base = 128 * half;
      in.dim(32, 1);
      sb.dmaLoad(cl, 0, in, 0, 32);
      DramBox w;
      w.base = 512;
      w.dim(32, 1);
      sb.dmaLoad(cl, 1, w, 0, 32);
      DramBox out;
      out.base = 256 + 128 * half;
      out.dim(32, 1);
      sb.dmaStore(cl, 2, 0, 32, out);
    }
    p.symbols.push_back(Symbol{"x", true, DType::F32, {64}, 0, {}});
    p.symbols.push_back(Symbol{"y", false, DType::F32, {64}, 256, {}});
    p.constants.push_back(ConstSegment{512, std::vector<uint8_t>(128, 7), {}});
  }
  /// Cuts, measures and plans with copies of read-only pieces.
  ::testing::AssertionResult plan(std::vector<DramBuffer> &seg,
                                  ChannelPlan &out) {
    std::vector<BufferTraffic> t;
    std::string err;
    if (!cutSegments(p, bufs, 64, seg, err) ||
        !measureBufferTraffic(p, hw, seg, t, err) ||
        !planChannels(hw, seg, t, out, err, PlacementOptions{true}))
      return ::testing::AssertionFailure() << err;
    return ::testing::AssertionSuccess();
  }
};

TEST(ChannelPlacement, CutsWhereNoDmaCrosses) {
  Pieces f;
  std::vector<DramBuffer> seg;
  std::string err;
  ASSERT_TRUE(cutSegments(f.p, f.bufs, 64, seg, err)) << err;
  ASSERT_EQ(seg.size(), 5u);
  EXPECT_EQ(seg[1].addr, 128u);
  EXPECT_EQ(seg[3].addr, 384u);
  EXPECT_EQ(seg[4].bytes, 128u);
  // Unaligned cut points are not taken.
  ASSERT_TRUE(cutSegments(f.p, f.bufs, 256, seg, err)) << err;
  EXPECT_EQ(seg.size(), 3u);
  // A box that overlaps the cut keeps both halves together.
  StreamBuilder sb(f.p, f.hw);
  DramBox halo;
  halo.base = 96;
  halo.dim(16, 1);
  sb.dmaLoad(1, 0, halo, 0, 16);
  ASSERT_TRUE(cutSegments(f.p, f.bufs, 64, seg, err)) << err;
  EXPECT_EQ(seg.size(), 4u);
  EXPECT_EQ(seg[0].bytes, 256u);
}

TEST(ChannelPlacement, PiecesAndReplicasMakeEveryAccessLocal) {
  Pieces f;
  const uint64_t R = f.hw.channelRegionBytes();
  std::vector<DramBuffer> seg;
  ChannelPlan plan;
  ASSERT_TRUE(f.plan(seg, plan));
  // Halves on their readers' / writers' channels; the shared constant on
  // both (primary on the least-filled tie, one replica).
  EXPECT_EQ(plan.channel, (std::vector<uint32_t>{0, 1, 0, 1, 0}));
  EXPECT_TRUE(plan.replicas[0].empty());
  ASSERT_EQ(plan.replicas[4].size(), 1u);
  EXPECT_EQ(plan.replicas[4][0].first, 1u);
  relocateBuffers(f.p, f.hw, seg, plan);
  for (size_t cl = 0; cl < f.p.clusters.size(); ++cl)
    for (const Command &c : f.p.clusters[cl].commands) {
      uint64_t a = c.dma.dir == DmaDir::Store ? c.dma.dst : c.dma.src;
      EXPECT_EQ(f.hw.channelOfAddress(a), f.hw.channelOf(uint32_t(cl)));
    }
  // The input and the output are two pieces each, one per channel.
  const Symbol &x = f.p.symbols[0], &y = f.p.symbols[1];
  ASSERT_EQ(x.pieces.size(), 2u);
  EXPECT_EQ(x.pieces[0], (DramPiece{0, 128, 0}));
  EXPECT_EQ(x.pieces[1], (DramPiece{128, 128, R}));
  EXPECT_EQ(x.dramAddr, 0u);
  ASSERT_EQ(y.pieces.size(), 2u);
  EXPECT_EQ(y.pieces[1].offset, 128u);
  EXPECT_EQ(f.hw.channelOfAddress(y.pieces[1].dramAddr), 1u);
  ASSERT_EQ(f.p.constants.size(), 1u);
  ASSERT_EQ(f.p.constants[0].replicas.size(), 1u);
  EXPECT_NE(f.hw.channelOfAddress(f.p.constants[0].dramAddr),
            f.hw.channelOfAddress(f.p.constants[0].replicas[0]));
}

TEST(ChannelPlacement, AnInputReadEverywhereIsReplicated) {
  Pieces f;
  StreamBuilder sb(f.p, f.hw);
  DramBox all; // cluster 1 (channel 0) reads the whole input
  all.dim(64, 1);
  sb.dmaLoad(1, 0, all, 0, 64);
  std::vector<DramBuffer> seg;
  ChannelPlan plan;
  ASSERT_TRUE(f.plan(seg, plan));
  relocateBuffers(f.p, f.hw, seg, plan);
  const Symbol &x = f.p.symbols[0];
  ASSERT_EQ(x.pieces.size(), 2u); // the whole image, once per channel
  EXPECT_EQ(x.pieces[0].offset, 0u);
  EXPECT_EQ(x.pieces[1].offset, 0u);
  EXPECT_EQ(x.pieces[0].bytes, 256u);
  EXPECT_NE(f.hw.channelOfAddress(x.pieces[0].dramAddr),
            f.hw.channelOfAddress(x.pieces[1].dramAddr));
}

/// Cluster 0 (channel 0) writes [0, 256) once as layer 0; clusters 1
/// (channel 0) and 3 (channel 1) each read it whole `reads` times as layer 1.
/// Plans the buffer with `opts`; `measured` gets its traffic.
ChannelPlan planWrittenBuffer(Program &p, const HardwareDesc &hw, int reads,
                              const PlacementOptions &opts,
                              std::vector<BufferTraffic> *measured = nullptr) {
  StreamBuilder sb(p, hw);
  DramBox buf;
  buf.dim(64, 1);
  sb.setLayer(0);
  sb.dmaStore(0, 0, 0, 64, buf);
  sb.setLayer(1);
  for (int k = 0; k < reads; ++k) {
    sb.dmaLoad(1, 0, buf, 0, 64);
    sb.dmaLoad(3, 0, buf, 0, 64);
  }
  std::vector<DramBuffer> bufs{{0, 256}};
  std::vector<BufferTraffic> t;
  ChannelPlan plan;
  std::string err;
  EXPECT_TRUE(measureBufferTraffic(p, hw, bufs, t, err)) << err;
  EXPECT_TRUE(planChannels(hw, bufs, t, plan, err, opts)) << err;
  if (measured)
    *measured = t;
  return plan;
}

/// The same with copies decided by the write copy factor alone.
ChannelPlan planWrittenBuffer(Program &p, const HardwareDesc &hw, int reads,
                              uint64_t factor) {
  return planWrittenBuffer(p, hw, reads, PlacementOptions{true, true, factor});
}

TEST(ChannelPlacement, AWrittenBufferReadMoreElsewhereThanWrittenIsCopied) {
  HardwareDesc hw = twoChannels();
  // Read twice by channel 1's cluster: more than written (default factor 1).
  Program p;
  ChannelPlan plan = planWrittenBuffer(p, hw, 2, kDefaultWriteCopyFactor);
  ASSERT_EQ(plan.replicas[0].size(), 1u);
  std::vector<DramBuffer> bufs{{0, 256}};
  relocateBuffers(p, hw, bufs, plan);
  // The store reaches both copies; every load of cluster 3 is local.
  ASSERT_EQ(p.clusters[0].commands.size(), 2u);
  EXPECT_NE(hw.channelOfAddress(p.clusters[0].commands[0].dma.dst),
            hw.channelOfAddress(p.clusters[0].commands[1].dma.dst));
  for (const Command &c : p.clusters[3].commands)
    EXPECT_EQ(hw.channelOfAddress(c.dma.src), 1u);
  // Read once, as much as written: no copy under factor 1, one under 0.
  Program once;
  EXPECT_TRUE(planWrittenBuffer(once, hw, 1, 1).replicas[0].empty());
  Program eager;
  EXPECT_EQ(planWrittenBuffer(eager, hw, 1, 0).replicas[0].size(), 1u);
  // The factor before 2026-11-29, 8: read twice is not enough.
  Program high;
  EXPECT_TRUE(planWrittenBuffer(high, hw, 2, 8).replicas[0].empty());
}

} // namespace

namespace {

/// planWrittenBuffer read twice (factor 1 copies it to channel 1), priced
/// with the layers' MACs `macs`.
ChannelPlan planTimedBuffer(Program &p, const HardwareDesc &hw,
                            std::vector<uint64_t> macs,
                            std::vector<BufferTraffic> *measured = nullptr) {
  PlacementOptions opts{true, true, 1};
  opts.layerMacs = std::move(macs);
  return planWrittenBuffer(p, hw, 2, opts, measured);
}

} // namespace

TEST(ChannelPlacement, TrafficIsKeptPerLayerAndChannel) {
  HardwareDesc hw = twoChannels();
  Program p;
  std::vector<BufferTraffic> t;
  planTimedBuffer(p, hw, {}, &t);
  ASSERT_EQ(t.size(), 1u);
  ASSERT_EQ(t[0].layers.size(), 3u);
  auto has = [&](uint32_t layer, uint32_t ch, uint64_t r, uint64_t w) {
    for (const LayerTraffic &e : t[0].layers)
      if (e.layer == layer && e.channel == ch)
        return e.read == r && e.written == w;
    return false;
  };
  EXPECT_TRUE(has(0, 0, 0, 256));
  EXPECT_TRUE(has(1, 0, 512, 0));
  EXPECT_TRUE(has(1, 1, 512, 0));
  EXPECT_EQ(t[0].read, (std::vector<uint64_t>{512, 512}));
  EXPECT_EQ(t[0].written, (std::vector<uint64_t>{256, 0}));
}

TEST(ChannelPlacement, ACopyThatShortensNoLayerIsDropped) {
  HardwareDesc hw = twoChannels();
  // Without MACs both layers wait on the channels: the copy turns the
  // reader's 1024 bytes on channel 0 into 512 + 512 and costs the writer
  // 256 bytes on channel 1 it runs in parallel. Kept.
  Program fast;
  EXPECT_EQ(planTimedBuffer(fast, hw, {0, 0}).replicas[0].size(), 1u);
  // A reader bound by its MACs gains nothing from local reads: the copy
  // would only add the writes. Dropped.
  Program macBound;
  const uint64_t busy = uint64_t(hw.peakMacsPerCycle()) * 1000;
  ChannelPlan plan = planTimedBuffer(macBound, hw, {0, busy});
  EXPECT_TRUE(plan.replicas[0].empty());
  EXPECT_EQ(plan.allocated, (std::vector<uint64_t>{256, 0}));
  // No MAC counts: the factor alone decides, as before.
  Program untimed;
  EXPECT_EQ(planTimedBuffer(untimed, hw, {}).replicas[0].size(), 1u);
}

TEST(ChannelPlacement, TheBurstFactorPricesBytesAboveTheirTransferTime) {
  HardwareDesc hw = twoChannels();
  // The reader's MACs take a little more than its 1024 bytes on one
  // channel: bound by its MACs at face value, by its bytes in bursts.
  const double bytesTime = 1024.0 / hw.channels[0].bytesPerCycle;
  const auto macs = uint64_t(hw.peakMacsPerCycle() * bytesTime * 1.5);
  Program p;
  EXPECT_EQ(planTimedBuffer(p, hw, {0, macs}).replicas[0].size(), 1u);
  static_assert(kCopyBurstFactor > 1.5, "the case above needs bursts");
}

TEST(ChannelPlacement, DroppedCopiesFreeTheirAddresses) {
  HardwareDesc hw = twoChannels();
  const uint64_t R = hw.channelRegionBytes();
  std::vector<DramBuffer> bufs{{0, 64}, {64, 128}};
  ChannelPlan plan;
  plan.channel = {0, 0};
  plan.addr = {0, 64};
  plan.replicas = {{{1, R}}, {{1, R + 64}}};
  CopyVeto veto{{1}, {}};
  dropCopies(hw, bufs, veto, plan);
  EXPECT_EQ(plan.addr, (std::vector<uint64_t>{0, 64}));
  EXPECT_TRUE(plan.replicas[0].empty());
  ASSERT_EQ(plan.replicas[1].size(), 1u);
  EXPECT_EQ(plan.replicas[1][0], (std::pair<uint32_t, uint64_t>{1, R}));
  EXPECT_EQ(plan.allocated, (std::vector<uint64_t>{192, 128}));
  EXPECT_EQ(plan.dramSize, R + 128);
}

TEST(ChannelPlacement, BufferLookupAnswersAsBufferOf) {
  // Buffers with gaps; addresses in order, backwards and at random, before,
  // between, inside and after them: the remembered buffer changes nothing.
  std::vector<DramBuffer> bufs;
  uint64_t at = 64;
  for (int i = 0; i < 40; ++i) {
    DramBuffer b;
    b.addr = at;
    b.bytes = 16 + uint64_t(i % 7) * 48;
    bufs.push_back(b);
    at += b.bytes + uint64_t(i % 3) * 32;
  }
  std::vector<uint64_t> addrs;
  for (uint64_t a = 0; a < at + 100; a += 8)
    addrs.push_back(a);
  std::vector<uint64_t> back(addrs.rbegin(), addrs.rend());
  std::vector<uint64_t> mixed = addrs;
  for (size_t i = 0; i < mixed.size(); ++i)
    std::swap(mixed[i], mixed[(i * 7919) % mixed.size()]);
  for (const auto &order : {addrs, back, mixed}) {
    BufferLookup lookup(bufs);
    for (uint64_t a : order)
      ASSERT_EQ(lookup(a), bufferOf(bufs, a)) << a;
  }
}

// Constants first in every region, grouped by where their copies are and
// in buffer order inside a group; channels, copies and each region's bytes
// unchanged (docs/simulator.md, "Twelfth round").
TEST(ChannelPlacement, ConstantsComeFirstInEachRegion) {
  HardwareDesc hw = twoChannels();
  const uint64_t R = hw.channelRegionBytes();
  // 0: an activation on channel 0; 1: a constant on channel 0 copied to
  // channel 1; 2: a constant on channel 0 alone; 3: an activation on
  // channel 1; 4: a constant on channel 0 copied to channel 1; 5: a
  // constant on channel 1.
  std::vector<DramBuffer> bufs{{0, 64},    {64, 128}, {192, 64},
                               {256, 256}, {512, 64}, {576, 192}};
  const std::vector<bool> constant{false, true, true, false, true, true};
  ChannelPlan plan;
  plan.channel = {0, 0, 0, 1, 0, 1};
  plan.addr = {0, 64, 192, R, 256, R + 256};
  plan.replicas = {{}, {{1, R + 448}}, {}, {}, {{1, R + 576}}, {}};
  layOutConstantsFirst(hw, bufs, constant, plan);
  // Channel 0: constant 2 (copies {0}), then 1 and 4 (copies {0, 1}), then
  // activation 0. Channel 1: 1 and 4's copies, constant 5 ({1}), then
  // activation 3.
  EXPECT_EQ(plan.addr,
            (std::vector<uint64_t>{256, 64, 0, R + 384, 192, R + 192}));
  ASSERT_EQ(plan.replicas[1].size(), 1u);
  ASSERT_EQ(plan.replicas[4].size(), 1u);
  EXPECT_EQ(plan.replicas[1][0], (std::pair<uint32_t, uint64_t>{1, R}));
  EXPECT_EQ(plan.replicas[4][0], (std::pair<uint32_t, uint64_t>{1, R + 128}));
  // Constants copied alike are neighbours on both channels, in the same
  // order: their segments continue one another.
  EXPECT_EQ(plan.addr[4], plan.addr[1] + bufs[1].bytes);
  EXPECT_EQ(plan.replicas[4][0].second,
            plan.replicas[1][0].second + bufs[1].bytes);
  EXPECT_EQ(plan.channel, (std::vector<uint32_t>{0, 0, 0, 1, 0, 1}));
  EXPECT_EQ(plan.allocated, (std::vector<uint64_t>{320, 640}));
  EXPECT_EQ(plan.dramSize, R + 640);
}

// A buffer is a constant's when some constant segment lies in it, also a
// segment cut over several pieces of a buffer.
TEST(ChannelPlacement, ConstantBuffersAreTheOnesSegmentsLieIn) {
  Program p;
  p.constants.push_back(ConstSegment{64, std::vector<uint8_t>(100, 1), {}});
  p.constants.push_back(ConstSegment{400, std::vector<uint8_t>(8, 2), {}});
  std::vector<DramBuffer> bufs{
      {0, 64}, {64, 64}, {128, 64}, {192, 192}, {384, 64}};
  EXPECT_EQ(constantBuffers(p, bufs),
            (std::vector<bool>{false, true, true, false, true}));
}
