//===- ResidencyTest.cpp - Intermediates kept in cluster storage ----------===//
#include "accel/Codegen/Residency.h"
#include <gtest/gtest.h>

using namespace accel;
using namespace accel::codegen;

namespace {

//===----------------------------------------------------------------------===//
// allocateStorage
//===----------------------------------------------------------------------===//

TEST(ResidencyAllocator, AboveTheHighWaterMarkOfTheWholeLifetime) {
  // One cluster, three layers: the kernels use 100, 300 and 50 bytes.
  std::vector<std::vector<uint64_t>> floor{{100, 300, 50}};
  std::vector<StorageRequest> rq{{0, 64, 0, 1, 64}, {0, 64, 2, 2, 64}};
  std::vector<uint64_t> a = allocateStorage(rq, floor, 1024, 64);
  EXPECT_EQ(a, (std::vector<uint64_t>{320, 64}));
}

TEST(ResidencyAllocator, DisjointLifetimesShareAddresses) {
  std::vector<std::vector<uint64_t>> floor{{0, 0, 0, 0}};
  std::vector<StorageRequest> rq{
      {0, 128, 0, 1, 128}, {0, 128, 2, 3, 128}, {0, 128, 1, 2, 128}};
  std::vector<uint64_t> a = allocateStorage(rq, floor, 1024, 64);
  // The first two never live at once; the third meets both.
  EXPECT_EQ(a, (std::vector<uint64_t>{0, 0, 128}));
}

TEST(ResidencyAllocator, BestBenefitPerByteLayerFirstAndRefusals) {
  std::vector<std::vector<uint64_t>> floor{{0, 0}, {900, 0}};
  std::vector<StorageRequest> rq{
      {0, 512, 0, 1, 512},  // benefit 0.5 per byte-layer
      {0, 512, 0, 0, 2048}, // 4 per byte-layer: placed first
      {0, 64, 0, 1, 10},    // no room left on cluster 0
      {1, 128, 0, 1, 999},  // above cluster 1's mark of 900: no room
      {1, 100, 1, 1, 100}}; // only layer 1: fits at 0
  std::vector<uint64_t> a = allocateStorage(rq, floor, 1024, 64);
  EXPECT_EQ(a, (std::vector<uint64_t>{512, 0, kNotGranted, kNotGranted, 0}));
}

TEST(ResidencyAllocator, BadRequestsAreRefused) {
  std::vector<std::vector<uint64_t>> floor{{0}};
  std::vector<StorageRequest> rq{{3, 64, 0, 0, 1}, // no such cluster
                                 {0, 64, 0, 1, 1}, // no layer 1
                                 {0, 0, 0, 0, 1}}; // empty
  EXPECT_EQ(allocateStorage(rq, floor, 1024, 64),
            (std::vector<uint64_t>(3, kNotGranted)));
}

//===----------------------------------------------------------------------===//
// storageHighWater, planResidency, applyResidency
//===----------------------------------------------------------------------===//

Command dma(DmaDir dir, uint64_t src, uint64_t dst, uint32_t n) {
  Command c;
  c.kind = CommandKind::Dma;
  c.dma.dir = dir;
  c.dma.src = src;
  c.dma.dst = dst;
  c.dma.shape[3] = n;
  c.dma.srcStride[3] = 1;
  c.dma.dstStride[3] = 1;
  return c;
}

/// A 1x2 machine with 4 KB of storage per cluster.
HardwareDesc smallMachine() {
  HardwareDesc hw;
  hw.rows = 1;
  hw.cols = 2;
  hw.storageBytes = 4096;
  return hw;
}

/// Two clusters, three layers. DRAM: [0, 256) input symbol, [256, 512) an
/// intermediate written by cluster 0 in layer 0 and read by cluster 0 and
/// cluster 1 in layer 1, [512, 768) one written by both clusters, [768,
/// 1024) the output written by cluster 1 in layer 2.
struct Fixture {
  Program p;
  std::vector<std::vector<uint32_t>> layers;
  std::vector<DramBuffer> pieces{{0, 256}, {256, 256}, {512, 256}, {768, 256}};
  Fixture() {
    p.clusters.resize(2);
    layers.resize(2);
    Symbol in;
    in.name = "x";
    in.shape = {64};
    in.dramAddr = 0;
    Symbol out = in;
    out.name = "y";
    out.isInput = false;
    out.dramAddr = 768;
    p.symbols = {in, out};
    auto add = [&](uint32_t cl, uint32_t layer, Command c) {
      p.clusters[cl].commands.push_back(c);
      layers[cl].push_back(layer);
    };
    add(0, 0, dma(DmaDir::Load, 0, 0, 64));       // input -> storage 0
    add(0, 0, dma(DmaDir::Store, 0, 256, 64));    // intermediate A
    add(0, 0, dma(DmaDir::Store, 0, 512, 32));    // B, first half
    add(1, 0, dma(DmaDir::Store, 0, 640, 32));    // B, second half
    add(0, 1, dma(DmaDir::Load, 256, 1024, 64));  // A read locally
    add(1, 1, dma(DmaDir::Load, 256, 2048, 64));  // A read remotely
    add(1, 2, dma(DmaDir::Load, 512, 0, 64));     // B
    add(1, 2, dma(DmaDir::Store, 2048, 768, 64)); // the output
  }
};

TEST(Residency, HighWaterMarkPerClusterAndLayer) {
  Fixture f;
  auto hwm = storageHighWater(f.p, f.layers, 3);
  ASSERT_EQ(hwm.size(), 2u);
  EXPECT_EQ(hwm[0], (std::vector<uint64_t>{256, 1280, 0}));
  EXPECT_EQ(hwm[1], (std::vector<uint64_t>{128, 2304, 2304}));
}

TEST(Residency, HighWaterMarkFollowsRemoteLoadsAndSends) {
  Program p;
  p.clusters.resize(2);
  Command r = dma(DmaDir::RemoteLoad, 3000, 100, 16);
  r.dma.srcCluster = 0;
  p.clusters[1].commands.push_back(r);
  Command s;
  s.kind = CommandKind::Send;
  s.mesh->targets = {1};
  s.mesh->src = 10;
  s.mesh->dst = 3500;
  s.mesh->bytes = 20;
  p.clusters[0].commands.push_back(s);
  auto hwm = storageHighWater(p, {{0}, {0}}, 1);
  EXPECT_EQ(hwm[0][0], 3064u); // the remote reader's source box
  EXPECT_EQ(hwm[1][0], 3520u); // the SEND's destination
}

TEST(Residency, EligibilityAndRewrite) {
  Fixture f;
  HardwareDesc hw = smallMachine();
  std::vector<char> inter = intermediatePieces(f.p, f.pieces);
  EXPECT_EQ(inter, (std::vector<char>{0, 1, 1, 0}));
  ResidencyPlan plan = planResidency(f.p, hw, f.layers, 3, f.pieces, inter);
  // B is cut where its writer changes.
  ASSERT_EQ(plan.pieces.size(), 5u);
  EXPECT_EQ(plan.pieces[2].addr, 512u);
  EXPECT_EQ(plan.pieces[3].addr, 640u);
  EXPECT_EQ(plan.reason, (std::vector<StayReason>{
                             StayReason::NotIntermediate, StayReason::Resident,
                             StayReason::Resident, StayReason::Resident,
                             StayReason::NotIntermediate}));
  EXPECT_EQ(plan.owner, (std::vector<int64_t>{-1, 0, 0, 1, -1}));
  // Held to the end (remote readers): above cluster 0's marks of every
  // layer from 0 on (1280), 64-aligned; A (more DRAM bytes per byte-layer)
  // first. B's second half is read by its own writer only.
  EXPECT_EQ(plan.storageAddr[1], 1280u);
  EXPECT_EQ(plan.storageAddr[2], 1536u);
  EXPECT_EQ(plan.storageAddr[3], 2304u);
  EXPECT_EQ(plan.dramTraffic[1], 3u * 256);

  ResidencySummary s = summarize(plan);
  EXPECT_EQ(s.residentBytes, 512u);
  EXPECT_EQ(s.residentTraffic, 768u + 256 + 256);
  EXPECT_EQ(s.spilledBytes, 0u);
  std::vector<DramBuffer> left = remainingBuffers(plan, f.pieces);
  ASSERT_EQ(left.size(), 2u);
  EXPECT_EQ(left[0].addr, 0u);
  EXPECT_EQ(left[1].addr, 768u);
  EXPECT_EQ(left[1].bytes, 256u);

  applyResidency(f.p, plan);
  const auto &c0 = f.p.clusters[0].commands, &c1 = f.p.clusters[1].commands;
  ASSERT_EQ(c0.size(), 4u);
  EXPECT_EQ(c0[0].dma.dir, DmaDir::Load); // the input stays
  EXPECT_EQ(c0[1].dma.dir, DmaDir::LocalCopy);
  EXPECT_EQ(c0[1].dma.dst, 1280u);
  EXPECT_EQ(c0[2].dma.dir, DmaDir::LocalCopy);
  EXPECT_EQ(c0[2].dma.dst, 1536u);
  EXPECT_EQ(c0[3].dma.dir, DmaDir::LocalCopy);
  EXPECT_EQ(c0[3].dma.src, 1280u);
  // Cluster 1's load of all of B is split in two: half remote, half local.
  ASSERT_EQ(c1.size(), 5u);
  EXPECT_EQ(c1[0].dma.dir, DmaDir::LocalCopy);
  EXPECT_EQ(c1[0].dma.dst, 2304u);
  EXPECT_EQ(c1[1].dma.dir, DmaDir::RemoteLoad);
  EXPECT_EQ(c1[1].dma.srcCluster, 0u);
  EXPECT_EQ(c1[1].dma.src, 1280u);
  EXPECT_EQ(c1[1].dma.dst, 2048u);
  EXPECT_EQ(c1[2].dma.dir, DmaDir::RemoteLoad);
  EXPECT_EQ(c1[2].dma.src, 1536u);
  EXPECT_EQ(c1[2].dma.dst, 0u);
  EXPECT_EQ(c1[2].dma.shape[3], 32u);
  EXPECT_EQ(c1[3].dma.dir, DmaDir::LocalCopy);
  EXPECT_EQ(c1[3].dma.src, 2304u);
  EXPECT_EQ(c1[3].dma.dst, 128u);
  EXPECT_EQ(c1[4].dma.dir, DmaDir::Store); // the output stays
}

TEST(Residency, InterleavedWritersStayInDram) {
  // Clusters 0 and 1 write alternate rows of one 8 x 16 tensor: the write
  // boxes overlap, no cut separates them.
  Program p;
  p.clusters.resize(2);
  for (uint32_t cl = 0; cl < 2; ++cl) {
    Command c = dma(DmaDir::Store, 0, cl * 64, 16);
    c.dma.shape[2] = 4;
    c.dma.srcStride[2] = 16;
    c.dma.dstStride[2] = 32;
    p.clusters[cl].commands.push_back(c);
  }
  std::vector<DramBuffer> pieces{{0, 512}};
  ResidencyPlan plan = planResidency(p, smallMachine(), {{0}, {0}}, 1, pieces,
                                     std::vector<char>{1});
  ASSERT_EQ(plan.pieces.size(), 1u);
  EXPECT_EQ(plan.reason[0], StayReason::SeveralWriters);
}

/// Cluster c's store of rows 2c, 2c + 1 of each of `planes` planes of 4 x
/// 16 floats (one box: runs of 128 bytes, a plane of 256 bytes apart).
Command rowBlockStore(uint32_t cl, uint32_t planes) {
  Command w = dma(DmaDir::Store, 0, cl * 128, 32);
  w.dma.shape[2] = planes;
  w.dma.srcStride[2] = 32;
  w.dma.dstStride[2] = 64;
  return w;
}

/// The row-split map of the tests below: on two clusters, layer 0 stores
/// cluster c's rows with `store` (c), layer 1 reads plane c on cluster c.
Program rowSplitProgram(Command (*store)(uint32_t),
                        std::vector<std::vector<uint32_t>> &layers) {
  Program p;
  p.clusters.resize(2);
  layers.assign(2, {0, 1});
  for (uint32_t cl = 0; cl < 2; ++cl) {
    p.clusters[cl].commands.push_back(store(cl));
    p.clusters[cl].commands.push_back(dma(DmaDir::Load, cl * 256, 1024, 64));
  }
  return p;
}

/// rowBlockStore of both planes, its dimensions listed as planes, columns,
/// rows.
Command rowBlockStoreColumnsFirst(uint32_t cl) {
  Command w = dma(DmaDir::Store, 0, cl * 128, 1);
  const uint32_t shape[4] = {1, 2, 16, 2};
  const int64_t dst[4] = {0, 64, 1, 16}, src[4] = {0, 32, 1, 16};
  for (int i = 0; i < 4; ++i) {
    w.dma.shape[i] = shape[i];
    w.dma.dstStride[i] = dst[i];
    w.dma.srcStride[i] = src[i];
  }
  return w;
}

TEST(Residency, BoxDimensionsOutOfStrideOrderStillFormRuns) {
  // The map and reads of RowSplitMapsAreCutBetweenRuns, but each store
  // lists its dimensions as planes, columns, rows (a transposed
  // convolution's store: pixels before kernel rows): read in that order the
  // box has 64 runs of one float; sorted by stride its rows and columns
  // meet again into two runs of 128 bytes, so the map is cut between the
  // writers as before.
  std::vector<std::vector<uint32_t>> layers;
  Program p = rowSplitProgram(rowBlockStoreColumnsFirst, layers);
  ResidencyOptions opts;
  opts.minRunPieceBytes = 128;
  ResidencyPlan plan =
      planResidency(p, smallMachine(), layers, 2, {{0, 512}}, {1}, opts);
  ASSERT_EQ(plan.pieces.size(), 4u);
  for (size_t i = 0; i < 4; ++i) {
    EXPECT_EQ(plan.pieces[i].addr, 128 * i);
    EXPECT_EQ(plan.reason[i], StayReason::Resident) << i;
    EXPECT_EQ(plan.owner[i], int64_t(i % 2));
  }
}

TEST(Residency, RowSplitMapsAreCutBetweenRuns) {
  // A 2-plane map of 4 rows x 16 floats split by rows: cluster c writes
  // rows 2c, 2c + 1 of both planes with one box (runs of 128 bytes), so the
  // boxes' bounding ranges overlap. In layer 1 cluster 0 reads plane 0 and
  // cluster 1 plane 1.
  std::vector<std::vector<uint32_t>> layers;
  Program p =
      rowSplitProgram([](uint32_t cl) { return rowBlockStore(cl, 2); }, layers);
  const std::vector<DramBuffer> coarse{{0, 512}};
  ResidencyOptions opts;
  opts.minRunPieceBytes = 128;
  ResidencyPlan plan =
      planResidency(p, smallMachine(), layers, 2, coarse, {1}, opts);
  // One piece per plane and writer, each kept by its writer; pieces 1 and 2
  // have one remote reader each.
  ASSERT_EQ(plan.pieces.size(), 4u);
  for (size_t i = 0; i < 4; ++i) {
    EXPECT_EQ(plan.pieces[i].addr, 128 * i);
    EXPECT_EQ(plan.reason[i], StayReason::Resident) << i;
    EXPECT_EQ(plan.owner[i], int64_t(i % 2));
  }
  // With no remote reader allowed, the pieces read by the other cluster
  // stay in DRAM.
  opts.maxRunPieceRemoteReaders = 0;
  plan = planResidency(p, smallMachine(), layers, 2, coarse, {1}, opts);
  ASSERT_EQ(plan.pieces.size(), 4u);
  EXPECT_EQ(plan.reason[0], StayReason::Resident);
  EXPECT_EQ(plan.reason[1], StayReason::MeshBound);
  EXPECT_EQ(plan.reason[2], StayReason::MeshBound);
  EXPECT_EQ(plan.reason[3], StayReason::Resident);
  // Runs smaller than minRunPieceBytes whose writer's runs form a unit of
  // at least that (2 runs of 128 bytes, 256 apart): still cut, one unit
  // per writer.
  opts.maxRunPieceRemoteReaders = 1;
  opts.minRunPieceBytes = 256;
  plan = planResidency(p, smallMachine(), layers, 2, coarse, {1}, opts);
  ASSERT_EQ(plan.pieces.size(), 4u);
  ASSERT_EQ(plan.units.size(), 2u);
  EXPECT_EQ(plan.unitOf, (std::vector<int64_t>{0, 1, 0, 1}));
  EXPECT_EQ(plan.units[0].period, 256u);
  EXPECT_EQ(plan.units[0].count, 2u);
  for (size_t i = 0; i < 4; ++i) {
    EXPECT_EQ(plan.reason[i], StayReason::Resident) << i;
    // Run k of a unit right after run k - 1 in storage.
    EXPECT_EQ(plan.storageAddr[i], plan.storageAddr[i % 2] + (i / 2) * 128);
  }
  // Units smaller than minRunPieceBytes, or cuts between runs turned off:
  // the bounding ranges decide, one piece with two writers.
  for (uint64_t minBytes : {uint64_t(512), uint64_t(0)}) {
    opts.minRunPieceBytes = minBytes;
    plan = planResidency(p, smallMachine(), layers, 2, coarse, {1}, opts);
    ASSERT_EQ(plan.pieces.size(), 1u);
    EXPECT_EQ(plan.reason[0], StayReason::SeveralWriters);
  }
}

TEST(Residency, SplitAtPieces) {
  // A 3 x 4 x 8 box over pieces of 2 rows of 8 elements (64 bytes): the
  // outer dimension is cut into runs, a row across an end further.
  std::vector<DramBuffer> pieces{{0, 64}, {64, 96}, {160, 1000}};
  Command c = dma(DmaDir::Load, 0, 4096, 8);
  c.dma.shape[2] = 4;
  c.dma.srcStride[2] = 8;
  c.dma.dstStride[2] = 8;
  std::vector<DmaDesc> parts;
  ASSERT_TRUE(splitAtPieces(c.dma, pieces, 16, parts));
  // Rows 0-1 in piece 0, rows 2-3 in piece 1 ([64, 128)).
  ASSERT_EQ(parts.size(), 2u);
  EXPECT_EQ(parts[0].shape[2], 2u);
  EXPECT_EQ(parts[1].src, 64u);
  EXPECT_EQ(parts[1].dst, 4096u + 64);
  // Rows of 8 elements starting at byte 8: every row but the last crosses
  // no end except row 1 ([40, 72)), which is cut into elements.
  c.dma.src = 8;
  ASSERT_TRUE(splitAtPieces(c.dma, pieces, 16, parts));
  size_t elems = 0;
  for (const DmaDesc &d : parts) {
    uint64_t lo = d.src, hi = d.src + d.numElements() * 4;
    EXPECT_TRUE((hi <= 64) || (lo >= 64 && hi <= 160)) << lo << " " << hi;
    elems += d.numElements();
  }
  EXPECT_EQ(elems, 32u);
  EXPECT_FALSE(splitAtPieces(c.dma, pieces, 2, parts)); // too many parts
}

TEST(Residency, StridedUnitsStayOneBox) {
  // Two writers interleave runs of 64 bytes (16 floats) at a period of 128
  // over 4 periods: units {0, 64, 128, 4} and {64, 64, 128, 4}. A box of
  // the 4 runs of unit 0 (shape [4, 16], source stride 32 floats = one
  // period) is one part; so is the box of every run of both writers cut
  // along its inner dimension (2 parts, one per unit), and a box of a
  // single run.
  std::vector<DramBuffer> pieces;
  std::vector<int64_t> unitOf;
  for (uint64_t k = 0; k < 8; ++k) {
    pieces.push_back({64 * k, 64});
    unitOf.push_back(int64_t(k % 2));
  }
  std::vector<PieceUnit> units{{0, 64, 128, 4}, {64, 64, 128, 4}};
  Command c = dma(DmaDir::Load, 0, 4096, 16);
  c.dma.shape[2] = 4;
  c.dma.srcStride[2] = 32;
  c.dma.dstStride[2] = 16;
  std::vector<DmaDesc> parts;
  ASSERT_TRUE(splitAtUnits(c.dma, pieces, unitOf, units, 16, parts));
  EXPECT_EQ(parts.size(), 1u);
  c.dma.shape[3] = 32; // both writers' runs of every period
  ASSERT_TRUE(splitAtUnits(c.dma, pieces, unitOf, units, 16, parts));
  ASSERT_EQ(parts.size(), 2u);
  EXPECT_EQ(parts[0].shape[3], 16u);
  EXPECT_EQ(parts[1].src, 64u);
  // Outer-first, one part per run: 8 parts, more than 4 allowed.
  EXPECT_TRUE(splitAtPieces(c.dma, pieces, 8, parts));
  EXPECT_EQ(parts.size(), 8u);
  EXPECT_FALSE(splitAtPieces(c.dma, pieces, 4, parts));
  EXPECT_TRUE(splitAtUnits(c.dma, pieces, unitOf, units, 4, parts));
  // A box reaching past the unit's last run does not fit one box.
  c.dma.shape[3] = 16;
  c.dma.shape[2] = 4;
  c.dma.src = 128;
  ASSERT_TRUE(splitAtUnits(c.dma, pieces, unitOf, units, 16, parts));
  EXPECT_EQ(parts.size(), 2u);
}

TEST(Residency, StridedUnitsAreRewrittenAsOneStorageBox) {
  // Cluster c writes rows 2c, 2c + 1 of each of 4 planes of 4 x 16 floats
  // (runs of 128 bytes, period 256: units smaller runs than the 256-byte
  // minimum, but 512 bytes each); in layer 1 each cluster reads its own
  // rows of every plane back with one box.
  Program p;
  p.clusters.resize(2);
  std::vector<std::vector<uint32_t>> layers(2);
  for (uint32_t cl = 0; cl < 2; ++cl) {
    Command w = rowBlockStore(cl, 4);
    Command r = w;
    r.dma.dir = DmaDir::Load;
    r.dma.src = cl * 128;
    r.dma.dst = 2048;
    r.dma.srcStride[2] = 64;
    r.dma.dstStride[2] = 32;
    p.clusters[cl].commands = {w, r};
    layers[cl] = {0, 1};
  }
  ResidencyOptions opts;
  opts.minRunPieceBytes = 256;
  ResidencyPlan plan =
      planResidency(p, smallMachine(), layers, 2, {{0, 1024}}, {1}, opts);
  ASSERT_EQ(plan.units.size(), 2u);
  for (size_t i = 0; i < plan.pieces.size(); ++i)
    EXPECT_EQ(plan.reason[i], StayReason::Resident) << i;
  applyResidency(p, plan, opts);
  for (uint32_t cl = 0; cl < 2; ++cl) {
    ASSERT_EQ(p.clusters[cl].commands.size(), 2u) << cl;
    const DmaDesc &st = p.clusters[cl].commands[0].dma;
    const DmaDesc &ld = p.clusters[cl].commands[1].dma;
    EXPECT_EQ(st.dir, DmaDir::LocalCopy);
    EXPECT_EQ(ld.dir, DmaDir::LocalCopy);
    // The 4 runs back to back in storage: plane stride 32 floats.
    EXPECT_EQ(st.dstStride[2], 32);
    EXPECT_EQ(ld.srcStride[2], 32);
    EXPECT_EQ(st.dst, ld.src);
  }
}

/// Owner 0 writes A (layer 0), cluster 1 reads it remotely (layer 1) and
/// signals cluster 0 at the end of that layer; cluster 0 receives that
/// signal in layer 2 (when `recv`) and writes B in layer 3, read in layer 4.
Program releaseProgram(bool recv, std::vector<std::vector<uint32_t>> &layers) {
  Program p;
  p.clusters.resize(2);
  layers.assign(2, {});
  auto add = [&](uint32_t cl, uint32_t layer, Command c) {
    p.clusters[cl].commands.push_back(c);
    layers[cl].push_back(layer);
  };
  add(0, 0, dma(DmaDir::Store, 0, 0, 64)); // A
  add(1, 1, dma(DmaDir::Load, 0, 0, 64));  // A, remotely
  Command w;
  w.kind = CommandKind::Wait;
  w.waitTags = 0xFF;
  w.waitPe = true;
  add(1, 1, w);
  Command sig;
  sig.kind = CommandKind::Signal;
  sig.mesh->targets = {0};
  sig.mesh->sem = 1;
  add(1, 1, sig);
  if (recv) {
    Command r;
    r.kind = CommandKind::Recv;
    r.sem = 1;
    add(0, 2, r);
  }
  add(0, 3, dma(DmaDir::Store, 0, 256, 64)); // B
  add(0, 4, dma(DmaDir::Load, 256, 0, 64));  // B, locally
  return p;
}

TEST(Residency, RemotelyReadStorageIsReusedAfterTheOwnerSynchronised) {
  std::vector<std::vector<uint32_t>> layers;
  std::vector<DramBuffer> pieces{{0, 256}, {256, 256}};
  std::vector<char> inter{1, 1};
  HardwareDesc hw = smallMachine();
  Program p = releaseProgram(true, layers);
  ResidencyPlan plan = planResidency(p, hw, layers, 5, pieces, inter);
  ASSERT_TRUE(plan.resident(0) && plan.resident(1));
  EXPECT_EQ(plan.storageAddr[0], plan.storageAddr[1]); // A freed at layer 2
  // Without the RECV cluster 0 never learns that the read is over.
  p = releaseProgram(false, layers);
  plan = planResidency(p, hw, layers, 5, pieces, inter);
  ASSERT_TRUE(plan.resident(0) && plan.resident(1));
  EXPECT_NE(plan.storageAddr[0], plan.storageAddr[1]);
  // Barrier mode: every layer ends with all DMAs done.
  ResidencyOptions o;
  o.barrierSync = true;
  plan = planResidency(p, hw, layers, 5, pieces, inter, o);
  EXPECT_EQ(plan.storageAddr[0], plan.storageAddr[1]);
}

TEST(Residency, NoSharedCacheKeepsRemotelyReadPiecesInDram) {
  Fixture f;
  HardwareDesc hw = smallMachine();
  hw.sharedClusterCache = false;
  ResidencyPlan plan = planResidency(f.p, hw, f.layers, 3, f.pieces,
                                     intermediatePieces(f.p, f.pieces));
  EXPECT_EQ(plan.reason[1], StayReason::OtherAccess);
}

TEST(Residency, FullStorageSpills) {
  Fixture f;
  HardwareDesc hw = smallMachine();
  hw.storageBytes = 1400; // 1280 + 256 does not fit
  ResidencyPlan plan = planResidency(f.p, hw, f.layers, 3, f.pieces,
                                     intermediatePieces(f.p, f.pieces));
  EXPECT_EQ(plan.reason[1], StayReason::NoRoom);
  EXPECT_FALSE(plan.resident(1));
}

TEST(Residency, ReadBeforeWriteStaysInDram) {
  // Cluster 0 writes half of the piece in layer 0 and reads all of it in
  // layer 1 (the other half is DRAM's zeros).
  Program p;
  p.clusters.resize(1);
  p.clusters[0].commands = {dma(DmaDir::Store, 0, 0, 32),
                            dma(DmaDir::Load, 0, 512, 64)};
  std::vector<DramBuffer> pieces{{0, 256}};
  HardwareDesc hw = smallMachine();
  ResidencyPlan plan =
      planResidency(p, hw, {{0, 1}}, 2, pieces, std::vector<char>{1});
  EXPECT_EQ(plan.reason[0], StayReason::ReadBeforeWrite);
  // Written in full first: resident, and the owner's DRAM copy out of it
  // becomes a store from storage.
  p.clusters[0].commands = {dma(DmaDir::Store, 0, 0, 64),
                            dma(DmaDir::DramCopy, 0, 256, 64)};
  pieces.push_back({256, 256});
  plan = planResidency(p, hw, {{0, 1}}, 2, pieces, std::vector<char>{1, 0});
  ASSERT_EQ(plan.reason[0], StayReason::Resident);
  applyResidency(p, plan);
  EXPECT_EQ(p.clusters[0].commands[1].dma.dir, DmaDir::Store);
  EXPECT_EQ(p.clusters[0].commands[1].dma.src, plan.storageAddr[0]);
  EXPECT_EQ(p.clusters[0].commands[1].dma.dst, 256u);
}

TEST(Residency, CopiesByOtherClustersOrInsideAPieceStayInDram) {
  Program p;
  p.clusters.resize(2);
  p.clusters[0].commands = {dma(DmaDir::Store, 0, 0, 64)};
  p.clusters[1].commands = {dma(DmaDir::DramCopy, 0, 256, 64)};
  std::vector<DramBuffer> pieces{{0, 256}, {256, 256}};
  HardwareDesc hw = smallMachine();
  ResidencyPlan plan =
      planResidency(p, hw, {{0}, {1}}, 2, pieces, std::vector<char>{1, 0});
  EXPECT_EQ(plan.reason[0], StayReason::OtherAccess);
  p.clusters[1].commands.clear();
  p.clusters[0].commands.push_back(dma(DmaDir::DramCopy, 0, 128, 16));
  plan = planResidency(p, hw, {{0, 1}, {}}, 2, pieces, {1, 0});
  EXPECT_EQ(plan.reason[0], StayReason::OtherAccess);
}

} // namespace

