//===- Program.cpp - Helpers declared in Program.h ------------------------===//
#include "accel/Target/Program.h"
#include <algorithm>
#include <cmath>
#include <cstring>

namespace accel {

bool OperandRecord::operator==(const OperandRecord &o) const {
  // imm is compared bit for bit so that a record always equals its copy
  // (also for NaN payloads) and -0.0 differs from 0.0 as in the binary.
  uint32_t a, b;
  std::memcpy(&a, &imm, 4);
  std::memcpy(&b, &o.imm, 4);
  return addr == o.addr && rows == o.rows && cols == o.cols &&
         rowStride == o.rowStride && colStride == o.colStride &&
         peRows == o.peRows && depth == o.depth && repeat == o.repeat &&
         queueMode == o.queueMode && func == o.func && a == b &&
         base == o.base && step == o.step && pipeline == o.pipeline &&
         acrossPes == o.acrossPes && peAddrs == o.peAddrs;
}

bool applyPatches(std::vector<Instruction> &buffer,
                  const std::vector<RegPatch> &patches, std::string &err) {
  for (size_t i = 0; i < patches.size(); ++i) {
    const RegPatch &pt = patches[i];
    if (pt.instr >= buffer.size()) {
      err = "patch " + std::to_string(i) + " names instruction " +
            std::to_string(pt.instr) + " but the buffer holds " +
            std::to_string(buffer.size());
      return false;
    }
    OperandRecord &r = buffer[pt.instr].operands;
    switch (pt.field) {
    case PatchField::Addr:
      r.addr = pt.value;
      break;
    case PatchField::Rows:
      r.rows = pt.value;
      break;
    case PatchField::Cols:
      r.cols = pt.value;
      break;
    case PatchField::Depth:
      r.depth = pt.value;
      break;
    case PatchField::Base:
      r.base = pt.value;
      break;
    default:
      err = "patch " + std::to_string(i) + " has invalid field " +
            std::to_string(unsigned(pt.field));
      return false;
    }
  }
  return true;
}

OperandRecord advancedOperands(const OperandRecord &r, const InstrFields &f,
                               uint64_t iterations) {
  OperandRecord o = r;
  if (r.pipeline != Pipeline::IdFoSuWb || r.step == 0 || iterations == 0)
    return o;
  // Register-file arithmetic is modulo 2^32 (the validator and the
  // simulator reject the out-of-range addresses this may produce).
  uint32_t delta = uint32_t(int64_t(r.step) * int64_t(iterations));
  if (f.op == Opcode::MAC) {
    o.base = r.base + delta;
  } else {
    o.addr = r.addr + delta;
    for (uint32_t &a : o.peAddrs)
      a += delta;
  }
  return o;
}

uint64_t Symbol::numElements() const {
  uint64_t n = 1;
  for (int64_t d : shape)
    n *= d < 0 ? 0 : uint64_t(d);
  return n;
}

const char *commandKindName(CommandKind k) {
  switch (k) {
  case CommandKind::Config:
    return "CONFIG";
  case CommandKind::Execute:
    return "EXECUTE";
  case CommandKind::Dma:
    return "DMA";
  case CommandKind::Wait:
    return "WAIT";
  case CommandKind::Barrier:
    return "BARRIER";
  case CommandKind::Send:
    return "SEND";
  case CommandKind::Signal:
    return "SIGNAL";
  case CommandKind::Recv:
    return "RECV";
  case CommandKind::Recur:
    return "RECUR";
  }
  return "?";
}

const char *recurActName(RecurAct a) {
  static const char *names[kRecurActs] = {
      "Sigmoid",         "Tanh",       "Relu",        "Affine", "LeakyRelu",
      "ThresholdedRelu", "ScaledTanh", "HardSigmoid", "Elu",    "Softsign",
      "Softplus"};
  return unsigned(a) < kRecurActs ? names[unsigned(a)] : "?";
}

std::optional<RecurAct> recurActNamed(std::string_view name) {
  for (unsigned k = 0; k < kRecurActs; ++k)
    if (name == recurActName(RecurAct(k)))
      return RecurAct(k);
  return std::nullopt;
}

std::vector<RecurOperand> RecurDesc::operands() const {
  const uint64_t h = uint64_t(hidden) * 4, rows = uint64_t(steps);
  const bool lstm = cell == RecurCell::Lstm;
  return {{"weights", weights, weightElems() * 4, false, weightsInDram, false},
          {"bias", bias, biasElems() * 4},
          {"peepholes", peepholes, peephole ? 3 * h : 0},
          {"x", x, rows * inputs * 4},
          {"h0", h0, h, false, false, true},
          {"c0", c0, lstm ? h : 0, false, false, true},
          {"seq_len", seqLen, hasSeqLen ? 4u : 0u},
          {"y", y, rows * h, true},
          {"h_t", hT, h, true},
          {"c_t", cT, lstm ? h : 0, true}};
}

uint64_t RecurDesc::storageEnd() const {
  uint64_t end = 0;
  for (const RecurOperand &o : operands())
    if (o.bytes && !o.inDram)
      end = std::max(end, o.addr + o.bytes);
  return end;
}

float recurActivation(RecurAct a, float alpha, float beta, float x) {
  switch (a) {
  case RecurAct::Sigmoid:
    return 1.0f / (1.0f + std::exp(-x));
  case RecurAct::Tanh:
    return std::tanh(x);
  case RecurAct::Relu:
    return x > 0 ? x : 0.0f;
  case RecurAct::Affine:
    return alpha * x + beta;
  case RecurAct::LeakyRelu:
    return x >= 0 ? x : alpha * x;
  case RecurAct::ThresholdedRelu:
    return x > alpha ? x : 0.0f;
  case RecurAct::ScaledTanh:
    return alpha * std::tanh(beta * x);
  case RecurAct::HardSigmoid:
    return std::min(1.0f, std::max(0.0f, alpha * x + beta));
  case RecurAct::Elu:
    return x >= 0 ? x : alpha * (std::exp(x) - 1.0f);
  case RecurAct::Softsign:
    return x / (1.0f + std::fabs(x));
  case RecurAct::Softplus:
    return std::log1p(std::exp(-std::fabs(x))) + std::max(x, 0.0f);
  }
  return x;
}

const char *dmaDirName(DmaDir d) {
  switch (d) {
  case DmaDir::Load:
    return "load";
  case DmaDir::Store:
    return "store";
  case DmaDir::DramCopy:
    return "dram_copy";
  case DmaDir::RemoteLoad:
    return "remote_load";
  case DmaDir::LocalCopy:
    return "local_copy";
  }
  return "?";
}

std::string int128String(__int128 v) {
  if (v == 0)
    return "0";
  bool neg = v < 0;
  unsigned __int128 u =
      neg ? (unsigned __int128)(-(v + 1)) + 1 : (unsigned __int128)v;
  std::string s;
  while (u) {
    s += char('0' + int(u % 10));
    u /= 10;
  }
  if (neg)
    s += '-';
  return std::string(s.rbegin(), s.rend());
}

} // namespace accel
