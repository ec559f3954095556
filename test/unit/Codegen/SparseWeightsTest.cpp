//===- SparseWeightsTest.cpp - LD sparse_weights in the GEMM kernels ------===//
//
// A matmul with a constant, 70 % zero B through the dealt kernel
// (emitGemmLayer) and the mapped one (emitMappedGemmLayer, every stationary
// operand): with a SparseWeightSource the programs load LD sparse_weights
// lists, validate, compute exactly the dense program's result and skip the
// zero products; a too dense B or a threshold above the zero fraction keeps
// LD weights; MAC load-balance / sfu bits follow the epilogue options.
//
//===----------------------------------------------------------------------===//
#include "accel/Codegen/Kernels.h"
#include "accel/Hardware/HardwareDesc.h"
#include "accel/Sim/Simulator.h"
#include "accel/Target/Validate.h"

#include <cstring>
#include <gtest/gtest.h>
#include <random>

using namespace accel;
using namespace accel::codegen;

namespace {

constexpr int64_t M = 40, K = 200, N = 100, KC = 64, NC = 32;
constexpr uint64_t kA = 0, kB = 1u << 20, kC = 2u << 20, kBias = 3u << 20,
                   kNext = 4u << 20;

GemmTiles problem() {
  GemmTiles p;
  p.m = M;
  for (int64_t o = 0; o < K; o += KC)
    p.kChunks.push_back(std::min(KC, K - o));
  for (int64_t o = 0; o < N; o += NC)
    p.nTiles.push_back(std::min(NC, N - o));
  p.aBox = [](int64_t m0, int64_t mc, size_t ki) {
    DramBox b;
    b.base = kA + uint64_t((m0 * K + int64_t(ki) * KC) * 4);
    b.dim(mc, K).dim(std::min(KC, K - int64_t(ki) * KC), 1);
    return b;
  };
  p.bBox = [](size_t ki, size_t ni) {
    DramBox b;
    b.base = kB + uint64_t((int64_t(ki) * KC * N + int64_t(ni) * NC) * 4);
    b.dim(std::min(KC, K - int64_t(ki) * KC), N)
        .dim(std::min(NC, N - int64_t(ni) * NC), 1);
    return b;
  };
  p.cBox = [](int64_t m0, int64_t mc, size_t ni) {
    DramBox b;
    b.base = kC + uint64_t((m0 * N + int64_t(ni) * NC) * 4);
    b.dim(mc, N).dim(std::min(NC, N - int64_t(ni) * NC), 1);
    return b;
  };
  p.initBox = [](int64_t m0, int64_t mc, size_t ni) {
    DramBox b;
    b.base = kBias + uint64_t(int64_t(ni) * NC * 4);
    b.dim(mc, 0).dim(std::min(NC, N - int64_t(ni) * NC), 1);
    return b;
  };
  return p;
}

/// The program skeleton: A input, B and bias constants, C output.
struct Build {
  Program prog;
  uint64_t next = kNext;
  SparseWeightSource src;
  explicit Build(const std::vector<float> &w, double threshold) {
    prog.symbols.push_back({"a", true, DType::F32, {M, K}, kA});
    prog.symbols.push_back({"c", false, DType::F32, {M, N}, kC});
    auto addConst = [&](uint64_t at, const std::vector<float> &v) {
      ConstSegment s;
      s.dramAddr = at;
      s.bytes.resize(v.size() * 4);
      std::memcpy(s.bytes.data(), v.data(), s.bytes.size());
      prog.constants.push_back(std::move(s));
    };
    addConst(kB, w);
    std::vector<float> bias(N);
    for (int64_t i = 0; i < N; ++i)
      bias[size_t(i)] = 0.01f * float(i) - 0.3f;
    addConst(kBias, bias);
    src.threshold = threshold;
    src.constantAt = [this](uint64_t addr, float &v) {
      for (const ConstSegment &s : prog.constants)
        if (addr >= s.dramAddr && addr + 4 <= s.dramAddr + s.bytes.size()) {
          std::memcpy(&v, s.bytes.data() + (addr - s.dramAddr), 4);
          return true;
        }
      return false;
    };
    src.place = [this](std::vector<uint8_t> bytes) {
      ConstSegment s;
      s.dramAddr = next;
      next += (bytes.size() + 63) / 64 * 64;
      s.bytes = std::move(bytes);
      prog.constants.push_back(std::move(s));
      return prog.constants.back().dramAddr;
    };
  }
};

std::vector<float> weights(double zeros) {
  std::mt19937 rng(3);
  std::uniform_real_distribution<float> u(-1, 1);
  std::vector<float> w(size_t(K * N));
  for (float &v : w)
    v = u(rng) < float(2 * zeros - 1) ? 0.0f : u(rng);
  return w;
}

size_t countLd(const Program &p, LoadStream s) {
  size_t n = 0;
  for (const ClusterStream &c : p.clusters)
    for (const Command &cmd : c.commands)
      for (const Instruction &i : cmd.instrs)
        n += i.fields.op == Opcode::LD && i.fields.sub == uint8_t(s);
  return n;
}

/// Emits with `emit`, validates, simulates; returns C and the stats.
template <typename Emit>
std::vector<float> run(const std::vector<float> &w, double threshold,
                       bool sparse, Emit emit, SimStats &st, Program *out) {
  HardwareDesc hw = defaultHardware();
  Build b(w, threshold);
  StreamBuilder sb(b.prog, hw);
  GemmEpilogue epi;
  epi.func = SfuFunc::Relu;
  epi.sparse = sparse ? &b.src : nullptr;
  emit(sb, epi);
  b.prog.dramSize = b.next + (8u << 20);
  std::string err;
  EXPECT_TRUE(validateProgram(b.prog, hw, err)) << err;
  std::vector<float> a(size_t(M * K));
  for (size_t i = 0; i < a.size(); ++i)
    a[i] = float(int(i % 17) - 8) * 0.125f;
  std::map<std::string, Tensor> in{{"a", Tensor{{M, K}, a}}}, outs;
  SimOptions strict; // a missing WAIT / BARRIER fails the test
  strict.hazardsAreErrors = true;
  EXPECT_TRUE(simulate(b.prog, hw, in, strict, outs, st, err)) << err;
  if (out)
    *out = b.prog;
  return outs["c"].data;
}

void dealt(StreamBuilder &sb, const GemmEpilogue &epi) {
  GemmTiling t;
  t.peRows = 4;
  t.kc = KC;
  t.nc = NC;
  emitGemmLayer(sb, {problem()}, t, epi);
}

} // namespace

