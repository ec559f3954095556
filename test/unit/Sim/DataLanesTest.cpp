//===- DataLanesTest.cpp - Data work on lanes gives the sequential bytes --===//
//
// Random copies between ranges of one shared memory, each issued by a
// random "cluster" and queued on its lane with what DramConflicts says it
// must wait for: the memory must end as the same copies run one after
// another in issue order leave it.
//
//===----------------------------------------------------------------------===//
#include "../../../lib/Sim/DataLanes.h"
#include "../../../lib/Sim/PagedMemory.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstring>
#include <random>
#include <thread>
#include <vector>

using namespace accel::sim;

namespace {

struct Copy {
  uint64_t src, dst, n;
};

std::vector<uint32_t> runCopies(const std::vector<Copy> &copies,
                                const std::vector<unsigned> &cluster,
                                unsigned lanes, size_t words) {
  std::vector<uint32_t> mem(words);
  for (size_t i = 0; i < words; ++i)
    mem[i] = uint32_t(i * 2654435761u);
  DataLanes dl(lanes);
  DramConflicts conflicts(dl.count());
  for (size_t i = 0; i < copies.size(); ++i) {
    const Copy c = copies[i];
    const unsigned lane = cluster[i] % dl.count();
    DataLanes::After after;
    conflicts.check(dl, lane, c.src, c.src + c.n, false, after);
    conflicts.check(dl, lane, c.dst, c.dst + c.n, true, after);
    uint64_t seq = dl.push(lane, after, [&mem, c] {
      std::memmove(&mem[c.dst], &mem[c.src], c.n * 4);
    });
    conflicts.record(dl, lane, seq, c.src, c.src + c.n, false);
    conflicts.record(dl, lane, seq, c.dst, c.dst + c.n, true);
  }
  dl.drain();
  EXPECT_EQ(dl.error(), "");
  return mem;
}

} // namespace

TEST(DataLanes, ConflictingTasksRunInIssueOrderAcrossLanes) {
  const size_t words = 4096;
  std::mt19937_64 rng(12);
  for (int round = 0; round < 8; ++round) {
    std::vector<Copy> copies;
    std::vector<unsigned> cluster;
    for (int i = 0; i < 3000; ++i) {
      uint64_t n = 1 + rng() % 64;
      copies.push_back({rng() % (words - n), rng() % (words - n), n});
      cluster.push_back(unsigned(rng() % 16));
    }
    std::vector<uint32_t> expect = runCopies(copies, cluster, 1, words);
    for (unsigned lanes : {2u, 3u, 5u, 8u})
      ASSERT_EQ(runCopies(copies, cluster, lanes, words), expect)
          << "round " << round << ", " << lanes << " lanes";
  }
}

TEST(DataLanes, DestroyedWithQueuedTasksRunsThemAll) {
  // A run that fails midway destroys its lanes with tasks still queued;
  // tasks of lane 2 wait for lane 1's, which must still exist then.
  std::atomic<int> ran{0};
  {
    DataLanes dl(3);
    for (int i = 0; i < 200; ++i) {
      uint64_t s = dl.push(1, DataLanes::After{}, [&ran] {
        std::this_thread::sleep_for(std::chrono::microseconds(20));
        ran.fetch_add(1);
      });
      DataLanes::After after;
      after.need(1, s);
      dl.push(2, after, [&ran] { ran.fetch_add(1); });
    }
  }
  EXPECT_EQ(ran.load(), 400);
}

TEST(DataLanes, OneLaneRunsTasksAsTheyArePushed) {
  DataLanes dl(1);
  EXPECT_FALSE(dl.threaded());
  int x = 0;
  EXPECT_EQ(dl.push(0, DataLanes::After{}, [&] { x = 3; }), 1u);
  EXPECT_EQ(x, 3);
  EXPECT_EQ(dl.done(0), 1u);
}

TEST(DramConflicts, AReadWaitsForWritesOnlyAWriteForBoth) {
  DataLanes dl(3);
  DramConflicts c(dl.count());
  // Lane 1 holds a task that blocks until released, so nothing it queues
  // completes while the checks run.
  std::atomic<bool> release{false};
  uint64_t s1 = dl.push(1, DataLanes::After{}, [&] {
    while (!release.load())
      std::this_thread::yield();
  });
  c.record(dl, 1, s1, 100, 200, false); // a read of [100, 200)
  uint64_t s2 = dl.push(1, DataLanes::After{}, [] {});
  c.record(dl, 1, s2, 300, 400, true); // a write of [300, 400)

  DataLanes::After a;
  c.check(dl, 2, 150, 160, false, a); // read after read: no wait
  EXPECT_EQ(a.seq[1], 0u);
  c.check(dl, 2, 150, 160, true, a); // write after read
  EXPECT_EQ(a.seq[1], s1);
  DataLanes::After b;
  c.check(dl, 2, 399, 500, false, b); // read after write
  EXPECT_EQ(b.seq[1], s2);
  DataLanes::After d;
  c.check(dl, 2, 400, 500, true, d); // disjoint
  EXPECT_EQ(d.seq[1], 0u);
  c.check(dl, 1, 150, 160, true, d); // the same lane is ordered anyway
  EXPECT_EQ(d.seq[1], 0u);
  release = true;
  dl.drain();
  DataLanes::After e;
  c.check(dl, 2, 0, 1000, true, e); // both have run: dropped
  EXPECT_EQ(e.seq[1], 0u);
}

TEST(PagedMemoryThreads, TwoWritersOfOneSharedPageBothLand) {
  constexpr uint64_t kPage = PagedMemory::kPageBytes;
  std::vector<uint8_t> constant(4 * kPage, 0xAB);
  for (int round = 0; round < 50; ++round) {
    PagedMemory m;
    m.reset(8 * kPage);
    m.writeShared(0, constant.data(), constant.size()); // pages 0-3 shared
    // Two threads write interleaved 1 KiB blocks of the same pages: the
    // shared pages' copies on write and the untouched pages' first writes
    // race, and every block must survive.
    auto writer = [&m](uint8_t value, uint64_t first) {
      std::vector<uint8_t> block(1024, value);
      for (uint64_t a = first * 1024; a < 8 * kPage; a += 2048)
        m.write(a, block.data(), block.size());
    };
    std::thread t1(writer, 1, 0), t2(writer, 2, 1);
    t1.join();
    t2.join();
    std::vector<uint8_t> got(8 * kPage);
    m.read(0, got.data(), got.size());
    for (uint64_t a = 0; a < got.size(); ++a)
      ASSERT_EQ(got[a], (a / 1024) % 2 ? 2 : 1) << "byte " << a;
    EXPECT_EQ(constant[0], 0xAB); // the shared source is never written
    EXPECT_EQ(m.pagesTouched(), 8u);
  }
}
