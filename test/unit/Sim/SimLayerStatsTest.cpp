//===- SimLayerStatsTest.cpp - Per-layer statistics and the ideal bound ---===//
//
// Hand-built programs with a layer table on tinyHardware() (2 PEs x 8 MAC
// lanes = 16 MACs/cycle per cluster, one DRAM channel of 16 B/cycle with a
// 10-cycle latency, command issue 1). Every expected number is worked out
// in comments from docs/simulator.md ("Timing", "Per-layer statistics").
//
//===----------------------------------------------------------------------===//
#include "SimTestUtil.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cstdio>
#include <fstream>
#include <set>

using namespace accel;
using namespace accel::test;

namespace {

SimStats runOk(const Program &p, const HardwareDesc &hw,
               const SimOptions &opts = SimOptions{}) {
  std::map<std::string, Tensor> out;
  SimStats st;
  std::map<std::string, Tensor> in;
  for (const Symbol &s : p.symbols)
    if (s.isInput)
      in[s.name] = tensor(s.shape, 1);
  std::string e = run(p, hw, in, out, st, opts);
  EXPECT_EQ(e, "");
  return st;
}

Command inLayer(Command c, uint32_t layer) {
  c.layer = layer;
  return c;
}

LayerInfo layerInfo(std::string name, std::string op, uint64_t macs,
                    uint64_t compulsory, uint64_t weights) {
  LayerInfo l;
  l.name = std::move(name);
  l.opKind = std::move(op);
  l.macs = macs;
  l.compulsoryBytes = compulsory;
  l.weightBytes = weights;
  return l;
}

/// Layer 0 "x_load" loads the input x (4 x 16 f32, DRAM 0) into storage 0;
/// layer 1 "fc" loads the weights (8 x 8, DRAM 1024) into storage 512, runs
/// a 4x8x8 GEMM with relu and stores the 4 x 8 result y to DRAM 2048.
///
///  0 DMA load x     issued 0..1, channel 1..27 (10 + 256/16 = 26)  [L0]
///  1 WAIT tag 0     1 -> 27                                        [L0]
///  2 DMA load w     27..28, channel 28..54 (26)                    [L1]
///  3 CONFIG         28..29                                         [L1]
///  4 WAIT tag 1     29 -> 54                                       [L1]
///  5 EXECUTE        54..55, PE array 55..131 (8+32+20+16 = 76)     [L1]
///  6 WAIT pe        55 -> 131                                      [L1]
///  7 DMA store y    131..132, channel 132..150 (10 + 128/16 = 18)  [L1]
///  8 WAIT tag 2     132 -> 150                                     [L1]
Program twoLayerProgram(const HardwareDesc &hw) {
  Program p = makeProgram(hw, 4096);
  p.symbols = {sym("x", true, {4, 16}, 0), sym("y", false, {4, 8}, 2048)};
  p.constants.push_back({1024, bytesOf(pattern(64, 7))});
  Instruction m = mac(0, 0, rec(0, 4, 8, 0, 1, 2, 8));
  m.fields.sfuActive = true;
  std::vector<Instruction> gemm = {
      ldActs(0, rec(0, 4, 8, 8, 1, 2)), ldWeights(rec(512, 8, 8, 8)), m,
      stAcc(0, rec(1024, 4, 8, 8, 1, 2), SfuFunc::Relu)};
  p.clusters[0].commands = {
      inLayer(dma2d(DmaDir::Load, 0, 0, 0, 4, 16, 16, 16), 0),
      inLayer(waitCmd(1), 0),
      inLayer(dma2d(DmaDir::Load, 1, 1024, 512, 8, 8, 8, 8), 1),
      inLayer(config(0, gemm), 1),
      inLayer(waitCmd(1 << 1), 1),
      inLayer(execute(0, true, true), 1),
      inLayer(waitCmd(0, true), 1),
      inLayer(dma2d(DmaDir::Store, 2, 1024, 2048, 4, 8, 8, 8), 1),
      inLayer(waitCmd(1 << 2), 1)};
  // x_load: compulsory = x (256 B); fc: w (256 B) + y (128 B).
  p.layers = {layerInfo("x_load", "Identity", 0, 256, 0),
              layerInfo("fc", "MatMul", 256, 384, 256)};
  return p;
}

} // namespace