// residency=on keeps a piece in DRAM when serving its remote reads over the
// mesh would cost more than its DRAM accesses (Residency.cpp,
// remoteReadsCostMore). A 2x2 machine, one 128 B/cycle channel (latency
// 100, shared by 4 clusters), 32 B/cycle links: cluster 0 writes a piece
// in layer 0 and reads it once; clusters 1-3 read it `times` times each in
// layer 1, `bytes` per access.
TEST(Residency, PiecesStreamedByManyClustersStayInDram) {
  HardwareDesc hw;
  hw.rows = hw.cols = 2;
  hw.storageBytes = 1 << 20;
  hw.linkBytesPerCycle = 32;
  hw.hopLatency = 2;
  hw.channels.assign(1, MemoryChannel());
  hw.channels[0].bytesPerCycle = 128;
  hw.channels[0].latencyCycles = 100;
  auto plan = [&](uint32_t floats, int times, ResidencyOptions o = {}) {
    Program p;
    p.clusters.resize(4);
    std::vector<std::vector<uint32_t>> layers(4);
    auto add = [&](uint32_t cl, uint32_t layer, Command c) {
      p.clusters[cl].commands.push_back(c);
      layers[cl].push_back(layer);
    };
    add(0, 0, dma(DmaDir::Store, 0, 0, floats));
    add(0, 1, dma(DmaDir::Load, 0, 0, floats));
    for (uint32_t cl = 1; cl < 4; ++cl)
      for (int k = 0; k < times; ++k)
        add(cl, 1, dma(DmaDir::Load, 0, 0, floats));
    std::vector<DramBuffer> pieces{{0, uint64_t(floats) * 4}};
    return planResidency(p, hw, layers, 2, pieces, {1}, o);
  };
  // 64 KB loads, each reader streaming the piece 4 times: 12 remote loads
  // of 2 + 65536 / (64 / 3) = 3074 cycles (36.9 k) against 14 DRAM
  // accesses of 100 + 65536 * 4 / 128 = 2148 (30.1 k): it stays in DRAM.
  ResidencyPlan streamed = plan(16384, 4);
  EXPECT_EQ(streamed.reason[0], StayReason::MeshBound);
  EXPECT_FALSE(streamed.resident(0));
  // residency=all (meshAware off) keeps it on chip.
  ResidencyOptions all;
  all.meshAware = false;
  EXPECT_EQ(plan(16384, 4, all).reason[0], StayReason::Resident);
  // Read once by each: 9.2 k against 10.7 k, resident.
  EXPECT_EQ(plan(16384, 1).reason[0], StayReason::Resident);
  // Small loads are latency-bound, faster over the mesh: 256 B each, 4
  // times, resident.
  EXPECT_EQ(plan(64, 4).reason[0], StayReason::Resident);
}
