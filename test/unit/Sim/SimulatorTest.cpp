//===- SimulatorTest.cpp - Functional semantics and error handling --------===//
#include "../../../lib/Sim/PagedMemory.h"
#include "SimTestUtil.h"

#include "accel/Sim/Numerics.h"
#include "accel/Sim/Simulator.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>

using namespace accel;
using namespace accel::test;

namespace {

void expectNear(const std::vector<float> &got, const std::vector<float> &want,
                float tol = 1e-5f) {
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < got.size(); ++i)
    ASSERT_NEAR(got[i], want[i], tol) << "element " << i;
}

RegPatch patch(uint8_t instr, PatchField f, uint32_t v) {
  RegPatch p;
  p.instr = instr;
  p.field = f;
  p.value = v;
  return p;
}

} // namespace

// Y[5x6] = X[5x8] * W[8x6] on a 1x2 grid: N split over the clusters (3
// columns each), K split over two EXECUTEs of one instruction buffer (the
// second with shift+last and patched addresses), M split over 2 PEs with
// peRows 3 (PE 1 gets the 2-row remainder).
TEST(Simulator, TiledMatmulTwoClustersSplitK) {
  HardwareDesc hw = tinyHardware(1, 2);
  const uint32_t M = 5, K = 8, N = 6, Nc = 3, Kh = 4;
  const uint64_t xA = 0, wA = 256, yA = 512;
  Program p = makeProgram(hw, 1024);
  p.symbols = {sym("x", true, {M, K}, xA), sym("w", true, {K, N}, wA),
               sym("y", false, {M, N}, yA)};
  for (uint32_t ci = 0; ci < 2; ++ci) {
    uint32_t n0 = ci * Nc;
    auto &cmds = p.clusters[ci].commands;
    cmds.push_back(dma2d(DmaDir::Load, 0, xA, 0, M, K, K, K));
    cmds.push_back(dma2d(DmaDir::Load, 1, wA + n0 * 4, 1024, K, Nc, N, Nc));
    cmds.push_back(waitCmd(0b11));
    cmds.push_back(config(0, {ldActs(0, rec(0, M, Kh, K, 1, 3)),
                              ldWeights(rec(1024, Kh, Nc, Nc)),
                              mac(0, 0, rec(0, M, Nc, 0, 1, 3, Kh)),
                              stAcc(0, rec(2048, M, Nc, Nc, 1, 3))}));
    cmds.push_back(execute(0, false, false));
    cmds.push_back(execute(0, true, true,
                           {patch(0, PatchField::Addr, Kh * 4),
                            patch(1, PatchField::Addr, 1024 + Kh * Nc * 4)}));
    cmds.push_back(waitCmd(0, true));
    cmds.push_back(dma2d(DmaDir::Store, 2, 2048, yA + n0 * 4, M, Nc, Nc, N));
    cmds.push_back(waitCmd(1 << 2));
  }
  std::map<std::string, Tensor> in{{"x", tensor({M, K}, 1)},
                                   {"w", tensor({K, N}, 2)}},
      out;
  SimStats st;
  ASSERT_EQ(run(p, hw, in, out, st), "");
  ASSERT_EQ(out.count("y"), 1u);
  EXPECT_EQ(out["y"].shape, (std::vector<int64_t>{M, N}));
  expectNear(out["y"].data, matmul(in["x"].data, in["w"].data, M, K, N));
  EXPECT_EQ(st.macs, uint64_t(M) * K * N);
  EXPECT_EQ(st.storesSkipped, 2u);
  EXPECT_EQ(st.instructionCounts["MAC"], 4u);
  EXPECT_EQ(st.instructionCounts["ST"], 2u);
  EXPECT_EQ(st.commandCounts["EXECUTE"], 4u);
  EXPECT_EQ(st.hazardCount, 0u) << (st.hazards.empty() ? "" : st.hazards[0]);
  EXPECT_EQ(st.dramBytesWritten, uint64_t(M) * N * 4);
}

// SimOptions::commandsChecked (accel-run's streamed validation): a checker
// that lets one more command of the asking cluster run per call gives the
// ungated run's outputs and statistics; one that reports a violation stops
// the run before the first unchecked command.
TEST(Simulator, CommandsRunOnlyOnceChecked) {
  HardwareDesc hw = tinyHardware(1, 2);
  const uint32_t M = 4, K = 4, N = 4;
  Program p = makeProgram(hw, 1024);
  p.symbols = {sym("x", true, {M, K}, 0), sym("w", true, {K, N}, 256),
               sym("y", false, {M, N}, 512)};
  for (uint32_t ci = 0; ci < 2; ++ci) {
    auto &cmds = p.clusters[ci].commands;
    for (const Command &c : tileMatmul(M, K, N, 0, 256, 1024, 2048))
      cmds.push_back(c);
    if (ci == 0) {
      cmds.push_back(dma2d(DmaDir::Store, 2, 2048, 512, M, N, N, N));
      cmds.push_back(waitCmd(1 << 2));
    }
  }
  std::map<std::string, Tensor> in{{"x", tensor({M, K}, 1)},
                                   {"w", tensor({K, N}, 2)}},
      plain, gated;
  SimStats plainStats, gatedStats;
  ASSERT_EQ(run(p, hw, in, plain, plainStats), "");

  std::vector<uint64_t> granted(2, 0);
  uint64_t asked = 0;
  SimOptions opts;
  opts.commandsChecked = [&](uint32_t cluster, uint64_t &n) {
    ++asked;
    n = ++granted[cluster];
    return true;
  };
  ASSERT_EQ(run(p, hw, in, gated, gatedStats, opts), "");
  EXPECT_EQ(gated["y"].data, plain["y"].data);
  EXPECT_EQ(gatedStats.cycles, plainStats.cycles);
  EXPECT_EQ(gatedStats.commandCounts, plainStats.commandCounts);
  // Asked once per command: each answer grants exactly the next one.
  EXPECT_EQ(asked,
            p.clusters[0].commands.size() + p.clusters[1].commands.size());

  // Cluster 0 is checked whole; cluster 1's commands 0-2 are, and the
  // violation is found while it waits for command 3: the run stops there.
  SimOptions stop;
  uint64_t asks = 0;
  stop.commandsChecked = [&asks](uint32_t cluster, uint64_t &n) {
    ++asks;
    if (cluster == 0) {
      n = UINT64_MAX;
      return true;
    }
    n = 3;
    return asks < 3; // the violation is found while cluster 1 waits
  };
  std::map<std::string, Tensor> none;
  SimStats stopped;
  EXPECT_EQ(run(p, hw, in, none, stopped, stop),
            "cluster (0,1) command 3: not run, the program failed validation");
  EXPECT_TRUE(none.empty());
}

