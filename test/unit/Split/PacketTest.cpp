//===- PacketTest.cpp - Constant packets (spec Fig. 3) --------------------===//
#include "accel/Split/Split.h"

#include <gtest/gtest.h>

using namespace accel::split;

namespace {
uint64_t u64At(const std::vector<uint8_t> &b, size_t off) {
  uint64_t v = 0;
  for (int i = 0; i < 8; ++i)
    v |= uint64_t(b.at(off + i)) << (8 * i);
  return v;
}
} // namespace

// Fig. 3: packet 1 = instruction 1 (2048 bytes) at offset 0 + filter block 1
// (1024) at 2048, constant total 3072; address segment: input address 1 at
// 0, output address 1 at 8.
TEST(Packet, Figure3Layout) {
  ConstantPacket p = layoutPacket({{"instruction1", 2048}, {"filter1", 1024}},
                                  {}, {"input1", "output1"});
  ASSERT_EQ(p.constants.size(), 2u);
  EXPECT_EQ(p.constants[0].name, "instruction1");
  EXPECT_EQ(p.constants[0].offset, 0u);
  EXPECT_EQ(p.constants[0].size, 2048u);
  EXPECT_EQ(p.constants[1].offset, 2048u);
  EXPECT_EQ(p.constants[1].size, 1024u);
  EXPECT_EQ(p.constantTotal, 3072u);
  ASSERT_EQ(p.addresses.size(), 2u);
  EXPECT_EQ(p.addresses[0].name, "input1");
  EXPECT_EQ(p.addresses[0].offset, 0u);
  EXPECT_EQ(p.addresses[0].size, 8u);
  EXPECT_EQ(p.addresses[1].offset, 8u);
  EXPECT_EQ(p.markerOffset(), 3072u);
  EXPECT_EQ(p.addressTableOffset(), 32u + 2 * 16);
}

// The serialised bytes: constant area, then the marker area of
// little-endian u64 fields (docs/labels-and-splits.md, "Packet layout").
TEST(Packet, Figure3Bytes) {
  ConstantPacket p = layoutPacket({{"instruction1", 2048}, {"filter1", 1024}},
                                  {}, {"input1", "output1"});
  std::vector<uint8_t> ins(2048), filt(1024);
  for (size_t i = 0; i < ins.size(); ++i)
    ins[i] = uint8_t(i * 7 + 1);
  for (size_t i = 0; i < filt.size(); ++i)
    filt[i] = uint8_t(255 - i);
  std::vector<uint8_t> b = p.bytes({ins, filt}, {0x1000, 0x20000000});
  ASSERT_EQ(b.size(), 3072u + 8 * (4 + 2 * 2 + 2));
  EXPECT_TRUE(std::equal(ins.begin(), ins.end(), b.begin()));
  EXPECT_TRUE(std::equal(filt.begin(), filt.end(), b.begin() + 2048));
  const size_t m = 3072;
  EXPECT_EQ(u64At(b, m + 0), 3072u); // constant total
  EXPECT_EQ(u64At(b, m + 8), 2u);    // blocks
  EXPECT_EQ(u64At(b, m + 16), 0u);   // hidden tensors
  EXPECT_EQ(u64At(b, m + 24), 2u);   // addresses
  EXPECT_EQ(u64At(b, m + 32), 0u);   // block 0 offset, size
  EXPECT_EQ(u64At(b, m + 40), 2048u);
  EXPECT_EQ(u64At(b, m + 48), 2048u); // block 1 offset, size
  EXPECT_EQ(u64At(b, m + 56), 1024u);
  size_t a = m + p.addressTableOffset();
  EXPECT_EQ(u64At(b, a + p.addresses[0].offset), 0x1000u);
  EXPECT_EQ(u64At(b, a + p.addresses[1].offset), 0x20000000u);
  // Little-endian: the lowest byte first.
  EXPECT_EQ(b[m + 8 + 0], 2u);
  EXPECT_EQ(b[m + 8 + 1], 0u);
  EXPECT_EQ(b[m + 1], 0x0cu); // 3072 = 0x0c00
  // The marker alone is the tail of bytes().
  std::vector<uint8_t> mk = p.marker({0x1000, 0x20000000});
  EXPECT_TRUE(std::equal(mk.begin(), mk.end(), b.begin() + m));
}

TEST(Packet, AlignmentHiddenSizesAndMismatches) {
  ConstantPacket p = layoutPacket({{"w", 100}, {"b", 50}, {"s", 1}},
                                  {{"h1", 4096}, {"h2", 12}}, {"in"}, 64);
  EXPECT_EQ(p.constants[0].offset, 0u);
  EXPECT_EQ(p.constants[1].offset, 128u);
  EXPECT_EQ(p.constants[2].offset, 192u);
  EXPECT_EQ(p.constantTotal, 193u);
  EXPECT_EQ(p.markerOffset(), 200u); // 8-byte aligned marker
  ASSERT_EQ(p.hidden.size(), 2u);
  EXPECT_EQ(p.hidden[0].size, 4096u);
  EXPECT_EQ(p.addressTableOffset(), 8u * (4 + 2 * 3 + 2));
  std::vector<uint8_t> b = p.bytes(
      {std::vector<uint8_t>(100, 1), std::vector<uint8_t>(50, 2), {3}}, {77});
  ASSERT_EQ(b.size(), 200u + 8 * (4 + 6 + 2 + 1));
  EXPECT_EQ(b[99], 1u);
  EXPECT_EQ(b[100], 0u); // alignment gap is zero
  EXPECT_EQ(b[128], 2u);
  EXPECT_EQ(b[192], 3u);
  EXPECT_EQ(b[193], 0u);
  EXPECT_EQ(u64At(b, 200 + 8 * 10), 4096u); // hidden sizes follow blocks
  EXPECT_EQ(u64At(b, 200 + 8 * 11), 12u);
  EXPECT_EQ(u64At(b, 200 + p.addressTableOffset()), 77u);
  // Data that does not fit the layout: empty, never a partial packet.
  EXPECT_TRUE(
      p.bytes({std::vector<uint8_t>(99, 1), std::vector<uint8_t>(50, 2), {3}},
              {77})
          .empty());
  EXPECT_TRUE(p.bytes({std::vector<uint8_t>(100, 1)}, {77}).empty());
  EXPECT_TRUE(p.marker({}).empty());
  // An empty packet: only the marker header.
  ConstantPacket e = layoutPacket({}, {}, {});
  EXPECT_EQ(e.constantTotal, 0u);
  EXPECT_EQ(e.bytes({}, {}).size(), 32u);
  // Alignment 0 means 1.
  ConstantPacket z = layoutPacket({{"a", 3}, {"b", 3}}, {}, {}, 0);
  EXPECT_EQ(z.constants[1].offset, 3u);
}
