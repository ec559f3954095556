//===- SimControlTest.cpp - Control unit, queue modes, SFU modes ----------===//
//
// Issue 5, points 3 and 5, on tinyHardware() (2 PEs, 8 MAC lanes, 4 SFU
// lanes, SFU latency 8, MAC latency 4, LD acts / storage 16 B/cycle, LD
// weights 8 B/cycle). Expected values are worked out in the comments.
//
//===----------------------------------------------------------------------===//
#include "SimTestUtil.h"
#include "accel/Target/Validate.h"

#include <cstring>
#include <gtest/gtest.h>

using namespace accel;
using namespace accel::test;

namespace {

/// Cluster 0 loads DRAM [0, n floats) into storage [0, ...), configures
/// `seq` in buffer 0, runs `executes` EXECUTEs (the last one with `last`),
/// stores storage [8192, +outFloats) to DRAM 8192 as output "c".
Program program(const HardwareDesc &hw, const std::vector<float> &data,
                std::vector<Instruction> seq, uint32_t outFloats,
                int executes = 1) {
  Program p = makeProgram(hw, 16384);
  p.constants = {{0, bytesOf(data)}};
  p.symbols = {sym("c", false, {int64_t(outFloats)}, 8192)};
  auto &cmds = p.clusters[0].commands;
  cmds = {dma2d(DmaDir::Load, 0, 0, 0, 1, uint32_t(data.size()), 0, 0),
          waitCmd(1), config(0, std::move(seq))};
  for (int e = 0; e < executes; ++e)
    cmds.push_back(execute(0, true, e + 1 == executes));
  cmds.push_back(waitCmd(0, true));
  cmds.push_back(dma2d(DmaDir::Store, 1, 8192, 8192, 1, outFloats, 0, 0));
  cmds.push_back(waitCmd(2));
  return p;
}

std::vector<float> runOk(const Program &p, const HardwareDesc &hw,
                         SimStats &st) {
  std::string err;
  EXPECT_TRUE(validateProgram(p, hw, err)) << err;
  std::map<std::string, Tensor> out;
  EXPECT_EQ(run(p, hw, {}, out, st), "");
  return out["c"].data;
}

Instruction type2(Instruction in, int32_t step) {
  in.operands.pipeline = Pipeline::IdFoSuWb;
  in.operands.step = step;
  return in;
}

} // namespace

// Chained: acc -> SFU -> output queue (1 access per result element);
// decoupled: acc -> queue -> SFU -> queue (3). The spec's "2/3 fewer".
TEST(SimControl, OutputQueueChainedVsDecoupled) {
  HardwareDesc hw = tinyHardware();
  // A = [[1, -2], [3, 4]] (one row per PE), W = I.
  std::vector<float> data = {1, -2, 3, 4, 1, 0, 0, 1};
  auto seq = [&](bool chained) {
    Instruction m = mac(0, 0, rec(0, 2, 2, 0, 1, 1, 2));
    m.fields.sfuActive = chained;
    return std::vector<Instruction>{
        ldActs(0, rec(0, 2, 2, 2, 1, 1)), ldWeights(rec(16, 2, 2, 2)), m,
        stAcc(0, rec(8192, 2, 2, 2, 1, 1), SfuFunc::Relu)};
  };
  SimStats ch, dc;
  std::vector<float> a = runOk(program(hw, data, seq(true), 4), hw, ch);
  std::vector<float> b = runOk(program(hw, data, seq(false), 4), hw, dc);
  EXPECT_EQ(a, (std::vector<float>{1, 0, 3, 4}));
  EXPECT_EQ(a, b);
  // 2 PEs x 1 row x 2 cols = 4 result elements.
  EXPECT_EQ(ch.outputQueueAccesses, 4u);
  EXPECT_EQ(dc.outputQueueAccesses, 12u);
  EXPECT_EQ(ch.outputQueueDrains, 4u);
  EXPECT_EQ(dc.outputQueueDrains, 4u);
  EXPECT_EQ(ch.chainedResults, 4u);
  EXPECT_EQ(dc.decoupledResults, 4u);
  // Decoupled adds the SFU pass over the queue: ceil(1*2 / 4) = 1 cycle.
  EXPECT_EQ(dc.clusters[0].peBusyCycles, ch.clusters[0].peBusyCycles + 1);
}

