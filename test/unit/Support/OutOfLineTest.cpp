//===- OutOfLineTest.cpp - Members held behind a pointer ------------------===//
#include "accel/Support/OutOfLine.h"

#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

using namespace accel;

namespace {

struct Pair {
  int a = 7;
  std::string b = "seven";
};

TEST(OutOfLine, EmptyReadsTheDefaultWithoutAllocating) {
  const OutOfLine<Pair> none;
  EXPECT_FALSE(none.present());
  EXPECT_EQ(none->a, 7);
  EXPECT_EQ(none.get().b, "seven");
  const Pair &asRef = none; // the implicit read conversion
  EXPECT_EQ(asRef.a, 7);
  EXPECT_FALSE(none.present());
  EXPECT_EQ(sizeof(OutOfLine<Pair>), sizeof(void *));
}

TEST(OutOfLine, CopiesAreDeepAndMovesTakeTheValue) {
  OutOfLine<Pair> x;
  x->a = 1; // created on the first mutable access
  EXPECT_TRUE(x.present());
  OutOfLine<Pair> y = x;
  y->b = "changed";
  EXPECT_EQ(x->b, "seven");
  EXPECT_EQ(y->a, 1);
  x = y;
  EXPECT_EQ(x->b, "changed");
  x = x; // self-assignment keeps the value
  EXPECT_EQ(x->b, "changed");
  OutOfLine<Pair> z = std::move(y);
  EXPECT_EQ(z->b, "changed");
  OutOfLine<Pair> w;
  w = Pair{3, "three"};
  EXPECT_EQ(w->a, 3);
  const Pair p{4, "four"};
  w = p;
  EXPECT_EQ((*w).b, "four");
  // An empty source copies as empty.
  OutOfLine<Pair> e, f = e;
  EXPECT_FALSE(f.present());
}

TEST(OutOfLineVector, BehavesAsTheVectorItHolds) {
  OutOfLineVector<int> v;
  EXPECT_TRUE(v.empty());
  EXPECT_EQ(v.size(), 0u);
  EXPECT_EQ(v.begin(), v.end());
  v.clear(); // on an empty holder: nothing to allocate
  v.push_back(1);
  v.emplace_back(2);
  v.resize(4, 9);
  EXPECT_EQ(v.vector(), (std::vector<int>{1, 2, 9, 9}));
  v[3] = 5;
  EXPECT_EQ(v.back(), 5);
  int sum = 0;
  for (int x : v)
    sum += x;
  EXPECT_EQ(sum, 17);
  OutOfLineVector<int> copy = v; // deep
  copy[0] = 100;
  EXPECT_EQ(v[0], 1);
  std::vector<int> plain = v; // the implicit read conversion
  EXPECT_EQ(plain.size(), 4u);
  v = {7, 8};
  EXPECT_EQ(v.size(), 2u);
  v = std::vector<int>{3};
  EXPECT_EQ(v.vector(), std::vector<int>{3});
  v.clear();
  EXPECT_TRUE(v.empty());
  const OutOfLineVector<int> init{4, 5, 6};
  EXPECT_EQ(init[2], 6);
  EXPECT_EQ(sizeof(OutOfLineVector<int>), sizeof(void *));
}

} // namespace
