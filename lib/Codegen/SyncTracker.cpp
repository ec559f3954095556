//===- SyncTracker.cpp - Dependency-driven cluster synchronisation --------===//
//
// The tracker keeps a shadow of DRAM as disjoint segments; each segment
// remembers, per cluster, the last layers in which that cluster read and
// wrote it. An exact write retires the older entries of its bytes: the
// writer has received from all of them, so whoever later synchronises with
// the writer follows them too.
//
//===----------------------------------------------------------------------===//
#include "accel/Codegen/SyncTracker.h"
#include <algorithm>

using namespace accel::codegen;

std::vector<ByteRange>
accel::codegen::boxByteRanges(uint64_t base, int rank, const int64_t *shape,
                              const int64_t *stride, uint64_t elemBytes,
                              size_t maxRanges, bool &exact) {
  exact = true;
  struct Dim {
    int64_t n, s;
  };
  std::vector<Dim> dims;
  for (int d = 0; d < rank; ++d) {
    if (shape[d] <= 0)
      return {};
    if (shape[d] == 1 || stride[d] == 0)
      continue; // broadcast dims touch the same bytes again
    int64_t s = stride[d];
    if (s < 0) { // the same set of bytes, walked forwards
      base -= uint64_t((shape[d] - 1) * -s) * elemBytes;
      s = -s;
    }
    dims.push_back({shape[d], s});
  }
  std::sort(dims.begin(), dims.end(),
            [](const Dim &a, const Dim &b) { return a.s < b.s; });
  uint64_t span = elemBytes;
  for (const Dim &d : dims)
    span += uint64_t((d.n - 1) * d.s) * elemBytes;
  // Contiguous innermost dims form one run.
  uint64_t run = elemBytes;
  size_t first = 0;
  int64_t contiguous = 1; // elements of the run so far
  while (first < dims.size() && dims[first].s == contiguous) {
    contiguous *= dims[first].n;
    ++first;
  }
  run = uint64_t(contiguous) * elemBytes;
  uint64_t count = 1;
  for (size_t d = first; d < dims.size(); ++d) {
    count *= uint64_t(dims[d].n);
    if (count > maxRanges) {
      exact = false;
      return {ByteRange{base, base + span}};
    }
  }
  std::vector<ByteRange> out;
  out.reserve(size_t(count));
  std::vector<int64_t> idx(dims.size(), 0);
  for (uint64_t i = 0; i < count; ++i) {
    uint64_t off = 0;
    for (size_t d = first; d < dims.size(); ++d)
      off += uint64_t(idx[d] * dims[d].s) * elemBytes;
    out.push_back({base + off, base + off + run});
    for (size_t d = first; d < dims.size(); ++d) {
      if (++idx[d] < dims[d].n)
        break;
      idx[d] = 0;
    }
  }
  std::sort(out.begin(), out.end(),
            [](const ByteRange &a, const ByteRange &b) { return a.lo < b.lo; });
  std::vector<ByteRange> merged;
  for (const ByteRange &r : out) {
    if (!merged.empty() && r.lo <= merged.back().hi)
      merged.back().hi = std::max(merged.back().hi, r.hi);
    else
      merged.push_back(r);
  }
  return merged;
}

int64_t &SyncTracker::synced(uint32_t consumer, uint32_t producer) {
  auto [it, fresh] =
      synced_.try_emplace(uint64_t(consumer) * clusters_ + producer, -1);
  return it->second;
}

void SyncTracker::splitAt(uint64_t at) {
  auto it = segs_.upper_bound(at);
  if (it == segs_.begin())
    return;
  --it;
  if (it->first >= at || it->second.hi <= at)
    return;
  Segment tail = it->second;
  it->second.hi = at;
  segs_.emplace(at, std::move(tail));
}

void SyncTracker::collect(uint32_t cluster, const ByteRange &r, bool write,
                          std::unordered_map<uint32_t, int64_t> &need) const {
  auto it = segs_.upper_bound(r.lo);
  if (it != segs_.begin())
    --it;
  const int64_t now = layer_;
  for (; it != segs_.end() && it->first < r.hi; ++it) {
    if (it->second.hi <= r.lo)
      continue;
    for (const Entry &e : it->second.entries) {
      if (e.cluster == cluster)
        continue;
      int64_t l = e.write.before(now);
      if (write)
        l = std::max(l, e.read.before(now));
      if (l < 0)
        continue;
      auto [n, fresh] = need.try_emplace(e.cluster, l);
      if (!fresh)
        n->second = std::max(n->second, l);
    }
  }
}

