//===- SimMeshTest.cpp - SEND / SIGNAL / RECV, remote_load, channels ------===//
//
// Mesh transfers, semaphores and memory channels by address on hand-built
// programs. tinyHardware(): storage 16 B/cycle, SFU 4 lanes + 8 latency,
// command issue 1, barrier 20, one channel of 16 B/cycle with latency 10
// (unless a test adds one); the mesh keeps the defaults: hop latency 2,
// 32 B/cycle per link. Every expected number is worked out in the comments
// from the formulas of docs/simulator.md ("Mesh", "Semaphores", "Memory
// channels").
//
//===----------------------------------------------------------------------===//
#include "../../../lib/Sim/MeshModel.h"
#include "SimTestUtil.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cstdio>
#include <fstream>

using namespace accel;
using namespace accel::test;

namespace {

SimOptions strictOpts() {
  SimOptions o;
  o.hazardsAreErrors = true;
  return o;
}

/// relu of the 2 x 8 tile at storage 256 into storage 512 (18 cycles on the
/// PE array: LD 64/16 = 4, SPU ceil(8/4) + 8 = 10, ST 64/16 = 4).
Command reluConfig() {
  return config(
      0, {ldActs(0, rec(256, 2, 8, 8, 1, 1)),
          spu(SpuType::Unary, 0, 1, rec(0, 2, 8, 8, 1, 1), SfuFunc::Relu),
          stInbuf(1, rec(512, 2, 8, 8, 1, 1))});
}

std::vector<float> relu(std::vector<float> v) {
  for (float &x : v)
    x = x > 0 ? x : 0.0f;
  return v;
}

/// Cluster 0 loads x (2 x 8 f32 = 64 B) and SENDs `sendBytes` from storage
/// 0 into cluster 1's storage at 256; cluster 1 (RECV first if `withRecv`)
/// computes relu of the first 64 bytes and stores y.
Program sendRecvProgram(const HardwareDesc &hw, bool withRecv,
                        uint32_t sendBytes) {
  Program p = makeProgram(hw, 4096);
  p.symbols = {sym("x", true, {2, 8}, 0), sym("y", false, {2, 8}, 256)};
  p.clusters[0].commands = {dma2d(DmaDir::Load, 0, 0, 0, 2, 8, 8, 8),
                            waitCmd(1), sendCmd({1}, 0, 256, sendBytes, 0, 1),
                            waitCmd(2)};
  auto &c1 = p.clusters[1].commands;
  if (withRecv)
    c1.push_back(recvCmd(0, 1));
  for (Command c : {reluConfig(), execute(0, false, true), waitCmd(0, true),
                    dma2d(DmaDir::Store, 1, 512, 256, 2, 8, 8, 8), waitCmd(2)})
    c1.push_back(c);
  return p;
}

} // namespace

TEST(SimMesh, SendRecvMovesBytesAndReceiverComputes) {
  HardwareDesc hw = tinyHardware(1, 2);
  Program p = sendRecvProgram(hw, /*withRecv=*/true, 64);
  std::map<std::string, Tensor> in{{"x", tensor({2, 8}, 3)}}, out;
  SimStats st;
  ASSERT_EQ(run(p, hw, in, out, st, strictOpts()), "");
  EXPECT_EQ(out["y"].data, relu(in["x"].data));
  // Cluster 0: load 1..15 (10 + 64/16), WAIT to 15, SEND issued 15..16:
  // one hop, ceil(64/32) = 2: arrives 16 + 2 + 2 = 20, link busy 4; the
  // source is free at 16 + 2 = 18 (WAIT tag 1 issued 17, ends 18).
  // Cluster 1: RECV issued 0..1, resumes at 20 (stall 19); CONFIG 20..21;
  // EXECUTE issued 22, PE array 22..40; WAIT pe 23 -> 40 (stall 17); store
  // issued 41, 41..55; WAIT 42 -> 55 (stall 13).
  EXPECT_EQ(st.cycles, 55u);
  EXPECT_EQ(st.clusters[0].finishCycle, 20u); // its last byte arrives at 20
  EXPECT_EQ(st.clusters[0].stallCycles, 13u + 1u);
  EXPECT_EQ(st.clusters[1].stallCycles, 19u + 17u + 13u);
  EXPECT_EQ(st.hazardCount, 0u);
  EXPECT_EQ(st.commandCounts["SEND"], 1u);
  EXPECT_EQ(st.commandCounts["RECV"], 1u);
  EXPECT_EQ(st.mesh.bytes, 64u);
  EXPECT_EQ(st.mesh.byteHops, 64u);
  EXPECT_EQ(st.mesh.transfers, 1u);
  EXPECT_EQ(st.clusters[0].meshBytesSent, 64u);
  EXPECT_EQ(st.clusters[1].meshBytesReceived, 64u);
  EXPECT_EQ(st.clusters[0].sends, 1u);
  EXPECT_EQ(st.clusters[1].recvs, 1u);
  ASSERT_EQ(st.mesh.links.size(), 1u);
  EXPECT_EQ(st.mesh.links[0].from, 0u);
  EXPECT_EQ(st.mesh.links[0].to, 1u);
  EXPECT_EQ(st.mesh.links[0].busyCycles, 4u);
  EXPECT_EQ(st.mesh.maxLinkBusyCycles, 4u);
  EXPECT_DOUBLE_EQ(st.mesh.maxLinkUtilisation, 4.0 / 55.0);
  EXPECT_DOUBLE_EQ(st.energyMeshPj, 64 * hw.pjPerByteHop);
}

