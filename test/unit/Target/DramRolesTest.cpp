//===- DramRolesTest.cpp - What the DRAM bytes of a program hold ----------===//
#include "accel/Target/DramRoles.h"
#include <gtest/gtest.h>

using namespace accel;

namespace {

DmaDesc dma(DmaDir dir, uint64_t src, uint64_t dst, uint32_t n) {
  DmaDesc d;
  d.dir = dir;
  d.src = src;
  d.dst = dst;
  d.shape[3] = n;
  d.srcStride[3] = 1;
  d.dstStride[3] = 1;
  return d;
}

TEST(DramRoles, SymbolsConstantsAndTheRest) {
  Program p;
  Symbol x;
  x.name = "x";
  x.shape = {16}; // [0, 64)
  Symbol y = x;
  y.name = "y";
  y.isInput = false;
  y.dramAddr = 4096; // in two pieces: [4096, 4128) and [8192, 8224)
  y.pieces = {{0, 32, 4096}, {32, 32, 8192}};
  p.symbols = {x, y};
  ConstSegment w;
  w.dramAddr = 128;
  w.bytes.resize(64);
  w.replicas = {2048};
  p.constants = {w};
  DramRoleMap m(p);
  EXPECT_EQ(m.roleOf(0, 4), DramRole::Input);
  EXPECT_EQ(m.roleOf(60, 70), DramRole::Input);
  EXPECT_EQ(m.roleOf(64, 128), DramRole::Intermediate);
  EXPECT_EQ(m.roleOf(100, 200), DramRole::Constant);
  EXPECT_EQ(m.roleOf(2048, 2052), DramRole::Constant);
  EXPECT_EQ(m.roleOf(8200, 8204), DramRole::Output);
  EXPECT_EQ(m.roleOf(4128, 8192), DramRole::Intermediate);

  EXPECT_EQ(m.spillBytes(dma(DmaDir::Load, 0, 0, 16)), 0u);
  EXPECT_EQ(m.spillBytes(dma(DmaDir::Store, 0, 256, 16)), 64u);
  // A DRAM copy from an intermediate into the output: its read side.
  EXPECT_EQ(m.spillBytes(dma(DmaDir::DramCopy, 256, 4096, 8)), 32u);
  EXPECT_EQ(m.spillBytes(dma(DmaDir::DramCopy, 256, 512, 8)), 64u);
  EXPECT_EQ(m.spillBytes(dma(DmaDir::LocalCopy, 256, 512, 8)), 0u);
  DmaDesc r = dma(DmaDir::RemoteLoad, 256, 512, 8);
  r.srcCluster = 1;
  EXPECT_EQ(m.spillBytes(r), 0u);
}

} // namespace
