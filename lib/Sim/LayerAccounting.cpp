//===- LayerAccounting.cpp - Per-layer statistics -------------------------===//
#include "LayerAccounting.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace accel {
namespace sim {

namespace {

constexpr uint64_t kNever = UINT64_MAX;

/// Bytes of a symbol's image as the simulator reads and writes it (f32).
uint64_t imageBytes(const Symbol &s) { return s.numElements() * 4; }

} // namespace

LayerCounters LayerCounters::operator-(const LayerCounters &o) const {
  LayerCounters d;
  d.macs = macs - o.macs;
  d.dramRead = dramRead - o.dramRead;
  d.dramWritten = dramWritten - o.dramWritten;
  d.storage = storage - o.storage;
  d.meshBytes = meshBytes - o.meshBytes;
  d.spill = spill - o.spill;
  d.busy.pe = busy.pe - o.busy.pe;
  d.busy.dma = busy.dma - o.busy.dma;
  d.busy.sfu = busy.sfu - o.busy.sfu;
  d.busy.mesh = busy.mesh - o.busy.mesh;
  return d;
}

double rooflineCycles(const HardwareDesc &hw, uint64_t macs, uint64_t bytes,
                      bool *memoryBound) {
  const double peak = hw.peakMacsPerCycle(), bw = hw.dramBytesPerCycle();
  const double compute = peak > 0 ? double(macs) / peak : 0;
  const double memory = bw > 0 ? double(bytes) / bw : 0;
  if (memoryBound)
    *memoryBound = memory > compute;
  // Whole cycles: a machine cannot finish in 3.75 of them.
  return std::ceil(std::max(compute, memory));
}

void networkCompulsory(const Program &p, uint64_t performedMacs,
                       uint64_t &bytes, uint64_t &macs) {
  bytes = 0;
  macs = 0;
  if (p.layers.empty()) {
    for (const ConstSegment &s : p.constants)
      bytes += s.size();
    macs = performedMacs;
  } else {
    for (const LayerInfo &l : p.layers) {
      bytes += l.weightBytes;
      macs += l.macs;
    }
  }
  for (const Symbol &s : p.symbols)
    bytes += imageBytes(s);
}

void LayerAccounting::init(const Program &p, const HardwareDesc &h,
                           bool spans) {
  prog = &p;
  hw = &h;
  rows.assign(p.layers.size(), LayerStats{});
  for (size_t i = 0; i < rows.size(); ++i) {
    rows[i].id = uint32_t(i);
    rows[i].name = p.layers[i].name;
    rows[i].op = p.layers[i].opKind;
    rows[i].fused = p.layers[i].fused;
    rows[i].modelMacs = p.layers[i].macs;
    rows[i].compulsoryBytes = p.layers[i].compulsoryBytes;
    rows[i].firstCycle = kNever;
  }
  unattributed = LayerStats{};
  unattributed.name = "(unattributed)";
  unattributed.firstCycle = kNever;
  spanStride = rows.size() + 1;
  clusterSpans.clear();
  if (spans && !rows.empty())
    clusterSpans.assign(spanStride * h.numClusters(), {kNever, 0});

  outputRanges.clear();
  for (const Symbol &s : p.symbols) {
    if (s.isInput)
      continue;
    if (s.pieces.empty())
      outputRanges.push_back({s.dramAddr, s.dramAddr + imageBytes(s)});
    for (const DramPiece &q : s.pieces)
      outputRanges.push_back({q.dramAddr, q.dramAddr + q.bytes});
  }
  std::sort(outputRanges.begin(), outputRanges.end());
  std::vector<std::pair<uint64_t, uint64_t>> merged;
  for (auto &r : outputRanges) {
    if (r.second <= r.first)
      continue;
    if (!merged.empty() && r.first <= merged.back().second)
      merged.back().second = std::max(merged.back().second, r.second);
    else
      merged.push_back(r);
  }
  outputRanges = std::move(merged);
}

void LayerAccounting::active(LayerStats &L, uint32_t layer, uint32_t cluster,
                             uint64_t from, uint64_t to) {
  L.firstCycle = std::min(L.firstCycle, from);
  L.lastCycle = std::max(L.lastCycle, to);
  if (clusterSpans.empty())
    return;
  size_t idx = std::min<size_t>(layer, rows.size());
  auto &s = clusterSpans[cluster * spanStride + idx];
  s.first = std::min(s.first, from);
  s.second = std::max(s.second, to);
}

uint64_t LayerAccounting::bytesOutsideOutputs(uint64_t lo, uint64_t hi,
                                              uint64_t payload) const {
  if (hi <= lo || payload == 0)
    return 0;
  uint64_t inside = 0;
  auto it =
      std::upper_bound(outputRanges.begin(), outputRanges.end(), lo,
                       [](uint64_t v, const std::pair<uint64_t, uint64_t> &r) {
                         return v < r.second;
                       });
  for (; it != outputRanges.end() && it->first < hi; ++it)
    inside += std::min(hi, it->second) - std::max(lo, it->first);
  const uint64_t span = hi - lo;
  if (inside >= span)
    return 0;
  if (span == payload)
    return payload - inside;
  // A strided box: the payload is spread over the range.
  return uint64_t(double(payload) * double(span - inside) / double(span));
}

void LayerAccounting::finishRow(LayerStats &L, double peak,
                                bool isLayer) const {
  if (L.commands == 0 || L.firstCycle == kNever) {
    L.firstCycle = L.lastCycle = 0;
  }
  L.lastCycle = std::max(L.lastCycle, L.firstCycle);
  L.cycles = L.lastCycle - L.firstCycle;
  const double cyc = double(L.cycles);
  L.macUtilisation = L.cycles ? double(L.macs) / (cyc * peak) : 0;
  if (isLayer) {
    bool memory = false;
    L.rooflineBound =
        rooflineCycles(*hw, L.modelMacs, L.compulsoryBytes, &memory);
    L.boundKind = memory ? "memory" : "compute";
  }
  L.boundRatio = L.rooflineBound > 0 ? cyc / L.rooflineBound : 0;
  // The busiest unit relative to how many of it there are.
  const double clusters = double(hw->numClusters());
  const double channels = double(std::max<size_t>(hw->channels.size(), 1));
  const std::pair<const char *, double> occ[] = {
      {"pe", double(L.busy.pe) / clusters},
      {"dma", double(L.busy.dma) / channels},
      {"sfu", double(L.busy.sfu) / clusters},
      {"mesh", double(L.busy.mesh) / clusters}};
  L.limit = "none";
  L.limitOccupancy = 0;
  double best = 0;
  for (auto &[unit, busy] : occ)
    if (busy > best) {
      best = busy;
      L.limit = unit;
    }
  if (L.cycles)
    L.limitOccupancy = best / cyc;
}

std::vector<uint64_t>
exclusiveLengths(const std::vector<std::pair<uint64_t, uint64_t>> &spans) {
  std::vector<uint64_t> out(spans.size(), 0);
  // The union of the spans so far: disjoint, sorted by start.
  std::vector<std::pair<uint64_t, uint64_t>> covered;
  for (size_t i = 0; i < spans.size(); ++i) {
    auto [lo, hi] = spans[i];
    if (hi <= lo)
      continue;
    uint64_t taken = 0, newLo = lo, newHi = hi;
    auto first = std::lower_bound(covered.begin(), covered.end(), lo,
                                  [](const std::pair<uint64_t, uint64_t> &c,
                                     uint64_t v) { return c.second < v; });
    auto last = first;
    for (; last != covered.end() && last->first <= hi; ++last) {
      taken += std::min(hi, last->second) - std::max(lo, last->first);
      newLo = std::min(newLo, last->first);
      newHi = std::max(newHi, last->second);
    }
    out[i] = (hi - lo) - taken;
    covered.insert(covered.erase(first, last), {newLo, newHi});
  }
  return out;
}

void LayerAccounting::finish(SimStats &stats) const {
  const double peak = hw->peakMacsPerCycle();
  stats.layers = rows;
  for (LayerStats &L : stats.layers)
    finishRow(L, peak, true);
  stats.unattributed = unattributed;
  finishRow(stats.unattributed, peak, false);
  // Layers in table order, the unattributed commands after all of them.
  std::vector<std::pair<uint64_t, uint64_t>> spans;
  for (const LayerStats &L : stats.layers)
    spans.push_back({L.firstCycle, L.lastCycle});
  spans.push_back(
      {stats.unattributed.firstCycle, stats.unattributed.lastCycle});
  std::vector<uint64_t> exclusive = exclusiveLengths(spans);
  for (size_t i = 0; i < stats.layers.size(); ++i)
    stats.layers[i].exclusiveCycles = exclusive[i];
  stats.unattributed.exclusiveCycles = exclusive.back();
  networkCompulsory(*prog, stats.macs, stats.compulsoryBytes, stats.idealMacs);
  stats.idealBoundCycles =
      rooflineCycles(*hw, stats.idealMacs, stats.compulsoryBytes);
  stats.idealRatio = stats.idealBoundCycles > 0
                         ? double(stats.cycles) / stats.idealBoundCycles
                         : 0;
}

void LayerAccounting::spans(TimelineStats &out) const {
  out.layerSpans.clear();
  for (size_t i = 0; i < clusterSpans.size(); ++i) {
    auto [first, last] = clusterSpans[i];
    if (first > last)
      continue;
    const size_t layer = i % spanStride;
    out.layerSpans.push_back(
        {uint32_t(i / spanStride),
         layer < rows.size() ? uint32_t(layer) : Command::kNoLayer, first,
         last});
  }
}

void LayerAccounting::writeTrace(TraceRecorder &trace,
                                 uint32_t firstTid) const {
  if (clusterSpans.empty())
    return;
  const uint32_t n = hw->numClusters();
  struct Span {
    uint64_t from, to;
    size_t layer;
  };
  for (uint32_t c = 0; c < n; ++c) {
    std::vector<Span> spans;
    for (size_t l = 0; l < spanStride; ++l) {
      auto s = clusterSpans[c * spanStride + l];
      if (s.first <= s.second)
        spans.push_back({s.first, s.second, l});
    }
    std::sort(spans.begin(), spans.end(), [](const Span &a, const Span &b) {
      return a.from != b.from ? a.from < b.from : a.layer < b.layer;
    });
    // Greedy tracks: a span goes to the first track free at its start, so
    // overlapping layers (prefetch of the next layer's weights) stay
    // readable.
    std::vector<uint64_t> trackEnd;
    for (const Span &s : spans) {
      size_t t = 0;
      while (t < trackEnd.size() && trackEnd[t] > s.from)
        ++t;
      if (t == trackEnd.size()) {
        trackEnd.push_back(0);
        trace.thread(c, firstTid + t,
                     t ? "layers " + std::to_string(t + 1) : "layers");
      }
      trackEnd[t] = s.to;
      const bool isLayer = s.layer < rows.size();
      const LayerStats &L = isLayer ? rows[s.layer] : unattributed;
      std::string args =
          "{\"layer\":" + (isLayer ? std::to_string(s.layer) : "null") +
          ",\"op\":" + jsonQuote(L.op) + "}";
      trace.complete(L.name, c, firstTid + t, s.from, s.to - s.from, args);
    }
  }
}

} // namespace sim
} // namespace accel
