//===- EncodingTest.cpp - 8-bit commands and 12-bit instructions ----------===//
#include "accel/Target/Encoding.h"
#include <gtest/gtest.h>

using namespace accel;

namespace {

Command cmd(CommandKind k, unsigned ibuf, bool shift = false,
            bool last = false) {
  Command c;
  c.kind = k;
  c.ibuf = uint8_t(ibuf);
  c.shift = shift;
  c.last = last;
  return c;
}

InstrFields fields(Opcode op, unsigned sub = 0, unsigned slot = 0,
                   unsigned acc = 0, unsigned out = 0, bool lb = false,
                   bool sfu = false) {
  InstrFields f;
  f.op = op;
  f.sub = uint8_t(sub);
  f.slot = uint8_t(slot);
  f.accId = uint8_t(acc);
  f.outSlot = uint8_t(out);
  f.loadBalance = lb;
  f.sfuActive = sfu;
  return f;
}

bool same(const InstrFields &a, const InstrFields &b) {
  return a.op == b.op && a.sub == b.sub && a.slot == b.slot &&
         a.accId == b.accId && a.outSlot == b.outSlot &&
         a.loadBalance == b.loadBalance && a.sfuActive == b.sfuActive;
}

void roundTrip(const InstrFields &f, uint16_t expected) {
  uint16_t w = 0xFFFF;
  std::string err;
  ASSERT_TRUE(encodeInstruction(f, w, err)) << err;
  EXPECT_EQ(w, expected);
  InstrFields back;
  ASSERT_TRUE(decodeInstruction(w, back, err)) << err;
  EXPECT_TRUE(same(f, back)) << "word " << w;
}

void expectEncodeError(const InstrFields &f, const std::string &needle) {
  uint16_t w;
  std::string err;
  EXPECT_FALSE(encodeInstruction(f, w, err));
  EXPECT_NE(err.find(needle), std::string::npos) << err;
}

void expectDecodeError(uint16_t w, const std::string &needle) {
  InstrFields f;
  std::string err;
  EXPECT_FALSE(decodeInstruction(w, f, err)) << "word " << w;
  EXPECT_NE(err.find(needle), std::string::npos) << err;
}

} // namespace

//===----------------------------------------------------------------------===//
// Commands
//===----------------------------------------------------------------------===//

TEST(Encoding, ConfigEveryBuffer) {
  for (unsigned b = 0; b < 32; ++b) {
    uint8_t byte;
    std::string err;
    ASSERT_TRUE(encodeCommand(cmd(CommandKind::Config, b), byte, err)) << err;
    EXPECT_EQ(byte, b); // 0 00 bbbbb
    Command back;
    back.shift = back.last = true;
    ASSERT_TRUE(decodeCommand(byte, back, err)) << err;
    EXPECT_EQ(back.kind, CommandKind::Config);
    EXPECT_EQ(back.ibuf, b);
    EXPECT_FALSE(back.shift);
    EXPECT_FALSE(back.last);
  }
}

TEST(Encoding, ExecuteEveryBufferShiftLast) {
  for (unsigned b = 0; b < 32; ++b)
    for (int s = 0; s < 2; ++s)
      for (int l = 0; l < 2; ++l) {
        uint8_t byte;
        std::string err;
        ASSERT_TRUE(
            encodeCommand(cmd(CommandKind::Execute, b, s, l), byte, err));
        EXPECT_EQ(byte, 0x80 | (s ? 0x40 : 0) | (l ? 0x20 : 0) | b);
        Command back;
        ASSERT_TRUE(decodeCommand(byte, back, err)) << err;
        EXPECT_EQ(back.kind, CommandKind::Execute);
        EXPECT_EQ(back.ibuf, b);
        EXPECT_EQ(back.shift, bool(s));
        EXPECT_EQ(back.last, bool(l));
      }
}

TEST(Encoding, SpecExamples) {
  uint8_t byte;
  std::string err;
  ASSERT_TRUE(
      encodeCommand(cmd(CommandKind::Execute, 3, true, false), byte, err));
  EXPECT_EQ(byte, 0xC3); // 1 1 0 00011
  ASSERT_TRUE(
      encodeCommand(cmd(CommandKind::Execute, 31, false, true), byte, err));
  EXPECT_EQ(byte, 0xBF); // 1 0 1 11111
}