TEST(SimMesh, MissingRecvIsAHazard) {
  HardwareDesc hw = tinyHardware(1, 2);
  std::map<std::string, Tensor> in{{"x", tensor({2, 8}, 4)}}, out;
  SimStats st;
  // A 1 KiB SEND (cluster 1 uses its first 64 bytes): issued 15..16, it
  // arrives at 16 + 2 + 1024/32 = 50. With the RECV, cluster 1 resumes at
  // 50 and computes with the sent values.
  Program p = sendRecvProgram(hw, /*withRecv=*/true, 1024);
  ASSERT_EQ(run(p, hw, in, out, st, strictOpts()), "");
  EXPECT_EQ(out["y"].data, relu(in["x"].data));
  EXPECT_EQ(st.clusters[1].stallCycles - 17u - 13u, 49u); // RECV 1..50
  // Without the RECV, cluster 1 (20 WAITs without tags to cycle 20, CONFIG
  // 20..21, EXECUTE issued 22) reads the destination from cycle 22 while
  // the SEND (issued 16) writes it until 50: strict mode fails.
  p = sendRecvProgram(hw, /*withRecv=*/false, 1024);
  auto &c1 = p.clusters[1].commands;
  c1.insert(c1.begin(), 20, waitCmd(0));
  std::string e = run(p, hw, in, out, st, strictOpts());
  EXPECT_NE(e.find("hazard: cluster (0,1) command 21 (EXECUTE ibuf 0 "
                   "instruction 0) reads the storage unit of cluster (0,1) "
                   "bytes [256, 320) at cycle 22 while cluster (0,0) command "
                   "2 (SEND tag 1 sem 0) writes bytes [256, 1280) until cycle "
                   "50 (missing RECV, WAIT or BARRIER?)"),
            std::string::npos)
      << e;
  // Not strict: warnings, counted. The 1 KiB SEND also covers [512, 576),
  // which the DMA store (issued 41) reads while the SEND is in flight.
  ASSERT_EQ(run(p, hw, in, out, st), "");
  ASSERT_EQ(st.hazardCount, 2u);
  EXPECT_NE(st.hazards[1].find("cluster (0,1) command 23 (DMA store tag 1) "
                               "reads the storage unit of cluster (0,1) "
                               "bytes [512, 576) at cycle 41"),
            std::string::npos)
      << st.hazards[1];
}

