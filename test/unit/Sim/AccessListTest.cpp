//===- AccessListTest.cpp - The hazard check's in-flight accesses ---------===//
//
// AccessList (lib/Sim/AccessList.h) against the linear definition it
// replaces: one vector of every access recorded so far, scanned in
// insertion order for the first access of the other kind that overlaps,
// ends after the window start and passes the caller's check. Random
// accesses with a never-decreasing `now` and windows that start at or
// after it (as in the simulator); the list prunes at every query.
//
//===----------------------------------------------------------------------===//
#include "../../../lib/Sim/AccessList.h"

#include <gtest/gtest.h>
#include <random>

using namespace accel::sim;

namespace {

struct TRange {
  __int128 lo = 0, hi = 0;
};
struct TAccess {
  TRange range;
  uint64_t start = 0, end = 0;
  bool write = false;
  int id = 0;
  int tag = 0; ///< the caller's extra condition looks at it
};

/// The first conflicting access of the linear definition (-1: none).
int linearFirst(const std::vector<TAccess> &all, const TAccess &a,
                uint64_t from, int rejectTag) {
  for (const TAccess &o : all) {
    if (o.end <= from || o.write == a.write)
      continue;
    if (!(o.range.lo < a.range.hi && a.range.lo < o.range.hi))
      continue;
    if (o.tag == rejectTag)
      continue;
    return o.id;
  }
  return -1;
}

void randomRun(uint32_t seed, int n, uint64_t space, uint64_t maxLen,
               uint64_t maxDur) {
  std::mt19937_64 rng(seed);
  AccessList<TAccess> list;
  std::vector<TAccess> all;
  uint64_t now = 0;
  int hits = 0;
  for (int i = 0; i < n; ++i) {
    now += rng() % 4 == 0 ? rng() % (maxDur / 2 + 1) : 0;
    TAccess a;
    a.id = i;
    a.write = rng() & 1;
    a.tag = int(rng() % 5);
    uint64_t lo = rng() % space, len = 1 + rng() % maxLen;
    a.range = {__int128(lo), __int128(lo + len)};
    a.start = now + rng() % (maxDur / 4 + 1);
    a.end = a.start + rng() % maxDur; // may be empty (not recorded)
    // Window start at or after now, at most the access's start.
    const uint64_t from = now + rng() % (a.start - now + 1);
    const int reject = int(rng() % 6); // 5 = rejects none
    list.prune(now);
    const TAccess *got = list.firstConflict(
        a, from, [&](const TAccess &o) { return o.tag != reject; });
    const int want = linearFirst(all, a, from, reject);
    ASSERT_EQ(got ? got->id : -1, want)
        << "seed " << seed << " access " << i << " now " << now;
    hits += want >= 0;
    if (a.end > a.start) {
      list.add(a);
      all.push_back(a);
    }
  }
  // The runs must exercise conflicts, not only their absence.
  EXPECT_GT(hits, n / 50) << "seed " << seed;
}

TEST(AccessList, MatchesLinearDefinitionRandom) {
  for (uint32_t seed = 1; seed <= 40; ++seed) {
    randomRun(seed, 2000, 4096, 256, 64);                // dense, short windows
    randomRun(seed + 1000, 2000, 1 << 20, 1 << 16, 400); // large ranges
    randomRun(seed + 2000, 500, 64, 8, 8); // tiny space, many ties
  }
}

TEST(AccessList, PruneDropsEndedAccessesOnly) {
  AccessList<TAccess> list;
  TAccess w;
  w.write = true;
  w.range = {0, 16};
  w.start = 0;
  w.end = 10;
  w.id = 1;
  list.add(w);
  TAccess r;
  r.range = {8, 24};
  r.start = 9;
  r.end = 12;
  list.prune(9);
  EXPECT_EQ(list.size(), 1u);
  const TAccess *hit =
      list.firstConflict(r, 9, [](const TAccess &) { return true; });
  ASSERT_NE(hit, nullptr);
  EXPECT_EQ(hit->id, 1);
  list.prune(10); // ended at 10: never conflicts again
  EXPECT_EQ(list.size(), 0u);
  EXPECT_EQ(list.firstConflict(r, 10, [](const TAccess &) { return true; }),
            nullptr);
  // Same kind never conflicts; touching ranges do not overlap.
  list.add(w);
  TAccess w2 = w;
  w2.range = {4, 8};
  EXPECT_EQ(list.firstConflict(w2, 0, [](const TAccess &) { return true; }),
            nullptr);
  r.range = {16, 20};
  EXPECT_EQ(list.firstConflict(r, 0, [](const TAccess &) { return true; }),
            nullptr);
}

} // namespace
