//===- AccessList.h - In-flight memory accesses of the hazard check -*- C++
//-*-===//
//
// The hazard detector (docs/simulator.md "Hazards") keeps, per memory (a
// storage unit, DRAM), the accesses still in flight and asks, for each new
// access, for the first one in insertion order that conflicts with it. The
// definition is a linear scan over every recorded access; this list answers
// the same question faster:
//
//  * reads and writes are kept apart (only a read and a write conflict), so
//    a query scans the other kind only;
//  * the fields the scan filters on (byte range, end) are packed into a
//    small key array, the full records are read only for the few keys whose
//    range overlaps;
//  * accesses that ended at or before `now` are dropped as soon as `now`
//    reaches the earliest end (not every 256 additions).
//
// Dropping is exact: every query's window starts at or after the current
// `now` (the simulator always steps the earliest cluster, so `now` never
// decreases and no command is issued before it), and an access ending at or
// before the window start never conflicts. Internal to lib/Sim;
// AccessListTest checks it against the linear definition.
//
//===----------------------------------------------------------------------===//
#ifndef ACCEL_LIB_SIM_ACCESSLIST_H
#define ACCEL_LIB_SIM_ACCESSLIST_H

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace accel {
namespace sim {

/// In-flight accesses of one memory. `A` has `Range range` (i128 lo / hi),
/// `uint64_t end` and `bool write`.
template <typename A> class AccessList {
public:
  /// Records `a` (a non-empty range).
  void add(const A &a) {
    Side &s = side[a.write];
    s.keys.push_back({a.range.lo, a.range.hi, a.end});
    s.items.push_back(a);
    minEnd = std::min(minEnd, a.end);
  }

  /// Drops every access with end <= t.
  void prune(uint64_t t) {
    if (t < minEnd) // nothing ended yet (minEnd: a lower bound of the ends)
      return;
    minEnd = UINT64_MAX;
    for (Side &s : side) {
      size_t w = 0;
      for (size_t i = 0; i < s.keys.size(); ++i) {
        if (s.keys[i].end <= t)
          continue;
        minEnd = std::min(minEnd, s.keys[i].end);
        if (w != i) {
          s.keys[w] = s.keys[i];
          s.items[w] = s.items[i];
        }
        ++w;
      }
      s.keys.resize(w);
      s.items.resize(w);
    }
  }

  /// The first access, in insertion order, of the other kind than `a`
  /// (reads for a write, writes for a read) whose range overlaps `a`'s,
  /// that ends after `from` and for which `accept(o)` holds; null if none.
  /// `from` must not exceed the window start `accept` checks (it is the
  /// cheap pre-filter of it).
  template <typename Accept>
  const A *firstConflict(const A &a, uint64_t from, Accept accept) const {
    const Side &s = side[!a.write];
    const auto lo = a.range.lo, hi = a.range.hi;
    for (size_t i = 0, n = s.keys.size(); i < n; ++i) {
      const Key &k = s.keys[i];
      if (k.end <= from || !(k.lo < hi && lo < k.hi))
        continue;
      if (accept(s.items[i]))
        return &s.items[i];
    }
    return nullptr;
  }

  size_t size() const { return side[0].keys.size() + side[1].keys.size(); }

private:
  using Addr = decltype(A().range.lo);
  struct Key {
    Addr lo, hi;
    uint64_t end;
  };
  struct Side {
    std::vector<Key> keys; ///< insertion order
    std::vector<A> items;  ///< the records, index for index
  };
  Side side[2];                 ///< [0] reads, [1] writes
  uint64_t minEnd = UINT64_MAX; ///< <= every recorded end
};

} // namespace sim
} // namespace accel

#endif
