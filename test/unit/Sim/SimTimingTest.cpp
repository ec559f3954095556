//===- SimTimingTest.cpp - Cycle model on hand-computed cases -------------===//
//
// tinyHardware(): 2 PEs x 8 MAC lanes, 4 SFU lanes, storage 16 B/cycle,
// LD activations 16 B/cycle, LD weights 8 B/cycle, MAC latency 4, SFU
// latency 8, command issue 1, barrier 20, one channel of 16 B/cycle with a
// 10-cycle latency. Every expected number below is worked out in comments
// from the formulas of docs/simulator.md.
//
//===----------------------------------------------------------------------===//
#include "SimTestUtil.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cstdio>
#include <fstream>

using namespace accel;
using namespace accel::test;

namespace {

SimStats runOk(const Program &p, const HardwareDesc &hw,
               const SimOptions &opts = SimOptions{}) {
  std::map<std::string, Tensor> out;
  SimStats st;
  std::string e = run(p, hw, {}, out, st, opts);
  EXPECT_EQ(e, "");
  return st;
}

/// The EXECUTE of the ExecuteCosts test: 76 cycles on the PE array.
/// The MAC has the sfu bit (chained SFU mode), so the ST's relu costs only
/// the SFU latency.
std::vector<Instruction> gemmInstrs() {
  Instruction m = mac(0, 0, rec(0, 4, 8, 0, 1, 2, 8)); // 2*8*8/8 + 4 = 20
  m.fields.sfuActive = true;
  return {ldActs(0, rec(0, 4, 8, 8, 1, 2)), // 128 B / 16 = 8
          ldWeights(rec(512, 8, 8, 8)),     // 256 B / 8 = 32
          m, stAcc(0, rec(1024, 4, 8, 8, 1, 2), SfuFunc::Relu)}; // 8 + 8 = 16
}

} // namespace

TEST(SimTiming, DmaLatencyPlusBytesOverBandwidth) {
  HardwareDesc hw = tinyHardware();
  Program p = makeProgram(hw, 1024);
  // 256 B: issued 0..1, start 1, 10 + 256/16 = 26 cycles, done 27.
  p.clusters[0].commands = {dma2d(DmaDir::Load, 0, 0, 0, 4, 16, 16, 16),
                            waitCmd(1)};
  SimStats st = runOk(p, hw);
  EXPECT_EQ(st.cycles, 27u);
  EXPECT_EQ(st.channels[0].busyCycles, 26u);
  EXPECT_EQ(st.channels[0].bytes, 256u);
  EXPECT_EQ(st.clusters[0].stallCycles, 25u); // WAIT issued at 2, ends at 27
  EXPECT_EQ(st.clusters[0].dmaBytes, 256u);
  EXPECT_EQ(st.dramBytesRead, 256u);
  EXPECT_EQ(st.storageBytesWritten, 256u);
  // 100 B: 10 + ceil(100/16) = 17 cycles, done 18.
  p.clusters[0].commands = {dma2d(DmaDir::Load, 0, 0, 0, 1, 25, 25, 25),
                            waitCmd(1)};
  EXPECT_EQ(runOk(p, hw).cycles, 18u);
  // A WAIT on a tag nobody used costs only its issue.
  p.clusters[0].commands = {waitCmd(1 << 5)};
  EXPECT_EQ(runOk(p, hw).cycles, 1u);
  // DramCopy moves the bytes twice over the channel: 10 + 512/16 = 42.
  p.clusters[0].commands = {dma2d(DmaDir::DramCopy, 0, 0, 512, 4, 16, 16, 16),
                            waitCmd(1)};
  st = runOk(p, hw);
  EXPECT_EQ(st.cycles, 43u);
  EXPECT_EQ(st.channels[0].bytes, 512u);
  EXPECT_EQ(st.dramBytesRead, 256u);
  EXPECT_EQ(st.dramBytesWritten, 256u);
}