TEST(SimMesh, MulticastSharesLinks) {
  HardwareDesc hw = tinyHardware(2, 2);
  Program p = makeProgram(hw, 8192);
  p.symbols = {sym("x", true, {4, 20}, 0), sym("y1", false, {4, 20}, 1024),
               sym("y2", false, {4, 20}, 2048),
               sym("y3", false, {4, 20}, 3072)};
  // 320 bytes to clusters 1, 2, 3. XY routes: 0->1 = {0->1}, 0->2 = {0->2},
  // 0->3 = {0->1, 1->3}: the tree has 3 links (4 link traversals as
  // unicasts). Cluster 0: load 1..31 (10 + 320/16), WAIT to 31, SEND
  // issued 32: ser = 10, longest route 2 hops: links busy 2*2 + 10 = 14;
  // arrivals 1, 2: 32 + 2 + 10 = 44, 3: 32 + 4 + 10 = 46.
  p.clusters[0].commands = {dma2d(DmaDir::Load, 0, 0, 0, 4, 20, 20, 20),
                            waitCmd(1), sendCmd({1, 2, 3}, 0, 4096, 320, 0, 0),
                            waitCmd(1)};
  // Each target RECVs (issued 0..1) and stores what it received. Stores on
  // the one channel: cluster 1 at 44 -> issued 45: 45..75; cluster 2 (also
  // ready at 44, higher index) 75..105; cluster 3 at 46: 105..135.
  for (uint32_t i = 1; i < 4; ++i)
    p.clusters[i].commands = {
        recvCmd(0, 1), dma2d(DmaDir::Store, 0, 4096, 1024 * i, 4, 20, 20, 20),
        waitCmd(1)};
  std::map<std::string, Tensor> in{{"x", tensor({4, 20}, 5)}}, out;
  SimStats st;
  ASSERT_EQ(run(p, hw, in, out, st, strictOpts()), "");
  for (const char *y : {"y1", "y2", "y3"})
    EXPECT_EQ(out[y].data, in["x"].data) << y;
  EXPECT_EQ(st.cycles, 135u);
  EXPECT_EQ(st.clusters[1].stallCycles, 43u + 29u); // RECV 1..44, WAIT 46..75
  EXPECT_EQ(st.clusters[3].stallCycles, 45u + 87u); // RECV 1..46, WAIT 48..135
  ASSERT_EQ(st.mesh.links.size(), 3u);
  const std::pair<uint32_t, uint32_t> tree[] = {{0, 1}, {0, 2}, {1, 3}};
  for (size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(st.mesh.links[i].from, tree[i].first);
    EXPECT_EQ(st.mesh.links[i].to, tree[i].second);
    EXPECT_EQ(st.mesh.links[i].bytes, 320u); // once per link, not per target
    EXPECT_EQ(st.mesh.links[i].busyCycles, 14u);
  }
  EXPECT_EQ(st.mesh.bytes, 320u);
  EXPECT_EQ(st.mesh.byteHops, 3u * 320);
  EXPECT_EQ(st.clusters[0].meshBytesSent, 3u * 320);
  for (uint32_t i = 1; i < 4; ++i)
    EXPECT_EQ(st.clusters[i].meshBytesReceived, 320u);
}

TEST(SimMesh, TransfersOnOneLinkSerialise) {
  HardwareDesc hw = tinyHardware(1, 3);
  Program p = makeProgram(hw, 1024);
  // 320 bytes each (ser = 10). Cluster 0 -> 2 over 0->1, 1->2: issued 1,
  // start 1, busy 2*2 + 10 = 14 (until 15), arrives 1 + 4 + 10 = 15.
  // Cluster 1 -> 2 over 1->2 (issued 1 too, processed second): the link is
  // free at 15: start 15, busy 2 + 10 = 12, arrives 27; its source is free
  // at 15 + 10 = 25 (WAIT tag 0: issued 2, ends 25).
  p.clusters[0].commands = {sendCmd({2}, 0, 0, 320, 0, 0)};
  p.clusters[1].commands = {sendCmd({2}, 0, 512, 320, 0, 0), waitCmd(1)};
  p.clusters[2].commands = {recvCmd(0, 2)};
  SimStats st = SimStats{};
  std::map<std::string, Tensor> out;
  ASSERT_EQ(run(p, hw, {}, out, st, strictOpts()), "");
  EXPECT_EQ(st.cycles, 27u);
  EXPECT_EQ(st.clusters[2].stallCycles, 26u); // RECV issued 1, resumes 27
  EXPECT_EQ(st.clusters[1].stallCycles, 23u);
  EXPECT_EQ(st.clusters[0].finishCycle, 15u);
  ASSERT_EQ(st.mesh.links.size(), 2u);
  EXPECT_EQ(st.mesh.links[0].from, 0u); // 0->1
  EXPECT_EQ(st.mesh.links[0].busyCycles, 14u);
  EXPECT_EQ(st.mesh.links[1].from, 1u); // 1->2: both transfers
  EXPECT_EQ(st.mesh.links[1].busyCycles, 14u + 12u);
  EXPECT_EQ(st.mesh.links[1].bytes, 640u);
  EXPECT_EQ(st.mesh.links[1].transfers, 2u);
  EXPECT_EQ(st.mesh.maxLinkBusyCycles, 26u);
  EXPECT_EQ(st.mesh.byteHops, 320u * 2 + 320u);

  // Opposite directions are different links: cluster 1 -> 0 starts at once
  // and arrives 1 + 2 + 10 = 13.
  p.clusters[1].commands = {sendCmd({0}, 0, 1024, 320, 0, 0)};
  p.clusters[0].commands.push_back(recvCmd(0, 1));
  p.clusters[2].commands = {recvCmd(0, 1)};
  ASSERT_EQ(run(p, hw, {}, out, st, strictOpts()), "");
  EXPECT_EQ(st.clusters[0].stallCycles, 13u - 2u); // RECV issued 1..2
  EXPECT_EQ(st.clusters[2].stallCycles, 14u);      // 15 - 1
}

