//===- DmaCoalesceTest.cpp - Consecutive DMAs merged into one box ---------===//
//
// The parts a piece split cut from one load or store box merge back where
// they are contiguous in both memories again; gaps, other tags, DRAM
// copies, other layers, commands in between and two program symbols keep
// them apart.
//
//===----------------------------------------------------------------------===//
#include "accel/Codegen/DmaCoalesce.h"

#include <gtest/gtest.h>

#include <utility>

using namespace accel;
using namespace accel::codegen;

namespace {

/// One channel row of a 16-channel x 12544-pixel map: 64 pixels of channel
/// `ch` from DRAM `base` (planes 12544 floats apart) to storage `dst` (rows
/// 64 floats apart), as splitAtPieces leaves it: shape [1, 64], the box's
/// strides kept.
DmaDesc channelRow(uint64_t base, uint32_t ch, uint32_t dst, uint8_t tag = 0) {
  DmaDesc d;
  d.dir = DmaDir::Load;
  d.tag = tag;
  d.src = base + uint64_t(ch) * 12544 * 4;
  d.dst = dst + ch * 64 * 4;
  d.shape[2] = 1, d.shape[3] = 64;
  d.srcStride[2] = 12544, d.srcStride[3] = 1;
  d.dstStride[2] = 64, d.dstStride[3] = 1;
  return d;
}

Command dma(const DmaDesc &d, uint32_t layer = 3) {
  Command c;
  c.kind = CommandKind::Dma;
  c.dma = d;
  c.layer = layer;
  return c;
}

TEST(DmaCoalesce, ContinuesBoxAlongTheOuterDimension) {
  const DmaDesc a = channelRow(1 << 20, 2, 4096),
                b = channelRow(1 << 20, 3, 4096);
  EXPECT_TRUE(continuesBox(a, b));
  EXPECT_FALSE(continuesBox(b, a)); // the next slice, not the previous one
  // A channel missing (resident, or another piece elsewhere).
  EXPECT_FALSE(continuesBox(a, channelRow(1 << 20, 4, 4096)));
  // Other tag, other directions, a zero stride along the merged dimension.
  EXPECT_FALSE(continuesBox(a, channelRow(1 << 20, 3, 4096, 1)));
  DmaDesc st = a, st2 = b;
  st.dir = st2.dir = DmaDir::Store; // storage -> DRAM: the same box swapped
  std::swap(st.src, st.dst), std::swap(st2.src, st2.dst);
  for (int i = 0; i < 4; ++i)
    std::swap(st.srcStride[i], st.dstStride[i]),
        std::swap(st2.srcStride[i], st2.dstStride[i]);
  EXPECT_TRUE(continuesBox(st, st2));
  EXPECT_FALSE(continuesBox(a, st2));
  DmaDesc copy = a, copy2 = b;
  copy.dir = copy2.dir = DmaDir::DramCopy;
  EXPECT_FALSE(continuesBox(copy, copy2));
  DmaDesc z = a, z2 = a;
  z.srcStride[2] = z2.srcStride[2] = 0;
  z2.dst = a.dst + 64 * 4;
  EXPECT_FALSE(continuesBox(z, z2));
  // Different inner extents.
  DmaDesc narrow = b;
  narrow.shape[3] = 48;
  EXPECT_FALSE(continuesBox(a, narrow));
  // Two 1-D runs back to back in both memories.
  DmaDesc r1, r2;
  r1.shape[3] = r2.shape[3] = 16;
  r1.srcStride[3] = r1.dstStride[3] = r2.srcStride[3] = r2.dstStride[3] = 1;
  r1.src = 1000, r1.dst = 64, r2.src = 1064, r2.dst = 128;
  EXPECT_TRUE(continuesBox(r1, r2));
}

TEST(DmaCoalesce, MergesRunsOfOneLayerInTheStream) {
  Program p;
  p.clusters.resize(1);
  CommandList &s = p.clusters[0].commands;
  const uint64_t base = 1 << 20;
  // Channels 2-8 next to each other (one DMA), 9-10 elsewhere (one more),
  // then channel 11 after a WAIT, and channel 12 of another layer.
  for (uint32_t ch = 2; ch <= 8; ++ch)
    s.push_back(dma(channelRow(base, ch, 4096)));
  const uint64_t other = 8 << 20;
  for (uint32_t ch = 9; ch <= 10; ++ch)
    s.push_back(dma(channelRow(other - 9 * 12544 * 4, ch, 4096)));
  Command wait;
  wait.kind = CommandKind::Wait;
  wait.waitTags = 1;
  s.push_back(wait);
  s.push_back(dma(channelRow(other - 9 * 12544 * 4, 11, 4096)));
  s.push_back(dma(channelRow(other - 9 * 12544 * 4, 12, 4096), 4));
  EXPECT_EQ(coalesceDmaLoads(p), 7u);
  ASSERT_EQ(s.size(), 5u);
  EXPECT_EQ(s[0].dma.src, base + 2 * 12544 * 4);
  EXPECT_EQ(s[0].dma.shape[2], 7u);
  EXPECT_EQ(s[0].dma.numElements(), 7u * 64);
  EXPECT_EQ(s[1].dma.src, other);
  EXPECT_EQ(s[1].dma.dst, 4096u + 9 * 64 * 4);
  EXPECT_EQ(s[1].dma.shape[2], 2u);
  EXPECT_EQ(s[2].kind, CommandKind::Wait);
  EXPECT_EQ(s[3].dma.shape[2], 1u);
  EXPECT_EQ(s[4].layer, 4u);
}

TEST(DmaCoalesce, LoadsOfTwoSymbolsStayApart) {
  // Inputs "a" [4, 8] at 0 and "b" [8, 8] at 128, loaded into consecutive
  // storage rows: one box by its addresses, but two inputs.
  Program p;
  p.clusters.resize(1);
  Symbol a, b;
  a.name = "a", a.isInput = true, a.shape = {4, 8}, a.dramAddr = 0;
  b.name = "b", b.isInput = true, b.shape = {8, 8}, b.dramAddr = 128;
  p.symbols = {a, b};
  DmaDesc la, lb;
  la.shape[2] = 4, lb.shape[2] = 8;
  la.shape[3] = lb.shape[3] = 8;
  la.srcStride[2] = la.dstStride[2] = lb.srcStride[2] = lb.dstStride[2] = 8;
  la.srcStride[3] = la.dstStride[3] = lb.srcStride[3] = lb.dstStride[3] = 1;
  la.src = 0, la.dst = 1024, lb.src = 128, lb.dst = 1024 + 128;
  ASSERT_TRUE(continuesBox(la, lb));
  p.clusters[0].commands = {dma(la), dma(lb)};
  EXPECT_EQ(coalesceDmaLoads(p), 0u);
  EXPECT_EQ(p.clusters[0].commands.size(), 2u);
}

} // namespace
