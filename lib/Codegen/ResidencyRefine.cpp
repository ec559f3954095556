//===- ResidencyRefine.cpp - Intermediate pieces cut at their writers ----===//
//
// refineByWriters: the pieces of the linear plan cut where the clusters
// that write them change, between the runs of a row-split map, with each
// writer's regular runs grouped into strided units (docs/passes.md,
// "Row-split feature maps", "Strided units").
//
//===----------------------------------------------------------------------===//
#include "ResidencyBoxes.h"
#include "accel/Codegen/Residency.h"
#include <algorithm>
#include <map>

using namespace accel;
using namespace accel::codegen;
using accel::codegen::detail::dmaSide;

namespace {

/// A written byte range and its writer.
struct WriteRange {
  uint64_t lo, hi;
  uint32_t cluster;
};

/// More runs than this in one write box: its bounding range stands for it.
constexpr size_t kMaxRunsPerWriteBox = 32;
/// The same for a box whose runs step along one dimension only (a C tile
/// of a row-split map: one run per channel plane), whose runs become units.
constexpr size_t kMaxRunsPerSteppedBox = 4096;

/// The contiguous byte runs of a DMA's DRAM destination box, appended to
/// `out` for `cluster`. False (nothing appended) when a stride is negative
/// or the box has more than kMaxRunsPerWriteBox runs.
bool appendWriteRuns(const DmaDesc &desc, uint32_t cluster,
                     std::vector<WriteRange> &out) {
  // The bytes a box writes do not depend on the order of its dimensions:
  // sorted by stride (largest outermost), dimensions that continue each
  // other meet even when the DMA lists them in another order (a transposed
  // convolution's store: pixels, channels, kernel rows, kernel columns).
  DmaDesc d = desc;
  for (int i = 1; i < 4; ++i)
    for (int j = i; j > 0 && d.dstStride[j] > d.dstStride[j - 1]; --j) {
      std::swap(d.dstStride[j], d.dstStride[j - 1]);
      std::swap(d.shape[j], d.shape[j - 1]);
    }
  // The innermost dimensions whose strides continue each other form one
  // run of `len` elements; the outer ones enumerate the runs.
  int64_t len = 1;
  int outer = 3;
  for (; outer >= 0 && (d.shape[outer] == 1 || d.dstStride[outer] == len);
       --outer)
    len *= d.shape[outer];
  uint64_t count = 1;
  int steppedDims = 0;
  for (int i = 0; i <= outer; ++i) {
    if (d.dstStride[i] < 0)
      return false;
    count *= d.shape[i];
    steppedDims += d.shape[i] > 1;
  }
  if (count > (steppedDims <= 1 ? kMaxRunsPerSteppedBox : kMaxRunsPerWriteBox))
    return false;
  const uint64_t bytes = uint64_t(len) * d.elemBytes;
  for (uint64_t n = 0; n < count; ++n) {
    uint64_t rest = n, off = 0;
    for (int i = outer; i >= 0; --i) {
      off += (rest % d.shape[i]) * uint64_t(d.dstStride[i]);
      rest /= d.shape[i];
    }
    const uint64_t lo = d.dst + off * d.elemBytes;
    out.push_back({lo, lo + bytes, cluster});
  }
  return true;
}

/// Overlapping write ranges merged, with their writers (sorted).
struct WriterGroup {
  uint64_t lo, hi;
  std::vector<uint32_t> writers;
};

/// The groups of overlapping ranges, ascending.
std::vector<WriterGroup> writerGroups(std::vector<WriteRange> ranges) {
  std::sort(
      ranges.begin(), ranges.end(),
      [](const WriteRange &a, const WriteRange &b) { return a.lo < b.lo; });
  std::vector<WriterGroup> groups;
  for (const WriteRange &r : ranges) {
    if (groups.empty() || r.lo >= groups.back().hi)
      groups.push_back({r.lo, r.hi, {}});
    WriterGroup &g = groups.back();
    g.hi = std::max(g.hi, r.hi);
    if (std::find(g.writers.begin(), g.writers.end(), r.cluster) ==
        g.writers.end())
      g.writers.push_back(r.cluster);
  }
  for (WriterGroup &g : groups)
    std::sort(g.writers.begin(), g.writers.end());
  return groups;
}

/// Cut points where the set of writers changes from one group to the next.
std::vector<uint64_t> writerCuts(const std::vector<WriterGroup> &groups) {
  std::vector<uint64_t> cuts;
  for (size_t i = 1; i < groups.size(); ++i)
    if (groups[i].writers != groups[i - 1].writers && groups[i].lo % 4 == 0)
      cuts.push_back(groups[i].lo);
  return cuts;
}

/// The cuts of `cuts` strictly inside [start, end).
std::vector<uint64_t> cutsInside(const std::vector<uint64_t> &cuts,
                                 uint64_t start, uint64_t end) {
  std::vector<uint64_t> in;
  for (auto it = std::upper_bound(cuts.begin(), cuts.end(), start);
       it != cuts.end() && *it < end; ++it)
    in.push_back(*it);
  return in;
}

/// Whether cutting [start, end) at `cuts` leaves no part below `minBytes`.
bool partsAtLeast(const std::vector<uint64_t> &cuts, uint64_t start,
                  uint64_t end, uint64_t minBytes) {
  for (uint64_t c : cuts) {
    if (c - start < minBytes)
      return false;
    start = c;
  }
  return end - start >= minBytes;
}

/// [start, end) cut at `cuts`.
std::vector<DramBuffer> partsBetween(const std::vector<uint64_t> &cuts,
                                     uint64_t start, uint64_t end) {
  std::vector<DramBuffer> parts;
  for (uint64_t c : cuts) {
    parts.push_back({start, c - start});
    start = c;
  }
  parts.push_back({start, end - start});
  return parts;
}

/// The one writer of [lo, hi) among the run groups (ascending), -1 when it
/// has several or none.
int64_t soleWriter(const std::vector<WriterGroup> &groups, uint64_t lo,
                   uint64_t hi) {
  auto it = std::upper_bound(
      groups.begin(), groups.end(), lo,
      [](uint64_t a, const WriterGroup &g) { return a < g.lo; });
  if (it != groups.begin() && std::prev(it)->hi > lo)
    --it;
  int64_t writer = -1;
  for (; it != groups.end() && it->lo < hi; ++it) {
    if (it->writers.size() != 1 ||
        (writer >= 0 && writer != int64_t(it->writers[0])))
      return -1;
    writer = it->writers[0];
  }
  return writer;
}

/// Units of the parts (ascending, of one piece): per sole writer, runs of
/// equal size at a fixed period; `partUnit[k]` = part k's unit, -1 for a
/// part of several writers or none.
std::vector<PieceUnit> writerUnits(const std::vector<DramBuffer> &parts,
                                   const std::vector<WriterGroup> &groups,
                                   std::vector<int64_t> &partUnit) {
  std::vector<PieceUnit> units;
  partUnit.assign(parts.size(), -1);
  std::map<int64_t, int64_t> open; // writer -> its unit being extended
  for (size_t k = 0; k < parts.size(); ++k) {
    const int64_t w =
        soleWriter(groups, parts[k].addr, parts[k].addr + parts[k].bytes);
    if (w < 0)
      continue;
    auto it = open.find(w);
    if (it != open.end()) {
      PieceUnit &u = units[size_t(it->second)];
      const uint64_t last = u.addr + (u.count - 1) * u.period;
      const uint64_t gap = parts[k].addr - last;
      if (u.runBytes == parts[k].bytes &&
          (u.count == 1 ? gap > u.runBytes : gap == u.period)) {
        u.period = gap;
        ++u.count;
        partUnit[k] = it->second;
        continue;
      }
    }
    open[w] = int64_t(units.size());
    partUnit[k] = int64_t(units.size());
    units.push_back(PieceUnit::single(parts[k]));
  }
  return units;
}

} // namespace

