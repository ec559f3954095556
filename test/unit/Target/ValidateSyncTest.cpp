//===- ValidateSyncTest.cpp - validateProgram on mesh commands and packets ===//
//
// SEND / SIGNAL / RECV, remote_load and constant packets (docs/isa.md,
// "Validation rules" 7-9): one test per rule, valid producer / consumer and
// multicast programs, and the deadlock analysis.
//
//===----------------------------------------------------------------------===//
#include "../Sim/SimTestUtil.h"
#include "accel/Target/Validate.h"
#include <chrono>
#include <gtest/gtest.h>

using namespace accel;

namespace {

// Command builders: the simulator tests' (SimTestUtil.h), with the defaults
// these tests use.
using test::barrier;
using test::recvCmd;
using test::signalCmd;

/// SEND of 256 bytes from storage `src` to 4096 of every target.
Command sendCmd(std::vector<uint32_t> targets, uint32_t sem, uint32_t src = 0,
                uint32_t dst = 4096, uint32_t bytes = 256, uint8_t tag = 0) {
  return test::sendCmd(std::move(targets), src, dst, bytes, sem, tag);
}
Command waitTag(uint8_t tag) { return test::waitCmd(uint8_t(1u << tag)); }
/// 64 f32 from `srcCluster`'s storage at 1024 to this cluster's at 2048.
Command remoteLoad(uint32_t srcCluster, uint64_t src = 1024) {
  return test::remoteLoad(2, srcCluster, src, 2048, 1, 64);
}

/// Default hardware (2x2 clusters of 4 PEs, 512 KiB storage units, shared
/// cluster cache) and an empty program for it.
class ValidateSyncTest : public ::testing::Test {
protected:
  void SetUp() override { useHardware(defaultHardware()); }
  void useHardware(const HardwareDesc &h) {
    hw = h;
    p = Program();
    p.hwFingerprint = hw.fingerprint();
    p.gridRows = hw.rows;
    p.gridCols = hw.cols;
    p.dramSize = 1 << 16;
    p.clusters.resize(hw.numClusters());
  }
  CommandList &at(uint32_t cluster) { return p.clusters[cluster].commands; }
  void expectOk() {
    std::string err;
    EXPECT_TRUE(validateProgram(p, hw, err)) << err;
  }
  void expectError(const std::string &exact) {
    std::string err;
    EXPECT_FALSE(validateProgram(p, hw, err));
    EXPECT_EQ(err, exact);
  }
  void expectErrorContaining(const std::string &needle) {
    std::string err;
    EXPECT_FALSE(validateProgram(p, hw, err));
    EXPECT_NE(err.find(needle), std::string::npos) << err;
  }

  HardwareDesc hw;
  Program p;
};

} // namespace

//===----------------------------------------------------------------------===//
// Valid programs
//===----------------------------------------------------------------------===//

TEST_F(ValidateSyncTest, ProducerConsumerPasses) {
  // (0,0) produces a tile for (0,1), which answers when it has used it.
  at(0) = {sendCmd({1}, 0), waitTag(0), recvCmd(1)};
  at(1) = {recvCmd(0), signalCmd({0}, 1)};
  expectOk();
}

TEST_F(ValidateSyncTest, MulticastAndLocalSendPass) {
  // One SEND to every cluster including the sender; everyone takes it.
  at(0) = {sendCmd({0, 1, 2, 3}, 0)};
  for (uint32_t c = 0; c < 4; ++c)
    at(c).push_back(recvCmd(0));
  expectOk();
}

TEST_F(ValidateSyncTest, CountsAddUpOverSeveralRecvsAndSenders) {
  // (1,1) gathers one arrival from each other cluster: one RECV of 2 and
  // one of 1 on the same semaphore.
  at(0) = {signalCmd({3}, 5)};
  at(1) = {sendCmd({3}, 5, 0, 0, 64)};
  at(2) = {signalCmd({3}, 5)};
  at(3) = {recvCmd(5, 2), recvCmd(5, 1)};
  expectOk();
}

TEST_F(ValidateSyncTest, RemoteLoadAfterTheProducerSignalledPasses) {
  at(1) = {signalCmd({3}, 1)};
  at(3) = {recvCmd(1), remoteLoad(1), waitTag(2)};
  expectOk();
}