// Accumulation buffers keep their contents across EXECUTEs without shift and
// restart from zero after a shift; patches persist in the register file.
TEST(Simulator, ShiftRestartsAccumulationAndPatchesPersist) {
  HardwareDesc hw = tinyHardware();
  const uint32_t M = 3, K = 4, N = 2;
  Program p = makeProgram(hw, 1024);
  p.symbols = {sym("x", true, {M, K}, 0), sym("w", true, {K, N}, 128),
               sym("y", false, {4, M, N}, 256)};
  auto &c = p.clusters[0].commands;
  c.push_back(dma2d(DmaDir::Load, 0, 0, 0, M, K, K, K));
  c.push_back(dma2d(DmaDir::Load, 0, 128, 512, K, N, N, N));
  c.push_back(waitCmd(1));
  c.push_back(
      config(1, {ldActs(2, rec(0, M, K, K, 1, 2)), ldWeights(rec(512, K, N, N)),
                 mac(2, 3, rec(0, M, N, 0, 1, 2, K)),
                 stAcc(3, rec(1024, M, N, N, 1, 2))}));
  const uint32_t tile = M * N * 4;
  c.push_back(execute(1, false, true)); // 1x
  c.push_back(
      execute(1, false, true, {patch(3, PatchField::Addr, 1024 + tile)}));
  c.push_back(
      execute(1, true, true, {patch(3, PatchField::Addr, 1024 + 2 * tile)}));
  c.push_back(
      execute(1, true, true, {patch(3, PatchField::Addr, 1024 + 3 * tile)}));
  c.push_back(waitCmd(0, true));
  c.push_back(dma2d(DmaDir::Store, 1, 1024, 256, 4, M * N, M * N, M * N));
  c.push_back(waitCmd(2));
  std::map<std::string, Tensor> in{{"x", tensor({M, K}, 3)},
                                   {"w", tensor({K, N}, 4)}},
      out;
  SimStats st;
  ASSERT_EQ(run(p, hw, in, out, st), "");
  auto ref = matmul(in["x"].data, in["w"].data, M, K, N);
  const float mult[4] = {1, 2, 3, 1};
  for (int b = 0; b < 4; ++b)
    for (size_t i = 0; i < ref.size(); ++i)
      EXPECT_NEAR(out["y"].data[b * ref.size() + i], mult[b] * ref[i], 1e-5)
          << "block " << b << " element " << i;
}

// Y = relu(B + X*W): bias loaded as partial sums, weights from a constant
// segment, relu chained on the store; 3 rows over 2 PEs (peRows 2).
TEST(Simulator, PartialSumsAndStoreRelu) {
  HardwareDesc hw = tinyHardware();
  const uint32_t M = 3, K = 5, N = 4;
  Program p = makeProgram(hw, 2048);
  std::vector<float> w = pattern(K * N, 7);
  p.constants.push_back(ConstSegment{1024, bytesOf(w)});
  p.symbols = {sym("x", true, {M, K}, 0), sym("b", true, {M, N}, 256),
               sym("y", false, {M, N}, 512)};
  auto &c = p.clusters[0].commands;
  c.push_back(dma2d(DmaDir::Load, 0, 0, 0, M, K, K, K));
  c.push_back(dma2d(DmaDir::Load, 1, 256, 256, M, N, N, N));
  c.push_back(dma2d(DmaDir::Load, 2, 1024, 512, K, N, N, N));
  c.push_back(waitCmd(0b111));
  c.push_back(config(
      0, {ldPsums(2, rec(256, M, N, N, 1, 2)), ldActs(0, rec(0, M, K, K, 1, 2)),
          ldWeights(rec(512, K, N, N)), mac(0, 2, rec(0, M, N, 0, 1, 2, K)),
          stAcc(2, rec(768, M, N, N, 1, 2), SfuFunc::Relu)}));
  c.push_back(execute(0, true, true));
  c.push_back(waitCmd(0, true));
  c.push_back(dma2d(DmaDir::Store, 3, 768, 512, M, N, N, N));
  c.push_back(waitCmd(1 << 3));
  std::map<std::string, Tensor> in{{"x", tensor({M, K}, 5)},
                                   {"b", tensor({M, N}, 6)}},
      out;
  SimStats st;
  ASSERT_EQ(run(p, hw, in, out, st), "");
  auto ref = matmul(in["x"].data, w, M, K, N);
  bool sawNegative = false;
  for (size_t i = 0; i < ref.size(); ++i) {
    float v = ref[i] + in["b"].data[i];
    sawNegative |= v < 0;
    EXPECT_NEAR(out["y"].data[i], std::max(v, 0.0f), 1e-5) << i;
  }
  EXPECT_TRUE(sawNegative); // relu did something
}

