//===- Packet.cpp - Constant packets (spec [0112]-[0125]) -----------------===//
//
// Logical layout of one core's constant packet and its serialised bytes
// (docs/labels-and-splits.md, "Packet layout"): the constant area, then the
// marker area of little-endian u64 fields.
//
//===----------------------------------------------------------------------===//
#include "accel/Split/Split.h"

#include <algorithm>

namespace accel::split {

namespace {
constexpr uint64_t kAddressBytes = 8;
constexpr uint64_t kMarkerHeaderFields = 4;

uint64_t alignUp(uint64_t v, uint64_t a) { return (v + a - 1) / a * a; }

void putU64(std::vector<uint8_t> &out, uint64_t v) {
  for (int i = 0; i < 8; ++i)
    out.push_back(uint8_t(v >> (8 * i)));
}
} // namespace

ConstantPacket
layoutPacket(const std::vector<std::pair<std::string, uint64_t>> &constants,
             const std::vector<std::pair<std::string, uint64_t>> &hidden,
             const std::vector<std::string> &addresses, uint64_t alignment) {
  uint64_t align = alignment ? alignment : 1;
  ConstantPacket p;
  uint64_t end = 0;
  for (const auto &[name, size] : constants) {
    uint64_t offset = alignUp(end, align);
    p.constants.push_back({name, size, offset});
    end = offset + size;
  }
  p.constantTotal = end;
  for (const auto &[name, size] : hidden)
    p.hidden.push_back({name, size, 0});
  for (size_t i = 0; i < addresses.size(); ++i)
    p.addresses.push_back({addresses[i], kAddressBytes, i * kAddressBytes});
  return p;
}

uint64_t ConstantPacket::markerOffset() const {
  return alignUp(constantTotal, 8);
}

uint64_t ConstantPacket::addressTableOffset() const {
  return 8 * (kMarkerHeaderFields + 2 * constants.size() + hidden.size());
}

std::vector<uint8_t>
ConstantPacket::marker(const std::vector<uint64_t> &addressValues) const {
  std::vector<uint8_t> out;
  if (addressValues.size() != addresses.size())
    return out;
  putU64(out, constantTotal);
  putU64(out, constants.size());
  putU64(out, hidden.size());
  putU64(out, addresses.size());
  for (const PacketBlock &b : constants) {
    putU64(out, b.offset);
    putU64(out, b.size);
  }
  for (const PacketBlock &h : hidden)
    putU64(out, h.size);
  for (uint64_t a : addressValues)
    putU64(out, a);
  return out;
}

std::vector<uint8_t>
ConstantPacket::bytes(const std::vector<std::vector<uint8_t>> &blockData,
                      const std::vector<uint64_t> &addressValues) const {
  if (blockData.size() != constants.size() ||
      addressValues.size() != addresses.size())
    return {};
  for (size_t i = 0; i < constants.size(); ++i)
    if (blockData[i].size() != constants[i].size)
      return {};
  std::vector<uint8_t> out(markerOffset(), 0);
  for (size_t i = 0; i < constants.size(); ++i)
    std::copy(blockData[i].begin(), blockData[i].end(),
              out.begin() + int64_t(constants[i].offset));
  std::vector<uint8_t> m = marker(addressValues);
  out.insert(out.end(), m.begin(), m.end());
  return out;
}

} // namespace accel::split