TEST(Encoding, EveryCommandByte) {
  int valid = 0;
  for (unsigned v = 0; v < 256; ++v) {
    Command c;
    std::string err;
    bool ok = decodeCommand(uint8_t(v), c, err);
    bool reservedSet = !(v & 0x80) && (v & 0x60);
    EXPECT_EQ(ok, !reservedSet) << "byte " << v;
    if (!ok) {
      EXPECT_NE(err.find("reserved"), std::string::npos) << err;
      continue;
    }
    ++valid;
    uint8_t again;
    ASSERT_TRUE(encodeCommand(c, again, err)) << err;
    EXPECT_EQ(again, v);
  }
  EXPECT_EQ(valid, 32 + 128);
}

TEST(Encoding, CommandRejections) {
  uint8_t byte;
  std::string err;
  EXPECT_FALSE(encodeCommand(cmd(CommandKind::Config, 32), byte, err));
  EXPECT_NE(err.find("ibuf"), std::string::npos) << err;
  EXPECT_FALSE(encodeCommand(cmd(CommandKind::Execute, 255), byte, err));
  EXPECT_NE(err.find("ibuf"), std::string::npos) << err;
  EXPECT_FALSE(encodeCommand(cmd(CommandKind::Config, 1, true), byte, err));
  EXPECT_NE(err.find("shift"), std::string::npos) << err;
  EXPECT_FALSE(
      encodeCommand(cmd(CommandKind::Config, 1, false, true), byte, err));
  EXPECT_NE(err.find("last"), std::string::npos) << err;
  for (CommandKind k :
       {CommandKind::Dma, CommandKind::Wait, CommandKind::Barrier,
        CommandKind::Send, CommandKind::Signal, CommandKind::Recv}) {
    EXPECT_FALSE(encodeCommand(cmd(k, 0), byte, err));
    EXPECT_NE(err.find("no 8-bit encoding"), std::string::npos) << err;
  }
  Command c;
  EXPECT_FALSE(decodeCommand(0x20, c, err));
  EXPECT_NE(err.find("reserved bits 2-3"), std::string::npos) << err;
  EXPECT_FALSE(decodeCommand(0x5F, c, err));
}

//===----------------------------------------------------------------------===//
// Instructions: every value of every field
//===----------------------------------------------------------------------===//

TEST(Encoding, LdEveryField) {
  for (unsigned s = 0; s < 3; ++s)
    for (unsigned slot = 0; slot < 16; ++slot)
      roundTrip(fields(Opcode::LD, s, slot), uint16_t(s << 8 | slot << 4));
  roundTrip(fields(Opcode::LD, 1, 5), 0x150);
}

TEST(Encoding, MacEveryField) {
  for (int lb = 0; lb < 2; ++lb)
    for (int sfu = 0; sfu < 2; ++sfu)
      for (unsigned slot = 0; slot < 16; ++slot)
        for (unsigned acc = 0; acc < 4; ++acc)
          roundTrip(fields(Opcode::MAC, 0, slot, acc, 0, lb, sfu),
                    uint16_t(0x400 | (lb ? 0x200 : 0) | (sfu ? 0x100 : 0) |
                             slot << 4 | acc << 2));
  roundTrip(fields(Opcode::MAC, 0, 3, 2, 0, true, true), 0x738);
}

TEST(Encoding, StEveryField) {
  for (unsigned src = 0; src < 2; ++src)
    for (unsigned slot = 0; slot < 16; ++slot)
      for (unsigned acc = 0; acc < 4; ++acc)
        roundTrip(fields(Opcode::ST, src, slot, acc),
                  uint16_t(0x800 | src << 8 | slot << 4 | acc << 2));
  roundTrip(fields(Opcode::ST, 1, 15, 3), 0x9FC);
}

TEST(Encoding, SpuEveryField) {
  for (unsigned t = 0; t < 4; ++t)
    for (unsigned in = 0; in < 16; ++in)
      for (unsigned out = 0; out < 16; ++out)
        roundTrip(fields(Opcode::SPU, t, in, 0, out),
                  uint16_t(0xC00 | t << 8 | in << 4 | out));
  roundTrip(fields(Opcode::SPU, 3, 7, 0, 9), 0xF79);
}

