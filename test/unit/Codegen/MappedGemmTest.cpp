//===- MappedGemmTest.cpp - emitMappedGemmLayer / partial-sum combine -----===//
//
// The mapped kernel's programs validate for every stationary operand (with
// several K chunks, bias, a fused function), each cluster runs only its own
// work, the loop nests differ, and unrealisable inputs are clear errors.
//
//===----------------------------------------------------------------------===//
#include "accel/Codegen/Kernels.h"
#include "accel/Hardware/HardwareDesc.h"
#include "accel/Target/Validate.h"

#include <gtest/gtest.h>

using namespace accel;
using namespace accel::codegen;

namespace {

/// A dense m x k x n problem at DRAM 0 (A), 1 MiB (B), 2 MiB (C), 3 MiB
/// (bias), chunks of kc, N tiles of nc.
GemmTiles problem(int64_t m, int64_t k, int64_t n, int64_t kc, int64_t nc,
                  bool bias) {
  GemmTiles p;
  p.m = m;
  for (int64_t o = 0; o < k; o += kc)
    p.kChunks.push_back(std::min(kc, k - o));
  for (int64_t o = 0; o < n; o += nc)
    p.nTiles.push_back(std::min(nc, n - o));
  p.aBox = [=](int64_t m0, int64_t mc, size_t ki) {
    DramBox b;
    b.base = uint64_t((m0 * k + int64_t(ki) * kc) * 4);
    b.dim(mc, k).dim(std::min(kc, k - int64_t(ki) * kc), 1);
    return b;
  };
  p.bBox = [=](size_t ki, size_t ni) {
    DramBox b;
    b.base =
        (1u << 20) + uint64_t((int64_t(ki) * kc * n + int64_t(ni) * nc) * 4);
    b.dim(std::min(kc, k - int64_t(ki) * kc), n)
        .dim(std::min(nc, n - int64_t(ni) * nc), 1);
    return b;
  };
  p.cBox = [=](int64_t m0, int64_t mc, size_t ni) {
    DramBox b;
    b.base = (2u << 20) + uint64_t((m0 * n + int64_t(ni) * nc) * 4);
    b.dim(mc, n).dim(std::min(nc, n - int64_t(ni) * nc), 1);
    return b;
  };
  if (bias)
    p.initBox = [=](int64_t m0, int64_t mc, size_t ni) {
      DramBox b;
      b.base = (3u << 20) + uint64_t(int64_t(ni) * nc * 4);
      b.dim(mc, 0).dim(std::min(nc, n - int64_t(ni) * nc), 1);
      return b;
    };
  return p;
}

ClusterGemmWork work(bool bias) {
  ClusterGemmWork w;
  w.problems.push_back(problem(40, 200, 100, 64, 32, bias));
  w.tiling.peRows = 4; // 16 rows
  w.tiling.kc = 64;
  w.tiling.nc = 32;
  return w;
}

size_t executes(const Program &p, uint32_t cl) {
  size_t n = 0;
  for (const Command &c : p.clusters[cl].commands)
    n += c.kind == CommandKind::Execute;
  return n;
}

TEST(MappedGemm, ProgramsValidateForEveryStationaryOperand) {
  HardwareDesc hw = defaultHardware();
  for (StationaryOperand st :
       {StationaryOperand::A, StationaryOperand::B, StationaryOperand::C})
    for (bool bias : {false, true})
      for (SfuFunc f : {SfuFunc::None, SfuFunc::Relu}) {
        Program prog;
        prog.dramSize = 8u << 20;
        StreamBuilder sb(prog, hw);
        std::vector<ClusterGemmWork> w(hw.numClusters());
        w[1] = work(bias); // only cluster (0, 1) works
        w[1].psumScratch = 4u << 20;
        EXPECT_EQ(mappedPsumScratchElems(w[1], st),
                  st == StationaryOperand::C ? 0 : 40 * 100);
        GemmEpilogue epi;
        epi.func = f;
        std::string err;
        ASSERT_TRUE(emitMappedGemmLayer(sb, w, st, epi, err)) << err;
        EXPECT_TRUE(validateProgram(prog, hw, err)) << err;
        // 3 M tiles x 4 N tiles x 4 K chunks, all on cluster 1.
        EXPECT_EQ(executes(prog, 0), 0u);
        EXPECT_EQ(executes(prog, 1), 48u);
        EXPECT_EQ(executes(prog, 2), 0u);
      }
}

TEST(MappedGemm, PartialSumsNeedAScratch) {
  HardwareDesc hw = defaultHardware();
  Program prog;
  StreamBuilder sb(prog, hw);
  std::vector<ClusterGemmWork> w(hw.numClusters());
  w[0] = work(false);
  std::string err;
  EXPECT_FALSE(emitMappedGemmLayer(sb, w, StationaryOperand::A, {}, err));
  EXPECT_NE(err.find("partial-sum scratch"), std::string::npos) << err;
}

TEST(MappedGemm, TooFewInstructionBuffersIsAnError) {
  HardwareDesc hw = defaultHardware();
  hw.instructionBuffers = 1;
  Program prog;
  StreamBuilder sb(prog, hw);
  std::vector<ClusterGemmWork> w(hw.numClusters());
  w[0] = work(true);
  w[0].psumScratch = 4u << 20;
  GemmEpilogue epi;
  epi.func = SfuFunc::Relu;
  std::string err;
  // Input stationary with a bias / reloads on every chunk and a fused ReLU
  // on the last one only: two sequences (with and without the ReLU).
  EXPECT_FALSE(emitMappedGemmLayer(sb, w, StationaryOperand::A, epi, err));
  EXPECT_NE(err.find("needs 2 instruction buffers, the hardware has 1"),
            std::string::npos)
      << err;
}

TEST(MappedGemm, MoreSlicesThanClustersIsAnError) {
  HardwareDesc hw = defaultHardware();
  Program prog;
  StreamBuilder sb(prog, hw);
  std::vector<ClusterGemmWork> w(hw.numClusters() + 1);
  std::string err;
  EXPECT_FALSE(emitMappedGemmLayer(sb, w, StationaryOperand::C, {}, err));
  EXPECT_NE(err.find("more cluster slices than clusters"), std::string::npos);
}

TEST(MappedGemm, StationaryOperandIsLoadedOncePerGroup) {
  HardwareDesc hw = defaultHardware();
  // Count DMA loads per stationary choice: A stationary loads each A tile
  // once (3 M tiles x 4 K chunks = 12) and B every step (48); B stationary
  // the reverse (B tiles 4 x 4 = 16, A 48).
  auto loads = [&](StationaryOperand st, uint64_t lo, uint64_t hi) {
    Program prog;
    prog.dramSize = 8u << 20;
    StreamBuilder sb(prog, hw);
    std::vector<ClusterGemmWork> w(hw.numClusters());
    w[0] = work(false);
    w[0].psumScratch = 4u << 20;
    std::string err;
    EXPECT_TRUE(emitMappedGemmLayer(sb, w, st, {}, err)) << err;
    size_t n = 0;
    for (const Command &c : prog.clusters[0].commands)
      n += c.kind == CommandKind::Dma && c.dma.dir == DmaDir::Load &&
           c.dma.src >= lo && c.dma.src < hi;
    return n;
  };
  EXPECT_EQ(loads(StationaryOperand::A, 0, 1u << 20), 12u);
  EXPECT_EQ(loads(StationaryOperand::A, 1u << 20, 2u << 20), 48u);
  EXPECT_EQ(loads(StationaryOperand::B, 0, 1u << 20), 48u);
  EXPECT_EQ(loads(StationaryOperand::B, 1u << 20, 2u << 20), 16u);
  // Partial sums reloaded on every chunk but the first: 12 tiles x 3.
  EXPECT_EQ(loads(StationaryOperand::A, 4u << 20, 5u << 20), 36u);
  EXPECT_EQ(loads(StationaryOperand::C, 4u << 20, 5u << 20), 0u);
}

} // namespace