TEST(SimLayerStats, TwoLayersCyclesBytesAndMacs) {
  HardwareDesc hw = tinyHardware();
  SimStats st = runOk(twoLayerProgram(hw), hw);
  ASSERT_EQ(st.cycles, 150u);
  ASSERT_EQ(st.layers.size(), 2u);
  const LayerStats &a = st.layers[0], &b = st.layers[1];
  EXPECT_EQ(a.id, 0u);
  EXPECT_EQ(a.name, "x_load");
  EXPECT_EQ(a.op, "Identity");
  EXPECT_EQ(a.commands, 2u);
  EXPECT_EQ(a.firstCycle, 0u);
  EXPECT_EQ(a.lastCycle, 27u);
  EXPECT_EQ(a.cycles, 27u);
  EXPECT_EQ(a.busy.dma, 26u);
  EXPECT_EQ(a.busy.pe, 0u);
  EXPECT_EQ(a.macs, 0u);
  EXPECT_EQ(a.dramBytesRead, 256u);
  EXPECT_EQ(a.dramBytesWritten, 0u);
  EXPECT_EQ(a.storageBytes, 256u);
  EXPECT_EQ(a.spillBytes, 0u);

  EXPECT_EQ(b.commands, 7u);
  EXPECT_EQ(b.firstCycle, 27u); // the weight DMA's issue
  EXPECT_EQ(b.lastCycle, 150u); // the store's completion
  EXPECT_EQ(b.cycles, 123u);
  EXPECT_LE(a.lastCycle, b.firstCycle);
  EXPECT_EQ(b.busy.pe, 76u);
  EXPECT_EQ(b.busy.sfu, 8u);       // the chained relu: SFU latency only
  EXPECT_EQ(b.busy.dma, 26u + 18); // weights + y
  EXPECT_EQ(b.busy.mesh, 0u);
  EXPECT_EQ(b.macs, 256u);
  EXPECT_EQ(b.modelMacs, 256u);
  EXPECT_EQ(b.dramBytesRead, 256u);
  EXPECT_EQ(b.dramBytesWritten, 128u);
  // DMA w writes 256, LD acts 128 + LD weights 256 read, ST 128 written,
  // DMA y reads 128.
  EXPECT_EQ(b.storageBytes, 256u + 128 + 256 + 128 + 128);
  EXPECT_EQ(b.spillBytes, 0u); // y is a network output
  EXPECT_EQ(a.storageBytes + b.storageBytes,
            st.storageBytesRead + st.storageBytesWritten);
  EXPECT_EQ(st.unattributed.commands, 0u);
}

TEST(SimLayerStats, RooflineBoundsAndLimits) {
  HardwareDesc hw = tinyHardware();
  SimStats st = runOk(twoLayerProgram(hw), hw);
  ASSERT_EQ(st.layers.size(), 2u);
  const LayerStats &a = st.layers[0], &b = st.layers[1];
  // Peak 1 x 2 x 8 = 16 MACs/cycle, DRAM 16 B/cycle.
  // x_load: max(0 / 16, 256 / 16) = 16 (memory), 27 / 16.
  EXPECT_DOUBLE_EQ(a.rooflineBound, 16.0);
  EXPECT_EQ(a.boundKind, "memory");
  EXPECT_DOUBLE_EQ(a.boundRatio, 27.0 / 16.0);
  EXPECT_EQ(a.limit, "dma");
  EXPECT_DOUBLE_EQ(a.limitOccupancy, 26.0 / 27.0);
  EXPECT_DOUBLE_EQ(a.macUtilisation, 0.0);
  // fc: max(256 / 16 = 16, 384 / 16 = 24) = 24 (memory), 123 / 24.
  EXPECT_DOUBLE_EQ(b.rooflineBound, 24.0);
  EXPECT_EQ(b.boundKind, "memory");
  EXPECT_DOUBLE_EQ(b.boundRatio, 123.0 / 24.0);
  EXPECT_DOUBLE_EQ(b.macUtilisation, 256.0 / (123.0 * 16));
  EXPECT_EQ(b.limit, "pe"); // 76 PE cycles against 44 channel cycles
  EXPECT_DOUBLE_EQ(b.limitOccupancy, 76.0 / 123.0);

  // Network: compulsory = weights 256 + x 256 + y 128 = 640 B; bound =
  // max(256 / 16, 640 / 16) = 40 cycles; 150 / 40.
  EXPECT_EQ(st.compulsoryBytes, 640u);
  EXPECT_EQ(st.idealMacs, 256u);
  EXPECT_DOUBLE_EQ(st.idealBoundCycles, 40.0);
  EXPECT_DOUBLE_EQ(st.idealRatio, 150.0 / 40.0);

  // A compute-bound layer: 4096 model MACs are 256 cycles > 24.
  Program p = twoLayerProgram(hw);
  p.layers[1].macs = 4096;
  st = runOk(p, hw);
  EXPECT_DOUBLE_EQ(st.layers[1].rooflineBound, 256.0);
  EXPECT_EQ(st.layers[1].boundKind, "compute");
  EXPECT_DOUBLE_EQ(st.idealBoundCycles, 256.0);
}