TEST(SimMesh, SignalRecvChainReplacesBarriers) {
  // A pipeline over 4 clusters: cluster i copies A_i to A_{i+1} in DRAM
  // (load, WAIT, store, WAIT) after its predecessor is done. 64 B
  // transfers: 10 + 64/16 = 14 cycles on the one channel.
  HardwareDesc hw = tinyHardware(2, 2);
  auto build = [&](bool barriers) {
    Program p = makeProgram(hw, 8192);
    p.symbols = {sym("x", true, {2, 8}, 0), sym("y", false, {2, 8}, 4096)};
    for (uint32_t i = 0; i < 4; ++i) {
      auto &c = p.clusters[i].commands;
      for (uint32_t b = 0; barriers && b < i; ++b)
        c.push_back(barrier(b));
      if (!barriers && i > 0)
        c.push_back(recvCmd(i - 1, 1));
      c.push_back(dma2d(DmaDir::Load, 0, 1024 * i, 0, 2, 8, 8, 8));
      c.push_back(waitCmd(1));
      c.push_back(dma2d(DmaDir::Store, 1, 0, 1024 * (i + 1), 2, 8, 8, 8));
      c.push_back(waitCmd(2));
      if (!barriers && i < 3)
        c.push_back(signalCmd({i + 1}, i));
      for (uint32_t b = i; barriers && b < 3; ++b)
        c.push_back(barrier(b));
    }
    return p;
  };
  std::map<std::string, Tensor> in{{"x", tensor({2, 8}, 6)}}, out;
  SimStats st;
  ASSERT_EQ(run(build(false), hw, in, out, st, strictOpts()), "");
  EXPECT_EQ(out["y"].data, in["x"].data);
  // SIGNAL arrives hops * 2 after its issue. Cluster 0: load 1..15, store
  // 16..30, SIGNAL issued 31 -> cluster 1 (1 hop) at 33. Cluster 1: loads
  // 34..48, stores 49..63, SIGNAL issued 64 -> cluster 2 (2 hops) at 68.
  // Cluster 2: 69..83, 84..98, SIGNAL 99 -> cluster 3 at 101. Cluster 3:
  // 102..116, 117..131.
  EXPECT_EQ(st.cycles, 131u);
  EXPECT_EQ(st.clusters[1].stallCycles, 32u + 13u + 13u);
  EXPECT_EQ(st.commandCounts["SIGNAL"], 3u);
  EXPECT_EQ(st.mesh.signals, 3u);
  EXPECT_EQ(st.mesh.bytes, 0u);
  // The same chain with global barriers: each barrier releases 20 cycles
  // after the last arrival: 31 -> 51; cluster 1 copies 52..81, arrives 82
  // -> 102; cluster 2 103..132 -> 153; cluster 3 154..183.
  ASSERT_EQ(run(build(true), hw, in, out, st, strictOpts()), "");
  EXPECT_EQ(out["y"].data, in["x"].data);
  EXPECT_EQ(st.cycles, 183u);
}

