//===- SimPeTest.cpp - PE: sparse weights, index compare, load balancing --===//
//
// Issue 5, point 4. tinyHardware() (2 PEs, LD acts 16 B/cycle, LD weights
// 8 B/cycle, storage 16 B/cycle, MAC latency 4, SFU 4 lanes / latency 8);
// the tests that count MAC cycles set macLanes = 1 so that one product is
// one cycle. Every expected number is worked out in the comments from
// docs/simulator.md.
//
//===----------------------------------------------------------------------===//
#include "../../../lib/Sim/PeKernels.h"
#include "SimTestUtil.h"
#include "accel/Target/SparseWeights.h"
#include "accel/Target/Validate.h"

#include <cstring>
#include <gtest/gtest.h>
#include <random>

using namespace accel;
using namespace accel::test;

namespace {

Instruction ldSparse(OperandRecord r) {
  Instruction in = ldWeights(r);
  in.fields.sub = uint8_t(LoadStream::SparseWeights);
  return in;
}

/// C[M x N] = A[M x K] * W[K x N] in one EXECUTE on cluster 0; A at DRAM 0,
/// W (dense, or its sparse list) at DRAM 4096, C at 8192; storage: A at 0,
/// W at 4096, C at 8192. peRows splits M over the PEs.
struct Gemm {
  uint32_t M, K, N, peRows;
  std::vector<float> A, W;
  bool sparse = false, loadBalance = false;
};

Program gemmProgram(const HardwareDesc &hw, const Gemm &g) {
  Program p = makeProgram(hw, 16384);
  p.symbols = {sym("c", false, {g.M, g.N}, 8192)};
  ConstSegment a{0, bytesOf(g.A)};
  ConstSegment w;
  w.dramAddr = 4096;
  uint32_t pairs = 0;
  if (g.sparse) {
    std::vector<SparsePair> list;
    std::string e;
    EXPECT_TRUE(encodeSparseTile(g.W.data(), g.K, g.N, g.N, list, e)) << e;
    EXPECT_TRUE(sparseTileBytes(list, 0, w.bytes, e)) << e;
    pairs = uint32_t(list.size());
  } else {
    w.bytes = bytesOf(g.W);
  }
  p.constants = {a, w};
  auto &cmds = p.clusters[0].commands;
  cmds.push_back(dma2d(DmaDir::Load, 0, 0, 0, 1, g.M * g.K, 0, 0));
  if (!w.bytes.empty())
    cmds.push_back(dma2d(DmaDir::Load, 1, 4096, 4096, 1,
                         uint32_t(w.bytes.size() / 4), 0, 0));
  cmds.push_back(waitCmd(0b11));
  Instruction ldw = g.sparse ? ldSparse(rec(4096, pairs, g.N, 0, 1, 0, g.K))
                             : ldWeights(rec(4096, g.K, g.N, g.N));
  Instruction m = mac(0, 0, rec(0, g.M, g.N, 0, 1, g.peRows, g.K));
  m.fields.loadBalance = g.loadBalance;
  std::vector<Instruction> seq = {
      ldActs(0, rec(0, g.M, g.K, g.K, 1, g.peRows)), m,
      stAcc(0, rec(8192, g.M, g.N, g.N, 1, g.peRows))};
  if (!g.sparse || pairs)
    seq.insert(seq.begin() + 1, ldw);
  cmds.push_back(config(0, seq));
  cmds.push_back(execute(0, true, true));
  cmds.push_back(waitCmd(0, true));
  cmds.push_back(dma2d(DmaDir::Store, 2, 8192, 8192, 1, g.M * g.N, 0, 0));
  cmds.push_back(waitCmd(0b100));
  return p;
}

std::vector<float> runGemm(const HardwareDesc &hw, const Gemm &g,
                           SimStats &st) {
  Program p = gemmProgram(hw, g);
  std::string err;
  EXPECT_TRUE(validateProgram(p, hw, err)) << err;
  std::map<std::string, Tensor> out;
  EXPECT_EQ(run(p, hw, {}, out, st), "");
  return out["c"].data;
}

// The hand example: A 4x4 (PE 0 rows 0-1, PE 1 rows 2-3), W 4x2 with three
// non-zeros (k0,n0)=1, (k1,n1)=2, (k2,n0)=3.
Gemm handExample() {
  Gemm g;
  g.M = 4, g.K = 4, g.N = 2, g.peRows = 2;
  g.A = {1, 0, 2, 0, //
         0, 0, 0, 0, //
         1, 1, 1, 1, //
         0, 3, 0, 0};
  g.W = {1, 0, //
         0, 2, //
         3, 0, //
         0, 0};
  return g;
}

} // namespace

