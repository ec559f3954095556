//===- ZeroedMemoryTest.cpp - Zeroed host memory of the simulator ---------===//
//
// ZeroedArena (lib/Sim/ZeroedMemory.h) hands out zero, 64-byte aligned,
// pairwise disjoint blocks, small ones packed into chunks and large ones in
// their own mappings; PagedMemory takes its pages from it, so a page
// written in part still reads zeros elsewhere and copy on write keeps the
// shared bytes.
//
//===----------------------------------------------------------------------===//
#include "../../../lib/Sim/ZeroedMemory.h"
#include "../../../lib/Sim/PagedMemory.h"

#include <algorithm>
#include <gtest/gtest.h>
#include <random>
#include <vector>

using namespace accel::sim;

TEST(ZeroedArena, BlocksAreZeroAlignedAndDisjoint) {
  ZeroedArena arena;
  std::mt19937 rng(7);
  struct Block {
    uint8_t *p;
    size_t n;
  };
  std::vector<Block> blocks;
  for (int i = 0; i < 200; ++i) {
    // Mostly small (packed), some of 512 KiB and more (own mapping).
    size_t n =
        i % 25 == 0 ? (size_t(1) << 19) + rng() % 100000 : 1 + rng() % 70000;
    auto *p = static_cast<uint8_t *>(arena.alloc(n));
    ASSERT_EQ(reinterpret_cast<uintptr_t>(p) % 64, 0u);
    ASSERT_TRUE(std::all_of(p, p + n, [](uint8_t b) { return b == 0; }));
    std::fill(p, p + n, uint8_t(i + 1)); // must not reach another block
    blocks.push_back({p, n});
  }
  for (size_t i = 0; i < blocks.size(); ++i) {
    const Block &b = blocks[i];
    EXPECT_TRUE(std::all_of(b.p, b.p + b.n,
                            [&](uint8_t v) { return v == uint8_t(i + 1); }))
        << "block " << i;
  }
  ZeroedArray<float> a;
  a.allocate(arena, 1000);
  ASSERT_EQ(a.size(), 1000u);
  EXPECT_TRUE(std::all_of(a.begin(), a.end(), [](float v) { return v == 0; }));
  a[999] = 1.5f;
  EXPECT_EQ(a.data()[999], 1.5f);
  arena.clear();
  // After clear() new blocks are zero again.
  auto *p = static_cast<uint8_t *>(arena.alloc(4096));
  EXPECT_TRUE(std::all_of(p, p + 4096, [](uint8_t v) { return v == 0; }));
}

TEST(ZeroedArena, HugeChunksAreZeroAndDisjointLikeTheOthers) {
  // Two chunks on huge pages, then ordinary ones: blocks of either kind
  // start zero, never overlap, and clear() unmaps both kinds.
  ZeroedArena arena;
  arena.setHugeChunks(2);
  std::vector<uint8_t *> blocks;
  const size_t n = size_t(400) << 10; // five per 2 MiB chunk
  for (int i = 0; i < 20; ++i) {
    auto *p = static_cast<uint8_t *>(arena.alloc(n));
    ASSERT_TRUE(std::all_of(p, p + n, [](uint8_t b) { return b == 0; }));
    std::fill(p, p + n, uint8_t(i + 1));
    blocks.push_back(p);
  }
  for (size_t i = 0; i < blocks.size(); ++i)
    ASSERT_TRUE(std::all_of(blocks[i], blocks[i] + n,
                            [&](uint8_t v) { return v == uint8_t(i + 1); }))
        << "block " << i;
  // The first block opened the first huge chunk: 2 MiB-aligned.
  EXPECT_EQ(reinterpret_cast<uintptr_t>(blocks[0]) % (uintptr_t(2) << 20), 0u);
  arena.clear();
  auto *p = static_cast<uint8_t *>(arena.alloc(4096));
  EXPECT_TRUE(std::all_of(p, p + 4096, [](uint8_t v) { return v == 0; }));
}

TEST(ZeroedArena, ReservedHugeRegionIsCarvedThenOrdinaryBlocksFollow) {
  // A 3 MiB reserve is one 4 MiB huge-page region: a 1 MiB block, a
  // 512 KiB one (a storage unit: carved, not given a mapping of its own)
  // and 100-byte ones (64-byte steps) come from it, back to back, zero; the
  // block that no longer fits takes the ordinary path. clear() forgets the
  // region.
  ZeroedArena arena;
  arena.reserveHuge(size_t(3) << 20);
  const size_t sizes[] = {size_t(1) << 20, size_t(512) << 10, 100, 100,
                          size_t(3) << 20};
  std::vector<uint8_t *> blocks;
  for (size_t i = 0; i < 5; ++i) {
    auto *p = static_cast<uint8_t *>(arena.alloc(sizes[i]));
    ASSERT_TRUE(std::all_of(p, p + sizes[i], [](uint8_t b) { return b == 0; }))
        << "block " << i;
    std::fill(p, p + sizes[i], uint8_t(i + 1));
    blocks.push_back(p);
  }
  EXPECT_EQ(reinterpret_cast<uintptr_t>(blocks[0]) % (uintptr_t(2) << 20), 0u);
  EXPECT_EQ(blocks[1], blocks[0] + sizes[0]);
  EXPECT_EQ(blocks[2], blocks[1] + sizes[1]);
  EXPECT_EQ(blocks[3], blocks[2] + 128);
  // 4 MiB - 1.5 MiB - 256 bytes left: the 3 MiB block is mapped apart.
  EXPECT_TRUE(blocks[4] + sizes[4] <= blocks[0] ||
              blocks[4] >= blocks[0] + (size_t(4) << 20));
  for (size_t i = 0; i < blocks.size(); ++i)
    ASSERT_TRUE(std::all_of(blocks[i], blocks[i] + sizes[i],
                            [&](uint8_t v) { return v == uint8_t(i + 1); }))
        << "block " << i;
  arena.clear();
  auto *p = static_cast<uint8_t *>(arena.alloc(4096));
  EXPECT_TRUE(std::all_of(p, p + 4096, [](uint8_t v) { return v == 0; }));
  arena.reserveHuge(0); // nothing reserved: still the ordinary path
  EXPECT_NE(arena.alloc(64), nullptr);
}

TEST(ZeroedArena, PagedMemoryPagesStartZero) {
  PagedMemory m;
  m.reset(uint64_t(1) << 24);
  std::vector<uint8_t> shared(PagedMemory::kPageBytes, 0xAB);
  m.writeShared(0, shared.data(), shared.size()); // page 0 shared
  const uint8_t x = 7;
  m.write(PagedMemory::kPageBytes + 100, &x, 1); // page 1 own, in part
  m.write(10, &x, 1);                            // page 0: copy on write
  std::vector<uint8_t> got(2 * PagedMemory::kPageBytes);
  m.read(0, got.data(), got.size());
  for (size_t i = 0; i < got.size(); ++i) {
    uint8_t want = i < PagedMemory::kPageBytes ? 0xAB : 0;
    if (i == 10 || i == PagedMemory::kPageBytes + 100)
      want = 7;
    ASSERT_EQ(got[i], want) << "byte " << i;
  }
  EXPECT_EQ(shared[10], 0xAB); // the shared bytes are untouched
}
