//===- SparseWeightsTest.cpp - (value, index) weight encoding -------------===//
#include "accel/Target/SparseWeights.h"
#include <cmath>
#include <gtest/gtest.h>

using namespace accel;

TEST(SparseWeights, EncodeParseDensify) {
  // 2 x 3 tile inside a wider matrix (ldw 4); -0.0 is a zero, NaN is kept.
  const float w[] = {0,     1.5f, 0,  9, //
                     -0.0f, 0,    -2, 9};
  std::vector<SparsePair> pairs;
  std::string err;
  ASSERT_TRUE(encodeSparseTile(w, 2, 3, 4, pairs, err)) << err;
  ASSERT_EQ(pairs.size(), 2u);
  EXPECT_EQ(pairs[0], (SparsePair{1.5f, 1}));  // k 0, n 1
  EXPECT_EQ(pairs[1], (SparsePair{-2.0f, 5})); // k 1, n 2
  std::vector<uint8_t> bytes;
  ASSERT_TRUE(sparseTileBytes(pairs, 4, bytes, err)) << err;
  ASSERT_EQ(bytes.size(), 32u);
  // Pair 0: 1.5f = 0x3fc00000, index 1; padding index 0xffffffff.
  EXPECT_EQ(bytes[3], 0x3f);
  EXPECT_EQ(bytes[2], 0xc0);
  EXPECT_EQ(bytes[4], 1);
  EXPECT_EQ(bytes[16 + 4], 0xff);
  std::vector<SparsePair> back;
  ASSERT_TRUE(parseSparseTile(bytes.data(), 4, 2, 3, back, err)) << err;
  EXPECT_EQ(back, pairs);
  EXPECT_EQ(densifySparseTile(back, 2, 3),
            (std::vector<float>{0, 1.5f, 0, 0, 0, -2}));
  const float nan[] = {NAN};
  ASSERT_TRUE(encodeSparseTile(nan, 1, 1, 1, pairs, err));
  EXPECT_EQ(pairs.size(), 1u);
}

TEST(SparseWeights, Errors) {
  std::vector<SparsePair> pairs = {{1, 0}, {2, 1}};
  std::vector<uint8_t> bytes;
  std::string err;
  EXPECT_FALSE(sparseTileBytes(pairs, 1, bytes, err));
  EXPECT_NE(err.find("exceed the list capacity 1"), std::string::npos);
  float w[4] = {};
  EXPECT_FALSE(encodeSparseTile(w, 2, 2, 1, pairs, err));
  EXPECT_NE(err.find("leading dimension"), std::string::npos);
  EXPECT_FALSE(encodeSparseTile(w, 65536, 65536, 65536, pairs, err));
  EXPECT_NE(err.find("32-bit"), std::string::npos);

  auto parse = [&](std::vector<SparsePair> in, uint32_t K, uint32_t N) {
    std::vector<uint8_t> b;
    std::string e;
    EXPECT_TRUE(sparseTileBytes(in, 0, b, e));
    std::vector<SparsePair> out;
    EXPECT_FALSE(parseSparseTile(b.data(), uint32_t(in.size()), K, N, out, e));
    return e;
  };
  EXPECT_NE(parse({{1, 3}, {1, 2}}, 2, 2).find("does not increase"),
            std::string::npos);
  EXPECT_NE(parse({{1, 4}}, 2, 2).find("outside the 2 x 2 tile"),
            std::string::npos);
  EXPECT_NE(parse({{0, kSparsePad}, {1, 1}}, 2, 2).find("follows a padding"),
            std::string::npos);
}