// Decoupled SFU reduction across the PEs of the cluster: partial tiles
// tagged by PE, combined elementwise in PE order.
TEST(SimControl, CrossPeReduce) {
  HardwareDesc hw = tinyHardware();
  // 4 x 3 tile, PE 0 rows 0-1, PE 1 rows 2-3.
  std::vector<float> A = {1, 2, 3, 4, 5, 6, 10, 20, 30, 40, 50, 60};
  for (SfuFunc fn : {SfuFunc::Add, SfuFunc::Max}) {
    Instruction red = spu(SpuType::Reduce, 0, 1, rec(0, 4, 3, 0, 1, 2), fn);
    red.operands.acrossPes = true;
    SimStats st;
    std::vector<float> got =
        runOk(program(hw, A,
                      {ldActs(0, rec(0, 4, 3, 3, 1, 2)), red,
                       stInbuf(1, rec(8192, 2, 3, 3))},
                      6),
              hw, st);
    if (fn == SfuFunc::Add)
      EXPECT_EQ(got, (std::vector<float>{11, 22, 33, 44, 55, 66}));
    else
      EXPECT_EQ(got, (std::vector<float>{10, 20, 30, 40, 50, 60}));
    // Reduce: 12 tagged partials pushed + popped, 6 results pushed = 30;
    // ST inbuf: 2 PEs x 2 x 3 = 12 pushes.
    EXPECT_EQ(st.outputQueueAccesses, 42u);
    EXPECT_EQ(st.decoupledResults, 6u);
    // LD 48 B / 16 = 3; reduce ceil(12 / 4) + 8 = 11; ST 24 B / 16 = 2.
    EXPECT_EQ(st.clusters[0].peBusyCycles, 16u);
  }
  // across_pes belongs to SPU reduce only.
  Instruction bad =
      spu(SpuType::Unary, 0, 1, rec(0, 4, 3, 0, 1, 2), SfuFunc::Relu);
  bad.operands.acrossPes = true;
  Program p = program(hw, A, {ldActs(0, rec(0, 4, 3, 3, 1, 2)), bad}, 1);
  std::string err;
  EXPECT_FALSE(validateProgram(p, hw, err));
  EXPECT_NE(err.find("acrossPes is only used by SPU reduce"),
            std::string::npos);
  std::map<std::string, Tensor> out;
  SimStats st;
  EXPECT_NE(run(p, hw, {}, out, st).find("acrossPes is only used"),
            std::string::npos);
}

// RQ: a weight tile that rotated back through the loop-back is reused by
// the next EXECUTE without a reload; SQ consumes it and reloads.
TEST(SimControl, RotatingQueueReusesWeights) {
  HardwareDesc hw = tinyHardware();
  std::vector<float> data = {1, 2, 3, 4, 1, 1, 1, 1};
  for (QueueMode qm : {QueueMode::SQ, QueueMode::RQ}) {
    Instruction ldw = ldWeights(rec(16, 2, 2, 2));
    ldw.operands.queueMode = qm;
    SimStats st;
    std::vector<float> got =
        runOk(program(hw, data,
                      {ldActs(0, rec(0, 2, 2, 2, 1, 1)), ldw,
                       mac(0, 0, rec(0, 2, 2, 0, 1, 1, 2)),
                       stAcc(0, rec(8192, 2, 2, 2, 1, 1))},
                      4, 2),
              hw, st);
    EXPECT_EQ(got, (std::vector<float>{3, 3, 7, 7}));
    // LD weights 16 B / 8 = 2 cycles and 16 storage bytes, skipped once.
    EXPECT_EQ(st.weightReloadsSkipped, qm == QueueMode::RQ ? 1u : 0u);
    EXPECT_EQ(st.instructionCounts["LD"], qm == QueueMode::RQ ? 3u : 4u);
  }
}