TEST(SimTiming, DmaPipelinedChannel) {
  // max_outstanding 4 on the 10-cycle, 16 B/cycle channel: a DMA holds the
  // channel for its beats + ceil(10 / 4) = 3 cycles and completes 10
  // cycles after its start plus its beats.
  HardwareDesc hw = tinyHardware();
  hw.channels[0].maxOutstanding = 4;
  Program p = makeProgram(hw, 1024);
  // 256 B: issued 0..1, start 1, held 16 + 3 = 19, done 1 + 10 + 16 = 27.
  p.clusters[0].commands = {dma2d(DmaDir::Load, 0, 0, 0, 4, 16, 16, 16),
                            waitCmd(1)};
  SimStats st = runOk(p, hw);
  EXPECT_EQ(st.cycles, 27u);
  EXPECT_EQ(st.channels[0].busyCycles, 19u);
  // Two 256-B loads on tags 0 and 1: the first starts at 1 (held to 20),
  // the second is issued at 2 and starts at 20, done 20 + 26 = 46; the
  // serial model (max_outstanding 1) would start it at 27 and end at 53.
  p.clusters[0].commands = {dma2d(DmaDir::Load, 0, 0, 0, 4, 16, 16, 16),
                            dma2d(DmaDir::Load, 1, 256, 256, 4, 16, 16, 16),
                            waitCmd(3)};
  st = runOk(p, hw);
  EXPECT_EQ(st.cycles, 46u);
  EXPECT_EQ(st.channels[0].busyCycles, 38u);
  hw.channels[0].maxOutstanding = 1;
  EXPECT_EQ(runOk(p, hw).cycles, 53u);
  // Small transfers are bound by the per-request share: eight 16-B loads
  // hold the channel 1 + 3 cycles each (starts 1, 5, ..., 29), the last
  // done at 29 + 10 + 1 = 40.
  hw.channels[0].maxOutstanding = 4;
  p.clusters[0].commands.clear();
  for (uint32_t i = 0; i < 8; ++i)
    p.clusters[0].commands.push_back(
        dma2d(DmaDir::Load, 0, 16 * i, 16 * i, 1, 4, 4, 4));
  p.clusters[0].commands.push_back(waitCmd(1));
  EXPECT_EQ(runOk(p, hw).cycles, 40u);
}

TEST(SimTiming, ExecuteCosts) {
  HardwareDesc hw = tinyHardware();
  Program p = makeProgram(hw, 64);
  // CONFIG 0..1; EXECUTE issued 1..2, PE array 2..78 (8+32+20+16 = 76);
  // WAIT pe ends at 78.
  p.clusters[0].commands = {config(0, gemmInstrs()), execute(0, true, true),
                            waitCmd(0, true)};
  SimStats st = runOk(p, hw);
  EXPECT_EQ(st.cycles, 78u);
  EXPECT_EQ(st.clusters[0].peBusyCycles, 76u);
  EXPECT_EQ(st.macs, 4u * 8 * 8);
  EXPECT_DOUBLE_EQ(st.macUtilisation, 256.0 / (78.0 * 1 * 2 * 8));
  EXPECT_DOUBLE_EQ(st.clusters[0].peUtilisation, 76.0 / 78.0);
  EXPECT_EQ(st.storageBytesRead, 128u + 256);
  EXPECT_EQ(st.storageBytesWritten, 128u);
  // Without WAIT the control unit finishes at 2 but the PE array at 78.
  p.clusters[0].commands.pop_back();
  EXPECT_EQ(runOk(p, hw).cycles, 78u);
}

TEST(SimTiming, SpuRepeatAndSkippedStore) {
  HardwareDesc hw = tinyHardware();
  Program p = makeProgram(hw, 64);
  Instruction m = mac(0, 0, rec(0, 2, 8, 0, 1, 0, 8)); // 128/8 + 4 = 20
  m.operands.repeat = 2;                               // x2 = 40
  p.clusters[0].commands = {
      config(0, {spu(SpuType::Unary, 0, 1, rec(0, 4, 8, 0), SfuFunc::Relu),
                 // 4*8/4 + 8 = 16
                 m, stAcc(0, rec(0, 2, 8, 8))}), // skipped: not last
      execute(0, false, false), waitCmd(0, true)};
  SimStats st = runOk(p, hw);
  EXPECT_EQ(st.clusters[0].peBusyCycles, 56u);
  EXPECT_EQ(st.cycles, 58u); // PE array 2..58
  EXPECT_EQ(st.storesSkipped, 1u);
  EXPECT_EQ(st.instructionCounts["MAC"], 2u);
  EXPECT_EQ(st.instructionCounts["SPU"], 1u);
  EXPECT_EQ(st.instructionCounts["ST"], 0u);
  // Two EXECUTEs queue on the PE array: 2..58 and 58..114.
  p.clusters[0].commands = {p.clusters[0].commands[0], execute(0, false, false),
                            execute(0, false, false), waitCmd(0, true)};
  EXPECT_EQ(runOk(p, hw).cycles, 114u);
}

TEST(SimTiming, DmaOverlapsExecute) {
  HardwareDesc hw = tinyHardware();
  Program p = makeProgram(hw, 1024);
  // DMA 1..27 (to storage 4096, not read by the EXECUTE); CONFIG 1..2;
  // EXECUTE issued 2..3, PE array 3..79; WAIT tag 0 + pe ends at 79.
  p.clusters[0].commands = {dma2d(DmaDir::Load, 0, 0, 4096, 4, 16, 16, 16),
                            config(0, gemmInstrs()), execute(0, true, true),
                            waitCmd(1, true)};
  SimStats st = runOk(p, hw);
  EXPECT_EQ(st.cycles, 79u); // not 27 + 76
  EXPECT_EQ(st.hazardCount, 0u);
}