// SPU unary / binary / reduce / copy on input-buffer tiles, stored with ST
// InputBuffer (one with a chained scale).
TEST(Simulator, SpuFunctions) {
  HardwareDesc hw = tinyHardware();
  const uint32_t R = 4, C = 5, T = R * C;
  Program p = makeProgram(hw, 4096);
  const uint32_t nOut = 12;
  p.symbols = {sym("a", true, {R, C}, 0), sym("b", true, {R, C}, 128),
               sym("out", false, {nOut, R, C}, 256)};
  auto &c = p.clusters[0].commands;
  c.push_back(dma2d(DmaDir::Load, 0, 0, 0, R, C, C, C));
  c.push_back(dma2d(DmaDir::Load, 0, 128, 128, R, C, C, C));
  c.push_back(waitCmd(1));
  OperandRecord t = rec(0, R, C, C, 1, 2);
  OperandRecord bin = t;
  bin.depth = 1; // second operand: slot 1
  std::vector<Instruction> ins = {
      ldActs(0, rec(0, R, C, C, 1, 2)),
      ldActs(1, rec(128, R, C, C, 1, 2)),
      spu(SpuType::Binary, 0, 2, bin, SfuFunc::Add),
      spu(SpuType::Unary, 2, 3, t, SfuFunc::Relu),
      spu(SpuType::Unary, 3, 4, t, SfuFunc::Scale, -0.5f),
      spu(SpuType::Binary, 0, 5, bin, SfuFunc::Sub),
      spu(SpuType::Binary, 0, 6, bin, SfuFunc::Mul),
      spu(SpuType::Binary, 0, 7, bin, SfuFunc::Max),
      spu(SpuType::Binary, 0, 8, bin, SfuFunc::Min),
      spu(SpuType::Reduce, 0, 9, t, SfuFunc::None),
      spu(SpuType::Copy, 1, 10, t, SfuFunc::None),
      spu(SpuType::Reduce, 0, 11, t, SfuFunc::Max),
  };
  // Store slots 2..11 as blocks 0..9, slot 4 also with a chained scale as
  // block 10; reductions are R x 1 (column 0 of their block).
  const uint32_t base = 1024;
  std::vector<Instruction> sts;
  for (uint8_t s = 2; s <= 11; ++s) {
    bool red = s == 9 || s == 11;
    sts.push_back(
        stInbuf(s, rec(base + (s - 2) * T * 4, R, red ? 1 : C, C, 1, 2)));
  }
  sts.push_back(
      stInbuf(2, rec(base + 10 * T * 4, R, C, C, 1, 2), SfuFunc::Scale));
  sts.back().operands.imm = 3.0f;
  sts.push_back(
      stInbuf(0, rec(base + 11 * T * 4, R, C, C, 1, 2), SfuFunc::Relu));
  c.push_back(config(0, ins));
  c.push_back(config(1, sts));
  c.push_back(execute(0, false, false));
  c.push_back(execute(1, false, false));
  c.push_back(waitCmd(0, true));
  c.push_back(dma2d(DmaDir::Store, 1, base, 256, 1, nOut * T, 0, 0));
  c.push_back(waitCmd(2));
  std::map<std::string, Tensor> in{{"a", tensor({R, C}, 8)},
                                   {"b", tensor({R, C}, 9)}},
      out;
  SimStats st;
  ASSERT_EQ(run(p, hw, in, out, st), "");
  const auto &a = in["a"].data, &b = in["b"].data, &o = out["out"].data;
  auto blk = [&](int k, int i) { return o[k * T + i]; };
  for (uint32_t i = 0; i < T; ++i) {
    float sum = a[i] + b[i];
    EXPECT_FLOAT_EQ(blk(0, i), sum);
    EXPECT_FLOAT_EQ(blk(1, i), std::max(sum, 0.0f));
    EXPECT_FLOAT_EQ(blk(2, i), std::max(sum, 0.0f) * -0.5f);
    EXPECT_FLOAT_EQ(blk(3, i), a[i] - b[i]);
    EXPECT_FLOAT_EQ(blk(4, i), a[i] * b[i]);
    EXPECT_FLOAT_EQ(blk(5, i), std::max(a[i], b[i]));
    EXPECT_FLOAT_EQ(blk(6, i), std::min(a[i], b[i]));
    EXPECT_FLOAT_EQ(blk(8, i), b[i]);
    EXPECT_FLOAT_EQ(blk(10, i), sum * 3.0f);
    EXPECT_FLOAT_EQ(blk(11, i), std::max(a[i], 0.0f));
  }
  for (uint32_t r = 0; r < R; ++r) {
    float s = 0, m = a[r * C];
    for (uint32_t j = 0; j < C; ++j) {
      s += a[r * C + j];
      m = std::max(m, a[r * C + j]);
    }
    EXPECT_NEAR(blk(7, r * C), s, 1e-5);
    EXPECT_FLOAT_EQ(blk(9, r * C), m);
    for (uint32_t j = 1; j < C; ++j) {
      EXPECT_EQ(blk(7, r * C + j), 0.0f);
      EXPECT_EQ(blk(9, r * C + j), 0.0f);
    }
  }
  EXPECT_EQ(st.instructionCounts["SPU"], 10u);
}

// MAC repeat runs the instruction `repeat` times with the same operands.
TEST(Simulator, RepeatAccumulates) {
  HardwareDesc hw = tinyHardware();
  Program p = makeProgram(hw, 1024);
  p.symbols = {sym("x", true, {2, 3}, 0), sym("w", true, {3, 2}, 64),
               sym("y", false, {2, 2}, 128)};
  auto &c = p.clusters[0].commands;
  c.push_back(dma2d(DmaDir::Load, 0, 0, 0, 2, 3, 3, 3));
  c.push_back(dma2d(DmaDir::Load, 0, 64, 64, 3, 2, 2, 2));
  c.push_back(waitCmd(1));
  Instruction m = mac(0, 1, rec(0, 2, 2, 0, 1, 1, 3));
  m.operands.repeat = 3;
  c.push_back(
      config(0, {ldActs(0, rec(0, 2, 3, 3, 1, 1)), ldWeights(rec(64, 3, 2, 2)),
                 m, stAcc(1, rec(256, 2, 2, 2, 1, 1))}));
  c.push_back(execute(0, true, true));
  c.push_back(waitCmd(0, true));
  c.push_back(dma2d(DmaDir::Store, 0, 256, 128, 2, 2, 2, 2));
  c.push_back(waitCmd(1));
  std::map<std::string, Tensor> in{{"x", tensor({2, 3}, 10)},
                                   {"w", tensor({3, 2}, 11)}},
      out;
  SimStats st;
  ASSERT_EQ(run(p, hw, in, out, st), "");
  auto ref = matmul(in["x"].data, in["w"].data, 2, 3, 2);
  for (size_t i = 0; i < 4; ++i)
    EXPECT_NEAR(out["y"].data[i], 3 * ref[i], 1e-5);
  EXPECT_EQ(st.macs, 3u * 2 * 3 * 2);
  EXPECT_EQ(st.instructionCounts["MAC"], 3u);
}

