//===- ValidatePackets.cpp - Constant packets against the program ---------===//
//
// A constant packet (Program::packets) names the blocks of split constants a
// core computes with and carries the marker area the loader writes before
// the run. Its blocks are constant data already placed by the constant
// segments (or their replicas); its marker must lie in the program's DRAM
// (and, checked with the other DRAM items in Validate.cpp, overlap nothing).
//
//===----------------------------------------------------------------------===//
#include "ValidateParts.h"
#include <algorithm>
#include <set>

namespace accel {
namespace validate {
namespace {

using i128 = __int128;

struct Span {
  i128 lo, hi;
};

std::string spanString(Span s) {
  return "[" + int128String(s.lo) + ", " + int128String(s.hi) + ")";
}

/// The constant segments and their replicas as sorted, merged spans.
std::vector<Span> constantSpans(const Program &p) {
  std::vector<Span> spans;
  for (const ConstSegment &c : p.constants) {
    if (c.empty())
      continue;
    i128 bytes = i128(c.size());
    spans.push_back({i128(c.dramAddr), i128(c.dramAddr) + bytes});
    for (uint64_t r : c.replicas)
      spans.push_back({i128(r), i128(r) + bytes});
  }
  std::sort(spans.begin(), spans.end(),
            [](const Span &a, const Span &b) { return a.lo < b.lo; });
  std::vector<Span> merged;
  for (const Span &s : spans) {
    if (!merged.empty() && s.lo <= merged.back().hi)
      merged.back().hi = std::max(merged.back().hi, s.hi);
    else
      merged.push_back(s);
  }
  return merged;
}

bool coveredBy(const std::vector<Span> &merged, Span s) {
  auto it = std::upper_bound(merged.begin(), merged.end(), s.lo,
                             [](i128 lo, const Span &m) { return lo < m.hi; });
  return it != merged.end() && it->lo <= s.lo && s.hi <= it->hi;
}

} // namespace

bool checkPackets(const Program &p, const HardwareDesc &hw, std::string &err) {
  std::vector<Span> constants = constantSpans(p);
  std::set<std::pair<uint32_t, uint32_t>> cores;
  i128 dram = i128(p.dramSize);
  uint64_t clusters = uint64_t(p.gridRows) * p.gridCols;
  for (size_t i = 0; i < p.packets.size(); ++i) {
    const ConstPacket &pk = p.packets[i];
    std::string where = "packet " + std::to_string(i);
    if (pk.cluster >= clusters) {
      err = where + ": cluster " + std::to_string(pk.cluster) +
            " is outside the " + std::to_string(p.gridRows) + "x" +
            std::to_string(p.gridCols) + " grid";
      return false;
    }
    where += " (cluster " + clusterName(p, pk.cluster) + " core " +
             std::to_string(pk.core) + "): ";
    if (pk.core >= hw.pesPerCluster) {
      err = where + "core " + std::to_string(pk.core) +
            " does not exist (a cluster has " +
            std::to_string(hw.pesPerCluster) + " PEs)";
      return false;
    }
    if (!cores.insert({pk.cluster, pk.core}).second) {
      err = where + "a second packet for the same core";
      return false;
    }
    Span marker{i128(pk.markerAddr),
                i128(pk.markerAddr) + i128(pk.marker.size())};
    if (marker.hi > dram) {
      err = where + "marker area " + spanString(marker) + " outside DRAM [0, " +
            std::to_string(p.dramSize) + ")";
      return false;
    }
    for (const PacketBlockRef &b : pk.blocks) {
      Span s{i128(b.dramAddr), i128(b.dramAddr) + i128(b.bytes)};
      std::string block = "block '" + b.name + "' " + spanString(s);
      if (s.hi > dram) {
        err = where + block + " outside DRAM [0, " +
              std::to_string(p.dramSize) + ")";
        return false;
      }
      if (s.hi > s.lo && !coveredBy(constants, s)) {
        err = where + block +
              " is not constant data (no constant segment holds it)";
        return false;
      }
    }
  }
  return true;
}

} // namespace validate
} // namespace accel
