//===- MappedGemmTest.cpp - emitMappedGemmLayer / partial-sum combine -----===//
//
// The mapped kernel's programs validate for every stationary operand (with
// several K chunks, bias, a fused function), each cluster runs only its own
// work, the loop nests differ, a per-row bias (GemmTiles::initRows) loads
// one value per row and computes what the broadcast box does, an A tile
// stays in the PE input buffers over its N tiles, a filter strip larger
// than the storage keeps the chunks that fit, a fused residual goes through
// the free half in parts when its region does not fit, the fused epilogue
// runs in row parts that fit the input buffer, and unrealisable inputs are
// clear errors.
//
//===----------------------------------------------------------------------===//
#include "accel/Codegen/Kernels.h"
#include "accel/Codegen/Residency.h"
#include "accel/Hardware/HardwareDesc.h"
#include "accel/Sim/Simulator.h"
#include "accel/Target/Validate.h"

#include "../Sim/SimTestUtil.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <map>

using namespace accel;
using namespace accel::codegen;
using accel::test::simulateStrict;
using accel::test::sym;

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

/// One m x k x n problem (chunks of 64, N tiles of nc) on 16-row tiles.
ClusterGemmWork singleProblem(int64_t m, int64_t k, int64_t n, int64_t nc) {
  ClusterGemmWork w;
  w.problems.push_back(problem(m, k, n, 64, nc, false));
  w.tiling.peRows = 4;
  w.tiling.kc = 64;
  w.tiling.nc = nc;
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

TEST(MappedGemm, StorageIsTakenFromTheBottomAndOnlyWhatIsUsed) {
  // docs/passes.md, "Compact kernel storage": the two halves (A 16 x 64, B
  // 64 x 32, C 16 x 32 floats each: 14 KiB), then the resident strip of
  // stationary A (4 K chunks of 16 x 64 in two slots: 32 KiB). The
  // high-water mark the residency planner sees is their end, far below
  // the 512 KiB storage unit, so the rest stays free for resident pieces.
  HardwareDesc hw = defaultHardware();
  Program prog;
  prog.dramSize = 8u << 20;
  StreamBuilder sb(prog, hw);
  std::vector<ClusterGemmWork> w(hw.numClusters());
  w[0] = work(false);
  std::string err;
  ASSERT_TRUE(emitMappedGemmLayer(sb, w, StationaryOperand::C, {}, err)) << err;
  std::vector<std::vector<uint64_t>> hwm =
      storageHighWater(prog, sb.commandLayers(), 1);
  const uint64_t half = (16 * 64 + 64 * 32 + 16 * 32) * 4;
  EXPECT_GE(hwm[0][0], 2 * half);
  EXPECT_LE(hwm[0][0], 2 * half + 2 * 4 * 16 * 64 * 4);
  EXPECT_LT(hwm[0][0], hw.storageBytes / 8);
  EXPECT_EQ(hwm[1][0], 0u); // cluster 1 has no work
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

/// The A (m x k) and B (k x n) inputs of the simulated tests: small
/// integers, exact in f32.
std::map<std::string, Tensor> abInputs(int64_t m, int64_t k, int64_t n) {
  std::map<std::string, Tensor> in;
  in["a"].shape = {m, k};
  in["b"].shape = {k, n};
  for (int64_t i = 0; i < m * k; ++i)
    in["a"].data.push_back(float((i * 5) % 11) - 5.0f);
  for (int64_t i = 0; i < k * n; ++i)
    in["b"].data.push_back(float((i * 3) % 7) - 3.0f);
  return in;
}

/// Row i of A times column j of B (abInputs, k deep, n wide), in double.
double dotAB(const std::map<std::string, Tensor> &in, int64_t i, int64_t j,
             int64_t k, int64_t n) {
  double ref = 0;
  for (int64_t q = 0; q < k; ++q)
    ref += double(in.at("a").data[size_t(i * k + q)]) *
           in.at("b").data[size_t(q * n + j)];
  return ref;
}

/// C = A B + bias[row] (a convolution's bias: one value per output row),
/// 40 x 200 x 100 on cluster 0, stationary C, simulated under strict
/// hazards. `rows`: the bias as GemmTiles::initRows in a GemmTiling::rowInit
/// region, else the mc x n broadcast box. Returns C; `biasLoads` counts the
/// DMAs from the bias and `biasBytes` the bytes they move.
std::vector<float> runRowBias(bool rows, size_t &biasLoads, uint64_t &biasBytes,
                              bool biasMac = false,
                              Program *emitted = nullptr) {
  const int64_t m = 40, k = 200, n = 100, nc = 32;
  const uint64_t biasAt = 3u << 20, oneAt = 5u << 20;
  HardwareDesc hw = defaultHardware();
  // Channels fast enough for the MACs to outlast the loads (the kernel
  // takes the bias MAC only then).
  for (MemoryChannel &ch : hw.channels)
    ch.bytesPerCycle = 4096, ch.latencyCycles = 1;
  Program prog;
  prog.dramSize = 8u << 20;
  StreamBuilder sb(prog, hw);
  std::vector<ClusterGemmWork> w(hw.numClusters());
  w[0] = work(false);
  if (biasMac) {
    ConstSegment one;
    one.dramAddr = oneAt;
    one.bytes.resize(4);
    const float v = 1.0f;
    std::memcpy(one.bytes.data(), &v, 4);
    prog.constants.push_back(one);
    w[0].ones = oneAt;
  }
  GemmTiles &p = w[0].problems[0];
  p.initBox = [=](int64_t m0, int64_t mc, size_t ni) {
    DramBox b;
    b.base = biasAt + uint64_t(m0 * 4);
    b.dim(mc, 1).dim(std::min(nc, n - int64_t(ni) * nc), 0);
    return b;
  };
  if (rows) {
    p.initRows = [=](int64_t m0, int64_t mc) {
      DramBox b;
      b.base = biasAt + uint64_t(m0 * 4);
      b.dim(mc, 1);
      return b;
    };
    w[0].tiling.rowInit = true;
  }
  std::string err;
  EXPECT_TRUE(emitMappedGemmLayer(sb, w, StationaryOperand::C, {}, err)) << err;
  prog.symbols = {sym("a", true, {m, k}, 0), sym("b", true, {k, n}, 1u << 20),
                  sym("bias", true, {m}, biasAt),
                  sym("c", false, {m, n}, 2u << 20)};
  EXPECT_TRUE(validateProgram(prog, hw, err)) << err;
  biasLoads = 0;
  biasBytes = 0;
  for (const Command &c : prog.clusters[0].commands)
    if (c.kind == CommandKind::Dma && c.dma.src >= biasAt &&
        c.dma.src < biasAt + (1u << 20)) {
      ++biasLoads;
      uint64_t e = 1;
      for (uint32_t d : c.dma.shape)
        e *= d;
      biasBytes += e * 4;
    }
  std::map<std::string, Tensor> in = abInputs(m, k, n), out;
  in["bias"].shape = {m};
  for (int64_t i = 0; i < m; ++i)
    in["bias"].data.push_back(float(i) - 17.5f);
  EXPECT_TRUE(simulateStrict(prog, hw, in, out, err)) << err;
  const std::vector<float> &c = out["c"].data;
  EXPECT_EQ(int64_t(c.size()), m * n);
  if (emitted)
    *emitted = prog;
  for (int64_t i = 0; i < m && int64_t(c.size()) == m * n; ++i)
    for (int64_t j = 0; j < n; ++j) {
      double ref = in["bias"].data[size_t(i)] + dotAB(in, i, j, k, n);
      EXPECT_FLOAT_EQ(c[size_t(i * n + j)], float(ref)) << i << ", " << j;
    }
  return c;
}

TEST(MappedGemm, PerRowBiasLoadsOneValuePerRow) {
  size_t rowLoads = 0, boxLoads = 0;
  uint64_t rowBytes = 0, boxBytes = 0;
  std::vector<float> rows = runRowBias(true, rowLoads, rowBytes);
  std::vector<float> box = runRowBias(false, boxLoads, boxBytes);
  EXPECT_EQ(rows, box);
  // Outer M, then N (32, 32, 32, 4 columns), then 4 K chunks: every tile's
  // first chunk is an even step, so the init always goes to half 0. The
  // rows form loads each M tile's values once (16 + 16 + 8 floats); the
  // box form once per M tile for the 32-column tiles (the half still holds
  // the same broadcast) and again for the 4-column tile.
  EXPECT_EQ(rowLoads, 3u);
  EXPECT_EQ(rowBytes, uint64_t(40 * 4));
  EXPECT_EQ(boxLoads, 6u);
  EXPECT_EQ(boxBytes, uint64_t((16 + 16 + 8) * (32 + 4) * 4));
}

TEST(MappedGemm, PerRowBiasAsADepthOneMac) {
  // With a DRAM 1.0 the bias is added by MAC depth 1 of the values (LD acts
  // into a slot past the A tile) by a row of ones (LD weights of the 1.0,
  // column stride 0): bit-identical to LD psums broadcasting the values,
  // one more 4-byte DMA per init region.
  size_t macLoads = 0, rowLoads = 0;
  uint64_t macBytes = 0, rowBytes = 0;
  Program prog;
  std::vector<float> viaMac = runRowBias(true, macLoads, macBytes, true, &prog);
  std::vector<float> viaPsums = runRowBias(true, rowLoads, rowBytes);
  EXPECT_EQ(viaMac, viaPsums);
  EXPECT_EQ(macLoads, rowLoads);
  size_t depthOne = 0, psums = 0, oneLoads = 0;
  for (const Command &c : prog.clusters[0].commands) {
    if (c.kind == CommandKind::Dma && c.dma.src == (5u << 20))
      ++oneLoads;
    if (c.kind != CommandKind::Config)
      continue;
    for (const Instruction &i : c.instrs) {
      psums += i.fields.op == Opcode::LD &&
               i.fields.sub == uint8_t(LoadStream::PartialSums);
      if (i.fields.op == Opcode::MAC && i.operands.depth == 1) {
        ++depthOne;
        EXPECT_GT(i.fields.slot, 0);
      }
      if (i.fields.op == Opcode::LD &&
          i.fields.sub == uint8_t(LoadStream::Weights) &&
          i.operands.rows == 1) {
        EXPECT_EQ(i.operands.colStride, 0);
      }
    }
  }
  EXPECT_EQ(psums, 0u);
  EXPECT_EQ(depthOne, 1u); // one accumulation group, one init variant
  EXPECT_EQ(oneLoads, 1u); // every tile's init is in half 0
}

TEST(MappedGemm, PerRowInitRegionOnlyForAPerRowBias) {
  HardwareDesc hw = defaultHardware();
  Program prog;
  prog.dramSize = 8u << 20;
  StreamBuilder sb(prog, hw);
  std::vector<ClusterGemmWork> w(hw.numClusters());
  w[0] = work(true); // a bias box without initRows
  w[0].tiling.rowInit = true;
  std::string err;
  EXPECT_FALSE(emitMappedGemmLayer(sb, w, StationaryOperand::C, {}, err));
  EXPECT_NE(err.find("one-value-per-row init region"), std::string::npos)
      << err;
}

/// C = f(A B) for 40 x 64 x 100 on cluster 0 under stationary C with one K
/// chunk (kc = 64) and four N tiles of 32: the three M tiles each stay in
/// the PE input buffers over their N tiles (heldActs), simulated under
/// strict hazards against the reference. `epi` adds a fused epilogue;
/// returns the LD acts that the GEMM steps' EXECUTEs run and the slot they
/// load.
void runHeldActs(const GemmEpilogue &epi, size_t &ldActs, int &slot) {
  const int64_t m = 40, k = 64, n = 100;
  HardwareDesc hw = defaultHardware();
  Program prog;
  prog.dramSize = 8u << 20;
  StreamBuilder sb(prog, hw);
  std::vector<ClusterGemmWork> w(hw.numClusters());
  w[0] = singleProblem(m, k, n, 32);
  std::string err;
  ASSERT_TRUE(emitMappedGemmLayer(sb, w, StationaryOperand::C, epi, err))
      << err;
  prog.symbols = {sym("a", true, {m, k}, 0), sym("b", true, {k, n}, 1u << 20),
                  sym("c", false, {m, n}, 2u << 20)};
  ASSERT_TRUE(validateProgram(prog, hw, err)) << err;
  // LD acts per EXECUTE, from the sequence its buffer was configured with.
  std::map<uint8_t, std::vector<Instruction>> ibufs;
  ldActs = 0;
  slot = -1;
  for (const Command &c : prog.clusters[0].commands) {
    if (c.kind == CommandKind::Config)
      ibufs[c.ibuf] = c.instrs;
    if (c.kind != CommandKind::Execute)
      continue;
    const std::vector<Instruction> &seq = ibufs[c.ibuf];
    if (std::none_of(seq.begin(), seq.end(), [](const Instruction &i) {
          return i.fields.op == Opcode::MAC;
        }))
      continue; // the fused epilogue's sequence
    for (const Instruction &i : seq)
      if (i.fields.op == Opcode::LD &&
          i.fields.sub == uint8_t(LoadStream::Activations)) {
        ++ldActs;
        slot = i.fields.slot;
      }
  }
  std::map<std::string, Tensor> in = abInputs(m, k, n), out;
  ASSERT_TRUE(simulateStrict(prog, hw, in, out, err)) << err;
  const std::vector<float> &c = out["c"].data;
  ASSERT_EQ(int64_t(c.size()), m * n);
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j) {
      double ref = dotAB(in, i, j, k, n);
      if (epi.func == SfuFunc::Relu)
        ref = std::max(ref, 0.0);
      for (const EpilogueStep &s : epi.post)
        if (s.func == SfuFunc::Scale)
          ref *= s.imm;
      EXPECT_FLOAT_EQ(c[size_t(i * n + j)], float(ref)) << i << ", " << j;
    }
}

TEST(MappedGemm, InputBuffersKeepTheATileOverItsNTiles) {
  // The A tile of each M tile (16, 16 and 8 rows) is loaded by the first
  // of its four N tiles only: 3 loads instead of 12.
  size_t loads = 0;
  int slot = -1;
  runHeldActs({}, loads, slot);
  EXPECT_EQ(loads, 3u);
  EXPECT_EQ(slot, 0);
}

TEST(MappedGemm, HeldATilesSitPastTheFusedEpilogue) {
  // The fused epilogue loads each C tile into input-buffer slot 0: the A
  // tiles go to the first slot past it (4 rows x 32 columns = 512 bytes,
  // slot 1 of 4 KiB slots) and still serve all four N tiles.
  GemmEpilogue epi;
  epi.func = SfuFunc::Relu;
  epi.post.push_back(EpilogueStep{SfuFunc::Scale, 0.5f, false});
  size_t loads = 0;
  int slot = -1;
  runHeldActs(epi, loads, slot);
  EXPECT_EQ(loads, 3u);
  EXPECT_EQ(slot, 1);
}

/// Names A, B and C (problem(): DRAM 0, 1 MiB, 2 MiB), validates `prog`,
/// simulates it under strict hazards and checks C = A B (abInputs), or
/// C = A B + R with `residual` (R m x n at DRAM 4 MiB, a fused residual add).
void expectProductAB(Program &prog, const HardwareDesc &hw, int64_t m,
                     int64_t k, int64_t n, bool residual = false) {
  std::string err;
  prog.symbols = {sym("a", true, {m, k}, 0), sym("b", true, {k, n}, 1u << 20),
                  sym("c", false, {m, n}, 2u << 20)};
  std::map<std::string, Tensor> in = abInputs(m, k, n), out;
  std::vector<float> r(size_t(m * n), 0.0f);
  if (residual) {
    prog.symbols.push_back(sym("r", true, {m, n}, 4u << 20));
    for (int64_t i = 0; i < m * n; ++i)
      r[size_t(i)] = float(i % 9) - 4.0f;
    in["r"].shape = {m, n};
    in["r"].data = r;
  }
  EXPECT_TRUE(validateProgram(prog, hw, err)) << err;
  EXPECT_TRUE(simulateStrict(prog, hw, in, out, err)) << err;
  const std::vector<float> &c = out["c"].data;
  EXPECT_EQ(int64_t(c.size()), m * n);
  for (int64_t i = 0; i < m && int64_t(c.size()) == m * n; ++i)
    for (int64_t j = 0; j < n; ++j)
      EXPECT_FLOAT_EQ(c[size_t(i * n + j)],
                      float(dotAB(in, i, j, k, n) + r[size_t(i * n + j)]))
          << i << ", " << j;
}

/// Whether `cmd` loads from A (problem(): DRAM below 1 MiB).
bool loadsA(const Command &cmd) {
  return cmd.kind == CommandKind::Dma && cmd.dma.dir == DmaDir::Load &&
         cmd.dma.src < (1u << 20);
}

/// C = A B, 16 x 200 x 100 on cluster 0 (one M tile, four K chunks of at
/// most 64, seven N tiles of 16), stationary C with the outer M loop, on a
/// storage unit of `storage` bytes, simulated under strict hazards against
/// the reference. Returns the DMAs that read A.
size_t runFilterStrip(uint32_t storage, bool partial) {
  const int64_t m = 16, k = 200, n = 100;
  HardwareDesc hw = defaultHardware();
  hw.storageBytes = storage;
  Program prog;
  prog.dramSize = 8u << 20;
  StreamBuilder sb(prog, hw);
  std::vector<ClusterGemmWork> w(hw.numClusters());
  w[0] = singleProblem(m, k, n, 16);
  w[0].partialFilterStrip = partial;
  std::string err;
  EXPECT_TRUE(emitMappedGemmLayer(sb, w, StationaryOperand::C, {}, err)) << err;
  expectProductAB(prog, hw, m, k, n);
  const CommandList &cmds = prog.clusters[0].commands;
  return size_t(std::count_if(cmds.begin(), cmds.end(), loadsA));
}

TEST(MappedGemm, PartialFilterStripKeepsTheChunksThatFit) {
  // docs/mapping.md, "Partial filter strips". The halves take 2 x (A 16 x
  // 64 + B 64 x 16 + C 16 x 16 floats) = 18 KiB; the whole strip (four A
  // chunks of 4 KiB) fits 512 KiB: each chunk is loaded once.
  EXPECT_EQ(runFilterStrip(512u << 10, true), 4u);
  // A 32 KiB storage unit leaves 14 KiB, room for three chunks: they are
  // loaded once, the fourth for each of the seven N tiles (3 + 7).
  EXPECT_EQ(runFilterStrip(32u << 10, true), 10u);
  // Without partial strips (an activation's, which residency may hold) the
  // strip that does not fit streams every chunk for every N tile (4 x 7).
  EXPECT_EQ(runFilterStrip(32u << 10, false), 28u);
}

/// C_i = A B_i for three instances of a batched matmul whose A (16 x 200)
/// is broadcast (`sharedA`: every instance reads A at DRAM 0, as a bilinear
/// Resize's interpolation matrix; else instance i reads its own A, 16 rows
/// further on each time), B_i (200 x 24) and C_i (16 x 24) one after the
/// other, on cluster 0: three problems, four K chunks of at most 64, one N
/// tile. Simulated under strict hazards against the reference. Returns the
/// DMAs that read A.
size_t runBatchedA(bool sharedA) {
  const int64_t m = 16, k = 200, n = 24, count = 3;
  HardwareDesc hw = defaultHardware();
  Program prog;
  prog.dramSize = 8u << 20;
  StreamBuilder sb(prog, hw);
  std::vector<ClusterGemmWork> w(hw.numClusters());
  w[0] = singleProblem(m, k, n, n);
  const GemmTiles one = w[0].problems[0];
  w[0].problems.clear();
  for (int64_t i = 0; i < count; ++i) {
    GemmTiles p = one;
    const uint64_t a = sharedA ? 0 : uint64_t(i * m * k * 4);
    p.aBox = [=](int64_t m0, int64_t mc, size_t ki) {
      DramBox b = one.aBox(m0, mc, ki);
      b.base += a;
      return b;
    };
    p.bBox = [=](size_t ki, size_t ni) {
      DramBox b = one.bBox(ki, ni);
      b.base += uint64_t(i * k * n * 4);
      return b;
    };
    p.cBox = [=](int64_t m0, int64_t mc, size_t ni) {
      DramBox b = one.cBox(m0, mc, ni);
      b.base += uint64_t(i * m * n * 4);
      return b;
    };
    w[0].problems.push_back(p);
  }
  std::string err;
  EXPECT_TRUE(emitMappedGemmLayer(sb, w, StationaryOperand::C, {}, err)) << err;
  const int64_t as = sharedA ? 1 : count;
  prog.symbols = {sym("a", true, {as, m, k}, 0),
                  sym("b", true, {count, k, n}, 1u << 20),
                  sym("c", false, {count, m, n}, 2u << 20)};
  EXPECT_TRUE(validateProgram(prog, hw, err)) << err;
  std::map<std::string, Tensor> in, out;
  in["a"].shape = {as, m, k};
  in["b"].shape = {count, k, n};
  for (int64_t e = 0; e < as * m * k; ++e)
    in["a"].data.push_back(float((e * 5) % 11) - 5.0f);
  for (int64_t e = 0; e < count * k * n; ++e)
    in["b"].data.push_back(float((e * 3) % 13) - 6.0f);
  EXPECT_TRUE(simulateStrict(prog, hw, in, out, err)) << err;
  const std::vector<float> &c = out["c"].data;
  EXPECT_EQ(int64_t(c.size()), count * m * n);
  for (int64_t i = 0; i < count && int64_t(c.size()) == count * m * n; ++i)
    for (int64_t r = 0; r < m; ++r)
      for (int64_t j = 0; j < n; ++j) {
        const int64_t ai = sharedA ? 0 : i;
        double ref = 0;
        for (int64_t q = 0; q < k; ++q)
          ref += double(in["a"].data[size_t((ai * m + r) * k + q)]) *
                 in["b"].data[size_t((i * k + q) * n + j)];
        EXPECT_FLOAT_EQ(c[size_t((i * m + r) * n + j)], float(ref))
            << i << ", " << r << ", " << j;
      }
  const CommandList &cmds = prog.clusters[0].commands;
  return size_t(std::count_if(cmds.begin(), cmds.end(), loadsA));
}

TEST(MappedGemm, BroadcastATilesAreLoadedOnceForEveryInstance) {
  // A broadcast A: one resident strip of its four K chunks serves the
  // three instances (4 loads instead of 3 x 4).
  EXPECT_EQ(runBatchedA(true), 4u);
  // Each instance its own A: every instance loads its four chunks.
  EXPECT_EQ(runBatchedA(false), 12u);
}

/// DMAs of a shared-strip run (runSharedStrip), over every cluster.
struct SharedStripDmas {
  size_t dramA = 0;  ///< loads of A from DRAM
  size_t remote = 0; ///< remote_loads (A tiles of another cluster's home)
};

/// C = A B, m x 200 x 100, split by columns over the four clusters (25
/// each: a data split, every cluster needs all of A), four K chunks of at
/// most 64, 16-row M partitions, N tiles of nc; stationary C on 32 KiB
/// storage units; simulated under strict hazards against the reference.
/// m = 16, nc = 16 (runSharedStrip): N tiles of 16 and 9, where the halves
/// (2 x 9 KiB) leave each cluster's strip room for three of the four 4 KiB
/// A tiles. m = 72, nc = 32 on 64 KiB: five M partitions and one N tile,
/// A (20 tiles, 80 KiB) streamed once per cluster, 36 KiB above the
/// halves.
SharedStripDmas runSharedStrip(bool share, int64_t m = 16, int64_t nc = 16,
                               bool outerM = false,
                               uint32_t storage = 32u << 10, int64_t k = 200) {
  const int64_t n = 100, slice = 25;
  HardwareDesc hw = defaultHardware();
  hw.storageBytes = storage;
  Program prog;
  prog.dramSize = 8u << 20;
  StreamBuilder sb(prog, hw);
  std::vector<ClusterGemmWork> w(hw.numClusters());
  for (uint32_t cl = 0; cl < w.size(); ++cl) {
    const int64_t n0 = int64_t(cl) * slice;
    GemmTiles p = problem(m, k, n, 64, nc, false);
    p.nTiles.clear();
    for (int64_t o = 0; o < slice; o += nc)
      p.nTiles.push_back(std::min(nc, slice - o));
    const GemmTiles whole = p;
    p.bBox = [=](size_t ki, size_t ni) {
      DramBox b = whole.bBox(ki, 0);
      b.base += uint64_t((n0 + int64_t(ni) * nc) * 4);
      b.shape[1] = std::min(nc, slice - int64_t(ni) * nc);
      return b;
    };
    p.cBox = [=](int64_t m0, int64_t mc, size_t ni) {
      DramBox b = whole.cBox(m0, mc, 0);
      b.base += uint64_t((n0 + int64_t(ni) * nc) * 4);
      b.shape[1] = std::min(nc, slice - int64_t(ni) * nc);
      return b;
    };
    w[cl].problems.push_back(p);
    w[cl].tiling.peRows = 4;
    w[cl].tiling.kc = 64;
    w[cl].tiling.nc = nc;
    w[cl].tiling.outerM = outerM;
    w[cl].partialFilterStrip = true;
    w[cl].shareFilterStrip = share;
    w[cl].channel = cl / 2;
  }
  std::string err;
  EXPECT_TRUE(emitMappedGemmLayer(sb, w, StationaryOperand::C, {}, err)) << err;
  expectProductAB(prog, hw, m, k, n);
  SharedStripDmas d;
  for (const ClusterStream &cs : prog.clusters)
    for (const Command &cmd : cs.commands) {
      d.dramA += loadsA(cmd);
      d.remote +=
          cmd.kind == CommandKind::Dma && cmd.dma.dir == DmaDir::RemoteLoad;
    }
  return d;
}

/// C = A B + R (a fused residual add, R at DRAM 4 MiB), m x k x n on
/// cluster 0 in K chunks of kc and N tiles of nc, `peRows` rows per PE,
/// stationary C, on a storage unit of `storage` bytes, simulated under
/// strict hazards against the reference. Returns the storage addresses the
/// residual is loaded to; `executes` counts cluster 0's EXECUTEs.
std::vector<uint32_t> runResidualTiles(uint32_t storage, int64_t m = 16,
                                       int64_t k = 40, int64_t n = 128,
                                       int64_t kc = 8, int64_t nc = 64,
                                       int64_t peRows = 4,
                                       size_t *executeCount = nullptr) {
  HardwareDesc hw = defaultHardware();
  hw.storageBytes = storage;
  Program prog;
  prog.dramSize = 8u << 20;
  StreamBuilder sb(prog, hw);
  std::vector<ClusterGemmWork> w(hw.numClusters());
  w[0].problems.push_back(problem(m, k, n, kc, nc, false));
  w[0].tiling.peRows = peRows;
  w[0].tiling.kc = kc;
  w[0].tiling.nc = nc;
  GemmEpilogue epi;
  epi.post.push_back(EpilogueStep{SfuFunc::None, 0.0f, true});
  epi.residualDelta = 2u << 20;
  std::string err;
  EXPECT_TRUE(mappedPostFits(hw, w, StationaryOperand::C, epi));
  EXPECT_TRUE(emitMappedGemmLayer(sb, w, StationaryOperand::C, epi, err))
      << err;
  expectProductAB(prog, hw, m, k, n, /*residual=*/true);
  std::vector<uint32_t> at;
  for (const Command &cmd : prog.clusters[0].commands)
    if (cmd.kind == CommandKind::Dma && cmd.dma.dir == DmaDir::Load &&
        cmd.dma.src >= (4u << 20))
      at.push_back(uint32_t(cmd.dma.dst));
  if (executeCount)
    *executeCount = executes(prog, 0);
  return at;
}

TEST(MappedGemm, ResidualTileGoesThroughTheFreeHalfInParts) {
  // docs/mapping.md, "The residual tile in parts". A half holds A 16 x 8
  // and B 8 x 64 (2.5 KiB) and the C tile 16 x 64 (4 KiB): 13 KiB for both
  // halves. With 512 KiB the residual tile (4 KiB) takes a region of its own
  // above them, one load per C tile (two N tiles).
  const uint32_t halves = 2 * (16 * 8 + 8 * 64 + 16 * 64) * 4;
  std::vector<uint32_t> region = runResidualTiles(512u << 10);
  ASSERT_EQ(region.size(), 2u);
  EXPECT_EQ(region[0], halves);
  EXPECT_EQ(region[1], halves);
  // With 16 KiB the region does not fit beside the halves: each C tile's
  // residual goes through the half its final step has just read, in parts
  // of 8 rows (the 2.5 KiB of A and B hold 2 rows per PE): two loads per
  // tile, at the base of the tile's half (the last K chunk of N tile 0 is
  // step 4, half 0; of N tile 1 step 9, half 1).
  std::vector<uint32_t> parts = runResidualTiles(16u << 10);
  const uint32_t half = halves / 2;
  EXPECT_EQ(parts, (std::vector<uint32_t>{0, 0, half, half}));
}

TEST(MappedGemm, FusedEpilogueRunsInRowPartsThatFitTheInputBuffer) {
  // A 64 x 600 C tile (16 rows per PE) and its residual are 2 x 38.4 KB per
  // PE, more than the 64 KiB input buffer (16 slots of 4 KiB): the steps
  // run on 13 rows per PE at a time (31.2 KB, the residual from slot 8),
  // two EXECUTEs after the tile's one step. With 1 MiB of storage the
  // residual tile keeps its region above the halves.
  size_t executeCount = 0;
  std::vector<uint32_t> at =
      runResidualTiles(1u << 20, 64, 16, 600, 16, 600, 16, &executeCount);
  const uint32_t halves = 2 * (64 * 16 + 16 * 600 + 64 * 600) * 4;
  EXPECT_EQ(at, (std::vector<uint32_t>{halves}));
  EXPECT_EQ(executeCount, 3u);
}

TEST(MappedGemm, SharedFilterStripReadsTheOthersChunksOverTheMesh) {
  // docs/mapping.md, "Filter strips shared over the mesh". Alone, each of
  // the four clusters keeps three A tiles and streams the fourth for each
  // of its two N tiles: 4 x (3 + 2) DRAM loads of A.
  const SharedStripDmas alone = runSharedStrip(false);
  EXPECT_EQ(alone.dramA, 20u);
  EXPECT_EQ(alone.remote, 0u);
  // Shared: every chunk is at home on one cluster (one each, in the top
  // 4 KiB), loaded once there; each cluster keeps two of the other three
  // in its strip and reads the last one from its owner for each N tile:
  // 4 x (1 + 2) DRAM loads of A and 4 x 2 remote loads, the same values.
  const SharedStripDmas shared = runSharedStrip(true);
  EXPECT_EQ(shared.dramA, 12u);
  EXPECT_EQ(shared.remote, 8u);
}

TEST(MappedGemm, StreamedFilterIsSharedOverItsMPartitions) {
  // One N tile per cluster: each of the 20 A tiles (5 M partitions x 4 K
  // chunks, 80 KiB against 64 KiB of storage) is used once, so alone every
  // cluster loads all 20 from DRAM. Shared, a tile at home on one cluster
  // is loaded once there and read by the others over the mesh; the tiles
  // without a home still come from DRAM on every cluster. Both loop orders.
  for (bool outerM : {false, true}) {
    const SharedStripDmas alone =
        runSharedStrip(false, 72, 32, outerM, 64u << 10);
    EXPECT_EQ(alone.dramA, 4u * 20u) << outerM;
    EXPECT_EQ(alone.remote, 0u) << outerM;
    const SharedStripDmas shared =
        runSharedStrip(true, 72, 32, outerM, 64u << 10);
    // Every A tile read once per cluster, from DRAM or over the mesh.
    EXPECT_EQ(shared.dramA + shared.remote, 4u * 20u) << outerM;
    EXPECT_GT(shared.remote, 0u) << outerM;
    EXPECT_LT(shared.dramA, alone.dramA) << outerM;
    // The rule (sharedChannelTime) takes one chunk at home per cluster:
    // 4 home loads + 16 unhomed tiles x 4 clusters from DRAM, 3 remote
    // loads per cluster.
    EXPECT_EQ(shared.dramA, 68u) << outerM;
    EXPECT_EQ(shared.remote, 12u) << outerM;
  }
  // One M partition and one N tile (16 x 1088: 17 chunks, 68 KiB against
  // 64 KiB): the inner loop is K, so the filter is the resident operand
  // (a strip with no second N tile to serve) and its homed chunks are read
  // the same way.
  const SharedStripDmas alone =
      runSharedStrip(false, 16, 32, false, 64u << 10, 1088);
  EXPECT_EQ(alone.dramA, 4u * 17u);
  const SharedStripDmas shared =
      runSharedStrip(true, 16, 32, false, 64u << 10, 1088);
  EXPECT_EQ(shared.dramA + shared.remote, 4u * 17u);
  EXPECT_GT(shared.remote, 0u);
  EXPECT_LT(shared.dramA, alone.dramA);
}

} // namespace