// Broadcast (source stride 0), transposing strides, 4-D permutation,
// negative strides, padding copy and an overlapping DRAM->DRAM copy.
TEST(Simulator, StridedBroadcastAndDramCopy) {
  HardwareDesc hw = tinyHardware();
  Program p = makeProgram(hw, 4096);
  const uint64_t vA = 0, mA = 64, bA = 128, tA = 192, padA = 256, revA = 384,
                 xA = 512, xpA = 768, shA = 1024;
  p.symbols = {sym("v", true, {4}, vA),
               sym("m", true, {3, 4}, mA),
               sym("x", true, {2, 3, 2, 2}, xA),
               sym("sh", true, {6}, shA),
               sym("bcast", false, {3, 4}, bA),
               sym("mt", false, {4, 3}, tA),
               sym("pad", false, {5, 6}, padA),
               sym("rev", false, {3, 4}, revA),
               sym("xp", false, {2, 2, 3, 2}, xpA),
               sym("shifted", false, {6}, shA)};
  auto &c = p.clusters[0].commands;
  // v broadcast to 3 rows in storage, then back to DRAM.
  c.push_back(
      dma(DmaDir::Load, 0, vA, 0, {1, 1, 3, 4}, {0, 0, 0, 1}, {0, 0, 4, 1}));
  // m transposed into storage (column stride 3 on the destination).
  c.push_back(
      dma(DmaDir::Load, 0, mA, 256, {1, 1, 3, 4}, {0, 0, 4, 1}, {0, 0, 1, 3}));
  c.push_back(waitCmd(1));
  c.push_back(dma2d(DmaDir::Store, 1, 0, bA, 3, 4, 4, 4));
  c.push_back(dma2d(DmaDir::Store, 1, 256, tA, 4, 3, 3, 3));
  // Padding copy DRAM -> DRAM: m into the interior of a 5x6 zero tensor.
  c.push_back(
      dma2d(DmaDir::DramCopy, 2, mA, padA + (1 * 6 + 1) * 4, 3, 4, 4, 6));
  // Row reversal with a negative source stride.
  c.push_back(dma(DmaDir::DramCopy, 2, mA + 2 * 16, revA, {1, 1, 3, 4},
                  {0, 0, -4, 1}, {0, 0, 4, 1}));
  // 4-D permutation (0, 2, 1, 3) using all four dimensions.
  c.push_back(dma(DmaDir::DramCopy, 2, xA, xpA, {2, 3, 2, 2}, {12, 4, 2, 1},
                  {12, 2, 6, 1}));
  // Overlapping copy: sh[1..5] = sh[0..4] (reads before writing).
  c.push_back(dma2d(DmaDir::DramCopy, 3, shA, shA + 4, 1, 5, 0, 0));
  c.push_back(waitCmd(0b1110));
  std::map<std::string, Tensor> in{{"v", tensor({4}, 12)},
                                   {"m", tensor({3, 4}, 13)},
                                   {"x", tensor({2, 3, 2, 2}, 14)},
                                   {"sh", tensor({6}, 15)}},
      out;
  SimStats st;
  ASSERT_EQ(run(p, hw, in, out, st), "");
  const auto &v = in["v"].data, &m = in["m"].data, &x = in["x"].data,
             &sh = in["sh"].data;
  for (int r = 0; r < 3; ++r)
    for (int j = 0; j < 4; ++j) {
      EXPECT_EQ(out["bcast"].data[r * 4 + j], v[j]);
      EXPECT_EQ(out["mt"].data[j * 3 + r], m[r * 4 + j]);
      EXPECT_EQ(out["pad"].data[(r + 1) * 6 + j + 1], m[r * 4 + j]);
      EXPECT_EQ(out["rev"].data[r * 4 + j], m[(2 - r) * 4 + j]);
    }
  EXPECT_EQ(out["pad"].data[0], 0.0f);
  EXPECT_EQ(out["pad"].data[29], 0.0f);
  for (int a = 0; a < 2; ++a)
    for (int b = 0; b < 3; ++b)
      for (int cc = 0; cc < 2; ++cc)
        for (int d = 0; d < 2; ++d)
          EXPECT_EQ(out["xp"].data[a * 12 + cc * 6 + b * 2 + d],
                    x[a * 12 + b * 4 + cc * 2 + d]);
  EXPECT_EQ(out["shifted"].data[0], sh[0]);
  for (int i = 1; i < 6; ++i)
    EXPECT_EQ(out["shifted"].data[i], sh[i - 1]);
  // DramCopy counts as read and write.
  // Bytes moved = elements x elemBytes (the broadcast source is re-read).
  EXPECT_EQ(st.dramBytesRead, 48u + 48 + 48 + 48 + 96 + 20);
  EXPECT_EQ(st.dramBytesWritten, 48u + 48 + 48 + 48 + 96 + 20);
}

TEST(Numerics, RoundToNearestEven) {
  const float u16 = std::ldexp(1.0f, -10), u8 = std::ldexp(1.0f, -7);
  EXPECT_EQ(roundTo(DType::F16, 1 + u16 / 2), 1.0f);           // tie -> even
  EXPECT_EQ(roundTo(DType::F16, 1 + 1.5f * u16), 1 + 2 * u16); // tie -> even
  EXPECT_EQ(roundTo(DType::F16, 1 + 0.6f * u16), 1 + u16);
  EXPECT_EQ(roundTo(DType::F16, 65504.0f), 65504.0f);
  EXPECT_TRUE(std::isinf(roundTo(DType::F16, 70000.0f)));
  EXPECT_EQ(roundTo(DType::F16, std::ldexp(1.0f, -24)), std::ldexp(1.0f, -24));
  EXPECT_EQ(roundTo(DType::F16, std::ldexp(1.0f, -25)), 0.0f);
  EXPECT_EQ(roundTo(DType::F16, std::ldexp(3.0f, -25)), std::ldexp(1.0f, -23));
  EXPECT_EQ(roundTo(DType::F16, -0.1f), halfBitsToFloat(0xae66));
  EXPECT_TRUE(std::isnan(roundTo(DType::F16, NAN)));
  EXPECT_EQ(roundTo(DType::BF16, 1 + u8 / 2), 1.0f);
  EXPECT_EQ(roundTo(DType::BF16, 1 + 1.5f * u8), 1 + 2 * u8);
  EXPECT_TRUE(std::isnan(roundTo(DType::BF16, NAN)));
  EXPECT_EQ(roundTo(DType::F32, 0.1f), 0.1f);
}

