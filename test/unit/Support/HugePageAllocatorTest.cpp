//===- HugePageAllocatorTest.cpp - Large arrays on huge pages -------------===//
//
// HugePageAllocator (accel/Support/HugePageAllocator.h): small arrays come
// from operator new, arrays of at least 1 MiB from their own 2 MiB-aligned
// zeroed mappings; either way a vector using it behaves as with
// std::allocator (growth keeps the elements, moves and swaps between
// vectors work because every allocator compares equal).
//
//===----------------------------------------------------------------------===//
#include "accel/Support/HugePageAllocator.h"

#include <algorithm>
#include <cstdint>
#include <gtest/gtest.h>
#include <vector>

using namespace accel;

namespace {
constexpr uintptr_t kHugePage = uintptr_t(2) << 20;
}

TEST(HugePageAllocator, LargeArraysAreAlignedZeroAndWritable) {
  for (size_t bytes :
       {hugepages::kMinBytes, size_t(3) << 20, (size_t(4) << 20) + 12345}) {
    auto *p = static_cast<uint8_t *>(hugepages::allocate(bytes));
    ASSERT_NE(p, nullptr);
    EXPECT_EQ(reinterpret_cast<uintptr_t>(p) % kHugePage, 0u) << bytes;
    EXPECT_TRUE(std::all_of(p, p + bytes, [](uint8_t b) { return b == 0; }));
    std::fill(p, p + bytes, uint8_t(0x5A));
    EXPECT_EQ(p[bytes - 1], 0x5A);
    hugepages::deallocate(p, bytes);
  }
  hugepages::deallocate(nullptr, hugepages::kMinBytes); // no-op
}

TEST(HugePageAllocator, VectorsGrowMoveAndSwapAcrossTheThreshold) {
  using Vec = std::vector<uint64_t, HugePageAllocator<uint64_t>>;
  const size_t big = hugepages::kMinBytes / sizeof(uint64_t) * 3;
  Vec v;
  // push_back reallocates from operator new into huge pages on the way.
  for (size_t i = 0; i < big; ++i)
    v.push_back(i * 7);
  ASSERT_EQ(v.size(), big);
  if (hugepages::kMapLargeArrays)
    EXPECT_EQ(reinterpret_cast<uintptr_t>(v.data()) % kHugePage, 0u);
  for (size_t i = 0; i < big; i += 4099)
    ASSERT_EQ(v[i], i * 7) << i;
  Vec small(10, 3);
  v.swap(small);
  EXPECT_EQ(v.size(), 10u);
  EXPECT_EQ(small.size(), big);
  Vec moved = std::move(small);
  EXPECT_EQ(moved[big - 1], (big - 1) * 7);
  moved.resize(5); // shrinking keeps the mapping until shrink_to_fit
  moved.shrink_to_fit();
  EXPECT_EQ(moved.size(), 5u);
  EXPECT_EQ(moved[4], 28u);
  Vec resized;
  resized.resize(big); // value-initialised
  EXPECT_TRUE(std::all_of(resized.begin(), resized.end(),
                          [](uint64_t x) { return x == 0; }));
}