TEST(SimMesh, RemoteLoadReadsAnotherClustersStorage) {
  HardwareDesc hw = tinyHardware(1, 2);
  Program p = makeProgram(hw, 4096);
  p.symbols = {sym("x", true, {2, 8}, 0), sym("y", false, {2, 8}, 256)};
  // Cluster 0: load 1..15, WAIT to 15, SIGNAL issued 16 -> arrives 18.
  // Cluster 1: RECV resumes at 18; remote_load issued 19: 1 hop, request
  // and data 2 * 1 * 2 + ceil(64/32) = 6 -> done 25; WAIT to 25; store
  // issued 26..40.
  p.clusters[0].commands = {dma2d(DmaDir::Load, 0, 0, 0, 2, 8, 8, 8),
                            waitCmd(1), signalCmd({1}, 0)};
  p.clusters[1].commands = {
      recvCmd(0, 1), remoteLoad(0, 0, 0, 128, 2, 8), waitCmd(1),
      dma2d(DmaDir::Store, 1, 128, 256, 2, 8, 8, 8), waitCmd(2)};
  std::map<std::string, Tensor> in{{"x", tensor({2, 8}, 7)}}, out;
  SimStats st;
  ASSERT_EQ(run(p, hw, in, out, st, strictOpts()), "");
  EXPECT_EQ(out["y"].data, in["x"].data);
  EXPECT_EQ(st.cycles, 40u);
  EXPECT_EQ(st.mesh.transfers, 1u);
  EXPECT_EQ(st.mesh.bytes, 64u);
  EXPECT_EQ(st.mesh.byteHops, 64u);
  EXPECT_EQ(st.clusters[0].meshBytesSent, 64u);
  EXPECT_EQ(st.clusters[1].meshBytesReceived, 64u);
  EXPECT_EQ(st.clusters[1].dmaBytes, 128u); // remote_load + store
  EXPECT_EQ(st.dramBytesRead, 64u);         // only cluster 0's load
  ASSERT_EQ(st.mesh.links.size(), 1u);
  EXPECT_EQ(st.mesh.links[0].from, 0u); // the data route XY(owner -> reader)
  EXPECT_EQ(st.mesh.links[0].to, 1u);
  EXPECT_EQ(st.mesh.links[0].busyCycles, 6u);

  // Without the RECV the remote_load (issued 1) reads cluster 0's storage
  // while cluster 0's load writes it until 15.
  p.clusters[1].commands.erase(p.clusters[1].commands.begin());
  std::string e = run(p, hw, in, out, st, strictOpts());
  EXPECT_NE(e.find("hazard: cluster (0,1) command 0 (DMA remote_load tag 0) "
                   "reads the storage unit of cluster (0,0) bytes [0, 64) at "
                   "cycle 1 while cluster (0,0) command 0 (DMA load tag 0) "
                   "writes bytes [0, 64) until cycle 15 (missing RECV, WAIT "
                   "or BARRIER?)"),
            std::string::npos)
      << e;
  // Only with a shared cluster cache, never from itself or outside the grid.
  hw.sharedClusterCache = false;
  e = run(p, hw, in, out, st);
  EXPECT_NE(e.find("cluster (0,1) command 0 (DMA): remote_load needs a shared "
                   "cluster cache"),
            std::string::npos)
      << e;
  hw.sharedClusterCache = true;
  p.clusters[1].commands[0].dma.srcCluster = 1;
  e = run(p, hw, in, out, st);
  EXPECT_NE(e.find("remote_load from the issuing cluster itself"),
            std::string::npos)
      << e;
  p.clusters[1].commands[0].dma.srcCluster = 7;
  e = run(p, hw, in, out, st);
  EXPECT_NE(e.find("remote_load source cluster 7 outside the 1x2 grid"),
            std::string::npos)
      << e;
}

TEST(SimMesh, RecvDeadlockNamesEveryBlockedCluster) {
  HardwareDesc hw = tinyHardware(2, 2);
  Program p = makeProgram(hw, 1024);
  // Clusters 0 and 1 each wait for the other's SIGNAL before sending their
  // own; cluster 2 waits at a barrier; cluster 3 finishes.
  p.clusters[0].commands = {recvCmd(1, 1), signalCmd({1}, 0)};
  p.clusters[1].commands = {recvCmd(0, 1), signalCmd({0}, 1)};
  p.clusters[2].commands = {barrier(4)};
  std::map<std::string, Tensor> out;
  SimStats st;
  std::string e = run(p, hw, {}, out, st);
  EXPECT_EQ(e, "deadlock: no cluster can continue: cluster (0,0) command 0 "
               "(RECV) waits for semaphore 1 to reach 1 (0 arrived, no "
               "SEND/SIGNAL left to come); cluster (0,1) command 0 (RECV) "
               "waits for semaphore 0 to reach 1 (0 arrived, no SEND/SIGNAL "
               "left to come); cluster (1,0) command 0 waits at barrier 4; "
               "cluster (1,1) has finished its command stream");
  // A count larger than the arrivals: three SIGNALs needed, two sent.
  p.clusters[0].commands = {signalCmd({3}, 7)};
  p.clusters[1].commands = {signalCmd({3}, 7)};
  p.clusters[2].commands = {};
  p.clusters[3].commands = {recvCmd(7, 3)};
  e = run(p, hw, {}, out, st);
  EXPECT_NE(e.find("cluster (1,1) command 0 (RECV) waits for semaphore 7 to "
                   "reach 3 (2 arrived"),
            std::string::npos)
      << e;
  // With the third SIGNAL it completes: arrivals 1 + 2*2 = 5 (0 -> 3),
  // 1 + 2 = 3 (1 -> 3), 1 + 2 = 3 (2 -> 3): RECV resumes at 5.
  p.clusters[2].commands = {signalCmd({3}, 7)};
  ASSERT_EQ(run(p, hw, {}, out, st), "");
  EXPECT_EQ(st.cycles, 5u);
  EXPECT_EQ(st.clusters[3].stallCycles, 4u);
  // Semaphore ids are bounded.
  p.clusters[3].commands = {recvCmd(kNumSemaphores, 1)};
  e = run(p, hw, {}, out, st);
  EXPECT_NE(e.find("cluster (1,1) command 0 (RECV): semaphore 4096 out of "
                   "range [0, 4096)"),
            std::string::npos)
      << e;
}

