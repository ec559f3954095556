//===- ApplicationExampleTest.cpp - The spec's application examples -------===//
//
// Application examples 1 and 2 of spec/labels-and-splits.md (Fig. 5: a
// fully-connected layer, model parallel, on 2 clusters x 2 cores with 2
// memory channels), computed from hw/labels-example(-nocache).json and the
// shipped strategy databases, compared with the labels the spec prints
// (after its corrections).
//
//===----------------------------------------------------------------------===//
#include "accel/Split/Split.h"

#include "accel/Hardware/HardwareDesc.h"

#include <gtest/gtest.h>

using namespace accel;
using namespace accel::split;

namespace {
HardwareDesc preset(const std::string &name) {
  HardwareDesc hw;
  std::string err;
  EXPECT_TRUE(loadHardwareDesc(
      std::string(ACCEL_SOURCE_DIR) + "/hw/" + name + ".json", hw, err))
      << err;
  return hw;
}

struct Machine {
  HardwareDesc hw;
  StrategyDatabase db;
  uint64_t M = 0, C = 0;
  std::string type;
  explicit Machine(const std::string &name) : hw(preset(name)) {
    std::string err;
    EXPECT_TRUE(loadStrategyDatabase(hw, db, err)) << err;
    M = hw.channels.size();
    C = uint64_t(hw.numClusters()) * hw.pesPerCluster;
    type = labelTypeName(hw.computeType);
  }
  const StrategyRow &row(Category c) const {
    const StrategyRow *r = db.lookup("matmul", {{"parallel", "model"}}, c);
    EXPECT_TRUE(r) << categoryCode(c);
    static const StrategyRow empty;
    return r ? *r : empty;
  }
};

/// S15 / S16 spelled out: target dim, piece count, ranges, store, swap.
DynamicLabel splitByHand(const StaticLabel &s, DynamicLabel d,
                         const StrategyRow &row, uint64_t M, uint64_t C) {
  std::vector<int64_t> D;
  for (const SplitOption &o : row.dims)
    D.push_back(operationDim(s, d, o.dim));
  auto t = selectTargetDim(D, M);
  if (!t) { // not split: one range over the innermost processor dim
    d.splitDim = d.dimOrder.back();
    d.ranges = {{0, operationDim(s, d, d.splitDim) - 1}};
    d.store = row.store;
    d.swap = row.swap;
    return d;
  }
  PieceCount pc = pieceCount(D[*t], M, C);
  d.splitDim = row.dims[*t].dim;
  d.ranges = pieceRanges(D[*t], pc);
  d.store = row.dims[*t].store;
  d.swap = row.dims[*t].swap;
  return d;
}

StorageTarget st(StorageTarget::Kind kind, uint32_t instance) {
  StorageTarget t;
  t.kind = kind;
  t.instance = instance;
  return t;
}

const char *kI = "dynamic:float16,dim_nc,c=256,c=0,2048 bytes,"
                 "c[(0,255),(256,511),(512,767),(768,1023)],mem,none";
const char *kW = "dynamic:float16,dim_nc,c=512,c=24,8192 bytes,"
                 "c[(0,255),(256,511),(512,767),(768,1023)],mem,none";
} // namespace