// f16 / bf16 numerics: operands are rounded when loaded into the PEs; a
// narrow accumulator rounds after every add.
TEST(Simulator, ReducedPrecisionNumerics) {
  const uint32_t M = 4, K = 16, N = 8;
  auto runWith = [&](DType compute, DType acc, std::vector<float> &y,
                     std::map<std::string, Tensor> &in) {
    HardwareDesc hw = tinyHardware();
    hw.computeType = compute;
    hw.accumulateType = acc;
    Program p = makeProgram(hw, 4096);
    p.symbols = {sym("x", true, {M, K}, 0), sym("w", true, {K, N}, 512),
                 sym("y", false, {M, N}, 1024)};
    auto &c = p.clusters[0].commands;
    for (const Command &cmd : tileMatmul(M, K, N, 0, 512, 512, 1024))
      c.push_back(cmd);
    c.push_back(dma2d(DmaDir::Store, 0, 1024, 1024, M, N, N, N));
    c.push_back(waitCmd(1));
    std::map<std::string, Tensor> out;
    SimStats st;
    ASSERT_EQ(run(p, hw, in, out, st), "");
    y = out["y"].data;
  };
  std::map<std::string, Tensor> in{{"x", tensor({M, K}, 21)},
                                   {"w", tensor({K, N}, 22)}};
  std::vector<float> y32, ybf, yh, yacc;
  runWith(DType::F32, DType::F32, y32, in);
  runWith(DType::BF16, DType::F32, ybf, in);
  runWith(DType::F16, DType::F32, yh, in);
  runWith(DType::BF16, DType::BF16, yacc, in);
  auto rounded = [&](DType t, const std::vector<float> &v) {
    std::vector<float> r = v;
    for (float &f : r)
      f = roundTo(t, f);
    return r;
  };
  expectNear(y32, matmul(in["x"].data, in["w"].data, M, K, N));
  expectNear(ybf, matmul(rounded(DType::BF16, in["x"].data),
                         rounded(DType::BF16, in["w"].data), M, K, N));
  expectNear(yh, matmul(rounded(DType::F16, in["x"].data),
                        rounded(DType::F16, in["w"].data), M, K, N));
  float maxDiff = 0;
  for (size_t i = 0; i < y32.size(); ++i) {
    maxDiff = std::max(maxDiff, std::fabs(y32[i] - ybf[i]));
    EXPECT_EQ(yacc[i], roundTo(DType::BF16, yacc[i])) << i; // bf16 values
  }
  EXPECT_GT(maxDiff, 1e-4f); // rounding is visible
}

//===----------------------------------------------------------------------===//
// Errors
//===----------------------------------------------------------------------===//

namespace {

/// A one-cluster program with one input "x" [2, 3] and one output "y" [2, 3]
/// copied by DMA through the storage unit.
Program copyProgram(const HardwareDesc &hw) {
  Program p = makeProgram(hw, 256);
  p.symbols = {sym("x", true, {2, 3}, 0), sym("y", false, {2, 3}, 64)};
  auto &c = p.clusters[0].commands;
  c.push_back(dma2d(DmaDir::Load, 0, 0, 0, 2, 3, 3, 3));
  c.push_back(waitCmd(1));
  c.push_back(dma2d(DmaDir::Store, 0, 0, 64, 2, 3, 3, 3));
  c.push_back(waitCmd(1));
  return p;
}

std::string errOf(const Program &p, const HardwareDesc &hw,
                  std::map<std::string, Tensor> in) {
  std::map<std::string, Tensor> out;
  SimStats st;
  std::string e = run(p, hw, in, out, st);
  return e.empty() ? "<ok>" : e;
}

#define EXPECT_ERR(expr, needle)                                               \
  do {                                                                         \
    std::string e_ = (expr);                                                   \
    EXPECT_NE(e_.find(needle), std::string::npos)                              \
        << "error: " << e_ << "\nexpected to contain: " << (needle);           \
  } while (0)

} // namespace

TEST(SimulatorErrors, Inputs) {
  HardwareDesc hw = tinyHardware();
  Program p = copyProgram(hw);
  EXPECT_EQ(errOf(p, hw, {{"x", tensor({2, 3}, 1)}}), "<ok>");
  EXPECT_ERR(errOf(p, hw, {}), "missing input 'x' (shape [2, 3])");
  EXPECT_ERR(errOf(p, hw, {{"x", tensor({3, 2}, 1)}}),
             "input 'x' has shape [3, 2] but the program expects [2, 3]");
  EXPECT_ERR(errOf(p, hw, {{"x", tensor({6}, 1)}}),
             "input 'x' has shape [6] but the program expects [2, 3]");
  EXPECT_ERR(errOf(p, hw, {{"x", tensor({2, 3}, 1)}, {"z", tensor({1}, 1)}}),
             "unknown input 'z' (program inputs: x)");
  EXPECT_ERR(errOf(p, hw, {{"y", tensor({2, 3}, 1)}}), "unknown input 'y'");
  Tensor bad = tensor({2, 3}, 1);
  bad.data.pop_back();
  EXPECT_ERR(errOf(p, hw, {{"x", bad}}),
             "input 'x' holds 5 values but shape [2, 3] needs 6");
}

// An i32 / i64 input (run-time sequence lengths) wants integer data held
// exactly in f32; other inputs keep accepting any tensor.
TEST(SimulatorErrors, IntegerInputs) {
  HardwareDesc hw = tinyHardware();
  Program p = copyProgram(hw);
  p.symbols[0].dtype = DType::I32;
  Tensor ints = tensor({2, 3}, 1);
  ints.dtype = DType::I64;
  std::map<std::string, Tensor> out;
  SimStats st;
  EXPECT_EQ(run(p, hw, {{"x", ints}}, out, st), "");
  EXPECT_EQ(out["y"].data, ints.data); // converted to f32 words on load
  EXPECT_ERR(errOf(p, hw, {{"x", tensor({2, 3}, 1)}}),
             "input 'x' is an integer input (i32) but was given a f32 tensor");
  Tensor flags = ints;
  flags.dtype = DType::I1;
  EXPECT_ERR(errOf(p, hw, {{"x", flags}}), "was given a i1 tensor");
  Tensor big = ints;
  big.data[4] = -16777216.0f;
  EXPECT_ERR(errOf(p, hw, {{"x", big}}),
             "input 'x': value at index 4 is outside (-2^24, 2^24)");
  big.data[4] = 16777215.0f; // the largest exact magnitude
  EXPECT_EQ(errOf(p, hw, {{"x", big}}), "<ok>");
  ints.shape = {3, 2}; // the shape check still comes first
  EXPECT_ERR(errOf(p, hw, {{"x", ints}}),
             "input 'x' has shape [3, 2] but the program expects [2, 3]");
  p.symbols[0].dtype = DType::F32; // f32 inputs take integer files
  EXPECT_EQ(errOf(p, hw, {{"x", tensor({2, 3}, 1)}}), "<ok>");
  ints.shape = {2, 3};
  EXPECT_EQ(errOf(p, hw, {{"x", ints}}), "<ok>");
}