TEST_F(ValidateSyncTest, SignalsAcrossBarriersPass) {
  // Arrivals before a barrier are received after it.
  at(0) = {signalCmd({1}, 0), barrier(3), recvCmd(2)};
  at(1) = {barrier(3), recvCmd(0), signalCmd({0}, 2)};
  at(2) = {barrier(3)};
  at(3) = {barrier(3)};
  expectOk();
}

//===----------------------------------------------------------------------===//
// Per-command rules
//===----------------------------------------------------------------------===//

TEST_F(ValidateSyncTest, TargetOutsideTheGrid) {
  at(0) = {sendCmd({1, 4}, 0)};
  expectError("cluster (0,0) command 0 (SEND): target cluster 4 is outside "
              "the 2x2 grid");
  at(0) = {signalCmd({9}, 0)};
  expectError("cluster (0,0) command 0 (SIGNAL): target cluster 9 is outside "
              "the 2x2 grid");
}

TEST_F(ValidateSyncTest, TargetsAscendingWithoutRepeats) {
  at(0) = {signalCmd({2, 1}, 0)};
  expectError("cluster (0,0) command 0 (SIGNAL): targets must be ascending "
              "row-major indices without repeats ((0,1) follows (1,0))");
  at(0) = {sendCmd({3, 3}, 0)};
  expectErrorContaining("((1,1) follows (1,1))");
  at(0) = {signalCmd({}, 0)};
  expectError("cluster (0,0) command 0 (SIGNAL): no target cluster");
}

TEST_F(ValidateSyncTest, SemaphoreRange) {
  at(0) = {sendCmd({1}, kNumSemaphores)};
  expectError("cluster (0,0) command 0 (SEND): semaphore 4096 out of range "
              "[0, 4096)");
  at(0) = {signalCmd({1}, 5000)};
  expectErrorContaining("(SIGNAL): semaphore 5000 out of range");
  at(0) = {recvCmd(4096)};
  expectError("cluster (0,0) command 0 (RECV): semaphore 4096 out of range "
              "[0, 4096)");
}

TEST_F(ValidateSyncTest, RecvCountAtLeastOne) {
  at(0) = {recvCmd(0, 0)};
  expectError("cluster (0,0) command 0 (RECV): count must be >= 1");
}

TEST_F(ValidateSyncTest, SendBytesAndTag) {
  at(0) = {sendCmd({1}, 0, 0, 0, 0)};
  expectError("cluster (0,0) command 0 (SEND): bytes must be >= 1");
  at(0) = {sendCmd({1}, 0, 0, 0, 4, 8)};
  expectError("cluster (0,0) command 0 (SEND): tag 8 out of range [0, 8)");
}

TEST_F(ValidateSyncTest, SendRangesInsideTheStorageUnit) {
  uint32_t storage = uint32_t(hw.storageBytes);
  at(0) = {sendCmd({1}, 0, storage - 128, 0, 256)};
  expectError("cluster (0,0) command 0 (SEND): source bytes [524160, 524416) "
              "outside the storage unit [0, 524288)");
  at(0) = {sendCmd({1}, 0, 0, 0xFFFFFF00u, 512)};
  expectError("cluster (0,0) command 0 (SEND): destination bytes "
              "[4294967040, 4294967552) outside the storage unit [0, 524288)");
  // The last byte of the unit is fine.
  at(0) = {sendCmd({1}, 0, storage - 256, storage - 256, 256)};
  at(1) = {recvCmd(0)};
  expectOk();
}

TEST_F(ValidateSyncTest, RemoteLoadRules) {
  at(2) = {remoteLoad(2)};
  expectError("cluster (1,0) command 0 (DMA): remote_load from its own "
              "cluster (1,0) (a SEND to itself copies inside the storage "
              "unit)");
  at(2) = {remoteLoad(7)};
  expectError("cluster (1,0) command 0 (DMA): remote_load source cluster 7 "
              "is outside the 2x2 grid");
  at(2) = {remoteLoad(0, hw.storageBytes - 8)};
  expectError("cluster (1,0) command 0 (DMA): source box [524280, 524536) "
              "outside the storage unit [0, 524288)");
  // Only remote_load names a source cluster.
  Command load = remoteLoad(1);
  load.dma.dir = DmaDir::Store;
  at(2) = {load};
  expectError("cluster (1,0) command 0 (DMA): a store DMA has no source "
              "cluster (srcCluster 1)");
}

