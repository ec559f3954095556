//===- DramRoles.cpp - What the DRAM bytes of a program hold --------------===//
#include "accel/Target/DramRoles.h"
#include <algorithm>

using namespace accel;

void DramRoleMap::add(uint64_t lo, uint64_t hi, DramRole r) {
  if (hi <= lo)
    return;
  // Validated programs never overlap symbols and constants; keep the first
  // range on a clash.
  auto it = ranges_.lower_bound(lo);
  if (it != ranges_.end() && it->first < hi)
    return;
  if (it != ranges_.begin() && std::prev(it)->second.first > lo)
    return;
  ranges_.emplace(lo, std::make_pair(hi, r));
}

DramRoleMap::DramRoleMap(const Program &p) {
  for (const Symbol &s : p.symbols) {
    const DramRole r = s.isInput ? DramRole::Input : DramRole::Output;
    if (s.pieces.empty())
      add(s.dramAddr, s.dramAddr + s.numElements() * 4, r); // f32 images
    for (const DramPiece &q : s.pieces)
      add(q.dramAddr, q.dramAddr + q.bytes, r);
  }
  for (const ConstSegment &c : p.constants) {
    add(c.dramAddr, c.dramAddr + c.size(), DramRole::Constant);
    for (uint64_t a : c.replicas)
      add(a, a + c.size(), DramRole::Constant);
  }
  for (const ConstPacket &k : p.packets)
    add(k.markerAddr, k.markerAddr + k.marker.size(), DramRole::Constant);
}

DramRole DramRoleMap::roleOf(uint64_t lo, uint64_t hi) const {
  auto it = ranges_.upper_bound(lo);
  if (it != ranges_.begin() && std::prev(it)->second.first > lo)
    return std::prev(it)->second.second;
  if (it != ranges_.end() && it->first < hi)
    return it->second.second;
  return DramRole::Intermediate;
}

uint64_t DramRoleMap::spillBytes(const DmaDesc &d) const {
  const uint64_t bytes = d.numElements() * d.elemBytes;
  uint64_t spilled = 0;
  auto side = [&](uint64_t base, const int64_t *stride) {
    int64_t below = 0, above = 0;
    for (int i = 0; i < 4; ++i) {
      int64_t span = int64_t(d.shape[i] - 1) * stride[i];
      (span < 0 ? below : above) += span;
    }
    uint64_t lo = base + uint64_t(below) * d.elemBytes;
    uint64_t hi = base + uint64_t(above) * d.elemBytes + d.elemBytes;
    if (roleOf(lo, hi) == DramRole::Intermediate)
      spilled += bytes;
  };
  if (bytes == 0)
    return 0;
  if (readsDram(d.dir))
    side(d.src, d.srcStride);
  if (writesDram(d.dir))
    side(d.dst, d.dstStride);
  return spilled;
}