TEST(SimTiming, ChannelSharedByTwoClusters) {
  HardwareDesc hw = tinyHardware(1, 2); // one channel for both clusters
  Program p = makeProgram(hw, 1024);
  for (auto &c : p.clusters)
    c.commands = {dma2d(DmaDir::Load, 0, 0, 0, 4, 16, 16, 16), waitCmd(1)};
  // Cluster 0: 1..27. Cluster 1: issued at 1, waits for the channel: 27..53.
  SimStats st = runOk(p, hw);
  EXPECT_EQ(st.cycles, 53u);
  EXPECT_EQ(st.clusters[0].finishCycle, 27u);
  EXPECT_EQ(st.clusters[1].finishCycle, 53u);
  EXPECT_EQ(st.channels[0].busyCycles, 52u);
  EXPECT_EQ(st.channels[0].transfers, 2u);
  EXPECT_DOUBLE_EQ(st.channels[0].utilisation, 52.0 / 53.0);
  // Two channels: a DMA is charged to the channel of its DRAM addresses
  // (docs/simulator.md "Memory channels"), not to the cluster's channel.
  // Both loads read address 0, in channel 0's region [0, 512 KiB): cluster
  // 1 (local channel 1) queues behind cluster 0 on channel 0 and pays the
  // remote hops: channelHops(1, 0) = 1 + meshHops(1, router 0) = 2, extra
  // 2 * (2 - 1) * hopLatency 2 = 4: start 27, 10 + 4 + 256/16 = 30, done 57.
  hw.channels = {MemoryChannel{16, 10, 1}, MemoryChannel{16, 10, 1}};
  p.hwFingerprint = hw.fingerprint();
  st = runOk(p, hw);
  EXPECT_EQ(st.cycles, 57u);
  EXPECT_EQ(st.clusters[1].channel, 1u);
  EXPECT_EQ(st.channels[0].bytes, 512u);
  EXPECT_EQ(st.channels[0].localBytes, 256u);
  EXPECT_EQ(st.channels[0].remoteBytes, 256u);
  EXPECT_EQ(st.channels[0].busyCycles, 26u + 30u);
  EXPECT_EQ(st.channels[1].bytes, 0u);
  EXPECT_EQ(st.dramLocalBytes, 256u);
  EXPECT_EQ(st.dramRemoteBytes, 256u);
  EXPECT_EQ(st.clusters[1].dramBytes, 256u);
  EXPECT_EQ(st.clusters[1].dramRemoteBytes, 256u);
  // With cluster 1's data in its own channel's region (512 KiB) both
  // finish at 27.
  const uint64_t region = hw.channelRegionBytes();
  ASSERT_EQ(region, 512u * 1024);
  p.dramSize = 1 << 20;
  p.clusters[1].commands[0] = dma2d(DmaDir::Load, 0, region, 0, 4, 16, 16, 16);
  st = runOk(p, hw);
  EXPECT_EQ(st.cycles, 27u);
  EXPECT_EQ(st.channels[1].localBytes, 256u);
  EXPECT_EQ(st.dramRemoteBytes, 0u);
  // Asymmetric channels: channel 1 is 4x slower: 10 + 64 = 74.
  hw.channels[1].bytesPerCycle = 4;
  st = runOk(p, hw);
  EXPECT_EQ(st.clusters[0].finishCycle, 27u);
  EXPECT_EQ(st.clusters[1].finishCycle, 75u);
}

TEST(SimTiming, Barrier) {
  HardwareDesc hw = tinyHardware(1, 2);
  Program p = makeProgram(hw, 1024);
  // Cluster 0: DMA 1..27, WAIT to 27, BARRIER issued 27..28.
  // Cluster 1: BARRIER issued 0..1, waits. Release at 28 + 20 = 48.
  // Cluster 1 then: DMA issued 48..49, channel free since 27: 49..75;
  // WAIT ends at 75.
  p.clusters[0].commands = {dma2d(DmaDir::Load, 0, 0, 0, 4, 16, 16, 16),
                            waitCmd(1), barrier(7)};
  p.clusters[1].commands = {
      barrier(7), dma2d(DmaDir::Load, 0, 0, 0, 4, 16, 16, 16), waitCmd(1)};
  SimStats st = runOk(p, hw);
  EXPECT_EQ(st.cycles, 75u);
  EXPECT_EQ(st.clusters[0].finishCycle, 48u);
  EXPECT_EQ(st.clusters[0].stallCycles, 25u + 20u);
  EXPECT_EQ(st.clusters[1].stallCycles, 47u + 25u);
  EXPECT_EQ(st.commandCounts["BARRIER"], 2u);
}

