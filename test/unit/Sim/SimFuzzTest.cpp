//===- SimFuzzTest.cpp - Random operand records never crash the simulator -===//
//
// The simulator defends itself (docs/simulator.md): whatever the operand
// records hold (issue-5 fields included), simulate() returns either success
// or an error message. Random mutations of a small valid program that uses
// sparse weights, RQ / SW, the scalar unit, per-PE addresses and the
// cross-PE reduce; unvalidated on purpose.
//
//===----------------------------------------------------------------------===//
#include "SimTestUtil.h"
#include "accel/Target/SparseWeights.h"

#include <cstring>
#include <gtest/gtest.h>
#include <random>

using namespace accel;
using namespace accel::test;

namespace {

Program seedProgram(const HardwareDesc &hw) {
  Program p = makeProgram(hw, 16384);
  std::vector<float> a(64);
  for (size_t i = 0; i < a.size(); ++i)
    a[i] = (i % 3) ? float(i % 7) - 3 : 0.0f;
  std::vector<float> w = {1, 0, 0, 2, 3, 0, 0, 0};
  std::vector<SparsePair> pairs;
  std::vector<uint8_t> sb;
  std::string e;
  encodeSparseTile(w.data(), 4, 2, 2, pairs, e);
  sparseTileBytes(pairs, 4, sb, e);
  ConstSegment ca{0, std::vector<uint8_t>(a.size() * 4)};
  std::memcpy(ca.bytes.data(), a.data(), ca.bytes.size());
  p.constants = {ca, {4096, sb}};
  p.symbols = {sym("c", false, {8}, 8192)};
  Instruction lda = ldActs(0, rec(0, 4, 4, 4, 1, 2));
  lda.operands.queueMode = QueueMode::SW;
  lda.operands.pipeline = Pipeline::IdFoSuWb;
  lda.operands.step = 16;
  Instruction lds = ldWeights(rec(4096, 4, 2, 0, 1, 0, 4));
  lds.fields.sub = uint8_t(LoadStream::SparseWeights);
  lds.operands.queueMode = QueueMode::RQ;
  Instruction m = mac(0, 1, rec(0, 4, 2, 4, 1, 2, 4));
  m.fields.loadBalance = true;
  Instruction red =
      spu(SpuType::Reduce, 0, 3, rec(0, 4, 2, 0, 1, 2), SfuFunc::Add);
  red.operands.acrossPes = true;
  Instruction st = stAcc(1, rec(8192, 4, 2, 2, 1, 2), SfuFunc::Relu);
  st.operands.peAddrs = {8192, 8208};
  p.clusters[0].commands = {
      dma2d(DmaDir::Load, 0, 0, 0, 1, 64, 0, 0),
      dma2d(DmaDir::Load, 0, 4096, 4096, 1, uint32_t(sb.size() / 4), 0, 0),
      waitCmd(1),
      config(0, {lda, lds, m, red, st}),
      execute(0, false, false),
      execute(0, true, true),
      waitCmd(0, true),
      dma2d(DmaDir::Store, 1, 8192, 8192, 1, 8, 0, 0),
      waitCmd(2)};
  return p;
}

} // namespace

TEST(SimFuzz, RandomOperandRecordsNeverCrash) {
  HardwareDesc hw = tinyHardware();
  Program seed = seedProgram(hw);
  {
    std::map<std::string, Tensor> out;
    SimStats st;
    ASSERT_EQ(run(seed, hw, {}, out, st), "");
  }
  std::mt19937 rng(2024);
  auto pick = [&](uint32_t n) { return uint32_t(rng() % n); };
  const uint32_t interesting[] = {
      0,  1,   2,    3,    4,     7,     8,        15,
      16, 255, 4095, 4096, 65535, 65536, 1u << 31, 0xFFFFFFFFu};
  auto value = [&]() { return interesting[pick(16)]; };
  int failures = 0, successes = 0;
  for (int iter = 0; iter < 3000; ++iter) {
    Program p = seed;
    auto &instrs = p.clusters[0].commands[3].instrs;
    for (int m = 0, n = 1 + pick(3); m < n; ++m) {
      Instruction &in = instrs[pick(uint32_t(instrs.size()))];
      OperandRecord &r = in.operands;
      switch (pick(14)) {
      case 0:
        r.addr = value();
        break;
      case 1:
        r.rows = value();
        break;
      case 2:
        r.cols = value();
        break;
      case 3:
        r.rowStride = int32_t(value());
        break;
      case 4:
        r.peRows = value();
        break;
      case 5:
        r.depth = value();
        break;
      case 6:
        r.repeat = 1 + pick(4);
        break;
      case 7:
        r.queueMode = QueueMode(pick(4));
        break;
      case 8:
        r.base = value();
        break;
      case 9:
        r.step = int32_t(value());
        r.pipeline = Pipeline(1 + pick(3));
        break;
      case 10:
        r.acrossPes = !r.acrossPes;
        break;
      case 11:
        r.peAddrs.assign(pick(4), 0);
        for (uint32_t &a : r.peAddrs)
          a = value();
        break;
      case 12:
        in.fields.sub = uint8_t(pick(4));
        break;
      case 13:
        r.colStride = int32_t(value());
        break;
      }
    }
    std::map<std::string, Tensor> out;
    SimStats st;
    std::string err = run(p, hw, {}, out, st);
    if (err.empty())
      ++successes;
    else
      ++failures;
    ASSERT_EQ(err.find("internal error"), std::string::npos) << err;
  }
  // Both outcomes occur: the mutations reach the checks and the kernels.
  EXPECT_GT(failures, 100);
  EXPECT_GT(successes, 100);
}