// Convolution in one MAC: the queue holds all taps' weights, RQ rotates one
// tap per loop-back iteration and the type-2 scalar unit advances the
// index-compare base by Cin. Per-PE activation addresses are precomputed
// (peAddrs): PE 1's window starts at output position 2.
TEST(SimControl, ConvByRotationAndScalarUnit) {
  HardwareDesc hw = tinyHardware();
  const int L = 6, Cin = 2, Cout = 2, T = 3, O = L - T + 1;
  std::vector<float> x(L * Cin), w(T * Cin * Cout);
  for (size_t i = 0; i < x.size(); ++i)
    x[i] = float(int(i % 5) - 2);
  for (size_t i = 0; i < w.size(); ++i)
    w[i] = float(int(i % 3) - 1);
  std::vector<float> data = x;
  data.insert(data.end(), w.begin(), w.end()); // w at float 12 = byte 48
  Instruction lda = ldActs(0, rec(0, 1, 8, 0));
  lda.operands.peAddrs = {0, 2 * Cin * 4};
  Instruction ldw = ldWeights(rec(48, T * Cin, Cout, Cout));
  ldw.operands.queueMode = QueueMode::RQ;
  // Rows = output positions (2 per PE), pitch Cin, K = Cin, N = Cout.
  Instruction m = type2(mac(0, 0, rec(0, O, Cout, Cin, 1, 2, Cin)), Cin);
  m.operands.queueMode = QueueMode::RQ;
  m.operands.repeat = T;
  SimStats st;
  std::vector<float> got = runOk(
      program(hw, data, {lda, ldw, m, stAcc(0, rec(8192, O, Cout, Cout, 1, 2))},
              O * Cout),
      hw, st);
  std::vector<float> want(O * Cout, 0.0f);
  for (int o = 0; o < O; ++o)
    for (int co = 0; co < Cout; ++co)
      for (int t = 0; t < T; ++t)
        for (int ci = 0; ci < Cin; ++ci)
          want[o * Cout + co] +=
              x[(o + t) * Cin + ci] * w[(t * Cin + ci) * Cout + co];
  EXPECT_EQ(got, want);
  EXPECT_EQ(st.scalarUnitOps, 3u);
  EXPECT_EQ(st.instructionCounts["MAC"], 3u);
  // LD acts 32 B / 16 = 2; LD weights 48 B / 8 = 6; MAC per tap
  // ceil(2*2*2 / 8) + 4 = 5, x3 = 15, + SU/WB 2 x 3 = 6; ST 32 B / 16 = 2.
  EXPECT_EQ(st.clusters[0].peBusyCycles, 31u);
}

// SW: consecutive EXECUTEs slide an activation window by one row (the
// scalar unit advances addr); only the new row is fetched.
TEST(SimControl, SlidingWindowRefetchesOnlyNewRows) {
  HardwareDesc hw = tinyHardware();
  std::vector<float> data(12);
  for (int i = 0; i < 12; ++i)
    data[i] = float(i + 1); // 6 rows x 2
  for (QueueMode qm : {QueueMode::SQ, QueueMode::SW}) {
    Instruction lda = type2(ldActs(0, rec(0, 3, 2, 2)), 2 * 4);
    lda.operands.queueMode = qm;
    // Each EXECUTE stores its 3 x 2 window to the next 24 bytes.
    Instruction st = type2(stInbuf(0, rec(8192, 3, 2, 2)), 3 * 2 * 4);
    SimStats s;
    std::vector<float> got = runOk(program(hw, data, {lda, st}, 24, 4), hw, s);
    std::vector<float> want;
    for (int e = 0; e < 4; ++e)
      for (int i = 0; i < 6; ++i)
        want.push_back(data[e * 2 + i]);
    EXPECT_EQ(got, want);
    // LD bytes: SQ 4 x 24 B = 96; SW 24 B, then 8 B per slide = 48 (2 of
    // the 3 rows kept in each of the 2 PEs: 12 rows reused). The output
    // DMA reads another 96 B of storage.
    EXPECT_EQ(s.storageBytesRead, (qm == QueueMode::SW ? 48u : 96u) + 96u);
    EXPECT_EQ(s.slidingRowsReused, qm == QueueMode::SW ? 12u : 0u);
    EXPECT_EQ(s.scalarUnitOps, 8u);
  }
}