void SyncTracker::record(uint32_t cluster, const ByteRange &r, bool write,
                         bool exact) {
  splitAt(r.lo);
  splitAt(r.hi);
  // Fill the gaps of [lo, hi) with empty segments.
  uint64_t at = r.lo;
  auto it = segs_.lower_bound(r.lo);
  while (at < r.hi) {
    if (it == segs_.end() || it->first > at) {
      uint64_t end = it == segs_.end() ? r.hi : std::min(r.hi, it->first);
      it = segs_.emplace_hint(it, at, Segment{end, {}});
    }
    at = it->second.hi;
    ++it;
  }
  const int64_t now = layer_;
  for (it = segs_.lower_bound(r.lo); it != segs_.end() && it->first < r.hi;
       ++it) {
    auto &es = it->second.entries;
    auto self = std::lower_bound(
        es.begin(), es.end(), cluster,
        [](const Entry &e, uint32_t c) { return e.cluster < c; });
    Entry mine;
    mine.cluster = cluster;
    if (self != es.end() && self->cluster == cluster)
      mine = *self;
    if (write && exact) {
      // Everything of earlier layers is ordered before this write (the
      // writer received from it); later accesses synchronise with the
      // writer. Other clusters' accesses of this same layer are not
      // ordered before it and stay (without their older layers).
      std::vector<Entry> kept;
      for (const Entry &o : es) {
        if (o.cluster == cluster) {
          Entry e;
          e.cluster = cluster;
          e.write = o.write;
          kept.push_back(e);
          continue;
        }
        Entry e;
        e.cluster = o.cluster;
        if (o.read.last == now)
          e.read.last = now;
        if (o.write.last == now)
          e.write.last = now;
        if (e.read.last >= 0 || e.write.last >= 0)
          kept.push_back(e);
      }
      auto at = std::lower_bound(
          kept.begin(), kept.end(), cluster,
          [](const Entry &e, uint32_t c) { return e.cluster < c; });
      if (at == kept.end() || at->cluster != cluster) {
        Entry e;
        e.cluster = cluster;
        at = kept.insert(at, e);
      }
      at->write.note(now);
      es = std::move(kept);
      continue;
    }
    (write ? mine.write : mine.read).note(now);
    if (self != es.end() && self->cluster == cluster)
      *self = mine;
    else
      es.insert(self, mine);
  }
  coalesce(r.lo, r.hi);
}

void SyncTracker::coalesce(uint64_t lo, uint64_t hi) {
  auto it = segs_.upper_bound(lo);
  if (it != segs_.begin())
    --it;
  if (it != segs_.begin())
    --it;
  while (it != segs_.end()) {
    auto next = std::next(it);
    if (next == segs_.end() || it->first > hi)
      break;
    if (it->second.hi == next->first &&
        it->second.entries == next->second.entries) {
      it->second.hi = next->second.hi;
      segs_.erase(next);
      continue;
    }
    it = next;
  }
}

std::vector<SyncDep> SyncTracker::access(uint32_t cluster,
                                         const std::vector<Part> &parts) {
  std::unordered_map<uint32_t, int64_t> need;
  for (const Part &p : parts)
    for (const ByteRange &r : p.ranges)
      if (!r.empty())
        collect(cluster, r, p.write, need);
  for (const Part &p : parts)
    for (const ByteRange &r : p.ranges)
      if (!r.empty())
        record(cluster, r, p.write, p.exact);
  std::vector<SyncDep> deps;
  for (auto [producer, l] : need) {
    int64_t &have = synced(cluster, producer);
    if (l <= have)
      continue;
    have = l;
    deps.push_back({producer, uint32_t(l)});
  }
  std::sort(deps.begin(), deps.end(), [](const SyncDep &a, const SyncDep &b) {
    return a.producer < b.producer;
  });
  return deps;
}

std::vector<SyncDep> SyncTracker::access(uint32_t cluster,
                                         const std::vector<ByteRange> &ranges,
                                         bool write, bool exact) {
  return access(cluster, std::vector<Part>{{ranges, write, exact}});
}