TEST(SimLayerStats, UnattributedCommandsAndUnusedLayers) {
  HardwareDesc hw = tinyHardware();
  Program p = twoLayerProgram(hw);
  // The final WAIT belongs to no layer; a third layer has no command.
  p.clusters[0].commands.back().layer = Command::kNoLayer;
  p.layers.push_back(layerInfo("unused", "Relu", 0, 0, 0));
  SimStats st = runOk(p, hw);
  ASSERT_EQ(st.layers.size(), 3u);
  EXPECT_EQ(st.layers[1].commands, 6u);
  EXPECT_EQ(st.layers[1].lastCycle, 150u); // the store DMA still ends there
  EXPECT_EQ(st.unattributed.commands, 1u);
  EXPECT_EQ(st.unattributed.firstCycle, 132u);
  EXPECT_EQ(st.unattributed.lastCycle, 150u);
  EXPECT_EQ(st.unattributed.id, Command::kNoLayer);
  EXPECT_DOUBLE_EQ(st.unattributed.rooflineBound, 0.0);
  const LayerStats &u = st.layers[2];
  EXPECT_EQ(u.commands, 0u);
  EXPECT_EQ(u.firstCycle, 0u);
  EXPECT_EQ(u.lastCycle, 0u);
  EXPECT_EQ(u.cycles, 0u);
  EXPECT_EQ(u.limit, "none");
  // A layer id beyond the table counts as unattributed.
  p.clusters[0].commands[0].layer = 7;
  st = runOk(p, hw);
  EXPECT_EQ(st.unattributed.commands, 2u);
  EXPECT_EQ(st.unattributed.firstCycle, 0u);
}

TEST(SimLayerStats, SpillBytesAreDramWritesOutsideOutputs) {
  HardwareDesc hw = tinyHardware();
  Program p = twoLayerProgram(hw);
  // Layer 0 also writes 4 x 16 f32 to a scratch DRAM area (an intermediate).
  auto &cmds = p.clusters[0].commands;
  cmds.insert(cmds.begin() + 2,
              inLayer(dma2d(DmaDir::Store, 3, 0, 3072, 4, 16, 16, 16), 0));
  // A strided store partly inside y ([2048, 2176)): 4 rows of 4 f32 with a
  // row stride of 16 elements at DRAM 1920 span [1920, 2128); 128 of those
  // 208 bytes lie outside y, so 64 * 128 / 208 = 39 payload bytes count.
  cmds.insert(cmds.begin() + 3,
              inLayer(dma2d(DmaDir::Store, 4, 0, 1920, 4, 4, 16, 16), 0));
  cmds.insert(cmds.begin() + 4, inLayer(waitCmd((1 << 3) | (1 << 4)), 0));
  SimStats st = runOk(p, hw);
  EXPECT_EQ(st.layers[0].dramBytesWritten, 256u + 64);
  EXPECT_EQ(st.layers[0].spillBytes, 256u + 39);
  EXPECT_EQ(st.layers[1].spillBytes, 0u);
}