TEST(ApplicationExample, Example1Labels) {
  Machine m("labels-example");
  ASSERT_EQ(m.M, 2u);
  ASSERT_EQ(m.C, 4u);
  ASSERT_EQ(m.type, "float16");

  // i: 1 x 1024 input neuron, tiling 256 (split.activation_tile).
  StaticLabel i{Category::InputNeuron, "float32", "nc", {1, 1024}};
  EXPECT_EQ(i.str(), "static:in,float32,dim_nc,{1 1024}");
  DynamicLabel di = processorLabel(i, m.type, "nc", m.hw.activationTile());
  EXPECT_EQ(splitByHand(i, di, m.row(Category::InputNeuron), m.M, m.C).str(),
            kI);
  std::string err;
  ASSERT_TRUE(applySplit(i, di, m.row(Category::InputNeuron), m.M, m.C,
                         Rounding::Ceil, err))
      << err;
  EXPECT_EQ(di.str(), kI);

  // w: 1000 real rows of 4 weights, static cn; the processor reads nc,
  // tiles of 512 (split.weight_tile): 512 + 488, padding 24 -> 4 x 1024 of
  // f16 = 8192 bytes; split on the reduction dim c into 4 ranges of 256.
  StaticLabel w{Category::InputWeight, "float32", "cn", {1000, 4}};
  EXPECT_EQ(w.str(), "static:iw,float32,dim_cn,{1000 4}");
  DynamicLabel dw = processorLabel(w, m.type, "nc", m.hw.weightTile());
  EXPECT_EQ(dw.sizeBytes, 8192u);
  EXPECT_EQ(splitByHand(w, dw, m.row(Category::InputWeight), m.M, m.C).str(),
            kW);
  ASSERT_TRUE(applySplit(w, dw, m.row(Category::InputWeight), m.M, m.C,
                         Rounding::Ceil, err))
      << err;
  EXPECT_EQ(dw.str(), kW);

  // o: 1 x 4 output neuron, not split, kept in the cluster caches and
  // exchanged between the cores of a cluster.
  StaticLabel o{Category::OutputNeuron, "float32", "nc", {1, 4}};
  EXPECT_EQ(o.str(), "static:on,float32,dim_nc,{1 4}");
  DynamicLabel dout = processorLabel(o, m.type, "nc", m.hw.activationTile());
  const char *kO =
      "dynamic:float16,dim_nc,c=4,c=0,8 bytes,c[(0,3)],cluster,core";
  EXPECT_EQ(splitByHand(o, dout, m.row(Category::OutputNeuron), m.M, m.C).str(),
            kO);
  ASSERT_TRUE(applySplit(o, dout, m.row(Category::OutputNeuron), m.M, m.C,
                         Rounding::Ceil, err))
      << err;
  EXPECT_EQ(dout.str(), kO);

  // The same through the helpers that pick order and tile per tensor.
  EXPECT_EQ(processorDimOrder(w, /*isMatmulWeight=*/true), "nc");
  EXPECT_EQ(processorDimOrder(i, /*isMatmulWeight=*/false), "nc");
  EXPECT_EQ(configuredTile(m.hw, w.category), 512);
  EXPECT_EQ(configuredTile(m.hw, Category::ConstantWeight), 512);
  EXPECT_EQ(configuredTile(m.hw, i.category), 256);
  EXPECT_EQ(configuredTile(m.hw, o.category), 256);
  EXPECT_EQ(processorLabel(w, m.type, processorDimOrder(w, true),
                           configuredTile(m.hw, w.category))
                .sizeBytes,
            8192u);

  // The printed labels parse back to the same labels.
  DynamicLabel back;
  ASSERT_TRUE(parseDynamicLabel(kW, back, err)) << err;
  EXPECT_EQ(back, dw);
  StaticLabel sback;
  ASSERT_TRUE(parseStaticLabel(w.str(), sback, err)) << err;
  EXPECT_EQ(sback, w);
}

// Example 2: the same layer without cluster caches: o lives in memory and
// is exchanged between clusters.
TEST(ApplicationExample, Example2WithoutCaches) {
  Machine m("labels-example-nocache");
  EXPECT_FALSE(m.hw.sharedClusterCache);
  EXPECT_EQ(m.db.architecture(), "bus-contention");
  StaticLabel o{Category::OutputNeuron, "float32", "nc", {1, 4}};
  DynamicLabel d = processorLabel(o, m.type, "nc", m.hw.activationTile());
  std::string err;
  ASSERT_TRUE(applySplit(o, d, m.row(Category::OutputNeuron), m.M, m.C,
                         Rounding::Ceil, err))
      << err;
  EXPECT_EQ(d.str(), "dynamic:float16,dim_nc,c=4,c=0,8 bytes,c[(0,3)],mem,"
                     "cluster");
  // i and w are unchanged: they never used the caches.
  StaticLabel i{Category::InputNeuron, "float32", "nc", {1, 1024}};
  DynamicLabel di = processorLabel(i, m.type, "nc", m.hw.activationTile());
  ASSERT_TRUE(applySplit(i, di, m.row(Category::InputNeuron), m.M, m.C,
                         Rounding::Ceil, err));
  EXPECT_EQ(di.str(), kI);
  StaticLabel w{Category::InputWeight, "float32", "cn", {1000, 4}};
  DynamicLabel dw = processorLabel(w, m.type, "nc", m.hw.weightTile());
  ASSERT_TRUE(applySplit(w, dw, m.row(Category::InputWeight), m.M, m.C,
                         Rounding::Ceil, err));
  EXPECT_EQ(dw.str(), kW);
}