TEST(SimMesh, SendOperandChecks) {
  HardwareDesc hw = tinyHardware(1, 2);
  Program p = makeProgram(hw, 1024);
  std::map<std::string, Tensor> out;
  SimStats st;
  auto errOf = [&](Command c) {
    p.clusters[0].commands = {c};
    return run(p, hw, {}, out, st);
  };
  EXPECT_NE(errOf(sendCmd({2}, 0, 0, 4, 0, 0))
                .find("target cluster 2 outside the 1x2 grid"),
            std::string::npos);
  EXPECT_NE(errOf(sendCmd({1, 1}, 0, 0, 4, 0, 0))
                .find("targets must be ascending and distinct"),
            std::string::npos);
  EXPECT_NE(errOf(sendCmd({}, 0, 0, 4, 0, 0)).find("no target cluster"),
            std::string::npos);
  EXPECT_NE(errOf(sendCmd({1}, 65532, 0, 8, 0, 0))
                .find("source [65532, 65540) outside the storage unit"),
            std::string::npos);
  EXPECT_NE(errOf(sendCmd({1}, 0, 65532, 8, 0, 0))
                .find("destination [65532, 65540) outside the target "
                      "storage units"),
            std::string::npos);
  EXPECT_NE(errOf(sendCmd({1}, 0, 0, 8, 0, 9)).find("tag 9 out of range"),
            std::string::npos);
  // A SEND to itself copies through the storage unit: ceil(64 / 16) = 4.
  p.clusters[0].commands = {sendCmd({0}, 0, 128, 64, 3, 0), recvCmd(3, 1)};
  ASSERT_EQ(run(p, hw, {}, out, st, strictOpts()), "");
  EXPECT_EQ(st.cycles, 1u + 4u); // issued 0..1, arrives 5; RECV resumes 5
  EXPECT_EQ(st.mesh.localCopies, 1u);
  EXPECT_EQ(st.mesh.byteHops, 0u);
}

TEST(SimChannels, RemoteChannelLatencyAndByteCounts) {
  HardwareDesc hw = tinyHardware(1, 2);
  hw.channels = {MemoryChannel{16, 10, 1}, MemoryChannel{16, 10, 1}};
  const uint64_t R = hw.channelRegionBytes(); // 512 KiB
  Program p = makeProgram(hw, 1 << 20);
  std::map<std::string, Tensor> out;
  SimStats st;
  // Local: address 0 (channel 0 = channelOf(cluster 0)): 10 + 256/16 = 26,
  // done 27.
  p.clusters[0].commands = {dma2d(DmaDir::Load, 0, 0, 0, 4, 16, 16, 16),
                            waitCmd(1)};
  ASSERT_EQ(run(p, hw, {}, out, st), "");
  EXPECT_EQ(st.cycles, 27u);
  EXPECT_EQ(st.dramLocalBytes, 256u);
  EXPECT_EQ(st.dramRemoteBytes, 0u);
  // Remote: address R (channel 1, router cluster 1): channelHops(0, 1) =
  // 1 + 1 = 2, + 2 * (2 - 1) * 2 = 4 cycles: done 31.
  p.clusters[0].commands[0].dma.src = R;
  ASSERT_EQ(run(p, hw, {}, out, st), "");
  EXPECT_EQ(st.cycles, 31u);
  EXPECT_EQ(st.channels[1].busyCycles, 30u);
  EXPECT_EQ(st.channels[1].remoteBytes, 256u);
  EXPECT_EQ(st.channels[0].bytes, 0u);
  EXPECT_EQ(st.dramRemoteBytes, 256u);
  EXPECT_EQ(st.clusters[0].dramRemoteBytes, 256u);
  // A box across the boundary [R - 128, R + 128): 128 bytes per channel,
  // in parallel: channel 0 10 + 8 = 18 (done 19), channel 1 10 + 4 + 8 =
  // 22 (done 23).
  p.clusters[0].commands[0].dma.src = R - 128;
  ASSERT_EQ(run(p, hw, {}, out, st), "");
  EXPECT_EQ(st.cycles, 23u);
  EXPECT_EQ(st.channels[0].bytes, 128u);
  EXPECT_EQ(st.channels[0].localBytes, 128u);
  EXPECT_EQ(st.channels[1].bytes, 128u);
  EXPECT_EQ(st.channels[1].remoteBytes, 128u);
  EXPECT_EQ(st.clusters[0].dmaTransfers, 1u);
  // DramCopy channel 0 -> channel 1: read 256 on channel 0 (26), write 256
  // on channel 1 (30): done 31.
  p.clusters[0].commands[0] = dma2d(DmaDir::DramCopy, 0, 0, R, 4, 16, 16, 16);
  ASSERT_EQ(run(p, hw, {}, out, st), "");
  EXPECT_EQ(st.cycles, 31u);
  EXPECT_EQ(st.dramLocalBytes, 256u);
  EXPECT_EQ(st.dramRemoteBytes, 256u);
  EXPECT_EQ(st.clusters[0].dramBytes, 512u);
}