TEST(SimPe, SparseWeightsIndexCompareHandExample) {
  HardwareDesc hw = tinyHardware();
  hw.macLanes = 1;
  hw.rnnEpMax = 1; // an adder tree spans at most one PE's lanes
  hw.rnnCatWidth = 1;
  Gemm g = handExample();
  const std::vector<float> want = {7, 0, 0, 0, 4, 2, 0, 6};
  SimStats dense, sparse;
  EXPECT_EQ(runGemm(hw, g, dense), want);
  g.sparse = true;
  EXPECT_EQ(runGemm(hw, g, sparse), want);
  // Effective products: PE 0 row 0 mask 1010 meets k0, k2 -> 2; row 1
  // none. PE 1 row 2 all three pairs -> 3; row 3 mask 0100 meets k1 -> 1.
  // 6 of the dense 4*4*2 = 32.
  EXPECT_EQ(sparse.effectiveMacs, 6u);
  EXPECT_EQ(sparse.skippedMacs, 26u);
  EXPECT_EQ(sparse.macs, 6u);
  EXPECT_EQ(dense.effectiveMacs, 32u);
  EXPECT_EQ(dense.skippedMacs, 0u);
  // EXECUTE: LD acts 64 B / 16 = 4; dense LD weights 32 B / 8 = 4, MAC
  // 2*4*2 / 1 + 4 = 20; ST 32 B / 16 = 2 -> 30. Sparse: 3 pairs * 8 B / 8
  // = 3, MAC max(PE0 2, PE1 4) / 1 + 4 = 8 -> 17.
  EXPECT_EQ(dense.clusters[0].peBusyCycles, 30u);
  EXPECT_EQ(sparse.clusters[0].peBusyCycles, 17u);
  // Load balancing: PE 1 (4) hands 1 product to PE 0 (2): max 3, MAC 7.
  g.loadBalance = true;
  SimStats lb;
  EXPECT_EQ(runGemm(hw, g, lb), want);
  EXPECT_EQ(lb.clusters[0].peBusyCycles, 16u);
  EXPECT_EQ(lb.balancedMacs, 1u);
  EXPECT_EQ(lb.effectiveMacs, 6u);
}

TEST(SimPe, BalancedMaxModel) {
  uint64_t moved;
  // Work flows only to the left neighbour, one hop.
  EXPECT_EQ(sim::balancedMax({2, 10}, moved), 6u);
  EXPECT_EQ(moved, 4u);
  EXPECT_EQ(sim::balancedMax({10, 2}, moved), 10u); // PE 0 has no left
  EXPECT_EQ(moved, 0u);
  // PE 2's surplus cannot travel two hops: PE 1 takes 5 of it (loads
  // 0, 5, 5); PE 0 stays idle.
  EXPECT_EQ(sim::balancedMax({0, 0, 10}, moved), 5u);
  EXPECT_EQ(moved, 5u);
  // 3, 9, 3, 9 -> 6, 6, 6, 6 (each odd PE pushes 3 left).
  EXPECT_EQ(sim::balancedMax({3, 9, 3, 9}, moved), 6u);
  EXPECT_EQ(moved, 6u);
  EXPECT_EQ(sim::balancedMax({}, moved), 0u);
  EXPECT_EQ(sim::balancedMax({7}, moved), 7u);
}

TEST(SimPe, IndexCompareBaseAndPitch) {
  // Row pitch 6 (rowStride of the MAC), base 2: the 3 x 2 weights meet
  // activation columns 2..4 of each row.
  HardwareDesc hw = tinyHardware();
  Program p = makeProgram(hw, 16384);
  std::vector<float> A = {1, 2, 3, 4, 5, 6, //
                          6, 5, 4, 3, 2, 1};
  std::vector<float> W = {1, 0, 0, 1, 1, 1}; // 3 x 2
  p.constants = {{0, bytesOf(A)}, {4096, bytesOf(W)}};
  p.symbols = {sym("c", false, {2, 2}, 8192)};
  Instruction m = mac(0, 0, rec(0, 2, 2, 6, 1, 1, 3));
  m.operands.base = 2;
  auto &cmds = p.clusters[0].commands;
  cmds = {dma2d(DmaDir::Load, 0, 0, 0, 1, 12, 0, 0),
          dma2d(DmaDir::Load, 0, 4096, 4096, 1, 6, 0, 0),
          waitCmd(1),
          config(0, {ldActs(0, rec(0, 2, 6, 6, 1, 1)),
                     ldWeights(rec(4096, 3, 2, 2)), m,
                     stAcc(0, rec(8192, 2, 2, 2, 1, 1))}),
          execute(0, true, true),
          waitCmd(0, true),
          dma2d(DmaDir::Store, 1, 8192, 8192, 1, 4, 0, 0),
          waitCmd(2)};
  std::string err;
  ASSERT_TRUE(validateProgram(p, hw, err)) << err;
  std::map<std::string, Tensor> out;
  SimStats st;
  ASSERT_EQ(run(p, hw, {}, out, st), "");
  // Row 0: cols 2..4 = 3 4 5 -> [3 + 5, 4 + 5]; row 1: 4 3 2 -> [6, 5].
  EXPECT_EQ(out["c"].data, (std::vector<float>{8, 9, 6, 5}));
  // A base that reads past the input buffer is an error, not an
  // out-of-range read (16 KiB = 4096 floats; 4094 + 3 > 4096).
  p.clusters[0].commands[3].instrs[2].operands.base = 4094;
  EXPECT_FALSE(validateProgram(p, hw, err));
  EXPECT_NE(err.find("input tile (rows x pitch + base)"), std::string::npos)
      << err;
  std::string e = run(p, hw, {}, out, st);
  EXPECT_NE(e.find("input tile (rows x pitch + base) of 4097 floats"),
            std::string::npos)
      << e;
}

