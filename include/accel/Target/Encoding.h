//===- Encoding.h - 8-bit command / 12-bit instruction words ----*- C++ -*-===//
//
// Bit-exact encodings of spec/isa.md (bit 1 = most significant bit). The full
// tables are in docs/isa.md.
//
//   Command (8 bits):   CONFIG  0 rr bbbbb   (rr reserved = 0, b = ibuf id)
//                       EXECUTE 1 s l bbbbb  (s = shift, l = last)
//   Instruction (12 bits, low bits of a uint16_t, upper 4 bits 0):
//                       LD   00 tt ssss 0000  (tt = stream 0..3, ssss = slot)
//                       MAC  01 b f ssss aa 00 (b = load balance, f = SFU)
//                       ST   10 tt ssss aa 00  (tt = source)
//                       SPU  11 tt iiii oooo   (tt = type, i/o = slots)
//
// Every function returns false and sets `err` to a message naming the
// offending field when a value does not fit or a reserved bit is set.
//
//===----------------------------------------------------------------------===//
#ifndef ACCEL_TARGET_ENCODING_H
#define ACCEL_TARGET_ENCODING_H

#include "accel/Target/Program.h"
#include <cstdint>
#include <string>

namespace accel {

/// Field limits fixed by the encodings.
constexpr unsigned kNumIbufIds = 32; ///< 5-bit buffer id
constexpr unsigned kNumSlots = 16;   ///< 4-bit slot fields
constexpr unsigned kNumAccs = 4;     ///< 2-bit accumulation-buffer id
constexpr unsigned kNumDmaTags = 8;  ///< DMA completion tags

/// Command-byte bit masks.
constexpr uint8_t kCmdOpcodeBit = 0x80;    ///< bit 1: 0 = CONFIG, 1 = EXECUTE
constexpr uint8_t kCmdShiftBit = 0x40;     ///< EXECUTE bit 2
constexpr uint8_t kCmdLastBit = 0x20;      ///< EXECUTE bit 3
constexpr uint8_t kCmdReservedBits = 0x60; ///< CONFIG bits 2-3
constexpr uint8_t kCmdIbufMask = 0x1F;     ///< bits 4-8

/// Instruction-word bit masks (12-bit word in a uint16_t).
constexpr uint16_t kInstrWordMask = 0x0FFF;
constexpr uint16_t kInstrOpcodeMask = 0x0C00; ///< bits 1-2
constexpr unsigned kInstrOpcodeShift = 10;
constexpr uint16_t kInstrSubMask = 0x0300; ///< bits 3-4
constexpr unsigned kInstrSubShift = 8;
constexpr uint16_t kMacLoadBalanceBit = 0x0200; ///< MAC bit 3
constexpr uint16_t kMacSfuBit = 0x0100;         ///< MAC bit 4
constexpr uint16_t kInstrSlotMask = 0x00F0;     ///< bits 5-8
constexpr unsigned kInstrSlotShift = 4;
constexpr uint16_t kInstrAccMask = 0x000C; ///< MAC/ST bits 9-10
constexpr unsigned kInstrAccShift = 2;
constexpr uint16_t kInstrOutSlotMask = 0x000F; ///< SPU bits 9-12

/// Encodes a CONFIG or EXECUTE command (kind, ibuf, shift, last). Any other
/// kind is a command-processor packet without an 8-bit encoding: error.
bool encodeCommand(const Command &cmd, uint8_t &out, std::string &err);
/// Decodes a command byte; sets kind, ibuf, shift and last of `out` (other
/// members are left untouched). CONFIG with reserved bits set is an error.
bool decodeCommand(uint8_t byte, Command &out, std::string &err);

/// Encodes the fields of one instruction. Fields an opcode does not use must
/// be zero/false.
bool encodeInstruction(const InstrFields &f, uint16_t &word, std::string &err);
/// Decodes a 12-bit word; unused fields of `out` are set to zero.
bool decodeInstruction(uint16_t word, InstrFields &out, std::string &err);

/// Mnemonics: "LD", "MAC", "ST", "SPU".
const char *opcodeName(Opcode op);

} // namespace accel

#endif