// i1, i2, w1, w2 -> memory 1; i3, i4, w3, w4 -> memory 2 (cluster-local
// channels, contiguous blocks).
TEST(ApplicationExample, Placement) {
  Machine m("labels-example");
  std::vector<uint32_t> cores = coreOfPieces(4, m.C);
  EXPECT_EQ(cores, (std::vector<uint32_t>{0, 1, 2, 3}));
  StorageTarget mem{StorageTarget::Mem, 0};
  EXPECT_EQ(placePieces(cores, mem, m.hw), (std::vector<uint32_t>{0, 0, 1, 1}));
  EXPECT_EQ(st(StorageTarget::Mem, 1).str(), "mem1");
  // Cluster storage: each piece in its core's cluster cache.
  StorageTarget cl{StorageTarget::Cluster, 0};
  EXPECT_EQ(placePieces(cores, cl, m.hw), (std::vector<uint32_t>{0, 0, 1, 1}));
  // An explicit instance takes every piece (1-based in labels).
  EXPECT_EQ(placePieces(cores, st(StorageTarget::Mem, 2), m.hw),
            (std::vector<uint32_t>{1, 1, 1, 1}));
  EXPECT_EQ(placePieces(cores, st(StorageTarget::Cluster, 1), m.hw),
            (std::vector<uint32_t>{0, 0, 0, 0}));
  // Two pieces on four cores: cores 0 and 2, one per memory.
  EXPECT_EQ(placePieces(coreOfPieces(2, m.C), mem, m.hw),
            (std::vector<uint32_t>{0, 1}));
  EXPECT_EQ(checkStorageTarget(st(StorageTarget::Mem, 2), m.hw), "");
  EXPECT_EQ(checkStorageTarget(st(StorageTarget::Mem, 3), m.hw),
            "store mem3: the machine has 2 memory channels");
  EXPECT_EQ(checkStorageTarget(st(StorageTarget::Cluster, 5), m.hw),
            "store cluster5: the machine has 2 clusters");

  // The default 2 x 2 machine (16 cores, 2 channels): 16 pieces, clusters
  // 0,1 on channel 0 and 2,3 on channel 1.
  HardwareDesc def;
  std::vector<uint32_t> ch = placePieces(coreOfPieces(16, 16), mem, def);
  for (uint32_t p = 0; p < 16; ++p)
    EXPECT_EQ(ch[p], p < 8 ? 0u : 1u) << p;
  // Out-of-range instance or core: clamped, never out of bounds.
  EXPECT_EQ(placePieces({99}, mem, def), (std::vector<uint32_t>{1}));
  EXPECT_EQ(placePieces({0}, st(StorageTarget::Mem, 9), def),
            (std::vector<uint32_t>{1}));
}

// Execution of example 1: core1 o5 = o1 + o2, core3 o6 = o3 + o4, core1
// o7 = o5 + o6.
TEST(ApplicationExample, ReductionOfThePartials) {
  auto tree = reductionTree(4);
  ASSERT_EQ(tree.size(), 2u);
  EXPECT_EQ(tree[0],
            (std::vector<std::pair<uint32_t, uint32_t>>{{0, 1}, {2, 3}}));
  EXPECT_EQ(tree[1], (std::vector<std::pair<uint32_t, uint32_t>>{{0, 2}}));
}

TEST(ApplicationExample, SplitErrors) {
  StaticLabel o{Category::OutputNeuron, "float32", "nc", {1, 4}};
  DynamicLabel d = processorLabel(o, "float16", "nc", 256);
  StrategyRow row;
  row.op = "matmul";
  row.category = Category::OutputNeuron;
  row.dims.push_back({'h', {}, Swap::None});
  std::string err;
  EXPECT_FALSE(applySplit(o, d, row, 2, 4, Rounding::Ceil, err));
  EXPECT_EQ(err, "split dim 'h' of the matmul / on row is not a dim of dim_nc");
}
