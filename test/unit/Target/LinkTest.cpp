//===- LinkTest.cpp - Several programs as one (accel-compile --networks) --===//
#include "accel/Target/Link.h"

#include <gtest/gtest.h>

using namespace accel;

namespace {

/// A program for a 1x2 sub-machine: one input symbol at `in`, one load on
/// its second cluster from `src` (4 floats), one SIGNAL to its first.
Program tiny(uint64_t in, uint64_t src) {
  Program p;
  p.gridRows = 1;
  p.gridCols = 2;
  p.clusters.resize(2);
  Symbol s;
  s.name = "x";
  s.shape = {4};
  s.dramAddr = in;
  p.symbols.push_back(s);
  Command load;
  load.kind = CommandKind::Dma;
  load.dma.dir = DmaDir::Load;
  load.dma.src = src;
  load.dma.shape[0] = 4;
  load.dma.srcStride[0] = 1;
  load.dma.dstStride[0] = 1;
  load.layer = 0;
  p.clusters[1].commands.push_back(load);
  Command sig;
  sig.kind = CommandKind::Signal;
  sig.mesh->targets = {0};
  p.clusters[1].commands.push_back(sig);
  p.layers.push_back(LayerInfo{"conv", "Conv"});
  return p;
}

} // namespace

// Two networks on the rows of the default 2x2 machine (2 channels of 512
// MiB regions): each keeps every channel and owns half of each region
// (256 MiB slices); addresses keep their channel, clusters move to the row.
TEST(Link, ParallelRelocatesIntoEachNetworksSlice) {
  HardwareDesc full = defaultHardware();
  const uint64_t R = full.channelRegionBytes(), S = R / 2;
  std::vector<LinkPart> parts(2);
  std::string err;
  for (size_t i = 0; i < 2; ++i) {
    parts[i].name = i ? "b" : "a";
    parts[i].rect = {uint32_t(i), 0, 1, 2};
    HardwareDesc view;
    ASSERT_TRUE(
        subMachine(full, parts[i].rect, 2, view, parts[i].channels, err))
        << err;
    EXPECT_EQ(view.channelRegionBytes(), S);
    EXPECT_EQ(parts[i].channels, (std::vector<uint32_t>{0, 1}));
    parts[i].program = tiny(64, S + 100); // x in channel 0, load from 1
  }
  Program out;
  ASSERT_TRUE(linkPrograms(parts, full, LinkMode::Parallel, out, err)) << err;
  ASSERT_EQ(out.symbols.size(), 2u);
  EXPECT_EQ(out.symbols[0].name, "a.x");
  EXPECT_EQ(out.symbols[0].dramAddr, 64u);
  EXPECT_EQ(out.symbols[1].name, "b.x");
  EXPECT_EQ(out.symbols[1].dramAddr, S + 64);
  // a's second cluster is cluster 1, b's is cluster 3.
  EXPECT_EQ(out.clusters[1].commands[0].dma.src, R + 100);
  EXPECT_EQ(out.clusters[3].commands[0].dma.src, R + S + 100);
  EXPECT_EQ(out.clusters[3].commands[1].mesh->targets,
            (std::vector<uint32_t>{2}));
  EXPECT_EQ(out.layers[1].name, "b.conv");
  EXPECT_EQ(out.clusters[3].commands[0].layer, 1u);
  EXPECT_EQ(out.hwFingerprint, full.fingerprint());
}

TEST(Link, OneClusterUsesItsLocalChannelOnly) {
  HardwareDesc full = defaultHardware(); // cluster 3 -> channel 1
  HardwareDesc view;
  std::vector<uint32_t> channels;
  std::string err;
  ASSERT_TRUE(subMachine(full, {1, 1, 1, 1}, 3, view, channels, err)) << err;
  EXPECT_EQ(channels, (std::vector<uint32_t>{1}));
  EXPECT_EQ(view.channels.size(), 1u);
  EXPECT_EQ(view.numClusters(), 1u);
}

TEST(Link, ErrorsNameTheNetwork) {
  HardwareDesc full = defaultHardware();
  const uint64_t S = full.channelRegionBytes() / 2;
  std::vector<LinkPart> parts(2);
  std::string err;
  for (size_t i = 0; i < 2; ++i) {
    parts[i].name = i ? "b" : "a";
    parts[i].rect = {0, 0, 1, 2};
    parts[i].program = tiny(64, 64);
  }
  Program out;
  EXPECT_FALSE(linkPrograms(parts, full, LinkMode::Parallel, out, err));
  EXPECT_EQ(err, "networks a and b are both placed on cluster 0");
  parts[0].program = tiny(64, 64); // linking consumed the programs
  parts[1].rect = {1, 0, 1, 2};
  parts[1].program = tiny(64, S - 8); // 16 bytes across the slice's end
  EXPECT_FALSE(linkPrograms(parts, full, LinkMode::Parallel, out, err));
  EXPECT_NE(err.find("network b: cluster 1 command 0 ["), std::string::npos)
      << err;
  EXPECT_NE(err.find("is not inside one channel's slice"), std::string::npos);
  HardwareDesc view;
  std::vector<uint32_t> channels;
  EXPECT_FALSE(subMachine(full, {1, 1, 2, 1}, 2, view, channels, err));
  EXPECT_EQ(err, "clusters 2x1 at (1, 1) are outside the 2x2 grid");
}

// The baseline: every network on the whole grid, one after the other; each
// cluster waits for everything and meets the others at a barrier between.
TEST(Link, SequentialSeparatesNetworksByABarrier) {
  HardwareDesc full = defaultHardware();
  std::vector<LinkPart> parts(2);
  std::string err;
  for (size_t i = 0; i < 2; ++i) {
    parts[i].name = i ? "b" : "a";
    parts[i].rect = {0, 0, 2, 2};
    parts[i].program = tiny(64, 64);
    parts[i].program.gridRows = 2;
    parts[i].program.clusters.resize(4);
  }
  Program out;
  ASSERT_TRUE(linkPrograms(parts, full, LinkMode::Sequential, out, err)) << err;
  const auto &c0 = out.clusters[0].commands;
  ASSERT_EQ(c0.size(), 2u); // WAIT, BARRIER (nothing else on cluster 0)
  EXPECT_EQ(c0[0].kind, CommandKind::Wait);
  EXPECT_EQ(c0[0].waitTags, 0xFF);
  EXPECT_EQ(c0[1].kind, CommandKind::Barrier);
  const auto &c1 = out.clusters[1].commands;
  ASSERT_EQ(c1.size(), 6u); // a's load + signal, WAIT, BARRIER, b's two
  EXPECT_EQ(c1[3].kind, CommandKind::Barrier);
  EXPECT_EQ(c1[4].dma.src, full.channelRegionBytes() / 2 + 64);
}