TEST(SimChannels, ChannelSharesByAddress) {
  HardwareDesc hw = tinyHardware(1, 2);
  hw.channels = {MemoryChannel{}, MemoryChannel{}, MemoryChannel{}};
  hw.dramBytes = 3000; // region = 3000 / 3 rounded down to 64 = 960
  const uint64_t R = hw.channelRegionBytes();
  ASSERT_EQ(R, 960u);
  using sim::channelShares;
  auto one = channelShares(hw, 0, 960, 960);
  ASSERT_EQ(one.size(), 1u);
  EXPECT_EQ(one[0].channel, 0u);
  // The last channel also serves the remainder beyond 3 * 960.
  EXPECT_EQ(channelShares(hw, 2990, 2999, 9)[0].channel, 2u);
  // Proportional to the bounding range per region: [860, 1260) has 100
  // bytes in channel 0 and 300 in channel 1.
  auto two = channelShares(hw, 860, 1260, 200);
  ASSERT_EQ(two.size(), 2u);
  EXPECT_EQ(two[0].bytes, 50u);
  EXPECT_EQ(two[1].bytes, 150u);
  // Rounding down, the remainder to the lowest byte's channel: [959, 962):
  // 7 * 1/3 = 2, 7 * 2/3 = 4, remainder 1 -> channel 0.
  auto rem = channelShares(hw, 959, 962, 7);
  ASSERT_EQ(rem.size(), 2u);
  EXPECT_EQ(rem[0].bytes, 3u);
  EXPECT_EQ(rem[1].bytes, 4u);
  // Three regions.
  auto three = channelShares(hw, 900, 2000, 1100);
  ASSERT_EQ(three.size(), 3u);
  EXPECT_EQ(three[0].bytes + three[1].bytes + three[2].bytes, 1100u);
  EXPECT_EQ(three[1].bytes, 960u);
}

TEST(SimPackets, MarkersWrittenBeforeExecution) {
  HardwareDesc hw = tinyHardware(1, 2);
  Program p = makeProgram(hw, 4096);
  p.symbols = {sym("y", false, {2}, 256)};
  ConstPacket pk;
  pk.cluster = 1;
  pk.core = 1;
  pk.markerAddr = 512;
  pk.marker = bytesOf({1.5f, 2.5f});
  pk.blocks = {{"w", 1024, 64}};
  p.packets = {pk};
  p.clusters[0].commands = {dma2d(DmaDir::DramCopy, 0, 512, 256, 1, 2, 2, 2),
                            waitCmd(1)};
  std::map<std::string, Tensor> out;
  SimStats st;
  ASSERT_EQ(run(p, hw, {}, out, st, strictOpts()), "");
  EXPECT_EQ(out["y"].data, (std::vector<float>{1.5f, 2.5f}));
  EXPECT_EQ(st.dramBytesRead, 8u); // the packet load itself is not counted
  p.packets[0].markerAddr = 4090;
  std::string e = run(p, hw, {}, out, st);
  EXPECT_EQ(e, "constant packet 0 (cluster (0,1) core 1): marker area at "
               "4090 (8 bytes) lies outside DRAM [0, 4096)");
  p.packets[0].markerAddr = 512;
  p.packets[0].blocks[0].dramAddr = 4064;
  e = run(p, hw, {}, out, st);
  EXPECT_EQ(e, "constant packet 0 (cluster (0,1) core 1): block 'w' at 4064 "
               "(64 bytes) lies outside DRAM [0, 4096)");
  p.packets[0].blocks[0].dramAddr = 1024;
  p.packets[0].core = 2;
  e = run(p, hw, {}, out, st);
  EXPECT_NE(e.find("core 2 outside the cluster's 2 PEs"), std::string::npos)
      << e;
  p.packets[0].core = 0;
  p.packets[0].cluster = 2;
  e = run(p, hw, {}, out, st);
  EXPECT_NE(e.find("cluster 2 outside the 1x2 grid"), std::string::npos) << e;
}

