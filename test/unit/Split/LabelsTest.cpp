//===- LabelsTest.cpp - Static / dynamic labels ---------------------------===//
#include "accel/Split/Labels.h"

#include <gtest/gtest.h>

using namespace accel;
using namespace accel::split;

TEST(Labels, CategoryCodesRoundTrip) {
  const Category all[] = {
      Category::Instruction,  Category::InputNeuron,    Category::OutputNeuron,
      Category::HiddenNeuron, Category::ConstantNeuron, Category::InputWeight,
      Category::OutputWeight, Category::ConstantWeight, Category::Auxiliary};
  const char *codes[] = {"ins", "in", "on", "hn", "cn",
                         "iw",  "ow", "cw", "aux"};
  for (size_t i = 0; i < 9; ++i) {
    EXPECT_STREQ(categoryCode(all[i]), codes[i]);
    Category c;
    ASSERT_TRUE(parseCategory(codes[i], c));
    EXPECT_EQ(c, all[i]);
  }
  Category c;
  EXPECT_FALSE(parseCategory("weight", c));
  EXPECT_FALSE(parseCategory("", c));
}

// [0149] with "out > 1" read as ">= 1".
TEST(Labels, CategoryFromDegree) {
  using R = OperandRole;
  EXPECT_EQ(categoryFromDegree(0, 0, R::Data, false), Category::Instruction);
  EXPECT_EQ(categoryFromDegree(0, 1, R::Data, false), Category::InputNeuron);
  EXPECT_EQ(categoryFromDegree(0, 3, R::Data, true), Category::ConstantNeuron);
  EXPECT_EQ(categoryFromDegree(0, 1, R::Weight, false), Category::InputWeight);
  EXPECT_EQ(categoryFromDegree(0, 2, R::Weight, true),
            Category::ConstantWeight);
  EXPECT_EQ(categoryFromDegree(0, 1, R::Auxiliary, true), Category::Auxiliary);
  EXPECT_EQ(categoryFromDegree(0, 1, R::Auxiliary, false), Category::Auxiliary);
  EXPECT_EQ(categoryFromDegree(1, 0, R::Data, false), Category::OutputNeuron);
  EXPECT_EQ(categoryFromDegree(2, 0, R::Weight, true, /*isWeight=*/true),
            Category::OutputWeight);
  EXPECT_EQ(categoryFromDegree(1, 1, R::Data, false), Category::HiddenNeuron);
  EXPECT_EQ(categoryFromDegree(1, 4, R::Weight, true), Category::HiddenNeuron);
}

TEST(Labels, TypesAndStorage) {
  EXPECT_EQ(typeBytes("float32"), 4u);
  EXPECT_EQ(typeBytes("float16"), 2u);
  EXPECT_EQ(typeBytes("bfloat16"), 2u);
  EXPECT_EQ(typeBytes("int8"), 1u);
  EXPECT_EQ(typeBytes("int64"), 8u);
  EXPECT_EQ(typeBytes("f16"), 0u);
  EXPECT_STREQ(labelTypeName(DType::F16), "float16");
  EXPECT_STREQ(labelTypeName(DType::BF16), "bfloat16");
  EXPECT_STREQ(labelTypeName(DType::F32), "float32");

  StorageTarget t;
  ASSERT_TRUE(parseStorageTarget("mem", t));
  EXPECT_EQ(t, (StorageTarget{StorageTarget::Mem, 0}));
  ASSERT_TRUE(parseStorageTarget("cluster2", t));
  EXPECT_EQ(t, (StorageTarget{StorageTarget::Cluster, 2}));
  EXPECT_EQ(t.str(), "cluster2");
  ASSERT_TRUE(parseStorageTarget("mem12", t));
  EXPECT_EQ(t.str(), "mem12");
  for (const char *bad : {"mem0", "mem-1", "memx", "disk", "", "cluster01",
                          "mem99999999999999999999"})
    EXPECT_FALSE(parseStorageTarget(bad, t)) << bad;

  Swap s;
  for (Swap x : {Swap::None, Swap::Core, Swap::Cluster, Swap::Mem}) {
    ASSERT_TRUE(parseSwap(swapName(x), s));
    EXPECT_EQ(s, x);
  }
  EXPECT_FALSE(parseSwap("bus", s));
}