TEST(SparseGemm, DealtKernelLoadsListsAndMatchesDense) {
  std::vector<float> w = weights(0.7);
  SimStats sd, ss;
  Program dense, sparse;
  std::vector<float> cd = run(w, 0.5, false, dealt, sd, &dense);
  std::vector<float> cs = run(w, 0.5, true, dealt, ss, &sparse);
  EXPECT_EQ(cd, cs);
  EXPECT_EQ(countLd(dense, LoadStream::SparseWeights), 0u);
  EXPECT_GT(countLd(sparse, LoadStream::SparseWeights), 0u);
  EXPECT_EQ(countLd(sparse, LoadStream::Weights), 0u);
  EXPECT_EQ(sd.skippedMacs, 0u);
  EXPECT_GT(ss.skippedMacs, 0u);
  EXPECT_LT(ss.effectiveMacs, sd.effectiveMacs);
}

TEST(SparseGemm, MappedKernelLoadsListsAndMatchesDense) {
  std::vector<float> w = weights(0.8);
  for (StationaryOperand st :
       {StationaryOperand::A, StationaryOperand::B, StationaryOperand::C}) {
    auto mapped = [st](StreamBuilder &sb, const GemmEpilogue &epi) {
      std::vector<ClusterGemmWork> work(sb.numClusters());
      work[2].problems.push_back(problem());
      work[2].tiling.peRows = 4;
      work[2].tiling.kc = KC;
      work[2].tiling.nc = NC;
      work[2].psumScratch = 5u << 20;
      std::string err;
      EXPECT_TRUE(emitMappedGemmLayer(sb, work, st, epi, err)) << err;
    };
    SimStats sd, ss;
    Program sparse;
    std::vector<float> cd = run(w, 0.5, false, mapped, sd, nullptr);
    std::vector<float> cs = run(w, 0.5, true, mapped, ss, &sparse);
    EXPECT_EQ(cd, cs) << int(st);
    EXPECT_GT(countLd(sparse, LoadStream::SparseWeights), 0u) << int(st);
    EXPECT_GT(ss.skippedMacs, 0u) << int(st);
  }
}

TEST(SparseGemm, DenseFallbacks) {
  SimStats st, st2;
  Program p;
  // 70 % zeros below a 0.9 threshold.
  run(weights(0.7), 0.9, true, dealt, st, &p);
  EXPECT_EQ(countLd(p, LoadStream::SparseWeights), 0u);
  EXPECT_EQ(st.skippedMacs, 0u);
  // 30 % zeros over a 0.2 threshold: the lists do not fit the tiles.
  run(weights(0.3), 0.2, true, dealt, st2, &p);
  EXPECT_EQ(countLd(p, LoadStream::SparseWeights), 0u);
  EXPECT_GT(countLd(p, LoadStream::Weights), 0u);
}

TEST(SparseGemm, MacBitsFollowTheOptions) {
  HardwareDesc hw = defaultHardware();
  for (bool lb : {false, true})
    for (bool chained : {false, true}) {
      Program prog;
      StreamBuilder sb(prog, hw);
      GemmEpilogue epi;
      epi.func = SfuFunc::Relu;
      epi.loadBalance = lb;
      epi.sfuChained = chained;
      dealt(sb, epi);
      size_t macs = 0;
      for (const ClusterStream &c : prog.clusters)
        for (const Command &cmd : c.commands)
          for (const Instruction &i : cmd.instrs)
            if (i.fields.op == Opcode::MAC) {
              ++macs;
              EXPECT_EQ(i.fields.loadBalance, lb);
              EXPECT_EQ(i.fields.sfuActive, chained);
            }
      EXPECT_GT(macs, 0u);
    }
}
