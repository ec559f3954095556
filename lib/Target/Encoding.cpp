//===- Encoding.cpp - 8-bit command / 12-bit instruction words ------------===//
#include "accel/Target/Encoding.h"

namespace accel {

const char *opcodeName(Opcode op) {
  switch (op) {
  case Opcode::LD:
    return "LD";
  case Opcode::MAC:
    return "MAC";
  case Opcode::ST:
    return "ST";
  case Opcode::SPU:
    return "SPU";
  }
  return "?";
}

namespace {
bool fail(std::string &err, const std::string &msg) {
  err = msg;
  return false;
}
std::string hex(unsigned v, int digits) {
  static const char *d = "0123456789abcdef";
  std::string s = "0x";
  for (int i = digits - 1; i >= 0; --i)
    s += d[(v >> (4 * i)) & 0xF];
  return s;
}
} // namespace

bool encodeCommand(const Command &cmd, uint8_t &out, std::string &err) {
  if (cmd.kind != CommandKind::Config && cmd.kind != CommandKind::Execute)
    return fail(err, "command kind " + std::to_string(unsigned(cmd.kind)) +
                         " has no 8-bit encoding (only CONFIG and EXECUTE)");
  if (cmd.ibuf >= kNumIbufIds)
    return fail(err, "command field ibuf " + std::to_string(cmd.ibuf) +
                         " out of range [0, 32)");
  if (cmd.kind == CommandKind::Config) {
    if (cmd.shift || cmd.last)
      return fail(err, std::string("CONFIG command has no ") +
                           (cmd.shift ? "shift" : "last") +
                           " bit (bits 2-3 are reserved)");
    out = uint8_t(cmd.ibuf);
    return true;
  }
  out = uint8_t(kCmdOpcodeBit | (cmd.shift ? kCmdShiftBit : 0) |
                (cmd.last ? kCmdLastBit : 0) | cmd.ibuf);
  return true;
}

bool decodeCommand(uint8_t byte, Command &out, std::string &err) {
  if (byte & kCmdOpcodeBit) {
    out.kind = CommandKind::Execute;
    out.shift = byte & kCmdShiftBit;
    out.last = byte & kCmdLastBit;
  } else {
    if (byte & kCmdReservedBits)
      return fail(err, "command byte " + hex(byte, 2) +
                           ": CONFIG reserved bits 2-3 must be 0");
    out.kind = CommandKind::Config;
    out.shift = out.last = false;
  }
  out.ibuf = byte & kCmdIbufMask;
  return true;
}

bool encodeInstruction(const InstrFields &f, uint16_t &word, std::string &err) {
  const std::string op = opcodeName(f.op);
  auto unused = [&](const char *field) {
    return fail(err, op + " instruction does not use field " + field +
                         " (must be 0)");
  };
  if (unsigned(f.op) > 3)
    return fail(err, "instruction field opcode " +
                         std::to_string(unsigned(f.op)) +
                         " out of range [0, 4)");
  if (f.slot >= kNumSlots)
    return fail(err, op + " instruction field slot " + std::to_string(f.slot) +
                         " out of range [0, 16)");
  uint16_t w = uint16_t(unsigned(f.op) << kInstrOpcodeShift) |
               uint16_t(f.slot << kInstrSlotShift);
  switch (f.op) {
  case Opcode::LD:
    if (f.sub > unsigned(LoadStream::SparseWeights))
      return fail(err, "LD instruction field stream " + std::to_string(f.sub) +
                           " is invalid (0 acts, 1 weights, 2 psums, "
                           "3 sparse_weights)");
    if (f.loadBalance)
      return unused("loadBalance");
    if (f.sfuActive)
      return unused("sfuActive");
    if (f.accId)
      return unused("accId");
    if (f.outSlot)
      return unused("outSlot");
    w |= uint16_t(f.sub << kInstrSubShift);
    break;
  case Opcode::MAC:
    if (f.sub)
      return unused("sub");
    if (f.accId >= kNumAccs)
      return fail(err, "MAC instruction field accId " +
                           std::to_string(f.accId) + " out of range [0, 4)");
    if (f.outSlot)
      return unused("outSlot");
    w |= (f.loadBalance ? kMacLoadBalanceBit : 0) |
         (f.sfuActive ? kMacSfuBit : 0) | uint16_t(f.accId << kInstrAccShift);
    break;
  case Opcode::ST:
    if (f.sub > unsigned(StoreSource::InputBuffer))
      return fail(err, "ST instruction field source " + std::to_string(f.sub) +
                           " is invalid (0 acc, 1 inbuf)");
    if (f.accId >= kNumAccs)
      return fail(err, "ST instruction field accId " + std::to_string(f.accId) +
                           " out of range [0, 4)");
    if (f.loadBalance)
      return unused("loadBalance");
    if (f.sfuActive)
      return unused("sfuActive");
    if (f.outSlot)
      return unused("outSlot");
    w |=
        uint16_t(f.sub << kInstrSubShift) | uint16_t(f.accId << kInstrAccShift);
    break;
  case Opcode::SPU:
    if (f.sub > unsigned(SpuType::Copy))
      return fail(err, "SPU instruction field type " + std::to_string(f.sub) +
                           " out of range [0, 4)");
    if (f.outSlot >= kNumSlots)
      return fail(err, "SPU instruction field outSlot " +
                           std::to_string(f.outSlot) + " out of range [0, 16)");
    if (f.loadBalance)
      return unused("loadBalance");
    if (f.sfuActive)
      return unused("sfuActive");
    if (f.accId)
      return unused("accId");
    w |= uint16_t(f.sub << kInstrSubShift) | uint16_t(f.outSlot);
    break;
  }
  word = w;
  return true;
}

bool decodeInstruction(uint16_t word, InstrFields &out, std::string &err) {
  if (word & ~kInstrWordMask)
    return fail(err, "instruction word " + hex(word, 4) +
                         ": bits above the 12-bit word must be 0");
  InstrFields f;
  f.op = Opcode((word & kInstrOpcodeMask) >> kInstrOpcodeShift);
  unsigned sub = (word & kInstrSubMask) >> kInstrSubShift;
  f.slot = uint8_t((word & kInstrSlotMask) >> kInstrSlotShift);
  unsigned acc = (word & kInstrAccMask) >> kInstrAccShift;
  unsigned low4 = word & kInstrOutSlotMask;
  const std::string pre = "instruction word " + hex(word, 4) + ": ";
  switch (f.op) {
  case Opcode::LD:
    if (low4)
      return fail(err, pre + "LD reserved bits 9-12 must be 0");
    f.sub = uint8_t(sub);
    break;
  case Opcode::MAC:
    if (word & 0x3)
      return fail(err, pre + "MAC reserved bits 11-12 must be 0");
    f.loadBalance = word & kMacLoadBalanceBit;
    f.sfuActive = word & kMacSfuBit;
    f.accId = uint8_t(acc);
    break;
  case Opcode::ST:
    if (sub > 1)
      return fail(err, pre + "ST field source " + std::to_string(sub) +
                           " is invalid");
    if (word & 0x3)
      return fail(err, pre + "ST reserved bits 11-12 must be 0");
    f.sub = uint8_t(sub);
    f.accId = uint8_t(acc);
    break;
  case Opcode::SPU:
    f.sub = uint8_t(sub);
    f.outSlot = uint8_t(low4);
    break;
  }
  out = f;
  return true;
}

} // namespace accel