TEST(Labels, DefaultDimOrders) {
  EXPECT_EQ(*defaultDimOrder(0), "");
  EXPECT_EQ(*defaultDimOrder(1), "c");
  EXPECT_EQ(*defaultDimOrder(2), "nc");
  EXPECT_EQ(*defaultDimOrder(3), "nct");
  EXPECT_EQ(*defaultDimOrder(4), "nchw");
  EXPECT_EQ(*defaultDimOrder(5), "ncdhw");
  EXPECT_FALSE(defaultDimOrder(6).has_value());
}

TEST(Labels, GemmDims) {
  using O = GemmOperand;
  EXPECT_EQ(gemmDimOf(O::MatmulA, 'n'), GemmDim::M);
  EXPECT_EQ(gemmDimOf(O::MatmulA, 'c'), GemmDim::K);
  EXPECT_EQ(gemmDimOf(O::MatmulB, 'c'), GemmDim::K);
  EXPECT_EQ(gemmDimOf(O::MatmulB, 'n'), GemmDim::N);
  EXPECT_EQ(gemmDimOf(O::MatmulResult, 'n'), GemmDim::M);
  EXPECT_EQ(gemmDimOf(O::MatmulResult, 'c'), GemmDim::N);
  EXPECT_EQ(gemmDimOf(O::MatmulA, 'h'), GemmDim::None);
  EXPECT_EQ(gemmDimOf(O::ConvWeight, 'n'), GemmDim::M);
  EXPECT_EQ(gemmDimOf(O::ConvWeight, 'c'), GemmDim::K);
  EXPECT_EQ(gemmDimOf(O::ConvWeight, 'h'), GemmDim::None);
  EXPECT_EQ(gemmDimOf(O::ConvInput, 'n'), GemmDim::Batch);
  EXPECT_EQ(gemmDimOf(O::ConvInput, 'c'), GemmDim::K);
  EXPECT_EQ(gemmDimOf(O::ConvInput, 'h'), GemmDim::N);
  EXPECT_EQ(gemmDimOf(O::ConvInput, 'w'), GemmDim::N);
  EXPECT_EQ(gemmDimOf(O::ConvOutput, 'c'), GemmDim::M);
  EXPECT_EQ(gemmDimOf(O::ConvOutput, 'w'), GemmDim::N);
  EXPECT_EQ(gemmDimOf(O::ConvOutput, 'n'), GemmDim::Batch);
  EXPECT_STREQ(gemmDimName(GemmDim::K), "K");
  EXPECT_STREQ(gemmDimName(GemmDim::Batch), "batch");
}