TEST(SimPe, FourAccumulationBuffers) {
  // One activation row [1 2], weights [1; 1]: MAC into acc 0..3 with
  // repeat a+1, so acc a holds 3 * (a + 1); each ST reads its own buffer.
  HardwareDesc hw = tinyHardware();
  Program p = makeProgram(hw, 16384);
  p.constants = {{0, bytesOf({1, 2, 1, 1})}};
  p.symbols = {sym("c", false, {4}, 8192)};
  std::vector<Instruction> seq = {ldActs(0, rec(0, 1, 2, 2)),
                                  ldWeights(rec(8, 2, 1, 1))};
  for (uint8_t a = 0; a < 4; ++a) {
    Instruction m = mac(0, a, rec(0, 1, 1, 0, 1, 0, 2));
    m.operands.repeat = a + 1;
    seq.push_back(m);
  }
  for (uint8_t a = 0; a < 4; ++a)
    seq.push_back(stAcc(a, rec(8192 + 4 * a, 1, 1, 1)));
  p.clusters[0].commands = {dma2d(DmaDir::Load, 0, 0, 0, 1, 4, 0, 0),
                            waitCmd(1),
                            config(0, seq),
                            execute(0, true, true),
                            waitCmd(0, true),
                            dma2d(DmaDir::Store, 1, 8192, 8192, 1, 4, 0, 0),
                            waitCmd(2)};
  std::map<std::string, Tensor> out;
  SimStats st;
  ASSERT_EQ(run(p, hw, {}, out, st), "");
  EXPECT_EQ(out["c"].data, (std::vector<float>{3, 6, 9, 12}));
}

TEST(SimPe, SparseListErrors) {
  HardwareDesc hw = tinyHardware();
  Gemm g = handExample();
  g.sparse = true;
  Program p = gemmProgram(hw, g);
  // Swap the first two pairs: indices no longer increase.
  std::vector<uint8_t> &b = p.constants[1].bytes;
  std::swap_ranges(b.begin(), b.begin() + 8, b.begin() + 8);
  std::map<std::string, Tensor> out;
  SimStats st;
  EXPECT_NE(run(p, hw, {}, out, st).find("does not increase"),
            std::string::npos);
  // MAC shape different from the list's K x N.
  p = gemmProgram(hw, g);
  p.clusters[0].commands[3].instrs[2].operands.depth = 3;
  EXPECT_NE(run(p, hw, {}, out, st)
                .find("does not match the sparse weight "
                      "list in the queue (4 x 2)"),
            std::string::npos);
}

// End-to-end: the numbers of a sparse-encoded, load-balanced run equal the
// dense run bit for bit at every sparsity level; only the time changes.
TEST(SimPe, NumbersIdenticalAcrossSparsityAndLoadBalancing) {
  HardwareDesc hw = tinyHardware();
  const uint32_t M = 16, K = 24, N = 12;
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> val(-1, 1);
  std::uniform_real_distribution<float> u(0, 1);
  uint64_t prevCycles = ~0ull;
  for (int pct = 0; pct <= 90; pct += 30) {
    Gemm g;
    g.M = M, g.K = K, g.N = N, g.peRows = 8;
    for (uint32_t i = 0; i < M * K; ++i)
      g.A.push_back(u(rng) < pct / 100.0 ? 0.0f : val(rng));
    for (uint32_t i = 0; i < K * N; ++i)
      g.W.push_back(u(rng) < pct / 100.0 ? 0.0f : val(rng));
    SimStats sd, ss, sl;
    std::vector<float> dense = runGemm(hw, g, sd);
    g.sparse = true;
    std::vector<float> sparse = runGemm(hw, g, ss);
    g.loadBalance = true;
    std::vector<float> lb = runGemm(hw, g, sl);
    ASSERT_EQ(dense.size(), size_t(M) * N);
    for (size_t i = 0; i < dense.size(); ++i) {
      ASSERT_EQ(dense[i], sparse[i]) << pct << "% element " << i;
      ASSERT_EQ(dense[i], lb[i]) << pct << "% element " << i;
    }
    EXPECT_EQ(sd.effectiveMacs, uint64_t(M) * K * N);
    EXPECT_EQ(ss.effectiveMacs + ss.skippedMacs, uint64_t(M) * K * N);
    EXPECT_LE(sl.cycles, ss.cycles);
    if (pct > 0) {
      EXPECT_LT(ss.effectiveMacs, sd.effectiveMacs);
      EXPECT_LT(ss.cycles, sd.cycles);
    }
    EXPECT_LE(ss.cycles, prevCycles);
    prevCycles = ss.cycles;
  }
}