TEST_F(ValidateSyncTest, RemoteLoadNeedsASharedClusterCache) {
  HardwareDesc bus = defaultHardware();
  bus.name = "bus";
  bus.sharedClusterCache = false;
  useHardware(bus);
  at(3) = {remoteLoad(1), waitTag(2)};
  expectError("cluster (1,1) command 0 (DMA): remote_load reads the storage "
              "unit of cluster (0,1), but on hardware 'bus' the storage unit "
              "is not a shared cache (cluster.shared_cache is false): "
              "exchange through DRAM instead");
  // SEND / SIGNAL / RECV stay allowed (they do not read another cache).
  at(3) = {recvCmd(0)};
  at(1) = {sendCmd({3}, 0)};
  expectOk();
}

//===----------------------------------------------------------------------===//
// Matching counts and deadlocks
//===----------------------------------------------------------------------===//

TEST_F(ValidateSyncTest, RecvWithoutMatchingSend) {
  at(1) = {recvCmd(0)};
  expectError("cluster (0,1) RECV sem 0 waits for 1 arrival but only 0 "
              "SEND/SIGNAL target it (command 0 is the first RECV that can "
              "never complete)");
  // Two arrivals, three taken: the second RECV is the one that starves.
  at(0) = {signalCmd({1}, 0), signalCmd({1}, 0)};
  at(1) = {recvCmd(0), recvCmd(0, 2)};
  expectError("cluster (0,1) RECV sem 0 waits for 3 arrivals but only 2 "
              "SEND/SIGNAL target it (command 1 is the first RECV that can "
              "never complete)");
}

TEST_F(ValidateSyncTest, SendNeverReceived) {
  at(0) = {sendCmd({1, 2}, 4)};
  at(1) = {recvCmd(4)};
  expectError("cluster (0,0) command 0 (SEND): SEND/SIGNAL to (1,0) sem 4 "
              "never received: 1 arrival but the RECVs of cluster (1,0) "
              "take 0");
  // A RECV on another semaphore does not take it.
  at(2) = {recvCmd(5)};
  expectErrorContaining("to (1,0) sem 4 never received");
}

TEST_F(ValidateSyncTest, DeadlockByOrder) {
  // Both wait for the other before signalling: counts agree, the order
  // does not.
  at(0) = {recvCmd(1), signalCmd({1}, 0)};
  at(1) = {recvCmd(0), signalCmd({0}, 1)};
  expectError("cluster (0,0) command 0 RECV sem 1 can never complete: the "
              "semaphore holds 0 of 1 and no cluster can still signal it "
              "(also blocked: cluster (0,1) command 0 RECV sem 0)");
}

TEST_F(ValidateSyncTest, DeadlockThroughABarrier) {
  // (0,1) signals (0,0) only after barrier 1, which (0,0) reaches only
  // after its RECV.
  at(0) = {recvCmd(0), barrier(1)};
  at(1) = {barrier(1), signalCmd({0}, 0)};
  at(2) = {barrier(1)};
  at(3) = {barrier(1)};
  expectError("cluster (0,0) command 0 RECV sem 0 can never complete: the "
              "semaphore holds 0 of 1 and no cluster can still signal it "
              "(also blocked: cluster (0,1) command 0 BARRIER 1; cluster "
              "(1,0) command 0 BARRIER 1; cluster (1,1) command 0 BARRIER 1)");
}

TEST_F(ValidateSyncTest, PartialProgressIsReported) {
  // (0,1) gets the first of two arrivals it needs; the second comes from
  // (0,0) only after (0,0) hears from (0,1).
  at(0) = {signalCmd({1}, 0), recvCmd(1), signalCmd({1}, 0)};
  at(1) = {recvCmd(0, 2), signalCmd({0}, 1)};
  expectError("cluster (0,0) command 1 RECV sem 1 can never complete: the "
              "semaphore holds 0 of 1 and no cluster can still signal it "
              "(also blocked: cluster (0,1) command 0 RECV sem 0)");
}