TEST(SimulatorErrors, ProgramShape) {
  HardwareDesc hw = tinyHardware();
  std::map<std::string, Tensor> in{{"x", tensor({2, 3}, 1)}};
  Program p = copyProgram(hw);
  p.gridCols = 2;
  EXPECT_ERR(errOf(p, hw, in),
             "program grid 1x2 does not match the hardware 1x1");
  p = copyProgram(hw);
  p.clusters.emplace_back();
  EXPECT_ERR(errOf(p, hw, in),
             "program has 2 cluster streams, the grid needs 1");
  p = copyProgram(hw);
  p.dramSize = hw.dramBytes + 1;
  EXPECT_ERR(errOf(p, hw, in), "bytes of DRAM, the hardware has");
  p = copyProgram(hw);
  p.symbols[1].dramAddr = 250;
  EXPECT_ERR(errOf(p, hw, in),
             "symbol 'y' [2, 3] at DRAM address 250 lies outside DRAM");
  p = copyProgram(hw);
  p.constants.push_back(ConstSegment{200, std::vector<uint8_t>(100, 1)});
  EXPECT_ERR(errOf(p, hw, in),
             "constant segment 0 at 200 (100 bytes) lies outside DRAM");
  p = copyProgram(hw);
  p.symbols[0].dtype = DType::F16;
  EXPECT_ERR(errOf(p, hw, in), "input 'x': dtype f16 is not supported");
  HardwareDesc h2 = hw;
  h2.computeType = DType::I8;
  h2.accumulateType = DType::I32;
  EXPECT_ERR(errOf(copyProgram(h2), h2, in),
             "the simulator supports f32, f16 and bf16 numerics "
             "(numerics.compute = i8, numerics.accumulate = i32)");
  h2 = hw;
  h2.macLanes = 0;
  EXPECT_ERR(errOf(copyProgram(h2), h2, in),
             "hardware: pe.mac_lanes: must be >= 1");
}

TEST(SimulatorErrors, OutOfRangeDma) {
  HardwareDesc hw = tinyHardware();
  std::map<std::string, Tensor> in{{"x", tensor({2, 3}, 1)}};
  Program p = copyProgram(hw);
  p.clusters[0].commands[0].dma.dst = hw.storageBytes - 8;
  EXPECT_ERR(errOf(p, hw, in),
             "cluster (0,0) command 0 (DMA): destination box [65528, 65552) "
             "outside the storage unit [0, 65536)");
  p = copyProgram(hw);
  p.clusters[0].commands[0].dma.src = 240;
  EXPECT_ERR(errOf(p, hw, in), "source box [240, 264) outside DRAM [0, 256)");
  p = copyProgram(hw);
  p.clusters[0].commands[2].dma.dstStride[2] = -30; // rows go below 0
  EXPECT_ERR(errOf(p, hw, in),
             "command 2 (DMA): destination box [-56, 76) outside DRAM");
  p = copyProgram(hw);
  p.clusters[0].commands[0].dma.tag = 8;
  EXPECT_ERR(errOf(p, hw, in), "tag 8 out of range [0, 8)");
  p = copyProgram(hw);
  p.clusters[0].commands[0].dma.elemBytes = 0;
  EXPECT_ERR(errOf(p, hw, in), "elemBytes 0 out of range");
  // A gigantic box with zero strides stays in range but would take forever.
  p = copyProgram(hw);
  DmaDesc &d = p.clusters[0].commands[0].dma;
  for (int i = 0; i < 4; ++i) {
    d.shape[i] = 0xffffffffu;
    d.srcStride[i] = d.dstStride[i] = 0;
  }
  EXPECT_ERR(errOf(p, hw, in), "exceeds the size of its destination memory");
  // A box with a zero extent moves nothing, whatever the other extents and
  // strides (no iteration over them, no address arithmetic).
  p = copyProgram(hw);
  DmaDesc &z = p.clusters[0].commands[0].dma;
  z.shape[0] = z.shape[1] = z.shape[2] = 0xffffffffu;
  z.shape[3] = 0;
  z.srcStride[0] = z.dstStride[1] = INT64_MAX / 2;
  EXPECT_EQ(errOf(p, hw, in), "<ok>");
}

TEST(SimulatorErrors, Instructions) {
  HardwareDesc hw = tinyHardware();
  std::map<std::string, Tensor> in{{"x", tensor({2, 3}, 1)}};
  auto withExec = [&](std::vector<Instruction> ins, bool last = true,
                      std::vector<RegPatch> patches = {}) {
    Program p = copyProgram(hw);
    auto &c = p.clusters[0].commands;
    c.insert(c.begin() + 2, config(0, std::move(ins)));
    c.insert(c.begin() + 3, execute(0, false, last, std::move(patches)));
    c.insert(c.begin() + 4, waitCmd(0, true));
    return p;
  };
  EXPECT_EQ(errOf(withExec({ldActs(0, rec(0, 2, 3, 3))}), hw, in), "<ok>");
  EXPECT_ERR(errOf(withExec({ldActs(0, rec(65530, 2, 3, 3))}), hw, in),
             "cluster (0,0) command 3 (EXECUTE ibuf 0): instruction 0 (LD): "
             "storage tile [65530, 65554) outside the storage unit [0, 65536)");
  EXPECT_ERR(errOf(withExec({ldActs(15, rec(0, 100, 3, 3))}), hw, in),
             "input-buffer tile of 300 floats at float offset 3840 does not "
             "fit the input buffer of 4096 floats");
  EXPECT_ERR(errOf(withExec({ldWeights(rec(0, 65, 64, 0, 0))}), hw, in),
             "weight tile of 4160 floats");
  EXPECT_ERR(errOf(withExec({mac(0, 0, rec(0, 2, 64, 0, 1, 0, 100))}), hw, in),
             "instruction 0 (MAC): weight tile (depth x cols) of 6400 floats");
  EXPECT_ERR(errOf(withExec({stAcc(0, rec(0, 40, 40, 40))}), hw, in),
             "accumulator tile of 1600 floats");
  // Not last: the store is skipped, so nothing is checked or written.
  EXPECT_EQ(errOf(withExec({stAcc(0, rec(0, 40, 40, 40))}, false), hw, in),
            "<ok>");
  Instruction rep = ldActs(0, rec(0, 2, 3, 3));
  rep.operands.repeat = 1u << 20;
  EXPECT_ERR(errOf(withExec({rep}), hw, in), "exceeds the simulator limit");
  rep.operands.repeat = 0;
  EXPECT_ERR(errOf(withExec({rep}), hw, in), "repeat must be >= 1");
  Instruction s = stAcc(0, rec(0, 2, 3, 3), SfuFunc::Add);
  EXPECT_ERR(errOf(withExec({s}), hw, in),
             "instruction 0 (ST): ST cannot apply the");
  EXPECT_ERR(errOf(withExec({s}), hw, in), "function add");
  Instruction u = spu(SpuType::Unary, 0, 1, rec(0, 2, 3, 3), SfuFunc::Mul);
  EXPECT_ERR(errOf(withExec({u}), hw, in),
             "instruction 0 (SPU): SPU unary cannot apply the");
  EXPECT_ERR(errOf(withExec({u}), hw, in), "function mul");
  Instruction b =
      spu(SpuType::Binary, 0, 1, rec(0, 2, 3, 3, 1, 0, 16), SfuFunc::Add);
  EXPECT_ERR(errOf(withExec({b}), hw, in),
             "second slot (depth) 16 out of range");
  Instruction bs = ldActs(16, rec(0, 2, 3, 3));
  EXPECT_ERR(errOf(withExec({bs}), hw, in), "slot out of range [0, 16)");
  EXPECT_ERR(errOf(withExec({ldActs(0, rec(0, 2, 3, 3))}, true,
                            {patch(1, PatchField::Rows, 5)}),
                   hw, in),
             "patch 0 names instruction 1 but the buffer holds 1");
  EXPECT_ERR(errOf(withExec({ldActs(0, rec(0, 2, 3, 3))}, true,
                            {patch(0, PatchField::Addr, 70000)}),
                   hw, in),
             "storage tile [70000, 70024) outside the storage unit");

  Program p = copyProgram(hw);
  p.clusters[0].commands.insert(p.clusters[0].commands.begin(),
                                execute(2, false, false));
  EXPECT_ERR(
      errOf(p, hw, in),
      "command 0 (EXECUTE ibuf 2): instruction buffer 2 was never configured");
  p = copyProgram(hw);
  p.clusters[0].commands.insert(p.clusters[0].commands.begin(),
                                config(4, {ldActs(0, rec(0, 1, 1, 1))}));
  EXPECT_ERR(errOf(p, hw, in),
             "instruction buffer 4 does not exist (the hardware has 4)");
  p = copyProgram(hw);
  p.clusters[0].commands.insert(
      p.clusters[0].commands.begin(),
      config(0, std::vector<Instruction>(65, ldActs(0, rec(0, 1, 1, 1)))));
  EXPECT_ERR(errOf(p, hw, in),
             "65 instructions exceed the instruction-buffer depth 64");
}