// Step S0 on the tensors of application example 1 (tiles 256 / 512, f16).
TEST(Labels, ProcessorLabel) {
  StaticLabel i{Category::InputNeuron, "float32", "nc", {1, 1024}};
  DynamicLabel d = processorLabel(i, "float16", "nc", 256);
  EXPECT_EQ(d.type, "float16");
  EXPECT_EQ(d.dimOrder, "nc");
  EXPECT_EQ(d.tileDim, 'c');
  EXPECT_EQ(d.tile, 256);
  EXPECT_EQ(d.padDim, 'c');
  EXPECT_EQ(d.pad, 0);
  EXPECT_EQ(d.sizeBytes, 2048u);

  // w: static cn {1000 4}, processor order nc, tile 512: tiles of 512 and
  // 488, padded by 24 to 4 x 1024 -> 8192 bytes of f16.
  StaticLabel w{Category::InputWeight, "float32", "cn", {1000, 4}};
  d = processorLabel(w, "float16", "nc", 512);
  EXPECT_EQ(d.dimOrder, "nc");
  EXPECT_EQ(d.tileDim, 'c');
  EXPECT_EQ(d.tile, 512);
  EXPECT_EQ(d.pad, 24);
  EXPECT_EQ(d.sizeBytes, 8192u);
  EXPECT_EQ(operationDim(w, d, 'c'), 1024);
  EXPECT_EQ(operationDim(w, d, 'n'), 4);
  EXPECT_EQ(operationDim(w, d, 'h'), -1);

  // The tile never exceeds the extent: o {1 4} -> c=4, no padding.
  StaticLabel o{Category::OutputNeuron, "float32", "nc", {1, 4}};
  d = processorLabel(o, "float16", "nc", 256);
  EXPECT_EQ(d.tile, 4);
  EXPECT_EQ(d.pad, 0);
  EXPECT_EQ(d.sizeBytes, 8u);

  // Not a permutation: the static order is kept. Tile <= 0: whole extent.
  d = processorLabel(o, "float32", "nch", 0);
  EXPECT_EQ(d.dimOrder, "nc");
  EXPECT_EQ(d.tile, 4);
  EXPECT_EQ(d.sizeBytes, 16u);
  // A zero extent: tile 0, no padding, 0 bytes.
  StaticLabel e{Category::HiddenNeuron, "float32", "nc", {3, 0}};
  d = processorLabel(e, "float32", "nc", 64);
  EXPECT_EQ(d.tile, 0);
  EXPECT_EQ(d.pad, 0);
  EXPECT_EQ(d.sizeBytes, 0u);
  // A scalar: no tiling.
  StaticLabel sc{Category::HiddenNeuron, "float32", "", {}};
  d = processorLabel(sc, "float16", "", 64);
  EXPECT_EQ(d.tileDim, 0);
  EXPECT_EQ(d.sizeBytes, 2u);
  EXPECT_EQ(d.str(), "dynamic:float16,dim_,none,none,2 bytes,none,mem,none");
}

TEST(Labels, TextRoundTrip) {
  StaticLabel s{Category::InputWeight, "float32", "cn", {1000, 4}};
  EXPECT_EQ(s.str(), "static:iw,float32,dim_cn,{1000 4}");
  StaticLabel back;
  std::string err;
  ASSERT_TRUE(parseStaticLabel(s.str(), back, err)) << err;
  EXPECT_EQ(back, s);

  const char *dyn = "dynamic:float16,dim_nc,c=256,c=0,2048 bytes,"
                    "c[(0,255),(256,511),(512,767),(768,1023)],mem,none";
  DynamicLabel d;
  ASSERT_TRUE(parseDynamicLabel(dyn, d, err)) << err;
  EXPECT_EQ(d.type, "float16");
  EXPECT_EQ(d.tile, 256);
  EXPECT_EQ(d.sizeBytes, 2048u);
  EXPECT_EQ(d.splitDim, 'c');
  ASSERT_EQ(d.ranges.size(), 4u);
  EXPECT_EQ(d.ranges[3], PieceRange(768, 1023));
  EXPECT_EQ(d.str(), dyn);
  ASSERT_TRUE(parseDynamicLabel(
      "dynamic:float16,dim_nc,c=4,c=0,8 bytes,c[(0,3)],cluster2,core", d, err))
      << err;
  EXPECT_EQ(d.store, (StorageTarget{StorageTarget::Cluster, 2}));
  EXPECT_EQ(d.swap, Swap::Core);
  ASSERT_TRUE(parseDynamicLabel(
      "dynamic:float32,dim_c,none,none,0 bytes,none,mem,none", d, err))
      << err;
  EXPECT_EQ(d.splitDim, 0);
  EXPECT_TRUE(d.ranges.empty());
  EXPECT_EQ(d.str(), "dynamic:float32,dim_c,none,none,0 bytes,none,mem,none");
}

struct TextErr {
  const char *text;
  const char *expect;
};

