//===- Program.cpp - Helpers declared in Program.h ------------------------===//
#include "accel/Target/Program.h"
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
         queueMode == o.queueMode && func == o.func && a == b;
}

uint64_t Symbol::numElements() const {
  uint64_t n = 1;
  for (int64_t d : shape)
    n *= d < 0 ? 0 : uint64_t(d);
  return n;
}

} // namespace accel