TEST(SimControl, PipelineTypeTwoCostsScalarUnitCycles) {
  HardwareDesc hw = tinyHardware();
  std::vector<float> data = {1, 2};
  SimStats a, b;
  runOk(program(hw, data, {ldActs(0, rec(0, 1, 2, 2))}, 2), hw, a);
  Instruction lda = type2(ldActs(0, rec(0, 1, 2, 2)), 0);
  lda.operands.repeat = 3;
  runOk(program(hw, data, {lda}, 2), hw, b);
  // Type 1: 8 B / 16 = 1. Type 2, repeat 3: 3 x (1 + SU 1 + WB 1) = 9.
  EXPECT_EQ(a.clusters[0].peBusyCycles, 1u);
  EXPECT_EQ(b.clusters[0].peBusyCycles, 9u);
  EXPECT_EQ(b.scalarUnitOps, 0u); // step 0: nothing to advance
}

TEST(SimControl, ValidatorRejectsBadControlFields) {
  HardwareDesc hw = tinyHardware();
  std::vector<float> data = {1, 2};
  auto expectError = [&](Instruction in, const std::string &needle) {
    Program p = program(hw, data, {in}, 2);
    std::string err;
    EXPECT_FALSE(validateProgram(p, hw, err));
    EXPECT_NE(err.find(needle), std::string::npos) << err;
  };
  Instruction in = ldActs(0, rec(0, 1, 2, 2));
  in.operands.step = 4;
  expectError(in, "step needs pipeline 2");
  in = ldActs(0, rec(0, 1, 2, 2));
  in.operands.pipeline = Pipeline(3);
  expectError(in, "invalid pipeline type 3");
  in = ldActs(0, rec(0, 1, 2, 2));
  in.operands.base = 1;
  expectError(in, "base is only used by MAC");
  in = ldActs(0, rec(0, 1, 2, 2));
  in.operands.peAddrs = {0};
  expectError(in, "peAddrs holds 1 addresses, the cluster has 2 PEs");
  in = ldWeights(rec(0, 1, 2, 2));
  in.operands.peAddrs = {0, 0};
  expectError(in, "peAddrs is only used by LD acts / psums and ST");
  // The scalar unit walks the address out of the storage unit on the 3rd
  // iteration: the validator checks the last iteration.
  in = type2(ldActs(0, rec(0, 1, 2, 2)), 40000);
  in.operands.repeat = 3;
  expectError(in, "outside the storage unit");
}

// Depthwise-style filter with weights and activations swapped (spec: "the
// queue holds activations"): the input buffer holds the T filter taps, the
// weight queue the T x 1 activation window x[o..o+T). Every EXECUTE the
// scalar unit slides the window by one element (rowStride 1) and advances
// the output address; in SW mode the queue keeps T-1 rows and fetches one.
TEST(SimControl, SlidingWindowWeightQueueDepthwise) {
  HardwareDesc hw = tinyHardware();
  const int T = 3, L = 8, O = L - T + 1;
  std::vector<float> data = {0.5f, -1, 2}; // taps at float 0
  for (int i = 0; i < L; ++i)
    data.push_back(float(i * i % 7) - 3); // x at float 3 = byte 12
  for (QueueMode qm : {QueueMode::SQ, QueueMode::SW}) {
    Instruction ldw = type2(ldWeights(rec(12, T, 1, 1)), 4);
    ldw.operands.queueMode = qm;
    Instruction st = type2(stAcc(0, rec(8192, 1, 1, 1)), 4);
    SimStats s;
    Program p = program(hw, data,
                        {ldActs(0, rec(0, 1, T, T)), ldw,
                         mac(0, 0, rec(0, 1, 1, 0, 1, 0, T)), st},
                        O, O);
    // Every EXECUTE stores (shift + last on each).
    for (auto &c : p.clusters[0].commands)
      if (c.kind == CommandKind::Execute)
        c.shift = c.last = true;
    std::vector<float> got = runOk(p, hw, s);
    std::vector<float> want(O, 0.0f);
    for (int o = 0; o < O; ++o)
      for (int t = 0; t < T; ++t)
        want[o] += data[t] * data[3 + o + t];
    EXPECT_EQ(got, want);
    // Weight bytes: SQ 6 x 12 B; SW 12 B + 5 x 4 B (2 rows kept each).
    EXPECT_EQ(s.slidingRowsReused, qm == QueueMode::SW ? 10u : 0u);
    EXPECT_EQ(s.storageBytesRead - 6 * 12 /*LD acts*/ - O * 4 /*DMA out*/,
              qm == QueueMode::SW ? 32u : 72u);
  }
}