std::vector<DramBuffer> accel::codegen::refineByWriters(
    const Program &p, const std::vector<DramBuffer> &pieces,
    const std::vector<char> &intermediate,
    std::vector<char> &refinedIntermediate, uint64_t minRunPieceBytes,
    std::vector<int64_t> *unitOf, std::vector<PieceUnit> *units) {
  // Each write box as its bounding range; then, inside the groups of
  // overlapping ranges with several writers, as its runs: the boxes of a
  // feature map split by rows over the clusters interleave (every channel
  // plane holds a block of each cluster's rows), so their bounding ranges
  // all overlap while their runs do not.
  std::vector<WriteRange> bounds;
  std::vector<const DmaDesc *> writes;
  for (size_t cl = 0; cl < p.clusters.size(); ++cl)
    for (const Command &c : p.clusters[cl].commands)
      if (c.kind == CommandKind::Dma && c.dma.numElements() != 0 &&
          writesDram(c.dma.dir)) {
        uint64_t lo, hi;
        dmaSide(c.dma, false, lo, hi);
        bounds.push_back({lo, hi, uint32_t(cl)});
        writes.push_back(&c.dma);
      }
  const std::vector<WriterGroup> boundGroups = writerGroups(bounds);
  const std::vector<uint64_t> boundCuts = writerCuts(boundGroups);
  std::vector<uint64_t> runCuts = boundCuts;
  std::vector<WriterGroup> runGroups;
  if (minRunPieceBytes) {
    auto shared = [&](uint64_t a) {
      auto it = std::upper_bound(
          boundGroups.begin(), boundGroups.end(), a,
          [](uint64_t x, const WriterGroup &g) { return x < g.lo; });
      return it != boundGroups.begin() && std::prev(it)->writers.size() > 1;
    };
    std::vector<WriteRange> runs;
    for (size_t i = 0; i < writes.size(); ++i)
      if (!shared(bounds[i].lo) ||
          !appendWriteRuns(*writes[i], bounds[i].cluster, runs))
        runs.push_back(bounds[i]);
    runGroups = writerGroups(std::move(runs));
    runCuts = writerCuts(runGroups);
  }
  std::vector<DramBuffer> out;
  std::vector<int64_t> outUnit;
  std::vector<PieceUnit> outUnits;
  refinedIntermediate.clear();
  for (size_t i = 0; i < pieces.size(); ++i) {
    uint64_t start = pieces[i].addr, end = start + pieces[i].bytes;
    std::vector<uint64_t> cuts;
    std::vector<DramBuffer> parts;
    std::vector<int64_t> partUnit; // into `found`, -1: a unit of its own
    std::vector<PieceUnit> found;
    char flag = intermediate[i] ? 1 : 0;
    if (intermediate[i]) {
      // The runs' cuts where no part gets too small to be worth the split
      // DMAs that reach it, or where each writer's parts form units large
      // enough; else the bounding ranges' cuts.
      cuts = cutsInside(runCuts, start, end);
      parts = partsBetween(cuts, start, end);
      bool take = partsAtLeast(cuts, start, end, minRunPieceBytes);
      if (!take && !cuts.empty()) {
        found = writerUnits(parts, runGroups, partUnit);
        take = std::all_of(partUnit.begin(), partUnit.end(), [&](int64_t u) {
          return u >= 0 && found[size_t(u)].bytes() >= minRunPieceBytes;
        });
      }
      if (!take) {
        cuts = cutsInside(boundCuts, start, end);
        found.clear();
        partUnit.clear();
      } else if (cuts != cutsInside(boundCuts, start, end)) {
        flag = kCutBetweenRuns;
      }
    }
    parts = partsBetween(cuts, start, end);
    // Units numbered in the order of their first run.
    std::vector<int64_t> renumber(found.size(), -1);
    for (size_t k = 0; k < parts.size(); ++k) {
      int64_t u = k < partUnit.size() ? partUnit[k] : -1;
      if (u < 0) {
        outUnit.push_back(int64_t(outUnits.size()));
        outUnits.push_back(PieceUnit::single(parts[k]));
      } else {
        if (renumber[size_t(u)] < 0) {
          renumber[size_t(u)] = int64_t(outUnits.size());
          outUnits.push_back(found[size_t(u)]);
        }
        outUnit.push_back(renumber[size_t(u)]);
      }
      out.push_back(parts[k]);
      refinedIntermediate.push_back(flag);
    }
  }
  if (unitOf)
    *unitOf = std::move(outUnit);
  if (units)
    *units = std::move(outUnits);
  return out;
}
