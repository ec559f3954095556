//===- SimTimelineTest.cpp - SimStats::timeline and SimOptions::progress --===//
//
// The activity bins behind accel-run --report's plots over time, the layer
// spans behind its Gantt chart, and the progress callback behind accel-run's
// progress line (docs/simulator.md "HTML report", "accel-run").
//
//===----------------------------------------------------------------------===//
#include "../../../lib/Sim/ActivityBins.h"
#include "SimTestUtil.h"

#include <gtest/gtest.h>

#include <numeric>

using namespace accel;
using namespace accel::test;

namespace {

double sum(const std::vector<double> &v) {
  return std::accumulate(v.begin(), v.end(), 0.0);
}

/// One layer "copy" (a DMA and its WAIT) and one layer "mm": a 4x8x8 GEMM
/// whose EXECUTE keeps the PE array busy for 76 cycles (SimLayerStatsTest's
/// program, without the final store).
Program program(const HardwareDesc &hw) {
  Program p = makeProgram(hw, 4096);
  p.symbols = {sym("x", true, {4, 16}, 0), sym("y", false, {4, 8}, 2048)};
  p.constants.push_back({1024, bytesOf(pattern(64, 7))});
  std::vector<Instruction> gemm = {
      ldActs(0, rec(0, 4, 8, 8, 1, 2)), ldWeights(rec(512, 8, 8, 8)),
      mac(0, 0, rec(0, 4, 8, 0, 1, 2, 8)), stAcc(0, rec(1024, 4, 8, 8, 1, 2))};
  CommandList cmds = {dma2d(DmaDir::Load, 0, 0, 0, 4, 16, 16, 16),
                      waitCmd(1),
                      dma2d(DmaDir::Load, 1, 1024, 512, 8, 8, 8, 8),
                      config(0, gemm),
                      waitCmd(1 << 1),
                      execute(0, true, true),
                      waitCmd(0, true)};
  for (size_t i = 0; i < cmds.size(); ++i)
    cmds[i].layer = i < 2 ? 0 : 1;
  p.clusters[0].commands = cmds;
  p.layers.resize(2);
  p.layers[0].name = "copy";
  p.layers[1].name = "mm";
  return p;
}

SimStats runOk(const Program &p, const HardwareDesc &hw,
               const SimOptions &opts) {
  std::map<std::string, Tensor> in{{"x", tensor({4, 16}, 1)}}, out;
  SimStats st;
  EXPECT_EQ(run(p, hw, in, out, st, opts), "");
  return st;
}

} // namespace

TEST(SimTimeline, OffByDefault) {
  HardwareDesc hw = tinyHardware();
  SimStats st = runOk(program(hw), hw, SimOptions{});
  EXPECT_EQ(st.timeline.binCycles, 0u);
  EXPECT_TRUE(st.timeline.peBusy.empty());
  EXPECT_TRUE(st.timeline.layerSpans.empty());
}

TEST(SimTimeline, BinsHoldTheBusyCyclesAndMacs) {
  HardwareDesc hw = tinyHardware();
  SimOptions opts;
  opts.timeline = true;
  SimStats st = runOk(program(hw), hw, opts);
  const TimelineStats &t = st.timeline;
  // A run shorter than 256 cycles keeps bins of one cycle.
  ASSERT_EQ(t.binCycles, 1u);
  ASSERT_EQ(t.peBusy.size(), 1u);
  EXPECT_EQ(t.peBusy[0].size(), st.cycles);
  EXPECT_DOUBLE_EQ(sum(t.peBusy[0]), double(st.clusters[0].peBusyCycles));
  EXPECT_NEAR(sum(t.macs[0]), double(st.macs), 1e-9);
  EXPECT_EQ(st.macs, 256u);
  for (double b : t.peBusy[0])
    EXPECT_LE(b, 1.0 + 1e-12); // one PE array, one cycle per bin
}

TEST(SimTimeline, LayerSpansPerCluster) {
  HardwareDesc hw = tinyHardware();
  SimOptions opts;
  opts.timeline = true;
  SimStats st = runOk(program(hw), hw, opts);
  ASSERT_EQ(st.timeline.layerSpans.size(), 2u);
  for (size_t l = 0; l < 2; ++l) {
    const TimelineStats::Span &s = st.timeline.layerSpans[l];
    EXPECT_EQ(s.cluster, 0u);
    EXPECT_EQ(s.layer, l);
    // One cluster: its spans are the layers' spans.
    EXPECT_EQ(s.first, st.layers[l].firstCycle);
    EXPECT_EQ(s.last, st.layers[l].lastCycle);
  }
}

TEST(SimTimeline, BinsWidenWithoutLosingActivity) {
  sim::ActivityBins bins;
  bins.init(2, 4);
  bins.add(0, 0, 2, 2, 10);   // bins of 1: [0, 4)
  bins.add(1, 3, 9, 6, 60);   // -> bins of 4: [0, 16)
  bins.add(0, 30, 34, 4, 40); // -> bins of 16: [0, 64)
  TimelineStats t;
  bins.finish(40, t);
  EXPECT_EQ(t.binCycles, 16u);
  ASSERT_EQ(t.peBusy[0].size(), 3u); // 40 cycles
  EXPECT_DOUBLE_EQ(t.peBusy[0][0], 2);
  EXPECT_DOUBLE_EQ(t.peBusy[0][1], 2); // [30, 32)
  EXPECT_DOUBLE_EQ(t.peBusy[0][2], 2); // [32, 34)
  EXPECT_DOUBLE_EQ(t.macs[0][1], 20);
  EXPECT_DOUBLE_EQ(t.peBusy[1][0], 6);
  EXPECT_DOUBLE_EQ(t.macs[1][0], 60);
  // A run that goes on after the last PE work widens the bins again.
  bins.finish(100, t);
  EXPECT_EQ(t.binCycles, 32u);
  ASSERT_EQ(t.peBusy[0].size(), 4u);
  EXPECT_DOUBLE_EQ(t.peBusy[0][0], 4);
}

TEST(SimTimeline, ProgressCountsCommandsAndLayers) {
  HardwareDesc hw = tinyHardware();
  std::vector<SimProgress> seen;
  SimOptions opts;
  opts.progressEvery = 2;
  opts.progress = [&](const SimProgress &p) { seen.push_back(p); };
  runOk(program(hw), hw, opts);
  // 7 commands: after the 2nd, 4th and 6th.
  ASSERT_EQ(seen.size(), 3u);
  EXPECT_EQ(seen[0].commandsDone, 2u);
  EXPECT_EQ(seen[2].commandsDone, 6u);
  for (const SimProgress &p : seen) {
    EXPECT_EQ(p.commandsTotal, 7u);
    EXPECT_EQ(p.layersTotal, 2u);
  }
  EXPECT_EQ(seen[0].layersDone, 1u); // "copy": both its commands
  EXPECT_EQ(seen[2].layersDone, 1u); // "mm" has one command left
  EXPECT_LE(seen[0].cycle, seen[1].cycle);
  EXPECT_LE(seen[1].cycle, seen[2].cycle);
}