TEST_F(ValidateSyncTest, LongBlockedListIsShortened) {
  HardwareDesc big = defaultHardware();
  big.rows = big.cols = 3;
  useHardware(big);
  // A ring of 9 clusters, each waiting for its predecessor first.
  for (uint32_t c = 0; c < 9; ++c)
    at(c) = {recvCmd(0), signalCmd({(c + 1) % 9}, 0)};
  expectError("cluster (0,0) command 0 RECV sem 0 can never complete: the "
              "semaphore holds 0 of 1 and no cluster can still signal it "
              "(also blocked: cluster (0,1) command 0 RECV sem 0; cluster "
              "(0,2) command 0 RECV sem 0; cluster (1,0) command 0 RECV sem "
              "0; cluster (1,1) command 0 RECV sem 0; and 4 more)");
  // Starting the ring makes it valid.
  at(0) = {signalCmd({1}, 0), recvCmd(0)};
  expectOk();
}

TEST_F(ValidateSyncTest, SymbolicRunIsLinear) {
  // 100000 round trips between two clusters (400000 commands): a quadratic
  // analysis would take hours, this one well under a second (optimised).
  const int rounds = 100000;
  for (int i = 0; i < rounds; ++i) {
    at(0).push_back(signalCmd({1}, 0));
    at(0).push_back(recvCmd(1));
    at(1).push_back(recvCmd(0));
    at(1).push_back(signalCmd({0}, 1));
  }
  auto t0 = std::chrono::steady_clock::now();
  expectOk();
  double s =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0)
          .count();
  EXPECT_LT(s, 10.0) << "validating 400000 sync commands took " << s << " s";
}

//===----------------------------------------------------------------------===//
// Constant packets
//===----------------------------------------------------------------------===//

namespace {
ConstPacket packet(uint32_t cluster, uint32_t core, uint64_t markerAddr) {
  ConstPacket pk;
  pk.cluster = cluster;
  pk.core = core;
  pk.markerAddr = markerAddr;
  pk.marker.assign(32, 0);
  pk.blocks = {{"w", 1024, 512}};
  return pk;
}
} // namespace

TEST_F(ValidateSyncTest, PacketsPass) {
  ConstSegment w;
  w.dramAddr = 1024;
  w.bytes.assign(2048, 1);
  p.constants = {w};
  p.packets = {packet(0, 0, 8192), packet(0, 1, 8224), packet(3, 3, 8256)};
  p.packets[1].blocks = {{"w", 1536, 512}, {"w", 2048, 1024}};
  expectOk();
}

TEST_F(ValidateSyncTest, PacketRules) {
  ConstSegment w;
  w.dramAddr = 1024;
  w.bytes.assign(2048, 1);
  p.constants = {w};
  p.symbols.push_back({"x", true, DType::F32, {16}, 16384});

  p.packets = {packet(4, 0, 8192)};
  expectError("packet 0: cluster 4 is outside the 2x2 grid");
  p.packets = {packet(1, 4, 8192)};
  expectError("packet 0 (cluster (0,1) core 4): core 4 does not exist (a "
              "cluster has 4 PEs)");
  p.packets = {packet(1, 2, 8192), packet(1, 2, 9000)};
  expectError("packet 1 (cluster (0,1) core 2): a second packet for the "
              "same core");
  p.packets = {packet(1, 2, p.dramSize - 16)};
  expectError("packet 0 (cluster (0,1) core 2): marker area [65520, 65552) "
              "outside DRAM [0, 65536)");
  p.packets = {packet(1, 2, 8192)};
  p.packets[0].blocks[0].dramAddr = 65000;
  expectError("packet 0 (cluster (0,1) core 2): block 'w' [65000, 65512) is "
              "not constant data (no constant segment holds it)");
  p.packets[0].blocks[0].dramAddr = 65500;
  expectError("packet 0 (cluster (0,1) core 2): block 'w' [65500, 66012) "
              "outside DRAM [0, 65536)");
  p.packets[0].blocks[0].dramAddr = 2560; // [2560, 3072) ends with w: fine
  expectOk();
  p.packets[0].blocks[0].dramAddr = 2600; // runs past the segment
  expectErrorContaining("block 'w' [2600, 3112) is not constant data");
  // The marker area is written by the loader: it may not overlap data.
  p.packets = {packet(1, 2, 16384 + 32)};
  expectError("symbol 'x' [16384, 16448) overlaps the marker area of packet "
              "(cluster (0,1) core 2) [16416, 16448) in DRAM");
  p.packets = {packet(1, 2, 3000)};
  expectErrorContaining("constant segment 0 [1024, 3072) overlaps the marker "
                        "area of packet (cluster (0,1) core 2)");
}