TEST(SimTiming, StatsJsonAndTrace) {
  HardwareDesc hw = tinyHardware(1, 2);
  Program p = makeProgram(hw, 1024);
  p.clusters[0].commands = {dma2d(DmaDir::Load, 0, 0, 4096, 4, 16, 16, 16),
                            config(0, gemmInstrs()), execute(0, true, true),
                            waitCmd(1, true), barrier(1)};
  p.clusters[1].commands = {barrier(1)};
  SimOptions opts;
  opts.tracePath = ::testing::TempDir() + "/accel-sim-trace.json";
  std::remove(opts.tracePath.c_str());
  SimStats st = runOk(p, hw, opts);

  nlohmann::json j = nlohmann::json::parse(statsToJson(st));
  EXPECT_EQ(j["hardware"], "tiny");
  EXPECT_EQ(j["cycles"], st.cycles);
  EXPECT_EQ(j["macs"], 256);
  EXPECT_EQ(j["commands"]["EXECUTE"], 1);
  EXPECT_EQ(j["commands"]["BARRIER"], 2);
  EXPECT_EQ(j["instructions"]["LD"], 2);
  EXPECT_EQ(j["clusters"].size(), 2u);
  EXPECT_EQ(j["clusters"][0]["pe_busy_cycles"], 76);
  EXPECT_EQ(j["clusters"][1]["row"], 0);
  EXPECT_EQ(j["clusters"][1]["col"], 1);
  EXPECT_EQ(j["channels"][0]["bytes"], 256);
  for (const char *k :
       {"time_us", "mac_utilisation", "dram_bytes_read", "dram_bytes_written",
        "storage_bytes_read", "storage_bytes_written", "energy_pj",
        "stores_skipped", "hazards", "wall_seconds"})
    EXPECT_TRUE(j.contains(k)) << k;
  EXPECT_DOUBLE_EQ(j["energy_pj"]["mac"].get<double>(), 256 * hw.pjPerMac);
  EXPECT_DOUBLE_EQ(j["energy_pj"]["static"].get<double>(),
                   double(st.cycles) * 2 * hw.staticPjPerClusterCycle);

  std::ifstream in(opts.tracePath);
  ASSERT_TRUE(in.good());
  nlohmann::json t = nlohmann::json::parse(in);
  ASSERT_TRUE(t["traceEvents"].is_array());
  bool sawName = false, sawChannels = false, sawExec = false, sawDma = false,
       sawChannelDma = false, sawBarrier = false;
  for (auto &e : t["traceEvents"]) {
    if (e["ph"] == "M" && e["name"] == "process_name") {
      sawName |= e["args"]["name"] == "cluster (0,1)" && e["pid"] == 1;
      sawChannels |= e["args"]["name"] == "channels" && e["pid"] == 2;
    }
    if (e["ph"] != "X")
      continue;
    if (e["pid"] == 0 && e["tid"] == 1) {
      sawExec = true;
      EXPECT_EQ(e["ts"], 3);
      EXPECT_EQ(e["dur"], 76);
    }
    if (e["pid"] == 0 && e["tid"] == 2) {
      sawDma = true;
      EXPECT_EQ(e["ts"], 1);
      EXPECT_EQ(e["dur"], 26);
    }
    sawChannelDma |= e["pid"] == 2 && e["tid"] == 0;
    sawBarrier |= e["pid"] == 1 && e["tid"] == 0 &&
                  e["name"].get<std::string>().rfind("BARRIER", 0) == 0;
  }
  EXPECT_TRUE(sawName && sawChannels && sawExec && sawDma && sawChannelDma &&
              sawBarrier);
}

// A full EXECUTE-heavy workload simulates quickly (a sanity check of the
// host kernels, not a timing assertion): 64 K-split steps of a 64x64x64
// matmul per cluster on the default hardware.
TEST(SimTiming, DefaultHardwareWorkload) {
  HardwareDesc hw = defaultHardware();
  Program p = makeProgram(hw, 1 << 20);
  for (auto &c : p.clusters) {
    c.commands.push_back(config(0, {ldActs(0, rec(0, 64, 64, 64, 1, 16)),
                                    ldWeights(rec(16384, 64, 64, 64)),
                                    mac(0, 0, rec(0, 64, 64, 0, 1, 16, 64)),
                                    stAcc(0, rec(32768, 64, 64, 64, 1, 16))}));
    for (int i = 0; i < 64; ++i)
      c.commands.push_back(execute(0, i == 63, i == 63));
    c.commands.push_back(waitCmd(0, true));
  }
  SimStats st = runOk(p, hw);
  EXPECT_EQ(st.macs, 4u * 64 * 64 * 64 * 64);
  // Per EXECUTE: 16 KiB/256 + 16 KiB/256 + 16*64*64/64 + 4 (+ ST 64 once).
  EXPECT_EQ(st.clusters[0].peBusyCycles, 64u * (64 + 64 + 1024 + 4) + 64);
}
