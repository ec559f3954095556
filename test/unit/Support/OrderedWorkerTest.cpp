//===- OrderedWorkerTest.cpp - Tasks run on one helper thread, in order ---===//
#include "accel/Support/OrderedWorker.h"

#include <gtest/gtest.h>

#include <array>
#include <atomic>
#include <stdexcept>
#include <vector>

using namespace accel;

namespace {

/// A task whose size varies with N, so that entries of several sizes wrap
/// around the ring at every offset.
template <size_t N> struct Append {
  std::vector<uint64_t> *out;
  uint64_t value;
  std::array<uint8_t, N> pad{};
  void operator()() { out->push_back(value + pad[0]); }
};

} // namespace

TEST(OrderedWorker, RunsEveryTaskInPushOrderAcrossRingWraps) {
  std::vector<uint64_t> seen;
  {
    OrderedWorker w(true, 1); // the smallest ring: 64 KiB
    ASSERT_TRUE(w.threaded());
    for (uint64_t i = 0; i < 200000; ++i) {
      switch (i % 3) {
      case 0:
        w.push(Append<8>{&seen, i});
        break;
      case 1:
        w.push(Append<200>{&seen, i});
        break;
      default:
        w.push(Append<1500>{&seen, i});
      }
      if (i % 50000 == 0)
        w.drain();
    }
    w.drain();
    ASSERT_EQ(seen.size(), 200000u);
  }
  for (uint64_t i = 0; i < seen.size(); ++i)
    ASSERT_EQ(seen[i], i);
}

TEST(OrderedWorker, NotThreadedRunsEachTaskAtOnce) {
  OrderedWorker w(false);
  EXPECT_FALSE(w.threaded());
  int x = 0;
  w.push([&] { x = 7; });
  EXPECT_EQ(x, 7); // no drain needed
}

TEST(OrderedWorker, DrainWaitsForTheQueuedTasks) {
  OrderedWorker w(true);
  std::atomic<uint64_t> sum{0};
  for (uint64_t i = 1; i <= 1000; ++i)
    w.push([&sum, i] { sum.fetch_add(i, std::memory_order_relaxed); });
  w.drain();
  EXPECT_EQ(sum.load(), 500500u);
  // Idle long enough to sleep, then woken by the next push.
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  w.push([&sum] { sum.fetch_add(1); });
  w.drain();
  EXPECT_EQ(sum.load(), 500501u);
}

TEST(OrderedWorker, TheDestructorRunsWhatIsStillQueued) {
  std::atomic<int> ran{0};
  {
    OrderedWorker w(true);
    for (int i = 0; i < 5000; ++i)
      w.push([&ran] { ran.fetch_add(1); });
  }
  EXPECT_EQ(ran.load(), 5000);
}

TEST(OrderedWorker, KeepsTheFirstFailureAndRunsTheRest) {
  for (bool threaded : {false, true}) {
    OrderedWorker w(threaded);
    int after = 0;
    w.push([] { throw std::runtime_error("first"); });
    w.push([] { throw std::bad_alloc(); });
    w.push([&after] { after = 1; });
    w.drain();
    EXPECT_EQ(w.error(), "first");
    EXPECT_EQ(after, 1);
  }
  OrderedWorker w(true);
  w.push([] { throw std::bad_alloc(); });
  w.drain();
  EXPECT_EQ(w.error(), "out of host memory");
}