TEST(SimMesh, StatsJsonAndTrace) {
  HardwareDesc hw = tinyHardware(1, 2);
  Program p = sendRecvProgram(hw, true, 64);
  // Per-core MACs: 4 rows, 2 per PE, depth 8, 8 columns: 128 products and
  // ceil(128 / 8) = 16 busy cycles per PE.
  auto &c0 = p.clusters[0].commands;
  c0.push_back(
      config(1, {ldActs(0, rec(0, 4, 8, 8, 1, 2)), ldWeights(rec(512, 8, 8, 8)),
                 mac(0, 0, rec(0, 4, 8, 0, 1, 2, 8))}));
  c0.push_back(execute(1, true, true));
  c0.push_back(waitCmd(0, true));
  std::map<std::string, Tensor> in{{"x", tensor({2, 8}, 3)}}, out;
  SimOptions opts = strictOpts();
  opts.tracePath = ::testing::TempDir() + "/accel-sim-mesh-trace.json";
  std::remove(opts.tracePath.c_str());
  SimStats st;
  ASSERT_EQ(run(p, hw, in, out, st, opts), "");
  ASSERT_EQ(st.clusters[0].cores.size(), 2u);
  for (const CoreStats &core : st.clusters[0].cores) {
    EXPECT_EQ(core.macs, 128u);
    EXPECT_EQ(core.busyCycles, 16u);
  }
  EXPECT_EQ(st.clusters[1].cores[0].macs, 0u);

  nlohmann::json j = nlohmann::json::parse(statsToJson(st));
  EXPECT_EQ(j["mesh"]["bytes"], 64);
  EXPECT_EQ(j["mesh"]["byte_hops"], 64);
  EXPECT_EQ(j["mesh"]["transfers"], 1);
  EXPECT_EQ(j["mesh"]["max_link_busy_cycles"], 4);
  EXPECT_EQ(j["mesh"]["links"][0]["from"], 0);
  EXPECT_EQ(j["mesh"]["links"][0]["to"], 1);
  EXPECT_EQ(j["dram_local_bytes"], 64 + 64);
  EXPECT_EQ(j["dram_remote_bytes"], 0);
  EXPECT_EQ(j["clusters"][0]["mesh_bytes_sent"], 64);
  EXPECT_EQ(j["clusters"][1]["mesh_bytes_received"], 64);
  EXPECT_EQ(j["clusters"][1]["dram_bytes"], 64);
  EXPECT_EQ(j["clusters"][0]["cores"][1]["macs"], 128);
  EXPECT_EQ(j["clusters"][0]["cores"][1]["busy_cycles"], 16);
  EXPECT_EQ(j["channels"][0]["local_bytes"], 128);
  EXPECT_EQ(j["commands"]["SEND"], 1);
  EXPECT_EQ(j["commands"]["SIGNAL"], 0);
  EXPECT_DOUBLE_EQ(j["energy_pj"]["mesh"].get<double>(), 64 * hw.pjPerByteHop);

  std::ifstream f(opts.tracePath);
  ASSERT_TRUE(f.good());
  nlohmann::json t = nlohmann::json::parse(f);
  bool sawMesh = false, sawLinkThread = false, sawLinkSend = false,
       sawRecv = false, sawSend = false;
  for (auto &e : t["traceEvents"]) {
    if (e["ph"] == "M") {
      sawMesh |= e["name"] == "process_name" && e["pid"] == 3 &&
                 e["args"]["name"] == "mesh";
      sawLinkThread |= e["name"] == "thread_name" && e["pid"] == 3 &&
                       e["tid"] == 0 && e["args"]["name"] == "(0,0)->(0,1)";
      continue;
    }
    if (e["pid"] == 3 && e["tid"] == 0) {
      sawLinkSend = true;
      EXPECT_EQ(e["ts"], 16);
      EXPECT_EQ(e["dur"], 4);
    }
    if (e["pid"] == 1 && e["tid"] == 0 &&
        e["name"].get<std::string>().rfind("RECV sem 0", 0) == 0) {
      sawRecv = true;
      EXPECT_EQ(e["ts"], 0);
      EXPECT_EQ(e["dur"], 20);
    }
    sawSend |= e["pid"] == 0 && e["tid"] == 0 &&
               e["name"].get<std::string>().rfind("SEND", 0) == 0;
  }
  EXPECT_TRUE(sawMesh && sawLinkThread && sawLinkSend && sawRecv && sawSend);
}