TEST(SimulatorErrors, BarrierDeadlocks) {
  HardwareDesc hw = tinyHardware(1, 2);
  Program p = makeProgram(hw, 64);
  p.clusters[0].commands = {barrier(1), barrier(2)};
  p.clusters[1].commands = {barrier(1), barrier(3)};
  EXPECT_ERR(errOf(p, hw, {}),
             "deadlock: cluster (0,0) waits at barrier 2 but cluster (0,1) "
             "waits at barrier 3");
  p.clusters[1].commands = {barrier(1)};
  EXPECT_ERR(errOf(p, hw, {}),
             "deadlock: cluster (0,0) waits at barrier 2 but cluster (0,1) "
             "has finished its command stream");
  p.clusters[1].commands = {barrier(1), barrier(2)};
  EXPECT_EQ(errOf(p, hw, {}), "<ok>");
}

//===----------------------------------------------------------------------===//
// Hazards (programs that would race on real hardware)
//===----------------------------------------------------------------------===//

TEST(SimulatorHazards, MissingWaitIsReported) {
  HardwareDesc hw = tinyHardware();
  std::map<std::string, Tensor> in{{"x", tensor({2, 3}, 1)}}, out;
  Program p = copyProgram(hw);
  auto &c = p.clusters[0].commands;
  // EXECUTE reads the tile the DMA is still writing (no WAIT between).
  c.erase(c.begin() + 1);
  c.insert(c.begin() + 1, config(0, {ldActs(0, rec(0, 2, 3, 3))}));
  c.insert(c.begin() + 2, execute(0, false, false));
  c.insert(c.begin() + 3, waitCmd(1, true));
  SimStats st;
  ASSERT_EQ(run(p, hw, in, out, st), "");
  EXPECT_EQ(st.hazardCount, 1u);
  ASSERT_EQ(st.hazards.size(), 1u);
  EXPECT_NE(
      st.hazards[0].find("hazard: cluster (0,0) command 2 (EXECUTE ibuf 0 "
                         "instruction 0) reads the storage unit"),
      std::string::npos)
      << st.hazards[0];
  EXPECT_NE(st.hazards[0].find("while cluster (0,0) command 0 (DMA load tag 0) "
                               "writes bytes [0, 24) until cycle 13"),
            std::string::npos)
      << st.hazards[0];
  // Results are still produced (functional order), unless hazards are errors.
  EXPECT_EQ(out["y"].data, in["x"].data);
  SimOptions strict;
  strict.hazardsAreErrors = true;
  EXPECT_ERR(run(p, hw, in, out, st, strict), "hazard:");
}

TEST(SimulatorHazards, StoreBeforeComputeAndCrossClusterDram) {
  HardwareDesc hw = tinyHardware(1, 2);
  hw.channels = {MemoryChannel{16, 10, 1}, MemoryChannel{16, 10, 1}};
  std::map<std::string, Tensor> in{{"x", tensor({2, 3}, 1)}}, out;
  // Cluster 0: EXECUTE writes storage, DMA store issued without WAIT pe.
  // Cluster 1: loads the DRAM output of cluster 0 without a barrier.
  Program p = makeProgram(hw, 256);
  p.symbols = {sym("x", true, {2, 3}, 0), sym("y", false, {2, 3}, 64)};
  auto &c0 = p.clusters[0].commands;
  c0.push_back(dma2d(DmaDir::Load, 0, 0, 0, 2, 3, 3, 3));
  c0.push_back(waitCmd(1));
  c0.push_back(
      config(0, {ldActs(0, rec(0, 2, 3, 3)), stInbuf(0, rec(128, 2, 3, 3))}));
  c0.push_back(execute(0, false, true));
  c0.push_back(dma2d(DmaDir::Store, 1, 128, 64, 2, 3, 3, 3));
  c0.push_back(waitCmd(2, true));
  auto &c1 = p.clusters[1].commands;
  for (int i = 0; i < 20; ++i) // issue the load at cycle 20
    c1.push_back(waitCmd(0));
  c1.push_back(dma2d(DmaDir::Load, 0, 64, 0, 2, 3, 3, 3));
  c1.push_back(waitCmd(1));
  SimStats st;
  ASSERT_EQ(run(p, hw, in, out, st), "");
  EXPECT_EQ(st.hazardCount, 2u);
  std::string all;
  for (auto &h : st.hazards)
    all += h + "\n";
  EXPECT_NE(
      all.find("(DMA store tag 1) reads the storage unit of cluster (0,0)"),
      std::string::npos)
      << all;
  EXPECT_NE(all.find("cluster (0,1) command 20 (DMA load tag 0) reads DRAM "
                     "bytes [64, 88) at cycle 21 while cluster (0,0) command 4 "
                     "(DMA store tag 1) writes bytes [64, 88) until cycle 28"),
            std::string::npos)
      << all;

  // With WAIT pe and a barrier the same program is race free.
  c0[5] = waitCmd(0, true);
  std::swap(c0[4], c0[5]);
  c0.push_back(waitCmd(2));
  c0.push_back(barrier(0));
  c1 = {barrier(0), dma2d(DmaDir::Load, 0, 64, 0, 2, 3, 3, 3), waitCmd(1)};
  ASSERT_EQ(run(p, hw, in, out, st), "");
  EXPECT_EQ(st.hazardCount, 0u) << st.hazards[0];
}

