//===- SyncTracker.h - Dependency-driven cluster synchronisation -*- C++
//-*-===//
//
// Pure C++ (no MLIR): decides which SIGNAL / RECV pairs a program needs
// instead of a global barrier after every layer (docs/passes.md,
// "Synchronisation"). The stream builder reports every DRAM access of a DMA
// (cluster, byte ranges, read or write) in layer order; the tracker answers
// which producers' end-of-layer signals the accessing cluster must receive
// before it: a read after another cluster's write (RAW), a write after
// another cluster's read or write (WAR / WAW) in an earlier layer. Accesses
// of one layer by different clusters never depend on each other (they were
// independent under the barrier too); accesses of one cluster are ordered by
// its own WAITs.
//
//===----------------------------------------------------------------------===//
#ifndef ACCEL_CODEGEN_SYNCTRACKER_H
#define ACCEL_CODEGEN_SYNCTRACKER_H

#include <cstddef>
#include <cstdint>
#include <map>
#include <unordered_map>
#include <vector>

namespace accel::codegen {

/// A half-open DRAM byte range [lo, hi).
struct ByteRange {
  uint64_t lo = 0, hi = 0;
  bool empty() const { return hi <= lo; }
  bool operator==(const ByteRange &o) const { return lo == o.lo && hi == o.hi; }
};

/// The byte ranges a strided box of `elemBytes`-byte elements touches
/// (element (i0..i{rank-1}) at base + elemBytes * sum(i_d * stride_d), any
/// sign of stride, zero = broadcast): sorted, merged, `exact` = true. When
/// that would take more than `maxRanges` ranges the result is the single
/// bounding range with `exact` = false (an over-approximation).
std::vector<ByteRange> boxByteRanges(uint64_t base, int rank,
                                     const int64_t *shape,
                                     const int64_t *stride, uint64_t elemBytes,
                                     size_t maxRanges, bool &exact);

/// One signal a cluster must receive: the end-of-layer SIGNAL `layer` of
/// cluster `producer` (semaphore id = producer, count 1).
struct SyncDep {
  uint32_t producer = 0;
  uint32_t layer = 0;
  bool operator==(const SyncDep &o) const {
    return producer == o.producer && layer == o.layer;
  }
};

class SyncTracker {
public:
  explicit SyncTracker(uint32_t clusters) : clusters_(clusters) {}

  uint32_t numClusters() const { return clusters_; }
  /// Index of the current layer (0 for the first).
  uint32_t layer() const { return layer_; }
  /// Closes the current layer.
  void endLayer() { ++layer_; }

  /// Records that `cluster` reads (`write` = false) or writes `ranges` in
  /// the current layer and returns the signals it must receive first, one
  /// per producer at most, ascending by producer. A producer's signal of
  /// layer L also covers its earlier layers, so a dependency already met by
  /// an earlier receive of the same cluster is not repeated. `exact` = the
  /// ranges are exactly the bytes accessed; otherwise they over-approximate
  /// the access (still correct, possibly more dependencies), and a write
  /// then does not retire the older accesses of those bytes.
  std::vector<SyncDep> access(uint32_t cluster,
                              const std::vector<ByteRange> &ranges, bool write,
                              bool exact = true);
  /// The dependencies of several accesses of one command (a DRAM copy reads
  /// one box and writes another): each range list with its write flag and
  /// exactness, recorded after all were checked.
  struct Part {
    std::vector<ByteRange> ranges;
    bool write = false;
    bool exact = true;
  };
  std::vector<SyncDep> access(uint32_t cluster, const std::vector<Part> &parts);

  /// Number of disjoint segments the tracker holds (tests, statistics).
  size_t numSegments() const { return segs_.size(); }

private:
  /// The latest layer in which one cluster read / wrote a segment, and the
  /// latest before that one (what a same-layer query of another cluster
  /// must see). -1 = none.
  struct Last {
    int64_t last = -1, prev = -1;
    void note(int64_t l) {
      if (l == last)
        return;
      prev = last;
      last = l;
    }
    /// Latest layer strictly before `layer`.
    int64_t before(int64_t layer) const { return last < layer ? last : prev; }
    bool operator==(const Last &o) const {
      return last == o.last && prev == o.prev;
    }
  };
  struct Entry {
    uint32_t cluster = 0;
    Last read, write;
    bool operator==(const Entry &o) const {
      return cluster == o.cluster && read == o.read && write == o.write;
    }
  };
  struct Segment {
    uint64_t hi = 0;
    std::vector<Entry> entries; ///< one per cluster, ascending cluster
  };
  using SegMap = std::map<uint64_t, Segment>;

  /// Splits segments so that `at` is a boundary (when inside one).
  void splitAt(uint64_t at);
  void collect(uint32_t cluster, const ByteRange &r, bool write,
               std::unordered_map<uint32_t, int64_t> &need) const;
  void record(uint32_t cluster, const ByteRange &r, bool write, bool exact);
  void coalesce(uint64_t lo, uint64_t hi);
  int64_t &synced(uint32_t consumer, uint32_t producer);

  uint32_t clusters_;
  uint32_t layer_ = 0;
  SegMap segs_;
  /// consumer * clusters + producer -> latest producer layer received.
  std::unordered_map<uint64_t, int64_t> synced_;
};

} // namespace accel::codegen

#endif