TEST(Labels, ParseErrorsNameThePart) {
  const TextErr statics[] = {
      {"static:in,float32,dim_nc", "expected 4 comma-separated parts"},
      {"label:in,float32,dim_nc,{1 2}", "expected 'static:'"},
      {"static:xx,float32,dim_nc,{1 2}", "category: unknown code 'xx'"},
      {"static:in,float64,dim_nc,{1 2}", "type: unknown element type"},
      {"static:in,float32,nc,{1 2}", "dim order: expected 'dim_<letters>'"},
      {"static:in,float32,dim_NC,{1 2}", "dim order: 'NC'"},
      {"static:in,float32,dim_nn,{1 2}", "'n' appears twice"},
      {"static:in,float32,dim_nc,{1}", "names 2 dims but 1 extents"},
      {"static:in,float32,dim_nc,{1 x}", "dims: 'x' is not an integer"},
      {"static:in,float32,dim_nc,{1 -2}", "negative extent -2"},
      {"static:in,float32,dim_nc,1 2", "dims: expected '{extent ...}'"},
  };
  for (const TextErr &c : statics) {
    StaticLabel s;
    std::string err;
    EXPECT_FALSE(parseStaticLabel(c.text, s, err)) << c.text;
    EXPECT_NE(err.find(c.expect), std::string::npos)
        << c.text << "\n  got: " << err;
    EXPECT_EQ(err.rfind("static label: ", 0), 0u) << err;
  }
  const char *base = "dynamic:float16,dim_nc,c=4,c=0,8 bytes,c[(0,3)],mem,none";
  DynamicLabel ok;
  std::string err;
  ASSERT_TRUE(parseDynamicLabel(base, ok, err)) << err;
  const TextErr dynamics[] = {
      {"dynamic:float16,dim_nc,c=4,c=0,8 bytes,c[(0,3)],mem",
       "expected 8 comma-separated parts"},
      {"dynamic:half,dim_nc,c=4,c=0,8 bytes,c[(0,3)],mem,none",
       "type: unknown element type 'half'"},
      {"dynamic:float16,dim_nc,c4,c=0,8 bytes,c[(0,3)],mem,none",
       "tiling: expected '<dim>=<count>' or 'none', got 'c4'"},
      {"dynamic:float16,dim_nc,c=4,c=-1,8 bytes,c[(0,3)],mem,none",
       "padding: expected"},
      {"dynamic:float16,dim_nc,c=4,c=0,8,c[(0,3)],mem,none",
       "size: expected '<n> bytes', got '8'"},
      {"dynamic:float16,dim_nc,c=4,c=0,8 bytes,c(0,3),mem,none",
       "split: expected"},
      {"dynamic:float16,dim_nc,c=4,c=0,8 bytes,c[(3,0)],mem,none",
       "split: range (3,0) is not 0 <= first <= last"},
      {"dynamic:float16,dim_nc,c=4,c=0,8 bytes,c[(0,3)],disk,none",
       "store: unknown storage space 'disk'"},
      {"dynamic:float16,dim_nc,c=4,c=0,8 bytes,c[(0,3)],mem,bus",
       "swap: unknown exchange level 'bus'"},
  };
  for (const TextErr &c : dynamics) {
    DynamicLabel d = ok;
    EXPECT_FALSE(parseDynamicLabel(c.text, d, err)) << c.text;
    EXPECT_NE(err.find(c.expect), std::string::npos)
        << c.text << "\n  got: " << err;
    EXPECT_EQ(d, ok) << "output written on error";
  }
}

TEST(Labels, CheckStaticLabel) {
  EXPECT_EQ(checkStaticLabel({Category::InputNeuron, "float32", "nc", {1, 2}}),
            "");
  EXPECT_NE(checkStaticLabel({Category::InputNeuron, "f32", "nc", {1, 2}}), "");
  EXPECT_NE(checkStaticLabel({Category::InputNeuron, "float32", "n1", {1, 2}}),
            "");
}