TEST(SimulatorHazards, InFlightDmasOfOneClusterKeepChannelOrder) {
  // Channel of 16 B/cycle, latency 10, 4 DMAs in flight: a DMA holds it for
  // its beats + 3 cycles. Cluster 0 loads DRAM [0, 96) into storage 0 and
  // then stores storage 256 over DRAM [0, 96) while the load is still in
  // its latency: the channel starts them in issue order, so in DRAM this is
  // no race. The same store by cluster 1 is (nothing orders it).
  HardwareDesc hw = tinyHardware(1, 2);
  hw.channels = {MemoryChannel{16, 10, 4}};
  Program p = makeProgram(hw, 1024);
  auto &c0 = p.clusters[0].commands;
  c0 = {dma2d(DmaDir::Load, 0, 0, 0, 4, 6, 6, 6),
        dma2d(DmaDir::Store, 1, 256, 0, 4, 6, 6, 6), waitCmd(3)};
  SimStats st;
  std::map<std::string, Tensor> out;
  SimOptions strict;
  strict.hazardsAreErrors = true;
  // Load: start 1, held 6 + 3, done 1 + 10 + 6 = 17; store: start 10.
  ASSERT_EQ(run(p, hw, {}, out, st, strict), "");
  EXPECT_EQ(st.cycles, 26u); // store done 10 + 10 + 6
  EXPECT_EQ(st.channels[0].busyCycles, 18u);
  // Its storage side still meets the data when it arrives: a store of the
  // loaded storage bytes before the load is done is a hazard.
  c0[1] = dma2d(DmaDir::Store, 1, 0, 512, 4, 6, 6, 6);
  EXPECT_ERR(run(p, hw, {}, out, st, strict), "reads the storage unit");
  // Another cluster's store over the loaded DRAM bytes is a race.
  c0 = {dma2d(DmaDir::Load, 0, 0, 0, 4, 6, 6, 6), waitCmd(1)};
  p.clusters[1].commands = {dma2d(DmaDir::Store, 1, 256, 0, 4, 6, 6, 6),
                            waitCmd(2)};
  EXPECT_ERR(run(p, hw, {}, out, st, strict), "writes DRAM bytes [0, 96)");
}

TEST(SimulatorHazards, ConfigOverRunningBuffer) {
  HardwareDesc hw = tinyHardware();
  Program p = makeProgram(hw, 64);
  auto &c = p.clusters[0].commands;
  c.push_back(config(0, {ldActs(0, rec(0, 64, 64, 64))}));
  c.push_back(execute(0, false, false));
  c.push_back(config(0, {ldActs(0, rec(0, 1, 1, 1))}));
  std::map<std::string, Tensor> out;
  SimStats st;
  ASSERT_EQ(run(p, hw, {}, out, st), "");
  ASSERT_EQ(st.hazardCount, 1u);
  EXPECT_NE(st.hazards[0].find("overwrites instruction buffer 0 at cycle 2 "
                               "while the PE array runs it until cycle 1026"),
            std::string::npos)
      << st.hazards[0];
}

// DRAM is allocated on first touch: a binary may claim far more DRAM than
// the host has (a corrupt header once made the simulator allocate it all).
TEST(PagedMemory, PagesFollowTheBytesTouched) {
  sim::PagedMemory m;
  m.reset(uint64_t(1) << 40); // 1 TiB claimed
  EXPECT_EQ(m.pagesTouched(), 0u);
  float probe[4] = {1, 2, 3, 4};
  m.read(uint64_t(1) << 39, probe, sizeof probe); // untouched: zeros
  EXPECT_EQ(probe[0], 0.0f);
  EXPECT_EQ(probe[3], 0.0f);
  EXPECT_EQ(m.pagesTouched(), 0u); // reading allocates nothing
  // A write straddling a page boundary touches exactly two pages.
  const uint64_t edge = 5 * sim::PagedMemory::kPageBytes - 8;
  const float vals[4] = {1.5f, -2.0f, 3.25f, 4.0f};
  m.write(edge, vals, sizeof vals);
  EXPECT_EQ(m.pagesTouched(), 2u);
  float back[6] = {};
  m.read(edge - 4, back, sizeof back);
  EXPECT_EQ(back[0], 0.0f);
  for (int i = 0; i < 4; ++i)
    EXPECT_EQ(back[i + 1], vals[i]);
  EXPECT_EQ(back[5], 0.0f);
  m.reset(64);
  EXPECT_EQ(m.pagesTouched(), 0u);
}

TEST(Simulator, HugeClaimedDramRunsInSmallMemory) {
  HardwareDesc hw = tinyHardware();
  hw.dramBytes = uint64_t(1) << 44; // 16 TiB
  Program p = makeProgram(hw, hw.dramBytes);
  const uint64_t xA = hw.dramBytes - 64, yA = 0; // at both ends of DRAM
  p.symbols = {sym("x", true, {16}, xA), sym("y", false, {16}, yA)};
  auto &c = p.clusters[0].commands;
  c.push_back(dma(DmaDir::DramCopy, 0, xA, yA, {1, 1, 1, 16}, {0, 0, 0, 1},
                  {0, 0, 0, 1}));
  c.push_back(waitCmd(1));
  std::map<std::string, Tensor> in{{"x", tensor({16}, 3)}}, out;
  SimStats stats;
  ASSERT_EQ(run(p, hw, in, out, stats), "");
  EXPECT_EQ(out["y"].data, in["x"].data);
}