TEST(SimLayerStats, ClustersBarrierAndMesh) {
  HardwareDesc hw = tinyHardware(1, 2);
  Program p = makeProgram(hw, 4096);
  p.symbols = {sym("x", true, {4, 16}, 0)};
  // Layer 0 on both clusters: cluster 0 loads x (1..27), cluster 1 only
  // waits; both meet at barrier 0 (release max(arrival) + 20). Layer 1:
  // cluster 0 sends 64 B to cluster 1, which receives it.
  p.clusters[0].commands = {
      inLayer(dma2d(DmaDir::Load, 0, 0, 0, 4, 16, 16, 16), 0),
      inLayer(waitCmd(1), 0), inLayer(barrier(0), 0),
      inLayer(sendCmd({1}, 0, 1024, 64, 0, 1), 1), inLayer(waitCmd(1 << 1), 1)};
  p.clusters[1].commands = {inLayer(barrier(0), 0), inLayer(recvCmd(0), 1)};
  p.layers = {layerInfo("load", "Identity", 0, 256, 0),
              layerInfo("send", "Identity", 0, 0, 0)};
  SimOptions opts;
  opts.tracePath = ::testing::TempDir() + "/accel-layer-trace.json";
  std::remove(opts.tracePath.c_str());
  SimStats st = runOk(p, hw, opts);
  const LayerStats &a = st.layers[0], &b = st.layers[1];
  // Cluster 0 reaches the barrier at 28 (WAIT ends 27, + 1 issue), the
  // release is at 48: layer 0 lasts until the release.
  EXPECT_EQ(a.firstCycle, 0u);
  EXPECT_EQ(a.lastCycle, 48u);
  EXPECT_EQ(a.commands, 4u);
  EXPECT_EQ(b.firstCycle, 48u);
  EXPECT_EQ(b.lastCycle, st.cycles);
  EXPECT_EQ(b.meshBytes, 64u);
  EXPECT_GT(b.busy.mesh, 0u);
  EXPECT_EQ(b.limit, "mesh");
  EXPECT_EQ(b.commands, 3u);

  // The trace: a "layers" track per cluster with one span per layer there.
  std::ifstream in(opts.tracePath);
  ASSERT_TRUE(in.good());
  nlohmann::json t = nlohmann::json::parse(in);
  std::set<std::pair<int, std::string>> spans, tracks;
  for (auto &e : t["traceEvents"]) {
    if (e["ph"] == "M" && e["name"] == "thread_name" && e["tid"] == 3)
      tracks.insert({e["pid"].get<int>(), e["args"]["name"]});
    if (e["ph"] == "X" && e["tid"] == 3) {
      spans.insert({e["pid"].get<int>(), e["name"]});
      if (e["pid"] == 0 && e["name"] == "load") {
        EXPECT_EQ(e["ts"], 0);
        EXPECT_EQ(e["dur"], 48);
        EXPECT_EQ(e["args"]["layer"], 0);
        EXPECT_EQ(e["args"]["op"], "Identity");
      }
    }
  }
  std::set<std::pair<int, std::string>> wantSpans = {
      {0, "load"}, {0, "send"}, {1, "load"}, {1, "send"}};
  EXPECT_EQ(spans, wantSpans);
  std::set<std::pair<int, std::string>> wantTracks = {{0, "layers"},
                                                      {1, "layers"}};
  EXPECT_EQ(tracks, wantTracks);
}

TEST(SimLayerStats, IdealBoundWithoutLayerTable) {
  // A hand-written program: compulsory = every constant segment once (its
  // replica not counted) + the input and output images; MACs = performed.
  HardwareDesc hw = tinyHardware();
  Program p = twoLayerProgram(hw);
  p.layers.clear();
  for (Command &c : p.clusters[0].commands)
    c.layer = Command::kNoLayer;
  p.constants[0].replicas = {3072};
  SimStats st = runOk(p, hw);
  EXPECT_TRUE(st.layers.empty());
  EXPECT_EQ(st.unattributed.commands, 9u);
  EXPECT_EQ(st.unattributed.cycles, 150u);
  EXPECT_EQ(st.compulsoryBytes, 256u + 256 + 128);
  EXPECT_EQ(st.idealMacs, 256u);
  EXPECT_DOUBLE_EQ(st.idealBoundCycles, 40.0);
}

TEST(SimLayerStats, StatsJsonKeys) {
  HardwareDesc hw = tinyHardware();
  Program p = twoLayerProgram(hw);
  p.clusters[0].commands.back().layer = Command::kNoLayer;
  p.layers[1].fused = {"relu"};
  nlohmann::json j = nlohmann::json::parse(statsToJson(runOk(p, hw)));
  EXPECT_DOUBLE_EQ(j["ideal_bound_cycles"].get<double>(), 40.0);
  EXPECT_EQ(j["compulsory_bytes"], 640);
  EXPECT_DOUBLE_EQ(j["ideal_ratio"].get<double>(), 150.0 / 40.0);
  ASSERT_EQ(j["layers"].size(), 2u);
  const nlohmann::json &l = j["layers"][1];
  for (const char *k :
       {"id", "name", "op", "first_cycle", "last_cycle", "cycles",
        "busy_cycles", "macs", "dram_bytes_read", "dram_bytes_written",
        "storage_bytes", "mesh_bytes", "mac_utilisation", "roofline_bound",
        "bound_ratio", "spill_bytes"})
    EXPECT_TRUE(l.contains(k)) << k;
  for (const char *k : {"pe", "dma", "sfu", "mesh"})
    EXPECT_TRUE(l["busy_cycles"].contains(k)) << k;
  EXPECT_EQ(l["id"], 1);
  EXPECT_EQ(l["name"], "fc");
  EXPECT_EQ(l["op"], "MatMul");
  EXPECT_EQ(l["fused"], nlohmann::json::array({"relu"}));
  EXPECT_EQ(l["first_cycle"], 27);
  EXPECT_EQ(l["busy_cycles"]["pe"], 76);
  EXPECT_DOUBLE_EQ(l["roofline_bound"].get<double>(), 24.0);
  EXPECT_TRUE(j["unattributed"]["id"].is_null());
  EXPECT_EQ(j["unattributed"]["commands"], 1);
}
