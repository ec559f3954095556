//===- Sfu.h - Special function unit: the one table of functions -*- C++ -*-=//
//
// Every SFU function number with its name, the instruction kinds it may be
// used in, and its arithmetic. The binary reader/writer and validateProgram
// accept exactly the functions listed here; the simulator computes with
// sfuUnary / sfuBinary / sfuReduce so compiler tests and simulator agree.
//
//===----------------------------------------------------------------------===//
#ifndef ACCEL_TARGET_SFU_H
#define ACCEL_TARGET_SFU_H

#include "accel/Target/Program.h"

namespace accel {

enum class SfuKind : uint8_t {
  None,       ///< SfuFunc::None only
  Unary,      ///< SPU unary, ST chained function (one operand, param imm)
  Binary,     ///< SPU binary, elementwise on two equal tiles; Add/Mul/Max/Min
              ///< also reduce
  RowBinary,  ///< SPU binary whose second tile has one value per row
  ReduceOnly, ///< SPU reduce only (argmax / argmin)
};

struct SfuInfo {
  SfuFunc func;
  const char *name;
  SfuKind kind;
};

/// nullptr when `code` is not a defined function number.
const SfuInfo *sfuInfo(uint8_t code);
inline bool isValidSfuFunc(uint8_t code) { return sfuInfo(code) != nullptr; }
/// Whether `f` may be used by an instruction of this kind.
bool sfuAllowedInUnary(SfuFunc f);  ///< SPU unary and ST / chained mode
bool sfuAllowedInBinary(SfuFunc f); ///< SPU binary (elementwise or row)
bool sfuAllowedInReduce(SfuFunc f); ///< SPU reduce
bool sfuIsRowBinary(SfuFunc f);

float sfuUnary(SfuFunc f, float x, float imm);
float sfuBinary(SfuFunc f, float x, float y);
/// Reduces `n` values (n >= 1); argmax/argmin return the index as a float.
float sfuReduce(SfuFunc f, const float *row, size_t n, float imm);

} // namespace accel

#endif