TEST(Encoding, EveryInstructionWord) {
  int valid = 0;
  for (unsigned w = 0; w < 0x10000; ++w) {
    InstrFields f;
    std::string err;
    if (!decodeInstruction(uint16_t(w), f, err)) {
      EXPECT_FALSE(err.empty());
      continue;
    }
    ++valid;
    uint16_t again;
    ASSERT_TRUE(encodeInstruction(f, again, err)) << err;
    EXPECT_EQ(again, w);
  }
  // LD 4*16, MAC 2*2*16*4, ST 2*16*4, SPU 4*16*16.
  EXPECT_EQ(valid, 64 + 256 + 128 + 1024);
}

TEST(Encoding, SparseWeightStream) {
  // LD sparse_weights slot 2 = 00 11 0010 0000.
  uint16_t w;
  std::string err;
  ASSERT_TRUE(encodeInstruction(fields(Opcode::LD, 3, 2), w, err)) << err;
  EXPECT_EQ(w, 0x320);
  InstrFields f;
  ASSERT_TRUE(decodeInstruction(0x320, f, err)) << err;
  EXPECT_EQ(f.sub, uint8_t(LoadStream::SparseWeights));
  EXPECT_EQ(f.slot, 2);
}

TEST(Encoding, InstructionEncodeRejections) {
  expectEncodeError(fields(Opcode::LD, 0, 16), "slot 16");
  expectEncodeError(fields(Opcode::MAC, 0, 16), "slot");
  expectEncodeError(fields(Opcode::ST, 0, 200), "slot");
  expectEncodeError(fields(Opcode::SPU, 0, 16), "slot");
  expectEncodeError(fields(Opcode::LD, 4), "stream 4");
  expectEncodeError(fields(Opcode::ST, 2), "source 2");
  expectEncodeError(fields(Opcode::ST, 3), "source 3");
  expectEncodeError(fields(Opcode::SPU, 4), "type 4");
  expectEncodeError(fields(Opcode::MAC, 0, 0, 4), "accId 4");
  expectEncodeError(fields(Opcode::ST, 0, 0, 4), "accId 4");
  expectEncodeError(fields(Opcode::SPU, 0, 0, 0, 16), "outSlot 16");
  InstrFields bad = fields(Opcode::LD);
  bad.op = Opcode(4);
  expectEncodeError(bad, "opcode 4");
  // Fields an opcode does not use must be zero.
  expectEncodeError(fields(Opcode::LD, 0, 0, 1), "accId");
  expectEncodeError(fields(Opcode::LD, 0, 0, 0, 1), "outSlot");
  expectEncodeError(fields(Opcode::LD, 0, 0, 0, 0, true), "loadBalance");
  expectEncodeError(fields(Opcode::LD, 0, 0, 0, 0, false, true), "sfuActive");
  expectEncodeError(fields(Opcode::MAC, 1), "sub");
  expectEncodeError(fields(Opcode::MAC, 0, 0, 0, 1), "outSlot");
  expectEncodeError(fields(Opcode::ST, 0, 0, 0, 1), "outSlot");
  expectEncodeError(fields(Opcode::ST, 0, 0, 0, 0, true), "loadBalance");
  expectEncodeError(fields(Opcode::ST, 0, 0, 0, 0, false, true), "sfuActive");
  expectEncodeError(fields(Opcode::SPU, 0, 0, 1), "accId");
  expectEncodeError(fields(Opcode::SPU, 0, 0, 0, 0, true), "loadBalance");
  expectEncodeError(fields(Opcode::SPU, 0, 0, 0, 0, false, true), "sfuActive");
}

TEST(Encoding, InstructionDecodeRejections) {
  expectDecodeError(0x1000, "above the 12-bit word");
  expectDecodeError(0x8150, "above the 12-bit word");
  expectDecodeError(0x0101, "reserved bits 9-12");
  expectDecodeError(0x0108, "reserved bits 9-12");
  expectDecodeError(0x0401, "reserved bits 11-12");
  expectDecodeError(0x0402, "reserved bits 11-12");
  expectDecodeError(0x0A00, "source 2");
  expectDecodeError(0x0B00, "source 3");
  expectDecodeError(0x0803, "reserved bits 11-12");
}

TEST(Encoding, OpcodeNames) {
  EXPECT_STREQ(opcodeName(Opcode::LD), "LD");
  EXPECT_STREQ(opcodeName(Opcode::MAC), "MAC");
  EXPECT_STREQ(opcodeName(Opcode::ST), "ST");
  EXPECT_STREQ(opcodeName(Opcode::SPU), "SPU");
}
